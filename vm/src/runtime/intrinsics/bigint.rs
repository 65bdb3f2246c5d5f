//! `System.Numerics.BigInteger`'s arithmetic (`BigNative` in
//! `stdlib/System/Numerics/BigInteger.cs-lite`) on num-bigint. A value is an immutable heap
//! object (`NativeData::BigInt`); null stands for zero (a default `BigInteger`).

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use super::support::{arg, int_arg, throw};
use crate::runtime::native::{ExceptionKind, NativeData, NativeEntry, NativeError, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "BigNative.FromInt64", func: |vm, a| Ok(vm.new_big(BigInt::from(arg(a, 0).as_i64().unwrap_or(0)))) },
    NativeEntry { name: "BigNative.FromUInt64", func: from_u64 },
    NativeEntry { name: "BigNative.FromDouble", func: from_double },
    NativeEntry { name: "BigNative.FromBytes", func: from_bytes },
    NativeEntry { name: "BigNative.Parse", func: parse },
    NativeEntry { name: "BigNative.ToDecimalString", func: |vm, a| Ok(vm.new_str(&big(vm, a, 0).to_string())) },
    NativeEntry { name: "BigNative.ToHexString", func: to_hex },
    NativeEntry { name: "BigNative.ByteCount", func: |vm, a| Ok(Value::I32(i32::try_from(big(vm, a, 0).to_signed_bytes_le().len()).unwrap_or(i32::MAX))) },
    NativeEntry { name: "BigNative.CopyBytes", func: copy_bytes },
    NativeEntry { name: "BigNative.Add", func: |vm, a| binary(vm, a, |x, y| x + y) },
    NativeEntry { name: "BigNative.Subtract", func: |vm, a| binary(vm, a, |x, y| x - y) },
    NativeEntry { name: "BigNative.Multiply", func: |vm, a| binary(vm, a, |x, y| x * y) },
    NativeEntry { name: "BigNative.Divide", func: |vm, a| division(vm, a, |x, y| x / y) },
    NativeEntry { name: "BigNative.Remainder", func: |vm, a| division(vm, a, |x, y| x % y) },
    NativeEntry { name: "BigNative.Negate", func: |vm, a| unary(vm, a, |x| -x) },
    NativeEntry { name: "BigNative.Abs", func: |vm, a| unary(vm, a, |x| x.abs()) },
    NativeEntry { name: "BigNative.Pow", func: pow },
    NativeEntry { name: "BigNative.ModPow", func: mod_pow },
    NativeEntry { name: "BigNative.Gcd", func: |vm, a| binary(vm, a, |x, y| x.gcd(&y)) },
    NativeEntry { name: "BigNative.And", func: |vm, a| binary(vm, a, |x, y| x & y) },
    NativeEntry { name: "BigNative.Or", func: |vm, a| binary(vm, a, |x, y| x | y) },
    NativeEntry { name: "BigNative.Xor", func: |vm, a| binary(vm, a, |x, y| x ^ y) },
    NativeEntry { name: "BigNative.ShiftLeft", func: shift_left },
    NativeEntry { name: "BigNative.Compare", func: |vm, a| Ok(Value::I32(big(vm, a, 0).cmp(&big(vm, a, 1)) as i32)) },
    NativeEntry { name: "BigNative.Sign", func: |vm, a| Ok(Value::I32(sign_of(&big(vm, a, 0)))) },
    NativeEntry { name: "BigNative.IsEven", func: |vm, a| Ok(Value::Bool(big(vm, a, 0).is_even())) },
    NativeEntry { name: "BigNative.IsPowerOfTwo", func: is_power_of_two },
    NativeEntry { name: "BigNative.FitsInt64", func: |vm, a| Ok(Value::Bool(big(vm, a, 0).to_i64().is_some())) },
    NativeEntry { name: "BigNative.ToInt64", func: |vm, a| Ok(Value::I64(low_u64(&big(vm, a, 0)) as i64)) },
    NativeEntry { name: "BigNative.ToUInt64", func: |vm, a| Ok(Value::U64(low_u64(&big(vm, a, 0)))) },
    NativeEntry { name: "BigNative.ToDouble", func: |vm, a| Ok(Value::F64(big(vm, a, 0).to_f64().unwrap_or(f64::NAN))) },
    NativeEntry { name: "BigNative.Top64", func: top64 },
    NativeEntry { name: "BigNative.BitLength", func: |vm, a| Ok(Value::I64(i64::try_from(big(vm, a, 0).bits()).unwrap_or(i64::MAX))) },
    NativeEntry { name: "BigNative.Hash", func: hash },
];

impl Vm {
    /// A new `BigInteger` handle.
    fn new_big(&mut self, value: BigInt) -> Value {
        Value::Ref(self.heap.alloc(Obj::Native(Box::new(NativeData::BigInt(value)))))
    }
}

/// The value of handle argument `i` (null: zero).
fn big(vm: &Vm, args: &[Value], i: usize) -> BigInt {
    match arg(args, i).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Native(n)) => match n.as_ref() {
            NativeData::BigInt(b) => b.clone(),
            _ => BigInt::zero(),
        },
        _ => BigInt::zero(),
    }
}

fn sign_of(b: &BigInt) -> i32 {
    match b.sign() {
        Sign::Minus => -1,
        Sign::NoSign => 0,
        Sign::Plus => 1,
    }
}

fn unary(vm: &mut Vm, args: &[Value], f: fn(BigInt) -> BigInt) -> NativeResult {
    let x = big(vm, args, 0);
    Ok(vm.new_big(f(x)))
}

