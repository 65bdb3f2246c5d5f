//! cs-lite's front end: source text → tokens → AST with spans, plus parse diagnostics.
//!
//! The pipeline is `lexer` (logos + hand-written literal scanning) → `disambiguate`
//! (token rewriting that keeps the grammar LR(1)) → the lalrpop `grammar` → `parser`
//! (error mapping and assembly). [`parse`], [`parse_expression`] and [`tokenize`] are the
//! whole public surface; the AST lives in [`ast`], member-body helpers in [`bodies`].

pub mod ast;
pub mod bodies;
pub mod diagnostic;
pub mod image;
pub mod span;
pub mod token;

mod actions;
mod disambiguate;
mod lexer;
mod limits;
mod literals;
mod parser;
mod pp_condition;
mod preprocess;
mod query;
mod strings;
mod typescan;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused, unused_qualifications)]
    grammar
);

use crate::actions::Parsed;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::token::TokenClass;

/// The result of parsing a whole file.
#[derive(Clone, Debug)]
pub struct ParseOutput {
    pub unit: ast::CompilationUnit,
    pub diagnostics: Vec<Diagnostic>,
    /// True when some error was "unexpected end of file" (an unterminated string or
    /// comment, an unclosed brace, a statement cut short): the REPL asks for more input.
    pub incomplete: bool,
}

/// Parses a whole source file. Never panics; always returns a (possibly partial) unit.
pub fn parse(text: &str) -> ParseOutput {
    let out = parser::parse_range(text, 0, text.len(), false);
    let mut diagnostics = out.diagnostics;
    let items = match out.parsed {
        Parsed::File(items) => items,
        Parsed::Expr(_) => Vec::new(),
    };
    let unit = parser::compilation_unit(items, &mut diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    ParseOutput { unit, diagnostics, incomplete: out.incomplete }
}

/// Parses a single expression (the whole text).
pub fn parse_expression(text: &str) -> (Option<ast::Expr>, Vec<Diagnostic>) {
    let (expr, diagnostics, _) = parser::parse_expr_range(text, 0, text.len());
    (expr, diagnostics)
}

/// Classifies every token (comments included) for syntax highlighting. Contextual
/// keywords are reported as keywords where they act as keywords.
pub fn tokenize(text: &str) -> Vec<(Span, TokenClass)> {
    let lexed = lexer::lex(text, 0, text.len());
    let code: Vec<lexer::Lexeme> = lexed.tokens.iter().copied().filter(|t| !t.kind.is_trivia()).collect();
    let rewritten = disambiguate::disambiguate(code, &lexed.values, text.len(), false);
    let mut finals = std::collections::HashMap::new();
    for t in &rewritten.tokens {
        finals.insert(t.span.start, t.kind);
    }
    lexed
        .tokens
        .iter()
        .map(|t| {
            let kind = match finals.get(&t.span.start) {
                Some(&k) if !t.kind.is_trivia() => k,
                _ => t.kind,
            };
            let class = if kind == token::Token::Ident && t.kind == token::Token::Ident { TokenClass::Identifier } else { kind.class() };
            (t.span, class)
        })
        .collect()
}
