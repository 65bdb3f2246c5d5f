//! Closures: captured ("hoisted") locals live in display objects, one per block that
//! declares any, created each time the block is entered (so a `foreach` variable is fresh
//! per iteration and a `for` variable is shared, as in C#). Each display links to the
//! enclosing one; a lambda's receiver is the innermost display in scope where it is
//! created, `this` if it captures only `this`, or nothing.

use hashbrown::HashMap;

use super::FnBuilder;
use crate::bytecode::{Op, Reg};
use crate::compiler::bound::*;
use crate::metadata::{FieldDef, Flags, MethodId, TypeDefId, TypeDefKind, TypeId};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DisplayId(pub u32);

#[derive(Clone, Debug)]
pub struct DisplayInfo {
    pub ty: TypeId,
    pub def: TypeDefId,
    /// Field slot of each hoisted local.
    pub slots: HashMap<LocalId, u16>,
    /// Slot of the link to the enclosing display, if any.
    pub parent_slot: Option<u16>,
    pub parent: Option<DisplayId>,
    pub this_slot: Option<u16>,
    pub ctx_slot: Option<u16>,
}

/// How a nested function is entered.
#[derive(Clone, Debug)]
pub enum NestedEnv {
    /// Static: no receiver.
    None,
    /// `r0` is the enclosing method's `this`.
    This,
    /// `r0` is this display; its ancestors are reachable through parent links.
    Display(DisplayId),
}

#[derive(Clone, Debug)]
pub enum EnvKind {
    Method,
    Nested(NestedEnv),
}

/// Whether a bound statement uses `this` (directly or through a nested expression).
pub fn uses_this(s: &BStmt) -> bool {
    let mut found = false;
    walk_stmt(s, &mut |e| {
        if matches!(e.kind, BKind::This) {
            found = true;
        }
    });
    found
}

/// Calls `f` on every expression of `s`, nested ones included (not inside nested functions).
pub fn walk_stmt_exprs(s: &BStmt, f: &mut dyn FnMut(&BExpr)) {
    walk_stmt(s, f);
}

fn walk_stmt(s: &BStmt, f: &mut dyn FnMut(&BExpr)) {
    match &s.kind {
        SKind::Expr(e) | SKind::Throw(e) => walk_expr(e, f),
        SKind::Block { stmts, .. } => stmts.iter().for_each(|x| walk_stmt(x, f)),
        SKind::Local { init: Some(e), .. } | SKind::Return(Some(e)) | SKind::YieldReturn(e) => walk_expr(e, f),
        SKind::If { cond, then, otherwise } => {
            walk_expr(cond, f);
            walk_stmt(then, f);
            if let Some(o) = otherwise {
                walk_stmt(o, f);
            }
        }
        SKind::Loop { cond, body, update, .. } => {
            if let Some(c) = cond {
                walk_expr(c, f);
            }
            walk_stmt(body, f);
            update.iter().for_each(|u| walk_expr(u, f));
        }
        SKind::Try { body, catches, finally } => {
            walk_stmt(body, f);
            for c in catches {
                if let Some(x) = &c.filter {
                    walk_expr(x, f);
                }
                walk_stmt(&c.body, f);
            }
            if let Some(x) = finally {
                walk_stmt(x, f);
            }
        }
        SKind::Switch { value, .. } => walk_expr(value, f),
        _ => {}
    }
}

