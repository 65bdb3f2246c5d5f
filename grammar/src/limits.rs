//! A guard against input nested so deeply that building (or dropping) the tree would
//! overflow the stack: `((((…))))`, `- - - - x`, a 100 000-term `a + b + …`.
//!
//! It estimates the tree depth from the tokens (open brackets plus chained operators on
//! the current path) and reports C#'s CS8078 instead of parsing such input.

use crate::lexer::Lexeme;
use crate::span::Span;
use crate::token::Token;

/// The deepest tree the parser agrees to build.
const MAX_NESTING: u32 = 6000;

/// The span of the token where the estimated nesting exceeds the limit, if any.
pub fn too_deep(tokens: &[Lexeme]) -> Option<Span> {
    // Per open bracket: operators chained at that level since the last `,` / `;`.
    let mut chains: Vec<u32> = vec![0];
    let mut total: u32 = 0;
    for t in tokens {
        let k = t.kind;
        if k.is_lparen() || k.is_lbracket() || k == Token::LBrace {
            chains.push(0);
            total += 1;
        } else if matches!(k, Token::RParen | Token::RBracket | Token::RBrace) {
            if chains.len() > 1 {
                total -= 1 + chains.pop().unwrap_or(0);
            }
        } else if matches!(k, Token::Comma | Token::Semi) {
            if let Some(c) = chains.last_mut() {
                total -= *c;
                *c = 0;
            }
        } else if chains_tree(k) {
            if let Some(c) = chains.last_mut() {
                *c += 1;
                total += 1;
            }
        }
        if total > MAX_NESTING {
            return Some(t.span);
        }
    }
    None
}

/// Tokens that add a level to the tree when chained: operators, member access, `else`.
fn chains_tree(k: Token) -> bool {
    use Token::*;
    k.class() == crate::token::TokenClass::Punctuation || matches!(k, Else | Is | As | Switch | KwAwait | KwWith)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str) -> bool {
        let l = crate::lexer::lex(src, 0, src.len());
        too_deep(&l.tokens).is_some()
    }

    #[test]
    fn flat_lists_are_fine_deep_chains_are_not() {
        let list = format!("int[] a = {{ {} }};", "1, ".repeat(20_000));
        assert!(!check(&list));
        assert!(check(&format!("x = 1{};", " + 1".repeat(7000))));
        assert!(check(&format!("x = {}1;", "- ".repeat(7000))));
        assert!(check(&"(".repeat(7000)));
        assert!(!check(&format!("x = 1{};", " + 1".repeat(3000))));
    }
}
