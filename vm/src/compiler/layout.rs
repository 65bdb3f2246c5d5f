//! Type layout: instance and static field slots, vtables (override matching), interface
//! maps (explicit, implicit and inherited implementations), and the errors C# reports on
//! the way (missing overrides, unimplemented abstract and interface members).

use super::resolve::NameContext;
use super::Compiler;
use crate::metadata::{FileId, Flags, MethodId, MethodKind, ParamOwner, Substitution, TypeDefId, TypeDefKind, TypeId, TypeKind};
use grammar::span::Span;

/// The most instance (or static) fields a type may have: the field instructions address a
/// slot with 16 bits.
const MAX_FIELD_SLOTS: u32 = u16::MAX as u32 + 1;
impl Compiler {
    pub fn layout_all(&mut self) {
        let mut done = vec![false; self.meta.type_defs.len()];
        for i in 0..self.meta.type_defs.len() {
            self.layout_with_bases(TypeDefId(i as u32), &mut done, 0);
        }
    }

    fn layout_with_bases(&mut self, def: TypeDefId, done: &mut [bool], depth: usize) {
        if done[def.index()] || depth > 64 {
            return;
        }
        done[def.index()] = true;
        if let Some(b) = self.meta.type_def(def).base.and_then(|b| self.meta.types.def_of(b)) {
            self.layout_with_bases(b, done, depth + 1);
        }
        for i in self.meta.type_def(def).interfaces.clone() {
            if let Some(d) = self.meta.types.def_of(i) {
                self.layout_with_bases(d, done, depth + 1);
            }
        }
        self.layout_fields(def);
        self.layout_vtable(def);
        self.layout_interfaces(def);
    }

    fn base_def(&self, def: TypeDefId) -> Option<TypeDefId> {
        self.meta.type_def(def).base.and_then(|b| self.meta.types.def_of(b))
    }

    fn layout_fields(&mut self, def: TypeDefId) {
        let mut next = self.base_def(def).map_or(0, |b| self.meta.type_def(b).instance_slots);
        let mut next_static = 0;
        for f in self.meta.type_def(def).fields.clone() {
            let fd = &mut self.meta.fields[f.index()];
            if fd.flags.has(Flags::CONST) {
                continue;
            }
            if fd.flags.has(Flags::STATIC) {
                fd.slot = next_static;
                next_static += 1;
            } else {
                fd.slot = next;
                next += 1;
            }
        }
        if next.max(next_static) > MAX_FIELD_SLOTS {
            let d = self.meta.type_def(def);
            let (file, span, name) = (d.file, d.span, d.name.clone());
            self.error(
                file,
                span,
                "CSL9002",
                format!("'{name}' has more fields than cs-lite's limit of {MAX_FIELD_SLOTS} per type (instance or static, with its base classes')"),
            );
        }
        let d = &mut self.meta.type_defs[def.index()];
        d.instance_slots = next;
        d.static_slots = next_static;
    }

    fn layout_vtable(&mut self, def: TypeDefId) {
        let base_t = self.meta.type_def(def).base;
        let mut vtable = self.base_def(def).map_or_else(Vec::new, |b| self.meta.type_def(b).vtable.clone());
        let is_interface = self.meta.type_def(def).kind == TypeDefKind::Interface;
        for m in self.meta.type_def(def).methods.clone() {
            let md = self.meta.method(m).clone();
            if is_interface || md.is_static() {
                continue;
            }
            if md.flags.has(Flags::OVERRIDE) {
                // The nearest declaration wins: a `new virtual` slot hides older ones.
                let found = vtable.iter().rposition(|&v| self.meta.method(v).name == md.name && self.same_signature(v, base_t, m, None));
                match found {
                    Some(slot) => {
                        if self.meta.method(vtable[slot]).flags.has(Flags::SEALED) {
                            self.report_sealed_override(m, vtable[slot]);
                        }
                        self.inherit_constraints(m, vtable[slot], base_t);
                        vtable[slot] = m;
                        self.meta.methods[m.index()].vtable_slot = Some(slot as u32);
                    }
                    None => self.report_no_override(m),
                }
            } else if md.flags.has(Flags::VIRTUAL) || md.flags.has(Flags::ABSTRACT) {
                self.meta.methods[m.index()].vtable_slot = Some(vtable.len() as u32);
                vtable.push(m);
            }
        }
        let d = self.meta.type_def(def).clone();
        if d.kind == TypeDefKind::Class && !d.flags.has(Flags::ABSTRACT) {
            for &v in &vtable {
                if self.meta.method(v).flags.has(Flags::ABSTRACT) {
                    let (c, member) = (self.meta.cs_name(d.self_type), self.member_display(v));
                    let (file, span) = (d.file, d.span);
                    self.error(file, span, "CS0534", format!("'{c}' does not implement inherited abstract member '{member}'"));
                }
            }
        }
        self.meta.type_defs[def.index()].vtable = vtable;
    }

