//! A pure-Rust, zero-copy codec for the TileDB on-disk format.
#![deny(unsafe_op_in_unsafe_fn)]

pub mod format;
