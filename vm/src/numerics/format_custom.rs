//! Custom (picture) numeric formats (.NET's `Number.NumberToStringFormat`): `0` and `#`
//! placeholders, `.`, `,` (grouping and ÷1000 scaling), `%`, `‰`, `E0`/`e+00` exponents, `\`
//! escapes, `'…'`/`"…"` literals and `;`-separated positive/negative/zero sections. Rounding here
//! is ties-away-from-zero on the digit buffer.

use super::culture::NumberFormat;
use super::format_standard::format_exponent;
use super::number_buffer::{Kind, NumberBuffer};

/// Reads the format like .NET's NUL-terminated span: past the end reads as NUL.
struct Pic<'a> {
    chars: &'a [char],
}

impl Pic<'_> {
    fn at(&self, i: usize) -> char {
        self.chars.get(i).copied().unwrap_or('\0')
    }

    /// True when `i` is inside the current section text (not at the end, a NUL or `;` is checked by callers).
    fn live(&self, i: usize) -> bool {
        i < self.chars.len() && self.chars[i] != '\0'
    }

    /// Skips a quoted literal starting after the opening `quote`; returns the index after the closing quote.
    fn skip_quoted(&self, mut src: usize, quote: char) -> usize {
        while self.live(src) {
            let c = self.chars[src];
            src += 1;
            if c == quote {
                break;
            }
        }
        src
    }
}

/// What the scan of one section found.
#[derive(Default)]
struct Layout {
    digit_count: i32,
    decimal_pos: i32,
    first_digit: i32,
    last_digit: i32,
    scientific: bool,
    thousand_seps: bool,
    scale_adjust: i32,
}

/// Index where section `section` (0 positive, 1 negative, 2 zero) starts; 0 when it is missing or empty.
fn find_section(pic: &Pic, mut section: u32) -> usize {
    if section == 0 {
        return 0;
    }
    let mut src = 0usize;
    loop {
        if src >= pic.chars.len() {
            return 0;
        }
        let ch = pic.chars[src];
        src += 1;
        match ch {
            '\'' | '"' => src = pic.skip_quoted(src, ch),
            '\\' if pic.live(src) => src += 1,
            ';' => {
                section -= 1;
                if section != 0 {
                    continue;
                }
                if pic.live(src) && pic.chars[src] != ';' {
                    return src;
                }
                return 0;
            }
            '\0' => return 0,
            _ => {}
        }
    }
}

/// Scans one section for placeholders, the decimal point, grouping/scaling commas, percent signs
/// and an exponent.
fn scan_section(pic: &Pic, section: usize) -> Layout {
    let mut l = Layout { decimal_pos: -1, first_digit: i32::MAX, ..Layout::default() };
    let mut thousand_pos = -1i32;
    let mut thousand_count = 0i32;
    let mut src = section;
    while pic.live(src) && pic.chars[src] != ';' {
        let ch = pic.chars[src];
        src += 1;
        match ch {
            '#' => l.digit_count += 1,
            '0' => {
                if l.first_digit == i32::MAX {
                    l.first_digit = l.digit_count;
                }
                l.digit_count += 1;
                l.last_digit = l.digit_count;
            }
            '.' if l.decimal_pos < 0 => l.decimal_pos = l.digit_count,
            ',' if l.digit_count > 0 && l.decimal_pos < 0 => {
                if thousand_pos >= 0 {
                    if thousand_pos == l.digit_count {
                        thousand_count += 1;
                        continue;
                    }
                    l.thousand_seps = true;
                }
                thousand_pos = l.digit_count;
                thousand_count = 1;
            }
            '%' => l.scale_adjust += 2,
            '\u{2030}' => l.scale_adjust += 3,
            '\'' | '"' => src = pic.skip_quoted(src, ch),
            '\\' if pic.live(src) => src += 1,
            'E' | 'e' if starts_exponent(pic, src) => {
                src += 1;
                while src < pic.chars.len() && pic.chars[src] == '0' {
                    src += 1;
                }
                l.scientific = true;
            }
            _ => {}
        }
    }
    if l.decimal_pos < 0 {
        l.decimal_pos = l.digit_count;
    }
    if thousand_pos >= 0 {
        if thousand_pos == l.decimal_pos {
            l.scale_adjust -= thousand_count * 3;
        } else {
            l.thousand_seps = true;
        }
    }
    l
}

/// `E`/`e` starts an exponent when followed by `0`, `+0` or `-0`.
fn starts_exponent(pic: &Pic, src: usize) -> bool {
    pic.at(src) == '0' || (matches!(pic.at(src), '+' | '-') && src + 1 < pic.chars.len() && pic.at(src + 1) == '0')
}

