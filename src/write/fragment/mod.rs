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
//! merged), and cut into tiles of `capacity` cells. Cells of one coordinate
//! in an array without duplicates fail the write, as the engine's writer
//! refuses them, unless [`WriteOptions::with_keep_last_duplicate`] (the last
//! given wins: consolidation, where newer cells replace older ones).
//!
//! Tiles are filtered on the thread pool (a few at a time, each tile's
//! chunks in parallel) while the writer takes the next cells, and go to the
//! data files in order on threads of their own (`sink`). The commit
//! protocol: every file of the fragment folder is written, then the files,
//! the folder and its parent are synced (together), then the commit marker
//! is created and synced, and its folder synced.

use std::path::Path;
use std::sync::Arc;

use crate::array::directory::ArrayDirectory;
use crate::array::field::{data_file_name, DataFile};
use crate::array::schema::dimension_datatype;
use crate::array::schema::read_schema;
use crate::array::{FieldInfo, FieldPipelines};
use crate::format::hierarchy;
use crate::format::version::{
    has_cell_timestamps, has_commits_folder, has_deletes, writes_version,
};
use crate::format::{ArraySchema, ArrayType};
use crate::ReadOptions;

use super::error::{WriteError, WriteResult};
use super::order::GlobalOrder;
use super::sort::{CellSorter, ColBuf, SortField};
use super::stats::MetaSpec;
use super::util;
use super::{MAX_WRITE_VERSION, MIN_WRITE_VERSION};

mod commit;
mod dense;
mod filter;
mod footer;
mod rtree;
mod sink;
mod sparse;
mod spill;
mod types;

use dense::*;
use filter::*;
use sparse::*;
use types::*;
pub use types::{Column, FragmentInfo, FragmentWriter, WriteOptions};

#[cfg(feature = "fail-points")]
pub use super::error::FailPoint;

impl FragmentWriter {
    /// A dense fragment covering `rect` (an inclusive `(lo, hi)` per
    /// dimension); the cells come in row-major order of the rectangle.
    pub fn dense(array: &Path, rect: &[(i128, i128)], opts: WriteOptions) -> WriteResult<Self> {
        Self::open(array, Some(rect), false, opts)
    }

    /// A sparse fragment; cells come in any order.
    pub fn sparse(array: &Path, opts: WriteOptions) -> WriteResult<Self> {
        Self::open(array, None, false, opts)
    }

    /// A sparse fragment whose cells come in the array's global order (as
    /// a global-order read or a merge of fragments gives them): they are
    /// cut into tiles as they come, with no sorting and no scratch files. A
    /// cell that comes before the one given before it fails the write.
    /// Cells of equal coordinates in an array without duplicates: the later
    /// one is kept, as [`FragmentWriter::sparse`] keeps it.
    pub fn sparse_in_order(array: &Path, opts: WriteOptions) -> WriteResult<Self> {
        Self::open(array, None, true, opts)
    }

    /// Stops the writer right after `step`, leaving what it wrote (for
    /// testing crash safety; only with the `fail-points` feature).
    #[cfg(feature = "fail-points")]
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

    fn open(
        array: &Path,
        rect: Option<&[(i128, i128)]>,
        in_order: bool,
        opts: WriteOptions,
    ) -> WriteResult<Self> {
        let scratch = opts
            .scratch_dir
            .clone()
            .unwrap_or_else(|| array.to_path_buf());
        let (schema, schema_name) = latest_schema(array, &opts)?;
        let version = write_version(&schema, &opts)?;
        let dense_schema = schema.array_type == ArrayType::Dense;
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
        let includes = special_fields_included(&opts, dense_schema, in_order, version)?;
        let n_dim = schema.domain.dimensions.len();
        let layout = field_layout(&schema, includes, opts.encryption_key)?;
        let mode = match rect {
            Some(rect) => {
                let grid = dense_grid(&schema, rect, schema.tile_order, schema.cell_order)?;
                let slab_k = grid.tiles[0].0;
                Mode::Dense {
                    slab: vec![ColBuf::default(); layout.fields.len()],
                    grid,
                    slab_k,
                    slab_len: 0,
                }
            }
            None => Mode::Sparse {
                order: GlobalOrder::new(&schema),
                sorter: None,
                in_order: None,
                // With cell timestamps every cell of a coordinate stays.
                allows_dups: schema.allows_dups.unwrap_or(0) != 0 || includes.0,
                refuse_dups: schema.allows_dups.unwrap_or(0) == 0
                    && !opts.keep_last_duplicate
                    && !includes.0,
                capacity: schema.capacity.max(1),
            },
        };
        let place = FragmentPlace::new(array, version, &opts)?;
        std::fs::create_dir(&place.dir).map_err(|e| WriteError::io(&place.dir, e))?;
        let mut w = FragmentWriter {
            schema_name,
            version,
            name: place.name,
            timestamp: place.timestamp,
            dir: place.dir,
            commit_path: place.commit_path,
            files: Vec::new(),
            sink: None,
            filtering: Filtering::new(),
            meta: vec![IdxMeta::default(); layout.specs.len()],
            specs: layout.specs,
            mode,
            mbrs: Vec::new(),
            global_order_bounds: Vec::new(),
            tile_cells: Vec::new(),
            next_ordinal: 0,
            ready_next: 0,
            spare: Vec::new(),
            pending: Pending::new(opts.pending_memory, scratch.clone()),
            received: 0,
            written_cells: 0,
            dropped: 0,
            #[cfg(feature = "fail-points")]
            fail_after: opts.fail_after,
            key: opts.encryption_key,
            done: false,
            stopped: false,
            n_lead: layout.n_lead,
            includes,
            processed_conditions: opts.processed_conditions.clone(),
            fields: Arc::new(layout.fields),
            schema,
        };
        w.start_sparse(in_order, n_dim, opts.sort_memory, scratch);
        w.create_files()?;
        #[cfg(feature = "fail-points")]
        w.checkpoint(FailPoint::FolderCreated)?;
        Ok(w)
    }