    fn report_no_override(&mut self, m: MethodId) {
        let md = self.meta.method(m).clone();
        let shown = self.member_display(m);
        let what = if matches!(md.kind, MethodKind::Getter | MethodKind::Setter) { "property" } else { "method" };
        self.error(md.file, md.span, "CS0115", format!("'{shown}': no suitable {what} found to override"));
    }

    fn report_sealed_override(&mut self, m: MethodId, sealed: MethodId) {
        let md = self.meta.method(m).clone();
        let (a, b) = (self.member_display(m), self.member_display(sealed));
        self.error(md.file, md.span, "CS0239", format!("'{a}': cannot override inherited member '{b}' because it is sealed"));
    }

    /// `Type.Method(int, string)` as C# error messages show a member.
    pub fn member_display(&self, m: MethodId) -> String {
        let md = self.meta.method(m);
        let owner = self.meta.cs_name(self.meta.type_def(md.owner).self_type);
        let params: Vec<String> = md.params.iter().map(|p| self.meta.cs_name(p.ty)).collect();
        match md.kind {
            MethodKind::Getter | MethodKind::Setter => {
                let prop = md.name.get(4..).unwrap_or(&md.name);
                format!("{owner}.{prop}")
            }
            MethodKind::Constructor => format!("{owner}.{}({})", self.meta.type_def(md.owner).name, params.join(", ")),
            _ => {
                let generic = if md.type_params.is_empty() {
                    String::new()
                } else {
                    let n: Vec<&str> = md.type_params.iter().map(|p| p.name.as_str()).collect();
                    format!("<{}>", n.join(", "))
                };
                format!("{owner}.{}{generic}({})", md.name, params.join(", "))
            }
        }
    }

    /// Whether `a` (seen through the constructed type `a_owner`) and `b` (through
    /// `b_owner`) have the same parameter types and kinds. Method type parameters match by
    /// position.
    pub fn same_signature(&mut self, a: MethodId, a_owner: Option<TypeId>, b: MethodId, b_owner: Option<TypeId>) -> bool {
        let (ma, mb) = (self.meta.method(a).clone(), self.meta.method(b).clone());
        if ma.params.len() != mb.params.len() || ma.type_params.len() != mb.type_params.len() {
            return false;
        }
        let sa = self.signature_substitution(a, a_owner);
        let sb = self.signature_substitution(b, b_owner);
        ma.params.iter().zip(&mb.params).all(|(pa, pb)| {
            let ta = self.canonical(pa.ty, &sa);
            let tb = self.canonical(pb.ty, &sb);
            ta == tb
                && (pa.kind == pb.kind
                    || !matches!(
                        (pa.kind, pb.kind),
                        (crate::metadata::ParamKind::Ref | crate::metadata::ParamKind::Out, _)
                            | (_, crate::metadata::ParamKind::Ref | crate::metadata::ParamKind::Out)
                    ))
        })
    }

    /// The substitution that views a method through a constructed owner type, with method
    /// type parameters mapped to canonical placeholders.
    pub(super) fn signature_substitution(&mut self, m: MethodId, owner: Option<TypeId>) -> Substitution {
        let md = self.meta.method(m).clone();
        let canonical: Vec<TypeId> = (0..md.type_params.len()).map(|i| self.meta.types.param(ParamOwner::Method(MethodId(u32::MAX)), i as u16)).collect();
        let mut sub = Substitution::for_method(m, &canonical);
        if let Some(o) = owner {
            if let TypeKind::Named { def, args } = self.meta.types.kind(o).clone() {
                if def == md.owner {
                    sub.type_owner = Some(def);
                    sub.type_args = args.to_vec();
                } else {
                    // A base several levels up: find the instantiation of the owner in o's chain.
                    let supers = self.meta.supertypes(o);
                    if let Some(s) = supers.into_iter().find(|&s| self.meta.types.def_of(s) == Some(md.owner)) {
                        sub.type_owner = Some(md.owner);
                        sub.type_args = self.meta.types.args_of(s).to_vec();
                    }
                }
            }
        }
        sub
    }

