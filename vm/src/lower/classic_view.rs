//! `vm lower --lowering=classic`: an async method as Roslyn's state machine, shown the
//! way SharpLab decompiles a Release build — the kickoff stub, the struct `<M>d__N` with
//! Roslyn's field names, `MoveNext` with its dispatch and each `await` expanded — then
//! which locals became fields and why, and what calls will allocate. Everything shown is
//! what `emit/classic.rs` decided: the fields are the state machine's, the hoisted locals
//! and spilled temporaries are its spill plans.

use hashbrown::HashMap;

use super::csharp::{AwaitText, View, Writer};
use super::forecast::{self, Returns};
use super::names::{declaration, source_snippet, type_name};
use crate::bytecode::{Function, Op, Reg};
use crate::compiler::bound::{AwaitParts, LocalId, LocalKind};
use crate::compiler::emit::report::{ExpressionIndex, LoweringReport};
use crate::compiler::LoweringSource;
use crate::metadata::well_known::SELF_REFERENCE_FIELD;
use crate::metadata::{MethodBody, TypeDefId, TypeId};
use crate::runtime::Vm;

/// What the classic lowering made of one method, gathered from the state machine and
/// `MoveNext`'s spill plans.
struct StateMachine {
    def: TypeDefId,
    name: String,
    /// `(slot, name, type)` of the fields, in slot order.
    fields: Vec<(u32, String, TypeId)>,
    /// Field of each hoisted local.
    hoisted: HashMap<LocalId, String>,
    /// Field each spilled expression goes into, by expression position.
    spilled: HashMap<u32, String>,
    /// The field `MoveNext`'s `result` is kept in across awaits (a return waiting for a
    /// `finally` that awaits).
    result_field: Option<String>,
    /// The await sites at which each field is saved.
    saved_at: HashMap<String, Vec<usize>>,
    /// `<>u__N` and the local `MoveNext` keeps the awaiter in, by awaiter type.
    awaiters: Vec<(TypeId, String, String)>,
    /// `AwaitUnsafeOnCompleted` or `AwaitOnCompleted`, per site.
    on_completed: Vec<String>,
    sites: usize,
}

pub fn render(vm: &mut Vm, report: &LoweringReport) -> Vec<String> {
    let Some(def) = report.state_machine else { return vec!["(no state machine was made)".into()] };
    let MethodBody::Bytecode(fid) = vm.meta.method(report.code_method).body else { return vec!["(MoveNext has no code)".into()] };
    let functions = vm.functions.clone();
    let Some(move_next) = functions.get(fid.0 as usize) else { return Vec::new() };
    let index = ExpressionIndex::of(&report.body.body);
    let sm = StateMachine::read(vm, report, def, move_next, &index);
    let mut out = Vec::new();
    if report.source == LoweringSource::AsyncIterator {
        return async_iterator(vm, report, &sm, &index);
    }
    out.push("-- kickoff: the method itself creates the state machine, starts it and returns its task".into());
    out.extend(kickoff(vm, report, &sm));
    out.push(String::new());
    out.push("-- the state machine: a struct in .NET Release builds (the VM allocates an object, counted as a struct: 0 B until boxed)".into());
    out.extend(struct_listing(vm, report, &sm));
    out.push(String::new());
    out.extend(hoisting(vm, report, &sm, &index));
    out.push(String::new());
    out.extend(allocations(vm, report, &sm));
    out
}

