//! The bound tree: method bodies after binding. Every name is resolved to a local, field,
//! method or type; every expression has its C# type; implicit conversions are explicit
//! `Conv` nodes; `foreach`, `using`, `lock`, `switch` and compound assignments are already
//! lowered to simpler statements. The emitter turns this tree into bytecode.

use crate::bytecode::NumKind;
use crate::metadata::{FieldId, MethodId, TypeId};
use grammar::span::Span;

/// A local variable or parameter of one function body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

/// A jump target inside one function body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LabelId(pub u32);

/// A nested function (lambda or local function) of the method being compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NestedId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalKind {
    User,
    /// A compiler temporary.
    Temp,
    /// A parameter (by position, receiver excluded).
    Param(u16),
    /// A `ref`/`out` parameter: the register holds a managed reference.
    RefParam(u16),
    /// A `ref` local (`ref int r = ref x;`): the register holds a managed reference to the
    /// variable it aliases.
    RefLocal,
}

#[derive(Clone, Debug)]
pub struct LocalInfo {
    pub name: String,
    pub ty: TypeId,
    pub kind: LocalKind,
    /// The function (0 = the method, else a nested function) that declares it.
    pub owner: u32,
    /// Captured by a nested function or passed by `ref`/`out`: lives in a display object.
    pub hoisted: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ConstVal {
    Null,
    Bool(bool),
    Char(u16),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    /// A decimal literal's text.
    Decimal(String),
}

#[derive(Clone, Debug)]
pub struct BExpr {
    pub kind: BKind,
    pub ty: TypeId,
    pub span: Span,
}

/// How an argument is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    Value,
    /// `ref x` / `out x` / `in x`: the argument expression is a variable.
    Ref,
}

