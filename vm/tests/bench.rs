//! `vm bench` on the benchmark programs of `programs/bench/`, as dry jobs (allocations per
//! operation only, which are deterministic; times are never asserted): the table's shape,
//! its rows and categories, the Allocated column of the runtime-async article's table
//! against the article's figures, and `--filter`.

mod support;

use support::{run, Capture, Outcome};
use vm::bench::{BenchOptions, Job};
use vm::compiler::{CompileOptions, Lowering};
use vm::runtime::{Sinks, VmOptions};

const ARTICLE_TABLE: &str = "programs/bench/runtime_async_article_table.cs-lite";
const HEADER: &str = "| Method | Categories | Mean | Error | Ratio | Allocated |";

fn source(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).expect("program is readable")
}

/// `vm run PATH`: a benchmark program's benchmarks run as a dry job.
fn dry(path: &str, lowering: Lowering) -> Outcome {
    let outcome = run(path, &source(path), &[], &[], lowering);
    assert_eq!(outcome.exit_code, 0, "{path} failed:\n{}{}", outcome.stdout, outcome.stderr);
    outcome
}

/// `vm bench --job dry --filter PATTERN PATH`.
fn dry_filtered(path: &str, filter: &str) -> Outcome {
    let (stdout, stderr) = (Capture::default(), Capture::default());
    let sinks = Sinks { stdout: Box::new(stdout.clone()), stderr: Box::new(stderr.clone()) };
    let options = BenchOptions { job: Job::Dry, filters: vec![filter.to_string()] };
    let vm_options = VmOptions { program_name: path.to_string(), ..VmOptions::default() };
    let exit_code = vm::driver::bench_file(path, &source(path), CompileOptions::default(), vm_options, options, sinks);
    Outcome { stdout: stdout.text(), stderr: stderr.text(), exit_code }
}

/// The table's rows as cells (header, rule and empty group separators left out).
fn rows(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|-") && !l.starts_with("| Method "))
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect::<Vec<_>>())
        .filter(|cells| cells.iter().any(|c| !c.is_empty()))
        .collect()
}

/// The Allocated cell of `method`, in bytes.
fn allocated(rows: &[Vec<String>], method: &str) -> u64 {
    let row = rows.iter().find(|r| r[0] == method).unwrap_or_else(|| panic!("no row {method}"));
    let cell = row[5].strip_suffix(" B").unwrap_or_else(|| panic!("{method}: Allocated is {}", row[5]));
    cell.parse().unwrap_or_else(|_| panic!("{method}: Allocated is {}", row[5]))
}

fn squeeze(line: &str) -> String {
    line.split('|').map(str::trim).collect::<Vec<_>>().join(" | ").trim().to_string()
}

#[test]
fn dry_tables_match_their_snapshots() {
    insta::with_settings!({
        snapshot_path => "../../snapshots/bench",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../../programs/bench", "*.cs-lite", |path| {
            let name = path.file_name().and_then(|n| n.to_str()).expect("a file name");
            let outcome = dry(&format!("programs/bench/{name}"), Lowering::Runtime);
            insta::assert_snapshot!(outcome.stdout);
        });
    });
}

#[test]
fn the_article_table_has_two_rows_per_category_with_the_columns_of_benchmarkdotnet() {
    let out = dry(ARTICLE_TABLE, Lowering::Runtime).stdout;
    let header = out.lines().find(|l| l.starts_with("| Method")).expect("a header row");
    assert_eq!(squeeze(header), HEADER.trim_matches(' '));
    let rows = rows(&out);
    let categories = [
        "Synchronous baseline",
        "Async method, no suspension",
        "Completed Task await",
        "Completed ValueTask await",
        "Task.Yield suspension",
        "ThreadPool continuation",
        "TaskCompletionSource continuation",
        "Async state-machine chain",
    ];
    assert_eq!(rows.len(), 2 * categories.len());
    for (pair, category) in rows.chunks(2).zip(categories) {
        assert!(pair[0][0].starts_with("Classic") && pair[1][0].starts_with("Runtime"), "{pair:?}");
        assert_eq!((pair[0][1].as_str(), pair[1][1].as_str()), (category, category));
        assert!(pair.iter().all(|r| r[2] == "-" && r[3] == "-" && r[4] == "-"), "a dry job measures no time: {pair:?}");
    }
}

