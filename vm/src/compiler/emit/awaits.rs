//! Async methods, runtime lowering: `await` becomes a test of `IsCompleted` and, if the
//! awaiter is not done, `AwaitSuspend`, which turns the frame (and its runtime-async
//! callers) into continuations; awaiting a call of another runtime-lowered method becomes
//! `CallAsync`, which needs no `Task` at all unless the callee suspends. The method's task
//! entry (`StartAsync`) runs the code and hands the outcome to an `AsyncHelpers` method
//! that makes the `Task`.

use super::FnBuilder;
use crate::bytecode::{Op, Reg, Target};
use crate::compiler::bound::*;
use crate::metadata::{MethodId, TypeId};

impl FnBuilder<'_> {
    pub fn emit_await(&mut self, parts: &AwaitParts, dst: Reg) {
        self.note_await(parts);
        if let Some(body) = self.direct_async_callee(&parts.operand) {
            if let BKind::Call { method, owner, type_args, receiver, args, .. } = &parts.operand.kind {
                let r = self.emit_call_as(*method, *owner, type_args, receiver.as_deref(), args, false, Some(body));
                self.mov(dst, r);
                return;
            }
        }
        let m = self.mark();
        let operand = self.emit_value(&parts.operand);
        self.write_local(parts.operand_temp, operand);
        let awaiter = self.emit_value(&parts.get_awaiter);
        self.write_local(parts.awaiter, awaiter);
        let done = self.new_label();
        let completed = self.emit_value(&parts.is_completed);
        self.emit_jump(Op::JumpIfTrue { cond: completed, target: Target(0) }, done);
        let awaiter = self.read_local(parts.awaiter);
        self.emit(Op::AwaitSuspend { awaiter });
        self.place_label(done);
        self.free_to(m);
        self.emit_into(&parts.get_result, dst);
    }

    /// The code of a runtime-lowered async method called (non-virtually) by `operand`,
    /// which `CallAsync` can run without making its `Task`.
    fn direct_async_callee(&mut self, operand: &BExpr) -> Option<MethodId> {
        let BKind::Call { method, is_virtual: false, .. } = &operand.kind else { return None };
        let md = self.c.meta.method(*method);
        let is_async = md.flags.has(crate::metadata::Flags::ASYNC);
        if !is_async || md.ret == TypeId::VOID || self.c.lowering_of(*method) != crate::compiler::Lowering::Runtime {
            return None;
        }
        Some(self.c.runtime_async_body(*method))
    }

    /// A task entry: copy the arguments, run the code, then `complete(status, payload)`.
    pub fn emit_start_async(&mut self, body: MethodId, complete: MethodId, type_args: &[TypeId], dst: Reg) {
        let m = self.mark();
        let status = self.alloc_reg();
        let payload = self.alloc_reg();
        let base = Reg(self.next_reg);
        for i in 0..self.num_args {
            let r = self.alloc_reg();
            self.mov(r, Reg(i));
        }
        if self.next_reg == base.0 {
            self.alloc_reg();
        }
        self.emit(Op::StartAsync { method: body, base, dst: status });
        self.free_to(base.0);
        let call_base = self.alloc_reg();
        self.mov(call_base, status);
        let second = self.alloc_reg();
        self.mov(second, payload);
        let _ = second;
        if self.c.method_takes_context(complete) {
            let ctx = self.alloc_reg();
            let owner = self.c.meta.type_def(self.c.meta.method(complete).owner).self_type;
            self.emit_callee_context_for(complete, owner, type_args, ctx);
        }
        self.emit(Op::Call { method: complete, base: call_base, dst: call_base });
        self.mov(dst, call_base);
        self.free_to(m);
    }
}
