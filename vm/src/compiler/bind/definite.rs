//! Definite assignment (C# §9.4), for CS0165 "Use of unassigned local variable". A forward
//! walk over a bound body keeps the set of locals assigned on every path; conditions split
//! it into "when true" and "when false" states (`x != null && int.TryParse(s, out n)`),
//! jumps carry it to their labels, and a point no path reaches counts as having everything
//! assigned. Locals of struct types are not tracked (C# tracks their fields one by one;
//! skipping them can only miss an error, never invent one), nor is anything inside lambdas.

use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::{MethodId, ParamKind, TypeId};
use hashbrown::{HashMap, HashSet};

/// Locals assigned on every path to a point; `None` where no path arrives.
#[derive(Clone, Debug, PartialEq)]
struct State(Option<Vec<bool>>);

impl State {
    fn unreachable() -> State {
        State(None)
    }

    fn is_assigned(&self, l: LocalId) -> bool {
        self.0.as_ref().is_none_or(|s| s.get(l.0 as usize).copied().unwrap_or(true))
    }

    fn assign(&mut self, l: LocalId) {
        if let Some(s) = &mut self.0 {
            if let Some(b) = s.get_mut(l.0 as usize) {
                *b = true;
            }
        }
    }

    /// Where two paths join: assigned only if assigned on both.
    fn join(&self, other: &State) -> State {
        match (&self.0, &other.0) {
            (None, _) => other.clone(),
            (_, None) => self.clone(),
            (Some(a), Some(b)) => State(Some(a.iter().zip(b).map(|(x, y)| *x && *y).collect())),
        }
    }

    /// After a `finally`: what the protected code assigned plus what the `finally` did.
    fn union(&self, other: &State) -> State {
        match (&self.0, &other.0) {
            (None, _) | (_, None) => State(None),
            (Some(a), Some(b)) => State(Some(a.iter().zip(b).map(|(x, y)| *x || *y).collect())),
        }
    }
}

struct Flow<'a, 'b> {
    binder: &'a mut MethodBinder<'b>,
    /// States arriving at each label by a jump.
    at_label: HashMap<LabelId, State>,
    reported: HashSet<LocalId>,
}

impl MethodBinder<'_> {
    /// Reports reads of locals that are not definitely assigned in `body`.
    pub fn check_definite_assignment(&mut self, body: &BStmt) {
        let initial: Vec<bool> = (0..self.locals.len()).map(|i| !self.tracks_assignment(LocalId(i as u32))).collect();
        let mut flow = Flow { binder: self, at_label: HashMap::new(), reported: HashSet::new() };
        flow.stmt(body, State(Some(initial)));
    }

    /// Whether a local starts out unassigned and is checked: a named local of the current
    /// function whose type is not a struct.
    fn tracks_assignment(&self, l: LocalId) -> bool {
        let info = &self.locals[l.0 as usize];
        if info.kind != LocalKind::User || info.owner != 0 {
            return false;
        }
        let is_struct = self.c.meta.is_value_type(info.ty) && self.prim(info.ty).is_none() && !self.is_enum(info.ty) && self.nullable_inner(info.ty).is_none();
        !is_struct && info.ty != TypeId::ERROR
    }
}

