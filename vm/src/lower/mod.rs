//! `vm lower`: how the compiler lowered a program's async methods. For each method: the
//! lowering chosen and why, its awaits numbered, then either the classic state machine
//! ([`classic_view`]) or the runtime-async body with its suspension points
//! ([`runtime_view`]), each with an allocation forecast ([`forecast`]) and, with
//! `--bytecode`, the code itself ([`bytecode_view`]). It reads what the compiler recorded
//! while emitting ([`crate::compiler::emit::report`]) and sizes things with the `--stats`
//! model of a loaded, never run, VM.

pub mod bytecode_view;
pub mod classic_view;
pub mod continuation_layout;
pub mod csharp;
pub mod forecast;
pub mod names;
pub mod runtime_view;

use crate::bytecode::liveness::suspend_sites;
use crate::compiler::emit::report::{ExpressionIndex, LoweringReport};
use crate::compiler::{CompileOptions, Lowering, LoweringSource};
use crate::metadata::{MethodBody, MethodKind};
use crate::runtime::{Sinks, Vm, VmOptions};

/// What `vm lower` was asked for.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    pub compile: CompileOptions,
    /// Where the lowering of methods without the attribute was chosen.
    pub lowering_chosen_by: LoweringChoice,
    /// Only the async methods with this name (`M` or `Type.M`).
    pub method: Option<String>,
    /// Add the disassembly.
    pub bytecode: bool,
}

/// Who chose the lowering that applies where no attribute decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LoweringChoice {
    /// Nobody: `--lowering`'s default.
    #[default]
    Default,
    /// `--lowering=...` on the command line.
    CommandLine,
    /// `#lowering ...` at the REPL (which starts from the command line's choice).
    Repl,
}

/// Why nothing could be shown.
#[derive(Debug)]
pub enum LowerError {
    /// The rendered compile errors.
    Compile(String),
    /// `--method` named no async method; the message lists the ones there are.
    NoSuchMethod(String),
    /// The runtime could not be set up for sizing.
    Internal(String),
}

/// The `vm lower` text for `source` (named `path` in messages).
pub fn lower_file(path: &str, source: &str, options: &LowerOptions) -> Result<String, LowerError> {
    let compile = CompileOptions { record_lowering: true, ..options.compile.clone() };
    let mut program = crate::driver::compile_file(path, source, compile).map_err(LowerError::Compile)?;
    let mut reports = std::mem::take(&mut program.lowering_reports);
    let sinks = Sinks { stdout: Box::new(std::io::sink()), stderr: Box::new(std::io::sink()) };
    let mut vm = Vm::load(program, sinks, VmOptions::default()).map_err(LowerError::Internal)?;
    // Local functions are shown under their declared names (a top-level program's methods,
    // and the methods typed at the REPL, are local functions); lambdas have none.
    reports.retain(|r| vm.meta.method(r.method).kind != MethodKind::Lambda);
    reports.sort_by_key(|r| vm.meta.method(r.method).span.start);
    let all: Vec<String> = reports.iter().map(|r| names::declared_name(&vm.meta, r.method).to_string()).collect();
    if let Some(wanted) = &options.method {
        reports.retain(|r| named(&vm, r, wanted));
        if reports.is_empty() {
            let known = if all.is_empty() { "it has none".to_string() } else { format!("it has {}", all.join(", ")) };
            return Err(LowerError::NoSuchMethod(format!("no async method named '{wanted}' in {path} ({known})")));
        }
    }
    if reports.is_empty() {
        return Ok(format!("{path} has no async methods\n"));
    }
    let sections: Vec<String> = reports.iter().map(|r| method_section(&mut vm, r, options).join("\n")).collect();
    Ok(sections.join("\n\n") + "\n")
}

/// Whether `wanted` is the report's method name, or its type and name.
fn named(vm: &Vm, report: &LoweringReport, wanted: &str) -> bool {
    let md = vm.meta.method(report.method);
    let name = names::declared_name(&vm.meta, report.method);
    let qualified = format!("{}.{name}", vm.meta.type_def(md.owner).name);
    name == wanted || qualified == wanted
}

