//! Resolving type syntax to [`TypeId`]s: predefined types, generic parameters, nested
//! types, namespaces, `using` directives and aliases, with C#'s lookup order and errors.

use super::scopes::{AliasTarget, ImportScope, ScopeId};
use super::Compiler;
use crate::metadata::{FileId, MethodId, ParamOwner, TypeDefId, TypeId};
use grammar::ast::{self, PredefinedType, TypeSyntaxKind};
use grammar::span::Span;

/// Where a name is being resolved: the import scope, the innermost enclosing type, the
/// enclosing method (for its type parameters) and local generic parameters in scope.
#[derive(Clone, Debug)]
pub struct NameContext {
    pub scope: ScopeId,
    pub file: FileId,
    pub type_def: Option<TypeDefId>,
    pub method: Option<MethodId>,
    /// Type parameters of enclosing local functions (name → type).
    pub local_type_params: Vec<(String, TypeId)>,
}

impl NameContext {
    pub fn new(scope: ScopeId, file: FileId, type_def: Option<TypeDefId>) -> NameContext {
        NameContext { scope, file, type_def, method: None, local_type_params: Vec::new() }
    }

    pub fn with_method(mut self, method: MethodId) -> NameContext {
        self.method = Some(method);
        self
    }
}

/// The result of looking a name up as a namespace or type.
#[derive(Clone, Debug, PartialEq)]
pub enum NsOrType {
    Type(TypeId),
    Namespace(String),
}

impl Compiler {
    /// Resolves a type, reporting errors; returns `TypeId::ERROR` when it fails.
    pub fn resolve_type(&mut self, ctx: &NameContext, syntax: &ast::TypeSyntax) -> TypeId {
        self.resolve_type_inner(ctx, syntax, true)
    }

    /// Resolves a type without reporting anything (the binder tries names as types).
    pub fn try_resolve_type(&mut self, ctx: &NameContext, syntax: &ast::TypeSyntax) -> Option<TypeId> {
        let t = self.resolve_type_inner(ctx, syntax, false);
        (t != TypeId::ERROR).then_some(t)
    }

    fn resolve_type_inner(&mut self, ctx: &NameContext, syntax: &ast::TypeSyntax, report: bool) -> TypeId {
        match &syntax.kind {
            TypeSyntaxKind::Predefined(p) => self.predefined(*p, ctx, syntax.span, report),
            TypeSyntaxKind::Array(elem, rank) => {
                let e = self.resolve_type_inner(ctx, elem, report);
                if e == TypeId::ERROR {
                    return e;
                }
                self.meta.types.array(e, (*rank).clamp(1, 32) as u8)
            }
            TypeSyntaxKind::Nullable(inner) => {
                let t = self.resolve_type_inner(ctx, inner, report);
                if t == TypeId::ERROR {
                    return t;
                }
                self.nullable_of(t)
            }
            TypeSyntaxKind::Tuple(elems) => {
                let mut args = Vec::new();
                for e in elems {
                    let t = self.resolve_type_inner(ctx, &e.ty, report);
                    if t == TypeId::ERROR {
                        return t;
                    }
                    args.push(t);
                }
                let tuple = self.tuple_type(&args, syntax.span, ctx.file, report);
                let names: Vec<String> = elems.iter().map(|e| e.name.as_ref().map_or(String::new(), |n| n.name.clone())).collect();
                if tuple == TypeId::ERROR {
                    return tuple;
                }
                self.meta.types.named_tuple(tuple, &names)
            }
            TypeSyntaxKind::Named(segments) => match self.resolve_named(ctx, segments, report) {
                Some(NsOrType::Type(t)) => t,
                Some(NsOrType::Namespace(ns)) => {
                    if report {
                        self.error(ctx.file, syntax.span, "CS0118", format!("'{ns}' is a namespace but is used like a type"));
                    }
                    TypeId::ERROR
                }
                None => TypeId::ERROR,
            },
        }
    }

