//! The green-thread intrinsics behind `System.Threading.Thread` and the internal
//! `Scheduler` class: creating, starting, joining and sleeping threads, parking and
//! unparking, and the virtual clock. Blocking calls return `NativeError::Park`; the
//! interpreter parks the thread and the scheduler completes the call later.

use super::support::{arg, int_arg, nre, out_of_range};
use crate::metadata::{MethodId, TypeDefId};
use crate::runtime::heap::GcRef;
use crate::runtime::native::{NativeEntry, NativeError, NativeResult};
use crate::runtime::scheduler::{Status, THREAD_START_TICKS, TICKS_PER_MS};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Thread.CurrentThread", func: current_thread },
    NativeEntry { name: "Thread.Create", func: create },
    NativeEntry { name: "Thread.Start", func: start },
    NativeEntry { name: "Thread.Join", func: join },
    NativeEntry { name: "Thread.Sleep", func: sleep },
    NativeEntry { name: "Thread.Yield", func: yield_now },
    NativeEntry { name: "Thread.IsBackground", func: is_background },
    NativeEntry { name: "Thread.SetBackground", func: set_background },
    NativeEntry { name: "Thread.IsAlive", func: is_alive },
    NativeEntry { name: "Scheduler.Park", func: park },
    NativeEntry { name: "Scheduler.ParkFor", func: park_for },
    NativeEntry { name: "Scheduler.Unpark", func: unpark },
    NativeEntry { name: "Scheduler.Now", func: now },
    NativeEntry { name: "Scheduler.CpuTime", func: cpu_time },
    NativeEntry { name: "Scheduler.NextRandom", func: next_random },
    NativeEntry { name: "Scheduler.SpendFuel", func: spend_fuel },
    NativeEntry { name: "Monitor.FindLock", func: find_lock },
    NativeEntry { name: "Monitor.AttachLock", func: attach_lock },
];

/// The `System.Threading.Thread` class.
fn thread_def(vm: &Vm) -> Option<TypeDefId> {
    vm.meta.find_type_def("System.Threading", "Thread")
}

/// The green thread behind a `Thread` object.
fn thread_index(vm: &Vm, this: Value) -> Result<usize, NativeError> {
    let r = this.gc_ref().ok_or_else(nre)?;
    vm.sched.thread_of(r).ok_or_else(|| NativeError::Fatal("a Thread object without a thread".into()))
}

/// The `Thread` object of green thread `t`, made on first request (the main thread's).
pub fn thread_object(vm: &mut Vm, t: usize) -> NativeResult {
    if let Some(o) = vm.sched.threads[t].object {
        return Ok(Value::Ref(o));
    }
    let def = thread_def(vm).ok_or_else(|| NativeError::Fatal("no System.Threading.Thread".into()))?;
    let ty = vm.meta.type_def(def).self_type;
    let obj = vm.new_instance(ty, false);
    let id = vm.sched.threads[t].id;
    if let Some(slot) = vm.meta.instance_field_slot(def, "_managedThreadId") {
        vm.set_field(obj, slot as u16, Value::I32(id));
    }
    vm.sched.threads[t].object = obj.gc_ref();
    Ok(obj)
}

fn current_thread(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let t = vm.sched.current;
    thread_object(vm, t)
}

/// `new Thread(...)`: a green thread is set up (and its id taken) at construction.
fn create(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let this: GcRef = arg(args, 0).gc_ref().ok_or_else(nre)?;
    let t = vm.sched.create(false);
    vm.sched.threads[t].object = Some(this);
    Ok(Value::I32(vm.sched.threads[t].id))
}

/// `Start()`: the new thread's bottom frame runs `Thread.Run` on the object, from
/// `THREAD_START_TICKS` on (creating an OS thread is not free).
fn start(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let this = arg(args, 0);
    let t = thread_index(vm, this)?;
    let run = run_method(vm).ok_or_else(|| NativeError::Fatal("no Thread.Run".into()))?;
    let me = vm.sched.current;
    vm.switch_to(t);
    let started = vm.start_frame(run, &[this]);
    vm.switch_to(me);
    started.map_err(NativeError::Fatal)?;
    vm.sched.make_runnable_after(t, THREAD_START_TICKS);
    if vm.tracing() {
        vm.trace_thread_started(t);
    }
    Ok(Value::Null)
}

fn run_method(vm: &Vm) -> Option<MethodId> {
    let def = thread_def(vm)?;
    vm.meta.type_def(def).methods.iter().copied().find(|&m| vm.meta.method(m).name == "Run")
}

