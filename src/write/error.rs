//! Errors of the writer: they name the schema field, the input line and
//! field, or the file that could not be written. A failure to read the
//! existing array is the reader's [`crate::error::Error`], wrapped whole
//! ([`WriteError::Read`]), so its file, offset, table and field stay
//! typed; see [`crate::error`] for why writing keeps an error of its own.

use std::path::PathBuf;

/// Why a write failed. New kinds of failure may be added: match with a
/// wildcard arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The schema JSON is not a schema this crate can write; `field` is a
    /// path into the JSON (`attributes[1].filters[0].type`).
    #[error("schema: {field}: {what}")]
    Schema {
        /// Path into the schema JSON.
        field: String,
        /// What is wrong there.
        what: String,
    },
    /// A cell of the input is not valid for the schema; `line` counts from 1
    /// (for CSV, the header is line 1); 0 when no one line is at fault (the
    /// cells of a dense import leave a hole). `field` is empty when the
    /// line as a whole is wrong (malformed JSON, a wrong field count).
    #[error("{}", input_message(*line, field, what))]
    Input {
        /// Input line, from 1; 0 when no one line is at fault.
        line: u64,
        /// The field (column) of the line; empty for the line as a whole.
        field: String,
        /// What is wrong with it.
        what: String,
    },
    /// Cells handed to a [`super::FragmentWriter`] do not fit the schema.
    #[error("cells: {field}: {what}")]
    Cells {
        /// The attribute or dimension.
        field: String,
        /// What does not fit.
        what: String,
    },
    /// A writer that takes cells in global order
    /// ([`super::FragmentWriter::sparse_in_order`]) was given a cell that
    /// comes before the one given before it.
    #[error("cells: cell {cell} comes before the cell given before it in the global order")]
    OutOfOrder {
        /// The cell's index among the cells given to the writer.
        cell: u64,
    },
    /// The array already exists (create) or does not exist (write).
    #[error("{}: {what}", path.display())]
    Array {
        /// The array's folder.
        path: PathBuf,
        /// What is wrong with it.
        what: String,
    },
    /// A group change the engine would refuse, or that would harm the group
    /// (a duplicate member name, a member that does not exist, removing a
    /// non-member); nothing was written.
    #[error("{}: {what}", path.display())]
    Group {
        /// The group's folder.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A file could not be written, synced or renamed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A filter could not filter a tile forward.
    #[error("field {field}: filter {filter}: {what}")]
    Filter {
        /// The attribute or dimension whose tile it was (`generic tile`
        /// for a generic tile).
        field: String,
        /// The filter, as TileDB names it.
        filter: &'static str,
        /// What went wrong (for a filter this build leaves out, which
        /// Cargo feature it needs).
        what: String,
    },
    /// A condition (of a delete) that does not fit the array, or that the
    /// engine would refuse for it.
    #[error("condition {}: {what}", crate::error::condition_excerpt(text))]
    Condition {
        /// The condition's text.
        text: String,
        /// What is wrong with it.
        what: String,
    },
    /// A schema evolution the engine refuses (`maintain::evolve`); nothing
    /// was written.
    #[error("schema evolution: {0}")]
    Evolution(String),
    /// Something this crate does not write (yet).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A record this crate built was refused by the format's encoder (a
    /// field its version lacks, a stated size that disagrees with its
    /// contents): a bug of this crate, naming the table and field.
    #[error("wrote an invalid record (a bug of tiledb-codec): {0}")]
    Encode(#[from] crate::format::EncodeError),
    /// Reading the existing array failed.
    #[error(transparent)]
    Read(#[from] crate::error::Error),
    /// A failure point set with `WriteOptions::with_fail_after` was
    /// reached: the writer stopped as if it had crashed, leaving what it had
    /// written (only with the `fail-points` feature).
    #[cfg(feature = "fail-points")]
    #[error("stopped after step {0:?} (injected failure)")]
    Injected(FailPoint),
    /// A consolidation or vacuum stopped after the step it was told to
    /// (only with the `fail-points` feature).
    #[cfg(feature = "fail-points")]
    #[error("stopped after step {0:?} (injected failure)")]
    Stopped(MaintenanceStep),
    /// A maintenance operation (consolidation, vacuuming) was told to stop
    /// after its step `number` (counted from 1), `step` names it: it stopped
    /// as if it had crashed (only with the `fail-points` feature).
    #[cfg(feature = "fail-points")]
    #[error("stopped after step {number} ({step}) (injected failure)")]
    InjectedStep {
        /// The step, counted from 1.
        number: u32,
        /// What the step did.
        step: &'static str,
    },
}

impl From<crate::read::query_condition::ConditionError> for WriteError {
    fn from(e: crate::read::query_condition::ConditionError) -> Self {
        WriteError::Read(e.into())
    }
}

impl From<crate::model::ModelError> for WriteError {
    fn from(e: crate::model::ModelError) -> Self {
        match e {
            crate::model::ModelError::Schema { field, what } => WriteError::Schema { field, what },
            crate::model::ModelError::Unsupported(what) => WriteError::Unsupported(what),
        }
    }
}

fn input_message(line: u64, field: &str, what: &str) -> String {
    let mut out = String::new();
    if line > 0 {
        out.push_str(&format!("line {line}: "));
    }
    if !field.is_empty() {
        out.push_str(&format!("field {field}: "));
    }
    out.push_str(what);
    out
}

/// A result whose error is [`WriteError`].
pub type WriteResult<T> = std::result::Result<T, WriteError>;

impl WriteError {
    /// Where the bytes that did not decode are, when reading the existing
    /// array failed on them ([`WriteError::Read`] of a decode error).
    pub fn location(&self) -> Option<&crate::error::Location> {
        match self {
            WriteError::Read(e) => e.location(),
            _ => None,
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        WriteError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn cells(field: impl Into<String>, what: impl Into<String>) -> Self {
        WriteError::Cells {
            field: field.into(),
            what: what.into(),
        }
    }
}

/// The steps of a fragment consolidation and of a vacuum, in order; the
/// `*_failing` functions stop right after one of them, as a crash would
/// (the crash-safety tests; only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaintenanceStep {
    /// Consolidation: the vacuum list is written under its temporary name.
    VacuumListWritten,
    /// Consolidation: the new fragment's files are written and synced, no
    /// commit marker yet.
    FragmentWritten,
    /// Consolidation: the new fragment is committed; its `.vac` file is
    /// still under the temporary name.
    Committed,
    /// Consolidation: the `.vac` file is in place (the whole consolidation).
    VacuumFileWritten,
    /// Vacuum: the commit markers of the listed fragments are removed.
    CommitsRemoved,
    /// Vacuum: the listed fragment folders are removed too.
    FoldersRemoved,
    /// Vacuum: the `.vac` files are removed too (the whole vacuum).
    VacuumFilesRemoved,
}

#[cfg(feature = "fail-points")]
impl MaintenanceStep {
    /// The steps of a consolidation.
    pub const CONSOLIDATE: [MaintenanceStep; 4] = [
        MaintenanceStep::VacuumListWritten,
        MaintenanceStep::FragmentWritten,
        MaintenanceStep::Committed,
        MaintenanceStep::VacuumFileWritten,
    ];
    /// The steps of a vacuum.
    pub const VACUUM: [MaintenanceStep; 3] = [
        MaintenanceStep::CommitsRemoved,
        MaintenanceStep::FoldersRemoved,
        MaintenanceStep::VacuumFilesRemoved,
    ];
}

/// The steps of a fragment write, in order; `WriteOptions::with_fail_after`
/// stops the writer right after one of them, as a crash would (the
/// crash-safety tests; only with the `fail-points` feature).
#[cfg(feature = "fail-points")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FailPoint {
    /// The fragment folder and its (empty) data files exist.
    FolderCreated,
    /// The first tile is in the data files.
    TileWritten,
    /// Every tile is in the data files (not yet synced).
    DataWritten,
    /// `__fragment_metadata.tdb` is written.
    MetadataWritten,
    /// Every file and the folder are synced; no commit marker yet.
    FilesSynced,
    /// The commit marker exists and is synced: the fragment is visible.
    Committed,
}

#[cfg(feature = "fail-points")]
impl FailPoint {
    /// Every step, in the order the writer takes them.
    pub const ALL: [FailPoint; 6] = [
        FailPoint::FolderCreated,
        FailPoint::TileWritten,
        FailPoint::DataWritten,
        FailPoint::MetadataWritten,
        FailPoint::FilesSynced,
        FailPoint::Committed,
    ];
}
