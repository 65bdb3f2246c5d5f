//! From source text to exit code: compiles a program together with the standard library,
//! loads it, and runs its entry point. The `vm` command and the test harness both go
//! through here.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use crate::compiler::{self, CompileOptions, Program};
use crate::runtime::entry::INTERNAL_ERROR_EXIT_CODE;
use crate::runtime::{Sinks, Vm, VmOptions};

/// The exit code of a program that failed to compile (as `dotnet build` returns).
pub const COMPILE_ERROR_EXIT_CODE: i32 = 1;

/// The standard library's files, named as the compiler reports them.
pub fn library_sources() -> Vec<(String, String)> {
    stdlib::SOURCES.iter().map(|(path, text)| (format!("stdlib/{path}"), text.to_string())).collect()
}

/// Compiles one user file; on failure, the rendered compile errors.
pub fn compile_file(path: &str, source: &str, options: CompileOptions) -> Result<Program, String> {
    let user = [(path.to_string(), source.to_string())];
    compiler::compile(&library_sources(), &user, options)
        .map_err(|(diags, files)| compiler::diagnostics::render(&diags, &files))
}

/// Compiles and runs one file, writing its output to `sinks`; returns the exit code.
pub fn run_file(path: &str, source: &str, options: CompileOptions, vm_options: VmOptions, mut sinks: Sinks) -> i32 {
    let program = match compile_file(path, source, options) {
        Ok(p) => p,
        Err(rendered) => {
            let _ = sinks.stderr.write_all(rendered.as_bytes());
            return COMPILE_ERROR_EXIT_CODE;
        }
    };
    let Some(main) = program.entry_point else {
        let _ = sinks.stderr.write_all(b"vm: the program has no entry point\n");
        return COMPILE_ERROR_EXIT_CODE;
    };
    match Vm::load(program, sinks, vm_options) {
        Ok(mut vm) => vm.run_entry_point(main),
        Err(message) => {
            eprintln!("vm: internal error: {message}");
            INTERNAL_ERROR_EXIT_CODE
        }
    }
}

/// An output sink whose bytes can be read back after a run (the REPL and the tests run
/// programs in-process this way).
#[derive(Clone, Default)]
pub struct Capture(Rc<RefCell<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// What was written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}
