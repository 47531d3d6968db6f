//! The plan of a dense read: the domain's tile grid, the selection (sorted,
//! disjoint integer intervals per dimension) and its batches, the
//! fragments as the read sees them, and the tiles of each fragment that
//! hold cells of a selection.

use crate::array::fragment::Fragment;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::Layout;
use crate::read::field::FieldTiles;
use crate::read::query::Query;

/// Inclusive integer intervals of one dimension, sorted and disjoint.
pub(crate) type Intervals = Vec<(i128, i128)>;

/// The geometry of the array's domain.
#[derive(Debug, Clone)]
pub(crate) struct Grid {
    pub lo: Vec<i128>,
    pub hi: Vec<i128>,
    pub ext: Vec<i128>,
    pub tile_layout: Option<Layout>,
    pub cell_layout: Option<Layout>,
}

impl Grid {
    pub(super) fn nd(&self) -> usize {
        self.ext.len()
    }

    /// Cells of one space tile.
    pub(super) fn tile_cells(&self) -> Option<i128> {
        self.ext.iter().try_fold(1i128, |a, e| a.checked_mul(*e))
    }

    /// Strides of the cells inside a tile (by the cell order).
    pub(super) fn cell_strides(&self) -> Vec<i128> {
        strides(&self.ext, self.cell_layout == Some(Layout::ColMajor))
    }

    pub(super) fn tile_of(&self, d: usize, c: i128) -> i128 {
        (c - self.lo[d]).div_euclid(self.ext[d])
    }
}

/// Row-major (or column-major) strides of a box of `sizes`.
fn strides(sizes: &[i128], col_major: bool) -> Vec<i128> {
    let nd = sizes.len();
    let mut s = vec![1i128; nd];
    if col_major {
        for d in 1..nd {
            s[d] = s[d - 1] * sizes[d - 1];
        }
    } else {
        for d in (0..nd.saturating_sub(1)).rev() {
            s[d] = s[d + 1] * sizes[d + 1];
        }
    }
    s
}

/// Sorts and merges intervals (overlapping or adjacent ones become one).
pub(crate) fn normalize(mut v: Intervals) -> Intervals {
    v.sort_unstable();
    let mut out: Intervals = Vec::with_capacity(v.len());
    for (lo, hi) in v {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The intervals of `a` inside `[lo, hi]`.
fn clip(a: &[(i128, i128)], lo: i128, hi: i128) -> Intervals {
    a.iter()
        .filter(|(l, h)| *h >= lo && *l <= hi)
        .map(|(l, h)| ((*l).max(lo), (*h).min(hi)))
        .collect()
}

pub(super) fn count(a: &[(i128, i128)]) -> i128 {
    a.iter().map(|(l, h)| h - l + 1).sum()
}

/// One fragment as a dense read sees it.
pub(crate) struct DenseFragment<'a> {
    pub frag: &'a Fragment,
    /// Its non-empty domain.
    pub ned: Vec<(i128, i128)>,
}

impl DenseFragment<'_> {
    /// The fragment's own tile numbering: tiles of the space tile grid its
    /// non-empty domain touches, in tile order.
    pub(super) fn tile_index(&self, grid: &Grid, tc: &[i128]) -> Option<u64> {
        let nd = grid.nd();
        let t_lo: Vec<i128> = (0..nd).map(|d| grid.tile_of(d, self.ned[d].0)).collect();
        let t_n: Vec<i128> = (0..nd)
            .map(|d| grid.tile_of(d, self.ned[d].1) - t_lo[d] + 1)
            .collect();
        let st = strides(&t_n, grid.tile_layout == Some(Layout::ColMajor));
        let idx = (0..nd).try_fold(0i128, |a, d| {
            a.checked_add((tc[d] - t_lo[d]).checked_mul(st[d])?)
        })?;
        u64::try_from(idx).ok()
    }
}

/// The selection of one batch, and how its cells are laid out.
#[derive(Clone)]
pub(crate) struct Selection {
    pub dims: Vec<Intervals>,
    /// The dimensions from outermost to innermost of the result's order.
    pub perm: Vec<usize>,
}

impl Selection {
    /// Cells of the selection (`i128::MAX` when the count overflows: the
    /// non-empty domains of a damaged array can be anything).
    pub fn cells(&self) -> i128 {
        self.dims
            .iter()
            .try_fold(1i128, |a, d| a.checked_mul(count(d)))
            .unwrap_or(i128::MAX)
    }

    /// Cells of one row of the outermost dimension (`i128::MAX` when the
    /// count overflows).
    pub fn row_cells(&self) -> i128 {
        let outer = self.perm[0];
        (0..self.dims.len())
            .filter(|d| *d != outer)
            .try_fold(1i128, |a, d| a.checked_mul(count(&self.dims[d])))
            .unwrap_or(i128::MAX)
    }

    /// Result strides of each dimension (by the result's order).
    pub(super) fn out_strides(&self) -> Vec<i128> {
        let nd = self.dims.len();
        let mut s = vec![1i128; nd];
        let mut acc = 1i128;
        for &d in self.perm.iter().rev() {
            s[d] = acc;
            acc *= count(&self.dims[d]);
        }
        s
    }

