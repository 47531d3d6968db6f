//! Fragments: the footer of `__fragment_metadata.tdb` is read on open; the
//! R-tree and the other generic tiles it points at are read when asked for,
//! as the engine does. From an object store only the file's tail (the
//! footer) is fetched on open, and each generic tile later by its byte
//! range, once (see `meta_file`).

use std::path::{Path, PathBuf};

use super::directory::{ArrayDirectory, Entry};
use super::field::{data_file_name, DataFile, FieldInfo, FieldPipelines};
use super::meta_file::MetaFile;
use crate::array::schema::dimension_datatype;
use crate::error::{Error, Result};
use crate::filters::FilterError;
use crate::format::hierarchy;
use crate::format::version::{
    has_footer_length, has_fragment_footer, has_fragment_min_max, has_tile_min_max,
};
use crate::format::{
    decode, decode_all, rt, ArraySchema, FieldMinMaxSumNullCount, FooterLength, FragmentFooter,
    FragmentMinMaxSumNullCount, LegacyFragmentMetadata, OptionalSectionIdentifier, RTree,
    TileGlobalOrderBounds, TileMinMax, TileNullCounts, TileOffsets, TileSums,
};
use crate::model::table::ranges_from_mbr;
use crate::model::{DomainRange, NonEmptyDomain, Value};
use crate::tile::read_generic_tile;
use crate::ReadOptions;

/// The footer of a fragment, as stored: a current footer (version 3 on) or
/// the legacy metadata of versions 1 and 2.
#[derive(Debug)]
pub enum Metadata {
    /// The footer of versions 3 on.
    Footer(Box<FragmentFooter>),
    /// The `__fragment_metadata.tdb` of versions 1 and 2.
    Legacy(Box<LegacyFragmentMetadata>),
}

/// An opened fragment.
#[non_exhaustive]
pub struct Fragment {
    /// The fragment's folder.
    pub path: PathBuf,
    /// Its name, parsed.
    pub name: super::name::TimestampedName,
    /// The array schema it was written with.
    pub schema: std::sync::Arc<ArraySchema>,
    /// That schema's name (its file in `__schema`).
    pub schema_name: String,
    /// Its footer.
    pub metadata: Metadata,
    /// Whether the fragment is dense (before version 3: no `__coords.tdb`).
    pub dense: bool,
    /// Where the footer sits in `__fragment_metadata.tdb` (offset, length);
    /// (0, 0) before version 3, and for a footer read from a consolidated
    /// `.meta` file when the fragment's own copy is not found or, from an
    /// object store, not looked for (its file is not fetched for it).
    pub footer_range: (u64, u64),
    /// The consolidated fragment metadata file (`.meta`) the footer was
    /// read from, when one lists the fragment (as the engine reads it);
    /// `None`: from `__fragment_metadata.tdb`.
    pub footer_from: Option<PathBuf>,
    meta: MetaFile,
    /// Where the fragment's files are read from.
    pub storage: crate::storage::StorageRef,
    /// The R-tree once decoded, kept for the life of the fragment (the
    /// array handle): reads, slabs and queries share one decode.
    rtree: std::sync::OnceLock<Option<std::sync::Arc<RTree>>>,
}

/// Per-dimension coordinate sizes as the footer of `version` lays them out:
/// before version 5 every dimension has the domain's datatype and no
/// dimension is var-sized.
pub fn dims_for(schema: &ArraySchema) -> rt::Dims {
    schema.domain.coord_sizes()
}

/// The footer size of fragments whose footer has no stored length
/// (versions 3 to 9 with only fixed-size dimensions), as the engine counts
/// it: the `FragmentFooter` of `version` with its non-empty domain (the
/// engine's writer writes it even when null). `u64::MAX` when that is not
/// a fixed size (a var-sized dimension, a later version) or overflows.
fn computed_footer_size(version: u32, dims: &[u64], attrs: u64) -> u64 {
    footer_size(version, dims, attrs, None, None)
}

