//! `System.Object`, `ValueType`, `Type`, `Delegate`, `Nullable<T>` and `Exception`
//! intrinsics: identity, default equality and hashing, type names.

use super::support::{arg, fatal, nre};
use crate::metadata::{TypeId, TypeKind};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::object::{Delegate, Instance, Obj};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Object.ToString", func: object_to_string },
    NativeEntry { name: "Object.Equals", func: object_equals },
    NativeEntry { name: "Object.GetHashCode", func: object_hash },
    NativeEntry { name: "Object.GetType", func: object_get_type },
    NativeEntry { name: "Object.MemberwiseClone", func: memberwise_clone },
    NativeEntry { name: "Object.ReferenceEquals", func: reference_equals },
    NativeEntry { name: "ValueType.Equals", func: value_type_equals },
    NativeEntry { name: "ValueType.GetHashCode", func: value_type_hash },
    NativeEntry { name: "ValueType.ToString", func: object_to_string },
    NativeEntry { name: "Type.FromHandle", func: type_from_handle },
    NativeEntry { name: "Type.get_Name", func: type_name },
    NativeEntry { name: "Type.get_FullName", func: type_full_name },
    NativeEntry { name: "Type.ToString", func: type_to_string },
    NativeEntry { name: "Type.get_Namespace", func: type_namespace },
    NativeEntry { name: "Type.get_IsValueType", func: type_is_value_type },
    NativeEntry { name: "Type.get_IsClass", func: type_is_class },
    NativeEntry { name: "Type.get_IsInterface", func: type_is_interface },
    NativeEntry { name: "Type.get_IsEnum", func: type_is_enum },
    NativeEntry { name: "Type.get_IsArray", func: type_is_array },
    NativeEntry { name: "Type.get_IsGenericType", func: type_is_generic },
    NativeEntry { name: "Type.get_BaseType", func: type_base },
    NativeEntry { name: "Type.GetGenericArguments", func: type_generic_args },
    NativeEntry { name: "Type.GetElementType", func: type_element },
    NativeEntry { name: "Type.IsAssignableFrom", func: type_is_assignable_from },
    NativeEntry { name: "Type.IsInstanceOfType", func: type_is_instance_of },
    NativeEntry { name: "Delegate.Combine", func: delegate_combine },
    NativeEntry { name: "Delegate.Remove", func: delegate_remove },
    NativeEntry { name: "Delegate.Equals", func: delegate_equals },
    NativeEntry { name: "Delegate.GetHashCode", func: object_hash },
    NativeEntry { name: "Delegate.GetInvocationList", func: delegate_invocation_list },
    NativeEntry { name: "Nullable.HasValue", func: nullable_has_value },
    NativeEntry { name: "Nullable.Value", func: nullable_value },
    NativeEntry { name: "Exception.FormatStackTrace", func: format_stack_trace },
];

/// `GetType().ToString()`: the run-time type's full name.
fn object_to_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let this = arg(args, 0);
    let ty = vm.type_of(this).ok_or_else(nre)?;
    let name = vm.meta.clr_full_name(ty);
    Ok(vm.alloc_str(&name))
}

/// Reference equality for classes; value equality for boxed primitives.
fn object_equals(vm: &mut Vm, args: &[Value]) -> NativeResult {
    Ok(Value::Bool(vm.values_equal(arg(args, 0), arg(args, 1))))
}

fn object_hash(vm: &mut Vm, args: &[Value]) -> NativeResult {
    Ok(Value::I32(vm.value_hash(arg(args, 0))))
}

fn object_get_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = vm.type_of(arg(args, 0)).ok_or_else(nre)?;
    Ok(vm.type_object(ty))
}

/// A shallow copy (structs stay structs, classes stay classes).
fn memberwise_clone(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let this = arg(args, 0);
    let r = this.gc_ref().ok_or_else(nre)?;
    let copy = match vm.heap.get(r) {
        Some(Obj::Instance(i)) => Obj::Instance(Instance { ty: i.ty, fields: i.fields.clone() }),
        Some(Obj::Str(s)) => Obj::Str(s.clone()),
        _ => return Ok(this),
    };
    let nr = vm.heap.alloc(copy);
    Ok(match this {
        Value::Struct(_) => Value::Struct(nr),
        _ => Value::Ref(nr),
    })
}

