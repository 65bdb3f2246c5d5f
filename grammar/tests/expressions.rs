//! Expressions: C#'s precedence and associativity, and every expression form.

mod common;
use common::*;

#[test]
fn arithmetic_precedence_and_left_associativity() {
    assert_eq!(expr("1 + 2 * 3"), "(+ 1 (* 2 3))");
    assert_eq!(expr("1 - 2 - 3"), "(- (- 1 2) 3)");
    assert_eq!(expr("a / b % c * d"), "(* (% (/ a b) c) d)");
    assert_eq!(expr("a << 1 + 2"), "(<< a (+ 1 2))");
    assert_eq!(expr("a < b << c"), "(< a (<< b c))");
    assert_eq!(expr("a == b < c"), "(== a (< b c))");
    assert_eq!(expr("a & b == c"), "(& a (== b c))");
    assert_eq!(expr("a ^ b & c"), "(^ a (& b c))");
    assert_eq!(expr("a | b ^ c"), "(| a (^ b c))");
    assert_eq!(expr("a && b | c"), "(&& a (| b c))");
    assert_eq!(expr("a || b && c"), "(|| a (&& b c))");
    assert_eq!(expr("a ?? b || c"), "(?? a (|| b c))");
}

#[test]
fn right_associative_operators() {
    assert_eq!(expr("a ?? b ?? c"), "(?? a (?? b c))");
    assert_eq!(expr("a ? b : c ? d : e"), "(? a b (? c d e))");
    assert_eq!(expr("a = b = c"), "(= a (= b c))");
    assert_eq!(expr("a += b -= c"), "(+= a (-= b c))");
    assert_eq!(expr("a ??= b ?? c"), "(??= a (?? b c))");
    assert_eq!(expr("x = c ? a : b"), "(= x (? c a b))");
}

#[test]
fn compound_assignments() {
    for (src, op) in [
        ("a += 1", "+="),
        ("a -= 1", "-="),
        ("a *= 1", "*="),
        ("a /= 1", "/="),
        ("a %= 1", "%="),
        ("a &= 1", "&="),
        ("a |= 1", "|="),
        ("a ^= 1", "^="),
        ("a <<= 1", "<<="),
        ("a >>= 1", ">>="),
        ("a >>>= 1", ">>>="),
        ("a ??= 1", "??="),
    ] {
        assert_eq!(expr(src), format!("({op} a 1)"));
    }
}

#[test]
fn unary_and_postfix() {
    assert_eq!(expr("-a * b"), "(* (u- a) b)");
    assert_eq!(expr("!a && b"), "(&& (! a) b)");
    assert_eq!(expr("~a"), "(~ a)");
    assert_eq!(expr("++a + b--"), "(+ (pre++ a) (post-- b))");
    assert_eq!(expr("--a"), "(pre-- a)");
    assert_eq!(expr("a++"), "(post++ a)");
    assert_eq!(expr("x!.y"), "(. (nf x) y)");
    assert_eq!(expr("^1"), "(^ 1)");
    assert_eq!(expr("-(int)x"), "(u- (cast int x))");
    assert_eq!(expr("await a + b"), "(+ (await a) b)");
    assert_eq!(expr("await a.b()"), "(await (call (. a b)))");
    assert_eq!(expr("default!"), "(nf default)");
}

#[test]
fn ranges() {
    assert_eq!(expr("a..b"), "(.. a b)");
    assert_eq!(expr("..b"), "(.. _ b)");
    assert_eq!(expr("a.."), "(.. a _)");
    assert_eq!(expr(".."), "(.. _ _)");
    assert_eq!(expr("^2..^1"), "(.. (^ 2) (^ 1))");
    assert_eq!(expr("x[..^1]"), "(idx x (.. _ (^ 1)))");
}

#[test]
fn switch_and_with_bind_tighter_than_multiplication() {
    assert_eq!(expr("a * b switch { _ => 1 }"), "(* a (switch b [_ => 1]))");
    assert_eq!(expr("p with { X = 1 } with { Y = 2 }"), "(with (with p {X=1}) {Y=2})");
    assert_eq!(
        expr("x switch { 1 => \"a\", > 5 and < 10 => \"b\", string s when s.Length > 0 => s, _ => \"z\" }"),
        "(switch x [1 => \"a\"] [(and (> 5) (< 10)) => \"b\"] [(decl string s) when (> (. s Length) 0) => s] [_ => \"z\"])"
    );
    assert_eq!(expr("x switch { _ => throw new E() }"), "(switch x [_ => (throw (new E))])");
}

