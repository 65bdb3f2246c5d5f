//! Intrinsics of async code: what a suspended runtime-async continuation chain waits on and
//! the contexts its first frame captured (`AsyncHelpers`), and the classic builders'
//! suspension and resumption events for `--stats` (`AsyncStats`).

use super::support::{arg, nre};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "AsyncHelpers.Notifier", func: notifier },
    NativeEntry { name: "AsyncHelpers.ExecutionContextOf", func: execution_context_of },
    NativeEntry { name: "AsyncHelpers.FlowsExecutionContext", func: flows_execution_context },
    NativeEntry { name: "AsyncHelpers.SynchronizationContextOf", func: synchronization_context_of },
    NativeEntry { name: "AsyncStats.FrameSuspended", func: frame_suspended },
    NativeEntry { name: "AsyncStats.FrameResumed", func: frame_resumed },
];

/// The awaiter the innermost frame of a chain suspended on.
fn notifier(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Continuation(c)) => Ok(c.awaiter),
        _ => Err(nre()),
    }
}

/// The ExecutionContext the first frame of a chain suspended in (null: Default).
fn execution_context_of(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Continuation(c)) => Ok(c.exec_ctx),
        _ => Err(nre()),
    }
}

/// Whether the first frame of a chain resumes under the ExecutionContext it captured (flow
/// was not suppressed when it suspended).
fn flows_execution_context(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Continuation(c)) => {
            let ec = c.exec_ctx.gc_ref();
            Ok(Value::Bool(vm.context_flows(ec)))
        }
        _ => Err(nre()),
    }
}

/// The SynchronizationContext the first frame of a chain suspended in (null: none).
fn synchronization_context_of(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Continuation(c)) => Ok(c.sync_ctx),
        _ => Err(nre()),
    }
}

fn frame_suspended(vm: &mut Vm, _: &[Value]) -> NativeResult {
    if vm.stats.enabled() {
        vm.stats.suspensions += 1;
    }
    Ok(Value::Null)
}

fn frame_resumed(vm: &mut Vm, _: &[Value]) -> NativeResult {
    if vm.stats.enabled() {
        vm.stats.resumptions += 1;
    }
    Ok(Value::Null)
}