#[derive(Clone, Debug)]
pub struct BArg {
    pub expr: BExpr,
    pub kind: ArgKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BUnOp {
    Neg { checked: bool },
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BBinOp {
    Add { checked: bool },
    Sub { checked: bool },
    Mul { checked: bool },
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    UShr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BBinOp {
    pub fn is_comparison(self) -> bool {
        matches!(self, BBinOp::Eq | BBinOp::Ne | BBinOp::Lt | BBinOp::Le | BBinOp::Gt | BBinOp::Ge)
    }
}

/// A conversion the compiler made explicit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConvKind {
    /// Same representation (reference upcasts, enum ↔ underlying, `T` → `T?`).
    Identity,
    Numeric {
        to: NumKind,
        checked: bool,
    },
    /// A value type to `object`/an interface (`from` is the value's static type). With
    /// `view`, the object is only read at once (a string conversion calling `ToString`, as
    /// C#'s constrained calls do) and no box is made.
    Box {
        from: TypeId,
        view: bool,
    },
    /// `object` or an interface to a value type, or `T?` to `T` (throws when null).
    Unbox,
    /// Checked reference downcast.
    Cast,
    /// User-defined `implicit`/`explicit operator`.
    User(MethodId),
}

#[derive(Clone, Debug)]
pub enum BKind {
    Const(ConstVal),
    /// `default(T)` of the expression's type.
    Default,
    Local(LocalId),
    This,
    /// An instance field (receiver given) or a static field of `owner`.
    Field {
        receiver: Option<Box<BExpr>>,
        field: FieldId,
        owner: TypeId,
    },
    /// `a[i]` / `a[i, j]` on an array.
    Elem {
        array: Box<BExpr>,
        indices: Vec<BExpr>,
    },
    /// A method call. `owner` is the constructed type declaring the method; `type_args`
    /// are the method's own type arguments.
    Call {
        method: MethodId,
        owner: TypeId,
        type_args: Vec<TypeId>,
        receiver: Option<Box<BExpr>>,
        args: Vec<BArg>,
        is_virtual: bool,
    },
    /// `new T(args)` for a class or struct (the expression type is `T`).
    New {
        ctor: Option<MethodId>,
        args: Vec<BArg>,
    },
    /// `new T[n]` / `new T[n, m]` (expression type is the array type).
    NewArray {
        sizes: Vec<BExpr>,
    },
    /// `new T[] { a, b }` (one dimension).
    ArrayLiteral {
        elems: Vec<BExpr>,
    },
    /// A delegate over a method group (`target` is the receiver for instance methods).
    DelegateNew {
        method: MethodId,
        owner: TypeId,
        type_args: Vec<TypeId>,
        target: Option<Box<BExpr>>,
        is_virtual: bool,
    },
    /// A lambda or local function turned into a delegate.
    Closure(NestedId),
    /// `ref x`: a managed reference to a variable (the initialiser of a `ref` local).
    RefOf(Box<BExpr>),
    /// The variable a managed reference points to: the result of a call of a method that
    /// returns by reference (`First(a) = 10`, `int v = First(a)`).
    Deref(Box<BExpr>),
    /// `await operand`: `awaiter = operand.GetAwaiter(); if (!awaiter.IsCompleted)
    /// <suspend>; awaiter.GetResult()`, with the awaiter in the temporary `awaiter`.
    Await(Box<AwaitParts>),
    /// The `Iterator<element>` an iterator method returns: its arguments and `body`, the
    /// method holding the iterator's code.
    MakeIterator {
        body: MethodId,
        element: TypeId,
    },
    /// A runtime-lowered async method's task entry: runs `body` (its code) on the method's
    /// arguments and turns the outcome into the method's `Task` (or nothing, for `async
    /// void`) through `complete`, a helper of `AsyncHelpers`.
    StartAsync {
        body: MethodId,
        complete: MethodId,
        type_args: Vec<TypeId>,
    },
    /// A classic-lowered async method's kickoff: start the state machine (the function's
    /// root display) and return its builder's `Task`.
    StartStateMachine,
    /// A direct call of a local function.
    CallNested {
        nested: NestedId,
        args: Vec<BArg>,
    },
    /// Invoking a delegate value.
    Invoke {
        delegate: Box<BExpr>,
        args: Vec<BArg>,
    },
    Unary {
        op: BUnOp,
        operand: Box<BExpr>,
    },
    /// Both operands have the operation's operand type; comparisons produce `bool`.
    Binary {
        op: BBinOp,
        left: Box<BExpr>,
        right: Box<BExpr>,
    },
    AndAlso(Box<BExpr>, Box<BExpr>),
    OrElse(Box<BExpr>, Box<BExpr>),
    /// `a ?? b`.
    Coalesce(Box<BExpr>, Box<BExpr>),
    Cond {
        cond: Box<BExpr>,
        then: Box<BExpr>,
        otherwise: Box<BExpr>,
    },
    /// String concatenation of string-typed parts.
    Concat(Vec<BExpr>),
    /// `value.ToString(format)` for an interpolation hole (string result).
    Format {
        value: Box<BExpr>,
        format: Option<String>,
    },
    /// Padding for `{x,alignment}`.
    Align {
        value: Box<BExpr>,
        alignment: Box<BExpr>,
    },
    Conv {
        kind: ConvKind,
        operand: Box<BExpr>,
    },
    /// `e is T` (a bool).
    TypeTest {
        operand: Box<BExpr>,
        target: TypeId,
    },
    /// `e as T`.
    As {
        operand: Box<BExpr>,
        target: TypeId,
    },
    /// `target = value`; the expression's value is the assigned value.
    Assign {
        target: Box<BExpr>,
        value: Box<BExpr>,
    },
    /// Statements, then a value (temporaries for lowered compound expressions).
    Seq {
        stmts: Vec<BStmt>,
        value: Box<BExpr>,
    },
    /// `throw e` as an expression.
    Throw(Box<BExpr>),
    /// `typeof(T)`.
    TypeOf(TypeId),
    /// `r?.x`: evaluate `receiver` into `temp`; `null` if it is null, else `access`.
    ConditionalAccess {
        receiver: Box<BExpr>,
        temp: LocalId,
        access: Box<BExpr>,
    },
    /// A bound expression that failed; errors were reported.
    Error,
}

#[derive(Clone, Debug)]
pub struct BCatch {
    pub ty: TypeId,
    pub local: Option<LocalId>,
    pub filter: Option<BExpr>,
    pub body: Box<BStmt>,
    /// Holds the caught exception for `throw;`.
    pub exception_temp: LocalId,
}

#[derive(Clone, Debug)]
pub struct BStmt {
    pub kind: SKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum SKind {
    Expr(BExpr),
    /// A block; `locals` are the variables it declares (a display object is made for the
    /// hoisted ones each time the block is entered).
    Block {
        stmts: Vec<BStmt>,
        locals: Vec<LocalId>,
    },
    /// Initialises a local (`None`: default value, needed for structs).
    Local {
        local: LocalId,
        init: Option<BExpr>,
    },
    If {
        cond: BExpr,
        then: Box<BStmt>,
        otherwise: Option<Box<BStmt>>,
    },
    /// `while (cond) body` with its `break`/`continue` labels.
    Loop {
        cond: Option<BExpr>,
        body: Box<BStmt>,
        update: Vec<BExpr>,
        brk: LabelId,
        cont: LabelId,
        test_first: bool,
    },
    Return(Option<BExpr>),
    /// `yield return e;` in an iterator.
    YieldReturn(BExpr),
    /// `yield break;`: ends the iterator (through its `finally` blocks).
    YieldBreak,
    Throw(BExpr),
    /// `throw;` inside a catch block.
    Rethrow(LocalId),
    Try {
        body: Box<BStmt>,
        catches: Vec<BCatch>,
        finally: Option<Box<BStmt>>,
    },
    Label(LabelId),
    Goto(LabelId),
    /// Dense integer switch: jumps to `targets[value - low]`, else to `default`.
    Switch {
        value: BExpr,
        low: i64,
        targets: Vec<LabelId>,
        default: LabelId,
    },
    /// Declares a local function (its closure environment is ready from here on).
    LocalFunction(NestedId),
    Empty,
}

impl BExpr {
    pub fn new(kind: BKind, ty: TypeId, span: Span) -> BExpr {
        BExpr { kind, ty, span }
    }

    pub fn error(span: Span) -> BExpr {
        BExpr { kind: BKind::Error, ty: TypeId::ERROR, span }
    }

    pub fn is_error(&self) -> bool {
        matches!(self.kind, BKind::Error) || self.ty == TypeId::ERROR
    }
}

impl BStmt {
    pub fn new(kind: SKind, span: Span) -> BStmt {
        BStmt { kind, span }
    }
}

/// A function body ready to emit: the method's own, or a nested function's.
#[derive(Clone, Debug)]
pub struct BoundBody {
    pub body: BStmt,
    /// The parameters in order (receiver excluded).
    pub params: Vec<LocalId>,
    /// For an iterator (a body with `yield`), the element type.
    pub iterator: Option<TypeId>,
    /// For an async method, its result type (`T` of `Task<T>`, `void` otherwise).
    pub async_result: Option<TypeId>,
}

/// A lambda or local function discovered while binding a method.
#[derive(Clone, Debug)]
pub struct NestedFunction {
    pub method: MethodId,
    pub body: Option<BoundBody>,
    /// The innermost block of the enclosing function it was declared in (for captures).
    pub parent: u32,
    pub is_local_function: bool,
    pub delegate_type: Option<TypeId>,
    pub span: Span,
}

/// `e` seen as type `ty` (a reference or identity conversion). Nodes whose code depends on
/// their own type — allocations, delegates, `default` — keep it and get an identity
/// conversion on top; anything else is simply relabelled.
pub fn retyped(e: BExpr, ty: TypeId) -> BExpr {
    if e.ty == ty {
        return e;
    }
    match e.kind {
        BKind::New { .. } | BKind::NewArray { .. } | BKind::ArrayLiteral { .. } | BKind::DelegateNew { .. } | BKind::Closure(_) | BKind::Default => {
            let span = e.span;
            BExpr::new(BKind::Conv { kind: ConvKind::Identity, operand: Box::new(e) }, ty, span)
        }
        _ => BExpr { ty, ..e },
    }
}

/// The pieces of an `await`, bound against the awaiter pattern.
#[derive(Clone, Debug)]
pub struct AwaitParts {
    /// The awaited expression (kept apart so a runtime-async callee can be called
    /// directly, without a Task).
    pub operand: BExpr,
    /// `operand.GetAwaiter()` with the operand replaced by the local `operand_temp`.
    pub get_awaiter: BExpr,
    pub operand_temp: LocalId,
    pub awaiter: LocalId,
    /// `awaiter.IsCompleted`.
    pub is_completed: BExpr,
    /// `awaiter.GetResult()`.
    pub get_result: BExpr,
}
