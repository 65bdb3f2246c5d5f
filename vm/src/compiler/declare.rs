//! Declaration, first half: namespaces, types (with partial merging and nested types),
//! `using` directives, well-known types, type headers (bases, interfaces, constraints),
//! the synthesized `Program` of top-level statements, and the entry point.

use std::rc::Rc;

use super::resolve::NameContext;
use super::scopes::{AliasTarget, ImportScope, ScopeId, IMPLICIT_USINGS};
use super::sources::{MethodSource, TypeDeclSource, TypeSource};
use super::Compiler;
use crate::metadata::{
    FileId, Flags, MethodBody, MethodDef, MethodId, MethodKind, ParamDef, ParamKind, ParamOwner, TypeDef, TypeDefId, TypeDefKind, TypeId, TypeParamDef,
    WellKnown,
};
use grammar::ast::{self, Modifiers, NamespaceMember, TypeKind};
use grammar::span::Span;

/// Top-level statements of one file, with the scope they resolve names in.
struct TopLevel {
    file: FileId,
    scope: ScopeId,
    stmts: Vec<ast::Stmt>,
}

impl Compiler {
    pub fn declare_all(&mut self, units: Vec<(FileId, ast::CompilationUnit)>) {
        let mut top_level = Vec::new();
        for (file, unit) in units {
            self.declare_unit(file, unit, &mut top_level);
        }
        self.resolve_well_known();
        self.resolve_usings();
        self.declare_program_type(top_level);
        self.declare_headers();
        self.declare_all_members();
        self.find_entry_point();
    }

    fn declare_unit(&mut self, file: FileId, unit: ast::CompilationUnit, top: &mut Vec<TopLevel>) {
        let mut scope = ImportScope::new(None, String::new(), file);
        if !self.is_library(file) {
            scope.usings = IMPLICIT_USINGS.iter().map(|s| s.to_string()).collect();
        }
        scope.directives = unit.usings;
        let sid = self.new_scope(scope);
        let mut stmts = Vec::new();
        self.declare_namespace_members(file, sid, "", unit.members, &mut stmts);
        if !stmts.is_empty() {
            top.push(TopLevel { file, scope: sid, stmts });
        }
    }

    fn declare_namespace_members(&mut self, file: FileId, scope: ScopeId, ns: &str, members: Vec<NamespaceMember>, stmts: &mut Vec<ast::Stmt>) {
        for m in members {
            match m {
                NamespaceMember::Namespace(nd) => {
                    let name: Vec<&str> = nd.name.parts.iter().map(|p| p.name.as_str()).collect();
                    let full = if ns.is_empty() { name.join(".") } else { format!("{ns}.{}", name.join(".")) };
                    self.namespaces.add_namespace(&full);
                    let mut child = ImportScope::new(Some(scope), full.clone(), file);
                    child.directives = nd.usings;
                    let cid = self.new_scope(child);
                    self.declare_namespace_members(file, cid, &full, nd.members, stmts);
                }
                NamespaceMember::Type(td) => {
                    self.declare_type(file, scope, ns, None, td);
                }
                NamespaceMember::Statement(s) => stmts.push(s),
            }
        }
    }

