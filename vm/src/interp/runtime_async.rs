//! Runtime async (.NET 11's design): an async method runs in an ordinary frame, and only
//! when an `await` finds its awaiter incomplete is anything allocated. `AwaitSuspend`
//! turns the frame and its runtime-async callers into a chain of continuations (one per
//! frame, innermost first), popping them, until it reaches the boundary that started the
//! chain: a task-returning stub (`StartAsync`, which then makes the method's `Task`) or the
//! dispatcher (`AsyncHelpers.ResumeChain`, which re-subscribes). The dispatcher resumes a
//! chain innermost first: each frame's result becomes the value of its caller's call, an
//! exception is thrown again at the caller's call site, so `try` blocks work across frames.
//! No Rust recursion is involved.

use super::{Flow, InvokeError};
use std::rc::Rc;

use crate::bytecode::liveness::{self, SuspendSite};
use crate::bytecode::{FunctionId, Reg};
use crate::metadata::{MethodBody, MethodId, TypeId, TypeKind};
use crate::runtime::clr_size::Layout;
use crate::runtime::stats::ContinuationShape;
use crate::runtime::heap::GcRef;
use crate::runtime::native::NativeId;
use crate::runtime::object::{Continuation, Obj};
use crate::runtime::thread::{Frame, FrameKind};
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// `AsyncHelpers.ResumeChain`: like the iterator intrinsics, the interpreter handles it.
pub const RESUME_CHAIN: NativeId = NativeId(2);

/// How a runtime-async body ended, as its starter sees it (`status` register).
pub const COMPLETED: i32 = 0;
pub const SUSPENDED: i32 = 1;
pub const THREW: i32 = 2;

