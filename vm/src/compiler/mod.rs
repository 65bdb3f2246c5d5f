//! The compiler: source files in, metadata and bytecode out.
//!
//! Pipeline (each step a module):
//! 1. parse every file (`grammar`);
//! 2. [`declare`] types, then their headers (bases, constraints), then members;
//! 3. [`layout`] fields, vtables and interface maps;
//! 4. [`bind`] each method body into the typed [`bound`] tree (name, type and overload
//!    resolution, conversions, C#'s errors);
//! 5. [`emit`] register bytecode from the bound tree.
//!
//! Errors are collected in [`Diagnostics`] and rendered once by the caller.

pub mod bind;
pub mod bound;
pub mod constraints;
pub mod consts;
pub mod declare;
pub mod diagnostics;
pub mod dotnet_namespaces;
pub mod emit;
pub mod events;
pub mod layout;
pub mod lazy;
pub mod members;
pub mod names;
pub mod resolve;
pub mod scopes;
pub mod sources;

use std::borrow::Cow;

use hashbrown::{HashMap, HashSet};

use crate::bytecode::Function;
use crate::metadata::{FileId, IntrinsicNames, Metadata, MethodId, SourceFile, TypeDefId};
pub use diagnostics::{Diag, Diagnostics};
use scopes::{ImportScope, Namespaces, ScopeId};
use sources::{FieldSource, MethodSource, TypeSource};

/// Which lowering async methods get when no attribute decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lowering {
    Classic,
    #[default]
    Runtime,
}

/// What decided an async method's lowering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoweringSource {
    /// `[RuntimeAsyncMethodGeneration(bool)]` on the method.
    Attribute,
    /// `--lowering` (or its default).
    Option,
    /// Neither: an async iterator is always Roslyn's state machine.
    AsyncIterator,
}

#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    pub lowering: Lowering,
    /// Keep a [`emit::report::LoweringReport`] per user async method (for `vm lower`).
    pub record_lowering: bool,
    /// Compile every standard-library body before running (for listings and checks);
    /// by default library bodies are compiled on first call (see [`lazy`]).
    pub eager_library: bool,
    /// The top-level statements are a REPL session's inputs: a later local declaration of
    /// a name shadows the earlier one instead of being CS0128, as each submission of C#
    /// interactive is its own scope.
    pub interactive: bool,
    /// `--warnaserror`: every warning is an error (the program does not run).
    pub warnings_as_errors: bool,
}

impl Compiler {
    /// A method's position among its type's methods: Roslyn numbers generated names by it
    /// (`<M>d__2`, `<>c__DisplayClass2_0`, `<M>b__2_0`), so they do not depend on how many
    /// methods other types (the standard library) declare.
    pub fn method_ordinal(&self, m: MethodId) -> usize {
        let owner = self.meta.method(m).owner;
        self.meta.type_def(owner).methods.iter().position(|&x| x == m).unwrap_or(0)
    }

    /// Roslyn's name of the state machine of an async method or iterator: `<M>d__N` for a
    /// method, `<<M>b__0_0>d` for a lambda or local function.
    pub fn state_machine_name(&self, m: MethodId) -> String {
        let md = self.meta.method(m);
        match md.kind {
            crate::metadata::MethodKind::Lambda | crate::metadata::MethodKind::LocalFunction => format!("<{}>d", md.name),
            _ => format!("<{}>d__{}", md.name, self.method_ordinal(m)),
        }
    }

    /// How async method `m` is lowered: `[RuntimeAsyncMethodGeneration(bool)]` on it
    /// decides, otherwise `--lowering`.
    pub fn lowering_of(&self, m: MethodId) -> Lowering {
        self.lowering_choice(m).0
    }

    /// [`Compiler::lowering_of`], with what decided it.
    pub fn lowering_choice(&self, m: MethodId) -> (Lowering, LoweringSource) {
        let attrs = self.method_attrs.get(&m).map(Vec::as_slice).unwrap_or_default();
        for a in attrs {
            if members::attribute_name(a) == "RuntimeAsyncMethodGeneration" {
                if let Some(arg) = a.args.first() {
                    if let grammar::ast::ExprKind::Literal(grammar::ast::Literal::Bool(b)) = arg.value.kind {
                        let lowering = if b { Lowering::Runtime } else { Lowering::Classic };
                        return (lowering, LoweringSource::Attribute);
                    }
                }
            }
        }
        (self.options.lowering, LoweringSource::Option)
    }
}

