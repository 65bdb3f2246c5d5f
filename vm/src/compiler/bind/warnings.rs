//! C#'s warnings about a bound method body (the user's code only, never the library's),
//! with Roslyn's rules, words and positions: CS4014 (a call whose task is dropped),
//! CS1998 (an async function without `await`), CS0168/CS0219 (a local never used, or only
//! assigned constants), CS0472 (a value compared with `null`), CS0162 (unreachable code).

use super::MethodBinder;
use crate::compiler::bound::*;
use crate::compiler::emit::closures::walk_stmt_exprs;
use crate::metadata::{Flags, MethodId, TypeId};
use grammar::span::Span;
use std::collections::HashMap;

const CS4014: &str = "Because this call is not awaited, execution of the current method continues before the call is completed. Consider applying the 'await' operator to the result of the call.";
const CS1998: &str = "This async method lacks 'await' operators and will run synchronously. Consider using the 'await' operator to await non-blocking API calls, or 'await Task.Run(...)' to do CPU-bound work on a background thread.";

/// One function of the method being bound: the method itself or a nested function.
struct Function<'a> {
    method: MethodId,
    body: &'a BoundBody,
    /// The method's top-level statements (`<Main>$`): an async context even without `await`.
    top_level: bool,
    /// Where CS1998 goes (the method's name, a lambda's `=>`).
    name_span: Span,
}

