//! .NET regular-expression syntax rewritten into fancy-regex's, with .NET's group
//! numbering. The pattern is read once, as .NET's `RegexParser` reads it, and written out
//! in a form whose meaning fancy-regex shares:
//!
//! - every capturing group becomes an unnamed group, so fancy-regex numbers them in the
//!   order written; [`Translation::groups`] maps them to .NET's numbers (unnamed groups
//!   first, then the named ones), and backreferences are renumbered to match;
//! - the options fancy-regex lacks or scopes differently are applied here: `x` (pattern
//!   whitespace and `#` comments are dropped), `n` (unnamed groups do not capture), `m`
//!   (`^`/`$` written as line or text anchors); `i` and `s` are passed on inline;
//! - the anchors and escapes whose meaning differs are spelled out: `$` outside multiline
//!   and `\Z` (end, or before a final `\n`), `\e`, `\cX`, octal `\0nn`, `\b` in a class;
//! - literal punctuation is escaped, so `{` that is not a quantifier, `[` inside a class,
//!   `&&`/`~~` in a class stay literal as in .NET; class subtraction `[a-z-[aeiou]]`
//!   becomes an intersection with the complement.
//!
//! Errors carry .NET's wording (`RegexParseError`'s messages) and the offset .NET reports.

/// A .NET pattern in fancy-regex's syntax.
pub struct Translation {
    pub pattern: String,
    /// .NET's groups in number order (group 0 first).
    pub groups: Vec<GroupSlot>,
}

/// One .NET group: its number, its name (the number's digits when unnamed), and the
/// fancy-regex groups that capture for it (several when a name is used twice).
pub struct GroupSlot {
    pub number: i32,
    pub name: String,
    pub engine_groups: Vec<usize>,
}

/// Why a pattern was refused.
pub enum TranslateError {
    /// .NET rejects it too: `Invalid pattern '...' at offset N. reason`.
    Invalid { offset: usize, reason: String },
    /// .NET accepts it but fancy-regex has no equivalent (balancing groups, conditionals).
    Unsupported(String),
}

/// The `RegexOptions` bits the translation reads.
pub mod options {
    pub const IGNORE_CASE: i32 = 1;
    pub const MULTILINE: i32 = 2;
    pub const EXPLICIT_CAPTURE: i32 = 4;
    pub const SINGLELINE: i32 = 16;
    pub const IGNORE_PATTERN_WHITESPACE: i32 = 32;
}

#[derive(Clone, Copy)]
struct Flags {
    multiline: bool,
    ignore_whitespace: bool,
    explicit_capture: bool,
}

/// How a capturing group was named.
#[derive(Clone, PartialEq)]
enum GroupName {
    Unnamed,
    Named(String),
    Numbered(i32),
}

/// A backreference, resolved once every group is numbered.
enum Reference {
    Number(i32),
    Name(String),
}

/// A piece of output: text, or a backreference waiting for its group's engine number.
enum Piece {
    Text(String),
    Backref { target: Reference, offset: usize },
}

/// An element of a character class.
enum ClassItem {
    Char(char),
    Set(String),
}

/// What the last element written can take: a quantifier or not (.NET's errors).
#[derive(Clone, Copy, PartialEq)]
enum Last {
    Nothing,
    Atom,
    Quantifier,
}

struct Translator {
    chars: Vec<char>,
    pos: usize,
    pieces: Vec<Piece>,
    text: String,
    flags: Flags,
    saved: Vec<Flags>,
    captures: Vec<GroupName>,
    last: Last,
}

