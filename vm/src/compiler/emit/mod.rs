//! The emitter: bound trees to register bytecode.
//!
//! [`FnBuilder`] emits one function (a method or one of its lambdas/local functions):
//! registers (arguments, locals, then a stack of temporaries), labels with back-patching,
//! the handler table, jump tables and the span side table. Captured locals live in
//! display objects ([`closures`]); `try`/`finally` and jumps out of it are in [`stmt`].

mod async_iterator;
mod awaits;
pub mod classic;
pub mod closures;
mod expr;
pub mod intrinsics;
mod peephole;
pub mod report;
mod stmt;

use hashbrown::HashMap;

use super::bound::*;
use super::Compiler;
use crate::bytecode::{Function, FunctionId, Handler, HandlerKind, JumpTable, Op, PoolEntry, Reg, Target};
use crate::metadata::{Constant, MethodBody, MethodId, TypeDefKind, TypeId};
use crate::value::Value;
use closures::{DisplayId, DisplayInfo, EnvKind};
use grammar::span::Span;

/// What every function of one method shares: its locals, nested functions and displays.
pub struct MethodShared {
    pub locals: Vec<LocalInfo>,
    pub nested: Vec<NestedFunction>,
    pub displays: Vec<DisplayInfo>,
    /// The display holding each hoisted local.
    pub local_display: HashMap<LocalId, DisplayId>,
    /// How each nested function is entered (set when its creation point is emitted).
    pub nested_env: HashMap<NestedId, closures::NestedEnv>,
    /// The method's own root display (holds `this`/the generic context when captured).
    pub root_display: Option<DisplayId>,
    /// Some nested function uses `this` (or an instance member).
    pub captures_this: bool,
    /// The method has a run-time generic context nested functions must be able to read.
    pub has_generic_context: bool,
    pub method: MethodId,
    /// The classic async state machine being built, if any.
    pub state_machine: Option<classic::StateMachine>,
}

/// One pending `finally` between a jump and its target.
struct FinallyScope {
    /// Register holding the pending completion (`null`, a jump index, or an exception).
    pending: Reg,
    /// Where the finally block starts (patched when known).
    entry: LabelId,
    /// Jump targets routed through this finally: index in the `EndFinally` table.
    exits: Vec<Exit>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Exit {
    Label(LabelId),
    /// Continue returning (the value is in the return register).
    Return,
}

pub struct FnBuilder<'a> {
    pub c: &'a mut Compiler,
    pub shared: &'a mut MethodShared,
    /// 0 for the method itself, `n + 1` for nested function `n`.
    pub func_index: u32,
    pub method: MethodId,
    code: Vec<Op>,
    pool: Vec<PoolEntry>,
    handlers: Vec<Handler>,
    tables: Vec<JumpTable>,
    spans: Vec<(u32, Span)>,
    num_args: u16,
    next_reg: u16,
    max_reg: u16,
    local_regs: HashMap<LocalId, Reg>,
    labels: HashMap<LabelId, u32>,
    fixups: Vec<(usize, LabelId)>,
    /// Labels created by the emitter itself (numbered above the binder's).
    next_label: u32,
    finally_stack: Vec<FinallyScope>,
    /// The `finally` nesting depth at which each label is defined.
    label_depth: HashMap<LabelId, usize>,
    /// Where `return` puts its value when it must pass through a `finally`.
    ret_reg: Option<Reg>,
    /// Displays created in this function, innermost last, with their registers.
    pub display_regs: Vec<(DisplayId, Reg)>,
    /// For nested functions: how `r0` relates to the display chain.
    pub env: EnvKind,
    /// Register of the run-time generic context, if the function has one.
    pub ctx_reg: Option<Reg>,
    /// Instruction index of the placeholder that computes the context at entry.
    ctx_prologue: Option<usize>,
    ctx_used: bool,
    pub this_reg: Option<Reg>,
    pub current_span: Span,
    /// Set while emitting a classic async method's `MoveNext`.
    pub classic: Option<classic::MoveNextState>,
    /// Notes for `vm lower` ([`report`]), when the compilation keeps them.
    notes: Option<report::EmitNotes>,
    /// The function only hands its arguments to the code method (an async method's task
    /// entry, an iterator's `MakeIterator`): it makes no display, so the code method's own
    /// display is the one its nested functions find the parameters in.
    forwarding_stub: bool,
}

