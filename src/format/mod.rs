//! The TileDB format: codecs generated from `spec/` by `build.rs`.
//!
//! Every table, union and code table of `spec/` is a type here, decoded and
//! encoded by binrw as the spec says for each format version. They follow
//! the format: a spec edit (a new format version, a field, a code) adds
//! fields and variants, so the types are `#[non_exhaustive]`. Match with a
//! wildcard arm, and build a table in code with [`table!`], which names the
//! fields it sets and leaves every other one at its default:
//!
//! ```
//! use tiledb_codec::raw::format::{decode_all, encode, table, Compressor, CompressorOptions, Filter, FilterOptions, FilterType};
//!
//! let zstd = table!(Filter {
//!     filter_type: FilterType::Zstd,
//!     filter_options_size: 5,
//!     filter_options: FilterOptions::Compressor(table!(CompressorOptions {
//!         compressor_type: Compressor::Zstd,
//!         compression_level: 3,
//!     })),
//! });
//! let bytes = encode(&zstd);
//! // A filter's options depend on the format version (22 here).
//! let back: Filter = decode_all(&bytes, "in memory".as_ref(), 0, (22,))?;
//! assert_eq!(back, zstd);
//! assert_eq!(bytes.len(), 1 + 4 + 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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

/// Builds a spec table in code: `table!(Type { field: value, other, .. })`
/// sets the fields named (`other` alone takes the variable of that name)
/// and leaves every other field at its default, so code that builds tables
/// keeps compiling when the spec gains a field. See the [module](self).
#[doc(hidden)]
#[macro_export]
macro_rules! __raw_format_table {
    ($ty:path { $($field:ident $(: $value:expr)?),* $(,)? }) => {{
        let mut table = <$ty as ::core::default::Default>::default();
        $( $crate::__raw_format_table!(@set table $field $($value)?); )*
        table
    }};
    (@set $table:ident $field:ident $value:expr) => {
        $table.$field = $value;
    };
    (@set $table:ident $field:ident) => {
        $table.$field = $field;
    };
}
#[doc(inline)]
pub use crate::__raw_format_table as table;

#[cfg(test)]
mod datatype_tests;
