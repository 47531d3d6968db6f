//! Reclaiming what killed commands left behind.
//!
//! Every write of this crate commits atomically: it builds what it writes
//! where no reader looks (an uncommitted fragment folder, a file or folder
//! with a temporary name) and makes it visible in one last step (a commit
//! marker, a rename). A command killed before that step leaves its work
//! behind, invisible and useless. [`vacuum_fragments`] removes it
//! ([`VacuumReport::removed`] lists it, with `dry_run` too) under this rule:
//!
//! **Work is abandoned when nothing commits it and nothing in it has
//! changed for [`ABANDONED_AFTER`]** (10 minutes; the newest modification
//! time of the file, or of the folder and everything below it). The names'
//! timestamps play no part: a killed consolidation's folder carries the
//! same `__t1_t2` as the fragment that later commits, and an import or
//! metadata write may be given any timestamp, so no rule on names can tell
//! a live write from a dead one. What counts as uncommitted work:
//!
//! - a fragment folder without a commit marker (`__fragments/<name>` with
//!   no `__commits/<name>.wrt` nor a `.con` entry; `<name>.ok` for older
//!   formats; no `__fragment_metadata.tdb` before commit markers), as
//!   killed imports, writes and consolidations (this crate's or the
//!   engine's) leave them;
//! - the temporaries of this crate's writers: `.tiledb-codec-*` files and
//!   folders in the array's folder (array metadata written before its
//!   rename, the writer's scratch folders), and `*.tmp` files in
//!   `__commits`, `__schema`, `__schema/__enumerations` and `__group`
//!   (delete and update commits, ignore files, schemas and enumerations of
//!   an evolution, group details before their rename).
//!   A `<name>.vac.tmp` is finished or undone by the next consolidation or
//!   vacuum instead (the fragment it belongs to decides).
//!
//! A live writer is safe as long as it changes something in its work at
//! least once every [`ABANDONED_AFTER`]: a fragment writer writes its files
//! as cells come, and a temporary file lives for the time of one write and
//! rename. A writer stalled longer than that (a source that sends nothing
//! for 10 minutes) may find its work reclaimed: its next write, or its
//! commit, then fails (the fragment writer checks after its commit marker
//! that its folder is still there, and takes the marker back if not), so
//! nothing reported committed is lost.
//!
//! [`vacuum_fragments`]: super::vacuum_fragments
//! [`VacuumReport::removed`]: super::VacuumReport::removed

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::array::directory::ArrayDirectory;
use crate::array::name;
use crate::format::hierarchy;

/// How long uncommitted work (a fragment folder without a commit marker, a
/// writer's temporary file) must have stayed unchanged (the newest
/// modification time of the file, or of the folder and everything below
/// it) before a vacuum takes it for abandoned and removes it. The names'
/// timestamps play no part; a live writer changes something in its work
/// at least this often.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(600);

/// The newest time `path`, or anything below it, was modified.
pub(crate) fn last_change(path: &Path) -> Option<SystemTime> {
    let m = std::fs::symlink_metadata(path).ok()?;
    let mut newest = m.modified().ok()?;
    if m.is_dir() {
        for e in std::fs::read_dir(path).ok()?.flatten() {
            newest = newest.max(last_change(&e.path())?);
        }
    }
    Some(newest)
}

/// Whether nothing in `path` changed for `after` before `now` (false when
/// it cannot be told, or a time lies after `now`).
pub(crate) fn untouched(path: &Path, now: SystemTime, after: Duration) -> bool {
    last_change(path)
        .and_then(|t| now.duration_since(t).ok())
        .is_some_and(|age| age >= after)
}

/// Whether `name` is a temporary name of this crate's writers (not the
/// maintenance lock `.tiledb-codec.lock`, not a `.vac.tmp`: see the module
/// documentation).
fn temporary(name: &str) -> bool {
    if name.ends_with(&format!("{}{}", hierarchy::VAC, hierarchy::TMP)) {
        return false;
    }
    name.starts_with(".tiledb-codec-")
        || (name.starts_with('.') && name.contains(".tiledb-codec-"))
        || name.ends_with(hierarchy::TMP)
}

/// The folders of an array (or group) where this crate's writers leave
/// temporaries. Not `__meta`: the engine's readers of metadata have their
/// own rule for the `.tmp` names there, and this crate's metadata writes
/// stage their files in the array's folder.
fn folders(root: &Path) -> Vec<PathBuf> {
    let schema = root.join(hierarchy::SCHEMA);
    vec![
        root.to_path_buf(),
        root.join(hierarchy::COMMITS),
        schema.join(hierarchy::ENUMERATIONS),
        schema,
        root.join(hierarchy::GROUP),
    ]
}

/// The uncommitted work in the array `dir` abandoned by the rule of the
/// module documentation as of `now` (unchanged for `opts.abandoned_after`,
/// [`ABANDONED_AFTER`] by default): fragment folders (those whose names'
/// timestamps lie within `opts.timestamp`), then temporaries.
pub(crate) fn abandoned(
    dir: &ArrayDirectory,
    opts: &super::VacuumOptions,
    now: SystemTime,
) -> Vec<PathBuf> {
    let (range, after) = (opts.timestamp, opts.abandoned_after);
    let mut out: Vec<PathBuf> = dir
        .uncommitted
        .iter()
        .filter(|p| {
            let file = p.file_name().unwrap_or_default().to_string_lossy();
            name::parse(&file)
                .filter(|n| n.name == file)
                .is_some_and(|n| range.contains(n.t1, n.t2))
                && p.is_dir()
                && untouched(p, now, after)
        })
        .cloned()
        .collect();
    for folder in folders(&dir.root) {
        let Ok(rd) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut found: Vec<PathBuf> = rd
            .flatten()
            .filter(|e| temporary(&e.file_name().to_string_lossy()))
            .map(|e| e.path())
            .filter(|p| untouched(p, now, after))
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::temporary;

    #[test]
    fn temporary_names() {
        for t in [
            ".tiledb-codec-tmp-ab12",
            ".tiledb-codec-scratch-x",
            ".arr.tiledb-codec-retract-1",
            "__1_1_abc_22.del.tmp",
            ".__1_1_abc_22.tmp",
            "__1_1_abc_22.ign.tmp",
        ] {
            assert!(temporary(t), "{t}");
        }
        for t in [
            ".tiledb-codec.lock",
            "__1_1_abc_22.vac.tmp",
            "__1_1_abc_22.wrt",
            "__1_1_abc_22",
            "__fragments",
        ] {
            assert!(!temporary(t), "{t}");
        }
    }
}
