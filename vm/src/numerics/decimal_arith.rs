//! `decimal` arithmetic with .NET's exact semantics (`Decimal.DecCalc`): results that do not fit
//! 96 bits / 28 decimal places lose the fewest possible decimal places, rounding half to even;
//! division produces as many digits as fit and then drops trailing zeros it introduced.

use super::bignum::BigUint;
use super::decimal::{Decimal, DecimalError, MAX_MANTISSA, MAX_SCALE};
use super::decimal_mod::remainder;

/// `10^n` as `u128` (`n` ≤ 38).
fn pow10(n: u32) -> u128 {
    10u128.pow(n.min(38))
}

// The C# operators can fail (overflow, division by zero), so they are methods returning
// `Result` rather than `std::ops` implementations.
#[allow(clippy::should_implement_trait)]
impl Decimal {
    /// `a + b`.
    pub fn add(self, other: Decimal) -> Result<Decimal, DecimalError> {
        add_sub(self, other, false)
    }

    /// `a - b`.
    pub fn sub(self, other: Decimal) -> Result<Decimal, DecimalError> {
        add_sub(self, other, true)
    }

    /// `a * b`: exact product, then reduced to 96 bits / scale 28 (half to even).
    pub fn mul(self, other: Decimal) -> Result<Decimal, DecimalError> {
        let negative = self.is_negative() != other.is_negative();
        let scale = self.scale() + other.scale();
        let (a, b) = (self.mantissa(), other.mantissa());
        if a <= u128::from(u32::MAX) && b <= u128::from(u32::MAX) {
            return Ok(mul_small(a * b, scale, negative));
        }
        let product = a.checked_mul(b).map_or_else(|| big_product(a, b), BigUint::from_u128);
        if product.is_zero() {
            return Ok(Decimal::ZERO);
        }
        match product.to_u128() {
            Some(p) if p <= MAX_MANTISSA && scale <= MAX_SCALE => Ok(Decimal::raw(p, scale, negative)),
            _ => scale_result(&product, scale).map(|(m, s)| Decimal::raw(m, s, negative)),
        }
    }

    /// `a / b`.
    pub fn div(self, other: Decimal) -> Result<Decimal, DecimalError> {
        if other.is_zero() {
            return Err(DecimalError::DivideByZero);
        }
        let negative = self.is_negative() != other.is_negative();
        let (q, scale) = divide(self.mantissa(), other.mantissa(), self.scale() as i32 - other.scale() as i32)?;
        Ok(Decimal::raw(q, scale, negative))
    }

    /// `a % b`: the remainder with the sign of `a` and the larger of the two scales (computed
    /// like .NET 8, see `decimal_mod.rs`).
    pub fn rem(self, other: Decimal) -> Result<Decimal, DecimalError> {
        if other.is_zero() {
            return Err(DecimalError::DivideByZero);
        }
        if self.is_zero() {
            return Ok(self);
        }
        match self.abs().cmp(&other.abs()) {
            std::cmp::Ordering::Less => Ok(self),
            std::cmp::Ordering::Equal => Ok(Decimal::raw(0, self.scale().max(other.scale()), self.is_negative())),
            std::cmp::Ordering::Greater => Ok(remainder(self, other)),
        }
    }
}

/// Product of two 32-bit mantissas (.NET's fast path, including its zero result without scale
/// when more than 47 decimal places would be needed).
fn mul_small(product: u128, scale: u32, negative: bool) -> Decimal {
    if scale <= MAX_SCALE {
        return Decimal::raw(product, scale, negative);
    }
    if scale > MAX_SCALE + 19 {
        return Decimal::ZERO;
    }
    let q = div_pow10_half_even_u128(product, scale - MAX_SCALE);
    Decimal::raw(q, MAX_SCALE, negative)
}

/// Full product of two mantissas that overflows `u128`, one 32-bit limb of `b` at a time.
fn big_product(a: u128, b: u128) -> BigUint {
    let base = BigUint::from_u128(a);
    let mut acc = BigUint::default();
    for i in 0..4 {
        let limb = (b >> (32 * i)) as u32;
        if limb != 0 {
            let mut part = base.clone();
            part.mul_small(limb);
            part.shl(32 * i);
            acc.add(&part);
        }
    }
    acc
}

/// `x / 10^k` rounded half to even (`k` ≤ 38).
fn div_pow10_half_even_u128(x: u128, k: u32) -> u128 {
    let p = pow10(k);
    let (q, r) = (x / p, x % p);
    let twice = r * 2;
    if twice > p || (twice == p && q & 1 == 1) {
        q + 1
    } else {
        q
    }
}

/// `x / 10^k` rounded half to even, for wide values.
fn div_pow10_half_even(x: &BigUint, mut k: u32) -> BigUint {
    let mut q = x.clone();
    let mut sticky = false;
    let mut last = (0u32, 1u32);
    while k > 0 {
        let step = k.min(9);
        let p = 10u32.pow(step);
        let r = q.divrem_small(p);
        k -= step;
        if k > 0 {
            sticky |= r != 0;
        } else {
            last = (r, p);
        }
    }
    let (r, p) = last;
    let twice = u64::from(r) * 2;
    if twice > u64::from(p) || (twice == u64::from(p) && (sticky || q.is_odd())) {
        q.add_small(1);
    }
    q
}

/// .NET's `ScaleResult`: drops the fewest decimal places (at least `scale - 28`) that make the
/// half-to-even rounded value fit 96 bits; `Overflow` when even scale 0 does not fit.
pub(super) fn scale_result(x: &BigUint, scale: u32) -> Result<(u128, u32), DecimalError> {
    let mut k = scale.saturating_sub(MAX_SCALE);
    let bits = x.bit_len();
    if bits > 96 {
        k = k.max((((bits - 97) * 77) >> 8) + 1);
    }
    loop {
        if k > scale {
            return Err(DecimalError::Overflow);
        }
        let q = div_pow10_half_even(x, k);
        if let Some(v) = q.to_u128().filter(|&v| v <= MAX_MANTISSA) {
            return Ok((v, scale - k));
        }
        k += 1;
    }
}

