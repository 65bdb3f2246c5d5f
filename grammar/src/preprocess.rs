//! The preprocessor's state (C# spec §6.5, Roslyn's behaviour): defined symbols, the
//! stack of open `#if` and `#region` sections, and the effect of one directive line on
//! them, with its diagnostics. The lexer calls [`Preprocessor::directive`] for every `#`
//! line and lexes nothing while [`Preprocessor::active`] is false.
//!
//! Symbols defined before the first line: those `dotnet run` defines for a .NET 8 console
//! project in its default (Debug) configuration. Mono's `mcs` (the oracle) defines none.

use std::collections::HashSet;

use crate::diagnostic::Diagnostic;
use crate::pp_condition::{self, ConditionError};
use crate::span::Span;

/// `dotnet run`'s symbols for `net8.0` in the Debug configuration.
pub const PREDEFINED_SYMBOLS: &[&str] = &[
    "DEBUG",
    "TRACE",
    "NET",
    "NET8_0",
    "NETCOREAPP",
    "NET5_0_OR_GREATER",
    "NET6_0_OR_GREATER",
    "NET7_0_OR_GREATER",
    "NET8_0_OR_GREATER",
    "NETCOREAPP1_0_OR_GREATER",
    "NETCOREAPP1_1_OR_GREATER",
    "NETCOREAPP2_0_OR_GREATER",
    "NETCOREAPP2_1_OR_GREATER",
    "NETCOREAPP2_2_OR_GREATER",
    "NETCOREAPP3_0_OR_GREATER",
    "NETCOREAPP3_1_OR_GREATER",
];

/// A `#pragma warning disable|restore CODES` directive, kept for a later warning pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PragmaWarning {
    pub disable: bool,
    /// Empty: every warning.
    pub codes: Vec<String>,
    pub at: usize,
}

/// An open section.
#[derive(Clone, Copy, Debug)]
enum Frame {
    Condition {
        /// Lines of the current branch are compiled.
        active: bool,
        /// The enclosing code is compiled.
        outer_active: bool,
        /// Some branch was (or, when the enclosing code is skipped, can no longer be) taken.
        taken: bool,
        /// `#else` was seen: no `#elif` or `#else` may follow.
        in_else: bool,
    },
    Region,
}

pub struct Preprocessor {
    symbols: HashSet<String>,
    stack: Vec<Frame>,
    /// A token (not trivia) was lexed: `#define` and `#undef` are no longer allowed.
    pub seen_token: bool,
    pub pragmas: Vec<PragmaWarning>,
}

/// One directive line being processed: the text after `#` and where it sits.
struct Line<'a> {
    /// Absolute offset of the `#`.
    hash: usize,
    /// The text after the `#` (line break excluded).
    text: &'a str,
    /// The directive's keyword (`if`, `define`, ...), after optional blanks.
    keyword: &'a str,
    /// Offset of the keyword within `text`.
    keyword_at: usize,
}

impl Line<'_> {
    /// The text after the keyword and its offset within `text`.
    fn rest(&self) -> (&str, usize) {
        let at = self.keyword_at + self.keyword.len();
        (&self.text[at..], at)
    }

    fn span(&self, from: usize, to: usize) -> Span {
        let base = self.hash + 1;
        Span::new(base + from, base + to)
    }

    fn keyword_span(&self) -> Span {
        self.span(self.keyword_at, self.keyword_at + self.keyword.len())
    }

    fn whole(&self) -> Span {
        Span::new(self.hash, self.hash + 1 + self.text.len())
    }
}

impl Default for Preprocessor {
    fn default() -> Self {
        Preprocessor::new()
    }
}

impl Preprocessor {
    pub fn new() -> Preprocessor {
        let symbols = PREDEFINED_SYMBOLS.iter().map(|s| s.to_string()).collect();
        Preprocessor { symbols, stack: Vec::new(), seen_token: false, pragmas: Vec::new() }
    }

    /// Whether code at this point is compiled (no enclosing branch is excluded).
    pub fn active(&self) -> bool {
        self.stack.iter().all(|f| match f {
            Frame::Condition { active, .. } => *active,
            Frame::Region => true,
        })
    }

