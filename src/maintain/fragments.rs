//! Fragment consolidation and vacuuming, as the engine does them
//! (tiledb/sm/consolidator/fragment_consolidator.cc,
//! format_spec/vacuum_file.md, format_spec/array_file_hierarchy.md).
//!
//! [`consolidate_fragments`] merges the committed fragments of a time range
//! into one fragment named `__<t1>_<t2>_<uuid>_<version>` (the first and last
//! timestamps of the merged fragments), commits it, then writes
//! `__commits/<same name>.vac` listing the merged fragments. Readers skip
//! what a `.vac` file lists, so from then on the new fragment stands for
//! them. [`vacuum_fragments`] removes what `.vac` files list: the commit
//! markers, then the fragment folders, then the `.vac` file.
//!
//! What is merged, and why every read "now" stays the same:
//! - Dense arrays: the new fragment covers the union rectangle of the merged
//!   fragments' non-empty domains, with the cells a reader sees at `t2`
//!   (every fragment up to `t2`, older ones outside the range included).
//!   The engine instead refuses to merge when the rectangle overlaps an
//!   older fragment (`are_consolidatable`); reading as of `t2` makes such
//!   merges safe, so cells under the holes of the rectangle keep the values
//!   of the older fragments they had.
//! - Sparse arrays of format version 15 and later, as the engine
//!   consolidates them: every cell of the merged fragments, with its write
//!   timestamp (`t.tdb`; the cells of one coordinate newest first), so that
//!   reads at earlier times still see what they saw, and fragments are
//!   merged across delete commits. When a delete falls at or after the
//!   first merged fragment (or a merged fragment has some), the new
//!   fragment keeps delete metadata: each cell's delete timestamp and the
//!   index of the delete among its processed conditions (`dt.tdb`,
//!   `dci.tdb`), which every delete commit is listed in. With
//!   [`ConsolidateOptions::purge_deleted_cells`] deleted cells are left out
//!   instead (without duplicates, with every older cell of their
//!   coordinate, as the engine purges). Update commits (`.upd`) are
//!   deletes here as in every read: the engine's readers and consolidator
//!   apply their conditions as deletes and never their values. The merge
//!   needs one tile of each fragment within the memory budget.
//! - Older sparse arrays, or when the above cannot be done
//!   ([`ConsolidateOptions::with_timestamps`] off): the cells of the merged
//!   fragments, duplicates dropped (the newest wins) unless the schema
//!   allows them, and fragments never merged across the timestamp of a
//!   delete or update commit, so each delete applies to the new fragment
//!   exactly as it applied to the fragments it replaces.
//!
//! Only one consolidation or vacuum runs on an array at a time: both hold an
//! advisory lock on the file `.tiledb-codec.lock` in the array folder
//! (released by the system if the process dies). Two consolidations that
//! both merged the same fragments would otherwise double the cells of an
//! array that allows duplicates. The holder removes the file before it lets
//! go, so that none stays behind; a process that waited on the file checks,
//! once it has the lock, that the path still names the file it locked, and
//! else opens the path anew (Unix; elsewhere the file stays).
//!
//! Crash safety: the new fragment is written and synced before its commit
//! marker; the `.vac` file is first written under a temporary name
//! (`<name>.vac.tmp`, which readers skip) before the commit and renamed
//! after it. A consolidation that stops before the commit leaves an
//! uncommitted folder (readers skip it); one that stops between the commit
//! and the rename leaves both the new fragment and the merged ones visible
//! (the engine has the same window): reads are unchanged except that an
//! array allowing duplicates shows the merged cells twice, until the next
//! consolidation or vacuum finishes the rename (or, for an uncommitted
//! fragment, removes the leftovers).

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use super::{ConsolidateOptions, ConsolidateReport, VacuumOptions, VacuumReport};
use crate::array::directory::{ArrayDirectory, Entry};
use crate::array::name;
use crate::format::hierarchy;
use crate::format::version::{
    has_commits_folder, has_consolidation_with_timestamps, has_deletes, has_relative_vacuum_uris,
};
use crate::format::{decode_all, ArrayType, ConsolidatedCommits, IgnoreFile, VacuumFile};
use crate::model::DomainRange;
use crate::read::{ArrayReader, Cells, Order, Query};
use crate::write::util;
use crate::write::{Column, FragmentWriter, WriteError, WriteOptions, WriteResult};
use crate::ReadOptions;

/// The lock file that consolidations and vacuums of one array take turns on.
pub(crate) const LOCK_FILE: &str = ".tiledb-codec.lock";