impl MethodBinder<'_> {
    /// Reports the warnings about `body` (the method just bound without errors) and its
    /// nested functions.
    pub fn report_body_warnings(&mut self, body: &BoundBody) {
        if self.c.is_library(self.file) {
            return;
        }
        let md = self.c.meta.method(self.method);
        let top_level = md.flags.has(Flags::SYNTHESIZED) && md.name == "<Main>$";
        let mut functions = vec![Function { method: self.method, body, top_level, name_span: md.span }];
        let nested = std::mem::take(&mut self.nested);
        for n in &nested {
            if let Some(b) = &n.body {
                let name_span = if n.is_local_function { n.span } else { self.lambda_arrow(n.span) };
                functions.push(Function { method: n.method, body: b, top_level: false, name_span });
            }
        }
        for f in &functions {
            self.report_unobserved_tasks(f);
            self.report_async_without_await(f);
            self.report_unreachable_code(f);
        }
        if !(top_level && self.c.options.interactive) {
            self.report_unused_locals(&functions);
        }
        self.nested = nested;
    }

    /// CS4014: an expression statement calling an `async` method of the program, or, in an
    /// async function, any call whose result could be awaited.
    fn report_unobserved_tasks(&mut self, f: &Function) {
        let in_async = f.top_level || self.c.meta.method(f.method).flags.has(Flags::ASYNC);
        let mut calls = Vec::new();
        for_each_statement(&f.body.body, &mut |s| {
            // `_ = F();` binds to its value alone: a statement is the call when it starts there.
            if let SKind::Expr(e) = &s.kind {
                if e.span.start == s.span.start {
                    calls.push(e);
                }
            }
        });
        for e in calls {
            if e.is_error() || e.ty == TypeId::VOID {
                continue;
            }
            let callee = match &e.kind {
                BKind::Call { method, .. } => Some(*method),
                BKind::CallNested { nested, .. } => self.nested.get(nested.0 as usize).map(|n| n.method),
                BKind::Invoke { .. } => None,
                _ => continue,
            };
            let async_callee = callee.is_some_and(|m| self.is_user_async(m));
            if async_callee || (in_async && self.is_awaitable(e.ty)) {
                self.c.diags.warning(self.file, e.span, "CS4014", CS4014);
            }
        }
    }

    /// CS1998: an async function none of whose expressions is an `await`.
    fn report_async_without_await(&mut self, f: &Function) {
        if f.top_level || !self.c.meta.method(f.method).flags.has(Flags::ASYNC) {
            return;
        }
        let mut awaits = false;
        walk_stmt_exprs(&f.body.body, &mut |e| awaits |= matches!(e.kind, BKind::Await(_)));
        if !awaits {
            self.c.diags.warning(self.file, f.name_span, "CS1998", CS1998);
        }
    }

    /// CS0168 for a local never read nor written, CS0219 for one written (only with constants,
    /// as Roslyn counts: any other write is a use) and never read. Constants are not locals.
    fn report_unused_locals(&mut self, functions: &[Function]) {
        let mut uses: HashMap<LocalId, Use> = HashMap::new();
        for f in functions {
            self.note_local_uses(&f.body.body, &mut uses);
        }
        for (i, local) in self.locals.iter().enumerate() {
            let id = LocalId(i as u32);
            if local.kind != LocalKind::User || local.name == "_" || local.name.starts_with('<') || self.unused_exempt.contains(&id) {
                continue;
            }
            let (code, words) = match uses.get(&id) {
                None => ("CS0168", "is declared but never used"),
                Some(Use { read: false, assigned: true }) => ("CS0219", "is assigned but its value is never used"),
                Some(_) => continue,
            };
            let message = format!("The variable '{}' {words}", local.name);
            self.c.diags.warning(self.file, local.span, code, message);
        }
    }

    /// Records how the locals of `body` are used: a read, or a write that Roslyn counts as a
    /// use, makes `read` true; a write of a constant only sets `assigned`.
    fn note_local_uses(&self, body: &BStmt, uses: &mut HashMap<LocalId, Use>) {
        let mut occurrences: HashMap<LocalId, u32> = HashMap::new();
        let mut assignments: HashMap<LocalId, u32> = HashMap::new();
        // (local, whether the write counts as a use)
        let mut writes: Vec<(LocalId, bool)> = Vec::new();
        let type_of = |id: LocalId| self.locals[id.0 as usize].ty;
        for_each_statement(body, &mut |s| {
            if let SKind::Local { local, init: Some(v) } = &s.kind {
                writes.push((*local, self.write_is_use(type_of(*local), v)));
            }
        });
        walk_stmt_exprs(body, &mut |e| match &e.kind {
            BKind::Local(id) => *occurrences.entry(*id).or_default() += 1,
            BKind::Assign { target, value } => {
                if let BKind::Local(id) = target.kind {
                    *assignments.entry(id).or_default() += 1;
                    writes.push((id, self.write_is_use(type_of(id), value)));
                }
            }
            _ => {}
        });
        for (id, n) in occurrences {
            if n > assignments.get(&id).copied().unwrap_or(0) {
                uses.entry(id).or_default().read = true;
            }
        }
        for (id, is_use) in writes {
            let entry = uses.entry(id).or_default();
            entry.assigned = true;
            entry.read |= is_use;
        }
    }

    /// Roslyn's "a write considered a use": anything but a constant, a `default` or a
    /// parameterless struct creation (and, for a reference type other than `string`, anything
    /// but `null`).
    fn write_is_use(&self, ty: TypeId, value: &BExpr) -> bool {
        if value.is_error() {
            return true;
        }
        let reference = ty != self.c.meta.well_known.string && !self.c.meta.is_value_type(ty) && self.c.meta.types.def_of(ty).is_some();
        match &value.kind {
            BKind::Const(ConstVal::Null) => false,
            _ if reference => true,
            BKind::Const(_) | BKind::Default => false,
            BKind::New { ctor: None, args } => !args.is_empty(),
            BKind::Conv { kind: ConvKind::Identity | ConvKind::Numeric { .. }, operand } => self.write_is_use(operand.ty, operand),
            _ => true,
        }
    }

    /// CS0472: `v == null` (or `!=`) where `v` has a non-nullable value type: always false
    /// (true), at the whole comparison.
    pub fn warn_value_compared_with_null(&mut self, value_type: TypeId, result: bool, span: Span) {
        if self.c.is_library(self.file) {
            return;
        }
        let shown = self.type_name(value_type);
        let message = format!("The result of the expression is always '{result}' since a value of type '{shown}' is never equal to 'null' of type '{shown}?'");
        self.c.diags.warning(self.file, span, "CS0472", message);
    }

    /// CS0162 at the first token of the first statement control cannot reach, once per
    /// unreachable stretch (Roslyn's rule: blocks, labels, empty statements and `throw` are
    /// not reported themselves).
    fn report_unreachable_code(&mut self, f: &Function) {
        let mut reach = Reachability {
            targets: Vec::new(),
            found: Vec::new(),
            text: self.c.meta.files.get(self.file.index()).map(|f| f.text.to_string()).unwrap_or_default(),
        };
        collect_jump_targets(&f.body.body, &mut reach.targets);
        reach.statement(&f.body.body, true, false);
        for span in reach.found {
            self.c.diags.warning(self.file, span, "CS0162", "Unreachable code detected");
        }
    }

    /// A method declared `async` in the program (library methods are compiled code to C#).
    fn is_user_async(&self, m: MethodId) -> bool {
        let md = self.c.meta.method(m);
        md.flags.has(Flags::ASYNC) && !self.c.is_library(md.file)
    }

    /// Whether values of `t` can be awaited: `t` or a base class has `GetAwaiter()`.
    fn is_awaitable(&mut self, t: TypeId) -> bool {
        let mut current = Some(t);
        while let Some(ty) = current {
            let Some(def) = self.c.meta.types.def_of(ty) else { return false };
            let methods = &self.c.meta.type_def(def).methods;
            if methods.iter().any(|&m| {
                let md = self.c.meta.method(m);
                md.name == "GetAwaiter" && md.params.is_empty() && !md.is_static()
            }) {
                return true;
            }
            current = self.c.meta.base_type(ty);
        }
        false
    }

    /// The `=>` of a lambda (or the `delegate` keyword of an anonymous method) whose syntax
    /// spans `span`: where Roslyn puts a lambda's warnings.
    fn lambda_arrow(&self, span: Span) -> Span {
        let Some(file) = self.c.meta.files.get(self.file.index()) else { return span };
        let start = span.start as usize;
        let text = file.text.get(start..(span.end as usize).min(file.text.len())).unwrap_or("");
        let after_async = text.strip_prefix("async").map_or(text, str::trim_start);
        let offset = text.len() - after_async.len();
        if after_async.starts_with("delegate") {
            return Span::new(start + offset, start + offset + "delegate".len());
        }
        match text.find("=>") {
            Some(i) => Span::new(start + i, start + i + 2),
            None => span,
        }
    }
}

