//! Predefined operators over operands a user-defined implicit conversion reaches:
//! `-meters` and `meters + 1` where `Meters` converts to `int` (C# §12.4.4, §12.4.5: the
//! predefined operators are candidates, and an operand may reach their parameter types
//! through a user-defined conversion).

use super::convert::Prim;
use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::{TypeDefKind, TypeId};
use grammar::ast::{BinaryOp, UnaryOp};
use grammar::span::Span;

/// The predefined operand types in the order overload resolution prefers them: each
/// converts implicitly to the later ones, so the first that applies is the best.
const NUMERIC_ORDER: [Prim; 7] = [Prim::Int, Prim::UInt, Prim::Long, Prim::ULong, Prim::Float, Prim::Double, Prim::Decimal];

impl MethodBinder<'_> {
    /// The type a unary operator's operand is converted to when only a user-defined
    /// conversion makes a predefined operator apply, or `None`.
    pub(super) fn unary_operand_through_user_conversion(&mut self, op: UnaryOp, operand: &BExpr) -> Option<TypeId> {
        if !self.has_user_conversions(operand.ty) {
            return None;
        }
        let candidates: &[Prim] = match op {
            UnaryOp::Minus => &[Prim::Int, Prim::Long, Prim::Float, Prim::Double, Prim::Decimal],
            UnaryOp::Plus => &NUMERIC_ORDER,
            UnaryOp::BitNot => &[Prim::Int, Prim::UInt, Prim::Long, Prim::ULong],
            UnaryOp::Not => return self.converts_implicitly(operand, self.wk().boolean).then(|| self.wk().boolean),
            _ => return None,
        };
        let types: Vec<TypeId> = candidates.iter().map(|&p| self.prim_type(p)).collect();
        types.into_iter().find(|&t| self.converts_implicitly(operand, t))
    }

    /// `a op b` where a user-defined implicit conversion takes an operand to the
    /// parameter type of a predefined operator: both operands converted, then bound again.
    pub(super) fn binary_through_user_conversion(&mut self, op: BinaryOp, a: &BExpr, b: &BExpr, span: Span) -> Option<BExpr> {
        if !self.has_user_conversions(a.ty) && !self.has_user_conversions(b.ty) {
            return None;
        }
        let boolean = self.wk().boolean;
        let mut candidates: Vec<TypeId> = NUMERIC_ORDER.iter().map(|&p| self.prim_type(p)).collect();
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor) {
            candidates.insert(0, boolean);
        }
        let t = candidates.into_iter().find(|&t| self.converts_implicitly(a, t) && self.converts_implicitly(b, t))?;
        let (a, b) = (self.coerce(a.clone(), t), self.coerce(b.clone(), t));
        Some(self.make_binary(op, a, b, span))
    }

    fn converts_implicitly(&mut self, e: &BExpr, to: TypeId) -> bool {
        self.conversion(e, to).is_some_and(|c| c.implicit)
    }

    /// A class or struct of the program's or the library's (not a primitive or an enum),
    /// which may declare conversion operators.
    fn has_user_conversions(&self, t: TypeId) -> bool {
        if self.prim(t).is_some() || t == self.wk().boolean || t == self.wk().string {
            return false;
        }
        self.c.meta.types.def_of(t).is_some_and(|d| matches!(self.c.meta.type_def(d).kind, TypeDefKind::Class | TypeDefKind::Struct))
    }
}