#[cfg(feature = "fail-points")]
use crate::write::MaintenanceStep as Step;

/// Where to stop (fail points), or nowhere.
#[derive(Clone, Copy)]
struct Stop {
    #[cfg(feature = "fail-points")]
    at: Option<Step>,
}

impl Stop {
    const NEVER: Stop = Stop {
        #[cfg(feature = "fail-points")]
        at: None,
    };

    #[cfg(feature = "fail-points")]
    fn check(&self, step: Step) -> WriteResult<()> {
        if self.at == Some(step) {
            return Err(WriteError::Stopped(step));
        }
        Ok(())
    }
}

macro_rules! checkpoint {
    ($stop:expr, $step:ident) => {
        #[cfg(feature = "fail-points")]
        $stop.check(Step::$step)?;
    };
}

/// The advisory lock of an array's maintenance, held while alive; its
/// file is removed when it is let go.
struct Lock {
    file: File,
    path: PathBuf,
}

/// Whether `path` still names `file` (Unix: the same device and inode).
fn names(path: &Path, file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::symlink_metadata(path), file.metadata()) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (path, file);
        true
    }
}

impl Lock {
    fn take(array: &Path) -> WriteResult<Lock> {
        if !array.is_dir() {
            return Err(WriteError::Array {
                path: array.to_path_buf(),
                what: "not an array folder".into(),
            });
        }
        let path = array.join(LOCK_FILE);
        loop {
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(|e| WriteError::io(&path, e))?;
            file.lock().map_err(|e| WriteError::io(&path, e))?;
            // The holder before may have removed the file as it let go:
            // then this lock guards nothing, and the path is opened anew.
            if names(&path, &file) {
                return Ok(Lock { file, path });
            }
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so whoever waits on it sees it gone.
        if cfg!(unix) && names(&self.path, &self.file) {
            let _ = std::fs::remove_file(&self.path);
        }
        let _ = self.file.unlock();
    }
}

fn array_err(array: &Path, what: impl Into<String>) -> WriteError {
    WriteError::Array {
        path: array.to_path_buf(),
        what: what.into(),
    }
}

/// The folder of fragment `name` and its commit marker.
fn fragment_paths(array: &Path, n: &name::TimestampedName) -> (PathBuf, PathBuf) {
    if has_commits_folder(n.version) {
        (
            array.join(hierarchy::FRAGMENTS).join(&n.name),
            array
                .join(hierarchy::COMMITS)
                .join(format!("{}{}", n.name, hierarchy::WRT)),
        )
    } else {
        (
            array.join(&n.name),
            array.join(format!("{}{}", n.name, hierarchy::OK)),
        )
    }
}

/// Where the `.vac` file of a new fragment goes.
fn vac_path(array: &Path, n: &name::TimestampedName) -> PathBuf {
    if has_commits_folder(n.version) {
        array
            .join(hierarchy::COMMITS)
            .join(format!("{}{}", n.name, hierarchy::VAC))
    } else {
        array.join(format!("{}{}", n.name, hierarchy::VAC))
    }
}

/// The lines of a `.vac` file for `fragments`, as the engine writes them:
/// relative to the array (`/__fragments/<name>`) from format version 19,
/// absolute `file://` URIs before (fragment_consolidator.cc
/// `write_vacuum_file`).
fn vac_contents(array: &Path, version: u32, fragments: &[&Entry]) -> WriteResult<Vec<u8>> {
    let abs = std::fs::canonicalize(array).map_err(|e| WriteError::io(array, e))?;
    let abs = abs.to_string_lossy().trim_end_matches('/').to_string();
    let mut out = Vec::new();
    for f in fragments {
        let rel = f
            .path
            .strip_prefix(array)
            .map_err(|_| array_err(array, "a fragment outside the array folder"))?
            .to_string_lossy()
            .replace('\\', "/");
        let line = if has_relative_vacuum_uris(version) {
            format!("/{rel}\n")
        } else {
            format!("file://{abs}/{rel}\n")
        };
        out.extend_from_slice(line.as_bytes());
    }
    Ok(out)
}

/// Finishes or undoes consolidations that stopped between writing their
/// vacuum list and renaming it into place: a `.vac.tmp` whose fragment is
/// committed becomes the `.vac`; otherwise it goes, with the uncommitted
/// fragment folder.
fn recover(array: &Path) -> WriteResult<()> {
    for dir in [array.join(hierarchy::COMMITS), array.to_path_buf()] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.flatten() {
            let file = e.file_name().to_string_lossy().into_owned();
            let Some(stem) = file.strip_suffix(&format!("{}{}", hierarchy::VAC, hierarchy::TMP))
            else {
                continue;
            };
            let Some(n) = name::parse(stem) else { continue };
            if n.name != stem {
                continue;
            }
            let tmp = e.path();
            let (folder, commit) = fragment_paths(array, &n);
            if commit.is_file() {
                util::rename_synced(&tmp, &vac_path(array, &n))?;
            } else {
                if folder.is_dir() {
                    std::fs::remove_dir_all(&folder).map_err(|e| WriteError::io(&folder, e))?;
                }
                std::fs::remove_file(&tmp).map_err(|e| WriteError::io(&tmp, e))?;
                util::sync_dir(&dir)?;
            }
        }
    }
    Ok(())
}

