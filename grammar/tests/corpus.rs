//! The corpus: benchmark programs and the articles' sample programs must parse without a
//! single diagnostic; then random token soup and random mutations of every corpus file
//! must go through `parse` without panicking.

use std::path::PathBuf;

fn corpus() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("tests/corpus exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cs"))
        .map(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let text = std::fs::read_to_string(&p).expect("readable corpus file");
            (name, text)
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_parses_cleanly() {
    let files = corpus();
    assert!(files.len() >= 35, "corpus has {} files", files.len());
    let mut failures = Vec::new();
    for (name, text) in &files {
        let out = grammar::parse(text);
        let file = grammar::span::SourceFile::new(name.clone(), text.clone());
        for d in &out.diagnostics {
            let lc = file.line_col(d.span.start);
            failures.push(format!("{name}({},{}): {} {}", lc.line, lc.col, d.code, d.message));
        }
        assert!(!out.incomplete, "{name} is complete");
        assert!(!out.unit.members.is_empty(), "{name} has members");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A tiny deterministic PRNG (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SOUP: &[&str] = &[
    "class",
    "struct",
    "record",
    "interface",
    "enum",
    "namespace",
    "using",
    "static",
    "public",
    "async",
    "await",
    "var",
    "int",
    "string",
    "void",
    "new",
    "this",
    "base",
    "return",
    "if",
    "else",
    "for",
    "foreach",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "try",
    "catch",
    "finally",
    "throw",
    "yield",
    "is",
    "as",
    "not",
    "and",
    "or",
    "when",
    "with",
    "where",
    "get",
    "set",
    "init",
    "delegate",
    "operator",
    "event",
    "params",
    "ref",
    "out",
    "in",
    "typeof",
    "nameof",
    "global",
    "::",
    "x",
    "Foo",
    "List",
    "T",
    "_",
    "1",
    "0x1F",
    "1.5",
    "2f",
    "'a'",
    "\"s\"",
    "$\"a{x}b\"",
    "$\"{",
    "@\"v\"",
    "\"\"\"raw\"\"\"",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "<",
    ">",
    ">>",
    ">=",
    "<=",
    "=",
    "==",
    "=>",
    "?",
    "??",
    "?.",
    "!",
    ".",
    "..",
    ",",
    ";",
    ":",
    "+",
    "-",
    "*",
    "/",
    "%",
    "&",
    "&&",
    "|",
    "||",
    "^",
    "~",
    "++",
    "--",
    "+=",
    "??=",
    "#region",
    "//c\n",
    "/*c*/",
    "\n",
    " ",
];

fn soup(rng: &mut Rng) -> String {
    let len = 1 + rng.below(80);
    let mut s = String::new();
    for _ in 0..len {
        s.push_str(SOUP[rng.below(SOUP.len())]);
        s.push(if rng.below(5) == 0 { '\n' } else { ' ' });
    }
    s
}

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match rng.below(4) {
        0 => chars.truncate(rng.below(chars.len() + 1)),
        1 => {
            for _ in 0..=rng.below(8) {
                if !chars.is_empty() {
                    let i = rng.below(chars.len());
                    chars.remove(i);
                }
            }
        }
        2 => {
            for _ in 0..=rng.below(8) {
                let i = rng.below(chars.len() + 1);
                let pool = "{}()[]<>;,.?:=!\"'$@#/*\\ \nabc0";
                let c = pool.chars().nth(rng.below(pool.chars().count())).unwrap_or(' ');
                chars.insert(i, c);
            }
        }
        _ => {
            let a = rng.below(chars.len() + 1);
            let b = rng.below(chars.len() + 1);
            let (a, b) = (a.min(b), a.max(b));
            let piece: Vec<char> = chars[a..b].to_vec();
            let at = rng.below(chars.len() + 1);
            chars.splice(at..at, piece);
        }
    }
    chars.into_iter().collect()
}

fn exercise(src: &str) {
    let out = grammar::parse(src);
    for d in &out.diagnostics {
        assert!(d.span.start <= d.span.end && d.span.end as usize <= src.len(), "bad span {d:?} in {src:?}");
    }
    let _ = grammar::tokenize(src);
}

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let src = soup(&mut rng);
        exercise(&src);
        let _ = grammar::parse_expression(&src);
    }
}

#[test]
fn mutated_corpus_files_never_panic() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let files = corpus();
    for (_, text) in &files {
        for _ in 0..40 {
            exercise(&mutate(&mut rng, text));
        }
    }
}

#[test]
fn pathological_nesting_is_rejected_not_overflowed() {
    for src in [
        "(".repeat(100_000),
        format!("x = {}1;", "- ".repeat(100_000)),
        format!("x = 1{};", " + 1".repeat(100_000)),
        "{".repeat(50_000),
        format!("var s = {}", "$\"{".repeat(1000)),
        "static ".repeat(50_000),
    ] {
        exercise(&src);
    }
}
