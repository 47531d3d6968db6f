//! The fragment writer's state and what it is given.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

use crate::array::{FieldInfo, FieldPipelines};
use crate::format::{ArraySchema, Datatype, Layout, StreamedFile, TileOffsetsParts};

use crate::write::error::WriteResult;
use crate::write::order::GlobalOrder;
use crate::write::sort::{CellSorter, ColBuf, SortField};
use crate::write::stats::{FieldMeta, MetaSpec, RawTile, TileStats};
use crate::write::util;

use super::sink::Sink;
pub(super) use super::sink::TileBytes;

#[cfg(feature = "fail-points")]
use crate::write::error::FailPoint;

/// How to write a fragment.
#[derive(Clone)]
pub struct WriteOptions {
    /// Format version of the fragment (10 to 23); `None`: the array
    /// schema's version.
    pub(crate) version: Option<u32>,
    /// The fragment's timestamp in milliseconds (default: now, and later
    /// than every fragment already there).
    pub(crate) timestamp: Option<u64>,
    /// The fragment's timestamp range `[t1, t2]` (ms), for a fragment that
    /// stands for fragments written over that time (consolidation names it
    /// `__<t1>_<t2>_<uuid>_<version>`); when given, it replaces
    /// [`WriteOptions::with_timestamp`].
    pub(crate) timestamp_range: Option<(u64, u64)>,
    /// Sparse writes: bytes of cells sorted in memory before a sorted run is
    /// spilled to a scratch file.
    pub(crate) sort_memory: usize,
    /// Filtered tiles held while waiting for their turn (dense arrays with
    /// column-major tile order) before they are spilled to a scratch file.
    pub(crate) pending_memory: usize,
    /// Where scratch files go (default: a hidden folder in the array's own
    /// folder, removed when the write ends).
    pub(crate) scratch_dir: Option<PathBuf>,
    /// Stop right after this step, as if the process had died there: the
    /// write returns
    /// [`WriteError::Injected`](crate::write::WriteError::Injected) and
    /// leaves on disk what it had written (the crash-safety tests; only
    /// with the `fail-points` feature).
    #[cfg(feature = "fail-points")]
    pub(crate) fail_after: Option<FailPoint>,
    /// The key of an AES-256-GCM encrypted array: every data tile gets the
    /// encryption filter after the schema's filters and every generic tile
    /// of the fragment metadata is encrypted, as the engine writes them.
    pub(crate) encryption_key: Option<[u8; 32]>,
    /// Sparse arrays without duplicates: cells of one coordinate given to
    /// one write keep the last one (consolidation merges newer cells over
    /// older ones). `false` (the default): such a write fails naming the
    /// coordinate, as the engine refuses it.
    pub(crate) keep_last_duplicate: bool,
    /// Sparse fragments written in order ([`FragmentWriter::sparse_in_order`]),
    /// format version 14 and later: the fragment keeps each cell's write
    /// timestamp (a `__timestamps` column of u64 comes with the cells) and
    /// every cell of a coordinate, in the order given, as the engine's
    /// consolidation with timestamps writes them.
    pub(crate) cell_timestamps: bool,
    /// With [`WriteOptions::with_cell_timestamps`], version 16 and later: the
    /// fragment keeps delete metadata, each cell's delete timestamp
    /// (`__delete_timestamps`, `u64::MAX` for none) and the index in
    /// [`WriteOptions::with_processed_conditions`] of the delete that removed it
    /// (`__delete_condition_index`).
    pub(crate) delete_meta: bool,
    /// The delete and update commits applied to the fragment's cells, by
    /// their path in the array (`__commits/<name>.del`), stored as its
    /// processed conditions (version 16 and later).
    pub(crate) processed_conditions: Vec<String>,
}

