//! The dispatch loop. It runs the current thread's frames until the entry frame returns,
//! an exception escapes it, or the program exits. Managed calls push a frame and continue
//! the loop; they never recurse into Rust.

pub use crate::value::arith;
mod calls;
mod generators;
mod objects;
mod reflection_invoke;
pub mod runtime_async;
mod unwind;

use std::rc::Rc;

use crate::bytecode::{Function, Op, Reg};
use crate::metadata::{MethodBody, MethodId};
use crate::runtime::native::{ExceptionKind, NativeError};
pub use crate::runtime::scheduler::{SliceEnd, Termination};
pub use crate::runtime::thread::FUEL_PER_SLICE;
use crate::runtime::thread::{Frame, FrameKind};
use crate::runtime::value::Value;
use crate::runtime::Vm;
use arith::ArithError;

/// How an invocation ended other than by returning.
#[derive(Debug)]
pub enum InvokeError {
    /// An exception escaped (the exception object).
    Exception(Value),
    /// `Environment.Exit(code)`.
    Exit(i32),
    /// A VM invariant broke; the message says which.
    Fatal(String),
    /// The program hit a limit that ends the process (not a VM bug).
    Terminated(Termination),
}

/// What the loop does after an instruction that changes frames or fails.
enum Flow {
    /// Reload the top frame and continue.
    Continue,
    /// The entry frame returned this value.
    Return(Value),
    /// The thread spent its fuel (loop iterations): the scheduler decides what runs next.
    OutOfFuel,
    /// The thread parked; the scheduler runs another.
    Park,
}

const CANNOT_BLOCK: &str = "a thread blocked where the VM cannot switch threads (inside a call made by the runtime)";
/// .NET's message for a delegate over an instance method made with a `null` target.
const NULL_THIS_DELEGATE: &str = "Delegate to an instance method cannot have null 'this'.";

impl Vm {
    /// Calls `method` with `args` (receiver first) and runs it to completion.
    pub fn invoke(&mut self, method: MethodId, args: &[Value]) -> Result<Value, InvokeError> {
        let base = self.free_register_base();
        match self.body_of(method).map_err(InvokeError::Fatal)? {
            MethodBody::Bytecode(fid) => {
                let nregs = self.functions[fid.0 as usize].num_regs as usize;
                self.thread.ensure_regs(base + nregs.max(args.len()));
                self.thread.regs[base..base + args.len()].copy_from_slice(args);
                self.thread.frames.push(Frame { func: fid, pc: 0, base: base as u32, ret: Reg(0), kind: FrameKind::Entry });
                let depth = self.thread.frames.len();
                let result = self.execute();
                debug_assert!(result.is_err() || self.thread.frames.len() == depth - 1);
                result
            }
            MethodBody::Native(n) => {
                let func = crate::runtime::intrinsics::native_fn(n);
                match func(self, args) {
                    Ok(v) => Ok(v),
                    Err(e) => Err(self.native_error_to_invoke(e)),
                }
            }
            MethodBody::None => Err(InvokeError::Fatal(format!("method {} has no body", self.meta.method(method).name))),
        }
    }

    fn native_error_to_invoke(&mut self, e: NativeError) -> InvokeError {
        match e {
            NativeError::Throw(v) => InvokeError::Exception(v),
            NativeError::ThrowNew(kind, msg) => InvokeError::Exception(self.new_exception(kind, Some(&msg))),
            NativeError::Exit(c) => InvokeError::Exit(c),
            NativeError::Fatal(m) => InvokeError::Fatal(m),
            NativeError::Park { .. } | NativeError::Yield => InvokeError::Fatal(CANNOT_BLOCK.into()),
        }
    }

    /// The first register above every frame's window.
    pub(crate) fn free_register_base(&self) -> usize {
        self.thread.frames.last().map_or(0, |f| f.base as usize + self.functions[f.func.0 as usize].num_regs as usize)
    }

    /// Runs frames until the innermost `Entry` frame returns.
    fn execute(&mut self) -> Result<Value, InvokeError> {
        self.jit.runtime_invokes += 1;
        let result = self.execute_frames();
        self.jit.runtime_invokes -= 1;
        result
    }

    fn execute_frames(&mut self) -> Result<Value, InvokeError> {
        let mut functions = self.functions.clone();
        loop {
            self.refresh_functions(&mut functions);
            let Some(&frame) = self.thread.frames.last() else {
                return Err(InvokeError::Fatal("no frame to run".into()));
            };
            match self.run_frame(&functions, frame) {
                Ok(Flow::Continue) => {}
                Ok(Flow::OutOfFuel) => self.refuel()?,
                Ok(Flow::Park) => return Err(InvokeError::Fatal(CANNOT_BLOCK.into())),
                Ok(Flow::Return(v)) => return Ok(v),
                Err(e) => return Err(e),
            }
        }
    }