/// The `FragmentFooter` of `version` with its non-empty domain: `name`,
/// the schema name's size, and `flags`, the cell timestamps and delete
/// metadata flags and the optional section count, where the version has
/// them (`None`: unknown, and a version that has them has no size then).
/// `u64::MAX` when there is no size.
fn footer_size(
    version: u32,
    dims: &[u64],
    attrs: u64,
    name: Option<u64>,
    flags: Option<u8>,
) -> u64 {
    FragmentFooter::size(
        dims.into(),
        attrs,
        version,
        name,                 // array_schema_name_size (version 10 on)
        0,                    // null_non_empty_domain: the domain is there
        flags,                // includes_timestamps (version 14 on)
        flags,                // includes_delete_metadata (version 15 on)
        flags.map(u32::from), // num_optional_sections (version 23 on)
    )
    .unwrap_or(u64::MAX)
}

/// Bytes added to the guessed footer length in the first GET of a
/// metadata file's tail: the guess may fall short, and the generic tiles
/// just before the footer (processed conditions, the fragment's min/max/
/// sum/null count: about 100 bytes each when small) come along; a sparse
/// read needs the processed conditions of every fragment.
const TAIL_SLACK: u64 = 256;

/// A guess at the footer's length, with its length field, from the schema
/// (format_spec/fragment.md#footer): exact for footers of a fixed size; for
/// the others the fixed fields counted, with room for the schema name,
/// var-sized non-empty domains and optional sections. A longer footer costs
/// a second GET.
fn footer_guess(version: u32, schema: &ArraySchema) -> u64 {
    let dims = dims_for(schema);
    let attrs = schema.attributes.len() as u64;
    if !has_footer_length(version) && !dims.contains(&0) {
        return computed_footer_size(version, &dims, attrs);
    }
    // Estimates, not sizes: a var-sized range as two sizes and a few bytes
    // of each bound, a schema name of 128 bytes, neither cell timestamps
    // nor delete metadata, no optional section; the footer of this version
    // with those, and its length field.
    let sized: Vec<u64> = dims.iter().map(|s| if *s == 0 { 24 } else { *s }).collect();
    footer_size(version, &sized, attrs, Some(128), Some(0))
        .saturating_add(FooterLength::SIZE as u64)
        .saturating_add(64)
}

/// Metadata files of at most this many bytes are fetched whole in their
/// first GET: the one or two more round trips a read waits for the generic
/// tiles it needs (the R-tree, then the tile offsets) cost more than these
/// bytes (64 KiB: under a millisecond at 100 MB/s, where a round trip to
/// an object store takes several).
const WHOLE_UP_TO: u64 = 64 << 10;

/// How many bytes of a metadata file of `size` bytes to fetch first: the
/// tail holding the footer (as guessed), or the whole file when smaller
/// or small ([`WHOLE_UP_TO`]).
fn tail_len(version: u32, schema: &ArraySchema, size: u64) -> u64 {
    if size <= WHOLE_UP_TO {
        return size;
    }
    footer_guess(version, schema)
        .saturating_add(TAIL_SLACK)
        .min(size)
}

/// Where the footer sits (offset, length): for versions whose footer has
/// a fixed size, the file's tail; else the last 8 bytes give its length.
fn footer_at(meta: &MetaFile, version: u32, schema: &ArraySchema) -> Result<(u64, u64)> {
    let dims = dims_for(schema);
    let path = meta.path();
    let size = meta.size();
    if dims.contains(&0) || has_footer_length(version) {
        let at = size.checked_sub(FooterLength::SIZE as u64);
        let Some(at) = at else {
            return Err(Error::decode(
                path,
                0,
                "FooterLength",
                "footer_length",
                "the file is shorter than the footer length",
            ));
        };
        let w = meta.window(at..size, "FooterLength", "footer_length")?;
        let last = w.get(at..size).unwrap_or_default();
        let (len, _) = decode::<FooterLength>(last, path, at, ())?;
        let len = len.footer_length;
        if len > at {
            return Err(Error::decode(
                path,
                at,
                "FooterLength",
                "footer_length",
                format!("{len} bytes, the file has {at} before it"),
            ));
        }
        Ok((at - len, len))
    } else {
        let len = computed_footer_size(version, &dims, schema.attributes.len() as u64);
        if len > size {
            return Err(Error::decode(
                path,
                0,
                "FragmentFooter",
                "",
                format!("a version {version} footer takes {len} bytes, the file has {size}"),
            ));
        }
        Ok((size - len, len))
    }
}