impl std::fmt::Debug for WriteOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        let mut d = f.debug_struct("WriteOptions");
        d.field("version", &self.version)
            .field("timestamp", &self.timestamp)
            .field("timestamp_range", &self.timestamp_range)
            .field("sort_memory", &self.sort_memory)
            .field("pending_memory", &self.pending_memory)
            .field("scratch_dir", &self.scratch_dir)
            .field("keep_last_duplicate", &self.keep_last_duplicate)
            .field("cell_timestamps", &self.cell_timestamps)
            .field("delete_meta", &self.delete_meta)
            .field("processed_conditions", &self.processed_conditions);
        #[cfg(feature = "fail-points")]
        d.field("fail_after", &self.fail_after);
        d.field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            version: None,
            timestamp: None,
            timestamp_range: None,
            sort_memory: 256 << 20,
            pending_memory: 256 << 20,
            scratch_dir: None,
            #[cfg(feature = "fail-points")]
            fail_after: None,
            encryption_key: None,
            keep_last_duplicate: false,
            cell_timestamps: false,
            delete_meta: false,
            processed_conditions: Vec::new(),
        }
    }
}

impl WriteOptions {
    /// Options with this format version of the fragment (10 to 23;
    /// default: the array schema's version).
    pub fn with_version(mut self, version: u32) -> Self {
        self.version = Some(version);
        self
    }

    /// Options with this timestamp of the fragment, in milliseconds
    /// (default: now, and later than every fragment already there).
    pub fn with_timestamp(mut self, timestamp: u64) -> Self {
        self.timestamp = Some(timestamp);
        self
    }

    /// Options with this timestamp range `[t1, t2]` (ms) of the fragment,
    /// for a fragment that stands for fragments written over that time
    /// (consolidation names it `__<t1>_<t2>_<uuid>_<version>`); it replaces
    /// [`WriteOptions::with_timestamp`].
    pub fn with_timestamp_range(mut self, t1: u64, t2: u64) -> Self {
        self.timestamp_range = Some((t1, t2));
        self
    }

    /// Options with this many bytes of cells sorted in memory before a
    /// sorted run is spilled to a scratch file (sparse writes; default
    /// 256 MiB).
    pub fn with_sort_memory(mut self, bytes: usize) -> Self {
        self.sort_memory = bytes;
        self
    }

    /// Options with this many bytes of filtered tiles held while waiting
    /// for their turn (dense arrays with column-major tile order) before
    /// they are spilled to a scratch file (default 256 MiB).
    pub fn with_pending_memory(mut self, bytes: usize) -> Self {
        self.pending_memory = bytes;
        self
    }

    /// Options with scratch files in this folder (default: a hidden folder
    /// in the array's own folder, removed when the write ends).
    pub fn with_scratch_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.scratch_dir = Some(dir.into());
        self
    }

    crate::options::encryption_key_options!(
        "Options with this AES-256-GCM key of an encrypted array: every data \
         tile gets the encryption filter after the schema's filters and every \
         generic tile of the fragment metadata is encrypted, as the engine \
         writes them."
    );

    /// Sparse arrays without duplicates: whether cells of one coordinate
    /// given to one write keep the last one (as consolidation merges newer
    /// cells over older ones). `false` (the default): such a write fails
    /// naming the coordinate, as the engine refuses it.
    pub fn with_keep_last_duplicate(mut self, yes: bool) -> Self {
        self.keep_last_duplicate = yes;
        self
    }

    /// Sparse fragments written in order ([`FragmentWriter::sparse_in_order`]),
    /// format version 14 and later: whether the fragment keeps each cell's
    /// write timestamp (a `__timestamps` column of u64 comes with the
    /// cells) and every cell of a coordinate, in the order given, as the
    /// engine's consolidation with timestamps writes them.
    pub fn with_cell_timestamps(mut self, yes: bool) -> Self {
        self.cell_timestamps = yes;
        self
    }

    /// With [`WriteOptions::with_cell_timestamps`], version 16 and later:
    /// whether the fragment keeps delete metadata, each cell's delete
    /// timestamp (`__delete_timestamps`, `u64::MAX` for none) and the index
    /// in the processed conditions of the delete that removed it
    /// (`__delete_condition_index`).
    pub fn with_delete_meta(mut self, yes: bool) -> Self {
        self.delete_meta = yes;
        self
    }

    /// Options with these delete and update commits applied to the
    /// fragment's cells, by their path in the array
    /// (`__commits/<name>.del`), stored as its processed conditions
    /// (version 16 and later).
    pub fn with_processed_conditions(mut self, commits: Vec<String>) -> Self {
        self.processed_conditions = commits;
        self
    }

    /// Stop right after this step, as if the process had died there: the
    /// write returns `WriteError::Injected` and leaves on disk what it had
    /// written (the crash-safety tests; only with the `fail-points`
    /// feature).
    #[doc(hidden)]
    #[cfg(feature = "fail-points")]
    pub fn with_fail_after(mut self, step: FailPoint) -> Self {
        self.fail_after = Some(step);
        self
    }

    /// The format version asked for (`None`: the array schema's).
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    /// The timestamp asked for (`None`: now).
    pub fn timestamp(&self) -> Option<u64> {
        self.timestamp
    }

    /// The timestamp range asked for, when given.
    pub fn timestamp_range(&self) -> Option<(u64, u64)> {
        self.timestamp_range
    }
}

