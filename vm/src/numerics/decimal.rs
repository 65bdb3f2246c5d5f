//! `System.Decimal`: a 96-bit unsigned mantissa, a scale 0..=28 (number of decimal places) and a
//! sign. The scale is part of the value's identity for printing (`1.50m` prints `1.50`) but not for
//! equality (`1.5m == 1.50m`). Arithmetic lives in `decimal_arith.rs`, rounding in
//! `decimal_round.rs`, float conversions in `decimal_float.rs`.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

use super::culture::invariant;
use super::parse::{parse_decimal, ParseError};
use super::{IntType, NumberStyles};

/// Largest mantissa: 2^96 - 1 = 79228162514264337593543950335.
pub(super) const MAX_MANTISSA: u128 = (1u128 << 96) - 1;

/// Largest scale (decimal places).
pub(super) const MAX_SCALE: u32 = 28;

/// A .NET `decimal` value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Decimal {
    mantissa: u128,
    scale: u8,
    negative: bool,
}

/// Why a `decimal` operation failed (each maps to a .NET exception).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecimalError {
    /// `System.DivideByZeroException`.
    DivideByZero,
    /// `System.OverflowException` for a result outside the `decimal` range (also NaN/∞ → decimal).
    Overflow,
    /// `System.OverflowException` converting to an integral type (`(int)1e10m`).
    ConversionOverflow(IntType),
    /// `System.ArgumentOutOfRangeException` from `Math.Round(d, decimals)` with decimals outside 0..=28.
    RoundingDigitsOutOfRange,
}

impl DecimalError {
    /// The exception message .NET 8 prints.
    pub fn message(&self) -> &'static str {
        match self {
            DecimalError::DivideByZero => "Attempted to divide by zero.",
            DecimalError::Overflow => "Value was either too large or too small for a Decimal.",
            DecimalError::ConversionOverflow(ty) => ty.overflow_message(),
            DecimalError::RoundingDigitsOutOfRange => "Decimal can only round to between 0 and 28 digits of precision. (Parameter 'decimals')",
        }
    }

    /// The .NET exception type name.
    pub fn exception_type(&self) -> &'static str {
        match self {
            DecimalError::DivideByZero => "System.DivideByZeroException",
            DecimalError::Overflow | DecimalError::ConversionOverflow(_) => "System.OverflowException",
            DecimalError::RoundingDigitsOutOfRange => "System.ArgumentOutOfRangeException",
        }
    }
}

impl std::fmt::Display for DecimalError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DecimalError {}

impl Decimal {
    /// `0m`.
    pub const ZERO: Decimal = Decimal { mantissa: 0, scale: 0, negative: false };
    /// `1m`.
    pub const ONE: Decimal = Decimal { mantissa: 1, scale: 0, negative: false };
    /// `-1m`.
    pub const MINUS_ONE: Decimal = Decimal { mantissa: 1, scale: 0, negative: true };
    /// `decimal.MaxValue` = 79228162514264337593543950335.
    pub const MAX: Decimal = Decimal { mantissa: MAX_MANTISSA, scale: 0, negative: false };
    /// `decimal.MinValue`.
    pub const MIN: Decimal = Decimal { mantissa: MAX_MANTISSA, scale: 0, negative: true };

    /// Builds `(-1)^negative × mantissa / 10^scale`; `None` if the mantissa exceeds 96 bits or scale > 28.
    pub fn from_parts(mantissa: u128, scale: u32, negative: bool) -> Option<Decimal> {
        if mantissa > MAX_MANTISSA || scale > MAX_SCALE {
            return None;
        }
        Some(Decimal { mantissa, scale: scale as u8, negative })
    }

    /// Internal constructor for already-validated parts.
    pub(super) fn raw(mantissa: u128, scale: u32, negative: bool) -> Decimal {
        Decimal { mantissa: mantissa.min(MAX_MANTISSA), scale: scale.min(MAX_SCALE) as u8, negative }
    }

    /// `new decimal(int[] { lo, mid, hi, flags })` / `decimal.GetBits`: `None` for invalid flags.
    pub fn from_bits(lo: u32, mid: u32, hi: u32, flags: u32) -> Option<Decimal> {
        if flags & 0x7F00_FFFF != 0 {
            return None;
        }
        let mantissa = u128::from(lo) | (u128::from(mid) << 32) | (u128::from(hi) << 64);
        Decimal::from_parts(mantissa, (flags >> 16) & 0xFF, flags & 0x8000_0000 != 0)
    }