impl StateMachine {
    fn read(vm: &Vm, report: &LoweringReport, def: TypeDefId, move_next: &Function, index: &ExpressionIndex) -> StateMachine {
        let meta = &vm.meta;
        let fields: Vec<(u32, String, TypeId)> = meta.type_def(def).fields.iter().map(|&f| meta.field(f)).map(|f| (f.slot, f.name.clone(), f.ty)).collect();
        let field_name = |slot: u16| fields.iter().find(|f| f.0 == u32::from(slot)).map_or_else(|| format!("<field {slot}>"), |f| f.1.clone());
        let mut sm = StateMachine {
            def,
            name: meta.type_def(def).name.clone(),
            hoisted: HashMap::new(),
            spilled: HashMap::new(),
            result_field: None,
            saved_at: HashMap::new(),
            awaiters: Vec::new(),
            on_completed: Vec::new(),
            sites: move_next.spills.len(),
            fields: Vec::new(),
        };
        for (site, plan) in move_next.spills.iter().enumerate() {
            let spill_pc = spill_pc(move_next, site);
            for &(reg, slot) in plan {
                let name = field_name(slot);
                sm.saved_at.entry(name.clone()).or_default().push(site);
                sm.note_spill(vm, report, move_next, reg, spill_pc, name);
            }
            sm.on_completed.push(on_completed_method(vm, move_next, spill_pc));
        }
        for a in index.awaits() {
            if sm.awaiters.iter().all(|(t, _, _)| *t != a.awaiter) {
                let n = sm.awaiters.len() + 1;
                let local = if n == 1 { "awaiter".to_string() } else { format!("awaiter{n}") };
                let field = fields.iter().find(|f| f.1.starts_with("<>u__") && f.2 == a.awaiter).map_or_else(|| format!("<>u__{n}"), |f| f.1.clone());
                sm.awaiters.push((a.awaiter, field, local));
            }
        }
        let typed: Vec<(u32, String, TypeId)> = fields
            .into_iter()
            .map(|(slot, name, ty)| {
                let ty = sm.spilled_type(index, &name).unwrap_or(ty);
                (slot, name, ty)
            })
            .collect();
        sm.fields = typed;
        sm
    }

    /// The type Roslyn gives spill field `name` (the VM's field is an `object` slot): the
    /// type of the expressions spilled into it, when they agree.
    fn spilled_type(&self, index: &ExpressionIndex, name: &str) -> Option<TypeId> {
        if !name.starts_with("<>s__") {
            return None;
        }
        let mut types = self.spilled.iter().filter(|(_, f)| f.as_str() == name).filter_map(|(&e, _)| index.shape(e).map(|(_, ty)| ty));
        let first = types.next()?;
        types.all(|t| t == first).then_some(first)
    }

    /// Register `reg`, saved into field `name` at the spill at `pc`: a local's field,
    /// `result`'s, or the value of the expression last evaluated into it.
    fn note_spill(&mut self, vm: &Vm, report: &LoweringReport, move_next: &Function, reg: Reg, pc: u32, name: String) {
        if Some(reg) == report.facts.return_reg {
            self.result_field.get_or_insert(name);
            return;
        }
        if let Some(local) = report.facts.local_in(reg) {
            self.hoisted.entry(local).or_insert(name);
            return;
        }
        if let Some(note) = report.facts.value_in(reg, pc, move_next, &vm.meta) {
            self.spilled.entry(note.expr).or_insert(name);
        }
    }

    fn awaiter(&self, ty: TypeId) -> (String, String) {
        self.awaiters.iter().find(|(t, _, _)| *t == ty).map_or_else(|| ("<>u__1".into(), "awaiter".into()), |(_, f, l)| (f.clone(), l.clone()))
    }

    fn has_field(&self, name: &str) -> bool {
        self.fields.iter().any(|f| f.1 == name)
    }
}

/// Where `MoveNext` saves the registers of await `site` (`SpillToFields`).
fn spill_pc(f: &Function, site: usize) -> u32 {
    let at = f.code.iter().position(|op| matches!(*op, Op::SpillToFields { plan, .. } if usize::from(plan) == site));
    at.map_or(0, |pc| pc as u32)
}

/// The builder method the suspension at `pc` calls (`AwaitUnsafeOnCompleted` for an
/// `ICriticalNotifyCompletion` awaiter, `AwaitOnCompleted` otherwise).
fn on_completed_method(vm: &Vm, f: &Function, pc: u32) -> String {
    let name = f.code.iter().skip(pc as usize).find_map(|op| match *op {
        Op::Call { method, .. } | Op::CallChecked { method, .. } => Some(vm.meta.method(method).name.clone()).filter(|n| n.starts_with("Await")),
        _ => None,
    });
    name.unwrap_or_else(|| "AwaitUnsafeOnCompleted".into())
}

