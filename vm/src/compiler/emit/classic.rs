//! Async methods, classic lowering: Roslyn's rewrite into a state machine. The method
//! becomes the kickoff stub (create the state machine `<M>d__N` and its builder, copy the
//! parameters and `this` into it, `Start`, return the builder's `Task`), and the body
//! becomes `MoveNext`: a dispatch on `<>1__state`, the body with each `await` expanded
//! (`if (!awaiter.IsCompleted) { state = k; <>u__N = awaiter;
//! builder.AwaitUnsafeOnCompleted(ref <>u__N, ref this); return; resume_k: ... }`),
//! `finally` blocks guarded by `if (num < 0)` so suspending does not run them, and a
//! catch-all that hands exceptions to `builder.SetException`. The builders and the box are
//! the standard library's.
//!
//! Roslyn's hoisting rule decides which locals become fields: those live across an await.
//! `MoveNext` is emitted with locals in registers, and each suspension saves what the
//! register liveness analysis (`bytecode/liveness.rs`) finds live across it into fields
//! (`<x>5__N` for a local, `<>8__N` for a closure's display, `<>s__N` for a temporary of
//! an unfinished expression) and reloads it on resumption.

use super::closures::{DisplayId, EnvKind, NestedEnv};
use super::{Compiler, FnBuilder, MethodShared};
use crate::bytecode::{JumpTable, Op, Reg, Target};
use crate::compiler::bound::LocalKind;
use crate::compiler::bound::*;
use crate::metadata::{Flags, MethodBody, MethodDef, MethodId, MethodKind, ParamDef, ParamKind, TypeDefId, TypeId};

use crate::metadata::well_known::SELF_REFERENCE_FIELD;

/// The state machine of the classic async function being emitted (set on the shared
/// method state while its kickoff and `MoveNext` are built).
#[derive(Clone, Debug)]
pub struct StateMachine {
    /// `<M>d__N`.
    pub name: String,
    /// The function (method or lambda) whose locals become its fields.
    pub function: u32,
    /// `AsyncTaskMethodBuilder<T>`, `AsyncVoidMethodBuilder`...
    pub builder: TypeId,
    /// `T` of `Task<T>` (`void` otherwise).
    pub result: TypeId,
    /// One field per `finally` that contains an `await`, for its pending completion
    /// (Roslyn's `<>7__wrapN`).
    pub pending_fields: u16,
    /// Filled in when the kickoff creates the state machine (its display).
    pub layout: Option<Layout>,
    /// Set for an async iterator (`emit/async_iterator.rs`).
    pub iterator: Option<super::async_iterator::AsyncIterator>,
}

#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub display: DisplayId,
    pub def: TypeDefId,
    pub state: u16,
    pub builder: u16,
    /// A field holding the state machine itself, for `ref stateMachine` arguments.
    pub this_machine: u16,
    pub first_pending: u16,
}

/// `MoveNext`'s own state while it is emitted.
#[derive(Clone, Debug)]
pub struct MoveNextState {
    /// `num`: the state as `MoveNext` last saw it (`-1` running, `k` suspending at `k`).
    pub num: Reg,
    pub resume: Vec<LabelId>,
    pub epilogue: LabelId,
    /// Where `return v;` puts `v` (for `SetResult`).
    pub result: Option<Reg>,
    pub next_pending: u16,
    /// `<>u__N`: one field per awaiter type, as Roslyn shares them between awaits.
    pub awaiter_fields: Vec<(TypeId, u16)>,
    /// The next suspension's spill plan (awaits and an async iterator's `yield return`s).
    pub next_plan: u16,
    /// An async iterator's `yield return` resume points (state `-4 - j`).
    pub yield_resume: Vec<LabelId>,
    /// What the spill planning needs to know about the registers.
    pub sites: AwaitSites,
}

