//! What the consolidation and vacuuming of fragment metadata, commits and
//! array metadata share: atomic writes and removals, the numbered steps the
//! crash-safety tests stop at, and the small listings.

use std::path::{Path, PathBuf};

use crate::format::version::has_own_version_writes;
use crate::write::util;
use crate::write::{WriteError, WriteResult};

/// The steps of one operation, counted as they are taken; with the
/// `fail-points` feature the operation stops after step `stop_after`, as a
/// crash would stop it.
pub(crate) struct Steps {
    done: u32,
    #[cfg_attr(not(feature = "fail-points"), allow(dead_code))]
    stop_after: Option<u32>,
}

impl Steps {
    /// Steps that run to the end (`None`) or stop after step `stop_after`
    /// (counted from 1; only with the `fail-points` feature).
    pub(crate) fn new(stop_after: Option<u32>) -> Self {
        Steps {
            done: 0,
            stop_after,
        }
    }

    /// One more step (`what`) is done: stop here if told to.
    pub(crate) fn step(&mut self, what: &'static str) -> WriteResult<()> {
        self.done += 1;
        #[cfg(feature = "fail-points")]
        if self.stop_after == Some(self.done) {
            return Err(WriteError::InjectedStep {
                number: self.done,
                step: what,
            });
        }
        let _ = what;
        Ok(())
    }
}

/// Writes `bytes` to `dest` so that no reader ever sees part of it: first
/// to a hidden file in the object's own folder `root` (a name starting with
/// `.`, which the engine skips when it lists the folder, as it skips the
/// writer's scratch folders), synced, then renamed into place (the folder
/// synced). Both are steps. A `.tmp` name beside `dest` would not do: the
/// engine takes any file of `__meta` for a metadata file and any file of
/// `__fragment_meta` for a `.meta` file.
pub(crate) fn write_atomic(
    root: &Path,
    dest: &Path,
    bytes: &[u8],
    steps: &mut Steps,
) -> WriteResult<()> {
    let tmp = root.join(format!(".tiledb-codec-tmp-{}", util::random_label()));
    if let Err(e) = util::write_new_synced(&tmp, bytes) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    steps.step("temporary file written")?;
    if let Err(e) = util::rename_synced(&tmp, dest) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    steps.step("file renamed into place")
}

/// Removes a file and syncs its folder; a file already gone is no error (a
/// vacuum that stopped half way is run again).
pub(crate) fn remove_synced(path: &Path) -> WriteResult<()> {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(WriteError::io(path, e)),
    }
    if let Some(parent) = path.parent() {
        util::sync_dir(parent)?;
    }
    crate::write::steps::durable("file removed")
}

/// The files of a folder (not sub-folders), by name; none when the folder
/// does not exist.
pub(crate) fn list_files(dir: &Path) -> WriteResult<Vec<PathBuf>> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(WriteError::io(dir, e)),
    };
    let mut out = Vec::new();
    for e in rd {
        let e = e.map_err(|e| WriteError::io(dir, e))?;
        let is_file = e
            .file_type()
            .map_err(|err| WriteError::io(&e.path(), err))?;
        if is_file.is_file() {
            out.push(e.path());
        }
    }
    out.sort();
    Ok(out)
}

/// The file name of a path, as text.
pub(crate) fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The engine's URI of a local file or folder: `file://` and its absolute
/// path.
pub(crate) fn file_uri(p: &Path) -> WriteResult<String> {
    let abs = std::path::absolute(p).map_err(|e| WriteError::io(p, e))?;
    Ok(format!("file://{}", abs.display()))
}

/// Reads a whole file.
pub(crate) fn read(path: &Path) -> WriteResult<Vec<u8>> {
    Ok(crate::storage::read_file(path)?)
}

/// The format version the engine writes an array's new files with
/// (`ArraySchema::write_version`): the latest schema's version, or the
/// current format for schemas older than version 7.
pub(crate) fn write_version(schema_version: u32) -> u32 {
    if has_own_version_writes(schema_version) {
        schema_version
    } else {
        crate::write::FORMAT_VERSION
    }
}
