//! The table's statistics, from fragment metadata: the row count, each
//! dimension's extent and, from the fragments' own min, max, sum and null
//! count of each numeric attribute (format version 12 on), each one's.
//! Exact where every stored cell is read (no overlap a read resolves, no
//! delete), so that DataFusion answers `count(*)`, `min` and `max` from
//! them without reading a tile; Inexact (bounds) otherwise.

use datafusion::arrow::datatypes::SchemaRef;
use datafusion::common::stats::Precision;
use datafusion::common::{ScalarValue, Statistics};

use super::pushdown::{ColKind, Columns};
use crate::api::Array;
use crate::array::FieldInfo;
use crate::format::{DatatypeClass, FieldMinMaxSumNullCount};
use crate::read::Bound;

/// The table's statistics from fragment metadata.
pub(super) fn statistics(
    array: &Array,
    schema: &SchemaRef,
    columns: &Columns,
    spans: &[Option<(Bound, Bound)>],
) -> Statistics {
    let mut stats = Statistics::new_unknown(schema);
    stats.num_rows = if columns.dense {
        // A dense read without ranges returns every cell of the extent.
        let mut n: Option<usize> = Some(1);
        for s in spans {
            n = match s {
                Some((Bound::Int(lo), Bound::Int(hi))) => n.and_then(|n| {
                    usize::try_from(hi - lo + 1)
                        .ok()
                        .and_then(|k| n.checked_mul(k))
                }),
                None => Some(0),
                _ => None,
            };
        }
        n.map_or(Precision::Absent, Precision::Exact)
    } else {
        let counts: Option<u64> = array
            .array_reader()
            .fragments
            .iter()
            .map(|f| f.cell_num())
            .try_fold(0u64, |acc, n| acc.checked_add(n?));
        let exact = every_stored_cell_read(array, false);
        match counts.and_then(|c| usize::try_from(c).ok()) {
            Some(c) if exact => Precision::Exact(c),
            Some(c) => Precision::Inexact(c),
            None => Precision::Absent,
        }
    };
    for (i, col) in columns.cols.iter().enumerate() {
        let ColKind::Dim {
            span: Some((lo, hi)),
        } = &col.kind
        else {
            continue;
        };
        let scalar = |b: &Bound| -> Option<ScalarValue> {
            let v = match b {
                Bound::Int(v) => ScalarValue::Int64(Some(i64::try_from(*v).ok()?)),
                Bound::Float(v) => ScalarValue::Float64(Some(*v)),
                Bound::Text(_) => return None,
            };
            v.cast_to(&col.arrow).ok()
        };
        if let (Some(lo), Some(hi)) = (scalar(lo), scalar(hi)) {
            stats.column_statistics[i].min_value = Precision::Inexact(lo);
            stats.column_statistics[i].max_value = Precision::Inexact(hi);
            stats.column_statistics[i].null_count = Precision::Exact(0);
        }
    }
    attribute_statistics(array, columns, &mut stats);
    stats
}

/// Whether a read returns every cell the fragments store, each once: then
/// the fragments' own min, max, sum and null counts are the table's.
fn every_stored_cell_read(array: &Array, dense: bool) -> bool {
    let reader = array.array_reader();
    // Dense: one fragment is the whole box a read returns (more leave
    // cells to fill values or overwrite each other). Sparse: duplicates
    // kept, else a read keeps the newest cell of a coordinate (even within
    // one fragment, consolidated with timestamps).
    let whole = if dense {
        reader.fragments.len() <= 1
    } else {
        array.schema().allows_duplicates
    };
    whole && reader.dir.condition_commits().is_empty()
}

