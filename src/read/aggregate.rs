//! Aggregates over the cells a query selects: `count(*)`, `count(a)`,
//! `sum`, `min`, `max`, `mean`, `null_count`, with the engine's result
//! types; tiles the query covers whole, with no overwrite, delete or
//! duplicate rule in play, answered from tile metadata.
//!
//! What the engine (TileDB 2.30, `tiledb/sm/query/readers/aggregators/`)
//! computes, and so what this module computes:
//!
//! - `sum`: signed integers, dates and times sum into an `i64`, unsigned
//!   integers into a `u64`, floats into an `f64`. A sum that overflows is the
//!   largest value of its type (`i64::MAX` also when it overflowed below, the
//!   largest finite `f64` for floats, infinities included), or null for a
//!   nullable field. Sum of no cells: 0, null for a nullable field.
//! - `mean`: the `f64` of the sum over the count of non-null cells; of no
//!   cells NaN (null for a nullable field); `f64::MAX` when the sum overflowed.
//! - `min`, `max`: in the field's type (FLOAT32 widened exactly), strings
//!   (STRING_ASCII, fixed or var-sized) compared bytewise. The first value
//!   seen is kept until a smaller (larger) one comes, so a NaN seen first
//!   stays and later NaNs are passed over.
//! - Dense reads aggregate by parts as the engine's dense reader does: per
//!   space tile in tile order, per cell slab (a run of cells along the
//!   last dimension, row-major being the layout, inside one range; ranges
//!   in the query's order, adjacent ones joined), per fragment, newest
//!   first (cell by cell when the cell order is col-major and there are
//!   several dimensions); a tile answered from metadata is one part. Each part's sum and min/max start afresh;
//!   the results merge in that order (sums adding with the overflow check,
//!   extremes as above, a part's NaN sticking only when it comes first).
//!   This is the engine on one thread; on several its threads merge parts
//!   in the order they finish, and whether a NaN part wins varies from run
//!   to run.
//! - `count(*)` and `count(a)`: cells, nulls included (the engine's count
//!   of an attribute is the count of rows).
//! - `null_count(a)`: nullable fields only.
//! - nulls are skipped by `sum`, `mean`, `min` and `max`.
//! - Refused (`Error::Query`): sum and mean of anything but numbers; min and
//!   max of anything but numbers and STRING_ASCII; numbers of more than one
//!   value per cell or var-sized; BOOL, CHAR, STRING_UTF8 and BLOB fields.
//!
//! Dense arrays, as the engine's dense reader: a dimension without a range
//! spans its whole domain; `count` counts every cell of the region (cells no
//! fragment wrote too, and whatever the condition says); the other
//! aggregates see only cells some fragment wrote. A space tile inside the
//! region (every cell of it in one range, or in a multi-range's union) that
//! only one fragment (not covered by a newer one there) writes is answered
//! from that fragment's tile metadata, as the engine answers it: its count
//! is the whole tile while its sums, mins, maxes and null counts cover the
//! cells written, which shows in `mean`. A non-nullable
//! field's `min`/`max` over a region with cells but no written value is 0
//! (the engine's default), null over an empty region.
//!
//! Sparse arrays: tiles whose MBR lies inside the query's ranges, with no
//! condition, no pending delete, no cell timestamps, and (unless the array
//! allows duplicates) no other fragment's non-empty domain meeting the MBR,
//! are answered from tile metadata and skipped by the read
//! ([`Query::skip_tiles`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};

use super::column::Cells;
use super::query::Query;
use super::query_condition::BoundCondition;
use super::range::{Bound, DimRange};
use super::ArrayReader;
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{ArrayType, Datatype, Layout, Range1D};
use crate::value;

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
/// use tiledb_codec::read::aggregate::{Aggregate, AggregateOp};
/// let a = Aggregate::parse(" sum( a ) ").unwrap();
/// assert_eq!(a.op, AggregateOp::Sum);
/// assert_eq!(a.field.as_deref(), Some("a"));
/// assert_eq!(Aggregate::parse("count(*)").unwrap().field, None);
/// assert_eq!(a.to_string(), "sum(a)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aggregate {
    /// What it computes.
    pub op: AggregateOp,
    /// The field it reads; `None` only for `count(*)`.
    pub field: Option<String>,
}

fn parse_error(text: &str, what: impl Into<String>) -> Error {
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
pub struct AggregateStats {
    /// Fragment tiles answered from tile metadata (each counted once,
    /// however many fields it answered for).
    pub tiles_from_metadata: u64,
    /// Whether cells were read (tiles decoded) at all.
    pub cells_read: bool,
    /// Cells of the read that were folded (after the condition).
    pub cells_folded: u64,
}

/// The engine's classes of aggregated values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    /// Signed integers, dates and times (summed as `i64`).
    I,
    /// Unsigned integers (summed as `u64`).
    U,
    /// FLOAT32, FLOAT64 (summed as `f64`).
    F,
    /// STRING_ASCII (min and max only).
    Text,
}

fn class_of(dt: Datatype) -> Option<Num> {
    use Datatype as D;
    match dt {
        D::Int8 | D::Int16 | D::Int32 | D::Int64 => Some(Num::I),
        D::Uint8 | D::Uint16 | D::Uint32 | D::Uint64 => Some(Num::U),
        D::Float32 | D::Float64 => Some(Num::F),
        D::StringAscii => Some(Num::Text),
        // DATETIME_* and TIME_*: int64 in the engine's `apply_with_type`.
        d if (18..=39).contains(&d.value()) => Some(Num::I),
        _ => None,
    }
}

/// Checks an aggregate against its field as the engine does; the class of
/// the values it folds (`None` for counts).
fn check(root: &Path, agg: &Aggregate, f: &FieldInfo) -> Result<Option<Num>> {
    let refuse = |what: String| {
        Err(Error::Query {
            path: root.to_path_buf(),
            what: format!("{agg}: {what}"),
        })
    };
    match agg.op {
        AggregateOp::Count => return Ok(None),
        AggregateOp::NullCount => {
            if !f.nullable {
                return refuse(format!(
                    "{:?} is not nullable (null_count needs a nullable field)",
                    f.name
                ));
            }
            return Ok(None);
        }
        _ => {}
    }
    let Some(class) = class_of(f.datatype) else {
        return refuse(format!(
            "the engine aggregates no {} fields ({:?})",
            f.datatype.name(),
            f.name
        ));
    };
    let numeric = matches!(agg.op, AggregateOp::Sum | AggregateOp::Mean);
    if numeric && class == Num::Text {
        return refuse(format!(
            "{} needs a numeric field, {:?} is {}",
            agg.op.name(),
            f.name,
            f.datatype.name()
        ));
    }
    if class != Num::Text {
        if f.cell_val_num.is_none() {
            return refuse(format!(
                "{:?} is var-sized (numbers are aggregated one value per cell)",
                f.name
            ));
        }
        if f.cell_val_num != Some(1) {
            return refuse(format!(
                "{:?} holds {} values per cell (numbers are aggregated one value per cell)",
                f.name,
                f.cell_val_num.unwrap_or(0)
            ));
        }
    }
    Ok(Some(class))
}

/// Adds `v` to `sum` as the engine's `SafeSum` does: false (and `sum`
/// unchanged) on overflow.
fn add_i(sum: &mut i64, v: i64) -> bool {
    match sum.checked_add(v) {
        Some(s) => {
            *sum = s;
            true
        }
        None => false,
    }
}

fn add_u(sum: &mut u64, v: u64) -> bool {
    match sum.checked_add(v) {
        Some(s) => {
            *sum = s;
            true
        }
        None => false,
    }
}

fn add_f(sum: &mut f64, v: f64) -> bool {
    // Same signs and a magnitude past the largest double: overflow (an
    // infinity always is; a NaN never is, and sticks).
    if (*sum < 0.0) == (v < 0.0) && sum.abs() > f64::MAX - v.abs() {
        return false;
    }
    *sum += v;
    true
}

