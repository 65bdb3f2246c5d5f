//! Arithmetic, comparison and conversion on [`Value`]s with C#'s rules: integers wrap
//! (or throw `OverflowException` when checked), integer division by zero throws,
//! floating point follows IEEE 754, and float → integer conversions saturate (.NET 9+).

use super::{ExceptionKind, NumKind, Value};

/// Why an arithmetic instruction failed: a C# exception to throw, or a VM bug (operands of
/// types the compiler never pairs).
#[derive(Debug)]
pub enum ArithError {
    Throw(ExceptionKind),
    BadOperands(&'static str),
}

type R = Result<Value, ArithError>;

fn overflow() -> ArithError {
    ArithError::Throw(ExceptionKind::Overflow)
}

fn div_zero() -> ArithError {
    ArithError::Throw(ExceptionKind::DivideByZero)
}

/// The dispatch loop's fast paths for the common operand pairs (`int`, `long`, `double`):
/// `None` sends the pair to the general routine, which also reports errors.
macro_rules! fast_op {
    ($name:ident, $wrap:ident, $fop:tt) => {
        #[inline(always)]
        pub fn $name(a: &Value, b: &Value) -> Option<Value> {
            match (a, b) {
                (&Value::I32(x), &Value::I32(y)) => Some(Value::I32(x.$wrap(y))),
                (&Value::I64(x), &Value::I64(y)) => Some(Value::I64(x.$wrap(y))),
                (&Value::F64(x), &Value::F64(y)) => Some(Value::F64(x $fop y)),
                _ => None,
            }
        }
    };
}

fast_op!(add_fast, wrapping_add, +);
fast_op!(sub_fast, wrapping_sub, -);
fast_op!(mul_fast, wrapping_mul, *);

/// `regs[dst] <- (to)regs[src]` for the common widenings and narrowings between `int`,
/// `long` and `double`; `false` leaves the conversion to [`convert`].
#[inline(always)]
pub fn convert_fast(regs: &mut [Value], dst: usize, src: usize, to: NumKind) -> bool {
    let v = match (&regs[src], to) {
        (&Value::I32(x), NumKind::I64) => Value::I64(x as i64),
        (&Value::I32(x), NumKind::F64) => Value::F64(x as f64),
        (&Value::I64(x), NumKind::I32) => Value::I32(x as i32),
        (&Value::I64(x), NumKind::F64) => Value::F64(x as f64),
        _ => return false,
    };
    regs[dst] = v;
    true
}

/// `a % b` for non-zero `int`/`long` divisors other than -1 (which can overflow).
#[inline(always)]
pub fn rem_fast(a: &Value, b: &Value) -> Option<Value> {
    match (a, b) {
        (&Value::I32(x), &Value::I32(y)) if y != 0 && y != -1 => Some(Value::I32(x % y)),
        (&Value::I64(x), &Value::I64(y)) if y != 0 && y != -1 => Some(Value::I64(x % y)),
        _ => None,
    }
}

/// The ordering of two `int`s, `long`s or `double`s (`None` for other pairs; for `double`s
/// `Some(None)` when unordered).
#[inline(always)]
pub fn compare_fast(a: &Value, b: &Value) -> Option<Option<std::cmp::Ordering>> {
    match (a, b) {
        (&Value::I32(x), &Value::I32(y)) => Some(Some(x.cmp(&y))),
        (&Value::I64(x), &Value::I64(y)) => Some(Some(x.cmp(&y))),
        (&Value::F64(x), &Value::F64(y)) => Some(x.partial_cmp(&y)),
        _ => None,
    }
}

/// `a == b` for two `int`s or `long`s (`None` for other pairs).
#[inline(always)]
pub fn equal_fast(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (&Value::I32(x), &Value::I32(y)) => Some(x == y),
        (&Value::I64(x), &Value::I64(y)) => Some(x == y),
        (&Value::Null, &Value::Null) => Some(true),
        (&Value::Ref(x), &Value::Ref(y)) => Some(x == y),
        _ => None,
    }
}

