//! The intrinsics the emitter calls by name (not through an `extern` method), and how it
//! finds their ids: a name the runtime's registry lacks is a compile error, never another
//! intrinsic's id. `vm/tests/contracts.rs` checks every name here against the registry.

use super::FnBuilder;
use crate::metadata::NativeId;

/// `{value,alignment}` in an interpolated string.
pub const FORMAT_ALIGN: &str = "Format.Align";
/// `typeof(T)` of a type known only at run time.
pub const TYPE_FROM_HANDLE: &str = "Type.FromHandle";

/// Every intrinsic the emitter calls by name.
pub const EMITTED_INTRINSICS: &[&str] = &[FORMAT_ALIGN, TYPE_FROM_HANDLE];

/// The id of a missing intrinsic: never run, as the program does not compile.
const MISSING: NativeId = NativeId(u16::MAX);

impl FnBuilder<'_> {
    /// The id of intrinsic `name`, one of [`EMITTED_INTRINSICS`]; CSL9001 if the registry lacks it.
    pub fn emitted_intrinsic(&mut self, name: &str) -> NativeId {
        if let Some(id) = (self.c.intrinsics.native)(name) {
            return id;
        }
        let method = self.c.meta.method(self.method);
        let (file, span) = (method.file, method.span);
        self.c.error(file, span, "CSL9001", format!("no intrinsic named '{name}' exists (the compiler calls it)"));
        MISSING
    }
}
