//! Standard numeric formats on a digit buffer (.NET's `Number.NumberToString`): `C` currency, `E`
//! scientific, `F` fixed, `G` general, `N` number, `P` percent and `R` round-trip, with the culture's
//! separators, group sizes, signs and currency/percent patterns.

use super::culture::NumberFormat;
use super::format::FormatError;
use super::number_buffer::{Kind, NumberBuffer};

/// `CurrencyPositivePattern` templates: `$` is the symbol, `#` the number.
const POS_CURRENCY: [&str; 4] = ["$#", "#$", "$ #", "# $"];

/// `CurrencyNegativePattern` templates: `-` is the negative sign.
const NEG_CURRENCY: [&str; 17] =
    ["($#)", "-$#", "$-#", "$#-", "(#$)", "-#$", "#-$", "#$-", "-# $", "-$ #", "# $-", "$ #-", "$ -#", "#- $", "($ #)", "(# $)", "$- #"];

/// `PercentPositivePattern` templates.
const POS_PERCENT: [&str; 4] = ["# %", "#%", "%#", "% #"];

/// `PercentNegativePattern` templates.
const NEG_PERCENT: [&str; 12] = ["-# %", "-#%", "-%#", "%-#", "%#-", "#-%", "#%-", "-% #", "# %-", "% #-", "% -#", "#- %"];

/// `NumberNegativePattern` templates.
const NEG_NUMBER: [&str; 5] = ["(#)", "-#", "- #", "#-", "# -"];

/// Picks a pattern by .NET index, falling back to the first one for out-of-range indexes.
fn pattern<'a>(table: &[&'a str], index: i32) -> &'a str {
    usize::try_from(index).ok().and_then(|i| table.get(i)).or(table.first()).copied().unwrap_or("#")
}

/// Appends the standard format `fmt` (a letter) with precision `n_max_digits` (-1 = default).
pub(super) fn number_to_string(out: &mut String, number: &mut NumberBuffer, fmt: char, n_max_digits: i32, nf: &NumberFormat) -> Result<(), FormatError> {
    let exact = number.kind == Kind::FloatingPoint;
    match fmt {
        'C' | 'c' => {
            let n = default_if_negative(n_max_digits, nf.currency_decimal_digits);
            number.round(number.scale.saturating_add(n), exact);
            format_currency(out, number, n, nf);
        }
        'F' | 'f' => {
            let n = default_if_negative(n_max_digits, nf.number_decimal_digits);
            number.round(number.scale.saturating_add(n), exact);
            if number.negative {
                out.push_str(&nf.negative_sign);
            }
            format_fixed(out, number, n, None, &nf.number_decimal_separator, "");
        }
        'N' | 'n' => {
            let n = default_if_negative(n_max_digits, nf.number_decimal_digits);
            number.round(number.scale.saturating_add(n), exact);
            format_number(out, number, n, nf);
        }
        'E' | 'e' => {
            let n = default_if_negative(n_max_digits, 6).saturating_add(1);
            number.round(n, exact);
            if number.negative {
                out.push_str(&nf.negative_sign);
            }
            format_scientific(out, number, n, nf, fmt);
        }
        'G' | 'g' => format_g(out, number, fmt, n_max_digits, nf),
        'R' => format_g(out, number, 'G', n_max_digits, nf),
        'r' => format_g(out, number, 'g', n_max_digits, nf),
        'P' | 'p' => {
            let n = default_if_negative(n_max_digits, nf.percent_decimal_digits);
            number.scale = number.scale.saturating_add(2);
            number.round(number.scale.saturating_add(n), exact);
            format_percent(out, number, n, nf);
        }
        _ => return Err(FormatError::BadFormatSpecifier),
    }
    Ok(())
}

fn default_if_negative(n: i32, default: i32) -> i32 {
    if n < 0 {
        default
    } else {
        n
    }
}

/// `G`: significant digits, scientific notation when the exponent is out of range. A `decimal`
/// without precision keeps all its digits (trailing zeros too) and never switches to `E`.
fn format_g(out: &mut String, number: &mut NumberBuffer, fmt: char, n_max_digits: i32, nf: &NumberFormat) {
    let mut n = n_max_digits;
    let mut no_rounding = false;
    let mut skip_sign = false;
    if n < 1 {
        if number.kind == Kind::Decimal && n == -1 {
            no_rounding = true;
            skip_sign = number.is_zero();
        } else {
            n = number.digits.len() as i32;
        }
    }
    if !no_rounding {
        number.round(n, number.kind == Kind::FloatingPoint);
    }
    if number.negative && !skip_sign {
        out.push_str(&nf.negative_sign);
    }
    let exp_char = if fmt == 'g' { 'e' } else { 'E' };
    format_general(out, number, n, nf, exp_char, no_rounding);
}