fn walk_expr(e: &BExpr, f: &mut dyn FnMut(&BExpr)) {
    f(e);
    match &e.kind {
        BKind::Field { receiver: Some(r), .. } => walk_expr(r, f),
        BKind::Elem { array, indices } => {
            walk_expr(array, f);
            indices.iter().for_each(|x| walk_expr(x, f));
        }
        BKind::Call { receiver, args, .. } => {
            if let Some(r) = receiver {
                walk_expr(r, f);
            }
            args.iter().for_each(|a| walk_expr(&a.expr, f));
        }
        BKind::New { args, .. } | BKind::CallNested { args, .. } => args.iter().for_each(|a| walk_expr(&a.expr, f)),
        BKind::NewArray { sizes } => sizes.iter().for_each(|x| walk_expr(x, f)),
        BKind::ArrayLiteral { elems } | BKind::Concat(elems) => elems.iter().for_each(|x| walk_expr(x, f)),
        BKind::DelegateNew { target: Some(t), .. } => walk_expr(t, f),
        BKind::Invoke { delegate, args } => {
            walk_expr(delegate, f);
            args.iter().for_each(|a| walk_expr(&a.expr, f));
        }
        BKind::Unary { operand, .. } | BKind::Conv { operand, .. } | BKind::TypeTest { operand, .. } | BKind::As { operand, .. } => walk_expr(operand, f),
        BKind::Format { value, .. } | BKind::Throw(value) | BKind::RefOf(value) | BKind::Deref(value) => walk_expr(value, f),
        BKind::Await(parts) => {
            walk_expr(&parts.operand, f);
            walk_expr(&parts.get_awaiter, f);
            walk_expr(&parts.is_completed, f);
            walk_expr(&parts.get_result, f);
        }
        BKind::Align { value, alignment } => {
            walk_expr(value, f);
            walk_expr(alignment, f);
        }
        BKind::Binary { left, right, .. } | BKind::AndAlso(left, right) | BKind::OrElse(left, right) | BKind::Coalesce(left, right) => {
            walk_expr(left, f);
            walk_expr(right, f);
        }
        BKind::Assign { target, value } => {
            walk_expr(target, f);
            walk_expr(value, f);
        }
        BKind::Cond { cond, then, otherwise } => {
            walk_expr(cond, f);
            walk_expr(then, f);
            walk_expr(otherwise, f);
        }
        BKind::Seq { stmts, value } => {
            stmts.iter().for_each(|s| walk_stmt(s, f));
            walk_expr(value, f);
        }
        BKind::ConditionalAccess { receiver, access, .. } => {
            walk_expr(receiver, f);
            walk_expr(access, f);
        }
        _ => {}
    }
}

