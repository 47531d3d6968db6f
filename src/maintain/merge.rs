//! Sparse consolidation as a merge. Every sparse fragment holds its cells in
//! the array's global order, so the fragments of a run are merged tile by
//! tile, one decoded tile per fragment in memory, straight into a writer
//! that takes cells in order ([`FragmentWriter::sparse_in_order`]): nothing
//! is sorted and nothing is spilled.
//!
//! Without duplicates, the cells of one coordinate meet in the merge and the
//! newest is kept, as a read picks it: the latest write timestamp (the
//! cell's own when the fragment keeps timestamps, else the fragment's
//! first), then the later fragment, then the later cell.
//!
//! The writer checks the order of what it is given. Fragments whose cells
//! are not in the order this crate computes (none the engine writes is
//! known to be) end the merge with [`WriteError::OutOfOrder`]; the caller
//! then consolidates by sorting instead.

use rayon::prelude::*;

use crate::array::field::FieldInfo;
use crate::array::fragment::Fragment;
use crate::read::sparse::{select_tiles, FragmentFields, TileCells};
use crate::read::ArrayReader;
use crate::write::order::{Coord, GlobalOrder};
use crate::write::{Column, FragmentWriter, WriteError, WriteResult};
use crate::Progress;

/// Cells handed to the writer at a time.
const BATCH_CELLS: usize = 1 << 16;

/// Whether the merge can consolidate the reader's fragments within
/// `budget` bytes: every fragment has an R-tree (version 5 on) and one
/// decoded tile of each fits the budget together.
pub(super) fn applicable(reader: &ArrayReader, budget: u64) -> bool {
    let Some((dims, attrs)) = fields(reader) else {
        return false;
    };
    // A timestamp too, where the fragment keeps them.
    let per_cell = crate::read::sparse::cell_bytes(dims.iter().chain(&attrs)) + 8;
    // A tile holds up to `capacity` cells, and no more than its fragment.
    let capacity = reader.schema.capacity.max(1);
    let tiles: u64 = reader
        .fragments
        .iter()
        .map(|f| f.cell_num().unwrap_or(capacity).min(capacity))
        .fold(0u64, |a, c| a.saturating_add(c.saturating_mul(per_cell)));
    let footers = reader.fragments.iter().all(|f| {
        f.version() >= 5 && matches!(f.metadata, crate::array::fragment::Metadata::Footer(_))
    });
    footers && tiles <= budget
}

/// The array's dimensions and attributes, as the latest schema has them.
fn fields(reader: &ArrayReader) -> Option<(Vec<FieldInfo>, Vec<FieldInfo>)> {
    let s = &reader.schema;
    let name = |n: &[u8]| String::from_utf8_lossy(n).into_owned();
    let dims = s
        .domain
        .dimensions
        .iter()
        .map(|d| FieldInfo::lookup(s, &name(&d.name)).filter(|f| f.is_dimension))
        .collect::<Option<Vec<_>>>()?;
    let attrs = s
        .attributes
        .iter()
        .map(|a| FieldInfo::lookup(s, &name(&a.name)).filter(|f| !f.is_dimension))
        .collect::<Option<Vec<_>>>()?;
    Some((dims, attrs))
}

/// One fragment's place in the merge.
struct Cursor<'r> {
    frag: &'r Fragment,
    /// The fragment's position among the reader's (later: newer).
    index: usize,
    fields: FragmentFields,
    tiles: Vec<usize>,
    next_tile: usize,
    tile: TileCells,
    len: usize,
    /// The current cell of `tile`, and its global-order key (packed keys:
    /// every cell's, `width` apiece).
    at: usize,
    key: Vec<u64>,
}

/// What the merge knows of the array.
struct Shape<'a> {
    order: GlobalOrder,
    dims: Vec<FieldInfo>,
    attrs: Vec<FieldInfo>,
    /// Per attribute: the cell a fragment written before the attribute
    /// existed holds (`None`: null).
    fills: Vec<Option<Vec<u8>>>,
    ranges: Vec<Vec<crate::read::range::DimRange>>,
    reader: &'a ArrayReader,
    /// No string dimension: every cell gets a key of `width` integers
    /// whose order is the global order, computed once per tile.
    packed: bool,
    width: usize,
}

