//! Pattern matching: `is` patterns, `switch` statements and switch expressions, lowered to
//! boolean tests over a temporary that assign the pattern variables on the way.

use super::MethodBinder;
use crate::compiler::bound::*;
use crate::metadata::TypeId;
use grammar::ast::{self, PatternKind};
use grammar::span::Span;

/// The `switch` statement being bound (for `goto case` / `goto default`).
pub struct SwitchCtx {
    pub cases: Vec<(ConstVal, LabelId)>,
    pub default: Option<LabelId>,
}

impl MethodBinder<'_> {
    /// `e is pattern`.
    pub fn bind_is_pattern(&mut self, e: &ast::Expr, pattern: &ast::Pattern, span: Span) -> BExpr {
        let v = self.bind_expr(e);
        if v.is_error() {
            return BExpr::error(span);
        }
        let tmp = self.temp(v.ty, span);
        let test = self.bind_pattern(tmp, pattern);
        let boolean = self.wk().boolean;
        let init = BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span);
        BExpr::new(BKind::Seq { stmts: vec![init], value: Box::new(test) }, boolean, span)
    }

    /// A boolean test of the value in `input` against `p` (declaring its variables).
    pub fn bind_pattern(&mut self, input: LocalId, p: &ast::Pattern) -> BExpr {
        let span = p.span;
        let input_ty = self.locals[input.0 as usize].ty;
        let boolean = self.wk().boolean;
        let t = |b: &Self| BExpr::new(BKind::Const(ConstVal::Bool(true)), b.wk().boolean, span);
        match &p.kind {
            PatternKind::Discard => t(self),
            PatternKind::Var(d) => {
                let v = self.local_expr(input, span);
                self.bind_designation(d, v)
            }
            PatternKind::Declaration { ty, name } => {
                let target = self.resolve_type(ty);
                self.type_then_assign(input, target, Some(name), span)
            }
            PatternKind::Type(ty) => {
                let target = self.resolve_type(ty);
                self.type_then_assign(input, target, None, span)
            }
            PatternKind::Constant(e) => {
                if let Some(target) = self.pattern_type_name(e) {
                    return self.type_then_assign(input, target, None, span);
                }
                self.constant_pattern(input, input_ty, e)
            }
            PatternKind::Relational { op, value } => self.relational_pattern(input, input_ty, *op, value, span),
            PatternKind::Not(inner) => {
                let i = self.bind_pattern(input, inner);
                BExpr::new(BKind::Unary { op: BUnOp::Not, operand: Box::new(i) }, boolean, span)
            }
            PatternKind::And(a, b) => {
                let x = self.bind_pattern(input, a);
                let y = self.bind_pattern(input, b);
                BExpr::new(BKind::AndAlso(Box::new(x), Box::new(y)), boolean, span)
            }
            PatternKind::Or(a, b) => {
                let x = self.bind_pattern(input, a);
                let y = self.bind_pattern(input, b);
                BExpr::new(BKind::OrElse(Box::new(x), Box::new(y)), boolean, span)
            }
            PatternKind::Recursive { ty, positional, properties, designation } => {
                self.recursive_pattern(input, ty.as_ref(), positional.as_deref(), properties.as_deref(), designation.as_ref(), span)
            }
            PatternKind::List(_) | PatternKind::Slice(_) => {
                self.error(span, "CS8000", "List patterns are not supported by cs-lite");
                BExpr::error(span)
            }
        }
    }

    /// A constant-pattern expression that actually names a type (`case string:`).
    fn pattern_type_name(&mut self, e: &ast::Expr) -> Option<TypeId> {
        match &e.kind {
            ast::ExprKind::Name(seg) if self.lookup_local(&seg.name.name).is_none() => {
                let snapshot = self.snapshot();
                let b = self.bind(e, None);
                self.restore(snapshot);
                match b {
                    super::expr::Bound::Type(t, _) => Some(t),
                    _ => None,
                }
            }
            ast::ExprKind::PredefinedType(_) | ast::ExprKind::Member { .. } => {
                let snapshot = self.snapshot();
                let b = self.bind(e, None);
                self.restore(snapshot);
                match b {
                    super::expr::Bound::Type(t, _) => Some(t),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `input is T` (and `name = (T)input` when a name is given).
    fn type_then_assign(&mut self, input: LocalId, target: TypeId, name: Option<&ast::Designation>, span: Span) -> BExpr {
        let boolean = self.wk().boolean;
        let v = self.local_expr(input, span);
        let operand = self.box_if_value(v);
        let test = BExpr::new(BKind::TypeTest { operand: Box::new(operand), target }, boolean, span);
        let Some(d) = name else { return test };
        let v = self.local_expr(input, span);
        let converted = self.pattern_convert(v, target, span);
        let assign = self.bind_designation(d, converted);
        BExpr::new(BKind::AndAlso(Box::new(test), Box::new(assign)), boolean, span)
    }

    /// Converts a matched input to the tested type (unboxing or downcasting).
    fn pattern_convert(&mut self, v: BExpr, target: TypeId, span: Span) -> BExpr {
        if v.ty == target {
            return v;
        }
        let inner = self.nullable_inner(v.ty);
        if inner == Some(target) {
            return BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(v) }, target, span);
        }
        match self.type_conversion(v.ty, target) {
            Some(c) => self.apply_conversion(v, c.kind, target),
            None => {
                let boxed = self.box_if_value(v);
                let kind = if self.c.meta.is_value_type(target) { ConvKind::Unbox } else { ConvKind::Cast };
                BExpr::new(BKind::Conv { kind, operand: Box::new(boxed) }, target, span)
            }
        }
    }

    /// Declares the variables of a designation and assigns `value`; always `true`.
    pub fn bind_designation(&mut self, d: &ast::Designation, value: BExpr) -> BExpr {
        let boolean = self.wk().boolean;
        let span = value.span;
        match d {
            ast::Designation::Discard(_) => BExpr::new(BKind::Const(ConstVal::Bool(true)), boolean, span),
            ast::Designation::Single(id) => {
                let l = self.declare_local(&id.name, value.ty, LocalKind::User, id.span);
                let target = self.local_expr(l, id.span);
                let ty = value.ty;
                let assign = BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(value) }, ty, span);
                let t = BExpr::new(BKind::Const(ConstVal::Bool(true)), boolean, span);
                BExpr::new(BKind::Seq { stmts: vec![BStmt::new(SKind::Expr(assign), span)], value: Box::new(t) }, boolean, span)
            }
            ast::Designation::Parenthesized(parts, s) => {
                let stmts = self.deconstruct_into_designations(parts, value, *s);
                let t = BExpr::new(BKind::Const(ConstVal::Bool(true)), boolean, span);
                BExpr::new(BKind::Seq { stmts, value: Box::new(t) }, boolean, span)
            }
        }
    }

    fn constant_pattern(&mut self, input: LocalId, input_ty: TypeId, e: &ast::Expr) -> BExpr {
        let span = e.span;
        let boolean = self.wk().boolean;
        let c = self.bind_expr(e);
        if c.is_error() {
            return BExpr::error(span);
        }
        if !matches!(c.kind, BKind::Const(_)) && !self.is_enum(c.ty) {
            self.error(span, "CS0150", "A constant value is expected");
            return BExpr::error(span);
        }
        let v = self.local_expr(input, span);
        if matches!(c.kind, BKind::Const(ConstVal::Null)) {
            let boxed = self.box_if_value(v);
            let null = BExpr::new(BKind::Const(ConstVal::Null), boxed.ty, span);
            return BExpr::new(BKind::Binary { op: BBinOp::Eq, left: Box::new(boxed), right: Box::new(null) }, boolean, span);
        }
        let underlying = self.nullable_inner(input_ty).unwrap_or(input_ty);
        let needs_type_test =
            underlying == self.wk().object || self.is_class_like(underlying) && underlying != self.wk().string || self.is_type_param(underlying);
        if needs_type_test {
            let target = c.ty;
            let test = self.type_then_assign(input, target, None, span);
            let v = self.local_expr(input, span);
            let unboxed = self.pattern_convert(v, target, span);
            let eq = self.equality(unboxed, c, span);
            return BExpr::new(BKind::AndAlso(Box::new(test), Box::new(eq)), boolean, span);
        }
        let c = self.coerce(c, input_ty);
        self.equality(v, c, span)
    }

    /// `a == b` with C#'s operator (user-defined for strings and records).
    pub fn equality(&mut self, a: BExpr, b: BExpr, span: Span) -> BExpr {
        self.make_binary(ast::BinaryOp::Eq, a, b, span)
    }

    fn relational_pattern(&mut self, input: LocalId, input_ty: TypeId, op: ast::BinaryOp, value: &ast::Expr, span: Span) -> BExpr {
        let boolean = self.wk().boolean;
        let c = self.bind_expr(value);
        if c.is_error() {
            return BExpr::error(span);
        }
        let underlying = self.nullable_inner(input_ty).unwrap_or(input_ty);
        let v = self.local_expr(input, span);
        if underlying == self.wk().object || self.is_type_param(underlying) {
            let target = c.ty;
            let test = self.type_then_assign(input, target, None, span);
            let v = self.local_expr(input, span);
            let unboxed = self.pattern_convert(v, target, span);
            let cmp = self.make_binary(op, unboxed, c, span);
            return BExpr::new(BKind::AndAlso(Box::new(test), Box::new(cmp)), boolean, span);
        }
        if self.nullable_inner(input_ty).is_some() {
            let null = BExpr::new(BKind::Const(ConstVal::Null), input_ty, span);
            let not_null = BExpr::new(BKind::Binary { op: BBinOp::Ne, left: Box::new(v.clone()), right: Box::new(null) }, boolean, span);
            let unwrapped = BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(v) }, underlying, span);
            let cmp = self.make_binary(op, unwrapped, c, span);
            return BExpr::new(BKind::AndAlso(Box::new(not_null), Box::new(cmp)), boolean, span);
        }
        self.make_binary(op, v, c, span)
    }

    fn recursive_pattern(
        &mut self,
        input: LocalId,
        ty: Option<&ast::TypeSyntax>,
        positional: Option<&[ast::SubPattern]>,
        properties: Option<&[ast::SubPattern]>,
        designation: Option<&ast::Designation>,
        span: Span,
    ) -> BExpr {
        let boolean = self.wk().boolean;
        let input_ty = self.locals[input.0 as usize].ty;
        let (mut test, subject) = match ty {
            Some(t) => {
                let target = self.resolve_type(t);
                let test = self.type_then_assign(input, target, None, span);
                let tmp = self.temp(target, span);
                let v = self.local_expr(input, span);
                let conv = self.pattern_convert(v, target, span);
                let assign = self.assign_temp(tmp, conv, span);
                (BExpr::new(BKind::AndAlso(Box::new(test), Box::new(assign)), boolean, span), tmp)
            }
            None => {
                let v = self.local_expr(input, span);
                let test = if self.is_nullable_type(input_ty) || self.is_type_param(input_ty) {
                    let boxed = self.box_if_value(v);
                    let null = BExpr::new(BKind::Const(ConstVal::Null), boxed.ty, span);
                    BExpr::new(BKind::Binary { op: BBinOp::Ne, left: Box::new(boxed), right: Box::new(null) }, boolean, span)
                } else {
                    BExpr::new(BKind::Const(ConstVal::Bool(true)), boolean, span)
                };
                let inner = self.nullable_inner(input_ty).unwrap_or(input_ty);
                if inner != input_ty {
                    let tmp = self.temp(inner, span);
                    let v = self.local_expr(input, span);
                    let conv = BExpr::new(BKind::Conv { kind: ConvKind::Unbox, operand: Box::new(v) }, inner, span);
                    let assign = self.assign_temp(tmp, conv, span);
                    (BExpr::new(BKind::AndAlso(Box::new(test), Box::new(assign)), boolean, span), tmp)
                } else {
                    (test, input)
                }
            }
        };
        if let Some(pos) = positional {
            for (i, sp) in pos.iter().enumerate() {
                let subject_e = self.local_expr(subject, span);
                let Some(value) = self.positional_element(subject_e, i, pos.len(), sp.span) else { return BExpr::error(span) };
                let tmp = self.temp(value.ty, sp.span);
                let assign = self.assign_temp(tmp, value, sp.span);
                let sub = self.bind_pattern(tmp, &sp.pattern);
                let both = BExpr::new(BKind::AndAlso(Box::new(assign), Box::new(sub)), boolean, sp.span);
                test = BExpr::new(BKind::AndAlso(Box::new(test), Box::new(both)), boolean, span);
            }
        }
        for sp in properties.unwrap_or_default() {
            let Some(path) = &sp.name else { continue };
            let mut value = self.local_expr(subject, sp.span);
            for name in path {
                let seg = ast::NameSegment { name: name.clone(), type_args: Vec::new() };
                let b = self.bind_instance_member(value, &seg, name.span, false);
                value = self.to_value(b, name.span);
                if value.is_error() {
                    return BExpr::error(span);
                }
            }
            let tmp = self.temp(value.ty, sp.span);
            let assign = self.assign_temp(tmp, value, sp.span);
            let sub = self.bind_pattern(tmp, &sp.pattern);
            let both = BExpr::new(BKind::AndAlso(Box::new(assign), Box::new(sub)), boolean, sp.span);
            test = BExpr::new(BKind::AndAlso(Box::new(test), Box::new(both)), boolean, span);
        }
        if let Some(d) = designation {
            let v = self.local_expr(subject, span);
            let assign = self.bind_designation(d, v);
            test = BExpr::new(BKind::AndAlso(Box::new(test), Box::new(assign)), boolean, span);
        }
        test
    }

    /// `(tmp = value, true)`.
    pub fn assign_temp(&mut self, tmp: LocalId, value: BExpr, span: Span) -> BExpr {
        let boolean = self.wk().boolean;
        let target = self.local_expr(tmp, span);
        let ty = target.ty;
        let assign = BExpr::new(BKind::Assign { target: Box::new(target), value: Box::new(value) }, ty, span);
        let t = BExpr::new(BKind::Const(ConstVal::Bool(true)), boolean, span);
        BExpr::new(BKind::Seq { stmts: vec![BStmt::new(SKind::Expr(assign), span)], value: Box::new(t) }, boolean, span)
    }

    // ---- switch statement ------------------------------------------------------------------

    pub fn bind_switch(&mut self, expr: &ast::Expr, sections: &[ast::SwitchSection], span: Span) -> BStmt {
        let v = self.bind_expr(expr);
        self.push_scope();
        let tmp = self.temp(v.ty, span);
        let brk = self.new_label();
        let labels: Vec<LabelId> = sections.iter().map(|_| self.new_label()).collect();
        // The switch block is one declaration space: a label or a local of one section
        // is in scope in the others (`goto shared;`, `case 2: z = 9;`).
        self.declare_labels(sections.iter().flat_map(|s| &s.stmts));
        let mut ctx = SwitchCtx { cases: Vec::new(), default: None };
        for (i, s) in sections.iter().enumerate() {
            for l in &s.labels {
                match l {
                    ast::SwitchLabel::Default(_) => ctx.default = Some(labels[i]),
                    ast::SwitchLabel::Case { pattern: ast::Pattern { kind: PatternKind::Constant(e), .. }, guard: None, .. } => {
                        let snapshot = self.snapshot();
                        let c = self.bind_expr(e);
                        self.restore(snapshot);
                        if let BKind::Const(cv) = c.kind {
                            ctx.cases.push((cv, labels[i]));
                        }
                    }
                    _ => {}
                }
            }
        }
        let default_target = ctx.default.unwrap_or(brk);
        let constant_target = constant_switch_target(&v, sections, &ctx.cases, default_target);
        self.switch_stack.push(ctx);
        self.loops.push((brk, None));
        let mut tests = vec![BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span)];
        let mut bodies = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            self.push_scope();
            self.mark_switch_section();
            for l in &s.labels {
                if let ast::SwitchLabel::Case { pattern, guard, span: lspan } = l {
                    let mut test = self.bind_pattern(tmp, pattern);
                    if let Some(g) = guard {
                        let gc = self.bind_condition(g);
                        let boolean = self.wk().boolean;
                        test = BExpr::new(BKind::AndAlso(Box::new(test), Box::new(gc)), boolean, *lspan);
                    }
                    let go = BStmt::new(SKind::Goto(labels[i]), *lspan);
                    tests.push(BStmt::new(SKind::If { cond: test, then: Box::new(go), otherwise: None }, *lspan));
                }
            }
            let pattern_names = self.scope_name_count();
            let stmts = self.bind_stmts_with_declared_labels(&s.stmts);
            let section_block = BStmt::new(SKind::Block { stmts, locals: Vec::new() }, s.span);
            if super::syntax::can_complete(&section_block) {
                self.report_fall_through(s, i + 1 == sections.len());
            }
            let locals = self.pop_scope_passing_names_from(pattern_names);
            bodies.push(BStmt::new(SKind::Label(labels[i]), s.span));
            bodies.push(BStmt::new(SKind::Block { stmts: vec![section_block], locals: Vec::new() }, s.span));
            self.append_scope_locals(locals);
        }
        self.loops.pop();
        self.switch_stack.pop();
        if let Some(target) = constant_target {
            // A switch on a constant goes straight to its section: the others are
            // unreachable, as C# says (`switch (1) { case 1: return 0; default: break; }`
            // cannot complete).
            tests.truncate(1);
            tests.push(BStmt::new(SKind::Goto(target), span));
        } else {
            tests.push(BStmt::new(SKind::Goto(default_target), span));
        }
        tests.extend(bodies);
        tests.push(BStmt::new(SKind::Label(brk), span));
        let locals = self.pop_scope();
        BStmt::new(SKind::Block { stmts: tests, locals }, span)
    }

    fn report_fall_through(&mut self, s: &ast::SwitchSection, is_last: bool) {
        let (label_text, lspan) = match s.labels.last() {
            Some(ast::SwitchLabel::Default(sp)) => ("default:".to_string(), *sp),
            Some(ast::SwitchLabel::Case { span, .. }) => {
                let text = self
                    .c
                    .meta
                    .files
                    .get(self.file.index())
                    .map_or(String::new(), |f| f.text.get(span.start as usize..span.end as usize).unwrap_or("").to_string());
                (text, *span)
            }
            None => return,
        };
        if is_last {
            self.error(lspan, "CS8070", format!("Control cannot fall out of switch from final case label ('{label_text}')"));
        } else {
            self.error(lspan, "CS0163", format!("Control cannot fall through from one case label ('{label_text}') to another"));
        }
    }

    pub fn goto_case_label(&mut self, e: &ast::Expr) -> Option<LabelId> {
        let c = self.bind_expr(e);
        let BKind::Const(cv) = c.kind else { return None };
        let ctx = self.switch_stack.last()?;
        ctx.cases.iter().find(|(k, _)| const_eq(k, &cv)).map(|(_, l)| *l)
    }

    pub fn switch_default_label(&self) -> Option<LabelId> {
        self.switch_stack.last()?.default
    }

    // ---- switch expression -----------------------------------------------------------------

    pub fn bind_switch_expression(&mut self, expr: &ast::Expr, arms: &[ast::SwitchArm], target: Option<TypeId>, span: Span) -> BExpr {
        let v = self.bind_expr(expr);
        if v.is_error() {
            return BExpr::error(span);
        }
        let tmp = self.temp(v.ty, span);
        let mut tests = Vec::new();
        let mut values = Vec::new();
        for arm in arms {
            self.push_scope();
            let mut test = self.bind_pattern(tmp, &arm.pattern);
            if let Some(g) = &arm.guard {
                let gc = self.bind_condition(g);
                let boolean = self.wk().boolean;
                test = BExpr::new(BKind::AndAlso(Box::new(test), Box::new(gc)), boolean, arm.span);
            }
            let value = self.bind(&arm.value, target);
            let value = self.to_value(value, arm.value.span);
            let locals = self.pop_scope();
            self.append_scope_locals(locals);
            tests.push(test);
            values.push(value);
        }
        let ty = match target {
            Some(t) if values.iter().all(|x| self.conversion(x, t).is_some_and(|c| c.implicit)) => t,
            _ => {
                let mut best = values.first().map_or(TypeId::ERROR, |x| x.ty);
                for x in values.iter().skip(1) {
                    let probe = BExpr::new(BKind::Default, best, span);
                    if let Some(t) = self.best_common_type(&probe, x) {
                        best = t;
                    }
                }
                if let Some(t) = values.iter().find(|x| !matches!(x.kind, BKind::Throw(_))).map(|x| x.ty) {
                    if best == TypeId::ERROR {
                        best = t;
                    }
                }
                best
            }
        };
        let fallback = self.switch_failure(ty, span);
        let mut result = fallback;
        for (test, value) in tests.into_iter().zip(values).rev() {
            let value = self.coerce(value, ty);
            result = BExpr::new(BKind::Cond { cond: Box::new(test), then: Box::new(value), otherwise: Box::new(result) }, ty, span);
        }
        let init = BStmt::new(SKind::Local { local: tmp, init: Some(v) }, span);
        BExpr::new(BKind::Seq { stmts: vec![init], value: Box::new(result) }, ty, span)
    }

    /// `throw new SwitchExpressionException()` for an unmatched switch expression.
    fn switch_failure(&mut self, ty: TypeId, span: Span) -> BExpr {
        let def = self.c.namespaces.find_type("System.Runtime.CompilerServices", "SwitchExpressionException", 0);
        let exc = match def.map(|d| self.c.meta.types.named(d, &[])) {
            Some(t) => self.bind_constructor_call(t, None, &[], span).unwrap_or_else(|| BExpr::error(span)),
            None => BExpr::error(span),
        };
        BExpr::new(BKind::Throw(Box::new(exc)), ty, span)
    }

    /// Moves locals of a popped scope to the current scope (they still need storage).
    pub fn append_scope_locals(&mut self, locals: Vec<LocalId>) {
        self.extend_current_scope_locals(locals);
    }
}

