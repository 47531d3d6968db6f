//! The error of the Arrow layer (`raw::arrow::Error`); the facade turns it
//! into its own [`Error`](crate::Error).

/// What can go wrong between TileDB and Arrow.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading the array failed.
    #[error(transparent)]
    Read(#[from] crate::error::Error),
    /// Writing the array failed.
    #[error(transparent)]
    Write(#[from] crate::write::WriteError),
    /// Arrow refused the data (IPC decoding, array construction).
    #[error("arrow: {0}")]
    Arrow(#[from] arrow_schema::ArrowError),
    /// The Parquet reader failed.
    #[error("parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// A field that cannot be converted, and why.
    #[error("field {field:?}: {what}")]
    Field {
        /// The field's name.
        field: String,
        /// What is wrong.
        what: String,
    },
}

impl Error {
    pub(crate) fn field(field: impl Into<String>, what: impl Into<String>) -> Self {
        Error::Field {
            field: field.into(),
            what: what.into(),
        }
    }
}

/// The result of this module's functions.
pub type Result<T> = std::result::Result<T, Error>;
