//! The condition of `#if` / `#elif` (C# spec §6.5.3): `||`, `&&`, `==`, `!=`, `!`,
//! parentheses, `true`, `false` and conditional symbols (an undefined symbol is false),
//! parsed and evaluated in one pass over the directive's text.

/// A malformed condition: where (a byte offset into the condition's text) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionError {
    pub at: usize,
    pub end: usize,
    pub code: &'static str,
    pub message: &'static str,
}

/// Evaluates `text` (what follows `#if`, a trailing `//` comment allowed); `defined`
/// answers whether a symbol is defined.
pub fn evaluate(text: &str, defined: &dyn Fn(&str) -> bool) -> Result<bool, ConditionError> {
    let mut p = Parser { text, pos: 0, defined };
    let value = p.or()?;
    p.skip_space();
    if p.pos < p.text.len() {
        return Err(p.error_here("CS1025", "Single-line comment or end-of-line expected"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    defined: &'a dyn Fn(&str) -> bool,
}

impl<'a> Parser<'a> {
    fn or(&mut self) -> Result<bool, ConditionError> {
        let mut value = self.and()?;
        while self.eat("||") {
            value |= self.and()?;
        }
        Ok(value)
    }

    fn and(&mut self) -> Result<bool, ConditionError> {
        let mut value = self.equality()?;
        while self.eat("&&") {
            value &= self.equality()?;
        }
        Ok(value)
    }

    fn equality(&mut self) -> Result<bool, ConditionError> {
        let mut value = self.unary()?;
        loop {
            if self.eat("==") {
                value = value == self.unary()?;
            } else if self.eat("!=") {
                value = value != self.unary()?;
            } else {
                return Ok(value);
            }
        }
    }

    fn unary(&mut self) -> Result<bool, ConditionError> {
        self.skip_space();
        if !self.rest().starts_with("!=") && self.eat("!") {
            return Ok(!self.unary()?);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<bool, ConditionError> {
        self.skip_space();
        if self.eat("(") {
            let value = self.or()?;
            if !self.eat(")") {
                return Err(self.error_here("CS1026", ") expected"));
            }
            return Ok(value);
        }
        let name = self.identifier();
        match name {
            "" => Err(self.error_here("CS1517", "Invalid preprocessor expression")),
            "true" => Ok(true),
            "false" => Ok(false),
            symbol => Ok((self.defined)(symbol)),
        }
    }

    /// The identifier at the cursor (empty if none), consumed.
    fn identifier(&mut self) -> &'a str {
        let text = self.text;
        let rest = &text[self.pos..];
        let starts = rest.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
        if !starts {
            return "";
        }
        let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let start = self.pos;
        self.pos += len;
        &text[start..self.pos]
    }

    fn eat(&mut self, op: &str) -> bool {
        self.skip_space();
        if self.rest().starts_with(op) {
            self.pos += op.len();
            true
        } else {
            false
        }
    }

    /// Skips blanks; a `//` comment ends the condition.
    fn skip_space(&mut self) {
        let rest = self.rest();
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            self.pos = self.text.len();
        }
    }

    fn rest(&self) -> &'a str {
        let text = self.text;
        &text[self.pos..]
    }

    fn error_here(&self, code: &'static str, message: &'static str) -> ConditionError {
        let len = self.rest().chars().next().map_or(0, char::len_utf8);
        ConditionError { at: self.pos, end: self.pos + len, code, message }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str) -> Result<bool, &'static str> {
        evaluate(text, &|s| s == "A" || s == "DEBUG").map_err(|e| e.code)
    }

    #[test]
    fn literals_and_symbols() {
        assert_eq!(eval("true"), Ok(true));
        assert_eq!(eval(" false "), Ok(false));
        assert_eq!(eval("A"), Ok(true));
        assert_eq!(eval("B"), Ok(false));
        assert_eq!(eval("DEBUG // a comment"), Ok(true));
    }

    #[test]
    fn operators_and_precedence() {
        assert_eq!(eval("!A"), Ok(false));
        assert_eq!(eval("!!A"), Ok(true));
        assert_eq!(eval("A && B"), Ok(false));
        assert_eq!(eval("A || B"), Ok(true));
        // `&&` binds tighter than `||`; `==` tighter than `&&`.
        assert_eq!(eval("A || B && false"), Ok(true));
        assert_eq!(eval("B == false && A"), Ok(true));
        assert_eq!(eval("A != B"), Ok(true));
        assert_eq!(eval("(A || B) && !(B)"), Ok(true));
        assert_eq!(eval("!(A && DEBUG)"), Ok(false));
        assert_eq!(eval("A==true!=false"), Ok(true));
    }

    #[test]
    fn malformed_conditions() {
        assert_eq!(eval(""), Err("CS1517"));
        assert_eq!(eval("A &&"), Err("CS1517"));
        assert_eq!(eval("(A"), Err("CS1026"));
        assert_eq!(eval("A B"), Err("CS1025"));
        assert_eq!(eval("1"), Err("CS1517"));
        assert_eq!(evaluate("A +", &|_| true).map_err(|e| (e.at, e.code)), Err((2, "CS1025")));
    }
}
