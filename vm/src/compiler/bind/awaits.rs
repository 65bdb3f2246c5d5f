//! `await`: binding against the awaiter pattern (C# §12.9.8): `GetAwaiter()` on the
//! operand, then `IsCompleted` and `GetResult()` on the awaiter. How the suspension is
//! carried out is the lowering's business (`emit/`).

use super::expr::Bound;
use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::TypeId;
use grammar::ast;
use grammar::span::Span;

impl MethodBinder<'_> {
    /// `await e`.
    pub fn bind_await(&mut self, inner: &ast::Expr, span: Span) -> BExpr {
        let operand = self.bind_expr(inner);
        self.bind_await_of(operand, span)
    }

    /// `await operand` for an operand already bound (also what `await foreach` and `await
    /// using` await).
    pub fn bind_await_of(&mut self, operand: BExpr, span: Span) -> BExpr {
        if operand.is_error() {
            return operand;
        }
        if !self.func.is_async {
            self.report_await_outside_async(span);
            return BExpr::error(span);
        }
        let operand_temp = self.temp(operand.ty, span);
        let operand_local = self.local_expr(operand_temp, span);
        let Some(get_awaiter) = self.call_member_no_args(operand_local, "GetAwaiter", span) else {
            let shown = self.type_name(operand.ty);
            self.error(span, "CS1061", format!("'{shown}' does not contain a definition for 'GetAwaiter' and no accessible extension method 'GetAwaiter' accepting a first argument of type '{shown}' could be found (are you missing a using directive or an assembly reference?)"));
            return BExpr::error(span);
        };
        let awaiter = self.temp(get_awaiter.ty, span);
        let awaiter_local = self.local_expr(awaiter, span);
        let seg = ast::NameSegment { name: ast::Ident { name: "IsCompleted".into(), span }, type_args: Vec::new() };
        let is_completed = match self.bind_instance_member(awaiter_local.clone(), &seg, span, false) {
            super::expr::Bound::Property(p) => self.read_property(p),
            _ => {
                let shown = self.type_name(get_awaiter.ty);
                self.error(span, "CS0117", format!("'{shown}' does not contain a definition for 'IsCompleted'"));
                return BExpr::error(span);
            }
        };
        let Some(get_result) = self.call_member_no_args(awaiter_local, "GetResult", span) else {
            let shown = self.type_name(get_awaiter.ty);
            self.error(span, "CS0117", format!("'{shown}' does not contain a definition for 'GetResult'"));
            return BExpr::error(span);
        };
        let ty = get_result.ty;
        let parts = AwaitParts { operand, get_awaiter, operand_temp, awaiter, is_completed, get_result };
        BExpr::new(BKind::Await(Box::new(parts)), ty, span)
    }

    /// CS4032 in a method that could be async, CS4033 in a void one, CS4034 in a lambda.
    fn report_await_outside_async(&mut self, span: Span) {
        let md = self.c.meta.method(self.func.method).clone();
        if matches!(md.kind, crate::metadata::MethodKind::Lambda) {
            self.error(
                span,
                "CS4034",
                "The 'await' operator can only be used within an async lambda expression. Consider marking this lambda expression with the 'async' modifier.",
            );
        } else if self.func.return_type == TypeId::VOID {
            self.error(span, "CS4033", "The 'await' operator can only be used within an async method. Consider marking this method with the 'async' modifier and changing its return type to 'Task'.");
        } else {
            let shown = self.type_name(self.func.return_type);
            self.error(span, "CS4032", format!("The 'await' operator can only be used within an async method. Consider marking this method with the 'async' modifier and changing its return type to 'Task<{shown}>'."));
        }
    }
}

impl MethodBinder<'_> {
    /// `AsyncHelpers.Await(x)` (.NET 11's runtime-async entry point for awaiting a task, a
    /// value task or a configured awaitable): the same as `await x` in the calling method.
    pub(super) fn bind_async_helpers_await(&mut self, target: &ast::Expr, args: &[ast::Arg], span: Span) -> Option<BExpr> {
        let ast::ExprKind::Member { target: owner, name, conditional: false } = &target.kind else { return None };
        if name.name.name != "Await" || args.len() != 1 || args[0].modifier != ast::ArgModifier::None || args[0].name.is_some() {
            return None;
        }
        let names_async_helpers = match &owner.kind {
            ast::ExprKind::Name(seg) => seg.name.name == "AsyncHelpers",
            ast::ExprKind::Member { name, .. } => name.name.name == "AsyncHelpers",
            _ => false,
        };
        if !names_async_helpers {
            return None;
        }
        let Bound::Type(t, _) = self.bind(owner, None) else { return None };
        let def = self.c.meta.types.def_of(t)?;
        let d = self.c.meta.type_def(def);
        if d.name != "AsyncHelpers" || d.namespace != "System.Runtime.CompilerServices" {
            return None;
        }
        Some(self.bind_await(&args[0].expr, span))
    }
}
