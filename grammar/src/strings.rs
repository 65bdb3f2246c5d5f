//! Hand-written scanners for the bodies of string-like literals: regular, verbatim and raw
//! strings, character literals, and interpolated strings (regular, verbatim and raw, with
//! `$`-counted braces). Holes of interpolated strings are located here (expression,
//! alignment and format ranges); they are parsed later by `parser.rs`.
//!
//! All positions are byte offsets into the slice being lexed; every scanner stops on a char
//! boundary and never reads past the slice.

use crate::token::Token;

/// One piece of an interpolated string before its holes are parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum RawPart {
    Text(String),
    Hole {
        /// Byte range of the expression text.
        expr: (usize, usize),
        /// Byte range of the alignment expression (after the top-level `,`).
        alignment: Option<(usize, usize)>,
        /// The format specifier after the top-level `:`, verbatim.
        format: Option<String>,
        /// The hole including its braces.
        span: (usize, usize),
    },
}

/// The decoded value of a string-like literal.
#[derive(Clone, Debug, PartialEq)]
pub enum LitValue {
    Str(String),
    Char(u16),
    Interp(Vec<RawPart>),
}

/// A problem found while scanning (local byte range, code, message).
#[derive(Clone, Debug, PartialEq)]
pub struct ScanError {
    pub span: (usize, usize),
    pub code: &'static str,
    pub message: String,
}

/// The result of scanning one literal.
#[derive(Clone, Debug, PartialEq)]
pub struct Scanned {
    pub end: usize,
    pub kind: Token,
    pub value: LitValue,
    pub errors: Vec<ScanError>,
    /// The literal ran into the end of the input (the REPL should ask for more).
    pub hit_eof: bool,
}

/// Nesting limit for interpolated strings inside holes.
const MAX_NESTING: u32 = 32;

/// Scans the literal starting at `start` (which holds `"`, `@"`, `$…"` or `'`).
pub fn scan_literal(s: &str, start: usize) -> Scanned {
    scan_nested(s, start, 0)
}

fn scan_nested(s: &str, start: usize, depth: u32) -> Scanned {
    let rest = &s[start..];
    if rest.starts_with('\'') {
        char_literal(s, start)
    } else if rest.starts_with("\"\"\"") {
        raw_string(s, start)
    } else if rest.starts_with('"') {
        regular_string(s, start)
    } else if rest.starts_with("@\"") {
        verbatim_string(s, start)
    } else {
        interpolated(s, start, depth)
    }
}

fn err(span: (usize, usize), code: &'static str, message: &str) -> ScanError {
    ScanError { span, code, message: message.to_string() }
}

