//! Expressions: values into registers (reusing a local's register where safe), calls with
//! arguments laid out for the callee's frame, conditional branches with fused compares,
//! struct copies, boxing, run-time generic types, and managed references.

use super::closures::LocalLoc;
use super::FnBuilder;
use crate::bytecode::{ConstIdx, NumKind, Op, Reg, Target};
use crate::compiler::bound::*;
use crate::metadata::{Constant, Flags, MethodBody, MethodId, TypeId, TypeKind};
use crate::value::Value;

/// The most operands one `Concat` instruction takes.
const MAX_CONCAT_OPERANDS: usize = 1024;

/// How a type operand reaches an instruction: known at compile time, or computed from the
/// generic context into a register.
enum TypeOperand {
    Closed(TypeId),
    Reg(Reg),
}

impl FnBuilder<'_> {
    /// Evaluates `e` for its side effects.
    pub fn emit_effect(&mut self, e: &BExpr) {
        let m = self.mark();
        match &e.kind {
            BKind::Assign { target, value } => {
                self.emit_assign(target, value);
            }
            BKind::Seq { stmts, value } => {
                for s in stmts {
                    self.emit_stmt(s);
                }
                self.emit_effect(value);
            }
            BKind::Const(_) | BKind::Local(_) | BKind::This | BKind::Default => {}
            _ => {
                self.emit_value(e);
            }
        }
        self.free_to(m);
    }

    /// Evaluates `e` into some register (a local's own register when possible).
    pub fn emit_value(&mut self, e: &BExpr) -> Reg {
        let saved = self.current_span;
        if e.span != Default::default() {
            self.current_span = e.span;
        }
        let r = match &e.kind {
            BKind::Local(l) => {
                let r = self.read_local(*l);
                self.copy_if_struct(r, e.ty)
            }
            BKind::This => self.this_or_r0(),
            BKind::Field { .. } | BKind::Elem { .. } => {
                let dst = self.alloc_reg();
                self.emit_into(e, dst);
                self.copy_if_struct(dst, e.ty)
            }
            _ => {
                let dst = self.alloc_reg();
                self.emit_into(e, dst);
                dst
            }
        };
        self.current_span = saved;
        r
    }

    /// Evaluates a receiver: structs are used in place (not copied), so calls and field
    /// writes reach the original.
    fn emit_receiver(&mut self, e: &BExpr) -> Reg {
        match &e.kind {
            BKind::Local(l) => self.read_local(*l),
            BKind::This => self.this_or_r0(),
            _ => {
                let dst = self.alloc_reg();
                self.emit_into(e, dst);
                dst
            }
        }
    }

    fn this_or_r0(&mut self) -> Reg {
        match &self.env {
            super::closures::EnvKind::Method => self.this_reg.unwrap_or(Reg(0)),
            _ => self.this_value().unwrap_or(Reg(0)),
        }
    }

    /// Copies a struct read from storage (value semantics).
    pub(super) fn copy_if_struct(&mut self, r: Reg, ty: TypeId) -> Reg {
        if self.is_struct_type(ty) || self.is_type_param(ty) {
            let d = self.alloc_reg();
            self.emit(Op::CopyStruct { dst: d, src: r });
            d
        } else {
            r
        }
    }

    /// Evaluates `e` into `dst`.
    pub fn emit_into(&mut self, e: &BExpr, dst: Reg) {
        let saved = self.current_span;
        if e.span != Default::default() {
            self.current_span = e.span;
        }
        let m = self.mark();
        self.emit_into_inner(e, dst);
        self.note_value(e, dst);
        self.free_to(m);
        self.current_span = saved;
    }

    fn emit_into_inner(&mut self, e: &BExpr, dst: Reg) {
        match &e.kind {
            BKind::Const(c) => self.emit_const(c, e.ty, dst),
            BKind::Default => self.emit_default(e.ty, dst),
            BKind::Local(l) => {
                let r = self.read_local(*l);
                let r = self.copy_if_struct(r, e.ty);
                self.mov(dst, r);
            }
            BKind::This => {
                let r = self.this_or_r0();
                self.mov(dst, r);
            }
            BKind::Field { receiver, field, owner } => self.emit_field_load(receiver.as_deref(), *field, *owner, dst),
            BKind::Elem { array, indices } => {
                let a = self.emit_value(array);
                let idx = self.emit_indices(indices);
                match idx {
                    Indices::One(i) => {
                        self.emit(Op::LoadElem { dst, arr: a, index: i });
                    }
                    Indices::Many(first) => {
                        self.emit(Op::LoadElemMulti { dst, arr: a, indexes: first });
                    }
                }
            }
            BKind::Call { method, owner, type_args, receiver, args, is_virtual } => {
                let r = self.emit_call(*method, *owner, type_args, receiver.as_deref(), args, *is_virtual);
                self.mov(dst, r);
            }
            BKind::New { ctor, args } => self.emit_new(e.ty, *ctor, args, dst),
            BKind::RefOf(target) => self.emit_ref(target, dst),
            BKind::Deref(reference) => {
                let r = self.emit_value(reference);
                self.emit(Op::LoadRef { dst, r });
            }
            BKind::Await(parts) if self.classic.is_some() => self.emit_classic_await(parts, dst),
            BKind::Await(parts) => self.emit_await(parts, dst),
            BKind::StartStateMachine => self.emit_start_state_machine(dst),
            BKind::StartAsync { body, complete, type_args } => self.emit_start_async(*body, *complete, type_args, dst),
            BKind::MakeIterator { body, element } => {
                let ty = self.c.iterator_type(*element);
                let ty = self.type_value(ty);
                let count = self.num_args as u8;
                // The iterator keeps the `this` of the call (Roslyn's `<>3__this`); each
                // enumeration copies it again at the body's start.
                self.copy_struct_receiver();
                self.emit(Op::MakeGenerator { dst, ty, method: *body, args: Reg(0), count });
            }
            BKind::NewArray { sizes } => self.emit_new_array(e.ty, sizes, dst),
            BKind::ArrayLiteral { elems } => self.emit_array_literal(e.ty, elems, dst),
            BKind::DelegateNew { method, owner, type_args, target, is_virtual } => {
                match target {
                    Some(t) => {
                        let r = self.emit_receiver(t);
                        let r = if self.is_struct_type(t.ty) { self.box_struct(r, t.ty) } else { r };
                        self.mov(dst, r);
                    }
                    None => {
                        self.emit(Op::LoadNull { dst });
                    }
                }
                let ty = self.closed_or_erased(e.ty);
                if *is_virtual {
                    self.emit(Op::NewDelegateVirt { dst, ty, method: *method });
                } else {
                    self.emit(Op::NewDelegate { dst, ty, method: *method });
                }
                if self.c.method_takes_context(*method) {
                    self.emit_delegate_context(dst, *method, *owner, type_args);
                }
                self.emit_delegate_type(dst, e.ty);
            }
            BKind::Closure(id) => {
                let env = self.shared.nested_env.get(id).cloned().unwrap_or_else(|| self.nested_env_here(*id));
                self.shared.nested_env.insert(*id, env.clone());
                match self.env_value(&env) {
                    Some(r) => self.mov(dst, r),
                    None => {
                        self.emit(Op::LoadNull { dst });
                    }
                }
                let method = self.shared.nested[id.0 as usize].method;
                let ty = self.closed_or_erased(e.ty);
                self.emit(Op::NewDelegate { dst, ty, method });
                self.emit_delegate_type(dst, e.ty);
            }
            BKind::CallNested { nested, args } => {
                let env = self.shared.nested_env.get(nested).cloned().unwrap_or_else(|| self.nested_env_here(*nested));
                self.shared.nested_env.insert(*nested, env.clone());
                let method = self.shared.nested[nested.0 as usize].method;
                // Loading the environment may take registers (parent links), so the
                // call's argument window starts after them.
                let env_reg = self.env_value(&env);
                let base = Reg(self.next_reg);
                if let Some(er) = env_reg {
                    let slot = self.alloc_reg();
                    self.mov(slot, er);
                }
                self.alloc_args(args);
                if self.next_reg == base.0 {
                    self.alloc_reg();
                }
                self.emit(Op::Call { method, base, dst });
            }
            BKind::Invoke { delegate, args } => {
                let base = self.alloc_reg();
                self.emit_into(delegate, base);
                self.alloc_args(args);
                self.emit(Op::CallDelegate { base, dst });
            }
            BKind::Unary { op, operand } => {
                let r = self.emit_value(operand);
                match op {
                    BUnOp::Neg { checked: true } => self.emit(Op::NegChecked { dst, src: r }),
                    BUnOp::Neg { checked: false } => self.emit(Op::Neg { dst, src: r }),
                    BUnOp::Not => self.emit(Op::Not { dst, src: r }),
                    BUnOp::BitNot => self.emit(Op::BitNot { dst, src: r }),
                };
            }
            BKind::Binary { op, left, right } => self.emit_binary(*op, left, right, dst),
            BKind::AndAlso(..) | BKind::OrElse(..) => {
                let f = self.new_label();
                let end = self.new_label();
                self.emit_branch(e, false, f);
                self.emit(Op::LoadBool { dst, value: true });
                self.emit_jump(Op::Jump { target: Target(0) }, end);
                self.place_label(f);
                self.emit(Op::LoadBool { dst, value: false });
                self.place_label(end);
            }
            BKind::Coalesce(a, b) => {
                let end = self.new_label();
                self.emit_into(a, dst);
                self.emit_jump(Op::JumpIfNotNull { src: dst, target: Target(0) }, end);
                self.emit_into(b, dst);
                self.place_label(end);
            }
            BKind::Cond { cond, then, otherwise } => {
                let else_l = self.new_label();
                let end = self.new_label();
                self.emit_branch(cond, false, else_l);
                self.emit_into(then, dst);
                self.emit_jump(Op::Jump { target: Target(0) }, end);
                self.place_label(else_l);
                self.emit_into(otherwise, dst);
                self.place_label(end);
            }
            BKind::Concat(parts) => self.emit_concat(parts, dst),
            BKind::Format { value, format } => {
                let mut r = self.emit_value(value);
                if self.is_enum(value.ty) {
                    let b = self.alloc_reg();
                    let ty = self.closed_or_erased(value.ty);
                    self.emit(Op::ObjectView { dst: b, src: r, ty });
                    r = b;
                }
                let format = match format {
                    Some(f) => self.constant(Constant::String(f.clone())),
                    None => ConstIdx::NONE,
                };
                self.emit(Op::FormatValue { dst, src: r, format });
            }
            BKind::Align { value, alignment } => {
                let base = self.alloc_reg();
                self.emit_into(value, base);
                let a = self.alloc_reg();
                self.emit_into(alignment, a);
                let native = self.emitted_intrinsic(super::intrinsics::FORMAT_ALIGN);
                self.emit(Op::CallNative { native, base, argc: 2, dst });
            }
            BKind::Conv { kind, operand } => self.emit_conversion(*kind, operand, e.ty, dst),
            BKind::TypeTest { operand, target } => {
                let r = self.emit_tested_value(operand);
                match self.type_operand(*target) {
                    TypeOperand::Closed(t) => self.emit(Op::TypeTest { dst, src: r, ty: t }),
                    TypeOperand::Reg(t) => self.emit(Op::TypeTestDyn { dst, src: r, ty: t }),
                };
            }
            BKind::As { operand, target } => {
                let r = self.emit_value(operand);
                match self.type_operand(*target) {
                    TypeOperand::Closed(t) => {
                        self.emit(Op::IsInst { dst, src: r, ty: t });
                    }
                    TypeOperand::Reg(t) => {
                        let ok = self.alloc_reg();
                        let end = self.new_label();
                        self.emit(Op::LoadNull { dst });
                        self.emit(Op::TypeTestDyn { dst: ok, src: r, ty: t });
                        self.emit_jump(Op::JumpIfFalse { cond: ok, target: Target(0) }, end);
                        self.emit(Op::CastClassDyn { dst, src: r, ty: t });
                        self.place_label(end);
                    }
                }
            }
            BKind::Assign { target, value } => {
                let r = self.emit_assign(target, value);
                self.mov(dst, r);
            }
            BKind::Seq { stmts, value } => {
                for s in stmts {
                    self.emit_stmt(s);
                }
                self.emit_into(value, dst);
            }
            BKind::Throw(ex) => {
                let r = self.emit_value(ex);
                self.emit(Op::Throw { src: r });
            }
            BKind::TypeOf(t) => {
                let base = self.alloc_reg();
                match self.type_operand(*t) {
                    TypeOperand::Closed(t) => self.emit(Op::LoadType { dst: base, ty: t }),
                    TypeOperand::Reg(r) => self.emit(Op::Move { dst: base, src: r }),
                };
                let native = self.emitted_intrinsic(super::intrinsics::TYPE_FROM_HANDLE);
                self.emit(Op::CallNative { native, base, argc: 1, dst });
            }
            BKind::ConditionalAccess { receiver, temp, access } => {
                let end = self.new_label();
                let r = self.emit_value(receiver);
                self.emit(Op::LoadNull { dst });
                self.emit_jump(Op::JumpIfNull { src: r, target: Target(0) }, end);
                self.write_local(*temp, r);
                if access.ty == TypeId::VOID {
                    self.emit_effect(access);
                } else {
                    self.emit_into(access, dst);
                }
                self.place_label(end);
            }
            BKind::Error => {
                self.emit(Op::LoadNull { dst });
            }
        }
    }

    pub fn mov(&mut self, dst: Reg, src: Reg) {
        if dst != src {
            self.emit(Op::Move { dst, src });
        }
    }

    fn is_enum(&self, t: TypeId) -> bool {
        self.c.meta.types.def_of(t).is_some_and(|d| self.c.meta.type_def(d).kind == crate::metadata::TypeDefKind::Enum)
    }

    // ---- constants and defaults --------------------------------------------------------------

    fn emit_const(&mut self, c: &ConstVal, ty: TypeId, dst: Reg) {
        let wk = self.c.meta.well_known.clone();
        // A constant of type `T?` is stored as the bare `T`.
        let ty = match self.c.meta.types.def_of(ty) {
            Some(d) if d == wk.nullable => self.c.meta.types.args_of(ty).first().copied().unwrap_or(ty),
            _ => ty,
        };
        let ty = if self.is_enum(ty) { self.c.meta.types.def_of(ty).and_then(|d| self.c.meta.type_def(d).enum_underlying).unwrap_or(wk.int32) } else { ty };
        let value = match c {
            ConstVal::Null => {
                self.emit(Op::LoadNull { dst });
                return;
            }
            ConstVal::Bool(b) => {
                self.emit(Op::LoadBool { dst, value: *b });
                return;
            }
            ConstVal::Int(i) if ty == wk.int32 => {
                self.emit(Op::LoadI32 { dst, value: *i as i32 });
                return;
            }
            ConstVal::Str(s) => {
                let k = self.constant(Constant::String(s.clone()));
                self.emit(Op::LoadConst { dst, index: k });
                return;
            }
            ConstVal::Decimal(s) => {
                let k = self.constant(Constant::Decimal(s.clone()));
                self.emit(Op::LoadConst { dst, index: k });
                return;
            }
            ConstVal::Int(i) => self.typed_int(*i as i128, ty),
            ConstVal::UInt(u) => self.typed_int(*u as i128, ty),
            ConstVal::Char(ch) => match self.num_kind(ty) {
                Some(NumKind::Char) | None => Value::Char(*ch),
                Some(_) => self.typed_int(*ch as i128, ty),
            },
            ConstVal::Float(f) => {
                if ty == wk.single {
                    Value::F32(*f as f32)
                } else {
                    Value::F64(*f)
                }
            }
        };
        let k = self.constant_value(value);
        self.emit(Op::LoadConst { dst, index: k });
    }

    fn typed_int(&self, i: i128, ty: TypeId) -> Value {
        match self.num_kind(ty) {
            Some(NumKind::I8) => Value::I8(i as i8),
            Some(NumKind::U8) => Value::U8(i as u8),
            Some(NumKind::I16) => Value::I16(i as i16),
            Some(NumKind::U16) => Value::U16(i as u16),
            Some(NumKind::I32) => Value::I32(i as i32),
            Some(NumKind::U32) => Value::U32(i as u32),
            Some(NumKind::U64) => Value::U64(i as u64),
            Some(NumKind::Char) => Value::Char(i as u16),
            Some(NumKind::F32) => Value::F32(i as f32),
            Some(NumKind::F64) => Value::F64(i as f64),
            Some(NumKind::I64) | None => Value::I64(i as i64),
        }
    }

    /// `a + b + …` over strings: one `Concat` of consecutive registers per
    /// [`MAX_CONCAT_OPERANDS`] operands, each after the first taking the text so far as
    /// its first operand (an interpolated string with 70 000 holes needs no 70 000
    /// registers). The text grows in a temporary, so operands still read `dst`'s old value.
    fn emit_concat(&mut self, parts: &[BExpr], dst: Reg) {
        let so_far = if parts.len() > MAX_CONCAT_OPERANDS { self.alloc_reg() } else { dst };
        for (i, chunk) in parts.chunks(MAX_CONCAT_OPERANDS).enumerate() {
            let mark = self.mark();
            let first = Reg(self.next_reg);
            if i > 0 {
                let previous = self.alloc_reg();
                self.emit(Op::Move { dst: previous, src: so_far });
            }
            for p in chunk {
                let r = self.alloc_reg();
                match self.integer_concat_operand(p) {
                    Some(value) => self.emit_into(value, r),
                    None => self.emit_into(p, r),
                }
            }
            let count = self.next_reg.saturating_sub(first.0);
            self.emit(Op::Concat { dst: so_far, first, count });
            self.free_to(mark);
        }
        if so_far != dst {
            self.emit(Op::Move { dst, src: so_far });
        }
    }

    fn integer_concat_operand<'e>(&self, part: &'e BExpr) -> Option<&'e BExpr> {
        let BKind::Format { value, format: None } = &part.kind else { return None };
        let integral = !matches!(self.num_kind(value.ty), None | Some(NumKind::Char | NumKind::F32 | NumKind::F64));
        (integral && !self.is_enum(value.ty)).then_some(&**value)
    }

    pub fn num_kind(&self, t: TypeId) -> Option<NumKind> {
        let wk = &self.c.meta.well_known;
        let table = [
            (wk.sbyte, NumKind::I8),
            (wk.byte, NumKind::U8),
            (wk.int16, NumKind::I16),
            (wk.uint16, NumKind::U16),
            (wk.int32, NumKind::I32),
            (wk.uint32, NumKind::U32),
            (wk.int64, NumKind::I64),
            (wk.uint64, NumKind::U64),
            (wk.intptr, NumKind::I64),
            (wk.uintptr, NumKind::U64),
            (wk.char, NumKind::Char),
            (wk.single, NumKind::F32),
            (wk.double, NumKind::F64),
        ];
        let t = match self.c.meta.types.def_of(t) {
            Some(d) if self.c.meta.type_def(d).kind == crate::metadata::TypeDefKind::Enum => self.c.meta.type_def(d).enum_underlying.unwrap_or(wk.int32),
            _ => t,
        };
        table.iter().find(|(id, _)| *id == t).map(|(_, k)| *k)
    }

    /// `dst <- default(ty)`.
    pub fn emit_default(&mut self, ty: TypeId, dst: Reg) {
        if let Some(k) = self.num_kind(ty) {
            let v = crate::value::zero_of(k);
            if let Value::I32(0) = v {
                self.emit(Op::LoadI32 { dst, value: 0 });
            } else {
                let c = self.constant_value(v);
                self.emit(Op::LoadConst { dst, index: c });
            }
            return;
        }
        if ty == self.c.meta.well_known.boolean {
            self.emit(Op::LoadBool { dst, value: false });
            return;
        }
        if ty == self.c.meta.well_known.decimal {
            let c = self.constant(Constant::Decimal("0".into()));
            self.emit(Op::LoadConst { dst, index: c });
            return;
        }
        if self.is_type_param(ty) || self.c.meta.types.is_open(ty) && self.is_struct_type(ty) {
            match self.type_operand(ty) {
                TypeOperand::Reg(t) => {
                    self.emit(Op::DefaultDyn { dst, ty: t });
                }
                TypeOperand::Closed(_) => {
                    self.emit(Op::LoadNull { dst });
                }
            }
            return;
        }
        if self.is_struct_type(ty) {
            let t = self.closed_or_erased(ty);
            self.emit(Op::New { dst, ty: t });
            return;
        }
        self.emit(Op::LoadNull { dst });
    }

    // ---- fields, arrays, assignment ------------------------------------------------------

    fn emit_field_load(&mut self, receiver: Option<&BExpr>, field: crate::metadata::FieldId, owner: TypeId, dst: Reg) {
        let slot = self.c.meta.field(field).slot;
        match receiver {
            Some(r) => {
                let obj = self.emit_receiver(r);
                self.emit(Op::LoadField { dst, obj, slot: slot as u16 });
            }
            None => match self.type_operand(owner) {
                TypeOperand::Closed(ty) => {
                    self.emit(Op::LoadStatic { dst, ty, field });
                }
                TypeOperand::Reg(ty) => {
                    self.emit(Op::LoadStaticDyn { dst, ty, field });
                }
            },
        }
    }

    fn emit_indices(&mut self, indices: &[BExpr]) -> Indices {
        if indices.len() == 1 {
            return Indices::One(self.emit_value(&indices[0]));
        }
        let first = Reg(self.next_reg);
        let regs: Vec<Reg> = indices.iter().map(|_| self.alloc_reg()).collect();
        for (e, &r) in indices.iter().zip(&regs) {
            self.emit_into(e, r);
        }
        Indices::Many(first)
    }

    /// `target = value`; returns the register holding the assigned value.
    fn emit_assign(&mut self, target: &BExpr, value: &BExpr) -> Reg {
        match &target.kind {
            BKind::Deref(reference) => {
                let r = self.emit_value(reference);
                let r = self.stable(r, value);
                let v = self.emit_value(value);
                self.emit(Op::StoreRef { r, src: v });
                v
            }
            BKind::Local(l) => {
                let l = *l;
                if let LocalLoc::Reg(r) = self.local_location(l) {
                    if !self.expr_reads_local(value, l) {
                        self.emit_into(value, r);
                        return r;
                    }
                }
                let v = self.emit_value(value);
                self.write_local(l, v);
                v
            }
            BKind::Field { receiver: Some(recv), field, .. } => {
                let obj = self.emit_receiver(recv);
                let obj = self.stable(obj, value);
                let v = self.emit_value(value);
                let slot = self.c.meta.field(*field).slot as u16;
                self.emit(Op::StoreField { obj, slot, src: v });
                v
            }
            BKind::Field { receiver: None, field, owner } => {
                let v = self.emit_value(value);
                match self.type_operand(*owner) {
                    TypeOperand::Closed(ty) => self.emit(Op::StoreStatic { ty, field: *field, src: v }),
                    TypeOperand::Reg(ty) => self.emit(Op::StoreStaticDyn { ty, field: *field, src: v }),
                };
                v
            }
            BKind::Elem { array, indices } => {
                let a = self.emit_value(array);
                let a = self.stable(a, value);
                let idx = self.emit_indices(indices);
                let idx = match idx {
                    Indices::One(i) => Indices::One(self.stable(i, value)),
                    many => many,
                };
                let v = self.emit_value(value);
                let exact = self.elements_are_exact(array.ty);
                match idx {
                    Indices::One(i) if exact => self.emit(Op::StoreElem { arr: a, index: i, src: v }),
                    Indices::One(i) => self.emit(Op::StoreElemChecked { arr: a, index: i, src: v }),
                    Indices::Many(first) => self.emit(Op::StoreElemMulti { arr: a, indexes: first, src: v }),
                };
                v
            }
            _ => self.emit_value(value),
        }
    }

    /// Copies `r` into a temporary when evaluating `later` could change it (a local's
    /// register reused as an operand while a later operand assigns that local).
    fn stable(&mut self, r: Reg, later: &BExpr) -> Reg {
        let is_local_reg = self.local_regs.values().any(|&x| x == r);
        if is_local_reg && may_write_locals(later) {
            let t = self.alloc_reg();
            self.emit(Op::Move { dst: t, src: r });
            t
        } else {
            r
        }
    }

    fn expr_reads_local(&self, e: &BExpr, l: LocalId) -> bool {
        let mut found = false;
        visit(e, &mut |x| {
            if matches!(x.kind, BKind::Local(y) if y == l) {
                found = true;
            }
        });
        found
    }

    // ---- operators ---------------------------------------------------------------------------

    /// The register a null test looks at: the value unboxed, a local read in place (a
    /// struct is never null, so it needs no copy).
    fn emit_null_tested(&mut self, e: &BExpr) -> Reg {
        let value = unboxed(e);
        match &value.kind {
            BKind::Local(l) => self.read_local(*l),
            _ => self.emit_value(value),
        }
    }

    fn emit_binary(&mut self, op: BBinOp, left: &BExpr, right: &BExpr, dst: Reg) {
        let addend = match (op, &right.kind) {
            (BBinOp::Add { checked: false }, BKind::Const(ConstVal::Int(k))) => Some(*k),
            (BBinOp::Sub { checked: false }, BKind::Const(ConstVal::Int(k))) => k.checked_neg(),
            _ => None,
        };
        if let Some(k) = addend.filter(|k| left.ty == self.c.meta.well_known.int32 && (i16::MIN as i64..=i16::MAX as i64).contains(k)) {
            let a = self.emit_value(left);
            self.emit(Op::AddI32Imm { dst, src: a, imm: k as i16 });
            return;
        }
        let null_test = matches!(op, BBinOp::Eq | BBinOp::Ne) && matches!(right.kind, BKind::Const(ConstVal::Null));
        let a = if null_test { self.emit_null_tested(left) } else { self.emit_value(left) };
        let a = self.stable(a, right);
        let b = self.emit_value(right);
        let op = match op {
            BBinOp::Add { checked: false } => Op::Add { dst, a, b },
            BBinOp::Add { checked: true } => Op::AddChecked { dst, a, b },
            BBinOp::Sub { checked: false } => Op::Sub { dst, a, b },
            BBinOp::Sub { checked: true } => Op::SubChecked { dst, a, b },
            BBinOp::Mul { checked: false } => Op::Mul { dst, a, b },
            BBinOp::Mul { checked: true } => Op::MulChecked { dst, a, b },
            BBinOp::Div => Op::Div { dst, a, b },
            BBinOp::Rem => Op::Rem { dst, a, b },
            BBinOp::BitAnd => Op::BitAnd { dst, a, b },
            BBinOp::BitOr => Op::BitOr { dst, a, b },
            BBinOp::BitXor => Op::BitXor { dst, a, b },
            BBinOp::Shl => Op::Shl { dst, a, b },
            BBinOp::Shr => Op::Shr { dst, a, b },
            BBinOp::UShr => Op::UShr { dst, a, b },
            BBinOp::Eq => Op::Eq { dst, a, b },
            BBinOp::Ne => Op::Ne { dst, a, b },
            BBinOp::Lt => Op::Lt { dst, a, b },
            BBinOp::Le => Op::Le { dst, a, b },
            BBinOp::Gt => Op::Gt { dst, a, b },
            BBinOp::Ge => Op::Ge { dst, a, b },
        };
        self.emit(op);
    }

    /// Jumps to `l` when `cond` evaluates to `jump_if`.
    pub fn emit_branch(&mut self, cond: &BExpr, jump_if: bool, l: LabelId) {
        let m = self.mark();
        match &cond.kind {
            BKind::Const(ConstVal::Bool(b)) => {
                if *b == jump_if {
                    self.emit_jump(Op::Jump { target: Target(0) }, l);
                }
            }
            BKind::Unary { op: BUnOp::Not, operand } => self.emit_branch(operand, !jump_if, l),
            BKind::AndAlso(a, b) => {
                if jump_if {
                    let skip = self.new_label();
                    self.emit_branch(a, false, skip);
                    self.emit_branch(b, true, l);
                    self.place_label(skip);
                } else {
                    self.emit_branch(a, false, l);
                    self.emit_branch(b, false, l);
                }
            }
            BKind::OrElse(a, b) => {
                if jump_if {
                    self.emit_branch(a, true, l);
                    self.emit_branch(b, true, l);
                } else {
                    let skip = self.new_label();
                    self.emit_branch(a, true, skip);
                    self.emit_branch(b, false, l);
                    self.place_label(skip);
                }
            }
            BKind::Binary { op, left, right } if op.is_comparison() && self.fusable(left) => {
                let is_null_right = matches!(right.kind, BKind::Const(ConstVal::Null));
                if is_null_right && matches!(op, BBinOp::Eq | BBinOp::Ne) {
                    let a = self.emit_null_tested(left);
                    let null_jump = (*op == BBinOp::Eq) == jump_if;
                    let op = if null_jump { Op::JumpIfNull { src: a, target: Target(0) } } else { Op::JumpIfNotNull { src: a, target: Target(0) } };
                    self.emit_jump(op, l);
                } else {
                    let a = self.emit_value(left);
                    let a = self.stable(a, right);
                    let b = self.emit_value(right);
                    let t = Target(0);
                    let is_float = self.is_float(left.ty);
                    let jump = match (op, jump_if) {
                        (BBinOp::Eq, true) | (BBinOp::Ne, false) => Op::JumpIfEq { a, b, target: t },
                        (BBinOp::Ne, true) | (BBinOp::Eq, false) => Op::JumpIfNe { a, b, target: t },
                        (BBinOp::Lt, true) => Op::JumpIfLt { a, b, target: t },
                        (BBinOp::Le, true) => Op::JumpIfLe { a, b, target: t },
                        (BBinOp::Gt, true) => Op::JumpIfGt { a, b, target: t },
                        (BBinOp::Ge, true) => Op::JumpIfGe { a, b, target: t },
                        // Negated ordered compares must stay false for NaN: only integers.
                        (BBinOp::Lt, false) if !is_float => Op::JumpIfGe { a, b, target: t },
                        (BBinOp::Le, false) if !is_float => Op::JumpIfGt { a, b, target: t },
                        (BBinOp::Gt, false) if !is_float => Op::JumpIfLe { a, b, target: t },
                        (BBinOp::Ge, false) if !is_float => Op::JumpIfLt { a, b, target: t },
                        _ => {
                            let r = self.alloc_reg();
                            self.emit_binary_regs(*op, r, a, b);
                            Op::JumpIfFalse { cond: r, target: t }
                        }
                    };
                    self.emit_jump(jump, l);
                }
            }
            _ => {
                let r = self.emit_value(cond);
                let op = if jump_if { Op::JumpIfTrue { cond: r, target: Target(0) } } else { Op::JumpIfFalse { cond: r, target: Target(0) } };
                self.emit_jump(op, l);
            }
        }
        self.free_to(m);
    }

    fn fusable(&self, _left: &BExpr) -> bool {
        true
    }

    fn is_float(&self, t: TypeId) -> bool {
        matches!(self.num_kind(t), Some(NumKind::F32 | NumKind::F64))
    }

    fn emit_binary_regs(&mut self, op: BBinOp, dst: Reg, a: Reg, b: Reg) {
        let op = match op {
            BBinOp::Eq => Op::Eq { dst, a, b },
            BBinOp::Ne => Op::Ne { dst, a, b },
            BBinOp::Lt => Op::Lt { dst, a, b },
            BBinOp::Le => Op::Le { dst, a, b },
            BBinOp::Gt => Op::Gt { dst, a, b },
            _ => Op::Ge { dst, a, b },
        };
        self.emit(op);
    }

    // ---- conversions ---------------------------------------------------------------------------

    fn emit_conversion(&mut self, kind: ConvKind, operand: &BExpr, to: TypeId, dst: Reg) {
        match kind {
            ConvKind::Identity | ConvKind::User(_) => self.emit_into(operand, dst),
            ConvKind::Numeric { to: k, checked } => {
                let r = self.emit_value(operand);
                let nullable = self.c.meta.types.def_of(operand.ty) == Some(self.c.meta.well_known.nullable);
                let end = self.new_label();
                if nullable {
                    self.emit(Op::LoadNull { dst });
                    self.emit_jump(Op::JumpIfNull { src: r, target: Target(0) }, end);
                }
                if checked {
                    self.emit(Op::ConvertChecked { dst, src: r, to: k });
                } else {
                    self.emit(Op::Convert { dst, src: r, to: k });
                }
                self.place_label(end);
            }
            ConvKind::Box { from, view } => {
                let r = self.emit_value(operand);
                // The library's own boxing conversions make no box: CoreLib avoids boxing
                // (`IEquatable<T>`, constrained calls) where this library, written in plain
                // C#, converts to `object`, and no program can tell its boxes apart.
                let view_only = view || self.in_library();
                self.emit_box(from, r, dst, view_only);
            }
            ConvKind::Unbox => {
                let r = self.emit_value(operand);
                match self.type_operand(to) {
                    TypeOperand::Closed(t) => self.emit(Op::Unbox { dst, src: r, ty: t }),
                    TypeOperand::Reg(t) => self.emit(Op::CastClassDyn { dst, src: r, ty: t }),
                };
            }
            ConvKind::Cast => {
                let r = self.emit_value(operand);
                match self.type_operand(to) {
                    TypeOperand::Closed(t) => self.emit(Op::CastClass { dst, src: r, ty: t }),
                    TypeOperand::Reg(t) => self.emit(Op::CastClassDyn { dst, src: r, ty: t }),
                };
            }
        }
    }

    /// `dst <- (object)r` for `r` of type `from`: a box for a value type (a type
    /// parameter's at run time), or with `view_only` the value seen as an object without
    /// a box, for code that only reads it at once ([`Op::ObjectView`]).
    fn emit_box(&mut self, from: TypeId, r: Reg, dst: Reg, view_only: bool) {
        if self.is_type_param(from) || self.c.meta.types.is_open(from) && (self.is_enum(from) || self.is_struct_type(from)) {
            match (self.type_operand(from), view_only) {
                (TypeOperand::Reg(t), false) => self.emit(Op::BoxDyn { dst, src: r, ty: t }),
                (TypeOperand::Reg(t), true) => self.emit(Op::ObjectViewDyn { dst, src: r, ty: t }),
                (TypeOperand::Closed(t), false) => self.emit(Op::Box { dst, src: r, ty: t }),
                (TypeOperand::Closed(t), true) => self.emit(Op::ObjectView { dst, src: r, ty: t }),
            };
        } else if self.c.meta.is_value_type(from) {
            let ty = self.closed_or_erased(from);
            if view_only {
                self.emit(Op::ObjectView { dst, src: r, ty });
            } else {
                self.emit(Op::Box { dst, src: r, ty });
            }
        } else {
            self.mov(dst, r);
        }
    }

    /// Whether the method being emitted belongs to the standard library.
    fn in_library(&self) -> bool {
        let owner = self.c.meta.method(self.method).owner;
        self.c.meta.type_def(owner).flags.has(crate::metadata::Flags::LIBRARY)
    }

    /// The register holding the operand of a type test: a value type's value is tested
    /// without boxing it.
    fn emit_tested_value(&mut self, operand: &BExpr) -> Reg {
        match &operand.kind {
            BKind::Conv { kind: ConvKind::Box { from, .. }, operand: inner } => {
                let r = self.emit_value(inner);
                let d = self.alloc_reg();
                self.emit_box(*from, r, d, true);
                d
            }
            _ => self.emit_value(operand),
        }
    }

    fn box_struct(&mut self, r: Reg, ty: TypeId) -> Reg {
        let d = self.alloc_reg();
        let t = self.closed_or_erased(ty);
        self.emit(Op::ObjectView { dst: d, src: r, ty: t });
        d
    }

    // ---- generic types at run time -------------------------------------------------------------

    /// A type operand: closed types are constants; open ones are resolved from the context.
    fn type_operand(&mut self, t: TypeId) -> TypeOperand {
        if !self.c.meta.types.is_open(t) {
            return TypeOperand::Closed(t);
        }
        match self.context_reg() {
            Some(ctx) => {
                let r = self.alloc_reg();
                self.emit(Op::ResolveType { dst: r, open: t, ctx });
                TypeOperand::Reg(r)
            }
            None => TypeOperand::Closed(t),
        }
    }

    /// A type for an instruction that takes a constant type (erased when open).
    fn closed_or_erased(&self, t: TypeId) -> TypeId {
        t
    }

    /// A register holding the run-time type `t` (for hidden generic arguments).
    fn type_value(&mut self, t: TypeId) -> Reg {
        let r = self.alloc_reg();
        match self.type_operand(t) {
            TypeOperand::Closed(t) => {
                self.emit(Op::LoadType { dst: r, ty: t });
            }
            TypeOperand::Reg(x) => {
                self.mov(r, x);
            }
        }
        r
    }

    // ---- calls ---------------------------------------------------------------------------------

    /// Lays out a call (receiver, arguments, hidden context) and emits it; returns the
    /// register holding the result.
    pub fn emit_call(&mut self, method: MethodId, owner: TypeId, type_args: &[TypeId], receiver: Option<&BExpr>, args: &[BArg], is_virtual: bool) -> Reg {
        self.emit_call_as(method, owner, type_args, receiver, args, is_virtual, None)
    }

    /// As [`emit_call`], but with `async_body` the callee's runtime-async code is called
    /// directly (`CallAsync`): no `Task` unless it suspends.
    #[allow(clippy::too_many_arguments)]
    pub fn emit_call_as(
        &mut self,
        method: MethodId,
        owner: TypeId,
        type_args: &[TypeId],
        receiver: Option<&BExpr>,
        args: &[BArg],
        is_virtual: bool,
        async_body: Option<MethodId>,
    ) -> Reg {
        // `T` may be an enum at run time: its methods dispatch on the tagged value. (The
        // type is loaded before the receiver's register: the arguments follow that one.)
        let enum_tag = match receiver {
            Some(r) if self.is_type_param(r.ty) => match self.type_operand(r.ty) {
                TypeOperand::Reg(ty) => Some(ty),
                TypeOperand::Closed(_) => None,
            },
            _ => None,
        };
        let base = Reg(self.next_reg);
        let null_check = !is_virtual && receiver.is_some_and(|r| self.needs_null_check(method, r));
        if let Some(r) = receiver {
            let slot = self.alloc_reg();
            self.emit_receiver_into(r, slot);
            debug_assert_eq!(self.next_reg, slot.0 + 1, "arguments must follow the receiver");
            if self.is_enum(r.ty) && !self.is_enum(self.method_owner_type(method)) {
                let ty = self.closed_or_erased(r.ty);
                self.emit(Op::ObjectView { dst: slot, src: slot, ty });
            } else if let Some(ty) = enum_tag {
                self.emit(Op::TagEnumDyn { dst: slot, src: slot, ty });
            } else if self.is_struct_type(r.ty) && self.runs_inherited_method(r.ty, method) && !self.in_library() {
                let ty = self.closed_or_erased(r.ty);
                self.emit(Op::Box { dst: slot, src: slot, ty });
            }
        }
        self.alloc_args(args);
        if self.c.method_takes_context(method) {
            let ctx_slot = self.alloc_reg();
            self.emit_callee_context(method, owner, type_args, ctx_slot);
        }
        if self.next_reg == base.0 {
            self.alloc_reg();
        }
        match async_body {
            Some(body) => {
                if null_check {
                    self.emit(Op::NullCheck { src: base });
                }
                self.emit(Op::CallAsync { method: body, base, dst: base });
            }
            None => self.emit_call_op(method, owner, base, is_virtual, null_check),
        }
        base
    }

    /// Whether a non-virtual call of `method` on `receiver` must check it for `null` first
    /// (C#'s `callvirt`): a class-typed receiver that may be `null`, calling bytecode (the
    /// natives check their own receivers). A virtual call's dispatch checks it already.
    fn needs_null_check(&self, method: MethodId, receiver: &BExpr) -> bool {
        let md = self.c.meta.method(method);
        if md.is_static() || matches!(md.body, MethodBody::Native(_)) || self.c.meta.is_value_type(receiver.ty) {
            return false;
        }
        let class_typed = matches!(self.c.meta.types.kind(receiver.ty), TypeKind::Named { .. } | TypeKind::Array { .. });
        class_typed && !Self::never_null(receiver)
    }

    /// Expressions whose value cannot be `null`: `this` (and `base`), a new object, a string
    /// literal.
    fn never_null(e: &BExpr) -> bool {
        match &e.kind {
            BKind::This | BKind::New { .. } | BKind::NewArray { .. } | BKind::ArrayLiteral { .. } | BKind::Closure(_) | BKind::DelegateNew { .. } => true,
            BKind::Const(c) => !matches!(c, ConstVal::Null),
            BKind::Conv { kind: ConvKind::Identity, operand } => Self::never_null(operand),
            _ => false,
        }
    }

    /// Evaluates a receiver straight into `slot` (structs by reference).
    fn emit_receiver_into(&mut self, r: &BExpr, slot: Reg) {
        match &r.kind {
            BKind::Local(_) | BKind::This => {
                // Reading the receiver may need a temporary (a `ref` parameter, a captured
                // variable); free it so the arguments follow `slot` directly.
                let m = self.mark();
                let v = self.emit_receiver(r);
                self.mov(slot, v);
                self.free_to(m);
            }
            _ => self.emit_into(r, slot),
        }
    }

    /// Allocates consecutive registers for `args` and evaluates them.
    pub fn alloc_args(&mut self, args: &[BArg]) {
        let regs: Vec<Reg> = args.iter().map(|_| self.alloc_reg()).collect();
        for (a, &r) in args.iter().zip(&regs) {
            match a.kind {
                ArgKind::Value => self.emit_into(&a.expr, r),
                ArgKind::Ref => self.emit_ref(&a.expr, r),
            }
        }
    }

    /// Whether calling `method` on a struct of type `ty` runs `Object`'s or `ValueType`'s
    /// virtual method (one the struct does not override), which C# calls on a box of the
    /// struct. (`GetType()` needs none: the JIT answers it from the static type.)
    fn runs_inherited_method(&self, ty: TypeId, method: MethodId) -> bool {
        let wk = &self.c.meta.well_known;
        let owner = self.method_owner_type(method);
        if owner != wk.object && owner != wk.value_type {
            return false;
        }
        let Some(def) = self.c.meta.types.def_of(ty) else { return false };
        match self.c.meta.method(method).vtable_slot {
            Some(slot) => self.c.meta.type_def(def).vtable.get(slot as usize).is_some_and(|&m| self.c.meta.method(m).owner != def),
            None => false,
        }
    }

    fn method_owner_type(&self, m: MethodId) -> TypeId {
        self.c.meta.type_def(self.c.meta.method(m).owner).self_type
    }

    /// `null_check`: the receiver in `base` may be `null` and must be checked (C#'s `callvirt`).
    fn emit_call_op(&mut self, method: MethodId, owner: TypeId, base: Reg, is_virtual: bool, null_check: bool) {
        let md = self.c.meta.method(method);
        let is_static = md.is_static();
        match md.body {
            MethodBody::Native(native) if !is_virtual => {
                let argc = (md.params.len() + usize::from(!is_static)) as u8;
                self.emit(Op::CallNative { native, base, argc, dst: base });
            }
            _ if is_static && md.is_static_virtual() && self.is_type_param(owner) => {
                let ty = self.type_value(owner);
                self.emit(Op::CallStaticVirt { method, base, dst: base, ty });
            }
            _ if is_virtual && self.c.interfaces_implemented_twice.contains(&md.owner) => {
                let iface = self.type_value(owner);
                self.emit(Op::CallInterface { method, base, dst: base, iface });
            }
            _ if is_virtual => {
                self.emit(Op::CallVirt { method, base, dst: base });
            }
            _ if md.flags.has(Flags::FAST_PATH) => {
                self.emit_type_init_before_call(method, owner);
                if null_check {
                    self.emit(Op::NullCheck { src: base });
                }
                self.emit(Op::CallFastPath { method, base, dst: base });
            }
            _ if null_check => {
                self.emit(Op::CallChecked { method, base, dst: base });
            }
            _ => {
                self.emit_type_init_before_call(method, owner);
                self.emit(Op::Call { method, base, dst: base });
            }
        }
    }

    /// A class with an explicit static constructor is initialised by the first call of
    /// one of its static methods or constructors (`: base(...)` included), not only by
    /// `new` and field access. Code inside the class itself never needs the check.
    /// A generic class is initialised per constructed type (`Gen<int>`), when the call
    /// names a closed one.
    fn emit_type_init_before_call(&mut self, method: MethodId, owner: TypeId) {
        let md = self.c.meta.method(method);
        if !(md.is_static() || md.kind == crate::metadata::MethodKind::Constructor) {
            return;
        }
        let def = md.owner;
        let d = self.c.meta.type_def(def);
        let here = self.c.meta.method(self.method).owner;
        if !d.flags.has(crate::metadata::Flags::EXPLICIT_CCTOR) || def == here {
            return;
        }
        let ty = if d.type_params.is_empty() { d.self_type } else { owner };
        if self.c.meta.types.def_of(ty) == Some(def) && !self.c.meta.types.is_open(ty) {
            self.emit(Op::InitType { ty });
        }
    }

    pub fn emit_callee_context_for(&mut self, method: MethodId, owner: TypeId, type_args: &[TypeId], slot: Reg) {
        self.emit_callee_context(method, owner, type_args, slot);
    }

    /// Stores in the delegate in `delegate` the generic context its method expects (as a
    /// call would pass it), so `G<int>.M` and `M<string>` run with their type arguments.
    fn emit_delegate_context(&mut self, delegate: Reg, method: MethodId, owner: TypeId, type_args: &[TypeId]) {
        let m = self.mark();
        let ctx = self.alloc_reg();
        self.emit_callee_context(method, owner, type_args, ctx);
        self.emit(Op::SetDelegateContext { delegate, ctx });
        self.free_to(m);
    }

    /// In generic code, gives the delegate just made in `delegate` its closed type `ty`
    /// (nothing to do when `ty` is closed: `NewDelegate` named it).
    fn emit_delegate_type(&mut self, delegate: Reg, ty: TypeId) {
        let m = self.mark();
        if let TypeOperand::Reg(ty) = self.type_operand(ty) {
            self.emit(Op::SetDelegateType { delegate, ty });
        }
        self.free_to(m);
    }

    /// The hidden generic-context argument a callee expects.
    fn emit_callee_context(&mut self, method: MethodId, owner: TypeId, type_args: &[TypeId], slot: Reg) {
        let md = self.c.meta.method(method).clone();
        let class_ctx = self.c.receives_class_context(method);
        if md.type_params.is_empty() {
            let r = self.type_value(owner);
            self.mov(slot, r);
            return;
        }
        let all_closed = type_args.iter().all(|&t| !self.c.meta.types.is_open(t)) && !(class_ctx && self.c.meta.types.is_open(owner));
        if all_closed {
            let class_args: Box<[TypeId]> = if class_ctx { self.c.meta.types.args_of(owner).into() } else { Box::new([]) };
            let ctx = self.c.meta.types.intern(TypeKind::Context { type_args: class_args, method_args: type_args.into() });
            self.emit(Op::LoadType { dst: slot, ty: ctx });
            return;
        }
        let class_reg = if class_ctx {
            self.type_value(owner)
        } else {
            let r = self.alloc_reg();
            self.emit(Op::LoadNull { dst: r });
            r
        };
        let first = Reg(self.next_reg);
        let regs: Vec<Reg> = type_args.iter().map(|_| self.alloc_reg()).collect();
        for (&t, &r) in type_args.iter().zip(&regs) {
            let v = self.type_value(t);
            self.mov(r, v);
        }
        self.emit(Op::MakeContext { dst: slot, class_ctx: class_reg, args: first, count: type_args.len() as u16 });
    }

    /// `dst <-` a managed reference to the variable `e`.
    pub fn emit_ref(&mut self, e: &BExpr, dst: Reg) {
        match &e.kind {
            BKind::Local(l) => match self.local_location(*l) {
                LocalLoc::Field(obj, slot) => {
                    self.emit(Op::MakeRefField { dst, obj, slot });
                }
                LocalLoc::RefReg(r) => self.mov(dst, r),
                LocalLoc::Reg(r) => {
                    // Not hoisted (should not happen for by-ref locals): pass the value.
                    self.mov(dst, r);
                }
            },
            BKind::Field { receiver: Some(recv), field, .. } => {
                let obj = self.emit_receiver(recv);
                let slot = self.c.meta.field(*field).slot as u16;
                self.emit(Op::MakeRefField { dst, obj, slot });
            }
            BKind::Field { receiver: None, field, owner } => {
                match self.type_operand(*owner) {
                    TypeOperand::Closed(ty) => self.emit(Op::MakeRefStatic { dst, ty, field: *field }),
                    TypeOperand::Reg(ty) => self.emit(Op::MakeRefStaticDyn { dst, ty, field: *field }),
                };
            }
            BKind::Elem { array, indices } => {
                let a = self.emit_value(array);
                let i = match self.emit_indices(indices) {
                    Indices::One(i) => i,
                    Indices::Many(first) => {
                        let i = self.alloc_reg();
                        self.emit(Op::ElemIndex { dst: i, arr: a, indexes: first });
                        i
                    }
                };
                if let Some((elem, _)) = self.c.meta.types.array_elem(array.ty) {
                    if !self.elements_are_exact(array.ty) && !self.c.meta.types.is_open(elem) {
                        self.emit(Op::CheckElemTypeExact { arr: a, ty: elem });
                    }
                }
                self.emit(Op::MakeRefElem { dst, arr: a, index: i });
            }
            BKind::Seq { stmts, value } => {
                for s in stmts {
                    self.emit_stmt(s);
                }
                self.emit_ref(value, dst);
            }
            BKind::Deref(reference) => self.emit_into(reference, dst),
            _ => self.emit_into(e, dst),
        }
    }

    fn emit_new(&mut self, ty: TypeId, ctor: Option<MethodId>, args: &[BArg], dst: Reg) {
        if let Some(MethodBody::Native(native)) = ctor.map(|c| self.c.meta.method(c).body) {
            let base = Reg(self.next_reg);
            self.alloc_args(args);
            self.emit(Op::CallNative { native, base, argc: args.len() as u8, dst });
            return;
        }
        let obj = self.alloc_reg();
        match self.type_operand(ty) {
            TypeOperand::Closed(t) => {
                self.emit(Op::New { dst: obj, ty: t });
            }
            TypeOperand::Reg(t) => {
                self.emit(Op::NewDyn { dst: obj, ty: t });
                if ctor.is_none() {
                    // `new T()`: which constructor runs is known only at run time.
                    let base = self.alloc_reg();
                    self.emit(Op::InitDyn { obj, base, ty: t });
                }
            }
        };
        if let Some(ctor) = ctor {
            let base = self.alloc_reg();
            self.mov(base, obj);
            self.alloc_args(args);
            self.emit(Op::Call { method: ctor, base, dst: base });
        }
        self.mov(dst, obj);
    }

    fn emit_new_array(&mut self, ty: TypeId, sizes: &[BExpr], dst: Reg) {
        if sizes.len() == 1 {
            let n = self.emit_value(&sizes[0]);
            match self.type_operand(ty) {
                TypeOperand::Closed(t) => self.emit(Op::NewArray { dst, ty: t, len: n }),
                TypeOperand::Reg(t) => self.emit(Op::NewArrayDyn { dst, ty: t, len: n }),
            };
            return;
        }
        let first = Reg(self.next_reg);
        let regs: Vec<Reg> = sizes.iter().map(|_| self.alloc_reg()).collect();
        for (s, &r) in sizes.iter().zip(&regs) {
            self.emit_into(s, r);
        }
        match self.type_operand(ty) {
            TypeOperand::Closed(t) => self.emit(Op::NewArrayMulti { dst, ty: t, dims: first }),
            TypeOperand::Reg(t) => self.emit(Op::NewArrayMultiDyn { dst, ty: t, dims: first, rank: sizes.len() as u8 }),
        };
    }

    /// Whether an array of static type `array_ty` holds exactly its static element type, so
    /// a store needs no covariance check: elements of a value type or a sealed class
    /// without variant type parameters (arrays of them cannot be viewed as arrays of
    /// another element type).
    fn elements_are_exact(&self, array_ty: TypeId) -> bool {
        let meta = &self.c.meta;
        let Some((elem, _)) = meta.types.array_elem(array_ty) else { return false };
        let sealed_invariant = |d: crate::metadata::TypeDefId| {
            let def = meta.type_def(d);
            def.flags.has(crate::metadata::Flags::SEALED) && def.type_params.iter().all(|p| p.variance == 0)
        };
        meta.is_value_type(elem) || meta.types.def_of(elem).is_some_and(sealed_invariant)
    }

    fn emit_array_literal(&mut self, ty: TypeId, elems: &[BExpr], dst: Reg) {
        let n = self.alloc_reg();
        self.emit(Op::LoadI32 { dst: n, value: elems.len() as i32 });
        let arr = self.alloc_reg();
        match self.type_operand(ty) {
            TypeOperand::Closed(t) => self.emit(Op::NewArray { dst: arr, ty: t, len: n }),
            TypeOperand::Reg(t) => self.emit(Op::NewArrayDyn { dst: arr, ty: t, len: n }),
        };
        let idx = self.alloc_reg();
        for (i, e) in elems.iter().enumerate() {
            let m = self.mark();
            let v = self.emit_value(e);
            self.emit(Op::LoadI32 { dst: idx, value: i as i32 });
            self.emit(Op::StoreElem { arr, index: idx, src: v });
            self.free_to(m);
        }
        self.mov(dst, arr);
    }
}

