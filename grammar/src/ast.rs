//! The syntax tree of cs-lite: what the parser produces and the compiler consumes.
//!
//! The tree is purely syntactic: names are unresolved identifiers, `var` is an ordinary
//! type name, and every node carries the byte [`Span`] of its source text. Nothing here
//! knows about types, symbols or bytecode.

use bincode::{Decode, Encode};

use crate::span::Span;

/// The first segment of a `global::` name: it names the global namespace, and no identifier
/// can spell it.
pub const GLOBAL_QUALIFIER: &str = "global::";

/// An identifier as written (contextual keywords used as names included).
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A whole source file.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct CompilationUnit {
    pub usings: Vec<UsingDirective>,
    /// Assembly- or module-level attributes (`[assembly: ...]`); parsed and ignored.
    pub attributes: Vec<Attribute>,
    pub members: Vec<NamespaceMember>,
}

/// `using X.Y;`, `using static X.Y;`, `using A = X.Y;` (optionally `global using`).
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct UsingDirective {
    pub is_global: bool,
    pub kind: UsingKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum UsingKind {
    Namespace(QualifiedName),
    Static(TypeSyntax),
    Alias(Ident, TypeSyntax),
}

/// A dotted name such as `System.Threading.Tasks`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct QualifiedName {
    pub parts: Vec<Ident>,
    pub span: Span,
}

/// What may appear at the top of a file or inside a namespace.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum NamespaceMember {
    Namespace(NamespaceDecl),
    Type(TypeDecl),
    /// A top-level statement (C# 9). Only valid in the compilation unit itself.
    Statement(Stmt),
}

/// `namespace A.B { ... }` or the file-scoped `namespace A.B;` (then `members` holds the rest
/// of the file).
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct NamespaceDecl {
    pub name: QualifiedName,
    pub file_scoped: bool,
    pub usings: Vec<UsingDirective>,
    pub members: Vec<NamespaceMember>,
    pub span: Span,
}

/// `[Name(args, Named = value)]`; one entry per attribute, sections are flattened.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Attribute {
    /// `assembly`, `return`, `method`... when written as `[target: ...]`.
    pub target: Option<Ident>,
    pub name: TypeSyntax,
    pub args: Vec<AttributeArg>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct AttributeArg {
    /// `Name = value` (property/field) or `name: value` (named parameter).
    pub name: Option<Ident>,
    pub value: Expr,
    pub span: Span,
}

/// Declaration modifiers, as written (validation is the compiler's job).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Encode, Decode)]
pub struct Modifiers {
    pub bits: u32,
    /// Span of the modifier list (empty at the declaration start when there are none).
    pub span: Span,
}

impl Modifiers {
    pub const PUBLIC: u32 = 1 << 0;
    pub const PRIVATE: u32 = 1 << 1;
    pub const PROTECTED: u32 = 1 << 2;
    pub const INTERNAL: u32 = 1 << 3;
    pub const STATIC: u32 = 1 << 4;
    pub const READONLY: u32 = 1 << 5;
    pub const CONST: u32 = 1 << 6;
    pub const VIRTUAL: u32 = 1 << 7;
    pub const OVERRIDE: u32 = 1 << 8;
    pub const ABSTRACT: u32 = 1 << 9;
    pub const SEALED: u32 = 1 << 10;
    pub const ASYNC: u32 = 1 << 11;
    pub const NEW: u32 = 1 << 12;
    pub const EXTERN: u32 = 1 << 13;
    pub const PARTIAL: u32 = 1 << 14;
    pub const VOLATILE: u32 = 1 << 15;
    pub const UNSAFE: u32 = 1 << 16;
    pub const REQUIRED: u32 = 1 << 17;
    pub const FILE: u32 = 1 << 18;
    pub const REF: u32 = 1 << 19;