fn reference_equals(_: &mut Vm, args: &[Value]) -> NativeResult {
    let (a, b) = (arg(args, 0), arg(args, 1));
    Ok(Value::Bool(match (a.gc_ref(), b.gc_ref()) {
        (Some(x), Some(y)) => x == y,
        _ => a.is_null() && b.is_null(),
    }))
}

/// `ValueType.Equals`: same type and every field equal.
fn value_type_equals(vm: &mut Vm, args: &[Value]) -> NativeResult {
    Ok(Value::Bool(vm.values_equal(arg(args, 0), arg(args, 1))))
}

fn value_type_hash(vm: &mut Vm, args: &[Value]) -> NativeResult {
    Ok(Value::I32(vm.value_hash(arg(args, 0))))
}

impl Vm {
    /// Equality the VM computes itself: values of primitive types by value (boxed or not),
    /// strings by content, structs field by field, decimals numerically, everything else by
    /// identity.
    pub fn values_equal(&self, a: Value, b: Value) -> bool {
        if let (Value::I32(x), Value::I32(y)) = (a, b) {
            return x == y;
        }
        let (a, b) = (self.unboxed_view(a), self.unboxed_view(b));
        match (a, b) {
            (Value::F64(x), Value::F64(y)) => x == y || (x.is_nan() && y.is_nan()),
            (Value::F32(x), Value::F32(y)) => x == y || (x.is_nan() && y.is_nan()),
            (Value::Null, Value::Null) => true,
            (Value::Ref(x), Value::Ref(y)) | (Value::Struct(x), Value::Struct(y)) => {
                if x == y {
                    return true;
                }
                match (self.heap.get(x), self.heap.get(y)) {
                    (Some(Obj::Str(p)), Some(Obj::Str(q))) => p == q,
                    (Some(Obj::Decimal(p)), Some(Obj::Decimal(q))) => p == q,
                    (Some(Obj::Instance(p)), Some(Obj::Instance(q))) if matches!(a, Value::Struct(_)) => {
                        p.ty == q.ty && p.fields.iter().zip(q.fields.iter()).all(|(&f, &g)| self.values_equal(f, g))
                    }
                    _ => false,
                }
            }
            (x, y) => crate::value::arith::equal(x, y),
        }
    }

    /// A hash consistent with [`Vm::values_equal`] (deterministic: no per-process seed).
    pub fn value_hash(&self, v: Value) -> i32 {
        let v = self.unboxed_view(v);
        match v {
            Value::Null => 0,
            Value::Bool(b) => b as i32,
            Value::F64(x) => {
                let x = if x == 0.0 {
                    0.0
                } else if x.is_nan() {
                    f64::NAN
                } else {
                    x
                };
                let bits = x.to_bits();
                (bits as i32) ^ ((bits >> 32) as i32)
            }
            Value::F32(x) => {
                let x = if x == 0.0 { 0.0 } else { x };
                x.to_bits() as i32
            }
            Value::Ref(r) | Value::Struct(r) => match self.heap.get(r) {
                Some(Obj::Str(s)) => string_hash(s),
                Some(Obj::Decimal(d)) => d.hash_code(),
                Some(Obj::Instance(i)) if matches!(v, Value::Struct(_)) => {
                    i.fields.iter().fold(17i32, |h, &f| h.wrapping_mul(31).wrapping_add(self.value_hash(f)))
                }
                _ => (r.0 as i32).wrapping_mul(0x9E37_79B1_u32 as i32),
            },
            Value::Type(t) => t.0 as i32,
            Value::I32(i) => i,
            other => {
                let i = other.as_i64().unwrap_or(0);
                (i as i32) ^ ((i >> 32) as i32)
            }
        }
    }
}

/// FNV-1a over the UTF-16 units.
pub fn string_hash(s: &[u16]) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for &u in s {
        h ^= u as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h as i32
}

// ---- System.Type --------------------------------------------------------------------------

/// The type a `System.Type` object stands for.
pub(super) fn type_handle_arg(vm: &Vm, v: Value) -> Option<TypeId> {
    match vm.heap.get(v.gc_ref()?)? {
        Obj::Type(t) => Some(*t),
        _ => None,
    }
}

