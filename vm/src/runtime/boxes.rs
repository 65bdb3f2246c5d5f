//! Boxes: a value type converted to `object` (or an interface, `ValueType`, `Enum`) where
//! C# boxes it becomes a heap object of its own, [`Value::Boxed`], so two boxes of `1` are
//! two objects (`==` and `ReferenceEquals` compare them by identity) and `lock` can take
//! one. Code that reads the value (an unboxing, a call on the box, an intrinsic) sees it
//! through [`Vm::unboxed_view`].
//!
//! A primitive's, an enum's (as [`Value::Enum`]) or a decimal's box is [`Obj::Boxed`]; a
//! struct's box is the struct's own [`Obj::Instance`], so a method called on the box
//! through an interface changes the box, as in .NET.

use super::clr_size::round8;
use super::heap::GcRef;
use super::object::Obj;
use super::types::TypeClass;
use super::value::Value;
use super::Vm;
use crate::metadata::TypeId;

/// Bytes of an object header and method-table pointer.
const OBJECT_HEADER: u32 = 16;
/// The smallest object .NET allocates.
const MIN_OBJECT: u32 = 24;

impl Vm {
    /// `(object)v` for a value of value type `ty`: a new box; `null` for an empty
    /// `Nullable<T>` (a full one boxes its value). A value that is not of a value type at
    /// run time (a type parameter's argument was a class) is its own reference.
    pub fn box_value(&mut self, v: Value, ty: TypeId) -> Value {
        if matches!(v, Value::Null | Value::Boxed(_) | Value::Type(_)) {
            return v;
        }
        match self.type_class(ty) {
            TypeClass::Nullable(inner) => self.box_value(v, inner),
            TypeClass::Enum(_) => match v.as_i64() {
                Some(i) => self.new_box(Value::Enum(ty, i), ty),
                None => v,
            },
            TypeClass::Bool | TypeClass::Num(_) if !matches!(v, Value::Ref(_) | Value::Struct(_)) => self.new_box(v, ty),
            TypeClass::Decimal if matches!(v, Value::Ref(_)) => self.new_box(v, ty),
            TypeClass::Struct => self.box_struct(v, ty),
            _ => v,
        }
    }

    /// `v` as an `object` for code that only reads it at once (a type test, a format, an
    /// enum's receiver): enums get their type tag, structs are copied, nothing is boxed.
    pub fn object_view(&mut self, v: Value, ty: TypeId) -> Value {
        match self.type_class(ty) {
            TypeClass::Enum(_) => match v.as_i64() {
                Some(i) if !matches!(v, Value::Boxed(_)) => Value::Enum(ty, i),
                _ => v,
            },
            TypeClass::Struct => self.copy_struct(v),
            TypeClass::Nullable(inner) if !v.is_null() => self.object_view(v, inner),
            _ => v,
        }
    }

    /// `v` of run-time type `ty` with its enum tag if `ty` is an enum (see `Op::TagEnumDyn`).
    #[inline]
    pub fn enum_tagged(&mut self, v: Value, ty: TypeId) -> Value {
        match (self.type_class(ty), v.as_i64()) {
            (TypeClass::Enum(_), Some(i)) if !matches!(v, Value::Boxed(_) | Value::Enum(..)) => Value::Enum(ty, i),
            _ => v,
        }
    }

    /// The value a box holds, seen without copying (a struct's box as the struct itself,
    /// so a method called on it changes the box); anything else as it is.
    #[inline]
    pub fn unboxed_view(&self, v: Value) -> Value {
        match v {
            Value::Boxed(r) => self.box_contents(r),
            other => other,
        }
    }

    fn box_contents(&self, r: GcRef) -> Value {
        match self.heap.get(r) {
            Some(Obj::Boxed(inner)) => *inner,
            _ => Value::Struct(r),
        }
    }

    fn new_box(&mut self, inner: Value, ty: TypeId) -> Value {
        if self.stats.enabled() {
            let payload = self.inline_layout(ty).size;
            self.count_box(ty, payload);
        }
        Value::Boxed(self.heap.alloc(Obj::Boxed(inner)))
    }

    fn box_struct(&mut self, v: Value, ty: TypeId) -> Value {
        let Value::Struct(_) = v else { return v };
        let Value::Struct(copy) = self.copy_struct(v) else { return v };
        if self.stats.enabled() {
            let payload = self.inline_layout(ty).size;
            self.count_box(ty, payload);
        }
        Value::Boxed(copy)
    }

    /// A box of `ty` holding `payload` bytes, as .NET sizes it: header, value, at least 24.
    fn count_box(&mut self, ty: TypeId, payload: u32) {
        if self.in_library_initializer() {
            return;
        }
        let bytes = round8(OBJECT_HEADER + payload).max(MIN_OBJECT);
        let name = self.stats_type_name(ty);
        let kind = self.stats.kind(&name);
        self.stats.allocated(kind, bytes);
    }
}
