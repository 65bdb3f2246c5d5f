//! Metadata: the type, method, field and property definitions of a loaded program — what the
//! compiler declares and the runtime reads (names for stack traces, layouts, vtables,
//! signatures). Ids are indexes into the vectors of [`Metadata`].

pub mod attributes;
pub mod code_ids;
pub mod hierarchy;
pub mod types;
pub mod well_known;

use hashbrown::HashMap;

pub use types::{ParamOwner, Substitution, TypeId, TypeKind, TypeTable};
pub use well_known::WellKnown;

pub use code_ids::{FastPathId, FunctionId, IntrinsicNames, NativeId};
use grammar::span::Span;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub u32);

        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A class, struct, interface, enum or delegate definition.
    TypeDefId
);
id_type!(
    /// A method, constructor, accessor, operator, lambda or local function.
    MethodId
);
id_type!(
    /// A field (instance or static).
    FieldId
);
id_type!(
    /// A property or indexer.
    PropertyId
);
id_type!(
    /// A source file (index into [`Metadata::files`]).
    FileId
);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeDefKind {
    Class,
    Struct,
    Interface,
    Enum,
    Delegate,
}

/// Flags shared by types and members.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(pub u32);

impl Flags {
    pub const STATIC: u32 = 1 << 0;
    pub const ABSTRACT: u32 = 1 << 1;
    pub const SEALED: u32 = 1 << 2;
    pub const VIRTUAL: u32 = 1 << 3;
    pub const OVERRIDE: u32 = 1 << 4;
    pub const READONLY: u32 = 1 << 5;
    pub const CONST: u32 = 1 << 6;
    pub const ASYNC: u32 = 1 << 7;
    pub const EXTENSION: u32 = 1 << 8;
    pub const RECORD: u32 = 1 << 9;
    pub const PUBLIC: u32 = 1 << 10;
    pub const PRIVATE: u32 = 1 << 11;
    pub const PROTECTED: u32 = 1 << 12;
    pub const INTERNAL: u32 = 1 << 13;
    /// Declared in the standard library rather than the user's program.
    pub const LIBRARY: u32 = 1 << 14;
    /// Compiler-generated (lambdas, display classes, state machines, accessors of
    /// auto-properties...).
    pub const SYNTHESIZED: u32 = 1 << 15;
    /// A type with an explicit static constructor (not `beforefieldinit`).
    pub const EXPLICIT_CCTOR: u32 = 1 << 16;
    /// A `[Flags]` enum.
    pub const FLAGS_ENUM: u32 = 1 << 17;
    pub const NEW_SLOT: u32 = 1 << 18;
    /// `[StackTraceHidden]`: left out of exception stack traces.
    pub const STACK_TRACE_HIDDEN: u32 = 1 << 19;
    /// A classic-lowering async state machine (`<M>d__N`, `<<M>g__Local|0_0>d`): a struct
    /// in .NET (modeled so by `--stats`), an object in the VM.
    pub const STATE_MACHINE: u32 = 1 << 20;
    /// A library method with a cs-lite body and a fast path (`[Intrinsic("name")]` on a
    /// method that is not `extern`): see `Metadata::fast_paths`.
    pub const FAST_PATH: u32 = 1 << 21;
    /// A method that returns a reference (`ref int First(int[] a) => ref a[0];`): a call
    /// yields a managed reference, read or written through where the call is used.
    pub const RETURNS_REF: u32 = 1 << 22;

    pub fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }

    pub fn set(&mut self, bit: u32) {
        self.0 |= bit;
    }
}

#[derive(Clone, Debug)]
pub struct TypeParamDef {
    pub name: String,
    /// 0 invariant, 1 `out` (covariant), -1 `in` (contravariant).
    pub variance: i8,
    /// Base type / interface constraints.
    pub constraints: Vec<TypeId>,
    pub is_class: bool,
    pub is_struct: bool,
    pub has_new: bool,
}