/// The kickoff stub, as SharpLab shows it.
fn kickoff(vm: &Vm, report: &LoweringReport, sm: &StateMachine) -> Vec<String> {
    let meta = &vm.meta;
    let md = meta.method(report.method);
    let owner = md.owner;
    let builder = sm.fields.iter().find(|f| f.1 == "<>t__builder").map_or_else(String::new, |f| type_name(meta, f.2, owner));
    let mut out = vec![
        format!("[AsyncStateMachine(typeof({}))]", sm.name),
        declaration(meta, report.method),
        "{".into(),
        format!("    {0} stateMachine = default({0});", sm.name),
        format!("    stateMachine.<>t__builder = {builder}.Create();"),
    ];
    if sm.has_field("<>4__this") {
        out.push("    stateMachine.<>4__this = this;".into());
    }
    for p in &md.params {
        out.push(format!("    stateMachine.{0} = {0};", p.name));
    }
    out.push("    stateMachine.<>1__state = -1;".into());
    out.push("    stateMachine.<>t__builder.Start(ref stateMachine);".into());
    if md.ret != TypeId::VOID {
        out.push("    return stateMachine.<>t__builder.Task;".into());
    }
    out.push("}".into());
    out
}

/// `struct <M>d__N : IAsyncStateMachine { fields; MoveNext; SetStateMachine }`.
fn struct_listing(vm: &Vm, report: &LoweringReport, sm: &StateMachine) -> Vec<String> {
    let meta = &vm.meta;
    let owner = meta.method(report.method).owner;
    let mut out = vec!["[CompilerGenerated]".to_string(), format!("private struct {} : IAsyncStateMachine", sm.name), "{".into()];
    for (name, ty) in ordered_fields(vm, report, sm) {
        let public = name == "<>1__state" || name == "<>t__builder" || name == "<>4__this" || meta.method(report.method).params.iter().any(|p| p.name == name);
        let shown = if name == "<>4__this" { type_name(meta, meta.type_def(owner).self_type, owner) } else { type_name(meta, ty, owner) };
        let note = field_note(&name);
        out.push(format!("    {} {shown} {name};{note}", if public { "public" } else { "private" }));
    }
    out.push(String::new());
    out.push("    private void MoveNext()".into());
    out.push("    {".into());
    out.extend(move_next(vm, report, sm));
    out.push("    }".into());
    out.push(String::new());
    out.push("    void IAsyncStateMachine.MoveNext()   // SharpLab's stub for MoveNext's .override of the interface method".into());
    out.push("    {".into());
    out.push("        this.MoveNext();".into());
    out.push("    }".into());
    out.push(String::new());
    out.push("    void IAsyncStateMachine.SetStateMachine(IAsyncStateMachine stateMachine)".into());
    out.push("    {".into());
    out.push("    }".into());
    out.push("}".into());
    out
}

/// Roslyn's order: state, builder, parameters, `this`, then hoisted locals, spills and
/// awaiters as the VM added them. The VM's own link fields are left out.
fn ordered_fields(vm: &Vm, report: &LoweringReport, sm: &StateMachine) -> Vec<(String, TypeId)> {
    let params: Vec<String> = vm.meta.method(report.method).params.iter().map(|p| p.name.clone()).collect();
    let rank = |name: &str| match name {
        "<>1__state" => 0,
        "<>t__builder" => 1,
        "<>4__this" => 3,
        n if params.iter().any(|p| p == n) => 2,
        n if n.starts_with("<>u__") => 5,
        _ => 4,
    };
    let mut fields: Vec<(u32, String, TypeId)> = sm.fields.iter().filter(|f| f.1 != SELF_REFERENCE_FIELD && f.1 != "<>parent").cloned().collect();
    fields.sort_by_key(|f| (rank(&f.1), params.iter().position(|p| *p == f.1).unwrap_or(0), f.0));
    fields.into_iter().map(|(_, n, t)| (n, t)).collect()
}

