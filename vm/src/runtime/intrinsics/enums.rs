//! `System.Enum` intrinsics: member names and values read from metadata, `ToString` with
//! `[Flags]` combinations, parsing names and numbers, and the reflection-style statics
//! (`GetNames`, `GetValues`, `GetUnderlyingType`, `IsDefined`, `GetName`).

use super::objects::type_handle_arg;
use super::support::{arg, nre, null_arg, throw};
use crate::bytecode::NumKind;
use crate::metadata::{Flags, TypeDefKind, TypeId};
use crate::runtime::native::{ExceptionKind, NativeEntry, NativeError, NativeResult};
use crate::runtime::numerics::{self, IntType, Num, NumberStyles, ParseError};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Enum.ToString", func: enum_to_string },
    NativeEntry { name: "Enum.ToStringFormat", func: enum_to_string_format },
    NativeEntry { name: "Enum.Equals", func: enum_equals },
    NativeEntry { name: "Enum.GetHashCode", func: enum_hash },
    NativeEntry { name: "Enum.CompareTo", func: enum_compare },
    NativeEntry { name: "Enum.HasFlag", func: enum_has_flag },
    NativeEntry { name: "Enum.Parse", func: enum_parse },
    NativeEntry { name: "Enum.TryParse", func: enum_try_parse },
    NativeEntry { name: "Enum.GetNames", func: enum_get_names },
    NativeEntry { name: "Enum.GetValues", func: enum_get_values },
    NativeEntry { name: "Enum.GetValuesAsUnderlyingType", func: enum_get_underlying_values },
    NativeEntry { name: "Enum.GetUnderlyingType", func: enum_get_underlying_type },
    NativeEntry { name: "Enum.IsDefined", func: enum_is_defined },
    NativeEntry { name: "Enum.GetName", func: enum_get_name },
    NativeEntry { name: "Enum.ToObject", func: enum_to_object },
    NativeEntry { name: "Enum.GetUnderlyingValue", func: enum_underlying_value },
];

/// The enum type and integer value of a (boxed) enum receiver.
fn enum_parts(vm: &Vm, v: Value) -> Option<(TypeId, i64)> {
    match v {
        Value::Enum(t, i) => Some((t, i)),
        _ => Some((vm.type_of(v)?, v.as_i64()?)),
    }
}

impl Vm {
    /// The members of an enum type: (name, value) in declaration order.
    pub fn enum_members(&self, ty: TypeId) -> Vec<(String, i64)> {
        let Some(def) = self.meta.types.def_of(ty) else { return Vec::new() };
        self.meta
            .type_def(def)
            .fields
            .iter()
            .map(|&f| self.meta.field(f))
            .filter_map(|f| match &f.constant {
                Some(crate::metadata::Constant::Int(i)) => Some((f.name.clone(), *i)),
                _ => None,
            })
            .collect()
    }

    /// `Enum.ToString()`: the member name, a `[Flags]` combination, or the number.
    pub fn enum_name(&self, ty: TypeId, value: i64) -> String {
        let is_flags = self.meta.types.def_of(ty).is_some_and(|d| self.meta.type_def(d).flags.has(Flags::FLAGS_ENUM));
        self.enum_name_as(ty, value, is_flags)
    }

    /// The member name, else (when `as_flags`, as for `[Flags]` enums and the "F" format)
    /// the names of members whose bits add up to the value, else the number.
    fn enum_name_as(&self, ty: TypeId, value: i64, as_flags: bool) -> String {
        let members = self.enum_members(ty);
        if let Some((n, _)) = members.iter().find(|(_, v)| *v == value) {
            return n.clone();
        }
        if as_flags && value > 0 {
            let mut remaining = value;
            let mut names = Vec::new();
            let mut sorted: Vec<&(String, i64)> = members.iter().filter(|(_, v)| *v != 0).collect();
            sorted.sort_by_key(|(_, v)| std::cmp::Reverse(*v));
            for (n, v) in sorted {
                if remaining & v == *v {
                    names.push(n.clone());
                    remaining &= !v;
                }
            }
            if remaining == 0 {
                names.reverse();
                return names.join(", ");
            }
        }
        value.to_string()
    }
}

fn enum_to_string(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (ty, v) = enum_parts(vm, arg(args, 0)).ok_or_else(nre)?;
    let s = vm.enum_name(ty, v);
    Ok(vm.alloc_str(&s))
}

