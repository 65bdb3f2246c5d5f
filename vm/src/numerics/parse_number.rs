//! The numeric-string scanner shared by every `Parse` (.NET's `Number.TryParseNumber`): white
//! space, signs (culture signs, U+00A0/U+202F matching a space, `-` for cultures whose sign is U+2212),
//! parentheses, currency symbol, digits with group and decimal separators, and an exponent.
//! It produces the significant digits and a decimal exponent, like the formatter's buffer.

use super::culture::NumberFormat;
use super::number_buffer::Kind;
use super::number_styles::NumberStyles;

/// A scanned number: `0.d1d2… × 10^scale`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct ParsedNumber {
    /// Significant digits (ASCII), at most the buffer size of the target type.
    pub digits: Vec<u8>,
    /// Decimal exponent (saturating; huge exponents end up near `i32::MAX`/`MIN`).
    pub scale: i32,
    /// A sign (or parentheses) said negative.
    pub negative: bool,
    /// Non-zero digits were dropped because the buffer was full (matters for rounding ties).
    pub has_nonzero_tail: bool,
}

const STATE_SIGN: u32 = 0x1;
const STATE_PARENS: u32 = 0x2;
const STATE_DIGITS: u32 = 0x4;
const STATE_NON_ZERO: u32 = 0x8;
const STATE_DECIMAL: u32 = 0x10;
const STATE_CURRENCY: u32 = 0x20;

/// .NET's `IsWhite`: U+0009–U+000D and U+0020.
pub(super) fn is_white(c: char) -> bool {
    c == ' ' || ('\u{9}'..='\u{d}').contains(&c)
}

/// Cursor over the input; reading past the end yields NUL like .NET's pointer code.
struct Scanner<'a> {
    s: &'a [char],
    p: usize,
    styles: NumberStyles,
    nf: &'a NumberFormat,
}

impl Scanner<'_> {
    fn ch(&self) -> char {
        self.s.get(self.p).copied().unwrap_or('\0')
    }

    /// If `value` occurs at the cursor (a U+00A0 or U+202F in `value` also matches a space), the index after it.
    fn match_chars(&self, value: &str) -> Option<usize> {
        if value.is_empty() {
            return None;
        }
        let mut p = self.p;
        for vc in value.chars() {
            let cp = self.s.get(p).copied().unwrap_or('\0');
            if cp != vc && !(matches!(vc, '\u{a0}' | '\u{202f}') && cp == ' ') {
                return None;
            }
            p += 1;
        }
        Some(p)
    }

    fn match_negative(&self) -> Option<usize> {
        self.match_chars(&self.nf.negative_sign).or_else(|| (self.nf.allow_hyphen_during_parsing() && self.ch() == '-').then_some(self.p + 1))
    }

    /// Matches a positive sign, or a negative one (setting `negative`).
    fn match_sign(&self, negative: &mut bool) -> Option<usize> {
        if let Some(next) = self.match_chars(&self.nf.positive_sign) {
            return Some(next);
        }
        let next = self.match_negative()?;
        *negative = true;
        Some(next)
    }
}

/// Scans `s` with `styles`; `max_digits` is the digit buffer size of the target type. Fails
/// (`None`) on anything malformed, including unconsumed characters other than trailing NULs.
pub(super) fn string_to_number(s: &[char], styles: NumberStyles, nf: &NumberFormat, kind: Kind, max_digits: usize) -> Option<ParsedNumber> {
    let mut sc = Scanner { s, p: 0, styles, nf };
    let number = try_parse_number(&mut sc, kind, max_digits)?;
    if s[sc.p.min(s.len())..].iter().all(|&c| c == '\0') {
        Some(number)
    } else {
        None
    }
}

fn try_parse_number(sc: &mut Scanner, kind: Kind, max_digits: usize) -> Option<ParsedNumber> {
    let mut number = ParsedNumber::default();
    let parsing_currency = sc.styles.has(NumberStyles::ALLOW_CURRENCY_SYMBOL);
    let mut currency: Option<&str> = parsing_currency.then_some(sc.nf.currency_symbol.as_ref());
    let mut state = 0u32;
    leading(sc, &mut state, &mut number, &mut currency);
    let trailing_zeros = digits(sc, &mut state, &mut number, kind, max_digits, parsing_currency);
    if state & STATE_DIGITS == 0 {
        return None;
    }
    exponent(sc, &mut number);
    if kind == Kind::FloatingPoint && !number.has_nonzero_tail {
        let fractional = number.digits.len() as i64 - i64::from(number.scale);
        if fractional > 0 {
            let drop = (trailing_zeros as i64).min(fractional) as usize;
            let keep = number.digits.len().saturating_sub(drop);
            number.digits.truncate(keep);
        }
    }
    trailing(sc, &mut state, &mut number, &mut currency);
    if state & STATE_PARENS != 0 {
        return None;
    }
    if state & STATE_NON_ZERO == 0 {
        if kind != Kind::Decimal {
            number.scale = 0;
        }
        if kind == Kind::Integer && state & STATE_DECIMAL == 0 {
            number.negative = false;
        }
    }
    Some(number)
}

