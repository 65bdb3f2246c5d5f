//! Invocations: method groups, delegates, local functions, extension methods,
//! constructors and indexers — argument matching (named, optional, `params`), generic
//! type inference, and overload resolution with C#'s betterness rules and errors.

use super::expr::{Bound, MethodGroup, PropertyAccess};
use super::MethodBinder;
use crate::compiler::bound::retyped;
use crate::compiler::bound::*;
use crate::metadata::{Flags, MethodId, MethodKind, ParamKind, ParamOwner, PropertyId, Substitution, TypeDefKind, TypeId, TypeKind};
use grammar::ast::{self, ExprKind};
use grammar::span::Span;

/// An argument bound as far as possible without knowing the parameter type.
#[derive(Clone, Debug)]
pub struct PreArg {
    pub syntax: ast::Arg,
    /// The bound value (`None` for arguments that need a target type: lambdas,
    /// `default`, `new()`, collection expressions, and `out var` declarations).
    pub value: Option<BExpr>,
    pub name: Option<String>,
    pub kind: ast::ArgModifier,
    /// For `out var x` / `out T x`: the declared type (`None` for `var`).
    pub out_decl: Option<(Option<TypeId>, ast::Designation)>,
}

/// A candidate method checked against the arguments.
#[derive(Clone, Debug)]
pub(super) struct Applicable {
    pub method: MethodId,
    pub owner: TypeId,
    pub type_args: Vec<TypeId>,
    /// For each parameter: the argument indexes bound to it (several for an expanded
    /// `params` array).
    param_args: Vec<Vec<usize>>,
    expanded: bool,
    /// Parameter types after substitution, by argument index.
    arg_param_types: Vec<TypeId>,
    /// Exact match per argument.
    exact: Vec<bool>,
    is_generic: bool,
    defaults_used: usize,
}

/// Why a candidate did not apply (for the error message).
#[derive(Clone, Debug)]
enum Rejection {
    ArgCount,
    NoParam(String),
    MissingArg(String),
    BadArg { index: usize, from: TypeId, to: TypeId, kind: ast::ArgModifier, expected: ParamKind },
    Inference,
    Constraint(super::type_arg_constraints::ConstraintViolation),
}

