//! Finding the benchmarks `Main` asked for in the program's metadata, as BenchmarkDotNet
//! finds them by reflection: the classes with `[Benchmark]` methods, each method's baseline
//! flag and categories, `[GlobalSetup]`/`[GlobalCleanup]`, and whether the class groups
//! its rows by category.

use super::BenchRequest;
use crate::metadata::attributes::{find, CustomAttribute};
use crate::metadata::{Flags, Metadata, MethodId, MethodKind, TypeDefId, TypeDefKind};

/// A class of benchmarks: one table.
pub struct BenchmarkClass {
    pub def: TypeDefId,
    pub name: String,
    /// The parameterless constructor each benchmark's instance is made with.
    pub constructor: MethodId,
    /// `[GroupBenchmarksBy(BenchmarkLogicalGroupRule.ByCategory)]`: one baseline per category.
    pub by_category: bool,
    pub setup: Option<MethodId>,
    pub cleanup: Option<MethodId>,
    pub benchmarks: Vec<Benchmark>,
}

/// One `[Benchmark]` method: one row.
pub struct Benchmark {
    pub method: MethodId,
    pub name: String,
    /// `Namespace.Class.Method`, what `--filter` patterns match.
    pub full_name: String,
    pub baseline: bool,
    /// `OperationsPerInvoke = n`: one call performs `n` operations (times and bytes are
    /// divided by it).
    pub operations_per_invoke: u64,
    pub categories: Vec<String>,
    pub returns_task: bool,
}

/// The classes `requests` name, in declaration order, each at most once; a class that
/// cannot be benchmarked is an error (BenchmarkDotNet's validation message).
pub fn find_classes(meta: &Metadata, requests: &[BenchRequest]) -> Result<Vec<BenchmarkClass>, String> {
    let mut defs: Vec<TypeDefId> = Vec::new();
    for request in requests {
        match *request {
            BenchRequest::Program => defs.extend(program_benchmark_classes(meta)),
            BenchRequest::Class(t) => match meta.types.def_of(t) {
                Some(def) => defs.push(def),
                None => return Err(format!("{} is not a class with benchmarks", meta.clr_name(t))),
            },
        }
    }
    let mut unique: Vec<TypeDefId> = Vec::new();
    for d in defs {
        if !unique.contains(&d) {
            unique.push(d);
        }
    }
    unique.into_iter().map(|d| benchmark_class(meta, d)).collect()
}

fn program_benchmark_classes(meta: &Metadata) -> Vec<TypeDefId> {
    (0..meta.type_defs.len())
        .map(|i| TypeDefId(i as u32))
        .filter(|&d| meta.type_def(d).methods.iter().any(|&m| find(meta.attributes.of_method(m), "Benchmark").is_some()))
        .collect()
}

fn benchmark_class(meta: &Metadata, def: TypeDefId) -> Result<BenchmarkClass, String> {
    let td = meta.type_def(def);
    if td.kind != TypeDefKind::Class || !td.type_params.is_empty() || td.flags.has(Flags::ABSTRACT) {
        return Err(format!("{}: benchmarks must be declared in a non-generic, non-abstract class", td.name));
    }
    let class_attrs = meta.attributes.of_type(def);
    let class_categories = categories(class_attrs);
    let mut benchmarks = Vec::new();
    for &m in &td.methods {
        let attrs = meta.attributes.of_method(m);
        if let Some(b) = find(attrs, "Benchmark") {
            benchmarks.push(benchmark(meta, def, m, b, attrs, &class_categories)?);
        }
    }
    if benchmarks.is_empty() {
        return Err(format!("{}: no method has [Benchmark]", td.name));
    }
    let constructor = td
        .methods
        .iter()
        .copied()
        .find(|&m| {
            let md = meta.method(m);
            md.kind == MethodKind::Constructor && !md.is_static() && md.params.is_empty()
        })
        .ok_or_else(|| format!("{}: a benchmark class needs a parameterless constructor", td.name))?;
    Ok(BenchmarkClass {
        def,
        name: td.name.clone(),
        constructor,
        by_category: find(class_attrs, "GroupBenchmarksBy").is_some_and(|g| g.args.iter().any(is_by_category)),
        setup: marked(meta, def, "GlobalSetup")?,
        cleanup: marked(meta, def, "GlobalCleanup")?,
        benchmarks,
    })
}

fn benchmark(
    meta: &Metadata,
    def: TypeDefId,
    m: MethodId,
    attr: &CustomAttribute,
    attrs: &[CustomAttribute],
    class_categories: &[String],
) -> Result<Benchmark, String> {
    let md = meta.method(m);
    let td = meta.type_def(def);
    if md.kind != MethodKind::Ordinary || !md.params.is_empty() || !md.type_params.is_empty() {
        return Err(format!("{}.{}: a benchmark method takes no parameters and no type parameters", td.name, md.name));
    }
    let returns_task = match returned_task(meta, m) {
        Ok(is_task) => is_task,
        Err(kind) => return Err(format!("{}.{}: benchmarks returning {kind} are not supported (return Task)", td.name, md.name)),
    };
    let mut all_categories = class_categories.to_vec();
    all_categories.extend(categories(attrs));
    let namespace = if td.namespace.is_empty() { String::new() } else { format!("{}.", td.namespace) };
    Ok(Benchmark {
        method: m,
        name: md.name.clone(),
        full_name: format!("{namespace}{}.{}", td.name, md.name),
        baseline: attr.named_bool("Baseline").unwrap_or(false),
        operations_per_invoke: attr.named_int("OperationsPerInvoke").and_then(|n| u64::try_from(n).ok()).unwrap_or(1).max(1),
        categories: all_categories,
        returns_task,
    })
}

/// Whether `m` returns `Task` or `Task<T>` (awaited each operation); a `ValueTask` is an
/// error, anything else is a synchronous result.
fn returned_task(meta: &Metadata, m: MethodId) -> Result<bool, String> {
    let Some(def) = meta.types.def_of(meta.method(m).ret) else { return Ok(false) };
    let d = meta.type_def(def);
    if d.namespace != "System.Threading.Tasks" {
        return Ok(false);
    }
    match d.name.as_str() {
        "Task" => Ok(true),
        "ValueTask" => Err(d.name.clone()),
        _ => Ok(false),
    }
}

fn categories(attrs: &[CustomAttribute]) -> Vec<String> {
    attrs.iter().filter(|a| a.name == "BenchmarkCategory").flat_map(|a| a.string_args().map(str::to_string)).collect()
}

fn is_by_category(v: &crate::metadata::attributes::AttributeValue) -> bool {
    matches!(v, crate::metadata::attributes::AttributeValue::Other(name) if name == "ByCategory")
}

/// The parameterless instance method of `def` marked `[name]`, if any.
fn marked(meta: &Metadata, def: TypeDefId, name: &str) -> Result<Option<MethodId>, String> {
    let td = meta.type_def(def);
    let Some(&m) = td.methods.iter().find(|&&m| find(meta.attributes.of_method(m), name).is_some()) else {
        return Ok(None);
    };
    if !meta.method(m).params.is_empty() {
        return Err(format!("{}.{}: a [{name}] method takes no parameters", td.name, meta.method(m).name));
    }
    Ok(Some(m))
}
