//! The contracts between Rust and cs-lite, each checked here: the field slots the fast
//! paths (`runtime::intrinsics::fast_paths`) read, the runtime-async status codes, the
//! fixed ids of the frame-switching intrinsics, the intrinsics the emitter calls by name,
//! and the uniqueness of the registries' names. (The fast paths' behaviour is checked by
//! programs/lang/dictionary_*.)

use vm::compiler::emit::intrinsics::EMITTED_INTRINSICS;
use vm::compiler::{CompileOptions, Program};
use vm::interp::runtime_async as status;
use vm::metadata::{FastPathId, IntrinsicNames, NativeId};
use vm::runtime::intrinsics::hashing::{DICTIONARY_INDEX_SLOT, INDEX_NATIVE_SLOT, INDEX_TABLE_SLOT};
use vm::runtime::intrinsics::{fast_paths, frames, lookup, name_of, NAMES};

fn empty_program() -> Program {
    vm::driver::compile_file("empty.cs", "class P { static void Main() { } }", CompileOptions::default()).expect("an empty program compiles")
}

#[test]
fn dictionary_fields_are_where_the_indexer_fast_path_reads_them() {
    let program = empty_program();
    let meta = &program.meta;
    let slot = |ty: &str, field: &str| meta.fields.iter().find(|f| f.name == field && meta.def_full_name(f.owner) == ty).map(|f| f.slot as usize);
    assert_eq!(slot("System.Collections.Generic.Dictionary`2", "_index"), Some(DICTIONARY_INDEX_SLOT));
    assert_eq!(slot("System.Collections.Generic.HashIndex`2", "Table"), Some(INDEX_TABLE_SLOT));
    assert_eq!(slot("System.Collections.Generic.HashIndex`2", "_native"), Some(INDEX_NATIVE_SLOT));
}

/// The value of `const int NAME = VALUE;` in the library's `AsyncHelpers` (read from its
/// declaration: `QueueToPool` is the dispatcher's `else`, so no body folds it).
fn async_helpers_constant(name: &str) -> Option<i64> {
    let library = vm::compiler::library_sources();
    let (_, text) = library.iter().find(|(path, _)| path.ends_with("/AsyncHelpers.RuntimeAsync.cs-lite"))?;
    let declaration = format!("const int {name} = ");
    let line = text.lines().find(|l| l.contains(&declaration))?;
    let value = line.split(&declaration).nth(1)?.split(';').next()?;
    value.trim().parse().ok()
}

#[test]
fn runtime_async_status_codes_are_the_library_constants() {
    let codes = [
        ("Completed", status::COMPLETED),
        ("Suspended", status::SUSPENDED),
        ("Threw", status::THREW),
        ("SwitchContext", status::SWITCH_CONTEXT),
        ("PostToContext", status::POST_TO_CONTEXT),
        ("QueueToPool", status::QUEUE_TO_POOL),
        ("ResumeNested", status::RESUME_NESTED),
    ];
    for (name, code) in codes {
        assert_eq!(async_helpers_constant(name), Some(i64::from(code)), "AsyncHelpers.{name}");
    }
}

#[test]
fn frame_switching_intrinsics_have_their_fixed_ids() {
    let fixed = [
        ("Iterator.MoveNext", frames::ITERATOR_MOVE_NEXT),
        ("Iterator.Dispose", frames::ITERATOR_DISPOSE),
        ("AsyncHelpers.ResumeChain", frames::RESUME_CHAIN),
        ("Reflection.InvokeMethod", frames::INVOKE_METHOD),
        ("Reflection.RunClassConstructor", frames::RUN_CLASS_CONSTRUCTOR),
    ];
    for (name, id) in fixed {
        assert_eq!(lookup(name), Some(id), "{name}");
    }
    // The interpreter tells them by `id <= RUN_CLASS_CONSTRUCTOR`: they are the whole area.
    assert_eq!(frames::ENTRIES.len(), usize::from(frames::RUN_CLASS_CONSTRUCTOR.0) + 1);
}

#[test]
fn every_intrinsic_the_emitter_calls_exists() {
    for name in EMITTED_INTRINSICS {
        assert!(lookup(name).is_some(), "the emitter calls `{name}`, which the registry lacks");
    }
}

#[test]
fn registry_names_are_unique() {
    let mut id = 0u16;
    while name_of(NativeId(id)) != "?" {
        let name = name_of(NativeId(id));
        assert_eq!(lookup(name), Some(NativeId(id)), "`{name}` is registered twice");
        id += 1;
    }
    assert!(id > 100, "the registry has {id} entries");
    for (i, entry) in fast_paths::ENTRIES.iter().enumerate() {
        assert_eq!(fast_paths::lookup(entry.name), Some(FastPathId(i as u16)), "fast path `{}` is registered twice", entry.name);
    }
}

/// The registry without `Format.Align`, as if it had been renamed.
fn without_format_align(name: &str) -> Option<NativeId> {
    if name == "Format.Align" {
        return None;
    }
    lookup(name)
}

#[test]
fn a_missing_emitted_intrinsic_is_a_compile_error() {
    let user = [("align.cs".to_string(), "class P { static void Main() { int x = 1; System.Console.WriteLine($\"{x,5}\"); } }".to_string())];
    let names = IntrinsicNames { native: without_format_align, ..NAMES };
    let result = vm::compiler::compile(&vm::compiler::library_sources(), &user, CompileOptions::default(), names);
    let Err((diags, _)) = result else { panic!("a call of a missing intrinsic compiled") };
    assert!(diags.iter().any(|d| d.code == "CSL9001" && d.message.contains("Format.Align")), "{diags:?}");
}