fn field_note(name: &str) -> &'static str {
    if name == "<>ctx" {
        "   // the VM's generic context (.NET makes the struct generic instead)"
    } else if name.starts_with("<>7__wrap") {
        "   // the pending return, jump or exception of a finally that awaits"
    } else {
        ""
    }
}

/// `MoveNext`'s body lines (inside its braces).
fn move_next(vm: &Vm, report: &LoweringReport, sm: &StateMachine) -> Vec<String> {
    let meta = &vm.meta;
    let owner = meta.method(report.method).owner;
    let result = report.body.async_result.filter(|&t| t != TypeId::VOID);
    let mut out = vec!["        int num = <>1__state;".to_string()];
    let result_name = sm.result_field.clone().unwrap_or_else(|| "result".into());
    if let (Some(t), None) = (result, &sm.result_field) {
        out.push(format!("        {} result;", type_name(meta, t, owner)));
    }
    if sm.sites > 0 {
        out.push("        switch (num)".into());
        out.push("        {".into());
        for k in 0..sm.sites {
            out.push(format!("            case {k}: goto <>resume_{k};"));
        }
        out.push("        }".into());
        if has_try(&report.body.body) {
            out.push("        // the VM jumps straight to a resume point, even inside a try; Roslyn dispatches once more at each try's start (IL cannot jump into one)".into());
        }
    }
    out.push("        try".into());
    out.push("        {".into());
    for (ty, _, local) in &sm.awaiters {
        out.push(format!("            {} {local};", type_name(meta, *ty, owner)));
    }
    let view = ClassicView { sm, result: result.map(|_| result_name.clone()), yields: None };
    let body = Writer::new(report, meta, &view).body_lines(3);
    let needs_exit = body.iter().any(|l| l.trim_end().ends_with("goto <>exit;"));
    out.extend(body);
    out.push("        }".into());
    out.push("        catch (Exception exception)".into());
    out.push("        {".into());
    out.push("            <>1__state = -2;".into());
    out.push("            <>t__builder.SetException(exception);".into());
    out.push("            return;".into());
    out.push("        }".into());
    if needs_exit {
        out.push("    <>exit:".into());
    }
    out.push("        <>1__state = -2;".into());
    out.push(format!("        <>t__builder.SetResult({});", if result.is_some() { result_name.as_str() } else { "" }));
    out
}

fn has_try(s: &crate::compiler::bound::BStmt) -> bool {
    use crate::compiler::bound::SKind;
    match &s.kind {
        SKind::Try { .. } => true,
        SKind::Block { stmts, .. } => stmts.iter().any(has_try),
        SKind::If { then, otherwise, .. } => has_try(then) || otherwise.as_deref().is_some_and(has_try),
        SKind::Loop { body, .. } => has_try(body),
        _ => false,
    }
}

/// What the classic lowering changes in the printed body.
struct ClassicView<'a> {
    sm: &'a StateMachine,
    /// What `return v;` assigns (`result`, or the field it is kept in), if it has a value.
    result: Option<String>,
    /// An async iterator's `yield return`s written so far (`None`: not an iterator).
    yields: Option<std::cell::Cell<usize>>,
}

