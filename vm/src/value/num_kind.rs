//! [`NumKind`]: the numeric types, as instructions and constant folding name them.

use super::Value;

/// A numeric type, as the target of a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumKind {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    Char,
    F32,
    F64,
}

/// The zero of a numeric kind.
pub fn zero_of(k: NumKind) -> Value {
    match k {
        NumKind::I8 => Value::I8(0),
        NumKind::U8 => Value::U8(0),
        NumKind::I16 => Value::I16(0),
        NumKind::U16 => Value::U16(0),
        NumKind::I32 => Value::I32(0),
        NumKind::U32 => Value::U32(0),
        NumKind::I64 => Value::I64(0),
        NumKind::U64 => Value::U64(0),
        NumKind::Char => Value::Char(0),
        NumKind::F32 => Value::F32(0.0),
        NumKind::F64 => Value::F64(0.0),
    }
}
