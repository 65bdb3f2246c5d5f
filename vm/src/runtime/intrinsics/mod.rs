//! Intrinsics: the Rust side of `extern` methods in the cs-lite standard library. Each
//! area has a module exporting `ENTRIES`; the registry concatenates them and the compiler
//! binds an `extern` method to its entry by name (`[Intrinsic("name")]`, or
//! `Type.Method` by default).

pub mod arrays;
pub mod asyncs;
pub mod bench;
pub mod console;
pub mod enums;
pub mod fast_paths;
pub mod files;
pub mod format;
pub mod frames;
pub mod hashing;
pub mod interactive;
pub mod iterators;
pub mod math;
pub mod numbers;
pub mod objects;
pub mod strings;
pub mod support;
pub mod tasks;
pub mod threading;
pub mod tracing;

use std::sync::LazyLock;

use super::native::{NativeEntry, NativeFn, NativeId};

static REGISTRY: LazyLock<Vec<&'static NativeEntry>> = LazyLock::new(|| {
    // Frame-switching intrinsics first: the interpreter knows them by their fixed ids.
    let areas: &[&[NativeEntry]] = &[
        frames::ENTRIES,
        iterators::ENTRIES,
        asyncs::ENTRIES,
        console::ENTRIES,
        format::ENTRIES,
        objects::ENTRIES,
        enums::ENTRIES,
        strings::ENTRIES,
        numbers::ENTRIES,
        math::ENTRIES,
        arrays::ENTRIES,
        hashing::ENTRIES,
        threading::ENTRIES,
        tasks::ENTRIES,
        interactive::ENTRIES,
        files::ENTRIES,
        bench::ENTRIES,
        tracing::ENTRIES,
    ];
    areas.iter().flat_map(|a| a.iter()).collect()
});

/// The function behind an id handed out by [`lookup`].
#[inline]
pub fn native_fn(id: NativeId) -> NativeFn {
    REGISTRY.get(id.0 as usize).map_or(missing, |e| e.func)
}

fn missing(_: &mut super::Vm, _: &[super::value::Value]) -> super::native::NativeResult {
    Err(super::native::NativeError::Fatal("call to an unregistered intrinsic".into()))
}

/// The id of the intrinsic called `name`.
pub fn lookup(name: &str) -> Option<NativeId> {
    REGISTRY.iter().position(|e| e.name == name).map(|i| NativeId(i as u16))
}

/// The name of an intrinsic (for the disassembler).
pub fn name_of(id: NativeId) -> &'static str {
    REGISTRY.get(id.0 as usize).map_or("?", |e| e.name)
}
