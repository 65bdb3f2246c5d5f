//! Intrinsics of async code: what a suspended runtime-async continuation chain waits on
//! (`AsyncHelpers`), and the classic builders' suspension and resumption events for
//! `--stats` (`AsyncStats`).

use super::support::{arg, nre};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "AsyncHelpers.Notifier", func: notifier },
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
