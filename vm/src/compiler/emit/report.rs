//! What the emitter decided for each user async method, kept for `vm lower` when
//! [`CompileOptions::record_lowering`](crate::compiler::CompileOptions) asks: the bound
//! tree the code came from, the register of each local, which `await` became which
//! suspension site, and which expression each register was last evaluated from (what a
//! spilled temporary holds). Expressions are named by their position in a walk of the
//! bound tree ([`ExpressionIndex`]), so the facts still apply to a clone of the tree.

use grammar::span::Span;
use hashbrown::HashMap;

pub use super::closures::walk_stmt_exprs as walk_exprs;
use super::{Compiler, FnBuilder, MethodShared};
use crate::bytecode::liveness::registers_written;
use crate::bytecode::{Function, Reg};
use crate::compiler::bound::{AwaitParts, BExpr, BKind, BStmt, BoundBody, LocalId, LocalInfo};
use crate::compiler::{Lowering, LoweringSource};
use crate::metadata::{Metadata, MethodId, TypeDefId, TypeId};

/// One async method as the emitter lowered it.
#[derive(Clone, Debug)]
pub struct LoweringReport {
    pub method: MethodId,
    pub lowering: Lowering,
    pub source: LoweringSource,
    /// The bound body (parameters included) the code was emitted from.
    pub body: BoundBody,
    /// The locals of the method (all its functions').
    pub locals: Vec<LocalInfo>,
    /// The methods of its lambdas and local functions, by `NestedId`.
    pub nested: Vec<MethodId>,
    /// The method holding the code with the awaits: the state machine's `MoveNext`
    /// (classic) or the async body (runtime).
    pub code_method: MethodId,
    /// The classic lowering's state machine `<M>d__N`.
    pub state_machine: Option<TypeDefId>,
    pub facts: CodeFacts,
}

/// Where things live in the code with the awaits.
#[derive(Clone, Debug, Default)]
pub struct CodeFacts {
    /// The register of each local that has one, by register.
    pub registers: Vec<(Reg, LocalId)>,
    pub this_reg: Option<Reg>,
    /// The hidden generic-context argument (generic methods and their types).
    pub context_reg: Option<Reg>,
    /// Registers holding closure displays at some await, with the display class's name.
    pub displays: Vec<(Reg, String)>,
    /// Where `return` leaves the value: `MoveNext`'s `result`, or the register a return
    /// through a `finally` waits in.
    pub return_reg: Option<Reg>,
    /// The `await` expression of each suspension site, in site order.
    pub awaits: Vec<u32>,
    /// Expressions evaluated into registers, in the order their code was emitted.
    pub values: Vec<ValueNote>,
}

/// The value of expression `expr` (of type `ty`) is in `reg` from instruction `pc` on.
#[derive(Clone, Copy, Debug)]
pub struct ValueNote {
    pub pc: u32,
    pub reg: Reg,
    pub expr: u32,
    pub ty: TypeId,
}

impl CodeFacts {
    /// The closure display class whose instance `r` holds at the awaits.
    pub fn display_in(&self, r: Reg) -> Option<&str> {
        self.displays.iter().find(|(x, _)| *x == r).map(|(_, n)| n.as_str())
    }

    /// The local whose register is `r`.
    pub fn local_in(&self, r: Reg) -> Option<LocalId> {
        self.registers.iter().find(|(x, _)| *x == r).map(|&(_, l)| l)
    }

    /// The register of local `l`.
    pub fn register_of(&self, l: LocalId) -> Option<Reg> {
        self.registers.iter().find(|(_, x)| *x == l).map(|&(r, _)| r)
    }

    /// The expression whose value `r` holds at `pc` of `f`: the last one evaluated into
    /// it, if no instruction wrote `r` since.
    pub fn value_in(&self, r: Reg, pc: u32, f: &Function, meta: &Metadata) -> Option<ValueNote> {
        let note = self.values.iter().rev().find(|n| n.reg == r && n.pc <= pc).copied()?;
        let overwritten = (note.pc..pc).any(|at| registers_written(f, meta, at as usize).contains(&r));
        (!overwritten).then_some(note)
    }

    /// The suspension site of the `await` expression `expr`.
    pub fn site_of(&self, expr: u32) -> Option<usize> {
        self.awaits.iter().position(|&a| a == expr)
    }
}

/// The position of every expression of a bound tree in a fixed walk of it, found by
/// address (the tree must not move while the index is used), with what `vm lower` reads
/// of each by position.
pub struct ExpressionIndex {
    exprs: HashMap<usize, u32>,
    awaits: HashMap<usize, u32>,
    /// Source span and type of each expression, by position.
    shapes: Vec<(Span, TypeId)>,
    /// The `await`s, in tree order.
    await_list: Vec<AwaitShape>,
}

/// What an `await` is, beyond its expression's span and type.
#[derive(Clone, Copy, Debug)]
pub struct AwaitShape {
    pub expr: u32,
    pub awaiter: TypeId,
    /// The method the awaited expression calls, if it is a call.
    pub callee: Option<MethodId>,
}

impl ExpressionIndex {
    pub fn of(body: &BStmt) -> ExpressionIndex {
        let mut index = ExpressionIndex { exprs: HashMap::new(), awaits: HashMap::new(), shapes: Vec::new(), await_list: Vec::new() };
        walk_exprs(body, &mut |e| {
            let position = index.shapes.len() as u32;
            index.exprs.insert(address(e), position);
            index.shapes.push((e.span, e.ty));
            if let BKind::Await(parts) = &e.kind {
                index.awaits.insert(address(&**parts), position);
                let callee = match &parts.operand.kind {
                    BKind::Call { method, .. } => Some(*method),
                    _ => None,
                };
                index.await_list.push(AwaitShape { expr: position, awaiter: parts.get_awaiter.ty, callee });
            }
        });
        index
    }

