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
use crate::bytecode::{FunctionId, Reg};
use crate::metadata::{MethodBody, MethodId};
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
        let MethodBody::Bytecode(fid) = self.meta.method(method).body else {
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
        let mut head: Option<GcRef> = None;
        let mut tail: Option<GcRef> = None;
        let mut awaiter = awaiter;
        let mut result_reg = Reg(0);
        loop {
            let Some(frame) = self.thread.frames.pop() else {
                return Err(InvokeError::Fatal("await outside an async method".into()));
            };
            let link = self.save_continuation(frame, result_reg, std::mem::replace(&mut awaiter, Value::Null));
            match tail {
                Some(t) => self.set_next(t, Some(link)),
                None => head = Some(link),
            }
            tail = Some(link);
            result_reg = frame.ret;
            match frame.kind {
                FrameKind::AsyncCall => continue,
                FrameKind::AsyncRoot => {
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

    fn save_continuation(&mut self, frame: Frame, result_reg: Reg, awaiter: Value) -> GcRef {
        let n = self.functions[frame.func.0 as usize].num_regs as usize;
        let base = frame.base as usize;
        let regs = self.thread.regs[base..base + n].to_vec();
        let c = Continuation { next: None, func: frame.func, pc: frame.pc, regs, result_reg, awaiter };
        self.heap.alloc(Obj::Continuation(Box::new(c)))
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
        let (func, pc, next, result_reg) = (c.func, c.pc, c.next, c.result_reg);
        let n = c.regs.len();
        self.thread.ensure_regs(base + n + 1);
        if let Some(Obj::Continuation(c)) = self.heap.get(link) {
            self.thread.regs[base..base + n].copy_from_slice(&c.regs);
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
            FrameKind::AsyncRoot => Ok(self.deliver_to_caller(frame.ret, COMPLETED, v)),
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
            FrameKind::AsyncRoot => Ok(self.deliver_to_caller(frame.ret, THREW, exc)),
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

/// Frames where an exception stops being thrown and becomes an async outcome.
pub(super) fn is_async_boundary(kind: FrameKind) -> bool {
    matches!(kind, FrameKind::AsyncRoot | FrameKind::Resumed { .. })
}
