//! The ranges of a sparse read and the tiles they select: the typed ranges
//! of each dimension a query names, and per fragment the tiles whose MBRs
//! (in its R-tree) meet them; fragments whose non-empty domain misses the
//! ranges are skipped.

use crate::array::fragment::{dims_for, Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::version::has_split_coordinates;
use crate::format::{Datatype, Range1D};
use crate::read::array_reader::ArrayReader;
use crate::read::query::Query;
use crate::read::range::{Bound, DimRange};
use crate::ReadOptions;

/// The ranges of each dimension (an empty list: no limit).
pub(crate) type DimRanges = Vec<Vec<DimRange>>;

/// The bytes a decoded cell of `fields` takes, estimated (a var-sized
/// value: 40), for sizing reads to a memory budget.
pub(crate) fn cell_bytes<'a>(fields: impl Iterator<Item = &'a FieldInfo>) -> u64 {
    fields
        .map(|f| match f.cell_val_num {
            Some(_) => f.cell_size() + u64::from(f.nullable),
            None => 40,
        })
        .sum()
}

/// The bounds a `Range1D` (of an MBR or a non-empty domain) holds.
pub(super) fn range_bounds(dt: Datatype, r: &Range1D) -> Option<(Bound, Bound)> {
    let (lo, hi) = match r.min_length {
        Some(m) => {
            let m = usize::try_from(m).ok()?.min(r.range.len());
            (&r.range[..m], &r.range[m..])
        }
        None => r.range.split_at(r.range.len() / 2),
    };
    Some((Bound::of_cell(dt, lo)?, Bound::of_cell(dt, hi)?))
}

/// Whether the box of `bounds` meets the ranges (per dimension, one of its
/// ranges), and whether it lies inside them. Unknown bounds meet anything.
fn meets(ranges: &DimRanges, bounds: &[Option<(Bound, Bound)>]) -> (bool, bool) {
    let mut inside = true;
    for (rs, b) in ranges.iter().zip(bounds) {
        if rs.is_empty() {
            continue;
        }
        let Some((lo, hi)) = b else {
            inside = false;
            continue;
        };
        if !rs.iter().any(|r| r.overlaps(lo, hi)) {
            return (false, false);
        }
        inside &= rs.iter().any(|r| r.lo <= *lo && *hi <= r.hi);
    }
    (true, inside)
}

/// The tiles of `frag` the ranges may select, each with whether its MBR
/// lies inside them; `None` when the fragment has no R-tree to go by.
pub(crate) fn select_tiles(
    frag: &Fragment,
    dims: &[FieldInfo],
    ranges: &DimRanges,
    opts: &ReadOptions,
) -> Result<Option<Vec<(usize, bool)>>> {
    if !has_split_coordinates(frag.version()) || !matches!(frag.metadata, Metadata::Footer(_)) {
        return Ok(None);
    }
    let dts: Vec<Datatype> = dims.iter().map(|d| d.datatype).collect();
    // The fragment's non-empty domain first.
    if let Metadata::Footer(f) = &frag.metadata {
        if let Some(ned) = &f.non_empty_domain {
            let b: Vec<_> = ned
                .ranges
                .iter()
                .zip(&dts)
                .map(|(r, dt)| range_bounds(*dt, r))
                .collect();
            if !meets(ranges, &b).0 {
                return Ok(Some(Vec::new()));
            }
        }
    }
    let Some(rtree) = frag.rtree(opts)? else {
        return Ok(None);
    };
    let Some(leaves) = rtree.levels.last() else {
        return Ok(Some(Vec::new()));
    };
    let _ = dims_for(&frag.schema);
    let bounds: Vec<Vec<Option<(Bound, Bound)>>> = leaves
        .mbrs
        .iter()
        .map(|mbr| {
            mbr.ranges
                .iter()
                .zip(&dts)
                .map(|(r, dt)| range_bounds(*dt, r))
                .collect()
        })
        .collect();
    let picked: Vec<(usize, bool)> = bounds
        .iter()
        .enumerate()
        .filter_map(|(t, b)| {
            let (hit, inside) = meets(ranges, b);
            hit.then_some((t, inside))
        })
        .collect();
    // Tiles whose MBR meets the ranges but whose run of space tiles (in
    // global order, between their neighbours') does not: dropped.
    let boxed = ranges.iter().any(|rs| !rs.is_empty());
    let keep = if boxed && picked.iter().any(|(_, inside)| !inside) {
        in_order(frag, ranges, &bounds)
    } else {
        None
    };
    Ok(Some(match keep {
        Some(keep) => picked.into_iter().filter(|(t, _)| keep[*t]).collect(),
        None => picked,
    }))
}