fn enum_to_string_format(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (ty, v) = enum_parts(vm, arg(args, 0)).ok_or_else(nre)?;
    let fmt = vm.string_of(arg(args, 1)).unwrap_or_default();
    let s = match fmt.as_str() {
        "" | "G" | "g" => vm.enum_name(ty, v),
        "F" | "f" => vm.enum_name_as(ty, v, true),
        "D" | "d" => v.to_string(),
        "X" | "x" => hex_digits(v, underlying_kind(vm, ty), fmt == "x"),
        _ => return Err(throw(ExceptionKind::Format, "Format string can be only \"G\", \"g\", \"X\", \"x\", \"F\", \"f\", \"D\" or \"d\".")),
    };
    Ok(vm.alloc_str(&s))
}

/// The `X` format: the value's bits as hex digits, two per byte of the underlying type.
fn hex_digits(v: i64, kind: NumKind, lower: bool) -> String {
    let s = match kind {
        NumKind::I8 | NumKind::U8 => format!("{:02X}", v as u8),
        NumKind::I16 | NumKind::U16 | NumKind::Char => format!("{:04X}", v as u16),
        NumKind::I64 | NumKind::U64 => format!("{:016X}", v as u64),
        _ => format!("{:08X}", v as u32),
    };
    if lower {
        s.to_ascii_lowercase()
    } else {
        s
    }
}

fn enum_equals(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let a = enum_parts(vm, vm.unboxed_view(arg(args, 0)));
    let b = match vm.unboxed_view(arg(args, 1)) {
        Value::Enum(t, i) => Some((t, i)),
        _ => None,
    };
    Ok(Value::Bool(a.is_some() && a == b))
}

fn enum_hash(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (_, v) = enum_parts(vm, arg(args, 0)).ok_or_else(nre)?;
    Ok(Value::I32((v as i32) ^ ((v >> 32) as i32)))
}

fn enum_compare(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (ty, a) = enum_parts(vm, arg(args, 0)).ok_or_else(nre)?;
    match arg(args, 1) {
        Value::Null => Ok(Value::I32(1)),
        Value::Enum(t, b) if t == ty => Ok(Value::I32(match underlying_kind(vm, ty) {
            // The small integer types' CompareTo returns the difference.
            NumKind::I8 | NumKind::U8 | NumKind::I16 | NumKind::U16 => (a - b) as i32,
            NumKind::U32 | NumKind::U64 => (a as u64).cmp(&(b as u64)) as i32,
            _ => a.cmp(&b) as i32,
        })),
        other => {
            let other_name = vm.type_of(other).map(|t| vm.meta.clr_full_name(t)).unwrap_or_default();
            let this_name = vm.meta.clr_full_name(ty);
            Err(throw(
                ExceptionKind::Argument,
                format!("Object must be the same type as the enum. The type passed in was '{other_name}'; the enum type was '{this_name}'."),
            ))
        }
    }
}

fn enum_has_flag(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (_, a) = enum_parts(vm, arg(args, 0)).ok_or_else(nre)?;
    let (_, f) = enum_parts(vm, arg(args, 1)).ok_or_else(|| null_arg("flag"))?;
    Ok(Value::Bool(a & f == f))
}

// ---- the enum type argument ---------------------------------------------------------------

/// The enum type behind a `Type` argument: `ArgumentNullException` for null,
/// `ArgumentException` for a type that is not an enum.
fn enum_type_arg(vm: &Vm, v: Value) -> Result<TypeId, NativeError> {
    let ty = type_handle_arg(vm, v).ok_or_else(|| null_arg("enumType"))?;
    let is_enum = vm.meta.types.def_of(ty).is_some_and(|d| vm.meta.type_def(d).kind == TypeDefKind::Enum);
    if is_enum {
        Ok(ty)
    } else {
        Err(throw(ExceptionKind::Argument, "Type provided must be an Enum.|enumType"))
    }
}

fn underlying_kind(vm: &Vm, ty: TypeId) -> NumKind {
    let u = underlying_type(vm, ty);
    let wk = &vm.meta.well_known;
    [
        (wk.sbyte, NumKind::I8),
        (wk.byte, NumKind::U8),
        (wk.int16, NumKind::I16),
        (wk.uint16, NumKind::U16),
        (wk.uint32, NumKind::U32),
        (wk.int64, NumKind::I64),
        (wk.uint64, NumKind::U64),
    ]
    .into_iter()
    .find(|(t, _)| *t == u)
    .map_or(NumKind::I32, |(_, k)| k)
}

