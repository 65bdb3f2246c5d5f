//! The type table: every type the compiler or the running program mentions, interned to a
//! [`TypeId`]. `List<int>`, `T`, `int[]` and `Program` each get one id; the compiler uses
//! the same ids for type checking that the runtime stores in object headers, so a type is
//! compared with `==` on a `u32` everywhere.

use hashbrown::HashMap;

use super::{MethodId, TypeDefId};

/// An interned type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct TypeId(pub u32);

/// Who declares a generic type parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamOwner {
    Type(TypeDefId),
    Method(MethodId),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// A type that failed to resolve; errors about it were already reported.
    Error,
    Void,
    /// The type of the `null` literal (converts to any reference or nullable type).
    Null,
    /// A class, struct, interface, enum or delegate; `args` are its generic arguments
    /// (empty for non-generic types, the definition's own parameters for the open type).
    Named {
        def: TypeDefId,
        args: Box<[TypeId]>,
    },
    /// A single- or multi-dimensional array.
    Array {
        elem: TypeId,
        rank: u8,
    },
    /// A generic type parameter (`T`), by owner and position.
    Param {
        owner: ParamOwner,
        index: u16,
    },
    /// A run-time generic context, the hidden argument of generic code: the arguments of
    /// the class's and of the method's type parameters.
    Context {
        type_args: Box<[TypeId]>,
        method_args: Box<[TypeId]>,
    },
    /// A tuple type with element names (`(string Name, int Age)`): a compile-time view of
    /// the `ValueTuple` type `tuple`. [`TypeTable::kind`] sees through it; only member
    /// lookup and error messages read the names, and the emitter erases it, so the running
    /// program never meets it. An empty name is an unnamed element.
    TupleNames {
        tuple: TypeId,
        names: Box<[String]>,
    },
}

#[derive(Default)]
pub struct TypeTable {
    kinds: Vec<TypeKind>,
    ids: HashMap<TypeKind, TypeId>,
}

impl TypeTable {
    pub fn new() -> TypeTable {
        let mut t = TypeTable::default();
        let error = t.intern(TypeKind::Error);
        let void = t.intern(TypeKind::Void);
        let null = t.intern(TypeKind::Null);
        debug_assert_eq!((error, void, null), (TypeId::ERROR, TypeId::VOID, TypeId::NULL));
        t
    }

    pub fn intern(&mut self, kind: TypeKind) -> TypeId {
        if let Some(&id) = self.ids.get(&kind) {
            return id;
        }
        let id = TypeId(self.kinds.len() as u32);
        self.kinds.push(kind.clone());
        self.ids.insert(kind, id);
        id
    }

    /// What `t` is. Tuple element names are looked through: `(string Name, int Age)` is
    /// `ValueTuple<string, int>` here.
    #[inline]
    pub fn kind(&self, t: TypeId) -> &TypeKind {
        match self.kinds.get(t.0 as usize) {
            Some(TypeKind::TupleNames { tuple, .. }) => self.kind(*tuple),
            Some(k) => k,
            None => &TypeKind::Error,
        }
    }

    /// `tuple` with element names (`tuple` itself when no element is named).
    pub fn named_tuple(&mut self, tuple: TypeId, names: &[String]) -> TypeId {
        let tuple = match self.kinds.get(tuple.0 as usize) {
            Some(TypeKind::TupleNames { tuple, .. }) => *tuple,
            _ => tuple,
        };
        if names.iter().all(String::is_empty) {
            return tuple;
        }
        self.intern(TypeKind::TupleNames { tuple, names: names.into() })
    }

    /// The element names of a named tuple type.
    pub fn tuple_names(&self, t: TypeId) -> Option<&[String]> {
        match self.kinds.get(t.0 as usize) {
            Some(TypeKind::TupleNames { names, .. }) => Some(names),
            _ => None,
        }
    }

