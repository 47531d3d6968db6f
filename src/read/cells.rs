//! Cells of an array, as the engine returns them: dense arrays cell by cell
//! over a region (later fragments overwrite earlier ones; cells no fragment
//! wrote hold the fill value), sparse arrays the cells of all fragments
//! (duplicates kept when the schema allows them, else the newest wins;
//! delete conditions applied).

use std::path::Path;

use serde_json::{json, Map, Value};

use super::condition::{holds, CellValue};
use super::dense;
use super::field::ReadStats;
use super::field::{read_field, read_zipped_coords, FieldData};
use super::query_condition::{BoundCondition, QueryCondition};
use super::range::{Bound, DimRange};
use super::sparse;
use super::sparse::below;
use crate::array::directory::ArrayDirectory;
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{decode_all, ArraySchema, ArrayType, ConditionNode, Datatype, Layout};
use crate::storage::StorageRef;
use crate::tile::read_generic_tile;
use crate::value;
use crate::ReadOptions;

/// What to read.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Attributes to read (`None`: all).
    pub attributes: Option<Vec<String>>,
    /// Per dimension, an inclusive integer range to keep (`None`: no limit).
    /// The older form of [`Query::ranges`]; both may be given (their
    /// intersection is read).
    pub subarray: Option<Vec<Option<(i128, i128)>>>,
    /// Typed ranges by dimension name; several for one dimension make a
    /// multi-range (the cells of any of them). A dimension not named is not
    /// limited.
    pub ranges: Vec<(String, Vec<DimRange>)>,
    /// Only cells for which this condition holds (dense arrays: the other
    /// cells hold fill values, as the engine returns them).
    pub condition: Option<QueryCondition>,
    /// The order of the result (`None`: row-major, as `export` prints).
    pub order: Option<Order>,
    /// Batches of at most this many cells from [`ArrayReader::batches`]
    /// (`None`: [`Query::DEFAULT_BATCH_CELLS`]).
    pub batch_cells: Option<usize>,
    /// The most memory a read may hold at once for its results and decoded
    /// tiles, in bytes. `None`: [`Query::DEFAULT_MEMORY_BUDGET`] for
    /// [`ArrayReader::batches`]; for a whole dense [`ArrayReader::read`],
    /// [`ReadOptions::max_tile_bytes`] (1 GiB unless set), larger results
    /// being read in batches or with a budget set here. The per-tile limit
    /// of [`ReadOptions::max_tile_bytes`] always applies.
    pub memory_budget: Option<u64>,
    /// Tiles not to read, as (index into [`ArrayReader::fragments`], tile
    /// index): sparse reads only, for aggregates answered from tile
    /// metadata. Dense reads refuse a query that sets it.
    pub skip_tiles: Option<std::sync::Arc<std::collections::HashSet<(usize, u64)>>>,
    /// Leave the dimensions' columns out of the result (a dense read then
    /// holds only the attributes, as the engine's `A[:]` returns them).
    pub skip_coordinates: bool,
}

impl Query {
    /// Cells per batch unless [`Query::batch_cells`] says otherwise.
    pub const DEFAULT_BATCH_CELLS: usize = 1 << 20;
    /// The memory budget of [`ArrayReader::batches`] unless
    /// [`Query::memory_budget`] says otherwise.
    pub const DEFAULT_MEMORY_BUDGET: u64 = 1 << 30;

    /// A query of every cell of every attribute.
    pub fn new() -> Self {
        Query::default()
    }

    /// Adds a range on dimension `dim` (a second one on the same dimension
    /// makes a multi-range).
    pub fn range(mut self, dim: &str, r: DimRange) -> Self {
        match self.ranges.iter_mut().find(|(d, _)| d == dim) {
            Some((_, rs)) => rs.push(r),
            None => self.ranges.push((dim.to_string(), vec![r])),
        }
        self
    }
}

/// The order cells come back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Row-major order of the coordinates (the last dimension fastest).
    #[default]
    RowMajor,
    /// Column-major order of the coordinates (the first dimension fastest).
    ColMajor,
    /// The array's global order (tile order, then cell order within tiles).
    GlobalOrder,
    /// Whatever order is fastest (sparse arrays; dense arrays: row-major).
    Unordered,
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "rowmajor" | "c" => Ok(Order::RowMajor),
            "colmajor" | "f" => Ok(Order::ColMajor),
            "global" | "globalorder" | "g" => Ok(Order::GlobalOrder),
            "unordered" | "u" => Ok(Order::Unordered),
            _ => Err(format!(
                "unknown order {s:?} (row-major, col-major, global, unordered)"
            )),
        }
    }
}

/// A [`Column`] taken apart: the field, every cell's bytes, the var-sized
/// offsets and the validity bytes ([`Column::into_parts`]).
pub type ColumnParts = (FieldInfo, Vec<u8>, Option<Vec<u64>>, Option<Vec<u8>>);

/// One column of a result: a field's values for every cell, back to back.
#[derive(Debug, Clone)]
pub struct Column {
    /// The field the values belong to.
    pub field: FieldInfo,
    /// Every cell's bytes, in order (a null cell of a fixed-size layout
    /// holds zeros).
    data: Vec<u8>,
    /// Where each cell starts in `data`, then where the last one ends;
    /// `None`: every cell takes the field's cell size.
    offsets: Option<Vec<u64>>,
    /// One byte per cell, 0 = null; `None`: no cell is null.
    validity: Option<Vec<u8>>,
    len: usize,
}

impl Column {
    /// A column from its buffers (see [`Column::data`], [`Column::offsets`],
    /// [`Column::validity`]).
    pub(crate) fn from_parts(
        field: FieldInfo,
        data: Vec<u8>,
        offsets: Option<Vec<u64>>,
        validity: Option<Vec<u8>>,
        len: usize,
    ) -> Self {
        Column {
            field,
            data,
            offsets,
            validity,
            len,
        }
    }

    /// An empty column of `field`, room for `capacity` cells.
    fn new(field: FieldInfo, capacity: usize) -> Self {
        let cell_size = field.cell_size() as usize;
        let var = field.cell_val_num.is_none();
        Column {
            data: Vec::with_capacity(if var { 0 } else { capacity * cell_size }),
            offsets: var.then(|| {
                let mut o = Vec::with_capacity(capacity + 1);
                o.push(0);
                o
            }),
            validity: field.nullable.then(|| Vec::with_capacity(capacity)),
            field,
            len: 0,
        }
    }

    /// A column of `n` cells that all hold `fill` (`None`: null).
    fn filled(field: FieldInfo, n: usize, fill: Option<&[u8]>) -> Self {
        let mut c = Column::new(field, 0);
        let cell_size = c.cell_size();
        match (&c.offsets, fill) {
            (None, Some(f)) if f.len() == cell_size => {
                c.data = f.repeat(n);
                c.len = n;
            }
            (None, None) => {
                c.data = vec![0; n * cell_size];
                c.len = n;
            }
            _ => (0..n).for_each(|_| c.push(fill)),
        }
        if fill.is_none() || c.validity.is_some() {
            c.validity = Some(vec![u8::from(fill.is_some()); n]);
        }
        c
    }

    fn cell_size(&self) -> usize {
        self.field.cell_size() as usize
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the column holds no cell.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes of cell `i` (`None`: null).
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        assert!(i < self.len, "cell {i} of a column of {}", self.len);
        if self.validity.as_ref().is_some_and(|v| v[i] == 0) {
            return None;
        }
        Some(match &self.offsets {
            Some(o) => &self.data[o[i] as usize..o[i + 1] as usize],
            None => {
                let cs = self.cell_size();
                &self.data[i * cs..(i + 1) * cs]
            }
        })
    }

    /// The values of a fixed-size column viewed in place (no copy) as `T`,
    /// one of zerocopy's unaligned little-endian types
    /// (`zerocopy::byteorder::little_endian::{I32, U64, F64, ..}`, or `u8`,
    /// `i8`), whose size must be the datatype's; `None` for var-sized
    /// columns or a `T` of another size. Null cells hold zeros (see
    /// [`Column::validity`]).
    pub fn values<T>(&self) -> Option<&[T]>
    where
        T: zerocopy::FromBytes + zerocopy::Immutable + zerocopy::KnownLayout + zerocopy::Unaligned,
    {
        if self.offsets.is_some() || std::mem::size_of::<T>() as u64 != self.field.datatype.size() {
            return None;
        }
        <[T] as zerocopy::FromBytes>::ref_from_bytes(&self.data).ok()
    }

    /// Every cell's bytes, back to back.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Var-sized layout: where each cell starts in [`Column::data`], then
    /// where the last one ends.
    pub fn offsets(&self) -> Option<&[u64]> {
        self.offsets.as_deref()
    }

