//! `vm bench`: runs BenchmarkDotNet-style programs as written. `Main` asks for benchmarks
//! through `BenchmarkSwitcher`/`BenchmarkRunner` (stdlib/BenchmarkDotNet), which records a
//! [`BenchRequest`]; when `Main` has returned, the driver finds the benchmarks in the
//! program's metadata ([`discovery`]), keeps those `--filter` selects ([`filter`]), runs
//! each ([`measure`]), summarises the samples ([`statistics`]) and prints one table per
//! class ([`table`]).
//!
//! `vm run` runs the same programs as a *dry* job: no times, only the allocations per
//! operation, which are deterministic (the programs harness snapshots them).

pub mod discovery;
pub mod filter;
pub mod measure;
pub mod statistics;
pub mod table;

use crate::runtime::host_call::ProgramEnded;
pub use crate::runtime::intrinsics::bench::BenchRequest;
use crate::runtime::Vm;
use discovery::{Benchmark, BenchmarkClass};
use measure::HostMethods;
pub use measure::MeasureSettings;

/// How the benchmarks are run.
#[derive(Clone, Copy, Debug)]
pub enum Job {
    /// Allocations only (`vm run`, `vm bench --job dry`): deterministic output.
    Dry,
    /// Host-time measurement.
    Measure(MeasureSettings),
}

#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub job: Job,
    /// `--filter` globs over `Namespace.Class.Method`; none selects every benchmark.
    pub filters: Vec<String>,
}

/// The exit code when the benchmarks cannot run (BenchmarkDotNet's validation errors, a
/// filter that selects nothing).
pub const BENCH_ERROR_EXIT_CODE: i32 = 1;

/// Runs the benchmarks `Main` asked for and prints their tables; returns the exit code.
pub fn run_requested(vm: &mut Vm, options: &BenchOptions) -> i32 {
    let requests = std::mem::take(&mut vm.bench_requests);
    let classes = match discovery::find_classes(&vm.meta, &requests) {
        Ok(classes) => classes,
        Err(message) => return fail(vm, &message),
    };
    let Some(host) = HostMethods::find(vm) else {
        return fail(vm, "the library's BenchmarkHost is missing");
    };
    let selected: usize = classes.iter().map(|c| selected(c, &options.filters).count()).sum();
    if selected == 0 {
        return fail(vm, "no benchmark matches the filter");
    }
    match run_classes(vm, &classes, options, host) {
        Ok(()) => 0,
        Err(ProgramEnded(code)) => code,
    }
}

fn run_classes(vm: &mut Vm, classes: &[BenchmarkClass], options: &BenchOptions, host: HostMethods) -> Result<(), ProgramEnded> {
    let overhead = match &options.job {
        Job::Dry => 0.0,
        Job::Measure(settings) => measure::overhead_per_op(vm, host, settings)?,
    };
    for class in classes {
        let mut rows = Vec::new();
        for bench in selected(class, &options.filters) {
            let measured = measure::measure(vm, class, bench, &options.job, host)?;
            rows.push((bench, measured));
        }
        if rows.is_empty() {
            continue;
        }
        let text = format!("{}\n{}", heading(class, &options.job, rows.len(), overhead), table::render(&groups(class, rows, overhead)));
        vm.write_stdout(&text);
        vm.flush();
    }
    Ok(())
}

fn selected<'a>(class: &'a BenchmarkClass, filters: &'a [String]) -> impl Iterator<Item = &'a Benchmark> {
    class.benchmarks.iter().filter(|b| filter::selects(filters, &b.full_name))
}

/// The table's rows: one group per category list when the class groups by category (in
/// the order the groups first appear), else one group.
fn groups(class: &BenchmarkClass, rows: Vec<(&Benchmark, measure::Measurement)>, overhead: f64) -> Vec<Vec<table::Row>> {
    let mut keys: Vec<Vec<String>> = Vec::new();
    let mut groups: Vec<Vec<table::Row>> = Vec::new();
    for (bench, measured) in rows {
        let key = if class.by_category { bench.categories.clone() } else { Vec::new() };
        let at = keys.iter().position(|k| *k == key).unwrap_or_else(|| {
            keys.push(key);
            groups.push(Vec::new());
            keys.len() - 1
        });
        groups[at].push(row(bench, &measured, overhead));
    }
    groups
}

fn row(bench: &Benchmark, measured: &measure::Measurement, overhead: f64) -> table::Row {
    let overhead_per_op = overhead / bench.operations_per_invoke as f64;
    let time = (!measured.samples.is_empty()).then(|| {
        let net: Vec<f64> = measured.samples.iter().map(|s| (s - overhead_per_op).max(0.0)).collect();
        statistics::summarize(&net)
    });
    table::Row { method: bench.name.clone(), categories: bench.categories.clone(), baseline: bench.baseline, time, allocated: measured.allocated }
}

fn heading(class: &BenchmarkClass, job: &Job, count: usize, overhead: f64) -> String {
    let what = format!("// * Summary: {} ({count} benchmark{}) *\n", class.name, if count == 1 { "" } else { "s" });
    let how = match job {
        Job::Dry => format!(
            "// Dry job: times are not measured (vm bench measures them); Allocated counts at least {} operations (whole calls) after at least {} uncounted ones\n",
            measure::ALLOCATION_OPS,
            measure::ALLOCATION_WARMUP_OPS
        ),
        Job::Measure(s) => format!(
            "// Job: {} warm-up and {} measured iterations of about {} ms, host time; the driver's cost of an empty operation ({overhead:.3} ns) is subtracted\n",
            s.warmup_iterations,
            s.iterations,
            s.iteration_time.as_millis()
        ),
    };
    what + &how
}

fn fail(vm: &mut Vm, message: &str) -> i32 {
    vm.write_stderr(&format!("vm bench: {message}\n"));
    BENCH_ERROR_EXIT_CODE
}