fn this_type(vm: &Vm, args: &[Value]) -> Result<TypeId, crate::runtime::native::NativeError> {
    type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)
}

fn type_from_handle(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match arg(args, 0) {
        Value::Type(t) => Ok(vm.type_object(t)),
        _ => Err(fatal("typeof without a type handle")),
    }
}

fn type_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let s = vm.meta.clr_name(t);
    Ok(vm.alloc_str(&s))
}

/// `Type.FullName`: generic arguments assembly-qualified.
fn type_full_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let s = vm.meta.clr_reflection_full_name(t, &program_assembly_name(vm));
    Ok(vm.alloc_str(&s))
}

/// `Type.ToString()`: generic arguments by full name only.
fn type_to_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let s = vm.meta.clr_full_name(t);
    Ok(vm.alloc_str(&s))
}

/// The user's assembly is named after the program file, as `csc prog.cs` names it `prog`.
fn program_assembly_name(vm: &Vm) -> String {
    let path = std::path::Path::new(&vm.options.program_name);
    path.file_stem().map_or_else(|| "program".to_string(), |s| s.to_string_lossy().into_owned())
}

/// `Type.Namespace`: the outermost declaring type's (an array's is its element type's).
fn type_namespace(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let mut t = this_type(vm, args)?;
    while let Some((elem, _)) = vm.meta.types.array_elem(t) {
        t = elem;
    }
    let ns = match vm.meta.types.kind(t) {
        TypeKind::Named { def, .. } => {
            let mut d = *def;
            while let Some(o) = vm.meta.type_def(d).declaring_type {
                d = o;
            }
            vm.meta.type_def(d).namespace.clone()
        }
        _ => String::new(),
    };
    Ok(vm.alloc_str(&ns))
}

fn type_is_value_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(vm.meta.is_value_type(t)))
}

fn type_kind_is(vm: &mut Vm, args: &[Value], kind: crate::metadata::TypeDefKind) -> NativeResult {
    let t = this_type(vm, args)?;
    let k = vm.meta.types.def_of(t).map(|d| vm.meta.type_def(d).kind);
    Ok(Value::Bool(k == Some(kind)))
}

fn type_is_class(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let is_array = matches!(vm.meta.types.kind(t), TypeKind::Array { .. });
    let k = vm.meta.types.def_of(t).map(|d| vm.meta.type_def(d).kind);
    Ok(Value::Bool(is_array || matches!(k, Some(crate::metadata::TypeDefKind::Class | crate::metadata::TypeDefKind::Delegate))))
}

fn type_is_interface(vm: &mut Vm, args: &[Value]) -> NativeResult {
    type_kind_is(vm, args, crate::metadata::TypeDefKind::Interface)
}

fn type_is_enum(vm: &mut Vm, args: &[Value]) -> NativeResult {
    type_kind_is(vm, args, crate::metadata::TypeDefKind::Enum)
}

fn type_is_array(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(matches!(vm.meta.types.kind(t), TypeKind::Array { .. })))
}

fn type_is_generic(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(!vm.meta.types.args_of(t).is_empty()))
}

fn type_base(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(match vm.meta.base_type(t) {
        Some(b) => vm.type_object(b),
        None => Value::Null,
    })
}

fn type_generic_args(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let targs: Vec<TypeId> = vm.meta.types.args_of(t).to_vec();
    let items: Vec<Value> = targs.into_iter().map(|a| vm.type_object(a)).collect();
    let arr = vm.meta.types.array(vm.meta.well_known.type_, 1);
    Ok(vm.new_array_of(arr, items))
}

fn type_element(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(match vm.meta.types.array_elem(t) {
        Some((e, _)) => vm.type_object(e),
        None => Value::Null,
    })
}

fn type_is_assignable_from(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let Some(c) = type_handle_arg(vm, arg(args, 1)) else { return Ok(Value::Bool(false)) };
    Ok(Value::Bool(vm.meta.is_subtype(c, t)))
}

fn type_is_instance_of(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(vm.is_instance(arg(args, 1), t)))
}

// ---- delegates ----------------------------------------------------------------------------

