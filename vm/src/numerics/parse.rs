//! `int.Parse`, `long.Parse`, `byte.Parse`…, `double.Parse`, `float.Parse` and `decimal.Parse`
//! with `NumberStyles` and a culture, and .NET 8's exception messages for failures.

use super::culture::NumberFormat;
use super::decimal::{Decimal, MAX_MANTISSA};
use super::number_buffer::Kind;
use super::number_styles::NumberStyles;
use super::parse_number::{is_white, string_to_number, ParsedNumber};
use super::Num;

/// The integral C# types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    /// `sbyte`
    I8,
    /// `short`
    I16,
    /// `int`
    I32,
    /// `long`
    I64,
    /// `byte`
    U8,
    /// `ushort`
    U16,
    /// `uint`
    U32,
    /// `ulong`
    U64,
}

/// The binary floating-point C# types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatType {
    /// `float`
    F32,
    /// `double`
    F64,
}

impl IntType {
    /// The `System` type name (`Int32`, `Byte`, …).
    pub fn dotnet_name(self) -> &'static str {
        match self {
            IntType::I8 => "SByte",
            IntType::I16 => "Int16",
            IntType::I32 => "Int32",
            IntType::I64 => "Int64",
            IntType::U8 => "Byte",
            IntType::U16 => "UInt16",
            IntType::U32 => "UInt32",
            IntType::U64 => "UInt64",
        }
    }

    /// The `OverflowException` message for this type.
    pub fn overflow_message(self) -> &'static str {
        match self {
            IntType::I8 => "Value was either too large or too small for a signed byte.",
            IntType::I16 => "Value was either too large or too small for an Int16.",
            IntType::I32 => "Value was either too large or too small for an Int32.",
            IntType::I64 => "Value was either too large or too small for an Int64.",
            IntType::U8 => "Value was either too large or too small for an unsigned byte.",
            IntType::U16 => "Value was either too large or too small for a UInt16.",
            IntType::U32 => "Value was either too large or too small for a UInt32.",
            IntType::U64 => "Value was either too large or too small for a UInt64.",
        }
    }

    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            IntType::I8 | IntType::U8 => 8,
            IntType::I16 | IntType::U16 => 16,
            IntType::I32 | IntType::U32 => 32,
            IntType::I64 | IntType::U64 => 64,
        }
    }

    /// True for the signed types.
    pub fn is_signed(self) -> bool {
        matches!(self, IntType::I8 | IntType::I16 | IntType::I32 | IntType::I64)
    }

    /// Inclusive value range.
    pub fn range(self) -> (i128, i128) {
        let bits = self.bits();
        if self.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    /// Decimal digits of the largest value (the parse buffer size).
    fn max_digits(self) -> usize {
        match self {
            IntType::I8 | IntType::U8 => 3,
            IntType::I16 | IntType::U16 => 5,
            IntType::I32 | IntType::U32 => 10,
            IntType::I64 => 19,
            IntType::U64 => 20,
        }
    }

    /// Wraps an in-range value in the matching [`Num`] variant.
    pub fn to_num(self, v: i128) -> Num {
        match self {
            IntType::I8 => Num::I8(v as i8),
            IntType::I16 => Num::I16(v as i16),
            IntType::I32 => Num::I32(v as i32),
            IntType::I64 => Num::I64(v as i64),
            IntType::U8 => Num::U8(v as u8),
            IntType::U16 => Num::U16(v as u16),
            IntType::U32 => Num::U32(v as u32),
            IntType::U64 => Num::U64(v as u64),
        }
    }

    /// Reinterprets the low `bits()` bits of `raw` as this type (hex/binary parsing).
    fn wrap_bits(self, raw: u128) -> i128 {
        let bits = self.bits();
        let masked = raw & ((1u128 << bits) - 1);
        if self.is_signed() && masked >> (bits - 1) == 1 {
            masked as i128 - (1i128 << bits)
        } else {
            masked as i128
        }
    }
}

/// Why a `NumberStyles` value was rejected (`System.ArgumentException`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StyleError {
    /// Bits outside the defined flags.
    Undefined,
    /// `AllowHexSpecifier`/`AllowBinarySpecifier` combined with flags outside `HexNumber`/`BinaryNumber`.
    HexBinaryCombination,
    /// `AllowHexSpecifier`/`AllowBinarySpecifier` used for `float`/`double`/`decimal`.
    HexBinaryOnFloat,
}

