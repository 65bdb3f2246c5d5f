//! `System.String`, `System.Char` and `StringBuilder` intrinsics, over UTF-16 code units.

use super::support::{arg, int_arg, nre, out_of_range, throw};
use crate::runtime::native::{ExceptionKind, NativeData, NativeEntry, NativeError, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "String.CtorCharCount", func: ctor_char_count },
    NativeEntry { name: "String.CtorChars", func: ctor_chars },
    NativeEntry { name: "String.CtorCharsRange", func: ctor_chars_range },
    NativeEntry { name: "String.CtorSpan", func: ctor_span },
    NativeEntry { name: "String.get_Length", func: length },
    NativeEntry { name: "String.Intern", func: intern },
    NativeEntry { name: "String.IsInterned", func: is_interned },
    NativeEntry { name: "String.get_Chars", func: char_at },
    NativeEntry { name: "String.Equals", func: equals },
    NativeEntry { name: "String.StaticEquals", func: static_equals },
    NativeEntry { name: "String.NotEquals", func: not_equals },
    NativeEntry { name: "String.GetHashCode", func: hash },
    NativeEntry { name: "String.GetHashCodeCulture", func: culture_hash },
    NativeEntry { name: "String.IsNullOrWhiteSpace", func: is_null_or_white_space },
    NativeEntry { name: "String.CompareOrdinal", func: compare_ordinal },
    NativeEntry { name: "String.CompareOrdinalIgnoreCase", func: compare_ordinal_ignore_case },
    NativeEntry { name: "String.CompareCulture", func: compare_culture },
    NativeEntry { name: "String.CompareIgnoreCase", func: compare_ignore_case },
    NativeEntry { name: "String.Contains", func: contains },
    NativeEntry { name: "String.StartsWith", func: starts_with },
    NativeEntry { name: "String.EndsWith", func: ends_with },
    NativeEntry { name: "String.IndexOfString", func: index_of_string },
    NativeEntry { name: "String.IndexOfStringFrom", func: index_of_string_from },
    NativeEntry { name: "String.IndexOfChar", func: index_of_char },
    NativeEntry { name: "String.IndexOfCharFrom", func: index_of_char_from },
    NativeEntry { name: "String.IndexOfAny", func: index_of_any },
    NativeEntry { name: "String.LastIndexOfString", func: last_index_of_string },
    NativeEntry { name: "String.LastIndexOfChar", func: last_index_of_char },
    NativeEntry { name: "String.Substring", func: substring },
    NativeEntry { name: "String.SubstringLength", func: substring_length },
    NativeEntry { name: "String.Replace", func: replace },
    NativeEntry { name: "String.ReplaceChar", func: replace_char },
    NativeEntry { name: "String.Insert", func: insert },
    NativeEntry { name: "String.Remove", func: remove },
    NativeEntry { name: "String.RemoveCount", func: remove_count },
    NativeEntry { name: "String.ToUpper", func: to_upper },
    NativeEntry { name: "String.ToLower", func: to_lower },
    NativeEntry { name: "String.Trim", func: trim },
    NativeEntry { name: "String.TrimChars", func: trim_chars },
    NativeEntry { name: "String.TrimStart", func: trim_start },
    NativeEntry { name: "String.TrimStartChars", func: trim_start_chars },
    NativeEntry { name: "String.TrimEnd", func: trim_end },
    NativeEntry { name: "String.TrimEndChars", func: trim_end_chars },
    NativeEntry { name: "String.PadLeft", func: pad_left },
    NativeEntry { name: "String.PadLeftChar", func: pad_left_char },
    NativeEntry { name: "String.PadRight", func: pad_right },
    NativeEntry { name: "String.PadRightChar", func: pad_right_char },
    NativeEntry { name: "String.ToCharArray", func: to_char_array },
    NativeEntry { name: "String.SplitChars", func: split_chars },
    NativeEntry { name: "String.SplitStrings", func: split_strings },
    NativeEntry { name: "String.ConcatStrings", func: concat_strings },
    NativeEntry { name: "String.ParseComposite", func: parse_composite },
    NativeEntry { name: "Format.Align", func: align },
    NativeEntry { name: "Char.ToString", func: char_to_string },
    NativeEntry { name: "Char.IsDigit", func: is_digit },
    NativeEntry { name: "Char.IsLetter", func: is_letter },
    NativeEntry { name: "Char.IsWhiteSpace", func: is_white_space },
    NativeEntry { name: "Char.IsUpper", func: is_upper },
    NativeEntry { name: "Char.IsLower", func: is_lower },
    NativeEntry { name: "Char.IsPunctuation", func: is_punctuation },
    NativeEntry { name: "Char.IsSymbol", func: is_symbol },
    NativeEntry { name: "Char.IsControl", func: is_control },
    NativeEntry { name: "Char.IsNumber", func: is_number },
    NativeEntry { name: "Char.IsSeparator", func: is_separator },
    NativeEntry { name: "Char.ToUpper", func: char_to_upper },
    NativeEntry { name: "Char.ToLower", func: char_to_lower },
    NativeEntry { name: "Char.GetNumericValue", func: numeric_value },
    NativeEntry { name: "StringBuilder.New", func: sb_new },
    NativeEntry { name: "StringBuilder.AppendString", func: sb_append },
    NativeEntry { name: "StringBuilder.Length", func: sb_length },
    NativeEntry { name: "StringBuilder.SetLength", func: sb_set_length },
    NativeEntry { name: "StringBuilder.ToString", func: sb_to_string },
    NativeEntry { name: "StringBuilder.Substring", func: sb_substring },
    NativeEntry { name: "StringBuilder.InsertString", func: sb_insert },
    NativeEntry { name: "StringBuilder.Remove", func: sb_remove },
    NativeEntry { name: "StringBuilder.Replace", func: sb_replace },
    NativeEntry { name: "StringBuilder.GetChar", func: sb_get_char },
    NativeEntry { name: "StringBuilder.SetChar", func: sb_set_char },
];

