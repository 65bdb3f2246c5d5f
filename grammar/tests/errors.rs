//! Syntax errors: C#'s codes and wording, Roslyn's positions, recovery without cascades.

mod common;
use common::*;

/// `(code, message, line, column)` of every diagnostic, 1-based like `FILE(line,col)`.
fn located(src: &str) -> Vec<(&'static str, String, u32, u32)> {
    let file = grammar::span::SourceFile::new("t.cs", src.to_string());
    grammar::parse(src)
        .diagnostics
        .into_iter()
        .map(|d| {
            let lc = file.line_col(d.span.start);
            (d.code, d.message, lc.line, lc.col)
        })
        .collect()
}

fn one(src: &str) -> (&'static str, String, u32, u32) {
    let mut v = located(src);
    assert_eq!(v.len(), 1, "{src}: {v:?}");
    v.remove(0)
}

#[test]
fn missing_semicolon_is_one_error_at_the_end_of_the_previous_token() {
    assert_eq!(one("int x = 5\nint y = 6;"), ("CS1002", "; expected".into(), 1, 10));
    assert_eq!(diags("int x = 5\nint y = 6;")[0].2, 9);
    assert_eq!(diags("int x = 5\nint y = 6;")[0].3, 9, "an empty span right after `5`");
    assert_eq!(one("class C {\n  void F() {\n    Console.WriteLine(\"x\")\n  }\n}\n"), ("CS1002", "; expected".into(), 3, 27));
    assert_eq!(one("void F() { int a = 1; int b = 2 }"), ("CS1002", "; expected".into(), 1, 33));
    assert_eq!(one("a = b c = d;").0, "CS1002");
    assert_eq!(one("class C {\n  int x\n  void F() { }\n}").0, "CS1002");
}

#[test]
fn same_line_errors_point_at_the_unexpected_token() {
    let d = diags("int x = 5 int y = 6;");
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].2, d[0].3), (10, 13));
}

#[test]
fn three_separate_errors_give_three_diagnostics() {
    let src = "class C\n{\n    void F()\n    {\n        int a = 1\n        a++;\n        Foo(1, 2;\n        var b = ;\n    }\n}\n";
    let v = located(src);
    assert_eq!(
        v,
        vec![
            ("CS1002", "; expected".to_string(), 5, 18),
            ("CS1026", ") expected".to_string(), 7, 17),
            ("CS1525", "Invalid expression term ';'".to_string(), 8, 17),
        ]
    );
    let top = "int a = 1\nFoo(1, 2;\nvar b = ;\n";
    assert_eq!(codes(top), ["CS1002", "CS1026", "CS1525"]);
}

#[test]
fn closing_tokens() {
    assert_eq!(one("if (a > 0 {\n}").0, "CS1026");
    assert_eq!(one("x = a[1;"), ("CS1003", "Syntax error, ']' expected".into(), 1, 8));
    assert_eq!(one("F(a b);"), ("CS1003", "Syntax error, ',' expected".into(), 1, 5));
    assert_eq!(one("int[] a = new int[] { 1 2 };").1, "Syntax error, ',' expected");
    assert_eq!(one("class C { void F( { } }").0, "CS1026");
    assert_eq!(one("switch (x) { case 1 break; }"), ("CS1003", "Syntax error, ':' expected".into(), 1, 21));
    assert_eq!(one("var s = x switch { 1 \"a\" };").1, "Syntax error, '=>' expected");
    assert_eq!(one("var v = c ? a b;").1, "Syntax error, ':' expected");
    assert_eq!(one("for (int i = 0 i < n; i++) { }").0, "CS1002");
}

#[test]
fn braces() {
    let v = located("class C {\n  void F() {\n");
    assert_eq!(v, vec![("CS1513", "} expected".into(), 2, 13), ("CS1513", "} expected".into(), 2, 13)]);
    assert_eq!(one("class C { }\n}\n"), ("CS1022", "Type or namespace definition, or end-of-file expected".into(), 2, 1));
    assert_eq!(one("namespace N { class C { } } }").0, "CS1022");
    assert_eq!(located("class C void F() { } }")[0], ("CS1514", "{ expected".into(), 1, 9));
}

#[test]
fn identifiers_and_types() {
    assert_eq!(one("class { }"), ("CS1001", "Identifier expected".into(), 1, 7));
    assert_eq!(one("x.;").0, "CS1001");
    assert_eq!(one("int = 5;").0, "CS1001");
    assert_eq!(one("var t = typeof();"), ("CS1031", "Type expected".into(), 1, 16));
    assert_eq!(one("var a = new int[][3];"), ("CS0178", "Invalid rank specifier: expected ',' or ']'".into(), 1, 19));
}

