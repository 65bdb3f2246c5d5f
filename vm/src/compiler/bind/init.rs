//! Object creation: `new T(...)` with object and collection initializers, target-typed
//! `new()`, arrays and array initializers, collection expressions, tuples and
//! deconstruction, `with` expressions, and the members the compiler writes for records.

use super::convert::Prim;
use super::expr::Bound;
use super::{value_arg, MethodBinder};
use crate::compiler::bound::retyped;
use crate::compiler::bound::*;
use crate::compiler::sources::RecordMember;
use crate::metadata::{Flags, MethodKind, TypeDefId, TypeDefKind, TypeId};
use grammar::ast::{self, ExprKind};
use grammar::span::Span;

impl MethodBinder<'_> {
    pub fn bind_new(&mut self, ty: Option<&ast::TypeSyntax>, args: &[ast::Arg], init: Option<&ast::Initializer>, target: Option<TypeId>, span: Span) -> BExpr {
        let t = match ty {
            Some(ty) => self.resolve_type(ty),
            None => match target {
                Some(t) if t != TypeId::ERROR => t,
                _ => {
                    self.error(span, "CS8754", "There is no target type for 'new()'");
                    return BExpr::error(span);
                }
            },
        };
        if t == TypeId::ERROR {
            self.pre_bind_args(args);
            return BExpr::error(span);
        }
        let t = self.nullable_inner(t).unwrap_or(t);
        let created = match self.def_kind(t) {
            Some(TypeDefKind::Interface) | None if !self.is_type_param(t) => {
                let shown = self.type_name(t);
                self.error(span, "CS0144", format!("Cannot create an instance of the abstract type or interface '{shown}'"));
                return BExpr::error(span);
            }
            Some(TypeDefKind::Delegate) => return self.bind_delegate_creation(t, args, span),
            _ if self.is_type_param(t) => {
                if !self.c.meta.param_def(t).is_some_and(|p| p.has_new || p.is_struct) {
                    let shown = self.type_name(t);
                    self.error(
                        span,
                        "CS0304",
                        format!("Cannot create an instance of the variable type '{shown}' because it does not have the new() constraint"),
                    );
                    return BExpr::error(span);
                }
                BExpr::new(BKind::New { ctor: None, args: Vec::new() }, t, span)
            }
            _ => {
                let def = self.c.meta.types.def_of(t);
                if def.is_some_and(|d| self.c.meta.type_def(d).flags.has(Flags::ABSTRACT) || self.c.meta.type_def(d).flags.has(Flags::STATIC)) {
                    let shown = self.type_name(t);
                    let (code, msg) = if def.is_some_and(|d| self.c.meta.type_def(d).flags.has(Flags::STATIC)) {
                        ("CS0712", format!("Cannot create an instance of the static class '{shown}'"))
                    } else {
                        ("CS0144", format!("Cannot create an instance of the abstract type or interface '{shown}'"))
                    };
                    self.error(span, code, msg);
                    return BExpr::error(span);
                }
                let is_struct = self.c.meta.is_value_type(t);
                if is_struct && args.is_empty() {
                    BExpr::new(BKind::New { ctor: None, args: Vec::new() }, t, span)
                } else {
                    match self.bind_constructor_call(t, None, args, span) {
                        Some(e) => e,
                        None if self.c.diags.items.is_empty() || is_struct => BExpr::new(BKind::New { ctor: None, args: Vec::new() }, t, span),
                        None => return BExpr::error(span),
                    }
                }
            }
        };
        if created.is_error() {
            return created;
        }
        match init {
            Some(i) => self.apply_initializer(created, i, span),
            None => created,
        }
    }

    /// `new Action(Method)`.
    fn bind_delegate_creation(&mut self, t: TypeId, args: &[ast::Arg], span: Span) -> BExpr {
        if args.len() != 1 {
            self.error(span, "CS0149", "Method name expected");
            return BExpr::error(span);
        }
        self.bind_expr_to(&args[0].expr, t)
    }

    /// `{ A = 1, B = { ... } }` or `{ 1, 2 }` applied to a freshly created object.
    fn apply_initializer(&mut self, created: BExpr, init: &ast::Initializer, span: Span) -> BExpr {
        let ty = created.ty;
        let tmp = self.temp(ty, span);
        let mut stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(created) }, span)];
        let obj = self.local_expr(tmp, span);
        self.initialize_into(obj, init, &mut stmts);
        let value = self.local_expr(tmp, span);
        BExpr::new(BKind::Seq { stmts, value: Box::new(value) }, ty, span)
    }

    fn initialize_into(&mut self, obj: BExpr, init: &ast::Initializer, stmts: &mut Vec<BStmt>) {
        match init {
            ast::Initializer::Object(members) => {
                for m in members {
                    self.member_initializer(obj.clone(), m, stmts);
                }
            }
            ast::Initializer::Collection(items) => {
                for item in items {
                    let call = self.collection_add(obj.clone(), item);
                    stmts.push(BStmt::new(SKind::Expr(call), item.span));
                }
            }
        }
    }

    fn member_initializer(&mut self, obj: BExpr, m: &ast::MemberInit, stmts: &mut Vec<BStmt>) {
        let target = match &m.target {
            ast::InitTarget::Member(name) => {
                let seg = ast::NameSegment { name: name.clone(), type_args: Vec::new() };
                self.bind_instance_member(obj, &seg, name.span, false)
            }
            ast::InitTarget::Index(args) => {
                let indexers = self.lookup_indexers(obj.ty);
                match self.resolve_indexer(indexers, obj, args, m.span) {
                    Some(p) => Bound::Property(p),
                    None => return,
                }
            }
        };
        match &m.value {
            ast::InitValue::Expr(e) => {
                let lhs = match target {
                    Bound::Value(v) if matches!(v.kind, BKind::Field { .. }) => super::operators::LValue::Plain(v),
                    Bound::Property(p) => {
                        let ty = self.member_type(self.c.meta.property(p.prop).ty, p.owner);
                        self.allow_init_only(&p);
                        super::operators::LValue::Property(p, ty)
                    }
                    Bound::Value(v) if v.is_error() => return,
                    _ => {
                        self.error(m.span, "CS0131", "The left-hand side of an assignment must be a variable, property or indexer");
                        return;
                    }
                };
                let v = self.bind_expr_to(e, lhs.ty());
                let assign = self.assign_to(lhs, v, m.span);
                stmts.push(BStmt::new(SKind::Expr(assign), m.span));
            }
            ast::InitValue::Nested(inner) => {
                let current = self.to_value(target, m.span);
                if current.is_error() {
                    return;
                }
                let tmp = self.temp(current.ty, m.span);
                stmts.push(BStmt::new(SKind::Local { local: tmp, init: Some(current) }, m.span));
                let e = self.local_expr(tmp, m.span);
                self.initialize_into(e, inner, stmts);
            }
        }
    }

    /// Object initializers may set `init` accessors (nothing to check at run time).
    fn allow_init_only(&mut self, _p: &super::expr::PropertyAccess) {}

    /// `obj.Add(item)` (or `obj.Add(k, v)` for `{ k, v }`).
    fn collection_add(&mut self, obj: BExpr, item: &ast::Expr) -> BExpr {
        let span = item.span;
        let args: Vec<ast::Arg> = match &item.kind {
            ExprKind::InitializerList(parts) => parts.iter().map(|p| plain_arg(p.clone())).collect(),
            _ => vec![plain_arg(item.clone())],
        };
        let seg = ast::NameSegment { name: ast::Ident { name: "Add".into(), span }, type_args: Vec::new() };
        match self.bind_instance_member(obj.clone(), &seg, span, false) {
            Bound::Methods(g) => self.bind_group_call(g, &args, span),
            _ => {
                let shown = self.type_name(obj.ty);
                self.error(
                    span,
                    "CS1922",
                    format!("Cannot initialize type '{shown}' with a collection initializer because it does not implement 'System.Collections.IEnumerable'"),
                );
                BExpr::error(span)
            }
        }
    }

    // ---- arrays ----------------------------------------------------------------------------

    /// An array dimension: C# converts it to int, uint, long or ulong, whichever the
    /// expression converts to first; the wider ones reach the VM through a checked
    /// conversion to int (a negative or too large length is an OverflowException).
    fn bind_array_size(&mut self, size: &ast::Expr) -> BExpr {
        let bound = self.bind_expr(size);
        let int = self.wk().int32;
        // A uint, long or ulong length stays as it is: the array instruction checks it
        // against .NET's limits when it runs (OverflowException beyond int, as `newarr`).
        match self.prim(bound.ty) {
            Some(Prim::UInt | Prim::Long | Prim::ULong) => bound,
            _ => self.coerce(bound, int),
        }
    }

    /// `stackalloc T[n]`: the array, as a `Span<T>` over it (through `Span<T>`'s conversion
    /// from `T[]`; cs-lite has no stack memory, and a `var` gets `Span<T>`, not a pointer).
    pub fn bind_stackalloc(&mut self, array: &ast::Expr, span: Span) -> BExpr {
        let created = self.bind_expr(array);
        let Some((elem, 1)) = self.c.meta.types.array_elem(created.ty) else { return created };
        let Some(def) = self.c.namespaces.find_type("System", "Span", 1) else { return created };
        let span_ty = self.c.meta.types.named(def, &[elem]);
        match self.type_conversion(created.ty, span_ty) {
            Some(c) => {
                let converted = self.apply_conversion(created, c.kind, span_ty);
                BExpr { span, ..converted }
            }
            None => created,
        }
    }

    pub fn bind_new_array(
        &mut self,
        elem: Option<&ast::TypeSyntax>,
        sizes: &[ast::Expr],
        rank: u32,
        init: Option<&Vec<ast::Expr>>,
        target: Option<TypeId>,
        span: Span,
    ) -> BExpr {
        let elem_ty = match elem {
            Some(t) => self.resolve_type(t),
            None => match init {
                Some(items) => {
                    let vals: Vec<BExpr> = items.iter().map(|i| self.bind_expr(i)).collect();
                    match self.best_type_of(&vals, span) {
                        Some(t) => {
                            let arr = self.c.meta.types.array(t, 1);
                            let elems = vals.into_iter().map(|v| self.coerce(v, t)).collect();
                            return BExpr::new(BKind::ArrayLiteral { elems }, arr, span);
                        }
                        None => {
                            self.error(span, "CS0826", "No best type found for implicitly-typed array");
                            return BExpr::error(span);
                        }
                    }
                }
                None => return BExpr::error(span),
            },
        };
        if elem_ty == TypeId::ERROR {
            return BExpr::error(span);
        }
        let rank = if sizes.is_empty() { rank.max(1) } else { sizes.len() as u32 };
        let _ = target;
        let arr_ty = self.c.meta.types.array(elem_ty, rank as u8);
        if !sizes.is_empty() && init.is_none() {
            let sizes = sizes.iter().map(|s| self.bind_array_size(s)).collect();
            return BExpr::new(BKind::NewArray { sizes }, arr_ty, span);
        }
        let items = init.cloned().unwrap_or_default();
        if rank == 1 {
            let elems: Vec<BExpr> = items.iter().map(|i| self.bind_expr_to(i, elem_ty)).collect();
            if let Some(s) = sizes.first() {
                let n = self.bind_array_size(s);
                if let BKind::Const(ConstVal::Int(k)) = n.kind {
                    if k as usize != elems.len() {
                        self.error(span, "CS0847", format!("An array initializer of length '{k}' is expected"));
                    }
                }
            }
            return BExpr::new(BKind::ArrayLiteral { elems }, arr_ty, span);
        }
        self.multi_array_literal(arr_ty, elem_ty, rank, &items, span)
    }

    /// `new int[,] { {1, 2}, {3, 4} }`: creates the array, then stores each element.
    fn multi_array_literal(&mut self, arr_ty: TypeId, elem: TypeId, rank: u32, items: &[ast::Expr], span: Span) -> BExpr {
        let mut dims = Vec::new();
        let mut level: Vec<&ast::Expr> = items.iter().collect();
        dims.push(level.len());
        for _ in 1..rank {
            let next: Vec<&ast::Expr> = level
                .iter()
                .flat_map(|e| match &e.kind {
                    ExprKind::InitializerList(xs) => xs.iter().collect::<Vec<_>>(),
                    _ => Vec::new(),
                })
                .collect();
            dims.push(if level.is_empty() { 0 } else { next.len() / level.len() });
            level = next;
        }
        let int = self.wk().int32;
        let sizes = dims.iter().map(|&d| BExpr::new(BKind::Const(ConstVal::Int(d as i64)), int, span)).collect();
        let tmp = self.temp(arr_ty, span);
        let mut stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(BExpr::new(BKind::NewArray { sizes }, arr_ty, span)) }, span)];
        for (flat, e) in level.iter().enumerate() {
            let mut rem = flat;
            let mut idx = vec![0usize; dims.len()];
            for d in (0..dims.len()).rev() {
                idx[d] = rem % dims[d].max(1);
                rem /= dims[d].max(1);
            }
            let v = self.bind_expr_to(e, elem);
            let indices = idx.iter().map(|&i| BExpr::new(BKind::Const(ConstVal::Int(i as i64)), int, span)).collect();
            let arr = self.local_expr(tmp, span);
            let target = BExpr::new(BKind::Elem { array: Box::new(arr), indices }, elem, span);
            stmts.push(BStmt::new(SKind::Expr(BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(v) }, elem, span)), span));
        }
        let value = self.local_expr(tmp, span);
        BExpr::new(BKind::Seq { stmts, value: Box::new(value) }, arr_ty, span)
    }

    /// The best common type of several expressions (for `new[] { ... }`).
    fn best_type_of(&mut self, vals: &[BExpr], span: Span) -> Option<TypeId> {
        let mut best: Option<TypeId> = None;
        for v in vals {
            if v.ty == TypeId::NULL {
                continue;
            }
            best = Some(match best {
                None => v.ty,
                Some(b) => {
                    let probe = BExpr::new(BKind::Default, b, span);
                    self.best_common_type(&probe, v)?
                }
            });
        }
        best
    }

    /// `{ 1, 2 }` used directly as an array initializer (`int[] a = { 1, 2 };`).
    pub fn bind_initializer_list(&mut self, items: &[ast::Expr], target: Option<TypeId>, span: Span) -> BExpr {
        match target.and_then(|t| self.c.meta.types.array_elem(t).map(|(e, r)| (t, e, r))) {
            Some((t, elem, 1)) => {
                let elems = items.iter().map(|i| self.bind_expr_to(i, elem)).collect();
                BExpr::new(BKind::ArrayLiteral { elems }, t, span)
            }
            Some((t, elem, rank)) => self.multi_array_literal(t, elem, rank as u32, items, span),
            None => {
                self.error(span, "CS0622", "Can only use array initializer expressions to assign to array types. Try using a new expression instead.");
                BExpr::error(span)
            }
        }
    }

    /// `[1, 2, ..xs]` for an array, `List<T>`, or `IEnumerable<T>`-like target.
    pub fn bind_collection_expression(&mut self, elems: &[ast::CollectionElement], target: Option<TypeId>, span: Span) -> BExpr {
        let Some(t) = target.filter(|&t| t != TypeId::ERROR) else {
            self.error(span, "CS9176", "There is no target type for the collection expression.");
            return BExpr::error(span);
        };
        let (elem, build_list) = if let Some((e, 1)) = self.c.meta.types.array_elem(t) {
            (e, false)
        } else if let Some(e) = self.collection_element_type(t) {
            (e, true)
        } else {
            let shown = self.type_name(t);
            self.error(span, "CS9174", format!("Cannot initialize type '{shown}' with a collection expression because the type is not constructible."));
            return BExpr::error(span);
        };
        let list_def = self.wk().list;
        let list_ty = self.c.meta.types.named(list_def, &[elem]);
        let Some(created) = self.bind_constructor_call(list_ty, None, &[], span) else { return BExpr::error(span) };
        let tmp = self.temp(list_ty, span);
        let mut stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(created) }, span)];
        for el in elems {
            let (name, e) = match el {
                ast::CollectionElement::Expr(e) => ("Add", e),
                ast::CollectionElement::Spread(e) => ("AddRange", e),
            };
            let obj = self.local_expr(tmp, span);
            let seg = ast::NameSegment { name: ast::Ident { name: name.into(), span: e.span }, type_args: Vec::new() };
            if let Bound::Methods(g) = self.bind_instance_member(obj, &seg, e.span, false) {
                let call = self.bind_group_call(g, &[plain_arg(e.clone())], e.span);
                stmts.push(BStmt::new(SKind::Expr(call), e.span));
            }
        }
        let list = self.local_expr(tmp, span);
        let value = if build_list {
            if self.c.meta.is_subtype(list_ty, t) {
                retyped(list, t)
            } else {
                list
            }
        } else {
            self.call_member_no_args(list, "ToArray", span).unwrap_or_else(|| BExpr::error(span))
        };
        let ty = value.ty;
        BExpr::new(BKind::Seq { stmts, value: Box::new(value) }, ty, span)
    }

    /// The element type of a collection a collection expression can build: `List<T>`
    /// itself or an interface `List<T>` implements.
    pub fn collection_element_type(&mut self, t: TypeId) -> Option<TypeId> {
        let list_def = self.wk().list;
        if self.c.meta.types.def_of(t) == Some(list_def) {
            return self.c.meta.types.args_of(t).first().copied();
        }
        if self.def_kind(t) == Some(TypeDefKind::Interface) {
            let e = self.c.meta.types.args_of(t).first().copied()?;
            let list = self.c.meta.types.named(list_def, &[e]);
            if self.c.meta.is_subtype(list, t) {
                return Some(e);
            }
        }
        None
    }

    // ---- tuples and deconstruction ---------------------------------------------------------

    pub fn bind_tuple_literal(&mut self, args: &[ast::Arg], target: Option<TypeId>, span: Span) -> BExpr {
        let targets: Vec<Option<TypeId>> = match target {
            Some(t) if self.is_tuple_type(t) => self.c.meta.types.args_of(t).iter().map(|&x| Some(x)).collect(),
            _ => vec![None; args.len()],
        };
        let vals: Vec<BExpr> = args
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let b = self.bind(&a.expr, targets.get(i).copied().flatten());
                self.to_value(b, a.expr.span)
            })
            .collect();
        if vals.iter().any(BExpr::is_error) {
            return BExpr::error(span);
        }
        let types: Vec<TypeId> = vals.iter().enumerate().map(|(i, v)| targets.get(i).copied().flatten().unwrap_or(v.ty)).collect();
        if types.contains(&TypeId::NULL) {
            self.error(span, "CS8135", "Tuple literal cannot be converted to the target type.");
            return BExpr::error(span);
        }
        let file = self.file;
        let tuple_ty = self.c.tuple_type(&types, span, file, true);
        if tuple_ty == TypeId::ERROR {
            return BExpr::error(span);
        }
        let vals = vals.into_iter().zip(&types).map(|(v, &t)| self.coerce(v, t)).collect::<Vec<_>>();
        let new = self.new_value_tuple(vals, span);
        // `(Id: 7, Name: "Ann")` names its elements; a target type's names win otherwise.
        let names: Vec<String> = args.iter().map(|a| a.name.as_ref().map_or(String::new(), |n| n.name.clone())).collect();
        let named = match target {
            Some(t) if self.c.meta.types.tuple_names(t).is_some() => t,
            _ => self.c.meta.types.named_tuple(tuple_ty, &names),
        };
        retyped(new, named)
    }

    /// `new { Name = x, y.Age }`: an `AnonymousType<T1..Tn>` from the standard library,
    /// seen by the compiler with the property names (as tuple element names are), which
    /// also go to the object as a string for `ToString`.
    pub fn bind_new_anonymous(&mut self, members: &[ast::AnonymousMember], span: Span) -> BExpr {
        let mut names = Vec::new();
        let mut values = Vec::new();
        for m in members {
            let value = self.bind_expr(&m.value);
            let name = match (&m.name, &m.value.kind) {
                (Some(n), _) => n.name.clone(),
                (None, ExprKind::Name(seg)) => seg.name.name.clone(),
                (None, ExprKind::Member { name, .. }) => name.name.name.clone(),
                _ => {
                    self.error(m.value.span, "CS0746", "Invalid anonymous type member declarator. Anonymous type members must be declared with a member assignment, simple name or member access.");
                    return BExpr::error(span);
                }
            };
            if value.ty == TypeId::NULL || value.ty == TypeId::VOID {
                let shown = if value.ty == TypeId::NULL { "<null>" } else { "void" };
                self.error(m.value.span, "CS0828", format!("Cannot assign '{shown}' to anonymous type property"));
                return BExpr::error(span);
            }
            if names.contains(&name) {
                self.error(m.value.span, "CS0833", "An anonymous type cannot have multiple properties with the same name");
                return BExpr::error(span);
            }
            names.push(name);
            values.push(value);
        }
        if values.iter().any(BExpr::is_error) {
            return BExpr::error(span);
        }
        let Some(def) = self.c.namespaces.find_type("System.Runtime.CompilerServices", "AnonymousType", values.len()) else {
            self.error(span, "CS8000", format!("Anonymous types with {} properties are not supported by cs-lite", values.len()));
            return BExpr::error(span);
        };
        let types: Vec<TypeId> = values.iter().map(|v| v.ty).collect();
        let ty = self.c.meta.types.named(def, &types);
        let string = self.wk().string;
        let mut args = vec![value_arg(BExpr::new(BKind::Const(ConstVal::Str(names.join(","))), string, span))];
        args.extend(values.into_iter().map(value_arg));
        let ctor = self.c.meta.type_def(def).methods.iter().copied().find(|&m| self.c.meta.method(m).kind == MethodKind::Constructor);
        let new = BExpr::new(BKind::New { ctor, args }, ty, span);
        let named = self.c.meta.types.named_tuple(ty, &names);
        retyped(new, named)
    }

    /// `new ValueTuple<...>(values)`, nesting values past the seventh in `Rest`.
    fn new_value_tuple(&mut self, mut vals: Vec<BExpr>, span: Span) -> BExpr {
        if vals.len() > 7 {
            let rest = vals.split_off(7);
            let rest = self.new_value_tuple(rest, span);
            vals.push(rest);
        }
        let types: Vec<TypeId> = vals.iter().map(|v| v.ty).collect();
        let ty = self.c.value_tuple(&types);
        let def = self.c.meta.types.def_of(ty);
        let ctor = def.and_then(|d| {
            self.c
                .meta
                .type_def(d)
                .methods
                .iter()
                .copied()
                .find(|&m| self.c.meta.method(m).kind == MethodKind::Constructor && self.c.meta.method(m).params.len() == types.len())
        });
        BExpr::new(BKind::New { ctor, args: vals.into_iter().map(value_arg).collect() }, ty, span)
    }

    pub fn is_tuple_type(&self, t: TypeId) -> bool {
        self.c.meta.types.def_of(t).is_some_and(|d| {
            let def = self.c.meta.type_def(d);
            def.name == "ValueTuple" && def.namespace == "System"
        })
    }

    /// Element `i` of `n` of a value being deconstructed: a tuple field, or the `i`th
    /// `out` of its `Deconstruct` method (bound through temporaries).
    pub fn positional_element(&mut self, value: BExpr, i: usize, n: usize, span: Span) -> Option<BExpr> {
        if self.is_tuple_type(value.ty) && i >= 7 && self.c.meta.types.args_of(value.ty).len() == 8 {
            let rest = self.positional_element(value, 7, 8, span)?;
            return self.positional_element(rest, i - 7, n - 7, span);
        }
        if self.is_tuple_type(value.ty) {
            let name = if i == 7 { "Rest".to_string() } else { format!("Item{}", i + 1) };
            let def = self.c.meta.types.def_of(value.ty)?;
            let f = self.c.meta.type_def(def).fields.iter().copied().find(|&f| self.c.meta.field(f).name == name)?;
            let owner = value.ty;
            return Some(self.instance_field(value, f, owner, span));
        }
        let decon = self.deconstruct_method(value.ty, n)?;
        let _ = decon;
        let seg = ast::NameSegment { name: ast::Ident { name: "Deconstruct".into(), span }, type_args: Vec::new() };
        let Bound::Methods(g) = self.bind_instance_member(value.clone(), &seg, span, false) else { return None };
        let temps: Vec<LocalId> = (0..n).map(|_| self.temp(TypeId::ERROR, span)).collect();
        let md = self.c.meta.method(g.methods.first()?.0).clone();
        for (k, t) in temps.iter().enumerate() {
            let pt = self.member_type(md.params.get(k)?.ty, g.methods[0].1);
            self.locals[t.0 as usize].ty = pt;
            self.mark_address_taken(*t);
        }
        let args: Vec<BArg> = temps.iter().map(|&t| BArg { expr: self.local_expr(t, span), kind: ArgKind::Ref }).collect();
        let call = BExpr::new(
            BKind::Call {
                method: g.methods[0].0,
                owner: g.methods[0].1,
                type_args: Vec::new(),
                receiver: g.receiver,
                args,
                is_virtual: md.vtable_slot.is_some(),
            },
            TypeId::VOID,
            span,
        );
        let result = self.local_expr(temps[i], span);
        let ty = result.ty;
        Some(BExpr::new(BKind::Seq { stmts: vec![BStmt::new(SKind::Expr(call), span)], value: Box::new(result) }, ty, span))
    }

    fn deconstruct_method(&mut self, t: TypeId, n: usize) -> Option<crate::metadata::MethodId> {
        match self.lookup_member(t, "Deconstruct")? {
            super::lookup::Member::Methods(ms) => ms.into_iter().map(|(m, _)| m).find(|&m| self.c.meta.method(m).params.len() == n),
            _ => None,
        }
    }

    /// `var (a, b) = value;` / `(x, y) = value;` / `(a, b) = (b, a);`.
    pub fn try_bind_deconstruction(&mut self, target: &ast::Expr, value: &ast::Expr, span: Span) -> Option<BExpr> {
        match &target.kind {
            ExprKind::Declaration { designation: ast::Designation::Parenthesized(parts, _), ty } => {
                let v = self.bind_expr(value);
                if v.is_error() {
                    return Some(BExpr::error(span));
                }
                let explicit = if super::call::is_var(ty) { None } else { Some(self.resolve_type(ty)) };
                let _ = explicit;
                let stmts = self.deconstruct_into_designations(parts, v, span);
                Some(self.void_seq(stmts, span))
            }
            ExprKind::Tuple(elems) => {
                let v = self.bind_expr(value);
                if v.is_error() {
                    return Some(BExpr::error(span));
                }
                let stmts = self.deconstruct_into_targets(elems, v, span);
                Some(self.void_seq(stmts, span))
            }
            _ => None,
        }
    }

    fn void_seq(&mut self, stmts: Vec<BStmt>, span: Span) -> BExpr {
        let unit = BExpr::new(BKind::Const(ConstVal::Null), TypeId::VOID, span);
        BExpr::new(BKind::Seq { stmts, value: Box::new(unit) }, TypeId::VOID, span)
    }

    /// Declares and assigns the variables of `(a, (b, c))` from a value.
    pub fn deconstruct_into_designations(&mut self, parts: &[ast::Designation], value: BExpr, span: Span) -> Vec<BStmt> {
        let tmp = self.temp(value.ty, span);
        let mut stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(value) }, span)];
        for (i, d) in parts.iter().enumerate() {
            let src = self.local_expr(tmp, span);
            let Some(elem) = self.positional_element(src, i, parts.len(), span) else {
                let shown = self.type_name(self.locals[tmp.0 as usize].ty);
                self.error(
                    span,
                    "CS8129",
                    format!(
                        "No suitable 'Deconstruct' instance or extension method was found for type '{shown}', with {} out parameters and a void return type.",
                        parts.len()
                    ),
                );
                return stmts;
            };
            match d {
                ast::Designation::Single(id) => {
                    let l = self.declare_local(&id.name, elem.ty, LocalKind::User, id.span);
                    stmts.push(BStmt::new(SKind::Local { local: l, init: Some(elem) }, id.span));
                }
                ast::Designation::Discard(_) => stmts.push(BStmt::new(SKind::Expr(elem), span)),
                ast::Designation::Parenthesized(inner, s) => stmts.extend(self.deconstruct_into_designations(inner, elem, *s)),
            }
        }
        stmts
    }

    /// `(x, y) = value`: evaluates all elements first, then assigns (so swaps work).
    fn deconstruct_into_targets(&mut self, targets: &[ast::Arg], value: BExpr, span: Span) -> Vec<BStmt> {
        let tmp = self.temp(value.ty, span);
        let mut stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(value) }, span)];
        let mut temps = Vec::new();
        for i in 0..targets.len() {
            let src = self.local_expr(tmp, span);
            let Some(elem) = self.positional_element(src, i, targets.len(), span) else { return stmts };
            let t = self.temp(elem.ty, span);
            stmts.push(BStmt::new(SKind::Local { local: t, init: Some(elem) }, span));
            temps.push(t);
        }
        for (a, t) in targets.iter().zip(temps) {
            let v = self.local_expr(t, span);
            match &a.expr.kind {
                ExprKind::Declaration { designation: ast::Designation::Single(id), .. } => {
                    let l = self.declare_local(&id.name, v.ty, LocalKind::User, id.span);
                    stmts.push(BStmt::new(SKind::Local { local: l, init: Some(v) }, id.span));
                }
                ExprKind::Name(seg) if seg.name.name == "_" && self.lookup_local("_").is_none() => {}
                _ => {
                    if let Some(lhs) = self.bind_lvalue(&a.expr) {
                        let ty = lhs.ty();
                        let v = self.coerce(v, ty);
                        let assign = self.assign_to(lhs, v, a.span);
                        stmts.push(BStmt::new(SKind::Expr(assign), a.span));
                    }
                }
            }
        }
        stmts
    }

    /// `foreach (var (a, b) in xs)`: the iteration value deconstructed into new locals.
    pub fn bind_deconstruction_declaration(&mut self, pattern: &ast::Expr, current: BExpr, span: Span) -> Vec<BStmt> {
        match &pattern.kind {
            ExprKind::Declaration { designation: ast::Designation::Parenthesized(parts, _), .. } => self.deconstruct_into_designations(parts, current, span),
            ExprKind::Tuple(elems) => {
                let parts: Vec<ast::Designation> = elems
                    .iter()
                    .map(|a| match &a.expr.kind {
                        ExprKind::Declaration { designation, .. } => designation.clone(),
                        ExprKind::Name(seg) => ast::Designation::Single(seg.name.clone()),
                        _ => ast::Designation::Discard(a.span),
                    })
                    .collect();
                self.deconstruct_into_designations(&parts, current, span)
            }
            _ => Vec::new(),
        }
    }

    // ---- records -----------------------------------------------------------------------------

    /// `r with { X = 1 }`: a memberwise copy with some members set.
    pub fn bind_with(&mut self, expr: &ast::Expr, init: &[ast::MemberInit], span: Span) -> BExpr {
        let v = self.bind_expr(expr);
        if v.is_error() {
            return v;
        }
        let copy = match self.c.meta.types.def_of(v.ty) {
            Some(d) if self.c.meta.type_def(d).flags.has(Flags::RECORD) || self.c.meta.is_value_type(v.ty) => self.shallow_clone(v, span),
            _ => {
                let shown = self.type_name(v.ty);
                self.error(span, "CS8858", format!("The receiver type '{shown}' is not a valid record type and is not a struct type."));
                return BExpr::error(span);
            }
        };
        self.apply_initializer(copy, &ast::Initializer::Object(init.to_vec()), span)
    }

    /// A shallow copy of a record or struct (`MemberwiseClone`).
    fn shallow_clone(&mut self, v: BExpr, span: Span) -> BExpr {
        let ty = v.ty;
        let obj = self.wk().object;
        let Some(def) = self.c.meta.types.def_of(obj) else { return BExpr::error(span) };
        let m = self.c.meta.type_def(def).methods.iter().copied().find(|&m| self.c.meta.method(m).name == "MemberwiseClone");
        let Some(m) = m else { return BExpr::error(span) };
        let recv = self.box_if_value(v);
        let call = BExpr::new(
            BKind::Call { method: m, owner: obj, type_args: Vec::new(), receiver: Some(Box::new(recv)), args: Vec::new(), is_virtual: false },
            obj,
            span,
        );
        let kind = if self.c.meta.is_value_type(ty) { ConvKind::Unbox } else { ConvKind::Cast };
        BExpr::new(BKind::Conv { kind, operand: Box::new(call) }, ty, span)
    }

    /// The body of a compiler-generated record member.
    pub fn bind_record_member(&mut self, owner: TypeDefId, kind: RecordMember, params: &[LocalId], span: Span) -> BStmt {
        let self_type = self.c.meta.type_def(owner).self_type;
        let props = self.record_properties(owner);
        let string = self.wk().string;
        let boolean = self.wk().boolean;
        let body = match kind {
            RecordMember::ToString => {
                let name = self.c.meta.type_def(owner).name.clone();
                let mut parts = vec![BExpr::new(BKind::Const(ConstVal::Str(format!("{name} {{ "))), string, span)];
                for (i, (pname, f)) in props.iter().enumerate() {
                    let sep = if i == 0 { "" } else { ", " };
                    parts.push(BExpr::new(BKind::Const(ConstVal::Str(format!("{sep}{pname} = "))), string, span));
                    let fe = self.field_access(*f, span);
                    parts.push(self.to_string_part(fe));
                }
                let tail = if props.is_empty() { "}" } else { " }" };
                parts.push(BExpr::new(BKind::Const(ConstVal::Str(tail.into())), string, span));
                BStmt::new(SKind::Return(Some(BExpr::new(BKind::Concat(parts), string, span))), span)
            }
            RecordMember::EqualsObject => {
                let Some(&other) = params.first() else { return BStmt::new(SKind::Empty, span) };
                let o = self.local_expr(other, span);
                let is_same_type = self.same_runtime_type(o.clone(), span);
                let mut test = is_same_type;
                for (_, f) in &props {
                    let mine = self.field_access(*f, span);
                    let cast = BExpr::new(
                        BKind::Conv { kind: if self.c.meta.is_value_type(self_type) { ConvKind::Unbox } else { ConvKind::Cast }, operand: Box::new(o.clone()) },
                        self_type,
                        span,
                    );
                    let owner = self_type;
                    let theirs = self.instance_field(cast, *f, owner, span);
                    let eq = self.field_equals(mine, theirs, span);
                    test = BExpr::new(BKind::AndAlso(Box::new(test), Box::new(eq)), boolean, span);
                }
                BStmt::new(SKind::Return(Some(test)), span)
            }
            RecordMember::GetHashCode => {
                let int = self.wk().int32;
                let mut h = BExpr::new(BKind::Const(ConstVal::Int(17)), int, span);
                for (_, f) in &props {
                    let fe = self.field_access(*f, span);
                    let boxed = self.box_if_value(fe);
                    let obj = self.wk().object;
                    let fh = self.call_string_helper("HashOf", vec![retyped(boxed, obj)], span);
                    let times = BExpr::new(
                        BKind::Binary {
                            op: BBinOp::Mul { checked: false },
                            left: Box::new(h),
                            right: Box::new(BExpr::new(BKind::Const(ConstVal::Int(31)), int, span)),
                        },
                        int,
                        span,
                    );
                    h = BExpr::new(BKind::Binary { op: BBinOp::Add { checked: false }, left: Box::new(times), right: Box::new(fh) }, int, span);
                }
                BStmt::new(SKind::Return(Some(h)), span)
            }
            RecordMember::OpEquality | RecordMember::OpInequality => {
                let (Some(&a), Some(&b)) = (params.first(), params.get(1)) else { return BStmt::new(SKind::Empty, span) };
                let (ea, eb) = (self.local_expr(a, span), self.local_expr(b, span));
                let obj = self.wk().object;
                let (ba, bb) = (self.box_if_value(ea), self.box_if_value(eb));
                let eq = self.call_string_helper("EqualsOf", vec![retyped(ba, obj), retyped(bb, obj)], span);
                let v = if kind == RecordMember::OpEquality { eq } else { BExpr::new(BKind::Unary { op: BUnOp::Not, operand: Box::new(eq) }, boolean, span) };
                BStmt::new(SKind::Return(Some(v)), span)
            }
            RecordMember::Deconstruct => {
                let mut stmts = Vec::new();
                for (&param, (_, f)) in params.iter().zip(&props) {
                    let target = self.local_expr(param, span);
                    let value = self.field_access(*f, span);
                    let ty = value.ty;
                    stmts.push(BStmt::new(SKind::Expr(BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(value) }, ty, span)), span));
                }
                BStmt::new(SKind::Block { stmts, locals: Vec::new() }, span)
            }
        };
        BStmt::new(SKind::Block { stmts: vec![body], locals: Vec::new() }, span)
    }

    /// `other is T && other.GetType() == this.GetType()`: records are equal only to records
    /// of the same run-time type (C#'s `EqualityContract`).
    fn same_runtime_type(&mut self, other: BExpr, span: Span) -> BExpr {
        let boolean = self.wk().boolean;
        let Some(here) = self.ctx.type_def else { return BExpr::error(span) };
        let self_type = self.c.meta.type_def(here).self_type;
        let is_instance = BExpr::new(BKind::TypeTest { operand: Box::new(other.clone()), target: self_type }, boolean, span);
        let obj = self.wk().object;
        let get_type = self.method_named(obj, "GetType", 0);
        let Some(get_type) = get_type else { return is_instance };
        let ty = self.wk().type_;
        let this = self.bind_this(span);
        let this = self.box_if_value(this);
        let mine = BExpr::new(
            BKind::Call {
                method: get_type,
                owner: obj,
                type_args: Vec::new(),
                receiver: Some(Box::new(retyped(this, obj))),
                args: Vec::new(),
                is_virtual: false,
            },
            ty,
            span,
        );
        let theirs = BExpr::new(
            BKind::Call {
                method: get_type,
                owner: obj,
                type_args: Vec::new(),
                receiver: Some(Box::new(retyped(other, obj))),
                args: Vec::new(),
                is_virtual: false,
            },
            ty,
            span,
        );
        let same = BExpr::new(BKind::Binary { op: BBinOp::Eq, left: Box::new(mine), right: Box::new(theirs) }, boolean, span);
        BExpr::new(BKind::AndAlso(Box::new(is_instance), Box::new(same)), boolean, span)
    }

    /// `Equals` of two field values (via `object.Equals(a, b)` semantics).
    fn field_equals(&mut self, a: BExpr, b: BExpr, span: Span) -> BExpr {
        let obj = self.wk().object;
        let a = self.box_if_value(a);
        let b = self.box_if_value(b);
        self.call_string_helper("EqualsOf", vec![retyped(a, obj), retyped(b, obj)], span)
    }

    /// A record's printable members: its public instance properties' backing fields, in
    /// declaration order.
    /// Inherited record properties come first, as `PrintMembers` chains to the base.
    fn record_properties(&self, owner: TypeDefId) -> Vec<(String, crate::metadata::FieldId)> {
        let d = self.c.meta.type_def(owner);
        let mut props = match d.base.and_then(|b| self.c.meta.types.def_of(b)) {
            Some(b) if self.c.meta.type_def(b).flags.has(Flags::RECORD) => self.record_properties(b),
            _ => Vec::new(),
        };
        props.extend(d.properties.iter().filter_map(|&p| {
            let pd = self.c.meta.property(p);
            let public = pd.flags.has(Flags::PUBLIC);
            (public && !pd.flags.has(Flags::STATIC)).then_some(()).and(pd.backing_field.map(|f| (pd.name.clone(), f)))
        }));
        props
    }
}

fn plain_arg(expr: ast::Expr) -> ast::Arg {
    let span = expr.span;
    ast::Arg { name: None, modifier: ast::ArgModifier::None, expr, span }
}
