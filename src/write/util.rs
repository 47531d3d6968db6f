//! Names, timestamps and durable file operations.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::error::{WriteError, WriteResult};

pub use crate::format::names::random_label;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// `__<t1>_<t2>_<label>[_<version>]` (format_spec/timestamped_name.md): with
/// a version (a format version, or a group details version), the layout
/// that states it; without, the unversioned one of schema and metadata names.
pub fn timestamped_name(t1: u64, t2: u64, version: Option<u32>) -> String {
    use crate::format::timestamped_name::format;
    use crate::format::TimestampedNameFormat as F;
    match version {
        Some(v) => format(F::T1T2UuidV, t1, t2, &random_label(), v),
        None => format(F::T1T2Uuid, t1, t2, &random_label(), 0),
    }
}

/// Creates `path` (which must not exist), writes `bytes` and syncs it.
pub fn write_new_synced(path: &Path, bytes: &[u8]) -> WriteResult<()> {
    write_new(path, bytes)?()
}

/// Syncs a folder, so that the entries created in it are durable.
pub fn sync_dir(path: &Path) -> WriteResult<()> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| WriteError::io(path, e))
}

/// A sync to run with others ([`sync_together`]).
pub type SyncJob<'a> = Box<dyn FnOnce() -> WriteResult<()> + Send + 'a>;

/// Syncing the folder `path`, as a job for [`sync_together`].
pub fn sync_dir_job(path: PathBuf) -> SyncJob<'static> {
    Box::new(move || sync_dir(&path))
}

/// Runs syncs at the same time, each on a thread of its own, and waits for
/// all of them: a journaling file system commits them together, where one
/// after the other each waits for a commit of its own. The first error
/// (in the order given) is the result; every job has ended by then.
pub fn sync_together(jobs: Vec<SyncJob<'_>>) -> WriteResult<()> {
    if jobs.len() <= 1 {
        return jobs.into_iter().try_for_each(|j| j());
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs.into_iter().map(|j| s.spawn(j)).collect();
        let mut res = Ok(());
        for h in handles {
            let r = h.join().unwrap_or_else(|_| {
                Err(WriteError::io(
                    Path::new("<sync thread>"),
                    std::io::Error::other("a thread syncing a file panicked"),
                ))
            });
            if res.is_ok() {
                res = r;
            }
        }
        res
    })
}

/// Creates `path` (which must not exist) and writes `bytes`, without
/// syncing it: a job to sync it comes back.
pub fn write_new(path: &Path, bytes: &[u8]) -> WriteResult<SyncJob<'static>> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| WriteError::io(path, e))?;
    f.write_all(bytes).map_err(|e| WriteError::io(path, e))?;
    super::steps::durable("file written")?;
    let path = path.to_path_buf();
    Ok(Box::new(move || {
        f.sync_all().map_err(|e| WriteError::io(&path, e))
    }))
}

/// Creates a folder (and its parents).
pub fn create_dir(path: &Path) -> WriteResult<()> {
    fs::create_dir_all(path).map_err(|e| WriteError::io(path, e))?;
    super::steps::durable("folder made")
}

/// Renames `from` to `to` and syncs the folder of `to`.
pub fn rename_synced(from: &Path, to: &Path) -> WriteResult<()> {
    fs::rename(from, to).map_err(|e| WriteError::io(to, e))?;
    if let Some(parent) = to.parent() {
        // The parent of a bare relative name is "", the current folder.
        sync_dir(if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        })?;
    }
    super::steps::durable("renamed into place")
}

/// Renames the folder `tmp` (assembled by this process) to `path`, which
/// may be missing or an empty folder: `Ok(true)` when it took the place,
/// `Ok(false)` when something else holds it (another process created it
/// first: `rename` never replaces a folder that is not empty, so the two
/// cannot both win), an error otherwise. `tmp` is left where it is unless
/// renamed.
pub fn rename_dir_into_place(tmp: &Path, path: &Path) -> WriteResult<bool> {
    match fs::rename(tmp, path) {
        Ok(()) => {}
        Err(e) => {
            let taken = match fs::read_dir(path) {
                Ok(mut rd) => rd.next().is_some(),
                Err(_) => path.exists(),
            };
            return if taken {
                Ok(false)
            } else {
                Err(WriteError::io(path, e))
            };
        }
    }
    if let Some(parent) = path.parent() {
        sync_dir(if parent.as_os_str().is_empty() {
            Path::new(".")
        } else {
            parent
        })?;
    }
    super::steps::durable("folder renamed into place")?;
    Ok(true)
}

/// Every file and folder under `dir`, relative to it (folders before
/// what they hold).
pub fn tree(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        for e in fs::read_dir(d)? {
            let p = e?.path();
            out.push(p.strip_prefix(root).unwrap_or(&p).to_path_buf());
            if fs::symlink_metadata(&p)?.is_dir() {
                walk(root, &p, out)?;
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

/// A fresh folder for scratch files (sort runs, tiles waiting for their
/// turn), removed when dropped. It is made in `base`: the writer's
/// `scratch_dir` option, else the array's own folder (as a hidden
/// `.tiledb-codec-scratch-*` folder the engine never looks at), never a
/// folder taken from the environment.
pub struct ScratchDir {
    pub path: PathBuf,
}

impl ScratchDir {
    pub fn new(base: &Path) -> WriteResult<Self> {
        let path = base.join(format!(".tiledb-codec-scratch-{}", random_label()));
        create_dir(&path)?;
        Ok(ScratchDir { path })
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

/// The largest first timestamp among the timestamped names in `dir` (files
/// or folders; extensions are ignored), for picking a strictly later one.
pub fn latest_t1(dir: &Path) -> u64 {
    let Ok(rd) = fs::read_dir(dir) else { return 0 };
    rd.filter_map(|e| e.ok())
        .filter_map(|e| crate::array::name::parse(&e.file_name().to_string_lossy()))
        .map(|n| n.t2.max(n.t1))
        .max()
        .unwrap_or(0)
}

/// A timestamp for a new file of `dirs`: `requested` if given, else now,
/// but always later than everything already there (the engine orders files
/// by their first timestamp only, so equal timestamps have no order). When
/// a file there already has the last timestamp (`u64::MAX`, given by hand)
/// no later one exists: an error naming the folder, never a wrapped-around
/// timestamp that would put the new file before every other.
pub fn next_timestamp(requested: Option<u64>, dirs: &[PathBuf]) -> WriteResult<u64> {
    if let Some(t) = requested {
        return Ok(t);
    }
    let Some((latest, dir)) = dirs.iter().map(|d| (latest_t1(d), d)).max_by_key(|x| x.0) else {
        return Ok(now_ms());
    };
    let Some(after) = latest.checked_add(1) else {
        return Err(WriteError::Array {
            path: dir.clone(),
            what: format!(
                "a file there has the last possible timestamp ({latest}): a new file cannot \
                 come after it, so nothing was written (a timestamp given explicitly is taken \
                 as it is, but that file overrides what comes before it)"
            ),
        });
    };
    // Wait out the millisecond of the latest file rather than stamp a file
    // in the future (a reader opening "now" would not see it yet), unless
    // the latest is far ahead (timestamps given by hand).
    loop {
        let now = now_ms();
        if now > latest || latest > now.saturating_add(1000) {
            return Ok(now.max(after));
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
