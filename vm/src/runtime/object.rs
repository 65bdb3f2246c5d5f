//! The shapes of heap objects: strings, class and struct instances, arrays, delegates,
//! type objects and the native payloads intrinsics keep on the heap.

use super::heap::GcRef;
use super::native::NativeData;
use super::value::Value;
use crate::metadata::MethodId;
use crate::metadata::TypeId;

pub enum Obj {
    /// A `System.String`: immutable UTF-16 code units.
    Str(Box<[u16]>),
    /// A class instance or a struct value.
    Instance(Instance),
    Array(Array),
    Delegate(Delegate),
    /// A `System.Type` object (one per run-time type, so `==` is reference equality).
    Type(TypeId),
    /// A `System.Decimal` value (too wide for a [`Value`]; immutable, so never copied).
    Decimal(super::numerics::Decimal),
    /// The box of a primitive, enum ([`Value::Enum`]) or decimal value (a struct's box is
    /// an [`Obj::Instance`]); reached through [`Value::Boxed`].
    Boxed(Value),
    /// Storage owned by intrinsics (string builders, stack traces, hash tables...).
    Native(Box<NativeData>),
    /// A managed reference to a variable (`ref`/`out` arguments).
    ByRef(RefTarget),
    /// The enumerator an iterator method returns: its suspended frame.
    Generator(Box<Generator>),
    /// One suspended frame of a runtime-async method (a link of a continuation chain).
    Continuation(Box<Continuation>),
}

/// A runtime-lowered async method's frame, saved when an `await` suspended it. The chain
/// runs from the innermost frame (the one that awaited) outwards; the dispatcher resumes
/// them innermost first, each one's result becoming the value of its caller's call.
pub struct Continuation {
    /// The frame that called this one (the next to resume), if it is suspended too.
    pub next: Option<GcRef>,
    pub func: crate::bytecode::FunctionId,
    /// Where execution goes on: just after the `await` or the async call.
    pub pc: u32,
    /// The registers live at `pc` (by the function's liveness), and their values.
    pub live: std::rc::Rc<[crate::bytecode::Reg]>,
    pub regs: Vec<Value>,
    /// The register receiving the result of the suspended call (outer frames).
    pub result_reg: crate::bytecode::Reg,
    /// The awaiter whose completion resumes the chain (the innermost link only).
    pub awaiter: Value,
    /// The ExecutionContext at the suspension (null: Default), reinstalled before the
    /// frame resumes unless flow was suppressed then.
    pub exec_ctx: Value,
    /// The SynchronizationContext at the suspension (null: none).
    pub sync_ctx: Value,
    /// Whether the frame resumes on `sync_ctx` (if that is a custom context) and otherwise
    /// leaves a custom context for the thread pool: an outer frame, whose `await` of a
    /// runtime-async call captured its context. The innermost frame's awaiter decides
    /// that for itself when the chain is hooked to it.
    pub continue_on_captured_context: bool,
    /// How the frame's callee ended, when the chain stopped between the two (to resume
    /// somewhere else): delivered at the call when the frame resumes.
    pub pending: Option<Outcome>,
}

/// What a finished callee hands its suspended caller.
#[derive(Clone, Copy, Debug)]
pub enum Outcome {
    Returned(Value),
    Threw(Value),
}

/// Where an iterator's frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneratorState {
    /// Created, its body not started.
    Fresh,
    /// Its frame is on a stack right now.
    Running,
    /// Stopped at a `yield return`; `pc` is where it goes on.
    Suspended,
    /// Finished, disposed or failed: `MoveNext` returns false.
    Done,
}

/// An iterator method's state between `MoveNext` calls.
pub struct Generator {
    /// `System.Runtime.CompilerServices.Iterator<T>`, constructed.
    pub ty: TypeId,
    /// The method whose bytecode is the iterator's body.
    pub body: MethodId,
    /// The arguments it was called with (receiver first), to start over in
    /// `GetEnumerator`.
    pub args: Box<[Value]>,
    /// The frame's registers while it is suspended.
    pub regs: Vec<Value>,
    pub pc: u32,
    /// The register told, on resumption, whether `Dispose` resumed the frame.
    pub resume: crate::bytecode::Reg,
    pub current: Value,
    pub state: GeneratorState,
    /// `GetEnumerator` hands out the iterator itself only once.
    pub enumerated: bool,
}

/// What a managed reference points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefTarget {
    /// Field `slot` of an object (also a hoisted local in a display object).
    Field(GcRef, u16),
    /// Element `index` of an array.
    Elem(GcRef, u32),
    /// A static field of a type.
    Static(crate::metadata::TypeId, u32),
}

pub struct Instance {
    /// The exact run-time type (a constructed type for generic classes).
    pub ty: TypeId,
    /// All instance fields, base class fields first.
    pub fields: Box<[Value]>,
}

pub struct Array {
    /// The array type itself (`System.Int32[]`), not the element type.
    pub ty: TypeId,
    /// Lengths of each dimension for multi-dimensional arrays; `None` for vectors.
    pub dims: Option<Box<[u32]>>,
    pub items: Vec<Value>,
}

pub struct Delegate {
    pub ty: TypeId,
    pub method: MethodId,
    /// The receiver (`this`, a closure environment, or `Null` for static methods).
    pub target: Value,
    /// The generic context `method` receives as its hidden last argument, when it takes
    /// one (a generic method, a static method of a generic type): the type arguments the
    /// method group named, which the delegate's callers cannot know.
    pub context: Option<TypeId>,
    /// For a combined (multicast) delegate: the single-cast delegates, in call order.
    pub invocation_list: Option<Box<[GcRef]>>,
}

impl Obj {
    /// Calls `f` for every heap reference this object holds (the GC's tracing edge list).
    pub fn for_each_ref(&self, f: &mut dyn FnMut(GcRef)) {
        let mut visit = |v: &Value| {
            if let Some(r) = v.gc_ref() {
                f(r)
            }
        };
        match self {
            Obj::Str(_) | Obj::Type(_) | Obj::Decimal(_) => {}
            Obj::Instance(i) => i.fields.iter().for_each(&mut visit),
            Obj::Boxed(v) => visit(v),
            Obj::Array(a) => a.items.iter().for_each(&mut visit),
            Obj::Delegate(d) => {
                visit(&d.target);
                if let Some(list) = &d.invocation_list {
                    list.iter().for_each(|r| f(*r));
                }
            }
            Obj::Native(n) => n.for_each_value(&mut visit),
            Obj::ByRef(RefTarget::Field(r, _) | RefTarget::Elem(r, _)) => f(*r),
            Obj::ByRef(RefTarget::Static(..)) => {}
            Obj::Generator(g) => {
                g.args.iter().for_each(&mut visit);
                g.regs.iter().for_each(&mut visit);
                visit(&g.current);
            }
            Obj::Continuation(c) => {
                if let Some(n) = c.next {
                    visit(&Value::Ref(n));
                }
                c.regs.iter().for_each(&mut visit);
                visit(&c.awaiter);
                visit(&c.exec_ctx);
                visit(&c.sync_ctx);
                if let Some(Outcome::Returned(v) | Outcome::Threw(v)) = &c.pending {
                    visit(v);
                }
            }
        }
    }
}
