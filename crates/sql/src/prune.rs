//! Fragments and tiles a scan need not read: DataFusion's
//! [`PruningPredicate`] of the filters a scan receives, over the same
//! min, max and null counts as the statistics (`stats.rs`) for fragments,
//! and over the tiles' own for the tiles of the fragments kept.
//!
//! Only sparse arrays are pruned (a dense read gives the cells of a pruned
//! fragment fill values, which a filter may keep). Dimension bounds prune
//! any fragment: the cells a fragment hides or shows share its coordinates.
//! Attribute bounds prune a fragment only where leaving it out shows no
//! other cell: duplicates kept, or no older fragment overlaps it and it
//! holds one cell per coordinate (no cell timestamps). Deletes only remove
//! cells, and the stored bounds hold the cells they remove: they change
//! nothing here. Floating-point bounds are not used: the engine's min and
//! max pass over NaN, which SQL orders above every number.

use std::collections::HashSet;
use std::sync::Arc;

use datafusion::arrow::array::{ArrayRef, BooleanArray, UInt64Array};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::pruning::PruningStatistics;
use datafusion::common::{Column, ScalarValue};
use datafusion::physical_optimizer::pruning::PruningPredicate;

use super::pushdown::{ColKind, Columns};
use super::stats::{ColFacts, Facts};
use tiledb_codec::raw::array::fragment::Metadata;
use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::read::Bound;
use tiledb_codec::Array;

/// Fragments past which overlaps are not looked for (attribute bounds are
/// then used only where duplicates are kept).
const MAX_OVERLAP_CHECK: usize = 4096;

/// What pruning left out of a scan.
#[derive(Debug, Clone)]
pub(crate) struct Pruned {
    /// The predicate over the statistics, as DataFusion shows it.
    pub predicate: String,
    /// Fragments left out, of how many.
    pub fragments: (usize, usize),
    /// Tiles left out (of the fragments kept), of how many looked at.
    pub tiles: (usize, usize),
    /// Per fragment, whether it is left out whole.
    pub dropped: Vec<bool>,
    /// The tiles not to read (`Query::skip_tiles`).
    pub skip: Option<Arc<HashSet<(usize, u64)>>>,
}

