//! AST construction for the grammar's actions: the parse context ([`Ctx`]) with token
//! values and collected diagnostics, the intermediate shapes the grammar produces before a
//! node is complete (member "rests", type heads, name parts), and small builders.

use std::collections::HashMap;

use lalrpop_util::ErrorRecovery;

use crate::ast::*;
use crate::diagnostic::Diagnostic;
use crate::lexer::{Lexeme, Value};
use crate::span::Span;
use crate::token::LexError;

/// An error the parser recovered from (reported later by `parser.rs`).
pub type Recovery = ErrorRecovery<usize, Lexeme, LexError>;

/// Everything grammar actions need beyond their symbols.
pub struct Ctx {
    pub values: Vec<Value>,
    /// Interpolated strings whose holes are already parsed, by value index.
    pub interps: HashMap<u32, Vec<InterpolationPart>>,
    pub diagnostics: Vec<Diagnostic>,
    pub recoveries: Vec<Recovery>,
    /// Transparent identifiers created so far by query translation (`__q1`, `__q2`...).
    pub query_params: u32,
    /// Where a `}` missing at the end of input is reported.
    pub eof_brace_span: Span,
    /// A synthetic end-of-input brace closed something (the input is incomplete).
    pub used_eof_brace: bool,
}

impl Ctx {
    pub fn new(values: Vec<Value>, interps: HashMap<u32, Vec<InterpolationPart>>) -> Ctx {
        Ctx { values, interps, diagnostics: Vec::new(), recoveries: Vec::new(), query_params: 0, eof_brace_span: Span::default(), used_eof_brace: false }
    }

    pub fn ident(&self, t: &Lexeme, l: usize, r: usize) -> Ident {
        let name = match self.values.get(t.value as usize) {
            Some(Value::Name(n)) => n.clone(),
            _ => String::new(),
        };
        Ident { name, span: Span::new(l, r) }
    }

    pub fn literal(&self, t: &Lexeme, span: Span) -> Expr {
        let kind = match self.values.get(t.value as usize) {
            Some(Value::Lit(lit)) => ExprKind::Literal(lit.clone()),
            _ => ExprKind::Error,
        };
        Expr { kind, span }
    }

    /// An interpolated string, whose holes `parser.rs` parsed before the main parse.
    pub fn interpolated(&mut self, t: &Lexeme) -> ExprKind {
        ExprKind::Interpolated(self.interps.remove(&t.value).unwrap_or_default())
    }

    /// A synthetic brace closed a block: CS1513 at the end of input.
    pub fn missing_brace(&mut self) {
        self.used_eof_brace = true;
        self.diagnostics.push(Diagnostic::new("CS1513", "} expected", self.eof_brace_span));
    }

    pub fn recover(&mut self, e: Recovery) {
        self.recoveries.push(e);
    }

    pub fn error(&mut self, code: &'static str, message: impl Into<String>, span: Span) {
        self.diagnostics.push(Diagnostic::new(code, message, span));
    }
}

/// What the start symbol produced.
pub enum Parsed {
    File(Vec<TopItem>),
    Expr(Option<Expr>),
}

/// An item of a compilation unit or namespace body, before they are sorted out.
pub enum TopItem {
    Using(UsingDirective),
    Attributes(Vec<Attribute>),
    Stmt(Stmt),
    Type(TypeDecl),
    Namespace(NamespaceDecl),
    FileNamespace(QualifiedName, Span),
    Nothing,
}

/// One dotted part of a member name, with type arguments that may turn out to be type
/// parameters (`void M<[A] T>()`).
pub struct NamePart {
    pub name: Ident,
    pub args: Vec<(Vec<Attribute>, TypeSyntax)>,
}

/// An operator token in an operator declaration; `+`/`-` become unary or binary by arity.
pub enum OpToken {
    Plus,
    Minus,
    Fixed(OverloadableOp),
}

/// A class member without its attributes and modifiers.
pub enum MemberRest {
    Field(TypeSyntax, Vec<VarDeclarator>),
    Method(TypeSyntax, Vec<NamePart>, Vec<Param>, Vec<TypeParamConstraint>, Option<Body>),
    Property(TypeSyntax, Vec<NamePart>, Vec<Accessor>, Option<Expr>),
    PropertyExpr(TypeSyntax, Vec<NamePart>, Expr),
    Indexer(TypeSyntax, Option<Vec<NamePart>>, Vec<Param>, PropertyBody),
    Constructor(Ident, Vec<Param>, Option<ConstructorInitializer>, Option<Body>),
    Destructor(Ident, Option<Body>),
    Operator(TypeSyntax, OpToken, Vec<Param>, Option<Body>),
    Event(TypeSyntax, Vec<VarDeclarator>),
    EventAccessors(TypeSyntax, Vec<NamePart>, Vec<Accessor>),
    Type(TypeHead),
}