/// Picks the section, applies scaling and rounding (switching to the zero section when the
/// value rounds to zero), and returns the section start and its layout.
fn choose_section(pic: &Pic, number: &mut NumberBuffer) -> (usize, Layout) {
    let which = if number.is_zero() {
        2
    } else if number.negative {
        1
    } else {
        0
    };
    let mut section = find_section(pic, which);
    loop {
        let layout = scan_section(pic, section);
        if !number.is_zero() {
            number.scale = number.scale.saturating_add(layout.scale_adjust);
            let pos = if layout.scientific { layout.digit_count } else { number.scale.saturating_add(layout.digit_count).saturating_sub(layout.decimal_pos) };
            number.round(pos, false);
            if number.is_zero() {
                let zero_section = find_section(pic, 2);
                if zero_section != section {
                    section = zero_section;
                    continue;
                }
            }
        } else {
            if number.kind != Kind::FloatingPoint {
                number.negative = false;
            }
            number.scale = 0;
        }
        return (section, layout);
    }
}

/// Output-side state of the placeholder walk.
struct Emitter<'a> {
    number: &'a NumberBuffer,
    nf: &'a NumberFormat,
    out: String,
    cur: usize,
    dig_pos: i32,
    adjust: i32,
    thousand_seps: bool,
    sep_positions: Vec<i32>,
    sep_index: i32,
}

impl Emitter<'_> {
    /// Emits a digit and, when the position calls for it, a group separator.
    fn push_digit(&mut self, ch: char) {
        self.out.push(ch);
        if self.thousand_seps && self.dig_pos > 1 && self.sep_index >= 0 {
            let at = usize::try_from(self.sep_index).ok().and_then(|i| self.sep_positions.get(i)).copied();
            if at.is_some_and(|p| self.dig_pos == p + 1) {
                self.out.push_str(&self.nf.number_group_separator);
                self.sep_index -= 1;
            }
        }
    }

    /// Next digit of the number, or None once exhausted.
    fn take_digit(&mut self) -> Option<char> {
        match self.number.dig(self.cur) {
            0 => None,
            d => {
                self.cur += 1;
                Some(char::from(d))
            }
        }
    }

    /// Digits that do not fit the integer placeholders go before the first one.
    fn flush_overflow_digits(&mut self) {
        while self.adjust > 0 {
            let ch = self.take_digit().unwrap_or('0');
            self.push_digit(ch);
            self.dig_pos -= 1;
            self.adjust -= 1;
        }
    }
}

/// Positions (counted from the decimal point) after which a group separator goes.
fn separator_positions(nf: &NumberFormat, dig_pos: i32, adjust: i32, first_digit: i32) -> Vec<i32> {
    let mut positions = Vec::new();
    if nf.number_group_separator.is_empty() {
        return positions;
    }
    let groups = &nf.number_group_sizes;
    let mut group_index = 0usize;
    let mut total = i64::from(groups.first().copied().unwrap_or(0));
    let mut size = total;
    let total_digits = i64::from(dig_pos) + i64::from(adjust.min(0));
    let num_digits = i64::from(first_digit).max(total_digits);
    while num_digits > total {
        if size <= 0 {
            break;
        }
        positions.push(total as i32);
        if group_index + 1 < groups.len() {
            group_index += 1;
            size = i64::from(groups[group_index]);
        }
        total += size;
    }
    positions
}

/// Appends `number` formatted with the custom format `format`.
pub(super) fn number_to_string_format(out: &mut String, number: &mut NumberBuffer, format: &[char], nf: &NumberFormat) {
    let pic = Pic { chars: format };
    let (section, layout) = choose_section(&pic, number);
    let first_digit = if layout.first_digit < layout.decimal_pos { layout.decimal_pos - layout.first_digit } else { 0 };
    let last_digit = if layout.last_digit > layout.decimal_pos { layout.decimal_pos - layout.last_digit } else { 0 };
    let (dig_pos, adjust) =
        if layout.scientific { (layout.decimal_pos, 0) } else { (number.scale.max(layout.decimal_pos), number.scale.saturating_sub(layout.decimal_pos)) };
    let sep_positions = if layout.thousand_seps { separator_positions(nf, dig_pos, adjust, first_digit) } else { Vec::new() };
    let number: &NumberBuffer = number;
    let mut e = Emitter {
        number,
        nf,
        out: String::new(),
        cur: 0,
        dig_pos,
        adjust,
        thousand_seps: layout.thousand_seps,
        sep_index: sep_positions.len() as i32 - 1,
        sep_positions,
    };
    if number.negative && section == 0 && number.scale != 0 {
        e.out.push_str(&nf.negative_sign);
    }
    emit_section(&pic, section, &layout, first_digit, last_digit, &mut e);
    if number.negative && section == 0 && number.scale == 0 && !e.out.is_empty() {
        e.out.insert_str(0, &nf.negative_sign);
    }
    out.push_str(&e.out);
}

