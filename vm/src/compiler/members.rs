//! Declaration, second half: the members of every type — fields, constants, methods,
//! constructors, properties and indexers (with their accessors and backing fields),
//! operators, events, enum members, delegate `Invoke`, primary constructors and records.

use std::rc::Rc;

use super::declare::{flags_from_modifiers, type_param_def};
use super::resolve::NameContext;
use super::sources::{FieldSource, MethodSource, RecordMember, TypeDeclSource};
use super::Compiler;
use crate::metadata::attributes::{AttributeValue, CustomAttribute};
use crate::metadata::{
    Constant, FieldDef, FieldId, Flags, MethodBody, MethodDef, MethodId, MethodKind, ParamDef, ParamKind, ParamOwner, PropertyDef, PropertyId, TypeDefId,
    TypeDefKind, TypeId,
};
use grammar::ast::{self, MemberDecl, Modifiers};
use grammar::span::Span;

impl Compiler {
    /// Enums come first: their members are constants other declarations may use
    /// (`StringSplitOptions options = StringSplitOptions.None`).
    /// Base classes come before derived ones: a record sees the properties it inherits.
    pub(super) fn declare_all_members(&mut self) {
        let (enums, mut others): (Vec<TypeDefId>, Vec<TypeDefId>) =
            (0..self.meta.type_defs.len()).map(|i| TypeDefId(i as u32)).partition(|&d| self.meta.type_def(d).kind == TypeDefKind::Enum);
        others.sort_by_key(|&d| self.base_depth(d));
        self.declare_const_fields(&others);
        for def in enums.into_iter().chain(others) {
            let decls = self.type_src[def.index()].decls.clone();
            for src in &decls {
                self.declare_members_of(def, src);
            }
            self.declare_implicit_members(def, &decls);
        }
    }

    /// Constants come before every other member, so a default parameter value anywhere
    /// (`long c = long.MaxValue`, `int n = Later`) can read them while members are declared.
    fn declare_const_fields(&mut self, defs: &[TypeDefId]) {
        for &def in defs {
            if self.meta.type_def(def).kind == TypeDefKind::Delegate {
                continue;
            }
            for src in self.type_src[def.index()].decls.clone() {
                let ctx = NameContext::new(src.scope, src.file, Some(def));
                for member in &src.decl.members {
                    if let MemberDecl::Field(f) = member {
                        if is_const(f) {
                            self.declare_field(def, &src, &ctx, f);
                        }
                    }
                }
            }
        }
    }

    fn declare_members_of(&mut self, def: TypeDefId, src: &TypeDeclSource) {
        let ctx = NameContext::new(src.scope, src.file, Some(def));
        match self.meta.type_def(def).kind {
            TypeDefKind::Enum => return self.declare_enum_members(def, src),
            TypeDefKind::Delegate => return self.declare_delegate_invoke(def, src, &ctx),
            _ => {}
        }
        if let Some(params) = &src.decl.primary_ctor {
            self.declare_primary_ctor(def, src, &ctx, params);
        }
        for member in &src.decl.members {
            match member {
                MemberDecl::Field(f) if is_const(f) => {}
                MemberDecl::Field(f) => self.declare_field(def, src, &ctx, f),
                MemberDecl::Method(m) => {
                    self.declare_method(def, src, &ctx, Rc::new(m.clone()));
                }
                MemberDecl::Property(p) => self.declare_property(def, src, &ctx, p),
                MemberDecl::Indexer(ix) => self.declare_indexer(def, src, &ctx, ix),
                MemberDecl::Constructor(c) => self.declare_constructor(def, src, &ctx, c),
                MemberDecl::Operator(o) => self.declare_operator(def, src, &ctx, o),
                MemberDecl::Event(e) => self.declare_event(def, src, &ctx, e),
                MemberDecl::Destructor(_) | MemberDecl::Type(_) | MemberDecl::Error(_) => {}
            }
        }
    }

    pub(super) fn new_field(&mut self, def: FieldDef, source: Option<FieldSource>) -> FieldId {
        let id = FieldId(self.meta.fields.len() as u32);
        let owner = def.owner;
        self.meta.fields.push(def);
        self.meta.type_defs[owner.index()].fields.push(id);
        if let Some(s) = source {
            self.field_src.insert(id, s);
        }
        id
    }

