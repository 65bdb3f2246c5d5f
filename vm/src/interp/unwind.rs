//! Exception unwinding in .NET's two passes. The first pass walks the stack from the throw
//! looking for a `catch` that takes the exception, running exception filters on the way
//! (with every frame still in place). If none exists the exception is unhandled and no
//! `finally` block runs. Otherwise the second pass pops frames towards the catching one,
//! running the `finally` blocks it crosses; each `finally` ends in `EndFinally`, which
//! resumes the second pass. Every frame crossed is recorded in the exception's stack trace.

use super::{Flow, InvokeError};
use crate::bytecode::{Function, Handler, HandlerKind};
use crate::runtime::native::NativeError;
use crate::runtime::thread::{FilterWrites, Frame, FrameKind, UnwindTarget};
use crate::runtime::types::InitState;
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// What the first pass found.
enum Catcher {
    /// A handler of the frame at depth `depth` (stack length with it on top) takes it.
    Handler { depth: usize, handler: usize },
    /// A frame that turns exceptions into outcomes: a filter (which swallows them) or an
    /// async method's boundary (which stores them in its task).
    FilterBoundary { depth: usize },
    /// Nobody catches it.
    None,
}

impl Vm {
    /// Throws `exc` from instruction `pc` of the top frame. A rethrow keeps the exception's
    /// stack trace; a `throw` starts a new one.
    pub(super) fn throw_from_current(&mut self, exc: Value, pc: u32, rethrow: bool) -> Result<Flow, InvokeError> {
        let Some(frame) = self.thread.frames.last().copied() else {
            return Err(InvokeError::Exception(exc));
        };
        if self.stats.enabled() {
            self.stats.throws += 1;
        }
        if rethrow {
            self.extend_trace(exc, frame.func, pc);
        } else {
            self.begin_trace(exc, frame.func, pc);
        }
        self.thread.filter_writes.clear();
        let target = match self.find_catcher(exc, pc)? {
            Catcher::Handler { depth, handler } => UnwindTarget { exception: exc, depth, handler: Some(handler), finally_depth: 0 },
            Catcher::FilterBoundary { depth } => UnwindTarget { exception: exc, depth, handler: None, finally_depth: 0 },
            Catcher::None => return Err(self.escape_unhandled(exc)),
        };
        self.thread.unwind = Some(target);
        self.unwind(exc, pc)
    }

    /// Resumes the second pass after a `finally` block that was entered by an exception.
    pub(super) fn continue_unwind(&mut self, exc: Value, pc: u32) -> Result<Flow, InvokeError> {
        match self.thread.unwind {
            Some(t) if t.exception == exc => self.unwind(exc, pc),
            _ => self.throw_from_current(exc, pc, true),
        }
    }

    /// The first pass: the innermost handler that takes `exc`, running filters.
    fn find_catcher(&mut self, exc: Value, pc: u32) -> Result<Catcher, InvokeError> {
        let functions = self.functions.clone();
        let mut pc = pc;
        for i in (0..self.thread.frames.len()).rev() {
            let frame = self.thread.frames[i];
            if i + 1 < self.thread.frames.len() {
                pc = frame.pc.saturating_sub(1);
            }
            let func = &functions[frame.func.0 as usize];
            for (hi, h) in func.handlers.iter().enumerate() {
                if !covers(h, pc) {
                    continue;
                }
                let caught = match h.kind {
                    HandlerKind::Catch(ty) => self.is_instance(exc, ty),
                    HandlerKind::Filter { ty, .. } => self.is_instance(exc, ty) && self.run_filter(frame, func, h, exc, i + 1)?,
                    HandlerKind::Finally => false,
                };
                if caught {
                    return Ok(Catcher::Handler { depth: i + 1, handler: hi });
                }
            }
            // A runtime-async call is a boundary too: in .NET the callee's exception goes
            // into its Task and the caller's `await` rethrows it, so the callee's `finally`
            // blocks run before the caller's filters.
            if frame.kind == FrameKind::Filter
                || super::runtime_async::is_async_boundary(frame.kind)
                || matches!(frame.kind, FrameKind::AsyncCall { .. } | FrameKind::Notification { .. })
            {
                return Ok(Catcher::FilterBoundary { depth: i + 1 });
            }
        }
        Ok(Catcher::None)
    }

