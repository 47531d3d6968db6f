//! Consolidation and vacuuming of array (and group) metadata, as the engine
//! does them (tiledb/sm/consolidator/array_meta_consolidator.cc,
//! group_meta_consolidator.cc, tiledb/sm/metadata/metadata.cc;
//! format_spec/metadata.md, vacuum_file.md).
//!
//! Consolidating reads the metadata files of `__meta` whose timestamps lie
//! within the time range (less those a vacuum file lists), oldest first,
//! merges them as a reader does (a later value replaces an earlier one, a
//! deletion removes the key: the merged file holds no deletions), and
//! writes, when there are at least two files:
//!
//! - `__meta/__<t1>_<t2>_<uuid>`, `t1` the first timestamp of the oldest
//!   file, `t2` the last of the newest: one generic tile of the live
//!   entries ordered by key (no file when no key is left);
//! - then `__meta/<the same name>.vac` listing the files merged, one per
//!   line: relative to the array folder from write version 19 on (as the
//!   engine cuts the array's URI off the file's: `/__meta/<name>`, with the
//!   slash), else, and always for a group, as absolute URIs
//!   (`file:///…/__meta/<name>`).
//!
//! The data file is renamed into place before the vacuum file exists, so a
//! reader sees either the old files, or the old files and the merged one
//! (which, first by timestamp, the old files re-apply on top of to the same
//! result), or only the merged one.
//!
//! Vacuuming removes the files that vacuum files list, then the vacuum
//! files (those whose listed files all lie within the time range).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::meta_files::{self, Steps};
use super::{ConsolidateOptions, ConsolidateReport, TimeRange, VacuumOptions, VacuumReport};
use crate::array::directory::ArrayDirectory;
use crate::array::name::{self, TimestampedName};
use crate::format::hierarchy;
use crate::format::version::has_relative_vacuum_uris;
use crate::format::{decode_all, encode, ArrayMetadata, MetadataEntry, VacuumFile};
use crate::storage::MappedFile;
use crate::tile::read_generic_tile;
use crate::write::generic::generic_tile;
use crate::write::{util, WriteError, WriteResult};
use crate::ReadOptions;

/// Whether the folder is an array or a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An array of this write version.
    Array(u32),
    Group,
}

fn is_array(folder: &Path) -> bool {
    folder.join(hierarchy::SCHEMA).is_dir() || folder.join(hierarchy::LEGACY_SCHEMA).is_file()
}

fn is_group(folder: &Path) -> bool {
    folder.join(hierarchy::GROUP).is_dir() || folder.join(hierarchy::GROUP_MARKER).is_file()
}

fn kind(folder: &Path, key: Option<[u8; 32]>) -> WriteResult<Kind> {
    if is_array(folder) {
        let dir = ArrayDirectory::open(folder)?;
        let schema = dir.latest_schema().ok_or_else(|| WriteError::Array {
            path: folder.to_path_buf(),
            what: "the array has no schema".into(),
        })?;
        let ropts = ReadOptions {
            encryption_key: key,
            ..ReadOptions::default()
        };
        let v = dir.schema(&schema, &ropts)?.array_version;
        return Ok(Kind::Array(meta_files::write_version(v)));
    }
    if is_group(folder) {
        return Ok(Kind::Group);
    }
    Err(WriteError::Array {
        path: folder.to_path_buf(),
        what: "neither an array nor a group".into(),
    })
}

/// A metadata file of `__meta`.
struct MetaFile {
    path: PathBuf,
    name: TimestampedName,
}

/// The listing of `__meta`: metadata files and vacuum files, by name.
struct MetaDir {
    files: Vec<MetaFile>,
    vacs: Vec<MetaFile>,
}

fn list(folder: &Path) -> WriteResult<MetaDir> {
    let mut d = MetaDir {
        files: Vec::new(),
        vacs: Vec::new(),
    };
    for p in meta_files::list_files(&folder.join(hierarchy::META))? {
        let n = meta_files::file_name(&p);
        let Some(name) = name::parse(&n) else {
            continue;
        };
        if n.ends_with(hierarchy::VAC) {
            d.vacs.push(MetaFile { path: p, name });
        } else if !n.contains('.') {
            d.files.push(MetaFile { path: p, name });
        }
    }
    Ok(d)
}

