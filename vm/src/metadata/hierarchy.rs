//! Type relationships both the compiler and the runtime need: base types and interfaces of
//! a (possibly constructed) type, and "is `a` a subtype of `b`" with generic variance.

use super::types::{Substitution, TypeKind};
use super::{Metadata, TypeDefKind, TypeId};

impl Metadata {
    /// The direct base class of `t`, with the type's generic arguments substituted.
    /// Arrays derive from `System.Array`, value types from `ValueType`/`Enum`.
    pub fn base_type(&mut self, t: TypeId) -> Option<TypeId> {
        match self.types.kind(t).clone() {
            TypeKind::Named { def, args } => {
                let base = self.type_defs[def.index()].base?;
                let sub = Substitution::for_type(def, &args);
                Some(self.types.subst(base, &sub))
            }
            TypeKind::Array { .. } => Some(self.well_known.array),
            _ => None,
        }
    }

    /// The interfaces `t` declares directly (substituted).
    pub fn declared_interfaces(&mut self, t: TypeId) -> Vec<TypeId> {
        match self.types.kind(t).clone() {
            TypeKind::Named { def, args } => {
                let sub = Substitution::for_type(def, &args);
                let ifaces = self.type_defs[def.index()].interfaces.clone();
                ifaces.into_iter().map(|i| self.types.subst(i, &sub)).collect()
            }
            TypeKind::Array { elem, rank: 1 } => {
                let wk = &self.well_known;
                let (ilist, icoll, ienum) = (wk.ilist_t, wk.icollection_t, wk.ienumerable_t);
                vec![self.types.named(ilist, &[elem]), self.types.named(icoll, &[elem]), self.types.named(ienum, &[elem]), self.well_known.ienumerable]
            }
            TypeKind::Array { .. } => vec![self.well_known.ienumerable],
            _ => Vec::new(),
        }
    }

    /// Every class and interface `t` converts to by an implicit reference conversion,
    /// `t` itself first, then base classes in order, then all interfaces (deduplicated).
    pub fn supertypes(&mut self, t: TypeId) -> Vec<TypeId> {
        let mut classes = vec![t];
        let mut cur = t;
        while let Some(b) = self.base_type(cur) {
            if classes.contains(&b) {
                break;
            }
            classes.push(b);
            cur = b;
        }
        let mut all = classes.clone();
        let mut work: Vec<TypeId> = Vec::new();
        for &c in &classes {
            work.extend(self.declared_interfaces(c));
        }
        while let Some(i) = work.pop() {
            if !all.contains(&i) {
                all.push(i);
                work.extend(self.declared_interfaces(i));
            }
        }
        all
    }

    /// Whether a value of type `from` can be used as a `to` through an identity or implicit
    /// reference conversion (including generic variance and array covariance).
    pub fn is_subtype(&mut self, from: TypeId, to: TypeId) -> bool {
        if from == to || to == self.well_known.object {
            return true;
        }
        if let (Some((fe, fr)), Some((te, tr))) = (self.types.array_elem(from), self.types.array_elem(to)) {
            return fr == tr && !self.is_value_type(fe) && self.is_subtype(fe, te);
        }
        let supers = self.supertypes(from);
        if supers.contains(&to) {
            return true;
        }
        supers.into_iter().any(|s| self.is_variant_convertible(s, to))
    }

    /// `IEnumerable<string>` → `IEnumerable<object>` and the like: same generic interface or
    /// delegate, each argument converted according to the parameter's declared variance.
    fn is_variant_convertible(&mut self, from: TypeId, to: TypeId) -> bool {
        let (TypeKind::Named { def: fd, args: fa }, TypeKind::Named { def: td, args: ta }) = (self.types.kind(from).clone(), self.types.kind(to).clone())
        else {
            return false;
        };
        if fd != td || fa.is_empty() {
            return false;
        }
        let def = &self.type_defs[fd.index()];
        if !matches!(def.kind, TypeDefKind::Interface | TypeDefKind::Delegate) {
            return false;
        }
        let variances: Vec<i8> = def.type_params.iter().map(|p| p.variance).collect();
        fa.iter().zip(ta.iter()).zip(variances).all(|((&a, &b), v)| match v {
            0 => a == b,
            1 => a == b || (!self.is_value_type(a) && self.is_subtype(a, b)),
            _ => a == b || (!self.is_value_type(b) && self.is_subtype(b, a)),
        })
    }

    /// Structs, enums and the primitive value types (and type parameters constrained to
    /// `struct`).
    pub fn is_value_type(&self, t: TypeId) -> bool {
        match self.types.kind(t) {
            TypeKind::Named { def, .. } => self.type_defs[def.index()].is_value_type(),
            TypeKind::Param { .. } => self.param_def(t).is_some_and(|p| p.is_struct),
            _ => false,
        }
    }

    /// The constructor `new T()` runs for the class `t` (its parameterless instance
    /// constructor); `None` for value types and classes without one.
    pub fn parameterless_class_constructor(&self, t: TypeId) -> Option<super::MethodId> {
        let TypeKind::Named { def, .. } = self.types.kind(t) else { return None };
        let def = &self.type_defs[def.index()];
        if def.kind != super::TypeDefKind::Class {
            return None;
        }
        def.methods.iter().copied().find(|&m| {
            let m = self.method(m);
            m.kind == super::MethodKind::Constructor && m.params.is_empty()
        })
    }

    /// The declaration of a type parameter.
    pub fn param_def(&self, t: TypeId) -> Option<&super::TypeParamDef> {
        match *self.types.kind(t) {
            TypeKind::Param { owner: super::ParamOwner::Type(d), index } => self.type_defs.get(d.index())?.type_params.get(index as usize),
            TypeKind::Param { owner: super::ParamOwner::Method(m), index } => self.methods.get(m.index())?.type_params.get(index as usize),
            _ => None,
        }
    }
}
