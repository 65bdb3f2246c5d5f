//! Run-time type services: how a type's values are represented ([`TypeClass`]), the
//! run-time type of a value, default values and field templates, type tests, and the
//! per-type state the runtime keeps (statics, static-constructor progress, `Type` object).

use std::rc::Rc;

use super::heap::GcRef;
use super::object::{Instance, Obj};
use super::value::Value;
use super::Vm;
use crate::bytecode::NumKind;
use crate::metadata::{Substitution, TypeDefKind, TypeId, TypeKind};
use crate::value::zero_of;

/// How values of a type are represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeClass {
    Bool,
    Num(NumKind),
    Decimal,
    String,
    /// An enum: registers hold its underlying integer.
    Enum(NumKind),
    /// A user or library struct (heap-allocated, copied on assignment).
    Struct,
    /// `Nullable<T>`: `null` or a `T`.
    Nullable(TypeId),
    /// Classes, interfaces, delegates, arrays, `object`.
    Reference,
    /// An unsubstituted type parameter (never the type of a run-time value).
    Param,
    Void,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InitState {
    #[default]
    NotStarted,
    Running,
    Done,
}

/// What a fresh field holds: a constant, or a new default instance of a struct type.
#[derive(Clone, Copy, Debug)]
pub enum FieldInit {
    Value(Value),
    Struct(TypeId),
}

/// Per-type run-time state, created on first use.
#[derive(Default)]
pub struct TypeState {
    pub class: Option<TypeClass>,
    pub supertypes: Option<Rc<[TypeId]>>,
    pub instance_template: Option<Rc<[FieldInit]>>,
    pub statics: Option<Box<[Value]>>,
    pub init: InitState,
    pub type_object: Option<GcRef>,
    /// `--stats`: the allocation row and modeled size of an instance (`None` inside: not
    /// modeled).
    pub modeled: Option<Option<(super::stats::KindId, u32)>>,
    /// For a receiver of this type: the generic context of each generic definition whose
    /// instance methods ran on it (`ContextFromThis` without method type arguments).
    pub this_contexts: Vec<(crate::metadata::TypeDefId, TypeId)>,
    /// For a generic context: open types already resolved in it (`ResolveType`).
    pub resolved: Vec<(TypeId, TypeId)>,
}

impl Vm {
    pub(crate) fn type_state(&mut self, t: TypeId) -> &mut TypeState {
        let i = t.0 as usize;
        if self.type_states.len() <= i {
            self.type_states.resize_with(i + 1, TypeState::default);
        }
        &mut self.type_states[i]
    }

    /// How values of `t` are represented.
    pub fn type_class(&mut self, t: TypeId) -> TypeClass {
        if let Some(c) = self.type_states.get(t.0 as usize).and_then(|s| s.class) {
            return c;
        }
        let c = self.compute_type_class(t);
        self.type_state(t).class = Some(c);
        c
    }

    fn compute_type_class(&mut self, t: TypeId) -> TypeClass {
        let wk = &self.meta.well_known;
        let prims = [
            (wk.sbyte, NumKind::I8),
            (wk.byte, NumKind::U8),
            (wk.int16, NumKind::I16),
            (wk.uint16, NumKind::U16),
            (wk.int32, NumKind::I32),
            (wk.uint32, NumKind::U32),
            (wk.int64, NumKind::I64),
            (wk.uint64, NumKind::U64),
            (wk.intptr, NumKind::I64),
            (wk.uintptr, NumKind::U64),
            (wk.char, NumKind::Char),
            (wk.single, NumKind::F32),
            (wk.double, NumKind::F64),
        ];
        if let Some(&(_, k)) = prims.iter().find(|(p, _)| *p == t) {
            return TypeClass::Num(k);
        }
        if t == wk.boolean {
            return TypeClass::Bool;
        }
        if t == wk.decimal {
            return TypeClass::Decimal;
        }
        if t == wk.string {
            return TypeClass::String;
        }
        match self.meta.types.kind(t).clone() {
            TypeKind::Void => TypeClass::Void,
            TypeKind::Param { .. } => TypeClass::Param,
            TypeKind::Named { def, args } => {
                if def == self.meta.well_known.nullable {
                    return TypeClass::Nullable(args.first().copied().unwrap_or(TypeId::ERROR));
                }
                let d = self.meta.type_def(def);
                match d.kind {
                    TypeDefKind::Struct => TypeClass::Struct,
                    TypeDefKind::Enum => {
                        let u = d.enum_underlying.unwrap_or(self.meta.well_known.int32);
                        match self.type_class(u) {
                            TypeClass::Num(k) => TypeClass::Enum(k),
                            _ => TypeClass::Enum(NumKind::I32),
                        }
                    }
                    _ => TypeClass::Reference,
                }
            }
            _ => TypeClass::Reference,
        }
    }

