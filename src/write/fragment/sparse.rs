//! Sparse cells in global order cut into tiles of `capacity` cells, with
//! their MBRs; coordinates checked against their domains.

use crate::write::error::{WriteError, WriteResult};
use crate::write::order::{Coord, GlobalOrder};
use crate::write::sort::SortField;
use crate::write::stats::RawTile;

use super::types::*;

/// Checks that a sparse coordinate is inside its dimension's domain.
pub(super) fn check_coord(
    order: &GlobalOrder,
    d: usize,
    b: &[u8],
    name: &str,
    cell: u64,
) -> WriteResult<()> {
    let dim = &order.dims[d];
    if dim.var {
        return Ok(());
    }
    let c = order.coord(d, b);
    let out = match (c, dim.lo, dim.hi) {
        (Coord::F32(v), _, _) if v.is_nan() => true,
        (Coord::F64(v), _, _) if v.is_nan() => true,
        (_, Some(lo), Some(hi)) => c.order(&lo).is_lt() || c.order(&hi).is_gt(),
        _ => false,
    };
    if out {
        return Err(WriteError::cells(
            name,
            format!("cell {cell}: coordinate {c:?} is outside the domain"),
        ));
    }
    Ok(())
}

impl SparseTiles {
    pub(super) fn new(fields: &[WField], n_attr: usize, n_dim: usize, capacity: u64) -> Self {
        let layout: Vec<SortField> = fields.iter().map(WField::sort_field).collect();
        let mut s = SparseTiles {
            layout,
            n_attr,
            n_dim,
            capacity,
            current: Vec::new(),
            mbr: Vec::new(),
            cells: 0,
            ordinal: 0,
        };
        s.reset();
        s
    }

    pub(super) fn reset(&mut self) {
        self.current = self
            .layout
            .iter()
            .map(|f| RawTile {
                data: Vec::new(),
                offsets: f.var.then(Vec::new),
                validity: f.nullable.then(Vec::new),
                cells: 0,
            })
            .collect();
        self.mbr.clear();
        self.cells = 0;
    }

    /// Adds a cell (sorter layout: dimensions, then attributes; per field
    /// its bytes and validity); returns a full tile.
    pub(super) fn push<B: AsRef<[u8]>>(
        &mut self,
        cell: &[(B, u8)],
        order: &GlobalOrder,
    ) -> Option<RawSet> {
        for (k, (b, v)) in cell.iter().enumerate() {
            // Sorter position k -> writer field index.
            let fi = if k < self.n_dim {
                self.n_attr + k
            } else {
                k - self.n_dim
            };
            let tile = &mut self.current[fi];
            if let Some(o) = &mut tile.offsets {
                o.push(tile.data.len() as u64);
            }
            tile.data.extend_from_slice(b.as_ref());
            if let Some(val) = &mut tile.validity {
                val.push(*v);
            }
            tile.cells += 1;
        }
        let coords = &cell[..self.n_dim];
        if self.mbr.is_empty() {
            self.mbr = coords
                .iter()
                .map(|(b, _)| (b.as_ref().to_vec(), b.as_ref().to_vec()))
                .collect();
        } else {
            // Widened in place: bytes are copied only when a bound moves.
            for (d, ((lo, hi), (b, _))) in self.mbr.iter_mut().zip(coords).enumerate() {
                let b = b.as_ref();
                let c = order.coord(d, b);
                if c.order(&order.coord(d, lo)).is_lt() {
                    lo.clear();
                    lo.extend_from_slice(b);
                }
                if order.coord(d, hi).order(&c).is_lt() {
                    hi.clear();
                    hi.extend_from_slice(b);
                }
            }
        }
        self.cells += 1;
        (self.cells == self.capacity).then(|| self.take())
    }

