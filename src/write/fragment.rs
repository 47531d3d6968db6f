//! Writing one fragment: cells in, tiles through the filter pipelines, data
//! files, `__fragment_metadata.tdb`, commit.
//!
//! Dense fragments cover a rectangle of the domain; the cells come in
//! row-major order of the rectangle and are laid into the space tiles the
//! rectangle touches, as the engine's dense tiler does (cells outside the
//! rectangle are zeros, and null; readers never return them: the non-empty
//! domain is the rectangle). One row of space tiles is held in memory.
//!
//! Sparse fragments take cells in any order; they are sorted into the
//! global order (space tiles in tile order, then cell order; or Hilbert
//! order) with bounded memory (sorted runs spilled to scratch files and
//! merged), duplicates dropped unless the schema allows them (the last
//! written wins), and cut into tiles of `capacity` cells.
//!
//! Tiles are filtered in parallel (a batch of tiles at a time) and written
//! one after the other. The commit protocol: every file of the fragment
//! folder is written and synced, the folder is synced, then the commit
//! marker is created and its folder synced.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::array::directory::ArrayDirectory;
use crate::array::schema::dimension_datatype;
use crate::array::schema::read_schema;
use crate::filters::{FilterError, ReadOptions};
use crate::format::{
    encode, ArraySchema, ArrayType, Datatype, FooterLength, FragmentFooter,
    FragmentMinMaxSumNullCount, Layout, Mbr, OptionalSection, OptionalSectionIdentifier,
    ProcessedConditions, RTree, RTreeLevel, Range1D, TileGlobalOrderBounds, TileMinMax,
    TileNullCounts, TileOffsets, TileSums,
};
use crate::read::field::{FieldInfo, FieldPipelines};

use super::error::{WriteError, WriteResult};
use super::generic::generic_tile;
use super::order::{int_value, Coord, GlobalOrder};
use super::sort::{CellSorter, ColBuf, OwnedCell, SortField};
use super::stats::{fragment_entry, tile_stats, FieldMeta, MetaSpec, RawTile, TileStats};
use super::util;
use super::{MAX_WRITE_VERSION, MIN_WRITE_VERSION};

/// The steps of a fragment write, in order; [`FragmentWriter::fail_after`]
/// stops the writer right after one of them, as a crash would.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FailPoint {
    /// The fragment folder and its (empty) data files exist.
    FolderCreated,
    /// The first tile is in the data files.
    TileWritten,
    /// Every tile is in the data files (not yet synced).
    DataWritten,
    /// `__fragment_metadata.tdb` is written.
    MetadataWritten,
    /// Every file and the folder are synced; no commit marker yet.
    FilesSynced,
    /// The commit marker exists and is synced: the fragment is visible.
    Committed,
}

impl FailPoint {
    /// Every step, in the order a write reaches them.
    pub const ALL: [FailPoint; 6] = [
        FailPoint::FolderCreated,
        FailPoint::TileWritten,
        FailPoint::DataWritten,
        FailPoint::MetadataWritten,
        FailPoint::FilesSynced,
        FailPoint::Committed,
    ];

    /// The step named (as `TILEDB_CODEC_FAIL_AFTER` gives it: `FilesSynced`
    /// or `files_synced`).
    pub fn parse(s: &str) -> Option<FailPoint> {
        let norm: String = s
            .chars()
            .filter(|c| *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        FailPoint::ALL
            .into_iter()
            .find(|p| format!("{p:?}").to_ascii_lowercase() == norm)
    }
}

/// How to write a fragment.
#[derive(Clone)]
pub struct WriteOptions {
    /// Format version of the fragment (10 to 23); `None`: the array
    /// schema's version.
    pub version: Option<u32>,
    /// The fragment's timestamp in milliseconds (default: now, and later
    /// than every fragment already there).
    pub timestamp: Option<u64>,
    /// Sparse writes: bytes of cells sorted in memory before a sorted run is
    /// spilled to a scratch file.
    pub sort_memory: usize,
    /// Filtered tiles held while waiting for their turn (dense arrays with
    /// column-major tile order) before they are spilled to a scratch file.
    pub pending_memory: usize,
    /// Where scratch files go (default: the system's temporary folder).
    pub scratch_dir: Option<PathBuf>,
    /// Stop right after this step, as if the process had died there.
    pub fail_after: Option<FailPoint>,
    /// The key of an AES-256-GCM encrypted array: every data tile gets the
    /// encryption filter after the schema's filters and every generic tile
    /// of the fragment metadata is encrypted, as the engine writes them.
    pub encryption_key: Option<[u8; 32]>,
}

impl std::fmt::Debug for WriteOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("WriteOptions")
            .field("version", &self.version)
            .field("timestamp", &self.timestamp)
            .field("sort_memory", &self.sort_memory)
            .field("pending_memory", &self.pending_memory)
            .field("scratch_dir", &self.scratch_dir)
            .field("fail_after", &self.fail_after)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            version: None,
            timestamp: None,
            sort_memory: 256 << 20,
            pending_memory: 256 << 20,
            scratch_dir: None,
            fail_after: None,
            encryption_key: None,
        }
    }
}

/// The cells of one field, column-wise, as [`FragmentWriter::write`] takes
/// them: fixed-size values back to back, or var-sized data with the start
/// of each cell, and one validity byte per cell (0 = null) for nullable
/// fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Column {
    /// The attribute or dimension the cells are for.
    pub name: String,
    /// The values, back to back.
    pub data: Vec<u8>,
    /// For var-sized cells, where each cell starts in `data`.
    pub offsets: Option<Vec<u64>>,
    /// For nullable fields, one byte per cell (0 = null).
    pub validity: Option<Vec<u8>>,
}

impl Column {
    /// Fixed-size cells.
    pub fn fixed(name: impl Into<String>, data: Vec<u8>) -> Self {
        Column {
            name: name.into(),
            data,
            offsets: None,
            validity: None,
        }
    }

    /// Var-sized cells: `offsets[i]` is where cell `i` starts in `data`.
    pub fn var(name: impl Into<String>, data: Vec<u8>, offsets: Vec<u64>) -> Self {
        Column {
            name: name.into(),
            data,
            offsets: Some(offsets),
            validity: None,
        }
    }

    /// Var-sized cells from a list of values.
    pub fn from_values<T: AsRef<[u8]>>(name: impl Into<String>, values: &[T]) -> Self {
        let mut data = Vec::new();
        let mut offsets = Vec::with_capacity(values.len());
        for v in values {
            offsets.push(data.len() as u64);
            data.extend_from_slice(v.as_ref());
        }
        Column::var(name, data, offsets)
    }

    /// The same cells with a validity byte each.
    pub fn with_validity(mut self, validity: Vec<u8>) -> Self {
        self.validity = Some(validity);
        self
    }
}

/// What a committed fragment is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FragmentInfo {
    /// The fragment's folder name (`__t1_t2_uuid_version`).
    pub name: String,
    /// The fragment's folder.
    pub path: PathBuf,
    /// The format version it was written in.
    pub version: u32,
    /// Its timestamp (milliseconds since the Unix epoch).
    pub timestamp: u64,
    /// Cells written (after dropping duplicates).
    pub cells: u64,
    /// Duplicate cells dropped (sparse arrays without duplicates).
    pub duplicates_dropped: u64,
    /// Tiles of the fragment (each field has this many data tiles).
    pub tiles: u64,
}

/// An MBR as bytes: `(low, high)` per dimension.
type MbrBytes = Vec<(Vec<u8>, Vec<u8>)>;

/// A field the fragment writes.
struct WField {
    name: String,
    /// Position in the engine's index map (attributes, `__coords`, dimensions).
    idx: usize,
    /// `a<i>` or `d<i>`.
    stem: String,
    var: bool,
    nullable: bool,
    /// Bytes of a fixed-size cell, or of one value of a var-sized cell.
    value_size: u64,
    pipes: FieldPipelines,
    spec: MetaSpec,
}

