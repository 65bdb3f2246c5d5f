//! Iterators as suspended frames. An iterator method returns an `Iterator<T>` holding its
//! arguments; `MoveNext` pushes the method's body as a frame (restoring its registers if it
//! ran before) and `yield return` saves them back and returns `true` to the caller. No
//! state machine is generated: the frame itself is the state. `Dispose` resumes a suspended
//! frame with a flag that makes it leave through its `finally` blocks.

use super::{Flow, InvokeError};
use crate::bytecode::Reg;
use crate::metadata::{MethodBody, MethodId, TypeId};
use crate::runtime::heap::GcRef;
use crate::runtime::native::ExceptionKind;
use crate::runtime::object::{Generator, GeneratorState, Obj};
use crate::runtime::thread::{Frame, FrameKind};
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// The intrinsics that resume an iterator's frame; the registry lists them first.
pub use crate::runtime::intrinsics::frames::{ITERATOR_DISPOSE, ITERATOR_MOVE_NEXT};

impl Vm {
    pub(super) fn make_generator(&mut self, ty: TypeId, body: MethodId, args: &[Value]) -> Value {
        let g = Generator {
            ty,
            body,
            args: args.into(),
            regs: Vec::new(),
            pc: 0,
            resume: Reg(0),
            current: Value::Null,
            state: GeneratorState::Fresh,
            enumerated: false,
        };
        Value::Ref(self.heap.alloc(Obj::Generator(Box::new(g))))
    }

    /// `MoveNext` (or `Dispose`, when `disposing`) on the iterator in register `base`; the
    /// result goes to the caller's `dst`.
    pub(super) fn resume_generator(&mut self, base: usize, dst: Reg, disposing: bool) -> Result<Flow, InvokeError> {
        let Some(iterator) = self.thread.regs.get(base).and_then(|v| v.gc_ref()) else {
            return Err(InvokeError::Exception(self.new_exception(ExceptionKind::NullReference, None)));
        };
        let Some(Obj::Generator(g)) = self.heap.get_mut(iterator) else {
            return Err(InvokeError::Fatal("MoveNext on something that is not an iterator".into()));
        };
        let finished = if disposing { Value::Null } else { Value::Bool(false) };
        let (pc, resume) = match g.state {
            GeneratorState::Done => return Ok(self.finish_call(dst, finished)),
            GeneratorState::Fresh if disposing => {
                g.state = GeneratorState::Done;
                return Ok(self.finish_call(dst, finished));
            }
            GeneratorState::Running => {
                let exc = self.new_exception(ExceptionKind::InvalidOperation, Some("The iterator is already running."));
                return Err(InvokeError::Exception(exc));
            }
            GeneratorState::Fresh => {
                g.regs.clear();
                g.regs.extend_from_slice(&g.args);
                (0, None)
            }
            GeneratorState::Suspended => (g.pc, Some(g.resume)),
        };
        g.state = GeneratorState::Running;
        let body = g.body;
        let MethodBody::Bytecode(fid) = self.body_of(body).map_err(InvokeError::Fatal)? else {
            return Err(InvokeError::Fatal("an iterator without a body".into()));
        };
        let nregs = self.functions[fid.0 as usize].num_regs as usize;
        self.thread.ensure_regs(base + nregs + 1);
        if let Some(Obj::Generator(g)) = self.heap.get(iterator) {
            let n = g.regs.len().min(nregs.max(g.regs.len()));
            self.thread.regs[base..base + n].copy_from_slice(&g.regs[..n]);
        }
        if let Some(r) = resume {
            self.thread.regs[base + r.0 as usize] = Value::Bool(disposing);
        }
        self.thread.frames.push(Frame { func: fid, pc, base: base as u32, ret: dst, kind: FrameKind::Generator { iterator, disposing } });
        Ok(Flow::Continue)
    }

    /// `yield return value` in the top frame: keep its registers and where to go on, and
    /// return `true` from `MoveNext`.
    pub(super) fn yield_return(&mut self, value: Value, next_pc: u32, resume: Reg) -> Result<Flow, InvokeError> {
        let Some(frame) = self.thread.frames.pop() else { return Err(InvokeError::Fatal("yield without a frame".into())) };
        let FrameKind::Generator { iterator, .. } = frame.kind else {
            return Err(InvokeError::Fatal("yield return outside an iterator".into()));
        };
        let nregs = self.functions[frame.func.0 as usize].num_regs as usize;
        let base = frame.base as usize;
        if let Some(Obj::Generator(g)) = self.heap.get_mut(iterator) {
            g.regs.clear();
            g.regs.extend_from_slice(&self.thread.regs[base..base + nregs]);
            g.pc = next_pc;
            g.resume = resume;
            g.current = value;
            g.state = GeneratorState::Suspended;
        }
        Ok(self.finish_call(frame.ret, Value::Bool(true)))
    }

    /// The iterator's frame ended (its body returned or threw, or `Dispose` finished it).
    pub(super) fn generator_finished(&mut self, iterator: GcRef) {
        if let Some(Obj::Generator(g)) = self.heap.get_mut(iterator) {
            g.state = GeneratorState::Done;
            g.regs = Vec::new();
            g.current = Value::Null;
        }
    }

    fn finish_call(&mut self, dst: Reg, v: Value) -> Flow {
        if let Some(f) = self.thread.frames.last() {
            let i = f.base as usize + dst.0 as usize;
            self.thread.regs[i] = v;
        }
        Flow::Continue
    }
}
