//! LINQ query expressions, translated into method calls the way C# specifies (§12.20.3):
//! `from x in xs where p select f` becomes `xs.Where(x => p).Select(x => f)`.
//!
//! When more than one range variable is in scope (after a second `from`, a `let` or a
//! `join`), the element becomes an anonymous object `new { x, y }` and later clauses take a
//! fresh parameter `__qN`, with every free use of a range variable rewritten to `__qN.x`
//! (C#'s "transparent identifiers"). The AST has no query node: the compiler only ever
//! sees calls, lambdas and anonymous objects.

use crate::actions::{self as a, Ctx};
use crate::ast::*;
use crate::span::Span;

/// `from T x in source` (also the first part of a `join`).
pub struct QueryFrom {
    pub ty: Option<TypeSyntax>,
    pub name: Ident,
    pub source: Expr,
    pub span: Span,
}

/// One clause between the first `from` and the final `select`/`group`.
#[allow(clippy::large_enum_variant)]
pub enum QueryClause {
    From(QueryFrom),
    Let(Ident, Expr, Span),
    Where(Expr, Span),
    Join { join: QueryFrom, outer_key: Expr, inner_key: Expr, into: Option<Ident> },
    OrderBy(Vec<(Expr, bool)>, Span),
}

pub enum QueryEnd {
    Select(Expr, Span),
    /// `group value by key`.
    Group(Expr, Expr, Span),
}

pub struct QueryBody {
    pub clauses: Vec<QueryClause>,
    pub end: QueryEnd,
    /// `into g <body>`.
    pub continuation: Option<(Ident, Box<QueryBody>)>,
}

/// Translates a whole query expression.
pub fn translate(ctx: &mut Ctx, from: QueryFrom, body: QueryBody, l: usize, r: usize) -> Expr {
    let span = Span::new(l, r);
    let source = typed_source(from.ty, from.source);
    let mut q = Query { ctx, source, vars: vec![from.name], span };
    q.body(body);
    let mut e = q.source;
    e.span = span;
    e
}

/// `from T x in e` ranges over `e.Cast<T>()`.
fn typed_source(ty: Option<TypeSyntax>, source: Expr) -> Expr {
    match ty {
        None => source,
        Some(t) => {
            let span = source.span;
            let name = NameSegment { name: Ident { name: "Cast".into(), span: t.span }, type_args: vec![t] };
            let target = Expr { kind: ExprKind::Member { target: Box::new(source), name, conditional: false }, span };
            Expr { kind: ExprKind::Call { target: Box::new(target), args: Vec::new() }, span }
        }
    }
}

/// The translation state: the query so far and the range variables of its elements.
struct Query<'c> {
    ctx: &'c mut Ctx,
    source: Expr,
    vars: Vec<Ident>,
    span: Span,
}

