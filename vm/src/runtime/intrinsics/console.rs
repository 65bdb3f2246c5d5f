//! `System.Console` and `System.Environment`.

use super::support::arg;
use crate::runtime::native::{NativeEntry, NativeError, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Console.WriteString", func: write_string },
    NativeEntry { name: "Console.ReadLine", func: read_line },
    NativeEntry { name: "Environment.Exit", func: exit },
    NativeEntry { name: "Environment.FailFast", func: fail_fast },
    NativeEntry { name: "Environment.ProcessorCount", func: processor_count },
    NativeEntry { name: "Environment.CurrentManagedThreadId", func: super::threading::current_managed_thread_id },
    NativeEntry { name: "Environment.GetCommandLineArgs", func: command_line_args },
];

/// `Console.Out.Write(string)`: `null` writes nothing.
fn write_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(s) = vm.string_of(arg(args, 0)) {
        vm.write_stdout(&s);
    }
    Ok(Value::Null)
}

fn read_line(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.flush();
    let mut line = String::new();
    match std::io::stdin().read_line(&mut line) {
        Ok(0) | Err(_) => Ok(Value::Null),
        Ok(_) => {
            let trimmed = line.trim_end_matches(['\n', '\r']);
            Ok(vm.alloc_str(trimmed))
        }
    }
}

fn exit(_: &mut Vm, args: &[Value]) -> NativeResult {
    Err(NativeError::Exit(args.first().and_then(Value::as_i32).unwrap_or(0)))
}

fn fail_fast(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let msg = vm.string_of(arg(args, 0)).unwrap_or_default();
    vm.write_stderr(&format!("Process terminated. {msg}\n"));
    Err(NativeError::Exit(134))
}

fn processor_count(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I32(vm.options.cpus as i32))
}

fn command_line_args(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let mut all = vec![vm.options.program_name.clone()];
    all.extend(vm.options.args.iter().cloned());
    Ok(vm.new_string_array(&all))
}
