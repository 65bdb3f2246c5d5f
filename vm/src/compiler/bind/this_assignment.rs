//! `this = value` in a struct's constructor or method: the whole struct is overwritten.

use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::TypeId;
use grammar::ast;
use grammar::span::Span;

impl MethodBinder<'_> {
    /// `this = value` when `this` is a struct, else `None`. A struct's `this` is the
    /// caller's storage, used in place, so the assignment copies each instance field of the
    /// new value into it; the expression's value is the new value.
    pub(super) fn bind_struct_this_assignment(&mut self, target: &ast::Expr, value: &ast::Expr, span: Span) -> Option<BExpr> {
        if !matches!(target.kind, ast::ExprKind::This) {
            return None;
        }
        let ty = self.this_type.filter(|&t| self.is_struct(t))?;
        let this = self.bind_this(target.span);
        let v = self.bind_expr_to(value, ty);
        let tmp = self.temp(ty, span);
        let mut stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span)];
        for field in self.instance_fields_of(ty) {
            let from = self.instance_field(self.local_expr(tmp, span), field, ty, span);
            let to = self.instance_field(this.clone(), field, ty, span);
            let assign = BExpr::new(BKind::Assign { target: Box::new(to), value: Box::new(from) }, TypeId::VOID, span);
            stmts.push(BStmt::new(SKind::Expr(assign), span));
        }
        let value = Box::new(self.local_expr(tmp, span));
        Some(BExpr::new(BKind::Seq { stmts, value }, ty, span))
    }

    fn instance_fields_of(&self, t: TypeId) -> Vec<crate::metadata::FieldId> {
        let Some(def) = self.c.meta.types.def_of(t) else { return Vec::new() };
        self.c.meta.type_def(def).fields.iter().copied().filter(|&f| !self.c.meta.field(f).is_static()).collect()
    }
}