/// A type declaration without its attributes and modifiers.
pub struct TypeHead {
    kind: TypeKind,
    name: Ident,
    type_params: Vec<TypeParam>,
    primary_ctor: Option<Vec<Param>>,
    bases: Vec<TypeSyntax>,
    base_args: Option<Vec<Arg>>,
    constraints: Vec<TypeParamConstraint>,
    members: Vec<MemberDecl>,
    enum_members: Vec<EnumMember>,
    delegate_return: Option<TypeSyntax>,
}

impl TypeHead {
    pub fn new(
        kind: TypeKind,
        name: Ident,
        type_params: Option<Vec<TypeParam>>,
        primary_ctor: Option<Vec<Param>>,
        bases: Option<(Vec<TypeSyntax>, Option<Vec<Arg>>)>,
        constraints: Vec<TypeParamConstraint>,
        members: Vec<MemberDecl>,
    ) -> TypeHead {
        let (bases, base_args) = bases.unwrap_or_default();
        TypeHead {
            kind,
            name,
            type_params: type_params.unwrap_or_default(),
            primary_ctor,
            bases,
            base_args,
            constraints,
            members,
            enum_members: Vec::new(),
            delegate_return: None,
        }
    }

    pub fn enumeration(name: Ident, base: Option<TypeSyntax>, members: Vec<EnumMember>) -> TypeHead {
        let bases = base.map(|b| (vec![b], None));
        let mut head = TypeHead::new(TypeKind::Enum, name, None, None, bases, Vec::new(), Vec::new());
        head.enum_members = members;
        head
    }

    pub fn delegate(ret: TypeSyntax, name: Ident, type_params: Option<Vec<TypeParam>>, params: Vec<Param>, constraints: Vec<TypeParamConstraint>) -> TypeHead {
        let mut head = TypeHead::new(TypeKind::Delegate, name, type_params, Some(params), None, constraints, Vec::new());
        head.delegate_return = Some(ret);
        head
    }
}

/// A local declaration with its (not yet validated) modifiers.
pub struct LocalDecl {
    pub decl: LocalVarDecl,
    pub mods: Option<Modifiers>,
}

impl LocalDecl {
    pub fn new(mods: Option<Modifiers>, is_using: bool, ty: TypeSyntax, declarators: Vec<VarDeclarator>, l: usize, r: usize) -> LocalDecl {
        let bits = mods.map_or(0, |m| m.bits);
        let decl = LocalVarDecl {
            is_const: bits & Modifiers::CONST != 0,
            is_using,
            is_await: false,
            is_ref: bits & Modifiers::REF != 0,
            ty,
            declarators,
            span: Span::new(l, r),
        };
        LocalDecl { decl, mods }
    }

    /// `await using var r = ...`.
    pub fn awaited(mut self, is_await: bool) -> LocalDecl {
        self.decl.is_await = is_await;
        self
    }
}

/// An element of an object or collection initializer.
pub enum InitElem {
    Member(MemberInit),
    Element(Expr),
}

// ---------------------------------------------------------------------------------------
// Small builders
// ---------------------------------------------------------------------------------------

pub fn expr(kind: ExprKind, l: usize, r: usize) -> Expr {
    Expr { kind, span: Span::new(l, r) }
}

/// Builds a node from a kind and the span captured by the grammar's `Sp<T>` macro.
pub fn spanned((kind, span): (ExprKind, Span)) -> Expr {
    Expr { kind, span }
}

pub fn spanned_stmt((kind, span): (StmtKind, Span)) -> Stmt {
    Stmt { kind, span }
}

pub fn spanned_pattern((kind, span): (PatternKind, Span)) -> Pattern {
    Pattern { kind, span }
}

pub fn stmt(kind: StmtKind, l: usize, r: usize) -> Stmt {
    Stmt { kind, span: Span::new(l, r) }
}

pub fn pattern(kind: PatternKind, l: usize, r: usize) -> Pattern {
    Pattern { kind, span: Span::new(l, r) }
}

pub fn ident(name: &str, l: usize, r: usize) -> Ident {
    Ident { name: name.to_string(), span: Span::new(l, r) }
}