/// The fragments to merge: the first run, in the readers' order, of at
/// least two consecutive fragments within `range` (with `barriers`: not
/// spanning the timestamp of a delete or update commit), and whose time
/// span no other fragment overlaps.
fn select(dir: &ArrayDirectory, range: super::TimeRange, barriers: bool) -> Vec<&Entry> {
    let barriers: Vec<u64> = dir
        .deletes
        .iter()
        .chain(&dir.updates)
        .map(|d| d.name.t1)
        .filter(|_| barriers)
        .collect();
    // A delete at `dt` applies to cells written at or before `dt`: a run
    // may not hold fragments on both sides of it.
    let crosses = |t1: u64, t2: u64| barriers.iter().any(|&dt| t1 <= dt && dt < t2);
    let frags = &dir.fragments;
    let mut runs: Vec<Vec<&Entry>> = Vec::new();
    let mut cur: Vec<&Entry> = Vec::new();
    for f in frags {
        let n = &f.name;
        if !range.contains(n.t1, n.t2) {
            runs.push(std::mem::take(&mut cur));
            continue;
        }
        if let Some(first) = cur.first() {
            if crosses(first.name.t1, n.t2.max(first.name.t2)) {
                runs.push(std::mem::take(&mut cur));
            }
        }
        cur.push(f);
    }
    runs.push(cur);
    for run in runs {
        if run.len() < 2 {
            continue;
        }
        let t1 = run[0].name.t1;
        let t2 = run.iter().map(|f| f.name.t2).max().unwrap_or(t1);
        if crosses(t1, t2) {
            continue;
        }
        let in_run: std::collections::HashSet<&str> =
            run.iter().map(|r| r.name.name.as_str()).collect();
        let overlapped = frags
            .iter()
            .any(|f| !in_run.contains(&f.name.name.as_str()) && f.name.t1 <= t2 && t1 <= f.name.t2);
        if !overlapped {
            return run;
        }
    }
    Vec::new()
}

/// A column of a read as the writer takes it.
fn to_write_column(c: crate::read::Column, n: usize) -> WriteResult<Column> {
    let (field, data, offsets, validity) = c.into_parts();
    let var = field.cell_val_num.is_none();
    let mut col = if var {
        let mut o = offsets.unwrap_or_default();
        o.pop();
        Column::var(field.name.clone(), data, o)
    } else {
        let cs = field.cell_size() as usize;
        if data.len() != n * cs {
            return Err(WriteError::cells(
                &field.name,
                format!("{} bytes read for {n} cells of {cs} bytes", data.len()),
            ));
        }
        Column::fixed(field.name.clone(), data)
    };
    if field.nullable {
        col.validity = Some(validity.unwrap_or_else(|| vec![1; n]));
    }
    Ok(col)
}

fn to_columns(cells: Cells) -> WriteResult<Vec<Column>> {
    let n = cells.len;
    cells
        .columns
        .into_iter()
        .map(|c| to_write_column(c, n))
        .collect()
}

/// The integer bounds of a dense fragment's non-empty domain.
fn int_rect(array: &Path, ned: &[DomainRange]) -> WriteResult<Vec<(i128, i128)>> {
    ned.iter()
        .map(|r| {
            Ok(match r {
                DomainRange::Int8(r) => (r.start.into(), r.end.into()),
                DomainRange::Int16(r) => (r.start.into(), r.end.into()),
                DomainRange::Int32(r) => (r.start.into(), r.end.into()),
                DomainRange::Int64(r) => (r.start.into(), r.end.into()),
                DomainRange::UInt8(r) => (r.start.into(), r.end.into()),
                DomainRange::UInt16(r) => (r.start.into(), r.end.into()),
                DomainRange::UInt32(r) => (r.start.into(), r.end.into()),
                DomainRange::UInt64(r) => (r.start.into(), r.end.into()),
                _ => return Err(array_err(array, "a dense dimension that is not an integer")),
            })
        })
        .collect()
}

