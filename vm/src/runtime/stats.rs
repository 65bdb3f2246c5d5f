//! `--stats`: what a run allocated, in modeled .NET bytes by kind (see `clr_size`), and
//! how often async frames suspended and resumed and exceptions were thrown and caught.
//! Printed to stderr when the program ends; the last line is `allocated: N B`.
//!
//! Counting is off unless `--stats` is given or the program asks what it allocated
//! (`GC.GetTotalAllocatedBytes`, which starts counting at its first call); every hook
//! checks [`Stats::enabled`] first, so a run that does neither pays one branch.

use hashbrown::HashMap;

use super::clr_size::{pack, round8, Layout};
use super::thread::FrameKind;
use super::value::Value;
use super::Vm;
use crate::metadata::{Flags, MethodKind, TypeId, TypeKind};

/// The counters of one run.
#[derive(Default)]
pub struct Stats {
    enabled: bool,
    /// `--stats` was given: the report is printed when the program ends.
    reported: bool,
    rows: Vec<Row>,
    by_kind: HashMap<String, usize>,
    /// Async frames saved for later: a classic state machine scheduling its continuation,
    /// or a runtime-async frame becoming a continuation.
    pub suspensions: u64,
    /// Async frames resumed after a suspension.
    pub resumptions: u64,
    /// Exceptions thrown (`throw`, `throw;`, exceptions raised by the runtime, and each
    /// time an async frame throws its callee's exception again).
    pub throws: u64,
    /// Exceptions caught by a `catch` block.
    pub catches: u64,
}

struct Row {
    kind: String,
    count: u64,
    bytes: u64,
}

/// A row of the allocation table, interned once per kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindId(u32);

impl Stats {
    pub fn new(enabled: bool) -> Stats {
        Stats { enabled, reported: enabled, ..Stats::default() }
    }

    /// Whether the report is printed when the program ends (`--stats`).
    pub fn reported(&self) -> bool {
        self.reported
    }

    #[inline]
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Starts or stops counting (`vm bench` counts only the operations it measures).
    pub fn set_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    /// The row for allocations of `kind` (e.g. `Task<int>`).
    pub fn kind(&mut self, kind: &str) -> KindId {
        if let Some(&i) = self.by_kind.get(kind) {
            return KindId(i as u32);
        }
        self.rows.push(Row { kind: kind.to_string(), count: 0, bytes: 0 });
        self.by_kind.insert(kind.to_string(), self.rows.len() - 1);
        KindId(self.rows.len() as u32 - 1)
    }

    pub fn allocated(&mut self, kind: KindId, bytes: u32) {
        if let Some(r) = self.rows.get_mut(kind.0 as usize) {
            r.count += 1;
            r.bytes += u64::from(bytes);
        }
    }

    pub fn total_bytes(&self) -> u64 {
        self.rows.iter().map(|r| r.bytes).sum()
    }

    /// The report: one row per kind (largest first, then by name), the event counters,
    /// and `allocated: N B`.
    pub fn render(&self) -> String {
        let mut rows: Vec<&Row> = self.rows.iter().filter(|r| r.count > 0).collect();
        rows.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.kind.cmp(&b.kind)));
        let width = rows.iter().map(|r| r.kind.len()).max().unwrap_or(0).max(4);
        let mut out = String::from("--stats: allocations in modeled .NET bytes (64-bit)\n");
        out += &format!("{:<width$}  {:>10}  {:>12}\n", "kind", "count", "bytes");
        for r in rows {
            out += &format!("{:<width$}  {:>10}  {:>12}\n", r.kind, r.count, r.bytes);
        }
        out += &format!("suspensions {}  resumptions {}  throws {}  catches {}\n", self.suspensions, self.resumptions, self.throws, self.catches);
        out += &format!("allocated: {} B\n", self.total_bytes());
        out
    }
}

/// Bytes of a runtime-async `Continuation` before its data (.NET 11: `Next`,
/// `ResumeInfo`, `State`, `Flags` behind the object header).
pub const CONTINUATION_HEADER: u32 = 40;
/// Bytes of a delegate instance.
pub const DELEGATE: u32 = 64;
/// Bytes of an array before its elements (header and length).
const ARRAY_HEADER: u32 = 24;

/// What a runtime-async frame's continuation holds besides its live registers.
pub struct ContinuationShape {
    /// The frame awaited a `Task`/`ValueTask` and captures its context to continue on.
    pub context_slot: bool,
    /// The frame suspended inside a `try` (an exception may be delivered on resumption).
    pub exception_slot: bool,
    /// The result the frame receives on resumption (a suspended call's return value).
    pub result: Option<Layout>,
}

/// The members of a continuation's data area, in .NET's order: the `ExecutionContext`,
/// the continuation context, the exception, the result, then the saved values.
pub fn continuation_data(shape: &ContinuationShape, saved: &[Layout]) -> Vec<Layout> {
    let mut data = vec![Layout::REF];
    data.extend(shape.context_slot.then_some(Layout::REF));
    data.extend(shape.exception_slot.then_some(Layout::REF));
    data.extend(shape.result);
    data.extend_from_slice(saved);
    data
}

/// The modeled size of a continuation whose data area holds `data`.
pub fn continuation_bytes(data: &[Layout]) -> u32 {
    CONTINUATION_HEADER + pack(data).map_or(0, |l| round8(l.size))
}