pub fn binary(op: BinaryOp, left: Expr, right: Expr, l: usize, r: usize) -> Expr {
    expr(ExprKind::Binary { op, left: Box::new(left), right: Box::new(right) }, l, r)
}

pub fn unary_kind(op: UnaryOp, operand: Expr) -> ExprKind {
    ExprKind::Unary { op, operand: Box::new(operand) }
}

pub fn postfix_kind(op: PostfixOp, operand: Expr) -> ExprKind {
    ExprKind::Postfix { op, operand: Box::new(operand) }
}

pub fn postfix(op: PostfixOp, operand: Expr, l: usize, r: usize) -> Expr {
    expr(postfix_kind(op, operand), l, r)
}

pub fn assign(op: Option<BinaryOp>, target: Expr, value: Expr, l: usize, r: usize) -> Expr {
    expr(ExprKind::Assign { op, target: Box::new(target), value: Box::new(value) }, l, r)
}

pub fn conditional(cond: Expr, then: Expr, otherwise: Expr, l: usize, r: usize) -> Expr {
    let kind = ExprKind::Conditional { cond: Box::new(cond), then: Box::new(then), otherwise: Box::new(otherwise) };
    expr(kind, l, r)
}

pub fn range(from: Option<Expr>, to: Option<Expr>, l: usize, r: usize) -> Expr {
    expr(ExprKind::Range(from.map(Box::new), to.map(Box::new)), l, r)
}

pub fn member_kind(target: Expr, name: (NameSegment, Span), conditional: bool) -> ExprKind {
    ExprKind::Member { target: Box::new(target), name: name.0, conditional }
}

pub fn arg(name: Option<Ident>, modifier: ArgModifier, e: Expr, l: usize, r: usize) -> Arg {
    Arg { name, modifier, expr: e, span: Span::new(l, r) }
}

pub fn tuple(first: Arg, rest: Vec<Arg>, l: usize, r: usize) -> Expr {
    let mut args = vec![first];
    args.extend(rest);
    expr(ExprKind::Tuple(args), l, r)
}

/// Prepends to a right-recursive list.
pub fn push_front<T>(mut rest: Vec<T>, first: T) -> Vec<T> {
    rest.insert(0, first);
    rest
}

pub fn if_stmt(cond: Expr, then: Stmt, otherwise: Option<Stmt>, l: usize, r: usize) -> Stmt {
    stmt(StmtKind::If { cond, then: Box::new(then), otherwise: otherwise.map(Box::new) }, l, r)
}

// ---------------------------------------------------------------------------------------
// Names and types
// ---------------------------------------------------------------------------------------

fn name_span(n: &[(NameSegment, Span)]) -> Span {
    match (n.first(), n.last()) {
        (Some(f), Some(l)) => f.1.to(l.1),
        _ => Span::default(),
    }
}

/// A name in expression position: `a` → `Name`, `a.b.c` → nested `Member`s.
pub fn name_expr(n: Vec<(NameSegment, Span)>) -> Expr {
    let mut iter = n.into_iter();
    let Some((first, span)) = iter.next() else {
        return Expr { kind: ExprKind::Error, span: Span::default() };
    };
    let mut e = Expr { kind: ExprKind::Name(first), span };
    for (seg, seg_span) in iter {
        let span = e.span.to(seg_span);
        e = Expr { kind: ExprKind::Member { target: Box::new(e), name: seg, conditional: false }, span };
    }
    e
}

/// A name in type position; `dynamic`, `nint` and `nuint` become predefined types.
pub fn named_type(n: Vec<(NameSegment, Span)>) -> TypeSyntax {
    let span = name_span(&n);
    if let [(seg, _)] = n.as_slice() {
        if seg.type_args.is_empty() {
            let predefined = match seg.name.name.as_str() {
                "dynamic" => Some(PredefinedType::Dynamic),
                "nint" => Some(PredefinedType::NInt),
                "nuint" => Some(PredefinedType::NUInt),
                _ => None,
            };
            if let Some(p) = predefined {
                return TypeSyntax { kind: TypeSyntaxKind::Predefined(p), span };
            }
        }
    }
    TypeSyntax { kind: TypeSyntaxKind::Named(n.into_iter().map(|(s, _)| s).collect()), span }
}

/// Omitted type arguments (`typeof(Dictionary<,>)`) are `Named` types with no segments.
pub fn omitted_type_args(count: usize, at: usize) -> Vec<TypeSyntax> {
    let omitted = TypeSyntax { kind: TypeSyntaxKind::Named(Vec::new()), span: Span::new(at, at) };
    vec![omitted; count]
}

