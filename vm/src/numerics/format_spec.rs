//! Standard-format-string recognition (.NET's `Number.ParseFormatSpecifier`): a letter followed only
//! by digits (`"F2"`, `"X8"`, `"G"`) is a standard format with that precision; anything else is a
//! custom format. An empty string means `"G"`; a NUL ends the specifier early, as in .NET.

use super::format::FormatError;

/// Largest precision .NET 8 accepts (`"F999999999"`); ten digits or more are rejected.
pub(super) const MAX_PRECISION: i32 = 999_999_999;

/// A recognised format string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spec {
    /// Standard format: the letter and the precision (`-1` when none was given).
    Standard(char, i32),
    /// Custom (picture) format such as `"0.00"` or `"#,##0;(#)"`.
    Custom,
}

/// Classifies a format string; `Err` for a standard format whose precision has ten or more digits.
pub(super) fn parse_format_specifier(format: &[char]) -> Result<Spec, FormatError> {
    let Some(&first) = format.first() else {
        return Ok(Spec::Standard('G', -1));
    };
    if first.is_ascii_alphabetic() {
        if let Some(precision) = trailing_precision(&format[1..])? {
            return Ok(Spec::Standard(first, precision));
        }
    }
    if first == '\0' {
        return Ok(Spec::Standard('G', -1));
    }
    Ok(Spec::Custom)
}

/// The precision digits after the letter: `Some(-1)` when there are none, `None` when other
/// characters follow (so the format is custom).
fn trailing_precision(rest: &[char]) -> Result<Option<i32>, FormatError> {
    if rest.is_empty() {
        return Ok(Some(-1));
    }
    let mut n: i32 = 0;
    let mut i = 0;
    while let Some(d) = rest.get(i).and_then(|c| c.to_digit(10)) {
        if n > MAX_PRECISION / 10 {
            return Err(FormatError::BadFormatSpecifier);
        }
        n = n * 10 + d as i32;
        i += 1;
    }
    if i == rest.len() || rest[i] == '\0' {
        return Ok(Some(n));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> Result<Spec, FormatError> {
        parse_format_specifier(&s.chars().collect::<Vec<_>>())
    }

    #[test]
    fn specifier_table() {
        let cases: &[(&str, Result<Spec, FormatError>)] = &[
            ("", Ok(Spec::Standard('G', -1))),
            ("F", Ok(Spec::Standard('F', -1))),
            ("x4", Ok(Spec::Standard('x', 4))),
            ("F12", Ok(Spec::Standard('F', 12))),
            ("D0000000005", Ok(Spec::Standard('D', 5))),
            ("F999999999", Ok(Spec::Standard('F', MAX_PRECISION))),
            ("F1000000000", Err(FormatError::BadFormatSpecifier)),
            ("F2\0abc", Ok(Spec::Standard('F', 2))),
            ("F\0", Ok(Spec::Standard('F', 0))),
            ("\0abc", Ok(Spec::Standard('G', -1))),
            ("0.00", Ok(Spec::Custom)),
            ("Fx", Ok(Spec::Custom)),
            ("F2 ", Ok(Spec::Custom)),
            ("#", Ok(Spec::Custom)),
            ("Q", Ok(Spec::Standard('Q', -1))),
        ];
        for (s, expected) in cases {
            assert_eq!(&spec(s), expected, "{s:?}");
        }
    }
}