type R = NativeResult;

fn this_units(vm: &Vm, args: &[Value]) -> Result<Vec<u16>, NativeError> {
    vm.str_arg(arg(args, 0), "this")
}

fn ret(vm: &mut Vm, units: Vec<u16>) -> R {
    Ok(vm.alloc_utf16(units))
}

fn ctor_char_count(vm: &mut Vm, args: &[Value]) -> R {
    let Value::Char(c) = arg(args, 0) else { return Err(nre()) };
    let n = int_arg(args, 1);
    if n < 0 {
        return Err(out_of_range("count", "Non-negative number required."));
    }
    vm.check_string_fits(n as usize)?;
    ret(vm, vec![c; n as usize])
}

fn chars_of(vm: &Vm, v: Value) -> Option<Vec<u16>> {
    Some(vm.array_items(v)?.iter().map(|c| if let Value::Char(c) = c { *c } else { 0 }).collect())
}

fn ctor_chars(vm: &mut Vm, args: &[Value]) -> R {
    let units = chars_of(vm, arg(args, 0)).unwrap_or_default();
    ret(vm, units)
}

fn ctor_chars_range(vm: &mut Vm, args: &[Value]) -> R {
    let units = chars_of(vm, arg(args, 0)).ok_or_else(|| super::support::null_arg("value"))?;
    let (start, len) = (int_arg(args, 1), int_arg(args, 2));
    if start < 0 || len < 0 || start as usize + len as usize > units.len() {
        return Err(out_of_range("startIndex", "Index was out of range. Must be non-negative and less than the size of the collection."));
    }
    ret(vm, units[start as usize..(start + len) as usize].to_vec())
}

/// `new string(ReadOnlySpan<char>)`: the span's fields are its array, its string, its
/// start and its length (`stdlib/System/ReadOnlySpan.cs-lite`); one of the first two is set.
fn ctor_span(vm: &mut Vm, args: &[Value]) -> R {
    let fields = match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Instance(i)) => i.fields.clone(),
        _ => return Err(super::support::fatal("new string(span): not a span")),
    };
    let field = |i: usize| fields.get(i).copied().unwrap_or(Value::Null);
    let start = usize::try_from(field(2).as_i32().unwrap_or(0)).unwrap_or(0);
    let len = usize::try_from(field(3).as_i32().unwrap_or(0)).unwrap_or(0);
    let units = match (chars_of(vm, field(0)), vm.str_units(field(1))) {
        (Some(chars), _) => chars,
        (None, Some(text)) => text.to_vec(),
        (None, None) => Vec::new(),
    };
    let window = units.get(start..start + len).unwrap_or(&[]).to_vec();
    ret(vm, window)
}

fn length(vm: &mut Vm, args: &[Value]) -> R {
    let n = vm.str_units(arg(args, 0)).ok_or_else(nre)?.len();
    Ok(Value::I32(n as i32))
}

fn char_at(vm: &mut Vm, args: &[Value]) -> R {
    let s = vm.str_units(arg(args, 0)).ok_or_else(nre)?;
    let i = int_arg(args, 1);
    match usize::try_from(i).ok().and_then(|i| s.get(i)) {
        Some(&c) => Ok(Value::Char(c)),
        None => Err(throw(ExceptionKind::IndexOutOfRange, "Index was outside the bounds of the array.")),
    }
}

fn equals(vm: &mut Vm, args: &[Value]) -> R {
    let a = vm.str_units(arg(args, 0)).ok_or_else(nre)?;
    Ok(Value::Bool(vm.str_units(arg(args, 1)).is_some_and(|b| a == b)))
}

