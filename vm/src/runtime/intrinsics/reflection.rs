//! Read-only reflection over the VM's metadata: the `Type` members beyond names
//! (interfaces, generic definitions, abstract/sealed) and the member lists behind
//! `System.Reflection.MethodInfo`, `ConstructorInfo`, `PropertyInfo`, `FieldInfo` (which
//! hold a member id and the type they were asked from; the ids are indexes into the
//! metadata's method, property and field tables).

use super::objects::type_handle_arg;
use super::support::{arg, int_arg, nre, throw};
use crate::metadata::types::{Substitution, TypeKind};
use crate::metadata::{Flags, MethodId, MethodKind, TypeDefId, TypeDefKind, TypeId};
use crate::runtime::native::{ExceptionKind, NativeEntry, NativeError, NativeResult};
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "Type.get_IsAbstract", func: type_is_abstract },
    NativeEntry { name: "Type.get_IsSealed", func: type_is_sealed },
    NativeEntry { name: "Type.get_IsGenericTypeDefinition", func: type_is_generic_definition },
    NativeEntry { name: "Type.get_IsPrimitive", func: type_is_primitive },
    NativeEntry { name: "Type.GetInterfaces", func: type_interfaces },
    NativeEntry { name: "Type.GetGenericTypeDefinition", func: type_generic_definition },
    NativeEntry { name: "Type.MakeGenericTypeCore", func: type_make_generic },
    NativeEntry { name: "Reflection.Members", func: members },
    NativeEntry { name: "Reflection.FormatTypeName", func: format_type_name },
    NativeEntry { name: "Reflection.MethodName", func: method_name },
    NativeEntry { name: "Reflection.MethodFlags", func: method_flags },
    NativeEntry { name: "Reflection.MethodReturnType", func: method_return_type },
    NativeEntry { name: "Reflection.MethodDeclaringType", func: method_declaring_type },
    NativeEntry { name: "Reflection.ParameterCount", func: parameter_count },
    NativeEntry { name: "Reflection.ParameterName", func: parameter_name },
    NativeEntry { name: "Reflection.ParameterType", func: parameter_type },
    NativeEntry { name: "Reflection.PropertyName", func: property_name },
    NativeEntry { name: "Reflection.PropertyType", func: property_type },
    NativeEntry { name: "Reflection.PropertyAccessor", func: property_accessor },
    NativeEntry { name: "Reflection.PropertyDeclaringType", func: property_declaring_type },
    NativeEntry { name: "Reflection.FieldName", func: field_name },
    NativeEntry { name: "Reflection.FieldFlags", func: field_flags },
    NativeEntry { name: "Reflection.FieldType", func: field_type },
    NativeEntry { name: "Reflection.FieldDeclaringType", func: field_declaring_type },
    NativeEntry { name: "Reflection.FieldGet", func: field_get },
    NativeEntry { name: "Reflection.NewObject", func: new_object },
    NativeEntry { name: "Reflection.Attributes", func: attributes },
    NativeEntry { name: "Reflection.FindAttributeType", func: find_attribute_type },
    NativeEntry { name: "Reflection.CallerMethod", func: caller_method },
    NativeEntry { name: "Reflection.MethodOwner", func: method_owner },
];

// ---- Type ---------------------------------------------------------------------------------

fn this_type(vm: &Vm, args: &[Value]) -> Result<TypeId, NativeError> {
    type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)
}

fn def_flags(vm: &Vm, t: TypeId) -> Option<(TypeDefKind, Flags)> {
    vm.meta.types.def_of(t).map(|d| (vm.meta.type_def(d).kind, vm.meta.type_def(d).flags))
}

/// Interfaces and abstract classes; static classes are abstract and sealed in IL.
fn type_is_abstract(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(match def_flags(vm, t) {
        Some((TypeDefKind::Interface, _)) => true,
        Some((TypeDefKind::Class, f)) => f.has(Flags::ABSTRACT) || f.has(Flags::STATIC),
        _ => false,
    }))
}

