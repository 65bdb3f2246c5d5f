//! `decimal` rounding: `Math.Round(d, decimals, mode)`, `decimal.Floor`, `Ceiling` and `Truncate`
//! (.NET's `DecCalc.InternalRound`: drop decimal places, then adjust the last digit by the mode).

use super::decimal::{Decimal, DecimalError};
use super::MidpointRounding;

impl Decimal {
    /// `Math.Round(d, decimals, mode)`: at most `decimals` (0..=28) decimal places. A value with
    /// fewer places is returned unchanged (`Math.Round(1.5m, 3)` is `1.5`).
    pub fn round(self, decimals: i32, mode: MidpointRounding) -> Result<Decimal, DecimalError> {
        if !(0..=28).contains(&decimals) {
            return Err(DecimalError::RoundingDigitsOutOfRange);
        }
        let drop = self.scale() as i32 - decimals;
        if drop <= 0 {
            return Ok(self);
        }
        Ok(round_places(self, drop as u32, mode))
    }

    /// `decimal.Floor(d)`: toward negative infinity, scale 0.
    pub fn floor(self) -> Decimal {
        round_places(self, self.scale(), MidpointRounding::ToNegativeInfinity)
    }

    /// `decimal.Ceiling(d)`: toward positive infinity, scale 0.
    pub fn ceiling(self) -> Decimal {
        round_places(self, self.scale(), MidpointRounding::ToPositiveInfinity)
    }

    /// `decimal.Truncate(d)`: toward zero, scale 0.
    pub fn truncate(self) -> Decimal {
        round_places(self, self.scale(), MidpointRounding::ToZero)
    }
}

/// Removes `places` decimal places, rounding by `mode`; the sign is kept even when the result is 0.
fn round_places(d: Decimal, places: u32, mode: MidpointRounding) -> Decimal {
    if places == 0 {
        return d;
    }
    let p = 10u128.pow(places.min(28));
    let (q, r) = (d.mantissa() / p, d.mantissa() % p);
    let twice = r * 2;
    let up = match mode {
        MidpointRounding::ToEven => twice > p || (twice == p && q & 1 == 1),
        MidpointRounding::AwayFromZero => twice >= p,
        MidpointRounding::ToZero => false,
        MidpointRounding::ToNegativeInfinity => r != 0 && d.is_negative(),
        MidpointRounding::ToPositiveInfinity => r != 0 && !d.is_negative(),
    };
    Decimal::raw(q + u128::from(up), d.scale() - places, d.is_negative())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_literal(s).unwrap_or_default()
    }

    #[test]
    fn rounding_table() {
        let cases: &[(&str, i32, MidpointRounding, &str)] = &[
            ("2.5", 0, MidpointRounding::ToEven, "2"),
            ("3.5", 0, MidpointRounding::ToEven, "4"),
            ("2.5", 0, MidpointRounding::AwayFromZero, "3"),
            ("-2.5", 0, MidpointRounding::AwayFromZero, "-3"),
            ("1.50", 1, MidpointRounding::ToEven, "1.5"),
            ("1.5", 3, MidpointRounding::ToEven, "1.5"),
            ("2.675", 2, MidpointRounding::ToEven, "2.68"),
            ("-0.4", 0, MidpointRounding::ToEven, "0"),
        ];
        for &(v, digits, mode, expected) in cases {
            assert_eq!(d(v).round(digits, mode).map(|x| x.to_string()), Ok(expected.to_string()), "{v} {digits}");
        }
        assert_eq!(d("1").round(29, MidpointRounding::ToEven), Err(DecimalError::RoundingDigitsOutOfRange));
        assert_eq!(d("-1.5").floor().to_string(), "-2");
        assert_eq!(d("-1.5").ceiling().to_string(), "-1");
        assert_eq!(d("1.99").truncate().to_string(), "1");
        assert_eq!(d("1.50").floor().to_string(), "1");
    }
}
