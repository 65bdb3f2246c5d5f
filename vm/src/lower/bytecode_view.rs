//! `vm lower --bytecode`: the disassembly of the functions a lowering produced, with
//! method and type ids replaced by their C# names and the suspension points marked.

use crate::bytecode::disasm::disassemble;
use crate::bytecode::{Function, Op};
use crate::metadata::{Metadata, MethodId, TypeId};

/// The listing of `f`, titled `title`; `marks` are `(pc, note)` comments to add.
pub fn listing(meta: &Metadata, f: &Function, title: &str, marks: &[(u32, String)]) -> Vec<String> {
    let mut out = vec![format!("-- bytecode: {title}")];
    for (i, line) in disassemble(f).lines().enumerate() {
        let named = with_names(meta, line);
        let pc = i.checked_sub(1).map(|pc| pc as u32);
        let notes: Vec<&str> = marks.iter().filter(|(at, _)| Some(*at) == pc && i <= f.code.len()).map(|(_, n)| n.as_str()).collect();
        if notes.is_empty() {
            out.push(named);
        } else {
            out.push(format!("{named}   // {}", notes.join("; ")));
        }
    }
    out
}

/// `(pc, note)` for each suspension and resumption point of a runtime-async body.
pub fn runtime_marks(f: &Function, resume_pcs: &[u32]) -> Vec<(u32, String)> {
    let mut marks = Vec::new();
    for (k, &resume) in resume_pcs.iter().enumerate() {
        let at = resume.saturating_sub(1);
        let when = match f.code.get(at as usize) {
            Some(Op::CallAsync { .. }) => " if the callee suspended",
            _ => "",
        };
        marks.push((at, format!("#{k}: SUSPEND{when}")));
        if (resume as usize) < f.code.len() {
            marks.push((resume, format!("#{k}: RESUME continues here")));
        }
    }
    marks
}

/// `(pc, note)` for each await of a classic `MoveNext`: where it saves the live registers
/// into fields and where the resume label reloads them.
pub fn classic_marks(f: &Function) -> Vec<(u32, String)> {
    let mut marks = Vec::new();
    for (pc, op) in f.code.iter().enumerate() {
        match *op {
            Op::SpillToFields { plan, .. } => marks.push((pc as u32, format!("await #{plan}: save what is live into fields"))),
            Op::ReloadFromFields { plan, .. } => marks.push((pc as u32, format!("<>resume_{plan}: reload it"))),
            _ => {}
        }
    }
    marks
}

/// `line` with `MethodId(n)` and `TypeId(n)` spelled as C# names.
fn with_names(meta: &Metadata, line: &str) -> String {
    let line = replace_ids(line, "MethodId(", |n| meta.methods.get(n).map(|_| method_name(meta, MethodId(n as u32))));
    replace_ids(&line, "TypeId(", |n| (n < meta.types.len()).then(|| meta.cs_short_name(TypeId(n as u32))))
}

/// `Type.Method`; a runtime-async body (`<M>a__N`) is `Type.M (async variant)`.
fn method_name(meta: &Metadata, m: MethodId) -> String {
    let md = meta.method(m);
    let owner = meta.cs_short_name(meta.type_def(md.owner).self_type);
    let async_variant = md.name.strip_prefix('<').and_then(|n| n.split_once(">a__")).map(|(name, _)| name);
    match async_variant {
        Some(name) => format!("{owner}.{name} (async variant)"),
        None => format!("{owner}.{}", md.name),
    }
}

/// Replaces each `prefix` + digits + `)` by `name(digits)` (kept as is when unnamed).
fn replace_ids(line: &str, prefix: &str, name: impl Fn(usize) -> Option<String>) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find(prefix) {
        out.push_str(&rest[..at]);
        let after = &rest[at + prefix.len()..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        let closed = after[digits.len()..].starts_with(')');
        match (closed, digits.parse::<usize>().ok().and_then(&name)) {
            (true, Some(n)) => {
                out.push_str(&n);
                rest = &after[digits.len() + 1..];
            }
            _ => {
                out.push_str(prefix);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
