//! Arguments run in the order they are written (C# §12.6.2.2), named ones included:
//! `R(b: Log(1), a: Log(2))` logs 1 then 2 although `a` is passed first. The call passes
//! its arguments in parameter order, so an argument written before one that is passed
//! earlier is evaluated into temporaries just ahead of that one (for a `ref`/`out`
//! argument, the parts of the variable: array, index, receiver).

use super::MethodBinder;
use crate::compiler::bound::*;

impl MethodBinder<'_> {
    /// `args` in parameter order, `written[i]` the position in the source of `args[i]`
    /// (`None` for a default value): the same call, its arguments run in written order.
    pub(super) fn in_written_order(&mut self, mut args: Vec<BArg>, written: &[Option<usize>]) -> Vec<BArg> {
        let order: Vec<usize> = written.iter().flatten().copied().collect();
        if order.windows(2).all(|w| w[0] < w[1]) {
            return args;
        }
        let mut done = vec![false; args.len()];
        for p in 0..args.len() {
            let Some(s) = written[p] else { continue };
            let mut prefix = Vec::new();
            for q in p + 1..args.len() {
                if written[q].is_some_and(|t| t < s) && !done[q] {
                    self.spill_argument(&mut args[q], &mut prefix);
                    done[q] = true;
                }
            }
            done[p] = true;
            if !prefix.is_empty() {
                let arg = &mut args[p].expr;
                let (ty, span) = (arg.ty, arg.span);
                let value = std::mem::replace(arg, BExpr::new(BKind::Default, ty, span));
                *arg = BExpr::new(BKind::Seq { stmts: prefix, value: Box::new(value) }, ty, span);
            }
        }
        args
    }

    /// Evaluates what `arg` computes into temporaries (statements appended to `prefix`),
    /// leaving `arg` reading them.
    fn spill_argument(&mut self, arg: &mut BArg, prefix: &mut Vec<BStmt>) {
        match arg.kind {
            ArgKind::Value => self.spill(&mut arg.expr, prefix),
            ArgKind::Ref => match &mut arg.expr.kind {
                BKind::Elem { array, indices } => {
                    self.spill(array, prefix);
                    indices.iter_mut().for_each(|i| self.spill(i, prefix));
                }
                BKind::Field { receiver: Some(r), .. } if !self.c.meta.is_value_type(r.ty) => self.spill(r, prefix),
                _ => {}
            },
        }
    }

    /// Replaces `e` with a temporary holding its value (constants stay).
    fn spill(&mut self, e: &mut BExpr, prefix: &mut Vec<BStmt>) {
        if matches!(e.kind, BKind::Const(_) | BKind::Default | BKind::This) {
            return;
        }
        let temp = self.temp(e.ty, e.span);
        let read = self.local_expr(temp, e.span);
        let value = std::mem::replace(e, read);
        let span = value.span;
        prefix.push(BStmt::new(SKind::Local { local: temp, init: Some(value) }, span));
    }
}