    /// `decimal.GetBits`: `[lo, mid, hi, flags]`.
    pub fn to_bits(&self) -> [u32; 4] {
        let flags = (u32::from(self.scale) << 16) | if self.negative { 0x8000_0000 } else { 0 };
        [self.mantissa as u32, (self.mantissa >> 32) as u32, (self.mantissa >> 64) as u32, flags]
    }

    /// The 96-bit unsigned mantissa.
    pub fn mantissa(&self) -> u128 {
        self.mantissa
    }

    /// Number of decimal places (0..=28).
    pub fn scale(&self) -> u32 {
        u32::from(self.scale)
    }

    /// The sign bit (set for negative values, and for some zeros such as `-1.5m + 1.5m`).
    pub fn is_negative(&self) -> bool {
        self.negative
    }

    /// True for any zero, whatever its scale or sign.
    pub fn is_zero(&self) -> bool {
        self.mantissa == 0
    }

    /// `-d` (flips the sign bit, like .NET's `decimal.Negate`).
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> Decimal {
        Decimal { negative: !self.negative, ..self }
    }

    /// `Math.Abs(d)`.
    pub fn abs(self) -> Decimal {
        Decimal { negative: false, ..self }
    }

    /// `Math.Sign(d)`: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match (self.is_zero(), self.negative) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        }
    }

    /// `(decimal)i` for a 32-bit integer.
    pub fn from_i32(v: i32) -> Decimal {
        Decimal::from_i64(i64::from(v))
    }

    /// `(decimal)l` for a 64-bit integer.
    pub fn from_i64(v: i64) -> Decimal {
        Decimal { mantissa: u128::from(v.unsigned_abs()), scale: 0, negative: v < 0 }
    }

    /// `(decimal)ul` for an unsigned 64-bit integer.
    pub fn from_u64(v: u64) -> Decimal {
        Decimal { mantissa: u128::from(v), scale: 0, negative: false }
    }

    /// The integral part (truncated toward zero) as sign and magnitude.
    fn truncated_magnitude(&self) -> u128 {
        self.mantissa / 10u128.pow(u32::from(self.scale))
    }

    /// `(long)d` / `decimal.ToInt64`: truncates toward zero; `ConversionOverflow` when out of range.
    pub fn to_i64(&self) -> Result<i64, DecimalError> {
        self.to_integer(IntType::I64).map(|v| v as i64)
    }

    /// `(int)d` / `decimal.ToInt32`: truncates toward zero; `ConversionOverflow` when out of range.
    pub fn to_i32(&self) -> Result<i32, DecimalError> {
        self.to_integer(IntType::I32).map(|v| v as i32)
    }

    /// Truncated value checked against the range of `ty`, as an `i128`.
    pub fn to_integer(&self, ty: IntType) -> Result<i128, DecimalError> {
        let magnitude = self.truncated_magnitude() as i128;
        let value = if self.negative { -magnitude } else { magnitude };
        let (min, max) = ty.range();
        if value < min || value > max {
            return Err(DecimalError::ConversionOverflow(ty));
        }
        Ok(value)
    }

    /// Mantissa and scale with trailing zeros removed (the canonical form used for hashing).
    pub(super) fn normalized(&self) -> (u128, u32) {
        let mut m = self.mantissa;
        let mut s = u32::from(self.scale);
        while s > 0 && m != 0 && m.is_multiple_of(10) {
            m /= 10;
            s -= 1;
        }
        if m == 0 {
            s = 0;
        }
        (m, s)
    }

    /// `decimal.GetHashCode()` as .NET 8 computes it (equal values hash equal).
    pub fn hash_code(&self) -> i32 {
        if self.mantissa == 0 {
            return 0;
        }
        let (m, s) = if self.scale == 0 || self.mantissa & 1 == 1 { (self.mantissa, u32::from(self.scale)) } else { self.normalized() };
        let flags = (s << 16) | if self.negative { 0x8000_0000 } else { 0 };
        (flags ^ (m >> 64) as u32 ^ (m >> 32) as u32 ^ m as u32) as i32
    }

    /// Parses a C# `decimal` literal such as `1.50m` or `1_000.5M` (suffix and digit separators
    /// optional) with the invariant culture, keeping its scale.
    pub fn from_literal(text: &str) -> Result<Decimal, ParseError> {
        let body: String = text.trim_end_matches(['m', 'M']).chars().filter(|&c| c != '_').collect();
        parse_decimal(&body, NumberStyles::FLOAT, invariant())
    }

    /// Magnitude comparison of two decimals with equal signs handled by the caller.
    fn cmp_magnitude(&self, other: &Decimal) -> Ordering {
        let (a, sa) = (self.mantissa, u32::from(self.scale));
        let (b, sb) = (other.mantissa, u32::from(other.scale));
        match sa.cmp(&sb) {
            Ordering::Equal => a.cmp(&b),
            Ordering::Less => scaled_cmp(a, sb - sa, b),
            Ordering::Greater => scaled_cmp(b, sa - sb, a).reverse(),
        }
    }
}

