//! The garbage-collected heap: a slot arena of [`Obj`]s addressed by [`GcRef`], collected by
//! a precise, non-moving mark-and-sweep.
//!
//! Collection never happens inside an allocation: allocation only counts, and the
//! interpreter calls [`Heap::collect`] at safepoints, when every live value is in a register,
//! a static, or another root the runtime hands in. Native code may therefore allocate
//! freely while holding unrooted references.

use std::collections::HashMap;

use super::object::Obj;
pub use crate::value::GcRef;
use crate::value::Value;

/// Objects allocated since the last collection before the first one is considered.
const MIN_COLLECTION_INTERVAL: usize = 100_000;

/// Bytes allocated since the last collection that make the next safepoint collect, however
/// few the objects (a loop allocating large arrays); or the live bytes, if more.
const MIN_COLLECTION_BYTES: usize = 256 << 20;

/// The bytes an object is counted as against the heap limit: a fixed model (a header, 16
/// bytes per value, 2 per UTF-16 unit), the same on every platform, so that when a
/// program runs out of memory does not depend on the host's pointer size.
pub fn footprint(obj: &Obj) -> usize {
    const HEADER: usize = 24;
    const VALUE: usize = 16;
    HEADER
        + match obj {
            Obj::Str(units) => units.len() * 2,
            Obj::Array(a) => a.items.len() * VALUE,
            Obj::Instance(i) => i.fields.len() * VALUE,
            Obj::Continuation(c) => c.regs.len() * VALUE,
            _ => VALUE,
        }
}

pub struct Heap {
    slots: Vec<Option<Obj>>,
    marks: Vec<u64>,
    free: Vec<u32>,
    allocated_since_gc: usize,
    next_collection: usize,
    /// Bytes ([`footprint`]) allocated since the last collection.
    bytes_since_gc: usize,
    /// Bytes the last collection left live.
    live_bytes: usize,
    /// The most bytes the heap may hold (`--max-heap`): beyond it allocation throws
    /// `OutOfMemoryException`.
    pub limit: usize,
    worklist: Vec<GcRef>,
    /// Weak references: each `WeakReference` object's target, which a collection clears
    /// when nothing else reaches it (and drops with the `WeakReference` itself).
    weak_targets: HashMap<GcRef, Value>,
    pub collections: u64,
}

impl Default for Heap {
    fn default() -> Heap {
        Heap::new()
    }
}

/// The heap limit without `--max-heap`: half of the machine's memory (where it cannot be
/// read, 2 GiB).
pub fn default_limit() -> usize {
    const FALLBACK: usize = 2 << 30;
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib.saturating_mul(1024))
    });
    total.map_or(FALLBACK, |bytes| bytes / 2)
}

impl Heap {
    /// A heap that holds at most `limit` bytes (see [`footprint`]).
    pub fn with_limit(limit: usize) -> Heap {
        Heap { limit, ..Heap::new() }
    }

    pub fn new() -> Heap {
        Heap {
            slots: Vec::new(),
            marks: Vec::new(),
            free: Vec::new(),
            allocated_since_gc: 0,
            next_collection: MIN_COLLECTION_INTERVAL,
            bytes_since_gc: 0,
            live_bytes: 0,
            limit: usize::MAX,
            worklist: Vec::new(),
            weak_targets: HashMap::new(),
            collections: 0,
        }
    }