    /// One byte per cell, 0 = null (`None`: no cell is null).
    pub fn validity(&self) -> Option<&[u8]> {
        self.validity.as_deref()
    }

    /// The column's buffers, moved out (no copy): the field, every cell's
    /// bytes, the var-sized offsets (one more than cells) and the validity
    /// bytes (see [`Column::data`], [`Column::offsets`], [`Column::validity`]).
    pub fn into_parts(self) -> ColumnParts {
        (self.field, self.data, self.offsets, self.validity)
    }

    /// Appends a cell (`None`: null).
    fn push(&mut self, cell: Option<&[u8]>) {
        let cell_size = self.cell_size();
        if cell.is_none() && self.validity.is_none() {
            self.validity = Some(vec![1; self.len]);
        }
        if let Some(v) = &mut self.validity {
            v.push(u8::from(cell.is_some()));
        }
        let bytes = match cell {
            Some(b) => b,
            None if self.offsets.is_some() => &[],
            None => {
                self.data.resize(self.data.len() + cell_size, 0);
                self.len += 1;
                return;
            }
        };
        if self.offsets.is_none() && bytes.len() != cell_size {
            // A cell of another size than the schema's (a fragment that
            // names the field with another type, a fill value of another
            // size): the column takes offsets.
            self.offsets = Some(
                (0..=self.len as u64)
                    .map(|i| i * cell_size as u64)
                    .collect(),
            );
        }
        self.data.extend_from_slice(bytes);
        if let Some(o) = &mut self.offsets {
            o.push(self.data.len() as u64);
        }
        self.len += 1;
    }

    /// Overwrites cell `i` of a column of the fixed-size layout with a cell
    /// of the cell size (`None`: null).
    fn set_fixed(&mut self, i: usize, cell: Option<&[u8]>) {
        let cs = self.cell_size();
        match cell {
            Some(b) => self.data[i * cs..(i + 1) * cs].copy_from_slice(b),
            None => self.data[i * cs..(i + 1) * cs].fill(0),
        }
        if cell.is_none() && self.validity.is_none() {
            self.validity = Some(vec![1; self.len]);
        }
        if let Some(v) = &mut self.validity {
            v[i] = u8::from(cell.is_some());
        }
    }

    /// Cells `start..end` as a column of their own.
    pub fn slice(&self, start: usize, end: usize) -> Column {
        let (data, offsets) = match &self.offsets {
            Some(o) => {
                let base = o[start];
                (
                    self.data[base as usize..o[end] as usize].to_vec(),
                    Some(o[start..=end].iter().map(|x| x - base).collect()),
                )
            }
            None => {
                let cs = self.cell_size();
                (self.data[start * cs..end * cs].to_vec(), None)
            }
        };
        Column {
            field: self.field.clone(),
            data,
            offsets,
            validity: self.validity.as_ref().map(|v| v[start..end].to_vec()),
            len: end - start,
        }
    }

    /// Sets every cell whose `mask` entry is false to `fill` (`None`: null).
    pub(crate) fn replace_failing(&mut self, mask: &[bool], fill: Option<&[u8]>) {
        if mask.iter().all(|m| *m) {
            return;
        }
        let fixed = self.offsets.is_none() && fill.is_none_or(|f| f.len() == self.cell_size());
        if fixed {
            for (i, _) in mask.iter().enumerate().filter(|(_, m)| !**m) {
                self.set_fixed(i, fill);
            }
            return;
        }
        let mut c = Column::new(self.field.clone(), self.len);
        for (i, m) in mask.iter().enumerate().take(self.len) {
            c.push(if *m { self.get(i) } else { fill });
        }
        *self = c;
    }

    /// The JSON of cell `i`, as `export` prints it.
    pub fn json(&self, i: usize) -> Value {
        match self.get(i) {
            None => Value::Null,
            Some(b)
                if self.field.cell_val_num.is_none() && !value::is_text(self.field.datatype) =>
            {
                Value::Array(value::values(self.field.datatype, b))
            }
            Some(b) => value::cell(self.field.datatype, b),
        }
    }
}

/// The cells a query returned, column by column (dimensions first).
#[derive(Debug, Clone)]
pub struct Cells {
    /// One column per field read, dimensions first, in schema order.
    pub columns: Vec<Column>,
    /// How many cells every column holds.
    pub len: usize,
}

impl Cells {
    /// The cells whose `mask` entry is true.
    pub fn filter(&self, mask: &[bool]) -> Cells {
        let len = mask.iter().take(self.len).filter(|m| **m).count();
        let columns = self
            .columns
            .iter()
            .map(|c| {
                let mut out = Column::new(c.field.clone(), len);
                for (i, _) in mask.iter().enumerate().take(self.len).filter(|(_, m)| **m) {
                    out.push(c.get(i));
                }
                if c.validity.is_some() && out.validity.is_none() {
                    out.validity = Some(vec![1; len]);
                }
                out
            })
            .collect();
        Cells { columns, len }
    }

    /// The column of field `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.field.name == name)
    }

    /// Cells `start..start + len` (clamped to the cells there are).
    pub fn slice(&self, start: usize, len: usize) -> Cells {
        let start = start.min(self.len);
        let end = start.saturating_add(len).min(self.len);
        Cells {
            columns: self.columns.iter().map(|c| c.slice(start, end)).collect(),
            len: end - start,
        }
    }

    /// Cell `i` as a JSON object: dimension names, then attribute names.
    pub fn row(&self, i: usize) -> Value {
        let mut m = Map::new();
        for c in &self.columns {
            m.insert(c.field.name.clone(), c.json(i));
        }
        Value::Object(m)
    }
}

/// The batches of a read ([`ArrayReader::batches`]).
pub struct Batches<'a> {
    inner: BatchesInner<'a>,
}

enum BatchesInner<'a> {
    /// A dense read, a slab of rows at a time.
    Dense {
        reader: &'a ArrayReader,
        plan: Box<DensePlan<'a>>,
        sels: dense::DenseBatches,
        query: Box<Query>,
    },
    /// A result read whole, handed out in slices.
    Buffered {
        cells: Cells,
        at: usize,
        size: usize,
    },
    /// A sparse read a slab at a time, each handed out in slices.
    Slabs {
        reader: &'a ArrayReader,
        slabs: std::vec::IntoIter<Query>,
        size: usize,
        current: Option<(Cells, usize)>,
    },
}

impl Iterator for Batches<'_> {
    type Item = Result<Cells>;

    fn next(&mut self) -> Option<Result<Cells>> {
        match &mut self.inner {
            BatchesInner::Dense {
                reader,
                plan,
                sels,
                query,
            } => {
                let sel = sels.next()?;
                Some(reader.dense_batch(plan, &sel, query))
            }
            BatchesInner::Slabs {
                reader,
                slabs,
                size,
                current,
            } => loop {
                if let Some((cells, at)) = current {
                    if *at < cells.len {
                        let b = cells.slice(*at, *size);
                        *at += b.len;
                        return Some(Ok(b));
                    }
                }
                let slab = slabs.next()?;
                match reader.read(&slab) {
                    Ok(c) => *current = Some((c, 0)),
                    Err(e) => return Some(Err(e)),
                }
            },
            BatchesInner::Buffered { cells, at, size } => {
                if *at >= cells.len {
                    return None;
                }
                let b = cells.slice(*at, *size);
                *at += b.len;
                Some(Ok(b))
            }
        }
    }
}

/// A dense read planned.
struct DensePlan<'a> {
    grid: dense::Grid,
    frags: Vec<dense::DenseFragment<'a>>,
    dims: Vec<FieldInfo>,
    attrs: Vec<dense::DenseAttr>,
    sel: dense::Selection,
    condition: Option<BoundCondition>,
    /// How many attributes at the end of `attrs` only the condition reads.
    extra: usize,
}

/// An attribute of a dense read while fragments overwrite its cells.
pub(crate) enum DenseColumn {
    /// Cells of the field's cell size, overwritten in place.
    Fixed(Column),
    /// Cells of any size: each cell's place in `arena`, where every write
    /// appends (compacted when overwritten bytes outweigh the live ones).
    Spans {
        field: FieldInfo,
        arena: Vec<u8>,
        spans: Vec<(u64, u64)>,
        valid: Vec<u8>,
        live: u64,
    },
}

impl DenseColumn {
    /// Bytes per cell besides the cells' own while cells have places: a
    /// place, a validity byte, then an offset and a validity byte.
    const SPAN_BYTES: u64 = 16 + 1 + 8 + 1;

    pub(crate) fn new(field: FieldInfo, n: usize, fill: Option<&[u8]>) -> Self {
        let cs = field.cell_size() as usize;
        if field.cell_val_num.is_some() && fill.is_none_or(|f| f.len() == cs) {
            return DenseColumn::Fixed(Column::filled(field, n, fill));
        }
        let fill_len = fill.map_or(0, |f| f.len() as u64);
        DenseColumn::Spans {
            field,
            arena: fill.unwrap_or_default().to_vec(),
            spans: vec![(0, fill_len); n],
            valid: vec![u8::from(fill.is_some()); n],
            live: fill_len.saturating_mul(n as u64),
        }
    }

