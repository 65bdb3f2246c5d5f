//! Statement binding, with the lowerings C# defines for `foreach`, `using`, `lock`,
//! `switch`, `for`/`while`/`do`, and `using var` (the rest of the block becomes the `try`).

use crate::compiler::bound::retyped;
use std::rc::Rc;

use super::call::is_var;
use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::{MethodKind, TypeDefKind, TypeId};
use grammar::ast::{self, StmtKind};
use grammar::span::Span;

impl MethodBinder<'_> {
    pub fn bind_block(&mut self, b: &ast::Block) -> BStmt {
        self.push_scope();
        let stmts = self.bind_stmt_list(&b.stmts);
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts, locals }, b.span)
    }

    /// Binds a statement list in the current scope. Local functions and labels are
    /// declared first (they are visible in the whole block).
    fn bind_stmt_list(&mut self, stmts: &[ast::Stmt]) -> Vec<BStmt> {
        self.declare_labels(stmts);
        self.bind_stmts_with_declared_labels(stmts)
    }

    /// Declares the labels of `stmts` in the current scope.
    pub fn declare_labels<'s>(&mut self, stmts: impl IntoIterator<Item = &'s ast::Stmt>) {
        for s in stmts {
            if let StmtKind::Labeled { label, .. } = &s.kind {
                let l = self.new_label();
                self.add_scope_label(&label.name, l);
            }
        }
    }

    /// [`Self::bind_stmt_list`] once the labels are declared (a switch section's are
    /// declared with the whole switch block's).
    pub fn bind_stmts_with_declared_labels(&mut self, stmts: &[ast::Stmt]) -> Vec<BStmt> {
        self.expect_locals(
            stmts
                .iter()
                .filter_map(|s| match &s.kind {
                    StmtKind::LocalVar(d) => Some(d.declarators.iter().map(|v| v.name.name.as_str())),
                    _ => None,
                })
                .flatten(),
        );
        let mut local_fns = Vec::new();
        for s in stmts {
            if let StmtKind::LocalFunction(decl) = &s.kind {
                let rc = Rc::new((**decl).clone());
                let id = self.declare_local_function(&rc);
                local_fns.push((s.span, id, rc));
            }
        }
        let mut out = Vec::new();
        let mut i = 0;
        while i < stmts.len() {
            let s = &stmts[i];
            if let StmtKind::LocalVar(d) = &s.kind {
                if d.is_using {
                    out.push(self.bind_using_var(d, &stmts[i + 1..], s.span, d.is_await));
                    break;
                }
            }
            if let StmtKind::LocalFunction(_) = &s.kind {
                if let Some((_, id, decl)) = local_fns.iter().find(|(sp, _, _)| *sp == s.span).cloned() {
                    self.bind_local_function(id, &decl);
                    out.push(BStmt::new(SKind::LocalFunction(id), s.span));
                }
                i += 1;
                continue;
            }
            out.push(self.bind_stmt(s));
            i += 1;
        }
        out
    }

    pub fn bind_stmt(&mut self, s: &ast::Stmt) -> BStmt {
        let span = s.span;
        let kind = match &s.kind {
            StmtKind::Block(b) => return self.bind_block(b),
            StmtKind::Empty | StmtKind::Error => SKind::Empty,
            StmtKind::Expr(e) => SKind::Expr(self.bind_expr_statement(e)),
            StmtKind::LocalVar(d) => return self.bind_local_decl(d, span),
            StmtKind::LocalFunction(_) => SKind::Empty,
            StmtKind::If { cond, then, otherwise } => {
                let c = self.bind_condition(cond);
                let t = self.bind_embedded(then);
                let o = otherwise.as_ref().map(|o| Box::new(self.bind_embedded(o)));
                SKind::If { cond: c, then: Box::new(t), otherwise: o }
            }
            StmtKind::While { cond, body } => {
                let c = self.bind_condition(cond);
                let (brk, cont) = (self.new_label(), self.new_label());
                self.loops.push((brk, Some(cont)));
                let b = self.bind_embedded(body);
                self.loops.pop();
                SKind::Loop { cond: Some(c), body: Box::new(b), update: Vec::new(), brk, cont, test_first: true }
            }
            StmtKind::DoWhile { body, cond } => {
                let (brk, cont) = (self.new_label(), self.new_label());
                self.loops.push((brk, Some(cont)));
                let b = self.bind_embedded(body);
                self.loops.pop();
                let c = self.bind_condition(cond);
                SKind::Loop { cond: Some(c), body: Box::new(b), update: Vec::new(), brk, cont, test_first: false }
            }
            StmtKind::For { init, cond, update, body } => return self.bind_for(init, cond.as_ref(), update, body, span),
            StmtKind::Foreach { is_await, target, collection, body } => {
                if *is_await {
                    return self.bind_await_foreach(target, collection, body, span);
                }
                return self.bind_foreach(target, collection, body, span);
            }
            StmtKind::Switch { expr, sections } => return self.bind_switch(expr, sections, span),
            StmtKind::Break => match self.loops.last() {
                Some(&(brk, _)) => SKind::Goto(brk),
                None => {
                    self.error(span, "CS0139", "No enclosing loop out of which to break or continue");
                    SKind::Empty
                }
            },
            StmtKind::Continue => match self.loops.iter().rev().find_map(|(_, c)| *c) {
                Some(cont) => SKind::Goto(cont),
                None => {
                    self.error(span, "CS0139", "No enclosing loop out of which to break or continue");
                    SKind::Empty
                }
            },
            StmtKind::Return(e) => self.bind_return(e.as_ref(), span),
            StmtKind::Throw(Some(e)) => {
                let ex = self.bind_expr(e);
                SKind::Throw(self.check_throwable(ex))
            }
            StmtKind::Throw(None) => match self.catches.last() {
                Some(&l) => SKind::Rethrow(l),
                None => {
                    self.error(span, "CS0156", "A throw statement with no arguments is not allowed outside of a catch clause");
                    SKind::Empty
                }
            },
            StmtKind::Goto(target) => self.bind_goto(target, span),
            StmtKind::Labeled { label, stmt } => {
                let l = self.lookup_label(&label.name).unwrap_or_else(|| self.new_label());
                let inner = self.bind_stmt(stmt);
                return BStmt::new(SKind::Block { stmts: vec![BStmt::new(SKind::Label(l), label.span), inner], locals: Vec::new() }, span);
            }
            StmtKind::Try { block, catches, finally } => self.bind_try(block, catches, finally.as_ref()),
            StmtKind::Using { is_await, resource, body } => return self.bind_using(*is_await, resource, body, span),
            StmtKind::Lock { expr, body } => return self.bind_lock(expr, body, span),
            StmtKind::YieldReturn(e) => match self.func.iterator_element {
                Some(elem) => SKind::YieldReturn(self.bind_expr_to(e, elem)),
                None => {
                    self.error(span, "CS1621", "The yield statement cannot be used inside an anonymous method or lambda expression");
                    SKind::Empty
                }
            },
            StmtKind::YieldBreak => SKind::YieldBreak,
            StmtKind::Checked(checked, b) => {
                let saved = (self.checked, self.explicitly_unchecked);
                self.checked = *checked;
                self.explicitly_unchecked = !*checked;
                let r = self.bind_block(b);
                (self.checked, self.explicitly_unchecked) = saved;
                return r;
            }
        };
        BStmt::new(kind, span)
    }

    /// An embedded statement (if/loop body): declarations there get their own scope.
    fn bind_embedded(&mut self, s: &ast::Stmt) -> BStmt {
        if let StmtKind::LocalVar(_) = s.kind {
            self.error(s.span, "CS1023", "Embedded statement cannot be a declaration or labeled statement");
        }
        self.push_scope();
        let b = self.bind_stmt(s);
        let locals = self.pop_scope();
        if locals.is_empty() {
            b
        } else {
            let span = b.span;
            BStmt::new(SKind::Block { stmts: vec![b], locals }, span)
        }
    }

    fn bind_local_decl(&mut self, d: &ast::LocalVarDecl, span: Span) -> BStmt {
        let implicit = is_var(&d.ty) && self.var_is_keyword();
        let declared = if implicit { None } else { Some(self.resolve_type(&d.ty)) };
        let mut out = Vec::new();
        if d.is_ref {
            return self.bind_ref_local(d, declared, span);
        }
        for decl in &d.declarators {
            let (ty, init) = match (declared, &decl.init) {
                (Some(t), Some(e)) => (t, Some(self.bind_expr_to(e, t))),
                (Some(t), None) => {
                    if d.is_const {
                        self.error(decl.name.span, "CS0145", "A const field requires a value to be provided");
                    }
                    (t, None)
                }
                (None, Some(e)) => {
                    let v = self.bind_expr(e);
                    let t = self.infer_var_type(&v, decl.name.span);
                    (t, Some(v))
                }
                (None, None) => {
                    self.error(decl.name.span, "CS0818", "Implicitly-typed variables must be initialized");
                    (TypeId::ERROR, None)
                }
            };
            if d.is_const {
                if let Some(v) = &init {
                    if !matches!(v.kind, BKind::Const(_)) && !v.is_error() {
                        self.error(v.span, "CS0133", format!("The expression being assigned to '{}' must be constant", decl.name.name));
                    }
                }
            }
            let local = self.declare_variable(&decl.name.name, ty, LocalKind::User, decl.name.span);
            if d.is_const {
                self.unused_exempt.push(local);
            }
            if let (true, Some(BKind::Const(c))) = (d.is_const, init.as_ref().map(|v| &v.kind)) {
                self.const_locals.insert(local, c.clone());
            }
            out.push(BStmt::new(SKind::Local { local, init }, decl.span));
        }
        if out.len() == 1 {
            out.pop().unwrap_or_else(|| BStmt::new(SKind::Empty, span))
        } else {
            BStmt::new(SKind::Block { stmts: out, locals: Vec::new() }, span)
        }
    }

    /// `ref T r = ref x;`: `r` aliases the variable `x`.
    fn bind_ref_local(&mut self, d: &ast::LocalVarDecl, declared: Option<TypeId>, span: Span) -> BStmt {
        let mut out = Vec::new();
        for decl in &d.declarators {
            let Some(init) = &decl.init else {
                self.error(decl.name.span, "CS8174", "A declaration of a by-reference variable must have an initializer");
                continue;
            };
            let target = self.bind_expr(init);
            self.check_ref_arg(&target);
            let ty = declared.unwrap_or(target.ty);
            let local = self.declare_variable(&decl.name.name, ty, LocalKind::RefLocal, decl.name.span);
            let init = BExpr::new(BKind::RefOf(Box::new(target)), ty, init.span);
            out.push(BStmt::new(SKind::Local { local, init: Some(init) }, decl.span));
        }
        BStmt::new(SKind::Block { stmts: out, locals: Vec::new() }, span)
    }

    /// `var` is a keyword unless a type named `var` is in scope.
    pub fn var_is_keyword(&mut self) -> bool {
        let ctx = self.ctx.clone();
        let ts = grammar::ast::TypeSyntax {
            kind: ast::TypeSyntaxKind::Named(vec![ast::NameSegment { name: ast::Ident { name: "var".into(), span: Span::default() }, type_args: Vec::new() }]),
            span: Span::default(),
        };
        self.c.try_resolve_type(&ctx, &ts).is_none()
    }

    /// The type of `var x = v;` (CS0815 for `null`, method groups, void).
    pub fn infer_var_type(&mut self, v: &BExpr, span: Span) -> TypeId {
        if v.is_error() {
            return TypeId::ERROR;
        }
        if v.ty == TypeId::NULL || v.ty == TypeId::VOID {
            let what = if v.ty == TypeId::NULL { "<null>" } else { "void" };
            self.error(span, "CS0815", format!("Cannot assign {what} to an implicitly-typed variable"));
            return TypeId::ERROR;
        }
        v.ty
    }

    fn bind_for(&mut self, init: &ast::ForInit, cond: Option<&ast::Expr>, update: &[ast::Expr], body: &ast::Stmt, span: Span) -> BStmt {
        self.push_scope();
        let mut stmts = Vec::new();
        match init {
            ast::ForInit::None => {}
            ast::ForInit::Decl(d) => stmts.push(self.bind_local_decl(d, d.span)),
            ast::ForInit::Exprs(es) => {
                for e in es {
                    let v = self.bind_expr_statement(e);
                    stmts.push(BStmt::new(SKind::Expr(v), e.span));
                }
            }
        }
        let c = cond.map(|c| self.bind_condition(c));
        let (brk, cont) = (self.new_label(), self.new_label());
        self.loops.push((brk, Some(cont)));
        let b = self.bind_embedded(body);
        self.loops.pop();
        let updates = update.iter().map(|u| self.bind_expr_statement(u)).collect();
        stmts.push(BStmt::new(SKind::Loop { cond: c, body: Box::new(b), update: updates, brk, cont, test_first: true }, span));
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts, locals }, span)
    }

    /// The value a `return` (or an expression body) gives back: for a method that returns
    /// by reference, a reference to the variable `e` names (`return ref a[0];`).
    pub(super) fn bind_return_value(&mut self, e: &ast::Expr, target: TypeId) -> BExpr {
        let returns_ref = self.func.index == 0 && self.c.meta.method(self.method).flags.has(crate::metadata::Flags::RETURNS_REF);
        if !returns_ref {
            return self.bind_expr_to(e, target);
        }
        let variable = self.bind_expr(e);
        self.check_ref_arg(&variable);
        BExpr::new(BKind::RefOf(Box::new(variable)), target, e.span)
    }

    fn bind_return(&mut self, e: Option<&ast::Expr>, span: Span) -> SKind {
        if self.func.iterator_element.is_some() {
            self.error(
                span,
                "CS1622",
                "Cannot return a value from an iterator. Use the yield return statement to return a value, or yield break to end the iteration.",
            );
            return SKind::Empty;
        }
        if let Some(returns) = &mut self.func.inferred_returns {
            let _ = returns;
            let v = e.map(|e| self.bind_expr(e));
            let t = v.as_ref().map_or(TypeId::VOID, |v| v.ty);
            if let Some(r) = &mut self.func.inferred_returns {
                r.push(t);
            }
            return SKind::Return(v);
        }
        let target = self.func.async_result.unwrap_or(self.func.return_type);
        match (e, target == TypeId::VOID) {
            (Some(e), true) => {
                let v = self.bind_expr(e);
                if !v.is_error() {
                    let name = self.func_display_name();
                    if self.func.is_async && self.func.async_result.is_some() {
                        self.error(
                            span,
                            "CS1997",
                            format!("Since '{name}' is an async method that returns 'Task', a return keyword must not be followed by an object expression"),
                        );
                    } else {
                        self.error(span, "CS0127", format!("Since '{name}' returns void, a return keyword must not be followed by an object expression"));
                    }
                }
                SKind::Return(None)
            }
            (Some(e), false) => SKind::Return(Some(self.bind_return_value(e, target))),
            (None, true) => SKind::Return(None),
            (None, false) => {
                if target != TypeId::ERROR {
                    let t = self.type_name(target);
                    self.error(span, "CS0126", format!("An object of a type convertible to '{t}' is required"));
                }
                SKind::Return(None)
            }
        }
    }

    pub fn func_display_name(&self) -> String {
        let md = self.c.meta.method(self.func.method);
        let owner = self.type_name(self.c.meta.type_def(md.owner).self_type);
        if matches!(md.kind, MethodKind::Lambda) {
            return "lambda expression".into();
        }
        let ps: Vec<String> = md.params.iter().map(|p| self.type_name(p.ty)).collect();
        format!("{owner}.{}({})", md.name, ps.join(", "))
    }

    fn bind_goto(&mut self, target: &ast::GotoTarget, span: Span) -> SKind {
        match target {
            ast::GotoTarget::Label(name) => match self.lookup_label(&name.name) {
                Some(l) => SKind::Goto(l),
                None => {
                    let l = self.new_label();
                    self.note_goto(&name.name, l, name.span);
                    SKind::Goto(l)
                }
            },
            ast::GotoTarget::Case(e) => match self.goto_case_label(e) {
                Some(l) => SKind::Goto(l),
                None => {
                    self.error(span, "CS0159", "No such label 'case' within the scope of the goto statement");
                    SKind::Empty
                }
            },
            ast::GotoTarget::Default => match self.switch_default_label() {
                Some(l) => SKind::Goto(l),
                None => {
                    self.error(span, "CS0159", "No such label 'default:' within the scope of the goto statement");
                    SKind::Empty
                }
            },
        }
    }

    fn bind_try(&mut self, block: &ast::Block, catches: &[ast::CatchClause], finally: Option<&ast::Block>) -> SKind {
        let body = self.bind_block(block);
        let exc_type = self.wk().exception;
        let mut bcatches = Vec::new();
        for c in catches {
            self.push_scope();
            let ty = match &c.ty {
                Some(t) => {
                    let t = self.resolve_type(t);
                    if t != TypeId::ERROR && !self.c.meta.is_subtype(t, exc_type) {
                        self.error(c.ty.as_ref().map_or(c.span, |x| x.span), "CS0155", "The type caught or thrown must be derived from System.Exception");
                    }
                    t
                }
                None => exc_type,
            };
            let exception_temp = self.temp(ty, c.span);
            let local = c.name.as_ref().map(|n| self.declare_variable(&n.name, ty, LocalKind::User, n.span));
            let filter = c.filter.as_ref().map(|f| self.bind_condition(f));
            self.catches.push(exception_temp);
            let cbody = self.bind_block(&c.block);
            self.catches.pop();
            let _ = self.pop_scope();
            bcatches.push(BCatch { ty, local, filter, body: Box::new(cbody), exception_temp });
        }
        self.check_catch_order(&bcatches, catches);
        let fin = finally.map(|f| Box::new(self.bind_block(f)));
        SKind::Try { body: Box::new(body), catches: bcatches, finally: fin }
    }

    /// CS0160: a catch after a catch of a base type (without filter) can never run.
    fn check_catch_order(&mut self, bcatches: &[BCatch], syntax: &[ast::CatchClause]) {
        for i in 0..bcatches.len() {
            for j in 0..i {
                if bcatches[j].filter.is_none() && self.c.meta.is_subtype(bcatches[i].ty, bcatches[j].ty) {
                    if syntax[i].ty.is_none() {
                        // `catch { }` after `catch (Exception)` still catches non-exception
                        // throws (from other languages): C# only warns.
                        let message = "A previous catch clause already catches all exceptions. All non-exceptions thrown will be wrapped in a System.Runtime.CompilerServices.RuntimeWrappedException.";
                        let keyword = Span::new(syntax[i].span.start as usize, syntax[i].span.start as usize + "catch".len());
                        self.c.diags.warning(self.file, keyword, "CS1058", message);
                        break;
                    }
                    let prev = self.type_name(bcatches[j].ty);
                    let span = syntax[i].ty.as_ref().map_or(syntax[i].span, |t| t.span);
                    self.error(span, "CS0160", format!("A previous catch clause already catches all exceptions of this or of a super type ('{prev}')"));
                    break;
                }
            }
        }
    }

    // ---- foreach ---------------------------------------------------------------------------

    fn bind_foreach(&mut self, target: &ast::ForeachTarget, collection: &ast::Expr, body: &ast::Stmt, span: Span) -> BStmt {
        let coll = self.bind_expr(collection);
        if coll.is_error() {
            return BStmt::new(SKind::Empty, span);
        }
        self.push_scope();
        let result = if let Some((elem, 1)) = self.c.meta.types.array_elem(coll.ty) {
            self.foreach_indexed(target, coll, elem, body, span, true)
        } else if coll.ty == self.wk().string {
            let ch = self.wk().char;
            self.foreach_indexed(target, coll, ch, body, span, false)
        } else {
            self.foreach_enumerator(target, coll, body, span)
        };
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts: vec![result], locals }, span)
    }

    /// `foreach` over an array or string: an index loop.
    fn foreach_indexed(&mut self, target: &ast::ForeachTarget, coll: BExpr, elem: TypeId, body: &ast::Stmt, span: Span, is_array: bool) -> BStmt {
        let int = self.wk().int32;
        let arr = self.temp(coll.ty, span);
        let idx = self.temp(int, span);
        let arr_e = self.local_expr(arr, span);
        let idx_e = self.local_expr(idx, span);
        let length = if is_array { self.length_of(arr_e.clone(), span) } else { self.string_length(arr_e.clone(), span) };
        let cond = BExpr::new(BKind::Binary { op: BBinOp::Lt, left: Box::new(idx_e.clone()), right: Box::new(length) }, self.wk().boolean, span);
        let current = if is_array {
            BExpr::new(BKind::Elem { array: Box::new(arr_e), indices: vec![idx_e.clone()] }, elem, span)
        } else {
            self.string_char_at(arr_e, idx_e.clone(), span)
        };
        let one = BExpr::new(BKind::Const(ConstVal::Int(1)), int, span);
        let inc = BExpr::new(BKind::Binary { op: BBinOp::Add { checked: false }, left: Box::new(idx_e.clone()), right: Box::new(one) }, int, span);
        let update = BExpr::new(BKind::Assign { target: Box::new(idx_e), value: Box::new(inc) }, int, span);
        let (brk, cont) = (self.new_label(), self.new_label());
        let loop_body = self.foreach_body(target, current, body, brk, cont, span);
        let zero = BExpr::new(BKind::Const(ConstVal::Int(0)), int, span);
        BStmt::new(
            SKind::Block {
                stmts: vec![
                    BStmt::new(SKind::Local { local: arr, init: Some(coll) }, span),
                    BStmt::new(SKind::Local { local: idx, init: Some(zero) }, span),
                    BStmt::new(SKind::Loop { cond: Some(cond), body: Box::new(loop_body), update: vec![update], brk, cont, test_first: true }, span),
                ],
                locals: Vec::new(),
            },
            span,
        )
    }

    /// The per-iteration block: declares the iteration variable(s), then the body.
    pub fn foreach_body(&mut self, target: &ast::ForeachTarget, current: BExpr, body: &ast::Stmt, brk: LabelId, cont: LabelId, span: Span) -> BStmt {
        self.push_scope();
        let mut stmts = Vec::new();
        match target {
            ast::ForeachTarget::Single { ty, name } => {
                let t = if is_var(ty) && self.var_is_keyword() { current.ty } else { self.resolve_type(ty) };
                let v = if t == current.ty { current } else { self.cast(current, t, span) };
                let l = self.declare_variable(&name.name, t, LocalKind::User, name.span);
                stmts.push(BStmt::new(SKind::Local { local: l, init: Some(v) }, span));
            }
            ast::ForeachTarget::Deconstruction(pattern) => {
                stmts.extend(self.bind_deconstruction_declaration(pattern, current, span));
            }
        }
        self.loops.push((brk, Some(cont)));
        stmts.push(self.bind_embedded(body));
        self.loops.pop();
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts, locals }, span)
    }

    /// `foreach` through `GetEnumerator()`/`MoveNext()`/`Current`, disposing the
    /// enumerator in a `finally`.
    fn foreach_enumerator(&mut self, target: &ast::ForeachTarget, coll: BExpr, body: &ast::Stmt, span: Span) -> BStmt {
        let get_enum = self.call_member_no_args(coll.clone(), "GetEnumerator", span);
        let Some(get_enum) = get_enum else {
            let shown = self.type_name(coll.ty);
            self.error(span, "CS1579", format!("foreach statement cannot operate on variables of type '{shown}' because '{shown}' does not contain a public instance or extension definition for 'GetEnumerator'"));
            return BStmt::new(SKind::Empty, span);
        };
        let e_ty = get_enum.ty;
        let e = self.temp(e_ty, span);
        let e_expr = self.local_expr(e, span);
        let Some(move_next) = self.call_member_no_args(e_expr.clone(), "MoveNext", span) else { return BStmt::new(SKind::Empty, span) };
        let current = match self.lookup_member(e_ty, "Current") {
            Some(super::lookup::Member::Property(p, owner)) => {
                let pa = super::expr::PropertyAccess { prop: p, owner, receiver: Some(Box::new(e_expr.clone())), args: Vec::new(), is_base: false, span };
                self.read_property(pa)
            }
            _ => {
                self.error(span, "CS0117", format!("'{}' does not contain a definition for 'Current'", self.c.meta.cs_short_name(e_ty)));
                return BStmt::new(SKind::Empty, span);
            }
        };
        let (brk, cont) = (self.new_label(), self.new_label());
        let loop_body = self.foreach_body(target, current, body, brk, cont, span);
        let the_loop = BStmt::new(SKind::Loop { cond: Some(move_next), body: Box::new(loop_body), update: Vec::new(), brk, cont, test_first: true }, span);
        let decl = BStmt::new(SKind::Local { local: e, init: Some(get_enum) }, span);
        let stmts = match self.dispose_call(e_expr.clone(), span).or_else(|| self.dispose_if_disposable(e_expr, span)) {
            Some(dispose) => vec![decl, BStmt::new(SKind::Try { body: Box::new(the_loop), catches: Vec::new(), finally: Some(Box::new(dispose)) }, span)],
            None => vec![decl, the_loop],
        };
        BStmt::new(SKind::Block { stmts, locals: Vec::new() }, span)
    }

    /// `recv.Name()` resolved like an invocation without arguments (`None` if there is no
    /// such member).
    pub fn call_member_no_args(&mut self, recv: BExpr, name: &str, span: Span) -> Option<BExpr> {
        // An extension method counts too (`await 5` with a `GetAwaiter(this int)` in scope).
        let methods = match self.lookup_member(recv.ty, name) {
            Some(super::lookup::Member::Methods(methods)) => methods,
            _ if !self.extension_methods(name).is_empty() => Vec::new(),
            _ => return None,
        };
        let g = super::expr::MethodGroup {
            name: name.to_string(),
            methods,
            receiver: Some(Box::new(recv)),
            type_args: Vec::new(),
            is_base: false,
            nested: None,
            span,
            name_span: span,
        };
        let v = self.bind_group_call(g, &[], span);
        (!v.is_error()).then_some(v)
    }

    /// `if (x != null) ((IDisposable)x).Dispose();` when the type is disposable.
    fn dispose_call(&mut self, x: BExpr, span: Span) -> Option<BStmt> {
        let idisp = self.wk().idisposable;
        let is_param = self.is_type_param(x.ty);
        let is_disposable = self.c.meta.is_subtype(x.ty, idisp) || (is_param && self.param_converts_to(x.ty, idisp));
        if !is_disposable {
            return None;
        }
        let def = self.c.meta.types.def_of(idisp)?;
        let dispose = self.c.meta.type_def(def).methods.iter().copied().find(|&m| self.c.meta.method(m).name == "Dispose")?;
        let is_value = self.c.meta.is_value_type(x.ty);
        // A type parameter not known to be a reference type may hold a struct: box it.
        let boxes = is_value || (is_param && !self.is_reference_type(x.ty));
        let recv = if boxes { self.box_if_value(x.clone()) } else { retyped(x.clone(), idisp) };
        let call = BExpr::new(
            BKind::Call { method: dispose, owner: idisp, type_args: Vec::new(), receiver: Some(Box::new(recv)), args: Vec::new(), is_virtual: true },
            TypeId::VOID,
            span,
        );
        let stmt = BStmt::new(SKind::Expr(call), span);
        if is_value {
            return Some(stmt);
        }
        let null = BExpr::new(BKind::Const(ConstVal::Null), x.ty, span);
        let cond = BExpr::new(BKind::Binary { op: BBinOp::Ne, left: Box::new(x), right: Box::new(null) }, self.wk().boolean, span);
        Some(BStmt::new(SKind::If { cond, then: Box::new(stmt), otherwise: None }, span))
    }

    /// `if (e is IDisposable d) d.Dispose();` for an enumerator whose static type does not
    /// say (a non-generic `IEnumerator`), as `foreach` does.
    fn dispose_if_disposable(&mut self, e: BExpr, span: Span) -> Option<BStmt> {
        let sealed = self.c.meta.types.def_of(e.ty).is_some_and(|d| {
            let def = self.c.meta.type_def(d);
            def.is_value_type() || def.flags.has(crate::metadata::Flags::SEALED)
        });
        if sealed {
            return None;
        }
        let idisp = self.wk().idisposable;
        let as_disposable = BExpr::new(BKind::As { operand: Box::new(e), target: idisp }, idisp, span);
        let d = self.temp(idisp, span);
        let decl = BStmt::new(SKind::Local { local: d, init: Some(as_disposable) }, span);
        let check = self.dispose_call(self.local_expr(d, span), span)?;
        Some(BStmt::new(SKind::Block { stmts: vec![decl, check], locals: Vec::new() }, span))
    }

    // ---- using and lock ------------------------------------------------------------------

    fn bind_using(&mut self, is_await: bool, resource: &ast::UsingResource, body: &ast::Stmt, span: Span) -> BStmt {
        self.push_scope();
        let (decls, resources, resource_span) = match resource {
            ast::UsingResource::Decl(d) => {
                let decl = self.bind_local_decl(d, span);
                let locals = self.scope_locals_tail(d.declarators.len());
                (vec![decl], locals, d.span)
            }
            ast::UsingResource::Expr(e) => {
                let v = self.bind_expr(e);
                let t = self.temp(v.ty, span);
                (vec![BStmt::new(SKind::Local { local: t, init: Some(v) }, span)], vec![t], e.span)
            }
        };
        let inner = self.bind_embedded(body);
        let wrapped = self.wrap_disposals(inner, &resources, if is_await { Some(resource_span) } else { None }, span);
        let locals = self.pop_scope();
        let mut stmts = decls;
        stmts.push(wrapped);
        BStmt::new(SKind::Block { stmts, locals }, span)
    }

    /// The last `n` locals declared in the current scope.
    fn scope_locals_tail(&self, n: usize) -> Vec<LocalId> {
        let total = self.locals.len();
        (total.saturating_sub(n)..total).map(|i| LocalId(i as u32)).filter(|l| self.locals[l.0 as usize].kind == LocalKind::User).collect()
    }

    /// `try { inner } finally { dispose each resource, last first }`; `awaited` (the
    /// resource's span) for `await using`, which awaits `DisposeAsync()`.
    fn wrap_disposals(&mut self, inner: BStmt, resources: &[LocalId], awaited: Option<Span>, span: Span) -> BStmt {
        let mut body = inner;
        for &r in resources.iter().rev() {
            let e = self.local_expr(r, span);
            let dispose = match awaited {
                Some(_) if !self.func.is_async => {
                    self.bind_await_of(e.clone(), span);
                    return body;
                }
                Some(_) => self.async_dispose_call(e.clone(), span),
                None => self.dispose_call(e.clone(), span),
            };
            match dispose {
                Some(d) => body = BStmt::new(SKind::Try { body: Box::new(body), catches: Vec::new(), finally: Some(Box::new(d)) }, span),
                None if e.is_error() => {}
                None if awaited.is_some() => self.report_not_async_disposable(e.ty, awaited.unwrap_or(span)),
                None => {
                    let shown = self.type_name(e.ty);
                    self.error(span, "CS1674", format!("'{shown}': type used in a using statement must implement 'System.IDisposable'."));
                }
            }
        }
        body
    }

    /// `using var x = ...;` followed by the rest of the block.
    fn bind_using_var(&mut self, d: &ast::LocalVarDecl, rest: &[ast::Stmt], span: Span, is_await: bool) -> BStmt {
        let decl = self.bind_local_decl(d, span);
        let resources = self.scope_locals_tail(d.declarators.len());
        let rest_stmts = self.bind_stmt_list(rest);
        let rest_span = rest.first().map_or(span, |s| s.span.to(rest.last().map_or(s.span, |l| l.span)));
        let inner = BStmt::new(SKind::Block { stmts: rest_stmts, locals: Vec::new() }, rest_span);
        let declaration = Span { start: d.ty.span.start, end: d.span.end };
        let wrapped = self.wrap_disposals(inner, &resources, is_await.then_some(declaration), span);
        BStmt::new(SKind::Block { stmts: vec![decl, wrapped], locals: Vec::new() }, span)
    }

    /// `lock (x) body` → `Monitor.Enter(x, ref taken); try { body } finally { if (taken)
    /// Monitor.Exit(x); }`.
    fn bind_lock(&mut self, expr: &ast::Expr, body: &ast::Stmt, span: Span) -> BStmt {
        let v = self.bind_expr(expr);
        if !v.is_error() && self.c.meta.is_value_type(v.ty) {
            let shown = self.type_name(v.ty);
            self.error(expr.span, "CS0185", format!("'{shown}' is not a reference type as required by the lock statement"));
        }
        let obj = self.wk().object;
        let boolean = self.wk().boolean;
        self.push_scope();
        let tmp = self.temp(obj, span);
        let taken = self.temp(boolean, span);
        self.mark_address_taken(taken);
        let inner = self.bind_embedded(body);
        let monitor = self.c.namespaces.find_type("System.Threading", "Monitor", 0);
        let find = |b: &Self, name: &str, n: usize| {
            monitor
                .and_then(|d| b.c.meta.type_def(d).methods.iter().copied().find(|&m| b.c.meta.method(m).name == name && b.c.meta.method(m).params.len() == n))
        };
        let (Some(enter), Some(exit), Some(mdef)) = (find(self, "Enter", 2), find(self, "Exit", 1), monitor) else {
            let _ = self.pop_scope();
            return inner;
        };
        let mtype = self.c.meta.types.named(mdef, &[]);
        let tmp_e = self.local_expr(tmp, span);
        let taken_e = self.local_expr(taken, span);
        let enter_call = BExpr::new(
            BKind::Call {
                method: enter,
                owner: mtype,
                type_args: Vec::new(),
                receiver: None,
                args: vec![super::value_arg(tmp_e.clone()), BArg { expr: taken_e.clone(), kind: ArgKind::Ref }],
                is_virtual: false,
            },
            TypeId::VOID,
            span,
        );
        let exit_call = BExpr::new(
            BKind::Call { method: exit, owner: mtype, type_args: Vec::new(), receiver: None, args: vec![super::value_arg(tmp_e)], is_virtual: false },
            TypeId::VOID,
            span,
        );
        let fin = BStmt::new(SKind::If { cond: taken_e, then: Box::new(BStmt::new(SKind::Expr(exit_call), span)), otherwise: None }, span);
        let try_body = BStmt::new(SKind::Block { stmts: vec![BStmt::new(SKind::Expr(enter_call), span), inner], locals: Vec::new() }, span);
        let v = self.coerce(v, obj);
        let f = BExpr::new(BKind::Const(ConstVal::Bool(false)), boolean, span);
        let stmts = vec![
            BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span),
            BStmt::new(SKind::Local { local: taken, init: Some(f) }, span),
            BStmt::new(SKind::Try { body: Box::new(try_body), catches: Vec::new(), finally: Some(Box::new(fin)) }, span),
        ];
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts, locals }, span)
    }

    // ---- helpers for lowered code ----------------------------------------------------------

    pub fn length_of(&mut self, arr: BExpr, span: Span) -> BExpr {
        let array_t = self.wk().array;
        let int = self.wk().int32;
        match self.lookup_member(array_t, "Length") {
            Some(super::lookup::Member::Property(p, owner)) => {
                let recv = retyped(arr, array_t);
                self.read_property(super::expr::PropertyAccess { prop: p, owner, receiver: Some(Box::new(recv)), args: Vec::new(), is_base: false, span })
            }
            _ => BExpr::new(BKind::Const(ConstVal::Int(0)), int, span),
        }
    }

    fn string_length(&mut self, s: BExpr, span: Span) -> BExpr {
        let st = self.wk().string;
        match self.lookup_member(st, "Length") {
            Some(super::lookup::Member::Property(p, owner)) => {
                self.read_property(super::expr::PropertyAccess { prop: p, owner, receiver: Some(Box::new(s)), args: Vec::new(), is_base: false, span })
            }
            _ => BExpr::error(span),
        }
    }

    fn string_char_at(&mut self, s: BExpr, i: BExpr, span: Span) -> BExpr {
        let st = self.wk().string;
        let idx = self.lookup_indexers(st);
        match idx.first().and_then(|&(p, _)| self.c.meta.property(p).getter) {
            Some(getter) => BExpr::new(
                BKind::Call {
                    method: getter,
                    owner: st,
                    type_args: Vec::new(),
                    receiver: Some(Box::new(s)),
                    args: vec![super::value_arg(i)],
                    is_virtual: false,
                },
                self.wk().char,
                span,
            ),
            None => BExpr::error(span),
        }
    }

    /// Whether a type is a class or interface (for messages about reference types).
    pub fn is_class_like(&self, t: TypeId) -> bool {
        matches!(self.def_kind(t), Some(TypeDefKind::Class | TypeDefKind::Interface | TypeDefKind::Delegate))
    }
}
