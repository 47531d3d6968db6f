//! Array creation from a [`Schema`], or from its JSON.
//!
//! The JSON is the object `inspect --json` prints for a schema
//! ([`crate::model::json`]), so that what was given comes back. Enumerations
//! are written when the JSON carries their values (the shape `inspect
//! --json` of an array prints: `{"name", "filename", "datatype",
//! "cell_val_num", "ordered", "values"}`); the bare `{"name", "filename"}`
//! entries of a schema file's account are refused, since the values are not
//! there.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::format::encode;
use crate::format::hierarchy;
use crate::format::version::{
    has_commits_folder, has_dimension_labels, has_enumerations, writes_version,
};
use crate::model::{json, Schema};

use super::error::{WriteError, WriteResult};
use super::generic::generic_tile;
use super::util;
use super::{FORMAT_VERSION, MAX_WRITE_VERSION, MIN_WRITE_VERSION};

/// Parses and checks the JSON of a schema.
pub fn build_schema(json: &Value) -> WriteResult<Schema> {
    Ok(json::schema_from_json(json)?)
}

/// How to create an array.
#[derive(Clone, Copy)]
pub struct CreateOptions {
    /// Format version of the schema (10 to 22).
    pub(crate) version: u32,
    /// Timestamp of the schema file (default: now).
    pub(crate) timestamp: Option<u64>,
    /// Create an AES-256-GCM encrypted array with this key (the bytes of
    /// TileDB's `sm.encryption_key`): the schema and enumeration files are
    /// encrypted generic tiles. Every later write and read needs the key.
    pub(crate) encryption_key: Option<[u8; 32]>,
}

impl Default for CreateOptions {
    fn default() -> Self {
        CreateOptions {
            version: FORMAT_VERSION,
            timestamp: None,
            encryption_key: None,
        }
    }
}

impl CreateOptions {
    /// Options with this format version of the schema (10 to 22; default
    /// [`crate::raw::write::FORMAT_VERSION`]).
    pub fn with_version(mut self, version: u32) -> Self {
        self.version = version;
        self
    }

    /// Options with this timestamp of the schema file, in milliseconds
    /// (default: now).
    pub fn with_timestamp(mut self, timestamp: u64) -> Self {
        self.timestamp = Some(timestamp);
        self
    }

    crate::options::encryption_key_options!(
        "Options creating an AES-256-GCM encrypted array with this key (the \
         bytes of TileDB's `sm.encryption_key`): the schema and enumeration \
         files are encrypted generic tiles. Every later write and read needs \
         the key."
    );

    /// The format version the schema is written in.
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The timestamp asked for (`None`: now).
    pub fn timestamp(&self) -> Option<u64> {
        self.timestamp
    }
}

impl std::fmt::Debug for CreateOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("CreateOptions")
            .field("version", &self.version)
            .field("timestamp", &self.timestamp)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

/// Creates an array at `path` (format version 22) from the JSON of a schema.
/// Fails if something is already there (an empty folder is fine).
pub fn create_array(path: &Path, schema_json: &Value) -> WriteResult<()> {
    create_array_with(path, schema_json, &CreateOptions::default()).map(|_| ())
}

fn exists_nonempty(path: &Path) -> bool {
    match std::fs::read_dir(path) {
        Ok(mut rd) => rd.next().is_some(),
        Err(_) => path.exists(),
    }
}

/// [`create_array`] with options; returns the schema file's path. The array
/// is assembled in a hidden sibling folder and renamed into place, so it
/// appears whole or not at all.
pub fn create_array_with(
    path: &Path,
    schema_json: &Value,
    opts: &CreateOptions,
) -> WriteResult<PathBuf> {
    let schema = build_schema(schema_json)?;
    create_array_from_schema(path, &schema, opts)
}

/// [`create_array_with`] from a schema (laid out in `opts.version`, not
/// `schema.version`). Dimension labels are not written (this crate does
/// not create label arrays).
pub fn create_array_from_schema(
    path: &Path,
    schema: &Schema,
    opts: &CreateOptions,
) -> WriteResult<PathBuf> {
    create_array_listed(path, schema, opts).map(|(p, _)| p)
}

