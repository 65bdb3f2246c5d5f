//! Defensive copies (C# spec §12.8.7, "readonly variables"): a method or property getter
//! called on a struct held in a readonly variable (a `readonly` field outside its type's
//! constructor, a field of such a struct, an `in` parameter) runs on a copy, so the
//! variable keeps its value whatever the member does.

use super::MethodBinder;
use crate::compiler::bound::{BExpr, BKind, BStmt, LocalKind, SKind};
use crate::metadata::{FieldId, Flags, MethodId, MethodKind, ParamKind, TypeDefKind, TypeId};

impl MethodBinder<'_> {
    /// The receiver a call of `member` on `receiver` uses: a copy of it when it is a
    /// readonly struct variable and the member could change it, else `receiver` itself.
    /// Members of a `readonly struct` and `readonly` members cannot, so they need none.
    pub(super) fn defensive_copy(&mut self, receiver: Box<BExpr>, member: MethodId) -> Box<BExpr> {
        if !self.is_struct(receiver.ty) || self.cannot_mutate(receiver.ty, member) || !self.is_readonly_variable(&receiver) {
            return receiver;
        }
        let (ty, span) = (receiver.ty, receiver.span);
        let copy = self.temp(ty, span);
        let init = BStmt::new(SKind::Local { local: copy, init: Some(*receiver) }, span);
        let value = Box::new(self.local_expr(copy, span));
        Box::new(BExpr::new(BKind::Seq { stmts: vec![init], value }, ty, span))
    }

    pub(super) fn is_struct(&self, t: TypeId) -> bool {
        self.c.meta.types.def_of(t).is_some_and(|d| self.c.meta.type_def(d).kind == TypeDefKind::Struct)
    }

    /// The readonly field (used outside its constructor) whose struct value holds the
    /// variable `e`, if any: assigning to a member of `e` is CS1648 (CS1650 when static).
    pub(super) fn readonly_field_holding(&self, e: &BExpr) -> Option<FieldId> {
        let BKind::Field { receiver, field, .. } = &e.kind else { return None };
        if !self.is_struct(e.ty) {
            return None;
        }
        let fd = self.c.meta.field(*field);
        if fd.flags.has(Flags::READONLY) && !self.writable_here(fd.owner, fd.flags.has(Flags::STATIC), receiver.as_deref()) {
            return Some(*field);
        }
        receiver.as_deref().and_then(|r| self.readonly_field_holding(r))
    }

    /// A readonly field (outside its constructor), or a field of a struct held in one,
    /// passed by `ref`/`out` or aliased by a `ref` local: CS0192 / CS0199, CS1649 / CS1651.
    pub(super) fn check_readonly_by_reference(&mut self, v: &BExpr) {
        let BKind::Field { receiver, field, .. } = &v.kind else { return };
        let fd = self.c.meta.field(*field).clone();
        if fd.flags.has(Flags::READONLY) && !self.writable_here(fd.owner, fd.flags.has(Flags::STATIC), receiver.as_deref()) {
            if fd.flags.has(Flags::STATIC) {
                self.error(v.span, "CS0199", "A static readonly field cannot be used as a ref or out value (except in a static constructor)");
            } else {
                self.error(v.span, "CS0192", "A readonly field cannot be used as a ref or out value (except in a constructor)");
            }
            return;
        }
        let Some(holder) = receiver.as_deref().and_then(|r| self.readonly_field_holding(r)) else { return };
        let hd = self.c.meta.field(holder).clone();
        let name = format!("{}.{}", self.type_name(self.c.meta.type_def(hd.owner).self_type), hd.name);
        if hd.flags.has(Flags::STATIC) {
            self.error(
                v.span,
                "CS1651",
                format!("Fields of static readonly field '{name}' cannot be used as a ref or out value (except in a static constructor)"),
            );
        } else {
            self.error(v.span, "CS1649", format!("Members of readonly field '{name}' cannot be used as a ref or out value (except in a constructor)"));
        }
    }

    fn cannot_mutate(&self, ty: TypeId, member: MethodId) -> bool {
        let readonly_struct = self.c.meta.types.def_of(ty).is_some_and(|d| self.c.meta.type_def(d).flags.has(Flags::READONLY));
        readonly_struct || self.c.meta.method(member).flags.has(Flags::READONLY)
    }

    fn is_readonly_variable(&self, e: &BExpr) -> bool {
        match &e.kind {
            BKind::Field { receiver, field, .. } => {
                let fd = self.c.meta.field(*field);
                if fd.flags.has(Flags::READONLY) && !self.writable_here(fd.owner, fd.flags.has(Flags::STATIC), receiver.as_deref()) {
                    return true;
                }
                // A field of a struct held in a readonly variable is readonly too.
                receiver.as_deref().is_some_and(|r| self.is_struct(r.ty) && self.is_readonly_variable(r))
            }
            BKind::Local(l) => {
                let info = &self.locals[l.0 as usize];
                let LocalKind::Param(i) = info.kind else { return false };
                let params = &self.c.meta.method(self.func.method).params;
                info.owner == 0 && params.get(i as usize).is_some_and(|p| p.kind == ParamKind::In)
            }
            _ => false,
        }
    }

    /// A readonly field is a variable in a constructor of its type (the static constructor
    /// for a static field), reached through `this` for an instance field.
    fn writable_here(&self, owner: crate::metadata::TypeDefId, is_static: bool, receiver: Option<&BExpr>) -> bool {
        let md = self.c.meta.method(self.func.method);
        if md.owner != owner {
            return false;
        }
        match (is_static, md.kind) {
            (true, MethodKind::StaticConstructor) => true,
            (false, MethodKind::Constructor) => receiver.is_some_and(|r| matches!(r.kind, BKind::This)),
            _ => false,
        }
    }
}