impl FnBuilder<'_> {
    /// The function's first display: hoisted parameters, and (for the method itself) the
    /// captured `this` and generic context.
    pub fn create_root_display(&mut self, params: &[LocalId]) {
        if self.is_state_machine_kickoff() {
            return self.create_state_machine(params);
        }
        if self.forwarding_stub {
            return;
        }
        let hoisted: Vec<LocalId> = params.iter().copied().filter(|&p| self.shared.locals[p.0 as usize].hoisted).collect();
        let is_method = matches!(self.env, EnvKind::Method);
        let needs_this = is_method && self.shared.captures_this && self.this_reg.is_some() && self.any_nested_captures_locals();
        let needs_ctx = is_method && self.shared.has_generic_context && !self.shared.nested.is_empty();
        if hoisted.is_empty() && !needs_this && !needs_ctx {
            return;
        }
        let id = self.create_display(&hoisted, needs_this, needs_ctx);
        if is_method {
            self.shared.root_display = Some(id);
        }
        let reg = self.display_register(id);
        for p in hoisted {
            let Some(&pr) = self.local_regs.get(&p) else { continue };
            let slot = self.shared.displays[id.0 as usize].slots[&p];
            self.emit(Op::StoreField { obj: reg, slot, src: pr });
        }
        if needs_this {
            if let (Some(slot), Some(this)) = (self.shared.displays[id.0 as usize].this_slot, self.this_reg) {
                self.emit(Op::StoreField { obj: reg, slot, src: this });
            }
        }
        if needs_ctx {
            if let (Some(slot), Some(ctx)) = (self.shared.displays[id.0 as usize].ctx_slot, self.context_reg()) {
                self.emit(Op::StoreField { obj: reg, slot, src: ctx });
            }
        }
    }

    /// A classic async function's state machine: its own fields, the parameters (copied
    /// in), `this` and the generic context. Locals get fields later, when `MoveNext` is
    /// built and the ones live across an `await` are known.
    fn create_state_machine(&mut self, params: &[LocalId]) {
        let locals = params.to_vec();
        let is_method = matches!(self.env, EnvKind::Method);
        let needs_this = is_method && self.this_reg.is_some();
        let needs_ctx = is_method && self.shared.has_generic_context;
        let extra = self.state_machine_fields();
        let name = self.shared.state_machine.as_ref().map_or_else(String::new, |sm| sm.name.clone());
        let base = self.shared.state_machine.as_ref().and_then(|sm| sm.iterator.as_ref()).map(|it| it.base);
        let (id, first) = self.create_display_named(&locals, needs_this, needs_ctx, &name, &extra, base);
        if is_method {
            self.shared.root_display = Some(id);
        }
        self.record_state_machine_layout(id, first);
        let reg = self.display_register(id);
        for &p in params {
            let Some(&pr) = self.local_regs.get(&p) else { continue };
            // An async iterator keeps the arguments in <>3__p until GetAsyncEnumerator.
            let slot = self.argument_copy_slot(p).unwrap_or(self.shared.displays[id.0 as usize].slots[&p]);
            self.emit(Op::StoreField { obj: reg, slot, src: pr });
        }
        if let (Some(slot), Some(this)) = (self.shared.displays[id.0 as usize].this_slot, self.this_reg) {
            self.emit(Op::StoreField { obj: reg, slot, src: this });
        }
        if needs_ctx {
            if let (Some(slot), Some(ctx)) = (self.shared.displays[id.0 as usize].ctx_slot, self.context_reg()) {
                self.emit(Op::StoreField { obj: reg, slot, src: ctx });
            }
        }
    }

    /// Whether this function is a classic async method's kickoff (it creates the state
    /// machine).
    pub fn is_state_machine_kickoff(&self) -> bool {
        self.classic.is_none() && self.shared.state_machine.as_ref().is_some_and(|sm| sm.function == self.func_index && sm.layout.is_none())
    }

    fn any_nested_captures_locals(&self) -> bool {
        self.shared.locals.iter().any(|l| l.hoisted) || self.shared.has_generic_context
    }

    fn display_register(&self, id: DisplayId) -> Reg {
        self.display_regs.iter().find(|(d, _)| *d == id).map_or(Reg(0), |(_, r)| *r)
    }

    /// Creates a display object for `locals` (plus `this`/context slots) in a new register,
    /// linked to the innermost display in scope.
    pub fn create_display(&mut self, locals: &[LocalId], with_this: bool, with_ctx: bool) -> DisplayId {
        let ordinal = self.c.method_ordinal(self.shared.method);
        let name = format!("<>c__DisplayClass{ordinal}_{}", self.shared.displays.len());
        self.create_display_named(locals, with_this, with_ctx, &name, &[], None).0
    }

    /// A display class called `name` with `extra` fields before the locals' (a state
    /// machine's own), derived from `base` (an async iterator's) if given, whose fields
    /// come first; returns it and the slot of the first extra field.
    pub fn create_display_named(
        &mut self,
        locals: &[LocalId],
        with_this: bool,
        with_ctx: bool,
        name: &str,
        extra: &[(String, TypeId)],
        base: Option<TypeId>,
    ) -> (DisplayId, u16) {
        let offset = base.and_then(|b| self.c.meta.types.def_of(b)).map_or(0, |d| self.c.meta.type_def(d).instance_slots as usize);
        let parent = self.innermost_display();
        let owner = self.c.meta.method(self.shared.method).owner;
        let n = self.shared.displays.len();
        let object = self.c.meta.well_known.object;
        let mut fields: Vec<(String, TypeId)> = Vec::new();
        let parent_slot = parent.map(|_| {
            fields.push(("<>parent".into(), object));
            (offset + fields.len() - 1) as u16
        });
        let this_slot = with_this.then(|| {
            fields.push(("<>4__this".into(), object));
            (offset + fields.len() - 1) as u16
        });
        let ctx_slot = with_ctx.then(|| {
            fields.push(("<>ctx".into(), object));
            (offset + fields.len() - 1) as u16
        });
        let first_extra = (offset + fields.len()) as u16;
        fields.extend(extra.iter().cloned());
        let mut slots = HashMap::new();
        for (k, &l) in locals.iter().enumerate() {
            let info = &self.shared.locals[l.0 as usize];
            let field_name = if extra.is_empty() { info.name.clone() } else { state_machine_field_name(&info.name, info.kind, k) };
            fields.push((field_name, info.ty));
            slots.insert(l, (offset + fields.len() - 1) as u16);
            self.shared.local_display.insert(l, DisplayId(n as u32));
        }
        let (def, ty) = self.c.new_display_class(owner, name, &fields);
        if let Some(b) = base {
            self.c.derive_display_class(def, b);
        }
        let id = DisplayId(n as u32);
        self.shared.displays.push(DisplayInfo { ty, def, slots, parent_slot, parent, this_slot, ctx_slot });
        let reg = self.alloc_reg();
        self.emit(Op::New { dst: reg, ty });
        if let (Some(pslot), Some(p)) = (parent_slot, parent) {
            let m = self.mark();
            let preg = self.display_value(p);
            self.emit(Op::StoreField { obj: reg, slot: pslot, src: preg });
            self.free_to(m);
        }
        self.display_regs.push((id, reg));
        (id, first_extra)
    }

    /// The innermost display visible at this point (created here or inherited).
    pub fn innermost_display(&self) -> Option<DisplayId> {
        if let Some(&(d, _)) = self.display_regs.last() {
            return Some(d);
        }
        match &self.env {
            EnvKind::Nested(NestedEnv::Display(d)) => Some(*d),
            _ => None,
        }
    }

    /// A register holding display `d` (loading it through parent links if it belongs to an
    /// enclosing function).
    pub fn display_value(&mut self, d: DisplayId) -> Reg {
        if let Some(&(_, r)) = self.display_regs.iter().rev().find(|(x, _)| *x == d) {
            return r;
        }
        let EnvKind::Nested(NestedEnv::Display(env)) = self.env.clone() else { return Reg(0) };
        let (mut cur_id, mut cur_reg) = (env, Reg(0));
        let mut hops = 0;
        while cur_id != d && hops < 64 {
            let info = self.shared.displays[cur_id.0 as usize].clone();
            let (Some(pslot), Some(parent)) = (info.parent_slot, info.parent) else { break };
            let r = self.alloc_reg();
            self.emit(Op::LoadField { dst: r, obj: cur_reg, slot: pslot });
            cur_reg = r;
            cur_id = parent;
            hops += 1;
        }
        cur_reg
    }

    /// Creates the display of a block, if it declares hoisted locals.
    pub fn enter_block_display(&mut self, locals: &[LocalId]) -> bool {
        let hoisted: Vec<LocalId> = locals
            .iter()
            .copied()
            .filter(|&l| {
                let info = &self.shared.locals[l.0 as usize];
                info.hoisted && info.owner == self.func_index && !self.shared.local_display.contains_key(&l)
            })
            .collect();
        if hoisted.is_empty() {
            return false;
        }
        self.create_display(&hoisted, false, false);
        true
    }

    pub fn leave_block_display(&mut self) {
        self.display_regs.pop();
    }

    /// Where a local lives: a register, or a display field.
    pub fn local_location(&mut self, l: LocalId) -> LocalLoc {
        if let Some(&r) = self.local_regs.get(&l) {
            let info = &self.shared.locals[l.0 as usize];
            if !info.hoisted || !self.shared.local_display.contains_key(&l) {
                return if matches!(info.kind, LocalKind::RefParam(_) | LocalKind::RefLocal) { LocalLoc::RefReg(r) } else { LocalLoc::Reg(r) };
            }
        }
        match self.shared.local_display.get(&l).copied() {
            Some(d) => {
                let slot = self.shared.displays[d.0 as usize].slots[&l];
                let obj = self.display_value(d);
                LocalLoc::Field(obj, slot)
            }
            None => {
                let r = self.alloc_reg();
                self.local_regs.insert(l, r);
                LocalLoc::Reg(r)
            }
        }
    }

    /// The environment a nested function gets where it is created or declared.
    pub fn nested_env_here(&mut self, id: NestedId) -> NestedEnv {
        let n = self.shared.nested[id.0 as usize].clone();
        let Some(body) = &n.body else { return NestedEnv::None };
        let captures_locals = self
            .shared
            .locals
            .iter()
            .enumerate()
            .any(|(i, l)| l.hoisted && l.owner != id.0 + 1 && references_local(&body.body, LocalId(i as u32), &self.shared.nested));
        let needs_ctx = self.shared.has_generic_context;
        if captures_locals || needs_ctx || self.nested_calls_need_env(id) {
            if let Some(d) = self.innermost_display() {
                return NestedEnv::Display(d);
            }
        }
        if uses_this(&body.body) {
            return match &self.env {
                EnvKind::Method if self.this_reg.is_some() => NestedEnv::This,
                EnvKind::Nested(NestedEnv::This) => NestedEnv::This,
                EnvKind::Nested(NestedEnv::Display(d)) => NestedEnv::Display(*d),
                _ => NestedEnv::None,
            };
        }
        NestedEnv::None
    }

    /// A nested function that calls or creates other nested functions needs an
    /// environment if they do.
    fn nested_calls_need_env(&self, id: NestedId) -> bool {
        let Some(body) = &self.shared.nested[id.0 as usize].body else { return false };
        let mut found = false;
        walk_stmt(&body.body, &mut |e| {
            if matches!(e.kind, BKind::CallNested { .. } | BKind::Closure(_)) {
                found = true;
            }
        });
        found && self.innermost_display().is_some()
    }

    /// Loads the environment value for a nested function into a register.
    pub fn env_value(&mut self, env: &NestedEnv) -> Option<Reg> {
        match env {
            NestedEnv::None => None,
            NestedEnv::This => match (&self.env, self.this_reg) {
                (EnvKind::Method, Some(r)) => Some(r),
                (EnvKind::Nested(NestedEnv::This), _) => Some(Reg(0)),
                _ => self.this_value(),
            },
            NestedEnv::Display(d) => Some(self.display_value(*d)),
        }
    }

    /// A register holding the method's `this` (from any nested function).
    pub fn this_value(&mut self) -> Option<Reg> {
        match &self.env {
            EnvKind::Method => self.this_reg,
            EnvKind::Nested(NestedEnv::This) => Some(Reg(0)),
            EnvKind::Nested(NestedEnv::Display(_)) => {
                let root = self.shared.root_display?;
                let slot = self.shared.displays[root.0 as usize].this_slot?;
                let obj = self.display_value(root);
                let r = self.alloc_reg();
                self.emit(Op::LoadField { dst: r, obj, slot });
                Some(r)
            }
            EnvKind::Nested(NestedEnv::None) => None,
        }
    }

    /// In a nested function: loads the method's generic context from the root display.
    pub fn load_context_from_env(&mut self) {
        let Some(root) = self.shared.root_display else { return };
        let Some(slot) = self.shared.displays[root.0 as usize].ctx_slot else { return };
        if !matches!(self.env, EnvKind::Nested(NestedEnv::Display(_))) {
            return;
        }
        let obj = self.display_value(root);
        let r = self.alloc_reg();
        self.emit(Op::LoadField { dst: r, obj, slot });
        self.ctx_reg = Some(r);
    }
}

