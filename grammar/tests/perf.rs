//! Parsing speed: a 5,000-line file built from the corpus. Run in release:
//! `cargo test -p grammar --release --test perf -- --ignored --nocapture`.

#[test]
#[ignore]
fn five_thousand_lines() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut sources: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.ok()?.path()).ok())
        .map(|s| s.lines().filter(|l| !l.starts_with("#!")).collect::<Vec<_>>().join("\n"))
        .collect();
    sources.sort();
    let mut text = String::new();
    while text.lines().count() < 5000 {
        for s in &sources {
            text.push_str(s);
            text.push('\n');
        }
    }
    let lines = text.lines().count();
    let _ = grammar::parse(&text);
    let runs = 10;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        let out = grammar::parse(&text);
        assert!(out.diagnostics.iter().all(|d| d.code == "CS8954" || d.code == "CS1529"), "{:?}", out.diagnostics.first());
    }
    let per = start.elapsed() / runs;
    println!("parsed {lines} lines ({} bytes) in {per:?}", text.len());
}