/// Every generic tile offset the footer gives, and where the last tile
/// ends (`end`): the bounds of the tiles' byte ranges.
fn tile_bounds(footer: &FragmentFooter, d: u64, end: u64) -> Vec<u64> {
    let mut out = vec![footer.rtree_offset, end];
    for list in [
        Some(&footer.tile_offsets),
        Some(&footer.tile_var_offsets),
        Some(&footer.tile_var_sizes),
        footer.tile_validity_offsets.as_ref(),
        footer.tile_mins_offsets.as_ref(),
        footer.tile_maxes_offsets.as_ref(),
        footer.tile_sums_offsets.as_ref(),
        footer.tile_null_counts_offsets.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        out.extend(list);
    }
    out.extend(footer.fragment_min_max_sum_null_count_offset);
    out.extend(footer.processed_conditions_offset);
    let id = OptionalSectionIdentifier::TileGlobalOrderOffsets;
    for sec in footer.optional_sections.iter().flatten() {
        if sec.identifier != id {
            continue;
        }
        if let Ok(b) = decode_all::<TileGlobalOrderBounds>(&sec.data, Path::new(""), 0, (d,)) {
            out.extend(b.min_offsets);
            out.extend(b.max_offsets);
        }
    }
    out
}

/// Up to this many fragments are opened on the calling thread (see
/// [`Fragment::open_all`]).
const SERIAL_OPEN: usize = 16;

impl Fragment {
    /// Opens the fragments `entries` of the array `dir` (in parallel). From
    /// an object store the tails of their metadata files (the footers) are
    /// fetched first, concurrently, all in one batch.
    pub fn open_all(
        dir: &ArrayDirectory,
        entries: &[Entry],
        opts: &ReadOptions,
    ) -> Result<Vec<Self>> {
        use rayon::prelude::*;
        let mut tails: Vec<Option<(u64, Vec<u8>)>> = entries.iter().map(|_| None).collect();
        if dir.storage.ranged() {
            if let Some(latest) = dir.latest_schema() {
                let schema = dir.schema(&latest, opts)?;
                let consolidated = dir.consolidated_footers(opts)?;
                let mut which = Vec::new();
                let mut requests = Vec::new();
                for (i, e) in entries.iter().enumerate() {
                    let v = e.name.version;
                    if !has_fragment_footer(v) || consolidated.footer(&e.name.name).is_some() {
                        continue;
                    }
                    let path = e.path.join(hierarchy::FRAGMENT_METADATA);
                    let size = dir.storage.size(&path)?;
                    let tail = tail_len(v, &schema, size);
                    which.push((i, size));
                    requests.push((path, size - tail..size));
                }
                for ((i, size), bytes) in which.into_iter().zip(dir.storage.read_ranges(&requests)?)
                {
                    tails[i] = Some((size, bytes));
                }
            }
        }
        // A few footers are read faster here than handed to the thread
        // pool: waking its workers costs more than the reads.
        if entries.len() <= SERIAL_OPEN {
            return entries
                .iter()
                .zip(tails)
                .map(|(e, tail)| Self::open_with(dir, e, tail, opts))
                .collect();
        }
        entries
            .par_iter()
            .zip(tails)
            .map(|(e, tail)| Self::open_with(dir, e, tail, opts))
            .collect()
    }

    /// Opens the fragment `entry` of the array `dir`: reads its footer and
    /// the schema it was written with.
    pub fn open(dir: &ArrayDirectory, entry: &Entry, opts: &ReadOptions) -> Result<Self> {
        Self::open_with(dir, entry, None, opts)
    }

