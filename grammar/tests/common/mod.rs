//! Test helpers: parse shortcuts and a compact S-expression rendering of the AST, so that
//! tests can state the expected tree shape in one line.
#![allow(dead_code)]

use grammar::ast::*;
use grammar::diagnostic::Diagnostic;

/// Parses an expression that must have no diagnostics and renders it.
pub fn expr(src: &str) -> String {
    let (e, diags) = grammar::parse_expression(src);
    assert!(diags.is_empty(), "{src}: unexpected diagnostics {diags:?}");
    sexp(&e.unwrap_or_else(|| panic!("{src}: no expression")))
}

/// Parses a file that must have no diagnostics.
pub fn unit(src: &str) -> CompilationUnit {
    let out = grammar::parse(src);
    assert!(out.diagnostics.is_empty(), "{src}: unexpected diagnostics {:?}", out.diagnostics);
    out.unit
}

/// The top-level statements of a file that must parse cleanly.
pub fn stmts(src: &str) -> Vec<Stmt> {
    unit(src)
        .members
        .into_iter()
        .filter_map(|m| match m {
            NamespaceMember::Statement(s) => Some(s),
            _ => None,
        })
        .collect()
}

/// The single top-level statement of `src`.
pub fn stmt(src: &str) -> Stmt {
    let mut v = stmts(src);
    assert_eq!(v.len(), 1, "{src}: expected one statement");
    v.remove(0)
}

/// The expression of a single expression statement `src;`.
pub fn stmt_expr(src: &str) -> String {
    match stmt(src).kind {
        StmtKind::Expr(e) => sexp(&e),
        other => panic!("{src}: not an expression statement: {other:?}"),
    }
}

/// The first type declaration of a file.
pub fn type_decl(src: &str) -> TypeDecl {
    for m in unit(src).members {
        match m {
            NamespaceMember::Type(t) => return t,
            NamespaceMember::Namespace(n) => {
                for m in n.members {
                    if let NamespaceMember::Type(t) = m {
                        return t;
                    }
                }
            }
            _ => {}
        }
    }
    panic!("{src}: no type declaration")
}

/// The members of the first class in `class C { <members> }`.
pub fn members(body: &str) -> Vec<MemberDecl> {
    type_decl(&format!("class C {{ {body} }}")).members
}

/// Diagnostics as `(code, message, start, end)`.
pub fn diags(src: &str) -> Vec<(&'static str, String, u32, u32)> {
    grammar::parse(src).diagnostics.into_iter().map(|d: Diagnostic| (d.code, d.message, d.span.start, d.span.end)).collect()
}

/// Just the codes of the diagnostics.
pub fn codes(src: &str) -> Vec<&'static str> {
    grammar::parse(src).diagnostics.into_iter().map(|d| d.code).collect()
}

// ---------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------

