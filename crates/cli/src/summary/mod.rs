//! A summary of an array that a person reads: the schema as a TileDB user
//! knows it, a table of fragments, then the metadata.
//!
//! [`ArraySummary::read`] gathers everything from the array's folder into the
//! typed [`model`](tiledb_codec::raw::model); its [`Display`](std::fmt::Display) renders
//! the text that `tiledb-codec inspect ARRAY` prints. The text depends on
//! nothing but the array (no terminal width, no local time zone), so it is
//! stable enough to pin in tests.
//!
//! ```
//! use tiledb_codec::ReadOptions;
//! use tiledb_codec_cli::summary::ArraySummary;
//!
//! let s = ArraySummary::read("tests/fixtures/v22/dense_int_1d".as_ref(), &ReadOptions::default())?;
//! assert_eq!(s.schema.dimensions.len(), 1);
//! let text = s.to_string();
//! assert!(text.starts_with("Array "));
//! assert!(text.contains("Fragments ("));
//! # Ok::<(), tiledb_codec::Error>(())
//! ```

mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tiledb_codec::raw::array::directory::ArrayDirectory;
use tiledb_codec::raw::array::fragment::Fragment;
use tiledb_codec::raw::array::{metadata, schema};
use tiledb_codec::raw::error::{Error, Result};
use tiledb_codec::raw::model::{MetadataValue, NonEmptyDomain, Range, Schema};
use tiledb_codec::ReadOptions;

pub use text::{
    escape_controls, format_bytes, format_filters, format_range, format_timestamp, format_values,
};

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
    /// The array metadata (merged, latest values), by key.
    pub metadata: BTreeMap<String, MetadataValue>,
}

/// An error of the operating system's at `path`.
fn io(path: &Path, source: std::io::Error) -> Error {
    Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The bytes of every file under `path` (a fragment folder).
fn size_on_disk(path: &Path) -> Result<u64> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| io(path, e))?;
    if !meta.is_dir() {
        return Ok(meta.len());
    }
    let mut total = 0u64;
    for entry in std::fs::read_dir(path).map_err(|e| io(path, e))? {
        let entry = entry.map_err(|e| io(path, e))?;
        total = total.saturating_add(size_on_disk(&entry.path())?);
    }
    Ok(total)
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
        let table = schema::read_schema_file(&dir.storage.open(&schema_path)?, opts)?;
        let schema = schema::read_typed_schema(&*dir.storage, path, &table, &schema_path, opts)?;
        let mut fragments = Vec::new();
        for e in &dir.fragments {
            let frag = Fragment::open(&dir, e, opts)?;
            fragments.push(FragmentSummary {
                name: frag.name.name.clone(),
                timestamps: Range::new(frag.name.t1, frag.name.t2),
                version: frag.version(),
                dense: frag.dense,
                cells: frag.cell_num(),
                size: size_on_disk(&frag.path)?,
                non_empty_domain: frag.non_empty_domain()?,
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
            metadata: metadata::read_array_metadata(&dir, opts)?,
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