#[test]
fn is_and_as() {
    assert_eq!(expr("a is B && c"), "(&& (is a B) c)");
    assert_eq!(expr("a as B ?? c"), "(?? (as a B) c)");
    assert_eq!(expr("a is null"), "(is a null)");
    assert_eq!(expr("a is not string"), "(is a (not (type string)))");
    assert_eq!(expr("a is not Foo"), "(is a (not Foo))");
    assert_eq!(expr("o is int i && i > 0"), "(&& (is o (decl int i)) (> i 0))");
    assert_eq!(expr("o is var v"), "(is o (var v))");
    assert_eq!(expr("o is (1, _)"), "(is o (rec (1 _)))");
    assert_eq!(expr("o is Point(1, var y) p"), "(is o (rec Point (1 (var y)) p))");
    assert_eq!(expr("o is { Length: > 0 } s"), "(is o (rec {Length:(> 0)} s))");
    assert_eq!(expr("o is Outer { In.Deep: 1 }"), "(is o (rec Outer {In.Deep:1}))");
    assert_eq!(expr("a is [1, .., var last]"), "(is a [1 (..) (var last)])");
    assert_eq!(expr("a is [.. var rest]"), "(is a [(.. (var rest))])");
    assert_eq!(expr("c is (>= 'a' and <= 'z') or '_'"), "(is c (or (and (>= 'a') (<= 'z')) '_'))");
    assert_eq!(expr("o is int[]"), "(is o (type int[]))");
    assert_eq!(expr("o is var (a, b)"), "(is o (var (a, b)))");
    assert_eq!(expr("x is Color.Red"), "(is x (. Color Red))");
    assert_eq!(expr("x is -1"), "(is x (u- 1))");
}

#[test]
fn primary_expressions() {
    assert_eq!(expr("this.x"), "(. this x)");
    assert_eq!(expr("base.F()"), "(call (. base F))");
    assert_eq!(expr("a?.b.c"), "(. (?. a b) c)");
    assert_eq!(expr("f(x: 1, ref y, out var z, out int w, out _, in q)"), "(call f x:1 ref y out (decl var z) out (decl int w) out _ in q)");
    assert_eq!(expr("a[1, 2]"), "(idx a 1 2)");
    assert_eq!(expr("int.Parse(s)"), "(call (. int Parse) s)");
    assert_eq!(expr("string.Join(\",\", xs)"), "(call (. string Join) \",\" xs)");
    assert_eq!(expr("typeof(int)"), "(typeof int)");
    assert_eq!(expr("default(T)"), "(default T)");
    assert_eq!(expr("default"), "default");
    assert_eq!(expr("sizeof(int)"), "(sizeof int)");
    assert_eq!(expr("checked(a + b)"), "(checked (+ a b))");
    assert_eq!(expr("unchecked(a + b)"), "(unchecked (+ a b))");
    assert_eq!(expr("nameof(List<int>)"), "(nameof List<int>)");
    assert_eq!(expr("x ?? throw new E()"), "(?? x (throw (new E)))");
    assert_eq!(expr("c ? throw new E() : 1"), "(? c (throw (new E)) 1)");
    assert_eq!(expr("(1, \"a\")"), "(tuple 1 \"a\")");
    assert_eq!(expr("delegate (int x) { return x; }"), "(delegate (int x) {1 stmts})");
    assert_eq!(expr("delegate { }"), "(delegate  {0 stmts})");
}

#[test]
fn object_creation() {
    assert_eq!(expr("new T(1) { A = 1, [k] = v, B = { 1, 2 } }"), "(new T 1 {A=1, [k]=v, B=[1, 2]})");
    assert_eq!(expr("new List<int> { 1, 2 }"), "(new List<int> [1, 2])");
    assert_eq!(expr("new Dictionary<string, int> { { \"b\", 2 } }"), "(new Dictionary<string, int> [{\"b\" 2}])");
    assert_eq!(expr("new Dictionary<string,int> { [\"a\"] = 1 }"), "(new Dictionary<string, int> {[\"a\"]=1})");
    assert_eq!(expr("new()"), "(new _)");
    assert_eq!(expr("new(1) { X = 2 }"), "(new _ 1 {X=2})");
    assert_eq!(expr("new { A = 1, b, c.D }"), "(anon A=1 b (. c D))");
    assert_eq!(expr("new int[,] { { 1, 2 }, { 3, 4 } }"), "(newarr int 2 [{1 2}, {3 4}])");
    assert_eq!(expr("new string('a', 3)"), "(new string 'a' 3)");
    assert_eq!(expr("new Foo { Bar = new() { X = 1 } }"), "(new Foo {Bar=(new _ {X=1})})");
}

#[test]
fn mixed_initializers_are_cs0747() {
    let (_, d) = grammar::parse_expression("new Dictionary<string,int> { [\"a\"] = 1, { \"b\", 2 } }");
    assert_eq!(d.iter().map(|d| d.code).collect::<Vec<_>>(), vec!["CS0747"]);
}

