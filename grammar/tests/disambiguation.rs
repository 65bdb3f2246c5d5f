//! The disambiguation pass, through the classic ambiguous cases of C#'s grammar.

mod common;
use common::*;
use grammar::ast::*;

// ---- `<` : type arguments or less-than --------------------------------------------------

#[test]
fn generic_call_vs_comparisons() {
    assert_eq!(expr("a < b > (c)"), "(call a<b> c)");
    assert_eq!(expr("F(G<A, B>(7))"), "(call F (call G<A, B> 7))");
    assert_eq!(expr("F(a < b, c > d)"), "(call F (< a b) (> c d))");
    assert_eq!(expr("a < b"), "(< a b)");
    assert_eq!(expr("i < n && j > m"), "(&& (< i n) (> j m))");
    assert_eq!(expr("x < y ? a : b"), "(? (< x y) a b)");
}

#[test]
fn generic_member_access_and_static_calls() {
    assert_eq!(expr("Foo<int>.Bar"), "(. Foo<int> Bar)");
    assert_eq!(expr("List<List<int>>.Empty"), "(. List<List<int>> Empty)");
    assert_eq!(expr("a.Make<T>()"), "(call (. a Make<T>))");
    assert_eq!(expr("Task.FromResult<int?>(null)"), "(call (. Task FromResult<int?>) null)");
    assert_eq!(expr("typeof(Dictionary<,>)"), "(typeof Dictionary<, >)");
    assert_eq!(expr("typeof(List<>)"), "(typeof List<>)");
}

#[test]
fn generic_types_in_declarations_and_patterns() {
    assert_eq!(expr("x is List<int> l"), "(is x (decl List<int> l))");
    assert_eq!(expr("x is List<int>"), "(is x List<int>)");
    let s = stmt("List<List<int>> x = new();");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "List<List<int>>");
    let s = stmt("Dictionary<string, (int, string)> map;");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "Dictionary<string, (int, string)>");
}

#[test]
fn shifts_are_reassembled_from_single_gt_tokens() {
    assert_eq!(expr("a >> b"), "(>> a b)");
    assert_eq!(expr("a >>> b"), "(>>> a b)");
    assert_eq!(stmt_expr("i >>= 2;"), "(>>= i 2)");
    assert_eq!(stmt_expr("i >>>= 2;"), "(>>>= i 2)");
    assert_eq!(expr("F<List<int>>(x) >> 1"), "(>> (call F<List<int>> x) 1)");
}

#[test]
fn separated_greater_thans_do_not_glue() {
    let (e, d) = grammar::parse_expression("a > > b");
    assert!(e.is_some() || !d.is_empty());
    assert!(!d.is_empty(), "`> >` is not a shift");
}

// ---- `(` : cast, parenthesized expression, lambda, tuple type ---------------------------

#[test]
fn casts_and_parentheses() {
    assert_eq!(expr("(T)x"), "(cast T x)");
    assert_eq!(expr("(a) - b"), "(- a b)");
    assert_eq!(expr("(int)-1"), "(cast int (u- 1))");
    assert_eq!(expr("(int)+x"), "(cast int (u+ x))");
    assert_eq!(expr("(x) => x"), "(lambda (x) x)");
    assert_eq!(expr("(a)(b)"), "(cast a b)");
    assert_eq!(expr("(List<int>)o"), "(cast List<int> o)");
    assert_eq!(expr("(int?)null"), "(cast int? null)");
    assert_eq!(expr("(T?)x"), "(cast T? x)");
    assert_eq!(expr("(object[])o"), "(cast object[] o)");
    assert_eq!(expr("(double)uint.MaxValue"), "(cast double (. uint MaxValue))");
    assert_eq!(expr("((int, int))o"), "(cast (int, int) o)");
    assert_eq!(expr("(a + b) * c"), "(* (+ a b) c)");
    assert_eq!(expr("(a.b)c"), "(cast a.b c)");
    assert_eq!(expr("(x)"), "x");
}

