//! A traced run as a picture's parts: one lane per managed thread, bars for the work items
//! a worker ran and for the stretches an async method ran after resuming, an arrow from
//! each suspension to its resumption, and marks for what happens at an instant (a thread
//! injected, the pool's goal moved, an AsyncLocal set, a context switch, a timer). Every
//! part keeps the index of the events that bound it (`seq`), so a drawing can space events
//! that share a virtual instant.

use hashbrown::HashMap;

use super::event::{Event, GoalReason, Site, Stamped};

pub struct Timeline {
    /// In order of the threads' first appearance (the main thread first).
    pub lanes: Vec<Lane>,
    pub bars: Vec<Bar>,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
}

pub struct Lane {
    pub thread: i32,
    pub label: String,
    pub start_seq: usize,
    /// Where the thread exited (`None`: it was alive at the end).
    pub end_seq: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    WorkItem,
    /// A method running from its resumption to its next suspension (or the work item's end).
    Segment,
}

impl BarKind {
    pub fn category(self) -> &'static str {
        match self {
            BarKind::WorkItem => "work item",
            BarKind::Segment => "method",
        }
    }
}

pub struct Bar {
    pub kind: BarKind,
    pub thread: i32,
    pub label: String,
    pub start_seq: usize,
    pub end_seq: usize,
    pub start_time: i64,
    pub end_time: i64,
}

pub struct Arrow {
    pub label: String,
    pub from_thread: i32,
    pub from_seq: usize,
    pub from_time: i64,
    pub to_thread: i32,
    pub to_seq: usize,
    pub to_time: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Suspended,
    Injected,
    Goal,
    AsyncLocal,
    Context,
    Timer,
}

pub struct Mark {
    pub kind: MarkKind,
    pub thread: i32,
    pub seq: usize,
    pub label: String,
}

/// A bar begun and not yet ended.
struct Open {
    label: String,
    seq: usize,
    time: i64,
}

#[derive(Default)]
struct Builder {
    lanes: Vec<Lane>,
    bars: Vec<Bar>,
    arrows: Vec<Arrow>,
    marks: Vec<Mark>,
    /// Each thread's running work items, innermost last.
    items: HashMap<i32, Vec<Open>>,
    /// Each thread's running method segment.
    segments: HashMap<i32, Open>,
    /// Suspensions not resumed yet: number -> (thread, seq, time).
    suspended: HashMap<u32, (i32, usize, i64)>,
}

impl Timeline {
    pub fn build(events: &[Stamped]) -> Timeline {
        let mut b = Builder::default();
        for (seq, e) in events.iter().enumerate() {
            b.lane(e.thread, None, seq);
            b.take(seq, e);
        }
        let last = events.len().saturating_sub(1);
        let end_time = events.last().map_or(0, |e| e.time);
        let threads: Vec<i32> = b.lanes.iter().map(|l| l.thread).collect();
        for thread in threads {
            b.close_all(thread, last, end_time);
        }
        Timeline { lanes: b.lanes, bars: b.bars, arrows: b.arrows, marks: b.marks }
    }

    pub fn lane_index(&self, thread: i32) -> Option<usize> {
        self.lanes.iter().position(|l| l.thread == thread)
    }
}

/// `goal 5 (starvation)`: the pool's thread goal as the picture names it.
pub fn goal_label(goal: i32, reason: GoalReason) -> String {
    format!("goal {goal} ({reason})")
}

/// `#3 Program.Work:12`: a suspension as the picture names it.
pub fn suspension_label(suspension: u32, site: &Site) -> String {
    match site.line {
        Some(line) => format!("#{suspension} {}:{line}", site.method),
        None => format!("#{suspension} {}", site.method),
    }
}

impl Builder {
    /// The lane of `thread`, made at `seq` if it is new.
    fn lane(&mut self, thread: i32, name: Option<&str>, seq: usize) {
        if self.lanes.iter().any(|l| l.thread == thread) {
            return;
        }
        let label = match name {
            Some(name) => format!("T{thread} {name}"),
            None => format!("T{thread}"),
        };
        self.lanes.push(Lane { thread, label, start_seq: seq, end_seq: None });
    }

    fn take(&mut self, seq: usize, e: &Stamped) {
        let (thread, time) = (e.thread, e.time);
        match &e.event {
            Event::ThreadStarted { thread: started, name } => self.lane(*started, name.as_deref(), seq),
            Event::ThreadExited => {
                self.close_all(thread, seq, time);
                if let Some(lane) = self.lanes.iter_mut().find(|l| l.thread == thread) {
                    lane.end_seq = Some(seq);
                }
            }
            Event::ThreadInjected { thread: worker, reason } => {
                self.mark(MarkKind::Injected, *worker, seq, format!("injected: {reason}"));
            }
            Event::ThreadGoalChanged { goal, reason } => self.mark(MarkKind::Goal, thread, seq, goal_label(*goal, *reason)),
            Event::WorkItemQueued { .. } => {}
            Event::WorkItemDequeued { item, .. } => {
                self.end_segment(thread, seq, time);
                let label = format!("#{} {}", item.number, item.what);
                self.items.entry(thread).or_default().push(Open { label, seq, time });
            }
            Event::WorkItemDone { .. } => {
                self.end_segment(thread, seq, time);
                if let Some(open) = self.items.get_mut(&thread).and_then(Vec::pop) {
                    self.bar(BarKind::WorkItem, thread, open, seq, time);
                }
            }
            Event::TimerFired => self.mark(MarkKind::Timer, thread, seq, "timer".to_string()),
            Event::Suspended { suspension, site, .. } => {
                self.end_segment(thread, seq, time);
                self.mark(MarkKind::Suspended, thread, seq, suspension_label(*suspension, site));
                self.suspended.insert(*suspension, (thread, seq, time));
            }
            Event::Resumed { suspension, site, .. } => {
                self.end_segment(thread, seq, time);
                self.segments.insert(thread, Open { label: site.method.clone(), seq, time });
                if let Some((from_thread, from_seq, from_time)) = self.suspended.remove(suspension) {
                    let label = format!("#{suspension} {site}");
                    self.arrows.push(Arrow { label, from_thread, from_seq, from_time, to_thread: thread, to_seq: seq, to_time: time });
                }
            }
            Event::ContextSwitched { to, .. } => self.mark(MarkKind::Context, thread, seq, to.clone()),
            Event::AsyncLocalSet { local, value, .. } => self.mark(MarkKind::AsyncLocal, thread, seq, format!("{local}={value}")),
        }
    }

    fn mark(&mut self, kind: MarkKind, thread: i32, seq: usize, label: String) {
        self.lane(thread, None, seq);
        self.marks.push(Mark { kind, thread, seq, label });
    }

    fn bar(&mut self, kind: BarKind, thread: i32, open: Open, end_seq: usize, end_time: i64) {
        self.bars.push(Bar { kind, thread, label: open.label, start_seq: open.seq, end_seq, start_time: open.time, end_time });
    }

    fn end_segment(&mut self, thread: i32, seq: usize, time: i64) {
        if let Some(open) = self.segments.remove(&thread) {
            self.bar(BarKind::Segment, thread, open, seq, time);
        }
    }

    /// Ends whatever `thread` still runs (it exited, or the program ended).
    fn close_all(&mut self, thread: i32, seq: usize, time: i64) {
        self.end_segment(thread, seq, time);
        while let Some(open) = self.items.get_mut(&thread).and_then(Vec::pop) {
            self.bar(BarKind::WorkItem, thread, open, seq, time);
        }
    }
}
