//! The REPL's session: every input accepted so far, replayed as one top-level program each
//! time a new input arrives. The VM is deterministic (virtual time, seeded scheduling), so
//! replaying the earlier inputs reproduces exactly their output and their state; only what
//! the new input adds is shown. An input that fails to compile, throws or deadlocks is not
//! kept (its effects vanish with it).

use super::errors::{render_new_warnings, render_relative, without_display_call, Segment};
use super::submission::{is_expression, split, trailing_expression, Piece, Submission};
use crate::compiler::diagnostics::Diag;
use crate::compiler::{self, CompileOptions, Lowering, Program};
use crate::driver::Capture;
use crate::lower::{lower_file, LowerError, LowerOptions, LoweringChoice};
use crate::metadata::SourceFile;
use crate::runtime::entry::{DEADLOCK_EXIT_CODE, UNHANDLED_EXCEPTION_EXIT_CODE};
use crate::runtime::{Sinks, Vm, VmOptions};

/// The file name compile errors and stack traces use for the session's program.
pub const SESSION_FILE: &str = "repl";

/// Namespaces every session imports, as C# interactive does.
const PRELUDE: &[&str] = &["System", "System.Collections.Generic", "System.Linq", "System.Text", "System.Threading", "System.Threading.Tasks"];

/// The statement a session of declarations only runs (C# needs at least one top-level
/// statement for the program to have an entry point).
const NO_STATEMENTS: &str = "{ }";

/// What became of an input.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// It ran; `output` is what it printed.
    Accepted { output: String },
    /// It did not compile, threw or deadlocked: `output` is what it printed before, then
    /// the errors or the exception.
    Rejected { output: String, errors: String },
    /// It ended the process (`Environment.Exit`, `return n;`) with this code.
    Exited { output: String, code: i32 },
}

pub struct Session {
    accepted: Vec<Submission>,
    /// How much of the replayed program's stdout / stderr has been shown already.
    shown_stdout: usize,
    shown_stderr: usize,
    pub lowering: Lowering,
    /// The command line's `--lowering` (or its default) until `#lowering` changes it.
    pub lowering_chosen_by: LoweringChoice,
    pub vm_options: VmOptions,
    /// The VM of the last run that compiled (for `#threads`).
    last_vm: Option<Vm>,
}

/// One run of the session's program.
struct Run {
    stdout: String,
    stderr: String,
    exit_code: i32,
}

impl Session {
    pub fn new(lowering: Lowering, vm_options: VmOptions) -> Session {
        Session { accepted: Vec::new(), shown_stdout: 0, shown_stderr: 0, lowering, lowering_chosen_by: LoweringChoice::CommandLine, vm_options, last_vm: None }
    }

    /// Forgets every input.
    pub fn reset(&mut self) {
        self.accepted.clear();
        self.shown_stdout = 0;
        self.shown_stderr = 0;
        self.last_vm = None;
    }

    /// Runs a complete input: an expression's value is shown; statements and declarations
    /// join the session if they compile and run.
    pub fn submit(&mut self, text: &str) -> Reply {
        if is_expression(text) {
            return self.submit_with_value(Submission::default(), Piece { text: text.to_string(), first_line: 1 });
        }
        if let Some((statements, expression)) = trailing_expression(text) {
            return self.submit_with_value(split(&statements), expression);
        }
        self.compile_run_and_keep(split(text))
    }

    /// Runs `statements` and then shows the value of `expression`; an expression with no
    /// value (a `void` call) runs as a statement.
    fn submit_with_value(&mut self, statements: Submission, expression: Piece) -> Reply {
        let mut shown = statements.clone();
        let display = format!("{DISPLAY_CALL}{});", expression.text);
        shown.statements.push(Piece { text: display, first_line: expression.first_line });
        let mut plain = statements;
        plain.statements.push(Piece { text: format!("{};", expression.text), first_line: expression.first_line });
        if let Ok(program) = self.compile(&shown) {
            // Located in the expression as typed, not in the call that displays it.
            let warnings = without_display_call(&self.new_warnings(&shown, &program), DISPLAY_CALL);
            return self.run_and_keep(shown, program, warnings);
        }
        self.compile_run_and_keep(plain)
    }

    /// The allocation report of the session's program so far (`#stats`).
    pub fn stats(&mut self) -> String {
        let mut options = self.vm_options.clone();
        options.stats = true;
        let program = match self.compile(&Submission::default()) {
            Ok(program) => program,
            Err((diags, files)) => return compiler::diagnostics::render(&diags, &files),
        };
        match self.run(program, options) {
            Ok(run) => run.stderr.rfind("--stats:").map_or_else(String::new, |i| run.stderr[i..].to_string()),
            Err(message) => message,
        }
    }

    /// `vm lower`'s view of the async method `name` declared at the prompt, under the
    /// current lowering (`#lower`).
    pub fn lower(&self, name: &str) -> String {
        let source = self.compose(&Submission::default()).0;
        let options =
            LowerOptions { compile: self.compile_options(), lowering_chosen_by: self.lowering_chosen_by, method: Some(name.to_string()), bytecode: false };
        match lower_file(SESSION_FILE, &source, &options) {
            Ok(text) => text,
            Err(LowerError::Compile(text) | LowerError::NoSuchMethod(text) | LowerError::Internal(text)) => text.trim_end().to_string() + "\n",
        }
    }

    /// The threads of the last run and what each waits in (`#threads`).
    pub fn threads(&self) -> String {
        match &self.last_vm {
            Some(vm) => vm.describe_threads(),
            None => String::from("no program has run yet\n"),
        }
    }

