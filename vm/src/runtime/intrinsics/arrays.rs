//! `System.Array` intrinsics: length and rank, untyped element access, copying, clearing.

use super::support::{arg, int_arg, nre, out_of_range, throw};
use crate::runtime::native::{ExceptionKind, NativeEntry, NativeError, NativeResult};
use crate::runtime::object::{Array, Obj};
use crate::runtime::types::TypeClass;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Array.get_Length", func: length },
    NativeEntry { name: "Array.get_Rank", func: rank },
    NativeEntry { name: "Array.GetLength", func: get_length },
    NativeEntry { name: "Array.GetValue", func: get_value },
    NativeEntry { name: "Array.SetValue", func: set_value },
    NativeEntry { name: "Array.Clone", func: clone },
    NativeEntry { name: "Array.Copy", func: copy },
    NativeEntry { name: "Array.Clear", func: clear },
];

type R = NativeResult;

fn with_array<T>(vm: &Vm, v: Value, f: impl FnOnce(&Array) -> T) -> Result<T, NativeError> {
    match v.gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Array(a)) => Ok(f(a)),
        _ => Err(nre()),
    }
}

fn length(vm: &mut Vm, args: &[Value]) -> R {
    with_array(vm, arg(args, 0), |a| Value::I32(a.items.len() as i32))
}

fn rank(vm: &mut Vm, args: &[Value]) -> R {
    with_array(vm, arg(args, 0), |a| Value::I32(a.dims.as_ref().map_or(1, |d| d.len()) as i32))
}

fn get_length(vm: &mut Vm, args: &[Value]) -> R {
    let dim = int_arg(args, 1);
    let len = with_array(vm, arg(args, 0), |a| match &a.dims {
        Some(d) => d.get(dim as usize).map(|&x| x as i32),
        None if dim == 0 => Some(a.items.len() as i32),
        None => None,
    })?;
    len.map(Value::I32).ok_or_else(|| throw(ExceptionKind::IndexOutOfRange, "Index was outside the bounds of the array."))
}

fn get_value(vm: &mut Vm, args: &[Value]) -> R {
    let i = int_arg(args, 1);
    let (v, elem) = with_array(vm, arg(args, 0), |a| (usize::try_from(i).ok().and_then(|i| a.items.get(i).copied()), a.ty))?;
    let v = v.ok_or_else(|| throw(ExceptionKind::IndexOutOfRange, "Index was outside the bounds of the array."))?;
    let elem_ty = vm.meta.types.array_elem(elem).map(|(e, _)| e);
    Ok(match elem_ty {
        Some(t) => vm.box_value(v, t),
        None => v,
    })
}

fn set_value(vm: &mut Vm, args: &[Value]) -> R {
    let (arr, value, i) = (arg(args, 0), arg(args, 1), int_arg(args, 2));
    let elem_ty = with_array(vm, arr, |a| a.ty)?;
    let elem = vm.meta.types.array_elem(elem_ty).map(|(e, _)| e);
    let in_range = with_array(vm, arr, |a| usize::try_from(i).is_ok_and(|i| i < a.items.len()))?;
    if let Some(t) = elem.filter(|_| in_range) {
        let reference = matches!(vm.type_class(t), TypeClass::Reference | TypeClass::String);
        if reference && !value.is_null() && !vm.is_instance(value, t) {
            return Err(throw(ExceptionKind::InvalidCast, "Object cannot be stored in an array of this type."));
        }
    }
    let stored = match elem {
        Some(t) if !value.is_null() && vm.meta.is_value_type(t) => match value {
            Value::Enum(_, x) => crate::value::arith::convert(
                Value::I64(x),
                match vm.type_class(t) {
                    crate::runtime::types::TypeClass::Enum(k) => k,
                    _ => crate::bytecode::NumKind::I32,
                },
                false,
            )
            .unwrap_or(value),
            _ => vm.copy_struct(value),
        },
        _ => value,
    };
    match arr.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Array(a)) => match usize::try_from(i).ok().and_then(|i| a.items.get_mut(i)) {
            Some(slot) => {
                *slot = stored;
                Ok(Value::Null)
            }
            None => Err(throw(ExceptionKind::IndexOutOfRange, "Index was outside the bounds of the array.")),
        },
        _ => Err(nre()),
    }
}

fn clone(vm: &mut Vm, args: &[Value]) -> R {
    let mut copy = with_array(vm, arg(args, 0), |a| Array { ty: a.ty, dims: a.dims.clone(), items: a.items.clone() })?;
    copy_struct_elements(vm, &mut copy.items);
    Ok(Value::Ref(vm.heap.alloc(Obj::Array(copy))))
}