/// Compares `a × 10^k` with `b` without overflowing.
fn scaled_cmp(a: u128, k: u32, b: u128) -> Ordering {
    match 10u128.checked_pow(k).and_then(|p| a.checked_mul(p)) {
        Some(scaled) => scaled.cmp(&b),
        None => Ordering::Greater,
    }
}

impl PartialEq for Decimal {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Decimal {}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    /// `decimal.Compare`: numeric order; all zeros are equal.
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return if other.negative { Ordering::Greater } else { Ordering::Less },
            (false, true) => return if self.negative { Ordering::Less } else { Ordering::Greater },
            (false, false) => {}
        }
        match (self.negative, other.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => self.cmp_magnitude(other).reverse(),
        }
    }
}

impl Hash for Decimal {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let (m, s) = self.normalized();
        m.hash(state);
        s.hash(state);
        (self.negative && m != 0).hash(state);
    }
}

impl std::ops::Neg for Decimal {
    type Output = Decimal;
    fn neg(self) -> Decimal {
        Decimal::neg(self)
    }
}

impl From<i32> for Decimal {
    fn from(v: i32) -> Self {
        Decimal::from_i32(v)
    }
}

impl From<i64> for Decimal {
    fn from(v: i64) -> Self {
        Decimal::from_i64(v)
    }
}

impl From<u64> for Decimal {
    fn from(v: u64) -> Self {
        Decimal::from_u64(v)
    }
}

impl std::fmt::Display for Decimal {
    /// Invariant-culture `ToString()`: all digits of the mantissa, scale kept (`1.50`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = super::format(super::Num::Decimal(*self), "", invariant()).unwrap_or_default();
        f.write_str(&text)
    }
}

impl std::str::FromStr for Decimal {
    type Err = ParseError;
    /// `decimal.Parse(s, CultureInfo.InvariantCulture)` (`NumberStyles.Number`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_decimal(s, NumberStyles::NUMBER, invariant())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn d(s: &str) -> Decimal {
        Decimal::from_literal(s).unwrap_or_default()
    }

    fn h(v: Decimal) -> u64 {
        let mut s = DefaultHasher::new();
        v.hash(&mut s);
        s.finish()
    }

    #[test]
    fn equality_ignores_scale() {
        assert_eq!(d("1.5"), d("1.50"));
        assert_eq!(h(d("1.5")), h(d("1.50")));
        assert_eq!(d("1.5").hash_code(), d("1.50").hash_code());
        assert_eq!(d("0"), d("-0.000"));
        assert!(d("-2") < d("1.5"));
        assert!(d("79228162514264337593543950335") > d("0.0000000000000000000000000001"));
        assert_eq!(d("1.50").to_string(), "1.50");
        assert_eq!(d("1_000.5M").to_string(), "1000.5");
    }

    #[test]
    fn integer_conversions() {
        assert_eq!(d("-3.99").to_i32(), Ok(-3));
        assert_eq!(d("2147483647.9").to_i32(), Ok(i32::MAX));
        assert_eq!(d("2147483648").to_i32(), Err(DecimalError::ConversionOverflow(IntType::I32)));
        assert_eq!(Decimal::MAX.to_i64(), Err(DecimalError::ConversionOverflow(IntType::I64)));
        assert_eq!(Decimal::from_i64(i64::MIN).to_i64(), Ok(i64::MIN));
        assert_eq!(Decimal::from_bits(15, 0, 0, 0x0001_0000).map(|v| v.to_string()), Some("1.5".to_string()));
        assert_eq!(Decimal::from_bits(15, 0, 0, 0x001D_0000), None);
    }
}
