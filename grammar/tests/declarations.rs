//! Compilation units, namespaces, type declarations and members.

mod common;
use common::*;
use grammar::ast::*;

#[test]
fn using_directives_and_global_attributes() {
    let u = unit("global using System;\nusing static System.Math;\nusing A = X.Y<int>;\nusing System.Text;\n[assembly: Foo(1)]\n[module: Bar]\nclass C { }");
    assert_eq!(u.usings.len(), 4);
    assert!(u.usings[0].is_global);
    assert!(matches!(&u.usings[1].kind, UsingKind::Static(t) if ty(t) == "System.Math"));
    assert!(matches!(&u.usings[2].kind, UsingKind::Alias(a, t) if a.name == "A" && ty(t) == "X.Y<int>"));
    let UsingKind::Namespace(q) = &u.usings[3].kind else { panic!() };
    assert_eq!(q.parts.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["System", "Text"]);
    assert_eq!(u.attributes.len(), 2);
    assert_eq!(u.attributes[0].target.as_ref().unwrap().name, "assembly");
    assert_eq!(u.members.len(), 1);
}

#[test]
fn namespaces_block_and_file_scoped() {
    let u = unit("namespace A.B { using X; class C { } namespace D { struct S { } } }");
    let NamespaceMember::Namespace(n) = &u.members[0] else { panic!() };
    assert_eq!(n.name.parts.len(), 2);
    assert!(!n.file_scoped);
    assert_eq!(n.usings.len(), 1);
    assert_eq!(n.members.len(), 2);
    let u = unit("using System;\nnamespace A.B;\nusing X;\nclass C { }\nclass D { }");
    assert_eq!(u.usings.len(), 1);
    let NamespaceMember::Namespace(n) = &u.members[0] else { panic!() };
    assert!(n.file_scoped);
    assert_eq!(n.usings.len(), 1);
    assert_eq!(n.members.len(), 2);
}

#[test]
fn top_level_statements_then_types() {
    let u = unit("using System;\nConsole.WriteLine(args.Length);\nint F() => 1;\nawait T();\nreturn 0;\nclass C { }");
    assert_eq!(u.members.len(), 5);
    assert!(matches!(&u.members[1], NamespaceMember::Statement(Stmt { kind: StmtKind::LocalFunction(_), .. })));
    assert!(matches!(&u.members[4], NamespaceMember::Type(_)));
}

#[test]
fn type_kinds_and_headers() {
    let t = type_decl("public sealed class Circle<T> : Shape, IComparable<T> where T : class?, new() { }");
    assert_eq!((t.kind, t.name.name.as_str()), (TypeKind::Class, "Circle"));
    assert!(t.modifiers.has(Modifiers::PUBLIC) && t.modifiers.has(Modifiers::SEALED));
    assert_eq!(t.type_params.len(), 1);
    assert_eq!(t.bases.iter().map(ty).collect::<Vec<_>>(), ["Shape", "IComparable<T>"]);
    assert_eq!(t.constraints[0].constraints, vec![Constraint::Class { nullable: true }, Constraint::New]);

    let t = type_decl("interface I<in A, out B> { }");
    assert_eq!(t.kind, TypeKind::Interface);
    assert_eq!(t.type_params.iter().map(|p| p.variance).collect::<Vec<_>>(), [Variance::In, Variance::Out]);

    let t = type_decl("class C(int x) : B(x) { }");
    assert_eq!(t.primary_ctor.as_ref().unwrap().len(), 1);
    assert_eq!(t.base_args.as_ref().unwrap().len(), 1);

    let t = type_decl("record R(int X, string Y);");
    assert_eq!(t.kind, TypeKind::Record);
    assert_eq!(t.primary_ctor.as_ref().unwrap().len(), 2);
    let t = type_decl("record R(int X) : Base(X) { public int Z => X; }");
    assert_eq!(t.members.len(), 1);
    let t = type_decl("public readonly record struct P(int X);");
    assert_eq!(t.kind, TypeKind::RecordStruct);
    let t = type_decl("record class Q { }");
    assert_eq!(t.kind, TypeKind::Record);

    let t = type_decl("enum E : byte { A = 1, [X] B, C = A | B, }");
    assert_eq!(t.kind, TypeKind::Enum);
    assert_eq!(t.bases.iter().map(ty).collect::<Vec<_>>(), ["byte"]);
    assert_eq!(t.enum_members.len(), 3);
    assert_eq!(t.enum_members[1].attributes.len(), 1);
    assert!(t.enum_members[2].value.is_some());

    let t = type_decl("public delegate TResult Fn<in T, out TResult>(T arg) where T : struct;");
    assert_eq!(t.kind, TypeKind::Delegate);
    assert_eq!(ty(t.delegate_return.as_ref().unwrap()), "TResult");
    assert_eq!(t.primary_ctor.as_ref().unwrap()[0].name.name, "arg");

    let t = type_decl("struct S { class Nested<T> where T : unmanaged { } }");
    assert!(matches!(&t.members[0], MemberDecl::Type(n) if n.name.name == "Nested"));
}

