//! The lexer wrapper: drives the logos lexer over (part of) a source text and produces
//! [`Lexeme`]s with absolute spans, decoded literal values and lexical diagnostics.
//!
//! It finishes what logos only starts: string-like literals (via `strings.rs`), unterminated
//! block comments, preprocessor directives (via `preprocess.rs`: lines an `#if` excludes
//! become one `Skipped` trivia token and are not lexed) and the shebang, and stray
//! characters (an `Error` token plus CS1056).

use logos::Logos;

use crate::ast::Literal;
use crate::diagnostic::Diagnostic;
use crate::preprocess::Preprocessor;
use crate::span::Span;
use crate::strings::{self, LitValue, RawPart};
use crate::token::Token;

/// A token with its absolute span and an index into [`Lexed::values`] (0 = no value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lexeme {
    pub kind: Token,
    pub span: Span,
    pub value: u32,
}

/// Data carried by identifiers and literals.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    None,
    /// An identifier's name (without a leading `@`).
    Name(String),
    Lit(Literal),
    Interp(Vec<RawPart>),
}

/// The output of lexing: tokens (trivia included), values and diagnostics.
#[derive(Clone, Debug)]
pub struct Lexed {
    pub tokens: Vec<Lexeme>,
    pub values: Vec<Value>,
    pub diagnostics: Vec<Diagnostic>,
    /// Some literal or comment ran into the end of the input.
    pub incomplete: bool,
}

/// Lexes `src[start..end]`; spans are absolute offsets into `src`.
pub fn lex(src: &str, start: usize, end: usize) -> Lexed {
    let mut w = Wrapper {
        base: start,
        slice: src.get(start..end).unwrap_or(""),
        out: Lexed { tokens: Vec::new(), values: vec![Value::None], diagnostics: Vec::new(), incomplete: false },
        pp: Preprocessor::new(),
    };
    w.run();
    w.pp.finish(end, &mut w.out.diagnostics);
    w.out
}

struct Wrapper<'a> {
    base: usize,
    slice: &'a str,
    out: Lexed,
    pp: Preprocessor,
}

