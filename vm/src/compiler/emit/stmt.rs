//! Statements: blocks (with their display objects), locals, branches and loops, `return`,
//! `throw`, `try`/`catch`/`finally` with handler-table entries, and jumps that leave a
//! `finally`-protected region (routed through the `finally` with a pending-exit code).

use super::closures::LocalLoc;
use super::{Exit, FinallyScope, FnBuilder};
use crate::bytecode::{Handler, HandlerKind, JumpTable, Op, Reg, Target};
use crate::compiler::bound::*;
use crate::metadata::TypeId;

impl FnBuilder<'_> {
    pub fn emit_stmt(&mut self, s: &BStmt) {
        let saved_span = self.current_span;
        if s.span != Default::default() {
            self.current_span = s.span;
        }
        let mark = self.mark();
        match &s.kind {
            SKind::Expr(e) => self.emit_effect(e),
            SKind::Block { stmts, locals } => self.emit_block(stmts, locals),
            SKind::Local { local, init } => self.emit_local_init(*local, init.as_ref()),
            SKind::If { cond, then, otherwise } => self.emit_if(cond, then, otherwise.as_deref()),
            SKind::Loop { cond, body, update, brk, cont, test_first } => self.emit_loop(cond.as_ref(), body, update, *brk, *cont, *test_first),
            SKind::YieldReturn(e) if self.classic.is_some() => self.emit_async_yield_return(e),
            SKind::YieldBreak if self.classic.is_some() => self.emit_async_yield_break(),
            SKind::YieldReturn(e) => self.emit_yield_return(e),
            SKind::YieldBreak => self.emit_return(None),
            SKind::Return(v) if self.classic.is_some() => self.emit_classic_return(v.as_ref()),
            SKind::Return(v) => {
                let r = v.as_ref().map(|e| self.emit_value(e));
                self.emit_return(r);
            }
            SKind::Throw(e) => {
                let r = self.emit_value(e);
                self.emit(Op::Throw { src: r });
            }
            SKind::Rethrow(l) => {
                let r = self.read_local(*l);
                self.emit(Op::Rethrow { src: r });
            }
            SKind::Try { body, catches, finally } => self.emit_try(body, catches, finally.as_deref()),
            SKind::Label(l) => self.place_label(*l),
            SKind::Goto(l) => self.emit_goto(*l),
            SKind::Switch { value, low, targets, default } => self.emit_switch(value, *low, targets, *default),
            SKind::LocalFunction(id) => {
                let env = self.nested_env_here(*id);
                self.shared.nested_env.insert(*id, env);
            }
            SKind::Empty => {}
        }
        self.free_to(mark);
        self.current_span = saved_span;
    }

    fn emit_block(&mut self, stmts: &[BStmt], locals: &[LocalId]) {
        let depth = self.finally_stack.len();
        for s in stmts {
            if let SKind::Label(l) = s.kind {
                self.label_depth.insert(l, depth);
            }
        }
        let made_display = self.enter_block_display(locals);
        for s in stmts {
            if let SKind::LocalFunction(id) = s.kind {
                let env = self.nested_env_here(id);
                self.shared.nested_env.insert(id, env);
            }
        }
        for s in stmts {
            self.emit_stmt(s);
        }
        if made_display {
            self.leave_block_display();
        }
    }

    fn emit_local_init(&mut self, local: LocalId, init: Option<&BExpr>) {
        if let (Some(BKind::RefOf(target)), LocalLoc::RefReg(r)) = (init.map(|e| &e.kind), self.local_location(local)) {
            self.emit_ref(target, r);
            return;
        }
        let ty = self.shared.locals[local.0 as usize].ty;
        let m = self.mark();
        let value = match init {
            Some(e) => self.emit_value(e),
            None => self.default_into_new_reg(ty),
        };
        self.write_local(local, value);
        self.free_to(m);
    }

    /// A new register holding `default(ty)`.
    pub fn default_into_new_reg(&mut self, ty: TypeId) -> Reg {
        let r = self.alloc_reg();
        self.emit_default(ty, r);
        r
    }

    fn emit_if(&mut self, cond: &BExpr, then: &BStmt, otherwise: Option<&BStmt>) {
        let else_l = self.new_label();
        let end = self.new_label();
        self.emit_branch(cond, false, else_l);
        self.emit_stmt(then);
        if let Some(o) = otherwise {
            self.emit_jump(Op::Jump { target: Target(0) }, end);
            self.place_label(else_l);
            self.emit_stmt(o);
        } else {
            self.place_label(else_l);
        }
        self.place_label(end);
    }

    fn emit_loop(&mut self, cond: Option<&BExpr>, body: &BStmt, update: &[BExpr], brk: LabelId, cont: LabelId, test_first: bool) {
        let depth = self.finally_stack.len();
        self.label_depth.insert(brk, depth);
        self.label_depth.insert(cont, depth);
        let top = self.new_label();
        let test = self.new_label();
        if test_first {
            self.emit_jump(Op::Jump { target: Target(0) }, test);
        }
        self.place_label(top);
        self.emit_stmt(body);
        self.place_label(cont);
        for u in update {
            let m = self.mark();
            self.emit_effect(u);
            self.free_to(m);
        }
        self.place_label(test);
        match cond {
            Some(c) => self.emit_branch(c, true, top),
            None => self.emit_jump(Op::Jump { target: Target(0) }, top),
        }
        self.place_label(brk);
    }

    /// `return` (through any enclosing `finally` blocks).
    pub fn emit_return(&mut self, value: Option<Reg>) {
        if self.finally_stack.is_empty() {
            match value {
                Some(r) => {
                    self.emit(Op::Return { src: r });
                }
                None => {
                    self.emit(Op::ReturnVoid);
                }
            }
            return;
        }
        if let Some(v) = value {
            let rr = self.return_register();
            self.emit(Op::Move { dst: rr, src: v });
        }
        self.route_through_finally(Exit::Return);
    }

    /// The register reserved at function entry for values returned through a `finally`.
    fn return_register(&mut self) -> Reg {
        self.ret_reg.unwrap_or(Reg(0))
    }

    /// Jumps to `l`, passing through every `finally` between here and the label.
    pub fn emit_goto(&mut self, l: LabelId) {
        let target_depth = self.label_depth.get(&l).copied().unwrap_or(0);
        if target_depth >= self.finally_stack.len() {
            self.emit_jump(Op::Jump { target: Target(0) }, l);
            return;
        }
        self.route_through_finally(Exit::Label(l));
    }

    /// Records `exit` in the innermost finally's table and jumps into the finally with
    /// the exit's index as the pending completion.
    fn route_through_finally(&mut self, exit: Exit) {
        let Some(scope) = self.finally_stack.last_mut() else { return };
        let k = match scope.exits.iter().position(|e| *e == exit) {
            Some(k) => k,
            None => {
                scope.exits.push(exit);
                scope.exits.len() - 1
            }
        };
        let (pending, entry) = (scope.pending, scope.entry);
        self.emit(Op::LoadI32 { dst: pending, value: k as i32 });
        self.emit_jump(Op::Jump { target: Target(0) }, entry);
    }

    fn emit_switch(&mut self, value: &BExpr, low: i64, targets: &[LabelId], default: LabelId) {
        let r = self.emit_value(value);
        let table = self.add_table(JumpTable { low, targets: targets.iter().map(|l| Target(l.0)).collect() });
        self.emit(Op::Switch { src: r, table });
        self.emit_goto(default);
    }

    /// `yield return e;`: suspend with the value; when `Dispose` resumes the frame, leave
    /// as `yield break` does (through the `finally` blocks around this point).
    fn emit_yield_return(&mut self, e: &BExpr) {
        let m = self.mark();
        let value = self.emit_value(e);
        let resume = self.alloc_reg();
        self.emit(Op::YieldReturn { src: value, resume });
        let go_on = self.new_label();
        self.emit_jump(Op::JumpIfFalse { cond: resume, target: Target(0) }, go_on);
        self.emit_return(None);
        self.place_label(go_on);
        self.free_to(m);
    }

    // ---- try/catch/finally -----------------------------------------------------------------

    fn emit_try(&mut self, body: &BStmt, catches: &[BCatch], finally: Option<&BStmt>) {
        match finally {
            Some(fin) => self.emit_try_finally(|b| b.emit_try_catch(body, catches), fin),
            None => self.emit_try_catch(body, catches),
        }
    }

    /// One handler per `catch`, in source order (the first that takes the exception wins).
    /// A `when` clause becomes filter code ending in `EndFilter`, run by the handler search
    /// before the catch body is entered.
    fn emit_try_catch(&mut self, body: &BStmt, catches: &[BCatch]) {
        if catches.is_empty() {
            self.emit_stmt(body);
            return;
        }
        let start = Target(self.pc());
        self.emit_stmt(body);
        let end = Target(self.pc());
        let done = self.new_label();
        self.emit_jump(Op::Jump { target: Target(0) }, done);
        for c in catches {
            let exc = self.alloc_reg();
            let variable: &[LocalId] = c.local.as_slice();
            // Handler targets are labels until `finish` resolves them. A filter's writes
            // (the variable, a display holding it) are still there when its handler runs:
            // `when ((e = other) != null)` hands the handler `other`.
            let (kind, made_display) = match &c.filter {
                Some(f) => {
                    let filter = self.new_label();
                    self.place_label(filter);
                    let made_display = self.enter_block_display(variable);
                    self.bind_caught_exception(c, exc);
                    let cond = self.emit_value(f);
                    self.emit(Op::EndFilter { cond });
                    (HandlerKind::Filter { ty: c.ty, filter: Target(filter.0) }, made_display)
                }
                None => (HandlerKind::Catch(c.ty), false),
            };
            let entry = self.new_label();
            self.place_label(entry);
            self.add_handler(Handler { start, end, kind, entry: Target(entry.0), reg: exc });
            let made_display = match &c.filter {
                Some(_) => {
                    self.write_local(c.exception_temp, exc);
                    made_display
                }
                None => {
                    let made_display = self.enter_block_display(variable);
                    self.bind_caught_exception(c, exc);
                    made_display
                }
            };
            self.emit_stmt(&c.body);
            if made_display {
                self.leave_block_display();
            }
            self.emit_jump(Op::Jump { target: Target(0) }, done);
        }
        self.place_label(done);
    }

    /// Stores the caught exception where `throw;` and the `catch (T e)` variable find it.
    fn bind_caught_exception(&mut self, c: &BCatch, exc: Reg) {
        self.write_local(c.exception_temp, exc);
        if let Some(l) = c.local {
            self.write_local(l, exc);
        }
    }

    /// `try { body } finally { fin }`: the finally runs on normal exit (pending `null`),
    /// on jumps out (pending exit index) and on exceptions (pending exception).
    fn emit_try_finally(&mut self, body: impl FnOnce(&mut Self), fin: &BStmt) {
        let pending = self.alloc_reg();
        let entry = self.new_label();
        let table = self.add_table(JumpTable { low: 0, targets: Vec::new() });
        self.finally_stack.push(FinallyScope { pending, entry, exits: Vec::new() });
        let start = self.pc();
        body(self);
        let end_pc = self.pc();
        self.emit(Op::LoadNull { dst: pending });
        let Some(scope) = self.finally_stack.pop() else { return };
        self.add_handler(Handler { start: Target(start), end: Target(end_pc), kind: HandlerKind::Finally, entry: Target(entry.0), reg: pending });
        self.place_label(entry);
        self.emit_finally_body(fin, pending);
        self.emit(Op::EndFinally { pending, table });
        let skip = self.new_label();
        if !scope.exits.is_empty() {
            self.emit_jump(Op::Jump { target: Target(0) }, skip);
        }
        let mut targets = Vec::new();
        for exit in &scope.exits {
            let tramp = self.new_label();
            self.place_label(tramp);
            targets.push(Target(tramp.0));
            match *exit {
                Exit::Label(l) => self.emit_goto(l),
                Exit::Return => {
                    let r = self.ret_reg;
                    self.emit_return(r.filter(|_| self.returns_value()));
                }
            }
        }
        self.tables[table as usize].targets = targets;
        self.place_label(skip);
    }

    /// A `finally` body; in a state machine's `MoveNext` it is skipped while suspending,
    /// and a body that awaits keeps the pending completion in a field across the await.
    fn emit_finally_body(&mut self, fin: &BStmt, pending: Reg) {
        if self.classic.is_none() {
            self.emit_stmt(fin);
            return;
        }
        let skip = self.new_label();
        self.emit_finally_guard(skip);
        let field = self.pending_field_for(fin);
        if let (Some(slot), Some(sm)) = (field, self.state_machine_register()) {
            self.emit(Op::StoreField { obj: sm, slot, src: pending });
        }
        self.emit_stmt(fin);
        if let (Some(slot), Some(sm)) = (field, self.state_machine_register()) {
            self.emit(Op::LoadField { dst: pending, obj: sm, slot });
        }
        self.place_label(skip);
    }

    fn returns_value(&self) -> bool {
        let md = self.c.meta.method(self.method);
        md.ret != TypeId::VOID
    }

    // ---- locals ------------------------------------------------------------------------------

    /// A register holding the local's current value.
    pub fn read_local(&mut self, l: LocalId) -> Reg {
        match self.local_location(l) {
            LocalLoc::Reg(r) => r,
            LocalLoc::RefReg(r) => {
                let d = self.alloc_reg();
                self.emit(Op::LoadRef { dst: d, r });
                d
            }
            LocalLoc::Field(obj, slot) => {
                let d = self.alloc_reg();
                self.emit(Op::LoadField { dst: d, obj, slot });
                d
            }
        }
    }

    pub fn write_local(&mut self, l: LocalId, value: Reg) {
        match self.local_location(l) {
            LocalLoc::Reg(r) => {
                if r != value {
                    self.emit(Op::Move { dst: r, src: value });
                }
            }
            LocalLoc::RefReg(r) => {
                self.emit(Op::StoreRef { r, src: value });
            }
            LocalLoc::Field(obj, slot) => {
                self.emit(Op::StoreField { obj, slot, src: value });
            }
        }
    }
}
