//! Intrinsics: the Rust side of `extern` methods in the cs-lite standard library. Each
//! area has a module exporting `ENTRIES`; the registry concatenates them and the compiler
//! binds an `extern` method to its entry by name (`[Intrinsic("name")]`, or
//! `Type.Method` by default).

pub mod arrays;
pub mod asyncs;
pub mod bench;
pub mod bigint;
pub mod console;
pub mod enums;
pub mod fast_paths;
pub mod files;
pub mod format;
pub mod frames;
pub mod gc;
pub mod hashing;
pub mod host;
pub mod interactive;
pub mod iterators;
pub mod math;
pub mod numbers;
pub mod objects;
pub mod reflection;
pub mod regex;
pub mod strings;
pub mod support;
pub mod tasks;
pub mod threading;
pub mod tracing;

use std::sync::LazyLock;

use super::native::{NativeEntry, NativeFn, NativeId};
use crate::metadata::IntrinsicNames;

/// The registries' names, as the compiler is given them.
pub const NAMES: IntrinsicNames = IntrinsicNames { native: lookup, fast_path: fast_paths::lookup };

static REGISTRY: LazyLock<Vec<&'static NativeEntry>> = LazyLock::new(|| AREAS.iter().flat_map(|a| a.iter()).collect());

/// The areas whose intrinsics get boxes as they are (they store objects or hand them
/// back: hash tables, threads, tasks, frames); every other intrinsic reads the values it
/// is passed, and gets a box's contents.
const AREAS_KEEPING_BOXES: &[&[NativeEntry]] = &[
    frames::ENTRIES,
    iterators::ENTRIES,
    asyncs::ENTRIES,
    hashing::ENTRIES,
    threading::ENTRIES,
    tasks::ENTRIES,
    reflection::BOX_KEEPING_ENTRIES,
    gc::WEAK_ENTRIES,
];

/// The intrinsics of other areas that look at an object's identity.
const IDENTITY_INTRINSICS: &[&str] = &["Object.ReferenceEquals"];

/// For each intrinsic id: whether its arguments are passed with boxes opened.
static OPENS_BOXES: LazyLock<Vec<bool>> = LazyLock::new(|| {
    AREAS
        .iter()
        .flat_map(|area| {
            let keeps = AREAS_KEEPING_BOXES.iter().any(|k| same_area(k, area));
            area.iter().map(move |e| !keeps && !IDENTITY_INTRINSICS.contains(&e.name))
        })
        .collect()
});

/// Whether two entry lists are the same area (constants are not one object, so by name).
fn same_area(a: &[NativeEntry], b: &[NativeEntry]) -> bool {
    a.first().map(|e| e.name) == b.first().map(|e| e.name)
}

/// Whether intrinsic `id` is passed the contents of the boxes among its arguments.
#[inline]
pub fn opens_boxes(id: NativeId) -> bool {
    OPENS_BOXES.get(id.0 as usize).copied().unwrap_or(false)
}

// Frame-switching intrinsics first: the interpreter knows them by their fixed ids.
const AREAS: &[&[NativeEntry]] = &[
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
    gc::ENTRIES,
    gc::WEAK_ENTRIES,
    bigint::ENTRIES,
    regex::ENTRIES,
    host::ENTRIES,
    reflection::ENTRIES,
    reflection::BOX_KEEPING_ENTRIES,
];

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