/// Value types, delegates, arrays, and sealed or static classes.
fn type_is_sealed(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    if matches!(vm.meta.types.kind(t), TypeKind::Array { .. }) {
        return Ok(Value::Bool(true));
    }
    Ok(Value::Bool(match def_flags(vm, t) {
        Some((TypeDefKind::Struct | TypeDefKind::Enum | TypeDefKind::Delegate, _)) => true,
        Some((TypeDefKind::Class, f)) => f.has(Flags::SEALED) || f.has(Flags::STATIC),
        _ => false,
    }))
}

/// The open type `C<T>` itself: its arguments are its own parameters.
fn is_generic_definition(vm: &Vm, t: TypeId) -> bool {
    match vm.meta.types.def_of(t) {
        Some(d) => !vm.meta.type_def(d).type_params.is_empty() && vm.meta.type_def(d).self_type == t,
        None => false,
    }
}

fn type_is_generic_definition(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(is_generic_definition(vm, t)))
}

fn is_primitive(vm: &Vm, t: TypeId) -> bool {
    let wk = &vm.meta.well_known;
    [wk.boolean, wk.char, wk.sbyte, wk.byte, wk.int16, wk.uint16, wk.int32, wk.uint32, wk.int64, wk.uint64, wk.single, wk.double, wk.intptr].contains(&t)
}

fn type_is_primitive(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    Ok(Value::Bool(is_primitive(vm, t)))
}

/// `GetInterfaces()` in .NET's order: the base class's interfaces first, then each declared
/// interface followed by the interfaces it inherits (depth first), each once.
fn all_interfaces(vm: &mut Vm, t: TypeId) -> Vec<TypeId> {
    let mut out = match vm.meta.base_type(t) {
        Some(b) if vm.meta.types.def_of(t).is_some() => all_interfaces(vm, b),
        _ => Vec::new(),
    };
    let mut work: Vec<TypeId> = vm.meta.declared_interfaces(t);
    work.reverse();
    while let Some(i) = work.pop() {
        if out.contains(&i) {
            continue;
        }
        out.push(i);
        let mut inherited = vm.meta.declared_interfaces(i);
        inherited.reverse();
        work.extend(inherited);
    }
    out
}

fn type_array(vm: &mut Vm, types: Vec<TypeId>) -> Value {
    let items: Vec<Value> = types.into_iter().map(|a| vm.type_object(a)).collect();
    let arr = vm.meta.types.array(vm.meta.well_known.type_, 1);
    vm.new_array_of(arr, items)
}

fn type_interfaces(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let all = all_interfaces(vm, t);
    Ok(type_array(vm, all))
}

fn type_generic_definition(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    match vm.meta.types.def_of(t) {
        Some(d) if !vm.meta.type_def(d).type_params.is_empty() => {
            let open = vm.meta.type_def(d).self_type;
            Ok(vm.type_object(open))
        }
        _ => Err(throw(ExceptionKind::InvalidOperation, "This operation is only valid on generic types.")),
    }
}

/// `MakeGenericType(Type[])` on a generic definition (the argument count checked in cs-lite).
fn type_make_generic(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = this_type(vm, args)?;
    let Some(d) = vm.meta.types.def_of(t).filter(|_| is_generic_definition(vm, t)) else {
        let name = vm.meta.clr_full_name(t);
        return Err(throw(
            ExceptionKind::InvalidOperation,
            format!("{name} is not a GenericTypeDefinition. MakeGenericType may only be called on a type for which Type.IsGenericTypeDefinition is true."),
        ));
    };
    let items = vm.array_items(arg(args, 1)).map(<[Value]>::to_vec).unwrap_or_default();
    let type_args: Option<Vec<TypeId>> = items.iter().map(|&v| type_handle_arg(vm, v)).collect();
    let Some(type_args) = type_args else { return Err(super::support::null_arg("typeArguments")) };
    let made = vm.meta.types.named(d, &type_args);
    Ok(vm.type_object(made))
}

// ---- member lists -------------------------------------------------------------------------

/// `BindingFlags` bits the VM reads.
const DECLARED_ONLY: i32 = 2;
const INSTANCE: i32 = 4;
const STATIC: i32 = 8;
const PUBLIC: i32 = 16;
const NON_PUBLIC: i32 = 32;
const FLATTEN_HIERARCHY: i32 = 64;

