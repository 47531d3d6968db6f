//! The dense tiler: the space tiles a rectangle touches, and each tile laid
//! out in the schema's cell order from the current row of tiles
//! (tiledb/sm/query/writers/dense_tiler.cc).

use crate::array::schema::dimension_datatype;
use crate::format::{ArraySchema, Layout};

use crate::write::error::{WriteError, WriteResult};
use crate::write::order::int_value;
use crate::write::sort::{ColBuf, SortField};
use crate::write::stats::RawTile;

use super::types::*;

impl DenseGrid {
    /// The position of a space tile (per-dimension tile indices) in tile order
    /// among the tiles the rectangle touches.
    pub(super) fn ordinal(&self, t: &[i128]) -> u64 {
        let n = t.len();
        let mut ord: u64 = 0;
        let dims: Vec<usize> = if self.tile_order == Layout::ColMajor {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        };
        for d in dims {
            let (a, b) = self.tiles[d];
            ord = ord * (b - a + 1) as u64 + (t[d] - a) as u64;
        }
        ord
    }

    /// Cells of the rectangle in one row of tiles along dimension 0.
    pub(super) fn slab_rows(&self, k: i128) -> (i128, i128) {
        let lo = self.dom_lo[0] + k * self.ext[0];
        let hi = lo + self.ext[0] - 1;
        (lo.max(self.rect[0].0), hi.min(self.rect[0].1))
    }

    pub(super) fn row_cells(&self) -> u64 {
        self.rect[1..]
            .iter()
            .map(|(a, b)| (b - a + 1) as u64)
            .product()
    }
}

/// The space tiles a dense rectangle touches.
pub(super) fn dense_grid(
    schema: &ArraySchema,
    rect: &[(i128, i128)],
    tile_order: Layout,
    cell_order: Layout,
) -> WriteResult<DenseGrid> {
    let dims = &schema.domain.dimensions;
    if rect.len() != dims.len() {
        return Err(WriteError::cells(
            "",
            format!(
                "a rectangle of {} dimensions for {} dimensions",
                rect.len(),
                dims.len()
            ),
        ));
    }
    let datatype = dimension_datatype(schema, &dims[0])
        .known()
        .ok_or_else(|| WriteError::Unsupported("a dimension of unknown datatype".into()))?;
    let (mut dom_lo, mut ext, mut tiles) = (Vec::new(), Vec::new(), Vec::new());
    let mut tile_cells: u64 = 1;
    for (d, (dim, (lo, hi))) in dims.iter().zip(rect).enumerate() {
        let name = String::from_utf8_lossy(&dim.name).into_owned();
        let w = dim.domain.len() / 2;
        let (dl, dh) = (
            int_value(datatype, &dim.domain[..w]),
            int_value(datatype, &dim.domain[w..]),
        );
        let e = int_value(datatype, &dim.tile_extent);
        if e <= 0 {
            return Err(WriteError::Unsupported(format!(
                "dimension {name:?} has no tile extent"
            )));
        }
        if lo > hi || *lo < dl || *hi > dh {
            return Err(WriteError::cells(
                &name,
                format!("the rectangle's range [{lo}, {hi}] is not inside the domain [{dl}, {dh}] (dimension {d})"),
            ));
        }
        dom_lo.push(dl);
        ext.push(e);
        tiles.push(((lo - dl) / e, (hi - dl) / e));
        tile_cells = tile_cells.checked_mul(e as u64).ok_or_else(|| {
            WriteError::Unsupported("a space tile of more than 2^64 cells".into())
        })?;
    }
    Ok(DenseGrid {
        datatype,
        rect: rect.to_vec(),
        dom_lo,
        ext,
        tiles,
        tile_order,
        cell_order,
        tile_cells,
    })
}

