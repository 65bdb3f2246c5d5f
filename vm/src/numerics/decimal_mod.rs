//! `decimal % decimal` exactly as .NET 8's `DecCalc.VarDecMod` computes it, including its
//! word-level long division (`VarDecModFull`). When the dividend has to be scaled up by many
//! powers of ten for a divisor of 64+ bits, a partial remainder can have its top word equal to
//! the divisor's, and .NET 8's 64/32-bit quotient estimate silently truncates: the result is
//! then not the true remainder (e.g. `18446744073709551616m % 0.6666666666666666666666666667m`
//! is 0.2918354409473051054800109568 on .NET 8). This file reproduces that arithmetic.

use super::decimal::{Decimal, MAX_MANTISSA};

const POW10_U32: [u32; 10] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000];

/// `|a| % |b|` with the sign of `a`, for `|a| > |b| > 0` (the trivial cases are handled by the caller).
pub(super) fn remainder(a: Decimal, b: Decimal) -> Decimal {
    let (sa, sb) = (a.scale() as i32, b.scale() as i32);
    let mut d1 = a.mantissa();
    let mut d2 = b.mantissa();
    let mut scale = sa - sb;
    let mut result_scale = sa;
    if scale > 0 {
        // The divisor can always be brought to the dividend's scale.
        d2 *= 10u128.pow(scale as u32);
        scale = 0;
    }
    loop {
        if scale < 0 {
            result_scale = sb;
            (d1, scale) = scale_up_dividend(d1, scale);
        }
        if d1 >> 64 == 0 {
            return Decimal::raw(d1 % d2, result_scale as u32, a.is_negative());
        }
        if d2 >> 32 == 0 {
            d1 %= d2;
        } else {
            return Decimal::raw(mod_full(d1, d2, scale), result_scale as u32, a.is_negative());
        }
        if scale >= 0 {
            return Decimal::raw(d1, result_scale as u32, a.is_negative());
        }
    }
}

/// Multiplies the dividend by the largest powers of ten (9 at a time) that keep it within 96
/// bits, without passing scale 0.
fn scale_up_dividend(mut q: u128, mut scale: i32) -> (u128, i32) {
    loop {
        let limit = (-scale).clamp(0, 9) as u32;
        let mut k = 0;
        while k < limit && q * u128::from(POW10_U32[k as usize + 1]) <= MAX_MANTISSA {
            k += 1;
        }
        if k == 0 {
            return (q, scale);
        }
        q *= u128::from(POW10_U32[k as usize]);
        scale += k as i32;
        if k != 9 || scale >= 0 {
            return (q, scale);
        }
    }
}

/// .NET's `VarDecModFull`: `(d1 × 10^-scale) mod d2` by normalized word-level long division.
fn mod_full(d1: u128, d2: u128, mut scale: i32) -> u128 {
    let d2_high = (d2 >> 64) as u32;
    let d2_mid = (d2 >> 32) as u32;
    let shift = if d2_high != 0 { d2_high } else { d2_mid }.leading_zeros();
    let mut b = [0u32; 7];
    let low64 = (d1 as u64) << shift;
    let mid64 = ((d1 >> 32) as u32 as u64 | (((d1 >> 64) as u32 as u64) << 32)) >> (32 - shift);
    b[0] = low64 as u32;
    b[1] = (low64 >> 32) as u32;
    b[2] = mid64 as u32;
    b[3] = (mid64 >> 32) as u32;
    let mut high = 3usize;
    while scale < 0 {
        let power = if scale <= -9 { POW10_U32[9] } else { POW10_U32[(-scale) as usize] };
        let mut t = u64::from(b[0]) * u64::from(power);
        b[0] = t as u32;
        for word in b.iter_mut().take(high + 1).skip(1) {
            t >>= 32;
            t += u64::from(*word) * u64::from(power);
            *word = t as u32;
        }
        if t > i32::MAX as u64 && high + 1 < b.len() {
            high += 1;
            b[high] = (t >> 32) as u32;
        }
        scale += 9;
    }
    if d2_high == 0 {
        let divisor = (d2 as u64) << shift;
        for off in (0..=high.saturating_sub(2)).rev() {
            div96_by_64(&mut b, off, divisor);
        }
        return u128::from(words64(&b, 0) >> shift);
    }
    let dlow = (d2 as u64) << shift;
    let den = [dlow as u32, (dlow >> 32) as u32, ((d2_mid as u64 | ((d2_high as u64) << 32)) >> (32 - shift)) as u32];
    for off in (0..=high.saturating_sub(3)).rev() {
        div128_by_96(&mut b, off, &den);
    }
    let low = (words64(&b, 0) >> shift).wrapping_add((u64::from(b[2]) << (32 - shift)) << 32);
    u128::from(low) | (u128::from(b[2] >> shift) << 64)
}

