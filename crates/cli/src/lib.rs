//! The library half of the `tiledb-codec` command line: the jobs its
//! commands do that describe and check arrays, as calls the binary (and
//! the integration tests and fuzz targets) make.
//!
//! [`inspect`] describes what a path holds as JSON, [`summary`] describes
//! an array for people, [`svg`] draws its fragments, and [`verify`] checks
//! every tile of it. They work on the format's layers
//! ([`tiledb_codec::raw`]), so they follow the format as that module does;
//! programs that read and write cells use the facade of [`tiledb_codec`].
#![warn(missing_docs)]

pub mod inspect;
pub mod summary;
pub mod svg;
pub mod verify;