#[test]
fn all_constraint_kinds() {
    let t = type_decl(
        "class C<A, B, D, E, F, G> where A : class where B : struct where D : unmanaged where E : notnull, IDisposable where F : default where G : Base<A>, new() { }",
    );
    let all: Vec<Vec<Constraint>> = t.constraints.iter().map(|c| c.constraints.clone()).collect();
    assert_eq!(all[0], vec![Constraint::Class { nullable: false }]);
    assert_eq!(all[1], vec![Constraint::Struct]);
    assert_eq!(all[2], vec![Constraint::Unmanaged]);
    assert_eq!(all[3][0], Constraint::NotNull);
    assert!(matches!(&all[3][1], Constraint::Type(t) if ty(t) == "IDisposable"));
    assert_eq!(all[4], vec![Constraint::Default]);
    assert_eq!(all[5][1], Constraint::New);
}

#[test]
fn fields_methods_properties() {
    let m = members(
        "public static readonly int A = 1, B; const double Pi = 3.14; private volatile int v; \
         public abstract void F(); extern static int N(int x); void G<T>(T t) where T : new() { } \
         int H() => 1; void IFoo.Bar() { } T IEnumerable<T>.Get<U>() => default;",
    );
    let MemberDecl::Field(f) = &m[0] else { panic!() };
    assert_eq!(f.declarators.len(), 2);
    assert!(f.modifiers.has(Modifiers::READONLY));
    let MemberDecl::Field(c) = &m[1] else { panic!() };
    assert!(c.modifiers.has(Modifiers::CONST));
    let MemberDecl::Method(f) = &m[3] else { panic!() };
    assert!(f.body.is_none());
    let MemberDecl::Method(n) = &m[4] else { panic!() };
    assert!(n.modifiers.has(Modifiers::EXTERN) && n.body.is_none());
    let MemberDecl::Method(g) = &m[5] else { panic!() };
    assert_eq!(g.type_params[0].name.name, "T");
    assert_eq!(g.constraints.len(), 1);
    let MemberDecl::Method(h) = &m[6] else { panic!() };
    assert!(matches!(h.body, Some(Body::Expr(_))));
    let MemberDecl::Method(b) = &m[7] else { panic!() };
    assert_eq!(ty(b.explicit_interface.as_ref().unwrap()), "IFoo");
    assert_eq!(b.name.name, "Bar");
    let MemberDecl::Method(x) = &m[8] else { panic!() };
    assert_eq!(ty(x.explicit_interface.as_ref().unwrap()), "IEnumerable<T>");
    assert_eq!(x.type_params[0].name.name, "U");
}