/// Whether a body is a stub that forwards its arguments to the method holding the code.
fn is_forwarding_stub(body: &BoundBody) -> bool {
    let value = match &body.body.kind {
        SKind::Return(Some(e)) | SKind::Expr(e) => e,
        _ => return false,
    };
    matches!(value.kind, BKind::StartAsync { .. } | BKind::MakeIterator { .. })
}

/// Whether a statement contains a `try` with a `finally` (a `return` through it needs a
/// register reserved for the return value).
fn stmt_has_finally(s: &BStmt) -> bool {
    match &s.kind {
        SKind::Try { finally: Some(_), .. } => true,
        SKind::Try { body, catches, .. } => stmt_has_finally(body) || catches.iter().any(|c| stmt_has_finally(&c.body)),
        SKind::Block { stmts, .. } => stmts.iter().any(stmt_has_finally),
        SKind::If { then, otherwise, .. } => stmt_has_finally(then) || otherwise.as_ref().is_some_and(|o| stmt_has_finally(o)),
        SKind::Loop { body, .. } => stmt_has_finally(body),
        _ => false,
    }
}

impl Compiler {
    /// Emits a method and all its nested functions.
    pub fn emit_method(&mut self, m: MethodId, body: BoundBody, locals: Vec<LocalInfo>, nested: Vec<NestedFunction>) {
        let has_generic_context = self.method_has_generic_context(m);
        let captures_this = nested.iter().filter_map(|n| n.body.as_ref()).any(|b| closures::uses_this(&b.body));
        let mut shared = MethodShared {
            locals,
            nested,
            displays: Vec::new(),
            local_display: HashMap::new(),
            nested_env: HashMap::new(),
            root_display: None,
            captures_this,
            has_generic_context,
            method: m,
            state_machine: None,
        };
        self.build_function(&mut shared, 0, m, &body, EnvKind::Method);
        let mut done = vec![false; shared.nested.len()];
        while let Some(i) = (0..shared.nested.len()).find(|&i| !done[i] && shared.nested_env.contains_key(&NestedId(i as u32))) {
            done[i] = true;
            let n = shared.nested[i].clone();
            let Some(nbody) = n.body else { continue };
            let env = shared.nested_env[&NestedId(i as u32)].clone();
            self.prepare_nested_method(n.method, &env);
            self.build_function(&mut shared, i as u32 + 1, n.method, &nbody, EnvKind::Nested(env));
        }
    }

    /// Compiles one function. An iterator becomes two: its code goes to a synthesized
    /// method `<M>d__N` with the same signature, and `M` itself just returns an
    /// `Iterator<T>` over its arguments.
    fn build_function(&mut self, shared: &mut MethodShared, index: u32, m: MethodId, body: &BoundBody, env: EnvKind) {
        if let (Some(_), Some(element)) = (body.async_result, body.iterator) {
            return self.build_async_iterator(shared, index, m, body, env, element);
        }
        if let Some(result) = body.async_result {
            return self.build_async_function(shared, index, m, body, env, result);
        }
        let Some(element) = body.iterator else {
            let f = FnBuilder::build(self, shared, index, m, body, env);
            self.install_function(m, f);
            return;
        };
        let code = self.iterator_body_method(m);
        let f = FnBuilder::build(self, shared, index, m, body, env.clone());
        self.install_function(code, f);
        let ret = self.meta.method(m).ret;
        let span = body.body.span;
        let make = BExpr::new(BKind::MakeIterator { body: code, element }, ret, span);
        let stub = BoundBody { body: BStmt::new(SKind::Return(Some(make)), span), params: body.params.clone(), iterator: None, async_result: None };
        let f = FnBuilder::build(self, shared, index, m, &stub, env);
        self.install_function(m, f);
    }