impl View for ClassicView<'_> {
    fn local_name(&self, l: LocalId) -> Option<String> {
        self.sm.hoisted.get(&l).cloned()
    }

    fn this_text(&self) -> String {
        "<>4__this".into()
    }

    fn spill_field(&self, expr: u32) -> Option<String> {
        self.sm.spilled.get(&expr).cloned()
    }

    fn await_text(&self, site: Option<usize>, operand: &str, parts: &AwaitParts) -> AwaitText {
        let (field, awaiter) = self.sm.awaiter(parts.get_awaiter.ty);
        let state = site.map_or_else(|| "?".to_string(), |k| k.to_string());
        let on_completed = site.and_then(|k| self.sm.on_completed.get(k)).map_or("AwaitUnsafeOnCompleted", String::as_str);
        let before = vec![
            (0, format!("{awaiter} = {operand}.GetAwaiter();")),
            (0, format!("if (!{awaiter}.IsCompleted)")),
            (0, "{".to_string()),
            (1, format!("num = (<>1__state = {state});")),
            (1, format!("{field} = {awaiter};")),
            (1, format!("<>t__builder.{on_completed}(ref {field}, ref this);")),
            (1, "return;".to_string()),
            (0, format!("<>resume_{state}:")),
            (1, format!("{awaiter} = {field};")),
            (1, "num = (<>1__state = -1);".to_string()),
            (0, "}".to_string()),
        ];
        AwaitText { before, value: format!("{awaiter}.GetResult()") }
    }

    fn return_lines(&self, value: Option<String>, tail: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if let (Some(v), Some(result)) = (value, &self.result) {
            lines.push(format!("{result} = {v};"));
        }
        if !tail {
            lines.push("goto <>exit;".into());
        }
        lines
    }

    fn finally_guard(&self) -> Option<String> {
        Some(if self.yields.is_some() { "num == -1" } else { "num < 0" }.into())
    }

    fn yield_return_lines(&self, value: &str) -> Option<Vec<(isize, String)>> {
        let count = self.yields.as_ref()?;
        let j = count.get();
        count.set(j + 1);
        Some(vec![
            (0, format!("<>2__current = {value};")),
            (0, format!("num = (<>1__state = {});", -4 - j as i64)),
            (0, "<>v__promiseOfValueOrEnd.SetResult(true);".into()),
            (0, "return;".into()),
            (-1, format!("<>resume_yield_{j}:")),
            (0, "num = (<>1__state = -1);".into()),
            (0, "if (<>w__disposeMode) goto <>exit;   // through the enclosing finally blocks".into()),
        ])
    }

    fn yield_break_line(&self) -> Option<String> {
        self.yields.as_ref().map(|_| "goto <>exit;   // yield break: through the enclosing finally blocks".into())
    }

    fn handler_await_note(&self) -> Option<String> {
        Some("the VM suspends inside this handler and resumes into it (Roslyn first moves the await out: AsyncExceptionHandlerRewriter)".into())
    }
}

/// Which locals became fields, and why.
fn hoisting(vm: &Vm, report: &LoweringReport, sm: &StateMachine, index: &ExpressionIndex) -> Vec<String> {
    let meta = &vm.meta;
    let mut rows: Vec<(String, String, String)> = Vec::new();
    let iterator = report.source == LoweringSource::AsyncIterator;
    for p in &meta.method(report.method).params {
        let why = if iterator {
            format!("parameter: the kickoff keeps the argument in <>3__{}, GetAsyncEnumerator copies it in", p.name)
        } else {
            "parameter: the kickoff copies it in (MoveNext runs on the state machine)".into()
        };
        rows.push((p.name.clone(), p.name.clone(), why));
    }
    if sm.has_field("<>4__this") {
        rows.push(("this".into(), "<>4__this".into(), "the kickoff copies it in (the VM always does; Roslyn only if the body uses this)".into()));
    }
    for (l, info) in report.locals.iter().enumerate() {
        let l = LocalId(l as u32);
        if !matches!(info.kind, LocalKind::User | LocalKind::RefLocal) || report.facts.register_of(l).is_none() {
            if info.hoisted && info.kind == LocalKind::User {
                rows.push((info.name.clone(), "-".into(), "captured by a lambda: lives in its closure's display class".into()));
            }
            continue;
        }
        match sm.hoisted.get(&l) {
            Some(field) => rows.push((info.name.clone(), field.clone(), format!("live across {}", awaits_list(sm.saved_at.get(field))))),
            None => rows.push((info.name.clone(), "-".into(), "stays a MoveNext local: not live across any await".into())),
        }
    }
    if let Some(field) = &sm.result_field {
        let why = format!("MoveNext's return value, live across {} (a return waiting for a finally that awaits)", awaits_list(sm.saved_at.get(field)));
        rows.push(("result".into(), field.clone(), why));
    }
    for (name, _) in ordered_fields(vm, report, sm) {
        if sm.result_field.as_deref() == Some(name.as_str()) {
            continue;
        }
        if let Some(why) = synthesized_field_reason(&name, sm, index, meta, report) {
            rows.push((String::new(), name, why));
        }
    }
    let mut out = vec![format!("-- hoisting: what became a field of {}, and why", sm.name)];
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (what, field, why) in rows {
        let arrow = if what.is_empty() { "  " } else { "->" };
        out.push(format!("   {what:<w0$} {arrow} {field:<w1$}  {why}").trim_end().to_string());
    }
    out
}

