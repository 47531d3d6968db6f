//! A summary of an array that a person reads: the schema as a TileDB user
//! knows it, a table of fragments, then the metadata.
//!
//! [`ArraySummary::read`] gathers everything from the array's folder into the
//! typed [`model`](crate::model); its [`Display`](std::fmt::Display) renders
//! the text that `tiledb-codec inspect ARRAY` prints. The text depends on
//! nothing but the array (no terminal width, no local time zone), so it is
//! stable enough to pin in tests.
//!
//! ```
//! use tiledb_codec::filters::ReadOptions;
//! use tiledb_codec::summary::ArraySummary;
//!
//! let s = ArraySummary::read("tests/fixtures/v22/dense_int_1d".as_ref(), &ReadOptions::default())?;
//! assert_eq!(s.schema.dimensions.len(), 1);
//! let text = s.to_string();
//! assert!(text.starts_with("Array "));
//! assert!(text.contains("Fragments ("));
//! # Ok::<(), tiledb_codec::Error>(())
//! ```

mod adapt;
mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::array::directory::ArrayDirectory;
use crate::array::fragment::Fragment;
use crate::array::schema;
use crate::error::{Error, Result};
use crate::filters::ReadOptions;
use crate::format::{decode_all, ArrayMetadata, Datatype};
use crate::model::{MetadataValue, NonEmptyDomain, Range, Schema};
use crate::storage::MappedFile;
use crate::tile::read_generic_tile;

pub use text::{format_bytes, format_filters, format_range, format_timestamp, format_values};

/// One fragment, as the summary's table shows it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FragmentSummary {
    /// The fragment's folder name (`__t1_t2_uuid_v`).
    pub name: String,
    /// The time range it was written in, in milliseconds since the Unix epoch.
    pub timestamps: Range<u64>,
    /// The format version it was written in.
    pub version: u32,
    /// Whether it is dense.
    pub dense: bool,
    /// Its cell count as the engine counts it (`None` when it overflows).
    pub cells: Option<u64>,
    /// The bytes of all its files on disk.
    pub size: u64,
    /// Its non-empty domain, one range per dimension (`None` when it records none).
    pub non_empty_domain: Option<NonEmptyDomain>,
}

/// One metadata entry (the merged, latest value of a key).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MetadataEntry {
    /// The key (lossily decoded as UTF-8).
    pub key: String,
    /// Its value; the datatype is `None` when the code is not one TileDB defines.
    pub value: Option<MetadataValue>,
    /// The value's bytes when the datatype is unknown.
    pub raw: Vec<u8>,
}

/// What `inspect ARRAY` tells a person: schema, fragments, metadata.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ArraySummary {
    /// The array's folder, as given.
    pub path: PathBuf,
    /// The latest schema.
    pub schema: Schema,
    /// The latest schema's file name.
    pub schema_name: Option<String>,
    /// How many schemas the array has had (schema evolution).
    pub schema_count: usize,
    /// The committed fragments, oldest first.
    pub fragments: Vec<FragmentSummary>,
    /// Delete and update commits (sparse arrays).
    pub delete_commits: usize,
    /// The array metadata, by key.
    pub metadata: Vec<MetadataEntry>,
}

/// The bytes of every file under `path` (a fragment folder).
fn size_on_disk(path: &Path) -> Result<u64> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_dir() {
        return Ok(meta.len());
    }
    let mut total = 0u64;
    for entry in std::fs::read_dir(path).map_err(|e| Error::io(path, e))? {
        let entry = entry.map_err(|e| Error::io(path, e))?;
        total = total.saturating_add(size_on_disk(&entry.path())?);
    }
    Ok(total)
}

/// Merges the metadata files of `__meta`, oldest first: a later entry
/// replaces an earlier one, a deletion removes it.
fn read_metadata(dir: &ArrayDirectory, opts: &ReadOptions) -> Result<Vec<MetadataEntry>> {
    let mut merged: BTreeMap<Vec<u8>, (Option<u8>, Vec<u8>)> = BTreeMap::new();
    for e in &dir.metadata {
        let file = MappedFile::open(&e.path)?;
        let tile = read_generic_tile(&file, 0, opts)?;
        let md: ArrayMetadata = decode_all(&tile.data, &e.path, 0, ())?;
        for entry in md.entries {
            merged.remove(&entry.key);
            if entry.deletion == 0 {
                merged.insert(
                    entry.key,
                    (entry.value_type, entry.value.unwrap_or_default()),
                );
            }
        }
    }
    Ok(merged
        .into_iter()
        .map(|(k, (dt, bytes))| {
            let key = String::from_utf8_lossy(&k).into_owned();
            match dt.and_then(Datatype::from_value) {
                Some(datatype) => MetadataEntry {
                    key,
                    value: Some(MetadataValue { datatype, bytes }),
                    raw: Vec::new(),
                },
                None => MetadataEntry {
                    key,
                    value: None,
                    raw: bytes,
                },
            }
        })
        .collect())
}

impl ArraySummary {
    /// Reads the summary of the array at `path`: its latest schema (with
    /// enumeration labels), every committed fragment's footer and size, and
    /// the merged metadata.
    pub fn read(path: &Path, opts: &ReadOptions) -> Result<Self> {
        let dir = ArrayDirectory::open(path)?;
        let schema_path = dir.latest_schema().ok_or_else(|| Error::NotTileDb {
            path: path.to_path_buf(),
            what: "the array has no schema".into(),
        })?;
        let table = schema::read_schema(&schema_path, opts)?;
        let schema = adapt::schema(path, &table, opts)?;
        let mut fragments = Vec::new();
        for e in &dir.fragments {
            let frag = Fragment::open(&dir, e, opts)?;
            fragments.push(FragmentSummary {
                name: frag.name.name.clone(),
                timestamps: Range {
                    start: frag.name.t1,
                    end: frag.name.t2,
                },
                version: frag.version(),
                dense: frag.dense,
                cells: frag.cell_num(),
                size: size_on_disk(&frag.path)?,
                non_empty_domain: adapt::non_empty_domain(&frag),
            });
        }
        Ok(ArraySummary {
            path: path.to_path_buf(),
            schema,
            schema_name: schema_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
            schema_count: dir.schemas.len().max(1),
            fragments,
            delete_commits: dir.deletes.len() + dir.updates.len(),
            metadata: read_metadata(&dir, opts)?,
        })
    }
}

impl std::fmt::Display for ArraySummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&text::render(self))
    }
}

/// A readable tree of a JSON account (groups, fragment folders, single
/// files): nested keys indented, lists of plain values on one line, and the
/// raw byte ranges of fragment footers left out (the typed
/// `non_empty_domain` beside them says the same).
pub fn tree(v: &serde_json::Value) -> String {
    text::tree(v)
}