    /// Runs the current green thread until its bottom frame returns, it parks, or its fuel
    /// runs out (the scheduler's unit of work).
    pub fn run_slice(&mut self) -> SliceEnd {
        if let Some(fuel) = self.sched.chaos_fuel() {
            self.thread.fuel = fuel;
        }
        let mut functions = self.functions.clone();
        loop {
            self.refresh_functions(&mut functions);
            let Some(&frame) = self.thread.frames.last() else {
                return SliceEnd::Fatal("a thread without frames".into());
            };
            match self.run_frame(&functions, frame) {
                Ok(Flow::Continue) => {}
                Ok(Flow::OutOfFuel) => {
                    return match self.refuel() {
                        Ok(()) => SliceEnd::Preempted,
                        Err(InvokeError::Terminated(t)) => SliceEnd::Terminated(t),
                        Err(_) => SliceEnd::Preempted,
                    };
                }
                Ok(Flow::Park) => return SliceEnd::Parked,
                Ok(Flow::Return(v)) => return SliceEnd::Finished(v),
                Err(InvokeError::Exception(e)) => return SliceEnd::Unhandled(e),
                Err(InvokeError::Exit(code)) => return SliceEnd::Exit(code),
                Err(InvokeError::Fatal(m)) => return SliceEnd::Fatal(m),
                Err(InvokeError::Terminated(t)) => return SliceEnd::Terminated(t),
            }
        }
    }

    /// Takes a new snapshot of the function table if library bodies were compiled since.
    #[inline]
    fn refresh_functions(&self, functions: &mut Rc<Vec<Rc<Function>>>) {
        if !Rc::ptr_eq(functions, &self.functions) {
            *functions = self.functions.clone();
        }
    }

    /// A new slice of fuel, unless the run's step budget (`--max-steps`) is spent.
    fn refuel(&mut self) -> Result<(), InvokeError> {
        self.steps_taken += self.sched.slice_fuel();
        if self.options.max_steps.is_some_and(|max| self.steps_taken >= max) {
            return Err(InvokeError::Terminated(Termination::StepBudgetSpent(self.steps_taken)));
        }
        self.thread.fuel = FUEL_PER_SLICE;
        Ok(())
    }