/// Where a local's value lives.
#[derive(Clone, Copy, Debug)]
pub enum LocalLoc {
    Reg(Reg),
    /// A `ref`/`out` parameter: the register holds a reference.
    RefReg(Reg),
    Field(Reg, u16),
}

/// Whether a function body (or its nested functions) mentions `l`.
fn references_local(s: &BStmt, l: LocalId, nested: &[NestedFunction]) -> bool {
    let mut found = false;
    let mut inner: Vec<NestedId> = Vec::new();
    walk_stmt(s, &mut |e| match &e.kind {
        BKind::Local(x) if *x == l => found = true,
        BKind::Closure(n) | BKind::CallNested { nested: n, .. } => inner.push(*n),
        BKind::ConditionalAccess { temp, .. } if *temp == l => found = true,
        _ => {}
    });
    walk_locals_declared(s, &mut |x| {
        if x == l {
            found = true;
        }
    });
    if found {
        return true;
    }
    inner.into_iter().any(|n| nested.get(n.0 as usize).and_then(|f| f.body.as_ref()).is_some_and(|b| references_local_shallow(&b.body, l)))
}

fn references_local_shallow(s: &BStmt, l: LocalId) -> bool {
    let mut found = false;
    walk_stmt(s, &mut |e| {
        if matches!(e.kind, BKind::Local(x) if x == l) {
            found = true;
        }
    });
    found
}

