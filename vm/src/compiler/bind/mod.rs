//! The binder: turns one method's syntax into a [`BoundBody`], resolving names, types,
//! members and overloads, inserting conversions, and reporting C#'s errors.
//!
//! One [`MethodBinder`] binds a method together with its lambdas and local functions
//! (they share the method's locals table, so captures are visible to the emitter).

pub mod arg_order;
pub mod async_streams;
pub mod awaits;
pub mod call;
pub mod conditional_logical;
pub mod constant_checks;
pub mod convert;
pub mod converted_operands;
pub mod definite;
pub mod event_subscription;
pub mod expr;
pub mod index_range;
pub mod init;
pub mod interpolation;
pub mod lambda;
pub mod lookup;
pub mod method_group;
pub mod operators;
pub mod pattern;
pub mod readonly;
pub mod scope_names;
pub mod stmt;
pub mod syntax;
pub mod this_assignment;
pub mod type_arg_constraints;
pub mod warnings;

use std::rc::Rc;

use hashbrown::HashMap;

use super::bound::*;
use super::resolve::NameContext;
use super::sources::MethodSource;
use super::Compiler;
use crate::metadata::{FileId, Flags, MethodId, MethodKind, TypeDefId, TypeId};
use crate::value::Value;
use grammar::ast;
use grammar::span::Span;

/// A lexical scope: the names it declares.
#[derive(Default)]
struct Scope {
    names: scope_names::ScopeNames,
    /// Locals declared in this scope (for the block's `locals` list).
    locals: Vec<LocalId>,
    /// Local functions declared in this scope.
    functions: Vec<(String, NestedId)>,
    /// Labels declared in this scope (`goto`).
    labels: Vec<(String, LabelId)>,
    /// Locals this block declares further on: a local's scope is its whole block, so
    /// their names may not be used (CS0841) or declared again in a nested scope (CS0136)
    /// before their declarations.
    pending: scope_names::PendingNames,
    /// The function whose body the scope is in ([`FuncCtx::index`]).
    owner: u32,
    /// A switch section's scope: its locals belong to the switch block's declaration
    /// space (the enclosing scope), its pattern variables to the section.
    switch_section: bool,
}

/// The function currently being bound (the method itself or a nested function).
#[derive(Clone)]
pub struct FuncCtx {
    /// 0 for the method, `n + 1` for nested function `n`.
    pub index: u32,
    pub return_type: TypeId,
    pub is_async: bool,
    /// The method returns a Task-like type: `return e;` takes the result type.
    pub async_result: Option<TypeId>,
    pub is_static: bool,
    /// Return types seen so far, when inferring a lambda's return type.
    pub inferred_returns: Option<Vec<TypeId>>,
    pub method: MethodId,
    /// The element type of an iterator (a body with `yield`).
    pub iterator_element: Option<TypeId>,
}

pub struct MethodBinder<'c> {
    pub c: &'c mut Compiler,
    pub method: MethodId,
    pub ctx: NameContext,
    pub file: FileId,
    pub locals: Vec<LocalInfo>,
    scopes: Vec<Scope>,
    next_label: u32,
    /// `break`/`continue` targets, innermost last.
    pub loops: Vec<(LabelId, Option<LabelId>)>,
    /// The exception temp of each enclosing catch block (for `throw;`).
    pub catches: Vec<LocalId>,
    pub nested: Vec<NestedFunction>,
    pub func: FuncCtx,
    /// The type `this` has (the containing type), if the method is an instance member.
    pub this_type: Option<TypeId>,
    pub checked: bool,
    /// Inside an explicit `unchecked` expression or block: constant expressions wrap
    /// instead of being compile-time errors.
    pub explicitly_unchecked: bool,
    /// The values of `const` locals: a use is that constant (`const byte b = 1; +b`).
    pub const_locals: HashMap<LocalId, ConstVal>,
    /// Goto labels by name, per function.
    pending_gotos: Vec<(String, LabelId, Span)>,
    /// Enclosing `switch` statements (for `goto case`).
    pub switch_stack: Vec<pattern::SwitchCtx>,
    /// The scope depth of a REPL session's top-level statements, where a declaration
    /// shadows an earlier one of the same name ([`super::CompileOptions::interactive`]).
    submission_scope: Option<usize>,
    /// Locals CS0168/CS0219 stay silent about: constants, and locals named by `nameof`.
    pub unused_exempt: Vec<LocalId>,
}