impl WField {
    fn sort_field(&self) -> SortField {
        SortField {
            cell_size: self.value_size as usize,
            var: self.var,
            nullable: self.nullable,
        }
    }
}

/// A data file being written.
struct Out {
    path: PathBuf,
    w: BufWriter<File>,
    size: u64,
}

impl Out {
    fn create(path: PathBuf) -> WriteResult<Self> {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| WriteError::io(&path, e))?;
        Ok(Out {
            path,
            w: BufWriter::with_capacity(1 << 20, f),
            size: 0,
        })
    }

    fn append(&mut self, bytes: &[u8]) -> WriteResult<u64> {
        let at = self.size;
        self.w
            .write_all(bytes)
            .map_err(|e| WriteError::io(&self.path, e))?;
        self.size += bytes.len() as u64;
        Ok(at)
    }

    fn finish(&mut self) -> WriteResult<()> {
        self.w.flush().map_err(|e| WriteError::io(&self.path, e))?;
        self.w
            .get_ref()
            .sync_all()
            .map_err(|e| WriteError::io(&self.path, e))
    }
}

struct FieldFiles {
    fixed: Out,
    var: Option<Out>,
    validity: Option<Out>,
}

/// One tile of every written field, before filtering.
struct RawSet {
    ordinal: u64,
    tiles: Vec<RawTile>,
    /// The cells that count for the metadata (dense: inside the rectangle).
    ranges: Vec<(usize, usize)>,
    /// Sparse: the tile's MBR, one `(lo, hi)` per dimension.
    mbr: Option<MbrBytes>,
    /// Sparse: the coordinates of the tile's first and last cell in global
    /// order, one `(first, last)` per dimension (the version 23 tile global
    /// order bounds).
    bounds: Option<MbrBytes>,
    cells: u64,
}

/// One tile of one field, filtered.
#[derive(Default)]
struct Filtered {
    fixed: Vec<u8>,
    var: Option<Vec<u8>>,
    var_size: u64,
    validity: Option<Vec<u8>>,
    stats: TileStats,
}

struct FilteredSet {
    ordinal: u64,
    fields: Vec<Filtered>,
    mbr: Option<MbrBytes>,
    bounds: Option<MbrBytes>,
    cells: u64,
}

/// Per index-map entry: the lists of the fragment metadata.
#[derive(Default, Clone)]
struct IdxMeta {
    tile_offsets: Vec<u64>,
    tile_var_offsets: Vec<u64>,
    tile_var_sizes: Vec<u64>,
    tile_validity_offsets: Vec<u64>,
    file_size: u64,
    file_var_size: u64,
    file_validity_size: u64,
    stats: FieldMeta,
    written: bool,
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u64).to_le_bytes());
    out.extend_from_slice(b);
}

fn put_opt(out: &mut Vec<u8>, b: Option<&Vec<u8>>) {
    match b {
        Some(b) => {
            out.push(1);
            put_bytes(out, b);
        }
        None => out.push(0),
    }
}

struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn u64(&mut self) -> u64 {
        let v = u64::from_le_bytes(self.0[..8].try_into().unwrap());
        self.0 = &self.0[8..];
        v
    }
    fn u8(&mut self) -> u8 {
        let v = self.0[0];
        self.0 = &self.0[1..];
        v
    }
    fn bytes(&mut self) -> Vec<u8> {
        let n = self.u64() as usize;
        let v = self.0[..n].to_vec();
        self.0 = &self.0[n..];
        v
    }
    fn opt(&mut self) -> Option<Vec<u8>> {
        (self.u8() == 1).then(|| self.bytes())
    }
}

/// A filtered set as bytes, for the spill file (read back by `decode_set`).
fn encode_set(set: &FilteredSet) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&set.ordinal.to_le_bytes());
    out.extend_from_slice(&set.cells.to_le_bytes());
    out.extend_from_slice(&(set.fields.len() as u64).to_le_bytes());
    for f in &set.fields {
        put_bytes(&mut out, &f.fixed);
        put_opt(&mut out, f.var.as_ref());
        out.extend_from_slice(&f.var_size.to_le_bytes());
        put_opt(&mut out, f.validity.as_ref());
        put_bytes(&mut out, &f.stats.min);
        put_bytes(&mut out, &f.stats.max);
        out.extend_from_slice(&f.stats.sum.to_le_bytes());
        out.extend_from_slice(&f.stats.null_count.to_le_bytes());
    }
    for pairs in [&set.mbr, &set.bounds] {
        match pairs {
            Some(m) => {
                out.push(1);
                out.extend_from_slice(&(m.len() as u64).to_le_bytes());
                for (lo, hi) in m {
                    put_bytes(&mut out, lo);
                    put_bytes(&mut out, hi);
                }
            }
            None => out.push(0),
        }
    }
    out
}

fn decode_set(b: &[u8]) -> FilteredSet {
    let mut c = Cursor(b);
    let ordinal = c.u64();
    let cells = c.u64();
    let n = c.u64() as usize;
    let mut fields = Vec::with_capacity(n);
    for _ in 0..n {
        let fixed = c.bytes();
        let var = c.opt();
        let var_size = c.u64();
        let validity = c.opt();
        let stats = TileStats {
            min: c.bytes(),
            max: c.bytes(),
            sum: c.u64(),
            null_count: c.u64(),
        };
        fields.push(Filtered {
            fixed,
            var,
            var_size,
            validity,
            stats,
        });
    }
    let mut pairs = || {
        (c.u8() == 1).then(|| {
            let d = c.u64() as usize;
            (0..d).map(|_| (c.bytes(), c.bytes())).collect()
        })
    };
    let mbr = pairs();
    let bounds = pairs();
    FilteredSet {
        ordinal,
        fields,
        mbr,
        bounds,
        cells,
    }
}

/// Where filtered tiles wait for their turn (dense arrays with column-major
/// tile order): in memory, then past a budget in a scratch file.
struct Pending {
    mem: BTreeMap<u64, FilteredSet>,
    mem_bytes: usize,
    budget: usize,
    spilled: BTreeMap<u64, (u64, usize)>,
    scratch_base: Option<PathBuf>,
    spill: Option<(util::ScratchDir, File, u64)>,
}

impl Pending {
    fn new(budget: usize, scratch_base: Option<PathBuf>) -> Self {
        Pending {
            mem: BTreeMap::new(),
            mem_bytes: 0,
            budget,
            spilled: BTreeMap::new(),
            scratch_base,
            spill: None,
        }
    }

    fn size(set: &FilteredSet) -> usize {
        set.fields
            .iter()
            .map(|f| {
                f.fixed.len()
                    + f.var.as_ref().map_or(0, Vec::len)
                    + f.validity.as_ref().map_or(0, Vec::len)
            })
            .sum()
    }

    fn put(&mut self, set: FilteredSet) -> WriteResult<()> {
        let size = Self::size(&set);
        if self.mem_bytes + size <= self.budget {
            self.mem_bytes += size;
            self.mem.insert(set.ordinal, set);
            return Ok(());
        }
        if self.spill.is_none() {
            let dir = util::ScratchDir::new(self.scratch_base.as_deref())?;
            let path = dir.path.join("pending");
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| WriteError::io(&path, e))?;
            self.spill = Some((dir, f, 0));
        }
        let (dir, f, end) = self.spill.as_mut().unwrap();
        let io = |e| WriteError::io(&dir.path, e);
        let bytes = encode_set(&set);
        f.seek(SeekFrom::Start(*end)).map_err(io)?;
        f.write_all(&bytes).map_err(io)?;
        self.spilled.insert(set.ordinal, (*end, bytes.len()));
        *end += bytes.len() as u64;
        Ok(())
    }

    fn take(&mut self, ordinal: u64) -> WriteResult<Option<FilteredSet>> {
        if let Some(set) = self.mem.remove(&ordinal) {
            self.mem_bytes -= Self::size(&set);
            return Ok(Some(set));
        }
        let Some((at, len)) = self.spilled.remove(&ordinal) else {
            return Ok(None);
        };
        let (dir, f, _) = self.spill.as_mut().unwrap();
        let io = |e| WriteError::io(&dir.path, e);
        let mut b = vec![0u8; len];
        f.seek(SeekFrom::Start(at)).map_err(io)?;
        f.read_exact(&mut b).map_err(io)?;
        Ok(Some(decode_set(&b)))
    }

    fn is_empty(&self) -> bool {
        self.mem.is_empty() && self.spilled.is_empty()
    }
}