    /// Runs a filter's code in a copy of its frame placed on top of the stack, so the
    /// frames above the declaring one stay intact. An exception inside the filter means
    /// `false`, as in .NET.
    /// What the filter wrote is kept for the handler that catches ([`FilterWrites`]); the
    /// copy starts with what earlier filters of the frame wrote.
    fn run_filter(&mut self, frame: Frame, func: &Function, h: &Handler, exc: Value, depth: usize) -> Result<bool, InvokeError> {
        let HandlerKind::Filter { filter, .. } = h.kind else { return Ok(false) };
        let base = self.free_register_base();
        let n = func.num_regs as usize;
        self.thread.ensure_regs(base + n + 1);
        let from = frame.base as usize;
        self.thread.regs.copy_within(from..from + n, base);
        self.apply_filter_writes(base, depth, false);
        let start: Vec<Value> = self.thread.regs[base..base + n].to_vec();
        self.thread.regs[base + h.reg.0 as usize] = exc;
        let saved_unwind = self.thread.unwind.take();
        let saved_writes = std::mem::take(&mut self.thread.filter_writes);
        self.thread.frames.push(Frame { func: frame.func, pc: filter.0, base: base as u32, ret: h.reg, kind: FrameKind::Filter });
        let verdict = self.execute();
        self.thread.unwind = saved_unwind;
        self.thread.filter_writes = saved_writes;
        let writes = self.filter_writes(&start, base, depth);
        self.thread.filter_writes.push(writes);
        match verdict {
            Ok(Value::Bool(true)) => Ok(true),
            Ok(_) | Err(InvokeError::Exception(_)) => Ok(false),
            Err(other) => Err(other),
        }
    }

    /// The registers a filter's copy at `copy` changed from their values at its `start`.
    fn filter_writes(&self, start: &[Value], copy: usize, depth: usize) -> FilterWrites {
        let regs = &self.thread.regs[copy..copy + start.len()];
        let writes = start.iter().zip(regs).enumerate().filter_map(|(r, (&before, &after))| (before != after).then_some((r as u16, before, after))).collect();
        FilterWrites { depth, writes }
    }

    /// Writes what the filters of the frame at `depth` wrote into the registers at `base`:
    /// that frame's own when `catching` (the exception's dispatch ends, so every filter's
    /// writes are dropped), a filter's copy otherwise.
    fn apply_filter_writes(&mut self, base: usize, depth: usize, catching: bool) {
        let pending: Vec<FilterWrites> = if catching {
            std::mem::take(&mut self.thread.filter_writes).into_iter().filter(|w| w.depth == depth).collect()
        } else {
            self.thread.filter_writes.iter().filter(|w| w.depth == depth).cloned().collect()
        };
        for (r, before, after) in pending.into_iter().flat_map(|w| w.writes) {
            if let Some(slot) = self.thread.regs.get_mut(base + r as usize) {
                if *slot == before {
                    *slot = after;
                }
            }
        }
    }