/// Which member list `Reflection.Members` returns.
const METHODS: i32 = 0;
const CONSTRUCTORS: i32 = 1;
const PROPERTIES: i32 = 2;
const FIELDS: i32 = 3;

/// `t` and its base classes, most derived first, each with its definition.
fn class_chain(vm: &mut Vm, t: TypeId) -> Vec<(TypeId, TypeDefId)> {
    let mut chain = Vec::new();
    let mut cur = Some(t);
    while let Some(c) = cur {
        let Some(d) = vm.meta.types.def_of(c) else { break };
        if chain.iter().any(|&(_, x)| x == d) {
            break;
        }
        chain.push((c, d));
        cur = vm.meta.base_type(c);
    }
    chain
}

/// Whether a member with these flags, found `depth` classes up, passes `binding`.
fn binds(vm: &Vm, owner: TypeDefId, flags: Flags, is_static: bool, depth: usize, binding: i32) -> bool {
    let interface = vm.meta.type_def(owner).kind == TypeDefKind::Interface;
    let public = flags.has(Flags::PUBLIC) || (interface && !flags.has(Flags::PRIVATE));
    let visibility = if public { PUBLIC } else { NON_PUBLIC };
    let storage = if is_static { STATIC } else { INSTANCE };
    if binding & visibility == 0 || binding & storage == 0 {
        return false;
    }
    if depth == 0 {
        return true;
    }
    let private = !public && !flags.has(Flags::PROTECTED) && !flags.has(Flags::INTERNAL);
    binding & DECLARED_ONLY == 0 && !private && (!is_static || binding & FLATTEN_HIERARCHY != 0)
}

/// Whether a method shows in `GetMethods` (not a constructor, lambda or hidden helper).
fn is_listed_method(vm: &Vm, m: MethodId) -> bool {
    let md = vm.meta.method(m);
    match md.kind {
        MethodKind::Getter | MethodKind::Setter | MethodKind::EventAdd | MethodKind::EventRemove | MethodKind::Operator | MethodKind::Conversion => true,
        MethodKind::Ordinary => !md.flags.has(Flags::SYNTHESIZED) && !md.name.starts_with('<'),
        _ => false,
    }
}

fn member_ids(vm: &mut Vm, t: TypeId, kind: i32, binding: i32) -> Vec<i32> {
    let chain = class_chain(vm, t);
    let mut ids = Vec::new();
    let mut overridden: Vec<u32> = Vec::new();
    for (depth, &(_, def)) in chain.iter().enumerate() {
        if kind == CONSTRUCTORS && depth > 0 {
            break;
        }
        let td = vm.meta.type_def(def);
        match kind {
            METHODS | CONSTRUCTORS => {
                for &m in &td.methods {
                    let md = vm.meta.method(m);
                    let wanted = if kind == METHODS { is_listed_method(vm, m) } else { md.kind == MethodKind::Constructor };
                    if !wanted || !binds(vm, def, md.flags, md.is_static(), depth, binding) {
                        continue;
                    }
                    if let Some(slot) = md.vtable_slot {
                        if overridden.contains(&slot) {
                            continue;
                        }
                        overridden.push(slot);
                    }
                    ids.push(m.0 as i32);
                }
            }
            PROPERTIES => {
                for &p in &td.properties {
                    let pd = vm.meta.property(p);
                    let Some(accessor) = pd.getter.or(pd.setter) else { continue };
                    let am = vm.meta.method(accessor);
                    if !binds(vm, def, am.flags, am.is_static(), depth, binding) {
                        continue;
                    }
                    if let Some(slot) = am.vtable_slot {
                        if overridden.contains(&slot) {
                            continue;
                        }
                        overridden.push(slot);
                    }
                    ids.push(p.0 as i32);
                }
            }
            FIELDS => {
                // Constants are declared in a pass of their own: back to source order.
                let mut fields = td.fields.clone();
                fields.sort_by_key(|&f| vm.meta.field(f).span.start);
                for f in fields {
                    let fd = vm.meta.field(f);
                    if binds(vm, def, fd.flags, fd.is_static(), depth, binding) {
                        ids.push(f.0 as i32);
                    }
                }
            }
            _ => {}
        }
    }
    ids
}