impl Flow<'_, '_> {
    fn stmt(&mut self, s: &BStmt, state: State) -> State {
        match &s.kind {
            SKind::Expr(e) => self.expr(e, state),
            SKind::Block { stmts, .. } => stmts.iter().fold(state, |st, x| self.stmt(x, st)),
            SKind::Local { local, init } => {
                let mut st = match init {
                    Some(e) => self.expr(e, state),
                    None => state,
                };
                if init.is_some() {
                    st.assign(*local);
                }
                st
            }
            SKind::If { cond, then, otherwise } => {
                let (t, f) = self.condition(cond, state);
                let after_then = self.stmt(then, t);
                let after_else = match otherwise {
                    Some(o) => self.stmt(o, f),
                    None => f,
                };
                after_then.join(&after_else)
            }
            SKind::Loop { cond, body, update, brk, cont, test_first } => self.loop_stmt(cond.as_ref(), body, update, *brk, *cont, *test_first, state),
            SKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e, state);
                }
                State::unreachable()
            }
            SKind::Throw(e) => {
                self.expr(e, state);
                State::unreachable()
            }
            SKind::YieldReturn(e) => self.expr(e, state),
            SKind::YieldBreak | SKind::Rethrow(_) => State::unreachable(),
            SKind::Try { body, catches, finally } => self.try_stmt(body, catches, finally.as_deref(), state),
            SKind::Label(l) => match self.at_label.get(l) {
                Some(arriving) => state.join(arriving),
                None => state,
            },
            SKind::Goto(l) => {
                self.jump_to(*l, &state);
                State::unreachable()
            }
            SKind::Switch { value, targets, default, .. } => {
                let st = self.expr(value, state);
                for &t in targets.iter().chain(std::iter::once(default)) {
                    self.jump_to(t, &st);
                }
                State::unreachable()
            }
            SKind::LocalFunction(_) | SKind::Empty => state,
        }
    }

    fn jump_to(&mut self, l: LabelId, state: &State) {
        let joined = match self.at_label.get(&l) {
            Some(prev) => prev.join(state),
            None => state.clone(),
        };
        self.at_label.insert(l, joined);
    }

    #[allow(clippy::too_many_arguments)]
    fn loop_stmt(&mut self, cond: Option<&BExpr>, body: &BStmt, update: &[BExpr], brk: LabelId, cont: LabelId, test_first: bool, state: State) -> State {
        let leaving = if test_first {
            let (t, f) = match cond {
                Some(c) => self.condition(c, state),
                None => (state, State::unreachable()),
            };
            let end = self.stmt(body, t);
            let end = self.stmt(&BStmt::new(SKind::Label(cont), body.span), end);
            update.iter().fold(end, |st, u| self.expr(u, st));
            f
        } else {
            let end = self.stmt(body, state);
            let end = self.stmt(&BStmt::new(SKind::Label(cont), body.span), end);
            match cond {
                Some(c) => self.condition(c, end).1,
                None => State::unreachable(),
            }
        };
        self.stmt(&BStmt::new(SKind::Label(brk), body.span), leaving)
    }

    fn try_stmt(&mut self, body: &BStmt, catches: &[BCatch], finally: Option<&BStmt>, state: State) -> State {
        let mut after = self.stmt(body, state.clone());
        for c in catches {
            let mut st = state.clone();
            if let Some(l) = c.local {
                st.assign(l);
            }
            if let Some(f) = &c.filter {
                st = self.condition(f, st).0;
            }
            let end = self.stmt(&c.body, st);
            after = after.join(&end);
        }
        match finally {
            Some(f) => {
                let fin = self.stmt(f, state);
                after.union(&fin)
            }
            None => after,
        }
    }

    /// A boolean condition: the states when it is true and when it is false.
    fn condition(&mut self, e: &BExpr, state: State) -> (State, State) {
        match &e.kind {
            BKind::Const(ConstVal::Bool(true)) => (state, State::unreachable()),
            BKind::Const(ConstVal::Bool(false)) => (State::unreachable(), state),
            BKind::AndAlso(a, b) => {
                let (at, af) = self.condition(a, state);
                let (bt, bf) = self.condition(b, at);
                (bt, af.join(&bf))
            }
            BKind::OrElse(a, b) => {
                let (at, af) = self.condition(a, state);
                let (bt, bf) = self.condition(b, af);
                (at.join(&bt), bf)
            }
            BKind::Unary { op: BUnOp::Not, operand } => {
                let (t, f) = self.condition(operand, state);
                (f, t)
            }
            BKind::Seq { stmts, value } => {
                let st = stmts.iter().fold(state, |st, s| self.stmt(s, st));
                self.condition(value, st)
            }
            _ => {
                let st = self.expr(e, state);
                (st.clone(), st)
            }
        }
    }

    fn read(&mut self, l: LocalId, state: &State, span: grammar::span::Span) {
        if state.is_assigned(l) || !self.reported.insert(l) {
            return;
        }
        let name = self.binder.locals[l.0 as usize].name.clone();
        self.binder.error(span, "CS0165", format!("Use of unassigned local variable '{name}'"));
    }

    fn exprs(&mut self, es: &[BExpr], state: State) -> State {
        es.iter().fold(state, |st, e| self.expr(e, st))
    }

    /// Arguments in order; a local passed to an `out` parameter is assigned by the call.
    fn args(&mut self, method: Option<MethodId>, args: &[BArg], state: State) -> (State, Vec<LocalId>) {
        let mut st = state;
        let mut outs = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let is_out = a.kind == ArgKind::Ref && method.is_some_and(|m| self.binder.c.meta.method(m).params.get(i).is_some_and(|p| p.kind == ParamKind::Out));
            match (&a.expr.kind, is_out) {
                (BKind::Local(l), true) => outs.push(*l),
                _ => st = self.expr(&a.expr, st),
            }
        }
        (st, outs)
    }

    fn expr(&mut self, e: &BExpr, state: State) -> State {
        match &e.kind {
            BKind::Local(l) => {
                self.read(*l, &state, e.span);
                state
            }
            BKind::Assign { target, value } => match &target.kind {
                BKind::Local(l) => {
                    let mut st = self.expr(value, state);
                    st.assign(*l);
                    st
                }
                _ => {
                    let st = self.lvalue_parts(target, state);
                    self.expr(value, st)
                }
            },
            BKind::Call { method, receiver, args, .. } => {
                let st = match receiver {
                    Some(r) => self.expr(r, state),
                    None => state,
                };
                let (mut st, outs) = self.args(Some(*method), args, st);
                outs.into_iter().for_each(|l| st.assign(l));
                st
            }
            BKind::New { ctor, args } => {
                let (mut st, outs) = self.args(*ctor, args, state);
                outs.into_iter().for_each(|l| st.assign(l));
                st
            }
            BKind::CallNested { args, .. } => self.args(None, args, state).0,
            BKind::Invoke { delegate, args } => {
                let st = self.expr(delegate, state);
                self.args(None, args, st).0
            }
            BKind::Cond { cond, then, otherwise } => {
                let (t, f) = self.condition(cond, state);
                let a = self.expr(then, t);
                let b = self.expr(otherwise, f);
                a.join(&b)
            }
            BKind::AndAlso(..) | BKind::OrElse(..) => {
                let (t, f) = self.condition(e, state);
                t.join(&f)
            }
            BKind::Coalesce(a, b) => {
                let st = self.expr(a, state);
                self.expr(b, st.clone());
                st
            }
            BKind::ConditionalAccess { receiver, access, temp } => {
                let mut st = self.expr(receiver, state);
                st.assign(*temp);
                self.expr(access, st.clone());
                st
            }
            BKind::Seq { stmts, value } => {
                let st = stmts.iter().fold(state, |st, s| self.stmt(s, st));
                self.expr(value, st)
            }
            BKind::Field { receiver, .. } => match receiver {
                Some(r) => self.expr(r, state),
                None => state,
            },
            BKind::Elem { array, indices } => {
                let st = self.expr(array, state);
                self.exprs(indices, st)
            }
            BKind::NewArray { sizes } => self.exprs(sizes, state),
            BKind::ArrayLiteral { elems } | BKind::Concat(elems) => self.exprs(elems, state),
            BKind::DelegateNew { target, .. } => match target {
                Some(t) => self.expr(t, state),
                None => state,
            },
            BKind::Unary { operand, .. } | BKind::Conv { operand, .. } | BKind::TypeTest { operand, .. } | BKind::As { operand, .. } => {
                self.expr(operand, state)
            }
            BKind::Format { value, .. } | BKind::Throw(value) => self.expr(value, state),
            BKind::Align { value, alignment } => {
                let st = self.expr(value, state);
                self.expr(alignment, st)
            }
            BKind::Binary { left, right, .. } => {
                let st = self.expr(left, state);
                self.expr(right, st)
            }
            BKind::RefOf(target) => self.lvalue_parts(target, state),
            BKind::Deref(reference) => self.expr(reference, state),
            BKind::Await(parts) => self.expr(&parts.operand, state),
            BKind::Const(_)
            | BKind::Default
            | BKind::This
            | BKind::TypeOf(_)
            | BKind::Closure(_)
            | BKind::MakeIterator { .. }
            | BKind::StartAsync { .. }
            | BKind::StartStateMachine
            | BKind::Error => state,
        }
    }

    /// The parts of an assignment target that are read (receiver, indices), not the
    /// variable itself.
    fn lvalue_parts(&mut self, target: &BExpr, state: State) -> State {
        match &target.kind {
            BKind::Local(_) => state,
            BKind::Field { receiver: Some(r), .. } => match &r.kind {
                // `s.X = 1` on a struct local does not read `s`.
                BKind::Local(_) if self.binder.c.meta.is_value_type(r.ty) => state,
                _ => self.expr(r, state),
            },
            _ => self.expr(target, state),
        }
    }
}
