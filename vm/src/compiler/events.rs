//! Events as C# compiles them: `add_X`/`remove_X` methods. An event with accessors
//! (`event H X { add { } remove { } }`) and an interface's event are only those methods;
//! a field-like event is also a delegate field its accessors combine into, so a class's
//! event implements an interface's and `+=` through the interface reaches the field.

use std::rc::Rc;

use super::resolve::NameContext;
use super::sources::TypeDeclSource;
use super::Compiler;
use crate::metadata::{MethodId, TypeDefId, TypeDefKind};
use grammar::ast::{self, AccessorKind, BinaryOp, ExprKind};
use grammar::span::Span;

impl Compiler {
    /// Declares the accessor methods of an event; returns whether it also needs a field
    /// (field-like events that are neither abstract nor an interface's).
    pub(super) fn declare_event_accessors(&mut self, def: TypeDefId, src: &TypeDeclSource, ctx: &NameContext, e: &ast::EventDecl) -> bool {
        let is_abstract = e.modifiers.bits & ast::Modifiers::ABSTRACT != 0;
        let bodiless = self.meta.type_def(def).kind == TypeDefKind::Interface || is_abstract;
        for d in &e.declarators {
            match &e.accessors {
                Some(accessors) => {
                    for a in accessors {
                        let Some(kind) = accessor_prefix(a.kind) else { continue };
                        let body = a.body.clone();
                        let m = self.declare_accessor_method(def, src, ctx, e, &d.name, kind, body);
                        self.custom_event_accessors.insert(m);
                    }
                    // An explicit implementation is reached through its interface only.
                    if e.explicit_interface.is_none() {
                        self.custom_event_names.insert(d.name.name.clone());
                    }
                }
                // An interface's or an abstract event: accessors without bodies.
                None if bodiless => {
                    for kind in ["add", "remove"] {
                        let m = self.declare_accessor_method(def, src, ctx, e, &d.name, kind, None);
                        self.custom_event_accessors.insert(m);
                    }
                    self.custom_event_names.insert(d.name.name.clone());
                }
                None => {
                    for (kind, op) in [("add", BinaryOp::Add), ("remove", BinaryOp::Sub)] {
                        let body = Some(combine_into_field(&d.name, op, e.span));
                        self.declare_accessor_method(def, src, ctx, e, &d.name, kind, body);
                    }
                }
            }
        }
        e.accessors.is_none() && !bodiless
    }

    #[allow(clippy::too_many_arguments)]
    fn declare_accessor_method(
        &mut self,
        def: TypeDefId,
        src: &TypeDeclSource,
        ctx: &NameContext,
        e: &ast::EventDecl,
        name: &ast::Ident,
        kind: &str,
        body: Option<ast::Body>,
    ) -> MethodId {
        let span = name.span;
        let value = ast::Param {
            attributes: Vec::new(),
            modifier: ast::ParamModifier::None,
            ty: e.ty.clone(),
            name: ast::Ident { name: "value".to_string(), span },
            default: None,
            span,
        };
        let decl = ast::MethodDecl {
            attributes: Vec::new(),
            modifiers: e.modifiers,
            return_type: ast::TypeSyntax { kind: ast::TypeSyntaxKind::Predefined(ast::PredefinedType::Void), span },
            explicit_interface: e.explicit_interface.clone(),
            name: ast::Ident { name: format!("{kind}_{}", name.name), span },
            type_params: Vec::new(),
            params: vec![value],
            constraints: Vec::new(),
            body,
            span: e.span,
        };
        self.declare_method(def, src, ctx, Rc::new(decl))
    }
}

fn accessor_prefix(kind: AccessorKind) -> Option<&'static str> {
    match kind {
        AccessorKind::Add => Some("add"),
        AccessorKind::Remove => Some("remove"),
        _ => None,
    }
}

/// `{ X += value; }` (or `-=`): a field-like event's accessor body.
fn combine_into_field(name: &ast::Ident, op: BinaryOp, span: Span) -> ast::Body {
    let simple = |n: &str| ast::Expr { kind: ExprKind::Name(ast::NameSegment { name: ast::Ident { name: n.to_string(), span }, type_args: Vec::new() }), span };
    let assign = ast::Expr { kind: ExprKind::Assign { op: Some(op), target: Box::new(simple(&name.name)), value: Box::new(simple("value")) }, span };
    let stmt = ast::Stmt { kind: ast::StmtKind::Expr(assign), span };
    ast::Body::Block(ast::Block { stmts: vec![stmt], span })
}