/// Merges the committed fragments within `opts.timestamp` into one new
/// fragment and lists them for vacuuming (see the module documentation).
/// Fewer than two fragments to merge: nothing is done
/// ([`ConsolidateReport::written`] is `None`).
pub fn consolidate_fragments(
    array: &Path,
    opts: &ConsolidateOptions,
) -> WriteResult<ConsolidateReport> {
    consolidate(array, opts, Stop::NEVER)
}

/// [`consolidate_fragments`](super::consolidate_fragments) that stops right after `step`, as a crash
/// would, returning [`WriteError::Stopped`] (the crash-safety tests).
#[cfg(feature = "fail-points")]
pub fn consolidate_fragments_failing(
    array: &Path,
    opts: &ConsolidateOptions,
    step: Step,
) -> WriteResult<ConsolidateReport> {
    consolidate(array, opts, Stop { at: Some(step) })
}

fn consolidate(
    array: &Path,
    opts: &ConsolidateOptions,
    stop: Stop,
) -> WriteResult<ConsolidateReport> {
    let _lock = Lock::take(array)?;
    recover(array)?;
    match consolidate_locked(array, opts, stop, opts.with_timestamps)? {
        Some(report) => Ok(report),
        // The fragments could not be merged keeping timestamps.
        None => Ok(consolidate_locked(array, opts, stop, false)?.unwrap_or_default()),
    }
}

/// What one consolidation merges: the array, its options and the run of
/// fragments chosen.
struct Merging<'a> {
    array: &'a Path,
    opts: &'a ConsolidateOptions,
    ropts: ReadOptions,
    /// The names of the fragments of the run.
    names: std::collections::HashSet<&'a str>,
    /// The memory a read of the run's cells may take.
    budget: u64,
    /// The cells of the run (for progress).
    total: u64,
}

impl Merging<'_> {
    /// Whether `f` is one of the merged fragments.
    fn holds(&self, f: &crate::array::fragment::Fragment) -> bool {
        self.names.contains(f.name.name.as_str())
    }
}

/// What a merge of sparse fragments came to.
enum SparseMerge {
    /// A new fragment to commit; whether its cells were sorted.
    Written(Box<FragmentWriter>, bool),
    /// Every cell of the run is gone: nothing to write.
    Empty,
    /// Timestamps cannot be kept: consolidate again without.
    NeedsPlain,
}

/// One consolidation, the lock held. With `stamps` a sparse array of
/// version 15 or later is consolidated as the engine does it, keeping every
/// cell's timestamp (and delete metadata) across delete commits; `None`
/// when its fragments cannot be merged in order (then call again without).
fn consolidate_locked(
    array: &Path,
    opts: &ConsolidateOptions,
    stop: Stop,
    stamps: bool,
) -> WriteResult<Option<ConsolidateReport>> {
    let ropts = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    let dir = ArrayDirectory::open(array)?;
    let reader = ArrayReader::open(array, &ropts)?;
    let dense = reader.schema.array_type == ArrayType::Dense;
    let version = reader.schema.array_version;
    let stamps = stamps && !dense && has_consolidation_with_timestamps(version);
    let run = select(&dir, opts.timestamp, !stamps);
    if run.len() < 2 {
        return Ok(Some(ConsolidateReport::default()));
    }
    let t1 = run[0].name.t1;
    let t2 = run.iter().map(|f| f.name.t2).max().unwrap_or(t1);
    let names = run.iter().map(|f| f.name.name.as_str()).collect();
    let mut m = Merging {
        array,
        opts,
        ropts,
        names,
        budget: (opts.memory_budget / 2).max(1 << 20) as u64,
        total: 0,
    };
    m.total = reader
        .fragments
        .iter()
        .filter(|f| m.holds(f))
        .filter_map(|f| f.cell_num())
        .sum();

    let stamping = if stamps {
        match stamping(&m, &reader, version, t1)? {
            Some(s) => Some(s),
            None => return Ok(None),
        }
    } else {
        None
    };
    let wopts = write_options(opts, (t1, t2), stamping.as_ref());
    opts.progress
        .start("consolidating fragments", Some(m.total).filter(|t| *t > 0));
    let (writer, sorted) = if dense {
        (merge_dense(&m, reader, t2, wopts)?, false)
    } else {
        match merge_sparse(&m, reader, wopts, stamping.as_ref())? {
            SparseMerge::Written(w, sorted) => (*w, sorted),
            SparseMerge::Empty => {
                opts.progress.finish();
                return Ok(Some(ConsolidateReport::default()));
            }
            SparseMerge::NeedsPlain => return Ok(None),
        }
    };
    let report = commit(array, stop, writer, &run, sorted)?;
    opts.progress.finish();
    Ok(Some(report))
}

