//! Member bodies: finding the block bodies of methods, constructors, operators and
//! accessors, and "skeleton" texts whose member bodies are blanked out. A skeleton parses
//! to the same declarations as its source, only faster, which lets a compiler declare a
//! large library up front and parse a body only when it compiles it.

use crate::ast::{Accessor, Block, Body, CompilationUnit, MemberDecl, NamespaceMember, PropertyBody, TypeDecl};
use crate::span::Span;

/// Calls `f` for the block body of every member (nested types included), in source order.
pub fn for_each_member_body<'a>(unit: &'a CompilationUnit, f: &mut impl FnMut(&'a Block)) {
    namespace_members(&unit.members, f);
}

fn namespace_members<'a>(members: &'a [NamespaceMember], f: &mut impl FnMut(&'a Block)) {
    for m in members {
        match m {
            NamespaceMember::Namespace(n) => namespace_members(&n.members, f),
            NamespaceMember::Type(t) => type_members(t, f),
            NamespaceMember::Statement(_) => {}
        }
    }
}

fn type_members<'a>(t: &'a TypeDecl, f: &mut impl FnMut(&'a Block)) {
    for m in &t.members {
        match m {
            MemberDecl::Method(d) => body(&d.body, f),
            MemberDecl::Constructor(d) | MemberDecl::Destructor(d) => body(&d.body, f),
            MemberDecl::Operator(d) => body(&d.body, f),
            MemberDecl::Property(p) => property(&p.accessors, f),
            MemberDecl::Indexer(p) => property(&p.accessors, f),
            MemberDecl::Event(e) => e.accessors.iter().flatten().for_each(|a| accessor(a, f)),
            MemberDecl::Type(nested) => type_members(nested, f),
            MemberDecl::Field(_) | MemberDecl::Error(_) => {}
        }
    }
}

fn property<'a>(p: &'a PropertyBody, f: &mut impl FnMut(&'a Block)) {
    if let PropertyBody::Accessors(list) = p {
        list.iter().for_each(|a| accessor(a, f));
    }
}

fn accessor<'a>(a: &'a Accessor, f: &mut impl FnMut(&'a Block)) {
    body(&a.body, f);
}

fn body<'a>(b: &'a Option<Body>, f: &mut impl FnMut(&'a Block)) {
    if let Some(Body::Block(block)) = b {
        f(block);
    }
}

/// The spans of every member's block body.
pub fn member_body_spans(unit: &CompilationUnit) -> Vec<Span> {
    let mut spans = Vec::new();
    for_each_member_body(unit, &mut |b| spans.push(b.span));
    spans
}

/// `text` with the inside of each block in `spans` replaced by spaces (line breaks kept),
/// so every remaining token keeps its position and line.
pub fn blank_blocks(text: &str, spans: &[Span]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for s in spans {
        let (start, end) = (s.start as usize + 1, (s.end as usize).saturating_sub(1));
        for b in bytes.iter_mut().take(end).skip(start) {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only whole UTF-8 sequences inside blocks were replaced (every byte of them), so the
    // result is valid UTF-8; the fallback keeps the original should that ever not hold.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// The skeleton of a source file: its text with member bodies blanked, or the text itself
/// when it does not parse cleanly (then nothing may be assumed about its structure).
pub fn skeleton(text: &str) -> String {
    let parsed = crate::parse(text);
    if !parsed.diagnostics.is_empty() {
        return text.to_string();
    }
    blank_blocks(text, &member_body_spans(&parsed.unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_blanked_and_declarations_kept() {
        let text = "class C {\n  int F = 1;\n  int M(int x) {\n    return x + F; // é\n  }\n  int P { get { return 2; } set { } }\n  int Q => 3;\n}\n";
        let skel = skeleton(text);
        assert_eq!(skel.len(), text.len());
        assert!(!skel.contains("return"));
        assert!(skel.contains("int Q => 3;"));
        assert!(skel.contains("int F = 1;"));
        assert_eq!(skel.lines().count(), text.lines().count());
        assert!(crate::parse(&skel).diagnostics.is_empty());
    }
}
