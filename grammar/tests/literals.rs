//! Lexical edge cases through the public API: every literal kind, escapes, raw and
//! interpolated strings, comments and preprocessor lines.

mod common;
use common::*;
use grammar::ast::*;

fn lit(src: &str) -> Literal {
    let (e, d) = grammar::parse_expression(src);
    assert!(d.is_empty(), "{src}: {d:?}");
    match e.unwrap().kind {
        ExprKind::Literal(l) => l,
        other => panic!("{src}: {other:?}"),
    }
}

fn string(src: &str) -> String {
    match lit(src) {
        Literal::String(s) => s,
        other => panic!("{src}: {other:?}"),
    }
}

fn diag_codes(src: &str) -> Vec<&'static str> {
    grammar::parse_expression(src).1.iter().map(|d| d.code).collect()
}

#[test]
fn integers() {
    let int = |v| Literal::Int { value: v, suffix: IntSuffix::None };
    assert_eq!(lit("1_000_000"), int(1_000_000));
    assert_eq!(lit("0xFF"), int(255));
    assert_eq!(lit("0b1010"), int(10));
    assert_eq!(lit("0"), int(0));
    for (src, suffix) in [
        ("1u", IntSuffix::U),
        ("1U", IntSuffix::U),
        ("1l", IntSuffix::L),
        ("1L", IntSuffix::L),
        ("1ul", IntSuffix::UL),
        ("1UL", IntSuffix::UL),
        ("1lu", IntSuffix::UL),
        ("1LU", IntSuffix::UL),
        ("1Ul", IntSuffix::UL),
    ] {
        assert_eq!(lit(src), Literal::Int { value: 1, suffix }, "{src}");
    }
    assert_eq!(lit("18446744073709551615"), int(u64::MAX));
}

#[test]
fn integer_too_large_is_cs1021() {
    let (_, d) = grammar::parse_expression("18446744073709551616");
    assert_eq!(d[0].code, "CS1021");
    assert_eq!(d[0].message, "Integral constant is too large");
    assert_eq!((d[0].span.start, d[0].span.end), (0, 20));
}

#[test]
fn reals() {
    let real = |v, s| Literal::Real { value: v, suffix: s };
    assert_eq!(lit("1.5"), real(1.5, RealSuffix::None));
    assert_eq!(lit(".5"), real(0.5, RealSuffix::None));
    assert_eq!(lit("1e10"), real(1e10, RealSuffix::None));
    assert_eq!(lit("1.5e-3"), real(1.5e-3, RealSuffix::None));
    assert_eq!(lit("1E+2"), real(100.0, RealSuffix::None));
    assert_eq!(lit("2f"), real(2.0, RealSuffix::F));
    assert_eq!(lit("2.5F"), real(2.5, RealSuffix::F));
    assert_eq!(lit("3d"), real(3.0, RealSuffix::D));
    assert_eq!(lit("1.5m"), Literal::Decimal("1.5".into()));
    assert_eq!(lit("10M"), Literal::Decimal("10".into()));
    assert_eq!(lit("1_0.0_1"), real(10.01, RealSuffix::None));
    assert_eq!(expr("1..2"), "(.. 1 2)");
    assert_eq!(expr("1.ToString()"), "(call (. 1 ToString))");
}