/// The packed key of a cell of fixed-size dimensions: the order's key
/// (tile indices, or the Hilbert value), then each coordinate in cell order
/// (row-major for Hilbert) as an integer of the same order: integers less
/// the domain's low bound, floats by their bits made to sort.
fn packed_key<'a>(order: &GlobalOrder, coord: impl Fn(usize) -> Coord<'a>, out: &mut Vec<u64>) {
    let start = out.len();
    let mut key = Vec::new();
    order.key_into(&coord, &mut key);
    out.extend_from_slice(&key);
    let n = order.dims.len();
    let col = order.cell_order == crate::format::Layout::ColMajor;
    for i in 0..n {
        let d = if col { n - 1 - i } else { i };
        out.push(match (coord(d), order.dims[d].lo) {
            (Coord::Int(v), Some(Coord::Int(lo))) => (v - lo) as u64,
            (Coord::Int(v), _) => (v as u64) ^ (1 << 63),
            (Coord::F32(v), _) => sortable_f64(f64::from(v)),
            (Coord::F64(v), _) => sortable_f64(v),
            (Coord::Str(_), _) => unreachable!("packed keys are for fixed-size dimensions"),
        });
    }
    debug_assert!(out.len() >= start);
}

/// The bits of a float as an integer of the same order; -0.0 is 0.0, as
/// the order takes them (the earlier fragment's cell first).
fn sortable_f64(v: f64) -> u64 {
    let b = if v == 0.0 { 0 } else { v.to_bits() };
    if b >> 63 == 1 {
        !b
    } else {
        b | (1 << 63)
    }
}

