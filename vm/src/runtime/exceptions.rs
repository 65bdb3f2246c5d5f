//! Exceptions from the runtime's side: creating the exception objects the VM itself throws
//! (null dereference, division by zero...), recording the frames an exception passes
//! through, and formatting them as .NET's `   at Type.Method(Int32 x) in FILE:line N`.

use super::native::{ExceptionKind, NativeData, TraceFrame};
use super::object::Obj;
use super::value::Value;
use super::Vm;
use crate::bytecode::FunctionId;
use crate::metadata::{MethodId, MethodKind, TypeId};

/// .NET's message for each exception the runtime raises on its own.
pub fn default_message(kind: ExceptionKind) -> &'static str {
    match kind {
        ExceptionKind::NullReference => "Object reference not set to an instance of an object.",
        ExceptionKind::DivideByZero => "Attempted to divide by zero.",
        ExceptionKind::Overflow => "Arithmetic operation resulted in an overflow.",
        ExceptionKind::IndexOutOfRange => "Index was outside the bounds of the array.",
        ExceptionKind::InvalidCast => "Specified cast is not valid.",
        ExceptionKind::InvalidOperation => "Operation is not valid due to the current state of the object.",
        ExceptionKind::Argument => "Value does not fall within the expected range.",
        ExceptionKind::ArgumentNull => "Value cannot be null.",
        ExceptionKind::ArgumentOutOfRange => "Specified argument was out of the range of valid values.",
        ExceptionKind::Format => "One of the identified items was in an invalid format.",
        ExceptionKind::NotSupported => "Specified method is not supported.",
        ExceptionKind::NotImplemented => "The method or operation is not implemented.",
        ExceptionKind::KeyNotFound => "The given key was not present in the dictionary.",
        ExceptionKind::ArrayTypeMismatch => "Attempted to access an element as a type incompatible with the array.",
        ExceptionKind::OutOfMemory => "Exception of type 'System.OutOfMemoryException' was thrown.",
        ExceptionKind::ArrayTooLarge | ExceptionKind::ArrayLengthOverflow => "Array dimensions exceeded supported range.",
    }
}

impl Vm {
    fn exception_type(&self, kind: ExceptionKind) -> TypeId {
        let wk = &self.meta.well_known;
        match kind {
            ExceptionKind::NullReference => wk.null_reference_exception,
            ExceptionKind::DivideByZero => wk.divide_by_zero_exception,
            ExceptionKind::Overflow => wk.overflow_exception,
            ExceptionKind::IndexOutOfRange => wk.index_out_of_range_exception,
            ExceptionKind::InvalidCast => wk.invalid_cast_exception,
            ExceptionKind::InvalidOperation => wk.invalid_operation_exception,
            ExceptionKind::Argument => wk.argument_exception,
            ExceptionKind::ArgumentNull => wk.argument_null_exception,
            ExceptionKind::ArgumentOutOfRange => wk.argument_out_of_range_exception,
            ExceptionKind::Format => wk.format_exception,
            ExceptionKind::NotSupported => wk.not_supported_exception,
            ExceptionKind::NotImplemented => wk.not_implemented_exception,
            ExceptionKind::KeyNotFound => wk.key_not_found_exception,
            ExceptionKind::ArrayTypeMismatch => wk.array_type_mismatch_exception,
            ExceptionKind::OutOfMemory | ExceptionKind::ArrayTooLarge => wk.out_of_memory_exception,
            ExceptionKind::ArrayLengthOverflow => wk.overflow_exception,
        }
    }

    /// A new exception object of a well-known type with `message` (the type's .NET default
    /// message when `None`). Argument exceptions take `"message|paramName"` apart.
    pub fn new_exception(&mut self, kind: ExceptionKind, message: Option<&str>) -> Value {
        let ty = self.exception_type(kind);
        let text = message.unwrap_or(default_message(kind));
        let (msg, param) = match kind {
            ExceptionKind::Argument | ExceptionKind::ArgumentNull | ExceptionKind::ArgumentOutOfRange => match text.rsplit_once('|') {
                Some((m, p)) => (m, Some(p)),
                None => (text, None),
            },
            _ => (text, None),
        };
        let msg = if msg.is_empty() { default_message(kind) } else { msg };
        let exc = self.new_instance(ty, false);
        let msg_value = self.alloc_str(msg);
        let layout = self.exception_layout;
        self.set_field(exc, layout.message, msg_value);
        if let Some(p) = param {
            let p = self.alloc_str(p);
            self.set_field(exc, layout.param_name, p);
        }
        exc
    }

    pub fn set_field(&mut self, obj: Value, slot: u16, v: Value) {
        if let Some(Obj::Instance(i)) = obj.gc_ref().and_then(|r| self.heap.get_mut(r)) {
            if let Some(f) = i.fields.get_mut(slot as usize) {
                *f = v;
            }
        }
    }