/// Prunes `array`'s fragments and tiles by `predicate` (over the table's
/// schema, naming the columns `used`). `None` for dense arrays.
pub(crate) fn prune(
    array: &Array,
    columns: &Columns,
    facts: &Facts,
    predicate: &PruningPredicate,
    used: &HashSet<String>,
) -> Option<Pruned> {
    if columns.dense {
        return None;
    }
    let reader = tiledb_codec::raw::array_reader(array);
    let n = facts.frags.len();
    if reader.fragments.len() != n {
        return None;
    }
    let dups = array.schema().allows_duplicates;
    let alone: Vec<bool> = (0..n).map(|i| dups || stands_alone(facts, i)).collect();
    let frag_stats = Containers {
        columns,
        cols: (0..columns.cols.len())
            .map(|c| {
                facts
                    .frags
                    .iter()
                    .enumerate()
                    .map(|(i, f)| {
                        let dim = matches!(columns.cols[c].kind, ColKind::Dim { .. });
                        if dim || alone[i] {
                            f.cols.get(c).cloned().flatten()
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect(),
        rows: facts.frags.iter().map(|f| f.cells).collect(),
    };
    let keep = predicate.prune(&frag_stats).ok()?;
    let dropped: Vec<bool> = keep.iter().map(|k| !k).collect();
    let mut skip = HashSet::new();
    let (mut tiles_pruned, mut tiles_seen) = (0, 0);
    for (fi, f) in reader.fragments.iter().enumerate() {
        let Metadata::Footer(footer) = &f.metadata else {
            continue;
        };
        let tiles = footer.sparse_tile_num;
        if dropped[fi] {
            skip.extend((0..tiles).map(|t| (fi, t)));
            continue;
        }
        if !alone[fi] || tiles < 2 {
            continue;
        }
        let Some(stats) = tile_containers(array, columns, used, fi, tiles) else {
            continue;
        };
        let Ok(keep) = predicate.prune(&stats) else {
            continue;
        };
        tiles_seen += keep.len();
        for (t, k) in keep.iter().enumerate() {
            if !k {
                tiles_pruned += 1;
                skip.insert((fi, t as u64));
            }
        }
    }
    Some(Pruned {
        predicate: predicate.predicate_expr().to_string(),
        fragments: (dropped.iter().filter(|d| **d).count(), n),
        tiles: (tiles_pruned, tiles_seen),
        dropped,
        skip: (!skip.is_empty()).then(|| Arc::new(skip)),
    })
}

/// Whether no fragment older than fragment `i` overlaps it and it holds
/// one cell per coordinate: then leaving it out shows no other cell.
fn stands_alone(facts: &Facts, i: usize) -> bool {
    let f = &facts.frags[i];
    if f.timestamps || facts.frags.len() > MAX_OVERLAP_CHECK {
        return false;
    }
    let Some(ned) = &f.ned else {
        return false;
    };
    facts.frags[..i].iter().all(|g| match &g.ned {
        Some(other) => other
            .iter()
            .zip(ned)
            .any(|((lo, hi), (a, b))| disjoint(lo, hi, a, b)),
        None => false,
    })
}

/// Whether `[lo, hi]` and `[a, b]` share no value.
fn disjoint(lo: &Bound, hi: &Bound, a: &Bound, b: &Bound) -> bool {
    hi < a || b < lo
}

/// The tiles of fragment `fi` as containers: the tile min, max and null
/// count of each attribute `used`. `None` where the fragment keeps none.
fn tile_containers<'a>(
    array: &Array,
    columns: &'a Columns,
    used: &HashSet<String>,
    fi: usize,
    tiles: u64,
) -> Option<Containers<'a>> {
    let reader = tiledb_codec::raw::array_reader(array);
    let f = reader.fragments.get(fi)?;
    let Metadata::Footer(footer) = &f.metadata else {
        return None;
    };
    let n = usize::try_from(tiles).ok()?;
    let cap = f.schema.capacity;
    let rows: Vec<Option<u64>> = (0..tiles)
        .map(|t| {
            Some(if t + 1 == tiles {
                footer.last_tile_cell_num
            } else {
                cap
            })
        })
        .collect();
    let opts = reader.options();
    let cols = columns
        .cols
        .iter()
        .map(|col| {
            let unknown = vec![None; n];
            if !matches!(
                col.kind,
                ColKind::Attr {
                    single: true,
                    enumerated: false
                }
            ) || is_float(&col.arrow)
                || !used.contains(&col.name)
            {
                return unknown;
            }
            let Some(info) = FieldInfo::lookup(&f.schema, &col.name) else {
                return unknown;
            };
            if info.datatype != col.datatype {
                return unknown;
            }
            let mins = f.tile_min_max(info.idx, false, opts).ok().flatten();
            let maxs = f.tile_min_max(info.idx, true, opts).ok().flatten();
            let nulls = if info.nullable {
                match f.tile_null_counts(info.idx, opts).ok().flatten() {
                    Some(c) if c.values.len() == n => Some(c.values),
                    _ => return unknown,
                }
            } else {
                None
            };
            let (Some(mins), Some(maxs)) = (mins, maxs) else {
                return unknown;
            };
            (0..n)
                .map(|t| {
                    let nulls_t = nulls.as_ref().map_or(0, |v| v[t]);
                    if rows[t] == Some(nulls_t) {
                        return Some(ColFacts {
                            bounds: None,
                            nulls: nulls_t,
                        });
                    }
                    let lo = tile_value(&info, &mins.fixed, &mins.var, t, n)?;
                    let hi = tile_value(&info, &maxs.fixed, &maxs.var, t, n)?;
                    Some(ColFacts {
                        bounds: Some((
                            super::stats::scalar(&info, lo, &col.arrow)?,
                            super::stats::scalar(&info, hi, &col.arrow)?,
                        )),
                        nulls: nulls_t,
                    })
                })
                .collect()
        })
        .collect();
    Some(Containers {
        columns,
        cols,
        rows,
    })
}

/// Tile `t`'s stored min or max of `info` (of `n` tiles): fixed-size
/// fields hold one cell per tile, var-sized ones an offset per tile into
/// `var`.
fn tile_value<'a>(
    info: &FieldInfo,
    fixed: &'a [u8],
    var: &'a [u8],
    t: usize,
    n: usize,
) -> Option<&'a [u8]> {
    match info.cell_val_num {
        Some(k) => {
            let w = usize::try_from(u64::from(k).checked_mul(info.datatype.size())?).ok()?;
            fixed.get(t.checked_mul(w)?..t.checked_mul(w)?.checked_add(w)?)
        }
        None => {
            let at = |i: usize| -> Option<usize> {
                let b = fixed.get(i * 8..i * 8 + 8)?;
                usize::try_from(u64::from_le_bytes(b.try_into().ok()?)).ok()
            };
            let s = at(t)?;
            let e = if t + 1 == n { var.len() } else { at(t + 1)? };
            var.get(s..e)
        }
    }
}

fn is_float(t: &DataType) -> bool {
    matches!(t, DataType::Float16 | DataType::Float32 | DataType::Float64)
}

/// Containers (fragments or tiles) as DataFusion's pruning reads them:
/// per table column, each container's facts (`None`: unknown).
struct Containers<'a> {
    columns: &'a Columns,
    cols: Vec<Vec<Option<ColFacts>>>,
    rows: Vec<Option<u64>>,
}

impl Containers<'_> {
    fn column(&self, c: &Column) -> Option<(usize, &DataType)> {
        let i = self.columns.cols.iter().position(|x| x.name == c.name)?;
        let t = &self.columns.cols[i].arrow;
        (!is_float(t)).then_some((i, t))
    }

    fn bound(&self, c: &Column, max: bool) -> Option<ArrayRef> {
        let (i, t) = self.column(c)?;
        let null = ScalarValue::try_from(t).ok()?;
        let values = self.cols[i].iter().map(|f| {
            f.as_ref().and_then(|f| f.bounds.as_ref()).map_or_else(
                || null.clone(),
                |(lo, hi)| if max { hi } else { lo }.clone(),
            )
        });
        ScalarValue::iter_to_array(values).ok()
    }
}

impl PruningStatistics for Containers<'_> {
    fn min_values(&self, column: &Column) -> Option<ArrayRef> {
        self.bound(column, false)
    }

    fn max_values(&self, column: &Column) -> Option<ArrayRef> {
        self.bound(column, true)
    }

    fn num_containers(&self) -> usize {
        self.rows.len()
    }

    fn null_counts(&self, column: &Column) -> Option<ArrayRef> {
        let (i, _) = self.column(column)?;
        let v: UInt64Array = self.cols[i]
            .iter()
            .map(|f| f.as_ref().map(|f| f.nulls))
            .collect();
        Some(Arc::new(v))
    }

    fn row_counts(&self) -> Option<ArrayRef> {
        let v: UInt64Array = self.rows.iter().copied().collect();
        Some(Arc::new(v))
    }

    fn contained(&self, _column: &Column, _values: &HashSet<ScalarValue>) -> Option<BooleanArray> {
        None
    }
}
