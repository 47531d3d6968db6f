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

use std::collections::BTreeMap;

use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::ArrayType;
use crate::read::query::Query;
use crate::read::ArrayReader;

mod accumulate;
mod dense;
mod parse;
mod plan;
mod sparse;
#[cfg(test)]
mod tests;

pub use parse::{Aggregate, AggregateOp, AggregateStats, AggregateValue};
pub(crate) use plan::{FieldMd, Need};

use accumulate::*;
use dense::*;
use plan::*;
use sparse::*;

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
/// A vacuum beside it does not make it fail ([`ArrayReader::retrying`]).
pub fn aggregate_with_stats(
    reader: &ArrayReader,
    query: &Query,
    aggs: &[Aggregate],
) -> Result<(Vec<AggregateValue>, AggregateStats)> {
    reader.retrying(|r| aggregate_once(r, query, aggs))
}

fn aggregate_once(
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
    let dense = reader.schema.array_type == ArrayType::Dense;
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