/// The dense tiler's view of the rectangle and its space tiles.
struct DenseGrid {
    datatype: Datatype,
    /// Per dimension: the rectangle, the domain's low bound, the tile extent.
    rect: Vec<(i128, i128)>,
    dom_lo: Vec<i128>,
    ext: Vec<i128>,
    /// Per dimension: the first and last tile index the rectangle touches.
    tiles: Vec<(i128, i128)>,
    tile_order: Layout,
    cell_order: Layout,
    /// Cells of a space tile.
    tile_cells: u64,
}

impl DenseGrid {
    /// The position of a space tile (per-dimension tile indices) in tile order
    /// among the tiles the rectangle touches.
    fn ordinal(&self, t: &[i128]) -> u64 {
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
    fn slab_rows(&self, k: i128) -> (i128, i128) {
        let lo = self.dom_lo[0] + k * self.ext[0];
        let hi = lo + self.ext[0] - 1;
        (lo.max(self.rect[0].0), hi.min(self.rect[0].1))
    }

    fn row_cells(&self) -> u64 {
        self.rect[1..]
            .iter()
            .map(|(a, b)| (b - a + 1) as u64)
            .product()
    }
}

enum Mode {
    Dense {
        grid: DenseGrid,
        /// The current row of tiles along dimension 0, and its cells so far.
        slab_k: i128,
        slab: Vec<ColBuf>,
        slab_len: u64,
    },
    Sparse {
        order: GlobalOrder,
        sorter: Option<CellSorter>,
        allows_dups: bool,
        capacity: u64,
    },
}

/// Writes one fragment. Create it with [`FragmentWriter::dense`] or
/// [`FragmentWriter::sparse`], hand it cells with [`FragmentWriter::write`],
/// commit with [`FragmentWriter::finish`]. Dropped or failed before
/// `finish`, it removes its folder (except when stopped by a failure point,
/// which leaves everything as a crash would).
pub struct FragmentWriter {
    schema: ArraySchema,
    schema_name: String,
    version: u32,
    name: String,
    timestamp: u64,
    dir: PathBuf,
    commit_path: PathBuf,
    fields: Vec<WField>,
    /// Metadata specs of every index-map entry.
    specs: Vec<MetaSpec>,
    files: Vec<FieldFiles>,
    meta: Vec<IdxMeta>,
    mode: Mode,
    mbrs: Vec<MbrBytes>,
    /// Sparse: every tile's first and last coordinates in global order.
    global_order_bounds: Vec<MbrBytes>,
    tile_cells: Vec<u64>,
    next_ordinal: u64,
    /// Filtered tiles whose turn has come, written while the next batch is
    /// filtered; and the ordinal of the next one.
    ready: Vec<FilteredSet>,
    ready_next: u64,
    raw_batch: Vec<RawSet>,
    /// Data buffers of tiles already filtered, for the next rows of tiles
    /// (fresh 8 MiB buffers cost a page fault per page).
    spare: Vec<Vec<u8>>,
    pending: Pending,
    received: u64,
    written_cells: u64,
    dropped: u64,
    fail_after: Option<FailPoint>,
    /// The array's key: generic tiles are encrypted with it (the data
    /// pipelines in `fields` already end with the encryption filter).
    key: Option<[u8; 32]>,
    done: bool,
    stopped: bool,
}

fn filter_err(field: &str) -> impl Fn(FilterError) -> WriteError + '_ {
    move |e| WriteError::Filter {
        field: field.to_string(),
        filter: e.filter,
        what: e.what,
    }
}

/// Appends cells `from..from + count` of a column to a field's buffer.
fn append_cells(
    buf: &mut ColBuf,
    f: &WField,
    c: &Column,
    from: usize,
    count: usize,
) -> WriteResult<()> {
    match &c.offsets {
        None => {
            let w = f.value_size as usize;
            buf.data
                .extend_from_slice(&c.data[from * w..(from + count) * w]);
        }
        Some(o) => {
            for i in from..from + count {
                let e = o.get(i + 1).map_or(c.data.len(), |e| *e as usize);
                let b = &c.data[o[i] as usize..e];
                if b.len() as u64 % f.value_size.max(1) != 0 {
                    return Err(WriteError::cells(&f.name, "a cell is not whole values"));
                }
                buf.starts.push(buf.data.len() as u64);
                buf.data.extend_from_slice(b);
            }
        }
    }
    if let (true, Some(v)) = (f.nullable, &c.validity) {
        buf.validity
            .extend(v[from..from + count].iter().map(|x| u8::from(*x != 0)));
    }
    Ok(())
}

/// Filters a batch of tiles in parallel; gives back the raw tiles too (their
/// buffers are reused).
fn filter_sets(
    fields: &[WField],
    batch: Vec<RawSet>,
) -> Vec<WriteResult<(FilteredSet, Vec<RawTile>)>> {
    batch
        .into_par_iter()
        .map(|raw| {
            let fs = raw
                .tiles
                .par_iter()
                .zip(fields.par_iter())
                .map(|(tile, f)| filter_tile(f, tile, &raw.ranges))
                .collect::<WriteResult<Vec<_>>>()?;
            let set = FilteredSet {
                ordinal: raw.ordinal,
                fields: fs,
                mbr: raw.mbr,
                bounds: raw.bounds,
                cells: raw.cells,
            };
            Ok((set, raw.tiles))
        })
        .collect()
}

/// How many tiles are filtered together (in parallel).
fn batch_size() -> usize {
    rayon::current_num_threads().clamp(1, 64)
}

impl FragmentWriter {
    /// A dense fragment covering `rect` (an inclusive `(lo, hi)` per
    /// dimension); the cells come in row-major order of the rectangle.
    pub fn dense(array: &Path, rect: &[(i128, i128)], opts: WriteOptions) -> WriteResult<Self> {
        Self::open(array, Some(rect), opts)
    }

    /// A sparse fragment; cells come in any order.
    pub fn sparse(array: &Path, opts: WriteOptions) -> WriteResult<Self> {
        Self::open(array, None, opts)
    }

    /// Stops the writer right after `step`, leaving what it wrote (for
    /// testing crash safety). `TILEDB_CODEC_FAIL_AFTER=<step>` does the same
    /// from outside; with `TILEDB_CODEC_FAIL_MODE=abort` the process aborts
    /// there instead of returning an error.
    pub fn fail_after(&mut self, step: FailPoint) {
        self.fail_after = Some(step);
    }

    /// The fragment's folder name (`__<t>_<t>_<uuid>_<version>`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fragment's folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The schema the fragment is written with.
    pub fn schema(&self) -> &ArraySchema {
        &self.schema
    }