/// The current row of tiles as its one space tile, when it is laid out as
/// the tile is: a single tile wholly inside the rectangle, in 1-D or in
/// row-major cell order (the slab is row-major over the rectangle). The
/// buffers move into the tile instead of being copied.
pub(super) fn slab_as_tile(
    grid: &DenseGrid,
    t: &[i128],
    slab: &mut [ColBuf],
    fields: &[SortField],
    spare: &mut Vec<Vec<u8>>,
) -> Option<RawSet> {
    let n = t.len();
    if n > 1 && grid.cell_order == Layout::ColMajor {
        return None;
    }
    let tlo: Vec<i128> = (0..n)
        .map(|d| grid.dom_lo[d] + t[d] * grid.ext[d])
        .collect();
    let whole =
        (0..n).all(|d| grid.rect[d].0 <= tlo[d] && tlo[d] + grid.ext[d] - 1 <= grid.rect[d].1);
    let one_tile = (1..n).all(|d| grid.tiles[d].0 == grid.tiles[d].1);
    if !(whole && one_tile) {
        return None;
    }
    fn take<T>(v: &mut Vec<T>) -> Vec<T> {
        let cap = v.capacity();
        std::mem::replace(v, Vec::with_capacity(cap))
    }
    let mut take_data = |v: &mut Vec<u8>| {
        let cap = v.capacity();
        let mut next = spare.pop().unwrap_or_default();
        next.clear();
        next.reserve(cap);
        std::mem::replace(v, next)
    };
    let tiles = slab
        .iter_mut()
        .zip(fields)
        .map(|(col, f)| RawTile {
            offsets: f.var.then(|| take(&mut col.starts)),
            validity: f.nullable.then(|| take(&mut col.validity)),
            data: take_data(&mut col.data),
            cells: grid.tile_cells,
        })
        .collect();
    Some(RawSet {
        ordinal: grid.ordinal(t),
        tiles,
        ranges: metadata_ranges(grid, &tlo),
        mbr: None,
        bounds: None,
        cells: grid.tile_cells,
    })
}

/// The rows of tiles from row `k` on that a run of `cells` cells fills
/// whole, each one space tile wholly inside the rectangle and laid out as
/// the tile is (what [`slab_as_tile`] takes as it is): for each, its
/// ordinal and the cells that count for its metadata. Such a run of a
/// caller's column is already the tile, so it is filtered where it is.
pub(super) fn whole_tile_rows(grid: &DenseGrid, k: i128, cells: u64) -> Vec<WholeTile> {
    let n = grid.rect.len();
    let one_tile = (1..n).all(|d| grid.tiles[d].0 == grid.tiles[d].1);
    if (n > 1 && grid.cell_order == Layout::ColMajor) || !one_tile {
        return Vec::new();
    }
    let mut t: Vec<i128> = grid.tiles.iter().map(|(a, _)| *a).collect();
    let (mut k, mut left) = (k, cells);
    let mut out = Vec::new();
    while k <= grid.tiles[0].1 && left >= grid.tile_cells {
        t[0] = k;
        let tlo: Vec<i128> = (0..n)
            .map(|d| grid.dom_lo[d] + t[d] * grid.ext[d])
            .collect();
        let whole =
            (0..n).all(|d| grid.rect[d].0 <= tlo[d] && tlo[d] + grid.ext[d] - 1 <= grid.rect[d].1);
        if !whole {
            break;
        }
        out.push(WholeTile {
            ordinal: grid.ordinal(&t),
            ranges: metadata_ranges(grid, &tlo),
        });
        left -= grid.tile_cells;
        k += 1;
    }
    out
}

