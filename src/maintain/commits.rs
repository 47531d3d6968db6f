//! Consolidation and vacuuming of commits, as the engine does them
//! (tiledb/sm/consolidator/commits_consolidator.cc,
//! `Consolidator::write_consolidated_commits_file`,
//! `ArrayDirectory::load_consolidated_commit_uris` and
//! `load_commits_uris_to_consolidate` in tiledb/sm/array/array_directory.cc;
//! format_spec/consolidated_commits_file.md).
//!
//! Consolidating writes one `__commits/<name>.con` file listing, one per
//! line and relative to the array folder:
//!
//! - first every commit the existing `.con` files list, less those an
//!   ignore file (`.ign`) names, sorted;
//! - then the `.ok` markers of the array folder (fragments before version
//!   12) and the `.wrt` and `.del` files of `__commits` that no `.con` file
//!   lists yet, in listing order. Update commits (`.upd`) are left out, as
//!   the engine leaves them out.
//!
//! A `.del` line is followed by the size (u64) and the bytes of the delete
//! commit file. The name is `__<t1>_<t2>_<uuid>_<v>.con`, `t1` the first
//! timestamp of the first line, `t2` the last of the last line, `v` the
//! array's write version, which must be 12 or later. The engine takes no
//! time range for commits; neither does this.
//!
//! Vacuuming removes the commit files any `.con` file lists (and that no
//! `.ign` file names): a reader finds those commits in the `.con` file.
//! When one `.con` file lists exactly every such commit, the other `.con`
//! files and the ignore files go too, after the commit files. As the
//! engine reads lines, a `.con` file that holds a delete commit never
//! counts as listing every commit (the delete condition's bytes are read as
//! lines), so then the older `.con` files stay.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::meta_files::{self, Steps};
use super::{ConsolidateOptions, ConsolidateReport, VacuumOptions, VacuumReport};
use crate::array::directory::ArrayDirectory;
use crate::array::name;
use crate::format::hierarchy;
use crate::format::version::{has_commits_folder, COMMITS_FOLDER_SINCE};
use crate::format::{
    decode_all, encode, ConsolidatedCommit, ConsolidatedCommits, IgnoreFile, Record,
};
use crate::write::{util, WriteError, WriteResult};
use crate::ReadOptions;

/// The commit files of an array and what its `.con` and `.ign` files say.
struct Commits {
    /// Files of the array folder, by name.
    root_files: Vec<PathBuf>,
    /// Files of `__commits`, by name.
    commit_files: Vec<PathBuf>,
    /// The `.con` files, by name, with their bytes.
    cons: Vec<(PathBuf, Vec<u8>)>,
    /// The `.ign` files.
    igns: Vec<PathBuf>,
    /// The commits the `.con` files list, less ignored ones (relative).
    consolidated: BTreeSet<String>,
    /// The delete commits' bytes as `.con` files hold them.
    held_deletes: HashMap<String, Vec<u8>>,
}

fn load(array: &Path) -> WriteResult<Commits> {
    let root_files = meta_files::list_files(array)?;
    let commit_files = meta_files::list_files(&array.join(hierarchy::COMMITS))?;
    let mut ignored = BTreeSet::new();
    let mut igns = Vec::new();
    let mut cons = Vec::new();
    for p in &commit_files {
        let n = meta_files::file_name(p);
        if n.ends_with(hierarchy::IGN) {
            let bytes = meta_files::read(p)?;
            let lines: IgnoreFile = decode_all(&bytes, p, 0, ())?;
            for l in lines.entries {
                ignored.insert(String::from_utf8_lossy(&l.uri).into_owned());
            }
            igns.push(p.clone());
        } else if n.ends_with(hierarchy::CON) {
            cons.push((p.clone(), meta_files::read(p)?));
        }
    }
    let mut consolidated = BTreeSet::new();
    let mut held_deletes = HashMap::new();
    for (p, bytes) in &cons {
        let c: ConsolidatedCommits = decode_all(bytes, p, 0, ())?;
        for e in c.entries {
            let line = String::from_utf8_lossy(&e.uri).into_owned();
            if let Some(tile) = e.delete_tile {
                held_deletes.entry(line.clone()).or_insert(tile);
            }
            if !ignored.contains(&line) {
                consolidated.insert(line);
            }
        }
    }
    Ok(Commits {
        root_files,
        commit_files,
        cons,
        igns,
        consolidated,
        held_deletes,
    })
}