    /// The run-time type of a non-null value.
    pub fn type_of(&self, v: Value) -> Option<TypeId> {
        let wk = &self.meta.well_known;
        Some(match v {
            Value::Null | Value::Type(_) => return None,
            Value::Bool(_) => wk.boolean,
            Value::Char(_) => wk.char,
            Value::I8(_) => wk.sbyte,
            Value::U8(_) => wk.byte,
            Value::I16(_) => wk.int16,
            Value::U16(_) => wk.uint16,
            Value::I32(_) => wk.int32,
            Value::U32(_) => wk.uint32,
            Value::I64(_) => wk.int64,
            Value::U64(_) => wk.uint64,
            Value::F32(_) => wk.single,
            Value::F64(_) => wk.double,
            Value::Enum(t, _) => t,
            Value::Ref(r) | Value::Struct(r) | Value::Boxed(r) => match self.heap.get(r)? {
                Obj::Boxed(inner) => return self.type_of(*inner),
                Obj::Str(_) => wk.string,
                Obj::Instance(i) => i.ty,
                Obj::Array(a) => a.ty,
                Obj::Delegate(d) => d.ty,
                Obj::Type(_) => wk.type_,
                Obj::Decimal(_) => wk.decimal,
                Obj::Generator(g) => g.ty,
                Obj::Native(_) | Obj::ByRef(_) | Obj::Continuation(_) => wk.object,
            },
        })
    }

    /// All types a value of run-time type `t` is an instance of (cached).
    pub fn supertypes_of(&mut self, t: TypeId) -> Rc<[TypeId]> {
        if let Some(s) = self.type_states.get(t.0 as usize).and_then(|s| s.supertypes.clone()) {
            return s;
        }
        let s: Rc<[TypeId]> = self.meta.supertypes(t).into();
        self.type_state(t).supertypes = Some(s.clone());
        s
    }

    /// `v is ty` for a closed type `ty`.
    pub fn is_instance(&mut self, v: Value, ty: TypeId) -> bool {
        let Some(rt) = self.type_of(v) else { return false };
        if rt == ty || ty == self.meta.well_known.object {
            return true;
        }
        if let TypeClass::Nullable(inner) = self.type_class(ty) {
            return self.is_instance(v, inner);
        }
        if self.supertypes_of(rt).contains(&ty) {
            return true;
        }
        self.meta.is_subtype(rt, ty)
    }

    /// The default value of a closed type (`0`, `false`, `null`, or a new struct).
    pub fn default_value(&mut self, t: TypeId) -> Value {
        match self.field_init(t) {
            FieldInit::Value(v) => v,
            FieldInit::Struct(s) => self.new_instance(s, true),
        }
    }

    fn field_init(&mut self, t: TypeId) -> FieldInit {
        FieldInit::Value(match self.type_class(t) {
            TypeClass::Bool => Value::Bool(false),
            TypeClass::Num(k) | TypeClass::Enum(k) => zero_of(k),
            TypeClass::Struct => return FieldInit::Struct(t),
            TypeClass::Decimal => self.alloc_decimal(super::numerics::Decimal::default()),
            _ => Value::Null,
        })
    }