pub fn value_arg(expr: BExpr) -> BArg {
    BArg { expr, kind: ArgKind::Value }
}

/// A constant from a run-time value (for folding).
pub fn value_to_const(v: Value) -> Option<ConstVal> {
    Some(match v {
        Value::Bool(b) => ConstVal::Bool(b),
        Value::Char(c) => ConstVal::Char(c),
        Value::I8(x) => ConstVal::Int(x as i64),
        Value::U8(x) => ConstVal::Int(x as i64),
        Value::I16(x) => ConstVal::Int(x as i64),
        Value::U16(x) => ConstVal::Int(x as i64),
        Value::I32(x) => ConstVal::Int(x as i64),
        Value::U32(x) => ConstVal::Int(x as i64),
        Value::I64(x) => ConstVal::Int(x),
        Value::U64(x) => ConstVal::UInt(x),
        Value::F32(x) => ConstVal::Float(x as f64),
        Value::F64(x) => ConstVal::Float(x),
        _ => return None,
    })
}

impl<'c> MethodBinder<'c> {
    pub fn new(c: &'c mut Compiler, method: MethodId, scope: super::scopes::ScopeId) -> MethodBinder<'c> {
        let md = c.meta.method(method).clone();
        let file = md.file;
        let ctx = NameContext::new(scope, file, Some(md.owner)).with_method(method);
        let this_type = (!md.is_static()).then(|| c.meta.type_def(md.owner).self_type);
        let (is_async, async_result) = (md.flags.has(Flags::ASYNC), None);
        let mut b = MethodBinder {
            c,
            method,
            ctx,
            file,
            locals: Vec::new(),
            scopes: vec![Scope::default()],
            next_label: 0,
            loops: Vec::new(),
            catches: Vec::new(),
            nested: Vec::new(),
            func: FuncCtx {
                index: 0,
                return_type: md.ret,
                is_async,
                async_result,
                is_static: md.is_static(),
                inferred_returns: None,
                method,
                iterator_element: None,
            },
            this_type,
            checked: false,
            explicitly_unchecked: false,
            const_locals: HashMap::new(),
            pending_gotos: Vec::new(),
            switch_stack: Vec::new(),
            submission_scope: None,
            unused_exempt: Vec::new(),
        };
        if is_async {
            b.func.async_result = b.task_result_type(md.ret);
        }
        b
    }

    pub fn error(&mut self, span: Span, code: &'static str, msg: impl Into<String>) {
        self.c.error(self.file, span, code, msg);
    }

    pub fn type_name(&self, t: TypeId) -> String {
        self.c.meta.cs_name(t)
    }

    pub fn new_label(&mut self) -> LabelId {
        self.next_label += 1;
        LabelId(self.next_label - 1)
    }

    /// Declares a local in the current scope (CS0128/CS0136 on conflicts) where `_` is a
    /// discard (`out var _`, `is var _`, `var (_, x)`, lambda parameters all named `_`):
    /// such a local exists but no name finds it.
    pub fn declare_local(&mut self, name: &str, ty: TypeId, kind: LocalKind, span: Span) -> LocalId {
        self.declare(name, ty, kind, span, name == "_")
    }

    /// Declares a variable whose name is always a name, `_` included (`int _ = 5;`, a
    /// parameter, a `foreach` or `catch` variable, a lambda's only parameter `_`).
    pub fn declare_variable(&mut self, name: &str, ty: TypeId, kind: LocalKind, span: Span) -> LocalId {
        self.declare(name, ty, kind, span, false)
    }

    /// A parameter of a lambda or local function: `_` is a discard when `discards`.
    pub fn declare_parameter(&mut self, name: &str, ty: TypeId, kind: LocalKind, span: Span, discards: bool) -> LocalId {
        self.declare(name, ty, kind, span, discards && name == "_")
    }

    /// Whether the current declaration space (the current scope, with the switch block's
    /// for a switch section) already declares `name`.
    fn declared_in_this_space(&self, name: &str) -> bool {
        let declares = |s: &Scope| s.names.find(name).is_some();
        let mut spaces = self.scopes.iter().rev();
        match spaces.next() {
            Some(s) if declares(s) => true,
            Some(s) if s.switch_section => spaces.next().is_some_and(declares),
            _ => false,
        }
    }

    /// Marks the current scope as a switch section's (see [`Scope::switch_section`]).
    pub fn mark_switch_section(&mut self) {
        if let Some(s) = self.scopes.last_mut() {
            s.switch_section = true;
        }
    }

    fn declare(&mut self, name: &str, ty: TypeId, kind: LocalKind, span: Span, discard: bool) -> LocalId {
        let shadows_earlier_input = self.submission_scope == Some(self.scopes.len());
        if !discard && kind == LocalKind::User && !shadows_earlier_input {
            if self.declared_in_this_space(name) {
                self.error(span, "CS0128", format!("A local variable or function named '{name}' is already defined in this scope"));
            } else if self.lookup_local(name).is_some_and(|l| self.locals[l.0 as usize].owner == self.func.index)
                || self.declared_later_in_enclosing_scope(name)
            {
                self.error(span, "CS0136", format!("A local or parameter named '{name}' cannot be declared in this scope because that name is used in an enclosing local scope to define a local or parameter"));
            }
        }
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(LocalInfo { name: name.to_string(), ty, kind, owner: self.func.index, hoisted: false, span });
        if let Some(s) = self.scopes.last_mut() {
            if !discard {
                s.names.push(name, id);
                s.pending.remove_one(name);
            }
            s.locals.push(id);
        }
        id
    }

    /// Records the locals a statement list declares (at its own level) before binding it.
    pub fn expect_locals<'n>(&mut self, names: impl Iterator<Item = &'n str>) {
        if let Some(s) = self.scopes.last_mut() {
            for name in names {
                s.pending.add(name);
            }
        }
    }

