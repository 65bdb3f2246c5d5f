//! Culture data: the `NumberFormatInfo` subset .NET 8 (ICU 72, Linux) uses to format and parse numbers.
//!
//! Every row was dumped from `CultureInfo.GetCultureInfo(name).NumberFormat` on the real .NET 8.0.4
//! runtime. Note the ICU-specific values: `NumberDecimalDigits` is 3 for every named culture (so
//! `N`/`F` without a precision print three decimals), `PercentDecimalDigits` is 3, fr-FR groups with
//! U+202F, ru-RU/pl-PL/sv-SE with U+00A0, and sv-SE/fi-FI/nb-NO use U+2212 as the negative sign.

use std::borrow::Cow;

/// The `System.Globalization.NumberFormatInfo` properties that number formatting and parsing read.
///
/// Pattern fields use .NET's numbering (`CurrencyNegativePattern` 0..=16, `PercentNegativePattern`
/// 0..=11, …); out-of-range values fall back to pattern 0 instead of panicking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberFormat {
    /// Culture name as .NET spells it (`""` for the invariant culture).
    pub name: Cow<'static, str>,
    /// `NumberDecimalSeparator`.
    pub number_decimal_separator: Cow<'static, str>,
    /// `NumberGroupSeparator`.
    pub number_group_separator: Cow<'static, str>,
    /// `NumberGroupSizes` (e.g. `[3]`, or `[3, 2]` for hi-IN); a trailing 0 stops grouping.
    pub number_group_sizes: Cow<'static, [i32]>,
    /// `NumberDecimalDigits`: default precision of `F` and `N`.
    pub number_decimal_digits: i32,
    /// `NumberNegativePattern` (0 `(n)`, 1 `-n`, 2 `- n`, 3 `n-`, 4 `n -`).
    pub number_negative_pattern: i32,
    /// `NegativeSign`.
    pub negative_sign: Cow<'static, str>,
    /// `PositiveSign`.
    pub positive_sign: Cow<'static, str>,
    /// `NaNSymbol`.
    pub nan_symbol: Cow<'static, str>,
    /// `PositiveInfinitySymbol`.
    pub positive_infinity_symbol: Cow<'static, str>,
    /// `NegativeInfinitySymbol`.
    pub negative_infinity_symbol: Cow<'static, str>,
    /// `CurrencySymbol`.
    pub currency_symbol: Cow<'static, str>,
    /// `CurrencyDecimalSeparator`.
    pub currency_decimal_separator: Cow<'static, str>,
    /// `CurrencyGroupSeparator`.
    pub currency_group_separator: Cow<'static, str>,
    /// `CurrencyGroupSizes`.
    pub currency_group_sizes: Cow<'static, [i32]>,
    /// `CurrencyDecimalDigits`: default precision of `C`.
    pub currency_decimal_digits: i32,
    /// `CurrencyPositivePattern` (0 `$n`, 1 `n$`, 2 `$ n`, 3 `n $`).
    pub currency_positive_pattern: i32,
    /// `CurrencyNegativePattern` (0..=16, see .NET's docs).
    pub currency_negative_pattern: i32,
    /// `PercentSymbol`.
    pub percent_symbol: Cow<'static, str>,
    /// `PerMilleSymbol`.
    pub per_mille_symbol: Cow<'static, str>,
    /// `PercentDecimalSeparator`.
    pub percent_decimal_separator: Cow<'static, str>,
    /// `PercentGroupSeparator`.
    pub percent_group_separator: Cow<'static, str>,
    /// `PercentGroupSizes`.
    pub percent_group_sizes: Cow<'static, [i32]>,
    /// `PercentDecimalDigits`: default precision of `P`.
    pub percent_decimal_digits: i32,
    /// `PercentPositivePattern` (0 `n %`, 1 `n%`, 2 `%n`, 3 `% n`).
    pub percent_positive_pattern: i32,
    /// `PercentNegativePattern` (0..=11).
    pub percent_negative_pattern: i32,
}