    fn canonical(&mut self, t: TypeId, sub: &Substitution) -> TypeId {
        self.meta.types.subst(t, sub)
    }

    fn layout_interfaces(&mut self, def: TypeDefId) {
        let d = self.meta.type_def(def).clone();
        if d.kind == TypeDefKind::Interface {
            return;
        }
        let (mut map, mut by_type) = self.inherited_interface_maps(def);
        let declared = self.declared_interfaces(def);
        let supers = self.meta.supertypes(d.self_type);
        let twice = self.interfaces_implemented_twice(&supers);
        for iface in supers.clone() {
            let Some(idef) = self.meta.types.def_of(iface) else { continue };
            if self.meta.type_def(idef).kind != TypeDefKind::Interface {
                continue;
            }
            for im in self.meta.type_def(idef).methods.clone() {
                if self.meta.method(im).is_static() && !self.meta.method(im).is_static_virtual() {
                    continue;
                }
                if !declared.contains(&iface) && map.contains_key(&im) {
                    // Implemented by a base class and not re-implemented here: the base's
                    // choice stands (an override of it is already in the inherited map).
                    continue;
                }
                if let Some(found) = self.find_implementation(def, d.self_type, (iface, &supers), im) {
                    if self.explicit_impls.contains_key(&found) && self.meta.method(found).owner == def {
                        self.inherit_constraints(found, im, Some(iface));
                    }
                    map.insert(im, found);
                    if twice.contains(&idef) {
                        by_type.insert((im, iface), found);
                    }
                } else if !map.contains_key(&im) {
                    if self.meta.method(im).flags.has(Flags::ABSTRACT) {
                        self.report_missing_interface_member(def, iface, im);
                    } else {
                        map.insert(im, im);
                    }
                }
            }
        }
        let d = &mut self.meta.type_defs[def.index()];
        d.interface_map = map;
        d.interface_map_by_type = by_type;
        self.interfaces_implemented_twice.extend(twice);
    }

    /// The generic interfaces that appear with different type arguments among `supers`
    /// (`IOp<ushort>` and `IOp<uint>`): their methods are told apart by interface type.
    fn interfaces_implemented_twice(&self, supers: &[TypeId]) -> Vec<TypeDefId> {
        let defs: Vec<TypeDefId> = supers.iter().filter_map(|&t| self.meta.types.def_of(t)).collect();
        let mut twice = Vec::new();
        for &d in &defs {
            if defs.iter().filter(|&&e| e == d).count() > 1 && !twice.contains(&d) {
                twice.push(d);
            }
        }
        twice
    }

    /// The base class's interface maps (by method, and by method and interface type), each
    /// virtual implementation replaced by its override in this class's vtable.
    fn inherited_interface_maps(&self, def: TypeDefId) -> (InterfaceMap, InterfaceMapByType) {
        let Some(base) = self.base_def(def) else { return Default::default() };
        let vtable = &self.meta.type_def(def).vtable;
        let here = |m: MethodId| self.meta.method(m).vtable_slot.and_then(|slot| vtable.get(slot as usize)).copied().unwrap_or(m);
        let b = self.meta.type_def(base);
        let map = b.interface_map.iter().map(|(&im, &m)| (im, here(m))).collect();
        let by_type = b.interface_map_by_type.iter().map(|(&key, &m)| (key, here(m))).collect();
        (map, by_type)
    }

    /// The interfaces a type's own base list names, with the interfaces they extend (those
    /// it implements, or re-implements, itself).
    fn declared_interfaces(&mut self, def: TypeDefId) -> Vec<TypeId> {
        let mut out = Vec::new();
        for i in self.meta.type_def(def).interfaces.clone() {
            out.push(i);
            out.extend(self.meta.supertypes(i));
        }
        out
    }