    /// Declares a type (and, recursively, its nested types). Partial declarations of an
    /// existing type are merged into it.
    fn declare_type(&mut self, file: FileId, scope: ScopeId, ns: &str, outer: Option<TypeDefId>, mut td: ast::TypeDecl) -> TypeDefId {
        let arity = td.type_params.len();
        let existing = match outer {
            None => self.namespaces.find_type(ns, &td.name.name, arity),
            Some(o) => self.meta.type_def(o).nested.iter().copied().find(|&n| {
                let d = self.meta.type_def(n);
                let outer_n = self.meta.type_def(o).type_params.len();
                d.name == td.name.name && d.type_params.len() - outer_n.min(d.type_params.len()) == arity
            }),
        };
        // A program's own declaration of a library type wins, as C# prefers a source type
        // over an imported one (warning CS0436): the library's stays, unreachable by name.
        let existing = existing.filter(|&d| outer.is_some() || self.is_library(file) || !self.meta.type_def(d).flags.has(Flags::LIBRARY));
        let def = match existing {
            Some(d) => {
                let both_partial =
                    td.modifiers.has(Modifiers::PARTIAL) && self.type_src[d.index()].decls.iter().all(|s| s.decl.modifiers.has(Modifiers::PARTIAL));
                if !both_partial {
                    self.report_duplicate_type(file, ns, outer, &td.name);
                }
                d
            }
            None => self.new_type_def(file, ns, outer, &td),
        };
        if self.is_library(file) {
            if let Some(n) = modeled_size(&td) {
                self.meta.type_defs[def.index()].modeled_size = Some(n);
            }
        } else if !td.attributes.is_empty() {
            let attrs = td.attributes.iter().map(super::members::custom_attribute);
            self.meta.attributes.types.entry(def).or_default().extend(attrs);
        }
        // Nested types are declared on their own: they move out of the outer declaration.
        let (nested, members): (Vec<ast::MemberDecl>, Vec<ast::MemberDecl>) =
            std::mem::take(&mut td.members).into_iter().partition(|m| matches!(m, ast::MemberDecl::Type(_)));
        td.members = members;
        let decl = Rc::new(td);
        self.type_src[def.index()].decls.push(TypeDeclSource { decl, scope, file });
        for member in nested {
            if let ast::MemberDecl::Type(n) = member {
                self.declare_type(file, scope, ns, Some(def), n);
            }
        }
        def
    }

    fn report_duplicate_type(&mut self, file: FileId, ns: &str, outer: Option<TypeDefId>, name: &ast::Ident) {
        let (code, msg) = match outer {
            Some(o) => ("CS0102", format!("The type '{}' already contains a definition for '{}'", self.meta.type_def(o).name, name.name)),
            None => {
                let shown = if ns.is_empty() { "<global namespace>" } else { ns };
                ("CS0101", format!("The namespace '{shown}' already contains a definition for '{}'", name.name))
            }
        };
        self.error(file, name.span, code, msg);
    }

    fn new_type_def(&mut self, file: FileId, ns: &str, outer: Option<TypeDefId>, td: &ast::TypeDecl) -> TypeDefId {
        let def = TypeDefId(self.meta.type_defs.len() as u32);
        let kind = match td.kind {
            TypeKind::Class | TypeKind::Record => TypeDefKind::Class,
            TypeKind::Struct | TypeKind::RecordStruct => TypeDefKind::Struct,
            TypeKind::Interface => TypeDefKind::Interface,
            TypeKind::Enum => TypeDefKind::Enum,
            TypeKind::Delegate => TypeDefKind::Delegate,
        };
        let mut flags = flags_from_modifiers(td.modifiers);
        if matches!(td.kind, TypeKind::Record | TypeKind::RecordStruct) {
            flags.set(Flags::RECORD);
        }
        if matches!(kind, TypeDefKind::Struct | TypeDefKind::Enum | TypeDefKind::Delegate) {
            flags.set(Flags::SEALED);
        }
        if self.is_library(file) {
            flags.set(Flags::LIBRARY);
        }
        let mut type_params: Vec<TypeParamDef> = outer.map(|o| self.meta.type_def(o).type_params.clone()).unwrap_or_default();
        type_params.extend(td.type_params.iter().map(type_param_def));
        let n = type_params.len();
        let args: Vec<TypeId> = (0..n).map(|i| self.meta.types.param(ParamOwner::Type(def), i as u16)).collect();
        let self_type = self.meta.types.named(def, &args);
        self.meta.type_defs.push(TypeDef {
            name: td.name.name.clone(),
            namespace: ns.to_string(),
            declaring_type: outer,
            kind,
            flags,
            type_params,
            self_type,
            base: None,
            interfaces: Vec::new(),
            fields: Vec::new(),
            methods: Vec::new(),
            properties: Vec::new(),
            nested: Vec::new(),
            enum_underlying: None,
            modeled_size: None,
            instance_slots: 0,
            static_slots: 0,
            vtable: Vec::new(),
            interface_map: Default::default(),
            interface_map_by_type: Default::default(),
            static_ctor: None,
            file,
            span: td.name.span,
        });
        self.type_src.push(TypeSource::default());
        match outer {
            Some(o) => self.meta.type_defs[o.index()].nested.push(def),
            None => {
                self.namespaces.add_namespace(ns);
                let key = (ns.to_string(), td.name.name.clone(), td.type_params.len());
                if self.is_library(file) {
                    self.namespaces.library_types.insert(key.clone(), def);
                }
                self.namespaces.types.insert(key, def);
            }
        }
        def
    }