/// The registers of `MoveNext` by meaning, for naming the fields that keep them across
/// awaits.
#[derive(Clone, Debug, Default)]
pub struct AwaitSites {
    /// The first instruction after the prologue (the state dispatch).
    pub body_start: usize,
    /// `(register, name, type)` of the function's locals.
    pub locals: Vec<(Reg, String, TypeId)>,
    /// Registers that hold display (closure) objects.
    pub displays: Vec<Reg>,
}

impl Compiler {
    /// Emits a classic-lowered async function: the kickoff under `m`, `MoveNext` and
    /// `SetStateMachine` on the generated class.
    pub(super) fn build_classic_async(&mut self, shared: &mut MethodShared, index: u32, m: MethodId, body: &BoundBody, env: EnvKind, result: TypeId) {
        let Some(builder) = self.builder_type(self.meta.method(m).ret, result) else {
            let md = self.meta.method(m);
            let (file, span) = (md.file, md.span);
            self.error(file, span, "CS1983", "The return type of an async method must be void, Task, Task<T>, ValueTask or ValueTask<T>");
            return;
        };
        for l in shared.locals.iter_mut().filter(|l| l.owner == index && matches!(l.kind, LocalKind::Param(_))) {
            l.hoisted = true;
        }
        let name = self.state_machine_name(m);
        let pending_fields = count_finally_awaits(&body.body);
        shared.state_machine = Some(StateMachine { name, function: index, builder, result, pending_fields, layout: None, iterator: None });
        self.build_state_machine(shared, index, m, body, env);
        shared.state_machine = None;
    }

    /// The kickoff under `m` (it starts the state machine in `shared` and returns its task
    /// or enumerable), then `MoveNext` and `SetStateMachine` on the generated class; the
    /// class's layout, or `None` when the kickoff found no state machine to lay out.
    pub(super) fn build_state_machine(&mut self, shared: &mut MethodShared, index: u32, m: MethodId, body: &BoundBody, env: EnvKind) -> Option<Layout> {
        let ret = self.meta.method(m).ret;
        let span = body.body.span;
        let start = BExpr::new(BKind::StartStateMachine, ret, span);
        let stmt = if ret == TypeId::VOID { SKind::Expr(start) } else { SKind::Return(Some(start)) };
        let kickoff = BoundBody { body: BStmt::new(stmt, span), params: body.params.clone(), iterator: None, async_result: None };
        let f = FnBuilder::build(self, shared, index, m, &kickoff, env);
        self.install_function(m, f);
        let layout = shared.state_machine.as_ref().and_then(|s| s.layout)?;
        let async_iterator = shared.state_machine.as_ref().is_some_and(|s| s.iterator.is_some());
        let move_next = self.state_machine_method(layout.def, "MoveNext", m);
        let set_state_machine = self.state_machine_method(layout.def, "SetStateMachine", m);
        let move_next_env = EnvKind::Nested(NestedEnv::Display(layout.display));
        let body_without_params = BoundBody { body: body.body.clone(), params: Vec::new(), iterator: None, async_result: None };
        let (mut f, sites, notes) = FnBuilder::build_move_next(self, shared, index, move_next, &body_without_params, move_next_env);
        self.plan_spills(&mut f, layout.def, &sites);
        self.meta.kickoff_of.insert(move_next, m);
        self.install_function(move_next, f);
        let lowered = super::report::Lowered {
            method: m,
            body,
            emitted: &body_without_params.body,
            shared,
            code_method: move_next,
            state_machine: Some(layout.def),
            async_iterator,
        };
        self.record_lowering(lowered, notes);
        let empty = BoundBody { body: BStmt::new(SKind::Empty, span), params: Vec::new(), iterator: None, async_result: None };
        let f = FnBuilder::build(self, shared, u32::MAX, set_state_machine, &empty, EnvKind::Nested(NestedEnv::This));
        self.install_function(set_state_machine, f);
        self.implement_state_machine_interface(layout.def, move_next, set_state_machine);
        Some(layout)
    }