    /// Overwrites cell `i` (`None`: null).
    pub(crate) fn set(&mut self, i: usize, cell: Option<&[u8]>) {
        if let DenseColumn::Fixed(c) = self {
            if cell.is_none_or(|b| b.len() == c.cell_size()) {
                return c.set_fixed(i, cell);
            }
            // A cell of another size (the fragment's schema gives the
            // field another type): the cells take places.
            let cs = c.cell_size() as u64;
            let c = std::mem::replace(c, Column::new(c.field.clone(), 0));
            let n = c.len;
            *self = DenseColumn::Spans {
                spans: (0..n as u64).map(|k| (k * cs, cs)).collect(),
                valid: c.validity.unwrap_or_else(|| vec![1; n]),
                live: c.data.len() as u64,
                arena: c.data,
                field: c.field,
            };
        }
        let DenseColumn::Spans {
            arena,
            spans,
            valid,
            live,
            ..
        } = self
        else {
            unreachable!("fixed columns returned above")
        };
        *live -= spans[i].1;
        let b = cell.unwrap_or_default();
        spans[i] = (arena.len() as u64, b.len() as u64);
        arena.extend_from_slice(b);
        *live += b.len() as u64;
        valid[i] = u8::from(cell.is_some());
        if arena.len() as u64 > live.saturating_mul(2).saturating_add(1 << 20) {
            let mut kept = Vec::with_capacity(*live as usize);
            for s in spans.iter_mut() {
                let start = kept.len() as u64;
                kept.extend_from_slice(&arena[s.0 as usize..(s.0 + s.1) as usize]);
                s.0 = start;
            }
            *arena = kept;
        }
    }

    pub(crate) fn finish(self) -> Column {
        match self {
            DenseColumn::Fixed(c) => c,
            DenseColumn::Spans {
                field,
                arena,
                spans,
                valid,
                ..
            } => {
                let mut c = Column::new(field, spans.len());
                for (s, v) in spans.iter().zip(&valid) {
                    let b = &arena[s.0 as usize..(s.0 + s.1) as usize];
                    c.push((*v != 0).then_some(b));
                }
                c
            }
        }
    }
}

/// An array opened for reading.
pub struct ArrayReader {
    /// What the array folder holds, committed fragments included.
    pub dir: ArrayDirectory,
    /// The latest array schema.
    pub schema: ArraySchema,
    /// The fragments this reader reads (committed, within the time range
    /// asked for).
    pub fragments: Vec<Fragment>,
    opts: ReadOptions,
    stats: ReadStats,
}

impl ArrayReader {
    /// What the reader has read so far.
    pub(crate) fn read_stats(&self) -> &ReadStats {
        &self.stats
    }
}

/// Reads a field of a fragment and checks what the files gave against
/// itself before cells are taken from it: var-sized offsets must rise
/// within the var data, validity must cover every cell. `cells` is the
/// number of cells the fragment's other fields hold, when known.
fn read_checked(
    frag: &Fragment,
    field: &FieldInfo,
    opts: &ReadOptions,
    cells: Option<usize>,
) -> Result<FieldData> {
    let data = read_field(frag, field, opts)?;
    let bad = |what: String| Err(Error::decode(&frag.path, 0, "Tile", &field.name, what));
    let n = data.len(field.cell_size());
    if let Some(offsets) = &data.offsets {
        let len = data.values.len() as u64;
        let mut prev = 0;
        for (i, &o) in offsets.iter().enumerate() {
            if o < prev || o > len {
                return bad(format!(
                    "cell {i} starts at byte {o}, after the previous cell's {prev} \
                     or past the {len} bytes of var data"
                ));
            }
            prev = o;
        }
    }
    if let Some(v) = &data.validity {
        if v.len() < n {
            return bad(format!("{} validity values for {n} cells", v.len()));
        }
    }
    if let Some(expected) = cells {
        if n != expected {
            return bad(format!(
                "{n} cells, the fragment's first dimension has {expected}"
            ));
        }
    }
    Ok(data)
}

fn int_of(dt: Datatype, b: &[u8]) -> Option<i128> {
    let v = value::cell(dt, b);
    v.as_i64()
        .map(i128::from)
        .or_else(|| v.as_u64().map(i128::from))
}

impl ArrayReader {
    /// Opens the array at `path` with every committed fragment.
    pub fn open(path: &Path, opts: &ReadOptions) -> Result<Self> {
        Self::open_at(path, None, opts)
    }

    /// Opens the array as of the timestamp range `[t1, t2]` (milliseconds):
    /// fragments, deletes and metadata written in it.
    pub fn open_at(path: &Path, range: Option<(u64, u64)>, opts: &ReadOptions) -> Result<Self> {
        Self::open_in(StorageRef::default(), path, range, opts)
    }

    /// Opens the array at `path` of `storage` (local files, objects in
    /// memory, or any other [`crate::storage::Storage`]), as of the
    /// timestamp range `range` when given.
    pub fn open_in(
        storage: StorageRef,
        path: &Path,
        range: Option<(u64, u64)>,
        opts: &ReadOptions,
    ) -> Result<Self> {
        let mut dir = ArrayDirectory::open_in(storage, path)?;
        let schema_path = dir.latest_schema().ok_or_else(|| Error::NotTileDb {
            path: path.to_path_buf(),
            what: "the array has no schema".into(),
        })?;
        let schema =
            crate::array::schema::read_schema_file(&dir.storage.open(&schema_path)?, opts)?;
        if let Some((s, e)) = range {
            let dense = schema.array_type == ArrayType::Dense.value();
            // Dense arrays and old fragments: whole fragments inside the range;
            // sparse fragments from version 15: any overlap (cells are then
            // filtered by their timestamps).
            dir.fragments.retain(|f| {
                let n = &f.name;
                if !dense && n.version >= 15 {
                    n.t1 <= e && s <= n.t2
                } else {
                    n.t1 >= s && n.t2 <= e
                }
            });
            dir.deletes.retain(|d| d.name.t1 >= s && d.name.t2 <= e);
        }
        // Footers are independent: read them in parallel (from an object
        // store, their tails fetched concurrently first).
        let fragments = Fragment::open_all(&dir, &dir.fragments, opts)?;
        Ok(ArrayReader {
            dir,
            schema,
            fragments,
            opts: *opts,
            stats: ReadStats::default(),
        })
    }

    /// The options the array was opened with.
    pub fn options(&self) -> &ReadOptions {
        &self.opts
    }

    /// The fields whose columns a read of `q` returns, in order: the
    /// dimensions (unless [`Query::skip_coordinates`]), then the attributes.
    pub fn result_fields(&self, q: &Query) -> Result<Vec<FieldInfo>> {
        let (dims, attrs) = self.fields(q)?;
        Ok(if q.skip_coordinates {
            attrs
        } else {
            dims.into_iter().chain(attrs).collect()
        })
    }

    fn fields(&self, q: &Query) -> Result<(Vec<FieldInfo>, Vec<FieldInfo>)> {
        let dims = self
            .schema
            .domain
            .dimensions
            .iter()
            // A dimension whose name an attribute also has is found as the
            // attribute (the engine refuses such schemas): refused here too.
            .map(|d| {
                FieldInfo::lookup(&self.schema, &String::from_utf8_lossy(&d.name))
                    .filter(|f| f.is_dimension)
            })
            .collect::<Option<Vec<_>>>();
        let names: Vec<String> = match &q.attributes {
            Some(a) => a.clone(),
            None => self
                .schema
                .attributes
                .iter()
                .map(|a| String::from_utf8_lossy(&a.name).into_owned())
                .collect(),
        };
        let mut attrs = Vec::new();
        for n in names {
            let f = FieldInfo::lookup(&self.schema, &n)
                .filter(|f| !f.is_dimension)
                .ok_or_else(|| Error::NotTileDb {
                    path: self.dir.root.clone(),
                    what: format!("the array has no attribute {n:?}"),
                })?;
            attrs.push(f);
        }
        let dims = dims.ok_or_else(|| Error::Unsupported {
            path: self.dir.root.clone(),
            what: "a dimension has a datatype this crate does not know, or an attribute's name"
                .into(),
        })?;
        // A cell no tile may hold cannot be read (and its fill value must
        // not be allocated): cell sizes come from the schema.
        let limit = self.opts.max_tile_bytes();
        if let Some(f) = dims.iter().chain(&attrs).find(|f| f.cell_size() > limit) {
            return Err(Error::Unsupported {
                path: self.dir.root.clone(),
                what: format!(
                    "the cells of {:?} take {} bytes, over the limit of {limit} bytes",
                    f.name,
                    f.cell_size()
                ),
            });
        }
        Ok((dims, attrs))
    }

