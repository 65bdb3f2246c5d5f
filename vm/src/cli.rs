//! The command line's options, parsed in one place: `vm run`'s flags (also taken by
//! `vm disasm`, `vm repl`, `vm bench` and the test harness's `// vm-args:` directive),
//! `vm bench`'s and `vm lower`'s own. `main.rs` keeps only the dispatch and the I/O.

use crate::bench::{BenchOptions, Job, MeasureSettings};
use crate::compiler::{CompileOptions, Lowering};
use crate::lower::{LowerOptions, LoweringChoice};
use crate::runtime::{ConsoleOptions, VmOptions};

/// A command-line mistake: printed with the usage text, exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

/// `vm run`'s command line: the file, and the options for the compiler and the VM.
pub struct RunCommand {
    pub file: String,
    pub compile: CompileOptions,
    pub vm: VmOptions,
}

/// `vm run [OPTIONS] FILE [ARGS...]`: the program reads the host's console.
pub fn parse_run(args: &[String]) -> Result<RunCommand, UsageError> {
    let mut compile = CompileOptions::default();
    let mut vm = VmOptions { console: ConsoleOptions::host(), ..VmOptions::default() };
    let i = parse_options(args, |flag, value| known_or_unknown(run_flag(flag, value, &mut compile, &mut vm)?, flag, ""))?;
    let file = args.get(i).cloned().ok_or_else(|| UsageError("no program file given".into()))?;
    vm.program_name = file.clone();
    vm.args = args[i + 1..].to_vec();
    Ok(RunCommand { file, compile, vm: vm.sandboxed() })
}

/// `vm run`'s options alone (the REPL's command line, a test's `// vm-args:`), applied
/// over `compile` and `vm`; anything that is not an option is a mistake.
pub fn parse_run_flags(args: &[String], compile: &mut CompileOptions, vm: &mut VmOptions) -> Result<(), UsageError> {
    let i = parse_options(args, |flag, value| known_or_unknown(run_flag(flag, value, compile, vm)?, flag, ""))?;
    if let Some(extra) = args.get(i) {
        return Err(UsageError(format!("unexpected argument '{extra}'")));
    }
    *vm = std::mem::take(vm).sandboxed();
    Ok(())
}

