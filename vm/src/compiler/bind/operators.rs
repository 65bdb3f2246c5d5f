//! Operators: unary and binary operator resolution (predefined numeric, bool, enum, string,
//! delegate and reference operators, user-defined operators, lifted nullable operators),
//! constant folding, assignment, compound assignment and `++`/`--`.

use super::convert::Prim;
use super::expr::{Bound, PropertyAccess};
use super::{value_arg, MethodBinder};
use crate::compiler::bound::retyped;
use crate::compiler::bound::*;
use crate::metadata::{MethodId, MethodKind, TypeId};
use grammar::ast::{self, BinaryOp, UnaryOp};
use grammar::span::Span;

impl MethodBinder<'_> {
    // ---- unary ---------------------------------------------------------------------------

    pub fn bind_unary(&mut self, op: UnaryOp, operand: &ast::Expr, span: Span) -> BExpr {
        match op {
            UnaryOp::PreIncrement => return self.bind_increment(operand, true, false, span),
            UnaryOp::PreDecrement => return self.bind_increment(operand, false, false, span),
            _ => {}
        }
        if op == UnaryOp::Minus {
            if let Some(e) = self.negative_literal(operand, span) {
                return e;
            }
        }
        let v = self.bind_expr(operand);
        if v.is_error() {
            return BExpr::error(span);
        }
        if let Some(call) = self.user_operator(unary_op_name(op), std::slice::from_ref(&v), span) {
            return call;
        }
        self.bind_unary_on(op, v, span)
    }

    /// A unary operator (not `++`/`--`, no user-defined operator) over a bound operand.
    fn bind_unary_on(&mut self, op: UnaryOp, v: BExpr, span: Span) -> BExpr {
        if op == UnaryOp::BitNot && self.is_enum(v.ty) {
            return self.enum_complement(v, span);
        }
        if op == UnaryOp::BitNot && self.nullable_inner(v.ty).is_some_and(|t| self.is_enum(t)) {
            return self.lifted_enum_complement(v, span);
        }
        let boolean = self.wk().boolean;
        let inner = self.nullable_inner(v.ty);
        let base_ty = inner.unwrap_or(v.ty);
        let result = match op {
            UnaryOp::Not if base_ty == boolean => Some((BUnOp::Not, boolean)),
            UnaryOp::Plus | UnaryOp::Minus | UnaryOp::BitNot => {
                let promoted = self.unary_promotion(base_ty, op);
                promoted.map(|t| match op {
                    UnaryOp::Plus => (BUnOp::Neg { checked: false }, t),
                    UnaryOp::Minus => (BUnOp::Neg { checked: self.checked }, t),
                    _ => (BUnOp::BitNot, t),
                })
            }
            _ => None,
        };
        let Some((bop, ty)) = result else {
            if let Some(lifted) = self.lifted_user_unary(op, &v, span) {
                return lifted;
            }
            if let Some(t) = self.unary_operand_through_user_conversion(op, &v) {
                let converted = self.coerce(v, t);
                return self.bind_unary_on(op, converted, span);
            }
            let shown = self.type_name(v.ty);
            self.error(span, "CS0023", format!("Operator '{}' cannot be applied to operand of type '{shown}'", unary_symbol(op)));
            return BExpr::error(span);
        };
        if inner.is_some() {
            return self.lifted_unary(bop, v, ty, span, op == UnaryOp::Plus);
        }
        let operand = self.coerce(v, ty);
        if op == UnaryOp::Plus {
            return BExpr { span, ..operand };
        }
        if let Some(f) = self.fold_unary(bop, &operand, ty, span) {
            return f;
        }
        BExpr::new(BKind::Unary { op: bop, operand: Box::new(operand) }, ty, span)
    }

    /// `~e` on an enum: the complement of its underlying value (computed in the promoted
    /// type, folded when constant), narrowed back to the enum (C# §12.9.5).
    fn enum_complement(&mut self, v: BExpr, span: Span) -> BExpr {
        let enum_ty = v.ty;
        let Some(under) = self.enum_underlying(enum_ty) else { return BExpr::error(span) };
        let complement = self.bind_unary_on(UnaryOp::BitNot, retyped(v, under), span);
        if complement.is_error() {
            return complement;
        }
        let narrowed = if complement.ty == under {
            complement
        } else if let Some(folded) = self.fold_constant_cast(&complement, under, span) {
            folded
        } else {
            // The complement of a narrow value leaves the underlying range: never checked.
            let Some(to) = self.prim(under).and_then(|p| p.num_kind()) else { return BExpr::error(span) };
            BExpr::new(BKind::Conv { kind: ConvKind::Numeric { to, checked: false }, operand: Box::new(complement) }, under, span)
        };
        retyped(narrowed, enum_ty)
    }

    /// `~e` on an `E?`: null stays null.
    fn lifted_enum_complement(&mut self, v: BExpr, span: Span) -> BExpr {
        let (nullable, inner) = (v.ty, self.nullable_inner(v.ty).unwrap_or(v.ty));
        let tmp = self.temp(nullable, span);
        let t = self.local_expr(tmp, span);
        let unwrapped = BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(t.clone()) }, inner, span);
        let complement = retyped(self.enum_complement(unwrapped, span), nullable);
        let null = BExpr::new(BKind::Const(ConstVal::Null), nullable, span);
        let is_null = self.null_test(t, true, span);
        let cond = BExpr::new(BKind::Cond { cond: Box::new(is_null), then: Box::new(null), otherwise: Box::new(complement) }, nullable, span);
        BExpr::new(BKind::Seq { stmts: vec![BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span)], value: Box::new(cond) }, nullable, span)
    }

    /// `-2147483648` and `-9223372036854775808` are `int`/`long` literals (C# §12.9.3).
    fn negative_literal(&mut self, operand: &ast::Expr, span: Span) -> Option<BExpr> {
        let ast::ExprKind::Literal(ast::Literal::Int { value, suffix: ast::IntSuffix::None }) = operand.kind else { return None };
        if value == 2_147_483_648 {
            return Some(BExpr::new(BKind::Const(ConstVal::Int(i32::MIN as i64)), self.wk().int32, span));
        }
        if value == 9_223_372_036_854_775_808 {
            return Some(BExpr::new(BKind::Const(ConstVal::Int(i64::MIN)), self.wk().int64, span));
        }
        None
    }

    fn unary_promotion(&self, t: TypeId, op: UnaryOp) -> Option<TypeId> {
        if self.is_enum(t) && op == UnaryOp::BitNot {
            return Some(t);
        }
        let p = self.prim(t)?;
        Some(match p {
            Prim::SByte | Prim::Byte | Prim::Short | Prim::UShort | Prim::Char | Prim::Int => self.wk().int32,
            Prim::UInt if op == UnaryOp::Minus => self.wk().int64,
            Prim::ULong if op == UnaryOp::Minus => return None,
            Prim::Decimal => return None,
            _ => t,
        })
    }

    /// `-d` on a `decimal?` (a type whose operators are user-defined): `null` if the
    /// operand is, else the operator on its value.
    fn lifted_user_unary(&mut self, op: UnaryOp, v: &BExpr, span: Span) -> Option<BExpr> {
        let inner = self.nullable_inner(v.ty)?;
        self.user_operator(unary_op_name(op), &[BExpr::new(BKind::Default, inner, span)], span)?;
        let tmp = self.temp(v.ty, span);
        let t = self.local_expr(tmp, span);
        let unwrapped = BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(t.clone()) }, inner, span);
        let applied = self.user_operator(unary_op_name(op), &[unwrapped], span)?;
        let result_ty = self.c.nullable_of(applied.ty);
        let wrapped = retyped(applied, result_ty);
        let null = BExpr::new(BKind::Const(ConstVal::Null), result_ty, span);
        let is_null = self.null_test(t, true, span);
        let cond = BExpr::new(BKind::Cond { cond: Box::new(is_null), then: Box::new(null), otherwise: Box::new(wrapped) }, result_ty, span);
        Some(BExpr::new(
            BKind::Seq { stmts: vec![BStmt::new(SKind::Local { local: tmp, init: Some(v.clone()) }, span)], value: Box::new(cond) },
            result_ty,
            span,
        ))
    }

    fn lifted_unary(&mut self, op: BUnOp, v: BExpr, ty: TypeId, span: Span, identity: bool) -> BExpr {
        let result_ty = self.c.nullable_of(ty);
        let tmp = self.temp(v.ty, span);
        let t = self.local_expr(tmp, span);
        let unwrapped = BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(t.clone()) }, self.nullable_inner(v.ty).unwrap_or(ty), span);
        let unwrapped = self.coerce(unwrapped, ty);
        let applied = if identity { unwrapped } else { BExpr::new(BKind::Unary { op, operand: Box::new(unwrapped) }, ty, span) };
        let wrapped = retyped(applied, result_ty);
        let null = BExpr::new(BKind::Const(ConstVal::Null), result_ty, span);
        let is_null = self.null_test(t, true, span);
        let cond = BExpr::new(BKind::Cond { cond: Box::new(is_null), then: Box::new(null), otherwise: Box::new(wrapped) }, result_ty, span);
        BExpr::new(BKind::Seq { stmts: vec![BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span)], value: Box::new(cond) }, result_ty, span)
    }

    /// `e == null` (or `!=`) on a nullable or reference value.
    pub fn null_test(&mut self, e: BExpr, is_null: bool, span: Span) -> BExpr {
        let null = BExpr::new(BKind::Const(ConstVal::Null), e.ty, span);
        let op = if is_null { BBinOp::Eq } else { BBinOp::Ne };
        BExpr::new(BKind::Binary { op, left: Box::new(e), right: Box::new(null) }, self.wk().boolean, span)
    }

    fn fold_unary(&mut self, op: BUnOp, v: &BExpr, ty: TypeId, span: Span) -> Option<BExpr> {
        let BKind::Const(c) = &v.kind else { return None };
        let folded = match (op, c) {
            (BUnOp::Neg { .. }, ConstVal::Int(i)) => {
                let (int, long) = (self.wk().int32, self.wk().int64);
                let overflows = (ty == int && *i == i32::MIN as i64) || (ty == long && *i == i64::MIN);
                if overflows && self.constant_overflowed(&Err(crate::value::arith::ArithError::Throw(crate::value::ExceptionKind::Overflow)), span) {
                    return Some(BExpr::error(span));
                }
                let n = i.wrapping_neg();
                if ty == self.wk().int32 {
                    ConstVal::Int(n as i32 as i64)
                } else {
                    ConstVal::Int(n)
                }
            }
            (BUnOp::Neg { .. }, ConstVal::Float(f)) => ConstVal::Float(-f),
            (BUnOp::Not, ConstVal::Bool(b)) => ConstVal::Bool(!b),
            (BUnOp::BitNot, ConstVal::Int(_) | ConstVal::UInt(_)) => {
                let value = self.const_value(c, ty)?;
                super::value_to_const(crate::value::arith::bit_not(value).ok()?)?
            }
            _ => return None,
        };
        Some(BExpr::new(BKind::Const(folded), ty, span))
    }

    // ---- binary --------------------------------------------------------------------------

    pub fn bind_binary(&mut self, op: BinaryOp, left: &ast::Expr, right: &ast::Expr, target: Option<TypeId>, span: Span) -> BExpr {
        match op {
            BinaryOp::And | BinaryOp::Or => return self.bind_conditional_logical(op, left, right, span),
            BinaryOp::Coalesce => return self.bind_coalesce(left, right, target, span),
            _ => {}
        }
        let Some((a, b)) = self.bind_binary_operands(op, left, right, span) else { return BExpr::error(span) };
        if a.is_error() || b.is_error() {
            return BExpr::error(span);
        }
        self.make_binary(op, a, b, span)
    }

    /// Binds the operands of a binary operator. A `default` literal operand of `==`/`!=`
    /// takes the other operand's type (C# 7.1); anywhere else, or against a tuple or
    /// another `default`, it is an error (CS8310, CS8315), as in Roslyn.
    fn bind_binary_operands(&mut self, op: BinaryOp, left: &ast::Expr, right: &ast::Expr, span: Span) -> Option<(BExpr, BExpr)> {
        let (left_default, right_default) = (is_default_literal(left), is_default_literal(right));
        if !left_default && !right_default {
            return Some((self.bind_expr(left), self.bind_expr(right)));
        }
        let o = binary_symbol(op);
        if !matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            self.error(span, "CS8310", format!("Operator '{o}' cannot be applied to operand 'default'"));
            return None;
        }
        if left_default && right_default {
            self.error(span, "CS8315", format!("Operator '{o}' is ambiguous on operands 'default' and 'default'"));
            return None;
        }
        let other = self.bind_expr(if left_default { right } else { left });
        if self.is_tuple_type(other.ty) {
            self.error(span, "CS8310", format!("Operator '{o}' cannot be applied to operand 'default'"));
            return None;
        }
        let literal = self.bind_value_to(if left_default { left } else { right }, other.ty);
        Some(if left_default { (literal, other) } else { (other, literal) })
    }

    /// Resolves a binary operator over bound operands.
    pub fn make_binary(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> BExpr {
        if a.is_error() || b.is_error() {
            return BExpr::error(span);
        }
        if op == BinaryOp::Add && self.not_delegate(&a, &b) {
            // An operand with an implicit user-defined conversion to string makes `+` a
            // concatenation too: `string + string` applies the conversion.
            let string = self.wk().string;
            let (a_converts, b_converts) = (self.converts_to_string_by_user_operator(a.ty), self.converts_to_string_by_user_operator(b.ty));
            if a.ty == string || b.ty == string || a_converts || b_converts {
                // A user-defined `+` wins over the predefined string concatenation (§12.4.5).
                if self.declares_own_operators(a.ty) || self.declares_own_operators(b.ty) {
                    if let Some(call) = self.user_operator(binary_op_name(op), &[a.clone(), b.clone()], span) {
                        return call;
                    }
                }
                let a = if a_converts { self.coerce(a, string) } else { a };
                let b = if b_converts { self.coerce(b, string) } else { b };
                return self.concat(a, b, span);
            }
        }
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne) && self.is_tuple_type(a.ty) && self.is_tuple_type(b.ty) {
            if let Some(e) = self.tuple_equality(op, a.clone(), b.clone(), span) {
                return e;
            }
        }
        if let Some(call) = self.user_operator(binary_op_name(op), &[a.clone(), b.clone()], span) {
            return call;
        }
        if matches!(op, BinaryOp::Add | BinaryOp::Sub) && self.is_delegate_type(a.ty) && (a.ty == b.ty || b.ty == TypeId::NULL) {
            return self.delegate_combine(op, a, b, span);
        }
        if let Some(e) = self.enum_binary(op, &a, &b, span) {
            return e;
        }
        let (a, b) = self.type_null_operand(op, a, b, span);
        let (ia, ib) = (self.nullable_inner(a.ty), self.nullable_inner(b.ty));
        if ia.is_some() || ib.is_some() {
            if let Some(e) = self.lifted_binary(op, a.clone(), b.clone(), span) {
                return e;
            }
        }
        if let Some(e) = self.predefined_binary(op, a.clone(), b.clone(), span) {
            return e;
        }
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            if let Some(e) = self.reference_equality(op, a.clone(), b.clone(), span) {
                return e;
            }
        }
        if let Some(e) = self.binary_through_user_conversion(op, &a, &b, span) {
            return e;
        }
        let (x, y) = (self.type_name(a.ty), self.type_name(b.ty));
        self.error(span, "CS0019", format!("Operator '{}' cannot be applied to operands of type '{x}' and '{y}'", binary_symbol(op)));
        BExpr::error(span)
    }

    /// `t1 == t2` on tuples of the same length: element by element, left to right, with
    /// `&&` (or `||` of `!=`), each operand evaluated once.
    fn tuple_equality(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> Option<BExpr> {
        let n = self.tuple_length(a.ty);
        if n != self.tuple_length(b.ty) {
            return None;
        }
        let (ta, tb) = (self.temp(a.ty, span), self.temp(b.ty, span));
        let setup = vec![BStmt::new(SKind::Local { local: ta, init: Some(a) }, span), BStmt::new(SKind::Local { local: tb, init: Some(b) }, span)];
        let boolean = self.wk().boolean;
        let mut result: Option<BExpr> = None;
        for i in 0..n {
            let (ea, eb) = (self.local_expr(ta, span), self.local_expr(tb, span));
            let x = self.positional_element(ea, i, n, span)?;
            let y = self.positional_element(eb, i, n, span)?;
            let cmp = self.make_binary(op, x, y, span);
            result = Some(match result {
                None => cmp,
                Some(prev) if op == BinaryOp::Eq => BExpr::new(BKind::AndAlso(Box::new(prev), Box::new(cmp)), boolean, span),
                Some(prev) => BExpr::new(BKind::OrElse(Box::new(prev), Box::new(cmp)), boolean, span),
            });
        }
        Some(BExpr::new(BKind::Seq { stmts: setup, value: Box::new(result?) }, boolean, span))
    }

    /// The number of elements of a tuple type, counting those nested in `Rest`.
    fn tuple_length(&self, t: TypeId) -> usize {
        let args = self.c.meta.types.args_of(t);
        if args.len() == 8 {
            7 + self.tuple_length(args[7])
        } else {
            args.len()
        }
    }

    fn not_delegate(&self, a: &BExpr, b: &BExpr) -> bool {
        !(self.is_delegate_type(a.ty) && self.is_delegate_type(b.ty))
    }

    fn converts_to_string_by_user_operator(&mut self, t: TypeId) -> bool {
        let string = self.wk().string;
        if t == string || t == TypeId::NULL || self.prim(t).is_some() || !self.declares_own_operators(t) {
            return false;
        }
        self.type_conversion(t, string).is_some_and(|c| c.implicit && matches!(c.kind, ConvKind::User(_)))
    }

    /// A class or struct of the program or library other than string, whose operators
    /// (its own or its base classes') may apply.
    fn declares_own_operators(&self, t: TypeId) -> bool {
        let t = self.nullable_inner(t).unwrap_or(t);
        t != self.wk().string
            && t != self.wk().object
            && self.prim(t).is_none()
            && matches!(self.def_kind(t), Some(crate::metadata::TypeDefKind::Class | crate::metadata::TypeDefKind::Struct))
    }

    /// `a + b` with a string operand: every non-string part is turned into a string.
    fn concat(&mut self, a: BExpr, b: BExpr, span: Span) -> BExpr {
        let string = self.wk().string;
        if let (BKind::Const(x), BKind::Const(y)) = (&a.kind, &b.kind) {
            if let (Some(x), Some(y)) = (const_text(x), const_text(y)) {
                return BExpr::new(BKind::Const(ConstVal::Str(format!("{x}{y}"))), string, span);
            }
        }
        let mut parts = Vec::new();
        for e in [a, b] {
            match e.kind {
                BKind::Concat(inner) if e.ty == string => parts.extend(inner),
                _ => parts.push(self.to_string_part(e)),
            }
        }
        BExpr::new(BKind::Concat(parts), string, span)
    }

    /// A value as a string for concatenation/interpolation (`null` → empty).
    pub fn to_string_part(&mut self, e: BExpr) -> BExpr {
        let string = self.wk().string;
        if e.ty == string || e.ty == TypeId::NULL {
            return retyped(e, string);
        }
        let span = e.span;
        if self.prim(e.ty).is_some_and(|p| p != Prim::Decimal) || self.is_enum(e.ty) || e.ty == self.wk().boolean {
            return BExpr::new(BKind::Format { value: Box::new(e), format: None }, string, span);
        }
        let viewed = self.view_if_value(e);
        let obj = self.wk().object;
        let viewed = retyped(viewed, obj);
        self.call_string_helper("ToStringOrEmpty", vec![viewed], span)
    }

    /// Calls a static helper of `System.String` (by name and arity).
    pub fn call_string_helper(&mut self, name: &str, args: Vec<BExpr>, span: Span) -> BExpr {
        let string = self.wk().string;
        let Some(def) = self.c.meta.types.def_of(string) else { return BExpr::error(span) };
        let m = self.c.meta.type_def(def).methods.iter().copied().find(|&m| {
            let md = self.c.meta.method(m);
            md.name == name && md.params.len() == args.len() && md.is_static()
        });
        match m {
            Some(m) => {
                let ret = self.c.meta.method(m).ret;
                BExpr::new(
                    BKind::Call {
                        method: m,
                        owner: string,
                        type_args: Vec::new(),
                        receiver: None,
                        args: args.into_iter().map(value_arg).collect(),
                        is_virtual: false,
                    },
                    ret,
                    span,
                )
            }
            None => BExpr::error(span),
        }
    }

    fn delegate_combine(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> BExpr {
        let name = if op == BinaryOp::Add { "Combine" } else { "Remove" };
        let del = self.wk().delegate;
        let Some(def) = self.c.meta.types.def_of(del) else { return BExpr::error(span) };
        let m = self.c.meta.type_def(def).methods.iter().copied().find(|&m| self.c.meta.method(m).name == name && self.c.meta.method(m).params.len() == 2);
        let Some(m) = m else { return BExpr::error(span) };
        let ty = a.ty;
        let a = retyped(a, del);
        let b = retyped(b, del);
        let call = BExpr::new(
            BKind::Call { method: m, owner: del, type_args: Vec::new(), receiver: None, args: vec![value_arg(a), value_arg(b)], is_virtual: false },
            del,
            span,
        );
        BExpr::new(BKind::Conv { kind: ConvKind::Cast, operand: Box::new(call) }, ty, span)
    }

    /// Enum operators: comparisons and `& | ^` between the same enum (or an enum and the
    /// constant `0`, which converts to any enum), `E ± n`, `E - E`.
    fn enum_binary(&mut self, op: BinaryOp, a: &BExpr, b: &BExpr, span: Span) -> Option<BExpr> {
        let (ea, eb) = (self.is_enum(a.ty), self.is_enum(b.ty));
        if !ea && !eb {
            return None;
        }
        let enum_ty = if ea { a.ty } else { b.ty };
        let under = self.enum_underlying(enum_ty)?;
        let boolean = self.wk().boolean;
        let as_under = |x: &BExpr| retyped(x.clone(), under);
        let other_is_const_zero = |x: &BExpr| matches!(x.kind, BKind::Const(ConstVal::Int(0)));
        match op {
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => {
                let ok = (ea && eb && a.ty == b.ty) || (ea && other_is_const_zero(b)) || (eb && other_is_const_zero(a));
                if !ok {
                    return None;
                }
                let (l, r) = (as_under(a), self.coerce(as_under(b), under));
                Some(BExpr::new(BKind::Binary { op: cmp_op(op), left: Box::new(l), right: Box::new(r) }, boolean, span))
            }
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
                if (ea && eb && a.ty == b.ty) || (ea && other_is_const_zero(b)) || (eb && other_is_const_zero(a)) =>
            {
                let bop = match op {
                    BinaryOp::BitAnd => BBinOp::BitAnd,
                    BinaryOp::BitOr => BBinOp::BitOr,
                    _ => BBinOp::BitXor,
                };
                let inner = self.predefined_binary(op_for(bop), as_under(a), as_under(b), span)?;
                Some(self.retype_as_enum(inner, under, enum_ty, span))
            }
            BinaryOp::Add | BinaryOp::Sub if ea != eb || op == BinaryOp::Sub => {
                if ea && eb && op == BinaryOp::Sub {
                    return self.predefined_binary(op, as_under(a), as_under(b), span);
                }
                let inner = self.predefined_binary(op, as_under(a), as_under(b), span)?;
                Some(self.retype_as_enum(inner, under, enum_ty, span))
            }
            _ => None,
        }
    }

    /// An arithmetic result on an enum's underlying type, converted back to the enum.
    fn retype_as_enum(&mut self, inner: BExpr, under: TypeId, enum_ty: TypeId, span: Span) -> BExpr {
        let narrowed = if inner.ty != under { self.cast(inner, under, span) } else { inner };
        retyped(narrowed, enum_ty)
    }

    /// Numeric, bool and char operators with binary numeric promotion (C# §12.4.7.3).
    fn predefined_binary(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> Option<BExpr> {
        let boolean = self.wk().boolean;
        if a.ty == boolean && b.ty == boolean {
            let bop = match op {
                BinaryOp::Eq => BBinOp::Eq,
                BinaryOp::Ne => BBinOp::Ne,
                BinaryOp::BitAnd => BBinOp::BitAnd,
                BinaryOp::BitOr => BBinOp::BitOr,
                BinaryOp::BitXor => BBinOp::BitXor,
                _ => return None,
            };
            return Some(self.fold_or_make(bop, a, b, boolean, span));
        }
        let (pa, pb) = (self.prim(a.ty)?, self.prim(b.ty)?);
        if matches!(op, BinaryOp::Shl | BinaryOp::Shr | BinaryOp::UShr) {
            return self.shift(op, a, pa, b, span);
        }
        let promoted = self.binary_promotion(pa, pb, &a, &b, span)?;
        let pty = self.prim_type(promoted);
        if promoted == Prim::Decimal {
            return self.decimal_operator(op, a, b, span);
        }
        let bop = match op {
            BinaryOp::Add => BBinOp::Add { checked: self.checked },
            BinaryOp::Sub => BBinOp::Sub { checked: self.checked },
            BinaryOp::Mul => BBinOp::Mul { checked: self.checked },
            BinaryOp::Div => BBinOp::Div,
            BinaryOp::Rem => BBinOp::Rem,
            BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor if !promoted.is_integral() => return None,
            BinaryOp::BitAnd => BBinOp::BitAnd,
            BinaryOp::BitOr => BBinOp::BitOr,
            BinaryOp::BitXor => BBinOp::BitXor,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => cmp_op(op),
            _ => return None,
        };
        let a = self.coerce(a, pty);
        let b = self.coerce(b, pty);
        if matches!(bop, BBinOp::Div | BBinOp::Rem) && promoted.is_integral() && matches!(b.kind, BKind::Const(ConstVal::Int(0) | ConstVal::UInt(0))) {
            self.error(span, "CS0020", "Division by constant zero");
            return Some(BExpr::error(span));
        }
        let ty = if bop.is_comparison() { boolean } else { pty };
        Some(self.fold_or_make(bop, a, b, ty, span))
    }

    /// The common type of two numeric operands (CS0034 for `ulong` with a signed type).
    fn binary_promotion(&mut self, a: Prim, b: Prim, ea: &BExpr, eb: &BExpr, span: Span) -> Option<Prim> {
        use Prim::*;
        if a == Decimal || b == Decimal {
            if matches!(a, Float | Double) || matches!(b, Float | Double) {
                return None;
            }
            return Some(Decimal);
        }
        if a == Double || b == Double {
            return Some(Double);
        }
        if a == Float || b == Float {
            return Some(Float);
        }
        if a == ULong || b == ULong {
            let other = if a == ULong { (b, eb) } else { (a, ea) };
            let signed = matches!(other.0, SByte | Short | Int | Long);
            // Only `int` and `long` constants convert implicitly to `ulong`.
            let const_nonneg = matches!(other.0, Int | Long) && matches!(other.1.kind, BKind::Const(ConstVal::Int(i)) if i >= 0);
            if signed && !const_nonneg {
                let (x, y) = (self.type_name(ea.ty), self.type_name(eb.ty));
                self.error(span, "CS0034", format!("Operator is ambiguous on operands of type '{x}' and '{y}'"));
                return None;
            }
            return Some(ULong);
        }
        if a == Long || b == Long {
            return Some(Long);
        }
        if a == UInt || b == UInt {
            let other = if a == UInt { (b, eb) } else { (a, ea) };
            let signed = matches!(other.0, SByte | Short | Int);
            // Only an `int` constant converts implicitly to `uint`.
            let const_nonneg = other.0 == Int && matches!(other.1.kind, BKind::Const(ConstVal::Int(i)) if i >= 0);
            return Some(if signed && !const_nonneg { Long } else { UInt });
        }
        Some(Int)
    }

    fn shift(&mut self, op: BinaryOp, a: BExpr, pa: Prim, b: BExpr, span: Span) -> Option<BExpr> {
        let left = match pa {
            Prim::Float | Prim::Double | Prim::Decimal => return None,
            Prim::UInt | Prim::Long | Prim::ULong => pa,
            _ => Prim::Int,
        };
        let lt = self.prim_type(left);
        let int = self.wk().int32;
        let a = self.coerce(a, lt);
        let b = self.coerce(b, int);
        let bop = match op {
            BinaryOp::Shl => BBinOp::Shl,
            BinaryOp::Shr => BBinOp::Shr,
            _ => BBinOp::UShr,
        };
        Some(self.fold_or_make(bop, a, b, lt, span))
    }

    /// `decimal` arithmetic and comparisons go through `System.Decimal`'s operators.
    fn decimal_operator(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> Option<BExpr> {
        let dec = self.wk().decimal;
        let a = self.coerce(a, dec);
        let b = self.coerce(b, dec);
        self.user_operator(binary_op_name(op), &[a, b], span)
    }

    fn fold_or_make(&mut self, op: BBinOp, a: BExpr, b: BExpr, ty: TypeId, span: Span) -> BExpr {
        if let Some(f) = self.fold_binary(op, &a, &b, ty, span) {
            return f;
        }
        BExpr::new(BKind::Binary { op, left: Box::new(a), right: Box::new(b) }, ty, span)
    }

    /// Folds constant operands with the interpreter's own arithmetic.
    fn fold_binary(&mut self, op: BBinOp, a: &BExpr, b: &BExpr, ty: TypeId, span: Span) -> Option<BExpr> {
        use crate::value::arith;
        let (BKind::Const(x), BKind::Const(y)) = (&a.kind, &b.kind) else { return None };
        let vx = self.const_value(x, a.ty)?;
        let vy = self.const_value(y, b.ty)?;
        let checked = match op {
            BBinOp::Add { .. } => Some(arith::add_checked(vx, vy)),
            BBinOp::Sub { .. } => Some(arith::sub_checked(vx, vy)),
            BBinOp::Mul { .. } => Some(arith::mul_checked(vx, vy)),
            BBinOp::Div => Some(arith::div(vx, vy)),
            _ => None,
        };
        if checked.is_some_and(|r| self.constant_overflowed(&r, span)) {
            return Some(BExpr::error(span));
        }
        let r = match op {
            BBinOp::Add { .. } => arith::add(vx, vy),
            BBinOp::Sub { .. } => arith::sub(vx, vy),
            BBinOp::Mul { .. } => arith::mul(vx, vy),
            BBinOp::Div => arith::div(vx, vy),
            BBinOp::Rem => arith::rem(vx, vy),
            BBinOp::BitAnd => arith::bit_and(vx, vy),
            BBinOp::BitOr => arith::bit_or(vx, vy),
            BBinOp::BitXor => arith::bit_xor(vx, vy),
            BBinOp::Shl => arith::shift(vx, vy, true, false),
            BBinOp::Shr => arith::shift(vx, vy, false, false),
            BBinOp::UShr => arith::shift(vx, vy, false, true),
            BBinOp::Eq => Ok(crate::value::Value::Bool(arith::equal(vx, vy))),
            BBinOp::Ne => Ok(crate::value::Value::Bool(!arith::equal(vx, vy))),
            BBinOp::Lt | BBinOp::Le | BBinOp::Gt | BBinOp::Ge => {
                let o = arith::compare(vx, vy).ok()?;
                let v = match op {
                    BBinOp::Lt => o.is_some_and(|o| o.is_lt()),
                    BBinOp::Le => o.is_some_and(|o| o.is_le()),
                    BBinOp::Gt => o.is_some_and(|o| o.is_gt()),
                    _ => o.is_some_and(|o| o.is_ge()),
                };
                Ok(crate::value::Value::Bool(v))
            }
        };
        let v = r.ok()?;
        Some(BExpr::new(BKind::Const(super::value_to_const(v)?), ty, span))
    }

    /// A constant as the run-time value of its type.
    fn const_value(&self, c: &ConstVal, ty: TypeId) -> Option<crate::value::Value> {
        use crate::value::Value;
        let p = self.prim(ty);
        Some(match (c, p) {
            (ConstVal::Bool(b), _) => Value::Bool(*b),
            (ConstVal::Int(i), Some(Prim::Int)) => Value::I32(*i as i32),
            (ConstVal::Int(i), Some(Prim::UInt)) => Value::U32(*i as u32),
            (ConstVal::Int(i), Some(Prim::Long)) => Value::I64(*i),
            (ConstVal::Int(i), Some(Prim::ULong)) => Value::U64(*i as u64),
            (ConstVal::UInt(u), Some(Prim::ULong)) => Value::U64(*u),
            (ConstVal::Float(f), Some(Prim::Double)) => Value::F64(*f),
            (ConstVal::Float(f), Some(Prim::Float)) => Value::F32(*f as f32),
            (ConstVal::Char(ch), Some(Prim::Char)) => Value::Char(*ch),
            _ => return None,
        })
    }

    /// `==`/`!=` between references (identity) or a nullable value and `null`.
    fn reference_equality(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> Option<BExpr> {
        let ok = |s: &Self, x: &BExpr| x.ty == TypeId::NULL || s.is_nullable_type(x.ty) || s.is_reference_type(x.ty) || (s.is_type_param(x.ty));
        if !ok(self, &a) || !ok(self, &b) {
            return None;
        }
        if self.is_type_param(a.ty) && b.ty != TypeId::NULL && !self.is_reference_type(a.ty) {
            return None;
        }
        let related = a.ty == TypeId::NULL
            || b.ty == TypeId::NULL
            || a.ty == b.ty
            || self.type_conversion(a.ty, b.ty).is_some()
            || self.type_conversion(b.ty, a.ty).is_some();
        if !related {
            return None;
        }
        let (a, b) = (self.box_if_value(a), self.box_if_value(b));
        let bop = if op == BinaryOp::Eq { BBinOp::Eq } else { BBinOp::Ne };
        Some(BExpr::new(BKind::Binary { op: bop, left: Box::new(a), right: Box::new(b) }, self.wk().boolean, span))
    }

    /// `null ^ false`, `x + null`, `5 == null`: the `null` literal against a value of a
    /// simple or enum type `T` (or against a `T?`, for operators other than `==`/`!=`) is a
    /// `T?`, and the lifted operator applies.
    fn type_null_operand(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> (BExpr, BExpr) {
        let is_null = |e: &BExpr| e.ty == TypeId::NULL && matches!(e.kind, BKind::Const(ConstVal::Null));
        let (null_first, other) = match (is_null(&a), is_null(&b)) {
            (true, false) => (true, b.ty),
            (false, true) => (false, a.ty),
            _ => return (a, b),
        };
        let liftable = match self.nullable_inner(other) {
            Some(_) => !matches!(op, BinaryOp::Eq | BinaryOp::Ne),
            None => self.prim(other).is_some() || self.is_enum(other) || other == self.wk().boolean,
        };
        if !liftable {
            return (a, b);
        }
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            self.warn_value_compared_with_null(other, op == BinaryOp::Ne, span);
        }
        let typed_null = BExpr::new(BKind::Const(ConstVal::Null), self.c.nullable_of(other), span);
        if null_first {
            (typed_null, b)
        } else {
            (a, typed_null)
        }
    }

    /// Lifted operators on `T?` operands: arithmetic yields `null` when an operand is null,
    /// `==`/`!=` compare null-ness, `<` and friends are false.
    fn lifted_binary(&mut self, op: BinaryOp, a: BExpr, b: BExpr, span: Span) -> Option<BExpr> {
        let ua = self.nullable_inner(a.ty).unwrap_or(a.ty);
        let ub = self.nullable_inner(b.ty).unwrap_or(b.ty);
        let boolean = self.wk().boolean;
        if a.ty == TypeId::NULL || b.ty == TypeId::NULL {
            if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                let (v, is_eq) = (if a.ty == TypeId::NULL { b } else { a }, op == BinaryOp::Eq);
                return Some(self.null_test(v, is_eq, span));
            }
            return None;
        }
        let probe_a = BExpr::new(BKind::Default, ua, span);
        let probe_b = BExpr::new(BKind::Default, ub, span);
        let snapshot = self.snapshot();
        let inner = self
            .predefined_binary(op, probe_a, probe_b, span)
            .or_else(|| self.enum_binary(op, &BExpr::new(BKind::Default, ua, span), &BExpr::new(BKind::Default, ub, span), span))
            .or_else(|| self.liftable_user_operator(op, ua, ub, span));
        self.restore(snapshot);
        let inner = inner?;
        if inner.is_error() {
            return None;
        }
        let (ta, tb) = (self.temp(a.ty, span), self.temp(b.ty, span));
        let (ea, eb) = (self.local_expr(ta, span), self.local_expr(tb, span));
        let init = vec![BStmt::new(SKind::Local { local: ta, init: Some(a) }, span), BStmt::new(SKind::Local { local: tb, init: Some(b) }, span)];
        let unwrap = |s: &mut Self, e: BExpr, u: TypeId| {
            if s.nullable_inner(e.ty).is_some() {
                BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(e) }, u, span)
            } else {
                e
            }
        };
        let value = match op {
            BinaryOp::Eq | BinaryOp::Ne => {
                // Both null: equal; one null: unequal; else the operator itself (a
                // user-defined `!=` is called, not `==` negated).
                let a_null = self.null_test(ea.clone(), true, span);
                let b_null = self.null_test(eb.clone(), true, span);
                let both_null = BExpr::new(BKind::AndAlso(Box::new(a_null.clone()), Box::new(b_null.clone())), boolean, span);
                let either_null = BExpr::new(BKind::OrElse(Box::new(a_null), Box::new(b_null)), boolean, span);
                let (x, y) = (unwrap(self, ea, ua), unwrap(self, eb, ub));
                let compared = self.make_binary(op, x, y, span);
                let is_eq = op == BinaryOp::Eq;
                let when_both_null = BExpr::new(BKind::Const(ConstVal::Bool(is_eq)), boolean, span);
                let when_one_null = BExpr::new(BKind::Const(ConstVal::Bool(!is_eq)), boolean, span);
                let inner_cond =
                    BExpr::new(BKind::Cond { cond: Box::new(either_null), then: Box::new(when_one_null), otherwise: Box::new(compared) }, boolean, span);
                BExpr::new(BKind::Cond { cond: Box::new(both_null), then: Box::new(when_both_null), otherwise: Box::new(inner_cond) }, boolean, span)
            }
            BinaryOp::BitAnd | BinaryOp::BitOr if ua == boolean && ub == boolean => {
                // `bool?` logic has three values: `false & null` is false, `true | null` true.
                let decisive = op == BinaryOp::BitOr;
                let is_decisive = |s: &mut Self, e: BExpr| {
                    let has_value = s.null_test(e.clone(), false, span);
                    let value = unwrap(s, e, boolean);
                    let value = if decisive { value } else { BExpr::new(BKind::Unary { op: BUnOp::Not, operand: Box::new(value) }, boolean, span) };
                    BExpr::new(BKind::AndAlso(Box::new(has_value), Box::new(value)), boolean, span)
                };
                let (da, db) = (is_decisive(self, ea.clone()), is_decisive(self, eb.clone()));
                let either_decisive = BExpr::new(BKind::OrElse(Box::new(da), Box::new(db)), boolean, span);
                let a_null = self.null_test(ea, true, span);
                let b_null = self.null_test(eb, true, span);
                let either_null = BExpr::new(BKind::OrElse(Box::new(a_null), Box::new(b_null)), boolean, span);
                let nullable_bool = self.c.nullable_of(boolean);
                let constant = |v: ConstVal| BExpr::new(BKind::Const(v), nullable_bool, span);
                let undecided = BExpr::new(
                    BKind::Cond {
                        cond: Box::new(either_null),
                        then: Box::new(constant(ConstVal::Null)),
                        otherwise: Box::new(constant(ConstVal::Bool(!decisive))),
                    },
                    nullable_bool,
                    span,
                );
                BExpr::new(
                    BKind::Cond { cond: Box::new(either_decisive), then: Box::new(constant(ConstVal::Bool(decisive))), otherwise: Box::new(undecided) },
                    nullable_bool,
                    span,
                )
            }
            _ => {
                let a_null = self.null_test(ea.clone(), true, span);
                let b_null = self.null_test(eb.clone(), true, span);
                let either_null = BExpr::new(BKind::OrElse(Box::new(a_null), Box::new(b_null)), boolean, span);
                let (x, y) = (unwrap(self, ea, ua), unwrap(self, eb, ub));
                let applied = self.make_binary(op, x, y, span);
                if matches!(op, BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge) {
                    let f = BExpr::new(BKind::Const(ConstVal::Bool(false)), boolean, span);
                    BExpr::new(BKind::Cond { cond: Box::new(either_null), then: Box::new(f), otherwise: Box::new(applied) }, boolean, span)
                } else {
                    let rt = self.c.nullable_of(applied.ty);
                    let null = BExpr::new(BKind::Const(ConstVal::Null), rt, span);
                    let wrapped = retyped(applied, rt);
                    BExpr::new(BKind::Cond { cond: Box::new(either_null), then: Box::new(null), otherwise: Box::new(wrapped) }, rt, span)
                }
            }
        };
        let ty = value.ty;
        Some(BExpr::new(BKind::Seq { stmts: init, value: Box::new(value) }, ty, span))
    }

    /// A user-defined operator on the underlying types of nullable operands that has a
    /// lifted form (C# §12.4.8): value-type parameters, and a value-type result (`bool`
    /// for the comparisons).
    fn liftable_user_operator(&mut self, op: BinaryOp, ua: TypeId, ub: TypeId, span: Span) -> Option<BExpr> {
        let probes = [BExpr::new(BKind::Default, ua, span), BExpr::new(BKind::Default, ub, span)];
        let call = self.user_operator(binary_op_name(op), &probes, span)?;
        let BKind::Call { method, owner, .. } = &call.kind else { return None };
        let params: Vec<TypeId> = self.c.meta.method(*method).params.iter().map(|p| p.ty).collect();
        let owner = *owner;
        let lifted_value = |s: &mut Self, t: TypeId| {
            let t = s.member_type(t, owner);
            s.c.meta.is_value_type(t) && s.nullable_inner(t).is_none()
        };
        let comparison = matches!(op, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge);
        let result_ok = if comparison { call.ty == self.wk().boolean } else { lifted_value(self, call.ty) };
        (result_ok && params.iter().all(|&p| lifted_value(self, p))).then_some(call)
    }

    /// A user-defined operator (`op_Addition`...) applicable to the operands, if any.
    pub fn user_operator(&mut self, name: &str, operands: &[BExpr], span: Span) -> Option<BExpr> {
        let mut candidates: Vec<(MethodId, TypeId)> = Vec::new();
        for o in operands {
            let t = self.nullable_inner(o.ty).unwrap_or(o.ty);
            if self.c.meta.types.def_of(t).is_none() {
                continue;
            }
            if self.prim(t).is_some_and(|p| p != Prim::Decimal) || self.def_kind(t) == Some(crate::metadata::TypeDefKind::Enum) {
                continue;
            }
            // The operand's type and its base classes declare the candidates (C# §12.4.6).
            let mut declaring = Some(t);
            while let Some(ty) = declaring {
                let Some(d) = self.c.meta.types.def_of(ty) else { break };
                for &m in &self.c.meta.type_def(d).methods.clone() {
                    let md = self.c.meta.method(m);
                    if md.name == name && md.kind == MethodKind::Operator && md.params.len() == operands.len() && !candidates.iter().any(|c| c.0 == m) {
                        candidates.push((m, ty));
                    }
                }
                declaring = self.c.meta.base_type(ty);
            }
        }
        if candidates.is_empty() {
            return None;
        }
        let mut best: Option<(MethodId, TypeId, u32)> = None;
        for (m, owner) in candidates {
            let params: Vec<TypeId> = self.c.meta.method(m).params.iter().map(|p| p.ty).collect();
            let params: Vec<TypeId> = params.into_iter().map(|p| self.member_type(p, owner)).collect();
            let mut score = 0;
            let mut ok = true;
            for (o, &p) in operands.iter().zip(&params) {
                match self.conversion(o, p) {
                    Some(c) if c.implicit => score += c.rank as u32,
                    _ => ok = false,
                }
            }
            if ok && best.is_none_or(|b| score < b.2) {
                best = Some((m, owner, score));
            }
        }
        let (m, owner, _) = best?;
        let params: Vec<TypeId> = self.c.meta.method(m).params.iter().map(|p| p.ty).collect();
        let args = operands
            .iter()
            .zip(params)
            .map(|(o, p)| {
                let pt = self.member_type(p, owner);
                value_arg(self.coerce(o.clone(), pt))
            })
            .collect();
        let ret = self.member_type(self.c.meta.method(m).ret, owner);
        Some(BExpr::new(BKind::Call { method: m, owner, type_args: Vec::new(), receiver: None, args, is_virtual: false }, ret, span))
    }

    fn bind_coalesce(&mut self, left: &ast::Expr, right: &ast::Expr, target: Option<TypeId>, span: Span) -> BExpr {
        let a = self.bind_expr(left);
        if a.is_error() {
            return BExpr::error(span);
        }
        if !self.is_nullable_type(a.ty) && !self.is_type_param(a.ty) {
            let shown = self.type_name(a.ty);
            self.error(span, "CS0019", format!("Operator '??' cannot be applied to operands of type '{shown}' and '{}'", "?"));
            return BExpr::error(span);
        }
        let inner = self.nullable_inner(a.ty);
        let b = self.bind(right, Some(inner.unwrap_or(a.ty)).or(target));
        let b = self.to_value(b, right.span);
        if b.is_error() {
            return BExpr::error(span);
        }
        let result_ty = if let Some(i) = inner {
            if self.conversion(&b, i).is_some_and(|c| c.implicit) {
                i
            } else {
                a.ty
            }
        } else if self.conversion(&b, a.ty).is_some_and(|c| c.implicit) {
            a.ty
        } else if self.type_conversion(a.ty, b.ty).is_some_and(|c| c.implicit) {
            b.ty
        } else {
            let (x, y) = (self.type_name(a.ty), self.type_name(b.ty));
            self.error(span, "CS0019", format!("Operator '??' cannot be applied to operands of type '{x}' and '{y}'"));
            return BExpr::error(span);
        };
        let b = self.coerce(b, result_ty);
        let a = if inner == Some(result_ty) { a } else { self.coerce(a, result_ty) };
        BExpr::new(BKind::Coalesce(Box::new(a), Box::new(b)), result_ty, span)
    }

    // ---- assignment ----------------------------------------------------------------------

    pub fn bind_assignment(&mut self, op: Option<BinaryOp>, target: &ast::Expr, value: &ast::Expr, span: Span) -> BExpr {
        if op.is_none() {
            if self.is_discard(target) {
                // `_ = e`: e is evaluated and its value is the assignment's (C# §12.21.2).
                return self.bind_expr(value);
            }
            if let Some(e) = self.try_bind_deconstruction(target, value, span) {
                return e;
            }
            if let Some(e) = self.bind_struct_this_assignment(target, value, span) {
                return e;
            }
        }
        if let Some(call) = op.and_then(|op| self.bind_event_accessor_call(op, target, value, span)) {
            return call;
        }
        let lhs = self.bind_lvalue(target);
        let Some(lhs) = lhs else {
            let _ = self.bind_expr(value);
            return BExpr::error(span);
        };
        match op {
            None => {
                let ty = lhs.ty();
                let v = self.bind_expr_to(value, ty);
                self.assign_to(lhs, v, span)
            }
            Some(BinaryOp::Coalesce) => self.bind_coalesce_assign(lhs, value, span),
            Some(bop) => self.bind_compound(lhs, bop, value, span),
        }
    }

    /// `_` naming no variable: a discard.
    fn is_discard(&self, target: &ast::Expr) -> bool {
        matches!(&target.kind, ast::ExprKind::Name(seg) if seg.name.name == "_" && seg.type_args.is_empty() && self.lookup_local("_").is_none())
    }

    /// `a ??= b` → `a ?? (a = b)`.
    fn bind_coalesce_assign(&mut self, lhs: LValue, value: &ast::Expr, span: Span) -> BExpr {
        let (setup, lhs) = self.stabilize(lhs, span);
        let ty = lhs.ty();
        let current = self.read_lvalue(&lhs);
        let inner = self.nullable_inner(ty).unwrap_or(ty);
        let v = self.bind_expr_to(value, inner);
        let v_wrapped = self.coerce(v, ty);
        let assign = self.assign_to(lhs, v_wrapped, span);
        let assign = if inner != ty { BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(assign) }, inner, span) } else { assign };
        let result_ty = if inner != ty { inner } else { ty };
        let co = BExpr::new(BKind::Coalesce(Box::new(current), Box::new(assign)), result_ty, span);
        BExpr::new(BKind::Seq { stmts: setup, value: Box::new(co) }, result_ty, span)
    }

    /// `a op= b` → `a = (T)(a op b)`, evaluating `a`'s receiver and indexes once.
    fn bind_compound(&mut self, lhs: LValue, op: BinaryOp, value: &ast::Expr, span: Span) -> BExpr {
        if let LValue::Event { .. } = &lhs {
            return self.bind_event_accessor(lhs, op, value, span);
        }
        let (setup, lhs) = self.stabilize(lhs, span);
        let ty = lhs.ty();
        let current = self.read_lvalue(&lhs);
        let rhs = if self.is_delegate_type(ty) {
            self.bind_value_to(value, ty)
        } else {
            let b = self.bind(value, None);
            self.to_value(b, value.span)
        };
        if rhs.is_error() {
            return BExpr::error(span);
        }
        let combined = self.make_binary(op, current, rhs, span);
        if combined.is_error() {
            return combined;
        }
        let converted = match self.conversion(&combined, ty) {
            Some(c) => self.apply_conversion(combined, c.kind, ty),
            None => self.coerce(combined, ty),
        };
        let assign = self.assign_to(lhs, converted, span);
        BExpr::new(BKind::Seq { stmts: setup, value: Box::new(assign) }, ty, span)
    }

    /// `field-like event += handler`.
    fn bind_event_accessor(&mut self, lhs: LValue, op: BinaryOp, value: &ast::Expr, span: Span) -> BExpr {
        let LValue::Event { inner } = lhs else { return BExpr::error(span) };
        self.bind_compound(*inner, op, value, span)
    }

    /// `++x`, `x++`, `--x`, `x--`.
    pub fn bind_increment(&mut self, operand: &ast::Expr, inc: bool, postfix: bool, span: Span) -> BExpr {
        let Some(lhs) = self.bind_lvalue(operand) else { return BExpr::error(span) };
        let (setup, lhs) = self.stabilize(lhs, span);
        let ty = lhs.ty();
        let base = self.nullable_inner(ty).unwrap_or(ty);
        if self.prim(base).is_none() && !self.is_enum(base) {
            if let Some(call) = {
                let cur = self.read_lvalue(&lhs);
                self.user_operator(if inc { "op_Increment" } else { "op_Decrement" }, &[cur], span)
            } {
                let assign = self.assign_to(lhs, call, span);
                return BExpr::new(BKind::Seq { stmts: setup, value: Box::new(assign) }, ty, span);
            }
            let shown = self.type_name(ty);
            self.error(span, "CS0023", format!("Operator '{}' cannot be applied to operand of type '{shown}'", if inc { "++" } else { "--" }));
            return BExpr::error(span);
        }
        let current = self.read_lvalue(&lhs);
        let old = self.temp(ty, span);
        let old_e = self.local_expr(old, span);
        let one = BExpr::new(BKind::Const(ConstVal::Int(1)), self.wk().int32, span);
        let op = if inc { BinaryOp::Add } else { BinaryOp::Sub };
        let source = if postfix { old_e.clone() } else { current.clone() };
        let combined = self.make_binary(op, source, one, span);
        let converted = match self.conversion(&combined, ty) {
            Some(c) => self.apply_conversion(combined, c.kind, ty),
            None => combined,
        };
        let mut stmts = setup;
        if postfix {
            stmts.push(BStmt::new(SKind::Local { local: old, init: Some(current) }, span));
            let assign = self.assign_to(lhs, converted, span);
            stmts.push(BStmt::new(SKind::Expr(assign), span));
            BExpr::new(BKind::Seq { stmts, value: Box::new(old_e) }, ty, span)
        } else {
            let assign = self.assign_to(lhs, converted, span);
            BExpr::new(BKind::Seq { stmts, value: Box::new(assign) }, ty, span)
        }
    }
}