    fn declare_field(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, f: &ast::FieldDecl) {
        let ty = self.resolve_type(ctx, &f.ty);
        let mut flags = flags_from_modifiers(f.modifiers);
        if self.meta.type_def(def).kind == TypeDefKind::Interface && !flags.has(Flags::STATIC) {
            self.error(src.file, f.span, "CS0525", "Interfaces cannot contain instance fields");
        }
        if self.meta.type_def(def).kind == TypeDefKind::Interface && !has_access_modifier(flags) {
            flags.set(Flags::PUBLIC);
        }
        if flags.has(Flags::CONST) {
            flags.set(Flags::STATIC);
        }
        for d in &f.declarators {
            self.check_member_name_unique(def, &d.name, src);
            let init = d.init.clone().map(Rc::new);
            let field = FieldDef { name: d.name.name.clone(), owner: def, ty, flags, slot: 0, constant: None, span: d.name.span };
            self.new_field(field, Some(FieldSource { init, scope: src.scope, file: src.file }));
        }
    }

    fn check_member_name_unique(&mut self, def: TypeDefId, name: &ast::Ident, src: &TypeDeclSource) {
        let d = self.meta.type_def(def);
        let dup_field = d.fields.iter().any(|&f| self.meta.field(f).name == name.name);
        // An explicit implementation (`char IB.Foo { get; }`) is not a member by that name.
        let is_explicit = |p: &crate::metadata::PropertyDef| p.getter.or(p.setter).is_some_and(|m| self.explicit_impls.contains_key(&m));
        let dup_prop = d.properties.iter().map(|&p| self.meta.property(p)).any(|p| p.name == name.name && !is_explicit(p));
        if dup_field || dup_prop {
            let owner = self.meta.cs_name(d.self_type);
            self.error(src.file, name.span, "CS0102", format!("The type '{owner}' already contains a definition for '{}'", name.name));
        }
    }

    /// Declares a method's signature; the body is compiled later.
    pub(super) fn declare_method(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, m: Rc<ast::MethodDecl>) -> MethodId {
        let mut flags = flags_from_modifiers(m.modifiers);
        if m.modifiers.has(Modifiers::REF) {
            flags.set(Flags::RETURNS_REF);
        }
        let is_interface = self.meta.type_def(def).kind == TypeDefKind::Interface;
        if is_interface && !flags.has(Flags::STATIC) {
            if m.body.is_none() {
                flags.set(Flags::ABSTRACT);
            }
            flags.set(Flags::VIRTUAL);
            flags.set(Flags::PUBLIC);
        }
        if is_interface && !has_access_modifier(flags) {
            flags.set(Flags::PUBLIC);
        }
        if m.params.first().is_some_and(|p| p.modifier == ast::ParamModifier::This) {
            flags.set(Flags::EXTENSION);
            self.extension_classes.insert(def);
        }
        let name = m.name.name.clone();
        let id = self.new_method(
            MethodDef {
                name,
                owner: def,
                kind: MethodKind::Ordinary,
                flags,
                type_params: m.type_params.iter().map(type_param_def).collect(),
                params: Vec::new(),
                ret: TypeId::VOID,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: m.name.span,
            },
            MethodSource::None,
        );
        let mctx = ctx.clone().with_method(id);
        for clause in &m.constraints {
            let Some(i) = self.meta.method(id).type_params.iter().position(|p| p.name == clause.param.name) else {
                continue;
            };
            let (cons, is_class, is_struct, has_new) = self.resolve_constraints(&mctx, &clause.constraints);
            let p = &mut self.meta.methods[id.index()].type_params[i];
            (p.constraints, p.is_class, p.is_struct, p.has_new) = (cons, is_class, is_struct, has_new);
        }
        self.close_constraints(ParamOwner::Method(id));
        let ret = self.resolve_type(&mctx, &m.return_type);
        let params = self.declare_params(&mctx, &m.params);
        let md = &mut self.meta.methods[id.index()];
        md.ret = ret;
        md.params = params;
        self.explicit_impls_insert(id, &m, &mctx);
        let is_extern = m.modifiers.has(Modifiers::EXTERN);
        self.method_src[id.index()] = if is_extern {
            self.bind_intrinsic(id, &m.attributes, src);
            MethodSource::None
        } else if m.body.is_some() {
            self.bind_fast_path(id, &m.attributes, src);
            MethodSource::Method { decl: m.clone(), scope: src.scope }
        } else {
            if !flags.has(Flags::ABSTRACT) && !is_interface {
                let shown = self.meta.method(id).name.clone();
                self.error(src.file, m.name.span, "CS0501", format!("'{shown}' must declare a body because it is not marked abstract, extern, or partial"));
            }
            MethodSource::None
        };
        self.record_attributes(id, &m.attributes);
        id
    }

    fn explicit_impls_insert(&mut self, id: MethodId, m: &ast::MethodDecl, ctx: &NameContext) {
        if let Some(iface) = &m.explicit_interface {
            let t = self.resolve_type(ctx, iface);
            if t != TypeId::ERROR {
                self.explicit_impls.insert(id, t);
            }
        }
    }

