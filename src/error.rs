//! Errors of the reading layers. A decode error names the file, the byte
//! offset, the spec table and field, and what was wrong, each as a field of
//! its [`Location`] that callers can match on; the text is for people.
//!
//! Writing has its own error, [`crate::write::WriteError`], which wraps this
//! one (`WriteError::Read`) when reading the existing array fails: the
//! writer's failures (a schema field, an input line, a file that could not
//! be renamed) have detail of their own that a reader never produces, and
//! keeping the two apart lets a read-only caller match on reading errors
//! alone.
//!
//! ```
//! use std::path::Path;
//! use tiledb_codec::raw::format::{decode, GenericTileHeader};
//!
//! // Eight bytes, found at byte 100 of a file, are not a generic tile header.
//! let err = decode::<GenericTileHeader>(&[0; 8], Path::new("x.tdb"), 100, ()).unwrap_err();
//! let at = err.location().expect("a decode error says where");
//! assert_eq!(at.file, Path::new("x.tdb"));
//! assert_eq!(at.table, "GenericTileHeader");
//! assert!(at.offset >= 100);
//! assert!(err.to_string().starts_with("x.tdb at byte"));
//! ```

use std::path::PathBuf;

/// Where in a file something was read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Location {
    /// The file, as the caller named it (or a label for bytes in memory).
    pub file: PathBuf,
    /// Byte offset in the file of the field at fault (of the table, when
    /// no one field is).
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

/// Why reading failed. New kinds of failure may be added: match with a
/// wildcard arm.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes do not decode as the spec table says.
    #[error("{at}: {what}")]
    Decode {
        /// File, byte offset, spec table and field.
        at: Box<Location>,
        /// What was wrong with the bytes.
        what: String,
    },
    /// A file could not be opened, listed or mapped.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A filter could not reverse a chunk.
    #[error("{}: tile at byte {offset}, chunk {chunk}: {filter}: {what}", file.display())]
    Filter {
        /// The file holding the tile.
        file: PathBuf,
        /// Byte offset of the tile in the file.
        offset: u64,
        /// Index of the chunk in the tile, from 0.
        chunk: u64,
        /// The filter, as TileDB names it (`ZSTD`, `WEBP`, ...).
        filter: &'static str,
        /// What went wrong (for a filter this build leaves out, which
        /// Cargo feature it needs).
        what: String,
    },
    /// The path is not something this crate understands.
    #[error("{}: {what}", path.display())]
    NotTileDb {
        /// The path.
        path: PathBuf,
        /// What it is, or lacks.
        what: String,
    },
    /// Something the format allows that this crate does not handle yet.
    #[error("{}: {what}", path.display())]
    Unsupported {
        /// The array, fragment or file.
        path: PathBuf,
        /// What is not handled.
        what: String,
    },
    /// A query that cannot apply to the array: a range on a dimension of
    /// another datatype, an unknown field, an aggregate of the wrong type.
    #[error("{}: {what}", path.display())]
    Query {
        /// The array.
        path: PathBuf,
        /// What does not apply.
        what: String,
    },
    /// A query condition that does not parse or does not fit the schema.
    #[error("condition {}: {what}", condition_excerpt(text))]
    Condition {
        /// The condition's text.
        text: String,
        /// What is wrong with it.
        what: String,
    },
}

/// A condition as an error message shows it: quoted, and when longer than
/// 80 characters its first 80 and `…` with its length (a hostile condition
/// of megabytes is not repeated whole).
pub(crate) fn condition_excerpt(text: &str) -> String {
    const SHOWN: usize = 80;
    match text.char_indices().nth(SHOWN) {
        None => format!("{text:?}"),
        Some((end, _)) => format!("{:?}… ({} bytes)", &text[..end], text.len()),
    }
}

impl Error {
    /// Where the bytes that did not decode are: file, offset, spec table
    /// and field ([`Error::Decode`]); `None` for other errors.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::Decode { at, .. } => Some(at),
            _ => None,
        }
    }

    /// The file or folder the error concerns, whatever its kind (`None` for
    /// a condition, which concerns no file).
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Error::Decode { at, .. } => Some(&at.file),
            Error::Filter { file, .. } => Some(file),
            Error::Io { path, .. }
            | Error::NotTileDb { path, .. }
            | Error::Unsupported { path, .. }
            | Error::Query { path, .. } => Some(path),
            Error::Condition { .. } => None,
        }
    }

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

    /// A [`tiledb_codec_format::DecodeError`] of bytes read from `file`.
    pub(crate) fn in_file(file: &std::path::Path, e: tiledb_codec_format::DecodeError) -> Self {
        Error::Decode {
            at: Box::new(Location {
                file: file.to_path_buf(),
                offset: e.offset,
                table: e.table,
                field: e.field,
            }),
            what: e.what,
        }
    }

    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// A result whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