/// An assignable place.
#[derive(Clone, Debug)]
pub enum LValue {
    /// A local, field or array element (the bound expression itself).
    Plain(BExpr),
    Property(PropertyAccess, TypeId),
    /// A field-like event used with `+=`/`-=`.
    Event {
        inner: Box<LValue>,
    },
}

impl LValue {
    pub fn ty(&self) -> TypeId {
        match self {
            LValue::Plain(e) => e.ty,
            LValue::Property(_, t) => *t,
            LValue::Event { inner } => inner.ty(),
        }
    }
}

impl MethodBinder<'_> {
    /// Binds an assignment target (CS0131 when it is not a variable, property or indexer).
    pub fn bind_lvalue(&mut self, target: &ast::Expr) -> Option<LValue> {
        let b = self.bind(target, None);
        match b {
            Bound::Value(e) => match &e.kind {
                BKind::Local(l) => {
                    let l = *l;
                    self.check_local_assignable(l, e.span);
                    Some(LValue::Plain(e))
                }
                BKind::Field { field, .. } => {
                    let f = *field;
                    self.check_field_assignable(f, &e);
                    if self.c.event_fields.contains(&f) {
                        return Some(LValue::Event { inner: Box::new(LValue::Plain(e)) });
                    }
                    Some(LValue::Plain(e))
                }
                BKind::Elem { .. } | BKind::Deref(_) => Some(LValue::Plain(e)),
                BKind::Error => None,
                _ => {
                    self.error(target.span, "CS0131", "The left-hand side of an assignment must be a variable, property or indexer");
                    None
                }
            },
            Bound::Property(p) => {
                let pd = self.c.meta.property(p.prop).clone();
                let ty = self.member_type(pd.ty, p.owner);
                Some(LValue::Property(p, ty))
            }
            other => {
                let _ = self.to_value(other, target.span);
                None
            }
        }
    }

    fn check_local_assignable(&mut self, _l: LocalId, _span: Span) {}

    /// Readonly fields may only be assigned in constructors of their type (CS0191/CS0198).
    fn check_field_assignable(&mut self, f: crate::metadata::FieldId, e: &BExpr) {
        let fd = self.c.meta.field(f).clone();
        if fd.flags.has(crate::metadata::Flags::CONST) {
            self.error(e.span, "CS0131", "The left-hand side of an assignment must be a variable, property or indexer");
            return;
        }
        if let BKind::Field { receiver: Some(r), .. } = &e.kind {
            if let Some(holder) = self.readonly_field_holding(r) {
                self.report_readonly_member_assignment(holder, e.span);
                return;
            }
        }
        if !fd.flags.has(crate::metadata::Flags::READONLY) {
            return;
        }
        let md = self.c.meta.method(self.func.method);
        let in_ctor = matches!(md.kind, MethodKind::Constructor | MethodKind::StaticConstructor) && md.owner == fd.owner;
        if !in_ctor {
            let owner = self.type_name(self.c.meta.type_def(fd.owner).self_type);
            if fd.flags.has(crate::metadata::Flags::STATIC) {
                self.error(e.span, "CS0198", "A static readonly field cannot be assigned to (except in a static constructor or a variable initializer)");
            } else {
                let _ = owner;
                self.error(e.span, "CS0191", "A readonly field cannot be assigned to (except in a constructor or init-only setter of the type in which the field is defined or a variable initializer)");
            }
        }
    }

    /// CS1648 / CS1650: a field of a struct held in a readonly field is assigned outside the
    /// constructor.
    fn report_readonly_member_assignment(&mut self, holder: crate::metadata::FieldId, span: Span) {
        let fd = self.c.meta.field(holder).clone();
        let name = format!("{}.{}", self.type_name(self.c.meta.type_def(fd.owner).self_type), fd.name);
        if fd.flags.has(crate::metadata::Flags::STATIC) {
            self.error(
                span,
                "CS1650",
                format!("Fields of static readonly field '{name}' cannot be assigned to (except in a static constructor or a variable initializer)"),
            );
        } else {
            self.error(
                span,
                "CS1648",
                format!("Members of readonly field '{name}' cannot be modified (except in a constructor, an init-only member or a variable initializer)"),
            );
        }
    }

    /// Evaluates an lvalue's receiver and indexes into temporaries so it can be read and
    /// written without evaluating them twice.
    fn stabilize(&mut self, lhs: LValue, span: Span) -> (Vec<BStmt>, LValue) {
        let mut setup = Vec::new();
        let temp_of = |b: &mut Self, e: BExpr, setup: &mut Vec<BStmt>| -> BExpr {
            if matches!(e.kind, BKind::Local(_) | BKind::This | BKind::Const(_)) {
                return e;
            }
            let t = b.temp(e.ty, span);
            setup.push(BStmt::new(SKind::Local { local: t, init: Some(e) }, span));
            b.local_expr(t, span)
        };
        let lhs = match lhs {
            LValue::Plain(e) => {
                let ty = e.ty;
                let espan = e.span;
                match e.kind {
                    BKind::Field { receiver: Some(r), field, owner } if !self.c.meta.is_value_type(r.ty) => {
                        let r = temp_of(self, *r, &mut setup);
                        LValue::Plain(BExpr::new(BKind::Field { receiver: Some(Box::new(r)), field, owner }, ty, espan))
                    }
                    BKind::Elem { array, indices } => {
                        let a = temp_of(self, *array, &mut setup);
                        let idx = indices.into_iter().map(|i| temp_of(self, i, &mut setup)).collect();
                        LValue::Plain(BExpr::new(BKind::Elem { array: Box::new(a), indices: idx }, ty, espan))
                    }
                    // `At(2) += 5`: the call runs once; a by-reference temporary holds its result.
                    kind @ BKind::Deref(_) => {
                        let alias = self.ref_temp(ty, span);
                        let init = BExpr::new(BKind::RefOf(Box::new(BExpr::new(kind, ty, espan))), ty, espan);
                        setup.push(BStmt::new(SKind::Local { local: alias, init: Some(init) }, span));
                        LValue::Plain(self.local_expr(alias, espan))
                    }
                    kind => LValue::Plain(BExpr::new(kind, ty, espan)),
                }
            }
            LValue::Property(mut p, ty) => {
                if let Some(r) = p.receiver.take() {
                    let is_value = self.c.meta.is_value_type(r.ty);
                    p.receiver = Some(Box::new(if is_value { *r } else { temp_of(self, *r, &mut setup) }));
                }
                p.args = p.args.into_iter().map(|a| BArg { expr: temp_of(self, a.expr, &mut setup), kind: a.kind }).collect();
                LValue::Property(p, ty)
            }
            ev @ LValue::Event { .. } => ev,
        };
        (setup, lhs)
    }

    fn read_lvalue(&mut self, lhs: &LValue) -> BExpr {
        match lhs {
            LValue::Plain(e) => e.clone(),
            LValue::Property(p, _) => self.read_property(p.clone()),
            LValue::Event { inner } => self.read_lvalue(inner),
        }
    }

    /// `lhs = v` (the value of the expression is `v`).
    pub fn assign_to(&mut self, lhs: LValue, v: BExpr, span: Span) -> BExpr {
        match lhs {
            LValue::Plain(e) => {
                let ty = e.ty;
                BExpr::new(BKind::Assign { target: Box::new(e), value: Box::new(v) }, ty, span)
            }
            LValue::Event { inner } => self.assign_to(*inner, v, span),
            LValue::Property(p, ty) => self.assign_property(p, ty, v, span),
        }
    }

    /// Calls a property setter (or writes the backing field of a get-only auto-property in
    /// a constructor).
    fn assign_property(&mut self, p: PropertyAccess, ty: TypeId, v: BExpr, span: Span) -> BExpr {
        let pd = self.c.meta.property(p.prop).clone();
        let setter = match pd.setter {
            Some(s) => s,
            None => {
                let md = self.c.meta.method(self.func.method).clone();
                let in_ctor = matches!(md.kind, MethodKind::Constructor | MethodKind::StaticConstructor) && md.owner == pd.owner;
                if let (true, Some(f)) = (in_ctor, pd.backing_field) {
                    let owner = p.owner;
                    let target = BExpr::new(BKind::Field { receiver: p.receiver, field: f, owner }, ty, span);
                    return BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(v) }, ty, span);
                }
                let owner = self.type_name(self.c.meta.type_def(pd.owner).self_type);
                let name = if pd.params.is_empty() {
                    format!("{owner}.{}", pd.name)
                } else {
                    format!("{owner}.this[{}]", pd.params.iter().map(|x| self.type_name(x.ty)).collect::<Vec<_>>().join(", "))
                };
                self.error(span, "CS0200", format!("Property or indexer '{name}' cannot be assigned to -- it is read only"));
                return BExpr::error(span);
            }
        };
        let tmp = self.temp(ty, span);
        let tmp_e = self.local_expr(tmp, span);
        let mut args = p.args.clone();
        args.push(value_arg(tmp_e.clone()));
        let (setter, owner) = if p.is_base { self.base_target(setter, p.owner) } else { (setter, p.owner) };
        let is_virtual = self.dispatch_is_virtual(setter, p.receiver.as_deref(), p.is_base);
        let call = BExpr::new(BKind::Call { method: setter, owner, type_args: Vec::new(), receiver: p.receiver, args, is_virtual }, TypeId::VOID, span);
        let stmts = vec![BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span), BStmt::new(SKind::Expr(call), span)];
        BExpr::new(BKind::Seq { stmts, value: Box::new(tmp_e) }, ty, span)
    }
}