/// Translates `pattern` under `RegexOptions` bits `opts`.
pub fn translate(pattern: &str, opts: i32) -> Result<Translation, TranslateError> {
    let mut t = Translator {
        chars: pattern.chars().collect(),
        pos: 0,
        pieces: Vec::new(),
        text: String::new(),
        flags: Flags {
            multiline: opts & options::MULTILINE != 0,
            ignore_whitespace: opts & options::IGNORE_PATTERN_WHITESPACE != 0,
            explicit_capture: opts & options::EXPLICIT_CAPTURE != 0,
        },
        saved: Vec::new(),
        captures: Vec::new(),
        last: Last::Nothing,
    };
    if opts & options::IGNORE_CASE != 0 {
        t.text.push_str("(?i)");
    }
    if opts & options::SINGLELINE != 0 {
        t.text.push_str("(?s)");
    }
    t.run()?;
    t.finish()
}

impl Translator {
    fn invalid<T>(&self, offset: usize, reason: &str) -> Result<T, TranslateError> {
        Err(TranslateError::Invalid { offset, reason: reason.to_string() })
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }

    fn emit(&mut self, s: &str) {
        self.text.push_str(s);
    }

    fn emit_atom(&mut self, s: &str) {
        self.text.push_str(s);
        self.last = Last::Atom;
    }

    fn run(&mut self) -> Result<(), TranslateError> {
        while let Some(c) = self.next() {
            match c {
                c if self.flags.ignore_whitespace && is_pattern_whitespace(c) => {}
                '#' if self.flags.ignore_whitespace => self.skip_comment_line(),
                '\\' => self.escape()?,
                '[' => {
                    let class = self.class()?;
                    self.emit_atom(&class);
                }
                '(' => self.open_group()?,
                ')' => self.close_group()?,
                '|' => {
                    self.emit("|");
                    self.last = Last::Nothing;
                }
                '*' | '+' | '?' => self.quantifier(&c.to_string())?,
                '{' => match self.brace_quantifier() {
                    Some(bounds) => self.bounded_quantifier(&bounds)?,
                    None => self.emit_atom("\\{"),
                },
                '^' => self.emit_atom(if self.flags.multiline { "(?m:^)" } else { "^" }),
                '$' => self.emit_atom(if self.flags.multiline { "(?m:$)" } else { "(?=\\n?\\z)" }),
                '.' => self.emit_atom("."),
                c => self.emit_atom(&literal(c, false)),
            }
        }
        if !self.saved.is_empty() {
            return self.invalid(self.chars.len(), "Not enough )'s.");
        }
        Ok(())
    }

