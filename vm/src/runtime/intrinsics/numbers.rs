//! Numeric intrinsics: `ToString` with formats and cultures, `Parse`/`TryParse` for every
//! numeric type, `decimal` arithmetic, and culture names.

use super::format::{format_number, num_of};
use super::support::{arg, int_arg, nre, throw};
use crate::runtime::native::{ExceptionKind, NativeEntry, NativeError, NativeResult};
use crate::runtime::numerics::{self, Decimal, DecimalError, FloatType, IntType, MidpointRounding, Num, NumberStyles};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Number.ToString", func: to_string },
    NativeEntry { name: "Number.ToStringFormat", func: to_string_format },
    NativeEntry { name: "Number.ToStringProvider", func: to_string_provider },
    NativeEntry { name: "Number.ToStringFormatProvider", func: to_string_format_provider },
    NativeEntry { name: "Number.IsInteger", func: is_integer },
    NativeEntry { name: "Number.FloatHash", func: float_hash },
    NativeEntry { name: "Number.ParseSByte", func: |vm, a| parse_int(vm, a, IntType::I8, false, false) },
    NativeEntry { name: "Number.ParseByte", func: |vm, a| parse_int(vm, a, IntType::U8, false, false) },
    NativeEntry { name: "Number.ParseInt16", func: |vm, a| parse_int(vm, a, IntType::I16, false, false) },
    NativeEntry { name: "Number.ParseUInt16", func: |vm, a| parse_int(vm, a, IntType::U16, false, false) },
    NativeEntry { name: "Number.ParseInt32", func: |vm, a| parse_int(vm, a, IntType::I32, false, false) },
    NativeEntry { name: "Number.ParseUInt32", func: |vm, a| parse_int(vm, a, IntType::U32, false, false) },
    NativeEntry { name: "Number.ParseInt64", func: |vm, a| parse_int(vm, a, IntType::I64, false, false) },
    NativeEntry { name: "Number.ParseUInt64", func: |vm, a| parse_int(vm, a, IntType::U64, false, false) },
    NativeEntry { name: "Number.ParseSByteStyles", func: |vm, a| parse_int(vm, a, IntType::I8, true, false) },
    NativeEntry { name: "Number.ParseByteStyles", func: |vm, a| parse_int(vm, a, IntType::U8, true, false) },
    NativeEntry { name: "Number.ParseInt16Styles", func: |vm, a| parse_int(vm, a, IntType::I16, true, false) },
    NativeEntry { name: "Number.ParseUInt16Styles", func: |vm, a| parse_int(vm, a, IntType::U16, true, false) },
    NativeEntry { name: "Number.ParseInt32Styles", func: |vm, a| parse_int(vm, a, IntType::I32, true, false) },
    NativeEntry { name: "Number.ParseUInt32Styles", func: |vm, a| parse_int(vm, a, IntType::U32, true, false) },
    NativeEntry { name: "Number.ParseInt64Styles", func: |vm, a| parse_int(vm, a, IntType::I64, true, false) },
    NativeEntry { name: "Number.ParseUInt64Styles", func: |vm, a| parse_int(vm, a, IntType::U64, true, false) },
    NativeEntry { name: "Number.ParseSByteProvider", func: |vm, a| parse_int(vm, a, IntType::I8, false, true) },
    NativeEntry { name: "Number.ParseByteProvider", func: |vm, a| parse_int(vm, a, IntType::U8, false, true) },
    NativeEntry { name: "Number.ParseInt16Provider", func: |vm, a| parse_int(vm, a, IntType::I16, false, true) },
    NativeEntry { name: "Number.ParseUInt16Provider", func: |vm, a| parse_int(vm, a, IntType::U16, false, true) },
    NativeEntry { name: "Number.ParseInt32Provider", func: |vm, a| parse_int(vm, a, IntType::I32, false, true) },
    NativeEntry { name: "Number.ParseUInt32Provider", func: |vm, a| parse_int(vm, a, IntType::U32, false, true) },
    NativeEntry { name: "Number.ParseInt64Provider", func: |vm, a| parse_int(vm, a, IntType::I64, false, true) },
    NativeEntry { name: "Number.ParseUInt64Provider", func: |vm, a| parse_int(vm, a, IntType::U64, false, true) },
    NativeEntry { name: "Number.ParseSByteStylesProvider", func: |vm, a| parse_int(vm, a, IntType::I8, true, true) },
    NativeEntry { name: "Number.ParseByteStylesProvider", func: |vm, a| parse_int(vm, a, IntType::U8, true, true) },
    NativeEntry { name: "Number.ParseInt16StylesProvider", func: |vm, a| parse_int(vm, a, IntType::I16, true, true) },
    NativeEntry { name: "Number.ParseUInt16StylesProvider", func: |vm, a| parse_int(vm, a, IntType::U16, true, true) },
    NativeEntry { name: "Number.ParseInt32StylesProvider", func: |vm, a| parse_int(vm, a, IntType::I32, true, true) },
    NativeEntry { name: "Number.ParseUInt32StylesProvider", func: |vm, a| parse_int(vm, a, IntType::U32, true, true) },
    NativeEntry { name: "Number.ParseInt64StylesProvider", func: |vm, a| parse_int(vm, a, IntType::I64, true, true) },
    NativeEntry { name: "Number.ParseUInt64StylesProvider", func: |vm, a| parse_int(vm, a, IntType::U64, true, true) },
    NativeEntry { name: "Number.TryParseSByte", func: |vm, a| try_parse_int(vm, a, IntType::I8) },
    NativeEntry { name: "Number.TryParseByte", func: |vm, a| try_parse_int(vm, a, IntType::U8) },
    NativeEntry { name: "Number.TryParseInt16", func: |vm, a| try_parse_int(vm, a, IntType::I16) },
    NativeEntry { name: "Number.TryParseUInt16", func: |vm, a| try_parse_int(vm, a, IntType::U16) },
    NativeEntry { name: "Number.TryParseInt32", func: |vm, a| try_parse_int(vm, a, IntType::I32) },
    NativeEntry { name: "Number.TryParseUInt32", func: |vm, a| try_parse_int(vm, a, IntType::U32) },
    NativeEntry { name: "Number.TryParseInt64", func: |vm, a| try_parse_int(vm, a, IntType::I64) },
    NativeEntry { name: "Number.TryParseUInt64", func: |vm, a| try_parse_int(vm, a, IntType::U64) },
    NativeEntry { name: "Number.ParseSingle", func: |vm, a| parse_float(vm, a, FloatType::F32, false, false) },
    NativeEntry { name: "Number.ParseDouble", func: |vm, a| parse_float(vm, a, FloatType::F64, false, false) },
    NativeEntry { name: "Number.ParseSingleStyles", func: |vm, a| parse_float(vm, a, FloatType::F32, true, false) },
    NativeEntry { name: "Number.ParseDoubleStyles", func: |vm, a| parse_float(vm, a, FloatType::F64, true, false) },
    NativeEntry { name: "Number.ParseSingleProvider", func: |vm, a| parse_float(vm, a, FloatType::F32, false, true) },
    NativeEntry { name: "Number.ParseDoubleProvider", func: |vm, a| parse_float(vm, a, FloatType::F64, false, true) },
    NativeEntry { name: "Number.ParseSingleStylesProvider", func: |vm, a| parse_float(vm, a, FloatType::F32, true, true) },
    NativeEntry { name: "Number.ParseDoubleStylesProvider", func: |vm, a| parse_float(vm, a, FloatType::F64, true, true) },
    NativeEntry { name: "Number.TryParseSingle", func: |vm, a| try_parse_float(vm, a, FloatType::F32) },
    NativeEntry { name: "Number.TryParseDouble", func: |vm, a| try_parse_float(vm, a, FloatType::F64) },
    NativeEntry { name: "Number.ParseDecimal", func: |vm, a| parse_dec(vm, a, false, false) },
    NativeEntry { name: "Number.ParseDecimalStyles", func: |vm, a| parse_dec(vm, a, true, false) },
    NativeEntry { name: "Number.ParseDecimalProvider", func: |vm, a| parse_dec(vm, a, false, true) },
    NativeEntry { name: "Number.ParseDecimalStylesProvider", func: |vm, a| parse_dec(vm, a, true, true) },
    NativeEntry { name: "Number.TryParseDecimal", func: try_parse_dec },
    NativeEntry { name: "Decimal.Add", func: |vm, a| dec_binary(vm, a, Decimal::add) },
    NativeEntry { name: "Decimal.Sub", func: |vm, a| dec_binary(vm, a, Decimal::sub) },
    NativeEntry { name: "Decimal.Mul", func: |vm, a| dec_binary(vm, a, Decimal::mul) },
    NativeEntry { name: "Decimal.Div", func: |vm, a| dec_binary(vm, a, Decimal::div) },
    NativeEntry { name: "Decimal.Rem", func: |vm, a| dec_binary(vm, a, Decimal::rem) },
    NativeEntry { name: "Decimal.Neg", func: dec_neg },
    NativeEntry { name: "Decimal.Eq", func: |vm, a| dec_cmp(vm, a, |o| o.is_eq()) },
    NativeEntry { name: "Decimal.Ne", func: |vm, a| dec_cmp(vm, a, |o| o.is_ne()) },
    NativeEntry { name: "Decimal.Lt", func: |vm, a| dec_cmp(vm, a, |o| o.is_lt()) },
    NativeEntry { name: "Decimal.Gt", func: |vm, a| dec_cmp(vm, a, |o| o.is_gt()) },
    NativeEntry { name: "Decimal.Le", func: |vm, a| dec_cmp(vm, a, |o| o.is_le()) },
    NativeEntry { name: "Decimal.Ge", func: |vm, a| dec_cmp(vm, a, |o| o.is_ge()) },
    NativeEntry { name: "Decimal.FromInt", func: dec_from_int },
    NativeEntry { name: "Decimal.FromFloat", func: dec_from_float },
    NativeEntry { name: "Decimal.FromDouble", func: dec_from_float },
    NativeEntry { name: "Decimal.ToSByte", func: |vm, a| dec_to_int(vm, a, IntType::I8) },
    NativeEntry { name: "Decimal.ToByte", func: |vm, a| dec_to_int(vm, a, IntType::U8) },
    NativeEntry { name: "Decimal.ToInt16", func: |vm, a| dec_to_int(vm, a, IntType::I16) },
    NativeEntry { name: "Decimal.ToUInt16", func: |vm, a| dec_to_int(vm, a, IntType::U16) },
    NativeEntry { name: "Decimal.ToInt32", func: |vm, a| dec_to_int(vm, a, IntType::I32) },
    NativeEntry { name: "Decimal.ToUInt32", func: |vm, a| dec_to_int(vm, a, IntType::U32) },
    NativeEntry { name: "Decimal.ToInt64", func: |vm, a| dec_to_int(vm, a, IntType::I64) },
    NativeEntry { name: "Decimal.ToUInt64", func: |vm, a| dec_to_int(vm, a, IntType::U64) },
    NativeEntry { name: "Decimal.ToChar", func: dec_to_char },
    NativeEntry { name: "Decimal.ToSingle", func: |vm, a| Ok(Value::F32(dec(vm, a, 0)?.to_f32())) },
    NativeEntry { name: "Decimal.ToDouble", func: |vm, a| Ok(Value::F64(dec(vm, a, 0)?.to_f64())) },
    NativeEntry { name: "Decimal.GetHashCode", func: |vm, a| Ok(Value::I32(dec(vm, a, 0)?.hash_code())) },
    NativeEntry { name: "Decimal.Round", func: dec_round },
    NativeEntry {
        name: "Decimal.Floor",
        func: |vm, a| {
            let d = dec(vm, a, 0)?.floor();
            Ok(vm.alloc_decimal(d))
        },
    },
    NativeEntry {
        name: "Decimal.Ceiling",
        func: |vm, a| {
            let d = dec(vm, a, 0)?.ceiling();
            Ok(vm.alloc_decimal(d))
        },
    },
    NativeEntry {
        name: "Decimal.Truncate",
        func: |vm, a| {
            let d = dec(vm, a, 0)?.truncate();
            Ok(vm.alloc_decimal(d))
        },
    },
    NativeEntry { name: "Culture.IsKnown", func: culture_is_known },
    NativeEntry { name: "Culture.CanonicalName", func: culture_canonical },
    NativeEntry { name: "Culture.SetCurrentThreadFormat", func: culture_set_current_thread },
];

