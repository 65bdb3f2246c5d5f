//! Intrinsics the interpreter performs itself because they push frames: resuming an
//! iterator (`MoveNext`, `Dispose`), resuming a runtime-async continuation chain, and
//! reflection's calls (`interp::reflection_invoke`). They
//! come first in the registry, at the fixed ids below (used by `interp::calls`), and are
//! never called as functions. `vm/tests/contracts.rs` checks each id against the registry.

use crate::runtime::native::{NativeEntry, NativeError, NativeId, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// `Iterator.MoveNext`: entry 0 of [`ENTRIES`], the registry's first area.
pub const ITERATOR_MOVE_NEXT: NativeId = NativeId(0);
/// `Iterator.Dispose`.
pub const ITERATOR_DISPOSE: NativeId = NativeId(1);
/// `AsyncHelpers.ResumeChain`.
pub const RESUME_CHAIN: NativeId = NativeId(2);
/// `ReflectionCore.InvokeMethod(int method, object target, object[] args, Type declaring)`.
pub const INVOKE_METHOD: NativeId = NativeId(3);
/// `ReflectionCore.RunClassConstructor(Type type)`.
pub const RUN_CLASS_CONSTRUCTOR: NativeId = NativeId(4);

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Iterator.MoveNext", func: performed_by_interpreter },
    NativeEntry { name: "Iterator.Dispose", func: performed_by_interpreter },
    NativeEntry { name: "AsyncHelpers.ResumeChain", func: performed_by_interpreter },
    NativeEntry { name: "Reflection.InvokeMethod", func: performed_by_interpreter },
    NativeEntry { name: "Reflection.RunClassConstructor", func: performed_by_interpreter },
];

fn performed_by_interpreter(_: &mut Vm, _: &[Value]) -> NativeResult {
    Err(NativeError::Fatal("a frame-switching intrinsic was called as a function".into()))
}
