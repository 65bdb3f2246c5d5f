//! `tokenize`: highlighting classes for the REPL, comments included, contextual keywords
//! classified by role.

use grammar::token::TokenClass::String as Str;
use grammar::token::TokenClass::{self, Char, Comment, Error, Identifier, Keyword, Number, Punctuation};

fn classes(src: &str) -> Vec<(String, TokenClass)> {
    grammar::tokenize(src).into_iter().map(|(span, class)| (src[span.start as usize..span.end as usize].to_string(), class)).collect()
}

#[test]
fn every_class() {
    let got = classes("var s = $\"a{x}\"; // note\nint n = 0x1F + 'c' @ /* b */");
    let want: Vec<(String, TokenClass)> = [
        ("var", Identifier),
        ("s", Identifier),
        ("=", Punctuation),
        ("$\"a{x}\"", Str),
        (";", Punctuation),
        ("// note", Comment),
        ("int", Keyword),
        ("n", Identifier),
        ("=", Punctuation),
        ("0x1F", Number),
        ("+", Punctuation),
        ("'c'", Char),
        ("@", Error),
        ("/* b */", Comment),
    ]
    .iter()
    .map(|(t, c)| (t.to_string(), *c))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn contextual_keywords_by_role() {
    let got = classes("async Task F() { await x; var await = 1; yield return 2; }");
    let class_of = |text: &str, nth: usize| got.iter().filter(|(t, _)| t == text).nth(nth).map(|(_, c)| *c);
    assert_eq!(class_of("async", 0), Some(Keyword));
    assert_eq!(class_of("await", 0), Some(Keyword));
    assert_eq!(class_of("await", 1), Some(Identifier));
    assert_eq!(class_of("yield", 0), Some(Keyword));
    assert_eq!(class_of("var", 0), Some(Identifier));
}

#[test]
fn preprocessor_lines_and_unterminated_literals() {
    let got = classes("#region A\nx\n\"open");
    assert_eq!(got[0], ("#region A".to_string(), Comment));
    assert_eq!(got[2], ("\"open".to_string(), Str));
}