#[test]
fn lambdas_bind_loosest() {
    assert_eq!(expr("x => x + 1"), "(lambda x (+ x 1))");
    assert_eq!(expr("x => y => x + y"), "(lambda x (lambda y (+ x y)))");
    assert_eq!(expr("f(x => x, 2)"), "(call f (lambda x x) 2)");
    assert_eq!(expr("a = x => x"), "(= a (lambda x x))");
    assert_eq!(expr("c ? x => 1 : x => 2"), "(? c (lambda x 1) (lambda x 2))");
    assert_eq!(expr("async x => await x"), "(lambda async x (await x))");
}

#[test]
fn collection_expressions() {
    assert_eq!(expr("[1, 2, ..xs]"), "[1 2 ..xs]");
    assert_eq!(expr("[]"), "[]");
    assert_eq!(expr("[..a, ..b]"), "[..a ..b]");
    assert_eq!(expr("f([1], [])"), "(call f [1] [])");
}

#[test]
fn spans_are_byte_offsets() {
    let (e, _) = grammar::parse_expression("  a + bc");
    let e = e.unwrap();
    assert_eq!((e.span.start, e.span.end), (2, 8));
    let grammar::ast::ExprKind::Binary { right, .. } = &e.kind else { panic!() };
    assert_eq!((right.span.start, right.span.end), (6, 8));
}

#[test]
fn query_expressions_become_method_calls() {
    assert_eq!(expr("from x in xs select x"), "(call (. xs Select) (lambda x x))");
    assert_eq!(
        expr("from n in ns where n % 2 == 0 orderby n descending select n * 10"),
        "(call (. (call (. (call (. ns Where) (lambda n (== (% n 2) 0))) OrderByDescending) (lambda n n)) Select) (lambda n (* n 10)))"
    );
    assert_eq!(
        expr("from w in words orderby w.Length, w select w"),
        "(call (. (call (. (call (. words OrderBy) (lambda w (. w Length))) ThenBy) (lambda w w)) Select) (lambda w w))"
    );
    assert_eq!(
        expr("from x in a from y in b where x < y select x + y"),
        "(call (. (call (. (call (. a SelectMany) (lambda x b) (lambda (x y) (anon x=x y=y))) Where) (lambda __q1 (< (. __q1 x) (. __q1 y)))) Select) (lambda __q2 (+ (. __q2 x) (. __q2 y))))"
    );
    assert_eq!(
        expr("from w in ws let n = w.Length select n"),
        "(call (. (call (. ws Select) (lambda w (anon w=w n=(. w Length)))) Select) (lambda __q1 (. __q1 n)))"
    );
    assert_eq!(expr("from w in ws group w by w.Length"), "(call (. ws GroupBy) (lambda w (. w Length)))");
    assert_eq!(
        expr("from w in ws group w.Name by w.Age into g select g.Key"),
        "(call (. (call (. ws GroupBy) (lambda w (. w Age)) (lambda w (. w Name))) Select) (lambda g (. g Key)))"
    );
    assert_eq!(
        expr("from o in os join p in ps on o.Id equals p.Owner select p"),
        "(call (. (call (. os Join) ps (lambda o (. o Id)) (lambda p (. p Owner)) (lambda (o p) (anon o=o p=p))) Select) (lambda __q1 (. __q1 p)))"
    );
    assert_eq!(
        expr("from o in os join p in ps on o.Id equals p.Owner into g select g"),
        "(call (. (call (. os GroupJoin) ps (lambda o (. o Id)) (lambda p (. p Owner)) (lambda (o g) (anon o=o g=g))) Select) (lambda __q1 (. __q1 g)))"
    );
    assert_eq!(expr("from int x in xs select x"), "(call (. (call (. xs Cast<int>)) Select) (lambda x x))");
    assert_eq!(
        expr("from x in a from y in b select ys.Where(x => x > y)"),
        "(call (. (call (. a SelectMany) (lambda x b) (lambda (x y) (anon x=x y=y))) Select) (lambda __q1 (call (. ys Where) (lambda x (> x (. __q1 y))))))"
    );
}

#[test]
fn query_keywords_are_identifiers_outside_queries() {
    assert_eq!(
        expr("from + select + where + orderby + group + by + into + let + join + on + equals"),
        "(+ (+ (+ (+ (+ (+ (+ (+ (+ (+ from select) where) orderby) group) by) into) let) join) on) equals)"
    );
    assert_eq!(expr("f(from x in xs select x, 1)"), "(call f (call (. xs Select) (lambda x x)) 1)");
}
