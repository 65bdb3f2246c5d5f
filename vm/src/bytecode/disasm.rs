//! A readable listing of compiled functions: one instruction per line with its pc, the
//! constant pool, handlers, jump tables and a classic `MoveNext`'s spill plans — what
//! `vm disasm` prints.

use std::fmt::Write;

use super::{Function, PoolEntry};

/// The listing of one function.
pub fn disassemble(f: &Function) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} (args {}, regs {})", f.name, f.num_args, f.num_regs);
    for (pc, op) in f.code.iter().enumerate() {
        let _ = writeln!(out, "  {pc:4}  {op:?}");
    }
    for (i, entry) in f.pool.iter().enumerate() {
        let shown = match entry {
            PoolEntry::Value(v) => format!("{v:?}"),
            PoolEntry::Constant(c) => format!("{c:?}"),
        };
        let _ = writeln!(out, "  const {i}: {shown}");
    }
    for h in &f.handlers {
        let _ = writeln!(out, "  handler [{}, {}) {:?} -> {} (exception in {:?})", h.start.0, h.end.0, h.kind, h.entry.0, h.reg);
    }
    for (i, t) in f.tables.iter().enumerate() {
        let targets: Vec<String> = t.targets.iter().map(|t| t.0.to_string()).collect();
        let _ = writeln!(out, "  table {i}: from {} -> [{}]", t.low, targets.join(", "));
    }
    for (i, plan) in f.spills.iter().enumerate() {
        let pairs: Vec<String> = plan.iter().map(|(r, slot)| format!("r{} <-> field {slot}", r.0)).collect();
        let _ = writeln!(out, "  spill plan {i}: [{}]", pairs.join(", "));
    }
    out
}
