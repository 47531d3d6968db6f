//! A pure-Rust, zero-copy codec for the TileDB on-disk format.
//!
//! The byte layouts live in `spec/` as declarative tables; `build.rs` turns
//! them into the version-aware codecs of [`format`]. On top of them:
//! [`storage`] maps files, [`tile`] reads (generic) tiles in place,
//! [`filters`] reverses filter pipelines, [`array`] opens arrays, and
//! [`inspect`] describes what a path holds.
//!
//! ```
//! use tiledb_codec::filters::ReadOptions;
//! use tiledb_codec::read::{ArrayReader, Query};
//!
//! let reader = ArrayReader::open("tests/fixtures/v22/dense_int_1d".as_ref(), &ReadOptions::default())?;
//! let cells = reader.read(&Query::default())?;
//! assert_eq!(cells.len, 20);
//! println!("{}", cells.row(0)); // {"a":0,"d":1}
//! # Ok::<(), tiledb_codec::Error>(())
//! ```
#![deny(unsafe_op_in_unsafe_fn)]

pub mod array;
pub mod error;
pub mod filters;
pub mod format;
pub mod inspect;
pub mod read;
pub mod storage;
pub mod tile;
pub mod value;
pub mod verify;
pub mod write;

pub use error::{Error, Result};
