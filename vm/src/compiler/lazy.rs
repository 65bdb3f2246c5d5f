//! Lazy compilation of the standard library's method bodies: the user's program is
//! compiled whole (so every error in it is reported), while a library method is bound and
//! emitted only when the running program first calls it. Declarations and layouts of the
//! library are complete before anything runs, so compiling a body later sees exactly what
//! compiling it eagerly would have seen.

use std::rc::Rc;

use grammar::ast::{Block, Body};
use hashbrown::HashMap;

use super::sources::MethodSource;
use super::Compiler;
use crate::bytecode::Function;
use crate::metadata::{FileId, Flags, Metadata, MethodId};

/// The compiler kept alive for the run: it holds the library's syntax and scopes; the
/// metadata lives in the VM and is lent back for each compilation.
pub struct LazyLibrary {
    compiler: Box<Compiler>,
    /// Library methods whose bodies are still to be compiled.
    pending: Vec<bool>,
    /// The library was declared from skeletons: its member bodies are empty blocks, and
    /// the real ones come from parsing the file when a method of it is compiled.
    skeletal: bool,
    /// Per library file parsed so far: its member bodies by the offset of their `{`.
    bodies: HashMap<FileId, HashMap<u32, Block>>,
}

impl Compiler {
    /// Binds and emits the user's methods; returns, by method, whether it is a library
    /// method whose body is left for later.
    pub fn compile_user_bodies(&mut self) -> Vec<bool> {
        let pending = (0..self.meta.methods.len()).map(|i| MethodId(i as u32)).map(|m| self.is_library_method(m) && self.has_source_body(m)).collect();
        self.compile_bodies_of(|c, m| !c.is_library_method(m));
        pending
    }

    fn is_library_method(&self, m: MethodId) -> bool {
        self.meta.type_def(self.meta.method(m).owner).flags.has(Flags::LIBRARY)
    }
}

impl LazyLibrary {
    pub fn new(compiler: Compiler, pending: Vec<bool>, skeletal: bool) -> LazyLibrary {
        LazyLibrary { compiler: Box::new(compiler), pending, skeletal, bodies: HashMap::new() }
    }

    /// The pending method to compile so that `m` gets a body: `m` itself, or the async
    /// method whose code body `m` is.
    fn origin(&self, m: MethodId) -> Option<MethodId> {
        let is_pending = |x: MethodId| self.pending.get(x.index()).copied().unwrap_or(false);
        if is_pending(m) {
            return Some(m);
        }
        let owner = self.compiler.async_bodies.iter().find(|&(_, &body)| body == m).map(|(&owner, _)| owner)?;
        is_pending(owner).then_some(owner)
    }

    /// Compiles the pending method behind `m`, if any, against the program's metadata (lent
    /// for the duration). Returns the new functions, numbered from `first_function`.
    pub fn compile(&mut self, meta: &mut Metadata, m: MethodId, first_function: u32) -> Result<Vec<Function>, String> {
        let Some(target) = self.origin(m) else { return Ok(Vec::new()) };
        self.pending[target.index()] = false;
        std::mem::swap(&mut self.compiler.meta, meta);
        self.compiler.function_base = first_function;
        let result = self.hydrate(target).and_then(|()| compile_one(&mut self.compiler, target));
        let c = &mut self.compiler;
        let functions = std::mem::take(&mut c.functions);
        std::mem::swap(&mut c.meta, meta);
        result.map(|()| functions)
    }
}

impl LazyLibrary {
    /// Gives a method declared from a skeleton its real body (parsing its file once).
    fn hydrate(&mut self, m: MethodId) -> Result<(), String> {
        if !self.skeletal {
            return Ok(());
        }
        let c = &mut self.compiler;
        let file = c.meta.method(m).file;
        let bodies = self.bodies.entry(file).or_insert_with(|| parse_bodies(&c.meta.files[file.index()].text));
        let name = &c.meta.method(m).name;
        let real = |b: &Option<Body>| -> Result<Option<Body>, String> {
            match b {
                Some(Body::Block(block)) => match bodies.get(&block.span.start) {
                    Some(full) => Ok(Some(Body::Block(full.clone()))),
                    None => Err(format!("the body of library method {name} was not found")),
                },
                other => Ok(other.clone()),
            }
        };
        let hydrated = match &c.method_src[m.index()] {
            MethodSource::Method { decl, scope } => {
                let mut d = (**decl).clone();
                d.body = real(&d.body)?;
                MethodSource::Method { decl: Rc::new(d), scope: *scope }
            }
            MethodSource::Operator { decl, scope } => {
                let mut d = (**decl).clone();
                d.body = real(&d.body)?;
                MethodSource::Operator { decl: Rc::new(d), scope: *scope }
            }
            MethodSource::Constructor { decl, scope } => {
                let mut d = (**decl).clone();
                d.body = real(&d.body)?;
                MethodSource::Constructor { decl: Rc::new(d), scope: *scope }
            }
            MethodSource::StaticConstructor { owner, decl: Some(decl), scope } => {
                let mut d = (**decl).clone();
                d.body = real(&d.body)?;
                MethodSource::StaticConstructor { owner: *owner, decl: Some(Rc::new(d)), scope: *scope }
            }
            MethodSource::Accessor { body, property, is_setter, scope } => {
                let full = real(&Some((**body).clone()))?.unwrap_or_else(|| (**body).clone());
                MethodSource::Accessor { body: Rc::new(full), property: *property, is_setter: *is_setter, scope: *scope }
            }
            other => other.clone(),
        };
        c.method_src[m.index()] = hydrated;
        Ok(())
    }
}

/// The member bodies of a source file, by the offset of their opening brace.
fn parse_bodies(text: &str) -> HashMap<u32, Block> {
    let parsed = grammar::parse(text);
    let mut bodies = HashMap::new();
    grammar::bodies::for_each_member_body(&parsed.unit, &mut |b| {
        bodies.insert(b.span.start, b.clone());
    });
    bodies
}

/// Binds and emits one library method (its lambdas and iterator or async body with it).
fn compile_one(c: &mut Compiler, m: MethodId) -> Result<(), String> {
    c.compile_bodies_of(|_, x| x == m);
    if !c.diags.has_errors() {
        return Ok(());
    }
    let text = super::diagnostics::render(&c.diags.sorted(), &c.meta.files);
    Err(format!("the standard library failed to compile {}:\n{text}", c.meta.method(m).name))
}
