//! Small analyses over syntax and bound statements: "does this contain an `await`",
//! "does it return a value", "can control reach the end".

use crate::compiler::bound::{BKind, BStmt, LabelId, SKind};
use grammar::ast::{self, ExprKind, StmtKind};

/// Whether a top-level statement contains `await` outside nested lambdas and local
/// functions.
pub fn stmt_contains_await(s: &ast::Stmt) -> bool {
    let found = std::cell::Cell::new(false);
    visit_stmt(
        s,
        &mut |e| {
            if matches!(e.kind, ExprKind::Await(_)) {
                found.set(true);
            }
        },
        &mut |st| {
            if let StmtKind::Foreach { is_await: true, .. } = st.kind {
                found.set(true);
            }
        },
    );
    found.get()
}

/// Whether a block is an iterator's body: it has `yield return` or `yield break` outside
/// nested functions.
pub fn block_is_iterator(b: &ast::Block) -> bool {
    let mut found = false;
    for s in &b.stmts {
        visit_stmt(s, &mut |_| {}, &mut |st| {
            if matches!(st.kind, StmtKind::YieldReturn(_) | StmtKind::YieldBreak) {
                found = true;
            }
        });
    }
    found
}

/// Whether a top-level statement has `return expr;` (outside nested functions).
pub fn stmt_returns_value(s: &ast::Stmt) -> bool {
    let mut found = false;
    visit_stmt(s, &mut |_| {}, &mut |st| {
        if let StmtKind::Return(Some(_)) = st.kind {
            found = true;
        }
    });
    found
}