    fn open(array: &Path, rect: Option<&[(i128, i128)]>, opts: WriteOptions) -> WriteResult<Self> {
        let read_opts = ReadOptions {
            encryption_key: opts.encryption_key,
            ..ReadOptions::default()
        };
        let dir = ArrayDirectory::open(array).map_err(|_| WriteError::Array {
            path: array.to_path_buf(),
            what: "not an array".into(),
        })?;
        let schema_path = dir.latest_schema().ok_or_else(|| WriteError::Array {
            path: array.to_path_buf(),
            what: "the array has no schema".into(),
        })?;
        let schema = read_schema(&schema_path, &read_opts)?;
        let schema_name = schema_path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let version = opts
            .version
            .unwrap_or(schema.array_version.min(MAX_WRITE_VERSION));
        if !(MIN_WRITE_VERSION..=MAX_WRITE_VERSION).contains(&version) {
            return Err(WriteError::Unsupported(format!(
                "writing fragments of format version {version} (this crate writes {MIN_WRITE_VERSION} to {MAX_WRITE_VERSION})"
            )));
        }
        if version > schema.array_version {
            return Err(WriteError::Unsupported(format!(
                "a version {version} fragment in an array whose schema is version {}",
                schema.array_version
            )));
        }
        let dense_schema = schema.array_type == ArrayType::Dense.value();
        if dense_schema != rect.is_some() {
            return Err(WriteError::cells(
                "",
                if dense_schema {
                    "the array is dense: write a rectangle (FragmentWriter::dense)"
                } else {
                    "the array is sparse: use FragmentWriter::sparse"
                },
            ));
        }
        let n_attr = schema.attributes.len();
        let n_dim = schema.domain.dimensions.len();
        // Metadata specs of the index map: attributes, __coords, dimensions.
        let mut specs = Vec::with_capacity(n_attr + 1 + n_dim);
        let mut fields = Vec::new();
        let dim_dt = |d: usize| {
            Datatype::from_value(dimension_datatype(&schema, &schema.domain.dimensions[d]))
                .ok_or_else(|| WriteError::Unsupported("a dimension of unknown datatype".into()))
        };
        let make_field = |name: &str, stem: String| -> WriteResult<WField> {
            let info = FieldInfo::lookup(&schema, name).ok_or_else(|| {
                WriteError::Unsupported(format!(
                    "field {name:?} has a datatype this crate does not know"
                ))
            })?;
            let pipes = FieldPipelines::new(&schema, &info, opts.encryption_key)
                .map_err(filter_err(name))?;
            let var = info.cell_val_num.is_none();
            let spec = MetaSpec {
                datatype: info.datatype,
                is_dim: info.is_dimension,
                var,
                cell_size: if var { 8 } else { info.cell_size() },
                cell_val_num: info.cell_val_num.unwrap_or(u32::MAX),
                nullable: info.nullable,
                kept: !(dense_schema && info.is_dimension),
            };
            Ok(WField {
                name: name.to_string(),
                idx: info.idx,
                stem,
                var,
                nullable: info.nullable,
                value_size: if var {
                    info.datatype.size()
                } else {
                    info.cell_size()
                },
                pipes,
                spec,
            })
        };
        for (i, a) in schema.attributes.iter().enumerate() {
            let f = make_field(&String::from_utf8_lossy(&a.name), format!("a{i}"))?;
            specs.push(f.spec.clone());
            fields.push(f);
        }
        let dt0 = dim_dt(0)?;
        specs.push(MetaSpec {
            datatype: dt0,
            is_dim: false,
            var: false,
            cell_size: n_dim as u64 * dt0.size(),
            cell_val_num: 1,
            nullable: false,
            kept: true,
        });
        for (j, d) in schema.domain.dimensions.iter().enumerate() {
            let f = make_field(&String::from_utf8_lossy(&d.name), format!("d{j}"))?;
            specs.push(f.spec.clone());
            if !dense_schema {
                fields.push(f);
            }
        }
        let tile_order = Layout::from_value(schema.tile_order).unwrap_or(Layout::RowMajor);
        let cell_order = Layout::from_value(schema.cell_order).unwrap_or(Layout::RowMajor);
        let mode = match rect {
            Some(rect) => {
                let grid = dense_grid(&schema, rect, tile_order, cell_order)?;
                let slab_k = grid.tiles[0].0;
                Mode::Dense {
                    slab: vec![ColBuf::default(); fields.len()],
                    grid,
                    slab_k,
                    slab_len: 0,
                }
            }
            None => Mode::Sparse {
                order: GlobalOrder::new(&schema),
                sorter: None,
                allows_dups: schema.allows_dups.unwrap_or(0) != 0,
                capacity: schema.capacity.max(1),
            },
        };
        // Name and folders.
        let (frag_parent, commit_dir) = if version >= 12 {
            (array.join("__fragments"), array.join("__commits"))
        } else {
            (array.to_path_buf(), array.to_path_buf())
        };
        let t = util::next_timestamp(opts.timestamp, &[frag_parent.clone(), commit_dir.clone()]);
        let name = util::timestamped_name(t, t, Some(version));
        let frag_dir = frag_parent.join(&name);
        let commit_path = if version >= 12 {
            commit_dir.join(format!("{name}.wrt"))
        } else {
            array.join(format!("{name}.ok"))
        };
        util::create_dir(&frag_parent)?;
        util::create_dir(&commit_dir)?;
        std::fs::create_dir(&frag_dir).map_err(|e| WriteError::io(&frag_dir, e))?;
        let fail_after = opts.fail_after.or_else(|| {
            std::env::var("TILEDB_CODEC_FAIL_AFTER")
                .ok()
                .and_then(|s| FailPoint::parse(&s))
        });
        let mut w = FragmentWriter {
            schema_name,
            version,
            name,
            timestamp: t,
            dir: frag_dir,
            commit_path,
            files: Vec::new(),
            meta: vec![IdxMeta::default(); specs.len()],
            specs,
            mode,
            mbrs: Vec::new(),
            global_order_bounds: Vec::new(),
            tile_cells: Vec::new(),
            next_ordinal: 0,
            ready: Vec::new(),
            ready_next: 0,
            raw_batch: Vec::new(),
            spare: Vec::new(),
            pending: Pending::new(opts.pending_memory, opts.scratch_dir.clone()),
            received: 0,
            written_cells: 0,
            dropped: 0,
            fail_after,
            key: opts.encryption_key,
            done: false,
            stopped: false,
            fields,
            schema,
        };
        if let Mode::Sparse { order, .. } = &w.mode {
            let mut sort_fields: Vec<SortField> = Vec::new();
            // Dimensions first: the sorter compares them.
            for f in w.fields[n_attr..].iter().chain(&w.fields[..n_attr]) {
                sort_fields.push(f.sort_field());
            }
            let sorter = CellSorter::new(
                order.clone(),
                sort_fields,
                n_dim,
                opts.sort_memory,
                opts.scratch_dir.clone(),
            );
            if let Mode::Sparse { sorter: s, .. } = &mut w.mode {
                *s = Some(sorter);
            }
        }
        let result = w.create_files();
        match result {
            Ok(()) => {
                w.checkpoint(FailPoint::FolderCreated)?;
                Ok(w)
            }
            Err(e) => Err(e),
        }
    }

    fn create_files(&mut self) -> WriteResult<()> {
        for f in &self.fields {
            let p = |suffix: &str| self.dir.join(format!("{}{suffix}.tdb", f.stem));
            self.files.push(FieldFiles {
                fixed: Out::create(p(""))?,
                var: if f.var {
                    Some(Out::create(p("_var"))?)
                } else {
                    None
                },
                validity: if f.nullable {
                    Some(Out::create(p("_validity"))?)
                } else {
                    None
                },
            });
        }
        Ok(())
    }

    /// Stops here if told to (the state is left as a crash would leave it).
    fn checkpoint(&mut self, step: FailPoint) -> WriteResult<()> {
        if self.fail_after == Some(step) {
            self.stopped = true;
            for f in &mut self.files {
                for o in [Some(&mut f.fixed), f.var.as_mut(), f.validity.as_mut()]
                    .into_iter()
                    .flatten()
                {
                    let _ = o.w.flush();
                }
            }
            if std::env::var("TILEDB_CODEC_FAIL_MODE").as_deref() == Ok("abort") {
                std::process::abort();
            }
            return Err(WriteError::Injected(step));
        }
        Ok(())
    }

