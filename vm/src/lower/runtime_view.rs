//! `vm lower --lowering=runtime`: an async method as .NET 11's runtime async runs it — the
//! task entry (the thunk callers that are not runtime-async go through), the body as
//! written with its suspension points numbered, what `SUSPEND` saves and `RESUME`
//! restores at each point with the continuation laid out as the JIT dumps it, and what
//! calls will allocate. The saved registers are the ones the interpreter saves
//! (`bytecode::liveness::suspend_sites`), named after the locals they hold.

use super::continuation_layout::{lay_out, ContinuationLayout, Saved};
use super::csharp::{AwaitText, View, Writer};
use super::forecast::{self, Returns};
use super::names::{declaration, method_name, parameter_list, source_snippet, type_name};
use crate::bytecode::liveness::{suspend_sites, SuspendSite};
use crate::bytecode::{Function, HandlerKind, Op, Reg};
use crate::compiler::bound::{AwaitParts, LocalId};
use crate::compiler::emit::report::{AwaitShape, ExpressionIndex, LoweringReport};
use crate::metadata::{MethodBody, MethodId, TypeId, TypeKind};
use crate::runtime::stats::ContinuationShape;
use crate::runtime::Vm;

/// One suspension point, as the views describe it.
struct Point {
    number: usize,
    /// `await Fib(n - 1)` and its line.
    source: (String, u32),
    /// The runtime-async method called directly (`CallAsync`), if that is how it awaits.
    direct_callee: Option<MethodId>,
    awaiter: Option<AwaitShape>,
    /// How the layout names the values the continuation keeps (the awaiter excluded).
    saved: Vec<String>,
    keeps_awaiter: bool,
    /// The point is inside a `try`: an exception may come back on resumption.
    in_try: bool,
    layout: ContinuationLayout,
}

pub fn render(vm: &mut Vm, report: &LoweringReport) -> Vec<String> {
    let MethodBody::Bytecode(fid) = vm.meta.method(report.code_method).body else { return vec!["(the async body has no code)".into()] };
    let functions = vm.functions.clone();
    let Some(body) = functions.get(fid.0 as usize) else { return Vec::new() };
    let index = ExpressionIndex::of(&report.body.body);
    let points: Vec<Point> = suspend_sites(body, &vm.meta).iter().enumerate().map(|(k, site)| point(vm, report, &index, body, k, site)).collect();
    let mut out = vec!["-- task entry: what callers that are not runtime-async call (a thunk around the async variant)".to_string()];
    out.extend(task_entry(vm, report));
    out.push(String::new());
    out.push("-- async variant: the body as written, run in an ordinary frame; it returns the result, or suspends".into());
    out.extend(async_variant(vm, report));
    out.push(String::new());
    out.extend(suspension_points(vm, &points));
    out.push(String::new());
    out.extend(allocations(vm, report, &points));
    out
}

/// The thunk: `StartAsync` runs the body, an `AsyncHelpers` method makes the `Task`.
fn task_entry(vm: &Vm, report: &LoweringReport) -> Vec<String> {
    let meta = &vm.meta;
    let md = meta.method(report.method);
    let owner = md.owner;
    let complete = completion_helper(vm, report.method);
    let result = report.body.async_result.filter(|&t| t != TypeId::VOID);
    let type_args = result.map_or_else(String::new, |t| format!("<{}>", type_name(meta, t, owner)));
    let mut args: Vec<String> = md.params.iter().map(|p| p.name.clone()).collect();
    if !md.is_static() {
        args.insert(0, "this".into());
    }
    let returned = if md.ret == TypeId::VOID { "" } else { "return " };
    vec![
        declaration(meta, report.method),
        "{".into(),
        "    // StartAsync runs the async variant (below) in a new frame and reports how it ended:".into(),
        "    // returned -> Task.FromResult(payload), threw -> a faulted task,".into(),
        "    // suspended -> a RuntimeAsyncTask that owns the continuation chain (payload) and resumes it".into(),
        format!("    (int status, object payload) = StartAsync({});", [vec![md.name.clone()], args].concat().join(", ")),
        format!("    {returned}AsyncHelpers.{complete}{type_args}(status, payload);"),
        "}".into(),
    ]
}

