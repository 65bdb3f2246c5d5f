//! `Iterator<T>`'s intrinsics (`MoveNext` and `Dispose` are in `frames.rs`: the interpreter
//! resumes the iterator's frame for them).

use super::support::{arg, nre};
use crate::runtime::native::{NativeEntry, NativeResult};
use crate::runtime::object::{Generator, GeneratorState, Obj};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub static ENTRIES: &[NativeEntry] =
    &[NativeEntry { name: "Iterator.get_Current", func: current }, NativeEntry { name: "Iterator.GetEnumerator", func: get_enumerator }];

fn current(vm: &mut Vm, args: &[Value]) -> NativeResult {
    match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Generator(g)) => Ok(g.current),
        _ => Err(nre()),
    }
}

/// The iterator itself the first time, afterwards a new one over the same arguments.
fn get_enumerator(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let this = arg(args, 0);
    let Some(Obj::Generator(g)) = this.gc_ref().and_then(|r| vm.heap.get_mut(r)) else { return Err(nre()) };
    if !g.enumerated && g.state == GeneratorState::Fresh {
        g.enumerated = true;
        return Ok(this);
    }
    let fresh = Generator {
        ty: g.ty,
        body: g.body,
        args: g.args.clone(),
        regs: Vec::new(),
        pc: 0,
        resume: g.resume,
        current: Value::Null,
        state: GeneratorState::Fresh,
        enumerated: true,
    };
    Ok(Value::Ref(vm.heap.alloc(Obj::Generator(Box::new(fresh)))))
}
