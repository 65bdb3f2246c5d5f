//! The layers of `vm/src` (ARCHITECTURE.md, "Layers"): each module imports only the modules
//! below it. Reads every `crate::`, `super::` and `self::` path in `vm/src/**.rs` (comments
//! aside), resolves it to the top-level module it names, and fails naming the file and line
//! of each import that goes up.

use std::path::{Path, PathBuf};

/// Each constrained top-level module and the modules it may import (besides itself). The
/// tools above them (`bench`, `lower`, `repl`, `driver`, `main`) may import anything.
const LAYERS: &[(&str, &[&str])] = &[
    ("numerics", &[]),
    ("metadata", &[]),
    ("value", &["metadata"]),
    ("bytecode", &["metadata", "value"]),
    ("compiler", &["metadata", "value", "bytecode", "numerics"]),
    ("runtime", &["metadata", "value", "bytecode", "numerics", "compiler"]),
    ("interp", &["metadata", "value", "bytecode", "numerics", "runtime"]),
];

/// The one upward edge: the runtime compiles library bodies on first call, and reaches the
/// compiler only through these items.
const RUNTIME_TO_COMPILER: &[&str] = &["compiler::Program", "compiler::lazy::LazyLibrary"];

/// A reference from one file to a module of the crate.
struct Import {
    line: usize,
    /// The path with `crate::`/`super::` resolved, e.g. `runtime::value::Value`.
    path: String,
}

/// The module path of a source file: `compiler/emit/expr.rs` is `[compiler, emit, expr]`,
/// a `mod.rs` is its folder, `lib.rs` the crate root.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
    }
    parts
}

/// Every path in `line` starting at `crate::`, `super::` or `self::`, resolved against the
/// module `here`; a `{...}` group after the prefix gives one path per item.
fn paths_in(line: &str, here: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let at_word_start = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        if at_word_start && (rest.starts_with("crate::") || rest.starts_with("super::") || rest.starts_with("self::")) {
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '{' || c == '}' || c == ',' || c == ' ')).unwrap_or(rest.len());
            found.extend(resolve(&rest[..end], here));
            i += end.max(1);
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    found
}

/// Resolves one textual path (maybe ending in a `{...}` group) to absolute paths.
fn resolve(text: &str, here: &[String]) -> Vec<String> {
    let (head, group) = match text.find('{') {
        Some(b) => (&text[..b], Some(text[b + 1..].split('}').next().unwrap_or(""))),
        None => (text, None),
    };
    let mut base: Vec<String> = here.to_vec();
    let mut rest = Vec::new();
    for (n, segment) in head.split("::").map(str::trim).filter(|s| !s.is_empty()).enumerate() {
        match segment {
            "crate" if n == 0 => base.clear(),
            "super" if rest.is_empty() => {
                base.pop();
            }
            "self" if rest.is_empty() => {}
            s => rest.push(s.split(' ').next().unwrap_or(s).to_string()),
        }
    }
    base.extend(rest);
    match group {
        None => vec![base.join("::")],
        Some(items) => items
            .split(',')
            .map(|item| item.trim().split(' ').next().unwrap_or("").to_string())
            .filter(|item| !item.is_empty())
            .map(|item| if base.is_empty() { item } else { format!("{}::{item}", base.join("::")) })
            .collect(),
    }
}

/// The crate-relative imports of one file, comment lines aside.
fn imports_of(text: &str, here: &[String]) -> Vec<Import> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .flat_map(|(n, l)| {
            let code = l.split(" //").next().unwrap_or(l);
            paths_in(code, here).into_iter().map(move |path| Import { line: n + 1, path })
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Why an import from module `from` to `path` breaks the layers, if it does.
fn violation(from: &str, path: &str) -> Option<String> {
    let (_, allowed) = LAYERS.iter().find(|(m, _)| *m == from)?;
    let to = path.split("::").next().unwrap_or("");
    let is_module = LAYERS.iter().any(|(m, _)| *m == to) || ["bench", "lower", "repl", "driver", "main"].contains(&to);
    if to == from || !is_module {
        return None;
    }
    if !allowed.contains(&to) {
        return Some(format!("{from}/ imports {to}/ (`{path}`): {from}/ may import only {allowed:?}"));
    }
    let narrow = from != "runtime" || to != "compiler" || RUNTIME_TO_COMPILER.iter().any(|p| path == *p || path.starts_with(&format!("{p}::")));
    (!narrow).then(|| format!("runtime/ reaches the compiler through `{path}`: only {RUNTIME_TO_COMPILER:?}"))
}

/// Every upward import in the files under `src`, as `file:line: why`.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let Ok(relative) = file.strip_prefix(src) else { continue };
        let here = module_path(relative);
        let Some(from) = here.first() else { continue };
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for import in imports_of(&text, &here) {
            if let Some(why) = violation(from, &import.path) {
                found.push(format!("vm/src/{}:{}: {why}", relative.display(), import.line));
            }
        }
    }
    found
}

#[test]
fn every_import_goes_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&src);
    assert!(found.is_empty(), "imports against the layers (see ARCHITECTURE.md, \"Layers\"):\n{}", found.join("\n"));
}

#[test]
fn an_upward_import_is_caught() {
    let here = module_path(Path::new("compiler/emit/expr.rs"));
    let caught = |line: &str| imports_of(line, &here).iter().filter_map(|i| violation("compiler", &i.path)).count();
    assert_eq!(caught("use crate::runtime::value::Value;"), 1);
    assert_eq!(caught("let f = crate::interp::arith::add(a, b);"), 1);
    assert_eq!(caught("use crate::{metadata::TypeId, runtime::Vm};"), 1);
    assert_eq!(caught("use super::super::super::runtime::Vm;"), 1);
    assert_eq!(caught("use super::super::lazy::LazyLibrary;"), 0);
    assert_eq!(caught("use crate::value::Value; // not crate::runtime::Vm"), 0);
    assert_eq!(caught("    // see crate::runtime::Vm"), 0);
    let runtime = module_path(Path::new("runtime/loader.rs"));
    let from_runtime = |line: &str| imports_of(line, &runtime).iter().filter_map(|i| violation("runtime", &i.path)).count();
    assert_eq!(from_runtime("use crate::compiler::Program;"), 0);
    assert_eq!(from_runtime("use crate::compiler::emit::classic::SELF_REFERENCE_FIELD;"), 1);
    assert_eq!(from_runtime("use crate::interp::SliceEnd;"), 1);
    assert_eq!(from_runtime("use crate::bench::BenchRequest;"), 1);
}
