//! Calls from the host into managed code after `Main` has returned: `vm bench` runs each
//! operation of a benchmark on the main thread, and the scheduler runs every other thread
//! (thread-pool workers, timers; virtual time moves as usual) whenever the main thread
//! waits, until the call returns.

use super::entry::{DEADLOCK_EXIT_CODE, UNHANDLED_EXCEPTION_EXIT_CODE};
use super::scheduler::SliceEnd;
use super::scheduler::Status;
use super::value::Value;
use super::Vm;
use crate::metadata::MethodId;

/// The thread `Main` ran on, which host calls reuse.
const MAIN_THREAD: usize = 0;

/// A host call that ended the program: the exit code, with the reason already printed to
/// standard error (an unhandled exception, a deadlock report, `Environment.Exit`).
#[derive(Debug)]
pub struct ProgramEnded(pub i32);

/// What the scheduler does after a slice.
enum Next {
    Schedule,
    Return(Value),
}

impl Vm {
    /// Runs `method(args)` (receiver first) on the main thread to completion, scheduling
    /// the other threads whenever it waits; returns its result.
    pub fn call_on_main_thread(&mut self, method: MethodId, args: &[Value]) -> Result<Value, ProgramEnded> {
        self.call_on_thread(MAIN_THREAD, method, args)
    }

    /// As [`Vm::call_on_main_thread`], on thread `caller` (whose frames have all returned or
    /// been unwound).
    pub(super) fn call_on_thread(&mut self, caller: usize, method: MethodId, args: &[Value]) -> Result<Value, ProgramEnded> {
        self.switch_to(caller);
        if let Err(message) = self.start_frame(method, args) {
            return Err(ProgramEnded(self.internal_error(&message)));
        }
        self.sched.threads[caller].status = Status::Runnable;
        let mut t = caller;
        loop {
            let end = self.run_slice();
            if let Next::Return(v) = self.after_slice(caller, t, end)? {
                return Ok(v);
            }
            t = self.next_thread()?;
            self.switch_to(t);
        }
    }

    fn after_slice(&mut self, caller: usize, t: usize, end: SliceEnd) -> Result<Next, ProgramEnded> {
        match end {
            SliceEnd::Finished(v) if t == caller => return Ok(Next::Return(v)),
            SliceEnd::Finished(_) => self.thread_finished(t),
            SliceEnd::Parked => {}
            SliceEnd::Preempted => self.sched.charge_slice(t),
            SliceEnd::Unhandled(exc) => {
                self.report_unhandled(exc);
                return Err(ProgramEnded(UNHANDLED_EXCEPTION_EXIT_CODE));
            }
            SliceEnd::Exit(code) => return Err(ProgramEnded(code)),
            SliceEnd::Fatal(message) => return Err(ProgramEnded(self.internal_error(&message))),
            SliceEnd::Terminated(why) => return Err(ProgramEnded(self.terminated(why))),
        }
        Ok(Next::Schedule)
    }

    /// The next thread to run; the virtual clock moves to the next timer when none can.
    fn next_thread(&mut self) -> Result<usize, ProgramEnded> {
        loop {
            if let Some(t) = self.sched.pick() {
                return Ok(t);
            }
            let Some(due) = self.sched.next_timeout() else {
                self.report_deadlock();
                return Err(ProgramEnded(DEADLOCK_EXIT_CODE));
            };
            for woken in self.sched.advance_to(due) {
                self.unpark_with(woken, Value::Bool(false));
            }
        }
    }
}
