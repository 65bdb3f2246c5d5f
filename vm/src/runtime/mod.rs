//! The run-time state of a program: metadata and code, the heap, per-type state (statics,
//! static-constructor progress), the managed thread, the console sinks, and the garbage
//! collector's root set.

pub mod boxes;
pub mod clr_size;
pub mod console_input;
pub mod entry;
pub mod exceptions;
pub mod file_system;
pub mod hashtable;
pub mod heap;
pub mod host_call;
pub mod host_model;
pub mod intrinsics;
pub mod jit_cost;
pub mod loader;
pub mod native;
pub use crate::numerics;
pub mod object;
pub mod options;
pub mod scheduler;
mod stack_overflow;
pub mod stats;
pub mod strings;
pub mod thread;
pub mod thread_report;
pub mod trace;
pub mod type_names;
pub mod types;
pub use crate::value;

use std::io::Write;
use std::rc::Rc;

use hashbrown::HashMap;

use crate::bytecode::liveness::SuspendSite;
use crate::bytecode::{Function, FunctionId};
use crate::metadata::{Metadata, MethodId, TypeId};
use heap::{GcRef, Heap};
pub use options::{ConsoleOptions, VmOptions};
use thread::ThreadState;
use types::TypeState;
use value::Value;

/// Where `Console` output goes.
pub struct Sinks {
    pub stdout: Box<dyn Write>,
    pub stderr: Box<dyn Write>,
}

/// Field slots of `System.Exception` the runtime reads and writes directly.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExceptionLayout {
    pub message: u16,
    pub inner: u16,
    pub stack_trace: u16,
    pub param_name: u16,
    pub inner_exceptions: u16,
}

pub struct Vm {
    pub meta: Metadata,
    /// Every compiled function, by `FunctionId`. Library bodies compiled during the run
    /// are appended (the dispatch loop holds a clone while it runs; see `compile_lazily`).
    pub functions: Rc<Vec<Rc<Function>>>,
    /// The compiler of the library bodies not compiled yet.
    pub library: Option<crate::compiler::lazy::LazyLibrary>,
    pub heap: Heap,
    pub type_states: Vec<TypeState>,
    pub thread: ThreadState,
    pub sinks: Sinks,
    /// Standard input, as `Console.In` reads it.
    pub console_in: console_input::ConsoleInput,
    /// Interned string literals (also GC roots).
    pub literals: HashMap<String, GcRef>,
    /// Where string-building instructions assemble text before copying it into an
    /// exact-size string (`Vm::build_string`).
    pub text_scratch: Vec<u16>,
    pub exception_layout: ExceptionLayout,
    pub options: VmOptions,
    /// Loop iterations run so far (counted a slice at a time).
    pub steps_taken: u64,
    /// Bytes the program wrote to standard output and error so far (for `--max-output`).
    pub output_written: usize,
    /// Where `System.IO` reads and writes files: the host's, or the sandbox's in memory.
    pub files: Box<dyn file_system::FileSystem>,
    /// The green threads and the virtual clock.
    pub sched: scheduler::Scheduler,
    /// The random bytes the operating system would give (`--seed`).
    pub entropy: host_model::Entropy,
    /// The lock `Monitor` keeps for each object ever locked (CoreLib's sync blocks); both
    /// sides are kept alive.
    pub object_locks: HashMap<GcRef, Value>,
    /// The slot of `Thread._executionContext`, where each thread's current context is.
    pub thread_ec_slot: Option<u16>,
    /// The slot of `Thread._synchronizationContext` (each thread's current one).
    pub thread_sc_slot: Option<u16>,
    /// The slot of `ExecutionContext._isFlowSuppressed`.
    pub ec_suppressed_slot: Option<u16>,
    /// The slot of `ExecutionContext._localChangeNotifications` (null: no AsyncLocal of the
    /// context has a change handler).
    pub ec_notifications_slot: Option<u16>,
    /// `ExecutionContext.OnValuesChanged(previous, next)`: what the interpreter runs when it
    /// switches contexts itself (runtime-async frames) and a handler must hear of it.
    pub on_values_changed: Option<MethodId>,
    /// `System.Threading.SynchronizationContext` itself: a current context of exactly this
    /// type counts as none.
    pub base_sync_ctx_type: Option<TypeId>,
    /// Each runtime-async function's suspension sites, computed when it first suspends.
    pub suspend_sites: HashMap<FunctionId, Rc<[SuspendSite]>>,
    /// `--stats` counters.
    pub stats: stats::Stats,
    /// The benchmarks `Main` asked for (`BenchmarkSwitcher.Run`), run when it returns.
    pub bench_requests: Vec<intrinsics::bench::BenchRequest>,
    /// Values the host holds between calls into managed code (GC roots).
    pub host_roots: Vec<Value>,
    /// What the JIT has not compiled yet (the first-call cost).
    pub jit: jit_cost::JitState,
    /// The events of a `--trace` or `--timeline` run (`None` otherwise).
    pub tracer: Option<Box<trace::Tracer>>,
    /// An unhandled exception's `ToString()` is running for the crash report.
    describing_crash: bool,
}

