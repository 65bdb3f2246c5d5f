//! The token alphabet: the logos lexer's raw token kinds, the kinds the disambiguation pass
//! rewrites raw tokens into, and the coarse [`TokenClass`] used for syntax highlighting.
//!
//! One enum serves both stages so that the disambiguator can rewrite a token's kind in
//! place. Variants without a `#[token]`/`#[regex]` attribute are never produced by the
//! lexer; they only come out of `disambiguate.rs` (or are synthetic markers).
//!
//! String-like literals (`"…"`, `@"…"`, `"""…"""`, `$"…"`, `'…'`) are only *started* by
//! logos (`Quote`, `AtQuote`, `DollarQuote`, `CharQuote`); `lexer.rs` scans their bodies by
//! hand and turns them into `StringLit`, `CharLit` or `InterpString`.

use logos::Logos;

/// The error type logos reports for input no token matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LexError;

/// A token kind. Data lives beside it (see `lexer::Lexeme`).
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\n\x0B\x0C\u{FEFF}\u{A0}\u{2000}-\u{200A}\u{3000}]+")]
pub enum Token {
    // --- trivia kept for highlighting (filtered out before parsing) ---------------------
    #[regex(r"//[^\n]*", allow_greedy = true)]
    LineComment,
    #[regex(r"/\*([^*]|\*+[^*/])*\*+/")]
    BlockComment,
    /// `/*` without a closing `*/`: the lexer wrapper swallows the rest of the file.
    #[token("/*", priority = 1)]
    UnterminatedComment,
    /// `#`: a preprocessor line (or the shebang at the file's start).
    #[token("#")]
    Hash,
    /// A preprocessor line (`#region`, `#nullable enable`, ...) or a `#!` shebang line.
    Directive,
    /// Lines excluded by `#if` / `#elif` / `#else` (not lexed).
    Skipped,
    /// Input the lexer could not make sense of (already reported).
    Error,

    // --- literals and names ------------------------------------------------------------
    /// An identifier; `\uXXXX` / `\UXXXXXXXX` escapes may spell any of its characters.
    #[regex(r"@?([\p{L}\p{Nl}_]|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8})([\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}\p{Cf}]|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8})*")]
    Ident,
    #[regex(r"[0-9][0-9_]*[uUlL]*")]
    #[regex(r"0[xX][0-9a-fA-F_]*[uUlL]*")]
    #[regex(r"0[bB][01_]*[uUlL]*")]
    IntLit,
    #[regex(r"[0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9][0-9_]*)?[fFdDmM]?")]
    #[regex(r"\.[0-9][0-9_]*([eE][+-]?[0-9][0-9_]*)?[fFdDmM]?")]
    #[regex(r"[0-9][0-9_]*[eE][+-]?[0-9][0-9_]*[fFdDmM]?")]
    #[regex(r"[0-9][0-9_]*[fFdDmM]")]
    RealLit,
    /// `"` — starts a regular or raw string (scanned by the wrapper).
    #[token("\"")]
    Quote,
    /// `@"` — starts a verbatim string.
    #[token("@\"")]
    AtQuote,
    /// `$"`, `$@"`, `@$"`, `$$"""`... — starts an interpolated string.
    #[regex(r#"\$+@?""#)]
    #[regex(r#"@\$+""#)]
    DollarQuote,
    /// `'` — starts a character literal.
    #[token("'")]
    CharQuote,
    CharLit,
    StringLit,
    InterpString,