/// Struct elements are values: a copied array gets copies of them.
fn copy_struct_elements(vm: &mut Vm, items: &mut [Value]) {
    for item in items.iter_mut() {
        *item = vm.copy_struct(*item);
    }
}

/// `Array.Copy(src, srcIndex, dst, dstIndex, length)` (overlapping copies work, as in .NET).
fn copy(vm: &mut Vm, args: &[Value]) -> R {
    let (src, si, dst, di, n) = (arg(args, 0), int_arg(args, 1), arg(args, 2), int_arg(args, 3), int_arg(args, 4));
    if src.is_null() {
        return Err(super::support::null_arg("sourceArray"));
    }
    if dst.is_null() {
        return Err(super::support::null_arg("destinationArray"));
    }
    if n < 0 {
        return Err(out_of_range("length", "Non-negative number required."));
    }
    if si < 0 {
        return Err(out_of_range("sourceIndex", "Number was less than the array's lower bound in the first dimension."));
    }
    if di < 0 {
        return Err(out_of_range("destinationIndex", "Number was less than the array's lower bound in the first dimension."));
    }
    let mut items: Vec<Value> = with_array(vm, src, |a| {
        let (s, e) = (si as usize, si as usize + n as usize);
        (e <= a.items.len()).then(|| a.items[s..e].to_vec())
    })?
    .ok_or_else(|| {
        throw(ExceptionKind::Argument, "Source array was not long enough. Check the source index, length, and the array's lower bounds.|sourceArray")
    })?;
    copy_struct_elements(vm, &mut items);
    let (s, e) = (di as usize, di as usize + n as usize);
    if e > with_array(vm, dst, |a| a.items.len())? {
        return Err(throw(
            ExceptionKind::Argument,
            "Destination array was not long enough. Check the destination index, length, and the array's lower bounds.|destinationArray",
        ));
    }
    let fitting = elements_fitting(vm, src, dst, &items)?;
    match dst.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Array(a)) => {
            a.items[s..s + fitting].copy_from_slice(&items[..fitting]);
            if fitting < items.len() {
                return Err(throw(
                    ExceptionKind::InvalidCast,
                    "At least one element in the source array could not be cast down to the destination array type.",
                ));
            }
            Ok(Value::Null)
        }
        _ => Err(nre()),
    }
}

/// How many of `items` (copied from `src`) `Array.Copy` stores in `dst` before one is not
/// an instance of `dst`'s reference element type (it copies element by element). A
/// value-type source that does not box to that type is `ArrayTypeMismatchException`.
fn elements_fitting(vm: &mut Vm, src: Value, dst: Value, items: &[Value]) -> Result<usize, NativeError> {
    let elem_of = |vm: &Vm, v: Value| with_array(vm, v, |a| vm.meta.types.array_elem(a.ty).map(|(e, _)| e));
    let (Some(from), Some(to)) = (elem_of(vm, src)?, elem_of(vm, dst)?) else { return Ok(items.len()) };
    if from == to || to == vm.meta.well_known.object || !matches!(vm.type_class(to), TypeClass::Reference | TypeClass::String) {
        return Ok(items.len());
    }
    if vm.meta.is_value_type(from) && !vm.meta.is_subtype(from, to) {
        return Err(throw(ExceptionKind::ArrayTypeMismatch, "Source array type cannot be assigned to destination array type."));
    }
    Ok(items.iter().position(|&v| !v.is_null() && !vm.is_instance(v, to)).unwrap_or(items.len()))
}

fn clear(vm: &mut Vm, args: &[Value]) -> R {
    let (arr, i, n) = (arg(args, 0), int_arg(args, 1), int_arg(args, 2));
    let ty = with_array(vm, arr, |a| a.ty)?;
    let elem = vm.meta.types.array_elem(ty).map_or(crate::metadata::TypeId::ERROR, |(e, _)| e);
    let zeros: Vec<Value> = (0..n.max(0)).map(|_| vm.default_value(elem)).collect();
    match arr.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Array(a)) => {
            let (s, e) = (i.max(0) as usize, i.max(0) as usize + zeros.len());
            if e > a.items.len() {
                return Err(throw(ExceptionKind::IndexOutOfRange, "Index was outside the bounds of the array."));
            }
            a.items[s..e].copy_from_slice(&zeros);
            Ok(Value::Null)
        }
        _ => Err(nre()),
    }
}