    /// A new instance of a class or struct with every field at its default.
    pub fn new_instance(&mut self, t: TypeId, is_struct: bool) -> Value {
        let template = self.instance_template(t);
        let mut fields = Vec::with_capacity(template.len());
        for init in template.iter() {
            fields.push(match *init {
                FieldInit::Value(v) => v,
                FieldInit::Struct(s) => self.new_instance(s, true),
            });
        }
        let r = self.heap.alloc(Obj::Instance(Instance { ty: t, fields: fields.into() }));
        if is_struct {
            Value::Struct(r)
        } else {
            if self.stats.enabled() {
                self.count_instance(t);
            }
            Value::Ref(r)
        }
    }

    fn instance_template(&mut self, t: TypeId) -> Rc<[FieldInit]> {
        if let Some(tpl) = self.type_states.get(t.0 as usize).and_then(|s| s.instance_template.clone()) {
            return tpl;
        }
        let types = self.instance_field_types(t);
        let tpl: Rc<[FieldInit]> = types.into_iter().map(|ft| self.field_init(ft)).collect();
        self.type_state(t).instance_template = Some(tpl.clone());
        tpl
    }

    /// The types of all instance fields of `t` by slot, base-class fields first.
    fn instance_field_types(&mut self, t: TypeId) -> Vec<TypeId> {
        let mut chain = vec![t];
        let mut cur = t;
        while let Some(b) = self.meta.base_type(cur) {
            chain.push(b);
            cur = b;
        }
        let mut slots: Vec<TypeId> = Vec::new();
        for &ct in chain.iter().rev() {
            let TypeKind::Named { def, args } = self.meta.types.kind(ct).clone() else {
                continue;
            };
            let sub = Substitution::for_type(def, &args);
            for f in self.meta.type_def(def).fields.clone() {
                let fd = self.meta.field(f).clone();
                if fd.is_static() {
                    continue;
                }
                let ft = self.meta.types.subst(fd.ty, &sub);
                let slot = fd.slot as usize;
                if slots.len() <= slot {
                    slots.resize(slot + 1, TypeId::ERROR);
                }
                slots[slot] = ft;
            }
        }
        slots
    }

    /// The statics block of a closed type, created with default values on first use.
    pub fn statics_mut(&mut self, t: TypeId) -> &mut [Value] {
        if self.type_states.get(t.0 as usize).is_none_or(|s| s.statics.is_none()) {
            let block = self.default_statics(t);
            self.type_state(t).statics = Some(block);
        }
        self.type_state(t).statics.as_deref_mut().unwrap_or_default()
    }

    fn default_statics(&mut self, t: TypeId) -> Box<[Value]> {
        let TypeKind::Named { def, args } = self.meta.types.kind(t).clone() else {
            return Box::new([]);
        };
        let sub = Substitution::for_type(def, &args);
        let d = self.meta.type_def(def);
        let mut block = vec![Value::Null; d.static_slots as usize];
        for f in d.fields.clone() {
            let fd = self.meta.field(f).clone();
            if !fd.flags.has(crate::metadata::Flags::STATIC) {
                continue;
            }
            let ft = self.meta.types.subst(fd.ty, &sub);
            let v = self.default_value(ft);
            if let Some(slot) = block.get_mut(fd.slot as usize) {
                *slot = v;
            }
        }
        block.into_boxed_slice()
    }

    pub fn init_state(&self, t: TypeId) -> InitState {
        self.type_states.get(t.0 as usize).map_or(InitState::NotStarted, |s| s.init)
    }

    pub fn set_init_state(&mut self, t: TypeId, state: InitState) {
        self.type_state(t).init = state;
    }

    /// The unique `System.Type` object of `t`.
    pub fn type_object(&mut self, t: TypeId) -> Value {
        if let Some(r) = self.type_states.get(t.0 as usize).and_then(|s| s.type_object) {
            return Value::Ref(r);
        }
        let r = self.heap.alloc(Obj::Type(t));
        self.type_state(t).type_object = Some(r);
        Value::Ref(r)
    }
}
