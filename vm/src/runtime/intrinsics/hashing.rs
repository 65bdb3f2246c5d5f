//! The hash-table intrinsics behind `Dictionary` and `HashSet`: native hashing and
//! equality for keys without user-defined `Equals`, and storage access for the others.

use super::support::{arg, int_arg, nre};
use crate::metadata::{TypeDefKind, TypeKind};
use crate::runtime::hashtable::HashTable;
use crate::runtime::native::{NativeData, NativeEntry, NativeError, NativeResult};
use crate::runtime::object::Obj;
use crate::runtime::types::TypeClass;
use crate::runtime::value::Value;
use crate::runtime::Vm;

pub const ENTRIES: &[NativeEntry] = &[
    NativeEntry { name: "HashTable.New", func: new },
    NativeEntry { name: "HashTable.IsNativeKey", func: is_native_key },
    NativeEntry { name: "HashTable.FindNative", func: find_native },
    NativeEntry { name: "HashTable.AddNative", func: add_native },
    NativeEntry { name: "HashTable.SetNative", func: set_native },
    NativeEntry { name: "HashTable.FirstWithHash", func: first_with_hash },
    NativeEntry { name: "HashTable.NextWithHash", func: next_with_hash },
    NativeEntry { name: "HashTable.AddHashed", func: add_hashed },
    NativeEntry { name: "HashTable.KeyAt", func: key_at },
    NativeEntry { name: "HashTable.ValueAt", func: value_at },
    NativeEntry { name: "HashTable.SetValueAt", func: set_value_at },
    NativeEntry { name: "HashTable.RemoveAt", func: remove_at },
    NativeEntry { name: "HashTable.Count", func: count },
    NativeEntry { name: "HashTable.Clear", func: clear },
    NativeEntry { name: "HashTable.NextOccupied", func: next_occupied },
    NativeEntry { name: "HashTable.Version", func: version },
];

type R = NativeResult;

fn table(vm: &Vm, v: Value) -> Result<&HashTable, NativeError> {
    match v.gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Native(n)) => match n.as_ref() {
            NativeData::HashTable(t) => Ok(t),
            _ => Err(nre()),
        },
        _ => Err(nre()),
    }
}

fn table_mut(vm: &mut Vm, v: Value) -> Result<&mut HashTable, NativeError> {
    match v.gc_ref().and_then(|r| vm.heap.get_mut(r)) {
        Some(Obj::Native(n)) => match n.as_mut() {
            NativeData::HashTable(t) => Ok(t),
            _ => Err(nre()),
        },
        _ => Err(nre()),
    }
}

fn new(vm: &mut Vm, _: &[Value]) -> R {
    Ok(Value::Ref(vm.heap.alloc(Obj::Native(Box::new(NativeData::HashTable(Box::new(HashTable::new())))))))
}

/// Whether keys of type `t` can be hashed by the VM: primitives, strings, enums, decimals,
/// and classes/structs that do not override `Equals` or `GetHashCode`.
fn is_native_key(vm: &mut Vm, args: &[Value]) -> R {
    let t = match arg(args, 0).gc_ref().and_then(|r| vm.heap.get(r)) {
        Some(Obj::Type(t)) => *t,
        _ => return Ok(Value::Bool(false)),
    };
    Ok(Value::Bool(vm.is_native_key_type(t)))
}

impl Vm {
    fn is_native_key_type(&mut self, t: crate::metadata::TypeId) -> bool {
        match self.type_class(t) {
            TypeClass::Bool | TypeClass::Num(_) | TypeClass::Decimal | TypeClass::String | TypeClass::Enum(_) => true,
            TypeClass::Nullable(_) | TypeClass::Param | TypeClass::Void => false,
            TypeClass::Struct | TypeClass::Reference => {
                let TypeKind::Named { def, .. } = self.meta.types.kind(t) else { return false };
                let d = self.meta.type_def(*def);
                if matches!(d.kind, TypeDefKind::Interface) || t == self.meta.well_known.object {
                    return false;
                }
                let base_methods = ["Equals", "GetHashCode"];
                d.vtable.iter().all(|&m| {
                    let md = self.meta.method(m);
                    !base_methods.contains(&md.name.as_str())
                        || self.meta.type_def(md.owner).flags.has(crate::metadata::Flags::LIBRARY)
                            && matches!(self.meta.type_def(md.owner).name.as_str(), "Object" | "ValueType")
                })
            }
        }
    }
}

fn find_native(vm: &mut Vm, args: &[Value]) -> R {
    let (_, found) = find_native_entry(vm, arg(args, 0), arg(args, 1))?;
    Ok(Value::I32(found.map_or(-1, |i| i as i32)))
}

/// The table, and the entry of a natively hashed `key` in it.
fn find_native_entry(vm: &Vm, table_ref: Value, key: Value) -> Result<(&HashTable, Option<usize>), NativeError> {
    let h = vm.value_hash(key);
    let t = table(vm, table_ref)?;
    Ok((t, t.find(h, |k| vm.values_equal(k, key))))
}

/// `table[key] = value` for a natively hashed key: overwrites or adds.
fn store_native(vm: &mut Vm, table_ref: Value, key: Value, value: Value) -> Result<(), NativeError> {
    let h = vm.value_hash(key);
    let found = table(vm, table_ref)?.find(h, |k| vm.values_equal(k, key));
    let t = table_mut(vm, table_ref)?;
    match found {
        Some(i) => t.set_value_at(i, value),
        None => {
            t.insert_new(h, key, value);
        }
    }
    Ok(())
}

