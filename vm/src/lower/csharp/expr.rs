//! Expressions for the C# printer: C# precedence, literals, member access, calls and
//! property accessors, operators, conversions (implicit widenings left out), and lowered
//! shapes printed as their source form (`x++`, `x += y`, a property set through a
//! temporary), with awaits and spilled temporaries written as statements first.

use super::{View, Writer};
use crate::compiler::bound::*;
use crate::compiler::emit::report::walk_exprs;
use crate::lower::names::type_name;
use crate::metadata::{MethodId, MethodKind, ParamKind, TypeId};

/// C# precedence levels, loosest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
    Assign,
    Cond,
    Coalesce,
    OrElse,
    AndAlso,
    BitOr,
    BitXor,
    BitAnd,
    Equality,
    Relational,
    Shift,
    Additive,
    Multiplicative,
    Unary,
    Primary,
}

struct Text(String, Prec);

impl<V: View> Writer<'_, V> {
    /// An expression used as a statement (`i++`, not `i++` inside parentheses).
    pub(super) fn statement_expr(&mut self, e: &BExpr) -> String {
        if let BKind::Seq { stmts, value } = &e.kind {
            if let Some(t) = self.increment(stmts, value).or_else(|| self.set_through_temp(stmts, value)) {
                return t;
            }
            self.seq_statements(stmts);
            return self.statement_expr(value);
        }
        if matches!(e.kind, BKind::Const(_) | BKind::Local(_) | BKind::Default) {
            return String::new();
        }
        self.expr(e, Prec::Assign)
    }

    pub(super) fn expr(&mut self, e: &BExpr, min: Prec) -> String {
        let Text(s, p) = self.text(e);
        if p < min {
            format!("({s})")
        } else {
            s
        }
    }

    fn text(&mut self, e: &BExpr) -> Text {
        let index = self.index.get(e);
        if let BKind::Await(parts) = &e.kind {
            return self.await_expr(parts, index);
        }
        let spill = index.and_then(|i| self.view.spill_field(i));
        if let Some(t) = self.branching(e, spill.clone()) {
            return t;
        }
        let t = self.plain_text(e);
        match spill {
            Some(field) => {
                self.line(format!("{field} = {};", t.0));
                Text(field, Prec::Primary)
            }
            None => t,
        }
    }

    fn await_expr(&mut self, parts: &AwaitParts, index: Option<u32>) -> Text {
        let operand = self.expr(&parts.operand, Prec::Primary);
        let site = index.and_then(|i| self.facts.site_of(i));
        let shown = self.view.await_text(site, &operand, parts);
        for (relative, text) in &shown.before {
            self.line_at(*relative, text);
        }
        let spill = index.and_then(|i| self.view.spill_field(i));
        match spill {
            Some(field) => {
                self.line(format!("{field} = {};", shown.value));
                Text(field, Prec::Primary)
            }
            None => Text(shown.value, if shown.before.is_empty() { Prec::Unary } else { Prec::Primary }),
        }
    }

    /// `c ? a : b`, `a && b`, `a || b` or `a ?? b` whose later operand needs statements
    /// (an await), as Roslyn's spiller (`SpillSequenceSpiller`) writes it: the first operand
    /// evaluated first, then an `if` whose branch holds the later operand's statements and
    /// assigns a temporary (`spill`, when that is kept in a field), the expression's value.
    fn branching(&mut self, e: &BExpr, spill: Option<String>) -> Option<Text> {
        let awaits = self.view.awaits_are_statements();
        let later_needs_statements = match &e.kind {
            BKind::Cond { then, otherwise, .. } => writes_statements(then, awaits) || writes_statements(otherwise, awaits),
            BKind::AndAlso(_, b) | BKind::OrElse(_, b) | BKind::Coalesce(_, b) => writes_statements(b, awaits),
            _ => false,
        };
        if !later_needs_statements {
            return None;
        }
        let tmp = match spill {
            Some(field) => field,
            None => {
                let name = self.fresh_temp();
                self.line(format!("{} {name};", self.type_text(e.ty)));
                name
            }
        };
        match &e.kind {
            BKind::Cond { cond, then, otherwise } => {
                let c = self.expr(cond, Prec::Assign);
                self.line(format!("if ({c})"));
                self.assign_in_block(&tmp, then);
                self.line("else");
                self.assign_in_block(&tmp, otherwise);
            }
            BKind::AndAlso(a, b) | BKind::OrElse(a, b) => {
                let first = self.expr(a, Prec::Assign);
                self.line(format!("{tmp} = {first};"));
                let test = if matches!(e.kind, BKind::AndAlso(..)) { tmp.clone() } else { format!("!{tmp}") };
                self.line(format!("if ({test})"));
                self.assign_in_block(&tmp, b);
            }
            BKind::Coalesce(a, b) if a.ty == e.ty => {
                let first = self.expr(a, Prec::Assign);
                self.line(format!("{tmp} = {first};"));
                self.line(format!("if ({tmp} == null)"));
                self.assign_in_block(&tmp, b);
            }
            BKind::Coalesce(a, b) => {
                // A nullable value: Roslyn first lowers `a ?? b` to
                // `a.HasValue ? a.GetValueOrDefault() : b`, then spills that conditional.
                let left = self.fresh_temp();
                let first = self.expr(a, Prec::Assign);
                self.line(format!("{} {left} = {first};", self.type_text(a.ty)));
                self.line(format!("if ({left}.HasValue)"));
                self.open();
                self.line(format!("{tmp} = {left}.GetValueOrDefault();"));
                self.close();
                self.line("else");
                self.assign_in_block(&tmp, b);
            }
            _ => {}
        }
        Some(Text(tmp, Prec::Primary))
    }

    /// `{ <statements of value>; tmp = value; }`.
    fn assign_in_block(&mut self, tmp: &str, value: &BExpr) {
        self.open();
        let v = self.expr(value, Prec::Assign);
        self.line(format!("{tmp} = {v};"));
        self.close();
    }

    fn plain_text(&mut self, e: &BExpr) -> Text {
        use Prec::*;
        match &e.kind {
            BKind::Const(c) => Text(self.constant(c, e.ty), Primary),
            BKind::Default => Text(format!("default({})", self.type_text(e.ty)), Primary),
            BKind::Local(l) => Text(self.local(*l), Primary),
            BKind::This => Text(self.view.this_text(), Primary),
            BKind::Field { receiver, field, owner } => {
                let name = self.meta.field(*field).name.clone();
                Text(self.member_access(receiver.as_deref(), *owner, &name), Primary)
            }
            BKind::Elem { array, indices } => {
                let a = self.expr(array, Primary);
                let i = self.list(indices);
                Text(format!("{a}[{i}]"), Primary)
            }
            BKind::Call { method, owner, receiver, args, .. } => self.call(*method, *owner, receiver.as_deref(), args),
            BKind::New { ctor, args } => {
                let a = self.args_of(*ctor, args);
                Text(format!("new {}({a})", self.type_text(e.ty)), Primary)
            }
            BKind::NewArray { sizes } => {
                let elem = self.meta.types.array_elem(e.ty).map_or(e.ty, |(t, _)| t);
                let s = self.list(sizes);
                Text(format!("new {}[{s}]", self.type_text(elem)), Primary)
            }
            BKind::ArrayLiteral { elems } => {
                let items = self.list(elems);
                Text(format!("new {} {{ {items} }}", self.type_text(e.ty)), Primary)
            }
            BKind::DelegateNew { method, owner, target, .. } => {
                let name = self.meta.method(*method).name.clone();
                Text(self.member_access(target.as_deref(), *owner, &name), Primary)
            }
            BKind::Closure(n) => Text(self.nested_name(*n), Primary),
            BKind::RefOf(x) => Text(format!("ref {}", self.expr(x, Unary)), Unary),
            BKind::Deref(x) => self.plain_text(x),
            BKind::CallNested { nested, args } => {
                let a = self.args(args);
                Text(format!("{}({a})", self.nested_name(*nested)), Primary)
            }
            BKind::Invoke { delegate, args } => {
                let d = self.expr(delegate, Primary);
                let a = self.args(args);
                Text(format!("{d}({a})"), Primary)
            }
            BKind::Unary { op, operand } => {
                let symbol = match op {
                    BUnOp::Neg { .. } => "-",
                    BUnOp::Not => "!",
                    BUnOp::BitNot => "~",
                };
                Text(format!("{symbol}{}", self.expr(operand, Unary)), Unary)
            }
            BKind::Binary { op, left, right } => self.binary(*op, left, right),
            BKind::AndAlso(a, b) => self.infix("&&", a, b, AndAlso),
            BKind::OrElse(a, b) => self.infix("||", a, b, OrElse),
            BKind::Coalesce(a, b) => {
                let l = self.expr(a, OrElse);
                let r = self.expr(b, Coalesce);
                Text(format!("{l} ?? {r}"), Coalesce)
            }
            BKind::Cond { cond, then, otherwise } => {
                let c = self.expr(cond, Coalesce);
                let t = self.expr(then, Assign);
                let o = self.expr(otherwise, Assign);
                Text(format!("{c} ? {t} : {o}"), Cond)
            }
            BKind::Concat(parts) => {
                let texts: Vec<String> = parts.iter().map(|p| self.expr(p, Multiplicative)).collect();
                Text(texts.join(" + "), Additive)
            }
            BKind::Format { value, format } => match format {
                None => self.text(value),
                Some(f) => Text(format!("{}.ToString({})", self.expr(value, Primary), string_literal(f)), Primary),
            },
            BKind::Align { value, alignment } => {
                let v = self.expr(value, Assign);
                let a = self.expr(alignment, Assign);
                Text(format!("string.Format(\"{{0,\" + {a} + \"}}\", {v})"), Primary)
            }
            BKind::Conv { kind, operand } => self.conversion(*kind, operand, e.ty),
            BKind::TypeTest { operand, target } => Text(format!("{} is {}", self.expr(operand, Relational), self.type_text(*target)), Relational),
            BKind::As { operand, target } => Text(format!("{} as {}", self.expr(operand, Relational), self.type_text(*target)), Relational),
            BKind::Assign { target, value } => self.assignment(target, value),
            BKind::Seq { stmts, value } => self.sequence(stmts, value),
            BKind::Throw(x) => Text(format!("throw {}", self.expr(x, Assign)), Assign),
            BKind::TypeOf(t) => Text(format!("typeof({})", self.type_text(*t)), Primary),
            BKind::ConditionalAccess { receiver, temp, access } => {
                let r = self.expr(receiver, Primary);
                self.substitutes.insert(*temp, format!("{r}?"));
                let t = self.text(access);
                self.substitutes.remove(temp);
                t
            }
            BKind::Await(parts) => self.await_expr(parts, None),
            BKind::MakeIterator { .. } | BKind::StartAsync { .. } | BKind::StartStateMachine | BKind::Error => Text("<error>".into(), Primary),
        }
    }

    fn list(&mut self, es: &[BExpr]) -> String {
        let texts: Vec<String> = es.iter().map(|e| self.expr(e, Prec::Assign)).collect();
        texts.join(", ")
    }

    fn args(&mut self, args: &[BArg]) -> String {
        self.args_of(None, args)
    }

    /// The arguments of a call of `callee` (`out x` where it declares `out`).
    fn args_of(&mut self, callee: Option<MethodId>, args: &[BArg]) -> String {
        let kinds: Vec<ParamKind> = callee.map(|m| self.meta.method(m).params.iter().map(|p| p.kind).collect()).unwrap_or_default();
        let texts: Vec<String> = args
            .iter()
            .enumerate()
            .map(|(i, a)| match (a.kind, kinds.get(i)) {
                (ArgKind::Value, _) => self.expr(&a.expr, Prec::Assign),
                (ArgKind::Ref, Some(ParamKind::Out)) => format!("out {}", self.expr(&a.expr, Prec::Unary)),
                (ArgKind::Ref, Some(ParamKind::In)) => format!("in {}", self.expr(&a.expr, Prec::Unary)),
                (ArgKind::Ref, _) => format!("ref {}", self.expr(&a.expr, Prec::Unary)),
            })
            .collect();
        texts.join(", ")
    }

    /// `receiver.name`, `Type.name`, or just `name` for a static member of this class.
    fn member_access(&mut self, receiver: Option<&BExpr>, owner: TypeId, name: &str) -> String {
        match receiver {
            Some(r) => format!("{}.{name}", self.expr(r, Prec::Primary)),
            None if self.meta.types.def_of(owner) == Some(self.owner) => name.to_string(),
            None => format!("{}.{name}", self.type_text(owner)),
        }
    }

    fn call(&mut self, method: crate::metadata::MethodId, owner: TypeId, receiver: Option<&BExpr>, args: &[BArg]) -> Text {
        let md = self.meta.method(method);
        let name = md.name.clone();
        let is_accessor = matches!(md.kind, MethodKind::Getter | MethodKind::Setter);
        if let (true, Some(property)) = (is_accessor, name.get(4..)) {
            return self.property_call(&name, property, owner, receiver, args);
        }
        if let Some(symbol) = operator_symbol(&name) {
            if let [a, b] = args {
                let (l, r) = (self.expr(&a.expr, Prec::Multiplicative), self.expr(&b.expr, Prec::Multiplicative));
                return Text(format!("{l} {symbol} {r}"), Prec::Relational);
            }
        }
        let target = self.member_access(receiver, owner, &name);
        let a = self.args_of(Some(method), args);
        Text(format!("{target}({a})"), Prec::Primary)
    }

    /// `x.P`, `x.P = v`, `x[i]`, `x[i] = v`.
    fn property_call(&mut self, accessor: &str, property: &str, owner: TypeId, receiver: Option<&BExpr>, args: &[BArg]) -> Text {
        let is_setter = accessor.starts_with("set_");
        let (index_args, value) = match (is_setter, args.split_last()) {
            (true, Some((v, rest))) => (rest, Some(v)),
            _ => (args, None),
        };
        let target = if property == "Item" {
            let base = match receiver {
                Some(r) => self.expr(r, Prec::Primary),
                None => self.type_text(owner),
            };
            format!("{base}[{}]", self.args(index_args))
        } else {
            self.member_access(receiver, owner, property)
        };
        match value {
            Some(v) => Text(format!("{target} = {}", self.expr(&v.expr, Prec::Assign)), Prec::Assign),
            None => Text(target, Prec::Primary),
        }
    }

    fn binary(&mut self, op: BBinOp, left: &BExpr, right: &BExpr) -> Text {
        use Prec::*;
        let (symbol, prec) = match op {
            BBinOp::Add { .. } => ("+", Additive),
            BBinOp::Sub { .. } => ("-", Additive),
            BBinOp::Mul { .. } => ("*", Multiplicative),
            BBinOp::Div => ("/", Multiplicative),
            BBinOp::Rem => ("%", Multiplicative),
            BBinOp::BitAnd => ("&", BitAnd),
            BBinOp::BitOr => ("|", BitOr),
            BBinOp::BitXor => ("^", BitXor),
            BBinOp::Shl => ("<<", Shift),
            BBinOp::Shr => (">>", Shift),
            BBinOp::UShr => (">>>", Shift),
            BBinOp::Eq => ("==", Equality),
            BBinOp::Ne => ("!=", Equality),
            BBinOp::Lt => ("<", Relational),
            BBinOp::Le => ("<=", Relational),
            BBinOp::Gt => (">", Relational),
            BBinOp::Ge => (">=", Relational),
        };
        self.infix(symbol, left, right, prec)
    }

    /// A left-associative infix operator.
    fn infix(&mut self, symbol: &str, left: &BExpr, right: &BExpr, prec: Prec) -> Text {
        let l = self.expr(left, prec);
        let r = self.expr(right, next_prec(prec));
        Text(format!("{l} {symbol} {r}"), prec)
    }

    fn conversion(&mut self, kind: ConvKind, operand: &BExpr, to: TypeId) -> Text {
        match kind {
            ConvKind::Identity | ConvKind::Box { .. } => self.text(operand),
            ConvKind::User(m) if self.meta.method(m).name == "op_Implicit" => self.text(operand),
            ConvKind::Numeric { .. } if matches!(operand.kind, BKind::Const(_)) || self.widens(operand.ty, to) => self.text(operand),
            _ => {
                let inner = self.expr(operand, Prec::Unary);
                Text(format!("({}){inner}", self.type_text(to)), Prec::Unary)
            }
        }
    }

    /// Whether C# converts `from` to `to` implicitly (a widening numeric conversion).
    fn widens(&self, from: TypeId, to: TypeId) -> bool {
        let wk = &self.meta.well_known;
        let float = [wk.single, wk.double, wk.decimal];
        let targets: Vec<TypeId> = if from == wk.sbyte {
            vec![wk.int16, wk.int32, wk.int64]
        } else if from == wk.byte {
            vec![wk.int16, wk.uint16, wk.int32, wk.uint32, wk.int64, wk.uint64]
        } else if from == wk.int16 {
            vec![wk.int32, wk.int64]
        } else if from == wk.uint16 || from == wk.char {
            vec![wk.int32, wk.uint32, wk.int64, wk.uint64]
        } else if from == wk.int32 {
            vec![wk.int64]
        } else if from == wk.uint32 {
            vec![wk.int64, wk.uint64]
        } else if from == wk.int64 || from == wk.uint64 {
            Vec::new()
        } else if from == wk.single {
            return to == wk.double;
        } else {
            return false;
        };
        targets.contains(&to) || float.contains(&to)
    }

    /// `t = v`, or `t op= x` when `v` is `t op x`.
    fn assignment(&mut self, target: &BExpr, value: &BExpr) -> Text {
        let t = self.expr(target, Prec::Unary);
        let inner = match &value.kind {
            BKind::Conv { kind: ConvKind::Numeric { .. } | ConvKind::Identity, operand } => operand,
            _ => value,
        };
        if let BKind::Binary { op, left, right } = &inner.kind {
            if let (true, Some(symbol)) = (self.same_place(target, left), compound_symbol(*op)) {
                let r = self.expr(right, Prec::Assign);
                return Text(format!("{t} {symbol}= {r}"), Prec::Assign);
            }
        }
        let v = self.expr(value, Prec::Assign);
        Text(format!("{t} = {v}"), Prec::Assign)
    }

    /// Whether `read` reads the variable `place` names, with nothing spilled on the way
    /// (so `place = read op x` can be written `place op= x`).
    fn same_place(&self, place: &BExpr, read: &BExpr) -> bool {
        if self.index.get(read).and_then(|i| self.view.spill_field(i)).is_some() {
            return false;
        }
        match (&place.kind, &read.kind) {
            (BKind::Local(a), BKind::Local(b)) => a == b,
            (BKind::This, BKind::This) => true,
            (BKind::Field { receiver: ra, field: fa, .. }, BKind::Field { receiver: rb, field: fb, .. }) => {
                fa == fb
                    && match (ra, rb) {
                        (None, None) => true,
                        (Some(a), Some(b)) => self.same_place(a, b),
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    /// A lowered sequence: `x++` if it is one, else its statements first, then its value.
    fn sequence(&mut self, stmts: &[BStmt], value: &BExpr) -> Text {
        if let Some(t) = self.increment(stmts, value) {
            return Text(t, Prec::Unary);
        }
        self.seq_statements(stmts);
        self.text(value)
    }

    fn seq_statements(&mut self, stmts: &[BStmt]) {
        for s in stmts {
            self.stmt(s, false);
        }
    }

    /// `x++` / `x--`: `{ old = x; x = old ± 1; } old`.
    fn increment(&mut self, stmts: &[BStmt], value: &BExpr) -> Option<String> {
        let (target, symbol) = increment_parts(stmts, value)?;
        Some(format!("{}{symbol}", self.expr(target, Prec::Primary)))
    }

    /// `{ tmp = v; <e using tmp>; } tmp` as a statement (a property or indexer set):
    /// `e` with `v` in place of `tmp`.
    fn set_through_temp(&mut self, stmts: &[BStmt], value: &BExpr) -> Option<String> {
        let [BStmt { kind: SKind::Local { local: tmp, init: Some(v) }, .. }, BStmt { kind: SKind::Expr(set), .. }] = stmts else { return None };
        let is_temp = self.locals[tmp.0 as usize].kind == LocalKind::Temp;
        if !is_temp || !matches!(value.kind, BKind::Local(l) if l == *tmp) || needs_statements(set) {
            return None;
        }
        let v = self.expr(v, Prec::Assign);
        self.substitutes.insert(*tmp, v);
        let text = self.statement_expr(set);
        self.substitutes.remove(tmp);
        Some(text)
    }

    fn constant(&self, c: &ConstVal, ty: TypeId) -> String {
        let wk = &self.meta.well_known;
        match c {
            ConstVal::Null => "null".into(),
            ConstVal::Bool(b) => b.to_string(),
            ConstVal::Char(ch) => char_literal(*ch),
            ConstVal::Int(i) => format!("{i}{}", integer_suffix(ty, wk)),
            ConstVal::UInt(u) => format!("{u}{}", integer_suffix(ty, wk)),
            ConstVal::Float(f) if ty == wk.single => format!("{f}f"),
            ConstVal::Float(f) if f.fract() == 0.0 && f.is_finite() => format!("{f:.1}"),
            ConstVal::Float(f) => f.to_string(),
            ConstVal::Str(s) => string_literal(s),
            ConstVal::Decimal(text) => format!("{text}m"),
        }
    }

    pub(super) fn local(&mut self, l: LocalId) -> String {
        if let Some(s) = self.substitutes.get(&l) {
            return s.clone();
        }
        if let Some(name) = self.view.local_name(l) {
            return name;
        }
        let info = &self.locals[l.0 as usize];
        if !info.name.is_empty() {
            return info.name.clone();
        }
        if let Some(name) = self.temp_names.get(&l) {
            return name.clone();
        }
        let name = self.fresh_temp();
        self.temp_names.insert(l, name.clone());
        name
    }

    /// A new name for a temporary the printed code introduces (`tmp1`, `tmp2`, ...).
    pub(super) fn fresh_temp(&mut self) -> String {
        self.temps_made += 1;
        format!("tmp{}", self.temps_made)
    }

    /// A lambda's or local function's name: Roslyn's generated one for a lambda
    /// (`<Main>b__0_0`), the declared one for a local function.
    pub(super) fn nested_name(&self, n: NestedId) -> String {
        let Some(&m) = self.nested.get(n.0 as usize) else { return format!("<nested {}>", n.0) };
        crate::lower::names::declared_name(self.meta, m).to_string()
    }

    pub(super) fn type_text(&self, t: TypeId) -> String {
        type_name(self.meta, t, self.owner)
    }
}

fn next_prec(p: Prec) -> Prec {
    use Prec::*;
    match p {
        Assign => Cond,
        Cond => Coalesce,
        Coalesce => OrElse,
        OrElse => AndAlso,
        AndAlso => BitOr,
        BitOr => BitXor,
        BitXor => BitAnd,
        BitAnd => Equality,
        Equality => Relational,
        Relational => Shift,
        Shift => Additive,
        Additive => Multiplicative,
        Multiplicative => Unary,
        Unary | Primary => Primary,
    }
}

fn compound_symbol(op: BBinOp) -> Option<&'static str> {
    Some(match op {
        BBinOp::Add { .. } => "+",
        BBinOp::Sub { .. } => "-",
        BBinOp::Mul { .. } => "*",
        BBinOp::Div => "/",
        BBinOp::Rem => "%",
        BBinOp::BitAnd => "&",
        BBinOp::BitOr => "|",
        BBinOp::BitXor => "^",
        BBinOp::Shl => "<<",
        BBinOp::Shr => ">>",
        _ => return None,
    })
}

/// The C# operator a user-defined operator method implements.
fn operator_symbol(name: &str) -> Option<&'static str> {
    Some(match name {
        "op_Addition" => "+",
        "op_Subtraction" => "-",
        "op_Multiply" => "*",
        "op_Division" => "/",
        "op_Modulus" => "%",
        "op_Equality" => "==",
        "op_Inequality" => "!=",
        "op_LessThan" => "<",
        "op_GreaterThan" => ">",
        "op_LessThanOrEqual" => "<=",
        "op_GreaterThanOrEqual" => ">=",
        _ => return None,
    })
}

fn integer_suffix(ty: TypeId, wk: &crate::metadata::WellKnown) -> &'static str {
    if ty == wk.int64 {
        "L"
    } else if ty == wk.uint64 {
        "UL"
    } else if ty == wk.uint32 {
        "U"
    } else {
        ""
    }
}

