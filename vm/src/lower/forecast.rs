//! The allocation forecast of `vm lower`: what calls of an async method will allocate, in
//! the modeled 64-bit .NET sizes `--stats` counts (`runtime/clr_size.rs`,
//! `runtime/stats.rs`), asked of the same model through a loaded (never run) [`Vm`].

use crate::metadata::{TypeDefId, TypeId, TypeKind};
use crate::runtime::clr_size::Layout;
use crate::runtime::Vm;

/// What an async method hands back, as far as allocation goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Returns {
    /// `Task<T>`: a completed call needs a `Task<T>`, unless `FromResult` has it cached.
    TaskOf(TypeId),
    /// `Task`: a completed call returns the cached completed task.
    Task,
    /// `ValueTask`/`ValueTask<T>`: a completed call needs no object.
    ValueTask,
    /// `async void`.
    Void,
}

impl Returns {
    pub fn of(vm: &Vm, ret: TypeId) -> Returns {
        let TypeKind::Named { def, args } = vm.meta.types.kind(ret) else { return Returns::Void };
        match (vm.meta.type_def(*def).name.as_str(), args.first()) {
            ("Task", Some(&t)) => Returns::TaskOf(t),
            ("Task", None) => Returns::Task,
            ("ValueTask", _) => Returns::ValueTask,
            _ => Returns::Void,
        }
    }

    /// The `T` of the `Task<T>` behind the method's task (`VoidTaskResult` without one).
    fn task_result(self, vm: &Vm) -> Option<TypeId> {
        match self {
            Returns::TaskOf(t) => Some(t),
            _ => library_type(vm, "System.Threading.Tasks", "VoidTaskResult", 0).map(|d| vm.meta.type_def(d).self_type),
        }
    }
}

/// What a call that completes without suspending costs at a task-returning boundary: the
/// bytes and the results `Task.FromResult` serves from its cache.
pub struct Completed {
    pub bytes: u32,
    pub cached: Option<&'static str>,
    /// What is returned (`Task<int>`, "the cached completed Task"...).
    pub what: String,
}

pub fn completed_call(vm: &mut Vm, returns: Returns) -> Completed {
    match returns {
        Returns::TaskOf(t) => {
            let bytes = task_of(vm, t).map_or(0, |task| vm.modeled_instance_size(task).unwrap_or(0));
            Completed { bytes, cached: cached_results(vm, t), what: format!("Task<{}>", vm.meta.cs_short_name(t)) }
        }
        Returns::Task => Completed { bytes: 0, cached: None, what: "the cached completed Task".into() },
        Returns::ValueTask => Completed { bytes: 0, cached: None, what: "a ValueTask (a struct)".into() },
        Returns::Void => Completed { bytes: 0, cached: None, what: "nothing (async void)".into() },
    }
}

/// Results `Task.FromResult` returns from its cache (stdlib `Task.Factories`).
fn cached_results(vm: &Vm, t: TypeId) -> Option<&'static str> {
    let wk = &vm.meta.well_known;
    if t == wk.boolean {
        Some("true and false")
    } else if t == wk.int32 {
        Some("-1..8")
    } else if [wk.char, wk.sbyte, wk.byte, wk.int16, wk.uint16, wk.uint32, wk.int64, wk.uint64, wk.single, wk.double].contains(&t) {
        Some("0")
    } else if vm.meta.types.def_of(t).is_some_and(|d| vm.meta.type_def(d).is_value_type()) {
        None
    } else {
        Some("null")
    }
}

/// The classic lowering's box: `AsyncStateMachineBox<SM>`, a `Task<T>` with the state
/// machine struct inline.
pub struct BoxSize {
    pub task: u32,
    pub state_machine: u32,
    pub total: u32,
    /// `(field, size)` of the struct, as it is packed.
    pub fields: Vec<(String, Layout)>,
}

pub fn state_machine_box(vm: &mut Vm, returns: Returns, sm: TypeDefId) -> BoxSize {
    let sm_type = vm.meta.type_def(sm).self_type;
    let fields = state_machine_fields(vm, sm);
    let struct_size = vm.inline_layout(sm_type).size;
    let result = returns.task_result(vm);
    let task = result.and_then(|r| task_of(vm, r)).and_then(|t| vm.modeled_instance_size(t)).unwrap_or(0);
    let boxed = result.and_then(|r| box_type(vm, r, sm_type)).and_then(|b| vm.modeled_instance_size(b));
    let total = boxed.unwrap_or(task + crate::runtime::clr_size::round8(struct_size));
    BoxSize { task, state_machine: total.saturating_sub(task), total, fields }
}

/// The fields the model counts in a state machine, with their inline layouts.
fn state_machine_fields(vm: &mut Vm, sm: TypeDefId) -> Vec<(String, Layout)> {
    let ids = vm.meta.type_def(sm).fields.clone();
    let mut out = Vec::new();
    for f in ids {
        let fd = vm.meta.field(f).clone();
        if fd.is_static() || fd.name == crate::metadata::well_known::SELF_REFERENCE_FIELD {
            continue;
        }
        out.push((fd.name, vm.inline_layout(fd.ty)));
    }
    out
}

/// The runtime lowering's boundary task: `RuntimeAsyncTask<T>` (with its `MoveNext`
/// delegate), made when a chain started by the task entry suspends.
pub fn runtime_async_task(vm: &mut Vm, returns: Returns) -> Option<(String, u32)> {
    let result = returns.task_result(vm)?;
    let def = library_type(vm, "System.Runtime.CompilerServices", "RuntimeAsyncTask", 1)?;
    let t = vm.meta.types.named(def, &[result]);
    let bytes = vm.modeled_instance_size(t)?;
    Some((vm.stats_type_name(t), bytes))
}

fn task_of(vm: &mut Vm, result: TypeId) -> Option<TypeId> {
    let def = library_type(vm, "System.Threading.Tasks", "Task", 1)?;
    Some(vm.meta.types.named(def, &[result]))
}

/// `AsyncTaskMethodBuilder<T>.AsyncStateMachineBox<SM>`.
fn box_type(vm: &mut Vm, result: TypeId, sm: TypeId) -> Option<TypeId> {
    let builder = library_type(vm, "System.Runtime.CompilerServices", "AsyncTaskMethodBuilder", 1)?;
    let def = vm.meta.type_def(builder).nested.iter().copied().find(|&d| vm.meta.type_def(d).name == "AsyncStateMachineBox")?;
    Some(vm.meta.types.named(def, &[result, sm]))
}

/// A top-level library type by namespace, name and arity.
fn library_type(vm: &Vm, namespace: &str, name: &str, arity: usize) -> Option<TypeDefId> {
    let defs = &vm.meta.type_defs;
    let found = defs.iter().position(|d| d.namespace == namespace && d.name == name && d.declaring_type.is_none() && d.type_params.len() == arity);
    found.map(|i| TypeDefId(i as u32))
}