fn static_equals(vm: &mut Vm, args: &[Value]) -> R {
    let (a, b) = (arg(args, 0), arg(args, 1));
    Ok(Value::Bool(match (vm.str_units(a), vm.str_units(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a.is_null() && b.is_null(),
        _ => false,
    }))
}

fn not_equals(vm: &mut Vm, args: &[Value]) -> R {
    let v = static_equals(vm, args)?;
    Ok(Value::Bool(!matches!(v, Value::Bool(true))))
}

fn hash(vm: &mut Vm, args: &[Value]) -> R {
    let s = vm.str_units(arg(args, 0)).ok_or_else(nre)?;
    Ok(Value::I32(super::objects::string_hash(s)))
}

fn is_white_space_unit(c: u16) -> bool {
    char::from_u32(c as u32).is_some_and(char::is_whitespace)
}

fn is_null_or_white_space(vm: &mut Vm, args: &[Value]) -> R {
    Ok(Value::Bool(vm.str_units(arg(args, 0)).is_none_or(|s| s.iter().all(|&c| is_white_space_unit(c)))))
}

/// `string.CompareOrdinal`: the difference of the first differing UTF-16 units. CoreLib
/// sees the terminating NUL when it checks the first unit and when it compares two units
/// at a time, so for an empty or odd-length shorter string the unit after it (or the NUL)
/// decides before the lengths do.
fn ordinal_difference(x: &[u16], y: &[u16]) -> i32 {
    if let Some((p, q)) = x.iter().zip(y).find(|(p, q)| p != q) {
        return *p as i32 - *q as i32;
    }
    let m = x.len().min(y.len());
    if (m == 0 || m % 2 == 1) && x.len() != y.len() {
        let at = |s: &[u16]| s.get(m).copied().unwrap_or(0) as i32;
        let d = at(x) - at(y);
        if d != 0 {
            return d;
        }
    }
    x.len() as i32 - y.len() as i32
}

fn compare_ordinal(vm: &mut Vm, args: &[Value]) -> R {
    let (a, b) = (vm.str_units(arg(args, 0)), vm.str_units(arg(args, 1)));
    Ok(Value::I32(match (a, b) {
        (None, None) => 0,
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some(x), Some(y)) => ordinal_difference(x, y),
    }))
}

/// `string.Compare(a, b, StringComparison.OrdinalIgnoreCase)`: the difference of the first
/// units that differ after upper-casing, else the difference of the lengths.
fn compare_ordinal_ignore_case(vm: &mut Vm, args: &[Value]) -> R {
    let (a, b) = (vm.str_units(arg(args, 0)), vm.str_units(arg(args, 1)));
    Ok(Value::I32(match (a, b) {
        (None, None) => 0,
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some(x), Some(y)) => {
            let diff = x.iter().zip(y).map(|(&p, &q)| (upper_unit(p), upper_unit(q))).find(|(p, q)| p != q);
            match diff {
                Some((p, q)) => p as i32 - q as i32,
                None => x.len() as i32 - y.len() as i32,
            }
        }
    }))
}

/// The collation key behind [`culture_compare`]: per character a primary weight (character
/// class, then the lowercase letter) and a tertiary one (1 for uppercase).
fn culture_key(s: &[u16]) -> Vec<(u32, u32)> {
    String::from_utf16_lossy(s)
        .chars()
        .filter(|c| !matches!(*c, '\u{00AD}' | '\u{200B}'))
        .map(|c| {
            let primary = c.to_lowercase().next().unwrap_or(c);
            let class = if c.is_alphabetic() {
                3
            } else if c.is_numeric() {
                2
            } else if c.is_whitespace() {
                0
            } else {
                1
            };
            (class << 24 | primary as u32, if c.is_uppercase() { 1 } else { 0 })
        })
        .collect()
}

/// A culture-style ordering close to ICU's root collation for common text: letters compare
/// case-insensitively first (with lowercase before uppercase on ties), punctuation and
/// symbols sort before digits, digits before letters.
pub fn culture_compare(a: &[u16], b: &[u16]) -> std::cmp::Ordering {
    let (ka, kb) = (culture_key(a), culture_key(b));
    let primary = ka.iter().map(|k| k.0).cmp(kb.iter().map(|k| k.0));
    primary.then_with(|| ka.iter().map(|k| k.1).cmp(kb.iter().map(|k| k.1)))
}