    /// Binds an `extern` method to its intrinsic (`[Intrinsic("name")]` or `Type.Method`).
    fn bind_intrinsic(&mut self, id: MethodId, attrs: &[ast::Attribute], src: &TypeDeclSource) {
        let m = self.meta.method(id);
        let default_name = format!("{}.{}", self.meta.type_def(m.owner).name, m.name);
        let name = attrs
            .iter()
            .find(|a| attribute_name(a) == "Intrinsic")
            .and_then(|a| a.args.first())
            .and_then(|arg| match &arg.value.kind {
                ast::ExprKind::Literal(ast::Literal::String(s)) => Some(s.clone()),
                _ => None,
            })
            .unwrap_or(default_name);
        match (self.intrinsics.native)(&name) {
            Some(n) => self.meta.methods[id.index()].body = MethodBody::Native(n),
            None => {
                let span = self.meta.method(id).span;
                let code = if self.is_library(src.file) { "CSL9001" } else { "CS0626" };
                self.error(src.file, span, code, format!("no intrinsic named '{name}' exists"));
            }
        }
    }

    /// Gives a library method with a body the fast path its `[Intrinsic("name")]` names
    /// (see `runtime::intrinsics::fast_paths`); the user's methods get none.
    fn bind_fast_path(&mut self, id: MethodId, attrs: &[ast::Attribute], src: &TypeDeclSource) {
        let Some(attr) = attrs.iter().find(|a| attribute_name(a) == "Intrinsic") else { return };
        if !self.is_library(src.file) {
            return;
        }
        let name = attr.args.first().and_then(|arg| match &arg.value.kind {
            ast::ExprKind::Literal(ast::Literal::String(s)) => Some(s.clone()),
            _ => None,
        });
        match name.as_deref().and_then(self.intrinsics.fast_path) {
            Some(f) => {
                self.meta.methods[id.index()].flags.set(Flags::FAST_PATH);
                self.meta.fast_paths.insert(id, f);
            }
            None => {
                let span = self.meta.method(id).span;
                self.error(src.file, span, "CSL9001", format!("no fast path named '{}' exists", name.unwrap_or_default()));
            }
        }
    }

    fn record_attributes(&mut self, id: MethodId, attrs: &[ast::Attribute]) {
        if attrs.iter().any(|a| attribute_name(a) == "StackTraceHidden") {
            self.meta.methods[id.index()].flags.set(Flags::STACK_TRACE_HIDDEN);
        }
        if !attrs.is_empty() {
            self.method_attrs.insert(id, attrs.to_vec());
            if !self.is_library(self.meta.method(id).file) {
                self.meta.attributes.methods.insert(id, attrs.iter().map(custom_attribute).collect());
            }
        }
    }

    pub(super) fn declare_params(&mut self, ctx: &NameContext, params: &[ast::Param]) -> Vec<ParamDef> {
        params
            .iter()
            .map(|p| {
                let ty = self.resolve_type(ctx, &p.ty);
                let kind = match p.modifier {
                    ast::ParamModifier::Ref => ParamKind::Ref,
                    ast::ParamModifier::Out => ParamKind::Out,
                    ast::ParamModifier::In | ast::ParamModifier::RefReadonly => ParamKind::In,
                    ast::ParamModifier::Params => ParamKind::Params,
                    ast::ParamModifier::None | ast::ParamModifier::This => ParamKind::Value,
                };
                let default = p.default.as_ref().map(|e| self.default_param_value(ctx, e));
                ParamDef { name: p.name.name.clone(), ty, kind, default }
            })
            .collect()
    }

    fn default_param_value(&mut self, ctx: &NameContext, e: &ast::Expr) -> Constant {
        match super::consts::eval_syntax(self, ctx, e) {
            Some(c) => c,
            None => {
                self.error(ctx.file, e.span, "CS1736", "Default parameter value must be a compile-time constant");
                Constant::Null
            }
        }
    }

    fn declare_property(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, p: &ast::PropertyDecl) {
        if p.explicit_interface.is_none() {
            self.check_member_name_unique(def, &p.name, src);
        }
        let ty = self.resolve_type(ctx, &p.ty);
        let explicit = p.explicit_interface.as_ref().map(|i| self.resolve_type(ctx, i));
        self.declare_property_like(
            def,
            src,
            PropertyShape {
                name: p.name.name.clone(),
                name_span: p.name.span,
                modifiers: p.modifiers,
                ty,
                params: Vec::new(),
                body: &p.accessors,
                initializer: p.initializer.clone(),
                explicit,
                span: p.span,
            },
        );
    }

    fn declare_indexer(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, ix: &ast::IndexerDecl) {
        let ty = self.resolve_type(ctx, &ix.ty);
        let params = self.declare_params(ctx, &ix.params);
        let explicit = ix.explicit_interface.as_ref().map(|i| self.resolve_type(ctx, i));
        self.declare_property_like(
            def,
            src,
            PropertyShape {
                name: "Item".into(),
                name_span: ix.span,
                modifiers: ix.modifiers,
                ty,
                params,
                body: &ix.accessors,
                initializer: None,
                explicit,
                span: ix.span,
            },
        );
    }

