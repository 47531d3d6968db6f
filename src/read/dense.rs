//! Dense reads, planned: the selection (sorted, disjoint integer intervals
//! per dimension) meets each fragment's non-empty domain; only the space
//! tiles it touches are read, and of those only the chunks that hold
//! selected cells. Cells go from the mapping (or from the chunk a filter
//! decoded into) straight into the result's column buffers; a tile the
//! result takes whole, in order, is decoded directly into its place.
//!
//! The result is laid out in row-major (or column-major) order of the
//! selection; batches are runs of the outermost dimension, and the slabs of
//! one batch that lie in different tile rows are filled in parallel.

use rayon::prelude::*;

use super::column::{Cells, Column, DenseColumn};
use super::field::{FieldTiles, ReadStats};
use super::query::Query;
use crate::array::fragment::Fragment;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::filters::Pipeline;
use crate::format::Layout;
use crate::tile::{ChunkCache, TileView};

mod fetch;

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
    fn nd(&self) -> usize {
        self.ext.len()
    }

    /// Cells of one space tile.
    fn tile_cells(&self) -> Option<i128> {
        self.ext.iter().try_fold(1i128, |a, e| a.checked_mul(*e))
    }

    /// Strides of the cells inside a tile (by the cell order).
    fn cell_strides(&self) -> Vec<i128> {
        strides(&self.ext, self.cell_layout == Some(Layout::ColMajor))
    }

    fn tile_of(&self, d: usize, c: i128) -> i128 {
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

fn count(a: &[(i128, i128)]) -> i128 {
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
    fn tile_index(&self, grid: &Grid, tc: &[i128]) -> Option<u64> {
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

/// Where a fixed-size tile's bytes come from: a field's data tiles or its
/// validity tiles.
#[derive(Clone, Copy)]
enum Source {
    Data,
    Validity,
}

fn view<'t>(tiles: &'t FieldTiles, source: Source, t: usize) -> Result<Option<TileView<'t>>> {
    match source {
        Source::Data => tiles.fixed_view(t).map(Some),
        Source::Validity => tiles.validity_view(t),
    }
}

fn pipeline(tiles: &FieldTiles, source: Source) -> &Pipeline {
    match source {
        Source::Data => &tiles.pipes.data,
        Source::Validity => tiles.pipes.validity.as_ref().unwrap_or(&tiles.pipes.data),
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
    fn out_strides(&self) -> Vec<i128> {
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
    fn prefixes(&self) -> Vec<Vec<i128>> {
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
    fn slabs(&self, grid: &Grid) -> Vec<Selection> {
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
fn for_each_tile<'t>(
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

/// Copies the cells of `sel` that the fragments hold from their tiles into
/// `out` (`cs` bytes a cell, in the selection's order), the newest fragment
/// last so that its cells win.
#[allow(clippy::too_many_arguments)]
fn fill_fixed(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &[Option<FieldTiles>],
    source: Source,
    cs: usize,
    sel: &Selection,
    out: &mut [u8],
    stats: &ReadStats,
) -> Result<()> {
    let ostr = sel.out_strides();
    let pref = sel.prefixes();
    let cstr = grid.cell_strides();
    let per_tile = grid.tile_cells().unwrap_or(i128::MAX);
    let inner = *sel.perm.last().expect("a dimension");
    let mut cache = ChunkCache::default();
    for_each_tile(grid, frags, tiles, sel, |fi, ft, t, ivs, origin| {
        let Some(v) = view(ft, source, t)? else {
            return Ok(());
        };
        if Some(v.len() as i128) != per_tile.checked_mul(cs as i128) {
            return Err(Error::decode(
                &frags[fi].frag.path,
                0,
                "Tile",
                "",
                format!(
                    "tile {t} holds {} bytes, a space tile of {per_tile} cells of {cs} bytes",
                    v.len(),
                ),
            ));
        }
        stats.tile(v.len());
        copy_tile(
            &v,
            pipeline(ft, source),
            ft.max,
            cs,
            ivs,
            origin,
            &cstr,
            &ostr,
            &pref,
            sel,
            inner,
            out,
            &mut cache,
        )
    })
}

/// The rank in the result of `sel` of coordinate `c` of dimension `d`
/// (`pref`: [`Selection::prefixes`]).
fn rank(sel: &Selection, pref: &[Vec<i128>], d: usize, c: i128) -> i128 {
    // The interval of the selection that holds c.
    let k = sel.dims[d].partition_point(|(_, h)| *h < c);
    pref[d][k] + (c - sel.dims[d][k].0)
}

/// Where a tile of `cells` cells (its boxes `ivs` in `sel`, its first
/// coordinate `origin`) goes when all of it lands in one run of the result
/// of `sel`, in its own order: the rank of its first cell. `None` when it
/// goes in pieces. `cstr`: the tile's cell strides, `ostr` and `pref`:
/// [`Selection::out_strides`] and [`Selection::prefixes`].
fn whole_at(
    sel: &Selection,
    ivs: &[Intervals],
    origin: &[i128],
    cstr: &[i128],
    ostr: &[i128],
    pref: &[Vec<i128>],
    cells: i128,
) -> Option<i128> {
    let inner = *sel.perm.last()?;
    let whole = cstr[inner] == 1
        && ostr[inner] == 1
        && ivs[inner].len() == 1
        && ivs[inner][0].0 == origin[inner]
        && sel
            .perm
            .iter()
            .filter(|d| **d != inner)
            .all(|d| ivs[*d].len() == 1 && ivs[*d][0].0 == ivs[*d][0].1)
        && count(&ivs[inner]) == cells;
    whole.then(|| {
        (0..ivs.len())
            .map(|d| rank(sel, pref, d, ivs[d][0].0) * ostr[d])
            .sum()
    })
}

/// Copies the cells of one tile in the boxes `ivs` into `out`.
#[allow(clippy::too_many_arguments)]
fn copy_tile(
    v: &TileView,
    pipe: &Pipeline,
    limit: u64,
    cs: usize,
    ivs: &[Intervals],
    origin: &[i128],
    cstr: &[i128],
    ostr: &[i128],
    pref: &[Vec<i128>],
    sel: &Selection,
    inner: usize,
    out: &mut [u8],
    cache: &mut ChunkCache,
) -> Result<()> {
    let contiguous = cstr[inner] == 1;
    let cells = v.len() as i128 / cs as i128;
    if let Some(first) = whole_at(sel, ivs, origin, cstr, ostr, pref, cells) {
        // The whole tile in one run, in the result's order: decode in place.
        let s = first as usize * cs;
        return v.decode_into(pipe, limit, &mut out[s..s + v.len() as usize]);
    }
    // One run along the inner dimension for each interval there.
    let copy = |tpos: i128, opos: i128, n: i128| -> Result<()> {
        if contiguous && ostr[inner] == 1 {
            let (ts, os) = (tpos as usize * cs, opos as usize * cs);
            let len = n as usize * cs;
            return v.read_range_into(
                pipe,
                limit,
                ts as u64..(ts + len) as u64,
                &mut out[os..os + len],
                cache,
            );
        }
        for k in 0..n {
            let ts = (tpos + k * cstr[inner]) as usize * cs;
            let os = (opos + k * ostr[inner]) as usize * cs;
            v.read_range_into(
                pipe,
                limit,
                ts as u64..(ts + cs) as u64,
                &mut out[os..os + cs],
                cache,
            )?;
        }
        Ok(())
    };
    for_each_run(sel, ivs, origin, cstr, ostr, pref, inner, copy)
}

/// Calls `run(tile cell, result cell, cells)` for each run of the cells of
/// a tile (its boxes `ivs` in `sel`, its first coordinate `origin`) along
/// the dimension `inner`: one per interval there, for each coordinate of
/// the other dimensions in the result's order. A run's cells follow each
/// other by `cstr[inner]` in the tile and by `ostr[inner]` in the result
/// (`pref`: [`Selection::prefixes`]). The first error stops it.
#[allow(clippy::too_many_arguments)]
fn for_each_run<E>(
    sel: &Selection,
    ivs: &[Intervals],
    origin: &[i128],
    cstr: &[i128],
    ostr: &[i128],
    pref: &[Vec<i128>],
    inner: usize,
    mut run: impl FnMut(i128, i128, i128) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let nd = ivs.len();
    // Position in `ivs` of each dimension: (interval, coordinate).
    let mut at: Vec<(usize, i128)> = ivs.iter().map(|v| (0, v[0].0)).collect();
    let outer: Vec<usize> = sel.perm.iter().copied().filter(|d| *d != inner).collect();
    loop {
        for &(lo, hi) in &ivs[inner] {
            at[inner] = (0, lo);
            let tpos: i128 = (0..nd).map(|d| (at[d].1 - origin[d]) * cstr[d]).sum();
            let opos: i128 = (0..nd).map(|d| rank(sel, pref, d, at[d].1) * ostr[d]).sum();
            run(tpos, opos, hi - lo + 1)?;
        }
        // Next coordinate of the outer dimensions.
        if !next_in_boxes(&mut at, ivs, outer.iter().rev().copied()) {
            return Ok(());
        }
    }
}

/// Every (cell of the selection, fragment cell) pair of var-sized tiles:
/// calls `each(result index, tile, cell index in the tile)` for the cells
/// the fragments hold, oldest fragment first.
fn for_each_cell(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &[Option<FieldTiles>],
    sel: &Selection,
    stats: &ReadStats,
    mut each: impl FnMut(usize, &super::field::FieldTile, usize) -> Result<()>,
) -> Result<()> {
    let nd = grid.nd();
    let ostr = sel.out_strides();
    let pref = sel.prefixes();
    let cstr = grid.cell_strides();
    let rank = |d: usize, c: i128| -> i128 {
        let k = sel.dims[d].partition_point(|(_, h)| *h < c);
        pref[d][k] + (c - sel.dims[d][k].0)
    };
    for_each_tile(grid, frags, tiles, sel, |_, ft, t, ivs, origin| {
        let tile = ft.tile(t)?;
        stats.tile(tile.var.as_ref().map_or(tile.fixed.len(), Vec::len) as u64);
        // Every cell of the boxes.
        let mut c: Vec<(usize, i128)> = ivs.iter().map(|v| (0, v[0].0)).collect();
        loop {
            let tpos: i128 = (0..nd).map(|d| (c[d].1 - origin[d]) * cstr[d]).sum();
            let opos: i128 = (0..nd).map(|d| rank(d, c[d].1) * ostr[d]).sum();
            each(opos as usize, &tile, tpos as usize)?;
            if !next_in_boxes(&mut c, ivs, (0..nd).rev()) {
                return Ok(());
            }
        }
    })
}

/// Steps `at` (per dimension: interval, coordinate) to the next cell of the
/// boxes `ivs`, the dimensions of `order` from fastest to slowest; false
/// after the last.
fn next_in_boxes(
    at: &mut [(usize, i128)],
    ivs: &[Intervals],
    order: impl Iterator<Item = usize>,
) -> bool {
    for d in order {
        let (k, x) = at[d];
        if x < ivs[d][k].1 {
            at[d].1 = x + 1;
            return true;
        }
        if k + 1 < ivs[d].len() {
            at[d] = (k + 1, ivs[d][k + 1].0);
            return true;
        }
        at[d] = (0, ivs[d][0].0);
    }
    false
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

/// Reads one batch: the cells of `sel`, one column per dimension (unless
/// `coords` is false) and per attribute; an attribute with a sink in
/// `sinks` (by its index in `attrs`) is written there instead, and has no
/// column.
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_batch(
    grid: &Grid,
    frags: &[DenseFragment],
    dims: &[FieldInfo],
    attrs: &[DenseAttr],
    sel: &Selection,
    coords: bool,
    stats: &ReadStats,
    opts: &crate::ReadOptions,
    sinks: &mut [Option<FixedSink>],
) -> Result<Cells> {
    let n = usize::try_from(sel.cells()).map_err(|_| Error::Query {
        path: frags
            .first()
            .map(|f| f.frag.path.clone())
            .unwrap_or_default(),
        what: format!("a dense batch of {} cells is too many to hold", sel.cells()),
    })?;
    // Every buffer below is sized from `n`: refuse what cannot be held.
    let widest = dims
        .iter()
        .chain(attrs.iter().map(|a| &a.field))
        .map(|f| f.cell_size().max(8))
        .max()
        .unwrap_or(8);
    if u64::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(widest))
        .is_none_or(|b| b > isize::MAX as u64)
    {
        return Err(Error::Query {
            path: frags
                .first()
                .map(|f| f.frag.path.clone())
                .unwrap_or_default(),
            what: format!("a dense batch of {n} cells is too many to hold"),
        });
    }
    let slabs = sel.slabs(grid);
    let slab_cells: Vec<usize> = slabs.iter().map(|s| s.cells() as usize).collect();
    let mut columns = Vec::new();
    if coords {
        columns.extend(coordinate_columns(dims, sel, n));
    }
    // Per slab, whether one fragment holding the attribute covers it: then
    // none of its cells keeps the fill value, and its part of the buffers
    // need not be filled first (fragments that tile the domain between
    // them cover every slab, none the whole selection).
    let covered = |tiles: &[Option<FieldTiles>]| -> Vec<bool> {
        slabs
            .iter()
            .map(|s| {
                frags.iter().zip(tiles).any(|(f, t)| {
                    t.is_some()
                        && (0..grid.nd()).all(|d| {
                            let iv = &s.dims[d];
                            iv.first().is_some_and(|x| x.0 >= f.ned[d].0)
                                && iv.last().is_some_and(|x| x.1 <= f.ned[d].1)
                        })
                })
            })
            .collect()
    };
    // The tile lists of every attribute a fragment serves, fetched together
    // (an object store's fragment metadata: near tiles in one request).
    frags
        .par_iter()
        .enumerate()
        .filter(|(_, f)| meets(f, sel))
        .try_for_each(|(i, f)| {
            let fields: Vec<&FieldInfo> = attrs
                .iter()
                .filter_map(|a| a.fields.get(i).and_then(Option::as_ref))
                .collect();
            f.frag.prefetch_tile_lists(&fields)
        })?;
    for (ai, a) in attrs.iter().enumerate() {
        // The fragments that hold cells of this batch.
        let tiles = frags
            .iter()
            .zip(&a.fields)
            .map(|(f, field)| match field {
                Some(field) if meets(f, sel) => FieldTiles::open(f.frag, field, opts).map(Some),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>>>()?;
        let mut tiles = tiles;
        let cs = a.field.cell_size() as usize;
        let fixed_fill = a.fill.as_ref().is_none_or(|f| f.len() == cs);
        let fixed = FixedTarget {
            grid,
            frags,
            slabs: &slabs,
            slab_cells: &slab_cells,
            stats,
        };
        if let Some((data, validity)) = sinks.get_mut(ai).and_then(Option::as_mut) {
            let v = validity.as_deref_mut().filter(|_| a.field.nullable);
            let all = covered(&tiles);
            fetch::fill_ahead(&fixed, &mut tiles, a, &all, false, data, v)?;
        } else if a.field.cell_val_num.is_some() && fixed_fill {
            let mut data = vec![0u8; n * cs];
            let mut validity = a.field.nullable.then(|| vec![0u8; n]);
            let v = validity.as_deref_mut();
            let all = covered(&tiles);
            fetch::fill_ahead(&fixed, &mut tiles, a, &all, true, &mut data, v)?;
            columns.push(Column::from_parts(a.field.clone(), data, None, validity, n));
        } else {
            // Var-sized cells (or a fill value of another size), set cell
            // by cell; from a ranged storage the slabs go in groups, the
            // next group's tiles fetched while one is set.
            let mut col = DenseColumn::new(a.field.clone(), n, a.fill.as_deref());
            let cs1 = a.field.cell_size();
            let mut put = |tiles: &[Option<FieldTiles>], sel: &Selection, base: usize| {
                for_each_cell(grid, frags, tiles, sel, stats, |oi, tile, i| {
                    let valid = tile
                        .validity
                        .as_ref()
                        .is_none_or(|v| v.get(i).is_some_and(|b| *b != 0));
                    let cell = match &tile.var_offsets {
                        Some(o) => {
                            let data = tile.var.as_deref().unwrap_or_default();
                            let s = *o.get(i).ok_or_else(|| short(frags, &a.field))? as usize;
                            let e = o.get(i + 1).map_or(data.len(), |x| *x as usize);
                            data.get(s..e).ok_or_else(|| {
                                Error::decode(
                                    frags
                                        .first()
                                        .map_or(std::path::Path::new(""), |f| f.frag.path.as_path()),
                                    0,
                                    "Tile",
                                    &a.field.name,
                                    format!(
                                        "cell {i} runs from byte {s} to {e}, out of order or past the {} bytes of var data",
                                        data.len()
                                    ),
                                )
                            })?
                        }
                        None => {
                            let s = i * cs1 as usize;
                            tile.fixed
                                .get(s..s + cs1 as usize)
                                .ok_or_else(|| short(frags, &a.field))?
                        }
                    };
                    col.set(base + oi, valid.then_some(cell));
                    Ok(())
                })
            };
            match tiles.iter().flatten().find_map(FieldTiles::read_ahead) {
                Some(ahead) => {
                    fetch::by_groups(&fixed, &mut tiles, ahead, |shared, s, e, first| {
                        // The group's slabs as one selection, so that a
                        // tile several of them cut is decoded once.
                        let outer = sel.perm[0];
                        let mut group = Selection {
                            dims: sel.dims.clone(),
                            perm: sel.perm.clone(),
                        };
                        group.dims[outer] = slabs[s..e]
                            .iter()
                            .flat_map(|slab| slab.dims[outer].iter().copied())
                            .collect();
                        put(shared, &group, first)
                    })?
                }
                None => put(&tiles, sel, 0)?,
            }
            columns.push(col.finish());
        }
    }
    Ok(Cells { columns, len: n })
}

/// Where the cells of one fixed-size attribute of a batch go: the batch's
/// fragments and its slabs (the attribute's tiles are given to
/// [`FixedTarget::fill`]).
struct FixedTarget<'b, 'f> {
    grid: &'b Grid,
    frags: &'b [DenseFragment<'f>],
    slabs: &'b [Selection],
    slab_cells: &'b [usize],
    stats: &'b ReadStats,
}

impl FixedTarget<'_, '_> {
    /// Writes the attribute's cells of the batch, from its `tiles` (one
    /// entry per fragment), into `data` (and its validity into
    /// `validity`), each holding exactly the batch's cells.
    /// Cells no fragment holds get the fill value; `covered` says, per
    /// slab, that every cell of it is held, and `zeroed` that the buffers
    /// are zero already.
    fn fill(
        &self,
        tiles: &[Option<FieldTiles>],
        a: &DenseAttr,
        covered: &[bool],
        zeroed: bool,
        data: &mut [u8],
        validity: Option<&mut [u8]>,
    ) -> Result<()> {
        let cs = a.field.cell_size() as usize;
        // What a slab no fragment covers is filled with first: the fill
        // value, or zeros where the buffer is not zero already.
        let prefill = match &a.fill {
            Some(f) => Some(f.as_slice()),
            None if !zeroed => Some(&[][..]),
            None => None,
        };
        let run = |source, cs, out: &mut [u8], prefill: Option<&[u8]>, fresh| {
            fill_parallel(
                self.grid,
                self.frags,
                tiles,
                source,
                cs,
                self.slabs,
                self.slab_cells,
                out,
                self.stats,
                prefill,
                covered,
                fresh,
            )
        };
        run(Source::Data, cs, data, prefill, zeroed)?;
        if let Some(v) = validity {
            v.fill(u8::from(a.fill.is_some()));
            run(Source::Validity, 1, v, None, false)?;
        }
        Ok(())
    }
}

/// Whether the fragment holds cells of the selection's bounding box.
fn meets(f: &DenseFragment, sel: &Selection) -> bool {
    sel.dims.iter().zip(&f.ned).all(|(iv, (lo, hi))| {
        iv.first().is_some_and(|x| x.0 <= *hi) && iv.last().is_some_and(|x| x.1 >= *lo)
    })
}

fn short(frags: &[DenseFragment], f: &FieldInfo) -> Error {
    Error::decode(
        frags
            .first()
            .map_or(std::path::Path::new(""), |f| f.frag.path.as_path()),
        0,
        "Tile",
        &f.name,
        format!("{} holds fewer cells than its domain needs", f.name),
    )
}

/// [`fill_fixed`] over the slabs of a batch, in parallel: each slab fills
/// its own part of `out`. With `prefill` (a cell's fill value, or nothing
/// for zeros), a slab no fragment covers (`covered`, per slab) is filled
/// first. With `fresh` (`out` is a new
/// zeroed allocation), each slab written whole has its pages faulted in
/// with one call first ([`crate::storage::populate`]), not page by page.
#[allow(clippy::too_many_arguments)]
fn fill_parallel(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &[Option<FieldTiles>],
    source: Source,
    cs: usize,
    slabs: &[Selection],
    slab_cells: &[usize],
    out: &mut [u8],
    stats: &ReadStats,
    prefill: Option<&[u8]>,
    covered: &[bool],
    fresh: bool,
) -> Result<()> {
    let mut parts = Vec::with_capacity(slabs.len());
    let mut rest = out;
    for (i, (s, &n)) in slabs.iter().zip(slab_cells).enumerate() {
        let (a, b) = rest.split_at_mut(n * cs);
        let covered = covered.get(i).copied().unwrap_or(false);
        let fill = prefill.filter(|_| !covered);
        // Written whole: a fragment covers it, or it is filled first.
        let whole = covered || fill.is_some();
        parts.push((s, a, fill, fresh && whole));
        rest = b;
    }
    parts
        .into_par_iter()
        .try_for_each(|(s, part, fill, populate)| {
            if populate {
                crate::storage::populate(part);
            }
            match fill {
                Some([]) => part.fill(0),
                Some(f) => part
                    .chunks_exact_mut(f.len())
                    .for_each(|c| c.copy_from_slice(f)),
                None => {}
            }
            fill_fixed(grid, frags, tiles, source, cs, s, part, stats)
        })
}

/// The coordinates of every cell of the selection, in its order.
fn coordinate_columns(dims: &[FieldInfo], sel: &Selection, n: usize) -> Vec<Column> {
    let ostr = sel.out_strides();
    dims.iter()
        .enumerate()
        .map(|(d, f)| {
            let pattern = super::dense_coords::Pattern {
                intervals: &sel.dims[d],
                stride: usize::try_from(ostr[d]).unwrap_or(usize::MAX),
            };
            let w = f.datatype.size() as usize;
            let data = super::dense_coords::coordinates(&pattern, w, n);
            Column::from_parts(f.clone(), data, None, None, n)
        })
        .collect()
}

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
                let (super::range::Bound::Int(lo), super::range::Bound::Int(hi)) = (&r.lo, &r.hi)
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