    /// The cells the query asks for, in batches of at most
    /// [`Query::batch_cells`] cells, holding at most about
    /// [`Query::memory_budget`] bytes at once.
    pub fn batches<'a>(&'a self, q: &Query) -> Result<Batches<'a>> {
        let size = q.batch_cells.unwrap_or(Query::DEFAULT_BATCH_CELLS).max(1);
        let budget = q.memory_budget.unwrap_or(Query::DEFAULT_MEMORY_BUDGET);
        if self.schema.array_type == ArrayType::Dense.value() {
            let plan = self.dense_plan(q)?;
            let per_cell = Self::dense_cell_bytes(&plan, true).max(1);
            // Half the budget for the batch, the rest for tiles being decoded.
            let cells = (budget / 2 / per_cell).max(1);
            let size = size.min(usize::try_from(cells).unwrap_or(usize::MAX));
            // A batch is at least one row of the outermost dimension: a
            // row larger than the budget (a huge domain) is refused, not
            // allocated.
            let row = plan.sel.row_cells();
            let fits = u64::try_from(row)
                .ok()
                .and_then(|r| r.checked_mul(per_cell))
                .is_some_and(|b| b <= budget);
            if !fits {
                return Err(Error::Query {
                    path: self.dir.root.clone(),
                    what: format!(
                        "one row of this dense read holds {row} cells of {per_cell} bytes, more than the memory budget of {budget} bytes (Query::memory_budget): give ranges on the dimensions"
                    ),
                });
            }
            let sels = dense::batches(&plan.sel, size);
            return Ok(Batches {
                inner: BatchesInner::Dense {
                    reader: self,
                    plan: Box::new(plan),
                    sels,
                    query: Box::new(q.clone()),
                },
            });
        }
        // Sparse: when the cells the query may select would not fit half
        // the budget, slabs of the outermost dimension of the order, cut
        // where tiles start, are read one after the other.
        if let Some(slabs) = self.sparse_slabs(q, budget)? {
            return Ok(Batches {
                inner: BatchesInner::Slabs {
                    reader: self,
                    slabs: slabs.into_iter(),
                    size,
                    current: None,
                },
            });
        }
        let cells = self.read(q)?;
        Ok(Batches {
            inner: BatchesInner::Buffered { cells, at: 0, size },
        })
    }

    /// The queries of the slabs of a sparse read larger than half of
    /// `budget`, in the order of the result; `None`: one read (it fits, or
    /// the order or the dimension cannot be cut: global order, strings).
    fn sparse_slabs(&self, q: &Query, budget: u64) -> Result<Option<Vec<Query>>> {
        let (dims, attrs) = self.fields(q)?;
        let d = match q.order {
            None | Some(Order::RowMajor) | Some(Order::Unordered) => 0,
            Some(Order::ColMajor) => dims.len() - 1,
            Some(Order::GlobalOrder) => return Ok(None),
        };
        let ranges = self.dim_ranges_of(q, &dims)?;
        let Some(mut lows) = sparse::tile_lows(&self.fragments, &dims, &ranges, d, &self.opts)?
        else {
            return Ok(None);
        };
        let per_cell = sparse::cell_bytes(dims.iter().chain(&attrs));
        let per_tile = self.schema.capacity.max(1).saturating_mul(per_cell);
        // Tiles of one slab: half the budget, at least one.
        let tiles_per = (budget / 2 / per_tile.max(1)).max(1) as usize;
        if lows.len() <= tiles_per {
            return Ok(None);
        }
        lows.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let mut cuts: Vec<Bound> = Vec::new();
        for lo in lows.iter().skip(tiles_per).step_by(tiles_per) {
            if cuts.last() != Some(lo) && below(lo).is_some() {
                cuts.push(lo.clone());
            }
        }
        let (lo_dom, hi_dom) = self.domain_bounds(&dims[d], d)?;
        cuts.retain(|c| *c > lo_dom && *c <= hi_dom);
        if cuts.is_empty() {
            return Ok(None);
        }
        let name = dims[d].name.clone();
        let mut slabs = Vec::with_capacity(cuts.len() + 1);
        let mut from = lo_dom;
        for cut in cuts.iter().chain(std::iter::once(&hi_dom)) {
            let last = std::ptr::eq(cut, &hi_dom);
            let to = if last {
                hi_dom.clone()
            } else {
                below(cut).expect("checked")
            };
            let mut s = q.clone();
            s.ranges.push((
                name.clone(),
                vec![DimRange {
                    lo: from.clone(),
                    hi: to,
                }],
            ));
            slabs.push(s);
            from = cut.clone();
        }
        Ok(Some(slabs))
    }

    /// The domain of dimension `d` as bounds.
    fn domain_bounds(&self, f: &FieldInfo, d: usize) -> Result<(Bound, Bound)> {
        let dim = &self.schema.domain.dimensions[d];
        let w = dim.domain.len() / 2;
        match (
            Bound::of_cell(f.datatype, &dim.domain[..w]),
            Bound::of_cell(f.datatype, &dim.domain[w..]),
        ) {
            (Some(lo), Some(hi)) => Ok((lo, hi)),
            _ => Err(Error::Unsupported {
                path: self.dir.root.clone(),
                what: format!("the domain of {:?}", f.name),
            }),
        }
    }

    /// What reads of this reader decoded so far.
    pub fn stats(&self) -> &ReadStats {
        &self.stats
    }

    /// Reads the cells the query asks for.
    pub fn read(&self, q: &Query) -> Result<Cells> {
        if self.schema.array_type == ArrayType::Dense.value() {
            self.read_dense(q)
        } else {
            self.read_sparse(q)
        }
    }

    fn dim_ranges(&self) -> Result<Vec<(Datatype, i128, i128, i128)>> {
        // (datatype, domain lo, domain hi, tile extent) of each dimension.
        self.schema
            .domain
            .dimensions
            .iter()
            .map(|d| {
                let dt =
                    Datatype::from_value(crate::array::schema::dimension_datatype(&self.schema, d));
                let w = d.domain.len() / 2;
                let r = dt.and_then(|dt| {
                    Some((
                        dt,
                        int_of(dt, &d.domain[..w])?,
                        int_of(dt, &d.domain[w..])?,
                        int_of(dt, &d.tile_extent)?,
                    ))
                });
                r.filter(|r| r.3 > 0).ok_or_else(|| Error::Unsupported {
                    path: self.dir.root.clone(),
                    what: "dense arrays need integer dimensions with tile extents".into(),
                })
            })
            .collect()
    }

    fn fragment_ned(&self, f: &Fragment) -> Option<Vec<(i128, i128)>> {
        f.non_empty_domain()
            .ok()??
            .iter()
            .map(|r| r.as_i128().map(|r| (r.start, r.end)))
            .collect()
    }

    /// The current domain of an array with integer dimensions, one
    /// inclusive range per dimension: `Ok(None)` when none is set (absent
    /// or empty, which the engine takes as "the whole domain"), an error
    /// when its ranges do not fit the dimensions.
    pub(crate) fn current_domain_ints(&self) -> Result<Option<Vec<(i128, i128)>>> {
        let Some(c) = &self.schema.current_domain else {
            return Ok(None);
        };
        if c.empty != 0 {
            return Ok(None);
        }
        let bad = || Error::Unsupported {
            path: self.dir.root.clone(),
            what: "a current domain whose ranges are not integer ranges of the dimensions".into(),
        };
        let mbr = c.ndrectangle.as_ref().ok_or_else(bad)?;
        let ranges = crate::model::table::ranges_from_mbr(&self.schema, mbr).ok_or_else(bad)?;
        let ints: Option<Vec<(i128, i128)>> = ranges
            .iter()
            .map(|r| r.as_i128().map(|r| (r.start, r.end)))
            .collect();
        ints.map(Some).ok_or_else(bad)
    }

    /// What a dense read of `q` reads: the grid, the fragments, the fields
    /// (with the condition's), the selection in the result's order.
    fn dense_plan(&self, q: &Query) -> Result<DensePlan<'_>> {
        if q.skip_tiles.is_some() {
            return Err(Error::Query {
                path: self.dir.root.clone(),
                what: "skipped tiles apply to sparse reads only".into(),
            });
        }
        let (dims, attrs) = self.fields(q)?;
        let ranges = self.dim_ranges()?;
        let frags: Vec<dense::DenseFragment> = self
            .fragments
            .iter()
            .map(|f| {
                self.fragment_ned(f)
                    .filter(|ned| ned.len() == ranges.len())
                    .map(|ned| dense::DenseFragment { frag: f, ned })
                    .ok_or_else(|| Error::Unsupported {
                        path: f.path.clone(),
                        what: "non-empty domain".into(),
                    })
            })
            .collect::<Result<_>>()?;
        let grid = dense::Grid {
            lo: ranges.iter().map(|r| r.1).collect(),
            hi: ranges.iter().map(|r| r.2).collect(),
            ext: ranges.iter().map(|r| r.3).collect(),
            tile_layout: Layout::from_value(self.schema.tile_order),
            cell_layout: Layout::from_value(self.schema.cell_order),
        };
        let neds: Vec<Vec<(i128, i128)>> = frags.iter().map(|f| f.ned.clone()).collect();
        let current = self.current_domain_ints()?;
        let sel = dense::selection(&self.dir.root, &grid, current.as_deref(), &dims, q, &neds)?;
        let nd = dims.len();
        let perm: Vec<usize> = match q.order {
            Some(Order::ColMajor) => (0..nd).rev().collect(),
            _ => (0..nd).collect(),
        };
        let condition = match &q.condition {
            Some(c) => Some(c.bind(self)?),
            None => None,
        };
        // The condition's attributes are read too.
        let mut all = attrs.clone();
        let mut extra = 0;
        if let Some(c) = &q.condition {
            for n in c.field_names() {
                if dims.iter().any(|d| d.name == n) || all.iter().any(|a| a.name == n) {
                    continue;
                }
                let f = FieldInfo::lookup(&self.schema, &n).ok_or_else(|| Error::Condition {
                    text: format!("{c:?}"),
                    what: format!("the array has no field {n:?}"),
                })?;
                all.push(f);
                extra += 1;
            }
        }
        let mut dattrs = Vec::with_capacity(all.len());
        for a in &all {
            let spec = self
                .schema
                .attributes
                .iter()
                .find(|x| x.name == a.name.as_bytes())
                .expect("attributes come from the schema");
            let fill = spec
                .fill_value
                .clone()
                .unwrap_or_else(|| vec![0; a.cell_size() as usize]);
            let fill_valid = spec.fill_value_validity.unwrap_or(0) != 0 || !a.nullable;
            let fields = frags
                .iter()
                .map(|f| FieldInfo::lookup(&f.frag.schema, &a.name))
                .collect();
            dattrs.push(dense::DenseAttr {
                field: a.clone(),
                fill: fill_valid.then_some(fill),
                fields,
            });
        }
        Ok(DensePlan {
            grid,
            frags,
            dims,
            attrs: dattrs,
            sel: dense::Selection { dims: sel, perm },
            condition,
            extra,
        })
    }

    /// Bytes a cell of the result takes (and more for var-sized cells
    /// while they are overwritten).
    fn dense_cell_bytes(plan: &DensePlan, coords: bool) -> u64 {
        let d: u64 = if coords {
            plan.dims.iter().map(|f| f.cell_size()).sum()
        } else {
            0
        };
        d + plan
            .attrs
            .iter()
            .map(|a| {
                let bytes = a
                    .field
                    .cell_size()
                    .max(a.fill.as_ref().map_or(0, |f| f.len() as u64));
                if a.field.cell_val_num.is_some() {
                    bytes + u64::from(a.field.nullable)
                } else {
                    bytes
                        .saturating_mul(2)
                        .saturating_add(DenseColumn::SPAN_BYTES)
                }
            })
            .sum::<u64>()
    }

    /// One batch of a dense read: its cells, the condition applied.
    fn dense_batch(&self, plan: &DensePlan, sel: &dense::Selection, q: &Query) -> Result<Cells> {
        let coords = !q.skip_coordinates || plan.condition.is_some();
        let mut cells = dense::read_batch(
            &plan.grid,
            &plan.frags,
            &plan.dims,
            &plan.attrs,
            sel,
            coords,
            &self.stats,
            &self.opts,
        )?;
        if let Some(c) = &plan.condition {
            let mask = c.evaluate(&cells)?;
            let nd = if coords { plan.dims.len() } else { 0 };
            for (col, a) in cells.columns[nd..].iter_mut().zip(&plan.attrs) {
                col.replace_failing(&mask, a.fill.as_deref());
            }
            let keep = cells.columns.len() - plan.extra;
            cells.columns.truncate(keep);
            if q.skip_coordinates {
                cells.columns.drain(..plan.dims.len());
            }
        }
        Ok(cells)
    }

    fn read_dense(&self, q: &Query) -> Result<Cells> {
        let plan = self.dense_plan(q)?;
        let per_cell = Self::dense_cell_bytes(&plan, true);
        let limit = q.memory_budget.unwrap_or(self.opts.max_tile_bytes());
        let cells = plan.sel.cells();
        let fits = u64::try_from(cells)
            .ok()
            .and_then(|c| c.checked_mul(per_cell))
            .is_some_and(|b| b <= limit);
        if !fits {
            return Err(Error::Query {
                path: self.dir.root.clone(),
                what: format!(
                    "a dense read of {cells} cells of {per_cell} bytes exceeds the limit of {limit} bytes (Query::memory_budget, else ReadOptions::max_tile_bytes): read it in batches (ArrayReader::batches), or raise the budget"
                ),
            });
        }
        let sel = plan.sel.clone();
        self.dense_batch(&plan, &sel, q)
    }

    fn deletes(&self) -> Result<Vec<(u64, String, ConditionNode)>> {
        let mut out = Vec::new();
        for d in &self.dir.deletes {
            let held = d
                .path
                .file_name()
                .and_then(|n| self.dir.delete_tiles.get(n.to_string_lossy().as_ref()));
            let file = match held {
                Some(bytes) => crate::storage::MappedFile::from_vec(&d.path, bytes.clone()),
                None => self.dir.storage.open(&d.path)?,
            };
            let tile = read_generic_tile(&file, 0, &self.opts)?;
            let node: ConditionNode = decode_all(&tile.data, &d.path, 0, (0,))?;
            // A delete whose field the schema no longer has (an evolution
            // dropped it) cannot be applied: the engine fails the read
            // ("Field doesn't exist"), never returning cells it may hide.
            let mut fields = Vec::new();
            condition_fields(&node, &mut fields);
            for f in fields {
                let f = String::from_utf8_lossy(&f);
                if FieldInfo::lookup(&self.schema, &f).is_none() {
                    return Err(Error::Query {
                        path: d.path.clone(),
                        what: format!(
                            "this delete condition names the field {f:?}, which the array's schema does not have (a schema evolution dropped it?): its cells cannot be read as the engine would, which refuses the read too"
                        ),
                    });
                }
            }
            let name = d
                .path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            out.push((d.name.t1, name, node));
        }
        Ok(out)
    }

    /// The typed ranges of each dimension of a query: its `ranges` (each
    /// checked against the dimension's datatype) and its old `subarray`.
    fn dim_ranges_of(&self, q: &Query, dims: &[FieldInfo]) -> Result<sparse::DimRanges> {
        // Per dimension, the ranges of each entry that names it; several
        // entries for one dimension intersect (as the old subarray does
        // with them), the ranges of one entry are a multi-range.
        let mut out: Vec<Option<Vec<DimRange>>> = vec![None; dims.len()];
        let mut add = |d: usize, rs: Vec<DimRange>| {
            out[d] = Some(match out[d].take() {
                None => rs,
                Some(prev) => intersect_ranges(&prev, &rs),
            });
        };
        for (name, rs) in &q.ranges {
            let d = dims
                .iter()
                .position(|d| d.name == *name)
                .ok_or_else(|| Error::Query {
                    path: self.dir.root.clone(),
                    what: format!(
                        "the array has no dimension {name:?} (its dimensions: {})",
                        dims.iter()
                            .map(|d| d.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })?;
            for r in rs {
                r.check(dims[d].datatype).map_err(|what| Error::Query {
                    path: self.dir.root.clone(),
                    what: format!("range on {name:?}: {what}"),
                })?;
            }
            add(d, rs.clone());
        }
        if let Some(sub) = &q.subarray {
            for (d, r) in sub.iter().enumerate().take(dims.len()) {
                if let Some((lo, hi)) = r {
                    add(
                        d,
                        vec![DimRange {
                            lo: Bound::Int(*lo),
                            hi: Bound::Int(*hi),
                        }],
                    );
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|rs| match rs {
                // Nothing of the dimension is selected: a range no value is in.
                Some(rs) if rs.is_empty() => vec![DimRange {
                    lo: Bound::Int(1),
                    hi: Bound::Int(0),
                }],
                rs => rs.unwrap_or_default(),
            })
            .collect())
    }

    /// Drops the tiles of `frag` whose mins, maxes and null counts prove
    /// that no cell matches the condition.
    fn prune_tiles(
        &self,
        frag: &Fragment,
        c: &BoundCondition,
        names: &[String],
        tiles: &mut Vec<(usize, bool)>,
    ) -> Result<()> {
        use super::aggregate::{FieldMd, Need};
        let need = Need {
            min: true,
            max: true,
            sum: false,
            nulls: true,
        };
        let mut mds = Vec::new();
        for n in names {
            let Some(field) = FieldInfo::lookup(&frag.schema, n) else {
                continue;
            };
            let md = FieldMd::load(frag, &field, self, need)?;
            mds.push((n.as_str(), field, md));
        }
        let cells = |t: usize| match &frag.metadata {
            Metadata::Footer(f) if t as u64 + 1 == f.sparse_tile_num => f.last_tile_cell_num,
            _ => self.schema.capacity,
        };
        tiles.retain(|(t, _)| {
            let stats = |name: &str| -> Option<super::query_condition::FieldTileStats<'_>> {
                let (_, field, md) = mds.iter().find(|(n, _, _)| *n == name)?;
                let cs = field.cell_val_num.map(|_| field.cell_size());
                Some(super::query_condition::FieldTileStats {
                    min: md
                        .mins
                        .as_ref()
                        .and_then(|m| FieldMd::value(m, *t as u64, cs)),
                    max: md
                        .maxes
                        .as_ref()
                        .and_then(|m| FieldMd::value(m, *t as u64, cs)),
                    null_count: md.nulls.as_ref().and_then(|v| v.get(*t).copied()),
                    cell_count: cells(*t),
                })
            };
            c.may_match(&stats)
        });
        Ok(())
    }

    fn read_sparse(&self, q: &Query) -> Result<Cells> {
        let (dims, requested) = self.fields(q)?;
        let deletes = self.deletes()?;
        let allows_dups = self.schema.allows_dups.unwrap_or(0) != 0;
        let ranges = self.dim_ranges_of(q, &dims)?;
        let condition = match &q.condition {
            Some(c) => Some((c.bind(self)?, c.field_names())),
            None => None,
        };
        // The condition's attributes are read too, and dropped at the end.
        let mut attrs = requested.clone();
        if let Some((_, names)) = &condition {
            for n in names {
                if dims.iter().any(|d| d.name == *n) || attrs.iter().any(|a| a.name == *n) {
                    continue;
                }
                let f = FieldInfo::lookup(&self.schema, n)
                    .filter(|f| !f.is_dimension)
                    .ok_or_else(|| Error::Condition {
                        text: format!("{:?}", q.condition),
                        what: format!("the array has no field {n:?}"),
                    })?;
                attrs.push(f);
            }
        }
        struct Frag {
            dims: Vec<FieldData>,
            attrs: Vec<Option<FieldData>>,
            timestamps: Option<Vec<u64>>,
            processed: std::sync::Arc<Vec<String>>,
            t1: u64,
        }
        let mut frags = Vec::new();
        let all_attrs: Vec<FieldInfo> = self
            .schema
            .attributes
            .iter()
            .filter_map(|a| FieldInfo::lookup(&self.schema, &String::from_utf8_lossy(&a.name)))
            .collect();
        // The attributes to decode: those asked for, and those a condition
        // or a delete names.
        let mut delete_fields = Vec::new();
        for (_, _, node) in &deletes {
            condition_fields(node, &mut delete_fields);
        }
        let needed: Vec<bool> = all_attrs
            .iter()
            .map(|a| {
                attrs.iter().any(|x| x.name == a.name)
                    || delete_fields.iter().any(|f| f == a.name.as_bytes())
            })
            .collect();
        for (fi, f) in self.fragments.iter().enumerate() {
            let processed = std::sync::Arc::new(f.processed_conditions(&self.opts)?);
            if let Some(mut tiles) = sparse::select_tiles(f, &dims, &ranges, &self.opts)? {
                if let Some(skip) = &q.skip_tiles {
                    tiles.retain(|(t, _)| !skip.contains(&(fi, *t as u64)));
                }
                // Tiles the condition cannot match, by their metadata: only
                // where no cell of them can hide an older cell (duplicates
                // allowed, or a single fragment), as the condition applies
                // after the newest cell of each coordinate is chosen.
                if let Some((c, names)) = &condition {
                    if allows_dups || self.fragments.len() == 1 {
                        self.prune_tiles(f, c, names, &mut tiles)?;
                    }
                }
                if tiles.is_empty() {
                    continue;
                }
                let fields =
                    sparse::FragmentFields::open(f, &dims, &all_attrs, &needed, &self.opts)?;
                for t in fields.tiles(f, &tiles, &ranges, &self.stats)? {
                    frags.push(Frag {
                        dims: t.dims,
                        attrs: t.attrs,
                        timestamps: t.timestamps,
                        processed: processed.clone(),
                        t1: f.name.t1,
                    });
                }
                continue;
            }
            // Fragments with no R-tree to go by (before version 5): every
            // field whole. Every field must hold as many cells as the first
            // dimension. A field's place in the fragment's files is in the
            // schema the fragment names (a later schema may have added
            // attributes).
            let mut n = None;
            let mut dims_d = Vec::with_capacity(dims.len());
            if f.version() < 5 {
                // One zipped `__coords.tdb` holds every dimension.
                dims_d = read_zipped_coords(f, &self.opts)?;
                n = dims_d.first().map(|d| d.len(dims[0].cell_size()));
            }
            for d in dims.iter().skip(dims_d.len()) {
                let d = FieldInfo::lookup(&f.schema, &d.name)
                    .filter(|x| x.is_dimension)
                    .ok_or_else(|| Error::Unsupported {
                        path: f.path.clone(),
                        what: format!("the fragment's schema has no dimension {:?}", d.name),
                    })?;
                let data = read_checked(f, &d, &self.opts, n)?;
                n = Some(data.len(d.cell_size()));
                dims_d.push(data);
            }
            let attrs_d = all_attrs
                .iter()
                .zip(&needed)
                .map(|(a, need)| match FieldInfo::lookup(&f.schema, &a.name) {
                    Some(fa) if *need => read_checked(f, &fa, &self.opts, n).map(Some),
                    _ => Ok(None),
                })
                .collect::<Result<Vec<_>>>()?;
            let has_timestamps = matches!(
                &f.metadata,
                Metadata::Footer(footer) if footer.includes_timestamps == Some(1)
            );
            let timestamps: Option<Vec<u64>> = if has_timestamps {
                let t = FieldInfo::timestamps(&f.schema);
                let d = read_checked(f, &t, &self.opts, n)?;
                Some(
                    d.values
                        .chunks_exact(8)
                        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                        .collect(),
                )
            } else {
                None
            };
            // The cells in the ranges.
            let n = n.unwrap_or(0);
            let keep: Vec<bool> = (0..n)
                .map(|i| {
                    ranges.iter().zip(&dims).zip(&dims_d).all(|((rs, f), d)| {
                        rs.is_empty()
                            || rs
                                .iter()
                                .any(|r| r.contains(f.datatype, d.cell(i, f.cell_size())))
                    })
                })
                .collect();
            frags.push(Frag {
                dims: dims_d
                    .iter()
                    .zip(&dims)
                    .map(|(d, f)| d.select(&keep, f.cell_size()))
                    .collect(),
                attrs: attrs_d
                    .iter()
                    .zip(&all_attrs)
                    .map(|(d, f)| d.as_ref().map(|d| d.select(&keep, f.cell_size())))
                    .collect(),
                timestamps: timestamps.map(|t| {
                    t.into_iter()
                        .zip(&keep)
                        .filter(|(_, k)| **k)
                        .map(|(t, _)| t)
                        .collect()
                }),
                processed,
                t1: f.name.t1,
            });
        }
        // (fragment, cell) of every surviving cell.
        let mut picked: Vec<(usize, usize)> = Vec::new();
        // Whether a delete removes each picked cell. Without duplicates a
        // deleted cell still overwrites the older cells of its coordinates
        // (the engine removes the coordinates, not only the newest write),
        // so it is dropped only after the newest write of each coordinate
        // is chosen.
        let mut deleted: Vec<bool> = Vec::new();
        for (fi, fr) in frags.iter().enumerate() {
            let n = fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
            'cell: for i in 0..n {
                let ts = fr.timestamps.as_ref().map_or(fr.t1, |t| t[i]);
                let mut gone = false;
                for (dt, name, cond) in &deletes {
                    if ts > *dt || fr.processed.contains(name) {
                        continue;
                    }
                    let value = |field: &[u8]| -> Option<CellValue> {
                        if let Some(d) = dims.iter().position(|x| x.name.as_bytes() == field) {
                            return Some(CellValue::Bytes(
                                dims[d].datatype,
                                fr.dims[d].cell(i, dims[d].cell_size()),
                            ));
                        }
                        let a = all_attrs.iter().position(|x| x.name.as_bytes() == field)?;
                        let data = fr.attrs[a].as_ref()?;
                        if data.validity.as_ref().is_some_and(|v| v[i] == 0) {
                            return Some(CellValue::Null);
                        }
                        Some(CellValue::Bytes(
                            all_attrs[a].datatype,
                            data.cell(i, all_attrs[a].cell_size()),
                        ))
                    };
                    // The stored condition is the negation of the delete's.
                    if !holds(cond, &value) {
                        if allows_dups {
                            continue 'cell;
                        }
                        gone = true;
                        break;
                    }
                }
                picked.push((fi, i));
                deleted.push(gone);
            }
        }
        let coords = |p: usize, d: usize| {
            let (fi, i) = picked[p];
            frags[fi].dims[d].cell(i, dims[d].cell_size())
        };
        let timestamp = |p: usize| {
            let (fi, i) = picked[p];
            frags[fi].timestamps.as_ref().map_or(frags[fi].t1, |t| t[i])
        };
        // Row-major order of the coordinates (the order `export` prints),
        // ties in (fragment, cell) order.
        let unordered = q.order == Some(Order::Unordered) && allows_dups;
        let keys = SortKeys::new(&dims, if unordered { 0 } else { picked.len() }, coords);
        let mut order: Vec<usize> = (0..picked.len()).collect();
        if !unordered {
            match keys.packed() {
                // One or two numeric dimensions: sort (key, index) pairs,
                // the index breaking ties as the comparison below does.
                Some(packed) => {
                    let mut pairs: Vec<(u128, usize)> = packed.zip(0..picked.len()).collect();
                    pairs.sort_unstable();
                    order = pairs.into_iter().map(|(_, p)| p).collect();
                }
                None => order.sort_unstable_by(|&p, &q| keys.cmp(p, q, coords).then(p.cmp(&q))),
            }
        }
        if !allows_dups {
            // The newest write of each coordinate wins (ties: the later
            // fragment, the later cell). Cells of one coordinate have equal
            // keys, so they sit in one run of equal keys.
            let same_coords =
                |p: usize, q: usize| (0..dims.len()).all(|d| coords(p, d) == coords(q, d));
            let newest = |p: usize| (timestamp(p), picked[p]);
            let mut kept = Vec::with_capacity(order.len());
            let mut run = Vec::new();
            let mut start = 0;
            while start < order.len() {
                let mut end = start + 1;
                while end < order.len() && keys.cmp(order[start], order[end], coords).is_eq() {
                    end += 1;
                }
                let group = &order[start..end];
                if group.len() == 1 {
                    kept.push(group[0]);
                } else if keys.exact {
                    kept.push(*group.iter().max_by_key(|&&p| newest(p)).unwrap());
                } else {
                    // Equal keys, maybe other bytes (0.0 and -0.0, NaNs):
                    // the newest cell of each coordinate, in key order.
                    run.clear();
                    run.extend_from_slice(group);
                    run.sort_unstable_by(|&p, &q| {
                        (0..dims.len())
                            .map(|d| coords(p, d).cmp(coords(q, d)))
                            .find(|o| o.is_ne())
                            .unwrap_or(std::cmp::Ordering::Equal)
                            .then_with(|| newest(p).cmp(&newest(q)))
                    });
                    let first = kept.len();
                    for (k, &p) in run.iter().enumerate() {
                        if run.get(k + 1).is_none_or(|&q| !same_coords(p, q)) {
                            kept.push(p);
                        }
                    }
                    kept[first..].sort_unstable();
                }
                start = end;
            }
            kept.retain(|&p| !deleted[p]);
            order = kept;
        }
        match q.order {
            Some(Order::ColMajor) => {
                order.sort_by(|&p, &q| keys.cmp_reversed(p, q, coords));
            }
            Some(Order::GlobalOrder) => {
                let go = crate::write::order::GlobalOrder::new(&self.schema);
                let cs = |p: usize| -> Vec<crate::write::order::Coord> {
                    (0..dims.len()).map(|d| go.coord(d, coords(p, d))).collect()
                };
                let mut keyed: Vec<(Vec<u64>, usize)> =
                    order.iter().map(|&p| (go.key(&cs(p)), p)).collect();
                keyed.sort_by(|(ka, p), (kb, q)| go.cmp(ka, &cs(*p), kb, &cs(*q)));
                order = keyed.into_iter().map(|(_, p)| p).collect();
            }
            _ => {}
        }
        let dim_column = |d: usize, order: &[usize]| {
            let mut col = Column::new(dims[d].clone(), order.len());
            for &p in order {
                col.push(Some(coords(p, d)));
            }
            col
        };
        let attr_column = |a: &FieldInfo, order: &[usize]| -> Result<Column> {
            let ai = all_attrs
                .iter()
                .position(|x| x.name == a.name)
                .expect("attributes come from the schema");
            let spec = &self.schema.attributes[ai];
            let fill = (!a.nullable || spec.fill_value_validity.unwrap_or(0) != 0).then(|| {
                spec.fill_value
                    .clone()
                    .unwrap_or_else(|| vec![0; a.cell_size() as usize])
            });
            // Cells of fragments written before the attribute existed take
            // its fill value, whose size comes from the schema.
            let filled = order
                .iter()
                .filter(|&&p| frags[picked[p].0].attrs[ai].is_none())
                .count() as u64;
            let fill_bytes = fill.as_ref().map_or(0, |f| f.len() as u64);
            if filled.saturating_mul(fill_bytes) > self.opts.max_tile_bytes() {
                return Err(Error::Unsupported {
                    path: self.dir.root.clone(),
                    what: format!(
                        "{filled} fill values of {fill_bytes} bytes for {:?} exceed the limit",
                        a.name
                    ),
                });
            }
            let mut col = Column::new(a.clone(), order.len());
            for &p in order {
                let (fi, i) = picked[p];
                col.push(match &frags[fi].attrs[ai] {
                    Some(data) => {
                        let valid = data.validity.as_ref().is_none_or(|v| v[i] != 0);
                        valid.then(|| data.cell(i, a.cell_size()))
                    }
                    // Written before the attribute was added: its fill value.
                    None => fill.as_deref(),
                });
            }
            Ok(col)
        };
        // The condition first, on the columns it reads: only the cells it
        // keeps are gathered into the result.
        if let Some((c, names)) = &condition {
            let mut columns = Vec::new();
            for (d, f) in dims.iter().enumerate() {
                if names.contains(&f.name) {
                    columns.push(dim_column(d, &order));
                }
            }
            for a in attrs.iter().filter(|a| names.contains(&a.name)) {
                columns.push(attr_column(a, &order)?);
            }
            let mask = c.evaluate(&Cells {
                len: order.len(),
                columns,
            })?;
            order = order
                .into_iter()
                .zip(mask)
                .filter(|(_, m)| *m)
                .map(|(p, _)| p)
                .collect();
        }
        let mut columns = Vec::new();
        for d in 0..dims.len() {
            columns.push(dim_column(d, &order));
        }
        for a in &requested {
            columns.push(attr_column(a, &order)?);
        }
        let mut cells = Cells {
            len: order.len(),
            columns,
        };
        if q.skip_coordinates {
            cells.columns.drain(..dims.len());
        }
        Ok(cells)
    }
}

