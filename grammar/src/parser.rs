//! The parser glue: lexes, parses interpolation holes, disambiguates, runs the LR parser,
//! turns lalrpop's errors into C#-worded diagnostics, and assembles the compilation unit.

use std::collections::HashMap;

use lalrpop_util::ParseError;

use crate::actions::{Ctx, Parsed, Recovery, TopItem};
use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::disambiguate::disambiguate;
use crate::grammar::StartParser;
use crate::lexer::{lex, Lexeme, Value};
use crate::span::Span;
use crate::strings::RawPart;
use crate::token::{LexError, Token};

/// Everything one parse produces.
pub struct Outcome {
    pub parsed: Parsed,
    pub diagnostics: Vec<Diagnostic>,
    pub incomplete: bool,
}

/// Parses `text[start..end]` as a whole file (`expression == false`) or one expression.
pub fn parse_range(text: &str, start: usize, end: usize, expression: bool) -> Outcome {
    let lexed = lex(text, start, end);
    let mut diagnostics = lexed.diagnostics;
    let mut incomplete = lexed.incomplete;
    let lexed_incomplete = lexed.incomplete;
    let mut values = lexed.values;
    let tokens: Vec<Lexeme> = lexed.tokens.into_iter().filter(|t| !t.kind.is_trivia()).collect();
    if let Some(span) = crate::limits::too_deep(&tokens) {
        diagnostics.push(Diagnostic::new("CS8078", "An expression is too long or complex to compile", span));
        let parsed = if expression { Parsed::Expr(None) } else { Parsed::File(Vec::new()) };
        return Outcome { parsed, diagnostics, incomplete };
    }
    let interps = parse_holes(text, &tokens, &mut values, &mut diagnostics);
    let d = disambiguate(tokens, &values, end, expression);
    let last_token_end = d.tokens.iter().rev().find(|t| !t.span.is_empty()).map_or(start, |t| t.span.end as usize);

    let first = Lexeme { kind: if expression { Token::ExprStart } else { Token::FileStart }, span: Span::new(start, start), value: 0 };
    let mut stream = Vec::with_capacity(d.tokens.len() + 1);
    stream.push(first);
    stream.extend(d.tokens);

    let mut ctx = Ctx::new(values, interps);
    let gap = text.get(last_token_end..end).unwrap_or("");
    let at = if gap.contains('\n') { last_token_end } else { end };
    ctx.eof_brace_span = Span::new(at, at);
    let iter = stream.iter().map(|t| Ok::<_, LexError>((t.span.start as usize, *t, t.span.end as usize)));
    let result = StartParser::new().parse(&mut ctx, iter);
    let mut recoveries = std::mem::take(&mut ctx.recoveries);
    let parsed = match result {
        Ok(p) => p,
        Err(e) => {
            recoveries.push(Recovery { error: e, dropped_tokens: Vec::new() });
            if expression {
                Parsed::Expr(None)
            } else {
                Parsed::File(Vec::new())
            }
        }
    };
    let reporter = Reporter { text, tokens: &stream, end };
    let (errors, at_eof) = reporter.report(recoveries);
    // A literal or comment that ran to the end already explains a missing `;` or `}`.
    let lexer_hit_eof = lexed_incomplete;
    diagnostics.extend(errors.into_iter().filter(|e| !(lexer_hit_eof && e.span.start as usize >= last_token_end)));
    diagnostics.extend(ctx.diagnostics);
    incomplete |= ctx.used_eof_brace;
    diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
    Outcome { parsed, diagnostics, incomplete: incomplete || at_eof }
}

/// Parses an expression in `text[start..end]` (an interpolation hole, or the REPL).
pub fn parse_expr_range(text: &str, start: usize, end: usize) -> (Option<Expr>, Vec<Diagnostic>, bool) {
    let out = parse_range(text, start, end, true);
    let expr = match out.parsed {
        Parsed::Expr(e) => e,
        Parsed::File(_) => None,
    };
    (expr, out.diagnostics, out.incomplete)
}

/// Parses every hole of every interpolated string; returns the finished parts by value.
fn parse_holes(text: &str, tokens: &[Lexeme], values: &mut [Value], diagnostics: &mut Vec<Diagnostic>) -> HashMap<u32, Vec<InterpolationPart>> {
    let mut out = HashMap::new();
    for t in tokens.iter().filter(|t| t.kind == Token::InterpString) {
        let Some(Value::Interp(raw)) = values.get_mut(t.value as usize) else { continue };
        let raw = std::mem::take(raw);
        let parts = raw.into_iter().map(|p| hole(text, p, diagnostics)).collect();
        out.insert(t.value, parts);
    }
    out
}

