//! `System.Globalization.NumberStyles`: the flags that say what a numeric string may contain.

/// A set of `NumberStyles` flags (same bit values as .NET).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct NumberStyles(pub u32);

impl NumberStyles {
    /// No flags: digits only.
    pub const NONE: NumberStyles = NumberStyles(0);
    /// Leading white space (U+0009–U+000D, U+0020).
    pub const ALLOW_LEADING_WHITE: NumberStyles = NumberStyles(0x1);
    /// Trailing white space.
    pub const ALLOW_TRAILING_WHITE: NumberStyles = NumberStyles(0x2);
    /// Leading positive/negative sign.
    pub const ALLOW_LEADING_SIGN: NumberStyles = NumberStyles(0x4);
    /// Trailing sign.
    pub const ALLOW_TRAILING_SIGN: NumberStyles = NumberStyles(0x8);
    /// `(n)` for negative numbers.
    pub const ALLOW_PARENTHESES: NumberStyles = NumberStyles(0x10);
    /// Decimal separator.
    pub const ALLOW_DECIMAL_POINT: NumberStyles = NumberStyles(0x20);
    /// Group separators in the integer part.
    pub const ALLOW_THOUSANDS: NumberStyles = NumberStyles(0x40);
    /// `e`/`E` exponent.
    pub const ALLOW_EXPONENT: NumberStyles = NumberStyles(0x80);
    /// Currency symbol.
    pub const ALLOW_CURRENCY_SYMBOL: NumberStyles = NumberStyles(0x100);
    /// Hexadecimal digits (integers only).
    pub const ALLOW_HEX_SPECIFIER: NumberStyles = NumberStyles(0x200);
    /// Binary digits (integers only, .NET 8).
    pub const ALLOW_BINARY_SPECIFIER: NumberStyles = NumberStyles(0x400);
    /// `Integer` = leading/trailing white + leading sign (default of `int.Parse`).
    pub const INTEGER: NumberStyles = NumberStyles(0x7);
    /// `HexNumber` = white space + hex digits.
    pub const HEX_NUMBER: NumberStyles = NumberStyles(0x203);
    /// `BinaryNumber` = white space + binary digits.
    pub const BINARY_NUMBER: NumberStyles = NumberStyles(0x403);
    /// `Number` = Integer + trailing sign + decimal point + thousands (default of `decimal.Parse`).
    pub const NUMBER: NumberStyles = NumberStyles(0x6F);
    /// `Float` = Integer + decimal point + exponent.
    pub const FLOAT: NumberStyles = NumberStyles(0xA7);
    /// `Float | AllowThousands`: default of `double.Parse` / `float.Parse`.
    pub const FLOAT_THOUSANDS: NumberStyles = NumberStyles(0xE7);
    /// `Currency` = everything but exponent and hex.
    pub const CURRENCY: NumberStyles = NumberStyles(0x17F);
    /// `Any` = everything but hex/binary.
    pub const ANY: NumberStyles = NumberStyles(0x1FF);

    /// True when every flag of `flag` is set.
    pub fn has(self, flag: NumberStyles) -> bool {
        self.0 & flag.0 == flag.0
    }
}

impl std::ops::BitOr for NumberStyles {
    type Output = NumberStyles;
    fn bitor(self, rhs: NumberStyles) -> NumberStyles {
        NumberStyles(self.0 | rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn composites_match_dotnet_values() {
        assert_eq!(NumberStyles::ALLOW_LEADING_WHITE | NumberStyles::ALLOW_TRAILING_WHITE | NumberStyles::ALLOW_LEADING_SIGN, NumberStyles::INTEGER);
        assert_eq!(NumberStyles::FLOAT | NumberStyles::ALLOW_THOUSANDS, NumberStyles::FLOAT_THOUSANDS);
        assert!(NumberStyles::ANY.has(NumberStyles::ALLOW_CURRENCY_SYMBOL));
        assert!(!NumberStyles::ANY.has(NumberStyles::ALLOW_HEX_SPECIFIER));
    }
}
