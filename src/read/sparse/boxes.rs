//! The merge of a sparse read's fragments without a sort of every cell:
//! the newest cell of each coordinate found through a grid of the box the
//! cells span (when that box is small next to the number of cells), and
//! which fragments' tiles the condition may prune by their minimum and
//! maximum (a tile no possibly older fragment overlaps: its cells hide no
//! cell a read could return).

use super::select::{range_bounds, special_fields, DimRanges};
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::Result;
use crate::read::range::{Bound, DimRange};
use crate::read::sort_keys::SortKeys;
use crate::ReadOptions;

/// The box of a tile or fragment: per dimension its bounds (`None`: not
/// known, meets anything).
type Boxed = Vec<Option<(Bound, Bound)>>;

/// The coordinates a grid may hold, at most: this many per cell of the
/// read, and never fewer than `GRID_FLOOR`.
const GRID_PER_CELL: u64 = 4;
const GRID_FLOOR: u64 = 1 << 16;

/// The newest of the `n` cells at each coordinate, in row-major order of
/// the coordinates: each cell's keys placed in a grid of the box they span,
/// the newest (greatest `newest`) cell of each place kept. `None` when the
/// keys are not one exact number per dimension, or the box holds more than
/// [`GRID_PER_CELL`] places per cell (a sort is cheaper then).
pub(super) fn newest_by_grid<N: Ord>(
    keys: &SortKeys,
    n: usize,
    newest: impl Fn(usize) -> N,
) -> Option<Vec<usize>> {
    if !keys.exact || keys.general.is_some() || n == 0 || n >= u32::MAX as usize {
        return None;
    }
    let ks: Vec<&Vec<u64>> = keys
        .dims
        .iter()
        .map(|k| k.as_ref())
        .collect::<Option<_>>()?;
    if ks.is_empty() || ks.iter().any(|k| k.len() != n) {
        return None;
    }
    let limit = (n as u64).saturating_mul(GRID_PER_CELL).max(GRID_FLOOR);
    let mut lows = Vec::with_capacity(ks.len());
    let mut extents = Vec::with_capacity(ks.len());
    let mut places: u64 = 1;
    for k in &ks {
        let lo = k.iter().copied().min()?;
        let hi = k.iter().copied().max()?;
        let extent = (hi - lo).checked_add(1)?;
        places = places.checked_mul(extent).filter(|p| *p <= limit)?;
        lows.push(lo);
        extents.push(extent);
    }
    const NONE: u32 = u32::MAX;
    let mut slots = vec![NONE; usize::try_from(places).ok()?];
    for p in 0..n {
        let mut at = 0u64;
        for ((k, lo), ext) in ks.iter().zip(&lows).zip(&extents) {
            at = at * ext + (k[p] - lo);
        }
        let slot = &mut slots[at as usize];
        if *slot == NONE || newest(p) > newest(*slot as usize) {
            *slot = p as u32;
        }
    }
    Some(
        slots
            .into_iter()
            .filter(|s| *s != NONE)
            .map(|s| s as usize)
            .collect(),
    )
}

/// The boxes of a fragment: its non-empty domain, and its tiles' MBRs
/// (`None`: no R-tree to go by).
pub(super) struct FragBoxes {
    ned: Option<Boxed>,
    leaves: Option<Vec<Boxed>>,
}

impl FragBoxes {
    pub(super) fn of(frag: &Fragment, dims: &[FieldInfo], opts: &ReadOptions) -> Result<Self> {
        let boxed = |ranges: &[crate::format::Range1D]| -> Boxed {
            ranges
                .iter()
                .zip(dims)
                .map(|(r, d)| range_bounds(d.datatype, r))
                .chain(std::iter::repeat(None))
                .take(dims.len())
                .collect()
        };
        let ned = match &frag.metadata {
            Metadata::Footer(f) => f.non_empty_domain.as_ref().map(|n| boxed(&n.ranges)),
            Metadata::Legacy(_) => None,
        };
        let leaves = frag.rtree(opts)?.and_then(|r| {
            r.levels
                .last()
                .map(|l| l.mbrs.iter().map(|m| boxed(&m.ranges)).collect())
        });
        Ok(FragBoxes { ned, leaves })
    }

    /// The box of tile `t` (`None`: unknown).
    pub(super) fn tile(&self, t: usize) -> Option<&Boxed> {
        self.leaves.as_ref()?.get(t)
    }

