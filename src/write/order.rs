//! The global order of cells, as the engine sorts them for a sparse write
//! (tiledb/sm/misc/comparators.h `GlobalCmpQB`, `HilbertCmpQB`;
//! tiledb/sm/array_schema/domain.cc `tile_order_cmp`, `cell_order_cmp`):
//! space tiles in tile order, then cells in cell order; or, with Hilbert
//! cell order, the Hilbert value of the cell (tiledb/sm/misc/hilbert.h,
//! `Dimension::map_to_uint64_2`), then row-major order of the coordinates.

use std::cmp::Ordering;

use crate::array::schema::dimension_datatype;
use crate::format::{with_native, ArraySchema, Datatype, Layout};

/// The integer value of a little-endian value of an integer, date or time
/// type, text and bytes by their code unit (0 for floats, unknown codes and
/// too few bytes).
pub fn int_value(dt: Datatype, b: &[u8]) -> i128 {
    if dt.size() == 0 {
        return 0;
    }
    with_native!(int dt, T => {
        let mut v = [0u8; std::mem::size_of::<T>()];
        match b.get(..v.len()) {
            Some(s) => {
                v.copy_from_slice(s);
                i128::from(T::from_le_bytes(v))
            }
            None => 0,
        }
    }, _ => 0)
}

/// A coordinate, typed for comparison.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Coord<'a> {
    Int(i128),
    F32(f32),
    F64(f64),
    Str(&'a [u8]),
}

impl Coord<'_> {
    /// The order of two coordinates of one dimension (NaN compares equal).
    pub fn order(&self, other: &Coord) -> Ordering {
        match (self, other) {
            (Coord::Int(a), Coord::Int(b)) => a.cmp(b),
            (Coord::F32(a), Coord::F32(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Coord::F64(a), Coord::F64(b)) => a.partial_cmp(b).unwrap_or(Ordering::Equal),
            (Coord::Str(a), Coord::Str(b)) => a.cmp(b),
            _ => Ordering::Equal,
        }
    }
}

/// What the order needs to know of a dimension.
#[derive(Debug, Clone)]
pub struct DimOrder {
    pub datatype: Datatype,
    pub var: bool,
    /// Domain bounds and tile extent, as coordinates (`None` for string
    /// dimensions and absent extents).
    pub lo: Option<Coord<'static>>,
    pub hi: Option<Coord<'static>>,
    pub extent: Option<Coord<'static>>,
}

/// The global order of an array's cells.
#[derive(Debug, Clone)]
pub struct GlobalOrder {
    pub dims: Vec<DimOrder>,
    pub tile_order: Layout,
    pub cell_order: Layout,
    hilbert_bits: u32,
}

fn coord_static(dt: Datatype, b: &[u8]) -> Coord<'static> {
    match dt {
        Datatype::Float32 => Coord::F32(f32::from_le_bytes(b[..4].try_into().unwrap())),
        Datatype::Float64 => Coord::F64(f64::from_le_bytes(b[..8].try_into().unwrap())),
        _ => Coord::Int(int_value(dt, b)),
    }
}

impl GlobalOrder {
    pub fn new(schema: &ArraySchema) -> Self {
        let dims: Vec<DimOrder> = schema
            .domain
            .dimensions
            .iter()
            .map(|d| {
                let dt = dimension_datatype(schema, d)
                    .known()
                    .unwrap_or(Datatype::Int32);
                let var = d.cell_val_num == Some(crate::format::VAR_NUM);
                let w = d.domain.len() / 2;
                let (lo, hi) = if var || d.domain.is_empty() {
                    (None, None)
                } else {
                    (
                        Some(coord_static(dt, &d.domain[..w])),
                        Some(coord_static(dt, &d.domain[w..])),
                    )
                };
                let extent =
                    (!var && !d.tile_extent.is_empty()).then(|| coord_static(dt, &d.tile_extent));
                DimOrder {
                    datatype: dt,
                    var,
                    lo,
                    hi,
                    extent,
                }
            })
            .collect();
        let n = dims.len().max(1) as u32;
        GlobalOrder {
            hilbert_bits: 63 / n,
            dims,
            tile_order: schema.tile_order,
            cell_order: schema.cell_order,
        }
    }

    /// Row-major order of the coordinates alone (no tiles): the order of
    /// the cells of a dense write.
    pub fn row_major_cells(mut self) -> Self {
        for d in &mut self.dims {
            d.extent = None;
        }
        self.cell_order = Layout::RowMajor;
        self.tile_order = Layout::RowMajor;
        self
    }

    pub fn is_hilbert(&self) -> bool {
        self.cell_order == Layout::Hilbert
    }

