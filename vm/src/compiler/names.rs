//! Types as C# error messages show them: keywords for special types (`int`, `string`),
//! namespaces spelled out (`System.Collections.Generic.List<int>`), `int?`, `int[]`,
//! `(int, string)`, nested types joined with `.`.

use crate::metadata::{Metadata, TypeDefId, TypeId, TypeKind};

impl Metadata {
    /// The type with namespaces (`System.Collections.Generic.List<int>`), as conversion
    /// errors show it.
    pub fn cs_name(&self, t: TypeId) -> String {
        self.cs_name_qualified(t, true)
    }

    /// The type without namespaces (`List<int>`, `Math`), as member-lookup errors
    /// (CS0117, CS1061) show it.
    pub fn cs_short_name(&self, t: TypeId) -> String {
        self.cs_name_qualified(t, false)
    }

    fn cs_name_qualified(&self, t: TypeId, qualify: bool) -> String {
        if let Some(k) = self.keyword_name(t) {
            return k.to_string();
        }
        match self.types.kind(t) {
            TypeKind::Named { def, args } => {
                let d = self.type_def(*def);
                if *def == self.well_known.nullable {
                    if let Some(&a) = args.first() {
                        return format!("{}?", self.cs_name_qualified(a, qualify));
                    }
                }
                if d.name.starts_with("ValueTuple") && d.namespace == "System" && args.len() >= 2 {
                    let names = self.types.tuple_names(t).unwrap_or(&[]);
                    let parts: Vec<String> = args
                        .iter()
                        .enumerate()
                        .map(|(i, &a)| {
                            let ty = self.cs_name_qualified(a, qualify);
                            match names.get(i).filter(|n| !n.is_empty()) {
                                Some(n) => format!("{ty} {n}"),
                                None => ty,
                            }
                        })
                        .collect();
                    return format!("({})", parts.join(", "));
                }
                if let (Some(names), true) = (self.types.tuple_names(t), d.name == "AnonymousType") {
                    let parts: Vec<String> = args.iter().zip(names).map(|(&a, n)| format!("{} {n}", self.cs_name_qualified(a, qualify))).collect();
                    return format!("<anonymous type: {}>", parts.join(", "));
                }
                let mut s = self.cs_def_path(*def, qualify);
                let own = self.own_type_args(*def, args);
                if !own.is_empty() {
                    let parts: Vec<String> = own.iter().map(|&a| self.cs_name_qualified(a, qualify)).collect();
                    s.push('<');
                    s.push_str(&parts.join(", "));
                    s.push('>');
                }
                s
            }
            TypeKind::Array { elem, rank } => {
                format!("{}[{}]", self.cs_name_qualified(*elem, qualify), ",".repeat(*rank as usize - 1))
            }
            TypeKind::Param { .. } => self.param_def(t).map_or("T".into(), |p| p.name.clone()),
            TypeKind::Null => "<null>".into(),
            TypeKind::Void => "void".into(),
            TypeKind::Error => "?".into(),
            TypeKind::Context { .. } | TypeKind::TupleNames { .. } => "<context>".into(),
        }
    }

    /// The arguments of `def`'s own type parameters (nested types repeat their outer
    /// type's parameters first).
    fn own_type_args<'a>(&self, def: TypeDefId, args: &'a [TypeId]) -> &'a [TypeId] {
        let outer = self.type_def(def).declaring_type.map_or(0, |o| self.type_def(o).type_params.len());
        &args[outer.min(args.len())..]
    }

    fn cs_def_path(&self, def: TypeDefId, qualify: bool) -> String {
        let d = self.type_def(def);
        match d.declaring_type {
            Some(o) => format!("{}.{}", self.cs_def_path(o, qualify), d.name),
            None if d.namespace.is_empty() || !qualify => d.name.clone(),
            None => format!("{}.{}", d.namespace, d.name),
        }
    }

    fn keyword_name(&self, t: TypeId) -> Option<&'static str> {
        let wk = &self.well_known;
        let table = [
            (wk.object, "object"),
            (wk.string, "string"),
            (wk.boolean, "bool"),
            (wk.char, "char"),
            (wk.sbyte, "sbyte"),
            (wk.byte, "byte"),
            (wk.int16, "short"),
            (wk.uint16, "ushort"),
            (wk.int32, "int"),
            (wk.uint32, "uint"),
            (wk.int64, "long"),
            (wk.uint64, "ulong"),
            (wk.single, "float"),
            (wk.double, "double"),
            (wk.decimal, "decimal"),
            (wk.intptr, "nint"),
            (wk.uintptr, "nuint"),
        ];
        table.iter().find(|(id, _)| *id == t && t != TypeId::ERROR).map(|(_, n)| *n)
    }
}
