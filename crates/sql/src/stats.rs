//! The table's statistics, from fragment metadata: the row count, each
//! dimension's extent and, from the fragments' own min, max and null count
//! of each attribute (format version 12 on: numbers, and the var-sized
//! ASCII strings the engine keeps bounds of), each one's. Exact where
//! every stored cell is read (no overlap a read resolves, no delete), so
//! that DataFusion answers `count(*)`, `min` and `max` from them without
//! reading a tile; Inexact (bounds) otherwise. The same facts, per
//! fragment, give each partition's statistics and prune fragments
//! (`prune.rs`).

use datafusion::arrow::datatypes::{DataType, SchemaRef};
use datafusion::common::stats::Precision;
use datafusion::common::{ColumnStatistics, ScalarValue, Statistics};

use super::pushdown::{ColKind, Columns};
use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::format::{Datatype, DatatypeClass};
use tiledb_codec::raw::read::{Bound, DimRange};
use tiledb_codec::Array;

/// One column's bounds and null count in one fragment.
#[derive(Debug, Clone)]
pub(crate) struct ColFacts {
    /// The least and greatest non-null value (`None`: every cell null).
    pub bounds: Option<(ScalarValue, ScalarValue)>,
    pub nulls: u64,
}

/// What the metadata of one fragment says.
#[derive(Debug, Clone)]
pub(crate) struct FragFacts {
    /// Cells stored (sparse), or cells of the space tiles touched (dense).
    pub cells: Option<u64>,
    /// The non-empty domain, per dimension.
    pub ned: Option<Vec<(Bound, Bound)>>,
    /// Per column of the table (in its order): `None` where unknown.
    pub cols: Vec<Option<ColFacts>>,
    /// Whether the fragment keeps cell timestamps or delete timestamps
    /// (consolidated): several cells of one coordinate may then sit in it,
    /// and a read at a time, or after a delete, drops some of its cells.
    pub timestamps: bool,
}

/// The facts of every fragment of a table.
#[derive(Debug, Clone)]
pub(crate) struct Facts {
    pub frags: Vec<FragFacts>,
    /// Whether a read returns every stored cell, each once (then the
    /// fragments' statistics are the table's).
    pub exact: bool,
}

impl Facts {
    /// The facts of `array`'s fragments.
    pub(crate) fn of(array: &Array, columns: &Columns) -> Facts {
        let reader = tiledb_codec::raw::array_reader(array);
        let frags: Vec<FragFacts> = reader
            .fragments
            .iter()
            .map(|f| {
                let ned: Option<Vec<(Bound, Bound)>> =
                    f.non_empty_domain().ok().flatten().map(|n| {
                        n.into_iter()
                            .map(|r| {
                                let DimRange { lo, hi, .. } = DimRange::from(r);
                                (lo, hi)
                            })
                            .collect()
                    });
                let entries = f
                    .field_min_max_sum_null_counts(reader.options())
                    .ok()
                    .flatten();
                let cells = f.cell_num();
                let mut d = 0;
                let cols = columns
                    .cols
                    .iter()
                    .map(|col| match col.kind {
                        ColKind::Dim { .. } => {
                            let i = d;
                            d += 1;
                            let (lo, hi) = ned.as_ref()?.get(i)?;
                            Some(ColFacts {
                                bounds: Some((
                                    bound_scalar(lo, &col.arrow)?,
                                    bound_scalar(hi, &col.arrow)?,
                                )),
                                nulls: 0,
                            })
                        }
                        ColKind::Attr {
                            single: true,
                            enumerated: false,
                        } => {
                            let info = FieldInfo::lookup(&f.schema, &col.name)?;
                            if info.datatype != col.datatype || info.is_dimension {
                                return None;
                            }
                            let e = entries.as_ref()?.get(info.idx)?;
                            let bounds = if cells.is_some_and(|n| n == e.null_count) {
                                None
                            } else {
                                Some((
                                    scalar(&info, &e.min, &col.arrow)?,
                                    scalar(&info, &e.max, &col.arrow)?,
                                ))
                            };
                            Some(ColFacts {
                                bounds,
                                nulls: e.null_count,
                            })
                        }
                        ColKind::Attr { .. } => None,
                    })
                    .collect();
                let timestamps = matches!(
                    &f.metadata,
                    tiledb_codec::raw::array::fragment::Metadata::Footer(m)
                        if m.includes_timestamps == Some(1) || m.includes_delete_metadata == Some(1)
                );
                FragFacts {
                    cells,
                    ned,
                    cols,
                    timestamps,
                }
            })
            .collect();
        let exact = every_stored_cell_read(array, columns.dense, &frags);
        Facts { frags, exact }
    }
}

