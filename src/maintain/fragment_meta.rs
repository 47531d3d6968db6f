//! Consolidation and vacuuming of fragment metadata, as the engine does them
//! (tiledb/sm/consolidator/fragment_meta_consolidator.cc,
//! format_spec/consolidated_fragment_metadata_file.md).
//!
//! Consolidating writes one `.meta` file holding the footer of every
//! committed fragment (of format version 3 on), so that opening the array
//! reads one file instead of one footer per fragment:
//!
//! - its name is `__<t1>_<t2>_<uuid>_<v>.meta`, `t1` the first timestamp of
//!   the oldest fragment, `t2` the last of the newest, `v` the array's write
//!   version; it lies in `__fragment_meta` (in the array folder before
//!   version 12);
//! - it is one generic tile (GZIP, encrypted with the array's key), whose
//!   data is a `u32` fragment count, then per fragment its name (its folder
//!   name from version 9 on, its URI before) and the offset of its footer
//!   in the tile data, then the footers back to back, oldest fragment first;
//! - with fewer than two fragments nothing is written.
//!
//! The fragments' own footers stay where they are: the `.meta` file is a
//! copy, read in place of them. Vacuuming removes every `.meta` file but
//! those with the newest end timestamp.

use std::path::Path;

use super::meta_files::{self, Steps};
use super::{ConsolidateOptions, ConsolidateReport, VacuumOptions, VacuumReport};
use crate::array::directory::ArrayDirectory;
use crate::array::fragment::{Fragment, Metadata};
use crate::format::hierarchy;
use crate::format::version::{
    has_commits_folder, has_fragment_footer, has_fragment_names_in_consolidated_meta,
};
use crate::format::{encode, ConsolidatedFragmentEntry, ConsolidatedFragmentMetadata};
use crate::write::generic::generic_tile;
use crate::write::{util, WriteError, WriteResult};
use crate::ReadOptions;

/// Consolidates the footers of the committed fragments of `array` (those
/// within `opts.timestamp`; the engine takes all) into one consolidated
/// fragment metadata file; returns it and the fragments it covers. With
/// fewer than two fragments it writes nothing, as the engine.
pub fn consolidate_fragment_meta(
    array: &Path,
    opts: &ConsolidateOptions,
) -> WriteResult<ConsolidateReport> {
    consolidate(array, opts, &mut Steps::new(None))
}

/// [`consolidate_fragment_meta`](super::consolidate_fragment_meta) stopped after step `step` (from 1), as a
/// crash would stop it; `Ok` when it has fewer steps (the crash-safety
/// tests; only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
pub fn consolidate_fragment_meta_stopping_after(
    array: &Path,
    opts: &ConsolidateOptions,
    step: u32,
) -> WriteResult<ConsolidateReport> {
    consolidate(array, opts, &mut Steps::new(Some(step)))
}

fn not_an_array(array: &Path, what: impl Into<String>) -> WriteError {
    WriteError::Array {
        path: array.to_path_buf(),
        what: what.into(),
    }
}

