//! Register liveness over bytecode, and the suspension sites it serves: where a
//! runtime-async frame can be saved into a continuation and which registers that
//! continuation must keep (those a later instruction, or an exception handler, may read).
//! The peephole pass uses the same analysis on a function still being built.
//!
//! A standard backward data-flow: `live_in(pc) = uses(pc) ∪ (live_out(pc) − defs(pc)) ∪
//! handlers(pc)`, where `live_out` joins the successors' `live_in`. Exception edges join the
//! handler's live registers into `live_in` directly, not through `defs`: an instruction
//! that throws has not written its destination.

use std::rc::Rc;

use super::function::{Function, Handler, HandlerKind, JumpTable};
use super::opcode::{Op, Reg};
use crate::metadata::{Metadata, MethodId, MethodKind};

/// The parts of a function the analysis reads: a finished [`Function`] provides them, and
/// so does the compiler for a function it is still building.
#[derive(Clone, Copy)]
pub struct CodeView<'a> {
    pub code: &'a [Op],
    pub handlers: &'a [Handler],
    pub tables: &'a [JumpTable],
    pub stage: Stage<'a>,
    pub num_regs: u16,
    pub num_args: u16,
}

/// How far the function is built, which decides what some instructions are known to read.
#[derive(Clone, Copy)]
pub enum Stage<'a> {
    /// Still in the compiler (the peephole pass). It has no spill plans yet: a spill reads
    /// every register and a reload writes none. And the nested functions (lambdas, local
    /// functions) it calls are compiled after it, so their metadata does not yet say
    /// whether they take an environment: a call to one reads every register from its base.
    Building,
    /// A finished function, with its spill plans (`SpillToFields { plan }` saves
    /// `spills[plan]`).
    Built { spills: &'a [Vec<(Reg, u16)>] },
}

impl<'a> From<&'a Function> for CodeView<'a> {
    fn from(f: &'a Function) -> CodeView<'a> {
        let stage = Stage::Built { spills: &f.spills };
        CodeView { code: &f.code, handlers: &f.handlers, tables: &f.tables, stage, num_regs: f.num_regs, num_args: f.num_args }
    }
}

impl CodeView<'_> {
    /// How many registers from its base a call to `m` reads.
    fn call_arity(&self, meta: &Metadata, m: MethodId) -> usize {
        let nested = matches!(meta.method(m).kind, MethodKind::Lambda | MethodKind::LocalFunction);
        match self.stage {
            Stage::Building if nested => usize::from(self.num_regs),
            _ => meta.arg_count(m),
        }
    }
}

/// Where a runtime-async frame can suspend: after an `AwaitSuspend`, or at a `CallAsync`
/// whose callee suspended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuspendSite {
    /// The instruction after the suspension: where the frame resumes.
    pub resume_pc: u32,
    /// The registers the continuation saves, ascending.
    pub live: Rc<[Reg]>,
    /// The site lies in a protected region (its continuation needs an exception slot).
    pub in_try: bool,
    /// For a `CallAsync` site: the register that receives the callee's result.
    pub result: Option<Reg>,
    /// For an `await` site: the register holding the awaiter.
    pub awaiter: Option<Reg>,
}

/// The suspension sites of `f`, ordered by `resume_pc`; empty if it never suspends.
pub fn suspend_sites(f: &Function, meta: &Metadata) -> Vec<SuspendSite> {
    let suspends = |op: &Op| matches!(op, Op::AwaitSuspend { .. } | Op::CallAsync { .. });
    if !f.code.iter().any(suspends) {
        return Vec::new();
    }
    let view = CodeView::from(f);
    let live = Liveness::compute(&view, meta);
    let written = written_before(&view, meta);
    let mut sites = Vec::new();
    for (pc, op) in f.code.iter().enumerate() {
        let (result, awaiter) = match *op {
            Op::AwaitSuspend { awaiter } => (None, Some(awaiter)),
            Op::CallAsync { dst, .. } => (Some(dst), None),
            _ => continue,
        };
        let mut set = live.live_out[pc].clone();
        set.union(&live.thrown(pc));
        set.intersect(&written[pc]);
        if let Some(dst) = result {
            set.remove(dst);
        }
        let in_try = handlers_covering(&view, pc).next().is_some();
        sites.push(SuspendSite { resume_pc: pc as u32 + 1, live: set.regs().collect(), in_try, result, awaiter });
    }
    sites
}