/// Appends a rank specifier: C# reads `T[A][B]` as an `A`-array of `T[B]`, so the new
/// rank goes innermost.
pub fn array_type(t: TypeSyntax, rank: u32, span: Span) -> TypeSyntax {
    match t.kind {
        TypeSyntaxKind::Array(inner, outer) => {
            let inner_span = Span::new(inner.span.start as usize, span.end as usize);
            let inner = array_type(*inner, rank, inner_span);
            TypeSyntax { kind: TypeSyntaxKind::Array(Box::new(inner), outer), span }
        }
        kind => {
            let elem = TypeSyntax { kind, span: t.span };
            TypeSyntax { kind: TypeSyntaxKind::Array(Box::new(elem), rank), span }
        }
    }
}

pub fn tuple_type(first: TupleTypeElement, rest: Vec<TupleTypeElement>, l: usize, r: usize) -> TypeSyntax {
    let mut elems = vec![first];
    elems.extend(rest);
    TypeSyntax { kind: TypeSyntaxKind::Tuple(elems), span: Span::new(l, r) }
}

fn is_simple_name(t: &TypeSyntax, name: &str) -> bool {
    matches!(&t.kind, TypeSyntaxKind::Named(segs)
        if segs.len() == 1 && segs[0].type_args.is_empty() && segs[0].name.name == name)
}

fn var_type(span: Span) -> TypeSyntax {
    let seg = NameSegment { name: Ident { name: "var".into(), span }, type_args: Vec::new() };
    TypeSyntax { kind: TypeSyntaxKind::Named(vec![seg]), span }
}

// ---------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------

pub fn modifiers(bits: Vec<u32>, l: usize, r: usize) -> Modifiers {
    Modifiers { bits: bits.into_iter().fold(0, |a, b| a | b), span: Span::new(l, r) }
}

fn no_modifiers(at: usize) -> Modifiers {
    Modifiers { bits: 0, span: Span::new(at, at) }
}

pub fn with_target(target: Option<Ident>, list: Vec<Attribute>) -> Vec<Attribute> {
    list.into_iter().map(|a| Attribute { target: target.clone(), ..a }).collect()
}

pub fn attribute(n: Vec<(NameSegment, Span)>, args: Vec<AttributeArg>, l: usize, r: usize) -> Attribute {
    Attribute { target: None, name: named_type(n), args, span: Span::new(l, r) }
}

pub fn bases(first: TypeSyntax, args: Option<Vec<Arg>>, rest: Vec<TypeSyntax>) -> (Vec<TypeSyntax>, Option<Vec<Arg>>) {
    let mut all = vec![first];
    all.extend(rest);
    (all, args)
}

pub fn type_constraint(t: TypeSyntax) -> Constraint {
    if is_simple_name(&t, "unmanaged") {
        Constraint::Unmanaged
    } else if is_simple_name(&t, "notnull") {
        Constraint::NotNull
    } else {
        Constraint::Type(t)
    }
}

pub fn type_decl(_ctx: &mut Ctx, attributes: Option<Vec<Attribute>>, mods: Option<Modifiers>, head: TypeHead, l: usize, r: usize) -> TypeDecl {
    TypeDecl {
        attributes: attributes.unwrap_or_default(),
        modifiers: mods.unwrap_or_else(|| no_modifiers(l)),
        kind: head.kind,
        name: head.name,
        type_params: head.type_params,
        primary_ctor: head.primary_ctor,
        bases: head.bases,
        base_args: head.base_args,
        constraints: head.constraints,
        members: head.members,
        enum_members: head.enum_members,
        delegate_return: head.delegate_return,
        span: Span::new(l, r),
    }
}

pub fn namespace(name: QualifiedName, items: Vec<TopItem>, span: Span) -> NamespaceDecl {
    let mut usings = Vec::new();
    let mut members = Vec::new();
    for item in items {
        match item {
            TopItem::Using(u) => usings.push(u),
            TopItem::Type(t) => members.push(NamespaceMember::Type(t)),
            TopItem::Namespace(n) => members.push(NamespaceMember::Namespace(n)),
            TopItem::Stmt(s) => members.push(NamespaceMember::Statement(s)),
            TopItem::Attributes(_) | TopItem::FileNamespace(..) | TopItem::Nothing => {}
        }
    }
    NamespaceDecl { name, file_scoped: false, usings, members, span }
}

