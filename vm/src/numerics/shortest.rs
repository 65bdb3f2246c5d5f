//! Shortest round-trip digits of `double`/`float` (what `ToString()`, `"R"` and `"G"` print since
//! .NET Core 3.0): the fewest significant digits that parse back to the same value, the closest one
//! when several qualify. Rust's `{:e}` formatting implements this (Grisu with a Dragon fallback,
//! IEEE round-half-even boundaries) except for exact ties between two closest candidates, where
//! .NET's Dragon4 picks the even last digit (`3038188.25f` → `3038188.2`) and Rust rounds up.

use super::float_digits::{decompose_f32, decompose_f64, exact_digits, increment};

/// Digits (no trailing zeros) and scale (`0.d1d2… × 10^scale`) of `|v|`; `v` must be finite and non-zero.
pub(super) fn shortest_f64(v: f64) -> (Vec<u8>, i32) {
    let (d, s) = parse_scientific(&format!("{:e}", v.abs()));
    let (m, e) = decompose_f64(v);
    prefer_even_tie(d, s, m, e, |digits, scale| parse_back(digits, scale).parse::<f64>().ok() == Some(v.abs()))
}

/// Same as [`shortest_f64`] for `float`, using `float`'s own round-trip boundaries.
pub(super) fn shortest_f32(v: f32) -> (Vec<u8>, i32) {
    let (d, s) = parse_scientific(&format!("{:e}", v.abs()));
    let (m, e) = decompose_f32(v);
    prefer_even_tie(d, s, m, e, |digits, scale| parse_back(digits, scale).parse::<f32>().ok() == Some(v.abs()))
}

/// `0.digits e scale` as text for a round-trip check.
fn parse_back(digits: &[u8], scale: i32) -> String {
    format!("0.{}e{}", String::from_utf8_lossy(digits), scale)
}

/// When `mantissa × 2^exp2` lies exactly halfway between two shortest candidates, returns the
/// one with the even last digit (if it also round-trips); otherwise `(digits, scale)` unchanged.
fn prefer_even_tie(digits: Vec<u8>, scale: i32, mantissa: u64, exp2: i32, round_trips: impl Fn(&[u8], i32) -> bool) -> (Vec<u8>, i32) {
    // A tie needs a short exact expansion: only non-integers with at most ~26 binary fraction bits.
    let odd_exp = exp2 + mantissa.trailing_zeros() as i32;
    if mantissa == 0 || !(-26..0).contains(&odd_exp) {
        return (digits, scale);
    }
    let (exact, exact_scale) = exact_digits(mantissa, exp2);
    if exact.len() != digits.len() + 1 || exact.last() != Some(&b'5') {
        return (digits, scale);
    }
    let mut low = exact[..digits.len()].to_vec();
    let low_even = low.last().is_some_and(|d| d % 2 == 0);
    let (mut preferred, preferred_scale) = if low_even {
        (low, exact_scale)
    } else {
        let s = increment(&mut low, exact_scale);
        (low, s)
    };
    while preferred.last() == Some(&b'0') {
        preferred.pop();
    }
    if (preferred.as_slice(), preferred_scale) != (digits.as_slice(), scale) && round_trips(&preferred, preferred_scale) {
        return (preferred, preferred_scale);
    }
    (digits, scale)
}

/// Splits Rust's `d.ddde±x` output into digits and scale.
fn parse_scientific(text: &str) -> (Vec<u8>, i32) {
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    while digits.last() == Some(&b'0') {
        digits.pop();
    }
    let exp: i32 = exponent.parse().unwrap_or(0);
    if digits.is_empty() {
        return (digits, 0);
    }
    (digits, exp + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_table() {
        let cases: &[(f64, &str, i32)] = &[
            (0.1, "1", 0),
            (0.30000000000000004, "30000000000000004", 0),
            (1e23, "1", 24),
            (5e-324, "5", -323),
            (f64::MAX, "17976931348623157", 309),
            (123.456, "123456", 3),
        ];
        for &(v, d, s) in cases {
            assert_eq!(shortest_f64(v), (d.as_bytes().to_vec(), s), "{v}");
        }
        assert_eq!(shortest_f32(1.0f32 / 3.0), (b"33333334".to_vec(), 0));
        assert_eq!(shortest_f32(f32::MAX), (b"34028235".to_vec(), 39));
        // Exact ties go to the even digit, as in .NET (oracle: 3038188.2, 37305.312).
        assert_eq!(shortest_f32(f32::from_bits(0x4A39_6FB1)), (b"30381882".to_vec(), 7));
        assert_eq!(shortest_f32(f32::from_bits(0x4711_B950)), (b"37305312".to_vec(), 5));
    }
}
