//! Shared by the integration tests: running a program in-process with captured output,
//! and reading the directives a test program carries in its comments.

#![allow(dead_code)]

use vm::compiler::{CompileOptions, Lowering};
pub use vm::driver::Capture;
use vm::runtime::{Sinks, VmOptions};

/// What a run printed and returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

/// Runs `source` (named `path` in messages) like `vm run FLAGS path ARGS`.
pub fn run(path: &str, source: &str, flags: &[String], args: &[String], lowering: Lowering) -> Outcome {
    run_with_input(path, source, flags, args, "", lowering)
}

/// [`run`] with `stdin` as the program's standard input.
pub fn run_with_input(path: &str, source: &str, flags: &[String], args: &[String], stdin: &str, lowering: Lowering) -> Outcome {
    let run = || run_here(path, source, flags, args, stdin, lowering);
    vm::deep_stack::run_on_deep_stack(run).expect("the deep-stack thread starts")
}

/// [`run_with_input`] on the calling thread, as `vm` runs a program on its deep-stack thread.
fn run_here(path: &str, source: &str, flags: &[String], args: &[String], stdin: &str, lowering: Lowering) -> Outcome {
    let mut vm_options = VmOptions { program_name: path.to_string(), args: args.to_vec(), ..VmOptions::default() };
    vm_options.console.stdin = Some(stdin.to_string());
    let mut compile = CompileOptions { lowering, ..CompileOptions::default() };
    apply_flags(flags, &mut compile, &mut vm_options);
    let (stdout, stderr) = (Capture::default(), Capture::default());
    let sinks = Sinks { stdout: Box::new(stdout.clone()), stderr: Box::new(stderr.clone()) };
    let exit_code = vm::driver::run_file(path, source, compile, vm_options, sinks);
    Outcome { stdout: stdout.text(), stderr: stderr.text(), exit_code }
}

/// A test's `// vm-args:` flags, read as `vm run` reads its options.
fn apply_flags(flags: &[String], compile: &mut CompileOptions, vm: &mut VmOptions) {
    if let Err(vm::cli::UsageError(message)) = vm::cli::parse_run_flags(flags, compile, vm) {
        panic!("vm-args: {message}");
    }
}

/// The expectations a program states in its comments (see `programs/README.md`).
#[derive(Clone, Debug, Default)]
pub struct Directives {
    pub flags: Vec<String>,
    pub args: Vec<String>,
    pub stdout: Option<String>,
    pub exit_code: Option<i32>,
    pub stderr_lines: Vec<String>,
    /// Standard input: the text of each `// vm-stdin:` line, each ending with `\n`.
    pub stdin: String,
    /// `// vm-harness: bench`: a benchmark program, run by `vm/tests/bench.rs` instead.
    pub bench: bool,
}

pub fn directives(source: &str, path: &str) -> Directives {
    let mut d = Directives::default();
    let mut lines = source.lines();
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix("// vm-args:") {
            let (flags, args) = match rest.split_once(" -- ") {
                Some((f, a)) => (f, a),
                None if rest.trim_end().ends_with("--") => (rest.trim_end().trim_end_matches("--"), ""),
                None => (rest, ""),
            };
            d.flags = flags.split_whitespace().map(str::to_string).collect();
            d.args = args.split_whitespace().map(str::to_string).collect();
        } else if let Some(rest) = line.strip_prefix("// vm-stdin:") {
            d.stdin.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            d.stdin.push('\n');
        } else if line.trim_end() == "// vm-harness: bench" {
            d.bench = true;
        } else if let Some(rest) = line.strip_prefix("// expect-exit:") {
            d.exit_code = Some(rest.trim().parse().expect("expect-exit takes a number"));
        } else if let Some(rest) = line.strip_prefix("// expect-stderr: ") {
            d.stderr_lines.push(rest.replace("{file}", path));
        } else if line == "/* expect" {
            let mut out = String::new();
            for l in lines.by_ref() {
                if l == "*/" {
                    break;
                }
                out.push_str(l);
                out.push('\n');
            }
            d.stdout = Some(out);
        }
    }
    d
}

/// Every way `outcome` departs from `d`, as readable lines (empty when it matches).
pub fn check(d: &Directives, outcome: &Outcome) -> Vec<String> {
    let mut problems = Vec::new();
    if let Some(expected) = &d.stdout {
        if &outcome.stdout != expected {
            problems.push(format!("stdout differs:\n{}", diff(expected, &outcome.stdout)));
        }
    }
    let expected_exit = d.exit_code.or(d.stdout.as_ref().map(|_| 0));
    if let Some(code) = expected_exit {
        if outcome.exit_code != code {
            problems.push(format!("exit code {} (expected {code})", outcome.exit_code));
        }
    }
    let mut stderr_lines = outcome.stderr.lines();
    for want in &d.stderr_lines {
        if !stderr_lines.any(|l| l == want) {
            problems.push(format!("stderr lacks (in order) the line: {want}\nstderr was:\n{}", outcome.stderr));
            break;
        }
    }
    problems
}

/// A line diff good enough to spot what went wrong.
fn diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        let (x, y) = (e.get(i), a.get(i));
        if x != y {
            out.push_str(&format!("  line {}:\n    expected: {}\n    actual:   {}\n", i + 1, x.unwrap_or(&"<none>"), y.unwrap_or(&"<none>")));
        }
    }
    out
}