#[test]
fn properties_and_accessors() {
    let m = members(
        "int A { get; set; } int B { get; init; } int C { get; private set; } = 5; \
         int D { get { return 1; } set { _d = value; } } int E => 1; int F { get => 1; } \
         public required string G { get; set; } int IFoo.H { get; }",
    );
    let kinds = |i: usize| match &m[i] {
        MemberDecl::Property(p) => match &p.accessors {
            PropertyBody::Accessors(a) => a.iter().map(|a| a.kind).collect::<Vec<_>>(),
            PropertyBody::Expr(_) => vec![],
        },
        _ => panic!(),
    };
    assert_eq!(kinds(0), [AccessorKind::Get, AccessorKind::Set]);
    assert_eq!(kinds(1), [AccessorKind::Get, AccessorKind::Init]);
    let MemberDecl::Property(c) = &m[2] else { panic!() };
    assert!(c.initializer.is_some());
    let PropertyBody::Accessors(acc) = &c.accessors else { panic!() };
    assert!(acc[1].modifiers.has(Modifiers::PRIVATE));
    let MemberDecl::Property(e) = &m[4] else { panic!() };
    assert!(matches!(e.accessors, PropertyBody::Expr(_)));
    let MemberDecl::Property(g) = &m[6] else { panic!() };
    assert!(g.modifiers.has(Modifiers::REQUIRED));
    let MemberDecl::Property(h) = &m[7] else { panic!() };
    assert_eq!(ty(h.explicit_interface.as_ref().unwrap()), "IFoo");
}

#[test]
fn indexers_constructors_destructors() {
    let m = members(
        "public int this[int i] { get => i; set { } } int this[string k, int d = 0] => 0; \
         public C() : base(1) { } C(int x) : this() { } static C() { } ~C() { }",
    );
    let MemberDecl::Indexer(ix) = &m[0] else { panic!() };
    assert_eq!(ix.params.len(), 1);
    let MemberDecl::Indexer(ix2) = &m[1] else { panic!() };
    assert!(ix2.params[1].default.is_some());
    let MemberDecl::Constructor(c) = &m[2] else { panic!() };
    assert!(c.initializer.as_ref().unwrap().is_base);
    let MemberDecl::Constructor(c) = &m[3] else { panic!() };
    assert!(!c.initializer.as_ref().unwrap().is_base);
    let MemberDecl::Constructor(c) = &m[4] else { panic!() };
    assert!(c.modifiers.has(Modifiers::STATIC));
    assert!(matches!(&m[5], MemberDecl::Destructor(d) if d.name.name == "C"));
}

