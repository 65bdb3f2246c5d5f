//! Ids of the code a method runs: a compiled [`FunctionId`], an intrinsic's [`NativeId`], a
//! fast path's [`FastPathId`]; and [`IntrinsicNames`], how the compiler turns a name into
//! an id without knowing the runtime that owns the registries.

/// A compiled function: an index into the program's functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FunctionId(pub u32);

/// Index into the intrinsic registry (`runtime/intrinsics/mod.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NativeId(pub u16);

/// Index of a fast path in the fast-path registry (`runtime/intrinsics/fast_paths.rs`):
/// what metadata records for a marked method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastPathId(pub u16);

/// The runtime's registries as the compiler sees them: names to ids, never the functions.
/// The runtime provides the one value (`runtime::intrinsics::NAMES`); the caller of the
/// compiler passes it in.
#[derive(Clone, Copy, Debug)]
pub struct IntrinsicNames {
    /// The id of the intrinsic called `name` (`[Intrinsic("name")]`, or `Type.Method`).
    pub native: fn(&str) -> Option<NativeId>,
    /// The id of the fast path called `name`.
    pub fast_path: fn(&str) -> Option<FastPathId>,
}