fn array_error(array: &Path, what: impl Into<String>) -> WriteError {
    WriteError::Array {
        path: array.to_path_buf(),
        what: what.into(),
    }
}

/// The array's write version (its latest schema's).
fn array_write_version(array: &Path, key: Option<[u8; 32]>) -> WriteResult<u32> {
    let dir = ArrayDirectory::open(array)?;
    let schema = dir
        .latest_schema()
        .ok_or_else(|| array_error(array, "the array has no schema"))?;
    let ropts = ReadOptions {
        encryption_key: key,
        ..ReadOptions::default()
    };
    Ok(meta_files::write_version(
        dir.schema(&schema, &ropts)?.array_version,
    ))
}

/// Consolidates the commits of `array` into one consolidated commits file
/// (`.con`); returns it and the commit files it lists. Nothing is written
/// when there is no commit. The array's format must be version 12 or later.
pub fn consolidate_commits(
    array: &Path,
    opts: &ConsolidateOptions,
) -> WriteResult<ConsolidateReport> {
    consolidate(array, opts, &mut Steps::new(None))
}

/// [`consolidate_commits`](super::consolidate_commits) stopped after step `step` (from 1), as a crash
/// would stop it (only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
pub fn consolidate_commits_stopping_after(
    array: &Path,
    opts: &ConsolidateOptions,
    step: u32,
) -> WriteResult<ConsolidateReport> {
    consolidate(array, opts, &mut Steps::new(Some(step)))
}

fn consolidate(
    array: &Path,
    opts: &ConsolidateOptions,
    steps: &mut Steps,
) -> WriteResult<ConsolidateReport> {
    let version = array_write_version(array, opts.encryption_key)?;
    if !has_commits_folder(version) {
        return Err(array_error(
            array,
            format!("commits are consolidated from format version {COMMITS_FOLDER_SINCE} on; the array is version {version}"),
        ));
    }
    let c = load(array)?;
    let mut lines: Vec<String> = c.consolidated.iter().cloned().collect();
    for p in &c.root_files {
        let n = meta_files::file_name(p);
        if n.ends_with(hierarchy::OK) && !c.consolidated.contains(&n) {
            lines.push(n);
        }
    }
    for p in &c.commit_files {
        let n = meta_files::file_name(p);
        let rel = format!("{}/{n}", hierarchy::COMMITS);
        if (n.ends_with(hierarchy::WRT) || n.ends_with(hierarchy::DEL))
            && !c.consolidated.contains(&rel)
        {
            lines.push(rel);
        }
    }
    if lines.is_empty() {
        return Ok(ConsolidateReport::default());
    }
    let stamps = |line: &str| {
        name::parse(line.rsplit('/').next().unwrap_or(line))
            .map(|n| (n.t1, n.t2))
            .ok_or_else(|| array_error(array, format!("{line:?} is not a timestamped commit name")))
    };
    let (t1, _) = stamps(&lines[0])?;
    let (_, t2) = stamps(&lines[lines.len() - 1])?;

    opts.progress.start("commits", Some(lines.len() as u64));
    let mut entries = Vec::with_capacity(lines.len());
    let mut consolidated = Vec::with_capacity(lines.len());
    for line in lines {
        let path = array.join(&line);
        let tile = if line.ends_with(hierarchy::DEL) {
            // The delete commit's bytes: its file, or where a `.con` file
            // holds them once the file is vacuumed.
            let bytes = match std::fs::metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => c
                    .held_deletes
                    .get(&line)
                    .cloned()
                    .ok_or_else(|| WriteError::io(&path, e))?,
                _ => crate::storage::read_file(&path)?,
            };
            Some(bytes)
        } else {
            None
        };
        consolidated.push(path);
        entries.push(
            crate::format::table!(ConsolidatedCommit {
                uri: line.into_bytes(),
                delete_tile: tile,
            })
            .with_sizes(),
        );
        opts.progress.advance(1);
    }
    opts.progress.finish();
    let bytes = encode(&crate::format::table!(ConsolidatedCommits { entries }))?;
    let name = util::timestamped_name(t1, t2, Some(version));
    let folder = array.join(hierarchy::COMMITS);
    util::create_dir(&folder)?;
    let path = folder.join(format!("{name}{}", hierarchy::CON));
    meta_files::write_atomic(array, &path, &bytes, steps)?;
    Ok(ConsolidateReport {
        written: Some(path),
        consolidated,
        sorted: false,
    })
}