#[test]
fn chars_and_escapes() {
    let ch = |c: char| Literal::Char(c as u16);
    assert_eq!(lit("'a'"), ch('a'));
    for (src, c) in [
        (r"'\''", '\''),
        (r#"'\"'"#, '"'),
        (r"'\\'", '\\'),
        (r"'\0'", '\0'),
        (r"'\a'", '\u{7}'),
        (r"'\b'", '\u{8}'),
        (r"'\f'", '\u{c}'),
        (r"'\n'", '\n'),
        (r"'\r'", '\r'),
        (r"'\t'", '\t'),
        (r"'\v'", '\u{b}'),
        (r"'\u0041'", 'A'),
        (r"'\x41'", 'A'),
        (r"'\x0041'", 'A'),
        ("'中'", '中'),
    ] {
        assert_eq!(lit(src), ch(c), "{src}");
    }
    assert_eq!(string(r#""\ud83d\ude00""#), "😀");
    assert_eq!(string(r#""\U0001F600""#), "😀");
}

#[test]
fn char_errors() {
    assert_eq!(diag_codes("''"), ["CS1011"]);
    assert_eq!(grammar::parse_expression("''").1[0].message, "Empty character literal");
    assert_eq!(diag_codes("'ab'"), ["CS1012"]);
    assert_eq!(grammar::parse_expression("'ab'").1[0].message, "Too many characters in character literal");
    assert_eq!(diag_codes("'😀'"), ["CS1012"]);
    assert_eq!(diag_codes(r"'\q'"), ["CS1009"]);
}

#[test]
fn regular_verbatim_and_raw_strings() {
    assert_eq!(string(r#""a\tb\\c\"d""#), "a\tb\\c\"d");
    assert_eq!(string("@\"a\"\"b\nc\\d\""), "a\"b\nc\\d");
    assert_eq!(string(r#""""a "quoted" b""""#), r#"a "quoted" b"#);
    assert_eq!(string("\"\"\"\n    first\n      indented\n\n    last\n    \"\"\""), "first\n  indented\n\nlast");
    assert_eq!(string("\"\"\"\"\n  has \"\"\" inside\n  \"\"\"\""), "has \"\"\" inside");
    assert_eq!(string("\"\""), "");
}

#[test]
fn string_errors() {
    let d = grammar::parse("var s = \"abc\ndef\";").diagnostics;
    assert_eq!(d[0].code, "CS1010");
    assert_eq!(d[0].message, "Newline in constant");
    let d = grammar::parse("var s = \"abc").diagnostics;
    assert_eq!(d[0].code, "CS1039");
    assert_eq!(d[0].message, "Unterminated string literal");
    assert!(grammar::parse("var s = \"abc").incomplete);
    let d = grammar::parse(r#"var s = "a\qb";"#).diagnostics;
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), ["CS1009"]);
    assert_eq!(d[0].message, "Unrecognized escape sequence");
    assert_eq!((d[0].span.start, d[0].span.end), (10, 12));
    assert_eq!(codes("var s = \"\"\"\n  a\n b\n  \"\"\";"), ["CS8999"]);
    assert_eq!(codes("var s = @\"open"), ["CS1039"]);
}

#[test]
fn interpolated_strings() {
    assert_eq!(expr(r#"$"a{x}b{{c}}""#), r#"(interp "a" {x} "b{c}")"#);
    assert_eq!(expr(r#"$"{x,5}|{x,-5:F2}|{y:yyyy-MM-dd HH:mm}""#), r#"(interp {x,5} "|" {x,(u- 5):F2} "|" {y:yyyy-MM-dd HH:mm})"#);
    assert_eq!(expr(r#"$"{(a ? "x" : "y")}""#), r#"(interp {(? a "x" "y")})"#);
    assert_eq!(expr(r#"$"{f(a, b)}{d["k"]}""#), r#"(interp {(call f a b)} {(idx d "k")})"#);
    assert_eq!(expr(r#"$"outer {$"inner {x}"}""#), r#"(interp "outer " {(interp "inner " {x})})"#);
    assert_eq!(expr(r#"$"{((Func<int>)(() => 1))()}""#), r#"(interp {(call (cast Func<int> (lambda () 1)))})"#);
    assert_eq!(expr(r#"$@"{x}\n""#), r#"(interp {x} "\\n")"#);
    assert_eq!(expr(r#"@$"a""{x}""#), r#"(interp "a\"" {x})"#);
    assert_eq!(expr(r#"$"""{x} "quoted" """"#), r#"(interp {x} " \"quoted\" ")"#);
    assert_eq!(expr("$$\"\"\"{\"a\": {{x}}}\"\"\""), r#"(interp "{\"a\": " {x} "}")"#);
    assert_eq!(expr("$\"\"\"\n    a {x}\n      b\n    \"\"\""), r#"(interp "a " {x} "\n  b")"#);
    assert_eq!(expr(r#"$"{a}{b}""#), "(interp {a} {b})");
    assert_eq!(expr(r#"$"""#), "(interp)");
    assert_eq!(expr(r#"$"{x}\t""#), r#"(interp {x} "\t")"#);
}

#[test]
fn interpolation_hole_spans_are_absolute() {
    let (e, _) = grammar::parse_expression(r#"  $"ab{x + y,3:F1}""#);
    let ExprKind::Interpolated(parts) = e.unwrap().kind else { panic!() };
    let InterpolationPart::Hole { expr, alignment, span, .. } = &parts[1] else { panic!() };
    assert_eq!((expr.span.start, expr.span.end), (7, 12));
    assert_eq!((alignment.as_ref().unwrap().span.start), 13);
    assert_eq!((span.start, span.end), (6, 18));
}

#[test]
fn interpolation_errors() {
    assert_eq!(diag_codes(r#"$"{}""#), ["CS1733"]);
    assert_eq!(diag_codes(r#"$"{x +}""#), ["CS1733"]);
    assert!(!diag_codes(r#"$"{x"#).is_empty());
    assert_eq!(diag_codes(r#"$"a}b""#), ["CS8086"]);
}

#[test]
fn comments_and_preprocessor_lines() {
    let src = "#!/usr/bin/env cs\n#nullable enable\n#region R\n/// doc\n// line\n/* block\n * more */\n#pragma warning disable CS0168\nint x = 1; // trailing\n#endregion\n";
    assert_eq!(stmts(src).len(), 1);
    assert_eq!(codes("int x = 1; /* open"), ["CS1035"]);
    assert!(grammar::parse("int x = 1; /* open").incomplete);
    // As Roslyn: a `#` after code is a misplaced directive that takes the rest of its line.
    assert_eq!(codes("int x = 1; # 2"), ["CS1040"]);
    let src = "#define A\nint x = 1;\n#if A && !B\nint y = 2;\n#else\nthis is skipped !@\n#endif\n";
    assert_eq!(stmts(src).len(), 2);
    let d = grammar::parse("int x = `1;").diagnostics;
    assert_eq!(d[0].message, "Unexpected character '`'");
}

#[test]
fn verbatim_identifiers() {
    assert_eq!(expr("@class + @int"), "(+ class int)");
}
