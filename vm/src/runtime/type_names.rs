//! Run-time type names as .NET prints them: `System.Int32`, `Program+Point`,
//! ``System.Collections.Generic.List`1[System.Int32]``, `System.String[]`, and
//! `Type.FullName`'s assembly-qualified generic arguments.

use crate::metadata::{Flags, Metadata, TypeDefId, TypeId, TypeKind};

/// The assembly most library types live in, and its public key token.
const CORELIB: &str = "System.Private.CoreLib";
const CORELIB_TOKEN: &str = "7cec85d7bea7798e";
/// The public key token of the framework assemblies outside CoreLib.
const FRAMEWORK_TOKEN: &str = "b03f5f7f11d50a3a";

/// The standard library's types that .NET 8 keeps outside `System.Private.CoreLib`, by
/// namespace and name with arity (`typeof(T).Assembly` on .NET 8). A namespace with an
/// empty name stands for all of its types.
const OUTSIDE_CORELIB: &[(&str, &str, &str)] = &[
    ("System", "Console", "System.Console"),
    ("System.Collections.Concurrent", "BlockingCollection`1", "System.Collections.Concurrent"),
    ("System.Collections.Concurrent", "ConcurrentBag`1", "System.Collections.Concurrent"),
    ("System.Collections.Concurrent", "ConcurrentDictionary`2", "System.Collections.Concurrent"),
    ("System.Collections.Concurrent", "ConcurrentStack`1", "System.Collections.Concurrent"),
    ("System.Collections.Generic", "Stack`1", "System.Collections"),
    ("System.Linq", "", "System.Linq"),
    ("System.Threading", "Barrier", "System.Threading"),
    ("System.Threading", "BarrierPostPhaseException", "System.Threading"),
    ("System.Threading", "CountdownEvent", "System.Threading"),
];

