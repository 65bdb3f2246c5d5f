//! Running a program's entry point the way the .NET host does: `Main`'s arguments, its
//! exit code, and the report of an exception nobody caught.

use super::value::Value;
use super::Vm;
use crate::interp::InvokeError;
use crate::metadata::{Flags, MethodId, TypeKind};

/// The exit code of a process killed by an unhandled exception (`SIGABRT`), as `dotnet`
/// reports it on Linux.
pub const UNHANDLED_EXCEPTION_EXIT_CODE: i32 = 134;

/// The exit code when the VM itself fails (a bug, never the program's fault).
pub const INTERNAL_ERROR_EXIT_CODE: i32 = 70;

impl Vm {
    /// Runs `Main` to completion and returns the process exit code.
    pub fn run_entry_point(&mut self, main: MethodId) -> i32 {
        let args = self.entry_arguments(main);
        let outcome = self.run_main_class_constructor(main).and_then(|()| self.invoke(main, &args));
        let code = match outcome {
            Ok(Value::I32(code)) => code,
            Ok(_) => 0,
            Err(InvokeError::Exit(code)) => code,
            Err(InvokeError::Exception(exc)) => {
                self.report_unhandled(exc);
                UNHANDLED_EXCEPTION_EXIT_CODE
            }
            Err(InvokeError::Fatal(message)) => {
                self.write_stderr(&format!("vm: internal error: {message}\n"));
                INTERNAL_ERROR_EXIT_CODE
            }
        };
        self.flush();
        code
    }

    /// A class with an explicit static constructor is initialised before its `Main` runs.
    fn run_main_class_constructor(&mut self, main: MethodId) -> Result<(), InvokeError> {
        let owner = self.meta.type_def(self.meta.method(main).owner);
        if !owner.flags.has(Flags::EXPLICIT_CCTOR) || !owner.type_params.is_empty() {
            return Ok(());
        }
        let ty = owner.self_type;
        self.run_static_constructor(ty)
    }

    /// `Main(string[] args)` receives the program's arguments; `Main()` nothing.
    fn entry_arguments(&mut self, main: MethodId) -> Vec<Value> {
        if self.meta.method(main).params.is_empty() {
            return Vec::new();
        }
        let args = self.options.args.clone();
        vec![self.new_string_array(&args)]
    }

    /// Prints `Unhandled exception. ` and the exception's `ToString()` to standard error.
    pub fn report_unhandled(&mut self, exc: Value) {
        let text = self.describe_exception(exc);
        self.write_stderr(&format!("Unhandled exception. {text}\n"));
    }

    /// The exception's `ToString()`; its type name if `ToString` itself fails.
    pub fn describe_exception(&mut self, exc: Value) -> String {
        let described = self.object_to_string_method().and_then(|to_string| {
            let target = self.resolve_virtual(to_string, exc)?;
            match self.invoke(target, &[exc]) {
                Ok(s) => self.string_of(s),
                Err(_) => None,
            }
        });
        described.unwrap_or_else(|| match self.type_of(exc) {
            Some(t) => self.meta.clr_full_name(t),
            None => "System.Exception".to_string(),
        })
    }

    fn object_to_string_method(&self) -> Option<MethodId> {
        let TypeKind::Named { def, .. } = self.meta.types.kind(self.meta.well_known.object) else {
            return None;
        };
        let object = self.meta.type_def(*def);
        object.methods.iter().copied().find(|&m| self.meta.method(m).name == "ToString")
    }
}
