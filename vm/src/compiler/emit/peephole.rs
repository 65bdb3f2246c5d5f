//! The peephole pass over a finished function: removes the register-to-register moves the
//! tree emitter leaves behind, using the register liveness of `bytecode::liveness` (over
//! jumps, jump tables, exception handlers and filters).
//!
//! Dead pure writes go (a constant load, a copy, the generic context a method computes in
//! its prologue, when nothing reads the register afterwards). Two rewrites, each on a
//! pair of adjacent instructions whose second one no jump reaches:
//! - `X -> rT; Move rV <- rT` becomes `X -> rV` when `rT` is dead afterwards (a call
//!   result, an arithmetic result assigned to a local);
//! - `Move rT <- rX; Y(rT)` becomes `Y(rX)` when `rT` is dead after `Y` (a copy of a local
//!   made only to be read once, as `i++` does).
//!
//! Jump targets, handler ranges, jump tables and the span table are remapped after
//! instructions are deleted.

use grammar::span::Span;

use crate::bytecode::liveness::{registers_read, CodeView, Liveness, Stage};
use crate::bytecode::{Handler, HandlerKind, JumpTable, Op, Reg, Target};
use crate::metadata::Metadata;

/// The parts of a function the pass rewrites.
pub struct Code<'a> {
    pub code: &'a mut Vec<Op>,
    pub handlers: &'a mut Vec<Handler>,
    pub tables: &'a mut Vec<JumpTable>,
    pub spans: &'a mut Vec<(u32, Span)>,
    pub num_regs: u16,
    pub num_args: u16,
}

impl Code<'_> {
    /// What the liveness analysis reads.
    fn view(&self) -> CodeView<'_> {
        CodeView { code: self.code, handlers: self.handlers, tables: self.tables, stage: Stage::Building, num_regs: self.num_regs, num_args: self.num_args }
    }
}

/// Rounds of rewriting (each round can expose another pair).
const ROUNDS: usize = 6;

/// Where each instruction of the code before the pass went: `new_pc[old_pc]` (a deleted
/// instruction maps to the next one kept); one more entry maps the end of the code.
pub struct Positions {
    new_pc: Vec<u32>,
}

impl Positions {
    fn identity(len: usize) -> Positions {
        Positions { new_pc: (0..=len as u32).collect() }
    }

    /// The new position of the instruction that was at `old`.
    pub fn map(&self, old: usize) -> usize {
        self.new_pc.get(old).or(self.new_pc.last()).map_or(old, |&p| p as usize)
    }

    /// Follows a further compaction.
    fn then(&mut self, next: &[u32]) {
        let end = next.last().copied().unwrap_or(0);
        for p in self.new_pc.iter_mut() {
            *p = next.get(*p as usize).copied().unwrap_or(end);
        }
    }
}

/// Runs the pass; returns where the instructions went (for positions kept outside the
/// function, such as a state machine's body start).
pub fn optimize(f: Code<'_>, meta: &Metadata) -> Positions {
    let mut f = f;
    let mut positions = Positions::identity(f.code.len());
    for _ in 0..ROUNDS {
        let deleted = rewrite_once(&mut f, meta);
        if !deleted.iter().any(|&d| d) {
            break;
        }
        positions.then(&compact(&mut f, &deleted));
    }
    positions
}

/// One sweep of rewrites over non-overlapping instruction ranges; returns the deleted
/// instructions.
fn rewrite_once(f: &mut Code<'_>, meta: &Metadata) -> Vec<bool> {
    let n = f.code.len();
    let mut deleted = vec![false; n];
    let targets = jump_targets(f);
    let live = Liveness::compute(&f.view(), meta);
    let mut i = 0;
    while i < n {
        if let Op::Move { dst, src } = f.code[i] {
            if dst == src {
                deleted[i] = true;
                i += 1;
                continue;
            }
        }
        if pure_dst(&f.code[i]).is_some_and(|d| !live.is_live_out(i, d)) {
            deleted[i] = true;
            i += 1;
            continue;
        }
        if let Some(next) = retarget(f, &live, &targets, i).or_else(|| forward(f, meta, &live, &targets, i)) {
            deleted[next.gone] = true;
            i = next.resume;
        } else {
            i += 1;
        }
    }
    deleted
}

/// A rewrite done: the instruction it made redundant, and where the sweep goes on.
struct Rewrite {
    gone: usize,
    resume: usize,
}