pub fn ty(t: &TypeSyntax) -> String {
    match &t.kind {
        TypeSyntaxKind::Predefined(p) => format!("{p:?}").to_lowercase(),
        TypeSyntaxKind::Named(segs) if segs.is_empty() => String::new(),
        TypeSyntaxKind::Named(segs) => segs.iter().map(segment).collect::<Vec<_>>().join("."),
        TypeSyntaxKind::Array(e, rank) => format!("{}[{}]", ty(e), ",".repeat(*rank as usize - 1)),
        TypeSyntaxKind::Nullable(e) => format!("{}?", ty(e)),
        TypeSyntaxKind::Tuple(elems) => format!(
            "({})",
            elems
                .iter()
                .map(|e| match &e.name {
                    Some(n) => format!("{} {}", ty(&e.ty), n.name),
                    None => ty(&e.ty),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

pub fn segment(s: &NameSegment) -> String {
    if s.type_args.is_empty() {
        s.name.name.clone()
    } else {
        format!("{}<{}>", s.name.name, s.type_args.iter().map(ty).collect::<Vec<_>>().join(", "))
    }
}

fn bin(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Rem => "%",
        Shl => "<<",
        Shr => ">>",
        UShr => ">>>",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        And => "&&",
        Or => "||",
        Eq => "==",
        Ne => "!=",
        Lt => "<",
        Gt => ">",
        Le => "<=",
        Ge => ">=",
        Coalesce => "??",
    }
}

fn args(a: &[Arg]) -> String {
    a.iter()
        .map(|a| {
            let m = match a.modifier {
                ArgModifier::None => "",
                ArgModifier::Ref => "ref ",
                ArgModifier::Out => "out ",
                ArgModifier::In => "in ",
            };
            match &a.name {
                Some(n) => format!(" {}:{m}{}", n.name, sexp(&a.expr)),
                None => format!(" {m}{}", sexp(&a.expr)),
            }
        })
        .collect()
}

fn list(items: &[Expr]) -> String {
    items.iter().map(|e| format!(" {}", sexp(e))).collect()
}

fn designation(d: &Designation) -> String {
    match d {
        Designation::Single(i) => i.name.clone(),
        Designation::Discard(_) => "_".into(),
        Designation::Parenthesized(ds, _) => format!("({})", ds.iter().map(designation).collect::<Vec<_>>().join(", ")),
    }
}

fn literal(l: &Literal) -> String {
    match l {
        Literal::Int { value, suffix } => match suffix {
            IntSuffix::None => value.to_string(),
            s => format!("{value}{s:?}"),
        },
        Literal::Real { value, suffix } => match suffix {
            RealSuffix::None => format!("{value:?}"),
            s => format!("{value:?}{s:?}"),
        },
        Literal::Decimal(d) => format!("{d}m"),
        Literal::Char(c) => format!("'{}'", char::from_u32(u32::from(*c)).unwrap_or('?').escape_default()),
        Literal::String(s) => format!("{s:?}"),
        Literal::Bool(b) => b.to_string(),
        Literal::Null => "null".into(),
    }
}

fn body(b: &Body) -> String {
    match b {
        Body::Expr(e) => sexp(e),
        Body::Block(b) => format!("{{{} stmts}}", b.stmts.len()),
    }
}

fn init(i: &Initializer) -> String {
    match i {
        Initializer::Object(ms) => format!("{{{}}}", ms.iter().map(member_init).collect::<Vec<_>>().join(", ")),
        Initializer::Collection(es) => format!("[{}]", es.iter().map(sexp).collect::<Vec<_>>().join(", ")),
    }
}

fn member_init(m: &MemberInit) -> String {
    let target = match &m.target {
        InitTarget::Member(n) => n.name.clone(),
        InitTarget::Index(a) => format!("[{}]", args(a).trim()),
    };
    let value = match &m.value {
        InitValue::Expr(e) => sexp(e),
        InitValue::Nested(i) => init(i),
    };
    format!("{target}={value}")
}

/// Renders an expression as an S-expression.
pub fn sexp(e: &Expr) -> String {
    use ExprKind::*;
    match &e.kind {
        Literal(l) => literal(l),
        Interpolated(parts) => format!(
            "(interp{})",
            parts
                .iter()
                .map(|p| match p {
                    InterpolationPart::Text(t) => format!(" {t:?}"),
                    InterpolationPart::Hole { expr, alignment, format, .. } => format!(
                        " {{{}{}{}}}",
                        sexp(expr),
                        alignment.as_ref().map(|a| format!(",{}", sexp(a))).unwrap_or_default(),
                        format.as_ref().map(|f| format!(":{f}")).unwrap_or_default()
                    ),
                })
                .collect::<String>()
        ),
        Name(s) => segment(s),
        PredefinedType(p) => format!("{p:?}").to_lowercase(),
        Member { target, name, conditional } => {
            format!("({} {} {})", if *conditional { "?." } else { "." }, sexp(target), segment(name))
        }
        Index { target, args: a, conditional } => {
            format!("({} {}{})", if *conditional { "?idx" } else { "idx" }, sexp(target), args(a))
        }
        Call { target, args: a } => format!("(call {}{})", sexp(target), args(a)),
        New { ty: t, args: a, init: i } => {
            format!("(new {}{}{})", t.as_ref().map(ty).unwrap_or_else(|| "_".into()), args(a), i.as_ref().map(|i| format!(" {}", init(i))).unwrap_or_default())
        }
        NewArray { elem, sizes, rank, init: i } => format!(
            "(newarr {} {rank}{}{})",
            elem.as_ref().map(ty).unwrap_or_else(|| "_".into()),
            list(sizes),
            i.as_ref().map(|i| format!(" [{}]", i.iter().map(sexp).collect::<Vec<_>>().join(", "))).unwrap_or_default()
        ),
        StackAlloc(array) => format!("(stackalloc {})", sexp(array)),
        NewAnonymous(ms) => format!(
            "(anon {})",
            ms.iter()
                .map(|m| match &m.name {
                    Some(n) => format!("{}={}", n.name, sexp(&m.value)),
                    None => sexp(&m.value),
                })
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Collection(es) => format!(
            "[{}]",
            es.iter()
                .map(|c| match c {
                    CollectionElement::Expr(e) => sexp(e),
                    CollectionElement::Spread(e) => format!("..{}", sexp(e)),
                })
                .collect::<Vec<_>>()
                .join(" ")
        ),
        InitializerList(es) => format!("{{{}}}", es.iter().map(sexp).collect::<Vec<_>>().join(" ")),
        Unary { op, operand } => {
            let o = match op {
                UnaryOp::Plus => "u+",
                UnaryOp::Minus => "u-",
                UnaryOp::Not => "!",
                UnaryOp::BitNot => "~",
                UnaryOp::PreIncrement => "pre++",
                UnaryOp::PreDecrement => "pre--",
            };
            format!("({o} {})", sexp(operand))
        }
        Postfix { op, operand } => {
            let o = match op {
                PostfixOp::Increment => "post++",
                PostfixOp::Decrement => "post--",
                PostfixOp::NullForgiving => "nf",
            };
            format!("({o} {})", sexp(operand))
        }
        Binary { op, left, right } => format!("({} {} {})", bin(*op), sexp(left), sexp(right)),
        Assign { op, target, value } => {
            format!("({}= {} {})", op.map(bin).unwrap_or(""), sexp(target), sexp(value))
        }
        Conditional { cond, then, otherwise } => format!("(? {} {} {})", sexp(cond), sexp(then), sexp(otherwise)),
        Cast { ty: t, expr } => format!("(cast {} {})", ty(t), sexp(expr)),
        Is { expr, pattern } => format!("(is {} {})", sexp(expr), pat(pattern)),
        As { expr, ty: t } => format!("(as {} {})", sexp(expr), ty(t)),
        Lambda(l) | AnonymousMethod(l) => {
            let kw = if matches!(e.kind, Lambda(_)) { "lambda" } else { "delegate" };
            let mods = format!("{}{}", if l.is_async { "async " } else { "" }, if l.is_static { "static " } else { "" });
            let ps = l
                .params
                .iter()
                .map(|p| match &p.ty {
                    Some(t) => format!("{} {}", ty(t), p.name.name),
                    None => p.name.name.clone(),
                })
                .collect::<Vec<_>>()
                .join(" ");
            let ps = if l.parenthesized { format!("({ps})") } else { ps };
            format!("({kw} {mods}{ps} {})", body(&l.body))
        }
        Await(x) => format!("(await {})", sexp(x)),
        Typeof(t) => format!("(typeof {})", ty(t)),
        Nameof(x) => format!("(nameof {})", sexp(x)),
        Sizeof(t) => format!("(sizeof {})", ty(t)),
        Default(t) => match t {
            Some(t) => format!("(default {})", ty(t)),
            None => "default".into(),
        },
        Checked(c, x) => format!("({} {})", if *c { "checked" } else { "unchecked" }, sexp(x)),
        Throw(x) => format!("(throw {})", sexp(x)),
        Switch { expr, arms } => format!(
            "(switch {}{})",
            sexp(expr),
            arms.iter()
                .map(|a| format!(" [{}{} => {}]", pat(&a.pattern), a.guard.as_ref().map(|g| format!(" when {}", sexp(g))).unwrap_or_default(), sexp(&a.value)))
                .collect::<String>()
        ),
        Tuple(a) => format!("(tuple{})", args(a)),
        Declaration { ty: t, designation: d } => format!("(decl {} {})", ty(t), designation(d)),
        With { expr, init: i } => {
            format!("(with {} {{{}}})", sexp(expr), i.iter().map(member_init).collect::<Vec<_>>().join(", "))
        }
        This => "this".into(),
        Base => "base".into(),
        IndexFromEnd(x) => format!("(^ {})", sexp(x)),
        Range(a, b) => {
            format!("(.. {} {})", a.as_ref().map(|x| sexp(x)).unwrap_or_else(|| "_".into()), b.as_ref().map(|x| sexp(x)).unwrap_or_else(|| "_".into()))
        }
        Error => "<error>".into(),
    }
}

fn subpatterns(ps: &[SubPattern]) -> String {
    ps.iter()
        .map(|s| match &s.name {
            Some(n) => format!("{}:{}", n.iter().map(|i| i.name.clone()).collect::<Vec<_>>().join("."), pat(&s.pattern)),
            None => pat(&s.pattern),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Renders a pattern.
pub fn pat(p: &Pattern) -> String {
    use PatternKind::*;
    match &p.kind {
        Discard => "_".into(),
        Var(d) => format!("(var {})", designation(d)),
        Declaration { ty: t, name } => format!("(decl {} {})", ty(t), designation(name)),
        Type(t) => format!("(type {})", ty(t)),
        Constant(e) => sexp(e),
        Relational { op, value } => format!("({} {})", bin(*op), sexp(value)),
        Not(x) => format!("(not {})", pat(x)),
        And(a, b) => format!("(and {} {})", pat(a), pat(b)),
        Or(a, b) => format!("(or {} {})", pat(a), pat(b)),
        Recursive { ty: t, positional, properties, designation: d } => format!(
            "(rec{}{}{}{})",
            t.as_ref().map(|t| format!(" {}", ty(t))).unwrap_or_default(),
            positional.as_ref().map(|p| format!(" ({})", subpatterns(p))).unwrap_or_default(),
            properties.as_ref().map(|p| format!(" {{{}}}", subpatterns(p))).unwrap_or_default(),
            d.as_ref().map(|d| format!(" {}", designation(d))).unwrap_or_default()
        ),
        List(ps) => format!("[{}]", ps.iter().map(pat).collect::<Vec<_>>().join(" ")),
        Slice(x) => format!("(.. {})", x.as_ref().map(|x| pat(x)).unwrap_or_default()).replace(" )", ")"),
    }
}