    /// `T?`: `Nullable<T>` for value types, the type itself for reference types.
    pub fn nullable_of(&mut self, t: TypeId) -> TypeId {
        let nullable = self.meta.well_known.nullable;
        if self.meta.types.def_of(t) == Some(nullable) {
            return t;
        }
        if self.meta.is_value_type(t) {
            self.meta.types.named(nullable, &[t])
        } else {
            t
        }
    }

    /// `(T1, ..., Tn)` as `System.ValueTuple<T1, ..., Tn>`.
    pub fn tuple_type(&mut self, args: &[TypeId], span: Span, file: FileId, report: bool) -> TypeId {
        if args.len() < 2 {
            if report {
                self.error(file, span, "CS8124", "Tuple must contain at least two elements.");
            }
            return TypeId::ERROR;
        }
        self.value_tuple(args)
    }

    /// The `ValueTuple` for `args`; past seven elements the rest nest in the eighth
    /// (`ValueTuple<T1..T7, ValueTuple<T8, T9>>`).
    pub fn value_tuple(&mut self, args: &[TypeId]) -> TypeId {
        let (direct, rest) = if args.len() > 7 { (&args[..7], Some(&args[7..])) } else { (args, None) };
        let mut all = direct.to_vec();
        if let Some(rest) = rest {
            let r = self.value_tuple(rest);
            all.push(r);
        }
        match self.namespaces.find_type("System", "ValueTuple", all.len()) {
            Some(d) => self.meta.types.named(d, &all),
            None => TypeId::ERROR,
        }
    }

    fn predefined(&mut self, p: PredefinedType, ctx: &NameContext, span: Span, report: bool) -> TypeId {
        let wk = &self.meta.well_known;
        match p {
            PredefinedType::Bool => wk.boolean,
            PredefinedType::Byte => wk.byte,
            PredefinedType::SByte => wk.sbyte,
            PredefinedType::Short => wk.int16,
            PredefinedType::UShort => wk.uint16,
            PredefinedType::Int => wk.int32,
            PredefinedType::UInt => wk.uint32,
            PredefinedType::Long => wk.int64,
            PredefinedType::ULong => wk.uint64,
            PredefinedType::Char => wk.char,
            PredefinedType::Float => wk.single,
            PredefinedType::Double => wk.double,
            PredefinedType::Decimal => wk.decimal,
            PredefinedType::String => wk.string,
            PredefinedType::Object => wk.object,
            PredefinedType::Void => TypeId::VOID,
            PredefinedType::NInt => wk.intptr,
            PredefinedType::NUInt => wk.uintptr,
            PredefinedType::Dynamic => {
                if report {
                    self.error(ctx.file, span, "CS1980", "'dynamic' is not supported by cs-lite");
                }
                TypeId::ERROR
            }
        }
    }

    /// Resolves a dotted, possibly generic name as a namespace or type.
    pub fn resolve_named(&mut self, ctx: &NameContext, segments: &[ast::NameSegment], report: bool) -> Option<NsOrType> {
        let first = segments.first()?;
        let mut cur = self.resolve_first_segment(ctx, first, report)?;
        for seg in &segments[1..] {
            cur = self.resolve_member_segment(ctx, cur, seg, report)?;
        }
        Some(cur)
    }

    fn resolve_args(&mut self, ctx: &NameContext, seg: &ast::NameSegment, report: bool) -> Option<Vec<TypeId>> {
        let mut args = Vec::new();
        for a in &seg.type_args {
            let t = self.resolve_type_inner(ctx, a, report);
            if t == TypeId::ERROR {
                return None;
            }
            args.push(t);
        }
        Some(args)
    }

    fn resolve_first_segment(&mut self, ctx: &NameContext, seg: &ast::NameSegment, report: bool) -> Option<NsOrType> {
        let name = seg.name.name.as_str();
        if name == ast::GLOBAL_QUALIFIER {
            return Some(NsOrType::Namespace(String::new()));
        }
        if let Some(alias) = name.strip_suffix("::") {
            return self.resolve_alias_qualifier(ctx, alias, seg.name.span, report).map(NsOrType::Namespace);
        }
        let args = self.resolve_args(ctx, seg, report)?;
        if let Some(t) = self.lookup_type(ctx, name, &args) {
            return Some(NsOrType::Type(t));
        }
        if args.is_empty() {
            if let Some(ns) = self.lookup_namespace(ctx.scope, name) {
                return Some(NsOrType::Namespace(ns));
            }
        }
        if report {
            self.report_type_not_found(ctx, seg, &args);
        }
        None
    }

