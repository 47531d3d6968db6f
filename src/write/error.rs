//! Errors of the writer: they name the schema field, the input line and
//! field, or the file that could not be written.

use std::path::PathBuf;

/// Why a write failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The schema JSON is not a schema this crate can write; `field` is a
    /// path into the JSON (`attributes[1].filters[0].type`).
    #[error("schema: {field}: {what}")]
    Schema { field: String, what: String },
    /// A cell of the input is not valid for the schema; `line` counts from 1
    /// (for CSV, the header is line 1); 0 when no one line is at fault (the
    /// cells of a dense import leave a hole). `field` is empty when the
    /// line as a whole is wrong (malformed JSON, a wrong field count).
    #[error("{}", input_message(*line, field, what))]
    Input {
        line: u64,
        field: String,
        what: String,
    },
    /// Cells handed to a [`super::FragmentWriter`] do not fit the schema.
    #[error("cells: {field}: {what}")]
    Cells { field: String, what: String },
    /// The array already exists (create) or does not exist (write).
    #[error("{}: {what}", path.display())]
    Array { path: PathBuf, what: String },
    /// A file could not be written, synced or renamed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A filter could not filter a tile forward.
    #[error("field {field}: filter {filter}: {what}")]
    Filter {
        field: String,
        filter: &'static str,
        what: String,
    },
    /// Something this crate does not write (yet).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Reading the existing array failed.
    #[error(transparent)]
    Read(#[from] crate::Error),
    /// A failure point set with [`super::FragmentWriter::fail_after`] (or
    /// `TILEDB_CODEC_FAIL_AFTER`) was reached: the writer stopped as if it
    /// had crashed, leaving what it had written.
    #[error("stopped after step {0:?} (injected failure)")]
    Injected(super::FailPoint),
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

pub type WriteResult<T> = std::result::Result<T, WriteError>;

impl WriteError {
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
