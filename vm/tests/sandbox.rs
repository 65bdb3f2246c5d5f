//! `--sandbox-dir DIR`: the sandbox's file system starts with DIR's files, and what the
//! program writes stays in memory (the folder on the host is unchanged).

use vm::compiler::CompileOptions;
use vm::driver::Capture;
use vm::runtime::{Sinks, VmOptions};

const PROGRAM: &str = r#"
using System;
using System.IO;

class Program
{
    static void Main()
    {
        Console.Write(File.ReadAllText("greeting.txt"));
        File.WriteAllText("greeting.txt", "overwritten");
        File.WriteAllText("new.txt", "created");
        Console.WriteLine(File.ReadAllText("greeting.txt") + " " + File.ReadAllText("/sandbox/new.txt"));
    }
}
"#;

#[test]
fn a_sandbox_starts_with_the_seed_folder_and_leaves_it_alone() {
    let seed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs/sandbox/seed");
    let before = std::fs::read_to_string(seed.join("greeting.txt")).expect("the seed file is readable");
    let mut compile = CompileOptions::default();
    let mut options = VmOptions::default();
    let flags = ["--sandbox-dir".to_string(), seed.to_string_lossy().into_owned()];
    vm::cli::parse_run_flags(&flags, &mut compile, &mut options).expect("the flags parse");
    assert!(options.sandbox && options.max_output.is_some(), "--sandbox-dir implies --sandbox and its limits");
    let run = move || {
        let (stdout, stderr) = (Capture::default(), Capture::default());
        let sinks = Sinks { stdout: Box::new(stdout.clone()), stderr: Box::new(stderr.clone()) };
        let code = vm::driver::run_file("seeded.cs-lite", PROGRAM, compile, options, sinks);
        (code, stdout.text(), stderr.text())
    };
    let (code, stdout, stderr) = vm::deep_stack::run_on_deep_stack(run).expect("the deep-stack thread starts");
    assert_eq!(code, 0, "stderr: {stderr}");
    assert_eq!(stdout, "hello from the seed folder\noverwritten created\n");
    assert_eq!(std::fs::read_to_string(seed.join("greeting.txt")).ok(), Some(before));
    assert!(!seed.join("new.txt").exists());
}
