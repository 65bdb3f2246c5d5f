//! Turns a compiled [`Program`] into a ready [`Vm`]: constant pools become values (string
//! literals interned on the heap, decimal literals parsed), and the runtime learns where
//! `System.Exception` keeps the fields it reads directly.

use std::rc::Rc;

use super::numerics::Decimal;
use super::object::Obj;
use super::value::Value;
use super::{ExceptionLayout, Sinks, Vm, VmOptions};
use crate::bytecode::{Function, PoolEntry};
use crate::compiler::Program;
use crate::metadata::{Constant, MethodBody, MethodId, TypeKind};

impl Vm {
    /// Loads `program`. Fails only if the standard library is missing something the
    /// runtime depends on.
    pub fn load(program: Program, sinks: Sinks, options: VmOptions) -> Result<Vm, String> {
        let mut vm = Vm::new(program.meta, program.functions, sinks, options);
        vm.library = program.library;
        vm.exception_layout = vm.find_exception_layout()?;
        let slot = |vm: &Vm, ty: &str, field: &str| {
            vm.meta.find_type_def("System.Threading", ty).and_then(|d| vm.meta.instance_field_slot(d, field)).map(|s| s as u16)
        };
        vm.thread_ec_slot = slot(&vm, "Thread", "_executionContext");
        vm.thread_sc_slot = slot(&vm, "Thread", "_synchronizationContext");
        vm.ec_suppressed_slot = slot(&vm, "ExecutionContext", "_isFlowSuppressed");
        vm.ec_notifications_slot = slot(&vm, "ExecutionContext", "_localChangeNotifications");
        vm.on_values_changed = vm
            .meta
            .find_type_def("System.Threading", "ExecutionContext")
            .and_then(|d| vm.meta.type_def(d).methods.iter().copied().find(|&m| vm.meta.method(m).name == "OnValuesChanged"));
        vm.base_sync_ctx_type = vm.meta.find_type_def("System.Threading", "SynchronizationContext").map(|d| vm.meta.type_def(d).self_type);
        vm.load_constant_pools()?;
        vm.init_jit();
        Ok(vm)
    }

    fn load_constant_pools(&mut self) -> Result<(), String> {
        let mut functions = std::mem::take(&mut self.functions);
        let Some(list) = Rc::get_mut(&mut functions) else {
            return Err("functions are shared before loading".into());
        };
        for f in list.iter_mut() {
            let Some(f) = Rc::get_mut(f) else {
                return Err("functions are shared before loading".into());
            };
            self.load_function(f)?;
        }
        self.functions = functions;
        Ok(())
    }

    /// Turns a function's constant pool into values.
    fn load_function(&mut self, f: &mut Function) -> Result<(), String> {
        let mut consts = Vec::with_capacity(f.pool.len());
        for entry in &f.pool {
            consts.push(self.pool_value(entry)?);
        }
        f.consts = consts;
        f.chaos_points = f.preemptible && self.sched.explores();
        Ok(())
    }

    /// Compiles `m` now if it is a standard-library method whose body has not been
    /// compiled yet (or the code body of one), and loads the new functions.
    pub fn compile_lazily(&mut self, m: MethodId) -> Result<(), String> {
        if self.meta.method(m).body != MethodBody::None {
            return Ok(());
        }
        let Some(library) = self.library.as_mut() else { return Ok(()) };
        let first = self.functions.len() as u32;
        let compiled = library.compile(&mut self.meta, m, first)?;
        if compiled.is_empty() {
            return Ok(());
        }
        let mut loaded = Vec::with_capacity(compiled.len());
        for mut f in compiled {
            self.load_function(&mut f)?;
            loaded.push(Rc::new(f));
        }
        Rc::make_mut(&mut self.functions).extend(loaded);
        Ok(())
    }

    /// `m`'s body, compiling it first if it is a library method not compiled yet.
    pub fn body_of(&mut self, m: MethodId) -> Result<MethodBody, String> {
        self.compile_lazily(m)?;
        Ok(self.meta.method(m).body)
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