fn hole(text: &str, part: RawPart, diagnostics: &mut Vec<Diagnostic>) -> InterpolationPart {
    match part {
        RawPart::Text(s) => InterpolationPart::Text(s),
        RawPart::Hole { expr, alignment, format, span } => {
            let span = Span::new(span.0, span.1);
            let expr = hole_expr(text, expr, span, diagnostics);
            let alignment = alignment.map(|a| hole_expr(text, a, span, diagnostics));
            InterpolationPart::Hole { expr, alignment, format, span }
        }
    }
}

fn hole_expr(text: &str, (s, e): (usize, usize), hole: Span, diagnostics: &mut Vec<Diagnostic>) -> Expr {
    if text.get(s..e).is_none_or(|t| t.trim().is_empty()) {
        diagnostics.push(Diagnostic::new("CS1733", "Expected expression", hole));
        return Expr { kind: ExprKind::Error, span: Span::new(s, e) };
    }
    let (expr, diags, _) = parse_expr_range(text, s, e);
    diagnostics.extend(diags);
    expr.unwrap_or(Expr { kind: ExprKind::Error, span: Span::new(s, e) })
}

// ---------------------------------------------------------------------------------------
// Error reporting
// ---------------------------------------------------------------------------------------

struct Reporter<'a> {
    text: &'a str,
    /// The parsed token stream (with the synthetic first token).
    tokens: &'a [Lexeme],
    end: usize,
}

/// One syntax error located in the token stream.
struct Located {
    /// Index of the unexpected token in `tokens` (`tokens.len()` for end of input).
    index: usize,
    expected: Vec<String>,
    /// Index of the first token accepted after recovery.
    resume: usize,
}

impl<'a> Reporter<'a> {
    /// Converts recovered errors into diagnostics; also says whether one was at the end.
    fn report(&self, recoveries: Vec<Recovery>) -> (Vec<Diagnostic>, bool) {
        let mut located: Vec<Located> = recoveries.into_iter().filter_map(|r| self.locate(r)).collect();
        located.sort_by_key(|l| l.index);
        let mut out = Vec::new();
        let mut at_eof = false;
        let mut last_resume: Option<usize> = None;
        // Errors up to the `)`/`]` closing the bracket the previous error was in.
        let mut quiet_until = 0usize;
        let closers = crate::typescan::match_brackets(&self.tokens.iter().map(|t| t.kind).collect::<Vec<_>>());
        for l in located {
            let eof = self.is_eof(l.index);
            at_eof |= eof;
            let cascade = last_resume.is_some_and(|r| l.index <= r + 1) || l.index <= quiet_until;
            last_resume = Some(last_resume.map_or(l.resume, |r| r.max(l.resume)));
            if cascade {
                continue;
            }
            quiet_until = quiet_until.max(self.enclosing_close(&closers, l.index));
            if self.tokens.get(l.index).is_some_and(|t| t.kind == Token::Error) {
                continue;
            }
            out.push(self.diagnose(&l, eof));
        }
        (out, at_eof)
    }

    /// The index of the `)` or `]` closing the innermost parenthesis or bracket that
    /// contains token `index` (0 if none).
    fn enclosing_close(&self, closers: &[u32], index: usize) -> usize {
        let mut depth = 0i32;
        for j in (0..index.min(self.tokens.len())).rev() {
            let k = self.tokens[j].kind;
            if matches!(k, Token::RParen | Token::RBracket) {
                depth += 1;
            } else if k.is_lparen() || k.is_lbracket() {
                if depth == 0 {
                    return match closers.get(j) {
                        Some(&c) if c != crate::typescan::NONE => c as usize,
                        _ => 0,
                    };
                }
                depth -= 1;
            } else if matches!(k, Token::LBrace | Token::RBrace | Token::Semi) && depth == 0 {
                return 0;
            }
        }
        0
    }

    fn locate(&self, r: Recovery) -> Option<Located> {
        let dropped = r.dropped_tokens.len();
        let (index, expected) = match r.error {
            ParseError::UnrecognizedToken { token: (start, _, _), expected } => (self.index_at(start), expected),
            ParseError::UnrecognizedEof { expected, .. } => (self.tokens.len(), expected),
            ParseError::ExtraToken { token: (start, _, _) } => (self.index_at(start), Vec::new()),
            ParseError::InvalidToken { location } => (self.index_at(location), Vec::new()),
            ParseError::User { .. } => return None,
        };
        Some(Located { index, expected, resume: index + dropped })
    }

    /// The index of the token starting at `start` (synthetic tokens share positions; take
    /// the first real one).
    fn index_at(&self, start: usize) -> usize {
        let i = self.tokens.partition_point(|t| (t.span.start as usize) < start);
        if i == 0 && self.tokens.len() > 1 {
            1
        } else {
            i
        }
    }

