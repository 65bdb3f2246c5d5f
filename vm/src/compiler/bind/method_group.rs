//! Method-group conversions: a method name used where a delegate is expected
//! (`Func<int, int> f = Square;`, `list.Sort(Compare)`, `new Action(M)`). Overload
//! resolution runs against the delegate's parameter types, as C# §10.8 specifies.

use super::call::PreArg;
use super::expr::{Bound, MethodGroup};
use super::MethodBinder;
use crate::compiler::bound::{BExpr, BKind};
use crate::metadata::{ParamKind, TypeId};
use grammar::ast::{self, ExprKind};
use grammar::span::Span;

impl MethodBinder<'_> {
    /// Binds `e` as a value of type `target`, converting a method group to the delegate
    /// type when `e` names one.
    pub fn bind_value_to(&mut self, e: &ast::Expr, target: TypeId) -> BExpr {
        match self.bind(e, Some(target)) {
            Bound::Methods(g) if self.delegate_signature(target).is_some() => self.convert_method_group(g, target, e.span),
            b => self.to_value(b, e.span),
        }
    }

    /// The delegate of type `delegate` over the best method of `g`; CS0123 when none fits.
    pub fn convert_method_group(&mut self, g: MethodGroup, delegate: TypeId, span: Span) -> BExpr {
        let Some((invoke, dparams, dret)) = self.delegate_signature(delegate) else {
            return self.to_value(Bound::Methods(g), span);
        };
        if let Some(nested) = g.nested {
            return BExpr::new(BKind::Closure(nested), delegate, span);
        }
        let kinds: Vec<ParamKind> = self.c.meta.method(invoke).params.iter().map(|p| p.kind).collect();
        let pre: Vec<PreArg> = dparams.iter().zip(kinds).map(|(&t, k)| placeholder_arg(t, k, span)).collect();
        let snapshot = self.snapshot();
        let candidates = self.accessible_candidates(&g.methods, false);
        let chosen = self.select_overload(&candidates, &pre, &g.type_args, None, span, &g.name);
        self.restore(snapshot);
        let fits = chosen.as_ref().is_some_and(|app| {
            let ret = self.method_return_type(app);
            self.return_fits(ret, dret)
        });
        let Some(app) = chosen.filter(|_| fits) else {
            let shown = self.type_name(delegate);
            self.error(span, "CS0123", format!("No overload for '{}' matches delegate '{shown}'", g.name));
            return BExpr::error(span);
        };
        let (method, owner) = if g.is_base { self.base_target(app.method, app.owner) } else { (app.method, app.owner) };
        let md = self.c.meta.method(method).clone();
        let target = if md.is_static() {
            None
        } else {
            match g.receiver {
                Some(r) => Some(r),
                None => {
                    let shown = self.c.member_display(app.method);
                    self.error(span, "CS0120", format!("An object reference is required for the non-static field, method, or property '{shown}'"));
                    return BExpr::error(span);
                }
            }
        };
        self.check_method_access(method, false, span);
        let is_virtual = target.is_some() && self.dispatch_is_virtual(method, target.as_deref(), g.is_base);
        let kind = BKind::DelegateNew { method, owner, type_args: app.type_args, target, is_virtual };
        BExpr::new(kind, delegate, span)
    }

    /// The return type of the method `e` (a method group) would pick for arguments of
    /// types `params`, for type inference (C# §12.6.3.7, output type inference).
    pub fn method_group_return_type(&mut self, e: &ast::Expr, params: &[TypeId]) -> Option<TypeId> {
        let snapshot = self.snapshot();
        let before = self.c.diags.items.len();
        let ret = match self.bind(e, None) {
            Bound::Methods(g) if g.nested.is_none() => {
                let pre: Vec<PreArg> = params.iter().map(|&t| placeholder_arg(t, ParamKind::Value, e.span)).collect();
                self.select_overload(&g.methods, &pre, &g.type_args, None, e.span, &g.name).map(|app| self.method_return_type(&app))
            }
            _ => None,
        };
        let ok = self.c.diags.items.len() == before;
        self.restore(snapshot);
        ret.filter(|_| ok)
    }

    /// A method's return type fits a delegate's when they are the same, or both are
    /// reference types related by an implicit reference conversion.
    fn return_fits(&mut self, method_ret: TypeId, delegate_ret: TypeId) -> bool {
        if method_ret == delegate_ret {
            return true;
        }
        if method_ret == TypeId::VOID || delegate_ret == TypeId::VOID {
            return false;
        }
        let probe = BExpr::new(BKind::Default, method_ret, Span::default());
        self.is_reference_type(method_ret) && self.conversion(&probe, delegate_ret).is_some_and(|c| c.implicit)
    }
}

/// An argument of a known type and no value, standing for a delegate parameter.
fn placeholder_arg(ty: TypeId, kind: ParamKind, span: Span) -> PreArg {
    let modifier = match kind {
        ParamKind::Ref => ast::ArgModifier::Ref,
        ParamKind::Out => ast::ArgModifier::Out,
        ParamKind::In => ast::ArgModifier::In,
        ParamKind::Value | ParamKind::Params => ast::ArgModifier::None,
    };
    let expr = ast::Expr { kind: ExprKind::Error, span };
    PreArg {
        syntax: ast::Arg { name: None, modifier, expr, span },
        value: Some(BExpr::new(BKind::Default, ty, span)),
        name: None,
        kind: modifier,
        out_decl: None,
    }
}
