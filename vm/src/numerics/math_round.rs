//! `Math.Round(double, digits, MidpointRounding)` as .NET 8 implements it: scale by `10^digits`
//! in double arithmetic, round, scale back (so `Math.Round(2.675, 2)` is 2.68 because 2.675 × 100
//! rounds to exactly 267.5, while `Math.Round(0.285, 2)` is 0.28). Magnitudes ≥ 1e16 are returned unchanged.

use super::MidpointRounding;

/// `Math.roundPower10Double`.
const ROUND_POWER_10: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// Why `Math.Round` rejected its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundError {
    /// `digits` outside 0..=15: `System.ArgumentOutOfRangeException`.
    DigitsOutOfRange,
}

impl RoundError {
    /// The exception message .NET 8 prints.
    pub fn message(&self) -> &'static str {
        "Rounding digits must be between 0 and 15, inclusive. (Parameter 'digits')"
    }
}

/// `Math.Round(x, digits, mode)`; `digits` is clamped to 0..=15 (see [`checked_round_double`]).
pub fn round_double(x: f64, digits: i32, mode: MidpointRounding) -> f64 {
    let digits = digits.clamp(0, 15);
    if x.abs() >= 1e16 || x.is_nan() {
        return x;
    }
    let power = ROUND_POWER_10[digits as usize];
    let scaled = x * power;
    let rounded = match mode {
        MidpointRounding::ToEven => scaled.round_ties_even(),
        MidpointRounding::AwayFromZero => away_from_zero(scaled),
        MidpointRounding::ToZero => scaled.trunc(),
        MidpointRounding::ToNegativeInfinity => scaled.floor(),
        MidpointRounding::ToPositiveInfinity => scaled.ceil(),
    };
    rounded / power
}

/// `Math.Round(x, digits, mode)` with .NET's argument check.
pub fn checked_round_double(x: f64, digits: i32, mode: MidpointRounding) -> Result<f64, RoundError> {
    if !(0..=15).contains(&digits) {
        return Err(RoundError::DigitsOutOfRange);
    }
    Ok(round_double(x, digits, mode))
}

/// Integer part plus one when the fraction's magnitude is at least 0.5 (`ModF` + `Sign`).
fn away_from_zero(v: f64) -> f64 {
    let int_part = v.trunc();
    let fraction = v - int_part;
    if fraction.abs() >= 0.5 {
        int_part + fraction.signum()
    } else {
        int_part
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_table() {
        let cases: &[(f64, i32, MidpointRounding, f64)] = &[
            (2.5, 0, MidpointRounding::ToEven, 2.0),
            (-2.5, 0, MidpointRounding::ToEven, -2.0),
            (2.5, 0, MidpointRounding::AwayFromZero, 3.0),
            (2.675, 2, MidpointRounding::ToEven, 2.68),
            (0.285, 2, MidpointRounding::ToEven, 0.28),
            (1.005, 2, MidpointRounding::AwayFromZero, 1.0),
            (1e17 + 1.0, 2, MidpointRounding::ToEven, 1e17 + 1.0),
            (-1.25, 1, MidpointRounding::ToNegativeInfinity, -1.3),
        ];
        for &(x, d, m, expected) in cases {
            assert_eq!(round_double(x, d, m), expected, "{x} {d} {m:?}");
        }
        assert!(round_double(-0.4, 0, MidpointRounding::ToEven).is_sign_negative());
        assert_eq!(checked_round_double(1.0, 16, MidpointRounding::ToEven), Err(RoundError::DigitsOutOfRange));
    }
}
