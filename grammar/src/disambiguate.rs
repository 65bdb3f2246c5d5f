//! The disambiguation pass between the lexer and the LR parser.
//!
//! C# is not LR(1): `a < b > (c)` is a generic call, `(T)x` a cast, `int? x` a nullable
//! declaration, `record` sometimes a keyword. Like Roslyn's look-ahead, this pass decides
//! each such case with a bounded scan and rewrites the token to a distinct kind the
//! grammar can tell apart:
//!
//! * `<`/`>` of type-argument lists → `GenericLt`/`GenericGt` (adjacent plain `>`s that
//!   remain are glued into `>>`, `>>=`, `>>>`, `>>>=`);
//! * `(` → cast, lambda parameter list, tuple type or pattern parenthesis;
//! * `[` → attribute section, array rank, list pattern or index initializer;
//! * `?` → nullable type or null-conditional access; `..` → spread or slice;
//! * contextual keywords in keyword role (`async`, `await`, `var (`, `record`, `where`,
//!   `when`, `and`/`or`/`not`, `with`, `nameof`, `global`, `partial`, `required`, `file`,
//!   `yield`) and the `default` of a `default:` label.
//!
//! To decide, the pass keeps a stack of bracket frames (what each open `(`, `[`, `{` is)
//! and a little state per frame (inside a type header, at a member header, in a pattern).
//! Unclosed `{` at the end of input get synthetic `EofBrace` tokens: the grammar accepts
//! them where a `}` is missing (reporting CS1513) and ignores spare ones.

use crate::lexer::{Lexeme, Value};
use crate::span::Span;
use crate::token::Token;
use crate::typescan::{match_brackets, Scanner, NONE};

/// What an open bracket (or the file itself) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    // the root
    TopLevel,
    ExprRoot,
    // braces
    Namespace,
    TypeBody,
    EnumBody,
    AccessorList,
    Block,
    SwitchBlock,
    Initializer,
    SwitchExpr,
    PropertyPattern,
    // parentheses
    Params,
    Args,
    Control(Token),
    ParenExpr,
    Cast,
    TupleType,
    PatternParen,
    TypeParen,
    Designation,
    // brackets
    Attribute,
    BracketParams,
    Index,
    Collection,
    ListPattern,
    Rank,
    IndexInit,
    /// `[n]` of `new T[n]`.
    NewSizes,
}

impl Frame {
    /// Frames whose contents are comma-separated expressions.
    fn is_expr_list(self) -> bool {
        matches!(
            self,
            Frame::Args | Frame::ParenExpr | Frame::Index | Frame::Collection | Frame::Initializer | Frame::IndexInit | Frame::NewSizes | Frame::Attribute
        )
    }

    /// Frames that hold statements or declarations.
    fn is_statement_level(self) -> bool {
        matches!(self, Frame::TopLevel | Frame::Namespace | Frame::TypeBody | Frame::EnumBody | Frame::AccessorList | Frame::Block | Frame::SwitchBlock)
    }
}

/// Pattern tracking at one frame level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pat {
    Off,
    /// After `is`, until an operator of lower precedence.
    Is,
    /// After `case`, until `when` or `:`.
    Case,
    /// A switch-expression arm before `when`/`=>`.
    Arm,
    /// The whole frame is a pattern (`(..)`, `[..]`, `{..}` opened in a pattern).
    Sub,
}

#[derive(Clone, Copy, Debug)]
struct TypeHeader {
    is_enum: bool,
    name_seen: bool,
    seen_colon: bool,
}

#[derive(Clone, Copy, Debug)]
struct State {
    frame: Frame,
    /// Input index of the closing bracket (or `usize::MAX`).
    close: usize,
    pat: Pat,
    /// The mode to restore when an `is` pattern ends.
    pat_saved: Pat,
    header: Option<TypeHeader>,
    /// TypeBody: a parameter list was seen in the current member header.
    params_seen: bool,
    /// TypeBody: inside a member's initializer or expression body.
    in_expr: bool,
    /// Params: inside a default value.
    in_default: bool,
    new_pending: bool,
    namespace_pending: bool,
    switch_pending: bool,
    case_label: bool,
    /// Inside `where` constraints (`new()` there is not an object creation).
    in_where: bool,
    /// Input index just past the type after `new` (its tokens keep `new_pending`).
    new_type_end: usize,
    /// Inside a query expression at this level: the keyword of the current clause.
    query: Option<Token>,
}

impl State {
    fn new(frame: Frame, close: usize, pat: Pat) -> State {
        State {
            frame,
            close,
            pat,
            pat_saved: Pat::Off,
            header: None,
            params_seen: false,
            in_expr: false,
            in_default: false,
            new_pending: false,
            namespace_pending: false,
            switch_pending: false,
            case_label: false,
            in_where: false,
            new_type_end: 0,
            query: None,
        }
    }

    fn member_header(&self) -> bool {
        self.frame == Frame::TypeBody && !self.in_expr
    }

    fn in_pattern(&self) -> bool {
        self.pat != Pat::Off
    }
}

/// The result of the pass.
pub struct Disambiguated {
    /// The rewritten tokens, followed by one `EofBrace` per unclosed `{`.
    pub tokens: Vec<Lexeme>,
}

/// Rewrites `tokens` (trivia already removed). `expression` selects the expression root.
pub fn disambiguate(tokens: Vec<Lexeme>, values: &[Value], text_len: usize, expression: bool) -> Disambiguated {
    let kinds: Vec<Token> = tokens.iter().map(|t| t.kind).collect();
    let matching = match_brackets(&kinds);
    let root = if expression { Frame::ExprRoot } else { Frame::TopLevel };
    let mut pass = Pass { toks: tokens, kinds, matching, values, out: Vec::new(), closed: Vec::new(), frames: vec![State::new(root, usize::MAX, Pat::Off)] };
    pass.run();
    pass.finish(text_len, expression)
}

