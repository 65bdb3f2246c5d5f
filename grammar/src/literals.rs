//! Decoding of literal text: numeric literals (with `_` separators, hex/binary prefixes and
//! suffixes) and escape sequences of character and string literals.
//!
//! Everything here is pure: functions take the literal's text and return a value or a
//! [`LitError`] that the lexer turns into a diagnostic.

use crate::ast::{IntSuffix, Literal, RealSuffix};

/// Why a literal could not be decoded: a C# error code and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LitError {
    pub code: &'static str,
    pub message: String,
}

impl LitError {
    fn new(code: &'static str, message: impl Into<String>) -> LitError {
        LitError { code, message: message.into() }
    }
}

fn too_large() -> LitError {
    LitError::new("CS1021", "Integral constant is too large")
}

fn invalid_number() -> LitError {
    LitError::new("CS1013", "Invalid number")
}

/// Decodes an integer literal such as `1_000`, `0xFF`, `0b1010`, `42UL`.
pub fn int_literal(text: &str) -> Result<Literal, LitError> {
    let body_end = text.trim_end_matches(['u', 'U', 'l', 'L']).len();
    let suffix = int_suffix(&text[body_end..])?;
    let body = &text[..body_end];
    let (digits, radix) = match body.get(..2) {
        Some("0x" | "0X") => (&body[2..], 16),
        Some("0b" | "0B") => (&body[2..], 2),
        _ => (body, 10),
    };
    let value = digits_value(digits, radix)?;
    Ok(Literal::Int { value, suffix })
}

fn int_suffix(s: &str) -> Result<IntSuffix, LitError> {
    match s.to_ascii_lowercase().as_str() {
        "" => Ok(IntSuffix::None),
        "u" => Ok(IntSuffix::U),
        "l" => Ok(IntSuffix::L),
        "ul" | "lu" => Ok(IntSuffix::UL),
        _ => Err(invalid_number()),
    }
}

fn digits_value(digits: &str, radix: u32) -> Result<u64, LitError> {
    let mut value: u64 = 0;
    let mut seen = false;
    for c in digits.chars() {
        if c == '_' {
            continue;
        }
        let d = c.to_digit(radix).ok_or_else(invalid_number)?;
        value = value.checked_mul(u64::from(radix)).and_then(|v| v.checked_add(u64::from(d))).ok_or_else(too_large)?;
        seen = true;
    }
    if seen {
        Ok(value)
    } else {
        Err(invalid_number())
    }
}

/// Decodes a real literal such as `1.5`, `.5`, `1e10`, `2f`, `1.5m`.
pub fn real_literal(text: &str) -> Result<Literal, LitError> {
    let clean: String = text.chars().filter(|&c| c != '_').collect();
    let (body, suffix) = match clean.chars().last() {
        Some('f' | 'F') => (&clean[..clean.len() - 1], Some(RealSuffix::F)),
        Some('d' | 'D') => (&clean[..clean.len() - 1], Some(RealSuffix::D)),
        Some('m' | 'M') => return Ok(Literal::Decimal(clean[..clean.len() - 1].to_string())),
        _ => (clean.as_str(), None),
    };
    let value: f64 = body.parse().map_err(|_| invalid_number())?;
    let suffix = suffix.unwrap_or(RealSuffix::None);
    // A literal is out of range when it rounds to infinity in its type.
    let out_of_range = if suffix == RealSuffix::F { (value as f32).is_infinite() } else { value.is_infinite() };
    if out_of_range {
        let ty = if suffix == RealSuffix::F { "float" } else { "double" };
        return Err(LitError::new("CS0594", format!("Floating-point constant is outside the range of type '{ty}'")));
    }
    Ok(Literal::Real { value, suffix })
}

/// The result of decoding one escape sequence: UTF-16 code units (one or two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Escaped {
    pub units: [u16; 2],
    pub len: usize,
    /// Bytes consumed after the backslash.
    pub consumed: usize,
}

impl Escaped {
    fn one(unit: u16, consumed: usize) -> Escaped {
        Escaped { units: [unit, 0], len: 1, consumed }
    }

    /// The code units as a slice.
    pub fn as_slice(&self) -> &[u16] {
        &self.units[..self.len]
    }
}