/// A member declared directly in a namespace: only types belong there (CS0116).
pub fn namespace_member(ctx: &mut Ctx, m: Option<MemberDecl>) -> TopItem {
    match m {
        Some(MemberDecl::Type(t)) => TopItem::Type(t),
        Some(MemberDecl::Error(_)) | None => TopItem::Nothing,
        Some(other) => {
            ctx.error("CS0116", "A namespace cannot directly contain members such as fields, methods or statements", member_name_span(&other));
            TopItem::Nothing
        }
    }
}

fn member_name_span(m: &MemberDecl) -> Span {
    match m {
        MemberDecl::Field(f) => f.declarators.first().map_or(f.span, |d| d.name.span),
        MemberDecl::Method(f) => f.name.span,
        MemberDecl::Property(p) => p.name.span,
        MemberDecl::Indexer(i) => i.span,
        MemberDecl::Constructor(c) | MemberDecl::Destructor(c) => c.name.span,
        MemberDecl::Operator(o) => o.span,
        MemberDecl::Event(e) => e.span,
        MemberDecl::Type(t) => t.name.span,
        MemberDecl::Error(s) => *s,
    }
}

pub fn using_namespace(ctx: &mut Ctx, is_global: bool, n: Vec<(NameSegment, Span)>, span: Span) -> UsingDirective {
    let name_span = name_span(&n);
    let mut parts = Vec::new();
    for (seg, seg_span) in n.into_iter().filter(|(seg, _)| seg.name.name != GLOBAL_QUALIFIER) {
        if !seg.type_args.is_empty() {
            ctx.error("CS0138", "A 'using namespace' directive can only be applied to namespaces", seg_span);
        }
        parts.push(seg.name);
    }
    let kind = UsingKind::Namespace(QualifiedName { parts, span: name_span });
    UsingDirective { is_global, kind, span }
}

/// Splits `IFoo<int>.Bar<T>` into the explicit interface, the name and type parameters.
fn split_member_name(ctx: &mut Ctx, mut parts: Vec<NamePart>) -> (Option<TypeSyntax>, Ident, Vec<TypeParam>) {
    let last = parts.pop().unwrap_or_else(|| NamePart { name: ident("", 0, 0), args: Vec::new() });
    let type_params = last.args.into_iter().filter_map(|(attrs, t)| type_param(ctx, attrs, t)).collect();
    let explicit = if parts.is_empty() {
        None
    } else {
        let span = parts[0].name.span.to(parts[parts.len() - 1].name.span);
        let segs = parts.into_iter().map(|p| NameSegment { name: p.name, type_args: p.args.into_iter().map(|(_, t)| t).collect() }).collect();
        Some(TypeSyntax { kind: TypeSyntaxKind::Named(segs), span })
    };
    (explicit, last.name, type_params)
}

fn type_param(ctx: &mut Ctx, attributes: Vec<Attribute>, t: TypeSyntax) -> Option<TypeParam> {
    match t.kind {
        TypeSyntaxKind::Named(mut segs) if segs.len() == 1 && segs[0].type_args.is_empty() => {
            let seg = segs.pop()?;
            Some(TypeParam { attributes, variance: Variance::None, name: seg.name })
        }
        _ => {
            ctx.error("CS0081", "Type parameter declaration must be an identifier not a type", t.span);
            None
        }
    }
}