    /// End of input, or one of the synthetic `}` added for unclosed braces.
    fn is_eof(&self, index: usize) -> bool {
        match self.tokens.get(index) {
            None => true,
            Some(t) => t.kind == Token::EofBrace,
        }
    }

    fn token_text(&self, index: usize) -> &str {
        self.tokens.get(index).and_then(|t| self.text.get(t.span.start as usize..t.span.end as usize)).unwrap_or("")
    }

    /// Where Roslyn reports a missing token: right after the previous token when a line
    /// break separates them, else on the unexpected token itself.
    fn missing_span(&self, index: usize, eof: bool) -> Span {
        let prev_end = self.tokens[..index.min(self.tokens.len())].iter().rev().find(|t| t.kind != Token::EofBrace).map_or(0, |t| t.span.end as usize);
        let (start, end) = match self.tokens.get(index) {
            Some(t) if !eof => (t.span.start as usize, t.span.end as usize),
            _ => (self.end, self.end),
        };
        let gap = self.text.get(prev_end..start).unwrap_or("");
        if gap.contains('\n') || eof {
            Span::new(prev_end, prev_end)
        } else {
            Span::new(start, end)
        }
    }

    fn token_span(&self, index: usize, eof: bool) -> Span {
        match self.tokens.get(index) {
            Some(t) if !eof => t.span,
            _ => Span::new(self.end, self.end),
        }
    }

    fn diagnose(&self, l: &Located, eof: bool) -> Diagnostic {
        let exp = Expected(&l.expected);
        let tok = self.tokens.get(l.index).map(|t| t.kind);
        let text = if eof { "" } else { self.token_text(l.index) };
        let missing = |code, msg: &str| Diagnostic::new(code, msg, self.missing_span(l.index, eof));
        let at_token = |code, msg: String| Diagnostic::new(code, msg, self.token_span(l.index, eof));
        let starts_expr = tok.is_some_and(can_start_expression) && !eof;

        if (exp.has("event") || exp.has("operator")) && !eof {
            return at_token("CS1519", member_error(text));
        }
        if exp.has("namespace") && tok == Some(Token::RBrace) && !eof {
            return at_token("CS1022", "Type or namespace definition, or end-of-file expected".into());
        }
        if exp.has(",") && (exp.has(")") || exp.has("]") || exp.has("}")) && starts_expr {
            return missing("CS1003", "Syntax error, ',' expected");
        }
        if exp.has(")") {
            return missing("CS1026", ") expected");
        }
        if exp.has("]") {
            return missing("CS1003", "Syntax error, ']' expected");
        }
        if exp.has("{") && exp.has(":") && exp.has("KW_WHERE") {
            return missing("CS1514", "{ expected");
        }
        if exp.has(";") {
            return missing("CS1002", "; expected");
        }
        for p in [":", "=>"] {
            if exp.has(p) && !exp.expression() {
                return missing("CS1003", &format!("Syntax error, '{p}' expected"));
            }
        }
        if exp.expression() {
            if eof {
                return missing("CS1733", "Expected expression");
            }
            return at_token("CS1525", format!("Invalid expression term '{text}'"));
        }
        if exp.has("}") {
            return missing("CS1513", "} expected");
        }
        if exp.has("{") {
            return missing("CS1514", "{ expected");
        }
        if exp.has("IDENT") {
            if exp.has("int") {
                return missing("CS1031", "Type expected");
            }
            return missing("CS1001", "Identifier expected");
        }
        if let Some(p) = exp.single_punctuation() {
            return missing("CS1003", &format!("Syntax error, '{p}' expected"));
        }
        if eof {
            return missing("CS1733", "Expected expression");
        }
        at_token("CS1525", format!("Invalid expression term '{text}'"))
    }
}

fn member_error(text: &str) -> String {
    format!("Invalid token '{text}' in class, record, struct, or interface member declaration")
}

/// The expected-terminal list of a parse error, in lalrpop's spelling.
struct Expected<'a>(&'a [String]);

impl Expected<'_> {
    fn has(&self, terminal: &str) -> bool {
        self.0.iter().any(|e| e.trim_matches('"') == terminal)
    }

    /// An expression could start here.
    fn expression(&self) -> bool {
        self.has("IntLit") || self.has("this") || self.has("new")
    }

    /// The only expected terminal, when it is a punctuation token (in C# spelling).
    fn single_punctuation(&self) -> Option<String> {
        let names: Vec<String> = self.0.iter().map(|e| csharp_spelling(e.trim_matches('"'))).collect();
        match names.as_slice() {
            [one] if !one.chars().any(char::is_alphanumeric) => Some(one.clone()),
            _ => None,
        }
    }
}

