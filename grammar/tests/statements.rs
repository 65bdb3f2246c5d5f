//! Statements: every statement form and its AST.

mod common;
use common::*;
use grammar::ast::*;

fn local(src: &str) -> LocalVarDecl {
    match stmt(src).kind {
        StmtKind::LocalVar(d) => d,
        other => panic!("{src}: {other:?}"),
    }
}

#[test]
fn local_declarations() {
    let d = local("int a = 1, b;");
    assert_eq!(d.declarators.len(), 2);
    assert!(d.declarators[1].init.is_none());
    let d = local("const int K = 1;");
    assert!(d.is_const);
    let d = local("using var r = Open();");
    assert!(d.is_using);
    let d = local("await using var r = Open();");
    assert!(d.is_using);
    let d = local("ref int r = ref x;");
    assert!(d.is_ref);
    assert_eq!(sexp(d.declarators[0].init.as_ref().unwrap()), "x");
    let d = local("int[] xs = { 1, 2 };");
    assert_eq!(sexp(d.declarators[0].init.as_ref().unwrap()), "{1 2}");
    let d = local("var x = 1;");
    assert_eq!(ty(&d.ty), "var");
    let d = local("A.B<C>.D x;");
    assert_eq!(ty(&d.ty), "A.B<C>.D");
}

#[test]
fn invalid_local_modifier_is_reported() {
    assert_eq!(codes("void F() { static int x = 1; }"), ["CS0106"]);
}