/// The cells of one field, column-wise, as [`FragmentWriter::write`] takes
/// them: fixed-size values back to back, or var-sized data with the start
/// of each cell, and one validity byte per cell (0 = null) for nullable
/// fields.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Column {
    /// The field's name.
    pub name: String,
    /// The cells' values, little-endian, one after another.
    pub data: Vec<u8>,
    /// The start of each cell in `data` (var-sized fields).
    pub offsets: Option<Vec<u64>>,
    /// One validity byte per cell (nullable fields).
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
#[non_exhaustive]
pub struct FragmentInfo {
    /// The fragment's name.
    pub name: String,
    /// The fragment's folder.
    pub path: PathBuf,
    /// The format version written.
    pub version: u32,
    /// The fragment's timestamp (ms; the first of its range).
    pub timestamp: u64,
    /// Cells written (after dropping duplicates).
    pub cells: u64,
    /// Duplicate cells dropped (sparse arrays without duplicates).
    pub duplicates_dropped: u64,
    /// Data tiles written per field.
    pub tiles: u64,
}

/// An MBR as bytes: `(low, high)` per dimension.
pub(super) type MbrBytes = Vec<(Vec<u8>, Vec<u8>)>;

/// A field the fragment writes.
pub(super) struct WField {
    pub(super) name: String,
    /// Position in the engine's index map (attributes, `__coords`, dimensions).
    pub(super) idx: usize,
    /// What the schema says about the field (its data files' names).
    pub(super) info: FieldInfo,
    pub(super) var: bool,
    pub(super) nullable: bool,
    /// Bytes of a fixed-size cell, or of one value of a var-sized cell.
    pub(super) value_size: u64,
    pub(super) pipes: FieldPipelines,
    pub(super) spec: MetaSpec,
}

impl WField {
    pub(super) fn sort_field(&self) -> SortField {
        SortField {
            cell_size: self.value_size as usize,
            var: self.var,
            nullable: self.nullable,
        }
    }
}

/// A field's data files: their places in the [`Sink`]'s list.
pub(super) struct FieldFiles {
    pub(super) fixed: usize,
    pub(super) var: Option<usize>,
    pub(super) validity: Option<usize>,
}

/// One tile of every written field, before filtering.
pub(super) struct RawSet {
    pub(super) ordinal: u64,
    pub(super) tiles: Vec<RawTile>,
    /// The cells that count for the metadata (dense: inside the rectangle).
    pub(super) ranges: Vec<(usize, usize)>,
    /// Sparse: the tile's MBR, one `(lo, hi)` per dimension.
    pub(super) mbr: Option<MbrBytes>,
    /// Sparse: the coordinates of the tile's first and last cell in global
    /// order, one `(first, last)` per dimension (the version 23 tile global
    /// order bounds).
    pub(super) bounds: Option<MbrBytes>,
    pub(super) cells: u64,
}