    /// The position of `e`, if it belongs to the tree.
    pub fn get(&self, e: &BExpr) -> Option<u32> {
        self.exprs.get(&address(e)).copied()
    }

    /// The span and type of the expression at `position`.
    pub fn shape(&self, position: u32) -> Option<(Span, TypeId)> {
        self.shapes.get(position as usize).copied()
    }

    /// The `await` at `position`.
    pub fn await_at(&self, position: u32) -> Option<AwaitShape> {
        self.await_list.iter().find(|a| a.expr == position).copied()
    }

    /// The `await`s, in tree order.
    pub fn awaits(&self) -> &[AwaitShape] {
        &self.await_list
    }

    fn await_of(&self, parts: usize) -> Option<u32> {
        self.awaits.get(&parts).copied()
    }
}

/// An identity for a node while its tree stays in place.
fn address<T>(x: &T) -> usize {
    x as *const T as usize
}

/// What the emitter noted while emitting one function, by node address.
#[derive(Default)]
pub struct EmitNotes {
    awaits: Vec<usize>,
    values: Vec<(u32, Reg, usize, TypeId)>,
    registers: Vec<(Reg, LocalId)>,
    this_reg: Option<Reg>,
    context_reg: Option<Reg>,
    return_reg: Option<Reg>,
    displays: Vec<(Reg, String)>,
}

impl EmitNotes {
    /// The notes with their instruction positions moved where the peephole pass put them.
    pub(super) fn moved(mut self, positions: &super::peephole::Positions) -> EmitNotes {
        for (pc, ..) in &mut self.values {
            *pc = positions.map(*pc as usize) as u32;
        }
        self
    }

    /// The facts, with expressions named by their position in `emitted`, the tree the
    /// code was emitted from.
    fn resolve(self, emitted: &BStmt) -> CodeFacts {
        let index = ExpressionIndex::of(emitted);
        let awaits = self.awaits.iter().filter_map(|&a| index.await_of(a)).collect();
        let values = self.values.iter().filter_map(|&(pc, reg, e, ty)| index.exprs.get(&e).map(|&expr| ValueNote { pc, reg, expr, ty })).collect();
        let mut registers = self.registers;
        registers.sort();
        CodeFacts { registers, this_reg: self.this_reg, context_reg: self.context_reg, return_reg: self.return_reg, displays: self.displays, awaits, values }
    }
}

impl FnBuilder<'_> {
    /// Starts taking notes if the compilation keeps lowering reports.
    pub(super) fn start_notes(&mut self) {
        if self.c.options.record_lowering {
            self.notes = Some(EmitNotes::default());
        }
    }

    /// `e` was just evaluated into `dst`.
    pub fn note_value(&mut self, e: &BExpr, dst: Reg) {
        let pc = self.pc();
        if let Some(n) = &mut self.notes {
            n.values.push((pc, dst, address(e), e.ty));
        }
    }

    /// The next suspension site is the `await` with these parts.
    pub fn note_await(&mut self, parts: &AwaitParts) {
        let Some(n) = &mut self.notes else { return };
        n.awaits.push(address(parts));
        for &(d, r) in &self.display_regs {
            let name = &self.c.meta.type_def(self.shared.displays[d.0 as usize].def).name;
            if !n.displays.iter().any(|(x, _)| *x == r) {
                n.displays.push((r, name.clone()));
            }
        }
    }

    /// The notes, completed with where the locals ended up.
    pub(super) fn take_notes(&mut self) -> Option<EmitNotes> {
        let mut notes = self.notes.take()?;
        notes.registers = self.local_regs.iter().map(|(&l, &r)| (r, l)).collect();
        notes.this_reg = self.this_reg;
        notes.context_reg = self.ctx_reg;
        notes.return_reg = self.classic.as_ref().and_then(|c| c.result).or(self.ret_reg);
        Some(notes)
    }
}

/// How one async method was lowered, for [`Compiler::record_lowering`].
pub(super) struct Lowered<'a> {
    pub method: MethodId,
    pub body: &'a BoundBody,
    /// The tree the code was emitted from (a clone of `body.body` for `MoveNext`).
    pub emitted: &'a BStmt,
    /// The method's locals and nested functions.
    pub shared: &'a MethodShared,
    pub code_method: MethodId,
    pub state_machine: Option<TypeDefId>,
    /// An async iterator's (always the classic state machine).
    pub async_iterator: bool,
}

impl Compiler {
    /// Keeps the report of a user async method (if notes were taken).
    pub(super) fn record_lowering(&mut self, lowered: Lowered<'_>, notes: Option<EmitNotes>) {
        let Some(notes) = notes else { return };
        if self.is_library(self.meta.method(lowered.method).file) {
            return;
        }
        let (lowering, source) = if lowered.async_iterator {
            (super::super::Lowering::Classic, super::super::LoweringSource::AsyncIterator)
        } else {
            self.lowering_choice(lowered.method)
        };
        self.lowering_reports.push(LoweringReport {
            method: lowered.method,
            lowering,
            source,
            body: lowered.body.clone(),
            locals: lowered.shared.locals.clone(),
            nested: lowered.shared.nested.iter().map(|n| n.method).collect(),
            code_method: lowered.code_method,
            state_machine: lowered.state_machine,
            facts: notes.resolve(lowered.emitted),
        });
    }
}