/// For a classic `MoveNext`: per await site (the `plan` of its `SpillToFields` /
/// `ReloadFromFields` pair), the registers that must survive the suspension in fields:
/// live after the reload, possibly written before the spill, and not set up by the
/// prologue (the instructions before `body_start`, which run again on every `MoveNext`).
///
/// A spill reads what its plan saves, so a register that reaches its next read only through
/// another suspension (an async iterator's `yield return` always suspends) is live across
/// the first one too: the plans are recomputed until they no longer grow.
pub fn registers_across_awaits(f: &Function, meta: &Metadata, body_start: usize) -> Vec<Vec<Reg>> {
    let mut plans: Vec<Vec<(Reg, u16)>> = Vec::new();
    loop {
        let sites = registers_across_awaits_given(f, meta, body_start, &plans);
        let grown: Vec<Vec<(Reg, u16)>> = sites.iter().map(|regs| regs.iter().map(|&r| (r, 0)).collect()).collect();
        if grown == plans {
            return sites;
        }
        plans = grown;
    }
}

/// One round of [`registers_across_awaits`], with the spills reading `plans`.
fn registers_across_awaits_given(f: &Function, meta: &Metadata, body_start: usize, plans: &[Vec<(Reg, u16)>]) -> Vec<Vec<Reg>> {
    let count = f.code.iter().filter(|op| matches!(op, Op::ReloadFromFields { .. })).count();
    let mut sites = vec![Vec::new(); count];
    if count == 0 {
        return sites;
    }
    let view = CodeView { stage: Stage::Built { spills: plans }, ..CodeView::from(f) };
    let live = Liveness::compute(&view, meta);
    let written = written_before(&view, meta);
    let mut prologue = RegSet::new(f.num_regs as usize);
    for r in 0..f.num_args {
        prologue.insert(Reg(r));
    }
    for op in f.code.iter().take(body_start) {
        for &d in &Effects::of(op, meta, &view).defs {
            prologue.insert(d);
        }
    }
    let spill_pc = |plan: u16| f.code.iter().position(|op| matches!(*op, Op::SpillToFields { plan: p, .. } if p == plan));
    for (pc, op) in f.code.iter().enumerate() {
        let Op::ReloadFromFields { plan, .. } = *op else { continue };
        let (Some(site), Some(spill)) = (sites.get_mut(plan as usize), spill_pc(plan)) else { continue };
        let mut set = live.live_out[pc].clone();
        set.intersect(&written[spill]);
        for r in prologue.regs() {
            set.remove(r);
        }
        *site = set.regs().collect();
    }
    sites
}

/// The registers instruction `pc` of `f` writes.
pub fn registers_written(f: &Function, meta: &Metadata, pc: usize) -> Vec<Reg> {
    f.code.get(pc).map(|op| Effects::of(op, meta, &CodeView::from(f)).defs).unwrap_or_default()
}

/// The registers instruction `pc` may read, through its operands, a register range or an
/// implied operand alike.
pub fn registers_read(f: &CodeView<'_>, meta: &Metadata, pc: usize) -> Vec<Reg> {
    f.code.get(pc).map(|op| Effects::of(op, meta, f).uses).unwrap_or_default()
}

/// Per instruction, the registers some path from the entry may have written before it
/// (arguments count as written). A register live at a suspension but never written on the
/// way there holds nothing worth saving (a conservative read, as `CallDelegate`'s).
fn written_before(f: &CodeView<'_>, meta: &Metadata) -> Vec<RegSet> {
    let n = f.code.len();
    let num_regs = f.num_regs as usize;
    let mut before = vec![RegSet::new(num_regs); n];
    if n == 0 {
        return before;
    }
    for r in 0..f.num_args {
        before[0].insert(Reg(r));
    }
    let effects: Vec<Effects> = f.code.iter().map(|op| Effects::of(op, meta, f)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for pc in 0..n {
            let mut after = before[pc].clone();
            for &d in &effects[pc].defs {
                after.insert(d);
            }
            for s in normal_successors(f, pc).into_iter().chain(handler_entries(f, pc).map(|(entry, _)| entry)) {
                if let Some(b) = before.get_mut(s) {
                    changed |= b.union(&after);
                }
            }
        }
    }
    before
}