    fn report_type_not_found(&mut self, ctx: &NameContext, seg: &ast::NameSegment, args: &[TypeId]) {
        let name = seg.name.name.as_str();
        if let Some(def) = self.lookup_any_arity(ctx, name) {
            if let Some((code, msg)) = self.arity_mismatch(def, args.len()) {
                self.error(ctx.file, seg.name.span, code, msg);
                return;
            }
        }
        let mut message = format!("The type or namespace name '{name}' could not be found (are you missing a using directive or an assembly reference?)");
        let unavailable = self.unavailable_usings(ctx.scope);
        if !unavailable.is_empty() {
            let quoted: Vec<String> = unavailable.iter().map(|n| format!("'{n}'")).collect();
            let verb = if quoted.len() == 1 { "is" } else { "are" };
            message.push_str(&format!(" ({} {verb} not available in cs-lite)", quoted.join(", ")));
        }
        self.error(ctx.file, seg.name.span, "CS0246", message);
    }

    /// The namespaces cs-lite lacks that `using` directives around `scope` import.
    fn unavailable_usings(&self, scope: ScopeId) -> Vec<String> {
        let mut found = Vec::new();
        let mut s = Some(scope);
        while let Some(id) = s {
            found.extend(self.scope(id).unavailable_usings.iter().cloned());
            s = self.scope(id).parent;
        }
        found
    }

    /// Reports a nested type of `declaring` named by `seg` with `given` type arguments
    /// when no nested type of that name takes that many (CS0305, CS0308).
    pub fn report_nested_type_arity(&mut self, file: FileId, declaring: TypeId, seg: &ast::NameSegment, given: usize) {
        let name = seg.name.name.as_str();
        let nested = self.meta.types.def_of(declaring).map(|d| self.meta.type_def(d).nested.clone()).unwrap_or_default();
        let Some(def) = nested.into_iter().find(|&n| self.meta.type_def(n).name == name) else { return };
        if let Some((code, msg)) = self.arity_mismatch(def, given) {
            self.error(file, seg.name.span, code, msg);
        }
    }

    /// Whether `declaring` itself declares a nested type called `name` (of any arity).
    fn has_nested_type_named(&self, declaring: TypeId, name: &str) -> bool {
        let Some(def) = self.meta.types.def_of(declaring) else { return false };
        self.meta.type_def(def).nested.iter().any(|&n| self.meta.type_def(n).name == name)
    }

    /// CS0305 / CS0308 when `def` is named with `given` type arguments and declares a
    /// different number of its own type parameters.
    fn arity_mismatch(&self, def: TypeDefId, given: usize) -> Option<(&'static str, String)> {
        let d = self.meta.type_def(def);
        let inherited = d.declaring_type.map_or(0, |o| self.meta.type_def(o).type_params.len());
        let own = d.type_params.len().saturating_sub(inherited);
        if own == given {
            return None;
        }
        let shown = self.meta.cs_short_name(d.self_type);
        Some(if own == 0 {
            ("CS0308", format!("The non-generic type '{shown}' cannot be used with type arguments"))
        } else {
            ("CS0305", format!("Using the generic type '{shown}' requires {own} type arguments"))
        })
    }

