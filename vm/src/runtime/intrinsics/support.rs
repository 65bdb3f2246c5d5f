//! Helpers intrinsics share: typed argument access, exceptions with .NET's messages,
//! culture lookup for `IFormatProvider` arguments.

use crate::runtime::native::{ExceptionKind, NativeError};
use crate::runtime::numerics::{self, NumberFormat};
use crate::runtime::object::Obj;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub fn throw(kind: ExceptionKind, msg: impl Into<String>) -> NativeError {
    NativeError::ThrowNew(kind, msg.into())
}

/// `ArgumentNullException` for parameter `name`.
pub fn null_arg(name: &str) -> NativeError {
    throw(ExceptionKind::ArgumentNull, format!("Value cannot be null.|{name}"))
}

/// `ArgumentOutOfRangeException` with a message and parameter name.
pub fn out_of_range(name: &str, msg: &str) -> NativeError {
    throw(ExceptionKind::ArgumentOutOfRange, format!("{msg}|{name}"))
}

pub fn nre() -> NativeError {
    throw(ExceptionKind::NullReference, crate::runtime::exceptions::default_message(ExceptionKind::NullReference))
}

pub fn fatal(msg: &str) -> NativeError {
    NativeError::Fatal(format!("internal error: {msg}"))
}

pub fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::Null)
}

pub fn int_arg(args: &[Value], i: usize) -> i32 {
    arg(args, i).as_i32().unwrap_or(0)
}

impl Vm {
    /// The UTF-16 units of a string argument (a `NullReferenceException` for null when
    /// `this`, an `ArgumentNullException` naming `param` otherwise).
    pub fn str_arg(&self, v: Value, param: &str) -> Result<Vec<u16>, NativeError> {
        match self.str_units(v) {
            Some(s) => Ok(s.to_vec()),
            None if param == "this" => Err(nre()),
            None => Err(null_arg(param)),
        }
    }

    pub fn string_arg(&self, v: Value, param: &str) -> Result<String, NativeError> {
        self.str_arg(v, param).map(|u| String::from_utf16_lossy(&u))
    }

    pub fn new_str(&mut self, s: &str) -> Value {
        self.alloc_str(s)
    }

    /// The number format of an `IFormatProvider` argument (a `CultureInfo`), or the current
    /// culture's when null.
    pub fn number_format(&self, provider: Value) -> &'static NumberFormat {
        if let Some(name) = self.culture_name(provider) {
            if let Some(nf) = numerics::culture(&name) {
                return nf;
            }
        }
        self.current_number_format()
    }

    /// The culture the current thread formats with: its `CultureInfo.CurrentCulture`.
    pub fn current_number_format(&self) -> &'static NumberFormat {
        self.sched.threads.get(self.sched.current).and_then(|t| t.culture).unwrap_or_else(numerics::invariant)
    }

    /// The `Name` of a `CultureInfo` object.
    fn culture_name(&self, provider: Value) -> Option<String> {
        let r = provider.gc_ref()?;
        let Obj::Instance(i) = self.heap.get(r)? else { return None };
        let first = *i.fields.first()?;
        self.string_of(first)
    }

    pub fn alloc_decimal(&mut self, d: numerics::Decimal) -> Value {
        Value::Ref(self.heap.alloc(Obj::Decimal(d)))
    }

    pub fn decimal_of(&self, v: Value) -> Option<numerics::Decimal> {
        match self.heap.get(v.gc_ref()?)? {
            Obj::Decimal(d) => Some(*d),
            _ => None,
        }
    }

    /// A new `string[]` from Rust strings.
    pub fn new_string_array(&mut self, items: &[String]) -> Value {
        let values: Vec<Value> = items.iter().map(|s| self.alloc_str(s)).collect();
        let ty = self.meta.types.array(self.meta.well_known.string, 1);
        self.new_array_of(ty, values)
    }

    pub fn new_array_of(&mut self, ty: crate::metadata::TypeId, items: Vec<Value>) -> Value {
        Value::Ref(self.heap.alloc(Obj::Array(crate::runtime::object::Array { ty, dims: None, items })))
    }

    /// The items of an array argument.
    pub fn array_items(&self, v: Value) -> Option<&[Value]> {
        match self.heap.get(v.gc_ref()?)? {
            Obj::Array(a) => Some(&a.items),
            _ => None,
        }
    }
}
