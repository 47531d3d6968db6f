//! The one error of the facade: every call at the crate root returns it.
//! The lower layers' own errors (under [`crate::raw`]) arrive in it as its
//! variants, their detail kept as fields: [`Error::location`] gives the
//! file, byte offset, spec table and field of a decoding failure wherever
//! it happened, [`Error::path`] the file or folder any failure concerns.

use std::path::{Path, PathBuf};

use crate::error::{Error as ReadError, Location};
use crate::format::Datatype;
use crate::write::WriteError;

/// A [`std::result::Result`] with the facade's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong in a call of the facade. New kinds of failure may be
/// added: match with a wildcard arm.
///
/// ```
/// use tiledb_codec::{Array, Error};
///
/// let array = Array::open("tests/fixtures/v22/sparse_int_2d")?;
/// match array.reader().condition("a >>> 5").read() {
///     Err(Error::Condition { text, .. }) => assert_eq!(text, "a >>> 5"),
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Bytes on disk that do not decode as the format's spec table says.
    #[error("{location}: {what}")]
    Decode {
        /// File, byte offset, spec table and field.
        location: Location,
        /// What was wrong with the bytes.
        what: String,
    },
    /// A file or folder could not be read, listed, written, synced or
    /// renamed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The operating system's (or the object store's) error.
        #[source]
        source: std::io::Error,
    },
    /// A filter could not reverse a chunk of a tile (a read) or filter a
    /// tile forward (a write); a wrong encryption key shows here, as the
    /// filter `AES_256_GCM`.
    #[error("{}filter {filter}: {what}", filter_place(path.as_deref(), *offset, field.as_deref()))]
    Filter {
        /// The file holding the tile (a read).
        path: Option<PathBuf>,
        /// The byte offset of the tile in the file (a read).
        offset: Option<u64>,
        /// The attribute or dimension whose tile it was (a write).
        field: Option<String>,
        /// The filter, as TileDB names it (`ZSTD`, `WEBP`, ...).
        filter: &'static str,
        /// What went wrong (for a filter this build leaves out, which
        /// Cargo feature it needs).
        what: String,
    },
    /// The path holds no TileDB array (or not one this crate understands).
    #[error("{}: {what}", path.display())]
    NotTileDb {
        /// The path.
        path: PathBuf,
        /// What it is, or lacks.
        what: String,
    },
    /// The array (or group) already exists (a create), does not exist (a
    /// write), or refuses the change asked for; nothing was written.
    #[error("{}: {what}", path.display())]
    Array {
        /// The array's or group's folder.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Something the format allows that this crate does not read or write
    /// (yet).
    #[error("{}{what}", path.as_deref().map(|p| format!("{}: ", p.display())).unwrap_or_default())]
    Unsupported {
        /// The array, fragment or file, when one is concerned.
        path: Option<PathBuf>,
        /// What is not handled.
        what: String,
    },
    /// A read that cannot apply to the array (a range on a dimension of
    /// another datatype, an aggregate of the wrong type, a timestamp range
    /// that holds no time).
    #[error("{}: {what}", path.display())]
    Query {
        /// The array.
        path: PathBuf,
        /// What does not apply.
        what: String,
    },
    /// A query condition that does not parse or does not fit the schema.
    #[error("condition {}: {what}", crate::error::condition_excerpt(text))]
    Condition {
        /// The condition's text.
        text: String,
        /// What is wrong with it.
        what: String,
    },
    /// Cells given to a write that do not fit the schema (`line` counts
    /// input lines from 1 for imports, 0 otherwise; `field` is empty when
    /// no one field is at fault).
    #[error("cells: {}{field}: {what}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
    Cells {
        /// The input line, from 1; 0 when no one line is at fault.
        line: u64,
        /// The attribute or dimension.
        field: String,
        /// What does not fit.
        what: String,
    },
    /// No field of that name.
    #[error("no field {field:?} (the fields are: {})", available.join(", "))]
    NoSuchField {
        /// The name asked for.
        field: String,
        /// The names there are.
        available: Vec<String>,
    },
    /// The Rust type asked for does not stand for the field's datatype
    /// (see [`CellType`](crate::CellType)).
    #[error("field {field:?} is {}, not {requested}", datatype.name())]
    WrongType {
        /// The field.
        field: String,
        /// Its datatype.
        datatype: Datatype,
        /// The Rust type asked for.
        requested: &'static str,
    },
    /// The field's cells are not of the shape asked for (var-sized cells
    /// read as fixed-size ones, several values read as one).
    #[error("field {field:?}: {what}")]
    Shape {
        /// The field.
        field: String,
        /// What does not fit.
        what: String,
    },
    /// A cell of a text field is not UTF-8.
    #[error("field {field:?}, cell {cell}: {source}")]
    Utf8 {
        /// The field.
        field: String,
        /// The cell's index in the batch.
        cell: usize,
        /// Where the bytes stop being UTF-8.
        source: std::str::Utf8Error,
    },
    /// A range that cannot apply to a dimension: values outside its
    /// datatype, of another kind (a float range on an integer dimension),
    /// or a low end above the high end.
    #[error("range on dimension {dimension:?}: {what}")]
    Range {
        /// The dimension.
        dimension: String,
        /// Why.
        what: String,
    },
    /// A schema that [`SchemaBuilder::build`](crate::SchemaBuilder::build)
    /// or a schema evolution refuses; `field` says which part
    /// (`dimensions.x.tile_extent`).
    #[error("schema: {field}: {what}")]
    Schema {
        /// The part of the schema.
        field: String,
        /// What is wrong with it.
        what: String,
    },
    /// Converting cells to or from Arrow failed (feature `arrow`).
    #[error("arrow: {what}")]
    Arrow {
        /// What Arrow (or Parquet) refused, or which field could not be
        /// converted and why.
        what: String,
    },
    /// Any other failure of the layers beneath, as text (an injected
    /// failure of the crash tests).
    #[error("{what}")]
    Other {
        /// What went wrong.
        what: String,
    },
}

