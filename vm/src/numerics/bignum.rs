//! A small arbitrary-precision unsigned integer (base 2^32 limbs) for exact decimal expansions of
//! binary floating-point values and for the wide intermediates of `decimal` arithmetic.

use std::cmp::Ordering;

/// Unsigned integer, little-endian base-2^32 limbs, never with high zero limbs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct BigUint {
    limbs: Vec<u32>,
}

/// 10^9, the largest power of ten that fits a limb; used for chunked decimal conversions.
pub(super) const TEN_POW_9: u32 = 1_000_000_000;

/// `10^n` for `n` in `0..=9`.
pub(super) fn pow10_u32(n: u32) -> u32 {
    10u32.pow(n.min(9))
}

impl BigUint {
    /// The value of a `u128`.
    pub(super) fn from_u128(mut v: u128) -> Self {
        let mut limbs = Vec::with_capacity(4);
        while v != 0 {
            limbs.push(v as u32);
            v >>= 32;
        }
        BigUint { limbs }
    }

    /// True for zero.
    pub(super) fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The value as a `u128`, if it fits.
    pub(super) fn to_u128(&self) -> Option<u128> {
        if self.limbs.len() > 4 {
            return None;
        }
        Some(self.limbs.iter().rev().fold(0u128, |acc, &l| (acc << 32) | u128::from(l)))
    }

    /// Number of significant bits (0 for zero).
    pub(super) fn bit_len(&self) -> u32 {
        match self.limbs.last() {
            None => 0,
            Some(&top) => (self.limbs.len() as u32 - 1) * 32 + (32 - top.leading_zeros()),
        }
    }

    /// True when the lowest bit is set.
    pub(super) fn is_odd(&self) -> bool {
        self.limbs.first().is_some_and(|l| l & 1 == 1)
    }

    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// `self *= m`.
    pub(super) fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.limbs {
            let t = u64::from(*limb) * u64::from(m) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
        self.trim();
    }

    /// `self += a`.
    pub(super) fn add_small(&mut self, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.limbs {
            if carry == 0 {
                return;
            }
            let t = u64::from(*limb) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// `self *= 10^n`.
    pub(super) fn mul_pow10(&mut self, mut n: u32) {
        while n > 0 {
            let step = n.min(9);
            self.mul_small(pow10_u32(step));
            n -= step;
        }
    }

    /// `self *= 5^n`.
    pub(super) fn mul_pow5(&mut self, mut n: u32) {
        // 5^13 is the largest power of five below 2^32.
        while n > 0 {
            let step = n.min(13);
            self.mul_small(5u32.pow(step));
            n -= step;
        }
    }

    /// `self <<= bits`.
    pub(super) fn shl(&mut self, bits: u32) {
        if self.is_zero() {
            return;
        }
        let words = (bits / 32) as usize;
        let rem = bits % 32;
        if rem != 0 {
            let mut carry = 0u32;
            for limb in &mut self.limbs {
                let next = *limb >> (32 - rem);
                *limb = (*limb << rem) | carry;
                carry = next;
            }
            if carry != 0 {
                self.limbs.push(carry);
            }
        }
        if words > 0 {
            let mut shifted = vec![0u32; words];
            shifted.append(&mut self.limbs);
            self.limbs = shifted;
        }
    }

    /// `self /= d`, returning the remainder (`d` must not be 0; 0 is treated as 1).
    pub(super) fn divrem_small(&mut self, d: u32) -> u32 {
        let d = u64::from(d.max(1));
        let mut rem = 0u64;
        for limb in self.limbs.iter_mut().rev() {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / d) as u32;
            rem = cur % d;
        }
        self.trim();
        rem as u32
    }

    /// `self += other`.
    pub(super) fn add(&mut self, other: &BigUint) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u64;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let o = other.limbs.get(i).copied().unwrap_or(0);
            let t = u64::from(*limb) + u64::from(o) + carry;
            *limb = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// `self -= other`, saturating at zero when `other > self`.
    pub(super) fn sub(&mut self, other: &BigUint) {
        if self.cmp_big(other) != Ordering::Greater {
            self.limbs.clear();
            return;
        }
        let mut borrow = 0i64;
        for (i, limb) in self.limbs.iter_mut().enumerate() {
            let o = i64::from(other.limbs.get(i).copied().unwrap_or(0));
            let mut t = i64::from(*limb) - o - borrow;
            borrow = 0;
            if t < 0 {
                t += 1 << 32;
                borrow = 1;
            }
            *limb = t as u32;
        }
        self.trim();
    }

    /// Numeric comparison.
    pub(super) fn cmp_big(&self, other: &BigUint) -> Ordering {
        self.limbs.len().cmp(&other.limbs.len()).then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }

    /// Decimal digits as ASCII bytes, most significant first (empty for zero).
    pub(super) fn to_decimal_digits(&self) -> Vec<u8> {
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.is_zero() {
            chunks.push(n.divrem_small(TEN_POW_9));
        }
        let mut out = Vec::with_capacity(chunks.len() * 9);
        for (i, chunk) in chunks.iter().rev().enumerate() {
            if i == 0 {
                out.extend_from_slice(chunk.to_string().as_bytes());
            } else {
                out.extend_from_slice(format!("{chunk:09}").as_bytes());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_round_trips_through_u128() {
        let mut a = BigUint::from_u128(123_456_789_012_345_678_901_234_567);
        a.mul_pow10(3);
        assert_eq!(a.to_u128(), Some(123_456_789_012_345_678_901_234_567_000));
        assert_eq!(a.divrem_small(1000), 0);
        a.add_small(5);
        assert_eq!(a.to_u128(), Some(123_456_789_012_345_678_901_234_572));
        let b = BigUint::from_u128(72);
        a.sub(&b);
        assert_eq!(a.to_u128(), Some(123_456_789_012_345_678_901_234_500));
    }

    #[test]
    fn decimal_digits_of_powers() {
        let mut five = BigUint::from_u128(1);
        five.mul_pow5(30);
        assert_eq!(five.to_decimal_digits(), 5u128.pow(30).to_string().into_bytes());
        let mut two = BigUint::from_u128(1);
        two.shl(100);
        assert_eq!(two.to_decimal_digits(), (1u128 << 100).to_string().into_bytes());
        assert_eq!(two.bit_len(), 101);
        assert!(BigUint::default().to_decimal_digits().is_empty());
    }
}