fn add_native(vm: &mut Vm, args: &[Value]) -> R {
    let (key, value) = (arg(args, 1), arg(args, 2));
    let h = vm.value_hash(key);
    let i = table_mut(vm, arg(args, 0))?.insert_new(h, key, value);
    Ok(Value::I32(i as i32))
}

/// `dictionary[key] = value` for a natively hashed key: overwrites or adds.
fn set_native(vm: &mut Vm, args: &[Value]) -> R {
    store_native(vm, arg(args, 0), arg(args, 1), arg(args, 2))?;
    Ok(Value::Null)
}

/// Where `Dictionary<TKey, TValue>` keeps its table: the dictionary's `_index` field (a
/// `HashIndex`), whose `Table` and `_native` fields are the storage and whether the VM
/// hashes the keys itself. The slots are pinned by a test (`vm/tests/fast_paths.rs`).
pub const DICTIONARY_INDEX_SLOT: usize = 0;
pub const INDEX_TABLE_SLOT: usize = 0;
pub const INDEX_NATIVE_SLOT: usize = 2;

/// The table of a dictionary whose keys the VM hashes itself (`None` otherwise).
fn native_table_of_dictionary(vm: &Vm, dictionary: Value) -> Option<Value> {
    let field = |v: Value, slot: usize| match vm.heap.get(v.gc_ref()?) {
        Some(Obj::Instance(i)) => i.fields.get(slot).copied(),
        _ => None,
    };
    let index = field(dictionary, DICTIONARY_INDEX_SLOT)?;
    if field(index, INDEX_NATIVE_SLOT)? != Value::Bool(true) {
        return None;
    }
    field(index, INDEX_TABLE_SLOT)
}

/// `dictionary[key]` for a key the VM hashes: the value. A null or missing key is left to
/// the indexer's body (which throws).
pub fn dictionary_get_item(vm: &mut Vm, args: &[Value]) -> Option<Value> {
    let key = *args.get(1)?;
    if key.is_null() {
        return None;
    }
    let table_ref = native_table_of_dictionary(vm, *args.first()?)?;
    let (t, found) = find_native_entry(vm, table_ref, key).ok()?;
    Some(t.value_at(found?))
}

/// `dictionary[key] = value` for a key the VM hashes: overwrites or adds (struct keys and
/// values stored as copies). A null key is left to the indexer's body.
pub fn dictionary_set_item(vm: &mut Vm, args: &[Value]) -> Option<Value> {
    let (key, value) = (*args.get(1)?, *args.get(2)?);
    if key.is_null() {
        return None;
    }
    let table_ref = native_table_of_dictionary(vm, *args.first()?)?;
    let (key, value) = (vm.copy_struct(key), vm.copy_struct(value));
    store_native(vm, table_ref, key, value).ok()?;
    Some(Value::Null)
}

fn first_with_hash(vm: &mut Vm, args: &[Value]) -> R {
    let t = table(vm, arg(args, 0))?;
    Ok(Value::I32(t.next_with_hash(int_arg(args, 1), None).map_or(-1, |i| i as i32)))
}

fn next_with_hash(vm: &mut Vm, args: &[Value]) -> R {
    let t = table(vm, arg(args, 0))?;
    let after = int_arg(args, 2);
    Ok(Value::I32(t.next_with_hash(int_arg(args, 1), usize::try_from(after).ok()).map_or(-1, |i| i as i32)))
}

fn add_hashed(vm: &mut Vm, args: &[Value]) -> R {
    let (h, key, value) = (int_arg(args, 1), arg(args, 2), arg(args, 3));
    let i = table_mut(vm, arg(args, 0))?.insert_new(h, key, value);
    Ok(Value::I32(i as i32))
}

fn key_at(vm: &mut Vm, args: &[Value]) -> R {
    Ok(table(vm, arg(args, 0))?.key_at(int_arg(args, 1).max(0) as usize))
}

fn value_at(vm: &mut Vm, args: &[Value]) -> R {
    Ok(table(vm, arg(args, 0))?.value_at(int_arg(args, 1).max(0) as usize))
}

fn set_value_at(vm: &mut Vm, args: &[Value]) -> R {
    let (i, v) = (int_arg(args, 1), arg(args, 2));
    table_mut(vm, arg(args, 0))?.set_value_at(i.max(0) as usize, v);
    Ok(Value::Null)
}

fn remove_at(vm: &mut Vm, args: &[Value]) -> R {
    let i = int_arg(args, 1);
    table_mut(vm, arg(args, 0))?.remove_at(i.max(0) as usize);
    Ok(Value::Null)
}

fn count(vm: &mut Vm, args: &[Value]) -> R {
    Ok(Value::I32(table(vm, arg(args, 0))?.len() as i32))
}

fn clear(vm: &mut Vm, args: &[Value]) -> R {
    table_mut(vm, arg(args, 0))?.clear();
    Ok(Value::Null)
}

fn next_occupied(vm: &mut Vm, args: &[Value]) -> R {
    let from = int_arg(args, 1).max(0) as usize;
    Ok(Value::I32(table(vm, arg(args, 0))?.next_occupied(from).map_or(-1, |i| i as i32)))
}

fn version(vm: &mut Vm, args: &[Value]) -> R {
    Ok(Value::I32(table(vm, arg(args, 0))?.version))
}