/// Each attribute's min, max and null count from the fragments' own
/// (format version 12 on), when every fragment was written with the
/// array's newest schema (field indexes then agree).
fn attribute_statistics(array: &Array, columns: &Columns, stats: &mut Statistics) {
    let reader = array.array_reader();
    if reader.fragments.is_empty() {
        return;
    }
    let newest = reader.dir.schemas.last().and_then(|e| e.path.file_name());
    let one_schema = reader
        .fragments
        .iter()
        .all(|f| newest.is_some_and(|n| n.to_string_lossy() == f.schema_name));
    if !one_schema {
        return;
    }
    let mut per_fragment = Vec::with_capacity(reader.fragments.len());
    for f in &reader.fragments {
        match f.field_min_max_sum_null_counts(reader.options()) {
            Ok(Some(v)) => per_fragment.push((v, f.cell_num())),
            _ => return,
        }
    }
    let exact = every_stored_cell_read(array, columns.dense);
    for (i, col) in columns.cols.iter().enumerate() {
        let ColKind::Attr {
            single: true,
            enumerated: false,
        } = col.kind
        else {
            continue;
        };
        let Some(info) = FieldInfo::lookup(&reader.schema, &col.name) else {
            continue;
        };
        let Some((min, max, nulls)) = fold(&per_fragment, &info, &col.arrow) else {
            continue;
        };
        let c = &mut stats.column_statistics[i];
        let p = |v: ScalarValue| {
            if exact {
                Precision::Exact(v)
            } else {
                Precision::Inexact(v)
            }
        };
        c.min_value = min.map_or(Precision::Absent, p);
        c.max_value = max.map_or(Precision::Absent, p);
        c.null_count = if exact {
            Precision::Exact(nulls)
        } else {
            Precision::Absent
        };
    }
}

type MinMax = (Option<ScalarValue>, Option<ScalarValue>, usize);

/// The min and max over the fragments' entries of one field (none where
/// every cell is null) and the sum of their null counts; `None` where a
/// fragment's entry cannot be read as a value of the field.
fn fold(
    per_fragment: &[(Vec<FieldMinMaxSumNullCount>, Option<u64>)],
    info: &FieldInfo,
    arrow: &datafusion::arrow::datatypes::DataType,
) -> Option<MinMax> {
    let (mut min, mut max, mut nulls) = (None::<ScalarValue>, None::<ScalarValue>, 0usize);
    for (entries, cells) in per_fragment {
        let e = entries.get(info.idx)?;
        nulls = nulls.checked_add(usize::try_from(e.null_count).ok()?)?;
        if cells.is_some_and(|n| n == e.null_count) {
            // Only nulls: no min or max to take.
            continue;
        }
        let lo = scalar(info, &e.min, arrow)?;
        let hi = scalar(info, &e.max, arrow)?;
        min = Some(match min {
            Some(m) if m.partial_cmp(&lo)? != std::cmp::Ordering::Greater => m,
            _ => lo,
        });
        max = Some(match max {
            Some(m) if m.partial_cmp(&hi)? != std::cmp::Ordering::Less => m,
            _ => hi,
        });
    }
    Some((min, max, nulls))
}

/// One stored min or max as a value of the field's Arrow type.
fn scalar(
    info: &FieldInfo,
    bytes: &[u8],
    arrow: &datafusion::arrow::datatypes::DataType,
) -> Option<ScalarValue> {
    let dt = info.datatype;
    let v = match dt.class() {
        DatatypeClass::Signed | DatatypeClass::Unsigned | DatatypeClass::Float
            if info.cell_val_num == Some(1) =>
        {
            match crate::value::scalar(dt, bytes)? {
                crate::value::Scalar::Int(v) => ScalarValue::Int64(Some(v)),
                crate::value::Scalar::Uint(v) => ScalarValue::UInt64(Some(v)),
                crate::value::Scalar::Float(v) if v.is_nan() => return None,
                crate::value::Scalar::Float(v) => ScalarValue::Float64(Some(v)),
                crate::value::Scalar::Bool(_) => return None,
            }
        }
        // Text: the stored bounds of var-sized fields are not kept by
        // every writer (an empty one cannot be told from an empty
        // string), so none are taken.
        _ => return None,
    };
    v.cast_to(arrow).ok()
}
