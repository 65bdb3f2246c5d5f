//! The size model behind `--stats`: how many bytes 64-bit .NET would allocate for an
//! object, so the VM's allocations can be reported as BenchmarkDotNet reports .NET's
//! (reference: async-lowerings.md §5.2). The VM's own representation (16-byte values,
//! heap-allocated structs) never shows through.
//!
//! * A class instance is a 16-byte header plus its fields in CLR auto layout, at least 24.
//! * A library class is modeled only if it, or a base class, carries `[ModeledSize(n)]`:
//!   `n` is .NET's size of that class; fields typed by a type parameter (`Task<T>`'s result,
//!   a box's state machine) add their inline size; fields of unmodeled subclasses add their
//!   layout. Other library objects are implementation details and cost nothing.
//! * A compiler-generated async state machine is a struct in .NET (Release builds): it
//!   costs nothing until a box holds it inline.

use super::types::TypeClass;
use super::value::Value;
use super::Vm;
use crate::bytecode::NumKind;
use crate::metadata::well_known::SELF_REFERENCE_FIELD;
use crate::metadata::{Flags, Substitution, TypeDefId, TypeId, TypeKind};

/// Size and alignment of a value stored inline (a field, a local in a continuation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u32,
    pub align: u32,
}

impl Layout {
    pub const REF: Layout = Layout { size: 8, align: 8 };
    const EMPTY_STRUCT: Layout = Layout { size: 1, align: 1 };

    fn prim(size: u32) -> Layout {
        Layout { size, align: size }
    }
}

/// Bytes of an object header and method-table pointer.
const OBJECT_HEADER: u32 = 16;
/// The smallest object .NET allocates.
const MIN_OBJECT: u32 = 24;

pub fn round8(n: u32) -> u32 {
    n.div_ceil(8) * 8
}

/// Packs fields largest alignment first, as the CLR's auto layout does; the total is
/// padded to the largest alignment. An empty list is `None`.
pub fn pack(fields: &[Layout]) -> Option<Layout> {
    place(fields).1
}

/// [`pack`], with the offset of each field (in the order given).
pub fn place(fields: &[Layout]) -> (Vec<u32>, Option<Layout>) {
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by(|&a, &b| fields[b].align.cmp(&fields[a].align));
    let mut offsets = vec![0; fields.len()];
    let mut offset: u32 = 0;
    for &i in &order {
        offsets[i] = offset.next_multiple_of(fields[i].align);
        offset = offsets[i] + fields[i].size;
    }
    let packed = order.first().map(|&i| {
        let align = fields[i].align;
        Layout { size: offset.next_multiple_of(align), align }
    });
    (offsets, packed)
}

impl Vm {
    /// The modeled size of a new instance of class `t`, or `None` if .NET would not
    /// allocate it (or the library object is an implementation detail).
    pub fn modeled_instance_size(&mut self, t: TypeId) -> Option<u32> {
        let chain = self.class_chain(t);
        let modeled = chain.iter().position(|&(_, def)| self.meta.type_def(def).modeled_size.is_some());
        let (fixed, own) = match modeled {
            Some(i) => (self.meta.type_def(chain[i].1).modeled_size.unwrap_or(0), i),
            None if self.is_user_class(chain.first()?.1) => (OBJECT_HEADER, chain.len()),
            None => return None,
        };
        let mut fields = Vec::new();
        let mut inline = 0;
        for (i, &(ct, def)) in chain.iter().enumerate() {
            for (declared, ft) in self.instance_fields(ct, def) {
                if i < own {
                    fields.push(self.inline_layout(ft));
                } else if self.is_type_param_of(declared, def) {
                    inline += round8(self.inline_layout(ft).size);
                }
            }
        }
        let own_bytes = pack(&fields).map_or(0, |l| l.size);
        Some(round8(fixed + inline + own_bytes).max(MIN_OBJECT))
    }

    /// How a value of type `t` is stored inline in a field or a continuation.
    pub fn inline_layout(&mut self, t: TypeId) -> Layout {
        match self.type_class(t) {
            TypeClass::Bool => Layout::prim(1),
            TypeClass::Num(k) | TypeClass::Enum(k) => Layout::prim(num_size(k)),
            TypeClass::Decimal => Layout { size: 16, align: 8 },
            TypeClass::Nullable(inner) => {
                let l = self.inline_layout(inner);
                Layout { size: l.align + l.size, align: l.align }
            }
            TypeClass::Struct => self.struct_layout(t),
            TypeClass::Reference if self.is_state_machine(t) => self.struct_layout(t),
            TypeClass::String | TypeClass::Reference | TypeClass::Param | TypeClass::Void => Layout::REF,
        }
    }