    /// Whether the non-empty domains of the two fragments are known and
    /// do not meet.
    pub(super) fn ned_disjoint(&self, other: &FragBoxes) -> bool {
        let (Some(a), Some(b)) = (&self.ned, &other.ned) else {
            return false;
        };
        a.iter().zip(b).any(|(x, y)| match (x, y) {
            (Some((alo, ahi)), Some((blo, bhi))) => ahi < blo || bhi < alo,
            _ => false,
        })
    }

    /// Whether any cell of the fragment may lie in `b`.
    fn meets(&self, b: &Boxed) -> bool {
        let ranges: DimRanges = b
            .iter()
            .map(|x| match x {
                Some((lo, hi)) => vec![DimRange {
                    lo: lo.clone(),
                    hi: hi.clone(),
                }],
                None => Vec::new(),
            })
            .collect();
        let hit = |other: &Boxed| {
            ranges
                .iter()
                .zip(other)
                .all(|(rs, o)| match (rs.first(), o) {
                    (Some(r), Some((lo, hi))) => r.overlaps(lo, hi),
                    _ => true,
                })
        };
        if self.ned.as_ref().is_some_and(|n| !hit(n)) {
            return false;
        }
        match &self.leaves {
            Some(leaves) => leaves.iter().any(hit),
            None => true,
        }
    }
}

/// Whether a cell of fragment `k` (the `k`th of `frags`) may be older than
/// the cells of fragment `i`, which keeps no per-cell timestamps (all its
/// cells are written at its name's first timestamp). The newest write of a
/// coordinate is the one of the later timestamp, then the later fragment.
fn may_be_older(frags: &[Fragment], k: usize, i: usize) -> bool {
    if special_fields(&frags[k]).0 {
        return true;
    }
    let (tk, ti) = (frags[k].name.t1, frags[i].name.t1);
    !(tk > ti || (tk == ti && k > i))
}

/// Whether tile `t` of fragment `i` may be dropped from a read with a
/// condition its minimum and maximum rule out: only when no other fragment
/// that may hold older cells overlaps its MBR, since without duplicates
/// the tile's cells, which the condition drops, still hide the older
/// cells of their coordinates. A fragment keeping per-cell timestamps may
/// hold several writes of a coordinate: its tiles are never dropped this
/// way. `boxes` gives the boxes of each fragment, made on first use.
pub(super) fn prunable(
    frags: &[Fragment],
    i: usize,
    tile: &Boxed,
    boxes: &mut dyn FnMut(usize) -> Result<std::sync::Arc<FragBoxes>>,
) -> Result<bool> {
    if special_fields(&frags[i]).0 {
        return Ok(false);
    }
    for k in (0..frags.len()).filter(|k| *k != i) {
        if may_be_older(frags, k, i) && boxes(k)?.meets(tile) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether no two of the fragments `read` (indices into `frags`) may hold
/// a coordinate twice: none keeps per-cell timestamps, every non-empty
/// domain is known, and no two of them meet.
pub(super) fn disjoint_fragments(
    frags: &[Fragment],
    read: &[usize],
    boxes: &mut dyn FnMut(usize) -> Result<std::sync::Arc<FragBoxes>>,
) -> Result<bool> {
    if read.len() < 2 || read.len() > 64 {
        return Ok(read.len() == 1 && !special_fields(&frags[read[0]]).0);
    }
    let mut b = Vec::with_capacity(read.len());
    for &k in read {
        if special_fields(&frags[k]).0 {
            return Ok(false);
        }
        b.push(boxes(k)?);
    }
    for (x, bx) in b.iter().enumerate() {
        for by in &b[x + 1..] {
            if !bx.ned_disjoint(by) {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(x: Vec<u64>, y: Vec<u64>) -> SortKeys {
        SortKeys {
            dims: vec![Some(x), Some(y)],
            general: None,
            exact: true,
        }
    }

    #[test]
    fn the_grid_keeps_the_newest_cell_of_each_coordinate_in_row_major_order() {
        // Cells 0..5 at (x, y); cells 1 and 3 share (5, 1), 0 and 4 (2, 7).
        let k = keys(vec![2, 5, 3, 5, 2], vec![7, 1, 1, 1, 7]);
        let newest = [10, 1, 5, 2, 3];
        let order = newest_by_grid(&k, 5, |p| newest[p]).unwrap();
        assert_eq!(order, vec![0, 2, 3]);
        // A box of more places than the grid may hold: no grid.
        let far = keys(vec![0, 1 << 40], vec![0, 0]);
        assert!(newest_by_grid(&far, 2, |p| p).is_none());
        let inexact = SortKeys {
            exact: false,
            ..keys(vec![0], vec![0])
        };
        assert!(newest_by_grid(&inexact, 1, |p| p).is_none());
    }
}