/// A value folded by min/max.
#[derive(Debug, Clone, PartialEq)]
enum Best {
    I(i64),
    U(u64),
    F(f64),
    T(Vec<u8>),
}

impl Best {
    fn of(class: Num, dt: Datatype, bytes: &[u8]) -> Option<Best> {
        if class == Num::Text {
            return Some(Best::T(bytes.to_vec()));
        }
        match value::scalar(dt, bytes)? {
            value::Scalar::Int(v) => Some(Best::I(v)),
            value::Scalar::Uint(v) => Some(Best::U(v)),
            value::Scalar::Float(v) => Some(Best::F(v)),
            value::Scalar::Bool(_) => None,
        }
    }

    /// `std::less` (`max`: `std::greater`) of the engine: false for NaNs.
    fn beats(&self, other: &Best, max: bool) -> bool {
        let o = match (self, other) {
            (Best::I(a), Best::I(b)) => a.partial_cmp(b),
            (Best::U(a), Best::U(b)) => a.partial_cmp(b),
            (Best::F(a), Best::F(b)) => a.partial_cmp(b),
            (Best::T(a), Best::T(b)) => a.partial_cmp(b),
            _ => None,
        };
        match o {
            Some(std::cmp::Ordering::Less) => !max,
            Some(std::cmp::Ordering::Greater) => max,
            _ => false,
        }
    }

    fn value(self) -> AggregateValue {
        match self {
            Best::I(v) => AggregateValue::Int(v),
            Best::U(v) => AggregateValue::Uint(v),
            Best::F(v) => AggregateValue::Float(v),
            Best::T(v) => AggregateValue::Text(v),
        }
    }
}

/// The running state of one aggregate.
#[derive(Debug, Clone)]
enum Acc {
    Count(u64),
    NullCount(u64),
    Sum {
        class: Num,
        i: i64,
        u: u64,
        f: f64,
        /// Non-null values summed.
        count: u64,
        overflow: bool,
        mean: bool,
    },
    Best {
        class: Num,
        max: bool,
        best: Option<Best>,
    },
}

impl Acc {
    fn new(op: AggregateOp, class: Option<Num>) -> Acc {
        let class = class.unwrap_or(Num::I);
        match op {
            AggregateOp::Count => Acc::Count(0),
            AggregateOp::NullCount => Acc::NullCount(0),
            AggregateOp::Sum | AggregateOp::Mean => Acc::Sum {
                class,
                i: 0,
                u: 0,
                f: 0.0,
                count: 0,
                overflow: false,
                mean: op == AggregateOp::Mean,
            },
            AggregateOp::Min | AggregateOp::Max => Acc::Best {
                class,
                max: op == AggregateOp::Max,
                best: None,
            },
        }
    }

    /// Folds one cell (`None`: null) of a field of `dt`.
    fn cell(&mut self, dt: Datatype, cell: Option<&[u8]>) {
        match self {
            Acc::Count(n) => *n += 1,
            Acc::NullCount(n) => *n += u64::from(cell.is_none()),
            Acc::Sum {
                class,
                i,
                u,
                f,
                count,
                overflow,
                ..
            } => {
                let Some(b) = cell else { return };
                if *overflow {
                    return;
                }
                let ok = match value::scalar(dt, b) {
                    Some(value::Scalar::Int(v)) => add_i(i, v),
                    Some(value::Scalar::Uint(v)) => add_u(u, v),
                    Some(value::Scalar::Float(v)) => add_f(f, v),
                    _ => return,
                };
                let _ = class;
                *count += 1;
                *overflow = !ok;
            }
            Acc::Best { class, max, best } => {
                let Some(b) = cell else { return };
                let Some(v) = Best::of(*class, dt, b) else {
                    return;
                };
                if best.as_ref().is_none_or(|cur| v.beats(cur, *max)) {
                    *best = Some(v);
                }
            }
        }
    }

    /// Folds a tile from its metadata: `cells` cells, `nulls` of them null,
    /// its sum's bit pattern, its min or max.
    fn tile(
        &mut self,
        cells: u64,
        nulls: u64,
        sum: Option<u64>,
        min: Option<Best>,
        maxv: Option<Best>,
    ) {
        let valid = cells.saturating_sub(nulls);
        match self {
            Acc::Count(n) => *n += cells,
            Acc::NullCount(n) => *n += nulls,
            Acc::Sum {
                class,
                i,
                u,
                f,
                count,
                overflow,
                ..
            } => {
                let Some(s) = sum else { return };
                if *overflow {
                    return;
                }
                let ok = match class {
                    Num::I => add_i(i, s as i64),
                    Num::U => add_u(u, s),
                    _ => add_f(f, f64::from_bits(s)),
                };
                if ok {
                    *count += valid;
                } else {
                    *overflow = true;
                }
            }
            Acc::Best { max, best, .. } => {
                let v = if *max { maxv } else { min };
                let Some(v) = v else { return };
                if valid > 0 && best.as_ref().is_none_or(|cur| v.beats(cur, *max)) {
                    *best = Some(v);
                }
            }
        }
    }

    /// The same aggregate with nothing folded yet.
    fn fresh(&self) -> Acc {
        match self {
            Acc::Best { class, max, .. } => Acc::Best {
                class: *class,
                max: *max,
                best: None,
            },
            Acc::Count(_) => Acc::Count(0),
            Acc::NullCount(_) => Acc::NullCount(0),
            Acc::Sum { class, mean, .. } => Acc::Sum {
                class: *class,
                i: 0,
                u: 0,
                f: 0.0,
                count: 0,
                overflow: false,
                mean: *mean,
            },
        }
    }

    /// Whether the engine aggregates this by parts whose results it merges
    /// (sums, means, mins and maxes).
    fn by_parts(&self) -> bool {
        matches!(self, Acc::Sum { .. } | Acc::Best { .. })
    }

    /// Folds the result of a part as the engine merges its parts' results.
    /// Min/max: the first one seeds, a later one replaces it when smaller
    /// (larger), so a NaN part sticks only when first. Sums: the part's sum
    /// (from 0) is added with the overflow check, an overflow in the part
    /// or in the addition sticks.
    fn merge(&mut self, part: Acc) {
        match (self, part) {
            (Acc::Best { max, best, .. }, Acc::Best { best: Some(v), .. })
                if best.as_ref().is_none_or(|cur| v.beats(cur, *max)) =>
            {
                *best = Some(v);
            }
            (
                Acc::Sum {
                    class,
                    i,
                    u,
                    f,
                    count,
                    overflow,
                    ..
                },
                Acc::Sum {
                    i: pi,
                    u: pu,
                    f: pf,
                    count: pc,
                    overflow: po,
                    ..
                },
            ) => {
                if *overflow {
                    return;
                }
                let ok = !po
                    && match class {
                        Num::I => add_i(i, pi),
                        Num::U => add_u(u, pu),
                        _ => add_f(f, pf),
                    };
                if ok {
                    *count += pc;
                } else {
                    *overflow = true;
                }
            }
            _ => {}
        }
    }