/// The table's statistics from fragment metadata.
pub(super) fn statistics(
    schema: &SchemaRef,
    columns: &Columns,
    spans: &[Option<(Bound, Bound)>],
    facts: &Facts,
) -> Statistics {
    let mut stats = Statistics::new_unknown(schema);
    stats.num_rows = if columns.dense {
        dense_rows(spans)
    } else {
        let counts: Option<u64> = facts
            .frags
            .iter()
            .map(|f| f.cells)
            .try_fold(0u64, |acc, n| acc.checked_add(n?));
        match counts.and_then(|c| usize::try_from(c).ok()) {
            Some(c) if facts.exact => Precision::Exact(c),
            Some(c) => Precision::Inexact(c),
            None => Precision::Absent,
        }
    };
    for (i, col) in columns.cols.iter().enumerate() {
        stats.column_statistics[i] = match &col.kind {
            ColKind::Dim {
                span: Some((lo, hi)),
            } => match (bound_scalar(lo, &col.arrow), bound_scalar(hi, &col.arrow)) {
                (Some(lo), Some(hi)) => ColumnStatistics {
                    min_value: Precision::Inexact(lo),
                    max_value: Precision::Inexact(hi),
                    null_count: Precision::Exact(0),
                    ..ColumnStatistics::new_unknown()
                },
                _ => ColumnStatistics::new_unknown(),
            },
            ColKind::Dim { span: None } => ColumnStatistics::new_unknown(),
            ColKind::Attr { .. } => attribute_statistics(
                facts.frags.iter(),
                i,
                !facts.frags.is_empty() && facts.exact,
            ),
        };
    }
    stats
}

/// The cells of a dense read without ranges: every cell of the extent.
pub(crate) fn dense_rows(spans: &[Option<(Bound, Bound)>]) -> Precision<usize> {
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
}

/// A dimension bound as a value of the column's Arrow type.
fn bound_scalar(b: &Bound, arrow: &DataType) -> Option<ScalarValue> {
    let v = match b {
        Bound::Int(v) => ScalarValue::Int64(Some(i64::try_from(*v).ok()?)),
        Bound::Float(v) => ScalarValue::Float64(Some(*v)),
        Bound::Text(_) => return None,
    };
    v.cast_to(arrow).ok()
}

/// Whether a read returns every cell the fragments store, each once: then
/// the fragments' own min, max, sum and null counts are the table's.
fn every_stored_cell_read(array: &Array, dense: bool, frags: &[FragFacts]) -> bool {
    let reader = tiledb_codec::raw::array_reader(array);
    // Dense: fragments that tile the box a read returns, none overlapping
    // another (else cells take fill values or overwrite each other).
    // Sparse: duplicates kept, else a read keeps the newest cell of a
    // coordinate (even within one fragment, consolidated with timestamps).
    let whole = if dense {
        frags.len() <= 1 || tile_the_box(frags)
    } else {
        array.schema().allows_duplicates
    };
    whole && reader.dir.condition_commits().is_empty() && frags.iter().all(|f| !f.timestamps)
}

/// Fragments past which dense fragments are not checked for overlaps.
const MAX_TILING_CHECK: usize = 4096;