impl Vm {
    /// `StartAsync` / `CallAsync`: pushes the body's frame like a call.
    pub(super) fn push_async_frame(&mut self, method: MethodId, base: usize, dst: Reg, kind: FrameKind) -> Result<Flow, InvokeError> {
        let Ok(MethodBody::Bytecode(fid)) = self.body_of(method) else {
            return Err(InvokeError::Fatal(format!("async body {} has no code", self.meta.method(method).name)));
        };
        if self.thread.frames.len() >= crate::runtime::thread::MAX_FRAMES {
            return Err(InvokeError::Fatal("Stack overflow.".into()));
        }
        let nregs = self.functions[fid.0 as usize].num_regs as usize;
        self.thread.ensure_regs(base + nregs + 1);
        self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: dst, kind });
        Ok(Flow::Continue)
    }

    /// `AwaitSuspend`: saves frames into a chain up to the boundary and reports it there.
    pub(super) fn await_suspend(&mut self, awaiter: Value) -> Result<Flow, InvokeError> {
        let exec_ctx = self.execution_context().map_or(Value::Null, Value::Ref);
        let mut head: Option<GcRef> = None;
        let mut tail: Option<GcRef> = None;
        let mut awaiter = awaiter;
        let mut result_reg = Reg(0);
        let mut callee: Option<MethodId> = None;
        loop {
            let Some(frame) = self.thread.frames.pop() else {
                return Err(InvokeError::Fatal("await outside an async method".into()));
            };
            let link = self.save_continuation(frame, result_reg, std::mem::replace(&mut awaiter, Value::Null), exec_ctx, callee);
            callee = Some(self.functions[frame.func.0 as usize].method);
            match tail {
                Some(t) => self.set_next(t, Some(link)),
                None => head = Some(link),
            }
            tail = Some(link);
            result_reg = frame.ret;
            match frame.kind {
                FrameKind::AsyncCall { .. } => continue,
                FrameKind::AsyncRoot { entry_ec } => {
                    // The synchronous caller goes on in its own context (rule 2).
                    self.set_execution_context(entry_ec);
                    let chain = head.map_or(Value::Null, Value::Ref);
                    return Ok(self.deliver_to_caller(frame.ret, SUSPENDED, chain));
                }
                FrameKind::Resumed { rest, payload } => {
                    self.set_next(link, rest);
                    let chain = head.map_or(Value::Null, Value::Ref);
                    return Ok(self.deliver_outcome(frame.ret, payload, SUSPENDED, chain));
                }
                _ => return Err(InvokeError::Fatal("await in a frame that cannot suspend".into())),
            }
        }
    }

    /// Saves the registers of `frame` that are live where it resumes. `callee` is the
    /// runtime-async method it was calling (`None` for the frame that awaited).
    fn save_continuation(&mut self, frame: Frame, result_reg: Reg, awaiter: Value, exec_ctx: Value, callee: Option<MethodId>) -> GcRef {
        let site = self.suspend_site(frame.func, frame.pc);
        let base = frame.base as usize;
        let regs: Vec<Value> = site.live.iter().map(|r| self.thread.regs[base + r.0 as usize]).collect();
        if self.stats.enabled() {
            self.count_suspended_frame(&site, &regs, awaiter, callee);
        }
        let c = Continuation { next: None, func: frame.func, pc: frame.pc, live: site.live, regs, result_reg, awaiter, exec_ctx };
        self.heap.alloc(Obj::Continuation(Box::new(c)))
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
        if is_task { args.first().copied() } else { None }
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

    /// `AsyncHelpers.ResumeChain(chain, ref payload)` at register `base`: resumes the
    /// innermost frame of the chain.
    pub(super) fn resume_chain(&mut self, base: usize, dst: Reg) -> Result<Flow, InvokeError> {
        let chain = self.thread.regs.get(base).and_then(|v| v.gc_ref());
        let payload = self.thread.regs.get(base + 1).and_then(|v| v.gc_ref());
        let (Some(chain), Some(payload)) = (chain, payload) else {
            return Err(InvokeError::Fatal("ResumeChain without a chain".into()));
        };
        self.push_continuation(chain, base, dst, payload, None)?;
        Ok(Flow::Continue)
    }

    /// Restores continuation `link` as a frame at `base`; `result` (if any) goes into its
    /// result register.
    fn push_continuation(&mut self, link: GcRef, base: usize, dst: Reg, payload: GcRef, result: Option<Value>) -> Result<FunctionId, InvokeError> {
        let Some(Obj::Continuation(c)) = self.heap.get(link) else {
            return Err(InvokeError::Fatal("a broken continuation chain".into()));
        };
        let (func, pc, next, result_reg, exec_ctx) = (c.func, c.pc, c.next, c.result_reg, c.exec_ctx);
        let n = self.functions[func.0 as usize].num_regs as usize;
        self.set_execution_context(exec_ctx.gc_ref());
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
        self.thread.frames.push(Frame { func, pc, base: base as u32, ret: dst, kind: FrameKind::Resumed { rest: next, payload } });
        Ok(func)
    }

    /// A runtime-async frame returned `v`: to its async caller (a normal return), to the
    /// next continuation of the chain, or to whoever started the chain.
    pub(super) fn async_frame_returned(&mut self, frame: Frame, v: Value) -> Result<Flow, InvokeError> {
        match frame.kind {
            FrameKind::AsyncRoot { entry_ec } => {
                self.set_execution_context(entry_ec);
                Ok(self.deliver_to_caller(frame.ret, COMPLETED, v))
            }
            FrameKind::Resumed { rest: Some(next), payload } => {
                self.push_continuation(next, frame.base as usize, frame.ret, payload, Some(v))?;
                Ok(Flow::Continue)
            }
            FrameKind::Resumed { rest: None, payload } => Ok(self.deliver_outcome(frame.ret, payload, COMPLETED, v)),
            _ => Err(InvokeError::Fatal("not an async frame".into())),
        }
    }

    /// An exception left a runtime-async boundary frame (already popped): it becomes the
    /// outcome of the chain, or is thrown again in the next suspended caller, at its call.
    pub(super) fn async_frame_threw(&mut self, frame: Frame, exc: Value) -> Result<Flow, InvokeError> {
        match frame.kind {
            FrameKind::AsyncRoot { entry_ec } => {
                self.set_execution_context(entry_ec);
                Ok(self.deliver_to_caller(frame.ret, THREW, exc))
            }
            FrameKind::Resumed { rest: Some(next), payload } => {
                self.push_continuation(next, frame.base as usize, frame.ret, payload, None)?;
                let pc = self.thread.frames.last().map_or(0, |f| f.pc.saturating_sub(1));
                self.throw_from_current(exc, pc, true)
            }
            FrameKind::Resumed { rest: None, payload } => Ok(self.deliver_outcome(frame.ret, payload, THREW, exc)),
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
    /// runtime-async frames' save and restore).
    pub fn set_execution_context(&mut self, ec: Option<GcRef>) {
        if self.execution_context() == ec {
            return;
        }
        let Some(slot) = self.thread_ec_slot else { return };
        let t = self.sched.current;
        let Ok(obj) = crate::runtime::intrinsics::threading::thread_object(self, t) else { return };
        self.set_field(obj, slot, ec.map_or(Value::Null, Value::Ref));
    }
}

/// Frames where an exception stops being thrown and becomes an async outcome.
pub(super) fn is_async_boundary(kind: FrameKind) -> bool {
    matches!(kind, FrameKind::AsyncRoot { .. } | FrameKind::Resumed { .. })
}
