//! Decoders shared by the oracle tables (`oracle_*.rs`): value encodings, the operations the
//! tables exercise, and a checker that reports every mismatching row at once.

use super::{
    culture, format, format_composite, invariant, parse_decimal, parse_float, parse_int, CompositeFailure, Decimal, DecimalError, FloatType, IntType,
    MidpointRounding, Num, NumberFormat, NumberStyles, ParseError,
};

/// Runs `check` on every row and fails with the list of mismatches (`Some(description)`).
pub(super) fn check_table<T>(rows: &[T], check: impl Fn(&T) -> Option<String>) {
    let failures: Vec<String> = rows.iter().filter_map(check).collect();
    assert!(failures.is_empty(), "{} of {} rows differ from .NET:\n{}", failures.len(), rows.len(), failures.join("\n"));
}

/// The named culture (`""` = invariant).
pub(super) fn culture_or_invariant(name: &str) -> &'static NumberFormat {
    culture(name).unwrap_or_else(invariant)
}

fn hex_u64(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap_or(0)
}

/// A decimal from `lo,mid,hi,flags`.
pub(super) fn dec(repr: &str) -> Decimal {
    let p: Vec<u32> = repr.split(',').map(|x| x.parse().unwrap_or(0)).collect();
    Decimal::from_bits(p[0], p[1], p[2], p[3]).unwrap_or_default()
}

/// `lo,mid,hi,flags` of a decimal.
pub(super) fn dec_repr(d: Decimal) -> String {
    let b = d.to_bits();
    format!("{},{},{},{}", b[0], b[1], b[2], b[3])
}

/// A value from its table encoding: integers in decimal, floats as bits, decimals as `GetBits`.
pub(super) fn num(ty: &str, repr: &str) -> Num {
    match ty {
        "f64" => Num::F64(f64::from_bits(hex_u64(repr))),
        "f32" => Num::F32(f32::from_bits(hex_u64(repr) as u32)),
        "dec" => Num::Decimal(dec(repr)),
        "i8" => Num::I8(repr.parse().unwrap_or(0)),
        "i16" => Num::I16(repr.parse().unwrap_or(0)),
        "i32" => Num::I32(repr.parse().unwrap_or(0)),
        "i64" => Num::I64(repr.parse().unwrap_or(0)),
        "u8" => Num::U8(repr.parse().unwrap_or(0)),
        "u16" => Num::U16(repr.parse().unwrap_or(0)),
        "u32" => Num::U32(repr.parse().unwrap_or(0)),
        _ => Num::U64(repr.parse().unwrap_or(0)),
    }
}

fn int_type(ty: &str) -> Option<IntType> {
    Some(match ty {
        "i8" => IntType::I8,
        "i16" => IntType::I16,
        "i32" => IntType::I32,
        "i64" => IntType::I64,
        "u8" => IntType::U8,
        "u16" => IntType::U16,
        "u32" => IntType::U32,
        "u64" => IntType::U64,
        _ => return None,
    })
}

fn show_parse_error(e: ParseError, input: &str, ty_name: &str) -> String {
    let name = e.exception_type().trim_start_matches("System.");
    format!("!{name}: {}", e.message(input, ty_name))
}

/// A parse result as the oracle printed it.
pub(super) fn parse_as(ty: &str, style: u32, culture_name: &str, input: &str) -> String {
    let nf = culture_or_invariant(culture_name);
    let style = NumberStyles(style);
    if let Some(t) = int_type(ty) {
        return match parse_int(input, t, style, nf) {
            Ok(n) => format(n, "", invariant()).unwrap_or_default(),
            Err(e) => show_parse_error(e, input, t.dotnet_name()),
        };
    }
    match ty {
        "f64" => match parse_float(input, FloatType::F64, style, nf) {
            Ok(Num::F64(v)) => format!("0x{:016X}", v.to_bits()),
            Ok(other) => format!("{other:?}"),
            Err(e) => show_parse_error(e, input, "Double"),
        },
        "f32" => match parse_float(input, FloatType::F32, style, nf) {
            Ok(Num::F32(v)) => format!("0x{:08X}", v.to_bits()),
            Ok(other) => format!("{other:?}"),
            Err(e) => show_parse_error(e, input, "Single"),
        },
        _ => match parse_decimal(input, style, nf) {
            Ok(d) => dec_repr(d),
            Err(e) => show_parse_error(e, input, "Decimal"),
        },
    }
}

fn show_decimal(r: Result<Decimal, DecimalError>) -> String {
    match r {
        Ok(d) => dec_repr(d),
        Err(e) => format!("!{}: {}", e.exception_type().trim_start_matches("System."), e.message()),
    }
}

fn mode(op: &str) -> MidpointRounding {
    match op {
        "round_away" => MidpointRounding::AwayFromZero,
        "round_zero" => MidpointRounding::ToZero,
        "round_neg" => MidpointRounding::ToNegativeInfinity,
        "round_pos" => MidpointRounding::ToPositiveInfinity,
        _ => MidpointRounding::ToEven,
    }
}

/// A decimal operation as the oracle printed it.
pub(super) fn decimal_op(op: &str, a: &str, b: &str) -> String {
    let x = || dec(a);
    match op {
        "add" => show_decimal(x().add(dec(b))),
        "sub" => show_decimal(x().sub(dec(b))),
        "mul" => show_decimal(x().mul(dec(b))),
        "div" => show_decimal(x().div(dec(b))),
        "rem" => show_decimal(x().rem(dec(b))),
        "cmp" => (x().cmp(&dec(b)) as i32).to_string(),
        "floor" => dec_repr(x().floor()),
        "ceiling" => dec_repr(x().ceiling()),
        "truncate" => dec_repr(x().truncate()),
        "neg" => dec_repr(-x()),
        "str" => x().to_string(),
        "hash" => x().hash_code().to_string(),
        "to_i32" => x().to_i32().map_or_else(|e| format!("!OverflowException: {}", e.message()), |v| v.to_string()),
        "to_i64" => x().to_i64().map_or_else(|e| format!("!OverflowException: {}", e.message()), |v| v.to_string()),
        "to_f64" => format!("0x{:016X}", x().to_f64().to_bits()),
        "to_f32" => format!("0x{:08X}", x().to_f32().to_bits()),
        "from_f64" => show_decimal(Decimal::from_f64(f64::from_bits(hex_u64(a)))),
        "from_f32" => show_decimal(Decimal::from_f32(f32::from_bits(hex_u64(a) as u32))),
        _ => show_decimal(x().round(b.parse().unwrap_or(0), mode(op))),
    }
}

/// `string.Format(InvariantCulture, fmt, 3.14159, -42)` or the exception it throws (3.14159 is
/// the literal the oracle program used, not an approximation of π).
#[allow(clippy::approx_constant)]
pub(super) fn composite_with_two_args(fmt: &str) -> String {
    let args = [Num::F64(3.14159), Num::I32(-42)];
    let result = format_composite(fmt, args.len(), |i, f| format(args[i], f.unwrap_or(""), invariant()));
    match result {
        Ok(s) => s,
        Err(CompositeFailure::Syntax(e)) => format!("!FormatException: {}", e.message()),
        Err(CompositeFailure::Arg(e)) => format!("!FormatException: {}", e.message()),
    }
}