    fn declare_property_like(&mut self, def: TypeDefId, src: &TypeDeclSource, p: PropertyShape) {
        let mut flags = flags_from_modifiers(p.modifiers);
        let is_interface = self.meta.type_def(def).kind == TypeDefKind::Interface;
        if is_interface && !flags.has(Flags::STATIC) {
            flags.set(Flags::VIRTUAL);
            flags.set(Flags::PUBLIC);
        }
        if is_interface && !has_access_modifier(flags) {
            flags.set(Flags::PUBLIC);
        }
        let pid = PropertyId(self.meta.properties.len() as u32);
        self.meta.properties.push(PropertyDef {
            name: p.name.clone(),
            owner: def,
            ty: p.ty,
            flags,
            getter: None,
            setter: None,
            params: p.params.clone(),
            backing_field: None,
            span: p.name_span,
        });
        self.meta.type_defs[def.index()].properties.push(pid);
        let accessors: Vec<ast::Accessor> = match p.body {
            ast::PropertyBody::Accessors(a) => a.clone(),
            ast::PropertyBody::Expr(e) => {
                let getter = self.new_accessor(def, src, pid, &p, flags, false, None);
                self.method_src[getter.index()] = MethodSource::ExprProperty { expr: Rc::new((**e).clone()), property: pid, scope: src.scope };
                self.meta.properties[pid.index()].getter = Some(getter);
                return;
            }
        };
        let is_auto = !is_interface
            && !p.modifiers.has(Modifiers::ABSTRACT)
            && !p.modifiers.has(Modifiers::EXTERN)
            && p.params.is_empty()
            && accessors.iter().all(|a| a.body.is_none());
        let backing = if is_auto {
            let mut fflags = Flags(flags.0 & Flags::STATIC);
            if !accessors.iter().any(|a| a.kind == ast::AccessorKind::Set) {
                fflags.set(Flags::READONLY);
            }
            fflags.set(Flags::SYNTHESIZED);
            let init = p.initializer.clone().map(Rc::new);
            let f = self.new_field(
                FieldDef { name: format!("<{}>k__BackingField", p.name), owner: def, ty: p.ty, flags: fflags, slot: 0, constant: None, span: p.name_span },
                Some(FieldSource { init, scope: src.scope, file: src.file }),
            );
            self.meta.properties[pid.index()].backing_field = Some(f);
            Some(f)
        } else {
            if p.initializer.is_some() {
                self.error(
                    src.file,
                    p.name_span,
                    "CS8050",
                    "Only auto-implemented properties, or properties that use the 'field' keyword, can have initializers.",
                );
            }
            None
        };
        for a in &accessors {
            let is_setter = matches!(a.kind, ast::AccessorKind::Set | ast::AccessorKind::Init);
            let mut aflags = flags;
            if a.modifiers.bits != 0 {
                let extra = flags_from_modifiers(a.modifiers);
                aflags = Flags((aflags.0 & !(Flags::PUBLIC | Flags::PROTECTED | Flags::INTERNAL)) | extra.0);
            }
            if is_interface && a.body.is_none() && !flags.has(Flags::STATIC) {
                aflags.set(Flags::ABSTRACT);
            }
            let m = self.new_accessor(def, src, pid, &p, aflags, is_setter, Some(a));
            self.method_src[m.index()] = match (&a.body, backing) {
                (Some(body), _) => MethodSource::Accessor { body: Rc::new(body.clone()), property: pid, is_setter, scope: src.scope },
                (None, Some(f)) if is_setter => MethodSource::AutoSetter { field: f },
                (None, Some(f)) => MethodSource::AutoGetter { field: f },
                (None, None) => MethodSource::None,
            };
            let prop = &mut self.meta.properties[pid.index()];
            if is_setter {
                prop.setter = Some(m);
            } else {
                prop.getter = Some(m);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn new_accessor(
        &mut self,
        def: TypeDefId,
        src: &TypeDeclSource,
        pid: PropertyId,
        p: &PropertyShape,
        flags: Flags,
        is_setter: bool,
        accessor: Option<&ast::Accessor>,
    ) -> MethodId {
        let mut params = p.params.clone();
        if is_setter {
            params.push(ParamDef { name: "value".into(), ty: p.ty, kind: ParamKind::Value, default: None });
        }
        let prefix = if is_setter { "set_" } else { "get_" };
        let m = self.new_method(
            MethodDef {
                name: format!("{prefix}{}", p.name),
                owner: def,
                kind: if is_setter { MethodKind::Setter } else { MethodKind::Getter },
                flags,
                type_params: Vec::new(),
                params,
                ret: if is_setter { TypeId::VOID } else { p.ty },
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: accessor.map_or(p.name_span, |a| a.span),
            },
            MethodSource::None,
        );
        if let Some(i) = p.explicit {
            if i != TypeId::ERROR {
                self.explicit_impls.insert(m, i);
            }
        }
        let attrs = accessor.map(|a| a.attributes.as_slice()).unwrap_or_default();
        if p.modifiers.has(Modifiers::EXTERN) {
            self.bind_intrinsic(m, attrs, src);
        } else if accessor.is_some_and(|a| a.body.is_some()) {
            self.bind_fast_path(m, attrs, src);
        }
        self.accessor_property.insert(m, pid);
        m
    }

    fn declare_constructor(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, c: &ast::ConstructorDecl) {
        let flags = flags_from_modifiers(c.modifiers);
        let is_static = flags.has(Flags::STATIC);
        if c.name.name != self.meta.type_def(def).name {
            self.error(src.file, c.name.span, "CS1520", "Method must have a return type");
            return;
        }
        if is_static {
            let id = self.static_ctor_of(def, src);
            self.method_src[id.index()] = MethodSource::StaticConstructor { owner: def, decl: Some(Rc::new(c.clone())), scope: src.scope };
            self.meta.type_defs[def.index()].flags.set(Flags::EXPLICIT_CCTOR);
            return;
        }
        let params = self.declare_params(ctx, &c.params);
        let is_extern = c.modifiers.has(Modifiers::EXTERN);
        let source = if is_extern { MethodSource::None } else { MethodSource::Constructor { decl: Rc::new(c.clone()), scope: src.scope } };
        let id = self.new_method(
            MethodDef {
                name: ".ctor".into(),
                owner: def,
                kind: MethodKind::Constructor,
                flags,
                type_params: Vec::new(),
                params,
                ret: TypeId::VOID,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: c.name.span,
            },
            source,
        );
        if is_extern {
            // An intrinsic constructor is a factory: it receives the arguments only and
            // returns the new object (`new string('x', 3)`).
            self.bind_intrinsic(id, &c.attributes, src);
        }
    }

    /// The type's static constructor, created on first request.
    pub(super) fn static_ctor_of(&mut self, def: TypeDefId, src: &TypeDeclSource) -> MethodId {
        if let Some(m) = self.meta.type_def(def).static_ctor {
            return m;
        }
        let m = self.new_method(
            MethodDef {
                name: ".cctor".into(),
                owner: def,
                kind: MethodKind::StaticConstructor,
                flags: Flags(Flags::STATIC | Flags::PRIVATE),
                type_params: Vec::new(),
                params: Vec::new(),
                ret: TypeId::VOID,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: self.meta.type_def(def).span,
            },
            MethodSource::StaticConstructor { owner: def, decl: None, scope: src.scope },
        );
        self.meta.type_defs[def.index()].static_ctor = Some(m);
        m
    }

    fn declare_primary_ctor(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, params: &[ast::Param]) {
        let pdefs = self.declare_params(ctx, params);
        let is_record = self.meta.type_def(def).flags.has(Flags::RECORD);
        for (p, syntax) in pdefs.iter().zip(params) {
            if is_record {
                self.declare_record_property(def, src, p, syntax.name.span);
            } else {
                let f = self.new_field(
                    FieldDef {
                        name: format!("<{}>P", p.name),
                        owner: def,
                        ty: p.ty,
                        flags: Flags(Flags::PRIVATE | Flags::SYNTHESIZED),
                        slot: 0,
                        constant: None,
                        span: syntax.name.span,
                    },
                    None,
                );
                self.primary_ctor_fields.insert((def, p.name.clone()), f);
            }
        }
        self.new_method(
            MethodDef {
                name: ".ctor".into(),
                owner: def,
                kind: MethodKind::Constructor,
                flags: Flags(Flags::PUBLIC),
                type_params: Vec::new(),
                params: pdefs,
                ret: TypeId::VOID,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: src.decl.name.span,
            },
            MethodSource::ImplicitConstructor { owner: def, scope: src.scope },
        );
    }

    /// How many classes `def` derives from.
    fn base_depth(&self, def: TypeDefId) -> usize {
        let mut depth = 0;
        let mut cur = self.meta.type_def(def).base.and_then(|b| self.meta.types.def_of(b));
        while let Some(d) = cur {
            depth += 1;
            if depth > 64 {
                break;
            }
            cur = self.meta.type_def(d).base.and_then(|b| self.meta.types.def_of(b));
        }
        depth
    }

    /// The property `name` of `def` or of one of its base classes.
    pub(super) fn property_in_hierarchy(&self, def: TypeDefId, name: &str) -> Option<PropertyId> {
        let mut cur = Some(def);
        let mut guard = 0;
        while let Some(d) = cur {
            let td = self.meta.type_def(d);
            if let Some(&p) = td.properties.iter().find(|&&p| self.meta.property(p).name == name) {
                return Some(p);
            }
            guard += 1;
            if guard > 64 {
                return None;
            }
            cur = td.base.and_then(|b| self.meta.types.def_of(b));
        }
        None
    }

    /// A positional record parameter becomes a public `{ get; init; }` property, unless the
    /// record already has (or inherits) one of that name.
    fn declare_record_property(&mut self, def: TypeDefId, src: &TypeDeclSource, p: &ParamDef, span: Span) {
        if self.property_in_hierarchy(def, &p.name).is_some() {
            return;
        }
        let accessors = ast::PropertyBody::Accessors(vec![accessor(ast::AccessorKind::Get, span), accessor(ast::AccessorKind::Init, span)]);
        self.declare_property_like(
            def,
            src,
            PropertyShape {
                name: p.name.clone(),
                name_span: span,
                modifiers: Modifiers { bits: Modifiers::PUBLIC, span },
                ty: p.ty,
                params: Vec::new(),
                body: &accessors,
                initializer: None,
                explicit: None,
                span,
            },
        );
    }

    fn declare_operator(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, o: &ast::OperatorDecl) {
        let name = operator_method_name(o.op, o.params.len());
        let ret = self.resolve_type(ctx, &o.return_type);
        let params = self.declare_params(ctx, &o.params);
        let kind = if matches!(o.op, ast::OverloadableOp::Implicit | ast::OverloadableOp::Explicit) { MethodKind::Conversion } else { MethodKind::Operator };
        let is_extern = o.modifiers.has(Modifiers::EXTERN);
        let source = if is_extern { MethodSource::None } else { MethodSource::Operator { decl: Rc::new(o.clone()), scope: src.scope } };
        let id = self.new_method(
            MethodDef {
                name: name.into(),
                owner: def,
                kind,
                flags: Flags(flags_from_modifiers(o.modifiers).0 | Flags::STATIC),
                type_params: Vec::new(),
                params,
                ret,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: o.span,
            },
            source,
        );
        if is_extern {
            self.bind_intrinsic(id, &o.attributes, src);
        }
    }

    /// Events: accessor methods (`events.rs`), and for a field-like event a delegate field
    /// that allows `+=`/`-=` from outside.
    fn declare_event(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, e: &ast::EventDecl) {
        if !self.declare_event_accessors(def, src, ctx, e) {
            return;
        }
        let ty = self.resolve_type(ctx, &e.ty);
        let flags = flags_from_modifiers(e.modifiers);
        for d in &e.declarators {
            let init = d.init.clone().map(Rc::new);
            let f = self.new_field(
                FieldDef { name: d.name.name.clone(), owner: def, ty, flags, slot: 0, constant: None, span: d.name.span },
                Some(FieldSource { init, scope: src.scope, file: src.file }),
            );
            self.event_fields.insert(f);
        }
    }

    fn declare_enum_members(&mut self, def: TypeDefId, src: &TypeDeclSource) {
        let ctx = NameContext::new(src.scope, src.file, Some(def));
        let self_type = self.meta.type_def(def).self_type;
        let mut next: i64 = 0;
        for m in &src.decl.enum_members {
            let value = match &m.value {
                Some(e) => match super::consts::eval_syntax(self, &ctx, e) {
                    Some(c) => super::consts::as_i64(&c).unwrap_or(next),
                    None => {
                        self.error(src.file, e.span, "CS0133", "The expression being assigned to an enum member must be constant");
                        next
                    }
                },
                None => next,
            };
            next = value.wrapping_add(1);
            self.new_field(
                FieldDef {
                    name: m.name.name.clone(),
                    owner: def,
                    ty: self_type,
                    flags: Flags(Flags::STATIC | Flags::CONST | Flags::PUBLIC),
                    slot: 0,
                    constant: Some(Constant::Int(value)),
                    span: m.name.span,
                },
                None,
            );
        }
        if src.decl.attributes.iter().any(|a| matches!(attribute_name(a).as_str(), "Flags")) {
            self.meta.type_defs[def.index()].flags.set(Flags::FLAGS_ENUM);
        }
    }

    fn declare_delegate_invoke(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext) {
        let ret = match &src.decl.delegate_return {
            Some(r) => self.resolve_type(ctx, r),
            None => TypeId::VOID,
        };
        let params = match &src.decl.primary_ctor {
            Some(p) => self.declare_params(ctx, p),
            None => Vec::new(),
        };
        self.new_method(
            MethodDef {
                name: "Invoke".into(),
                owner: def,
                kind: MethodKind::Ordinary,
                flags: Flags(Flags::PUBLIC | Flags::VIRTUAL),
                type_params: Vec::new(),
                params,
                ret,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: src.decl.name.span,
            },
            MethodSource::None,
        );
    }

    /// The default constructor of a class without constructors, the static constructor
    /// that runs static field initializers, and record members.
    fn declare_implicit_members(&mut self, def: TypeDefId, decls: &[TypeDeclSource]) {
        let Some(src) = decls.first() else { return };
        let d = self.meta.type_def(def).clone();
        if d.kind == TypeDefKind::Class && !d.flags.has(Flags::STATIC) {
            let has_ctor = d.methods.iter().any(|&m| self.meta.method(m).kind == MethodKind::Constructor);
            if !has_ctor {
                let flags = if d.flags.has(Flags::ABSTRACT) { Flags::PROTECTED } else { Flags::PUBLIC };
                self.new_method(
                    MethodDef {
                        name: ".ctor".into(),
                        owner: def,
                        kind: MethodKind::Constructor,
                        flags: Flags(flags),
                        type_params: Vec::new(),
                        params: Vec::new(),
                        ret: TypeId::VOID,
                        vtable_slot: None,
                        body: MethodBody::None,
                        file: src.file,
                        span: src.decl.name.span,
                    },
                    MethodSource::ImplicitConstructor { owner: def, scope: src.scope },
                );
            }
        }
        let has_static_init = d.fields.iter().any(|&f| {
            let fd = self.meta.field(f);
            fd.flags.has(Flags::STATIC) && !fd.flags.has(Flags::CONST) && self.field_src.get(&f).is_some_and(|s| s.init.is_some())
        });
        if has_static_init {
            self.static_ctor_of(def, src);
        }
        if d.flags.has(Flags::RECORD) {
            self.declare_record_members(def, src);
        }
    }

    fn declare_record_members(&mut self, def: TypeDefId, src: &TypeDeclSource) {
        let wk = self.meta.well_known.clone();
        let self_type = self.meta.type_def(def).self_type;
        let members: [(RecordMember, &str, Vec<TypeId>, TypeId, u32); 5] = [
            (RecordMember::ToString, "ToString", vec![], wk.string, Flags::PUBLIC | Flags::OVERRIDE),
            (RecordMember::EqualsObject, "Equals", vec![wk.object], wk.boolean, Flags::PUBLIC | Flags::OVERRIDE),
            (RecordMember::GetHashCode, "GetHashCode", vec![], wk.int32, Flags::PUBLIC | Flags::OVERRIDE),
            (RecordMember::OpEquality, "op_Equality", vec![self_type, self_type], wk.boolean, Flags::PUBLIC | Flags::STATIC),
            (RecordMember::OpInequality, "op_Inequality", vec![self_type, self_type], wk.boolean, Flags::PUBLIC | Flags::STATIC),
        ];
        for (kind, name, params, ret, flags) in members {
            let user_defined = self.meta.type_def(def).methods.iter().any(|&m| {
                let md = self.meta.method(m);
                md.name == name && md.params.len() == params.len()
            });
            if user_defined {
                continue;
            }
            let params = params
                .into_iter()
                .enumerate()
                .map(|(i, ty)| ParamDef { name: if i == 0 { "left".into() } else { "right".into() }, ty, kind: ParamKind::Value, default: None })
                .collect();
            self.new_method(
                MethodDef {
                    name: name.into(),
                    owner: def,
                    kind: if name.starts_with("op_") { MethodKind::Operator } else { MethodKind::Ordinary },
                    flags: Flags(flags | Flags::SYNTHESIZED),
                    type_params: Vec::new(),
                    params,
                    ret,
                    vtable_slot: None,
                    body: MethodBody::None,
                    file: src.file,
                    span: src.decl.name.span,
                },
                MethodSource::RecordMember { owner: def, kind },
            );
        }
        self.declare_record_deconstruct(def, src);
    }

    /// `void Deconstruct(out T1 P1, ...)` over the primary constructor's parameters.
    fn declare_record_deconstruct(&mut self, def: TypeDefId, src: &TypeDeclSource) {
        let Some(primary) = &src.decl.primary_ctor else { return };
        let d = self.meta.type_def(def).clone();
        let mut params = Vec::new();
        for p in primary {
            let Some(prop) = self.property_in_hierarchy(def, &p.name.name) else { return };
            let ty = self.meta.property(prop).ty;
            params.push(ParamDef { name: p.name.name.clone(), ty, kind: ParamKind::Out, default: None });
        }
        let user_defined = d.methods.iter().any(|&m| {
            let md = self.meta.method(m);
            md.name == "Deconstruct" && md.params.len() == params.len()
        });
        if params.is_empty() || user_defined {
            return;
        }
        self.new_method(
            MethodDef {
                name: "Deconstruct".into(),
                owner: def,
                kind: MethodKind::Ordinary,
                flags: Flags(Flags::PUBLIC | Flags::SYNTHESIZED),
                type_params: Vec::new(),
                params,
                ret: TypeId::VOID,
                vtable_slot: None,
                body: MethodBody::None,
                file: src.file,
                span: src.decl.name.span,
            },
            MethodSource::RecordMember { owner: def, kind: RecordMember::Deconstruct },
        );
    }
}

struct PropertyShape<'a> {
    name: String,
    name_span: Span,
    modifiers: Modifiers,
    ty: TypeId,
    params: Vec<ParamDef>,
    body: &'a ast::PropertyBody,
    initializer: Option<ast::Expr>,
    explicit: Option<TypeId>,
    #[allow(dead_code)]
    span: Span,
}

fn accessor(kind: ast::AccessorKind, span: Span) -> ast::Accessor {
    ast::Accessor { attributes: Vec::new(), modifiers: Modifiers::default(), kind, body: None, span }
}

/// The attribute's simple name without an `Attribute` suffix or namespace.
pub fn attribute_name(a: &ast::Attribute) -> String {
    let name = match &a.name.kind {
        ast::TypeSyntaxKind::Named(segs) => segs.last().map_or(String::new(), |s| s.name.name.clone()),
        _ => String::new(),
    };
    name.strip_suffix("Attribute").map_or(name.clone(), str::to_string)
}

/// An attribute as the run time keeps it: its name and constant arguments.
pub fn custom_attribute(a: &ast::Attribute) -> CustomAttribute {
    let mut args = Vec::new();
    let mut named = Vec::new();
    for arg in &a.args {
        let value = attribute_value(&arg.value);
        match &arg.name {
            Some(n) => named.push((n.name.clone(), value)),
            None => args.push(value),
        }
    }
    CustomAttribute { name: attribute_name(a), args, named }
}

fn attribute_value(e: &ast::Expr) -> AttributeValue {
    match &e.kind {
        ast::ExprKind::Literal(ast::Literal::Bool(b)) => AttributeValue::Bool(*b),
        ast::ExprKind::Literal(ast::Literal::Int { value, .. }) => AttributeValue::Int(*value as i64),
        ast::ExprKind::Literal(ast::Literal::String(s)) => AttributeValue::String(s.clone()),
        ast::ExprKind::Member { name, .. } | ast::ExprKind::Name(name) => AttributeValue::Other(name.name.name.clone()),
        _ => AttributeValue::Other(String::new()),
    }
}

/// The metadata name of a user-defined operator (`op_Addition`...).
pub fn operator_method_name(op: ast::OverloadableOp, arity: usize) -> &'static str {
    use ast::{BinaryOp as B, OverloadableOp as O, UnaryOp as U};
    match op {
        O::Binary(b) => match b {
            B::Add => "op_Addition",
            B::Sub => "op_Subtraction",
            B::Mul => "op_Multiply",
            B::Div => "op_Division",
            B::Rem => "op_Modulus",
            B::BitAnd => "op_BitwiseAnd",
            B::BitOr => "op_BitwiseOr",
            B::BitXor => "op_ExclusiveOr",
            B::Shl => "op_LeftShift",
            B::Shr => "op_RightShift",
            B::UShr => "op_UnsignedRightShift",
            B::Eq => "op_Equality",
            B::Ne => "op_Inequality",
            B::Lt => "op_LessThan",
            B::Gt => "op_GreaterThan",
            B::Le => "op_LessThanOrEqual",
            B::Ge => "op_GreaterThanOrEqual",
            B::And | B::Or | B::Coalesce => "op_Invalid",
        },
        O::Unary(u) => match u {
            U::Plus if arity == 1 => "op_UnaryPlus",
            U::Minus if arity == 1 => "op_UnaryNegation",
            U::Plus => "op_Addition",
            U::Minus => "op_Subtraction",
            U::Not => "op_LogicalNot",
            U::BitNot => "op_OnesComplement",
            U::PreIncrement => "op_Increment",
            U::PreDecrement => "op_Decrement",
        },
        O::Increment => "op_Increment",
        O::Decrement => "op_Decrement",
        O::True => "op_True",
        O::False => "op_False",
        O::Implicit => "op_Implicit",
        O::Explicit => "op_Explicit",
    }
}

/// Whether `flags` name an accessibility (members of an interface without one are public).
fn has_access_modifier(flags: Flags) -> bool {
    [Flags::PUBLIC, Flags::PRIVATE, Flags::PROTECTED, Flags::INTERNAL].iter().any(|&f| flags.has(f))
}

fn is_const(f: &ast::FieldDecl) -> bool {
    flags_from_modifiers(f.modifiers).has(Flags::CONST)
}