/// `X -> rT; Move rV <- rT` with `rT` dead afterwards: `X -> rV`.
fn retarget(f: &mut Code<'_>, live: &Liveness, targets: &[bool], i: usize) -> Option<Rewrite> {
    let Some(&Op::Move { dst: rv, src: rt }) = f.code.get(i + 1) else { return None };
    if targets[i + 1] || rv == rt || simple_dst(&f.code[i]) != Some(rt) || live.is_live_out(i + 1, rt) {
        return None;
    }
    set_dst(&mut f.code[i], rv);
    Some(Rewrite { gone: i + 1, resume: i + 2 })
}

/// How far a copy is followed to its reader.
const FORWARD_WINDOW: usize = 6;

/// `Move rT <- rX; ...; Y(rT)` with `rT` dead after `Y`, and neither register touched in
/// between: `...; Y(rX)`.
fn forward(f: &mut Code<'_>, meta: &Metadata, live: &Liveness, targets: &[bool], i: usize) -> Option<Rewrite> {
    let Op::Move { dst: rt, src: rx } = f.code[i] else { return None };
    let last = (i + FORWARD_WINDOW).min(f.code.len().saturating_sub(1));
    for k in i + 1..=last {
        if targets[k] || live.is_read_if_thrown(k, rt) {
            return None;
        }
        let op = f.code[k];
        if registers_read(&f.view(), meta, k).contains(&rt) {
            let dead_after = !live.is_live_out(k, rt) || simple_dst(&op) == Some(rt);
            let mut y = op;
            if !dead_after || !replace_reads(&mut y, rt, rx) {
                return None;
            }
            f.code[k] = y;
            return Some(Rewrite { gone: i, resume: k + 1 });
        }
        if !is_plain(&op) || simple_dst(&op).is_some_and(|d| d == rt || d == rx) {
            return None;
        }
    }
    None
}

/// The destination of an instruction with no effect but writing it (and no way to throw):
/// a dead one can go. A generic method's context is computed in its prologue whether or
/// not the body reads it; unread, it goes too.
fn pure_dst(op: &Op) -> Option<Reg> {
    match *op {
        Op::Move { .. }
        | Op::LoadNull { .. }
        | Op::LoadBool { .. }
        | Op::LoadI32 { .. }
        | Op::LoadConst { .. }
        | Op::LoadType { .. }
        | Op::ResolveType { .. } => simple_dst(op),
        Op::ContextFromThis { dst, .. } => Some(dst),
        _ => None,
    }
}

/// Straight-line instructions that change no register but their destination (no calls,
/// whose frames reuse the registers above their base; no control flow).
fn is_plain(op: &Op) -> bool {
    let call = matches!(
        op,
        Op::Call { .. }
            | Op::CallChecked { .. }
            | Op::CallFastPath { .. }
            | Op::CallVirt { .. }
            | Op::CallInterface { .. }
            | Op::CallStaticVirt { .. }
            | Op::CallNative { .. }
            | Op::CallDelegate { .. }
            | Op::MakeGenerator { .. }
    );
    let store = matches!(
        op,
        Op::StoreField { .. } | Op::StoreElem { .. } | Op::StoreElemChecked { .. } | Op::StoreStatic { .. } | Op::StoreStaticDyn { .. } | Op::StoreRef { .. }
    );
    store || (simple_dst(op).is_some() && !call)
}

/// Removes deleted instructions and remaps every code position; returns the new position
/// of each old one.
fn compact(f: &mut Code<'_>, deleted: &[bool]) -> Vec<u32> {
    let n = f.code.len();
    let mut new_index = Vec::with_capacity(n + 1);
    let mut next = 0u32;
    for &d in deleted {
        new_index.push(next);
        next += u32::from(!d);
    }
    new_index.push(next);
    let map = |t: Target| Target(new_index.get(t.0 as usize).copied().unwrap_or(next));
    let mut kept = Vec::with_capacity(next as usize);
    for (i, op) in f.code.iter().enumerate() {
        if deleted[i] {
            continue;
        }
        let mut op = *op;
        if let Some(t) = op.jump_target_mut() {
            *t = map(*t);
        }
        kept.push(op);
    }
    *f.code = kept;
    for h in f.handlers.iter_mut() {
        h.start = map(h.start);
        h.end = map(h.end);
        h.entry = map(h.entry);
        if let HandlerKind::Filter { filter, .. } = &mut h.kind {
            *filter = map(*filter);
        }
    }
    for t in f.tables.iter_mut() {
        for target in t.targets.iter_mut() {
            *target = map(*target);
        }
    }
    remap_spans(f.spans, &new_index);
    new_index
}