/// The `AsyncHelpers` method the task entry calls after `StartAsync`.
fn completion_helper(vm: &Vm, m: MethodId) -> String {
    let MethodBody::Bytecode(fid) = vm.meta.method(m).body else { return "Complete".into() };
    let Some(f) = vm.functions.get(fid.0 as usize) else { return "Complete".into() };
    let after_start = f.code.iter().skip_while(|op| !matches!(op, Op::StartAsync { .. }));
    let name = after_start.filter_map(|op| if let Op::Call { method, .. } | Op::CallChecked { method, .. } = *op { Some(method) } else { None }).next();
    name.map_or_else(|| "Complete".into(), |c| vm.meta.method(c).name.clone())
}

fn async_variant(vm: &Vm, report: &LoweringReport) -> Vec<String> {
    let meta = &vm.meta;
    let md = meta.method(report.method);
    let result = report.body.async_result.unwrap_or(TypeId::VOID);
    let statik = if md.is_static() { "static " } else { "" };
    let mut out = vec![
        format!("{statik}{} {}({})", type_name(meta, result, md.owner), method_name(meta, report.method), parameter_list(meta, report.method)),
        "{".into(),
    ];
    out.extend(Writer::new(report, meta, &RuntimeView).body_lines(1));
    out.push("}".into());
    out
}

/// The runtime lowering leaves the body alone; it only numbers the awaits.
struct RuntimeView;

impl View for RuntimeView {
    fn local_name(&self, _: LocalId) -> Option<String> {
        None
    }

    fn this_text(&self) -> String {
        "this".into()
    }

    fn spill_field(&self, _: u32) -> Option<String> {
        None
    }

    fn await_text(&self, site: Option<usize>, operand: &str, _: &AwaitParts) -> AwaitText {
        let number = site.map_or_else(|| "?".to_string(), |k| k.to_string());
        AwaitText { before: Vec::new(), value: format!("await /*#{number}*/ {operand}") }
    }

    fn awaits_are_statements(&self) -> bool {
        false
    }

    fn return_lines(&self, value: Option<String>, _: bool) -> Vec<String> {
        vec![value.map_or_else(|| "return;".to_string(), |v| format!("return {v};"))]
    }

    fn finally_guard(&self) -> Option<String> {
        None
    }

    fn handler_await_note(&self) -> Option<String> {
        Some("the VM suspends inside this handler; .NET 11's Roslyn first moves the await out of it (handlers may not suspend)".into())
    }
}

/// Suspension point `k` of the body, at `site`.
fn point(vm: &mut Vm, report: &LoweringReport, index: &ExpressionIndex, body: &Function, k: usize, site: &SuspendSite) -> Point {
    let file = vm.meta.method(report.method).file;
    let expr = report.facts.awaits.get(k).copied();
    let awaiter = expr.and_then(|e| index.await_at(e));
    let source = expr.and_then(|e| index.shape(e)).map_or((String::new(), 0), |(span, _)| source_snippet(&vm.meta, file, span));
    let call_pc = site.resume_pc.saturating_sub(1) as usize;
    let direct_callee = match body.code.get(call_pc) {
        Some(Op::CallAsync { .. }) => awaiter.and_then(|a| a.callee),
        _ => None,
    };
    let values: Vec<Reg> = site.live.iter().copied().filter(|&r| Some(r) != site.awaiter).collect();
    let saved: Vec<Saved> = values.iter().map(|&r| saved_value(vm, report, index, body, r, site.resume_pc)).collect();
    let (context_slot, result) = match (direct_callee, awaiter) {
        (Some(callee), _) => (false, task_result(vm, vm.meta.method(callee).ret)),
        (None, Some(a)) => awaiter_shape(vm, a.awaiter),
        (None, None) => (false, None),
    };
    let shape = ContinuationShape { context_slot, exception_slot: site.in_try, result: result.map(|t| vm.inline_layout(t)) };
    let owner = vm.meta.method(report.method).owner;
    let result_name = result.map(|t| type_name(&vm.meta, t, owner));
    let layout = lay_out(&shape, result_name.as_deref(), &saved);
    Point {
        number: k,
        source,
        direct_callee,
        awaiter,
        saved: saved.into_iter().map(|s| s.label).collect(),
        keeps_awaiter: site.awaiter.is_some_and(|a| site.live.contains(&a)),
        in_try: site.in_try,
        layout,
    }
}