    /// Rank prefix of each interval of each dimension.
    pub(super) fn prefixes(&self) -> Vec<Vec<i128>> {
        self.dims
            .iter()
            .map(|iv| {
                let mut acc = 0;
                iv.iter()
                    .map(|(l, h)| {
                        let p = acc;
                        acc += h - l + 1;
                        p
                    })
                    .collect()
            })
            .collect()
    }

    /// Splits the outermost dimension at tile boundaries: slabs whose cells
    /// lie in one row of tiles each.
    pub(super) fn slabs(&self, grid: &Grid) -> Vec<Selection> {
        let outer = self.perm[0];
        let mut out = Vec::new();
        for &(lo, hi) in &self.dims[outer] {
            let mut s = lo;
            while s <= hi {
                let tile_end = grid.lo[outer] + (grid.tile_of(outer, s) + 1) * grid.ext[outer] - 1;
                let e = tile_end.min(hi);
                let mut dims = self.dims.clone();
                dims[outer] = vec![(s, e)];
                out.push(Selection {
                    dims,
                    perm: self.perm.clone(),
                });
                s = e + 1;
            }
        }
        out
    }
}

/// Calls `each(fragment number, its tiles, tile index, boxes, origin)`
/// for every tile of every fragment (oldest first) that holds cells of
/// `sel`: the boxes are, per dimension, the selection's intervals inside
/// the tile and the fragment's non-empty domain; the origin is the tile's
/// first coordinate.
pub(super) fn for_each_tile<'t>(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &'t [Option<FieldTiles>],
    sel: &Selection,
    mut each: impl FnMut(usize, &'t FieldTiles, usize, &[Intervals], &[i128]) -> Result<()>,
) -> Result<()> {
    let nd = grid.nd();
    for (fi, f) in frags.iter().enumerate() {
        let Some(ft) = &tiles[fi] else { continue };
        // The selection's bounding box within the fragment.
        let mut bbox = Vec::with_capacity(nd);
        for d in 0..nd {
            let (Some(first), Some(last)) = (sel.dims[d].first(), sel.dims[d].last()) else {
                return Ok(());
            };
            let (l, h) = (first.0.max(f.ned[d].0), last.1.min(f.ned[d].1));
            if l > h {
                break;
            }
            bbox.push((l, h));
        }
        if bbox.len() < nd {
            continue;
        }
        let t_lo: Vec<i128> = (0..nd).map(|d| grid.tile_of(d, bbox[d].0)).collect();
        let t_hi: Vec<i128> = (0..nd).map(|d| grid.tile_of(d, bbox[d].1)).collect();
        let mut tc = t_lo.clone();
        'tiles: loop {
            // The tile's box within the fragment and the selection.
            let mut ivs: Vec<Intervals> = Vec::with_capacity(nd);
            let mut origin = Vec::with_capacity(nd);
            for d in 0..nd {
                let o = grid.lo[d] + tc[d] * grid.ext[d];
                origin.push(o);
                let (l, h) = (o.max(bbox[d].0), (o + grid.ext[d] - 1).min(bbox[d].1));
                ivs.push(clip(&sel.dims[d], l, h));
            }
            if ivs.iter().all(|v| !v.is_empty()) {
                let t = f.tile_index(grid, &tc).ok_or_else(|| {
                    Error::decode(&f.frag.path, 0, "Tile", "", "a tile index out of range")
                })?;
                each(fi, ft, t as usize, &ivs, &origin)?;
            }
            // Next tile, row-major over the tile box.
            for d in (0..nd).rev() {
                if tc[d] < t_hi[d] {
                    tc[d] += 1;
                    continue 'tiles;
                }
                tc[d] = t_lo[d];
            }
            break;
        }
    }
    Ok(())
}

/// What a dense read needs of an attribute.
pub(crate) struct DenseAttr {
    pub field: FieldInfo,
    /// The fill value (`None`: null).
    pub fill: Option<Vec<u8>>,
    /// Per fragment, the attribute as the fragment's schema has it
    /// (`None`: it does not). Its tiles are opened batch by batch, so that
    /// the mapped pages a batch touched are let go with it.
    pub fields: Vec<Option<FieldInfo>>,
}

/// A caller's buffers for one fixed-size attribute: its values (exactly the
/// batch's cells) and, when nullable, its validity bytes.
pub(crate) type FixedSink<'s> = (&'s mut [u8], Option<&'s mut [u8]>);