fn walk_locals_declared(s: &BStmt, f: &mut dyn FnMut(LocalId)) {
    match &s.kind {
        SKind::Local { local, .. } => f(*local),
        SKind::Block { stmts, .. } => stmts.iter().for_each(|x| walk_locals_declared(x, f)),
        SKind::If { then, otherwise, .. } => {
            walk_locals_declared(then, f);
            if let Some(o) = otherwise {
                walk_locals_declared(o, f);
            }
        }
        SKind::Loop { body, .. } => walk_locals_declared(body, f),
        SKind::Try { body, catches, finally } => {
            walk_locals_declared(body, f);
            for c in catches {
                walk_locals_declared(&c.body, f);
            }
            if let Some(x) = finally {
                walk_locals_declared(x, f);
            }
        }
        _ => {}
    }
}

impl crate::compiler::Compiler {
    /// A synthesized display class nested in `owner`.
    pub fn new_display_class(&mut self, owner: TypeDefId, name: &str, fields: &[(String, TypeId)]) -> (TypeDefId, TypeId) {
        let def = TypeDefId(self.meta.type_defs.len() as u32);
        let file = self.meta.type_def(owner).file;
        let span = self.meta.type_def(owner).span;
        let object = self.meta.well_known.object;
        let self_type = self.meta.types.named(def, &[]);
        let mut flags = Flags(Flags::SEALED | Flags::SYNTHESIZED | Flags::PRIVATE);
        if self.meta.type_def(owner).flags.has(Flags::LIBRARY) {
            flags.set(Flags::LIBRARY);
        }
        self.meta.type_defs.push(crate::metadata::TypeDef {
            name: name.to_string(),
            namespace: String::new(),
            declaring_type: Some(owner),
            kind: TypeDefKind::Class,
            flags,
            type_params: Vec::new(),
            self_type,
            base: Some(object),
            interfaces: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            properties: Vec::new(),
            nested: Vec::new(),
            enum_underlying: None,
            modeled_size: None,
            instance_slots: fields.len() as u32,
            static_slots: 0,
            vtable: self.meta.types.def_of(object).map(|o| self.meta.type_def(o).vtable.clone()).unwrap_or_default(),
            interface_map: Default::default(),
            interface_map_by_type: Default::default(),
            static_ctor: None,
            file,
            span,
        });
        self.type_src.push(Default::default());
        self.meta.type_defs[owner.index()].nested.push(def);
        for (i, (fname, fty)) in fields.iter().enumerate() {
            let f = crate::metadata::FieldId(self.meta.fields.len() as u32);
            self.meta.fields.push(FieldDef { name: fname.clone(), owner: def, ty: *fty, flags: Flags(Flags::PUBLIC), slot: i as u32, constant: None, span });
            self.meta.type_defs[def.index()].fields.push(f);
        }
        (def, self_type)
    }

