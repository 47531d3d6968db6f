//! Array maintenance, as the engine does it: consolidation, vacuuming,
//! deletes, schema evolution, array metadata and groups.
//!
//! Every operation writes what the engine writes (the same files, names and
//! layouts), so the engine reads the result as it would read its own, and
//! each one commits atomically: a reader, or a process that stops at any
//! step, never sees a half-done change.
//!
//! Every function returns the facade's [`Error`](crate::Error). Groups
//! and metadata of arrays and groups are in [`create_group`],
//! [`add_members`], [`put_metadata`] and their neighbours.

use std::path::{Path, PathBuf};

pub(crate) mod abandoned;
pub(crate) mod array_meta;
pub(crate) mod commits;
pub(crate) mod delete;
pub(crate) mod evolve;
pub(crate) mod fragment_meta;
pub(crate) mod fragments;
pub(crate) mod group;
mod merge;
pub(crate) mod meta;
mod meta_files;
mod objects;

pub use abandoned::ABANDONED_AFTER;
pub use delete::DeleteOptions;
pub use evolve::{EvolveOptions, SchemaEvolution};
pub use group::NewMember;
pub use meta::{parse_datatype, parse_metadata_value};
pub use objects::{
    add_member, add_members, create_group, delete_metadata, group_members, member_path,
    object_type, put_metadata, read_metadata, remove_member, GroupMember, MetadataOptions,
    ObjectKind,
};

use crate::model::Schema;
use crate::progress::{NoProgress, Progress};
use crate::read::query_condition::QueryCondition;
use crate::{ReadOptions, Result};

/// The crash-safety tests' hooks (feature `fail-points` only, never in a
/// release): the maintenance operations stopped right after one of their
/// durable steps, as a crash there would stop them. Not part of the API.
#[cfg(feature = "fail-points")]
#[doc(hidden)]
pub mod fail_points {
    pub use super::array_meta::{
        consolidate_array_meta_stopping_after, vacuum_array_meta_stopping_after,
    };
    pub use super::commits::{consolidate_commits_stopping_after, vacuum_commits_stopping_after};
    pub use super::fragment_meta::{
        consolidate_fragment_meta_stopping_after, vacuum_fragment_meta_stopping_after,
    };
    pub use super::fragments::{consolidate_fragments_failing, vacuum_fragments_failing};
}

/// What to consolidate or vacuum, as the engine's `sm.consolidation.mode`
/// and `sm.vacuum.mode` name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Fragments merged into one ([`consolidate_fragments`],
    /// [`vacuum_fragments`]).
    #[default]
    Fragments,
    /// The fragments' footers gathered in one `.meta` file
    /// ([`consolidate_fragment_meta`], [`vacuum_fragment_meta`]).
    FragmentMeta,
    /// The commit files gathered in one `.con` file ([`consolidate_commits`],
    /// [`vacuum_commits`]).
    Commits,
    /// The array metadata files merged into one ([`consolidate_array_meta`],
    /// [`vacuum_array_meta`]).
    ArrayMeta,
}

impl std::str::FromStr for Mode {
    type Err = String;

    /// The engine's names: `fragments`, `fragment_meta`, `commits`,
    /// `array_meta`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fragments" => Ok(Mode::Fragments),
            "fragment_meta" => Ok(Mode::FragmentMeta),
            "commits" => Ok(Mode::Commits),
            "array_meta" => Ok(Mode::ArrayMeta),
            _ => Err(format!(
                "unknown mode {s:?} (fragments, fragment_meta, commits or array_meta)"
            )),
        }
    }
}

/// Consolidates what `mode` names in the array at `array`.
pub fn consolidate(
    array: &Path,
    mode: Mode,
    opts: &ConsolidateOptions,
) -> Result<ConsolidateReport> {
    match mode {
        Mode::Fragments => consolidate_fragments(array, opts),
        Mode::FragmentMeta => consolidate_fragment_meta(array, opts),
        Mode::Commits => consolidate_commits(array, opts),
        Mode::ArrayMeta => consolidate_array_meta(array, opts),
    }
}

/// Removes what consolidations of `mode` superseded in the array at
/// `array` (with `opts.dry_run`: lists it).
pub fn vacuum(array: &Path, mode: Mode, opts: &VacuumOptions) -> Result<VacuumReport> {
    match mode {
        Mode::Fragments => vacuum_fragments(array, opts),
        Mode::FragmentMeta => vacuum_fragment_meta(array, opts),
        Mode::Commits => vacuum_commits(array, opts),
        Mode::ArrayMeta => vacuum_array_meta(array, opts),
    }
}

/// Merges the committed fragments of the array at `array` within
/// `opts.timestamp` into one new fragment and lists them for vacuuming, as
/// the engine's fragment consolidation. Fewer than two fragments to merge:
/// nothing is done ([`ConsolidateReport::written`] is `None`).
pub fn consolidate_fragments(array: &Path, opts: &ConsolidateOptions) -> Result<ConsolidateReport> {
    Ok(fragments::consolidate_fragments(array, opts)?)
}

