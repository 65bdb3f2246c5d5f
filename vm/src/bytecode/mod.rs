//! Bytecode: the instruction set, compiled functions, and the disassembler.

pub mod disasm;
pub mod function;
pub mod liveness;
pub mod opcode;

pub use function::{Function, FunctionId, Handler, HandlerKind, JumpTable, PoolEntry};
pub use opcode::{ConstIdx, NumKind, Op, Reg, Target};
