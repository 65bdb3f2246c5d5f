//! Running a program's entry point the way the .NET host does: `Main`'s arguments, its
//! exit code, and the report of an exception nobody caught.

use std::io::Write;

use super::scheduler::Status;
use super::scheduler::{SliceEnd, Termination};
use super::value::Value;
use super::Vm;
use crate::metadata::{Flags, MethodId, TypeKind};

/// The exit code of a process killed by an unhandled exception (`SIGABRT`), as `dotnet`
/// reports it on Linux.
pub const UNHANDLED_EXCEPTION_EXIT_CODE: i32 = 134;

/// The exit code when the VM itself fails (a bug, never the program's fault).
pub const INTERNAL_ERROR_EXIT_CODE: i32 = 70;

/// The exit code after a deadlock report (.NET would hang instead).
pub const DEADLOCK_EXIT_CODE: i32 = 3;

/// The exit code when `--max-steps` stops the program.
pub const STEP_LIMIT_EXIT_CODE: i32 = 4;

/// The exit code when the program wrote more than `--max-output` allows.
pub const OUTPUT_LIMIT_EXIT_CODE: i32 = 6;

/// The exit code of a process killed by a stack overflow (`SIGABRT`), as `dotnet` reports
/// it on Linux.
pub const STACK_OVERFLOW_EXIT_CODE: i32 = 134;

impl Vm {
    /// Runs the program: `Main` on thread 1 and every thread it starts, until `Main` has
    /// returned and no foreground thread is left (background threads are abandoned, as
    /// .NET does). Returns the process exit code.
    pub fn run_entry_point(&mut self, main: MethodId) -> i32 {
        let args = self.entry_arguments(main);
        if let Err(message) = self.start_frame(main, &args) {
            return self.internal_error(&message);
        }
        if self.tracing() {
            self.trace_thread_started(0);
        }
        self.initialize_main_class(main);
        self.sched.make_runnable(0);
        let code = self.schedule(self.async_main_waiter(main));
        self.flush();
        if self.stats.reported() {
            let report = self.stats.render();
            let _ = self.sinks.stderr.write_all(report.as_bytes());
        }
        code
    }

    /// The scheduler loop: run threads, move the virtual clock when none can run.
    fn schedule(&mut self, mut async_main_waiter: Option<MethodId>) -> i32 {
        let mut main_code = None;
        loop {
            if main_code.is_some() && !self.sched.alive_foreground() {
                return main_code.unwrap_or(0);
            }
            let Some(t) = self.sched.pick() else {
                match self.sched.next_timeout() {
                    Some(due) => {
                        for woken in self.sched.advance_to(due) {
                            self.unpark_with(woken, Value::Bool(false));
                        }
                        continue;
                    }
                    None => return self.report_deadlock(),
                }
            };
            self.switch_to(t);
            match self.run_slice() {
                SliceEnd::Finished(task) if t == 0 && async_main_waiter.is_some() => {
                    // `async Task Main`: the main thread goes on to wait for the task.
                    if let Some(waiter) = async_main_waiter.take() {
                        if let Err(message) = self.start_frame(waiter, &[task]) {
                            return self.internal_error(&message);
                        }
                    }
                    self.sched.make_runnable(0);
                }
                SliceEnd::Finished(v) => {
                    self.thread_finished(t);
                    if t == 0 {
                        main_code = Some(match v {
                            Value::I32(code) => code,
                            _ => 0,
                        });
                    }
                }
                SliceEnd::Parked => {}
                SliceEnd::Preempted => self.sched.charge_slice(t),
                SliceEnd::Unhandled(exc) => {
                    self.report_unhandled(exc);
                    return UNHANDLED_EXCEPTION_EXIT_CODE;
                }
                SliceEnd::Exit(code) => return code,
                SliceEnd::Fatal(message) => return self.internal_error(&message),
                SliceEnd::Terminated(why) => return self.terminated(why),
            }
        }
    }

    /// For a `Main` returning `Task` or `Task<int>`: the library method that waits for it
    /// (`GetAwaiter().GetResult()`, as the C# compiler's generated entry point does).
    fn async_main_waiter(&self, main: MethodId) -> Option<MethodId> {
        let ret = self.meta.method(main).ret;
        let def = self.meta.types.def_of(ret)?;
        let d = self.meta.type_def(def);
        if d.namespace != "System.Threading.Tasks" || d.name != "Task" {
            return None;
        }
        let name = if d.type_params.is_empty() { "WaitMain" } else { "WaitMainWithExitCode" };
        let helpers = self.meta.find_type_def("System.Runtime.CompilerServices", "AsyncHelpers")?;
        self.meta.type_def(helpers).methods.iter().copied().find(|&m| self.meta.method(m).name == name)
    }

    pub(super) fn thread_finished(&mut self, t: usize) {
        self.sched.threads[t].status = Status::Finished;
        if self.tracing() {
            self.record(crate::runtime::trace::event::Event::ThreadExited);
        }
        for j in std::mem::take(&mut self.sched.threads[t].joiners) {
            self.unpark_with(j, Value::Bool(true));
        }
    }

    /// Reports a limit the program hit and returns the exit code that goes with it.
    pub(super) fn terminated(&mut self, why: Termination) -> i32 {
        match why {
            Termination::StackOverflow(report) => {
                self.write_stderr(&report);
                STACK_OVERFLOW_EXIT_CODE
            }
            Termination::StepBudgetSpent(steps) => {
                self.write_stderr(&format!("vm: the program was stopped after {steps} loop iterations: the --max-steps limit was reached\n"));
                STEP_LIMIT_EXIT_CODE
            }
        }
    }

    pub(super) fn internal_error(&mut self, message: &str) -> i32 {
        self.write_stderr(&format!("vm: internal error: {message}\n"));
        INTERNAL_ERROR_EXIT_CODE
    }

    /// Every thread waits and nothing can wake one: print what each waits in and stop,
    /// instead of hanging as .NET would.
    pub(super) fn report_deadlock(&mut self) -> i32 {
        let mut text = String::from("Deadlock: every thread is waiting and no thread or timer can wake one.\n");
        for i in 0..self.sched.threads.len() {
            if !matches!(self.sched.threads[i].status, Status::Parked { .. }) {
                continue;
            }
            text.push_str(&format!("  thread {} is waiting:\n", self.sched.threads[i].id));
            text.push_str(&self.stack_of(i));
        }
        self.write_stderr(&text);
        DEADLOCK_EXIT_CODE
    }

    /// A class with an explicit static constructor is initialised before its `Main` runs.
    fn initialize_main_class(&mut self, main: MethodId) {
        let owner = self.meta.type_def(self.meta.method(main).owner);
        if !owner.flags.has(Flags::EXPLICIT_CCTOR) || !owner.type_params.is_empty() {
            return;
        }
        let ty = owner.self_type;
        self.begin_type_initialization(ty);
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

    /// The exception's `ToString()`; its type name if `ToString` itself fails. It runs on
    /// the crashing thread with the scheduler going on, as .NET's does: a `Message` getter
    /// may wait, and other threads run meanwhile. (Within that run, a second crash is
    /// described without the scheduler.)
    pub fn describe_exception(&mut self, exc: Value) -> String {
        let described = self.object_to_string_method().and_then(|to_string| {
            let target = self.resolve_virtual(to_string, exc)?;
            let text = if self.describing_crash {
                self.invoke(target, &[exc]).ok()
            } else {
                self.describing_crash = true;
                let crashed = self.sched.current;
                let text = self.call_on_thread(crashed, target, &[exc]).ok();
                self.describing_crash = false;
                text
            };
            self.string_of(text?)
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