/// Why parsing failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseError {
    /// Malformed input: `System.FormatException`.
    Format,
    /// Well-formed but out of the type's range: `System.OverflowException`.
    Overflow,
    /// Invalid `NumberStyles` argument: `System.ArgumentException`.
    InvalidStyle(StyleError),
}

impl ParseError {
    /// .NET 8's exception message; `ty_name` is the target type (`"Int32"`, `"int"`, `"Byte"`,
    /// `"Decimal"`, …), used for the overflow text.
    pub fn message(&self, input: &str, ty_name: &str) -> String {
        match self {
            ParseError::Format => format!("The input string '{input}' was not in a correct format."),
            ParseError::Overflow => overflow_message_for(ty_name),
            ParseError::InvalidStyle(StyleError::Undefined) => {
                "An undefined NumberStyles value is being used. (Parameter 'style')".to_string()
            }
            ParseError::InvalidStyle(StyleError::HexBinaryCombination) => "With the AllowHexSpecifier or AllowBinarySpecifier bit set in the enum bit field, the only other valid bits that can be combined into the enum value must be AllowLeadingWhite and AllowTrailingWhite. (Parameter 'style')".to_string(),
            ParseError::InvalidStyle(StyleError::HexBinaryOnFloat) => {
                "The number styles AllowHexSpecifier and AllowBinarySpecifier are not supported on floating point data types. (Parameter 'style')".to_string()
            }
        }
    }

    /// The .NET exception type name.
    pub fn exception_type(&self) -> &'static str {
        match self {
            ParseError::Format => "System.FormatException",
            ParseError::Overflow => "System.OverflowException",
            ParseError::InvalidStyle(_) => "System.ArgumentException",
        }
    }
}

/// Overflow text for a type given by .NET or C# name.
fn overflow_message_for(ty_name: &str) -> String {
    let ty = match ty_name {
        "SByte" | "sbyte" => Some(IntType::I8),
        "Int16" | "short" => Some(IntType::I16),
        "Int32" | "int" => Some(IntType::I32),
        "Int64" | "long" => Some(IntType::I64),
        "Byte" | "byte" => Some(IntType::U8),
        "UInt16" | "ushort" => Some(IntType::U16),
        "UInt32" | "uint" => Some(IntType::U32),
        "UInt64" | "ulong" => Some(IntType::U64),
        _ => None,
    };
    match ty {
        Some(t) => t.overflow_message().to_string(),
        None if ty_name.eq_ignore_ascii_case("decimal") => "Value was either too large or too small for a Decimal.".to_string(),
        None => format!("Value was either too large or too small for a {ty_name}."),
    }
}

/// Defined `NumberStyles` bits.
const VALID_STYLES: u32 = 0x7FF;

fn validate_integer_style(style: NumberStyles) -> Result<(), ParseError> {
    if style.0 & !VALID_STYLES != 0 {
        return Err(ParseError::InvalidStyle(StyleError::Undefined));
    }
    let hex = style.has(NumberStyles::ALLOW_HEX_SPECIFIER);
    let bin = style.has(NumberStyles::ALLOW_BINARY_SPECIFIER);
    let allowed = if hex { NumberStyles::HEX_NUMBER.0 } else { NumberStyles::BINARY_NUMBER.0 };
    if (hex || bin) && (style.0 & !allowed != 0) {
        return Err(ParseError::InvalidStyle(StyleError::HexBinaryCombination));
    }
    Ok(())
}

fn validate_float_style(style: NumberStyles) -> Result<(), ParseError> {
    if style.0 & !VALID_STYLES != 0 {
        return Err(ParseError::InvalidStyle(StyleError::Undefined));
    }
    if style.has(NumberStyles::ALLOW_HEX_SPECIFIER) || style.has(NumberStyles::ALLOW_BINARY_SPECIFIER) {
        return Err(ParseError::InvalidStyle(StyleError::HexBinaryOnFloat));
    }
    Ok(())
}

