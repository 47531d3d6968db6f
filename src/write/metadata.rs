//! Array metadata: one `__meta/<timestamped name>` file per change, a
//! generic tile holding the entries (format_spec/metadata.md). Later files
//! override earlier ones; a deletion entry removes the key.

use std::path::Path;

use crate::array::directory::ArrayDirectory;
use crate::array::schema::read_schema;
use crate::filters::ReadOptions;
use crate::format::{encode, ArrayMetadata, Datatype, MetadataEntry};

use super::error::{WriteError, WriteResult};
use super::generic::generic_tile;
use super::util;

fn array_version(array: &Path) -> WriteResult<u32> {
    let dir = ArrayDirectory::open(array).map_err(|_| WriteError::Array {
        path: array.to_path_buf(),
        what: "not an array".into(),
    })?;
    let schema = dir.latest_schema().ok_or_else(|| WriteError::Array {
        path: array.to_path_buf(),
        what: "the array has no schema".into(),
    })?;
    Ok(read_schema(&schema, &ReadOptions::default())?.array_version)
}

/// Writes one metadata file holding `entry`; returns its path.
fn write_entry(
    array: &Path,
    entry: MetadataEntry,
    timestamp: Option<u64>,
) -> WriteResult<std::path::PathBuf> {
    let version = array_version(array)?.min(super::FORMAT_VERSION);
    let dir = array.join("__meta");
    util::create_dir(&dir)?;
    let t = util::next_timestamp(timestamp, std::slice::from_ref(&dir));
    let name = util::timestamped_name(t, t, None);
    let table = ArrayMetadata {
        entries: vec![entry],
    };
    let bytes = generic_tile(&encode(&table), version)?;
    // Written under a name readers skip (the engine ignores `.tmp` files in
    // `__meta`), then renamed: a reader never sees half a file.
    let tmp = dir.join(format!("{name}.tmp"));
    util::write_new_synced(&tmp, &bytes)?;
    let path = dir.join(&name);
    util::rename_synced(&tmp, &path)?;
    Ok(path)
}

/// Sets the metadata `key` of an array to `value`: values of `datatype`,
/// back to back (little-endian).
pub fn put_metadata(array: &Path, key: &str, datatype: Datatype, value: &[u8]) -> WriteResult<()> {
    put_metadata_at(array, key, datatype, value, None).map(|_| ())
}

/// [`put_metadata`] at a given timestamp (milliseconds); returns the file.
pub fn put_metadata_at(
    array: &Path,
    key: &str,
    datatype: Datatype,
    value: &[u8],
    timestamp: Option<u64>,
) -> WriteResult<std::path::PathBuf> {
    if key.is_empty() {
        return Err(WriteError::cells("key", "a metadata key cannot be empty"));
    }
    let size = datatype.size().max(1);
    if value.len() as u64 % size != 0 {
        return Err(WriteError::cells(
            key,
            format!(
                "{} bytes is not a whole number of {} values",
                value.len(),
                datatype.name()
            ),
        ));
    }
    let num = u32::try_from(value.len() as u64 / size)
        .map_err(|_| WriteError::cells(key, "more than 2^32 values"))?;
    write_entry(
        array,
        MetadataEntry {
            key_length: key.len() as u32,
            key: key.as_bytes().to_vec(),
            deletion: 0,
            value_type: Some(datatype.value()),
            num_values: Some(num),
            value: Some(value.to_vec()),
        },
        timestamp,
    )
}

/// Deletes the metadata `key` of an array (a deletion entry).
pub fn delete_metadata(array: &Path, key: &str) -> WriteResult<()> {
    if key.is_empty() {
        return Err(WriteError::cells("key", "a metadata key cannot be empty"));
    }
    write_entry(
        array,
        MetadataEntry {
            key_length: key.len() as u32,
            key: key.as_bytes().to_vec(),
            deletion: 1,
            value_type: None,
            num_values: None,
            value: None,
        },
        None,
    )
    .map(|_| ())
}
