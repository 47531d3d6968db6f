//! Query conditions in TileDB-Py's `query(cond=...)` syntax: parsed into a
//! tree, bound to an array's schema (enumerations compared by label), and
//! evaluated on columns of cells; tiles whose min/max/null counts prove that
//! no cell matches can be skipped.
//!
//! The syntax is TileDB-Py's (`tiledb/query_condition.py`, a Python
//! expression): comparisons `< <= > >= == !=` with the field on either side,
//! chained comparisons (`1 < a < 5`), `in [..]` / `not in [..]`, `and`,
//! `or`, `not`, `&` and `|` (Python's precedence: tighter than comparisons,
//! so `(a > 1) & (b < 2)` needs its parentheses), `attr("name")`,
//! `dim("name")`, `val(..)`, string and bytes literals, and `== None` /
//! `!= None` for null tests. Beyond TileDB-Py: negative numbers inside
//! `in` lists and `val(..)`, `is None` / `is not None` (also `is null`),
//! and `in` on every numeric width.
//!
//! The meaning is the engine's (tiledb/sm/query/query_condition.cc,
//! `apply_ast_node_sparse`; tiledb/sm/query/ast/query_ast.cc):
//! - a null cell satisfies no comparison, not even `!=`, and no `in` or
//!   `not in`; only `== None` holds for it;
//! - `not` is pushed down to the leaves (`not (a < 5)` is `a >= 5`, De
//!   Morgan for `and`/`or`), so `not` of a comparison does not hold for
//!   null cells either;
//! - numbers compare by value as the field's datatype (NaN compares false,
//!   but `!=` holds for it; `-0.0 == 0.0`); `in`/`not in` compare the
//!   cells' bytes with the members' (so `-0.0` is not `in [0.0]`);
//! - strings compare bytewise, a prefix first; a fixed-size `CHAR` field
//!   compares only the first byte of the cell and of the value, as a signed
//!   char;
//! - fields of several values per cell (other than strings), var-sized
//!   fields other than strings, and blob/UTF-16/UTF-32 fields take null
//!   tests only;
//! - an enumerated attribute compares by label: the label becomes its
//!   index; a label the enumeration lacks makes `==` (and `<`..`>=`) match
//!   nothing and `!=` match every non-null cell, and is dropped from an
//!   `in`/`not in` list; `<`..`>=` need an ordered enumeration.

use std::collections::BTreeSet;

use crate::array::schema::{enumeration_values, read_enumeration_file};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{
    ArrayType, ConditionNode, Datatype, QueryConditionCombinationOp as CombOp,
    QueryConditionOp as EngineOp,
};
use crate::read::cells::{ArrayReader, Cells, Column};
use crate::read::condition;

/// How deep parentheses, `not` and signs may nest: hostile input cannot
/// overflow the stack of the recursive-descent parser.
pub const MAX_CONDITION_DEPTH: usize = 64;

/// A parsed condition (not yet bound to an array).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryCondition {
    text: String,
    tree: Node,
}

/// A condition bound to an array's schema: field datatypes resolved,
/// literals converted, enumeration labels turned into indexes.
#[derive(Debug, Clone)]
pub struct BoundCondition {
    text: String,
    fields: Vec<FieldInfo>,
    tree: Bound,
}

/// What a tile's metadata says about one field (any of it may be missing).
#[derive(Debug, Clone, Copy, Default)]
pub struct FieldTileStats<'a> {
    /// The tile's smallest value (of the field's datatype).
    pub min: Option<&'a [u8]>,
    /// The tile's largest value.
    pub max: Option<&'a [u8]>,
    /// How many cells of the tile are null.
    pub null_count: Option<u64>,
    /// How many cells the tile holds.
    pub cell_count: u64,
}

// ---------------------------------------------------------------------------
// Syntax tree
// ---------------------------------------------------------------------------

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Op {
    /// The operator with its sides swapped (`5 < a` is `a > 5`).
    fn swapped(self) -> Op {
        match self {
            Op::Lt => Op::Gt,
            Op::Le => Op::Ge,
            Op::Gt => Op::Lt,
            Op::Ge => Op::Le,
            op => op,
        }
    }

    /// The operator of the negated comparison (`negate_query_condition_op`).
    fn negated(self) -> Op {
        match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Ge => Op::Lt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Eq => "==",
            Op::Ne => "!=",
        }
    }
}

/// How a field was named: bare, `attr("..")` or `dim("..")`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FieldKind {
    Any,
    Attr,
    Dim,
}

#[derive(Debug, Clone, PartialEq)]
struct FieldRef {
    name: String,
    kind: FieldKind,
}

/// A literal value as written.
#[derive(Debug, Clone, PartialEq)]
enum Lit {
    Int(i128),
    Float(f64),
    Str(Vec<u8>),
    Bytes(Vec<u8>),
    Bool(bool),
    None,
}

impl std::fmt::Display for Lit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lit::Int(i) => write!(f, "{i}"),
            Lit::Float(x) => write!(f, "{x:?}"),
            Lit::Str(s) => write!(f, "{:?}", String::from_utf8_lossy(s)),
            Lit::Bytes(b) => write!(f, "b{:?}", String::from_utf8_lossy(b)),
            Lit::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Lit::None => write!(f, "None"),
        }
    }
}

/// A condition as parsed.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    And(Vec<Node>),
    Or(Vec<Node>),
    Not(Box<Node>),
    /// `field op value`; a `None` value is a null test (`==`/`!=` only).
    Cmp {
        field: FieldRef,
        op: Op,
        value: Lit,
    },
    /// `field in [..]` (`negated`: `not in`).
    Set {
        field: FieldRef,
        negated: bool,
        values: Vec<Lit>,
    },
}

impl Node {
    fn fields<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Node::And(k) | Node::Or(k) => k.iter().for_each(|c| c.fields(out)),
            Node::Not(c) => c.fields(out),
            Node::Cmp { field, .. } | Node::Set { field, .. } => {
                if !out.contains(&field.name.as_str()) {
                    out.push(&field.name);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Lit(Lit),
    Cmp(Op),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Amp,
    Pipe,
    Minus,
    Plus,
    End,
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "{s}"),
            Tok::Lit(l) => write!(f, "{l}"),
            Tok::Cmp(op) => write!(f, "{}", op.symbol()),
            Tok::LParen => write!(f, "("),
            Tok::RParen => write!(f, ")"),
            Tok::LBracket => write!(f, "["),
            Tok::RBracket => write!(f, "]"),
            Tok::Comma => write!(f, ","),
            Tok::Amp => write!(f, "&"),
            Tok::Pipe => write!(f, "|"),
            Tok::Minus => write!(f, "-"),
            Tok::Plus => write!(f, "+"),
            Tok::End => write!(f, "the end"),
        }
    }
}

/// A syntax error: where (byte offset) and what.
type SyntaxError = (usize, String);

/// Splits `text` into tokens with their byte offsets.
fn lex(text: &str) -> std::result::Result<Vec<(usize, Tok)>, SyntaxError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let two = b.get(i..i + 2).unwrap_or_default();
        let tok = match c {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b',' => Tok::Comma,
            b'&' => Tok::Amp,
            b'|' => Tok::Pipe,
            b'-' => Tok::Minus,
            b'+' => Tok::Plus,
            b'<' if two == b"<=" => Tok::Cmp(Op::Le),
            b'>' if two == b">=" => Tok::Cmp(Op::Ge),
            b'=' if two == b"==" => Tok::Cmp(Op::Eq),
            b'!' if two == b"!=" => Tok::Cmp(Op::Ne),
            b'<' => Tok::Cmp(Op::Lt),
            b'>' => Tok::Cmp(Op::Gt),
            b'=' => return Err((i, "= assigns in Python; compare with ==".into())),
            b'0'..=b'9' | b'.' => {
                let (tok, end) = lex_number(text, i)?;
                i = end;
                out.push((start, tok));
                continue;
            }
            b'"' | b'\'' => {
                let (s, end) = lex_string(text, i, false, false)?;
                i = end;
                out.push((start, Tok::Lit(Lit::Str(s))));
                continue;
            }
            _ => {
                // An identifier, or a string prefix (b, r, u, br, rb).
                let rest = &text[i..];
                let len: usize = rest
                    .char_indices()
                    .find(|(_, ch)| !(ch.is_alphanumeric() || *ch == '_'))
                    .map_or(rest.len(), |(k, _)| k);
                if len == 0 {
                    let ch = rest.chars().next().unwrap_or('?');
                    return Err((i, format!("unexpected character {ch:?}")));
                }
                let word = &rest[..len];
                let quote = b.get(i + len).is_some_and(|q| *q == b'"' || *q == b'\'');
                let prefix = word.to_ascii_lowercase();
                if quote && matches!(prefix.as_str(), "b" | "r" | "u" | "br" | "rb") {
                    let bytes = prefix.contains('b');
                    let raw = prefix.contains('r');
                    let (s, end) = lex_string(text, i + len, bytes, raw)?;
                    i = end;
                    let lit = if bytes { Lit::Bytes(s) } else { Lit::Str(s) };
                    out.push((start, Tok::Lit(lit)));
                    continue;
                }
                if word.chars().next().is_some_and(|ch| ch.is_numeric()) {
                    return Err((i, format!("{word} is not a name or a number")));
                }
                i += len;
                let tok = match word {
                    "None" => Tok::Lit(Lit::None),
                    "True" => Tok::Lit(Lit::Bool(true)),
                    "False" => Tok::Lit(Lit::Bool(false)),
                    _ => Tok::Ident(word.to_string()),
                };
                out.push((start, tok));
                continue;
            }
        };
        i += match tok {
            Tok::Cmp(Op::Le | Op::Ge | Op::Eq | Op::Ne) => 2,
            _ => 1,
        };
        out.push((start, tok));
    }
    out.push((b.len(), Tok::End));
    Ok(out)
}