impl MethodBinder<'_> {
    /// `target(args)`.
    pub fn bind_invocation(&mut self, target: &ast::Expr, args: &[ast::Arg], span: Span) -> BExpr {
        if let ExprKind::Name(seg) = &target.kind {
            if seg.name.name == "nameof" && args.len() == 1 && self.lookup_local("nameof").is_none() {
                let e = ast::Expr { kind: ExprKind::Nameof(Box::new(args[0].expr.clone())), span };
                return self.bind_expr(&e);
            }
        }
        if let Some(awaited) = self.bind_async_helpers_await(target, args, span) {
            return awaited;
        }
        let callee = match (self.bind(target, None), &target.kind) {
            (Bound::Type(t, s), ExprKind::Name(seg)) => self.invocable_static_import(seg, target.span).unwrap_or(Bound::Type(t, s)),
            (callee, _) => callee,
        };
        match callee {
            Bound::Methods(g) => self.bind_group_call(g, args, span),
            Bound::Value(v) if self.is_delegate_type(v.ty) => self.bind_delegate_invoke(v, args, span),
            Bound::Property(p) => {
                let receiver = p.receiver.clone();
                let declared = self.member_type(self.c.meta.property(p.prop).ty, p.owner);
                if !self.is_delegate_type(declared) && self.def_kind(p.owner) == Some(TypeDefKind::Interface) {
                    if let Some(call) = self.methods_instead_of_member(target, receiver.clone(), args, span) {
                        return call;
                    }
                }
                let v = self.read_property(p);
                if self.is_delegate_type(v.ty) {
                    self.bind_delegate_invoke(v, args, span)
                } else if let Some(call) = self.extension_instead_of_member(target, receiver, args, span) {
                    call
                } else {
                    self.non_invocable(&v, span)
                }
            }
            Bound::Value(v) if v.is_error() => {
                self.pre_bind_args(args);
                BExpr::error(span)
            }
            Bound::Value(v) => {
                let receiver = match &v.kind {
                    BKind::Field { receiver, .. } => receiver.clone(),
                    _ => None,
                };
                match self.extension_instead_of_member(target, receiver, args, span) {
                    Some(call) => call,
                    None => self.non_invocable(&v, span),
                }
            }
            other => {
                let v = self.to_value(other, target.span);
                let _ = v;
                BExpr::error(span)
            }
        }
    }

    /// `x.Count()` where one base interface of `x`'s type declares a property `Count` and
    /// another a method (neither hides the other): an invocation's lookup drops the members that cannot be invoked
    /// (C# §12.5), so the methods of that name are the candidates.
    fn methods_instead_of_member(&mut self, target: &ast::Expr, receiver: Option<Box<BExpr>>, args: &[ast::Arg], span: Span) -> Option<BExpr> {
        let ExprKind::Member { name, .. } = &target.kind else { return None };
        let recv = receiver?;
        let wanted = name.name.name.as_str();
        let mut methods: Vec<(MethodId, TypeId)> = Vec::new();
        for owner in self.member_search_order(recv.ty) {
            let Some(def) = self.c.meta.types.def_of(owner) else { continue };
            for &m in &self.c.meta.type_def(def).methods {
                let md = self.c.meta.method(m);
                if md.name == wanted && md.kind == MethodKind::Ordinary && !md.flags.has(Flags::OVERRIDE) && !self.c.explicit_impls.contains_key(&m) {
                    methods.push((m, owner));
                }
            }
        }
        if methods.is_empty() {
            return None;
        }
        let type_args = self.resolve_type_args(&name.type_args);
        let g =
            MethodGroup { name: wanted.to_string(), methods, receiver: Some(recv), type_args, is_base: false, nested: None, span, name_span: name.name.span };
        Some(self.bind_group_call(g, args, span))
    }

    /// `list.Count()`: a member that cannot be invoked does not hide extension methods of
    /// the same name (C# drops non-invocable members from an invocation's lookup).
    fn extension_instead_of_member(&mut self, target: &ast::Expr, receiver: Option<Box<BExpr>>, args: &[ast::Arg], span: Span) -> Option<BExpr> {
        let ExprKind::Member { name, .. } = &target.kind else { return None };
        let receiver = receiver?;
        if self.extension_methods(&name.name.name).is_empty() {
            return None;
        }
        let type_args = self.resolve_type_args(&name.type_args);
        let g = MethodGroup {
            name: name.name.name.clone(),
            methods: Vec::new(),
            receiver: Some(receiver),
            type_args,
            is_base: false,
            nested: None,
            span: target.span,
            name_span: name.name.span,
        };
        Some(self.bind_group_call(g, args, span))
    }

    fn non_invocable(&mut self, v: &BExpr, span: Span) -> BExpr {
        let shown = self.type_name(v.ty);
        self.error(span, "CS1955", format!("Non-invocable member of type '{shown}' cannot be used like a method."));
        BExpr::error(span)
    }

    pub fn is_delegate_type(&self, t: TypeId) -> bool {
        self.def_kind(t) == Some(TypeDefKind::Delegate)
    }

    /// The `Invoke` method of a delegate type and its signature through the constructed type.
    pub fn delegate_signature(&mut self, t: TypeId) -> Option<(MethodId, Vec<TypeId>, TypeId)> {
        let def = self.c.meta.types.def_of(t)?;
        let invoke = self.c.meta.type_def(def).methods.iter().copied().find(|&m| self.c.meta.method(m).name == "Invoke")?;
        let md = self.c.meta.method(invoke).clone();
        let params = md.params.iter().map(|p| self.member_type(p.ty, t)).collect();
        let ret = self.member_type(md.ret, t);
        Some((invoke, params, ret))
    }

    fn bind_delegate_invoke(&mut self, delegate: BExpr, args: &[ast::Arg], span: Span) -> BExpr {
        let Some((invoke, _, _)) = self.delegate_signature(delegate.ty) else { return BExpr::error(span) };
        let owner = delegate.ty;
        let pre = self.pre_bind_args(args);
        match self.select_overload(&[(invoke, owner)], &pre, &[], None, span, "Invoke") {
            Some(app) => {
                let args = self.finish_args(&app, pre);
                let ret = self.member_type(self.c.meta.method(invoke).ret, owner);
                BExpr::new(BKind::Invoke { delegate: Box::new(delegate), args }, ret, span)
            }
            None => BExpr::error(span),
        }
    }

    /// Binds each argument that does not need a target type.
    pub fn pre_bind_args(&mut self, args: &[ast::Arg]) -> Vec<PreArg> {
        args.iter()
            .map(|a| {
                let (value, out_decl) = match (&a.expr.kind, a.modifier) {
                    (ExprKind::Declaration { ty, designation }, ast::ArgModifier::Out) => {
                        let t = self.declared_type(ty);
                        (None, Some((t, designation.clone())))
                    }
                    // `out _` is a discard unless a variable named `_` is in scope.
                    (ExprKind::Name(seg), ast::ArgModifier::Out) if seg.name.name == "_" && seg.type_args.is_empty() && self.lookup_local("_").is_none() => {
                        (None, Some((None, ast::Designation::Discard(a.expr.span))))
                    }
                    _ if needs_target(&a.expr) => (None, None),
                    _ => (self.pre_bind_value(&a.expr), None),
                };
                PreArg { syntax: a.clone(), value, name: a.name.as_ref().map(|n| n.name.clone()), kind: a.modifier, out_decl }
            })
            .collect()
    }

    /// Binds an argument unless it is a method group, which (like a lambda) is converted
    /// once the parameter's delegate type is known.
    fn pre_bind_value(&mut self, e: &ast::Expr) -> Option<BExpr> {
        let snapshot = self.snapshot();
        match self.bind(e, None) {
            Bound::Methods(_) => {
                self.restore(snapshot);
                None
            }
            b => Some(self.to_value(b, e.span)),
        }
    }

    /// `var` → `None`; otherwise the resolved type.
    pub fn declared_type(&mut self, ty: &ast::TypeSyntax) -> Option<TypeId> {
        if is_var(ty) {
            let ctx = self.ctx.clone();
            return self.c.try_resolve_type(&ctx, ty).filter(|_| false);
        }
        Some(self.resolve_type(ty))
    }

    /// Calls a method group (instance, static, extension, local function).
    pub fn bind_group_call(&mut self, g: MethodGroup, args: &[ast::Arg], span: Span) -> BExpr {
        let pre = self.pre_bind_args(args);
        if pre.iter().any(|a| a.value.as_ref().is_some_and(BExpr::is_error)) {
            return BExpr::error(span);
        }
        if let Some(nested) = g.nested {
            return self.bind_local_function_call(nested, &g, pre, span);
        }
        let g = MethodGroup { methods: self.accessible_candidates(&g.methods, false), ..g };
        let instance_ok = self.select_overload_quiet(&g.methods, &pre, &g.type_args, g.receiver.as_deref());
        if !instance_ok && g.receiver.is_some() {
            if let Some(e) = self.try_extension_call(&g, &pre, span) {
                return e;
            }
        }
        if g.methods.is_empty() {
            let recv_ty = g.receiver.as_ref().map_or(TypeId::ERROR, |r| r.ty);
            let shown = self.c.meta.cs_short_name(recv_ty);
            self.error(g.span, "CS1061", format!("'{shown}' does not contain a definition for '{}' and no accessible extension method '{}' accepting a first argument of type '{shown}' could be found (are you missing a using directive or an assembly reference?)", g.name, g.name));
            return BExpr::error(span);
        }
        let Some(app) = self.select_overload(&g.methods, &pre, &g.type_args, g.receiver.as_deref(), g.name_span, &g.name) else {
            return BExpr::error(span);
        };
        self.make_call(app, g.receiver, g.is_base, pre, span, g.name_span)
    }

    fn make_call(&mut self, mut app: Applicable, receiver: Option<Box<BExpr>>, is_base: bool, pre: Vec<PreArg>, span: Span, name_span: Span) -> BExpr {
        if is_base {
            (app.method, app.owner) = self.base_target(app.method, app.owner);
        } else {
            (app.method, app.owner) = self.struct_override(app.method, app.owner, receiver.as_deref());
        }
        let md = self.c.meta.method(app.method).clone();
        let args = self.finish_args(&app, pre);
        let ret = self.method_return_type(&app);
        let is_delegate_invoke = md.name == "Invoke" && self.c.meta.type_def(md.owner).kind == crate::metadata::TypeDefKind::Delegate;
        if let (true, Some(delegate)) = (is_delegate_invoke, receiver.clone()) {
            return BExpr::new(BKind::Invoke { delegate, args }, ret, span);
        }
        let receiver = if md.is_static() {
            if let Some(r) = &receiver {
                if !matches!(r.kind, BKind::This) {
                    self.error(
                        span,
                        "CS0176",
                        format!(
                            "Member '{}' cannot be accessed with an instance reference; qualify it with a type name instead",
                            self.c.member_display(app.method)
                        ),
                    );
                }
            }
            None
        } else {
            match receiver {
                Some(r) => Some(self.defensive_copy(r, app.method)),
                None => {
                    let shown = self.c.member_display(app.method);
                    self.error(span, "CS0120", format!("An object reference is required for the non-static field, method, or property '{shown}'"));
                    return BExpr::error(span);
                }
            }
        };
        self.check_method_access(app.method, false, name_span);
        let is_virtual = self.dispatch_is_virtual(app.method, receiver.as_deref(), is_base);
        let returns_ref = self.c.meta.method(app.method).flags.has(Flags::RETURNS_REF);
        let call = BExpr::new(BKind::Call { method: app.method, owner: app.owner, type_args: app.type_args, receiver, args, is_virtual }, ret, span);
        if returns_ref {
            return BExpr::new(BKind::Deref(Box::new(call)), ret, span);
        }
        call
    }

    pub(super) fn method_return_type(&mut self, app: &Applicable) -> TypeId {
        let ret = self.c.meta.method(app.method).ret;
        let t = self.member_type(ret, app.owner);
        if app.type_args.is_empty() {
            t
        } else {
            let sub = Substitution::for_method(app.method, &app.type_args);
            self.c.meta.types.subst(t, &sub)
        }
    }

    fn bind_local_function_call(&mut self, nested: NestedId, g: &MethodGroup, pre: Vec<PreArg>, span: Span) -> BExpr {
        let (method, owner) = g.methods[0];
        let Some(app) = self.select_overload(&[(method, owner)], &pre, &g.type_args, None, g.name_span, &g.name) else {
            return BExpr::error(span);
        };
        let ret = self.method_return_type(&app);
        let args = self.finish_args(&app, pre);
        self.note_local_function_use(nested);
        BExpr::new(BKind::CallNested { nested, args }, ret, span)
    }

    /// `x.Where(...)` as `Enumerable.Where(x, ...)`.
    fn try_extension_call(&mut self, g: &MethodGroup, pre: &[PreArg], span: Span) -> Option<BExpr> {
        let recv = g.receiver.clone()?;
        let candidates: Vec<(MethodId, TypeId)> =
            self.extension_methods(&g.name).into_iter().map(|m| (m, self.c.meta.type_def(self.c.meta.method(m).owner).self_type)).collect();
        if candidates.is_empty() {
            return None;
        }
        let mut all = vec![PreArg {
            syntax: ast::Arg { name: None, modifier: ast::ArgModifier::None, expr: ast::Expr { kind: ExprKind::This, span: recv.span }, span: recv.span },
            value: Some(*recv),
            name: None,
            kind: ast::ArgModifier::None,
            out_decl: None,
        }];
        all.extend(pre.iter().cloned());
        let app = self.select_overload(&candidates, &all, &g.type_args, None, g.name_span, &g.name)?;
        Some(self.make_call(app, None, false, all, span, span))
    }

    /// Overload resolution without reporting (to decide whether to try extensions).
    fn select_overload_quiet(&mut self, methods: &[(MethodId, TypeId)], pre: &[PreArg], type_args: &[TypeId], receiver: Option<&BExpr>) -> bool {
        if methods.is_empty() {
            return false;
        }
        let snapshot = self.snapshot();
        let r = self.select_overload(methods, pre, type_args, receiver, Span::default(), "").is_some();
        self.restore(snapshot);
        r
    }

    /// Picks the best applicable overload, or reports why none applies.
    pub(super) fn select_overload(
        &mut self,
        methods: &[(MethodId, TypeId)],
        pre: &[PreArg],
        type_args: &[TypeId],
        _receiver: Option<&BExpr>,
        span: Span,
        name: &str,
    ) -> Option<Applicable> {
        let mut applicable = Vec::new();
        let mut rejections = Vec::new();
        for &(m, owner) in methods {
            match self.check_candidate(m, owner, pre, type_args) {
                Ok(a) => applicable.push(a),
                Err(r) => rejections.push((m, r)),
            }
        }
        if applicable.is_empty() {
            self.report_no_overload(methods, &rejections, pre, span, name);
            return None;
        }
        let mut applicable = self.most_derived(applicable);
        let best = self.pick_best(&applicable, pre);
        match best {
            Some(i) => Some(applicable.swap_remove(i)),
            None => {
                let a = self.c.member_display(applicable[0].method);
                let b = self.c.member_display(applicable[1].method);
                self.error(span, "CS0121", format!("The call is ambiguous between the following methods or properties: '{a}' and '{b}'"));
                None
            }
        }
    }

    /// Reduces the applicable methods to those of the most derived types (C# §12.8.10.2):
    /// a method declared in a base type of another candidate's type is removed, and so is
    /// an interface's when a class other than `object` declares a candidate.
    fn most_derived(&mut self, applicable: Vec<Applicable>) -> Vec<Applicable> {
        let owners: Vec<TypeId> = applicable.iter().map(|a| a.owner).collect();
        let object = self.wk().object;
        let class_candidate = owners.iter().any(|&o| o != object && self.def_kind(o) == Some(TypeDefKind::Class));
        let mut keep = Vec::with_capacity(applicable.len());
        for a in applicable {
            let in_base = owners.iter().any(|&o| o != a.owner && self.c.meta.supertypes(o).contains(&a.owner));
            let hidden_interface = class_candidate && self.def_kind(a.owner) == Some(TypeDefKind::Interface);
            if !in_base && !hidden_interface {
                keep.push(a);
            }
        }
        keep
    }

    /// Maps arguments to parameters and checks conversions for one candidate.
    /// A method with a `params` array applies in its normal form if it can (the array passed
    /// directly), otherwise in its expanded form (C# §12.6.4.2).
    fn check_candidate(&mut self, m: MethodId, owner: TypeId, pre: &[PreArg], explicit_targs: &[TypeId]) -> Result<Applicable, Rejection> {
        let has_params = self.c.meta.method(m).params.last().is_some_and(|p| p.kind == ParamKind::Params);
        match self.check_candidate_form(m, owner, pre, explicit_targs, false) {
            Err(_) if has_params => self.check_candidate_form(m, owner, pre, explicit_targs, true),
            r => r,
        }
    }

    fn check_candidate_form(&mut self, m: MethodId, owner: TypeId, pre: &[PreArg], explicit_targs: &[TypeId], expand: bool) -> Result<Applicable, Rejection> {
        let md = self.c.meta.method(m).clone();
        if !explicit_targs.is_empty() && explicit_targs.len() != md.type_params.len() {
            return Err(Rejection::ArgCount);
        }
        let (param_args, expanded, defaults_used) = self.map_arguments(&md.params, pre, expand)?;
        let declared: Vec<TypeId> = md.params.iter().map(|p| self.member_type(p.ty, owner)).collect();
        let type_args = if md.type_params.is_empty() {
            Vec::new()
        } else if !explicit_targs.is_empty() {
            explicit_targs.to_vec()
        } else {
            self.infer_type_args(m, &declared, &param_args, expanded, pre).ok_or(Rejection::Inference)?
        };
        if !type_args.is_empty() {
            self.check_method_constraints(m, owner, &type_args).map_err(Rejection::Constraint)?;
        }
        let sub = Substitution::for_method(m, &type_args);
        let ptypes: Vec<TypeId> = declared.iter().map(|&t| self.c.meta.types.subst(t, &sub)).collect();
        let mut arg_param_types = vec![TypeId::ERROR; pre.len()];
        let mut exact = vec![false; pre.len()];
        for (pi, args) in param_args.iter().enumerate() {
            let is_params = expanded && pi == md.params.len() - 1;
            let pt = if is_params { self.c.meta.types.array_elem(ptypes[pi]).map_or(TypeId::ERROR, |(e, _)| e) } else { ptypes[pi] };
            for &ai in args {
                arg_param_types[ai] = pt;
                let expected = if is_params { ParamKind::Value } else { md.params[pi].kind };
                let (ok, is_exact) = self.argument_fits(&pre[ai], pt, expected);
                if !ok {
                    let from = pre[ai].value.as_ref().map_or(TypeId::ERROR, |v| v.ty);
                    return Err(Rejection::BadArg { index: ai, from, to: pt, kind: pre[ai].kind, expected });
                }
                exact[ai] = is_exact;
            }
        }
        Ok(Applicable { method: m, owner, type_args, param_args, expanded, arg_param_types, exact, is_generic: !md.type_params.is_empty(), defaults_used })
    }

    /// Positional, named, optional and `params` arguments → parameter slots; `expand`
    /// selects the expanded form of a `params` array (required when the argument count
    /// differs from the parameter count).
    fn map_arguments(&mut self, params: &[crate::metadata::ParamDef], pre: &[PreArg], expand: bool) -> Result<(Vec<Vec<usize>>, bool, usize), Rejection> {
        let n = params.len();
        let mut slots: Vec<Vec<usize>> = vec![Vec::new(); n];
        let has_params = params.last().is_some_and(|p| p.kind == ParamKind::Params);
        let mut expanded = false;
        let mut pos = 0usize;
        for (ai, a) in pre.iter().enumerate() {
            if let Some(name) = &a.name {
                let pi = params.iter().position(|p| &p.name == name).ok_or_else(|| Rejection::NoParam(name.clone()))?;
                if !slots[pi].is_empty() {
                    return Err(Rejection::ArgCount);
                }
                slots[pi].push(ai);
                continue;
            }
            if pos < n {
                let is_last_params = has_params && pos == n - 1;
                if is_last_params {
                    if expand || pre.len() != n {
                        expanded = true;
                    }
                    slots[pos].push(ai);
                    if !expanded {
                        pos += 1;
                    }
                    continue;
                }
                slots[pos].push(ai);
                pos += 1;
            } else if expanded {
                slots[n - 1].push(ai);
            } else {
                return Err(Rejection::ArgCount);
            }
        }
        let mut defaults = 0;
        for (pi, p) in params.iter().enumerate() {
            if slots[pi].is_empty() {
                if p.kind == ParamKind::Params {
                    expanded = true;
                } else if p.default.is_some() {
                    defaults += 1;
                } else {
                    return Err(Rejection::MissingArg(p.name.clone()));
                }
            }
        }
        Ok((slots, expanded, defaults))
    }

    /// Whether one argument converts implicitly to a parameter type (and is exact).
    fn argument_fits(&mut self, a: &PreArg, pt: TypeId, expected: ParamKind) -> (bool, bool) {
        let is_ref_param = matches!(expected, ParamKind::Ref | ParamKind::Out);
        let kind_ok = match a.kind {
            ast::ArgModifier::Ref => expected == ParamKind::Ref || expected == ParamKind::In,
            ast::ArgModifier::Out => expected == ParamKind::Out,
            ast::ArgModifier::In => expected == ParamKind::In,
            ast::ArgModifier::None => !is_ref_param,
        };
        if !kind_ok {
            return (false, false);
        }
        if let Some((t, _)) = &a.out_decl {
            return match t {
                Some(t) => (*t == pt, true),
                None => (true, true),
            };
        }
        match &a.value {
            Some(v) => {
                if v.ty == pt {
                    return (true, true);
                }
                if is_ref_param {
                    return (false, false);
                }
                let ok = self.conversion(v, pt).is_some_and(|c| c.implicit);
                (ok, false)
            }
            None => (self.target_typed_fits(&a.syntax.expr, pt), false),
        }
    }

    /// Whether a target-typed argument (lambda, `default`, `new()`...) fits `pt`.
    fn target_typed_fits(&mut self, e: &ast::Expr, pt: TypeId) -> bool {
        match &e.kind {
            ExprKind::Lambda(l) | ExprKind::AnonymousMethod(l) => self.lambda_fits(l, pt),
            ExprKind::Default(None) => true,
            ExprKind::New { ty: None, .. } => !self.is_type_param(pt),
            ExprKind::Collection(_) => self.c.meta.types.array_elem(pt).is_some() || self.collection_element_type(pt).is_some(),
            _ => {
                let snapshot = self.snapshot();
                let v = self.bind_value_to(e, pt);
                let ok = !v.is_error() && self.conversion(&v, pt).is_some_and(|c| c.implicit);
                self.restore(snapshot);
                ok
            }
        }
    }

    /// The better of the applicable candidates (`None` when ambiguous).
    fn pick_best(&mut self, apps: &[Applicable], pre: &[PreArg]) -> Option<usize> {
        if apps.len() == 1 {
            return Some(0);
        }
        let mut best: Vec<usize> = Vec::new();
        for i in 0..apps.len() {
            let dominated = (0..apps.len()).any(|j| j != i && self.better(&apps[j], &apps[i], pre));
            if !dominated {
                best.push(i);
            }
        }
        (best.len() == 1).then(|| best[0])
    }

    /// Whether `a` is a better function member than `b` (C# §12.6.4.3).
    fn better(&mut self, a: &Applicable, b: &Applicable, pre: &[PreArg]) -> bool {
        let mut a_better = false;
        for i in 0..pre.len() {
            let (pa, pb) = (a.arg_param_types[i], b.arg_param_types[i]);
            if pa == pb {
                continue;
            }
            match self.better_conversion(&pre[i], pa, a.exact[i], pb, b.exact[i]) {
                std::cmp::Ordering::Greater => a_better = true,
                std::cmp::Ordering::Less => return false,
                std::cmp::Ordering::Equal => {}
            }
        }
        if a_better {
            return true;
        }
        let same_params = a.arg_param_types == b.arg_param_types;
        if !(same_params || pre.is_empty()) {
            return false;
        }
        // The tie-break rules apply in order; the first that tells the two apart decides.
        if a.is_generic != b.is_generic {
            return !a.is_generic;
        }
        if a.expanded != b.expanded {
            return !a.expanded;
        }
        if a.expanded && b.expanded {
            let (ca, cb) = (self.c.meta.method(a.method).params.len(), self.c.meta.method(b.method).params.len());
            if ca != cb {
                return ca > cb;
            }
        }
        if a.defaults_used != b.defaults_used {
            return a.defaults_used < b.defaults_used;
        }
        match self.more_specific_declaration(a.method, b.method) {
            std::cmp::Ordering::Greater => return true,
            std::cmp::Ordering::Less => return false,
            std::cmp::Ordering::Equal => {}
        }
        let (oa, ob) = (a.owner, b.owner);
        oa != ob && self.c.meta.is_subtype(oa, ob)
    }

    /// C#'s "more specific parameter types" tie-break, on the declarations: a type
    /// parameter is less specific than anything else (`Func<T, int>` beats `Func<T, R>`).
    fn more_specific_declaration(&self, a: MethodId, b: MethodId) -> std::cmp::Ordering {
        let (pa, pb) = (&self.c.meta.method(a).params, &self.c.meta.method(b).params);
        if pa.len() != pb.len() {
            return std::cmp::Ordering::Equal;
        }
        let mut result = std::cmp::Ordering::Equal;
        for (x, y) in pa.iter().zip(pb) {
            match (result, self.more_specific_type(x.ty, y.ty)) {
                (_, std::cmp::Ordering::Equal) => {}
                (std::cmp::Ordering::Equal, o) => result = o,
                (r, o) if r != o => return std::cmp::Ordering::Equal,
                _ => {}
            }
        }
        result
    }

    fn more_specific_type(&self, a: TypeId, b: TypeId) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        let types = &self.c.meta.types;
        match (self.is_type_param(a), self.is_type_param(b)) {
            (true, true) => return Equal,
            (false, true) => return Greater,
            (true, false) => return Less,
            _ => {}
        }
        if let (Some((ea, _)), Some((eb, _))) = (types.array_elem(a), types.array_elem(b)) {
            return self.more_specific_type(ea, eb);
        }
        let (da, db) = (types.def_of(a), types.def_of(b));
        if da.is_none() || da != db {
            return Equal;
        }
        let mut result = Equal;
        for (&x, &y) in types.args_of(a).iter().zip(types.args_of(b)) {
            match (result, self.more_specific_type(x, y)) {
                (_, Equal) => {}
                (Equal, o) => result = o,
                (r, o) if r != o => return Equal,
                _ => {}
            }
        }
        result
    }

    /// Compares converting one argument to `pa` versus `pb`.
    fn better_conversion(&mut self, arg: &PreArg, pa: TypeId, exact_a: bool, pb: TypeId, exact_b: bool) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        if exact_a && !exact_b {
            return Greater;
        }
        if exact_b && !exact_a {
            return Less;
        }
        if arg.value.is_none() {
            if let (Some((_, params_a, ra)), Some((_, params_b, rb))) = (self.delegate_signature(pa), self.delegate_signature(pb)) {
                return match &arg.syntax.expr.kind {
                    ExprKind::Lambda(l) | ExprKind::AnonymousMethod(l) if params_a == params_b => self.better_lambda_return(l, &params_a, ra, rb),
                    _ => self.better_target(ra, rb),
                };
            }
        }
        self.better_target(pa, pb)
    }

    /// Between two delegate types with the same parameters, for a lambda: one returning a
    /// value beats a `void` one; otherwise the better conversion from the lambda's inferred
    /// return type (unwrapping `Task<X>` for async lambdas) decides.
    fn better_lambda_return(&mut self, l: &ast::Lambda, params: &[TypeId], ra: TypeId, rb: TypeId) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        match (ra == TypeId::VOID, rb == TypeId::VOID) {
            (false, true) => return Greater,
            (true, false) => return Less,
            (true, true) => return Equal,
            _ => {}
        }
        let Some(mut x) = self.lambda_return_type(l, params) else { return self.better_target(ra, rb) };
        let (mut ya, mut yb) = (ra, rb);
        if l.is_async {
            match (self.task_result_type(x), self.task_result_type(ya), self.task_result_type(yb)) {
                (Some(ix), Some(ia), Some(ib)) => (x, ya, yb) = (ix, ia, ib),
                _ => return self.better_target(ra, rb),
            }
        }
        match (x == ya, x == yb) {
            (true, false) => Greater,
            (false, true) => Less,
            _ => self.better_target(ya, yb),
        }
    }

    /// The better conversion target between two types (C# §12.6.4.7).
    fn better_target(&mut self, a: TypeId, b: TypeId) -> std::cmp::Ordering {
        use std::cmp::Ordering::*;
        if a == b {
            return Equal;
        }
        let a_to_b = self.type_conversion(a, b).is_some_and(|c| c.implicit);
        let b_to_a = self.type_conversion(b, a).is_some_and(|c| c.implicit);
        if a_to_b && !b_to_a {
            return Greater;
        }
        if b_to_a && !a_to_b {
            return Less;
        }
        if let (Some(pa), Some(pb)) = (self.prim(a), self.prim(b)) {
            let signed = |p: super::convert::Prim| {
                matches!(p, super::convert::Prim::SByte | super::convert::Prim::Short | super::convert::Prim::Int | super::convert::Prim::Long)
            };
            let unsigned = |p: super::convert::Prim| {
                matches!(p, super::convert::Prim::Byte | super::convert::Prim::UShort | super::convert::Prim::UInt | super::convert::Prim::ULong)
            };
            if signed(pa) && unsigned(pb) {
                return Greater;
            }
            if signed(pb) && unsigned(pa) {
                return Less;
            }
        }
        Equal
    }

    fn report_no_overload(&mut self, methods: &[(MethodId, TypeId)], rejections: &[(MethodId, Rejection)], pre: &[PreArg], span: Span, name: &str) {
        if span == Span::default() && name.is_empty() {
            return;
        }
        let best = rejections
            .iter()
            .find(|(_, r)| matches!(r, Rejection::BadArg { .. }))
            .or_else(|| rejections.iter().find(|(_, r)| matches!(r, Rejection::Constraint(_))))
            .or_else(|| rejections.iter().find(|(_, r)| matches!(r, Rejection::MissingArg(_) | Rejection::NoParam(_) | Rejection::Inference)))
            .or_else(|| rejections.first());
        let Some((m, r)) = best.cloned() else { return };
        let shown_name = if self.c.meta.method(m).kind == MethodKind::Constructor {
            self.c.meta.type_def(self.c.meta.method(m).owner).name.clone()
        } else {
            name.to_string()
        };
        match r {
            Rejection::BadArg { index, from, to, kind, expected } => {
                let argno = index + 1;
                let span = pre.get(index).map_or(span, |a| a.syntax.expr.span);
                if kind != ast::ArgModifier::None || matches!(expected, ParamKind::Ref | ParamKind::Out) {
                    let want = match expected {
                        ParamKind::Ref => "ref",
                        ParamKind::Out => "out",
                        ParamKind::In => "in",
                        _ => "",
                    };
                    if want.is_empty() {
                        let had = match kind {
                            ast::ArgModifier::Ref => "ref",
                            ast::ArgModifier::Out => "out",
                            _ => "in",
                        };
                        self.error(span, "CS1615", format!("Argument {argno} may not be passed with the '{had}' keyword"));
                    } else {
                        self.error(span, "CS1620", format!("Argument {argno} must be passed with the '{want}' keyword"));
                    }
                    return;
                }
                if methods.len() > 1 && from == TypeId::ERROR {
                    self.error(span, "CS1503", format!("Argument {argno}: cannot convert from '{}' to '{}'", "?", self.type_name(to)));
                    return;
                }
                let from_s = if from == TypeId::ERROR { self.describe_target_typed(&pre[index]) } else { self.type_name(from) };
                let to_s = self.type_name(to);
                if pre[index].value.is_none() && matches!(pre[index].syntax.expr.kind, ExprKind::Lambda(_)) {
                    let l = match &pre[index].syntax.expr.kind {
                        ExprKind::Lambda(l) => l.clone(),
                        _ => return,
                    };
                    self.bind_lambda_expr(&l, Some(to), span);
                    return;
                }
                self.error(span, "CS1503", format!("Argument {argno}: cannot convert from '{from_s}' to '{to_s}'"));
            }
            Rejection::MissingArg(p) => {
                let shown = self.c.member_display(m);
                self.error(span, "CS7036", format!("There is no argument given that corresponds to the required parameter '{p}' of '{shown}'"));
            }
            Rejection::NoParam(p) => {
                let shown = self.c.member_display(m);
                let _ = shown;
                self.error(span, "CS1739", format!("The best overload for '{shown_name}' does not have a parameter named '{p}'"));
            }
            Rejection::Constraint(v) => self.error(span, v.code, v.message),
            Rejection::Inference => {
                let shown = self.c.member_display(m);
                self.error(
                    span,
                    "CS0411",
                    format!("The type arguments for method '{shown}' cannot be inferred from the usage. Try specifying the type arguments explicitly."),
                );
            }
            Rejection::ArgCount => {
                let kind = self.c.meta.method(m).kind;
                if kind == MethodKind::Constructor {
                    self.error(
                        span,
                        "CS1729",
                        format!(
                            "'{}' does not contain a constructor that takes {} arguments",
                            self.type_name(self.c.meta.type_def(self.c.meta.method(m).owner).self_type),
                            pre.len()
                        ),
                    );
                } else if kind == MethodKind::Ordinary
                    && self.c.meta.method(m).name == "Invoke"
                    && self.is_delegate_type(self.c.meta.type_def(self.c.meta.method(m).owner).self_type)
                {
                    let d = self.type_name(self.c.meta.type_def(self.c.meta.method(m).owner).self_type);
                    self.error(span, "CS1593", format!("Delegate '{d}' does not take {} arguments", pre.len()));
                } else {
                    self.error(span, "CS1501", format!("No overload for method '{shown_name}' takes {} arguments", pre.len()));
                }
            }
        }
    }

    fn describe_target_typed(&self, a: &PreArg) -> String {
        match &a.syntax.expr.kind {
            ExprKind::Lambda(_) => "lambda expression".into(),
            ExprKind::Default(None) => "default".into(),
            _ => "?".into(),
        }
    }

    /// Binds the arguments for the chosen overload: target-typed ones against their
    /// parameter, conversions, `params` arrays, default values and `out var` locals.
    fn finish_args(&mut self, app: &Applicable, pre: Vec<PreArg>) -> Vec<BArg> {
        let md = self.c.meta.method(app.method).clone();
        let declared: Vec<TypeId> = md.params.iter().map(|p| self.member_type(p.ty, app.owner)).collect();
        let sub = Substitution::for_method(app.method, &app.type_args);
        let ptypes: Vec<TypeId> = declared.iter().map(|&t| self.c.meta.types.subst(t, &sub)).collect();
        let mut out = Vec::new();
        let written: Vec<Option<usize>> = app.param_args.iter().map(|args| args.first().copied()).collect();
        for (pi, args) in app.param_args.iter().enumerate() {
            let is_params = app.expanded && pi == md.params.len() - 1;
            if is_params {
                let array_ty = ptypes[pi];
                let elem = self.c.meta.types.array_elem(array_ty).map_or(TypeId::ERROR, |(e, _)| e);
                let elems: Vec<BExpr> = args.iter().map(|&ai| self.finish_arg(&pre[ai], elem).expr).collect();
                let span = elems.first().map_or(Span::default(), |e| e.span);
                out.push(BArg { expr: BExpr::new(BKind::ArrayLiteral { elems }, array_ty, span), kind: ArgKind::Value });
                continue;
            }
            match args.first() {
                Some(&ai) => out.push(self.finish_arg(&pre[ai], ptypes[pi])),
                None => {
                    let d = md.params[pi].default.clone().unwrap_or(crate::metadata::Constant::Null);
                    out.push(BArg { expr: self.default_argument(d, ptypes[pi]), kind: ArgKind::Value });
                }
            }
        }
        self.in_written_order(out, &written)
    }

    fn finish_arg(&mut self, a: &PreArg, pt: TypeId) -> BArg {
        let span = a.syntax.expr.span;
        if let Some((t, designation)) = &a.out_decl {
            let ty = t.unwrap_or(pt);
            let local = match designation {
                ast::Designation::Single(id) => self.declare_local(&id.name, ty, LocalKind::User, id.span),
                _ => self.temp(ty, span),
            };
            self.mark_address_taken(local);
            return BArg { expr: self.local_expr(local, span), kind: ArgKind::Ref };
        }
        let kind = if matches!(a.kind, ast::ArgModifier::None | ast::ArgModifier::In) { ArgKind::Value } else { ArgKind::Ref };
        let expr = match &a.value {
            Some(v) if kind == ArgKind::Ref => {
                self.check_ref_arg(v);
                v.clone()
            }
            Some(v) => self.coerce(v.clone(), pt),
            None => self.bind_expr_to(&a.syntax.expr, pt),
        };
        BArg { expr, kind }
    }

    /// A `ref`/`out` argument must be a variable; locals passed by reference live in a
    /// display object.
    pub fn check_ref_arg(&mut self, v: &BExpr) {
        match &v.kind {
            BKind::Local(l) => self.mark_address_taken(*l),
            BKind::Field { .. } => self.check_readonly_by_reference(v),
            BKind::Elem { .. } | BKind::Deref(_) | BKind::Error => {}
            _ => self.error(v.span, "CS1510", "A ref or out value must be an assignable variable"),
        }
    }

    pub fn mark_address_taken(&mut self, l: LocalId) {
        let info = &mut self.locals[l.0 as usize];
        if !matches!(info.kind, LocalKind::RefParam(_) | LocalKind::RefLocal) {
            info.hoisted = true;
        }
    }

    fn default_argument(&mut self, d: crate::metadata::Constant, pt: TypeId) -> BExpr {
        use crate::metadata::Constant;
        let span = Span::default();
        let c = match d {
            Constant::Null => return self.default_of(pt, span),
            Constant::Bool(b) => ConstVal::Bool(b),
            Constant::Char(c) => ConstVal::Char(c),
            Constant::Int(i) => ConstVal::Int(i),
            Constant::UInt(u) => ConstVal::UInt(u),
            Constant::Float(f) => ConstVal::Float(f),
            Constant::String(s) => ConstVal::Str(s),
            Constant::Decimal(s) => ConstVal::Decimal(s),
        };
        let natural = match &c {
            ConstVal::Bool(_) => self.wk().boolean,
            ConstVal::Char(_) => self.wk().char,
            ConstVal::Int(_) => self.wk().int32,
            ConstVal::UInt(_) => self.wk().uint64,
            ConstVal::Float(_) => self.wk().double,
            ConstVal::Str(_) => self.wk().string,
            ConstVal::Decimal(_) => self.wk().decimal,
            ConstVal::Null => TypeId::NULL,
        };
        let e = BExpr::new(BKind::Const(c), natural, span);
        match self.conversion(&e, pt) {
            Some(conv) => self.apply_conversion(e, conv.kind, pt),
            None => retyped(e, pt),
        }
    }

    // ---- type inference ------------------------------------------------------------------

    /// Infers a generic method's type arguments from the arguments (C# §12.6.3, simplified:
    /// lower-bound inference from typed arguments, then lambdas once their parameter types
    /// are fixed).
    fn infer_type_args(&mut self, m: MethodId, declared: &[TypeId], param_args: &[Vec<usize>], expanded: bool, pre: &[PreArg]) -> Option<Vec<TypeId>> {
        let n = self.c.meta.method(m).type_params.len();
        let mut bounds: Vec<Vec<TypeId>> = vec![Vec::new(); n];
        let nparams = declared.len();
        let pairs: Vec<(usize, TypeId)> = param_args
            .iter()
            .enumerate()
            .flat_map(|(pi, args)| {
                let pt = declared[pi];
                let is_params = expanded && pi == nparams - 1;
                let t = if is_params { self.c.meta.types.array_elem(pt).map_or(pt, |(e, _)| e) } else { pt };
                args.iter().map(move |&ai| (ai, t)).collect::<Vec<_>>()
            })
            .collect();
        for &(ai, pt) in &pairs {
            if let Some(v) = &pre[ai].value {
                if v.ty != TypeId::NULL {
                    let vt = v.ty;
                    self.infer_from(vt, pt, m, &mut bounds);
                }
            } else if let Some((Some(declared_ty), _)) = &pre[ai].out_decl {
                // `out Day d` infers from the declared type.
                let vt = *declared_ty;
                self.infer_from(vt, pt, m, &mut bounds);
            }
        }
        for _round in 0..4 {
            let mut progress = false;
            for &(ai, pt) in &pairs {
                if pre[ai].value.is_some() {
                    continue;
                }
                let syntax = &pre[ai].syntax.expr;
                let lambda = match &syntax.kind {
                    ExprKind::Lambda(l) | ExprKind::AnonymousMethod(l) => Some(l),
                    ExprKind::Name(_) | ExprKind::Member { .. } => None,
                    _ => continue,
                };
                let fixed = self.fix_partial(m, &bounds);
                let sub = Substitution::for_method(m, &fixed);
                let Some((_, dparams, dret)) = self.delegate_signature(pt) else { continue };
                let params: Vec<TypeId> = dparams.iter().map(|&p| self.c.meta.types.subst(p, &sub)).collect();
                if params.iter().any(|&p| self.mentions_method_params(p, m)) {
                    continue;
                }
                if !self.mentions_method_params(dret, m) {
                    continue;
                }
                let ret = match lambda {
                    Some(l) => self.lambda_return_type(l, &params),
                    None => self.method_group_return_type(syntax, &params),
                };
                if let Some(ret) = ret {
                    let before: usize = bounds.iter().map(Vec::len).sum();
                    let dret_sub = self.c.meta.types.subst(dret, &sub);
                    if ret != TypeId::VOID {
                        self.infer_from(ret, dret_sub, m, &mut bounds);
                    }
                    if bounds.iter().map(Vec::len).sum::<usize>() > before {
                        progress = true;
                    }
                }
            }
            if !progress {
                break;
            }
        }
        let mut result = Vec::with_capacity(n);
        for b in &bounds {
            result.push(self.fix_bound(b)?);
        }
        Some(result)
    }

    /// The type arguments fixed so far (unfixed ones stay as the parameters themselves).
    fn fix_partial(&mut self, m: MethodId, bounds: &[Vec<TypeId>]) -> Vec<TypeId> {
        bounds.iter().enumerate().map(|(i, b)| self.fix_bound(b).unwrap_or_else(|| self.c.meta.types.param(ParamOwner::Method(m), i as u16))).collect()
    }

    /// The candidate every other bound converts to.
    fn fix_bound(&mut self, b: &[TypeId]) -> Option<TypeId> {
        let mut cands: Vec<TypeId> = Vec::new();
        for &t in b {
            if !cands.contains(&t) && t != TypeId::NULL {
                cands.push(t);
            }
        }
        cands.iter().copied().find(|&c| b.iter().all(|&o| o == c || o == TypeId::NULL || self.type_conversion(o, c).is_some_and(|x| x.implicit)))
    }

    fn mentions_method_params(&self, t: TypeId, m: MethodId) -> bool {
        match self.c.meta.types.kind(t) {
            TypeKind::Param { owner: ParamOwner::Method(o), .. } => *o == m,
            TypeKind::Named { args, .. } => args.iter().any(|&a| self.mentions_method_params(a, m)),
            TypeKind::Array { elem, .. } => self.mentions_method_params(*elem, m),
            _ => false,
        }
    }

    /// Adds bounds by matching argument type `from` against parameter type `to`.
    fn infer_from(&mut self, from: TypeId, to: TypeId, m: MethodId, bounds: &mut [Vec<TypeId>]) {
        match self.c.meta.types.kind(to).clone() {
            TypeKind::Param { owner: ParamOwner::Method(o), index } if o == m => {
                if let Some(b) = bounds.get_mut(index as usize) {
                    b.push(from);
                }
            }
            TypeKind::Array { elem, .. } => {
                if let Some((fe, _)) = self.c.meta.types.array_elem(from) {
                    self.infer_from(fe, elem, m, bounds);
                } else if let Some(e) = self.enumerable_element(from) {
                    self.infer_from(e, elem, m, bounds);
                }
            }
            TypeKind::Named { def, args } if !args.is_empty() => {
                if let Some(inner) = self.nullable_inner(to) {
                    let f = self.nullable_inner(from).unwrap_or(from);
                    self.infer_from(f, inner, m, bounds);
                    return;
                }
                let supers = self.c.meta.supertypes(from);
                if let Some(s) = supers.into_iter().find(|&s| self.c.meta.types.def_of(s) == Some(def)) {
                    let sargs = self.c.meta.types.args_of(s).to_vec();
                    for (a, p) in sargs.into_iter().zip(args.iter()) {
                        self.infer_from(a, *p, m, bounds);
                    }
                }
            }
            _ => {}
        }
    }

    /// `T` when `t` implements `IEnumerable<T>`.
    pub fn enumerable_element(&mut self, t: TypeId) -> Option<TypeId> {
        let ie = self.wk().ienumerable_t;
        if let Some((e, 1)) = self.c.meta.types.array_elem(t) {
            return Some(e);
        }
        let supers = self.c.meta.supertypes(t);
        supers.into_iter().find(|&s| self.c.meta.types.def_of(s) == Some(ie)).and_then(|s| self.c.meta.types.args_of(s).first().copied())
    }

    // ---- constructors and indexers -------------------------------------------------------

    /// Calls a constructor of `ty` on `this` (`: base(...)`, `: this(...)`), or creates a new
    /// object when `this` is `None`. Returns the bound call.
    pub fn bind_constructor_call(&mut self, ty: TypeId, this: Option<BExpr>, args: &[ast::Arg], span: Span) -> Option<BExpr> {
        let def = self.c.meta.types.def_of(ty)?;
        let ctors: Vec<(MethodId, TypeId)> =
            self.c.meta.type_def(def).methods.iter().copied().filter(|&m| self.c.meta.method(m).kind == MethodKind::Constructor).map(|m| (m, ty)).collect();
        let pre = self.pre_bind_args(args);
        if ctors.is_empty() {
            if args.is_empty() {
                return None;
            }
            let shown = self.type_name(ty);
            self.error(span, "CS1729", format!("'{shown}' does not contain a constructor that takes {} arguments", args.len()));
            return None;
        }
        let creating = this.is_none();
        let ctors = self.accessible_candidates(&ctors, creating);
        let app = self.select_overload(&ctors, &pre, &[], None, span, ".ctor")?;
        self.check_method_access(app.method, creating, span);
        let bargs = self.finish_args(&app, pre);
        Some(match this {
            Some(t) => BExpr::new(
                BKind::Call { method: app.method, owner: ty, type_args: Vec::new(), receiver: Some(Box::new(t)), args: bargs, is_virtual: false },
                TypeId::VOID,
                span,
            ),
            None => BExpr::new(BKind::New { ctor: Some(app.method), args: bargs }, ty, span),
        })
    }

    /// Picks the indexer overload for `recv[args]`.
    pub fn resolve_indexer(&mut self, indexers: Vec<(PropertyId, TypeId)>, recv: BExpr, args: &[ast::Arg], span: Span) -> Option<PropertyAccess> {
        let pre = self.pre_bind_args(args);
        let accessors: Vec<(MethodId, TypeId)> = indexers
            .iter()
            .filter_map(|&(p, owner)| {
                let pd = self.c.meta.property(p);
                pd.getter.or(pd.setter).map(|m| (m, owner))
            })
            .collect();
        // Setters take an extra `value` parameter; match on the indexer parameters only.
        let getters: Vec<(MethodId, TypeId)> = accessors.iter().copied().filter(|&(m, _)| self.c.meta.method(m).kind == MethodKind::Getter).collect();
        let candidates = if getters.is_empty() { accessors.clone() } else { getters };
        let app = if candidates.iter().all(|&(m, _)| self.c.meta.method(m).kind == MethodKind::Getter) {
            self.select_overload(&candidates, &pre, &[], None, span, "this")?
        } else {
            let (m, owner) = candidates[0];
            self.check_candidate_indexer_setter(m, owner, &pre)?
        };
        let prop = indexers.iter().find(|&&(p, _)| {
            let pd = self.c.meta.property(p);
            pd.getter == Some(app.method) || pd.setter == Some(app.method)
        })?;
        let bargs = self.finish_args(&app, pre);
        Some(PropertyAccess { prop: prop.0, owner: app.owner, receiver: Some(Box::new(recv)), args: bargs, is_base: false, span })
    }

    fn check_candidate_indexer_setter(&mut self, m: MethodId, owner: TypeId, pre: &[PreArg]) -> Option<Applicable> {
        let mut md = self.c.meta.method(m).clone();
        md.params.pop();
        let n = md.params.len();
        if n != pre.len() {
            return None;
        }
        let param_args = (0..n).map(|i| vec![i]).collect();
        let arg_param_types = md.params.iter().map(|p| self.member_type(p.ty, owner)).collect();
        Some(Applicable {
            method: m,
            owner,
            type_args: Vec::new(),
            param_args,
            expanded: false,
            arg_param_types,
            exact: vec![false; n],
            is_generic: false,
            defaults_used: 0,
        })
    }
}

/// Arguments whose meaning depends on the parameter type.
fn needs_target(e: &ast::Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Lambda(_)
            | ExprKind::AnonymousMethod(_)
            | ExprKind::Default(None)
            | ExprKind::New { ty: None, .. }
            | ExprKind::Collection(_)
            | ExprKind::Switch { .. }
    ) || matches!(&e.kind, ExprKind::Conditional { then, otherwise, .. } if needs_target(then) || needs_target(otherwise))
}

pub fn is_var(ty: &ast::TypeSyntax) -> bool {
    matches!(&ty.kind, ast::TypeSyntaxKind::Named(segs) if segs.len() == 1 && segs[0].name.name == "var" && segs[0].type_args.is_empty())
}
