//! Object instructions: fields, arrays, struct copies, boxing and casts, delegates,
//! string concatenation and formatting, and run-time generic contexts.

use crate::bytecode::NumKind;
use crate::metadata::{MethodId, TypeDefId, TypeId, TypeKind};
use crate::runtime::heap::GcRef;
use crate::runtime::native::{ExceptionKind, NativeError};
use crate::runtime::object::{Array, Delegate, Instance, Obj};
use crate::runtime::types::TypeClass;
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// .NET's `Array.MaxLength`: the most elements an array may have.
const ARRAY_MAX_LENGTH: u64 = 0x7FFF_FFC7;

impl Vm {
    /// `obj.fields[slot]`; `None` for a null (or non-object) receiver.
    #[inline]
    pub(super) fn load_field(&self, obj: Value, slot: u16) -> Option<Value> {
        match self.heap.get(obj.gc_ref()?)? {
            Obj::Instance(i) => i.fields.get(slot as usize).copied(),
            _ => None,
        }
    }

    /// Register `dst` <- field `slot` of the object in register `obj` (absolute indexes);
    /// `false` for a null (or non-object) receiver.
    #[inline]
    pub(super) fn load_field_into(&mut self, obj: usize, slot: u16, dst: usize) -> bool {
        let Some(r) = self.thread.regs[obj].gc_ref() else { return false };
        let Some(Obj::Instance(i)) = self.heap.get(r) else { return false };
        let Some(v) = i.fields.get(slot as usize) else { return false };
        self.thread.regs[dst] = v.copy_by_variant();
        true
    }

