//! Exact decimal digits of `float`/`double` values, rounded half-to-even at a digit position: what
//! .NET Core 3.0+ (Dragon4 / Grisu3) produces for standard formats with a precision, so that
//! `(2.5).ToString("F0")` is `2`, `(1.005).ToString("F2")` is `1.00` and `(0.1).ToString("F20")`
//! shows the binary value's real digits.

use super::bignum::BigUint;

/// `|v|` as `mantissa × 2^exponent` (subnormals included).
pub(super) fn decompose_f64(v: f64) -> (u64, i32) {
    let bits = v.to_bits();
    let fraction = bits & ((1u64 << 52) - 1);
    let biased = ((bits >> 52) & 0x7FF) as i32;
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased - 1075)
    }
}

/// `|v|` as `mantissa × 2^exponent` (subnormals included).
pub(super) fn decompose_f32(v: f32) -> (u64, i32) {
    let bits = v.to_bits();
    let fraction = u64::from(bits & ((1u32 << 23) - 1));
    let biased = ((bits >> 23) & 0xFF) as i32;
    if biased == 0 {
        (fraction, -149)
    } else {
        (fraction | (1u64 << 23), biased - 150)
    }
}

/// All decimal digits of `mantissa × 2^exp2` (no trailing zeros) and the scale `s` such that the
/// value is `0.d1d2… × 10^s`. Zero gives no digits.
pub(super) fn exact_digits(mantissa: u64, exp2: i32) -> (Vec<u8>, i32) {
    let mut n = BigUint::from_u128(u128::from(mantissa));
    let mut shift = 0i32;
    if exp2 >= 0 {
        n.shl(exp2.unsigned_abs());
    } else {
        // m / 2^k = m × 5^k / 10^k
        n.mul_pow5(exp2.unsigned_abs());
        shift = exp2;
    }
    let mut digits = n.to_decimal_digits();
    let scale = digits.len() as i32 + shift;
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    (digits, scale)
}

/// Keeps the first `count` digits of an exact digit string, rounding half to even (exact ties only
/// happen when nothing follows the first dropped `5`). `count <= 0` can still round up to a single
/// `1` one position above the first digit. Returns digits without trailing zeros.
pub(super) fn round_half_even(mut digits: Vec<u8>, scale: i32, count: i64) -> (Vec<u8>, i32) {
    if count >= digits.len() as i64 {
        return (digits, scale);
    }
    if count < 0 {
        return (Vec::new(), 0);
    }
    let count = count as usize;
    let next = digits[count];
    let tail_nonzero = digits.len() > count + 1;
    let last_odd = count > 0 && (digits[count - 1] - b'0') % 2 == 1;
    let up = next > b'5' || (next == b'5' && (tail_nonzero || last_odd));
    digits.truncate(count);
    let mut scale = scale;
    if up {
        scale = increment(&mut digits, scale);
    }
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    if digits.is_empty() {
        scale = 0;
    }
    (digits, scale)
}

/// Adds one unit in the last place, carrying through nines; returns the new scale.
pub(super) fn increment(digits: &mut Vec<u8>, scale: i32) -> i32 {
    while let Some(&last) = digits.last() {
        if last == b'9' {
            digits.pop();
        } else {
            if let Some(l) = digits.last_mut() {
                *l += 1;
            }
            return scale;
        }
    }
    digits.push(b'1');
    scale + 1
}

/// Digits of `mantissa × 2^exp2` rounded to `precision` significant digits (`significant`) or to
/// `precision` digits after the decimal point.
pub(super) fn rounded_digits(mantissa: u64, exp2: i32, precision: i32, significant: bool) -> (Vec<u8>, i32) {
    let (digits, scale) = exact_digits(mantissa, exp2);
    if digits.is_empty() {
        return (digits, 0);
    }
    let count = if significant { i64::from(precision) } else { i64::from(scale) + i64::from(precision) };
    round_half_even(digits, scale, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits_f64(v: f64, precision: i32, significant: bool) -> (String, i32) {
        let (m, e) = decompose_f64(v);
        let (d, s) = rounded_digits(m, e, precision, significant);
        (String::from_utf8(d).unwrap_or_default(), s)
    }

    #[test]
    fn exact_expansions() {
        let (d, s) = exact_digits(1, -1);
        assert_eq!((d.as_slice(), s), (&b"5"[..], 0));
        let (m, e) = decompose_f64(0.1);
        let (d, s) = exact_digits(m, e);
        assert_eq!(s, 0);
        assert_eq!(&d[..20], b"10000000000000000555");
        assert_eq!(d.len(), 55);
        let (m, e) = decompose_f64(f64::from_bits(1));
        assert_eq!((m, e), (1, -1074));
        assert_eq!(exact_digits(m, e).1, -323);
    }

    #[test]
    fn rounding_ties_to_even() {
        let cases: &[(f64, i32, bool, &str, i32)] = &[
            (2.5, 0, false, "2", 1),
            (3.5, 0, false, "4", 1),
            (0.5, 0, false, "", 0),
            (0.125, 2, false, "12", 0),
            (0.375, 2, false, "38", 0),
            (1.005, 2, false, "1", 1),
            (0.96, 0, false, "1", 1),
            (0.06, 0, false, "", 0),
            (9.995, 2, false, "999", 1),
            (2.5, 1, true, "2", 1),
            (123456.0, 3, true, "123", 6),
            (999.9, 3, true, "1", 4),
        ];
        for &(v, p, sig, d, s) in cases {
            assert_eq!(digits_f64(v, p, sig), (d.to_string(), s), "{v} {p} {sig}");
        }
    }
}