fn method_section(vm: &mut Vm, report: &LoweringReport, options: &LowerOptions) -> Vec<String> {
    let mut out = header(vm, report, options);
    out.push(String::new());
    out.extend(match report.lowering {
        Lowering::Classic => classic_view::render(vm, report),
        Lowering::Runtime => runtime_view::render(vm, report),
    });
    if options.bytecode {
        out.push(String::new());
        out.extend(bytecode(vm, report));
    }
    out
}

/// `== Program.Fib(int n) : Task<int>`, the lowering and why, the awaits.
fn header(vm: &Vm, report: &LoweringReport, options: &LowerOptions) -> Vec<String> {
    let meta = &vm.meta;
    let mut out = vec![format!("== {}", names::signature(meta, report.method))];
    if meta.method(report.method).kind == MethodKind::LocalFunction {
        out.push(format!("   local function `{}`: a static method under the name Roslyn gives it", names::declared_name(meta, report.method)));
    }
    out.push(format!("   lowering: {}", lowering_reason(report, options)));
    let index = ExpressionIndex::of(&report.body.body);
    let file = meta.method(report.method).file;
    let awaits: Vec<String> = report
        .facts
        .awaits
        .iter()
        .enumerate()
        .map(|(k, &e)| {
            let (text, line) = index.shape(e).map_or((String::new(), 0), |(span, _)| names::source_snippet(meta, file, span));
            format!("#{k} `{text}` (line {line})")
        })
        .collect();
    match awaits.split_first() {
        None => out.push("   awaits: none".into()),
        Some((first, rest)) => {
            out.push(format!("   awaits: {first}"));
            out.extend(rest.iter().map(|a| format!("           {a}")));
        }
    }
    out
}

fn lowering_reason(report: &LoweringReport, options: &LowerOptions) -> String {
    let name = match report.lowering {
        Lowering::Classic => "classic",
        Lowering::Runtime => "runtime",
    };
    match (report.source, options.lowering_chosen_by) {
        (LoweringSource::AsyncIterator, _) => {
            "classic, always: an async iterator is Roslyn's state machine under either --lowering (ARCHITECTURE.md: async iterators)".into()
        }
        (LoweringSource::Attribute, _) => {
            let arg = report.lowering == Lowering::Runtime;
            format!("{name}, from [RuntimeAsyncMethodGeneration({arg})] on the method (it overrides --lowering)")
        }
        (LoweringSource::Option, LoweringChoice::CommandLine) => {
            format!("{name}, from --lowering={name} (no [RuntimeAsyncMethodGeneration] attribute on the method)")
        }
        (LoweringSource::Option, LoweringChoice::Repl) => format!("{name}, from #lowering {name} (no [RuntimeAsyncMethodGeneration] attribute on the method)"),
        (LoweringSource::Option, LoweringChoice::Default) => {
            format!("{name}, the default of --lowering (no [RuntimeAsyncMethodGeneration] attribute on the method)")
        }
    }
}

/// The disassembly of the functions the lowering made: kickoff and `MoveNext`, or the
/// task entry and the async variant.
fn bytecode(vm: &Vm, report: &LoweringReport) -> Vec<String> {
    let function = |m| match vm.meta.method(m).body {
        MethodBody::Bytecode(fid) => vm.functions.get(fid.0 as usize),
        _ => None,
    };
    let mut out = Vec::new();
    let (entry_title, code_title) = match report.lowering {
        Lowering::Classic => ("kickoff", "MoveNext"),
        Lowering::Runtime => ("task entry", "async variant"),
    };
    if let Some(f) = function(report.method) {
        out.extend(bytecode_view::listing(&vm.meta, f, entry_title, &[]));
    }
    if let Some(f) = function(report.code_method) {
        let marks = match report.lowering {
            Lowering::Classic => bytecode_view::classic_marks(f),
            Lowering::Runtime => {
                let resume: Vec<u32> = suspend_sites(f, &vm.meta).iter().map(|s| s.resume_pc).collect();
                bytecode_view::runtime_marks(f, &resume)
            }
        };
        out.push(String::new());
        out.extend(bytecode_view::listing(&vm.meta, f, code_title, &marks));
    }
    out
}