/// Turns a grammar terminal name into the token a C# programmer would write.
fn csharp_spelling(terminal: &str) -> String {
    let s = match terminal {
        "GENERIC_LT" => "<",
        "GENERIC_GT" => ">",
        "NULLABLE_Q" | "COND_ACCESS" => "?",
        "LPAREN_CAST" | "LPAREN_LAMBDA" | "LPAREN_TUPLE_TYPE" | "LPAREN_PATTERN" => "(",
        "LBRACKET_ATTR" | "LBRACKET_GLOBAL_ATTR" | "LBRACKET_RANK" | "LBRACKET_PATTERN" | "LBRACKET_INDEX_INIT" => "[",
        "SPREAD" | "SLICE" => "..",
        "IDENT" => "identifier",
        other => other.strip_prefix("KW_").map_or(other, |_| "keyword"),
    };
    s.to_string()
}

/// Tokens that can begin an expression (used to tell "`,` expected" from "`)` expected").
fn can_start_expression(k: Token) -> bool {
    use Token::*;
    k.is_literal()
        || k.is_predefined_type()
        || matches!(
            k,
            Ident
                | LParen
                | LParenCast
                | LParenLambda
                | LParenTupleType
                | New
                | This
                | Base
                | Typeof
                | Default
                | Sizeof
                | Checked
                | Unchecked
                | Delegate
                | Bang
                | Tilde
                | Minus
                | Plus
                | PlusPlus
                | MinusMinus
                | Caret
                | LBracket
                | KwAwait
                | KwNameof
                | KwAsyncLambda
                | KwStaticLambda
                | KwVarDecon
        )
}

// ---------------------------------------------------------------------------------------
// Assembling the compilation unit
// ---------------------------------------------------------------------------------------

/// Sorts top-level items into usings, global attributes and members; moves everything
/// after a file-scoped namespace into it.
pub fn compilation_unit(items: Vec<TopItem>, diagnostics: &mut Vec<Diagnostic>) -> CompilationUnit {
    let mut unit = CompilationUnit { usings: Vec::new(), attributes: Vec::new(), members: Vec::new() };
    let mut file_ns: Option<NamespaceDecl> = None;
    let mut after_declaration = false;
    for item in items {
        // `class C { };`, `namespace N { };`: the `;` belongs to the declaration (C# allows
        // it there) and is not an empty top-level statement.
        let follows_declaration = std::mem::replace(&mut after_declaration, matches!(item, TopItem::Type(_) | TopItem::Namespace(_)));
        if follows_declaration && matches!(&item, TopItem::Stmt(s) if s.kind == StmtKind::Empty) {
            continue;
        }
        let container_has_members = file_ns.as_ref().map_or(!unit.members.is_empty(), |n| !n.members.is_empty());
        let members = match file_ns.as_mut() {
            Some(ns) => &mut ns.members,
            None => &mut unit.members,
        };
        match item {
            TopItem::Using(u) => {
                if container_has_members {
                    diagnostics.push(Diagnostic::new(
                        "CS1529",
                        "A using clause must precede all other elements defined in the namespace except extern alias declarations",
                        u.span,
                    ));
                }
                match file_ns.as_mut() {
                    Some(ns) => ns.usings.push(u),
                    None => unit.usings.push(u),
                }
            }
            TopItem::Attributes(a) => unit.attributes.extend(a),
            TopItem::Stmt(s) => members.push(NamespaceMember::Statement(s)),
            TopItem::Type(t) => members.push(NamespaceMember::Type(t)),
            TopItem::Namespace(n) => members.push(NamespaceMember::Namespace(n)),
            TopItem::FileNamespace(name, span) => {
                if file_ns.is_some() {
                    diagnostics.push(Diagnostic::new("CS8954", "Source file can only contain one file-scoped namespace declaration.", span));
                    continue;
                }
                if !unit.members.is_empty() {
                    diagnostics.push(Diagnostic::new("CS8956", "File-scoped namespace must precede all other members in a file.", span));
                }
                file_ns = Some(NamespaceDecl { name, file_scoped: true, usings: Vec::new(), members: Vec::new(), span });
            }
            TopItem::Nothing => {}
        }
    }
    if let Some(mut ns) = file_ns {
        if let Some(last) = ns.members.last() {
            ns.span = ns.span.to(member_span(last));
        }
        unit.members.push(NamespaceMember::Namespace(ns));
    }
    unit
}

fn member_span(m: &NamespaceMember) -> Span {
    match m {
        NamespaceMember::Namespace(n) => n.span,
        NamespaceMember::Type(t) => t.span,
        NamespaceMember::Statement(s) => s.span,
    }
}