type R = NativeResult;

fn to_string(vm: &mut Vm, args: &[Value]) -> R {
    let n = num_of(vm, arg(args, 0)).ok_or_else(nre)?;
    let nf = vm.current_number_format();
    let s = format_number(n, "", nf)?;
    Ok(vm.alloc_str(&s))
}

fn to_string_format(vm: &mut Vm, args: &[Value]) -> R {
    let n = num_of(vm, arg(args, 0)).ok_or_else(nre)?;
    let fmt = vm.string_of(arg(args, 1)).unwrap_or_default();
    let nf = vm.current_number_format();
    let s = format_number(n, &fmt, nf)?;
    Ok(vm.alloc_str(&s))
}

fn to_string_provider(vm: &mut Vm, args: &[Value]) -> R {
    let n = num_of(vm, arg(args, 0)).ok_or_else(nre)?;
    let nf = vm.number_format(arg(args, 1));
    let s = format_number(n, "", nf)?;
    Ok(vm.alloc_str(&s))
}

fn to_string_format_provider(vm: &mut Vm, args: &[Value]) -> R {
    let n = num_of(vm, arg(args, 0)).ok_or_else(nre)?;
    let fmt = vm.string_of(arg(args, 1)).unwrap_or_default();
    let nf = vm.number_format(arg(args, 2));
    let s = format_number(n, &fmt, nf)?;
    Ok(vm.alloc_str(&s))
}

