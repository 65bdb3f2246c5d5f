//! Generates the LALR parser from `src/grammar.lalrpop`.
fn main() {
    lalrpop::Configuration::new().use_cargo_dir_conventions().emit_rerun_directives(true).process().expect("lalrpop failed to process the grammar");
}