/// The registers spill plan `plan` saves.
fn spilled(plans: &[Vec<(Reg, u16)>], plan: u16) -> impl Iterator<Item = Reg> + '_ {
    plans.get(plan as usize).into_iter().flatten().map(|&(r, _)| r)
}

/// A set of registers.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RegSet(Vec<u64>);

impl RegSet {
    fn new(num_regs: usize) -> RegSet {
        RegSet(vec![0; num_regs.div_ceil(64).max(1)])
    }

    fn insert(&mut self, r: Reg) {
        if let Some(w) = self.0.get_mut(r.0 as usize / 64) {
            *w |= 1 << (r.0 % 64);
        }
    }

    fn remove(&mut self, r: Reg) {
        if let Some(w) = self.0.get_mut(r.0 as usize / 64) {
            *w &= !(1 << (r.0 % 64));
        }
    }

    /// Adds `other`; reports whether anything was new.
    fn union(&mut self, other: &RegSet) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let merged = *a | *b;
            changed |= merged != *a;
            *a = merged;
        }
        changed
    }

    fn contains(&self, r: Reg) -> bool {
        self.0.get(r.0 as usize / 64).is_some_and(|w| w & (1 << (r.0 % 64)) != 0)
    }

    fn intersect(&mut self, other: &RegSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a &= *b;
        }
    }

    fn regs(&self) -> impl Iterator<Item = Reg> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| (0..64).filter(move |b| w & (1 << b) != 0).map(move |b| Reg((i * 64 + b) as u16)))
    }
}

/// The registers an instruction reads and writes.
struct Effects {
    uses: Vec<Reg>,
    defs: Vec<Reg>,
}