    /// [`Fragment::open`], with the metadata object's size and tail when
    /// already fetched (ranged storage only).
    fn open_with(
        dir: &ArrayDirectory,
        entry: &Entry,
        tail: Option<(u64, Vec<u8>)>,
        opts: &ReadOptions,
    ) -> Result<Self> {
        let meta_path = entry.path.join(hierarchy::FRAGMENT_METADATA);
        let latest = dir.latest_schema().ok_or_else(|| Error::NotTileDb {
            path: dir.root.clone(),
            what: "the array has no schema".into(),
        })?;
        let mut schema_name = latest
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let mut schema = dir.schema(&latest, opts)?;
        let version = entry.name.version;
        if !has_fragment_footer(version) {
            let legacy = dir.legacy_schema.clone().unwrap_or(latest);
            schema = dir.schema(&legacy, opts)?;
            schema_name = hierarchy::LEGACY_SCHEMA.into();
            let dims = dims_for(&schema);
            let mbr: u64 = dims.iter().map(|s| 2 * s).sum();
            let bounding = 2 * dims.len() as u64 * dims.first().copied().unwrap_or(0);
            let meta_file = dir.storage.open(&meta_path)?;
            let tile = read_generic_tile(&meta_file, 0, opts)?;
            let md: LegacyFragmentMetadata = decode_all(
                &tile.data,
                &meta_path,
                0,
                (schema.attributes.len() as u64, mbr, bounding),
            )?;
            let dense = dir
                .storage
                .kind(
                    &entry
                        .path
                        .join(format!("{}{}", hierarchy::COORDS, hierarchy::TDB)),
                )
                .is_none();
            return Ok(Fragment {
                path: entry.path.clone(),
                name: entry.name.clone(),
                schema,
                schema_name,
                metadata: Metadata::Legacy(Box::new(md)),
                dense,
                footer_range: (0, 0),
                footer_from: None,
                meta: MetaFile::Whole(meta_file),
                storage: dir.storage.clone(),
                rtree: std::sync::OnceLock::new(),
            });
        }
        // The footer names its schema, but its layout depends on that
        // schema's attribute count: try the newest schema first, then the
        // older ones (schema evolution adds and drops attributes, never
        // dimensions).
        let consolidated = dir.consolidated_footers(opts)?;
        let from_meta = consolidated.footer(&entry.name.name);
        let mut meta_file = if !dir.storage.ranged() {
            MetaFile::Whole(dir.storage.open(&meta_path)?)
        } else {
            // Nothing fetched for a footer the `.meta` file gives; else the
            // tail, unless already fetched.
            let (size, tail) = match tail {
                Some((size, bytes)) => (size, Some(bytes)),
                None => {
                    let size = dir.storage.size(&meta_path)?;
                    let tail = match from_meta {
                        Some(_) => None,
                        None => {
                            let n = tail_len(version, &schema, size);
                            Some(dir.storage.read_range(&meta_path, size - n..size)?)
                        }
                    };
                    (size, tail)
                }
            };
            MetaFile::ranged(dir.storage.clone(), &meta_path, size, tail)
        };
        let ranged = dir.storage.ranged();
        let read_footer = |schema: &ArraySchema| match from_meta {
            Some((bytes, path, offset)) => {
                let args = (dims_for(schema), schema.attributes.len() as u64);
                let (footer, _) = decode::<FragmentFooter>(bytes, path, offset, args)?;
                // Where the fragment's own copy sits, when it can be found
                // (not looked for in an object store).
                let range = if ranged {
                    (0, 0)
                } else {
                    footer_at(&meta_file, version, schema).unwrap_or((0, 0))
                };
                Ok((footer, range))
            }
            None => Self::read_footer(&meta_file, version, schema),
        };
        let first = read_footer(&schema);
        let (mut footer, mut footer_range) = match first {
            Ok(f) => f,
            Err(first_err) => {
                let mut found = None;
                for e in dir.schemas.iter().rev().skip(1) {
                    let s = dir.schema(&e.path, opts)?;
                    if let Ok(f) = read_footer(&s) {
                        schema = s;
                        schema_name = e
                            .path
                            .file_name()
                            .unwrap_or_default()
                            .to_string_lossy()
                            .into_owned();
                        found = Some(f);
                        break;
                    }
                }
                found.ok_or(first_err)?
            }
        };
        let named = footer
            .array_schema_name
            .as_ref()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_else(|| hierarchy::LEGACY_SCHEMA.into());
        if named != schema_name {
            let p = dir.schema_path(&named).ok_or_else(|| {
                Error::decode(
                    &meta_path,
                    0,
                    "FragmentFooter",
                    "array_schema_name",
                    format!("names schema {named}, which the array does not have"),
                )
            })?;
            schema = dir.schema(&p, opts)?;
            schema_name = named;
            (footer, footer_range) = read_footer(&schema)?;
        }
        let dense = footer.dense != 0;
        check_optional_sections(&footer, &schema, &meta_path, footer_range.0)?;
        let end = match footer_range {
            (_, 0) => meta_file.size(),
            (offset, _) => offset,
        };
        if matches!(meta_file, MetaFile::Ranged(_)) {
            // Only ranged reads cut the file by its tiles' bounds.
            let d = schema.domain.dimensions.len() as u64;
            meta_file.set_bounds(tile_bounds(&footer, d, end));
        }
        Ok(Fragment {
            path: entry.path.clone(),
            name: entry.name.clone(),
            schema,
            schema_name,
            metadata: Metadata::Footer(Box::new(footer)),
            dense,
            footer_range,
            footer_from: from_meta.map(|(_, p, _)| p.to_path_buf()),
            meta: meta_file,
            storage: dir.storage.clone(),
            rtree: std::sync::OnceLock::new(),
        })
    }