/// `string.GetHashCode(StringComparison)` for the culture comparisons: a hash of the
/// collation key, so strings the culture ordering calls equal hash alike.
fn culture_hash(vm: &mut Vm, args: &[Value]) -> R {
    let s = vm.str_units(arg(args, 0)).ok_or_else(nre)?;
    let ignore_case = arg(args, 1).as_bool().unwrap_or(false);
    let key = if ignore_case { culture_key(&s.iter().map(|&c| lower_unit(c)).collect::<Vec<u16>>()) } else { culture_key(s) };
    let mut h: u32 = 0x811C_9DC5;
    for (primary, tertiary) in key {
        for part in [primary, tertiary] {
            h ^= part;
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    Ok(Value::I32(h as i32))
}

fn compare_with(vm: &mut Vm, args: &[Value], f: fn(&[u16], &[u16]) -> std::cmp::Ordering) -> R {
    let (a, b) = (vm.str_units(arg(args, 0)), vm.str_units(arg(args, 1)));
    Ok(Value::I32(match (a, b) {
        (None, None) => 0,
        (None, Some(_)) => -1,
        (Some(_), None) => 1,
        (Some(x), Some(y)) => f(x, y) as i32,
    }))
}

fn compare_culture(vm: &mut Vm, args: &[Value]) -> R {
    compare_with(vm, args, culture_compare)
}

fn compare_ignore_case(vm: &mut Vm, args: &[Value]) -> R {
    compare_with(vm, args, |a, b| {
        let la: Vec<u16> = a.iter().map(|&c| lower_unit(c)).collect();
        let lb: Vec<u16> = b.iter().map(|&c| lower_unit(c)).collect();
        culture_compare(&la, &lb)
    })
}

fn find(hay: &[u16], needle: &[u16], from: usize) -> Option<usize> {
    if needle.is_empty() {
        return Some(from.min(hay.len()));
    }
    (from..=hay.len().saturating_sub(needle.len())).find(|&i| hay.get(i..i + needle.len()) == Some(needle))
}

fn contains(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let v = vm.str_arg(arg(args, 1), "value")?;
    Ok(Value::Bool(find(&s, &v, 0).is_some()))
}

fn starts_with(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let v = vm.str_arg(arg(args, 1), "value")?;
    Ok(Value::Bool(s.starts_with(&v)))
}

fn ends_with(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let v = vm.str_arg(arg(args, 1), "value")?;
    Ok(Value::Bool(s.ends_with(&v)))
}

fn index_of_string(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let v = vm.str_arg(arg(args, 1), "value")?;
    Ok(Value::I32(find(&s, &v, 0).map_or(-1, |i| i as i32)))
}

fn index_of_string_from(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let v = vm.str_arg(arg(args, 1), "value")?;
    let from = int_arg(args, 2);
    if from < 0 || from as usize > s.len() {
        return Err(out_of_range("startIndex", "Index was out of range. Must be non-negative and less than or equal to the size of the collection."));
    }
    Ok(Value::I32(find(&s, &v, from as usize).map_or(-1, |i| i as i32)))
}

fn index_of_char(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let Value::Char(c) = arg(args, 1) else { return Ok(Value::I32(-1)) };
    Ok(Value::I32(s.iter().position(|&x| x == c).map_or(-1, |i| i as i32)))
}

fn index_of_char_from(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let Value::Char(c) = arg(args, 1) else { return Ok(Value::I32(-1)) };
    let from = int_arg(args, 2);
    if from < 0 || from as usize > s.len() {
        return Err(out_of_range("startIndex", "Index was out of range. Must be non-negative and less than or equal to the size of the collection."));
    }
    Ok(Value::I32(s[from as usize..].iter().position(|&x| x == c).map_or(-1, |i| (i + from as usize) as i32)))
}

fn index_of_any(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let any = chars_of(vm, arg(args, 1)).ok_or_else(|| super::support::null_arg("anyOf"))?;
    Ok(Value::I32(s.iter().position(|c| any.contains(c)).map_or(-1, |i| i as i32)))
}

fn last_index_of_string(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let v = vm.str_arg(arg(args, 1), "value")?;
    if v.is_empty() {
        return Ok(Value::I32(s.len().saturating_sub(1) as i32));
    }
    let found = (0..=s.len().saturating_sub(v.len())).rev().find(|&i| s.get(i..i + v.len()) == Some(&v[..]));
    Ok(Value::I32(found.map_or(-1, |i| i as i32)))
}

fn last_index_of_char(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let Value::Char(c) = arg(args, 1) else { return Ok(Value::I32(-1)) };
    Ok(Value::I32(s.iter().rposition(|&x| x == c).map_or(-1, |i| i as i32)))
}

fn substring(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let start = int_arg(args, 1);
    if start < 0 {
        return Err(out_of_range("startIndex", "StartIndex cannot be less than zero."));
    }
    if start as usize > s.len() {
        return Err(out_of_range("startIndex", "startIndex cannot be larger than length of string."));
    }
    ret(vm, s[start as usize..].to_vec())
}

fn substring_length(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let (start, len) = (int_arg(args, 1), int_arg(args, 2));
    if start < 0 {
        return Err(out_of_range("startIndex", "StartIndex cannot be less than zero."));
    }
    if start as usize > s.len() {
        return Err(out_of_range("startIndex", "startIndex cannot be larger than length of string."));
    }
    if len < 0 {
        return Err(out_of_range("length", "Length cannot be less than zero."));
    }
    if start as usize + len as usize > s.len() {
        return Err(out_of_range("length", "Index and length must refer to a location within the string."));
    }
    ret(vm, s[start as usize..(start + len) as usize].to_vec())
}

fn replace(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let old = vm.str_arg(arg(args, 1), "oldValue")?;
    if old.is_empty() {
        return Err(throw(ExceptionKind::Argument, "String cannot be of zero length.|oldValue"));
    }
    let new = vm.str_units(arg(args, 2)).map(<[u16]>::to_vec).unwrap_or_default();
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i..].starts_with(&old) {
            out.extend_from_slice(&new);
            i += old.len();
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    ret(vm, out)
}

fn replace_char(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let (Value::Char(a), Value::Char(b)) = (arg(args, 1), arg(args, 2)) else { return ret(vm, s) };
    ret(vm, s.into_iter().map(|c| if c == a { b } else { c }).collect())
}

fn insert(vm: &mut Vm, args: &[Value]) -> R {
    let mut s = this_units(vm, args)?;
    let i = int_arg(args, 1);
    let v = vm.str_arg(arg(args, 2), "value")?;
    if i < 0 || i as usize > s.len() {
        return Err(out_of_range("startIndex", "Index was out of range. Must be non-negative and less than or equal to the size of the collection."));
    }
    s.splice(i as usize..i as usize, v);
    ret(vm, s)
}

fn remove(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let i = int_arg(args, 1);
    if i < 0 {
        return Err(out_of_range("startIndex", "StartIndex cannot be less than zero."));
    }
    if i as usize >= s.len() && !(s.is_empty() && i == 0) {
        return Err(out_of_range("startIndex", "startIndex must be less than length of string."));
    }
    ret(vm, s[..i as usize].to_vec())
}

fn remove_count(vm: &mut Vm, args: &[Value]) -> R {
    let mut s = this_units(vm, args)?;
    let (i, n) = (int_arg(args, 1), int_arg(args, 2));
    if i < 0 {
        return Err(out_of_range("startIndex", "StartIndex cannot be less than zero."));
    }
    if n < 0 {
        return Err(out_of_range("count", "Count cannot be less than zero."));
    }
    if i as usize + n as usize > s.len() {
        return Err(out_of_range("count", "Index and count must refer to a location within the string."));
    }
    s.drain(i as usize..(i + n) as usize);
    ret(vm, s)
}

fn map_text(vm: &mut Vm, args: &[Value], f: fn(&str) -> String) -> R {
    let s = this_units(vm, args)?;
    let text = f(&String::from_utf16_lossy(&s));
    Ok(vm.alloc_str(&text))
}

fn to_upper(vm: &mut Vm, args: &[Value]) -> R {
    map_text(vm, args, |s| s.chars().map(|c| if c == 'ß' { c } else { c.to_uppercase().next().unwrap_or(c) }).collect())
}

fn to_lower(vm: &mut Vm, args: &[Value]) -> R {
    map_text(vm, args, |s| s.chars().map(|c| c.to_lowercase().next().unwrap_or(c)).collect())
}

fn trim_by(s: &[u16], start: bool, end: bool, pred: impl Fn(u16) -> bool) -> Vec<u16> {
    let mut a = 0;
    let mut b = s.len();
    if start {
        while a < b && pred(s[a]) {
            a += 1;
        }
    }
    if end {
        while b > a && pred(s[b - 1]) {
            b -= 1;
        }
    }
    s[a..b].to_vec()
}

fn trim_impl(vm: &mut Vm, args: &[Value], start: bool, end: bool, with_chars: bool) -> R {
    let s = this_units(vm, args)?;
    let chars = if with_chars { chars_of(vm, arg(args, 1)).unwrap_or_default() } else { Vec::new() };
    let out = if chars.is_empty() { trim_by(&s, start, end, is_white_space_unit) } else { trim_by(&s, start, end, |c| chars.contains(&c)) };
    ret(vm, out)
}

fn trim(vm: &mut Vm, args: &[Value]) -> R {
    trim_impl(vm, args, true, true, false)
}
fn trim_chars(vm: &mut Vm, args: &[Value]) -> R {
    trim_impl(vm, args, true, true, true)
}
fn trim_start(vm: &mut Vm, args: &[Value]) -> R {
    trim_impl(vm, args, true, false, false)
}
fn trim_start_chars(vm: &mut Vm, args: &[Value]) -> R {
    trim_impl(vm, args, true, false, true)
}
fn trim_end(vm: &mut Vm, args: &[Value]) -> R {
    trim_impl(vm, args, false, true, false)
}
fn trim_end_chars(vm: &mut Vm, args: &[Value]) -> R {
    trim_impl(vm, args, false, true, true)
}

fn pad(vm: &mut Vm, args: &[Value], left: bool, with_char: bool) -> R {
    let s = this_units(vm, args)?;
    let width = int_arg(args, 1);
    if width < 0 {
        return Err(out_of_range("totalWidth", "Non-negative number required."));
    }
    let c = if with_char {
        if let Value::Char(c) = arg(args, 2) {
            c
        } else {
            b' ' as u16
        }
    } else {
        b' ' as u16
    };
    let n = (width as usize).saturating_sub(s.len());
    let padding = vec![c; n];
    let out = if left { [padding, s].concat() } else { [s, padding].concat() };
    ret(vm, out)
}

fn pad_left(vm: &mut Vm, args: &[Value]) -> R {
    pad(vm, args, true, false)
}
fn pad_left_char(vm: &mut Vm, args: &[Value]) -> R {
    pad(vm, args, true, true)
}
fn pad_right(vm: &mut Vm, args: &[Value]) -> R {
    pad(vm, args, false, false)
}
fn pad_right_char(vm: &mut Vm, args: &[Value]) -> R {
    pad(vm, args, false, true)
}

fn to_char_array(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let ty = vm.meta.types.array(vm.meta.well_known.char, 1);
    Ok(vm.new_array_of(ty, s.into_iter().map(Value::Char).collect()))
}

/// Splits on any separator; `count` limits the parts (the last keeps the rest); options:
/// 1 = remove empty entries, 2 = trim entries.
fn split_by(s: &[u16], seps: &[Vec<u16>], count: i32, options: i32) -> Vec<Vec<u16>> {
    let remove_empty = options & 1 != 0;
    let trim_entries = options & 2 != 0;
    let mut parts: Vec<Vec<u16>> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let limit = count.max(0) as usize;
    if limit == 0 {
        return parts;
    }
    while i < s.len() {
        if parts.len() + 1 >= limit {
            break;
        }
        let hit = seps.iter().find(|sep| !sep.is_empty() && s[i..].starts_with(sep));
        match hit {
            Some(sep) => {
                let mut part = s[start..i].to_vec();
                if trim_entries {
                    part = trim_by(&part, true, true, is_white_space_unit);
                }
                if !(remove_empty && part.is_empty()) {
                    parts.push(part);
                }
                i += sep.len();
                start = i;
            }
            None => i += 1,
        }
    }
    let mut last = s[start..].to_vec();
    if trim_entries {
        last = trim_by(&last, true, true, is_white_space_unit);
    }
    if !(remove_empty && last.is_empty()) {
        parts.push(last);
    }
    parts
}

fn split_result(vm: &mut Vm, parts: Vec<Vec<u16>>) -> R {
    let values: Vec<Value> = parts.into_iter().map(|p| vm.alloc_utf16(p)).collect();
    let ty = vm.meta.types.array(vm.meta.well_known.string, 1);
    Ok(vm.new_array_of(ty, values))
}

fn split_chars(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let seps: Vec<Vec<u16>> = chars_of(vm, arg(args, 1)).unwrap_or_default().into_iter().map(|c| vec![c]).collect();
    let seps = if seps.is_empty() { whitespace_separators() } else { seps };
    let parts = split_by(&s, &seps, int_arg(args, 2), int_arg(args, 3));
    split_result(vm, parts)
}

fn whitespace_separators() -> Vec<Vec<u16>> {
    [' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{a0}', '\u{2028}', '\u{2029}'].iter().map(|&c| vec![c as u16]).collect()
}

fn split_strings(vm: &mut Vm, args: &[Value]) -> R {
    let s = this_units(vm, args)?;
    let seps: Vec<Vec<u16>> =
        vm.array_items(arg(args, 1)).map(|items| items.iter().filter_map(|&v| vm.str_units(v).map(<[u16]>::to_vec)).collect()).unwrap_or_default();
    let seps = if seps.iter().all(Vec::is_empty) { whitespace_separators() } else { seps };
    let parts = split_by(&s, &seps, int_arg(args, 2), int_arg(args, 3));
    split_result(vm, parts)
}

fn concat_strings(vm: &mut Vm, args: &[Value]) -> R {
    let mut out = vm.str_units(arg(args, 0)).map(<[u16]>::to_vec).unwrap_or_default();
    if let Some(b) = vm.str_units(arg(args, 1)) {
        out.extend_from_slice(b);
    }
    ret(vm, out)
}

/// `[text, index, format, alignment]` groups for `string.Format` (index -1: trailing text).
fn parse_composite(vm: &mut Vm, args: &[Value]) -> R {
    use crate::runtime::numerics::{parse_composite_checked, CompositePart};
    let fmt = vm.string_arg(arg(args, 0), "format")?;
    let argc = int_arg(args, 1).max(0) as usize;
    let parts = parse_composite_checked(&fmt, argc).map_err(|e| throw(ExceptionKind::Format, e.message()))?;
    let mut out = Vec::new();
    let mut text = String::new();
    for p in parts {
        match p {
            CompositePart::Text(t) => text.push_str(&t),
            CompositePart::Hole { index, alignment, format } => {
                out.push(vm.alloc_str(&text));
                text.clear();
                out.push(Value::I32(index as i32));
                out.push(match format {
                    Some(f) => vm.alloc_str(&f),
                    None => Value::Null,
                });
                out.push(Value::I32(alignment));
            }
        }
    }
    if !text.is_empty() {
        out.push(vm.alloc_str(&text));
        out.push(Value::I32(-1));
        out.push(Value::Null);
        out.push(Value::I32(0));
    }
    let ty = vm.meta.types.array(vm.meta.well_known.object, 1);
    Ok(vm.new_array_of(ty, out))
}

fn align(vm: &mut Vm, args: &[Value]) -> R {
    let s = vm.string_of(arg(args, 0)).unwrap_or_default();
    let out = crate::runtime::numerics::align(&s, int_arg(args, 1));
    Ok(vm.alloc_str(&out))
}

// ---- char ---------------------------------------------------------------------------------

fn char_arg(args: &[Value]) -> u16 {
    match arg(args, 0) {
        Value::Char(c) => c,
        _ => 0,
    }
}

fn as_char(c: u16) -> Option<char> {
    char::from_u32(c as u32)
}

fn char_to_string(vm: &mut Vm, args: &[Value]) -> R {
    ret(vm, vec![char_arg(args)])
}

fn char_pred(args: &[Value], f: fn(char) -> bool) -> R {
    Ok(Value::Bool(as_char(char_arg(args)).is_some_and(f)))
}

fn is_digit(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, |c| c.is_ascii_digit() || ('\u{660}'..='\u{669}').contains(&c))
}
fn is_letter(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, char::is_alphabetic)
}
fn is_white_space(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, char::is_whitespace)
}
fn is_upper(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, char::is_uppercase)
}
fn is_lower(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, char::is_lowercase)
}
fn is_punctuation(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, |c| {
        c.is_ascii_punctuation() && !"$+<=>^`|~".contains(c) || matches!(c, '¡' | '§' | '«' | '¶' | '·' | '»' | '¿' | '、' | '。' | '，' | '！' | '？')
    })
}
fn is_symbol(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, |c| "$+<=>^`|~¢£¤¥¦©¬®°±´¸×÷".contains(c))
}
fn is_control(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, char::is_control)
}
fn is_number(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, char::is_numeric)
}
fn is_separator(_: &mut Vm, args: &[Value]) -> R {
    char_pred(args, |c| matches!(c, ' ' | '\u{a0}' | '\u{2028}' | '\u{2029}' | '\u{3000}' | '\u{2000}'..='\u{200a}'))
}