/// White space, sign, `(` and currency symbol before the digits.
fn leading<'a>(sc: &mut Scanner<'a>, state: &mut u32, number: &mut ParsedNumber, currency: &mut Option<&'a str>) {
    loop {
        let ch = sc.ch();
        let skip_white = is_white(ch)
            && sc.styles.has(NumberStyles::ALLOW_LEADING_WHITE)
            && !(*state & STATE_SIGN != 0 && *state & STATE_CURRENCY == 0 && sc.nf.number_negative_pattern != 2);
        if !skip_white {
            let sign_allowed = sc.styles.has(NumberStyles::ALLOW_LEADING_SIGN) && *state & STATE_SIGN == 0;
            if let Some(next) = sign_allowed.then(|| sc.match_sign(&mut number.negative)).flatten() {
                *state |= STATE_SIGN;
                sc.p = next;
                continue;
            } else if ch == '(' && sc.styles.has(NumberStyles::ALLOW_PARENTHESES) && *state & STATE_SIGN == 0 {
                *state |= STATE_SIGN | STATE_PARENS;
                number.negative = true;
            } else if let Some(next) = currency.and_then(|c| sc.match_chars(c)) {
                *state |= STATE_CURRENCY;
                *currency = None;
                sc.p = next;
                continue;
            } else {
                return;
            }
        }
        sc.p += 1;
    }
}

/// Digits with decimal and group separators; returns the count of trailing zeros kept.
fn digits(sc: &mut Scanner, state: &mut u32, number: &mut ParsedNumber, kind: Kind, max_digits: usize, parsing_currency: bool) -> usize {
    let (dec_sep, group_sep) = if parsing_currency {
        (sc.nf.currency_decimal_separator.as_ref(), sc.nf.currency_group_separator.as_ref())
    } else {
        (sc.nf.number_decimal_separator.as_ref(), sc.nf.number_group_separator.as_ref())
    };
    let mut count = 0usize;
    let mut end = 0usize;
    let mut trailing_zeros = 0usize;
    loop {
        let ch = sc.ch();
        if ch.is_ascii_digit() {
            *state |= STATE_DIGITS;
            if ch != '0' || *state & STATE_NON_ZERO != 0 {
                if count < max_digits {
                    number.digits.push(ch as u8);
                    if ch != '0' || kind != Kind::Integer {
                        end = count + 1;
                    }
                    trailing_zeros = if ch == '0' { trailing_zeros + 1 } else { 0 };
                } else if ch != '0' {
                    number.has_nonzero_tail = true;
                }
                if *state & STATE_DECIMAL == 0 {
                    number.scale = number.scale.saturating_add(1);
                }
                count += 1;
                *state |= STATE_NON_ZERO;
            } else if *state & STATE_DECIMAL != 0 {
                number.scale = number.scale.saturating_sub(1);
            }
        } else if let Some(next) = separator(sc, *state, dec_sep, &sc.nf.number_decimal_separator, parsing_currency, false) {
            *state |= STATE_DECIMAL;
            sc.p = next;
            continue;
        } else if let Some(next) = separator(sc, *state, group_sep, &sc.nf.number_group_separator, parsing_currency, true) {
            sc.p = next;
            continue;
        } else {
            break;
        }
        sc.p += 1;
    }
    number.digits.truncate(end);
    trailing_zeros
}

/// Matches the decimal (`group == false`) or group separator if the styles and state allow it;
/// while parsing currency before a currency symbol was seen, the number separator also counts.
fn separator(sc: &Scanner, state: u32, primary: &str, number_sep: &str, parsing_currency: bool, group: bool) -> Option<usize> {
    let allowed = if group {
        sc.styles.has(NumberStyles::ALLOW_THOUSANDS) && state & STATE_DIGITS != 0 && state & STATE_DECIMAL == 0
    } else {
        sc.styles.has(NumberStyles::ALLOW_DECIMAL_POINT) && state & STATE_DECIMAL == 0
    };
    if !allowed {
        return None;
    }
    sc.match_chars(primary).or_else(|| (parsing_currency && state & STATE_CURRENCY == 0).then(|| sc.match_chars(number_sep)).flatten())
}