impl Query<'_> {
    fn body(&mut self, body: QueryBody) {
        for clause in body.clauses {
            self.clause(clause);
        }
        match body.end {
            QueryEnd::Select(e, span) => {
                let f = self.lambda(e);
                self.call("Select", vec![f], span);
            }
            QueryEnd::Group(value, key, span) => {
                let plain = self.vars.len() == 1 && is_name(&value, &self.vars[0].name);
                let k = self.lambda(key);
                let args = if plain { vec![k] } else { vec![k, self.lambda(value)] };
                self.call("GroupBy", args, span);
            }
        }
        if let Some((name, rest)) = body.continuation {
            self.vars = vec![name];
            self.body(*rest);
        }
    }

    fn clause(&mut self, clause: QueryClause) {
        match clause {
            QueryClause::From(f) => {
                let inner = self.lambda(typed_source(f.ty, f.source));
                let pair = self.pair_selector(f.name.clone(), f.span);
                self.call("SelectMany", vec![inner, pair], f.span);
                self.vars.push(f.name);
            }
            QueryClause::Let(name, e, span) => {
                let p = self.param();
                let mut members = self.carried(&p);
                let mut value = e;
                self.rewrite(&mut value, &p);
                members.push(AnonymousMember { name: Some(name.clone()), value });
                let obj = expr(ExprKind::NewAnonymous(members), span);
                let f = lambda(vec![p], obj, span);
                self.call("Select", vec![f], span);
                self.vars.push(name);
            }
            QueryClause::Where(e, span) => {
                let f = self.lambda(e);
                self.call("Where", vec![f], span);
            }
            QueryClause::Join { join, outer_key, inner_key, into } => {
                let span = join.span;
                let inner = typed_source(join.ty, join.source);
                let outer_key = self.lambda(outer_key);
                let inner_key = lambda(vec![join.name.clone()], inner_key, span);
                let (method, added) = match into {
                    Some(g) => ("GroupJoin", g),
                    None => ("Join", join.name),
                };
                let result = self.pair_selector(added.clone(), span);
                self.call(method, vec![inner, outer_key, inner_key, result], span);
                self.vars.push(added);
            }
            QueryClause::OrderBy(keys, span) => {
                for (n, (key, descending)) in keys.into_iter().enumerate() {
                    let method = match (n == 0, descending) {
                        (true, false) => "OrderBy",
                        (true, true) => "OrderByDescending",
                        (false, false) => "ThenBy",
                        (false, true) => "ThenByDescending",
                    };
                    let f = self.lambda(key);
                    self.call(method, vec![f], span);
                }
            }
        }
    }

    /// `(P, y) => new { x = P.x, ..., y }`: the element after adding range variable `y`.
    fn pair_selector(&mut self, added: Ident, span: Span) -> Expr {
        let p = self.param();
        let mut members = self.carried(&p);
        let value = name_expr(&added);
        members.push(AnonymousMember { name: Some(added.clone()), value });
        let obj = expr(ExprKind::NewAnonymous(members), span);
        lambda(vec![p, added], obj, span)
    }

    /// The current range variables, read through parameter `p`, as anonymous members.
    fn carried(&self, p: &Ident) -> Vec<AnonymousMember> {
        self.vars.iter().map(|v| AnonymousMember { name: Some(v.clone()), value: self.access(p, v) }).collect()
    }

    fn access(&self, p: &Ident, v: &Ident) -> Expr {
        if self.vars.len() == 1 {
            name_expr(v)
        } else {
            let seg = NameSegment { name: v.clone(), type_args: Vec::new() };
            expr(ExprKind::Member { target: Box::new(name_expr(p)), name: seg, conditional: false }, v.span)
        }
    }

    /// The lambda parameter for the current element: the range variable itself, or a
    /// fresh transparent identifier when there are several.
    fn param(&mut self) -> Ident {
        match self.vars.as_slice() {
            [only] => only.clone(),
            _ => {
                self.ctx.query_params += 1;
                Ident { name: format!("__q{}", self.ctx.query_params), span: self.span }
            }
        }
    }

    /// `P => body` over the current element.
    fn lambda(&mut self, mut body: Expr) -> Expr {
        let p = self.param();
        self.rewrite(&mut body, &p);
        let span = body.span;
        lambda(vec![p], body, span)
    }

    fn rewrite(&self, e: &mut Expr, p: &Ident) {
        if self.vars.len() > 1 {
            let names: Vec<&str> = self.vars.iter().map(|v| v.name.as_str()).collect();
            Rewriter { vars: names, param: p }.expr(e);
        }
    }

    /// `source.Method(args)`.
    fn call(&mut self, method: &str, args: Vec<Expr>, span: Span) {
        let source = std::mem::replace(&mut self.source, expr(ExprKind::Error, span));
        self.source = method_call(source, method, args, span);
    }
}

fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

fn name_expr(n: &Ident) -> Expr {
    expr(ExprKind::Name(NameSegment { name: n.clone(), type_args: Vec::new() }), n.span)
}

fn is_name(e: &Expr, name: &str) -> bool {
    matches!(&e.kind, ExprKind::Name(seg) if seg.type_args.is_empty() && seg.name.name == name)
}

fn lambda(params: Vec<Ident>, body: Expr, span: Span) -> Expr {
    let parenthesized = params.len() != 1;
    let params = params.into_iter().map(|n| a::implicit_param(n.clone(), n.span.start as usize, n.span.end as usize)).collect();
    let l = Lambda { is_async: false, is_static: false, params, parenthesized, body: Body::Expr(Box::new(body)), span };
    expr(ExprKind::Lambda(Box::new(l)), span)
}

