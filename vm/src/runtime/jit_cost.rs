//! The JIT's first-call cost: .NET compiles each method of the user's program (lambdas,
//! local functions, state machines' `MoveNext` and the constructors of closure classes
//! included) when it is first called, while CoreLib comes precompiled (ReadyToRun). The
//! VM charges the first caller [`JIT_TICKS`] of CPU time, as a slice of a compute-bound
//! loop is charged: the thread waits for a virtual processor and the other threads run
//! meanwhile. A thread that calls the method while it is being compiled waits for the
//! compilation to finish, as on the JIT's lock.

use crate::bytecode::FunctionId;
use crate::metadata::{Flags, TypeDefKind, TypeId};
use crate::runtime::thread::FrameKind;
use crate::runtime::Vm;

/// Tier-0 compilation of one small method: 20 µs (real ones take tens of microseconds,
/// more for big methods; the VM charges every method the same). This value puts the
/// thread-pool chapter's 8-CPU `queues` run in its book order: pool item W compiles its
/// lambda and the closure classes of its two loops, so a worker started 50 µs after W's
/// dequeue finds the first local item (pushed after two compilations) but not the first
/// global one (after three); any value from 17 to 24 µs gives that order.
pub const JIT_TICKS: i64 = 200;

/// The compilation time of code not compiled yet.
const NOT_COMPILED: i64 = i64::MAX;

/// When the JIT has compiled (or will have compiled) each piece of user code.
#[derive(Default)]
pub struct JitState {
    /// By `FunctionId`: when each user function is compiled ([`NOT_COMPILED`] before its
    /// first call); library functions are precompiled and not listed.
    functions_compiled_at: Vec<i64>,
    /// By `TypeId`: when the constructor of each user closure class is compiled.
    constructors_compiled_at: Vec<i64>,
    /// Calls made by the runtime in progress (the thread cannot give up the CPU there).
    pub runtime_invokes: u32,
}

impl Vm {
    /// Marks every user function and closure class as not compiled yet.
    pub(crate) fn init_jit(&mut self) {
        self.jit.functions_compiled_at = self.functions.iter().map(|f| if f.preemptible { NOT_COMPILED } else { 0 }).collect();
        let mut ctors = Vec::new();
        for d in self.meta.type_defs.iter().filter(|d| is_user_closure_class(d)) {
            let i = d.self_type.0 as usize;
            if ctors.len() <= i {
                ctors.resize(i + 1, 0);
            }
            ctors[i] = NOT_COMPILED;
        }
        self.jit.constructors_compiled_at = ctors;
    }

    /// Whether a call of `f` must wait for the JIT.
    #[inline]
    pub(crate) fn awaits_jit(&self, f: FunctionId) -> bool {
        self.jit.functions_compiled_at.get(f.0 as usize).is_some_and(|&at| at > self.sched.now)
    }

    /// Whether creating a `ty` must wait for the JIT to compile its constructor.
    #[inline]
    pub(crate) fn constructor_awaits_jit(&self, ty: TypeId) -> bool {
        self.jit.constructors_compiled_at.get(ty.0 as usize).is_some_and(|&at| at > self.sched.now)
    }

    /// The current thread calls `f`, which is not compiled yet: returns whether it now
    /// waits for the JIT (false where it cannot give up the CPU; `f` counts as compiled).
    pub(crate) fn compile_function(&mut self, f: FunctionId) -> bool {
        self.compile(|jit| &mut jit.functions_compiled_at, f.0 as usize)
    }

    /// The current thread creates a `ty` whose constructor is not compiled yet, as
    /// [`Vm::compile_function`].
    pub(crate) fn compile_constructor(&mut self, ty: TypeId) -> bool {
        self.compile(|jit| &mut jit.constructors_compiled_at, ty.0 as usize)
    }

    /// Compiles entry `i` of one of the [`JitState`] tables; as [`Vm::compile_function`].
    fn compile(&mut self, table: fn(&mut JitState) -> &mut Vec<i64>, i: usize) -> bool {
        let Some(&at) = table(&mut self.jit).get(i) else { return false };
        let (ready, waits) = self.wait_for_jit(at);
        if let Some(slot) = table(&mut self.jit).get_mut(i) {
            *slot = ready;
        }
        waits
    }

    /// Parks the current thread until code compiled at `at` is ready, starting its
    /// compilation on a virtual processor if nobody has (`at` is [`NOT_COMPILED`]); returns
    /// when it is ready and whether the thread waits for it. A thread that cannot give up
    /// the CPU here compiles without taking time: inside a call made by the runtime, or
    /// inside a static constructor (other threads do not wait for one to finish in the VM,
    /// CoreLib's class-init lock is not modeled, so it runs without interruption).
    fn wait_for_jit(&mut self, at: i64) -> (i64, bool) {
        let now = self.sched.now;
        let in_static_ctor = self.thread.frames.iter().any(|f| matches!(f.kind, FrameKind::StaticCtor(_)));
        if self.jit.runtime_invokes > 0 || in_static_ctor {
            return (at.min(now), false);
        }
        let ready = if at == NOT_COMPILED { now + self.sched.reserve_cpu(JIT_TICKS) } else { at };
        if ready <= now {
            return (ready, false);
        }
        let t = self.sched.current;
        self.sched.make_runnable_after(t, ready - now);
        (ready, true)
    }
}

/// A closure class of the user's program (not an async state machine, a struct in .NET).
fn is_user_closure_class(d: &crate::metadata::TypeDef) -> bool {
    let f = d.flags;
    d.kind == TypeDefKind::Class
        && d.declaring_type.is_some()
        && f.has(Flags::SYNTHESIZED)
        && f.has(Flags::SEALED)
        && !f.has(Flags::LIBRARY)
        && !f.has(Flags::STATE_MACHINE)
}