    // --- reserved keywords ---------------------------------------------------------------
    #[token("abstract")]
    Abstract,
    #[token("as")]
    As,
    #[token("base")]
    Base,
    #[token("bool")]
    Bool,
    #[token("break")]
    Break,
    #[token("byte")]
    Byte,
    #[token("case")]
    Case,
    #[token("catch")]
    Catch,
    #[token("char")]
    Char,
    #[token("checked")]
    Checked,
    #[token("class")]
    Class,
    #[token("const")]
    Const,
    #[token("continue")]
    Continue,
    #[token("decimal")]
    Decimal,
    #[token("default")]
    Default,
    #[token("delegate")]
    Delegate,
    #[token("do")]
    Do,
    #[token("double")]
    Double,
    #[token("else")]
    Else,
    #[token("enum")]
    Enum,
    #[token("event")]
    Event,
    #[token("explicit")]
    Explicit,
    #[token("extern")]
    Extern,
    #[token("false")]
    False,
    #[token("finally")]
    Finally,
    #[token("fixed")]
    Fixed,
    #[token("float")]
    Float,
    #[token("for")]
    For,
    #[token("foreach")]
    Foreach,
    #[token("goto")]
    Goto,
    #[token("if")]
    If,
    #[token("implicit")]
    Implicit,
    #[token("in")]
    In,
    #[token("int")]
    Int,
    #[token("interface")]
    Interface,
    #[token("internal")]
    Internal,
    #[token("is")]
    Is,
    #[token("lock")]
    Lock,
    #[token("long")]
    Long,
    #[token("namespace")]
    Namespace,
    #[token("new")]
    New,
    #[token("null")]
    Null,
    #[token("object")]
    Object,
    #[token("operator")]
    Operator,
    #[token("out")]
    Out,
    #[token("override")]
    Override,
    #[token("params")]
    Params,
    #[token("private")]
    Private,
    #[token("protected")]
    Protected,
    #[token("public")]
    Public,
    #[token("readonly")]
    Readonly,
    #[token("ref")]
    Ref,
    #[token("return")]
    Return,
    #[token("sbyte")]
    SByte,
    #[token("sealed")]
    Sealed,
    #[token("short")]
    Short,
    #[token("sizeof")]
    Sizeof,
    #[token("stackalloc")]
    Stackalloc,
    #[token("static")]
    Static,
    #[token("string")]
    String,
    #[token("struct")]
    Struct,
    #[token("switch")]
    Switch,
    #[token("this")]
    This,
    #[token("throw")]
    Throw,
    #[token("true")]
    True,
    #[token("try")]
    Try,
    #[token("typeof")]
    Typeof,
    #[token("uint")]
    UInt,
    #[token("ulong")]
    ULong,
    #[token("unchecked")]
    Unchecked,
    #[token("unsafe")]
    Unsafe,
    #[token("ushort")]
    UShort,
    #[token("using")]
    Using,
    #[token("virtual")]
    Virtual,
    #[token("void")]
    Void,
    #[token("volatile")]
    Volatile,
    #[token("while")]
    While,

    // --- punctuation -----------------------------------------------------------------------
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token(";")]
    Semi,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token("..")]
    DotDot,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token("?")]
    Question,
    #[token("??")]
    QuestionQuestion,
    #[token("??=")]
    QuestionQuestionEq,
    #[token("=>")]
    FatArrow,
    #[token("->")]
    Arrow,
    #[token("=")]
    Eq,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    /// Always a single `>`: `>>`, `>>=`, `>>>` are reassembled by the disambiguator so that
    /// `List<List<int>>` closes two type-argument lists.
    #[token(">")]
    Gt,
    #[token("<=")]
    LtEq,
    #[token(">=")]
    GtEq,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("!")]
    Bang,
    #[token("~")]
    Tilde,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("&&")]
    AmpAmp,
    #[token("||")]
    PipePipe,
    #[token("<<")]
    Shl,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
    #[token("<<=")]
    ShlEq,

    // --- produced by the disambiguator ------------------------------------------------------
    /// `>>` (two adjacent `>` that do not close type-argument lists).
    Shr,
    /// `>>>`.
    UShr,
    /// `>>=`.
    ShrEq,
    /// `>>>=`.
    UShrEq,
    /// `<` opening a type-argument or type-parameter list.
    GenericLt,
    /// `>` closing a type-argument or type-parameter list.
    GenericGt,
    /// `?` of a nullable type (`int?`).
    NullableQ,
    /// `?` of a null-conditional access (`a?.b`, `a?[i]`).
    CondAccess,
    /// `(` of a cast `(T)x`.
    LParenCast,
    /// `(` of a lambda parameter list (`(x, y) => ..`).
    LParenLambda,
    /// `(` of a tuple type (`(int, string) t`).
    LParenTupleType,
    /// `(` inside a pattern (parenthesized or positional pattern).
    LParenPattern,
    /// `[` opening an attribute section.
    LBracketAttr,
    /// `[` opening a global attribute section (`[assembly: ...]`).
    LBracketGlobalAttr,
    /// `[` of an array rank specifier (`int[]`, `T[,]`, `new[]`).
    LBracketRank,
    /// `[` of a list pattern.
    LBracketPattern,
    /// `[` of an index initializer (`{ [k] = v }`).
    LBracketIndexInit,
    /// `..` of a spread element in a collection expression.
    Spread,
    /// `..` of a slice pattern.
    Slice,
    /// `default` of a `default:` switch label.
    DefaultLabel,
    /// Contextual keywords acting as keywords.
    KwAsync,
    KwAsyncLambda,
    KwStaticLambda,
    KwAwait,
    KwYield,
    /// `var` of a deconstruction `var (a, b)`.
    KwVarDecon,
    KwRecord,
    KwWhere,
    KwWhen,
    KwAnd,
    KwOr,
    KwNot,
    KwWith,
    KwNameof,
    KwGlobal,
    KwPartial,
    KwRequired,
    KwFile,
    /// Query-expression keywords (`where` reuses `KwWhere`).
    KwFrom,
    KwSelect,
    KwOrderby,
    KwGroup,
    KwBy,
    KwInto,
    KwLet,
    KwJoin,
    KwOn,
    KwEquals,
    KwAscending,
    KwDescending,
    /// A synthetic `}` added at the end of input for each unclosed brace.
    EofBrace,
    /// Synthetic first token selecting the whole-file grammar.
    FileStart,
    /// Synthetic first token selecting the expression grammar.
    ExprStart,
}

