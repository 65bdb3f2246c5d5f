//! `ToString(format, provider)` for every numeric type: picks the digit source (integer digits,
//! `decimal` mantissa, exact or shortest `double`/`float` digits) and the standard or custom
//! formatter, as .NET 8's `Number.FormatInt32/Int64/UInt64/Double/Single/Decimal` do.

use super::culture::NumberFormat;
use super::decimal::Decimal;
use super::float_digits::{decompose_f32, decompose_f64, rounded_digits};
use super::format_custom::number_to_string_format;
use super::format_integer::{binary_string, decimal_string, hex_string};
use super::format_spec::{parse_format_specifier, Spec};
use super::format_standard::number_to_string;
use super::number_buffer::{Kind, NumberBuffer};
use super::shortest::{shortest_f32, shortest_f64};
use super::Num;

/// Why formatting failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatError {
    /// Unknown standard specifier for the type (`"Q"`, `"D"`/`"X"`/`"B"` on a `double` or
    /// `decimal`), or a precision of ten or more digits: `System.FormatException`.
    BadFormatSpecifier,
}

impl FormatError {
    /// The `FormatException` message .NET 8 uses.
    pub fn message(&self) -> &'static str {
        match self {
            FormatError::BadFormatSpecifier => "Format specifier was invalid.",
        }
    }
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for FormatError {}

/// `value.ToString(format, nf)`; an empty `format` is the parameterless `ToString()`.
pub fn format(value: Num, format: &str, nf: &NumberFormat) -> Result<String, FormatError> {
    let fmt: Vec<char> = format.chars().collect();
    match value {
        Num::I8(v) => format_integer(i128::from(v), 8, &fmt, nf),
        Num::I16(v) => format_integer(i128::from(v), 16, &fmt, nf),
        Num::I32(v) => format_integer(i128::from(v), 32, &fmt, nf),
        Num::I64(v) => format_integer(i128::from(v), 64, &fmt, nf),
        Num::U8(v) => format_integer(i128::from(v), 8, &fmt, nf),
        Num::U16(v) => format_integer(i128::from(v), 16, &fmt, nf),
        Num::U32(v) => format_integer(i128::from(v), 32, &fmt, nf),
        Num::U64(v) => format_integer(i128::from(v), 64, &fmt, nf),
        Num::F32(v) => format_single(v, &fmt, nf),
        Num::F64(v) => format_double(v, &fmt, nf),
        Num::Decimal(d) => format_decimal(d, &fmt, nf),
    }
}

/// Integral types; `bits` is the width used for the two's-complement `X`/`B` output.
fn format_integer(value: i128, bits: u32, fmt: &[char], nf: &NumberFormat) -> Result<String, FormatError> {
    let negative = value < 0;
    let magnitude = value.unsigned_abs();
    let spec = parse_format_specifier(fmt)?;
    if let Spec::Standard(c, digits) = spec {
        let upper = c.to_ascii_uppercase();
        let mask = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
        if (upper == 'G' && digits < 1) || upper == 'D' {
            return Ok(decimal_string(negative, magnitude, digits, &nf.negative_sign));
        }
        if upper == 'X' {
            return Ok(hex_string(value as u128 & mask, c == 'X', digits));
        }
        if upper == 'B' {
            return Ok(binary_string(value as u128 & mask, digits));
        }
    }
    let mut number = NumberBuffer::from_integer(negative, magnitude);
    render(&mut number, spec, fmt, nf)
}

/// Runs the standard formatter with the given precision, or the custom one.
fn render(number: &mut NumberBuffer, spec: Spec, fmt: &[char], nf: &NumberFormat) -> Result<String, FormatError> {
    let mut out = String::new();
    match spec {
        Spec::Standard(c, precision) => number_to_string(&mut out, number, c, precision, nf)?,
        Spec::Custom => number_to_string_format(&mut out, number, fmt, nf),
    }
    Ok(out)
}

fn format_decimal(d: Decimal, fmt: &[char], nf: &NumberFormat) -> Result<String, FormatError> {
    let spec = parse_format_specifier(fmt)?;
    let mut number = NumberBuffer::from_decimal(d.is_negative(), d.mantissa(), d.scale());
    render(&mut number, spec, fmt, nf)
}

/// Per-type constants of the floating-point formatter.
struct FloatKind {
    /// Significant digits used for custom formats (15 for `double`, 7 for `float`).
    custom_precision: i32,
    /// Minimum `G` width before switching to `E` for round-trip output (17 / 9).
    round_trip_digits: i32,
}

fn format_double(v: f64, fmt: &[char], nf: &NumberFormat) -> Result<String, FormatError> {
    if let Some(s) = non_finite(v.is_nan(), v.is_infinite(), v.is_sign_negative(), nf) {
        return Ok(s);
    }
    let kind = FloatKind { custom_precision: 15, round_trip_digits: 17 };
    let (m, e) = decompose_f64(v);
    format_float(
        v == 0.0,
        v.is_sign_negative(),
        fmt,
        nf,
        &kind,
        |precision, significant| {
            if precision == -1 {
                shortest_f64(v)
            } else {
                rounded_digits(m, e, precision, significant)
            }
        },
    )
}

