//! The events of a traced run: what the scheduler, the thread pool, the async machinery and
//! ExecutionContext did, each stamped with the virtual time and the managed thread it
//! happened on. `--trace` prints them as they happen; `--timeline` draws them at the end.

/// One event, where and when it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamped {
    /// Virtual time in ticks (100 ns) since the program started.
    pub time: i64,
    /// The managed id of the thread that was running.
    pub thread: i32,
    pub event: Event,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The running thread started `thread` (the main thread reports itself at time 0).
    ThreadStarted {
        thread: i32,
        name: Option<String>,
    },
    /// The running thread ended.
    ThreadExited,
    /// The thread pool created worker `thread`.
    ThreadInjected {
        thread: i32,
        reason: InjectionReason,
    },
    /// The thread pool's goal of working threads moved to `goal`.
    ThreadGoalChanged {
        goal: i32,
        reason: GoalReason,
    },
    WorkItemQueued {
        item: WorkItem,
        queue: Queue,
    },
    /// The running worker took `item` from `queue` (where it was queued) and runs it.
    WorkItemDequeued {
        item: WorkItem,
        queue: Queue,
    },
    /// The running worker finished `item`.
    WorkItemDone {
        item: WorkItem,
    },
    /// A timer's callback is about to run.
    TimerFired,
    /// An async method gave up its thread at `site`, waiting for an awaiter.
    Suspended {
        suspension: u32,
        site: Site,
        kind: SuspensionKind,
    },
    /// The method that suspended as `suspension` (on `suspended_on`) goes on.
    Resumed {
        suspension: u32,
        site: Site,
        kind: SuspensionKind,
        suspended_on: i32,
    },
    /// The running thread moved to another ExecutionContext.
    ContextSwitched {
        from: String,
        to: String,
    },
    /// An AsyncLocal was given a value; `context` is the thread's context after it.
    AsyncLocalSet {
        local: String,
        value: String,
        context: String,
    },
}

/// A queued piece of pool work: its number in queueing order and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkItem {
    pub number: u32,
    pub what: String,
}

/// The thread-pool queue a work item went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    /// The local queue of the worker with this managed id.
    Local(i32),
    Global,
    HighPriority,
    /// Not seen going in (queued before tracing could see it).
    Unknown,
}

/// Why the pool created a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectionReason {
    /// The pool had fewer threads than MinThreads.
    MinThreads,
    /// The goal was raised by this (the latest raise before the thread was made).
    Goal(GoalReason),
    /// The pool's first goal (MinThreads when it started, or the processor count) allows it.
    InitialGoal,
}

/// Who moved the pool's thread goal (hill climbing's `StateOrTransition`, grouped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalReason {
    HillClimbing,
    Starvation,
    ThreadTimedOut,
    CooperativeBlocking,
    /// `ThreadPool.SetMinThreads` lifted the goal to the new minimum.
    SetMinThreads,
}

impl GoalReason {
    /// From `PortableThreadPool.HillClimbing.StateOrTransition`'s value, or
    /// `Internal.Trace.GoalRaisedBySetMinThreads` (-1).
    pub fn from_state(state: i32) -> GoalReason {
        match state {
            -1 => GoalReason::SetMinThreads,
            6 => GoalReason::Starvation,
            7 => GoalReason::ThreadTimedOut,
            8 => GoalReason::CooperativeBlocking,
            _ => GoalReason::HillClimbing,
        }
    }
}

/// Where an async method suspended: the method as the user wrote it, and the line of the
/// `await` (or of the call a caller frame waits in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub method: String,
    pub line: Option<u32>,
}

/// What keeps a suspended method: a classic state machine's box, or a runtime-async
/// continuation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuspensionKind {
    Box,
    Continuation,
}