    /// CS0535, once per missing member, at the interface's entry in the base list. A
    /// property nobody implements is reported as the property; a missing accessor of an
    /// implemented property as `I.P.get`.
    fn report_missing_interface_member(&mut self, def: TypeDefId, iface: TypeId, im: MethodId) {
        let d = self.meta.type_def(def).clone();
        let md = self.meta.method(im).clone();
        let mut member = self.member_display(im);
        if let Some(&pid) = self.accessor_property.get(&im) {
            let name = self.meta.property(pid).name.clone();
            let has_property = d.properties.iter().any(|&p| self.meta.property(p).name == name);
            if has_property {
                member.push_str(if md.kind == MethodKind::Getter { ".get" } else { ".set" });
            } else if md.kind == MethodKind::Setter && self.meta.property(pid).getter.is_some() {
                return;
            }
        }
        let shown = self.meta.cs_name(d.self_type);
        let (file, span) = self.base_list_entry(def, iface).unwrap_or((d.file, d.span));
        self.error(file, span, "CS0535", format!("'{shown}' does not implement interface member '{member}'"));
    }

    /// Where the base list of `def` names `iface` (or the interface that brings it in).
    fn base_list_entry(&mut self, def: TypeDefId, iface: TypeId) -> Option<(FileId, Span)> {
        for src in self.type_src[def.index()].decls.clone() {
            let ctx = NameContext::new(src.scope, src.file, Some(def));
            for base in &src.decl.bases {
                let Some(t) = self.try_resolve_type(&ctx, base) else { continue };
                if t == iface || self.meta.supertypes(t).contains(&iface) {
                    return Some((src.file, base.span));
                }
            }
        }
        None
    }

    /// The method of `def` (or its bases) implementing interface method `im` of `iface`:
    /// an explicit implementation first, then a public instance method with the same name
    /// and signature. `supers`: the interfaces `def` implements (an explicit implementation
    /// of one of them is never taken for another instantiation of the same interface).
    fn find_implementation(&mut self, def: TypeDefId, self_type: TypeId, (iface, supers): (TypeId, &[TypeId]), im: MethodId) -> Option<MethodId> {
        let name = self.meta.method(im).name.clone();
        let is_static = self.meta.method(im).is_static();
        let mut cur = Some(self_type);
        while let Some(t) = cur {
            let cdef = self.meta.types.def_of(t)?;
            let candidates: Vec<MethodId> = self
                .meta
                .type_def(cdef)
                .methods
                .iter()
                .copied()
                .filter(|&m| self.meta.method(m).name == name && self.meta.method(m).is_static() == is_static)
                .collect();
            for kind in [Implementation::Explicit, Implementation::ExplicitSameGeneric, Implementation::Public] {
                for &m in &candidates {
                    if self.implements_as(m, kind, (def, cdef), iface, supers) && self.same_signature(m, Some(t), im, Some(iface)) {
                        return Some(m);
                    }
                }
            }
            cur = self.meta.base_type(t);
        }
        None
    }

    /// Whether `m` (declared in `cdef`) is an implementation of the given kind for `iface`.
    fn implements_as(&self, m: MethodId, kind: Implementation, (def, cdef): (TypeDefId, TypeDefId), iface: TypeId, supers: &[TypeId]) -> bool {
        let explicit = self.explicit_impls.get(&m).copied();
        match (kind, explicit) {
            (Implementation::Explicit, Some(e)) => e == iface,
            (Implementation::ExplicitSameGeneric, Some(e)) => cdef == def && self.meta.types.def_of(e) == self.meta.types.def_of(iface) && !supers.contains(&e),
            (Implementation::Public, None) => {
                let md = self.meta.method(m);
                md.flags.has(Flags::PUBLIC) || self.is_library(md.file)
            }
            _ => false,
        }
    }
}

type InterfaceMap = hashbrown::HashMap<MethodId, MethodId>;
type InterfaceMapByType = hashbrown::HashMap<(MethodId, TypeId), MethodId>;

/// How a class member implements an interface member, in the order C# looks for one in
/// each class: an explicit implementation (`I<X>.M`, then one naming the same generic
/// interface with other type arguments as written in the class itself), then a public
/// member with the same signature.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Implementation {
    Explicit,
    ExplicitSameGeneric,
    Public,
}
