//! cs-lite's front end: source text → tokens → AST with spans, plus parse diagnostics.
//! (Being written: lexer, disambiguation pass and grammar.)

pub mod ast;
pub mod diagnostic;
pub mod span;