fn format_single(v: f32, fmt: &[char], nf: &NumberFormat) -> Result<String, FormatError> {
    if let Some(s) = non_finite(v.is_nan(), v.is_infinite(), v.is_sign_negative(), nf) {
        return Ok(s);
    }
    let kind = FloatKind { custom_precision: 7, round_trip_digits: 9 };
    let (m, e) = decompose_f32(v);
    format_float(
        v == 0.0,
        v.is_sign_negative(),
        fmt,
        nf,
        &kind,
        |precision, significant| {
            if precision == -1 {
                shortest_f32(v)
            } else {
                rounded_digits(m, e, precision, significant)
            }
        },
    )
}

/// NaN and infinities print the culture's symbols whatever the format (even an invalid one).
fn non_finite(nan: bool, infinite: bool, negative: bool, nf: &NumberFormat) -> Option<String> {
    if nan {
        return Some(nf.nan_symbol.to_string());
    }
    if infinite {
        let symbol = if negative { &nf.negative_infinity_symbol } else { &nf.positive_infinity_symbol };
        return Some(symbol.to_string());
    }
    None
}

/// Shared body of `FormatDouble`/`FormatSingle`; `digits(precision, significant)` produces the
/// digit string (`precision == -1` asks for the shortest round-trip digits).
fn format_float(
    is_zero: bool,
    negative: bool,
    fmt: &[char],
    nf: &NumberFormat,
    kind: &FloatKind,
    digits: impl Fn(i32, bool) -> (Vec<u8>, i32),
) -> Result<String, FormatError> {
    let spec = parse_format_specifier(fmt)?;
    let (c, given) = match spec {
        Spec::Standard(c, p) => (c, p),
        Spec::Custom => ('\0', kind.custom_precision),
    };
    let (mut n_max_digits, precision, significant) = float_precision(c, given, nf)?;
    let mut number = NumberBuffer::new(Kind::FloatingPoint);
    number.negative = negative;
    if !is_zero {
        let (d, s) = digits(precision, significant);
        number.digits = d;
        number.scale = s;
    }
    if c != '\0' && precision == -1 {
        n_max_digits = (number.digits.len() as i32).max(kind.round_trip_digits);
    }
    let mut out = String::new();
    match spec {
        Spec::Standard(c, _) => number_to_string(&mut out, &mut number, c, n_max_digits, nf)?,
        Spec::Custom => number_to_string_format(&mut out, &mut number, fmt, nf),
    }
    Ok(out)
}

/// .NET's `GetFloatingPointMaxDigitsAndPrecision`: returns (max digits for the formatter,
/// precision for digit generation (-1 = shortest), whether it counts significant digits).
fn float_precision(c: char, precision: i32, nf: &NumberFormat) -> Result<(i32, i32, bool), FormatError> {
    let max_digits = precision;
    let (p, significant) = match c {
        '\0' => return Ok((precision, precision, true)),
        'C' | 'c' => (if precision == -1 { nf.currency_decimal_digits } else { precision }, false),
        'E' | 'e' => ((if precision == -1 { 6 } else { precision }) + 1, true),
        'F' | 'f' | 'N' | 'n' => (if precision == -1 { nf.number_decimal_digits } else { precision }, false),
        'G' | 'g' => (if precision == 0 { -1 } else { precision }, true),
        'P' | 'p' => ((if precision == -1 { nf.percent_decimal_digits } else { precision }) + 2, false),
        'R' | 'r' => (-1, true),
        _ => return Err(FormatError::BadFormatSpecifier),
    };
    Ok((max_digits, p, significant))
}

#[cfg(test)]
mod tests {
    use super::super::culture::{culture, invariant};
    use super::*;

    fn f(v: Num, fmt: &str) -> String {
        format(v, fmt, invariant()).unwrap_or_else(|e| e.message().to_string())
    }

    #[test]
    fn brief_examples() {
        let cases: &[(Num, &str, &str)] = &[
            (Num::I32(-42), "X", "FFFFFFD6"),
            (Num::I64(-42), "X", "FFFFFFFFFFFFFFD6"),
            (Num::I32(1234567), "N", "1,234,567.00"),
            (Num::I32(42), "E2", "4.20E+001"),
            (Num::I32(255), "x4", "00ff"),
            (Num::I32(-5), "D3", "-005"),
            (Num::F64(2.5), "F0", "2"),
            (Num::F64(0.125), "F2", "0.12"),
            (Num::F64(1.005), "F2", "1.00"),
            (Num::F64(0.1), "F20", "0.10000000000000000555"),
            (Num::F64(2.5), "0", "3"),
            (Num::F64(1e17), "", "1E+17"),
            (Num::F64(1e-5), "", "1E-05"),
            (Num::F64(-0.0), "", "-0"),
            (Num::F64(f64::NAN), "Q", "NaN"),
            (Num::F64(1.5), "Q", "Format specifier was invalid."),
            (Num::F64(1.5), "D", "Format specifier was invalid."),
            (Num::F64(1.5), "X", "Format specifier was invalid."),
            (Num::F32(1.0 / 3.0), "", "0.33333334"),
        ];
        for (v, fmt, expected) in cases {
            assert_eq!(f(*v, fmt), *expected, "{v:?} {fmt}");
        }
        let de = culture("de-DE").unwrap_or(invariant());
        assert_eq!(format(Num::F64(f64::INFINITY), "", de).as_deref(), Ok("\u{221E}"));
    }
}