    /// Hands cells to the writer: one column per field (dense arrays: every
    /// attribute; sparse arrays: every dimension and attribute), all with
    /// the same number of cells.
    pub fn write(&mut self, columns: &[Column]) -> WriteResult<()> {
        if self.done || self.stopped {
            return Err(WriteError::cells("", "the writer has finished or stopped"));
        }
        let n = self.check_columns(columns)?;
        let res = self.write_checked(columns, n);
        if res.is_err() && !self.stopped {
            self.done = true;
            self.cleanup();
        }
        res
    }

    fn check_columns(&self, columns: &[Column]) -> WriteResult<usize> {
        let mut n: Option<usize> = None;
        for c in columns {
            if !self.fields.iter().any(|f| f.name == c.name) {
                let what = if self.is_dense()
                    && self
                        .schema
                        .domain
                        .dimensions
                        .iter()
                        .any(|d| d.name == c.name.as_bytes())
                {
                    "a dense write takes attributes only (the rectangle gives the coordinates)"
                } else {
                    "no such field in the schema"
                };
                return Err(WriteError::cells(&c.name, what));
            }
            if columns.iter().filter(|x| x.name == c.name).count() > 1 {
                return Err(WriteError::cells(&c.name, "given twice"));
            }
        }
        for f in &self.fields {
            let c = columns
                .iter()
                .find(|c| c.name == f.name)
                .ok_or_else(|| WriteError::cells(&f.name, "missing column"))?;
            let len = if f.var {
                let o = c
                    .offsets
                    .as_ref()
                    .ok_or_else(|| WriteError::cells(&f.name, "var-sized field without offsets"))?;
                let mut prev = 0u64;
                for (i, x) in o.iter().enumerate() {
                    if *x < prev || *x > c.data.len() as u64 {
                        return Err(WriteError::cells(
                            &f.name,
                            format!("offset {i} ({x}) is out of order or past the data"),
                        ));
                    }
                    prev = *x;
                }
                if c.data.len() as u64 % f.value_size.max(1) != 0 {
                    return Err(WriteError::cells(&f.name, "data is not whole values"));
                }
                o.len()
            } else {
                if c.offsets.is_some() {
                    return Err(WriteError::cells(
                        &f.name,
                        "a fixed-size field takes no offsets",
                    ));
                }
                if c.data.len() as u64 % f.value_size != 0 {
                    return Err(WriteError::cells(
                        &f.name,
                        format!(
                            "{} bytes is not a whole number of {}-byte cells",
                            c.data.len(),
                            f.value_size
                        ),
                    ));
                }
                (c.data.len() as u64 / f.value_size) as usize
            };
            match (&c.validity, f.nullable) {
                (Some(v), true) if v.len() != len => {
                    return Err(WriteError::cells(
                        &f.name,
                        format!("{} validity bytes for {len} cells", v.len()),
                    ))
                }
                (None, true) => {
                    return Err(WriteError::cells(
                        &f.name,
                        "nullable field without validity",
                    ))
                }
                (Some(_), false) => {
                    return Err(WriteError::cells(&f.name, "the field is not nullable"))
                }
                _ => {}
            }
            if let Some(prev) = n {
                if prev != len {
                    return Err(WriteError::cells(
                        &f.name,
                        format!("{len} cells, other columns have {prev}"),
                    ));
                }
            }
            n = Some(len);
        }
        Ok(n.unwrap_or(0))
    }

    fn is_dense(&self) -> bool {
        matches!(self.mode, Mode::Dense { .. })
    }

    fn write_checked(&mut self, columns: &[Column], n: usize) -> WriteResult<()> {
        // Columns in field order.
        let cols: Vec<&Column> = self
            .fields
            .iter()
            .map(|f| columns.iter().find(|c| c.name == f.name).unwrap())
            .collect();
        let cell = |fi: usize, f: &WField, i: usize| -> (&[u8], u8) {
            let c = cols[fi];
            let bytes = match &c.offsets {
                Some(o) => {
                    let e = o.get(i + 1).map_or(c.data.len(), |e| *e as usize);
                    &c.data[o[i] as usize..e]
                }
                None => {
                    let w = f.value_size as usize;
                    &c.data[i * w..(i + 1) * w]
                }
            };
            let v = c.validity.as_ref().map_or(1, |v| u8::from(v[i] != 0));
            (bytes, v)
        };
        if self.is_dense() {
            // Whole runs of cells at a time: up to the end of the current
            // row of tiles.
            let mut i = 0;
            while i < n {
                let Mode::Dense {
                    grid,
                    slab_k,
                    slab,
                    slab_len,
                } = &mut self.mode
                else {
                    unreachable!()
                };
                let total: u64 = grid.rect.iter().map(|(a, b)| (b - a + 1) as u64).product();
                if self.received >= total {
                    return Err(WriteError::cells(
                        "",
                        format!("more cells than the rectangle's {total}"),
                    ));
                }
                let (r0, r1) = grid.slab_rows(*slab_k);
                let slab_cells = (r1 - r0 + 1) as u64 * grid.row_cells();
                let run = (slab_cells - *slab_len).min((n - i) as u64) as usize;
                for ((f, c), buf) in self.fields.iter().zip(&cols).zip(slab.iter_mut()) {
                    append_cells(buf, f, c, i, run)?;
                }
                *slab_len += run as u64;
                self.received += run as u64;
                i += run;
                if *slab_len == slab_cells {
                    self.flush_slab()?;
                }
            }
            return Ok(());
        }
        // Sparse: check the coordinates, then sort.
        let n_attr = self.schema.attributes.len();
        let Mode::Sparse { order, sorter, .. } = &mut self.mode else {
            unreachable!()
        };
        let sorter = sorter.as_mut().unwrap();
        let mut view: Vec<(&[u8], u8)> = Vec::with_capacity(self.fields.len());
        for i in 0..n {
            view.clear();
            for (fi, f) in self.fields[n_attr..].iter().enumerate() {
                let (b, v) = cell(n_attr + fi, f, i);
                check_coord(order, fi, b, &f.name, self.received + i as u64)?;
                view.push((b, v));
            }
            for (fi, f) in self.fields[..n_attr].iter().enumerate() {
                view.push(cell(fi, f, i));
            }
            sorter.push(&view)?;
        }
        self.received += n as u64;
        Ok(())
    }

    /// Lays the current row of tiles out into space tiles and queues them.
    fn flush_slab(&mut self) -> WriteResult<()> {
        let Mode::Dense {
            grid,
            slab_k,
            slab,
            slab_len,
        } = &mut self.mode
        else {
            unreachable!()
        };
        let k = *slab_k;
        let (r0, _) = grid.slab_rows(k);
        let n = grid.rect.len();
        let sort_fields: Vec<SortField> = self.fields.iter().map(WField::sort_field).collect();
        // Every combination of tile indices of dimensions 1.. .
        let mut t: Vec<i128> = grid.tiles.iter().map(|(a, _)| *a).collect();
        t[0] = k;
        let mut sets = Vec::new();
        if let Some(set) = slab_as_tile(grid, &t, slab, &sort_fields, &mut self.spare) {
            sets.push(set);
        } else {
            loop {
                sets.push(dense_tile(grid, &t, r0, slab, &sort_fields));
                // Next tile along dimensions n-1 .. 1.
                let mut d = n - 1;
                loop {
                    if d == 0 {
                        break;
                    }
                    if t[d] < grid.tiles[d].1 {
                        t[d] += 1;
                        break;
                    }
                    t[d] = grid.tiles[d].0;
                    d -= 1;
                }
                if d == 0 {
                    break;
                }
            }
        }
        for c in slab.iter_mut() {
            c.clear();
        }
        *slab_len = 0;
        *slab_k += 1;
        for s in sets {
            self.queue(s)?;
        }
        Ok(())
    }

