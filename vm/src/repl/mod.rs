//! `vm repl`: C# at a prompt. Statements, declarations and expressions (whose values are
//! shown as C# interactive shows them), `await` included; input continues on the next
//! line while it is incomplete; `#` commands inspect the session. Lines come from a
//! terminal (rustyline, with history) or, piped, from stdin (then no prompts are printed,
//! so a transcript is just the session's output).

mod errors;
mod session;
mod submission;

use std::io::{BufRead, IsTerminal, Write};

use crate::compiler::Lowering;
use crate::runtime::VmOptions;
use session::{Reply, Session};

const PROMPT: &str = "> ";
const CONTINUATION: &str = "* ";

const HELP: &str = "\
Type C#: statements (`var xs = new List<int> { 1, 2 };`), declarations (methods,
classes), or an expression to see its value (`xs.Count`). `await` works at the prompt.
Input continues on the next line while it is incomplete.

  #help                       this text
  #reset                      forget everything typed so far
  #load FILE                  run a file's contents as one input
  #lowering classic|runtime   how async methods are lowered from now on
  #lower NAME                 how the async method NAME is lowered (what `vm lower` shows)
  #stats                      what the session's program allocates (modeled .NET bytes)
  #threads                    the threads of the last run and what each waits in
  #quit                       leave (or Ctrl-D)
";

/// Where input lines come from.
enum Lines {
    Terminal(Box<rustyline::DefaultEditor>),
    Piped(std::io::StdinLock<'static>),
    /// A transcript given as text (tests).
    Script(std::collections::VecDeque<String>),
}

impl Lines {
    /// The next line, or `None` at the end of input.
    fn next(&mut self, prompt: &str) -> Option<String> {
        match self {
            Lines::Terminal(editor) => match editor.readline(prompt) {
                Ok(line) => Some(line),
                Err(rustyline::error::ReadlineError::Interrupted) => Some(String::new()),
                Err(_) => None,
            },
            Lines::Piped(stdin) => {
                let mut line = String::new();
                match stdin.read_line(&mut line) {
                    Ok(0) | Err(_) => None,
                    Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
                }
            }
            Lines::Script(rest) => rest.pop_front(),
        }
    }

    fn remember(&mut self, entry: &str) {
        if let Lines::Terminal(editor) = self {
            let _ = editor.add_history_entry(entry);
        }
    }

    fn is_terminal(&self) -> bool {
        matches!(self, Lines::Terminal(_))
    }
}

/// Runs the REPL until the input ends or `#quit`; returns the exit code.
pub fn run(lowering: Lowering, vm_options: VmOptions) -> i32 {
    let mut lines = open_lines();
    let history = history_file();
    if let (Lines::Terminal(editor), Some(path)) = (&mut lines, &history) {
        let _ = editor.load_history(path);
    }
    if lines.is_terminal() {
        println!("cs-lite REPL — C# with both async lowerings. #help for commands.");
    }
    let mut session = Session::new(lowering, vm_options);
    let code = read_eval_print(&mut lines, &mut session, &mut std::io::stdout());
    if let (Lines::Terminal(editor), Some(path)) = (&mut lines, &history) {
        let _ = editor.save_history(path);
    }
    code
}

fn open_lines() -> Lines {
    if std::io::stdin().is_terminal() {
        if let Ok(editor) = rustyline::DefaultEditor::new() {
            return Lines::Terminal(Box::new(editor));
        }
    }
    Lines::Piped(std::io::stdin().lock())
}

fn history_file() -> Option<std::path::PathBuf> {
    std::env::var_os("HOME").map(|home| std::path::Path::new(&home).join(".cs-lite-repl-history"))
}

fn read_eval_print(lines: &mut Lines, session: &mut Session, out: &mut dyn Write) -> i32 {
    let prompts = lines.is_terminal();
    loop {
        let Some(input) = read_input(lines, prompts) else { return 0 };
        let trimmed = input.trim();
        if trimmed.is_empty() {
            continue;
        }
        lines.remember(&input);
        let reply = if let Some(command) = trimmed.strip_prefix('#') {
            match run_command(command, session) {
                Command::Quit => return 0,
                Command::Printed(text) => {
                    write_flushed(out, &text);
                    continue;
                }
                Command::Submitted(reply) => reply,
            }
        } else {
            session.submit(&input)
        };
        if let Some(code) = show(reply, out) {
            return code;
        }
    }
}

/// Reads lines until they make a complete input (a `#` command is always one line).
fn read_input(lines: &mut Lines, prompts: bool) -> Option<String> {
    let mut input = lines.next(if prompts { PROMPT } else { "" })?;
    while !input.trim_start().starts_with('#') && submission::is_incomplete(&input) {
        match lines.next(if prompts { CONTINUATION } else { "" }) {
            Some(more) => {
                input.push('\n');
                input.push_str(&more);
            }
            None => break,
        }
    }
    Some(input)
}

enum Command {
    Quit,
    Printed(String),
    Submitted(Reply),
}

fn run_command(command: &str, session: &mut Session) -> Command {
    let (name, argument) = command.split_once(char::is_whitespace).map_or((command, ""), |(n, a)| (n, a.trim()));
    match name {
        "help" => Command::Printed(HELP.to_string()),
        "quit" | "exit" => Command::Quit,
        "reset" => {
            session.reset();
            Command::Printed(String::from("the session is empty\n"))
        }
        "load" => match std::fs::read_to_string(argument) {
            Ok(text) => Command::Submitted(session.submit(&text)),
            Err(e) => Command::Printed(format!("cannot read '{argument}': {e}\n")),
        },
        "lowering" => match argument {
            "classic" => set_lowering(session, Lowering::Classic),
            "runtime" => set_lowering(session, Lowering::Runtime),
            _ => Command::Printed(String::from("#lowering takes 'classic' or 'runtime'\n")),
        },
        "lower" if argument.is_empty() => Command::Printed(String::from("#lower takes the name of an async method declared at the prompt\n")),
        "lower" => Command::Printed(session.lower(argument)),
        "stats" => Command::Printed(session.stats()),
        "threads" => Command::Printed(session.threads()),
        _ => Command::Printed(format!("unknown command '#{name}' (#help lists them)\n")),
    }
}

fn set_lowering(session: &mut Session, lowering: Lowering) -> Command {
    session.lowering = lowering;
    session.lowering_chosen_by = crate::lower::LoweringChoice::Repl;
    let name = if lowering == Lowering::Classic { "classic" } else { "runtime" };
    Command::Printed(format!("async methods are lowered the {name} way from now on\n"))
}

/// Prints what an input did; returns the exit code if it ended the process.
fn show(reply: Reply, out: &mut dyn Write) -> Option<i32> {
    match reply {
        Reply::Accepted { output } => {
            write_flushed(out, &output);
            None
        }
        Reply::Rejected { output, errors } => {
            write_flushed(out, &output);
            write_flushed(out, &errors);
            None
        }
        Reply::Exited { output, code } => {
            write_flushed(out, &output);
            Some(code)
        }
    }
}

fn write_flushed(out: &mut dyn Write, text: &str) {
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Runs a whole transcript as piped input would, returning everything the REPL prints.
/// For tests.
pub fn transcript(input: &str, lowering: Lowering, vm_options: VmOptions) -> String {
    let mut lines = Lines::Script(input.lines().map(str::to_string).collect());
    let mut session = Session::new(lowering, vm_options);
    let mut out = Vec::new();
    read_eval_print(&mut lines, &mut session, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