/// A Python number at `at`: decimal, hexadecimal, octal or binary integers
/// (with `_` between digits) and decimal floats.
fn lex_number(text: &str, at: usize) -> std::result::Result<(Tok, usize), SyntaxError> {
    let b = text.as_bytes();
    let mut end = at;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b'.') {
        // An exponent's sign belongs to the number.
        if (b[end] == b'e' || b[end] == b'E')
            && !text[at..end].starts_with("0x")
            && !text[at..end].starts_with("0X")
            && matches!(b.get(end + 1), Some(b'+' | b'-'))
        {
            end += 1;
        }
        end += 1;
    }
    let word = &text[at..end];
    let bad = || (at, format!("{word} is not a number"));
    let clean: String = word.chars().filter(|c| *c != '_').collect();
    if word.starts_with('_') || word.ends_with('_') || word.contains("__") {
        return Err(bad());
    }
    let lower = clean.to_ascii_lowercase();
    let radix = match lower.get(..2) {
        Some("0x") => Some(16),
        Some("0o") => Some(8),
        Some("0b") => Some(2),
        _ => None,
    };
    if let Some(r) = radix {
        let v = i128::from_str_radix(&lower[2..], r).map_err(|_| bad())?;
        return Ok((Tok::Lit(Lit::Int(v)), end));
    }
    if lower.ends_with('j') {
        return Err((at, format!("{word} is a complex number")));
    }
    if lower.bytes().all(|c| c.is_ascii_digit()) {
        let v = lower
            .parse::<i128>()
            .map_err(|_| (at, format!("{word} is too large")))?;
        return Ok((Tok::Lit(Lit::Int(v)), end));
    }
    let is_float = lower
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'+' | b'-'))
        && lower.bytes().any(|c| c.is_ascii_digit());
    match lower.parse::<f64>() {
        Ok(v) if is_float => Ok((Tok::Lit(Lit::Float(v)), end)),
        _ => Err(bad()),
    }
}

/// A quoted string whose opening quote is at `at`; returns its bytes (UTF-8
/// for str literals) and where it ends.
fn lex_string(
    text: &str,
    at: usize,
    bytes: bool,
    raw: bool,
) -> std::result::Result<(Vec<u8>, usize), SyntaxError> {
    let b = text.as_bytes();
    let quote = b[at];
    let triple = b.get(at..at + 3) == Some(&[quote, quote, quote][..]);
    let open = if triple { 3 } else { 1 };
    let mut out = Vec::new();
    let mut chars = text[at + open..].char_indices().peekable();
    let pos = |k: usize| at + open + k;
    while let Some((k, ch)) = chars.next() {
        if ch as u32 == u32::from(quote)
            && (!triple || b.get(pos(k)..pos(k) + 3) == Some(&[quote, quote, quote][..]))
        {
            return Ok((out, pos(k) + open));
        }
        if ch == '\n' && !triple {
            return Err((pos(k), "a string runs past the end of the line".into()));
        }
        if bytes && !ch.is_ascii() {
            return Err((pos(k), "bytes literals hold ASCII characters only".into()));
        }
        if ch != '\\' || raw {
            if raw && ch == '\\' {
                // A raw string still cannot end in an odd backslash.
                out.push(b'\\');
                if let Some((_, next)) = chars.next() {
                    let mut buf = [0; 4];
                    out.extend_from_slice(next.encode_utf8(&mut buf).as_bytes());
                }
                continue;
            }
            let mut buf = [0; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let simple = match e {
            '\n' => Some(None),
            '\\' => Some(Some(b'\\')),
            '\'' => Some(Some(b'\'')),
            '"' => Some(Some(b'"')),
            'a' => Some(Some(7)),
            'b' => Some(Some(8)),
            'f' => Some(Some(12)),
            'n' => Some(Some(b'\n')),
            'r' => Some(Some(b'\r')),
            't' => Some(Some(b'\t')),
            'v' => Some(Some(11)),
            _ => None,
        };
        if let Some(v) = simple {
            out.extend(v);
            continue;
        }
        let mut hex = |n: usize| -> std::result::Result<u32, SyntaxError> {
            let mut v = 0u32;
            for _ in 0..n {
                let d = chars
                    .next()
                    .and_then(|(_, c)| c.to_digit(16))
                    .ok_or((pos(k), format!("\\{e} needs {n} hexadecimal digits")))?;
                v = v * 16 + d;
            }
            Ok(v)
        };
        let code = match e {
            'x' => {
                let v = hex(2)?;
                if bytes {
                    out.push(v as u8);
                    continue;
                }
                v
            }
            'u' if !bytes => hex(4)?,
            'U' if !bytes => hex(8)?,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|(_, c)| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                if bytes {
                    out.push((v & 0xff) as u8);
                    continue;
                }
                v
            }
            other => {
                // Python keeps an unknown escape as written.
                out.push(b'\\');
                let mut buf = [0; 4];
                out.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
                continue;
            }
        };
        let ch = char::from_u32(code)
            .ok_or((pos(k), format!("\\{e} names no character ({code:#x})")))?;
        let mut buf = [0; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }
    Err((at, "a string is not closed".into()))
}

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

/// What an expression is while it is parsed: a condition or an operand.
#[derive(Debug)]
enum Expr {
    Cond(Node),
    Field(FieldRef),
    Value(Lit),
    List(Vec<Lit>),
}

impl Expr {
    fn describe(&self) -> String {
        match self {
            Expr::Cond(_) => "a condition".into(),
            Expr::Field(f) => format!("the field {}", f.name),
            Expr::Value(v) => format!("the value {v}"),
            Expr::List(_) => "a list".into(),
        }
    }
}

struct Parser {
    toks: Vec<(usize, Tok)>,
    at: usize,
    depth: usize,
}

type PResult<T> = std::result::Result<T, SyntaxError>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at.min(self.toks.len() - 1)].1
    }

    fn peek2(&self) -> &Tok {
        &self.toks[(self.at + 1).min(self.toks.len() - 1)].1
    }

    fn pos(&self) -> usize {
        self.toks[self.at.min(self.toks.len() - 1)].0
    }

    fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        self.at += 1;
        t
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    fn expect(&mut self, t: Tok) -> PResult<()> {
        if *self.peek() == t {
            self.next();
            Ok(())
        } else {
            Err((self.pos(), format!("expected {t}, found {}", self.peek())))
        }
    }

    fn deeper(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_CONDITION_DEPTH {
            return Err((
                self.pos(),
                format!("nested more than {MAX_CONDITION_DEPTH} deep"),
            ));
        }
        Ok(())
    }

    fn cond(&self, e: Expr, at: usize, what: &str) -> PResult<Node> {
        let hint = if matches!(what, "&" | "|") {
            " (& and | bind tighter than comparisons, as in Python: \
             parenthesize the comparisons, (a > 1) & (b < 2))"
        } else {
            ""
        };
        match e {
            Expr::Cond(n) => Ok(n),
            other => Err((
                at,
                format!("{what} needs a condition, not {}{hint}", other.describe()),
            )),
        }
    }

    /// `or` (Python's lowest precedence).
    fn or(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.and()?;
        if !self.is_word("or") {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "or")?];
        while self.is_word("or") {
            self.next();
            let at = self.pos();
            let e = self.and()?;
            kids.push(self.cond(e, at, "or")?);
        }
        Ok(Expr::Cond(Node::Or(kids)))
    }

    fn and(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.not()?;
        if !self.is_word("and") {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "and")?];
        while self.is_word("and") {
            self.next();
            let at = self.pos();
            let e = self.not()?;
            kids.push(self.cond(e, at, "and")?);
        }
        Ok(Expr::Cond(Node::And(kids)))
    }

    fn not(&mut self) -> PResult<Expr> {
        if !self.is_word("not") {
            return self.comparison();
        }
        self.next();
        self.deeper()?;
        let at = self.pos();
        let e = self.not()?;
        self.depth -= 1;
        Ok(Expr::Cond(Node::Not(Box::new(self.cond(e, at, "not")?))))
    }

    /// A comparison, possibly chained (`1 < a < 5`), a membership test or
    /// a null test; or a lone operand.
    fn comparison(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.bitor()?;
        // Membership and null tests.
        let negated_in = self.is_word("not") && matches!(self.peek2(), Tok::Ident(w) if w == "in");
        if self.is_word("in") || negated_in {
            let op_at = self.pos();
            self.next();
            if negated_in {
                self.next();
            }
            let field = self.field_of(first, at, if negated_in { "not in" } else { "in" })?;
            let list_at = self.pos();
            let values = match self.bitor()? {
                Expr::List(v) => v,
                other => {
                    return Err((
                        list_at,
                        format!("`in` takes a list such as [1, 2], not {}", other.describe()),
                    ))
                }
            };
            if values.is_empty() {
                return Err((list_at, "`in` needs at least one value".into()));
            }
            if let Some(v) = values.iter().find(|v| **v == Lit::None) {
                return Err((list_at, format!("`in` cannot hold {v}")));
            }
            self.no_chain(op_at)?;
            return Ok(Expr::Cond(Node::Set {
                field,
                negated: negated_in,
                values,
            }));
        }
        if self.is_word("is") {
            let op_at = self.pos();
            self.next();
            let negated = self.is_word("not");
            if negated {
                self.next();
            }
            let null = matches!(self.peek(), Tok::Lit(Lit::None))
                || self.is_word("null")
                || self.is_word("NULL");
            if !null {
                return Err((self.pos(), format!("`is` takes None, not {}", self.peek())));
            }
            self.next();
            let field = self.field_of(first, at, "is")?;
            self.no_chain(op_at)?;
            return Ok(Expr::Cond(Node::Cmp {
                field,
                op: if negated { Op::Ne } else { Op::Eq },
                value: Lit::None,
            }));
        }
        let Tok::Cmp(_) = self.peek() else {
            return Ok(first);
        };
        // Chained comparisons: each neighbouring pair, all of them true.
        let mut left = (at, first);
        let mut pairs = Vec::new();
        while let Tok::Cmp(op) = *self.peek() {
            self.next();
            let at = self.pos();
            let right = self.bitor()?;
            let node = self.pair(&left, op, (at, &right))?;
            pairs.push(node);
            left = (at, right);
        }
        if self.is_word("in")
            || self.is_word("is")
            || (self.is_word("not") && !self.at_end_of_not())
        {
            return Err((
                self.pos(),
                "`in` and `is` do not chain with other comparisons: use `and`".into(),
            ));
        }
        Ok(Expr::Cond(if pairs.len() == 1 {
            pairs.remove(0)
        } else {
            Node::And(pairs)
        }))
    }

    /// Whether a `not` here starts something other than `not in` (always an
    /// error after a comparison, reported by the caller as unexpected).
    fn at_end_of_not(&self) -> bool {
        !matches!(self.peek2(), Tok::Ident(w) if w == "in")
    }

    fn no_chain(&self, op_at: usize) -> PResult<()> {
        if matches!(self.peek(), Tok::Cmp(_)) || self.is_word("in") || self.is_word("is") {
            return Err((
                op_at,
                "`in` and `is` do not chain with other comparisons: use `and`".into(),
            ));
        }
        Ok(())
    }

    fn field_of(&self, e: Expr, at: usize, op: &str) -> PResult<FieldRef> {
        match e {
            Expr::Field(f) => Ok(f),
            other => Err((
                at,
                format!("`{op}` needs a field on its left, not {}", other.describe()),
            )),
        }
    }

    /// One comparison of a chain: a field and a value, either way round.
    fn pair(&self, left: &(usize, Expr), op: Op, right: (usize, &Expr)) -> PResult<Node> {
        let (field, op, value) = match (&left.1, right.1) {
            (Expr::Field(f), Expr::Value(v)) => (f.clone(), op, v.clone()),
            (Expr::Value(v), Expr::Field(f)) => (f.clone(), op.swapped(), v.clone()),
            (Expr::Field(a), Expr::Field(b)) => {
                return Err((
                    right.0,
                    format!(
                        "{} {} {} compares two fields; one side must be a value \
                         (quote {} if it is a string)",
                        a.name,
                        op.symbol(),
                        b.name,
                        b.name
                    ),
                ))
            }
            (Expr::Value(a), Expr::Value(b)) => {
                return Err((
                    left.0,
                    format!(
                        "{a} {} {b} compares two values; one side must be a field",
                        op.symbol()
                    ),
                ))
            }
            (l, r) => {
                let (at, bad) = if matches!(l, Expr::Field(_) | Expr::Value(_)) {
                    (right.0, r)
                } else {
                    (left.0, l)
                };
                return Err((
                    at,
                    format!(
                        "{} compares a field with a value, not {} (& and | bind \
                         tighter than comparisons: parenthesize the comparisons)",
                        op.symbol(),
                        bad.describe()
                    ),
                ));
            }
        };
        if value == Lit::None && !matches!(op, Op::Eq | Op::Ne) {
            return Err((
                right.0,
                format!("None compares with == and != only, not {}", op.symbol()),
            ));
        }
        Ok(Node::Cmp { field, op, value })
    }

    /// `|` of conditions (Python's bitwise or: tighter than comparisons).
    fn bitor(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.bitand()?;
        if *self.peek() != Tok::Pipe {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "|")?];
        while *self.peek() == Tok::Pipe {
            self.next();
            let at = self.pos();
            let e = self.bitand()?;
            kids.push(self.cond(e, at, "|")?);
        }
        Ok(Expr::Cond(Node::Or(kids)))
    }

    fn bitand(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.unary()?;
        if *self.peek() != Tok::Amp {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "&")?];
        while *self.peek() == Tok::Amp {
            self.next();
            let at = self.pos();
            let e = self.unary()?;
            kids.push(self.cond(e, at, "&")?);
        }
        Ok(Expr::Cond(Node::And(kids)))
    }

    /// A sign before a number.
    fn unary(&mut self) -> PResult<Expr> {
        let negative = match self.peek() {
            Tok::Minus => true,
            Tok::Plus => false,
            _ => return self.atom(),
        };
        let at = self.pos();
        self.next();
        self.deeper()?;
        let e = self.unary()?;
        self.depth -= 1;
        match e {
            Expr::Value(v) => Ok(Expr::Value(signed(v, negative, at)?)),
            other => Err((
                at,
                format!("a sign goes before a number, not {}", other.describe()),
            )),
        }
    }

    fn atom(&mut self) -> PResult<Expr> {
        let at = self.pos();
        match self.next() {
            Tok::LParen => {
                self.deeper()?;
                let e = self.or()?;
                self.depth -= 1;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::LBracket => {
                self.deeper()?;
                let mut values = Vec::new();
                while *self.peek() != Tok::RBracket {
                    let vat = self.pos();
                    match self.unary()? {
                        Expr::Value(v) => values.push(v),
                        other => {
                            return Err((
                                vat,
                                format!("a list holds values, not {}", other.describe()),
                            ))
                        }
                    }
                    if *self.peek() == Tok::Comma {
                        self.next();
                    } else if *self.peek() != Tok::RBracket {
                        return Err((
                            self.pos(),
                            format!("expected , or ] in a list, found {}", self.peek()),
                        ));
                    }
                }
                self.next();
                self.depth -= 1;
                Ok(Expr::List(values))
            }
            Tok::Lit(l) => Ok(Expr::Value(l)),
            Tok::Ident(name) if *self.peek() == Tok::LParen => self.call(name, at),
            Tok::Ident(name) => {
                if matches!(name.as_str(), "and" | "or" | "not" | "in" | "is") {
                    return Err((at, format!("expected a field or a value, found {name}")));
                }
                Ok(Expr::Field(FieldRef {
                    name,
                    kind: FieldKind::Any,
                }))
            }
            t => Err((at, format!("expected a field or a value, found {t}"))),
        }
    }

    /// `attr("name")`, `dim("name")`, `val(value)`.
    fn call(&mut self, name: String, at: usize) -> PResult<Expr> {
        self.expect(Tok::LParen)?;
        self.deeper()?;
        let arg_at = self.pos();
        let arg = self.unary()?;
        self.depth -= 1;
        self.expect(Tok::RParen)?;
        let kind = match name.as_str() {
            "val" => {
                return match arg {
                    Expr::Value(v) => Ok(Expr::Value(v)),
                    other => Err((
                        arg_at,
                        format!("val() takes a value, not {}", other.describe()),
                    )),
                }
            }
            "attr" => FieldKind::Attr,
            "dim" => FieldKind::Dim,
            _ => return Err((at, format!("unknown function {name} (attr, dim or val)"))),
        };
        match arg {
            Expr::Value(Lit::Str(s)) => Ok(Expr::Field(FieldRef {
                name: String::from_utf8_lossy(&s).into_owned(),
                kind,
            })),
            other => Err((
                arg_at,
                format!("{name}() takes a quoted name, not {}", other.describe()),
            )),
        }
    }
}

