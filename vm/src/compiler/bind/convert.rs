//! Conversions: which exist between two types (C# spec §10), whether they are implicit, and
//! making them explicit in the bound tree. Reports CS0029/CS0266/CS0030 when none fits.

use super::MethodBinder;
use crate::bytecode::NumKind;
use crate::compiler::bound::retyped;
use crate::compiler::bound::{BExpr, BKind, ConstVal, ConvKind};
use crate::metadata::{MethodId, MethodKind, TypeDefKind, TypeId, TypeKind};
use grammar::span::Span;

/// A conversion found between two types.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conversion {
    pub kind: ConvKind,
    pub implicit: bool,
    /// Ranking for overload resolution: 0 identity, 1 implicit numeric/reference, 2 boxing
    /// or nullable, 3 user-defined.
    pub rank: u8,
}

/// The numeric "kind" of a primitive type, for conversion tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prim {
    SByte,
    Byte,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Char,
    Float,
    Double,
    Decimal,
}

impl Prim {
    pub fn num_kind(self) -> Option<NumKind> {
        Some(match self {
            Prim::SByte => NumKind::I8,
            Prim::Byte => NumKind::U8,
            Prim::Short => NumKind::I16,
            Prim::UShort => NumKind::U16,
            Prim::Int => NumKind::I32,
            Prim::UInt => NumKind::U32,
            Prim::Long => NumKind::I64,
            Prim::ULong => NumKind::U64,
            Prim::Char => NumKind::Char,
            Prim::Float => NumKind::F32,
            Prim::Double => NumKind::F64,
            Prim::Decimal => return None,
        })
    }

    pub fn is_integral(self) -> bool {
        !matches!(self, Prim::Float | Prim::Double | Prim::Decimal)
    }

    /// Implicit numeric conversions (C# §10.2.3).
    pub fn implicitly_converts_to(self, to: Prim) -> bool {
        use Prim::*;
        if self == to {
            return true;
        }
        match self {
            SByte => matches!(to, Short | Int | Long | Float | Double | Decimal),
            Byte => matches!(to, Short | UShort | Int | UInt | Long | ULong | Float | Double | Decimal),
            Short => matches!(to, Int | Long | Float | Double | Decimal),
            UShort => matches!(to, Int | UInt | Long | ULong | Float | Double | Decimal),
            Int => matches!(to, Long | Float | Double | Decimal),
            UInt => matches!(to, Long | ULong | Float | Double | Decimal),
            Long | ULong => matches!(to, Float | Double | Decimal),
            Char => matches!(to, UShort | Int | UInt | Long | ULong | Float | Double | Decimal),
            Float => matches!(to, Double),
            Double | Decimal => false,
        }
    }

    /// The range of an integral type, for constant conversions.
    pub fn range(self) -> Option<(i128, i128)> {
        Some(match self {
            Prim::SByte => (i8::MIN as i128, i8::MAX as i128),
            Prim::Byte => (0, u8::MAX as i128),
            Prim::Short => (i16::MIN as i128, i16::MAX as i128),
            Prim::UShort | Prim::Char => (0, u16::MAX as i128),
            Prim::Int => (i32::MIN as i128, i32::MAX as i128),
            Prim::UInt => (0, u32::MAX as i128),
            Prim::Long => (i64::MIN as i128, i64::MAX as i128),
            Prim::ULong => (0, u64::MAX as i128),
            _ => return None,
        })
    }
}