    /// Decides which registers each `await` of `MoveNext` keeps in fields (those live
    /// across it: Roslyn's hoisting rule, from the liveness analysis) and gives each one
    /// a field named as Roslyn names it: `<x>5__N` for a user local, `<>8__N` for a
    /// display (closure) reference, `<>s__N` for a spilled temporary. A local keeps its
    /// field across sites; temporaries reuse theirs by position.
    pub(super) fn plan_spills(&mut self, f: &mut crate::bytecode::Function, def: TypeDefId, sites: &AwaitSites) {
        let live = crate::bytecode::liveness::registers_across_awaits(f, &self.meta, sites.body_start);
        let object = self.meta.well_known.object;
        let mut local_fields: Vec<(Reg, u16)> = Vec::new();
        let mut temp_fields: Vec<u16> = Vec::new();
        let mut next_ordinal = 1;
        f.spills = live
            .into_iter()
            .map(|regs| {
                let mut temps = 0;
                regs.into_iter()
                    .map(|r| {
                        if let Some(&(_, slot)) = local_fields.iter().find(|(x, _)| *x == r) {
                            return (r, slot);
                        }
                        let (name, ty) = if let Some((name, ty)) = sites.locals.iter().find(|l| l.0 == r).map(|l| (l.1.clone(), l.2)) {
                            (format!("<{name}>5__{next_ordinal}"), ty)
                        } else if sites.displays.contains(&r) {
                            (format!("<>8__{next_ordinal}"), object)
                        } else {
                            temps += 1;
                            if let Some(&slot) = temp_fields.get(temps - 1) {
                                return (r, slot);
                            }
                            let slot = self.add_state_machine_field(def, &format!("<>s__{temps}"), object);
                            temp_fields.push(slot);
                            return (r, slot);
                        };
                        next_ordinal += 1;
                        let slot = self.add_state_machine_field(def, &name, ty);
                        local_fields.push((r, slot));
                        (r, slot)
                    })
                    .collect()
            })
            .collect();
    }

    /// Appends a field to the state machine class; returns its slot.
    pub(super) fn add_state_machine_field(&mut self, def: TypeDefId, name: &str, ty: TypeId) -> u16 {
        let slot = self.meta.type_def(def).instance_slots;
        let span = self.meta.type_def(def).span;
        let f = crate::metadata::FieldId(self.meta.fields.len() as u32);
        self.meta.fields.push(crate::metadata::FieldDef { name: name.into(), owner: def, ty, flags: Flags(Flags::PUBLIC), slot, constant: None, span });
        let td = &mut self.meta.type_defs[def.index()];
        td.fields.push(f);
        td.instance_slots += 1;
        slot as u16
    }

    /// The builder for an async method returning `ret` with result `result`.
    fn builder_type(&mut self, ret: TypeId, result: TypeId) -> Option<TypeId> {
        let ns = "System.Runtime.CompilerServices";
        let ret_name = self.meta.types.def_of(ret).map(|d| self.meta.type_def(d).name.clone());
        let (name, arity) = match ret_name.as_deref() {
            _ if ret == TypeId::VOID => ("AsyncVoidMethodBuilder", 0),
            Some("Task") if result == TypeId::VOID => ("AsyncTaskMethodBuilder", 0),
            Some("Task") => ("AsyncTaskMethodBuilder", 1),
            Some("ValueTask") if result == TypeId::VOID => ("AsyncValueTaskMethodBuilder", 0),
            Some("ValueTask") => ("AsyncValueTaskMethodBuilder", 1),
            _ => return None,
        };
        let def = self.namespaces.find_type(ns, name, arity)?;
        let args: Vec<TypeId> = if arity == 1 { vec![result] } else { Vec::new() };
        Some(self.meta.types.named(def, &args))
    }