    fn finish(self, nullable: bool, region_cells: u64) -> AggregateValue {
        match self {
            Acc::Count(n) | Acc::NullCount(n) => AggregateValue::Uint(n),
            Acc::Sum {
                class,
                i,
                u,
                f,
                count,
                overflow,
                mean,
            } => {
                if nullable && (overflow || count == 0) {
                    return AggregateValue::Null;
                }
                if mean {
                    if overflow {
                        return AggregateValue::Float(f64::MAX);
                    }
                    let s = match class {
                        Num::I => i as f64,
                        Num::U => u as f64,
                        _ => f,
                    };
                    return AggregateValue::Float(s / count as f64);
                }
                match (class, overflow) {
                    (Num::I, true) => AggregateValue::Int(i64::MAX),
                    (Num::I, false) => AggregateValue::Int(i),
                    (Num::U, true) => AggregateValue::Uint(u64::MAX),
                    (Num::U, false) => AggregateValue::Uint(u),
                    (_, true) => AggregateValue::Float(f64::MAX),
                    (_, false) => AggregateValue::Float(f),
                }
            }
            Acc::Best { class, best, .. } => match best {
                Some(b) => b.value(),
                None if nullable || region_cells == 0 => AggregateValue::Null,
                // The engine's default of a non-nullable min/max with no
                // value (a dense region of cells nobody wrote).
                None => match class {
                    Num::I => AggregateValue::Int(0),
                    Num::U => AggregateValue::Uint(0),
                    Num::F => AggregateValue::Float(0.0),
                    Num::Text => AggregateValue::Text(Vec::new()),
                },
            },
        }
    }
}

/// One aggregate resolved against the schema.
struct Target {
    field: Option<FieldInfo>,
    acc: Acc,
    /// Dense sums, means, mins and maxes: the result of each part the
    /// engine's dense reader aggregates on its own (see `dense_aggregate`),
    /// keyed by the part's place in its order, merged into `acc` in that
    /// order at the end.
    parts: BTreeMap<Vec<i128>, Acc>,
}

/// The aggregates of `aggs` over the cells `query` selects (its attributes
/// and order do not matter), one value per aggregate.
pub fn aggregate(
    reader: &ArrayReader,
    query: &Query,
    aggs: &[Aggregate],
) -> Result<Vec<AggregateValue>> {
    aggregate_with_stats(reader, query, aggs).map(|(v, _)| v)
}

/// [`aggregate`], and how the result was found (tiles answered from
/// metadata, whether cells were read).
pub fn aggregate_with_stats(
    reader: &ArrayReader,
    query: &Query,
    aggs: &[Aggregate],
) -> Result<(Vec<AggregateValue>, AggregateStats)> {
    let root = reader.dir.root.clone();
    let qerr = |what: String| Error::Query {
        path: root.clone(),
        what,
    };
    let mut targets = Vec::with_capacity(aggs.len());
    for a in aggs {
        let field = match &a.field {
            None => None,
            Some(n) => Some(
                FieldInfo::lookup(&reader.schema, n)
                    .ok_or_else(|| qerr(format!("{a}: the array has no field {n:?}")))?,
            ),
        };
        let class = match &field {
            Some(f) => check(&root, a, f)?,
            None => None,
        };
        targets.push(Target {
            acc: Acc::new(a.op, class),
            field,
            parts: BTreeMap::new(),
        });
    }
    let bound = match &query.condition {
        Some(c) => Some(c.bind(reader)?),
        None => None,
    };
    let dims = dimensions(reader)?;
    let plan = Plan::new(reader, query, &dims)?;
    // The inner read: every attribute an aggregate or the condition names;
    // the condition is evaluated here (a dense read keeps the cells it
    // rejects, as fill values).
    let mut attrs: Vec<String> = Vec::new();
    let names = targets
        .iter()
        .filter_map(|t| t.field.as_ref().map(|f| f.name.clone()))
        .chain(
            query
                .condition
                .as_ref()
                .map(|c| c.field_names())
                .unwrap_or_default(),
        );
    for n in names {
        let is_attr = FieldInfo::lookup(&reader.schema, &n).is_some_and(|f| !f.is_dimension);
        if is_attr && !attrs.contains(&n) {
            attrs.push(n);
        }
    }
    let inner = Query {
        attributes: Some(attrs),
        subarray: plan.subarray.clone(),
        ranges: query.ranges.clone(),
        condition: None,
        order: None,
        batch_cells: query.batch_cells,
        memory_budget: query.memory_budget,
        skip_tiles: None,
        skip_coordinates: false,
    };
    let dense = reader.schema.array_type == ArrayType::Dense.value();
    let stats = if dense {
        dense_aggregate(reader, &dims, &plan, inner, bound.as_ref(), &mut targets)?
    } else {
        sparse_aggregate(reader, &dims, &plan, inner, bound.as_ref(), &mut targets)?
    };
    let region_cells = stats.1;
    let values = targets
        .into_iter()
        .map(|t| {
            let nullable = t.field.as_ref().is_some_and(|f| f.nullable);
            t.acc.finish(nullable, region_cells)
        })
        .collect();
    Ok((values, stats.0))
}

/// A dimension: its field, and for integer dimensions its domain and tile
/// extent.
struct Dim {
    field: FieldInfo,
    domain: Option<(i128, i128)>,
    extent: Option<i128>,
}

fn int_of(dt: Datatype, b: &[u8]) -> Option<i128> {
    match Bound::of_cell(dt, b)? {
        Bound::Int(v) => Some(v),
        _ => None,
    }
}

fn dimensions(reader: &ArrayReader) -> Result<Vec<Dim>> {
    reader
        .schema
        .domain
        .dimensions
        .iter()
        .map(|d| {
            let name = String::from_utf8_lossy(&d.name).into_owned();
            let field = FieldInfo::lookup(&reader.schema, &name)
                .filter(|f| f.is_dimension)
                .ok_or_else(|| Error::Unsupported {
                    path: reader.dir.root.clone(),
                    what: format!("dimension {name:?} has a datatype this crate does not know"),
                })?;
            let w = d.domain.len() / 2;
            let domain = (field.cell_val_num.is_some() && w > 0)
                .then(|| {
                    Some((
                        int_of(field.datatype, &d.domain[..w])?,
                        int_of(field.datatype, &d.domain[w..])?,
                    ))
                })
                .flatten();
            let extent = int_of(field.datatype, &d.tile_extent).filter(|e| *e > 0);
            Ok(Dim {
                field,
                domain,
                extent,
            })
        })
        .collect()
}

/// The region a query selects, as far as boxes go.
struct Plan {
    /// The integer box of the read (`None` for a dimension: unlimited).
    subarray: Option<Vec<Option<(i128, i128)>>>,
    /// Per dimension, the query's ranges (their union; empty: unlimited).
    ranges: Vec<Vec<DimRange>>,
    /// Per dimension, the box every cell lies in (`None`: unlimited).
    boxes: Vec<Option<(Bound, Bound)>>,
}

impl Plan {
    fn new(reader: &ArrayReader, q: &Query, dims: &[Dim]) -> Result<Plan> {
        let root = &reader.dir.root;
        let dense = reader.schema.array_type == ArrayType::Dense.value();
        for (name, rs) in &q.ranges {
            let d = dims
                .iter()
                .find(|d| d.field.name == *name)
                .ok_or_else(|| Error::Query {
                    path: root.clone(),
                    what: format!("the array has no dimension {name:?}"),
                })?;
            for r in rs {
                r.check(d.field.datatype).map_err(|what| Error::Query {
                    path: root.clone(),
                    what: format!("dimension {name:?}: {what}"),
                })?;
            }
        }
        // The engine bounds a dense read by the current domain when one
        // is set (and refuses ranges outside it), else by the domain.
        let current = if dense {
            reader.current_domain_ints()?
        } else {
            None
        };
        if let Some(cur) = &current {
            for (name, rs) in &q.ranges {
                let Some(i) = dims.iter().position(|d| d.field.name == *name) else {
                    continue;
                };
                let Some(&(cl, ch)) = cur.get(i) else {
                    continue;
                };
                for r in rs {
                    if let (Bound::Int(lo), Bound::Int(hi)) = (&r.lo, &r.hi) {
                        if *lo < cl || *hi > ch {
                            return Err(Error::Query {
                                path: root.clone(),
                                what: format!(
                                    "range {lo}:{hi} on {name:?} is outside the current domain {cl}:{ch}"
                                ),
                            });
                        }
                    }
                }
            }
        }
        let mut sub: Vec<Option<(i128, i128)>> = Vec::with_capacity(dims.len());
        let mut ranges = Vec::with_capacity(dims.len());
        let mut boxes = Vec::with_capacity(dims.len());
        for (i, d) in dims.iter().enumerate() {
            let mut b = q
                .subarray
                .as_ref()
                .and_then(|s| s.get(i).copied().flatten());
            let rs: Vec<DimRange> = q
                .ranges
                .iter()
                .filter(|(n, _)| *n == d.field.name)
                .flat_map(|(_, rs)| rs.iter().cloned())
                .collect();
            if rs.len() == 1 {
                // One integer range: the read's box too.
                if let (Bound::Int(lo), Bound::Int(hi)) = (&rs[0].lo, &rs[0].hi) {
                    b = Some(match b {
                        Some((l, h)) => (l.max(*lo), h.min(*hi)),
                        None => (*lo, *hi),
                    });
                }
            }
            if b.is_none() && dense && rs.is_empty() {
                // The engine reads a dense array's whole current domain,
                // else its whole domain.
                b = current
                    .as_ref()
                    .and_then(|c| c.get(i).copied())
                    .or(d.domain);
            }
            sub.push(b);
            boxes.push(b.map(|(l, h)| (Bound::Int(l), Bound::Int(h))));
            ranges.push(rs);
        }
        Ok(Plan {
            subarray: sub.iter().any(Option::is_some).then_some(sub),
            ranges,
            boxes,
        })
    }

