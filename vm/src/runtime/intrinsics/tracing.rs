//! `Internal.Trace`: the library's side of `vm run --trace` and `--timeline`. Each call
//! hands one event (or what the tracer needs to name later ones) to the VM's tracer; the
//! call sites check `Trace.Enabled` first, so these run only when tracing.

use super::support::{arg, int_arg};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::trace::event::{Event, GoalReason, Queue, SuspensionKind};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Trace.IsEnabled", func: is_enabled },
    NativeEntry { name: "Trace.WorkItemQueued", func: work_item_queued },
    NativeEntry { name: "Trace.WorkItemQueuedAtHighPriority", func: work_item_queued_at_high_priority },
    NativeEntry { name: "Trace.WorkItemDequeued", func: work_item_dequeued },
    NativeEntry { name: "Trace.WorkItemDone", func: work_item_done },
    NativeEntry { name: "Trace.ThreadGoalChanged", func: thread_goal_changed },
    NativeEntry { name: "Trace.ThreadInjected", func: thread_injected },
    NativeEntry { name: "Trace.TimerFired", func: timer_fired },
    NativeEntry { name: "Trace.BoxSuspended", func: box_suspended },
    NativeEntry { name: "Trace.BoxResumed", func: box_resumed },
    NativeEntry { name: "Trace.ContextSwitched", func: context_switched },
    NativeEntry { name: "Trace.AsyncLocalSet", func: async_local_set },
    NativeEntry { name: "Trace.ContextCopied", func: context_copied },
];

fn is_enabled(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::Bool(vm.tracing()))
}

fn work_item_queued(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(item) = arg(args, 0).gc_ref() else { return Ok(Value::Null) };
    let queue = if matches!(arg(args, 1), Value::Bool(true)) { Queue::Local(vm.sched.threads[vm.sched.current].id) } else { Queue::Global };
    vm.trace_work_item_queued(item, queue);
    Ok(Value::Null)
}

fn work_item_queued_at_high_priority(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(item) = arg(args, 0).gc_ref() {
        vm.trace_work_item_queued(item, Queue::HighPriority);
    }
    Ok(Value::Null)
}

fn work_item_dequeued(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(item) = arg(args, 0).gc_ref() {
        vm.trace_work_item_dequeued(item);
    }
    Ok(Value::Null)
}

fn work_item_done(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.trace_work_item_done();
    Ok(Value::Null)
}

fn thread_goal_changed(vm: &mut Vm, args: &[Value]) -> NativeResult {
    vm.trace_goal_changed(int_arg(args, 0), GoalReason::from_state(int_arg(args, 1)));
    Ok(Value::Null)
}

fn thread_injected(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let thread = arg(args, 0).gc_ref().and_then(|r| vm.sched.thread_of(r)).map(|t| vm.sched.threads[t].id);
    if let Some(thread) = thread {
        vm.trace_thread_injected(thread, matches!(arg(args, 1), Value::Bool(true)));
    }
    Ok(Value::Null)
}

fn timer_fired(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.record(Event::TimerFired);
    Ok(Value::Null)
}

fn box_suspended(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(keeper) = arg(args, 0).gc_ref() {
        let site = vm.classic_await_site();
        vm.trace_suspended(keeper, site, SuspensionKind::Box);
    }
    Ok(Value::Null)
}

fn box_resumed(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(keeper) = arg(args, 0).gc_ref() {
        vm.trace_resumed(keeper);
    }
    Ok(Value::Null)
}

fn context_switched(vm: &mut Vm, args: &[Value]) -> NativeResult {
    vm.trace_context_switched(arg(args, 0).gc_ref(), arg(args, 1).gc_ref());
    Ok(Value::Null)
}

fn async_local_set(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(local) = arg(args, 0).gc_ref() else { return Ok(Value::Null) };
    let value = vm.string_of(arg(args, 1));
    vm.trace_async_local_set(local, value, arg(args, 2).gc_ref(), arg(args, 3).gc_ref());
    Ok(Value::Null)
}

fn context_copied(vm: &mut Vm, args: &[Value]) -> NativeResult {
    if let Some(copy) = arg(args, 1).gc_ref() {
        vm.trace_context_copied(arg(args, 0).gc_ref(), copy);
    }
    Ok(Value::Null)
}