#[test]
fn expression_terms() {
    assert_eq!(one("var b = ;"), ("CS1525", "Invalid expression term ';'".into(), 1, 9));
    assert_eq!(one("F(1, );").1, "Invalid expression term ')'");
    assert_eq!(one("x = 1 + * 2;").1, "Invalid expression term '*'");
    assert_eq!(one("var x = 1 +\n"), ("CS1733", "Expected expression".into(), 1, 12));
}

#[test]
fn member_level_errors() {
    assert_eq!(one("class C { 5 }"), ("CS1519", "Invalid token '5' in class, record, struct, or interface member declaration".into(), 1, 11));
    assert_eq!(one("class C { x = 5; }").1, "Invalid token '=' in class, record, struct, or interface member declaration");
    assert_eq!(one("class C { public void M() { } public }").0, "CS1519");
    assert_eq!(one("namespace N { int x; }").0, "CS0116");
    let v = located("class C {\n  int x = ;\n  void F() { }\n  int y\n  int z = 1 +;\n}\n");
    assert_eq!(v.iter().map(|d| d.0).collect::<Vec<_>>(), ["CS1525", "CS1002", "CS1525"]);
}

#[test]
fn recovery_inside_accessor_lists_and_initializers() {
    assert_eq!(one("class C {\n  public int X { get set; }\n}\n"), ("CS1002", "; expected".into(), 2, 22));
    assert_eq!(one("class C {\n  void F() {\n    var x = new List<int> { 1, 2;\n  }\n}\n"), ("CS1513", "} expected".into(), 3, 33));
}

#[test]
fn recovery_keeps_the_rest_of_the_file() {
    let out = grammar::parse("class A { void F() { x = ; } }\nclass B { void G() { } }\n");
    assert_eq!(out.diagnostics.len(), 1);
    assert_eq!(out.unit.members.len(), 2);
    let out = grammar::parse("class A { int x = ; void F() { } }");
    let grammar::ast::NamespaceMember::Type(t) = &out.unit.members[0] else { panic!() };
    assert!(t.members.iter().any(|m| matches!(m, grammar::ast::MemberDecl::Method(_))));
    let out = grammar::parse("x = ;\ny = 2;\n");
    assert_eq!(out.diagnostics.len(), 1);
    assert!(matches!(out.unit.members.last(), Some(grammar::ast::NamespaceMember::Statement(s))
        if matches!(s.kind, grammar::ast::StmtKind::Expr(_))));
}

#[test]
fn incomplete_input_for_the_repl() {
    for src in ["Console.WriteLine(", "if (x) {", "var s = \"abc", "/* comment", "class C {", "var x = 1 +", "foo(1,"] {
        assert!(grammar::parse(src).incomplete, "{src}");
    }
    for src in ["Console.WriteLine(1);", "x = ;", "class C { }", "var s = \"a\nb;", "}"] {
        assert!(!grammar::parse(src).incomplete, "{src}");
    }
}

#[test]
fn lexer_errors_do_not_cascade() {
    assert_eq!(codes("int x = 1 ` 2;"), ["CS1056"]);
    // Roslyn: a `#` after code on its line is still a directive (the rest of the line), misplaced.
    assert_eq!(codes("int x = 1; # 2"), ["CS1040"]);
    assert_eq!(codes("var s = \"abc"), ["CS1039"]);
    assert_eq!(codes("var c = 'ab';"), ["CS1012"]);
    assert_eq!(codes("var c = '';"), ["CS1011"]);
}

#[test]
fn never_panics_on_weird_inputs() {
    for src in [
        "",
        "}",
        ")",
        "]",
        "{",
        "(",
        "[",
        "<",
        ">",
        ">>",
        "?",
        "??",
        "=>",
        "$\"{",
        "$\"{{",
        "@",
        "'",
        "\"\"\"",
        "#",
        "\\",
        "\u{0}",
        "\u{FEFF}",
        "a<",
        "a<b",
        "(a",
        "new",
        "x is",
        "case",
        "default:",
        "class",
        "namespace",
        "using",
        "[assembly:",
        "delegate",
        "var (",
        "x switch {",
        "$\"{$\"{$\"{",
        "//",
        "/*",
        "#!",
        "a..",
        "..",
        "^",
        "yield",
        "await",
        "record R(",
        "operator",
        "this[",
        "~",
        "::",
    ] {
        let _ = grammar::parse(src);
        let _ = grammar::parse_expression(src);
        let _ = grammar::tokenize(src);
    }
}
