//! `vm run --explore N`: runs a program under N schedules (scheduler seeds 0 to N-1, see
//! `runtime::scheduler`), groups the runs by what they did (standard output, exit code,
//! deadlock) and reports every outcome that differs from seed 0's, with the seed that
//! reproduces it. A race in a multithreaded program shows as more than one outcome.

use std::io::{Read, Write};

use crate::compiler::CompileOptions;
use crate::driver::{self, Capture};
use crate::runtime::entry::DEADLOCK_EXIT_CODE;
use crate::runtime::{Sinks, VmOptions};

/// The exit code of `--explore` when the runs did not all agree.
pub const SCHEDULES_DIFFER_EXIT_CODE: i32 = 5;

/// How many seeds an outcome's line lists before "and N more".
const SEEDS_SHOWN: usize = 10;

/// What one run did, as far as exploration compares runs.
#[derive(Clone, PartialEq, Eq)]
struct Outcome {
    stdout: String,
    exit_code: i32,
    deadlocked: bool,
}

/// The runs that ended the same way, with the first line of their standard error.
struct Group {
    outcome: Outcome,
    first_stderr_line: String,
    seeds: Vec<u64>,
}

/// Runs `source` under `runs` seeds and writes the summary to `sinks.stdout`; returns 0
/// when every run ended the same way, [`SCHEDULES_DIFFER_EXIT_CODE`] otherwise (and the
/// compile-error exit code when the program does not compile).
pub fn explore_file(path: &str, source: &str, options: CompileOptions, mut vm_options: VmOptions, runs: u64, mut sinks: Sinks) -> i32 {
    if let Err(rendered) = driver::compile_file(path, source, options.clone()) {
        let _ = sinks.stderr.write_all(rendered.as_bytes());
        return driver::COMPILE_ERROR_EXIT_CODE;
    }
    vm_options.explore = None;
    if vm_options.console.stdin.is_none() {
        let mut text = String::new();
        let _ = std::io::stdin().read_to_string(&mut text);
        vm_options.console.stdin = Some(text);
    }
    let mut groups: Vec<Group> = Vec::new();
    for seed in 0..runs.max(1) {
        let (outcome, stderr) = run_once(path, source, options.clone(), VmOptions { seed, ..vm_options.clone() });
        match groups.iter_mut().find(|g| g.outcome == outcome) {
            Some(group) => group.seeds.push(seed),
            None => groups.push(Group { outcome, first_stderr_line: stderr.lines().next().unwrap_or("").to_string(), seeds: vec![seed] }),
        }
    }
    let _ = sinks.stdout.write_all(summary(path, runs.max(1), &groups).as_bytes());
    if groups.len() == 1 {
        0
    } else {
        SCHEDULES_DIFFER_EXIT_CODE
    }
}

/// One run with its output captured; also its standard error.
fn run_once(path: &str, source: &str, options: CompileOptions, vm_options: VmOptions) -> (Outcome, String) {
    let (stdout, stderr) = (Capture::default(), Capture::default());
    let sinks = Sinks { stdout: Box::new(stdout.clone()), stderr: Box::new(stderr.clone()) };
    let exit_code = driver::run_file(path, source, options, vm_options, sinks);
    let stderr = stderr.text();
    let deadlocked = exit_code == DEADLOCK_EXIT_CODE && stderr.starts_with("Deadlock:");
    (Outcome { stdout: stdout.text(), exit_code, deadlocked }, stderr)
}

/// "explored N schedules: K distinct outcomes", then one paragraph per outcome.
fn summary(path: &str, runs: u64, groups: &[Group]) -> String {
    let mut text = match groups.len() {
        1 => format!("explored {runs} schedules: 1 outcome\n"),
        n => format!("explored {runs} schedules: {n} distinct outcomes\n"),
    };
    let first = &groups[0];
    for (i, group) in groups.iter().enumerate() {
        text.push_str(&format!("outcome {} ({}): {}\n", i + 1, seed_list(&group.seeds), describe(group)));
        if i == 0 {
            continue;
        }
        if group.outcome.stdout != first.outcome.stdout {
            text.push_str(&first_difference(first, group));
        }
        text.push_str(&format!("  reproduce: vm run --seed {} {path}\n", group.seeds[0]));
    }
    text
}

/// "seed 0" / "seeds 0, 3, 4 and 12 more".
fn seed_list(seeds: &[u64]) -> String {
    let shown: Vec<String> = seeds.iter().take(SEEDS_SHOWN).map(u64::to_string).collect();
    let more = seeds.len().saturating_sub(SEEDS_SHOWN);
    let noun = if seeds.len() == 1 { "seed" } else { "seeds" };
    match more {
        0 => format!("{noun} {}", shown.join(", ")),
        _ => format!("{noun} {} and {more} more", shown.join(", ")),
    }
}

/// "exit code 0", "exit code 3, deadlock", with the first line of standard error if any.
fn describe(group: &Group) -> String {
    let o = &group.outcome;
    let mut text = format!("exit code {}", o.exit_code);
    if o.deadlocked {
        text.push_str(", deadlock");
    }
    if !group.first_stderr_line.is_empty() {
        text.push_str(&format!("; stderr: {}", group.first_stderr_line));
    }
    text
}

/// The first line where `other`'s standard output differs from `first`'s, diff-style.
fn first_difference(first: &Group, other: &Group) -> String {
    let a: Vec<&str> = first.outcome.stdout.lines().collect();
    let b: Vec<&str> = other.outcome.stdout.lines().collect();
    let line = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)).unwrap_or(a.len());
    let show = |l: Option<&&str>| l.map_or("(no line)".to_string(), |s| s.to_string());
    format!("  stdout line {}:\n  - seed {}: {}\n  + seed {}: {}\n", line + 1, first.seeds[0], show(a.get(line)), other.seeds[0], show(b.get(line)))
}
