//! The TileDB format: the codecs `tiledb-codec-format` generates from
//! `spec/`, with errors that name the file.
//!
//! Everything of [`tiledb_codec_format`] is here; [`decode`], [`decode_all`]
//! and [`schema::enumeration_values`] take the file the bytes came from
//! and give an [`Error::Decode`] naming it, the offset, the spec table and
//! the field:
//!
//! ```
//! use tiledb_codec::raw::format::{decode_all, encode, table, Compressor, CompressorOptions, Filter, FilterOptions, FilterType, Record};
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
//! let back: Filter = decode_all(&bytes, "in memory".as_ref(), 0, (22,))?;
//! assert_eq!(back, zstd);
//! assert_eq!(bytes.len(), 1 + 4 + 5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;

use binrw::BinRead;

use crate::error::{Error, Result};

pub mod names;
pub(crate) mod native;

#[doc(inline)]
pub use tiledb_codec_format::*;

/// Decodes a `T` from the start of `bytes`, which sit at `base` in `file`.
/// Returns the value and the number of bytes it took.
pub fn decode<T>(
    bytes: &[u8],
    file: &Path,
    base: u64,
    args: <T as BinRead>::Args<'_>,
) -> Result<(T, u64)>
where
    T: BinRead,
{
    tiledb_codec_format::decode(bytes, base, args).map_err(|e| Error::in_file(file, e))
}

/// Decodes a `T` that must take exactly all of `bytes`.
pub fn decode_all<T>(
    bytes: &[u8],
    file: &Path,
    base: u64,
    args: <T as BinRead>::Args<'_>,
) -> Result<T>
where
    T: BinRead,
{
    tiledb_codec_format::decode_all(bytes, base, args).map_err(|e| Error::in_file(file, e))
}

/// Facts about a decoded array schema that every layer above the tables
/// needs ([`tiledb_codec_format::schema`]), with errors naming the file.
pub mod schema {
    use std::path::Path;

    use super::Enumeration;
    use crate::error::{Error, Result};

    #[doc(inline)]
    pub use tiledb_codec_format::schema::*;

    /// The values of an enumeration, each as its bytes
    /// ([`tiledb_codec_format::schema::enumeration_values`]); an error names
    /// `path`, the enumeration's file.
    pub fn enumeration_values<'a>(e: &'a Enumeration, path: &Path) -> Result<Vec<&'a [u8]>> {
        tiledb_codec_format::schema::enumeration_values(e).map_err(|err| Error::in_file(path, err))
    }
}
