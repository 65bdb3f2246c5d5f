//! Tracing a run (`vm run --trace`, `--timeline FILE`): one stream of typed events
//! ([`event`]), recorded by the VM and by the library (through the `Internal.Trace`
//! intrinsics), printed as text lines as they happen ([`text`]) and kept for the timeline
//! drawn at exit ([`svg`], [`chrome`]). Without either flag `Vm::tracer` is `None` and every
//! recording site is one branch on it.
//!
//! The tracer also keeps the names the events use: work items numbered in queueing order,
//! suspensions numbered as they happen (a resumption names the suspension it ends),
//! AsyncLocals numbered as first set, and the values each ExecutionContext holds (contexts
//! are immutable: each new one is reported where the library makes it). Objects are known
//! by their heap reference only while they matter (a queued item, a pending suspension, a
//! live context); a reference the collector reuses is reported again before it is used.

pub mod chrome;
pub mod event;
pub mod svg;
pub mod text;
pub mod timeline;

use std::io::Write;

use hashbrown::HashMap;

use super::heap::GcRef;
use super::value::Value;
use super::Vm;
use crate::bytecode::FunctionId;
use crate::metadata::{Flags, TypeId, TypeKind};
use event::{Event, GoalReason, InjectionReason, Queue, Site, Stamped, SuspensionKind, WorkItem};

/// What to do with the events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceOptions {
    /// Print each event to standard error as it happens (`--trace`).
    pub print: bool,
    /// Keep the events for the timeline the driver writes here at exit (`--timeline
    /// FILE`: SVG, or Chrome trace JSON for a `.json` file).
    pub timeline: Option<std::path::PathBuf>,
}

impl TraceOptions {
    pub fn any(&self) -> bool {
        self.print || self.timeline.is_some()
    }
}

/// A suspended method, until it resumes.
struct Pending {
    suspension: u32,
    site: Site,
    kind: SuspensionKind,
    thread: i32,
}

pub struct Tracer {
    options: TraceOptions,
    /// Every event so far (only with a timeline to draw).
    pub events: Vec<Stamped>,
    next_item: u32,
    next_suspension: u32,
    /// Work items in a queue: their number and the queue.
    queued: HashMap<GcRef, (WorkItem, Queue)>,
    /// The item each thread runs (innermost last: a worker can run one inline).
    running: HashMap<i32, Vec<WorkItem>>,
    suspended: HashMap<GcRef, Pending>,
    /// Each AsyncLocal's number (from 1, in the order they are first set), and the names
    /// by number.
    locals: HashMap<GcRef, u32>,
    local_names: Vec<String>,
    /// Each context's values: (AsyncLocal number, value), by number.
    contexts: HashMap<GcRef, Vec<(u32, String)>>,
    /// Why the pool's goal last went up: the reason a thread it now creates is for.
    last_goal_raise: Option<GoalReason>,
    last_goal: i32,
}

impl Tracer {
    pub fn new(options: TraceOptions) -> Tracer {
        Tracer {
            options,
            events: Vec::new(),
            next_item: 0,
            next_suspension: 0,
            queued: HashMap::new(),
            running: HashMap::new(),
            suspended: HashMap::new(),
            locals: HashMap::new(),
            local_names: Vec::new(),
            contexts: HashMap::new(),
            last_goal_raise: None,
            last_goal: 0,
        }
    }

    /// `{Program.Name=A, AsyncLocal#2=7}`; `{}` for Default (`None`) and empty contexts.
    fn describe_context(&self, ec: Option<GcRef>) -> String {
        let values = ec.and_then(|r| self.contexts.get(&r));
        let parts: Vec<String> = values.map_or(Vec::new(), |v| v.iter().map(|(n, value)| format!("{}={value}", self.local_name(*n))).collect());
        format!("{{{}}}", parts.join(", "))
    }

    /// The number of `local`, if it was set before.
    fn known_local(&self, local: GcRef) -> Option<u32> {
        self.locals.get(&local).copied()
    }

    /// Numbers `local`, named `name` or, without one, `AsyncLocal#N`.
    fn add_local(&mut self, local: GcRef, name: Option<String>) -> u32 {
        let fallback = format!("AsyncLocal#{}", self.local_names.len() + 1);
        self.local_names.push(name.unwrap_or(fallback));
        let number = self.local_names.len() as u32;
        self.locals.insert(local, number);
        number
    }

    fn local_name(&self, number: u32) -> &str {
        self.local_names.get(number as usize - 1).map_or("AsyncLocal#?", String::as_str)
    }
}

impl Vm {
    /// Whether events are being recorded (the one check every recording site makes).
    #[inline]
    pub fn tracing(&self) -> bool {
        self.tracer.is_some()
    }

