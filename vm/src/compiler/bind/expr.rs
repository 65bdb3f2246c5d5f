//! Expression binding: the dispatch over expression syntax, literals, simple names,
//! member access, element access, `this`/`base`, `typeof`/`default`/`nameof`, casts,
//! `is`/`as`, conditionals and the statement-expression rule.

use super::lookup::Member;
use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::{FieldId, Flags, MethodId, PropertyId, TypeDefKind, TypeId, TypeKind};
use grammar::ast::{self, ExprKind, Literal};
use grammar::span::Span;

/// An expression bound as far as its syntax allows: a value, or something that only makes
/// sense as part of a larger expression (a type before `.`, a method group before `(`).
#[derive(Clone, Debug)]
pub enum Bound {
    Value(BExpr),
    Type(TypeId, Span),
    Namespace(String, Span),
    Methods(MethodGroup),
    Property(PropertyAccess),
}

#[derive(Clone, Debug)]
pub struct MethodGroup {
    pub name: String,
    pub methods: Vec<(MethodId, TypeId)>,
    pub receiver: Option<Box<BExpr>>,
    pub type_args: Vec<TypeId>,
    /// `base.M(...)`: calls are not virtual.
    pub is_base: bool,
    /// A local function (called directly).
    pub nested: Option<NestedId>,
    pub span: Span,
    /// The method's name, where overload errors (CS1501, CS7036) point.
    pub name_span: Span,
}

#[derive(Clone, Debug)]
pub struct PropertyAccess {
    pub prop: PropertyId,
    pub owner: TypeId,
    pub receiver: Option<Box<BExpr>>,
    pub args: Vec<BArg>,
    pub is_base: bool,
    pub span: Span,
}