    fn skip_comment_line(&mut self) {
        while let Some(c) = self.next() {
            if c == '\n' {
                break;
            }
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` at the position after `{` (consumed when it is one).
    fn brace_quantifier(&mut self) -> Option<String> {
        let rest: String = self.chars[self.pos..].iter().take_while(|&&c| c != '}').collect();
        if self.pos + rest.chars().count() >= self.chars.len() {
            return None;
        }
        let (low, high) = match rest.split_once(',') {
            Some((l, h)) => (l, Some(h)),
            None => (rest.as_str(), None),
        };
        let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        if !digits(low) || high.is_some_and(|h| !h.is_empty() && !digits(h)) {
            return None;
        }
        self.pos += rest.chars().count() + 1;
        Some(rest)
    }

    /// `{bounds}`: `n`, `n,` or `n,m` (.NET refuses `m < n` and bounds past Int32).
    fn bounded_quantifier(&mut self, bounds: &str) -> Result<(), TranslateError> {
        let mut parts = bounds.split(',').map(|b| if b.is_empty() { Ok(None) } else { b.parse::<i32>().map(Some) });
        let low = parts.next().unwrap_or(Ok(None));
        let high = parts.next().unwrap_or(Ok(None));
        match (low, high) {
            (Ok(Some(l)), Ok(Some(h))) if h < l => self.invalid(self.pos, "Illegal {x,y} with x > y."),
            (Ok(_), Ok(_)) => self.quantifier(&format!("{{{bounds}}}")),
            _ => self.invalid(self.pos, "Quantifier and capture group numbers must be less than or equal to Int32.MaxValue."),
        }
    }

    fn quantifier(&mut self, q: &str) -> Result<(), TranslateError> {
        match self.last {
            Last::Nothing => return self.invalid(self.pos, &format!("Quantifier '{}' following nothing.", &q[..1])),
            Last::Quantifier => return self.invalid(self.pos, &format!("Nested quantifier '{}'.", &q[..1])),
            Last::Atom => {}
        }
        self.emit(q);
        if self.peek() == Some('?') {
            self.pos += 1;
            self.emit("?");
        }
        self.last = Last::Quantifier;
        Ok(())
    }

    fn escape(&mut self) -> Result<(), TranslateError> {
        let Some(c) = self.next() else {
            return self.invalid(self.pos, "Illegal \\ at end of pattern.");
        };
        match c {
            '1'..='9' => {
                let n = self.number_from(c);
                self.backref(Reference::Number(n));
            }
            'k' => {
                let name = self.reference_name()?;
                let target = match name.parse::<i32>() {
                    Ok(n) => Reference::Number(n),
                    Err(_) => Reference::Name(name),
                };
                self.backref(target);
            }
            'b' | 'B' | 'A' | 'G' | 'z' => self.emit_atom(&format!("\\{c}")),
            'Z' => self.emit_atom("(?=\\n?\\z)"),
            'w' | 'W' | 's' | 'S' | 'd' | 'D' => self.emit_atom(&format!("\\{c}")),
            'p' | 'P' => {
                let class = self.property(c)?;
                self.emit_atom(&class);
            }
            _ => {
                let ch = self.char_escape(c, false)?;
                self.emit_atom(&literal(ch, false));
            }
        }
        Ok(())
    }

    /// The decimal number starting with `first` (already read).
    fn number_from(&mut self, first: char) -> i32 {
        let mut n = first.to_digit(10).unwrap_or(0) as i32;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d as i32);
            self.pos += 1;
        }
        n
    }

    /// `<name>` or `'name'` after `\k`.
    fn reference_name(&mut self) -> Result<String, TranslateError> {
        let close = match self.next() {
            Some('<') => '>',
            Some('\'') => '\'',
            _ => return self.invalid(self.pos, "Malformed \\k<...> named back reference."),
        };
        let start = self.pos;
        let name: String = self.chars[start..].iter().take_while(|c| is_word(**c)).collect();
        self.pos += name.chars().count();
        if name.is_empty() || self.next() != Some(close) {
            return self.invalid(self.pos, "Malformed \\k<...> named back reference.");
        }
        Ok(name)
    }

    fn backref(&mut self, target: Reference) {
        let text = std::mem::take(&mut self.text);
        self.pieces.push(Piece::Text(text));
        self.pieces.push(Piece::Backref { target, offset: self.pos });
        self.last = Last::Atom;
    }

    /// `\p{Name}` or `\P{Name}` (the `p`/`P` read).
    fn property(&mut self, p: char) -> Result<String, TranslateError> {
        if self.next() != Some('{') {
            return self.invalid(self.pos, "Incomplete \\p{X} character escape.");
        }
        let name: String = self.chars[self.pos..].iter().take_while(|c| **c != '}').collect();
        self.pos += name.chars().count();
        if self.next() != Some('}') || name.is_empty() {
            return self.invalid(self.pos, "Incomplete \\p{X} character escape.");
        }
        if name.starts_with("Is") && name.len() > 2 {
            return Err(TranslateError::Unsupported(format!("Unicode block names (\\p{{{name}}}) are not supported.")));
        }
        if !CATEGORIES.contains(&name.as_str()) {
            return self.invalid(self.pos, &format!("Unknown property '{name}'."));
        }
        Ok(format!("\\{p}{{{name}}}"))
    }

    /// The character a character escape stands for (`c` read after the backslash).
    fn char_escape(&mut self, c: char, in_class: bool) -> Result<char, TranslateError> {
        Ok(match c {
            'a' => '\x07',
            'b' if in_class => '\x08',
            'e' => '\x1b',
            'f' => '\x0c',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\x0b',
            '0'..='7' => self.octal(c),
            'x' => self.hex(2)?,
            'u' => self.hex(4)?,
            'c' => match self.next() {
                Some(l) if l.is_ascii_alphabetic() || ('@'..='_').contains(&l) => char::from((l.to_ascii_uppercase() as u8) & 0x1f),
                _ => return self.invalid(self.pos, "Missing control character."),
            },
            c if c.is_alphanumeric() || c == '_' => return self.invalid(self.pos, &format!("Unrecognized escape sequence \\{c}.")),
            c => c,
        })
    }

    /// An octal escape: `first` and up to two more digits (the value's low byte).
    fn octal(&mut self, first: char) -> char {
        let mut n = first.to_digit(8).unwrap_or(0);
        for _ in 0..2 {
            match self.peek().and_then(|c| c.to_digit(8)) {
                Some(d) => {
                    n = n * 8 + d;
                    self.pos += 1;
                }
                None => break,
            }
        }
        char::from_u32(n & 0xff).unwrap_or('\0')
    }

    fn hex(&mut self, digits: usize) -> Result<char, TranslateError> {
        if self.chars.len() - self.pos < digits {
            return self.invalid(self.pos, "Insufficient or invalid hexadecimal digits.");
        }
        let mut n = 0u32;
        for _ in 0..digits {
            match self.next().and_then(|c| c.to_digit(16)) {
                Some(d) => n = n * 16 + d,
                None => return self.invalid(self.pos, "Insufficient or invalid hexadecimal digits."),
            }
        }
        Ok(char::from_u32(n).unwrap_or('\u{fffd}'))
    }

    /// A character class; `[` read. Returns it in the engine's syntax.
    fn class(&mut self) -> Result<String, TranslateError> {
        let mut out = String::from("[");
        if self.peek() == Some('^') {
            self.pos += 1;
            out.push('^');
        }
        let mut first = true;
        loop {
            let Some(c) = self.next() else {
                return self.invalid(self.pos, "Unterminated [] set.");
            };
            if c == ']' && !first {
                break;
            }
            if c == '-' && !first && self.peek() == Some('[') {
                self.pos += 1;
                let subtracted = self.class()?;
                out.push_str(&format!("&&[^{subtracted}]"));
                if self.next() != Some(']') {
                    return self.invalid(self.pos, "A subtraction must be the last element in a character class.");
                }
                break;
            }
            first = false;
            match self.class_item(c)? {
                ClassItem::Set(set) => out.push_str(&set),
                ClassItem::Char(low) if self.peek() == Some('-') && self.peek_at(1).is_some_and(|n| n != ']' && n != '[') => {
                    self.pos += 1;
                    let next = self.next().unwrap_or(']');
                    let ClassItem::Char(high) = self.class_item(next)? else {
                        return self.invalid(self.pos, &format!("Cannot include class \\{} in character range.", self.chars[self.pos - 1]));
                    };
                    if high < low {
                        return self.invalid(self.pos, "[x-y] range in reverse order.");
                    }
                    out.push_str(&format!("{}-{}", literal(low, true), literal(high, true)));
                }
                ClassItem::Char(ch) => out.push_str(&literal(ch, true)),
            }
        }
        out.push(']');
        Ok(out)
    }

    /// One element of a class starting with `c` (read): a character or a set (`\d`, `\p{L}`).
    fn class_item(&mut self, c: char) -> Result<ClassItem, TranslateError> {
        if c != '\\' {
            return Ok(ClassItem::Char(c));
        }
        let Some(e) = self.next() else {
            return self.invalid(self.pos, "Illegal \\ at end of pattern.");
        };
        Ok(match e {
            'w' | 'W' | 's' | 'S' | 'd' | 'D' => ClassItem::Set(format!("\\{e}")),
            'p' | 'P' => ClassItem::Set(self.property(e)?),
            _ => ClassItem::Char(self.char_escape(e, true)?),
        })
    }

    fn open_group(&mut self) -> Result<(), TranslateError> {
        if self.peek() != Some('?') {
            if self.flags.explicit_capture {
                self.emit("(?:");
            } else {
                self.capture(GroupName::Unnamed);
            }
            return self.enter();
        }
        self.pos += 1;
        match (self.peek(), self.peek_at(1)) {
            (Some(':'), _) | (Some('='), _) | (Some('!'), _) | (Some('>'), _) => {
                let kind = self.next().unwrap_or(':');
                self.emit(&format!("(?{kind}"));
            }
            (Some('<'), Some('=')) | (Some('<'), Some('!')) => {
                let kind = self.peek_at(1).unwrap_or('=');
                self.pos += 2;
                self.emit(&format!("(?<{kind}"));
            }
            (Some('<'), _) | (Some('\''), _) => {
                let close = if self.next() == Some('<') { '>' } else { '\'' };
                let name = self.group_name(close)?;
                self.capture(name);
            }
            (Some('#'), _) => return self.comment_group(),
            (Some('('), _) => return Err(TranslateError::Unsupported("Conditional expressions (?(...)yes|no) are not supported.".into())),
            _ => return self.flag_group(),
        }
        self.enter()
    }

    fn enter(&mut self) -> Result<(), TranslateError> {
        self.saved.push(self.flags);
        self.last = Last::Nothing;
        Ok(())
    }

    fn capture(&mut self, name: GroupName) {
        self.emit("(");
        self.captures.push(name);
    }

    /// A group's name up to `close` (`(?<` or `(?'` read).
    fn group_name(&mut self, close: char) -> Result<GroupName, TranslateError> {
        let numbered = self.peek().is_some_and(|c| c.is_ascii_digit());
        let part_of_name = |c: &&char| if numbered { c.is_ascii_digit() } else { is_word(**c) };
        let name: String = self.chars[self.pos..].iter().take_while(part_of_name).collect();
        self.pos += name.chars().count();
        match self.peek() {
            Some(c) if c == close && !name.is_empty() => self.pos += 1,
            Some('-') => return Err(TranslateError::Unsupported("Balancing groups (?<name1-name2>...) are not supported.".into())),
            _ => return self.invalid(self.pos, "Invalid group name: Group names must begin with a word character."),
        }
        if numbered {
            return match name.parse::<i32>() {
                Ok(0) => self.invalid(self.pos, "Capture group numbers must be less than or equal to Int32.MaxValue."),
                Ok(n) => Ok(GroupName::Numbered(n)),
                Err(_) => self.invalid(self.pos, "Invalid group name: Group names must begin with a word character."),
            };
        }
        Ok(GroupName::Named(name))
    }

    /// `(?#...)`: dropped.
    fn comment_group(&mut self) -> Result<(), TranslateError> {
        while let Some(c) = self.next() {
            if c == ')' {
                return Ok(());
            }
        }
        self.invalid(self.pos, "Unterminated (?#...) comment.")
    }

    /// `(?imnsx-imnsx)` or `(?imnsx-imnsx:...)`; `(?` read.
    fn flag_group(&mut self) -> Result<(), TranslateError> {
        let before = self.flags;
        let mut on = true;
        let (mut plus, mut minus) = (String::new(), String::new());
        loop {
            let Some(c) = self.next() else {
                return self.invalid(self.pos, "Unrecognized grouping construct.");
            };
            match c {
                '-' => on = false,
                'i' | 's' => {
                    if on {
                        plus.push(c)
                    } else {
                        minus.push(c)
                    }
                }
                'm' => self.flags.multiline = on,
                'x' => self.flags.ignore_whitespace = on,
                'n' => self.flags.explicit_capture = on,
                ')' | ':' => {
                    let flags = if minus.is_empty() { plus } else { format!("{plus}-{minus}") };
                    if c == ')' {
                        if !flags.is_empty() {
                            self.emit(&format!("(?{flags})"));
                        }
                        return Ok(());
                    }
                    // `(?flags:...)`: the group restores the flags in force before it.
                    self.saved.push(before);
                    self.last = Last::Nothing;
                    self.emit(&format!("(?{flags}:"));
                    return Ok(());
                }
                _ => return self.invalid(self.pos, "Unrecognized grouping construct."),
            }
        }
    }

    fn close_group(&mut self) -> Result<(), TranslateError> {
        let Some(flags) = self.saved.pop() else {
            return self.invalid(self.pos, "Too many )'s.");
        };
        self.flags = flags;
        self.emit_atom(")");
        Ok(())
    }

    /// Numbers the groups as .NET does and resolves the backreferences.
    fn finish(mut self) -> Result<Translation, TranslateError> {
        let tail = std::mem::take(&mut self.text);
        self.pieces.push(Piece::Text(tail));
        let groups = number_groups(&self.captures);
        let mut pattern = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(t) => pattern.push_str(t),
                Piece::Backref { target, offset } => {
                    let slot = match target {
                        Reference::Number(n) => groups.iter().find(|g| g.number == *n),
                        Reference::Name(s) => groups.iter().find(|g| &g.name == s),
                    };
                    let Some(engine) = slot.and_then(|g| g.engine_groups.first()) else {
                        let reason = match target {
                            Reference::Number(n) => format!("Reference to undefined group number {n}."),
                            Reference::Name(s) => format!("Reference to undefined group name '{s}'."),
                        };
                        return Err(TranslateError::Invalid { offset: *offset, reason });
                    };
                    pattern.push_str(&format!("(?:\\{engine})"));
                }
            }
        }
        Ok(Translation { pattern, groups })
    }
}

/// .NET's numbering: group 0, the unnamed groups 1..n in order, explicitly numbered
/// groups as written, then each distinct name in order of appearance on the next free
/// numbers.
fn number_groups(captures: &[GroupName]) -> Vec<GroupSlot> {
    let mut slots: Vec<GroupSlot> = vec![GroupSlot { number: 0, name: "0".into(), engine_groups: Vec::new() }];
    let mut unnamed = 0;
    let slot_of = |slots: &mut Vec<GroupSlot>, number: i32, name: String, engine: usize| match slots.iter_mut().find(|s| s.number == number) {
        Some(s) => s.engine_groups.push(engine),
        None => slots.push(GroupSlot { number, name, engine_groups: vec![engine] }),
    };
    for (i, c) in captures.iter().enumerate() {
        match c {
            GroupName::Unnamed => {
                unnamed += 1;
                slot_of(&mut slots, unnamed, unnamed.to_string(), i + 1);
            }
            GroupName::Numbered(n) => slot_of(&mut slots, *n, n.to_string(), i + 1),
            GroupName::Named(_) => {}
        }
    }
    let mut next = 1;
    for (i, c) in captures.iter().enumerate() {
        let GroupName::Named(name) = c else { continue };
        if let Some(s) = slots.iter_mut().find(|s| &s.name == name) {
            s.engine_groups.push(i + 1);
            continue;
        }
        while slots.iter().any(|s| s.number == next) {
            next += 1;
        }
        slots.push(GroupSlot { number: next, name: name.clone(), engine_groups: vec![i + 1] });
    }
    slots.sort_by_key(|s| s.number);
    slots
}

/// `c` as a literal in the engine's syntax (inside a class when `in_class`).
fn literal(c: char, in_class: bool) -> String {
    let special = if in_class { "[]\\^-&~" } else { "\\.+*?()|[]{}^$#&-~" };
    if special.contains(c) {
        format!("\\{c}")
    } else if c.is_whitespace() || c.is_control() {
        format!("\\x{{{:X}}}", c as u32)
    } else {
        c.to_string()
    }
}

/// The Unicode general categories `\p{...}` names (.NET's list less the block names).
const CATEGORIES: &[&str] = &[
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co", "Cn", "P", "Pc", "Pd",
    "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So",
];

/// What .NET's `\w` and group names are made of.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The whitespace `IgnorePatternWhitespace` skips (.NET's `IsSpace`).
fn is_pattern_whitespace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}