pub fn upper_unit(c: u16) -> u16 {
    match as_char(c) {
        Some(ch) => {
            let mut up = ch.to_uppercase();
            match (up.next(), up.next()) {
                (Some(u), None) if (u as u32) < 0x10000 => u as u16,
                _ => c,
            }
        }
        None => c,
    }
}

pub fn lower_unit(c: u16) -> u16 {
    match as_char(c) {
        Some(ch) => {
            let mut lo = ch.to_lowercase();
            match (lo.next(), lo.next()) {
                (Some(l), None) if (l as u32) < 0x10000 => l as u16,
                _ => c,
            }
        }
        None => c,
    }
}

fn char_to_upper(_: &mut Vm, args: &[Value]) -> R {
    Ok(Value::Char(upper_unit(char_arg(args))))
}

fn char_to_lower(_: &mut Vm, args: &[Value]) -> R {
    Ok(Value::Char(lower_unit(char_arg(args))))
}

fn numeric_value(_: &mut Vm, args: &[Value]) -> R {
    Ok(Value::F64(as_char(char_arg(args)).and_then(|c| c.to_digit(10)).map_or(-1.0, |d| d as f64)))
}

// ---- StringBuilder ------------------------------------------------------------------------

fn with_sb<T>(vm: &mut Vm, v: Value, f: impl FnOnce(&mut Vec<u16>) -> T) -> Result<T, NativeError> {
    match v.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Native(n)) => match n.as_mut() {
            NativeData::StringBuilder(b) => Ok(f(b)),
            _ => Err(nre()),
        },
        _ => Err(nre()),
    }
}