/// `-v` / `+v` of a number.
fn signed(v: Lit, negative: bool, at: usize) -> PResult<Lit> {
    match v {
        Lit::Int(i) if negative => Ok(Lit::Int(-i)),
        Lit::Float(f) if negative => Ok(Lit::Float(-f)),
        Lit::Bool(b) if negative => Ok(Lit::Int(-i128::from(b))),
        Lit::Int(_) | Lit::Float(_) | Lit::Bool(_) => Ok(v),
        other => Err((at, format!("a sign goes before a number, not {other}"))),
    }
}

impl QueryCondition {
    /// Parses `text`, e.g. `a > 5 and (b == "x" or c in [1, 2])`.
    pub fn parse(text: &str) -> Result<Self> {
        let err = |(at, what): SyntaxError| Error::Condition {
            text: text.to_string(),
            what: format!("at byte {at}: {what}"),
        };
        let toks = lex(text).map_err(err)?;
        let mut p = Parser {
            toks,
            at: 0,
            depth: 0,
        };
        if *p.peek() == Tok::End {
            return Err(err((0, "the condition is empty".into())));
        }
        let e = p.or().map_err(err)?;
        if *p.peek() != Tok::End {
            return Err(err((p.pos(), format!("unexpected {}", p.peek()))));
        }
        let tree = p.cond(e, 0, "a query").map_err(err)?;
        Ok(QueryCondition {
            text: text.to_string(),
            tree,
        })
    }

    /// The text the condition was parsed from.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The names of the fields the condition reads.
    pub fn field_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.tree.fields(&mut out);
        out.into_iter().map(str::to_string).collect()
    }

    /// The fields the condition tests for null (`== None`, `is None`,
    /// `!= None`, ...), each once.
    pub fn null_tested_fields(&self) -> Vec<String> {
        fn walk(n: &Node, out: &mut Vec<String>) {
            match n {
                Node::And(k) | Node::Or(k) => k.iter().for_each(|c| walk(c, out)),
                Node::Not(c) => walk(c, out),
                Node::Cmp {
                    field,
                    value: Lit::None,
                    ..
                } => {
                    if !out.contains(&field.name) {
                        out.push(field.name.clone());
                    }
                }
                Node::Cmp { .. } | Node::Set { .. } => {}
            }
        }
        let mut out = Vec::new();
        walk(&self.tree, &mut out);
        out
    }

    /// Binds the condition to the array `reader` opened (its newest schema).
    pub fn bind(&self, reader: &ArrayReader) -> Result<BoundCondition> {
        let mut b = Binder {
            reader,
            text: &self.text,
            fields: Vec::new(),
        };
        let tree = b.node(&self.tree, false)?;
        Ok(BoundCondition {
            text: self.text.clone(),
            fields: b.fields,
            tree,
        })
    }

    /// The condition tree as the engine builds it from this text for the
    /// array `reader` opened (its latest schema), before any negation: what
    /// a delete serializes, negated ([`crate::read::condition::negated`]).
    ///
    /// Built as TileDB-Py builds it (`tiledb/query_condition.py`: values
    /// cast to the field's datatype, an enumerated attribute's labels to
    /// its enumeration's; `and`/`&` and `or`/`|` combined left to right,
    /// `not` negating its operand), combined as the engine combines
    /// (`ASTNode::combine`: children of a node of the same op are taken
    /// over), rewritten as the engine rewrites it for the schema
    /// (`ASTNodeVal::rewrite_for_schema`: a null test of a field that
    /// cannot be null becomes `ALWAYS_FALSE` (`==`) or `ALWAYS_TRUE`
    /// (`!=`); an enumerated attribute's label becomes its index, a label
    /// the enumeration lacks `ALWAYS_TRUE` (`!=`) or `ALWAYS_FALSE`, and is
    /// dropped from a set) and checked as the engine checks it
    /// (`check_node_validity`).
    pub fn engine_tree(&self, reader: &ArrayReader) -> Result<ConditionNode> {
        let mut b = Binder {
            reader,
            text: &self.text,
            fields: Vec::new(),
        };
        b.engine(&self.tree, false)
    }
}