#[test]
fn operators() {
    let m = members(
        "public static C operator +(C a, C b) => a; public static C operator -(C a) => a; \
         public static C operator -(C a, C b) => a; public static bool operator ==(C a, C b) => true; \
         public static bool operator <(C a, C b) => true; public static bool operator >(C a, C b) => true; \
         public static C operator >>(C a, int n) => a; public static C operator ++(C a) => a; \
         public static bool operator true(C a) => true; public static bool operator false(C a) => false; \
         public static implicit operator int(C c) => 0; public static explicit operator C(int i) => null;",
    );
    let ops: Vec<OverloadableOp> = m
        .iter()
        .map(|m| match m {
            MemberDecl::Operator(o) => o.op,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        ops,
        [
            OverloadableOp::Binary(BinaryOp::Add),
            OverloadableOp::Unary(UnaryOp::Minus),
            OverloadableOp::Binary(BinaryOp::Sub),
            OverloadableOp::Binary(BinaryOp::Eq),
            OverloadableOp::Binary(BinaryOp::Lt),
            OverloadableOp::Binary(BinaryOp::Gt),
            OverloadableOp::Binary(BinaryOp::Shr),
            OverloadableOp::Increment,
            OverloadableOp::True,
            OverloadableOp::False,
            OverloadableOp::Implicit,
            OverloadableOp::Explicit,
        ]
    );
}

#[test]
fn events() {
    let m = members("public event EventHandler A, B; event Action C { add { } remove { } }");
    let MemberDecl::Event(a) = &m[0] else { panic!() };
    assert_eq!(a.declarators.len(), 2);
    assert!(a.accessors.is_none());
    let MemberDecl::Event(c) = &m[1] else { panic!() };
    let kinds: Vec<_> = c.accessors.as_ref().unwrap().iter().map(|a| a.kind).collect();
    assert_eq!(kinds, [AccessorKind::Add, AccessorKind::Remove]);
}

#[test]
fn parameters_and_attributes_everywhere() {
    let m = members(
        "[A] [return: NotNull] [B(1, Name = \"x\", p: 2)] public void M<[T1] T>([In] ref int a, out int b, in int c, \
         params int[] d, ref readonly int e, int f = 5) { } \
         public static void Ext(this string s) { } int P { [G] get; [S] set; }",
    );
    let MemberDecl::Method(f) = &m[0] else { panic!() };
    assert_eq!(f.attributes.len(), 3);
    assert_eq!(f.attributes[1].target.as_ref().unwrap().name, "return");
    let args = &f.attributes[2].args;
    assert_eq!(args.len(), 3);
    assert_eq!(args[1].name.as_ref().unwrap().name, "Name");
    assert_eq!(f.type_params[0].attributes.len(), 1);
    let mods: Vec<_> = f.params.iter().map(|p| p.modifier).collect();
    assert_eq!(mods, [ParamModifier::Ref, ParamModifier::Out, ParamModifier::In, ParamModifier::Params, ParamModifier::RefReadonly, ParamModifier::None]);
    assert_eq!(f.params[0].attributes.len(), 1);
    assert!(f.params[5].default.is_some());
    let MemberDecl::Method(e) = &m[1] else { panic!() };
    assert_eq!(e.params[0].modifier, ParamModifier::This);
    let MemberDecl::Property(p) = &m[2] else { panic!() };
    let PropertyBody::Accessors(acc) = &p.accessors else { panic!() };
    assert_eq!(acc[0].attributes.len(), 1);
}

#[test]
fn all_modifiers() {
    let m = members(
        "public private protected internal static readonly const virtual override abstract sealed async new extern \
         partial volatile unsafe required file ref int X;",
    );
    let MemberDecl::Field(f) = &m[0] else { panic!() };
    assert_eq!(f.modifiers.bits.count_ones(), 20);
}

#[test]
fn tuple_and_array_member_types() {
    let m = members("(int, string name) Pair() => default; int[][,] Jag; (int, int)[] Pairs;");
    let MemberDecl::Method(p) = &m[0] else { panic!() };
    assert_eq!(ty(&p.return_type), "(int, string name)");
    let MemberDecl::Field(j) = &m[1] else { panic!() };
    assert_eq!(ty(&j.ty), "int[,][]");
    let TypeSyntaxKind::Array(elem, rank) = &j.ty.kind else { panic!() };
    assert_eq!((ty(elem), *rank), ("int[,]".to_string(), 1));
    let MemberDecl::Field(ps) = &m[2] else { panic!() };
    assert_eq!(ty(&ps.ty), "(int, int)[]");
}

#[test]
fn dynamic_nint_and_var_types() {
    let m = members("dynamic d; nint n; nuint u; var v;");
    let t: Vec<_> = m
        .iter()
        .map(|m| match m {
            MemberDecl::Field(f) => f.ty.kind.clone(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(t[0], TypeSyntaxKind::Predefined(PredefinedType::Dynamic));
    assert_eq!(t[1], TypeSyntaxKind::Predefined(PredefinedType::NInt));
    assert_eq!(t[2], TypeSyntaxKind::Predefined(PredefinedType::NUInt));
    assert!(matches!(&t[3], TypeSyntaxKind::Named(s) if s[0].name.name == "var"));
}
