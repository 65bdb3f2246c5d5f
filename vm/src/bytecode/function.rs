//! A compiled function: its instructions, constant pool, exception-handler table, jump
//! tables, and the side table of source spans consulted only when something goes wrong.

use super::opcode::{Op, Reg, Target};
pub use crate::metadata::FunctionId;
use crate::metadata::{Constant, FileId, MethodId, TypeId};
use crate::value::Value;
use grammar::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandlerKind {
    /// `catch (T e)`: taken when the exception is a `T`.
    Catch(TypeId),
    /// `catch (T e) when (...)`: during the search for a handler the VM runs the filter
    /// code at `filter` (in a copy of the frame, exception in `reg`), which ends in
    /// `EndFilter`; if it yields `true` the handler is taken at `entry`.
    Filter { ty: TypeId, filter: super::opcode::Target },
    /// `finally`: entered with the exception in `reg`; the block ends with `EndFinally`.
    Finally,
}

/// One protected region. Handlers are listed innermost first; the interpreter takes the
/// first one whose range covers the faulting instruction and whose kind matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handler {
    /// First instruction of the protected range.
    pub start: Target,
    /// One past the last instruction of the protected range.
    pub end: Target,
    pub kind: HandlerKind,
    /// Where the handler code starts.
    pub entry: Target,
    /// The register that receives the exception.
    pub reg: Reg,
}

/// A constant-pool entry as the compiler writes it; the loader turns it into a [`Value`]
/// (allocating strings on the heap once).
#[derive(Clone, Debug, PartialEq)]
pub enum PoolEntry {
    Value(Value),
    Constant(Constant),
}

#[derive(Clone, Debug)]
pub struct Function {
    pub method: MethodId,
    /// A readable name for listings and traces (`Program.Main`, `<Main>b__0_0`).
    pub name: String,
    /// User code: its loops spend fuel, so the scheduler can switch threads there. The
    /// standard library's code is never interrupted, which makes its synchronization
    /// primitives simple (a thread only gives up the CPU where it parks).
    pub preemptible: bool,
    /// Schedule exploration (`--seed` other than 0, `--explore`): a preemptible function
    /// may also lose the CPU before a store to shared memory or a call, so a race between
    /// reading and writing a shared variable can show. Set when the VM loads the function.
    pub chaos_points: bool,
    pub code: Vec<Op>,
    /// The constant pool after loading (strings are heap references, pinned by the VM).
    pub consts: Vec<Value>,
    /// The constant pool as compiled (kept for the disassembler).
    pub pool: Vec<PoolEntry>,
    pub num_regs: u16,
    /// Registers that hold arguments (receiver, parameters, hidden generic context).
    pub num_args: u16,
    pub handlers: Vec<Handler>,
    /// Jump tables for `Switch` (index = value - low) and `EndFinally` (index = k).
    pub tables: Vec<JumpTable>,
    /// For a classic `MoveNext`: per await site, the `(register, field slot)` pairs its
    /// `SpillToFields` / `ReloadFromFields` move.
    pub spills: Vec<Vec<(Reg, u16)>>,
    /// `(first instruction, span)` pairs, sorted by instruction: the span of instruction
    /// `pc` is that of the last entry at or before `pc`.
    pub spans: Vec<(u32, Span)>,
    pub file: FileId,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JumpTable {
    pub low: i64,
    pub targets: Vec<Target>,
}

impl Function {
    /// The source span of the instruction at `pc` (cold path: errors and stack traces).
    #[cold]
    pub fn span_at(&self, pc: u32) -> Option<Span> {
        let i = self.spans.partition_point(|&(start, _)| start <= pc);
        i.checked_sub(1).map(|i| self.spans[i].1)
    }
}