/// The names of the metadata files a vacuum file lists (the last part of
/// each line: lines are relative or absolute URIs).
fn vac_names(vac: &Path) -> WriteResult<Vec<String>> {
    let bytes = meta_files::read(vac)?;
    let v: VacuumFile = decode_all(&bytes, vac, 0, ())?;
    Ok(v.entries
        .iter()
        .map(|e| {
            let s = String::from_utf8_lossy(&e.uri);
            s.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect())
}

fn within(range: &TimeRange, n: &TimestampedName) -> bool {
    range.contains(n.t1, n.t2)
}

/// Consolidates the metadata of the array or group at `folder` (the files
/// within `opts.timestamp`) into one file, and writes the vacuum file
/// listing the files it supersedes; returns the merged file (`None` when
/// every key was deleted: then only the vacuum file is written) and those
/// files. With fewer than two files nothing is written, as the engine.
pub fn consolidate_array_meta(
    folder: &Path,
    opts: &ConsolidateOptions,
) -> WriteResult<ConsolidateReport> {
    consolidate(folder, opts, &mut Steps::new(None))
}

/// [`consolidate_array_meta`](super::consolidate_array_meta) stopped after step `step` (from 1), as a
/// crash would stop it (only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
pub fn consolidate_array_meta_stopping_after(
    folder: &Path,
    opts: &ConsolidateOptions,
    step: u32,
) -> WriteResult<ConsolidateReport> {
    consolidate(folder, opts, &mut Steps::new(Some(step)))
}

fn consolidate(
    folder: &Path,
    opts: &ConsolidateOptions,
    steps: &mut Steps,
) -> WriteResult<ConsolidateReport> {
    let kind = kind(folder, opts.encryption_key)?;
    let d = list(folder)?;
    // Vacuum files within the range hide the files they list.
    let mut vacuumed = BTreeSet::new();
    for v in d.vacs.iter().filter(|v| within(&opts.timestamp, &v.name)) {
        vacuumed.extend(vac_names(&v.path)?);
    }
    let mut files: Vec<&MetaFile> = d
        .files
        .iter()
        .filter(|f| within(&opts.timestamp, &f.name))
        .filter(|f| !vacuumed.contains(&meta_files::file_name(&f.path)))
        .collect();
    files.sort_by(|a, b| (a.name.t1, &a.name.name).cmp(&(b.name.t1, &b.name.name)));
    if files.len() <= 1 {
        return Ok(ConsolidateReport::default());
    }

    let ropts = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    opts.progress
        .start("metadata files", Some(files.len() as u64));
    let mut merged: BTreeMap<Vec<u8>, MetadataEntry> = BTreeMap::new();
    for f in &files {
        let file = MappedFile::open(&f.path)?;
        let tile = read_generic_tile(&file, 0, &ropts)?;
        let md: ArrayMetadata = decode_all(&tile.data, &f.path, 0, ())?;
        for e in md.entries {
            merged.remove(&e.key);
            if e.deletion == 0 {
                merged.insert(e.key.clone(), e);
            }
        }
        opts.progress.advance(1);
    }
    opts.progress.finish();

    let first = &files[0].name;
    let last = &files[files.len() - 1].name;
    let name = util::timestamped_name(first.t1, last.t2, None);
    let meta_dir = folder.join(hierarchy::META);
    let mut written = None;
    if !merged.is_empty() {
        let table = crate::format::table!(ArrayMetadata {
            entries: merged.into_values().collect(),
        });
        // The engine's generic tiles state the format version it writes.
        let bytes = generic_tile(
            &encode(&table)?,
            crate::write::FORMAT_VERSION,
            opts.encryption_key,
        )?;
        let path = meta_dir.join(&name);
        meta_files::write_atomic(folder, &path, &bytes, steps)?;
        written = Some(path);
    }

    let mut vac = String::new();
    for f in &files {
        let line = match kind {
            Kind::Array(version) if has_relative_vacuum_uris(version) => {
                format!("/__meta/{}", f.name.name)
            }
            _ => meta_files::file_uri(&f.path)?,
        };
        vac.push_str(&line);
        vac.push('\n');
    }
    let vac_path = meta_dir.join(format!("{name}{}", hierarchy::VAC));
    meta_files::write_atomic(folder, &vac_path, vac.as_bytes(), steps)?;
    Ok(ConsolidateReport {
        written: written.or(Some(vac_path)),
        consolidated: files.iter().map(|f| f.path.clone()).collect(),
        sorted: false,
    })
}

/// Removes the metadata files of the array or group at `folder` that
/// vacuum files (within `opts.timestamp`) list, then those vacuum files
/// (a vacuum file stays while it lists a file outside the range), as the
/// engine does.
pub fn vacuum_array_meta(folder: &Path, opts: &VacuumOptions) -> WriteResult<VacuumReport> {
    vacuum(folder, opts, &mut Steps::new(None))
}

/// [`vacuum_array_meta`](super::vacuum_array_meta) stopped after step `step` (from 1), as a crash
/// would stop it (only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
pub fn vacuum_array_meta_stopping_after(
    folder: &Path,
    opts: &VacuumOptions,
    step: u32,
) -> WriteResult<VacuumReport> {
    vacuum(folder, opts, &mut Steps::new(Some(step)))
}

fn vacuum(folder: &Path, opts: &VacuumOptions, steps: &mut Steps) -> WriteResult<VacuumReport> {
    if !is_array(folder) && !is_group(folder) {
        return Err(WriteError::Array {
            path: folder.to_path_buf(),
            what: "neither an array nor a group".into(),
        });
    }
    let d = list(folder)?;
    let in_range: BTreeMap<String, &MetaFile> = d
        .files
        .iter()
        .filter(|f| within(&opts.timestamp, &f.name))
        .map(|f| (meta_files::file_name(&f.path), f))
        .collect();
    let out_of_range: BTreeSet<String> = d
        .files
        .iter()
        .filter(|f| !within(&opts.timestamp, &f.name))
        .map(|f| meta_files::file_name(&f.path))
        .collect();
    let mut doomed: BTreeSet<PathBuf> = BTreeSet::new();
    let mut doomed_vacs = Vec::new();
    for v in d.vacs.iter().filter(|v| within(&opts.timestamp, &v.name)) {
        let names = vac_names(&v.path)?;
        let mut keep_vac = false;
        for n in &names {
            if let Some(f) = in_range.get(n) {
                doomed.insert(f.path.clone());
            }
            keep_vac |= out_of_range.contains(n);
        }
        if !keep_vac {
            doomed_vacs.push(v.path.clone());
        }
    }
    let mut report = VacuumReport::default();
    opts.progress.start(
        "metadata files",
        Some((doomed.len() + doomed_vacs.len()) as u64),
    );
    // The superseded files first, the vacuum files that hide them last.
    for p in doomed.into_iter().chain(doomed_vacs) {
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
