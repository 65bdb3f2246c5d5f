//! C# text from the bound tree, in the style decompilers (SharpLab, ILSpy) show lowered
//! code: one statement per line, C# precedence, lowered forms (`foreach`, compound
//! assignment, `i++`) printed as close to the source as their shape allows. What differs
//! between the lowerings — the names of hoisted locals, `this`, how an `await` and a
//! `return` are written — is asked of a [`View`]. An expression that needs statements
//! first (an expanded `await`, a spilled temporary, a lowered sequence) writes them
//! before the statement that contains it, as Roslyn's spilling does. Statements are
//! here, expressions in [`expr`].

mod expr;

use hashbrown::HashMap;

use crate::compiler::bound::*;
use crate::compiler::emit::report::{CodeFacts, ExpressionIndex, LoweringReport};
use crate::metadata::{Metadata, MethodId, TypeDefId};
use expr::{needs_statements, Prec};

/// What a lowering changes in the printed code.
pub trait View {
    /// The name of local `l`, if the lowering renamed it (a hoisted field).
    fn local_name(&self, l: LocalId) -> Option<String>;
    /// How `this` is written.
    fn this_text(&self) -> String;
    /// The field an expression's value is spilled into across an await, if any.
    fn spill_field(&self, expr: u32) -> Option<String>;
    /// `await` number `site` on `operand` (C# text).
    fn await_text(&self, site: Option<usize>, operand: &str, parts: &AwaitParts) -> AwaitText;
    /// `return value;` (`tail`: the last statement of the body).
    fn return_lines(&self, value: Option<String>, tail: bool) -> Vec<String>;
    /// The condition a `finally` body runs under (`num < 0` in a state machine).
    fn finally_guard(&self) -> Option<String>;
    /// A comment for a `catch`/`finally` block that contains an `await`.
    fn handler_await_note(&self) -> Option<String>;
    /// Whether an `await` is written as statements before its value (the state machine's
    /// expansion), so an operator that evaluates it conditionally becomes an `if`.
    fn awaits_are_statements(&self) -> bool {
        true
    }
    /// `yield return value;` as lowered (lines with their indentation relative to the
    /// statement), if the view lowers it.
    fn yield_return_lines(&self, _value: &str) -> Option<Vec<(isize, String)>> {
        None
    }
    /// `yield break;` as lowered, if the view lowers it.
    fn yield_break_line(&self) -> Option<String> {
        None
    }
}

/// How one `await` is written: statements before the containing statement (each with its
/// indentation relative to it; a label one level out), then its value.
pub struct AwaitText {
    pub before: Vec<(isize, String)>,
    pub value: String,
}

/// The `break`/`continue` targets of an enclosing loop.
struct LoopLabels {
    brk: LabelId,
    cont: LabelId,
}

/// Writes one body.
pub struct Writer<'a, V: View> {
    meta: &'a Metadata,
    locals: &'a [LocalInfo],
    /// The methods of the lambdas and local functions, by [`NestedId`].
    nested: &'a [MethodId],
    body: &'a BStmt,
    index: ExpressionIndex,
    facts: &'a CodeFacts,
    view: &'a V,
    /// The class the code is in (its static members need no qualifier).
    owner: TypeDefId,
    lines: Vec<String>,
    depth: usize,
    temp_names: HashMap<LocalId, String>,
    /// How many `tmpN` names were given out.
    temps_made: usize,
    label_names: HashMap<LabelId, String>,
    loops: Vec<LoopLabels>,
    /// Stand-ins for locals (a conditional access's receiver).
    substitutes: HashMap<LocalId, String>,
}