    fn resolve_well_known(&mut self) {
        let ns = &self.namespaces;
        let lookup = |full: &str| {
            let (name, arity) = match full.split_once('`') {
                Some((n, a)) => (n, a.parse().unwrap_or(0)),
                None => (full, 0),
            };
            let (namespace, simple) = name.rsplit_once('.').unwrap_or(("", name));
            ns.find_visible_type(true, namespace, simple, arity)
        };
        match WellKnown::resolve(&mut self.meta.types, lookup) {
            Ok(wk) => self.meta.well_known = wk,
            Err(missing) => {
                let file = FileId(0);
                self.error(file, Span::default(), "CSL9000", format!("the standard library lacks '{missing}'"));
            }
        }
    }

    /// Validates `using` namespaces and resolves aliases and `using static` types.
    fn resolve_usings(&mut self) {
        for i in 0..self.scopes.len() {
            let sid = ScopeId(i as u32);
            let directives = std::mem::take(&mut self.scopes[i].directives);
            for d in &directives {
                self.resolve_using(sid, d);
            }
        }
    }

    /// A `using` of a namespace that does not exist: C# names its first missing part, and
    /// the namespace that lacks it (CS0234) unless that is the global one (CS0246).
    fn report_missing_namespace(&mut self, file: FileId, q: &ast::QualifiedName) {
        let mut known = String::new();
        for part in &q.parts {
            let full = if known.is_empty() { part.name.clone() } else { format!("{known}.{}", part.name) };
            if self.namespaces.names.contains(&full) {
                known = full;
                continue;
            }
            let (code, message) = if known.is_empty() {
                (
                    "CS0246",
                    format!("The type or namespace name '{}' could not be found (are you missing a using directive or an assembly reference?)", part.name),
                )
            } else {
                (
                    "CS0234",
                    format!("The type or namespace name '{}' does not exist in the namespace '{known}' (are you missing an assembly reference?)", part.name),
                )
            };
            self.error(file, part.span, code, message);
            return;
        }
    }

    /// A scope for resolving `sid`'s own directives: its namespace and the enclosing ones,
    /// without its imports (usings do not see each other; `namespace A.B { using X = Y; }`
    /// finds `Y` in `A.B`, then `A`, then the outer declarations).
    fn directive_scope(&mut self, sid: ScopeId) -> ScopeId {
        let sc = self.scope(sid);
        if sc.parent.is_none() {
            return sid;
        }
        let bare = ImportScope::new(sc.parent, sc.namespace.clone(), sc.file);
        self.scopes.push(bare);
        ScopeId((self.scopes.len() - 1) as u32)
    }

    /// `using N;` names a namespace by its full name or relative to an enclosing namespace.
    fn using_namespace_name(&self, sid: ScopeId, name: &str) -> Option<String> {
        let mut ns = self.scope(sid).namespace.as_str();
        loop {
            let full = if ns.is_empty() { name.to_string() } else { format!("{ns}.{name}") };
            if self.namespaces.names.contains(&full) {
                return Some(full);
            }
            if ns.is_empty() {
                return None;
            }
            ns = ns.rsplit_once('.').map_or("", |(outer, _)| outer);
        }
    }

