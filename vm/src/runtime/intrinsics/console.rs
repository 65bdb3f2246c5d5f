//! `System.Console` and `System.Environment`.

use super::support::{arg, int_arg};
use crate::runtime::entry::OUTPUT_LIMIT_EXIT_CODE;
use crate::runtime::native::{NativeEntry, NativeError, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Console.WriteString", func: write_string },
    NativeEntry { name: "Console.WriteErrorString", func: write_error_string },
    NativeEntry { name: "Console.ReadLine", func: read_line },
    NativeEntry { name: "Console.ReadChar", func: read_char },
    NativeEntry { name: "Console.PeekChar", func: peek_char },
    NativeEntry { name: "Console.IsRedirected", func: is_redirected },
    NativeEntry { name: "Environment.Exit", func: exit },
    NativeEntry { name: "Environment.FailFast", func: fail_fast },
    NativeEntry { name: "Environment.ProcessorCount", func: processor_count },
    NativeEntry { name: "Environment.CurrentManagedThreadId", func: super::threading::current_managed_thread_id },
    NativeEntry { name: "Environment.GetCommandLineArgs", func: command_line_args },
    NativeEntry { name: "Environment.GetEnvironmentVariable", func: environment_variable },
];

/// `Console.Out.Write(string)`: `null` writes nothing.
fn write_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match vm.string_of(arg(args, 0)) {
        Some(s) => write_limited(vm, &s, Vm::write_stdout),
        None => Ok(Value::Null),
    }
}

/// `Console.Error.Write(string)`: `null` writes nothing.
fn write_error_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match vm.string_of(arg(args, 0)) {
        Some(s) => write_limited(vm, &s, Vm::write_stderr),
        None => Ok(Value::Null),
    }
}

/// Writes `text` with `write`, within `--max-output`: the part that still fits, then the
/// VM's message, and the program stops with [`OUTPUT_LIMIT_EXIT_CODE`].
fn write_limited(vm: &mut Vm, text: &str, write: fn(&mut Vm, &str)) -> NativeResult {
    let Some(max) = vm.options.max_output else {
        write(vm, text);
        return Ok(Value::Null);
    };
    let room = max.saturating_sub(vm.output_written);
    if text.len() <= room {
        vm.output_written += text.len();
        write(vm, text);
        return Ok(Value::Null);
    }
    let mut end = room;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    write(vm, &text[..end]);
    vm.write_stderr(&format!("\nvm: the program was stopped after writing {max} bytes: the --max-output limit was reached\n"));
    Err(NativeError::Exit(OUTPUT_LIMIT_EXIT_CODE))
}

/// The next line of standard input without its line break; null at the end.
fn read_line(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.flush();
    match vm.console_in.read_line() {
        Some(units) => Ok(vm.alloc_utf16(units)),
        None => Ok(Value::Null),
    }
}

/// The next char of standard input, or -1 at the end.
fn read_char(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.flush();
    Ok(Value::I32(vm.console_in.read_char()))
}

/// The next char of standard input left unread, or -1 at the end.
fn peek_char(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.flush();
    Ok(Value::I32(vm.console_in.peek_char()))
}

/// `IsRedirected(stream)`: 0 standard input, 1 output, 2 error.
fn is_redirected(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let console = &vm.options.console;
    let redirected = match int_arg(args, 0) {
        0 => console.input_redirected,
        1 => console.output_redirected,
        _ => console.error_redirected,
    };
    Ok(Value::Bool(redirected))
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

/// The host's environment variable, or null; under `--sandbox` every variable is null.
fn environment_variable(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let name = vm.string_arg(arg(args, 0), "variable")?;
    if vm.options.sandbox {
        return Ok(Value::Null);
    }
    match std::env::var(&name) {
        Ok(value) => Ok(vm.new_str(&value)),
        Err(_) => Ok(Value::Null),
    }
}
