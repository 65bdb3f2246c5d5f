//! The measuring loop. An operation is one call of the benchmark method on the main thread
//! and, when it returns a task, a wait for that task (the scheduler runs the thread pool
//! meanwhile; virtual time may move, host time is what is measured). A measured job runs a
//! pilot to size the iterations, warm-up iterations, then measured iterations; every job
//! ends with an allocation pass that counts modeled .NET bytes as `--stats` does.

use std::time::{Duration, Instant};

use super::discovery::{Benchmark, BenchmarkClass};
use super::Job;
use crate::metadata::MethodId;
use crate::runtime::host_call::ProgramEnded;
use crate::runtime::value::Value;
use crate::runtime::Vm;

/// Operations run before the allocation pass (so lazy initialisation, the thread pool's
/// first workers and the like are not counted); at least one call.
pub const ALLOCATION_WARMUP_OPS: u64 = 16;
/// Operations the allocation pass counts (at least; whole calls).
pub const ALLOCATION_OPS: u64 = 256;

/// How a measured job spends its time.
#[derive(Clone, Copy, Debug)]
pub struct MeasureSettings {
    pub warmup_iterations: usize,
    pub iterations: usize,
    pub iteration_time: Duration,
}

impl Default for MeasureSettings {
    fn default() -> Self {
        MeasureSettings { warmup_iterations: 3, iterations: 15, iteration_time: Duration::from_millis(50) }
    }
}

/// The library methods the loop calls besides the benchmarks.
#[derive(Clone, Copy)]
pub struct HostMethods {
    /// `BenchmarkHost.WaitForTask(Task)`.
    pub wait: MethodId,
    /// `BenchmarkHost.Overhead()`: the empty operation.
    pub overhead: MethodId,
}

impl HostMethods {
    pub fn find(vm: &Vm) -> Option<HostMethods> {
        let host = vm.meta.find_type_def("BenchmarkDotNet.Running", "BenchmarkHost")?;
        let method = |name: &str| vm.meta.type_def(host).methods.iter().copied().find(|&m| vm.meta.method(m).name == name);
        Some(HostMethods { wait: method("WaitForTask")?, overhead: method("Overhead")? })
    }
}

/// What one benchmark measured.
pub struct Measurement {
    /// Host nanoseconds per operation, one per measured iteration (none in a dry job).
    pub samples: Vec<f64>,
    /// Modeled bytes allocated per operation.
    pub allocated: f64,
}

/// One call (`per_call` operations), and the task to wait for if it returns one.
struct Workload {
    method: MethodId,
    args: Vec<Value>,
    wait: Option<MethodId>,
    per_call: u64,
}

impl Workload {
    fn run(&self, vm: &mut Vm) -> Result<(), ProgramEnded> {
        let result = vm.call_on_main_thread(self.method, &self.args)?;
        if let Some(wait) = self.wait {
            vm.call_on_main_thread(wait, &[result])?;
        }
        Ok(())
    }

    fn run_many(&self, vm: &mut Vm, calls: u64) -> Result<Duration, ProgramEnded> {
        let start = Instant::now();
        for _ in 0..calls {
            self.run(vm)?;
        }
        Ok(start.elapsed())
    }

    /// The calls that perform at least `ops` operations.
    fn calls_for(&self, ops: u64) -> u64 {
        ops.div_ceil(self.per_call).max(1)
    }
}

/// Measures one benchmark on a fresh instance of its class (after `[GlobalSetup]`,
/// before `[GlobalCleanup]`).
pub fn measure(vm: &mut Vm, class: &BenchmarkClass, bench: &Benchmark, job: &Job, host: HostMethods) -> Result<Measurement, ProgramEnded> {
    let instance = new_instance(vm, class)?;
    let roots = vm.host_roots.len();
    vm.host_roots.push(instance);
    if let Some(setup) = class.setup {
        vm.call_on_main_thread(setup, &receiver(vm, setup, instance))?;
    }
    let workload = Workload {
        method: bench.method,
        args: receiver(vm, bench.method, instance),
        wait: bench.returns_task.then_some(host.wait),
        per_call: bench.operations_per_invoke,
    };
    let samples = match job {
        Job::Dry => Vec::new(),
        Job::Measure(settings) => time_iterations(vm, &workload, settings)?,
    };
    let allocated = allocated_per_op(vm, &workload)?;
    if let Some(cleanup) = class.cleanup {
        vm.call_on_main_thread(cleanup, &receiver(vm, cleanup, instance))?;
    }
    vm.host_roots.truncate(roots);
    Ok(Measurement { samples, allocated })
}