    /// Stamps `event` with the virtual time and the running thread; prints and keeps it.
    pub fn record(&mut self, event: Event) {
        let stamped = Stamped { time: self.sched.now, thread: self.sched.threads[self.sched.current].id, event };
        let Some(tracer) = self.tracer.as_mut() else { return };
        let line = tracer.options.print.then(|| format!("{stamped}\n"));
        if tracer.options.timeline.is_some() {
            tracer.events.push(stamped);
        }
        if let Some(line) = line {
            let _ = self.sinks.stdout.flush();
            let _ = self.sinks.stderr.write_all(line.as_bytes());
        }
    }

    /// The events kept for the timeline (empty unless `--timeline`).
    pub fn trace_events(&self) -> &[Stamped] {
        self.tracer.as_ref().map_or(&[], |t| &t.events)
    }

    /// The running thread started green thread `t` (named as its `Thread.Name` says).
    pub fn trace_thread_started(&mut self, t: usize) {
        let thread = self.sched.threads[t].id;
        let name = self.thread_name(t);
        self.record(Event::ThreadStarted { thread, name });
    }

    fn thread_name(&self, t: usize) -> Option<String> {
        if t == 0 {
            return Some("main".to_string());
        }
        let obj = self.sched.threads[t].object?;
        let def = self.meta.find_type_def("System.Threading", "Thread")?;
        let slot = self.meta.instance_field_slot(def, "_name")?;
        self.string_of(self.get_field(Value::Ref(obj), slot as u16))
    }

    /// `item` went into `queue`: it gets the next work-item number.
    pub fn trace_work_item_queued(&mut self, item: GcRef, queue: Queue) {
        let what = self.work_item_kind(item);
        let Some(tracer) = self.tracer.as_mut() else { return };
        tracer.next_item += 1;
        let numbered = WorkItem { number: tracer.next_item, what };
        tracer.queued.insert(item, (numbered.clone(), queue));
        self.record(Event::WorkItemQueued { item: numbered, queue });
    }

    /// The running worker took `item` (known by the number and queue it was queued with).
    pub fn trace_work_item_dequeued(&mut self, item: GcRef) {
        let thread = self.sched.threads[self.sched.current].id;
        let what = self.work_item_kind(item);
        let Some(tracer) = self.tracer.as_mut() else { return };
        let (item, queue) = tracer.queued.remove(&item).unwrap_or((WorkItem { number: 0, what }, Queue::Unknown));
        tracer.running.entry(thread).or_default().push(item.clone());
        self.record(Event::WorkItemDequeued { item, queue });
    }

    pub fn trace_work_item_done(&mut self) {
        let thread = self.sched.threads[self.sched.current].id;
        let Some(tracer) = self.tracer.as_mut() else { return };
        if let Some(item) = tracer.running.get_mut(&thread).and_then(Vec::pop) {
            self.record(Event::WorkItemDone { item });
        }
    }

    /// What a work item is: its type's name (`Task`, `TimerQueue`, `AsyncStateMachineBox`1`).
    fn work_item_kind(&self, item: GcRef) -> String {
        self.type_of(Value::Ref(item)).map_or_else(|| "?".to_string(), |t| self.meta.clr_name(t))
    }

    pub fn trace_goal_changed(&mut self, goal: i32, reason: GoalReason) {
        let Some(tracer) = self.tracer.as_mut() else { return };
        if goal > tracer.last_goal {
            tracer.last_goal_raise = Some(reason);
        }
        tracer.last_goal = goal;
        self.record(Event::ThreadGoalChanged { goal, reason });
    }

    pub fn trace_thread_injected(&mut self, thread: i32, to_reach_minimum: bool) {
        let Some(tracer) = self.tracer.as_ref() else { return };
        let reason = match (to_reach_minimum, tracer.last_goal_raise) {
            (true, _) => InjectionReason::MinThreads,
            (false, Some(raise)) => InjectionReason::Goal(raise),
            (false, None) => InjectionReason::InitialGoal,
        };
        self.record(Event::ThreadInjected { thread, reason });
    }

    /// A method suspends, kept by `keeper` (its box or continuation) until it resumes.
    pub fn trace_suspended(&mut self, keeper: GcRef, site: Site, kind: SuspensionKind) {
        let thread = self.sched.threads[self.sched.current].id;
        let Some(tracer) = self.tracer.as_mut() else { return };
        tracer.next_suspension += 1;
        let suspension = tracer.next_suspension;
        tracer.suspended.insert(keeper, Pending { suspension, site: site.clone(), kind, thread });
        self.record(Event::Suspended { suspension, site, kind });
    }

