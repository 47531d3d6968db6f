//! The TileDB format: codecs generated from `spec/` by `build.rs`.

mod decode;
mod domain;
pub mod names;
pub mod schema;
pub use decode::{decode, decode_all, encode};
pub(crate) mod rt;

/// Per-dimension coordinate sizes, the argument of the tables whose layout
/// depends on the dimensions (MBRs, non-empty domains, fragment footers).
pub use rt::Dims;

#[allow(clippy::all, clippy::pedantic, unused_parens, unused_variables)]
mod generated {
    use super::rt;
    include!(concat!(env!("OUT_DIR"), "/tiledb_spec.rs"));
}

pub use generated::*;

#[cfg(test)]
mod datatype_tests;