/// Removes the fragments that fragment consolidations within
/// `opts.timestamp` superseded (commit markers first, then the folders,
/// then the vacuum files), and uncommitted work that killed writers left
/// once it is unchanged for `opts.abandoned_after`.
pub fn vacuum_fragments(array: &Path, opts: &VacuumOptions) -> Result<VacuumReport> {
    Ok(fragments::vacuum_fragments(array, opts)?)
}

/// Gathers the footers of the array's fragments within `opts.timestamp`
/// in one consolidated fragment metadata file (`__fragment_meta/*.meta`).
pub fn consolidate_fragment_meta(
    array: &Path,
    opts: &ConsolidateOptions,
) -> Result<ConsolidateReport> {
    Ok(fragment_meta::consolidate_fragment_meta(array, opts)?)
}

/// Removes the consolidated fragment metadata files that a later one
/// supersedes.
pub fn vacuum_fragment_meta(array: &Path, opts: &VacuumOptions) -> Result<VacuumReport> {
    Ok(fragment_meta::vacuum_fragment_meta(array, opts)?)
}

/// Gathers the commit files of the array within `opts.timestamp` in one
/// `.con` file of `__commits`.
pub fn consolidate_commits(array: &Path, opts: &ConsolidateOptions) -> Result<ConsolidateReport> {
    Ok(commits::consolidate_commits(array, opts)?)
}

/// Removes the commit files that consolidated commit files hold.
pub fn vacuum_commits(array: &Path, opts: &VacuumOptions) -> Result<VacuumReport> {
    Ok(commits::vacuum_commits(array, opts)?)
}

/// Consolidates the metadata of the array or group at `folder` (the files
/// within `opts.timestamp`) into one file, and writes the vacuum file
/// listing the files it supersedes. With fewer than two files nothing is
/// written, as the engine.
pub fn consolidate_array_meta(
    folder: &Path,
    opts: &ConsolidateOptions,
) -> Result<ConsolidateReport> {
    Ok(array_meta::consolidate_array_meta(folder, opts)?)
}

/// Removes the metadata files of the array or group at `folder` that
/// consolidations within `opts.timestamp` superseded.
pub fn vacuum_array_meta(folder: &Path, opts: &VacuumOptions) -> Result<VacuumReport> {
    Ok(array_meta::vacuum_array_meta(folder, opts)?)
}

/// Deletes the cells of the array at `array` that `condition` selects, as
/// the engine does: a delete commit that reads from then on apply; returns
/// its path. Conditions the engine cannot negate or read back are refused,
/// with nothing written.
pub fn delete_cells(
    array: &Path,
    condition: &QueryCondition,
    opts: &DeleteOptions,
) -> Result<PathBuf> {
    Ok(delete::delete_cells(array, condition, opts)?)
}

/// Deletes the fragments of the array at `array` written within `range`
/// (with `dry_run`: lists them), as the engine's `delete_fragments`:
/// commit markers first, then the folders.
pub fn delete_fragments(array: &Path, range: TimeRange, dry_run: bool) -> Result<VacuumReport> {
    Ok(delete::delete_fragments(array, range, dry_run)?)
}

/// Evolves the schema of the array at `array`: writes the new schema file
/// (and the files of added and extended enumerations) and returns its
/// path. A change the engine refuses is refused here (an
/// [`Error::Schema`](crate::Error::Schema)), and then nothing is written.
pub fn evolve(array: &Path, evolution: &SchemaEvolution, opts: &EvolveOptions) -> Result<PathBuf> {
    Ok(evolve::evolve(array, evolution, opts)?)
}

/// `schema` with `evolution` applied, checked as [`evolve`] checks it;
/// nothing is written.
pub fn evolve_schema(schema: &Schema, evolution: &SchemaEvolution) -> Result<Schema> {
    Ok(evolve::evolve_schema(schema, evolution)?)
}

/// The latest schema of the array at `array`, with its enumerations' values.
pub fn latest_schema(array: &Path, opts: &ReadOptions) -> Result<Schema> {
    Ok(evolve::latest_schema(array, opts)?)
}

/// A time range in milliseconds since 1970, both ends inclusive, as the
/// engine's `sm.consolidation.timestamp_start`/`timestamp_end` and
/// `delete_fragments` take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TimeRange {
    /// The first millisecond.
    pub start: u64,
    /// The last millisecond.
    pub end: u64,
}

impl TimeRange {
    /// The milliseconds `start` to `end`, both included.
    pub fn new(start: u64, end: u64) -> Self {
        TimeRange { start, end }
    }
}

impl TimeRange {
    /// Every time.
    pub const ALL: TimeRange = TimeRange {
        start: 0,
        end: u64::MAX,
    };

    /// Whether `[t1, t2]` (a fragment's or file's timestamps) lies within
    /// this range.
    pub fn contains(&self, t1: u64, t2: u64) -> bool {
        self.start <= t1 && t2 <= self.end
    }
}

impl std::str::FromStr for TimeRange {
    type Err = String;