    /// The inline layout of a run-time value (a register saved in a continuation).
    pub fn value_layout(&mut self, v: Value) -> Layout {
        match v {
            Value::Bool(_) | Value::I8(_) | Value::U8(_) => Layout::prim(1),
            Value::Char(_) | Value::I16(_) | Value::U16(_) => Layout::prim(2),
            Value::I32(_) | Value::U32(_) | Value::F32(_) => Layout::prim(4),
            Value::I64(_) | Value::U64(_) | Value::F64(_) | Value::Enum(..) => Layout::prim(8),
            Value::Struct(r) => match self.heap.get(r) {
                Some(super::object::Obj::Instance(i)) => {
                    let ty = i.ty;
                    self.struct_layout(ty)
                }
                _ => Layout::REF,
            },
            Value::Null | Value::Ref(_) | Value::Boxed(_) | Value::Type(_) => Layout::REF,
        }
    }

    fn struct_layout(&mut self, t: TypeId) -> Layout {
        let Some(&(_, def)) = self.class_chain(t).first() else { return Layout::REF };
        let fields: Vec<Layout> = self.instance_fields(t, def).into_iter().map(|(_, ft)| self.inline_layout(ft)).collect();
        pack(&fields).unwrap_or(Layout::EMPTY_STRUCT)
    }

    /// `t` and its base classes, each with its definition, most derived first.
    fn class_chain(&mut self, t: TypeId) -> Vec<(TypeId, TypeDefId)> {
        let mut chain = Vec::new();
        let mut cur = Some(t);
        while let Some(ct) = cur {
            let TypeKind::Named { def, .. } = *self.meta.types.kind(ct) else { break };
            if def == self.object_def() {
                break;
            }
            chain.push((ct, def));
            cur = self.meta.base_type(ct);
        }
        chain
    }

    /// The instance fields `def` itself declares, as (declared type, type in `t`).
    fn instance_fields(&mut self, t: TypeId, def: TypeDefId) -> Vec<(TypeId, TypeId)> {
        let TypeKind::Named { args, .. } = self.meta.types.kind(t).clone() else { return Vec::new() };
        let sub = Substitution::for_type(def, &args);
        let ids = self.meta.type_def(def).fields.clone();
        let mut out = Vec::new();
        for f in ids {
            let fd = self.meta.field(f);
            if fd.is_static() || fd.name == SELF_REFERENCE_FIELD {
                continue;
            }
            let declared = fd.ty;
            out.push((declared, self.meta.types.subst(declared, &sub)));
        }
        out
    }

    fn is_type_param_of(&self, declared: TypeId, def: TypeDefId) -> bool {
        match self.meta.types.kind(declared) {
            TypeKind::Param { owner: crate::metadata::ParamOwner::Type(o), .. } => *o == def,
            _ => false,
        }
    }

    fn is_user_class(&self, def: TypeDefId) -> bool {
        let d = self.meta.type_def(def);
        !d.flags.has(Flags::LIBRARY) && !self.is_state_machine_def(def)
    }

    fn is_state_machine(&self, t: TypeId) -> bool {
        matches!(*self.meta.types.kind(t), TypeKind::Named { def, .. } if self.is_state_machine_def(def))
    }

    /// A classic-lowering state machine, a struct in .NET.
    fn is_state_machine_def(&self, def: TypeDefId) -> bool {
        self.meta.type_def(def).flags.has(Flags::STATE_MACHINE)
    }

    fn object_def(&self) -> TypeDefId {
        match *self.meta.types.kind(self.meta.well_known.object) {
            TypeKind::Named { def, .. } => def,
            _ => TypeDefId(u32::MAX),
        }
    }
}

fn num_size(k: NumKind) -> u32 {
    match k {
        NumKind::I8 | NumKind::U8 => 1,
        NumKind::I16 | NumKind::U16 | NumKind::Char => 2,
        NumKind::I32 | NumKind::U32 | NumKind::F32 => 4,
        NumKind::I64 | NumKind::U64 | NumKind::F64 => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_puts_the_widest_fields_first() {
        // A state machine for `await Task.Yield()`: builder 8, state 4, YieldAwaiter 1.
        let sm = [Layout::REF, Layout::prim(4), Layout::EMPTY_STRUCT];
        assert_eq!(pack(&sm), Some(Layout { size: 16, align: 8 }));
        let with_local = [Layout::REF, Layout::prim(4), Layout::prim(4), Layout::EMPTY_STRUCT];
        assert_eq!(pack(&with_local), Some(Layout { size: 24, align: 8 }));
        assert_eq!(pack(&[]), None);
    }

    #[test]
    fn placing_keeps_the_given_order_of_equal_alignments() {
        let fields = [Layout::prim(4), Layout::REF, Layout::prim(4), Layout::prim(1)];
        assert_eq!(place(&fields), (vec![8, 0, 12, 16], Some(Layout { size: 24, align: 8 })));
    }
}
