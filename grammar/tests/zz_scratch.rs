#[test]
fn scratch() {
    let path = std::env::var("F").unwrap_or("/tmp/scratch.cs".into());
    let mut files: Vec<_> = if path.ends_with(".cs") { vec![std::path::PathBuf::from(path)] } else {
        std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()).collect() };
    files.sort();
    for p in files {
        let src = std::fs::read_to_string(&p).unwrap();
        let out = grammar::parse(&src);
        let f = grammar::span::SourceFile::new("x", src.clone());
        for d in &out.diagnostics {
            let lc = f.line_col(d.span.start);
            println!("{}({},{}): {} {} [{:?}] | {}", p.file_name().unwrap().to_str().unwrap(), lc.line, lc.col, d.code, d.message, &src[d.span.start as usize..d.span.end as usize], f.line_text(lc.line).trim());
        }
        if std::env::var("AST").is_ok() { println!("{:#?}", out.unit); }
    }
}
