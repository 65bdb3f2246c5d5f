//! Bounded look-ahead scanners used by the disambiguation pass: does the token sequence
//! starting here form a type (`A.B<C?, (int, D[])>[]`), a type-argument list, a tuple type?
//!
//! Scanners never modify tokens; on success they return where the construct ends and the
//! rewrites (`<` → generic `<`, `?` → nullable `?`, ...) that apply if the caller accepts
//! the reading. Every scan is bounded by a token budget, so the pass stays linear.

use crate::token::Token;

/// Tokens a single top-level scan may look at.
const BUDGET: u32 = 512;
/// Deepest nesting of type arguments / tuple types a scan follows.
const MAX_DEPTH: u32 = 32;

/// A successful scan: the index just after the construct, and the rewrites it implies.
#[derive(Debug, Default)]
pub struct Scan {
    pub end: usize,
    pub rewrites: Vec<(usize, Token)>,
}

/// A read-only view of the token kinds plus bracket matching.
pub struct Scanner<'a> {
    kinds: &'a [Token],
    matching: &'a [u32],
    budget: u32,
    rewrites: Vec<(usize, Token)>,
}

/// No matching bracket.
pub const NONE: u32 = u32::MAX;

impl<'a> Scanner<'a> {
    pub fn new(kinds: &'a [Token], matching: &'a [u32]) -> Scanner<'a> {
        Scanner { kinds, matching, budget: BUDGET, rewrites: Vec::new() }
    }

    fn kind(&self, i: usize) -> Option<Token> {
        self.kinds.get(i).copied()
    }

    fn spend(&mut self) -> Option<()> {
        self.budget = self.budget.checked_sub(1)?;
        Some(())
    }

    /// Scans a type starting at `i`.
    pub fn scan_type(mut self, i: usize) -> Option<Scan> {
        let end = self.ty(i, 0)?;
        Some(Scan { end, rewrites: self.rewrites })
    }

    /// Scans a type-argument (or type-parameter) list whose `<` is at `lt`; `end` is the
    /// index of the closing `>`.
    pub fn scan_type_args(mut self, lt: usize) -> Option<Scan> {
        let end = self.type_args(lt, 0)?;
        Some(Scan { end, rewrites: self.rewrites })
    }

    /// Scans a tuple type whose `(` is at `i`.
    pub fn scan_tuple_type(mut self, i: usize) -> Option<Scan> {
        let end = self.tuple(i, 0)?;
        Some(Scan { end, rewrites: self.rewrites })
    }

    fn ty(&mut self, i: usize, depth: u32) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.spend()?;
        let k = self.kind(i)?;
        let mut after = if matches!(k, Token::LParen | Token::LParenTupleType) {
            self.tuple(i, depth + 1)?
        } else if k.is_predefined_type() {
            i + 1
        } else {
            self.name(i, depth)?
        };
        loop {
            self.spend()?;
            match self.kind(after) {
                Some(Token::Question | Token::NullableQ) => {
                    self.rewrites.push((after, Token::NullableQ));
                    after += 1;
                }
                Some(Token::LBracket | Token::LBracketRank) if matches!(self.kind(after + 1), Some(Token::Comma | Token::RBracket)) => {
                    after = self.rank(after)?
                }
                _ => return Some(after),
            }
        }
    }

    /// `A`, `A.B<C>`, `global::A.B`.
    fn name(&mut self, i: usize, depth: u32) -> Option<usize> {
        let mut j = i;
        if matches!(self.kind(j), Some(Token::KwGlobal)) {
            if self.kind(j + 1) != Some(Token::ColonColon) {
                return None;
            }
            j += 2;
        }
        if self.kind(j) != Some(Token::Ident) {
            return None;
        }
        j += 1;
        loop {
            self.spend()?;
            if matches!(self.kind(j), Some(Token::Lt | Token::GenericLt)) {
                j = self.type_args(j, depth + 1)? + 1;
            }
            match (self.kind(j), self.kind(j + 1)) {
                (Some(Token::Dot | Token::ColonColon), Some(Token::Ident)) => j += 2,
                _ => return Some(j),
            }
        }
    }

    /// `[]`, `[,,]`: returns the index after `]`.
    fn rank(&mut self, open: usize) -> Option<usize> {
        let mut j = open + 1;
        while self.kind(j) == Some(Token::Comma) {
            self.spend()?;
            j += 1;
        }
        if self.kind(j) != Some(Token::RBracket) {
            return None;
        }
        self.rewrites.push((open, Token::LBracketRank));
        Some(j + 1)
    }

    /// `(T1 name1, T2 name2, ...)` with at least two elements.
    fn tuple(&mut self, open: usize, depth: u32) -> Option<usize> {
        let mut j = open + 1;
        let mut count = 0;
        loop {
            j = self.ty(j, depth + 1)?;
            if self.kind(j) == Some(Token::Ident) {
                j += 1;
            }
            count += 1;
            match self.kind(j)? {
                Token::Comma => j += 1,
                Token::RParen if count >= 2 => {
                    self.rewrites.push((open, Token::LParenTupleType));
                    return Some(j + 1);
                }
                _ => return None,
            }
        }
    }

    /// `<T, U>`, `<>`, `<,>`, `<in T, [A] out U>`: returns the index of `>`.
    fn type_args(&mut self, lt: usize, depth: u32) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut j = lt + 1;
        if matches!(self.kind(j), Some(Token::Gt | Token::GenericGt | Token::Comma)) {
            while self.kind(j) == Some(Token::Comma) {
                j += 1;
            }
            return self.close_args(lt, j);
        }
        loop {
            self.spend()?;
            if matches!(self.kind(j), Some(Token::LBracket | Token::LBracketAttr)) {
                let close = *self.matching.get(j)?;
                if close == NONE {
                    return None;
                }
                self.rewrites.push((j, Token::LBracketAttr));
                j = close as usize + 1;
            }
            if matches!(self.kind(j), Some(Token::In | Token::Out)) {
                j += 1;
            }
            j = self.ty(j, depth + 1)?;
            match self.kind(j)? {
                Token::Comma => j += 1,
                Token::Gt | Token::GenericGt => return self.close_args(lt, j),
                _ => return None,
            }
        }
    }

    fn close_args(&mut self, lt: usize, gt: usize) -> Option<usize> {
        if !matches!(self.kind(gt), Some(Token::Gt | Token::GenericGt)) {
            return None;
        }
        self.rewrites.push((lt, Token::GenericLt));
        self.rewrites.push((gt, Token::GenericGt));
        Some(gt)
    }
}