fn is_integer(_: &mut Vm, args: &[Value]) -> R {
    let x = arg(args, 0).as_f64().unwrap_or(f64::NAN);
    Ok(Value::Bool(x.is_finite() && x == x.trunc()))
}

fn float_hash(vm: &mut Vm, args: &[Value]) -> R {
    Ok(Value::I32(vm.value_hash(arg(args, 0))))
}

fn num_to_value(n: Num) -> Value {
    match n {
        Num::I8(x) => Value::I8(x),
        Num::U8(x) => Value::U8(x),
        Num::I16(x) => Value::I16(x),
        Num::U16(x) => Value::U16(x),
        Num::I32(x) => Value::I32(x),
        Num::U32(x) => Value::U32(x),
        Num::I64(x) => Value::I64(x),
        Num::U64(x) => Value::U64(x),
        Num::F32(x) => Value::F32(x),
        Num::F64(x) => Value::F64(x),
        Num::Decimal(_) => Value::Null,
    }
}

/// Arguments of `Parse(s [, style] [, provider])`.
fn parse_args(vm: &Vm, args: &[Value], with_style: bool, with_provider: bool, default: NumberStyles) -> (NumberStyles, &'static numerics::NumberFormat) {
    let style = if with_style { NumberStyles(int_arg(args, 1) as u32) } else { default };
    let provider = if with_provider { arg(args, if with_style { 2 } else { 1 }) } else { Value::Null };
    (style, vm.number_format(provider))
}