#[test]
fn lambda_parameter_lists() {
    assert_eq!(expr("() => 42"), "(lambda () 42)");
    assert_eq!(expr("(x, y) => x + y"), "(lambda (x y) (+ x y))");
    assert_eq!(expr("(int x, string y) => y"), "(lambda (int x string y) y)");
    assert_eq!(expr("(List<int> xs, int? n) => n"), "(lambda (List<int> xs int? n) n)");
    assert_eq!(expr("(_, _) => 0"), "(lambda (_ _) 0)");
    assert_eq!(expr("x => x"), "(lambda x x)");
    assert_eq!(expr("_ => 0"), "(lambda _ 0)");
    assert_eq!(expr("async () => await t"), "(lambda async () (await t))");
    assert_eq!(expr("async x => x"), "(lambda async x x)");
    assert_eq!(expr("static x => x"), "(lambda static x x)");
    assert_eq!(expr("static async () => 1"), "(lambda async static () 1)");
    assert_eq!(expr("[Pure] (int x) => x"), "(lambda (int x) x)");
    assert_eq!(expr("() => { }"), "(lambda () {0 stmts})");
}

#[test]
fn tuple_types_and_tuple_literals() {
    let s = stmt("(int, string) t = (1, \"a\");");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "(int, string)");
    assert_eq!(d.declarators[0].init.as_ref().map(sexp).unwrap(), "(tuple 1 \"a\")");
    assert_eq!(stmt_expr("(x, y) = (y, x);"), "(= (tuple x y) (tuple y x))");
    assert_eq!(stmt_expr("(int a, var b) = t;"), "(= (tuple (decl int a) (decl var b)) t)");
    assert_eq!(expr("(x: 1, y: 2)"), "(tuple x:1 y:2)");
}

// ---- `?` : nullable type or conditional -------------------------------------------------

#[test]
fn nullable_types_vs_conditionals() {
    assert_eq!(expr("a ? b : c"), "(? a b c)");
    assert_eq!(expr("x ? .5 : 1"), "(? x 0.5 1)");
    assert_eq!(expr("cond ? a?.b : c"), "(? cond (?. a b) c)");
    assert_eq!(expr("a?[i]"), "(?idx a i)");
    assert_eq!(expr("c ? [1] : [2]"), "(? c [1] [2])");
    assert_eq!(expr("x is int ? a : b"), "(? (is x (type int)) a b)");
    assert_eq!(expr("c ? f(x) : y"), "(? c (call f x) y)");
    let s = stmt("int? x = null;");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "int?");
    let s = stmt("string?[] names;");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "string?[]");
    let s = stmt("List<int?> xs;");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "List<int?>");
    let s = stmt("Pt?[] ps;");
    let StmtKind::LocalVar(d) = s.kind else { panic!() };
    assert_eq!(ty(&d.ty), "Pt?[]");
}

#[test]
fn nullable_array_creation() {
    assert_eq!(expr("new int?[0]"), "(newarr int? 1 0)");
    assert_eq!(expr("new Pt?[n, 2][]"), "(newarr Pt?[] 2 n 2)");
    assert_eq!(expr("new int?[] { 1 }"), "(newarr int? 1 [1])");
    assert_eq!(expr("c ? new int?[1] : null"), "(? c (newarr int? 1 1) null)");
}

#[test]
fn nullable_in_member_and_parameter_types() {
    let m = members("public string? Name { get; } string? M(int? a, List<string?>? b) => null;");
    let MemberDecl::Property(p) = &m[0] else { panic!() };
    assert_eq!(ty(&p.ty), "string?");
    let MemberDecl::Method(f) = &m[1] else { panic!() };
    assert_eq!(ty(&f.return_type), "string?");
    assert_eq!(ty(&f.params[0].ty), "int?");
    assert_eq!(ty(&f.params[1].ty), "List<string?>?");
}

// ---- `[` : attribute, rank, collection, index, index initializer -----------------------

