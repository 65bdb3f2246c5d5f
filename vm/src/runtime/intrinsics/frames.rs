//! Intrinsics the interpreter performs itself because they push frames: resuming an
//! iterator (`MoveNext`, `Dispose`), resuming a runtime-async continuation chain, and
//! reflection's calls (`interp::reflection_invoke`). They
//! come first in the registry, at fixed ids (`interp::generators`,
//! `interp::runtime_async`), and are never called as functions.

use crate::runtime::native::{NativeEntry, NativeError, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

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
