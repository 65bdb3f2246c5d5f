//! `System.Text.RegularExpressions.Regex`'s engine (`RegexNative` in
//! `stdlib/System/Text/RegularExpressions/Regex.cs-lite`): the pattern is translated from
//! .NET's syntax (`translate.rs`) and run by fancy-regex, a backtracking engine with
//! lookarounds, backreferences and atomic groups. A compiled regex is a heap object
//! (`NativeData::Regex`); a match comes back as .NET's groups' (index, length) pairs in
//! UTF-16 units, converted from the engine's UTF-8 byte offsets (`utf16.rs`).

mod translate;
mod utf16;

use super::support::{arg, int_arg};
use crate::runtime::native::{NativeData, NativeEntry, NativeError, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;
use translate::{translate, GroupSlot, TranslateError};
use utf16::Utf16Text;

pub static ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "RegexNative.Compile", func: compile },
    NativeEntry { name: "RegexNative.GroupNumbers", func: group_numbers },
    NativeEntry { name: "RegexNative.GroupNames", func: group_names },
    NativeEntry { name: "RegexNative.Match", func: match_at },
];

/// How many backtracking steps a match may take before it counts as timed out
/// (`RegexMatchTimeoutException`): the VM has no wall clock to measure .NET's timeout by.
const BACKTRACK_LIMIT: usize = 10_000_000;

/// A compiled regex: the engine's program, .NET's groups, and the last input searched
/// (kept so that `NextMatch` over a long text does not convert it again each time).
pub struct CompiledRegex {
    engine: fancy_regex::Regex,
    groups: Vec<GroupSlot>,
    last_input: Option<Utf16Text>,
}

/// `Compile(pattern, options)`: the compiled regex, or a string saying why not:
/// `"P<offset>|<message>"` for a pattern .NET rejects, `"U|<message>"` for one it
/// accepts and this engine cannot run.
fn compile(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let pattern = vm.string_arg(arg(args, 0), "pattern")?;
    let options = int_arg(args, 1);
    let translation = match translate(&pattern, options) {
        Ok(t) => t,
        Err(TranslateError::Invalid { offset, reason }) => {
            return Ok(vm.new_str(&format!("P{offset}|Invalid pattern '{pattern}' at offset {offset}. {reason}")));
        }
        Err(TranslateError::Unsupported(reason)) => return Ok(vm.new_str(&format!("U|{reason}"))),
    };
    let engine = fancy_regex::RegexBuilder::new(&translation.pattern).backtrack_limit(BACKTRACK_LIMIT).build();
    match engine {
        Ok(engine) => {
            let compiled = CompiledRegex { engine, groups: translation.groups, last_input: None };
            Ok(Value::Ref(vm.heap.alloc(Obj::Native(Box::new(NativeData::Regex(Box::new(compiled)))))))
        }
        Err(e) => Ok(vm.new_str(&format!("U|The pattern is valid in .NET but the regex engine cannot run it: {e}"))),
    }
}

fn compiled(vm: &Vm, handle: Value) -> Result<&CompiledRegex, NativeError> {
    match handle.gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Native(n)) => match n.as_ref() {
            NativeData::Regex(c) => Ok(c),
            _ => Err(super::support::fatal("not a compiled regex")),
        },
        _ => Err(super::support::fatal("not a compiled regex")),
    }
}

fn compiled_mut(vm: &mut Vm, handle: Value) -> Result<&mut CompiledRegex, NativeError> {
    match handle.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Native(n)) => match n.as_mut() {
            NativeData::Regex(c) => Ok(c),
            _ => Err(super::support::fatal("not a compiled regex")),
        },
        _ => Err(super::support::fatal("not a compiled regex")),
    }
}

/// `GroupNumbers(handle)`: .NET's group numbers, ascending.
fn group_numbers(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let numbers: Vec<Value> = compiled(vm, arg(args, 0))?.groups.iter().map(|g| Value::I32(g.number)).collect();
    let ty = vm.meta.types.array(vm.meta.well_known.int32, 1);
    Ok(vm.new_array_of(ty, numbers))
}

/// `GroupNames(handle)`: the names in group-number order (a number's digits when unnamed).
fn group_names(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let names: Vec<String> = compiled(vm, arg(args, 0))?.groups.iter().map(|g| g.name.clone()).collect();
    Ok(vm.new_string_array(&names))
}

/// `Match(handle, input, startat)`: the first match at or after UTF-16 index `startat`,
/// as an `int[]` holding (index, length) for each group in number order (index -1: the
/// group did not capture); null when nothing matches; an empty array when the engine gave
/// up (its backtracking limit: .NET's timeout).
fn match_at(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let units = vm.str_arg(arg(args, 1), "input")?;
    let startat = usize::try_from(int_arg(args, 2)).unwrap_or(0);
    let regex = compiled_mut(vm, arg(args, 0))?;
    if regex.last_input.as_ref().is_none_or(|t| !t.is(&units)) {
        regex.last_input = Some(Utf16Text::new(units));
    }
    let Some(text) = regex.last_input.as_ref() else { return Ok(Value::Null) };
    let found = regex.engine.captures_from_pos(text.as_str(), text.byte_of(startat));
    let pairs = match found {
        Ok(None) => return Ok(Value::Null),
        Err(_) => Vec::new(),
        Ok(Some(caps)) => regex.groups.iter().flat_map(|slot| group_span(slot, &caps, text)).collect(),
    };
    let ty = vm.meta.types.array(vm.meta.well_known.int32, 1);
    Ok(vm.new_array_of(ty, pairs))
}

/// A group's (index, length) in UTF-16 units: the last of its engine groups that captured.
fn group_span(slot: &GroupSlot, caps: &fancy_regex::Captures<'_, str>, text: &Utf16Text) -> [Value; 2] {
    let engine_groups: &[usize] = if slot.number == 0 { &[0] } else { &slot.engine_groups };
    let found = engine_groups.iter().rev().find_map(|&g| caps.get(g));
    match found {
        Some(m) => {
            let start = text.unit_of(m.start());
            [Value::I32(start), Value::I32(text.unit_of(m.end()) - start)]
        }
        None => [Value::I32(-1), Value::I32(0)],
    }
}