// ---------------------------------------------------------------------------
// The engine's tree (what a delete serializes)
// ---------------------------------------------------------------------------

impl Binder<'_> {
    /// The engine's tree of `node`, negated when `negate` (TileDB-Py's
    /// `not` negates the tree built so far, before the rewrite for the
    /// schema; negation keeps a tree's shape, so it is pushed down here).
    fn engine(&mut self, node: &Node, negate: bool) -> Result<ConditionNode> {
        Ok(match node {
            Node::And(kids) | Node::Or(kids) => {
                let op = if matches!(node, Node::And(_)) != negate {
                    CombOp::And
                } else {
                    CombOp::Or
                };
                let mut acc: Option<ConditionNode> = None;
                for k in kids {
                    let k = self.engine(k, negate)?;
                    acc = Some(match acc {
                        None => k,
                        Some(a) => condition::combine(a, k, op),
                    });
                }
                acc.ok_or_else(|| self.err("an empty combination".into()))?
            }
            Node::Not(k) => self.engine(k, !negate)?,
            Node::Cmp { field, op, value } => {
                let op = if negate { op.negated() } else { *op };
                self.engine_cmp(field, op, value)?
            }
            Node::Set {
                field,
                negated,
                values,
            } => self.engine_set(field, *negated != negate, values)?,
        })
    }

    fn engine_cmp(&mut self, f: &FieldRef, op: Op, value: &Lit) -> Result<ConditionNode> {
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        let name = field.name.as_bytes();
        let eop = engine_op(op);
        if *value == Lit::None {
            let op = if field.nullable {
                eop
            } else if op == Op::Eq {
                EngineOp::AlwaysFalse
            } else {
                EngineOp::AlwaysTrue
            };
            return Ok(condition::value_node(op, name, Vec::new(), None));
        }
        if let Some(labels) = self.labels(&field)? {
            if !labels.ordered && !matches!(op, Op::Eq | Op::Ne) {
                return Err(self.err(format!(
                    "{} has an unordered enumeration: compare it with == or != only, not {}",
                    field.name,
                    op.symbol()
                )));
            }
            let label = self.label_bytes(&field, &labels, value)?;
            return Ok(match labels.values.iter().position(|l| *l == label) {
                Some(idx) => {
                    let v = self.index_value(&field, idx)?.to_bytes();
                    condition::value_node(eop, name, v, None)
                }
                None => {
                    let op = if op == Op::Ne {
                        EngineOp::AlwaysTrue
                    } else {
                        EngineOp::AlwaysFalse
                    };
                    let zero = vec![0u8; field.datatype.size() as usize];
                    condition::value_node(op, name, zero, None)
                }
            });
        }
        self.check_comparable(&field)?;
        let v = convert(&field, value).map_err(|w| self.err(w))?;
        Ok(condition::value_node(eop, name, v.to_bytes(), None))
    }

    fn engine_set(&mut self, f: &FieldRef, negated: bool, values: &[Lit]) -> Result<ConditionNode> {
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        let mut members: Vec<Vec<u8>> = Vec::new();
        if let Some(labels) = self.labels(&field)? {
            // The engine keeps the indexes of the labels it knows, each once
            // (in an order of its own: its members are a hash set).
            for v in values {
                let label = self.label_bytes(&field, &labels, v)?;
                if let Some(idx) = labels.values.iter().position(|l| *l == label) {
                    let m = self.index_value(&field, idx)?.to_bytes();
                    if !members.contains(&m) {
                        members.push(m);
                    }
                }
            }
        } else {
            self.check_comparable(&field)?;
            for v in values {
                let m = convert(&field, v).map_err(|w| self.err(w))?.to_bytes();
                if let Some(size) = field.cell_val_num.map(|_| field.cell_size()) {
                    if m.len() as u64 != size {
                        return Err(self.err(format!(
                            "{} holds cells of {size} bytes; {v} has {}",
                            field.name,
                            m.len()
                        )));
                    }
                }
                members.push(m);
            }
        }
        let mut offsets = Vec::with_capacity(members.len());
        let mut data = Vec::new();
        for m in &members {
            offsets.push(data.len() as u64);
            data.extend_from_slice(m);
        }
        let op = if negated {
            EngineOp::NotIn
        } else {
            EngineOp::In
        };
        Ok(condition::value_node(
            op,
            field.name.as_bytes(),
            data,
            Some(&offsets),
        ))
    }
}

/// The engine's code of a comparison.
fn engine_op(op: Op) -> EngineOp {
    match op {
        Op::Lt => EngineOp::Lt,
        Op::Le => EngineOp::Le,
        Op::Gt => EngineOp::Gt,
        Op::Ge => EngineOp::Ge,
        Op::Eq => EngineOp::Eq,
        Op::Ne => EngineOp::Ne,
    }
}

// ---------------------------------------------------------------------------
// Binding
// ---------------------------------------------------------------------------

/// A value converted to a field's datatype, compared as the engine does.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F32(f32),
    F64(f64),
    /// Strings: bytewise, a prefix first.
    Bytes(Vec<u8>),
    /// A fixed-size CHAR field: the first byte only, as a signed char
    /// (`apply_ast_node_sparse<char>`).
    Char(i8),
}

impl Value {
    /// The bytes of the value as a cell holds it (set members).
    fn to_bytes(&self) -> Vec<u8> {
        match self {
            Value::I8(v) => v.to_le_bytes().to_vec(),
            Value::U8(v) => v.to_le_bytes().to_vec(),
            Value::I16(v) => v.to_le_bytes().to_vec(),
            Value::U16(v) => v.to_le_bytes().to_vec(),
            Value::I32(v) => v.to_le_bytes().to_vec(),
            Value::U32(v) => v.to_le_bytes().to_vec(),
            Value::I64(v) => v.to_le_bytes().to_vec(),
            Value::U64(v) => v.to_le_bytes().to_vec(),
            Value::F32(v) => v.to_le_bytes().to_vec(),
            Value::F64(v) => v.to_le_bytes().to_vec(),
            Value::Bytes(b) => b.clone(),
            Value::Char(c) => c.to_le_bytes().to_vec(),
        }
    }
}

/// A bound condition: negation pushed to the leaves, fields by index.
#[derive(Debug, Clone, PartialEq)]
enum Bound {
    And(Vec<Bound>),
    Or(Vec<Bound>),
    /// Holds for every cell, or for none.
    Const(bool),
    /// Holds for the non-null cells of the field (`!=` a label the
    /// enumeration lacks).
    Valid(usize),
    /// `is None` (`is_null`) or `is not None` of a nullable field.
    Null {
        field: usize,
        is_null: bool,
    },
    Cmp {
        field: usize,
        op: Op,
        value: Value,
    },
    /// Cell bytes among (or, `negated`, not among) the members, sorted.
    Set {
        field: usize,
        negated: bool,
        members: Vec<Vec<u8>>,
    },
}

struct Binder<'a> {
    reader: &'a ArrayReader,
    text: &'a str,
    fields: Vec<FieldInfo>,
}

/// An enumeration's labels (as bytes) and order.
struct Labels {
    datatype: Datatype,
    var: bool,
    ordered: bool,
    values: Vec<Vec<u8>>,
}