/// Why the lowering added a field that is not a local's: a spilled temporary, a closure
/// display, an awaiter, a pending completion.
fn synthesized_field_reason(
    name: &str,
    sm: &StateMachine,
    index: &ExpressionIndex,
    meta: &crate::metadata::Metadata,
    report: &LoweringReport,
) -> Option<String> {
    if name.starts_with("<>u__") {
        let (ty, _, _) = sm.awaiters.iter().find(|(_, f, _)| f == name)?;
        let sites: Vec<usize> = index.awaits().iter().filter(|a| a.awaiter == *ty).filter_map(|a| report.facts.site_of(a.expr)).collect();
        let shown = type_name(meta, *ty, meta.method(report.method).owner);
        return Some(format!("the {shown} of {} while suspended (one field per awaiter type)", awaits_list(Some(&sites))));
    }
    if name.starts_with("<>8__") {
        return Some(format!("a closure's display class, live across {}", awaits_list(sm.saved_at.get(name))));
    }
    if name.starts_with("<>7__wrap") {
        return Some("the pending completion (return, jump or exception) of a finally that awaits, kept while it is suspended".into());
    }
    let temp_local = sm.hoisted.iter().any(|(&l, f)| f == name && report.locals[l.0 as usize].kind == LocalKind::Temp);
    if temp_local {
        return Some(format!("a compiler-generated local (of a lowered foreach, using or lock), live across {}", awaits_list(sm.saved_at.get(name))));
    }
    if name.starts_with("<>s__") {
        let held: Vec<String> = sm
            .spilled
            .iter()
            .filter(|(_, f)| f.as_str() == name)
            .filter_map(|(&e, _)| index.shape(e))
            .map(|(span, _)| format!("`{}`", source_snippet(meta, meta.method(report.method).file, span).0))
            .collect();
        let what = if held.is_empty() { String::new() } else { format!(" ({})", held.join(", ")) };
        return Some(format!("temporary of an unfinished expression{what}, live across {}", awaits_list(sm.saved_at.get(name))));
    }
    None
}

fn awaits_list(sites: Option<&Vec<usize>>) -> String {
    let sites = sites.map(Vec::as_slice).unwrap_or_default();
    let numbers: Vec<String> = sites.iter().map(|k| format!("#{k}")).collect();
    match numbers.len() {
        0 => "no await".into(),
        1 => format!("await {}", numbers[0]),
        _ => format!("awaits {}", numbers.join(", ")),
    }
}

