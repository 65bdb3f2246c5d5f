//! Formatting values as `ToString(format)` does, with the current culture: numbers
//! through the .NET-exact `numerics` module, enums by member name, bools and chars.

use crate::runtime::native::{ExceptionKind, NativeEntry, NativeError};
use crate::runtime::numerics::{self, Num, NumberFormat};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[];

/// The C# number behind a value, if it is one.
pub fn num_of(vm: &Vm, v: Value) -> Option<Num> {
    Some(match v {
        Value::I8(x) => Num::I8(x),
        Value::U8(x) => Num::U8(x),
        Value::I16(x) => Num::I16(x),
        Value::U16(x) => Num::U16(x),
        Value::I32(x) => Num::I32(x),
        Value::U32(x) => Num::U32(x),
        Value::I64(x) => Num::I64(x),
        Value::U64(x) => Num::U64(x),
        Value::F32(x) => Num::F32(x),
        Value::F64(x) => Num::F64(x),
        Value::Ref(_) => Num::Decimal(vm.decimal_of(v)?),
        _ => return None,
    })
}

/// `number.ToString(format, culture)` with .NET's FormatException for bad specifiers.
pub fn format_number(n: Num, format: &str, nf: &NumberFormat) -> Result<String, NativeError> {
    numerics::format(n, format, nf).map_err(|e| NativeError::ThrowNew(ExceptionKind::Format, e.message().to_string()))
}

/// The text of `v.ToString(format)` for a primitive, enum or string value.
pub fn format_value(vm: &mut Vm, v: Value, format: Option<&str>) -> Result<String, NativeError> {
    let fmt = format.unwrap_or("");
    let v = vm.unboxed_view(v);
    if let Some(n) = num_of(vm, v) {
        let nf = vm.current_number_format();
        return format_number(n, fmt, nf);
    }
    Ok(match v {
        Value::Null => String::new(),
        Value::Bool(b) => if b { "True" } else { "False" }.to_string(),
        Value::Char(c) => String::from_utf16_lossy(&[c]),
        Value::Enum(t, x) => match fmt {
            "D" | "d" => x.to_string(),
            "X" | "x" => format!("{:08X}", x as u32),
            _ => vm.enum_name(t, x),
        },
        Value::Ref(_) => vm.string_of(v).unwrap_or_default(),
        Value::Struct(_) | Value::Type(_) => String::new(),
        _ => String::new(),
    })
}