impl Binder<'_> {
    fn err(&self, what: String) -> Error {
        Error::Condition {
            text: self.text.to_string(),
            what,
        }
    }

    /// The index of `field` in the bound fields, resolving it first.
    fn field(&mut self, f: &FieldRef) -> Result<usize> {
        if let Some(i) = self.fields.iter().position(|x| x.name == f.name) {
            return self.check_kind(i, f).map(|_| i);
        }
        let schema = &self.reader.schema;
        let info = FieldInfo::lookup(schema, &f.name).ok_or_else(|| {
            let exists = schema
                .attributes
                .iter()
                .map(|a| &a.name)
                .chain(schema.domain.dimensions.iter().map(|d| &d.name))
                .any(|n| n == f.name.as_bytes());
            self.err(if exists {
                format!("field {} has a datatype this crate does not know", f.name)
            } else {
                format!("unknown field {}", f.name)
            })
        })?;
        if info.is_dimension && schema.array_type == ArrayType::Dense.value() {
            // TileDB-Py refuses these (`get_variable_from_node`).
            return Err(self.err(format!(
                "{} is a dimension of a dense array; conditions on dimensions need a sparse array",
                f.name
            )));
        }
        self.fields.push(info);
        let i = self.fields.len() - 1;
        self.check_kind(i, f)?;
        Ok(i)
    }

    fn check_kind(&self, i: usize, f: &FieldRef) -> Result<()> {
        let dim = self.fields[i].is_dimension;
        match f.kind {
            FieldKind::Attr if dim => Err(self.err(format!(
                "attr(\"{}\"): {} is a dimension, not an attribute",
                f.name, f.name
            ))),
            FieldKind::Dim if !dim => Err(self.err(format!(
                "dim(\"{}\"): {} is an attribute, not a dimension",
                f.name, f.name
            ))),
            _ => Ok(()),
        }
    }

    /// The enumeration of attribute `field`, if it has one.
    fn labels(&self, field: &FieldInfo) -> Result<Option<Labels>> {
        if field.is_dimension {
            return Ok(None);
        }
        let schema = &self.reader.schema;
        let Some(attr) = schema
            .attributes
            .iter()
            .find(|a| a.name == field.name.as_bytes())
        else {
            return Ok(None);
        };
        let Some(name) = attr.enumeration_name.as_ref().filter(|n| !n.is_empty()) else {
            return Ok(None);
        };
        let entry = schema
            .enumerations
            .iter()
            .flatten()
            .find(|e| e.name == *name)
            .ok_or_else(|| {
                self.err(format!(
                    "{} names enumeration {:?}, which the schema lacks",
                    field.name,
                    String::from_utf8_lossy(name)
                ))
            })?;
        let file_name = String::from_utf8_lossy(&entry.filename).into_owned();
        let path = self
            .reader
            .dir
            .enumerations
            .iter()
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy() == file_name)
            })
            .ok_or_else(|| {
                self.err(format!(
                    "the enumeration file {file_name} of {} is missing",
                    field.name
                ))
            })?;
        let e = read_enumeration_file(&self.reader.dir.storage.open(path)?, self.reader.options())?;
        let values = enumeration_values(&e, path)?
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect();
        let datatype = Datatype::from_value(e.datatype).ok_or_else(|| {
            self.err(format!(
                "the enumeration of {} has datatype {}, which this crate does not know",
                field.name, e.datatype
            ))
        })?;
        Ok(Some(Labels {
            datatype,
            var: e.cell_val_num == u32::MAX,
            ordered: e.ordered != 0,
            values,
        }))
    }

    /// Binds `node`, negated when `negate` (pushed to the leaves).
    fn node(&mut self, node: &Node, negate: bool) -> Result<Bound> {
        Ok(match node {
            Node::And(kids) | Node::Or(kids) => {
                let kids = kids
                    .iter()
                    .map(|k| self.node(k, negate))
                    .collect::<Result<Vec<_>>>()?;
                if matches!(node, Node::And(_)) != negate {
                    Bound::And(kids)
                } else {
                    Bound::Or(kids)
                }
            }
            Node::Not(k) => self.node(k, !negate)?,
            Node::Cmp { field, op, value } => {
                let op = if negate { op.negated() } else { *op };
                self.cmp(field, op, value)?
            }
            Node::Set {
                field,
                negated,
                values,
            } => self.set(field, *negated != negate, values)?,
        })
    }

    fn cmp(&mut self, f: &FieldRef, op: Op, value: &Lit) -> Result<Bound> {
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        if *value == Lit::None {
            // `rewrite_for_schema`: a null test of a field that cannot be
            // null holds always (`!=`) or never (`==`).
            return Ok(if field.nullable {
                Bound::Null {
                    field: i,
                    is_null: op == Op::Eq,
                }
            } else {
                Bound::Const(op == Op::Ne)
            });
        }
        if let Some(labels) = self.labels(&field)? {
            if !labels.ordered && !matches!(op, Op::Eq | Op::Ne) {
                return Err(self.err(format!(
                    "{} has an unordered enumeration: compare it with == or != only, not {}",
                    field.name,
                    op.symbol()
                )));
            }
            let label = self.label_bytes(&field, &labels, value)?;
            return Ok(match labels.values.iter().position(|l| *l == label) {
                Some(idx) => Bound::Cmp {
                    field: i,
                    op,
                    value: self.index_value(&field, idx)?,
                },
                // A label the enumeration lacks: ALWAYS_TRUE for `!=`
                // (still false for null cells), else ALWAYS_FALSE.
                None if op == Op::Ne => Bound::Valid(i),
                None => Bound::Const(false),
            });
        }
        self.check_comparable(&field)?;
        let mut v = convert(&field, value).map_err(|w| self.err(w))?;
        if field.datatype == Datatype::Char && field.cell_val_num.is_some() {
            // The engine reads one `char` of the value; an empty value is
            // its terminating NUL.
            let first = v.to_bytes().first().copied().unwrap_or(0);
            v = Value::Char(first as i8);
        }
        Ok(Bound::Cmp {
            field: i,
            op,
            value: v,
        })
    }

    fn set(&mut self, f: &FieldRef, negated: bool, values: &[Lit]) -> Result<Bound> {
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        let mut members = BTreeSet::new();
        if let Some(labels) = self.labels(&field)? {
            for v in values {
                let label = self.label_bytes(&field, &labels, v)?;
                // Labels the enumeration lacks are dropped.
                if let Some(idx) = labels.values.iter().position(|l| *l == label) {
                    members.insert(self.index_value(&field, idx)?.to_bytes());
                }
            }
        } else {
            self.check_comparable(&field)?;
            for v in values {
                let m = convert(&field, v).map_err(|w| self.err(w))?.to_bytes();
                if let Some(size) = field.cell_val_num.map(|_| field.cell_size()) {
                    if m.len() as u64 != size {
                        // `check_node_validity`: set members of a
                        // fixed-size field have its cell size.
                        return Err(self.err(format!(
                            "{} holds cells of {size} bytes; {v} has {}",
                            field.name,
                            m.len()
                        )));
                    }
                }
                members.insert(m);
            }
        }
        Ok(Bound::Set {
            field: i,
            negated,
            members: members.into_iter().collect(),
        })
    }

    /// Refuses fields the engine compares with nothing but null tests.
    fn check_comparable(&self, field: &FieldInfo) -> Result<()> {
        let dt = field.datatype;
        let string = matches!(
            dt,
            Datatype::Char | Datatype::StringAscii | Datatype::StringUtf8
        );
        if !string && numeric_width(dt).is_none() {
            return Err(self.err(format!(
                "{} is a {} field; conditions compare numbers, datetimes and \
                 CHAR/ASCII/UTF-8 strings only (null tests work on any field)",
                field.name,
                datatype_name(dt)
            )));
        }
        match field.cell_val_num {
            None if !string => Err(self.err(format!(
                "{} is a var-sized {} field; only strings may be var-sized in a condition",
                field.name,
                datatype_name(dt)
            ))),
            Some(n) if n != 1 && !string => Err(self.err(format!(
                "{} holds {n} values per cell; a condition compares fields of one value per cell",
                field.name
            ))),
            _ => Ok(()),
        }
    }

    /// A label literal as the bytes of the enumeration's values.
    fn label_bytes(&self, field: &FieldInfo, labels: &Labels, v: &Lit) -> Result<Vec<u8>> {
        let as_field = FieldInfo {
            name: field.name.clone(),
            datatype: labels.datatype,
            cell_val_num: if labels.var { None } else { Some(1) },
            ..field.clone()
        };
        convert(&as_field, v)
            .map(|v| v.to_bytes())
            .map_err(|w| self.err(format!("{w} (its enumeration's labels)")))
    }

    /// Enumeration index `idx` as a value of the attribute's datatype.
    fn index_value(&self, field: &FieldInfo, idx: usize) -> Result<Value> {
        convert(field, &Lit::Int(idx as i128)).map_err(|w| self.err(w))
    }
}

/// Bytes of one value of the numeric datatypes (datetimes included).
fn numeric_width(dt: Datatype) -> Option<usize> {
    use Datatype::*;
    Some(match dt {
        Int8 | Uint8 | Bool => 1,
        Int16 | Uint16 => 2,
        Int32 | Uint32 | Float32 => 4,
        Int64 | Uint64 | Float64 => 8,
        _ if is_time(dt) => 8,
        _ => return None,
    })
}

fn is_time(dt: Datatype) -> bool {
    let v = dt.value();
    // DATETIME_YEAR (18) to DATETIME_AS (30), TIME_HR (31) to TIME_AS (39).
    (18..=39).contains(&v)
}

fn datatype_name(dt: Datatype) -> &'static str {
    dt.name()
}

/// Converts a literal to `field`'s datatype (TileDB-Py's
/// `cast_value_to_dtype`, but refusing what it would silently change: a
/// fraction for an integer field, a number out of the field's range).
fn convert(field: &FieldInfo, v: &Lit) -> std::result::Result<Value, String> {
    let dt = field.datatype;
    let name = &field.name;
    let kind = datatype_name(dt);
    if matches!(
        dt,
        Datatype::Char | Datatype::StringAscii | Datatype::StringUtf8
    ) {
        return match v {
            Lit::Str(s) | Lit::Bytes(s) => Ok(Value::Bytes(s.clone())),
            other => Err(format!("{name} is a string field; {other} is not a string")),
        };
    }
    let number: f64;
    let int: Option<i128> = match v {
        Lit::Int(i) => {
            number = *i as f64;
            Some(*i)
        }
        Lit::Bool(b) => {
            number = f64::from(u8::from(*b));
            Some(i128::from(*b))
        }
        Lit::Float(f) => {
            number = *f;
            (f.is_finite() && f.fract() == 0.0 && f.abs() < 1e38).then_some(*f as i128)
        }
        Lit::Str(_) | Lit::Bytes(_) => {
            return Err(format!(
                "{name} is a {kind} field; {v} is a string, not a number"
            ))
        }
        Lit::None => return Err(format!("{name}: None is not a value")),
    };
    let whole =
        || int.ok_or_else(|| format!("{name} is a {kind} field; {v} is not a whole number"));
    macro_rules! int {
        ($t:ty, $var:ident) => {{
            let i = whole()?;
            <$t>::try_from(i).map(Value::$var).map_err(|_| {
                format!(
                    "{name} is a {kind} field; {v} is out of its range ({} to {})",
                    <$t>::MIN,
                    <$t>::MAX
                )
            })
        }};
    }
    match dt {
        Datatype::Int8 => int!(i8, I8),
        Datatype::Uint8 | Datatype::Bool => int!(u8, U8),
        Datatype::Int16 => int!(i16, I16),
        Datatype::Uint16 => int!(u16, U16),
        Datatype::Int32 => int!(i32, I32),
        Datatype::Uint32 => int!(u32, U32),
        Datatype::Int64 => int!(i64, I64),
        Datatype::Uint64 => int!(u64, U64),
        Datatype::Float32 => Ok(Value::F32(number as f32)),
        Datatype::Float64 => Ok(Value::F64(number)),
        dt if is_time(dt) => int!(i64, I64),
        _ => Err(format!(
            "{name} is a {kind} field, which conditions cannot compare"
        )),
    }
}

// ---------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------