#[derive(Clone, Debug)]
pub struct TypeDef {
    pub name: String,
    pub namespace: String,
    pub declaring_type: Option<TypeDefId>,
    pub kind: TypeDefKind,
    pub flags: Flags,
    pub type_params: Vec<TypeParamDef>,
    /// The open type `C<T1..Tn>` (or just `C`).
    pub self_type: TypeId,
    pub base: Option<TypeId>,
    /// Directly declared interfaces.
    pub interfaces: Vec<TypeId>,
    pub fields: Vec<FieldId>,
    pub methods: Vec<MethodId>,
    pub properties: Vec<PropertyId>,
    pub nested: Vec<TypeDefId>,
    /// For enums: the underlying integral type.
    pub enum_underlying: Option<TypeId>,
    /// Number of instance field slots including inherited ones.
    pub instance_slots: u32,
    /// Number of static field slots.
    pub static_slots: u32,
    /// Virtual methods by slot (inherited slots first).
    pub vtable: Vec<MethodId>,
    /// Interface method → implementing method, for every interface the type implements.
    pub interface_map: HashMap<MethodId, MethodId>,
    /// For a generic interface the type implements with several type arguments
    /// (`IOp<ushort>`, `IOp<uint>`): (interface method, interface type) → implementing
    /// method, which `interface_map` alone cannot tell apart.
    pub interface_map_by_type: HashMap<(MethodId, TypeId), MethodId>,
    pub static_ctor: Option<MethodId>,
    /// `[ModeledSize(n)]` on a library class: .NET's size of its instances, for `--stats`.
    pub modeled_size: Option<u32>,
    pub file: FileId,
    pub span: Span,
}

impl TypeDef {
    pub fn is_value_type(&self) -> bool {
        matches!(self.kind, TypeDefKind::Struct | TypeDefKind::Enum)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodKind {
    Ordinary,
    Constructor,
    StaticConstructor,
    Getter,
    Setter,
    Operator,
    Conversion,
    Lambda,
    LocalFunction,
    EventAdd,
    EventRemove,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Value,
    Ref,
    Out,
    In,
    Params,
}

#[derive(Clone, Debug)]
pub struct ParamDef {
    pub name: String,
    pub ty: TypeId,
    pub kind: ParamKind,
    pub default: Option<Constant>,
}

/// What runs when a method is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodBody {
    /// Abstract or interface method, or a method not compiled (yet).
    None,
    /// Implemented in Rust.
    Native(NativeId),
    Bytecode(FunctionId),
}

#[derive(Clone, Debug)]
pub struct MethodDef {
    pub name: String,
    pub owner: TypeDefId,
    pub kind: MethodKind,
    pub flags: Flags,
    pub type_params: Vec<TypeParamDef>,
    pub params: Vec<ParamDef>,
    pub ret: TypeId,
    pub vtable_slot: Option<u32>,
    pub body: MethodBody,
    pub file: FileId,
    pub span: Span,
}

impl MethodDef {
    pub fn is_static(&self) -> bool {
        self.flags.has(Flags::STATIC)
    }

    /// A `static abstract` or `static virtual` interface member (C# 11).
    pub fn is_static_virtual(&self) -> bool {
        self.is_static() && (self.flags.has(Flags::ABSTRACT) || self.flags.has(Flags::VIRTUAL))
    }
}

#[derive(Clone, Debug)]
pub struct FieldDef {
    pub name: String,
    pub owner: TypeDefId,
    pub ty: TypeId,
    pub flags: Flags,
    /// Instance slot (counting inherited fields) or static slot.
    pub slot: u32,
    /// The value of a `const` field (or enum member).
    pub constant: Option<Constant>,
    pub span: Span,
}

impl FieldDef {
    pub fn is_static(&self) -> bool {
        self.flags.has(Flags::STATIC) || self.flags.has(Flags::CONST)
    }
}

#[derive(Clone, Debug)]
pub struct PropertyDef {
    pub name: String,
    pub owner: TypeDefId,
    pub ty: TypeId,
    pub flags: Flags,
    pub getter: Option<MethodId>,
    pub setter: Option<MethodId>,
    /// Indexer parameters (empty for ordinary properties).
    pub params: Vec<ParamDef>,
    /// The backing field of an auto-property.
    pub backing_field: Option<FieldId>,
    pub span: Span,
}

/// A compile-time constant (`const` fields, default parameter values, enum members).
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    Null,
    Bool(bool),
    Char(u16),
    Int(i64),
    UInt(u64),
    Float(f64),
    String(String),
    /// A decimal constant, kept as its literal text.
    Decimal(String),
}