/// Per tile of `frag` (the bounds of its MBR, `bounds[t]`), whether it
/// may hold cells of the hull of the ranges by the space tiles it can
/// cover in global order (see [`super::spans`]); `None` where that cannot
/// be told (no integer space tiles, an MBR bound unknown).
fn in_order(
    frag: &Fragment,
    ranges: &DimRanges,
    bounds: &[Vec<Option<(Bound, Bound)>>],
) -> Option<Vec<bool>> {
    let space =
        super::spans::SpaceTiles::new(&crate::write::order::GlobalOrder::new(&frag.schema))?;
    let int = |b: &Bound| match b {
        Bound::Int(v) => Some(*v),
        _ => None,
    };
    // Per dimension, the hull of its ranges (`None` inside: no range).
    let hull = ranges
        .iter()
        .map(|rs| {
            if rs.is_empty() {
                return Some(None);
            }
            let lo = rs.iter().map(|r| int(&r.lo)).collect::<Option<Vec<_>>>()?;
            let hi = rs.iter().map(|r| int(&r.hi)).collect::<Option<Vec<_>>>()?;
            let (lo, hi) = (lo.into_iter().min()?, hi.into_iter().max()?);
            Some(Some((lo, hi)))
        })
        .collect::<Option<Vec<_>>>()?;
    let query = space.corners(&hull)?;
    let tiles = bounds
        .iter()
        .map(|b| {
            let b = b
                .iter()
                .map(|x| x.as_ref().and_then(|(l, h)| Some(Some((int(l)?, int(h)?)))))
                .collect::<Option<Vec<_>>>()?;
            space.corners(&b)
        })
        .collect::<Option<Vec<_>>>()?;
    Some(super::spans::may_meet(&tiles, &query))
}

