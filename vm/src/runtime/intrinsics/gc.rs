//! `System.GC`: collections on request, their count, and what the program allocated and
//! keeps alive, in the modeled .NET bytes of `--stats` (see `stats` and `clr_size`).

use super::support::{arg, nre};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::stats::DELEGATE;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "GC.RequestCollection", func: request_collection },
    NativeEntry { name: "GC.CollectionCount", func: collection_count },
    NativeEntry { name: "GC.AllocatedBytes", func: allocated_bytes },
    NativeEntry { name: "GC.LiveBytes", func: live_bytes },
];

/// The weak-reference intrinsics: they keep boxes as they are, a boxed target being an
/// object like any other.
pub const WEAK_ENTRIES: &[NativeEntry] =
    &[NativeEntry { name: "GC.WeakTarget", func: weak_target }, NativeEntry { name: "GC.SetWeakTarget", func: set_weak_target }];

/// `GC.WeakTarget(WeakReference owner)`: the target, or null once collected.
fn weak_target(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let owner = arg(args, 0).gc_ref().ok_or_else(nre)?;
    Ok(vm.heap.weak_target(owner))
}

/// `GC.SetWeakTarget(WeakReference owner, object target)`.
fn set_weak_target(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let owner = arg(args, 0).gc_ref().ok_or_else(nre)?;
    vm.heap.set_weak_target(owner, arg(args, 1));
    Ok(Value::Null)
}

/// Bytes of a string before its characters (header, length, terminating NUL).
const STRING_OVERHEAD: u32 = 22;
/// Bytes of a boxed primitive or enum (header and an 8-byte payload slot).
const SMALL_BOX: u32 = 24;

/// `GC.Collect`: the interpreter collects at the safepoint that follows this call's
/// return (it checks after every intrinsic), so the collection has happened when the
/// next statement runs.
fn request_collection(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.heap.request_collection();
    Ok(Value::Null)
}

/// Every VM collection is a full one, so it counts for every generation, as a .NET
/// gen-2 collection does.
fn collection_count(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I32(vm.heap.collections.min(i32::MAX as u64) as i32))
}

/// The modeled bytes allocated so far. Counting starts at the first call (or at startup
/// under `--stats`), so differences between two calls are exact while the first value
/// leaves out what ran before it.
fn allocated_bytes(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.stats.set_enabled(true);
    Ok(Value::I64(vm.stats.total_bytes().min(i64::MAX as u64) as i64))
}

/// The modeled size of every object on the heap (after a requested collection, only the
/// reachable ones), library objects .NET would not allocate counting nothing.
fn live_bytes(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let shapes: Vec<Shape> = vm.heap.objects().map(shape_of).collect();
    let total: u64 = shapes.into_iter().map(|s| u64::from(vm.modeled_size(s))).sum();
    Ok(Value::I64(total.min(i64::MAX as u64) as i64))
}

/// What decides an object's modeled size, read off the heap before sizing needs `&mut Vm`.
enum Shape {
    Instance(crate::metadata::TypeId),
    Array(crate::metadata::TypeId, usize),
    Str(usize),
    Fixed(u32),
}

fn shape_of(obj: &Obj) -> Shape {
    match obj {
        Obj::Instance(i) => Shape::Instance(i.ty),
        Obj::Array(a) => Shape::Array(a.ty, a.items.len()),
        Obj::Str(s) => Shape::Str(s.len()),
        Obj::Delegate(_) => Shape::Fixed(DELEGATE),
        Obj::Boxed(_) => Shape::Fixed(SMALL_BOX),
        _ => Shape::Fixed(0),
    }
}

impl Vm {
    fn modeled_size(&mut self, shape: Shape) -> u32 {
        match shape {
            Shape::Instance(t) if self.meta.is_value_type(t) => 0,
            Shape::Instance(t) => self.modeled_instance_size(t).unwrap_or(0),
            Shape::Array(t, len) => self.modeled_array_size(t, len).unwrap_or(0),
            Shape::Str(len) => crate::runtime::clr_size::round8(STRING_OVERHEAD.saturating_add(2 * len.min(u32::MAX as usize / 4) as u32)),
            Shape::Fixed(n) => n,
        }
    }
}
