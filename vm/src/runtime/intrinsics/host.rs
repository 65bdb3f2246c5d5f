//! The intrinsics behind `Interop` (stdlib `Random.Xoshiro.cs-lite`) and the wall clock
//! (`DateTime.UtcNow`): the answers [`crate::runtime::host_model`] gives in place of the
//! operating system's.

use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] =
    &[NativeEntry { name: "Interop.GetRandomUInt64", func: random_u64 }, NativeEntry { name: "Interop.UtcNowTicks", func: utc_now_ticks }];

fn random_u64(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::U64(vm.entropy.next_u64()))
}

/// `DateTime` ticks now: the `--now` start plus the virtual clock.
fn utc_now_ticks(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I64(vm.options.now_ticks.saturating_add(vm.sched.now)))
}