impl Effects {
    fn of(op: &Op, meta: &Metadata, f: &CodeView<'_>) -> Effects {
        let num_regs = f.num_regs;
        let mut e = Effects { uses: Vec::new(), defs: Vec::new() };
        let range = |from: Reg, n: usize| (from.0..num_regs).take(n).map(Reg);
        let to_end = |from: Reg| (from.0..num_regs).map(Reg);
        match *op {
            Op::Move { dst, src } | Op::Neg { dst, src } | Op::NegChecked { dst, src } | Op::AddI32Imm { dst, src, .. } => e.un(dst, src),
            Op::BitNot { dst, src } | Op::Not { dst, src } | Op::Convert { dst, src, .. } | Op::ConvertChecked { dst, src, .. } => e.un(dst, src),
            Op::CopyStruct { dst, src } | Op::FormatValue { dst, src, .. } | Op::TypeTest { dst, src, .. } | Op::IsInst { dst, src, .. } => e.un(dst, src),
            Op::CastClass { dst, src, .. } | Op::Box { dst, src, .. } | Op::ObjectView { dst, src, .. } | Op::Unbox { dst, src, .. } => e.un(dst, src),
            Op::LoadNull { dst } | Op::LoadBool { dst, .. } | Op::LoadI32 { dst, .. } | Op::LoadConst { dst, .. } | Op::LoadType { dst, .. } => {
                e.defs.push(dst)
            }
            Op::New { dst, .. } | Op::LoadStatic { dst, .. } | Op::MakeRefStatic { dst, .. } => e.defs.push(dst),
            Op::ResolveType { dst, ctx, .. } => e.un(dst, ctx),
            Op::ContextFromThis { dst, this, .. } => e.bin(dst, dst, this),
            Op::MakeContext { dst, class_ctx, args, count } => {
                e.uses.push(class_ctx);
                e.uses.extend(range(args, count as usize));
                e.defs.push(dst);
            }
            Op::Add { dst, a, b } | Op::Sub { dst, a, b } | Op::Mul { dst, a, b } | Op::Div { dst, a, b } | Op::Rem { dst, a, b } => e.bin(dst, a, b),
            Op::AddChecked { dst, a, b } | Op::SubChecked { dst, a, b } | Op::MulChecked { dst, a, b } => e.bin(dst, a, b),
            Op::BitAnd { dst, a, b } | Op::BitOr { dst, a, b } | Op::BitXor { dst, a, b } => e.bin(dst, a, b),
            Op::Shl { dst, a, b } | Op::Shr { dst, a, b } | Op::UShr { dst, a, b } => e.bin(dst, a, b),
            Op::Eq { dst, a, b } | Op::Ne { dst, a, b } | Op::Lt { dst, a, b } | Op::Le { dst, a, b } | Op::Gt { dst, a, b } | Op::Ge { dst, a, b } => {
                e.bin(dst, a, b)
            }
            Op::Jump { .. } | Op::ReturnVoid | Op::InitType { .. } => {}
            Op::JumpIfTrue { cond: r, .. } | Op::JumpIfFalse { cond: r, .. } | Op::JumpIfNull { src: r, .. } | Op::JumpIfNotNull { src: r, .. } => {
                e.uses.push(r)
            }
            Op::JumpIfLt { a, b, .. } | Op::JumpIfLe { a, b, .. } | Op::JumpIfGt { a, b, .. } | Op::JumpIfGe { a, b, .. } => e.uses.extend([a, b]),
            Op::JumpIfEq { a, b, .. } | Op::JumpIfNe { a, b, .. } => e.uses.extend([a, b]),
            Op::Switch { src: r, .. } | Op::Return { src: r } | Op::Throw { src: r } | Op::Rethrow { src: r } | Op::NullCheck { src: r } => e.uses.push(r),
            Op::EndFinally { pending: r, .. } | Op::EndFilter { cond: r } | Op::AwaitSuspend { awaiter: r } => e.uses.push(r),
            Op::StoreStatic { src, .. } => e.uses.push(src),
            Op::NewDyn { dst, ty } | Op::DefaultDyn { dst, ty } => e.un(dst, ty),
            Op::InitDyn { obj, base, ty } => {
                e.uses.extend([obj, ty]);
                e.defs.extend([obj, base]);
            }
            Op::LoadField { dst, obj, .. } | Op::MakeRefField { dst, obj, .. } => e.un(dst, obj),
            Op::StoreField { obj, src, .. } => e.uses.extend([obj, src]),
            Op::LoadStaticDyn { dst, ty, .. } | Op::MakeRefStaticDyn { dst, ty, .. } => e.un(dst, ty),
            Op::StoreStaticDyn { ty, src, .. } => e.uses.extend([ty, src]),
            Op::NewArray { dst, len, .. } => e.un(dst, len),
            Op::NewArrayDyn { dst, ty, len } => e.bin(dst, ty, len),
            Op::NewArrayMulti { dst, ty, dims } => {
                let rank = meta.types.array_elem(ty).map_or(num_regs as usize, |(_, rank)| rank as usize);
                e.uses.extend(range(dims, rank));
                e.defs.push(dst);
            }
            Op::NewArrayMultiDyn { dst, ty, dims, rank } => {
                e.uses.push(ty);
                e.uses.extend(range(dims, rank as usize));
                e.defs.push(dst);
            }
            Op::LoadElem { dst, arr, index } | Op::MakeRefElem { dst, arr, index } => e.bin(dst, arr, index),
            Op::CheckElemTypeExact { arr, .. } => e.uses.push(arr),
            Op::StoreElem { arr, index, src } | Op::StoreElemChecked { arr, index, src } => e.uses.extend([arr, index, src]),
            // The rank comes from the array at run time: every register from the indexes on.
            Op::LoadElemMulti { dst, arr, indexes } | Op::ElemIndex { dst, arr, indexes } => {
                e.uses.push(arr);
                e.uses.extend(to_end(indexes));
                e.defs.push(dst);
            }
            Op::StoreElemMulti { arr, indexes, src } => {
                e.uses.extend([arr, src]);
                e.uses.extend(to_end(indexes));
            }
            Op::ArrayLength { dst, arr } => e.un(dst, arr),
            Op::LoadRef { dst, r } => e.un(dst, r),
            Op::StoreRef { r, src } => e.uses.extend([r, src]),
            Op::Concat { dst, first, count } => {
                e.uses.extend(range(first, count as usize));
                e.defs.push(dst);
            }
            Op::Call { method, base, dst }
            | Op::CallChecked { method, base, dst }
            | Op::CallFastPath { method, base, dst }
            | Op::CallVirt { method, base, dst }
            | Op::CallAsync { method, base, dst } => {
                e.uses.extend(range(base, f.call_arity(meta, method)));
                e.defs.push(dst);
            }
            Op::CallStaticVirt { method, base, dst, ty } => {
                e.uses.extend(range(base, f.call_arity(meta, method)));
                e.uses.push(ty);
                e.defs.push(dst);
            }
            Op::CallInterface { method, base, dst, iface } => {
                e.uses.extend(range(base, f.call_arity(meta, method)));
                e.uses.push(iface);
                e.defs.push(dst);
            }
            Op::StartAsync { method, base, dst } => {
                e.uses.extend(range(base, f.call_arity(meta, method)));
                e.defs.extend([dst, Reg(dst.0 + 1)]);
            }
            Op::CallNative { base, argc, dst, .. } => {
                e.uses.extend(range(base, argc as usize));
                e.defs.push(dst);
            }
            // The delegate's arity is not in the instruction: every register from `base` on.
            Op::CallDelegate { base, dst } => {
                e.uses.extend(to_end(base));
                e.defs.push(dst);
            }
            Op::NewDelegate { dst, .. } | Op::NewDelegateVirt { dst, .. } => e.bin(dst, dst, dst),
            Op::SetDelegateContext { delegate, ctx } | Op::SetDelegateType { delegate, ty: ctx } => e.uses.extend([delegate, ctx]),
            Op::TypeTestDyn { dst, src, ty }
            | Op::CastClassDyn { dst, src, ty }
            | Op::BoxDyn { dst, src, ty }
            | Op::ObjectViewDyn { dst, src, ty }
            | Op::TagEnumDyn { dst, src, ty } => e.bin(dst, src, ty),
            Op::MakeGenerator { dst, ty, args, count, .. } => {
                e.uses.push(ty);
                e.uses.extend(range(args, count as usize));
                e.defs.push(dst);
            }
            Op::SpillToFields { obj, plan } => {
                e.uses.push(obj);
                match f.stage {
                    Stage::Building => e.uses.extend(to_end(Reg(0))),
                    Stage::Built { spills } => e.uses.extend(spilled(spills, plan)),
                }
            }
            Op::ReloadFromFields { obj, plan } => {
                e.uses.push(obj);
                if let Stage::Built { spills } = f.stage {
                    e.defs.extend(spilled(spills, plan));
                }
            }
            Op::YieldReturn { src, resume } => {
                e.uses.push(src);
                e.defs.push(resume);
            }
        }
        e
    }

