//! The garbage-collected heap: a slot arena of [`Obj`]s addressed by [`GcRef`], collected by
//! a precise, non-moving mark-and-sweep.
//!
//! Collection never happens inside an allocation: allocation only counts, and the
//! interpreter calls [`Heap::collect`] at safepoints, when every live value is in a register,
//! a static, or another root the runtime hands in. Native code may therefore allocate
//! freely while holding unrooted references.

use super::object::Obj;
pub use crate::value::GcRef;
use crate::value::Value;

/// Objects allocated since the last collection before the first one is considered.
const MIN_COLLECTION_INTERVAL: usize = 100_000;

pub struct Heap {
    slots: Vec<Option<Obj>>,
    marks: Vec<u64>,
    free: Vec<u32>,
    allocated_since_gc: usize,
    next_collection: usize,
    worklist: Vec<GcRef>,
    pub collections: u64,
}

impl Default for Heap {
    fn default() -> Heap {
        Heap::new()
    }
}

impl Heap {
    pub fn new() -> Heap {
        Heap {
            slots: Vec::new(),
            marks: Vec::new(),
            free: Vec::new(),
            allocated_since_gc: 0,
            next_collection: MIN_COLLECTION_INTERVAL,
            worklist: Vec::new(),
            collections: 0,
        }
    }

    pub fn alloc(&mut self, obj: Obj) -> GcRef {
        self.allocated_since_gc += 1;
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
        self.allocated_since_gc >= self.next_collection
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

    /// Frees every unmarked object and schedules the next collection.
    pub fn sweep(&mut self) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let marked = self.marks[i / 64] & (1 << (i % 64)) != 0;
            if !marked && slot.is_some() {
                *slot = None;
                self.free.push(i as u32);
            }
        }
        self.collections += 1;
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
}
