//! Async iterators (`async IAsyncEnumerable<T>` / `IAsyncEnumerator<T>` methods with `yield
//! return`), lowered as Roslyn lowers them under either `--lowering`: .NET 11's runtime async
//! leaves async iterators to the compiler's state machine (see ARCHITECTURE.md). The method
//! becomes a kickoff that creates `<M>d__N` with state -2 and the arguments in `<>3__p`
//! fields; the body becomes `MoveNext`, the classic async `MoveNext` (`emit/classic.rs`:
//! awaits through `AsyncIteratorMethodBuilder`, hoisting by liveness, `finally` guards) plus
//! Roslyn's yield states: `yield return v` stores `<>2__current`, sets state `-4 - j`, saves
//! what is live, completes `<>v__promiseOfValueOrEnd` with true and returns; resumed, it
//! leaves through the `finally` blocks when `DisposeAsync` set `<>w__disposeMode`. The
//! members that do not depend on the method (GetAsyncEnumerator, MoveNextAsync,
//! DisposeAsync, Current, IValueTaskSource) are the library base class
//! `AsyncIteratorStateMachine<T>`'s; the class derives from it and overrides
//! `CopyParameters` (`<>3__p` into `p`, the `[EnumeratorCancellation]` token combined).

use super::classic::{count_finally_awaits, Layout, StateMachine};
use super::closures::{EnvKind, NestedEnv};
use super::{Compiler, FnBuilder, MethodShared};
use crate::bytecode::{Op, Reg, Target};
use crate::compiler::bound::*;
use crate::compiler::sources::MethodSource;
use crate::metadata::{Flags, MethodBody, MethodDef, MethodId, MethodKind, TypeDefId, TypeId};

/// What an async iterator's state machine adds to the classic one.
#[derive(Clone, Debug)]
pub struct AsyncIterator {
    /// `AsyncIteratorStateMachine<T>`.
    pub base: TypeId,
    /// The parameters, in order, and the `[EnumeratorCancellation]` one.
    pub params: Vec<LocalId>,
    pub token_param: Option<LocalId>,
    /// Each parameter's `<>3__p` field (filled in with the layout).
    pub copies: Vec<(LocalId, u16)>,
    /// `<>2__current` and `<>w__disposeMode` (the base class's).
    pub current: u16,
    pub dispose_mode: u16,
}

impl Compiler {
    /// Emits an async iterator: the kickoff under `m`, `MoveNext`, `SetStateMachine` and
    /// `CopyParameters` on `<M>d__N`.
    pub(super) fn build_async_iterator(&mut self, shared: &mut MethodShared, index: u32, m: MethodId, body: &BoundBody, env: EnvKind, element: TypeId) {
        let ns = "System.Runtime.CompilerServices";
        let (Some(base_def), Some(builder_def)) =
            (self.namespaces.find_type(ns, "AsyncIteratorStateMachine", 1), self.namespaces.find_type(ns, "AsyncIteratorMethodBuilder", 0))
        else {
            return;
        };
        let base = self.meta.types.named(base_def, &[element]);
        let builder = self.meta.type_def(builder_def).self_type;
        for l in shared.locals.iter_mut().filter(|l| l.owner == index && matches!(l.kind, LocalKind::Param(_))) {
            l.hoisted = true;
        }
        let token_param = self.enumerator_cancellation_param(m, &body.params);
        let iterator = AsyncIterator { base, params: body.params.clone(), token_param, copies: Vec::new(), current: 0, dispose_mode: 0 };
        let name = self.state_machine_name(m);
        let pending_fields = count_finally_awaits(&body.body);
        shared.state_machine =
            Some(StateMachine { name, function: index, builder, result: TypeId::VOID, pending_fields, layout: None, iterator: Some(iterator) });
        let Some(layout) = self.build_state_machine(shared, index, m, body, env) else { return };
        if let Some(it) = shared.state_machine.as_ref().and_then(|s| s.iterator.clone()) {
            self.build_copy_parameters(shared, layout, &it, base_def, m);
        }
        shared.state_machine = None;
    }

