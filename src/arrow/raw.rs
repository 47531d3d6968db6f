//! Arrow over the lower-level reader and writer (feature `arrow`): a
//! [`Query`](crate::raw::read::Query)'s cells as record batches and as an
//! Arrow IPC stream, record batches written into a
//! [`FragmentWriter`](crate::raw::write::FragmentWriter), Arrow IPC and
//! Parquet files imported with the importer's options, and the Arrow
//! fields of the decoded fields. The types are those of
//! [`crate::arrow`], which the facade uses.
//!
//! Mounted as `raw::arrow` (src/raw.rs); its code is in this folder's
//! modules.

pub use crate::arrow::error::{Error, Result};
pub use crate::arrow::read::{arrow_schema, record_batch, record_batches, write_ipc};
pub use crate::arrow::schema::{arrow_field, dictionary_type, value_type, EnumerationType};
pub use crate::arrow::write::{import_batches, import_file, write_batch, ArrowTarget, InputFormat};
