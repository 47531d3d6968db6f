//! The TileDB on-disk format as data: codecs generated from `spec/` by
//! `codegen/` into `src/generated/` (committed; the test `generated` fails
//! when it is stale), for format tooling and for the `tiledb-codec` engine.
//!
//! Every table, union and code table of `spec/` is a type here, decoded and
//! encoded by binrw as the spec says for each format version. They follow
//! the format: a spec edit (a new format version, a field, a code) adds
//! fields and variants, so the types are `#[non_exhaustive]`. Match with a
//! wildcard arm, and build a table in code with [`table!`], which names the
//! fields it sets and leaves every other one at its default:
//!
//! ```
//! use tiledb_codec_format::{decode_all, encode, table, Compressor, CompressorOptions, Filter, FilterOptions, FilterType, Record};
//!
//! let zstd = table!(Filter {
//!     filter_type: FilterType::Zstd,
//!     filter_options: FilterOptions::Compressor(table!(CompressorOptions {
//!         compressor_type: Compressor::Zstd,
//!         compression_level: 3,
//!     })),
//! })
//! .with_sizes();
//! let bytes = encode(&zstd)?;
//! // A filter's options depend on the format version (22 here).
//! let back: Filter = decode_all(&bytes, 0, (22,))?;
//! assert_eq!(back, zstd);
//! assert_eq!(bytes.len(), 1 + 4 + 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A writer does not set version gates, sizes or counts by hand: it builds
//! a table with every field of the newest version, lays it out for its
//! version with [`Record::at_version`], computes its sizes and counts with
//! [`Record::with_sizes`], and encodes it with [`encode`] (or [`encode_at`]), which
//! refuses a field the version lacks or a size that disagrees with what it
//! counts ([`EncodeError`]).
//!
//! The crate does no I/O and is `#![no_std]` with `alloc`: it decodes and
//! encodes bytes the caller has. A length or count read from the bytes is
//! checked against the bytes left before anything is allocated, and a
//! failure is a [`DecodeError`] naming the offset, spec table and field.
//! The `serde` feature adds `serde::Serialize` to the tables (for JSON
//! views of what a file holds), and `arrow` the Arrow type of each
//! [`Datatype`] (`Datatype::arrow_type`).
#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(test)]
extern crate std;

mod decode;
mod domain;
mod encode;
mod layout;
pub mod schema;
pub use decode::{decode, decode_all, DecodeError};
pub use encode::{encode, encode_at, EncodeError, Record};
pub use layout::{PartFile, StreamedFile};
#[doc(hidden)]
pub mod rt;

/// Per-dimension coordinate sizes, the argument of the tables whose layout
/// depends on the dimensions (MBRs, non-empty domains, fragment footers).
pub use rt::Dims;

// `#[macro_use]`: the generated `with_native!` is in scope for the modules
// declared below it (it is exported for the crates above as well). The
// generated code is kept out of clippy's lints as a whole: it follows the
// spec's tables, not the lints' limits (a `size()` takes one parameter per
// import and field its size depends on, a codec is as long as its table).
#[allow(
    clippy::all,
    clippy::pedantic,
    unused_parens,
    unused_mut,
    unused_variables,
    missing_docs
)]
#[macro_use]
mod generated {
    use super::rt;
    #[allow(unused_imports)]
    use alloc::{boxed::Box, format, string::String, vec, vec::Vec};
    include!("generated/all.rs");
}

pub use generated::*;

/// Builds a spec table in code: `table!(Type { field: value, other, .. })`
/// sets the fields named (`other` alone takes the variable of that name)
/// and leaves every other field at its default, so code that builds tables
/// keeps compiling when the spec gains a field. See the [crate](crate).
#[macro_export]
macro_rules! table {
    ($ty:path { $($field:ident $(: $value:expr)?),* $(,)? }) => {{
        let mut table = <$ty as ::core::default::Default>::default();
        $( $crate::table!(@set table $field $($value)?); )*
        table
    }};
    (@set $table:ident $field:ident $value:expr) => {
        $table.$field = $value;
    };
    (@set $table:ident $field:ident) => {
        $table.$field = $field;
    };
}

#[cfg(test)]
mod datatype_tests;
