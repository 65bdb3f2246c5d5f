//! The interface between bytecode and Rust intrinsics: [`NativeId`]s, the signature every
//! intrinsic has, what it can return, and the native payloads kept on the heap.
//!
//! An intrinsic never calls back into managed code: anything that needs user code (a
//! `ToString` override, a comparison delegate) is written in cs-lite and calls intrinsics
//! only for the parts that are plumbing.

use super::Vm;
use crate::metadata::TypeId;
use crate::value::Value;

pub use crate::metadata::NativeId;
pub use crate::value::ExceptionKind;

/// What an intrinsic does instead of returning normally.
#[derive(Debug)]
pub enum NativeError {
    /// Throw this managed exception object.
    Throw(Value),
    /// Throw a new exception of a well-known type with this message.
    ThrowNew(ExceptionKind, String),
    /// End the process with this exit code (`Environment.Exit`).
    Exit(i32),
    /// A VM invariant broke (a bug, never a user error): stop with this message.
    Fatal(String),
    /// Block the calling thread: the call completes when another thread unparks it (with
    /// `true`) or, after `timeout` ticks, by itself (with `false`). Only `interruptible`
    /// parks can be ended by `Unpark`.
    Park { timeout: Option<i64>, interruptible: bool },
    /// Let other runnable threads go first (`Thread.Yield`, `Thread.Sleep(0)`).
    Yield,
}

pub type NativeResult = Result<Value, NativeError>;

/// An intrinsic: gets the VM and its arguments (receiver first), returns a value.
pub type NativeFn = fn(&mut Vm, &[Value]) -> NativeResult;

/// A registry entry: the name cs-lite uses in `[Intrinsic("name")]` (or `Type.Method`).
pub struct NativeEntry {
    pub name: &'static str,
    pub func: NativeFn,
}

/// One stack-trace entry: the method, the instruction, and the frame's depth (so a
/// rethrow from the same frame is not recorded twice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceFrame {
    pub func: crate::bytecode::FunctionId,
    pub pc: u32,
    pub depth: u32,
}

/// Heap storage owned by intrinsics.
pub enum NativeData {
    /// A `StringBuilder`'s buffer.
    StringBuilder(Vec<u16>),
    /// The frames an exception passed through, innermost first.
    StackTrace(Vec<TraceFrame>),
    /// A hash table keyed by value (Dictionary/HashSet storage), see `intrinsics::hashing`.
    HashTable(Box<super::hashtable::HashTable>),
    /// The result of `typeof`/`GetType` cached per type lives in `Obj::Type`; this holds a
    /// type list for reflection-like helpers.
    Types(Vec<TypeId>),
    /// An open file (`None` once closed), see `intrinsics::files`.
    File(Option<Box<dyn super::file_system::OpenFile>>),
    /// A `BigInteger`'s value, see `intrinsics::bigint`.
    BigInt(num_bigint::BigInt),
    /// A compiled `Regex`, see `intrinsics::regex`.
    Regex(Box<super::intrinsics::regex::CompiledRegex>),
}

impl NativeData {
    /// Visits every managed value held (for the GC).
    pub fn for_each_value(&self, f: &mut dyn FnMut(&Value)) {
        match self {
            NativeData::StringBuilder(_)
            | NativeData::StackTrace(_)
            | NativeData::Types(_)
            | NativeData::File(_)
            | NativeData::BigInt(_)
            | NativeData::Regex(_) => {}
            NativeData::HashTable(t) => t.for_each_value(f),
        }
    }
}