/// A compiled program: metadata, code, and the entry point.
pub struct Program {
    pub meta: Metadata,
    pub functions: Vec<Function>,
    pub entry_point: Option<MethodId>,
    /// What the emitter decided per user async method (empty unless
    /// [`CompileOptions::record_lowering`]).
    pub lowering_reports: Vec<emit::report::LoweringReport>,
    /// The compiler of the library bodies not compiled yet (none when compiled eagerly).
    pub library: Option<lazy::LazyLibrary>,
    /// The compiler's warnings, rendered (printed before the program runs).
    pub warnings: String,
    /// The same warnings, unrendered (the REPL shows those of the input just typed).
    pub warning_diags: Vec<Diag>,
}

pub struct Compiler {
    pub meta: Metadata,
    pub diags: Diagnostics,
    pub namespaces: Namespaces,
    pub scopes: Vec<ImportScope>,
    pub type_src: Vec<TypeSource>,
    pub method_src: Vec<MethodSource>,
    pub field_src: HashMap<crate::metadata::FieldId, FieldSource>,
    /// Explicit interface implementations: method → the interface it implements.
    pub explicit_impls: HashMap<MethodId, crate::metadata::TypeId>,
    /// Attributes written on methods (lowering choice, intrinsics, benchmarks...).
    pub method_attrs: HashMap<MethodId, Vec<grammar::ast::Attribute>>,
    /// Runtime-lowered async methods → the methods holding their code.
    pub async_bodies: HashMap<MethodId, MethodId>,
    /// Property of each accessor method.
    pub accessor_property: HashMap<MethodId, crate::metadata::PropertyId>,
    /// The hidden field behind each primary-constructor parameter of a class or struct.
    pub primary_ctor_fields: HashMap<(TypeDefId, String), crate::metadata::FieldId>,
    /// Static classes that declare extension methods.
    pub extension_classes: HashSet<TypeDefId>,
    /// Generic interfaces some type implements with different type arguments: calls of
    /// their methods name the interface type (`CallInterface`).
    pub interfaces_implemented_twice: HashSet<TypeDefId>,
    /// Fields declared as field-like events.
    pub event_fields: HashSet<crate::metadata::FieldId>,
    /// The `add_X`/`remove_X` methods of events that have no field (declared accessors,
    /// interface events): `X += h` calls them.
    pub custom_event_accessors: HashSet<MethodId>,
    /// The names of those events (a quick test before looking for their accessors).
    pub custom_event_names: HashSet<String>,
    pub functions: Vec<Function>,
    /// See [`Program::lowering_reports`].
    pub lowering_reports: Vec<emit::report::LoweringReport>,
    /// The id of `functions[0]` (functions compiled during the run follow the program's).
    pub function_base: u32,
    pub options: CompileOptions,
    /// The runtime's intrinsic and fast-path names (the compiler binds ids, never functions).
    pub intrinsics: IntrinsicNames,
    /// Files `0..library_files` are the standard library.
    pub library_files: usize,
    pub entry_point: Option<MethodId>,
}

impl Compiler {
    pub fn new(options: CompileOptions, intrinsics: IntrinsicNames) -> Compiler {
        Compiler {
            meta: Metadata::empty(),
            diags: Diagnostics::default(),
            namespaces: Namespaces::default(),
            scopes: Vec::new(),
            type_src: Vec::new(),
            method_src: Vec::new(),
            field_src: HashMap::new(),
            explicit_impls: HashMap::new(),
            method_attrs: HashMap::new(),
            async_bodies: HashMap::new(),
            accessor_property: HashMap::new(),
            primary_ctor_fields: HashMap::new(),
            event_fields: HashSet::new(),
            custom_event_accessors: HashSet::new(),
            custom_event_names: HashSet::new(),
            extension_classes: HashSet::new(),
            interfaces_implemented_twice: HashSet::new(),
            functions: Vec::new(),
            lowering_reports: Vec::new(),
            function_base: 0,
            options,
            intrinsics,
            library_files: 0,
            entry_point: None,
        }
    }

    pub fn add_file(&mut self, file: SourceFile) -> FileId {
        self.meta.files.push(file);
        FileId(self.meta.files.len() as u32 - 1)
    }

    pub fn is_library(&self, file: FileId) -> bool {
        file.index() < self.library_files
    }

    pub fn new_scope(&mut self, scope: ImportScope) -> ScopeId {
        self.scopes.push(scope);
        ScopeId(self.scopes.len() as u32 - 1)
    }

    pub fn scope(&self, id: ScopeId) -> &ImportScope {
        &self.scopes[id.0 as usize]
    }

    pub fn error(&mut self, file: FileId, span: grammar::span::Span, code: &'static str, msg: impl Into<String>) {
        self.diags.error(file, span, code, msg);
    }
}

/// The standard library's files, named as the compiler reports them (their texts are
/// borrowed from the binary, not copied).
pub fn library_sources() -> Vec<(String, Cow<'static, str>)> {
    stdlib::SOURCES.iter().map(|&(path, text)| (format!("stdlib/{path}"), Cow::Borrowed(text))).collect()
}