fn filter_place(path: Option<&Path>, offset: Option<u64>, field: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(p) = path {
        s.push_str(&format!("{}: ", p.display()));
    }
    if let Some(o) = offset {
        s.push_str(&format!("tile at byte {o}: "));
    }
    if let Some(f) = field {
        s.push_str(&format!("field {f}: "));
    }
    s
}

impl From<crate::read::query_condition::ConditionError> for Error {
    fn from(e: crate::read::query_condition::ConditionError) -> Self {
        Error::Condition {
            text: e.text,
            what: e.what,
        }
    }
}

impl From<ReadError> for Error {
    fn from(e: ReadError) -> Self {
        match e {
            ReadError::Decode { at, what } => Error::Decode {
                location: *at,
                what,
            },
            ReadError::Io { path, source } => Error::Io { path, source },
            ReadError::Filter {
                file,
                offset,
                chunk,
                filter,
                what,
            } => Error::Filter {
                path: Some(file),
                offset: Some(offset),
                field: None,
                filter,
                what: format!("chunk {chunk}: {what}"),
            },
            ReadError::NotTileDb { path, what } => Error::NotTileDb { path, what },
            ReadError::Unsupported { path, what } => Error::Unsupported {
                path: Some(path),
                what,
            },
            ReadError::Query { path, what } => Error::Query { path, what },
            ReadError::Condition { text, what } => Error::Condition { text, what },
        }
    }
}

impl From<WriteError> for Error {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Read(e) => e.into(),
            WriteError::Schema { field, what } => Error::Schema { field, what },
            WriteError::Evolution(what) => Error::Schema {
                field: "evolution".into(),
                what,
            },
            WriteError::Input { line, field, what } => Error::Cells { line, field, what },
            WriteError::Cells { field, what } => Error::Cells {
                line: 0,
                field,
                what,
            },
            e @ WriteError::OutOfOrder { .. } => Error::Cells {
                line: 0,
                field: String::new(),
                what: e.to_string(),
            },
            WriteError::Array { path, what } | WriteError::Group { path, what } => {
                Error::Array { path, what }
            }
            WriteError::Io { path, source } => Error::Io { path, source },
            WriteError::Filter {
                field,
                filter,
                what,
            } => Error::Filter {
                path: None,
                offset: None,
                field: Some(field),
                filter,
                what,
            },
            WriteError::Condition { text, what } => Error::Condition { text, what },
            WriteError::Unsupported(what) => Error::Unsupported { path: None, what },
            e @ WriteError::Encode(_) => Error::Other {
                what: e.to_string(),
            },
            #[cfg(feature = "fail-points")]
            e @ (WriteError::Injected(_)
            | WriteError::Stopped(_)
            | WriteError::InjectedStep { .. }) => Error::Other {
                what: e.to_string(),
            },
        }
    }
}

#[cfg(feature = "arrow")]
impl From<crate::arrow::Error> for Error {
    fn from(e: crate::arrow::Error) -> Self {
        match e {
            crate::arrow::Error::Read(e) => e.into(),
            crate::arrow::Error::Write(e) => e.into(),
            crate::arrow::Error::Field { field, what } => Error::Arrow {
                what: format!("field {field:?}: {what}"),
            },
            e => Error::Arrow {
                what: e.to_string(),
            },
        }
    }
}

impl Error {
    /// Where in which file a decoding failure happened (file, byte offset,
    /// spec table and field), whichever layer met it; `None` for failures
    /// that are not about bytes on disk.
    pub fn location(&self) -> Option<&Location> {
        match self {
            Error::Decode { location, .. } => Some(location),
            _ => None,
        }
    }

    /// The file or folder the error concerns, when it concerns one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Error::Decode { location, .. } => Some(&location.file),
            Error::Io { path, .. }
            | Error::NotTileDb { path, .. }
            | Error::Array { path, .. }
            | Error::Query { path, .. } => Some(path),
            Error::Filter { path, .. } | Error::Unsupported { path, .. } => path.as_deref(),
            _ => None,
        }
    }
}