    /// A runtime-lowered async method: its code goes to `runtime_async_body(m)`, its
    /// awaits suspending the frame; `m` becomes the task entry that starts the code and
    /// makes the `Task` from how it ended.
    fn build_async_function(&mut self, shared: &mut MethodShared, index: u32, m: MethodId, body: &BoundBody, env: EnvKind, result: TypeId) {
        if self.lowering_of(m) == super::Lowering::Classic {
            return self.build_classic_async(shared, index, m, body, env, result);
        }
        let code = self.runtime_async_body(m);
        let (f, notes) = FnBuilder::build_with_notes(self, shared, index, m, body, env.clone());
        self.install_function(code, f);
        let lowered = report::Lowered { method: m, body, emitted: &body.body, shared, code_method: code, state_machine: None, async_iterator: false };
        self.record_lowering(lowered, notes);
        let ret = self.meta.method(m).ret;
        let span = body.body.span;
        let (complete, type_args) = self.async_completion(ret, result);
        let Some(complete) = complete else {
            self.error(
                self.meta.method(m).file,
                self.meta.method(m).span,
                "CS1983",
                "The return type of an async method must be void, Task, Task<T>, ValueTask or ValueTask<T>",
            );
            return;
        };
        let start = BExpr::new(BKind::StartAsync { body: code, complete, type_args }, ret, span);
        let stmt = if ret == TypeId::VOID { SKind::Expr(start) } else { SKind::Return(Some(start)) };
        let stub = BoundBody { body: BStmt::new(stmt, span), params: body.params.clone(), iterator: None, async_result: None };
        let f = FnBuilder::build(self, shared, index, m, &stub, env);
        self.install_function(m, f);
    }

    /// The `AsyncHelpers` method that turns an async body's outcome into what the method
    /// returns, with its type arguments.
    fn async_completion(&mut self, ret: TypeId, result: TypeId) -> (Option<MethodId>, Vec<TypeId>) {
        let helpers = self.namespaces.find_type("System.Runtime.CompilerServices", "AsyncHelpers", 0);
        let name = match self.meta.types.def_of(ret).map(|d| self.meta.type_def(d).name.clone()).as_deref() {
            _ if ret == TypeId::VOID => "CompleteVoid",
            Some("Task") if result == TypeId::VOID => "CompleteTask",
            Some("Task") => "Complete",
            Some("ValueTask") if result == TypeId::VOID => "CompleteValueTask",
            Some("ValueTask") => "CompleteValueTaskOf",
            _ => return (None, Vec::new()),
        };
        let method = helpers.and_then(|h| self.meta.type_def(h).methods.iter().copied().find(|&x| self.meta.method(x).name == name));
        let type_args = if result == TypeId::VOID { Vec::new() } else { vec![result] };
        (method, type_args)
    }

    /// The method that holds a runtime-lowered async method's code (its "async entry"),
    /// made on first request (a caller may need it before `m` is compiled).
    pub fn runtime_async_body(&mut self, m: MethodId) -> MethodId {
        if let Some(&b) = self.async_bodies.get(&m) {
            return b;
        }
        let b = self.synthesized_copy(m, format!("<{}>a__{}", self.meta.method(m).name, m.index()));
        self.async_bodies.insert(m, b);
        b
    }

    /// The method that holds an iterator's code: `M`'s signature, named as Roslyn names the
    /// iterator class (`<M>d__N`, N the method's index).
    fn iterator_body_method(&mut self, m: MethodId) -> MethodId {
        let name = self.state_machine_name(m);
        self.synthesized_copy(m, name)
    }

    /// A non-virtual method with `m`'s signature (its code is installed later).
    fn synthesized_copy(&mut self, m: MethodId, name: String) -> MethodId {
        let mut def = self.meta.method(m).clone();
        def.name = name;
        def.flags.set(crate::metadata::Flags::SYNTHESIZED);
        def.vtable_slot = None;
        def.flags =
            crate::metadata::Flags(def.flags.0 & !(crate::metadata::Flags::VIRTUAL | crate::metadata::Flags::OVERRIDE | crate::metadata::Flags::ABSTRACT));
        def.body = MethodBody::None;
        let id = MethodId(self.meta.methods.len() as u32);
        self.meta.methods.push(def);
        self.method_src.push(super::sources::MethodSource::Nested);
        id
    }

