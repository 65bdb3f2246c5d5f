//! Syntax-tree images: a parsed compilation unit as bytes, written at build time (the
//! standard library's skeletons) and read back at startup instead of parsing again.

use crate::ast::CompilationUnit;

/// The unit's bytes. Decoding them with [`decode`] gives an equal unit.
pub fn encode(unit: &CompilationUnit) -> Vec<u8> {
    bincode::encode_to_vec(unit, bincode::config::standard()).unwrap_or_default()
}

/// The unit [`encode`] wrote, or `None` when `bytes` is not a whole image.
pub fn decode(bytes: &[u8]) -> Option<CompilationUnit> {
    match bincode::decode_from_slice(bytes, bincode::config::standard()) {
        Ok((unit, read)) if read == bytes.len() => Some(unit),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decoded_image_equals_the_parsed_unit() {
        let text = "using System;\nnamespace N { [A(1)] public class C<T> : B where T : new() { int f = 1 + 2; public string M(int x) => $\"{x,5:F2}\"; } }";
        let unit = crate::parse(text).unit;
        assert_eq!(decode(&encode(&unit)), Some(unit));
    }

    #[test]
    fn a_cut_image_is_refused() {
        let bytes = encode(&crate::parse("class C { void M() { } }").unit);
        assert_eq!(decode(&bytes[..bytes.len() - 1]), None);
        assert_eq!(decode(&[]), None);
    }
}