    /// Whether `[lo, hi]` on dimension `d` lies inside the query.
    fn inside(&self, d: usize, lo: &Bound, hi: &Bound) -> bool {
        let rs = &self.ranges[d];
        (rs.is_empty() || rs.iter().any(|r| r.lo <= *lo && *hi <= r.hi))
            && self.boxes[d]
                .as_ref()
                .is_none_or(|(l, h)| l <= lo && hi <= h)
    }

    /// Whether `[lo, hi]` on dimension `d` may hold a cell of the query.
    fn meets(&self, d: usize, lo: &Bound, hi: &Bound) -> bool {
        let rs = &self.ranges[d];
        (rs.is_empty() || rs.iter().any(|r| r.overlaps(lo, hi)))
            && self.boxes[d]
                .as_ref()
                .is_none_or(|(l, h)| !(h < lo || l > hi))
    }
}

/// The bounds of an MBR or non-empty domain range of a dimension of `dt`.
fn range_bounds(dt: Datatype, r: &Range1D) -> Option<(Bound, Bound)> {
    let split = match r.min_length {
        Some(m) => usize::try_from(m).ok().filter(|m| *m <= r.range.len())?,
        None => r.range.len() / 2,
    };
    let (lo, hi) = r.range.split_at(split);
    Some((Bound::of_cell(dt, lo)?, Bound::of_cell(dt, hi)?))
}

/// A fragment's non-empty domain as bounds (`None`: not known).
fn ned_bounds(f: &Fragment, dims: &[Dim]) -> Option<Vec<(Bound, Bound)>> {
    let Metadata::Footer(footer) = &f.metadata else {
        return None;
    };
    let mbr = footer.non_empty_domain.as_ref()?;
    if mbr.ranges.len() != dims.len() {
        return None;
    }
    mbr.ranges
        .iter()
        .zip(dims)
        .map(|(r, d)| range_bounds(d.field.datatype, r))
        .collect()
}

/// A fragment's integer non-empty domain, from the same source as reads.
fn ned_ints(f: &Fragment) -> Option<Vec<(i128, i128)>> {
    f.non_empty_domain()
        .ok()??
        .iter()
        .map(|r| r.as_i128().map(|r| (r.start, r.end)))
        .collect()
}

/// The tile metadata of one field of one fragment, as far as it exists.
#[derive(Default)]
pub(crate) struct FieldMd {
    pub(crate) mins: Option<crate::format::TileMinMax>,
    pub(crate) maxes: Option<crate::format::TileMinMax>,
    pub(crate) sums: Option<Vec<u64>>,
    pub(crate) nulls: Option<Vec<u64>>,
}

impl FieldMd {
    pub(crate) fn load(
        f: &Fragment,
        field: &FieldInfo,
        reader: &ArrayReader,
        need: Need,
    ) -> Result<FieldMd> {
        let opts = reader.options();
        let Some(ff) = FieldInfo::lookup(&f.schema, &field.name) else {
            return Ok(FieldMd::default());
        };
        let nonempty = |t: Option<crate::format::TileMinMax>| t.filter(|t| t.fixed_size > 0);
        Ok(FieldMd {
            mins: if need.min {
                nonempty(f.tile_min_max(ff.idx, false, opts)?)
            } else {
                None
            },
            maxes: if need.max {
                nonempty(f.tile_min_max(ff.idx, true, opts)?)
            } else {
                None
            },
            sums: if need.sum {
                f.tile_sums(ff.idx, opts)?.map(|s| s.values)
            } else {
                None
            },
            nulls: if ff.nullable {
                f.tile_null_counts(ff.idx, opts)?.map(|s| s.values)
            } else {
                None
            },
        })
    }

    /// The min or max of tile `t` (a field of `cell_size` bytes, `None`:
    /// var-sized).
    pub(crate) fn value(
        tiles: &crate::format::TileMinMax,
        t: u64,
        cell_size: Option<u64>,
    ) -> Option<&[u8]> {
        let t = usize::try_from(t).ok()?;
        match cell_size {
            Some(cs) => {
                let cs = usize::try_from(cs).ok()?;
                tiles
                    .fixed
                    .get(t.checked_mul(cs)?..t.checked_mul(cs)?.checked_add(cs)?)
            }
            None => {
                let off = |i: usize| -> Option<usize> {
                    let b = tiles.fixed.get(i * 8..i * 8 + 8)?;
                    usize::try_from(u64::from_le_bytes(b.try_into().ok()?)).ok()
                };
                let start = off(t)?;
                let end = if (t + 1) * 8 < tiles.fixed.len() {
                    off(t + 1)?
                } else {
                    tiles.var.len()
                };
                tiles.var.get(start..end)
            }
        }
    }
}

/// What metadata a field's aggregates need.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Need {
    pub(crate) min: bool,
    pub(crate) max: bool,
    pub(crate) sum: bool,
    pub(crate) nulls: bool,
}

fn needs(targets: &[Target]) -> HashMap<String, (FieldInfo, Need)> {
    let mut out: HashMap<String, (FieldInfo, Need)> = HashMap::new();
    for t in targets {
        let Some(f) = &t.field else { continue };
        let e = out
            .entry(f.name.clone())
            .or_insert_with(|| (f.clone(), Need::default()));
        match &t.acc {
            Acc::Sum { .. } => e.1.sum = true,
            Acc::Best { max: false, .. } => e.1.min = true,
            Acc::Best { max: true, .. } => e.1.max = true,
            Acc::NullCount(_) => e.1.nulls = true,
            Acc::Count(_) => {}
        }
    }
    out
}

/// The metadata of tile `t` of one field, in the form [`Acc::tile`] takes;
/// `None` when something needed is missing.
#[allow(clippy::type_complexity)]
fn tile_md(
    md: &FieldMd,
    field: &FieldInfo,
    need: Need,
    t: u64,
) -> Option<(u64, Option<u64>, Option<Best>, Option<Best>)> {
    let ti = usize::try_from(t).ok()?;
    let nulls = if field.nullable {
        *md.nulls.as_ref()?.get(ti)?
    } else {
        0
    };
    let sum = if need.sum {
        Some(*md.sums.as_ref()?.get(ti)?)
    } else {
        None
    };
    let cs = field.cell_val_num.map(|_| field.cell_size());
    let class = class_of(field.datatype);
    let best = |tiles: &Option<crate::format::TileMinMax>| -> Option<Best> {
        let b = FieldMd::value(tiles.as_ref()?, t, cs)?;
        Best::of(class?, field.datatype, b)
    };
    let min = if need.min {
        Some(best(&md.mins)?)
    } else {
        None
    };
    let max = if need.max {
        Some(best(&md.maxes)?)
    } else {
        None
    };
    Some((nulls, sum, min, max))
}