struct Pass<'a> {
    toks: Vec<Lexeme>,
    kinds: Vec<Token>,
    matching: Vec<u32>,
    values: &'a [Value],
    out: Vec<Lexeme>,
    /// For each output token that closed a frame: which frame.
    closed: Vec<Option<Frame>>,
    frames: Vec<State>,
}

fn is_type_start(k: Token) -> bool {
    k == Token::Ident || k.is_predefined_type() || k == Token::KwGlobal
}

/// Tokens that can begin a pattern (for `and`/`or`/`not`).
fn starts_pattern(k: Token) -> bool {
    use Token::*;
    k.is_literal()
        || k.is_predefined_type()
        || matches!(
            k,
            Ident | LParen | LBracket | LBrace | Lt | Gt | LtEq | GtEq | Minus | Plus | Tilde | Bang | DotDot | Default | Typeof | KwNot | KwVarDecon
        )
}

impl<'a> Pass<'a> {
    // ----- small accessors -------------------------------------------------------------

    fn kind(&self, i: usize) -> Option<Token> {
        self.kinds.get(i).copied()
    }

    fn is(&self, i: usize, k: Token) -> bool {
        self.kind(i) == Some(k)
    }

    fn name(&self, i: usize) -> &str {
        match self.toks.get(i).and_then(|t| self.values.get(t.value as usize)) {
            Some(Value::Name(n)) => n,
            _ => "",
        }
    }

    fn is_name(&self, i: usize, name: &str) -> bool {
        self.is(i, Token::Ident) && self.name(i) == name
    }

    fn close_of(&self, i: usize) -> Option<usize> {
        match self.matching.get(i) {
            Some(&m) if m != NONE => Some(m as usize),
            _ => None,
        }
    }

    fn adjacent(&self, i: usize, j: usize) -> bool {
        match (self.toks.get(i), self.toks.get(j)) {
            (Some(a), Some(b)) => a.span.end == b.span.start,
            _ => false,
        }
    }

    fn top(&self) -> &State {
        // The root frame is never popped.
        &self.frames[self.frames.len() - 1]
    }

    fn top_mut(&mut self) -> &mut State {
        let n = self.frames.len() - 1;
        &mut self.frames[n]
    }

    fn prev(&self) -> Option<Token> {
        self.out.last().map(|t| t.kind)
    }

    fn prev_n(&self, n: usize) -> Option<Token> {
        self.out.len().checked_sub(n).map(|i| self.out[i].kind)
    }

    fn prev_closed(&self) -> Option<Frame> {
        self.closed.last().copied().flatten()
    }

    fn rewrite(&mut self, rewrites: Vec<(usize, Token)>) {
        for (i, k) in rewrites {
            if let Some(slot) = self.kinds.get_mut(i) {
                *slot = k;
            }
        }
    }

    /// Ends a type: a name, a predefined type, `>` of type arguments, `]` of a rank,
    /// `?` of a nullable type or `)` of a tuple type.
    fn prev_is_type_end(&self) -> bool {
        self.is_type_end_at(self.out.len())
    }

    fn is_type_end_at(&self, len: usize) -> bool {
        let Some(k) = len.checked_sub(1).map(|i| self.out[i].kind) else { return false };
        let closed = self.closed[len - 1];
        match k {
            Token::Ident | Token::GenericGt | Token::NullableQ => true,
            k if k.is_predefined_type() => true,
            Token::RBracket => matches!(closed, Some(Frame::Rank | Frame::NewSizes)),
            Token::RParen => closed == Some(Frame::TupleType),
            _ => false,
        }
    }

    /// Ends an expression (so a following `(`/`[` is a call/index).
    fn prev_is_expr_end(&self) -> bool {
        match self.prev() {
            Some(Token::RParen) => !matches!(self.prev_closed(), Some(Frame::Control(_) | Frame::Cast | Frame::TupleType)),
            Some(Token::RBracket) => matches!(self.prev_closed(), Some(Frame::Index | Frame::Collection)),
            Some(Token::RBrace) => matches!(self.prev_closed(), Some(Frame::Initializer | Frame::SwitchExpr)),
            Some(k) => k.is_literal() || matches!(k, Token::Ident | Token::This | Token::Base | Token::GenericGt),
            None => false,
        }
    }

    /// At the start of a declaration or statement (where an attribute section may start).
    fn at_decl_boundary(&self) -> bool {
        let st = self.top();
        let Some(prev) = self.prev() else { return st.frame == Frame::TopLevel };
        match st.frame {
            Frame::Params | Frame::BracketParams => {
                !st.in_default
                    && (prev.is_lparen()
                        || prev == Token::LBracket
                        || prev == Token::Comma
                        || (prev == Token::RBracket && self.prev_closed() == Some(Frame::Attribute)))
            }
            Frame::EnumBody => matches!(prev, Token::LBrace | Token::Comma) || (prev == Token::RBracket && self.prev_closed() == Some(Frame::Attribute)),
            f if f.is_statement_level() => {
                if f == Frame::TypeBody && st.in_expr {
                    return false;
                }
                match prev {
                    Token::Semi | Token::LBrace => true,
                    Token::RBrace => matches!(
                        self.prev_closed(),
                        Some(Frame::Block | Frame::TypeBody | Frame::EnumBody | Frame::AccessorList | Frame::Namespace | Frame::SwitchBlock)
                    ),
                    Token::RBracket => self.prev_closed() == Some(Frame::Attribute),
                    Token::Colon => f == Frame::SwitchBlock,
                    _ => false,
                }
            }
            _ => false,
        }
    }