/// How a local is used (see [`MethodBinder::note_local_uses`]).
#[derive(Default)]
struct Use {
    read: bool,
    assigned: bool,
}

/// Calls `f` on every statement of `s` the user wrote or the binder lowered (not inside
/// expressions, nor nested functions).
fn for_each_statement<'a>(s: &'a BStmt, f: &mut dyn FnMut(&'a BStmt)) {
    f(s);
    match &s.kind {
        SKind::Block { stmts, .. } => stmts.iter().for_each(|x| for_each_statement(x, f)),
        SKind::If { then, otherwise, .. } => {
            for_each_statement(then, f);
            if let Some(o) = otherwise {
                for_each_statement(o, f);
            }
        }
        SKind::Loop { body, .. } => for_each_statement(body, f),
        SKind::Try { body, catches, finally } => {
            for_each_statement(body, f);
            catches.iter().for_each(|c| for_each_statement(&c.body, f));
            if let Some(x) = finally {
                for_each_statement(x, f);
            }
        }
        _ => {}
    }
}

/// The reachability walk of CS0162: which statements control cannot reach.
struct Reachability {
    /// Labels some `goto`, `break`, `continue` or switch jumps to.
    targets: Vec<LabelId>,
    /// Where the warnings go (the first token of each unreachable stretch).
    found: Vec<Span>,
    /// The source (a lowered statement does not start with `{` where a block does).
    text: String,
}