    pub fn alloc(&mut self, obj: Obj) -> GcRef {
        self.allocated_since_gc += 1;
        self.bytes_since_gc += footprint(&obj);
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = Some(obj);
                GcRef(i)
            }
            None => {
                self.slots.push(Some(obj));
                GcRef(self.slots.len() as u32 - 1)
            }
        }
    }

    /// The object behind a handle. Handles come only from `alloc` and stay valid while
    /// reachable, so a dangling handle is a VM bug, reported as `None`.
    #[inline]
    pub fn get(&self, r: GcRef) -> Option<&Obj> {
        self.slots.get(r.0 as usize).and_then(Option::as_ref)
    }

    #[inline]
    pub fn get_mut(&mut self, r: GcRef) -> Option<&mut Obj> {
        self.slots.get_mut(r.0 as usize).and_then(Option::as_mut)
    }

    /// Whether enough has been allocated since the last collection to collect now.
    #[inline]
    pub fn wants_collection(&self) -> bool {
        self.allocated_since_gc >= self.next_collection || self.bytes_since_gc >= self.live_bytes.max(MIN_COLLECTION_BYTES)
    }

    /// Whether `bytes` more fit under the limit, counting everything allocated since the
    /// last collection as live.
    pub fn has_room_for(&self, bytes: usize) -> bool {
        self.live_bytes.saturating_add(self.bytes_since_gc).saturating_add(bytes) <= self.limit
    }

    /// Whether a collection now could free anything counted against the limit.
    pub fn has_uncollected_garbage(&self) -> bool {
        self.bytes_since_gc > 0
    }

    /// Makes the next safepoint collect (`GC.Collect`). The interpreter reaches one as
    /// soon as the intrinsic that asks returns.
    pub fn request_collection(&mut self) {
        self.next_collection = 0;
    }

    /// Every object currently allocated (reachable or not yet collected).
    pub fn objects(&self) -> impl Iterator<Item = &Obj> {
        self.slots.iter().flatten()
    }

    pub fn live_objects(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Starts a collection: clears all marks. Then call [`Heap::mark`] for every root and
    /// finish with [`Heap::sweep`].
    pub fn begin_collection(&mut self) {
        self.marks.clear();
        self.marks.resize(self.slots.len().div_ceil(64), 0);
    }

    /// Marks a root value and everything reachable from it.
    pub fn mark(&mut self, v: Value) {
        if let Some(r) = v.gc_ref() {
            self.mark_ref(r);
            self.drain_worklist();
        }
    }

    fn mark_ref(&mut self, r: GcRef) {
        let (word, bit) = (r.0 as usize / 64, r.0 as usize % 64);
        if let Some(w) = self.marks.get_mut(word) {
            if *w & (1 << bit) == 0 {
                *w |= 1 << bit;
                self.worklist.push(r);
            }
        }
    }

    fn drain_worklist(&mut self) {
        let mut children = Vec::new();
        while let Some(r) = self.worklist.pop() {
            if let Some(obj) = self.slots.get(r.0 as usize).and_then(Option::as_ref) {
                obj.for_each_ref(&mut |c| children.push(c));
            }
            for c in children.drain(..) {
                self.mark_ref(c);
            }
        }
    }

    /// The target of weak reference `owner` (null once collected or never set).
    pub fn weak_target(&self, owner: GcRef) -> Value {
        self.weak_targets.get(&owner).copied().unwrap_or(Value::Null)
    }

    /// Points weak reference `owner` at `target` without keeping it alive.
    pub fn set_weak_target(&mut self, owner: GcRef, target: Value) {
        if matches!(target, Value::Null) {
            self.weak_targets.remove(&owner);
        } else {
            self.weak_targets.insert(owner, target);
        }
    }

    /// Whether the collection under way has reached `r`.
    pub fn is_marked(&self, r: GcRef) -> bool {
        let i = r.0 as usize;
        self.marks.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Frees every unmarked object and schedules the next collection. Weak references
    /// to unmarked objects are cleared first, and those of unmarked `WeakReference`s dropped.
    pub fn sweep(&mut self) {
        let weak = std::mem::take(&mut self.weak_targets);
        self.weak_targets = weak.into_iter().filter(|(owner, target)| self.is_marked(*owner) && target.gc_ref().is_none_or(|t| self.is_marked(t))).collect();
        let mut live_bytes = 0;
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let marked = self.marks[i / 64] & (1 << (i % 64)) != 0;
            match slot {
                Some(_) if !marked => {
                    *slot = None;
                    self.free.push(i as u32);
                }
                Some(obj) => live_bytes += footprint(obj),
                None => {}
            }
        }
        self.collections += 1;
        self.live_bytes = live_bytes;
        self.bytes_since_gc = 0;
        self.allocated_since_gc = 0;
        self.next_collection = self.live_objects().max(MIN_COLLECTION_INTERVAL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::TypeId;
    use crate::runtime::object::Instance;

    fn instance(fields: Vec<Value>) -> Obj {
        Obj::Instance(Instance { ty: TypeId(0), fields: fields.into_boxed_slice() })
    }

    #[test]
    fn sweep_frees_unreachable_and_keeps_reachable() {
        let mut heap = Heap::new();
        let leaf = heap.alloc(instance(vec![]));
        let root = heap.alloc(instance(vec![Value::Ref(leaf)]));
        let garbage = heap.alloc(instance(vec![Value::Ref(leaf)]));
        heap.begin_collection();
        heap.mark(Value::Ref(root));
        heap.sweep();
        assert!(heap.get(root).is_some());
        assert!(heap.get(leaf).is_some());
        assert!(heap.get(garbage).is_none());
        assert_eq!(heap.alloc(instance(vec![])), garbage, "freed slots are reused");
    }

    #[test]
    fn cycles_are_collected() {
        let mut heap = Heap::new();
        let a = heap.alloc(instance(vec![Value::Null]));
        let b = heap.alloc(instance(vec![Value::Ref(a)]));
        if let Some(Obj::Instance(i)) = heap.get_mut(a) {
            i.fields[0] = Value::Ref(b);
        }
        heap.begin_collection();
        heap.sweep();
        assert_eq!(heap.live_objects(), 0);
    }

    #[test]
    fn weak_targets_do_not_keep_objects_alive() {
        let mut heap = Heap::new();
        let owner = heap.alloc(instance(vec![]));
        let lost = heap.alloc(instance(vec![]));
        let kept = heap.alloc(instance(vec![]));
        let other_owner = heap.alloc(instance(vec![]));
        heap.set_weak_target(owner, Value::Ref(lost));
        heap.set_weak_target(other_owner, Value::Ref(kept));
        heap.begin_collection();
        heap.mark(Value::Ref(owner));
        heap.mark(Value::Ref(kept));
        heap.sweep();
        assert!(heap.get(lost).is_none());
        assert!(matches!(heap.weak_target(owner), Value::Null), "a collected target is cleared");
        assert!(heap.weak_targets.is_empty(), "a collected owner's entry is dropped");
    }
}