    fn resolve_member_segment(&mut self, ctx: &NameContext, left: NsOrType, seg: &ast::NameSegment, report: bool) -> Option<NsOrType> {
        let name = seg.name.name.as_str();
        let args = self.resolve_args(ctx, seg, report)?;
        match left {
            NsOrType::Namespace(ns) => {
                let from_library = self.is_library(ctx.file);
                if let Some(d) = self.namespaces.find_visible_type(from_library, &ns, name, args.len()) {
                    return Some(NsOrType::Type(self.meta.types.named(d, &args)));
                }
                let full = if ns.is_empty() { name.to_string() } else { format!("{ns}.{name}") };
                if args.is_empty() && self.namespaces.names.contains(&full) {
                    return Some(NsOrType::Namespace(full));
                }
                if report {
                    let shown = if ns.is_empty() { "<global namespace>".to_string() } else { ns };
                    self.error(
                        ctx.file,
                        seg.name.span,
                        "CS0234",
                        format!("The type or namespace name '{name}' does not exist in the namespace '{shown}' (are you missing an assembly reference?)"),
                    );
                }
                None
            }
            NsOrType::Type(t) => match self.find_nested_type(t, name, &args) {
                Some(n) => Some(NsOrType::Type(n)),
                None => {
                    if report && self.has_nested_type_named(t, name) {
                        self.report_nested_type_arity(ctx.file, t, seg, args.len());
                    } else if report {
                        let shown = self.meta.cs_name(t);
                        self.error(ctx.file, seg.name.span, "CS0426", format!("The type name '{name}' does not exist in the type '{shown}'"));
                    }
                    None
                }
            },
        }
    }

    /// A nested type `name<args>` of `outer` (or of its base classes).
    pub fn find_nested_type(&mut self, outer: TypeId, name: &str, args: &[TypeId]) -> Option<TypeId> {
        let mut cur = Some(outer);
        while let Some(t) = cur {
            let def = self.meta.types.def_of(t)?;
            let outer_args: Vec<TypeId> = self.meta.types.args_of(t).to_vec();
            let nested = self.meta.type_def(def).nested.clone();
            for n in nested {
                let nd = self.meta.type_def(n);
                let own = nd.type_params.len() - outer_args.len().min(nd.type_params.len());
                if nd.name == name && own == args.len() {
                    let mut all = outer_args.clone();
                    all.extend_from_slice(args);
                    return Some(self.meta.types.named(n, &all));
                }
            }
            cur = self.meta.base_type(t);
        }
        None
    }

    /// Looks a simple type name up from `ctx`: type parameters, nested types of the
    /// enclosing types, then the namespaces and usings in scope.
    pub fn lookup_type(&mut self, ctx: &NameContext, name: &str, args: &[TypeId]) -> Option<TypeId> {
        if args.is_empty() {
            if let Some(t) = self.lookup_type_param(ctx, name) {
                return Some(t);
            }
        }
        let mut enclosing = ctx.type_def;
        while let Some(def) = enclosing {
            let self_type = self.meta.type_def(def).self_type;
            if let Some(t) = self.find_nested_type(self_type, name, args) {
                return Some(t);
            }
            enclosing = self.meta.type_def(def).declaring_type;
        }
        match self.lookup_in_scopes(ctx.scope, name, args.len(), ctx.file)? {
            Found::Def(def) => Some(self.meta.types.named(def, args)),
            Found::Alias(t) => Some(t),
        }
    }

    fn lookup_type_param(&mut self, ctx: &NameContext, name: &str) -> Option<TypeId> {
        if let Some((_, t)) = ctx.local_type_params.iter().rev().find(|(n, _)| n == name) {
            return Some(*t);
        }
        if let Some(m) = ctx.method {
            if let Some(i) = self.meta.method(m).type_params.iter().position(|p| p.name == name) {
                return Some(self.meta.types.param(ParamOwner::Method(m), i as u16));
            }
        }
        let def = ctx.type_def?;
        let i = self.meta.type_def(def).type_params.iter().position(|p| p.name == name)?;
        Some(self.meta.types.param(ParamOwner::Type(def), i as u16))
    }

    fn lookup_any_arity(&mut self, ctx: &NameContext, name: &str) -> Option<TypeDefId> {
        let from_library = self.is_library(ctx.file);
        let mut scope = Some(ctx.scope);
        while let Some(s) = scope {
            let sc = self.scope(s).clone();
            for ns in std::iter::once(sc.namespace.clone()).chain(sc.usings.iter().cloned()) {
                if let Some(&(_, d)) = self.namespaces.any_arity(from_library, &ns, name).first() {
                    return Some(d);
                }
            }
            scope = sc.parent;
        }
        self.namespaces.any_arity(from_library, "", name).first().map(|&(_, d)| d)
    }