    // ----- the main loop ---------------------------------------------------------------

    fn run(&mut self) {
        let mut i = 0;
        while i < self.toks.len() {
            let k = self.classify(i);
            self.kinds[i] = k;
            i = self.emit(i, k);
        }
    }

    /// Decides the final kind of token `i` and updates frame state.
    fn classify(&mut self, i: usize) -> Token {
        let k = self.kinds[i];
        self.end_is_pattern(k);
        let k = match k {
            Token::Ident => self.ident(i),
            Token::LParen => self.lparen(i),
            Token::LBracket => self.lbracket(i),
            Token::LBrace => self.lbrace(i),
            Token::Question => self.question(i),
            Token::DotDot => self.dotdot(),
            Token::Static if self.lambda_follows(i + 1) => Token::KwStaticLambda,
            Token::Default => self.default_label(i),
            Token::LParenTupleType => {
                self.push(i, Frame::TupleType, Pat::Off);
                Token::LParenTupleType
            }
            Token::LBracketRank => {
                self.push(i, Frame::Rank, Pat::Off);
                Token::LBracketRank
            }
            Token::LBracketAttr => {
                self.push(i, Frame::Attribute, Pat::Off);
                Token::LBracketAttr
            }
            k => k,
        };
        self.track(i, k);
        k
    }

    /// Emits token `i` (gluing `>` runs) and returns the next index to classify.
    fn emit(&mut self, i: usize, k: Token) -> usize {
        let mut lexeme = self.toks[i];
        lexeme.kind = k;
        let mut next = i + 1;
        if k == Token::Gt {
            let (glued, used) = self.glue_gt(i);
            if used > 1 {
                lexeme.kind = glued;
                lexeme.span = lexeme.span.to(self.toks[i + used - 1].span);
                next = i + used;
            }
        }
        let closed = self.close_frames(i, k);
        self.out.push(lexeme);
        self.closed.push(closed);
        next
    }

    /// `>` `>` → `>>`, `>` `>` `>` → `>>>`, `>` `>=` → `>>=`, `>` `>` `>=` → `>>>=`.
    fn glue_gt(&self, i: usize) -> (Token, usize) {
        let plain_gt = |j: usize| self.is(j, Token::Gt) && self.adjacent(j - 1, j);
        let ge = |j: usize| self.is(j, Token::GtEq) && self.adjacent(j - 1, j);
        if plain_gt(i + 1) {
            if plain_gt(i + 2) {
                return (Token::UShr, 3);
            }
            if ge(i + 2) {
                return (Token::UShrEq, 3);
            }
            return (Token::Shr, 2);
        }
        if ge(i + 1) {
            return (Token::ShrEq, 2);
        }
        (Token::Gt, 1)
    }

    /// Pops frames on a closing bracket; returns the frame it closed.
    fn close_frames(&mut self, i: usize, k: Token) -> Option<Frame> {
        if !matches!(k, Token::RParen | Token::RBracket | Token::RBrace) {
            return None;
        }
        let pos = self.frames.iter().rposition(|f| f.close == i)?;
        if pos == 0 {
            return None;
        }
        let frame = self.frames[pos].frame;
        self.frames.truncate(pos);
        if k == Token::RBrace && self.top().frame == Frame::TypeBody && !self.top().in_expr {
            self.top_mut().params_seen = false;
        }
        Some(frame)
    }

    fn push(&mut self, i: usize, frame: Frame, pat: Pat) {
        let close = self.close_of(i).unwrap_or(usize::MAX);
        self.frames.push(State::new(frame, close, pat));
    }

    // ----- identifiers and contextual keywords -----------------------------------------

    fn ident(&mut self, i: usize) -> Token {
        let after_dot = matches!(self.prev(), Some(Token::Dot | Token::ColonColon));
        let k = if after_dot { Token::Ident } else { self.contextual(i) };
        if k == Token::Ident {
            let declared = self.note_declared_name();
            self.maybe_generic(i, declared);
        }
        k
    }

    fn contextual(&mut self, i: usize) -> Token {
        if let Some(k) = self.query_keyword(i) {
            self.top_mut().query = Some(k);
            return k;
        }
        let next = self.kind(i + 1);
        match self.name(i) {
            "async" if self.lambda_follows(i + 1) => Token::KwAsyncLambda,
            "async" if self.modifier_role(i) => Token::KwAsync,
            "await" if self.await_role(i) => Token::KwAwait,
            "yield" if matches!(next, Some(Token::Return | Token::Break)) => Token::KwYield,
            "var" if next == Some(Token::LParen) => Token::KwVarDecon,
            "record" if self.record_role(i) => Token::KwRecord,
            "where" if next == Some(Token::Ident) && self.is(i + 2, Token::Colon) => Token::KwWhere,
            "when" if self.when_role() => Token::KwWhen,
            "and" if self.combinator_role(i) => Token::KwAnd,
            "or" if self.combinator_role(i) => Token::KwOr,
            "not" if self.not_role(i) => Token::KwNot,
            "with" if next == Some(Token::LBrace) && self.prev_is_expr_end() && !self.top().member_header() => Token::KwWith,
            "nameof" if next == Some(Token::LParen) => Token::KwNameof,
            "global" if matches!(next, Some(Token::ColonColon | Token::Using)) => Token::KwGlobal,
            "partial" if self.partial_role(i) => Token::KwPartial,
            "required" if self.top().member_header() && self.declaration_follows(i + 1) => Token::KwRequired,
            "file" if self.type_decl_follows(i + 1) => Token::KwFile,
            _ => Token::Ident,
        }
    }