    /// Makes display class `def` derive from `base` (an async iterator's state machine from
    /// `AsyncIteratorStateMachine<T>`): its fields come after the base's, its vtable starts
    /// as the base's.
    pub fn derive_display_class(&mut self, def: TypeDefId, base: TypeId) {
        let Some(base_def) = self.meta.types.def_of(base) else { return };
        let offset = self.meta.type_def(base_def).instance_slots;
        let vtable = self.meta.type_def(base_def).vtable.clone();
        for f in self.meta.type_def(def).fields.clone() {
            self.meta.fields[f.0 as usize].slot += offset;
        }
        let td = &mut self.meta.type_defs[def.index()];
        td.base = Some(base);
        td.instance_slots += offset;
        td.vtable = vtable;
    }

    /// Makes a nested function's metadata match how it is entered: an instance method of
    /// its display class, of the containing type (`this`), or static.
    pub fn prepare_nested_method(&mut self, m: MethodId, env: &NestedEnv) {
        let md = &mut self.meta.methods[m.index()];
        match env {
            NestedEnv::None => md.flags.set(Flags::STATIC),
            NestedEnv::This | NestedEnv::Display(_) => md.flags.0 &= !Flags::STATIC,
        }
    }
}

/// Roslyn's name for a hoisted local of a state machine: parameters keep theirs, user
/// locals become `<x>5__N`, compiler temporaries `<>s__N`.
fn state_machine_field_name(name: &str, kind: LocalKind, index: usize) -> String {
    match kind {
        LocalKind::Param(_) | LocalKind::RefParam(_) => name.to_string(),
        LocalKind::User | LocalKind::RefLocal => format!("<{name}>5__{}", index + 1),
        LocalKind::Temp => format!("<>s__{}", index + 1),
    }
}