fn parse_failure(e: numerics::ParseError, input: &str, ty_name: &str) -> NativeError {
    let kind = match e.exception_type() {
        "System.OverflowException" => ExceptionKind::Overflow,
        "System.ArgumentException" => ExceptionKind::Argument,
        _ => ExceptionKind::Format,
    };
    throw(kind, e.message(input, ty_name))
}

fn parse_int(vm: &mut Vm, args: &[Value], ty: IntType, with_style: bool, with_provider: bool) -> R {
    let s = vm.string_arg(arg(args, 0), "s")?;
    let (style, nf) = parse_args(vm, args, with_style, with_provider, NumberStyles::INTEGER);
    numerics::parse_int(&s, ty, style, nf).map(num_to_value).map_err(|e| parse_failure(e, &s, ty.dotnet_name()))
}

fn try_parse_int(vm: &mut Vm, args: &[Value], ty: IntType) -> R {
    let Some(s) = vm.string_of(arg(args, 0)) else { return Ok(Value::Null) };
    let style = NumberStyles(int_arg(args, 1) as u32);
    let nf = vm.number_format(arg(args, 2));
    Ok(numerics::parse_int(&s, ty, style, nf).map_or(Value::Null, num_to_value))
}

fn parse_float(vm: &mut Vm, args: &[Value], ty: FloatType, with_style: bool, with_provider: bool) -> R {
    let s = vm.string_arg(arg(args, 0), "s")?;
    let default = NumberStyles(NumberStyles::FLOAT.0 | NumberStyles::ALLOW_THOUSANDS.0);
    let (style, nf) = parse_args(vm, args, with_style, with_provider, default);
    let name = if ty == FloatType::F32 { "Single" } else { "Double" };
    numerics::parse_float(&s, ty, style, nf).map(num_to_value).map_err(|e| parse_failure(e, &s, name))
}