/// The ranges both lists hold.
fn intersect_ranges(a: &[DimRange], b: &[DimRange]) -> Vec<DimRange> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            if x.overlaps(&y.lo, &y.hi) {
                out.push(DimRange {
                    lo: if x.lo > y.lo {
                        x.lo.clone()
                    } else {
                        y.lo.clone()
                    },
                    hi: if x.hi < y.hi {
                        x.hi.clone()
                    } else {
                        y.hi.clone()
                    },
                });
            }
        }
    }
    out
}

/// The field names a delete condition reads.
fn condition_fields(node: &ConditionNode, out: &mut Vec<Vec<u8>>) {
    match &node.body {
        crate::format::ConditionNodeBody::Expression(e) => {
            e.children.iter().for_each(|c| condition_fields(c, out))
        }
        crate::format::ConditionNodeBody::Value(v) => out.push(v.field_name.clone()),
    }
}

/// The sort keys of the cells of a sparse read: per dimension, each cell's
/// coordinate as a number whose order is that of the coordinates, or (text)
/// the coordinate's bytes themselves.
struct SortKeys {
    /// Per dimension, a key per cell (`None`: compare the bytes).
    dims: Vec<Option<Vec<u64>>>,
    /// Cells whose coordinates are not one number each: their JSON, the
    /// general order of [`cmp_values`].
    general: Option<Vec<Vec<Value>>>,
    /// Whether equal keys mean equal coordinate bytes.
    exact: bool,
}