    /// `from x in` / `from T x in` starts a query expression.
    fn query_start(&self, i: usize) -> bool {
        if self.is(i + 1, Token::Ident) && self.is(i + 2, Token::In) {
            return true;
        }
        Scanner::new(&self.kinds, &self.matching).scan_type(i + 1).is_some_and(|s| self.is(s.end, Token::Ident) && self.is(s.end + 1, Token::In))
    }

    /// Query keywords: `from` starting a query, and the clause keywords inside one.
    fn query_keyword(&self, i: usize) -> Option<Token> {
        let name = self.name(i);
        if name == "from" && self.query_start(i) {
            return Some(Token::KwFrom);
        }
        let clause = self.top().query?;
        Some(match name {
            "where" => Token::KwWhere,
            "select" => Token::KwSelect,
            "orderby" => Token::KwOrderby,
            "group" => Token::KwGroup,
            "let" => Token::KwLet,
            "join" => Token::KwJoin,
            "into" => Token::KwInto,
            "by" if clause == Token::KwGroup => Token::KwBy,
            "on" if clause == Token::KwJoin => Token::KwOn,
            "equals" if clause == Token::KwOn => Token::KwEquals,
            "ascending" if clause == Token::KwOrderby => Token::KwAscending,
            "descending" if clause == Token::KwOrderby => Token::KwDescending,
            _ => return None,
        })
    }

    /// A lambda starts at `j`: `x =>`, `(..) =>`, `static ..`, `async ..`.
    fn lambda_follows(&self, mut j: usize) -> bool {
        loop {
            match self.kind(j) {
                Some(Token::Ident) if self.is(j + 1, Token::FatArrow) => return true,
                Some(Token::Ident) if self.name(j) == "async" => j += 1,
                Some(Token::Static) => j += 1,
                Some(Token::Delegate) => return true,
                Some(Token::LParen) => return self.close_of(j).is_some_and(|c| self.is(c + 1, Token::FatArrow)),
                _ => return false,
            }
        }
    }

    /// `async` as a modifier: followed by a type, another modifier or `void`.
    fn modifier_role(&self, i: usize) -> bool {
        match self.kind(i + 1) {
            Some(k) if k.is_modifier() || k.is_predefined_type() => true,
            Some(Token::Ident) => !matches!(self.kind(i + 2), Some(Token::Eq | Token::Semi | Token::Comma)),
            Some(Token::LParen) => self.tuple_type_then_name(i + 1),
            _ => false,
        }
    }

    fn tuple_type_then_name(&self, open: usize) -> bool {
        self.tuple_type_then(open, |k| k == Token::Ident)
    }

    /// A tuple type starts at `open` and the token after it satisfies `follow`.
    fn tuple_type_then(&self, open: usize, follow: impl Fn(Token) -> bool) -> bool {
        Scanner::new(&self.kinds, &self.matching).scan_tuple_type(open).is_some_and(|s| self.kind(s.end).is_some_and(follow))
    }

    /// `await` as an operator: followed by something that can be awaited (not by an
    /// operator, so `await + 1` keeps `await` an identifier).
    fn await_role(&self, i: usize) -> bool {
        use Token::*;
        match self.kind(i + 1) {
            Some(k) if k.is_predefined_type() || k.is_literal() => true,
            Some(Ident | LParen | This | Base | New | Default | Foreach | Using | InterpString | StringLit | Checked | Unchecked | Typeof) => true,
            _ => false,
        }
    }

    fn record_role(&self, i: usize) -> bool {
        match self.kind(i + 1) {
            Some(Token::Class | Token::Struct) => true,
            Some(Token::Ident) => matches!(self.kind(i + 2), Some(Token::LParen | Token::LBrace | Token::Lt | Token::Colon | Token::Semi)),
            _ => false,
        }
    }

    fn when_role(&self) -> bool {
        let st = self.top();
        matches!(st.pat, Pat::Case | Pat::Arm)
            || st.case_label
            || (self.prev() == Some(Token::RParen) && self.prev_closed() == Some(Frame::Control(Token::Catch)))
            || self.prev() == Some(Token::Catch)
    }

    /// `and` / `or` between two patterns.
    fn combinator_role(&self, i: usize) -> bool {
        if !self.top().in_pattern() {
            return false;
        }
        let prev_ends = match self.prev() {
            Some(k) => {
                k.is_literal()
                    || k.is_predefined_type()
                    || matches!(k, Token::Ident | Token::RParen | Token::RBracket | Token::RBrace | Token::GenericGt | Token::NullableQ)
            }
            None => false,
        };
        prev_ends && self.kind(i + 1).is_some_and(starts_pattern)
    }

    fn not_role(&self, i: usize) -> bool {
        if !self.top().in_pattern() && self.prev() != Some(Token::Is) {
            return false;
        }
        let prev_starts = matches!(
            self.prev(),
            Some(
                Token::Is
                    | Token::Case
                    | Token::KwAnd
                    | Token::KwOr
                    | Token::KwNot
                    | Token::LParenPattern
                    | Token::LBracketPattern
                    | Token::Comma
                    | Token::Colon
                    | Token::LBrace
            )
        );
        prev_starts && self.kind(i + 1).is_some_and(starts_pattern)
    }

    fn partial_role(&self, i: usize) -> bool {
        match self.kind(i + 1) {
            Some(Token::Class | Token::Struct | Token::Interface | Token::Enum | Token::Void) => true,
            Some(k) if k.is_modifier() => true,
            Some(Token::Ident) if self.name(i + 1) == "record" => true,
            _ => self.top().member_header() && self.declaration_follows(i + 1),
        }
    }

    fn type_decl_follows(&self, j: usize) -> bool {
        match self.kind(j) {
            Some(Token::Class | Token::Struct | Token::Interface | Token::Enum | Token::Delegate) => true,
            Some(k) if k.is_modifier() => true,
            Some(Token::Ident) => matches!(self.name(j), "record" | "partial"),
            _ => false,
        }
    }