pub fn member_decl(ctx: &mut Ctx, attributes: Option<Vec<Attribute>>, mods: Option<Modifiers>, rest: MemberRest, l: usize, r: usize) -> MemberDecl {
    let attributes = attributes.unwrap_or_default();
    let modifiers = mods.unwrap_or_else(|| no_modifiers(l));
    let span = Span::new(l, r);
    match rest {
        MemberRest::Field(ty, declarators) => MemberDecl::Field(FieldDecl { attributes, modifiers, ty, declarators, span }),
        MemberRest::Method(return_type, name, params, constraints, body) => {
            let (explicit_interface, name, type_params) = split_member_name(ctx, name);
            MemberDecl::Method(MethodDecl { attributes, modifiers, return_type, explicit_interface, name, type_params, params, constraints, body, span })
        }
        MemberRest::Property(ty, name, acc, initializer) => {
            let (explicit_interface, name, _) = split_member_name(ctx, name);
            let accessors = PropertyBody::Accessors(acc);
            let p = PropertyDecl { attributes, modifiers, ty, explicit_interface, name, accessors, initializer, span };
            MemberDecl::Property(p)
        }
        MemberRest::PropertyExpr(ty, name, e) => {
            let (explicit_interface, name, _) = split_member_name(ctx, name);
            let accessors = PropertyBody::Expr(Box::new(e));
            let p = PropertyDecl { attributes, modifiers, ty, explicit_interface, name, accessors, initializer: None, span };
            MemberDecl::Property(p)
        }
        MemberRest::Indexer(ty, iface, params, accessors) => {
            let explicit_interface = iface.map(|parts| {
                let (prefix, last, _) = split_member_name(ctx, parts);
                interface_type(prefix, last)
            });
            MemberDecl::Indexer(IndexerDecl { attributes, modifiers, ty, explicit_interface, params, accessors, span })
        }
        MemberRest::Constructor(name, params, initializer, body) => {
            MemberDecl::Constructor(ConstructorDecl { attributes, modifiers, name, params, initializer, body, span })
        }
        MemberRest::Destructor(name, body) => {
            MemberDecl::Destructor(ConstructorDecl { attributes, modifiers, name, params: Vec::new(), initializer: None, body, span })
        }
        MemberRest::Operator(return_type, op, params, body) => {
            let op = match op {
                OpToken::Plus if params.len() == 1 => OverloadableOp::Unary(UnaryOp::Plus),
                OpToken::Plus => OverloadableOp::Binary(BinaryOp::Add),
                OpToken::Minus if params.len() == 1 => OverloadableOp::Unary(UnaryOp::Minus),
                OpToken::Minus => OverloadableOp::Binary(BinaryOp::Sub),
                OpToken::Fixed(op) => op,
            };
            MemberDecl::Operator(OperatorDecl { attributes, modifiers, return_type, op, params, body, span })
        }
        MemberRest::Event(ty, declarators) => {
            MemberDecl::Event(EventDecl { attributes, modifiers, ty, explicit_interface: None, declarators, accessors: None, span })
        }
        MemberRest::EventAccessors(ty, name, acc) => {
            let (explicit_interface, name, _) = split_member_name(ctx, name);
            let decl = VarDeclarator { span: name.span, name, init: None };
            let declarators = vec![decl];
            MemberDecl::Event(EventDecl { attributes, modifiers, ty, explicit_interface, declarators, accessors: Some(acc), span })
        }
        MemberRest::Type(head) => MemberDecl::Type(type_decl(ctx, Some(attributes), Some(modifiers), head, l, r)),
    }
}

/// `IFoo.Bar` of an explicit indexer implementation `T IFoo.Bar.this[..]` is the whole
/// dotted name before `this`.
fn interface_type(prefix: Option<TypeSyntax>, last: Ident) -> TypeSyntax {
    let seg = NameSegment { name: last, type_args: Vec::new() };
    match prefix {
        Some(TypeSyntax { kind: TypeSyntaxKind::Named(mut segs), span }) => {
            let span = span.to(seg.name.span);
            segs.push(seg);
            TypeSyntax { kind: TypeSyntaxKind::Named(segs), span }
        }
        _ => {
            let span = seg.name.span;
            TypeSyntax { kind: TypeSyntaxKind::Named(vec![seg]), span }
        }
    }
}

pub fn accessor(ctx: &mut Ctx, attributes: Option<Vec<Attribute>>, mods: Option<Modifiers>, name: Ident, body: Option<Body>, l: usize, r: usize) -> Accessor {
    let kind = match name.name.as_str() {
        "get" => AccessorKind::Get,
        "set" => AccessorKind::Set,
        "init" => AccessorKind::Init,
        "add" => AccessorKind::Add,
        "remove" => AccessorKind::Remove,
        _ => {
            ctx.error("CS1014", "A get or set accessor expected", name.span);
            AccessorKind::Get
        }
    };
    Accessor { attributes: attributes.unwrap_or_default(), modifiers: mods.unwrap_or_else(|| no_modifiers(l)), kind, body, span: Span::new(l, r) }
}

// ---------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------