impl<'r> Cursor<'r> {
    fn coord(&self, shape: &Shape, d: usize) -> Coord<'_> {
        let f = &shape.dims[d];
        shape
            .order
            .coord(d, self.tile.dims[d].cell(self.at, f.cell_size()))
    }

    fn set_key(&mut self, shape: &Shape) {
        if shape.packed {
            return;
        }
        let mut key = std::mem::take(&mut self.key);
        shape.order.key_into(|d| self.coord(shape, d), &mut key);
        self.key = key;
    }

    /// Every cell's packed key, after a tile is loaded.
    fn pack_keys(&mut self, shape: &Shape) {
        let mut keys = std::mem::take(&mut self.key);
        keys.clear();
        for at in 0..self.len {
            self.at = at;
            packed_key(&shape.order, |d| self.coord(shape, d), &mut keys);
        }
        self.at = 0;
        self.key = keys;
    }

    /// The current cell's packed key.
    fn packed(&self, shape: &Shape) -> &[u64] {
        &self.key[self.at * shape.width..(self.at + 1) * shape.width]
    }

    /// The order of the current cells of two cursors.
    fn cmp(&self, other: &Cursor, shape: &Shape) -> std::cmp::Ordering {
        if shape.packed {
            self.packed(shape).cmp(other.packed(shape))
        } else {
            shape.order.cmp_by(
                &self.key,
                |d| self.coord(shape, d),
                &other.key,
                |d| other.coord(shape, d),
            )
        }
    }

    /// Loads the next tile with cells; false when the fragment is done.
    fn load(&mut self, shape: &Shape) -> WriteResult<bool> {
        while self.next_tile < self.tiles.len() {
            let t = self.tiles[self.next_tile];
            self.next_tile += 1;
            self.tile =
                self.fields
                    .tile(self.frag, t, &shape.ranges, true, shape.reader.read_stats())?;
            self.len = self.tile.dims[0].len(shape.dims[0].cell_size());
            self.at = 0;
            if self.len > 0 {
                if shape.packed {
                    self.pack_keys(shape);
                }
                self.set_key(shape);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Moves to the next cell; false when the fragment is done.
    fn advance(&mut self, shape: &Shape) -> WriteResult<bool> {
        self.at += 1;
        if self.at < self.len {
            self.set_key(shape);
            return Ok(true);
        }
        self.load(shape)
    }

    /// The write timestamp of the current cell.
    fn timestamp(&self) -> u64 {
        self.tile
            .timestamps
            .as_ref()
            .map_or(self.frag.name.t1, |t| t[self.at])
    }
}

/// The output columns, in the writer's names: attributes, then dimensions.
struct Out {
    cols: Vec<Column>,
    len: usize,
}

impl Out {
    fn new(shape: &Shape) -> Self {
        let cols = shape
            .attrs
            .iter()
            .chain(&shape.dims)
            .map(|f| Column {
                name: f.name.clone(),
                data: Vec::new(),
                offsets: f.cell_val_num.is_none().then(Vec::new),
                validity: f.nullable.then(Vec::new),
            })
            .collect();
        Out { cols, len: 0 }
    }

    fn push(col: &mut Column, bytes: &[u8], valid: u8) {
        if let Some(o) = &mut col.offsets {
            o.push(col.data.len() as u64);
        }
        col.data.extend_from_slice(bytes);
        if let Some(v) = &mut col.validity {
            v.push(valid);
        }
    }

    /// Appends the current cell of `c`.
    fn push_cell(&mut self, shape: &Shape, c: &Cursor) {
        let n_attr = shape.attrs.len();
        for (a, f) in shape.attrs.iter().enumerate() {
            let col = &mut self.cols[a];
            match &c.tile.attrs[a] {
                // A null holds no bytes of its own (zeros when fixed-size),
                // as a read gives it.
                Some(data) if data.validity.as_ref().is_some_and(|v| v[c.at] == 0) => {
                    push_fill(col, f, None)
                }
                Some(data) => Self::push(col, data.cell(c.at, f.cell_size()), 1),
                None => push_fill(col, f, shape.fills[a].as_deref()),
            }
        }
        for (d, f) in shape.dims.iter().enumerate() {
            Self::push(
                &mut self.cols[n_attr + d],
                c.tile.dims[d].cell(c.at, f.cell_size()),
                1,
            );
        }
        self.len += 1;
    }

    /// Appends a cell copied out before ([`copy_cell`]).
    fn push_owned(&mut self, cell: &[(Vec<u8>, u8)]) {
        for (col, (b, v)) in self.cols.iter_mut().zip(cell) {
            Self::push(col, b, *v);
        }
        self.len += 1;
    }

    /// The columns so far, handed over; empty ones take their place.
    fn take(&mut self, shape: &Shape) -> (Vec<Column>, usize) {
        let fresh = Out::new(shape);
        let n = std::mem::replace(&mut self.len, 0);
        (std::mem::replace(&mut self.cols, fresh.cols), n)
    }
}

/// Appends an attribute's fill value (`None`: a null).
fn push_fill(col: &mut Column, f: &FieldInfo, fill: Option<&[u8]>) {
    match fill {
        Some(b) => Out::push(col, b, 1),
        None if f.cell_val_num.is_none() => Out::push(col, &[], 0),
        None => Out::push(col, &vec![0; f.cell_size() as usize], 0),
    }
}

/// The current cell of `c` in the writer's column order, copied.
fn copy_cell(shape: &Shape, c: &Cursor) -> Vec<(Vec<u8>, u8)> {
    let mut out = Out::new(shape);
    out.push_cell(shape, c);
    out.cols
        .into_iter()
        .map(|col| {
            let v = col.validity.as_ref().map_or(1, |v| v[0]);
            (col.data, v)
        })
        .collect()
}

/// A cell of a coordinate that several cells have, copied while they are
/// gathered: its timestamp, fragment and place in the tile, and the cell
/// (per writer column: bytes and validity).
type Candidate = (u64, usize, usize, Vec<(Vec<u8>, u8)>);

/// Widest packed key kept in the heap's entries.
const INLINE: usize = 8;

/// A heap entry: the cursor's current packed key when it fits inline
/// (compared without going to the cursor), and the cursor's position.
#[derive(Clone, Copy)]
struct Entry {
    key: [u64; INLINE],
    pos: usize,
}

/// A min-heap of entries under `less`.
struct Heap(Vec<Entry>);

impl Heap {
    fn sift_down(&mut self, mut i: usize, less: &impl Fn(&Entry, &Entry) -> bool) {
        let n = self.0.len();
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < n && less(&self.0[l], &self.0[m]) {
                m = l;
            }
            if r < n && less(&self.0[r], &self.0[m]) {
                m = r;
            }
            if m == i {
                return;
            }
            self.0.swap(i, m);
            i = m;
        }
    }

    fn build(&mut self, less: &impl Fn(&Entry, &Entry) -> bool) {
        for i in (0..self.0.len() / 2).rev() {
            self.sift_down(i, less);
        }
    }

    /// Removes the top.
    fn pop(&mut self, less: &impl Fn(&Entry, &Entry) -> bool) {
        let last = self.0.len() - 1;
        self.0.swap(0, last);
        self.0.pop();
        self.sift_down(0, less);
    }

    /// The entry that follows the top.
    fn second(&self, less: &impl Fn(&Entry, &Entry) -> bool) -> Option<usize> {
        match (self.0.get(1), self.0.get(2)) {
            (Some(a), Some(b)) => Some(if less(b, a) { b.pos } else { a.pos }),
            (Some(a), None) => Some(a.pos),
            _ => None,
        }
    }
}

/// The entry of the cursor at `pos`.
fn entry(c: &Cursor, pos: usize, shape: &Shape) -> Entry {
    let mut key = [0; INLINE];
    if shape.packed && shape.width <= INLINE {
        key[..shape.width].copy_from_slice(c.packed(shape));
    }
    Entry { key, pos }
}

/// Merges the reader's fragments into `writer` (made with
/// [`FragmentWriter::sparse_in_order`]); returns the cells handed over.
/// The reader's deletes are not applied (they keep applying to the new
/// fragment). The writer runs on a thread of its own, a batch behind the
/// merge.
pub(super) fn merge(
    reader: &ArrayReader,
    writer: &mut FragmentWriter,
    progress: &dyn Progress,
) -> WriteResult<u64> {
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Column>>(2);
        let written = s.spawn(move || -> WriteResult<()> {
            for cols in rx {
                writer.write(&cols)?;
            }
            Ok(())
        });
        let merged = merge_cells(reader, progress, &mut |cols| {
            // A closed channel: the writer failed, and says why below.
            tx.send(cols)
                .map_err(|_| WriteError::Unsupported("the writer stopped".into()))
        });
        drop(tx);
        let written = written
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        written?;
        merged
    })
}