    #[inline]
    pub(super) fn store_field(&mut self, obj: Value, slot: u16, v: Value) -> bool {
        let Some(r) = obj.gc_ref() else { return false };
        match self.heap.get_mut(r) {
            Some(Obj::Instance(i)) => match i.fields.get_mut(slot as usize) {
                Some(f) => {
                    *f = v;
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// A copy of a struct value (fields copied one level, nested structs copied too);
    /// anything else is returned unchanged.
    #[inline]
    pub fn copy_struct(&mut self, v: Value) -> Value {
        match v {
            Value::Struct(r) => self.copy_struct_object(r, v),
            _ => v,
        }
    }

    fn copy_struct_object(&mut self, r: GcRef, v: Value) -> Value {
        let (ty, fields) = match self.heap.get(r) {
            Some(Obj::Instance(i)) => (i.ty, i.fields.clone()),
            _ => return v,
        };
        let fields: Box<[Value]> = fields.iter().map(|&f| self.copy_struct(f)).collect();
        Value::Struct(self.heap.alloc(Obj::Instance(Instance { ty, fields })))
    }

    pub(super) fn new_array(&mut self, ty: TypeId, len: Value) -> Result<Value, ExceptionKind> {
        let n = len.as_i64().ok_or(ExceptionKind::Overflow)?;
        if n < 0 {
            return Err(ExceptionKind::Overflow);
        }
        self.make_room_for_array(n as u64)?;
        let elem = self.meta.types.array_elem(ty).map_or(TypeId::ERROR, |(e, _)| e);
        let items = self.default_items(elem, n as usize);
        Ok(Value::Ref(self.heap.alloc(Obj::Array(Array { ty, dims: None, items }))))
    }

    /// `OutOfMemoryException` unless an array of `length` elements fits: within .NET's
    /// `Array.MaxLength` and, after a collection if need be, under the heap limit. (The
    /// dispatch loop allocates arrays with every live value in a register: it may collect.)
    fn make_room_for_array(&mut self, length: u64) -> Result<(), ExceptionKind> {
        if length > i32::MAX as u64 {
            return Err(ExceptionKind::ArrayLengthOverflow);
        }
        if length > ARRAY_MAX_LENGTH {
            return Err(ExceptionKind::ArrayTooLarge);
        }
        let bytes = usize::try_from(length).unwrap_or(usize::MAX).saturating_mul(16);
        if !self.heap.has_room_for(bytes) && self.heap.has_uncollected_garbage() {
            self.collect_garbage();
        }
        if self.heap.has_room_for(bytes) {
            Ok(())
        } else {
            Err(ExceptionKind::OutOfMemory)
        }
    }

    fn default_items(&mut self, elem: TypeId, n: usize) -> Vec<Value> {
        if self.type_class(elem) == TypeClass::Struct {
            (0..n).map(|_| self.default_value(elem)).collect()
        } else {
            vec![self.default_value(elem); n]
        }
    }

    pub(super) fn new_array_multi(&mut self, ty: TypeId, lens: &[Value]) -> Result<Value, ExceptionKind> {
        let mut dims = Vec::with_capacity(lens.len());
        let mut total: u64 = 1;
        for l in lens {
            let n = l.as_i64().ok_or(ExceptionKind::Overflow)?;
            if n < 0 {
                return Err(ExceptionKind::Overflow);
            }
            let n = u32::try_from(n).ok().filter(|&n| n <= i32::MAX as u32).ok_or(ExceptionKind::ArrayLengthOverflow)?;
            total = total.saturating_mul(u64::from(n));
            dims.push(n);
        }
        if total > ARRAY_MAX_LENGTH {
            return Err(ExceptionKind::ArrayTooLarge);
        }
        self.make_room_for_array(total)?;
        let elem = self.meta.types.array_elem(ty).map_or(TypeId::ERROR, |(e, _)| e);
        let items = self.default_items(elem, total as usize);
        Ok(Value::Ref(self.heap.alloc(Obj::Array(Array { ty, dims: Some(dims.into()), items }))))
    }

    pub(super) fn array_rank(&self, arr: Value) -> u16 {
        match arr.gc_ref().and_then(|r| self.heap.get(r)) {
            Some(Obj::Array(a)) => a.dims.as_ref().map_or(1, |d| d.len() as u16),
            _ => 1,
        }
    }

    /// The flat index of `arr[i0, i1, ...]` (row-major).
    pub(super) fn multi_index(&self, arr: Value, idx: &[Value]) -> Result<usize, ExceptionKind> {
        let Some(Obj::Array(a)) = arr.gc_ref().and_then(|r| self.heap.get(r)) else {
            return Err(ExceptionKind::NullReference);
        };
        let dims = a.dims.as_deref().unwrap_or(&[]);
        let mut flat = 0usize;
        for (d, i) in dims.iter().zip(idx) {
            let i = i.as_i64().ok_or(ExceptionKind::IndexOutOfRange)?;
            if i < 0 || i >= *d as i64 {
                return Err(ExceptionKind::IndexOutOfRange);
            }
            flat = flat * *d as usize + i as usize;
        }
        Ok(flat)
    }

    #[inline]
    pub(super) fn load_elem(&self, arr: Value, index: Value) -> Result<Value, ExceptionKind> {
        let r = arr.gc_ref().ok_or(ExceptionKind::NullReference)?;
        let i = index.as_i64().ok_or(ExceptionKind::IndexOutOfRange)?;
        match self.heap.get(r) {
            Some(Obj::Array(a)) => usize::try_from(i).ok().and_then(|i| a.items.get(i).copied()).ok_or(ExceptionKind::IndexOutOfRange),
            Some(Obj::Str(s)) => usize::try_from(i).ok().and_then(|i| s.get(i).copied()).map(Value::Char).ok_or(ExceptionKind::IndexOutOfRange),
            _ => Err(ExceptionKind::NullReference),
        }
    }

    #[inline]
    pub(super) fn store_elem(&mut self, arr: Value, index: Value, v: Value) -> Result<(), ExceptionKind> {
        let r = arr.gc_ref().ok_or(ExceptionKind::NullReference)?;
        let i = index.as_i64().ok_or(ExceptionKind::IndexOutOfRange)?;
        match self.heap.get_mut(r) {
            Some(Obj::Array(a)) => {
                let slot = usize::try_from(i).ok().and_then(|i| a.items.get_mut(i)).ok_or(ExceptionKind::IndexOutOfRange)?;
                *slot = v;
                Ok(())
            }
            _ => Err(ExceptionKind::NullReference),
        }
    }

    /// [`Vm::store_elem`] into an array whose run-time element type may be narrower than
    /// the static one (array covariance): the value must be an instance of the element
    /// type, as CoreCLR's `StelemRef` checks. Arrays of value types (reached through a
    /// generic `T[]`) hold their own values only, so only reference elements are checked.
    pub(super) fn store_elem_checked(&mut self, arr: Value, index: Value, v: Value) -> Result<(), ExceptionKind> {
        if !self.fits_array(arr, v) {
            return Err(ExceptionKind::ArrayTypeMismatch);
        }
        self.store_elem(arr, index, v)
    }

    /// Whether `v` may be stored in `arr` (`true` for a null array: the store throws).
    fn fits_array(&mut self, arr: Value, v: Value) -> bool {
        let Some(stored) = self.type_of(v) else { return true };
        let Some(Obj::Array(a)) = arr.gc_ref().and_then(|r| self.heap.get(r)) else { return true };
        let Some((elem, _)) = self.meta.types.array_elem(a.ty) else { return true };
        if stored == elem || elem == self.meta.well_known.object {
            return true;
        }
        !matches!(self.type_class(elem), TypeClass::Reference | TypeClass::String) || self.is_instance(v, elem)
    }

    /// Whether the array `arr` has exactly the element type `elem` (`true` for anything
    /// else: a null array throws where it is used).
    pub(super) fn elem_type_is(&self, arr: Value, elem: TypeId) -> bool {
        let Some(Obj::Array(a)) = arr.gc_ref().and_then(|r| self.heap.get(r)) else { return true };
        self.meta.types.array_elem(a.ty).is_none_or(|(e, _)| e == elem)
    }

    pub(super) fn array_length(&self, arr: Value) -> Option<usize> {
        match self.heap.get(arr.gc_ref()?)? {
            Obj::Array(a) => Some(a.items.len()),
            Obj::Str(s) => Some(s.len()),
            _ => None,
        }
    }

    /// The concatenation of the strings in absolute registers `first..first + count`
    /// (`null` counts as empty), built in one exact-size buffer.
    pub(super) fn concat_regs(&mut self, first: usize, count: usize) -> Result<Value, NativeError> {
        let parts = &self.thread.regs[first..first + count];
        if parts.iter().any(|&p| plain_integer(p).is_some()) {
            return self.concat_with_integers(first, count);
        }
        let len: usize = parts.iter().map(|&p| self.str_units(p).map_or(0, <[u16]>::len)).sum();
        self.check_string_fits(len)?;
        let mut out: Vec<u16> = Vec::with_capacity(len);
        for &p in parts {
            if let Some(s) = self.str_units(p) {
                out.extend_from_slice(s);
            }
        }
        Ok(self.alloc_utf16(out))
    }

    /// [`Vm::concat_regs`] when some parts are integers: each integer is written as its
    /// `ToString()` would print it in the current culture.
    fn concat_with_integers(&mut self, first: usize, count: usize) -> Result<Value, NativeError> {
        let plain_minus = self.current_number_format().negative_sign == "-";
        self.build_string(|vm, out| {
            for i in first..first + count {
                let part = vm.thread.regs[i];
                match plain_integer(part) {
                    Some(n) if plain_minus => write_decimal(out, n),
                    Some(_) => {
                        let text = vm.format_value(part, None)?;
                        out.extend_from_slice(vm.str_units(text).unwrap_or_default());
                    }
                    None => out.extend_from_slice(vm.str_units(part).unwrap_or_default()),
                }
            }
            Ok(())
        })
    }

    /// A new string that `write` appends to an empty buffer (the VM's scratch buffer, kept
    /// between uses, so building allocates only the exact-size result).
    fn build_string(&mut self, write: impl FnOnce(&mut Vm, &mut Vec<u16>) -> Result<(), NativeError>) -> Result<Value, NativeError> {
        let mut out = std::mem::take(&mut self.text_scratch);
        out.clear();
        let made = write(self, &mut out).map(|()| self.alloc_utf16_slice(&out));
        self.text_scratch = out;
        made
    }

    /// `value.ToString(format)` for values the VM formats itself.
    pub(super) fn format_value(&mut self, v: Value, format: Option<Value>) -> Result<Value, NativeError> {
        if format.is_none() && self.current_number_format().negative_sign == "-" {
            if let Some(i) = plain_integer(v) {
                return self.build_string(|_, out| {
                    write_decimal(out, i);
                    Ok(())
                });
            }
        }
        let fmt = match format {
            Some(f) => self.string_of(f),
            None => None,
        };
        let text = crate::runtime::intrinsics::format::format_value(self, v, fmt.as_deref())?;
        Ok(self.alloc_str(&text))
    }

    pub(super) fn new_delegate(&mut self, ty: TypeId, method: MethodId, target: Value) -> Value {
        let d = Delegate { ty, method, target, context: None, invocation_list: None };
        Value::Ref(self.heap.alloc(Obj::Delegate(d)))
    }

    /// Stores the generic context `ctx` (a type handle) in the delegate `delegate`.
    pub(super) fn set_delegate_context(&mut self, delegate: Value, ctx: Value) {
        let Value::Type(context) = ctx else { return };
        if let Some(Obj::Delegate(d)) = delegate.gc_ref().and_then(|r| self.heap.get_mut(r)) {
            d.context = Some(context);
        }
    }

    /// Gives the delegate `delegate` its closed run-time type (a type handle in `ty`).
    pub(super) fn set_delegate_type(&mut self, delegate: Value, ty: Value) {
        let Value::Type(closed) = ty else { return };
        if let Some(Obj::Delegate(d)) = delegate.gc_ref().and_then(|r| self.heap.get_mut(r)) {
            d.ty = closed;
        }
    }

    /// The value `v as ty` yields once `v is ty` holds (unboxed for a value type).
    pub(super) fn unbox_for_as(&mut self, v: Value, ty: TypeId) -> Value {
        match self.type_class(ty) {
            TypeClass::Reference | TypeClass::String | TypeClass::Param | TypeClass::Void => v,
            _ => self.cast(v, ty).unwrap_or(v),
        }
    }

    /// `(ty)v`: a checked reference conversion or an unboxing conversion. The error is the
    /// exception to throw.
    pub(super) fn cast(&mut self, v: Value, ty: TypeId) -> Result<Value, Value> {
        let class = self.type_class(ty);
        if v.is_null() {
            return match class {
                TypeClass::Num(_) | TypeClass::Bool | TypeClass::Enum(_) | TypeClass::Struct | TypeClass::Decimal => {
                    Err(self.new_exception(ExceptionKind::NullReference, None))
                }
                _ => Ok(Value::Null),
            };
        }
        let boxed = v;
        let v = self.unboxed_view(v);
        match class {
            TypeClass::Enum(k) | TypeClass::Num(k) => {
                let underlying_ok = match v {
                    Value::Enum(t, i) if t == ty => return Ok(int_of_kind(i, k)),
                    Value::Enum(t, i) => (self.enum_kind(t) == Some(k) && !self.is_enum(ty)).then_some(i),
                    other if self.type_of(other) == Some(ty) => return Ok(other),
                    other if self.is_enum(ty) && self.num_kind_of(other) == Some(k) => other.as_i64(),
                    _ => None,
                };
                match underlying_ok {
                    Some(i) => Ok(int_of_kind(i, k)),
                    None => Err(self.invalid_cast(v, ty)),
                }
            }
            TypeClass::Nullable(inner) => self.cast(v, inner),
            TypeClass::Struct => {
                if self.type_of(v) == Some(ty) {
                    Ok(self.copy_struct(v))
                } else {
                    Err(self.invalid_cast(v, ty))
                }
            }
            TypeClass::Bool | TypeClass::Decimal => {
                if self.type_of(v) == Some(ty) {
                    Ok(v)
                } else {
                    Err(self.invalid_cast(v, ty))
                }
            }
            _ => {
                if self.is_instance(boxed, ty) {
                    Ok(boxed)
                } else {
                    Err(self.invalid_cast(v, ty))
                }
            }
        }
    }

    fn is_enum(&mut self, t: TypeId) -> bool {
        matches!(self.type_class(t), TypeClass::Enum(_))
    }

    fn enum_kind(&mut self, t: TypeId) -> Option<NumKind> {
        match self.type_class(t) {
            TypeClass::Enum(k) => Some(k),
            _ => None,
        }
    }

    fn num_kind_of(&mut self, v: Value) -> Option<NumKind> {
        let t = self.type_of(v)?;
        match self.type_class(t) {
            TypeClass::Num(k) => Some(k),
            _ => None,
        }
    }

    fn invalid_cast(&mut self, v: Value, ty: TypeId) -> Value {
        let from = self.type_of(v).map_or_else(|| "null".to_string(), |t| self.meta.clr_full_name(t));
        let to = self.meta.clr_full_name(ty);
        let msg = format!("Unable to cast object of type '{from}' to type '{to}'.");
        self.new_exception(ExceptionKind::InvalidCast, Some(&msg))
    }

    /// `open` with its type parameters taken from the run-time generic context `ctx`.
    pub(super) fn resolve_type(&mut self, open: TypeId, ctx: Value) -> Value {
        let Value::Type(c) = ctx else { return Value::Type(open) };
        let cached = self.type_states.get(c.0 as usize).and_then(|s| s.resolved.iter().find(|e| e.0 == open));
        if let Some(&(_, t)) = cached {
            return Value::Type(t);
        }
        let t = self.meta.types.subst_ctx(open, c);
        self.type_state(c).resolved.push((open, t));
        Value::Type(t)
    }

    /// The generic context of an instance method of generic type `def` running on `this`
    /// (remembered per receiver type when there are no method type arguments).
    pub(super) fn context_from_this(&mut self, this: Value, def: TypeDefId, method_ctx: Value) -> Value {
        let Some(rt) = self.type_of(this) else { return method_ctx };
        if matches!(method_ctx, Value::Type(_)) {
            return self.compute_context_from_this(rt, def, method_ctx);
        }
        let cached = self.type_states.get(rt.0 as usize).and_then(|s| s.this_contexts.iter().find(|e| e.0 == def));
        if let Some(&(_, c)) = cached {
            return Value::Type(c);
        }
        let v = self.compute_context_from_this(rt, def, method_ctx);
        if let Value::Type(c) = v {
            self.type_state(rt).this_contexts.push((def, c));
        }
        v
    }

    fn compute_context_from_this(&mut self, rt: TypeId, def: TypeDefId, method_ctx: Value) -> Value {
        let supers = self.supertypes_of(rt);
        let class_args: Box<[TypeId]> =
            supers.iter().find(|&&s| self.meta.types.def_of(s) == Some(def)).map(|&s| self.meta.types.args_of(s).into()).unwrap_or_default();
        let method_args: Box<[TypeId]> = match method_ctx {
            Value::Type(c) => self.meta.types.context_args(c).1.into(),
            _ => Box::new([]),
        };
        Value::Type(self.meta.types.intern(TypeKind::Context { type_args: class_args, method_args }))
    }

    /// A context for calling a generic method: class arguments from `class_ctx`, method
    /// arguments from the type handles in `method_args`.
    pub(super) fn make_context(&mut self, class_ctx: Value, method_args: &[Value]) -> Value {
        let type_args: Box<[TypeId]> = match class_ctx {
            Value::Type(c) => self.meta.types.context_args(c).0.into(),
            _ => Box::new([]),
        };
        let method_args: Box<[TypeId]> = method_args.iter().map(|v| if let Value::Type(t) = v { *t } else { TypeId::ERROR }).collect();
        Value::Type(self.meta.types.intern(TypeKind::Context { type_args, method_args }))
    }
}

/// An integer that `ToString()` prints as plain decimal digits in every culture the VM
/// has (the invariant culture's negative sign is `-`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct PlainInteger {
    negative: bool,
    magnitude: u64,
}

fn plain_integer(v: Value) -> Option<PlainInteger> {
    let signed = |x: i64| PlainInteger { negative: x < 0, magnitude: x.unsigned_abs() };
    let unsigned = |x: u64| PlainInteger { negative: false, magnitude: x };
    Some(match v {
        Value::I32(x) => signed(x.into()),
        Value::I64(x) => signed(x),
        Value::U32(x) => unsigned(x.into()),
        Value::U64(x) => unsigned(x),
        Value::I16(x) => signed(x.into()),
        Value::U16(x) => unsigned(x.into()),
        Value::I8(x) => signed(x.into()),
        Value::U8(x) => unsigned(x.into()),
        _ => return None,
    })
}

/// "00" to "99": two digits per division.
const DIGIT_PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/// Appends the decimal digits of `i` as UTF-16 to `out`, with a leading `-` if negative.
fn write_decimal(out: &mut Vec<u16>, i: PlainInteger) {
    let mut digits = [0u16; 20];
    let mut at = digits.len();
    let mut n = i.magnitude;
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        digits[at] = DIGIT_PAIRS[pair].into();
        digits[at + 1] = DIGIT_PAIRS[pair + 1].into();
    }
    if n >= 10 {
        at -= 2;
        digits[at] = DIGIT_PAIRS[n as usize * 2].into();
        digits[at + 1] = DIGIT_PAIRS[n as usize * 2 + 1].into();
    } else {
        at -= 1;
        digits[at] = u16::from(b'0') + n as u16;
    }
    if i.negative {
        out.push(b'-' as u16);
    }
    out.extend_from_slice(&digits[at..]);
}

/// An integer as a value of numeric kind `k` (enum unboxing).
fn int_of_kind(i: i64, k: NumKind) -> Value {
    match k {
        NumKind::I8 => Value::I8(i as i8),
        NumKind::U8 => Value::U8(i as u8),
        NumKind::I16 => Value::I16(i as i16),
        NumKind::U16 => Value::U16(i as u16),
        NumKind::I32 => Value::I32(i as i32),
        NumKind::U32 => Value::U32(i as u32),
        NumKind::I64 => Value::I64(i),
        NumKind::U64 => Value::U64(i as u64),
        NumKind::Char => Value::Char(i as u16),
        NumKind::F32 => Value::F32(i as f32),
        NumKind::F64 => Value::F64(i as f64),
    }
}

impl Vm {
    /// Creates a managed reference to a variable.
    pub(super) fn make_ref(&mut self, target: crate::runtime::object::RefTarget) -> Value {
        Value::Ref(self.heap.alloc(Obj::ByRef(target)))
    }

    /// Reads through a managed reference.
    pub fn read_ref(&mut self, r: Value) -> Option<Value> {
        use crate::runtime::object::RefTarget;
        let target = match self.heap.get(r.gc_ref()?)? {
            Obj::ByRef(t) => *t,
            _ => return None,
        };
        match target {
            RefTarget::Field(o, slot) => self.load_field(Value::Ref(o), slot),
            RefTarget::Elem(a, i) => self.load_elem(Value::Ref(a), Value::I32(i as i32)).ok(),
            RefTarget::Static(t, slot) => self.statics_mut(t).get(slot as usize).copied(),
        }
    }

    /// Writes through a managed reference.
    pub fn write_ref(&mut self, r: Value, v: Value) -> bool {
        use crate::runtime::object::RefTarget;
        let Some(target) = r.gc_ref().and_then(|g| match self.heap.get(g) {
            Some(Obj::ByRef(t)) => Some(*t),
            _ => None,
        }) else {
            return false;
        };
        match target {
            RefTarget::Field(o, slot) => self.store_field(Value::Ref(o), slot, v),
            RefTarget::Elem(a, i) => self.store_elem(Value::Ref(a), Value::I32(i as i32), v).is_ok(),
            RefTarget::Static(t, slot) => match self.statics_mut(t).get_mut(slot as usize) {
                Some(s) => {
                    *s = v;
                    true
                }
                None => false,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{plain_integer, write_decimal};
    use crate::runtime::value::Value;

    fn text(v: Value) -> String {
        let mut out = Vec::new();
        write_decimal(&mut out, plain_integer(v).expect("an integer"));
        String::from_utf16_lossy(&out)
    }

    #[test]
    fn write_decimal_prints_every_integer_range() {
        assert_eq!(text(Value::I32(0)), "0");
        assert_eq!(text(Value::I32(7)), "7");
        assert_eq!(text(Value::I32(10)), "10");
        assert_eq!(text(Value::I32(99)), "99");
        assert_eq!(text(Value::I32(100)), "100");
        assert_eq!(text(Value::I32(-1005)), "-1005");
        assert_eq!(text(Value::I32(-1)), "-1");
        assert_eq!(text(Value::I32(1_000_000)), "1000000");
        assert_eq!(text(Value::I32(i32::MIN)), "-2147483648");
        assert_eq!(text(Value::I64(i64::MIN)), "-9223372036854775808");
        assert_eq!(text(Value::I64(i64::MAX)), "9223372036854775807");
        assert_eq!(text(Value::U64(u64::MAX)), "18446744073709551615");
        assert_eq!(text(Value::I8(-128)), "-128");
        assert_eq!(text(Value::U16(65535)), "65535");
    }

    #[test]
    fn only_integers_are_plain() {
        assert_eq!(plain_integer(Value::F64(1.0)), None);
        assert_eq!(plain_integer(Value::Char(65)), None);
    }
}