    fn un(&mut self, dst: Reg, src: Reg) {
        self.uses.push(src);
        self.defs.push(dst);
    }

    fn bin(&mut self, dst: Reg, a: Reg, b: Reg) {
        self.uses.extend([a, b]);
        self.defs.push(dst);
    }
}

/// Per instruction, the registers possibly read after it completes normally, and those
/// the handlers (and filters) covering it may read if it throws.
pub struct Liveness {
    live_in: Vec<RegSet>,
    live_out: Vec<RegSet>,
    /// Per instruction, where an exception it throws may go (see [`handler_entries`]).
    catchers: Vec<Vec<(usize, Reg)>>,
    num_regs: usize,
}

impl Liveness {
    pub fn compute(f: &CodeView<'_>, meta: &Metadata) -> Liveness {
        let n = f.code.len();
        let num_regs = f.num_regs as usize;
        let effects: Vec<Effects> = f.code.iter().map(|op| Effects::of(op, meta, f)).collect();
        let successors: Vec<Vec<usize>> = (0..n).map(|pc| normal_successors(f, pc)).collect();
        let catchers: Vec<Vec<(usize, Reg)>> = (0..n).map(|pc| handler_entries(f, pc).collect()).collect();
        let mut live_in = vec![RegSet::new(num_regs); n];
        let mut live_out = vec![RegSet::new(num_regs); n];
        let mut set = RegSet::new(num_regs);
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..n).rev() {
                let out = &mut live_out[pc];
                for &s in &successors[pc] {
                    if let Some(l) = live_in.get(s) {
                        out.union(l);
                    }
                }
                set.clone_from(out);
                for &d in &effects[pc].defs {
                    set.remove(d);
                }
                for &u in &effects[pc].uses {
                    set.insert(u);
                }
                if !catchers[pc].is_empty() {
                    set.union(&caught(&live_in, &catchers[pc], num_regs));
                }
                changed |= live_in[pc].union(&set);
            }
        }
        Liveness { live_in, live_out, catchers, num_regs }
    }

    /// Whether `r` may be read after instruction `pc` completes normally.
    pub fn is_live_out(&self, pc: usize, r: Reg) -> bool {
        self.live_out.get(pc).is_some_and(|set| set.contains(r))
    }

    /// Whether a handler (or filter) may read `r` if instruction `pc` throws.
    pub fn is_read_if_thrown(&self, pc: usize, r: Reg) -> bool {
        let entries = self.catchers.get(pc).map_or(&[][..], Vec::as_slice);
        entries.iter().any(|&(entry, exception)| exception != r && self.live_in.get(entry).is_some_and(|l| l.contains(r)))
    }

    /// The registers a handler (or filter) may read if instruction `pc` throws.
    fn thrown(&self, pc: usize) -> RegSet {
        caught(&self.live_in, self.catchers.get(pc).map_or(&[][..], Vec::as_slice), self.num_regs)
    }
}

