//! Fast paths for integral types: `D`/default decimal, `X` hexadecimal and `B` binary (.NET 8),
//! each left-padded with zeros to the requested precision.

/// Decimal digits of `magnitude`, zero-padded to `min_digits`, preceded by `negative_sign` when negative.
pub(super) fn decimal_string(negative: bool, magnitude: u128, min_digits: i32, negative_sign: &str) -> String {
    let digits = magnitude.to_string();
    let mut out = String::with_capacity(digits.len().max(pad_width(min_digits)) + negative_sign.len());
    if negative {
        out.push_str(negative_sign);
    }
    push_padded(&mut out, &digits, min_digits);
    out
}

/// Hexadecimal digits of the two's-complement `bits` (already masked to the type's width).
pub(super) fn hex_string(bits: u128, upper: bool, min_digits: i32) -> String {
    let digits = if upper { format!("{bits:X}") } else { format!("{bits:x}") };
    let mut out = String::new();
    push_padded(&mut out, &digits, min_digits);
    out
}

/// Binary digits of the two's-complement `bits` (already masked to the type's width).
pub(super) fn binary_string(bits: u128, min_digits: i32) -> String {
    let digits = format!("{bits:b}");
    let mut out = String::new();
    push_padded(&mut out, &digits, min_digits);
    out
}

fn pad_width(min_digits: i32) -> usize {
    usize::try_from(min_digits).unwrap_or(0)
}

fn push_padded(out: &mut String, digits: &str, min_digits: i32) {
    let width = pad_width(min_digits);
    if width > digits.len() {
        out.reserve(width);
        out.extend(std::iter::repeat_n('0', width - digits.len()));
    }
    out.push_str(digits);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_fast_paths() {
        assert_eq!(decimal_string(true, 5, 3, "-"), "-005");
        assert_eq!(decimal_string(false, 0, -1, "-"), "0");
        assert_eq!(decimal_string(true, 42, 8, "\u{2212}"), "\u{2212}00000042");
        assert_eq!(hex_string(0xFFFF_FFD6, true, -1), "FFFFFFD6");
        assert_eq!(hex_string(255, false, 4), "00ff");
        assert_eq!(binary_string(42, 8), "00101010");
        assert_eq!(binary_string(0, 0), "0");
    }
}
