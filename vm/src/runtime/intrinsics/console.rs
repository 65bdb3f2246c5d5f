//! `System.Console` output.

use crate::runtime::native::{NativeEntry, NativeError, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Console.WriteString", func: write_string },
    NativeEntry { name: "Environment.Exit", func: exit },
];

/// `Console.Out.Write(string)`: `null` writes nothing.
fn write_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(s) = args.first().and_then(|&v| vm.string_of(v)) {
        vm.write_stdout(&s);
    }
    Ok(Value::Null)
}

fn exit(_: &mut Vm, args: &[Value]) -> NativeResult {
    Err(NativeError::Exit(args.first().and_then(Value::as_i32).unwrap_or(0)))
}