    /// A modifier or `Type Name` starts at `j`.
    fn declaration_follows(&self, mut j: usize) -> bool {
        while self.is(j, Token::Ident) && matches!(self.name(j), "async" | "partial" | "required" | "file") {
            j += 1;
        }
        match self.kind(j) {
            Some(k) if k.is_modifier() => true,
            Some(k) if is_type_start(k) || k == Token::LParen => Scanner::new(&self.kinds, &self.matching)
                .scan_type(j)
                .is_some_and(|s| matches!(self.kind(s.end), Some(Token::Ident | Token::This | Token::Operator))),
            _ => false,
        }
    }

    // ----- generics ----------------------------------------------------------------------

    /// `Name <`: a type-argument list if the bracketed tokens form types and the token
    /// after `>` is one that can follow a type (the C# spec's disambiguation rule).
    fn maybe_generic(&mut self, i: usize, declared_name: bool) {
        if !self.is(i + 1, Token::Lt) {
            return;
        }
        let Some(scan) = Scanner::new(&self.kinds, &self.matching).scan_type_args(i + 1) else { return };
        if declared_name || self.generic_follow_ok(scan.end + 1) {
            self.rewrite(scan.rewrites);
        }
    }

    /// Whether the identifier being classified is the name in a type declaration header
    /// (then `<` opens its type parameters).
    fn note_declared_name(&mut self) -> bool {
        match &mut self.top_mut().header {
            Some(h) if !h.name_seen => {
                h.name_seen = true;
                true
            }
            _ => false,
        }
    }

    fn generic_follow_ok(&self, follow: usize) -> bool {
        use Token::*;
        let Some(f) = self.kind(follow) else { return true };
        match f {
            LParen | RParen | RBracket | RBrace | Colon | Semi | Comma | Dot | Question | EqEq | NotEq | Pipe | Caret | AmpAmp | PipePipe | Amp | LBracket
            | FatArrow | LBrace | QuestionQuestion | Is | As | ColonColon => true,
            Ident | This | Operator => self.declaration_context(),
            _ => false,
        }
    }

    /// An identifier after `>` makes a declaration (`List<int> x`) unless we are inside an
    /// expression list and the name is not preceded by `is`, `as`, `case`, `out`, ...
    fn declaration_context(&self) -> bool {
        if !self.top().frame.is_expr_list() || self.top().in_pattern() {
            return true;
        }
        let start = self.name_start();
        let before = start.checked_sub(1).map(|j| self.out[j].kind);
        matches!(before, Some(Token::Is | Token::As | Token::Case | Token::Out | Token::Ref | Token::In | Token::New | Token::Const))
    }

    /// Output index where the dotted name ending with the current identifier starts.
    fn name_start(&self) -> usize {
        let mut j = self.out.len();
        loop {
            match (j.checked_sub(1).map(|x| self.out[x].kind), j.checked_sub(2).map(|x| self.out[x].kind)) {
                (Some(Token::Dot | Token::ColonColon), Some(Token::Ident | Token::KwGlobal)) => j -= 2,
                (Some(Token::Dot), Some(Token::GenericGt)) => match self.generic_open_before(j - 2) {
                    Some(open) if open >= 1 => j = open - 1,
                    _ => return j,
                },
                _ => return j,
            }
        }
    }

