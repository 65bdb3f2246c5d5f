//! Namespaces and import scopes: which top-level types exist in which namespace, and what a
//! file or namespace block imports (`using` directives, aliases, `using static`).

use hashbrown::{HashMap, HashSet};

use crate::metadata::{FileId, TypeDefId, TypeId};
use grammar::ast;

/// Index of an [`ImportScope`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScopeId(pub u32);

/// The namespaces usings implicitly import in an SDK console project.
pub const IMPLICIT_USINGS: &[&str] =
    &["System", "System.Collections.Generic", "System.IO", "System.Linq", "System.Net.Http", "System.Threading", "System.Threading.Tasks"];

#[derive(Default)]
pub struct Namespaces {
    /// Every namespace that exists, with all its parents (`System`, `System.Collections`...).
    pub names: HashSet<String>,
    /// Top-level types by `(namespace, name, arity)`, as the program sees them (its own
    /// declaration of a library type's name replaces the library's).
    pub types: HashMap<(String, String, usize), TypeDefId>,
    /// The library's top-level types only: what the library's own code sees, as the BCL,
    /// compiled in its own assembly, never binds a name to a program's type.
    pub library_types: HashMap<(String, String, usize), TypeDefId>,
}

impl Namespaces {
    pub fn add_namespace(&mut self, name: &str) {
        let mut acc = String::new();
        for part in name.split('.').filter(|p| !p.is_empty()) {
            if !acc.is_empty() {
                acc.push('.');
            }
            acc.push_str(part);
            self.names.insert(acc.clone());
        }
    }

    pub fn find_type(&self, namespace: &str, name: &str, arity: usize) -> Option<TypeDefId> {
        self.types.get(&(namespace.to_string(), name.to_string(), arity)).copied()
    }

    /// The type `namespace.name` of `arity` as code of the library (`from_library`) or of
    /// the program sees it.
    pub fn find_visible_type(&self, from_library: bool, namespace: &str, name: &str, arity: usize) -> Option<TypeDefId> {
        self.visible(from_library).get(&(namespace.to_string(), name.to_string(), arity)).copied()
    }

    fn visible(&self, from_library: bool) -> &HashMap<(String, String, usize), TypeDefId> {
        if from_library {
            &self.library_types
        } else {
            &self.types
        }
    }

    /// Types named `name` in `namespace` with any arity, as code of the library or of the
    /// program sees them (for error messages and generic names used without arguments).
    pub fn any_arity(&self, from_library: bool, namespace: &str, name: &str) -> Vec<(usize, TypeDefId)> {
        let mut v: Vec<(usize, TypeDefId)> =
            self.visible(from_library).iter().filter(|((ns, n, _), _)| ns == namespace && n == name).map(|((_, _, a), d)| (*a, *d)).collect();
        v.sort();
        v
    }
}

#[derive(Clone, Debug)]
pub enum AliasTarget {
    Type(TypeId),
    Namespace(String),
}

/// What names a piece of code can see besides its own type's members: the enclosing
/// namespace(s) and the `using` directives in effect.
#[derive(Clone, Debug)]
pub struct ImportScope {
    pub parent: Option<ScopeId>,
    /// The namespace this scope is inside (`""` for the global namespace).
    pub namespace: String,
    pub file: FileId,
    pub usings: Vec<String>,
    /// `using static T;` (resolved after types are declared).
    pub static_usings: Vec<TypeId>,
    pub aliases: HashMap<String, AliasTarget>,
    /// The directives as written, resolved once all types are declared.
    pub directives: Vec<ast::UsingDirective>,
    /// `using` directives naming a .NET namespace cs-lite does not have (`System.Xml`):
    /// accepted, so a program that does not use them runs; named when a type is missing.
    pub unavailable_usings: Vec<String>,
}

impl ImportScope {
    pub fn new(parent: Option<ScopeId>, namespace: String, file: FileId) -> ImportScope {
        ImportScope {
            parent,
            namespace,
            file,
            usings: Vec::new(),
            static_usings: Vec::new(),
            aliases: HashMap::new(),
            directives: Vec::new(),
            unavailable_usings: Vec::new(),
        }
    }
}