/// The allocation forecast.
fn allocations(vm: &mut Vm, report: &LoweringReport, sm: &StateMachine) -> Vec<String> {
    let returns = Returns::of(vm, vm.meta.method(report.method).ret);
    let completed = forecast::completed_call(vm, returns);
    let boxed = forecast::state_machine_box(vm, returns, sm.def);
    let mut out = vec!["-- allocations (forecast, in the modeled 64-bit .NET bytes --stats counts)".to_string()];
    out.push("   model: the state machine is a struct on the caller's stack. A call that completes without suspending allocates only".into());
    out.push("          its result task; the first suspension of a call boxes the struct into an AsyncStateMachineBox (a Task with the".into());
    out.push("          struct inline), which later suspensions of the same call reuse.".into());
    let packed: Vec<String> = sorted_fields(&boxed.fields).iter().map(|(n, l)| format!("{n} {}", l.size)).collect();
    out.push(format!("   struct {}: {} B = {} (widest first, padded)", sm.name, boxed.state_machine, packed.join(" + ")));
    let cached = completed.cached.map_or_else(String::new, |c| format!(" (0 B when the result is {c}: Task.FromResult's cache)"));
    out.push(format!("   a call that completes synchronously: {} B, {}{cached}", completed.bytes, completed.what));
    if sm.sites > 0 {
        out.push(format!("   a call that suspends (once or more): {} B, the box = {} B task + {} B struct", boxed.total, boxed.task, boxed.state_machine));
    }
    let owner = vm.meta.method(report.method).owner;
    let custom: Vec<String> = sm.awaiters.iter().filter(|(t, _, _)| is_custom_awaiter(vm, *t)).map(|(t, _, _)| type_name(&vm.meta, *t, owner)).collect();
    if !custom.is_empty() {
        out.push(format!("   awaiting {} (not Task, ValueTask or Yield awaiters): .NET also makes the box's MoveNextAction delegate", custom.join(", ")));
        out.push("   (64 B, once per box), which --stats leaves out".into());
    }
    out
}

/// An awaiter the builder hooks through an `Action` (not one of CoreLib's own).
fn is_custom_awaiter(vm: &Vm, awaiter: TypeId) -> bool {
    let Some(def) = vm.meta.types.def_of(awaiter) else { return false };
    let d = vm.meta.type_def(def);
    let known = ["TaskAwaiter", "ConfiguredTaskAwaiter", "ValueTaskAwaiter", "ConfiguredValueTaskAwaiter", "YieldAwaiter"];
    !(d.flags.has(crate::metadata::Flags::LIBRARY) && known.contains(&d.name.as_str()))
}

fn sorted_fields(fields: &[(String, crate::runtime::clr_size::Layout)]) -> Vec<(String, crate::runtime::clr_size::Layout)> {
    let mut v = fields.to_vec();
    v.sort_by_key(|f| std::cmp::Reverse(f.1.align));
    v
}