/// The low end on dimension `d` of the MBR of every tile the ranges may
/// select, over all fragments (fragments with no R-tree: `None`, the
/// caller cannot plan slabs).
pub(crate) fn tile_lows(
    frags: &[Fragment],
    dims: &[FieldInfo],
    ranges: &DimRanges,
    d: usize,
    opts: &ReadOptions,
) -> Result<Option<Vec<Bound>>> {
    let mut out = Vec::new();
    for f in frags {
        let Some(tiles) = select_tiles(f, dims, ranges, opts)? else {
            return Ok(None);
        };
        if tiles.is_empty() {
            continue;
        }
        let Some(rtree) = f.rtree(opts)? else {
            return Ok(None);
        };
        let Some(leaves) = rtree.levels.last() else {
            continue;
        };
        for (t, _) in tiles {
            let lo = leaves
                .mbrs
                .get(t)
                .and_then(|m| m.ranges.get(d))
                .and_then(|r| range_bounds(dims[d].datatype, r))
                .map(|(lo, _)| lo);
            match lo {
                Some(lo) => out.push(lo),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(out))
}

/// The largest value below `b` of its kind (for integer and float bounds).
pub(crate) fn below(b: &Bound) -> Option<Bound> {
    match b {
        Bound::Int(v) => Some(Bound::Int(v.checked_sub(1)?)),
        Bound::Float(v) if v.is_finite() => {
            let bits = v.to_bits();
            let down = if *v == 0.0 {
                -f64::from_bits(1)
            } else if *v > 0.0 {
                f64::from_bits(bits - 1)
            } else {
                f64::from_bits(bits + 1)
            };
            Some(Bound::Float(down))
        }
        _ => None,
    }
}

/// Whether a fragment's footer says it keeps per-cell timestamps, and
/// per-cell delete metadata.
pub(crate) fn special_fields(frag: &Fragment) -> (bool, bool) {
    match &frag.metadata {
        Metadata::Footer(f) => (
            f.includes_timestamps == Some(1),
            f.includes_delete_metadata == Some(1),
        ),
        _ => (false, false),
    }
}

impl ArrayReader {
    /// The typed ranges of each dimension of a query: its `ranges` (each
    /// checked against the dimension's datatype) and its old `subarray`.
    pub(crate) fn dim_ranges_of(&self, q: &Query, dims: &[FieldInfo]) -> Result<DimRanges> {
        // Per dimension, the ranges of each entry that names it; several
        // entries for one dimension intersect (as the old subarray does
        // with them), the ranges of one entry are a multi-range.
        let mut out: Vec<Option<Vec<DimRange>>> = vec![None; dims.len()];
        let mut add = |d: usize, rs: Vec<DimRange>| {
            out[d] = Some(match out[d].take() {
                None => rs,
                Some(prev) => intersect_ranges(&prev, &rs),
            });
        };
        for (name, rs) in &q.ranges {
            let d = dims
                .iter()
                .position(|d| d.name == *name)
                .ok_or_else(|| Error::Query {
                    path: self.dir.root.clone(),
                    what: format!(
                        "the array has no dimension {name:?} (its dimensions: {})",
                        dims.iter()
                            .map(|d| d.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })?;
            // The dimension's domain (fixed-size dimensions): a range that
            // reaches past it is refused, as the engine's subarray refuses
            // it ("out of domain bounds").
            let domain = self
                .schema
                .domain
                .dimensions
                .iter()
                .find(|s| s.name == name.as_bytes())
                .filter(|_| dims[d].cell_val_num.is_some())
                .and_then(|s| {
                    let w = dims[d].datatype.size() as usize;
                    let lo = Bound::of_cell(dims[d].datatype, s.domain.get(..w)?)?;
                    let hi = Bound::of_cell(dims[d].datatype, s.domain.get(w..2 * w)?)?;
                    Some((lo, hi))
                });
            for r in rs {
                r.check(dims[d].datatype).map_err(|what| Error::Query {
                    path: self.dir.root.clone(),
                    what: format!("range on {name:?}: {what}"),
                })?;
                if let Some((lo, hi)) = &domain {
                    if r.lo < *lo || r.hi > *hi {
                        return Err(Error::Query {
                            path: self.dir.root.clone(),
                            what: format!(
                                "range {}:{} on {name:?} is outside the domain {lo}:{hi}",
                                r.lo, r.hi
                            ),
                        });
                    }
                }
            }
            add(d, rs.clone());
        }
        if let Some(sub) = &q.subarray {
            for (d, r) in sub.iter().enumerate().take(dims.len()) {
                if let Some((lo, hi)) = r {
                    add(
                        d,
                        vec![DimRange {
                            lo: Bound::Int(*lo),
                            hi: Bound::Int(*hi),
                        }],
                    );
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|rs| match rs {
                // Nothing of the dimension is selected: a range no value is in.
                Some(rs) if rs.is_empty() => vec![DimRange {
                    lo: Bound::Int(1),
                    hi: Bound::Int(0),
                }],
                rs => rs.unwrap_or_default(),
            })
            .collect())
    }
}

fn intersect_ranges(a: &[DimRange], b: &[DimRange]) -> Vec<DimRange> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            if x.overlaps(&y.lo, &y.hi) {
                out.push(DimRange {
                    lo: if x.lo > y.lo {
                        x.lo.clone()
                    } else {
                        y.lo.clone()
                    },
                    hi: if x.hi < y.hi {
                        x.hi.clone()
                    } else {
                        y.hi.clone()
                    },
                });
            }
        }
    }
    out
}