fn method_call(target: Expr, method: &str, args: Vec<Expr>, span: Span) -> Expr {
    let name = NameSegment { name: Ident { name: method.into(), span }, type_args: Vec::new() };
    let full = target.span.to(span);
    let callee = expr(ExprKind::Member { target: Box::new(target), name, conditional: false }, full);
    let args = args.into_iter().map(|e| Arg { name: None, modifier: ArgModifier::None, span: e.span, expr: e }).collect();
    expr(ExprKind::Call { target: Box::new(callee), args }, full)
}

// ---------------------------------------------------------------------------------------
// Rewriting range variables to members of the transparent identifier
// ---------------------------------------------------------------------------------------

/// Replaces free uses of `vars` by `param.var`, respecting lambda parameters that shadow.
struct Rewriter<'a> {
    vars: Vec<&'a str>,
    param: &'a Ident,
}

impl Rewriter<'_> {
    fn expr(&self, e: &mut Expr) {
        use ExprKind::*;
        match &mut e.kind {
            Name(seg) if seg.type_args.is_empty() && self.vars.contains(&seg.name.name.as_str()) => {
                let seg = seg.clone();
                let target = Box::new(name_expr(self.param));
                e.kind = Member { target, name: seg, conditional: false };
            }
            Name(_) | Literal(_) | PredefinedType(_) | Typeof(_) | Sizeof(_) | Default(_) | This | Base | Error => {}
            Interpolated(parts) => {
                for p in parts {
                    if let InterpolationPart::Hole { expr, alignment, .. } = p {
                        self.expr(expr);
                        if let Some(a) = alignment {
                            self.expr(a);
                        }
                    }
                }
            }
            Member { target, .. } => self.expr(target),
            Index { target, args, .. } | Call { target, args } => {
                self.expr(target);
                self.args(args);
            }
            New { args, init, .. } => {
                self.args(args);
                if let Some(i) = init {
                    self.initializer(i);
                }
            }
            NewArray { sizes, init, .. } => {
                sizes.iter_mut().for_each(|x| self.expr(x));
                if let Some(i) = init {
                    i.iter_mut().for_each(|x| self.expr(x));
                }
            }
            NewAnonymous(members) => members.iter_mut().for_each(|m| self.expr(&mut m.value)),
            StackAlloc(array) => self.expr(array),
            Collection(elems) => {
                for el in elems {
                    match el {
                        CollectionElement::Expr(x) | CollectionElement::Spread(x) => self.expr(x),
                    }
                }
            }
            InitializerList(xs) => xs.iter_mut().for_each(|x| self.expr(x)),
            Unary { operand, .. } | Postfix { operand, .. } => self.expr(operand),
            Binary { left, right, .. } => {
                self.expr(left);
                self.expr(right);
            }
            Assign { target, value, .. } => {
                self.expr(target);
                self.expr(value);
            }
            Conditional { cond, then, otherwise } => {
                self.expr(cond);
                self.expr(then);
                self.expr(otherwise);
            }
            Cast { expr, .. } | As { expr, .. } => self.expr(expr),
            Is { expr, pattern } => {
                self.expr(expr);
                self.pattern(pattern);
            }
            Lambda(l) | AnonymousMethod(l) => self.lambda(l),
            Await(x) | Nameof(x) | Checked(_, x) | Throw(x) | IndexFromEnd(x) => self.expr(x),
            Switch { expr, arms } => {
                self.expr(expr);
                for arm in arms {
                    self.pattern(&mut arm.pattern);
                    if let Some(g) = &mut arm.guard {
                        self.expr(g);
                    }
                    self.expr(&mut arm.value);
                }
            }
            Tuple(args) => self.args(args),
            Declaration { .. } => {}
            With { expr, init } => {
                self.expr(expr);
                init.iter_mut().for_each(|m| self.member_init(m));
            }
            Range(x, y) => {
                if let Some(x) = x {
                    self.expr(x);
                }
                if let Some(y) = y {
                    self.expr(y);
                }
            }
        }
    }

    fn args(&self, args: &mut [Arg]) {
        args.iter_mut().for_each(|a| self.expr(&mut a.expr));
    }

    fn initializer(&self, i: &mut Initializer) {
        match i {
            Initializer::Object(ms) => ms.iter_mut().for_each(|m| self.member_init(m)),
            Initializer::Collection(xs) => xs.iter_mut().for_each(|x| self.expr(x)),
        }
    }

    fn member_init(&self, m: &mut MemberInit) {
        if let InitTarget::Index(args) = &mut m.target {
            self.args(args);
        }
        match &mut m.value {
            InitValue::Expr(x) => self.expr(x),
            InitValue::Nested(i) => self.initializer(i),
        }
    }

    fn lambda(&self, l: &mut Lambda) {
        let shadowed: Vec<&str> = l.params.iter().map(|p| p.name.name.as_str()).collect();
        let vars = self.vars.iter().copied().filter(|v| !shadowed.contains(v)).collect();
        let inner = Rewriter { vars, param: self.param };
        match &mut l.body {
            Body::Expr(x) => inner.expr(x),
            Body::Block(b) => inner.block(b),
        }
    }

    fn block(&self, b: &mut Block) {
        b.stmts.iter_mut().for_each(|s| self.stmt(s));
    }

    fn stmt(&self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Block(b) | StmtKind::Checked(_, b) => self.block(b),
            StmtKind::Expr(x) | StmtKind::YieldReturn(x) | StmtKind::Lock { expr: x, .. } => self.expr(x),
            StmtKind::LocalVar(d) => self.local(d),
            StmtKind::If { cond, then, otherwise } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(o) = otherwise {
                    self.stmt(o);
                }
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::For { init, cond, update, body } => {
                match init {
                    ForInit::Decl(d) => self.local(d),
                    ForInit::Exprs(xs) => xs.iter_mut().for_each(|x| self.expr(x)),
                    ForInit::None => {}
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                update.iter_mut().for_each(|x| self.expr(x));
                self.stmt(body);
            }
            StmtKind::Foreach { collection, body, .. } => {
                self.expr(collection);
                self.stmt(body);
            }
            StmtKind::Switch { expr, sections } => {
                self.expr(expr);
                for section in sections {
                    section.stmts.iter_mut().for_each(|s| self.stmt(s));
                }
            }
            StmtKind::Return(x) | StmtKind::Throw(x) => {
                if let Some(x) = x {
                    self.expr(x);
                }
            }
            StmtKind::Labeled { stmt, .. } => self.stmt(stmt),
            StmtKind::Try { block, catches, finally } => {
                self.block(block);
                catches.iter_mut().for_each(|c| self.block(&mut c.block));
                if let Some(f) = finally {
                    self.block(f);
                }
            }
            StmtKind::Using { resource, body, .. } => {
                match resource {
                    UsingResource::Decl(d) => self.local(d),
                    UsingResource::Expr(x) => self.expr(x),
                }
                self.stmt(body);
            }
            StmtKind::Empty
            | StmtKind::LocalFunction(_)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Goto(_)
            | StmtKind::YieldBreak
            | StmtKind::Error => {}
        }
    }

    fn local(&self, d: &mut LocalVarDecl) {
        for decl in &mut d.declarators {
            if let Some(init) = &mut decl.init {
                self.expr(init);
            }
        }
    }

    fn pattern(&self, p: &mut Pattern) {
        match &mut p.kind {
            PatternKind::Constant(x) | PatternKind::Relational { value: x, .. } => self.expr(x),
            PatternKind::Not(x) => self.pattern(x),
            PatternKind::And(x, y) | PatternKind::Or(x, y) => {
                self.pattern(x);
                self.pattern(y);
            }
            PatternKind::Recursive { positional, properties, .. } => {
                for sub in positional.iter_mut().chain(properties.iter_mut()).flatten() {
                    self.pattern(&mut sub.pattern);
                }
            }
            PatternKind::List(ps) => ps.iter_mut().for_each(|p| self.pattern(p)),
            PatternKind::Slice(Some(x)) => self.pattern(x),
            PatternKind::Slice(None) | PatternKind::Discard | PatternKind::Var(_) | PatternKind::Declaration { .. } | PatternKind::Type(_) => {}
        }
    }
}
