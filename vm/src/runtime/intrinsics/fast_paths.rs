//! Fast paths: intrinsics that may answer a call of a library method that has a cs-lite
//! body, as the JIT replaces the body of a CoreLib method marked `[Intrinsic]`. The method
//! is marked `[Intrinsic("name")]` and keeps its body; the interpreter calls the fast path
//! instead of entering the body, and the body runs whenever the fast path declines (returns
//! `None`): for arguments it does not handle, and for every failure, so exceptions and
//! their stack traces come from the body.

use crate::runtime::value::Value;
use crate::runtime::Vm;

/// A fast path: the call's result, or `None` to leave the call to the method's body.
pub type FastPathFn = fn(&mut Vm, &[Value]) -> Option<Value>;

pub struct FastPathEntry {
    pub name: &'static str,
    pub func: FastPathFn,
}

pub use crate::metadata::FastPathId;

pub const ENTRIES: &[FastPathEntry] = &[
    FastPathEntry { name: "Dictionary.GetItem", func: super::hashing::dictionary_get_item },
    FastPathEntry { name: "Dictionary.SetItem", func: super::hashing::dictionary_set_item },
];

/// The fast path called `name`.
pub fn lookup(name: &str) -> Option<FastPathId> {
    ENTRIES.iter().position(|e| e.name == name).map(|i| FastPathId(i as u16))
}

/// The function behind an id [`lookup`] handed out.
pub fn fast_path_fn(id: FastPathId) -> Option<FastPathFn> {
    ENTRIES.get(usize::from(id.0)).map(|e| e.func)
}