    /// The parameter marked `[EnumeratorCancellation]`, if any.
    fn enumerator_cancellation_param(&self, m: MethodId, params: &[LocalId]) -> Option<LocalId> {
        let MethodSource::Method { decl, .. } = self.method_src.get(m.index())? else { return None };
        let i = decl.params.iter().position(|p| p.attributes.iter().any(|a| super::super::members::attribute_name(a) == "EnumeratorCancellation"))?;
        params.get(i).copied()
    }

    /// `CopyParameters(CancellationToken cancellationToken)`, the override GetAsyncEnumerator
    /// calls on the enumerator: `p = <>3__p` for each parameter, the token parameter through
    /// `CombineTokens(<>3__token, cancellationToken)`.
    fn build_copy_parameters(&mut self, shared: &mut MethodShared, layout: Layout, it: &AsyncIterator, base_def: TypeDefId, m: MethodId) {
        let Some(abstract_method) = self.find_method(base_def, "CopyParameters") else { return };
        let combine = self.find_method(base_def, "CombineTokens");
        let Some(slot) = self.meta.method(abstract_method).vtable_slot else { return };
        let md = self.meta.method(m).clone();
        let id = MethodId(self.meta.methods.len() as u32);
        let params = self.meta.method(abstract_method).params.clone();
        self.meta.methods.push(MethodDef {
            name: "CopyParameters".into(),
            owner: layout.def,
            kind: MethodKind::Ordinary,
            flags: Flags(Flags::PUBLIC | Flags::SYNTHESIZED | Flags::VIRTUAL | Flags::OVERRIDE),
            type_params: Vec::new(),
            params,
            ret: TypeId::VOID,
            vtable_slot: Some(slot),
            body: MethodBody::None,
            file: md.file,
            span: md.span,
        });
        self.method_src.push(MethodSource::Nested);
        let td = &mut self.meta.type_defs[layout.def.index()];
        td.methods.push(id);
        if let Some(entry) = td.vtable.get_mut(slot as usize) {
            *entry = id;
        }
        let moves: Vec<(u16, u16, TypeId, bool)> = it
            .copies
            .iter()
            .filter_map(|&(p, copy)| {
                let working = shared.displays[layout.display.0 as usize].slots.get(&p).copied()?;
                Some((copy, working, shared.locals[p.0 as usize].ty, it.token_param == Some(p)))
            })
            .collect();
        let empty = BoundBody { body: BStmt::new(SKind::Empty, md.span), params: Vec::new(), iterator: None, async_result: None };
        let mut b = FnBuilder::new(self, shared, u32::MAX, id, &empty, EnvKind::Nested(NestedEnv::This));
        let this = b.alloc_reg();
        let token = b.alloc_reg();
        b.num_args = b.next_reg;
        b.emit_copy_parameters(this, token, &moves, combine);
        let (f, _) = b.finish();
        self.install_function(id, f);
    }

    fn find_method(&self, def: TypeDefId, name: &str) -> Option<MethodId> {
        self.meta.type_def(def).methods.iter().copied().find(|&x| self.meta.method(x).name == name)
    }
}

