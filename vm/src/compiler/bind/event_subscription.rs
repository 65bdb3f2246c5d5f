//! `e.X += handler` and `-=` on an event without a field (declared accessors, an
//! interface's event): a call of its `add_X`/`remove_X` accessor.

use super::expr::Bound;
use super::lookup::Member;
use super::MethodBinder;
use crate::compiler::bound::*;
use grammar::ast::{self, BinaryOp, ExprKind};
use grammar::span::Span;

impl MethodBinder<'_> {
    /// The accessor call for `target += value` / `target -= value` when `target` names an
    /// event whose subscriptions go through accessor methods, else `None`.
    pub(super) fn bind_event_accessor_call(&mut self, op: BinaryOp, target: &ast::Expr, value: &ast::Expr, span: Span) -> Option<BExpr> {
        let prefix = match op {
            BinaryOp::Add => "add",
            BinaryOp::Sub => "remove",
            _ => return None,
        };
        let accessor_name = |seg: &ast::NameSegment| ast::NameSegment {
            name: ast::Ident { name: format!("{prefix}_{}", seg.name.name), span: seg.name.span },
            type_args: Vec::new(),
        };
        let accessor = match &target.kind {
            ExprKind::Name(seg) if self.c.custom_event_names.contains(&seg.name.name) => ExprKind::Name(accessor_name(seg)),
            ExprKind::Member { target: receiver, name, conditional: false } if self.c.custom_event_names.contains(&name.name.name) => {
                ExprKind::Member { target: receiver.clone(), name: accessor_name(name), conditional: false }
            }
            _ => return None,
        };
        let accessor = ast::Expr { kind: accessor, span: target.span };
        let Bound::Methods(group) = self.bind(&accessor, None) else { return None };
        if !group.methods.iter().all(|(m, _)| self.c.custom_event_accessors.contains(m)) {
            return None;
        }
        // A field-like event overriding an abstract one is its own field, also for `+=`.
        let searched = group.receiver.as_ref().map(|r| r.ty).or(self.this_type);
        let name = event_name(target);
        if let (Some(t), Some(name)) = (searched, name) {
            if let Some(Member::Field(f, _)) = self.lookup_member(t, &name) {
                if self.c.event_fields.contains(&f) {
                    return None;
                }
            }
        }
        let arg = ast::Arg { name: None, modifier: ast::ArgModifier::None, expr: value.clone(), span: value.span };
        Some(self.bind_group_call(group, &[arg], span))
    }
}

fn event_name(target: &ast::Expr) -> Option<String> {
    match &target.kind {
        ExprKind::Name(seg) => Some(seg.name.name.clone()),
        ExprKind::Member { name, .. } => Some(name.name.name.clone()),
        _ => None,
    }
}
