//! Fragments: the footer of `__fragment_metadata.tdb` is read on open; the
//! R-tree and the other generic tiles it points at are read when asked for,
//! as the engine does.

use std::path::{Path, PathBuf};

use super::directory::{ArrayDirectory, Entry};
use crate::array::schema::dimension_datatype;
use crate::error::{Error, Result};
use crate::format::{
    decode, decode_all, rt, ArraySchema, Datatype, FooterLength, FragmentFooter,
    LegacyFragmentMetadata, OptionalSectionIdentifier, RTree, TileGlobalOrderBounds, TileMinMax,
    TileNullCounts, TileOffsets, TileSums,
};
use crate::model::table::ranges_from_mbr;
use crate::model::{DomainRange, NonEmptyDomain, Value};
use crate::storage::MappedFile;
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
    /// (0, 0) before version 3.
    pub footer_range: (u64, u64),
    /// The consolidated fragment metadata file (`.meta`) the footer was
    /// read from, when one lists the fragment (as the engine reads it);
    /// `None`: from `__fragment_metadata.tdb`.
    pub footer_from: Option<PathBuf>,
    meta_file: MappedFile,
    /// Where the fragment's files are read from.
    pub storage: crate::storage::StorageRef,
}

/// Per-dimension coordinate sizes as the footer of `version` lays them out:
/// before version 5 every dimension has the domain's datatype and no
/// dimension is var-sized.
pub fn dims_for(schema: &ArraySchema) -> rt::Dims {
    schema.domain.coord_sizes()
}

/// The footer size of fragments whose footer has no stored length
/// (versions 3 to 9 with only fixed-size dimensions).
fn computed_footer_size(version: u32, dims: &[u64], attrs: u64) -> u64 {
    let d = dims.len() as u64;
    let ned: u64 = dims.iter().map(|s| 2 * s).sum();
    if version < 5 {
        let coord0 = dims.first().copied().unwrap_or(0);
        4 + 1
            + 1
            + 2 * d * coord0
            + 8
            + 8
            + (attrs + 1) * 8
            + attrs * 8
            + 8
            + (attrs + 1) * 8
            + attrs * 8
            + attrs * 8
    } else {
        let n = attrs + d + 1;
        let base = 4 + 1 + 1 + ned + 8 + 8 + n * 8 + n * 8 + 8 + 3 * n * 8;
        if version < 7 {
            base
        } else {
            base + n * 8 + n * 8
        }
    }
}

