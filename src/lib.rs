//! A pure-Rust, zero-copy codec for the TileDB on-disk format.
//!
//! The byte layouts live in `spec/` as declarative tables; `build.rs` turns
//! them into the version-aware codecs of [`format`]. On top of them:
//! [`storage`] maps files, [`tile`] reads (generic) tiles in place,
//! [`filters`] reverses filter pipelines, [`array`] opens arrays, and
//! [`inspect`] describes what a path holds.
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

pub use error::{Error, Result};