impl Vm {
    /// A new class instance (from `new`, or made by the library).
    pub(super) fn count_instance(&mut self, t: TypeId) {
        if self.in_library_initializer() {
            return;
        }
        let modeled = match self.type_states.get(t.0 as usize).and_then(|s| s.modeled) {
            Some(m) => m,
            None => {
                let m = self.modeled_instance_size(t).map(|bytes| {
                    let name = self.stats_type_name(t);
                    (self.stats.kind(&name), bytes)
                });
                self.type_state(t).modeled = Some(m);
                m
            }
        };
        if let Some((kind, bytes)) = modeled {
            self.stats.allocated(kind, bytes);
        }
    }

    /// An array created by user code.
    pub fn count_array(&mut self, array_ty: TypeId, len: usize) {
        let Some(bytes) = self.modeled_array_size(array_ty, len) else { return };
        let name = self.stats_type_name(array_ty);
        let kind = self.stats.kind(&name);
        self.stats.allocated(kind, bytes);
    }

    /// The modeled size of an array of type `array_ty` holding `len` elements.
    pub fn modeled_array_size(&mut self, array_ty: TypeId, len: usize) -> Option<u32> {
        let (elem, rank) = self.meta.types.array_elem(array_ty)?;
        let elem_size = self.inline_layout(elem).size as usize;
        let bounds = if rank > 1 { 8 * rank as usize } else { 0 };
        Some(round8((ARRAY_HEADER as usize + bounds + elem_size * len).min(u32::MAX as usize) as u32))
    }

    /// A delegate created by user code. A lambda that captures nothing costs nothing: C#
    /// caches its delegate in a static field.
    pub fn count_delegate(&mut self, ty: TypeId, method: crate::metadata::MethodId, target: Value) {
        let m = self.meta.method(method);
        let cached_lambda = matches!(m.kind, MethodKind::Lambda) && matches!(target, Value::Null);
        if cached_lambda || self.in_library_initializer() {
            return;
        }
        let name = self.stats_type_name(ty);
        let kind = self.stats.kind(&name);
        self.stats.allocated(kind, DELEGATE);
    }

    /// A runtime-async frame saved as a continuation with the registers `saved`.
    pub fn count_continuation(&mut self, saved: &[Value], shape: ContinuationShape) {
        let saved: Vec<Layout> = saved.iter().map(|&v| self.value_layout(v)).collect();
        let bytes = continuation_bytes(&continuation_data(&shape, &saved));
        let kind = self.stats.kind("Continuation");
        self.stats.allocated(kind, bytes);
        self.stats.suspensions += 1;
    }

    /// Whether a library type's static constructor is running: what it allocates (cached
    /// tasks, for instance) .NET allocates at startup, outside any measurement.
    pub(super) fn in_library_initializer(&mut self) -> bool {
        let frames = &self.thread.frames;
        frames.iter().any(|f| match f.kind {
            FrameKind::StaticCtor(t) => match *self.meta.types.kind(t) {
                TypeKind::Named { def, .. } => self.meta.type_def(def).flags.has(Flags::LIBRARY),
                _ => false,
            },
            _ => false,
        })
    }

    /// A C#-style short name for a row: `Task<int>`, `Program.<Main>d__0`, `int[]`.
    pub fn stats_type_name(&self, t: TypeId) -> String {
        match self.meta.types.kind(t) {
            TypeKind::Named { def, args } => self.named_type_name(*def, args),
            TypeKind::Array { elem, rank } => format!("{}[{}]", self.stats_type_name(*elem), ",".repeat(*rank as usize - 1)),
            _ => self.meta.clr_name(t),
        }
    }

    /// `def` with `args` (its declaring types' arguments first).
    fn named_type_name(&self, def: crate::metadata::TypeDefId, args: &[TypeId]) -> String {
        let d = self.meta.type_def(def);
        if let Some(k) = csharp_keyword(&d.namespace, &d.name) {
            return k.to_string();
        }
        let outer_arity = d.declaring_type.map_or(0, |o| self.meta.type_def(o).type_params.len());
        let mut s = match d.declaring_type {
            Some(outer) => format!("{}.{}", self.named_type_name(outer, args.get(..outer_arity).unwrap_or_default()), d.name),
            None => d.name.clone(),
        };
        let own: Vec<String> = args.iter().skip(outer_arity).map(|&a| self.stats_type_name(a)).collect();
        if !own.is_empty() {
            s = format!("{s}<{}>", own.join(", "));
        }
        s
    }
}

fn csharp_keyword(namespace: &str, name: &str) -> Option<&'static str> {
    if namespace != "System" {
        return None;
    }
    Some(match name {
        "Boolean" => "bool",
        "Byte" => "byte",
        "SByte" => "sbyte",
        "Char" => "char",
        "Int16" => "short",
        "UInt16" => "ushort",
        "Int32" => "int",
        "UInt32" => "uint",
        "Int64" => "long",
        "UInt64" => "ulong",
        "Single" => "float",
        "Double" => "double",
        "Decimal" => "decimal",
        "String" => "string",
        "Object" => "object",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_ends_with_the_total() {
        let mut s = Stats::new(true);
        let task = s.kind("Task<int>");
        s.allocated(task, 72);
        s.allocated(task, 72);
        let cont = s.kind("Continuation");
        s.allocated(cont, 48);
        assert_eq!(s.kind("Task<int>"), task);
        let text = s.render();
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(rows[2], ["Task<int>", "2", "144"], "{text}");
        assert_eq!(rows[3], ["Continuation", "1", "48"], "{text}");
        assert!(text.ends_with("allocated: 192 B\n"), "{text}");
    }
}