    /// Executes instructions of the top frame and of the frames it calls and returns to
    /// (ordinary calls switch frames here, without leaving the loop), until something else
    /// changes frames, the thread parks or runs out of fuel, or an exception is thrown.
    fn run_frame(&mut self, functions: &[Rc<Function>], frame: Frame) -> Result<Flow, InvokeError> {
        if self.awaits_jit(frame.func) && self.compile_function(frame.func) {
            return Ok(Flow::Park);
        }
        let Some(first) = functions.get(frame.func.0 as usize) else {
            return Err(InvokeError::Fatal("a frame of an unknown function".into()));
        };
        let mut func: &Function = first;
        let mut code = &func.code[..];
        let mut base = frame.base as usize;
        let mut pc = frame.pc as usize;
        macro_rules! r {
            ($reg:expr) => {
                self.thread.regs[base + $reg.0 as usize]
            };
        }
        macro_rules! save_pc {
            () => {
                if let Some(f) = self.thread.frames.last_mut() {
                    f.pc = pc as u32;
                }
            };
        }
        // Runs `ty`'s static constructor first if it has not run: the instruction is
        // retried when the constructor's frame returns.
        macro_rules! ensure_type_init {
            ($ty:expr) => {
                if self.needs_type_init($ty) {
                    pc -= 1;
                    save_pc!();
                    if self.start_type_init($ty) {
                        return Ok(Flow::Continue);
                    }
                    pc += 1;
                }
            };
        }
        // A jump; a backward one (a loop) spends fuel, and an empty tank ends the slice.
        macro_rules! jump {
            ($target:expr) => {{
                let target = $target;
                if target < pc && func.preemptible {
                    self.thread.fuel = self.thread.fuel.saturating_sub(1);
                    if self.thread.fuel == 0 {
                        pc = target;
                        save_pc!();
                        return Ok(Flow::OutOfFuel);
                    }
                }
                pc = target;
            }};
        }
        // Under schedule exploration, a store to shared memory or a call in user code spends
        // fuel too, and an empty tank ends the slice before the instruction runs (it runs
        // when the thread is back), so another thread can get between a read and a write.
        macro_rules! chaos_point {
            () => {
                if func.chaos_points {
                    self.thread.fuel = self.thread.fuel.saturating_sub(1);
                    if self.thread.fuel == 0 {
                        pc -= 1;
                        save_pc!();
                        return Ok(Flow::OutOfFuel);
                    }
                }
            };
        }
        // Continue in the frame now on top of the stack (after an inline call or return);
        // a function compiled after this loop started is left to the caller's next round.
        // (A callee's first-call JIT wait was decided by `enter_bytecode`; a caller is
        // compiled already.)
        macro_rules! switch_to {
            ($f:expr) => {{
                let f: Frame = $f;
                let Some(next) = functions.get(f.func.0 as usize) else { return Ok(Flow::Continue) };
                func = next;
                code = &func.code[..];
                base = f.base as usize;
                pc = f.pc as usize;
            }};
        }
        // Calls `method` with its arguments from register `b` on, its result going to `dst`:
        // a bytecode callee continues in this loop, anything else through `Vm::call`.
        macro_rules! enter {
            ($method:expr, $b:expr, $dst:expr) => {{
                let (method, at, dst) = ($method, base + $b.0 as usize, $dst);
                match self.enter_bytecode(method, at, dst) {
                    Some(callee) => switch_to!(callee),
                    None => return self.call(method, at, dst, pc as u32 - 1),
                }
            }};
        }
        // Throw a C# exception from the current instruction (`pc` is already past it).
        macro_rules! throw {
            ($exc:expr) => {{
                let exc = $exc;
                save_pc!();
                return self.throw_from_current(exc, pc as u32 - 1, false);
            }};
        }
        macro_rules! throw_kind {
            ($kind:expr) => {{
                let e = self.new_exception($kind, None);
                throw!(e)
            }};
        }
        macro_rules! arith {
            ($result:expr) => {
                match $result {
                    Ok(v) => v,
                    Err(ArithError::Throw(kind)) => throw_kind!(kind),
                    Err(ArithError::BadOperands(what)) => {
                        return Err(self.bad_operands(func, pc, what));
                    }
                }
            };
        }
        // Reads two registers by reference (whole-value copies of a just-written register
        // stall on store forwarding).
        macro_rules! pair {
            ($a:expr, $b:expr) => {
                (&self.thread.regs[base + $a.0 as usize], &self.thread.regs[base + $b.0 as usize])
            };
        }
        macro_rules! cmp {
            ($a:expr, $b:expr, $pred:expr) => {{
                let (x, y) = pair!($a, $b);
                match arith::compare_fast(x, y) {
                    Some(o) => o.map_or(false, $pred),
                    None => {
                        let (x, y) = (*x, *y);
                        let ord = arith!(arith::compare(x, y).map(|o| o.map_or(false, $pred)).map(Value::Bool));
                        matches!(ord, Value::Bool(true))
                    }
                }
            }};
        }
        // A string a native made goes into `dst` (a chance to collect), or its failure is
        // thrown from this instruction.
        macro_rules! new_string {
            ($dst:expr, $made:expr) => {
                match $made {
                    Ok(v) => {
                        r!($dst) = v;
                        self.maybe_collect();
                    }
                    Err(e) => {
                        save_pc!();
                        return self.native_failure(e, pc as u32 - 1, $dst);
                    }
                }
            };
        }
        // A binary operation with a fast path for common operand pairs.
        macro_rules! binary {
            ($dst:expr, $a:expr, $b:expr, $fast:path, $slow:path) => {{
                let (x, y) = pair!($a, $b);
                r!($dst) = match $fast(x, y) {
                    Some(v) => v,
                    None => {
                        let (x, y) = (*x, *y);
                        arith!($slow(x, y))
                    }
                };
            }};
        }
        macro_rules! equal {
            ($a:expr, $b:expr) => {{
                let (x, y) = pair!($a, $b);
                match arith::equal_fast(x, y) {
                    Some(e) => e,
                    None => arith::equal(*x, *y),
                }
            }};
        }
        loop {
            let Some(&op) = code.get(pc) else {
                return Err(InvokeError::Fatal(format!("{}: fell off the end of the code", func.name)));
            };
            pc += 1;
            match op {
                Op::Move { dst, src } => Value::copy_within(&mut self.thread.regs, base + dst.0 as usize, base + src.0 as usize),
                Op::LoadNull { dst } => r!(dst) = Value::Null,
                Op::LoadBool { dst, value } => r!(dst) = Value::Bool(value),
                Op::LoadI32 { dst, value } => r!(dst) = Value::I32(value),
                Op::LoadConst { dst, index } => match func.consts.get(index.0 as usize) {
                    Some(v) => r!(dst) = *v,
                    None => return Err(self.bad_operands(func, pc, "LoadConst")),
                },
                Op::LoadType { dst, ty } => r!(dst) = Value::Type(ty),
                Op::ResolveType { dst, open, ctx } => {
                    let v = self.resolve_type(open, r!(ctx));
                    r!(dst) = v;
                }
                Op::ContextFromThis { dst, this, def } => {
                    let v = self.context_from_this(r!(this), def, r!(dst));
                    r!(dst) = v;
                }
                Op::MakeContext { dst, class_ctx, args, count } => {
                    let class = r!(class_ctx);
                    let method_args: Vec<Value> = (0..count).map(|i| r!(Reg(args.0 + i))).collect();
                    let v = self.make_context(class, &method_args);
                    r!(dst) = v;
                }

                Op::Add { dst, a, b } => binary!(dst, a, b, arith::add_fast, arith::add),
                Op::Sub { dst, a, b } => binary!(dst, a, b, arith::sub_fast, arith::sub),
                Op::Mul { dst, a, b } => binary!(dst, a, b, arith::mul_fast, arith::mul),
                Op::Div { dst, a, b } => r!(dst) = arith!(arith::div(r!(a), r!(b))),
                Op::Rem { dst, a, b } => binary!(dst, a, b, arith::rem_fast, arith::rem),
                Op::AddChecked { dst, a, b } => r!(dst) = arith!(arith::add_checked(r!(a), r!(b))),
                Op::SubChecked { dst, a, b } => r!(dst) = arith!(arith::sub_checked(r!(a), r!(b))),
                Op::MulChecked { dst, a, b } => r!(dst) = arith!(arith::mul_checked(r!(a), r!(b))),
                Op::Neg { dst, src } => r!(dst) = arith!(arith::neg(r!(src), false)),
                Op::NegChecked { dst, src } => r!(dst) = arith!(arith::neg(r!(src), true)),
                Op::AddI32Imm { dst, src, imm } => match r!(src) {
                    Value::I32(x) => r!(dst) = Value::I32(x.wrapping_add(imm as i32)),
                    _ => return Err(self.bad_operands(func, pc, "AddI32Imm")),
                },
                Op::BitAnd { dst, a, b } => r!(dst) = arith!(arith::bit_and(r!(a), r!(b))),
                Op::BitOr { dst, a, b } => r!(dst) = arith!(arith::bit_or(r!(a), r!(b))),
                Op::BitXor { dst, a, b } => r!(dst) = arith!(arith::bit_xor(r!(a), r!(b))),
                Op::BitNot { dst, src } => r!(dst) = arith!(arith::bit_not(r!(src))),
                Op::Shl { dst, a, b } => r!(dst) = arith!(arith::shift(r!(a), r!(b), true, false)),
                Op::Shr { dst, a, b } => r!(dst) = arith!(arith::shift(r!(a), r!(b), false, false)),
                Op::UShr { dst, a, b } => r!(dst) = arith!(arith::shift(r!(a), r!(b), false, true)),
                Op::Not { dst, src } => match r!(src) {
                    Value::Bool(b) => r!(dst) = Value::Bool(!b),
                    _ => return Err(self.bad_operands(func, pc, "Not")),
                },

                Op::Eq { dst, a, b } => r!(dst) = Value::Bool(equal!(a, b)),
                Op::Ne { dst, a, b } => r!(dst) = Value::Bool(!equal!(a, b)),
                Op::Lt { dst, a, b } => r!(dst) = Value::Bool(cmp!(a, b, |o| o.is_lt())),
                Op::Le { dst, a, b } => r!(dst) = Value::Bool(cmp!(a, b, |o| o.is_le())),
                Op::Gt { dst, a, b } => r!(dst) = Value::Bool(cmp!(a, b, |o| o.is_gt())),
                Op::Ge { dst, a, b } => r!(dst) = Value::Bool(cmp!(a, b, |o| o.is_ge())),

                Op::Convert { dst, src, to } => {
                    let d = base + dst.0 as usize;
                    if !arith::convert_fast(&mut self.thread.regs, d, base + src.0 as usize, to) {
                        r!(dst) = arith!(arith::convert(r!(src), to, false));
                    }
                }
                Op::ConvertChecked { dst, src, to } => r!(dst) = arith!(arith::convert(r!(src), to, true)),

                Op::Jump { target } => jump!(target.0 as usize),
                Op::JumpIfTrue { cond, target } => {
                    if matches!(r!(cond), Value::Bool(true)) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfFalse { cond, target } => {
                    if matches!(r!(cond), Value::Bool(false)) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfNull { src, target } => {
                    if r!(src).is_null() {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfNotNull { src, target } => {
                    if !r!(src).is_null() {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfLt { a, b, target } => {
                    if cmp!(a, b, |o| o.is_lt()) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfLe { a, b, target } => {
                    if cmp!(a, b, |o| o.is_le()) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfGt { a, b, target } => {
                    if cmp!(a, b, |o| o.is_gt()) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfGe { a, b, target } => {
                    if cmp!(a, b, |o| o.is_ge()) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfEq { a, b, target } => {
                    if equal!(a, b) {
                        jump!(target.0 as usize);
                    }
                }
                Op::JumpIfNe { a, b, target } => {
                    if !equal!(a, b) {
                        jump!(target.0 as usize);
                    }
                }
                Op::Switch { src, table } => {
                    if let (Some(v), Some(t)) = (r!(src).as_i64(), func.tables.get(table as usize)) {
                        let i = v.wrapping_sub(t.low);
                        if i >= 0 && (i as usize) < t.targets.len() {
                            jump!(t.targets[i as usize].0 as usize);
                        }
                    }
                }

                Op::New { dst, ty } => {
                    ensure_type_init!(ty);
                    let is_struct = self.meta.is_value_type(ty);
                    let v = self.new_instance(ty, is_struct);
                    r!(dst) = v;
                    self.maybe_collect();
                    if self.constructor_awaits_jit(ty) && self.compile_constructor(ty) {
                        save_pc!();
                        return Ok(Flow::Park);
                    }
                }
                Op::NewDyn { dst, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "NewDyn")) };
                    let v = if self.meta.is_value_type(t) { self.default_value(t) } else { self.new_instance(t, false) };
                    r!(dst) = v;
                    self.maybe_collect();
                }
                Op::InitDyn { obj, base: b, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "InitDyn")) };
                    if let Some(ctor) = self.meta.parameterless_class_constructor(t) {
                        save_pc!();
                        if let MethodBody::Native(n) = self.meta.method(ctor).body {
                            let made = self.call_native(n, base + b.0 as usize, 0);
                            new_string!(obj, made);
                        } else {
                            r!(b) = r!(obj);
                            enter!(ctor, b, b);
                        }
                    }
                }
                Op::LoadField { dst, obj, slot } => {
                    if !self.load_field_into(base + obj.0 as usize, slot, base + dst.0 as usize) {
                        throw_kind!(ExceptionKind::NullReference);
                    }
                }
                Op::StoreField { obj, slot, src } => {
                    chaos_point!();
                    let v = r!(src);
                    if !self.store_field(r!(obj), slot, v) {
                        throw_kind!(ExceptionKind::NullReference);
                    }
                }
                Op::LoadStatic { dst, ty, field } => {
                    ensure_type_init!(ty);
                    let slot = self.meta.field(field).slot as usize;
                    r!(dst) = self.statics_mut(ty).get(slot).copied().unwrap_or(Value::Null);
                }
                Op::StoreStatic { ty, field, src } => {
                    chaos_point!();
                    ensure_type_init!(ty);
                    let slot = self.meta.field(field).slot as usize;
                    let v = r!(src);
                    if let Some(s) = self.statics_mut(ty).get_mut(slot) {
                        *s = v;
                    }
                }
                Op::LoadStaticDyn { dst, ty, field } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "LoadStaticDyn")) };
                    ensure_type_init!(t);
                    let slot = self.meta.field(field).slot as usize;
                    r!(dst) = self.statics_mut(t).get(slot).copied().unwrap_or(Value::Null);
                }
                Op::StoreStaticDyn { ty, field, src } => {
                    chaos_point!();
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "StoreStaticDyn")) };
                    ensure_type_init!(t);
                    let slot = self.meta.field(field).slot as usize;
                    let v = r!(src);
                    if let Some(s) = self.statics_mut(t).get_mut(slot) {
                        *s = v;
                    }
                }
                Op::CopyStruct { dst, src } => {
                    let v = self.copy_struct(r!(src));
                    r!(dst) = v;
                }
                Op::InitType { ty } => {
                    ensure_type_init!(ty);
                }