fn sb_new(vm: &mut Vm, _: &[Value]) -> R {
    Ok(Value::Ref(vm.heap.alloc(Obj::Native(Box::new(NativeData::StringBuilder(Vec::new()))))))
}

fn sb_append(vm: &mut Vm, args: &[Value]) -> R {
    let s = vm.str_units(arg(args, 1)).map(<[u16]>::to_vec).unwrap_or_default();
    with_sb(vm, arg(args, 0), |b| b.extend_from_slice(&s))?;
    Ok(Value::Null)
}

fn sb_length(vm: &mut Vm, args: &[Value]) -> R {
    with_sb(vm, arg(args, 0), |b| Value::I32(b.len() as i32))
}

fn sb_set_length(vm: &mut Vm, args: &[Value]) -> R {
    let n = int_arg(args, 1);
    if n < 0 {
        return Err(out_of_range("value", "Length cannot be less than zero."));
    }
    with_sb(vm, arg(args, 0), |b| b.resize(n as usize, 0))?;
    Ok(Value::Null)
}

fn sb_to_string(vm: &mut Vm, args: &[Value]) -> R {
    let units = with_sb(vm, arg(args, 0), |b| b.clone())?;
    ret(vm, units)
}

fn sb_substring(vm: &mut Vm, args: &[Value]) -> R {
    let (start, len) = (int_arg(args, 1), int_arg(args, 2));
    let units = with_sb(vm, arg(args, 0), |b| b.clone())?;
    if start < 0 || len < 0 || start as usize + len as usize > units.len() {
        return Err(out_of_range("length", "Index and length must refer to a location within the string."));
    }
    ret(vm, units[start as usize..(start + len) as usize].to_vec())
}

