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
//! With [`Stamping`] (consolidation with timestamps, as the engine does it
//! from format version 15 on) no cell is dropped for a newer one: every cell
//! keeps its write timestamp, the cells of one coordinate newest first,
//! and each cell the delete that removed it (delete metadata), or, purging,
//! deleted cells are left out.
//!
//! The writer checks the order of what it is given. Fragments whose cells
//! are not in the order this crate computes (none the engine writes is
//! known to be) end the merge with [`WriteError::OutOfOrder`]; the caller
//! then consolidates by sorting instead.

use rayon::prelude::*;

use crate::array::field::{FieldInfo, DELETE_CONDITION_INDEX, DELETE_TIMESTAMPS, TIMESTAMPS};
use crate::array::fragment::Fragment;
use crate::format::version::has_split_coordinates;
use crate::read::sparse::{select_tiles, special_fields, FragmentFields, TileCells};
use crate::read::ArrayReader;
use crate::read::{keep_masks, Delete};
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
    // A timestamp and delete metadata too, where the fragment keeps them.
    let per_cell = crate::read::sparse::cell_bytes(dims.iter().chain(&attrs)) + 24;
    // A tile holds up to `capacity` cells, and no more than its fragment.
    let capacity = reader.schema.capacity.max(1);
    let tiles: u64 = reader
        .fragments
        .iter()
        .map(|f| f.cell_num().unwrap_or(capacity).min(capacity))
        .fold(0u64, |a, c| a.saturating_add(c.saturating_mul(per_cell)));
    let footers = reader.fragments.iter().all(|f| {
        has_split_coordinates(f.version())
            && matches!(f.metadata, crate::array::fragment::Metadata::Footer(_))
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

/// Consolidation with timestamps: what the new fragment keeps of each cell.
pub(super) struct Stamping {
    /// The array's delete conditions as the reader stores them (negated),
    /// by timestamp: timestamp, commit file name, condition. A cell's
    /// delete condition index is its place here.
    pub conditions: Vec<Delete>,
    /// Deleted cells are left out (`sm.consolidation.purge_deleted_cells`).
    pub purge: bool,
    /// The new fragment keeps each cell's delete timestamp and condition.
    pub delete_meta: bool,
}

/// "No delete removed this cell", in delete metadata.
const NEVER: u64 = u64::MAX;

impl Stamping {
    /// The delete timestamp and condition index of the current cell of
    /// `c` (`NEVER` for neither): the earlier of what the fragment's own
    /// delete metadata says and of the first delete it has not processed
    /// that removes the cell (written at or before the delete, from the
    /// fragment's first timestamp on), as the engine's reader computes it
    /// for consolidation (sparse_index_reader_base.cc `apply_query_condition`,
    /// sparse_global_order_reader.cc `copy_delete_meta_tiles`).
    fn delete_of(&self, c: &Cursor) -> (u64, u64) {
        let ts = c.timestamp();
        let mut computed = (NEVER, NEVER);
        for (k, d) in self.conditions.iter().enumerate() {
            // The stored condition is the negation of the delete's: a cell
            // it does not keep is deleted (`None`: the delete does not
            // apply to the fragment).
            let Some(keep) = c.keeps.get(k).and_then(Option::as_ref) else {
                continue;
            };
            if ts > d.t1 {
                continue;
            }
            if !keep[c.at] {
                computed = (d.t1, k as u64);
                break;
            }
        }
        if let Some((dt, dci)) = &c.tile.delete_meta {
            let (own_t, own_k) = (dt[c.at], dci[c.at]);
            if computed.0 >= own_t {
                // The fragment's condition index, as an index of ours.
                let k = usize::try_from(own_k)
                    .ok()
                    .and_then(|k| c.processed.get(k))
                    .and_then(|n| self.conditions.iter().position(|d| &d.name == n))
                    .map_or(NEVER, |k| k as u64);
                return (own_t, if own_t == NEVER { NEVER } else { k });
            }
        }
        computed
    }
}

/// One fragment's place in the merge.
struct Cursor<'r> {
    frag: &'r Fragment,
    /// Whether the fragment keeps delete metadata, and the delete commits
    /// it processed (file names).
    has_delete_meta: bool,
    processed: Vec<String>,
    fields: FragmentFields,
    tiles: Vec<usize>,
    next_tile: usize,
    tile: TileCells,
    /// Per delete condition of the stamping, which cells of `tile` its
    /// stored condition keeps (`None`: it does not apply to the fragment).
    keeps: Vec<Option<Vec<bool>>>,
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
    /// Zeros, as many as the widest fixed-size attribute's cell.
    zeros: Vec<u8>,
    /// No string dimension: every cell gets a key of `width` integers
    /// whose order is the global order, computed once per tile.
    packed: bool,
    width: usize,
    /// The columns of timestamps and delete metadata the writer takes.
    specials: &'static [&'static str],
    /// The delete conditions consolidation with timestamps applies.
    conditions: &'a [Delete],
}