fn try_parse_float(vm: &mut Vm, args: &[Value], ty: FloatType) -> R {
    let Some(s) = vm.string_of(arg(args, 0)) else { return Ok(Value::Null) };
    let style = NumberStyles(int_arg(args, 1) as u32);
    let nf = vm.number_format(arg(args, 2));
    Ok(numerics::parse_float(&s, ty, style, nf).map_or(Value::Null, num_to_value))
}

fn parse_dec(vm: &mut Vm, args: &[Value], with_style: bool, with_provider: bool) -> R {
    let s = vm.string_arg(arg(args, 0), "s")?;
    let (style, nf) = parse_args(vm, args, with_style, with_provider, NumberStyles::NUMBER);
    match numerics::parse_decimal(&s, style, nf) {
        Ok(d) => Ok(vm.alloc_decimal(d)),
        Err(e) => Err(parse_failure(e, &s, "Decimal")),
    }
}

fn try_parse_dec(vm: &mut Vm, args: &[Value]) -> R {
    let Some(s) = vm.string_of(arg(args, 0)) else { return Ok(Value::Null) };
    let style = NumberStyles(int_arg(args, 1) as u32);
    let nf = vm.number_format(arg(args, 2));
    match numerics::parse_decimal(&s, style, nf) {
        Ok(d) => Ok(vm.alloc_decimal(d)),
        Err(_) => Ok(Value::Null),
    }
}

// ---- decimal ------------------------------------------------------------------------------

fn dec(vm: &Vm, args: &[Value], i: usize) -> Result<Decimal, NativeError> {
    vm.decimal_of(arg(args, i)).ok_or_else(|| throw(ExceptionKind::NullReference, "Object reference not set to an instance of an object."))
}

fn dec_error(e: DecimalError) -> NativeError {
    let kind = match e {
        DecimalError::DivideByZero => ExceptionKind::DivideByZero,
        DecimalError::Overflow | DecimalError::ConversionOverflow(_) => ExceptionKind::Overflow,
        DecimalError::RoundingDigitsOutOfRange => ExceptionKind::ArgumentOutOfRange,
    };
    throw(kind, e.message())
}

fn dec_binary(vm: &mut Vm, args: &[Value], op: fn(Decimal, Decimal) -> Result<Decimal, DecimalError>) -> R {
    let (a, b) = (dec(vm, args, 0)?, dec(vm, args, 1)?);
    let r = op(a, b).map_err(dec_error)?;
    Ok(vm.alloc_decimal(r))
}

fn dec_neg(vm: &mut Vm, args: &[Value]) -> R {
    let d = dec(vm, args, 0)?.neg();
    Ok(vm.alloc_decimal(d))
}

