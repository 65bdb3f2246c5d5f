//! What each green thread is doing, in words: the deadlock report and the REPL's
//! `#threads` list both show a thread as its id, its state and its stack.

use super::scheduler::Status;
use super::Vm;
use crate::bytecode::FunctionId;

impl Vm {
    /// Every thread: id, state (running, waiting, finished…), and the stack of the ones
    /// that have one, innermost frame first.
    pub fn describe_threads(&self) -> String {
        let mut text = String::new();
        let now_ms = self.sched.now / super::scheduler::TICKS_PER_MS;
        text.push_str(&format!("virtual time {now_ms} ms\n"));
        for i in 0..self.sched.threads.len() {
            let t = &self.sched.threads[i];
            let kind = if i == 0 {
                "main"
            } else if t.background {
                "background"
            } else {
                "foreground"
            };
            let state = match t.status {
                Status::Unstarted => "not started",
                Status::Runnable => "runnable",
                Status::Parked { .. } => "waiting",
                Status::Finished => "finished",
            };
            text.push_str(&format!("thread {} ({kind}): {state}\n", t.id));
            if matches!(t.status, Status::Runnable | Status::Parked { .. }) {
                text.push_str(&self.stack_of(i));
            }
        }
        text
    }

    /// The frames of thread `i`, one `   at ...` line each, indented under its heading.
    pub(super) fn stack_of(&self, i: usize) -> String {
        let state = if i == self.sched.current { &self.thread } else { &self.sched.threads[i].state };
        let frames: Vec<(FunctionId, u32)> = state.frames.iter().rev().map(|f| (f.func, f.pc.saturating_sub(1))).collect();
        frames.into_iter().map(|(f, pc)| format!("  {}\n", self.frame_line(f, pc))).collect()
    }
}
