//! The copy of a dense read: the cells of a selection copied from the
//! fragments' tiles into the result's buffers, the newest fragment last so
//! that its cells win (the dense merge); a tile the result takes whole, in
//! order, is decoded directly into its place, and of the others only the
//! chunks that hold selected cells are decoded.

use rayon::prelude::*;

use super::plan::{count, for_each_tile, DenseAttr, DenseFragment, Grid, Intervals, Selection};
use crate::error::{Error, Result};
use crate::filters::Pipeline;
use crate::read::field::{FieldTile, FieldTiles, ReadStats};
use crate::tile::{ChunkCache, TileView};

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

/// How the cells of a selection are placed in its result, and in the tiles
/// of the domain: the selection, its [`Selection::out_strides`] and
/// [`Selection::prefixes`], and a tile's cell strides.
pub(super) struct Placement<'s> {
    pub(super) sel: &'s Selection,
    pub(super) ostr: Vec<i128>,
    pub(super) pref: Vec<Vec<i128>>,
    pub(super) cstr: Vec<i128>,
}

impl<'s> Placement<'s> {
    pub(super) fn new(sel: &'s Selection, grid: &Grid) -> Self {
        Placement {
            sel,
            ostr: sel.out_strides(),
            pref: sel.prefixes(),
            cstr: grid.cell_strides(),
        }
    }

    /// The rank in the result of coordinate `c` of dimension `d`.
    fn rank(&self, d: usize, c: i128) -> i128 {
        rank(self.sel, &self.pref, d, c)
    }
}

/// The part of one tile a selection takes: per dimension, the intervals of
/// the selection inside the tile (and the fragment's non-empty domain),
/// and the tile's first coordinate.
#[derive(Clone, Copy)]
pub(super) struct TileBox<'b> {
    pub(super) ivs: &'b [Intervals],
    pub(super) origin: &'b [i128],
}

/// A fixed-size tile to copy from: its view, the pipeline that decodes it,
/// the bytes it may decode to, and its cells' size.
struct TileCopy<'v, 't> {
    view: &'v TileView<'t>,
    pipe: &'v Pipeline,
    limit: u64,
    cs: usize,
}

/// Copies the cells of `sel` that the fragments hold from their tiles into
/// `out` (`cs` bytes a cell, in the selection's order), the newest fragment
/// last so that its cells win.
fn fill_fixed(
    t: &FixedTarget,
    tiles: &[Option<FieldTiles>],
    (source, cs): (Source, usize),
    sel: &Selection,
    out: &mut [u8],
) -> Result<()> {
    let (grid, frags, stats) = (t.grid, t.frags, t.stats);
    let place = Placement::new(sel, grid);
    let per_tile = grid.tile_cells().unwrap_or(i128::MAX);
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
        let tile = TileCopy {
            view: &v,
            pipe: pipeline(ft, source),
            limit: ft.max,
            cs,
        };
        copy_tile(&place, &tile, TileBox { ivs, origin }, out, &mut cache)
    })
}

/// The rank in the result of `sel` of coordinate `c` of dimension `d`
/// (`pref`: [`Selection::prefixes`]).
fn rank(sel: &Selection, pref: &[Vec<i128>], d: usize, c: i128) -> i128 {
    // The interval of the selection that holds c.
    let k = sel.dims[d].partition_point(|(_, h)| *h < c);
    pref[d][k] + (c - sel.dims[d][k].0)
}

/// Where a tile of `cells` cells (its box `b`) goes when all of it lands in
/// one run of the result of `p.sel`, in its own order: the rank of its
/// first cell. `None` when it goes in pieces.
pub(super) fn whole_at(p: &Placement, b: TileBox, cells: i128) -> Option<i128> {
    let (sel, ivs, origin) = (p.sel, b.ivs, b.origin);
    let inner = *sel.perm.last()?;
    let whole = p.cstr[inner] == 1
        && p.ostr[inner] == 1
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
            .map(|d| p.rank(d, ivs[d][0].0) * p.ostr[d])
            .sum()
    })
}