    fn resolve_using(&mut self, sid: ScopeId, d: &ast::UsingDirective) {
        let file = self.scope(sid).file;
        // Usings resolve names from the enclosing scope, not from themselves.
        let outer = self.directive_scope(sid);
        let ctx = NameContext::new(outer, file, None);
        match &d.kind {
            ast::UsingKind::Namespace(q) => {
                let name: Vec<&str> = q.parts.iter().map(|p| p.name.as_str()).collect();
                let full = name.join(".");
                if let Some(found) = self.using_namespace_name(sid, &full) {
                    self.scopes[sid.0 as usize].usings.push(found);
                } else if super::dotnet_namespaces::is_dotnet_namespace(&full) {
                    self.scopes[sid.0 as usize].unavailable_usings.push(full);
                } else {
                    self.report_missing_namespace(file, q);
                }
            }
            ast::UsingKind::Static(ty) => {
                let t = self.resolve_type(&ctx, ty);
                if t != TypeId::ERROR {
                    self.scopes[sid.0 as usize].static_usings.push(t);
                }
            }
            ast::UsingKind::Alias(name, ty) => {
                let target = match &ty.kind {
                    ast::TypeSyntaxKind::Named(segs) => self.resolve_named(&ctx, segs, true),
                    _ => {
                        let t = self.resolve_type(&ctx, ty);
                        (t != TypeId::ERROR).then_some(super::resolve::NsOrType::Type(t))
                    }
                };
                let target = match target {
                    Some(super::resolve::NsOrType::Type(t)) => AliasTarget::Type(t),
                    Some(super::resolve::NsOrType::Namespace(n)) => AliasTarget::Namespace(n),
                    None => return,
                };
                self.scopes[sid.0 as usize].aliases.insert(name.name.clone(), target);
            }
        }
    }

    /// Top-level statements become `Program.<Main>$(string[] args)` in a static class
    /// `Program` (merged with a user-declared partial `Program`).
    fn declare_program_type(&mut self, top: Vec<TopLevel>) {
        let Some(first) = top.first() else { return };
        if top.len() > 1 {
            let span = top[1].stmts.first().map_or(Span::default(), |s| s.span);
            self.error(top[1].file, span, "CS8802", "Only one compilation unit can have top-level statements.");
        }
        let (file, scope) = (first.file, first.scope);
        let program = match self.namespaces.find_type("", "Program", 0) {
            Some(p) => p,
            None => {
                let decl = synthesized_program_decl();
                let def = self.new_type_def(file, "", None, &decl);
                self.meta.type_defs[def.index()].flags.set(Flags::SYNTHESIZED);
                def
            }
        };
        let stmts: Vec<ast::Stmt> = top.into_iter().next().map(|t| t.stmts).unwrap_or_default();
        let has_await = stmts.iter().any(super::bind::syntax::stmt_contains_await);
        let returns_value = stmts.iter().any(super::bind::syntax::stmt_returns_value);
        let wk = self.meta.well_known.clone();
        let ret = match (has_await, returns_value) {
            (false, false) => TypeId::VOID,
            (false, true) => wk.int32,
            (true, false) => self.task_type(None),
            (true, true) => self.task_type(Some(wk.int32)),
        };
        let string_array = self.meta.types.array(wk.string, 1);
        let mut flags = Flags(Flags::STATIC | Flags::PRIVATE | Flags::SYNTHESIZED);
        if has_await {
            flags.set(Flags::ASYNC);
        }
        let span = stmts.first().map_or(Span::default(), |s| s.span);
        let m = self.new_method(
            MethodDef {
                name: "<Main>$".into(),
                owner: program,
                kind: MethodKind::Ordinary,
                flags,
                type_params: Vec::new(),
                params: vec![ParamDef { name: "args".into(), ty: string_array, kind: ParamKind::Value, default: None }],
                ret,
                vtable_slot: None,
                body: MethodBody::None,
                file,
                span,
            },
            MethodSource::TopLevel { stmts: Rc::new(stmts), scope },
        );
        self.entry_point = Some(m);
    }

    /// `Task` (for `None`) or `Task<T>`.
    pub fn task_type(&mut self, result: Option<TypeId>) -> TypeId {
        let ns = "System.Threading.Tasks";
        match result {
            None => match self.namespaces.find_type(ns, "Task", 0) {
                Some(d) => self.meta.types.named(d, &[]),
                None => TypeId::ERROR,
            },
            Some(t) => match self.namespaces.find_type(ns, "Task", 1) {
                Some(d) => self.meta.types.named(d, &[t]),
                None => TypeId::ERROR,
            },
        }
    }