fn dec_cmp(vm: &mut Vm, args: &[Value], pred: fn(std::cmp::Ordering) -> bool) -> R {
    let (a, b) = (dec(vm, args, 0)?, dec(vm, args, 1)?);
    Ok(Value::Bool(pred(a.cmp(&b))))
}

fn dec_from_int(vm: &mut Vm, args: &[Value]) -> R {
    let d = match arg(args, 0) {
        Value::U64(u) => Decimal::from_u64(u),
        v => Decimal::from_i64(v.as_i64().unwrap_or(0)),
    };
    Ok(vm.alloc_decimal(d))
}

fn dec_from_float(vm: &mut Vm, args: &[Value]) -> R {
    let d = match arg(args, 0) {
        Value::F32(x) => Decimal::from_f32(x),
        v => Decimal::from_f64(v.as_f64().unwrap_or(0.0)),
    }
    .map_err(dec_error)?;
    Ok(vm.alloc_decimal(d))
}

fn dec_to_int(vm: &mut Vm, args: &[Value], ty: IntType) -> R {
    let d = dec(vm, args, 0)?;
    let i = d.to_integer(ty).map_err(|_| throw(ExceptionKind::Overflow, ty.overflow_message()))?;
    Ok(num_to_value(ty.to_num(i)))
}

fn dec_to_char(vm: &mut Vm, args: &[Value]) -> R {
    let d = dec(vm, args, 0)?;
    let i = d.to_integer(IntType::U16).map_err(|_| throw(ExceptionKind::Overflow, "Value was either too large or too small for a character."))?;
    Ok(Value::Char(i as u16))
}

/// A `MidpointRounding` argument; values outside the enum are an `ArgumentException`.
pub(super) fn rounding_mode(v: Value) -> Result<MidpointRounding, NativeError> {
    match v.as_i64().unwrap_or(0) {
        0 => Ok(MidpointRounding::ToEven),
        1 => Ok(MidpointRounding::AwayFromZero),
        2 => Ok(MidpointRounding::ToZero),
        3 => Ok(MidpointRounding::ToNegativeInfinity),
        4 => Ok(MidpointRounding::ToPositiveInfinity),
        n => Err(throw(ExceptionKind::Argument, format!("The value '{n}' is not valid for this usage of the type MidpointRounding.|mode"))),
    }
}

fn dec_round(vm: &mut Vm, args: &[Value]) -> R {
    let d = dec(vm, args, 0)?;
    let digits = int_arg(args, 1);
    if !(0..=28).contains(&digits) {
        return Err(super::support::out_of_range("decimals", "Decimal can only round to between 0 and 28 digits of precision."));
    }
    let mode = rounding_mode(arg(args, 2))?;
    let r = d.round(digits, mode).map_err(|_| super::support::out_of_range("decimals", "Decimal can only round to between 0 and 28 digits of precision."))?;
    Ok(vm.alloc_decimal(r))
}

// ---- cultures -----------------------------------------------------------------------------

fn culture_is_known(vm: &mut Vm, args: &[Value]) -> R {
    let name = vm.string_of(arg(args, 0)).unwrap_or_default();
    Ok(Value::Bool(numerics::culture(&name).is_some()))
}

fn culture_canonical(vm: &mut Vm, args: &[Value]) -> R {
    let name = vm.string_of(arg(args, 0)).unwrap_or_default();
    let canonical = numerics::culture_names().find(|n| n.eq_ignore_ascii_case(&name)).unwrap_or("").to_string();
    Ok(vm.alloc_str(&canonical))
}

/// `CultureInfo.SetCurrentThreadFormat(name)`: the current thread now formats with culture
/// `name` (null: the default culture). Called whenever the thread's CurrentCulture changes.
fn culture_set_current_thread(vm: &mut Vm, args: &[Value]) -> R {
    let culture = vm.string_of(arg(args, 0)).and_then(|name| numerics::culture(&name));
    let current = vm.sched.current;
    if let Some(t) = vm.sched.threads.get_mut(current) {
        t.culture = culture;
    }
    Ok(Value::Null)
}