/// `int.Parse(s, style, nf)` and friends; the result variant matches `ty`.
pub fn parse_int(s: &str, ty: IntType, style: NumberStyles, nf: &NumberFormat) -> Result<Num, ParseError> {
    validate_integer_style(style)?;
    let chars: Vec<char> = s.chars().collect();
    if style.has(NumberStyles::ALLOW_HEX_SPECIFIER) {
        return parse_radix(&chars, ty, style, 16).map(|v| ty.to_num(v));
    }
    if style.has(NumberStyles::ALLOW_BINARY_SPECIFIER) {
        return parse_radix(&chars, ty, style, 2).map(|v| ty.to_num(v));
    }
    let number = string_to_number(&chars, style, nf, Kind::Integer, ty.max_digits()).ok_or(ParseError::Format)?;
    number_to_integer(&number, ty).map(|v| ty.to_num(v)).ok_or(ParseError::Overflow)
}

/// Digits × 10^(scale - len) checked against the type (`None` = overflow, including a
/// non-zero fractional part).
fn number_to_integer(n: &ParsedNumber, ty: IntType) -> Option<i128> {
    let len = n.digits.len() as i64;
    let scale = i64::from(n.scale);
    if scale > ty.max_digits() as i64 || scale < len || (!ty.is_signed() && n.negative) {
        return None;
    }
    let mut value: i128 = 0;
    for i in 0..scale {
        let d = n.digits.get(i as usize).map_or(0, |&b| i128::from(b - b'0'));
        value = value * 10 + d;
    }
    let value = if n.negative { -value } else { value };
    let (min, max) = ty.range();
    (min..=max).contains(&value).then_some(value)
}

/// `NumberStyles.HexNumber` / `BinaryNumber` parsing: digits only (no sign, no prefix), at most
/// the type's width; the bits are reinterpreted (`"FFFFFFFF"` is -1 for `int`).
fn parse_radix(s: &[char], ty: IntType, style: NumberStyles, radix: u32) -> Result<i128, ParseError> {
    let mut i = 0usize;
    if style.has(NumberStyles::ALLOW_LEADING_WHITE) {
        while i < s.len() && is_white(s[i]) {
            i += 1;
        }
    }
    let start = i;
    while i < s.len() && s[i] == '0' {
        i += 1;
    }
    let first_significant = i;
    while i < s.len() && s[i].is_digit(radix) {
        i += 1;
    }
    if i == start {
        return Err(ParseError::Format);
    }
    let significant = &s[first_significant..i];
    let digit_bits = if radix == 16 { 4 } else { 1 };
    let overflow = significant.len() > (ty.bits() / digit_bits) as usize;
    if style.has(NumberStyles::ALLOW_TRAILING_WHITE) {
        while i < s.len() && is_white(s[i]) {
            i += 1;
        }
    }
    if !s[i..].iter().all(|&c| c == '\0') {
        return Err(ParseError::Format);
    }
    if overflow {
        return Err(ParseError::Overflow);
    }
    let raw = significant.iter().fold(0u128, |acc, c| acc * u128::from(radix) + u128::from(c.to_digit(radix).unwrap_or(0)));
    Ok(ty.wrap_bits(raw))
}

/// `double.Parse` / `float.Parse` (default style `NumberStyles::FLOAT_THOUSANDS`). Out-of-range
/// values become ±∞ or ±0 (no overflow in .NET Core 3.0+); the culture's NaN/∞ symbols are
/// accepted case-insensitively, also with a sign.
pub fn parse_float(s: &str, ty: FloatType, style: NumberStyles, nf: &NumberFormat) -> Result<Num, ParseError> {
    validate_float_style(style)?;
    let chars: Vec<char> = s.chars().collect();
    let max = if ty == FloatType::F64 { 768 } else { 113 };
    let value = match string_to_number(&chars, style, nf, Kind::FloatingPoint, max) {
        Some(n) => to_float(&n, ty),
        None => special_float(s, nf).ok_or(ParseError::Format)?,
    };
    Ok(match ty {
        FloatType::F64 => Num::F64(value),
        FloatType::F32 => Num::F32(value as f32),
    })
}

