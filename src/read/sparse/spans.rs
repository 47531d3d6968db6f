//! Which of a fragment's tiles can hold cells of a box, from the global
//! order as well as from their MBRs.
//!
//! A sparse fragment's cells lie in global order: space tiles in tile
//! order, then cells in cell order (tiledb/sm/misc/comparators.h
//! `GlobalCmp`). So each data tile covers a run of consecutive space tiles,
//! from the space tile of its first cell to that of its last, and the runs
//! of consecutive data tiles follow each other. A data tile whose cells
//! span several space tiles has an MBR far larger than the space tiles it
//! covers: a box meeting that MBR may meet none of them. The MBRs bound
//! each run at both ends (the first cell's space tile on the slowest
//! dimension is the MBR's low end there, the last cell's the high end), and
//! a run starts no earlier than the previous tile's run ends and ends no
//! later than the next tile's run starts; a tile none of whose possible
//! space tiles the box meets holds none of its cells.
//!
//! Space tiles are named by their index along each dimension, in tile
//! order (the slowest-varying first); they compare lexicographically.

use crate::format::Layout;
use crate::write::order::{Coord, GlobalOrder};

/// A space tile: its index along each dimension, in tile order.
type Space = Vec<u64>;

/// How a fragment's coordinates map to space tiles: per dimension in tile
/// order, its place in the schema, the domain's low end and the tile
/// extent (integer dimensions only).
pub(super) struct SpaceTiles {
    dims: Vec<(usize, i128, i128, i128)>,
}

impl SpaceTiles {
    /// The space tiles of `order`'s schema; `None` where the global order
    /// is not by space tiles (Hilbert cell order) or a dimension has no
    /// integer domain and extent.
    pub(super) fn new(order: &GlobalOrder) -> Option<Self> {
        if order.is_hilbert() {
            return None;
        }
        let mut dims = Vec::with_capacity(order.dims.len());
        for (d, o) in order.dims.iter().enumerate() {
            match (o.lo, o.hi, o.extent) {
                (Some(Coord::Int(lo)), Some(Coord::Int(hi)), Some(Coord::Int(e))) if e > 0 => {
                    dims.push((d, lo, hi, e));
                }
                _ => return None,
            }
        }
        if order.tile_order == Layout::ColMajor {
            dims.reverse();
        }
        Some(SpaceTiles { dims })
    }

    /// The space tile index of `v` along the `k`-th dimension in tile
    /// order (values outside the domain clamped to it).
    fn index(&self, k: usize, v: i128) -> u64 {
        let (_, lo, hi, e) = self.dims[k];
        u64::try_from((v.clamp(lo, hi) - lo) / e).unwrap_or(u64::MAX)
    }

    /// The space tiles a box of per-dimension integer bounds (in schema
    /// order; `None`: the whole domain) meets, as their low and high
    /// corners.
    pub(super) fn corners(&self, bounds: &[Option<(i128, i128)>]) -> Option<(Space, Space)> {
        let mut lo = Vec::with_capacity(self.dims.len());
        let mut hi = Vec::with_capacity(self.dims.len());
        for (k, &(d, dlo, dhi, _)) in self.dims.iter().enumerate() {
            let (a, b) = bounds.get(d)?.unwrap_or((dlo, dhi));
            lo.push(self.index(k, a));
            hi.push(self.index(k, b));
        }
        Some((lo, hi))
    }
}

/// Per tile (given by the space tiles its MBR meets, `tiles[i]`, the tiles
/// in the fragment's order), whether it may hold cells of the space tiles
/// `query` meets (its low and high corners).
pub(super) fn may_meet(tiles: &[(Space, Space)], query: &(Space, Space)) -> Vec<bool> {
    let n = tiles.len();
    // The earliest space tile each tile's first cell can lie in: its own
    // MBR's bound, and no earlier than the previous tile's last cell.
    let mut first_lo: Vec<Space> = Vec::with_capacity(n);
    let mut last_lo: Option<Space> = None;
    for (lo, hi) in tiles {
        let mut f = lo.clone();
        if let Some(prev) = &last_lo {
            f = f.max(prev.clone());
        }
        let l = ends(lo, hi, false).max(f.clone());
        first_lo.push(f);
        last_lo = Some(l);
    }
    // The latest space tile each tile's last cell can lie in, likewise.
    let mut last_hi: Vec<Space> = vec![Vec::new(); n];
    let mut next_first_hi: Option<Space> = None;
    for i in (0..n).rev() {
        let (lo, hi) = &tiles[i];
        let mut l = hi.clone();
        if let Some(next) = &next_first_hi {
            l = l.min(next.clone());
        }
        next_first_hi = Some(ends(lo, hi, true).min(l.clone()));
        last_hi[i] = l;
    }
    tiles
        .iter()
        .enumerate()
        .map(|(i, (lo, hi))| {
            // The space tiles both the MBR and the query meet.
            let r_lo: Space = lo.iter().zip(&query.0).map(|(a, b)| *a.max(b)).collect();
            let r_hi: Space = hi.iter().zip(&query.1).map(|(a, b)| *a.min(b)).collect();
            if r_lo.iter().zip(&r_hi).any(|(a, b)| a > b) {
                return false;
            }
            least_at_or_after(&r_lo, &r_hi, &first_lo[i]).is_some_and(|s| s <= last_hi[i])
        })
        .collect()
}

/// A bound of the space tile of a tile's first cell (`first`) or last cell
/// (else) from its MBR's space tiles `lo`..`hi`: along the dimensions
/// where `lo` and `hi` agree and the first where they differ, the first
/// cell lies at `lo` and the last at `hi`; past those, anywhere in the
/// MBR. Returns the latest the first cell can be, or the earliest the
/// last cell can be.
fn ends(lo: &[u64], hi: &[u64], first: bool) -> Space {
    let k = lo
        .iter()
        .zip(hi)
        .position(|(a, b)| a != b)
        .unwrap_or(lo.len());
    let (exact, rest) = if first { (lo, hi) } else { (hi, lo) };
    exact
        .iter()
        .take(k + 1)
        .chain(rest.iter().skip(k + 1))
        .copied()
        .collect()
}

