//! Arrow in and out (feature `arrow`): cells as Arrow [`RecordBatch`]es
//! ([`ReaderBuilder::arrow`](crate::ReaderBuilder::arrow)), record batches
//! written as fragments ([`Array::write_arrow`](crate::Array::write_arrow)),
//! and schemas to and from Arrow schemas ([`to_arrow`], [`from_arrow`]).
//! What works on the lower-level reader and writer (a `Query`'s batches,
//! Arrow IPC output, Arrow IPC and Parquet import) is in `raw::arrow`.
//!
//! How TileDB fields become Arrow fields ([`field_type`]):
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
//! metadata ([`DATATYPE_KEY`], [`CELL_VAL_NUM_KEY`]), so
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

// The lower-level half is mounted as `raw::arrow` (src/raw.rs, from
// raw.rs in this folder); these modules are the crate's own.
pub(crate) mod error;
pub(crate) mod read;
pub(crate) mod schema;
pub(crate) mod write;

use crate::format::Datatype;
use crate::model::Schema;
pub(crate) use error::{Error, Result};

pub use arrow_array::{RecordBatch, RecordBatchReader};
pub use read::RecordBatches;
pub use schema::{CELL_VAL_NUM_KEY, DATATYPE_KEY, DIMENSION_KEY, ENUMERATION_KEY};

/// The Arrow type of a field of datatype `dt` with `cell_val_num` values
/// per cell (`None`: var-sized), as the table above maps it.
pub fn field_type(dt: Datatype, cell_val_num: Option<u32>) -> arrow_schema::DataType {
    schema::field_type(dt, cell_val_num)
}

/// The TileDB datatype and values per cell (`None`: var-sized) of an Arrow
/// field: from its metadata where it has [`DATATYPE_KEY`], else from its
/// Arrow type (text `StringUtf8`, binary `Blob`, timestamps `DATETIME_*`,
/// durations and times `TIME_*`, `Date32` `DATETIME_DAY`, dictionaries their
/// keys' type).
pub fn tiledb_type(field: &arrow_schema::Field) -> crate::Result<(Datatype, Option<u32>)> {
    Ok(schema::tiledb_type(field)?)
}

/// The Arrow schema of a TileDB schema: the dimensions, then the
/// attributes, as a read returns them (enumerated attributes as
/// dictionaries of their labels' type).
pub fn to_arrow(schema: &Schema) -> crate::Result<arrow_schema::Schema> {
    Ok(schema::to_arrow(schema)?)
}

/// A TileDB schema for an Arrow schema: the fields named in `dimensions`
/// become the dimensions (in that order), the others attributes; a sparse
/// array, row-major, capacity 10000, in the format version this crate
/// writes. Domains and tile extents are left unset (`None`) for the
/// caller to choose; dictionary fields get an enumeration named after the
/// field, without labels (they are in the data, not the schema).
pub fn from_arrow(arrow: &arrow_schema::Schema, dimensions: &[&str]) -> crate::Result<Schema> {
    Ok(schema::from_arrow(arrow, dimensions)?)
}
