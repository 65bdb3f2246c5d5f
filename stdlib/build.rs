//! Embeds every `.cs-lite` file under `System/` into the crate (a generated table of
//! `include_str!`s), so the `vm` binary carries its standard library.
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("System");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut out = String::from("/// Every standard-library source: (path relative to `stdlib/`, text).\npub static SOURCES: &[(&str, &str)] = &[\n");
    for f in &files {
        let rel = f.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(f).to_string_lossy().trim_start_matches('/').replace('\\', "/");
        out.push_str(&format!("    ({rel:?}, include_str!({:?})),\n", f.to_string_lossy()));
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("sources.rs");
    std::fs::write(dest, out).unwrap_or_else(|e| panic!("cannot write sources.rs: {e}"));
    println!("cargo:rerun-if-changed=System");
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        println!("cargo:rerun-if-changed={}", p.display());
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "cs-lite") {
            out.push(p);
        }
    }
}
