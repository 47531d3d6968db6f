//! What to aggregate: `sum(a)` and friends parsed, and the values they give.

use std::fmt;
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::format::Datatype;
use crate::model::value;

/// What an aggregate computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AggregateOp {
    /// Cells (`count(*)`, or `count(a)`: the same, nulls included).
    Count,
    /// Sum of the non-null values (`i64`, `u64` or `f64`).
    Sum,
    /// Smallest non-null value, in the field's type.
    Min,
    /// Largest non-null value, in the field's type.
    Max,
    /// Mean of the non-null values (`f64`).
    Mean,
    /// Null cells of a nullable field (`u64`).
    NullCount,
}

impl AggregateOp {
    /// The name as written in an aggregate expression.
    pub fn name(self) -> &'static str {
        match self {
            AggregateOp::Count => "count",
            AggregateOp::Sum => "sum",
            AggregateOp::Min => "min",
            AggregateOp::Max => "max",
            AggregateOp::Mean => "mean",
            AggregateOp::NullCount => "null_count",
        }
    }
}

/// One aggregate: an operation on a field (`None`: `count(*)`).
///
/// ```
/// use tiledb_codec::raw::read::aggregate::{Aggregate, AggregateOp};
/// let a = Aggregate::parse(" sum( a ) ").unwrap();
/// assert_eq!(a.op, AggregateOp::Sum);
/// assert_eq!(a.field.as_deref(), Some("a"));
/// assert_eq!(Aggregate::parse("count(*)").unwrap().field, None);
/// assert_eq!(a.to_string(), "sum(a)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Aggregate {
    /// What it computes.
    pub op: AggregateOp,
    /// The field it reads; `None` only for `count(*)`.
    pub field: Option<String>,
}

pub(super) fn parse_error(text: &str, what: impl Into<String>) -> Error {
    Error::Query {
        path: PathBuf::from(text),
        what: what.into(),
    }
}

impl Aggregate {
    /// Parses `op(field)`: `count(*)`, `count(a)`, `sum(a)`, `min(a)`,
    /// `max(a)`, `mean(a)`, `null_count(a)`; whitespace around the parts is
    /// ignored, a field name may be a JSON string literal (`sum("my a")`).
    pub fn parse(text: &str) -> Result<Self> {
        let t = text.trim();
        let open = t
            .find('(')
            .ok_or_else(|| parse_error(text, "an aggregate is op(field), e.g. sum(a)"))?;
        let inner = t[open + 1..]
            .strip_suffix(')')
            .ok_or_else(|| parse_error(text, "the aggregate does not end with ')'"))?;
        let op = match t[..open].trim().to_ascii_lowercase().as_str() {
            "count" => AggregateOp::Count,
            "sum" => AggregateOp::Sum,
            "min" => AggregateOp::Min,
            "max" => AggregateOp::Max,
            "mean" | "avg" => AggregateOp::Mean,
            "null_count" => AggregateOp::NullCount,
            other => {
                return Err(parse_error(
                    text,
                    format!("unknown aggregate {other:?} (count, sum, min, max, mean, null_count)"),
                ))
            }
        };
        let inner = inner.trim();
        let field = if inner == "*" {
            None
        } else if inner.starts_with('"') {
            let s: String = serde_json::from_str(inner)
                .map_err(|e| parse_error(text, format!("{inner} is not a JSON string: {e}")))?;
            Some(s)
        } else if inner.is_empty() {
            return Err(parse_error(text, "the aggregate names no field"));
        } else {
            Some(inner.to_string())
        };
        if field.is_none() && op != AggregateOp::Count {
            return Err(parse_error(
                text,
                format!("{} needs a field, only count takes *", op.name()),
            ));
        }
        Ok(Aggregate { op, field })
    }
}

impl fmt::Display for Aggregate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            None => write!(f, "{}(*)", self.op.name()),
            Some(n) => write!(f, "{}({n})", self.op.name()),
        }
    }
}

/// The value of an aggregate.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum AggregateValue {
    /// No value: a nullable field without a non-null cell, min/max of no cells.
    Null,
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    Uint(u64),
    /// A floating-point value.
    Float(f64),
    /// The min or max of a string field.
    Text(Vec<u8>),
}

impl AggregateValue {
    /// The JSON of the value, as `export` writes cells: NaN and infinities
    /// as `"NaN"`, `"inf"`, `"-inf"`; text as a string (its bytes when it is
    /// not UTF-8).
    pub fn json(&self) -> Value {
        match self {
            AggregateValue::Null => Value::Null,
            AggregateValue::Int(v) => json!(v),
            AggregateValue::Uint(v) => json!(v),
            AggregateValue::Float(v) => value::Scalar::Float(*v).json(),
            AggregateValue::Text(b) => value::cell(Datatype::StringAscii, b),
        }
    }
}

/// How an aggregate was answered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AggregateStats {
    /// Fragment tiles answered from tile metadata (each counted once,
    /// however many fields it answered for).
    pub tiles_from_metadata: u64,
    /// Whether cells were read (tiles decoded) at all.
    pub cells_read: bool,
    /// Cells of the read that were folded (after the condition).
    pub cells_folded: u64,
}