    /// Compiles the session's program with `submission` appended.
    fn compile(&self, submission: &Submission) -> Result<Program, CompileErrors> {
        let source = self.compose(submission).0;
        self.compile_source(&source)
    }

    fn compile_source(&self, source: &str) -> Result<Program, CompileErrors> {
        let user = [(SESSION_FILE.to_string(), source.to_string())];
        compiler::compile(&crate::driver::library_sources(), &user, self.compile_options(), crate::runtime::intrinsics::NAMES)
    }

    fn compile_run_and_keep(&mut self, submission: Submission) -> Reply {
        match self.compile(&submission) {
            Ok(program) => {
                let warnings = self.new_warnings(&submission, &program);
                self.run_and_keep(submission, program, warnings)
            }
            Err((diags, files)) => {
                let segments = self.compose(&submission).1;
                Reply::Rejected { output: String::new(), errors: render_relative(&diags, &files, &segments) }
            }
        }
    }

    /// Runs the session's program (compiled with `submission`) and keeps the input if it
    /// ran to the end.
    /// The compiler's warnings about `submission` (rendered), shown before what it prints.
    fn new_warnings(&self, submission: &Submission, program: &Program) -> String {
        let segments = self.compose(submission).1;
        render_new_warnings(&program.warning_diags, &program.meta.files, &segments)
    }

    fn run_and_keep(&mut self, submission: Submission, program: Program, warnings: String) -> Reply {
        let run = match self.run(program, self.vm_options.clone()) {
            Ok(run) => run,
            Err(message) => return Reply::Rejected { output: String::new(), errors: message },
        };
        let output = run.stdout.get(self.shown_stdout..).unwrap_or_default().to_string();
        let errors = run.stderr.get(self.shown_stderr..).unwrap_or_default().to_string();
        match run.exit_code {
            0 => {
                self.accepted.push(submission);
                self.shown_stdout = run.stdout.len();
                self.shown_stderr = run.stderr.len();
                Reply::Accepted { output: warnings + &output + &errors }
            }
            UNHANDLED_EXCEPTION_EXIT_CODE => Reply::Rejected { output, errors: without_unhandled_prefix(&errors) },
            DEADLOCK_EXIT_CODE => Reply::Rejected { output, errors },
            code => Reply::Exited { output: output + &errors, code },
        }
    }

    /// Runs a compiled session program; keeps its VM for `#threads`.
    fn run(&mut self, program: Program, options: VmOptions) -> Result<Run, String> {
        let Some(main) = program.entry_point else { return Err(String::from("the input has nothing to run\n")) };
        let (stdout, stderr) = (Capture::default(), Capture::default());
        let sinks = Sinks { stdout: Box::new(stdout.clone()), stderr: Box::new(stderr.clone()) };
        let mut vm = Vm::load(program, sinks, options).map_err(|e| format!("vm: internal error: {e}\n"))?;
        let exit_code = vm.run_entry_point(main);
        self.last_vm = Some(vm);
        Ok(Run { stdout: stdout.text(), stderr: stderr.text(), exit_code })
    }

    fn compile_options(&self) -> CompileOptions {
        CompileOptions { lowering: self.lowering, interactive: true, ..CompileOptions::default() }
    }

    /// The program: the prelude's and every input's `using`s, every input's statements in
    /// order, then every input's declarations (C# wants top-level statements first). The
    /// segments say where the new input's pieces landed.
    fn compose(&self, new: &Submission) -> (String, Vec<Segment>) {
        let mut out = Composer::default();
        let mut usings: Vec<String> = PRELUDE.iter().map(|ns| format!("using {ns};")).collect();
        for p in self.accepted.iter().chain([new]).flat_map(|s| &s.usings) {
            if !usings.contains(&p.text) {
                usings.push(p.text.clone());
            }
        }
        for u in &usings {
            out.push_line(u);
        }
        for s in &self.accepted {
            s.statements.iter().for_each(|p| out.push(p, false));
        }
        new.statements.iter().for_each(|p| out.push(p, true));
        if self.accepted.iter().chain([new]).all(|s| s.statements.is_empty()) {
            out.push_line(NO_STATEMENTS);
        }
        for s in &self.accepted {
            s.types.iter().for_each(|p| out.push(p, false));
        }
        new.types.iter().for_each(|p| out.push(p, true));
        (out.text, out.segments)
    }
}

/// Builds the program text line by line, remembering where the new input's pieces go.
#[derive(Default)]
struct Composer {
    text: String,
    lines: u32,
    segments: Vec<Segment>,
}

impl Composer {
    fn push_line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
        self.lines += 1;
    }

    fn push(&mut self, piece: &Piece, from_new_input: bool) {
        let line_count = piece.text.matches('\n').count() as u32 + 1;
        if from_new_input {
            self.segments.push(Segment { program_line: self.lines + 1, line_count, input_line: piece.first_line });
        }
        self.push_line(&piece.text);
        self.lines += line_count - 1;
    }
}

/// How the REPL shows an expression's value: `DISPLAY_CALL` + the expression + `);`.
const DISPLAY_CALL: &str = "System.Runtime.CompilerServices.InteractiveDisplay.Print(";

/// The compiler's errors and the files they point into.
type CompileErrors = (Vec<Diag>, Vec<SourceFile>);

/// An exception at the prompt is reported as the exception itself: without the host's
/// "Unhandled exception. " prefix, and without stack frames, whose lines would be those
/// of the session's replayed program rather than of anything typed.
fn without_unhandled_prefix(stderr: &str) -> String {
    let text = stderr.strip_prefix("Unhandled exception. ").unwrap_or(stderr);
    text.lines().filter(|l| !l.starts_with("   at ")).map(|l| format!("{l}\n")).collect()
}
