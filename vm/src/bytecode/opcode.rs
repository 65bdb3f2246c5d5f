//! The instruction set: one enum, the single source of truth for the compiler, the
//! disassembler and the interpreter.
//!
//! The machine is register based. Every function has a window of `num_regs` registers;
//! `r0..` hold `this` (instance methods), the parameters, a hidden generic context (generic
//! code only), then locals and temporaries. Each variant documents its register effect in
//! the form `dst <- ...` and what it can throw. Operand types are newtypes so a register
//! cannot be passed where a jump target is expected.

use crate::metadata::{FieldId, MethodId, NativeId, TypeDefId, TypeId};
pub use crate::value::NumKind;

/// A register, relative to the current frame's window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u16);

/// An instruction index inside the current function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Target(pub u32);

/// An index into the function's constant pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstIdx(pub u32);

impl ConstIdx {
    /// "No constant" (e.g. no format string).
    pub const NONE: ConstIdx = ConstIdx(u32::MAX);
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    // ---- constants and moves -------------------------------------------------------------
    /// `dst <- src`.
    Move { dst: Reg, src: Reg },
    /// `dst <- null`.
    LoadNull { dst: Reg },
    /// `dst <- value`.
    LoadBool { dst: Reg, value: bool },
    /// `dst <- value` (an `int`).
    LoadI32 { dst: Reg, value: i32 },
    /// `dst <- consts[index]` (longs, doubles, strings, decimals...).
    LoadConst { dst: Reg, index: ConstIdx },
    /// `dst <- ty` as a run-time type handle (for hidden generic arguments).
    LoadType { dst: Reg, ty: TypeId },
    /// `dst <- open` with its type parameters replaced from the generic context in `ctx`.
    ResolveType { dst: Reg, open: TypeId, ctx: Reg },
    /// `dst <-` the generic context of an instance method of the generic type `def`: the
    /// class arguments come from the run-time type of `this`; if `dst` already holds a
    /// context (a generic method's hidden argument), its method arguments are kept.
    ContextFromThis { dst: Reg, this: Reg, def: TypeDefId },
    /// `dst <-` the generic context for calling a generic method: the class arguments of
    /// the context or class type in `class_ctx` (none if it holds `null`) and the `count`
    /// method type arguments held in `args..args+count`.
    MakeContext { dst: Reg, class_ctx: Reg, args: Reg, count: u16 },

