//! Custom attributes written on a program's own types and methods, kept for the run time:
//! `vm bench` finds benchmarks, baselines, categories and setup methods by them. Only each
//! attribute's name and its constant arguments are kept.

use hashbrown::HashMap;

use super::{MethodId, TypeDefId};

/// One attribute as written: `[Name(args..., Named = value)]`, `Attribute` suffix dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomAttribute {
    pub name: String,
    pub args: Vec<AttributeValue>,
    pub named: Vec<(String, AttributeValue)>,
}

/// A constant argument of an attribute.
#[derive(Clone, Debug, PartialEq)]
pub enum AttributeValue {
    Bool(bool),
    Int(i64),
    String(String),
    /// An argument that is not a literal (an enum member, `typeof`...), as written.
    Other(String),
}

impl CustomAttribute {
    /// The value of the named argument `name` if it is a `bool` literal.
    pub fn named_bool(&self, name: &str) -> Option<bool> {
        self.named.iter().find(|(n, _)| n == name).and_then(|(_, v)| match v {
            AttributeValue::Bool(b) => Some(*b),
            _ => None,
        })
    }

    /// The value of the named argument `name` if it is an integer literal.
    pub fn named_int(&self, name: &str) -> Option<i64> {
        self.named.iter().find(|(n, _)| n == name).and_then(|(_, v)| match v {
            AttributeValue::Int(i) => Some(*i),
            _ => None,
        })
    }

    /// The string literals among the positional arguments (`params string[]`).
    pub fn string_args(&self) -> impl Iterator<Item = &str> {
        self.args.iter().filter_map(|a| match a {
            AttributeValue::String(s) => Some(s.as_str()),
            _ => None,
        })
    }
}

/// The attributes of the program's types and methods (the library's are not kept).
#[derive(Default)]
pub struct Attributes {
    pub methods: HashMap<MethodId, Vec<CustomAttribute>>,
    pub types: HashMap<TypeDefId, Vec<CustomAttribute>>,
}

impl Attributes {
    pub fn of_method(&self, m: MethodId) -> &[CustomAttribute] {
        self.methods.get(&m).map(Vec::as_slice).unwrap_or_default()
    }

    pub fn of_type(&self, t: TypeDefId) -> &[CustomAttribute] {
        self.types.get(&t).map(Vec::as_slice).unwrap_or_default()
    }
}

/// The attribute called `name` in `attrs`.
pub fn find<'a>(attrs: &'a [CustomAttribute], name: &str) -> Option<&'a CustomAttribute> {
    attrs.iter().find(|a| a.name == name)
}
