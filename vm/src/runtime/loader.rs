//! Turns a compiled [`Program`] into a ready [`Vm`]: constant pools become values (string
//! literals interned on the heap, decimal literals parsed), and the runtime learns where
//! `System.Exception` keeps the fields it reads directly.

use std::rc::Rc;

use super::numerics::Decimal;
use super::object::Obj;
use super::value::Value;
use super::{ExceptionLayout, Sinks, Vm, VmOptions};
use crate::bytecode::PoolEntry;
use crate::compiler::Program;
use crate::metadata::{Constant, TypeKind};

impl Vm {
    /// Loads `program`. Fails only if the standard library is missing something the
    /// runtime depends on.
    pub fn load(program: Program, sinks: Sinks, options: VmOptions) -> Result<Vm, String> {
        let mut vm = Vm::new(program.meta, program.functions, sinks, options);
        vm.exception_layout = vm.find_exception_layout()?;
        let slot = |vm: &Vm, ty: &str, field: &str| {
            vm.meta.find_type_def("System.Threading", ty).and_then(|d| vm.meta.instance_field_slot(d, field)).map(|s| s as u16)
        };
        vm.thread_ec_slot = slot(&vm, "Thread", "_executionContext");
        vm.thread_sc_slot = slot(&vm, "Thread", "_synchronizationContext");
        vm.ec_suppressed_slot = slot(&vm, "ExecutionContext", "_isFlowSuppressed");
        vm.ec_notifications_slot = slot(&vm, "ExecutionContext", "_localChangeNotifications");
        vm.on_values_changed = vm.meta.find_type_def("System.Threading", "ExecutionContext").and_then(|d| {
            vm.meta.type_def(d).methods.iter().copied().find(|&m| vm.meta.method(m).name == "OnValuesChanged")
        });
        vm.base_sync_ctx_type = vm.meta.find_type_def("System.Threading", "SynchronizationContext").map(|d| vm.meta.type_def(d).self_type);
        vm.load_constant_pools()?;
        Ok(vm)
    }

    fn load_constant_pools(&mut self) -> Result<(), String> {
        let mut functions = std::mem::take(&mut self.functions);
        let Some(list) = Rc::get_mut(&mut functions) else {
            return Err("functions are shared before loading".into());
        };
        for f in list.iter_mut() {
            let mut consts = Vec::with_capacity(f.pool.len());
            for entry in &f.pool {
                consts.push(self.pool_value(entry)?);
            }
            f.consts = consts;
        }
        self.functions = functions;
        Ok(())
    }

    fn pool_value(&mut self, entry: &PoolEntry) -> Result<Value, String> {
        Ok(match entry {
            PoolEntry::Value(v) => *v,
            PoolEntry::Constant(c) => match c {
                Constant::Null => Value::Null,
                Constant::Bool(b) => Value::Bool(*b),
                Constant::Char(c) => Value::Char(*c),
                Constant::Int(i) => Value::I64(*i),
                Constant::UInt(u) => Value::U64(*u),
                Constant::Float(f) => Value::F64(*f),
                Constant::String(s) => self.literal(s),
                Constant::Decimal(text) => {
                    let d = Decimal::from_literal(text).map_err(|_| format!("bad decimal literal {text}"))?;
                    Value::Ref(self.heap.alloc(Obj::Decimal(d)))
                }
            },
        })
    }

    fn find_exception_layout(&self) -> Result<ExceptionLayout, String> {
        let exception = self.meta.well_known.exception;
        let TypeKind::Named { def, .. } = self.meta.types.kind(exception) else {
            return Err("System.Exception is not a class".into());
        };
        let slot = |name: &str| -> Result<u16, String> {
            self.meta
                .type_def(*def)
                .fields
                .iter()
                .map(|&f| self.meta.field(f))
                .find(|f| f.name == name && !f.is_static())
                .map(|f| f.slot as u16)
                .ok_or_else(|| format!("System.Exception has no field {name}"))
        };
        Ok(ExceptionLayout {
            message: slot("_message")?,
            inner: slot("_innerException")?,
            stack_trace: slot("_stackTrace")?,
            param_name: slot("_paramName")?,
            inner_exceptions: slot("_innerExceptions")?,
        })
    }
}