/// The registers the handler `entries` may read, less the register each receives the
/// exception in.
fn caught(live_in: &[RegSet], entries: &[(usize, Reg)], num_regs: usize) -> RegSet {
    let mut set = RegSet::new(num_regs);
    for &(entry, exception) in entries {
        if let Some(l) = live_in.get(entry) {
            let mut l = l.clone();
            l.remove(exception);
            set.union(&l);
        }
    }
    set
}

/// The handlers whose protected range holds `pc`.
fn handlers_covering<'a>(f: &CodeView<'a>, pc: usize) -> impl Iterator<Item = &'a Handler> + 'a {
    f.handlers.iter().filter(move |h| (h.start.0..h.end.0).contains(&(pc as u32)))
}

/// Where an exception thrown at `pc` may go: the entry (and filter) of each handler
/// covering it, with the register that receives the exception.
fn handler_entries<'a>(f: &CodeView<'a>, pc: usize) -> impl Iterator<Item = (usize, Reg)> + 'a {
    handlers_covering(f, pc).flat_map(|h| {
        let filter = match h.kind {
            HandlerKind::Filter { filter, .. } => Some(filter.0 as usize),
            _ => None,
        };
        std::iter::once(h.entry.0 as usize).chain(filter).map(move |entry| (entry, h.reg))
    })
}

/// The entry of the handler whose filter ends at `pc`: the handler runs after its filter,
/// in the same frame, and reads what the filter wrote (the catch variable).
fn filter_handler_entry(f: &CodeView<'_>, pc: usize) -> Option<usize> {
    f.handlers
        .iter()
        .filter_map(|h| match h.kind {
            HandlerKind::Filter { filter, .. } if filter.0 as usize <= pc => Some((filter.0, h.entry.0 as usize)),
            _ => None,
        })
        .max_by_key(|&(filter, _)| filter)
        .map(|(_, entry)| entry)
}