#[test]
fn brackets() {
    assert_eq!(expr("new int[3]"), "(newarr int 1 3)");
    assert_eq!(expr("new int[] { 1, 2 }"), "(newarr int 1 [1, 2])");
    assert_eq!(expr("new[] { 1, 2 }"), "(newarr _ 1 [1, 2])");
    assert_eq!(expr("new int[2, 3]"), "(newarr int 2 2 3)");
    assert_eq!(expr("new int[3][]"), "(newarr int[] 1 3)");
    assert_eq!(expr("new int[][,] { }"), "(newarr int[,] 1 [])");
    assert_eq!(expr("[]"), "[]");
    assert_eq!(expr("[1, 2, ..xs]"), "[1 2 ..xs]");
    assert_eq!(expr("a[1..^1]"), "(idx a (.. 1 (^ 1)))");
    assert_eq!(expr("a[..]"), "(idx a (.. _ _))");
    assert_eq!(expr("new D { [\"a\"] = 1 }"), "(new D {[\"a\"]=1})");
    assert_eq!(expr("new L { [1, 2] }"), "(new L [[1 2]])");
    let t = type_decl("[Serializable] [A(1, B = 2), C] class X { }");
    assert_eq!(t.attributes.len(), 3);
}

// ---- contextual keywords ---------------------------------------------------------------

#[test]
fn contextual_keywords_stay_identifiers() {
    for name in [
        "var",
        "async",
        "await",
        "yield",
        "get",
        "set",
        "init",
        "value",
        "add",
        "remove",
        "partial",
        "where",
        "when",
        "nameof",
        "record",
        "global",
        "dynamic",
        "with",
        "and",
        "or",
        "not",
        "args",
        "file",
        "required",
        "scoped",
        "managed",
        "unmanaged",
        "notnull",
    ] {
        let src = format!("var {name} = 1; {name} = {name} + 1; F({name});");
        let out = grammar::parse(&src);
        assert!(out.diagnostics.is_empty(), "{name}: {:?}", out.diagnostics);
    }
    assert_eq!(expr("await + 1"), "(+ await 1)");
    assert_eq!(expr("nameof + 1"), "(+ nameof 1)");
}

#[test]
fn contextual_keywords_in_keyword_role() {
    assert_eq!(expr("await t"), "(await t)");
    assert_eq!(expr("await (a + b)"), "(await (+ a b))");
    assert_eq!(expr("nameof(x.y)"), "(nameof (. x y))");
    assert_eq!(expr("p with { X = 1 }"), "(with p {X=1})");
    assert_eq!(expr("x is not null and > 5"), "(is x (and (not null) (> 5)))");
    assert_eq!(expr("x is 1 or 2"), "(is x (or 1 2))");
    assert_eq!(expr("global::System.Console"), "(. (. global:: System) Console)");
    assert_eq!(expr("alias::Name.Member"), "(. (. alias:: Name) Member)");
    assert_eq!(stmt_expr("var (a, b) = t;"), "(= (decl var (a, b)) t)");
    let StmtKind::LocalVar(d) = stmt("var x = 1;").kind else { panic!() };
    assert_eq!(ty(&d.ty), "var");
    assert!(matches!(stmt("yield return 1;").kind, StmtKind::YieldReturn(_)));
    assert!(matches!(stmt("yield break;").kind, StmtKind::YieldBreak));
    let t = type_decl("public partial record Person(string Name);");
    assert_eq!(t.kind, TypeKind::Record);
    assert!(t.modifiers.has(Modifiers::PARTIAL));
    let t = type_decl("file record struct P(int X) where T : unmanaged;");
    assert_eq!(t.kind, TypeKind::RecordStruct);
    assert_eq!(t.constraints[0].constraints, vec![Constraint::Unmanaged]);
}

#[test]
fn when_guards() {
    assert_eq!(expr("x switch { string s when s.Length > 0 => s, _ => \"z\" }"), "(switch x [(decl string s) when (> (. s Length) 0) => s] [_ => \"z\"])");
    let s = stmt("try { } catch (E e) when (e.X) { }");
    let StmtKind::Try { catches, .. } = s.kind else { panic!() };
    assert!(catches[0].filter.is_some());
}

#[test]
fn async_modifier_vs_lambda() {
    let s = stmt("async Task F() { await Task.Yield(); }");
    let StmtKind::LocalFunction(f) = s.kind else { panic!("{:?}", s.kind) };
    assert!(f.modifiers.has(Modifiers::ASYNC));
    let m = members("public async Task<int> G() => 1;");
    let MemberDecl::Method(g) = &m[0] else { panic!() };
    assert!(g.modifiers.has(Modifiers::ASYNC));
}
