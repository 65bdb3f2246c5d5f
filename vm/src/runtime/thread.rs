//! A managed thread's execution state: its register file and its stack of frames.
//! Frames are data, not Rust stack: a call pushes a [`Frame`], a return pops one, so the
//! scheduler can stop a thread between any two instructions.

use crate::bytecode::{FunctionId, Reg};
use crate::metadata::TypeId;
use crate::runtime::heap::GcRef;

/// Backward jumps a thread may take before the scheduler is asked what runs next.
pub const FUEL_PER_SLICE: u64 = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// An ordinary managed call.
    Normal,
    /// The first frame of a [`Vm::invoke`](super::Vm::invoke): returning from it hands the
    /// result back to Rust.
    Entry,
    /// A static constructor run on behalf of the instruction that first touched `ty`; when
    /// it returns the type is marked initialised and that instruction runs again.
    StaticCtor(TypeId),
    /// An exception filter evaluated during the search for a handler, in a copy of the
    /// frame that declares it; its `EndFilter` hands the verdict back to Rust.
    Filter,
    /// An iterator's body resumed by `MoveNext` (or by `Dispose` when `disposing`): a
    /// `yield return` or the end of the body hands control back to the caller.
    Generator { iterator: GcRef, disposing: bool },
    /// A runtime-async method started by its task-returning stub (`StartAsync`): how it
    /// ends — returns, suspends, throws — goes to the stub's registers `ret` (a status)
    /// and `ret + 1` (the value, continuation chain or exception).
    /// `entry_ec` and `entry_sc` are the ExecutionContext and SynchronizationContext at
    /// entry, put back when the method ends (or suspends) without ever having been resumed.
    AsyncRoot { entry_ec: Option<GcRef>, entry_sc: Option<GcRef> },
    /// A runtime-async method called from another with `CallAsync`: if it suspends, the
    /// caller suspends with it (capturing `entry_ec` and `entry_sc`, its contexts at the
    /// call).
    AsyncCall { entry_ec: Option<GcRef>, entry_sc: Option<GcRef> },
    /// A continuation resumed by the dispatcher (`AsyncHelpers.ResumeChain`); `rest` are
    /// the suspended callers still to resume, `payload` the `ref` the outcome goes to,
    /// `from` the continuation it was restored from (reused if it suspends again).
    /// `restores_contexts`: the dispatcher puts the thread's contexts back when the chain
    /// stops, so its frames may switch to the ExecutionContexts they captured; without it
    /// the chain stops before such a frame.
    Resumed { rest: Option<GcRef>, payload: GcRef, from: GcRef, restores_contexts: bool },
    /// `ExecutionContext.OnValuesChanged`, run because the interpreter itself switched the
    /// thread's ExecutionContext (a runtime-async frame starting, ending or resuming) and an
    /// AsyncLocal change handler must hear of it; its result is dropped. `rethrow`: an
    /// exception to throw again in the frame below, at its current instruction, once the
    /// handlers have run.
    Notification { rethrow: Option<GcRef> },
}

/// Where an exception being unwound will be caught: found by the first pass (which runs
/// filters), used by the second (which runs `finally` blocks on the way).
#[derive(Clone, Copy, Debug)]
pub struct UnwindTarget {
    pub exception: crate::runtime::value::Value,
    /// Number of frames on the stack when the catching frame is on top.
    pub depth: usize,
    /// The handler that catches, or `None` when the target is a filter frame that swallows
    /// exceptions thrown while the filter runs.
    pub handler: Option<usize>,
    /// Number of frames on the stack when the frame running the current `finally` is on
    /// top (0 before the first one). If that frame returns instead of ending the block (a
    /// classic `MoveNext` suspending at an `await` inside the `finally`), the unwind is
    /// abandoned: the block resumes in a later `MoveNext`, whose `EndFinally` rethrows.
    pub finally_depth: usize,
}

