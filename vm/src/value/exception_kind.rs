//! [`ExceptionKind`]: the exceptions arithmetic and intrinsics raise by kind, before the
//! runtime resolves them to library types.

/// Exceptions raised by kind (resolved to stdlib types by the VM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExceptionKind {
    NullReference,
    DivideByZero,
    Overflow,
    IndexOutOfRange,
    InvalidCast,
    InvalidOperation,
    Argument,
    ArgumentNull,
    ArgumentOutOfRange,
    Format,
    NotSupported,
    NotImplemented,
    KeyNotFound,
    ArrayTypeMismatch,
    /// The heap limit (`--max-heap`) or a string longer than .NET allows.
    OutOfMemory,
    /// An array longer than `Array.MaxLength` (an `OutOfMemoryException`).
    ArrayTooLarge,
    /// An array length beyond `int` (an `OverflowException`).
    ArrayLengthOverflow,
}