/// Whether the fragments' integer non-empty domains are pairwise disjoint
/// and fill the box that bounds them: every cell of a dense read then
/// comes from exactly one fragment, and every cell a fragment wrote is
/// read.
fn tile_the_box(frags: &[FragFacts]) -> bool {
    if frags.len() > MAX_TILING_CHECK {
        return false;
    }
    let boxes: Option<Vec<Vec<(i128, i128)>>> = frags
        .iter()
        .map(|f| {
            f.ned
                .as_ref()?
                .iter()
                .map(|r| match r {
                    (Bound::Int(lo), Bound::Int(hi)) if lo <= hi => Some((*lo, *hi)),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let Some(boxes) = boxes else {
        return false;
    };
    let Some(first) = boxes.first() else {
        return false;
    };
    let volume = |b: &[(i128, i128)]| -> Option<i128> {
        b.iter()
            .try_fold(1i128, |v, (lo, hi)| v.checked_mul(hi.checked_sub(*lo)? + 1))
    };
    let mut hull = first.clone();
    let mut total = 0i128;
    for (i, b) in boxes.iter().enumerate() {
        if b.len() != hull.len() {
            return false;
        }
        for (h, r) in hull.iter_mut().zip(b) {
            *h = (h.0.min(r.0), h.1.max(r.1));
        }
        let Some(t) = volume(b).and_then(|v| total.checked_add(v)) else {
            return false;
        };
        total = t;
        let overlaps = boxes[..i]
            .iter()
            .any(|o| o.iter().zip(b).all(|(x, y)| x.0 <= y.1 && y.0 <= x.1));
        if overlaps {
            return false;
        }
    }
    volume(&hull) == Some(total)
}

/// Column `i`'s min, max and null count over `frags`: exact when `exact`
/// (every stored cell of them read), else bounds.
pub(crate) fn attribute_statistics<'a>(
    frags: impl Iterator<Item = &'a FragFacts>,
    i: usize,
    exact: bool,
) -> ColumnStatistics {
    let mut out = ColumnStatistics::new_unknown();
    let Some((min, max, nulls)) = fold(frags, i) else {
        return out;
    };
    let p = |v: ScalarValue| {
        if exact {
            Precision::Exact(v)
        } else {
            Precision::Inexact(v)
        }
    };
    out.min_value = min.map_or(Precision::Absent, p);
    out.max_value = max.map_or(Precision::Absent, p);
    out.null_count = match usize::try_from(nulls) {
        Ok(n) if exact => Precision::Exact(n),
        _ => Precision::Absent,
    };
    out
}

type MinMax = (Option<ScalarValue>, Option<ScalarValue>, u64);

/// The min and max of column `i` over the fragments (none where every
/// cell is null) and the sum of their null counts; `None` where a
/// fragment's are unknown.
fn fold<'a>(frags: impl Iterator<Item = &'a FragFacts>, i: usize) -> Option<MinMax> {
    let (mut min, mut max, mut nulls) = (None::<ScalarValue>, None::<ScalarValue>, 0u64);
    for f in frags {
        let c = f.cols.get(i)?.as_ref()?;
        nulls = nulls.checked_add(c.nulls)?;
        let Some((lo, hi)) = &c.bounds else {
            continue;
        };
        min = Some(match min {
            Some(m) if m.partial_cmp(lo)? != std::cmp::Ordering::Greater => m,
            _ => lo.clone(),
        });
        max = Some(match max {
            Some(m) if m.partial_cmp(hi)? != std::cmp::Ordering::Less => m,
            _ => hi.clone(),
        });
    }
    Some((min, max, nulls))
}

/// One stored min or max as a value of the field's Arrow type.
pub(crate) fn scalar(info: &FieldInfo, bytes: &[u8], arrow: &DataType) -> Option<ScalarValue> {
    let dt = info.datatype;
    let v = match dt.class() {
        DatatypeClass::Signed | DatatypeClass::Unsigned | DatatypeClass::Float
            if info.cell_val_num == Some(1) =>
        {
            match tiledb_codec::raw::model::value::scalar(dt, bytes)? {
                tiledb_codec::raw::model::value::Scalar::Int(v) => ScalarValue::Int64(Some(v)),
                tiledb_codec::raw::model::value::Scalar::Uint(v) => ScalarValue::UInt64(Some(v)),
                tiledb_codec::raw::model::value::Scalar::Float(v) if v.is_nan() => return None,
                tiledb_codec::raw::model::value::Scalar::Float(v) => ScalarValue::Float64(Some(v)),
                tiledb_codec::raw::model::value::Scalar::Bool(_) => return None,
            }
        }
        // Var-sized ASCII strings: the engine keeps bounds found with
        // `strncmp`, which is byte order for strings without a NUL byte
        // (two strings it orders wrongly share a prefix ending in NUL, as
        // does every string between them). A NUL in a bound: none taken.
        // An empty bound is unknown: a writer that keeps none leaves it
        // empty (only an empty max is ambiguous; both are refused).
        _ if text_bounds(dt, info.cell_val_num) && !bytes.contains(&0) && !bytes.is_empty() => {
            match arrow {
                DataType::LargeUtf8 | DataType::Utf8 | DataType::Utf8View => {
                    ScalarValue::LargeUtf8(Some(String::from_utf8(bytes.to_vec()).ok()?))
                }
                _ => ScalarValue::LargeBinary(Some(bytes.to_vec())),
            }
        }
        _ => return None,
    };
    v.cast_to(arrow).ok()
}

/// Whether fragments keep the bounds of a var-sized field of `dt`: the
/// engine's `has_min_max_metadata` keeps them for `CHAR` and
/// `STRING_ASCII` only.
fn text_bounds(dt: Datatype, cell_val_num: Option<u32>) -> bool {
    cell_val_num.is_none() && matches!(dt, Datatype::Char | Datatype::StringAscii)
}

/// The statistics of a partition that reads `slice` of the first
/// dimension: from the fragments whose non-empty domain meets it (not
/// `dropped` by pruning), exact where they all lie inside it, every stored
/// cell is read and nothing is `filtered` by a pushed range or condition.
/// `base` is the scan's statistics, of the columns `projection` names.
pub(crate) fn slice_statistics(
    base: &Statistics,
    projection: &[usize],
    columns: &Columns,
    facts: &Facts,
    dropped: Option<&[bool]>,
    slice: &DimRange,
    filtered: bool,
) -> Statistics {
    let mut s = base.clone().to_inexact();
    let (lo, hi) = (&slice.lo, &slice.hi);
    let first = |f: &FragFacts| f.ned.as_ref().and_then(|n| n.first().cloned());
    let frags: Vec<&FragFacts> = facts
        .frags
        .iter()
        .enumerate()
        .filter(|(i, _)| dropped.is_none_or(|d| d.get(*i) != Some(&true)))
        .map(|(_, f)| f)
        .filter(|f| first(f).is_none_or(|(a, b)| !(b < *lo || *hi < a)))
        .collect();
    let inside = frags
        .iter()
        .all(|f| first(f).is_some_and(|(a, b)| *lo <= a && b <= *hi));
    let exact = facts.exact && inside && !filtered && !columns.dense;
    if columns.dense {
        if !filtered {
            let spans: Vec<Option<(Bound, Bound)>> = columns
                .cols
                .iter()
                .filter_map(|c| match &c.kind {
                    ColKind::Dim { span } => Some(span.clone()),
                    ColKind::Attr { .. } => None,
                })
                .enumerate()
                .map(|(d, span)| {
                    if d == 0 {
                        span.map(|_| (lo.clone(), hi.clone()))
                    } else {
                        span
                    }
                })
                .collect();
            s.num_rows = dense_rows(&spans);
        }
    } else {
        let cells: Option<u64> = frags
            .iter()
            .map(|f| f.cells)
            .try_fold(0u64, |acc, n| acc.checked_add(n?));
        s.num_rows = match cells.and_then(|c| usize::try_from(c).ok()) {
            Some(c) if exact => Precision::Exact(c),
            Some(c) => Precision::Inexact(c),
            None => Precision::Absent,
        };
    }
    for (j, &c) in projection.iter().enumerate() {
        let Some(col) = columns.cols.get(c) else {
            continue;
        };
        let Some(out) = s.column_statistics.get_mut(j) else {
            continue;
        };
        match &col.kind {
            ColKind::Dim { span: Some((a, b)) } if c == 0 => {
                // The slice, within the cells' extent.
                let l = if lo > a { lo } else { a };
                let h = if hi < b { hi } else { b };
                if let (Some(l), Some(h)) =
                    (bound_scalar(l, &col.arrow), bound_scalar(h, &col.arrow))
                {
                    out.min_value = Precision::Inexact(l);
                    out.max_value = Precision::Inexact(h);
                }
            }
            ColKind::Dim { .. } => {}
            ColKind::Attr { .. } => {
                *out = attribute_statistics(frags.iter().copied(), c, exact && !frags.is_empty());
            }
        }
    }
    s
}