impl FnBuilder<'_> {
    /// The fields `<M>d__N` adds to its base class's: a pending completion per `finally`
    /// that awaits, then `<>3__p` per parameter.
    pub fn async_iterator_fields(&mut self, pending_fields: u16) -> Vec<(String, TypeId)> {
        let object = self.c.meta.well_known.object;
        let mut fields: Vec<(String, TypeId)> = (0..pending_fields).map(|i| (format!("<>7__wrap{}", i + 1), object)).collect();
        let params = self.shared.state_machine.as_ref().and_then(|sm| sm.iterator.as_ref()).map(|it| it.params.clone()).unwrap_or_default();
        for p in params {
            let info = &self.shared.locals[p.0 as usize];
            fields.push((format!("<>3__{}", info.name), info.ty));
        }
        fields
    }

    /// Where the state machine's fields are: the base class's own (state, builder, the
    /// self reference, current, dispose mode), then the pending completions and argument
    /// copies from `first_field`.
    pub fn record_async_iterator_layout(&mut self, display: super::closures::DisplayId, def: TypeDefId, first_field: u16) {
        let Some(base) = self.shared.state_machine.as_ref().and_then(|sm| sm.iterator.as_ref()).map(|it| it.base) else { return };
        let Some(base_def) = self.c.meta.types.def_of(base) else { return };
        let slot = |name: &str| {
            let fields = &self.c.meta.type_def(base_def).fields;
            fields.iter().map(|&f| self.c.meta.field(f)).find(|f| f.name == name).map_or(0, |f| f.slot as u16)
        };
        let (state, builder, this_machine, current, dispose_mode) =
            (slot("_state"), slot("_builder"), slot("_stateMachine"), slot("_current"), slot("_disposeMode"));
        let Some(sm) = &mut self.shared.state_machine else { return };
        let first_copy = first_field + sm.pending_fields;
        sm.layout = Some(Layout { display, def, state, builder, this_machine, first_pending: first_field });
        if let Some(it) = &mut sm.iterator {
            it.copies = it.params.iter().enumerate().map(|(i, &p)| (p, first_copy + i as u16)).collect();
            it.current = current;
            it.dispose_mode = dispose_mode;
        }
    }

    /// The `<>3__p` slot the kickoff stores parameter `p` in (async iterators only).
    pub fn argument_copy_slot(&self, p: LocalId) -> Option<u16> {
        let it = self.shared.state_machine.as_ref()?.iterator.as_ref()?;
        it.copies.iter().find(|(l, _)| *l == p).map(|&(_, slot)| slot)
    }

    fn iterator(&self) -> Option<AsyncIterator> {
        self.shared.state_machine.as_ref()?.iterator.clone()
    }

    /// The kickoff's end: `Initialize()` (state -2, the creating thread), return the machine.
    pub fn emit_start_async_iterator(&mut self, layout: Layout, dst: Reg) {
        let machine = self.display_value(layout.display);
        self.call_base(machine, "Initialize", &[]);
        self.mov(dst, machine);
    }

    /// `MoveNext`'s start, where states -3 (not started) fall in: `if (<>w__disposeMode) goto
    /// end; num = <>1__state = -1;`.
    pub fn emit_async_iterator_start(&mut self, end: LabelId) {
        let (Some(layout), Some(it)) = (self.layout(), self.iterator()) else { return };
        let machine = self.display_value(layout.display);
        let m = self.mark();
        let dispose = self.alloc_reg();
        self.emit(Op::LoadField { dst: dispose, obj: machine, slot: it.dispose_mode });
        self.emit_jump(Op::JumpIfTrue { cond: dispose, target: Target(0) }, end);
        self.free_to(m);
        self.set_state(-1);
    }

    /// The end of `MoveNext` (finished or failed): `Finish(exception)` sets state -2,
    /// disposes the combined tokens, clears `<>2__current`, completes the builder and the
    /// promise (false, or the exception).
    pub fn emit_async_iterator_finish(&mut self, exception: Option<Reg>) {
        let Some(layout) = self.layout() else { return };
        let machine = self.display_value(layout.display);
        let arg = match exception {
            Some(e) => e,
            None => {
                let r = self.alloc_reg();
                self.emit(Op::LoadNull { dst: r });
                r
            }
        };
        self.call_base(machine, "Finish", &[arg]);
    }

    /// `yield return e;` in `MoveNext`: `<>2__current = e; num = <>1__state = -4 - j;`
    /// (save what is live) `<>v__promiseOfValueOrEnd.SetResult(true); return; resume_j:`
    /// (reload) `num = <>1__state = -1; if (<>w__disposeMode) goto end;`.
    pub fn emit_async_yield_return(&mut self, e: &BExpr) {
        let (Some(layout), Some(it), Some(state)) = (self.layout(), self.iterator(), self.classic.clone()) else { return };
        let m = self.mark();
        let value = self.emit_value(e);
        let machine = self.display_value(layout.display);
        self.emit(Op::StoreField { obj: machine, slot: it.current, src: value });
        let j = state.yield_resume.len() as i32;
        self.set_state(-4 - j);
        let plan = self.next_spill_plan();
        let machine = self.display_value(layout.display);
        self.emit(Op::SpillToFields { obj: machine, plan });
        self.call_base(machine, "SignalValue", &[]);
        self.emit_return(None);
        let resume = self.new_label();
        self.place_label(resume);
        if let Some(c) = &mut self.classic {
            c.yield_resume.push(resume);
        }
        let machine = self.display_value(layout.display);
        self.emit(Op::ReloadFromFields { obj: machine, plan });
        self.set_state(-1);
        let dispose = self.alloc_reg();
        self.emit(Op::LoadField { dst: dispose, obj: machine, slot: it.dispose_mode });
        let go_on = self.new_label();
        self.emit_jump(Op::JumpIfFalse { cond: dispose, target: Target(0) }, go_on);
        self.emit_goto(state.epilogue);
        self.place_label(go_on);
        self.free_to(m);
    }

    /// `yield break;`: leave through the `finally` blocks to the end.
    pub fn emit_async_yield_break(&mut self) {
        if let Some(state) = self.classic.clone() {
            self.emit_goto(state.epilogue);
        }
    }

    /// Extends the state dispatch down to the yield states: `-4 - j` resumes yield `j`,
    /// -3..-1 start the body.
    pub fn add_yield_states(&mut self, table: u32, start: Target) {
        let yields: Vec<Target> = self.classic.as_ref().map(|c| c.yield_resume.iter().rev().map(|l| Target(l.0)).collect()).unwrap_or_default();
        let Some(t) = self.tables.get_mut(table as usize) else { return };
        let mut targets = yields;
        let n = targets.len() as i64;
        targets.extend([start; 3]);
        targets.append(&mut t.targets);
        t.low = -3 - n;
        t.targets = targets;
    }

    /// `receiver.name(args)`, a non-virtual call of a method of the base class.
    fn call_base(&mut self, receiver: Reg, name: &str, args: &[Reg]) {
        let Some(base) = self.iterator().map(|it| it.base) else { return };
        let Some(method) = self.builder_method(base, name, args.len()) else { return };
        let m = self.mark();
        let first = self.alloc_reg();
        self.mov(first, receiver);
        for &a in args {
            let r = self.alloc_reg();
            self.mov(r, a);
        }
        self.emit(Op::Call { method, base: first, dst: first });
        self.free_to(m);
    }

    /// The body of `CopyParameters`: each `(copy, working, type, is_token)` moves
    /// `this.<>3__p` into `this.p` (a struct copied), the token through `CombineTokens`.
    fn emit_copy_parameters(&mut self, this: Reg, token: Reg, moves: &[(u16, u16, TypeId, bool)], combine: Option<MethodId>) {
        for &(copy, working, ty, is_token) in moves {
            let m = self.mark();
            let v = self.alloc_reg();
            self.emit(Op::LoadField { dst: v, obj: this, slot: copy });
            let v = self.copy_if_struct(v, ty);
            let v = match (is_token, combine) {
                (true, Some(combine)) => {
                    let first = self.alloc_reg();
                    self.mov(first, this);
                    let a = self.alloc_reg();
                    self.mov(a, v);
                    let b = self.alloc_reg();
                    self.mov(b, token);
                    self.emit(Op::Call { method: combine, base: first, dst: first });
                    first
                }
                _ => v,
            };
            self.emit(Op::StoreField { obj: this, slot: working, src: v });
            self.free_to(m);
        }
        self.emit(Op::ReturnVoid);
    }
}
