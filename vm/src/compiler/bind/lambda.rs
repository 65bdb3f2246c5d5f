//! Lambdas, anonymous methods and local functions: binding their bodies as nested
//! functions of the method, inferring a lambda's return type for generic type inference,
//! and trial binding (checking whether a lambda fits a delegate type without reporting).

use std::rc::Rc;

use super::{FuncCtx, MethodBinder};
use crate::compiler::bound::*;
use crate::metadata::{Flags, MethodBody, MethodDef, MethodId, MethodKind, ParamDef, ParamKind, TypeId};
use grammar::ast;
use grammar::span::Span;

/// What to undo after a trial binding.
pub struct Snapshot {
    diags: usize,
    locals: usize,
    nested: usize,
    methods: usize,
    owner_methods: usize,
}

impl MethodBinder<'_> {
    pub fn snapshot(&self) -> Snapshot {
        let owner = self.c.meta.method(self.method).owner;
        Snapshot {
            diags: self.c.diags.items.len(),
            locals: self.locals.len(),
            nested: self.nested.len(),
            methods: self.c.meta.methods.len(),
            owner_methods: self.c.meta.type_def(owner).methods.len(),
        }
    }

    pub fn restore(&mut self, s: Snapshot) {
        self.c.diags.items.truncate(s.diags);
        self.locals.truncate(s.locals);
        self.forget_scoped_locals_from(s.locals);
        self.nested.truncate(s.nested);
        self.c.meta.methods.truncate(s.methods);
        self.c.method_src.truncate(s.methods);
        let owner = self.c.meta.method(self.method).owner;
        self.c.meta.type_defs[owner.index()].methods.truncate(s.owner_methods);
    }

    /// Whether the lambda converts to delegate type `pt` (bound on trial, undone).
    pub fn lambda_fits(&mut self, l: &ast::Lambda, pt: TypeId) -> bool {
        let Some((invoke, params, _)) = self.delegate_signature(pt) else { return false };
        if omits_parameter_list(l) {
            if self.has_out_param(invoke) {
                return false;
            }
        } else if params.len() != l.params.len() {
            return false;
        }
        for (p, &t) in l.params.iter().zip(&params) {
            if let Some(ty) = &p.ty {
                let declared = self.resolve_type(ty);
                if declared != t {
                    return false;
                }
            }
        }
        let snapshot = self.snapshot();
        let before = self.c.diags.items.len();
        let _ = self.bind_lambda_expr(l, Some(pt), l.span);
        let ok = self.c.diags.items.len() == before;
        self.restore(snapshot);
        ok
    }

    /// The type a lambda returns given its parameter types (`void` if it returns nothing),
    /// bound on trial and undone. `None` when the body does not bind.
    pub fn lambda_return_type(&mut self, l: &ast::Lambda, params: &[TypeId]) -> Option<TypeId> {
        let names = lambda_param_names(l, params.len())?;
        let snapshot = self.snapshot();
        let before = self.c.diags.items.len();
        let saved = self.func.clone();
        self.func = FuncCtx {
            index: self.nested.len() as u32 + 1000,
            return_type: TypeId::ERROR,
            is_async: l.is_async,
            async_result: None,
            is_static: saved.is_static,
            inferred_returns: Some(Vec::new()),
            method: saved.method,
            iterator_element: None,
        };
        self.push_scope();
        let discards = parameters_are_discards(&names);
        for ((name, span), &t) in names.iter().zip(params) {
            self.declare_parameter(name, t, LocalKind::Param(0), *span, discards);
        }
        let result = match &l.body {
            ast::Body::Expr(e) => {
                let v = self.bind_expr(e);
                Some(v.ty)
            }
            ast::Body::Block(b) => {
                let _ = self.bind_block(b);
                let returns = self.func.inferred_returns.clone().unwrap_or_default();
                Some(self.common_return_type(&returns))
            }
        };
        self.pop_scope();
        self.func = saved;
        let ok = self.c.diags.items.len() == before;
        self.restore(snapshot);
        let ret = result.filter(|_| ok)?;
        if l.is_async {
            return Some(if ret == TypeId::VOID { self.c.task_type(None) } else { self.c.task_type(Some(ret)) });
        }
        Some(ret)
    }

    fn common_return_type(&mut self, returns: &[TypeId]) -> TypeId {
        let mut best: Option<TypeId> = None;
        for &t in returns {
            best = Some(match best {
                None => t,
                Some(b) if b == t => b,
                Some(b) => {
                    if self.type_conversion(t, b).is_some_and(|c| c.implicit) {
                        b
                    } else {
                        t
                    }
                }
            });
        }
        best.unwrap_or(TypeId::VOID)
    }

    /// Binds a lambda converted to delegate type `target`.
    pub fn bind_lambda_expr(&mut self, l: &ast::Lambda, target: Option<TypeId>, span: Span) -> BExpr {
        let target = match target {
            Some(t) if self.is_delegate_type(t) => t,
            Some(t) if t != TypeId::ERROR && t != self.wk().object && t != self.wk().delegate => {
                let shown = self.type_name(t);
                self.error(span, "CS1660", format!("Cannot convert lambda expression to type '{shown}' because it is not a delegate type"));
                return BExpr::error(span);
            }
            _ => match self.natural_lambda_type(l) {
                Some(t) => t,
                None => {
                    self.error(span, "CS8917", "The delegate type could not be inferred.");
                    return BExpr::error(span);
                }
            },
        };
        let Some((invoke, params, ret)) = self.delegate_signature(target) else { return BExpr::error(span) };
        let Some(names) = self.lambda_param_names_for(l, target, invoke, params.len(), span) else { return BExpr::error(span) };
        let plain: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
        let method = self.new_nested_method(MethodKind::Lambda, None, &plain, &params, ret, l.is_async, l.is_static, span);
        let id = NestedId(self.nested.len() as u32);
        self.nested.push(NestedFunction { method, body: None, parent: self.func.index, is_local_function: false, delegate_type: Some(target), span });
        let body = self.bind_nested_body(id, method, &names, &params, ret, l.is_async, l.is_static, &l.body);
        self.nested[id.0 as usize].body = Some(body);
        BExpr::new(BKind::Closure(id), target, span)
    }

    /// The names a lambda converted to delegate `target` gives its parameters; CS1593 when
    /// the counts differ, CS1688 for `delegate { }` and a delegate with `out` parameters.
    fn lambda_param_names_for(&mut self, l: &ast::Lambda, target: TypeId, invoke: MethodId, count: usize, span: Span) -> Option<Vec<(String, Span)>> {
        if omits_parameter_list(l) && self.has_out_param(invoke) {
            let shown = self.type_name(target);
            self.error(
                span,
                "CS1688",
                format!("Cannot convert anonymous method block without a parameter list to delegate type '{shown}' because it has one or more out parameters"),
            );
            return None;
        }
        let names = lambda_param_names(l, count);
        if names.is_none() {
            let shown = self.type_name(target);
            self.error(span, "CS1593", format!("Delegate '{shown}' does not take {} arguments", l.params.len()));
        }
        names
    }

    fn has_out_param(&self, m: MethodId) -> bool {
        self.c.meta.method(m).params.iter().any(|p| p.kind == ParamKind::Out)
    }

    /// `(int x) => x + 1` without a target: `Func<int, int>`; `() => { }`: `Action`.
    /// `delegate { }` has none: its parameters come from the delegate type.
    fn natural_lambda_type(&mut self, l: &ast::Lambda) -> Option<TypeId> {
        if omits_parameter_list(l) {
            return None;
        }
        let mut params = Vec::new();
        for p in &l.params {
            let t = self.resolve_type(p.ty.as_ref()?);
            params.push(t);
        }
        let ret = self.lambda_return_type(l, &params)?;
        self.func_or_action(&params, ret)
    }

    /// `Func<..., ret>` or `Action<...>` for a signature.
    pub fn func_or_action(&mut self, params: &[TypeId], ret: TypeId) -> Option<TypeId> {
        let (name, mut args) = if ret == TypeId::VOID { ("Action", params.to_vec()) } else { ("Func", params.to_vec()) };
        if ret != TypeId::VOID {
            args.push(ret);
        }
        let def = self.c.namespaces.find_type("System", name, args.len())?;
        Some(self.c.meta.types.named(def, &args))
    }

    #[allow(clippy::too_many_arguments)]
    fn new_nested_method(
        &mut self,
        kind: MethodKind,
        name: Option<&str>,
        param_names: &[String],
        params: &[TypeId],
        ret: TypeId,
        is_async: bool,
        is_static: bool,
        span: Span,
    ) -> MethodId {
        let outer = self.c.meta.method(self.method).clone();
        let n = self.nested.len();
        let outer_name = match outer.kind {
            MethodKind::Constructor => ".ctor".to_string(),
            _ => outer.name.clone(),
        };
        let ordinal = self.c.method_ordinal(self.method);
        let generated = match kind {
            MethodKind::LocalFunction => format!("<{outer_name}>g__{}|{ordinal}_{n}", name.unwrap_or("local")),
            _ => format!("<{outer_name}>b__{ordinal}_{n}"),
        };
        let mut flags = Flags(Flags::PRIVATE | Flags::SYNTHESIZED);
        if is_async {
            flags.set(Flags::ASYNC);
        }
        if is_static || outer.is_static() {
            flags.set(Flags::STATIC);
        }
        let def = MethodDef {
            name: generated,
            owner: outer.owner,
            kind,
            flags,
            type_params: Vec::new(),
            params: param_names.iter().zip(params).map(|(n, &ty)| ParamDef { name: n.clone(), ty, kind: ParamKind::Value, default: None }).collect(),
            ret,
            vtable_slot: None,
            body: MethodBody::None,
            file: self.file,
            span,
        };
        self.c.new_method(def, crate::compiler::sources::MethodSource::Nested)
    }

    /// Binds a nested function's body in its own function context.
    #[allow(clippy::too_many_arguments)]
    fn bind_nested_body(
        &mut self,
        id: NestedId,
        method: MethodId,
        names: &[(String, Span)],
        params: &[TypeId],
        ret: TypeId,
        is_async: bool,
        is_static: bool,
        body: &ast::Body,
    ) -> BoundBody {
        let saved = self.func.clone();
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_catches = std::mem::take(&mut self.catches);
        let outer_static = self.c.meta.method(self.method).is_static();
        self.func = FuncCtx {
            index: id.0 + 1,
            return_type: ret,
            is_async,
            async_result: if is_async { self.task_result_type(ret) } else { None },
            is_static: outer_static || is_static,
            inferred_returns: None,
            method,
            iterator_element: None,
        };
        self.push_scope();
        let discards = parameters_are_discards(names);
        let param_locals: Vec<LocalId> =
            names.iter().zip(params).enumerate().map(|(i, ((n, s), &t))| self.declare_parameter(n, t, LocalKind::Param(i as u16), *s, discards)).collect();
        let stmt = self.bind_body(body);
        let iterator = self.func.iterator_element;
        let async_result = self.func.is_async.then(|| self.func.async_result.unwrap_or(TypeId::VOID));
        let locals = self.pop_scope();
        self.func = saved;
        self.loops = saved_loops;
        self.catches = saved_catches;
        let span = stmt.span;
        let body = BStmt::new(SKind::Block { stmts: vec![stmt], locals: locals.into_iter().filter(|l| !param_locals.contains(l)).collect() }, span);
        BoundBody { body, params: param_locals, iterator, async_result }
    }

    /// Declares a local function's signature (before its block's statements are bound, so
    /// calls may precede the declaration).
    pub fn declare_local_function(&mut self, decl: &Rc<ast::MethodDecl>) -> NestedId {
        let mut local_tps = Vec::new();
        let id = NestedId(self.nested.len() as u32);
        for (i, tp) in decl.type_params.iter().enumerate() {
            let placeholder = self.c.meta.types.param(crate::metadata::ParamOwner::Method(MethodId(u32::MAX - 1 - id.0)), i as u16);
            local_tps.push((tp.name.name.clone(), placeholder));
        }
        let saved = self.ctx.local_type_params.len();
        self.ctx.local_type_params.extend(local_tps);
        let ret = self.resolve_type(&decl.return_type);
        let ctx = self.ctx.clone();
        let params = self.c.declare_params(&ctx, &decl.params);
        self.ctx.local_type_params.truncate(saved);
        let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
        let types: Vec<TypeId> = params.iter().map(|p| p.ty).collect();
        let is_async = decl.modifiers.has(ast::Modifiers::ASYNC);
        let is_static = decl.modifiers.has(ast::Modifiers::STATIC);
        let method = self.new_nested_method(MethodKind::LocalFunction, Some(&decl.name.name), &names, &types, ret, is_async, is_static, decl.name.span);
        self.c.meta.methods[method.index()].params = params;
        self.nested.push(NestedFunction { method, body: None, parent: self.func.index, is_local_function: true, delegate_type: None, span: decl.name.span });
        self.add_scope_function(&decl.name.name, id);
        id
    }

    /// Binds a local function's body at its declaration.
    pub fn bind_local_function(&mut self, id: NestedId, decl: &ast::MethodDecl) {
        let method = self.nested[id.0 as usize].method;
        let md = self.c.meta.method(method).clone();
        let Some(body) = &decl.body else {
            self.error(decl.name.span, "CS8112", format!("Local function '{}' must declare a body because it is not marked 'static extern'.", decl.name.name));
            return;
        };
        let names: Vec<(String, Span)> = decl.params.iter().map(|p| (p.name.name.clone(), p.name.span)).collect();
        let types: Vec<TypeId> = md.params.iter().map(|p| p.ty).collect();
        let saved = self.ctx.local_type_params.len();
        for (i, tp) in decl.type_params.iter().enumerate() {
            let placeholder = self.c.meta.types.param(crate::metadata::ParamOwner::Method(MethodId(u32::MAX - 1 - id.0)), i as u16);
            self.ctx.local_type_params.push((tp.name.name.clone(), placeholder));
        }
        let bound = self.bind_nested_body(id, method, &names, &types, md.ret, md.flags.has(Flags::ASYNC), decl.modifiers.has(ast::Modifiers::STATIC), body);
        self.ctx.local_type_params.truncate(saved);
        self.nested[id.0 as usize].body = Some(bound);
    }

    /// A local function used before the code that declares it ran (nothing to do yet: the
    /// emitter creates its environment at the enclosing block's entry).
    pub fn note_local_function_use(&mut self, _id: NestedId) {}
}

/// Whether `l` is an anonymous method written without a parameter list (`delegate { }`):
/// it converts to any delegate type without `out` parameters, whose parameters it cannot
/// name (C# §12.19.1). Lambdas and `delegate () { }` always have a list.
fn omits_parameter_list(l: &ast::Lambda) -> bool {
    l.params.is_empty() && !l.parenthesized
}

/// The names (and spans) of a lambda's parameters for a delegate with `count` of them:
/// its own, or unnamed ones (empty names, which no lookup asks for) for `delegate { }`;
/// `None` when the counts differ.
fn lambda_param_names(l: &ast::Lambda, count: usize) -> Option<Vec<(String, Span)>> {
    if omits_parameter_list(l) {
        return Some(vec![(String::new(), l.span); count]);
    }
    (l.params.len() == count).then(|| l.params.iter().map(|p| (p.name.name.clone(), p.span)).collect())
}

/// C# 9: parameters named `_` are discards when there are several of them; a lambda's
/// only `_` parameter is an ordinary name (`_ => _ * 2`).
fn parameters_are_discards(names: &[(String, Span)]) -> bool {
    names.iter().filter(|(n, _)| n == "_").count() > 1
}
