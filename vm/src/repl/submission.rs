//! One input typed at the REPL: whether it is complete yet, and what it holds — an
//! expression whose value is shown, or `using`s, statements and type declarations — split
//! out of its text with the real parser.

use grammar::ast::NamespaceMember;
use grammar::span::Span;

/// A piece of an input's text and the line (1-based, in the input) it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub first_line: u32,
}

/// An input, split by what each part becomes in the session's program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submission {
    pub usings: Vec<Piece>,
    /// Top-level statements (local variables and functions included), in order.
    pub statements: Vec<Piece>,
    /// Classes, structs, interfaces, enums, records, delegates, namespaces.
    pub types: Vec<Piece>,
}

/// Whether `text` needs more lines: the parser ran into the end of the input (an open
/// brace, string or comment, a statement cut short) and it does not end in an expression.
pub fn is_incomplete(text: &str) -> bool {
    grammar::parse(text).incomplete && !is_expression(text) && trailing_expression(text).is_none()
}

/// `1 + 2`, `list`, `await F()`: an expression with no `;`, whose value the REPL shows.
pub fn is_expression(text: &str) -> bool {
    let trimmed = text.trim_end();
    if trimmed.is_empty() || trimmed.ends_with(';') {
        return false;
    }
    let (expr, diagnostics) = grammar::parse_expression(text);
    expr.is_some() && diagnostics.is_empty()
}

/// How many `;`/`}` boundaries, from the end, are tried as the start of a trailing
/// expression.
const TRAILING_EXPRESSION_TRIES: usize = 32;

/// `var xs = F(); xs.Count`: statements, then an expression without `;` whose value is
/// shown, as C# interactive shows a submission's trailing expression. Returns the
/// statements' text and the expression.
pub fn trailing_expression(text: &str) -> Option<(String, Piece)> {
    if text.trim_end().ends_with(';') || is_expression(text) {
        return None;
    }
    let boundaries = text.char_indices().filter(|&(_, c)| c == ';' || c == '}').map(|(i, _)| i + 1);
    let boundaries: Vec<usize> = boundaries.collect();
    for &at in boundaries.iter().rev().take(TRAILING_EXPRESSION_TRIES) {
        let (head, tail) = text.split_at(at);
        if is_expression(tail) && grammar::parse(head).diagnostics.is_empty() {
            let expression_start = at + (tail.len() - tail.trim_start().len());
            return Some((head.to_string(), piece_at(text, expression_start, text.trim_end().len())));
        }
    }
    None
}

/// Splits a complete input into its `using`s, statements and declarations (in the order
/// written within each kind). An input with syntax errors stays whole, so the compiler
/// reports them at their places in it.
pub fn split(text: &str) -> Submission {
    let parsed = grammar::parse(text);
    let mut s = Submission::default();
    if !parsed.diagnostics.is_empty() {
        s.statements.push(Piece { text: text.to_string(), first_line: 1 });
        return s;
    }
    for u in &parsed.unit.usings {
        s.usings.push(piece(text, u.span));
    }
    for member in &parsed.unit.members {
        match member {
            NamespaceMember::Statement(stmt) => s.statements.push(piece(text, stmt.span)),
            NamespaceMember::Type(t) => s.types.push(piece(text, t.span)),
            NamespaceMember::Namespace(n) => s.types.push(piece(text, n.span)),
        }
    }
    if s.usings.is_empty() && s.statements.is_empty() && s.types.is_empty() && !text.trim().is_empty() {
        s.statements.push(Piece { text: text.to_string(), first_line: 1 });
    }
    s
}

/// The text of `span`, with the line it starts on.
fn piece(text: &str, span: Span) -> Piece {
    piece_at(text, span.start as usize, span.end as usize)
}

/// The text from byte `start` to `end`, indented by the column it starts at, so the
/// compiler's columns are the input's; with the line it starts on.
fn piece_at(text: &str, start: usize, end: usize) -> Piece {
    let start = floor_char_boundary(text, start.min(text.len()));
    let end = floor_char_boundary(text, end.clamp(start, text.len()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent = " ".repeat(text[line_start..start].chars().count());
    let first_line = text[..start].matches('\n').count() as u32 + 1;
    Piece { text: indent + &text[start..end], first_line }
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_are_complete_without_a_semicolon() {
        assert!(is_expression("1 + 2"));
        assert!(is_expression("new List<int> { 1, 2 }"));
        assert!(!is_expression("class A { }"));
        assert!(!is_expression("var x = 1;"));
        assert!(!is_incomplete("1 + 2"));
    }

    #[test]
    fn open_braces_and_cut_statements_need_more_lines() {
        assert!(is_incomplete("class A {"));
        assert!(is_incomplete("for (int i = 0; i < 3; i++)"));
        assert!(is_incomplete("var s = \"abc"));
        assert!(!is_incomplete("int Twice(int x) => x * 2;"));
        assert!(!is_incomplete("var n = 3; n"));
    }

    #[test]
    fn a_trailing_expression_is_split_from_the_statements_before_it() {
        let (head, expr) = trailing_expression("var xs = new List<int> { 1 };\nxs.Count").expect("a trailing expression");
        assert_eq!(head, "var xs = new List<int> { 1 };");
        assert_eq!(expr, Piece { text: "xs.Count".into(), first_line: 2 });
        let (_, same_line) = trailing_expression("var n = 3; n").expect("a trailing expression");
        assert_eq!(same_line, Piece { text: "           n".into(), first_line: 1 });
        assert_eq!(trailing_expression("var x = 1;"), None);
        assert_eq!(trailing_expression("1 + 2"), None);
        assert_eq!(trailing_expression("var x = 1; x +"), None);
    }

    #[test]
    fn declarations_and_statements_are_told_apart() {
        let s = split("using System.Text;\nvar n = 3;\nclass P { }\nConsole.WriteLine(n);");
        assert_eq!(s.usings.len(), 1);
        assert_eq!(s.types, vec![Piece { text: "class P { }".into(), first_line: 3 }]);
        assert_eq!(s.statements.iter().map(|p| p.first_line).collect::<Vec<_>>(), vec![2, 4]);
        let same_line = split("var a = 1; Console.WriteLine(a);");
        assert_eq!(same_line.statements[1].text, "           Console.WriteLine(a);");
    }
}