/// Copies the cells of one tile in its box `b` into `out`.
fn copy_tile(
    p: &Placement,
    tile: &TileCopy,
    b: TileBox,
    out: &mut [u8],
    cache: &mut ChunkCache,
) -> Result<()> {
    let TileCopy {
        view: v,
        pipe,
        limit,
        cs,
    } = *tile;
    let (cstr, ostr) = (&p.cstr, &p.ostr);
    let inner = *p.sel.perm.last().expect("a dimension");
    let contiguous = cstr[inner] == 1;
    let cells = v.len() as i128 / cs as i128;
    if let Some(first) = whole_at(p, b, cells) {
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
    for_each_run(p, b, inner, copy)
}

/// Calls `run(tile cell, result cell, cells)` for each run of the cells of
/// a tile (its box `b`) along the dimension `inner`: one per interval
/// there, for each coordinate of the other dimensions in the result's
/// order. A run's cells follow each other by `p.cstr[inner]` in the tile
/// and by `p.ostr[inner]` in the result. The first error stops it.
pub(super) fn for_each_run<E>(
    p: &Placement,
    b: TileBox,
    inner: usize,
    mut run: impl FnMut(i128, i128, i128) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let (sel, ivs, origin, cstr, ostr) = (p.sel, b.ivs, b.origin, &p.cstr, &p.ostr);
    let nd = ivs.len();
    // Position in `ivs` of each dimension: (interval, coordinate).
    let mut at: Vec<(usize, i128)> = ivs.iter().map(|v| (0, v[0].0)).collect();
    let outer: Vec<usize> = sel.perm.iter().copied().filter(|d| *d != inner).collect();
    loop {
        for &(lo, hi) in &ivs[inner] {
            at[inner] = (0, lo);
            let tpos: i128 = (0..nd).map(|d| (at[d].1 - origin[d]) * cstr[d]).sum();
            let opos: i128 = (0..nd).map(|d| p.rank(d, at[d].1) * ostr[d]).sum();
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
pub(super) fn for_each_cell(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &[Option<FieldTiles>],
    sel: &Selection,
    stats: &ReadStats,
    mut each: impl FnMut(usize, &FieldTile, usize) -> Result<()>,
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

/// Where the cells of one fixed-size attribute of a batch go: the batch's
/// fragments and its slabs (the attribute's tiles are given to
/// [`FixedTarget::fill`]).
pub(super) struct FixedTarget<'b, 'f> {
    pub(super) grid: &'b Grid,
    pub(super) frags: &'b [DenseFragment<'f>],
    pub(super) slabs: &'b [Selection],
    pub(super) slab_cells: &'b [usize],
    pub(super) stats: &'b ReadStats,
}

impl FixedTarget<'_, '_> {
    /// Writes the attribute's cells of the batch, from its `tiles` (one
    /// entry per fragment), into `data` (and its validity into
    /// `validity`), each holding exactly the batch's cells.
    /// Cells no fragment holds get the fill value; `covered` says, per
    /// slab, that every cell of it is held, and `zeroed` that the buffers
    /// are zero already.
    pub(super) fn fill(
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
        let first = Prefill {
            value: prefill,
            covered,
            fresh: zeroed,
        };
        self.fill_parallel(tiles, (Source::Data, cs), data, first)?;
        if let Some(v) = validity {
            v.fill(u8::from(a.fill.is_some()));
            let first = Prefill {
                value: None,
                covered,
                fresh: false,
            };
            self.fill_parallel(tiles, (Source::Validity, 1), v, first)?;
        }
        Ok(())
    }

    /// [`fill_fixed`] over the slabs of the batch, in parallel: each slab
    /// fills its own part of `out` (`cs` bytes a cell of `source`), after
    /// what `first` says.
    fn fill_parallel(
        &self,
        tiles: &[Option<FieldTiles>],
        (source, cs): (Source, usize),
        out: &mut [u8],
        first: Prefill,
    ) -> Result<()> {
        let Prefill {
            value: prefill,
            covered,
            fresh,
        } = first;
        let (slabs, slab_cells) = (self.slabs, self.slab_cells);
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
                fill_fixed(self, tiles, (source, cs), s, part)
            })
    }
}

/// What a slab's part of a buffer gets before the tiles are copied into
/// it. With `value` (a cell's fill value, or nothing for zeros), a slab no
/// fragment covers (`covered`, per slab) is filled with it first. With
/// `fresh` (the buffer is a new zeroed allocation), each slab written whole
/// has its pages faulted in with one call first
/// ([`crate::storage::populate`]), not page by page.
struct Prefill<'p> {
    value: Option<&'p [u8]>,
    covered: &'p [bool],
    fresh: bool,
}
