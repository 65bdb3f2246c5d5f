//! Composite format strings (`string.Format`, `Console.WriteLine("{0,5:F2}", x)`): parsing into
//! literal text and holes `{index[,alignment][:format]}` with .NET 8's exact `FormatException`
//! messages (offsets in UTF-16 code units), and alignment padding.

/// One piece of a parsed composite format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompositePart {
    /// Literal text (`{{`/`}}` already unescaped).
    Text(String),
    /// A format item.
    Hole {
        /// Argument index (0..1_000_000).
        index: usize,
        /// Field width: positive pads on the left, negative on the right, 0 none.
        alignment: i32,
        /// Format string after `:` (`None` when absent or empty).
        format: Option<String>,
    },
}

/// A malformed composite format string or a bad argument index (`System.FormatException`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompositeError {
    /// A `}` outside a hole that is not doubled.
    UnexpectedClosingBrace {
        /// UTF-16 offset .NET reports.
        offset: usize,
    },
    /// The hole ends early, has an unexpected character, or contains `{`.
    UnclosedFormatItem {
        /// UTF-16 offset .NET reports.
        offset: usize,
    },
    /// A digit was required (index or alignment).
    ExpectedAsciiDigit {
        /// UTF-16 offset .NET reports.
        offset: usize,
    },
    /// An index is not below the number of arguments.
    IndexOutOfRange,
}

/// The message of the index error (the caller checks indexes against its argument count).
pub fn index_out_of_range_message() -> &'static str {
    "Index (zero based) must be greater than or equal to zero and less than the size of the argument list."
}

impl CompositeError {
    /// The exact .NET 8 `FormatException` message.
    pub fn message(&self) -> String {
        let (offset, reason) = match self {
            CompositeError::IndexOutOfRange => return index_out_of_range_message().to_string(),
            CompositeError::UnexpectedClosingBrace { offset } => (offset, "Unexpected closing brace without a corresponding opening brace."),
            CompositeError::UnclosedFormatItem { offset } => (offset, "Format item ends prematurely."),
            CompositeError::ExpectedAsciiDigit { offset } => (offset, "Expected an ASCII digit."),
        };
        format!("Input string was not in a correct format. Failure to parse near offset {offset}. {reason}")
    }
}

impl std::fmt::Display for CompositeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl std::error::Error for CompositeError {}

/// Exclusive upper bound of indexes and widths (.NET's `IndexLimit`/`WidthLimit`).
const LIMIT: usize = 1_000_000;

/// Parses a composite format string without checking indexes.
pub fn parse_composite(fmt: &str) -> Result<Vec<CompositePart>, CompositeError> {
    CompositeParts::new(fmt, None).collect()
}

/// Parses and checks every index against `arg_count`, reporting errors in the order .NET meets
/// them (an out-of-range index is reported before a syntax error further right).
pub fn parse_composite_checked(fmt: &str, arg_count: usize) -> Result<Vec<CompositePart>, CompositeError> {
    CompositeParts::new(fmt, Some(arg_count)).collect()
}

/// Either a malformed format string or an error from formatting an argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompositeFailure<E> {
    /// Syntax or index error (`FormatException`).
    Syntax(CompositeError),
    /// The argument formatter failed (e.g. `{0:D}` on a double).
    Arg(E),
}

/// `string.Format`: walks the format left to right, calling `format_arg(index, format)` for each
/// hole as .NET does (so an argument error comes before a syntax error further right), and
/// applies alignment.
pub fn format_composite<E>(
    fmt: &str,
    arg_count: usize,
    mut format_arg: impl FnMut(usize, Option<&str>) -> Result<String, E>,
) -> Result<String, CompositeFailure<E>> {
    let mut out = String::with_capacity(fmt.len() + 16);
    for part in CompositeParts::new(fmt, Some(arg_count)) {
        match part.map_err(CompositeFailure::Syntax)? {
            CompositePart::Text(t) => out.push_str(&t),
            CompositePart::Hole { index, alignment, format } => {
                let text = format_arg(index, format.as_deref()).map_err(CompositeFailure::Arg)?;
                out.push_str(&align(&text, alignment));
            }
        }
    }
    Ok(out)
}

/// Iterator over the parts of a composite format string; yields one error and then stops.
pub struct CompositeParts {
    cursor: Cursor,
    arg_count: Option<usize>,
    pending: Option<CompositePart>,
    done: bool,
}

impl CompositeParts {
    /// Parts of `fmt`; with `Some(n)`, indexes ≥ n are reported as [`CompositeError::IndexOutOfRange`].
    pub fn new(fmt: &str, arg_count: Option<usize>) -> Self {
        CompositeParts { cursor: Cursor { units: fmt.encode_utf16().collect(), pos: 0 }, arg_count, pending: None, done: false }
    }

    /// Reads literal text up to the next hole; returns the text and the hole (if any).
    fn step(&mut self) -> Result<(Vec<u16>, Option<CompositePart>), CompositeError> {
        let c = &mut self.cursor;
        let mut text = Vec::new();
        while c.pos < c.units.len() {
            let brace = c.at(c.pos);
            if brace != OPEN && brace != CLOSE {
                text.push(brace);
                c.pos += 1;
                continue;
            }
            let ch = c.move_next()?;
            if ch == brace {
                text.push(brace);
                c.pos += 1;
                continue;
            }
            if brace == CLOSE {
                return Err(CompositeError::UnexpectedClosingBrace { offset: c.pos });
            }
            let hole = parse_hole(c, ch)?;
            if let (CompositePart::Hole { index, .. }, Some(n)) = (&hole, self.arg_count) {
                if *index >= n {
                    return Err(CompositeError::IndexOutOfRange);
                }
            }
            c.pos += 1;
            return Ok((text, Some(hole)));
        }
        Ok((text, None))
    }
}