fn int_type(kind: NumKind) -> IntType {
    match kind {
        NumKind::I8 => IntType::I8,
        NumKind::U8 => IntType::U8,
        NumKind::I16 => IntType::I16,
        NumKind::U16 | NumKind::Char => IntType::U16,
        NumKind::U32 => IntType::U32,
        NumKind::I64 => IntType::I64,
        NumKind::U64 => IntType::U64,
        _ => IntType::I32,
    }
}

/// An underlying-type value as the enum's 64-bit payload (unsigned values keep their bits).
fn num_bits(n: Num) -> i64 {
    match n {
        Num::I8(x) => x as i64,
        Num::U8(x) => x as i64,
        Num::I16(x) => x as i64,
        Num::U16(x) => x as i64,
        Num::I32(x) => x as i64,
        Num::U32(x) => x as i64,
        Num::I64(x) => x,
        Num::U64(x) => x as i64,
        Num::F32(x) => x as i64,
        Num::F64(x) => x as i64,
        Num::Decimal(_) => 0,
    }
}

/// The members sorted as .NET lists them: by value, compared as unsigned (so negative
/// values come last).
fn sorted_members(vm: &Vm, ty: TypeId) -> Vec<(String, i64)> {
    let mut members = vm.enum_members(ty);
    members.sort_by_key(|(_, v)| *v as u64);
    members
}

/// The enum payload of a value passed as `object` to `IsDefined`/`GetName`/`ToObject`: an
/// enum of type `ty`, or a number of its underlying type.
fn value_bits(vm: &Vm, ty: TypeId, v: Value) -> Result<i64, NativeError> {
    match v {
        Value::Null => Err(null_arg("value")),
        Value::Enum(t, i) if t == ty => Ok(i),
        Value::Enum(t, _) => {
            let (passed, expected) = (vm.meta.clr_full_name(t), vm.meta.clr_full_name(ty));
            Err(throw(
                ExceptionKind::Argument,
                format!("Object must be the same type as the enum. The type passed in was '{passed}'; the enum type was '{expected}'."),
            ))
        }
        other => other.as_i64().ok_or_else(|| {
            throw(ExceptionKind::Argument, "The value passed in must be an enum base or an underlying type for an enum, such as an Int32.|value")
        }),
    }
}

// ---- parsing ------------------------------------------------------------------------------

enum EnumParse {
    Value(i64),
    NotFound,
    Empty,
    Overflow(IntType),
}

fn same_name(a: &str, b: &str, ignore_case: bool) -> bool {
    if ignore_case {
        a.chars().flat_map(char::to_uppercase).eq(b.chars().flat_map(char::to_uppercase))
    } else {
        a == b
    }
}

/// Parses `"Red"`, `"Red, Blue"` or a number of the underlying type, as `Enum.TryParse`
/// does: text starting with a digit or sign is tried as a number first, then as names.
fn parse_enum(vm: &Vm, ty: TypeId, text: &str, ignore_case: bool) -> EnumParse {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return EnumParse::Empty;
    }
    if trimmed.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        let it = int_type(underlying_kind(vm, ty));
        let style = NumberStyles(NumberStyles::ALLOW_LEADING_WHITE.0 | NumberStyles::ALLOW_TRAILING_WHITE.0 | NumberStyles::ALLOW_LEADING_SIGN.0);
        match numerics::parse_int(trimmed, it, style, numerics::invariant()) {
            Ok(n) => return EnumParse::Value(num_bits(n)),
            Err(ParseError::Overflow) => return EnumParse::Overflow(it),
            Err(_) => {}
        }
    }
    let members = vm.enum_members(ty);
    let mut total = 0i64;
    for part in trimmed.split(',') {
        let p = part.trim();
        let Some((_, v)) = members.iter().find(|(n, _)| same_name(n, p, ignore_case)) else { return EnumParse::NotFound };
        total |= *v;
    }
    EnumParse::Value(total)
}

/// `Enum.Parse(Type enumType, string value, bool ignoreCase)`.
fn enum_parse(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let text = vm.string_arg(arg(args, 1), "value")?;
    let ignore_case = arg(args, 2).as_bool().unwrap_or(false);
    match parse_enum(vm, ty, &text, ignore_case) {
        EnumParse::Value(v) => Ok(Value::Enum(ty, v)),
        EnumParse::NotFound => Err(throw(ExceptionKind::Argument, format!("Requested value '{text}' was not found."))),
        EnumParse::Empty => Err(throw(ExceptionKind::Argument, "Must specify valid information for parsing in the string.|value")),
        EnumParse::Overflow(it) => Err(throw(ExceptionKind::Overflow, it.overflow_message())),
    }
}

