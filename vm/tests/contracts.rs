//! What the fast paths (`runtime::intrinsics::fast_paths`) assume of the library: the
//! field slots they read. (Their behaviour is checked by programs/lang/dictionary_*.)

use vm::compiler::CompileOptions;
use vm::runtime::intrinsics::hashing::{DICTIONARY_INDEX_SLOT, INDEX_NATIVE_SLOT, INDEX_TABLE_SLOT};

#[test]
fn dictionary_fields_are_where_the_indexer_fast_path_reads_them() {
    let program = vm::driver::compile_file("empty.cs", "class P { static void Main() { } }", CompileOptions::default()).expect("an empty program compiles");
    let meta = &program.meta;
    let slot = |ty: &str, field: &str| meta.fields.iter().find(|f| f.name == field && meta.def_full_name(f.owner) == ty).map(|f| f.slot as usize);
    assert_eq!(slot("System.Collections.Generic.Dictionary`2", "_index"), Some(DICTIONARY_INDEX_SLOT));
    assert_eq!(slot("System.Collections.Generic.HashIndex`2", "Table"), Some(INDEX_TABLE_SLOT));
    assert_eq!(slot("System.Collections.Generic.HashIndex`2", "_native"), Some(INDEX_NATIVE_SLOT));
}