    /// `MoveNext` / `SetStateMachine` of the state machine class.
    pub(super) fn state_machine_method(&mut self, def: TypeDefId, name: &str, m: MethodId) -> MethodId {
        let md = self.meta.method(m).clone();
        let params = if name == "SetStateMachine" {
            let ty = self.state_machine_interface().map_or(TypeId::ERROR, |d| self.meta.type_def(d).self_type);
            vec![ParamDef { name: "stateMachine".into(), ty, kind: ParamKind::Value, default: None }]
        } else {
            Vec::new()
        };
        let id = MethodId(self.meta.methods.len() as u32);
        self.meta.methods.push(MethodDef {
            name: name.into(),
            owner: def,
            kind: MethodKind::Ordinary,
            flags: Flags(Flags::PUBLIC | Flags::SYNTHESIZED),
            type_params: Vec::new(),
            params,
            ret: TypeId::VOID,
            vtable_slot: None,
            body: MethodBody::None,
            file: md.file,
            span: md.span,
        });
        self.method_src.push(super::super::sources::MethodSource::Nested);
        self.meta.type_defs[def.index()].methods.push(id);
        id
    }

    fn state_machine_interface(&self) -> Option<TypeDefId> {
        self.namespaces.find_type("System.Runtime.CompilerServices", "IAsyncStateMachine", 0)
    }

    pub(super) fn implement_state_machine_interface(&mut self, def: TypeDefId, move_next: MethodId, set_state_machine: MethodId) {
        let Some(iface) = self.state_machine_interface() else { return };
        let iface_type = self.meta.type_def(iface).self_type;
        let iface_methods = self.meta.type_def(iface).methods.clone();
        let sm = &mut self.meta.type_defs[def.index()];
        sm.interfaces.push(iface_type);
        for im in iface_methods {
            let target = if self.meta.methods[im.index()].name == "MoveNext" { move_next } else { set_state_machine };
            self.meta.type_defs[def.index()].interface_map.insert(im, target);
        }
    }
}

