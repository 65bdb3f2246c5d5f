//! Source positions: byte spans, and the line table that turns them into C#'s
//! 1-based `(line,col)` form.

use std::borrow::Cow;

/// A half-open byte range `[start, end)` into one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, bincode::Encode, bincode::Decode)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn is_empty(&self) -> bool {
        self.start >= self.end
    }
}

/// A source file: its display name, its text (borrowed when it is built into the program,
/// as the standard library is) and the byte offset of every line start.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: Cow<'static, str>,
    line_starts: Vec<u32>,
}

/// A 1-based line and column; the column counts UTF-16 code units, as Roslyn does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<Cow<'static, str>>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile { name: name.into(), text, line_starts }
    }

    /// The line and column of a byte offset (clamped to the text).
    pub fn line_col(&self, offset: u32) -> LineCol {
        let offset = offset.min(self.text.len() as u32);
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let mut end = offset as usize;
        while end > start && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let col = self.text[start..end].encode_utf16().count() as u32 + 1;
        LineCol { line: line as u32 + 1, col }
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line.max(1) - 1) as usize;
        let Some(&start) = self.line_starts.get(i) else { return "" };
        let end = self.line_starts.get(i + 1).map_or(self.text.len(), |&e| e as usize);
        self.text[start as usize..end].trim_end_matches(['\n', '\r'])
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_utf16_units() {
        let f = SourceFile::new("a.cs", "ab\n中文x\n");
        assert_eq!(f.line_col(0), LineCol { line: 1, col: 1 });
        assert_eq!(f.line_col(3), LineCol { line: 2, col: 1 });
        assert_eq!(f.line_col(9), LineCol { line: 2, col: 3 });
        assert_eq!(f.line_text(2), "中文x");
    }
}
