//! The Rust half of `InteractiveDisplay` (the REPL's value display): a value's type as C#
//! spells it, which cs-lite cannot compute.

use super::support::arg;
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[NativeEntry { name: "InteractiveDisplay.TypeName", func: type_name }];

/// `InteractiveDisplay.TypeName(value)`: `List<int>`, `int[]`, `Program.Point`.
fn type_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let name = match vm.type_of(arg(args, 0)) {
        Some(t) => vm.meta.cs_short_name(t),
        None => String::from("object"),
    };
    Ok(vm.alloc_str(&name))
}