impl Iterator for CompositeParts {
    type Item = Result<CompositePart, CompositeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(hole) = self.pending.take() {
            return Some(Ok(hole));
        }
        if self.done {
            return None;
        }
        match self.step() {
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
            Ok((text, hole)) => {
                self.done = hole.is_none();
                match (text.is_empty(), hole) {
                    (true, Some(h)) => Some(Ok(h)),
                    (true, None) => None,
                    (false, h) => {
                        self.pending = h;
                        Some(Ok(CompositePart::Text(String::from_utf16_lossy(&text))))
                    }
                }
            }
        }
    }
}

/// UTF-16 cursor over the format; moving past the end inside a hole is an error.
struct Cursor {
    units: Vec<u16>,
    pos: usize,
}

impl Cursor {
    fn at(&self, i: usize) -> u16 {
        self.units.get(i).copied().unwrap_or(0)
    }

    /// Advances and returns the new character, or `UnclosedFormatItem` at the end of the input.
    fn move_next(&mut self) -> Result<u16, CompositeError> {
        self.pos += 1;
        if self.pos >= self.units.len() {
            return Err(CompositeError::UnclosedFormatItem { offset: self.pos });
        }
        Ok(self.units[self.pos])
    }

    fn text(&self, from: usize, to: usize) -> String {
        String::from_utf16_lossy(&self.units[from.min(to)..to.min(self.units.len())])
    }
}

const OPEN: u16 = b'{' as u16;
const CLOSE: u16 = b'}' as u16;

fn digit(u: u16) -> Option<usize> {
    (u16::from(b'0')..=u16::from(b'9')).contains(&u).then(|| usize::from(u - u16::from(b'0')))
}

/// Parses a hole whose first character after `{` is `ch`; leaves the cursor on the closing `}`.
fn parse_hole(c: &mut Cursor, mut ch: u16) -> Result<CompositePart, CompositeError> {
    let mut index = digit(ch).ok_or(CompositeError::ExpectedAsciiDigit { offset: c.pos })?;
    let mut alignment = 0i32;
    let mut format = None;
    ch = c.move_next()?;
    if ch != CLOSE {
        while let Some(d) = digit(ch).filter(|_| index < LIMIT) {
            index = index * 10 + d;
            ch = c.move_next()?;
        }
        ch = skip_spaces(c, ch)?;
        if ch == u16::from(b',') {
            (alignment, ch) = parse_alignment(c)?;
        }
        if ch != CLOSE {
            if ch != u16::from(b':') {
                return Err(CompositeError::UnclosedFormatItem { offset: c.pos });
            }
            let start = c.pos + 1;
            loop {
                ch = c.move_next()?;
                if ch == CLOSE {
                    break;
                }
                if ch == OPEN {
                    return Err(CompositeError::UnclosedFormatItem { offset: c.pos });
                }
            }
            let spec = c.text(start, c.pos);
            format = (!spec.is_empty()).then_some(spec);
        }
    }
    Ok(CompositePart::Hole { index, alignment, format })
}

fn skip_spaces(c: &mut Cursor, mut ch: u16) -> Result<u16, CompositeError> {
    while ch == u16::from(b' ') {
        ch = c.move_next()?;
    }
    Ok(ch)
}

/// Parses `, [spaces] [-] digits [spaces]` after the comma; returns the alignment and next char.
fn parse_alignment(c: &mut Cursor) -> Result<(i32, u16), CompositeError> {
    let mut ch = c.move_next()?;
    ch = skip_spaces(c, ch)?;
    let left = ch == u16::from(b'-');
    if left {
        ch = c.move_next()?;
    }
    let mut width = digit(ch).ok_or(CompositeError::ExpectedAsciiDigit { offset: c.pos })?;
    ch = c.move_next()?;
    while let Some(d) = digit(ch).filter(|_| width < LIMIT) {
        width = width * 10 + d;
        ch = c.move_next()?;
    }
    ch = skip_spaces(c, ch)?;
    let width = i32::try_from(width).unwrap_or(i32::MAX);
    Ok((if left { -width } else { width }, ch))
}

/// Pads `text` with spaces to `|alignment|` UTF-16 code units: on the left for a positive
/// alignment (right-justified), on the right for a negative one.
pub fn align(text: &str, alignment: i32) -> String {
    let width = alignment.unsigned_abs() as usize;
    let len = text.encode_utf16().count();
    if len >= width {
        return text.to_string();
    }
    let pad = " ".repeat(width - len);
    if alignment > 0 {
        pad + text
    } else {
        text.to_string() + &pad
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hole(index: usize, alignment: i32, format: Option<&str>) -> CompositePart {
        CompositePart::Hole { index, alignment, format: format.map(str::to_string) }
    }

    #[test]
    fn parses_holes_and_escapes() {
        let parts = parse_composite("a{{b}}{0,5:F2} {1,-3}{2:}x");
        assert_eq!(
            parts,
            Ok(vec![
                CompositePart::Text("a{b}".into()),
                hole(0, 5, Some("F2")),
                CompositePart::Text(" ".into()),
                hole(1, -3, None),
                hole(2, 0, None),
                CompositePart::Text("x".into()),
            ])
        );
        assert_eq!(align("42", 5), "   42");
        assert_eq!(align("42", -5), "42   ");
        assert_eq!(align("\u{1F600}", 3), " \u{1F600}");
        assert_eq!(parse_composite_checked("{1}", 1), Err(CompositeError::IndexOutOfRange));
    }
}