    /// Processes the directive whose `#` is at absolute offset `hash` and whose text after
    /// the `#` is `text`; `after_code`: something other than blanks precedes it on its line.
    pub fn directive(&mut self, hash: usize, text: &str, after_code: bool, diags: &mut Vec<Diagnostic>) {
        let keyword_at = text.len() - text.trim_start().len();
        let word = &text[keyword_at..];
        let len = word.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(word.len());
        let line = Line { hash, text, keyword: &word[..len], keyword_at };
        if after_code {
            let code = "CS1040";
            diags.push(Diagnostic::new(code, "Preprocessor directives must appear as the first non-whitespace character on a line", Span::new(hash, hash + 1)));
        }
        let active = self.active();
        match line.keyword {
            "if" => self.if_(&line, active, diags),
            "elif" => self.elif(&line, diags),
            "else" => self.else_(&line, diags),
            "endif" => self.endif(&line, diags),
            "region" => self.stack.push(Frame::Region),
            "endregion" => self.endregion(&line, diags),
            "define" | "undef" => self.define(&line, active, after_code, diags),
            "error" | "warning" if active => message(&line, diags),
            "pragma" if active => self.pragma(&line),
            "error" | "warning" | "pragma" | "line" | "nullable" => {}
            _ if after_code => {}
            "" => diags.push(Diagnostic::new("CS1024", "Preprocessor directive expected", Span::new(hash, hash + 1))),
            _ => diags.push(Diagnostic::new("CS1024", "Preprocessor directive expected", line.keyword_span())),
        }
    }

    /// The end of the file: a section still open is an error (at `eof`).
    pub fn finish(&self, eof: usize, diags: &mut Vec<Diagnostic>) {
        let at = Span::new(eof, eof);
        match self.stack.last() {
            Some(Frame::Condition { .. }) => diags.push(Diagnostic::new("CS1027", "#endif directive expected", at)),
            Some(Frame::Region) => diags.push(Diagnostic::new("CS1038", "#endregion directive expected", at)),
            None => {}
        }
    }

    fn condition(&self, line: &Line, diags: &mut Vec<Diagnostic>) -> bool {
        let (rest, at) = line.rest();
        let defined = |s: &str| self.symbols.contains(s);
        match pp_condition::evaluate(rest, &defined) {
            Ok(value) => value,
            Err(ConditionError { at: from, end, code, message }) => {
                diags.push(Diagnostic::new(code, message, line.span(at + from, at + end)));
                false
            }
        }
    }

    fn if_(&mut self, line: &Line, active: bool, diags: &mut Vec<Diagnostic>) {
        let value = self.condition(line, diags);
        let taken = active && value;
        self.stack.push(Frame::Condition { active: taken, outer_active: active, taken: taken || !active, in_else: false });
    }

    fn elif(&mut self, line: &Line, diags: &mut Vec<Diagnostic>) {
        let value = self.condition(line, diags);
        match self.stack.last_mut() {
            Some(Frame::Condition { active, outer_active, taken, in_else: false }) => {
                *active = *outer_active && !*taken && value;
                *taken |= *active;
            }
            _ => self.misplaced(line, diags),
        }
    }

    fn else_(&mut self, line: &Line, diags: &mut Vec<Diagnostic>) {
        end_of_directive(line, diags);
        match self.stack.last_mut() {
            Some(Frame::Condition { active, outer_active, taken, in_else: in_else @ false }) => {
                *active = *outer_active && !*taken;
                *taken = true;
                *in_else = true;
            }
            _ => self.misplaced(line, diags),
        }
    }

    fn endif(&mut self, line: &Line, diags: &mut Vec<Diagnostic>) {
        end_of_directive(line, diags);
        match self.stack.last() {
            Some(Frame::Condition { .. }) => {
                self.stack.pop();
            }
            _ => self.misplaced(line, diags),
        }
    }

    fn endregion(&mut self, line: &Line, diags: &mut Vec<Diagnostic>) {
        match self.stack.last() {
            Some(Frame::Region) => {
                self.stack.pop();
            }
            _ => self.misplaced(line, diags),
        }
    }

    /// A directive that does not close or continue the innermost open section.
    fn misplaced(&self, line: &Line, diags: &mut Vec<Diagnostic>) {
        let (code, message) = match self.stack.last() {
            Some(Frame::Region) => ("CS1038", "#endregion directive expected"),
            Some(Frame::Condition { .. }) => ("CS1027", "#endif directive expected"),
            None => ("CS1028", "Unexpected preprocessor directive"),
        };
        diags.push(Diagnostic::new(code, message, line.whole()));
    }