/// What a consolidation keeping timestamps keeps of each cell; `None` when
/// the run cannot be merged in order within the memory budget.
fn stamping(
    m: &Merging<'_>,
    reader: &ArrayReader,
    version: u32,
    t1: u64,
) -> WriteResult<Option<super::merge::Stamping>> {
    let mut merged = ArrayReader::open(m.array, &m.ropts)?;
    merged.fragments.retain(|f| m.holds(f));
    if !super::merge::applicable(&merged, m.opts.memory_budget as u64 / 4 * 3) {
        return Ok(None);
    }
    let conditions = reader.deletes()?;
    // Delete metadata when a delete falls at or after the first merged
    // fragment, or a merged fragment has some (fragment_consolidator.cc
    // `consolidate_internal`); purging, never.
    let delete_meta = !m.opts.purge_deleted_cells
        && has_deletes(version)
        && (conditions.iter().any(|d| d.t1 >= t1)
            || merged
                .fragments
                .iter()
                .any(|f| crate::read::sparse::special_fields(f).1));
    Ok(Some(super::merge::Stamping {
        conditions,
        purge: m.opts.purge_deleted_cells,
        delete_meta,
    }))
}

/// The options of the new fragment's writer: the run's time range, and
/// with `stamping` each cell's timestamp (and delete metadata).
fn write_options(
    opts: &ConsolidateOptions,
    range: (u64, u64),
    stamping: Option<&super::merge::Stamping>,
) -> WriteOptions {
    WriteOptions {
        timestamp_range: Some(range),
        encryption_key: opts.encryption_key,
        sort_memory: (opts.memory_budget / 2).max(1 << 20),
        pending_memory: (opts.memory_budget / 4).max(1 << 20),
        // Newer cells of a coordinate replace older ones.
        keep_last_duplicate: true,
        cell_timestamps: stamping.is_some(),
        delete_meta: stamping.is_some_and(|s| s.delete_meta),
        // Every delete and update commit, as the engine lists them in a
        // consolidated fragment (their effect is in its cells or delete
        // metadata).
        processed_conditions: match stamping {
            Some(s) => s
                .conditions
                .iter()
                .map(|d| format!("{}/{}", hierarchy::COMMITS, d.name))
                .collect(),
            None => Vec::new(),
        },
        ..WriteOptions::default()
    }
}

/// Dense fragments merged: the union rectangle of the run's non-empty
/// domains, written with the cells a reader sees in it at `t2`.
fn merge_dense(
    m: &Merging<'_>,
    reader: ArrayReader,
    t2: u64,
    wopts: WriteOptions,
) -> WriteResult<FragmentWriter> {
    let mut rect: Option<Vec<(i128, i128)>> = None;
    for f in reader.fragments.iter().filter(|f| m.holds(f)) {
        let ned = f
            .non_empty_domain()?
            .ok_or_else(|| array_err(&f.path, "a dense fragment without a non-empty domain"))?;
        let r = int_rect(m.array, &ned)?;
        rect = Some(match rect {
            None => r,
            Some(u) => u
                .iter()
                .zip(&r)
                .map(|(a, b)| (a.0.min(b.0), a.1.max(b.1)))
                .collect(),
        });
    }
    drop(reader);
    let rect = rect.unwrap_or_default();
    let reader = ArrayReader::open_at(m.array, Some((0, t2)), &m.ropts)?;
    let mut w = FragmentWriter::dense(m.array, &rect, wopts)?;
    let q = Query {
        subarray: Some(rect.iter().map(|r| Some(*r)).collect()),
        order: Some(Order::RowMajor),
        memory_budget: Some(m.budget),
        skip_coordinates: true,
        ..Query::default()
    };
    for b in reader.batches(&q)? {
        let cells = b?;
        let n = cells.len as u64;
        w.write(&to_columns(cells)?)?;
        m.opts.progress.advance(n);
    }
    Ok(w)
}