#[test]
fn the_article_table_allocates_what_the_article_reports_where_the_models_agree() {
    let rows = rows(&dry(ARTICLE_TABLE, Lowering::Runtime).stdout);
    // The article: 0 B for runtime async on every row that does not suspend, and on the
    // Task.Yield row, whose every await suspends: the loop's frame reuses the continuation
    // it was resumed from (continuation reuse), so only a call's first suspension allocates.
    for method in ["RuntimeSynchronous", "RuntimeNoSuspension", "RuntimeCompletedTask", "RuntimeCompletedValueTask", "RuntimeYield"] {
        assert_eq!(allocated(&rows, method), 0, "{method}");
    }
    // Classic: the Task<int> of each inner call that completes synchronously (72 B), none
    // for ValueTask<int>; the state machine of the benchmark method itself is amortised
    // over the 1000 operations of a call, as the article's loop amortises it.
    assert_eq!(allocated(&rows, "ClassicSynchronous"), 0);
    assert_eq!(allocated(&rows, "ClassicNoSuspension"), 72);
    assert_eq!(allocated(&rows, "ClassicCompletedTask"), 72);
    assert_eq!(allocated(&rows, "ClassicCompletedValueTask"), 0);
    assert_eq!(allocated(&rows, "ClassicYield"), 0);
    // A suspending chain: three classic boxes cost more than three continuations.
    assert!(allocated(&rows, "RuntimeChain") < allocated(&rows, "ClassicChain"));
    // Awaiting a pool task or a TaskCompletionSource's task costs both lowerings that task
    // (Task.Run's 64 B, the source's Task<int> 72 B) and nothing else per operation.
    assert_eq!((allocated(&rows, "ClassicThreadPool"), allocated(&rows, "RuntimeThreadPool")), (64, 64));
    assert_eq!((allocated(&rows, "ClassicTaskCompletionSource"), allocated(&rows, "RuntimeTaskCompletionSource")), (72, 72));
}

#[test]
fn the_article_table_is_the_same_under_both_defaults_as_attributes_decide_every_method() {
    assert_eq!(dry(ARTICLE_TABLE, Lowering::Classic), dry(ARTICLE_TABLE, Lowering::Runtime));
}

#[test]
fn the_runtime_async_benchmarks_need_runtime_async_on_as_the_article_s_project_sets_it() {
    // Its Runtime* methods carry no attribute: the project's `runtime-async=on` (here the
    // default `--lowering=runtime`) makes them runtime-async; under classic they are not.
    let path = "programs/bench/runtime_async_article_benchmarks.cs-lite";
    let runtime = rows(&dry(path, Lowering::Runtime).stdout);
    let classic = rows(&dry(path, Lowering::Classic).stdout);
    assert_eq!(allocated(&runtime, "ClassicCompleted"), 144, "the article's 144 B: two Task<int>");
    assert_eq!(allocated(&classic, "RuntimeCompleted"), 144);
    assert_eq!(allocated(&runtime, "RuntimeCompleted"), 72, "only the Task<int> the benchmark method returns");
}

#[test]
fn the_default_lowering_decides_for_methods_without_the_attribute() {
    let path = "programs/bench/executioncontext_article_benchmarks.cs-lite";
    let classic = rows(&dry(path, Lowering::Classic).stdout);
    let runtime = rows(&dry(path, Lowering::Runtime).stdout);
    assert_eq!(classic.len(), 6);
    for method in ["CaptureCurrent", "RunCaptured"] {
        assert_eq!((allocated(&classic, method), allocated(&runtime, method)), (0, 0), "{method}: the article's 0 B");
    }
    assert_eq!(allocated(&runtime, "SetAsyncLocal"), 72, "the article's 72 B");
    assert_ne!(allocated(&classic, "AwaitYield"), allocated(&runtime, "AwaitYield"));
}

#[test]
fn filter_selects_rows_by_glob_over_class_and_method() {
    let outcome = dry_filtered(ARTICLE_TABLE, "*Yield");
    assert_eq!(outcome.exit_code, 0, "{}", outcome.stderr);
    let methods: Vec<String> = rows(&outcome.stdout).into_iter().map(|r| r[0].clone()).collect();
    assert_eq!(methods, ["ClassicYield", "RuntimeYield"]);

    let outcome = dry_filtered(ARTICLE_TABLE, "RuntimeAsyncArticleBenchmarks.Runtime*");
    assert_eq!(rows(&outcome.stdout).len(), 8);

    let outcome = dry_filtered(ARTICLE_TABLE, "*NoSuchBenchmark*");
    assert_eq!(outcome.exit_code, vm::bench::BENCH_ERROR_EXIT_CODE);
    // The compiler's warnings (CS1998 on the article's await-less async methods) come first.
    assert!(outcome.stderr.ends_with("\nvm bench: no benchmark matches the filter\n"), "{}", outcome.stderr);
    assert!(outcome.stdout.is_empty());
}