macro_rules! int_float_op {
    ($name:ident, $wrap:ident, $fop:tt) => {
        pub fn $name(a: Value, b: Value) -> R {
            Ok(match (a, b) {
                (Value::I32(x), Value::I32(y)) => Value::I32(x.$wrap(y)),
                (Value::I64(x), Value::I64(y)) => Value::I64(x.$wrap(y)),
                (Value::F64(x), Value::F64(y)) => Value::F64(x $fop y),
                (Value::U32(x), Value::U32(y)) => Value::U32(x.$wrap(y)),
                (Value::U64(x), Value::U64(y)) => Value::U64(x.$wrap(y)),
                (Value::F32(x), Value::F32(y)) => Value::F32(x $fop y),
                _ => return Err(ArithError::BadOperands(stringify!($name))),
            })
        }
    };
}

int_float_op!(add, wrapping_add, +);
int_float_op!(sub, wrapping_sub, -);
int_float_op!(mul, wrapping_mul, *);

macro_rules! checked_op {
    ($name:ident, $checked:ident, $fop:tt) => {
        pub fn $name(a: Value, b: Value) -> R {
            Ok(match (a, b) {
                (Value::I32(x), Value::I32(y)) => Value::I32(x.$checked(y).ok_or_else(overflow)?),
                (Value::I64(x), Value::I64(y)) => Value::I64(x.$checked(y).ok_or_else(overflow)?),
                (Value::U32(x), Value::U32(y)) => Value::U32(x.$checked(y).ok_or_else(overflow)?),
                (Value::U64(x), Value::U64(y)) => Value::U64(x.$checked(y).ok_or_else(overflow)?),
                (Value::F64(x), Value::F64(y)) => Value::F64(x $fop y),
                (Value::F32(x), Value::F32(y)) => Value::F32(x $fop y),
                _ => return Err(ArithError::BadOperands(stringify!($name))),
            })
        }
    };
}

checked_op!(add_checked, checked_add, +);
checked_op!(sub_checked, checked_sub, -);
checked_op!(mul_checked, checked_mul, *);

pub fn div(a: Value, b: Value) -> R {
    Ok(match (a, b) {
        (Value::I32(_), Value::I32(0)) | (Value::I64(_), Value::I64(0)) => return Err(div_zero()),
        (Value::U32(_), Value::U32(0)) | (Value::U64(_), Value::U64(0)) => return Err(div_zero()),
        (Value::I32(x), Value::I32(y)) => Value::I32(x.checked_div(y).ok_or_else(overflow)?),
        (Value::I64(x), Value::I64(y)) => Value::I64(x.checked_div(y).ok_or_else(overflow)?),
        (Value::U32(x), Value::U32(y)) => Value::U32(x / y),
        (Value::U64(x), Value::U64(y)) => Value::U64(x / y),
        (Value::F64(x), Value::F64(y)) => Value::F64(x / y),
        (Value::F32(x), Value::F32(y)) => Value::F32(x / y),
        _ => return Err(ArithError::BadOperands("div")),
    })
}

pub fn rem(a: Value, b: Value) -> R {
    Ok(match (a, b) {
        (Value::I32(_), Value::I32(0)) | (Value::I64(_), Value::I64(0)) => return Err(div_zero()),
        (Value::U32(_), Value::U32(0)) | (Value::U64(_), Value::U64(0)) => return Err(div_zero()),
        (Value::I32(x), Value::I32(y)) => Value::I32(x.checked_rem(y).ok_or_else(overflow)?),
        (Value::I64(x), Value::I64(y)) => Value::I64(x.checked_rem(y).ok_or_else(overflow)?),
        (Value::U32(x), Value::U32(y)) => Value::U32(x % y),
        (Value::U64(x), Value::U64(y)) => Value::U64(x % y),
        (Value::F64(x), Value::F64(y)) => Value::F64(x % y),
        (Value::F32(x), Value::F32(y)) => Value::F32(x % y),
        _ => return Err(ArithError::BadOperands("rem")),
    })
}

pub fn neg(a: Value, checked: bool) -> R {
    Ok(match a {
        Value::I32(x) if checked => Value::I32(x.checked_neg().ok_or_else(overflow)?),
        Value::I64(x) if checked => Value::I64(x.checked_neg().ok_or_else(overflow)?),
        Value::I32(x) => Value::I32(x.wrapping_neg()),
        Value::I64(x) => Value::I64(x.wrapping_neg()),
        Value::F64(x) => Value::F64(-x),
        Value::F32(x) => Value::F32(-x),
        _ => return Err(ArithError::BadOperands("neg")),
    })
}