impl<'a, V: View> Writer<'a, V> {
    pub fn new(report: &'a LoweringReport, meta: &'a Metadata, view: &'a V) -> Writer<'a, V> {
        Writer {
            meta,
            locals: &report.locals,
            nested: &report.nested,
            body: &report.body.body,
            index: ExpressionIndex::of(&report.body.body),
            facts: &report.facts,
            view,
            owner: meta.method(report.method).owner,
            lines: Vec::new(),
            depth: 0,
            temp_names: HashMap::new(),
            temps_made: 0,
            label_names: HashMap::new(),
            loops: Vec::new(),
            substitutes: HashMap::new(),
        }
    }

    /// The statements of the report's body (its braces left out) at indentation `depth`.
    pub fn body_lines(mut self, depth: usize) -> Vec<String> {
        let body = self.body;
        self.depth = depth;
        match &body.kind {
            SKind::Block { stmts, .. } => self.stmts(stmts, true),
            _ => self.stmt(body, true),
        }
        self.lines
    }

    fn line(&mut self, text: impl AsRef<str>) {
        let text = text.as_ref();
        self.lines.push(format!("{}{text}", "    ".repeat(self.depth)));
    }

    fn line_at(&mut self, relative: isize, text: &str) {
        let depth = self.depth.saturating_add_signed(relative);
        self.lines.push(format!("{}{text}", "    ".repeat(depth)));
    }

    fn open(&mut self) {
        self.line("{");
        self.depth += 1;
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        self.line("}");
    }

    // ---- statements --------------------------------------------------------------------

    fn stmts(&mut self, stmts: &[BStmt], tail: bool) {
        let last = stmts.iter().rposition(|s| !matches!(s.kind, SKind::Empty));
        for (i, s) in stmts.iter().enumerate() {
            self.stmt(s, tail && Some(i) == last);
        }
    }

    /// A block in braces.
    fn block(&mut self, s: &BStmt) {
        self.open();
        match &s.kind {
            SKind::Block { stmts, .. } => self.stmts(stmts, false),
            _ => self.stmt(s, false),
        }
        self.close();
    }

    fn stmt(&mut self, s: &BStmt, tail: bool) {
        match &s.kind {
            SKind::Expr(e) => {
                let t = self.statement_expr(e);
                if !t.is_empty() {
                    self.line(format!("{t};"));
                }
            }
            SKind::Block { stmts, .. } => {
                if self.for_loop(stmts) {
                    return;
                }
                if self.declares_nothing(stmts) || matches!(stmts.as_slice(), [BStmt { kind: SKind::Block { .. }, .. }]) {
                    return self.stmts(stmts, tail);
                }
                self.open();
                self.stmts(stmts, tail);
                self.close();
            }
            SKind::Local { local, init } => {
                let line = self.local_decl(*local, init.as_ref());
                self.line(format!("{line};"));
            }
            SKind::If { cond, then, otherwise } => self.if_stmt(cond, then, otherwise.as_deref()),
            SKind::Loop { cond, body, update, brk, cont, test_first } => self.loop_stmt(cond.as_ref(), body, update, *brk, *cont, *test_first),
            SKind::Return(v) => {
                let value = v.as_ref().map(|e| self.expr(e, Prec::Assign));
                for l in self.view.return_lines(value, tail) {
                    self.line(l);
                }
            }
            SKind::Throw(e) => {
                let t = self.expr(e, Prec::Assign);
                self.line(format!("throw {t};"));
            }
            SKind::Rethrow(_) => self.line("throw;"),
            SKind::Try { body, catches, finally } => self.try_stmt(body, catches, finally.as_deref()),
            SKind::Label(l) => {
                let name = self.label(*l);
                self.line_at(-1, &format!("{name}:"));
            }
            SKind::Goto(l) => {
                let jump = self.goto(*l);
                self.line(jump);
            }
            SKind::Switch { value, low, targets, default } => self.switch_stmt(value, *low, targets, *default),
            SKind::LocalFunction(n) => self.line(format!("// local function {}", self.nested_name(*n))),
            SKind::YieldReturn(e) => {
                let t = self.expr(e, Prec::Assign);
                match self.view.yield_return_lines(&t) {
                    Some(lines) => lines.into_iter().for_each(|(indent, text)| self.line_at(indent, &text)),
                    None => self.line(format!("yield return {t};")),
                }
            }
            SKind::YieldBreak => match self.view.yield_break_line() {
                Some(text) => self.line(text),
                None => self.line("yield break;"),
            },
            SKind::Empty => {}
        }
    }

    /// Whether a block's statements declare no local (hoisted ones print as fields), so
    /// its braces scope nothing.
    fn declares_nothing(&self, stmts: &[BStmt]) -> bool {
        !stmts.iter().any(|s| matches!(s.kind, SKind::Local { local, .. } if self.view.local_name(local).is_none()))
    }

    /// `T x = init` (or `field = init` for a hoisted local).
    fn local_decl(&mut self, local: LocalId, init: Option<&BExpr>) -> String {
        let info = &self.locals[local.0 as usize];
        let value = match init {
            Some(e) => self.expr(e, Prec::Assign),
            None => format!("default({})", self.type_text(info.ty)),
        };
        match self.view.local_name(local) {
            Some(field) => format!("{field} = {value}"),
            None => format!("{} {} = {value}", self.type_text(info.ty), self.local(local)),
        }
    }

    fn if_stmt(&mut self, cond: &BExpr, then: &BStmt, otherwise: Option<&BStmt>) {
        let c = self.expr(cond, Prec::Assign);
        self.line(format!("if ({c})"));
        self.block(then);
        let Some(o) = otherwise else { return };
        if let SKind::If { cond, then, otherwise } = &o.kind {
            if !needs_statements(cond) {
                let c = self.expr(cond, Prec::Assign);
                self.line(format!("else if ({c})"));
                self.block(then);
                return self.else_tail(otherwise.as_deref());
            }
        }
        self.line("else");
        self.block(o);
    }

    fn else_tail(&mut self, otherwise: Option<&BStmt>) {
        if let Some(o) = otherwise {
            self.line("else");
            self.block(o);
        }
    }

    /// The block a `for` statement was bound into, `{ T x = init; Loop }`, written as one
    /// `for (init; cond; update)` when nothing in it needs statements of its own.
    /// Reports whether it was.
    fn for_loop(&mut self, stmts: &[BStmt]) -> bool {
        let [BStmt { kind: SKind::Local { local, init: Some(init) }, .. }, BStmt { kind: SKind::Loop { cond, body, update, brk, cont, test_first: true }, .. }] =
            stmts
        else {
            return false;
        };
        let simple = |e: &BExpr| !needs_statements(e);
        if update.is_empty() || !simple(init) || !cond.as_ref().is_none_or(simple) || !update.iter().all(simple) {
            return false;
        }
        let init_text = self.local_decl(*local, Some(init));
        let cond_text = cond.as_ref().map(|c| self.expr(c, Prec::Assign)).unwrap_or_default();
        let updates: Vec<String> = update.iter().map(|u| self.statement_expr(u)).collect();
        self.line(format!("for ({init_text}; {cond_text}; {})", updates.join(", ")));
        self.loop_body(body, *brk, *cont, true);
        true
    }

    fn loop_stmt(&mut self, cond: Option<&BExpr>, body: &BStmt, update: &[BExpr], brk: LabelId, cont: LabelId, test_first: bool) {
        let plain = cond.is_none_or(|c| !needs_statements(c)) && update.iter().all(|u| !needs_statements(u));
        if !plain {
            return self.general_loop(cond, body, update, brk, cont);
        }
        let cond_text = cond.map_or_else(|| "true".to_string(), |c| self.expr(c, Prec::Assign));
        match (test_first, update.is_empty()) {
            (true, true) => {
                self.line(format!("while ({cond_text})"));
                self.loop_body(body, brk, cont, true);
            }
            (true, false) => {
                let updates: Vec<String> = update.iter().map(|u| self.statement_expr(u)).collect();
                self.line(format!("for (; {cond_text}; {})", updates.join(", ")));
                self.loop_body(body, brk, cont, true);
            }
            (false, _) => {
                self.line("do");
                self.loop_body(body, brk, cont, update.is_empty());
                self.line(format!("while ({cond_text});"));
            }
        }
    }

    /// A loop whose condition or update needs statements: `while (true)` with the test
    /// inside, so they run on every iteration.
    fn general_loop(&mut self, cond: Option<&BExpr>, body: &BStmt, update: &[BExpr], brk: LabelId, cont: LabelId) {
        self.line("while (true)");
        self.open();
        if let Some(c) = cond {
            let t = self.expr(c, Prec::Unary);
            self.line(format!("if (!{t})"));
            self.depth += 1;
            self.line("break;");
            self.depth -= 1;
        }
        self.loops.push(LoopLabels { brk, cont: LabelId(u32::MAX) });
        match &body.kind {
            SKind::Block { stmts, .. } => self.stmts(stmts, false),
            _ => self.stmt(body, false),
        }
        self.loops.pop();
        let name = self.label(cont);
        self.line_at(-1, &format!("{name}:"));
        for u in update {
            let t = self.statement_expr(u);
            self.line(format!("{t};"));
        }
        self.close();
    }

    fn loop_body(&mut self, body: &BStmt, brk: LabelId, cont: LabelId, continue_is_plain: bool) {
        let cont = if continue_is_plain { cont } else { LabelId(u32::MAX) };
        self.loops.push(LoopLabels { brk, cont });
        self.block(body);
        self.loops.pop();
    }

    fn try_stmt(&mut self, body: &BStmt, catches: &[BCatch], finally: Option<&BStmt>) {
        self.line("try");
        self.block(body);
        for c in catches {
            let ty = self.type_text(c.ty);
            let caught = c.local.map(|l| (self.locals[l.0 as usize].name.clone(), self.view.local_name(l)));
            let head = match &caught {
                Some((name, _)) => format!("catch ({ty} {name})"),
                None => format!("catch ({ty})"),
            };
            let head = match &c.filter {
                Some(f) => format!("{head} when ({})", self.expr(f, Prec::Assign)),
                None => head,
            };
            self.line(head);
            let into_field = caught.and_then(|(name, field)| field.map(|f| format!("{f} = {name};")));
            self.handler_block(&c.body, None, into_field);
        }
        if let Some(f) = finally {
            self.line("finally");
            let guard = self.view.finally_guard();
            self.handler_block(f, guard, None);
        }
    }

    /// A `catch` or `finally` body, under `guard` if given, after `first` if given.
    fn handler_block(&mut self, body: &BStmt, guard: Option<String>, first: Option<String>) {
        self.open();
        if crate::compiler::emit::classic::contains_await(body) {
            if let Some(note) = self.view.handler_await_note() {
                self.line(format!("// {note}"));
            }
        }
        if let Some(f) = first {
            self.line(f);
        }
        match guard {
            Some(g) => {
                self.line(format!("if ({g})"));
                self.block(body);
            }
            None => match &body.kind {
                SKind::Block { stmts, .. } => self.stmts(stmts, false),
                _ => self.stmt(body, false),
            },
        }
        self.close();
    }

    fn switch_stmt(&mut self, value: &BExpr, low: i64, targets: &[LabelId], default: LabelId) {
        let v = self.expr(value, Prec::Assign);
        self.line(format!("switch ({v})"));
        self.open();
        for (i, &t) in targets.iter().enumerate() {
            let jump = self.goto(t);
            self.line(format!("case {}: {jump}", low + i as i64));
        }
        let jump = self.goto(default);
        self.line(format!("default: {jump}"));
        self.close();
    }

    /// `break;`, `continue;` or `goto L;`.
    fn goto(&mut self, l: LabelId) -> String {
        if let Some(inner) = self.loops.last() {
            if inner.brk == l {
                return "break;".into();
            }
            if inner.cont == l {
                return "continue;".into();
            }
        }
        format!("goto {};", self.label(l))
    }

    fn label(&mut self, l: LabelId) -> String {
        let n = self.label_names.len() + 1;
        self.label_names.entry(l).or_insert_with(|| format!("label{n}")).clone()
    }
}
