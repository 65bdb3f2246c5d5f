//! The decimal digit buffer every formatter works on (.NET's `Number.NumberBuffer`): ASCII digits
//! `d1 d2 …` meaning `0.d1d2… × 10^scale`, a sign, and the kind of number it came from.

/// Where the digits came from; it changes how rounding and negative zero behave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// An integral type (`int`, `long`, …).
    Integer,
    /// `decimal`.
    Decimal,
    /// `float` / `double` (keeps the sign of a value that rounds to zero: `-0`).
    FloatingPoint,
}

/// Digits plus decimal exponent: the value is `0.d1d2…dn × 10^scale`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct NumberBuffer {
    /// ASCII digits, most significant first; no leading zeros. Reading past the end yields 0 (NUL),
    /// exactly like .NET's NUL-terminated buffer.
    pub digits: Vec<u8>,
    /// Decimal exponent of the digit string.
    pub scale: i32,
    /// Sign.
    pub negative: bool,
    /// Source kind.
    pub kind: Kind,
}

impl NumberBuffer {
    /// An empty (zero) buffer of the given kind.
    pub(super) fn new(kind: Kind) -> Self {
        NumberBuffer { digits: Vec::new(), scale: 0, negative: false, kind }
    }

    /// The digit at `i`, or 0 (the terminator) past the end.
    pub(super) fn dig(&self, i: usize) -> u8 {
        self.digits.get(i).copied().unwrap_or(0)
    }

    /// True when the value is zero (no significant digit).
    pub(super) fn is_zero(&self) -> bool {
        self.dig(0) == 0
    }

    /// Buffer for an integral value given as sign and magnitude.
    pub(super) fn from_integer(negative: bool, magnitude: u128) -> Self {
        let digits = if magnitude == 0 { Vec::new() } else { magnitude.to_string().into_bytes() };
        let scale = digits.len() as i32;
        NumberBuffer { digits, scale, negative, kind: Kind::Integer }
    }

    /// Buffer for a `decimal` (`DecimalToNumber`): all mantissa digits are kept, trailing zeros included.
    pub(super) fn from_decimal(negative: bool, mantissa: u128, decimal_scale: u32) -> Self {
        let digits = if mantissa == 0 { Vec::new() } else { mantissa.to_string().into_bytes() };
        let scale = digits.len() as i32 - decimal_scale as i32;
        NumberBuffer { digits, scale, negative, kind: Kind::Decimal }
    }

    /// Keeps `pos` leading digits (.NET's `RoundNumber`). Unless `correctly_rounded` (standard formats
    /// of `float`/`double`, whose digits were already rounded exactly), a next digit ≥ 5 rounds up
    /// (ties away from zero). Trailing zeros are dropped; a zero result loses its sign unless it
    /// is floating point, and gets scale 0.
    pub(super) fn round(&mut self, pos: i32, correctly_rounded: bool) {
        let mut i = 0usize;
        while (i as i64) < i64::from(pos) && self.dig(i) != 0 {
            i += 1;
        }
        if i as i64 == i64::from(pos) && self.should_round_up(i, correctly_rounded) {
            while i > 0 && self.dig(i - 1) == b'9' {
                i -= 1;
            }
            if i > 0 {
                self.digits[i - 1] += 1;
            } else {
                self.scale = self.scale.saturating_add(1);
                self.digits.truncate(1);
                if let Some(first) = self.digits.first_mut() {
                    *first = b'1';
                }
                i = 1;
            }
        } else {
            while i > 0 && self.dig(i - 1) == b'0' {
                i -= 1;
            }
        }
        if i == 0 {
            if self.kind != Kind::FloatingPoint {
                self.negative = false;
            }
            self.scale = 0;
        }
        self.digits.truncate(i);
    }

    fn should_round_up(&self, i: usize, correctly_rounded: bool) -> bool {
        let digit = self.dig(i);
        digit != 0 && !correctly_rounded && digit >= b'5'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buf(d: &str, scale: i32, kind: Kind) -> NumberBuffer {
        NumberBuffer { digits: d.as_bytes().to_vec(), scale, negative: true, kind }
    }

    #[test]
    fn rounding_table() {
        // (digits, scale, pos, kind, expected digits, expected scale, expected negative)
        let cases: &[(&str, i32, i32, Kind, &str, i32, bool)] = &[
            ("25", 1, 1, Kind::Decimal, "3", 1, true),
            ("24", 1, 1, Kind::Decimal, "2", 1, true),
            ("995", 0, 2, Kind::Decimal, "1", 1, true),
            ("4", 0, 0, Kind::Decimal, "", 0, false),
            ("4", 0, 0, Kind::FloatingPoint, "", 0, true),
            ("25", 1, 1, Kind::FloatingPoint, "2", 1, true),
            ("1200", 4, 9, Kind::Integer, "12", 4, true),
            ("6", -1, -1, Kind::Integer, "", 0, false),
        ];
        for &(d, s, pos, kind, ed, es, en) in cases {
            let mut b = buf(d, s, kind);
            b.round(pos, kind == Kind::FloatingPoint);
            assert_eq!((b.digits.as_slice(), b.scale, b.negative), (ed.as_bytes(), es, en), "{d} {s} {pos}");
        }
    }

    #[test]
    fn constructors() {
        let b = NumberBuffer::from_decimal(false, 150, 2);
        assert_eq!((b.digits.as_slice(), b.scale), (&b"150"[..], 1));
        let z = NumberBuffer::from_decimal(true, 0, 2);
        assert_eq!((z.digits.len(), z.scale), (0, -2));
        let i = NumberBuffer::from_integer(true, 42);
        assert_eq!((i.digits.as_slice(), i.scale, i.negative), (&b"42"[..], 2, true));
        assert_eq!(i.dig(5), 0);
    }
}
