//! The one error of the facade: every call at the crate root returns it.
//! The lower layers' own errors (under [`crate::raw`]) arrive wrapped in it,
//! whole, so nothing they say is lost: [`Error::location`] gives the file,
//! byte offset, spec table and field of a decoding failure wherever it
//! happened.

use crate::format::Datatype;
use crate::write::WriteError;

/// A [`std::result::Result`] with the facade's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong in a call of the facade.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading the array failed (its files, a query the engine would refuse,
    /// a condition that does not parse).
    #[error(transparent)]
    Read(#[from] crate::error::Error),
    /// Writing failed (cells that do not fit the schema, a file that could
    /// not be written, an array that already exists).
    #[error(transparent)]
    Write(#[from] WriteError),
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
    /// Converting cells to Arrow failed (feature `arrow`).
    #[cfg(feature = "arrow")]
    #[error(transparent)]
    Arrow(crate::arrow::Error),
    /// A schema that [`SchemaBuilder::build`](crate::SchemaBuilder::build) refuses; `field` says which
    /// part (`dimensions.x.tile_extent`).
    #[error("schema: {field}: {what}")]
    Schema {
        /// The part of the schema.
        field: String,
        /// What is wrong with it.
        what: String,
    },
}

#[cfg(feature = "arrow")]
impl From<crate::arrow::Error> for Error {
    fn from(e: crate::arrow::Error) -> Self {
        match e {
            crate::arrow::Error::Read(e) => Error::Read(e),
            crate::arrow::Error::Write(e) => Error::Write(e),
            e => Error::Arrow(e),
        }
    }
}

impl Error {
    /// Where in which file a decoding failure happened (file, byte offset,
    /// spec table and field), whichever layer met it; `None` for failures
    /// that are not about bytes on disk.
    pub fn location(&self) -> Option<&crate::error::Location> {
        match self {
            Error::Read(e) => e.location(),
            Error::Write(WriteError::Read(e)) => e.location(),
            #[cfg(feature = "arrow")]
            Error::Arrow(crate::arrow::Error::Read(e)) => e.location(),
            _ => None,
        }
    }
}