    /// Queues a tile; filters and writes a batch when it is full.
    fn queue(&mut self, set: RawSet) -> WriteResult<()> {
        self.raw_batch.push(set);
        if self.raw_batch.len() >= batch_size() {
            self.filter_batch()?;
        }
        Ok(())
    }

    fn filter_batch(&mut self) -> WriteResult<()> {
        let batch = std::mem::take(&mut self.raw_batch);
        let ready = std::mem::take(&mut self.ready);
        // The tiles whose turn came with the last batch are written while
        // this one is filtered.
        let fields = std::mem::take(&mut self.fields);
        let (filtered, written) = rayon::join(
            || filter_sets(&fields, batch),
            || {
                ready
                    .into_iter()
                    .try_for_each(|set| self.write_set(&fields, set))
            },
        );
        self.fields = fields;
        written?;
        let keep = batch_size() * self.fields.len();
        for f in filtered {
            let (set, tiles) = f?;
            for t in tiles {
                if self.spare.len() < keep {
                    self.spare.push(t.data);
                }
            }
            self.pending.put(set)?;
        }
        while let Some(set) = self.pending.take(self.ready_next)? {
            self.ready.push(set);
            self.ready_next += 1;
        }
        Ok(())
    }

    /// Writes the tiles whose turn has come.
    fn write_ready(&mut self) -> WriteResult<()> {
        let fields = std::mem::take(&mut self.fields);
        let res = std::mem::take(&mut self.ready)
            .into_iter()
            .try_for_each(|set| self.write_set(&fields, set));
        self.fields = fields;
        res
    }

    /// Appends a filtered tile of every field to the data files (`fields`:
    /// the writer's, lent while it writes).
    fn write_set(&mut self, fields: &[WField], set: FilteredSet) -> WriteResult<()> {
        for ((f, files), x) in fields.iter().zip(&mut self.files).zip(&set.fields) {
            let m = &mut self.meta[f.idx];
            m.written = true;
            m.tile_offsets.push(files.fixed.append(&x.fixed)?);
            m.file_size = files.fixed.size;
            if let (Some(out), Some(v)) = (files.var.as_mut(), &x.var) {
                m.tile_var_offsets.push(out.append(v)?);
                m.tile_var_sizes.push(x.var_size);
                m.file_var_size = out.size;
            } else {
                m.tile_var_offsets.push(0);
                m.tile_var_sizes.push(0);
            }
            if let (Some(out), Some(v)) = (files.validity.as_mut(), &x.validity) {
                m.tile_validity_offsets.push(out.append(v)?);
                m.file_validity_size = out.size;
            } else {
                m.tile_validity_offsets.push(0);
            }
            m.stats.push(&self.specs[f.idx], &x.stats, set.cells);
        }
        for (i, m) in self.meta.iter_mut().enumerate() {
            if !fields.iter().any(|f| f.idx == i) {
                m.stats.push_empty(&self.specs[i]);
            }
        }
        if let Some(mbr) = set.mbr {
            self.mbrs.push(mbr);
        }
        if let Some(b) = set.bounds {
            self.global_order_bounds.push(b);
        }
        self.tile_cells.push(set.cells);
        self.written_cells += set.cells;
        self.next_ordinal += 1;
        if self.next_ordinal == 1 {
            self.checkpoint(FailPoint::TileWritten)?;
        }
        Ok(())
    }

    /// Writes the rest, the fragment metadata, and commits.
    pub fn finish(mut self) -> WriteResult<FragmentInfo> {
        if self.done || self.stopped {
            return Err(WriteError::cells("", "the writer has finished or stopped"));
        }
        let res = self.finish_inner();
        // `done` is set once the commit marker exists: from then on the
        // fragment is the array's, whatever fails after.
        if res.is_err() && !self.stopped && !self.done {
            self.cleanup();
        }
        self.done = true;
        res
    }