/// An async iterator: the kickoff, the class with Roslyn's fields (those every async iterator
/// has are the library base class's), `MoveNext` with the yield states, and `CopyParameters`.
fn async_iterator(vm: &Vm, report: &LoweringReport, sm: &StateMachine, index: &ExpressionIndex) -> Vec<String> {
    let meta = &vm.meta;
    let md = meta.method(report.method);
    let owner = md.owner;
    let element = report.body.iterator.map_or_else(String::new, |t| type_name(meta, t, owner));
    let mut out = vec!["-- kickoff: the method only creates the enumerable; nothing runs until MoveNextAsync".to_string()];
    out.push(format!("[AsyncIteratorStateMachine(typeof({}))]", sm.name));
    out.push(declaration(meta, report.method));
    out.push("{".into());
    out.push(format!("    {0} stateMachine = new {0}(-2);   // <>1__state = -2, <>l__initialThreadId = the current thread", sm.name));
    if sm.has_field("<>4__this") {
        out.push("    stateMachine.<>4__this = this;".into());
    }
    for p in &md.params {
        out.push(format!("    stateMachine.<>3__{0} = {0};", p.name));
    }
    out.push("    return stateMachine;".into());
    out.push("}".into());
    out.push(String::new());
    out.push("-- the state machine: a class, the enumerable and its first enumerator at once".into());
    out.push("[CompilerGenerated]".into());
    out.push(format!(
        "private sealed class {} : IAsyncEnumerable<{element}>, IAsyncEnumerator<{element}>, IAsyncDisposable, IValueTaskSource<bool>, IValueTaskSource, IAsyncStateMachine",
        sm.name
    ));
    out.push("{".into());
    out.push("    // from AsyncIteratorStateMachine<T>, the VM's library base class of every async iterator:".into());
    out.push("    //   public int <>1__state; public AsyncIteratorMethodBuilder <>t__builder;".into());
    out.push(format!("    //   public ManualResetValueTaskSourceCore<bool> <>v__promiseOfValueOrEnd; private {element} <>2__current;"));
    out.push("    //   private bool <>w__disposeMode; private CancellationTokenSource <>x__combinedTokens; private int <>l__initialThreadId;".into());
    out.push("    //   GetAsyncEnumerator, MoveNextAsync, DisposeAsync, Current, the IValueTaskSource members".into());
    for (name, ty) in ordered_fields(vm, report, sm) {
        let shown = if name == "<>4__this" { type_name(meta, meta.type_def(owner).self_type, owner) } else { type_name(meta, ty, owner) };
        out.push(format!("    private {shown} {name};{}", field_note(&name)));
    }
    out.push(String::new());
    out.push("    private void MoveNext()".into());
    out.push("    {".into());
    out.push("        int num = <>1__state;".into());
    let awaits = report.facts.awaits.len();
    let yields = count_yields(&report.body.body);
    out.push("        switch (num)".into());
    out.push("        {".into());
    for k in 0..awaits {
        out.push(format!("            case {k}: goto <>resume_{k};"));
    }
    for j in 0..yields {
        out.push(format!("            case {}: goto <>resume_yield_{j};", -4 - j as i64));
    }
    out.push("        }".into());
    out.push("        try".into());
    out.push("        {".into());
    out.push("            if (<>w__disposeMode) goto <>exit;   // DisposeAsync before the first MoveNextAsync".into());
    out.push("            num = (<>1__state = -1);".into());
    for (ty, _, local) in &sm.awaiters {
        out.push(format!("            {} {local};", type_name(meta, *ty, owner)));
    }
    let view = ClassicView { sm, result: None, yields: Some(std::cell::Cell::new(0)) };
    out.extend(Writer::new(report, meta, &view).body_lines(3));
    out.push("        }".into());
    out.push("        catch (Exception exception)".into());
    out.push("        {".into());
    out.extend(finish_lines("exception"));
    out.push("            return;".into());
    out.push("        }".into());
    out.push("    <>exit:".into());
    out.extend(finish_lines(""));
    out.push("    }".into());
    out.push(String::new());
    out.push("    // GetAsyncEnumerator's copy of the arguments into the enumerator it returns".into());
    out.push("    protected override void CopyParameters(CancellationToken cancellationToken)".into());
    out.push("    {".into());
    for p in &md.params {
        out.push(format!("        {0} = <>3__{0};", p.name));
    }
    out.push("    }".into());
    out.push("}".into());
    out.push(String::new());
    out.extend(hoisting(vm, report, sm, index));
    out
}

/// The end of an async iterator's `MoveNext`: finished, or failed with `exception`.
fn finish_lines(exception: &str) -> Vec<String> {
    let indent = if exception.is_empty() { "        " } else { "            " };
    let complete = if exception.is_empty() { "SetResult(false)".to_string() } else { format!("SetException({exception})") };
    [
        "<>1__state = -2;",
        "if (<>x__combinedTokens != null) { <>x__combinedTokens.Dispose(); <>x__combinedTokens = null; }",
        "<>2__current = default;",
        "<>t__builder.Complete();",
    ]
    .iter()
    .map(|l| format!("{indent}{l}"))
    .chain(std::iter::once(format!("{indent}<>v__promiseOfValueOrEnd.{complete};")))
    .collect()
}

/// The `yield return` statements of a body.
fn count_yields(s: &crate::compiler::bound::BStmt) -> usize {
    use crate::compiler::bound::SKind;
    match &s.kind {
        SKind::YieldReturn(_) => 1,
        SKind::Try { body, catches, finally } => {
            count_yields(body) + catches.iter().map(|c| count_yields(&c.body)).sum::<usize>() + finally.as_deref().map_or(0, count_yields)
        }
        SKind::Block { stmts, .. } => stmts.iter().map(count_yields).sum(),
        SKind::If { then, otherwise, .. } => count_yields(then) + otherwise.as_deref().map_or(0, count_yields),
        SKind::Loop { body, .. } => count_yields(body),
        _ => 0,
    }
}
