//! Run-time type names as .NET prints them: `System.Int32`, `Program+Point`,
//! ``System.Collections.Generic.List`1[System.Int32]``, `System.String[]`.

use crate::metadata::{Metadata, TypeDefId, TypeId, TypeKind};

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
            TypeKind::Param { .. } => {
                self.param_def(t).map_or_else(|| "T".to_string(), |p| p.name.clone())
            }
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
