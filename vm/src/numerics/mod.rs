//! .NET 8-exact number formatting, parsing, composite format strings and the `decimal` type.
//!
//! Everything here reproduces what CoreCLR .NET 8.0.4 (Linux x64, ICU 72) prints. It was checked
//! against the real runtime on ~500,000 generated cases; the `oracle_*.rs` test tables keep about
//! 5,000 of them (value, format, culture → exact .NET output).
//!
//! * [`format()`] — `value.ToString(format, culture)` for every C# numeric type ([`Num`]):
//!   - default `ToString()`: shortest round-trip `double`/`float` digits, fixed notation while the
//!     decimal exponent is in -5 < e < 17 (`float`: < 9), else `1E+17` / `1E-05`; `-0`; the
//!     culture's NaN/∞ symbols; `decimal` keeps its scale (`1.50`).
//!   - standard formats `C D E F G N P R X B` (either case) with precision 0..=999999999:
//!     `double`/`float` digits are the exact binary value rounded half to even (`2.5:F0` → `2`,
//!     `1.005:F2` → `1.00`, `0.1:F20` → `0.10000000000000000555`); `decimal` and integers round
//!     half away from zero; `D`/`X`/`B` only for integers (two's complement at the type's width).
//!   - custom pictures (`0 # . , % ‰ E0 e+00 \ '…' "…" ;`), rounding half away from zero on 15
//!     (`double`) / 7 (`float`) significant digits, as .NET does.
//! * [`culture`] / [`invariant`] — [`NumberFormat`] data of 27 cultures exactly as .NET 8 reports
//!   them (note ICU's 3-digit `N`/`F`/`P` defaults: `1234567.ToString("N", en-US)` is
//!   `1,234,567.000`).
//! * [`parse_int`], [`parse_float`], [`parse_decimal`] — `int.Parse` & co. with [`NumberStyles`];
//!   [`ParseError::message`] gives .NET's exact exception texts.
//! * [`format_composite`], [`parse_composite`], [`CompositeParts`], [`align`] — `string.Format`:
//!   holes, errors with .NET 8's offsets and messages in .NET's order, alignment padding.
//! * [`Decimal`] — `System.Decimal`: `add sub mul div rem neg`, `round/floor/ceiling/truncate`,
//!   conversions from/to integers and `double`/`float`, .NET's comparison and hash code.
//! * [`round_double`] — `Math.Round(double, digits, MidpointRounding)`.
//!
//! Two .NET 8 quirks are reproduced on purpose: `decimal % decimal` can return a wrong remainder
//! when a 64+-bit divisor meets a dividend scaled by many powers of ten (`decimal_mod.rs`), and
//! `(double)decimal` rounds the low 64 bits twice, as CoreLib's precompiled code does until the
//! method is re-JITted after thousands of calls (`decimal_float.rs`).
//!
//! Only `std` is used; sibling files are referenced through `super::` so the folder can be moved.

mod bignum;
mod composite;
mod culture;
mod decimal;
mod decimal_arith;
mod decimal_float;
mod decimal_mod;
mod decimal_round;
mod float_digits;
mod format;
mod format_custom;
mod format_integer;
mod format_spec;
mod format_standard;
mod math_round;
mod number_buffer;
mod number_styles;
mod parse;
mod parse_number;
mod shortest;

#[cfg(test)]
mod fuzz;
#[cfg(test)]
mod oracle_decimal;
#[cfg(test)]
mod oracle_format;
#[cfg(test)]
mod oracle_misc;
#[cfg(test)]
mod oracle_parse;
#[cfg(test)]
mod oracle_support;

pub use composite::{
    align, format_composite, index_out_of_range_message, parse_composite, parse_composite_checked, CompositeError, CompositeFailure, CompositePart,
    CompositeParts,
};
pub use culture::{culture, culture_names, invariant, NumberFormat};
pub use decimal::{Decimal, DecimalError};
pub use format::{format, FormatError};
pub use math_round::{checked_round_double, round_double, RoundError};
pub use number_styles::NumberStyles;
pub use parse::{parse_decimal, parse_float, parse_int, FloatType, IntType, ParseError, StyleError};

/// A number to format or the result of parsing; the variant is the C# type (widths matter:
/// `(-42).ToString("X")` is `FFFFFFD6` for `int`, `FFFFFFFFFFFFFFD6` for `long`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// `sbyte`
    I8(i8),
    /// `short`
    I16(i16),
    /// `int`
    I32(i32),
    /// `long`
    I64(i64),
    /// `byte`
    U8(u8),
    /// `ushort`
    U16(u16),
    /// `uint`
    U32(u32),
    /// `ulong`
    U64(u64),
    /// `float`
    F32(f32),
    /// `double`
    F64(f64),
    /// `decimal`
    Decimal(Decimal),
}

/// `System.MidpointRounding`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MidpointRounding {
    /// Banker's rounding (the default of `Math.Round`).
    #[default]
    ToEven,
    /// Ties away from zero.
    AwayFromZero,
    /// Truncation.
    ToZero,
    /// Floor.
    ToNegativeInfinity,
    /// Ceiling.
    ToPositiveInfinity,
}

macro_rules! num_from {
    ($($t:ty => $v:ident),*) => {
        $(impl From<$t> for Num {
            fn from(x: $t) -> Self {
                Num::$v(x)
            }
        })*
    };
}

num_from!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32, u64 => U64, f32 => F32, f64 => F64, Decimal => Decimal);

impl std::fmt::Display for Num {
    /// The invariant-culture `ToString()`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format(*self, "", invariant()).unwrap_or_default())
    }
}
