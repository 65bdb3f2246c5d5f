//! Interpolated strings: `$"a{x,5:F2}b"` becomes a concatenation of the text parts and the
//! formatted holes (alignment applied after formatting, as `string.Format` does).

use super::MethodBinder;
use crate::compiler::bound::retyped;
use crate::compiler::bound::*;
use grammar::ast;
use grammar::span::Span;

impl MethodBinder<'_> {
    pub fn bind_interpolated(&mut self, parts: &[ast::InterpolationPart], span: Span) -> BExpr {
        let string = self.wk().string;
        let int = self.wk().int32;
        let mut out = Vec::new();
        for p in parts {
            match p {
                ast::InterpolationPart::Text(t) => {
                    if !t.is_empty() {
                        out.push(BExpr::new(BKind::Const(ConstVal::Str(t.clone())), string, span));
                    }
                }
                ast::InterpolationPart::Hole { expr, alignment, format, span: hspan } => {
                    let v = self.bind_expr(expr);
                    if v.is_error() {
                        return BExpr::error(span);
                    }
                    let text = self.format_hole(v, format.clone(), *hspan);
                    let text = match alignment {
                        Some(a) => {
                            let av = self.bind_expr_to(a, int);
                            BExpr::new(BKind::Align { value: Box::new(text), alignment: Box::new(av) }, string, *hspan)
                        }
                        None => text,
                    };
                    out.push(text);
                }
            }
        }
        if out.is_empty() {
            return BExpr::new(BKind::Const(ConstVal::Str(String::new())), string, span);
        }
        if out.len() == 1 && matches!(out[0].kind, BKind::Const(_)) {
            return BExpr { span, ..out.remove(0) };
        }
        BExpr::new(BKind::Concat(out), string, span)
    }

    /// One hole as a string: primitives are formatted by the VM; other values go through
    /// `IFormattable.ToString(format, null)` or `ToString()`.
    fn format_hole(&mut self, v: BExpr, format: Option<String>, span: Span) -> BExpr {
        let string = self.wk().string;
        let is_primitive =
            self.prim(v.ty).is_some_and(|p| p != super::convert::Prim::Decimal) || self.is_enum(v.ty) || v.ty == self.wk().boolean || v.ty == string;
        if is_primitive && (format.is_none() || v.ty != string) {
            if v.ty == string && format.is_none() {
                return BExpr::new(BKind::Format { value: Box::new(v), format: None }, string, span);
            }
            return BExpr::new(BKind::Format { value: Box::new(v), format }, string, span);
        }
        match format {
            None => self.to_string_part(v),
            Some(f) => {
                let obj = self.wk().object;
                let viewed = self.view_if_value(v);
                let viewed = retyped(viewed, obj);
                let fmt = BExpr::new(BKind::Const(ConstVal::Str(f)), string, span);
                self.call_string_helper("FormatHole", vec![viewed, fmt], span)
            }
        }
    }
}