/// Compiles the standard library and the user's files into a program, binding `extern`
/// methods through `intrinsics`. On failure returns the program's diagnostics (and the
/// source files, for rendering).
pub fn compile(
    library: &[(String, Cow<'static, str>)],
    user: &[(String, String)],
    options: CompileOptions,
    intrinsics: IntrinsicNames,
) -> Result<Program, (Vec<Diag>, Vec<SourceFile>)> {
    compile_with_skeletons(library, None, user, options, intrinsics)
}

/// The standard library's declarations without its member bodies, one entry per file in
/// the library's order: the skeleton's text (bodies blanked) and its syntax tree as a
/// `grammar::image` (empty when the skeleton must be parsed; see the `stdlib` crate).
#[derive(Clone, Copy)]
pub struct Skeletons<'a> {
    pub texts: &'a [&'a str],
    pub images: &'a [&'a [u8]],
}

impl Skeletons<'_> {
    /// File `i`'s declarations: its image decoded, or else its skeleton parsed.
    fn parse(&self, i: usize) -> grammar::ParseOutput {
        let decoded = self.images.get(i).and_then(|bytes| grammar::image::decode(bytes));
        match decoded {
            Some(unit) => grammar::ParseOutput { unit, diagnostics: Vec::new(), incomplete: false },
            None => grammar::parse(self.texts.get(i).copied().unwrap_or("")),
        }
    }
}

/// Runs `parse` for files `0..count`, the second half on a second thread (startup is
/// mostly reading the library's declarations; files are read independently).
fn parse_all(count: usize, parse: impl Fn(usize) -> grammar::ParseOutput + Sync) -> Vec<grammar::ParseOutput> {
    let half = count / 2;
    std::thread::scope(|scope| {
        let helper = scope.spawn(|| (half..count).map(&parse).collect::<Vec<_>>());
        let mut parsed: Vec<grammar::ParseOutput> = (0..half).map(&parse).collect();
        match helper.join() {
            Ok(rest) => parsed.extend(rest),
            Err(_) => parsed.extend((half..count).map(&parse)),
        }
        parsed
    })
}

/// As [`compile`], given the library's skeletons: when library bodies are compiled
/// lazily, the library is declared from its skeletons and each body is parsed when its
/// method is compiled.
pub fn compile_with_skeletons(
    library: &[(String, Cow<'static, str>)],
    skeletons: Option<Skeletons<'_>>,
    user: &[(String, String)],
    options: CompileOptions,
    intrinsics: IntrinsicNames,
) -> Result<Program, (Vec<Diag>, Vec<SourceFile>)> {
    let skeletons = skeletons.filter(|s| s.texts.len() == library.len() && !options.eager_library);
    let parsed = match skeletons {
        Some(s) => parse_all(library.len(), |i| s.parse(i)),
        None => parse_all(library.len(), |i| grammar::parse(&library[i].1)),
    };
    let mut c = Compiler::new(options, intrinsics);
    let mut units = Vec::new();
    for ((name, text), parsed) in library.iter().zip(parsed) {
        let file = c.add_file(SourceFile::new(name.clone(), text.clone()));
        for d in parsed.diagnostics {
            c.error(file, d.span, d.code, d.message);
        }
        units.push((file, parsed.unit));
    }
    c.library_files = library.len();
    for (name, text) in user {
        let parsed = grammar::parse(text);
        let file = c.add_file(SourceFile::new(name.clone(), text.clone()));
        for d in parsed.diagnostics {
            if d.is_error() {
                c.error(file, d.span, d.code, d.message);
            } else {
                c.diags.warning(file, d.span, d.code, d.message);
            }
        }
        units.push((file, parsed.unit));
    }
    c.declare_all(units);
    if !c.diags.has_errors() {
        c.layout_all();
    }
    let mut pending = Vec::new();
    if !c.diags.has_errors() {
        if c.options.eager_library {
            c.compile_bodies();
        } else {
            pending = c.compile_user_bodies();
        }
    }
    if c.options.warnings_as_errors {
        c.diags.promote_warnings();
    }
    if c.diags.has_errors() {
        let diags = c.diags.sorted_with_warnings();
        return Err((diags, c.meta.files));
    }
    let warning_diags = c.diags.sorted_with_warnings();
    let warnings = diagnostics::render(&warning_diags, &c.meta.files);
    let meta = std::mem::replace(&mut c.meta, Metadata::empty());
    let functions = std::mem::take(&mut c.functions);
    let entry_point = c.entry_point;
    let lowering_reports = std::mem::take(&mut c.lowering_reports);
    let skeletal = skeletons.is_some();
    let library = (!c.options.eager_library).then(|| lazy::LazyLibrary::new(c, pending, skeletal));
    Ok(Program { meta, functions, entry_point, lowering_reports, library, warnings, warning_diags })
}