/// Sparse fragments merged: in global order when one tile of each fits the
/// budget (else, or when a fragment turns out not to be in that order,
/// read and sorted).
fn merge_sparse(
    m: &Merging<'_>,
    mut reader: ArrayReader,
    wopts: WriteOptions,
    stamping: Option<&super::merge::Stamping>,
) -> WriteResult<SparseMerge> {
    reader.fragments.retain(|f| m.holds(f));
    // The deletes keep applying to the new fragment as they did to the
    // merged ones: they are not applied here.
    reader.dir.deletes.clear();
    reader.dir.updates.clear();
    if super::merge::applicable(&reader, m.opts.memory_budget as u64 / 4 * 3) {
        let mut w = FragmentWriter::sparse_in_order(m.array, wopts.clone())?;
        match super::merge::merge(&reader, &mut w, stamping, &*m.opts.progress) {
            Ok(n) if n > 0 => return Ok(SparseMerge::Written(Box::new(w), false)),
            Ok(_) => {
                // Nothing to merge (every cell of the run is gone): leave it.
                w.abort();
                return Ok(SparseMerge::Empty);
            }
            // Keeping timestamps takes a merge.
            Err(WriteError::OutOfOrder { .. } | WriteError::Unsupported(_))
                if stamping.is_some() =>
            {
                w.abort();
                return Ok(SparseMerge::NeedsPlain);
            }
            // Out of order, or a fragment the merge cannot take: sorted
            // instead.
            Err(WriteError::OutOfOrder { .. } | WriteError::Unsupported(_)) => {
                w.abort();
                m.opts.progress.start(
                    "consolidating fragments (sorting)",
                    Some(m.total).filter(|t| *t > 0),
                );
            }
            Err(e) => return Err(e),
        }
    }
    let mut w = FragmentWriter::sparse(m.array, wopts)?;
    let q = Query {
        order: Some(Order::Unordered),
        memory_budget: Some(m.budget),
        ..Query::default()
    };
    let mut any = false;
    for b in reader.batches(&q)? {
        let cells = b?;
        let n = cells.len as u64;
        if n == 0 {
            continue;
        }
        any = true;
        w.write(&to_columns(cells)?)?;
        m.opts.progress.advance(n);
    }
    if !any {
        w.abort();
        return Ok(SparseMerge::Empty);
    }
    Ok(SparseMerge::Written(Box::new(w), true))
}

/// Commits the new fragment `writer` made of the fragments of `run`, with
/// its `.vac` file written first under a temporary name and renamed after
/// the commit (crash safety, see the module's documentation).
#[cfg_attr(not(feature = "fail-points"), allow(unused_variables, unused_mut))]
fn commit(
    array: &Path,
    stop: Stop,
    mut writer: FragmentWriter,
    run: &[&Entry],
    sorted: bool,
) -> WriteResult<ConsolidateReport> {
    let new_name = writer.name().to_string();
    let n = name::parse(&new_name)
        .ok_or_else(|| array_err(array, format!("unparsable new fragment name {new_name}")))?;
    let vac = vac_path(array, &n);
    let tmp = vac.with_file_name(format!("{new_name}{}{}", hierarchy::VAC, hierarchy::TMP));
    let contents = vac_contents(array, n.version, run)?;
    util::write_new_synced(&tmp, &contents)?;
    if let Some(p) = tmp.parent() {
        util::sync_dir(p)?;
    }
    let undo = |e: WriteError| {
        #[cfg(feature = "fail-points")]
        if matches!(e, WriteError::Stopped(_) | WriteError::Injected(_)) {
            return e;
        }
        let _ = std::fs::remove_file(&tmp);
        e
    };
    #[cfg(feature = "fail-points")]
    if let Err(e) = stop.check(Step::VacuumListWritten) {
        // As a crash: the writer's folder stays, uncommitted.
        writer.fail_after(crate::write::FailPoint::DataWritten);
        let _ = writer.finish();
        return Err(e);
    }
    #[cfg(feature = "fail-points")]
    if stop.at == Some(Step::FragmentWritten) {
        writer.fail_after(crate::write::FailPoint::FilesSynced);
        return match writer.finish() {
            Err(WriteError::Injected(_)) => Err(WriteError::Stopped(Step::FragmentWritten)),
            Err(e) => Err(undo(e)),
            Ok(_) => Err(WriteError::Stopped(Step::FragmentWritten)),
        };
    }
    let info = writer.finish().map_err(undo)?;
    checkpoint!(stop, Committed);
    util::rename_synced(&tmp, &vac)?;
    checkpoint!(stop, VacuumFileWritten);
    Ok(ConsolidateReport {
        written: Some(info.path),
        consolidated: run.iter().map(|f| f.path.clone()).collect(),
        sorted,
    })
}

