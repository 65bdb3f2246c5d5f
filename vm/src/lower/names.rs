//! Names as a .NET developer reads them in `vm lower`: types in C# spelling relative to the
//! class being shown (`<Fib>d__0`, not `Program.<Fib>d__0`), method signatures, and the
//! source text and line of an expression.

use grammar::span::Span;

use crate::metadata::{FileId, Metadata, MethodId, MethodKind, ParamKind, TypeDefId, TypeId};

/// `t` in C#, without the `Owner.` prefix when it is nested in `owner`.
pub fn type_name(meta: &Metadata, t: TypeId, owner: TypeDefId) -> String {
    let full = meta.cs_short_name(t);
    let nested_in_owner = meta.types.def_of(t).is_some_and(|d| meta.type_def(d).declaring_type == Some(owner));
    if !nested_in_owner {
        return full;
    }
    let prefix = format!("{}.", meta.cs_short_name(meta.type_def(owner).self_type));
    full.strip_prefix(&prefix).map_or(full.clone(), str::to_string)
}

/// `int n, string s` of `m`'s parameters.
pub fn parameter_list(meta: &Metadata, m: MethodId) -> String {
    let md = meta.method(m);
    let params: Vec<String> = md
        .params
        .iter()
        .map(|p| {
            let modifier = match p.kind {
                ParamKind::Value => "",
                ParamKind::Ref => "ref ",
                ParamKind::Out => "out ",
                ParamKind::In => "in ",
                ParamKind::Params => "params ",
            };
            format!("{modifier}{} {}", type_name(meta, p.ty, md.owner), p.name)
        })
        .collect();
    params.join(", ")
}

/// `Program.Fib(int n) : Task<int>`.
pub fn signature(meta: &Metadata, m: MethodId) -> String {
    let md = meta.method(m);
    let owner = meta.cs_short_name(meta.type_def(md.owner).self_type);
    format!("{owner}.{}({}) : {}", method_name(meta, m), parameter_list(meta, m), type_name(meta, md.ret, md.owner))
}

/// The method's name with its own type parameters (`Echo<T>`).
pub fn method_name(meta: &Metadata, m: MethodId) -> String {
    let md = meta.method(m);
    if md.type_params.is_empty() {
        return md.name.clone();
    }
    let params: Vec<&str> = md.type_params.iter().map(|p| p.name.as_str()).collect();
    format!("{}<{}>", md.name, params.join(", "))
}

/// The name a method is asked for by: a local function's declared name (`SlowDouble`,
/// not Roslyn's `<<Main>$>g__SlowDouble|0_0`), any other method's own.
pub fn declared_name(meta: &Metadata, m: MethodId) -> &str {
    let md = meta.method(m);
    match md.name.rsplit_once("g__") {
        Some((_, rest)) if md.kind == MethodKind::LocalFunction => rest.split('|').next().unwrap_or(rest),
        _ => &md.name,
    }
}

/// The method's declaration line as C#: `private static Task<int> M(int n)`.
pub fn declaration(meta: &Metadata, m: MethodId) -> String {
    let md = meta.method(m);
    let statik = if md.is_static() { "static " } else { "" };
    format!("{} {statik}{} {}({})", accessibility(meta, m), type_name(meta, md.ret, md.owner), method_name(meta, m), parameter_list(meta, m))
}

/// `public`, `private`... as declared (`private` when nothing is said).
pub fn accessibility(meta: &Metadata, m: MethodId) -> &'static str {
    use crate::metadata::Flags;
    let flags = meta.method(m).flags;
    if flags.has(Flags::PUBLIC) {
        "public"
    } else if flags.has(Flags::PROTECTED) {
        "protected"
    } else if flags.has(Flags::INTERNAL) {
        "internal"
    } else {
        "private"
    }
}

/// The source text of `span` on one line (whitespace runs collapsed), and its line.
pub fn source_snippet(meta: &Metadata, file: FileId, span: Span) -> (String, u32) {
    let Some(source) = meta.files.get(file.index()) else { return (String::new(), 0) };
    let text = source.text.get(span.start as usize..span.end as usize).unwrap_or_default();
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (collapsed, source.line_col(span.start).line)
}