/// Correctly rounded value of the scanned digits (as `f64`, or as an `f32` widened to `f64`).
fn to_float(n: &ParsedNumber, ty: FloatType) -> f64 {
    let (min_exp, max_exp) = if ty == FloatType::F64 { (-324, 309) } else { (-45, 39) };
    let magnitude = if n.digits.is_empty() || n.scale < min_exp {
        0.0
    } else if n.scale > max_exp {
        f64::INFINITY
    } else {
        let mut text = String::with_capacity(n.digits.len() + 16);
        text.push_str("0.");
        text.extend(n.digits.iter().map(|&b| char::from(b)));
        if n.has_nonzero_tail {
            text.push('1');
        }
        text.push_str(&format!("e{}", n.scale));
        match ty {
            FloatType::F64 => text.parse::<f64>().unwrap_or(0.0),
            FloatType::F32 => f64::from(text.parse::<f32>().unwrap_or(0.0)),
        }
    };
    if n.negative {
        -magnitude
    } else {
        magnitude
    }
}

/// `double.NaN` as .NET defines it (`0.0 / 0.0` on x64): sign bit set, quiet NaN. Narrowing it
/// to `float` gives .NET's `float.NaN` bits (0xFFC00000).
const DOTNET_NAN: f64 = f64::from_bits(0xFFF8_0000_0000_0000);

/// The NaN/infinity fallback of `double.Parse` on the trimmed input.
fn special_float(s: &str, nf: &NumberFormat) -> Option<f64> {
    let t = s.trim_matches(char::is_whitespace);
    if eq_ignore_case(t, &nf.positive_infinity_symbol) {
        return Some(f64::INFINITY);
    }
    if eq_ignore_case(t, &nf.negative_infinity_symbol) {
        return Some(f64::NEG_INFINITY);
    }
    if eq_ignore_case(t, &nf.nan_symbol) {
        return Some(DOTNET_NAN);
    }
    if let Some(rest) = strip_prefix_ignore_case(t, &nf.positive_sign) {
        if eq_ignore_case(rest, &nf.positive_infinity_symbol) {
            return Some(f64::INFINITY);
        }
        return eq_ignore_case(rest, &nf.nan_symbol).then_some(DOTNET_NAN);
    }
    let negative_nan = strip_prefix_ignore_case(t, &nf.negative_sign).is_some_and(|rest| eq_ignore_case(rest, &nf.nan_symbol));
    negative_nan.then_some(DOTNET_NAN)
}