/// Removes what the `.vac` files of fragment consolidations (within
/// `opts.timestamp`) list: for every listed fragment its commit marker,
/// then the fragment folders, then the `.vac` files, so that a reader never
/// sees fewer cells at any moment (a `.vac` file hides the fragments it
/// lists for as long as they exist). The report lists what went, in order;
/// with `dry_run`, what would go.
///
/// Fragments committed through a consolidated commits file (`.con`) have no
/// commit marker of their own to remove; the engine then writes an ignore
/// file (`.ign`) for their commits, which is the business of commit
/// consolidation and is not done here.
///
/// The fragment folders and temporary files that killed writes left
/// uncommitted are removed with the listed ones, once nothing in them has
/// changed for [`ABANDONED_AFTER`](super::ABANDONED_AFTER), whatever their names' timestamps (see
/// [`super::abandoned`]).
pub fn vacuum_fragments(array: &Path, opts: &VacuumOptions) -> WriteResult<VacuumReport> {
    vacuum(array, opts, Stop::NEVER)
}

/// [`vacuum_fragments`](super::vacuum_fragments) that stops right after `step`, as a crash would,
/// returning [`WriteError::Stopped`] (the crash-safety tests).
#[cfg(feature = "fail-points")]
pub fn vacuum_fragments_failing(
    array: &Path,
    opts: &VacuumOptions,
    step: Step,
) -> WriteResult<VacuumReport> {
    vacuum(array, opts, Stop { at: Some(step) })
}

#[cfg_attr(not(feature = "fail-points"), allow(unused_variables))]
fn vacuum(array: &Path, opts: &VacuumOptions, stop: Stop) -> WriteResult<VacuumReport> {
    let _lock = if opts.dry_run {
        None
    } else {
        let l = Lock::take(array)?;
        recover(array)?;
        Some(l)
    };
    let dir = ArrayDirectory::open(array)?;
    let mut commits = Vec::new();
    let mut folders = Vec::new();
    let mut vacs = Vec::new();
    for v in &dir.vacuum_files {
        let n = &v.name;
        if !opts.timestamp.contains(n.t1, n.t2) {
            continue;
        }
        let bytes = crate::storage::read_file(&v.path)?;
        let list: VacuumFile = decode_all(&bytes, &v.path, 0, ())?;
        for l in list.entries {
            let uri = String::from_utf8_lossy(&l.uri);
            let last = uri.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            let fname = name::parse(last)
                .filter(|f| f.name == last)
                .ok_or_else(|| {
                    array_err(
                        &v.path,
                        format!("the vacuum file lists {uri:?}, not a fragment"),
                    )
                })?;
            if fname.name == v.name.name {
                return Err(array_err(&v.path, "the vacuum file lists its own fragment"));
            }
            let (folder, commit) = fragment_paths(array, &fname);
            if commit.exists() {
                commits.push(commit);
            }
            if folder.exists() {
                folders.push(folder);
            }
        }
        vacs.push(v.path.clone());
    }
    // Fragments committed through a consolidated commits file (`.con`)
    // rather than a marker of their own: their commits are ignored from
    // now on (an `.ign` file), else readers would look for the removed
    // folders (array_directory.cc `write_commit_ignore_file`).
    let ignore = commits_to_ignore(&dir, &folders)?;
    folders.extend(super::abandoned::abandoned(
        &dir,
        opts,
        std::time::SystemTime::now(),
    ));
    let mut report = VacuumReport::default();
    let total = (commits.len() + folders.len() + vacs.len()) as u64;
    if opts.dry_run {
        report.removed = commits.into_iter().chain(folders).chain(vacs).collect();
        return Ok(report);
    }
    opts.progress.start("vacuuming fragments", Some(total));
    if let Some((t1, t2, lines)) = ignore {
        let name = util::timestamped_name(t1, t2, Some(crate::write::FORMAT_VERSION));
        let commits_dir = array.join(hierarchy::COMMITS);
        let path = commits_dir.join(format!("{name}{}", hierarchy::IGN));
        let tmp = commits_dir.join(format!("{name}{}{}", hierarchy::IGN, hierarchy::TMP));
        util::write_new_synced(&tmp, lines.as_bytes())?;
        util::rename_synced(&tmp, &path)?;
    }
    let mut synced = std::collections::BTreeSet::new();
    let mut sync_parents = |paths: &[PathBuf]| -> WriteResult<()> {
        synced.clear();
        for p in paths {
            if let Some(d) = p.parent() {
                synced.insert(d.to_path_buf());
            }
        }
        for d in &synced {
            util::sync_dir(d)?;
        }
        Ok(())
    };
    remove_all(&commits, |p| std::fs::remove_file(p), &*opts.progress)?;
    report.removed.extend(commits.iter().cloned());
    sync_parents(&commits)?;
    checkpoint!(stop, CommitsRemoved);
    // Folders, and the abandoned temporaries among them, which may be
    // files; one already gone (a writer's own cleanup) is no error.
    let remove = |p: &Path| match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(p),
        Ok(_) => std::fs::remove_file(p),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    };
    remove_all(&folders, remove, &*opts.progress)?;
    report.removed.extend(folders.iter().cloned());
    sync_parents(&folders)?;
    checkpoint!(stop, FoldersRemoved);
    for v in &vacs {
        std::fs::remove_file(v).map_err(|e| WriteError::io(v, e))?;
        crate::write::steps::durable("file removed")?;
        report.removed.push(v.clone());
        opts.progress.advance(1);
    }
    sync_parents(&vacs)?;
    checkpoint!(stop, VacuumFilesRemoved);
    opts.progress.finish();
    Ok(report)
}