fn words64(b: &[u32; 7], off: usize) -> u64 {
    u64::from(b[off]) | (u64::from(b[off + 1]) << 32)
}

fn set_words64(b: &mut [u32; 7], off: usize, v: u64) {
    b[off] = v as u32;
    b[off + 1] = (v >> 32) as u32;
}

/// .NET's `Div128By96` on the window `b[off..off + 4]`: the remainder replaces the low 96 bits.
/// The quotient estimate is truncated to 32 bits, as in .NET 8.
fn div128_by_96(b: &mut [u32; 7], off: usize, den: &[u32; 3]) {
    let dividend = words64(b, off + 2);
    let d = den[2];
    if dividend < u64::from(d) {
        return;
    }
    let mut quo = (dividend / u64::from(d)) as u32;
    let mut remainder = (dividend - u64::from(quo) * u64::from(d)) as u32;
    let den_low = u64::from(den[0]) | (u64::from(den[1]) << 32);
    let product = u128::from(den_low) * u128::from(quo);
    let prod1 = product as u64;
    let prod2 = (product >> 64) as u32;
    let mut num = words64(b, off).wrapping_sub(prod1);
    remainder = remainder.wrapping_sub(prod2);
    let positive = if num > !prod1 {
        remainder = remainder.wrapping_sub(1);
        remainder < !prod2
    } else {
        remainder <= !prod2
    };
    if !positive {
        loop {
            quo = quo.wrapping_sub(1);
            num = num.wrapping_add(den_low);
            remainder = remainder.wrapping_add(d);
            if num < den_low {
                let before = remainder;
                remainder = remainder.wrapping_add(1);
                if before < d {
                    break;
                }
            }
            if remainder < d {
                break;
            }
        }
    }
    let _ = quo;
    set_words64(b, off, num);
    b[off + 2] = remainder;
}

/// .NET's `Div96By64` (software path) on the window `b[off..off + 3]`: the remainder replaces the low 64 bits.
fn div96_by_64(b: &mut [u32; 7], off: usize, den: u64) {
    let num2 = b[off + 2];
    if num2 == 0 {
        let num = words64(b, off);
        if num >= den {
            set_words64(b, off, num - (num / den) * den);
        }
        return;
    }
    let den_high = (den >> 32) as u32;
    if num2 >= den_high {
        let mut num = words64(b, off).wrapping_sub(den << 32);
        loop {
            num = num.wrapping_add(den);
            if num < den {
                break;
            }
        }
        set_words64(b, off, num);
        return;
    }
    let num64 = words64(b, off + 1);
    if num64 < u64::from(den_high) {
        return;
    }
    let quo = (num64 / u64::from(den_high)) as u32;
    let mut num = u64::from(b[off]) | ((num64 - u64::from(quo) * u64::from(den_high)) << 32);
    let prod = u64::from(quo) * u64::from(den as u32);
    num = num.wrapping_sub(prod);
    if num > !prod {
        loop {
            num = num.wrapping_add(den);
            if num < den {
                break;
            }
        }
    }
    set_words64(b, off, num);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(bits: [u32; 4]) -> Decimal {
        Decimal::from_bits(bits[0], bits[1], bits[2], bits[3]).unwrap_or_default()
    }

    #[test]
    fn reproduces_dotnet_word_level_results() {
        // Oracle (.NET 8.0.4): 2^64m % 0.6666666666666666666666666667m and MaxValue % the same.
        let two_thirds = d([178956971, 695075222, 361400724, 1835008]);
        let r = remainder(d([0, 0, 1, 0]), two_thirds);
        assert_eq!(r.to_bits(), [0, 2326440619, 158204309, 1835008]);
        let r = remainder(d([u32::MAX, u32::MAX, u32::MAX, 0]), two_thirds);
        assert_eq!(r.to_bits(), [894422414, 904634263, 189237381, 1835008]);
        // Ordinary cases are exact.
        let r = remainder(d([75, 0, 0, 0x0001_0000]), d([2, 0, 0, 0]));
        assert_eq!(r.to_string(), "1.5");
    }
}