    pub fn get_field(&self, obj: Value, slot: u16) -> Value {
        match obj.gc_ref().and_then(|r| self.heap.get(r)) {
            Some(Obj::Instance(i)) => i.fields.get(slot as usize).copied().unwrap_or(Value::Null),
            _ => Value::Null,
        }
    }

    /// Starts a fresh stack trace on `exc` at `(method, pc)` of the top frame (a `throw`).
    pub fn begin_trace(&mut self, exc: Value, func: FunctionId, pc: u32) {
        let depth = self.thread.frames.len() as u32;
        let first = TraceFrame { func, pc, depth };
        let trace = self.heap.alloc(Obj::Native(Box::new(NativeData::StackTrace(vec![first]))));
        let slot = self.exception_layout.stack_trace;
        self.set_field(exc, slot, Value::Ref(trace));
    }

    /// Appends the top frame, which the exception is passing through (unwinding or
    /// rethrow), unless it is already the last recorded frame.
    pub fn extend_trace(&mut self, exc: Value, func: FunctionId, pc: u32) {
        let depth = self.thread.frames.len() as u32;
        let slot = self.exception_layout.stack_trace;
        match self.get_field(exc, slot).gc_ref().and_then(|r| self.heap.get_mut(r)) {
            Some(Obj::Native(n)) => {
                if let NativeData::StackTrace(frames) = n.as_mut() {
                    let same = frames.last().is_some_and(|f| f.func == func && f.depth == depth);
                    if !same {
                        frames.push(TraceFrame { func, pc, depth });
                    }
                }
            }
            _ => self.begin_trace(exc, func, pc),
        }
    }

    /// The exception's stack trace as .NET prints it (lines joined with `\n`), or `None` if
    /// it was never thrown.
    pub fn format_stack_trace(&self, exc: Value) -> Option<String> {
        let slot = self.exception_layout.stack_trace;
        let frames = match self.get_field(exc, slot).gc_ref().and_then(|r| self.heap.get(r)) {
            Some(Obj::Native(n)) => match n.as_ref() {
                NativeData::StackTrace(f) => f.clone(),
                _ => return None,
            },
            _ => return None,
        };
        Some(self.format_trace_frames(&frames))
    }

    /// The lines of a recorded trace, without the frames of `[StackTraceHidden]` methods.
    pub fn format_trace_frames(&self, frames: &[TraceFrame]) -> String {
        let shown = frames.iter().filter(|f| {
            let method = self.functions.get(f.func.0 as usize).map(|func| func.method);
            !method.is_some_and(|m| self.meta.method(m).flags.has(crate::metadata::Flags::STACK_TRACE_HIDDEN))
        });
        let lines: Vec<String> = shown.map(|f| self.frame_line(f.func, f.pc)).collect();
        lines.join("\n")
    }

    /// One stack-trace line: `   at Ns.Type.Method(Int32 a, String b) in FILE:line N`.
    /// Standard-library frames carry no location, as CoreLib's frames have no symbols. A
    /// classic state machine's `MoveNext` shows as its async method, as in .NET.
    pub fn frame_line(&self, func: FunctionId, pc: u32) -> String {
        let Some(f) = self.functions.get(func.0 as usize) else { return String::from("   at ?") };
        let method = self.meta.kickoff_of.get(&f.method).copied().unwrap_or(f.method);
        let mut s = format!("   at {}", self.method_display_name(method));
        let owner = self.meta.type_def(self.meta.method(method).owner);
        if owner.flags.has(crate::metadata::Flags::LIBRARY) {
            return s;
        }
        if let (Some(span), Some(file)) = (f.span_at(pc), self.meta.files.get(f.file.index())) {
            let lc = file.line_col(span.start);
            s.push_str(&format!(" in {}:line {}", file.name, lc.line));
        }
        s
    }

    /// `Namespace.Type.Method(ParamType name, ...)` with `+` of nested types shown as `.`,
    /// as `System.Diagnostics.StackTrace` does.
    pub fn method_display_name(&self, method: MethodId) -> String {
        let m = self.meta.method(method);
        let owner = self.meta.def_full_name(m.owner).replace('+', ".");
        let params: Vec<String> = m.params.iter().map(|p| format!("{} {}", self.meta.clr_name(p.ty), p.name)).collect();
        format!("{owner}.{}({})", self.runtime_method_name(method), params.join(", "))
    }

    /// A method's name as the runtime shows it: `.ctor`, `.cctor`, or the name with its
    /// generic parameters (`Map[T,U]`).
    pub fn runtime_method_name(&self, method: MethodId) -> String {
        let m = self.meta.method(method);
        let name = match m.kind {
            MethodKind::Constructor => ".ctor",
            MethodKind::StaticConstructor => ".cctor",
            _ => m.name.as_str(),
        };
        if m.type_params.is_empty() {
            return name.to_string();
        }
        let names: Vec<&str> = m.type_params.iter().map(|p| p.name.as_str()).collect();
        format!("{name}[{}]", names.join(","))
    }
}