/// The types a signature names by their element type, without a namespace.
const SIGNATURE_PRIMITIVES: &[&str] =
    &["Boolean", "Char", "SByte", "Byte", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64", "Single", "Double", "IntPtr", "UIntPtr"];

/// Where a type is defined, for assembly-qualified names.
enum Assembly {
    /// The user's program.
    Program,
    /// A framework assembly: its name and public key token.
    Library(&'static str, &'static str),
}

impl Assembly {
    /// The framework assembly of the top-level library type `name` in `namespace`.
    fn library(namespace: &str, name: &str) -> Assembly {
        let outside = OUTSIDE_CORELIB.iter().find(|&&(ns, n, _)| ns == namespace && (n.is_empty() || n == name));
        match outside {
            Some(&(_, _, assembly)) => Assembly::Library(assembly, FRAMEWORK_TOKEN),
            None => Assembly::Library(CORELIB, CORELIB_TOKEN),
        }
    }
}

impl Metadata {
    /// `Type.ToString()` / `FullName`-style name (generic arguments in brackets).
    pub fn clr_full_name(&self, t: TypeId) -> String {
        match self.types.kind(t) {
            TypeKind::Named { def, args } => {
                let mut s = self.def_full_name(*def);
                if !args.is_empty() {
                    let parts: Vec<String> = args.iter().map(|&a| self.clr_full_name(a)).collect();
                    s.push('[');
                    s.push_str(&parts.join(","));
                    s.push(']');
                }
                s
            }
            TypeKind::Array { elem, rank } => {
                format!("{}[{}]", self.clr_full_name(*elem), ",".repeat(*rank as usize - 1))
            }
            TypeKind::Void => "System.Void".to_string(),
            _ => self.clr_name(t),
        }
    }

    /// `Type.FullName`: as [`Metadata::clr_full_name`], but each generic argument is
    /// assembly-qualified and bracketed
    /// (``System.Collections.Generic.List`1[[System.Int32, System.Private.CoreLib, ...]]``).
    /// `program_assembly` is the name of the user's assembly.
    pub fn clr_reflection_full_name(&self, t: TypeId, program_assembly: &str) -> String {
        match self.types.kind(t) {
            TypeKind::Named { def, args } => {
                let mut s = self.def_full_name(*def);
                if !args.is_empty() {
                    let parts: Vec<String> = args.iter().map(|&a| format!("[{}]", self.assembly_qualified_name(a, program_assembly))).collect();
                    s.push('[');
                    s.push_str(&parts.join(","));
                    s.push(']');
                }
                s
            }
            TypeKind::Array { elem, rank } => {
                format!("{}[{}]", self.clr_reflection_full_name(*elem, program_assembly), ",".repeat(*rank as usize - 1))
            }
            _ => self.clr_name(t),
        }
    }

    /// `Type.AssemblyQualifiedName`: the full name, then the assembly's display name.
    fn assembly_qualified_name(&self, t: TypeId, program_assembly: &str) -> String {
        let full = self.clr_reflection_full_name(t, program_assembly);
        match self.assembly_of(t) {
            Assembly::Program => format!("{full}, {program_assembly}, Version=0.0.0.0, Culture=neutral, PublicKeyToken=null"),
            Assembly::Library(name, token) => format!("{full}, {name}, Version=8.0.0.0, Culture=neutral, PublicKeyToken={token}"),
        }
    }

    /// The assembly .NET 8 keeps `t` in: the user's program, or the library assembly of
    /// its outermost declaring type (an array's is its element type's).
    fn assembly_of(&self, t: TypeId) -> Assembly {
        match self.types.kind(t) {
            TypeKind::Array { elem, .. } => self.assembly_of(*elem),
            TypeKind::Named { def, .. } => {
                let mut outer = *def;
                while let Some(o) = self.type_def(outer).declaring_type {
                    outer = o;
                }
                let d = self.type_def(outer);
                if !d.flags.has(Flags::LIBRARY) {
                    return Assembly::Program;
                }
                Assembly::library(&d.namespace, &self.def_name_with_arity(outer))
            }
            _ => Assembly::Library(CORELIB, CORELIB_TOKEN),
        }
    }

    /// A type as the runtime writes it in a method signature (the stack overflow report):
    /// primitive types by their short name (`Int32`, `Boolean`, `IntPtr`), every other type
    /// by its full name, generic arguments in angle brackets
    /// (``System.Collections.Generic.List`1<Int32>``).
    pub fn clr_signature_name(&self, t: TypeId) -> String {
        match self.types.kind(t) {
            TypeKind::Named { def, args } => {
                let d = self.type_def(*def);
                if d.namespace == "System" && args.is_empty() && SIGNATURE_PRIMITIVES.contains(&d.name.as_str()) {
                    return d.name.clone();
                }
                let mut s = self.def_full_name(*def);
                if !args.is_empty() {
                    let parts: Vec<String> = args.iter().map(|&a| self.clr_signature_name(a)).collect();
                    s.push_str(&format!("<{}>", parts.join(",")));
                }
                s
            }
            TypeKind::Array { elem, rank } => {
                format!("{}[{}]", self.clr_signature_name(*elem), ",".repeat(*rank as usize - 1))
            }
            _ => self.clr_name(t),
        }
    }

    /// `Type.Name`: the simple name with arity (`List`1`, `Int32[]`, `T`).
    pub fn clr_name(&self, t: TypeId) -> String {
        match self.types.kind(t) {
            TypeKind::Named { def, .. } => self.def_name_with_arity(*def),
            TypeKind::Array { elem, rank } => {
                format!("{}[{}]", self.clr_name(*elem), ",".repeat(*rank as usize - 1))
            }
            TypeKind::Param { .. } => self.param_def(t).map_or_else(|| "T".to_string(), |p| p.name.clone()),
            TypeKind::Null => "<null>".to_string(),
            TypeKind::Void => "Void".to_string(),
            TypeKind::Error | TypeKind::Context { .. } | TypeKind::TupleNames { .. } => "?".to_string(),
        }
    }

    /// Namespace, declaring types joined with `+`, and the name with its arity.
    pub fn def_full_name(&self, def: TypeDefId) -> String {
        let d = self.type_def(def);
        let mut s = match d.declaring_type {
            Some(outer) => format!("{}+", self.def_full_name(outer)),
            None if d.namespace.is_empty() => String::new(),
            None => format!("{}.", d.namespace),
        };
        s.push_str(&self.def_name_with_arity(def));
        s
    }

    fn def_name_with_arity(&self, def: TypeDefId) -> String {
        let d = self.type_def(def);
        let own = d.type_params.len() - d.declaring_type.map_or(0, |o| self.type_def(o).type_params.len().min(d.type_params.len()));
        if own == 0 {
            d.name.clone()
        } else {
            format!("{}`{}", d.name, own)
        }
    }
}