/// Folds a batch of read cells into the targets; `keep(i, field)` says
/// whether cell `i` counts for the field's aggregates.
///
/// `part_of(i)` (dense reads) names the part cell `i` is aggregated in
/// (`Target::parts`).
fn fold_batch(
    cells: &Cells,
    mask: Option<&[bool]>,
    targets: &mut [Target],
    keep: &dyn Fn(usize, &str) -> bool,
    part_of: Option<&dyn Fn(usize) -> Vec<i128>>,
    count_all: bool,
) -> Result<u64> {
    let mut folded = 0;
    let cols: Vec<Option<&super::column::Column>> = targets
        .iter()
        .map(|t| t.field.as_ref().and_then(|f| cells.column(&f.name)))
        .collect();
    for i in 0..cells.len {
        let matched = mask.is_none_or(|m| m.get(i).copied().unwrap_or(false));
        if matched {
            folded += 1;
        }
        for (t, col) in targets.iter_mut().zip(&cols) {
            if let Acc::Count(n) = &mut t.acc {
                // Dense counts are the region's (counted by the caller).
                if !count_all && matched {
                    *n += 1;
                }
                continue;
            }
            if !matched {
                continue;
            }
            let (Some(f), Some(col)) = (&t.field, col) else {
                continue;
            };
            if !keep(i, &f.name) {
                continue;
            }
            match part_of {
                Some(part_of) if t.acc.by_parts() => t
                    .parts
                    .entry(part_of(i))
                    .or_insert_with(|| t.acc.fresh())
                    .cell(f.datatype, col.get(i)),
                _ => t.acc.cell(f.datatype, col.get(i)),
            }
        }
    }
    Ok(folded)
}

type Stats = (AggregateStats, u64);

