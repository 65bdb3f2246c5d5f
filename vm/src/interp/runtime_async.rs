//! Runtime async (.NET 11's design): an async method runs in an ordinary frame, and only
//! when an `await` finds its awaiter incomplete is anything allocated. `AwaitSuspend`
//! turns the frame and its runtime-async callers into a chain of continuations (one per
//! frame, innermost first), popping them, until it reaches the boundary that started the
//! chain: a task-returning stub (`StartAsync`, which then makes the method's `Task`) or the
//! dispatcher (`AsyncHelpers.ResumeChain`, which re-subscribes). The dispatcher resumes a
//! chain innermost first: each frame's result becomes the value of its caller's call, an
//! exception is thrown again at the caller's call site, so `try` blocks work across frames.
//! No Rust recursion is involved.
//!
//! Contexts, as the classic builders and boxes have them: each frame captures the
//! ExecutionContext and SynchronizationContext it suspends in (a caller, the ones it made
//! the call in); a frame started or called but never resumed puts its entry contexts back
//! when it ends or suspends. Between two frames the dispatcher stops (for
//! `RuntimeAsyncTask` to act) when the caller must resume elsewhere: on the custom
//! SynchronizationContext it captured, on the pool if the thread has a custom context the
//! caller did not capture, or under its captured ExecutionContext when this run of the
//! dispatcher does not put the thread's contexts back (the chain started with a frame that
//! captured none because flow was suppressed: AB-4).

use super::{Flow, InvokeError};
use std::rc::Rc;

use crate::bytecode::liveness::{self, SuspendSite};
use crate::bytecode::{FunctionId, Reg};
use crate::metadata::{MethodBody, MethodId, TypeId, TypeKind};
use crate::runtime::clr_size::Layout;
use crate::runtime::heap::GcRef;
use crate::runtime::object::{Continuation, Obj, Outcome};
use crate::runtime::stats::ContinuationShape;
use crate::runtime::thread::{Frame, FrameKind};
use crate::runtime::trace::event::SuspensionKind;
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// `AsyncHelpers.ResumeChain`: like the iterator intrinsics, the interpreter handles it.
pub use crate::runtime::intrinsics::frames::RESUME_CHAIN;

/// How a runtime-async body ended, as its starter sees it (`status` register), or why the
/// dispatcher stopped between two frames (the value is then the rest of the chain, its first
/// frame holding its callee's outcome). Keep in sync with `AsyncHelpers.Completed` ..
/// `ResumeNested` (stdlib/.../AsyncHelpers.RuntimeAsync.cs-lite); `vm/tests/contracts.rs` checks.
pub const COMPLETED: i32 = 0;
pub const SUSPENDED: i32 = 1;
pub const THREW: i32 = 2;
/// The next frame runs under the ExecutionContext it captured, which this run of the
/// dispatcher would not undo: resume the rest in one that does.
pub const SWITCH_CONTEXT: i32 = 3;
/// The next frame resumes on the SynchronizationContext it captured: Post the rest there.
pub const POST_TO_CONTEXT: i32 = 4;
/// The thread has a custom SynchronizationContext the next frame did not capture: queue the
/// rest to the thread pool.
pub const QUEUE_TO_POOL: i32 = 5;
/// Change handlers are involved: resume the rest in a nested run of the dispatcher, which
/// puts back the context the finished frame left when the rest stops, before this run puts
/// back its own (a classic caller's box runs inside its callee's completion, and each box
/// restores what it found), so the handlers hear of the same switches in both lowerings.
pub const RESUME_NESTED: i32 = 6;

