//! The `vm` command: `vm run FILE [ARGS...]`, `vm bench FILE` and friends. Dispatches the
//! command line, parsed by [`vm::cli`], to [`vm::driver`].

use std::io::Write;
use std::process::ExitCode;

use vm::cli::{parse_bench, parse_lower, parse_repl, parse_run, RunCommand, UsageError};
use vm::runtime::Sinks;

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: vm run [OPTIONS] FILE [ARGS...]
       vm disasm [OPTIONS] FILE [NAME]   list the bytecode of the program's methods
                                         (those whose name contains NAME)
       vm repl [OPTIONS]                 C# at a prompt (#help there lists its commands)
       vm lower [--lowering=classic|runtime] [--method NAME] [--bytecode] FILE
                                         show how each async method is lowered: the
                                         state machine or the runtime-async body, what
                                         a suspension keeps, what calls allocate
       vm bench [--filter PATTERN] [--job dry] [OPTIONS] FILE [ARGS...]
                                         run a BenchmarkDotNet program's benchmarks:
                                         host time per operation, modeled bytes
                                         allocated per operation, a Markdown table
                                         (--filter: a glob over Class.Method, repeatable;
                                         --job dry: allocations only, no times)

options:
  --lowering=classic|runtime   how async methods are lowered when no attribute decides
  --cpus N                     Environment.ProcessorCount of the simulated machine (default 2)
  --seed N                     seed for new Random(), Random.Shared, Guid.NewGuid() and
                               the order runnable threads run in (default 0; any other
                               seed also varies time slices and where threads are preempted)
  --explore N                  run the program under seeds 0 to N-1 and report the runs whose
                               output, exit code or deadlock differ (exit code 5 if any do)
  --now INSTANT                DateTime.UtcNow when the program starts, e.g.
                               2026-01-01T00:00:00Z (the default); it moves on virtual time
  --stats                      print allocation statistics after the run
  --warnaserror                report every compiler warning as an error (the program
                               does not run)
  --reuse-continuations=BOOL   a resumed runtime-async frame that suspends again reuses its
                               continuation (default true, as .NET 11; false: one per suspension)
  --max-steps N                stop after about N loop iterations (for untrusted programs)
  --max-heap SIZE              the most the managed heap may hold (bytes, or with K, M or G)
                               before allocation throws OutOfMemoryException (default: half
                               of the machine's memory)
  --max-output SIZE            stop the program once its stdout and stderr hold SIZE bytes
  --sandbox                    an in-memory file system, no environment variables, and the
                               limits --max-steps 1000000000 --max-heap 512M --max-output 16M
                               unless given
  --sandbox-dir DIR            the sandbox's files start as a copy of DIR's (implies --sandbox)
  --trace                      print what threads, the thread pool, awaits and execution
                               contexts do, on virtual time, to standard error
  --timeline FILE              draw the run into FILE: an SVG picture (one lane per thread),
                               or Chrome/Perfetto trace JSON if FILE ends in .json
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match vm::deep_stack::run_on_deep_stack(|| dispatch(&args)) {
        Ok(outcome) => outcome,
        Err(e) => {
            eprintln!("vm: internal error: cannot start the compiler's thread: {e}");
            return ExitCode::from(vm::runtime::entry::INTERNAL_ERROR_EXIT_CODE as u8);
        }
    };
    match outcome {
        Ok(code) => ExitCode::from(code as u8),
        Err(UsageError(message)) => {
            eprintln!("vm: {message}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &[String]) -> Result<i32, UsageError> {
    match args.first().map(String::as_str) {
        Some("run") => run(parse_run(&args[1..])?),
        Some("disasm") => disasm(parse_run(&args[1..])?),
        Some("bench") => {
            let (cmd, options) = parse_bench(&args[1..])?;
            bench(cmd, options)
        }
        Some("repl") => repl(&args[1..]),
        Some("lower") => {
            let (file, options) = parse_lower(&args[1..])?;
            lower(&file, &options)
        }
        Some("help" | "--help" | "-h") => {
            print!("{USAGE}");
            Ok(0)
        }
        Some(other) => Err(UsageError(format!("unknown command '{other}'"))),
        None => Err(UsageError("no command given".into())),
    }
}

fn run(cmd: RunCommand) -> Result<i32, UsageError> {
    let source = std::fs::read_to_string(&cmd.file).map_err(|e| UsageError(format!("cannot read '{}': {e}", cmd.file)))?;
    let sinks = Sinks { stdout: Box::new(std::io::BufWriter::new(std::io::stdout())), stderr: Box::new(std::io::stderr()) };
    Ok(vm::driver::run_file_and_leave_memory(&cmd.file, &source, cmd.compile, cmd.vm, sinks))
}

fn bench(cmd: RunCommand, options: vm::bench::BenchOptions) -> Result<i32, UsageError> {
    let source = std::fs::read_to_string(&cmd.file).map_err(|e| UsageError(format!("cannot read '{}': {e}", cmd.file)))?;
    let sinks = Sinks { stdout: Box::new(std::io::BufWriter::new(std::io::stdout())), stderr: Box::new(std::io::stderr()) };
    Ok(vm::driver::bench_file(&cmd.file, &source, cmd.compile, cmd.vm, options, sinks))
}

fn lower(file: &str, options: &vm::lower::LowerOptions) -> Result<i32, UsageError> {
    let source = std::fs::read_to_string(file).map_err(|e| UsageError(format!("cannot read '{file}': {e}")))?;
    match vm::lower::lower_file(file, &source, options) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes());
            Ok(0)
        }
        Err(vm::lower::LowerError::Compile(rendered)) => {
            eprint!("{rendered}");
            Ok(vm::driver::COMPILE_ERROR_EXIT_CODE)
        }
        Err(vm::lower::LowerError::NoSuchMethod(message)) => {
            eprintln!("vm: {message}");
            Ok(2)
        }
        Err(vm::lower::LowerError::Internal(message)) => {
            eprintln!("vm: internal error: {message}");
            Ok(vm::runtime::entry::INTERNAL_ERROR_EXIT_CODE)
        }
    }
}

fn disasm(cmd: RunCommand) -> Result<i32, UsageError> {
    let source = std::fs::read_to_string(&cmd.file).map_err(|e| UsageError(format!("cannot read '{}': {e}", cmd.file)))?;
    let compile = vm::compiler::CompileOptions { eager_library: true, ..cmd.compile };
    let program = match vm::driver::compile_file(&cmd.file, &source, compile) {
        Ok(p) => p,
        Err(rendered) => {
            eprint!("{rendered}");
            return Ok(vm::driver::COMPILE_ERROR_EXIT_CODE);
        }
    };
    let filter = cmd.vm.args.first().cloned();
    let library = vm::metadata::Flags::LIBRARY;
    let mut out = std::io::stdout().lock();
    for f in &program.functions {
        let owner = program.meta.method(f.method).owner;
        let in_library = program.meta.type_def(owner).flags.has(library);
        let wanted = match &filter {
            Some(name) => f.name.contains(name.as_str()),
            None => !in_library,
        };
        if wanted && writeln!(out, "{}", vm::bytecode::disasm::disassemble(f)).is_err() {
            break;
        }
    }
    Ok(0)
}

/// `vm repl [OPTIONS]`: the options of `vm run`, no file.
fn repl(args: &[String]) -> Result<i32, UsageError> {
    let (compile, vm) = parse_repl(args)?;
    Ok(vm::repl::run(compile.lowering, vm))
}
