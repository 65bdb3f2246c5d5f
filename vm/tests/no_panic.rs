//! No input may make the VM panic or fail inside. Mutated versions of every program under
//! `programs/` (tokens deleted, duplicated or swapped, lines dropped) and random token soup
//! go through the lexer, parser, compiler and VM; each run must end in an orderly way:
//! output, compile errors, an exception report or an exit code — never a panic and never an
//! internal error (exit code 70, which means a VM bug). Runs are bounded by `max_steps`, so
//! mutated loops that never end stop too.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};

use vm::compiler::CompileOptions;
use vm::runtime::entry::INTERNAL_ERROR_EXIT_CODE;

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const MUTATIONS_PER_PROGRAM: usize = 6;

const TOKENS: &[&str] = &[
    "class",
    "struct",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ";",
    ",",
    ".",
    "=",
    "==",
    "=>",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<",
    ">",
    "?",
    "??",
    "?.",
    ":",
    "!",
    "&&",
    "||",
    "int",
    "string",
    "var",
    "new",
    "return",
    "if",
    "else",
    "while",
    "for",
    "foreach",
    "in",
    "try",
    "catch",
    "finally",
    "throw",
    "yield",
    "await",
    "async",
    "x",
    "y",
    "Main",
    "static",
    "void",
    "0",
    "1",
    "\"s\"",
    "'c'",
    "$\"{x}\"",
    "null",
    "this",
    "base",
    "using",
    "namespace",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "is",
    "as",
    "typeof",
    "nameof",
    "ref",
    "out",
    "params",
    "lock",
    "get",
    "set",
    "public",
];

fn run(name: &str, source: &str) {
    // In the sandbox: a mutated program must not write files on the host.
    let flags = ["--sandbox".to_string(), "--max-steps".to_string(), "200000".to_string()];
    let lowering = CompileOptions::default().lowering;
    match catch_unwind(AssertUnwindSafe(|| support::run(name, source, &flags, &[], lowering))) {
        Err(_) => panic!("the VM panicked on {name}:\n{source}"),
        Ok(o) if o.exit_code == INTERNAL_ERROR_EXIT_CODE => panic!("internal error on {name}:\n{}\n--- program\n{source}", o.stderr),
        Ok(_) => {}
    }
}

/// Splits source text into rough tokens (words, single punctuation) with the gaps kept.
fn pieces(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in source.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn mutate(source: &str, rng: &mut Rng) -> String {
    let mut p = pieces(source);
    for _ in 0..1 + rng.below(3) {
        if p.is_empty() {
            break;
        }
        let i = rng.below(p.len());
        match rng.below(5) {
            0 => {
                p.remove(i);
            }
            1 => {
                let t = p[i].clone();
                p.insert(i, t);
            }
            2 => {
                let j = rng.below(p.len());
                p.swap(i, j);
            }
            3 => p[i] = TOKENS[rng.below(TOKENS.len())].to_string(),
            _ => {
                let end = (i + 1 + rng.below(20)).min(p.len());
                p.drain(i..end);
            }
        }
    }
    p.concat()
}

fn programs() -> Vec<(String, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs");
    let mut out = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "cs-lite") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    out.push((path.display().to_string(), text));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn mutated_programs_never_panic() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (name, source) in programs() {
        for k in 0..MUTATIONS_PER_PROGRAM {
            let mutated = mutate(&source, &mut rng);
            run(&format!("{name}#{k}"), &mutated);
        }
    }
}

#[test]
fn token_soup_never_panics() {
    let mut rng = Rng(42);
    for i in 0..300 {
        let n = 1 + rng.below(60);
        let soup: Vec<&str> = (0..n).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
        run(&format!("soup#{i}"), &soup.join(" "));
        let wrapped = format!("class P {{ static void Main() {{ {} }} }}", soup.join(" "));
        run(&format!("soup-in-main#{i}"), &wrapped);
    }
}