/// Register `r` saved at a suspension resuming at `pc`: `V01 n`, `V00 this`, a value
/// waiting for a `finally`, or a temporary named by the expression it holds.
fn saved_value(vm: &mut Vm, report: &LoweringReport, index: &ExpressionIndex, body: &Function, r: Reg, pc: u32) -> Saved {
    let owner = vm.meta.method(report.method).owner;
    let object = vm.meta.well_known.object;
    let finally_pending = body.handlers.iter().any(|h| matches!(h.kind, HandlerKind::Finally) && h.reg == r);
    let (name, ty) = if Some(r) == report.facts.this_reg {
        ("this".to_string(), vm.meta.type_def(owner).self_type)
    } else if let Some(l) = report.facts.local_in(r) {
        let info = &report.locals[l.0 as usize];
        let name = if info.name.is_empty() { "temp".to_string() } else { info.name.clone() };
        (name, info.ty)
    } else if let Some(display) = report.facts.display_in(r) {
        (format!("closure display {display}"), object)
    } else if Some(r) == report.facts.context_reg {
        ("generic context (keep-alive)".to_string(), object)
    } else if Some(r) == report.facts.return_reg {
        let result = report.body.async_result.unwrap_or(object);
        ("return value (waiting for a finally)".to_string(), result)
    } else if finally_pending {
        ("pending completion of a finally (a return, jump or exception)".to_string(), object)
    } else if let Some(note) = report.facts.value_in(r, pc, body, &vm.meta) {
        let file = vm.meta.method(report.method).file;
        let text = index.shape(note.expr).map_or_else(String::new, |(span, _)| source_snippet(&vm.meta, file, span).0);
        (format!("temp holding `{text}`"), note.ty)
    } else {
        ("temp".to_string(), object)
    };
    Saved { label: format!("V{:02} {name}", r.0), layout: vm.inline_layout(ty) }
}

/// For an awaiter: whether it continues on the captured context (an unconfigured
/// `Task`/`ValueTask` awaiter) and the type `GetResult` returns — what `--stats` reads
/// from the awaiter at run time (`interp/runtime_async.rs`).
fn awaiter_shape(vm: &Vm, awaiter: TypeId) -> (bool, Option<TypeId>) {
    let TypeKind::Named { def, args } = vm.meta.types.kind(awaiter) else { return (false, None) };
    let context = matches!(vm.meta.type_def(*def).name.as_str(), "TaskAwaiter" | "ValueTaskAwaiter");
    (context, args.first().copied())
}

/// `T` of `Task<T>` / `ValueTask<T>`.
fn task_result(vm: &Vm, t: TypeId) -> Option<TypeId> {
    let TypeKind::Named { def, args } = vm.meta.types.kind(t) else { return None };
    let d = vm.meta.type_def(*def);
    let is_task = d.namespace == "System.Threading.Tasks" && matches!(d.name.as_str(), "Task" | "ValueTask");
    if is_task {
        args.first().copied()
    } else {
        None
    }
}

fn suspension_points(vm: &Vm, points: &[Point]) -> Vec<String> {
    let mut out = vec!["-- suspension points: SUSPEND saves the frame into a Continuation and returns to the caller, RESUME rebuilds the frame".to_string()];
    if points.is_empty() {
        out.push("   none: the body never suspends".into());
    }
    for p in points {
        out.extend(point_lines(vm, p));
    }
    out
}

