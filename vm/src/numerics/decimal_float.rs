//! Conversions between `decimal` and `double`/`float` as .NET 8 performs them: `(decimal)x` keeps
//! 15 (double) or 7 (float) significant digits, computed with the same double arithmetic as
//! `DecCalc.VarDecFromR8/R4`; `(double)d` divides the mantissa by a power of ten in double, with
//! the `ulong → double` conversion CoreLib's precompiled code uses.

use super::decimal::{Decimal, DecimalError};

/// `DecCalc.DoublePowers10`: exact double constants 1e0..=1e28.
const DOUBLE_POWERS_10: [f64; 29] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26,
    1e27, 1e28,
];

fn double_pow10(n: i32) -> f64 {
    usize::try_from(n).ok().and_then(|i| DOUBLE_POWERS_10.get(i)).copied().unwrap_or(1.0)
}

/// Precision-specific constants of the two conversions.
struct Source {
    /// Significant digits kept (15 or 7).
    digits: i32,
    /// `biased exponent - bias` of the input (bias 1022 / 126).
    exp: i32,
    /// `|input|` widened to double.
    value: f64,
}

impl Decimal {
    /// `(decimal)x` for a `double`: rounded to 15 significant digits; `Overflow` for NaN, ±∞ and
    /// magnitudes ≥ 2^96; values below ~1e-28 become 0.
    pub fn from_f64(x: f64) -> Result<Decimal, DecimalError> {
        let exp = ((x.to_bits() >> 52) & 0x7FF) as i32 - 1022;
        convert(Source { digits: 15, exp, value: x.abs() }, x < 0.0)
    }

    /// `(decimal)x` for a `float`: rounded to 7 significant digits.
    pub fn from_f32(x: f32) -> Result<Decimal, DecimalError> {
        let exp = ((x.to_bits() >> 23) & 0xFF) as i32 - 126;
        convert(Source { digits: 7, exp, value: f64::from(x.abs()) }, x < 0.0)
    }

    /// `(double)d`: `(low64 + high × 2^64) / 10^scale` in double arithmetic, as .NET computes it.
    pub fn to_f64(&self) -> f64 {
        let m = self.mantissa();
        let low = u64_to_f64_ready_to_run(m as u64);
        let high = ((m >> 64) as u32) as f64;
        let v = (low + high * 1.8446744073709552e19) / double_pow10(self.scale() as i32);
        if self.is_negative() {
            -v
        } else {
            v
        }
    }

    /// `(float)d`: the double conversion narrowed to float.
    pub fn to_f32(&self) -> f32 {
        self.to_f64() as f32
    }
}

/// `(double)ulong` as CoreLib's precompiled (ReadyToRun) code does it: convert as a signed
/// `long`, then add 2^64 when negative, rounding twice. .NET 8 later re-JITs hot methods with a
/// correctly rounded conversion, so `(double)decimal` can change by one ulp after thousands of
/// calls; short programs see this version.
fn u64_to_f64_ready_to_run(x: u64) -> f64 {
    let signed = x as i64;
    if signed < 0 {
        signed as f64 + 18446744073709551616.0
    } else {
        signed as f64
    }
}

/// Shared body of `VarDecFromR8` / `VarDecFromR4`.
fn convert(src: Source, negative: bool) -> Result<Decimal, DecimalError> {
    if src.exp < -94 {
        return Ok(Decimal::ZERO);
    }
    if src.exp > 96 {
        return Err(DecimalError::Overflow);
    }
    let max_int = double_pow10(src.digits);
    let mut dbl = src.value;
    let mut power = src.digits - 1 - ((src.exp * 19728) >> 16);
    if power >= 0 {
        power = power.min(28);
        dbl *= double_pow10(power);
    } else if power != -1 || dbl >= max_int {
        dbl /= double_pow10(-power);
    } else {
        power = 0;
    }
    if dbl < max_int / 10.0 && power < 28 {
        dbl *= 10.0;
        power += 1;
    }
    let mant = dbl.round_ties_even() as u64;
    if mant == 0 {
        return Ok(Decimal::ZERO);
    }
    if power < 0 {
        let m = u128::from(mant) * 10u128.pow(power.unsigned_abs());
        return Decimal::from_parts(m, 0, negative).ok_or(DecimalError::Overflow);
    }
    let (m, s) = strip_zeros(mant, power as u32, (src.digits - 1) as u32);
    Ok(Decimal::raw(u128::from(m), s, negative))
}

/// Removes up to `min(scale, max_strip)` trailing zeros.
fn strip_zeros(mut m: u64, mut scale: u32, max_strip: u32) -> (u64, u32) {
    let mut budget = scale.min(max_strip);
    while budget > 0 && m.is_multiple_of(10) {
        m /= 10;
        scale -= 1;
        budget -= 1;
    }
    (m, scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(x: f64) -> String {
        Decimal::from_f64(x).map_or_else(|e| e.message().to_string(), |d| d.to_string())
    }

    #[test]
    fn double_to_decimal() {
        let cases: &[(f64, &str)] = &[
            (0.1, "0.1"),
            (1.0, "1"),
            (1.5, "1.5"),
            (100.0, "100"),
            (1.0 / 3.0, "0.333333333333333"),
            (123456789012345678.0, "123456789012346000"),
            (1e-28, "0.0000000000000000000000000001"),
            (1e-30, "0"),
            (-2.5, "-2.5"),
            (f64::NAN, "Value was either too large or too small for a Decimal."),
            (1e29, "Value was either too large or too small for a Decimal."),
        ];
        for &(x, expected) in cases {
            assert_eq!(from(x), expected, "{x}");
        }
        assert_eq!(Decimal::from_f32(0.1f32).map(|d| d.to_string()), Ok("0.1".to_string()));
        assert_eq!(Decimal::from_f32(1.0f32 / 3.0).map(|d| d.to_string()), Ok("0.3333333".to_string()));
    }

    #[test]
    fn decimal_to_double() {
        let third = Decimal::from_literal("0.3333333333333333333333333333").unwrap_or_default();
        assert_eq!(third.to_f64(), 0.33333333333333337);
        assert_eq!(Decimal::from_literal("-0.1").map(|d| d.to_f64()), Ok(-0.1));
        // Oracle (first calls, ReadyToRun code): low 64 bits ≥ 2^63 round twice.
        let d = Decimal::from_bits(3135472837, 2566378124, 0, 65536).unwrap_or_default();
        assert_eq!(d.to_f64().to_bits(), 0x43AE_97F6_E8F2_2D80);
        let d = Decimal::from_bits(1489394258, 2724659814, 0, 22 << 16).unwrap_or_default();
        assert_eq!(d.to_f64().to_bits(), 0x3F53_2C4F_8E9C_C16A);
    }
}