/// Applies one of `vm run`'s flags; `false` if `flag` is not one of them.
fn run_flag(flag: &str, value: &mut dyn FnMut() -> Result<String, UsageError>, compile: &mut CompileOptions, vm: &mut VmOptions) -> Result<bool, UsageError> {
    match flag {
        "--lowering" => compile.lowering = parse_lowering(&value()?)?,
        "--cpus" => vm.cpus = parse_number(flag, &value()?)?,
        "--seed" => vm.seed = parse_number(flag, &value()?)?,
        "--explore" => vm.explore = Some(parse_number(flag, &value()?)?),
        "--now" => vm.now_ticks = crate::runtime::host_model::parse_utc_instant(&value()?).map_err(UsageError)?,
        "--stats" => vm.stats = true,
        "--warnaserror" => compile.warnings_as_errors = true,
        "--max-steps" => vm.max_steps = Some(parse_number(flag, &value()?)?),
        "--max-heap" => vm.max_heap = Some(parse_size(flag, &value()?)?),
        "--max-output" => vm.max_output = Some(parse_size(flag, &value()?)?),
        "--sandbox" => vm.sandbox = true,
        "--sandbox-dir" => vm.sandbox_dir = Some(value()?.into()),
        "--trace" => vm.trace.print = true,
        "--timeline" => vm.trace.timeline = Some(value()?.into()),
        "--reuse-continuations" => vm.reuse_continuations = parse_bool(flag, &value()?)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// An unknown flag is an error naming the command (`for bench`) it was given to.
fn known_or_unknown(known: bool, flag: &str, command: &str) -> Result<(), UsageError> {
    if known {
        return Ok(());
    }
    Err(UsageError(format!("unknown option '{flag}'{command}")))
}

/// `vm repl [OPTIONS]`: `vm run`'s options, no file; the session is named `repl`
/// (`Environment.GetCommandLineArgs()[0]`).
pub fn parse_repl(args: &[String]) -> Result<(CompileOptions, VmOptions), UsageError> {
    let mut compile = CompileOptions::default();
    let mut vm = VmOptions { console: ConsoleOptions::host(), program_name: "repl".into(), ..VmOptions::default() };
    parse_run_flags(args, &mut compile, &mut vm)?;
    if vm.trace.any() {
        return Err(UsageError("--trace and --timeline are options of vm run".into()));
    }
    Ok((compile, vm))
}

/// `vm bench`'s command line: `vm run`'s options, `--filter PATTERN` and `--job dry`.
pub fn parse_bench(args: &[String]) -> Result<(RunCommand, BenchOptions), UsageError> {
    let mut filters = Vec::new();
    let mut job = Job::Measure(MeasureSettings::default());
    let mut compile = CompileOptions::default();
    let mut vm = VmOptions { console: ConsoleOptions::host(), ..VmOptions::default() };
    let i = parse_options(args, |flag, value| {
        match flag {
            "--filter" => filters.push(value()?),
            "--job" => job = parse_job(&value()?)?,
            "--trace" | "--timeline" => return known_or_unknown(false, flag, " for bench"),
            _ => return known_or_unknown(run_flag(flag, value, &mut compile, &mut vm)?, flag, " for bench"),
        }
        Ok(())
    })?;
    let run = parse_run(&args[i..])?;
    let vm = VmOptions { program_name: run.vm.program_name, args: run.vm.args, ..vm };
    Ok((RunCommand { file: run.file, compile, vm }, BenchOptions { job, filters }))
}

fn parse_size(flag: &str, s: &str) -> Result<usize, UsageError> {
    crate::runtime::options::parse_size(s).ok_or_else(|| UsageError(format!("{flag} expects a size such as 512M or 2G, not '{s}'")))
}

fn parse_job(s: &str) -> Result<Job, UsageError> {
    match s {
        "dry" => Ok(Job::Dry),
        "default" => Ok(Job::Measure(MeasureSettings::default())),
        _ => Err(UsageError(format!("--job must be 'dry' or 'default', not '{s}'"))),
    }
}

/// `vm lower`'s command line: `--lowering`, `--method NAME`, `--bytecode`, then the file.
pub fn parse_lower(args: &[String]) -> Result<(String, LowerOptions), UsageError> {
    let mut options = LowerOptions::default();
    let i = parse_options(args, |flag, value| {
        match flag {
            "--lowering" => {
                options.compile.lowering = parse_lowering(&value()?)?;
                options.lowering_chosen_by = LoweringChoice::CommandLine;
            }
            "--method" => options.method = Some(value()?),
            "--bytecode" => options.bytecode = true,
            _ => return known_or_unknown(false, flag, " for lower"),
        }
        Ok(())
    })?;
    match &args[i..] {
        [file] => Ok((file.clone(), options)),
        [] => Err(UsageError("no program file given".into())),
        [_, extra, ..] => Err(UsageError(format!("unexpected argument '{extra}'"))),
    }
}

/// Walks the leading options (`--flag`, `--flag=value`, `--flag value`, `--` ends them),
/// handing each flag to `apply` with a getter for its value; returns the index of the first
/// argument that is not an option.
fn parse_options(
    args: &[String],
    mut apply: impl FnMut(&str, &mut dyn FnMut() -> Result<String, UsageError>) -> Result<(), UsageError>,
) -> Result<usize, UsageError> {
    let mut i = 0;
    while i < args.len() && args[i].starts_with("--") {
        if args[i] == "--" {
            return Ok(i + 1);
        }
        let (flag, inline) = match args[i].split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (args[i].as_str(), None),
        };
        let mut value = || -> Result<String, UsageError> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i).cloned().ok_or_else(|| UsageError(format!("{flag} needs a value")))
        };
        apply(flag, &mut value)?;
        i += 1;
    }
    Ok(i)
}

fn parse_lowering(s: &str) -> Result<Lowering, UsageError> {
    match s {
        "classic" => Ok(Lowering::Classic),
        "runtime" => Ok(Lowering::Runtime),
        _ => Err(UsageError(format!("--lowering must be 'classic' or 'runtime', not '{s}'"))),
    }
}

fn parse_number<T: std::str::FromStr>(flag: &str, s: &str) -> Result<T, UsageError> {
    s.parse().map_err(|_| UsageError(format!("{flag} expects a number, not '{s}'")))
}

fn parse_bool(flag: &str, s: &str) -> Result<bool, UsageError> {
    s.parse().map_err(|_| UsageError(format!("{flag} expects true or false, not '{s}'")))
}
