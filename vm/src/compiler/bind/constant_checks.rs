//! Constant expressions are evaluated at compile time and checked there (C# §12.8.20):
//! outside an explicit `unchecked` context, an integral operation that overflows is
//! CS0220, a cast of a constant that does not fit its type CS0221, and an implicit
//! conversion of one CS0031; inside `unchecked(...)` they wrap as at run time.

use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::TypeId;
use crate::value::arith::ArithError;
use crate::value::ExceptionKind;
use crate::value::Value;
use grammar::span::Span;

impl MethodBinder<'_> {
    /// Whether folding `result` (an operation on constants) overflowed where that is an
    /// error; reports CS0220 if so.
    pub(super) fn constant_overflowed(&mut self, result: &Result<Value, ArithError>, span: Span) -> bool {
        let overflowed = matches!(result, Err(ArithError::Throw(ExceptionKind::Overflow)));
        if overflowed && !self.explicitly_unchecked {
            self.error(span, "CS0220", "The operation overflows at compile time in checked mode");
            return true;
        }
        false
    }

    /// `(byte)300`, `(uint)-1`, `(int)3e10` outside `unchecked`: CS0221.
    pub(super) fn check_constant_cast(&mut self, c: &ConstVal, from: TypeId, to: TypeId, span: Span) -> bool {
        if self.explicitly_unchecked || self.constant_fits(c, from, to) {
            return true;
        }
        let (v, t) = (self.constant_text(c, from), self.type_name(to));
        self.error(span, "CS0221", format!("Constant value '{v}' cannot be converted to a '{t}' (use 'unchecked' syntax to override)"));
        false
    }

    /// `byte b = 300;`: an integral constant that does not fit the integral type it is
    /// converted to implicitly (CS0031). False when the conversion is not of that kind.
    pub(super) fn report_constant_out_of_range(&mut self, expr: &BExpr, to: TypeId) -> bool {
        let BKind::Const(c @ (ConstVal::Int(_) | ConstVal::UInt(_))) = &expr.kind else { return false };
        use super::convert::Prim;
        let target = self.nullable_inner(to).unwrap_or(to);
        // Only `int` constants (and `long` ones to `ulong`) convert implicitly when they fit.
        let would_convert = match (self.prim(expr.ty), self.prim(target)) {
            (Some(Prim::Int), Some(t)) => t.is_integral(),
            (Some(Prim::Long), Some(t)) => t == Prim::ULong,
            _ => false,
        };
        if !would_convert {
            return false;
        }
        let (v, t) = (self.constant_text(c, expr.ty), self.type_name(target));
        self.error(expr.span, "CS0031", format!("Constant value '{v}' cannot be converted to a '{t}'"));
        true
    }

    /// Whether the constant converts to the numeric type `to` without overflow.
    fn constant_fits(&self, c: &ConstVal, from: TypeId, to: TypeId) -> bool {
        use crate::value::arith::convert;
        let Some(kind) = self.prim(self.nullable_inner(to).unwrap_or(to)).and_then(|p| p.num_kind()) else { return true };
        let v = match c {
            ConstVal::Int(i) => Value::I64(*i),
            ConstVal::UInt(u) => Value::U64(*u),
            ConstVal::Char(ch) => Value::Char(*ch),
            ConstVal::Float(f) if self.prim(from) == Some(super::convert::Prim::Float) => Value::F32(*f as f32),
            ConstVal::Float(f) => Value::F64(*f),
            _ => return true,
        };
        convert(v, kind, true).is_ok()
    }

    /// A constant as C# shows it in a diagnostic.
    fn constant_text(&self, c: &ConstVal, ty: TypeId) -> String {
        use crate::numerics::{format, invariant, Num};
        let number = match c {
            ConstVal::Int(i) => return i.to_string(),
            ConstVal::UInt(u) => return u.to_string(),
            ConstVal::Char(ch) => return (*ch as u32).to_string(),
            ConstVal::Float(f) if self.prim(ty) == Some(super::convert::Prim::Float) => Num::F32(*f as f32),
            ConstVal::Float(f) => Num::F64(*f),
            _ => return String::new(),
        };
        format(number, "", invariant()).unwrap_or_default()
    }
}