    /// `t` with every tuple element name removed, at any depth: the type the running
    /// program knows (`List<(string Name, int Age)>` becomes `List<(string, int)>`).
    pub fn erase_names(&mut self, t: TypeId) -> TypeId {
        if let Some(TypeKind::TupleNames { tuple, .. }) = self.kinds.get(t.0 as usize) {
            let tuple = *tuple;
            return self.erase_names(tuple);
        }
        match self.kind(t).clone() {
            TypeKind::Named { def, args } => {
                let new: Vec<TypeId> = args.iter().map(|&a| self.erase_names(a)).collect();
                if *new == *args {
                    t
                } else {
                    self.named(def, &new)
                }
            }
            TypeKind::Array { elem, rank } => {
                let e = self.erase_names(elem);
                if e == elem {
                    t
                } else {
                    self.array(e, rank)
                }
            }
            TypeKind::Context { type_args, method_args } => {
                let ta: Box<[TypeId]> = type_args.iter().map(|&a| self.erase_names(a)).collect();
                let ma: Box<[TypeId]> = method_args.iter().map(|&a| self.erase_names(a)).collect();
                if ta == type_args && ma == method_args {
                    t
                } else {
                    self.intern(TypeKind::Context { type_args: ta, method_args: ma })
                }
            }
            _ => t,
        }
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn named(&mut self, def: TypeDefId, args: &[TypeId]) -> TypeId {
        self.intern(TypeKind::Named { def, args: args.into() })
    }

    pub fn array(&mut self, elem: TypeId, rank: u8) -> TypeId {
        self.intern(TypeKind::Array { elem, rank })
    }

    pub fn param(&mut self, owner: ParamOwner, index: u16) -> TypeId {
        self.intern(TypeKind::Param { owner, index })
    }

    /// The definition of a named type.
    pub fn def_of(&self, t: TypeId) -> Option<TypeDefId> {
        match self.kind(t) {
            TypeKind::Named { def, .. } => Some(*def),
            _ => None,
        }
    }

    /// The generic arguments of a named type (empty for anything else).
    pub fn args_of(&self, t: TypeId) -> &[TypeId] {
        match self.kind(t) {
            TypeKind::Named { args, .. } => args,
            _ => &[],
        }
    }

    pub fn array_elem(&self, t: TypeId) -> Option<(TypeId, u8)> {
        match self.kind(t) {
            TypeKind::Array { elem, rank } => Some((*elem, *rank)),
            _ => None,
        }
    }

    /// Replaces type parameters in `t`: those owned by a type with `type_args`, those owned
    /// by a method with `method_args`. Parameters without a replacement stay as they are.
    pub fn subst(&mut self, t: TypeId, sub: &Substitution) -> TypeId {
        if sub.is_empty() {
            return t;
        }
        if let Some(TypeKind::TupleNames { tuple, names }) = self.kinds.get(t.0 as usize).cloned() {
            let inner = self.subst(tuple, sub);
            return self.named_tuple(inner, &names);
        }
        match self.kind(t).clone() {
            TypeKind::Param { owner, index } => sub.lookup(owner, index).unwrap_or(t),
            TypeKind::Named { def, args } => {
                if args.is_empty() {
                    return t;
                }
                let new: Vec<TypeId> = args.iter().map(|&a| self.subst(a, sub)).collect();
                if *new == *args {
                    t
                } else {
                    self.named(def, &new)
                }
            }
            TypeKind::Array { elem, rank } => {
                let e = self.subst(elem, sub);
                if e == elem {
                    t
                } else {
                    self.array(e, rank)
                }
            }
            TypeKind::Error | TypeKind::Void | TypeKind::Null | TypeKind::Context { .. } | TypeKind::TupleNames { .. } => t,
        }
    }

    /// Replaces type parameters from a run-time generic context `ctx` (a `Context`, or a
    /// constructed class type whose arguments are the class arguments). Within one function
    /// only its own class's and method's parameters can occur, so owners need not match.
    pub fn subst_ctx(&mut self, t: TypeId, ctx: TypeId) -> TypeId {
        if !self.is_open(t) {
            return t;
        }
        let (type_args, method_args): (Vec<TypeId>, Vec<TypeId>) = match self.kind(ctx) {
            TypeKind::Context { type_args, method_args } => (type_args.to_vec(), method_args.to_vec()),
            TypeKind::Named { args, .. } => (args.to_vec(), Vec::new()),
            _ => return t,
        };
        self.subst_positional(t, &type_args, &method_args)
    }

    fn subst_positional(&mut self, t: TypeId, ta: &[TypeId], ma: &[TypeId]) -> TypeId {
        match self.kind(t).clone() {
            TypeKind::Param { owner: ParamOwner::Type(_), index } => ta.get(index as usize).copied().unwrap_or(t),
            TypeKind::Param { owner: ParamOwner::Method(_), index } => ma.get(index as usize).copied().unwrap_or(t),
            TypeKind::Named { def, args } => {
                let new: Vec<TypeId> = args.iter().map(|&a| self.subst_positional(a, ta, ma)).collect();
                self.named(def, &new)
            }
            TypeKind::Array { elem, rank } => {
                let e = self.subst_positional(elem, ta, ma);
                self.array(e, rank)
            }
            _ => t,
        }
    }

    /// The class and method arguments of a run-time generic context.
    pub fn context_args(&self, ctx: TypeId) -> (&[TypeId], &[TypeId]) {
        match self.kind(ctx) {
            TypeKind::Context { type_args, method_args } => (type_args, method_args),
            TypeKind::Named { args, .. } => (args, &[]),
            _ => (&[], &[]),
        }
    }

    /// Whether `t` mentions any type parameter (an "open" type).
    pub fn is_open(&self, t: TypeId) -> bool {
        match self.kind(t) {
            TypeKind::Param { .. } => true,
            TypeKind::Named { args, .. } => args.iter().any(|&a| self.is_open(a)),
            TypeKind::Array { elem, .. } => self.is_open(*elem),
            _ => false,
        }
    }
}

/// A mapping from generic parameters to arguments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Substitution {
    pub type_owner: Option<TypeDefId>,
    pub type_args: Vec<TypeId>,
    pub method_owner: Option<MethodId>,
    pub method_args: Vec<TypeId>,
}

impl Substitution {
    pub fn for_type(def: TypeDefId, args: &[TypeId]) -> Substitution {
        Substitution { type_owner: Some(def), type_args: args.to_vec(), ..Default::default() }
    }

    pub fn for_method(method: MethodId, args: &[TypeId]) -> Substitution {
        Substitution { method_owner: Some(method), method_args: args.to_vec(), ..Default::default() }
    }

    pub fn is_empty(&self) -> bool {
        self.type_args.is_empty() && self.method_args.is_empty()
    }

    fn lookup(&self, owner: ParamOwner, index: u16) -> Option<TypeId> {
        let (args, matches) = match owner {
            ParamOwner::Type(d) => (&self.type_args, self.type_owner == Some(d)),
            ParamOwner::Method(m) => (&self.method_args, self.method_owner == Some(m)),
        };
        if matches {
            args.get(index as usize).copied()
        } else {
            None
        }
    }
}

impl TypeId {
    pub const ERROR: TypeId = TypeId(0);
    pub const VOID: TypeId = TypeId(1);
    pub const NULL: TypeId = TypeId(2);
}