/// Walks statements and expressions, not descending into lambdas or local functions.
fn visit_stmt(s: &ast::Stmt, fe: &mut dyn FnMut(&ast::Expr), fs: &mut dyn FnMut(&ast::Stmt)) {
    fs(s);
    match &s.kind {
        StmtKind::Block(b) => b.stmts.iter().for_each(|x| visit_stmt(x, fe, fs)),
        StmtKind::Expr(e) | StmtKind::YieldReturn(e) => visit_expr(e, fe),
        StmtKind::LocalVar(d) => d.declarators.iter().filter_map(|d| d.init.as_ref()).for_each(|e| visit_expr(e, fe)),
        StmtKind::If { cond, then, otherwise } => {
            visit_expr(cond, fe);
            visit_stmt(then, fe, fs);
            if let Some(o) = otherwise {
                visit_stmt(o, fe, fs);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            visit_expr(cond, fe);
            visit_stmt(body, fe, fs);
        }
        StmtKind::For { init, cond, update, body } => {
            match init {
                ast::ForInit::Decl(d) => d.declarators.iter().filter_map(|d| d.init.as_ref()).for_each(|e| visit_expr(e, fe)),
                ast::ForInit::Exprs(es) => es.iter().for_each(|e| visit_expr(e, fe)),
                ast::ForInit::None => {}
            }
            if let Some(c) = cond {
                visit_expr(c, fe);
            }
            update.iter().for_each(|e| visit_expr(e, fe));
            visit_stmt(body, fe, fs);
        }
        StmtKind::Foreach { collection, body, .. } => {
            visit_expr(collection, fe);
            visit_stmt(body, fe, fs);
        }
        StmtKind::Switch { expr, sections } => {
            visit_expr(expr, fe);
            for sec in sections {
                sec.stmts.iter().for_each(|x| visit_stmt(x, fe, fs));
            }
        }
        StmtKind::Return(Some(e)) | StmtKind::Throw(Some(e)) => visit_expr(e, fe),
        StmtKind::Labeled { stmt, .. } => visit_stmt(stmt, fe, fs),
        StmtKind::Try { block, catches, finally } => {
            block.stmts.iter().for_each(|x| visit_stmt(x, fe, fs));
            for c in catches {
                c.block.stmts.iter().for_each(|x| visit_stmt(x, fe, fs));
            }
            if let Some(f) = finally {
                f.stmts.iter().for_each(|x| visit_stmt(x, fe, fs));
            }
        }
        StmtKind::Using { resource, body, .. } => {
            match resource {
                ast::UsingResource::Decl(d) => d.declarators.iter().filter_map(|d| d.init.as_ref()).for_each(|e| visit_expr(e, fe)),
                ast::UsingResource::Expr(e) => visit_expr(e, fe),
            }
            visit_stmt(body, fe, fs);
        }
        StmtKind::Lock { expr, body } => {
            visit_expr(expr, fe);
            visit_stmt(body, fe, fs);
        }
        StmtKind::Checked(_, b) => b.stmts.iter().for_each(|x| visit_stmt(x, fe, fs)),
        _ => {}
    }
}

fn visit_expr(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(e);
    let mut go = |x: &ast::Expr| visit_expr(x, f);
    match &e.kind {
        ExprKind::Lambda(_) | ExprKind::AnonymousMethod(_) => {}
        ExprKind::Interpolated(parts) => {
            for p in parts {
                if let ast::InterpolationPart::Hole { expr, alignment, .. } = p {
                    go(expr);
                    if let Some(a) = alignment {
                        go(a);
                    }
                }
            }
        }
        ExprKind::Member { target, .. } => go(target),
        ExprKind::Index { target, args, .. } | ExprKind::Call { target, args } => {
            go(target);
            args.iter().for_each(|a| go(&a.expr));
        }
        ExprKind::New { args, init, .. } => {
            args.iter().for_each(|a| go(&a.expr));
            if let Some(i) = init {
                visit_init(i, &mut go);
            }
        }
        ExprKind::NewArray { sizes, init, .. } => {
            sizes.iter().for_each(&mut go);
            init.iter().flatten().for_each(&mut go);
        }
        ExprKind::Collection(els) => {
            for el in els {
                match el {
                    ast::CollectionElement::Expr(x) | ast::CollectionElement::Spread(x) => go(x),
                }
            }
        }
        ExprKind::InitializerList(xs) => xs.iter().for_each(&mut go),
        ExprKind::NewAnonymous(ms) => ms.iter().for_each(|m| go(&m.value)),
        ExprKind::StackAlloc(array) => go(array),
        ExprKind::Unary { operand, .. } | ExprKind::Postfix { operand, .. } => go(operand),
        ExprKind::Binary { left, right, .. } => {
            go(left);
            go(right);
        }
        ExprKind::Assign { target, value, .. } => {
            go(target);
            go(value);
        }
        ExprKind::Conditional { cond, then, otherwise } => {
            go(cond);
            go(then);
            go(otherwise);
        }
        ExprKind::Cast { expr, .. }
        | ExprKind::As { expr, .. }
        | ExprKind::Await(expr)
        | ExprKind::Checked(_, expr)
        | ExprKind::Throw(expr)
        | ExprKind::Nameof(expr)
        | ExprKind::IndexFromEnd(expr) => go(expr),
        ExprKind::Is { expr, .. } => go(expr),
        ExprKind::Switch { expr, arms } => {
            go(expr);
            for a in arms {
                if let Some(g) = &a.guard {
                    go(g);
                }
                go(&a.value);
            }
        }
        ExprKind::Tuple(args) => args.iter().for_each(|a| go(&a.expr)),
        ExprKind::With { expr, init } => {
            go(expr);
            for m in init {
                if let ast::InitValue::Expr(x) = &m.value {
                    go(x);
                }
            }
        }
        ExprKind::Range(a, b) => {
            if let Some(a) = a {
                go(a);
            }
            if let Some(b) = b {
                go(b);
            }
        }
        _ => {}
    }
}

fn visit_init(i: &ast::Initializer, go: &mut dyn FnMut(&ast::Expr)) {
    match i {
        ast::Initializer::Object(ms) => {
            for m in ms {
                if let ast::InitTarget::Index(args) = &m.target {
                    args.iter().for_each(|a| go(&a.expr));
                }
                match &m.value {
                    ast::InitValue::Expr(x) => go(x),
                    ast::InitValue::Nested(n) => visit_init(n, go),
                }
            }
        }
        ast::Initializer::Collection(xs) => xs.iter().for_each(go),
    }
}

/// Whether control can reach the end of a bound statement (a conservative reachability
/// analysis in the spirit of C#'s: loops with constant-true conditions and no `break`
/// never complete; `return`/`throw`/`goto` never do).
pub fn can_complete(s: &BStmt) -> bool {
    match &s.kind {
        SKind::Return(_) | SKind::YieldBreak | SKind::Throw(_) | SKind::Rethrow(_) | SKind::Goto(_) => false,
        SKind::Switch { .. } => false,
        SKind::Block { stmts, .. } => block_can_complete(stmts),
        SKind::If { cond, then, otherwise } => {
            if is_const_bool(cond, true) {
                return can_complete(then);
            }
            match otherwise {
                Some(o) => can_complete(then) || can_complete(o),
                None => true,
            }
        }
        SKind::Loop { cond, brk, body, .. } => {
            let infinite = cond.as_ref().is_none_or(|c| is_const_bool(c, true));
            !infinite || contains_goto(body, *brk)
        }
        SKind::Try { body, catches, finally } => {
            if finally.as_ref().is_some_and(|f| !can_complete(f)) {
                return false;
            }
            can_complete(body) || catches.iter().any(|c| can_complete(&c.body))
        }
        SKind::Expr(e) => !matches!(e.kind, BKind::Throw(_)),
        _ => true,
    }
}

/// A statement list completes unless some statement cannot complete and no label after it
/// is the target of a jump in a reachable statement (found by iterating to a fixed point,
/// for jumps backwards).
fn block_can_complete(stmts: &[BStmt]) -> bool {
    let labels: Vec<LabelId> = stmts.iter().filter_map(leading_label).collect();
    let mut targeted: Vec<LabelId> = Vec::new();
    loop {
        let known = targeted.len();
        let mut reachable = true;
        for s in stmts {
            if leading_label(s).is_some_and(|l| targeted.contains(&l)) {
                reachable = true;
            }
            if !reachable {
                continue;
            }
            for &l in &labels {
                if !targeted.contains(&l) && contains_goto(s, l) {
                    targeted.push(l);
                }
            }
            reachable = can_complete(s);
        }
        if targeted.len() == known {
            return reachable;
        }
    }
}

/// The label a statement starts with: a label, or a labeled statement (a block whose first
/// statement is its label).
fn leading_label(s: &BStmt) -> Option<LabelId> {
    match &s.kind {
        SKind::Label(l) => Some(*l),
        SKind::Block { stmts, .. } => stmts.first().and_then(leading_label),
        _ => None,
    }
}

fn is_const_bool(e: &crate::compiler::bound::BExpr, v: bool) -> bool {
    matches!(e.kind, BKind::Const(crate::compiler::bound::ConstVal::Bool(b)) if b == v)
}

fn contains_goto(s: &BStmt, label: LabelId) -> bool {
    match &s.kind {
        SKind::Goto(l) => *l == label,
        SKind::Block { stmts, .. } => stmts.iter().any(|x| contains_goto(x, label)),
        SKind::If { then, otherwise, .. } => contains_goto(then, label) || otherwise.as_ref().is_some_and(|o| contains_goto(o, label)),
        SKind::Loop { body, .. } => contains_goto(body, label),
        SKind::Try { body, catches, finally } => {
            contains_goto(body, label) || catches.iter().any(|c| contains_goto(&c.body, label)) || finally.as_ref().is_some_and(|f| contains_goto(f, label))
        }
        SKind::Switch { targets, default, .. } => targets.contains(&label) || *default == label,
        _ => false,
    }
}
