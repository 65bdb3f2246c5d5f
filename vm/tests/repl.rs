//! `vm repl` transcripts: every `programs/repl/*.repl` file is fed to the REPL as piped
//! input would be, under both lowerings (they must print the same), and the transcript is
//! snapshotted into `snapshots/repl/`.

use vm::compiler::Lowering;
use vm::runtime::VmOptions;

#[test]
fn transcripts() {
    insta::with_settings!({
        snapshot_path => "../../snapshots/repl",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../../programs/repl", "*.repl", |path| {
            let input = std::fs::read_to_string(path).expect("transcript is readable");
            let runtime = vm::repl::transcript(&input, Lowering::Runtime, VmOptions::default());
            let classic = vm::repl::transcript(&input, Lowering::Classic, VmOptions::default());
            assert_eq!(classic, runtime, "the lowerings disagree on {}", path.display());
            insta::assert_snapshot!(runtime);
        });
    });
}
