//! `System.String` on the heap: allocation from Rust text, access to the UTF-16 code
//! units, and interning of literals (so `ReferenceEquals("a", "a")` holds, as in .NET).

use super::heap::GcRef;
use super::native::{ExceptionKind, NativeError};
use super::object::Obj;
use super::value::Value;
use super::Vm;

/// The longest string .NET makes (`string.MaxLength`, internal): 0x3FFFFFDF UTF-16 units.
pub const MAX_STRING_LENGTH: usize = 0x3FFF_FFDF;

impl Vm {
    /// A new string with the given text.
    pub fn alloc_str(&mut self, s: &str) -> Value {
        let units: Vec<u16> = s.encode_utf16().collect();
        self.alloc_utf16(units)
    }

    pub fn alloc_utf16(&mut self, units: Vec<u16>) -> Value {
        Value::Ref(self.heap.alloc(Obj::Str(units.into_boxed_slice())))
    }

    /// A new string with a copy of `units` (one exact-size allocation).
    pub fn alloc_utf16_slice(&mut self, units: &[u16]) -> Value {
        Value::Ref(self.heap.alloc(Obj::Str(units.into())))
    }

    /// `OutOfMemoryException` unless a string of `length` UTF-16 units may be made: within
    /// .NET's maximum string length and under the heap limit.
    pub fn check_string_fits(&self, length: usize) -> Result<(), NativeError> {
        if length <= MAX_STRING_LENGTH && self.heap.has_room_for(length * 2) {
            return Ok(());
        }
        let message = super::exceptions::default_message(ExceptionKind::OutOfMemory);
        Err(NativeError::ThrowNew(ExceptionKind::OutOfMemory, message.to_string()))
    }

    /// The interned string for a literal.
    pub fn literal(&mut self, s: &str) -> Value {
        if let Some(&r) = self.literals.get(s) {
            return Value::Ref(r);
        }
        let Value::Ref(r) = self.alloc_str(s) else { return Value::Null };
        self.literals.insert(s.to_string(), r);
        Value::Ref(r)
    }

    /// The code units of a string value (`None` for `null` or a non-string).
    #[inline]
    pub fn str_units(&self, v: Value) -> Option<&[u16]> {
        match v {
            Value::Ref(r) => self.str_units_of(r),
            _ => None,
        }
    }

    #[inline]
    pub fn str_units_of(&self, r: GcRef) -> Option<&[u16]> {
        match self.heap.get(r) {
            Some(Obj::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// The text of a string value as Rust text (lone surrogates become U+FFFD).
    pub fn string_of(&self, v: Value) -> Option<String> {
        self.str_units(v).map(String::from_utf16_lossy)
    }
}
