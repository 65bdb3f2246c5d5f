//! Constant evaluation over syntax, for places that need a value before method bodies are
//! bound: default parameter values, enum member values and attribute arguments.

use super::resolve::NameContext;
use super::Compiler;
use crate::metadata::{Constant, Flags, TypeDefId};
use grammar::ast::{self, BinaryOp, ExprKind, Literal, UnaryOp};

/// The constant value of `e`, or `None` if it is not a compile-time constant.
pub fn eval_syntax(c: &mut Compiler, ctx: &NameContext, e: &ast::Expr) -> Option<Constant> {
    eval(c, ctx, e, 0)
}

/// How deep one constant may reach through others (`const A = B; const B = C; ...`);
/// beyond it (or in a cycle) the value is not known here and the binder reports it.
const MAX_CONST_CHAIN: u32 = 64;

fn eval(c: &mut Compiler, ctx: &NameContext, e: &ast::Expr, depth: u32) -> Option<Constant> {
    match &e.kind {
        ExprKind::Literal(l) => Some(literal(l)),
        ExprKind::Default(_) => Some(Constant::Null),
        ExprKind::Unary { op, operand } => unary(*op, eval(c, ctx, operand, depth)?),
        ExprKind::Binary { op, left, right } => binary(*op, eval(c, ctx, left, depth)?, eval(c, ctx, right, depth)?),
        ExprKind::Cast { expr, .. } | ExprKind::Checked(_, expr) => eval(c, ctx, expr, depth),
        ExprKind::Name(seg) => {
            let def = ctx.type_def?;
            const_field(c, def, &seg.name.name, depth)
        }
        ExprKind::Member { target, name, .. } => {
            let syntax = type_syntax_of(target)?;
            let t = c.try_resolve_type(ctx, &syntax)?;
            let def = c.meta.types.def_of(t)?;
            const_field(c, def, &name.name.name, depth)
        }
        _ => None,
    }
}

/// A `const` field's value: known already, or evaluated from its initializer in the
/// field's own context (a library constant such as `long.MaxValue` is folded on first use).
fn const_field(c: &mut Compiler, def: TypeDefId, name: &str, depth: u32) -> Option<Constant> {
    let d = c.meta.type_def(def);
    let f = d.fields.iter().copied().find(|&f| c.meta.field(f).name == name)?;
    if let Some(k) = &c.meta.field(f).constant {
        return Some(k.clone());
    }
    if depth >= MAX_CONST_CHAIN || !c.meta.field(f).flags.has(Flags::CONST) {
        return None;
    }
    let src = c.field_src.get(&f)?.clone();
    let init = src.init?;
    let ctx = NameContext { scope: src.scope, file: src.file, type_def: Some(def), method: None, local_type_params: Vec::new() };
    eval(c, &ctx, &init, depth + 1)
}

/// An expression that names a type (`Color`, `System.Int32`, `int`) as type syntax.
pub fn type_syntax_of(e: &ast::Expr) -> Option<ast::TypeSyntax> {
    let kind = match &e.kind {
        ExprKind::PredefinedType(p) => ast::TypeSyntaxKind::Predefined(*p),
        ExprKind::Name(seg) => ast::TypeSyntaxKind::Named(vec![seg.clone()]),
        ExprKind::Member { target, name, conditional: false } => {
            let inner = type_syntax_of(target)?;
            match inner.kind {
                ast::TypeSyntaxKind::Named(mut segs) => {
                    segs.push(name.clone());
                    ast::TypeSyntaxKind::Named(segs)
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(ast::TypeSyntax { kind, span: e.span })
}

pub fn literal(l: &Literal) -> Constant {
    match l {
        Literal::Int { value, suffix } => match suffix {
            ast::IntSuffix::None | ast::IntSuffix::L if *value <= i64::MAX as u64 => Constant::Int(*value as i64),
            _ => Constant::UInt(*value),
        },
        Literal::Real { value, .. } => Constant::Float(*value),
        Literal::Decimal(s) => Constant::Decimal(s.clone()),
        Literal::Char(c) => Constant::Char(*c),
        Literal::String(s) => Constant::String(s.clone()),
        Literal::Bool(b) => Constant::Bool(*b),
        Literal::Null => Constant::Null,
    }
}

pub fn as_i64(c: &Constant) -> Option<i64> {
    match c {
        Constant::Int(i) => Some(*i),
        Constant::UInt(u) => Some(*u as i64),
        Constant::Char(c) => Some(*c as i64),
        _ => None,
    }
}

fn unary(op: UnaryOp, v: Constant) -> Option<Constant> {
    Some(match (op, v) {
        (UnaryOp::Plus, v) => v,
        (UnaryOp::Minus, Constant::Int(i)) => Constant::Int(i.wrapping_neg()),
        (UnaryOp::Minus, Constant::UInt(u)) => Constant::Int((u as i64).wrapping_neg()),
        (UnaryOp::Minus, Constant::Float(f)) => Constant::Float(-f),
        (UnaryOp::Not, Constant::Bool(b)) => Constant::Bool(!b),
        (UnaryOp::BitNot, Constant::Int(i)) => Constant::Int(!i),
        _ => return None,
    })
}

fn binary(op: BinaryOp, a: Constant, b: Constant) -> Option<Constant> {
    if let (Constant::String(x), Constant::String(y)) = (&a, &b) {
        return (op == BinaryOp::Add).then(|| Constant::String(format!("{x}{y}")));
    }
    if let (Some(x), Some(y)) = (as_i64(&a), as_i64(&b)) {
        return Some(Constant::Int(match op {
            BinaryOp::Add => x.wrapping_add(y),
            BinaryOp::Sub => x.wrapping_sub(y),
            BinaryOp::Mul => x.wrapping_mul(y),
            BinaryOp::Div => x.checked_div(y)?,
            BinaryOp::Rem => x.checked_rem(y)?,
            BinaryOp::Shl => x.wrapping_shl(y as u32),
            BinaryOp::Shr => x.wrapping_shr(y as u32),
            BinaryOp::BitAnd => x & y,
            BinaryOp::BitOr => x | y,
            BinaryOp::BitXor => x ^ y,
            _ => return None,
        }));
    }
    if let (Constant::Float(x), Constant::Float(y)) = (&a, &b) {
        return Some(Constant::Float(match op {
            BinaryOp::Add => x + y,
            BinaryOp::Sub => x - y,
            BinaryOp::Mul => x * y,
            BinaryOp::Div => x / y,
            _ => return None,
        }));
    }
    None
}