/// What happens at point `p`: how it awaits, SUSPEND, RESUME, the layout.
fn point_lines(vm: &Vm, p: &Point) -> Vec<String> {
    let k = p.number;
    let callee = p.direct_callee.map(|c| vm.meta.method(c));
    let kind = match (callee, p.awaiter) {
        (Some(_), _) => "a direct call of a runtime-async method".to_string(),
        (None, Some(a)) => format!("an await on a {}", vm.meta.cs_short_name(a.awaiter)),
        (None, None) => "an await".to_string(),
    };
    let mut out = vec![format!("#{k}  `{}` (line {}): {kind}", p.source.0, p.source.1)];
    let operand = p.source.0.strip_prefix("await ").unwrap_or(&p.source.0);
    out.push(match callee {
        Some(md) => {
            let owner = vm.meta.cs_short_name(vm.meta.type_def(md.owner).self_type);
            format!("    CallAsync {owner}.{0}: calls {0}'s async variant like any method (no Task); SUSPEND runs only if {0} suspended", md.name)
        }
        None => format!("    awaiter = {operand}.GetAwaiter(); if (!awaiter.IsCompleted) AwaitSuspend(awaiter); awaiter.GetResult();"),
    });
    let saved = if p.saved.is_empty() { "no local (none is live here)".to_string() } else { p.saved.join(", ") };
    out.push(format!("    SUSPEND #{k}: new Continuation {{ State = {k} }} saving {saved};"));
    if p.keeps_awaiter {
        out.push("                (the VM also keeps the awaiter, for GetResult(); .NET's await helper has a result slot instead)".into());
    }
    out.push("                link it to the chain, pop the frame, tell the caller \"suspended\"".into());
    out.push(format!("    RESUME  #{k}: the dispatcher calls the async variant with the continuation, which reloads what was saved;"));
    out.push(match callee {
        Some(md) => format!("                {}'s result becomes the call's value", md.name),
        None => "                the body continues at awaiter.GetResult()".to_string(),
    });
    if p.in_try {
        out.push("                an exception from the awaited work is thrown again here, inside the try (the Exception slot)".into());
    }
    out.extend(p.layout.lines().into_iter().map(|l| format!("    {l}")));
    out
}

fn allocations(vm: &mut Vm, report: &LoweringReport, points: &[Point]) -> Vec<String> {
    let returns = Returns::of(vm, vm.meta.method(report.method).ret);
    let completed = forecast::completed_call(vm, returns);
    let mut out = vec!["-- allocations (forecast, in the modeled 64-bit .NET bytes --stats counts)".to_string()];
    out.push("   model: nothing is allocated while no await suspends. A runtime-async caller that awaits the call gets the result".into());
    out.push("          as a plain return; other callers go through the task entry, which makes a Task. A suspension allocates".into());
    out.push("          one Continuation per runtime-async frame on the stack (this method's, per point, is below); a chain started".into());
    out.push("          by a task entry also gets one RuntimeAsyncTask, which the dispatcher keeps when the chain suspends again.".into());
    out.push("          A frame resumed from a Continuation refills that one when it suspends again (continuation reuse, as".into());
    out.push("          .NET 11; vm run --reuse-continuations=false allocates one per suspension).".into());
    out.push("   completes synchronously, awaited by a runtime-async caller: 0 B".into());
    let cached = completed.cached.map_or_else(String::new, |c| format!(" (0 B when the result is {c}: Task.FromResult's cache)"));
    out.push(format!("   completes synchronously, called through the task entry: {} B, {}{cached}", completed.bytes, completed.what));
    for p in points {
        out.push(format!("   suspends at #{}: {} B, this frame's Continuation", p.number, p.layout.object_bytes));
    }
    if !points.is_empty() {
        out.push("   suspends again after resuming: 0 B, the Continuation it was resumed from is refilled".into());
    }
    if let (Some(first), Some((task, bytes))) = (points.first(), forecast::runtime_async_task(vm, returns)) {
        let total = bytes + first.layout.object_bytes;
        out.push(format!(
            "   called through the task entry and suspending once at #{}: {total} B = {bytes} B {task} + {} B Continuation",
            first.number, first.layout.object_bytes
        ));
    }
    out
}
