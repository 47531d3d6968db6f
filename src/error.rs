//! Errors of every layer. A decode error names the file, the byte offset,
//! the spec table and field, and what was wrong.

use std::path::PathBuf;

/// Where in a file something was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: PathBuf,
    pub offset: u64,
    /// Spec table, as `spec/` names it (`ArraySchema`, `FragmentFooter`, ...).
    pub table: String,
    /// Field of that table (snake_case, as in `spec/`); empty when the error
    /// concerns the table as a whole.
    pub field: String,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at byte {}: {}",
            self.file.display(),
            self.offset,
            self.table
        )?;
        if !self.field.is_empty() {
            write!(f, ".{}", self.field)?;
        }
        Ok(())
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The bytes do not decode as the spec table says.
    #[error("{at}: {what}")]
    Decode { at: Box<Location>, what: String },
    /// A file could not be opened, listed or mapped.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A filter could not reverse a chunk.
    #[error("{}: tile at byte {offset}, chunk {chunk}: {filter}: {what}", file.display())]
    Filter {
        file: PathBuf,
        offset: u64,
        chunk: u64,
        filter: &'static str,
        what: String,
    },
    /// The path is not something this crate understands.
    #[error("{}: {what}", path.display())]
    NotTileDb { path: PathBuf, what: String },
    /// Something the format allows that this crate does not handle yet.
    #[error("{}: {what}", path.display())]
    Unsupported { path: PathBuf, what: String },
    /// A query that cannot apply to the array: a range on a dimension of
    /// another datatype, an unknown field, an aggregate of the wrong type.
    #[error("{}: {what}", path.display())]
    Query { path: PathBuf, what: String },
    /// A query condition that does not parse or does not fit the schema.
    #[error("condition {text:?}: {what}")]
    Condition { text: String, what: String },
}

impl Error {
    pub(crate) fn decode(
        file: &std::path::Path,
        offset: u64,
        table: &str,
        field: &str,
        what: impl Into<String>,
    ) -> Self {
        Error::Decode {
            at: Box::new(Location {
                file: file.to_path_buf(),
                offset,
                table: table.to_string(),
                field: field.to_string(),
            }),
            what: what.into(),
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