/// Span entries move with their instruction; entries left on the same position keep the
/// last one (the span of the first surviving instruction after a deleted one).
fn remap_spans(spans: &mut Vec<(u32, Span)>, new_index: &[u32]) {
    let last = new_index.last().copied().unwrap_or(0);
    let mut out: Vec<(u32, Span)> = Vec::with_capacity(spans.len());
    for &(pc, span) in spans.iter() {
        let at = new_index.get(pc as usize).copied().unwrap_or(last);
        match out.last_mut() {
            Some(prev) if prev.0 == at => prev.1 = span,
            _ => out.push((at, span)),
        }
    }
    *spans = out;
}

/// Instructions control reaches other than by falling through.
fn jump_targets(f: &Code<'_>) -> Vec<bool> {
    let n = f.code.len();
    let mut t = vec![false; n + 1];
    let mut mark = |x: Target| {
        if let Some(slot) = t.get_mut(x.0 as usize) {
            *slot = true;
        }
    };
    for op in f.code.iter() {
        if let Some(x) = op.jump_target() {
            mark(x);
        }
    }
    for table in f.tables.iter() {
        table.targets.iter().for_each(|&x| mark(x));
    }
    for h in f.handlers.iter() {
        mark(h.entry);
        if let HandlerKind::Filter { filter, .. } = h.kind {
            mark(filter);
        }
    }
    t
}

/// The single register an instruction writes, for instructions that read all their
/// operands before writing it and do not read it (the only ones whose destination the
/// pass may change).
fn simple_dst(op: &Op) -> Option<Reg> {
    let mut copy = *op;
    simple_dst_mut(&mut copy).copied()
}

/// Where [`simple_dst`]'s register is held in the instruction.
fn simple_dst_mut(op: &mut Op) -> Option<&mut Reg> {
    match op {
        Op::Move { dst, .. }
        | Op::LoadNull { dst }
        | Op::LoadBool { dst, .. }
        | Op::LoadI32 { dst, .. }
        | Op::LoadConst { dst, .. }
        | Op::LoadType { dst, .. }
        | Op::ResolveType { dst, .. }
        | Op::MakeContext { dst, .. }
        | Op::Add { dst, .. }
        | Op::Sub { dst, .. }
        | Op::Mul { dst, .. }
        | Op::Div { dst, .. }
        | Op::Rem { dst, .. }
        | Op::AddChecked { dst, .. }
        | Op::SubChecked { dst, .. }
        | Op::MulChecked { dst, .. }
        | Op::Neg { dst, .. }
        | Op::NegChecked { dst, .. }
        | Op::AddI32Imm { dst, .. }
        | Op::BitAnd { dst, .. }
        | Op::BitOr { dst, .. }
        | Op::BitXor { dst, .. }
        | Op::BitNot { dst, .. }
        | Op::Shl { dst, .. }
        | Op::Shr { dst, .. }
        | Op::UShr { dst, .. }
        | Op::Not { dst, .. }
        | Op::Eq { dst, .. }
        | Op::Ne { dst, .. }
        | Op::Lt { dst, .. }
        | Op::Le { dst, .. }
        | Op::Gt { dst, .. }
        | Op::Ge { dst, .. }
        | Op::Convert { dst, .. }
        | Op::ConvertChecked { dst, .. }
        | Op::New { dst, .. }
        | Op::NewDyn { dst, .. }
        | Op::LoadField { dst, .. }
        | Op::LoadStatic { dst, .. }
        | Op::LoadStaticDyn { dst, .. }
        | Op::CopyStruct { dst, .. }
        | Op::NewArray { dst, .. }
        | Op::NewArrayDyn { dst, .. }
        | Op::NewArrayMulti { dst, .. }
        | Op::NewArrayMultiDyn { dst, .. }
        | Op::LoadElem { dst, .. }
        | Op::LoadElemMulti { dst, .. }
        | Op::ElemIndex { dst, .. }
        | Op::ArrayLength { dst, .. }
        | Op::MakeRefField { dst, .. }
        | Op::MakeRefElem { dst, .. }
        | Op::MakeRefStatic { dst, .. }
        | Op::MakeRefStaticDyn { dst, .. }
        | Op::LoadRef { dst, .. }
        | Op::Concat { dst, .. }
        | Op::FormatValue { dst, .. }
        | Op::Call { dst, .. }
        | Op::CallChecked { dst, .. }
        | Op::CallFastPath { dst, .. }
        | Op::CallVirt { dst, .. }
        | Op::CallInterface { dst, .. }
        | Op::CallStaticVirt { dst, .. }
        | Op::CallNative { dst, .. }
        | Op::CallDelegate { dst, .. }
        | Op::TypeTest { dst, .. }
        | Op::TypeTestDyn { dst, .. }
        | Op::IsInst { dst, .. }
        | Op::CastClass { dst, .. }
        | Op::CastClassDyn { dst, .. }
        | Op::Box { dst, .. }
        | Op::BoxDyn { dst, .. }
        | Op::ObjectView { dst, .. }
        | Op::ObjectViewDyn { dst, .. }
        | Op::TagEnumDyn { dst, .. }
        | Op::Unbox { dst, .. }
        | Op::DefaultDyn { dst, .. }
        | Op::MakeGenerator { dst, .. } => Some(dst),
        _ => None,
    }
}