/// `Reflection.Members(Type, int kind, int bindingFlags)`: member ids in .NET's order
/// (declared members in declaration order, then each base class's).
fn members(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
    let ids = member_ids(vm, t, int_arg(args, 1), int_arg(args, 2));
    let items: Vec<Value> = ids.into_iter().map(Value::I32).collect();
    let arr = vm.meta.types.array(vm.meta.well_known.int32, 1);
    Ok(vm.new_array_of(arr, items))
}

/// How member signatures print a type: primitives, nested types and `void` by name,
/// everything else by full name.
fn format_type_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
    let mut root = t;
    while let Some((e, _)) = vm.meta.types.array_elem(root) {
        root = e;
    }
    let nested = vm.meta.types.def_of(root).is_some_and(|d| vm.meta.type_def(d).declaring_type.is_some());
    let by_name = is_primitive(vm, root) || nested || matches!(vm.meta.types.kind(root), TypeKind::Void);
    let s = if by_name { vm.meta.clr_name(t) } else { vm.meta.clr_full_name(t) };
    Ok(vm.alloc_str(&s))
}

/// The reflected type's view of `owner`: the base class (or itself) built from `owner`,
/// whose arguments substitute the member's signature.
fn declaring_instance(vm: &mut Vm, reflected: TypeId, owner: TypeDefId) -> TypeId {
    class_chain(vm, reflected).into_iter().find(|&(_, d)| d == owner).map_or(vm.meta.type_def(owner).self_type, |(t, _)| t)
}

/// A signature type of a member of `owner`, as seen from `reflected`.
fn member_type(vm: &mut Vm, reflected: TypeId, owner: TypeDefId, ty: TypeId) -> TypeId {
    let inst = declaring_instance(vm, reflected, owner);
    let sub = Substitution::for_type(owner, vm.meta.types.args_of(inst));
    vm.meta.types.subst(ty, &sub)
}

fn reflected_and_id(vm: &Vm, args: &[Value]) -> Result<(TypeId, usize), NativeError> {
    let t = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
    Ok((t, int_arg(args, 1).max(0) as usize))
}

fn method_def(vm: &Vm, id: i32) -> Option<&crate::metadata::MethodDef> {
    vm.meta.methods.get(usize::try_from(id).ok()?)
}

fn bad_id() -> NativeError {
    super::support::fatal("reflection member id out of range")
}

fn method_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let name = method_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?.name.clone();
    Ok(vm.alloc_str(&name))
}

/// Bits the cs-lite side reads: 1 static, 2 public, 4 private, 8 protected, 16 internal,
/// 32 abstract, 64 virtual (or override), 128 the method's owner is generic (a static
/// call needs a context), 256 the method itself is generic.
fn method_flags(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let md = method_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?;
    let f = md.flags;
    let interface = vm.meta.type_def(md.owner).kind == TypeDefKind::Interface;
    let public = f.has(Flags::PUBLIC) || (interface && !f.has(Flags::PRIVATE));
    let mut bits = 0;
    for (on, bit) in [
        (md.is_static(), 1),
        (public, 2),
        (f.has(Flags::PRIVATE) || (!public && !f.has(Flags::PROTECTED) && !f.has(Flags::INTERNAL)), 4),
        (f.has(Flags::PROTECTED), 8),
        (f.has(Flags::INTERNAL), 16),
        (f.has(Flags::ABSTRACT) || (interface && md.body == crate::metadata::MethodBody::None), 32),
        (f.has(Flags::VIRTUAL) || f.has(Flags::OVERRIDE) || f.has(Flags::ABSTRACT) || md.vtable_slot.is_some(), 64),
        (!vm.meta.type_def(md.owner).type_params.is_empty(), 128),
        (!md.type_params.is_empty(), 256),
    ] {
        if on {
            bits |= bit;
        }
    }
    Ok(Value::I32(bits))
}

fn method_return_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let md = vm.meta.methods.get(id).ok_or_else(bad_id)?;
    let (owner, ret) = (md.owner, md.ret);
    let ty = member_type(vm, t, owner, ret);
    Ok(vm.type_object(ty))
}