fn consolidate(
    array: &Path,
    opts: &ConsolidateOptions,
    steps: &mut Steps,
) -> WriteResult<ConsolidateReport> {
    let dir = ArrayDirectory::open(array)?;
    let ropts = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    let schema = dir
        .latest_schema()
        .ok_or_else(|| not_an_array(array, "the array has no schema"))?;
    let version = meta_files::write_version(dir.schema(&schema, &ropts)?.array_version);

    // Fragments with a footer (version 3 on), oldest first.
    let entries: Vec<_> = dir
        .fragments
        .iter()
        .filter(|e| {
            has_fragment_footer(e.name.version) && opts.timestamp.contains(e.name.t1, e.name.t2)
        })
        .collect();
    if entries.len() < 2 {
        return Ok(ConsolidateReport::default());
    }
    opts.progress
        .start("fragment metadata", Some(entries.len() as u64));
    let mut footers = Vec::with_capacity(entries.len());
    for e in &entries {
        let f = Fragment::open(&dir, e, &ropts)?;
        let Metadata::Footer(footer) = &f.metadata else {
            return Err(WriteError::Unsupported(format!(
                "{}: a fragment without a footer",
                e.path.display()
            )));
        };
        footers.push(encode(&**footer)?);
        opts.progress.advance(1);
    }
    opts.progress.finish();

    let first = &entries[0].name;
    let last = &entries[entries.len() - 1].name;
    let name = util::timestamped_name(first.t1, last.t2, Some(version));
    let folder = if has_commits_folder(version) {
        array.join(hierarchy::FRAGMENT_META)
    } else {
        array.to_path_buf()
    };

    // Names: the folder name from version 9 on, the URI before.
    let mut names = Vec::with_capacity(entries.len());
    for e in &entries {
        names.push(if has_fragment_names_in_consolidated_meta(version) {
            e.name.name.clone().into_bytes()
        } else {
            meta_files::file_uri(&e.path)?.into_bytes()
        });
    }
    // The footers follow the index, each entry stating where its footer
    // starts (`with_parts_after`); `with_sizes` counts the fragments and
    // `encode` refuses more than `fragment_num` holds.
    let fragments = names
        .into_iter()
        .map(|name| crate::format::table!(ConsolidatedFragmentEntry { name }))
        .collect();
    let index = crate::format::table!(ConsolidatedFragmentMetadata { fragments })
        .with_parts_after(&footers)?;
    let mut data = encode(&index)?;
    for f in &footers {
        data.extend_from_slice(f);
    }
    // The engine's generic tiles state the format version it writes.
    let bytes = generic_tile(&data, crate::write::FORMAT_VERSION, opts.encryption_key)?;
    util::create_dir(&folder)?;
    steps.step("folder created")?;
    let path = folder.join(format!("{name}{}", hierarchy::META_FILE));
    meta_files::write_atomic(array, &path, &bytes, steps)?;
    Ok(ConsolidateReport {
        written: Some(path),
        consolidated: entries.iter().map(|e| e.path.clone()).collect(),
        sorted: false,
    })
}

/// Removes the consolidated fragment metadata files of `array` that the
/// newest supersedes: every `.meta` file whose end timestamp is not the
/// newest one, as the engine does (it ignores the time range; here only
/// files within `opts.timestamp` are removed, every file by default).
pub fn vacuum_fragment_meta(array: &Path, opts: &VacuumOptions) -> WriteResult<VacuumReport> {
    vacuum(array, opts, &mut Steps::new(None))
}

/// [`vacuum_fragment_meta`](super::vacuum_fragment_meta) stopped after step `step` (from 1), as a crash
/// would stop it (only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
pub fn vacuum_fragment_meta_stopping_after(
    array: &Path,
    opts: &VacuumOptions,
    step: u32,
) -> WriteResult<VacuumReport> {
    vacuum(array, opts, &mut Steps::new(Some(step)))
}

fn vacuum(array: &Path, opts: &VacuumOptions, steps: &mut Steps) -> WriteResult<VacuumReport> {
    let dir = ArrayDirectory::open(array)?;
    let latest = dir.fragment_meta.iter().map(|e| e.name.t2).max();
    let mut report = VacuumReport::default();
    let Some(latest) = latest else {
        return Ok(report);
    };
    let doomed: Vec<_> = dir
        .fragment_meta
        .iter()
        .filter(|e| e.name.t2 != latest && opts.timestamp.contains(e.name.t1, e.name.t2))
        .collect();
    opts.progress
        .start("fragment metadata files", Some(doomed.len() as u64));
    for e in doomed {
        if !opts.dry_run {
            meta_files::remove_synced(&e.path)?;
            steps.step("file removed")?;
        }
        report.removed.push(e.path.clone());
        opts.progress.advance(1);
    }
    opts.progress.finish();
    Ok(report)
}