    fn read_footer(
        meta: &MetaFile,
        version: u32,
        schema: &ArraySchema,
    ) -> Result<(FragmentFooter, (u64, u64))> {
        let (offset, len) = footer_at(meta, version, schema)?;
        let w = meta.window(offset..offset + len, "FragmentFooter", "")?;
        let bytes = w.get(offset..offset + len).unwrap_or_default();
        let args = (dims_for(schema), schema.attributes.len() as u64);
        let footer = if has_tile_min_max(version) && !has_fragment_min_max(version) {
            // Today's engine writes a fragment min/max offset into version 11
            // footers that its reader (and TileDB 2.7) does not have.
            let (footer, used) = decode::<FragmentFooter>(bytes, meta.path(), offset, args)?;
            if used != len && used + 8 != len {
                return Err(Error::decode(
                    meta.path(),
                    offset + used,
                    "FragmentFooter",
                    "",
                    format!("{} bytes left over after the footer", len - used),
                ));
            }
            footer
        } else {
            decode_all(bytes, meta.path(), offset, args)?
        };
        Ok((footer, (offset, len)))
    }

    /// The fragment's format version.
    pub fn version(&self) -> u32 {
        match &self.metadata {
            Metadata::Footer(f) => f.version_number,
            Metadata::Legacy(l) => l.version_number,
        }
    }