    /// `System.Runtime.CompilerServices.Iterator<element>`.
    pub fn iterator_type(&mut self, element: TypeId) -> TypeId {
        match self.namespaces.find_type("System.Runtime.CompilerServices", "Iterator", 1) {
            Some(def) => self.meta.types.named(def, &[element]),
            None => TypeId::ERROR,
        }
    }

    fn install_function(&mut self, m: MethodId, f: Function) {
        let id = FunctionId(self.function_base + self.functions.len() as u32);
        self.functions.push(f);
        self.meta.methods[m.index()].body = MethodBody::Bytecode(id);
    }

    /// Whether code of `m` can name its own type parameters at run time (generic method,
    /// or member of a generic type).
    pub fn method_has_generic_context(&self, m: MethodId) -> bool {
        let md = self.meta.method(m);
        !md.type_params.is_empty() || !self.meta.type_def(md.owner).type_params.is_empty()
    }

    /// Whether callers pass `m` a hidden generic-context argument (generic methods, and
    /// static members of generic types; instance members find it through `this`).
    pub fn method_takes_context(&self, m: MethodId) -> bool {
        !self.meta.method(m).type_params.is_empty() || self.receives_class_context(m)
    }

    /// Whether callers pass the generic context of `m`'s class: static members of generic
    /// types, and instance members of `Nullable<T>`, whose receiver is the bare value (or
    /// null) and so cannot tell its own type.
    pub fn receives_class_context(&self, m: MethodId) -> bool {
        let md = self.meta.method(m);
        let owner_generic = !self.meta.type_def(md.owner).type_params.is_empty();
        owner_generic && (md.is_static() || md.owner == self.meta.well_known.nullable)
    }
}

impl<'a> FnBuilder<'a> {
    /// A classic state machine's `MoveNext`: the async body, run on the state machine.
    fn build_move_next(
        c: &'a mut Compiler,
        shared: &'a mut MethodShared,
        func_index: u32,
        method: MethodId,
        body: &BoundBody,
        env: EnvKind,
    ) -> (Function, classic::AwaitSites, Option<report::EmitNotes>) {
        let mut b = FnBuilder::new(c, shared, func_index, method, body, env);
        b.start_notes();
        b.assign_argument_registers(&[]);
        b.assign_local_registers();
        if stmt_has_finally(&body.body) {
            b.ret_reg = Some(b.alloc_reg());
        }
        b.emit_prologue(&[]);
        b.emit_move_next_body(&body.body);
        let mut sites = b.classic.as_ref().map(|c| c.sites.clone()).unwrap_or_default();
        let notes = b.take_notes();
        let (f, positions) = b.finish();
        sites.body_start = positions.map(sites.body_start);
        (f, sites, notes.map(|n| n.moved(&positions)))
    }

    fn build(c: &'a mut Compiler, shared: &'a mut MethodShared, func_index: u32, method: MethodId, body: &BoundBody, env: EnvKind) -> Function {
        Self::build_with_notes(c, shared, func_index, method, body, env).0
    }

    /// [`FnBuilder::build`], with the notes `vm lower` reads (if the compilation keeps them).
    fn build_with_notes(
        c: &'a mut Compiler,
        shared: &'a mut MethodShared,
        func_index: u32,
        method: MethodId,
        body: &BoundBody,
        env: EnvKind,
    ) -> (Function, Option<report::EmitNotes>) {
        let mut b = FnBuilder::new(c, shared, func_index, method, body, env);
        b.start_notes();
        b.assign_argument_registers(&body.params);
        b.assign_local_registers();
        if stmt_has_finally(&body.body) {
            b.ret_reg = Some(b.alloc_reg());
        }
        if body.async_result.is_some() || body.iterator.is_some() || b.is_state_machine_kickoff() {
            b.copy_struct_receiver();
        }
        b.emit_prologue(&body.params);
        b.emit_stmt(&body.body);
        if super::bind::syntax::can_complete(&body.body) || b.code.is_empty() {
            b.emit_implicit_return();
        }
        let notes = b.take_notes();
        let (f, positions) = b.finish();
        (f, notes.map(|n| n.moved(&positions)))
    }

