//! The format, layer by layer, for format tooling: the tables the generator
//! generates from `spec/` ([`format`](mod@format)), files mapped in place ([`storage`]),
//! generic tiles ([`tile`]), filter pipelines ([`filters`]), an array's
//! folders and files ([`array`](mod@array)), the typed schema ([`model`]),
//! the readers and writers of cells ([`read`], [`write`](mod@write)), and
//! Arrow over them (`arrow`, feature `arrow`).
//!
//! What lives here follows the format: a new format version or a spec edit
//! can add fields, variants and tables, so the generated types and the
//! readers' own types are `#[non_exhaustive]` where that can happen, and
//! code that matches on them keeps a wildcard arm. Programs that read and
//! write cells use the facade at the crate root ([`crate::Array`]) instead.
//!
//! The modules' files sit at the top of `src/` (one folder per layer, in the
//! layer order the README gives); they are mounted here.

#[path = "array/mod.rs"]
pub mod array;
#[cfg(feature = "arrow")]
#[path = "arrow/raw.rs"]
pub mod arrow;
#[path = "error.rs"]
pub mod error;
#[doc(inline)]
pub use tiledb_codec_filters as filters;
#[path = "format/mod.rs"]
pub mod format;
#[path = "model/mod.rs"]
pub mod model;
#[path = "options.rs"]
pub mod options;
#[path = "read/mod.rs"]
pub mod read;
#[path = "storage/mod.rs"]
pub mod storage;
#[path = "tile/mod.rs"]
pub mod tile;
#[path = "write/mod.rs"]
pub mod write;

/// Options of the facade's [`OpenOptions`](crate::OpenOptions) that take
/// the format's layers.
pub trait OpenOptionsExt {
    /// Reads the array from `storage` (objects in memory, an object store
    /// configured by hand, or any other [`Storage`](storage::Storage))
    /// instead of local files; the path is then a path in it.
    fn with_storage(self, storage: storage::StorageRef) -> Self;
}

impl OpenOptionsExt for crate::OpenOptions {
    fn with_storage(mut self, storage: storage::StorageRef) -> Self {
        self.storage = Some(storage);
        self
    }
}

/// The lower-level reader under an [`Array`](crate::Array) of the facade
/// (plans, statistics, aggregates, the decoded schema and fragment tables).
pub fn array_reader(array: &crate::Array) -> &read::ArrayReader {
    &array.reader
}

/// The cells of a [`Batch`](crate::Batch) as the lower-level reader
/// returns them (untyped columns: bytes, offsets, validity).
pub fn cells(batch: &crate::Batch) -> &read::Cells {
    batch.cells()
}

/// The cells of a [`Batch`](crate::Batch) as the lower-level reader
/// returns them, taken out.
pub fn into_cells(batch: crate::Batch) -> read::Cells {
    batch.into_cells()
}

/// The query a [`ReaderBuilder`](crate::ReaderBuilder) makes, checked
/// against the array's schema (its condition parsed), for the lower-level
/// reader.
pub fn query(reader: &crate::ReaderBuilder<'_>) -> Result<read::Query, crate::Error> {
    reader.query()
}