/// An identifier's name with its Unicode escapes (`\u0046oo` is `Foo`) decoded; the
/// lexer's pattern admits only well-formed ones.
fn unescape_identifier(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let digits = if rest[i + 1..].starts_with('U') { 8 } else { 4 };
        let hex = rest.get(i + 2..i + 2 + digits).unwrap_or("");
        let decoded = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
        out.push(decoded.unwrap_or(char::REPLACEMENT_CHARACTER));
        rest = rest.get(i + 2 + digits..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

impl<'a> Wrapper<'a> {
    fn run(&mut self) {
        let mut lx = Token::lexer(self.slice);
        while let Some(res) = lx.next() {
            let span = lx.span();
            if res == Ok(Token::Hash) && !self.is_shebang(span.start) {
                let resume = self.directives(span.start);
                lx.bump(resume - span.end);
                continue;
            }
            let (kind, end, value) = match res {
                Ok(kind) => self.token(kind, span.start, span.end),
                Err(_) => self.stray(span.start),
            };
            if end > span.end && self.slice.is_char_boundary(end) && end <= self.slice.len() {
                lx.bump(end - span.end);
            }
            let end = end.max(span.end);
            self.push(kind, span.start, end, value);
        }
    }

    fn push(&mut self, kind: Token, start: usize, end: usize, value: Value) {
        let idx = match value {
            Value::None => 0,
            v => {
                self.out.values.push(v);
                (self.out.values.len() - 1) as u32
            }
        };
        let span = Span::new(self.base + start, self.base + end);
        self.pp.seen_token |= !kind.is_trivia();
        self.out.tokens.push(Lexeme { kind, span, value: idx });
    }

    fn error(&mut self, start: usize, end: usize, code: &'static str, message: impl Into<String>) {
        let span = Span::new(self.base + start, self.base + end);
        self.out.diagnostics.push(Diagnostic::new(code, message, span));
    }

    /// Finishes one logos token: returns its final kind, end and value.
    fn token(&mut self, kind: Token, start: usize, end: usize) -> (Token, usize, Value) {
        let text = &self.slice[start..end];
        match kind {
            Token::Ident => (kind, end, Value::Name(unescape_identifier(text.trim_start_matches('@')))),
            Token::IntLit => self.number(kind, start, end, crate::literals::int_literal(text)),
            Token::RealLit => self.number(kind, start, end, crate::literals::real_literal(text)),
            Token::Quote | Token::AtQuote | Token::DollarQuote | Token::CharQuote => self.literal(start),
            Token::UnterminatedComment => {
                self.error(start, start + 2, "CS1035", "End-of-file found, '*/' expected");
                self.out.incomplete = true;
                (kind, self.slice.len(), Value::None)
            }
            Token::Hash => (Token::Directive, line_end(self.slice, start).trim_cr(self.slice), Value::None),
            _ => (kind, end, Value::None),
        }
    }

    fn number(&mut self, kind: Token, start: usize, end: usize, res: Result<Literal, crate::literals::LitError>) -> (Token, usize, Value) {
        match res {
            Ok(lit) => (kind, end, Value::Lit(lit)),
            Err(e) => {
                self.error(start, end, e.code, e.message);
                let zero = Literal::Int { value: 0, suffix: crate::ast::IntSuffix::None };
                (kind, end, Value::Lit(zero))
            }
        }
    }

    fn literal(&mut self, start: usize) -> (Token, usize, Value) {
        let sc = strings::scan_literal(self.slice, start);
        for e in &sc.errors {
            self.error(e.span.0, e.span.1, e.code, e.message.clone());
        }
        if sc.hit_eof {
            self.out.incomplete = true;
        }
        let value = match sc.value {
            LitValue::Str(s) => Value::Lit(Literal::String(s)),
            LitValue::Char(c) => Value::Lit(Literal::Char(c)),
            LitValue::Interp(parts) => Value::Interp(self.absolute(parts)),
        };
        (sc.kind, sc.end, value)
    }

    /// Makes the byte ranges of interpolation holes absolute.
    fn absolute(&self, parts: Vec<RawPart>) -> Vec<RawPart> {
        let b = self.base;
        let shift = |r: (usize, usize)| (r.0 + b, r.1 + b);
        parts
            .into_iter()
            .map(|p| match p {
                RawPart::Hole { expr, alignment, format, span } => {
                    RawPart::Hole { expr: shift(expr), alignment: alignment.map(shift), format, span: shift(span) }
                }
                text => text,
            })
            .collect()
    }

    fn is_shebang(&self, start: usize) -> bool {
        self.base + start == 0 && self.slice.starts_with("#!")
    }

    /// A directive line whose `#` is at `hash`, then, while code is excluded, the skipped
    /// lines up to the next directive and that directive, and so on; returns where lexing
    /// resumes (the end of the last directive line, or of the input).
    fn directives(&mut self, mut hash: usize) -> usize {
        loop {
            let eol = line_end(self.slice, hash);
            let line_start = self.slice[..hash].rfind('\n').map_or(0, |k| k + 1);
            let after_code = !self.slice[line_start..hash].trim().is_empty();
            self.pp.directive(self.base + hash, &self.slice[hash + 1..eol.trim_cr(self.slice)], after_code, &mut self.out.diagnostics);
            self.push(Token::Directive, hash, eol.trim_cr(self.slice), Value::None);
            if self.pp.active() {
                return eol;
            }
            let next = next_directive(self.slice, eol);
            let skipped_end = next.unwrap_or(self.slice.len());
            if skipped_end > eol {
                self.push(Token::Skipped, eol, skipped_end, Value::None);
            }
            match next {
                Some(h) => hash = h,
                None => return self.slice.len(),
            }
        }
    }

    /// A character no token starts with: CS1056 and an `Error` token covering it.
    fn stray(&mut self, start: usize) -> (Token, usize, Value) {
        let c = self.slice[start..].chars().next().unwrap_or('\0');
        let end = start + c.len_utf8().max(1);
        self.error(start, end, "CS1056", format!("Unexpected character '{c}'"));
        (Token::Error, end, Value::None)
    }
}

/// The end of the line holding `at` (the offset of its `\n`, or of the input's end).
fn line_end(s: &str, at: usize) -> usize {
    s[at..].find('\n').map_or(s.len(), |k| at + k)
}

/// The `#` of the first line after offset `from` whose first non-blank character is `#`.
fn next_directive(s: &str, from: usize) -> Option<usize> {
    let mut line_start = from;
    while line_start < s.len() {
        let end = line_end(s, line_start);
        let line = &s[line_start..end];
        let blanks = line.len() - line.trim_start().len();
        if line[blanks..].starts_with('#') {
            return Some(line_start + blanks);
        }
        line_start = end + 1;
    }
    None
}

/// Keeps a directive's span off a trailing `\r`.
trait TrimCr {
    fn trim_cr(self, s: &str) -> usize;
}

impl TrimCr for usize {
    fn trim_cr(self, s: &str) -> usize {
        if self > 0 && s.as_bytes().get(self - 1) == Some(&b'\r') {
            self - 1
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Token> {
        lex(src, 0, src.len()).tokens.iter().map(|t| t.kind).collect()
    }

    fn codes(src: &str) -> Vec<&'static str> {
        lex(src, 0, src.len()).diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn operators_and_numbers() {
        use Token::*;
        assert_eq!(kinds("a>>=b"), vec![Ident, Gt, GtEq, Ident]);
        assert_eq!(kinds("x ? .5 : 1"), vec![Ident, Question, RealLit, Colon, IntLit]);
        assert_eq!(kinds("1..2"), vec![IntLit, DotDot, IntLit]);
        assert_eq!(kinds("1.ToString()"), vec![IntLit, Dot, Ident, LParen, RParen]);
        assert_eq!(kinds("a?.b??c"), vec![Ident, Question, Dot, Ident, QuestionQuestion, Ident]);
        assert_eq!(kinds("0xFFul 1e10 2.5F 10M"), vec![IntLit, RealLit, RealLit, RealLit]);
    }

    #[test]
    fn identifiers_and_keywords() {
        let src = "@class var класс";
        let l = lex(src, 0, src.len());
        assert_eq!(l.values[l.tokens[0].value as usize], Value::Name("class".into()));
        assert_eq!(l.tokens.iter().map(|t| t.kind).collect::<Vec<_>>(), vec![Token::Ident; 3]);
    }

    #[test]
    fn comments_directives_and_strays() {
        use Token::*;
        assert_eq!(kinds("a // c\n/* d */ b"), vec![Ident, LineComment, BlockComment, Ident]);
        assert_eq!(kinds("#nullable enable\nx"), vec![Directive, Ident]);
        assert_eq!(kinds("#!/usr/bin/env cs\nx"), vec![Directive, Ident]);
        assert_eq!(kinds("  #region A\n#endregion"), vec![Directive, Directive]);
        assert_eq!(codes("a # b"), vec!["CS1040"]);
        assert_eq!(codes("a ` b"), vec!["CS1056"]);
        assert_eq!(codes("/* open"), vec!["CS1035"]);
        assert!(lex("/* open", 0, 7).incomplete);
    }

    #[test]
    fn literals_become_single_tokens() {
        use Token::*;
        assert_eq!(kinds(r#"f("a", @"b""c", 'x', $"{y}")"#), vec![Ident, LParen, StringLit, Comma, StringLit, Comma, CharLit, Comma, InterpString, RParen]);
        assert_eq!(codes("123456789012345678901234567890"), vec!["CS1021"]);
        assert!(lex("\"abc", 0, 4).incomplete);
    }

    #[test]
    fn sub_range_spans_are_absolute() {
        let src = "xx  foo bar";
        let l = lex(src, 2, src.len());
        assert_eq!(l.tokens[0].span, Span::new(4, 7));
    }
}