impl Vm {
    pub fn new(meta: Metadata, functions: Vec<Function>, sinks: Sinks, options: VmOptions) -> Vm {
        Vm {
            meta,
            functions: Rc::new(functions.into_iter().map(Rc::new).collect()),
            library: None,
            heap: Heap::with_limit(options.max_heap.unwrap_or_else(heap::default_limit)),
            type_states: Vec::new(),
            thread: ThreadState::default(),
            sinks,
            console_in: console_input::ConsoleInput::new(options.console.stdin.clone()),
            literals: HashMap::new(),
            text_scratch: Vec::new(),
            exception_layout: ExceptionLayout::default(),
            sched: scheduler::Scheduler::new(options.seed, options.cpus as usize),
            entropy: host_model::Entropy::new(options.seed),
            stats: stats::Stats::new(options.stats),
            files: file_system::for_options(&options),
            tracer: options.trace.any().then(|| Box::new(trace::Tracer::new(options.trace.clone()))),
            options,
            steps_taken: 0,
            output_written: 0,
            object_locks: HashMap::new(),
            thread_ec_slot: None,
            thread_sc_slot: None,
            ec_suppressed_slot: None,
            ec_notifications_slot: None,
            on_values_changed: None,
            base_sync_ctx_type: None,
            suspend_sites: HashMap::new(),
            bench_requests: Vec::new(),
            host_roots: Vec::new(),
            jit: Default::default(),
            describing_crash: false,
        }
    }

    /// Collects garbage if enough has been allocated. Called by the interpreter at
    /// safepoints only, when every live value is reachable from a root.
    pub fn maybe_collect(&mut self) {
        if self.heap.wants_collection() {
            self.collect_garbage();
        }
    }

    pub fn collect_garbage(&mut self) {
        self.heap.begin_collection();
        let top = self.live_register_top();
        for i in 0..top {
            let v = self.thread.regs[i];
            self.heap.mark(v);
        }
        let mut others = Vec::new();
        self.sched.for_each_root(|v| others.push(v));
        for v in others {
            self.heap.mark(v);
        }
        let mut frame_roots = Vec::new();
        self.thread.for_each_frame_root(&mut |v| frame_roots.push(v));
        for v in frame_roots {
            self.heap.mark(v);
        }
        if let Some(u) = self.thread.unwind {
            self.heap.mark(u.exception);
        }
        for r in self.literals.values() {
            self.heap.mark(Value::Ref(*r));
        }
        for &v in &self.host_roots {
            self.heap.mark(v);
        }
        for f in self.functions.iter() {
            for &v in &f.consts {
                self.heap.mark(v);
            }
        }
        for s in &self.type_states {
            if let Some(statics) = &s.statics {
                for &v in statics.iter() {
                    self.heap.mark(v);
                }
            }
            if let Some(t) = s.type_object {
                self.heap.mark(Value::Ref(t));
            }
        }
        self.mark_locks_of_live_objects();
        self.heap.sweep();
        self.object_locks.retain(|&obj, _| self.heap.get(obj).is_some());
    }

    /// The lock `Monitor` attached to an object lives as long as the object does (the
    /// lock alone does not keep its object alive): marks the locks of marked objects until
    /// marking them marks no further object.
    fn mark_locks_of_live_objects(&mut self) {
        loop {
            let unmarked: Vec<Value> = self
                .object_locks
                .iter()
                .filter(|&(&obj, lock)| self.heap.is_marked(obj) && lock.gc_ref().is_some_and(|l| !self.heap.is_marked(l)))
                .map(|(_, &lock)| lock)
                .collect();
            if unmarked.is_empty() {
                return;
            }
            for lock in unmarked {
                self.heap.mark(lock);
            }
        }
    }

    /// One past the highest register any frame of the thread may be using.
    fn live_register_top(&self) -> usize {
        let top = self.thread.frames.iter().map(|f| f.base as usize + self.functions[f.func.0 as usize].num_regs as usize).max().unwrap_or(0);
        top.min(self.thread.regs.len())
    }

    /// Writes program output to standard output.
    pub fn write_stdout(&mut self, text: &str) {
        // A closed pipe is not the program's fault; output is best effort, as in .NET.
        let _ = self.sinks.stdout.write_all(text.as_bytes());
    }

    pub fn write_stderr(&mut self, text: &str) {
        let _ = self.sinks.stdout.flush();
        let _ = self.sinks.stderr.write_all(text.as_bytes());
    }

    pub fn flush(&mut self) {
        let _ = self.sinks.stdout.flush();
        let _ = self.sinks.stderr.flush();
    }
}

impl Vm {
    /// Makes thread `t` the running one: its state moves into `self.thread`.
    pub fn switch_to(&mut self, t: usize) {
        if t == self.sched.current {
            return;
        }
        let cur = self.sched.current;
        std::mem::swap(&mut self.thread, &mut self.sched.threads[cur].state);
        std::mem::swap(&mut self.thread, &mut self.sched.threads[t].state);
        self.sched.current = t;
    }

    /// Makes a parked thread runnable; its parked call completes with `value`.
    pub fn unpark_with(&mut self, t: usize, value: Value) {
        let th = &mut self.sched.threads[t];
        if let (Some(dst), Some(frame)) = (th.parked_dst.take(), th.state.frames.last()) {
            let i = frame.base as usize + dst.0 as usize;
            if let Some(r) = th.state.regs.get_mut(i) {
                *r = value;
            }
        }
        self.sched.make_runnable(t);
    }
}