    pub fn new_method(&mut self, def: MethodDef, source: MethodSource) -> MethodId {
        let id = MethodId(self.meta.methods.len() as u32);
        let owner = def.owner;
        self.meta.methods.push(def);
        self.method_src.push(source);
        self.meta.type_defs[owner.index()].methods.push(id);
        id
    }

    /// Bases, interfaces, enum underlying types and generic constraints of every type.
    fn declare_headers(&mut self) {
        for i in 0..self.meta.type_defs.len() {
            self.declare_header(TypeDefId(i as u32));
        }
    }

    fn declare_header(&mut self, def: TypeDefId) {
        let decls = self.type_src[def.index()].decls.clone();
        let wk = self.meta.well_known.clone();
        let kind = self.meta.type_def(def).kind;
        let self_type = self.meta.type_def(def).self_type;
        let mut base: Option<TypeId> = None;
        let mut interfaces = Vec::new();
        let mut underlying = None;
        for src in &decls {
            let ctx = NameContext::new(src.scope, src.file, Some(def));
            for (i, b) in src.decl.bases.iter().enumerate() {
                let t = self.resolve_type(&ctx, b);
                if t == TypeId::ERROR {
                    continue;
                }
                if kind == TypeDefKind::Enum {
                    underlying = Some(t);
                    continue;
                }
                let b_def = self.meta.types.def_of(t).map(|d| self.meta.type_def(d).kind);
                match b_def {
                    Some(TypeDefKind::Interface) => interfaces.push(t),
                    Some(TypeDefKind::Class) if i == 0 && kind == TypeDefKind::Class => {
                        if self.meta.type_def(self.meta.types.def_of(t).unwrap_or(def)).flags.has(Flags::SEALED) {
                            let (d, b) = (self.meta.cs_name(self_type), self.meta.cs_name(t));
                            self.error(src.file, b_span(b_def, src, i), "CS0509", format!("'{d}': cannot derive from sealed type '{b}'"));
                        }
                        base = Some(t);
                    }
                    _ => {
                        let shown = self.meta.cs_name(t);
                        self.error(src.file, src.decl.bases[i].span, "CS0527", format!("Type '{shown}' in interface list is not an interface"));
                    }
                }
            }
            self.declare_constraints(def, src, &ctx);
        }
        let is_object = self_type == wk.object;
        let base = match kind {
            _ if is_object => None,
            TypeDefKind::Class => Some(base.unwrap_or(wk.object)),
            TypeDefKind::Struct => Some(wk.value_type),
            TypeDefKind::Enum => Some(wk.enum_base),
            TypeDefKind::Delegate => Some(wk.multicast_delegate),
            TypeDefKind::Interface => None,
        };
        let d = &mut self.meta.type_defs[def.index()];
        d.base = base;
        d.interfaces = interfaces;
        if kind == TypeDefKind::Enum {
            d.enum_underlying = Some(underlying.unwrap_or(wk.int32));
        }
    }

    fn declare_constraints(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext) {
        for clause in &src.decl.constraints {
            let Some(i) = self.meta.type_def(def).type_params.iter().position(|p| p.name == clause.param.name) else {
                continue;
            };
            let (cons, is_class, is_struct, has_new) = self.resolve_constraints(ctx, &clause.constraints);
            let p = &mut self.meta.type_defs[def.index()].type_params[i];
            p.constraints = cons;
            p.is_class = is_class;
            p.is_struct = is_struct;
            p.has_new = has_new;
        }
        self.close_constraints(ParamOwner::Type(def));
    }

    pub fn resolve_constraints(&mut self, ctx: &NameContext, constraints: &[ast::Constraint]) -> (Vec<TypeId>, bool, bool, bool) {
        let (mut types, mut is_class, mut is_struct, mut has_new) = (Vec::new(), false, false, false);
        for c in constraints {
            match c {
                ast::Constraint::Class { .. } => is_class = true,
                ast::Constraint::Struct | ast::Constraint::Unmanaged => is_struct = true,
                ast::Constraint::New => has_new = true,
                ast::Constraint::NotNull | ast::Constraint::Default => {}
                ast::Constraint::Type(t) => {
                    let t = self.resolve_type(ctx, t);
                    if t != TypeId::ERROR {
                        types.push(t);
                    }
                }
            }
        }
        (types, is_class, is_struct, has_new)
    }