const MODIFIER_NAMES: [(u32, &str); 20] = [
    (Modifiers::PUBLIC, "public"),
    (Modifiers::PRIVATE, "private"),
    (Modifiers::PROTECTED, "protected"),
    (Modifiers::INTERNAL, "internal"),
    (Modifiers::STATIC, "static"),
    (Modifiers::READONLY, "readonly"),
    (Modifiers::CONST, "const"),
    (Modifiers::VIRTUAL, "virtual"),
    (Modifiers::OVERRIDE, "override"),
    (Modifiers::ABSTRACT, "abstract"),
    (Modifiers::SEALED, "sealed"),
    (Modifiers::ASYNC, "async"),
    (Modifiers::NEW, "new"),
    (Modifiers::EXTERN, "extern"),
    (Modifiers::PARTIAL, "partial"),
    (Modifiers::VOLATILE, "volatile"),
    (Modifiers::UNSAFE, "unsafe"),
    (Modifiers::REQUIRED, "required"),
    (Modifiers::FILE, "file"),
    (Modifiers::REF, "ref"),
];

/// Reports CS0106 for each modifier outside `allowed`.
fn check_modifiers(ctx: &mut Ctx, m: &Modifiers, allowed: u32) {
    for (bit, name) in MODIFIER_NAMES {
        if m.bits & bit != 0 && allowed & bit == 0 {
            ctx.error("CS0106", format!("The modifier '{name}' is not valid for this item"), m.span);
        }
    }
}

/// A local declaration statement (only `const`, `ref` and `readonly` modifiers apply).
pub fn local_var(ctx: &mut Ctx, d: LocalDecl) -> StmtKind {
    if let Some(m) = &d.mods {
        check_modifiers(ctx, m, Modifiers::CONST | Modifiers::REF | Modifiers::READONLY);
    }
    StmtKind::LocalVar(d.decl)
}

#[allow(clippy::too_many_arguments)]
pub fn local_function(
    ctx: &mut Ctx,
    attributes: Option<Vec<Attribute>>,
    mods: Option<Modifiers>,
    return_type: TypeSyntax,
    name: Ident,
    type_params: Option<Vec<TypeParam>>,
    params: Vec<Param>,
    constraints: Vec<TypeParamConstraint>,
    body: Option<Body>,
    l: usize,
    r: usize,
) -> MethodDecl {
    if let Some(m) = &mods {
        let allowed = Modifiers::STATIC | Modifiers::ASYNC | Modifiers::UNSAFE | Modifiers::EXTERN;
        check_modifiers(ctx, m, allowed);
    }
    MethodDecl {
        attributes: attributes.unwrap_or_default(),
        modifiers: mods.unwrap_or_else(|| no_modifiers(l)),
        return_type,
        explicit_interface: None,
        name,
        type_params: type_params.unwrap_or_default(),
        params,
        constraints,
        body,
        span: Span::new(l, r),
    }
}

// ---------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------

pub fn designation(n: Ident) -> Designation {
    if n.name == "_" {
        Designation::Discard(n.span)
    } else {
        Designation::Single(n)
    }
}

pub fn declaration(ty: TypeSyntax, designation: Designation, l: usize, r: usize) -> Expr {
    expr(ExprKind::Declaration { ty, designation }, l, r)
}

/// `var (a, b)`: `l..var_end` is the `var` keyword.
pub fn var_declaration(d: Designation, l: usize, var_end: usize, r: usize) -> Expr {
    declaration(var_type(Span::new(l, var_end)), d, l, r)
}

pub fn anonymous_method(params: Option<Vec<Param>>, body: Block, span: Span) -> ExprKind {
    anonymous_method_with(false, params, body, span)
}

/// `async delegate (...) { ... }`.
pub fn async_anonymous_method(params: Option<Vec<Param>>, body: Block, span: Span) -> ExprKind {
    anonymous_method_with(true, params, body, span)
}

fn anonymous_method_with(is_async: bool, params: Option<Vec<Param>>, body: Block, span: Span) -> ExprKind {
    let parenthesized = params.is_some();
    let params = params.unwrap_or_default().into_iter().map(|p| LambdaParam { modifier: p.modifier, ty: Some(p.ty), name: p.name, span: p.span }).collect();
    let lambda = Lambda { is_async, is_static: false, params, parenthesized, body: Body::Block(body), span };
    ExprKind::AnonymousMethod(Box::new(lambda))
}

pub fn implicit_param(name: Ident, l: usize, r: usize) -> LambdaParam {
    LambdaParam { modifier: ParamModifier::None, ty: None, name, span: Span::new(l, r) }
}

pub fn lambda(
    _attributes: Option<Vec<Attribute>>,
    (is_async, is_static): (bool, bool),
    (params, parenthesized): (Vec<LambdaParam>, bool),
    body: Body,
    l: usize,
    r: usize,
) -> Expr {
    let lambda = Lambda { is_async, is_static, params, parenthesized, body, span: Span::new(l, r) };
    expr(ExprKind::Lambda(Box::new(lambda)), l, r)
}