/// The lexicographically least space tile of the box `lo`..`hi` (per
/// dimension) at or after `a`, if there is one.
fn least_at_or_after(lo: &[u64], hi: &[u64], a: &[u64]) -> Option<Space> {
    let inside = |k: usize| lo[k] <= a[k] && a[k] <= hi[k];
    if (0..a.len()).all(inside) {
        return Some(a.to_vec());
    }
    // Keep the longest prefix of `a` that lies in the box, then step past
    // `a` at the next dimension and take the box's low end after it.
    let prefix = (0..a.len()).take_while(|&k| inside(k)).count();
    (0..=prefix.min(a.len() - 1)).rev().find_map(|k| {
        let v = a[k].checked_add(1)?.max(lo[k]);
        (v <= hi[k]).then(|| {
            let mut s = a[..k].to_vec();
            s.push(v);
            s.extend_from_slice(&lo[k + 1..]);
            s
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every space tile of the box `lo`..`hi` in lexicographic order.
    fn all_in(lo: &[u64], hi: &[u64]) -> Vec<Space> {
        let mut out = vec![Vec::new()];
        for k in 0..lo.len() {
            out = out
                .into_iter()
                .flat_map(|p: Space| {
                    (lo[k]..=hi[k]).map(move |v| {
                        let mut s = p.clone();
                        s.push(v);
                        s
                    })
                })
                .collect();
        }
        out
    }

    #[test]
    fn least_at_or_after_matches_a_scan() {
        let (lo, hi) = ([1, 2, 0], [3, 4, 2]);
        let every = all_in(&lo, &hi);
        for a in all_in(&[0, 0, 0], &[4, 5, 3]) {
            let want = every.iter().find(|s| **s >= a).cloned();
            assert_eq!(least_at_or_after(&lo, &hi, &a), want, "after {a:?}");
        }
    }

    /// A small deterministic generator (xorshift).
    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Random points of a 2-D domain of 8 x 8 space tiles of extent 10,
    /// in global order (row-major tiles and cells), cut into data tiles of
    /// `capacity` cells: every tile holding a cell of a random box is kept,
    /// and some tiles whose MBR meets the box are not.
    #[test]
    fn keeps_every_tile_with_cells_and_drops_some_mbr_hits() {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let space = |p: &(u64, u64)| vec![p.0 / 10, p.1 / 10];
        let mut pruned = 0;
        for _ in 0..200 {
            let mut pts: Vec<(u64, u64)> = (0..600)
                .map(|_| (rng(&mut seed) % 80, rng(&mut seed) % 80))
                .collect();
            pts.sort_by_key(|p| (space(p), p.0, p.1));
            let capacity = 7 + (rng(&mut seed) % 60) as usize;
            let data: Vec<&[(u64, u64)]> = pts.chunks(capacity).collect();
            let tiles: Vec<(Space, Space)> = data
                .iter()
                .map(|c| {
                    let x = (
                        c.iter().map(|p| p.0).min().unwrap(),
                        c.iter().map(|p| p.0).max().unwrap(),
                    );
                    let y = (
                        c.iter().map(|p| p.1).min().unwrap(),
                        c.iter().map(|p| p.1).max().unwrap(),
                    );
                    (vec![x.0 / 10, y.0 / 10], vec![x.1 / 10, y.1 / 10])
                })
                .collect();
            let (x0, y0) = (rng(&mut seed) % 80, rng(&mut seed) % 80);
            let (x1, y1) = (x0 + rng(&mut seed) % 15, y0 + rng(&mut seed) % 15);
            let query = (
                vec![x0 / 10, y0 / 10],
                vec![x1.min(79) / 10, y1.min(79) / 10],
            );
            let keep = may_meet(&tiles, &query);
            for (i, c) in data.iter().enumerate() {
                let holds = c
                    .iter()
                    .any(|&(x, y)| (x0..=x1).contains(&x) && (y0..=y1).contains(&y));
                assert!(
                    keep[i] || !holds,
                    "tile {i} holds cells of the box but was dropped"
                );
                let mbr_meets =
                    (0..2).all(|k| tiles[i].0[k] <= query.1[k] && query.0[k] <= tiles[i].1[k]);
                pruned += usize::from(mbr_meets && !keep[i]);
            }
        }
        assert!(pruned > 0, "no tile whose MBR meets a box was dropped");
    }

    #[test]
    fn a_tile_between_its_neighbours_runs_is_dropped() {
        // Tile 1's MBR spans space tiles (2, 0)..(3, 7), but tile 0 ends at
        // (2, 7) and tile 2 starts at (3, 1): it covers (2, 7)..(3, 1),
        // none of (2, 4)..(3, 4).
        let tiles = [
            (vec![2, 4], vec![2, 7]),
            (vec![2, 0], vec![3, 7]),
            (vec![3, 1], vec![3, 4]),
        ];
        let query = (vec![2, 4], vec![3, 4]);
        assert_eq!(may_meet(&tiles, &query), vec![true, false, true]);
    }

    #[test]
    fn ends_of_a_run() {
        assert_eq!(ends(&[1, 2, 3], &[1, 5, 6], true), vec![1, 2, 6]);
        assert_eq!(ends(&[1, 2, 3], &[1, 5, 6], false), vec![1, 5, 3]);
        assert_eq!(ends(&[1, 2], &[1, 2], true), vec![1, 2]);
    }
}
