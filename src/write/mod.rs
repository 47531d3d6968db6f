//! Writing TileDB arrays (format version 22 by default, 10 to 23 on request):
//! array creation from a [`crate::model::Schema`] or its JSON ([`crate::model::json`]),
//! fragments from cells given column-wise ([`FragmentWriter`]), NDJSON/CSV
//! import ([`import()`]) and array metadata ([`put_metadata`],
//! [`delete_metadata`]).
//!
//! Every byte layout comes from the generated codecs of [`crate::format`];
//! the rules of what goes where follow the engine's writers
//! (tiledb/sm/query/writers/*.cc, tiledb/sm/fragment/fragment_metadata.cc,
//! tiledb/sm/tile/tile_metadata_generator.cc, tiledb/sm/rtree/rtree.cc).
//!
//! Encrypted arrays (AES-256-GCM): with an `encryption_key` in
//! [`CreateOptions`], [`WriteOptions`] or [`MetadataOptions`], every generic
//! tile is encrypted and says so in its header (the only record of an
//! array's encryption), and every data tile's pipeline ends with the
//! encryption filter, as the engine writes them (generic_tile_io.cc,
//! writer_base.cc `filter_tile`).
//!
//! Crash safety: a fragment folder is written and synced in full before its
//! commit marker is created (and synced), so a writer that stops at any point
//! leaves no visible partial fragment; arrays are assembled in a temporary
//! folder and renamed into place; metadata files are written to a hidden
//! file in the array's folder (skipped by readers) and renamed into `__meta`.

mod error;
pub mod fragment;
pub(crate) mod generic;
pub mod import;
pub mod metadata;
pub(crate) mod order;
pub mod schema;
pub(crate) mod sort;
pub(crate) mod stats;
pub mod steps;
pub(crate) mod util;

#[cfg(feature = "fail-points")]
pub use error::MaintenanceStep;
pub use error::{WriteError, WriteResult};
#[cfg(feature = "fail-points")]
pub use fragment::FailPoint;
pub use fragment::{Column, FragmentInfo, FragmentWriter, WriteOptions};
pub use import::{import, import_into, import_with, CellFormat, ImportOptions, ImportSummary};
pub use metadata::{
    delete_metadata, delete_metadata_with, put_metadata, put_metadata_with, MetadataOptions,
};
pub use schema::{
    build_schema, create_array, create_array_from_schema, create_array_with, CreateOptions,
};

pub use crate::format::version::{FORMAT_VERSION, MAX_WRITE_VERSION, MIN_WRITE_VERSION};