impl Vm {
    /// `StartAsync` / `CallAsync`: pushes the body's frame like a call.
    pub(super) fn push_async_frame(&mut self, method: MethodId, base: usize, dst: Reg, kind: FrameKind) -> Result<Flow, InvokeError> {
        let Ok(MethodBody::Bytecode(fid)) = self.body_of(method) else {
            return Err(InvokeError::Fatal(format!("async body {} has no code", self.meta.method(method).name)));
        };
        if self.thread.frames.len() >= crate::runtime::thread::MAX_FRAMES {
            return Err(self.stack_overflow());
        }
        let nregs = self.functions[fid.0 as usize].num_regs as usize;
        self.thread.ensure_regs(base + nregs + 1);
        self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: dst, kind });
        Ok(Flow::Continue)
    }

    /// `AwaitSuspend`: saves frames into a chain up to the boundary and reports it there.
    pub(super) fn await_suspend(&mut self, awaiter: Value) -> Result<Flow, InvokeError> {
        // The awaiting frame captures the thread's contexts, each caller the ones it had at
        // its call (its callee's entry contexts).
        let mut contexts = (self.execution_context(), self.sync_context());
        // The ExecutionContexts the thread passes through as each frame gives its caller
        // back its contexts (a classic callee's Start restoring them), for change handlers.
        let mut switches = vec![contexts.0];
        let mut head: Option<GcRef> = None;
        let mut tail: Option<GcRef> = None;
        let mut awaiter = awaiter;
        let mut result_reg = Reg(0);
        let mut callee: Option<MethodId> = None;
        loop {
            let Some(frame) = self.thread.frames.pop() else {
                return Err(InvokeError::Fatal("await outside an async method".into()));
            };
            let link = self.save_continuation(frame, result_reg, std::mem::replace(&mut awaiter, Value::Null), contexts, callee)?;
            if self.tracing() {
                let site = self.await_site(frame.func, frame.pc);
                self.trace_suspended(link, site, SuspensionKind::Continuation);
            }
            let called_a_frame = callee.is_some();
            callee = Some(self.functions[frame.func.0 as usize].method);
            match tail {
                Some(t) => self.set_next(t, Some(link)),
                None => head = Some(link),
            }
            tail = Some(link);
            result_reg = frame.ret;
            match frame.kind {
                FrameKind::AsyncCall { entry_ec, entry_sc } => {
                    contexts = (entry_ec, entry_sc);
                    switches.push(entry_ec);
                    continue;
                }
                FrameKind::AsyncRoot { entry_ec, entry_sc } => {
                    // The synchronous caller goes on in its own contexts (rule 2).
                    self.set_contexts(entry_ec, entry_sc);
                    switches.push(entry_ec);
                    let chain = head.map_or(Value::Null, Value::Ref);
                    let flow = self.deliver_to_caller(frame.ret, SUSPENDED, chain);
                    self.notify_context_switches(&switches);
                    return Ok(flow);
                }
                FrameKind::Resumed { rest, payload, .. } => {
                    // Callees it called since it resumed leave it its own contexts (rule 2).
                    if called_a_frame {
                        self.set_contexts(contexts.0, contexts.1);
                    }
                    self.set_next(link, rest);
                    let chain = head.map_or(Value::Null, Value::Ref);
                    let flow = self.deliver_outcome(frame.ret, payload, SUSPENDED, chain);
                    self.notify_context_switches(&switches);
                    return Ok(flow);
                }
                _ => return Err(InvokeError::Fatal("await in a frame that cannot suspend".into())),
            }
        }
    }

    /// Saves the registers of `frame` that are live where it resumes, and the contexts it
    /// suspends in. `callee` is the runtime-async method it was calling (`None` for the
    /// frame that awaited). A frame resumed from a continuation refills that one (when
    /// continuations are reused): nothing is allocated, nothing is counted.
    fn save_continuation(
        &mut self,
        frame: Frame,
        result_reg: Reg,
        awaiter: Value,
        contexts: (Option<GcRef>, Option<GcRef>),
        callee: Option<MethodId>,
    ) -> Result<GcRef, InvokeError> {
        let site = self.suspend_site(frame.func, frame.pc);
        let base = frame.base as usize;
        let saved = |r: &Reg| self.thread.regs[base + r.0 as usize];
        let reused = match frame.kind {
            FrameKind::Resumed { from, .. } if self.options.reuse_continuations => Some(from),
            _ => None,
        };
        let (exec_ctx, sync_ctx) = (contexts.0.map_or(Value::Null, Value::Ref), contexts.1.map_or(Value::Null, Value::Ref));
        if let Some(link) = reused {
            let Some(Obj::Continuation(c)) = self.heap.get_mut(link) else {
                return Err(InvokeError::Fatal("a broken continuation chain".into()));
            };
            c.regs.clear();
            c.regs.extend(site.live.iter().map(saved));
            c.pc = frame.pc;
            c.live = site.live;
            c.result_reg = result_reg;
            c.awaiter = awaiter;
            c.exec_ctx = exec_ctx;
            c.sync_ctx = sync_ctx;
            c.continue_on_captured_context = callee.is_some();
            c.pending = None;
            if self.stats.enabled() {
                self.stats.suspensions += 1;
            }
            return Ok(link);
        }
        let regs: Vec<Value> = site.live.iter().map(saved).collect();
        if self.stats.enabled() {
            self.count_suspended_frame(&site, &regs, awaiter, callee);
        }
        let c = Continuation {
            next: None,
            func: frame.func,
            pc: frame.pc,
            live: site.live,
            regs,
            result_reg,
            awaiter,
            exec_ctx,
            sync_ctx,
            continue_on_captured_context: callee.is_some(),
            pending: None,
        };
        Ok(self.heap.alloc(Obj::Continuation(Box::new(c))))
    }

    /// The suspension site of `func` resuming at `pc` (sites are computed once per function).
    fn suspend_site(&mut self, func: FunctionId, pc: u32) -> SuspendSite {
        let sites = match self.suspend_sites.get(&func) {
            Some(s) => s.clone(),
            None => {
                let sites: Rc<[SuspendSite]> = liveness::suspend_sites(&self.functions[func.0 as usize], &self.meta).into();
                self.suspend_sites.insert(func, sites.clone());
                sites
            }
        };
        match sites.binary_search_by_key(&pc, |s| s.resume_pc) {
            Ok(i) => sites[i].clone(),
            // Not a suspension site of this function: keep every register.
            Err(_) => SuspendSite {
                resume_pc: pc,
                live: (0..self.functions[func.0 as usize].num_regs).map(Reg).collect(),
                in_try: false,
                result: None,
                awaiter: None,
            },
        }
    }

    /// `--stats`: the modeled `Continuation` of one frame. The awaiter itself is not part of
    /// .NET's continuation (the frame awaits through a call whose result slot it has).
    fn count_suspended_frame(&mut self, site: &SuspendSite, regs: &[Value], awaiter: Value, callee: Option<MethodId>) {
        let saved: Vec<Value> = site.live.iter().zip(regs).filter(|(r, _)| Some(**r) != site.awaiter).map(|(_, &v)| v).collect();
        let (context_slot, result) = match callee {
            Some(m) => {
                let ret = self.meta.method(m).ret;
                (false, self.task_result_of(ret).map(|t| self.inline_layout(t)))
            }
            None => self.awaiter_shape(awaiter),
        };
        let shape = ContinuationShape { context_slot, exception_slot: site.in_try, result };
        self.count_continuation(&saved, shape);
    }

    /// For the awaiting frame: whether its awaiter continues on the captured context (an
    /// unconfigured `Task`/`ValueTask` awaiter), and the layout of `GetResult`'s value.
    fn awaiter_shape(&mut self, awaiter: Value) -> (bool, Option<Layout>) {
        let Some(ty) = self.heap.get(awaiter.gc_ref().unwrap_or(GcRef(u32::MAX))).and_then(|o| match o {
            Obj::Instance(i) => Some(i.ty),
            _ => None,
        }) else {
            return (false, None);
        };
        let TypeKind::Named { def, args } = self.meta.types.kind(ty).clone() else { return (false, None) };
        let name = self.meta.type_def(def).name.as_str();
        let context = matches!(name, "TaskAwaiter" | "ValueTaskAwaiter");
        let result = args.first().map(|&t| self.inline_layout(t));
        (context, result)
    }

    /// `T` for `Task<T>` / `ValueTask<T>`.
    fn task_result_of(&self, t: TypeId) -> Option<TypeId> {
        let TypeKind::Named { def, args } = self.meta.types.kind(t) else { return None };
        let d = self.meta.type_def(*def);
        let is_task = d.namespace == "System.Threading.Tasks" && matches!(d.name.as_str(), "Task" | "ValueTask");
        if is_task {
            args.first().copied()
        } else {
            None
        }
    }

    fn set_next(&mut self, link: GcRef, next: Option<GcRef>) {
        if let Some(Obj::Continuation(c)) = self.heap.get_mut(link) {
            c.next = next;
        }
    }

    /// Writes `status` and `value` to the starter's registers `dst` and `dst + 1`.
    fn deliver_to_caller(&mut self, dst: Reg, status: i32, value: Value) -> Flow {
        if let Some(f) = self.thread.frames.last() {
            let i = f.base as usize + dst.0 as usize;
            self.thread.ensure_regs(i + 2);
            self.thread.regs[i] = Value::I32(status);
            self.thread.regs[i + 1] = value;
        }
        Flow::Continue
    }

    /// The dispatcher's outcome: the status as `ResumeChain`'s result, the value through its
    /// `ref` argument.
    fn deliver_outcome(&mut self, dst: Reg, payload: GcRef, status: i32, value: Value) -> Flow {
        self.write_ref(Value::Ref(payload), value);
        if let Some(f) = self.thread.frames.last() {
            let i = f.base as usize + dst.0 as usize;
            self.thread.regs[i] = Value::I32(status);
        }
        Flow::Continue
    }

    /// `AsyncHelpers.ResumeChain(chain, ref payload, restoresContexts)` at register `base`:
    /// resumes the innermost frame of the chain (with its callee's outcome, if the chain
    /// stopped after one).
    pub(super) fn resume_chain(&mut self, base: usize, dst: Reg) -> Result<Flow, InvokeError> {
        let chain = self.thread.regs.get(base).and_then(|v| v.gc_ref());
        let payload = self.thread.regs.get(base + 1).and_then(|v| v.gc_ref());
        let restores_contexts = matches!(self.thread.regs.get(base + 2), Some(Value::Bool(true)));
        let (Some(chain), Some(payload)) = (chain, payload) else {
            return Err(InvokeError::Fatal("ResumeChain without a chain".into()));
        };
        let pending = match self.heap.get_mut(chain) {
            Some(Obj::Continuation(c)) => c.pending.take(),
            _ => None,
        };
        match pending {
            Some(outcome) => self.resume_with(chain, base, dst, payload, restores_contexts, outcome),
            None => self.push_continuation(chain, base, dst, payload, restores_contexts, None, None),
        }
    }

    /// Restores continuation `link` as a frame at `base`, under the ExecutionContext it
    /// captured unless flow was suppressed then (change handlers hear of the switch before
    /// the frame runs); `result` (if any) goes into its result register, `exception` (if
    /// any) is thrown again at the call the frame suspended in.
    #[allow(clippy::too_many_arguments)]
    fn push_continuation(
        &mut self,
        link: GcRef,
        base: usize,
        dst: Reg,
        payload: GcRef,
        restores_contexts: bool,
        result: Option<Value>,
        exception: Option<Value>,
    ) -> Result<Flow, InvokeError> {
        let Some(Obj::Continuation(c)) = self.heap.get(link) else {
            return Err(InvokeError::Fatal("a broken continuation chain".into()));
        };
        let (func, pc, next, result_reg, exec_ctx) = (c.func, c.pc, c.next, c.result_reg, c.exec_ctx.gc_ref());
        let n = self.functions[func.0 as usize].num_regs as usize;
        if self.tracing() {
            self.trace_resumed(link);
        }
        let previous = self.execution_context();
        if self.context_flows(exec_ctx) {
            self.set_execution_context(exec_ctx);
        }
        self.thread.ensure_regs(base + n + 1);
        self.thread.regs[base..base + n].fill(Value::Null);
        if self.stats.enabled() {
            self.stats.resumptions += 1;
        }
        if let Some(Obj::Continuation(c)) = self.heap.get(link) {
            for (r, &v) in c.live.iter().zip(&c.regs) {
                self.thread.regs[base + r.0 as usize] = v;
            }
        }
        if let Some(v) = result {
            self.thread.regs[base + result_reg.0 as usize] = v;
        }
        let kind = FrameKind::Resumed { rest: next, payload, from: link, restores_contexts };
        self.thread.frames.push(Frame { func, pc, base: base as u32, ret: dst, kind });
        if self.notify_context_switch(previous, exception.and_then(|e| e.gc_ref())) {
            return Ok(Flow::Continue);
        }
        match exception {
            Some(exc) => {
                let pc = self.thread.frames.last().map_or(0, |f| f.pc.saturating_sub(1));
                self.throw_from_current(exc, pc, true)
            }
            None => Ok(Flow::Continue),
        }
    }

    /// Resumes `link` with its callee's outcome: the value of its call, or the exception
    /// thrown again at the call.
    fn resume_with(&mut self, link: GcRef, base: usize, dst: Reg, payload: GcRef, restores_contexts: bool, outcome: Outcome) -> Result<Flow, InvokeError> {
        match outcome {
            Outcome::Returned(v) => self.push_continuation(link, base, dst, payload, restores_contexts, Some(v), None),
            Outcome::Threw(exc) => self.push_continuation(link, base, dst, payload, restores_contexts, None, Some(exc)),
        }
    }

    /// A resumed frame (popped) ended with `outcome`: its suspended caller `next` resumes
    /// here, or the chain stops and the dispatcher sends the rest where it must run.
    fn resume_caller(&mut self, frame: Frame, next: GcRef, payload: GcRef, restores_contexts: bool, outcome: Outcome) -> Result<Flow, InvokeError> {
        match self.stop_before(next, restores_contexts) {
            Some(status) => {
                if let Some(Obj::Continuation(c)) = self.heap.get_mut(next) {
                    c.pending = Some(outcome);
                }
                Ok(self.deliver_outcome(frame.ret, payload, status, Value::Ref(next)))
            }
            None => self.resume_with(next, frame.base as usize, frame.ret, payload, restores_contexts, outcome),
        }
    }

    /// Why the dispatcher must stop before resuming `next` on this thread, if it must
    /// (CoreLib's QueueContinuationFollowUpActionIfNecessary, and AB-4's flow rule).
    fn stop_before(&self, next: GcRef, restores_contexts: bool) -> Option<i32> {
        let Some(Obj::Continuation(c)) = self.heap.get(next) else { return None };
        let (exec_ctx, captured, on_captured) = (c.exec_ctx.gc_ref(), c.sync_ctx.gc_ref(), c.continue_on_captured_context);
        let current = self.sync_context();
        if on_captured && self.is_custom_sync_context(captured) {
            if current != captured {
                return Some(POST_TO_CONTEXT);
            }
        } else if self.is_custom_sync_context(current) {
            return Some(QUEUE_TO_POOL);
        }
        if self.context_flows(exec_ctx) {
            if !restores_contexts {
                return Some(SWITCH_CONTEXT);
            }
            if self.has_change_notifications(exec_ctx) || self.has_change_notifications(self.execution_context()) {
                return Some(RESUME_NESTED);
            }
        }
        None
    }

    /// A runtime-async frame returned `v`: to its async caller (a normal return), to the
    /// next continuation of the chain, or to whoever started the chain.
    pub(super) fn async_frame_returned(&mut self, frame: Frame, v: Value) -> Result<Flow, InvokeError> {
        match frame.kind {
            FrameKind::AsyncRoot { entry_ec, entry_sc } => {
                let previous = self.execution_context();
                self.set_contexts(entry_ec, entry_sc);
                let flow = self.deliver_to_caller(frame.ret, COMPLETED, v);
                self.notify_context_switch(previous, None);
                Ok(flow)
            }
            FrameKind::Resumed { rest: Some(next), payload, restores_contexts, .. } => {
                self.resume_caller(frame, next, payload, restores_contexts, Outcome::Returned(v))
            }
            FrameKind::Resumed { rest: None, payload, .. } => Ok(self.deliver_outcome(frame.ret, payload, COMPLETED, v)),
            _ => Err(InvokeError::Fatal("not an async frame".into())),
        }
    }

    /// An exception left a runtime-async boundary frame (already popped): it becomes the
    /// outcome of the chain, or is thrown again in the next suspended caller, at its call.
    pub(super) fn async_frame_threw(&mut self, frame: Frame, exc: Value) -> Result<Flow, InvokeError> {
        match frame.kind {
            FrameKind::AsyncRoot { entry_ec, entry_sc } => {
                let previous = self.execution_context();
                self.set_contexts(entry_ec, entry_sc);
                let flow = self.deliver_to_caller(frame.ret, THREW, exc);
                self.notify_context_switch(previous, None);
                Ok(flow)
            }
            FrameKind::Resumed { rest: Some(next), payload, restores_contexts, .. } => {
                self.resume_caller(frame, next, payload, restores_contexts, Outcome::Threw(exc))
            }
            FrameKind::Resumed { rest: None, payload, .. } => Ok(self.deliver_outcome(frame.ret, payload, THREW, exc)),
            _ => Err(InvokeError::Fatal("not an async boundary".into())),
        }
    }
}