    /// The method kept by `keeper` resumes (nothing is reported for a keeper that never
    /// suspended, as a box whose first MoveNext runs inline).
    pub fn trace_resumed(&mut self, keeper: GcRef) {
        let Some(tracer) = self.tracer.as_mut() else { return };
        let Some(p) = tracer.suspended.remove(&keeper) else { return };
        self.record(Event::Resumed { suspension: p.suspension, site: p.site, kind: p.kind, suspended_on: p.thread });
    }

    pub fn trace_context_switched(&mut self, from: Option<GcRef>, to: Option<GcRef>) {
        let Some(tracer) = self.tracer.as_ref() else { return };
        let (from, to) = (tracer.describe_context(from), tracer.describe_context(to));
        if from != to {
            self.record(Event::ContextSwitched { from, to });
        }
    }

    /// `local` was set to `value` (text): context `to` (its values are `from`'s with this
    /// one changed) replaced `from`.
    pub fn trace_async_local_set(&mut self, local: GcRef, value: Option<String>, from: Option<GcRef>, to: Option<GcRef>) {
        let Some(known) = self.tracer.as_ref().map(|t| t.known_local(local)) else { return };
        let holder = if known.is_none() { self.static_field_holding(local) } else { None };
        let Some(tracer) = self.tracer.as_mut() else { return };
        let number = known.unwrap_or_else(|| tracer.add_local(local, holder));
        let mut values = from.and_then(|r| tracer.contexts.get(&r)).cloned().unwrap_or_default();
        values.retain(|(n, _)| *n != number);
        let shown = value.unwrap_or_else(|| "null".to_string());
        values.push((number, shown.clone()));
        values.sort_by_key(|(n, _)| *n);
        if let Some(to) = to {
            tracer.contexts.insert(to, values);
        }
        let context = tracer.describe_context(to);
        let local = tracer.local_name(number).to_string();
        self.record(Event::AsyncLocalSet { local, value: shown, context });
    }

    /// `copy` was made with `original`'s values.
    pub fn trace_context_copied(&mut self, original: Option<GcRef>, copy: GcRef) {
        let Some(tracer) = self.tracer.as_mut() else { return };
        let values = original.and_then(|r| tracer.contexts.get(&r)).cloned().unwrap_or_default();
        tracer.contexts.insert(copy, values);
    }

    /// The await site of the frame running `func` at `pc` (the instruction after the await
    /// or call): the method as declared (a classic `MoveNext` shows as its async method)
    /// and, for user code, the line.
    pub fn await_site(&self, func: FunctionId, pc: u32) -> Site {
        let Some(f) = self.functions.get(func.0 as usize) else {
            return Site { method: "?".to_string(), line: None };
        };
        let method = self.meta.kickoff_of.get(&f.method).copied().unwrap_or(f.method);
        let m = self.meta.method(method);
        let owner = self.meta.type_def(m.owner);
        let name = format!("{}.{}", owner.name, m.name);
        let line = if owner.flags.has(crate::metadata::Flags::LIBRARY) {
            None
        } else {
            let span = f.span_at(pc.saturating_sub(1));
            span.zip(self.meta.files.get(f.file.index())).map(|(span, file)| file.line_col(span.start).line)
        };
        Site { method: name, line }
    }

    /// Where the classic state machine whose builder is running suspends: the innermost
    /// `MoveNext` on the stack.
    pub fn classic_await_site(&self) -> Site {
        let frame = self.thread.frames.iter().rev().find(|f| {
            let method = self.functions.get(f.func.0 as usize).map(|func| func.method);
            method.is_some_and(|m| self.meta.kickoff_of.contains_key(&m))
        });
        match frame {
            Some(f) => self.await_site(f.func, f.pc),
            None => Site { method: "?".to_string(), line: None },
        }
    }
}

impl Vm {
    /// `Type.Field` of a static field that holds `object` (a program's own types first),
    /// the name the trace gives an AsyncLocal.
    fn static_field_holding(&self, object: GcRef) -> Option<String> {
        let mut found: Option<(bool, String)> = None;
        for (t, state) in self.type_states.iter().enumerate() {
            let Some(statics) = state.statics.as_deref() else { continue };
            let Some(slot) = statics.iter().position(|v| *v == Value::Ref(object)) else { continue };
            let TypeKind::Named { def, .. } = *self.meta.types.kind(TypeId(t as u32)) else { continue };
            let d = self.meta.type_def(def);
            let Some(field) = d.fields.iter().map(|&f| self.meta.field(f)).find(|f| f.is_static() && f.slot as usize == slot) else { continue };
            let user = !d.flags.has(Flags::LIBRARY);
            if found.as_ref().is_none_or(|(was_user, _)| user && !was_user) {
                found = Some((user, format!("{}.{}", d.name, field.name)));
            }
        }
        found.map(|(_, name)| name)
    }
}
