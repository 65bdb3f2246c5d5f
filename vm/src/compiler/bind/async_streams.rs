//! `await foreach` and `await using` (C# §13.9.5.3, §13.14): the same lowerings as
//! `foreach` and `using`, with `GetAsyncEnumerator()`, `await MoveNextAsync()` and `await
//! DisposeAsync()` in place of the synchronous calls. Both accept the pattern (a type with
//! those methods: `ConfiguredCancelableAsyncEnumerable<T>`, `ConfiguredAsyncDisposable`) as
//! well as the interfaces.

use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::TypeId;
use grammar::ast;
use grammar::span::Span;

impl MethodBinder<'_> {
    /// `await foreach (V v in x) body` → `{ E e = x.GetAsyncEnumerator(); try { while (await
    /// e.MoveNextAsync()) { V v = (V)e.Current; body } } finally { if (e != null) await
    /// e.DisposeAsync(); } }`.
    pub fn bind_await_foreach(&mut self, target: &ast::ForeachTarget, collection: &ast::Expr, body: &ast::Stmt, span: Span) -> BStmt {
        let coll = self.bind_expr(collection);
        if coll.is_error() {
            return BStmt::new(SKind::Empty, span);
        }
        if !self.func.is_async {
            self.bind_await_of(coll.clone(), span);
            return BStmt::new(SKind::Empty, span);
        }
        self.push_scope();
        let result = self.await_foreach_enumerator(target, coll, collection.span, body, span);
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts: vec![result], locals }, span)
    }

    fn await_foreach_enumerator(&mut self, target: &ast::ForeachTarget, coll: BExpr, coll_span: Span, body: &ast::Stmt, span: Span) -> BStmt {
        let coll_ty = coll.ty;
        let Some(get_enum) = self.call_member_no_args(coll, "GetAsyncEnumerator", span) else {
            let shown = self.type_name(coll_ty);
            self.error(coll_span, "CS8411", format!("Async foreach statement cannot operate on variables of type '{shown}' because '{shown}' does not contain a suitable public instance or extension definition for 'GetAsyncEnumerator'"));
            return BStmt::new(SKind::Empty, span);
        };
        let e_ty = get_enum.ty;
        let e = self.temp(e_ty, span);
        let e_expr = self.local_expr(e, span);
        let Some(move_next) = self.call_member_no_args(e_expr.clone(), "MoveNextAsync", span) else {
            let shown = self.type_name(e_ty);
            self.error(coll_span, "CS0117", format!("'{shown}' does not contain a definition for 'MoveNextAsync'"));
            return BStmt::new(SKind::Empty, span);
        };
        let cond = self.bind_await_of(move_next, span);
        let current = match self.lookup_member(e_ty, "Current") {
            Some(super::lookup::Member::Property(p, owner)) => {
                let pa = super::expr::PropertyAccess { prop: p, owner, receiver: Some(Box::new(e_expr.clone())), args: Vec::new(), is_base: false, span };
                self.read_property(pa)
            }
            _ => {
                let shown = self.type_name(e_ty);
                self.error(coll_span, "CS0117", format!("'{shown}' does not contain a definition for 'Current'"));
                return BStmt::new(SKind::Empty, span);
            }
        };
        let (brk, cont) = (self.new_label(), self.new_label());
        let loop_body = self.foreach_body(target, current, body, brk, cont, span);
        let the_loop = BStmt::new(SKind::Loop { cond: Some(cond), body: Box::new(loop_body), update: Vec::new(), brk, cont, test_first: true }, span);
        let decl = BStmt::new(SKind::Local { local: e, init: Some(get_enum) }, span);
        let stmts = match self.async_dispose_call(e_expr, span) {
            Some(dispose) => vec![decl, BStmt::new(SKind::Try { body: Box::new(the_loop), catches: Vec::new(), finally: Some(Box::new(dispose)) }, span)],
            None => vec![decl, the_loop],
        };
        BStmt::new(SKind::Block { stmts, locals: Vec::new() }, span)
    }

    /// `if (x != null) await x.DisposeAsync();` (no test for a value type), through
    /// `IAsyncDisposable` or a `DisposeAsync()` pattern method; `None` when `x` has neither.
    pub fn async_dispose_call(&mut self, x: BExpr, span: Span) -> Option<BStmt> {
        let iasync = self.c.namespaces.find_type("System", "IAsyncDisposable", 0).map(|d| self.c.meta.type_def(d).self_type)?;
        let is_param = self.is_type_param(x.ty);
        let is_value = self.c.meta.is_value_type(x.ty);
        let implements = self.c.meta.is_subtype(x.ty, iasync) || (is_param && self.param_converts_to(x.ty, iasync));
        let by_pattern = if is_param { None } else { self.call_member_no_args(x.clone(), "DisposeAsync", span) };
        let call = match by_pattern {
            Some(call) => call,
            None if implements => {
                let boxes = is_value || (is_param && !self.is_reference_type(x.ty));
                let recv = if boxes { self.box_if_value(x.clone()) } else { retyped(x.clone(), iasync) };
                self.call_member_no_args(recv, "DisposeAsync", span)?
            }
            None => return None,
        };
        let awaited = self.bind_await_of(call, span);
        let stmt = BStmt::new(SKind::Expr(awaited), span);
        if is_value && !is_param {
            return Some(stmt);
        }
        let null = BExpr::new(BKind::Const(ConstVal::Null), x.ty, span);
        let cond = BExpr::new(BKind::Binary { op: BBinOp::Ne, left: Box::new(x), right: Box::new(null) }, self.wk().boolean, span);
        Some(BStmt::new(SKind::If { cond, then: Box::new(stmt), otherwise: None }, span))
    }

    /// CS8410 (or CS8417 for a type that is only `IDisposable`) for an `await using`
    /// resource of type `ty`.
    pub fn report_not_async_disposable(&mut self, ty: TypeId, span: Span) {
        let shown = self.type_name(ty);
        let idisp = self.wk().idisposable;
        if self.c.meta.is_subtype(ty, idisp) {
            self.error(span, "CS8417", format!("'{shown}': type used in an asynchronous using statement must implement 'System.IAsyncDisposable' or implement a suitable 'DisposeAsync' method. Did you mean 'using' rather than 'await using'?"));
        } else {
            self.error(span, "CS8410", format!("'{shown}': type used in an asynchronous using statement must implement 'System.IAsyncDisposable' or implement a suitable 'DisposeAsync' method."));
        }
    }
}