    /// `T1:T2`, either end may be empty (`:T2`, `T1:`); a single `T` is `T:T`.
    fn from_str(s: &str) -> Result<Self, String> {
        let num = |p: &str, default: u64| -> Result<u64, String> {
            if p.is_empty() {
                Ok(default)
            } else {
                p.trim()
                    .parse()
                    .map_err(|_| format!("{p:?} is not a time in milliseconds"))
            }
        };
        let r = match s.split_once(':') {
            Some((a, b)) => TimeRange {
                start: num(a, 0)?,
                end: num(b, u64::MAX)?,
            },
            None => {
                let t = num(s, 0)?;
                TimeRange { start: t, end: t }
            }
        };
        if r.start > r.end {
            return Err(format!("the range {s:?} ends before it starts"));
        }
        Ok(r)
    }
}

/// How to consolidate (every mode; a mode ignores what does not concern it).
#[derive(Clone)]
#[non_exhaustive]
pub struct ConsolidateOptions {
    /// Only what lies within this time range is consolidated (default: all).
    pub timestamp: TimeRange,
    /// Bytes of cells held in memory at once (fragment consolidation):
    /// consolidating many fragments streams through this budget.
    pub memory_budget: usize,
    /// The key of an AES-256-GCM encrypted array.
    pub encryption_key: Option<[u8; 32]>,
    /// Fragment consolidation of sparse arrays: the cells that deletes
    /// removed are left out of the new fragment, rather than kept with the
    /// time of their delete (the engine's
    /// `sm.consolidation.purge_deleted_cells`). Reads from then on are
    /// the same, but reads at earlier times no longer see them.
    pub purge_deleted_cells: bool,
    /// Fragment consolidation of sparse arrays of format version 15 and
    /// later: the new fragment keeps every cell with its write timestamp
    /// (and the time of its delete), across delete commits, as the engine
    /// always consolidates them (default). `false`: the newest cell of each
    /// coordinate only, and never across a delete, as before version 15.
    pub with_timestamps: bool,
    /// Where progress goes (default: nowhere).
    pub progress: std::sync::Arc<dyn Progress>,
}

impl Default for ConsolidateOptions {
    fn default() -> Self {
        ConsolidateOptions {
            timestamp: TimeRange::ALL,
            memory_budget: 256 << 20,
            encryption_key: None,
            purge_deleted_cells: false,
            with_timestamps: true,
            progress: std::sync::Arc::new(NoProgress),
        }
    }
}

impl std::fmt::Debug for ConsolidateOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("ConsolidateOptions")
            .field("timestamp", &self.timestamp)
            .field("memory_budget", &self.memory_budget)
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .field("purge_deleted_cells", &self.purge_deleted_cells)
            .field("with_timestamps", &self.with_timestamps)
            .finish_non_exhaustive()
    }
}

/// What a consolidation did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConsolidateReport {
    /// The file or fragment folder written (none when there was nothing to
    /// consolidate).
    pub written: Option<std::path::PathBuf>,
    /// What it supersedes (fragments, files), now listed for vacuuming.
    pub consolidated: Vec<std::path::PathBuf>,
    /// Sparse fragments: whether their cells were read and sorted, rather
    /// than merged as they lie in global order (which needs one tile of
    /// every fragment within the memory budget).
    pub sorted: bool,
}

/// How to vacuum.
#[derive(Clone)]
#[non_exhaustive]
pub struct VacuumOptions {
    /// Only what was consolidated within this time range is removed.
    pub timestamp: TimeRange,
    /// List what would be removed, remove nothing.
    pub dry_run: bool,
    /// Uncommitted work unchanged for this long is taken for abandoned
    /// and removed (default [`ABANDONED_AFTER`]).
    pub abandoned_after: std::time::Duration,
    /// Where progress goes (default: nowhere).
    pub progress: std::sync::Arc<dyn Progress>,
}

impl Default for VacuumOptions {
    fn default() -> Self {
        VacuumOptions {
            timestamp: TimeRange::ALL,
            dry_run: false,
            abandoned_after: ABANDONED_AFTER,
            progress: std::sync::Arc::new(NoProgress),
        }
    }
}

impl std::fmt::Debug for VacuumOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VacuumOptions")
            .field("timestamp", &self.timestamp)
            .field("dry_run", &self.dry_run)
            .field("abandoned_after", &self.abandoned_after)
            .finish_non_exhaustive()
    }
}

/// What a vacuum removed (or, dry, would remove), in the order of removal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct VacuumReport {
    /// Files and folders removed.
    pub removed: Vec<std::path::PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::TimeRange;

    #[test]
    fn time_ranges_parse() {
        assert_eq!("1:5".parse(), Ok(TimeRange { start: 1, end: 5 }));
        assert_eq!("7".parse(), Ok(TimeRange { start: 7, end: 7 }));
        assert_eq!(":5".parse(), Ok(TimeRange { start: 0, end: 5 }));
        assert_eq!(
            "3:".parse(),
            Ok(TimeRange {
                start: 3,
                end: u64::MAX
            })
        );
        assert!("5:1".parse::<TimeRange>().is_err());
        assert!("x:1".parse::<TimeRange>().is_err());
        assert!(TimeRange { start: 1, end: 5 }.contains(1, 5));
        assert!(!TimeRange { start: 1, end: 5 }.contains(1, 6));
    }
}