fn sb_insert(vm: &mut Vm, args: &[Value]) -> R {
    let i = int_arg(args, 1);
    let s = vm.str_units(arg(args, 2)).map(<[u16]>::to_vec).unwrap_or_default();
    let ok = with_sb(vm, arg(args, 0), |b| {
        if i < 0 || i as usize > b.len() {
            return false;
        }
        b.splice(i as usize..i as usize, s);
        true
    })?;
    if !ok {
        return Err(out_of_range("index", "Index was out of range. Must be non-negative and less than or equal to the size of the collection."));
    }
    Ok(Value::Null)
}

fn sb_remove(vm: &mut Vm, args: &[Value]) -> R {
    let (i, n) = (int_arg(args, 1), int_arg(args, 2));
    let ok = with_sb(vm, arg(args, 0), |b| {
        if i < 0 || n < 0 || i as usize + n as usize > b.len() {
            return false;
        }
        b.drain(i as usize..(i + n) as usize);
        true
    })?;
    if !ok {
        return Err(out_of_range("length", "Index was out of range. Must be non-negative and less than the size of the collection."));
    }
    Ok(Value::Null)
}

fn sb_replace(vm: &mut Vm, args: &[Value]) -> R {
    let old = vm.str_units(arg(args, 1)).map(<[u16]>::to_vec).unwrap_or_default();
    let new = vm.str_units(arg(args, 2)).map(<[u16]>::to_vec).unwrap_or_default();
    if old.is_empty() {
        return Err(throw(ExceptionKind::Argument, "The value cannot be an empty string.|oldValue"));
    }
    with_sb(vm, arg(args, 0), |b| {
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            if b[i..].starts_with(&old) {
                out.extend_from_slice(&new);
                i += old.len();
            } else {
                out.push(b[i]);
                i += 1;
            }
        }
        *b = out;
    })?;
    Ok(Value::Null)
}