/// A space tile a run of the caller's cells fills as it is
/// ([`super::dense::whole_tile_rows`]).
pub(super) struct WholeTile {
    pub(super) ordinal: u64,
    /// The cells that count for the metadata.
    pub(super) ranges: Vec<(usize, usize)>,
}

/// One tile of one field, filtered.
#[derive(Default)]
pub(super) struct Filtered {
    pub(super) fixed: TileBytes,
    pub(super) var: Option<Vec<u8>>,
    /// The var tile before filtering, measured (its bytes are not kept).
    pub(super) var_tile: StreamedFile,
    pub(super) validity: Option<Vec<u8>>,
    pub(super) stats: TileStats,
}

pub(super) struct FilteredSet {
    pub(super) ordinal: u64,
    pub(super) fields: Vec<Filtered>,
    pub(super) mbr: Option<MbrBytes>,
    pub(super) bounds: Option<MbrBytes>,
    pub(super) cells: u64,
}

/// A tile filtered, with its raw tiles (their buffers are reused).
pub(super) type FilterResult = WriteResult<(FilteredSet, Vec<RawTile>)>;

/// Tiles being filtered on the thread pool; they come back in any order
/// (or the panic of a filter, to be raised by the writer).
pub(super) struct Filtering {
    pub(super) tx: Sender<std::thread::Result<FilterResult>>,
    pub(super) rx: Receiver<std::thread::Result<FilterResult>>,
    pub(super) in_flight: usize,
}

impl Filtering {
    pub(super) fn new() -> Self {
        let (tx, rx) = channel();
        Filtering {
            tx,
            rx,
            in_flight: 0,
        }
    }
}

/// Per index-map entry: the lists of the fragment metadata.
#[derive(Default, Clone)]
pub(super) struct IdxMeta {
    /// The field's data files (var and validity when it has them), measured
    /// by the generated layouts as their tiles stream out.
    pub(super) fixed: DataFile,
    pub(super) var: Option<DataFile>,
    pub(super) validity: Option<DataFile>,
    /// Each var tile before filtering, measured: the var tile sizes.
    pub(super) var_tiles: Vec<StreamedFile>,
    pub(super) stats: FieldMeta,
    pub(super) written: bool,
}

/// One data file of a field: its length and where each of its tiles
/// starts, both measured by generated code ([`StreamedFile`], the spec's
/// `TileOffsets` layout) from the bytes handed to the disk.
#[derive(Default, Clone)]
pub(super) struct DataFile {
    pub(super) file: StreamedFile,
    pub(super) tiles: TileOffsetsParts,
}

impl DataFile {
    /// Counts the next tile of the file: its bytes, piece after piece.
    pub(super) fn push<'a>(&mut self, tile: impl IntoIterator<Item = &'a [u8]>) {
        self.tiles.push_tiles(&mut self.file, tile);
    }
}

pub(super) enum Mode {
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
        /// Cells given in global order ([`FragmentWriter::sparse_in_order`]).
        in_order: Option<Box<InOrder>>,
        allows_dups: bool,
        /// Whether cells of one coordinate fail the write (no duplicates
        /// allowed, and not [`WriteOptions::with_keep_last_duplicate`]).
        refuse_dups: bool,
        capacity: u64,
    },
}