fn dense_aggregate(
    reader: &ArrayReader,
    dims: &[Dim],
    plan: &Plan,
    inner: Query,
    bound: Option<&BoundCondition>,
    targets: &mut [Target],
) -> Result<Stats> {
    let mut stats = AggregateStats::default();
    let geo: Option<Vec<(i128, i128, i128)>> = dims
        .iter()
        .map(|d| Some((d.domain?.0, d.domain?.1, d.extent?)))
        .collect();
    let geo = geo.ok_or_else(|| Error::Unsupported {
        path: reader.dir.root.clone(),
        what: "dense arrays need integer dimensions with tile extents".into(),
    })?;
    let neds: Vec<Option<Vec<(i128, i128)>>> = reader.fragments.iter().map(ned_ints).collect();
    let region = dense_region(plan, dims.len());
    let empty = |r: &[Vec<(i128, i128)>]| r.iter().any(|ivs| ivs.iter().all(|(l, h)| l > h));
    let region_cells = region.as_ref().map(|r| {
        r.iter()
            .try_fold(1u128, |a, ivs| {
                let n = ivs
                    .iter()
                    .filter(|(l, h)| l <= h)
                    .map(|(l, h)| (h - l + 1) as u128)
                    .sum::<u128>();
                a.checked_mul(n)
            })
            .map_or(u64::MAX, |c| u64::try_from(c).unwrap_or(u64::MAX))
    });
    // Space tiles answered from metadata, per field.
    let mut md_tiles: HashMap<String, HashSet<Vec<i128>>> = HashMap::new();
    let mut need_read = region.is_none();
    let want = needs(targets);
    let col_major = Layout::from_value(reader.schema.tile_order) == Some(Layout::ColMajor);
    // A space tile's place in the tile order, as a key that sorts so.
    let tile_key = |tc: &[i128]| -> Vec<i128> {
        if col_major {
            tc.iter().rev().copied().collect()
        } else {
            tc.to_vec()
        }
    };
    // The engine's dense reader aggregates a cell slab of a tile (a run of
    // cells along the fastest dimension of the query's layout, row-major
    // here as TileDB-Py asks, inside one range) fragment by fragment,
    // newest first: each such part from scratch, merging the parts'
    // results in that order. When the layout is not the cell order of a
    // 2+-dimensional array, it goes cell by cell along the slab instead
    // (`stride != 1` in `DenseReader::aggregate_tiles`): each cell is a
    // part. A part's
    // key: the tile's, the slab's place in the tile, the fragment (newest
    // first), the cell (by cell only); `part_len` long.
    let cells_col_major = Layout::from_value(reader.schema.cell_order) == Some(Layout::ColMajor);
    let by_cell = cells_col_major && dims.len() > 1;
    let part_len = 2 * dims.len() + 2;
    if let (Some(region), None) = (&region, bound) {
        // The tiles of the region's bounding box.
        let t_lo: Vec<i128> = region
            .iter()
            .zip(&geo)
            .map(|(ivs, (dl, _, e))| {
                ivs.iter()
                    .map(|iv| (iv.0 - dl).div_euclid(*e))
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        let t_hi: Vec<i128> = region
            .iter()
            .zip(&geo)
            .map(|(ivs, (dl, _, e))| {
                ivs.iter()
                    .map(|iv| (iv.1 - dl).div_euclid(*e))
                    .max()
                    .unwrap_or(-1)
            })
            .collect();
        let tiles = t_lo
            .iter()
            .zip(&t_hi)
            .try_fold(1i128, |a, (l, h)| a.checked_mul((h - l + 1).max(0)));
        if empty(region) || tiles.is_none_or(|n| n > 1 << 16) {
            need_read = !empty(region);
        } else {
            let mut loaded: HashMap<(usize, String), FieldMd> = HashMap::new();
            let mut used: HashSet<(usize, u64)> = HashSet::new();
            let mut tc = t_lo.clone();
            'tiles: loop {
                let tbox: Vec<(i128, i128)> = tc
                    .iter()
                    .zip(&geo)
                    .map(|(t, (dl, _, e))| (dl + t * e, dl + (t + 1) * e - 1))
                    .collect();
                // The engine's dense reader takes a tile as covered when
                // every cell of it is in the query, by one range or by
                // several (a multi-range's union).
                let full = tbox
                    .iter()
                    .zip(region)
                    .all(|((tl, th), ivs)| ivs.iter().any(|(l, h)| l <= tl && th <= h));
                // The fragments of this tile, newest first, without those a
                // newer fragment covers here.
                let slice = |fi: usize| -> Option<Vec<(i128, i128)>> {
                    let n = neds[fi].as_ref()?;
                    let s: Vec<(i128, i128)> = n
                        .iter()
                        .zip(&tbox)
                        .map(|((l, h), (tl, th))| (*l.max(tl), *h.min(th)))
                        .collect();
                    (!s.iter().any(|(l, h)| l > h)).then_some(s)
                };
                let mut domains = Vec::new();
                let mut unknown = false;
                for fi in (0..reader.fragments.len()).rev() {
                    if neds[fi].is_none() {
                        unknown = true;
                    }
                    let Some(s) = slice(fi) else { continue };
                    let covered = (fi + 1..reader.fragments.len()).any(|j| {
                        slice(j).is_some_and(|n| {
                            n.iter()
                                .zip(&s)
                                .all(|((nl, nh), (l, h))| nl <= l && h <= nh)
                        })
                    });
                    if !covered {
                        domains.push(fi);
                    }
                }
                let mut tile_all_md = true;
                if full && domains.len() == 1 && !unknown {
                    let fi = domains[0];
                    let frag = &reader.fragments[fi];
                    let ned = neds[fi].as_ref().expect("known");
                    // The tile's place in the fragment: its tiles are the
                    // space tiles its domain touches, in tile order.
                    let f_lo: Vec<i128> = ned
                        .iter()
                        .zip(&geo)
                        .map(|((l, _), (dl, _, e))| (l - dl).div_euclid(*e))
                        .collect();
                    let f_n: Vec<i128> = ned
                        .iter()
                        .zip(&geo)
                        .zip(&f_lo)
                        .map(|(((_, h), (dl, _, e)), lo)| (h - dl).div_euclid(*e) - lo + 1)
                        .collect();
                    let step = |acc: i128, d: usize| acc * f_n[d] + (tc[d] - f_lo[d]);
                    let idx = if col_major {
                        (0..tc.len()).rev().fold(0, step)
                    } else {
                        (0..tc.len()).fold(0, step)
                    };
                    let cells: i128 = geo.iter().map(|g| g.2).product();
                    let version_ok =
                        frag.version() >= 11 && matches!(frag.metadata, Metadata::Footer(_));
                    for (name, (field, need)) in &want {
                        let eligible = version_ok
                            && !field.is_dimension
                            && !(matches!(field.datatype, Datatype::Char | Datatype::StringAscii)
                                && field.cell_val_num.is_some()
                                && field.nullable
                                && frag.version() <= 20);
                        let md = if eligible {
                            let key = (fi, name.clone());
                            if !loaded.contains_key(&key) {
                                let m = FieldMd::load(frag, field, reader, *need)?;
                                loaded.insert(key.clone(), m);
                            }
                            tile_md(&loaded[&key], field, *need, idx as u64)
                        } else {
                            None
                        };
                        let Some((nulls, sum, min, max)) = md else {
                            tile_all_md = false;
                            continue;
                        };
                        for t in targets.iter_mut() {
                            if t.field.as_ref().is_none_or(|f| f.name != *name)
                                || matches!(t.acc, Acc::Count(_))
                            {
                                continue;
                            }
                            let acc = if t.acc.by_parts() {
                                // The tile is one part, at its place.
                                let mut key = tile_key(&tc);
                                key.resize(part_len, 0);
                                t.parts.entry(key).or_insert_with(|| t.acc.fresh())
                            } else {
                                &mut t.acc
                            };
                            acc.tile(cells as u64, nulls, sum, min.clone(), max.clone());
                        }
                        md_tiles.entry(name.clone()).or_default().insert(tc.clone());
                        used.insert((fi, idx as u64));
                    }
                } else {
                    tile_all_md = false;
                }
                if !tile_all_md {
                    need_read = true;
                }
                // Next tile, row-major.
                for d in (0..tc.len()).rev() {
                    if tc[d] < t_hi[d] {
                        tc[d] += 1;
                        continue 'tiles;
                    }
                    tc[d] = t_lo[d];
                }
                break;
            }
            stats.tiles_from_metadata = used.len() as u64;
        }
    } else if let Some(region) = &region {
        need_read = !empty(region);
    }
    // With only counts to answer over a box, nothing needs reading.
    if want.is_empty() && region.is_some() {
        need_read = false;
    }
    // Cells no fragment wrote add nothing but to the count, which is the
    // region's: over a known region only the fragments' box is read (a
    // domain of 2^63 cells a side holds a few written ones).
    let mut inner = inner;
    if region.is_some() && neds.iter().all(Option::is_some) {
        let mut bbox: Option<Vec<(i128, i128)>> = None;
        for n in neds.iter().flatten() {
            bbox = Some(match bbox {
                None => n.clone(),
                Some(b) => b
                    .iter()
                    .zip(n)
                    .map(|((bl, bh), (l, h))| (*bl.min(l), *bh.max(h)))
                    .collect(),
            });
        }
        match bbox {
            None => need_read = false,
            Some(bbox) => {
                let sub: Vec<Option<(i128, i128)>> = (0..dims.len())
                    .map(|d| {
                        let (l, h) = bbox.get(d).copied().unwrap_or((0, -1));
                        let (l, h) = match plan.subarray.as_ref().and_then(|s| s[d]) {
                            Some((sl, sh)) => (l.max(sl), h.min(sh)),
                            None => (l, h),
                        };
                        Some((l, h))
                    })
                    .collect();
                if sub.iter().flatten().any(|(l, h)| l > h) {
                    need_read = false;
                } else {
                    inner.subarray = Some(sub);
                }
            }
        }
    }
    let mut counted: u64 = 0;
    if need_read {
        stats.cells_read = true;
        let nd = dims.len();
        for batch in reader.batches(&inner)? {
            let batch = batch?;
            let mask = bound.map(|b| b.evaluate(&batch)).transpose()?;
            let coords: Vec<Vec<i128>> = dims
                .iter()
                .map(|d| {
                    let col = batch.column(&d.field.name);
                    (0..batch.len)
                        .map(|i| {
                            col.and_then(|c| c.get(i))
                                .and_then(|b| int_of(d.field.datatype, b))
                                .unwrap_or(i128::MIN)
                        })
                        .collect()
                })
                .collect();
            // The newest fragment that wrote each cell.
            let owner: Vec<Option<usize>> = (0..batch.len)
                .map(|i| {
                    neds.iter().rposition(|n| {
                        n.as_ref().is_some_and(|n| {
                            (0..nd).all(|d| n[d].0 <= coords[d][i] && coords[d][i] <= n[d].1)
                        })
                    })
                })
                .collect();
            let keep = |i: usize, name: &str| -> bool {
                if owner[i].is_none() {
                    return false;
                }
                match md_tiles.get(name) {
                    None => true,
                    Some(set) => {
                        let tc: Vec<i128> = (0..nd)
                            .map(|d| (coords[d][i] - geo[d].0).div_euclid(geo[d].2))
                            .collect();
                        !set.contains(&tc)
                    }
                }
            };
            let part_of = |i: usize| -> Vec<i128> {
                let tc: Vec<i128> = (0..nd)
                    .map(|d| (coords[d][i] - geo[d].0).div_euclid(geo[d].2))
                    .collect();
                let mut key = tile_key(&tc);
                // The slab (along the layout's fastest dimension, the
                // last): the other dimensions' coordinates, then which
                // range of the fastest one it is in.
                let fastest = nd - 1;
                key.extend(coords[..fastest].iter().map(|c| c[i]));
                let x = coords[fastest][i];
                let range = region
                    .as_ref()
                    .and_then(|r| r[fastest].iter().position(|(l, h)| *l <= x && x <= *h))
                    .unwrap_or(0);
                key.push(range as i128);
                key.push(-(owner[i].unwrap_or(0) as i128));
                if by_cell {
                    key.push(x);
                }
                key.resize(part_len, 0);
                key
            };
            stats.cells_folded += fold_batch(
                &batch,
                mask.as_deref(),
                targets,
                &keep,
                Some(&part_of),
                true,
            )?;
            counted += batch.len as u64;
        }
    }
    for t in targets.iter_mut() {
        for part in std::mem::take(&mut t.parts).into_values() {
            t.acc.merge(part);
        }
    }
    // The engine counts every cell of the region, whatever the condition.
    let region_cells = region_cells.unwrap_or(counted);
    for t in targets.iter_mut() {
        if let Acc::Count(n) = &mut t.acc {
            *n = region_cells;
        }
    }
    Ok((stats, region_cells))
}

/// The region of a dense read, per dimension as disjoint integer
/// intervals in the query's order, a range that starts where the one
/// before it ends joined to it, as the engine's subarray coalesces them (a
/// multi-range; one interval without one). `None` when that is not known:
/// a dimension without a bound, or ranges that overlap.
fn dense_region(plan: &Plan, ndims: usize) -> Option<Vec<Vec<(i128, i128)>>> {
    (0..ndims)
        .map(|d| {
            let b = plan
                .subarray
                .as_ref()
                .and_then(|s| s.get(d).copied().flatten());
            let rs = &plan.ranges[d];
            if rs.len() <= 1 {
                // One range is already in the box.
                return b.map(|iv| vec![iv]);
            }
            let ivs: Vec<(i128, i128)> = rs
                .iter()
                .map(|r| match (&r.lo, &r.hi) {
                    (Bound::Int(l), Bound::Int(h)) => Some((*l, *h)),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let mut sorted = ivs.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[1].0 <= w[0].1) {
                return None;
            }
            let mut out: Vec<(i128, i128)> = Vec::with_capacity(ivs.len());
            for (l, h) in ivs {
                let (l, h) = match b {
                    Some((bl, bh)) => (l.max(bl), h.min(bh)),
                    None => (l, h),
                };
                if l > h {
                    continue;
                }
                match out.last_mut() {
                    Some(last) if last.1.checked_add(1) == Some(l) => last.1 = h,
                    _ => out.push((l, h)),
                }
            }
            Some(out)
        })
        .collect()
}

fn sparse_aggregate(
    reader: &ArrayReader,
    dims: &[Dim],
    plan: &Plan,
    mut inner: Query,
    bound: Option<&BoundCondition>,
    targets: &mut [Target],
) -> Result<Stats> {
    let mut stats = AggregateStats::default();
    let want = needs(targets);
    let allows_dups = reader.schema.allows_dups.unwrap_or(0) != 0;
    let neds: Vec<Option<Vec<(Bound, Bound)>>> = reader
        .fragments
        .iter()
        .map(|f| ned_bounds(f, dims))
        .collect();
    let delete_names: Vec<String> = reader
        .dir
        .deletes
        .iter()
        .map(|d| {
            d.path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut skip: HashSet<(usize, u64)> = HashSet::new();
    let mut need_read = false;
    let mut md_cells: u64 = 0;
    for (fi, frag) in reader.fragments.iter().enumerate() {
        let Metadata::Footer(footer) = &frag.metadata else {
            need_read = true;
            continue;
        };
        let usable = bound.is_none()
            && frag.version() >= 11
            && footer.includes_timestamps != Some(1)
            && want.values().all(|(f, _)| !f.is_dimension)
            && (delete_names.is_empty() || {
                let done = frag.processed_conditions(reader.options())?;
                delete_names.iter().all(|d| done.contains(d))
            });
        let rtree = frag.rtree(reader.options())?;
        let leaves = rtree.as_ref().and_then(|r| r.levels.last());
        let Some(leaves) = leaves.filter(|l| l.mbrs.len() as u64 == footer.sparse_tile_num) else {
            need_read = true;
            continue;
        };
        let mut loaded: HashMap<String, FieldMd> = HashMap::new();
        for (t, mbr) in leaves.mbrs.iter().enumerate() {
            let t = t as u64;
            let bounds: Option<Vec<(Bound, Bound)>> = mbr
                .ranges
                .iter()
                .zip(dims)
                .map(|(r, d)| range_bounds(d.field.datatype, r))
                .collect();
            let Some(bounds) = bounds.filter(|b| b.len() == dims.len()) else {
                need_read = true;
                continue;
            };
            if !bounds
                .iter()
                .enumerate()
                .all(|(d, (lo, hi))| plan.meets(d, lo, hi))
            {
                // No cell of the query here.
                continue;
            }
            let inside = bounds
                .iter()
                .enumerate()
                .all(|(d, (lo, hi))| plan.inside(d, lo, hi));
            let alone = allows_dups
                || neds.iter().enumerate().all(|(j, n)| {
                    j == fi
                        || n.as_ref().is_some_and(|n| {
                            !n.iter()
                                .zip(&bounds)
                                .all(|((nl, nh), (lo, hi))| !(nh < lo || nl > hi))
                        })
                });
            if !(usable && inside && alone) {
                need_read = true;
                continue;
            }
            let cells = if t + 1 == footer.sparse_tile_num {
                footer.last_tile_cell_num
            } else {
                frag.schema.capacity
            };
            let mut mds = Vec::new();
            for (name, (field, need)) in &want {
                if !loaded.contains_key(name) {
                    loaded.insert(name.clone(), FieldMd::load(frag, field, reader, *need)?);
                }
                let md = tile_md(&loaded[name], field, *need, t);
                // A saturated tile sum cannot be added to others: decode.
                let saturated =
                    md.as_ref()
                        .and_then(|m| m.1)
                        .is_some_and(|s| match class_of(field.datatype) {
                            Some(Num::I) => s == i64::MAX as u64 || s == i64::MIN as u64,
                            Some(Num::U) => s == u64::MAX,
                            _ => f64::from_bits(s).abs() == f64::MAX,
                        });
                match md {
                    Some(m) if !saturated => mds.push((name.clone(), m)),
                    _ => break,
                }
            }
            if mds.len() != want.len() {
                need_read = true;
                continue;
            }
            for (name, (nulls, sum, min, max)) in mds {
                for tg in targets.iter_mut() {
                    if tg.field.as_ref().is_some_and(|f| f.name == name)
                        && !matches!(tg.acc, Acc::Count(_))
                    {
                        tg.acc.tile(cells, nulls, sum, min.clone(), max.clone());
                    }
                }
            }
            for tg in targets.iter_mut() {
                if let Acc::Count(n) = &mut tg.acc {
                    *n += cells;
                }
            }
            md_cells += cells;
            skip.insert((fi, t));
        }
    }
    stats.tiles_from_metadata = skip.len() as u64;
    let mut folded = 0;
    if need_read {
        stats.cells_read = true;
        inner.skip_tiles = (!skip.is_empty()).then(|| Arc::new(skip));
        for batch in reader.batches(&inner)? {
            let batch = batch?;
            let mask = bound.map(|b| b.evaluate(&batch)).transpose()?;
            folded += fold_batch(&batch, mask.as_deref(), targets, &|_, _| true, None, false)?;
        }
    }
    stats.cells_folded = folded;
    Ok((stats, folded + md_cells))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_parse_with_whitespace_and_say_what_is_wrong() {
        let a = Aggregate::parse("  null_count ( n )").unwrap();
        assert_eq!(a.op, AggregateOp::NullCount);
        assert_eq!(a.field.as_deref(), Some("n"));
        assert_eq!(
            Aggregate::parse("COUNT( * )").unwrap().to_string(),
            "count(*)"
        );
        assert_eq!(
            Aggregate::parse(r#"mean("a b")"#).unwrap().field.as_deref(),
            Some("a b")
        );
        for bad in ["sum(*)", "sum()", "sum a", "median(a)", "sum(a"] {
            let e = Aggregate::parse(bad).unwrap_err();
            assert!(matches!(e, Error::Query { .. }), "{bad}: {e}");
        }
        assert!(Aggregate::parse("median(a)")
            .unwrap_err()
            .to_string()
            .contains("unknown aggregate"));
    }

    #[test]
    fn sums_overflow_as_the_engine_says() {
        let mut s = Acc::new(AggregateOp::Sum, Some(Num::I));
        s.cell(Datatype::Int64, Some(&i64::MAX.to_le_bytes()));
        s.cell(Datatype::Int64, Some(&1i64.to_le_bytes()));
        s.cell(Datatype::Int64, Some(&(-5i64).to_le_bytes()));
        assert_eq!(s.clone().finish(false, 3), AggregateValue::Int(i64::MAX));
        assert_eq!(s.finish(true, 3), AggregateValue::Null);
        let mut m = Acc::new(AggregateOp::Mean, Some(Num::U));
        m.cell(Datatype::Uint64, Some(&u64::MAX.to_le_bytes()));
        m.cell(Datatype::Uint64, Some(&1u64.to_le_bytes()));
        assert_eq!(m.finish(false, 2), AggregateValue::Float(f64::MAX));
        let mut f = Acc::new(AggregateOp::Sum, Some(Num::F));
        f.cell(Datatype::Float64, Some(&1.0f64.to_le_bytes()));
        f.cell(Datatype::Float64, Some(&f64::INFINITY.to_le_bytes()));
        assert_eq!(f.finish(false, 2), AggregateValue::Float(f64::MAX));
        // Below i64::MIN: also i64::MAX.
        let mut n = Acc::new(AggregateOp::Sum, Some(Num::I));
        n.cell(Datatype::Int64, Some(&i64::MIN.to_le_bytes()));
        n.cell(Datatype::Int64, Some(&(-1i64).to_le_bytes()));
        assert_eq!(n.finish(false, 2), AggregateValue::Int(i64::MAX));
    }

    #[test]
    fn empty_inputs_and_nulls() {
        let sum = Acc::new(AggregateOp::Sum, Some(Num::I));
        assert_eq!(sum.clone().finish(false, 0), AggregateValue::Int(0));
        assert_eq!(sum.finish(true, 0), AggregateValue::Null);
        let mean = Acc::new(AggregateOp::Mean, Some(Num::F));
        assert!(matches!(mean.finish(false, 0), AggregateValue::Float(v) if v.is_nan()));
        let min = Acc::new(AggregateOp::Min, Some(Num::I));
        assert_eq!(min.clone().finish(false, 0), AggregateValue::Null);
        assert_eq!(min.finish(false, 4), AggregateValue::Int(0));
        let mut mx = Acc::new(AggregateOp::Max, Some(Num::I));
        mx.cell(Datatype::Int32, None);
        mx.cell(Datatype::Int32, Some(&7i32.to_le_bytes()));
        mx.cell(Datatype::Int32, Some(&(-7i32).to_le_bytes()));
        assert_eq!(mx.finish(true, 3), AggregateValue::Int(7));
        let mut nc = Acc::new(AggregateOp::NullCount, None);
        nc.cell(Datatype::Int32, None);
        nc.cell(Datatype::Int32, Some(&[0; 4]));
        assert_eq!(nc.finish(true, 2), AggregateValue::Uint(1));
    }

    #[test]
    fn min_max_keep_a_first_nan_and_compare_strings_bytewise() {
        let mut m = Acc::new(AggregateOp::Min, Some(Num::F));
        m.cell(Datatype::Float32, Some(&1.5f32.to_le_bytes()));
        m.cell(Datatype::Float32, Some(&f32::NAN.to_le_bytes()));
        m.cell(Datatype::Float32, Some(&(-2.0f32).to_le_bytes()));
        assert_eq!(m.finish(false, 3), AggregateValue::Float(-2.0));
        let mut n = Acc::new(AggregateOp::Max, Some(Num::F));
        n.cell(Datatype::Float64, Some(&f64::NAN.to_le_bytes()));
        n.cell(Datatype::Float64, Some(&3.0f64.to_le_bytes()));
        assert!(matches!(n.finish(false, 2), AggregateValue::Float(v) if v.is_nan()));
        let mut s = Acc::new(AggregateOp::Max, Some(Num::Text));
        for w in [&b"abc"[..], b"abd", b"ab", b""] {
            s.cell(Datatype::StringAscii, Some(w));
        }
        assert_eq!(s.finish(false, 4), AggregateValue::Text(b"abd".to_vec()));
        let mut t = Acc::new(AggregateOp::Min, Some(Num::Text));
        for w in [&b"b"[..], b"ab", b"abc"] {
            t.cell(Datatype::StringAscii, Some(w));
        }
        assert_eq!(t.finish(false, 3), AggregateValue::Text(b"ab".to_vec()));
    }

    #[test]
    fn tile_extremes_merge_in_order_a_nan_tile_sticking_only_when_first() {
        let f = |v: f32| v.to_le_bytes();
        let tile = |vals: &[f32]| {
            let mut t = Acc::new(AggregateOp::Min, Some(Num::F));
            for v in vals {
                t.cell(Datatype::Float32, Some(&f(*v)));
            }
            t
        };
        // A tile that starts at a NaN is NaN, whatever follows in it.
        let nan_tile = tile(&[f32::NAN, 1.5, -4.0]);
        assert!(
            matches!(nan_tile.clone().finish(false, 3), AggregateValue::Float(v) if v.is_nan())
        );
        // A NaN tile after a value is passed over ...
        let mut m = Acc::new(AggregateOp::Min, Some(Num::F));
        m.merge(tile(&[2.0, 3.0]));
        m.merge(nan_tile.clone());
        m.merge(tile(&[1.0]));
        assert_eq!(m.finish(false, 6), AggregateValue::Float(1.0));
        // ... and sticks when first.
        let mut m = Acc::new(AggregateOp::Min, Some(Num::F));
        m.merge(nan_tile);
        m.merge(tile(&[1.0]));
        assert!(matches!(m.finish(false, 4), AggregateValue::Float(v) if v.is_nan()));
        // A tile with no value (all null) changes nothing.
        let mut m = Acc::new(AggregateOp::Max, Some(Num::F));
        m.merge(Acc::new(AggregateOp::Max, Some(Num::F)));
        m.merge(tile(&[5.0]).fresh());
        assert_eq!(m.finish(true, 2), AggregateValue::Null);
    }

    #[test]
    fn part_sums_start_afresh_and_an_overflow_sticks() {
        let part = |vals: &[f64]| {
            let mut t = Acc::new(AggregateOp::Sum, Some(Num::F));
            for v in vals {
                t.cell(Datatype::Float64, Some(&v.to_le_bytes()));
            }
            t
        };
        // One part: a NaN first hides the overflow of inf.
        let p = part(&[f64::NAN, f64::INFINITY]);
        assert!(matches!(p.clone().finish(false, 2), AggregateValue::Float(v) if v.is_nan()));
        // Two parts: inf alone overflows, and that sticks over the NaN.
        let mut s = Acc::new(AggregateOp::Sum, Some(Num::F));
        s.merge(part(&[f64::NAN]));
        s.merge(part(&[f64::INFINITY]));
        assert_eq!(s.finish(false, 2), AggregateValue::Float(f64::MAX));
        // Integer parts add up, their counts too (the mean).
        let ipart = |vals: &[i64]| {
            let mut t = Acc::new(AggregateOp::Mean, Some(Num::I));
            for v in vals {
                t.cell(Datatype::Int64, Some(&v.to_le_bytes()));
            }
            t
        };
        let mut m = Acc::new(AggregateOp::Mean, Some(Num::I));
        m.merge(ipart(&[1, 2]));
        m.merge(ipart(&[]));
        m.merge(ipart(&[6]));
        assert_eq!(m.finish(false, 3), AggregateValue::Float(3.0));
        let mut o = Acc::new(AggregateOp::Sum, Some(Num::I));
        o.merge(ipart(&[i64::MAX]).fresh());
        o.merge(ipart(&[i64::MAX]));
        o.merge(ipart(&[1]));
        o.merge(ipart(&[-5]));
        assert_eq!(o.finish(false, 4), AggregateValue::Int(i64::MAX));
    }

    #[test]
    fn tile_metadata_folds_like_cells() {
        let mut s = Acc::new(AggregateOp::Mean, Some(Num::I));
        s.tile(4, 1, Some((-6i64) as u64), None, None);
        s.cell(Datatype::Int16, Some(&10i16.to_le_bytes()));
        assert_eq!(s.finish(true, 5), AggregateValue::Float(1.0));
        let mut m = Acc::new(AggregateOp::Min, Some(Num::U));
        // A tile of nulls only says nothing.
        m.tile(2, 2, None, Some(Best::U(0)), Some(Best::U(0)));
        m.tile(2, 0, None, Some(Best::U(5)), Some(Best::U(9)));
        assert_eq!(m.finish(true, 4), AggregateValue::Uint(5));
    }

    #[test]
    fn values_as_json() {
        assert_eq!(AggregateValue::Float(f64::NAN).json(), json!("NaN"));
        assert_eq!(AggregateValue::Uint(u64::MAX).json(), json!(u64::MAX));
        assert_eq!(AggregateValue::Text(b"hi".to_vec()).json(), json!("hi"));
        assert_eq!(AggregateValue::Null.json(), Value::Null);
    }
}