fn sb_get_char(vm: &mut Vm, args: &[Value]) -> R {
    let i = int_arg(args, 1);
    let c = with_sb(vm, arg(args, 0), |b| usize::try_from(i).ok().and_then(|i| b.get(i).copied()))?;
    c.map(Value::Char).ok_or_else(|| out_of_range("index", "Index was out of range. Must be non-negative and less than the size of the collection."))
}

fn sb_set_char(vm: &mut Vm, args: &[Value]) -> R {
    let i = int_arg(args, 1);
    let Value::Char(c) = arg(args, 2) else { return Ok(Value::Null) };
    let ok = with_sb(vm, arg(args, 0), |b| match usize::try_from(i).ok().and_then(|i| b.get_mut(i)) {
        Some(slot) => {
            *slot = c;
            true
        }
        None => false,
    })?;
    if !ok {
        return Err(out_of_range("index", "Index was out of range. Must be non-negative and less than the size of the collection."));
    }
    Ok(Value::Null)
}

/// `string.Intern(s)`: the pool's string equal to `s`, which joins the pool (with the
/// literals) if none does. A string with a lone surrogate is returned as it is.
fn intern(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let s = arg(args, 0);
    let text = String::from_utf16(&vm.str_arg(s, "str")?).ok();
    let (Some(text), Some(r)) = (text, s.gc_ref()) else { return Ok(s) };
    Ok(Value::Ref(*vm.literals.entry(text).or_insert(r)))
}

/// `string.IsInterned(s)`: the pool's string equal to `s`, or null.
fn is_interned(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let text = String::from_utf16(&vm.str_arg(arg(args, 0), "str")?).ok();
    Ok(text.and_then(|t| vm.literals.get(&t).copied()).map_or(Value::Null, Value::Ref))
}