/// One space tile of a dense fragment, from the current row of tiles: cells
/// in the schema's cell order; cells outside the rectangle are zeros (one
/// zero value for var-sized cells) and null, as the engine's dense tiler
/// writes them. The tile is laid out a line of cells at a time along its
/// fastest dimension: the part of the line inside the rectangle is a run of
/// the slab (contiguous in row-major cell order), the rest is filled.
pub(super) fn dense_tile(
    grid: &DenseGrid,
    t: &[i128],
    slab_row0: i128,
    slab: &[ColBuf],
    fields: &[SortField],
) -> RawSet {
    let n = t.len();
    let tlo: Vec<i128> = (0..n)
        .map(|d| grid.dom_lo[d] + t[d] * grid.ext[d])
        .collect();
    // Strides of the slab (row-major over: slab rows, then the rectangle).
    let widths: Vec<i128> = (0..n)
        .map(|d| grid.rect[d].1 - grid.rect[d].0 + 1)
        .collect();
    let mut strides = vec![1i128; n];
    for d in (0..n.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * widths[d + 1];
    }
    let cells = grid.tile_cells as usize;
    let mut tiles: Vec<RawTile> = fields
        .iter()
        .map(|f| RawTile {
            data: Vec::with_capacity(if f.var { 0 } else { cells * f.cell_size }),
            offsets: f.var.then(|| Vec::with_capacity(cells)),
            validity: f.nullable.then(|| Vec::with_capacity(cells)),
            cells: cells as u64,
        })
        .collect();
    // Cell order within the tile: the fastest dimension last (row-major) or first.
    let dims_fast_first: Vec<usize> = if grid.cell_order == Layout::ColMajor {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };
    let fast = dims_fast_first[0];
    let line = grid.ext[fast];
    let inside = |d: usize, x: i128| x >= grid.rect[d].0 && x <= grid.rect[d].1;
    let fill = |tiles: &mut [RawTile], count: usize| {
        for (tile, f) in tiles.iter_mut().zip(fields) {
            for _ in 0..count {
                if let Some(o) = &mut tile.offsets {
                    o.push(tile.data.len() as u64);
                }
                tile.data.extend(std::iter::repeat_n(0u8, f.cell_size));
            }
            if let Some(v) = &mut tile.validity {
                v.extend(std::iter::repeat_n(0u8, count));
            }
        }
    };
    let mut c: Vec<i128> = tlo.clone();
    for _ in 0..cells / line as usize {
        // The line's cells inside the rectangle: [a, b] along `fast`.
        let others = (0..n).all(|d| d == fast || inside(d, c[d]));
        let a = tlo[fast].max(grid.rect[fast].0);
        let b = (tlo[fast] + line - 1).min(grid.rect[fast].1);
        if !others || a > b {
            fill(&mut tiles, line as usize);
        } else {
            fill(&mut tiles, (a - tlo[fast]) as usize);
            let mut src = (c[0] - slab_row0) * strides[0];
            for d in 1..n {
                src += (c[d] - grid.rect[d].0) * strides[d];
            }
            src += (a - c[fast]) * strides[fast];
            let (src, run, stride) = (src as usize, (b - a + 1) as usize, strides[fast] as usize);
            for ((tile, f), col) in tiles.iter_mut().zip(fields).zip(slab) {
                if !f.var && stride == 1 {
                    let w = f.cell_size;
                    tile.data
                        .extend_from_slice(&col.data[src * w..(src + run) * w]);
                    if let Some(v) = &mut tile.validity {
                        v.extend_from_slice(&col.validity[src..src + run]);
                    }
                    continue;
                }
                for j in 0..run {
                    let at = src + j * stride;
                    if let Some(o) = &mut tile.offsets {
                        o.push(tile.data.len() as u64);
                    }
                    tile.data.extend_from_slice(col.cell(f, at));
                    if let Some(v) = &mut tile.validity {
                        v.push(col.valid(f, at));
                    }
                }
            }
            fill(&mut tiles, (tlo[fast] + line - 1 - b) as usize);
        }
        // Next line.
        for &d in &dims_fast_first[1..] {
            if c[d] < tlo[d] + grid.ext[d] - 1 {
                c[d] += 1;
                break;
            }
            c[d] = tlo[d];
        }
    }
    RawSet {
        ordinal: grid.ordinal(t),
        tiles,
        ranges: metadata_ranges(grid, &tlo),
        mbr: None,
        bounds: None,
        cells: cells as u64,
    }
}

/// The cells of a dense tile that count for its metadata, in the order the
/// engine visits them (`DenseTiler::compute_tile_metadata`: the cells of the
/// rectangle in row-major order of their coordinates, whatever the cell
/// order), as runs of tile positions.
pub(super) fn metadata_ranges(grid: &DenseGrid, tlo: &[i128]) -> Vec<(usize, usize)> {
    let n = tlo.len();
    let mut tstride = vec![1i128; n];
    if grid.cell_order == Layout::ColMajor {
        for d in 1..n {
            tstride[d] = tstride[d - 1] * grid.ext[d - 1];
        }
    } else {
        for d in (0..n.saturating_sub(1)).rev() {
            tstride[d] = tstride[d + 1] * grid.ext[d + 1];
        }
    }
    let lo: Vec<i128> = (0..n).map(|d| tlo[d].max(grid.rect[d].0)).collect();
    let hi: Vec<i128> = (0..n)
        .map(|d| (tlo[d] + grid.ext[d] - 1).min(grid.rect[d].1))
        .collect();
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let mut add = |p: usize, len: usize| match ranges.last_mut() {
        Some(r) if r.1 == p => r.1 = p + len,
        _ => ranges.push((p, p + len)),
    };
    // A line along the last dimension at a time: one run of positions in
    // row-major cell order, cells `tstride` apart otherwise.
    let last = n - 1;
    let len = (hi[last] - lo[last] + 1) as usize;
    let step = tstride[last] as usize;
    let mut c = lo.clone();
    loop {
        let p = (0..n).map(|d| (c[d] - tlo[d]) * tstride[d]).sum::<i128>() as usize;
        if step == 1 {
            add(p, len);
        } else {
            for j in 0..len {
                add(p + j * step, 1);
            }
        }
        let mut d = last;
        loop {
            if d == 0 {
                return ranges;
            }
            d -= 1;
            if c[d] < hi[d] {
                c[d] += 1;
                break;
            }
            c[d] = lo[d];
        }
    }
}