    /// Finds `static Main` (CS0017 when several, CS5001 when none).
    fn find_entry_point(&mut self) {
        if self.entry_point.is_some() {
            return;
        }
        let candidates: Vec<MethodId> = (0..self.meta.methods.len())
            .map(|i| MethodId(i as u32))
            .filter(|&m| {
                let md = self.meta.method(m);
                md.name == "Main" && md.is_static() && !self.is_library(md.file) && md.type_params.is_empty()
            })
            .collect();
        match candidates.as_slice() {
            [] => {
                let file = FileId(self.library_files as u32);
                // A file that failed to parse has no Main to find: its own errors say why.
                if self.meta.files.len() > self.library_files && !self.diags.has_errors() {
                    self.error(file, Span::default(), "CS5001", "Program does not contain a static 'Main' method suitable for an entry point");
                }
            }
            [m] => self.entry_point = Some(*m),
            [_, second, ..] => {
                let md = self.meta.method(*second).clone();
                let owner = self.meta.cs_name(self.meta.type_def(md.owner).self_type);
                self.error(
                    md.file,
                    md.span,
                    "CS0017",
                    format!(
                        "Program has more than one entry point defined. Compile with /main to specify the type that contains the entry point. ({owner}.Main)"
                    ),
                );
                self.entry_point = Some(candidates[0]);
            }
        }
    }
}

fn b_span(_kind: Option<TypeDefKind>, src: &TypeDeclSource, i: usize) -> Span {
    src.decl.bases.get(i).map_or(src.decl.name.span, |b| b.span)
}

pub fn type_param_def(p: &ast::TypeParam) -> TypeParamDef {
    TypeParamDef {
        name: p.name.name.clone(),
        variance: match p.variance {
            ast::Variance::None => 0,
            ast::Variance::Out => 1,
            ast::Variance::In => -1,
        },
        constraints: Vec::new(),
        is_class: false,
        is_struct: false,
        has_new: false,
    }
}

pub fn flags_from_modifiers(m: Modifiers) -> Flags {
    let mut f = Flags::default();
    let pairs = [
        (Modifiers::STATIC, Flags::STATIC),
        (Modifiers::ABSTRACT, Flags::ABSTRACT),
        (Modifiers::SEALED, Flags::SEALED),
        (Modifiers::VIRTUAL, Flags::VIRTUAL),
        (Modifiers::OVERRIDE, Flags::OVERRIDE),
        (Modifiers::READONLY, Flags::READONLY),
        (Modifiers::CONST, Flags::CONST),
        (Modifiers::ASYNC, Flags::ASYNC),
        (Modifiers::PUBLIC, Flags::PUBLIC),
        (Modifiers::PRIVATE, Flags::PRIVATE),
        (Modifiers::PROTECTED, Flags::PROTECTED),
        (Modifiers::INTERNAL, Flags::INTERNAL),
        (Modifiers::NEW, Flags::NEW_SLOT),
    ];
    for (m_bit, f_bit) in pairs {
        if m.has(m_bit) {
            f.set(f_bit);
        }
    }
    f
}

fn synthesized_program_decl() -> ast::TypeDecl {
    ast::TypeDecl {
        attributes: Vec::new(),
        modifiers: Modifiers { bits: Modifiers::STATIC | Modifiers::PARTIAL, span: Span::default() },
        kind: TypeKind::Class,
        name: ast::Ident { name: "Program".into(), span: Span::default() },
        type_params: Vec::new(),
        primary_ctor: None,
        bases: Vec::new(),
        base_args: None,
        constraints: Vec::new(),
        members: Vec::new(),
        enum_members: Vec::new(),
        delegate_return: None,
        span: Span::default(),
    }
}

/// The byte count of a `[ModeledSize(n)]` attribute.
fn modeled_size(td: &ast::TypeDecl) -> Option<u32> {
    let a = td.attributes.iter().find(|a| super::members::attribute_name(a) == "ModeledSize")?;
    match a.args.first()?.value.kind {
        ast::ExprKind::Literal(ast::Literal::Int { value, .. }) => u32::try_from(value).ok(),
        _ => None,
    }
}
