//! Deletes, as the engine writes and performs them.
//!
//! - [`delete_cells`]: a delete commit (format_spec/delete_commit_file.md),
//!   `__commits/<timestamped name>.del`, a generic tile holding the
//!   serialized *negation* of the condition (the cells to keep), as
//!   `DeletesAndUpdates::dowork` writes it
//!   (tiledb/sm/query/deletes_and_updates). Readers drop the cells written
//!   at or before the delete's timestamp that match the condition; cells
//!   written later are not affected.
//! - [`delete_fragments`]: removes the fragments whose timestamps lie
//!   within a range, as `Array::delete_fragments` does
//!   (tiledb/sm/array/array.cc; TileDB-Py's
//!   `tiledb.Array.delete_fragments(uri, t1, t2)`).

use std::path::{Path, PathBuf};

use super::{TimeRange, VacuumReport};
use crate::array::name::TimestampedName;
use crate::array::ArrayDirectory;
use crate::format::hierarchy;
use crate::format::version::{
    has_commits_folder, has_consolidation_with_timestamps, has_deletes, DELETES_SINCE,
};
use crate::format::{
    decode_all, ArrayType, ConditionNode, ConditionNodeBody, ConsolidatedCommits, IgnoreFile,
    QueryConditionOp, VacuumFile,
};
use crate::read::query_condition::serialized::{negated, serialize};
use crate::read::query_condition::QueryCondition;
use crate::read::ArrayReader;
use crate::write::generic::generic_tile;
use crate::write::{util, WriteError, WriteResult};
use crate::ReadOptions;

/// How to write a delete.
#[derive(Clone, Copy, Default)]
#[non_exhaustive]
pub struct DeleteOptions {
    /// The delete's timestamp in milliseconds: it deletes the cells written
    /// at or before it (default: now, and later than every fragment and
    /// commit already there, so that it never falls within the millisecond
    /// of an earlier write).
    pub timestamp: Option<u64>,
    /// The key of an AES-256-GCM encrypted array: the schema is read with
    /// it and the delete commit is an encrypted generic tile, as the engine
    /// writes it.
    pub encryption_key: Option<[u8; 32]>,
}

impl std::fmt::Debug for DeleteOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("DeleteOptions")
            .field("timestamp", &self.timestamp)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

fn refused(array: &Path, what: impl Into<String>) -> WriteError {
    WriteError::Array {
        path: array.to_path_buf(),
        what: what.into(),
    }
}

/// A condition error of the reader as the writer's.
fn condition_error(e: crate::error::Error) -> WriteError {
    match e {
        crate::error::Error::Condition { text, what } => WriteError::Condition { text, what },
        other => WriteError::Read(other),
    }
}

