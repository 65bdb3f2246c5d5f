//! A generic method's type arguments against its type parameters' constraints: since
//! C# 7.3 a candidate whose inferred or explicit type arguments break a `class`, `struct`
//! or type constraint is not applicable (C# §12.6.4.2), and a lone such candidate is
//! reported with CS0452 / CS0453 / CS0311 / CS0315.

use super::MethodBinder;
use crate::compiler::bound::ConvKind;
use crate::metadata::{MethodId, Substitution, TypeId};

/// The first constraint a type argument breaks: the error code and message.
#[derive(Clone, Debug)]
pub(super) struct ConstraintViolation {
    pub code: &'static str,
    pub message: String,
}

impl MethodBinder<'_> {
    /// Checks `type_args` of method `m` (declared in the constructed type `owner`).
    /// Type arguments that are themselves type parameters are not checked: their own
    /// constraints were checked where they were declared.
    pub(super) fn check_method_constraints(&mut self, m: MethodId, owner: TypeId, type_args: &[TypeId]) -> Result<(), ConstraintViolation> {
        let params = self.c.meta.method(m).type_params.clone();
        let sub = Substitution::for_method(m, type_args);
        for (p, &arg) in params.iter().zip(type_args) {
            if arg == TypeId::ERROR || self.c.meta.types.is_open(arg) {
                continue;
            }
            if p.is_class && !self.is_reference_type(arg) {
                let msg = self.constraint_message(m, &p.name, arg, "must be a reference type");
                return Err(ConstraintViolation { code: "CS0452", message: msg });
            }
            if p.is_struct && (!self.c.meta.is_value_type(arg) || self.nullable_inner(arg).is_some()) {
                let msg = self.constraint_message(m, &p.name, arg, "must be a non-nullable value type");
                return Err(ConstraintViolation { code: "CS0453", message: msg });
            }
            for &declared in &p.constraints {
                let in_owner = self.member_type(declared, owner);
                let bound = self.c.meta.types.subst(in_owner, &sub);
                if bound == TypeId::ERROR || self.c.meta.types.is_open(bound) || self.satisfies_type_constraint(arg, bound) {
                    continue;
                }
                let (code, kind) = if self.c.meta.is_value_type(arg) { ("CS0315", "boxing") } else { ("CS0311", "implicit reference") };
                let msg = format!(
                    "The type '{}' cannot be used as type parameter '{}' in the generic type or method '{}'. There is no {kind} conversion from '{}' to '{}'.",
                    self.type_name(arg),
                    p.name,
                    self.c.member_display(m),
                    self.type_name(arg),
                    self.type_name(bound)
                );
                return Err(ConstraintViolation { code, message: msg });
            }
        }
        Ok(())
    }

    /// An identity, implicit reference or boxing conversion from `arg` to `bound`.
    fn satisfies_type_constraint(&mut self, arg: TypeId, bound: TypeId) -> bool {
        match self.type_conversion(arg, bound) {
            Some(c) => c.implicit && matches!(c.kind, ConvKind::Identity | ConvKind::Box { .. }),
            None => false,
        }
    }

    fn constraint_message(&self, m: MethodId, param: &str, arg: TypeId, must: &str) -> String {
        format!(
            "The type '{}' {must} in order to use it as parameter '{param}' in the generic type or method '{}'",
            self.type_name(arg),
            self.c.member_display(m)
        )
    }
}