/// A little-endian number read from a cell.
trait Num: Copy + PartialOrd {
    const SIZE: usize;
    fn read(b: &[u8]) -> Self;
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn read(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..Self::SIZE]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
num!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

/// The cells of a column, each as its bytes (null cells included, as
/// stored).
fn for_each_cell(col: &Column, mut f: impl FnMut(usize, &[u8])) {
    let data = col.data();
    match col.offsets() {
        Some(o) => {
            for (i, w) in o.windows(2).take(col.len()).enumerate() {
                let (s, e) = (w[0] as usize, w[1] as usize);
                f(i, data.get(s..e.max(s)).unwrap_or_default());
            }
        }
        None => {
            let size = col.field.cell_size() as usize;
            if size == 0 {
                return;
            }
            for (i, c) in data.chunks_exact(size).take(col.len()).enumerate() {
                f(i, c);
            }
        }
    }
}

/// `pred` of each cell's first value of type `T`, into `out`; cells too
/// short for one hold false.
fn numeric<T: Num>(col: &Column, out: &mut [bool], pred: impl Fn(T) -> bool) {
    if col.offsets().is_none() && col.field.cell_size() as usize == T::SIZE {
        // The common case: a column of one fixed-size value per cell.
        for (o, c) in out.iter_mut().zip(col.data().chunks_exact(T::SIZE)) {
            *o = pred(T::read(c));
        }
        return;
    }
    for_each_cell(col, |i, c| out[i] = c.len() >= T::SIZE && pred(T::read(c)));
}

fn compare<T: Num>(col: &Column, out: &mut [bool], op: Op, v: T) {
    match op {
        Op::Lt => numeric(col, out, |x: T| x < v),
        Op::Le => numeric(col, out, |x: T| x <= v),
        Op::Gt => numeric(col, out, |x: T| x > v),
        Op::Ge => numeric(col, out, |x: T| x >= v),
        Op::Eq => numeric(col, out, |x: T| x == v),
        Op::Ne => numeric(col, out, |x: T| x != v),
    }
}

/// Whether `ord` (a cell against the value) satisfies `op`.
fn holds(op: Op, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op {
        Op::Lt => ord == Less,
        Op::Le => ord != Greater,
        Op::Gt => ord == Greater,
        Op::Ge => ord != Less,
        Op::Eq => ord == Equal,
        Op::Ne => ord != Equal,
    }
}

impl BoundCondition {
    /// The fields the condition reads, as the schema describes them.
    pub fn fields(&self) -> &[FieldInfo] {
        &self.fields
    }

    fn column<'a>(&self, cells: &'a Cells, i: usize) -> Result<&'a Column> {
        let field = &self.fields[i];
        let col = cells.column(&field.name).ok_or_else(|| Error::Condition {
            text: self.text.clone(),
            what: format!("the cells hold no column {}", field.name),
        })?;
        if col.field.datatype != field.datatype || col.len() != cells.len {
            return Err(Error::Condition {
                text: self.text.clone(),
                what: format!(
                    "column {} holds {} {} cells; the condition was bound to {} {} cells",
                    field.name,
                    col.len(),
                    datatype_name(col.field.datatype),
                    cells.len,
                    datatype_name(field.datatype)
                ),
            });
        }
        Ok(col)
    }

    /// For each cell of `cells` (which hold a column for every field the
    /// condition names), whether the condition holds.
    pub fn evaluate(&self, cells: &Cells) -> Result<Vec<bool>> {
        self.eval(&self.tree, cells)
    }

    fn eval(&self, node: &Bound, cells: &Cells) -> Result<Vec<bool>> {
        let n = cells.len;
        let mut out = vec![false; n];
        match node {
            Bound::And(kids) | Bound::Or(kids) => {
                let and = matches!(node, Bound::And(_));
                out.fill(and);
                for k in kids {
                    let r = self.eval(k, cells)?;
                    for (o, r) in out.iter_mut().zip(r) {
                        *o = if and { *o && r } else { *o || r };
                    }
                }
                return Ok(out);
            }
            Bound::Const(b) => out.fill(*b),
            Bound::Valid(f) => {
                self.column(cells, *f)?;
                out.fill(true);
            }
            Bound::Null { field, is_null } => {
                let col = self.column(cells, *field)?;
                match col.validity() {
                    Some(v) => {
                        for (o, v) in out.iter_mut().zip(v) {
                            *o = (*v == 0) == *is_null;
                        }
                    }
                    None => out.fill(!is_null),
                }
                return Ok(out);
            }
            Bound::Cmp { field, op, value } => {
                let col = self.column(cells, *field)?;
                let op = *op;
                match value {
                    Value::I8(v) => compare(col, &mut out, op, *v),
                    Value::U8(v) => compare(col, &mut out, op, *v),
                    Value::I16(v) => compare(col, &mut out, op, *v),
                    Value::U16(v) => compare(col, &mut out, op, *v),
                    Value::I32(v) => compare(col, &mut out, op, *v),
                    Value::U32(v) => compare(col, &mut out, op, *v),
                    Value::I64(v) => compare(col, &mut out, op, *v),
                    Value::U64(v) => compare(col, &mut out, op, *v),
                    Value::F32(v) => compare(col, &mut out, op, *v),
                    Value::F64(v) => compare(col, &mut out, op, *v),
                    Value::Char(v) => {
                        for_each_cell(col, |i, c| {
                            // An empty cell's first char is its NUL.
                            let x = c.first().copied().unwrap_or(0) as i8;
                            out[i] = x.partial_cmp(v).is_some_and(|o| holds(op, o));
                        })
                    }
                    Value::Bytes(v) => for_each_cell(col, |i, c| out[i] = holds(op, c.cmp(v))),
                }
            }
            Bound::Set {
                field,
                negated,
                members,
            } => {
                let col = self.column(cells, *field)?;
                for_each_cell(col, |i, c| {
                    out[i] = members.binary_search_by(|m| m.as_slice().cmp(c)).is_ok() != *negated
                });
            }
        }
        // A null cell satisfies no comparison (`apply_ast_node_sparse`
        // clears it for any op with a non-null value).
        let f = match node {
            Bound::Valid(f) | Bound::Cmp { field: f, .. } | Bound::Set { field: f, .. } => *f,
            _ => return Ok(out),
        };
        if let Some(v) = self.column(cells, f)?.validity() {
            for (o, v) in out.iter_mut().zip(v) {
                *o &= *v != 0;
            }
        }
        Ok(out)
    }

    /// False when the tile's metadata proves no cell of it matches:
    /// `stats` gives what the tile's metadata says about a field by name
    /// (`None`: nothing). Conservative: true whenever uncertain.
    ///
    /// The statistics may borrow from anything that outlives the call
    /// (`'s`), e.g. the fragment metadata, not only from the name.
    pub fn may_match<'s>(&self, stats: &dyn Fn(&str) -> Option<FieldTileStats<'s>>) -> bool {
        self.may(&self.tree, stats)
    }

    fn may<'s>(&self, node: &Bound, stats: &dyn Fn(&str) -> Option<FieldTileStats<'s>>) -> bool {
        let field_stats = |f: usize| stats(&self.fields[f].name);
        // Every cell of the tile null: no comparison holds.
        let all_null = |f: usize| {
            field_stats(f).is_some_and(|s| s.cell_count > 0 && s.null_count == Some(s.cell_count))
        };
        match node {
            Bound::And(kids) => kids.iter().all(|k| self.may(k, stats)),
            Bound::Or(kids) => kids.iter().any(|k| self.may(k, stats)),
            Bound::Const(b) => *b,
            Bound::Valid(f) => !all_null(*f),
            Bound::Null { field, is_null } => match field_stats(*field) {
                Some(s) if *is_null => s.null_count != Some(0),
                Some(s) => !(s.cell_count > 0 && s.null_count == Some(s.cell_count)),
                None => true,
            },
            Bound::Cmp { field, op, value } => {
                if all_null(*field) {
                    return false;
                }
                let Some(s) = field_stats(*field) else {
                    return true;
                };
                let (Some(min), Some(max)) = (s.min, s.max) else {
                    return true;
                };
                !cannot_hold(*op, value, min, max)
            }
            Bound::Set {
                field,
                negated,
                members,
            } => {
                if all_null(*field) {
                    return false;
                }
                if *negated {
                    return true;
                }
                let Some(s) = field_stats(*field) else {
                    return true;
                };
                let (Some(min), Some(max)) = (s.min, s.max) else {
                    return true;
                };
                // Members are bytes of values; one equal to a cell lies in
                // [min, max] unless it is a NaN (outside every range).
                let dt = self.fields[*field].datatype;
                members.iter().any(|m| match member_value(dt, m) {
                    Some(Value::F32(x)) if x.is_nan() => true,
                    Some(Value::F64(x)) if x.is_nan() => true,
                    Some(v) => !cannot_hold(Op::Eq, &v, min, max),
                    None => true,
                })
            }
        }
    }
}

/// A set member's bytes as a value of `dt` (strings: the bytes).
fn member_value(dt: Datatype, m: &[u8]) -> Option<Value> {
    let w = numeric_width(dt);
    if w.is_some_and(|w| w != m.len()) {
        return None;
    }
    Some(match dt {
        Datatype::Int8 => Value::I8(i8::read(m)),
        Datatype::Uint8 | Datatype::Bool => Value::U8(u8::read(m)),
        Datatype::Int16 => Value::I16(i16::read(m)),
        Datatype::Uint16 => Value::U16(u16::read(m)),
        Datatype::Int32 => Value::I32(i32::read(m)),
        Datatype::Uint32 => Value::U32(u32::read(m)),
        Datatype::Int64 => Value::I64(i64::read(m)),
        Datatype::Uint64 => Value::U64(u64::read(m)),
        Datatype::Float32 => Value::F32(f32::read(m)),
        Datatype::Float64 => Value::F64(f64::read(m)),
        dt if is_time(dt) => Value::I64(i64::read(m)),
        _ => Value::Bytes(m.to_vec()),
    })
}