macro_rules! bit_op {
    ($name:ident, $op:tt) => {
        pub fn $name(a: Value, b: Value) -> R {
            Ok(match (a, b) {
                (Value::I32(x), Value::I32(y)) => Value::I32(x $op y),
                (Value::I64(x), Value::I64(y)) => Value::I64(x $op y),
                (Value::U32(x), Value::U32(y)) => Value::U32(x $op y),
                (Value::U64(x), Value::U64(y)) => Value::U64(x $op y),
                (Value::Bool(x), Value::Bool(y)) => Value::Bool(x $op y),
                _ => return Err(ArithError::BadOperands(stringify!($name))),
            })
        }
    };
}

bit_op!(bit_and, &);
bit_op!(bit_or, |);
bit_op!(bit_xor, ^);

pub fn bit_not(a: Value) -> R {
    Ok(match a {
        Value::I32(x) => Value::I32(!x),
        Value::I64(x) => Value::I64(!x),
        Value::U32(x) => Value::U32(!x),
        Value::U64(x) => Value::U64(!x),
        _ => return Err(ArithError::BadOperands("bit_not")),
    })
}

/// `<<`, `>>` (`logical` for `>>>`): the count is an `int`, masked to the operand width.
pub fn shift(a: Value, count: Value, left: bool, logical: bool) -> R {
    let Value::I32(n) = count else { return Err(ArithError::BadOperands("shift")) };
    let n = n as u32;
    Ok(match a {
        Value::I32(x) if left => Value::I32(x.wrapping_shl(n & 31)),
        Value::I32(x) if logical => Value::I32(((x as u32) >> (n & 31)) as i32),
        Value::I32(x) => Value::I32(x >> (n & 31)),
        Value::U32(x) if left => Value::U32(x.wrapping_shl(n & 31)),
        Value::U32(x) => Value::U32(x >> (n & 31)),
        Value::I64(x) if left => Value::I64(x.wrapping_shl(n & 63)),
        Value::I64(x) if logical => Value::I64(((x as u64) >> (n & 63)) as i64),
        Value::I64(x) => Value::I64(x >> (n & 63)),
        Value::U64(x) if left => Value::U64(x.wrapping_shl(n & 63)),
        Value::U64(x) => Value::U64(x >> (n & 63)),
        _ => return Err(ArithError::BadOperands("shift")),
    })
}

/// `a == b` for values the compiler compares with `Eq`: numbers of one type, bools,
/// chars, enums, and references (identity, boxes too; `null == null`).
pub fn equal(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => x == y,
        (Value::F32(x), Value::F32(y)) => x == y,
        (Value::Ref(x), Value::Ref(y)) | (Value::Struct(x), Value::Struct(y)) | (Value::Boxed(x), Value::Boxed(y)) => x == y,
        (Value::Enum(t, x), Value::Enum(u, y)) => t == u && x == y,
        (Value::Null, Value::Null) => true,
        (Value::Type(x), Value::Type(y)) => x == y,
        (x, y) => match (x.as_i64(), y.as_i64()) {
            (Some(p), Some(q)) => p == q && same_kind(x, y),
            _ => matches!((x, y), (Value::Bool(p), Value::Bool(q)) if p == q),
        },
    }
}

fn same_kind(a: Value, b: Value) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

/// Ordering comparison `a < b` (`Lt`), etc. `None` when unordered (NaN) or mismatched.
pub fn compare(a: Value, b: Value) -> Result<Option<std::cmp::Ordering>, ArithError> {
    Ok(match (a, b) {
        (Value::I32(x), Value::I32(y)) => Some(x.cmp(&y)),
        (Value::I64(x), Value::I64(y)) => Some(x.cmp(&y)),
        (Value::F64(x), Value::F64(y)) => x.partial_cmp(&y),
        (Value::U32(x), Value::U32(y)) => Some(x.cmp(&y)),
        (Value::U64(x), Value::U64(y)) => Some(x.cmp(&y)),
        (Value::F32(x), Value::F32(y)) => x.partial_cmp(&y),
        (Value::Char(x), Value::Char(y)) => Some(x.cmp(&y)),
        _ => return Err(ArithError::BadOperands("compare")),
    })
}

/// Numeric conversion `(to)v`; `checked` throws `OverflowException` when the value does not
/// fit, unchecked wraps integers and saturates floats (NaN → 0).
pub fn convert(v: Value, to: NumKind, checked: bool) -> R {
    match v {
        Value::F64(f) => convert_float(f, to, checked),
        Value::F32(f) => convert_float(f as f64, to, checked),
        Value::U64(u) => convert_int(u as i128, to, checked),
        other => match other.as_i64() {
            Some(i) => convert_int(i as i128, to, checked),
            None => Err(ArithError::BadOperands("convert")),
        },
    }
}

