//! Deterministic fuzzing of the public functions: inputs from a tiny xorshift PRNG must never
//! panic (errors are fine), and a few cheap invariants must hold.

use super::{
    align, culture_names, format, format_composite, invariant, parse_composite, parse_decimal, parse_float, parse_int, round_double, Decimal, FloatType,
    IntType, MidpointRounding, Num, NumberStyles,
};

/// xorshift64: small, deterministic, good enough to shake out panics.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A string of up to `max_len` characters drawn from `alphabet`.
    fn string(&mut self, alphabet: &[char], max_len: usize) -> String {
        let len = self.below(max_len + 1);
        (0..len).map(|_| self.pick(alphabet)).collect()
    }

    fn decimal(&mut self) -> Decimal {
        let mantissa = u128::from(self.next()) | (u128::from(self.next() as u32) << 64);
        let mantissa = mantissa >> self.below(96);
        Decimal::from_parts(mantissa, self.below(29) as u32, self.next() & 1 == 1).unwrap_or_default()
    }

    fn num(&mut self) -> Num {
        match self.below(11) {
            0 => Num::I8(self.next() as i8),
            1 => Num::I16(self.next() as i16),
            2 => Num::I32(self.next() as i32),
            3 => Num::I64(self.next() as i64),
            4 => Num::U8(self.next() as u8),
            5 => Num::U16(self.next() as u16),
            6 => Num::U32(self.next() as u32),
            7 => Num::U64(self.next()),
            8 => Num::F32(f32::from_bits(self.next() as u32)),
            9 => Num::F64(f64::from_bits(self.next())),
            _ => Num::Decimal(self.decimal()),
        }
    }
}

const FORMAT_CHARS: &[char] = &[
    '0',
    '#',
    '.',
    ',',
    '%',
    '\u{2030}',
    'E',
    'e',
    '+',
    '-',
    ';',
    '\'',
    '"',
    '\\',
    'x',
    'X',
    'D',
    'F',
    'N',
    'G',
    'R',
    'C',
    'P',
    'B',
    '1',
    '2',
    '9',
    ' ',
    '\0',
    '\u{1F600}',
    '\u{00A0}',
];

const NUMBER_CHARS: &[char] = &[
    '0', '1', '5', '9', '.', ',', '-', '+', 'e', 'E', ' ', '\t', '(', ')', '$', '\u{20AC}', '\u{00A0}', '\u{202F}', '\u{2212}', 'N', 'a', 'I', 'n', 'f',
    '\u{221E}', '\0', 'F', 'x',
];

const COMPOSITE_CHARS: &[char] = &['{', '}', '0', '1', '2', ',', '-', ':', ' ', 'F', 'a', '\u{1F600}'];

/// Standard formats with a huge precision are valid but allocate that many digits; skip them.
fn is_huge_precision(fmt: &str) -> bool {
    let mut chars = fmt.chars();
    let letter = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    let digits: String = chars.take_while(char::is_ascii_digit).collect();
    letter && digits.trim_start_matches('0').len() > 4
}

#[test]
fn formatting_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let cultures: Vec<&str> = culture_names().collect();
    for _ in 0..20_000 {
        let fmt = rng.string(FORMAT_CHARS, 10);
        if is_huge_precision(&fmt) {
            continue;
        }
        let nf = super::culture(rng.pick(&cultures)).unwrap_or_else(invariant);
        let value = rng.num();
        if let Ok(s) = format(value, &fmt, nf) {
            assert!(s.len() < 100_000, "{value:?} {fmt:?}");
        }
    }
}

#[test]
fn parsing_never_panics() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let cultures: Vec<&str> = culture_names().collect();
    let types = [IntType::I8, IntType::I16, IntType::I32, IntType::I64, IntType::U8, IntType::U16, IntType::U32, IntType::U64];
    for _ in 0..20_000 {
        let input = rng.string(NUMBER_CHARS, 14);
        let style = NumberStyles((rng.next() & 0xFFF) as u32);
        let nf = super::culture(rng.pick(&cultures)).unwrap_or_else(invariant);
        let _ = parse_int(&input, rng.pick(&types), style, nf);
        let _ = parse_float(&input, FloatType::F64, style, nf);
        let _ = parse_float(&input, FloatType::F32, style, nf);
        if let Ok(d) = parse_decimal(&input, style, nf) {
            assert!(d.scale() <= 28 && d.mantissa() < (1u128 << 96));
        }
    }
}

#[test]
fn decimal_arithmetic_never_panics() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let modes = [
        MidpointRounding::ToEven,
        MidpointRounding::AwayFromZero,
        MidpointRounding::ToZero,
        MidpointRounding::ToNegativeInfinity,
        MidpointRounding::ToPositiveInfinity,
    ];
    for _ in 0..20_000 {
        let (a, b) = (rng.decimal(), rng.decimal());
        for r in [a.add(b), a.sub(b), a.mul(b), a.div(b), a.rem(b)].into_iter().flatten() {
            assert!(r.scale() <= 28 && r.mantissa() < (1u128 << 96));
        }
        let _ = a.round(rng.below(40) as i32 - 5, rng.pick(&modes));
        let _ = (a.floor(), a.ceiling(), a.truncate(), a.to_i32(), a.to_i64(), a.to_f64(), a.hash_code());
        let _ = Decimal::from_f64(f64::from_bits(rng.next()));
        let _ = Decimal::from_f32(f32::from_bits(rng.next() as u32));
        assert_eq!(a.cmp(&b), b.cmp(&a).reverse());
    }
}

#[test]
fn composite_and_rounding_never_panic() {
    let mut rng = Rng(0x5851_F42D_4C95_7F2D);
    for _ in 0..20_000 {
        let fmt = rng.string(COMPOSITE_CHARS, 12);
        let _ = parse_composite(&fmt);
        let wide = fmt.split(',').skip(1).any(|s| s.trim_start_matches([' ', '-']).chars().take_while(char::is_ascii_digit).count() > 4);
        if !wide {
            let _ = format_composite(&fmt, 2, |i, f| format(Num::I32(i as i32), f.unwrap_or(""), invariant()));
        }
        let _ = align(&fmt, rng.below(40) as i32 - 20);
        let x = f64::from_bits(rng.next());
        let r = round_double(x, rng.below(40) as i32 - 10, MidpointRounding::ToEven);
        assert!(r.is_nan() == x.is_nan());
    }
}