impl SortKeys {
    fn new<'a>(dims: &[FieldInfo], n: usize, coords: impl Fn(usize, usize) -> &'a [u8]) -> Self {
        let mut exact = true;
        let mut keys = Vec::with_capacity(dims.len());
        for (d, f) in dims.iter().enumerate() {
            if value::is_text(f.datatype) {
                keys.push(None);
                continue;
            }
            let mut k = Vec::with_capacity(n);
            for p in 0..n {
                let Some(s) = value::scalar(f.datatype, coords(p, d)) else {
                    return SortKeys::general(dims, n, coords);
                };
                // Floats (0.0 and -0.0, NaNs), booleans and cells with
                // bytes past their one value: equal keys of other bytes.
                exact &= matches!(s, value::Scalar::Int(_) | value::Scalar::Uint(_))
                    && coords(p, d).len() == f.datatype.size() as usize;
                k.push(scalar_key(s));
            }
            keys.push(Some(k));
        }
        SortKeys {
            dims: keys,
            general: None,
            exact,
        }
    }

    /// Each cell's keys packed into one number of the same order, when
    /// there are one or two dimensions and every one has numeric keys.
    fn packed(&self) -> Option<impl Iterator<Item = u128> + '_> {
        if self.general.is_some() || self.dims.is_empty() || self.dims.len() > 2 {
            return None;
        }
        let k0 = self.dims[0].as_ref()?;
        let k1 = match self.dims.get(1) {
            Some(k) => Some(k.as_ref()?),
            None => None,
        };
        Some(
            (0..k0.len())
                .map(move |p| (u128::from(k0[p]) << 64) | k1.map_or(0, |k| u128::from(k[p]))),
        )
    }

    fn general<'a>(
        dims: &[FieldInfo],
        n: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> Self {
        let key = |p: usize| -> Vec<Value> {
            dims.iter()
                .enumerate()
                .map(|(d, f)| {
                    let c = coords(p, d);
                    if value::is_text(f.datatype) {
                        json!(c.iter().map(|b| *b as u64).collect::<Vec<_>>())
                    } else {
                        value::cell(f.datatype, c)
                    }
                })
                .collect()
        };
        SortKeys {
            dims: Vec::new(),
            general: Some((0..n).map(key).collect()),
            exact: false,
        }
    }

    /// [`SortKeys::cmp`] with the last dimension compared first
    /// (column-major order).
    fn cmp_reversed<'a>(
        &self,
        p: usize,
        q: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> std::cmp::Ordering {
        self.cmp_in(p, q, coords, true)
    }

    fn cmp<'a>(
        &self,
        p: usize,
        q: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> std::cmp::Ordering {
        self.cmp_in(p, q, coords, false)
    }

    /// Compares cells `p` and `q` by their coordinates, the first dimension
    /// first (`reversed`: the last first).
    fn cmp_in<'a>(
        &self,
        p: usize,
        q: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
        reversed: bool,
    ) -> std::cmp::Ordering {
        if let Some(g) = &self.general {
            if reversed {
                let (mut a, mut b) = (g[p].clone(), g[q].clone());
                a.reverse();
                b.reverse();
                return cmp_values(&a, &b);
            }
            return cmp_values(&g[p], &g[q]);
        }
        let n = self.dims.len();
        for i in 0..n {
            let d = if reversed { n - 1 - i } else { i };
            let o = match &self.dims[d] {
                Some(k) => k[p].cmp(&k[q]),
                None => coords(p, d).cmp(coords(q, d)),
            };
            if o.is_ne() {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    }
}

/// A number whose order is [`cmp_values`]' order of the scalars' JSON (of
/// one datatype): integers and booleans by value; floats as strings
/// before numbers ("-inf" < "NaN" < "inf"), numbers by value, -0 = 0.
fn scalar_key(s: value::Scalar) -> u64 {
    match s {
        value::Scalar::Int(v) => (v as u64) ^ (1 << 63),
        value::Scalar::Uint(v) => v,
        value::Scalar::Bool(v) => u64::from(v),
        value::Scalar::Float(v) if v.is_nan() => 1,
        value::Scalar::Float(v) if v == f64::NEG_INFINITY => 0,
        value::Scalar::Float(v) if v == f64::INFINITY => 2,
        value::Scalar::Float(v) => {
            // Finite: the sign-magnitude bits made monotonic; the smallest,
            // -MAX, maps to 0x0010_0000_0000_0000, above the three strings.
            let bits = if v == 0.0 { 0 } else { v.to_bits() };
            if bits >> 63 == 1 {
                !bits
            } else {
                bits | (1 << 63)
            }
        }
    }
}

fn cmp_values(a: &[Value], b: &[Value]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Value::Number(p), Value::Number(q)) => {
                match (p.as_i64(), q.as_i64(), p.as_u64(), q.as_u64()) {
                    (Some(p), Some(q), _, _) => p.cmp(&q),
                    (_, _, Some(p), Some(q)) => p.cmp(&q),
                    _ => p
                        .as_f64()
                        .partial_cmp(&q.as_f64())
                        .unwrap_or(std::cmp::Ordering::Equal),
                }
            }
            (Value::Array(p), Value::Array(q)) => cmp_values(p, q).then(p.len().cmp(&q.len())),
            _ => x.to_string().cmp(&y.to_string()),
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

impl ArrayReader {
    /// Reads every tile of the chosen attributes (default: all) of every
    /// fragment through the filter pipelines, in parallel, and sums up cells,
    /// bytes and a checksum of the values: the throughput probe behind
    /// `scan`. Fragments are not merged (overwritten cells count too).
    pub fn scan(&self, attributes: Option<&[String]>) -> Result<super::field::ScanTotals> {
        let mut total = super::field::ScanTotals::default();
        for f in &self.fragments {
            let names: Vec<String> = match attributes {
                Some(a) => a.to_vec(),
                None => f
                    .schema
                    .attributes
                    .iter()
                    .map(|a| String::from_utf8_lossy(&a.name).into_owned())
                    .collect(),
            };
            for n in names {
                let field = FieldInfo::lookup(&f.schema, &n).ok_or_else(|| Error::NotTileDb {
                    path: self.dir.root.clone(),
                    what: format!("the array has no field {n:?}"),
                })?;
                total = total + super::field::scan_field(f, &field, &self.opts)?;
            }
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(datatype: Datatype, cell_val_num: Option<u32>, nullable: bool) -> FieldInfo {
        FieldInfo {
            name: "a".into(),
            idx: 0,
            is_dimension: false,
            datatype,
            cell_val_num,
            nullable,
            filters: Vec::new(),
        }
    }

    #[test]
    fn float_keys_sort_as_the_json_of_the_coordinates() {
        let xs = [
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            -f64::MAX,
            -1.5,
            -f64::MIN_POSITIVE / 4.0,
            -0.0,
            0.0,
            f64::MIN_POSITIVE / 4.0,
            1.0,
            f64::MAX,
        ];
        for x in xs {
            for y in xs {
                let key = |v: f64| scalar_key(value::Scalar::Float(v));
                let json = |v: f64| vec![value::Scalar::Float(v).json()];
                assert_eq!(
                    key(x).cmp(&key(y)),
                    cmp_values(&json(x), &json(y)),
                    "{x} and {y}"
                );
            }
        }
    }

    #[test]
    fn integer_keys_sort_by_value() {
        let xs = [i64::MIN, -1, 0, 1, i64::MAX];
        for x in xs {
            for y in xs {
                let key = |v: i64| scalar_key(value::Scalar::Int(v));
                assert_eq!(key(x).cmp(&key(y)), x.cmp(&y));
            }
        }
    }

    #[test]
    fn a_fixed_size_column_takes_offsets_for_a_cell_of_another_size() {
        let mut c = Column::new(field(Datatype::Int32, Some(1), false), 3);
        c.push(Some(&[1, 0, 0, 0]));
        c.push(None);
        c.push(Some(&[2, 0]));
        assert_eq!(c.len(), 3);
        assert_eq!(c.get(0), Some(&[1, 0, 0, 0][..]));
        assert_eq!(c.get(1), None);
        assert_eq!(c.get(2), Some(&[2, 0][..]));
        assert_eq!(c.offsets(), Some(&[0, 4, 8, 10][..]));
        assert_eq!(c.json(0), json!(1));
        assert_eq!(c.json(1), Value::Null);
    }

    #[test]
    fn var_sized_cells_of_a_dense_read_keep_their_last_write() {
        let mut c = DenseColumn::new(field(Datatype::StringAscii, None, true), 3, Some(b"ff"));
        c.set(1, Some(b"abc"));
        c.set(2, None);
        c.set(1, Some(b"d"));
        let c = c.finish();
        let cells: Vec<_> = (0..c.len()).map(|i| c.get(i)).collect();
        assert_eq!(cells, [Some(&b"ff"[..]), Some(b"d"), None]);
    }
}