    /// The output index of the `GenericLt` matching the `GenericGt` at `gt`.
    fn generic_open_before(&self, gt: usize) -> Option<usize> {
        let mut depth = 0usize;
        for j in (0..=gt).rev() {
            match self.out[j].kind {
                Token::GenericGt => depth += 1,
                Token::GenericLt => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        None
    }

    // ----- brackets ------------------------------------------------------------------------

    fn lparen(&mut self, i: usize) -> Token {
        let prev = self.prev();
        let st = *self.top();
        if prev == Some(Token::KwVarDecon) || st.frame == Frame::Designation {
            self.push(i, Frame::Designation, Pat::Off);
            return Token::LParen;
        }
        match prev {
            Some(Token::Typeof | Token::Default | Token::Sizeof) => {
                self.push(i, Frame::TypeParen, Pat::Off);
                return Token::LParen;
            }
            Some(Token::KwNameof | Token::Checked | Token::Unchecked) => {
                self.push(i, Frame::ParenExpr, Pat::Off);
                return Token::LParen;
            }
            Some(
                k @ (Token::If
                | Token::While
                | Token::For
                | Token::Foreach
                | Token::Switch
                | Token::Lock
                | Token::Using
                | Token::Catch
                | Token::Fixed
                | Token::KwWhen),
            ) => {
                self.push(i, Frame::Control(k), Pat::Off);
                return Token::LParen;
            }
            _ => {}
        }
        if prev == Some(Token::New) {
            // `new (int, string)[n]`, `new()` / `new(args)`, the `new()` constraint.
            if !st.in_where && self.tuple_type_then(i, |k| matches!(k, Token::LBracket)) {
                let scan = Scanner::new(&self.kinds, &self.matching).scan_tuple_type(i);
                if let Some(scan) = scan {
                    self.rewrite(scan.rewrites);
                }
                self.push(i, Frame::TupleType, Pat::Off);
                return Token::LParenTupleType;
            }
            self.push(i, Frame::Args, Pat::Off);
            return Token::LParen;
        }
        if st.in_pattern() && !st.in_expr {
            if let Some(k) = self.cast_in_pattern(i) {
                return k;
            }
            self.push(i, Frame::PatternParen, Pat::Sub);
            return Token::LParenPattern;
        }
        if self.params_here() {
            if self.top().frame == Frame::TypeBody {
                self.top_mut().params_seen = true;
            }
            self.push(i, Frame::Params, Pat::Off);
            return Token::LParen;
        }
        if matches!(prev, Some(Token::Base | Token::This)) {
            // `base(...)`/`this(...)` calls, also before an expression-bodied constructor's `=>`.
            self.push(i, Frame::Args, Pat::Off);
            return Token::LParen;
        }
        if self.close_of(i).is_some_and(|c| self.is(c + 1, Token::FatArrow)) {
            self.push(i, Frame::Params, Pat::Off);
            return Token::LParenLambda;
        }
        if let Some(k) = self.cast_or_tuple(i) {
            return k;
        }
        let frame = if self.prev_is_expr_end() || (prev == Some(Token::New) || st.new_pending) { Frame::Args } else { Frame::ParenExpr };
        self.push(i, frame, Pat::Off);
        Token::LParen
    }

    /// A parameter list: after a member or local-function name, a type name in a type
    /// header (primary constructor), `delegate`, or an operator.
    fn params_here(&self) -> bool {
        let st = self.top();
        let prev = self.prev();
        if let Some(h) = st.header {
            return !h.seen_colon && h.name_seen && matches!(prev, Some(Token::Ident | Token::GenericGt));
        }
        if prev == Some(Token::Delegate) {
            return true;
        }
        if st.member_header() {
            if self.prev_n(2) == Some(Token::Operator) || prev == Some(Token::Operator) {
                return true;
            }
            // `implicit operator N?(...)`: a conversion to a nullable type.
            if prev == Some(Token::NullableQ) && self.prev_n(3) == Some(Token::Operator) {
                return true;
            }
            return matches!(prev, Some(Token::Ident | Token::GenericGt));
        }
        if !matches!(st.frame, Frame::TopLevel | Frame::Block | Frame::SwitchBlock | Frame::Namespace) {
            return false;
        }
        // Local function / delegate declaration: `Type Name(` or `Type Name<T>(`.
        let name_end = match prev {
            Some(Token::Ident) => self.out.len() - 1,
            Some(Token::GenericGt) => match self.generic_open_before(self.out.len() - 1) {
                Some(open) if open >= 1 && self.out[open - 1].kind == Token::Ident => open - 1,
                _ => return false,
            },
            _ => return false,
        };
        self.is_type_end_at(name_end)
    }

    /// A cast of a constant in a pattern (`case (int)5:`, `case (byte)-1:`,
    /// `case (Color)Shade.Dark:`): a type in parentheses before a literal or a name (a
    /// parenthesized pattern is followed by neither, only by `when`, `and`, `or`).
    fn cast_in_pattern(&mut self, i: usize) -> Option<Token> {
        let close = self.close_of(i)?;
        let literal_at = |j: usize| self.kind(j).is_some_and(|k| k.is_literal());
        let name_at = |j: usize| self.kind(j) == Some(Token::Ident) && !matches!(self.name(j), "when" | "and" | "or");
        let constant_follows =
            literal_at(close + 1) || name_at(close + 1) || (matches!(self.kind(close + 1), Some(Token::Minus | Token::Plus)) && literal_at(close + 2));
        if !constant_follows {
            return None;
        }
        let scan = Scanner::new(&self.kinds, &self.matching).scan_type(i + 1)?;
        if scan.end != close {
            return None;
        }
        self.rewrite(scan.rewrites);
        self.push(i, Frame::Cast, Pat::Off);
        Some(Token::LParenCast)
    }

    /// `(T)x` casts and `(int, string) t` tuple types.
    fn cast_or_tuple(&mut self, i: usize) -> Option<Token> {
        let close = self.close_of(i)?;
        let scanner = Scanner::new(&self.kinds, &self.matching);
        if let Some(scan) = scanner.scan_type(i + 1) {
            if scan.end == close && self.cast_follows(i, close) {
                self.rewrite(scan.rewrites);
                self.push(i, Frame::Cast, Pat::Off);
                return Some(Token::LParenCast);
            }
        }
        let scan = Scanner::new(&self.kinds, &self.matching).scan_type(i)?;
        if scan.end < close + 1 || !self.tuple_type_follows(scan.end) {
            return None;
        }
        self.rewrite(scan.rewrites);
        self.push(i, Frame::TupleType, Pat::Off);
        Some(Token::LParenTupleType)
    }

    /// The C# cast rule: `(T)` followed by an identifier, literal, `(`, `!`, `~` or an
    /// expression keyword; a predefined or nullable/array type also before `-`, `+`...
    fn cast_follows(&self, open: usize, close: usize) -> bool {
        use Token::*;
        let Some(f) = self.kind(close + 1) else { return false };
        let strong = f.is_literal()
            || f.is_predefined_type()
            || matches!(f, Ident | LParen | Bang | Tilde | This | Base | New | Typeof | Default | Sizeof | Checked | Unchecked | Delegate | KwNameof);
        if strong {
            return true;
        }
        let single_predefined = close == open + 2 && self.kind(open + 1).is_some_and(|k| k.is_predefined_type());
        let decorated = matches!(self.kind(close - 1), Some(Question | NullableQ | RBracket));
        (single_predefined || decorated) && matches!(f, Minus | Plus | PlusPlus | MinusMinus | Caret | Amp | Star)
    }

    /// A tuple type `(A, B)` is followed by a declared name (or `?`/`[]`/`this`/`operator`).
    fn tuple_type_follows(&self, end: usize) -> bool {
        match self.kind(end) {
            Some(Token::Ident | Token::This | Token::Operator) => true,
            Some(Token::Question) => self.is(end + 1, Token::Ident),
            Some(Token::LBracket) => matches!(self.kind(end + 1), Some(Token::RBracket | Token::Comma)),
            _ => matches!(self.top().frame, Frame::TypeParen),
        }
    }

    fn lbracket(&mut self, i: usize) -> Token {
        let st = *self.top();
        let next = self.kind(i + 1);
        if matches!(next, Some(Token::RBracket | Token::Comma)) && (self.prev_is_type_end() || matches!(self.prev(), Some(Token::New | Token::Stackalloc))) {
            self.push(i, Frame::Rank, Pat::Off);
            return Token::LBracketRank;
        }
        if self.at_decl_boundary() {
            let global = (self.is_name(i + 1, "assembly") || self.is_name(i + 1, "module")) && self.is(i + 2, Token::Colon);
            self.push(i, Frame::Attribute, Pat::Off);
            return if global { Token::LBracketGlobalAttr } else { Token::LBracketAttr };
        }
        if st.in_pattern() && !self.prev_is_expr_end() {
            self.push(i, Frame::ListPattern, Pat::Sub);
            return Token::LBracketPattern;
        }
        if st.frame == Frame::Initializer
            && matches!(self.prev(), Some(Token::LBrace | Token::Comma))
            && self.close_of(i).is_some_and(|c| self.is(c + 1, Token::Eq))
        {
            self.push(i, Frame::IndexInit, Pat::Off);
            return Token::LBracketIndexInit;
        }
        if st.new_pending && self.prev_is_type_end() {
            self.push(i, Frame::NewSizes, Pat::Off);
            return Token::LBracket;
        }
        if st.member_header() && self.prev() == Some(Token::This) {
            self.push(i, Frame::BracketParams, Pat::Off);
            return Token::LBracket;
        }
        if !self.prev_is_expr_end() && self.close_of(i).is_some_and(|c| self.lambda_follows(c + 1)) {
            self.push(i, Frame::Attribute, Pat::Off);
            return Token::LBracketAttr;
        }
        let frame = if self.prev_is_expr_end() { Frame::Index } else { Frame::Collection };
        self.push(i, frame, Pat::Off);
        Token::LBracket
    }

    fn lbrace(&mut self, i: usize) -> Token {
        let frame = self.brace_frame();
        let pat = match frame {
            Frame::SwitchExpr => Pat::Arm,
            Frame::PropertyPattern => Pat::Sub,
            _ => Pat::Off,
        };
        self.push(i, frame, pat);
        Token::LBrace
    }

    fn brace_frame(&mut self) -> Frame {
        let prev = self.prev();
        let st = *self.top();
        match prev {
            Some(Token::FatArrow) => return Frame::Block,
            Some(Token::KwWith) => return Frame::Initializer,
            Some(Token::Switch) => return Frame::SwitchExpr,
            _ => {}
        }
        let top = self.top_mut();
        top.in_where = false;
        if let Some(h) = top.header.take() {
            return if h.is_enum { Frame::EnumBody } else { Frame::TypeBody };
        }
        if std::mem::take(&mut top.namespace_pending) {
            return Frame::Namespace;
        }
        if std::mem::take(&mut top.switch_pending) {
            return Frame::SwitchBlock;
        }
        if std::mem::take(&mut top.new_pending) {
            return Frame::Initializer;
        }
        if st.in_pattern() && !st.in_expr {
            return Frame::PropertyPattern;
        }
        if st.member_header() {
            return if st.params_seen { Frame::Block } else { Frame::AccessorList };
        }
        if st.frame == Frame::AccessorList {
            return Frame::Block;
        }
        if prev == Some(Token::Eq) || (st.frame == Frame::Initializer && matches!(prev, Some(Token::LBrace | Token::Comma))) {
            return Frame::Initializer;
        }
        Frame::Block
    }

    // ----- other rewrites --------------------------------------------------------------

    /// `?`: null-conditional access, nullable type, or the conditional operator.
    fn question(&self, i: usize) -> Token {
        use Token::*;
        let next = self.kind(i + 1);
        let st = self.top();
        if st.new_pending && i < st.new_type_end {
            // Inside the type of `new T?[n]`.
            return NullableQ;
        }
        if next == Some(Dot) {
            return CondAccess;
        }
        let rank_next = next == Some(LBracket) && matches!(self.kind(i + 2), Some(RBracket | Comma));
        if next == Some(LBracket) && !rank_next && self.adjacent(i, i + 1) && self.prev_is_expr_end() {
            return CondAccess;
        }
        if !self.prev_is_type_end() {
            return Question;
        }
        let type_context =
            st.member_header() || (st.frame == Frame::Params && !st.in_default) || matches!(st.frame, Frame::TupleType | Frame::TypeParen | Frame::Cast);
        if type_context {
            return NullableQ;
        }
        match next {
            None | Some(RParen | RBracket | Comma | Semi | Gt | GenericGt | RBrace) => NullableQ,
            Some(LBracket) if rank_next => NullableQ,
            Some(Ident | This | Operator) => self.nullable_declarator(i + 2),
            _ => Question,
        }
    }

    /// After `T? name`: a declaration if a declarator, parameter list or body follows.
    fn nullable_declarator(&self, j: usize) -> Token {
        use Token::*;
        match self.kind(j) {
            Some(Eq | Semi | Comma | RParen | LBrace | In | RBracket | Lt) => NullableQ,
            Some(LParen) => match self.close_of(j).and_then(|c| self.kind(c + 1)) {
                Some(LBrace | FatArrow | Semi) => NullableQ,
                Some(Ident) if self.close_of(j).is_some_and(|c| self.name(c + 1) == "where") => NullableQ,
                _ => Question,
            },
            _ => Question,
        }
    }

    /// `..`: a spread in a collection expression, a slice in a list pattern.
    fn dotdot(&self) -> Token {
        let st = self.top();
        if st.frame == Frame::ListPattern {
            Token::Slice
        } else if st.frame == Frame::Collection && matches!(self.prev(), Some(Token::LBracket | Token::Comma)) {
            Token::Spread
        } else {
            Token::DotDot
        }
    }

    /// `default:` in a switch block.
    fn default_label(&self, i: usize) -> Token {
        let st = self.top();
        let at_start = matches!(self.prev(), Some(Token::LBrace | Token::Semi | Token::RBrace | Token::Colon));
        if st.frame == Frame::SwitchBlock && self.is(i + 1, Token::Colon) && at_start {
            Token::DefaultLabel
        } else {
            Token::Default
        }
    }

    /// Ends an `is` pattern at an operator that binds looser than relational ones.
    fn end_is_pattern(&mut self, k: Token) {
        use Token::*;
        if self.top().pat != Pat::Is {
            return;
        }
        let ends = matches!(
            k,
            AmpAmp
                | PipePipe
                | Question
                | QuestionQuestion
                | Semi
                | Comma
                | EqEq
                | NotEq
                | Eq
                | FatArrow
                | Colon
                | Amp
                | Pipe
                | Caret
                | PlusEq
                | MinusEq
                | StarEq
                | SlashEq
                | PercentEq
                | AmpEq
                | PipeEq
                | CaretEq
                | ShlEq
                | QuestionQuestionEq
        );
        if ends {
            let st = self.top_mut();
            st.pat = st.pat_saved;
        }
    }

    /// Frame bookkeeping after token `i` got its final kind `k`.
    fn track(&mut self, i: usize, k: Token) {
        use Token::*;
        let prev = self.prev();
        let paren_next = self.is(i + 1, Token::LParen);
        let new_type_end = if k == Token::New { self.type_end_after(i + 1) } else { 0 };
        let st = self.top_mut();
        if st.new_pending && i >= st.new_type_end && !keeps_new_pending(k) {
            st.new_pending = false;
        }
        match k {
            Is => {
                if st.pat != Pat::Is {
                    st.pat_saved = st.pat;
                }
                st.pat = Pat::Is;
            }
            Case if st.frame == Frame::SwitchBlock => {
                st.pat = Pat::Case;
                st.case_label = true;
            }
            DefaultLabel => st.case_label = true,
            KwWhen if st.pat == Pat::Case || st.pat == Pat::Arm => st.pat = Pat::Off,
            Colon => {
                if st.case_label {
                    st.case_label = false;
                    st.pat = Pat::Off;
                }
                if let Some(h) = &mut st.header {
                    h.seen_colon = true;
                }
            }
            FatArrow => {
                st.in_where = false;
                if st.frame == Frame::SwitchExpr {
                    st.pat = Pat::Off;
                }
                if st.frame == Frame::TypeBody {
                    st.in_expr = true;
                }
            }
            Comma => {
                if st.frame == Frame::SwitchExpr {
                    st.pat = Pat::Arm;
                }
                st.in_default = false;
                if matches!(st.query, Some(Token::KwSelect | Token::KwBy | Token::KwInto)) {
                    st.query = None;
                }
            }
            Eq => {
                if st.frame == Frame::TypeBody {
                    st.in_expr = true;
                }
                if st.frame == Frame::Params || st.frame == Frame::BracketParams {
                    st.in_default = true;
                }
            }
            Semi => {
                st.query = None;
                st.in_expr = false;
                st.params_seen = false;
                st.header = None;
                st.new_pending = false;
                st.namespace_pending = false;
                st.case_label = false;
                st.in_where = false;
                if st.pat == Pat::Is || st.pat == Pat::Case {
                    st.pat = Pat::Off;
                }
            }
            New => {
                st.new_pending = !st.in_where;
                st.new_type_end = new_type_end;
            }
            KwWhere => st.in_where = true,
            Namespace => st.namespace_pending = true,
            Switch if paren_next => st.switch_pending = true,
            Class | Struct | Interface | Enum | KwRecord if !matches!(prev, Some(Colon | Comma)) => {
                st.header = Some(TypeHeader { is_enum: k == Enum, name_seen: false, seen_colon: false });
            }
            _ => {}
        }
    }

    /// The input index just after the type starting at `j` (or `j` if none).
    fn type_end_after(&self, j: usize) -> usize {
        Scanner::new(&self.kinds, &self.matching).scan_type(j).map_or(j, |s| s.end)
    }

    // ----- end of input ------------------------------------------------------------------

    fn finish(mut self, text_len: usize, expression: bool) -> Disambiguated {
        let open_braces = self.frames.iter().skip(1).filter(|f| f.close == usize::MAX && is_brace_frame(f.frame)).count();
        let unclosed = if expression { 0 } else { open_braces };
        let at = Span::new(text_len, text_len);
        for _ in 0..unclosed {
            self.out.push(Lexeme { kind: Token::EofBrace, span: at, value: 0 });
        }
        Disambiguated { tokens: self.out }
    }
}

fn is_brace_frame(f: Frame) -> bool {
    matches!(
        f,
        Frame::Namespace
            | Frame::TypeBody
            | Frame::EnumBody
            | Frame::AccessorList
            | Frame::Block
            | Frame::SwitchBlock
            | Frame::Initializer
            | Frame::SwitchExpr
            | Frame::PropertyPattern
    )
}

/// Tokens that may appear between `new` and its `{` initializer.
fn keeps_new_pending(k: Token) -> bool {
    use Token::*;
    k.is_predefined_type()
        || matches!(
            k,
            New | Ident
                | Dot
                | ColonColon
                | KwGlobal
                | GenericLt
                | GenericGt
                | NullableQ
                | RParen
                | RBracket
                | LParen
                | LBracket
                | LBracketRank
                | LParenTupleType
        )
}
