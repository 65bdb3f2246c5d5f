//! `vm run --trace` and `--timeline`: the text trace of each program under `programs/trace/`
//! is snapshotted for both lowerings (`snapshots/trace/`); the SVG timeline is checked for
//! its structure (well-formed, one lane per thread, one arrow per resumption) and one small
//! picture is snapshotted; both are byte-identical from run to run.

mod support;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use support::Capture;
use vm::compiler::{CompileOptions, Lowering};
use vm::runtime::trace::TraceOptions;
use vm::runtime::{Sinks, VmOptions};

/// What a traced run printed and drew.
struct Traced {
    stdout: String,
    trace: String,
    timeline: Option<String>,
}

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("repository root")
}

/// Runs `programs/trace/NAME` with `--trace` (and `--timeline` into a file of its own
/// when `timeline_extension` is given).
fn run_traced(name: &str, lowering: Lowering, timeline_extension: Option<&str>) -> Traced {
    let display = format!("programs/trace/{name}");
    let source = std::fs::read_to_string(repository_root().join(&display)).expect("program is readable");
    // Tests run in parallel and may draw the same program: each run gets a file of its own.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let timeline = timeline_extension.map(|ext| std::env::temp_dir().join(format!("vm-trace-test-{}-{run}-{name}-{lowering:?}.{ext}", std::process::id())));
    let trace = TraceOptions { print: true, timeline: timeline.clone() };
    let options = VmOptions { program_name: display.clone(), trace, ..VmOptions::default() };
    let (stdout, stderr) = (Capture::default(), Capture::default());
    let sinks = Sinks { stdout: Box::new(stdout.clone()), stderr: Box::new(stderr.clone()) };
    let code = vm::driver::run_file(&display, &source, CompileOptions { lowering, ..CompileOptions::default() }, options, sinks);
    assert_eq!(code, 0, "{display} failed:\n{}", stderr.text());
    let drawn = timeline.map(|path| {
        let text = std::fs::read_to_string(&path).expect("the timeline was written");
        let _ = std::fs::remove_file(&path);
        text
    });
    Traced { stdout: stdout.text(), trace: stderr.text(), timeline: drawn }
}

fn program_names() -> Vec<String> {
    let dir = repository_root().join("programs/trace");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("programs/trace exists")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| n.ends_with(".cs-lite"))
        .collect();
    names.sort();
    names
}

#[test]
fn traces_match_their_snapshots() {
    for name in program_names() {
        for (lowering, tag) in [(Lowering::Classic, "classic"), (Lowering::Runtime, "runtime")] {
            let traced = run_traced(&name, lowering, None);
            let snapshot = format!("{}.{tag}", name.trim_end_matches(".cs-lite"));
            insta::with_settings!({
                snapshot_path => "../../snapshots/trace",
                prepend_module_to_snapshot => false,
                omit_expression => true,
            }, {
                insta::assert_snapshot!(snapshot, traced.trace);
            });
        }
    }
}

#[test]
fn a_trace_is_the_same_on_every_run() {
    let first = run_traced("pool_queues.cs-lite", Lowering::Runtime, Some("svg"));
    let second = run_traced("pool_queues.cs-lite", Lowering::Runtime, Some("svg"));
    assert_eq!(first.trace, second.trace);
    assert_eq!(first.timeline, second.timeline);
}

#[test]
fn trace_lines_go_to_stderr_between_the_program_output() {
    let traced = run_traced("asynclocal_await.cs-lite", Lowering::Runtime, None);
    assert_eq!(traced.stdout, "child: bob\nmain: alice\n");
    assert!(traced.trace.lines().all(|l| l.starts_with('[')), "{}", traced.trace);
}

/// Counts of the parts of an SVG timeline, read back from the text.
fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// How many managed threads the trace names (each line's thread, and each thread started)
/// and how many resumptions it has.
fn threads_and_resumptions(trace: &str) -> (usize, usize) {
    let mut threads: Vec<String> = Vec::new();
    for line in trace.lines() {
        let Some((_, rest)) = line.split_once("] ") else { continue };
        let Some((running, event)) = rest.split_once(' ') else { continue };
        threads.push(running.to_string());
        let started = event.trim_start().strip_prefix("thread ").and_then(|e| e.split_once(" starts"));
        if let Some((id, _)) = started {
            threads.push(format!("T{id}"));
        }
    }
    threads.sort();
    threads.dedup();
    let resumptions = trace.lines().filter(|l| l.contains(" resume #")).count();
    (threads.len(), resumptions)
}

#[test]
fn the_timeline_has_a_lane_per_thread_and_an_arrow_per_resumption() {
    for name in program_names() {
        for lowering in [Lowering::Classic, Lowering::Runtime] {
            let traced = run_traced(&name, lowering, Some("svg"));
            let svg = traced.timeline.expect("an SVG was drawn");
            let (threads, resumptions) = threads_and_resumptions(&traced.trace);
            assert_eq!(count(&svg, r#"<g class="lane""#), threads, "{name} {lowering:?}: lanes");
            assert_eq!(count(&svg, r#"class="resumption""#), resumptions, "{name} {lowering:?}: arrows");
            assert_well_formed(&svg);
        }
    }
}

#[test]
fn the_timeline_of_an_asynclocal_program_matches_its_snapshot() {
    let traced = run_traced("asynclocal_await.cs-lite", Lowering::Runtime, Some("svg"));
    let svg = traced.timeline.expect("an SVG was drawn");
    assert!(svg.contains(">Program.User=bob</text>"), "the value set is written on the timeline, named by the static field holding the AsyncLocal");
    insta::with_settings!({
        snapshot_path => "../../snapshots/trace",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("asynclocal_await.timeline.svg", svg);
    });
}

#[test]
fn a_json_timeline_has_a_flow_per_resumption() {
    let traced = run_traced("asynclocal_await.cs-lite", Lowering::Classic, Some("json"));
    let json = traced.timeline.expect("a JSON timeline was written");
    let (_, resumptions) = threads_and_resumptions(&traced.trace);
    assert!(json.starts_with("{\"traceEvents\":[") && json.trim_end().ends_with('}'));
    assert_eq!(count(&json, r#""ph":"s""#), resumptions);
    assert_eq!(count(&json, r#""ph":"f""#), resumptions);
}

/// Every element opened is closed, in order, and attribute values are quoted: enough of
/// XML's well-formedness for a generated document without comments or CDATA.
fn assert_well_formed(svg: &str) {
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').map(|e| start + e).expect("every tag is closed with '>'");
        let tag = &rest[start + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in <{tag}>");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name.trim()), "</{name}> closes the wrong element");
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap_or_default().to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed elements: {open:?}");
    assert!(rest.trim().is_empty(), "text after the document: {rest}");
}
