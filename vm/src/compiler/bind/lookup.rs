//! Member lookup: the fields, properties, methods and nested types a name refers to in a
//! type (walking base classes, interfaces and type-parameter constraints), accessibility,
//! and extension methods visible through `using` directives.

use super::MethodBinder;
use crate::metadata::{FieldId, Flags, MethodId, MethodKind, PropertyId, TypeDefId, TypeDefKind, TypeId, TypeKind};

/// What a member name denotes in a type.
#[derive(Clone, Debug)]
pub enum Member {
    Field(FieldId, TypeId),
    Property(PropertyId, TypeId),
    /// Overloads with their constructed declaring types (most derived first).
    Methods(Vec<(MethodId, TypeId)>),
    /// One or more nested types of that name, declared by the (constructed) type carried
    /// here; which one is meant depends on the number of type arguments given.
    Type(TypeId),
}

impl MethodBinder<'_> {
    /// The types whose members a value of type `t` has, most derived first: the class
    /// chain, then interfaces (for interfaces and type parameters), then `object`.
    pub fn member_search_order(&mut self, t: TypeId) -> Vec<TypeId> {
        let mut out = Vec::new();
        match self.c.meta.types.kind(t).clone() {
            TypeKind::Param { .. } => {
                let cons = self.c.meta.param_def(t).map(|p| p.constraints.clone()).unwrap_or_default();
                for c in cons {
                    for s in self.member_search_order(c) {
                        if !out.contains(&s) {
                            out.push(s);
                        }
                    }
                }
                if !out.contains(&self.wk().object) {
                    out.push(self.wk().object);
                }
                if self.c.meta.param_def(t).is_some_and(|p| p.is_struct) {
                    out.insert(0, self.wk().value_type);
                }
            }
            TypeKind::Named { .. } | TypeKind::Array { .. } => {
                let supers = self.c.meta.supertypes(t);
                out.extend(supers);
                let is_iface = self.def_kind(t) == Some(TypeDefKind::Interface);
                if is_iface && !out.contains(&self.wk().object) {
                    out.push(self.wk().object);
                }
            }
            _ => {}
        }
        out
    }

    /// Looks up `name` as a member of `t` (CS0103/CS1061 are the caller's to report).
    pub fn lookup_member(&mut self, t: TypeId, name: &str) -> Option<Member> {
        if let Some(i) = self.c.meta.types.tuple_names(t).and_then(|names| names.iter().position(|n| n == name)) {
            return self.lookup_member(t, &format!("Item{}", i + 1));
        }
        let order = self.member_search_order(t);
        let mut methods: Vec<(MethodId, TypeId)> = Vec::new();
        for owner in order {
            let Some(def) = self.c.meta.types.def_of(owner) else { continue };
            let d = self.c.meta.type_def(def).clone();
            if methods.is_empty() {
                if let Some(&f) = d.fields.iter().find(|&&f| self.c.meta.field(f).name == name) {
                    return Some(Member::Field(f, owner));
                }
                if let Some(&p) = d.properties.iter().find(|&&p| {
                    let pd = self.c.meta.property(p);
                    pd.name == name && pd.params.is_empty() && !self.is_override_property(p) && !self.is_explicit_property(p)
                }) {
                    return Some(Member::Property(p, owner));
                }
                if d.nested.iter().any(|&n| self.c.meta.type_def(n).name == name) {
                    return Some(Member::Type(owner));
                }
            }
            for &m in &d.methods {
                let md = self.c.meta.method(m);
                if md.name != name || md.flags.has(Flags::OVERRIDE) || !matches!(md.kind, MethodKind::Ordinary) {
                    continue;
                }
                if self.c.explicit_impls.contains_key(&m) {
                    continue;
                }
                let hidden = methods.iter().any(|&(x, xo)| self.c.same_signature(x, Some(xo), m, Some(owner)));
                if !hidden {
                    methods.push((m, owner));
                }
            }
        }
        (!methods.is_empty()).then_some(Member::Methods(methods))
    }

    fn is_override_property(&self, p: PropertyId) -> bool {
        let pd = self.c.meta.property(p);
        let acc = pd.getter.or(pd.setter);
        acc.is_some_and(|m| self.c.meta.method(m).flags.has(Flags::OVERRIDE))
    }

    /// An explicit interface implementation (`object IEnumerator.Current`), invisible to
    /// member lookup on the class.
    fn is_explicit_property(&self, p: PropertyId) -> bool {
        let pd = self.c.meta.property(p);
        let acc = pd.getter.or(pd.setter);
        acc.is_some_and(|m| self.c.explicit_impls.contains_key(&m))
    }

    /// The indexers (`this[...]`) of `t`, with their constructed owners.
    pub fn lookup_indexers(&mut self, t: TypeId) -> Vec<(PropertyId, TypeId)> {
        let mut out = Vec::new();
        for owner in self.member_search_order(t) {
            let Some(def) = self.c.meta.types.def_of(owner) else { continue };
            for &p in &self.c.meta.type_def(def).properties.clone() {
                if !self.c.meta.property(p).params.is_empty() && !self.is_override_property(p) && !self.is_explicit_property(p) {
                    out.push((p, owner));
                }
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }

    /// Whether code in the current type may use a member declared in `owner` with `flags`.
    pub fn is_accessible(&self, owner: TypeDefId, flags: Flags) -> bool {
        let Some(here) = self.ctx.type_def else { return true };
        if flags.has(Flags::PUBLIC) {
            return true;
        }
        let owner_is_lib = self.c.meta.type_def(owner).flags.has(Flags::LIBRARY);
        let here_is_lib = self.c.meta.type_def(here).flags.has(Flags::LIBRARY);
        if flags.has(Flags::INTERNAL) && !flags.has(Flags::PROTECTED) {
            return owner_is_lib == here_is_lib;
        }
        if self.is_within(here, owner) {
            return true;
        }
        if flags.has(Flags::PROTECTED) {
            return self.derives_from(here, owner) || (flags.has(Flags::INTERNAL) && owner_is_lib == here_is_lib);
        }
        // private (the default for members)
        false
    }

    /// Whether code here may call method `m`; `creating`: with `new` (a protected
    /// constructor serves only `: base(...)` and code inside its own class).
    pub fn is_method_accessible(&self, m: MethodId, creating: bool) -> bool {
        let md = self.c.meta.method(m);
        if !self.is_accessible(md.owner, md.flags) {
            return false;
        }
        let protected_only = md.flags.has(Flags::PROTECTED) && !md.flags.has(Flags::INTERNAL) && !md.flags.has(Flags::PUBLIC);
        let constructor = md.kind == MethodKind::Constructor;
        !(creating && constructor && protected_only) || self.ctx.type_def.is_none_or(|here| self.is_within(here, md.owner))
    }

    /// The candidates of an overload resolution that code here may call (C# leaves
    /// inaccessible members out); all of them when none is, so the call chosen among them
    /// reports CS0122.
    pub fn accessible_candidates(&self, candidates: &[(MethodId, TypeId)], creating: bool) -> Vec<(MethodId, TypeId)> {
        let accessible: Vec<(MethodId, TypeId)> = candidates.iter().copied().filter(|&(m, _)| self.is_method_accessible(m, creating)).collect();
        if accessible.is_empty() {
            candidates.to_vec()
        } else {
            accessible
        }
    }

    /// `here` is `owner` or nested (at any depth) inside it.
    fn is_within(&self, here: TypeDefId, owner: TypeDefId) -> bool {
        let mut cur = Some(here);
        while let Some(d) = cur {
            if d == owner {
                return true;
            }
            cur = self.c.meta.type_def(d).declaring_type;
        }
        false
    }

    fn derives_from(&self, here: TypeDefId, owner: TypeDefId) -> bool {
        let mut cur = Some(here);
        while let Some(d) = cur {
            let mut b = self.c.meta.type_def(d).base.and_then(|b| self.c.meta.types.def_of(b));
            while let Some(bd) = b {
                if bd == owner {
                    return true;
                }
                b = self.c.meta.type_def(bd).base.and_then(|x| self.c.meta.types.def_of(x));
            }
            cur = self.c.meta.type_def(d).declaring_type;
        }
        false
    }

    /// Extension methods named `name` in static classes of the namespaces in scope.
    pub fn extension_methods(&mut self, name: &str) -> Vec<MethodId> {
        let mut namespaces: Vec<String> = Vec::new();
        let mut s = Some(self.ctx.scope);
        while let Some(id) = s {
            let sc = self.c.scope(id);
            let mut ns = sc.namespace.clone();
            loop {
                if !namespaces.contains(&ns) {
                    namespaces.push(ns.clone());
                }
                if ns.is_empty() {
                    break;
                }
                ns = ns.rsplit_once('.').map_or(String::new(), |(p, _)| p.to_string());
            }
            for u in &sc.usings {
                if !namespaces.contains(u) {
                    namespaces.push(u.clone());
                }
            }
            s = sc.parent;
        }
        let mut out = Vec::new();
        for (i, d) in self.c.meta.type_defs.iter().enumerate() {
            if !d.flags.has(Flags::STATIC) || d.declaring_type.is_some() || !namespaces.contains(&d.namespace) {
                continue;
            }
            if !self.c.extension_classes.contains(&TypeDefId(i as u32)) {
                continue;
            }
            for &m in &d.methods {
                let md = self.c.meta.method(m);
                if md.name == name && md.flags.has(Flags::EXTENSION) {
                    out.push(m);
                }
            }
        }
        out
    }
}