    pub fn has(&self, bit: u32) -> bool {
        self.bits & bit != 0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum TypeKind {
    Class,
    Struct,
    Interface,
    Enum,
    /// `record` / `record class`.
    Record,
    /// `record struct`.
    RecordStruct,
    Delegate,
}

/// A class, struct, interface, enum, record or delegate declaration.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct TypeDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub kind: TypeKind,
    pub name: Ident,
    pub type_params: Vec<TypeParam>,
    /// `class P(int x)` / `record R(int X)`: the primary constructor's parameters.
    pub primary_ctor: Option<Vec<Param>>,
    /// Base class and interfaces, in written order. For an enum: its underlying type.
    pub bases: Vec<TypeSyntax>,
    /// `record R(int X) : Base(X)` / `class C(int x) : Base(x)`: arguments to the base ctor.
    pub base_args: Option<Vec<Arg>>,
    pub constraints: Vec<TypeParamConstraint>,
    pub members: Vec<MemberDecl>,
    /// Only for enums.
    pub enum_members: Vec<EnumMember>,
    /// Only for delegates: the return type (the parameters are in `primary_ctor`).
    pub delegate_return: Option<TypeSyntax>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct TypeParam {
    pub attributes: Vec<Attribute>,
    /// `in` / `out` variance, interfaces and delegates only.
    pub variance: Variance,
    pub name: Ident,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum Variance {
    None,
    In,
    Out,
}

/// `where T : class, IComparable<T>, new()`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct TypeParamConstraint {
    pub param: Ident,
    pub constraints: Vec<Constraint>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum Constraint {
    Class { nullable: bool },
    Struct,
    Unmanaged,
    NotNull,
    New,
    Default,
    Type(TypeSyntax),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct EnumMember {
    pub attributes: Vec<Attribute>,
    pub name: Ident,
    pub value: Option<Expr>,
    pub span: Span,
}

/// A member of a class, struct, interface or record.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum MemberDecl {
    Field(FieldDecl),
    Method(MethodDecl),
    Property(PropertyDecl),
    Indexer(IndexerDecl),
    Constructor(ConstructorDecl),
    /// `~C() { }`: parsed, never run (there is no finalizer thread).
    Destructor(ConstructorDecl),
    Operator(OperatorDecl),
    Event(EventDecl),
    Type(TypeDecl),
    /// A member the parser could not make sense of (already reported).
    Error(Span),
}

/// `int a = 1, b;` (also `const` and `event`-less fields). `const` is a modifier bit.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct FieldDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub ty: TypeSyntax,
    pub declarators: Vec<VarDeclarator>,
    pub span: Span,
}

/// `name` or `name = initializer` in a field or local declaration.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct VarDeclarator {
    pub name: Ident,
    pub init: Option<Expr>,
    pub span: Span,
}

/// A method, or a local function (then `modifiers` holds `static`/`async` only).
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct MethodDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub return_type: TypeSyntax,
    /// `IFoo.Bar` explicit interface implementation: the interface part.
    pub explicit_interface: Option<TypeSyntax>,
    pub name: Ident,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Param>,
    pub constraints: Vec<TypeParamConstraint>,
    /// `None` for abstract, interface and `extern` methods (`;` body).
    pub body: Option<Body>,
    pub span: Span,
}

