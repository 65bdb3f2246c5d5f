//! The Rust half of `System.Threading.Tasks`: the one fact the task library cannot compute
//! in cs-lite, how deep the calling thread's stack is (continuations stop being inlined
//! near the limit, as CoreLib's `RuntimeHelpers.TryEnsureSufficientExecutionStack` decides).

use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[NativeEntry { name: "Task.StackDepth", func: stack_depth }];

/// `Task.StackDepth()`: the number of frames on the calling thread.
fn stack_depth(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I32(vm.thread.frames.len() as i32))
}
