//! Conditions and `&&`/`||`: a `bool`, or a user type's `operator true`/`operator false`
//! (C# §12.14.3 user-defined conditional logical operators, §12.24 boolean expressions).

use super::operators::binary_op_name;
use super::MethodBinder;
use crate::compiler::bound::*;
use grammar::ast::{self, BinaryOp};
use grammar::span::Span;

impl MethodBinder<'_> {
    /// Binds a condition (`if`, `while`, `?:`...): a `bool`, or a value whose type
    /// declares `operator true` and has no implicit conversion to `bool`.
    pub fn bind_condition(&mut self, e: &ast::Expr) -> BExpr {
        let boolean = self.wk().boolean;
        let v = self.bind_value_to(e, boolean);
        self.to_condition(v)
    }

    /// A bound value as a `bool` condition: converted implicitly, else `T.op_True(v)`.
    fn to_condition(&mut self, v: BExpr) -> BExpr {
        let boolean = self.wk().boolean;
        if !v.is_error() && !self.converts_to_bool(&v) {
            if let Some(call) = self.user_operator("op_True", std::slice::from_ref(&v), v.span) {
                if call.ty == boolean {
                    return call;
                }
            }
        }
        self.coerce(v, boolean)
    }

    fn converts_to_bool(&mut self, v: &BExpr) -> bool {
        let boolean = self.wk().boolean;
        v.ty == boolean || self.conversion(v, boolean).is_some_and(|c| c.implicit)
    }

    /// `x && y` / `x || y`: on `bool`s, or through the user's `&`/`|` and
    /// `operator false`/`operator true` of x's type.
    pub fn bind_conditional_logical(&mut self, op: BinaryOp, left: &ast::Expr, right: &ast::Expr, span: Span) -> BExpr {
        let boolean = self.wk().boolean;
        let a = self.bind_value_to(left, boolean);
        let (a, b) = if a.is_error() || self.converts_to_bool(&a) {
            let a = self.coerce(a, boolean);
            (a, self.bind_expr_to(right, boolean))
        } else {
            let b = self.bind_value_to(right, boolean);
            if b.is_error() {
                return BExpr::error(span);
            }
            if let Some(e) = self.user_conditional_logical(op, a.clone(), b.clone(), span) {
                return e;
            }
            (self.coerce(a, boolean), self.coerce(b, boolean))
        };
        if let (BKind::Const(ConstVal::Bool(x)), BKind::Const(ConstVal::Bool(y))) = (&a.kind, &b.kind) {
            let v = if op == BinaryOp::And { *x && *y } else { *x || *y };
            return BExpr::new(BKind::Const(ConstVal::Bool(v)), boolean, span);
        }
        let kind = if op == BinaryOp::And { BKind::AndAlso(Box::new(a), Box::new(b)) } else { BKind::OrElse(Box::new(a), Box::new(b)) };
        BExpr::new(kind, boolean, span)
    }

    /// `x && y` as `T.false(x) ? x : T.&(x, y)`, `x || y` as `T.true(x) ? x : T.|(x, y)`,
    /// x evaluated once; None when no user `&`/`|` applies.
    fn user_conditional_logical(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> Option<BExpr> {
        let bitwise = if op == BinaryOp::And { BinaryOp::BitAnd } else { BinaryOp::BitOr };
        let x = self.temp(a.ty, span);
        let x_read = self.local_expr(x, span);
        let snapshot = self.snapshot();
        let Some(combined) = self.user_operator(binary_op_name(bitwise), &[x_read.clone(), b], span) else {
            self.restore(snapshot);
            return None;
        };
        let ty = combined.ty;
        let x_read = self.coerce(x_read, ty);
        let decisive_name = if op == BinaryOp::And { "op_False" } else { "op_True" };
        let decisive = self.user_operator(decisive_name, std::slice::from_ref(&x_read), span);
        let boolean = self.wk().boolean;
        let Some(decisive) = decisive.filter(|d| d.ty == boolean) else {
            let (shown, sym) = (self.type_name(ty), if op == BinaryOp::And { "&" } else { "|" });
            self.error(
                span,
                "CS0218",
                format!("In order for 'operator {sym}' to be applicable as a short circuit operator, its declaring type '{shown}' must define operator true and operator false"),
            );
            return Some(BExpr::error(span));
        };
        let init = vec![BStmt::new(SKind::Local { local: x, init: Some(a) }, span)];
        let value = BExpr::new(BKind::Cond { cond: Box::new(decisive), then: Box::new(x_read), otherwise: Box::new(combined) }, ty, span);
        Some(BExpr::new(BKind::Seq { stmts: init, value: Box::new(value) }, ty, span))
    }
}
