//! Type-parameter constraints beyond what a `where` clause spells: constraints followed
//! transitively (`where X : Y where Y : Z` gives X Y's constraints too), and the constraints
//! an `override` or an explicit interface implementation inherits from the method it
//! overrides or implements (C# forbids restating them).

use super::Compiler;
use crate::metadata::{MethodId, ParamOwner, TypeId, TypeParamDef};

impl Compiler {
    /// Adds to each type parameter of `owner` the constraints of the type parameters it is
    /// constrained to, transitively (the reference/value kind and `new()` do not carry over).
    pub(super) fn close_constraints(&mut self, owner: ParamOwner) {
        let count = match owner {
            ParamOwner::Type(d) => self.meta.type_def(d).type_params.len(),
            ParamOwner::Method(m) => self.meta.method(m).type_params.len(),
        };
        for i in 0..count {
            let p = self.meta.types.param(owner, i as u16);
            let closed = self.transitive_constraints(p);
            if let Some(def) = self.type_param_def_mut(owner, i) {
                def.constraints = closed;
            }
        }
    }

    /// `p`'s constraints followed through every type parameter among them.
    fn transitive_constraints(&self, p: TypeId) -> Vec<TypeId> {
        let mut closed = self.meta.param_def(p).map(|d| d.constraints.clone()).unwrap_or_default();
        let mut pending = closed.clone();
        while let Some(c) = pending.pop() {
            let Some(def) = self.meta.param_def(c) else { continue };
            for &inner in &def.constraints {
                if inner != p && !closed.contains(&inner) {
                    closed.push(inner);
                    pending.push(inner);
                }
            }
        }
        closed
    }

    fn type_param_def_mut(&mut self, owner: ParamOwner, i: usize) -> Option<&mut TypeParamDef> {
        match owner {
            ParamOwner::Type(d) => self.meta.type_defs.get_mut(d.index())?.type_params.get_mut(i),
            ParamOwner::Method(m) => self.meta.methods.get_mut(m.index())?.type_params.get_mut(i),
        }
    }

    /// Gives the method type parameters of `m` (an override, or an explicit interface
    /// implementation) the constraints of `inherited`'s, seen through `inherited_owner` (the
    /// constructed base class or interface) with `inherited`'s type parameters read as `m`'s.
    pub(super) fn inherit_constraints(&mut self, m: MethodId, inherited: MethodId, inherited_owner: Option<TypeId>) {
        let count = self.meta.method(m).type_params.len();
        if count == 0 || self.meta.method(inherited).type_params.len() != count {
            return;
        }
        let mut sub = self.signature_substitution(inherited, inherited_owner);
        sub.method_args = (0..count).map(|i| self.meta.types.param(ParamOwner::Method(m), i as u16)).collect();
        for i in 0..count {
            let from = self.meta.method(inherited).type_params[i].clone();
            let constraints: Vec<TypeId> = from.constraints.iter().map(|&c| self.meta.types.subst(c, &sub)).collect();
            let to = &mut self.meta.methods[m.index()].type_params[i];
            (to.constraints, to.is_class, to.is_struct, to.has_new) = (constraints, from.is_class, from.is_struct, from.has_new);
        }
        self.close_constraints(ParamOwner::Method(m));
    }
}