/// The packed key of a cell of fixed-size dimensions: the order's key
/// (tile indices, or the Hilbert value), then each coordinate in cell order
/// (row-major for Hilbert) as an integer of the same order: integers less
/// the domain's low bound, floats by their bits made to sort.
/// `scratch` holds the order's key on the way.
fn packed_key<'a>(
    order: &GlobalOrder,
    coord: impl Fn(usize) -> Coord<'a>,
    out: &mut Vec<u64>,
    scratch: &mut Vec<u64>,
) {
    let start = out.len();
    order.key_into(&coord, scratch);
    out.extend_from_slice(scratch);
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
        let mut scratch = Vec::new();
        for at in 0..self.len {
            self.at = at;
            packed_key(
                &shape.order,
                |d| self.coord(shape, d),
                &mut keys,
                &mut scratch,
            );
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
                self.keep_masks(shape)?;
                if shape.packed {
                    self.pack_keys(shape);
                }
                self.set_key(shape);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// [`Cursor::keeps`] of the tile just loaded: each delete the fragment
    /// has not processed and that does not come before its first write
    /// (the engine's consolidation reader skips those), evaluated on the
    /// tile's columns once.
    fn keep_masks(&mut self, shape: &Shape) -> WriteResult<()> {
        let t1 = self.frag.name.t1;
        let applies: Vec<bool> = shape
            .conditions
            .iter()
            .map(|d| d.t1 >= t1 && !(self.has_delete_meta && self.processed.contains(&d.name)))
            .collect();
        let active: Vec<&Delete> = shape
            .conditions
            .iter()
            .zip(&applies)
            .filter(|(_, a)| **a)
            .map(|(d, _)| d)
            .collect();
        let mut masks = keep_masks(
            &mut self.tile.dims,
            &mut self.tile.attrs,
            &shape.dims,
            &shape.attrs,
            self.len,
            &active,
        )?
        .into_iter();
        self.keeps = applies
            .iter()
            .map(|a| if *a { masks.next() } else { None })
            .collect();
        Ok(())
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

/// The output columns, in the writer's names: attributes, then dimensions,
/// then timestamps and delete metadata (when kept).
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
            .chain(shape.specials.iter().map(|n| Column::fixed(*n, Vec::new())))
            .collect();
        Out { cols, len: 0 }
    }

    /// The timestamp and delete metadata of the cell pushed last.
    fn push_stamps(&mut self, shape: &Shape, stamps: [u64; 3]) {
        let first = self.cols.len() - shape.specials.len();
        for (col, v) in self.cols[first..].iter_mut().zip(stamps) {
            col.data.extend_from_slice(&v.to_le_bytes());
        }
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
        let cols = &mut self.cols;
        cell_parts(shape, c, |k, b, v| Self::push(&mut cols[k], b, v));
        self.len += 1;
    }

    /// Appends a cell copied out before (a [`Group`]'s).
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

/// Hands `f` each writer column's bytes and validity of the current cell
/// of `c` (attributes, then dimensions). A null holds no bytes of its own
/// (zeros when fixed-size), as a read gives it; an attribute the fragment
/// was written without holds its fill value (or a null).
fn cell_parts(shape: &Shape, c: &Cursor, mut f: impl FnMut(usize, &[u8], u8)) {
    let null = |fi: &FieldInfo| -> &[u8] {
        if fi.cell_val_num.is_none() {
            &[]
        } else {
            &shape.zeros[..fi.cell_size() as usize]
        }
    };
    for (a, fi) in shape.attrs.iter().enumerate() {
        match &c.tile.attrs[a] {
            Some(data) if data.validity.as_ref().is_some_and(|v| v[c.at] == 0) => f(a, null(fi), 0),
            Some(data) => f(a, data.cell(c.at, fi.cell_size()), 1),
            None => match shape.fills[a].as_deref() {
                Some(b) => f(a, b, 1),
                None => f(a, null(fi), 0),
            },
        }
    }
    let n_attr = shape.attrs.len();
    for (d, fi) in shape.dims.iter().enumerate() {
        f(n_attr + d, c.tile.dims[d].cell(c.at, fi.cell_size()), 1);
    }
}

/// A cell copied out of its tile: per writer column, bytes and validity.
type OwnedCell = Vec<(Vec<u8>, u8)>;

/// The cells of one coordinate met in the merge (equal keys): per distinct
/// coordinate bytes (-0.0 and 0.0 have equal keys), the newest so far, as
/// a read picks it: the latest timestamp, then the later arrival (cells of
/// equal keys arrive by fragment, then by place in the fragment). Buffers
/// are reused from group to group.
#[derive(Default)]
struct Group {
    /// Timestamp and cell.
    cells: Vec<(u64, OwnedCell)>,
    len: usize,
}

impl Group {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Takes the current cell of `c` if it is the newest of its coordinate.
    fn offer(&mut self, shape: &Shape, c: &Cursor) {
        let n_attr = shape.attrs.len();
        let ts = c.timestamp();
        let same = |cell: &[(Vec<u8>, u8)]| {
            shape
                .dims
                .iter()
                .enumerate()
                .all(|(d, f)| cell[n_attr + d].0 == c.tile.dims[d].cell(c.at, f.cell_size()))
        };
        let slot = match self.cells[..self.len].iter().position(|(_, x)| same(x)) {
            Some(k) if ts < self.cells[k].0 => return,
            Some(k) => k,
            None => {
                if self.len == self.cells.len() {
                    let fields = n_attr + shape.dims.len();
                    self.cells.push((0, vec![(Vec::new(), 1); fields]));
                }
                self.len += 1;
                self.len - 1
            }
        };
        let (t, cell) = &mut self.cells[slot];
        *t = ts;
        cell_parts(shape, c, |k, b, v| {
            cell[k].0.clear();
            cell[k].0.extend_from_slice(b);
            cell[k].1 = v;
        });
    }

    /// The newest cell of each coordinate into `out` (by coordinate bytes),
    /// and the group emptied.
    fn flush(&mut self, shape: &Shape, out: &mut Out) {
        let n_attr = shape.attrs.len();
        let group = &mut self.cells[..self.len];
        fn coords(x: &[(Vec<u8>, u8)]) -> impl Iterator<Item = &Vec<u8>> {
            x.iter().map(|p| &p.0)
        }
        group.sort_by(|a, b| coords(&a.1[n_attr..]).cmp(coords(&b.1[n_attr..])));
        for (_, cell) in group.iter() {
            out.push_owned(cell);
        }
        self.len = 0;
    }
}

/// One cell of a coordinate met in the merge with timestamps kept.
struct Version {
    ts: u64,
    /// The cursor (fragment order) it came from, and its arrival.
    pos: usize,
    arrival: u64,
    delete: (u64, u64),
    cell: OwnedCell,
}

/// With timestamps kept, no duplicates allowed: every cell of one
/// coordinate met in the merge (equal keys), to be written newest first
/// (the later timestamp, then the later fragment), as the engine's merge
/// orders them. Buffers are reused from group to group.
#[derive(Default)]
struct Versions {
    cells: Vec<Version>,
    len: usize,
    order: Vec<usize>,
}

impl Versions {
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn offer(&mut self, shape: &Shape, c: &Cursor, pos: usize, delete: (u64, u64)) {
        if self.len == self.cells.len() {
            let fields = shape.attrs.len() + shape.dims.len();
            self.cells.push(Version {
                ts: 0,
                pos: 0,
                arrival: 0,
                delete,
                cell: vec![(Vec::new(), 1); fields],
            });
        }
        let v = &mut self.cells[self.len];
        v.ts = c.timestamp();
        v.pos = pos;
        v.arrival = self.len as u64;
        v.delete = delete;
        cell_parts(shape, c, |k, b, valid| {
            v.cell[k].0.clear();
            v.cell[k].0.extend_from_slice(b);
            v.cell[k].1 = valid;
        });
        self.len += 1;
    }

    /// The cells into `out`, by coordinate bytes, newest first. Purging,
    /// a deleted cell goes with every older cell of its coordinate (the
    /// engine's `purge_deletes_no_dups_mode`).
    fn flush(&mut self, shape: &Shape, purge: bool, out: &mut Out) {
        let n_attr = shape.attrs.len();
        let cells = &self.cells[..self.len];
        self.order.clear();
        self.order.extend(0..self.len);
        fn coords(v: &Version, n_attr: usize) -> impl Iterator<Item = &Vec<u8>> {
            v.cell[n_attr..].iter().map(|p| &p.0)
        }
        self.order.sort_by(|&a, &b| {
            let (x, y) = (&cells[a], &cells[b]);
            coords(x, n_attr)
                .cmp(coords(y, n_attr))
                .then(y.ts.cmp(&x.ts))
                .then(y.pos.cmp(&x.pos))
                .then(x.arrival.cmp(&y.arrival))
        });
        let mut gone = false;
        for (k, &i) in self.order.iter().enumerate() {
            let v = &cells[i];
            if k > 0 && !coords(&cells[self.order[k - 1]], n_attr).eq(coords(v, n_attr)) {
                gone = false;
            }
            if purge {
                gone |= v.delete.0 != NEVER;
                if gone {
                    continue;
                }
            }
            out.push_owned(&v.cell);
            out.push_stamps(shape, [v.ts, v.delete.0, v.delete.1]);
        }
        self.len = 0;
    }
}

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
    stamping: Option<&Stamping>,
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
        let merged = merge_cells(reader, stamping, progress, &mut |cols| {
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

/// The shape of the cells a merge of `reader`'s fragments writes: the
/// schema's fields, their fill values, the global order and its key width,
/// and the special fields `stamping` adds.
fn merge_shape<'a>(
    reader: &'a ArrayReader,
    stamping: Option<&'a Stamping>,
) -> WriteResult<Shape<'a>> {
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
    let zeros = vec![
        0;
        attrs
            .iter()
            .map(|a| a.cell_size() as usize)
            .max()
            .unwrap_or(0)
    ];
    let specials: &'static [&'static str] = match stamping {
        Some(st) if st.delete_meta => &[TIMESTAMPS, DELETE_TIMESTAMPS, DELETE_CONDITION_INDEX],
        Some(_) => &[TIMESTAMPS],
        None => &[],
    };
    let shape = Shape {
        specials,
        conditions: stamping.map_or(&[][..], |st| &st.conditions[..]),
        zeros,
        packed,
        width,
        order,
        ranges: vec![Vec::new(); dims.len()],
        dims,
        attrs,
        fills,
        reader,
    };
    Ok(shape)
}

/// The merge itself: batches of cells in global order go to `send`.
fn merge_cells(
    reader: &ArrayReader,
    stamping: Option<&Stamping>,
    progress: &dyn Progress,
    send: &mut dyn FnMut(Vec<Column>) -> WriteResult<()>,
) -> WriteResult<u64> {
    let shape = merge_shape(reader, stamping)?;
    let opts = reader.options();
    let needed = vec![true; shape.attrs.len()];
    // Every fragment's first tile, decoded in parallel.
    let cursors: Vec<Option<Cursor>> = reader
        .fragments
        .par_iter()
        .map(|frag| -> WriteResult<Option<Cursor>> {
            let Some(tiles) = select_tiles(frag, &shape.dims, &shape.ranges, opts)? else {
                return Err(WriteError::Unsupported(format!(
                    "{}: a fragment without an R-tree",
                    frag.path.display()
                )));
            };
            let fields = FragmentFields::open(frag, &shape.dims, &shape.attrs, &needed, opts)?;
            let has_delete_meta = special_fields(frag).1;
            let processed = if has_delete_meta {
                frag.processed_conditions(opts)?
                    .iter()
                    .map(|c| c.rsplit('/').next().unwrap_or_default().to_string())
                    .collect()
            } else {
                Vec::new()
            };
            let mut c = Cursor {
                frag,
                has_delete_meta,
                processed,
                fields,
                tiles: tiles.into_iter().map(|(t, _)| t).collect(),
                next_tile: 0,
                tile: TileCells {
                    dims: Vec::new(),
                    attrs: Vec::new(),
                    timestamps: None,
                    delete_meta: None,
                },
                keeps: Vec::new(),
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
    let mut group = Group::default();
    let mut versions = Versions::default();
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
        if let Some(st) = stamping {
            let delete = st.delete_of(c);
            if next_equal || !versions.is_empty() {
                versions.offer(&shape, c, top, delete);
            } else if !(st.purge && delete.0 != NEVER) {
                out.push_cell(&shape, c);
                out.push_stamps(&shape, [c.timestamp(), delete.0, delete.1]);
            }
        } else if next_equal || !group.is_empty() {
            group.offer(&shape, c);
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
            group.flush(&shape, &mut out);
        }
        if !versions.is_empty() && !next_equal {
            versions.flush(&shape, stamping.is_some_and(|s| s.purge), &mut out);
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