#[test]
fn local_functions() {
    let src = "static int Twice(int x) => x * 2;\nasync Task<int> A() { return await B(); }\nT Id<T>(T t) where T : class => t;\n[Obsolete] void Old() { }";
    let s = stmts(src);
    let funcs: Vec<&MethodDecl> = s
        .iter()
        .map(|s| match &s.kind {
            StmtKind::LocalFunction(f) => f.as_ref(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert!(funcs[0].modifiers.has(Modifiers::STATIC));
    assert!(funcs[1].modifiers.has(Modifiers::ASYNC));
    assert_eq!(funcs[2].type_params.len(), 1);
    assert_eq!(funcs[2].constraints.len(), 1);
    assert_eq!(funcs[3].attributes.len(), 1);
}

#[test]
fn if_else_and_dangling_else() {
    let StmtKind::If { otherwise, then, .. } = stmt("if (a) if (b) x(); else y();").kind else { panic!() };
    assert!(otherwise.is_none(), "the else belongs to the inner if");
    let StmtKind::If { otherwise: inner, .. } = then.kind else { panic!() };
    assert!(inner.is_some());
    let StmtKind::If { otherwise, .. } = stmt("if (a) { } else if (b) { } else { }").kind else { panic!() };
    assert!(matches!(otherwise.unwrap().kind, StmtKind::If { otherwise: Some(_), .. }));
}

#[test]
fn loops() {
    let StmtKind::For { init, cond, update, .. } = stmt("for (int i = 0, j = 1; i < j; i++, j--) { }").kind else { panic!() };
    assert!(matches!(init, ForInit::Decl(d) if d.declarators.len() == 2));
    assert!(cond.is_some());
    assert_eq!(update.len(), 2);
    let StmtKind::For { init, cond, update, .. } = stmt("for (;;) break;").kind else { panic!() };
    assert!(matches!(init, ForInit::None) && cond.is_none() && update.is_empty());
    let StmtKind::For { init, .. } = stmt("for (i = 0, j = 0; ; ) { }").kind else { panic!() };
    assert!(matches!(init, ForInit::Exprs(e) if e.len() == 2));
    assert!(matches!(stmt("while (x) x--;").kind, StmtKind::While { .. }));
    assert!(matches!(stmt("do { } while (x);").kind, StmtKind::DoWhile { .. }));
}

#[test]
fn foreach_forms() {
    let StmtKind::Foreach { target, is_await, .. } = stmt("foreach (var x in xs) { }").kind else { panic!() };
    assert!(!is_await);
    assert!(matches!(target, ForeachTarget::Single { ty: t, name } if ty(&t) == "var" && name.name == "x"));
    let StmtKind::Foreach { target, .. } = stmt("foreach (int x in xs) { }").kind else { panic!() };
    assert!(matches!(target, ForeachTarget::Single { ty: t, .. } if ty(&t) == "int"));
    let StmtKind::Foreach { target, .. } = stmt("foreach (var (a, b) in pairs) { }").kind else { panic!() };
    assert!(matches!(target, ForeachTarget::Deconstruction(e) if sexp(&e) == "(decl var (a, b))"));
    let StmtKind::Foreach { target, .. } = stmt("foreach ((int a, string b) in pairs) { }").kind else { panic!() };
    assert!(matches!(target, ForeachTarget::Deconstruction(e) if sexp(&e) == "(tuple (decl int a) (decl string b))"));
    let StmtKind::Foreach { is_await, .. } = stmt("await foreach (var x in xs) { }").kind else { panic!() };
    assert!(is_await);
    let StmtKind::Foreach { target, .. } = stmt("foreach (KeyValuePair<string, int> kv in d) { }").kind else { panic!() };
    assert!(matches!(target, ForeachTarget::Single { ty: t, .. } if ty(&t) == "KeyValuePair<string, int>"));
}

#[test]
fn switch_statements() {
    let src = "switch (x) { case 1: case 2: a(); break; case int n when n > 5: case string { Length: 0 }: return; \
               case > 10 and < 20: break; default: break; case null: goto default; }";
    let StmtKind::Switch { sections, .. } = stmt(src).kind else { panic!() };
    assert_eq!(sections.len(), 5);
    assert_eq!(sections[0].labels.len(), 2);
    assert_eq!(sections[0].stmts.len(), 2);
    let SwitchLabel::Case { pattern, guard, .. } = &sections[1].labels[0] else { panic!() };
    assert_eq!(pat(pattern), "(decl int n)");
    assert!(guard.is_some());
    assert!(matches!(sections[3].labels[0], SwitchLabel::Default(_)));
    let StmtKind::Switch { sections, .. } = stmt("switch (a, b) { case (1, 2): break; }").kind else { panic!() };
    let SwitchLabel::Case { pattern, .. } = &sections[0].labels[0] else { panic!() };
    assert_eq!(pat(pattern), "(rec (1 2))");
    let StmtKind::Switch { sections, .. } = stmt("switch (x) { case 1: default: break; }").kind else { panic!() };
    assert_eq!(sections.len(), 1);
    assert_eq!(sections[0].labels.len(), 2);
    let StmtKind::Switch { sections, .. } = stmt("switch (x) { }").kind else { panic!() };
    assert!(sections.is_empty());
}

#[test]
fn jumps() {
    assert!(matches!(stmt("return;").kind, StmtKind::Return(None)));
    assert!(matches!(stmt("return 1;").kind, StmtKind::Return(Some(_))));
    assert!(matches!(stmt("throw;").kind, StmtKind::Throw(None)));
    assert!(matches!(stmt("throw new E();").kind, StmtKind::Throw(Some(_))));
    assert!(matches!(stmt("goto done;").kind, StmtKind::Goto(GotoTarget::Label(l)) if l.name == "done"));
    assert!(matches!(stmt("goto case 3;").kind, StmtKind::Goto(GotoTarget::Case(_))));
    assert!(matches!(stmt("goto default;").kind, StmtKind::Goto(GotoTarget::Default)));
    assert!(matches!(stmt("done: x++;").kind, StmtKind::Labeled { .. }));
    let s = stmts("while (true) { break; continue; }");
    let StmtKind::While { body, .. } = &s[0].kind else { panic!() };
    let StmtKind::Block(b) = &body.kind else { panic!() };
    assert!(matches!(b.stmts[0].kind, StmtKind::Break) && matches!(b.stmts[1].kind, StmtKind::Continue));
}

#[test]
fn try_catch_finally() {
    let src = "try { } catch { } ";
    let StmtKind::Try { catches, finally, .. } = stmt(src).kind else { panic!() };
    assert!(catches[0].ty.is_none() && finally.is_none());
    let src = "try { } catch (IOException) { } catch (Exception e) when (e.HResult > 0) { } finally { }";
    let StmtKind::Try { catches, finally, .. } = stmt(src).kind else { panic!() };
    assert!(catches[0].ty.is_some() && catches[0].name.is_none());
    assert_eq!(catches[1].name.as_ref().unwrap().name, "e");
    assert!(catches[1].filter.is_some());
    assert!(finally.is_some());
    let StmtKind::Try { catches, finally, .. } = stmt("try { } finally { }").kind else { panic!() };
    assert!(catches.is_empty() && finally.is_some());
}

#[test]
fn using_lock_checked_yield() {
    let StmtKind::Using { resource, .. } = stmt("using (var x = Open()) { }").kind else { panic!() };
    assert!(matches!(resource, UsingResource::Decl(d) if d.declarators[0].name.name == "x"));
    let StmtKind::Using { resource, .. } = stmt("using (Open()) ;").kind else { panic!() };
    assert!(matches!(resource, UsingResource::Expr(_)));
    assert!(matches!(stmt("lock (gate) { }").kind, StmtKind::Lock { .. }));
    assert!(matches!(stmt("checked { }").kind, StmtKind::Checked(true, _)));
    assert!(matches!(stmt("unchecked { }").kind, StmtKind::Checked(false, _)));
    assert!(matches!(stmt("checked(x);").kind, StmtKind::Expr(_)));
    assert!(matches!(stmt("yield return x;").kind, StmtKind::YieldReturn(_)));
    assert!(matches!(stmt("{ }").kind, StmtKind::Block(_)));
    assert!(matches!(stmt(";").kind, StmtKind::Empty));
}

#[test]
fn deconstruction_statements() {
    assert_eq!(stmt_expr("var (a, b) = t;"), "(= (decl var (a, b)) t)");
    assert_eq!(stmt_expr("var (a, (b, _)) = t;"), "(= (decl var (a, (b, _))) t)");
    assert_eq!(stmt_expr("(x, y) = (y, x);"), "(= (tuple x y) (tuple y x))");
    assert_eq!(stmt_expr("(int a, var b) = t;"), "(= (tuple (decl int a) (decl var b)) t)");
}

#[test]
fn expression_statements() {
    assert_eq!(stmt_expr("f();"), "(call f)");
    assert_eq!(stmt_expr("x = 1;"), "(= x 1)");
    assert_eq!(stmt_expr("i++;"), "(post++ i)");
    assert_eq!(stmt_expr("await t;"), "(await t)");
    assert_eq!(stmt_expr("a.b<int>(c);"), "(call (. a b<int>) c)");
    assert_eq!(stmt_expr("a < b;"), "(< a b)");
    assert_eq!(stmt_expr("_ = x;"), "(= _ x)");
    assert_eq!(stmt_expr("new C().M();"), "(call (. (new C) M))");
}

#[test]
fn statement_spans() {
    let src = "  int x = 1;  ";
    let s = stmt(src);
    assert_eq!((s.span.start, s.span.end), (2, 12));
}