/// Whether tile min/max prove that no cell `c` has `c op value`. False
/// (uncertain) whenever the statistics do not decode, for `!=` on floats
/// (a NaN cell may sit outside min/max) and for first-char comparisons.
fn cannot_hold(op: Op, value: &Value, min: &[u8], max: &[u8]) -> bool {
    fn prove<T: PartialOrd>(op: Op, v: T, min: T, max: T) -> bool {
        match op {
            Op::Lt => min >= v,
            Op::Le => min > v,
            Op::Gt => max <= v,
            Op::Ge => max < v,
            Op::Eq => v < min || v > max,
            Op::Ne => min == v && max == v,
        }
    }
    macro_rules! typed {
        ($t:ty, $v:expr) => {{
            if min.len() != <$t as Num>::SIZE || max.len() != <$t as Num>::SIZE {
                return false;
            }
            prove(op, *$v, <$t>::read(min), <$t>::read(max))
        }};
    }
    match value {
        Value::I8(v) => typed!(i8, v),
        Value::U8(v) => typed!(u8, v),
        Value::I16(v) => typed!(i16, v),
        Value::U16(v) => typed!(u16, v),
        Value::I32(v) => typed!(i32, v),
        Value::U32(v) => typed!(u32, v),
        Value::I64(v) => typed!(i64, v),
        Value::U64(v) => typed!(u64, v),
        Value::F32(_) | Value::F64(_) if op == Op::Ne => false,
        Value::F32(v) => typed!(f32, v),
        Value::F64(v) => typed!(f64, v),
        Value::Bytes(v) => prove(op, v.as_slice(), min, max),
        Value::Char(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::cells::Query;
    use std::path::PathBuf;

    fn parse(text: &str) -> Node {
        QueryCondition::parse(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .tree
    }

    fn parse_err(text: &str) -> String {
        match QueryCondition::parse(text) {
            Ok(c) => panic!("{text} parsed: {:?}", c.tree),
            Err(e) => e.to_string(),
        }
    }

    fn field(name: &str) -> FieldRef {
        FieldRef {
            name: name.into(),
            kind: FieldKind::Any,
        }
    }

    fn cmp(name: &str, op: Op, value: Lit) -> Node {
        Node::Cmp {
            field: field(name),
            op,
            value,
        }
    }

    fn fixture(name: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/v22")
            .join(name)
    }

    fn reader(name: &str) -> ArrayReader {
        ArrayReader::open(&fixture(name), &crate::ReadOptions::default()).unwrap()
    }

    /// The cells of `name` for which `cond` holds, as `field` values.
    fn matching(name: &str, cond: &str, key: &str) -> Vec<serde_json::Value> {
        let r = reader(name);
        let cells = r.read(&Query::default()).unwrap();
        let bound = QueryCondition::parse(cond).unwrap().bind(&r).unwrap();
        let keep = bound.evaluate(&cells).unwrap();
        assert_eq!(keep.len(), cells.len);
        let col = cells.column(key).unwrap();
        (0..cells.len)
            .filter(|i| keep[*i])
            .map(|i| col.json(i))
            .collect()
    }

    fn bind_err(name: &str, cond: &str) -> String {
        let r = reader(name);
        match QueryCondition::parse(cond).unwrap().bind(&r) {
            Ok(b) => panic!("{cond} bound: {:?}", b.tree),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn tiledb_py_examples_parse() {
        // The examples of TileDB-Py's QueryCondition docstring.
        assert_eq!(
            parse("foo > 5 or ('asdf' == attr('b a r') and baz <= val(1.0))"),
            Node::Or(vec![
                cmp("foo", Op::Gt, Lit::Int(5)),
                Node::And(vec![
                    Node::Cmp {
                        field: FieldRef {
                            name: "b a r".into(),
                            kind: FieldKind::Attr
                        },
                        op: Op::Eq,
                        value: Lit::Str(b"asdf".to_vec()),
                    },
                    cmp("baz", Op::Le, Lit::Float(1.0)),
                ]),
            ])
        );
        assert_eq!(
            parse("foo in [1, 2, 3]"),
            Node::Set {
                field: field("foo"),
                negated: false,
                values: vec![Lit::Int(1), Lit::Int(2), Lit::Int(3)],
            }
        );
        // `and` binds tighter than `or`.
        assert_eq!(
            parse("a == 1 or a == 2 and b == 3"),
            Node::Or(vec![
                cmp("a", Op::Eq, Lit::Int(1)),
                Node::And(vec![
                    cmp("a", Op::Eq, Lit::Int(2)),
                    cmp("b", Op::Eq, Lit::Int(3))
                ]),
            ])
        );
        // Chained comparisons are an `and` of each pair; a value on the
        // left swaps the operator.
        assert_eq!(
            parse("1 < a <= 5"),
            Node::And(vec![
                cmp("a", Op::Gt, Lit::Int(1)),
                cmp("a", Op::Le, Lit::Int(5))
            ])
        );
        assert_eq!(
            parse("(a > 1) & (b < 2) | (c != 'x')"),
            Node::Or(vec![
                Node::And(vec![
                    cmp("a", Op::Gt, Lit::Int(1)),
                    cmp("b", Op::Lt, Lit::Int(2))
                ]),
                cmp("c", Op::Ne, Lit::Str(b"x".to_vec())),
            ])
        );
        assert_eq!(
            parse("not a < 5"),
            Node::Not(Box::new(cmp("a", Op::Lt, Lit::Int(5))))
        );
        assert_eq!(
            parse("dim('d') not in [-1, b'\\x00z', val(-2.5)]"),
            Node::Set {
                field: FieldRef {
                    name: "d".into(),
                    kind: FieldKind::Dim
                },
                negated: true,
                values: vec![Lit::Int(-1), Lit::Bytes(vec![0, b'z']), Lit::Float(-2.5)],
            }
        );
        assert_eq!(parse("a > -5"), cmp("a", Op::Gt, Lit::Int(-5)));
        assert_eq!(parse("a == None"), cmp("a", Op::Eq, Lit::None));
        assert_eq!(parse("a is None"), cmp("a", Op::Eq, Lit::None));
        assert_eq!(parse("a is not null"), cmp("a", Op::Ne, Lit::None));
        assert_eq!(parse("a == 0x1F_0"), cmp("a", Op::Eq, Lit::Int(0x1f0)));
        assert_eq!(parse("a == 1e3"), cmp("a", Op::Eq, Lit::Float(1000.0)));
        assert_eq!(parse("a == True"), cmp("a", Op::Eq, Lit::Bool(true)));
        assert_eq!(
            parse(r#"s == "é\n\u00e9\"" "#),
            cmp("s", Op::Eq, Lit::Str("é\né\"".as_bytes().to_vec()))
        );
        assert_eq!(
            parse(r"s == r'\d'"),
            cmp("s", Op::Eq, Lit::Str(b"\\d".to_vec()))
        );
    }

    #[test]
    fn field_names_in_order() {
        let c =
            QueryCondition::parse("b > 1 and (a < 2 or b in [3]) and attr('x y') == 1").unwrap();
        assert_eq!(c.field_names(), vec!["b", "a", "x y"]);
    }

    #[test]
    fn syntax_errors_say_where_and_why() {
        assert!(parse_err("").contains("empty"));
        assert!(parse_err("a >").contains("at byte 3"));
        assert!(parse_err("a = 5").contains("=="));
        assert!(parse_err("a < b").contains("compares two fields"));
        assert!(parse_err("1 < 2").contains("compares two values"));
        assert!(parse_err("a").contains("not the field a"));
        // Python's precedence: `&` binds tighter than `>`.
        assert!(parse_err("a > 1 & b < 2").contains("parenthesize"));
        assert!(parse_err("a in 5").contains("list"));
        assert!(parse_err("a in []").contains("at least one"));
        assert!(parse_err("a < None").contains("== and !="));
        assert!(parse_err("a is 5").contains("None"));
        assert!(parse_err("f(1) > 2").contains("unknown function"));
        assert!(parse_err("attr(a) > 2").contains("quoted name"));
        assert!(parse_err("a > 'x").contains("not closed"));
        assert!(parse_err("a > 1j").contains("complex"));
        assert!(parse_err("a in [1] == 2").contains("chain"));
        assert!(parse_err("(a > 1").contains("expected )"));
        assert!(parse_err("a > 1 b").contains("unexpected b"));
        assert!(parse_err("a > 99999999999999999999999999999999999999999").contains("too large"));
    }

    #[test]
    fn garbage_and_deep_nesting_are_errors_not_panics() {
        let deep = format!("{}a > 1{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(parse_err(&deep).contains("nested more than"));
        assert!(parse_err(&format!("{}a > 1", "not ".repeat(100_000))).contains("nested"));
        assert!(parse_err(&format!("a > {}1", "-".repeat(100_000))).contains("nested"));
        assert!(parse_err(&format!("a in {}1", "[".repeat(100_000))).contains("nested"));
        assert!(parse_err(&format!("a > {}1", "val(".repeat(100_000))).contains("nested"));
        // Nesting up to the limit parses.
        let ok = format!("{}a > 1{}", "(".repeat(60), ")".repeat(60));
        assert_eq!(parse(&ok), cmp("a", Op::Gt, Lit::Int(1)));
        // Every prefix of some valid conditions, and bytes of all kinds.
        let texts = [
            "a > 5 and (b == \"x\" or c in [1, -2.5e3, b'\\xff']) | not d is not None",
            "attr('é') not in ['\\u00e9', r\"\\\"\", '''x''', 0b101, 0o7, .5]",
        ];
        for t in texts {
            for (i, _) in t.char_indices() {
                let _ = QueryCondition::parse(&t[..i]);
            }
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let alphabet = "ab()[],'\"\\&|-+<>=!. 0129xeEnotandorinisNone_é\u{0}";
        let chars: Vec<char> = alphabet.chars().collect();
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..(x % 24) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(chars[(x % chars.len() as u64) as usize]);
            }
            let _ = QueryCondition::parse(&s);
        }
    }

    #[test]
    fn binding_checks_fields_and_literals() {
        let e = bind_err("sparse_int_2d", "x > 1");
        assert!(e.contains("unknown field x"), "{e}");
        let e = bind_err("sparse_int_2d", "a > 'five'");
        assert!(e.contains("a is a INT64 field"), "{e}");
        let e = bind_err("nullable_var_sparse", "s == 5");
        assert!(e.contains("s is a string field; 5 is not a string"), "{e}");
        let e = bind_err("sparse_int_2d", "r > 2.5");
        assert!(e.contains("not a whole number"), "{e}");
        let e = bind_err("sparse_int_2d", "r > 2147483648");
        assert!(e.contains("out of its range"), "{e}");
        let e = bind_err("sparse_int_2d", "attr('r') > 1");
        assert!(e.contains("is a dimension"), "{e}");
        let e = bind_err("sparse_int_2d", "dim('a') > 1");
        assert!(e.contains("is an attribute"), "{e}");
        // TileDB-Py refuses conditions on the dimensions of dense arrays.
        let e = bind_err("dense_int_2d", "dim('rows') > 1");
        assert!(e.contains("dense"), "{e}");
        // The engine compares blobs and multi-valued numbers with nothing.
        let e = bind_err("types_strings", "bl == b'B'");
        assert!(e.contains("BLOB"), "{e}");
        let e = bind_err("types_multival", "t3 == 1");
        assert!(e.contains("3 values per cell"), "{e}");
        // Set members of a fixed-size string field have its cell size.
        let e = bind_err("types_strings", "f3 in ['fo']");
        assert!(e.contains("3 bytes"), "{e}");
        // Inequalities need an ordered enumeration.
        let e = bind_err("enumerations", "color < 'red'");
        assert!(e.contains("unordered enumeration"), "{e}");
        // Labels have the enumeration's datatype.
        let e = bind_err("enumerations", "color == 1");
        assert!(e.contains("labels"), "{e}");
        // An integral float is a whole number; a negative one fits a signed field.
        assert!(QueryCondition::parse("a > -3.0")
            .unwrap()
            .bind(&reader("sparse_int_2d"))
            .is_ok());
    }

    #[test]
    fn evaluates_numbers_strings_and_nulls() {
        let j = |v: &[i64]| v.iter().map(|x| serde_json::json!(x)).collect::<Vec<_>>();
        assert_eq!(
            matching("sparse_int_2d", "a >= 100", "a"),
            j(&[201, 100, 101, 102, 200])
        );
        assert_eq!(
            matching("sparse_int_2d", "a > -5 and 7 >= a", "a"),
            j(&[0, 2, 4, 5, 6, 7])
        );
        assert_eq!(
            matching("sparse_int_2d", "not (a < 200)", "a"),
            j(&[201, 200])
        );
        assert_eq!(
            matching("sparse_int_2d", "a in [8, 102, -1]", "a"),
            j(&[8, 102])
        );
        assert_eq!(
            matching("sparse_int_2d", "r == 1 and c != 1", "a"),
            j(&[100])
        );
        // Null cells satisfy no comparison, not `!=`, not `not in`, not a
        // negated comparison (`not` is pushed into the comparison).
        let n = "nullable_var_sparse";
        assert_eq!(matching(n, "n != 2", "n"), j(&[0, 4, 5]));
        assert_eq!(matching(n, "n not in [2]", "n"), j(&[0, 4, 5]));
        assert_eq!(matching(n, "not (n < 3)", "n"), j(&[4, 5]));
        assert_eq!(matching(n, "not (n < 3 or n == None)", "n"), j(&[4, 5]));
        // Over `and`/`or` too (De Morgan to the leaves): `n >= 3 or d <= 0`,
        // false for the null cells at d = 10 and 30.
        assert_eq!(matching(n, "not (n < 3 and d > 0)", "d"), j(&[0, 40, 50]));
        assert_eq!(matching(n, "not (not (n < 3))", "d"), j(&[0, 20]));
        assert_eq!(matching(n, "n == None", "d"), j(&[10, 30]));
        assert_eq!(matching(n, "n is not None", "d"), j(&[0, 20, 40, 50]));
        // A null test of a field that cannot be null.
        assert_eq!(matching(n, "v is None", "d"), j(&[]));
        assert_eq!(matching(n, "v != None", "d").len(), 6);
        // Strings: bytewise, a prefix first.
        assert_eq!(
            matching(n, "s >= 'dd'", "s"),
            vec![serde_json::json!("dd"), serde_json::json!("e")]
        );
        assert_eq!(matching(n, "a in ['A', 'EEEE', 'zz']", "d"), j(&[0, 40]));
        assert_eq!(matching("sparse_strdim", "s < 'b'", "s").len(), 3);
    }

    #[test]
    fn engine_quirks_in_evaluation() {
        let j = |v: &[i64]| v.iter().map(|x| serde_json::json!(x)).collect::<Vec<_>>();
        // A fixed-size CHAR field compares its first byte only: "fxx"
        // equals "foo" (checked against the engine in
        // tests/query_condition_engine.rs).
        assert_eq!(matching("types_strings", "f3 == 'fxx'", "d"), j(&[0]));
        // ...but `in` compares whole cells.
        assert_eq!(matching("types_strings", "f3 in ['fxx']", "d"), j(&[]));
        assert_eq!(
            matching("types_strings", "f3 in ['foo', 'baz']", "d"),
            j(&[0, 5])
        );
        // Enumerations compare by label; a label the enumeration lacks
        // matches nothing with `==` and `<`, everything with `!=`.
        let e = "enumerations";
        assert_eq!(matching(e, "color == 'blue'", "d"), j(&[4]));
        assert_eq!(matching(e, "color == 'purple'", "d"), j(&[]));
        assert_eq!(matching(e, "color != 'purple'", "d"), j(&[0, 2, 4, 9]));
        assert_eq!(
            matching(e, "color in ['red', 'purple', 'ünïcode']", "d"),
            j(&[0, 9])
        );
        assert_eq!(
            matching(e, "color not in ['purple']", "d"),
            j(&[0, 2, 4, 9])
        );
        // The ordered enumeration compares indexes: 40 is index 2.
        assert_eq!(matching(e, "size < 40", "d"), j(&[4, 9]));
        assert_eq!(matching(e, "size < 30", "d"), j(&[]));
        assert_eq!(matching(e, "not (size < 30)", "d"), j(&[]));
    }

    fn bound(name: &str, cond: &str) -> BoundCondition {
        QueryCondition::parse(cond)
            .unwrap()
            .bind(&reader(name))
            .unwrap()
    }

    /// `may_match` of `cond` on `name` with these statistics per field.
    fn may(name: &str, cond: &str, stats: &[(&str, FieldTileStats<'_>)]) -> bool {
        bound(name, cond).may_match(&|f: &str| stats.iter().find(|(n, _)| *n == f).map(|(_, s)| *s))
    }

    fn minmax<'a>(min: &'a [u8], max: &'a [u8]) -> FieldTileStats<'a> {
        FieldTileStats {
            min: Some(min),
            max: Some(max),
            null_count: None,
            cell_count: 4,
        }
    }

    #[test]
    fn may_match_prunes_only_what_stats_prove() {
        let s = "sparse_int_2d";
        let (zero, five, six) = (0i64.to_le_bytes(), 5i64.to_le_bytes(), 6i64.to_le_bytes());
        let a05 = [("a", minmax(&zero, &five))];
        assert!(!may(s, "a > 5", &a05));
        assert!(may(s, "a > 5", &[("a", minmax(&zero, &six))]));
        // No statistics, or statistics that do not decode: maybe.
        assert!(may(s, "a > 5", &[]));
        assert!(may(s, "a > 5", &[("a", minmax(&[0], &[1]))]));
        assert!(!may(s, "a == 7", &a05));
        assert!(may(s, "a == 5", &a05));
        assert!(!may(s, "a < 0", &a05));
        assert!(may(s, "a <= 0", &a05));
        assert!(!may(s, "a in [6, 9]", &a05));
        assert!(may(s, "a in [6, 3]", &a05));
        assert!(may(s, "a not in [6]", &a05));
        assert!(!may(s, "a != 5", &[("a", minmax(&five, &five))]));
        assert!(may(s, "a != 5", &a05));
        // and / or / not.
        assert!(!may(s, "a > 5 and a < 100", &a05));
        assert!(may(s, "a > 5 or a < 100", &a05));
        assert!(!may(s, "not (a <= 5)", &a05));
        // A field without statistics keeps the tile.
        assert!(may(s, "a > 5 or b > 0.5", &a05));

        // Null counts.
        let nulls = |n: u64| FieldTileStats {
            min: None,
            max: None,
            null_count: Some(n),
            cell_count: 6,
        };
        let nv = "nullable_var_sparse";
        assert!(!may(nv, "n is None", &[("n", nulls(0))]));
        assert!(may(nv, "n is None", &[("n", nulls(1))]));
        assert!(!may(nv, "n is not None", &[("n", nulls(6))]));
        assert!(may(nv, "n is not None", &[("n", nulls(5))]));
        assert!(!may(nv, "n != 3", &[("n", nulls(6))]));
        assert!(!may(nv, "not (n == None)", &[("n", nulls(6))]));
        assert!(!may(nv, "n not in [3]", &[("n", nulls(6))]));
        // Strings compare bytewise against their min/max.
        let sdd = [("s", minmax(b"a", b"dd"))];
        assert!(!may(nv, "s > 'dd'", &sdd));
        assert!(may(nv, "s > 'd'", &sdd));
        assert!(!may(nv, "s == 'e'", &sdd));
        assert!(!may(nv, "s in ['e', 'ee']", &sdd));
        // Floats: `!=` may hold for a NaN cell whatever min and max say.
        let one = 1.0f64.to_le_bytes();
        let b11 = [("b", minmax(&one, &one))];
        assert!(may(s, "b != 1.0", &b11));
        assert!(!may(s, "b > 1.0", &b11));
        // Constant conditions.
        assert!(!may(s, "a == None", &[]));
        assert!(may(s, "a != None", &[]));
        assert!(!may("enumerations", "color == 'purple'", &[]));
    }
}