    /// Whether a scope enclosing the current one, in the same function, declares `name`
    /// further on.
    fn declared_later_in_enclosing_scope(&self, name: &str) -> bool {
        let enclosing = &self.scopes[..self.scopes.len().saturating_sub(1)];
        enclosing.iter().any(|s| s.owner == self.func.index && s.pending.contains(name))
    }

    /// Whether `name` is a local of the current function's blocks used before its
    /// declaration.
    pub fn used_before_declaration(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.owner == self.func.index && s.pending.contains(name))
    }

    /// A compiler temporary (not visible to name lookup).
    pub fn temp(&mut self, ty: TypeId, span: Span) -> LocalId {
        let id = LocalId(self.locals.len() as u32);
        self.locals.push(LocalInfo { name: String::new(), ty, kind: LocalKind::Temp, owner: self.func.index, hoisted: false, span });
        if let Some(s) = self.scopes.last_mut() {
            s.locals.push(id);
        }
        id
    }

    /// A compiler temporary that aliases a variable (a by-reference temporary).
    pub fn ref_temp(&mut self, ty: TypeId, span: Span) -> LocalId {
        let id = self.temp(ty, span);
        self.locals[id.0 as usize].kind = LocalKind::RefLocal;
        id
    }

    pub fn local_expr(&self, id: LocalId, span: Span) -> BExpr {
        BExpr::new(BKind::Local(id), self.locals[id.0 as usize].ty, span)
    }

    pub fn lookup_local(&self, name: &str) -> Option<LocalId> {
        self.scopes.iter().rev().find_map(|s| s.names.find(name))
    }

    pub fn lookup_local_function(&self, name: &str) -> Option<NestedId> {
        self.scopes.iter().rev().find_map(|s| s.functions.iter().rev().find(|(n, _)| n == name).map(|(_, f)| *f))
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Scope { owner: self.func.index, ..Scope::default() });
    }

    /// Pops a scope, returning the locals it declared.
    pub fn pop_scope(&mut self) -> Vec<LocalId> {
        self.scopes.pop().map(|s| s.locals).unwrap_or_default()
    }

    /// How many names the current scope declares.
    pub fn scope_name_count(&self) -> usize {
        self.scopes.last().map_or(0, |s| s.names.len())
    }

    /// Pops a scope whose names from the `first`th on stay in scope in the enclosing one
    /// (a switch section's locals belong to the switch block; its pattern variables, the
    /// names before, do not), returning the locals it declared.
    pub fn pop_scope_passing_names_from(&mut self, first: usize) -> Vec<LocalId> {
        let Some(mut scope) = self.scopes.pop() else { return Vec::new() };
        if let Some(enclosing) = self.scopes.last_mut() {
            enclosing.names.extend(scope.names.split_off(first));
        }
        scope.locals
    }

    /// Removes locals numbered `first` and above from the scopes (a trial binding that
    /// declared pattern or `out` variables in the enclosing scope is being undone).
    pub fn forget_scoped_locals_from(&mut self, first: usize) {
        for s in &mut self.scopes {
            s.names.retain(|l| (l.0 as usize) < first);
            s.locals.retain(|l| (l.0 as usize) < first);
        }
    }

    /// Makes an existing local visible under another name in the current scope.
    pub fn declare_alias(&mut self, name: &str, id: LocalId) {
        if let Some(s) = self.scopes.last_mut() {
            s.names.push(name, id);
        }
    }

    /// Adds locals (declared in an inner scope) to the current scope's storage list.
    pub fn extend_current_scope_locals(&mut self, locals: Vec<LocalId>) {
        if let Some(s) = self.scopes.last_mut() {
            s.locals.extend(locals);
        }
    }

    pub fn add_scope_function(&mut self, name: &str, id: NestedId) {
        if let Some(s) = self.scopes.last_mut() {
            s.functions.push((name.to_string(), id));
        }
    }

    pub fn add_scope_label(&mut self, name: &str, id: LabelId) {
        if let Some(s) = self.scopes.last_mut() {
            s.labels.push((name.to_string(), id));
        }
    }

    pub fn lookup_label(&self, name: &str) -> Option<LabelId> {
        self.scopes.iter().rev().find_map(|s| s.labels.iter().find(|(n, _)| n == name).map(|(_, l)| *l))
    }

    /// Notes a use of a local: uses from a nested function capture it.
    pub fn use_local(&mut self, id: LocalId) {
        let l = &mut self.locals[id.0 as usize];
        if l.owner != self.func.index {
            l.hoisted = true;
        }
    }

    pub fn wk(&self) -> &crate::metadata::WellKnown {
        &self.c.meta.well_known
    }

    /// The `T` of `Task<T>`/`ValueTask<T>` (`void` for `Task`), or `None` if not task-like.
    pub fn task_result_type(&self, t: TypeId) -> Option<TypeId> {
        let def = self.c.meta.types.def_of(t)?;
        let d = self.c.meta.type_def(def);
        if d.namespace != "System.Threading.Tasks" || !(d.name == "Task" || d.name == "ValueTask") {
            return None;
        }
        Some(self.c.meta.types.args_of(t).first().copied().unwrap_or(TypeId::VOID))
    }

    // ---- bodies --------------------------------------------------------------------------

    /// Declares the parameters of the method being bound as locals.
    fn declare_params(&mut self) -> Vec<LocalId> {
        let params = self.c.meta.method(self.method).params.clone();
        params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                // `in` parameters are read-only, so they are passed by value: only aliasing
                // (a change by someone else during the call) could tell the difference.
                let kind = match p.kind {
                    crate::metadata::ParamKind::Ref | crate::metadata::ParamKind::Out => LocalKind::RefParam(i as u16),
                    _ => LocalKind::Param(i as u16),
                };
                self.declare_variable(&p.name, p.ty, kind, Span::default())
            })
            .collect()
    }

    /// Binds the body the method's source describes.
    pub fn bind_method(&mut self, source: &MethodSource) -> Option<BoundBody> {
        let errors_before = self.c.diags.len();
        let params = self.declare_params();
        let span = self.c.meta.method(self.method).span;
        let body = match source {
            MethodSource::Method { decl, .. } => {
                let body = decl.body.as_ref()?;
                self.bind_body(body)
            }
            MethodSource::Operator { decl, .. } => self.bind_body(decl.body.as_ref()?),
            MethodSource::Accessor { body, .. } => self.bind_body(body),
            MethodSource::ExprProperty { expr, .. } => self.bind_body(&ast::Body::Expr(Box::new((**expr).clone()))),
            MethodSource::TopLevel { stmts, .. } => self.bind_top_level(stmts),
            MethodSource::Constructor { decl, .. } => self.bind_constructor(Some(decl.clone())),
            MethodSource::ImplicitConstructor { .. } => self.bind_constructor(None),
            MethodSource::StaticConstructor { owner, decl, .. } => self.bind_static_constructor(*owner, decl.clone()),
            MethodSource::AutoGetter { field } => self.bind_auto_getter(*field, span),
            MethodSource::AutoSetter { field } => self.bind_auto_setter(*field, &params, span),
            MethodSource::RecordMember { owner, kind } => self.bind_record_member(*owner, *kind, &params, span),
            MethodSource::None | MethodSource::Nested => return None,
        };
        self.resolve_gotos();
        self.check_definite_assignment(&body);
        let async_result = self.func.is_async.then(|| self.func.async_result.unwrap_or(TypeId::VOID));
        let bound = BoundBody { body, params, iterator: self.func.iterator_element, async_result };
        if self.c.diags.len() == errors_before {
            self.report_body_warnings(&bound);
        }
        Some(bound)
    }

    /// A block or expression body of the current function.
    pub fn bind_body(&mut self, body: &ast::Body) -> BStmt {
        match body {
            ast::Body::Block(b) if syntax::block_is_iterator(b) => {
                self.func.iterator_element = Some(self.iterator_element_type(b.span));
                self.bind_block(b)
            }
            ast::Body::Block(b) => {
                let s = self.bind_block(b);
                if self.func.is_async && self.async_iterator_element(self.func.return_type).is_some() {
                    self.report_async_iterator_without_yield(&s, b.span);
                    return s;
                }
                self.check_all_paths_return(&s, b.span);
                s
            }
            ast::Body::Expr(e) => {
                // A block of its own, as `{ return e; }`: the `out var`s and pattern
                // variables `e` declares are that block's locals.
                self.push_scope();
                let returns_void = self.func.async_result.unwrap_or(self.func.return_type) == TypeId::VOID;
                let stmt = if returns_void {
                    let ex = self.bind_expr_statement(e);
                    BStmt::new(SKind::Expr(ex), e.span)
                } else {
                    let target = self.func.async_result.unwrap_or(self.func.return_type);
                    let v = self.bind_return_value(e, target);
                    BStmt::new(SKind::Return(Some(v)), e.span)
                };
                let locals = self.pop_scope();
                BStmt::new(SKind::Block { stmts: vec![stmt], locals }, e.span)
            }
        }
    }

    fn bind_top_level(&mut self, stmts: &Rc<Vec<ast::Stmt>>) -> BStmt {
        let span = stmts.first().map_or(Span::default(), |s| s.span);
        let block = ast::Block { stmts: (**stmts).clone(), span };
        if self.c.options.interactive {
            self.submission_scope = Some(self.scopes.len() + 1);
        }
        self.bind_block(&block)
    }

    /// `T get_P() => this.<P>k__BackingField;`
    fn bind_auto_getter(&mut self, field: crate::metadata::FieldId, span: Span) -> BStmt {
        let f = self.field_access(field, span);
        BStmt::new(SKind::Return(Some(f)), span)
    }

    fn bind_auto_setter(&mut self, field: crate::metadata::FieldId, params: &[LocalId], span: Span) -> BStmt {
        let target = self.field_access(field, span);
        let Some(&value) = params.last() else { return BStmt::new(SKind::Empty, span) };
        let v = self.local_expr(value, span);
        let ty = target.ty;
        let assign = BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(v) }, ty, span);
        BStmt::new(SKind::Expr(assign), span)
    }

    /// `this.field` or `Type.field` for a field of the current type.
    pub fn field_access(&mut self, field: crate::metadata::FieldId, span: Span) -> BExpr {
        let fd = self.c.meta.field(field).clone();
        let owner = self.c.meta.type_def(fd.owner).self_type;
        let receiver = (!fd.is_static()).then(|| Box::new(BExpr::new(BKind::This, owner, span)));
        BExpr::new(BKind::Field { receiver, field, owner }, fd.ty, span)
    }

    /// Instance field initializers of the current type, in declaration order.
    fn bind_instance_field_initializers(&mut self, owner: TypeDefId) -> Vec<BStmt> {
        self.bind_field_initializers(owner, false)
    }

    fn bind_field_initializers(&mut self, owner: TypeDefId, statics: bool) -> Vec<BStmt> {
        let mut out = Vec::new();
        for f in self.c.meta.type_def(owner).fields.clone() {
            let fd = self.c.meta.field(f).clone();
            if fd.flags.has(Flags::CONST) || fd.flags.has(Flags::STATIC) != statics {
                continue;
            }
            let Some(src) = self.c.field_src.get(&f).cloned() else { continue };
            let Some(init) = src.init else { continue };
            let saved = (self.ctx.scope, self.file);
            self.ctx.scope = src.scope;
            self.file = src.file;
            self.ctx.file = src.file;
            let value = self.bind_expr_to(&init, fd.ty);
            self.ctx.scope = saved.0;
            self.file = saved.1;
            self.ctx.file = saved.1;
            let target = self.field_access(f, init.span);
            let assign = BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(value) }, fd.ty, init.span);
            out.push(BStmt::new(SKind::Expr(assign), init.span));
        }
        out
    }

    fn bind_static_constructor(&mut self, owner: TypeDefId, decl: Option<Rc<ast::ConstructorDecl>>) -> BStmt {
        let mut stmts = self.bind_field_initializers(owner, true);
        if let Some(d) = decl {
            if let Some(body) = &d.body {
                stmts.push(self.bind_body(body));
            }
        }
        BStmt::new(SKind::Block { stmts, locals: Vec::new() }, Span::default())
    }

    /// A constructor: field initializers (unless it chains to `this(...)`), the base or
    /// `this` constructor call, primary-constructor parameter stores, then the body.
    fn bind_constructor(&mut self, decl: Option<Rc<ast::ConstructorDecl>>) -> BStmt {
        let owner = self.c.meta.method(self.method).owner;
        let span = self.c.meta.method(self.method).span;
        let mut stmts = Vec::new();
        let chains_to_this = decl.as_ref().and_then(|d| d.initializer.as_ref()).is_some_and(|i| !i.is_base);
        let is_struct = self.c.meta.type_def(owner).kind == crate::metadata::TypeDefKind::Struct;
        if !chains_to_this {
            stmts.extend(self.store_primary_ctor_params(owner, decl.is_none(), span));
            stmts.extend(self.bind_instance_field_initializers(owner));
        }
        if !is_struct {
            let init = decl.as_ref().and_then(|d| d.initializer.clone());
            if let Some(call) = self.bind_ctor_initializer(owner, init.as_ref(), decl.is_none(), span) {
                if !self.is_object_constructor_call(&call) {
                    stmts.push(BStmt::new(SKind::Expr(call), span));
                }
            }
        } else if let Some(init) = decl.as_ref().and_then(|d| d.initializer.clone()) {
            if self.is_implicit_struct_ctor_call(owner, &init) {
                stmts.extend(self.zero_struct_fields(owner, init.span));
            } else if let Some(call) = self.bind_ctor_initializer(owner, Some(&init), false, span) {
                stmts.push(BStmt::new(SKind::Expr(call), span));
            }
        }
        if let Some(d) = &decl {
            if let Some(body) = &d.body {
                stmts.push(self.bind_body(body));
            }
        }
        BStmt::new(SKind::Block { stmts, locals: Vec::new() }, span)
    }

    /// `: this()` in a struct that declares no parameterless constructor: it chains to the
    /// implicit one, which zero-initializes the struct.
    fn is_implicit_struct_ctor_call(&self, owner: TypeDefId, init: &ast::ConstructorInitializer) -> bool {
        let declares_parameterless = self.c.meta.type_def(owner).methods.iter().any(|&m| {
            let md = self.c.meta.method(m);
            md.kind == MethodKind::Constructor && !md.flags.has(Flags::STATIC) && md.params.is_empty()
        });
        !init.is_base && init.args.is_empty() && !declares_parameterless
    }

    /// `this.F = default` for every instance field of a struct.
    fn zero_struct_fields(&mut self, owner: TypeDefId, span: Span) -> Vec<BStmt> {
        let mut out = Vec::new();
        for f in self.c.meta.type_def(owner).fields.clone() {
            let fd = self.c.meta.field(f).clone();
            if fd.is_static() {
                continue;
            }
            let target = self.field_access(f, span);
            let value = BExpr::new(BKind::Default, fd.ty, span);
            out.push(BStmt::new(SKind::Expr(BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(value) }, fd.ty, span)), span));
        }
        out
    }

    /// `: base()` on `System.Object`, whose constructor does nothing: bound (so misuse is
    /// reported) but not emitted, which saves a call per object created.
    fn is_object_constructor_call(&self, call: &BExpr) -> bool {
        matches!(&call.kind, BKind::Call { owner, args, .. } if *owner == self.c.meta.well_known.object && args.is_empty())
    }

    /// Stores primary-constructor parameters into their hidden fields (or, for records,
    /// their properties' backing fields).
    fn store_primary_ctor_params(&mut self, owner: TypeDefId, is_primary: bool, span: Span) -> Vec<BStmt> {
        if !is_primary {
            return Vec::new();
        }
        let params = self.c.meta.method(self.method).params.clone();
        let mut out = Vec::new();
        for (i, p) in params.iter().enumerate() {
            let field = self.c.primary_ctor_fields.get(&(owner, p.name.clone())).copied().or_else(|| {
                let d = self.c.meta.type_def(owner);
                d.properties.iter().map(|&q| self.c.meta.property(q)).find(|q| q.name == p.name).and_then(|q| q.backing_field)
            });
            let Some(f) = field else { continue };
            let target = self.field_access(f, span);
            let value = self.local_expr(LocalId(i as u32), span);
            let ty = target.ty;
            out.push(BStmt::new(SKind::Expr(BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(value) }, ty, span)), span));
        }
        out
    }

    /// The implicit `: base()` or the declared `: base(...)`/`: this(...)` call.
    fn bind_ctor_initializer(
        &mut self,
        owner: TypeDefId,
        init: Option<&ast::ConstructorInitializer>,
        is_primary_or_default: bool,
        span: Span,
    ) -> Option<BExpr> {
        let self_type = self.c.meta.type_def(owner).self_type;
        let (target_type, args, ispan) = match init {
            Some(i) if !i.is_base => (self_type, i.args.clone(), i.span),
            Some(i) => (self.c.meta.type_def(owner).base?, i.args.clone(), i.span),
            None => {
                let base = self.c.meta.type_def(owner).base?;
                let base_args = if is_primary_or_default {
                    self.c.type_src[owner.index()].decls.first().and_then(|d| d.decl.base_args.clone()).unwrap_or_default()
                } else {
                    Vec::new()
                };
                (base, base_args, span)
            }
        };
        let this = BExpr::new(BKind::This, self_type, ispan);
        self.bind_constructor_call(target_type, Some(this), &args, ispan)
    }

    /// What an iterator yields: `T` of `IEnumerable<T>`/`IEnumerator<T>`, `object` for the
    /// non-generic interfaces (CS1624 for any other return type).
    fn iterator_element_type(&mut self, span: Span) -> TypeId {
        let ret = self.func.return_type;
        let wk = self.wk().clone();
        let def = self.c.meta.types.def_of(ret);
        if def == Some(wk.ienumerable_t) || def == Some(wk.ienumerator_t) {
            return self.c.meta.types.args_of(ret).first().copied().unwrap_or(TypeId::ERROR);
        }
        if ret == wk.ienumerable || ret == wk.ienumerator {
            return wk.object;
        }
        if let Some(element) = self.async_iterator_element(ret) {
            if self.func.is_async {
                return element;
            }
            let name = self.func_display_name();
            let shown = self.c.meta.cs_short_name(ret);
            let md = self.c.meta.method(self.func.method);
            let span = if matches!(md.kind, MethodKind::Ordinary) && md.span != Span::default() { md.span } else { span };
            self.error(span, "CS8403", format!("Method '{name}' with an iterator block must be 'async' to return '{shown}'"));
            return TypeId::ERROR;
        }
        if ret != TypeId::ERROR {
            let name = self.func_display_name();
            let shown = self.c.meta.cs_short_name(ret);
            let md = self.c.meta.method(self.func.method);
            // Roslyn reports it at the method's name.
            let span = if matches!(md.kind, MethodKind::Ordinary) && md.span != Span::default() { md.span } else { span };
            self.error(span, "CS1624", format!("The body of '{name}' cannot be an iterator block because '{shown}' is not an iterator interface type"));
        }
        TypeId::ERROR
    }

    /// CS8419/CS8420: an async method returning `IAsyncEnumerable<T>` or `IAsyncEnumerator<T>`
    /// must be an iterator.
    fn report_async_iterator_without_yield(&mut self, body: &BStmt, span: Span) {
        let md = self.c.meta.method(self.func.method);
        let span = if matches!(md.kind, MethodKind::Ordinary) && md.span != Span::default() { md.span } else { span };
        if super::emit::classic::contains_await(body) {
            self.error(span, "CS8419", "The body of an async-iterator method must contain a 'yield' statement.");
        } else {
            self.error(
                span,
                "CS8420",
                "The body of an async-iterator method must contain a 'yield' statement. Consider removing 'async' from the method declaration or adding a 'yield' statement.",
            );
        }
    }

    /// `T` of `IAsyncEnumerable<T>` / `IAsyncEnumerator<T>`, what an async iterator returns.
    fn async_iterator_element(&self, ret: TypeId) -> Option<TypeId> {
        let d = self.c.meta.type_def(self.c.meta.types.def_of(ret)?);
        let is_async_iterator_type = d.namespace == "System.Collections.Generic" && (d.name == "IAsyncEnumerable" || d.name == "IAsyncEnumerator");
        if !is_async_iterator_type {
            return None;
        }
        self.c.meta.types.args_of(ret).first().copied()
    }

    /// Reports CS0161 when a non-void method's end is reachable.
    fn check_all_paths_return(&mut self, body: &BStmt, span: Span) {
        let ret = self.func.async_result.unwrap_or(self.func.return_type);
        if ret == TypeId::VOID || ret == TypeId::ERROR || self.func.inferred_returns.is_some() {
            return;
        }
        if syntax::can_complete(body) {
            let name = self.c.meta.method(self.func.method).name.clone();
            let md = self.c.meta.method(self.func.method).clone();
            let owner = self.type_name(self.c.meta.type_def(md.owner).self_type);
            let shown = if md.kind == MethodKind::Lambda || md.kind == MethodKind::LocalFunction {
                format!("{owner}.{name}()")
            } else {
                let ps: Vec<String> = md.params.iter().map(|p| self.type_name(p.ty)).collect();
                format!("{owner}.{}({})", name, ps.join(", "))
            };
            let end = Span::new(span.end.saturating_sub(1) as usize, span.end as usize);
            let at = if md.kind == MethodKind::Lambda { end } else { md.span };
            let _ = end;
            self.error(at, "CS0161", format!("'{shown}': not all code paths return a value"));
        }
    }

    /// Registers a pending `goto label;` to check once all labels are known.
    pub fn note_goto(&mut self, name: &str, label: LabelId, span: Span) {
        self.pending_gotos.push((name.to_string(), label, span));
    }

    fn resolve_gotos(&mut self) {
        for (name, _, span) in std::mem::take(&mut self.pending_gotos) {
            self.error(span, "CS0159", format!("No such label '{name}' within the scope of the goto statement"));
        }
    }
}