#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub func: FunctionId,
    /// The next instruction to execute.
    pub pc: u32,
    /// Index of register `r0` in the thread's register file.
    pub base: u32,
    /// The caller's register that receives the return value.
    pub ret: Reg,
    pub kind: FrameKind,
}

/// Deepest call stack before `InsufficientExecutionStackException`-style failure (.NET
/// crashes with "Stack overflow."; so does the VM).
pub const MAX_FRAMES: usize = 100_000;

pub struct ThreadState {
    pub regs: Vec<crate::runtime::value::Value>,
    pub frames: Vec<Frame>,
    /// The exception being unwound and where it will be caught.
    pub unwind: Option<UnwindTarget>,
    /// What the filters run for the exception being unwound wrote in their frames, in the
    /// order they ran, for the handler that catches it (see [`FilterWrites`]).
    pub filter_writes: Vec<FilterWrites>,
    /// Loop iterations left in this thread's time slice.
    pub fuel: u64,
}

/// The registers an exception filter changed (`when ((e = other) != null)`), whether it
/// accepted the exception or not. A filter runs in a copy of its frame during the first
/// pass (a later filter of the same frame sees the earlier ones' writes); the writes reach
/// the frame when a handler of that frame is entered, after the second pass ran the
/// `finally` blocks on the way, except where one of those blocks wrote the register since
/// (it ran later, as in .NET).
#[derive(Clone, Debug)]
pub struct FilterWrites {
    /// Number of frames on the stack when the filter's frame is on top.
    pub depth: usize,
    /// Per changed register: its value before the filter and the filter's value.
    pub writes: Vec<(u16, crate::runtime::value::Value, crate::runtime::value::Value)>,
}

impl Default for ThreadState {
    fn default() -> Self {
        ThreadState { regs: Vec::new(), frames: Vec::new(), unwind: None, filter_writes: Vec::new(), fuel: FUEL_PER_SLICE }
    }
}

impl ThreadState {
    /// Makes sure registers `[0, top)` exist.
    #[inline]
    pub fn ensure_regs(&mut self, top: usize) {
        if self.regs.len() < top {
            self.regs.resize(top.next_power_of_two().max(256), Default::default());
        }
    }
}

impl ThreadState {
    /// The heap references a thread that is not running holds: its registers (all of them;
    /// a stale one only delays a collection), its suspended iterators and the exception it
    /// is unwinding.
    pub fn for_each_root(&self, f: &mut impl FnMut(crate::runtime::value::Value)) {
        self.regs.iter().for_each(|&v| f(v));
        self.for_each_frame_root(f);
        if let Some(u) = self.unwind {
            f(u.exception);
        }
    }

    /// The heap references frames hold outside registers (iterators, continuations, a
    /// filter's writes waiting for its handler).
    pub fn for_each_frame_root(&self, f: &mut impl FnMut(crate::runtime::value::Value)) {
        for &(_, before, after) in self.filter_writes.iter().flat_map(|w| &w.writes) {
            f(before);
            f(after);
        }
        for fr in &self.frames {
            match fr.kind {
                FrameKind::Generator { iterator, .. } => f(crate::runtime::value::Value::Ref(iterator)),
                FrameKind::Resumed { rest, payload, from, .. } => {
                    f(crate::runtime::value::Value::Ref(payload));
                    f(crate::runtime::value::Value::Ref(from));
                    if let Some(r) = rest {
                        f(crate::runtime::value::Value::Ref(r));
                    }
                }
                FrameKind::AsyncRoot { entry_ec, entry_sc } | FrameKind::AsyncCall { entry_ec, entry_sc } => {
                    entry_ec.into_iter().chain(entry_sc).for_each(|r| f(crate::runtime::value::Value::Ref(r)));
                }
                FrameKind::Notification { rethrow: Some(exc) } => f(crate::runtime::value::Value::Ref(exc)),
                _ => {}
            }
        }
    }
}