/// Optional `e[sign]digits`; an `e` not followed by digits is left for the trailing checks.
fn exponent(sc: &mut Scanner, number: &mut ParsedNumber) {
    if !matches!(sc.ch(), 'e' | 'E') || !sc.styles.has(NumberStyles::ALLOW_EXPONENT) {
        return;
    }
    let start = sc.p;
    sc.p += 1;
    let mut negative = false;
    if let Some(next) = sc.match_chars(&sc.nf.positive_sign) {
        sc.p = next;
    } else if let Some(next) = sc.match_negative() {
        sc.p = next;
        negative = true;
    }
    if !sc.ch().is_ascii_digit() {
        sc.p = start;
        return;
    }
    let mut exp: i32 = 0;
    while let Some(d) = sc.ch().to_digit(10) {
        if exp >= 100_000_000 {
            exp = i32::MAX;
            number.scale = 0;
            while sc.ch().is_ascii_digit() {
                sc.p += 1;
            }
            break;
        }
        exp = exp * 10 + d as i32;
        sc.p += 1;
    }
    let exp = if negative { -exp } else { exp };
    number.scale = number.scale.saturating_add(exp);
}

/// White space, trailing sign, `)` and currency symbol after the digits.
fn trailing<'a>(sc: &mut Scanner<'a>, state: &mut u32, number: &mut ParsedNumber, currency: &mut Option<&'a str>) {
    loop {
        let ch = sc.ch();
        if !(is_white(ch) && sc.styles.has(NumberStyles::ALLOW_TRAILING_WHITE)) {
            let sign_allowed = sc.styles.has(NumberStyles::ALLOW_TRAILING_SIGN) && *state & STATE_SIGN == 0;
            if let Some(next) = sign_allowed.then(|| sc.match_sign(&mut number.negative)).flatten() {
                *state |= STATE_SIGN;
                sc.p = next;
                continue;
            } else if ch == ')' && *state & STATE_PARENS != 0 {
                *state &= !STATE_PARENS;
            } else if let Some(next) = currency.and_then(|c| sc.match_chars(c)) {
                *currency = None;
                sc.p = next;
                continue;
            } else {
                return;
            }
        }
        sc.p += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::culture::{culture, invariant};
    use super::*;

    fn scan(s: &str, styles: NumberStyles, name: &str, kind: Kind) -> Option<(String, i32, bool)> {
        let chars: Vec<char> = s.chars().collect();
        let nf = culture(name).unwrap_or(invariant());
        string_to_number(&chars, styles, nf, kind, 50).map(|n| (String::from_utf8(n.digits).unwrap_or_default(), n.scale, n.negative))
    }

    #[test]
    fn scanner_table() {
        let f = NumberStyles::FLOAT_THOUSANDS;
        // (input, styles, culture, kind, expected (digits, scale, negative))
        type Case = (&'static str, NumberStyles, &'static str, Kind, Option<(&'static str, i32, bool)>);
        let cases: &[Case] = &[
            ("  -1.5 ", f, "", Kind::FloatingPoint, Some(("15", 1, true))),
            ("1e3", f, "", Kind::FloatingPoint, Some(("1", 4, false))),
            ("1,234.50", f, "", Kind::FloatingPoint, Some(("12345", 4, false))),
            ("1.50", NumberStyles::NUMBER, "", Kind::Decimal, Some(("150", 1, false))),
            ("0.00", NumberStyles::NUMBER, "", Kind::Decimal, Some(("", -2, false))),
            ("-0", NumberStyles::INTEGER, "", Kind::Integer, Some(("", 0, false))),
            ("(5)", NumberStyles::ANY, "", Kind::Integer, Some(("5", 1, true))),
            ("5-", NumberStyles::NUMBER, "", Kind::Integer, Some(("5", 1, true))),
            ("1 234,5", NumberStyles::NUMBER, "fr-FR", Kind::Decimal, Some(("12345", 4, false))),
            ("1\u{202F}234,5", NumberStyles::NUMBER, "fr-FR", Kind::Decimal, Some(("12345", 4, false))),
            ("1 234,5", NumberStyles::NUMBER, "ru-RU", Kind::Decimal, Some(("12345", 4, false))),
            ("-5", NumberStyles::INTEGER, "sv-SE", Kind::Integer, Some(("5", 1, true))),
            ("\u{2212}5", NumberStyles::INTEGER, "sv-SE", Kind::Integer, Some(("5", 1, true))),
            ("- 5", NumberStyles::INTEGER, "", Kind::Integer, None),
            ("5\0\0", NumberStyles::INTEGER, "", Kind::Integer, Some(("5", 1, false))),
            ("1e", f, "", Kind::FloatingPoint, None),
            ("", f, "", Kind::FloatingPoint, None),
            ("$1,000.00", NumberStyles::CURRENCY, "en-US", Kind::Decimal, Some(("100000", 4, false))),
        ];
        for (s, styles, name, kind, expected) in cases {
            let expected = expected.map(|(d, sc, n)| (d.to_string(), sc, n));
            assert_eq!(scan(s, *styles, name, *kind), expected, "{s:?} {name}");
        }
    }
}