    /// The coordinate of dimension `d` from its bytes.
    pub fn coord<'a>(&self, d: usize, b: &'a [u8]) -> Coord<'a> {
        let dim = &self.dims[d];
        if dim.var {
            Coord::Str(b)
        } else {
            match coord_static(dim.datatype, b) {
                Coord::Int(i) => Coord::Int(i),
                Coord::F32(f) => Coord::F32(f),
                Coord::F64(f) => Coord::F64(f),
                Coord::Str(_) => unreachable!(),
            }
        }
    }

    /// The tile index of a coordinate along dimension `d`
    /// (`Dimension::tile_idx`), if the dimension has tiles.
    pub fn tile_idx(&self, d: usize, c: &Coord) -> Option<u64> {
        let dim = &self.dims[d];
        match (c, dim.lo, dim.extent) {
            (Coord::Int(v), Some(Coord::Int(lo)), Some(Coord::Int(e))) => {
                Some(((v - lo) as u128 / e.max(1) as u128) as u64)
            }
            (Coord::F32(v), Some(Coord::F32(lo)), Some(Coord::F32(e))) => {
                Some(((v - lo) / e) as u64)
            }
            (Coord::F64(v), Some(Coord::F64(lo)), Some(Coord::F64(e))) => {
                Some(((v - lo) / e) as u64)
            }
            _ => None,
        }
    }

    /// The part of the sort key computed once per cell: the Hilbert value
    /// (Hilbert cell order), else the tile index along each dimension that
    /// has tiles, in tile order.
    pub fn key(&self, coords: &[Coord]) -> Vec<u64> {
        if self.is_hilbert() {
            return vec![self.hilbert_value(coords)];
        }
        let mut k = Vec::with_capacity(coords.len());
        let mut push = |d: usize| {
            if let Some(t) = self.tile_idx(d, &coords[d]) {
                k.push(t);
            }
        };
        if self.tile_order == Layout::ColMajor {
            (0..coords.len()).rev().for_each(&mut push);
        } else {
            (0..coords.len()).for_each(&mut push);
        }
        k
    }

    /// [`GlobalOrder::key`] of the cell whose coordinate along dimension
    /// `d` is `coord(d)`, written into `out` (cleared first): no allocation
    /// once `out` has room.
    pub fn key_into<'a>(&self, coord: impl Fn(usize) -> Coord<'a>, out: &mut Vec<u64>) {
        out.clear();
        let n = self.dims.len();
        if self.is_hilbert() {
            let cs: Vec<Coord> = (0..n).map(coord).collect();
            out.push(self.hilbert_value(&cs));
            return;
        }
        let mut push = |d: usize| {
            if let Some(t) = self.tile_idx(d, &coord(d)) {
                out.push(t);
            }
        };
        if self.tile_order == Layout::ColMajor {
            (0..n).rev().for_each(&mut push);
        } else {
            (0..n).for_each(&mut push);
        }
    }

    /// [`GlobalOrder::cmp`] of two cells given by their keys and their
    /// coordinates per dimension (computed as they are compared).
    pub fn cmp_by<'a, 'b>(
        &self,
        ka: &[u64],
        a: impl Fn(usize) -> Coord<'a>,
        kb: &[u64],
        b: impl Fn(usize) -> Coord<'b>,
    ) -> Ordering {
        match ka.cmp(kb) {
            Ordering::Equal => {}
            o => return o,
        }
        let n = self.dims.len();
        let col = self.cell_order == Layout::ColMajor;
        for i in 0..n {
            let d = if col { n - 1 - i } else { i };
            match a(d).order(&b(d)) {
                Ordering::Equal => {}
                o => return o,
            }
        }
        Ordering::Equal
    }

    /// Compares two cells: their keys, then their coordinates in cell order
    /// (row-major for Hilbert).
    pub fn cmp(&self, ka: &[u64], ca: &[Coord], kb: &[u64], cb: &[Coord]) -> Ordering {
        match ka.cmp(kb) {
            Ordering::Equal => {}
            o => return o,
        }
        self.cmp_cells(ca, cb)
    }

    /// The dimensions in the order the cell order compares them (row-major
    /// for Hilbert).
    pub fn cell_dims(&self) -> Vec<usize> {
        let n = self.dims.len();
        if self.cell_order == Layout::ColMajor {
            (0..n).rev().collect()
        } else {
            (0..n).collect()
        }
    }

    /// Compares two cells in cell order only.
    pub fn cmp_cells(&self, ca: &[Coord], cb: &[Coord]) -> Ordering {
        let n = ca.len();
        if self.cell_order == Layout::ColMajor {
            for d in (0..n).rev() {
                match ca[d].order(&cb[d]) {
                    Ordering::Equal => {}
                    o => return o,
                }
            }
        } else {
            for d in 0..n {
                match ca[d].order(&cb[d]) {
                    Ordering::Equal => {}
                    o => return o,
                }
            }
        }
        Ordering::Equal
    }

    /// The engine's Hilbert value of a cell.
    pub fn hilbert_value(&self, coords: &[Coord]) -> u64 {
        let bits = self.hilbert_bits;
        let max_bucket = (1u64 << bits) - 1;
        let mut mapped: Vec<u64> = coords
            .iter()
            .zip(&self.dims)
            .map(|(c, dim)| map_to_uint64(c, dim, bits, max_bucket))
            .collect();
        coords_to_hilbert(&mut mapped, bits)
    }
}