impl MethodBinder<'_> {
    /// Binds an expression to a value of its natural type.
    pub fn bind_expr(&mut self, e: &ast::Expr) -> BExpr {
        let b = self.bind(e, None);
        self.to_value(b, e.span)
    }

    /// Binds an expression where a value of type `target` is expected, converting it.
    pub fn bind_expr_to(&mut self, e: &ast::Expr, target: TypeId) -> BExpr {
        let v = self.bind_value_to(e, target);
        self.coerce(v, target)
    }

    /// An expression statement: only assignments, calls, increments, `await` and `new` may
    /// stand alone (CS0201).
    pub fn bind_expr_statement(&mut self, e: &ast::Expr) -> BExpr {
        let allowed = matches!(
            e.kind,
            ExprKind::Assign { .. }
                | ExprKind::Call { .. }
                | ExprKind::Await(_)
                | ExprKind::New { .. }
                | ExprKind::Throw(_)
                | ExprKind::Error
                | ExprKind::Postfix { op: ast::PostfixOp::Increment | ast::PostfixOp::Decrement, .. }
                | ExprKind::Unary { op: ast::UnaryOp::PreIncrement | ast::UnaryOp::PreDecrement, .. }
        ) || is_conditional_call(e);
        let v = self.bind_expr(e);
        if !allowed && !v.is_error() {
            self.error(e.span, "CS0201", "Only assignment, call, increment, decrement, await, and new object expressions can be used as a statement");
        }
        v
    }

    /// Turns a partially bound expression into a value (reading properties, reporting
    /// types and method groups used as values).
    pub fn to_value(&mut self, b: Bound, span: Span) -> BExpr {
        match b {
            Bound::Value(v) => v,
            Bound::Property(p) => self.read_property(p),
            Bound::Type(t, s) => {
                let name = self.type_name(t);
                self.error(s, "CS0119", format!("'{name}' is a type, which is not valid in the given context"));
                BExpr::error(span)
            }
            Bound::Namespace(n, s) => {
                self.error(s, "CS0118", format!("'{n}' is a namespace but is used like a variable"));
                BExpr::error(span)
            }
            Bound::Methods(g) => {
                self.error(
                    g.span,
                    "CS0428",
                    format!("Cannot convert method group '{}' to non-delegate type 'object'. Did you intend to invoke the method?", g.name),
                );
                BExpr::error(span)
            }
        }
    }

    /// The dispatch over expression syntax. `target` is the expected type, when known.
    pub fn bind(&mut self, e: &ast::Expr, target: Option<TypeId>) -> Bound {
        let span = e.span;
        let v = match &e.kind {
            ExprKind::Literal(l) => self.bind_literal(l, span),
            ExprKind::Interpolated(parts) => self.bind_interpolated(parts, span),
            ExprKind::Name(seg) => return self.bind_name(seg, span),
            ExprKind::PredefinedType(p) => {
                let ts = ast::TypeSyntax { kind: ast::TypeSyntaxKind::Predefined(*p), span };
                let t = self.resolve_type(&ts);
                return Bound::Type(t, span);
            }
            // `a?.b.c[i]`: the whole chain after `?.` is skipped when `a` is null.
            ExprKind::Member { target: t, name, conditional } => {
                if *conditional || contains_conditional(t) {
                    return Bound::Value(self.bind_conditional_access(e));
                }
                return self.bind_member_access(t, name, span);
            }
            ExprKind::Index { target: t, args, conditional } => {
                if *conditional || contains_conditional(t) {
                    return Bound::Value(self.bind_conditional_access(e));
                }
                return self.bind_element_access(t, args, span);
            }
            ExprKind::Call { target: t, args } => {
                if contains_conditional(t) {
                    return Bound::Value(self.bind_conditional_access(e));
                }
                self.bind_invocation(t, args, span)
            }
            ExprKind::New { ty, args, init } => self.bind_new(ty.as_ref(), args, init.as_ref(), target, span),
            ExprKind::NewArray { elem, sizes, rank, init } => self.bind_new_array(elem.as_ref(), sizes, *rank, init.as_ref(), target, span),
            ExprKind::Collection(elems) => self.bind_collection_expression(elems, target, span),
            ExprKind::InitializerList(items) => self.bind_initializer_list(items, target, span),
            ExprKind::NewAnonymous(members) => self.bind_new_anonymous(members, span),
            ExprKind::StackAlloc(array) => self.bind_stackalloc(array, span),
            ExprKind::Unary { op, operand } => self.bind_unary(*op, operand, span),
            ExprKind::Postfix { op, operand } => match op {
                ast::PostfixOp::NullForgiving => return self.bind(operand, target),
                ast::PostfixOp::Increment => self.bind_increment(operand, true, true, span),
                ast::PostfixOp::Decrement => self.bind_increment(operand, false, true, span),
            },
            ExprKind::Binary { op, left, right } => self.bind_binary(*op, left, right, target, span),
            ExprKind::Assign { op, target: t, value } => self.bind_assignment(*op, t, value, span),
            ExprKind::Conditional { cond, then, otherwise } => self.bind_conditional(cond, then, otherwise, target, span),
            ExprKind::Cast { ty, expr } => {
                let t = self.resolve_type(ty);
                // `(Func<int, int>)Twice`: a method group converts to the delegate type.
                let v = self.bind_value_to(expr, t);
                self.cast(v, t, span)
            }
            ExprKind::Is { expr, pattern } => self.bind_is_pattern(expr, pattern, span),
            ExprKind::As { expr, ty } => self.bind_as(expr, ty, span),
            ExprKind::Lambda(l) | ExprKind::AnonymousMethod(l) => self.bind_lambda_expr(l, target, span),
            ExprKind::Await(inner) => self.bind_await(inner, span),
            ExprKind::Typeof(ty) => {
                let t = self.resolve_type_allow_open(ty);
                BExpr::new(BKind::TypeOf(t), self.wk().type_, span)
            }
            ExprKind::Nameof(inner) => self.bind_nameof(inner, span),
            ExprKind::Sizeof(ty) => self.bind_sizeof(ty, span),
            ExprKind::Default(ty) => match ty {
                Some(ty) => {
                    let t = self.resolve_type(ty);
                    self.default_of(t, span)
                }
                None => match target {
                    Some(t) => self.default_of(t, span),
                    None => {
                        self.error(span, "CS8716", "There is no target type for the default literal.");
                        BExpr::error(span)
                    }
                },
            },
            ExprKind::Checked(checked, inner) => {
                let saved = (self.checked, self.explicitly_unchecked);
                self.checked = *checked;
                self.explicitly_unchecked = !*checked;
                let b = self.bind(inner, target);
                (self.checked, self.explicitly_unchecked) = saved;
                return b;
            }
            ExprKind::Throw(inner) => {
                let ex = self.bind_expr(inner);
                let ex = self.check_throwable(ex);
                BExpr::new(BKind::Throw(Box::new(ex)), target.unwrap_or(TypeId::VOID), span)
            }
            ExprKind::Switch { expr, arms } => self.bind_switch_expression(expr, arms, target, span),
            ExprKind::Tuple(args) => self.bind_tuple_literal(args, target, span),
            ExprKind::Declaration { .. } => {
                self.error(span, "CS8185", "A declaration is not allowed in this context.");
                BExpr::error(span)
            }
            ExprKind::With { expr, init } => self.bind_with(expr, init, span),
            ExprKind::This => self.bind_this(span),
            ExprKind::Base => {
                self.error(span, "CS0175", "Use of keyword 'base' is not valid in this context");
                BExpr::error(span)
            }
            ExprKind::IndexFromEnd(operand) => self.bind_index_from_end(operand, span),
            ExprKind::Range(start, end) => self.bind_range(start.as_deref(), end.as_deref(), span),
            ExprKind::Error => BExpr::error(span),
        };
        Bound::Value(v)
    }

    pub fn resolve_type(&mut self, ty: &ast::TypeSyntax) -> TypeId {
        let ctx = self.ctx.clone();
        self.c.resolve_type(&ctx, ty)
    }

    /// `typeof(List<>)` allows unbound generic names; everything else resolves normally.
    /// `typeof`'s operand, where `Outer<>` and `Outer<>.Inner` name the generic type
    /// definition: resolved with `object` for each omitted argument, then taken back to the
    /// definition's own type (whose arguments are its type parameters).
    fn resolve_type_allow_open(&mut self, ty: &ast::TypeSyntax) -> TypeId {
        let Some(closed) = with_omitted_args_filled(ty) else { return self.resolve_type(ty) };
        let t = self.resolve_type(&closed);
        match self.c.meta.types.def_of(t) {
            Some(def) => self.c.meta.type_def(def).self_type,
            None => t,
        }
    }

    pub fn default_of(&mut self, t: TypeId, span: Span) -> BExpr {
        if let Some(p) = self.prim(t) {
            let c = match p {
                super::convert::Prim::Float | super::convert::Prim::Double => ConstVal::Float(0.0),
                super::convert::Prim::Char => ConstVal::Char(0),
                super::convert::Prim::Decimal => ConstVal::Decimal("0".into()),
                super::convert::Prim::ULong => ConstVal::UInt(0),
                _ => ConstVal::Int(0),
            };
            return BExpr::new(BKind::Const(c), t, span);
        }
        if t == self.wk().boolean {
            return BExpr::new(BKind::Const(ConstVal::Bool(false)), t, span);
        }
        if self.is_reference_type(t) || self.nullable_inner(t).is_some() {
            return BExpr::new(BKind::Const(ConstVal::Null), t, span);
        }
        BExpr::new(BKind::Default, t, span)
    }

    fn bind_literal(&mut self, l: &Literal, span: Span) -> BExpr {
        let wk = self.wk().clone();
        match l {
            Literal::Int { value, suffix } => {
                let v = *value;
                let (c, t) = match suffix {
                    ast::IntSuffix::None if v <= i32::MAX as u64 => (ConstVal::Int(v as i64), wk.int32),
                    ast::IntSuffix::None if v <= u32::MAX as u64 => (ConstVal::Int(v as i64), wk.uint32),
                    ast::IntSuffix::None | ast::IntSuffix::L if v <= i64::MAX as u64 => (ConstVal::Int(v as i64), wk.int64),
                    ast::IntSuffix::U if v <= u32::MAX as u64 => (ConstVal::Int(v as i64), wk.uint32),
                    _ => (ConstVal::UInt(v), wk.uint64),
                };
                BExpr::new(BKind::Const(c), t, span)
            }
            Literal::Real { value, suffix } => {
                let t = if *suffix == ast::RealSuffix::F { wk.single } else { wk.double };
                let v = if *suffix == ast::RealSuffix::F { *value as f32 as f64 } else { *value };
                BExpr::new(BKind::Const(ConstVal::Float(v)), t, span)
            }
            Literal::Decimal(s) => BExpr::new(BKind::Const(ConstVal::Decimal(s.clone())), wk.decimal, span),
            Literal::Char(c) => BExpr::new(BKind::Const(ConstVal::Char(*c)), wk.char, span),
            Literal::String(s) => BExpr::new(BKind::Const(ConstVal::Str(s.clone())), wk.string, span),
            Literal::Bool(b) => BExpr::new(BKind::Const(ConstVal::Bool(*b)), wk.boolean, span),
            Literal::Null => BExpr::new(BKind::Const(ConstVal::Null), TypeId::NULL, span),
        }
    }

    pub fn bind_this(&mut self, span: Span) -> BExpr {
        match self.this_type {
            Some(t) if !self.func.is_static || self.func.index != 0 && !self.func_is_static_lambda() => BExpr::new(BKind::This, t, span),
            _ => {
                self.error(span, "CS0026", "Keyword 'this' is not valid in a static property, static method, or static field initializer");
                BExpr::error(span)
            }
        }
    }

    fn func_is_static_lambda(&self) -> bool {
        self.c.meta.method(self.method).is_static()
    }

    // ---- names ---------------------------------------------------------------------------

    /// A simple name: local, local function, member of an enclosing type, type or namespace.
    pub fn bind_name(&mut self, seg: &ast::NameSegment, span: Span) -> Bound {
        let name = seg.name.name.as_str();
        if name == ast::GLOBAL_QUALIFIER {
            return Bound::Namespace(String::new(), span);
        }
        if let Some(alias) = name.strip_suffix("::") {
            let ctx = self.ctx.clone();
            return match self.c.resolve_alias_qualifier(&ctx, alias, seg.name.span, true) {
                Some(ns) => Bound::Namespace(ns, span),
                None => Bound::Value(BExpr::error(span)),
            };
        }
        if seg.type_args.is_empty() {
            if let Some(l) = self.lookup_local(name) {
                self.use_local(l);
                if let Some(c) = self.const_locals.get(&l) {
                    let ty = self.locals[l.0 as usize].ty;
                    return Bound::Value(BExpr::new(BKind::Const(c.clone()), ty, span));
                }
                return Bound::Value(self.local_expr(l, span));
            }
            if self.used_before_declaration(name) {
                self.error(seg.name.span, "CS0841", format!("Cannot use local variable '{name}' before it is declared"));
                return Bound::Value(BExpr::error(span));
            }
        }
        if let Some(f) = self.lookup_local_function(name) {
            let type_args = self.resolve_type_args(&seg.type_args);
            let method = self.nested[f.0 as usize].method;
            let owner = self.c.meta.type_def(self.c.meta.method(method).owner).self_type;
            return Bound::Methods(MethodGroup {
                name: name.to_string(),
                methods: vec![(method, owner)],
                receiver: None,
                type_args,
                is_base: false,
                nested: Some(f),
                span,
                name_span: seg.name.span,
            });
        }
        if seg.type_args.is_empty() {
            if let Some(f) = self.primary_ctor_param_field(name) {
                return Bound::Value(self.field_access(f, span));
            }
        }
        if let Some(b) = self.bind_member_of_enclosing_types(seg, span, true) {
            return b;
        }
        let ts = ast::TypeSyntax { kind: ast::TypeSyntaxKind::Named(vec![seg.clone()]), span };
        let ctx = self.ctx.clone();
        if let Some(t) = self.c.try_resolve_type(&ctx, &ts) {
            return Bound::Type(t, span);
        }
        if seg.type_args.is_empty() {
            if let Some(ns) = self.c.lookup_namespace(self.ctx.scope, name) {
                return Bound::Namespace(ns, span);
            }
        }
        if let Some(b) = self.bind_static_using_member(seg, span) {
            return b;
        }
        if let Some(b) = self.bind_member_of_enclosing_types(seg, span, false) {
            return b;
        }
        self.error(seg.name.span, "CS0103", format!("The name '{name}' does not exist in the current context"));
        Bound::Value(BExpr::error(span))
    }

    fn primary_ctor_param_field(&self, name: &str) -> Option<FieldId> {
        let mut cur = self.ctx.type_def;
        while let Some(d) = cur {
            if let Some(&f) = self.c.primary_ctor_fields.get(&(d, name.to_string())) {
                return Some(f);
            }
            cur = self.c.meta.type_def(d).declaring_type;
        }
        None
    }

    /// A member of the current type or an enclosing type, found by simple name. With
    /// `accessible_only`, a field or property code here may not use (a base class's
    /// private one) is passed over, so the name can mean an outer type's member or a type
    /// (C# §12.5: member lookup keeps accessible members only); the caller retries without
    /// it to report CS0122 when nothing else has the name.
    fn bind_member_of_enclosing_types(&mut self, seg: &ast::NameSegment, span: Span, accessible_only: bool) -> Option<Bound> {
        let mut cur = self.ctx.type_def;
        while let Some(def) = cur {
            let self_type = self.c.meta.type_def(def).self_type;
            if let Some(member) = self.lookup_member(self_type, &seg.name.name) {
                if !self.is_member_accessible(&member) {
                    if accessible_only {
                        cur = self.c.meta.type_def(def).declaring_type;
                        continue;
                    }
                    self.report_inaccessible_member(&member, seg.name.span);
                }
                let is_current = Some(def) == self.ctx.type_def;
                return Some(self.bind_simple_member(member, seg, is_current, span));
            }
            cur = self.c.meta.type_def(def).declaring_type;
        }
        None
    }

    /// A member found by simple name: instance members get an implicit `this`.
    fn bind_simple_member(&mut self, member: Member, seg: &ast::NameSegment, in_current_type: bool, span: Span) -> Bound {
        let can_use_this = in_current_type && self.this_type.is_some() && !self.in_static_context();
        let this = |b: &mut Self| can_use_this.then(|| Box::new(b.bind_this(span)));
        match member {
            Member::Field(f, owner) => {
                let fd = self.c.meta.field(f).clone();
                if fd.is_static() {
                    return Bound::Value(self.static_field(f, owner, span));
                }
                match this(self) {
                    Some(r) => Bound::Value(self.instance_field(*r, f, owner, span)),
                    None => self.object_reference_required(&fd.name, span),
                }
            }
            Member::Property(p, owner) => {
                let is_static = self.c.meta.property(p).flags.has(Flags::STATIC);
                let receiver = if is_static { None } else { this(self) };
                if !is_static && receiver.is_none() {
                    let name = self.c.meta.property(p).name.clone();
                    return self.object_reference_required(&name, span);
                }
                Bound::Property(PropertyAccess { prop: p, owner, receiver, args: Vec::new(), is_base: false, span })
            }
            Member::Methods(methods) => {
                let type_args = self.resolve_type_args(&seg.type_args);
                let receiver = this(self);
                Bound::Methods(MethodGroup {
                    name: seg.name.name.clone(),
                    methods,
                    receiver,
                    type_args,
                    is_base: false,
                    nested: None,
                    span,
                    name_span: seg.name.span,
                })
            }
            Member::Type(declaring) => self.bind_nested_type(declaring, seg, span),
        }
    }

    fn object_reference_required(&mut self, name: &str, span: Span) -> Bound {
        let owner = self.ctx.type_def.map(|d| self.type_name(self.c.meta.type_def(d).self_type)).unwrap_or_default();
        self.error(span, "CS0120", format!("An object reference is required for the non-static field, method, or property '{owner}.{name}'"));
        Bound::Value(BExpr::error(span))
    }

    pub fn in_static_context(&self) -> bool {
        self.c.meta.method(self.method).is_static() && self.func.is_static
    }

    /// An invoked simple name that found a type: `using static System.Linq.Enumerable;`
    /// then `Range(0, 3)` calls the imported method, since a type cannot be invoked.
    pub fn invocable_static_import(&mut self, seg: &ast::NameSegment, span: Span) -> Option<Bound> {
        match self.bind_static_using_member(seg, span)? {
            b @ Bound::Methods(_) => Some(b),
            _ => None,
        }
    }

    /// A member imported by `using static`, with the type arguments written (`Empty<int>()`).
    /// Methods of one name imported from several types form one group, for overload
    /// resolution to choose.
    fn bind_static_using_member(&mut self, seg: &ast::NameSegment, span: Span) -> Option<Bound> {
        let mut s = Some(self.ctx.scope);
        while let Some(id) = s {
            let mut methods = Vec::new();
            for t in self.c.scope(id).static_usings.clone() {
                match self.lookup_member(t, &seg.name.name) {
                    // Extension methods are imported for `x.M()` only, not as simple names.
                    Some(Member::Methods(found)) => methods.extend(found.into_iter().filter(|&(m, _)| !self.c.meta.method(m).flags.has(Flags::EXTENSION))),
                    Some(other) if methods.is_empty() => return Some(self.bind_static_member(other, seg, span)),
                    _ => {}
                }
            }
            if !methods.is_empty() {
                return Some(self.bind_static_member(Member::Methods(methods), seg, span));
            }
            s = self.c.scope(id).parent;
        }
        None
    }

    pub fn resolve_type_args(&mut self, args: &[ast::TypeSyntax]) -> Vec<TypeId> {
        args.iter().map(|a| self.resolve_type(a)).collect()
    }

    pub fn static_field(&mut self, f: FieldId, owner: TypeId, span: Span) -> BExpr {
        let fd = self.c.meta.field(f).clone();
        let ty = self.member_type(fd.ty, owner);
        if let Some(c) = &fd.constant {
            let v = match c {
                crate::metadata::Constant::Int(i) => ConstVal::Int(*i),
                crate::metadata::Constant::UInt(u) => ConstVal::UInt(*u),
                crate::metadata::Constant::Float(x) => ConstVal::Float(*x),
                crate::metadata::Constant::Bool(b) => ConstVal::Bool(*b),
                crate::metadata::Constant::Char(ch) => ConstVal::Char(*ch),
                crate::metadata::Constant::String(s) => ConstVal::Str(s.clone()),
                crate::metadata::Constant::Decimal(s) => ConstVal::Decimal(s.clone()),
                crate::metadata::Constant::Null => ConstVal::Null,
            };
            return BExpr::new(BKind::Const(v), ty, span);
        }
        if fd.flags.has(Flags::CONST) {
            if let Some(c) = self.evaluate_const_field(f) {
                return BExpr::new(BKind::Const(c), ty, span);
            }
        }
        BExpr::new(BKind::Field { receiver: None, field: f, owner }, ty, span)
    }

    /// The value of a `const` field whose initializer has not been folded yet.
    fn evaluate_const_field(&mut self, f: FieldId) -> Option<ConstVal> {
        let src = self.c.field_src.get(&f)?.clone();
        let init = src.init?;
        let fd = self.c.meta.field(f).clone();
        let saved = (self.ctx.scope, self.file, self.ctx.type_def);
        (self.ctx.scope, self.file, self.ctx.type_def) = (src.scope, src.file, Some(fd.owner));
        self.ctx.file = src.file;
        // The initializer's context is its own, not that of the code reading the constant.
        let context = (self.checked, self.explicitly_unchecked);
        (self.checked, self.explicitly_unchecked) = (false, false);
        let v = self.bind_expr_to(&init, fd.ty);
        (self.checked, self.explicitly_unchecked) = context;
        (self.ctx.scope, self.file, self.ctx.type_def) = saved;
        self.ctx.file = self.file;
        match v.kind {
            BKind::Const(c) => {
                self.c.meta.fields[f.index()].constant = Some(const_to_metadata(&c));
                Some(c)
            }
            _ if v.is_error() => None,
            _ => {
                self.error(init.span, "CS0133", format!("The expression being assigned to '{}' must be constant", fd.name));
                None
            }
        }
    }

    pub fn instance_field(&mut self, receiver: BExpr, f: FieldId, owner: TypeId, span: Span) -> BExpr {
        let fd_ty = self.c.meta.field(f).ty;
        let ty = self.member_type(fd_ty, owner);
        BExpr::new(BKind::Field { receiver: Some(Box::new(receiver)), field: f, owner }, ty, span)
    }

    /// A member's declared type seen through a constructed owner (`T` of `List<int>` is `int`).
    pub fn member_type(&mut self, declared: TypeId, owner: TypeId) -> TypeId {
        match self.c.meta.types.kind(owner).clone() {
            TypeKind::Named { def, args } if !args.is_empty() => {
                let sub = crate::metadata::Substitution::for_type(def, &args);
                self.c.meta.types.subst(declared, &sub)
            }
            _ => declared,
        }
    }

    // ---- member access -------------------------------------------------------------------

    fn bind_member_access(&mut self, target: &ast::Expr, name: &ast::NameSegment, span: Span) -> Bound {
        if matches!(target.kind, ExprKind::Base) {
            return self.bind_base_member(name, span);
        }
        if let Some(b) = self.color_color(target, name, span) {
            return b;
        }
        let left = self.bind(target, None);
        match left {
            Bound::Namespace(ns, _) => self.bind_namespace_member(&ns, name, span),
            Bound::Type(t, _) => self.bind_type_member(t, name, span),
            Bound::Methods(g) => {
                self.error(g.span, "CS0119", format!("'{}' is a method, which is not valid in the given context", g.name));
                Bound::Value(BExpr::error(span))
            }
            other => {
                let recv = self.to_value(other, target.span);
                if recv.is_error() {
                    return Bound::Value(BExpr::error(span));
                }
                self.bind_instance_member(recv, name, span, false)
            }
        }
    }

    /// C#'s "Color Color" rule (§12.8.7.2): in `Color.Red`, where the simple name `Color`
    /// means a local, parameter, field or property of type `Color` and, as a type name,
    /// that type, a static member or nested type of the type is reached through the type
    /// (even where the value could not be read, as an instance field in a static method).
    fn color_color(&mut self, target: &ast::Expr, name: &ast::NameSegment, span: Span) -> Option<Bound> {
        let ExprKind::Name(seg) = &target.kind else { return None };
        if !seg.type_args.is_empty() {
            return None;
        }
        let ty = self.simple_name_value_type(&seg.name.name)?;
        let def = self.c.meta.types.def_of(ty)?;
        if self.c.meta.type_def(def).name != seg.name.name {
            return None;
        }
        let as_type = ast::TypeSyntax { kind: ast::TypeSyntaxKind::Named(vec![seg.clone()]), span: target.span };
        let ctx = self.ctx.clone();
        if self.c.try_resolve_type(&ctx, &as_type) != Some(ty) {
            return None;
        }
        let through_type = match self.lookup_member(ty, &name.name.name)? {
            Member::Field(f, _) => self.c.meta.field(f).is_static(),
            Member::Property(p, _) => self.c.meta.property(p).flags.has(Flags::STATIC),
            Member::Type(_) => true,
            Member::Methods(ms) => ms.iter().any(|&(m, _)| self.c.meta.method(m).is_static()),
        };
        through_type.then(|| self.bind_type_member(ty, name, span))
    }

    /// The type of the value a simple name means, found as [`Self::bind_name`] finds it
    /// but without binding it: a local or parameter, or a field or property of the
    /// current or an enclosing type. `None` when the name means something else.
    fn simple_name_value_type(&mut self, name: &str) -> Option<TypeId> {
        if let Some(l) = self.lookup_local(name) {
            return Some(self.locals[l.0 as usize].ty);
        }
        if self.lookup_local_function(name).is_some() {
            return None;
        }
        if let Some(f) = self.primary_ctor_param_field(name) {
            return Some(self.c.meta.field(f).ty);
        }
        let mut cur = self.ctx.type_def;
        while let Some(def) = cur {
            let self_type = self.c.meta.type_def(def).self_type;
            if let Some(member) = self.lookup_member(self_type, name) {
                return match member {
                    Member::Field(f, owner) => Some(self.member_type(self.c.meta.field(f).ty, owner)),
                    Member::Property(p, owner) => Some(self.member_type(self.c.meta.property(p).ty, owner)),
                    Member::Methods(_) | Member::Type(_) => None,
                };
            }
            cur = self.c.meta.type_def(def).declaring_type;
        }
        None
    }

    fn bind_namespace_member(&mut self, ns: &str, name: &ast::NameSegment, span: Span) -> Bound {
        let args = self.resolve_type_args(&name.type_args);
        let from_library = self.c.is_library(self.ctx.file);
        if let Some(d) = self.c.namespaces.find_visible_type(from_library, ns, &name.name.name, args.len()) {
            return Bound::Type(self.c.meta.types.named(d, &args), span);
        }
        let full = if ns.is_empty() { name.name.name.clone() } else { format!("{ns}.{}", name.name.name) };
        if self.c.namespaces.names.contains(&full) {
            return Bound::Namespace(full, span);
        }
        let shown = if ns.is_empty() { "<global namespace>".to_string() } else { ns.to_string() };
        self.error(
            name.name.span,
            "CS0234",
            format!("The type or namespace name '{}' does not exist in the namespace '{shown}' (are you missing an assembly reference?)", name.name.name),
        );
        Bound::Value(BExpr::error(span))
    }

    /// `Type.Member`: static members and nested types.
    fn bind_type_member(&mut self, t: TypeId, name: &ast::NameSegment, span: Span) -> Bound {
        match self.lookup_member(t, &name.name.name) {
            Some(Member::Methods(methods)) if self.is_type_param(t) => {
                let methods = methods.into_iter().map(|(m, owner)| (m, self.static_virtual_owner(m, owner, t))).collect();
                self.bind_static_member(Member::Methods(methods), name, span)
            }
            Some(Member::Property(p, owner)) if self.is_type_param(t) => {
                let owner = match self.c.meta.property(p).getter.or(self.c.meta.property(p).setter) {
                    Some(accessor) => self.static_virtual_owner(accessor, owner, t),
                    None => owner,
                };
                self.bind_static_member(Member::Property(p, owner), name, span)
            }
            Some(m) => self.bind_static_member(m, name, span),
            None => {
                let shown = self.c.meta.cs_short_name(t);
                self.error(name.name.span, "CS0117", format!("'{shown}' does not contain a definition for '{}'", name.name.name));
                Bound::Value(BExpr::error(span))
            }
        }
    }

    /// `T.M()` of a static abstract or virtual member of a non-generic interface: called on
    /// the type parameter, whose run-time type picks the implementation.
    fn static_virtual_owner(&self, m: MethodId, owner: TypeId, type_param: TypeId) -> TypeId {
        let md = self.c.meta.method(m);
        let generic_interface = !self.c.meta.type_def(md.owner).type_params.is_empty();
        if md.is_static_virtual() && self.is_interface_method(m) && !generic_interface {
            type_param
        } else {
            owner
        }
    }

    fn bind_static_member(&mut self, m: Member, name: &ast::NameSegment, span: Span) -> Bound {
        match m {
            Member::Field(f, owner) => {
                let fd = self.c.meta.field(f).clone();
                if !fd.is_static() {
                    return self.object_reference_required(&fd.name, span);
                }
                self.check_access(fd.owner, fd.flags, &fd.name, name.name.span);
                Bound::Value(self.static_field(f, owner, span))
            }
            Member::Property(p, owner) => {
                let pd = self.c.meta.property(p).clone();
                if !pd.flags.has(Flags::STATIC) {
                    return self.object_reference_required(&pd.name, span);
                }
                self.check_access(pd.owner, pd.flags, &pd.name, name.name.span);
                Bound::Property(PropertyAccess { prop: p, owner, receiver: None, args: Vec::new(), is_base: false, span })
            }
            Member::Methods(methods) => {
                let type_args = self.resolve_type_args(&name.type_args);
                Bound::Methods(MethodGroup {
                    name: name.name.name.clone(),
                    methods,
                    receiver: None,
                    type_args,
                    is_base: false,
                    nested: None,
                    span,
                    name_span: name.name.span,
                })
            }
            Member::Type(declaring) => self.bind_nested_type(declaring, name, span),
        }
    }

    /// A nested type of `declaring` named by `seg`, with `seg`'s type arguments after the
    /// declaring type's (`Outer.Inner<int>`, `Outer<string>.Inner`).
    fn bind_nested_type(&mut self, declaring: TypeId, seg: &ast::NameSegment, span: Span) -> Bound {
        let args = self.resolve_type_args(&seg.type_args);
        if args.contains(&TypeId::ERROR) {
            return Bound::Value(BExpr::error(span));
        }
        match self.c.find_nested_type(declaring, &seg.name.name, &args) {
            Some(t) => Bound::Type(t, span),
            None => {
                self.c.report_nested_type_arity(self.ctx.file, declaring, seg, args.len());
                Bound::Value(BExpr::error(span))
            }
        }
    }

    /// CS0122 for a method (or constructor) chosen among inaccessible candidates, named
    /// with its parameters as Roslyn names it (`'A.M(int)'`).
    pub fn check_method_access(&mut self, m: MethodId, creating: bool, span: Span) {
        if !self.is_method_accessible(m, creating) {
            let shown = self.c.member_display(m);
            self.error(span, "CS0122", format!("'{shown}' is inaccessible due to its protection level"));
        }
    }

    /// Whether code here may use a field or property found by lookup (methods are
    /// filtered by overload resolution instead).
    fn is_member_accessible(&self, member: &Member) -> bool {
        match *member {
            Member::Field(f, _) => {
                let fd = self.c.meta.field(f);
                self.is_accessible(fd.owner, fd.flags)
            }
            Member::Property(p, _) => {
                let pd = self.c.meta.property(p);
                self.is_accessible(pd.owner, pd.flags)
            }
            _ => true,
        }
    }

    fn report_inaccessible_member(&mut self, member: &Member, span: Span) {
        let (owner, flags, name) = match *member {
            Member::Field(f, _) => {
                let fd = self.c.meta.field(f);
                (fd.owner, fd.flags, fd.name.clone())
            }
            Member::Property(p, _) => {
                let pd = self.c.meta.property(p);
                (pd.owner, pd.flags, pd.name.clone())
            }
            _ => return,
        };
        self.check_access(owner, flags, &name, span);
    }

    pub fn check_access(&mut self, owner: crate::metadata::TypeDefId, flags: Flags, name: &str, span: Span) {
        if !self.is_accessible(owner, flags) {
            let o = self.type_name(self.c.meta.type_def(owner).self_type);
            self.error(span, "CS0122", format!("'{o}.{name}' is inaccessible due to its protection level"));
        }
    }

    /// `value.Member`: fields, properties and methods of the value's type (extension
    /// methods are added when the group is invoked).
    pub fn bind_instance_member(&mut self, recv: BExpr, name: &ast::NameSegment, span: Span, is_base: bool) -> Bound {
        if let Some(k) = self.nested_tuple_element(recv.ty, &name.name.name) {
            let rest = ast::NameSegment { name: ast::Ident { name: "Rest".into(), span: name.name.span }, type_args: Vec::new() };
            let Bound::Value(rest) = self.bind_instance_member(recv, &rest, span, false) else { return Bound::Value(BExpr::error(span)) };
            let inner = ast::NameSegment { name: ast::Ident { name: format!("Item{k}"), span: name.name.span }, type_args: Vec::new() };
            return self.bind_instance_member(rest, &inner, span, false);
        }
        let t = recv.ty;
        if t == TypeId::NULL {
            self.error(span, "CS0023", "Operator '.' cannot be applied to operand of type '<null>'");
            return Bound::Value(BExpr::error(span));
        }
        match self.lookup_member(t, &name.name.name) {
            Some(Member::Field(f, owner)) => {
                let fd = self.c.meta.field(f).clone();
                self.check_access(fd.owner, fd.flags, &fd.name, name.name.span);
                if fd.is_static() {
                    return self.static_via_instance(&fd.name, span);
                }
                Bound::Value(self.instance_field(recv, f, owner, span))
            }
            Some(Member::Property(p, owner)) => {
                let pd = self.c.meta.property(p).clone();
                self.check_access(pd.owner, pd.flags, &pd.name, name.name.span);
                if pd.flags.has(Flags::STATIC) {
                    return self.static_via_instance(&pd.name, span);
                }
                Bound::Property(PropertyAccess { prop: p, owner, receiver: Some(Box::new(recv)), args: Vec::new(), is_base, span })
            }
            Some(Member::Methods(methods)) => {
                let type_args = self.resolve_type_args(&name.type_args);
                Bound::Methods(MethodGroup {
                    name: name.name.name.clone(),
                    methods,
                    receiver: Some(Box::new(recv)),
                    type_args,
                    is_base,
                    nested: None,
                    span,
                    name_span: name.name.span,
                })
            }
            Some(Member::Type(_)) | None => {
                let type_args = self.resolve_type_args(&name.type_args);
                if !self.extension_methods(&name.name.name).is_empty() {
                    return Bound::Methods(MethodGroup {
                        name: name.name.name.clone(),
                        methods: Vec::new(),
                        receiver: Some(Box::new(recv)),
                        type_args,
                        is_base,
                        nested: None,
                        span,
                        name_span: name.name.span,
                    });
                }
                let shown = self.c.meta.cs_short_name(t);
                self.error(name.name.span, "CS1061", format!("'{shown}' does not contain a definition for '{}' and no accessible extension method '{}' accepting a first argument of type '{shown}' could be found (are you missing a using directive or an assembly reference?)", name.name.name, name.name.name));
                Bound::Value(BExpr::error(span))
            }
        }
    }

    fn static_via_instance(&mut self, name: &str, span: Span) -> Bound {
        self.error(span, "CS0176", format!("Member '{name}' cannot be accessed with an instance reference; qualify it with a type name instead"));
        Bound::Value(BExpr::error(span))
    }

    fn bind_base_member(&mut self, name: &ast::NameSegment, span: Span) -> Bound {
        let Some(def) = self.ctx.type_def else { return Bound::Value(BExpr::error(span)) };
        let Some(base) = self.c.meta.type_def(def).base else {
            self.error(span, "CS0175", "Use of keyword 'base' is not valid in this context");
            return Bound::Value(BExpr::error(span));
        };
        let this = self.bind_this(span);
        let recv = BExpr { ty: base, ..this };
        self.bind_instance_member(recv, name, span, true)
    }

    /// Reads a property through its getter (CS0154 if it has none).
    pub fn read_property(&mut self, p: PropertyAccess) -> BExpr {
        let pd = self.c.meta.property(p.prop).clone();
        let Some(getter) = pd.getter else {
            let owner = self.type_name(self.c.meta.type_def(pd.owner).self_type);
            self.error(
                p.span,
                "CS0154",
                format!("The property or indexer '{owner}.{}' cannot be used in this context because it lacks the get accessor", pd.name),
            );
            return BExpr::error(p.span);
        };
        let ty = self.member_type(pd.ty, p.owner);
        let (getter, owner) = if p.is_base { self.base_target(getter, p.owner) } else { self.struct_override(getter, p.owner, p.receiver.as_deref()) };
        let is_virtual = self.dispatch_is_virtual(getter, p.receiver.as_deref(), p.is_base);
        let receiver = p.receiver.map(|r| self.defensive_copy(r, getter));
        BExpr::new(BKind::Call { method: getter, owner, type_args: Vec::new(), receiver, args: p.args, is_virtual }, ty, p.span)
    }

    /// What `base.M()` runs: the implementation the base class has in `M`'s slot, i.e. the
    /// nearest override above the current class (or `M` itself if none).
    pub fn base_target(&mut self, m: MethodId, owner: TypeId) -> (MethodId, TypeId) {
        let Some(slot) = self.c.meta.method(m).vtable_slot else { return (m, owner) };
        let Some(here) = self.ctx.type_def else { return (m, owner) };
        let self_type = self.c.meta.type_def(here).self_type;
        let Some(base_def) = self.c.meta.base_type(self_type).and_then(|b| self.c.meta.types.def_of(b)) else {
            return (m, owner);
        };
        let Some(&target) = self.c.meta.type_def(base_def).vtable.get(slot as usize) else { return (m, owner) };
        let target_def = self.c.meta.method(target).owner;
        let target_owner = self.c.meta.supertypes(self_type).into_iter().find(|&t| self.c.meta.types.def_of(t) == Some(target_def));
        (target, target_owner.unwrap_or(owner))
    }

    /// `ItemN` (or the Nth element's name) past the seventh element of a long tuple: its
    /// position in `Rest`.
    fn nested_tuple_element(&self, t: TypeId, name: &str) -> Option<usize> {
        if !self.is_tuple_type(t) || self.c.meta.types.args_of(t).len() != 8 {
            return None;
        }
        let position = match self.c.meta.types.tuple_names(t).and_then(|names| names.iter().position(|n| n == name)) {
            Some(i) => i + 1,
            None => name.strip_prefix("Item")?.parse::<usize>().ok()?,
        };
        (position > 7).then(|| position - 7)
    }

    /// On a struct receiver a virtual method resolves at compile time to the struct's own
    /// override when it has one (what .NET's constrained call does).
    pub fn struct_override(&mut self, m: MethodId, owner: TypeId, receiver: Option<&BExpr>) -> (MethodId, TypeId) {
        let Some(r) = receiver else { return (m, owner) };
        let Some(slot) = self.c.meta.method(m).vtable_slot else { return (m, owner) };
        let Some(def) = self.c.meta.types.def_of(r.ty) else { return (m, owner) };
        if !self.c.meta.type_def(def).is_value_type() {
            return (m, owner);
        }
        match self.c.meta.type_def(def).vtable.get(slot as usize) {
            Some(&target) if self.c.meta.method(target).owner == def => (target, r.ty),
            _ => (m, owner),
        }
    }

    /// Whether a call of `m` on `receiver` dispatches on the run-time type. `base.M()` does
    /// not; neither does a method a struct declares itself, called on that struct (structs
    /// are sealed, and a `Nullable<T>` receiver is the bare value).
    pub fn dispatch_is_virtual(&self, m: MethodId, receiver: Option<&BExpr>, is_base: bool) -> bool {
        if is_base || self.c.meta.method(m).is_static() {
            return false;
        }
        if self.is_interface_method(m) {
            return true;
        }
        if self.c.meta.method(m).vtable_slot.is_none() {
            return false;
        }
        let owner = self.c.meta.method(m).owner;
        let declared_by_receiver_struct =
            receiver.is_some_and(|r| self.c.meta.types.def_of(r.ty) == Some(owner) && self.c.meta.type_def(owner).is_value_type());
        !declared_by_receiver_struct
    }

    pub fn is_interface_method(&self, m: MethodId) -> bool {
        self.c.meta.type_def(self.c.meta.method(m).owner).kind == TypeDefKind::Interface
    }

    // ---- element access ------------------------------------------------------------------

    fn bind_element_access(&mut self, target: &ast::Expr, args: &[ast::Arg], span: Span) -> Bound {
        let recv = if matches!(target.kind, ExprKind::Base) { self.bind_this(target.span) } else { self.bind_expr(target) };
        if recv.is_error() {
            return Bound::Value(BExpr::error(span));
        }
        if let [arg] = args {
            if arg.name.is_none() && arg.modifier == ast::ArgModifier::None {
                if let Some(b) = self.bind_index_or_range_access(recv.clone(), &arg.expr, span) {
                    return b;
                }
            }
        }
        if let Some((elem, rank)) = self.c.meta.types.array_elem(recv.ty) {
            if args.len() != rank as usize {
                self.error(span, "CS0022", format!("Wrong number of indices inside []; expected {rank}"));
                return Bound::Value(BExpr::error(span));
            }
            let int = self.wk().int32;
            let indices = args.iter().map(|a| self.bind_index(&a.expr, int)).collect();
            return Bound::Value(BExpr::new(BKind::Elem { array: Box::new(recv), indices }, elem, span));
        }
        // `base[i]`: the base class's indexers, called non-virtually on `this`.
        let is_base = matches!(target.kind, ExprKind::Base);
        let lookup_type = if is_base { self.c.meta.base_type(recv.ty).unwrap_or(recv.ty) } else { recv.ty };
        let indexers = self.lookup_indexers(lookup_type);
        if indexers.is_empty() {
            let shown = self.type_name(lookup_type);
            self.error(span, "CS0021", format!("Cannot apply indexing with [] to an expression of type '{shown}'"));
            return Bound::Value(BExpr::error(span));
        }
        match self.resolve_indexer(indexers, recv, args, span) {
            Some(p) => Bound::Property(PropertyAccess { is_base, ..p }),
            None => Bound::Value(BExpr::error(span)),
        }
    }

    fn bind_index(&mut self, e: &ast::Expr, int: TypeId) -> BExpr {
        let v = self.bind_expr(e);
        match self.prim(v.ty) {
            Some(p) if p.is_integral() && matches!(p, super::convert::Prim::Long | super::convert::Prim::ULong | super::convert::Prim::UInt) => v,
            _ => self.coerce(v, int),
        }
    }

    // ---- misc ----------------------------------------------------------------------------

    fn bind_as(&mut self, expr: &ast::Expr, ty: &ast::TypeSyntax, span: Span) -> BExpr {
        let t = self.resolve_type(ty);
        let v = self.bind_expr(expr);
        if t == TypeId::ERROR || v.is_error() {
            return BExpr::error(span);
        }
        if !(self.is_nullable_type(t) || (self.is_type_param(t) && self.is_reference_type(t))) {
            let shown = self.type_name(t);
            self.error(span, "CS0077", format!("The as operator must be used with a reference type or nullable type ('{shown}' is a non-nullable value type)"));
            return BExpr::error(span);
        }
        let operand = self.box_if_value(v);
        BExpr::new(BKind::As { operand: Box::new(operand), target: t }, t, span)
    }

    /// Boxes a value-typed expression to `object` (for type tests).
    pub fn box_if_value(&mut self, v: BExpr) -> BExpr {
        self.object_conversion(v, false)
    }

    /// A value-typed expression as an `object` only read at once (its `ToString` called),
    /// without a box: C# calls the value's own method (a constrained call).
    pub fn view_if_value(&mut self, v: BExpr) -> BExpr {
        self.object_conversion(v, true)
    }

    fn object_conversion(&mut self, v: BExpr, view: bool) -> BExpr {
        if self.c.meta.is_value_type(v.ty) || (self.is_type_param(v.ty) && !self.is_reference_type(v.ty)) {
            let obj = self.wk().object;
            let from = v.ty;
            let span = v.span;
            BExpr::new(BKind::Conv { kind: ConvKind::Box { from, view }, operand: Box::new(v) }, obj, span)
        } else {
            v
        }
    }

    fn bind_conditional(&mut self, cond: &ast::Expr, then: &ast::Expr, otherwise: &ast::Expr, target: Option<TypeId>, span: Span) -> BExpr {
        let c = self.bind_condition(cond);
        let a = self.bind(then, target);
        let b = self.bind(otherwise, target);
        // A method group takes the other branch's delegate type, or the target's:
        // `ok ? Handler : (Callback)null`, `Func<int> f = ok ? One : Two;`.
        let (a, b) = match (a, b) {
            (Bound::Methods(g), Bound::Methods(h)) => match target.filter(|&t| self.is_delegate_type(t)) {
                Some(t) => (self.convert_method_group(g, t, then.span), self.convert_method_group(h, t, otherwise.span)),
                None => (self.to_value(Bound::Methods(g), then.span), self.to_value(Bound::Methods(h), otherwise.span)),
            },
            (Bound::Methods(g), other) => {
                let other = self.to_value(other, otherwise.span);
                (self.method_group_beside(g, &other, target, then.span), other)
            }
            (other, Bound::Methods(h)) => {
                let other = self.to_value(other, then.span);
                (other.clone(), self.method_group_beside(h, &other, target, otherwise.span))
            }
            (a, b) => (self.to_value(a, then.span), self.to_value(b, otherwise.span)),
        };
        if a.is_error() || b.is_error() {
            return BExpr::error(span);
        }
        let ty = match self.best_common_type(&a, &b) {
            Some(t) => t,
            None => match target {
                Some(t) if self.conversion(&a, t).is_some_and(|c| c.implicit) && self.conversion(&b, t).is_some_and(|c| c.implicit) => t,
                _ => {
                    let (x, y) = (self.type_name(a.ty), self.type_name(b.ty));
                    self.error(
                        span,
                        "CS0173",
                        format!("Type of conditional expression cannot be determined because there is no implicit conversion between '{x}' and '{y}'"),
                    );
                    return BExpr::error(span);
                }
            },
        };
        let a = self.coerce(a, ty);
        let b = self.coerce(b, ty);
        BExpr::new(BKind::Cond { cond: Box::new(c), then: Box::new(a), otherwise: Box::new(b) }, ty, span)
    }

    /// A method group in one branch of `?:`, converted to the other branch's delegate type
    /// (else to the target's, when that is a delegate type).
    fn method_group_beside(&mut self, g: MethodGroup, other: &BExpr, target: Option<TypeId>, span: Span) -> BExpr {
        let delegate = if self.is_delegate_type(other.ty) { Some(other.ty) } else { target.filter(|&t| self.is_delegate_type(t)) };
        match delegate {
            Some(t) => self.convert_method_group(g, t, span),
            None => self.to_value(Bound::Methods(g), span),
        }
    }

    /// The type both branches of `?:` convert to (C#'s "best common type" of two).
    pub fn best_common_type(&mut self, a: &BExpr, b: &BExpr) -> Option<TypeId> {
        if a.ty == b.ty {
            return Some(a.ty);
        }
        if matches!(a.kind, BKind::Throw(_)) {
            return Some(b.ty);
        }
        if matches!(b.kind, BKind::Throw(_)) {
            return Some(a.ty);
        }
        let a_to_b = self.conversion(a, b.ty).is_some_and(|c| c.implicit);
        let b_to_a = self.conversion(b, a.ty).is_some_and(|c| c.implicit);
        match (a_to_b, b_to_a) {
            (true, false) => Some(b.ty),
            (false, true) => Some(a.ty),
            (true, true) => Some(if a.ty == TypeId::NULL { b.ty } else { a.ty }),
            (false, false) => {
                // `cond ? 1 : null` → int?
                if a.ty == TypeId::NULL && self.c.meta.is_value_type(b.ty) {
                    return Some(self.c.nullable_of(b.ty));
                }
                if b.ty == TypeId::NULL && self.c.meta.is_value_type(a.ty) {
                    return Some(self.c.nullable_of(a.ty));
                }
                None
            }
        }
    }

    fn bind_nameof(&mut self, inner: &ast::Expr, span: Span) -> BExpr {
        let name = match &inner.kind {
            ExprKind::Name(seg) => Some(seg.name.name.clone()),
            ExprKind::Member { name, .. } => Some(name.name.name.clone()),
            ExprKind::PredefinedType(_) => None,
            _ => None,
        };
        match name {
            Some(n) => {
                if let ExprKind::Name(seg) = &inner.kind {
                    let local = self.lookup_local(&seg.name.name);
                    self.unused_exempt.extend(local);
                    let known = local.is_some() || self.lookup_local_function(&seg.name.name).is_some();
                    if !known {
                        let _ = self.bind(inner, None);
                    }
                } else {
                    // `nameof(Type.InstanceMember)` is allowed: only existence is checked.
                    let before = self.c.diags.items.len();
                    let _ = self.bind(inner, None);
                    let mut i = 0;
                    self.c.diags.items.retain(|d| {
                        i += 1;
                        i <= before || d.code != "CS0120"
                    });
                }
                BExpr::new(BKind::Const(ConstVal::Str(n)), self.wk().string, span)
            }
            None => {
                self.error(inner.span, "CS8081", "Expression does not have a name.");
                BExpr::error(span)
            }
        }
    }

    fn bind_sizeof(&mut self, ty: &ast::TypeSyntax, span: Span) -> BExpr {
        let t = self.resolve_type(ty);
        use super::convert::Prim::*;
        let size = match self.prim(t) {
            Some(SByte | Byte) => 1,
            Some(Short | UShort | Char) => 2,
            Some(Int | UInt | Float) => 4,
            Some(Long | ULong | Double) => 8,
            Some(Decimal) => 16,
            None if t == self.wk().boolean => 1,
            None => {
                self.error(span, "CS0233", format!("'{}' does not have a predefined size", self.type_name(t)));
                return BExpr::error(span);
            }
        };
        BExpr::new(BKind::Const(ConstVal::Int(size)), self.wk().int32, span)
    }

    /// Checks a thrown value derives from `System.Exception` (CS0155).
    pub fn check_throwable(&mut self, ex: BExpr) -> BExpr {
        if ex.is_error() {
            return ex;
        }
        let exc = self.wk().exception;
        if ex.ty == TypeId::NULL || self.c.meta.is_subtype(ex.ty, exc) || self.is_type_param(ex.ty) {
            return ex;
        }
        self.error(ex.span, "CS0155", "The type caught or thrown must be derived from System.Exception");
        BExpr::error(ex.span)
    }

    /// `a?.b.c`, `a?[i]`, `a?.M()`: evaluates `a` once; the whole chain is null when it is.
    fn bind_conditional_access(&mut self, e: &ast::Expr) -> BExpr {
        let (receiver_syntax, rebuild) = split_conditional(e);
        let recv = self.bind_expr(receiver_syntax);
        if recv.is_error() {
            return BExpr::error(e.span);
        }
        let inner_ty = self.nullable_inner(recv.ty).unwrap_or(recv.ty);
        let temp = self.temp(inner_ty, recv.span);
        let placeholder_name = format!("<ca{}>", temp.0);
        self.push_scope();
        self.scopes_declare_alias(&placeholder_name, temp);
        let access_syntax = rebuild(ast::Expr {
            kind: ExprKind::Name(ast::NameSegment { name: ast::Ident { name: placeholder_name, span: receiver_syntax.span }, type_args: Vec::new() }),
            span: receiver_syntax.span,
        });
        let access = self.bind(&access_syntax, None);
        let access = if matches!(access, Bound::Methods(_)) { BExpr::error(e.span) } else { self.to_value(access, e.span) };
        self.pop_scope();
        if access.is_error() {
            return BExpr::error(e.span);
        }
        let ty = if access.ty == TypeId::VOID || self.is_nullable_type(access.ty) || self.is_type_param(access.ty) {
            access.ty
        } else {
            self.c.nullable_of(access.ty)
        };
        BExpr::new(BKind::ConditionalAccess { receiver: Box::new(recv), temp, access: Box::new(BExpr { ty, ..access }) }, ty, e.span)
    }

    /// Makes a temp visible under a synthetic name in the current scope.
    pub fn scopes_declare_alias(&mut self, name: &str, id: LocalId) {
        self.declare_alias(name, id);
    }
}