impl Reachability {
    /// Walks `s`, reached when `alive`, with the current unreachable stretch already
    /// reported when `reported`; returns (whether control continues after `s`, `reported`).
    fn statement(&mut self, s: &BStmt, alive: bool, reported: bool) -> (bool, bool) {
        let reported = self.check(s, alive, reported);
        match &s.kind {
            SKind::Block { stmts, .. } => {
                let (mut a, mut r) = (alive, reported);
                for x in stmts {
                    (a, r) = self.statement(x, a, r);
                }
                (a, r)
            }
            SKind::Label(l) if self.targets.contains(l) => (true, false),
            SKind::If { cond, then, otherwise } => {
                let then_alive = alive && !is_const_bool(cond, false);
                let else_alive = alive && !is_const_bool(cond, true);
                let (t, _) = self.statement(then, then_alive, reported || !alive);
                let o = match otherwise {
                    Some(o) => self.statement(o, else_alive, reported || !alive).0,
                    None => else_alive,
                };
                (t || o, reported)
            }
            SKind::Loop { cond, body, brk, test_first, .. } => {
                let skipped = *test_first && cond.as_ref().is_some_and(|c| is_const_bool(c, false));
                self.statement(body, alive && !skipped, reported || !alive);
                let infinite = cond.as_ref().is_none_or(|c| is_const_bool(c, true));
                (alive && (!infinite || contains_jump_to(body, *brk)), reported)
            }
            SKind::Try { body, catches, finally } => {
                let (mut after, _) = self.statement(body, alive, reported || !alive);
                for c in catches {
                    after |= self.statement(&c.body, alive, reported || !alive).0;
                }
                if let Some(f) = finally {
                    after &= self.statement(f, alive, reported || !alive).0;
                }
                (after, reported)
            }
            SKind::Return(_) | SKind::YieldBreak | SKind::Throw(_) | SKind::Rethrow(_) | SKind::Goto(_) | SKind::Switch { .. } => (false, reported),
            SKind::Expr(e) if matches!(e.kind, BKind::Throw(_)) => (false, reported),
            _ => (alive, reported),
        }
    }

    /// Reports `s` if it starts an unreachable stretch; returns the new `reported`.
    fn check(&mut self, s: &BStmt, alive: bool, reported: bool) -> bool {
        if alive || reported || s.span.start == s.span.end {
            return reported;
        }
        let reportable = match &s.kind {
            // A lowered statement (not a `{ }` block, nor a labeled statement).
            SKind::Block { stmts, .. } => {
                self.text.as_bytes().get(s.span.start as usize) != Some(&b'{') && !matches!(stmts.first().map(|x| &x.kind), Some(SKind::Label(_)))
            }
            SKind::Label(_) | SKind::Empty | SKind::Throw(_) | SKind::LocalFunction(_) => false,
            SKind::Expr(e) => !matches!(e.kind, BKind::Throw(_)),
            _ => true,
        };
        if reportable {
            // A local declaration's span is its declarator's: its statement starts earlier.
            let start = match s.kind {
                SKind::Local { .. } => statement_start(&self.text, s.span.start as usize),
                _ => s.span.start as usize,
            };
            self.found.push(Span::new(start, start + first_token_len(self.text.get(start..).unwrap_or(""))));
        }
        reportable
    }
}

/// The start of the statement around `pos`: the first token after the `;`, `{`, `}` or
/// `:` before it (line comments skipped).
fn statement_start(text: &str, pos: usize) -> usize {
    let before = text.get(..pos).unwrap_or("");
    let mut start = before.rfind([';', '{', '}', ':']).map_or(0, |i| i + 1);
    loop {
        let rest = text.get(start..pos).unwrap_or("");
        let trimmed = rest.trim_start();
        start += rest.len() - trimmed.len();
        match trimmed.strip_prefix("//") {
            Some(comment) => start += 2 + comment.find('\n').unwrap_or(comment.len()),
            None => return start,
        }
    }
}

/// The length of the token `text` starts with (a word, or one character).
fn first_token_len(text: &str) -> usize {
    let word = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    if word > 0 {
        word
    } else {
        text.chars().next().map_or(1, char::len_utf8)
    }
}

fn is_const_bool(e: &BExpr, v: bool) -> bool {
    matches!(e.kind, BKind::Const(ConstVal::Bool(b)) if b == v)
}

/// The labels jumped to in `s` (by `goto`, `break`, `continue` or a switch).
fn collect_jump_targets(s: &BStmt, out: &mut Vec<LabelId>) {
    for_each_statement(s, &mut |x| match &x.kind {
        SKind::Goto(l) => out.push(*l),
        SKind::Switch { targets, default, .. } => {
            out.extend(targets.iter().copied());
            out.push(*default);
        }
        _ => {}
    });
}

fn contains_jump_to(s: &BStmt, label: LabelId) -> bool {
    let mut found = false;
    for_each_statement(s, &mut |x| found |= matches!(x.kind, SKind::Goto(l) if l == label));
    found
}