    fn finish_inner(&mut self) -> WriteResult<FragmentInfo> {
        match &mut self.mode {
            Mode::Dense { grid, .. } => {
                let total: u64 = grid.rect.iter().map(|(a, b)| (b - a + 1) as u64).product();
                if self.received != total {
                    return Err(WriteError::cells(
                        "",
                        format!("{} cells for a rectangle of {total} cells", self.received),
                    ));
                }
            }
            Mode::Sparse {
                sorter,
                allows_dups,
                capacity,
                order,
            } => {
                let sorter = sorter.take().unwrap();
                let (dups, cap) = (*allows_dups, *capacity);
                let order = order.clone();
                if self.received == 0 {
                    return Err(WriteError::cells("", "no cells to write"));
                }
                let n_dim = self.schema.domain.dimensions.len();
                let n_attr = self.schema.attributes.len();
                let mut tb = SparseTiles::new(&self.fields, n_attr, n_dim, cap);
                let mut prev: Option<OwnedCell> = None;
                let mut dropped = 0u64;
                let mut err: Option<WriteError> = None;
                sorter
                    .for_each(|cell| {
                        let owned = OwnedCell {
                            fields: cell.iter().map(|(b, v)| (b.to_vec(), *v)).collect(),
                        };
                        if let Some(p) = prev.take() {
                            // Duplicates are equal coordinate bytes, as the
                            // engine's `compute_coord_dups` compares them.
                            let same = !dups
                                && p.fields[..n_dim]
                                    .iter()
                                    .zip(&owned.fields[..n_dim])
                                    .all(|(a, b)| a.0 == b.0);
                            if same {
                                dropped += 1;
                            } else if let Some(set) = tb.push(&p, &order) {
                                if let Err(e) = self.queue(set) {
                                    err = Some(e);
                                    return Err(WriteError::cells("", "stopped"));
                                }
                            }
                        }
                        prev = Some(owned);
                        Ok(())
                    })
                    .map_err(|e| err.take().unwrap_or(e))?;
                if let Some(p) = prev.take() {
                    if let Some(set) = tb.push(&p, &order) {
                        self.queue(set)?;
                    }
                }
                if let Some(set) = tb.finish() {
                    self.queue(set)?;
                }
                self.dropped = dropped;
            }
        }
        self.filter_batch()?;
        self.write_ready()?;
        if !self.pending.is_empty() {
            return Err(WriteError::Unsupported(
                "tiles left waiting (internal error)".into(),
            ));
        }
        for f in &mut self.files {
            for o in [Some(&mut f.fixed), f.var.as_mut(), f.validity.as_mut()]
                .into_iter()
                .flatten()
            {
                o.w.flush().map_err(|e| WriteError::io(&o.path, e))?;
            }
        }
        self.checkpoint(FailPoint::DataWritten)?;
        let meta_bytes = self.metadata_file()?;
        let meta_path = self.dir.join("__fragment_metadata.tdb");
        {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&meta_path)
                .map_err(|e| WriteError::io(&meta_path, e))?;
            f.write_all(&meta_bytes)
                .map_err(|e| WriteError::io(&meta_path, e))?;
            self.checkpoint(FailPoint::MetadataWritten)?;
            f.sync_all().map_err(|e| WriteError::io(&meta_path, e))?;
        }
        for f in &mut self.files {
            for o in [Some(&mut f.fixed), f.var.as_mut(), f.validity.as_mut()]
                .into_iter()
                .flatten()
            {
                o.finish()?;
            }
        }
        util::sync_dir(&self.dir)?;
        if let Some(parent) = self.dir.parent() {
            util::sync_dir(parent)?;
        }
        self.checkpoint(FailPoint::FilesSynced)?;
        if let Err(e) = util::write_new_synced(&self.commit_path, &[]) {
            let _ = std::fs::remove_file(&self.commit_path);
            return Err(e);
        }
        self.done = true;
        if let Some(parent) = self.commit_path.parent() {
            util::sync_dir(parent)?;
        }
        self.checkpoint(FailPoint::Committed)?;
        Ok(FragmentInfo {
            name: self.name.clone(),
            path: self.dir.clone(),
            version: self.version,
            timestamp: self.timestamp,
            cells: self.written_cells_count(),
            duplicates_dropped: self.dropped,
            tiles: self.tile_cells.len() as u64,
        })
    }

    fn written_cells_count(&self) -> u64 {
        match &self.mode {
            Mode::Dense { .. } => self.received,
            Mode::Sparse { .. } => self.written_cells,
        }
    }

    /// Removes the fragment folder (a write that failed).
    fn cleanup(&mut self) {
        self.files.clear();
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// Abandons the fragment: nothing of it stays.
    pub fn abort(mut self) {
        self.done = true;
        self.cleanup();
    }

    /// The bytes of `__fragment_metadata.tdb`.
    fn metadata_file(&mut self) -> WriteResult<Vec<u8>> {
        let v = self.version;
        let key = self.key;
        let dense = self.is_dense();
        let num_tiles = self.tile_cells.len();
        let n = self.meta.len();
        for m in &mut self.meta {
            if !m.written {
                m.tile_offsets = vec![0; num_tiles];
                m.tile_var_offsets = vec![0; num_tiles];
                m.tile_var_sizes = vec![0; num_tiles];
                m.tile_validity_offsets = vec![0; num_tiles];
            }
        }
        let coord_sizes = self.schema.domain.coord_sizes();
        let mut out = Vec::new();
        let push = |table: Vec<u8>, out: &mut Vec<u8>| -> WriteResult<u64> {
            let at = out.len() as u64;
            out.extend_from_slice(&generic_tile(&table, v, key)?);
            Ok(at)
        };
        // R-tree.
        let rtree = if dense {
            RTree {
                dim_num: None,
                fanout: 10,
                datatype: None,
                num_levels: 0,
                levels: Vec::new(),
            }
        } else {
            build_rtree(&self.mbrs, &coord_sizes, &GlobalOrder::new(&self.schema))
        };
        let rtree_offset = push(encode(&rtree), &mut out)?;
        let list = |vals: &[u64]| {
            encode(&TileOffsets {
                num: vals.len() as u64,
                values: vals.to_vec(),
            })
        };
        let mut tile_offsets = Vec::with_capacity(n);
        for m in &self.meta {
            tile_offsets.push(push(list(&m.tile_offsets), &mut out)?);
        }
        let mut tile_var_offsets = Vec::with_capacity(n);
        for m in &self.meta {
            tile_var_offsets.push(push(list(&m.tile_var_offsets), &mut out)?);
        }
        let mut tile_var_sizes = Vec::with_capacity(n);
        for m in &self.meta {
            tile_var_sizes.push(push(list(&m.tile_var_sizes), &mut out)?);
        }
        let mut tile_validity_offsets = Vec::with_capacity(n);
        for m in &self.meta {
            tile_validity_offsets.push(push(list(&m.tile_validity_offsets), &mut out)?);
        }
        let (mut mins, mut maxs, mut sums, mut nulls) = (None, None, None, None);
        let mut optional_sections = Vec::new();
        let mut frag_mmsn = None;
        let mut processed = None;
        if v >= 11 {
            let minmax = |fixed: &[u8], var: &[u8]| {
                encode(&TileMinMax {
                    fixed_size: fixed.len() as u64,
                    var_size: var.len() as u64,
                    fixed: fixed.to_vec(),
                    var: var.to_vec(),
                })
            };
            let mut o = Vec::new();
            for m in &self.meta {
                o.push(push(minmax(&m.stats.mins, &m.stats.min_var), &mut out)?);
            }
            mins = Some(o);
            let mut o = Vec::new();
            for m in &self.meta {
                o.push(push(minmax(&m.stats.maxs, &m.stats.max_var), &mut out)?);
            }
            maxs = Some(o);
            if v >= 23 && !dense {
                // Version 23, sparse: the tiles' global-order bounds, one
                // generic tile of mins per dimension, then one of maxes, in
                // the tile min/max layout (fragment_metadata.cc
                // `store_tile_global_order_mins`), between the maxes and the
                // sums as the engine places them.
                let mut min_offsets = Vec::new();
                let mut max_offsets = Vec::new();
                for (end, offsets) in [(0, &mut min_offsets), (1, &mut max_offsets)] {
                    for (d, cs) in coord_sizes.iter().enumerate() {
                        let (mut fixed, mut var) = (Vec::new(), Vec::new());
                        for b in &self.global_order_bounds {
                            let cell = if end == 0 { &b[d].0 } else { &b[d].1 };
                            if *cs == 0 {
                                fixed.extend_from_slice(&(var.len() as u64).to_le_bytes());
                                var.extend_from_slice(cell);
                            } else {
                                fixed.extend_from_slice(cell);
                            }
                        }
                        offsets.push(push(minmax(&fixed, &var), &mut out)?);
                    }
                }
                let bounds = TileGlobalOrderBounds {
                    min_offsets,
                    max_offsets,
                };
                let data = encode(&bounds);
                optional_sections.push(OptionalSection {
                    identifier: OptionalSectionIdentifier::TileGlobalOrderOffsets.value(),
                    data_size: data.len() as u32,
                    data,
                });
            }
            let mut o = Vec::new();
            for m in &self.meta {
                let t = TileSums {
                    num: m.stats.sums.len() as u64,
                    values: m.stats.sums.clone(),
                };
                o.push(push(encode(&t), &mut out)?);
            }
            sums = Some(o);
            let mut o = Vec::new();
            for m in &self.meta {
                let t = TileNullCounts {
                    num: m.stats.null_counts.len() as u64,
                    values: m.stats.null_counts.clone(),
                };
                o.push(push(encode(&t), &mut out)?);
            }
            nulls = Some(o);
        }
        if v >= 12 {
            let fields = self
                .meta
                .iter()
                .zip(&self.specs)
                .map(|(m, s)| fragment_entry(s, &m.stats, &self.tile_cells, dense))
                .collect();
            let t = FragmentMinMaxSumNullCount { fields };
            frag_mmsn = Some(push(encode(&t), &mut out)?);
        }
        if v >= 15 {
            let t = ProcessedConditions {
                num: 0,
                conditions: Vec::new(),
            };
            processed = Some(push(encode(&t), &mut out)?);
        }
        let ned = self.non_empty_domain(&coord_sizes);
        let last_tile_cell_num = if dense {
            match &self.mode {
                Mode::Dense { grid, .. } => grid.tile_cells,
                _ => unreachable!(),
            }
        } else {
            *self.tile_cells.last().unwrap_or(&self.schema.capacity)
        };
        let footer = FragmentFooter {
            version_number: v,
            array_schema_name_size: Some(self.schema_name.len() as u64),
            array_schema_name: Some(self.schema_name.as_bytes().to_vec()),
            dense: u8::from(dense),
            null_non_empty_domain: 0,
            legacy_non_empty_domain: None,
            non_empty_domain: Some(ned),
            sparse_tile_num: if dense { 0 } else { num_tiles as u64 },
            last_tile_cell_num,
            includes_timestamps: (v >= 14).then_some(0),
            includes_delete_metadata: (v >= 15).then_some(0),
            file_sizes: self.meta.iter().map(|m| m.file_size).collect(),
            file_var_sizes: self.meta.iter().map(|m| m.file_var_size).collect(),
            file_validity_sizes: Some(self.meta.iter().map(|m| m.file_validity_size).collect()),
            rtree_offset,
            tile_offsets,
            tile_var_offsets,
            tile_var_sizes,
            tile_validity_offsets: Some(tile_validity_offsets),
            tile_mins_offsets: mins,
            tile_maxes_offsets: maxs,
            tile_sums_offsets: sums,
            tile_null_counts_offsets: nulls,
            fragment_min_max_sum_null_count_offset: frag_mmsn,
            processed_conditions_offset: if v >= 16 { processed } else { None },
            num_optional_sections: (v >= 23).then_some(optional_sections.len() as u32),
            optional_sections: (v >= 23).then_some(optional_sections),
        };
        let footer_bytes = encode(&footer);
        out.extend_from_slice(&footer_bytes);
        out.extend_from_slice(&encode(&FooterLength {
            footer_length: footer_bytes.len() as u64,
        }));
        Ok(out)
    }

    fn non_empty_domain(&self, coord_sizes: &[u64]) -> Mbr {
        match &self.mode {
            Mode::Dense { grid, .. } => Mbr {
                ranges: grid
                    .rect
                    .iter()
                    .map(|(lo, hi)| {
                        let w = grid.datatype.size() as usize;
                        let mut r = lo.to_le_bytes()[..w].to_vec();
                        r.extend_from_slice(&hi.to_le_bytes()[..w]);
                        fixed_range(r)
                    })
                    .collect(),
            },
            Mode::Sparse { .. } => {
                let order = GlobalOrder::new(&self.schema);
                let mut u = self.mbrs[0].clone();
                for m in &self.mbrs[1..] {
                    union_into(&mut u, m, &order);
                }
                mbr_table(&u, coord_sizes)
            }
        }
    }
}