impl MethodBinder<'_> {
    /// The primitive numeric kind of a type, if it is one.
    pub fn prim(&self, t: TypeId) -> Option<Prim> {
        let wk = &self.c.meta.well_known;
        let table = [
            (wk.sbyte, Prim::SByte),
            (wk.byte, Prim::Byte),
            (wk.int16, Prim::Short),
            (wk.uint16, Prim::UShort),
            (wk.int32, Prim::Int),
            (wk.uint32, Prim::UInt),
            (wk.int64, Prim::Long),
            (wk.uint64, Prim::ULong),
            (wk.intptr, Prim::Long),
            (wk.uintptr, Prim::ULong),
            (wk.char, Prim::Char),
            (wk.single, Prim::Float),
            (wk.double, Prim::Double),
            (wk.decimal, Prim::Decimal),
        ];
        table.iter().find(|(id, _)| *id == t).map(|(_, p)| *p)
    }

    pub fn prim_type(&self, p: Prim) -> TypeId {
        let wk = &self.c.meta.well_known;
        match p {
            Prim::SByte => wk.sbyte,
            Prim::Byte => wk.byte,
            Prim::Short => wk.int16,
            Prim::UShort => wk.uint16,
            Prim::Int => wk.int32,
            Prim::UInt => wk.uint32,
            Prim::Long => wk.int64,
            Prim::ULong => wk.uint64,
            Prim::Char => wk.char,
            Prim::Float => wk.single,
            Prim::Double => wk.double,
            Prim::Decimal => wk.decimal,
        }
    }

    pub fn is_enum(&self, t: TypeId) -> bool {
        self.def_kind(t) == Some(TypeDefKind::Enum)
    }

    pub fn enum_underlying(&self, t: TypeId) -> Option<TypeId> {
        let def = self.c.meta.types.def_of(t)?;
        self.c.meta.type_def(def).enum_underlying
    }

    pub fn def_kind(&self, t: TypeId) -> Option<TypeDefKind> {
        self.c.meta.types.def_of(t).map(|d| self.c.meta.type_def(d).kind)
    }

    /// The `T` of `Nullable<T>`.
    pub fn nullable_inner(&self, t: TypeId) -> Option<TypeId> {
        if self.c.meta.types.def_of(t) == Some(self.c.meta.well_known.nullable) {
            self.c.meta.types.args_of(t).first().copied()
        } else {
            None
        }
    }

    pub fn is_type_param(&self, t: TypeId) -> bool {
        matches!(self.c.meta.types.kind(t), TypeKind::Param { .. })
    }

    /// Types whose values can be `null`: classes, interfaces, delegates, arrays, strings,
    /// `Nullable<T>`, and type parameters constrained to `class`.
    pub fn is_nullable_type(&self, t: TypeId) -> bool {
        if self.nullable_inner(t).is_some() {
            return true;
        }
        match self.c.meta.types.kind(t) {
            TypeKind::Param { .. } => self.c.meta.param_def(t).is_some_and(|p| p.is_class),
            TypeKind::Named { .. } | TypeKind::Array { .. } => !self.c.meta.is_value_type(t),
            TypeKind::Null => true,
            _ => false,
        }
    }

    pub fn is_reference_type(&self, t: TypeId) -> bool {
        match self.c.meta.types.kind(t) {
            TypeKind::Named { .. } | TypeKind::Array { .. } => !self.c.meta.is_value_type(t),
            TypeKind::Param { .. } => self.c.meta.param_def(t).is_some_and(|p| {
                p.is_class
                    || !p.constraints.is_empty() && p.constraints.iter().any(|&c| !self.c.meta.is_value_type(c) && self.def_kind(c) == Some(TypeDefKind::Class))
            }),
            _ => false,
        }
    }

    /// Finds a conversion from the type of `expr` to `to` (using the expression for
    /// constant and literal conversions).
    pub fn conversion(&mut self, expr: &BExpr, to: TypeId) -> Option<Conversion> {
        let from = expr.ty;
        if from == to {
            return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 0 });
        }
        if from == TypeId::ERROR || to == TypeId::ERROR {
            return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 0 });
        }
        if from == TypeId::VOID {
            return None;
        }
        if let Some(c) = self.constant_conversion(expr, to) {
            return Some(c);
        }
        if matches!(expr.kind, BKind::Throw(_)) {
            return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 1 });
        }
        self.type_conversion(from, to)
    }

    /// Conversions that depend on a constant value: `null`, literal `0` to an enum, and
    /// integer constants that fit a narrower type (`byte b = 5;`).
    fn constant_conversion(&mut self, expr: &BExpr, to: TypeId) -> Option<Conversion> {
        let BKind::Const(c) = &expr.kind else {
            if matches!(expr.kind, BKind::Default) && expr.ty == TypeId::NULL {
                return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 1 });
            }
            return None;
        };
        if matches!(c, ConstVal::Null) {
            let ok = self.is_nullable_type(to) || self.is_type_param(to) && !self.c.meta.is_value_type(to);
            return ok.then_some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 1 });
        }
        let value = match c {
            ConstVal::Int(i) => *i as i128,
            ConstVal::UInt(u) => *u as i128,
            _ => return None,
        };
        let from = self.prim(expr.ty)?;
        // `short? s = 3;`: the constant converts to the underlying type, then wraps.
        let (underlying, rank) = match self.nullable_inner(to) {
            Some(inner) => (inner, 2),
            None => (to, 1),
        };
        if value == 0 && self.is_enum(underlying) && from.is_integral() {
            return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank });
        }
        let target = self.prim(underlying)?;
        if matches!(from, Prim::Int | Prim::Long) && target.is_integral() && target != Prim::Char {
            let (lo, hi) = target.range()?;
            let fits = (lo..=hi).contains(&value);
            let allowed = from == Prim::Int || (from == Prim::Long && target == Prim::ULong);
            if fits && allowed {
                let to_kind = target.num_kind()?;
                return Some(Conversion { kind: ConvKind::Numeric { to: to_kind, checked: false }, implicit: true, rank });
            }
        }
        None
    }

    /// Conversions between types, implicit or explicit.
    pub fn type_conversion(&mut self, from: TypeId, to: TypeId) -> Option<Conversion> {
        if from == to {
            return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 0 });
        }
        // Tuple element names never matter for conversions.
        let (plain_from, plain_to) = (self.c.meta.types.erase_names(from), self.c.meta.types.erase_names(to));
        if (plain_from, plain_to) != (from, to) {
            return self.type_conversion(plain_from, plain_to);
        }
        if from == TypeId::NULL {
            if self.is_nullable_type(to) {
                return Some(Conversion { kind: ConvKind::Identity, implicit: true, rank: 1 });
            }
            // `Name n = null;` through `implicit operator Name(string s)`.
            return self.user_defined_conversion(from, to);
        }
        if let (Some(pf), Some(pt)) = (self.prim(from), self.prim(to)) {
            return Some(self.numeric_conversion(pf, pt));
        }
        if let Some(c) = self.nullable_conversion(from, to) {
            return Some(c);
        }
        if let Some(c) = self.enum_conversion(from, to) {
            return Some(c);
        }
        if let Some(c) = self.reference_or_boxing(from, to) {
            return Some(c);
        }
        self.user_defined_conversion(from, to)
    }

    fn numeric_conversion(&mut self, from: Prim, to: Prim) -> Conversion {
        let implicit = from.implicitly_converts_to(to);
        let kind = match (from.num_kind(), to.num_kind()) {
            (Some(_), Some(k)) => ConvKind::Numeric { to: k, checked: self.checked },
            _ => match self.decimal_conversion(from, to) {
                Some(m) => ConvKind::User(m),
                None => ConvKind::Identity,
            },
        };
        Conversion { kind, implicit, rank: 1 }
    }

    /// The `System.Decimal` conversion operator between a primitive and `decimal`.
    fn decimal_conversion(&mut self, from: Prim, to: Prim) -> Option<crate::metadata::MethodId> {
        let (ft, tt) = (self.prim_type(from), self.prim_type(to));
        let dec = self.c.meta.types.def_of(self.c.meta.well_known.decimal)?;
        let methods = self.c.meta.type_def(dec).methods.clone();
        methods.into_iter().find(|&m| {
            let md = self.c.meta.method(m);
            md.kind == MethodKind::Conversion && md.ret == tt && md.params.first().map(|p| p.ty) == Some(ft)
        })
    }

    fn nullable_conversion(&mut self, from: TypeId, to: TypeId) -> Option<Conversion> {
        let to_inner = self.nullable_inner(to);
        let from_inner = self.nullable_inner(from);
        match (from_inner, to_inner) {
            (None, Some(ti)) => {
                let c = self.type_conversion(from, ti)?;
                Some(Conversion { kind: c.kind, implicit: c.implicit, rank: c.rank.max(2) })
            }
            (Some(fi), Some(ti)) => {
                let c = self.type_conversion(fi, ti)?;
                let kind = if c.kind == ConvKind::Identity { ConvKind::Identity } else { c.kind };
                Some(Conversion { kind, implicit: c.implicit, rank: c.rank.max(2) })
            }
            (Some(fi), None) => {
                if fi == to {
                    return Some(Conversion { kind: ConvKind::Unbox, implicit: false, rank: 2 });
                }
                if self.c.meta.is_value_type(to) {
                    let c = self.type_conversion(fi, to)?;
                    return Some(Conversion { kind: c.kind, implicit: false, rank: 2 });
                }
                // `S?` boxes to whatever `S` boxes to (`DayOfWeek?` to `Enum`, an interface
                // of `S`): null gives a null reference (C# §10.2.9).
                match self.type_conversion(fi, to) {
                    Some(c) if c.implicit && matches!(c.kind, ConvKind::Box { .. }) => {
                        Some(Conversion { kind: ConvKind::Box { from, view: false }, implicit: true, rank: 2 })
                    }
                    _ => None,
                }
            }
            (None, None) => None,
        }
    }

    fn enum_conversion(&mut self, from: TypeId, to: TypeId) -> Option<Conversion> {
        let (fe, te) = (self.is_enum(from), self.is_enum(to));
        if !fe && !te {
            return None;
        }
        let f = if fe { self.enum_underlying(from)? } else { from };
        let t = if te { self.enum_underlying(to)? } else { to };
        let (pf, pt) = (self.prim(f)?, self.prim(t)?);
        let kind = if pf == pt {
            ConvKind::Identity
        } else {
            match self.numeric_conversion(pf, pt).kind {
                ConvKind::Numeric { to, .. } => ConvKind::Numeric { to, checked: self.checked },
                k => k,
            }
        };
        Some(Conversion { kind, implicit: false, rank: 1 })
    }

    /// Reference conversions (up: implicit, down: explicit), boxing and unboxing.
    fn reference_or_boxing(&mut self, from: TypeId, to: TypeId) -> Option<Conversion> {
        let from_value = self.c.meta.is_value_type(from);
        let to_value = self.c.meta.is_value_type(to);
        let from_param = self.is_type_param(from);
        let to_param = self.is_type_param(to);
        if self.c.meta.is_subtype(from, to) || (from_param && self.param_converts_to(from, to)) {
            let kind = if from_value || (from_param && !self.is_reference_type(from)) { ConvKind::Box { from, view: false } } else { ConvKind::Identity };
            let rank = if matches!(kind, ConvKind::Box { .. }) { 2 } else { 1 };
            return Some(Conversion { kind, implicit: true, rank });
        }
        if to_param && self.explicitly_converts_to_param(from, to) {
            return Some(Conversion { kind: ConvKind::Unbox, implicit: false, rank: 2 });
        }
        if from_param && (to == self.c.meta.well_known.object || self.def_kind(to) == Some(TypeDefKind::Interface)) {
            return Some(Conversion { kind: ConvKind::Box { from, view: false }, implicit: true, rank: 2 });
        }
        let down = self.c.meta.is_subtype(to, from);
        let iface_cross = (self.def_kind(from) == Some(TypeDefKind::Interface) && !self.is_sealed(to))
            || (self.def_kind(to) == Some(TypeDefKind::Interface) && !from_value && !self.is_sealed(from));
        if down || iface_cross {
            let kind = if to_value { ConvKind::Unbox } else { ConvKind::Cast };
            return Some(Conversion { kind, implicit: false, rank: 1 });
        }
        None
    }

    fn is_sealed(&self, t: TypeId) -> bool {
        self.c.meta.types.def_of(t).is_some_and(|d| self.c.meta.type_def(d).flags.has(crate::metadata::Flags::SEALED))
            || matches!(self.c.meta.types.kind(t), TypeKind::Array { .. })
    }

    /// The explicit conversions to a type parameter `T` (C# §10.3.8): from `object`, any
    /// interface, its effective base class and that class's bases, and any type parameter
    /// `T` depends on (all are `T`'s constraints or their supertypes).
    fn explicitly_converts_to_param(&mut self, from: TypeId, to: TypeId) -> bool {
        from == self.c.meta.well_known.object
            || self.def_kind(from) == Some(TypeDefKind::Interface)
            || self.c.meta.is_subtype(to, from)
            || self.param_converts_to(to, from)
    }

    /// A type parameter converts to its constraints (and their supertypes).
    pub(super) fn param_converts_to(&mut self, from: TypeId, to: TypeId) -> bool {
        let constraints = self.c.meta.param_def(from).map(|p| p.constraints.clone()).unwrap_or_default();
        constraints.into_iter().any(|c| self.c.meta.is_subtype(c, to))
    }

    /// User-defined `implicit`/`explicit operator` on either type.
    fn user_defined_conversion(&mut self, from: TypeId, to: TypeId) -> Option<Conversion> {
        let mut candidates = Vec::new();
        for t in self.conversion_operator_owners(from, to) {
            let Some(def) = self.c.meta.types.def_of(t) else { continue };
            let owner_args = self.c.meta.types.args_of(t).to_vec();
            for m in self.c.meta.type_def(def).methods.clone() {
                let md = self.c.meta.method(m).clone();
                if md.kind != MethodKind::Conversion || md.params.len() != 1 {
                    continue;
                }
                let sub = crate::metadata::Substitution::for_type(def, &owner_args);
                let p = self.c.meta.types.subst(md.params[0].ty, &sub);
                let r = self.c.meta.types.subst(md.ret, &sub);
                // The null literal reaches an operator taking a reference or nullable type.
                let from_null = from == TypeId::NULL && (self.is_reference_type(p) || self.is_nullable_type(p));
                let from_ok = p == from || from_null || self.c.meta.is_subtype(from, p) || self.prim_implicit(from, p);
                let to_ok = r == to || self.c.meta.is_subtype(r, to) || self.prim_implicit(r, to);
                if from_ok && to_ok && !candidates.iter().any(|c: &UserOperator| c.method == m) {
                    candidates.push(UserOperator { method: m, implicit: md.name == "op_Implicit", source: p, target: r });
                }
            }
        }
        // Implicit operators give an implicit conversion; only without one is an explicit
        // operator the (explicit) conversion.
        let implicit = candidates.iter().any(|c| c.implicit);
        candidates.retain(|c| c.implicit == implicit);
        let fallback = candidates.last()?.method;
        let m = self.most_specific_operator(&candidates, from, to).unwrap_or(fallback);
        Some(Conversion { kind: ConvKind::User(m), implicit, rank: 3 })
    }

    /// The types whose conversion operators a conversion from `from` to `to` considers
    /// (C# §10.5.3): each of them (or the type a nullable one wraps) and its base classes.
    fn conversion_operator_owners(&mut self, from: TypeId, to: TypeId) -> Vec<TypeId> {
        let mut owners = Vec::new();
        for t in [to, from, self.nullable_inner(to).unwrap_or(to), self.nullable_inner(from).unwrap_or(from)] {
            let mut next = Some(t);
            while let Some(t) = next.filter(|t| !owners.contains(t) && *t != self.c.meta.well_known.object) {
                owners.push(t);
                next = self.c.meta.base_type(t);
            }
        }
        owners
    }

    /// The constructed type whose operator `m` converts `from` to `to`: the one of the types
    /// it was looked up in (see [`Self::conversion_operator_owners`]) declared by the
    /// operator's type, so that a generic type's operator runs with its type arguments
    /// (`Span<int>`'s, not `Span<T>`'s).
    fn closed_operator_owner(&mut self, m: MethodId, from: TypeId, to: TypeId) -> TypeId {
        let def = self.c.meta.method(m).owner;
        let owners = self.conversion_operator_owners(from, to);
        owners.into_iter().find(|&t| self.c.meta.types.def_of(t) == Some(def)).unwrap_or(self.c.meta.type_def(def).self_type)
    }

    /// C#'s choice among applicable user-defined operators (§10.5.4): the one from the most
    /// specific source type (the operand's own type if an operator takes it, else the most
    /// encompassed) to the most specific target (the wanted type if an operator gives it,
    /// else the most encompassing). `None` when no single operator has both.
    fn most_specific_operator(&mut self, candidates: &[UserOperator], from: TypeId, to: TypeId) -> Option<MethodId> {
        let from_inner = self.nullable_inner(from).unwrap_or(from);
        let to_inner = self.nullable_inner(to).unwrap_or(to);
        let sources: Vec<TypeId> = candidates.iter().map(|c| c.source).collect();
        let targets: Vec<TypeId> = candidates.iter().map(|c| c.target).collect();
        let sx = [from, from_inner].into_iter().find(|t| sources.contains(t)).or_else(|| self.most_encompassed(&sources))?;
        let tx = [to, to_inner].into_iter().find(|t| targets.contains(t)).or_else(|| self.most_encompassing(&targets))?;
        let mut exact = candidates.iter().filter(|c| c.source == sx && c.target == tx);
        match (exact.next(), exact.next()) {
            (Some(c), None) => Some(c.method),
            _ => None,
        }
    }

    /// The type of `types` that converts implicitly to all the others.
    fn most_encompassed(&mut self, types: &[TypeId]) -> Option<TypeId> {
        types.iter().copied().find(|&t| types.iter().all(|&o| self.encompasses(o, t)))
    }

    /// The type of `types` all the others convert to implicitly.
    fn most_encompassing(&mut self, types: &[TypeId]) -> Option<TypeId> {
        types.iter().copied().find(|&t| types.iter().all(|&o| self.encompasses(t, o)))
    }

    /// `outer` encompasses `inner`: a standard implicit conversion takes `inner` to `outer`.
    fn encompasses(&mut self, outer: TypeId, inner: TypeId) -> bool {
        outer == inner || self.c.meta.is_subtype(inner, outer) || self.prim_implicit(inner, outer)
    }

    fn prim_implicit(&self, from: TypeId, to: TypeId) -> bool {
        matches!((self.prim(from), self.prim(to)), (Some(a), Some(b)) if a.implicitly_converts_to(b))
    }

    /// Converts `expr` to `to` implicitly, reporting CS0029 (or CS0266 when an explicit
    /// conversion exists).
    pub fn coerce(&mut self, expr: BExpr, to: TypeId) -> BExpr {
        if expr.ty == to || to == TypeId::ERROR || expr.is_error() {
            return expr;
        }
        match self.conversion(&expr, to) {
            Some(c) if c.implicit => self.apply_conversion(expr, c.kind, to),
            Some(_) if self.report_constant_out_of_range(&expr, to) => BExpr::error(expr.span),
            Some(_) => {
                let (f, t) = (self.type_name(expr.ty), self.type_name(to));
                self.error(
                    expr.span,
                    "CS0266",
                    format!("Cannot implicitly convert type '{f}' to '{t}'. An explicit conversion exists (are you missing a cast?)"),
                );
                BExpr::error(expr.span)
            }
            None => {
                self.report_no_conversion(&expr, to);
                BExpr::error(expr.span)
            }
        }
    }

    fn report_no_conversion(&mut self, expr: &BExpr, to: TypeId) {
        let t = self.type_name(to);
        if expr.ty == TypeId::NULL || matches!(expr.kind, BKind::Const(ConstVal::Null)) {
            self.error(expr.span, "CS0037", format!("Cannot convert null to '{t}' because it is a non-nullable value type"));
        } else {
            let f = self.type_name(expr.ty);
            self.error(expr.span, "CS0029", format!("Cannot implicitly convert type '{f}' to '{t}'"));
        }
    }

    /// An explicit cast `(to)expr` (CS0030 when no conversion exists).
    pub fn cast(&mut self, expr: BExpr, to: TypeId, span: Span) -> BExpr {
        if expr.ty == to || to == TypeId::ERROR || expr.is_error() {
            return BExpr { span, ..expr };
        }
        if let (BKind::Const(c), Some(_)) = (&expr.kind, self.prim(to)) {
            if !self.check_constant_cast(&c.clone(), expr.ty, to, span) {
                return BExpr::error(span);
            }
            if let Some(folded) = self.fold_constant_cast(&expr, to, span) {
                return folded;
            }
        }
        match self.conversion(&expr, to) {
            Some(c) => {
                let mut e = self.apply_conversion(expr, c.kind, to);
                e.span = span;
                e
            }
            None => {
                let (f, t) = (self.type_name(expr.ty), self.type_name(to));
                self.error(span, "CS0030", format!("Cannot convert type '{f}' to '{t}'"));
                BExpr::error(span)
            }
        }
    }

    /// Makes a conversion explicit in the tree (folding numeric constants).
    pub fn apply_conversion(&mut self, expr: BExpr, kind: ConvKind, to: TypeId) -> BExpr {
        let span = expr.span;
        if let ConvKind::Numeric { .. } = kind {
            if matches!(expr.kind, BKind::Const(_)) {
                if let Some(folded) = self.fold_constant_cast(&expr, to, span) {
                    return folded;
                }
            }
        }
        match kind {
            // Retyping in place is only safe for constants: the emitter reads the type of
            // `new T()`, fields and calls from the node itself.
            ConvKind::Identity if expr.ty == to || matches!(expr.kind, BKind::Const(_)) => BExpr { ty: to, ..expr },
            ConvKind::User(m) => {
                let owner = self.closed_operator_owner(m, expr.ty, to);
                let sub = crate::metadata::Substitution::for_type(self.c.meta.method(m).owner, self.c.meta.types.args_of(owner));
                let pty = self.c.meta.types.subst(self.c.meta.method(m).params[0].ty, &sub);
                let ret = self.c.meta.types.subst(self.c.meta.method(m).ret, &sub);
                let arg = if expr.ty != pty {
                    match self.type_conversion(expr.ty, pty) {
                        Some(c) if c.kind != ConvKind::User(m) => self.apply_conversion(expr, c.kind, pty),
                        _ => expr,
                    }
                } else {
                    expr
                };
                let call = BExpr::new(
                    BKind::Call { method: m, owner, type_args: Vec::new(), receiver: None, args: vec![super::value_arg(arg)], is_virtual: false },
                    ret,
                    span,
                );
                if call.ty != to {
                    match self.type_conversion(call.ty, to) {
                        Some(c) if !matches!(c.kind, ConvKind::User(_)) => self.apply_conversion(call, c.kind, to),
                        _ => retyped(call, to),
                    }
                } else {
                    call
                }
            }
            _ => BExpr::new(BKind::Conv { kind, operand: Box::new(expr) }, to, span),
        }
    }

    /// `(byte)300`, `(int)3.9`, `(char)65`, `(E1)E2.A` on constants: the converted constant.
    pub(super) fn fold_constant_cast(&mut self, expr: &BExpr, to: TypeId, span: Span) -> Option<BExpr> {
        let BKind::Const(c) = &expr.kind else { return None };
        // A constant of type `T?` holds the bare `T`; one of an enum type, its underlying value.
        let bare = self.nullable_inner(to).unwrap_or(to);
        let target = self.prim(self.enum_underlying(bare).unwrap_or(bare))?;
        let k = target.num_kind()?;
        let v = match c {
            ConstVal::Int(i) => crate::value::arith::convert(crate::value::Value::I64(*i), k, false),
            ConstVal::UInt(u) => crate::value::arith::convert(crate::value::Value::U64(*u), k, false),
            ConstVal::Char(ch) => crate::value::arith::convert(crate::value::Value::Char(*ch), k, false),
            ConstVal::Float(f) if self.prim(expr.ty) == Some(Prim::Float) => crate::value::arith::convert(crate::value::Value::F32(*f as f32), k, false),
            ConstVal::Float(f) => crate::value::arith::convert(crate::value::Value::F64(*f), k, false),
            _ => return None,
        }
        .ok()?;
        Some(BExpr::new(BKind::Const(super::value_to_const(v)?), to, span))
    }
}

/// An applicable user-defined conversion operator, with its parameter and return types
/// (substituted for the declaring type's arguments).
struct UserOperator {
    method: MethodId,
    implicit: bool,
    source: TypeId,
    target: TypeId,
}
