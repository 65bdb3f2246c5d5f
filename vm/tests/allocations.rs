//! The allocation figures of the runtime-async article, read from `--stats`: what each
//! lowering allocates for an async chain that never suspends (`Fib(20)`) and for one
//! `Task.Yield` suspension. The expected numbers are derived here from .NET's rules
//! (reference `async-lowerings.md` §5), not copied from a run.

mod support;

use support::{run, Outcome};
use vm::compiler::Lowering;

const TASK_OF_INT: u64 = 72;

fn stats_of(program: &str, lowering: Lowering) -> Outcome {
    let path = format!("programs/stats/{program}");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let source = std::fs::read_to_string(root.join(&path)).expect("program is readable");
    let outcome = run(&path, &source, &["--stats".to_string()], &[], lowering);
    assert_eq!(outcome.exit_code, 0, "{path} failed:\n{}", outcome.stderr);
    outcome
}

/// The `--stats` rows as `(kind, count, bytes)`.
fn rows(stderr: &str) -> Vec<(String, u64, u64)> {
    let table = stderr.split("--stats:").nth(1).expect("a --stats report");
    table
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("suspensions"))
        .filter_map(|l| {
            let mut parts = l.split_whitespace().rev();
            let bytes = parts.next()?.parse().ok()?;
            let count = parts.next()?.parse().ok()?;
            let kind: Vec<&str> = parts.rev().collect();
            Some((kind.join(" "), count, bytes))
        })
        .collect()
}

fn total(stderr: &str) -> u64 {
    let last = stderr.lines().last().expect("a last line");
    let n = last.strip_prefix("allocated: ").and_then(|s| s.strip_suffix(" B")).expect("last line is `allocated: N B`");
    n.parse().expect("a byte count")
}

/// Calls of `Fib(n)` (the classic lowering's `Task<int>` allocations) whose result .NET
/// does not take from its cache of completed `Task<int>` (-1 through 8).
fn uncached_fib_results(n: u64) -> u64 {
    fn fib(n: u64) -> u64 {
        if n < 2 {
            n
        } else {
            fib(n - 1) + fib(n - 2)
        }
    }
    let own = u64::from(fib(n) > 8);
    if n < 2 {
        own
    } else {
        own + uncached_fib_results(n - 1) + uncached_fib_results(n - 2)
    }
}

#[test]
fn fib_chain_allocates_one_task_under_runtime_lowering() {
    let o = stats_of("fib_allocations.cs-lite", Lowering::Runtime);
    assert_eq!(rows(&o.stderr), vec![("Task<int>".to_string(), 1, TASK_OF_INT)], "{}", o.stderr);
    assert_eq!(total(&o.stderr), TASK_OF_INT);
}

#[test]
fn fib_chain_allocates_a_task_per_uncached_result_under_classic_lowering() {
    let o = stats_of("fib_allocations.cs-lite", Lowering::Classic);
    let tasks = uncached_fib_results(20);
    assert_eq!(rows(&o.stderr), vec![("Task<int>".to_string(), tasks, tasks * TASK_OF_INT)], "{}", o.stderr);
    assert_eq!(total(&o.stderr), tasks * TASK_OF_INT);
}

#[test]
fn one_yield_costs_a_48_byte_continuation_under_runtime_lowering() {
    let o = stats_of("yield_allocations.cs-lite", Lowering::Runtime);
    let r = rows(&o.stderr);
    assert!(r.contains(&("Continuation".to_string(), 1, 48)), "{}", o.stderr);
    assert!(o.stderr.contains("suspensions 1  resumptions 1"), "{}", o.stderr);
}

#[test]
fn one_yield_costs_an_88_byte_box_under_classic_lowering() {
    // Reference §5.4: the box is Task<VoidTaskResult>'s 72 B plus the state machine
    // (state 4 + builder 8 + YieldAwaiter 1, padded) = 88 B; the article's 96 B assumes
    // one more 8-byte field (a hoisted local or `this`), which this method does not have.
    let o = stats_of("yield_allocations.cs-lite", Lowering::Classic);
    let r = rows(&o.stderr);
    let boxes: Vec<_> = r.iter().filter(|(kind, _, _)| kind.contains("AsyncStateMachineBox")).collect();
    assert_eq!(boxes.len(), 1, "{}", o.stderr);
    assert_eq!((boxes[0].1, boxes[0].2), (1, 88), "{}", o.stderr);
    assert!(!r.iter().any(|(kind, _, _)| kind == "Continuation"), "{}", o.stderr);
}

/// The `Continuation` row of `--stats` as `(count, bytes)`.
fn continuations(stderr: &str) -> (u64, u64) {
    rows(stderr).into_iter().find(|(kind, _, _)| kind == "Continuation").map_or((0, 0), |(_, count, bytes)| (count, bytes))
}

#[test]
fn a_resumed_frame_that_suspends_again_reuses_its_continuation() {
    // YieldTenTimes: one for its ten suspensions; CallStepTenTimes: one for itself and one
    // per call of Step (each call is a new invocation); 30 suspensions in all.
    let o = stats_of("yield_loop_allocations.cs-lite", Lowering::Runtime);
    assert_eq!(continuations(&o.stderr).0, 1 + 1 + 10, "{}", o.stderr);
    assert!(o.stderr.contains("suspensions 30  resumptions 30"), "{}", o.stderr);
}

#[test]
fn without_reuse_every_suspension_of_every_frame_allocates_a_continuation() {
    let path = "programs/stats/yield_loop_allocations.cs-lite";
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let source = std::fs::read_to_string(root.join(path)).expect("program is readable");
    let flags = ["--stats".to_string(), "--reuse-continuations=false".to_string()];
    let o = run(path, &source, &flags, &[], Lowering::Runtime);
    assert_eq!(o.exit_code, 0, "{}", o.stderr);
    // YieldTenTimes 10, Step 10, CallStepTenTimes 10 (it suspends with Step each time).
    assert_eq!(continuations(&o.stderr).0, 30, "{}", o.stderr);
    let reused = stats_of("yield_loop_allocations.cs-lite", Lowering::Runtime);
    assert!(continuations(&reused.stderr).1 < continuations(&o.stderr).1);
}