                Op::NewArray { dst, ty, len } => match self.new_array(ty, r!(len)) {
                    Ok(v) => {
                        r!(dst) = v;
                        if self.stats.enabled() && func.preemptible {
                            self.count_array(ty, r!(len).as_i64().unwrap_or(0) as usize);
                        }
                        self.maybe_collect();
                    }
                    Err(kind) => throw_kind!(kind),
                },
                Op::NewArrayDyn { dst, ty, len } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "NewArrayDyn")) };
                    match self.new_array(t, r!(len)) {
                        Ok(v) => {
                            r!(dst) = v;
                            if self.stats.enabled() && func.preemptible {
                                self.count_array(t, r!(len).as_i64().unwrap_or(0) as usize);
                            }
                            self.maybe_collect();
                        }
                        Err(kind) => throw_kind!(kind),
                    }
                }
                Op::NewArrayMulti { dst, dims, .. } | Op::NewArrayMultiDyn { dst, dims, .. } => {
                    let ty = match op {
                        Op::NewArrayMultiDyn { ty, .. } => match r!(ty) {
                            Value::Type(t) => t,
                            _ => return Err(self.bad_operands(func, pc, "NewArrayMultiDyn")),
                        },
                        Op::NewArrayMulti { ty, .. } => ty,
                        _ => crate::metadata::TypeId::ERROR,
                    };
                    let rank = self.meta.types.array_elem(ty).map_or(1, |(_, r)| r) as u16;
                    let lens: Vec<Value> = (0..rank).map(|i| r!(Reg(dims.0 + i))).collect();
                    match self.new_array_multi(ty, &lens) {
                        Ok(v) => {
                            r!(dst) = v;
                            if self.stats.enabled() && func.preemptible {
                                let count = lens.iter().map(|l| l.as_i64().unwrap_or(0) as usize).product();
                                self.count_array(ty, count);
                            }
                            self.maybe_collect();
                        }
                        Err(kind) => throw_kind!(kind),
                    }
                }
                Op::LoadElem { dst, arr, index } => match self.load_elem(r!(arr), r!(index)) {
                    Ok(v) => r!(dst) = v,
                    Err(kind) => throw_kind!(kind),
                },
                Op::StoreElem { arr, index, src } => {
                    chaos_point!();
                    let v = r!(src);
                    if let Err(kind) = self.store_elem(r!(arr), r!(index), v) {
                        throw_kind!(kind);
                    }
                }
                Op::StoreElemChecked { arr, index, src } => {
                    chaos_point!();
                    let v = r!(src);
                    if let Err(kind) = self.store_elem_checked(r!(arr), r!(index), v) {
                        throw_kind!(kind);
                    }
                }
                Op::LoadElemMulti { dst, arr, indexes } => {
                    let a = r!(arr);
                    let rank = self.array_rank(a);
                    let idx: Vec<Value> = (0..rank).map(|i| r!(Reg(indexes.0 + i))).collect();
                    match self.multi_index(a, &idx).and_then(|i| self.load_elem(a, Value::I32(i as i32))) {
                        Ok(v) => r!(dst) = v,
                        Err(kind) => throw_kind!(kind),
                    }
                }
                Op::ElemIndex { dst, arr, indexes } => {
                    let a = r!(arr);
                    let rank = self.array_rank(a);
                    let idx: Vec<Value> = (0..rank).map(|i| r!(Reg(indexes.0 + i))).collect();
                    match self.multi_index(a, &idx) {
                        Ok(i) => r!(dst) = Value::I32(i as i32),
                        Err(kind) => throw_kind!(kind),
                    }
                }
                Op::StoreElemMulti { arr, indexes, src } => {
                    let a = r!(arr);
                    let v = r!(src);
                    let rank = self.array_rank(a);
                    let idx: Vec<Value> = (0..rank).map(|i| r!(Reg(indexes.0 + i))).collect();
                    if let Err(kind) = self.multi_index(a, &idx).and_then(|i| self.store_elem_checked(a, Value::I32(i as i32), v)) {
                        throw_kind!(kind);
                    }
                }
                Op::ArrayLength { dst, arr } => match self.array_length(r!(arr)) {
                    Some(n) => r!(dst) = Value::I32(n as i32),
                    None => throw_kind!(ExceptionKind::NullReference),
                },

                Op::MakeRefField { dst, obj, slot } => match r!(obj).gc_ref() {
                    Some(o) => {
                        let v = self.make_ref(crate::runtime::object::RefTarget::Field(o, slot));
                        r!(dst) = v;
                    }
                    None => throw_kind!(ExceptionKind::NullReference),
                },
                Op::MakeRefElem { dst, arr, index } => {
                    let a = r!(arr);
                    let i = r!(index);
                    if let Err(kind) = self.load_elem(a, i) {
                        throw_kind!(kind);
                    }
                    let (Some(o), Some(i)) = (a.gc_ref(), i.as_i64()) else { throw_kind!(ExceptionKind::NullReference) };
                    let v = self.make_ref(crate::runtime::object::RefTarget::Elem(o, i as u32));
                    r!(dst) = v;
                }
                Op::CheckElemTypeExact { arr, ty } => {
                    if !self.elem_type_is(r!(arr), ty) {
                        throw_kind!(ExceptionKind::ArrayTypeMismatch);
                    }
                }
                Op::MakeRefStatic { dst, ty, field } => {
                    ensure_type_init!(ty);
                    let slot = self.meta.field(field).slot;
                    let v = self.make_ref(crate::runtime::object::RefTarget::Static(ty, slot));
                    r!(dst) = v;
                }
                Op::MakeRefStaticDyn { dst, ty, field } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "MakeRefStaticDyn")) };
                    ensure_type_init!(t);
                    let slot = self.meta.field(field).slot;
                    let v = self.make_ref(crate::runtime::object::RefTarget::Static(t, slot));
                    r!(dst) = v;
                }
                Op::LoadRef { dst, r } => match self.read_ref(r!(r)) {
                    Some(v) => r!(dst) = v,
                    None => throw_kind!(ExceptionKind::NullReference),
                },
                Op::StoreRef { r, src } => {
                    let v = r!(src);
                    if !self.write_ref(r!(r), v) {
                        throw_kind!(ExceptionKind::NullReference);
                    }
                }
                Op::Concat { dst, first, count } => {
                    let made = self.concat_regs(base + first.0 as usize, count as usize);
                    new_string!(dst, made);
                }
                Op::FormatValue { dst, src, format } => {
                    let fmt = func.consts.get(format.0 as usize).copied();
                    let made = self.format_value(r!(src), fmt);
                    new_string!(dst, made);
                }

                Op::NullCheck { src } => {
                    if r!(src).is_null() {
                        throw_kind!(ExceptionKind::NullReference);
                    }
                }
                Op::CallChecked { method, base: b, dst } => {
                    chaos_point!();
                    if r!(b).is_null() {
                        throw_kind!(ExceptionKind::NullReference);
                    }
                    save_pc!();
                    enter!(method, b, dst);
                }
                Op::Call { method, base: b, dst } => {
                    chaos_point!();
                    save_pc!();
                    enter!(method, b, dst);
                }
                Op::CallFastPath { method, base: b, dst } => {
                    chaos_point!();
                    save_pc!();
                    if let Some(v) = self.try_fast_path(method, base + b.0 as usize) {
                        r!(dst) = v;
                    } else {
                        enter!(method, b, dst);
                    }
                }
                Op::CallVirt { method, base: b, dst } => {
                    chaos_point!();
                    let receiver = r!(b);
                    let Some(target) = self.resolve_virtual(method, receiver) else {
                        if receiver.is_null() {
                            throw_kind!(ExceptionKind::NullReference);
                        }
                        return Err(InvokeError::Fatal(format!("no implementation of {} for the receiver", self.meta.method(method).name)));
                    };
                    if let Value::Boxed(_) = receiver {
                        let view = self.unboxed_view(receiver);
                        r!(b) = view;
                    }
                    save_pc!();
                    enter!(target, b, dst);
                }
                Op::CallStaticVirt { method, base: b, dst, ty } => {
                    let Value::Type(ty) = r!(ty) else { return Err(self.bad_operands(func, pc, "CallStaticVirt")) };
                    let Some(target) = self.resolve_static_virtual(method, ty) else {
                        return Err(InvokeError::Fatal(format!("no implementation of {} for the type argument", self.meta.method(method).name)));
                    };
                    save_pc!();
                    enter!(target, b, dst);
                }
                Op::CallInterface { method, base: b, dst, iface } => {
                    chaos_point!();
                    let receiver = r!(b);
                    let Value::Type(iface) = r!(iface) else { return Err(self.bad_operands(func, pc, "CallInterface")) };
                    let Some(target) = self.resolve_interface_by_type(method, iface, receiver) else {
                        if receiver.is_null() {
                            throw_kind!(ExceptionKind::NullReference);
                        }
                        return Err(InvokeError::Fatal(format!("no implementation of {} for the receiver", self.meta.method(method).name)));
                    };
                    save_pc!();
                    enter!(target, b, dst);
                }
                Op::CallNative { native, base: b, dst, .. } if calls::is_frame_switching(native) => {
                    save_pc!();
                    return self.switch_frames(native, base + b.0 as usize, dst);
                }
                Op::CallNative { native, base: b, argc, dst } => {
                    let start = base + b.0 as usize;
                    match self.call_native(native, start, argc as usize) {
                        Ok(v) => {
                            r!(dst) = v;
                            self.maybe_collect();
                        }
                        Err(e) => {
                            save_pc!();
                            return self.native_failure(e, pc as u32 - 1, dst);
                        }
                    }
                }
                Op::CallDelegate { base: b, dst } => {
                    chaos_point!();
                    save_pc!();
                    let site = self.delegate_call_site(base + b.0 as usize);
                    match site.and_then(|(m, at)| self.enter_bytecode(m, at, dst)) {
                        Some(callee) => switch_to!(callee),
                        None => match site {
                            Some((m, at)) => return self.call(m, at, dst, pc as u32 - 1),
                            None => return self.call_delegate(base + b.0 as usize, dst, pc as u32 - 1),
                        },
                    }
                }
                Op::Return { src } => match self.return_to_caller(Some(base + src.0 as usize)) {
                    Some(caller) => switch_to!(caller),
                    None => {
                        let v = r!(src);
                        return self.return_from_frame(v);
                    }
                },
                Op::ReturnVoid => match self.return_to_caller(None) {
                    Some(caller) => switch_to!(caller),
                    None => return self.return_from_frame(Value::Null),
                },

                Op::NewDelegate { dst, ty, method } => {
                    if r!(dst).is_null() && !self.meta.method(method).is_static() {
                        let e = self.new_exception(ExceptionKind::Argument, Some(NULL_THIS_DELEGATE));
                        throw!(e);
                    }
                    if self.stats.enabled() && func.preemptible {
                        self.count_delegate(ty, method, r!(dst));
                    }
                    let v = self.new_delegate(ty, method, r!(dst));
                    r!(dst) = v;
                }
                Op::NewDelegateVirt { dst, ty, method } => {
                    let target = r!(dst);
                    match self.resolve_virtual(method, target) {
                        Some(m) => {
                            if self.stats.enabled() && func.preemptible {
                                self.count_delegate(ty, m, target);
                            }
                            let v = self.new_delegate(ty, m, target);
                            r!(dst) = v;
                        }
                        None => throw_kind!(ExceptionKind::NullReference),
                    }
                }
                Op::SetDelegateContext { delegate, ctx } => self.set_delegate_context(r!(delegate), r!(ctx)),
                Op::SetDelegateType { delegate, ty } => self.set_delegate_type(r!(delegate), r!(ty)),

                Op::TypeTest { dst, src, ty } => {
                    let b = self.is_instance(r!(src), ty);
                    r!(dst) = Value::Bool(b);
                }
                Op::TypeTestDyn { dst, src, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "TypeTestDyn")) };
                    let b = self.is_instance(r!(src), t);
                    r!(dst) = Value::Bool(b);
                }
                Op::IsInst { dst, src, ty } => {
                    let v = r!(src);
                    r!(dst) = if self.is_instance(v, ty) { self.unbox_for_as(v, ty) } else { Value::Null };
                }
                Op::CastClass { dst, src, ty } => match self.cast(r!(src), ty) {
                    Ok(v) => r!(dst) = v,
                    Err(e) => throw!(e),
                },
                Op::CastClassDyn { dst, src, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "CastClassDyn")) };
                    match self.cast(r!(src), t) {
                        Ok(v) => r!(dst) = v,
                        Err(e) => throw!(e),
                    }
                }
                Op::Box { dst, src, ty } => {
                    let v = self.box_value(r!(src), ty);
                    r!(dst) = v;
                }
                Op::BoxDyn { dst, src, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "BoxDyn")) };
                    let v = self.box_value(r!(src), t);
                    r!(dst) = v;
                }
                Op::ObjectView { dst, src, ty } => {
                    let v = self.object_view(r!(src), ty);
                    r!(dst) = v;
                }
                Op::TagEnumDyn { dst, src, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "TagEnumDyn")) };
                    let v = self.enum_tagged(r!(src), t);
                    r!(dst) = v;
                }
                Op::ObjectViewDyn { dst, src, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "ObjectViewDyn")) };
                    let v = self.object_view(r!(src), t);
                    r!(dst) = v;
                }
                Op::Unbox { dst, src, ty } => match self.cast(r!(src), ty) {
                    Ok(v) => r!(dst) = v,
                    Err(e) => throw!(e),
                },
                Op::DefaultDyn { dst, ty } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "DefaultDyn")) };
                    let v = self.default_value(t);
                    r!(dst) = v;
                }

                Op::Throw { src } => {
                    let exc = r!(src);
                    if exc.is_null() {
                        throw_kind!(ExceptionKind::NullReference);
                    }
                    save_pc!();
                    return self.throw_from_current(exc, pc as u32 - 1, false);
                }
                Op::Rethrow { src } => {
                    let exc = r!(src);
                    save_pc!();
                    return self.throw_from_current(exc, pc as u32 - 1, true);
                }
                Op::EndFinally { pending, table } => match r!(pending) {
                    Value::Null => {}
                    Value::I32(k) => match func.tables.get(table as usize).and_then(|t| t.targets.get(k as usize)) {
                        Some(t) => pc = t.0 as usize,
                        None => return Err(self.bad_operands(func, pc, "EndFinally")),
                    },
                    exc => {
                        save_pc!();
                        return self.continue_unwind(exc, pc as u32 - 1);
                    }
                },
                Op::StartAsync { method, base: b, dst } => {
                    save_pc!();
                    let (entry_ec, entry_sc) = (self.execution_context(), self.sync_context());
                    return self.push_async_frame(method, base + b.0 as usize, dst, FrameKind::AsyncRoot { entry_ec, entry_sc });
                }
                Op::CallAsync { method, base: b, dst } => {
                    save_pc!();
                    let (entry_ec, entry_sc) = (self.execution_context(), self.sync_context());
                    return self.push_async_frame(method, base + b.0 as usize, dst, FrameKind::AsyncCall { entry_ec, entry_sc });
                }
                Op::SpillToFields { obj, plan } => {
                    let machine = r!(obj);
                    for &(reg, slot) in func.spills.get(plan as usize).map_or(&[][..], Vec::as_slice) {
                        let v = r!(reg);
                        if !self.store_field(machine, slot, v) {
                            throw_kind!(ExceptionKind::NullReference);
                        }
                    }
                }
                Op::ReloadFromFields { obj, plan } => {
                    let machine = r!(obj);
                    for &(reg, slot) in func.spills.get(plan as usize).map_or(&[][..], Vec::as_slice) {
                        match self.load_field(machine, slot) {
                            Some(v) => r!(reg) = v,
                            None => throw_kind!(ExceptionKind::NullReference),
                        }
                    }
                }
                Op::AwaitSuspend { awaiter } => {
                    let a = r!(awaiter);
                    save_pc!();
                    return self.await_suspend(a);
                }
                Op::MakeGenerator { dst, ty, method, args, count } => {
                    let Value::Type(t) = r!(ty) else { return Err(self.bad_operands(func, pc, "MakeGenerator")) };
                    let start = base + args.0 as usize;
                    let values: Vec<Value> = self.thread.regs[start..start + count as usize].to_vec();
                    let v = self.make_generator(t, method, &values);
                    r!(dst) = v;
                    self.maybe_collect();
                }
                Op::YieldReturn { src, resume } => {
                    let v = r!(src);
                    return self.yield_return(v, pc as u32, resume);
                }
                Op::EndFilter { cond } => {
                    let verdict = r!(cond);
                    self.thread.frames.pop();
                    return Ok(Flow::Return(verdict));
                }
            }
        }
    }

    #[cold]
    fn bad_operands(&self, func: &Function, pc: usize, what: &str) -> InvokeError {
        InvokeError::Fatal(format!("internal error: bad operands for {what} at {}:{}", func.name, pc.saturating_sub(1)))
    }
}
