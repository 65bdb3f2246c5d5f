//! Exception unwinding: find the innermost handler whose protected range covers the
//! faulting instruction, frame by frame, recording each frame in the exception's stack
//! trace; hand the exception back to Rust if it escapes the entry frame.

use super::{Flow, InvokeError};
use crate::bytecode::HandlerKind;
use crate::runtime::native::NativeError;
use crate::runtime::thread::FrameKind;
use crate::runtime::types::InitState;
use crate::runtime::value::Value;
use crate::runtime::Vm;

impl Vm {
    /// Throws `exc` from instruction `pc` of the top frame. A rethrow keeps the exception's
    /// stack trace; a `throw` starts a new one.
    pub(super) fn throw_from_current(
        &mut self,
        exc: Value,
        pc: u32,
        rethrow: bool,
    ) -> Result<Flow, InvokeError> {
        let Some(frame) = self.thread.frames.last().copied() else {
            return Err(InvokeError::Exception(exc));
        };
        let method = self.functions[frame.func.0 as usize].method;
        if rethrow {
            self.extend_trace(exc, method, pc);
        } else {
            self.begin_trace(exc, method, pc);
        }
        if !self.will_be_caught(exc, pc) {
            return Err(self.escape_unhandled(exc));
        }
        self.unwind(exc, pc)
    }

    /// .NET's first pass: is there a `catch` for `exc` anywhere on the stack? If not, the
    /// process dies without running any `finally` block. A filter counts as a catch (it
    /// runs during unwinding here, not in a first pass).
    fn will_be_caught(&mut self, exc: Value, pc: u32) -> bool {
        let functions = self.functions.clone();
        let mut pc = pc;
        for i in (0..self.thread.frames.len()).rev() {
            let frame = self.thread.frames[i];
            if i + 1 < self.thread.frames.len() {
                pc = frame.pc.saturating_sub(1);
            }
            for h in &functions[frame.func.0 as usize].handlers {
                if h.start.0 <= pc && pc < h.end.0 {
                    if let HandlerKind::Catch(ty) | HandlerKind::Filter(ty) = h.kind {
                        if self.is_instance(exc, ty) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Records the rest of the stack in the trace of an exception nobody catches and pops
    /// the frames up to the innermost entry frame.
    fn escape_unhandled(&mut self, exc: Value) -> InvokeError {
        while let Some(frame) = self.thread.frames.pop() {
            if frame.kind == FrameKind::Entry {
                break;
            }
            if let Some(caller) = self.thread.frames.last().copied() {
                let method = self.functions[caller.func.0 as usize].method;
                self.extend_trace(exc, method, caller.pc.saturating_sub(1));
            }
        }
        InvokeError::Exception(exc)
    }

    fn unwind(&mut self, exc: Value, mut pc: u32) -> Result<Flow, InvokeError> {
        let functions = self.functions.clone();
        loop {
            let Some(frame) = self.thread.frames.last().copied() else {
                return Err(InvokeError::Exception(exc));
            };
            let func = &functions[frame.func.0 as usize];
            for h in &func.handlers {
                if !(h.start.0 <= pc && pc < h.end.0) {
                    continue;
                }
                let taken = match h.kind {
                    HandlerKind::Catch(ty) | HandlerKind::Filter(ty) => self.is_instance(exc, ty),
                    HandlerKind::Finally => true,
                };
                if taken {
                    let reg = frame.base as usize + h.reg.0 as usize;
                    self.thread.regs[reg] = exc;
                    if let Some(f) = self.thread.frames.last_mut() {
                        f.pc = h.entry.0;
                    }
                    return Ok(Flow::Continue);
                }
            }
            self.thread.frames.pop();
            match frame.kind {
                FrameKind::Entry => return Err(InvokeError::Exception(exc)),
                FrameKind::StaticCtor(ty) => self.set_init_state(ty, InitState::Done),
                FrameKind::Normal => {}
            }
            let Some(caller) = self.thread.frames.last().copied() else {
                return Err(InvokeError::Exception(exc));
            };
            pc = caller.pc.saturating_sub(1);
            let method = functions[caller.func.0 as usize].method;
            self.extend_trace(exc, method, pc);
        }
    }

    /// Turns an intrinsic's failure at instruction `pc` into a throw, an exit or a fault.
    pub(super) fn native_failure(&mut self, e: NativeError, pc: u32) -> Result<Flow, InvokeError> {
        match e {
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