/// A C# string literal.
fn string_literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn char_literal(c: u16) -> String {
    match char::from_u32(u32::from(c)) {
        Some('\'') => "'\\''".into(),
        Some('\\') => "'\\\\'".into(),
        Some('\n') => "'\\n'".into(),
        Some('\t') => "'\\t'".into(),
        Some('\0') => "'\\0'".into(),
        Some(ch) if !ch.is_control() => format!("'{ch}'"),
        _ => format!("'\\u{c:04X}'"),
    }
}

/// Whether printing `e` writes statements before its own (an `await`, a lowered sequence
/// that is not an increment).
pub(super) fn needs_statements(e: &BExpr) -> bool {
    writes_statements(e, true)
}

/// Whether printing `e` writes statements before its own, in a view that writes an
/// `await` as statements (`awaits`) or inline.
fn writes_statements(e: &BExpr, awaits: bool) -> bool {
    let mut found = false;
    visit_expr(e, &mut |x| match &x.kind {
        BKind::Await(_) if awaits => found = true,
        BKind::Seq { stmts, value } if !stmts.is_empty() && increment_parts(stmts, value).is_none() => found = true,
        _ => {}
    });
    found
}

/// The variable and `++`/`--` of a lowered increment `{ old = x; x = old ± 1; } old`.
fn increment_parts<'e>(stmts: &'e [BStmt], value: &BExpr) -> Option<(&'e BExpr, &'static str)> {
    let [BStmt { kind: SKind::Local { local: old, init: Some(_) }, .. }, BStmt { kind: SKind::Expr(assign), .. }] = stmts else { return None };
    let BKind::Local(result) = value.kind else { return None };
    let BKind::Assign { target, value: new } = &assign.kind else { return None };
    let BKind::Binary { op, left, right } = &without_conversions(new).kind else { return None };
    let reads_old = matches!(without_conversions(left).kind, BKind::Local(l) if l == *old);
    let by_one = matches!(without_conversions(right).kind, BKind::Const(ConstVal::Int(1)));
    if result != *old || !reads_old || !by_one {
        return None;
    }
    match op {
        BBinOp::Add { .. } => Some((target, "++")),
        BBinOp::Sub { .. } => Some((target, "--")),
        _ => None,
    }
}

fn without_conversions(e: &BExpr) -> &BExpr {
    match &e.kind {
        BKind::Conv { operand, .. } => without_conversions(operand),
        _ => e,
    }
}

/// Calls `f` on `e` and every expression inside it (on a copy: not for addresses).
fn visit_expr(e: &BExpr, f: &mut dyn FnMut(&BExpr)) {
    let stmt = BStmt::new(SKind::Expr(e.clone()), e.span);
    walk_exprs(&stmt, f);
}
