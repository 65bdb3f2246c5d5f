//! Diagnostics as values: a C# error code, a message, the span it points at and whether it
//! is an error or a warning. Rendering them (`FILE(line,col): error CSxxxx: ...` plus the
//! source line and a caret) is the vm crate's job; this crate only produces them.

use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    /// Printed, but compilation goes on and the program runs (`#warning`).
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// C#'s code where one fits (`CS1002`), else a `CSL` code of our own.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    pub severity: Severity,
}

impl Diagnostic {
    pub fn new(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { code, message: message.into(), span, severity: Severity::Error }
    }

    pub fn warning(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { code, message: message.into(), span, severity: Severity::Warning }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
