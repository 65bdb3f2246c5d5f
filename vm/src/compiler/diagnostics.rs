//! Compile errors and warnings as values, and their one rendering path: MSBuild's
//! `FILE(line,col): error CSxxxx: message` (or `warning`), followed by the source line and
//! a caret.

use crate::metadata::{FileId, SourceFile};
use grammar::diagnostic::Severity;
use grammar::span::{LineCol, Span};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub file: FileId,
    pub span: Span,
    pub code: &'static str,
    pub message: String,
    pub severity: Severity,
}

#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    /// Errors: the program does not run.
    pub items: Vec<Diag>,
    /// Warnings: printed, the program still runs.
    pub warnings: Vec<Diag>,
}

impl Diagnostics {
    pub fn error(&mut self, file: FileId, span: Span, code: &'static str, message: impl Into<String>) {
        self.items.push(Diag { file, span, code, message: message.into(), severity: Severity::Error });
    }

    pub fn warning(&mut self, file: FileId, span: Span, code: &'static str, message: impl Into<String>) {
        self.warnings.push(Diag { file, span, code, message: message.into(), severity: Severity::Warning });
    }

    /// `--warnaserror`: the warnings become errors.
    pub fn promote_warnings(&mut self) {
        for mut d in std::mem::take(&mut self.warnings) {
            d.severity = Severity::Error;
            self.items.push(d);
        }
    }

    pub fn has_errors(&self) -> bool {
        !self.items.is_empty()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Errors in source order, without duplicates.
    pub fn sorted(&self) -> Vec<Diag> {
        source_order(self.items.clone())
    }

    /// Errors and warnings in source order, without duplicates.
    pub fn sorted_with_warnings(&self) -> Vec<Diag> {
        source_order(self.items.iter().chain(&self.warnings).cloned().collect())
    }
}

fn source_order(mut v: Vec<Diag>) -> Vec<Diag> {
    v.sort_by_key(|d| (d.file, d.span.start, d.span.end));
    v.dedup();
    v
}

/// Renders diagnostics for a terminal or a log: one block per error.
pub fn render(diags: &[Diag], files: &[SourceFile]) -> String {
    render_located(diags, files, |file, lc| format!("{}({},{})", file.name, lc.line, lc.col))
}

/// As [`render`], with the location prefix of each error chosen by `locate` (the REPL
/// numbers lines within the input just typed: `(1,5)`).
pub fn render_located(diags: &[Diag], files: &[SourceFile], locate: impl Fn(&SourceFile, LineCol) -> String) -> String {
    let mut out = String::new();
    for d in diags {
        let Some(file) = files.get(d.file.index()) else { continue };
        let lc = file.line_col(d.span.start);
        let severity = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        out.push_str(&format!("{}: {severity} {}: {}\n", locate(file, lc), d.code, d.message));
        let line = file.line_text(lc.line);
        if !line.trim().is_empty() {
            let (shown, col) = excerpt(line, lc.col);
            out.push_str(shown);
            out.push('\n');
            out.push_str(&caret_line(file, shown, d.span, lc.col, col));
            out.push('\n');
        }
    }
    out
}

/// The longest source line shown under a diagnostic, in characters.
const MAX_SHOWN_LINE: usize = 240;

/// The part of `line` shown under a diagnostic at 1-based UTF-16 column `col`: the whole
/// line, or for a long one (generated code on one line) the [`MAX_SHOWN_LINE`] characters
/// around the column; with the column within what is shown.
fn excerpt(line: &str, col: u32) -> (&str, u32) {
    if line.len() <= MAX_SHOWN_LINE {
        return (line, col);
    }
    let start_char = (col as usize).saturating_sub(MAX_SHOWN_LINE / 2);
    let mut chars = line.char_indices().skip(start_char);
    let Some((start, _)) = chars.next() else { return (line, col) };
    let end = chars.nth(MAX_SHOWN_LINE - 1).map_or(line.len(), |(i, _)| i);
    let skipped_units: usize = line[..start].chars().map(char::len_utf16).sum();
    (&line[start..end], col.saturating_sub(skipped_units as u32))
}

/// Spaces (tabs kept, so the caret lines up) up to the column within the shown `line`,
/// then `^` under the span's part on this line (at least one).
fn caret_line(file: &SourceFile, line: &str, span: Span, col: u32, shown_col: u32) -> String {
    let prefix: String = line.chars().take(shown_col.saturating_sub(1) as usize).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    let end_lc = file.line_col(span.end);
    let same_line = end_lc.line == file.line_col(span.start).line;
    let width = if same_line { end_lc.col.saturating_sub(col) } else { 1 };
    let room = line.chars().count().saturating_sub(prefix.chars().count()).max(1);
    format!("{prefix}{}", "^".repeat((width.max(1) as usize).min(room)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_line_is_shown_whole() {
        assert_eq!(excerpt("int x = y;", 9), ("int x = y;", 9));
    }

    #[test]
    fn a_long_line_is_shown_around_the_column() {
        let line = format!("{}y{}", "a".repeat(5000), "b".repeat(5000));
        let (shown, col) = excerpt(&line, 5001);
        assert_eq!(shown.chars().count(), MAX_SHOWN_LINE);
        assert_eq!(shown.chars().nth(col as usize - 1), Some('y'));
    }
}
