//! `MethodBase.Invoke` and friends: a call chosen at run time, by metadata id, with its
//! arguments in an `object[]` (value-type parameters get the boxes' contents, virtual
//! methods dispatch on the target), and a class constructor run on request. Both are
//! frame-switching intrinsics: the called method's frame is pushed as for any call, and its
//! result reaches the cs-lite caller (`stdlib/System/Reflection/ReflectionCore.cs-lite`)
//! unboxed, which boxes it by the method's return type.

use super::{Flow, InvokeError};
use crate::bytecode::Reg;
use crate::metadata::{MethodId, TypeId};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub use crate::runtime::intrinsics::frames::{INVOKE_METHOD, RUN_CLASS_CONSTRUCTOR};

impl Vm {
    /// The instruction calling the intrinsic (the frame's pc is already past it).
    fn calling_pc(&self) -> u32 {
        self.thread.frames.last().map_or(0, |f| f.pc.saturating_sub(1))
    }

    /// Runs `ty`'s class constructor if it has not run: `true` when its frame was pushed
    /// (the calling instruction runs again after it).
    fn init_before_reflection(&mut self, ty: TypeId, call_pc: u32) -> bool {
        if !self.needs_type_init(ty) {
            return false;
        }
        if let Some(f) = self.thread.frames.last_mut() {
            f.pc = call_pc;
        }
        if self.start_type_init(ty) {
            return true;
        }
        if let Some(f) = self.thread.frames.last_mut() {
            f.pc = call_pc + 1;
        }
        false
    }

    pub(super) fn run_class_constructor(&mut self, base: usize) -> Result<Flow, InvokeError> {
        let call_pc = self.calling_pc();
        if let Some(ty) = self.reflection_type_at(base) {
            self.init_before_reflection(ty, call_pc);
        }
        Ok(Flow::Continue)
    }

    fn reflection_type_at(&self, reg: usize) -> Option<TypeId> {
        match self.heap.get(self.thread.regs.get(reg)?.gc_ref()?)? {
            crate::runtime::object::Obj::Type(t) => Some(*t),
            _ => None,
        }
    }

    pub(super) fn invoke_reflected(&mut self, base: usize, dst: Reg) -> Result<Flow, InvokeError> {
        let call_pc = self.calling_pc();
        let reg = |i: usize| self.thread.regs.get(base + i).copied().unwrap_or(Value::Null);
        let (id, target, args) = (reg(0).as_i32().unwrap_or(-1), reg(1), reg(2));
        let Some(method) = usize::try_from(id).ok().filter(|&i| i < self.meta.methods.len()).map(|i| MethodId(i as u32)) else {
            return Err(InvokeError::Fatal("Invoke of an unknown method".into()));
        };
        let declaring = self.reflection_type_at(base + 3);
        let md = self.meta.method(method);
        let is_static = md.is_static();
        if is_static {
            if let Some(ty) = declaring {
                if self.init_before_reflection(ty, call_pc) {
                    return Ok(Flow::Continue);
                }
            }
        }
        let method = if is_static { Some(method) } else { self.resolve_virtual(method, target) };
        let Some(method) = method else { return Err(InvokeError::Fatal("Invoke without an implementation for the target".into())) };
        let mut window = Vec::new();
        if !is_static {
            window.push(self.unboxed_view(target));
        }
        let items = self.array_items(args).map(<[Value]>::to_vec).unwrap_or_default();
        let params: Vec<TypeId> = self.meta.method(method).params.iter().map(|p| p.ty).collect();
        for (i, &pty) in params.iter().enumerate() {
            let v = items.get(i).copied().unwrap_or(Value::Null);
            let pty = match declaring {
                Some(d) => self.meta.types.subst_ctx(pty, d),
                None => pty,
            };
            window.push(self.argument_for(v, pty));
        }
        if self.meta.arg_count(method) > window.len() {
            window.push(declaring.map_or(Value::Null, Value::Type));
        }
        let at = self.free_register_base();
        self.thread.ensure_regs(at + window.len() + 1);
        self.thread.regs[at..at + window.len()].copy_from_slice(&window);
        self.call(method, at, dst, call_pc)
    }

    /// An `object[]` element as the parameter of type `ty` takes it: a value type's
    /// contents (its default for `null`), a reference as it is.
    fn argument_for(&mut self, v: Value, ty: TypeId) -> Value {
        if !self.meta.is_value_type(ty) {
            return v;
        }
        if v.is_null() {
            return self.default_value(ty);
        }
        let v = self.unboxed_view(v);
        self.copy_struct(v)
    }
}