/// A source file's name and text, for rendering diagnostics and stack-trace lines.
pub use grammar::span::SourceFile;

/// Everything declared in a program (user code and the standard library).
pub struct Metadata {
    pub types: TypeTable,
    pub type_defs: Vec<TypeDef>,
    pub methods: Vec<MethodDef>,
    pub fields: Vec<FieldDef>,
    pub properties: Vec<PropertyDef>,
    pub files: Vec<SourceFile>,
    pub well_known: WellKnown,
    /// A classic state machine's `MoveNext` → the async method it runs (stack traces
    /// show the method, as .NET's do).
    pub kickoff_of: hashbrown::HashMap<MethodId, MethodId>,
    /// Attributes on the program's own types and methods.
    pub attributes: attributes::Attributes,
    /// The fast path of each method flagged [`Flags::FAST_PATH`].
    pub fast_paths: hashbrown::HashMap<MethodId, FastPathId>,
}

impl Metadata {
    /// Metadata with no definitions yet (the compiler fills it in).
    pub fn empty() -> Metadata {
        Metadata {
            types: TypeTable::new(),
            type_defs: Vec::new(),
            methods: Vec::new(),
            fields: Vec::new(),
            properties: Vec::new(),
            files: Vec::new(),
            well_known: WellKnown::default(),
            kickoff_of: hashbrown::HashMap::new(),
            attributes: attributes::Attributes::default(),
            fast_paths: hashbrown::HashMap::new(),
        }
    }

    /// How many registers a call to `m` passes: the receiver, the parameters, and the
    /// hidden generic context (generic methods, static members of generic types, members
    /// of `Nullable<T>`).
    pub fn arg_count(&self, m: MethodId) -> usize {
        let md = self.method(m);
        let owner_generic = !self.type_def(md.owner).type_params.is_empty();
        let class_context = owner_generic && (md.is_static() || md.owner == self.well_known.nullable);
        let context = !md.type_params.is_empty() || class_context;
        md.params.len() + usize::from(!md.is_static()) + usize::from(context)
    }

    pub fn type_def(&self, id: TypeDefId) -> &TypeDef {
        &self.type_defs[id.index()]
    }

    pub fn method(&self, id: MethodId) -> &MethodDef {
        &self.methods[id.index()]
    }

    pub fn field(&self, id: FieldId) -> &FieldDef {
        &self.fields[id.index()]
    }

    pub fn property(&self, id: PropertyId) -> &PropertyDef {
        &self.properties[id.index()]
    }

    /// A top-level type by namespace and name (the runtime's way to find library types).
    pub fn find_type_def(&self, namespace: &str, name: &str) -> Option<TypeDefId> {
        self.type_defs.iter().position(|d| d.namespace == namespace && d.name == name && d.declaring_type.is_none()).map(|i| TypeDefId(i as u32))
    }

    /// The slot of an instance field declared by `def`.
    pub fn instance_field_slot(&self, def: TypeDefId, name: &str) -> Option<u32> {
        self.type_def(def).fields.iter().map(|&f| self.field(f)).find(|f| f.name == name && !f.is_static()).map(|f| f.slot)
    }
}
