//! `vm lower` on the programs of `programs/lower/` under both lowerings: the text is
//! snapshotted into `snapshots/lower/`, and the allocation forecast it prints must agree
//! with what `--stats` counts when the program runs.

mod support;

use vm::compiler::{CompileOptions, Lowering};
use vm::lower::{lower_file, LowerError, LowerOptions};

const LOWERINGS: [(Lowering, &str); 2] = [(Lowering::Classic, "classic"), (Lowering::Runtime, "runtime")];

fn program_path(name: &str) -> String {
    format!("programs/lower/{name}.cs-lite")
}

fn source(name: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(program_path(name))).expect("the program is readable")
}

/// `vm lower --lowering=L [--method M] [--bytecode] programs/lower/NAME.cs-lite`.
fn lower(name: &str, lowering: Lowering, method: Option<&str>, bytecode: bool) -> Result<String, LowerError> {
    let options = LowerOptions {
        compile: CompileOptions { lowering, ..CompileOptions::default() },
        lowering_chosen_by: vm::lower::LoweringChoice::CommandLine,
        method: method.map(str::to_string),
        bytecode,
    };
    lower_file(&program_path(name), &source(name), &options)
}

fn lowered(name: &str, lowering: Lowering, method: Option<&str>) -> String {
    match lower(name, lowering, method, false) {
        Ok(text) => text,
        Err(e) => panic!("vm lower {name} failed: {e:?}"),
    }
}

/// Snapshots `vm lower` of `name` under both lowerings.
fn snapshot_both(name: &str, method: Option<&str>) {
    for (lowering, label) in LOWERINGS {
        let text = lowered(name, lowering, method);
        insta::with_settings!({
            snapshot_path => "../../snapshots/lower",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(format!("{name}@{label}"), text);
        });
    }
}

#[test]
fn article_getdata_delay() {
    snapshot_both("getdata_delay", None);
}

#[test]
fn article_getdata_chain() {
    snapshot_both("getdata_chain", None);
}

#[test]
fn article_instance_fib() {
    snapshot_both("instance_fib", None);
}

#[test]
fn awaits_in_try_catch_finally() {
    snapshot_both("try_catch_finally", Some("ProcessAsync"));
}

#[test]
fn async_iterators_are_the_state_machine_under_both_lowerings() {
    snapshot_both("async_iterator", Some("Countdown"));
}

#[test]
fn awaits_under_conditional_and_short_circuit_operators() {
    snapshot_both("conditional_awaits", None);
}

#[test]
fn local_functions_of_a_top_level_program() {
    snapshot_both("local_function", Some("GetNameAsync"));
}

/// The bytes a forecast line gives: the first `N B` on the first line of `text` that
/// contains `marker`.
fn forecast_bytes(text: &str, marker: &str) -> u64 {
    let line = text.lines().find(|l| l.contains(marker)).unwrap_or_else(|| panic!("no line with '{marker}' in:\n{text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| w.trim_end_matches([',', ';']) == "B").unwrap_or_else(|| panic!("no 'N B' in '{line}'"));
    words[at - 1].parse().unwrap_or_else(|_| panic!("no number before 'B' in '{line}'"))
}

/// `(count, bytes)` of the `--stats` row whose kind starts with `kind`.
fn stats_row(stderr: &str, kind: &str) -> (u64, u64) {
    let row = stderr.lines().find(|l| l.starts_with(kind)).unwrap_or_else(|| panic!("no '{kind}' row in:\n{stderr}"));
    let numbers: Vec<u64> = row.split_whitespace().rev().take(2).map(|w| w.parse().expect("a number")).collect();
    (numbers[1], numbers[0])
}

fn run_with_stats(name: &str, lowering: Lowering) -> String {
    let outcome = support::run(&program_path(name), &source(name), &["--stats".to_string()], &[], lowering);
    assert_eq!(outcome.exit_code, 0, "{}", outcome.stderr);
    outcome.stderr
}

#[test]
fn the_classic_forecast_is_what_stats_counts() {
    let text = lowered("getdata_delay", Lowering::Classic, None);
    let stats = run_with_stats("getdata_delay", Lowering::Classic);
    let (count, bytes) = stats_row(&stats, "AsyncTaskMethodBuilder<int>.AsyncStateMachineBox<");
    assert_eq!((count, bytes), (1, forecast_bytes(&text, "a call that suspends")), "{text}\n{stats}");

    let text = lowered("getdata_chain", Lowering::Classic, None);
    let stats = run_with_stats("getdata_chain", Lowering::Classic);
    let per_call = forecast_bytes(&text, "a call that completes synchronously");
    assert_eq!(stats_row(&stats, "Task<int>"), (2, 2 * per_call), "{text}\n{stats}");

    // A local function's state machine is a struct too: boxed once, not allocated apart.
    let text = lowered("local_function", Lowering::Classic, Some("GetNameAsync"));
    let stats = run_with_stats("local_function", Lowering::Classic);
    let (count, bytes) = stats_row(&stats, "AsyncTaskMethodBuilder<string>.AsyncStateMachineBox<");
    assert_eq!((count, bytes), (1, forecast_bytes(&text, "a call that suspends")), "{text}\n{stats}");
    assert!(!stats.lines().any(|l| l.starts_with("Program.<")), "no state machine row of its own:\n{stats}");
}

#[test]
fn the_runtime_forecast_is_what_stats_counts() {
    let text = lowered("getdata_delay", Lowering::Runtime, None);
    let stats = run_with_stats("getdata_delay", Lowering::Runtime);
    assert_eq!(stats_row(&stats, "Continuation"), (1, forecast_bytes(&text, "suspends at #0")), "{text}\n{stats}");
    let (_, task) = stats_row(&stats, "RuntimeAsyncTask<int>");
    assert_eq!(task + forecast_bytes(&text, "suspends at #0"), forecast_bytes(&text, "called through the task entry and suspending"), "{text}\n{stats}");

    let text = lowered("getdata_chain", Lowering::Runtime, Some("GetDataAsync"));
    let stats = run_with_stats("getdata_chain", Lowering::Runtime);
    let boundary = forecast_bytes(&text, "completes synchronously, called through the task entry");
    assert_eq!(stats_row(&stats, "Task<int>"), (1, boundary), "only Main's call makes a Task:\n{text}\n{stats}");
}

#[test]
fn bytecode_adds_the_marked_disassembly() {
    let classic = lower("getdata_delay", Lowering::Classic, None, true).expect("lowers");
    for expected in ["-- bytecode: kickoff", "-- bytecode: MoveNext", "// await #0: save what is live into fields", "// <>resume_0: reload it"] {
        assert!(classic.contains(expected), "'{expected}' missing from:\n{classic}");
    }
    let runtime = lower("instance_fib", Lowering::Runtime, None, true).expect("lowers");
    for expected in ["-- bytecode: task entry", "-- bytecode: async variant", "// #1: SUSPEND if the callee suspended", "// #1: RESUME continues here"] {
        assert!(runtime.contains(expected), "'{expected}' missing from:\n{runtime}");
    }
}

#[test]
fn an_unknown_method_lists_the_async_ones() {
    match lower("getdata_chain", Lowering::Runtime, Some("Missing"), false) {
        Err(LowerError::NoSuchMethod(message)) => assert!(message.contains("GetDataAsync, GetValueAsync"), "{message}"),
        other => panic!("expected NoSuchMethod, got {other:?}"),
    }
}
