//! From source text to exit code: compiles a program together with the standard library,
//! loads it, and runs its entry point. The `vm` command and the test harness both go
//! through here.

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;
use std::rc::Rc;

use crate::bench::{self, BenchOptions, Job};
use crate::compiler::{self, CompileOptions, Program};
use crate::runtime::entry::INTERNAL_ERROR_EXIT_CODE;
use crate::runtime::{trace, Sinks, Vm, VmOptions};

/// The exit code of a program that failed to compile (as `dotnet build` returns).
pub const COMPILE_ERROR_EXIT_CODE: i32 = 1;

pub use crate::compiler::library_sources;

/// Compiles one user file; on failure, the rendered compile errors.
pub fn compile_file(path: &str, source: &str, options: CompileOptions) -> Result<Program, String> {
    let user = [(path.to_string(), source.to_string())];
    let skeletons = compiler::Skeletons { texts: stdlib::SKELETONS, images: stdlib::IMAGES };
    compiler::compile_with_skeletons(&library_sources(), Some(skeletons), &user, options, crate::runtime::intrinsics::NAMES)
        .map_err(|(diags, files)| compiler::diagnostics::render(&diags, &files))
}

/// Compiles and runs one file, writing its output to `sinks`; returns the exit code. A
/// benchmark program's benchmarks run as a dry job (allocations only, see [`crate::bench`]).
pub fn run_file(path: &str, source: &str, options: CompileOptions, vm_options: VmOptions, sinks: Sinks) -> i32 {
    if let Some(runs) = vm_options.explore {
        return crate::explore::explore_file(path, source, options, vm_options, runs, sinks);
    }
    run_with(path, source, options, vm_options, sinks, &Benchmarks::Dry, drop)
}

/// `vm bench`: compiles and runs a benchmark program, then runs the benchmarks its `Main`
/// asked for as `bench` says; returns the exit code.
pub fn bench_file(path: &str, source: &str, options: CompileOptions, vm_options: VmOptions, bench: BenchOptions, sinks: Sinks) -> i32 {
    run_with(path, source, options, vm_options, sinks, &Benchmarks::Required(bench), drop)
}

/// What happens to the benchmarks a program asks for once its `Main` has returned.
enum Benchmarks {
    /// `vm run`: a dry job, if the program asked for any.
    Dry,
    /// `vm bench`: these options; a program that asks for none is an error.
    Required(BenchOptions),
}

/// As [`run_file`], for a process that exits right after: the program's memory (the heap,
/// the compiled code, the library's syntax trees) is left to the operating system rather
/// than freed object by object.
pub fn run_file_and_leave_memory(path: &str, source: &str, options: CompileOptions, vm_options: VmOptions, sinks: Sinks) -> i32 {
    if vm_options.explore.is_some() {
        return run_file(path, source, options, vm_options, sinks);
    }
    run_with(path, source, options, vm_options, sinks, &Benchmarks::Dry, std::mem::forget)
}

fn run_with(path: &str, source: &str, options: CompileOptions, vm_options: VmOptions, mut sinks: Sinks, benchmarks: &Benchmarks, release: fn(Vm)) -> i32 {
    let program = match compile_file(path, source, options) {
        Ok(p) => {
            let _ = sinks.stderr.write_all(p.warnings.as_bytes());
            p
        }
        Err(rendered) => {
            let _ = sinks.stderr.write_all(rendered.as_bytes());
            return COMPILE_ERROR_EXIT_CODE;
        }
    };
    let Some(main) = program.entry_point else {
        let _ = sinks.stderr.write_all(b"vm: the program has no entry point\n");
        return COMPILE_ERROR_EXIT_CODE;
    };
    let timeline = vm_options.trace.timeline.clone();
    match Vm::load(program, sinks, vm_options) {
        Ok(mut vm) => {
            let mut code = vm.run_entry_point(main);
            if code == 0 {
                code = run_benchmarks(&mut vm, benchmarks);
            }
            if let Some(path) = timeline {
                write_timeline(&mut vm, &path);
            }
            vm.flush();
            release(vm);
            code
        }
        Err(message) => {
            eprintln!("vm: internal error: {message}");
            INTERNAL_ERROR_EXIT_CODE
        }
    }
}

fn run_benchmarks(vm: &mut Vm, benchmarks: &Benchmarks) -> i32 {
    let requested = !vm.bench_requests.is_empty();
    match benchmarks {
        Benchmarks::Dry if requested => bench::run_requested(vm, &BenchOptions { job: Job::Dry, filters: Vec::new() }),
        Benchmarks::Dry => 0,
        Benchmarks::Required(options) if requested => bench::run_requested(vm, options),
        Benchmarks::Required(_) => {
            vm.write_stderr(
                "vm bench: the program asked for no benchmarks (call BenchmarkSwitcher.FromAssembly(...).Run(args) or BenchmarkRunner.Run<T>() from Main)\n",
            );
            bench::BENCH_ERROR_EXIT_CODE
        }
    }
}

/// Draws the run's events into `path`: Chrome's trace format for a `.json` file, else SVG.
/// A file that cannot be written is reported, without changing the program's exit code.
fn write_timeline(vm: &mut Vm, path: &Path) {
    let is_json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let text = if is_json { trace::chrome::render(vm.trace_events()) } else { trace::svg::render(vm.trace_events()) };
    if let Err(e) = std::fs::write(path, text) {
        vm.write_stderr(&format!("vm: cannot write the timeline '{}': {e}\n", path.display()));
    }
}

/// An output sink whose bytes can be read back after a run (the REPL and the tests run
/// programs in-process this way).
#[derive(Clone, Default)]
pub struct Capture(Rc<RefCell<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// What was written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.borrow()).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use crate::compiler::{compile, diagnostics, library_sources, CompileOptions, Lowering};

    /// Runs only compile what they call: this compiles every library body, with both
    /// lowerings, so an error anywhere in the library is still caught.
    #[test]
    fn the_whole_library_compiles() {
        let library = library_sources();
        let user = [("empty.cs".to_string(), "class P { static void Main() { } }".to_string())];
        for lowering in [Lowering::Classic, Lowering::Runtime] {
            let options = CompileOptions { lowering, eager_library: true, ..CompileOptions::default() };
            if let Err((diags, files)) = compile(&library, &user, options, crate::runtime::intrinsics::NAMES) {
                panic!("{}", diagnostics::render(&diags, &files));
            }
        }
    }
}
