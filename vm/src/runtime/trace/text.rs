//! `--trace`'s text: one line per event, `[virtual time] thread  what happened`.

use std::fmt;

use super::event::{Event, GoalReason, InjectionReason, Queue, Site, Stamped, SuspensionKind};
use crate::runtime::scheduler::TICKS_PER_MS;

/// `   12.3456 ms`: ticks as milliseconds, exactly (a tick is 100 ns).
pub fn format_time(ticks: i64) -> String {
    format!("{:>6}.{:04} ms", ticks / TICKS_PER_MS, ticks % TICKS_PER_MS)
}

impl fmt::Display for Stamped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] T{:<3} {}", format_time(self.time), self.thread, self.event)
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::ThreadStarted { thread, name: Some(name) } => write!(f, "thread {thread} starts ({name})"),
            Event::ThreadStarted { thread, name: None } => write!(f, "thread {thread} starts"),
            Event::ThreadExited => write!(f, "thread exits"),
            Event::ThreadInjected { thread, reason } => write!(f, "pool injects thread {thread} ({reason})"),
            Event::ThreadGoalChanged { goal, reason } => write!(f, "pool thread goal -> {goal} ({reason})"),
            Event::WorkItemQueued { item, queue } => write!(f, "queue work item #{} {} -> {queue}", item.number, item.what),
            Event::WorkItemDequeued { item, queue } => write!(f, "dequeue work item #{} {} <- {queue}", item.number, item.what),
            Event::WorkItemDone { item } => write!(f, "work item #{} done", item.number),
            Event::TimerFired => write!(f, "timer fires"),
            Event::Suspended { suspension, site, kind } => write!(f, "suspend #{suspension} {site} ({kind})"),
            Event::Resumed { suspension, site, kind, suspended_on } => {
                write!(f, "resume #{suspension} {site} ({kind}, suspended on T{suspended_on})")
            }
            Event::ContextSwitched { from, to } => write!(f, "context {from} -> {to}"),
            Event::AsyncLocalSet { local, value, context } => write!(f, "{local} = {value}, context {context}"),
        }
    }
}

impl fmt::Display for Queue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Queue::Local(thread) => write!(f, "local queue of T{thread}"),
            Queue::Global => f.write_str("global queue"),
            Queue::HighPriority => f.write_str("high-priority queue"),
            Queue::Unknown => f.write_str("a queue"),
        }
    }
}

impl fmt::Display for InjectionReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InjectionReason::MinThreads => f.write_str("below MinThreads"),
            InjectionReason::Goal(reason) => write!(f, "{reason}"),
            InjectionReason::InitialGoal => f.write_str("within the initial goal"),
        }
    }
}

impl fmt::Display for GoalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GoalReason::HillClimbing => "hill climbing",
            GoalReason::Starvation => "starvation",
            GoalReason::ThreadTimedOut => "idle thread timed out",
            GoalReason::CooperativeBlocking => "cooperative blocking",
            GoalReason::SetMinThreads => "SetMinThreads",
        })
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} line {line}", self.method),
            None => f.write_str(&self.method),
        }
    }
}

impl fmt::Display for SuspensionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SuspensionKind::Box => "box",
            SuspensionKind::Continuation => "continuation",
        })
    }
}