/// Pairs brackets: `result[i]` is the index of the bracket matching the one at `i`
/// (or [`NONE`]). A closer that does not match the innermost opener closes the nearest
/// opener of its kind, leaving the ones in between unmatched.
pub fn match_brackets(kinds: &[Token]) -> Vec<u32> {
    let mut result = vec![NONE; kinds.len()];
    let mut stack: Vec<(usize, u8)> = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        match bracket_class(*k) {
            Some((class, true)) => stack.push((i, class)),
            Some((class, false)) => {
                if let Some(pos) = stack.iter().rposition(|&(_, c)| c == class) {
                    let (open, _) = stack[pos];
                    stack.truncate(pos);
                    result[open] = i as u32;
                    result[i] = open as u32;
                }
            }
            None => {}
        }
    }
    result
}

/// (bracket class, is opener) for every bracket token kind.
fn bracket_class(k: Token) -> Option<(u8, bool)> {
    match k {
        k if k.is_lparen() => Some((0, true)),
        Token::RParen => Some((0, false)),
        k if k.is_lbracket() => Some((1, true)),
        Token::RBracket => Some((1, false)),
        Token::LBrace => Some((2, true)),
        Token::RBrace => Some((2, false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Token::*;

    fn scan_type(kinds: &[Token]) -> Option<usize> {
        let m = match_brackets(kinds);
        Scanner::new(kinds, &m).scan_type(0).map(|s| s.end)
    }

    #[test]
    fn types() {
        assert_eq!(scan_type(&[Ident, Lt, Int, Gt, Ident]), Some(4));
        assert_eq!(scan_type(&[Ident, Lt, Ident, Lt, Int, Gt, Gt, Semi]), Some(7));
        assert_eq!(scan_type(&[Int, Question, LBracket, RBracket, Ident]), Some(4));
        assert_eq!(scan_type(&[LParen, Int, Comma, String, Ident, RParen, Ident]), Some(6));
        assert_eq!(scan_type(&[LParen, Int, RParen]), None);
        assert_eq!(scan_type(&[Ident, Dot, Ident, Lt, Gt]), Some(5));
        assert_eq!(scan_type(&[Ident, Lt, Ident, Comma, Ident, Semi]), None);
    }

    #[test]
    fn type_args_and_rewrites() {
        let kinds = [Ident, Lt, Ident, Lt, Int, Question, Gt, Comma, Comma, Gt];
        let m = match_brackets(&kinds);
        assert!(Scanner::new(&kinds, &m).scan_type_args(1).is_none());
        let kinds = [Ident, Lt, Ident, Lt, Int, Question, Gt, Gt];
        let s = Scanner::new(&kinds, &m).scan_type_args(1).unwrap();
        assert_eq!(s.end, 7);
        assert!(s.rewrites.contains(&(5, NullableQ)));
        assert!(s.rewrites.contains(&(3, GenericLt)));
        assert!(s.rewrites.contains(&(6, GenericGt)));
    }

    #[test]
    fn brackets() {
        let m = match_brackets(&[LParen, LBracket, RParen, RBracket]);
        assert_eq!(m, vec![2, NONE, 0, NONE]);
    }
}