/// Writes one fragment. Create it with [`FragmentWriter::dense`] or
/// [`FragmentWriter::sparse`], hand it cells with [`FragmentWriter::write`],
/// commit with [`FragmentWriter::finish`]. Dropped or failed before
/// `finish`, it removes its folder (except when stopped by a failure point,
/// which leaves everything as a crash would).
pub struct FragmentWriter {
    pub(super) schema: ArraySchema,
    pub(super) schema_name: String,
    pub(super) version: u32,
    pub(super) name: String,
    pub(super) timestamp: u64,
    pub(super) dir: PathBuf,
    pub(super) commit_path: PathBuf,
    /// Shared with the tiles being filtered on the thread pool.
    pub(super) fields: Arc<Vec<WField>>,
    /// Metadata specs of every index-map entry.
    pub(super) specs: Vec<MetaSpec>,
    pub(super) files: Vec<FieldFiles>,
    /// The data files, written on their own thread (`None` once closed).
    pub(super) sink: Option<Sink>,
    pub(super) filtering: Filtering,
    pub(super) meta: Vec<IdxMeta>,
    pub(super) mode: Mode,
    pub(super) mbrs: Vec<MbrBytes>,
    /// Sparse: every tile's first and last coordinates in global order.
    pub(super) global_order_bounds: Vec<MbrBytes>,
    pub(super) tile_cells: Vec<u64>,
    pub(super) next_ordinal: u64,
    /// The ordinal of the next tile to write.
    pub(super) ready_next: u64,
    /// Data buffers of tiles already filtered, for the next rows of tiles
    /// (fresh 8 MiB buffers cost a page fault per page).
    pub(super) spare: Vec<Vec<u8>>,
    pub(super) pending: Pending,
    pub(super) received: u64,
    pub(super) written_cells: u64,
    pub(super) dropped: u64,
    #[cfg(feature = "fail-points")]
    pub(super) fail_after: Option<FailPoint>,
    /// The array's key: generic tiles are encrypted with it (the data
    /// pipelines in `fields` already end with the encryption filter).
    pub(super) key: Option<[u8; 32]>,
    pub(super) done: bool,
    pub(super) stopped: bool,
    /// Sparse: the fields before the dimensions in `fields` (attributes,
    /// then the timestamps and delete metadata when kept).
    pub(super) n_lead: usize,
    /// Whether the footer says the fragment keeps timestamps, and delete
    /// metadata.
    pub(super) includes: (bool, bool),
    pub(super) processed_conditions: Vec<String>,
}

/// The dense tiler's view of the rectangle and its space tiles.
pub(super) struct DenseGrid {
    pub(super) datatype: Datatype,
    /// Per dimension: the rectangle, the domain's low bound, the tile extent.
    pub(super) rect: Vec<(i128, i128)>,
    pub(super) dom_lo: Vec<i128>,
    pub(super) ext: Vec<i128>,
    /// Per dimension: the first and last tile index the rectangle touches.
    pub(super) tiles: Vec<(i128, i128)>,
    pub(super) tile_order: Layout,
    pub(super) cell_order: Layout,
    /// Cells of a space tile.
    pub(super) tile_cells: u64,
}

/// The sparse writer's state when cells come in global order: they are cut
/// into tiles as they come.
pub(super) struct InOrder {
    pub(super) tiles: SparseTiles,
    /// The last cell given (sorter layout: dimensions, then attributes),
    /// held back so that a later cell of the same coordinates can replace
    /// it when duplicates are not allowed; buffers reused from cell to cell.
    pub(super) last: Vec<(Vec<u8>, u8)>,
    pub(super) has_last: bool,
    pub(super) last_key: Vec<u64>,
    pub(super) key: Vec<u64>,
    pub(super) dropped: u64,
}

/// Where filtered tiles wait for their turn (dense arrays with column-major
/// tile order): in memory, then past a budget in a scratch file.
pub(super) struct Pending {
    pub(super) mem: BTreeMap<u64, FilteredSet>,
    pub(super) mem_bytes: usize,
    pub(super) budget: usize,
    pub(super) spilled: BTreeMap<u64, (u64, usize)>,
    pub(super) scratch_base: PathBuf,
    pub(super) spill: Option<(util::ScratchDir, File, u64)>,
}

/// Cuts cells in global order into tiles of `capacity` cells, with MBRs.
pub(super) struct SparseTiles {
    /// Field order of the writer: attributes (and timestamps, delete
    /// metadata), then dimensions.
    pub(super) layout: Vec<SortField>,
    pub(super) n_attr: usize,
    pub(super) n_dim: usize,
    pub(super) capacity: u64,
    pub(super) current: Vec<RawTile>,
    pub(super) mbr: MbrBytes,
    pub(super) cells: u64,
    pub(super) ordinal: u64,
}