/// Decodes the escape sequence that follows a backslash; `rest` starts right after it.
/// On error, returns how many bytes to skip (the offending character).
pub fn escape(rest: &str) -> Result<Escaped, usize> {
    let Some(c) = rest.chars().next() else { return Err(0) };
    let simple = match c {
        '\'' => Some(0x27),
        '"' => Some(0x22),
        '\\' => Some(0x5C),
        '0' => Some(0),
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(0x0C),
        'n' => Some(0x0A),
        'r' => Some(0x0D),
        't' => Some(9),
        'v' => Some(0x0B),
        _ => None,
    };
    if let Some(unit) = simple {
        return Ok(Escaped::one(unit, 1));
    }
    match c {
        'u' => hex_escape(rest, 4, 4).map(|(v, n)| Escaped::one(v as u16, n)),
        'x' => hex_escape(rest, 1, 4).map(|(v, n)| Escaped::one(v as u16, n)),
        'U' => {
            let (v, n) = hex_escape(rest, 8, 8)?;
            let ch = char::from_u32(v).ok_or(n)?;
            let mut units = [0u16; 2];
            let len = ch.encode_utf16(&mut units).len();
            Ok(Escaped { units, len, consumed: n })
        }
        other => Err(other.len_utf8()),
    }
}

/// Reads between `min` and `max` hex digits after the escape letter.
fn hex_escape(rest: &str, min: usize, max: usize) -> Result<(u32, usize), usize> {
    let digits: Vec<u32> = rest[1..].chars().take(max).map_while(|c| c.to_digit(16)).collect();
    if digits.len() < min {
        return Err(1 + digits.len());
    }
    let value = digits.iter().fold(0u32, |acc, d| acc * 16 + d);
    Ok((value, 1 + digits.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> (u64, IntSuffix) {
        match int_literal(text) {
            Ok(Literal::Int { value, suffix }) => (value, suffix),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn integers_with_separators_prefixes_and_suffixes() {
        assert_eq!(int("1_000_000"), (1_000_000, IntSuffix::None));
        assert_eq!(int("0xFF"), (255, IntSuffix::None));
        assert_eq!(int("0x_ff_ff"), (0xFFFF, IntSuffix::None));
        assert_eq!(int("0b1010"), (10, IntSuffix::None));
        assert_eq!(int("42u"), (42, IntSuffix::U));
        assert_eq!(int("42L"), (42, IntSuffix::L));
        assert_eq!(int("42UL"), (42, IntSuffix::UL));
        assert_eq!(int("42lu"), (42, IntSuffix::UL));
        assert_eq!(int("18446744073709551615"), (u64::MAX, IntSuffix::None));
    }

    #[test]
    fn integer_errors() {
        assert_eq!(int_literal("18446744073709551616").unwrap_err().code, "CS1021");
        assert_eq!(int_literal("0xFFFFFFFFFFFFFFFFF").unwrap_err().code, "CS1021");
        assert_eq!(int_literal("1uu").unwrap_err().code, "CS1013");
        assert_eq!(int_literal("0x").unwrap_err().code, "CS1013");
    }

    #[test]
    fn reals() {
        assert_eq!(real_literal("1.5e-3"), Ok(Literal::Real { value: 1.5e-3, suffix: RealSuffix::None }));
        assert_eq!(real_literal(".5"), Ok(Literal::Real { value: 0.5, suffix: RealSuffix::None }));
        assert_eq!(real_literal("2f"), Ok(Literal::Real { value: 2.0, suffix: RealSuffix::F }));
        assert_eq!(real_literal("3D"), Ok(Literal::Real { value: 3.0, suffix: RealSuffix::D }));
        assert_eq!(real_literal("1_0.5m"), Ok(Literal::Decimal("10.5".into())));
        assert_eq!(real_literal("1e400").unwrap_err().code, "CS0594");
    }

    #[test]
    fn escapes() {
        assert_eq!(escape("n").unwrap().as_slice(), &[10]);
        assert_eq!(escape("u0041").unwrap().as_slice(), &[0x41]);
        assert_eq!(escape("x41z").unwrap(), Escaped::one(0x41, 3));
        assert_eq!(escape("x0041").unwrap(), Escaped::one(0x41, 5));
        assert_eq!(escape("U0001F600").unwrap().as_slice(), &[0xD83D, 0xDE00]);
        assert_eq!(escape("q"), Err(1));
        assert_eq!(escape("u12"), Err(3));
        assert_eq!(escape(""), Err(0));
    }
}
