//! The standard-library types the compiler and runtime refer to by name: `object`,
//! `string`, the primitives, `Exception` and friends. Looked up once after the standard
//! library is declared.

use super::{TypeDefId, TypeId, TypeTable};

/// The state machine's field that refers to the state machine itself: `ref stateMachine`
/// arguments point at it. (Roslyn's state machine is a struct and passes `ref this`; the
/// VM's is an object, and a reference to a field is what a `ref` can hold.) Not part of
/// the modeled .NET layout.
pub const SELF_REFERENCE_FIELD: &str = "<>t__stateMachine";

macro_rules! well_known {
    (
        types { $($field:ident = $name:literal,)* }
        generic { $($gfield:ident = $gname:literal,)* }
    ) => {
        /// Ids of well-known types. `TypeId`s are of the non-generic types; generic
        /// definitions are given as `TypeDefId`s (construct them with the type table).
        #[derive(Clone, Debug, Default)]
        pub struct WellKnown {
            $(pub $field: TypeId,)*
            $(pub $gfield: TypeDefId,)*
        }

        impl WellKnown {
            /// Resolves every well-known type through `lookup` (full name with `` `N `` arity
            /// suffix for generics). Returns the first missing name on failure.
            pub fn resolve(
                types: &mut TypeTable,
                lookup: impl Fn(&str) -> Option<TypeDefId>,
            ) -> Result<WellKnown, &'static str> {
                Ok(WellKnown {
                    $($field: types.named(lookup($name).ok_or($name)?, &[]),)*
                    $($gfield: lookup($gname).ok_or($gname)?,)*
                })
            }
        }
    };
}

well_known! {
    types {
        object = "System.Object",
        string = "System.String",
        value_type = "System.ValueType",
        enum_base = "System.Enum",
        array = "System.Array",
        delegate = "System.Delegate",
        multicast_delegate = "System.MulticastDelegate",
        type_ = "System.Type",
        attribute = "System.Attribute",
        boolean = "System.Boolean",
        char = "System.Char",
        sbyte = "System.SByte",
        byte = "System.Byte",
        int16 = "System.Int16",
        uint16 = "System.UInt16",
        int32 = "System.Int32",
        uint32 = "System.UInt32",
        int64 = "System.Int64",
        uint64 = "System.UInt64",
        single = "System.Single",
        double = "System.Double",
        decimal = "System.Decimal",
        intptr = "System.IntPtr",
        uintptr = "System.UIntPtr",
        exception = "System.Exception",
        null_reference_exception = "System.NullReferenceException",
        divide_by_zero_exception = "System.DivideByZeroException",
        overflow_exception = "System.OverflowException",
        index_out_of_range_exception = "System.IndexOutOfRangeException",
        invalid_cast_exception = "System.InvalidCastException",
        invalid_operation_exception = "System.InvalidOperationException",
        argument_exception = "System.ArgumentException",
        argument_null_exception = "System.ArgumentNullException",
        argument_out_of_range_exception = "System.ArgumentOutOfRangeException",
        format_exception = "System.FormatException",
        not_supported_exception = "System.NotSupportedException",
        not_implemented_exception = "System.NotImplementedException",
        array_type_mismatch_exception = "System.ArrayTypeMismatchException",
        stack_overflow_exception = "System.InsufficientExecutionStackException",
        out_of_memory_exception = "System.OutOfMemoryException",
        key_not_found_exception = "System.Collections.Generic.KeyNotFoundException",
        idisposable = "System.IDisposable",
        iformattable = "System.IFormattable",
        ienumerable = "System.Collections.IEnumerable",
        ienumerator = "System.Collections.IEnumerator",
        index = "System.Index",
        range = "System.Range",
        runtime_helpers = "System.Runtime.CompilerServices.RuntimeHelpers",
    }
    generic {
        nullable = "System.Nullable`1",
        ienumerable_t = "System.Collections.Generic.IEnumerable`1",
        ienumerator_t = "System.Collections.Generic.IEnumerator`1",
        icollection_t = "System.Collections.Generic.ICollection`1",
        ilist_t = "System.Collections.Generic.IList`1",
        list = "System.Collections.Generic.List`1",
        key_value_pair = "System.Collections.Generic.KeyValuePair`2",
    }
}