/// `x?.a.b(c)` → (`x`, a function rebuilding `<tmp>.a.b(c)` around a new receiver).
fn split_conditional(e: &ast::Expr) -> (&ast::Expr, Box<dyn Fn(ast::Expr) -> ast::Expr + '_>) {
    match &e.kind {
        ExprKind::Member { target, name, conditional: true } => {
            let name = name.clone();
            (
                target,
                Box::new(move |recv| ast::Expr { kind: ExprKind::Member { target: Box::new(recv), name: name.clone(), conditional: false }, span: e.span }),
            )
        }
        ExprKind::Index { target, args, conditional: true } => {
            let args = args.clone();
            (target, Box::new(move |recv| ast::Expr { kind: ExprKind::Index { target: Box::new(recv), args: args.clone(), conditional: false }, span: e.span }))
        }
        ExprKind::Member { target, name, conditional: false } => {
            let (r, inner) = split_conditional(target);
            let name = name.clone();
            (
                r,
                Box::new(move |recv| ast::Expr {
                    kind: ExprKind::Member { target: Box::new(inner(recv)), name: name.clone(), conditional: false },
                    span: e.span,
                }),
            )
        }
        ExprKind::Index { target, args, conditional: false } => {
            let (r, inner) = split_conditional(target);
            let args = args.clone();
            (
                r,
                Box::new(move |recv| ast::Expr {
                    kind: ExprKind::Index { target: Box::new(inner(recv)), args: args.clone(), conditional: false },
                    span: e.span,
                }),
            )
        }
        ExprKind::Call { target, args } => {
            let (r, inner) = split_conditional(target);
            let args = args.clone();
            (r, Box::new(move |recv| ast::Expr { kind: ExprKind::Call { target: Box::new(inner(recv)), args: args.clone() }, span: e.span }))
        }
        _ => (e, Box::new(|recv| recv)),
    }
}

