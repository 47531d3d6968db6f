//! Sparse cells in global order cut into tiles of `capacity` cells, with
//! their MBRs; coordinates checked against their domains.

use super::*;

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

/// Cuts cells in global order into tiles of `capacity` cells, with MBRs.
pub(super) struct SparseTiles {
    /// Field order of the writer: attributes, then dimensions.
    pub(super) layout: Vec<SortField>,
    pub(super) n_attr: usize,
    pub(super) n_dim: usize,
    pub(super) capacity: u64,
    pub(super) current: Vec<RawTile>,
    pub(super) mbr: MbrBytes,
    pub(super) cells: u64,
    pub(super) ordinal: u64,
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

    /// Adds a cell (sorter layout: dimensions, then attributes); returns a
    /// full tile.
    pub(super) fn push(&mut self, cell: &OwnedCell, order: &GlobalOrder) -> Option<RawSet> {
        for (k, (b, v)) in cell.fields.iter().enumerate() {
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
            tile.data.extend_from_slice(b);
            if let Some(val) = &mut tile.validity {
                val.push(*v);
            }
            tile.cells += 1;
        }
        let coords = &cell.fields[..self.n_dim];
        if self.mbr.is_empty() {
            self.mbr = coords.iter().map(|(b, _)| (b.clone(), b.clone())).collect();
        } else {
            let m: MbrBytes = coords.iter().map(|(b, _)| (b.clone(), b.clone())).collect();
            union_into(&mut self.mbr, &m, order);
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
                (t.cell(0, size).to_vec(), t.cell(last, size).to_vec())
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