fn const_eq(a: &ConstVal, b: &ConstVal) -> bool {
    match (a, b) {
        (ConstVal::Int(x), ConstVal::Int(y)) => x == y,
        (ConstVal::UInt(x), ConstVal::UInt(y)) => x == y,
        (ConstVal::Char(x), ConstVal::Char(y)) => x == y,
        (ConstVal::Bool(x), ConstVal::Bool(y)) => x == y,
        (ConstVal::Str(x), ConstVal::Str(y)) => x == y,
        (ConstVal::Float(x), ConstVal::Float(y)) => x == y,
        (ConstVal::Char(x), ConstVal::Int(y)) | (ConstVal::Int(y), ConstVal::Char(x)) => *x as i64 == *y,
        _ => false,
    }
}

/// Where a switch on the constant `value` jumps, when every label is a constant `case` or
/// `default` (no patterns, no `when`); `None` for a switch on a run-time value, or a
/// constant compared in a way this does not decide.
fn constant_switch_target(value: &BExpr, sections: &[ast::SwitchSection], cases: &[(ConstVal, LabelId)], default: LabelId) -> Option<LabelId> {
    let BKind::Const(v) = &value.kind else { return None };
    let simple = |l: &ast::SwitchLabel| {
        matches!(l, ast::SwitchLabel::Default(_) | ast::SwitchLabel::Case { pattern: ast::Pattern { kind: PatternKind::Constant(_), .. }, guard: None, .. })
    };
    let labels = sections.iter().flat_map(|s| &s.labels);
    if !labels.clone().all(simple) || cases.len() != labels.filter(|l| matches!(l, ast::SwitchLabel::Case { .. })).count() {
        return None;
    }
    let mut target = default;
    for (case, label) in cases {
        if same_constant(v, case)? {
            target = *label;
        }
    }
    Some(target)
}

/// Whether two constants are equal, for the kinds a constant switch compares (`None`: not
/// decided here).
fn same_constant(a: &ConstVal, b: &ConstVal) -> Option<bool> {
    let integer = |c: &ConstVal| match c {
        ConstVal::Int(i) => Some(i128::from(*i)),
        ConstVal::UInt(u) => Some(i128::from(*u)),
        ConstVal::Char(c) => Some(i128::from(*c)),
        _ => None,
    };
    match (a, b) {
        (ConstVal::Bool(x), ConstVal::Bool(y)) => Some(x == y),
        (ConstVal::Str(x), ConstVal::Str(y)) => Some(x == y),
        _ => Some(integer(a)? == integer(b)?),
    }
}