    /// The namespace chain and usings, innermost first. Reports CS0104 for a name found
    /// through two different usings. The library's code sees only the library's types.
    fn lookup_in_scopes(&mut self, start: ScopeId, name: &str, arity: usize, file: FileId) -> Option<Found> {
        let from_library = self.is_library(file);
        let mut scope = Some(start);
        let mut searched_global = false;
        while let Some(s) = scope {
            let sc = self.scope(s).clone();
            if let Some(d) = self.namespaces.find_visible_type(from_library, &sc.namespace, name, arity) {
                return Some(Found::Def(d));
            }
            searched_global |= sc.namespace.is_empty();
            if let Some(found) = self.lookup_in_imports(&sc, name, arity, file, from_library) {
                return Some(found);
            }
            // `namespace A.B { }` is `namespace A { namespace B { } }`: the usings belong to
            // `A.B`, then `A` is searched before the enclosing declaration.
            let stop = sc.parent.map(|p| self.scope(p).namespace.clone());
            let mut ns = sc.namespace.clone();
            while let Some((outer, _)) = ns.rsplit_once('.') {
                ns = outer.to_string();
                if stop.as_deref() == Some(ns.as_str()) {
                    break;
                }
                if let Some(d) = self.namespaces.find_visible_type(from_library, &ns, name, arity) {
                    return Some(Found::Def(d));
                }
            }
            scope = sc.parent;
        }
        if !searched_global {
            return self.namespaces.find_visible_type(from_library, "", name, arity).map(Found::Def);
        }
        None
    }

    /// A type imported by a scope's aliases and `using` directives. Reports CS0104 for a
    /// name two usings provide.
    fn lookup_in_imports(&mut self, sc: &ImportScope, name: &str, arity: usize, file: FileId, from_library: bool) -> Option<Found> {
        if arity == 0 {
            if let Some(AliasTarget::Type(t)) = sc.aliases.get(name) {
                return Some(Found::Alias(*t));
            }
        }
        let found: Vec<TypeDefId> = sc.usings.iter().filter_map(|u| self.namespaces.find_visible_type(from_library, u, name, arity)).collect();
        let &first = found.first()?;
        if let Some(&other) = found.iter().find(|&&d| d != first) {
            let a = self.meta.def_full_name(first);
            let b = self.meta.def_full_name(other);
            self.error(file, Span::default(), "CS0104", format!("'{name}' is an ambiguous reference between '{a}' and '{b}'"));
        }
        Some(Found::Def(first))
    }

    /// The namespace a `using` alias named by `alias::` stands for; CS0432 when no alias in
    /// scope is called so.
    pub fn resolve_alias_qualifier(&mut self, ctx: &NameContext, alias: &str, span: Span, report: bool) -> Option<String> {
        let mut s = Some(ctx.scope);
        while let Some(id) = s {
            let sc = self.scope(id);
            if let Some(AliasTarget::Namespace(ns)) = sc.aliases.get(alias) {
                return Some(ns.clone());
            }
            s = sc.parent;
        }
        if report {
            self.error(ctx.file, span, "CS0432", format!("Alias '{alias}' not found"));
        }
        None
    }

    /// A namespace visible as `name` from `scope` (`System`, or `Generic` inside
    /// `System.Collections`).
    pub fn lookup_namespace(&self, scope: ScopeId, name: &str) -> Option<String> {
        let mut s = Some(scope);
        while let Some(id) = s {
            let sc = self.scope(id);
            if let Some(AliasTarget::Namespace(ns)) = sc.aliases.get(name) {
                return Some(ns.clone());
            }
            let mut ns = sc.namespace.clone();
            loop {
                let full = if ns.is_empty() { name.to_string() } else { format!("{ns}.{name}") };
                if self.namespaces.names.contains(&full) {
                    return Some(full);
                }
                if ns.is_empty() {
                    break;
                }
                ns = ns.rsplit_once('.').map_or(String::new(), |(p, _)| p.to_string());
            }
            s = sc.parent;
        }
        None
    }
}

/// What a simple type name found in scope: a type definition (to construct with the
/// written arguments) or a `using` alias of a whole type.
enum Found {
    Def(TypeDefId),
    Alias(TypeId),
}