fn set_dst(op: &mut Op, r: Reg) {
    if let Some(dst) = simple_dst_mut(op) {
        *dst = r;
    }
}

/// Rewrites every read of `from` in `op` to read `to`. Returns `false` for the
/// instructions it does not list: those read through a register range or an implied
/// operand (a call's arguments, a delegate's own register), which cannot be redirected.
fn replace_reads(op: &mut Op, from: Reg, to: Reg) -> bool {
    let swap = |r: &mut Reg| {
        if *r == from {
            *r = to;
        }
    };
    match op {
        Op::Move { src, .. }
        | Op::Neg { src, .. }
        | Op::NegChecked { src, .. }
        | Op::AddI32Imm { src, .. }
        | Op::BitNot { src, .. }
        | Op::Not { src, .. }
        | Op::Convert { src, .. }
        | Op::ConvertChecked { src, .. }
        | Op::CopyStruct { src, .. }
        | Op::StoreStatic { src, .. }
        | Op::FormatValue { src, .. }
        | Op::TypeTest { src, .. }
        | Op::IsInst { src, .. }
        | Op::CastClass { src, .. }
        | Op::Box { src, .. }
        | Op::ObjectView { src, .. }
        | Op::Unbox { src, .. }
        | Op::Throw { src }
        | Op::Rethrow { src }
        | Op::NullCheck { src }
        | Op::Return { src }
        | Op::JumpIfNull { src, .. }
        | Op::JumpIfNotNull { src, .. }
        | Op::Switch { src, .. } => swap(src),
        Op::Add { a, b, .. }
        | Op::Sub { a, b, .. }
        | Op::Mul { a, b, .. }
        | Op::Div { a, b, .. }
        | Op::Rem { a, b, .. }
        | Op::AddChecked { a, b, .. }
        | Op::SubChecked { a, b, .. }
        | Op::MulChecked { a, b, .. }
        | Op::BitAnd { a, b, .. }
        | Op::BitOr { a, b, .. }
        | Op::BitXor { a, b, .. }
        | Op::Shl { a, b, .. }
        | Op::Shr { a, b, .. }
        | Op::UShr { a, b, .. }
        | Op::Eq { a, b, .. }
        | Op::Ne { a, b, .. }
        | Op::Lt { a, b, .. }
        | Op::Le { a, b, .. }
        | Op::Gt { a, b, .. }
        | Op::Ge { a, b, .. }
        | Op::JumpIfLt { a, b, .. }
        | Op::JumpIfLe { a, b, .. }
        | Op::JumpIfGt { a, b, .. }
        | Op::JumpIfGe { a, b, .. }
        | Op::JumpIfEq { a, b, .. }
        | Op::JumpIfNe { a, b, .. } => {
            swap(a);
            swap(b);
        }
        Op::JumpIfTrue { cond, .. } | Op::JumpIfFalse { cond, .. } => swap(cond),
        Op::LoadField { obj, .. } | Op::MakeRefField { obj, .. } => swap(obj),
        Op::StoreField { obj, src, .. } => {
            swap(obj);
            swap(src);
        }
        Op::LoadElem { arr, index, .. } | Op::MakeRefElem { arr, index, .. } => {
            swap(arr);
            swap(index);
        }
        Op::StoreElem { arr, index, src } | Op::StoreElemChecked { arr, index, src } => {
            swap(arr);
            swap(index);
            swap(src);
        }
        Op::ArrayLength { arr, .. } | Op::CheckElemTypeExact { arr, .. } => swap(arr),
        Op::LoadRef { r, .. } => swap(r),
        Op::StoreRef { r, src } => {
            swap(r);
            swap(src);
        }
        Op::NewArray { len, .. } => swap(len),
        Op::NewArrayDyn { ty, len, .. } => {
            swap(ty);
            swap(len);
        }
        Op::ResolveType { ctx, .. } => swap(ctx),
        Op::NewDyn { ty, .. } | Op::DefaultDyn { ty, .. } => swap(ty),
        Op::LoadStaticDyn { ty, .. } | Op::MakeRefStaticDyn { ty, .. } => swap(ty),
        Op::StoreStaticDyn { ty, src, .. } => {
            swap(ty);
            swap(src);
        }
        Op::TypeTestDyn { src, ty, .. }
        | Op::CastClassDyn { src, ty, .. }
        | Op::BoxDyn { src, ty, .. }
        | Op::ObjectViewDyn { src, ty, .. }
        | Op::TagEnumDyn { src, ty, .. } => {
            swap(src);
            swap(ty);
        }
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::NativeId;

    fn run(code: Vec<Op>, num_regs: u16) -> Vec<Op> {
        let mut code = code;
        let (mut handlers, mut tables, mut spans) = (Vec::new(), Vec::new(), Vec::new());
        optimize(Code { code: &mut code, handlers: &mut handlers, tables: &mut tables, spans: &mut spans, num_regs, num_args: 0 }, &Metadata::empty());
        code
    }

    #[test]
    fn call_result_goes_straight_to_the_local() {
        let code =
            vec![Op::CallNative { native: NativeId(1), base: Reg(3), argc: 1, dst: Reg(3) }, Op::Move { dst: Reg(2), src: Reg(3) }, Op::Return { src: Reg(2) }];
        assert_eq!(run(code, 4), vec![Op::CallNative { native: NativeId(1), base: Reg(3), argc: 1, dst: Reg(2) }, Op::Return { src: Reg(2) }]);
    }

    #[test]
    fn a_copy_read_once_is_forwarded() {
        let code = vec![Op::Move { dst: Reg(3), src: Reg(2) }, Op::AddI32Imm { dst: Reg(2), src: Reg(3), imm: 1 }, Op::Jump { target: Target(0) }];
        assert_eq!(run(code, 4), vec![Op::AddI32Imm { dst: Reg(2), src: Reg(2), imm: 1 }, Op::Jump { target: Target(0) }]);
    }

    #[test]
    fn a_value_still_needed_is_kept() {
        let code = vec![
            Op::LoadI32 { dst: Reg(1), value: 5 },
            Op::Move { dst: Reg(0), src: Reg(1) },
            Op::Add { dst: Reg(2), a: Reg(0), b: Reg(1) },
            Op::Add { dst: Reg(3), a: Reg(2), b: Reg(0) },
            Op::Return { src: Reg(3) },
        ];
        assert_eq!(run(code.clone(), 4), code);
    }

    #[test]
    fn a_dead_constant_is_dropped() {
        let code = vec![Op::LoadI32 { dst: Reg(1), value: 5 }, Op::ReturnVoid];
        assert_eq!(run(code, 2), vec![Op::ReturnVoid]);
    }

    #[test]
    fn a_jump_target_is_not_merged_and_targets_are_remapped() {
        let code = vec![
            Op::LoadI32 { dst: Reg(2), value: 0 },
            Op::Jump { target: Target(4) },
            Op::Move { dst: Reg(3), src: Reg(2) },
            Op::AddI32Imm { dst: Reg(2), src: Reg(3), imm: 1 },
            Op::JumpIfLt { a: Reg(2), b: Reg(0), target: Target(2) },
            Op::Return { src: Reg(2) },
        ];
        let out = run(code, 4);
        assert_eq!(out[1], Op::Jump { target: Target(3) });
        assert_eq!(out[2], Op::AddI32Imm { dst: Reg(2), src: Reg(2), imm: 1 });
        assert_eq!(out[3], Op::JumpIfLt { a: Reg(2), b: Reg(0), target: Target(2) });
    }

    #[test]
    fn a_handler_reading_the_copy_keeps_it() {
        let code = vec![
            Op::Move { dst: Reg(3), src: Reg(2) },
            Op::LoadField { dst: Reg(1), obj: Reg(3), slot: 0 },
            Op::Return { src: Reg(1) },
            Op::Return { src: Reg(3) },
        ];
        let mut c = code.clone();
        let mut handlers = vec![Handler { start: Target(1), end: Target(2), kind: HandlerKind::Finally, entry: Target(3), reg: Reg(0) }];
        let (mut tables, mut spans) = (Vec::new(), Vec::new());
        optimize(Code { code: &mut c, handlers: &mut handlers, tables: &mut tables, spans: &mut spans, num_regs: 4, num_args: 0 }, &Metadata::empty());
        assert_eq!(c, code);
    }
}