/// Appends the digits of a (rounded) number in fixed notation with `n_max_digits` decimals,
/// grouping the integer part when `group_sizes` is given.
pub(super) fn format_fixed(
    out: &mut String,
    number: &NumberBuffer,
    n_max_digits: i32,
    group_sizes: Option<&[i32]>,
    decimal_separator: &str,
    group_separator: &str,
) {
    let dig_pos = number.scale;
    let mut idx = 0usize;
    if dig_pos > 0 {
        let int_len = dig_pos as usize;
        let int_digits: Vec<u8> = (0..int_len).map(|i| if i < number.digits.len() { number.digits[i] } else { b'0' }).collect();
        idx = int_len.min(number.digits.len());
        match group_sizes {
            Some(sizes) => push_grouped(out, &int_digits, sizes, group_separator),
            None => out.extend(int_digits.iter().map(|&b| char::from(b))),
        }
    } else {
        out.push('0');
    }
    if n_max_digits > 0 {
        out.push_str(decimal_separator);
        let mut remaining = n_max_digits as usize;
        if dig_pos < 0 {
            let zeros = (dig_pos.unsigned_abs() as usize).min(remaining);
            out.extend(std::iter::repeat_n('0', zeros));
            remaining -= zeros;
        }
        out.reserve(remaining);
        for _ in 0..remaining {
            out.push(next_digit(number, &mut idx));
        }
    }
}

/// The digit at `idx` (advancing) or `'0'` once the digits are exhausted.
fn next_digit(number: &NumberBuffer, idx: &mut usize) -> char {
    match number.dig(*idx) {
        0 => '0',
        d => {
            *idx += 1;
            char::from(d)
        }
    }
}

/// Appends integer digits with group separators, groups counted from the right using `sizes`
/// (the last size repeats; a size of 0 ends grouping).
fn push_grouped(out: &mut String, digits: &[u8], sizes: &[i32], separator: &str) {
    let mut group_index = 0usize;
    let mut group_size = match sizes.first() {
        Some(&s) if s > 0 => s as usize,
        _ => 0,
    };
    let mut reversed: Vec<String> = Vec::with_capacity(digits.len() * 2);
    let mut count = 0usize;
    for (pos, &d) in digits.iter().enumerate().rev() {
        reversed.push(char::from(d).to_string());
        if group_size == 0 {
            continue;
        }
        count += 1;
        if count == group_size && pos != 0 {
            reversed.push(separator.to_string());
            if group_index + 1 < sizes.len() {
                group_index += 1;
                group_size = usize::try_from(sizes[group_index]).unwrap_or(0);
            }
            count = 0;
        }
    }
    for piece in reversed.iter().rev() {
        out.push_str(piece);
    }
}

/// `N`: grouped fixed notation with the culture's negative-number pattern.
fn format_number(out: &mut String, number: &NumberBuffer, n_max_digits: i32, nf: &NumberFormat) {
    let template = if number.negative { pattern(&NEG_NUMBER, nf.number_negative_pattern) } else { "#" };
    for ch in template.chars() {
        match ch {
            '#' => format_fixed(out, number, n_max_digits, Some(&nf.number_group_sizes), &nf.number_decimal_separator, &nf.number_group_separator),
            '-' => out.push_str(&nf.negative_sign),
            _ => out.push(ch),
        }
    }
}

/// `C`: the culture's currency pattern around grouped fixed notation.
fn format_currency(out: &mut String, number: &NumberBuffer, n_max_digits: i32, nf: &NumberFormat) {
    let template = if number.negative { pattern(&NEG_CURRENCY, nf.currency_negative_pattern) } else { pattern(&POS_CURRENCY, nf.currency_positive_pattern) };
    for ch in template.chars() {
        match ch {
            '#' => format_fixed(out, number, n_max_digits, Some(&nf.currency_group_sizes), &nf.currency_decimal_separator, &nf.currency_group_separator),
            '-' => out.push_str(&nf.negative_sign),
            '$' => out.push_str(&nf.currency_symbol),
            _ => out.push(ch),
        }
    }
}

/// `P`: the culture's percent pattern around grouped fixed notation (the value is already ×100).
fn format_percent(out: &mut String, number: &NumberBuffer, n_max_digits: i32, nf: &NumberFormat) {
    let template = if number.negative { pattern(&NEG_PERCENT, nf.percent_negative_pattern) } else { pattern(&POS_PERCENT, nf.percent_positive_pattern) };
    for ch in template.chars() {
        match ch {
            '#' => format_fixed(out, number, n_max_digits, Some(&nf.percent_group_sizes), &nf.percent_decimal_separator, &nf.percent_group_separator),
            '-' => out.push_str(&nf.negative_sign),
            '%' => out.push_str(&nf.percent_symbol),
            _ => out.push(ch),
        }
    }
}