    pub(super) fn take(&mut self) -> RawSet {
        let tiles = std::mem::take(&mut self.current);
        // Cells arrive in global order: the first and the last cell of the
        // tile are its global-order bounds.
        let bounds = tiles[self.n_attr..self.n_attr + self.n_dim]
            .iter()
            .map(|t| {
                let size = t.data.len() / t.cells.max(1) as usize;
                let last = t.cells.saturating_sub(1) as usize;
                (
                    t.view().cell(0, size).to_vec(),
                    t.view().cell(last, size).to_vec(),
                )
            })
            .collect();
        let set = RawSet {
            ordinal: self.ordinal,
            ranges: vec![(0, self.cells as usize)],
            mbr: Some(std::mem::take(&mut self.mbr)),
            bounds: Some(bounds),
            cells: self.cells,
            tiles,
        };
        self.ordinal += 1;
        self.reset();
        set
    }

    pub(super) fn finish(&mut self) -> Option<RawSet> {
        (self.cells > 0).then(|| self.take())
    }
}

/// What [`InOrder::push`] did with a cell.
pub(super) enum Pushed {
    /// Took it; a tile it filled.
    Cell(Option<RawSet>),
    /// Refused it: it has the coordinates of the cell before it.
    Duplicate,
}

/// The error of cells of one coordinate in an array without duplicates.
pub(super) fn duplicate<B: AsRef<[u8]>>(dims: &[WField], cell: &[(B, u8)]) -> WriteError {
    let coords: Vec<String> = dims
        .iter()
        .zip(cell)
        .map(|(d, (b, _))| {
            format!(
                "{}={}",
                d.name,
                crate::model::value::cell(d.info.datatype, b.as_ref())
            )
        })
        .collect();
    WriteError::cells(
        "coordinates",
        format!(
            "({}) given more than once; the array does not allow duplicates, and the engine refuses such a write",
            coords.join(", ")
        ),
    )
}

impl InOrder {
    pub(super) fn new(tiles: SparseTiles, fields: usize) -> Self {
        InOrder {
            tiles,
            last: vec![(Vec::new(), 1); fields],
            has_last: false,
            last_key: Vec::new(),
            key: Vec::new(),
            dropped: 0,
        }
    }

    /// Takes a cell (sorter layout), which must not come before the last
    /// one; returns a full tile, or (with `refuse_dups`) that the cell has
    /// the last one's coordinates.
    pub(super) fn push(
        &mut self,
        cell: &[(&[u8], u8)],
        order: &GlobalOrder,
        allows_dups: bool,
        refuse_dups: bool,
        index: u64,
    ) -> WriteResult<Pushed> {
        let n_dim = self.tiles.n_dim;
        order.key_into(|d| order.coord(d, cell[d].0), &mut self.key);
        let mut full = None;
        if self.has_last {
            let last = &self.last;
            let o = order.cmp_by(
                &self.last_key,
                |d| order.coord(d, &last[d].0),
                &self.key,
                |d| order.coord(d, cell[d].0),
            );
            if o.is_gt() {
                return Err(WriteError::OutOfOrder { cell: index });
            }
            // Duplicates are equal coordinate bytes, as in the sorted path.
            let same = !allows_dups
                && o.is_eq()
                && last[..n_dim]
                    .iter()
                    .zip(&cell[..n_dim])
                    .all(|(a, b)| a.0 == b.0);
            if same && refuse_dups {
                return Ok(Pushed::Duplicate);
            }
            if same {
                self.dropped += 1;
            } else {
                full = self.tiles.push(&self.last, order);
            }
        }
        for ((b, v), (nb, nv)) in self.last.iter_mut().zip(cell) {
            b.clear();
            b.extend_from_slice(nb);
            *v = *nv;
        }
        std::mem::swap(&mut self.last_key, &mut self.key);
        self.has_last = true;
        Ok(Pushed::Cell(full))
    }

    /// The last cell into its tile, and the tile the cells end in.
    pub(super) fn finish(&mut self, order: &GlobalOrder) -> Vec<RawSet> {
        let mut out = Vec::new();
        if std::mem::take(&mut self.has_last) {
            out.extend(self.tiles.push(&self.last, order));
        }
        out.extend(self.tiles.finish());
        out
    }
}