fn convert_int(i: i128, to: NumKind, checked: bool) -> R {
    macro_rules! int {
        ($t:ty, $variant:ident) => {{
            if checked && (i < <$t>::MIN as i128 || i > <$t>::MAX as i128) {
                return Err(overflow());
            }
            Value::$variant(i as $t)
        }};
    }
    Ok(match to {
        NumKind::I8 => int!(i8, I8),
        NumKind::U8 => int!(u8, U8),
        NumKind::I16 => int!(i16, I16),
        NumKind::U16 => int!(u16, U16),
        NumKind::I32 => int!(i32, I32),
        NumKind::U32 => int!(u32, U32),
        NumKind::I64 => int!(i64, I64),
        NumKind::U64 => int!(u64, U64),
        NumKind::Char => int!(u16, Char),
        NumKind::F32 => Value::F32(i as f32),
        NumKind::F64 => Value::F64(i as f64),
    })
}

fn convert_float(f: f64, to: NumKind, checked: bool) -> R {
    macro_rules! int {
        ($t:ty, $variant:ident) => {{
            let t = f.trunc();
            if checked && !(t >= <$t>::MIN as f64 && t <= <$t>::MAX as f64) {
                return Err(overflow());
            }
            // `as` saturates and maps NaN to 0: .NET 9+'s conversion rule.
            Value::$variant(f as $t)
        }};
    }
    Ok(match to {
        NumKind::I8 => int!(i8, I8),
        NumKind::U8 => int!(u8, U8),
        NumKind::I16 => int!(i16, I16),
        NumKind::U16 => int!(u16, U16),
        NumKind::I32 => int!(i32, I32),
        NumKind::U32 => int!(u32, U32),
        NumKind::I64 => int!(i64, I64),
        NumKind::U64 => int!(u64, U64),
        NumKind::Char => int!(u16, Char),
        NumKind::F32 => Value::F32(f as f32),
        NumKind::F64 => Value::F64(f),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_rules() {
        assert!(matches!(add(Value::I32(i32::MAX), Value::I32(1)), Ok(Value::I32(i32::MIN))));
        assert!(matches!(div(Value::I32(-7), Value::I32(2)), Ok(Value::I32(-3))));
        assert!(matches!(rem(Value::I32(-7), Value::I32(2)), Ok(Value::I32(-1))));
        assert!(matches!(rem(Value::I32(7), Value::I32(-2)), Ok(Value::I32(1))));
        assert!(matches!(div(Value::I32(1), Value::I32(0)), Err(ArithError::Throw(ExceptionKind::DivideByZero))));
        assert!(matches!(div(Value::I32(i32::MIN), Value::I32(-1)), Err(ArithError::Throw(ExceptionKind::Overflow))));
        assert!(matches!(add_checked(Value::I32(i32::MAX), Value::I32(1)), Err(ArithError::Throw(ExceptionKind::Overflow))));
        assert!(matches!(shift(Value::I32(1), Value::I32(33), true, false), Ok(Value::I32(2))));
    }

    #[test]
    fn conversions() {
        assert!(matches!(convert(Value::I32(300), NumKind::U8, false), Ok(Value::U8(44))));
        assert!(matches!(convert(Value::I32(200), NumKind::I8, false), Ok(Value::I8(-56))));
        assert!(matches!(convert(Value::F64(3.99), NumKind::I32, false), Ok(Value::I32(3))));
        assert!(matches!(convert(Value::F64(-3.99), NumKind::I32, false), Ok(Value::I32(-3))));
        assert!(matches!(convert(Value::F64(f64::NAN), NumKind::I32, false), Ok(Value::I32(0))));
        assert!(matches!(convert(Value::F64(1e300), NumKind::I32, true), Err(ArithError::Throw(ExceptionKind::Overflow))));
        assert!(matches!(convert(Value::I32(-1), NumKind::U32, false), Ok(Value::U32(u32::MAX))));
    }

    #[test]
    fn equality() {
        assert!(equal(Value::Null, Value::Null));
        assert!(!equal(Value::F64(f64::NAN), Value::F64(f64::NAN)));
        assert!(equal(Value::Char(65), Value::Char(65)));
    }
}