/// Deletes the cells of the sparse array at `array` for which `condition`
/// holds (TileDB-Py's `query(cond=...)` syntax, parsed with
/// [`QueryCondition::parse`]), as the engine's delete query does: writes
/// one delete commit, atomically, and returns its path.
///
/// Refused, with nothing written, as the engine refuses them: dense
/// arrays, arrays older than format version 16, conditions that do not fit
/// the schema (unknown fields, values of the wrong type, `<` on an
/// unordered enumeration, fields conditions cannot compare), conditions
/// whose rewrite for the schema holds always or never (a null test of a
/// field that cannot be null, a label its enumeration lacks: the engine
/// cannot negate those), and a timestamp within the time range of a
/// fragment consolidated without timestamps (format versions before 15,
/// or a fragment this crate consolidated without them).
///
/// Also refused, though the engine writes them: null tests, and `in`/`not
/// in` lists of which no label is in the enumeration. TileDB 2.30 cannot
/// read its own delete commits of those back (the null flag is not
/// serialized; an empty set does not deserialize), so such a commit would
/// make the array unreadable to it.
pub fn delete_cells(
    array: &Path,
    condition: &QueryCondition,
    opts: &DeleteOptions,
) -> WriteResult<PathBuf> {
    let read_opts = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    let reader = ArrayReader::open(array, &read_opts)?;
    let schema = &reader.schema;
    if schema.array_type != ArrayType::Sparse {
        return Err(refused(
            array,
            "deletes are only supported for sparse arrays (the engine refuses them on dense arrays)",
        ));
    }
    let version = schema.array_version;
    if !has_deletes(version) {
        return Err(refused(
            array,
            format!(
                "the array's format version ({version}) is older than the oldest that takes \
                 deletes ({DELETES_SINCE})"
            ),
        ));
    }
    let tree = condition.engine_tree(&reader).map_err(condition_error)?;
    let refuse = |what: String| WriteError::Condition {
        text: condition.text().to_string(),
        what,
    };
    // Two conditions the engine writes into a delete commit that it then
    // fails to read (TileDB 2.30): the commit would make the array
    // unreadable to it.
    if let Some(f) = condition.null_tested_fields().first() {
        return Err(refuse(format!(
            "a delete cannot test {f} for null: the engine serializes a null test without \
             its null flag, as a comparison with an empty value, and then refuses to read \
             the array (a fixed-size field: \"value size mismatch\") or compares with the \
             empty string (a var-sized one)"
        )));
    }
    if let Some(f) = empty_set(&tree) {
        return Err(refuse(format!(
            "none of the values of the `in`/`not in` list of {f} is a label of its \
             enumeration; the engine writes such a delete and then refuses to read the array \
             (\"set membership data size must be greater than zero\")"
        )));
    }
    let stored = negated(&tree).map_err(|e| refuse(e.0))?;

    let commits = array.join(hierarchy::COMMITS);
    let t = util::next_timestamp(
        opts.timestamp,
        &[commits.clone(), array.join(hierarchy::FRAGMENTS)],
    )?;
    // `DeletesAndUpdates::dowork`: the cells of a fragment consolidated
    // without timestamps all carry its first timestamp, so a delete within
    // its range would delete some of them and not others.
    // Also a newer one that this crate consolidated without timestamps
    // (`ConsolidateOptions::with_timestamps` off, or fragments it could not
    // merge in order), when the delete falls before its end.
    let without_timestamps = reader.fragments.iter().filter(|f| {
        let n = &f.name;
        has_consolidation_with_timestamps(n.version)
            && n.t1 <= t
            && t < n.t2
            && !crate::read::sparse::special_fields(f).0
    });
    if let Some(f) = reader
        .dir
        .fragments
        .iter()
        .filter(|f| {
            !has_consolidation_with_timestamps(f.name.version) && f.name.t1 <= t && t <= f.name.t2
        })
        .map(|f| &f.path)
        .chain(without_timestamps.map(|f| &f.path))
        .next()
    {
        return Err(refused(
            array,
            format!(
                "cannot write a delete at {t}, within the time range of {}, a fragment \
                 consolidated without timestamps",
                f.display()
            ),
        ));
    }

    // The engine names the commit with the schema's write version (which,
    // from version 16 on, is the schema's version) and writes the generic
    // tile's header with its own format version.
    let name = format!(
        "{}{}",
        util::timestamped_name(t, t, Some(version)),
        hierarchy::DEL
    );
    let tile_version = version.clamp(
        crate::write::FORMAT_VERSION,
        crate::write::MAX_WRITE_VERSION,
    );
    let bytes = generic_tile(&serialize(&stored)?, tile_version, opts.encryption_key)?;
    let created = !commits.is_dir();
    util::create_dir(&commits)?;
    if created {
        util::sync_dir(array)?;
    }
    // Written under a name readers skip (neither the engine nor this crate
    // looks at `.tmp` files in `__commits`), then renamed: a reader never
    // sees half a delete.
    let tmp = commits.join(format!("{name}.tmp"));
    util::write_new_synced(&tmp, &bytes)?;
    let path = commits.join(&name);
    if let Err(e) = util::rename_synced(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(path)
}

/// The field of the first set membership node of `node` that has no
/// members left (an enumerated attribute's list of labels its enumeration
/// lacks).
fn empty_set(node: &ConditionNode) -> Option<String> {
    match &node.body {
        ConditionNodeBody::Expression(e) => e.children.iter().find_map(empty_set),
        ConditionNodeBody::Value(v) => {
            let set = matches!(
                v.op.known(),
                Some(QueryConditionOp::In | QueryConditionOp::NotIn)
            );
            (set && v.value.is_empty()).then(|| String::from_utf8_lossy(&v.field_name).into_owned())
        }
        _ => None,
    }
}

/// A committed fragment as `delete_fragments` sees it.
struct Committed {
    folder: PathBuf,
    name: TimestampedName,
    /// Its commit marker (`__commits/<name>.wrt`, or `<name>.ok` before
    /// version 12), which may exist or not (a commit held only by a
    /// consolidated commits file).
    commit: PathBuf,
    /// The commit as consolidated commits and ignore files name it,
    /// relative to the array.
    commit_line: String,
}

fn io(path: &Path, e: std::io::Error) -> WriteError {
    WriteError::Io {
        path: path.to_path_buf(),
        source: e,
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// The last part of a name in a consolidated commits, ignore or vacuum
/// file (a URI, a path or a bare name).
fn last_part(uri: &[u8]) -> String {
    let s = String::from_utf8_lossy(uri);
    s.trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Removes the fragments of the array at `array` whose timestamps lie
/// within `range`, as the engine's `Array::delete_fragments` does, and
/// returns what was removed (with `dry_run`, what would be: nothing is
/// written or removed).
///
/// In the engine's order, so that a reader never sees a half-deleted
/// fragment: first an ignore file (`__commits/<name>.ign`) naming the
/// commits of these fragments that consolidated commits files (`.con`)
/// hold, then for each fragment its commit marker, and only then its
/// folder (uncommitted, a reader no longer looks at it). As the engine, it
/// leaves out fragments that a vacuum file within the range lists (they
/// are already superseded), and leaves delete commits, vacuum files and
/// consolidated fragment metadata alone.
pub fn delete_fragments(
    array: &Path,
    range: TimeRange,
    dry_run: bool,
) -> WriteResult<VacuumReport> {
    let dir = ArrayDirectory::open(array)?;
    if dir.schemas.is_empty() && dir.legacy_schema.is_none() {
        return Err(refused(array, "not an array (it has no schema)"));
    }
    let commits_dir = array.join(hierarchy::COMMITS);

    // The commits that consolidated commits files hold, less ignored ones.
    let mut ignored = std::collections::HashSet::new();
    for ign in &dir.ignore_files {
        let f = dir.storage.open(&ign.path)?;
        let lines: IgnoreFile = decode_all(f.bytes(), &ign.path, 0, ())?;
        ignored.extend(lines.entries.into_iter().map(|l| l.uri));
    }
    let mut consolidated = std::collections::HashSet::new();
    for con in &dir.consolidated_commits {
        let f = dir.storage.open(&con.path)?;
        let c: ConsolidatedCommits = decode_all(f.bytes(), &con.path, 0, ())?;
        for e in c.entries {
            if !ignored.contains(&e.uri) {
                consolidated.insert(last_part(&e.uri));
            }
        }
    }

    // Every committed fragment, also those vacuum files list (the reader's
    // `dir.fragments` leaves them out; the engine takes them unless a
    // vacuum file within the range lists them).
    let mut fragments: Vec<Committed> = Vec::new();
    for f in dir.fragments.iter().map(|f| (&f.path, &f.name)) {
        fragments.push(committed(array, &commits_dir, f.0, f.1));
    }
    let vacuumed_candidates = superseded_fragments(array, &dir, &commits_dir, &consolidated)?;
    fragments.extend(vacuumed_candidates);

    // Fragments within the range, less those a vacuum file within the
    // range lists.
    let mut listed = std::collections::HashSet::new();
    for vac in &dir.vacuum_files {
        if !range.contains(vac.name.t1, vac.name.t2) {
            continue;
        }
        let f = dir.storage.open(&vac.path)?;
        let v: VacuumFile = decode_all(f.bytes(), &vac.path, 0, ())?;
        listed.extend(v.entries.iter().map(|l| last_part(&l.uri)));
    }
    let mut doomed: Vec<Committed> = fragments
        .into_iter()
        .filter(|f| range.contains(f.name.t1, f.name.t2) && !listed.contains(&f.name.name))
        .collect();
    doomed.sort_by(|a, b| {
        (a.name.t1, a.name.t2, &a.name.name).cmp(&(b.name.t1, b.name.t2, &b.name.name))
    });

    let mut report = VacuumReport::default();
    let to_ignore: Vec<&Committed> = doomed
        .iter()
        .filter(|f| consolidated.contains(&file_name(&f.commit)))
        .collect();
    if !to_ignore.is_empty() && !dry_run {
        write_ignore_file(&commits_dir, &to_ignore)?;
    }
    for f in &doomed {
        if f.commit.is_file() {
            if !dry_run {
                std::fs::remove_file(&f.commit).map_err(|e| io(&f.commit, e))?;
                if let Some(parent) = f.commit.parent() {
                    util::sync_dir(parent)?;
                }
                crate::write::steps::durable("commit removed")?;
            }
            report.removed.push(f.commit.clone());
        }
        if !dry_run {
            std::fs::remove_dir_all(&f.folder).map_err(|e| io(&f.folder, e))?;
            if let Some(parent) = f.folder.parent() {
                util::sync_dir(parent)?;
            }
            crate::write::steps::durable("folder removed")?;
        }
        report.removed.push(f.folder.clone());
    }
    Ok(report)
}

fn committed(array: &Path, commits_dir: &Path, folder: &Path, name: &TimestampedName) -> Committed {
    let (commit, commit_line) = if has_commits_folder(name.version) {
        let n = format!("{}{}", name.name, hierarchy::WRT);
        (commits_dir.join(&n), format!("{}/{n}", hierarchy::COMMITS))
    } else {
        let n = format!("{}{}", name.name, hierarchy::OK);
        (array.join(&n), n)
    };
    Committed {
        folder: folder.to_path_buf(),
        name: name.clone(),
        commit,
        commit_line,
    }
}

/// The committed fragments that vacuum files list (which the reader's
/// directory leaves out): fragment folders with a commit marker, or whose
/// commit a consolidated commits file holds.
fn superseded_fragments(
    array: &Path,
    dir: &ArrayDirectory,
    commits_dir: &Path,
    consolidated: &std::collections::HashSet<String>,
) -> WriteResult<Vec<Committed>> {
    let known: std::collections::HashSet<&Path> = dir
        .fragments
        .iter()
        .map(|f| f.path.as_path())
        .chain(dir.uncommitted.iter().map(PathBuf::as_path))
        .collect();
    let mut out = Vec::new();
    for folder in [array.join(hierarchy::FRAGMENTS), array.to_path_buf()] {
        let Ok(rd) = std::fs::read_dir(&folder) else {
            continue;
        };
        for e in rd {
            let e = e.map_err(|e| io(&folder, e))?;
            let p = e.path();
            if !p.is_dir() || known.contains(p.as_path()) {
                continue;
            }
            let Some(name) = crate::array::name::parse(&file_name(&p)) else {
                continue;
            };
            let c = committed(array, commits_dir, &p, &name);
            if c.commit.is_file() || consolidated.contains(&file_name(&c.commit)) {
                out.push(c);
            }
        }
    }
    Ok(out)
}

/// `ArrayDirectory::write_commit_ignore_file`: the commits, one a line,
/// relative to the array, in a file named from the first one's first
/// timestamp to the last one's last; written under a temporary name and
/// renamed.
fn write_ignore_file(commits_dir: &Path, commits: &[&Committed]) -> WriteResult<PathBuf> {
    let t1 = commits.first().map_or(0, |c| c.name.t1);
    let t2 = commits.last().map_or(0, |c| c.name.t2);
    let name = format!(
        "{}{}",
        util::timestamped_name(t1, t2, Some(crate::write::FORMAT_VERSION)),
        hierarchy::IGN
    );
    let mut text = String::new();
    for c in commits {
        text.push_str(&c.commit_line);
        text.push('\n');
    }
    util::create_dir(commits_dir)?;
    let tmp = commits_dir.join(format!("{name}.tmp"));
    util::write_new_synced(&tmp, text.as_bytes())?;
    let path = commits_dir.join(&name);
    if let Err(e) = util::rename_synced(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(path)
}