/// The single-cast delegates of a delegate value.
fn invocation_list(vm: &Vm, v: Value) -> Vec<crate::runtime::heap::GcRef> {
    let Some(r) = v.gc_ref() else { return Vec::new() };
    match vm.heap.get(r) {
        Some(Obj::Delegate(d)) => match &d.invocation_list {
            Some(list) => list.to_vec(),
            None => vec![r],
        },
        _ => Vec::new(),
    }
}

fn make_combined(vm: &mut Vm, template: Value, list: Vec<crate::runtime::heap::GcRef>) -> Value {
    match list.len() {
        0 => Value::Null,
        1 => Value::Ref(list[0]),
        _ => {
            let (ty, method) = match template.gc_ref().and_then(|r| vm.heap.get(r)) {
                Some(Obj::Delegate(d)) => (d.ty, d.method),
                _ => return Value::Null,
            };
            let last = list.last().copied();
            let method = last
                .and_then(|l| match vm.heap.get(l) {
                    Some(Obj::Delegate(d)) => Some(d.method),
                    _ => None,
                })
                .unwrap_or(method);
            let d = Delegate { ty, method, target: Value::Null, context: None, invocation_list: Some(list.into()) };
            Value::Ref(vm.heap.alloc(Obj::Delegate(d)))
        }
    }
}

fn delegate_combine(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (a, b) = (arg(args, 0), arg(args, 1));
    if a.is_null() {
        return Ok(b);
    }
    if b.is_null() {
        return Ok(a);
    }
    let mut list = invocation_list(vm, a);
    list.extend(invocation_list(vm, b));
    Ok(make_combined(vm, a, list))
}

fn same_target(vm: &Vm, x: crate::runtime::heap::GcRef, y: crate::runtime::heap::GcRef) -> bool {
    match (vm.heap.get(x), vm.heap.get(y)) {
        (Some(Obj::Delegate(p)), Some(Obj::Delegate(q))) => p.method == q.method && p.context == q.context && vm.values_equal(p.target, q.target),
        _ => false,
    }
}

/// Removes the last occurrence of `value`'s invocation list from `source`'s.
fn delegate_remove(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (a, b) = (arg(args, 0), arg(args, 1));
    if a.is_null() || b.is_null() {
        return Ok(a);
    }
    let list = invocation_list(vm, a);
    let sub = invocation_list(vm, b);
    if sub.is_empty() || sub.len() > list.len() {
        return Ok(a);
    }
    for start in (0..=list.len() - sub.len()).rev() {
        if (0..sub.len()).all(|k| same_target(vm, list[start + k], sub[k])) {
            let mut rest = list.clone();
            rest.drain(start..start + sub.len());
            return Ok(make_combined(vm, a, rest));
        }
    }
    Ok(a)
}

fn delegate_equals(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (a, b) = (invocation_list(vm, arg(args, 0)), invocation_list(vm, arg(args, 1)));
    Ok(Value::Bool(!a.is_empty() && a.len() == b.len() && a.iter().zip(&b).all(|(&x, &y)| same_target(vm, x, y))))
}

fn delegate_invocation_list(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let this = arg(args, 0);
    let ty = vm.type_of(this).ok_or_else(nre)?;
    let items: Vec<Value> = invocation_list(vm, this).into_iter().map(Value::Ref).collect();
    let arr = vm.meta.types.array(vm.meta.well_known.delegate, 1);
    let _ = ty;
    Ok(vm.new_array_of(arr, items))
}

// ---- Nullable<T>, Exception -----------------------------------------------------------------

fn nullable_has_value(_: &mut Vm, args: &[Value]) -> NativeResult {
    Ok(Value::Bool(!arg(args, 0).is_null()))
}

fn nullable_value(_: &mut Vm, args: &[Value]) -> NativeResult {
    Ok(arg(args, 0))
}

fn format_stack_trace(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let trace = arg(args, 0);
    let frames = match trace.gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Native(n)) => match n.as_ref() {
            crate::runtime::native::NativeData::StackTrace(f) => f.clone(),
            _ => return Ok(Value::Null),
        },
        _ => return Ok(Value::Null),
    };
    let text = vm.format_trace_frames(&frames);
    Ok(vm.alloc_str(&text))
}