    fn define(&mut self, line: &Line, active: bool, after_code: bool, diags: &mut Vec<Diagnostic>) {
        if self.seen_token && !after_code {
            diags.push(Diagnostic::new("CS1032", "Cannot define/undefine preprocessor symbols after first token in file", line.keyword_span()));
        }
        let (rest, at) = line.rest();
        let blanks = rest.len() - rest.trim_start().len();
        let name_text = &rest[blanks..];
        let len = name_text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(name_text.len());
        let name = &name_text[..len];
        let starts_like_identifier = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
        if !starts_like_identifier {
            let at = at + blanks;
            diags.push(Diagnostic::new("CS1001", "Identifier expected", line.span(at, at + name_text.chars().next().map_or(0, char::len_utf8))));
            return;
        }
        let after = &name_text[len..];
        let trailing = after.trim_start();
        if !trailing.is_empty() && !trailing.starts_with("//") {
            let from = line.text.len() - trailing.len();
            diags.push(Diagnostic::new("CS1025", "Single-line comment or end-of-line expected", line.span(from, from + 1)));
        }
        if !active {
            return;
        }
        if line.keyword == "define" {
            self.symbols.insert(name.to_string());
        } else {
            self.symbols.remove(name);
        }
    }

    /// `#pragma warning disable|restore [CS0168, 219]`; other pragmas are accepted as is.
    fn pragma(&mut self, line: &Line) {
        let (rest, _) = line.rest();
        let rest = rest.split("//").next().unwrap_or("");
        let mut words = rest.split_whitespace();
        if words.next() != Some("warning") {
            return;
        }
        let disable = match words.next() {
            Some("disable") => true,
            Some("restore") => false,
            _ => return,
        };
        let codes = words.collect::<Vec<_>>().join(" ").split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect();
        self.pragmas.push(PragmaWarning { disable, codes, at: line.hash });
    }
}

/// `#error text` (CS1029) or `#warning text` (CS1030, a warning): the text runs from its
/// first non-blank character to the end of the line.
fn message(line: &Line, diags: &mut Vec<Diagnostic>) {
    let (rest, at) = line.rest();
    let text = rest.trim_start();
    let from = at + rest.len() - text.len();
    let span = line.span(from, line.text.len());
    if line.keyword == "error" {
        diags.push(Diagnostic::new("CS1029", format!("#error: '{text}'"), span));
    } else {
        diags.push(Diagnostic::warning("CS1030", format!("#warning: '{text}'"), span));
    }
}

/// After `#else` / `#endif`: nothing but a comment may follow.
fn end_of_directive(line: &Line, diags: &mut Vec<Diagnostic>) {
    let (rest, _) = line.rest();
    let trailing = rest.trim_start();
    if !trailing.is_empty() && !trailing.starts_with("//") {
        let from = line.text.len() - trailing.len();
        diags.push(Diagnostic::new("CS1025", "Single-line comment or end-of-line expected", line.span(from, from + 1)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[&str]) -> (Vec<bool>, Vec<&'static str>) {
        let mut pp = Preprocessor::new();
        let mut diags = Vec::new();
        let mut states = Vec::new();
        for l in lines {
            pp.directive(0, l, false, &mut diags);
            states.push(pp.active());
        }
        pp.finish(0, &mut diags);
        (states, diags.iter().map(|d| d.code).collect())
    }

    #[test]
    fn branches_and_nesting() {
        let (states, codes) = run(&["if false", "elif DEBUG", "else", "endif"]);
        assert_eq!(states, vec![false, true, false, true]);
        assert!(codes.is_empty());
        let (states, _) = run(&["define X", "if !X", "if true", "else", "endif", "elif X", "endif"]);
        assert_eq!(states, vec![true, false, false, false, false, true, true]);
    }

    #[test]
    fn unbalanced_sections() {
        assert_eq!(run(&["endif"]).1, vec!["CS1028"]);
        assert_eq!(run(&["if true"]).1, vec!["CS1027"]);
        assert_eq!(run(&["region", "endif", "endregion"]).1, vec!["CS1038"]);
        assert_eq!(run(&["if true", "else", "else", "endif"]).1, vec!["CS1027"]);
        assert_eq!(run(&["region"]).1, vec!["CS1038"]);
    }

    #[test]
    fn define_after_a_token() {
        let mut pp = Preprocessor::new();
        let mut diags = Vec::new();
        pp.seen_token = true;
        pp.directive(0, "define X", false, &mut diags);
        assert_eq!(diags.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["CS1032"]);
    }

    #[test]
    fn messages_and_pragmas() {
        let mut pp = Preprocessor::new();
        let mut diags = Vec::new();
        pp.directive(0, "warning  careful here ", false, &mut diags);
        pp.directive(0, "pragma warning disable CS0168, CS0219 // x", false, &mut diags);
        assert_eq!(diags[0].message, "#warning: 'careful here '");
        assert_eq!(pp.pragmas[0].codes, vec!["CS0168", "CS0219"]);
    }
}
