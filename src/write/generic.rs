//! Generic tiles as the engine writes them (generic_tile_io.cc
//! `GenericTileIO::write_generic`): header, then the tile filtered by a
//! one-filter pipeline, GZIP at level 1, in chunks of at most 64 KiB. In an
//! encrypted array the pipeline gets the AES-256-GCM filter after GZIP
//! (`init_generic_tile_header`, `FilterPipeline::append_encryption_filter`)
//! and the header's encryption type says so: that header field is the only
//! place an array records that it is encrypted.

use crate::format::{CompressorOptions, Filter, FilterOptions, FilterType, Record};

use super::error::{WriteError, WriteResult};

/// The filter of the engine's generic tiles: GZIP, level 1.
pub fn generic_tile_filter() -> Filter {
    let options = FilterOptions::Compressor(crate::format::table!(CompressorOptions {
        compressor_type: crate::format::Compressor::Gzip,
        compression_level: 1,
        reinterpret_datatype: None,
    }));
    crate::format::table!(Filter {
        filter_type: FilterType::Gzip,
        filter_options: options,
    })
    .with_sizes()
}

/// The AES-256-GCM filter as the engine serializes it in a generic tile's
/// pipeline: no options.
fn encryption_filter() -> Filter {
    crate::format::table!(Filter {
        filter_type: FilterType::Aes256Gcm,
        filter_options: FilterOptions::NoOptions,
    })
    .with_sizes()
}

/// Wraps `data` in a generic tile whose header states format `version`,
/// encrypted with `key` when one is given.
pub fn generic_tile(data: &[u8], version: u32, key: Option<[u8; 32]>) -> WriteResult<Vec<u8>> {
    let mut filters = vec![generic_tile_filter()];
    if key.is_some() {
        filters.push(encryption_filter());
    }
    crate::tile::generic_tile_with(data, version, filters, key).map_err(|e| WriteError::Filter {
        field: "generic tile".into(),
        filter: e.filter,
        what: e.what,
    })
}