/// [`create_array_from_schema`], and every file and folder it made in the
/// array, relative to it: what this process may remove again. When another
/// process creates the array at the same time, one of them wins; the other
/// fails with "already exists" having removed only its own hidden folder.
pub(crate) fn create_array_listed(
    path: &Path,
    schema: &Schema,
    opts: &CreateOptions,
) -> WriteResult<(PathBuf, Vec<PathBuf>)> {
    let version = opts.version;
    let key = opts.encryption_key;
    if !writes_version(version) {
        return Err(WriteError::Unsupported(format!(
            "writing format version {version} (this crate writes {MIN_WRITE_VERSION} to {MAX_WRITE_VERSION})"
        )));
    }
    // Dimension labels are left out: their label arrays are not created.
    let table = if schema.dimension_labels.is_empty() {
        schema.to_table(version)?
    } else {
        let mut unlabelled = schema.clone();
        unlabelled.dimension_labels.clear();
        unlabelled.to_table(version)?
    };
    if exists_nonempty(path) {
        return Err(WriteError::Array {
            path: path.to_path_buf(),
            what: "already exists".into(),
        });
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    util::create_dir(&parent)?;
    let base = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "array".into());
    let tmp = parent.join(format!(".{base}.tmp-{}", util::random_label()));
    let result = (|| -> WriteResult<PathBuf> {
        util::create_dir(&tmp)?;
        let enumerations = Path::new(hierarchy::SCHEMA).join(hierarchy::ENUMERATIONS);
        let mut dirs = vec![Path::new(hierarchy::SCHEMA), Path::new(hierarchy::META)];
        if has_commits_folder(version) {
            dirs.extend(
                [
                    hierarchy::FRAGMENTS,
                    hierarchy::COMMITS,
                    hierarchy::FRAGMENT_META,
                ]
                .map(Path::new),
            );
        }
        if has_dimension_labels(version) {
            dirs.push(Path::new(hierarchy::LABELS));
        }
        if has_enumerations(version) {
            dirs.push(&enumerations);
        }
        for d in &dirs {
            util::create_dir(&tmp.join(d))?;
        }
        // The files, then every sync at once (the folders' entries and the
        // files' bytes are all durable before the folder is renamed into
        // place).
        let mut syncs = Vec::new();
        for e in schema.enumeration_tables() {
            let name = String::from_utf8_lossy(&e.path_name).into_owned();
            let file = tmp.join(&enumerations).join(name);
            syncs.push(util::write_new(
                &file,
                &generic_tile(&encode(&e)?, version, key)?,
            )?);
        }
        let t = opts.timestamp.unwrap_or_else(util::now_ms);
        let name = util::timestamped_name(t, t, None);
        let schema_file = tmp.join(hierarchy::SCHEMA).join(&name);
        syncs.push(util::write_new(
            &schema_file,
            &generic_tile(&encode(&table)?, version, key)?,
        )?);
        let folders = dirs.iter().map(|d| tmp.join(d)).chain([tmp.clone()]);
        syncs.extend(folders.map(util::sync_dir_job));
        util::sync_together(syncs)?;
        Ok(path.join(hierarchy::SCHEMA).join(name))
    })();
    let schema_path = match result {
        Ok(p) => p,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e);
        }
    };
    let made = match util::tree(&tmp) {
        Ok(m) => m,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(WriteError::io(&tmp, e));
        }
    };
    // `rename` replaces an empty folder at `path`, never one that holds
    // something: of two processes creating the array at once, one wins.
    match util::rename_dir_into_place(&tmp, path) {
        Ok(true) => Ok((schema_path, made)),
        Ok(false) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(WriteError::Array {
                path: path.to_path_buf(),
                what: "already exists (created by another writer at the same time)".into(),
            })
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&tmp);
            Err(e)
        }
    }
}
