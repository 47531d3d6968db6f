//! Arrow in and out (feature `arrow`): cells as Arrow [`RecordBatch`]es,
//! schemas to and from Arrow schemas, and `RecordBatch`es written as
//! fragments (Arrow IPC and Parquet import).
//!
//! How TileDB fields become Arrow fields ([`schema::field_type`]):
//!
//! | TileDB | Arrow |
//! | --- | --- |
//! | INT8..UINT64, FLOAT32/64 | the same primitive type |
//! | BOOL | `Boolean` |
//! | STRING_ASCII, STRING_UTF8 (var) | `LargeUtf8` |
//! | CHAR, BLOB, GEOM_*, ANY, STRING_UTF16.. (var) | `LargeBinary` |
//! | the same, fixed `cell_val_num = n` | `FixedSizeBinary(n * size)` |
//! | other var-sized fields | `LargeList<T>` |
//! | other fields with `cell_val_num = n > 1` | `FixedSizeList<T, n>` |
//! | DATETIME_SEC/MS/US/NS | `Timestamp(unit)` |
//! | DATETIME_DAY | `Date32` |
//! | TIME_SEC/MS/US/NS | `Duration(unit)` |
//! | other dates and times | `Int64` |
//! | an attribute with an enumeration | `Dictionary<key, labels>` |
//!
//! Every field carries its TileDB datatype and cell value count in its
//! metadata ([`schema::DATATYPE_KEY`], [`schema::CELL_VAL_NUM_KEY`]), so
//! the way back is exact; nullable attributes are nullable fields.
//!
//! Zero-copy: a read's fixed-size values (numbers, dates, fixed binary)
//! and its var-sized data and offsets (`LargeUtf8`, `LargeBinary`) are
//! moved into Arrow buffers without a copy when their allocation is aligned
//! for the type (else copied once into an aligned buffer). Copied:
//! validity bytes (Arrow packs bits), `BOOL` values (likewise), the
//! offsets of `LargeList`s (TileDB counts bytes, Arrow values), `Date32`
//! (narrowed from 64 bits), and every write (the writer takes its own
//! buffers).

pub mod read;
pub mod schema;
pub mod write;

pub use arrow_array::{RecordBatch, RecordBatchReader};
pub use read::{arrow_schema, record_batch, record_batches, write_ipc, RecordBatches};
pub use schema::{field_type, from_arrow, tiledb_type, to_arrow};
pub use write::{import_batches, import_file, write_batch, ArrowTarget, InputFormat};

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