impl Vm {
    /// The running thread's ExecutionContext (`Thread._executionContext`; `None` is the
    /// default context).
    pub fn execution_context(&self) -> Option<GcRef> {
        let obj = self.sched.threads[self.sched.current].object?;
        let slot = self.thread_ec_slot?;
        self.get_field(Value::Ref(obj), slot).gc_ref()
    }

    /// Installs `ec` as the running thread's context, without change notifications (the
    /// runtime-async frames' save and restore; `notify_context_switch` follows).
    pub fn set_execution_context(&mut self, ec: Option<GcRef>) {
        let previous = self.execution_context();
        if previous == ec {
            return;
        }
        self.set_thread_field(self.thread_ec_slot, ec);
        if self.tracing() {
            self.trace_context_switched(previous, ec);
        }
    }

    /// After the interpreter switched the running thread from ExecutionContext `previous`
    /// to the current one: if an AsyncLocal change handler must hear of it (either context
    /// has some), pushes a frame running `ExecutionContext.OnValuesChanged(previous,
    /// current)`, so that the handlers run before the frame below goes on, as they do
    /// inside the library's switches (AL-8). With `rethrow`, that frame throws the
    /// exception again once the handlers ran. Returns whether it pushed the frame.
    pub fn notify_context_switch(&mut self, previous: Option<GcRef>, rethrow: Option<GcRef>) -> bool {
        let current = self.execution_context();
        self.push_notification(previous, current, rethrow)
    }