    /// The R-tree (read on first demand, then kept; `None` before version
    /// 3). A failed decode is not kept: the next call reports it again.
    pub fn rtree(&self, opts: &ReadOptions) -> Result<Option<std::sync::Arc<RTree>>> {
        if let Some(r) = self.rtree.get() {
            return Ok(r.clone());
        }
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(None);
        };
        let args = (f.version_number, dims_for(&self.schema));
        let r: RTree = self.meta.generic_tile(f.rtree_offset, opts, |tile| {
            decode_all(&tile.data, self.meta.path(), 0, args)
        })?;
        Ok(self
            .rtree
            .get_or_init(|| Some(std::sync::Arc::new(r)))
            .clone())
    }

    /// The tile offsets of field `idx` (the engine's index map), on demand.
    pub fn tile_offsets(&self, idx: usize, opts: &ReadOptions) -> Result<Option<TileOffsets>> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(None);
        };
        let Some(off) = f.tile_offsets.get(idx) else {
            return Ok(None);
        };
        self.meta
            .generic_tile(*off, opts, |tile| {
                decode_all(&tile.data, self.meta.path(), 0, ())
            })
            .map(Some)
    }

    /// A `TileOffsets` generic tile of the metadata file (tile offsets, var
    /// offsets, var sizes or validity offsets), read on demand.
    pub fn generic_tile_offsets(&self, offset: u64, opts: &ReadOptions) -> Result<TileOffsets> {
        self.decode_tile(offset, opts)
    }

    /// The generic tile at `offset` of the metadata file, decoded as `T`.
    fn decode_tile<T>(&self, offset: u64, opts: &ReadOptions) -> Result<T>
    where
        T: for<'a> binrw::BinRead<Args<'a> = ()>,
    {
        self.meta.generic_tile(offset, opts, |tile| {
            decode_all(&tile.data, self.meta.path(), offset, ())
        })
    }

    /// Fetches, in as few requests as their places allow, the generic
    /// tiles with the tile offsets (and var offsets, validity offsets) of
    /// `fields`, which a read is about to open: from an object store; a
    /// file at hand needs nothing.
    pub fn prefetch_tile_lists(&self, fields: &[&FieldInfo]) -> Result<()> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(());
        };
        if matches!(self.meta, MetaFile::Whole(_)) {
            return Ok(());
        }
        let mut offsets = Vec::new();
        for field in fields {
            let i = field.idx;
            offsets.extend(f.tile_offsets.get(i));
            if field.cell_val_num.is_none() {
                offsets.extend(f.tile_var_offsets.get(i));
            }
            if field.nullable {
                offsets.extend(f.tile_validity_offsets.as_ref().and_then(|v| v.get(i)));
            }
        }
        self.meta.prefetch(&offsets)
    }

    /// The offset of field `idx`'s entry in one of the footer's per-field
    /// tile metadata lists (version 11 on).
    fn tile_metadata_offset(
        &self,
        idx: usize,
        pick: fn(&FragmentFooter) -> Option<&Vec<u64>>,
    ) -> Option<u64> {
        let Metadata::Footer(f) = &self.metadata else {
            return None;
        };
        pick(f).and_then(|v| v.get(idx)).copied()
    }

    /// The tile mins (`max` false) or tile maxes (`max` true) of field
    /// `idx`, read on demand (`None` before version 11).
    pub fn tile_min_max(
        &self,
        idx: usize,
        max: bool,
        opts: &ReadOptions,
    ) -> Result<Option<TileMinMax>> {
        let pick: fn(&FragmentFooter) -> Option<&Vec<u64>> = if max {
            |f| f.tile_maxes_offsets.as_ref()
        } else {
            |f| f.tile_mins_offsets.as_ref()
        };
        let Some(off) = self.tile_metadata_offset(idx, pick) else {
            return Ok(None);
        };
        self.decode_tile(off, opts).map(Some)
    }

    /// The tile sums of field `idx`, read on demand (`None` before version 11).
    pub fn tile_sums(&self, idx: usize, opts: &ReadOptions) -> Result<Option<TileSums>> {
        let Some(off) = self.tile_metadata_offset(idx, |f| f.tile_sums_offsets.as_ref()) else {
            return Ok(None);
        };
        self.decode_tile(off, opts).map(Some)
    }

    /// The tile null counts of field `idx`, read on demand (`None` before
    /// version 11).
    pub fn tile_null_counts(
        &self,
        idx: usize,
        opts: &ReadOptions,
    ) -> Result<Option<TileNullCounts>> {
        let Some(off) = self.tile_metadata_offset(idx, |f| f.tile_null_counts_offsets.as_ref())
        else {
            return Ok(None);
        };
        self.decode_tile(off, opts).map(Some)
    }

    /// The whole fragment's min, max, sum and null count of each field, in
    /// the order of the footer's per-field lists, read on demand (`None`
    /// where the fragment does not store them: before version 12, as the
    /// engine reads them).
    pub fn field_min_max_sum_null_counts(
        &self,
        opts: &ReadOptions,
    ) -> Result<Option<Vec<FieldMinMaxSumNullCount>>> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(None);
        };
        let Some(off) = f.fragment_min_max_sum_null_count_offset else {
            return Ok(None);
        };
        let count = f.tile_offsets.len() as u64;
        let t: FragmentMinMaxSumNullCount = self.meta.generic_tile(off, opts, |tile| {
            decode_all(&tile.data, self.meta.path(), off, (count,))
        })?;
        Ok(Some(t.fields))
    }

    /// The names of the delete and update commit files already applied to
    /// this fragment (version 16 on), read on demand.
    pub fn processed_conditions(&self, opts: &ReadOptions) -> Result<Vec<String>> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(Vec::new());
        };
        let Some(off) = f.processed_conditions_offset else {
            return Ok(Vec::new());
        };
        let pc: crate::format::ProcessedConditions = self.decode_tile(off, opts)?;
        Ok(pc
            .conditions
            .iter()
            .map(|c| String::from_utf8_lossy(&c.condition).into_owned())
            .collect())
    }

    /// The tile global order bounds section of the footer (version 23,
    /// sparse fragments): per dimension the offsets of the generic tiles
    /// with every tile's first and last coordinates in global order. `None`
    /// when the footer has no such section. Sections of other identifiers
    /// are skipped, as the spec asks (`format_spec/fragment.md#optional-section`);
    /// of several sections 0 the last counts, as in the engine.
    pub fn tile_global_order_bounds(&self) -> Result<Option<TileGlobalOrderBounds>> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(None);
        };
        let id = OptionalSectionIdentifier::TileGlobalOrderOffsets;
        let Some(section) = f
            .optional_sections
            .iter()
            .flatten()
            .rfind(|s| s.identifier == id)
        else {
            return Ok(None);
        };
        let d = self.schema.domain.dimensions.len() as u64;
        decode_all(&section.data, self.meta.path(), self.footer_range.0, (d,)).map(Some)
    }

    /// The global-order first and last coordinates of every tile along
    /// dimension `dim` (the tile min/max layout: fixed-size coordinates, or
    /// u64 offsets into the var buffer), read on demand; `None` without a
    /// tile global order bounds section.
    pub fn tile_global_order_values(
        &self,
        dim: usize,
        opts: &ReadOptions,
    ) -> Result<Option<(TileMinMax, TileMinMax)>> {
        let Some(b) = self.tile_global_order_bounds()? else {
            return Ok(None);
        };
        let (Some(lo), Some(hi)) = (b.min_offsets.get(dim), b.max_offsets.get(dim)) else {
            return Ok(None);
        };
        self.meta.prefetch(&[*lo, *hi])?;
        let read = |off: u64| -> Result<TileMinMax> { self.decode_tile(off, opts) };
        Ok(Some((read(*lo)?, read(*hi)?)))
    }

    /// The metadata file's path.
    pub fn metadata_path(&self) -> &Path {
        self.meta.path()
    }

    /// The non-empty domain, one typed range per dimension; `None` where
    /// the fragment stores none. A range that does not fit its dimension's
    /// datatype is a decode error.
    pub fn non_empty_domain(&self) -> Result<Option<NonEmptyDomain>> {
        let bad = |table: &str, field: &str| {
            Error::decode(
                self.meta.path(),
                self.footer_range.0,
                table,
                field,
                "the non-empty domain does not fit the dimensions' datatypes",
            )
        };
        let split = |raw: &[u8], table: &str, field: &str| -> Result<NonEmptyDomain> {
            let mut out = Vec::new();
            let mut pos = 0usize;
            for d in &self.schema.domain.dimensions {
                let dt = dimension_datatype(&self.schema, d)
                    .known()
                    .ok_or_else(|| bad(table, field))?;
                let w = 2 * dt.size() as usize;
                let r = raw
                    .get(pos..pos + w)
                    .and_then(|b| DomainRange::from_le_pair(dt, b))
                    .ok_or_else(|| bad(table, field))?;
                out.push(r);
                pos += w;
            }
            Ok(out)
        };
        match &self.metadata {
            Metadata::Footer(f) => {
                if let Some(mbr) = &f.non_empty_domain {
                    ranges_from_mbr(&self.schema, mbr)
                        .map(Some)
                        .ok_or_else(|| bad("FragmentFooter", "non_empty_domain"))
                } else if let Some(raw) = &f.legacy_non_empty_domain {
                    split(raw, "FragmentFooter", "legacy_non_empty_domain").map(Some)
                } else {
                    Ok(None)
                }
            }
            Metadata::Legacy(l) => split(
                &l.non_empty_domain,
                "LegacyFragmentMetadata",
                "non_empty_domain",
            )
            .map(Some),
        }
    }

    /// Number of cells, as the engine counts them: for sparse fragments
    /// full tiles of `capacity` plus the last tile; for dense fragments the
    /// cells of the space tiles the non-empty domain touches.
    pub fn cell_num(&self) -> Option<u64> {
        let (tiles, last) = match &self.metadata {
            Metadata::Footer(f) => (f.sparse_tile_num, f.last_tile_cell_num),
            Metadata::Legacy(l) => (l.num_mbrs, l.last_tile_cell_num),
        };
        if !self.dense {
            // Checked: the counts come from the file (`None` when they overflow).
            return if tiles == 0 {
                Some(0)
            } else {
                (tiles - 1)
                    .checked_mul(self.schema.capacity)?
                    .checked_add(last)
            };
        }
        let ned = self.non_empty_domain().ok()??;
        let mut cells: u64 = 1;
        for (d, r) in self.schema.domain.dimensions.iter().zip(&ned) {
            let dt = dimension_datatype(&self.schema, d).known()?;
            let dom = DomainRange::from_le_pair(dt, &d.domain)?.as_i128()?;
            let ext = Value::from_le_bytes(dt, &d.tile_extent)?.as_i128()?;
            let r = r.as_i128()?;
            if ext <= 0 {
                return None;
            }
            let first = (r.start - dom.start).div_euclid(ext);
            let last = (r.end - dom.start).div_euclid(ext);
            cells = cells.checked_mul(u64::try_from((last - first + 1).checked_mul(ext)?).ok()?)?;
        }
        Some(cells)
    }
}