/// Whether a member/call chain contains a `?.` or `?[`.
fn contains_conditional(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Member { conditional: true, .. } | ExprKind::Index { conditional: true, .. } => true,
        ExprKind::Member { target, .. } | ExprKind::Index { target, .. } | ExprKind::Call { target, .. } => contains_conditional(target),
        _ => false,
    }
}

fn is_conditional_call(e: &ast::Expr) -> bool {
    matches!(&e.kind, ExprKind::Member { .. } | ExprKind::Index { .. }) && contains_conditional(e) || matches!(&e.kind, ExprKind::Call { .. })
}

/// A bound constant as a metadata constant.
pub fn const_to_metadata(c: &ConstVal) -> crate::metadata::Constant {
    use crate::metadata::Constant;
    match c {
        ConstVal::Null => Constant::Null,
        ConstVal::Bool(b) => Constant::Bool(*b),
        ConstVal::Char(ch) => Constant::Char(*ch),
        ConstVal::Int(i) => Constant::Int(*i),
        ConstVal::UInt(u) => Constant::UInt(*u),
        ConstVal::Float(f) => Constant::Float(*f),
        ConstVal::Str(s) => Constant::String(s.clone()),
        ConstVal::Decimal(s) => Constant::Decimal(s.clone()),
    }
}

/// `ty` with each omitted type argument (`List<>`) replaced by `object`, or `None` when it
/// omits none.
fn with_omitted_args_filled(ty: &ast::TypeSyntax) -> Option<ast::TypeSyntax> {
    let ast::TypeSyntaxKind::Named(segs) = &ty.kind else { return None };
    let is_omitted = |a: &ast::TypeSyntax| matches!(&a.kind, ast::TypeSyntaxKind::Named(s) if s.is_empty());
    if !segs.iter().any(|s| s.type_args.iter().any(is_omitted)) {
        return None;
    }
    let mut filled = ty.clone();
    if let ast::TypeSyntaxKind::Named(segs) = &mut filled.kind {
        for arg in segs.iter_mut().flat_map(|s| s.type_args.iter_mut()).filter(|a| is_omitted(a)) {
            arg.kind = ast::TypeSyntaxKind::Predefined(ast::PredefinedType::Object);
        }
    }
    Some(filled)
}
