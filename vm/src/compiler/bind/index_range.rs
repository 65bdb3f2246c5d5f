//! Indices and ranges: `^k` builds a `System.Index`, `a..b` a `System.Range`, and an element
//! access with one of them on a type that has a length (`Length` or `Count`) and an `int`
//! indexer is rewritten as C# specifies: `x[^k]` is `x[x.Length - k]`, `s[a..b]` is a
//! `Substring`, `array[a..b]` is `RuntimeHelpers.GetSubArray(array, a..b)`. The receiver is
//! evaluated once, before the index.

use super::expr::{Bound, PropertyAccess};
use super::{value_arg, MethodBinder};
use crate::compiler::bound::{BBinOp, BExpr, BKind, BStmt, SKind};
use crate::metadata::{MethodId, TypeId};
use grammar::ast::{self, ExprKind};
use grammar::span::Span;

impl MethodBinder<'_> {
    /// `^k`: `new Index(k, fromEnd: true)`.
    pub fn bind_index_from_end(&mut self, operand: &ast::Expr, span: Span) -> BExpr {
        let int = self.wk().int32;
        let k = self.bind_expr_to(operand, int);
        let from_end = BExpr::new(BKind::Const(crate::compiler::bound::ConstVal::Bool(true)), self.wk().boolean, span);
        let index = self.wk().index;
        self.new_struct(index, vec![k, from_end], span)
    }

    /// `a..b` (either end may be missing): `new Range(a, b)` with `0` and `^0` as defaults.
    pub fn bind_range(&mut self, start: Option<&ast::Expr>, end: Option<&ast::Expr>, span: Span) -> BExpr {
        let index = self.wk().index;
        let start = match start {
            Some(e) => self.bind_expr_to(e, index),
            None => self.index_constant(0, false, span),
        };
        let end = match end {
            Some(e) => self.bind_expr_to(e, index),
            None => self.index_constant(0, true, span),
        };
        let range = self.wk().range;
        self.new_struct(range, vec![start, end], span)
    }

    /// `recv[arg]` when `arg` is an index from the end or a range, rewritten onto the
    /// receiver's length and `int` indexer (`None`: not such an access).
    pub fn bind_index_or_range_access(&mut self, recv: BExpr, arg: &ast::Expr, span: Span) -> Option<Bound> {
        let (index, range) = (self.wk().index, self.wk().range);
        let arg_value = match &arg.kind {
            ExprKind::IndexFromEnd(_) | ExprKind::Range(..) => self.bind_expr(arg),
            ExprKind::Literal(_) => return None,
            _ => {
                let snapshot = self.snapshot();
                let v = self.bind_expr(arg);
                if v.ty != index && v.ty != range {
                    self.restore(snapshot);
                    return None;
                }
                v
            }
        };
        if arg_value.is_error() {
            return Some(Bound::Value(BExpr::error(span)));
        }
        let (setup, recv) = self.receiver_once(recv, span);
        let length = self.length_or_count(&recv, span)?;
        let bound = if arg_value.ty == range {
            self.slice(recv, arg_value, span)?
        } else {
            let offset = self.index_offset(arg_value, length, span);
            self.int_element(recv, offset, span)?
        };
        Some(match bound {
            Bound::Property(mut p) if !setup.is_empty() => {
                let recv = p.receiver.take().map(|r| Box::new(self.with_setup(setup, *r, span)));
                p.receiver = recv;
                Bound::Property(p)
            }
            Bound::Value(v) if !setup.is_empty() => Bound::Value(self.with_setup(setup, v, span)),
            b => b,
        })
    }

    /// The receiver in a temporary unless it is already a plain local.
    fn receiver_once(&mut self, recv: BExpr, span: Span) -> (Vec<BStmt>, BExpr) {
        if matches!(recv.kind, BKind::Local(_) | BKind::This) {
            return (Vec::new(), recv);
        }
        let t = self.temp(recv.ty, span);
        let setup = vec![BStmt::new(SKind::Local { local: t, init: Some(recv) }, span)];
        (setup, self.local_expr(t, span))
    }

    fn with_setup(&mut self, setup: Vec<BStmt>, e: BExpr, span: Span) -> BExpr {
        let ty = e.ty;
        match e.kind {
            // Keep element accesses assignable: the setup goes into the array operand.
            BKind::Elem { array, indices } => {
                let array = BExpr::new(BKind::Seq { stmts: setup, value: array.clone() }, array.ty, span);
                BExpr::new(BKind::Elem { array: Box::new(array), indices }, ty, span)
            }
            kind => BExpr::new(BKind::Seq { stmts: setup, value: Box::new(BExpr { kind, ty, span }) }, ty, span),
        }
    }

    /// `recv.Length` (arrays, strings) or `recv.Count`.
    fn length_or_count(&mut self, recv: &BExpr, span: Span) -> Option<BExpr> {
        for name in ["Length", "Count"] {
            let seg = ast::NameSegment { name: ast::Ident { name: name.into(), span }, type_args: Vec::new() };
            let snapshot = self.snapshot();
            if let Bound::Property(p) = self.bind_instance_member(recv.clone(), &seg, span, false) {
                let v = self.read_property(p);
                if self.prim(v.ty).is_some() {
                    let int = self.wk().int32;
                    return Some(self.coerce(v, int));
                }
            }
            self.restore(snapshot);
        }
        let shown = self.type_name(recv.ty);
        self.error(span, "CS0021", format!("Cannot apply indexing with [] to an expression of type '{shown}'"));
        None
    }

    /// The `int` offset of an index: `length - k` for `^k`, `index.GetOffset(length)`.
    fn index_offset(&mut self, index: BExpr, length: BExpr, span: Span) -> BExpr {
        let int = self.wk().int32;
        if let BKind::New { args, .. } = &index.kind {
            if let [k, from_end] = &args[..] {
                if matches!(from_end.expr.kind, BKind::Const(crate::compiler::bound::ConstVal::Bool(true))) {
                    let k = k.expr.clone();
                    return BExpr::new(BKind::Binary { op: BBinOp::Sub { checked: false }, left: Box::new(length), right: Box::new(k) }, int, span);
                }
            }
        }
        let index_ty = self.wk().index;
        let get_offset = self.method_named(index_ty, "GetOffset", 1);
        match get_offset {
            Some(m) => BExpr::new(
                BKind::Call {
                    method: m,
                    owner: index_ty,
                    type_args: Vec::new(),
                    receiver: Some(Box::new(index)),
                    args: vec![value_arg(length)],
                    is_virtual: false,
                },
                int,
                span,
            ),
            None => BExpr::error(span),
        }
    }

    /// `recv[offset]` through the array element or the `int` indexer.
    fn int_element(&mut self, recv: BExpr, offset: BExpr, span: Span) -> Option<Bound> {
        if let Some((elem, 1)) = self.c.meta.types.array_elem(recv.ty) {
            return Some(Bound::Value(BExpr::new(BKind::Elem { array: Box::new(recv), indices: vec![offset] }, elem, span)));
        }
        let int = self.wk().int32;
        let indexers = self.lookup_indexers(recv.ty);
        let (prop, owner) = indexers.into_iter().find(|&(p, _)| {
            let params = &self.c.meta.property(p).params;
            params.len() == 1 && params[0].ty == int
        })?;
        Some(Bound::Property(PropertyAccess { prop, owner, receiver: Some(Box::new(recv)), args: vec![value_arg(offset)], is_base: false, span }))
    }

    /// `s[range]` is a substring, `array[range]` a new array.
    fn slice(&mut self, recv: BExpr, range: BExpr, span: Span) -> Option<Bound> {
        let helpers = self.wk().runtime_helpers;
        let (name, type_args) = match self.c.meta.types.array_elem(recv.ty) {
            Some((elem, 1)) => ("GetSubArray", vec![elem]),
            _ if recv.ty == self.wk().string => ("GetSubstring", Vec::new()),
            _ => {
                let shown = self.type_name(recv.ty);
                self.error(span, "CS0021", format!("Cannot apply indexing with [] to an expression of type '{shown}'"));
                return None;
            }
        };
        let m = self.method_named(helpers, name, 2)?;
        let ty = recv.ty;
        let call = BKind::Call { method: m, owner: helpers, type_args, receiver: None, args: vec![value_arg(recv), value_arg(range)], is_virtual: false };
        Some(Bound::Value(BExpr::new(call, ty, span)))
    }

    fn index_constant(&mut self, value: i64, from_end: bool, span: Span) -> BExpr {
        let int = self.wk().int32;
        let boolean = self.wk().boolean;
        let v = BExpr::new(BKind::Const(crate::compiler::bound::ConstVal::Int(value)), int, span);
        let e = BExpr::new(BKind::Const(crate::compiler::bound::ConstVal::Bool(from_end)), boolean, span);
        let index = self.wk().index;
        self.new_struct(index, vec![v, e], span)
    }

    /// `new T(args)` through the constructor with as many parameters.
    fn new_struct(&mut self, ty: TypeId, args: Vec<BExpr>, span: Span) -> BExpr {
        let ctor = self.constructor_with_arity(ty, args.len());
        BExpr::new(BKind::New { ctor, args: args.into_iter().map(value_arg).collect() }, ty, span)
    }

    fn constructor_with_arity(&self, ty: TypeId, n: usize) -> Option<MethodId> {
        let def = self.c.meta.types.def_of(ty)?;
        self.c.meta.type_def(def).methods.iter().copied().find(|&m| {
            let md = self.c.meta.method(m);
            md.kind == crate::metadata::MethodKind::Constructor && md.params.len() == n
        })
    }

    /// A method of `ty` by name and parameter count.
    pub fn method_named(&self, ty: TypeId, name: &str, params: usize) -> Option<MethodId> {
        let def = self.c.meta.types.def_of(ty)?;
        self.c.meta.type_def(def).methods.iter().copied().find(|&m| {
            let md = self.c.meta.method(m);
            md.name == name && md.params.len() == params
        })
    }
}