/// The engine's check of the known optional sections
/// (fragment_metadata.cc `load_optional_sections`): a tile global order
/// bounds section holds exactly two u64 offsets per dimension. Unknown
/// identifiers are not looked at.
fn check_optional_sections(
    footer: &FragmentFooter,
    schema: &ArraySchema,
    path: &Path,
    offset: u64,
) -> Result<()> {
    let want = 16 * schema.domain.dimensions.len() as u64;
    let id = OptionalSectionIdentifier::TileGlobalOrderOffsets;
    for s in footer.optional_sections.iter().flatten() {
        if s.identifier == id && u64::from(s.data_size) != want {
            return Err(Error::decode(
                path,
                offset,
                "OptionalSection",
                "data_size",
                format!(
                    "a tile global order bounds section of {} bytes; {} dimensions need {want}",
                    s.data_size,
                    schema.domain.dimensions.len()
                ),
            ));
        }
    }
    Ok(())
}

/// The path of a data file of `field` in `frag`.
pub fn data_file(frag: &Fragment, field: &FieldInfo, file: DataFile) -> PathBuf {
    frag.path.join(data_file_name(
        frag.version(),
        frag.schema.attributes.len(),
        field,
        file,
    ))
}

impl FieldPipelines {
    /// The pipelines for the tiles of `frag` (whose version the date and
    /// time rules of some filters go by).
    pub fn for_fragment(
        frag: &Fragment,
        field: &FieldInfo,
        key: Option<[u8; 32]>,
    ) -> Result<Self, FilterError> {
        let v = frag.version();
        let p = Self::new(&frag.schema, field, key)?;
        Ok(FieldPipelines {
            data: p.data.with_tile_version(v),
            offsets: p.offsets.map(|o| o.with_tile_version(v)),
            validity: p.validity.map(|o| o.with_tile_version(v)),
            offsets_in_data: p.offsets_in_data,
        })
    }
}