/// Where control can go after `pc` without an exception.
fn normal_successors(f: &CodeView<'_>, pc: usize) -> Vec<usize> {
    let op = &f.code[pc];
    let table = |t: u32| f.tables.get(t as usize).map(|t| t.targets.iter().map(|x| x.0 as usize).collect::<Vec<_>>()).unwrap_or_default();
    match *op {
        Op::Jump { target } => vec![target.0 as usize],
        Op::Return { .. } | Op::ReturnVoid | Op::Throw { .. } | Op::Rethrow { .. } => Vec::new(),
        Op::EndFilter { .. } => filter_handler_entry(f, pc).into_iter().collect(),
        Op::Switch { table: t, .. } | Op::EndFinally { table: t, .. } => {
            let mut v = table(t);
            v.push(pc + 1);
            v
        }
        _ => {
            let mut v = vec![pc + 1];
            v.extend(op.jump_target().map(|t| t.0 as usize));
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::function::{Handler, JumpTable};
    use crate::bytecode::Target;
    use crate::metadata::{FileId, MethodId};

    fn function(code: Vec<Op>, num_regs: u16, handlers: Vec<Handler>) -> Function {
        Function {
            method: MethodId(0),
            name: "t".into(),
            preemptible: true,
            chaos_points: false,
            code,
            consts: Vec::new(),
            pool: Vec::new(),
            num_regs,
            // Every register counts as an input (written before the code starts), so the
            // tests see liveness alone; `never_written_registers_are_not_saved` lowers it.
            num_args: num_regs,
            handlers,
            tables: Vec::<JumpTable>::new(),
            spills: Vec::new(),
            spans: Vec::new(),
            file: FileId(0),
        }
    }

    fn live_at_await(f: &Function) -> Vec<u16> {
        let sites = suspend_sites(f, &Metadata::empty());
        sites[0].live.iter().map(|r| r.0).collect()
    }

    #[test]
    fn only_registers_read_after_the_await_are_saved() {
        // r0 = 1; r1 = 2; r2 = r1 + r1; await r3; return r0
        let f = function(
            vec![
                Op::LoadI32 { dst: Reg(0), value: 1 },
                Op::LoadI32 { dst: Reg(1), value: 2 },
                Op::Add { dst: Reg(2), a: Reg(1), b: Reg(1) },
                Op::AwaitSuspend { awaiter: Reg(3) },
                Op::Return { src: Reg(0) },
            ],
            4,
            Vec::new(),
        );
        assert_eq!(live_at_await(&f), vec![0]);
    }

    #[test]
    fn a_register_overwritten_after_the_await_is_not_saved() {
        let f = function(
            vec![
                Op::LoadI32 { dst: Reg(0), value: 1 },
                Op::AwaitSuspend { awaiter: Reg(1) },
                Op::LoadI32 { dst: Reg(0), value: 2 },
                Op::Return { src: Reg(0) },
            ],
            2,
            Vec::new(),
        );
        assert_eq!(live_at_await(&f), Vec::<u16>::new());
    }

    #[test]
    fn loops_keep_their_carried_registers() {
        // r0 = 0; loop: await r1; r0 = r0 + 1; if r0 < r2 goto loop; return r0
        let f = function(
            vec![
                Op::LoadI32 { dst: Reg(0), value: 0 },
                Op::AwaitSuspend { awaiter: Reg(1) },
                Op::AddI32Imm { dst: Reg(0), src: Reg(0), imm: 1 },
                Op::JumpIfLt { a: Reg(0), b: Reg(2), target: Target(1) },
                Op::Return { src: Reg(0) },
            ],
            3,
            Vec::new(),
        );
        assert_eq!(live_at_await(&f), vec![0, 1, 2]);
    }

    #[test]
    fn never_written_registers_are_not_saved() {
        // r0 = 1; await r1; call a delegate reading "every register from r0 on"
        let mut f = function(
            vec![
                Op::LoadI32 { dst: Reg(0), value: 1 },
                Op::AwaitSuspend { awaiter: Reg(1) },
                Op::CallDelegate { base: Reg(0), dst: Reg(0) },
                Op::Return { src: Reg(0) },
            ],
            4,
            Vec::new(),
        );
        f.num_args = 0;
        assert_eq!(live_at_await(&f), vec![0]);
    }

    #[test]
    fn a_handler_keeps_what_it_reads_even_if_the_try_overwrites_it() {
        // r0 = 1; try { await r1; r0 = 5 (may throw before) } catch (r2) { return r0 }
        let f = function(
            vec![
                Op::LoadI32 { dst: Reg(0), value: 1 },
                Op::AwaitSuspend { awaiter: Reg(1) },
                Op::Div { dst: Reg(0), a: Reg(3), b: Reg(3) },
                Op::Return { src: Reg(0) },
                Op::Return { src: Reg(0) },
            ],
            4,
            vec![Handler { start: Target(1), end: Target(3), kind: HandlerKind::Finally, entry: Target(4), reg: Reg(2) }],
        );
        assert_eq!(live_at_await(&f), vec![0, 3]);
        assert!(suspend_sites(&f, &Metadata::empty())[0].in_try);
    }
}