/// The arguments of a call of `method`: the instance, unless the method is static.
fn receiver(vm: &Vm, method: MethodId, instance: Value) -> Vec<Value> {
    if vm.meta.method(method).is_static() {
        Vec::new()
    } else {
        vec![instance]
    }
}

/// Host nanoseconds per operation of the empty operation (subtracted from every sample).
pub fn overhead_per_op(vm: &mut Vm, host: HostMethods, settings: &MeasureSettings) -> Result<f64, ProgramEnded> {
    let workload = Workload { method: host.overhead, args: Vec::new(), wait: None, per_call: 1 };
    let samples = time_iterations(vm, &workload, settings)?;
    Ok(super::statistics::summarize(&samples).mean)
}

/// `new C()` on the main thread.
fn new_instance(vm: &mut Vm, class: &BenchmarkClass) -> Result<Value, ProgramEnded> {
    let self_type = vm.meta.type_def(class.def).self_type;
    let instance = vm.new_instance(self_type, false);
    vm.host_roots.push(instance);
    let constructed = vm.call_on_main_thread(class.constructor, &[instance]);
    vm.host_roots.pop();
    constructed.map(|_| instance)
}

/// The pilot, the warm-up iterations and the measured ones; returns nanoseconds per
/// operation of each measured iteration.
fn time_iterations(vm: &mut Vm, workload: &Workload, settings: &MeasureSettings) -> Result<Vec<f64>, ProgramEnded> {
    let calls = pilot(vm, workload, settings.iteration_time)?;
    for _ in 0..settings.warmup_iterations {
        workload.run_many(vm, calls)?;
    }
    let ops = calls.saturating_mul(workload.per_call) as f64;
    let mut samples = Vec::with_capacity(settings.iterations);
    for _ in 0..settings.iterations {
        let elapsed = workload.run_many(vm, calls)?;
        samples.push(elapsed.as_nanos() as f64 / ops);
    }
    Ok(samples)
}

/// How many calls fill an iteration of about `target` (at least one).
fn pilot(vm: &mut Vm, workload: &Workload, target: Duration) -> Result<u64, ProgramEnded> {
    let mut calls: u64 = 1;
    loop {
        let elapsed = workload.run_many(vm, calls)?.max(Duration::from_nanos(1));
        let needed = calls as f64 * target.as_secs_f64() / elapsed.as_secs_f64();
        if elapsed * 2 >= target {
            return Ok((needed.round() as u64).max(1));
        }
        calls = (needed.ceil() as u64).clamp(calls.saturating_mul(2), calls.saturating_mul(16));
    }
}

/// Modeled bytes per operation over at least [`ALLOCATION_OPS`] operations after at least
/// [`ALLOCATION_WARMUP_OPS`] uncounted ones.
fn allocated_per_op(vm: &mut Vm, workload: &Workload) -> Result<f64, ProgramEnded> {
    workload.run_many(vm, workload.calls_for(ALLOCATION_WARMUP_OPS))?;
    let calls = workload.calls_for(ALLOCATION_OPS);
    let was_counting = vm.stats.enabled();
    vm.stats.set_enabled(true);
    let before = vm.stats.total_bytes();
    let counted = workload.run_many(vm, calls);
    let bytes = vm.stats.total_bytes() - before;
    vm.stats.set_enabled(was_counting);
    counted?;
    Ok(bytes as f64 / calls.saturating_mul(workload.per_call) as f64)
}