enum Indices {
    One(Reg),
    Many(Reg),
}

/// Whether evaluating `e` can assign a local (so an earlier operand held in that local's
/// register must be copied first).
fn may_write_locals(e: &BExpr) -> bool {
    let mut found = false;
    visit(e, &mut |x| {
        if matches!(x.kind, BKind::Assign { .. } | BKind::Seq { .. } | BKind::CallNested { .. }) {
            found = true;
        }
        if let BKind::Call { args, .. } = &x.kind {
            if args.iter().any(|a| a.kind == ArgKind::Ref) {
                found = true;
            }
        }
    });
    found
}

/// Visits an expression tree (not descending into statements of `Seq`).
fn visit(e: &BExpr, f: &mut dyn FnMut(&BExpr)) {
    f(e);
    let mut go = |x: &BExpr| visit(x, f);
    match &e.kind {
        BKind::Field { receiver: Some(r), .. } => go(r),
        BKind::Elem { array, indices } => {
            go(array);
            indices.iter().for_each(&mut go);
        }
        BKind::Call { receiver, args, .. } => {
            if let Some(r) = receiver {
                go(r);
            }
            args.iter().for_each(|a| go(&a.expr));
        }
        BKind::New { args, .. } | BKind::CallNested { args, .. } => args.iter().for_each(|a| go(&a.expr)),
        BKind::NewArray { sizes } => sizes.iter().for_each(&mut go),
        BKind::ArrayLiteral { elems } | BKind::Concat(elems) => elems.iter().for_each(&mut go),
        BKind::DelegateNew { target: Some(t), .. } => go(t),
        BKind::Invoke { delegate, args } => {
            go(delegate);
            args.iter().for_each(|a| go(&a.expr));
        }
        BKind::Unary { operand, .. } | BKind::Conv { operand, .. } | BKind::TypeTest { operand, .. } | BKind::As { operand, .. } => go(operand),
        BKind::Format { value, .. } | BKind::Throw(value) | BKind::RefOf(value) | BKind::Deref(value) => go(value),
        BKind::Await(parts) => {
            go(&parts.operand);
            go(&parts.get_awaiter);
            go(&parts.is_completed);
            go(&parts.get_result);
        }
        BKind::Align { value, alignment } => {
            go(value);
            go(alignment);
        }
        BKind::Binary { left, right, .. } | BKind::AndAlso(left, right) | BKind::OrElse(left, right) | BKind::Coalesce(left, right) => {
            go(left);
            go(right);
        }
        BKind::Assign { target, value } => {
            go(target);
            go(value);
        }
        BKind::Cond { cond, then, otherwise } => {
            go(cond);
            go(then);
            go(otherwise);
        }
        BKind::Seq { value, .. } => go(value),
        BKind::ConditionalAccess { receiver, access, .. } => {
            go(receiver);
            go(access);
        }
        _ => {}
    }
}

/// The value a boxing conversion boxes, or `e` itself. Boxing turns null (a null reference
/// or an empty `Nullable<T>`) into null and anything else into an object, so a null test
/// can look at the value unboxed, without allocating the box (`key == null` on a `T`).
fn unboxed(e: &BExpr) -> &BExpr {
    match &e.kind {
        BKind::Conv { kind: ConvKind::Box { .. }, operand } => operand,
        _ => e,
    }
}