/// `Enum.TryParse(Type enumType, string value, bool ignoreCase)`: the boxed value, or null.
fn enum_try_parse(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let Some(text) = vm.string_of(arg(args, 1)) else { return Ok(Value::Null) };
    let ignore_case = arg(args, 2).as_bool().unwrap_or(false);
    Ok(match parse_enum(vm, ty, &text, ignore_case) {
        EnumParse::Value(v) => Value::Enum(ty, v),
        _ => Value::Null,
    })
}

// ---- reflection-style statics -------------------------------------------------------------

fn enum_get_names(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let names: Vec<String> = sorted_members(vm, ty).into_iter().map(|(n, _)| n).collect();
    Ok(vm.new_string_array(&names))
}

/// The member values converted to `kind`, in an array of element type `elem`.
fn values_array(vm: &mut Vm, ty: TypeId, elem: TypeId) -> Value {
    let kind = underlying_kind(vm, ty);
    let items: Vec<Value> =
        sorted_members(vm, ty).into_iter().map(|(_, v)| crate::value::arith::convert(Value::I64(v), kind, false).unwrap_or(Value::I64(v))).collect();
    let arr_ty = vm.meta.types.array(elem, 1);
    vm.new_array_of(arr_ty, items)
}

fn enum_get_values(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    Ok(values_array(vm, ty, ty))
}

fn enum_get_underlying_values(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let elem = underlying_type(vm, ty);
    Ok(values_array(vm, ty, elem))
}

fn underlying_type(vm: &Vm, ty: TypeId) -> TypeId {
    vm.meta.types.def_of(ty).and_then(|d| vm.meta.type_def(d).enum_underlying).unwrap_or(vm.meta.well_known.int32)
}

fn enum_get_underlying_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let u = underlying_type(vm, ty);
    Ok(vm.type_object(u))
}

fn enum_is_defined(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let v = arg(args, 1);
    let members = vm.enum_members(ty);
    if let Some(name) = vm.string_of(v) {
        return Ok(Value::Bool(members.iter().any(|(n, _)| *n == name)));
    }
    if !matches!(v, Value::Enum(..) | Value::Null) {
        let underlying = underlying_type(vm, ty);
        if let Some(passed) = vm.type_of(v).filter(|t| *t != underlying) {
            let (passed, expected) = (vm.meta.clr_full_name(passed), vm.meta.clr_full_name(underlying));
            return Err(throw(ExceptionKind::Argument, format!("Enum underlying type and the object must be same type or object must be a String. Type passed in was '{passed}'; the enum underlying type was '{expected}'.")));
        }
    }
    let bits = value_bits(vm, ty, v)?;
    Ok(Value::Bool(members.iter().any(|(_, x)| *x == bits)))
}

fn enum_get_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let bits = value_bits(vm, ty, arg(args, 1))?;
    let name = vm.enum_members(ty).into_iter().find(|(_, x)| *x == bits).map(|(n, _)| n);
    Ok(match name {
        Some(n) => vm.alloc_str(&n),
        None => Value::Null,
    })
}

/// `Enum.ToObject(Type enumType, object value)`: a number reinterpreted as the enum (wrapped
/// to the underlying type's width, as .NET does).
fn enum_to_object(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let ty = enum_type_arg(vm, arg(args, 0))?;
    let raw = match arg(args, 1) {
        Value::Null => return Err(null_arg("value")),
        Value::Enum(_, i) => i,
        Value::Bool(b) => b as i64,
        v => v.as_i64().ok_or_else(|| {
            throw(ExceptionKind::Argument, "The value passed in must be an enum base or an underlying type for an enum, such as an Int32.|value")
        })?,
    };
    let kind = underlying_kind(vm, ty);
    let wrapped = crate::value::arith::convert(Value::I64(raw), kind, false).ok().and_then(|v| v.as_i64()).unwrap_or(raw);
    Ok(Value::Enum(ty, wrapped))
}

/// The value of a boxed enum as its underlying integral type (what `IConvertible` on an
/// enum converts from).
fn enum_underlying_value(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (ty, bits) = enum_parts(vm, arg(args, 0)).ok_or_else(|| null_arg("value"))?;
    let kind = underlying_kind(vm, ty);
    Ok(crate::value::arith::convert(Value::I64(bits), kind, false).unwrap_or(Value::I64(bits)))
}