fn binary(vm: &mut Vm, args: &[Value], f: fn(BigInt, BigInt) -> BigInt) -> NativeResult {
    let (x, y) = (big(vm, args, 0), big(vm, args, 1));
    Ok(vm.new_big(f(x, y)))
}

fn divide_by_zero() -> NativeError {
    throw(ExceptionKind::DivideByZero, "Attempted to divide by zero.")
}

/// A division (truncating, as C#'s): DivideByZeroException for a zero divisor.
fn division(vm: &mut Vm, args: &[Value], f: fn(BigInt, BigInt) -> BigInt) -> NativeResult {
    let (x, y) = (big(vm, args, 0), big(vm, args, 1));
    if y.is_zero() {
        return Err(divide_by_zero());
    }
    Ok(vm.new_big(f(x, y)))
}

fn from_u64(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let value = match arg(args, 0) {
        Value::U64(v) => v,
        other => other.as_i64().unwrap_or(0) as u64,
    };
    Ok(vm.new_big(BigInt::from(value)))
}

/// A finite double, truncated towards zero.
fn from_double(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let value = arg(args, 0).as_f64().unwrap_or(0.0).trunc();
    Ok(vm.new_big(num_traits::FromPrimitive::from_f64(value).unwrap_or_default()))
}

/// Little-endian two's complement bytes (an empty array is zero).
fn from_bytes(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let bytes: Vec<u8> = vm.array_items(arg(args, 0)).unwrap_or(&[]).iter().map(|v| v.as_i64().unwrap_or(0) as u8).collect();
    Ok(vm.new_big(BigInt::from_signed_bytes_le(&bytes)))
}

/// Writes the little-endian two's complement bytes into a `byte[]` of `ByteCount` bytes.
fn copy_bytes(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let bytes = big(vm, args, 0).to_signed_bytes_le();
    if let Some(Obj::Array(a)) = arg(args, 1).gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        for (slot, b) in a.items.iter_mut().zip(bytes) {
            *slot = Value::U8(b);
        }
    }
    Ok(Value::Null)
}

/// `NumberStyles.Integer`: white space, an optional sign, decimal digits, white space; null
/// when the text is not that.
fn parse(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let text = vm.string_of(arg(args, 0)).unwrap_or_default();
    let trimmed = text.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r'));
    let digits = trimmed.strip_prefix('+').unwrap_or(trimmed);
    let body = digits.strip_prefix('-').unwrap_or(digits);
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Value::Null);
    }
    match digits.parse::<BigInt>() {
        Ok(b) => Ok(vm.new_big(b)),
        Err(_) => Ok(Value::Null),
    }
}

/// Two's complement in upper-case hex, as .NET's "X": the fewest digits whose top one
/// still shows the sign (0-7 for a positive value, 8-F for a negative one).
fn to_hex(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let b = big(vm, args, 0);
    let bytes = b.to_signed_bytes_le();
    let mut hex: String = bytes.iter().rev().map(|x| format!("{x:02X}")).collect();
    let pad = if b.is_negative() { 'F' } else { '0' };
    while hex.len() > 1 && hex.starts_with(pad) && hex[1..].chars().next().is_some_and(|c| (c.to_digit(16).unwrap_or(0) >= 8) == b.is_negative()) {
        hex.remove(0);
    }
    Ok(vm.new_str(&hex))
}

fn pow(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let x = big(vm, args, 0);
    let exponent = u32::try_from(int_arg(args, 1)).unwrap_or(0);
    Ok(vm.new_big(num_traits::Pow::pow(x, exponent)))
}

/// `value ^ exponent mod modulus`, with the sign of `value ^ exponent` (as .NET's).
fn mod_pow(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (x, e, m) = (big(vm, args, 0), big(vm, args, 1), big(vm, args, 2));
    if m.is_zero() {
        return Err(divide_by_zero());
    }
    let magnitude = x.abs().modpow(&e, &m.abs());
    let negative = x.is_negative() && e.is_odd();
    Ok(vm.new_big(if negative { -magnitude } else { magnitude }))
}

/// `<<` by `shift` bits; a negative shift is `>>`, rounding towards -infinity.
fn shift_left(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let x = big(vm, args, 0);
    let shift = int_arg(args, 1);
    let amount = usize::try_from(shift.unsigned_abs()).unwrap_or(usize::MAX);
    Ok(vm.new_big(if shift >= 0 { x << amount } else { x >> amount }))
}

fn is_power_of_two(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let b = big(vm, args, 0);
    Ok(Value::Bool(b.is_positive() && b.magnitude().count_ones() == 1))
}

/// The low 64 bits of the two's complement value.
fn low_u64(b: &BigInt) -> u64 {
    let mut bytes = b.to_signed_bytes_le();
    let fill = if b.is_negative() { 0xFF } else { 0 };
    bytes.resize(8.max(bytes.len()), fill);
    bytes.iter().take(8).rev().fold(0u64, |acc, &x| (acc << 8) | u64::from(x))
}

/// The top 64 bits of the magnitude, left-aligned (what CoreLib's `Log` works from).
fn top64(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let magnitude = big(vm, args, 0).magnitude().clone();
    let bits = magnitude.bits();
    let aligned = if bits >= 64 { magnitude >> (bits - 64) } else { magnitude << (64 - bits) };
    Ok(Value::U64(aligned.to_u64().unwrap_or(0)))
}

fn hash(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let b = big(vm, args, 0);
    let folded = b.to_signed_bytes_le().chunks(4).fold(0u32, |acc, c| {
        let word = c.iter().rev().fold(0u32, |w, &x| (w << 8) | u32::from(x));
        acc.rotate_left(5) ^ word
    });
    Ok(Value::I32(folded as i32))
}
