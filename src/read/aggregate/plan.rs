//! What an aggregate reads: its targets, the dimensions and ranges, tiles answered from their metadata.

use std::collections::{BTreeMap, HashMap};

use super::accumulate::*;
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{ArrayType, Datatype, Range1D};
use crate::read::column::Cells;
use crate::read::query::Query;
use crate::read::range::{Bound, DimRange};
use crate::read::ArrayReader;

/// One aggregate resolved against the schema.
pub(super) struct Target {
    pub(super) field: Option<FieldInfo>,
    pub(super) acc: Acc,
    /// Dense sums, means, mins and maxes: the result of each part the
    /// engine's dense reader aggregates on its own (see `dense_aggregate`),
    /// keyed by the part's place in its order, merged into `acc` in that
    /// order at the end.
    pub(super) parts: BTreeMap<Vec<i128>, Acc>,
}

/// A dimension: its field, and for integer dimensions its domain and tile
/// extent.
pub(super) struct Dim {
    pub(super) field: FieldInfo,
    pub(super) domain: Option<(i128, i128)>,
    pub(super) extent: Option<i128>,
}

pub(super) fn int_of(dt: Datatype, b: &[u8]) -> Option<i128> {
    match Bound::of_cell(dt, b)? {
        Bound::Int(v) => Some(v),
        _ => None,
    }
}

pub(super) fn dimensions(reader: &ArrayReader) -> Result<Vec<Dim>> {
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
pub(super) struct Plan {
    /// The integer box of the read (`None` for a dimension: unlimited).
    pub(super) subarray: Option<Vec<Option<(i128, i128)>>>,
    /// Per dimension, the query's ranges (their union; empty: unlimited).
    pub(super) ranges: Vec<Vec<DimRange>>,
    /// Per dimension, the box every cell lies in (`None`: unlimited).
    pub(super) boxes: Vec<Option<(Bound, Bound)>>,
}

impl Plan {
    pub(super) fn new(reader: &ArrayReader, q: &Query, dims: &[Dim]) -> Result<Plan> {
        let root = &reader.dir.root;
        let dense = reader.schema.array_type == ArrayType::Dense;
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
            if let Some((dl, dh)) = d.domain {
                for r in &rs {
                    inside_domain(root, &d.field.name, r, dl, dh)?;
                }
            }
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
    pub(super) fn inside(&self, d: usize, lo: &Bound, hi: &Bound) -> bool {
        let rs = &self.ranges[d];
        (rs.is_empty() || rs.iter().any(|r| r.lo <= *lo && *hi <= r.hi))
            && self.boxes[d]
                .as_ref()
                .is_none_or(|(l, h)| l <= lo && hi <= h)
    }

    /// Whether `[lo, hi]` on dimension `d` may hold a cell of the query.
    pub(super) fn meets(&self, d: usize, lo: &Bound, hi: &Bound) -> bool {
        let rs = &self.ranges[d];
        (rs.is_empty() || rs.iter().any(|r| r.overlaps(lo, hi)))
            && self.boxes[d]
                .as_ref()
                .is_none_or(|(l, h)| !(h < lo || l > hi))
    }
}

/// Refuses an integer range of a dimension that reaches past its
/// domain `dl..=dh`, as the engine's subarray refuses it ("out of domain
/// bounds") and as a read here does.
fn inside_domain(
    root: &std::path::Path,
    name: &str,
    r: &DimRange,
    dl: i128,
    dh: i128,
) -> Result<()> {
    match (&r.lo, &r.hi) {
        (Bound::Int(lo), Bound::Int(hi)) if *lo < dl || *hi > dh => Err(Error::Query {
            path: root.to_path_buf(),
            what: format!("range {lo}:{hi} on {name:?} is outside the domain {dl}:{dh}"),
        }),
        _ => Ok(()),
    }
}

/// The bounds of an MBR or non-empty domain range of a dimension of `dt`.
pub(super) fn range_bounds(dt: Datatype, r: &Range1D) -> Option<(Bound, Bound)> {
    let split = match r.min_length {
        Some(m) => usize::try_from(m).ok().filter(|m| *m <= r.range.len())?,
        None => r.range.len() / 2,
    };
    let (lo, hi) = r.range.split_at(split);
    Some((Bound::of_cell(dt, lo)?, Bound::of_cell(dt, hi)?))
}

/// A fragment's non-empty domain as bounds (`None`: not known).
pub(super) fn ned_bounds(f: &Fragment, dims: &[Dim]) -> Option<Vec<(Bound, Bound)>> {
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
pub(super) fn ned_ints(f: &Fragment) -> Option<Vec<(i128, i128)>> {
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

pub(super) fn needs(targets: &[Target]) -> HashMap<String, (FieldInfo, Need)> {
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
pub(super) fn tile_md(
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
pub(super) fn fold_batch(
    cells: &Cells,
    mask: Option<&[bool]>,
    targets: &mut [Target],
    keep: &dyn Fn(usize, &str) -> bool,
    part_of: Option<&dyn Fn(usize) -> Vec<i128>>,
    count_all: bool,
) -> Result<u64> {
    let mut folded = 0;
    let cols: Vec<Option<&crate::read::column::Column>> = targets
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