/// A block body or an expression body (`=> expr;`).
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum Body {
    Block(Block),
    Expr(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum ParamModifier {
    None,
    Ref,
    Out,
    In,
    Params,
    /// `this` on the first parameter of an extension method.
    This,
    /// `ref readonly`.
    RefReadonly,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Param {
    pub attributes: Vec<Attribute>,
    pub modifier: ParamModifier,
    pub ty: TypeSyntax,
    pub name: Ident,
    pub default: Option<Expr>,
    pub span: Span,
}

/// `T Name { get; set; } = init;` or `T Name => expr;`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct PropertyDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub ty: TypeSyntax,
    pub explicit_interface: Option<TypeSyntax>,
    pub name: Ident,
    pub accessors: PropertyBody,
    pub initializer: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum PropertyBody {
    /// `{ get; set; }` with or without bodies.
    Accessors(Vec<Accessor>),
    /// `=> expr;` (a get-only property).
    Expr(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum AccessorKind {
    Get,
    Set,
    Init,
    Add,
    Remove,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Accessor {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub kind: AccessorKind,
    /// `None` for `get;` (auto-property / abstract accessor).
    pub body: Option<Body>,
    pub span: Span,
}

/// `T this[int i] { get ... set ... }`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct IndexerDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub ty: TypeSyntax,
    pub explicit_interface: Option<TypeSyntax>,
    pub params: Vec<Param>,
    pub accessors: PropertyBody,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct ConstructorDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub name: Ident,
    pub params: Vec<Param>,
    pub initializer: Option<ConstructorInitializer>,
    pub body: Option<Body>,
    pub span: Span,
}

/// `: base(args)` or `: this(args)`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct ConstructorInitializer {
    pub is_base: bool,
    pub args: Vec<Arg>,
    pub span: Span,
}

/// `public static T operator +(T a, T b)`; also `implicit operator` / `explicit operator`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct OperatorDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub return_type: TypeSyntax,
    pub op: OverloadableOp,
    pub params: Vec<Param>,
    pub body: Option<Body>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum OverloadableOp {
    Unary(UnaryOp),
    Binary(BinaryOp),
    True,
    False,
    Increment,
    Decrement,
    Implicit,
    Explicit,
}

/// `event Action E;` (field-like) or `event Action E { add {..} remove {..} }`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct EventDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub ty: TypeSyntax,
    /// `event H IFoo.Changed { add ... remove ... }`: the interface implemented explicitly.
    pub explicit_interface: Option<TypeSyntax>,
    pub declarators: Vec<VarDeclarator>,
    pub accessors: Option<Vec<Accessor>>,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct TypeSyntax {
    pub kind: TypeSyntaxKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum TypeSyntaxKind {
    /// `int`, `string`, `object`, `void`...
    Predefined(PredefinedType),
    /// `A.B<C>.D`, `global::X`, `var` (as the single segment `var`).
    /// An omitted type argument (`typeof(List<>)`, `typeof(Dictionary<,>)`) is a `Named`
    /// type with no segments.
    Named(Vec<NameSegment>),
    /// `T[]`, `T[,]` (rank = number of dimensions).
    Array(Box<TypeSyntax>, u32),
    /// `T?` (nullable value type or annotated reference type).
    Nullable(Box<TypeSyntax>),
    /// `(int, string name)`.
    Tuple(Vec<TupleTypeElement>),
}

/// One segment of a named type: an identifier with optional type arguments.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct NameSegment {
    pub name: Ident,
    pub type_args: Vec<TypeSyntax>,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct TupleTypeElement {
    pub ty: TypeSyntax,
    pub name: Option<Ident>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Encode, Decode)]
pub enum PredefinedType {
    Bool,
    Byte,
    SByte,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Char,
    Float,
    Double,
    Decimal,
    String,
    Object,
    Void,
    /// `nint` (parsed; treated as long).
    NInt,
    /// `nuint`.
    NUInt,
    /// `dynamic` (parsed; rejected by the compiler).
    Dynamic,
}

// ---------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum StmtKind {
    Block(Block),
    /// `;`
    Empty,
    /// An expression statement (`f();`, `x = 1;`, `i++;`, `await t;`).
    Expr(Expr),
    /// `int a = 1, b;`, `var x = ...;`, `const int K = 3;`, `using var r = ...;`.
    LocalVar(LocalVarDecl),
    /// `var (a, b) = expr;` / `(int a, var b) = expr;` are `Expr` statements with a
    /// `Deconstruction` target; this variant is not used for them.
    LocalFunction(Box<MethodDecl>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: ForInit,
        cond: Option<Expr>,
        update: Vec<Expr>,
        body: Box<Stmt>,
    },
    Foreach {
        is_await: bool,
        /// `var`/a type with a single name, or a deconstruction `var (a, b)`.
        target: ForeachTarget,
        collection: Expr,
        body: Box<Stmt>,
    },
    Switch {
        expr: Expr,
        sections: Vec<SwitchSection>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    /// `throw expr;` or the rethrow `throw;`.
    Throw(Option<Expr>),
    Goto(GotoTarget),
    Labeled {
        label: Ident,
        stmt: Box<Stmt>,
    },
    Try {
        block: Block,
        catches: Vec<CatchClause>,
        finally: Option<Block>,
    },
    /// `using (resource) body`, `await using (resource) body`.
    Using {
        is_await: bool,
        resource: UsingResource,
        body: Box<Stmt>,
    },
    Lock {
        expr: Expr,
        body: Box<Stmt>,
    },
    YieldReturn(Expr),
    YieldBreak,
    /// `checked { }` (true) / `unchecked { }` (false).
    Checked(bool, Block),
    /// A statement the parser could not make sense of (already reported).
    Error,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct LocalVarDecl {
    pub is_const: bool,
    /// `using var x = ...;`
    pub is_using: bool,
    /// `await using var x = ...;`
    pub is_await: bool,
    /// `ref int x = ref ...;` (parsed; the compiler may reject it).
    pub is_ref: bool,
    pub ty: TypeSyntax,
    pub declarators: Vec<VarDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum ForInit {
    None,
    Decl(LocalVarDecl),
    Exprs(Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum ForeachTarget {
    Single {
        ty: TypeSyntax,
        name: Ident,
    },
    /// `var (a, b)` or `(int a, string b)`.
    Deconstruction(Expr),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct SwitchSection {
    pub labels: Vec<SwitchLabel>,
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum SwitchLabel {
    /// `case pattern when guard:` (a constant `case 1:` is a constant pattern).
    Case {
        pattern: Pattern,
        guard: Option<Expr>,
        span: Span,
    },
    Default(Span),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum GotoTarget {
    Label(Ident),
    Case(Expr),
    Default,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct CatchClause {
    /// `catch` alone has neither; `catch (T)` has only the type.
    pub ty: Option<TypeSyntax>,
    pub name: Option<Ident>,
    pub filter: Option<Expr>,
    pub block: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum UsingResource {
    Decl(LocalVarDecl),
    Expr(Expr),
}

// ---------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum ExprKind {
    Literal(Literal),
    /// `$"..."`, `$@"..."`, `$"""..."""`: text and holes in order.
    Interpolated(Vec<InterpolationPart>),
    /// A simple name, possibly generic: `x`, `List<int>` (in expression position), `Foo<T>`.
    Name(NameSegment),
    /// `int`, `string`... used as an expression (`int.Parse`, `string.Join`).
    PredefinedType(PredefinedType),
    /// `a.b`, `a?.b`, `a.b<T>`.
    Member {
        target: Box<Expr>,
        name: NameSegment,
        conditional: bool,
    },
    /// `a[i]`, `a?[i]`.
    Index {
        target: Box<Expr>,
        args: Vec<Arg>,
        conditional: bool,
    },
    /// `f(args)`.
    Call {
        target: Box<Expr>,
        args: Vec<Arg>,
    },
    /// `new T(args) { init }`, `new(args)` (target-typed: `ty` is `None`).
    New {
        ty: Option<TypeSyntax>,
        args: Vec<Arg>,
        init: Option<Initializer>,
    },
    /// `new T[n]`, `new T[] { .. }`, `new[] { .. }`, `new T[n, m]`.
    NewArray {
        elem: Option<TypeSyntax>,
        /// Explicit sizes (`new int[3]`); empty when only an initializer is given.
        sizes: Vec<Expr>,
        /// Number of dimensions when no sizes are given (`new int[,] {..}` = 2).
        rank: u32,
        init: Option<Vec<Expr>>,
    },
    /// `new { A = 1, b }` (anonymous object).
    NewAnonymous(Vec<AnonymousMember>),
    /// `stackalloc T[n]`, `stackalloc T[] { .. }`, `stackalloc[] { .. }`: the array it
    /// allocates (a `NewArray`), which becomes a `Span<T>` (cs-lite has no stack memory).
    StackAlloc(Box<Expr>),
    /// `[1, 2, ..rest]` (collection expression).
    Collection(Vec<CollectionElement>),
    /// `{ a, b }` nested inside an array or collection initializer.
    InitializerList(Vec<Expr>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    /// `x++`, `x--`, `x!` (null-forgiving).
    Postfix {
        op: PostfixOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `a = b`, `a += b`, `a ??= b` (`op` is `None` for plain assignment).
    Assign {
        op: Option<BinaryOp>,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    Conditional {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Cast {
        ty: TypeSyntax,
        expr: Box<Expr>,
    },
    /// `e is pattern` (includes `e is T`, `e is T x`, `e is null`, `e is not null`).
    Is {
        expr: Box<Expr>,
        pattern: Box<Pattern>,
    },
    As {
        expr: Box<Expr>,
        ty: TypeSyntax,
    },
    Lambda(Box<Lambda>),
    /// `delegate (int x) { ... }`.
    AnonymousMethod(Box<Lambda>),
    Await(Box<Expr>),
    Typeof(TypeSyntax),
    /// `nameof(x.y)`.
    Nameof(Box<Expr>),
    Sizeof(TypeSyntax),
    /// `default(T)` or the `default` literal (`None`).
    Default(Option<TypeSyntax>),
    /// `checked(e)` (true) / `unchecked(e)` (false).
    Checked(bool, Box<Expr>),
    /// `throw e` as an expression (`x ?? throw ...`).
    Throw(Box<Expr>),
    /// `e switch { pattern when guard => value, ... }`.
    Switch {
        expr: Box<Expr>,
        arms: Vec<SwitchArm>,
    },
    /// `(a, b)`, `(x: 1, y: 2)`.
    Tuple(Vec<Arg>),
    /// `var x` / `int x` / `var (a, b)` / `(int a, var b)` as an expression (`out var x`,
    /// deconstruction targets).
    Declaration {
        ty: TypeSyntax,
        designation: Designation,
    },
    /// `(a, b) = ...` handled as `Assign` with a `Tuple` target; `with` expressions:
    With {
        expr: Box<Expr>,
        init: Vec<MemberInit>,
    },
    This,
    Base,
    /// `^1` (index from end).
    IndexFromEnd(Box<Expr>),
    /// `a..b` (either side optional).
    Range(Option<Box<Expr>>, Option<Box<Expr>>),
    /// Pointers and other unsupported syntax land here after reporting.
    Error,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum Literal {
    /// Integer literal value and its suffix (`u`, `l`, `ul`).
    Int {
        value: u64,
        suffix: IntSuffix,
    },
    /// Real literal: `1.5`, `1e3`, `2f`, `3d`.
    Real {
        value: f64,
        suffix: RealSuffix,
    },
    /// `1.5m`: the literal's text without suffix (the compiler parses it exactly).
    Decimal(String),
    /// A UTF-16 code unit.
    Char(u16),
    String(String),
    Bool(bool),
    Null,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum IntSuffix {
    None,
    U,
    L,
    UL,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum RealSuffix {
    None,
    F,
    D,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum InterpolationPart {
    Text(String),
    Hole {
        expr: Expr,
        /// `{x,5}` / `{x,-5}`.
        alignment: Option<Expr>,
        /// `{x:F2}`: the format string after the colon, verbatim.
        format: Option<String>,
        span: Span,
    },
}

/// An argument: `expr`, `name: expr`, `ref x`, `out var y`.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Arg {
    pub name: Option<Ident>,
    pub modifier: ArgModifier,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum ArgModifier {
    None,
    Ref,
    Out,
    In,
}

/// `{ A = 1, B = { ... } }` (object) or `{ 1, 2, { k, v } }` (collection) initializer.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum Initializer {
    Object(Vec<MemberInit>),
    Collection(Vec<Expr>),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct MemberInit {
    pub target: InitTarget,
    pub value: InitValue,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum InitTarget {
    /// `Name = ...`
    Member(Ident),
    /// `[key] = ...`
    Index(Vec<Arg>),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum InitValue {
    Expr(Expr),
    /// `Prop = { ... }`: initialise the existing object/collection in the member.
    Nested(Initializer),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct AnonymousMember {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum CollectionElement {
    Expr(Expr),
    /// `..expr`
    Spread(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum UnaryOp {
    Plus,
    Minus,
    Not,
    BitNot,
    PreIncrement,
    PreDecrement,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum PostfixOp {
    Increment,
    Decrement,
    /// `x!`
    NullForgiving,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Encode, Decode)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    /// `>>>`
    UShr,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    /// `??`
    Coalesce,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Lambda {
    pub is_async: bool,
    pub is_static: bool,
    pub params: Vec<LambdaParam>,
    /// Set when the parameter list was written with parentheses (`(x) => ..`, `() => ..`).
    pub parenthesized: bool,
    pub body: Body,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct LambdaParam {
    pub modifier: ParamModifier,
    /// Explicit type (`(int x) => ..`), `None` for implicitly typed parameters.
    pub ty: Option<TypeSyntax>,
    /// `_` is a discard when every parameter is named `_` (C# 9).
    pub name: Ident,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct SwitchArm {
    pub pattern: Pattern,
    pub guard: Option<Expr>,
    pub value: Expr,
    pub span: Span,
}

/// The variable part of a declaration expression or pattern.
#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum Designation {
    Single(Ident),
    /// `_`
    Discard(Span),
    /// `(a, b)`
    Parenthesized(Vec<Designation>, Span),
}

// ---------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct Pattern {
    pub kind: PatternKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub enum PatternKind {
    /// `_`
    Discard,
    /// `var x` / `var (a, b)`.
    Var(Designation),
    /// `T x` (declaration pattern).
    Declaration {
        ty: TypeSyntax,
        name: Designation,
    },
    /// `T` (type pattern). The parser may produce `Constant(Name)` for a bare identifier
    /// that is really a type; the compiler decides.
    Type(TypeSyntax),
    /// `1`, `"a"`, `null`, `Color.Red`.
    Constant(Expr),
    /// `< 5`, `>= 'a'`.
    Relational {
        op: BinaryOp,
        value: Expr,
    },
    Not(Box<Pattern>),
    And(Box<Pattern>, Box<Pattern>),
    Or(Box<Pattern>, Box<Pattern>),
    /// `T { A: p, B.C: q } x` / `{ Length: > 0 }` / `T(p1, p2) x` (positional).
    Recursive {
        ty: Option<TypeSyntax>,
        positional: Option<Vec<SubPattern>>,
        properties: Option<Vec<SubPattern>>,
        designation: Option<Designation>,
    },
    /// `[1, .., var last]` (list pattern).
    List(Vec<Pattern>),
    /// `..` inside a list pattern (optionally `.. var rest`).
    Slice(Option<Box<Pattern>>),
}

#[derive(Clone, Debug, PartialEq, Encode, Decode)]
pub struct SubPattern {
    /// `Name:` / `A.B:` (extended property pattern); `None` for positional elements.
    pub name: Option<Vec<Ident>>,
    pub pattern: Pattern,
    pub span: Span,
}