impl Drop for FragmentWriter {
    fn drop(&mut self) {
        if !self.done && !self.stopped {
            self.cleanup();
        }
    }
}

fn fixed_range(range: Vec<u8>) -> Range1D {
    Range1D {
        range_length: None,
        min_length: None,
        range,
    }
}

fn mbr_table(m: &[(Vec<u8>, Vec<u8>)], coord_sizes: &[u64]) -> Mbr {
    Mbr {
        ranges: m
            .iter()
            .zip(coord_sizes)
            .map(|((lo, hi), cs)| {
                let mut r = lo.clone();
                r.extend_from_slice(hi);
                if *cs == 0 {
                    Range1D {
                        range_length: Some(r.len() as u64),
                        min_length: Some(lo.len() as u64),
                        range: r,
                    }
                } else {
                    fixed_range(r)
                }
            })
            .collect(),
    }
}

/// Widens `u` to cover `m` (per dimension, in the dimension's order).
fn union_into(u: &mut [(Vec<u8>, Vec<u8>)], m: &[(Vec<u8>, Vec<u8>)], order: &GlobalOrder) {
    for (d, ((ulo, uhi), (lo, hi))) in u.iter_mut().zip(m).enumerate() {
        if order.coord(d, lo).order(&order.coord(d, ulo)).is_lt() {
            *ulo = lo.clone();
        }
        if order.coord(d, uhi).order(&order.coord(d, hi)).is_lt() {
            *uhi = hi.clone();
        }
    }
}

/// The R-tree over the tiles' MBRs, root first, leaves last, fanout 10
/// (`RTree::build_tree`, `build_level`).
fn build_rtree(leaves: &[MbrBytes], coord_sizes: &[u64], order: &GlobalOrder) -> RTree {
    const FANOUT: usize = 10;
    let mut levels: Vec<Vec<MbrBytes>> = Vec::new();
    let n = leaves.len();
    if n > 0 {
        levels.push(leaves.to_vec());
    }
    if n > 1 {
        // The engine's height: ceil(log_10(leaves)) + 1, in doubles.
        let height = ((n as f64).ln() / (FANOUT as f64).ln()).ceil() as usize + 1;
        for _ in 0..height - 1 {
            let prev = levels.last().unwrap();
            let mut next = Vec::with_capacity(prev.len().div_ceil(FANOUT));
            for chunk in prev.chunks(FANOUT) {
                let mut u = chunk[0].clone();
                for m in &chunk[1..] {
                    union_into(&mut u, m, order);
                }
                next.push(u);
            }
            levels.push(next);
        }
        levels.reverse();
    }
    RTree {
        dim_num: None,
        fanout: FANOUT as u32,
        datatype: None,
        num_levels: levels.len() as u32,
        levels: levels
            .iter()
            .map(|l| RTreeLevel {
                num_mbrs: l.len() as u64,
                mbrs: l.iter().map(|m| mbr_table(m, coord_sizes)).collect(),
            })
            .collect(),
    }
}

/// Checks that a sparse coordinate is inside its dimension's domain.
fn check_coord(order: &GlobalOrder, d: usize, b: &[u8], name: &str, cell: u64) -> WriteResult<()> {
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

/// The space tiles a dense rectangle touches.
fn dense_grid(
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
    let datatype = Datatype::from_value(dimension_datatype(schema, &dims[0]))
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
fn slab_as_tile(
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

/// One space tile of a dense fragment, from the current row of tiles: cells
/// in the schema's cell order; cells outside the rectangle are zeros (one
/// zero value for var-sized cells) and null, as the engine's dense tiler
/// writes them. The tile is laid out a line of cells at a time along its
/// fastest dimension: the part of the line inside the rectangle is a run of
/// the slab (contiguous in row-major cell order), the rest is filled.
fn dense_tile(
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
fn metadata_ranges(grid: &DenseGrid, tlo: &[i128]) -> Vec<(usize, usize)> {
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

/// Runs one field's tile through its pipelines and computes its metadata.
fn filter_tile(f: &WField, tile: &RawTile, ranges: &[(usize, usize)]) -> WriteResult<Filtered> {
    let stats = tile_stats(&f.spec, tile, ranges);
    let err = filter_err(&f.name);
    let mut out = Filtered {
        stats,
        ..Default::default()
    };
    match &tile.offsets {
        None => out.fixed = f.pipes.data.forward_tile(&tile.data).map_err(&err)?,
        Some(offsets) => {
            out.fixed = if f.pipes.offsets_in_data {
                // The engine writes an empty offsets tile: RLE and dictionary
                // keep the offsets in the data tile.
                0u64.to_le_bytes().to_vec()
            } else {
                let bytes: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
                f.pipes
                    .offsets
                    .as_ref()
                    .expect("var-sized fields have an offsets pipeline")
                    .forward_tile(&bytes)
                    .map_err(&err)?
            };
            out.var = Some(
                f.pipes
                    .data
                    .forward_var_tile(&tile.data, offsets)
                    .map_err(&err)?,
            );
            out.var_size = tile.data.len() as u64;
        }
    }
    if let Some(v) = &tile.validity {
        out.validity = Some(
            f.pipes
                .validity
                .as_ref()
                .expect("nullable fields have a validity pipeline")
                .forward_tile(v)
                .map_err(&err)?,
        );
    }
    Ok(out)
}

/// Cuts cells in global order into tiles of `capacity` cells, with MBRs.
struct SparseTiles {
    /// Field order of the writer: attributes, then dimensions.
    layout: Vec<SortField>,
    n_attr: usize,
    n_dim: usize,
    capacity: u64,
    current: Vec<RawTile>,
    mbr: MbrBytes,
    cells: u64,
    ordinal: u64,
}

impl SparseTiles {
    fn new(fields: &[WField], n_attr: usize, n_dim: usize, capacity: u64) -> Self {
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

    fn reset(&mut self) {
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
    fn push(&mut self, cell: &OwnedCell, order: &GlobalOrder) -> Option<RawSet> {
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

    fn take(&mut self) -> RawSet {
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

    fn finish(&mut self) -> Option<RawSet> {
        (self.cells > 0).then(|| self.take())
    }
}