/// `Dimension::map_to_uint64_2`: a coordinate scaled onto `[0, max_bucket]`
/// (numbers, by their position in the domain, in double precision), or the
/// first 8 bytes of a string, as signed chars, shifted to `bits` bits.
fn map_to_uint64(c: &Coord, dim: &DimOrder, bits: u32, max_bucket: u64) -> u64 {
    let as_f64 = |c: &Coord| match c {
        Coord::Int(i) => *i as f64,
        Coord::F32(f) => f64::from(*f),
        Coord::F64(f) => *f,
        Coord::Str(_) => 0.0,
    };
    match c {
        Coord::Str(s) => {
            let mut ret: u64 = 0;
            for i in 0..8 {
                ret <<= 8;
                if let Some(b) = s.get(i) {
                    ret |= (*b as i8) as i64 as u64;
                }
            }
            ret >> (64 - bits)
        }
        _ => {
            let (Some(lo), Some(hi)) = (dim.lo, dim.hi) else {
                return 0;
            };
            let start = as_f64(&lo);
            let range = as_f64(&hi) - start;
            let norm = as_f64(c) - start;
            ((norm / range) * max_bucket as f64) as u64
        }
    }
}

/// John Skilling's transform, as `Hilbert::coords_to_hilbert`.
pub fn coords_to_hilbert(x: &mut [u64], bits: u32) -> u64 {
    let n = x.len();
    if n == 0 || bits == 0 {
        return 0;
    }
    // Inverse undo.
    let mut q: u64 = 1u64 << (bits - 1);
    while q > 1 {
        let p = q - 1;
        if x[0] & q != 0 {
            x[0] ^= p;
        }
        for i in 1..n {
            if x[i] & q != 0 {
                x[0] ^= p;
            } else {
                let t = (x[0] ^ x[i]) & p;
                x[0] ^= t;
                x[i] ^= t;
            }
        }
        q >>= 1;
    }
    // Gray encode.
    for i in 1..n {
        x[i] ^= x[i - 1];
    }
    let mut t = x[n - 1];
    let mut i = 1u32;
    while i < bits {
        x[n - 1] ^= x[n - 1] >> i;
        i <<= 1;
    }
    t ^= x[n - 1];
    for v in x.iter_mut().take(n - 1) {
        *v ^= t;
    }
    // Interleave: bit j of coordinate i, last coordinate first.
    let mut ret = 0u64;
    let mut c = 1u64;
    let mut h = 1u64;
    for _ in 0..bits {
        for i in (0..n).rev() {
            if x[i] & c != 0 {
                ret |= h;
            }
            h <<= 1;
        }
        c <<= 1;
    }
    ret
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hilbert_2d_order_walks_neighbours() {
        // On a 4x4 grid (2 bits per dimension) consecutive Hilbert values
        // are neighbouring cells, and (0,0) is first.
        let mut cells: Vec<(u64, (u64, u64))> = Vec::new();
        for a in 0..4 {
            for b in 0..4 {
                let mut x = [a, b];
                cells.push((coords_to_hilbert(&mut x, 2), (a, b)));
            }
        }
        cells.sort();
        assert_eq!(cells[0], (0, (0, 0)));
        for w in cells.windows(2) {
            assert_eq!(w[1].0, w[0].0 + 1);
            let (p, q) = (w[0].1, w[1].1);
            assert_eq!(p.0.abs_diff(q.0) + p.1.abs_diff(q.1), 1, "{w:?}");
        }
    }

    #[test]
    fn hilbert_matches_the_engine_diagram() {
        // tiledb/sm/misc/hilbert.h: with 2 dimensions of 4 bits, (1,0) is 1,
        // (1,1) is 2, (0,1) is 3, (0,2) is 4 and (15,0) is 255.
        let h = |a: u64, b: u64| coords_to_hilbert(&mut [a, b], 4);
        assert_eq!(
            [h(0, 0), h(1, 0), h(1, 1), h(0, 1), h(0, 2), h(15, 0)],
            [0, 1, 2, 3, 4, 255]
        );
    }
}