impl FnBuilder<'_> {
    /// Fields the state machine has besides the locals: `(name, type)` in slot order, and
    /// the layout once the display exists.
    pub fn state_machine_fields(&mut self) -> Vec<(String, TypeId)> {
        let Some(sm) = self.shared.state_machine.clone() else { return Vec::new() };
        if sm.iterator.is_some() {
            return self.async_iterator_fields(sm.pending_fields);
        }
        let int = self.c.meta.well_known.int32;
        let object = self.c.meta.well_known.object;
        let mut fields = vec![("<>1__state".to_string(), int), ("<>t__builder".to_string(), sm.builder), (SELF_REFERENCE_FIELD.to_string(), object)];
        for i in 0..sm.pending_fields {
            fields.push((format!("<>7__wrap{}", i + 1), object));
        }
        fields
    }

    /// Records where the state machine's own fields are (the display was just created with
    /// them first, after its link to an enclosing display, if any).
    pub fn record_state_machine_layout(&mut self, display: DisplayId, first_field: u16) {
        let def = self.shared.displays[display.0 as usize].def;
        self.c.meta.type_defs[def.index()].flags.set(Flags::STATE_MACHINE);
        if self.shared.state_machine.as_ref().is_some_and(|sm| sm.iterator.is_some()) {
            return self.record_async_iterator_layout(display, def, first_field);
        }
        if let Some(sm) = &mut self.shared.state_machine {
            sm.layout =
                Some(Layout { display, def, state: first_field, builder: first_field + 1, this_machine: first_field + 2, first_pending: first_field + 3 });
        }
    }

    pub(super) fn layout(&self) -> Option<Layout> {
        self.shared.state_machine.as_ref().and_then(|s| s.layout)
    }

    /// The kickoff: `sm.<>t__builder = Builder.Create(); sm.<>1__state = -1;
    /// sm.<>t__builder.Start(ref sm); return sm.<>t__builder.Task;`
    pub fn emit_start_state_machine(&mut self, dst: Reg) {
        let (Some(layout), Some(sm)) = (self.layout(), self.shared.state_machine.clone()) else { return };
        if sm.iterator.is_some() {
            return self.emit_start_async_iterator(layout, dst);
        }
        let machine = self.display_value(layout.display);
        let m = self.mark();
        if let Some(create) = self.builder_method(sm.builder, "Create", 0) {
            let r = self.call_static(create, sm.builder, &[], &[]);
            self.emit(Op::StoreField { obj: machine, slot: layout.builder, src: r });
        }
        let minus_one = self.alloc_reg();
        self.emit(Op::LoadI32 { dst: minus_one, value: -1 });
        self.emit(Op::StoreField { obj: machine, slot: layout.state, src: minus_one });
        self.emit(Op::StoreField { obj: machine, slot: layout.this_machine, src: machine });
        if let Some(start) = self.builder_method(sm.builder, "Start", 1) {
            let sm_type = self.shared.displays[layout.display.0 as usize].ty;
            let sm_ref = self.alloc_reg();
            self.emit(Op::MakeRefField { dst: sm_ref, obj: machine, slot: layout.this_machine });
            self.call_on_builder(machine, layout.builder, start, sm.builder, &[sm_type], &[sm_ref]);
        }
        if sm.builder != TypeId::ERROR && self.c.meta.method(self.method).ret != TypeId::VOID {
            if let Some(task) = self.builder_method(sm.builder, "get_Task", 0) {
                let r = self.call_on_builder(machine, layout.builder, task, sm.builder, &[], &[]);
                self.mov(dst, r);
            }
        }
        self.free_to(m);
    }

    /// `builder.M(args)` on the builder stored in the state machine (a struct field:
    /// called in place).
    pub(super) fn call_on_builder(&mut self, machine: Reg, slot: u16, method: MethodId, owner: TypeId, type_args: &[TypeId], args: &[Reg]) -> Reg {
        let base = self.alloc_reg();
        self.emit(Op::LoadField { dst: base, obj: machine, slot });
        for &a in args {
            let r = self.alloc_reg();
            self.mov(r, a);
        }
        if self.c.method_takes_context(method) {
            let ctx = self.alloc_reg();
            self.emit_callee_context_for(method, owner, type_args, ctx);
        }
        self.emit(Op::Call { method, base, dst: base });
        base
    }

    fn call_static(&mut self, method: MethodId, owner: TypeId, type_args: &[TypeId], args: &[Reg]) -> Reg {
        let base = Reg(self.next_reg);
        for &a in args {
            let r = self.alloc_reg();
            self.mov(r, a);
        }
        if self.c.method_takes_context(method) {
            let ctx = self.alloc_reg();
            self.emit_callee_context_for(method, owner, type_args, ctx);
        }
        if self.next_reg == base.0 {
            self.alloc_reg();
        }
        self.emit(Op::Call { method, base, dst: base });
        base
    }

    pub(super) fn builder_method(&self, builder: TypeId, name: &str, params: usize) -> Option<MethodId> {
        let def = self.c.meta.types.def_of(builder)?;
        self.c.meta.type_def(def).methods.iter().copied().find(|&m| {
            let md = self.c.meta.method(m);
            md.name == name && md.params.len() == params
        })
    }

    /// `MoveNext`'s frame: load the state, dispatch, run the body inside a catch-all, and
    /// `SetResult` at the end.
    pub fn emit_move_next_body(&mut self, body: &BStmt) {
        let Some(layout) = self.layout() else { return };
        let machine = self.display_value(layout.display);
        let num = self.alloc_reg();
        self.emit(Op::LoadField { dst: num, obj: machine, slot: layout.state });
        let result_ty = self.shared.state_machine.as_ref().map_or(TypeId::VOID, |s| s.result);
        let result = (result_ty != TypeId::VOID).then(|| self.alloc_reg());
        let epilogue = self.new_label();
        let table = self.add_table(JumpTable { low: 0, targets: Vec::new() });
        let body_start = self.pc() as usize;
        self.emit(Op::Switch { src: num, table });
        let sites = AwaitSites { body_start, locals: self.local_register_names(), displays: Vec::new() };
        self.classic = Some(MoveNextState {
            num,
            resume: Vec::new(),
            epilogue,
            result,
            next_pending: layout.first_pending,
            awaiter_fields: Vec::new(),
            next_plan: 0,
            yield_resume: Vec::new(),
            sites,
        });
        let is_iterator = self.shared.state_machine.as_ref().is_some_and(|sm| sm.iterator.is_some());
        let start = Target(self.pc());
        let body_label = self.new_label();
        self.place_label(body_label);
        if is_iterator {
            self.emit_async_iterator_start(epilogue);
        }
        self.emit_stmt(body);
        self.emit_goto(epilogue);
        let end = Target(self.pc());
        let exc = self.alloc_reg();
        let handler_entry = self.new_label();
        let exception = self.c.meta.well_known.exception;
        self.add_handler(crate::bytecode::Handler {
            start,
            end,
            kind: crate::bytecode::HandlerKind::Catch(exception),
            entry: Target(handler_entry.0),
            reg: exc,
        });
        self.place_label(handler_entry);
        self.set_state(-2);
        if is_iterator {
            self.emit_async_iterator_finish(Some(exc));
        } else if let Some(set_exception) = self.state_machine_builder_method("SetException", 1) {
            let machine = self.display_value(layout.display);
            let builder = self.shared.state_machine.as_ref().map_or(TypeId::ERROR, |s| s.builder);
            self.call_on_builder(machine, layout.builder, set_exception, builder, &[], &[exc]);
        }
        self.emit(Op::ReturnVoid);
        self.place_label(epilogue);
        self.set_state(-2);
        if is_iterator {
            self.emit_async_iterator_finish(None);
        } else if let Some(set_result) = self.state_machine_builder_method("SetResult", usize::from(result.is_some())) {
            let machine = self.display_value(layout.display);
            let builder = self.shared.state_machine.as_ref().map_or(TypeId::ERROR, |s| s.builder);
            let args: Vec<Reg> = result.into_iter().collect();
            self.call_on_builder(machine, layout.builder, set_result, builder, &[], &args);
        }
        self.emit(Op::ReturnVoid);
        let resume: Vec<Target> = self.classic.as_ref().map(|c| c.resume.iter().map(|l| Target(l.0)).collect()).unwrap_or_default();
        self.set_table_targets(table, resume);
        if is_iterator {
            self.add_yield_states(table, Target(body_label.0));
        }
    }

    fn state_machine_builder_method(&self, name: &str, params: usize) -> Option<MethodId> {
        let builder = self.shared.state_machine.as_ref()?.builder;
        self.builder_method(builder, name, params)
    }

    /// `num = <>1__state = value`.
    pub(super) fn set_state(&mut self, value: i32) {
        let Some(layout) = self.layout() else { return };
        let Some(num) = self.classic.as_ref().map(|c| c.num) else { return };
        self.emit(Op::LoadI32 { dst: num, value });
        let machine = self.display_value(layout.display);
        self.emit(Op::StoreField { obj: machine, slot: layout.state, src: num });
    }

    /// `return v;` inside `MoveNext`: keep `v` for `SetResult` and leave through the
    /// `finally` blocks.
    pub fn emit_classic_return(&mut self, value: Option<&BExpr>) {
        let Some(state) = self.classic.clone() else { return };
        if let (Some(v), Some(r)) = (value, state.result) {
            self.emit_into(v, r);
        }
        self.emit_goto(state.epilogue);
    }

    /// `await` in `MoveNext`, Roslyn's expansion: `awaiter = e.GetAwaiter(); if
    /// (!awaiter.IsCompleted) { num = state = k; <>u__N = awaiter;
    /// builder.AwaitUnsafeOnCompleted(ref <>u__N, ref this); return; resume_k: awaiter =
    /// <>u__N; num = state = -1; } awaiter.GetResult()`. What else must survive the
    /// suspension is saved and reloaded around it (`SpillToFields` / `ReloadFromFields`,
    /// planned once the whole body is known).
    pub fn emit_classic_await(&mut self, parts: &AwaitParts, dst: Reg) {
        let (Some(layout), Some(_)) = (self.layout(), self.classic.as_ref()) else { return };
        self.note_await(parts);
        let m = self.mark();
        let operand = self.emit_value(&parts.operand);
        self.write_local(parts.operand_temp, operand);
        let awaiter = self.emit_value(&parts.get_awaiter);
        self.write_local(parts.awaiter, awaiter);
        let awaiter = self.emit_value(&BExpr::new(BKind::Local(parts.awaiter), parts.get_awaiter.ty, parts.get_awaiter.span));
        let done = self.new_label();
        let completed = self.emit_value(&parts.is_completed);
        self.emit_jump(Op::JumpIfTrue { cond: completed, target: Target(0) }, done);
        let k = self.classic.as_ref().map_or(0, |c| c.resume.len()) as i32;
        self.set_state(k);
        let machine = self.display_value(layout.display);
        let plan = self.next_spill_plan();
        self.emit(Op::SpillToFields { obj: machine, plan });
        let awaiter_ty = parts.get_awaiter.ty;
        let field = self.awaiter_field(layout.def, awaiter_ty);
        self.emit(Op::StoreField { obj: machine, slot: field, src: awaiter });
        if let Some(await_method) = self.await_on_completed_method(awaiter_ty) {
            let awaiter_ref = self.alloc_reg();
            self.emit(Op::MakeRefField { dst: awaiter_ref, obj: machine, slot: field });
            let sm_ref = self.alloc_reg();
            self.emit(Op::MakeRefField { dst: sm_ref, obj: machine, slot: layout.this_machine });
            let sm_ty = self.shared.displays[layout.display.0 as usize].ty;
            let builder = self.shared.state_machine.as_ref().map_or(TypeId::ERROR, |s| s.builder);
            self.call_on_builder(machine, layout.builder, await_method, builder, &[awaiter_ty, sm_ty], &[awaiter_ref, sm_ref]);
        }
        self.emit_return(None);
        let resume = self.new_label();
        self.place_label(resume);
        if let Some(c) = &mut self.classic {
            c.resume.push(resume);
        }
        self.emit(Op::ReloadFromFields { obj: machine, plan });
        self.emit(Op::LoadField { dst: awaiter, obj: machine, slot: field });
        self.write_local(parts.awaiter, awaiter);
        self.set_state(-1);
        self.place_label(done);
        self.free_to(m);
        self.emit_into(&parts.get_result, dst);
    }

    /// The spill plan of the next suspension point; what is open there (closure displays)
    /// is noted for naming the fields.
    pub(super) fn next_spill_plan(&mut self) -> u16 {
        let open_displays: Vec<Reg> = self.display_regs.iter().map(|&(_, r)| r).collect();
        let Some(c) = &mut self.classic else { return 0 };
        c.sites.displays.extend(open_displays);
        c.next_plan += 1;
        c.next_plan - 1
    }

    /// `<>u__N` for awaiters of type `ty`.
    fn awaiter_field(&mut self, def: TypeDefId, ty: TypeId) -> u16 {
        if let Some(&(_, slot)) = self.classic.as_ref().and_then(|c| c.awaiter_fields.iter().find(|(t, _)| *t == ty)) {
            return slot;
        }
        let n = self.classic.as_ref().map_or(0, |c| c.awaiter_fields.len()) + 1;
        let slot = self.c.add_state_machine_field(def, &format!("<>u__{n}"), ty);
        if let Some(c) = &mut self.classic {
            c.awaiter_fields.push((ty, slot));
        }
        slot
    }

    /// `AwaitUnsafeOnCompleted` for an awaiter that implements `ICriticalNotifyCompletion`,
    /// `AwaitOnCompleted` for one that only implements `INotifyCompletion` (Roslyn's choice).
    fn await_on_completed_method(&mut self, awaiter_ty: TypeId) -> Option<MethodId> {
        let critical =
            self.c.namespaces.find_type("System.Runtime.CompilerServices", "ICriticalNotifyCompletion", 0).map(|d| self.c.meta.type_def(d).self_type);
        let is_critical = critical.is_some_and(|c| self.c.meta.is_subtype(awaiter_ty, c));
        self.state_machine_builder_method(if is_critical { "AwaitUnsafeOnCompleted" } else { "AwaitOnCompleted" }, 2)
    }

    /// `(register, name, type)` of each user local that has a register.
    fn local_register_names(&self) -> Vec<(Reg, String, TypeId)> {
        let mut v: Vec<(Reg, String, TypeId)> = self
            .local_regs
            .iter()
            .filter_map(|(l, &r)| {
                let info = &self.shared.locals[l.0 as usize];
                matches!(info.kind, LocalKind::User | LocalKind::RefLocal).then(|| (r, info.name.clone(), info.ty))
            })
            .collect();
        v.sort_by_key(|x| x.0);
        v
    }

    /// At a `finally` block's entry in `MoveNext`: skip the body while suspending
    /// (`if (num < 0) { ... }`), and keep the pending completion in a field if the block
    /// itself awaits (its registers do not survive the suspension).
    pub fn emit_finally_guard(&mut self, skip: LabelId) {
        let Some(num) = self.classic.as_ref().map(|c| c.num) else { return };
        if self.shared.state_machine.as_ref().is_some_and(|sm| sm.iterator.is_some()) {
            // An async iterator also suspends at `yield return` (state -4 - j): run the
            // block only while running (Roslyn: `if (num == -1)`).
            let running = self.alloc_reg();
            self.emit(Op::LoadI32 { dst: running, value: -1 });
            self.emit_jump(Op::JumpIfNe { a: num, b: running, target: Target(0) }, skip);
            return;
        }
        let zero = self.alloc_reg();
        self.emit(Op::LoadI32 { dst: zero, value: 0 });
        self.emit_jump(Op::JumpIfGe { a: num, b: zero, target: Target(0) }, skip);
    }

    /// A field to keep a `finally`'s pending completion in, if `fin` awaits.
    pub fn pending_field_for(&mut self, fin: &BStmt) -> Option<u16> {
        if !contains_await(fin) {
            return None;
        }
        let c = self.classic.as_mut()?;
        let slot = c.next_pending;
        c.next_pending += 1;
        Some(slot)
    }

    pub fn state_machine_register(&mut self) -> Option<Reg> {
        let layout = self.layout()?;
        Some(self.display_value(layout.display))
    }
}

/// `finally` blocks with an `await` in them.
pub(super) fn count_finally_awaits(s: &BStmt) -> u16 {
    match &s.kind {
        SKind::Try { body, catches, finally } => {
            let own = finally.as_ref().map_or(0, |f| u16::from(contains_await(f)) + count_finally_awaits(f));
            own + count_finally_awaits(body) + catches.iter().map(|c| count_finally_awaits(&c.body)).sum::<u16>()
        }
        SKind::Block { stmts, .. } => stmts.iter().map(count_finally_awaits).sum(),
        SKind::If { then, otherwise, .. } => count_finally_awaits(then) + otherwise.as_ref().map_or(0, |o| count_finally_awaits(o)),
        SKind::Loop { body, .. } => count_finally_awaits(body),
        _ => 0,
    }
}

/// Whether a statement contains an `await` (outside nested functions).
pub fn contains_await(s: &BStmt) -> bool {
    let mut found = false;
    super::closures::walk_stmt_exprs(s, &mut |e| {
        if matches!(e.kind, BKind::Await(_)) {
            found = true;
        }
    });
    found
}
