//! The condition's types: as parsed, as bound, and what tiles tell about it.

use crate::array::FieldInfo;

/// How deep parentheses, `not` and signs may nest: hostile input cannot
/// overflow the stack of the recursive-descent parser. The spec's limit on
/// a stored condition's depth (`format::MAX_CONDITION_DEPTH`).
pub const MAX_CONDITION_DEPTH: usize = crate::format::MAX_CONDITION_DEPTH as usize;

/// A parsed condition (not yet bound to an array), or one built in Rust
/// ([`super::col`]). Two conditions are equal when their syntax trees are,
/// however they were written (`a>5` is `a > 5`, `(a > 5)` and
/// `col("a").gt(5)`).
#[derive(Debug, Clone)]
pub struct QueryCondition {
    pub(super) text: String,
    pub(super) tree: Node,
}

impl PartialEq for QueryCondition {
    fn eq(&self, other: &Self) -> bool {
        self.tree == other.tree
    }
}

/// A condition bound to an array's schema: field datatypes resolved,
/// literals converted, enumeration labels turned into indexes.
#[derive(Debug, Clone)]
pub struct BoundCondition {
    pub(super) text: String,
    pub(super) fields: Vec<FieldInfo>,
    pub(super) tree: Bound,
}

/// What a tile's metadata says about one field (any of it may be missing).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
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

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Op {
    /// The operator with its sides swapped (`5 < a` is `a > 5`).
    pub(super) fn swapped(self) -> Op {
        match self {
            Op::Lt => Op::Gt,
            Op::Le => Op::Ge,
            Op::Gt => Op::Lt,
            Op::Ge => Op::Le,
            op => op,
        }
    }

    /// The operator of the negated comparison (`negate_query_condition_op`).
    pub(super) fn negated(self) -> Op {
        match self {
            Op::Lt => Op::Ge,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            Op::Ge => Op::Lt,
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
        }
    }

    pub(super) fn symbol(self) -> &'static str {
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
pub(super) enum FieldKind {
    Any,
    Attr,
    Dim,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct FieldRef {
    pub(super) name: String,
    pub(super) kind: FieldKind,
}

/// A literal value as written.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Lit {
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
pub(super) enum Node {
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
    pub(super) fn fields<'a>(&'a self, out: &mut Vec<&'a str>) {
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

/// A value converted to a field's datatype, compared as the engine does.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
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

macro_rules! value_from {
    ($($t:ty => $variant:ident),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Self {
                Value::$variant(v)
            }
        }
    )*};
}
value_from!(i8 => I8, u8 => U8, i16 => I16, u16 => U16, i32 => I32, u32 => U32,
    i64 => I64, u64 => U64, f32 => F32, f64 => F64);

impl Value {
    /// The bytes of the value as a cell holds it (set members).
    pub(super) fn to_bytes(&self) -> Vec<u8> {
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
pub(super) enum Bound {
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