/// `E`: `d.ddd…E+ddd` with `n_max_digits` significant digits and a three-digit exponent.
fn format_scientific(out: &mut String, number: &NumberBuffer, n_max_digits: i32, nf: &NumberFormat, exp_char: char) {
    let mut idx = 0usize;
    out.push(next_digit(number, &mut idx));
    if n_max_digits != 1 {
        out.push_str(&nf.number_decimal_separator);
    }
    let rest = usize::try_from(n_max_digits.saturating_sub(1)).unwrap_or(0);
    out.reserve(rest);
    for _ in 0..rest {
        out.push(next_digit(number, &mut idx));
    }
    let e = if number.is_zero() { 0 } else { i64::from(number.scale) - 1 };
    format_exponent(out, nf, e, exp_char, 3, true);
}

/// Appends `E`, the exponent's sign (the culture's signs) and at least `min_digits` digits.
pub(super) fn format_exponent(out: &mut String, nf: &NumberFormat, value: i64, exp_char: char, min_digits: usize, positive_sign: bool) {
    out.push(exp_char);
    if value < 0 {
        out.push_str(&nf.negative_sign);
    } else if positive_sign {
        out.push_str(&nf.positive_sign);
    }
    out.push_str(&format!("{:0width$}", value.unsigned_abs(), width = min_digits));
}

/// `G` body: fixed notation unless the exponent is above `n_max_digits` or below -4.
fn format_general(out: &mut String, number: &NumberBuffer, n_max_digits: i32, nf: &NumberFormat, exp_char: char, suppress_scientific: bool) {
    let mut dig_pos = number.scale;
    let mut scientific = false;
    if !suppress_scientific && (dig_pos > n_max_digits || dig_pos < -3) {
        dig_pos = 1;
        scientific = true;
    }
    let mut idx = 0usize;
    if dig_pos > 0 {
        for _ in 0..dig_pos {
            out.push(next_digit(number, &mut idx));
        }
        dig_pos = 0;
    } else {
        out.push('0');
    }
    if number.dig(idx) != 0 || dig_pos < 0 {
        out.push_str(&nf.number_decimal_separator);
        out.extend(std::iter::repeat_n('0', dig_pos.unsigned_abs() as usize));
        while number.dig(idx) != 0 {
            out.push(char::from(number.dig(idx)));
            idx += 1;
        }
    }
    if scientific {
        format_exponent(out, nf, i64::from(number.scale) - 1, exp_char, 2, true);
    }
}

#[cfg(test)]
mod tests {
    use super::super::culture::{culture, invariant};
    use super::*;

    fn run(digits: &str, scale: i32, negative: bool, kind: Kind, fmt: char, n: i32, culture_name: &str) -> String {
        let mut number = NumberBuffer { digits: digits.as_bytes().to_vec(), scale, negative, kind };
        let nf = culture(culture_name).unwrap_or(invariant());
        let mut out = String::new();
        match number_to_string(&mut out, &mut number, fmt, n, nf) {
            Ok(()) => out,
            Err(e) => e.message().to_string(),
        }
    }

    #[test]
    fn buffer_level_table() {
        // (digits, scale, negative, kind, format letter, precision, culture, expected)
        type Case = (&'static str, i32, bool, Kind, char, i32, &'static str, &'static str);
        let cases: &[Case] = &[
            ("1234567", 7, false, Kind::Integer, 'N', -1, "", "1,234,567.00"),
            ("1234567", 7, false, Kind::Integer, 'N', -1, "hi-IN", "12,34,567.000"),
            ("1234567", 7, true, Kind::Integer, 'C', 2, "de-DE", "-1.234.567,00 \u{20AC}"),
            ("1234567", 7, true, Kind::Integer, 'C', 2, "", "(\u{00A4}1,234,567.00)"),
            ("256", 0, false, Kind::Decimal, 'P', -1, "", "25.60 %"),
            ("25", 1, false, Kind::FloatingPoint, 'E', 0, "", "2E+000"),
            ("25", 1, false, Kind::Decimal, 'E', 0, "", "3E+000"),
            ("150", 1, false, Kind::Decimal, 'G', -1, "", "1.50"),
            ("1", -27, false, Kind::Decimal, 'G', -1, "", "0.0000000000000000000000000001"),
            ("1", 18, false, Kind::FloatingPoint, 'R', 17, "", "1E+17"),
            ("1", 18, false, Kind::FloatingPoint, 'r', 17, "", "1e+17"),
            ("5", 1, false, Kind::Integer, 'Q', -1, "", "Format specifier was invalid."),
        ];
        for &(d, s, neg, kind, fmt, n, c, expected) in cases {
            assert_eq!(run(d, s, neg, kind, fmt, n, c), expected, "{d} {s} {fmt}{n} {c}");
        }
    }

    #[test]
    fn grouping_with_zero_terminator() {
        let mut out = String::new();
        push_grouped(&mut out, b"1234567890", &[3, 0], ",");
        assert_eq!(out, "1234567,890");
        out.clear();
        push_grouped(&mut out, b"12345", &[], ",");
        assert_eq!(out, "12345");
        assert_eq!(pattern(&NEG_NUMBER, 99), "(#)");
    }
}