    /// A sparse writer's way of taking cells: cut into tiles as they come
    /// (`in_order`), or sorted first.
    fn start_sparse(
        &mut self,
        in_order: bool,
        n_dim: usize,
        sort_memory: usize,
        scratch: std::path::PathBuf,
    ) {
        let n_lead = self.n_lead;
        if let (true, Mode::Sparse { capacity, .. }) = (in_order, &self.mode) {
            let tiles = SparseTiles::new(&self.fields, n_lead, n_dim, *capacity);
            let state = InOrder::new(tiles, self.fields.len());
            if let Mode::Sparse { in_order: s, .. } = &mut self.mode {
                *s = Some(Box::new(state));
            }
        } else if let Mode::Sparse { order, .. } = &self.mode {
            // Dimensions first: the sorter compares them.
            let sort_fields: Vec<SortField> = self.fields[n_lead..]
                .iter()
                .chain(&self.fields[..n_lead])
                .map(WField::sort_field)
                .collect();
            let sorter = CellSorter::new(order.clone(), sort_fields, n_dim, sort_memory, scratch);
            if let Mode::Sparse { sorter: s, .. } = &mut self.mode {
                *s = Some(sorter);
            }
        }
    }

    fn create_files(&mut self) -> WriteResult<()> {
        let n_attr = self.schema.attributes.len();
        let mut paths = Vec::new();
        for f in self.fields.iter() {
            let mut add = |file| {
                let p = self
                    .dir
                    .join(data_file_name(self.version, n_attr, &f.info, file));
                paths.push(p);
                paths.len() - 1
            };
            let fixed = add(DataFile::Fixed);
            let var = f.var.then(|| add(DataFile::Var));
            let validity = f.nullable.then(|| add(DataFile::Validity));
            self.files.push(FieldFiles {
                fixed,
                var,
                validity,
            });
        }
        // Staging of each file: 16 MiB in all, between 256 KiB and 4 MiB.
        let stage = ((16 << 20) / paths.len().max(1)).clamp(256 << 10, 4 << 20);
        let outs = paths
            .into_iter()
            .map(sink::OutFile::create)
            .collect::<WriteResult<Vec<_>>>()?;
        self.sink = Some(sink::Sink::start(outs, stage)?);
        Ok(())
    }