/// `Join(timeout)`: true once the thread has finished.
fn join(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = thread_index(vm, arg(args, 0))?;
    let timeout = int_arg(args, 1);
    if vm.sched.threads[t].status == Status::Finished {
        return Ok(Value::Bool(true));
    }
    if t == vm.sched.current {
        return Ok(Value::Bool(false));
    }
    if timeout == 0 {
        return Ok(Value::Bool(false));
    }
    let me = vm.sched.current;
    vm.sched.threads[t].joiners.push(me);
    let timeout = (timeout > 0).then(|| i64::from(timeout) * TICKS_PER_MS);
    Err(NativeError::Park { timeout, interruptible: false })
}

fn sleep(_: &mut Vm, args: &[Value]) -> NativeResult {
    match int_arg(args, 0) {
        0 => Err(NativeError::Yield),
        ms if ms < 0 => Err(NativeError::Park { timeout: None, interruptible: false }),
        ms => Err(NativeError::Park { timeout: Some(i64::from(ms) * TICKS_PER_MS), interruptible: false }),
    }
}

fn yield_now(_: &mut Vm, _: &[Value]) -> NativeResult {
    Err(NativeError::Yield)
}

/// One iteration of a library loop that runs user code for the user (a `Parallel` worker):
/// it spends fuel as a backward jump in user code does, and an empty tank ends the slice.
fn spend_fuel(vm: &mut Vm, _: &[Value]) -> NativeResult {
    vm.thread.fuel = vm.thread.fuel.saturating_sub(1);
    if vm.thread.fuel == 0 {
        return Err(NativeError::Yield);
    }
    Ok(Value::Null)
}

fn is_background(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = thread_index(vm, arg(args, 0))?;
    Ok(Value::Bool(vm.sched.threads[t].background))
}

fn set_background(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = thread_index(vm, arg(args, 0))?;
    vm.sched.threads[t].background = matches!(arg(args, 1), Value::Bool(true));
    Ok(Value::Null)
}

fn is_alive(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = thread_index(vm, arg(args, 0))?;
    Ok(Value::Bool(matches!(vm.sched.threads[t].status, Status::Runnable | Status::Parked { .. })))
}

fn park(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let t = vm.sched.current;
    if std::mem::take(&mut vm.sched.threads[t].permit) {
        return Ok(Value::Bool(true));
    }
    Err(NativeError::Park { timeout: None, interruptible: true })
}

fn park_for(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = vm.sched.current;
    if std::mem::take(&mut vm.sched.threads[t].permit) {
        return Ok(Value::Bool(true));
    }
    match int_arg(args, 0) {
        0 => Ok(Value::Bool(false)),
        ms if ms < -1 => Err(out_of_range("millisecondsTimeout", "Number must be either non-negative and less than or equal to Int32.MaxValue or -1.")),
        -1 => Err(NativeError::Park { timeout: None, interruptible: true }),
        ms => Err(NativeError::Park { timeout: Some(i64::from(ms) * TICKS_PER_MS), interruptible: true }),
    }
}

/// Wakes a thread parked interruptibly (its park returns `true`), or leaves a permit.
fn unpark(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = thread_index(vm, arg(args, 0))?;
    match vm.sched.threads[t].status {
        Status::Parked { interruptible: true } => vm.unpark_with(t, Value::Bool(true)),
        _ => vm.sched.threads[t].permit = true,
    }
    Ok(Value::Null)
}

fn now(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I64(vm.sched.now))
}

/// CPU time all threads have used (ticks): the slices of fuel they spent.
fn cpu_time(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I64(vm.sched.cpu_time))
}

fn next_random(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::U32(vm.sched.next_random()))
}

/// `Environment.CurrentManagedThreadId`.
pub fn current_managed_thread_id(vm: &mut Vm, _: &[Value]) -> NativeResult {
    Ok(Value::I32(vm.sched.threads[vm.sched.current].id))
}

/// The `ObjectLock` attached to an object by `Monitor`, or null.
fn find_lock(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let obj = arg(args, 0).gc_ref().ok_or_else(nre)?;
    Ok(vm.object_locks.get(&obj).copied().unwrap_or(Value::Null))
}

fn attach_lock(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let obj = arg(args, 0).gc_ref().ok_or_else(nre)?;
    vm.object_locks.insert(obj, arg(args, 1));
    Ok(Value::Null)
}