impl NumberFormat {
    /// True when parsing should also accept ASCII `-` for the negative sign (.NET's
    /// `AllowHyphenDuringParsing`: the sign is one of the Unicode minus/dash look-alikes).
    pub fn allow_hyphen_during_parsing(&self) -> bool {
        matches!(self.negative_sign.as_ref(), "\u{2012}" | "\u{207B}" | "\u{208B}" | "\u{2212}" | "\u{2796}" | "\u{FE63}" | "\u{FF0D}")
    }
}

/// Currency columns of a culture row: symbol, decimal digits, positive and negative pattern.
struct Cur(&'static str, i32, i32, i32);

/// Percent columns of a culture row: symbol, per-mille symbol, decimal digits, positive and negative pattern.
struct Pct(&'static str, &'static str, i32, i32, i32);

/// Builds one culture; the data of every listed culture uses the same separators and group sizes
/// for numbers, currency and percent, and `NumberNegativePattern` 1.
#[allow(clippy::too_many_arguments)]
const fn row(
    name: &'static str,
    decimal: &'static str,
    group: &'static str,
    sizes: &'static [i32],
    digits: i32,
    signs: [&'static str; 2],
    specials: [&'static str; 3],
    cur: Cur,
    pct: Pct,
) -> NumberFormat {
    NumberFormat {
        name: Cow::Borrowed(name),
        number_decimal_separator: Cow::Borrowed(decimal),
        number_group_separator: Cow::Borrowed(group),
        number_group_sizes: Cow::Borrowed(sizes),
        number_decimal_digits: digits,
        number_negative_pattern: 1,
        negative_sign: Cow::Borrowed(signs[0]),
        positive_sign: Cow::Borrowed(signs[1]),
        nan_symbol: Cow::Borrowed(specials[0]),
        positive_infinity_symbol: Cow::Borrowed(specials[1]),
        negative_infinity_symbol: Cow::Borrowed(specials[2]),
        currency_symbol: Cow::Borrowed(cur.0),
        currency_decimal_separator: Cow::Borrowed(decimal),
        currency_group_separator: Cow::Borrowed(group),
        currency_group_sizes: Cow::Borrowed(sizes),
        currency_decimal_digits: cur.1,
        currency_positive_pattern: cur.2,
        currency_negative_pattern: cur.3,
        percent_symbol: Cow::Borrowed(pct.0),
        per_mille_symbol: Cow::Borrowed(pct.1),
        percent_decimal_separator: Cow::Borrowed(decimal),
        percent_group_separator: Cow::Borrowed(group),
        percent_group_sizes: Cow::Borrowed(sizes),
        percent_decimal_digits: pct.2,
        percent_positive_pattern: pct.3,
        percent_negative_pattern: pct.4,
    }
}

/// Every culture this module knows, as .NET 8.0.4 with ICU 72 reports it. Index 0 is the invariant culture.
static CULTURES: [NumberFormat; 27] = [
    row("", ".", ",", &[3], 2, ["-", "+"], ["NaN", "Infinity", "-Infinity"], Cur("\u{00A4}", 2, 0, 0), Pct("%", "\u{2030}", 2, 0, 0)),
    row("en-US", ".", ",", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("$", 2, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row("zh-CN", ".", ",", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{00A5}", 2, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row(
        "ru-RU",
        ",",
        "\u{00A0}",
        &[3],
        3,
        ["-", "+"],
        ["\u{043D}\u{0435}\u{00A0}\u{0447}\u{0438}\u{0441}\u{043B}\u{043E}", "\u{221E}", "-\u{221E}"],
        Cur("\u{20BD}", 2, 3, 8),
        Pct("%", "\u{2030}", 3, 0, 0),
    ),
    row("fr-FR", ",", "\u{202F}", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20AC}", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row("de-DE", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20AC}", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row("ja-JP", ".", ",", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{FFE5}", 0, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row("en-GB", ".", ",", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{00A3}", 2, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row("es-ES", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20AC}", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row("it-IT", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20AC}", 2, 3, 8), Pct("%", "\u{2030}", 3, 1, 1)),
    row("pt-BR", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("R$", 2, 2, 9), Pct("%", "\u{2030}", 3, 1, 1)),
    row("ko-KR", ".", ",", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20A9}", 0, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row("zh-TW", ".", ",", &[3], 3, ["-", "+"], ["\u{975E}\u{6578}\u{503C}", "\u{221E}", "-\u{221E}"], Cur("$", 2, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row("nl-NL", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20AC}", 2, 2, 12), Pct("%", "\u{2030}", 3, 1, 1)),
    row("pl-PL", ",", "\u{00A0}", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("z\u{0142}", 2, 3, 8), Pct("%", "\u{2030}", 3, 1, 1)),
    row("sv-SE", ",", "\u{00A0}", &[3], 3, ["\u{2212}", "+"], ["NaN", "\u{221E}", "\u{2212}\u{221E}"], Cur("kr", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row("tr-TR", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20BA}", 2, 0, 1), Pct("%", "\u{2030}", 3, 2, 2)),
    row("uk-UA", ",", "\u{00A0}", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20B4}", 2, 3, 8), Pct("%", "\u{2030}", 3, 1, 1)),
    row("de-CH", ".", "\u{2019}", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("CHF", 2, 2, 2), Pct("%", "\u{2030}", 3, 1, 1)),
    row("hi-IN", ".", ",", &[3, 2], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20B9}", 2, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row(
        "ar-SA",
        "\u{066B}",
        "\u{066C}",
        &[3],
        3,
        ["\u{061C}-", "\u{061C}+"],
        ["\u{0644}\u{064A}\u{0633}\u{00A0}\u{0631}\u{0642}\u{0645}", "\u{221E}", "\u{061C}-\u{221E}"],
        Cur("\u{0631}.\u{0633}.\u{200F}", 2, 3, 8),
        Pct("\u{066A}\u{061C}", "\u{0609}", 3, 1, 1),
    ),
    row("fr-CA", ",", "\u{00A0}", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("$", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row("en-IN", ".", ",", &[3, 2], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("\u{20B9}", 2, 0, 1), Pct("%", "\u{2030}", 3, 1, 1)),
    row("cs-CZ", ",", "\u{00A0}", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("K\u{010D}", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row("da-DK", ",", ".", &[3], 3, ["-", "+"], ["NaN", "\u{221E}", "-\u{221E}"], Cur("kr.", 2, 3, 8), Pct("%", "\u{2030}", 3, 0, 0)),
    row(
        "fi-FI",
        ",",
        "\u{00A0}",
        &[3],
        3,
        ["\u{2212}", "+"],
        ["ep\u{00E4}luku", "\u{221E}", "\u{2212}\u{221E}"],
        Cur("\u{20AC}", 2, 3, 8),
        Pct("%", "\u{2030}", 3, 0, 0),
    ),
    row("nb-NO", ",", "\u{00A0}", &[3], 3, ["\u{2212}", "+"], ["NaN", "\u{221E}", "\u{2212}\u{221E}"], Cur("kr", 2, 2, 12), Pct("%", "\u{2030}", 3, 0, 0)),
];

/// The culture with the given name, matched case-insensitively (`""` is the invariant culture).
pub fn culture(name: &str) -> Option<&'static NumberFormat> {
    CULTURES.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}

/// The invariant culture (`CultureInfo.InvariantCulture.NumberFormat`).
pub fn invariant() -> &'static NumberFormat {
    &CULTURES[0]
}

/// Names of all known cultures, invariant first.
pub fn culture_names() -> impl Iterator<Item = &'static str> {
    CULTURES.iter().map(|c| c.name.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_case_insensitive() {
        assert_eq!(culture("EN-us").map(|c| c.name.as_ref()), Some("en-US"));
        assert_eq!(culture("").map(|c| c.name.as_ref()), Some(""));
        assert!(culture("xx-YY").is_none());
        assert_eq!(invariant().currency_symbol, "\u{00A4}");
    }

    #[test]
    fn icu_specific_values() {
        let fr = culture("fr-FR").map(|c| c.number_group_separator.as_ref());
        assert_eq!(fr, Some("\u{202F}"));
        let ru = culture("ru-RU").map(|c| c.number_group_separator.as_ref());
        assert_eq!(ru, Some("\u{00A0}"));
        let sv = culture("sv-SE").map(|c| c.allow_hyphen_during_parsing());
        assert_eq!(sv, Some(true));
        assert!(!invariant().allow_hyphen_during_parsing());
        assert_eq!(culture_names().count(), CULTURES.len());
    }
}