/// Walks the section a second time, producing output.
fn emit_section(pic: &Pic, section: usize, layout: &Layout, first_digit: i32, last_digit: i32, e: &mut Emitter) {
    let mut decimal_written = false;
    let mut scientific = layout.scientific;
    let mut src = section;
    while pic.live(src) && pic.chars[src] != ';' {
        let ch = pic.chars[src];
        src += 1;
        if e.adjust > 0 && matches!(ch, '#' | '0' | '.') {
            e.flush_overflow_digits();
        }
        match ch {
            '#' | '0' => {
                let digit = if e.adjust < 0 {
                    e.adjust += 1;
                    (e.dig_pos <= first_digit).then_some('0')
                } else {
                    e.take_digit().or((e.dig_pos > last_digit).then_some('0'))
                };
                if let Some(d) = digit {
                    e.push_digit(d);
                }
                e.dig_pos -= 1;
            }
            '.' => {
                if e.dig_pos == 0 && !decimal_written && (last_digit < 0 || (layout.decimal_pos < layout.digit_count && e.number.dig(e.cur) != 0)) {
                    e.out.push_str(&e.nf.number_decimal_separator);
                    decimal_written = true;
                }
            }
            '\u{2030}' => e.out.push_str(&e.nf.per_mille_symbol),
            '%' => e.out.push_str(&e.nf.percent_symbol),
            ',' => {}
            '\'' | '"' => {
                while pic.live(src) && pic.chars[src] != ch {
                    e.out.push(pic.chars[src]);
                    src += 1;
                }
                if pic.live(src) {
                    src += 1;
                }
            }
            '\\' => {
                if pic.live(src) {
                    e.out.push(pic.chars[src]);
                    src += 1;
                }
            }
            'E' | 'e' => src = emit_exponent(pic, src, ch, layout.decimal_pos, &mut scientific, e),
            _ => e.out.push(ch),
        }
    }
}

/// Handles an `E`/`e` at `src - 1`; returns the index after what it consumed.
fn emit_exponent(pic: &Pic, mut src: usize, ch: char, decimal_pos: i32, scientific: &mut bool, e: &mut Emitter) -> usize {
    if !*scientific {
        e.out.push(ch);
        if src < pic.chars.len() {
            if matches!(pic.chars[src], '+' | '-') {
                e.out.push(pic.chars[src]);
                src += 1;
            }
            while src < pic.chars.len() && pic.chars[src] == '0' {
                e.out.push('0');
                src += 1;
            }
        }
        return src;
    }
    let mut min_digits = 0usize;
    let mut positive_sign = false;
    if pic.at(src) == '0' {
        min_digits += 1;
    } else if src + 1 < pic.chars.len() && pic.at(src) == '+' && pic.at(src + 1) == '0' {
        positive_sign = true;
    } else if !(src + 1 < pic.chars.len() && pic.at(src) == '-' && pic.at(src + 1) == '0') {
        e.out.push(ch);
        return src;
    }
    src += 1;
    while src < pic.chars.len() && pic.chars[src] == '0' {
        min_digits += 1;
        src += 1;
    }
    let exp = if e.number.is_zero() { 0 } else { i64::from(e.number.scale) - i64::from(decimal_pos) };
    format_exponent(&mut e.out, e.nf, exp, ch, min_digits.min(10), positive_sign);
    *scientific = false;
    src
}

#[cfg(test)]
mod tests {
    use super::super::culture::invariant;
    use super::*;

    fn run(digits: &str, scale: i32, negative: bool, kind: Kind, format: &str) -> String {
        let mut number = NumberBuffer { digits: digits.as_bytes().to_vec(), scale, negative, kind };
        let mut out = String::new();
        let chars: Vec<char> = format.chars().collect();
        number_to_string_format(&mut out, &mut number, &chars, invariant());
        out
    }

    #[test]
    fn picture_table() {
        let cases: &[(&str, i32, bool, Kind, &str, &str)] = &[
            ("25", 1, false, Kind::FloatingPoint, "0", "3"),
            ("125", 0, false, Kind::FloatingPoint, "0.00", "0.13"),
            ("1234567", 7, false, Kind::Integer, "#,##0", "1,234,567"),
            ("1234567", 7, false, Kind::Integer, "0,,", "1"),
            ("1234567", 7, true, Kind::Integer, "#;(#)", "(1234567)"),
            ("4", 0, true, Kind::FloatingPoint, "0", "-0"),
            ("4", 0, true, Kind::Decimal, "0", "0"),
            ("4", 0, true, Kind::Decimal, "0;neg;zero", "zero"),
            ("15", 2, false, Kind::Integer, "0E0", "2E1"),
            ("15", 1, false, Kind::FloatingPoint, "0E+000000000000000", "2E+0000000000"),
            ("5", 0, false, Kind::FloatingPoint, "0.0%", "50.0%"),
            ("42", 2, false, Kind::Integer, "'#'0\\#", "#42#"),
        ];
        for &(d, s, neg, kind, f, expected) in cases {
            assert_eq!(run(d, s, neg, kind, f), expected, "{d} {s} {f}");
        }
    }
}
