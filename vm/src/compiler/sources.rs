//! Where each declared symbol came from: the syntax the binder compiles later, and the
//! import scope its names are resolved in.

use std::rc::Rc;

use super::scopes::ScopeId;
use crate::metadata::{FieldId, FileId, PropertyId, TypeDefId};
use grammar::ast;

/// One declaration of a type (a partial type has several).
#[derive(Clone, Debug)]
pub struct TypeDeclSource {
    pub decl: Rc<ast::TypeDecl>,
    pub scope: ScopeId,
    pub file: FileId,
}

#[derive(Clone, Debug, Default)]
pub struct TypeSource {
    pub decls: Vec<TypeDeclSource>,
}

/// What to compile for a method.
#[derive(Clone, Debug)]
pub enum MethodSource {
    /// Nothing (abstract, interface, extern/intrinsic, or runtime-provided like a
    /// delegate's `Invoke`).
    None,
    /// An ordinary method (or operator) with its declaration.
    Method {
        decl: Rc<ast::MethodDecl>,
        scope: ScopeId,
    },
    Operator {
        decl: Rc<ast::OperatorDecl>,
        scope: ScopeId,
    },
    /// A declared instance constructor.
    Constructor {
        decl: Rc<ast::ConstructorDecl>,
        scope: ScopeId,
    },
    /// The parameterless constructor C# supplies when a class declares none, or the
    /// primary constructor of a class/struct/record.
    ImplicitConstructor {
        owner: TypeDefId,
        scope: ScopeId,
    },
    /// The static constructor: field initializers, then the declared body if any.
    StaticConstructor {
        owner: TypeDefId,
        decl: Option<Rc<ast::ConstructorDecl>>,
        scope: ScopeId,
    },
    /// A property or indexer accessor with a body.
    Accessor {
        body: Rc<ast::Body>,
        property: PropertyId,
        is_setter: bool,
        scope: ScopeId,
    },
    /// `T P => expr;`
    ExprProperty {
        expr: Rc<ast::Expr>,
        property: PropertyId,
        scope: ScopeId,
    },
    /// An auto-property accessor reading or writing its backing field.
    AutoGetter {
        field: FieldId,
    },
    AutoSetter {
        field: FieldId,
    },
    /// The method holding top-level statements (`Program.<Main>$`).
    TopLevel {
        stmts: Rc<Vec<ast::Stmt>>,
        scope: ScopeId,
    },
    /// A lambda or local function, compiled as part of its enclosing method.
    Nested,
    /// A record's compiler-generated member (`ToString`, `Equals`...).
    RecordMember {
        owner: TypeDefId,
        kind: RecordMember,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordMember {
    ToString,
    EqualsObject,
    GetHashCode,
    OpEquality,
    OpInequality,
    Deconstruct,
}

/// A field's initializer, compiled into the constructors (or the static constructor).
#[derive(Clone, Debug)]
pub struct FieldSource {
    pub init: Option<Rc<ast::Expr>>,
    pub scope: ScopeId,
    pub file: FileId,
}