fn method_declaring_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let owner = vm.meta.methods.get(id).ok_or_else(bad_id)?.owner;
    let ty = declaring_instance(vm, t, owner);
    Ok(vm.type_object(ty))
}

fn parameter_count(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let md = method_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?;
    Ok(Value::I32(md.params.len() as i32))
}

fn parameter_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let md = method_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?;
    let name = md.params.get(int_arg(args, 1).max(0) as usize).ok_or_else(bad_id)?.name.clone();
    Ok(vm.alloc_str(&name))
}

/// `Reflection.ParameterType(Type reflected, int method, int position)`.
fn parameter_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let md = vm.meta.methods.get(id).ok_or_else(bad_id)?;
    let owner = md.owner;
    let p = md.params.get(int_arg(args, 2).max(0) as usize).ok_or_else(bad_id)?.ty;
    let ty = member_type(vm, t, owner, p);
    Ok(vm.type_object(ty))
}

fn property_def(vm: &Vm, id: i32) -> Option<&crate::metadata::PropertyDef> {
    vm.meta.properties.get(usize::try_from(id).ok()?)
}

fn property_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let name = property_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?.name.clone();
    Ok(vm.alloc_str(&name))
}

fn property_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let pd = vm.meta.properties.get(id).ok_or_else(bad_id)?;
    let (owner, ty) = (pd.owner, pd.ty);
    let ty = member_type(vm, t, owner, ty);
    Ok(vm.type_object(ty))
}

/// `Reflection.PropertyAccessor(int property, bool setter)`: the accessor's method id, -1
/// when the property has none.
fn property_accessor(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let pd = property_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?;
    let accessor = if arg(args, 1) == Value::Bool(true) { pd.setter } else { pd.getter };
    Ok(Value::I32(accessor.map_or(-1, |m| m.0 as i32)))
}

fn property_declaring_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let owner = vm.meta.properties.get(id).ok_or_else(bad_id)?.owner;
    let ty = declaring_instance(vm, t, owner);
    Ok(vm.type_object(ty))
}

fn field_def(vm: &Vm, id: i32) -> Option<&crate::metadata::FieldDef> {
    vm.meta.fields.get(usize::try_from(id).ok()?)
}

fn field_name(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let name = field_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?.name.clone();
    Ok(vm.alloc_str(&name))
}

/// Bits: 1 static, 2 public, 4 private, 8 literal (`const`), 16 init-only (`readonly`).
fn field_flags(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let fd = field_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?;
    let f = fd.flags;
    let public = f.has(Flags::PUBLIC);
    let private = !public && !f.has(Flags::PROTECTED) && !f.has(Flags::INTERNAL);
    let bits = i32::from(fd.is_static())
        | (i32::from(public) << 1)
        | (i32::from(private) << 2)
        | (i32::from(f.has(Flags::CONST)) << 3)
        | (i32::from(f.has(Flags::READONLY)) << 4);
    Ok(Value::I32(bits))
}

fn field_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let fd = vm.meta.fields.get(id).ok_or_else(bad_id)?;
    let (owner, ty) = (fd.owner, fd.ty);
    let ty = member_type(vm, t, owner, ty);
    Ok(vm.type_object(ty))
}

fn field_declaring_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let (t, id) = reflected_and_id(vm, args)?;
    let owner = vm.meta.fields.get(id).ok_or_else(bad_id)?.owner;
    let ty = declaring_instance(vm, t, owner);
    Ok(vm.type_object(ty))
}

// ---- values -------------------------------------------------------------------------------

/// Intrinsics that get boxes as they are: a value stored in an `object` field stays a box.
pub const BOX_KEEPING_ENTRIES: &[NativeEntry] =
    &[NativeEntry { name: "Reflection.FieldSet", func: field_set }, NativeEntry { name: "Reflection.BoxAs", func: box_as }];

/// `Reflection.BoxAs(object raw, Type type)`: a method's unboxed result as `object`.
fn box_as(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let Some(t) = type_handle_arg(vm, arg(args, 1)) else { return Ok(arg(args, 0)) };
    if matches!(vm.meta.types.kind(t), TypeKind::Void) {
        return Ok(Value::Null);
    }
    Ok(vm.box_value(arg(args, 0), t))
}