/// The merge itself: batches of cells in global order go to `send`.
fn merge_cells(
    reader: &ArrayReader,
    progress: &dyn Progress,
    send: &mut dyn FnMut(Vec<Column>) -> WriteResult<()>,
) -> WriteResult<u64> {
    let (dims, attrs) = fields(reader).ok_or_else(|| {
        WriteError::Unsupported("a field of the schema has an unknown datatype".into())
    })?;
    let fills = reader
        .schema
        .attributes
        .iter()
        .zip(&attrs)
        .map(|(spec, a)| {
            (!a.nullable || spec.fill_value_validity.unwrap_or(0) != 0).then(|| {
                spec.fill_value
                    .clone()
                    .unwrap_or_else(|| vec![0; a.cell_size() as usize])
            })
        })
        .collect();
    let order = GlobalOrder::new(&reader.schema);
    let packed = order.dims.iter().all(|d| !d.var);
    let width = if packed {
        let mut k = Vec::new();
        let zero = [0u8; 16];
        order.key_into(
            |d| order.coord(d, &zero[..order.dims[d].datatype.size() as usize]),
            &mut k,
        );
        k.len() + order.dims.len()
    } else {
        0
    };
    let shape = Shape {
        packed,
        width,
        order,
        ranges: vec![Vec::new(); dims.len()],
        dims,
        attrs,
        fills,
        reader,
    };
    let opts = reader.options();
    let needed = vec![true; shape.attrs.len()];
    // Every fragment's first tile, decoded in parallel.
    let cursors: Vec<Option<Cursor>> = reader
        .fragments
        .par_iter()
        .enumerate()
        .map(|(index, frag)| -> WriteResult<Option<Cursor>> {
            let Some(tiles) = select_tiles(frag, &shape.dims, &shape.ranges, opts)? else {
                return Err(WriteError::Unsupported(format!(
                    "{}: a fragment without an R-tree",
                    frag.path.display()
                )));
            };
            let fields = FragmentFields::open(frag, &shape.dims, &shape.attrs, &needed, opts)?;
            let mut c = Cursor {
                frag,
                index,
                fields,
                tiles: tiles.into_iter().map(|(t, _)| t).collect(),
                next_tile: 0,
                tile: TileCells {
                    dims: Vec::new(),
                    attrs: Vec::new(),
                    timestamps: None,
                },
                len: 0,
                at: 0,
                key: Vec::new(),
            };
            Ok(c.load(&shape)?.then_some(c))
        })
        .collect::<WriteResult<_>>()?;
    let mut cursors: Vec<Cursor> = cursors.into_iter().flatten().collect();
    let allows_dups = reader.schema.allows_dups.unwrap_or(0) != 0;
    let n_dim = shape.dims.len();

    let mut heap = Heap(
        cursors
            .iter()
            .enumerate()
            .map(|(pos, c)| entry(c, pos, &shape))
            .collect(),
    );
    let mut out = Out::new(&shape);
    let mut total = 0u64;
    // Cells of one coordinate, copied while their group is gathered:
    // (timestamp, fragment, cell, the cell).
    let mut group: Vec<Candidate> = Vec::new();
    let inline = shape.packed && shape.width <= INLINE;
    // Cursors are in fragment order: the position breaks ties.
    macro_rules! less {
        () => {
            |a: &Entry, b: &Entry| {
                if inline {
                    (a.key, a.pos) < (b.key, b.pos)
                } else {
                    cursors[a.pos]
                        .cmp(&cursors[b.pos], &shape)
                        .then(a.pos.cmp(&b.pos))
                        .is_lt()
                }
            }
        };
    }
    heap.build(&less!());
    while let Some(&Entry { pos: top, .. }) = heap.0.first() {
        let c = &cursors[top];
        // Whether the next cell in the merge has the same coordinates.
        let next_equal = !allows_dups && {
            let same_in_frag = c.at + 1 < c.len
                && if shape.packed {
                    // Equal packed keys: equal coordinates (or -0.0 and
                    // 0.0, which the group tells apart by their bytes).
                    let w = shape.width;
                    c.key[c.at * w..(c.at + 1) * w] == c.key[(c.at + 1) * w..(c.at + 2) * w]
                } else {
                    (0..n_dim).all(|d| {
                        let s = shape.dims[d].cell_size();
                        c.tile.dims[d].cell(c.at, s) == c.tile.dims[d].cell(c.at + 1, s)
                    })
                };
            same_in_frag
                || heap
                    .second(&less!())
                    .is_some_and(|o| c.cmp(&cursors[o], &shape).is_eq())
        };
        if next_equal || !group.is_empty() {
            group.push((c.timestamp(), c.index, c.at, copy_cell(&shape, c)));
        } else {
            out.push_cell(&shape, c);
        }
        if cursors[top].advance(&shape)? {
            heap.0[0] = entry(&cursors[top], top, &shape);
            heap.sift_down(0, &less!());
        } else {
            heap.pop(&less!());
        }
        if !group.is_empty() && !next_equal {
            // The group is whole: per distinct coordinate bytes, the newest.
            let n_attr = shape.attrs.len();
            let coords = |g: &Candidate| {
                g.3[n_attr..]
                    .iter()
                    .map(|x| x.0.clone())
                    .collect::<Vec<_>>()
            };
            group.sort_by(|a, b| {
                coords(a)
                    .cmp(&coords(b))
                    .then((a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)))
            });
            for k in 0..group.len() {
                if group
                    .get(k + 1)
                    .is_none_or(|n| coords(n) != coords(&group[k]))
                {
                    out.push_owned(&group[k].3);
                }
            }
            group.clear();
        }
        if out.len >= BATCH_CELLS {
            let (cols, n) = out.take(&shape);
            send(cols)?;
            total += n as u64;
            progress.advance(n as u64);
        }
    }
    let (cols, n) = out.take(&shape);
    if n > 0 {
        send(cols)?;
        total += n as u64;
        progress.advance(n as u64);
    }
    Ok(total)
}