    /// The same for a thread that went through the contexts `ecs` in turn (the last is the
    /// current one): the handlers hear of each switch, in order.
    fn notify_context_switches(&mut self, ecs: &[Option<GcRef>]) {
        for pair in ecs.windows(2).rev() {
            self.push_notification(pair[0], pair[1], None);
        }
    }

    /// Pushes the frame that tells the change handlers of the switch from `previous` to
    /// `next`, if there is anything to tell.
    fn push_notification(&mut self, previous: Option<GcRef>, next: Option<GcRef>, rethrow: Option<GcRef>) -> bool {
        if previous == next || !(self.has_change_notifications(previous) || self.has_change_notifications(next)) {
            return false;
        }
        let Some(method) = self.on_values_changed else { return false };
        let Ok(MethodBody::Bytecode(fid)) = self.body_of(method) else { return false };
        let base = self.free_register_base();
        let nregs = self.functions[fid.0 as usize].num_regs as usize;
        self.thread.ensure_regs(base + nregs.max(2) + 1);
        self.thread.regs[base] = previous.map_or(Value::Null, Value::Ref);
        self.thread.regs[base + 1] = next.map_or(Value::Null, Value::Ref);
        self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: Reg(0), kind: FrameKind::Notification { rethrow } });
        true
    }

    /// Whether `ec` (null: Default) lists AsyncLocals with change handlers.
    fn has_change_notifications(&self, ec: Option<GcRef>) -> bool {
        let (Some(ec), Some(slot)) = (ec, self.ec_notifications_slot) else { return false };
        !matches!(self.get_field(Value::Ref(ec), slot), Value::Null)
    }

    /// The running thread's SynchronizationContext (`Thread._synchronizationContext`).
    pub fn sync_context(&self) -> Option<GcRef> {
        let obj = self.sched.threads[self.sched.current].object?;
        let slot = self.thread_sc_slot?;
        self.get_field(Value::Ref(obj), slot).gc_ref()
    }

    /// Installs both contexts on the running thread (no notifications).
    pub fn set_contexts(&mut self, ec: Option<GcRef>, sc: Option<GcRef>) {
        self.set_execution_context(ec);
        if self.sync_context() != sc {
            self.set_thread_field(self.thread_sc_slot, sc);
        }
    }

    fn set_thread_field(&mut self, slot: Option<u16>, value: Option<GcRef>) {
        let Some(slot) = slot else { return };
        let t = self.sched.current;
        let Ok(obj) = crate::runtime::intrinsics::threading::thread_object(self, t) else { return };
        self.set_field(obj, slot, value.map_or(Value::Null, Value::Ref));
    }

    /// Whether an ExecutionContext captured at a suspension flows to the resumed frame:
    /// any but a flow-suppressed one (`ExecutionContext.Capture` would have given null).
    pub fn context_flows(&self, ec: Option<GcRef>) -> bool {
        let (Some(ec), Some(slot)) = (ec, self.ec_suppressed_slot) else { return true };
        !matches!(self.get_field(Value::Ref(ec), slot), Value::Bool(true))
    }

    /// A SynchronizationContext that wants continuations back: present and not of exactly
    /// the base type.
    pub fn is_custom_sync_context(&self, sc: Option<GcRef>) -> bool {
        sc.is_some_and(|r| self.type_of(Value::Ref(r)) != self.base_sync_ctx_type)
    }
}

/// Frames where an exception stops being thrown and becomes an async outcome.
pub(super) fn is_async_boundary(kind: FrameKind) -> bool {
    matches!(kind, FrameKind::AsyncRoot { .. } | FrameKind::Resumed { .. })
}
