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
            out.push_str(line);
            out.push('\n');
            out.push_str(&caret_line(file, line, d.span, lc.col));
            out.push('\n');
        }
    }
    out
}

/// Spaces (tabs kept, so the caret lines up) up to the column, then `^` under the span's
/// part on this line (at least one).
fn caret_line(file: &SourceFile, line: &str, span: Span, col: u32) -> String {
    let prefix: String = line.chars().take(col.saturating_sub(1) as usize).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
    let end_lc = file.line_col(span.end);
    let same_line = end_lc.line == file.line_col(span.start).line;
    let width = if same_line { end_lc.col.saturating_sub(col) } else { 1 };
    format!("{prefix}{}", "^".repeat(width.max(1) as usize))
}