    /// Hands cells to the writer: one column per field (dense arrays: every
    /// attribute; sparse arrays: every dimension and attribute), all with
    /// the same number of cells. Dense writes of fixed-size, non-nullable,
    /// filtered fields filter the whole tiles of `columns` where they are
    /// and return when those are written; other cells are copied into
    /// tiles, filtered on the thread pool while the next cells come.
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
        for f in self.fields.iter() {
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
                if !(c.data.len() as u64).is_multiple_of(f.value_size.max(1)) {
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
                if !(c.data.len() as u64).is_multiple_of(f.value_size) {
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
                if let Mode::Dense {
                    grid,
                    slab_k,
                    slab_len: 0,
                    ..
                } = &self.mode
                {
                    let tile_cells = grid.tile_cells;
                    let whole = if self.filters_in_place() {
                        whole_tile_rows(grid, *slab_k, (n - i) as u64)
                    } else {
                        Vec::new()
                    };
                    if !whole.is_empty() {
                        let count = whole.len() as u64;
                        self.filter_in_place(&cols, i, whole, tile_cells as usize)?;
                        if let Mode::Dense { slab_k, .. } = &mut self.mode {
                            *slab_k += count as i128;
                        }
                        self.received += count * tile_cells;
                        i += (count * tile_cells) as usize;
                        continue;
                    }
                }
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
        let n_attr = self.n_lead;
        let Mode::Sparse {
            order,
            sorter,
            in_order,
            allows_dups,
            refuse_dups,
            ..
        } = &mut self.mode
        else {
            unreachable!()
        };
        let mut view: Vec<(&[u8], u8)> = Vec::with_capacity(self.fields.len());
        let mut full = Vec::new();
        for i in 0..n {
            view.clear();
            let index = self.received + i as u64;
            for (fi, f) in self.fields[n_attr..].iter().enumerate() {
                let (b, v) = cell(n_attr + fi, f, i);
                check_coord(order, fi, b, &f.name, index)?;
                view.push((b, v));
            }
            for (fi, f) in self.fields[..n_attr].iter().enumerate() {
                view.push(cell(fi, f, i));
            }
            match (in_order.as_mut(), sorter.as_mut()) {
                (Some(s), _) => {
                    let dup = s.push(&view, order, *allows_dups, *refuse_dups, index)?;
                    match dup {
                        Pushed::Cell(set) => full.extend(set),
                        Pushed::Duplicate => {
                            return Err(duplicate(&self.fields[n_attr..], &view));
                        }
                    }
                }
                (None, Some(s)) => s.push(&view)?,
                (None, None) => unreachable!("a sparse writer sorts or takes cells in order"),
            }
        }
        self.received += n as u64;
        for set in full {
            self.queue(set)?;
        }
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
}

/// The array's latest schema and its file's name.
fn latest_schema(array: &Path, opts: &WriteOptions) -> WriteResult<(ArraySchema, String)> {
    let read_opts = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    // The real error with it: a listing that cannot be read is not
    // the same as no array.
    let dir = ArrayDirectory::open(array).map_err(|e| WriteError::Array {
        path: array.to_path_buf(),
        what: format!("not an array ({e})"),
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
    Ok((schema, schema_name))
}

/// The format version of the new fragment: the one asked for, or the
/// schema's (at most the newest this crate writes).
fn write_version(schema: &ArraySchema, opts: &WriteOptions) -> WriteResult<u32> {
    let version = opts
        .version
        .unwrap_or(schema.array_version.min(MAX_WRITE_VERSION));
    if !writes_version(version) {
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
    Ok(version)
}

/// Whether the fragment holds cell timestamps, and delete metadata.
fn special_fields_included(
    opts: &WriteOptions,
    dense_schema: bool,
    in_order: bool,
    version: u32,
) -> WriteResult<(bool, bool)> {
    let includes = (
        opts.cell_timestamps,
        opts.cell_timestamps && opts.delete_meta,
    );
    if opts.delete_meta && !opts.cell_timestamps {
        return Err(WriteError::Unsupported(
            "delete metadata without cell timestamps".into(),
        ));
    }
    if includes.0 && (dense_schema || !in_order || !has_cell_timestamps(version)) {
        return Err(WriteError::Unsupported(format!(
            "cell timestamps in a {} fragment of version {version} (sparse fragments \
             written in order, version 14 and later)",
            if dense_schema {
                "dense"
            } else if in_order {
                "sparse"
            } else {
                "sorted"
            }
        )));
    }
    if includes.1 && !has_deletes(version) {
        return Err(WriteError::Unsupported(format!(
            "delete metadata in a fragment of version {version} (16 and later)"
        )));
    }
    Ok(includes)
}

/// The fields a writer takes, in its layout, and the metadata specs of the
/// engine's index map.
struct FieldLayout {
    /// Attributes, then timestamps and delete metadata, then (sparse)
    /// dimensions.
    fields: Vec<WField>,
    /// Attributes, `__coords`, dimensions, then timestamps and delete
    /// metadata.
    specs: Vec<MetaSpec>,
    /// The fields before the dimensions.
    n_lead: usize,
}

/// The fields of a fragment of `schema`, with timestamps (`includes.0`) and
/// delete metadata (`includes.1`): u64 cells after the attributes in the
/// writer's layout, after the dimensions in the index map.
fn field_layout(
    schema: &ArraySchema,
    includes: (bool, bool),
    key: Option<[u8; 32]>,
) -> WriteResult<FieldLayout> {
    let dense_schema = schema.array_type == ArrayType::Dense;
    let n_attr = schema.attributes.len();
    let n_dim = schema.domain.dimensions.len();
    let mut specs = Vec::with_capacity(n_attr + 1 + n_dim);
    let mut fields = Vec::new();
    for a in &schema.attributes {
        let f = schema_field(schema, &String::from_utf8_lossy(&a.name), key)?;
        specs.push(f.spec.clone());
        fields.push(f);
    }
    let mut specials = Vec::new();
    if includes.0 {
        specials.push(FieldInfo::timestamps(schema));
    }
    if includes.1 {
        specials.push(FieldInfo::delete_timestamps(schema, true));
        specials.push(FieldInfo::delete_condition_index(schema, true));
    }
    let mut special_specs = Vec::new();
    for info in specials {
        let f = special_field(schema, info, key)?;
        special_specs.push(f.spec.clone());
        fields.push(f);
    }
    let n_lead = fields.len();
    let dt0 = dimension_datatype(schema, &schema.domain.dimensions[0])
        .known()
        .ok_or_else(|| WriteError::Unsupported("a dimension of unknown datatype".into()))?;
    specs.push(MetaSpec {
        datatype: dt0,
        is_dim: false,
        var: false,
        cell_size: n_dim as u64 * dt0.size(),
        cell_val_num: 1,
        nullable: false,
        kept: true,
    });
    for d in &schema.domain.dimensions {
        let f = schema_field(schema, &String::from_utf8_lossy(&d.name), key)?;
        specs.push(f.spec.clone());
        if !dense_schema {
            fields.push(f);
        }
    }
    specs.extend(special_specs);
    Ok(FieldLayout {
        fields,
        specs,
        n_lead,
    })
}

/// An attribute or dimension of the schema as the writer takes it.
fn schema_field(schema: &ArraySchema, name: &str, key: Option<[u8; 32]>) -> WriteResult<WField> {
    let dense_schema = schema.array_type == ArrayType::Dense;
    let info = FieldInfo::lookup(schema, name).ok_or_else(|| {
        WriteError::Unsupported(format!(
            "field {name:?} has a datatype this crate does not know"
        ))
    })?;
    let pipes = FieldPipelines::new(schema, &info, key).map_err(filter_err(name))?;
    let var = info.cell_val_num.is_none();
    let spec = MetaSpec {
        datatype: info.datatype,
        is_dim: info.is_dimension,
        var,
        cell_size: if var { 8 } else { info.cell_size() },
        cell_val_num: info.cell_val_num.unwrap_or(crate::format::VAR_NUM),
        nullable: info.nullable,
        kept: !(dense_schema && info.is_dimension),
    };
    Ok(WField {
        name: name.to_string(),
        idx: info.idx,
        var,
        nullable: info.nullable,
        value_size: if var {
            info.datatype.size()
        } else {
            info.cell_size()
        },
        pipes,
        spec,
        info,
    })
}

/// Timestamps or delete metadata (one u64 per cell) as the writer takes them.
fn special_field(
    schema: &ArraySchema,
    info: FieldInfo,
    key: Option<[u8; 32]>,
) -> WriteResult<WField> {
    let pipes = FieldPipelines::new(schema, &info, key).map_err(filter_err(&info.name))?;
    let spec = MetaSpec {
        datatype: info.datatype,
        is_dim: false,
        var: false,
        cell_size: info.cell_size(),
        cell_val_num: 1,
        nullable: false,
        kept: true,
    };
    Ok(WField {
        name: info.name.clone(),
        idx: info.idx,
        var: false,
        nullable: false,
        value_size: info.cell_size(),
        pipes,
        spec,
        info,
    })
}

/// Where a new fragment goes: its name, timestamp, folder and commit
/// marker (the parent folders made).
struct FragmentPlace {
    name: String,
    timestamp: u64,
    dir: std::path::PathBuf,
    commit_path: std::path::PathBuf,
}

impl FragmentPlace {
    fn new(array: &Path, version: u32, opts: &WriteOptions) -> WriteResult<Self> {
        let (frag_parent, commit_dir) = if has_commits_folder(version) {
            (
                array.join(hierarchy::FRAGMENTS),
                array.join(hierarchy::COMMITS),
            )
        } else {
            (array.to_path_buf(), array.to_path_buf())
        };
        let (t, t_end) = match opts.timestamp_range {
            Some((t1, t2)) if t1 <= t2 => (t1, t2),
            Some((t1, t2)) => {
                return Err(WriteError::Unsupported(format!(
                    "the timestamp range [{t1}, {t2}] ends before it starts"
                )))
            }
            None => {
                let t = util::next_timestamp(
                    opts.timestamp,
                    &[frag_parent.clone(), commit_dir.clone()],
                )?;
                (t, t)
            }
        };
        let name = util::timestamped_name(t, t_end, Some(version));
        let dir = frag_parent.join(&name);
        let commit_path = if has_commits_folder(version) {
            commit_dir.join(format!("{name}{}", hierarchy::WRT))
        } else {
            array.join(format!("{name}{}", hierarchy::OK))
        };
        util::create_dir(&frag_parent)?;
        util::create_dir(&commit_dir)?;
        Ok(FragmentPlace {
            name,
            timestamp: t,
            dir,
            commit_path,
        })
    }
}