    /// The second pass: pops frames towards the target, entering the `finally` blocks that
    /// cover the current instruction, and finally the catching handler.
    fn unwind(&mut self, exc: Value, mut pc: u32) -> Result<Flow, InvokeError> {
        let Some(target) = self.thread.unwind else { return Err(InvokeError::Exception(exc)) };
        let functions = self.functions.clone();
        loop {
            let Some(frame) = self.thread.frames.last().copied() else {
                self.thread.unwind = None;
                return Err(InvokeError::Exception(exc));
            };
            let func = &functions[frame.func.0 as usize];
            let is_target = self.thread.frames.len() == target.depth;
            for (hi, h) in func.handlers.iter().enumerate() {
                if is_target && target.handler == Some(hi) {
                    self.thread.unwind = None;
                    if self.stats.enabled() {
                        self.stats.catches += 1;
                    }
                    self.apply_filter_writes(frame.base as usize, target.depth, true);
                    return Ok(self.enter_handler(frame, h, exc));
                }
                if h.kind == HandlerKind::Finally && covers(h, pc) {
                    let depth = self.thread.frames.len();
                    if let Some(t) = &mut self.thread.unwind {
                        t.finally_depth = depth;
                    }
                    return Ok(self.enter_handler(frame, h, exc));
                }
            }
            self.thread.frames.pop();
            match frame.kind {
                FrameKind::Entry | FrameKind::Filter | FrameKind::Notification { .. } => {
                    if frame.kind != FrameKind::Entry || is_target {
                        self.thread.unwind = None;
                    }
                    return Err(InvokeError::Exception(exc));
                }
                FrameKind::StaticCtor(ty) => self.set_init_state(ty, InitState::Done),
                FrameKind::Generator { iterator, .. } => self.generator_finished(iterator),
                FrameKind::AsyncRoot { .. } | FrameKind::Resumed { .. } => {
                    self.thread.unwind = None;
                    return self.async_frame_threw(frame, exc);
                }
                FrameKind::AsyncCall { entry_ec, entry_sc } => {
                    let previous = self.execution_context();
                    self.set_contexts(entry_ec, entry_sc);
                    if is_target {
                        self.thread.unwind = None;
                        let Some(caller) = self.thread.frames.last().copied() else { return Err(InvokeError::Exception(exc)) };
                        if self.notify_context_switch(previous, exc.gc_ref()) {
                            return Ok(Flow::Continue);
                        }
                        return self.throw_from_current(exc, caller.pc.saturating_sub(1), true);
                    }
                }
                FrameKind::Normal => {}
            }
            let Some(caller) = self.thread.frames.last().copied() else {
                self.thread.unwind = None;
                return Err(InvokeError::Exception(exc));
            };
            pc = caller.pc.saturating_sub(1);
            self.extend_trace(exc, caller.func, pc);
        }
    }

    /// Continues the top frame at a handler, with the exception in the handler's register.
    fn enter_handler(&mut self, frame: Frame, h: &Handler, exc: Value) -> Flow {
        self.thread.regs[frame.base as usize + h.reg.0 as usize] = exc;
        if let Some(f) = self.thread.frames.last_mut() {
            f.pc = h.entry.0;
        }
        Flow::Continue
    }

    /// Records the rest of the stack in the trace of an exception nobody catches and pops
    /// the frames up to the innermost entry frame.
    fn escape_unhandled(&mut self, exc: Value) -> InvokeError {
        while let Some(frame) = self.thread.frames.pop() {
            if frame.kind == FrameKind::Entry {
                break;
            }
            if let Some(caller) = self.thread.frames.last().copied() {
                self.extend_trace(exc, caller.func, caller.pc.saturating_sub(1));
            }
        }
        InvokeError::Exception(exc)
    }

    /// Turns an intrinsic's failure at instruction `pc` into a throw, an exit, a fault, or
    /// (for the threading intrinsics) parking or yielding the thread, its call's result
    /// due in `dst` once it is unparked.
    pub(super) fn native_failure(&mut self, e: NativeError, pc: u32, dst: crate::bytecode::Reg) -> Result<Flow, InvokeError> {
        match e {
            NativeError::Park { timeout, interruptible } => {
                self.sched.park_current(dst, timeout, interruptible);
                Ok(Flow::Park)
            }
            NativeError::Yield => Ok(Flow::OutOfFuel),
            NativeError::Throw(exc) => self.throw_from_current(exc, pc, false),
            NativeError::ThrowNew(kind, msg) => {
                let exc = self.new_exception(kind, Some(&msg));
                self.throw_from_current(exc, pc, false)
            }
            NativeError::Exit(code) => Err(InvokeError::Exit(code)),
            NativeError::Fatal(msg) => Err(InvokeError::Fatal(msg)),
        }
    }
}

fn covers(h: &Handler, pc: u32) -> bool {
    h.start.0 <= pc && pc < h.end.0
}