/// Aligns scales, adds or subtracts exactly, and scales the result back into range.
fn add_sub(a: Decimal, b: Decimal, subtract: bool) -> Result<Decimal, DecimalError> {
    let b_negative = b.is_negative() != subtract;
    let (sa, sb) = (a.scale(), b.scale());
    let scale = sa.max(sb);
    let zero_sign = if sa <= sb { a.is_negative() } else { b_negative };
    let ma = scaled(a.mantissa(), scale - sa);
    let mb = scaled(b.mantissa(), scale - sb);
    let (magnitude, negative) = if a.is_negative() == b_negative {
        let mut sum = ma;
        sum.add(&mb);
        (sum, a.is_negative())
    } else if ma.cmp_big(&mb) != std::cmp::Ordering::Less {
        let mut diff = ma;
        diff.sub(&mb);
        (diff, a.is_negative())
    } else {
        let mut diff = mb;
        diff.sub(&ma);
        (diff, b_negative)
    };
    if magnitude.is_zero() {
        return Ok(Decimal::raw(0, scale, zero_sign));
    }
    match magnitude.to_u128() {
        Some(m) if m <= MAX_MANTISSA => Ok(Decimal::raw(m, scale, negative)),
        _ => scale_result(&magnitude, scale).map(|(m, s)| Decimal::raw(m, s, negative)),
    }
}

/// `m × 10^k` as a wide integer.
fn scaled(m: u128, k: u32) -> BigUint {
    let mut x = BigUint::from_u128(m);
    x.mul_pow10(k);
    x
}

/// Largest power of ten (≤ 9, and not past scale 28) the quotient can be multiplied by while
/// staying within 96 bits (.NET's `SearchScale`, including its overflow check).
fn search_scale(q: u128, scale: i32) -> Result<u32, DecimalError> {
    let limit = if scale > MAX_SCALE as i32 - 9 { (MAX_SCALE as i32 - scale).max(0) as u32 } else { 9 };
    let mut k = 0;
    while k < limit && q * pow10(k + 1) <= MAX_MANTISSA {
        k += 1;
    }
    if k == 9 {
        return Ok(9);
    }
    if k as i32 + scale < 0 {
        return Err(DecimalError::Overflow);
    }
    Ok(k)
}

/// The quotient overflowed 96 bits: drop one decimal place, rounding half to even with `sticky`.
fn overflow_unscale(q: u128, scale: i32, sticky: bool) -> Result<(u128, i32), DecimalError> {
    if scale < 1 {
        return Err(DecimalError::Overflow);
    }
    let (mut q2, rem) = (q / 10, q % 10);
    if rem > 5 || (rem == 5 && (sticky || q2 & 1 == 1)) {
        q2 += 1;
    }
    Ok((q2, scale - 1))
}

/// .NET's `VarDecDiv` on mantissas: returns the quotient mantissa and its scale.
fn divide(num: u128, den: u128, mut scale: i32) -> Result<(u128, u32), DecimalError> {
    let mut q = num / den;
    let mut r = num % den;
    let mut unscale = false;
    loop {
        if r == 0 {
            if scale < 0 {
                let k = (-scale).min(9) as u32;
                q *= pow10(k);
                if q > MAX_MANTISSA {
                    return Err(DecimalError::Overflow);
                }
                scale += k as i32;
                continue;
            }
            break;
        }
        unscale = true;
        let k = if scale == MAX_SCALE as i32 { 0 } else { search_scale(q, scale)? };
        if k == 0 {
            let twice = r * 2;
            if twice > den || (twice == den && q & 1 == 1) {
                q += 1;
                if q > MAX_MANTISSA {
                    (q, scale) = overflow_unscale(q, scale, true)?;
                }
            }
            break;
        }
        let p = pow10(k);
        scale += k as i32;
        q *= p;
        let wide = r * p;
        q += wide / den;
        r = wide % den;
        if q > MAX_MANTISSA {
            (q, scale) = overflow_unscale(q, scale, r != 0)?;
            break;
        }
    }
    let mut scale = scale.max(0) as u32;
    if unscale {
        while scale > 0 && q.is_multiple_of(10) {
            q /= 10;
            scale -= 1;
        }
    }
    Ok((q, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_literal(s).unwrap_or_default()
    }

    fn show(r: Result<Decimal, DecimalError>) -> String {
        r.map_or_else(|e| e.message().to_string(), |v| v.to_string())
    }

    #[test]
    fn brief_examples() {
        assert_eq!(show(d("10").div(d("3"))), "3.3333333333333333333333333333");
        assert_eq!(show(d("1").div(d("3")).and_then(|x| x.mul(d("3")))), "0.9999999999999999999999999999");
        assert_eq!(show(d("1.50").add(d("1.5"))), "3.00");
        assert_eq!(show(d("1").div(d("0"))), "Attempted to divide by zero.");
        assert_eq!(show(Decimal::MAX.mul(d("2"))), "Value was either too large or too small for a Decimal.");
        assert_eq!(show(d("1").div(d("8"))), "0.125");
        assert_eq!(show(d("1.00").div(d("1"))), "1.00");
        assert_eq!(show(d("1").div(d("0.01"))), "100");
        assert_eq!(show(d("2").div(d("3"))), "0.6666666666666666666666666667");
        assert_eq!(show(d("7.5").rem(d("2"))), "1.5");
        assert_eq!(show(d("-7").rem(d("2.00"))), "-1.00");
    }
}