/// The selection of a dense query: per dimension, the intervals of the
/// query's ranges (and old subarray), else the union box of the fragments'
/// non-empty domains; inside the current domain when one is set (a range
/// outside it is refused, as the engine refuses it).
pub(crate) fn selection(
    path: &std::path::Path,
    grid: &Grid,
    current: Option<&[(i128, i128)]>,
    dims: &[FieldInfo],
    q: &Query,
    neds: &[Vec<(i128, i128)>],
) -> Result<Vec<Intervals>> {
    let nd = grid.nd();
    let mut out = Vec::with_capacity(nd);
    for (d, f) in dims.iter().enumerate().take(nd) {
        let mut iv: Option<Intervals> = None;
        for (name, rs) in &q.ranges {
            if *name != f.name {
                continue;
            }
            let mut v = Vec::new();
            for r in rs {
                r.check(f.datatype).map_err(|what| Error::Query {
                    path: path.to_path_buf(),
                    what: format!("range on {:?}: {what}", f.name),
                })?;
                let (crate::read::range::Bound::Int(lo), crate::read::range::Bound::Int(hi)) =
                    (&r.lo, &r.hi)
                else {
                    return Err(Error::Query {
                        path: path.to_path_buf(),
                        what: format!("dense dimension {:?} takes integer ranges", f.name),
                    });
                };
                if *lo < grid.lo[d] || *hi > grid.hi[d] {
                    return Err(Error::Query {
                        path: path.to_path_buf(),
                        what: format!(
                            "range {lo}:{hi} on {:?} is outside the domain {}:{}",
                            f.name, grid.lo[d], grid.hi[d]
                        ),
                    });
                }
                if let Some((cl, ch)) = current.and_then(|c| c.get(d)) {
                    if lo < cl || hi > ch {
                        return Err(Error::Query {
                            path: path.to_path_buf(),
                            what: format!(
                                "range {lo}:{hi} on {:?} is outside the current domain {cl}:{ch}",
                                f.name
                            ),
                        });
                    }
                }
                v.push((*lo, *hi));
            }
            let v = normalize(v);
            iv = Some(match iv {
                None => v,
                Some(prev) => intersect(&prev, &v),
            });
        }
        if let Some((lo, hi)) = q
            .subarray
            .as_ref()
            .and_then(|s| s.get(d).copied().flatten())
        {
            iv = Some(match iv {
                None => vec![(lo, hi)],
                Some(prev) => clip(&prev, lo, hi),
            });
        }
        let iv = match iv {
            Some(v) => v,
            None if neds.is_empty() => Vec::new(),
            None => vec![(
                neds.iter().map(|n| n[d].0).min().unwrap_or(0),
                neds.iter().map(|n| n[d].1).max().unwrap_or(-1),
            )],
        };
        // A damaged fragment may claim cells outside the current domain.
        let iv = match current.and_then(|c| c.get(d)) {
            Some(&(cl, ch)) => clip(&iv, cl, ch),
            None => iv,
        };
        out.push(iv.into_iter().filter(|(l, h)| l <= h).collect());
    }
    Ok(out)
}

fn intersect(a: &[(i128, i128)], b: &[(i128, i128)]) -> Intervals {
    let mut out = Vec::new();
    for &(l, h) in b {
        out.extend(clip(a, l, h));
    }
    normalize(out)
}

/// Splits a selection into batches of at most `max_cells` cells (at least
/// one row of the outermost dimension each), made one at a time: a region
/// of any size (a damaged non-empty domain's too) is never listed whole.
pub(crate) fn batches(sel: &Selection, max_cells: usize) -> DenseBatches {
    let outer = sel.perm[0];
    let row = (0..sel.dims.len())
        .filter(|d| *d != outer)
        .try_fold(1i128, |a, d| a.checked_mul(count(&sel.dims[d])));
    let rows_per = match row {
        Some(r) if r > 0 => (max_cells as i128 / r).max(1),
        // No cells, or a row too large to count: nothing to hand out.
        _ => 0,
    };
    DenseBatches {
        at: (0, sel.dims[outer].first().map_or(0, |x| x.0)),
        sel: sel.clone(),
        outer,
        rows_per,
    }
}

/// The batches of a dense read, one at a time ([`batches`]).
pub(crate) struct DenseBatches {
    sel: Selection,
    outer: usize,
    rows_per: i128,
    /// The next row: (interval of the outer dimension, coordinate).
    at: (usize, i128),
}

impl Iterator for DenseBatches {
    type Item = Selection;

    fn next(&mut self) -> Option<Selection> {
        let ivs = &self.sel.dims[self.outer];
        if self.rows_per == 0 || self.at.0 >= ivs.len() {
            return None;
        }
        let mut cur: Intervals = Vec::new();
        let mut taken = 0i128;
        while taken < self.rows_per && self.at.0 < ivs.len() {
            let (k, s) = self.at;
            let hi = ivs[k].1;
            let take = (self.rows_per - taken).min(hi - s + 1);
            cur.push((s, s + take - 1));
            taken += take;
            self.at = if s + take > hi {
                (k + 1, ivs.get(k + 1).map_or(0, |x| x.0))
            } else {
                (k, s + take)
            };
        }
        let mut dims = self.sel.dims.clone();
        dims[self.outer] = cur;
        Some(Selection {
            dims,
            perm: self.sel.perm.clone(),
        })
    }
}

/// Whether the fragment holds cells of the selection's bounding box.
pub(super) fn meets(f: &DenseFragment, sel: &Selection) -> bool {
    sel.dims.iter().zip(&f.ned).all(|(iv, (lo, hi))| {
        iv.first().is_some_and(|x| x.0 <= *hi) && iv.last().is_some_and(|x| x.1 >= *lo)
    })
}
