//! Runs every program under `programs/` with both lowerings: the two runs must agree, the
//! program's own expectations (expect block, exit code, stderr lines) must hold, and the
//! output is snapshotted into `snapshots/programs/`. Benchmark programs
//! (`// vm-harness: bench`) are left to `vm/tests/bench.rs`.

mod support;

use std::sync::Mutex;

use support::{check, directives, run_with_input, Outcome};
use vm::compiler::Lowering;

#[test]
fn programs() {
    let failures = Mutex::new(Vec::<String>::new());
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("repository root");
    insta::with_settings!({
        snapshot_path => "../../snapshots/programs",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../../programs", "**/*.cs-lite", |path| {
            let display = path.strip_prefix(&root).unwrap_or(path).to_string_lossy().replace('\\', "/");
            let source = std::fs::read_to_string(path).expect("program is readable");
            let d = directives(&source, &display);
            if d.bench {
                return;
            }
            let classic = run_with_input(&display, &source, &d.flags, &d.args, &d.stdin, Lowering::Classic);
            let runtime = run_with_input(&display, &source, &d.flags, &d.args, &d.stdin, Lowering::Runtime);
            let mut problems = check(&d, &runtime);
            if classic != runtime {
                problems.push(format!("the lowerings disagree:\n--- classic\n{}\n--- runtime\n{}", render(&classic), render(&runtime)));
            }
            if !problems.is_empty() {
                failures.lock().expect("no poisoned lock").push(format!("{display}:\n{}", problems.join("\n")));
            }
            insta::assert_snapshot!(render(&runtime));
        });
    });
    let failures = failures.into_inner().expect("no poisoned lock");
    assert!(failures.is_empty(), "{} program(s) failed:\n\n{}", failures.len(), failures.join("\n\n"));
}

fn render(o: &Outcome) -> String {
    format!("exit code: {}\n--- stdout\n{}--- stderr\n{}", o.exit_code, o.stdout, o.stderr)
}