/// `Reflection.NewObject(Type)`: an instance with every field at its default (boxed for a
/// struct), for a constructor to initialise.
fn new_object(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let t = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
    if vm.meta.is_value_type(t) {
        let v = vm.default_value(t);
        return Ok(vm.box_value(v, t));
    }
    Ok(vm.new_instance(t, false))
}

/// A `const` field's value.
fn constant_value(vm: &mut Vm, c: &crate::metadata::Constant, ty: TypeId) -> Value {
    use crate::metadata::Constant;
    let wk = &vm.meta.well_known;
    let v = match c {
        Constant::Null => Value::Null,
        Constant::Bool(b) => Value::Bool(*b),
        Constant::Char(c) => Value::Char(*c),
        Constant::Int(i) if ty == wk.int64 => Value::I64(*i),
        Constant::Int(i) if ty == wk.sbyte => Value::I8(*i as i8),
        Constant::Int(i) if ty == wk.byte => Value::U8(*i as u8),
        Constant::Int(i) if ty == wk.int16 => Value::I16(*i as i16),
        Constant::Int(i) if ty == wk.uint16 => Value::U16(*i as u16),
        Constant::Int(i) if ty == wk.uint32 => Value::U32(*i as u32),
        Constant::Int(i) if ty == wk.uint64 => Value::U64(*i as u64),
        Constant::Int(i) => Value::I32(*i as i32),
        Constant::UInt(u) if ty == wk.uint32 => Value::U32(*u as u32),
        Constant::UInt(u) => Value::U64(*u),
        Constant::Float(f) if ty == wk.single => Value::F32(*f as f32),
        Constant::Float(f) => Value::F64(*f),
        Constant::String(s) => return vm.alloc_str(s),
        Constant::Decimal(_) => Value::Null,
    };
    vm.box_value(v, ty)
}

/// `Reflection.FieldGet(Type declaring, int field, object target)`: the field's value as
/// `object` (a static field's class constructor has run: see `FieldInfo.GetValue`).
fn field_get(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let declaring = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
    let fd = field_def(vm, int_arg(args, 1)).ok_or_else(bad_id)?.clone();
    let ty = vm.meta.types.subst_ctx(fd.ty, declaring);
    if let Some(c) = &fd.constant {
        return Ok(constant_value(vm, c, ty));
    }
    let raw = if fd.is_static() {
        vm.statics_mut(declaring).get(fd.slot as usize).copied().unwrap_or(Value::Null)
    } else {
        let target = arg(args, 2).gc_ref().ok_or_else(nre)?;
        match vm.heap.get(target) {
            Some(crate::runtime::object::Obj::Instance(i)) => i.fields.get(fd.slot as usize).copied().unwrap_or(Value::Null),
            _ => return Err(nre()),
        }
    };
    let raw = vm.copy_struct(raw);
    Ok(vm.box_value(raw, ty))
}

/// `Reflection.FieldSet(Type declaring, int field, object target, object value)`.
fn field_set(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let declaring = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
    let fd = field_def(vm, int_arg(args, 1)).ok_or_else(bad_id)?.clone();
    let ty = vm.meta.types.subst_ctx(fd.ty, declaring);
    let value = arg(args, 3);
    let value = if !vm.meta.is_value_type(ty) {
        value
    } else if value.is_null() {
        vm.default_value(ty)
    } else {
        let v = vm.unboxed_view(value);
        vm.copy_struct(v)
    };
    if fd.is_static() {
        if let Some(slot) = vm.statics_mut(declaring).get_mut(fd.slot as usize) {
            *slot = value;
        }
        return Ok(Value::Null);
    }
    let target = vm.unboxed_view(arg(args, 2)).gc_ref().ok_or_else(nre)?;
    if let Some(crate::runtime::object::Obj::Instance(i)) = vm.heap.get_mut(target) {
        if let Some(slot) = i.fields.get_mut(fd.slot as usize) {
            *slot = value;
        }
    }
    Ok(Value::Null)
}

// ---- custom attributes --------------------------------------------------------------------