    // ---- arithmetic (both operands have the same numeric type) ---------------------------
    /// `dst <- a + b`, wrapping for integers. Strings are concatenated by `Concat`.
    Add { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a - b`, wrapping.
    Sub { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a * b`, wrapping.
    Mul { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a / b`. Throws `DivideByZeroException` (integer `b == 0`) and
    /// `OverflowException` (`MinValue / -1`).
    Div { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a % b`. Throws like `Div`.
    Rem { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a + b`. Throws `OverflowException` on integer overflow (`checked`).
    AddChecked { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a - b`. Throws `OverflowException` on integer overflow.
    SubChecked { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a * b`. Throws `OverflowException` on integer overflow.
    MulChecked { dst: Reg, a: Reg, b: Reg },
    /// `dst <- -src`, wrapping.
    Neg { dst: Reg, src: Reg },
    /// `dst <- -src`. Throws `OverflowException` for `MinValue`.
    NegChecked { dst: Reg, src: Reg },
    /// `dst <- src + imm` on an `int` (loop counters, `i++`), wrapping.
    AddI32Imm { dst: Reg, src: Reg, imm: i16 },
    /// `dst <- a & b` (integers and bools).
    BitAnd { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a | b` (integers and bools).
    BitOr { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a ^ b` (integers and bools).
    BitXor { dst: Reg, a: Reg, b: Reg },
    /// `dst <- ~src`.
    BitNot { dst: Reg, src: Reg },
    /// `dst <- a << b` (count masked to the operand width, as C#).
    Shl { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a >> b` (arithmetic for signed, logical for unsigned operands).
    Shr { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a >>> b` (always logical).
    UShr { dst: Reg, a: Reg, b: Reg },
    /// `dst <- !src` (bool).
    Not { dst: Reg, src: Reg },

    // ---- comparisons: `dst <- bool` ----------------------------------------------------
    /// `dst <- a == b`: numbers by value, references by identity, `null == null`.
    Eq { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a != b`.
    Ne { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a < b` (numbers; false if either is NaN).
    Lt { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a <= b`.
    Le { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a > b`.
    Gt { dst: Reg, a: Reg, b: Reg },
    /// `dst <- a >= b`.
    Ge { dst: Reg, a: Reg, b: Reg },

    // ---- conversions ---------------------------------------------------------------------
    /// `dst <- (to)src`, unchecked (wraps integers; float → integer saturates as .NET 9+).
    Convert { dst: Reg, src: Reg, to: NumKind },
    /// `dst <- checked((to)src)`. Throws `OverflowException` when out of range.
    ConvertChecked { dst: Reg, src: Reg, to: NumKind },

    // ---- control flow --------------------------------------------------------------------
    /// `pc <- target`.
    Jump { target: Target },
    /// `if cond { pc <- target }`.
    JumpIfTrue { cond: Reg, target: Target },
    /// `if !cond { pc <- target }`.
    JumpIfFalse { cond: Reg, target: Target },
    /// `if src == null { pc <- target }`.
    JumpIfNull { src: Reg, target: Target },
    /// `if src != null { pc <- target }`.
    JumpIfNotNull { src: Reg, target: Target },
    /// `if a < b { pc <- target }` (fused compare-and-branch, as `Lt`).
    JumpIfLt { a: Reg, b: Reg, target: Target },
    /// `if a <= b { pc <- target }`.
    JumpIfLe { a: Reg, b: Reg, target: Target },
    /// `if a > b { pc <- target }`.
    JumpIfGt { a: Reg, b: Reg, target: Target },
    /// `if a >= b { pc <- target }`.
    JumpIfGe { a: Reg, b: Reg, target: Target },
    /// `if a == b { pc <- target }` (as `Eq`).
    JumpIfEq { a: Reg, b: Reg, target: Target },
    /// `if a != b { pc <- target }`.
    JumpIfNe { a: Reg, b: Reg, target: Target },
    /// `pc <- tables[table][src - low]`, or fall through when out of range.
    Switch { src: Reg, table: u32 },

    // ---- objects -------------------------------------------------------------------------
    /// `dst <-` a new instance of class or struct `ty` with default field values
    /// (the constructor is called separately).
    New { dst: Reg, ty: TypeId },
    /// `dst <-` a new instance of the run-time type held in `ty` (`default` of a value
    /// type: `new T()` with `T` a struct is its zero value).
    NewDyn { dst: Reg, ty: Reg },
    /// Runs the parameterless constructor of the class held in `ty` on the instance in
    /// `obj` (`new T()`), with `base` as its argument window; a constructor the VM
    /// implements natively makes the instance itself, into `obj`. Nothing for a value type.
    InitDyn { obj: Reg, base: Reg, ty: Reg },
    /// `dst <- obj.fields[slot]`. Throws `NullReferenceException`.
    LoadField { dst: Reg, obj: Reg, slot: u16 },
    /// `obj.fields[slot] <- src`. Throws `NullReferenceException`.
    StoreField { obj: Reg, slot: u16, src: Reg },
    /// `dst <- ` static `field` of `ty` (runs the static constructor first if needed).
    LoadStatic { dst: Reg, ty: TypeId, field: FieldId },
    /// Static `field` of `ty` `<- src` (runs the static constructor first if needed).
    StoreStatic { ty: TypeId, field: FieldId, src: Reg },
    /// `dst <-` static `field` of the run-time type in `ty` (generic types).
    LoadStaticDyn { dst: Reg, ty: Reg, field: FieldId },
    /// Static `field` of the run-time type in `ty` `<- src`.
    StoreStaticDyn { ty: Reg, field: FieldId, src: Reg },
    /// `dst <-` a copy of the struct in `src`; any other value is moved unchanged (so
    /// generic code can copy a `T` without knowing whether it is a struct).
    CopyStruct { dst: Reg, src: Reg },
    /// Runs the static constructor of `ty` if it has not run (before a static method call).
    InitType { ty: TypeId },

    // ---- arrays --------------------------------------------------------------------------
    /// `dst <- new elem[len]` where `ty` is the array type. Throws `OverflowException`
    /// for a negative length.
    NewArray { dst: Reg, ty: TypeId, len: Reg },
    /// As `NewArray` with the array type taken from a register.
    NewArrayDyn { dst: Reg, ty: Reg, len: Reg },
    /// `dst <-` a new multi-dimensional array of type `ty` with `rank` lengths in
    /// `dims..dims+rank`.
    NewArrayMulti { dst: Reg, ty: TypeId, dims: Reg },
    /// As `NewArrayMulti` with the array type taken from a register (an array of a type
    /// parameter); `rank` is the static type's.
    NewArrayMultiDyn { dst: Reg, ty: Reg, dims: Reg, rank: u8 },
    /// `dst <- arr[index]`. Throws `NullReferenceException`, `IndexOutOfRangeException`.
    LoadElem { dst: Reg, arr: Reg, index: Reg },
    /// `arr[index] <- src` where the array's element type is exactly the static one (a
    /// value type, a sealed class, a fresh array). Throws like `LoadElem`.
    StoreElem { arr: Reg, index: Reg, src: Reg },
    /// As `StoreElem` into an array that may be covariant (`object[] o = new string[1]`):
    /// throws `ArrayTypeMismatchException` when `src` is not an instance of the array's
    /// run-time element type.
    StoreElemChecked { arr: Reg, index: Reg, src: Reg },
    /// `dst <- arr[i0, i1, ...]` with the indexes in `indexes..indexes+rank`.
    LoadElemMulti { dst: Reg, arr: Reg, indexes: Reg },
    /// `arr[i0, i1, ...] <- src`.
    StoreElemMulti { arr: Reg, indexes: Reg, src: Reg },
    /// `dst <-` the flat (row-major) index of `arr[i0, i1, ...]`, the indexes in
    /// `indexes..indexes+rank` (for `MakeRefElem`). Throws like `LoadElemMulti`.
    ElemIndex { dst: Reg, arr: Reg, indexes: Reg },
    /// `dst <- arr.Length` (an `int`). Throws `NullReferenceException`.
    ArrayLength { dst: Reg, arr: Reg },

    // ---- managed references (`ref`/`out` arguments) -----------------------------------------
    /// `dst <-` a reference to `obj.fields[slot]`. Throws `NullReferenceException`.
    MakeRefField { dst: Reg, obj: Reg, slot: u16 },
    /// `dst <-` a reference to `arr[index]`. Throws like `LoadElem`.
    MakeRefElem { dst: Reg, arr: Reg, index: Reg },
    /// Before a `MakeRefElem` into an array that may be covariant: throws
    /// `ArrayTypeMismatchException` unless the array's run-time element type is exactly
    /// `ty` (a reference could store any `ty` into it), as CoreCLR's `ldelema` does.
    CheckElemTypeExact { arr: Reg, ty: TypeId },
    /// `dst <-` a reference to static `field` of `ty` (runs its static constructor).
    MakeRefStatic { dst: Reg, ty: TypeId, field: FieldId },
    /// `dst <-` a reference to static `field` of the run-time type in `ty` (generic types).
    MakeRefStaticDyn { dst: Reg, ty: Reg, field: FieldId },
    /// `dst <- *r` (read through a reference).
    LoadRef { dst: Reg, r: Reg },
    /// `*r <- src` (write through a reference).
    StoreRef { r: Reg, src: Reg },

    // ---- strings -------------------------------------------------------------------------
    /// `dst <-` the concatenation of the `count` strings in `first..first+count` (`null`
    /// counts as empty; an integer counts as its `ToString()`, written straight in).
    Concat { dst: Reg, first: Reg, count: u16 },
    /// `dst <- src.ToString(format)` for a primitive, enum or string value, using the current
    /// culture; `format` is a constant string, or `ConstIdx::NONE` for the default format.
    FormatValue { dst: Reg, src: Reg, format: ConstIdx },

    // ---- calls ---------------------------------------------------------------------------
    /// Throws `NullReferenceException` when `src` is `null`: the receiver check C#'s
    /// `callvirt` makes before a non-virtual instance call that is not a plain `Call`
    /// (those are `CallChecked`).
    NullCheck { src: Reg },
    /// Calls `method` non-virtually. Arguments (receiver first) are in `base..`; the callee's
    /// frame starts at `base`. `dst <-` the return value.
    Call { method: MethodId, base: Reg, dst: Reg },
    /// As `Call`, on a receiver that may be `null`: throws `NullReferenceException` for a
    /// `null` one first (C#'s `callvirt` of a non-virtual method, as one instruction).
    CallChecked { method: MethodId, base: Reg, dst: Reg },
    /// As `Call`, for a library method with a fast path (`[Intrinsic("name")]` on a method
    /// with a body, see `runtime::intrinsics::fast_paths`): the fast path answers, or, when
    /// it declines, the method's body runs as for `Call`.
    CallFastPath { method: MethodId, base: Reg, dst: Reg },
    /// Calls `method` virtually: through the vtable of the receiver in `base`, or through its
    /// interface map for interface methods. Throws `NullReferenceException`.
    CallVirt { method: MethodId, base: Reg, dst: Reg },
    /// As `CallVirt`, for a method of a generic interface that some type implements with
    /// different type arguments (`IOp<ushort>`, `IOp<uint>`): `iface` holds the run-time
    /// interface type, which picks among the receiver's implementations.
    CallInterface { method: MethodId, base: Reg, dst: Reg, iface: Reg },
    /// Calls the implementation of the static abstract or virtual interface method `method`
    /// by the run-time type in `ty` (`T.M()` on a type parameter constrained to the
    /// interface). Arguments are in `base..`.
    CallStaticVirt { method: MethodId, base: Reg, dst: Reg, ty: Reg },
    /// Calls a Rust intrinsic with `argc` arguments in `base..`. `dst <-` its result.
    CallNative { native: NativeId, base: Reg, argc: u8, dst: Reg },
    /// Invokes the delegate in `base` with the arguments in `base+1..`. `dst <-` the result.
    /// Throws `NullReferenceException`.
    CallDelegate { base: Reg, dst: Reg },
    /// Returns `src` to the caller.
    Return { src: Reg },
    /// Returns from a `void` method.
    ReturnVoid,

    // ---- delegates -----------------------------------------------------------------------
    /// `dst <-` a delegate of type `ty` calling `method` on the target that `dst` holds
    /// before the instruction (`null` for a static method).
    NewDelegate { dst: Reg, ty: TypeId, method: MethodId },
    /// As `NewDelegate`, but `method` is resolved virtually on the target first.
    /// Throws `NullReferenceException` for a `null` target.
    NewDelegateVirt { dst: Reg, ty: TypeId, method: MethodId },
    /// Gives the delegate just created in `delegate` the generic context in `ctx`, which
    /// its method receives as its hidden last argument on every invocation.
    SetDelegateContext { delegate: Reg, ctx: Reg },
    /// Gives the delegate just created in `delegate` the run-time type in `ty`: a delegate
    /// made in generic code has its closed type (`Func<int>` for `Func<T>`), so type
    /// tests, casts and `GetType()` see it.
    SetDelegateType { delegate: Reg, ty: Reg },

    // ---- type tests and boxing -----------------------------------------------------------
    /// `dst <- src is ty` (a bool).
    TypeTest { dst: Reg, src: Reg, ty: TypeId },
    /// `dst <- src is <type in ty>`.
    TypeTestDyn { dst: Reg, src: Reg, ty: Reg },
    /// `dst <- src as ty` (`null` when the test fails).
    IsInst { dst: Reg, src: Reg, ty: TypeId },
    /// `dst <- (ty)src`. Throws `InvalidCastException` (and `NullReferenceException` when
    /// unboxing `null` to a value type).
    CastClass { dst: Reg, src: Reg, ty: TypeId },
    /// `dst <- (<type in ty>)src`.
    CastClassDyn { dst: Reg, src: Reg, ty: Reg },
    /// `dst <- (object)src` where `src` has value type `ty`: a new box (`null` for an empty
    /// nullable).
    Box { dst: Reg, src: Reg, ty: TypeId },
    /// As `Box`, for a type parameter whose run-time type is in `ty` (a reference type's
    /// value is left as it is).
    BoxDyn { dst: Reg, src: Reg, ty: Reg },
    /// `dst <- src` seen as an `object` without a box, where the object is only read at
    /// once (a type test, a format, an enum's receiver): tags an enum, copies a struct.
    ObjectView { dst: Reg, src: Reg, ty: TypeId },
    /// As `ObjectView`, for a type parameter whose run-time type is in `ty`.
    ObjectViewDyn { dst: Reg, src: Reg, ty: Reg },
    /// `dst <- src` with its enum type tag when the run-time type in `ty` is an enum, else
    /// unchanged: the receiver of a call on a type parameter's value, so `x.ToString()` and
    /// `x.Equals(y)` with `T` an enum reach `Enum`'s methods, not the underlying integer's.
    TagEnumDyn { dst: Reg, src: Reg, ty: Reg },
    /// `dst <- (ty)src` where `ty` is a value type: checks the type, strips an enum tag,
    /// copies a struct. Throws `InvalidCastException`, `NullReferenceException`.
    Unbox { dst: Reg, src: Reg, ty: TypeId },
    /// `dst <- default(<type in ty>)` (a zero, `null`, or a new default struct).
    DefaultDyn { dst: Reg, ty: Reg },

    // ---- exceptions ----------------------------------------------------------------------
    /// Throws the exception in `src` (starting a new stack trace). `null` throws
    /// `NullReferenceException`.
    Throw { src: Reg },
    /// Rethrows the exception in `src`, keeping its stack trace (`throw;`).
    Rethrow { src: Reg },
    /// Ends a `finally` block: `pending` holds `null` (fall through), an `int` k (jump to
    /// `tables[table][k]`) or an exception (continue unwinding with it).
    EndFinally { pending: Reg, table: u32 },
    // ---- runtime async ---------------------------------------------------------------------
    /// Starts the runtime-async body `method` with the arguments at `base`, as a task-
    /// returning stub does. When it returns, `dst` gets 0 and `dst + 1` the value; when it
    /// suspends, 1 and the continuation chain; when it throws, 2 and the exception.
    StartAsync { method: MethodId, base: Reg, dst: Reg },
    /// Calls the runtime-async body `method` from another one: a normal call if it
    /// returns; if it suspends, the caller suspends as well and resumes here with the
    /// result in `dst`.
    CallAsync { method: MethodId, base: Reg, dst: Reg },
    /// `await` found `awaiter` incomplete: suspends this frame and its runtime-async
    /// callers into a continuation chain; execution goes on at the next instruction when
    /// the dispatcher resumes it.
    AwaitSuspend { awaiter: Reg },

    // ---- classic async ---------------------------------------------------------------------
    /// Before a classic state machine suspends at await site `plan`: stores the registers
    /// live across it into the state machine `obj`'s fields (Roslyn's hoisted locals
    /// `<x>5__N`, display references `<>8__N` and spilled temporaries `<>s__N`), as listed
    /// in `Function::spills[plan]` (filled from the liveness analysis).
    SpillToFields { obj: Reg, plan: u16 },
    /// At the resume point of await site `plan`: loads those registers back.
    ReloadFromFields { obj: Reg, plan: u16 },

    // ---- iterators ------------------------------------------------------------------------
    /// `dst <-` a new `Iterator<T>` (`ty` holds the type) whose body is `method`, called with
    /// the `count` arguments starting at `args` when `MoveNext` first runs.
    MakeGenerator { dst: Reg, ty: Reg, method: MethodId, args: Reg, count: u8 },
    /// `yield return src`: suspends the iterator frame (only in one) and returns `true` from
    /// `MoveNext`. When the frame is resumed, `resume` receives `true` if `Dispose` resumed
    /// it (the code that follows then leaves through the enclosing `finally` blocks).
    YieldReturn { src: Reg, resume: Reg },

    /// Ends the code of an exception filter: `cond` (a `bool`) tells the handler search
    /// whether the `catch` takes the exception. Only runs in a filter frame.
    EndFilter { cond: Reg },
}

impl Op {
    /// The jump targets of this instruction (for the disassembler and verifier).
    pub fn jump_target(&self) -> Option<Target> {
        match *self {
            Op::Jump { target }
            | Op::JumpIfTrue { target, .. }
            | Op::JumpIfFalse { target, .. }
            | Op::JumpIfNull { target, .. }
            | Op::JumpIfNotNull { target, .. }
            | Op::JumpIfLt { target, .. }
            | Op::JumpIfLe { target, .. }
            | Op::JumpIfGt { target, .. }
            | Op::JumpIfGe { target, .. }
            | Op::JumpIfEq { target, .. }
            | Op::JumpIfNe { target, .. } => Some(target),
            _ => None,
        }
    }

    /// Mutable access to the jump target, for back-patching.
    /// The type operand of instructions that name a type.
    pub fn type_operand_mut(&mut self) -> Option<&mut TypeId> {
        match self {
            Op::LoadType { ty, .. }
            | Op::New { ty, .. }
            | Op::LoadStatic { ty, .. }
            | Op::StoreStatic { ty, .. }
            | Op::InitType { ty }
            | Op::NewArray { ty, .. }
            | Op::NewArrayMulti { ty, .. }
            | Op::MakeRefStatic { ty, .. }
            | Op::CheckElemTypeExact { ty, .. }
            | Op::NewDelegate { ty, .. }
            | Op::NewDelegateVirt { ty, .. }
            | Op::TypeTest { ty, .. }
            | Op::IsInst { ty, .. }
            | Op::CastClass { ty, .. }
            | Op::Box { ty, .. }
            | Op::ObjectView { ty, .. }
            | Op::Unbox { ty, .. } => Some(ty),
            Op::ResolveType { open, .. } => Some(open),
            _ => None,
        }
    }

    pub fn jump_target_mut(&mut self) -> Option<&mut Target> {
        match self {
            Op::Jump { target }
            | Op::JumpIfTrue { target, .. }
            | Op::JumpIfFalse { target, .. }
            | Op::JumpIfNull { target, .. }
            | Op::JumpIfNotNull { target, .. }
            | Op::JumpIfLt { target, .. }
            | Op::JumpIfLe { target, .. }
            | Op::JumpIfGt { target, .. }
            | Op::JumpIfGe { target, .. }
            | Op::JumpIfEq { target, .. }
            | Op::JumpIfNe { target, .. } => Some(target),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn op_is_twelve_bytes() {
        assert!(std::mem::size_of::<super::Op>() <= 12);
    }
}