/// A coarse class of token, for syntax highlighting in the REPL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenClass {
    Keyword,
    Identifier,
    Number,
    String,
    Char,
    Comment,
    Punctuation,
    Error,
}

impl Token {
    /// The highlighting class of this token kind.
    pub fn class(self) -> TokenClass {
        use Token::*;
        match self {
            LineComment | BlockComment | UnterminatedComment | Directive | Skipped => TokenClass::Comment,
            Error | Hash => TokenClass::Error,
            Ident => TokenClass::Identifier,
            IntLit | RealLit => TokenClass::Number,
            CharLit | CharQuote => TokenClass::Char,
            StringLit | InterpString | Quote | AtQuote | DollarQuote => TokenClass::String,
            t if t.is_keyword() => TokenClass::Keyword,
            _ => TokenClass::Punctuation,
        }
    }

    /// Reserved keywords and contextual keywords in keyword role.
    pub fn is_keyword(self) -> bool {
        let k = self as u16;
        (k >= Token::Abstract as u16 && k <= Token::While as u16) || (k >= Token::KwAsync as u16 && k <= Token::KwDescending as u16)
    }

    /// `int`, `string`, `object`... (`void` included).
    pub fn is_predefined_type(self) -> bool {
        use Token::*;
        matches!(self, Bool | Byte | SByte | Short | UShort | Int | UInt | Long | ULong | Char | Float | Double | Decimal | String | Object | Void)
    }

    /// Keywords that can be declaration modifiers (including the rewritten contextual ones).
    pub fn is_modifier(self) -> bool {
        use Token::*;
        matches!(
            self,
            Public
                | Private
                | Protected
                | Internal
                | Static
                | Readonly
                | Const
                | Virtual
                | Override
                | Abstract
                | Sealed
                | New
                | Extern
                | Volatile
                | Unsafe
                | KwAsync
                | KwPartial
                | KwRequired
                | KwFile
                | Ref
        )
    }

    /// Any literal token (for "can start an expression" checks).
    pub fn is_literal(self) -> bool {
        use Token::*;
        matches!(self, IntLit | RealLit | CharLit | StringLit | InterpString | True | False | Null)
    }

    /// Every form of `(`.
    pub fn is_lparen(self) -> bool {
        use Token::*;
        matches!(self, LParen | LParenCast | LParenLambda | LParenTupleType | LParenPattern)
    }

    /// Every form of `[`.
    pub fn is_lbracket(self) -> bool {
        use Token::*;
        matches!(self, LBracket | LBracketAttr | LBracketGlobalAttr | LBracketRank | LBracketPattern | LBracketIndexInit)
    }

    /// Tokens dropped before parsing.
    pub fn is_trivia(self) -> bool {
        matches!(self, Token::LineComment | Token::BlockComment | Token::UnterminatedComment | Token::Directive | Token::Skipped)
    }
}