/// Whether `e` is the `default` literal, which an operand of `==`/`!=` gets its type from
/// the other operand (C# 7.1 target-typed default).
fn is_default_literal(e: &ast::Expr) -> bool {
    matches!(e.kind, ast::ExprKind::Default(None))
}

fn cmp_op(op: BinaryOp) -> BBinOp {
    match op {
        BinaryOp::Eq => BBinOp::Eq,
        BinaryOp::Ne => BBinOp::Ne,
        BinaryOp::Lt => BBinOp::Lt,
        BinaryOp::Gt => BBinOp::Gt,
        BinaryOp::Le => BBinOp::Le,
        _ => BBinOp::Ge,
    }
}

fn op_for(b: BBinOp) -> BinaryOp {
    match b {
        BBinOp::BitAnd => BinaryOp::BitAnd,
        BBinOp::BitOr => BinaryOp::BitOr,
        _ => BinaryOp::BitXor,
    }
}

fn const_text(c: &ConstVal) -> Option<String> {
    match c {
        ConstVal::Str(s) => Some(s.clone()),
        ConstVal::Null => Some(String::new()),
        _ => None,
    }
}

pub fn binary_op_name(op: BinaryOp) -> &'static str {
    crate::compiler::members::operator_method_name(ast::OverloadableOp::Binary(op), 2)
}

fn unary_op_name(op: UnaryOp) -> &'static str {
    crate::compiler::members::operator_method_name(ast::OverloadableOp::Unary(op), 1)
}

fn unary_symbol(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Plus => "+",
        UnaryOp::Minus => "-",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::PreIncrement => "++",
        UnaryOp::PreDecrement => "--",
    }
}

pub fn binary_symbol(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::UShr => ">>>",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::And => "&&",
        BinaryOp::Or => "||",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Gt => ">",
        BinaryOp::Le => "<=",
        BinaryOp::Ge => ">=",
        BinaryOp::Coalesce => "??",
    }
}