impl Compiler {
    /// Binds and emits every method body.
    pub fn compile_bodies(&mut self) {
        self.compile_bodies_of(|_, _| true);
    }

    /// Binds and emits the bodies of the methods `wanted` selects. All of them are bound
    /// before any is emitted: a program with errors gets no code.
    pub fn compile_bodies_of(&mut self, wanted: impl Fn(&Compiler, MethodId) -> bool) {
        let count = self.meta.methods.len();
        let mut bodies = Vec::new();
        for i in 0..count {
            let m = MethodId(i as u32);
            if !wanted(self, m) {
                continue;
            }
            let source = self.method_src[i].clone();
            let Some(scope) = source_scope(self, &source, m) else { continue };
            let mut b = MethodBinder::new(self, m, scope);
            if let Some(body) = b.bind_method(&source) {
                let locals = std::mem::take(&mut b.locals);
                let nested = std::mem::take(&mut b.nested);
                bodies.push((m, body, locals, nested));
            }
        }
        if self.diags.has_errors() {
            return;
        }
        for (m, body, locals, nested) in bodies {
            self.emit_method(m, body, locals, nested);
        }
    }

    /// Whether `m` has a body in the source (code to bind and emit).
    pub fn has_source_body(&self, m: MethodId) -> bool {
        source_scope(self, &self.method_src[m.index()], m).is_some()
    }
}

/// The import scope a method body resolves names in.
fn source_scope(c: &Compiler, source: &MethodSource, m: MethodId) -> Option<super::scopes::ScopeId> {
    let from_owner = || c.type_src[c.meta.method(m).owner.index()].decls.first().map(|d| d.scope);
    match source {
        MethodSource::None | MethodSource::Nested => None,
        MethodSource::Method { scope, .. }
        | MethodSource::Operator { scope, .. }
        | MethodSource::Constructor { scope, .. }
        | MethodSource::ImplicitConstructor { scope, .. }
        | MethodSource::StaticConstructor { scope, .. }
        | MethodSource::Accessor { scope, .. }
        | MethodSource::ExprProperty { scope, .. }
        | MethodSource::TopLevel { scope, .. } => Some(*scope),
        MethodSource::AutoGetter { .. } | MethodSource::AutoSetter { .. } | MethodSource::RecordMember { .. } => from_owner(),
    }
}