    fn new(c: &'a mut Compiler, shared: &'a mut MethodShared, func_index: u32, method: MethodId, body: &BoundBody, env: EnvKind) -> FnBuilder<'a> {
        FnBuilder {
            c,
            shared,
            func_index,
            method,
            code: Vec::new(),
            pool: Vec::new(),
            handlers: Vec::new(),
            tables: Vec::new(),
            spans: Vec::new(),
            num_args: 0,
            next_reg: 0,
            max_reg: 0,
            local_regs: HashMap::new(),
            labels: HashMap::new(),
            fixups: Vec::new(),
            next_label: 1 << 30,
            finally_stack: Vec::new(),
            label_depth: HashMap::new(),
            ret_reg: None,
            display_regs: Vec::new(),
            env,
            ctx_reg: None,
            ctx_prologue: None,
            ctx_used: false,
            this_reg: None,
            current_span: body.body.span,
            classic: None,
            notes: None,
            forwarding_stub: is_forwarding_stub(body),
        }
    }

    /// `r0` = receiver (or closure environment), then the parameters, then the hidden
    /// generic context.
    fn assign_argument_registers(&mut self, params: &[LocalId]) {
        let md = self.c.meta.method(self.method).clone();
        if !md.is_static() {
            self.this_reg = Some(Reg(0));
            self.next_reg = 1;
        }
        for &p in params {
            let r = self.alloc_reg();
            self.local_regs.insert(p, r);
        }
        if self.c.method_takes_context(self.method) {
            self.ctx_reg = Some(self.alloc_reg());
        }
        self.num_args = self.next_reg;
    }

    /// Every non-hoisted local of this function gets its own register.
    fn assign_local_registers(&mut self) {
        for i in 0..self.shared.locals.len() {
            let l = &self.shared.locals[i];
            let id = LocalId(i as u32);
            if l.owner == self.func_index && !l.hoisted && !self.local_regs.contains_key(&id) && !matches!(l.kind, LocalKind::Param(_) | LocalKind::RefParam(_))
            {
                let r = self.alloc_reg();
                self.local_regs.insert(id, r);
            }
        }
    }

    fn emit_prologue(&mut self, params: &[LocalId]) {
        let md = self.c.meta.method(self.method).clone();
        let owner_generic = !self.c.meta.type_def(md.owner).type_params.is_empty();
        let is_method_fn = matches!(self.env, EnvKind::Method);
        if is_method_fn && !md.is_static() && owner_generic && !self.c.receives_class_context(self.method) {
            let r = match self.ctx_reg {
                Some(r) => r,
                None => {
                    // No method type arguments come in: the context starts from none
                    // (the register would otherwise hold whatever an earlier frame left).
                    let r = self.alloc_reg();
                    self.ctx_reg = Some(r);
                    self.emit(Op::LoadNull { dst: r });
                    r
                }
            };
            self.ctx_prologue = Some(self.code.len());
            self.emit(Op::Move { dst: r, src: r });
        }
        self.create_root_display(params);
        if !is_method_fn && self.shared.has_generic_context {
            self.load_context_from_env();
        }
    }

    pub fn alloc_reg(&mut self) -> Reg {
        let r = Reg(self.next_reg);
        self.next_reg = self.next_reg.saturating_add(1);
        self.max_reg = self.max_reg.max(self.next_reg);
        r
    }

    /// The register stack mark (free temporaries above it with [`free_to`]).
    pub fn mark(&self) -> u16 {
        self.next_reg
    }

    pub fn free_to(&mut self, mark: u16) {
        self.next_reg = mark;
    }

    pub fn emit(&mut self, op: Op) -> usize {
        let pc = self.code.len();
        if self.spans.last().is_none_or(|&(_, s)| s != self.current_span) {
            self.spans.push((pc as u32, self.current_span));
        }
        self.code.push(op);
        pc
    }

    pub fn pc(&self) -> u32 {
        self.code.len() as u32
    }

    pub fn new_label(&mut self) -> LabelId {
        self.next_label += 1;
        LabelId(self.next_label)
    }

    pub fn place_label(&mut self, l: LabelId) {
        self.labels.insert(l, self.pc());
        self.label_depth.entry(l).or_insert(self.finally_stack.len());
    }

    /// Emits a jump-type instruction whose target is patched when `l` is placed.
    pub fn emit_jump(&mut self, op: Op, l: LabelId) {
        let pc = self.emit(op);
        self.fixups.push((pc, l));
    }

    pub fn constant(&mut self, c: Constant) -> crate::bytecode::ConstIdx {
        let entry = PoolEntry::Constant(c);
        if let Some(i) = self.pool.iter().position(|p| *p == entry) {
            return crate::bytecode::ConstIdx(i as u32);
        }
        self.pool.push(entry);
        crate::bytecode::ConstIdx(self.pool.len() as u32 - 1)
    }

    pub fn constant_value(&mut self, v: Value) -> crate::bytecode::ConstIdx {
        let entry = PoolEntry::Value(v);
        // Compared bit for bit: `-0.0 == 0.0`, yet they print differently.
        let same = |p: &PoolEntry| match (p, &entry) {
            (PoolEntry::Value(Value::F64(a)), PoolEntry::Value(Value::F64(b))) => a.to_bits() == b.to_bits(),
            (PoolEntry::Value(Value::F32(a)), PoolEntry::Value(Value::F32(b))) => a.to_bits() == b.to_bits(),
            _ => *p == entry,
        };
        if let Some(i) = self.pool.iter().position(same) {
            return crate::bytecode::ConstIdx(i as u32);
        }
        self.pool.push(entry);
        crate::bytecode::ConstIdx(self.pool.len() as u32 - 1)
    }

    /// Fills in a jump table's targets (labels, resolved in `finish`).
    pub fn set_table_targets(&mut self, table: u32, targets: Vec<Target>) {
        if let Some(t) = self.tables.get_mut(table as usize) {
            t.targets = targets;
        }
    }

    pub fn add_table(&mut self, t: JumpTable) -> u32 {
        self.tables.push(t);
        self.tables.len() as u32 - 1
    }

    pub fn add_handler(&mut self, h: Handler) {
        self.handlers.push(h);
    }

    fn emit_implicit_return(&mut self) {
        self.emit_return(None);
    }

    /// The register holding the run-time generic context (marks it as needed).
    pub fn context_reg(&mut self) -> Option<Reg> {
        self.ctx_used = true;
        self.ctx_reg
    }

    /// Tuple element names are compile-time only: the instructions name the plain
    /// `ValueTuple` types.
    fn erase_tuple_names(&mut self) {
        let types = &mut self.c.meta.types;
        for op in &mut self.code {
            if let Some(t) = op.type_operand_mut() {
                *t = types.erase_names(*t);
            }
        }
        for h in &mut self.handlers {
            if let HandlerKind::Catch(ty) | HandlerKind::Filter { ty, .. } = &mut h.kind {
                *ty = types.erase_names(*ty);
            }
        }
        for entry in &mut self.pool {
            if let PoolEntry::Value(Value::Type(t)) = entry {
                *t = types.erase_names(*t);
            }
        }
    }

    /// Resolves labels and tables, runs the peephole pass and builds the function; also
    /// returns where the pass moved each instruction.
    fn finish(mut self) -> (Function, peephole::Positions) {
        if self.max_reg == u16::MAX {
            // Registers ran out: later temporaries shared the last one.
            let md = self.c.meta.method(self.method);
            let (file, span) = (md.file, md.span);
            self.c.error(file, span, "CS0204", "Only 65534 locals, including those generated by the compiler, are allowed");
        }
        for (pc, l) in std::mem::take(&mut self.fixups) {
            let target = self.labels.get(&l).copied().unwrap_or(self.code.len() as u32);
            if let Some(t) = self.code[pc].jump_target_mut() {
                *t = Target(target);
            }
        }
        self.erase_tuple_names();
        for h in &mut self.handlers {
            if let Some(&entry) = self.labels.get(&LabelId(h.entry.0)) {
                h.entry = Target(entry);
            }
            if let HandlerKind::Filter { filter, .. } = &mut h.kind {
                if let Some(&code) = self.labels.get(&LabelId(filter.0)) {
                    *filter = Target(code);
                }
            }
        }
        if let (Some(pc), true, Some(r)) = (self.ctx_prologue, self.ctx_used, self.ctx_reg) {
            let owner = self.c.meta.method(self.method).owner;
            let this = self.this_reg.unwrap_or(Reg(0));
            self.code[pc] = Op::ContextFromThis { dst: r, this, def: owner };
        }
        let mut resolved_tables: Vec<JumpTable> = self
            .tables
            .iter()
            .map(|t| JumpTable { low: t.low, targets: t.targets.iter().map(|l| Target(self.labels.get(&LabelId(l.0)).copied().unwrap_or(0))).collect() })
            .collect();
        let md = self.c.meta.method(self.method);
        let owner = self.c.meta.def_full_name(md.owner);
        let preemptible = !self.c.meta.type_def(md.owner).flags.has(crate::metadata::Flags::LIBRARY);
        let num_regs = self.max_reg.max(self.num_args).max(1);
        let positions = peephole::optimize(
            peephole::Code {
                code: &mut self.code,
                handlers: &mut self.handlers,
                tables: &mut resolved_tables,
                spans: &mut self.spans,
                num_regs,
                num_args: self.num_args,
            },
            &self.c.meta,
        );
        let f = Function {
            method: self.method,
            name: format!("{owner}.{}", md.name),
            preemptible,
            chaos_points: false,
            code: self.code,
            consts: Vec::new(),
            pool: self.pool,
            num_regs,
            num_args: self.num_args,
            handlers: self.handlers,
            tables: resolved_tables,
            spills: Vec::new(),
            spans: self.spans,
            file: md.file,
        };
        (f, positions)
    }

    /// An async or iterator method of a struct works on a copy of `this` (Roslyn's state
    /// machine copies it into `<>4__this`): the caller's variable keeps its value.
    pub fn copy_struct_receiver(&mut self) {
        let Some(this) = self.this_reg.filter(|_| matches!(self.env, EnvKind::Method)) else { return };
        let owner = self.c.meta.method(self.method).owner;
        let self_type = self.c.meta.type_def(owner).self_type;
        if self.is_struct_type(self_type) {
            self.emit(Op::CopyStruct { dst: this, src: this });
        }
    }

    /// Whether a type is a struct stored on the heap (copied on assignment).
    pub fn is_struct_type(&self, t: TypeId) -> bool {
        match self.c.meta.types.def_of(t) {
            Some(d) => {
                let def = self.c.meta.type_def(d);
                def.kind == TypeDefKind::Struct && !self.is_primitive_struct(t)
            }
            None => false,
        }
    }

    /// `int`, `double`... are structs in metadata but plain values in registers.
    pub fn is_primitive_struct(&self, t: TypeId) -> bool {
        let wk = &self.c.meta.well_known;
        [
            wk.boolean, wk.char, wk.sbyte, wk.byte, wk.int16, wk.uint16, wk.int32, wk.uint32, wk.int64, wk.uint64, wk.single, wk.double, wk.decimal, wk.intptr,
            wk.uintptr,
        ]
        .contains(&t)
            || self.c.meta.types.def_of(t) == Some(wk.nullable)
                && self.c.meta.types.args_of(t).first().is_some_and(|&a| {
                    self.is_primitive_struct(a) || self.c.meta.type_def(self.c.meta.types.def_of(a).unwrap_or_default()).kind == TypeDefKind::Enum
                })
    }

    pub fn is_type_param(&self, t: TypeId) -> bool {
        matches!(self.c.meta.types.kind(t), crate::metadata::TypeKind::Param { .. })
    }
}