fn footer_at(meta: &MappedFile, version: u32, schema: &ArraySchema) -> Result<(u64, u64)> {
    let dims = dims_for(schema);
    let path = meta.path();
    let size = meta.len();
    if dims.contains(&0) || version >= 10 {
        if size < 8 {
            return Err(Error::decode(
                path,
                0,
                "FooterLength",
                "footer_length",
                "the file is shorter than the footer length",
            ));
        }
        let (len, _) =
            decode::<FooterLength>(&meta.bytes()[size as usize - 8..], path, size - 8, ())?;
        let len = len.footer_length;
        if len > size - 8 {
            return Err(Error::decode(
                path,
                size - 8,
                "FooterLength",
                "footer_length",
                format!("{len} bytes, the file has {} before it", size - 8),
            ));
        }
        Ok((size - 8 - len, len))
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

impl Fragment {
    /// Opens the fragment `entry` of the array `dir`: reads its footer and
    /// the schema it was written with.
    pub fn open(dir: &ArrayDirectory, entry: &Entry, opts: &ReadOptions) -> Result<Self> {
        let meta_path = entry.path.join("__fragment_metadata.tdb");
        let meta_file = dir.storage.open(&meta_path)?;
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
        if version <= 2 {
            let legacy = dir.legacy_schema.clone().unwrap_or(latest);
            schema = dir.schema(&legacy, opts)?;
            schema_name = "__array_schema.tdb".into();
            let dims = dims_for(&schema);
            let mbr: u64 = dims.iter().map(|s| 2 * s).sum();
            let bounding = 2 * dims.len() as u64 * dims.first().copied().unwrap_or(0);
            let tile = read_generic_tile(&meta_file, 0, opts)?;
            let md: LegacyFragmentMetadata = decode_all(
                &tile.data,
                &meta_path,
                0,
                (schema.attributes.len() as u64, mbr, bounding),
            )?;
            let dense = dir.storage.kind(&entry.path.join("__coords.tdb")).is_none();
            return Ok(Fragment {
                path: entry.path.clone(),
                name: entry.name.clone(),
                schema,
                schema_name,
                metadata: Metadata::Legacy(Box::new(md)),
                dense,
                footer_range: (0, 0),
                footer_from: None,
                meta_file,
                storage: dir.storage.clone(),
            });
        }
        // The footer names its schema, but its layout depends on that
        // schema's attribute count: try the newest schema first, then the
        // older ones (schema evolution adds and drops attributes, never
        // dimensions).
        let consolidated = dir.consolidated_footers(opts)?;
        let from_meta = consolidated.footer(&entry.name.name);
        let read_footer = |schema: &ArraySchema| match from_meta {
            Some((bytes, path, offset)) => {
                let args = (dims_for(schema), schema.attributes.len() as u64);
                let (footer, _) = decode::<FragmentFooter>(bytes, path, offset, args)?;
                // Where the fragment's own copy sits, when it can be found.
                let range = footer_at(&meta_file, version, schema).unwrap_or((0, 0));
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
            .unwrap_or_else(|| "__array_schema.tdb".into());
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
        Ok(Fragment {
            path: entry.path.clone(),
            name: entry.name.clone(),
            schema,
            schema_name,
            metadata: Metadata::Footer(Box::new(footer)),
            dense,
            footer_range,
            footer_from: from_meta.map(|(_, p, _)| p.to_path_buf()),
            meta_file,
            storage: dir.storage.clone(),
        })
    }

    fn read_footer(
        meta: &MappedFile,
        version: u32,
        schema: &ArraySchema,
    ) -> Result<(FragmentFooter, (u64, u64))> {
        let (offset, len) = footer_at(meta, version, schema)?;
        let bytes = &meta.bytes()[offset as usize..(offset + len) as usize];
        let args = (dims_for(schema), schema.attributes.len() as u64);
        let footer = if version == 11 {
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

    /// The R-tree (read on demand; `None` before version 3).
    pub fn rtree(&self, opts: &ReadOptions) -> Result<Option<RTree>> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(None);
        };
        let tile = read_generic_tile(&self.meta_file, f.rtree_offset, opts)?;
        decode_all(
            &tile.data,
            self.meta_file.path(),
            0,
            (f.version_number, dims_for(&self.schema)),
        )
        .map(Some)
    }

    /// The tile offsets of field `idx` (the engine's index map), on demand.
    pub fn tile_offsets(&self, idx: usize, opts: &ReadOptions) -> Result<Option<TileOffsets>> {
        let Metadata::Footer(f) = &self.metadata else {
            return Ok(None);
        };
        let Some(off) = f.tile_offsets.get(idx) else {
            return Ok(None);
        };
        let tile = read_generic_tile(&self.meta_file, *off, opts)?;
        decode_all(&tile.data, self.meta_file.path(), 0, ()).map(Some)
    }

    /// A `TileOffsets` generic tile of the metadata file (tile offsets, var
    /// offsets, var sizes or validity offsets), read on demand.
    pub fn generic_tile_offsets(&self, offset: u64, opts: &ReadOptions) -> Result<TileOffsets> {
        let tile = read_generic_tile(&self.meta_file, offset, opts)?;
        decode_all(&tile.data, self.meta_file.path(), offset, ())
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
        let tile = read_generic_tile(&self.meta_file, off, opts)?;
        decode_all(&tile.data, self.meta_file.path(), off, ()).map(Some)
    }

    /// The tile sums of field `idx`, read on demand (`None` before version 11).
    pub fn tile_sums(&self, idx: usize, opts: &ReadOptions) -> Result<Option<TileSums>> {
        let Some(off) = self.tile_metadata_offset(idx, |f| f.tile_sums_offsets.as_ref()) else {
            return Ok(None);
        };
        let tile = read_generic_tile(&self.meta_file, off, opts)?;
        decode_all(&tile.data, self.meta_file.path(), off, ()).map(Some)
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
        let tile = read_generic_tile(&self.meta_file, off, opts)?;
        decode_all(&tile.data, self.meta_file.path(), off, ()).map(Some)
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
        let tile = read_generic_tile(&self.meta_file, off, opts)?;
        let pc: crate::format::ProcessedConditions =
            decode_all(&tile.data, self.meta_file.path(), off, ())?;
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
        let id = OptionalSectionIdentifier::TileGlobalOrderOffsets.value();
        let Some(section) = f
            .optional_sections
            .iter()
            .flatten()
            .rfind(|s| s.identifier == id)
        else {
            return Ok(None);
        };
        let d = self.schema.domain.dimensions.len() as u64;
        decode_all(
            &section.data,
            self.meta_file.path(),
            self.footer_range.0,
            (d,),
        )
        .map(Some)
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
        let read = |off: u64| -> Result<TileMinMax> {
            let tile = read_generic_tile(&self.meta_file, off, opts)?;
            decode_all(&tile.data, self.meta_file.path(), off, ())
        };
        Ok(Some((read(*lo)?, read(*hi)?)))
    }

    /// The metadata file's path.
    pub fn metadata_path(&self) -> &Path {
        self.meta_file.path()
    }

    /// The non-empty domain, one typed range per dimension; `None` where
    /// the fragment stores none. A range that does not fit its dimension's
    /// datatype is a decode error.
    pub fn non_empty_domain(&self) -> Result<Option<NonEmptyDomain>> {
        let bad = |table: &str, field: &str| {
            Error::decode(
                self.meta_file.path(),
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
                let dt = Datatype::from_value(dimension_datatype(&self.schema, d))
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
            let dt = Datatype::from_value(dimension_datatype(&self.schema, d))?;
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
    let id = OptionalSectionIdentifier::TileGlobalOrderOffsets.value();
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
