//! Diagnostics as values: a C# error code, a message and the span it points at.
//! Rendering them (`FILE(line,col): error CSxxxx: ...` plus the source line and a caret)
//! is the vm crate's job; this crate only produces them.

use crate::span::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// C#'s code where one fits (`CS1002`), else a `CSL` code of our own.
    pub code: &'static str,
    pub message: String,
    pub span: Span,
}

impl Diagnostic {
    pub fn new(code: &'static str, message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic { code, message: message.into(), span }
    }
}
