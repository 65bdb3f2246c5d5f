//! Calls and returns: pushing frames for bytecode methods, calling intrinsics in place,
//! virtual and interface dispatch, delegate invocation, and static-constructor triggers.

use super::{Flow, InvokeError};
use crate::bytecode::Reg;
use crate::metadata::{MethodBody, MethodId, TypeDefKind, TypeId, TypeKind};
use crate::runtime::intrinsics::{fast_paths, native_fn};
use crate::runtime::native::{ExceptionKind, NativeId, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::thread::{Frame, FrameKind, MAX_FRAMES};
use crate::runtime::types::InitState;
use crate::runtime::value::Value;
use crate::runtime::Vm;

impl Vm {
    /// Calls `method` with its arguments at absolute register `base`; the result goes to the
    /// caller's register `dst`. `call_pc` is the calling instruction (for traces).
    pub(super) fn call(&mut self, method: MethodId, base: usize, dst: Reg, call_pc: u32) -> Result<Flow, InvokeError> {
        match self.body_of(method).map_err(InvokeError::Fatal)? {
            MethodBody::Bytecode(fid) => {
                if self.thread.frames.len() >= MAX_FRAMES {
                    return Err(self.stack_overflow());
                }
                let nregs = self.functions[fid.0 as usize].num_regs as usize;
                self.thread.ensure_regs(base + nregs + 1);
                self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: dst, kind: FrameKind::Normal });
                Ok(Flow::Continue)
            }
            MethodBody::Native(n) if is_frame_switching(n) => self.switch_frames(n, base, dst),
            MethodBody::Native(n) => {
                let argc = self.meta.arg_count(method);
                match self.call_native(n, base, argc) {
                    Ok(v) => {
                        self.write_caller_reg(dst, v);
                        self.maybe_collect();
                        Ok(Flow::Continue)
                    }
                    Err(e) => self.native_failure(e, call_pc, dst),
                }
            }
            MethodBody::None => Err(InvokeError::Fatal(format!("call to {} which has no body", self.method_display_name(method)))),
        }
    }

    /// The dispatch loop's call fast path: pushes a frame for `method` if it is bytecode
    /// (returning that frame); `None` leaves everything else to [`Vm::call`].
    #[inline]
    pub(super) fn enter_bytecode(&mut self, method: MethodId, base: usize, dst: Reg) -> Option<Frame> {
        let MethodBody::Bytecode(fid) = self.meta.methods.get(method.index())?.body else { return None };
        if self.thread.frames.len() >= MAX_FRAMES || self.awaits_jit(fid) {
            return None;
        }
        let callee = &self.functions[fid.0 as usize];
        if let [crate::bytecode::Op::ReturnVoid] = callee.code[..] {
            // An empty method (`object()`, an empty constructor): no frame needed.
            let caller = *self.thread.frames.last()?;
            self.thread.regs[caller.base as usize + dst.0 as usize] = Value::Null;
            return Some(caller);
        }
        let nregs = callee.num_regs as usize;
        self.thread.ensure_regs(base + nregs + 1);
        let frame = Frame { func: fid, pc: 0, base: base as u32, ret: dst, kind: FrameKind::Normal };
        self.thread.frames.push(frame);
        Some(frame)
    }

    /// The dispatch loop's return fast path: pops an ordinary frame that has a caller,
    /// delivers the value in absolute register `src` (`null` for none) to it and returns
    /// the caller's frame; `None` leaves everything else, and any return while an
    /// exception unwinds (which may abandon it), to [`Vm::return_from_frame`].
    #[inline]
    pub(super) fn return_to_caller(&mut self, src: Option<usize>) -> Option<Frame> {
        let frames = &mut self.thread.frames;
        let n = frames.len();
        if n < 2 || frames[n - 1].kind != FrameKind::Normal || self.thread.unwind.is_some() {
            return None;
        }
        let ret = frames[n - 1].ret;
        frames.pop();
        let caller = frames[n - 2];
        let dst = caller.base as usize + ret.0 as usize;
        match src {
            Some(src) => Value::copy_within(&mut self.thread.regs, dst, src),
            None => self.thread.regs[dst] = Value::Null,
        }
        Some(caller)
    }

    /// Registers a method's callers fill: receiver, parameters, hidden generic context.
    fn write_caller_reg(&mut self, dst: Reg, v: Value) {
        if let Some(f) = self.thread.frames.last() {
            let i = f.base as usize + dst.0 as usize;
            self.thread.regs[i] = v;
        }
    }

    /// A call of `method` with arguments from absolute register `base`, answered by the
    /// method's fast path (`runtime::intrinsics::fast_paths`); `None` when it has none or
    /// it declines, and the method's body is to run.
    pub(super) fn try_fast_path(&mut self, method: MethodId, base: usize) -> Option<Value> {
        let func = fast_paths::fast_path_fn(*self.meta.fast_paths.get(&method)?)?;
        let mut args = [Value::Null; 8];
        let args = self.native_args(base, self.meta.arg_count(method), &mut args);
        let v = func(self, args)?;
        let v = self.copy_struct(v);
        self.maybe_collect();
        Some(v)
    }

    pub(super) fn call_native(&mut self, n: NativeId, base: usize, argc: usize) -> NativeResult {
        let mut args = [Value::Null; 8];
        let args = self.native_args(base, argc, &mut args);
        if crate::runtime::intrinsics::opens_boxes(n) {
            for a in args.iter_mut() {
                if let Value::Boxed(_) = *a {
                    *a = self.unboxed_view(*a);
                }
            }
        }
        // A struct an intrinsic hands out may live in its storage (a dictionary entry):
        // the caller gets its own copy, as value semantics require.
        native_fn(n)(self, args).map(|v| self.copy_struct(v))
    }

    /// Copies the `argc` (at most 8) argument registers from absolute register `base` into
    /// `args`, for an intrinsic (which gets the VM too, so not the registers themselves).
    #[inline]
    fn native_args<'a>(&mut self, base: usize, argc: usize, args: &'a mut [Value; 8]) -> &'a mut [Value] {
        let argc = argc.min(args.len());
        self.thread.ensure_regs(base + argc);
        args[..argc].copy_from_slice(&self.thread.regs[base..base + argc]);
        &mut args[..argc]
    }

    /// The intrinsics that push a frame instead of returning: iterator `MoveNext` and
    /// `Dispose`, `AsyncHelpers.ResumeChain`, reflection's `Invoke` and class-constructor run.
    pub(super) fn switch_frames(&mut self, n: NativeId, base: usize, dst: Reg) -> Result<Flow, InvokeError> {
        match n {
            super::runtime_async::RESUME_CHAIN => self.resume_chain(base, dst),
            super::reflection_invoke::INVOKE_METHOD => self.invoke_reflected(base, dst),
            super::reflection_invoke::RUN_CLASS_CONSTRUCTOR => self.run_class_constructor(base),
            _ => self.resume_generator(base, dst, n == super::generators::ITERATOR_DISPOSE),
        }
    }

    /// Pops the top frame, delivering `v` to the caller (or to Rust for an entry frame).
    pub(super) fn return_from_frame(&mut self, v: Value) -> Result<Flow, InvokeError> {
        if self.thread.unwind.is_some_and(|t| t.finally_depth == self.thread.frames.len()) {
            self.thread.unwind = None;
        }
        let Some(frame) = self.thread.frames.pop() else { return Ok(Flow::Return(v)) };
        Ok(match frame.kind {
            FrameKind::Generator { iterator, disposing } => {
                self.generator_finished(iterator);
                let result = if disposing { Value::Null } else { Value::Bool(false) };
                self.write_caller_reg(frame.ret, result);
                Flow::Continue
            }
            FrameKind::AsyncRoot { .. } | FrameKind::Resumed { .. } => match self.async_frame_returned(frame, v) {
                Ok(flow) => flow,
                Err(_) => Flow::Return(v),
            },
            FrameKind::AsyncCall { entry_ec, entry_sc } => {
                let previous = self.execution_context();
                self.set_contexts(entry_ec, entry_sc);
                self.write_caller_reg(frame.ret, v);
                self.notify_context_switch(previous, None);
                Flow::Continue
            }
            FrameKind::Notification { rethrow: Some(exc) } => {
                let pc = self.thread.frames.last().map_or(0, |f| f.pc.saturating_sub(1));
                return self.throw_from_current(Value::Ref(exc), pc, true);
            }
            FrameKind::Notification { rethrow: None } => Flow::Continue,
            FrameKind::Entry | FrameKind::Filter => Flow::Return(v),
            FrameKind::StaticCtor(ty) => {
                self.set_init_state(ty, InitState::Done);
                Flow::Continue
            }
            FrameKind::Normal => {
                self.write_caller_reg(frame.ret, v);
                Flow::Continue
            }
        })
    }

    /// The method a virtual or interface call on `receiver` runs (`None` for `null`).
    pub fn resolve_virtual(&mut self, method: MethodId, receiver: Value) -> Option<MethodId> {
        let rt = self.type_of(receiver)?;
        let m = self.meta.method(method);
        let owner = m.owner;
        if self.meta.type_def(owner).kind == TypeDefKind::Interface {
            return self.find_interface_impl(rt, method);
        }
        let Some(slot) = m.vtable_slot else { return Some(method) };
        let def = self.dispatch_def(rt)?;
        self.meta.type_def(def).vtable.get(slot as usize).copied()
    }

    /// The implementation of the static abstract or virtual interface method `method` by
    /// the type `ty` (the method itself when `ty` keeps a static virtual one's body).
    pub fn resolve_static_virtual(&mut self, method: MethodId, ty: TypeId) -> Option<MethodId> {
        self.find_interface_impl(ty, method)
    }

    /// The implementation of interface method `method` of the interface type `iface` for
    /// `receiver`: the one the receiver's class chose for that instantiation, or else the
    /// one for the method (`None` for `null`).
    pub fn resolve_interface_by_type(&mut self, method: MethodId, iface: TypeId, receiver: Value) -> Option<MethodId> {
        let mut cur = Some(self.type_of(receiver)?);
        while let Some(t) = cur {
            let Some(def) = self.meta.types.def_of(t) else { break };
            if let Some(&m) = self.meta.type_def(def).interface_map_by_type.get(&(method, iface)) {
                return Some(m);
            }
            cur = self.meta.base_type(t);
        }
        self.resolve_virtual(method, receiver)
    }

    /// The definition whose vtable serves a run-time type (arrays use `System.Array`).
    fn dispatch_def(&self, rt: TypeId) -> Option<crate::metadata::TypeDefId> {
        match self.meta.types.kind(rt) {
            TypeKind::Named { def, .. } => Some(*def),
            TypeKind::Array { .. } => self.meta.types.def_of(self.meta.well_known.array),
            _ => None,
        }
    }

    fn find_interface_impl(&mut self, rt: TypeId, method: MethodId) -> Option<MethodId> {
        if let TypeKind::Array { .. } = self.meta.types.kind(rt) {
            return self.array_interface_impl(method);
        }
        let mut cur = Some(rt);
        while let Some(t) = cur {
            let def = self.meta.types.def_of(t)?;
            if let Some(&m) = self.meta.type_def(def).interface_map.get(&method) {
                return Some(m);
            }
            cur = self.meta.base_type(t);
        }
        None
    }

    /// Arrays implement `IEnumerable<T>`, `ICollection<T>` and `IList<T>` through the
    /// methods of `System.SZArrayHelper` with the same name (as CoreLib does).
    fn array_interface_impl(&self, method: MethodId) -> Option<MethodId> {
        let name = &self.meta.method(method).name;
        let helper = self.meta.type_defs.iter().position(|d| d.name == "SZArrayHelper" && d.namespace == "System")?;
        self.meta.type_defs[helper].methods.iter().copied().find(|&m| &self.meta.method(m).name == name)
    }

    /// The method a single-cast delegate at absolute register `base` calls and where its
    /// arguments start (the target goes in `base` for instance methods); `None` for a
    /// null or combined delegate, one carrying a generic context, or one whose class
    /// constructor must run first, all left to [`Vm::call_delegate`].
    #[inline]
    pub(super) fn delegate_call_site(&mut self, base: usize) -> Option<(MethodId, usize)> {
        let r = self.thread.regs[base].gc_ref()?;
        let Some(Obj::Delegate(d)) = self.heap.get(r) else { return None };
        if d.invocation_list.is_some() || d.context.is_some() {
            return None;
        }
        let (method, target) = (d.method, d.target);
        if self.type_to_initialize_before(method).is_some() {
            return None;
        }
        if self.meta.method(method).is_static() {
            return Some((method, base + 1));
        }
        self.thread.regs[base] = self.unboxed_view(target);
        Some((method, base))
    }

    /// Invokes the delegate at absolute register `base` (arguments follow it).
    pub(super) fn call_delegate(&mut self, base: usize, dst: Reg, call_pc: u32) -> Result<Flow, InvokeError> {
        let d = self.thread.regs[base];
        let (method, target, context, list) = match d.gc_ref().and_then(|r| self.heap.get(r)) {
            Some(Obj::Delegate(del)) => (del.method, del.target, del.context, del.invocation_list.clone()),
            _ => {
                let e = self.new_exception(ExceptionKind::NullReference, None);
                return self.throw_from_current(e, call_pc, false);
            }
        };
        if let Some(list) = list {
            return self.call_multicast(&list, base, dst, call_pc);
        }
        if let Some(ty) = self.type_to_initialize_before(method) {
            // Run the class constructor first, then this `CallDelegate` again.
            if let Some(f) = self.thread.frames.last_mut() {
                f.pc = call_pc;
            }
            if self.start_type_init(ty) {
                return Ok(Flow::Continue);
            }
            if let Some(f) = self.thread.frames.last_mut() {
                f.pc = call_pc + 1;
            }
        }
        if let Some(context) = context {
            // The hidden argument follows the parameters, which follow the delegate.
            let slot = base + 1 + self.meta.method(method).params.len();
            self.thread.ensure_regs(slot + 1);
            self.thread.regs[slot] = Value::Type(context);
        }
        if self.meta.method(method).is_static() {
            self.call(method, base + 1, dst, call_pc)
        } else {
            self.thread.regs[base] = self.unboxed_view(target);
            self.call(method, base, dst, call_pc)
        }
    }

    /// A combined delegate: the members are called one after the other with the same
    /// arguments; the last one's result is the call's result. The frames are pushed so the
    /// first member runs first: each gets its own copy of the arguments, the last member's
    /// window lowest.
    fn call_multicast(&mut self, list: &[crate::runtime::heap::GcRef], base: usize, dst: Reg, call_pc: u32) -> Result<Flow, InvokeError> {
        let Some(&first) = list.first() else { return Ok(Flow::Continue) };
        let method = match self.heap.get(first) {
            Some(Obj::Delegate(d)) => d.method,
            _ => return Err(InvokeError::Fatal("bad multicast delegate".into())),
        };
        let nargs = self.meta.method(method).params.len();
        for &member in list {
            if let Some(Obj::Delegate(d)) = self.heap.get(member) {
                let m = d.method;
                self.compile_lazily(m).map_err(InvokeError::Fatal)?;
            }
        }
        let args: Vec<Value> = self.thread.regs[base + 1..base + 1 + nargs].to_vec();
        // Each member gets a window of `stride` registers: room for its own frame.
        let stride = 1 + nargs + self.max_window(list);
        for (i, &member) in list.iter().enumerate().rev() {
            let slot = base + (list.len() - 1 - i) * stride;
            self.thread.ensure_regs(slot + stride + 1);
            self.thread.regs[slot] = Value::Ref(member);
            self.thread.regs[slot + 1..slot + 1 + nargs].copy_from_slice(&args);
            let flow = self.call_delegate(slot, dst, call_pc)?;
            if !matches!(flow, Flow::Continue) {
                return Ok(flow);
            }
        }
        Ok(Flow::Continue)
    }

    fn max_window(&self, list: &[crate::runtime::heap::GcRef]) -> usize {
        list.iter()
            .filter_map(|&r| match self.heap.get(r) {
                Some(Obj::Delegate(d)) => Some(d.method),
                _ => None,
            })
            .map(|m| match self.meta.method(m).body {
                MethodBody::Bytecode(f) => self.functions[f.0 as usize].num_regs as usize,
                _ => 8,
            })
            .max()
            .unwrap_or(8)
    }

    /// The class whose explicit static constructor must run before a delegate calls the
    /// static method `method` (as a direct call would run it), if it has not run yet.
    fn type_to_initialize_before(&self, method: MethodId) -> Option<TypeId> {
        let md = self.meta.method(method);
        if !md.is_static() {
            return None;
        }
        let owner = self.meta.type_def(md.owner);
        let explicit = owner.flags.has(crate::metadata::Flags::EXPLICIT_CCTOR) && owner.type_params.is_empty();
        (explicit && self.needs_type_init(owner.self_type)).then_some(owner.self_type)
    }

    /// Whether touching `ty` must first run its static constructor.
    #[inline]
    pub(super) fn needs_type_init(&self, ty: TypeId) -> bool {
        self.init_state(ty) == InitState::NotStarted
    }

    /// Starts `ty`'s static initialisation. Returns `true` if a static-constructor frame
    /// was pushed (the current instruction runs again when it returns).
    pub(super) fn start_type_init(&mut self, ty: TypeId) -> bool {
        let Some(def) = self.meta.types.def_of(ty) else {
            self.set_init_state(ty, InitState::Done);
            return false;
        };
        let Some(cctor) = self.meta.type_def(def).static_ctor else {
            self.set_init_state(ty, InitState::Done);
            return false;
        };
        // A library body that fails to compile is reported when it is called; here the
        // type just has no static constructor to run.
        let Ok(MethodBody::Bytecode(fid)) = self.body_of(cctor) else {
            self.set_init_state(ty, InitState::Done);
            return false;
        };
        self.set_init_state(ty, InitState::Running);
        let base = self.free_register_base();
        let generic = !self.meta.type_def(def).type_params.is_empty();
        let nregs = self.functions[fid.0 as usize].num_regs as usize;
        self.thread.ensure_regs(base + nregs + 1);
        if generic {
            self.thread.regs[base] = Value::Type(ty);
        }
        self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: Reg(0), kind: FrameKind::StaticCtor(ty) });
        true
    }

    /// Starts `ty`'s static constructor on top of the current frames if it has not started
    /// (the host does this for the entry point's class before `Main`).
    pub fn begin_type_initialization(&mut self, ty: TypeId) {
        if self.needs_type_init(ty) {
            self.start_type_init(ty);
        }
    }

    /// Pushes `method`'s first frame as a thread's bottom frame (it does not run yet).
    pub fn start_frame(&mut self, method: MethodId, args: &[Value]) -> Result<(), String> {
        let MethodBody::Bytecode(fid) = self.body_of(method)? else {
            return Err(format!("{} cannot start a thread", self.meta.method(method).name));
        };
        let base = self.free_register_base();
        let nregs = self.functions[fid.0 as usize].num_regs as usize;
        self.thread.ensure_regs(base + nregs.max(args.len()) + 1);
        self.thread.regs[base..base + args.len()].copy_from_slice(args);
        self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: Reg(0), kind: FrameKind::Entry });
        Ok(())
    }

    #[cold]
    pub(super) fn stack_overflow(&mut self) -> InvokeError {
        InvokeError::Terminated(super::Termination::StackOverflow(self.stack_overflow_report()))
    }
}

/// The frame-switching intrinsics have the first ids, `ITERATOR_MOVE_NEXT` (0) through
/// `RUN_CLASS_CONSTRUCTOR`: one comparison tells them.
pub(super) fn is_frame_switching(n: NativeId) -> bool {
    n.0 <= super::reflection_invoke::RUN_CLASS_CONSTRUCTOR.0
}

const _: () = assert!(super::generators::ITERATOR_MOVE_NEXT.0 == 0);