/// `Reflection.Attributes(Type type, int method)`: the attributes written on the program's
/// type (`method` -1) or method, each as `object[] { name, object[] args, string[] names,
/// object[] values }` (constant arguments only; the library's attributes are not kept).
fn attributes(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let method = int_arg(args, 1);
    let attrs = match usize::try_from(method) {
        Ok(m) if m < vm.meta.methods.len() => vm.meta.attributes.of_method(MethodId(m as u32)).to_vec(),
        Ok(_) => Vec::new(),
        Err(_) => {
            let t = type_handle_arg(vm, arg(args, 0)).ok_or_else(nre)?;
            match vm.meta.types.def_of(t) {
                Some(d) => vm.meta.attributes.of_type(d).to_vec(),
                None => Vec::new(),
            }
        }
    };
    let object_array = vm.meta.types.array(vm.meta.well_known.object, 1);
    let mut items = Vec::new();
    for a in attrs {
        let name = vm.alloc_str(&a.name);
        let positional: Vec<Value> = a.args.iter().map(|v| attribute_value(vm, v)).collect();
        let positional = vm.new_array_of(object_array, positional);
        let names: Vec<String> = a.named.iter().map(|(n, _)| n.clone()).collect();
        let names = vm.new_string_array(&names);
        let values: Vec<Value> = a.named.iter().map(|(_, v)| attribute_value(vm, v)).collect();
        let values = vm.new_array_of(object_array, values);
        items.push(vm.new_array_of(object_array, vec![name, positional, names, values]));
    }
    Ok(vm.new_array_of(object_array, items))
}

/// A constant attribute argument as `object` (`null` for one the VM does not keep).
fn attribute_value(vm: &mut Vm, v: &crate::metadata::attributes::AttributeValue) -> Value {
    use crate::metadata::attributes::AttributeValue;
    match v {
        AttributeValue::Bool(b) => {
            let t = vm.meta.well_known.boolean;
            vm.box_value(Value::Bool(*b), t)
        }
        AttributeValue::Int(i) => match i32::try_from(*i) {
            Ok(n) => {
                let t = vm.meta.well_known.int32;
                vm.box_value(Value::I32(n), t)
            }
            Err(_) => {
                let t = vm.meta.well_known.int64;
                vm.box_value(Value::I64(*i), t)
            }
        },
        AttributeValue::String(s) => vm.alloc_str(s),
        AttributeValue::Other(_) => Value::Null,
    }
}

/// `Reflection.FindAttributeType(string name)`: the attribute class an attribute's name
/// stands for (`Name` + `Attribute`, or `Name`), the program's before the library's.
fn find_attribute_type(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let name = vm.string_arg(arg(args, 0), "name")?;
    let long = format!("{name}Attribute");
    let candidates = |library: bool| {
        vm.meta.type_defs.iter().position(|d| {
            d.type_params.is_empty() && d.kind == TypeDefKind::Class && d.flags.has(Flags::LIBRARY) == library && (d.name == long || d.name == name)
        })
    };
    match candidates(false).or_else(|| candidates(true)) {
        Some(i) => {
            let t = vm.meta.type_defs[i].self_type;
            Ok(vm.type_object(t))
        }
        None => Ok(Value::Null),
    }
}

/// `Reflection.CallerMethod()`: the method that called the cs-lite method calling this
/// intrinsic (`MethodBase.GetCurrentMethod`'s caller), -1 at the bottom of the stack.
fn caller_method(vm: &mut Vm, _: &[Value]) -> NativeResult {
    let frames = &vm.thread.frames;
    let Some(frame) = frames.len().checked_sub(2).and_then(|i| frames.get(i)) else { return Ok(Value::I32(-1)) };
    let method = vm.functions.get(frame.func.0 as usize).map(|f| f.method);
    Ok(Value::I32(method.map_or(-1, |m| m.0 as i32)))
}

/// `Reflection.MethodOwner(int method)`: the type that declares it (open if generic).
fn method_owner(vm: &mut Vm, args: &[Value]) -> NativeResult {
    let owner = method_def(vm, int_arg(args, 0)).ok_or_else(bad_id)?.owner;
    let t = vm.meta.type_def(owner).self_type;
    Ok(vm.type_object(t))
}
