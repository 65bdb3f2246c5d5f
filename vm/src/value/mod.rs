//! `Value`: what a register, a field or an array element holds; and the value semantics
//! both the compiler (constant folding) and the interpreter use, so they cannot drift:
//! [`arith`] (C#'s arithmetic, comparisons and conversions), [`NumKind`], [`ExceptionKind`].
//! This layer sits below `bytecode/`, `compiler/` and `runtime/`; it imports only `metadata/`.
//!
//! A small `Copy` enum (16 bytes, pinned by a test). Primitive C# values are stored
//! unboxed with their run-time type in the tag. Heap objects are [`GcRef`] handles into the
//! runtime's heap (`runtime/heap.rs`); user structs live on the heap too but carry the
//! [`Value::Struct`] tag, which tells generic code to copy them on assignment. A value
//! type converted to `object` where C# boxes is a [`Value::Boxed`]: a heap object of its
//! own, with an identity (`ReferenceEquals`, `lock`), which code reading the value sees
//! through (`Vm::unboxed_view`).

pub mod arith;
pub mod exception_kind;
pub mod num_kind;

pub use exception_kind::ExceptionKind;
pub use num_kind::{zero_of, NumKind};

use crate::metadata::TypeId;

/// A handle to a heap object (an index into the runtime heap's slot arena).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GcRef(pub u32);

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Value {
    /// `null` (also the "no value" of a fresh register).
    #[default]
    Null,
    Bool(bool),
    /// A UTF-16 code unit (`char`).
    Char(u16),
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F32(f32),
    F64(f64),
    /// A boxed enum value: its enum type and its underlying integer. In registers an enum
    /// is its underlying integer; converting it to `object` makes it an `Enum`.
    Enum(TypeId, i64),
    /// A reference-type object (class instance, string, array, delegate, decimal...).
    Ref(GcRef),
    /// A struct value stored on the heap; copied wherever C# copies a struct.
    Struct(GcRef),
    /// A boxed value type: `Obj::Boxed` (`runtime/object.rs`) holding a primitive,
    /// an enum ([`Value::Enum`]) or a decimal, or, for a struct, the box's own
    /// `Obj::Instance` (an interface call mutates it).
    Boxed(GcRef),
    /// A run-time type handle: hidden generic type arguments travel as these.
    Type(TypeId),
}

impl Value {
    /// A copy made variant by variant. A register just written holds its tag and payload
    /// from two separate stores; copying it as one 16-byte block would wait for both to
    /// retire (a store-forwarding stall), field-sized reads do not.
    #[inline(always)]
    pub fn copy_within(regs: &mut [Value], dst: usize, src: usize) {
        let v = &regs[src];
        regs[dst] = v.copy_by_variant();
    }

    /// `*self`, read variant by variant (see [`Value::copy_within`]).
    #[inline(always)]
    pub fn copy_by_variant(&self) -> Value {
        match *self {
            Value::I32(x) => Value::I32(x),
            Value::I64(x) => Value::I64(x),
            Value::F64(x) => Value::F64(x),
            Value::Ref(r) => Value::Ref(r),
            other => other,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The heap object this value refers to, if any (references, structs and boxes).
    pub fn gc_ref(&self) -> Option<GcRef> {
        match *self {
            Value::Ref(r) | Value::Struct(r) | Value::Boxed(r) => Some(r),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Any integral value (incl. `char` and boxed enums) widened to `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        Some(match *self {
            Value::Char(c) => c as i64,
            Value::I8(v) => v as i64,
            Value::U8(v) => v as i64,
            Value::I16(v) => v as i64,
            Value::U16(v) => v as i64,
            Value::I32(v) => v as i64,
            Value::U32(v) => v as i64,
            Value::I64(v) => v,
            Value::U64(v) => v as i64,
            Value::Enum(_, v) => v,
            _ => return None,
        })
    }

    pub fn as_i32(&self) -> Option<i32> {
        match *self {
            Value::I32(v) => Some(v),
            _ => self.as_i64().map(|v| v as i32),
        }
    }

    /// Any numeric value converted to `f64` (integers exactly where representable).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F64(v) => Some(v),
            Value::F32(v) => Some(v as f64),
            Value::U64(v) => Some(v as f64),
            _ => self.as_i64().map(|v| v as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_is_two_words() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }
}