/// Simple (one-to-one) upper-casing, as ordinal-ignore-case comparison uses.
fn fold(c: char) -> char {
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

fn eq_ignore_case(a: &str, b: &str) -> bool {
    a.chars().count() == b.chars().count() && a.chars().zip(b.chars()).all(|(x, y)| fold(x) == fold(y))
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    if prefix.is_empty() {
        return Some(s);
    }
    let mut chars = s.char_indices();
    for p in prefix.chars() {
        let (_, c) = chars.next()?;
        if fold(c) != fold(p) {
            return None;
        }
    }
    let at = chars.next().map_or(s.len(), |(i, _)| i);
    Some(&s[at..])
}

/// `decimal.Parse(s, style, nf)` (default style `NumberStyles::NUMBER`); keeps the scale of the
/// text (`"1.50"` → 1.50), rounds half to even beyond 28–29 significant digits.
pub fn parse_decimal(s: &str, style: NumberStyles, nf: &NumberFormat) -> Result<Decimal, ParseError> {
    validate_float_style(style)?;
    let chars: Vec<char> = s.chars().collect();
    let number = string_to_number(&chars, style, nf, Kind::Decimal, 30).ok_or(ParseError::Format)?;
    number_to_decimal(&number).ok_or(ParseError::Overflow)
}

/// .NET's `TryNumberToDecimal`: greedily takes digits while the mantissa fits 96 bits and the
/// scale stays ≤ 28, then rounds half to even on the next digit (and the dropped tail).
fn number_to_decimal(n: &ParsedNumber) -> Option<Decimal> {
    let digit = |i: usize| n.digits.get(i).map_or(0u8, |&b| b - b'0');
    let mut e = i64::from(n.scale);
    if n.digits.is_empty() {
        let scale = (-e).clamp(0, 28) as u32;
        return Some(Decimal::raw(0, scale, n.negative));
    }
    if e > 29 {
        return None;
    }
    let mut mant: u128 = 0;
    let mut idx = 0usize;
    while e > 0 || (idx < n.digits.len() && e > -28) {
        let d = if idx < n.digits.len() { digit(idx) } else { 0 };
        let next = mant * 10 + u128::from(d);
        if next > MAX_MANTISSA {
            break;
        }
        mant = next;
        if idx < n.digits.len() {
            idx += 1;
        }
        e -= 1;
    }
    if idx < n.digits.len() && should_round_up(n, idx, mant) {
        mant += 1;
        if mant > MAX_MANTISSA {
            mant = MAX_MANTISSA / 10 + 1;
            e += 1;
        }
    }
    if e > 0 {
        return None;
    }
    if e <= -29 {
        return Some(Decimal::raw(0, 28, n.negative));
    }
    Some(Decimal::raw(mant, (-e) as u32, n.negative))
}

/// Half-to-even decision on the first unused digit at `idx`.
fn should_round_up(n: &ParsedNumber, idx: usize, mant: u128) -> bool {
    let d = n.digits[idx];
    if d < b'5' {
        return false;
    }
    if d == b'5' && mant & 1 == 0 {
        let zero_tail = !n.has_nonzero_tail && n.digits[idx + 1..].iter().all(|&b| b == b'0');
        return !zero_tail;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::culture::{culture, invariant};
    use super::*;

    fn int(s: &str, ty: IntType, style: NumberStyles) -> String {
        match parse_int(s, ty, style, invariant()) {
            Ok(v) => format!("{v:?}"),
            Err(e) => e.message(s, ty.dotnet_name()),
        }
    }

    #[test]
    fn integers() {
        let i = NumberStyles::INTEGER;
        assert_eq!(int(" -42 ", IntType::I32, i), "I32(-42)");
        assert_eq!(int("abc", IntType::I32, i), "The input string 'abc' was not in a correct format.");
        assert_eq!(int("99999999999", IntType::I32, i), "Value was either too large or too small for an Int32.");
        assert_eq!(int("99999999999x", IntType::I32, i), "The input string '99999999999x' was not in a correct format.");
        assert_eq!(int("-0", IntType::U32, i), "U32(0)");
        assert_eq!(int("-1", IntType::U8, i), "Value was either too large or too small for an unsigned byte.");
        assert_eq!(int("1,000", IntType::I32, NumberStyles::NUMBER), "I32(1000)");
        assert_eq!(int("FF", IntType::I8, NumberStyles::HEX_NUMBER), "I8(-1)");
        assert_eq!(int("FFFFFFFF", IntType::I32, NumberStyles::HEX_NUMBER), "I32(-1)");
        assert_eq!(int("1FFFFFFFF", IntType::I32, NumberStyles::HEX_NUMBER), "Value was either too large or too small for an Int32.");
        assert_eq!(int("101", IntType::I32, NumberStyles::BINARY_NUMBER), "I32(5)");
        assert_eq!(int("-9223372036854775808", IntType::I64, i), "I64(-9223372036854775808)");
    }

    #[test]
    fn floats_and_decimals() {
        let f = NumberStyles::FLOAT_THOUSANDS;
        assert_eq!(parse_float("1e3", FloatType::F64, f, invariant()), Ok(Num::F64(1000.0)));
        assert_eq!(parse_float("  -1.5 ", FloatType::F64, f, invariant()), Ok(Num::F64(-1.5)));
        assert_eq!(parse_float("-Infinity", FloatType::F64, f, invariant()), Ok(Num::F64(f64::NEG_INFINITY)));
        let en = culture("en-US").unwrap_or(invariant());
        assert_eq!(parse_float("\u{221E}", FloatType::F64, f, en), Ok(Num::F64(f64::INFINITY)));
        assert!(matches!(parse_float("nan", FloatType::F64, f, invariant()), Ok(Num::F64(x)) if x.is_nan()));
        assert_eq!(parse_float("1e400", FloatType::F64, f, invariant()), Ok(Num::F64(f64::INFINITY)));
        let dec = |s: &str| parse_decimal(s, NumberStyles::NUMBER, invariant()).map(|d| d.to_string());
        assert_eq!(dec("1.50"), Ok("1.50".to_string()));
        assert_eq!(dec("0.00"), Ok("0.00".to_string()));
        assert_eq!(dec("79228162514264337593543950336"), Err(ParseError::Overflow));
        assert_eq!(dec("0.123456789012345678901234567890123"), Ok("0.1234567890123456789012345679".to_string()));
    }
}
