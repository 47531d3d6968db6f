//! Array metadata: one `__meta/<timestamped name>` file per change, a
//! generic tile holding the entries (format_spec/metadata.md). Later files
//! override earlier ones; a deletion entry removes the key. Groups keep
//! their metadata the same way, so these functions take a group folder too.

use std::path::Path;

use crate::array::directory::ArrayDirectory;
use crate::array::schema::read_schema;
use crate::format::hierarchy;
use crate::format::{encode, ArrayMetadata, Datatype, MetadataEntry, Record};
use crate::ReadOptions;

use super::error::{WriteError, WriteResult};
use super::generic::generic_tile;
use super::util;

/// How to write a change of metadata (or of a group's members): its
/// timestamp and the key of an encrypted array or group.
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct MetadataOptions {
    /// The change's timestamp in milliseconds (default: now, and later
    /// than every file of the kind already there).
    pub timestamp: Option<u64>,
    /// The key of an AES-256-GCM encrypted array or group: the file is an
    /// encrypted generic tile, as the engine writes it.
    pub encryption_key: Option<[u8; 32]>,
}

impl std::fmt::Debug for MetadataOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("MetadataOptions")
            .field("timestamp", &self.timestamp)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

/// The format version of a metadata file: the array's, or for a group
/// the engine's current version (groups have no schema to take it from).
fn array_version(array: &Path, key: Option<[u8; 32]>) -> WriteResult<u32> {
    if array.join(hierarchy::GROUP_MARKER).is_file() {
        return Ok(super::FORMAT_VERSION);
    }
    let dir = ArrayDirectory::open(array).map_err(|e| WriteError::Array {
        path: array.to_path_buf(),
        what: format!("not an array ({e})"),
    })?;
    let schema = dir.latest_schema().ok_or_else(|| WriteError::Array {
        path: array.to_path_buf(),
        what: "the array has no schema".into(),
    })?;
    let opts = ReadOptions {
        encryption_key: key,
        ..ReadOptions::default()
    };
    Ok(read_schema(&schema, &opts)?.array_version)
}

/// Writes one metadata file holding `entry`; returns its path.
fn write_entry(
    array: &Path,
    entry: MetadataEntry,
    opts: &MetadataOptions,
) -> WriteResult<std::path::PathBuf> {
    let version = array_version(array, opts.encryption_key)?.min(super::MAX_WRITE_VERSION);
    let dir = array.join(hierarchy::META);
    util::create_dir(&dir)?;
    let t = util::next_timestamp(opts.timestamp, std::slice::from_ref(&dir))?;
    let name = util::timestamped_name(t, t, None);
    let table = crate::format::table!(ArrayMetadata {
        entries: vec![entry],
    });
    let bytes = generic_tile(&encode(&table)?, version, opts.encryption_key)?;
    // Written to a hidden file in the array's own folder (a name starting
    // with `.`, which readers skip), then renamed into `__meta`: a reader
    // never sees half a file. Not a `.tmp` name inside `__meta`: the engine
    // takes any file there for a metadata file.
    let tmp = array.join(format!(".tiledb-codec-tmp-{}", util::random_label()));
    if let Err(e) = util::write_new_synced(&tmp, &bytes) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    let path = dir.join(&name);
    if let Err(e) = util::rename_synced(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(path)
}

/// Sets the metadata `key` of an array to `value`: values of `datatype`,
/// back to back (little-endian).
pub fn put_metadata(array: &Path, key: &str, datatype: Datatype, value: &[u8]) -> WriteResult<()> {
    put_metadata_with(array, key, datatype, value, &MetadataOptions::default()).map(|_| ())
}

/// [`put_metadata`] at a given timestamp (milliseconds); returns the file.
pub fn put_metadata_at(
    array: &Path,
    key: &str,
    datatype: Datatype,
    value: &[u8],
    timestamp: Option<u64>,
) -> WriteResult<std::path::PathBuf> {
    let opts = MetadataOptions {
        timestamp,
        ..MetadataOptions::default()
    };
    put_metadata_with(array, key, datatype, value, &opts)
}

/// A metadata change refused for the array (or group) at `path`.
fn meta_error(path: &Path, what: impl Into<String>) -> WriteError {
    WriteError::Array {
        path: path.to_path_buf(),
        what: what.into(),
    }
}

/// [`put_metadata`] with options (timestamp, encryption key); returns the
/// file.
pub fn put_metadata_with(
    array: &Path,
    key: &str,
    datatype: Datatype,
    value: &[u8],
    opts: &MetadataOptions,
) -> WriteResult<std::path::PathBuf> {
    if key.is_empty() {
        return Err(meta_error(array, "a metadata key cannot be empty"));
    }
    let size = datatype.size().max(1);
    if !(value.len() as u64).is_multiple_of(size) {
        return Err(meta_error(
            array,
            format!(
                "metadata key {key:?}: {} bytes is not a whole number of {} values",
                value.len(),
                datatype.name()
            ),
        ));
    }
    if u32::try_from(value.len() as u64 / size).is_err() {
        return Err(meta_error(
            array,
            format!("metadata key {key:?}: more than 2^32 values"),
        ));
    }
    // `with_sizes` counts the values (`num_values`) in the type's width.
    write_entry(
        array,
        crate::format::table!(MetadataEntry {
            key: key.as_bytes().to_vec(),
            deletion: 0,
            value_type: Some(datatype),
            value: Some(value.to_vec()),
        })
        .with_sizes(),
        opts,
    )
}

/// Deletes the metadata `key` of an array (a deletion entry).
pub fn delete_metadata(array: &Path, key: &str) -> WriteResult<()> {
    delete_metadata_with(array, key, &MetadataOptions::default()).map(|_| ())
}

/// [`delete_metadata`] with options; returns the file.
pub fn delete_metadata_with(
    array: &Path,
    key: &str,
    opts: &MetadataOptions,
) -> WriteResult<std::path::PathBuf> {
    if key.is_empty() {
        return Err(meta_error(array, "a metadata key cannot be empty"));
    }
    write_entry(
        array,
        crate::format::table!(MetadataEntry {
            key: key.as_bytes().to_vec(),
            deletion: 1,
            value_type: None,
            num_values: None,
            value: None,
        })
        .with_sizes(),
        opts,
    )
}