fn is_newline(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn char_at(s: &str, i: usize) -> Option<char> {
    s.get(i..).and_then(|r| r.chars().next())
}

/// Accumulates UTF-16 code units and turns them into a Rust string.
#[derive(Default)]
struct Units(Vec<u16>);

impl Units {
    fn push_char(&mut self, c: char) {
        let mut buf = [0u16; 2];
        self.0.extend_from_slice(c.encode_utf16(&mut buf));
    }

    fn push_str(&mut self, text: &str) {
        self.0.extend(text.encode_utf16());
    }

    fn take(&mut self) -> String {
        let s = String::from_utf16_lossy(&self.0);
        self.0.clear();
        s
    }
}

/// Handles a backslash escape at `i`; returns the index after it.
fn escape_at(s: &str, i: usize, units: &mut Units, errors: &mut Vec<ScanError>) -> usize {
    match crate::literals::escape(&s[i + 1..]) {
        Ok(e) => {
            units.0.extend_from_slice(e.as_slice());
            i + 1 + e.consumed
        }
        Err(n) => {
            errors.push(err((i, i + 1 + n), "CS1009", "Unrecognized escape sequence"));
            i + 1 + n
        }
    }
}

fn unterminated(start: usize, end: usize) -> ScanError {
    err((start, end), "CS1039", "Unterminated string literal")
}

fn regular_string(s: &str, start: usize) -> Scanned {
    let mut units = Units::default();
    let mut errors = Vec::new();
    let mut i = start + 1;
    let mut hit_eof = false;
    loop {
        match char_at(s, i) {
            None => {
                errors.push(unterminated(start, i));
                hit_eof = true;
                break;
            }
            Some('"') => {
                i += 1;
                break;
            }
            Some('\\') => i = escape_at(s, i, &mut units, &mut errors),
            Some(c) if is_newline(c) => {
                errors.push(err((start, i), "CS1010", "Newline in constant"));
                break;
            }
            Some(c) => {
                units.push_char(c);
                i += c.len_utf8();
            }
        }
    }
    Scanned { end: i, kind: Token::StringLit, value: LitValue::Str(units.take()), errors, hit_eof }
}

fn verbatim_string(s: &str, start: usize) -> Scanned {
    let mut units = Units::default();
    let mut errors = Vec::new();
    let mut i = start + 2;
    let mut hit_eof = false;
    loop {
        match char_at(s, i) {
            None => {
                errors.push(unterminated(start, i));
                hit_eof = true;
                break;
            }
            Some('"') if char_at(s, i + 1) == Some('"') => {
                units.push_char('"');
                i += 2;
            }
            Some('"') => {
                i += 1;
                break;
            }
            Some(c) => {
                units.push_char(c);
                i += c.len_utf8();
            }
        }
    }
    Scanned { end: i, kind: Token::StringLit, value: LitValue::Str(units.take()), errors, hit_eof }
}

fn count_run(s: &str, i: usize, c: u8) -> usize {
    s.as_bytes()[i.min(s.len())..].iter().take_while(|&&b| b == c).count()
}

/// End of the line containing `i` (index of the line break, or the slice end).
fn line_end(s: &str, i: usize) -> usize {
    s[i..].find(is_newline).map_or(s.len(), |k| i + k)
}

/// Index just past the line break at `i` (`\r\n` counts as one).
fn after_newline(s: &str, i: usize) -> usize {
    if s[i..].starts_with("\r\n") {
        i + 2
    } else {
        i + char_at(s, i).map_or(0, char::len_utf8)
    }
}

fn raw_string(s: &str, start: usize) -> Scanned {
    let quotes = count_run(s, start, b'"');
    let body = start + quotes;
    let eol = line_end(s, body);
    let mut errors = Vec::new();
    if !s[body..eol].trim().is_empty() {
        return single_line_raw(s, start, quotes, eol);
    }
    // Multi-line: find the closing run of quotes.
    let Some((close, run)) = find_quote_run(s, body, quotes) else {
        errors.push(err((start, body), "CS8997", "Unterminated raw string literal"));
        let value = LitValue::Str(String::new());
        return Scanned { end: s.len(), kind: Token::StringLit, value, errors, hit_eof: true };
    };
    if run > quotes {
        errors.push(too_many_quotes(close, run));
    }
    let content_start = if eol < s.len() { after_newline(s, eol) } else { eol };
    let value = trim_raw_lines(s, content_start, close, &mut errors);
    Scanned { end: close + run, kind: Token::StringLit, value: LitValue::Str(value), errors, hit_eof: false }
}

fn too_many_quotes(at: usize, run: usize) -> ScanError {
    err(
        (at, at + run),
        "CS8998",
        "The raw string literal does not start with enough quote characters to allow this many consecutive quote characters as content",
    )
}

fn single_line_raw(s: &str, start: usize, quotes: usize, eol: usize) -> Scanned {
    let body = start + quotes;
    let mut errors = Vec::new();
    let line = &s[..eol];
    match find_quote_run(line, body, quotes) {
        Some((close, run)) => {
            if run > quotes {
                errors.push(too_many_quotes(close, run));
            }
            let value = LitValue::Str(s[body..close].to_string());
            Scanned { end: close + run, kind: Token::StringLit, value, errors, hit_eof: false }
        }
        None => {
            errors.push(err((start, eol), "CS8997", "Unterminated raw string literal"));
            let value = LitValue::Str(s[body..eol].to_string());
            Scanned { end: eol, kind: Token::StringLit, value, errors, hit_eof: eol == s.len() }
        }
    }
}

/// The first run of at least `n` quotes at or after `from`: (position, run length).
fn find_quote_run(s: &str, from: usize, n: usize) -> Option<(usize, usize)> {
    let bytes = s.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'"' {
            let run = count_run(s, i, b'"');
            if run >= n {
                return Some((i, run));
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

/// Applies the multi-line raw string rules to the lines in `[from, close)`, where `close` is
/// the closing quote run: the closing line's whitespace is removed from every line.
fn trim_raw_lines(s: &str, from: usize, close: usize, errors: &mut Vec<ScanError>) -> String {
    let last_line_start = s[..close].rfind(is_newline).map_or(from, |k| after_newline(s, k));
    let indent = &s[last_line_start.max(from)..close];
    if !indent.chars().all(char::is_whitespace) {
        errors.push(err((close, close + 3), "CS9000", "Raw string literal delimiter must be on its own line"));
    }
    let mut content_end = s[..last_line_start].rfind(is_newline).unwrap_or(from).max(from);
    if content_end > from && s[..content_end].ends_with('\r') {
        content_end -= 1;
    }
    if last_line_start <= from {
        errors.push(err((close, close + 3), "CS9002", "Multi-line raw string literals must contain at least one line of content."));
        return String::new();
    }
    let mut lines = Vec::new();
    let mut pos = from;
    for line in split_lines(&s[from..content_end]) {
        lines.push(strip_indent(line, indent, pos, errors));
        pos += line.len() + 1;
    }
    lines.join("\n")
}

/// Splits on `\n`, `\r\n` and the other C# line breaks.
fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some(c) = char_at(text, i) {
        if is_newline(c) {
            out.push(&text[start..i]);
            i = after_newline(text, i);
            start = i;
        } else {
            i += c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out
}

fn strip_indent(line: &str, indent: &str, pos: usize, errors: &mut Vec<ScanError>) -> String {
    if line.trim().is_empty() {
        String::new()
    } else if let Some(rest) = line.strip_prefix(indent) {
        rest.to_string()
    } else {
        errors.push(line_indent_error(pos));
        line.trim_start().to_string()
    }
}

fn line_indent_error(pos: usize) -> ScanError {
    err((pos, pos + 1), "CS8999", "Line does not start with the same whitespace as the closing line of the raw string literal")
}

fn char_literal(s: &str, start: usize) -> Scanned {
    let mut units = Units::default();
    let mut errors = Vec::new();
    let mut i = start + 1;
    let value = |u: &Units| LitValue::Char(u.0.first().copied().unwrap_or(0));
    match char_at(s, i) {
        None => {
            errors.push(err((start, i), "CS1010", "Newline in constant"));
            return Scanned { end: i, kind: Token::CharLit, value: value(&units), errors, hit_eof: true };
        }
        Some('\'') => {
            errors.push(err((start, i + 1), "CS1011", "Empty character literal"));
            return Scanned { end: i + 1, kind: Token::CharLit, value: value(&units), errors, hit_eof: false };
        }
        Some(c) if is_newline(c) => {
            errors.push(err((start, i), "CS1010", "Newline in constant"));
            return Scanned { end: i, kind: Token::CharLit, value: value(&units), errors, hit_eof: false };
        }
        Some('\\') => i = escape_at(s, i, &mut units, &mut errors),
        Some(c) => {
            units.push_char(c);
            i += c.len_utf8();
        }
    }
    if char_at(s, i) == Some('\'') && units.0.len() <= 1 {
        return Scanned { end: i + 1, kind: Token::CharLit, value: value(&units), errors, hit_eof: false };
    }
    // Too many characters (or a missing quote): find the closing quote on this line.
    let eol = line_end(s, i);
    match s[i..eol].find('\'') {
        Some(k) => {
            errors.push(err((start, i + k + 1), "CS1012", "Too many characters in character literal"));
            Scanned { end: i + k + 1, kind: Token::CharLit, value: value(&units), errors, hit_eof: false }
        }
        None => {
            errors.push(err((start, eol), "CS1010", "Newline in constant"));
            Scanned { end: eol, kind: Token::CharLit, value: value(&units), errors, hit_eof: eol == s.len() }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Interpolated strings
// ---------------------------------------------------------------------------------------

/// The shape of an interpolated literal, read from its prefix.
#[derive(Clone, Copy)]
struct InterpShape {
    /// Number of `$` (= braces that open/close a hole in a raw literal).
    dollars: usize,
    verbatim: bool,
    /// Quote count of a raw literal, 0 otherwise.
    raw_quotes: usize,
}

struct InterpScan<'a> {
    s: &'a str,
    shape: InterpShape,
    parts: Vec<RawPart>,
    text: Units,
    errors: Vec<ScanError>,
    depth: u32,
}

fn interpolated(s: &str, start: usize, depth: u32) -> Scanned {
    let at_first = s.as_bytes()[start] == b'@';
    let dollars = count_run(s, start + usize::from(at_first), b'$');
    let verbatim = at_first || s.as_bytes().get(start + dollars) == Some(&b'@');
    let quote_at = start + dollars + usize::from(verbatim);
    let quotes = count_run(s, quote_at, b'"');
    let raw_quotes = if quotes >= 3 && !verbatim { quotes } else { 0 };
    let shape = InterpShape { dollars: dollars.max(1), verbatim, raw_quotes };
    let mut scan = InterpScan { s, shape, parts: Vec::new(), text: Units::default(), errors: Vec::new(), depth };
    if depth > MAX_NESTING {
        scan.errors.push(err((start, quote_at + 1), "CS1039", "Unterminated string literal"));
        return scan.finish(s.len(), true);
    }
    if raw_quotes > 0 {
        scan.raw_body(start, quote_at + quotes)
    } else {
        scan.quoted_body(start, quote_at + 1)
    }
}

impl<'a> InterpScan<'a> {
    fn finish(mut self, end: usize, hit_eof: bool) -> Scanned {
        self.flush_text();
        let value = LitValue::Interp(self.parts);
        Scanned { end, kind: Token::InterpString, value, errors: self.errors, hit_eof }
    }

    fn flush_text(&mut self) {
        if !self.text.0.is_empty() {
            let t = self.text.take();
            self.parts.push(RawPart::Text(t));
        }
    }

    /// `$"..."` and `$@"..."`.
    fn quoted_body(mut self, start: usize, mut i: usize) -> Scanned {
        let s = self.s;
        loop {
            match char_at(s, i) {
                None => {
                    self.errors.push(unterminated(start, i));
                    return self.finish(i, true);
                }
                Some('"') if self.shape.verbatim && char_at(s, i + 1) == Some('"') => {
                    self.text.push_char('"');
                    i += 2;
                }
                Some('"') => return self.finish(i + 1, false),
                Some('\\') if !self.shape.verbatim => {
                    i = escape_at(s, i, &mut self.text, &mut self.errors);
                }
                Some(c) if is_newline(c) && !self.shape.verbatim => {
                    self.errors.push(err((start, i), "CS1010", "Newline in constant"));
                    return self.finish(i, false);
                }
                Some('{') if char_at(s, i + 1) == Some('{') => {
                    self.text.push_char('{');
                    i += 2;
                }
                Some('}') if char_at(s, i + 1) == Some('}') => {
                    self.text.push_char('}');
                    i += 2;
                }
                Some('{') => match self.hole(i, 1) {
                    Some(next) => i = next,
                    None => return self.finish(s.len(), true),
                },
                Some('}') => {
                    self.errors.push(err((i, i + 1), "CS8086", "A '}' character must be escaped (by doubling) in an interpolated string."));
                    self.text.push_char('}');
                    i += 1;
                }
                Some(c) => {
                    self.text.push_char(c);
                    i += c.len_utf8();
                }
            }
        }
    }

    /// `$"""..."""` / `$$"""..."""`: scans to the closing quotes, then trims lines.
    fn raw_body(mut self, start: usize, body: usize) -> Scanned {
        let s = self.s;
        let quotes = self.shape.raw_quotes;
        let eol = line_end(s, body);
        let multi_line = s[body..eol].trim().is_empty();
        let mut i = if multi_line && eol < s.len() { after_newline(s, eol) } else { body };
        if multi_line && eol == s.len() {
            self.errors.push(err((start, body), "CS8997", "Unterminated raw string literal"));
            return self.finish(s.len(), true);
        }
        loop {
            match char_at(s, i) {
                None => {
                    self.errors.push(err((start, body), "CS8997", "Unterminated raw string literal"));
                    return self.finish(i, true);
                }
                Some('"') if count_run(s, i, b'"') >= quotes => {
                    let run = count_run(s, i, b'"');
                    if run > quotes {
                        self.errors.push(too_many_quotes(i, run));
                    }
                    if multi_line {
                        self.trim_raw(i);
                    }
                    return self.finish(i + run, false);
                }
                Some(c) if is_newline(c) && !multi_line => {
                    self.errors.push(err((start, i), "CS8997", "Unterminated raw string literal"));
                    return self.finish(i, false);
                }
                Some('{') => match self.raw_open_braces(i) {
                    Some(next) => i = next,
                    None => return self.finish(s.len(), true),
                },
                Some(c) => {
                    self.text.push_char(c);
                    i += c.len_utf8();
                }
            }
        }
    }

    /// A run of `{` in a raw interpolated string: fewer than `$`-count braces are text,
    /// otherwise the last `$`-count braces open a hole.
    fn raw_open_braces(&mut self, i: usize) -> Option<usize> {
        let run = count_run(self.s, i, b'{');
        let d = self.shape.dollars;
        if run < d {
            self.text.push_str(&self.s[i..i + run]);
            return Some(i + run);
        }
        let literal = run - d;
        if literal >= d {
            self.errors.push(err(
                (i, i + run),
                "CS9006",
                "The interpolated raw string literal does not start with enough '$' characters to allow this many consecutive opening braces as content.",
            ));
        }
        self.text.push_str(&self.s[i..i + literal]);
        self.hole(i + literal, d)
    }

    /// Scans a hole opening at `open` with `braces` braces; returns the index after it, or
    /// `None` when the input ends inside the hole.
    fn hole(&mut self, open: usize, braces: usize) -> Option<usize> {
        self.flush_text();
        let s = self.s;
        let expr_start = open + braces;
        let mut i = expr_start;
        let mut nest = 0usize;
        let mut expr_end = None;
        let mut align: Option<(usize, usize)> = None;
        loop {
            let Some(c) = char_at(s, i) else {
                self.errors.push(err((open, i), "CS1039", "Unterminated string literal"));
                return None;
            };
            match c {
                '(' | '[' | '{' => nest += 1,
                ')' | ']' => nest = nest.saturating_sub(1),
                '}' if nest > 0 => nest -= 1,
                '}' if count_run(s, i, b'}') >= braces => {
                    let (expr, alignment) = split_expr(expr_start, i, expr_end, align);
                    self.push_hole(expr, alignment, None, (open, i + braces));
                    return Some(i + braces);
                }
                ',' if nest == 0 && align.is_none() => {
                    expr_end = Some(i);
                    align = Some((i + 1, i + 1));
                }
                ':' if nest == 0 && s[i..].starts_with("::") => i += 1,
                ':' if nest == 0 => {
                    let (expr, alignment) = split_expr(expr_start, i, expr_end, align);
                    return self.format(open, braces, i + 1, expr, alignment);
                }
                '"' | '\'' | '@' | '$' if starts_literal(&s[i..]) => {
                    let inner = scan_nested(s, i, self.depth + 1);
                    if inner.hit_eof {
                        self.errors.extend(inner.errors);
                        return None;
                    }
                    i = inner.end;
                    continue;
                }
                '/' if s[i..].starts_with("/*") => {
                    i = s[i + 2..].find("*/").map_or(s.len(), |k| i + 2 + k + 2);
                    continue;
                }
                _ => {}
            }
            i += c.len_utf8();
        }
    }

    /// Reads a format specifier starting at `from` up to the closing brace(s).
    fn format(&mut self, open: usize, braces: usize, from: usize, expr: (usize, usize), alignment: Option<(usize, usize)>) -> Option<usize> {
        let s = self.s;
        let close = "}".repeat(braces);
        let Some(k) = s[from..].find(close.as_str()) else {
            self.errors.push(err((open, s.len()), "CS1039", "Unterminated string literal"));
            return None;
        };
        let end = from + k;
        self.push_hole(expr, alignment, Some(s[from..end].to_string()), (open, end + braces));
        Some(end + braces)
    }

    fn push_hole(&mut self, expr: (usize, usize), alignment: Option<(usize, usize)>, format: Option<String>, span: (usize, usize)) {
        self.parts.push(RawPart::Hole { expr, alignment, format, span });
    }

    /// Removes the closing line's indentation from every line of a multi-line raw
    /// interpolated string (text parts only), and drops the final line break.
    fn trim_raw(&mut self, close: usize) {
        self.flush_text();
        let s = self.s;
        let line_start = s[..close].rfind(is_newline).map_or(0, |k| after_newline(s, k));
        let indent = &s[line_start..close];
        if !indent.chars().all(char::is_whitespace) {
            self.errors.push(err((close, close + 1), "CS9000", "Raw string literal delimiter must be on its own line"));
            return;
        }
        let parts = std::mem::take(&mut self.parts);
        let mut at_line_start = true;
        let count = parts.len();
        for (n, part) in parts.into_iter().enumerate() {
            match part {
                RawPart::Text(t) => {
                    let t = if n + 1 == count { drop_last_line(&t) } else { t };
                    let (trimmed, ends_at_line_start) = self.trim_text(&t, indent, at_line_start, close);
                    at_line_start = ends_at_line_start;
                    if !trimmed.is_empty() {
                        self.parts.push(RawPart::Text(trimmed));
                    }
                }
                hole => {
                    at_line_start = false;
                    self.parts.push(hole);
                }
            }
        }
    }

    /// Trims the indentation at every line start inside one text part.
    fn trim_text(&mut self, t: &str, indent: &str, mut at_line_start: bool, close: usize) -> (String, bool) {
        let lines = split_lines(t);
        let mut out = Vec::with_capacity(lines.len());
        let last = lines.len() - 1;
        for (k, line) in lines.into_iter().enumerate() {
            if k > 0 {
                at_line_start = true;
            }
            if !at_line_start {
                out.push(line.to_string());
            } else if line.trim().is_empty() && k < last {
                out.push(String::new());
            } else if let Some(rest) = line.strip_prefix(indent) {
                out.push(rest.to_string());
            } else if line.trim().is_empty() && indent.starts_with(line) {
                out.push(String::new());
            } else {
                self.errors.push(line_indent_error(close));
                out.push(line.trim_start().to_string());
            }
            at_line_start = false;
        }
        (out.join("\n"), false)
    }
}

/// Removes the last line (the closing delimiter's indentation) and its line break.
fn drop_last_line(t: &str) -> String {
    match t.rfind(is_newline) {
        Some(k) => {
            let k = if k > 0 && t[..k].ends_with('\r') { k - 1 } else { k };
            t[..k].to_string()
        }
        None => String::new(),
    }
}

/// Splits a hole's text into the expression and alignment ranges.
fn split_expr(start: usize, end: usize, expr_end: Option<usize>, align: Option<(usize, usize)>) -> ((usize, usize), Option<(usize, usize)>) {
    match (expr_end, align) {
        (Some(e), Some((a, _))) => ((start, e), Some((a, end))),
        _ => ((start, end), None),
    }
}

/// Whether a string-like literal starts here (inside a hole).
fn starts_literal(rest: &str) -> bool {
    rest.starts_with('"')
        || rest.starts_with('\'')
        || rest.starts_with("@\"")
        || rest.starts_with("@$")
        || (rest.starts_with('$') && rest.trim_start_matches('$').trim_start_matches('@').starts_with('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(src: &str) -> LitValue {
        let sc = scan_literal(src, 0);
        assert!(sc.errors.is_empty(), "{src}: {:?}", sc.errors);
        assert_eq!(sc.end, src.len(), "{src}");
        sc.value
    }

    fn text(src: &str) -> String {
        match value(src) {
            LitValue::Str(s) => s,
            other => panic!("{other:?}"),
        }
    }

    fn codes(src: &str) -> Vec<&'static str> {
        scan_literal(src, 0).errors.iter().map(|e| e.code).collect()
    }

    #[test]
    fn regular_and_verbatim() {
        assert_eq!(text(r#""a\tb\u0041\x41\\\"""#), "a\tbAA\\\"");
        assert_eq!(text("@\"a\"\"b\nc\""), "a\"b\nc");
        assert_eq!(codes("\"abc\ndef\""), vec!["CS1010"]);
        assert_eq!(codes("\"abc"), vec!["CS1039"]);
        assert_eq!(codes("@\"abc"), vec!["CS1039"]);
        assert_eq!(codes(r#""\q""#), vec!["CS1009"]);
    }

    #[test]
    fn raw_strings() {
        assert_eq!(text(r#""""a "quoted" b""""#), r#"a "quoted" b"#);
        assert_eq!(text("\"\"\"\n    a\n      b\n\n    c\n    \"\"\""), "a\n  b\n\nc");
        assert_eq!(text("\"\"\"\"\n  x \"\"\" y\n  \"\"\"\""), "x \"\"\" y");
        assert_eq!(codes("\"\"\"\n  a\n b\n  \"\"\""), vec!["CS8999"]);
        assert_eq!(codes("\"\"\"\n  a"), vec!["CS8997"]);
    }

    #[test]
    fn chars() {
        assert_eq!(value("'a'"), LitValue::Char(97));
        assert_eq!(value(r"'\n'"), LitValue::Char(10));
        assert_eq!(value(r"'\u0041'"), LitValue::Char(65));
        assert_eq!(value(r"'\''"), LitValue::Char(39));
        assert_eq!(codes("''"), vec!["CS1011"]);
        assert_eq!(codes("'ab'"), vec!["CS1012"]);
        assert_eq!(codes("'a"), vec!["CS1010"]);
    }

    fn parts(src: &str) -> Vec<RawPart> {
        match value(src) {
            LitValue::Interp(p) => p,
            other => panic!("{other:?}"),
        }
    }

    fn hole(src: &str, p: &RawPart) -> (String, Option<String>, Option<String>) {
        match p {
            RawPart::Hole { expr, alignment, format, .. } => (src[expr.0..expr.1].to_string(), alignment.map(|a| src[a.0..a.1].to_string()), format.clone()),
            RawPart::Text(t) => panic!("text {t}"),
        }
    }

    #[test]
    fn interpolation_holes() {
        let src = r#"$"a{x}b{{c}}{y,-5:F2}{(a ? "x" : "y")}""#;
        let p = parts(src);
        assert_eq!(p[0], RawPart::Text("a".into()));
        assert_eq!(hole(src, &p[1]), ("x".into(), None, None));
        assert_eq!(p[2], RawPart::Text("b{c}".into()));
        assert_eq!(hole(src, &p[3]), ("y".into(), Some("-5".into()), Some("F2".into())));
        assert_eq!(hole(src, &p[4]), (r#"(a ? "x" : "y")"#.into(), None, None));
    }

    #[test]
    fn nested_interpolation_and_calls() {
        let src = r#"$"{f(a, b)}{$"in{x}"}{d["k"]:X}""#;
        let p = parts(src);
        assert_eq!(hole(src, &p[0]).0, "f(a, b)");
        assert_eq!(hole(src, &p[1]).0, r#"$"in{x}""#);
        assert_eq!(hole(src, &p[2]), (r#"d["k"]"#.into(), None, Some("X".into())));
    }

    #[test]
    fn raw_interpolation() {
        let src = "$$\"\"\"\n    {\"a\": {{x}}}\n    \"\"\"";
        let p = parts(src);
        assert_eq!(p[0], RawPart::Text("{\"a\": ".into()));
        assert_eq!(hole(src, &p[1]).0, "x");
        assert_eq!(p[2], RawPart::Text("}".into()));
        let verb = r#"@$"a""{x}""#;
        assert_eq!(parts(verb)[0], RawPart::Text("a\"".into()));
    }
}
