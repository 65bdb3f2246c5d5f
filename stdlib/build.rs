//! Embeds every `.cs-lite` file under `System/` and `BenchmarkDotNet/` into the crate (a
//! generated table of `include_str!`s), so the `vm` binary carries its standard library, together with each
//! file's skeleton: the same text with member bodies blanked, which the VM parses at
//! startup instead (bodies are parsed when first compiled; see `vm::compiler::lazy`), and
//! the skeleton's syntax tree as an image (`grammar::image`), which startup decodes instead
//! of parsing: a skeleton with parse errors gets an empty image, so the VM parses it and
//! reports them.
use std::path::{Path, PathBuf};

fn main() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for root in ROOTS {
        collect(&manifest.join(root), &mut files);
        println!("cargo:rerun-if-changed={root}");
    }
    files.sort();
    let mut sources = String::from("/// Every standard-library source: (path relative to `stdlib/`, text).\npub static SOURCES: &[(&str, &str)] = &[\n");
    let mut skeletons = String::from("/// The skeleton of each of [`SOURCES`] (same order): member bodies blanked out.\npub static SKELETONS: &[&str] = &[\n");
    let mut images = String::from("/// The parsed skeleton of each of [`SOURCES`] (same order), as a `grammar::image`; empty when it has parse errors.\npub static IMAGES: &[&[u8]] = &[\n");
    for (i, f) in files.iter().enumerate() {
        let rel = f.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(f).to_string_lossy().trim_start_matches('/').replace('\\', "/");
        sources.push_str(&format!("    ({rel:?}, include_str!({:?})),\n", f.to_string_lossy()));
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
        let skeleton_path = out_dir.join(format!("skeleton{i}.cs-lite"));
        let skeleton = grammar::bodies::skeleton(&text);
        let image_path = out_dir.join(format!("skeleton{i}.image"));
        write_bytes(&image_path, &image(&skeleton));
        write(&skeleton_path, &skeleton);
        skeletons.push_str(&format!("    include_str!({:?}),\n", skeleton_path.to_string_lossy()));
        images.push_str(&format!("    include_bytes!({:?}),\n", image_path.to_string_lossy()));
    }
    sources.push_str("];\n");
    skeletons.push_str("];\n");
    images.push_str("];\n");
    write(&out_dir.join("sources.rs"), &sources);
    write(&out_dir.join("skeletons.rs"), &skeletons);
    write(&out_dir.join("images.rs"), &images);
}

/// The image of a skeleton's syntax tree, or nothing when it does not parse cleanly.
fn image(skeleton: &str) -> Vec<u8> {
    let parsed = grammar::parse(skeleton);
    if parsed.diagnostics.is_empty() {
        grammar::image::encode(&parsed.unit)
    } else {
        Vec::new()
    }
}

/// The library's namespaces with a folder of their own: the base class library, and the
/// attributes and entry points of BenchmarkDotNet (which `vm bench` runs).
const ROOTS: [&str; 2] = ["System", "BenchmarkDotNet"];

fn write(path: &Path, text: &str) {
    write_bytes(path, text.as_bytes());
}

fn write_bytes(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
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
