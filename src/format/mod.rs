//! The TileDB format: codecs generated from `spec/` by `build.rs`.

mod decode;
mod domain;
pub use decode::{decode, decode_all, encode};
pub mod rt;

#[allow(
    clippy::all,
    clippy::pedantic,
    unused_parens,
    unused_variables,
    missing_docs
)]
mod generated {
    use super::rt;
    include!(concat!(env!("OUT_DIR"), "/tiledb_spec.rs"));
}

pub use generated::*;