/// Removes the commit files of `array` that consolidated commits files
/// list, then, when one `.con` file lists every commit, the other `.con`
/// files and the ignore files, as the engine does (which takes no time
/// range; `opts.timestamp` is not used). At every step a reader sees the
/// same fragments and deletes.
pub fn vacuum_commits(array: &Path, opts: &VacuumOptions) -> WriteResult<VacuumReport> {
    vacuum(array, opts, &mut Steps::new(None))
}

/// [`vacuum_commits`](super::vacuum_commits) stopped after step `step` (from 1), as a crash would
/// stop it (only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
pub fn vacuum_commits_stopping_after(
    array: &Path,
    opts: &VacuumOptions,
    step: u32,
) -> WriteResult<VacuumReport> {
    vacuum(array, opts, &mut Steps::new(Some(step)))
}

/// The lines of a file as C++ `std::getline` gives them (a last line
/// without a newline counts; none after a final newline).
fn raw_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut v: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if v.last().is_some_and(|l| l.is_empty()) {
        v.pop();
    }
    v
}

fn vacuum(array: &Path, opts: &VacuumOptions, steps: &mut Steps) -> WriteResult<VacuumReport> {
    let c = load(array)?;
    // The commit files a `.con` file stands for, that exist.
    let mut existing: BTreeMap<String, PathBuf> = BTreeMap::new();
    for p in &c.root_files {
        existing.insert(meta_files::file_name(p), p.clone());
    }
    for p in &c.commit_files {
        existing.insert(
            format!("{}/{}", hierarchy::COMMITS, meta_files::file_name(p)),
            p.clone(),
        );
    }
    let commits: Vec<PathBuf> = c
        .consolidated
        .iter()
        .filter_map(|l| existing.get(l).cloned())
        .collect();
    // A `.con` file whose lines are exactly the consolidated commits.
    let complete = c.cons.iter().find(|(_, bytes)| {
        let lines = raw_lines(bytes);
        lines.len() == c.consolidated.len()
            && lines
                .iter()
                .all(|l| std::str::from_utf8(l).is_ok_and(|s| c.consolidated.contains(s)))
    });
    let mut superseded: Vec<PathBuf> = Vec::new();
    if let Some((keep, _)) = complete {
        superseded.extend(
            c.cons
                .iter()
                .map(|(p, _)| p)
                .filter(|p| *p != keep)
                .cloned(),
        );
        superseded.extend(c.igns.iter().cloned());
    }
    let mut report = VacuumReport::default();
    opts.progress.start(
        "commit files",
        Some((commits.len() + superseded.len()) as u64),
    );
    // Commit files first: the `.con` files that list them stay until
    // after, and the ignore files until the `.con` files they apply to are
    // gone.
    for p in commits.into_iter().chain(superseded) {
        if !opts.dry_run {
            meta_files::remove_synced(&p)?;
            steps.step("file removed")?;
        }
        report.removed.push(p);
        opts.progress.advance(1);
    }
    opts.progress.finish();
    Ok(report)
}