/// `new T[n, m][]..`: the created array has one dimension per size; the trailing rank
/// specifiers belong to the element type. Sizes after a rank specifier (`new int[][3]`)
/// are CS0178, as only the first specifier may give sizes.
pub fn new_array_sized(ctx: &mut Ctx, t: TypeSyntax, sizes: Vec<Expr>, ranks: Vec<u32>, init: Option<Vec<Expr>>) -> ExprKind {
    if matches!(t.kind, TypeSyntaxKind::Array(..)) {
        if let Some(first) = sizes.first() {
            ctx.error("CS0178", "Invalid rank specifier: expected ',' or ']'", first.span);
        }
    }
    let rank = sizes.len() as u32;
    let elem = ranks.into_iter().fold(t, |t, k| {
        let span = t.span;
        array_type(t, k, span)
    });
    ExprKind::NewArray { elem: Some(elem), sizes, rank, init }
}

/// `new T[] { .. }` / `new[] { .. }`: the first rank specifier is the created array's.
pub fn new_array(t: Option<TypeSyntax>, rank: u32, init: Vec<Expr>) -> ExprKind {
    let (elem, rank) = match t {
        None => (None, rank),
        Some(t) => {
            let span = t.span;
            match array_type(t, rank, span).kind {
                TypeSyntaxKind::Array(elem, outer) => (Some(*elem), outer),
                kind => (Some(TypeSyntax { kind, span }), rank),
            }
        }
    };
    ExprKind::NewArray { elem, sizes: Vec::new(), rank, init: Some(init) }
}

/// `stackalloc` over the array creation it stands for (spanning `l..r`).
pub fn stackalloc(array: ExprKind, l: usize, r: usize) -> ExprKind {
    ExprKind::StackAlloc(Box::new(Expr { kind: array, span: Span::new(l, r) }))
}

/// An object initializer (member/index assignments) or a collection initializer
/// (elements); mixing them is CS0747, as in C#.
pub fn initializer(ctx: &mut Ctx, elems: Vec<InitElem>) -> Initializer {
    let object = matches!(elems.first(), None | Some(InitElem::Member(_)));
    let mut members = Vec::new();
    let mut items = Vec::new();
    for e in elems {
        match (e, object) {
            (InitElem::Member(m), true) => members.push(m),
            (InitElem::Element(x), false) => items.push(x),
            (InitElem::Member(m), false) => invalid_init(ctx, m.span),
            (InitElem::Element(x), true) => invalid_init(ctx, x.span),
        }
    }
    if object {
        Initializer::Object(members)
    } else {
        Initializer::Collection(items)
    }
}

fn invalid_init(ctx: &mut Ctx, span: Span) {
    ctx.error("CS0747", "Invalid initializer member declarator", span);
}

// ---------------------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------------------

/// A constant pattern, or the discard `_`.
pub fn constant_pattern(e: Expr) -> PatternKind {
    match &e.kind {
        ExprKind::Name(seg) if seg.name.name == "_" && seg.type_args.is_empty() => PatternKind::Discard,
        _ => PatternKind::Constant(e),
    }
}

/// `T x`, or the var pattern `var x`.
pub fn declaration_pattern(ty: TypeSyntax, name: Ident) -> PatternKind {
    if is_simple_name(&ty, "var") {
        PatternKind::Var(designation(name))
    } else {
        PatternKind::Declaration { ty, name: designation(name) }
    }
}

/// Positional/property patterns; `(p)` alone is just a parenthesized pattern.
pub fn recursive_pattern(ty: Option<TypeSyntax>, positional: Option<Vec<SubPattern>>, properties: Option<Vec<SubPattern>>, name: Option<Ident>) -> PatternKind {
    if ty.is_none() && properties.is_none() && name.is_none() {
        if let Some(pos) = &positional {
            if let [single] = pos.as_slice() {
                if single.name.is_none() {
                    return single.pattern.kind.clone();
                }
            }
        }
    }
    let designation = name.map(designation);
    PatternKind::Recursive { ty, positional, properties, designation }
}

pub fn named_subpattern(n: Vec<(NameSegment, Span)>, p: Pattern, l: usize, r: usize) -> SubPattern {
    let names = n.into_iter().map(|(s, _)| s.name).collect();
    SubPattern { name: Some(names), pattern: p, span: Span::new(l, r) }
}