/// Removes every path with `remove`, from several threads: removing
/// thousands of small files and folders waits on the disk far more than it
/// computes, and the waits overlap. The first failure is returned (the
/// other paths may or may not be gone).
fn remove_all(
    paths: &[PathBuf],
    remove: impl Fn(&Path) -> std::io::Result<()> + Sync,
    progress: &dyn crate::Progress,
) -> WriteResult<()> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    const THREADS: usize = 16;
    let next = AtomicUsize::new(0);
    let failed: std::sync::Mutex<Option<WriteError>> = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..THREADS.min(paths.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = paths.get(i) else { break };
                if let Err(e) = remove(p) {
                    let mut f = failed.lock().unwrap_or_else(|e| e.into_inner());
                    f.get_or_insert(WriteError::io(p, e));
                    // The others stop at their next path.
                    next.store(paths.len(), Ordering::Relaxed);
                    break;
                }
                let _ = crate::write::steps::durable("removed");
                progress.advance(1);
            });
        }
    });
    match failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The commits (`<name>.wrt`, relative to the array) that consolidated
/// commits files list, not yet ignored, of the fragment `folders` about to
/// be removed, with the first and last timestamps of their names; `None`
/// when there are none.
fn commits_to_ignore(
    dir: &ArrayDirectory,
    folders: &[PathBuf],
) -> WriteResult<Option<(u64, u64, String)>> {
    if dir.consolidated_commits.is_empty() || folders.is_empty() {
        return Ok(None);
    }
    let last = |uri: &[u8]| {
        String::from_utf8_lossy(uri)
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("")
            .to_string()
    };
    let mut ignored = std::collections::HashSet::new();
    for e in &dir.ignore_files {
        let bytes = crate::storage::read_file(&e.path)?;
        let f: IgnoreFile = decode_all(&bytes, &e.path, 0, ())?;
        ignored.extend(f.entries.iter().map(|l| last(&l.uri)));
    }
    // Each listed commit by name, with its entry as the file has it: the
    // engine matches ignore lines to entries as text.
    let mut listed = std::collections::HashMap::new();
    for e in &dir.consolidated_commits {
        let bytes = crate::storage::read_file(&e.path)?;
        let c: ConsolidatedCommits = decode_all(&bytes, &e.path, 0, ())?;
        for l in &c.entries {
            listed
                .entry(last(&l.uri))
                .or_insert_with(|| String::from_utf8_lossy(&l.uri).into_owned());
        }
    }
    let mut names: Vec<name::TimestampedName> = folders
        .iter()
        .filter_map(|f| name::parse(&f.file_name()?.to_string_lossy()))
        .filter(|n| has_commits_folder(n.version))
        .filter(|n| {
            let c = format!("{}{}", n.name, hierarchy::WRT);
            listed.contains_key(&c) && !ignored.contains(&c)
        })
        .collect();
    if names.is_empty() {
        return Ok(None);
    }
    names.sort_by(|a, b| (a.t1, a.t2, &a.name).cmp(&(b.t1, b.t2, &b.name)));
    let lines: String = names
        .iter()
        .map(|n| format!("{}\n", listed[&format!("{}{}", n.name, hierarchy::WRT)]))
        .collect();
    Ok(Some((names[0].t1, names[names.len() - 1].t2, lines)))
}
