//! Generic tiles as the engine writes them (generic_tile_io.cc
//! `GenericTileIO::write_generic`): header, then the tile filtered by a
//! one-filter pipeline, GZIP at level 1, in chunks of at most 64 KiB.

use crate::filters::Pipeline;
use crate::format::{
    encode, CompressorOptions, Datatype, EncryptionType, Filter, FilterOptions, FilterPipeline,
    FilterType, GenericTileHeader,
};

use super::error::{WriteError, WriteResult};

/// The filter of the engine's generic tiles: GZIP, level 1.
pub fn generic_tile_filter() -> Filter {
    Filter {
        filter_type: FilterType::Gzip.value(),
        filter_options_size: 5,
        filter_options: FilterOptions::Compressor(CompressorOptions {
            compressor_type: crate::format::Compressor::Gzip.value(),
            compression_level: 1,
            reinterpret_datatype: None,
        }),
    }
}

/// Wraps `data` in a generic tile whose header states format `version`.
pub fn generic_tile(data: &[u8], version: u32) -> WriteResult<Vec<u8>> {
    let filter = generic_tile_filter();
    let err = |e: crate::filters::FilterError| WriteError::Filter {
        field: "generic tile".into(),
        filter: e.filter,
        what: e.what,
    };
    let pipeline =
        Pipeline::new(std::slice::from_ref(&filter), Datatype::Char, 1, version).map_err(err)?;
    let body = pipeline.forward_tile(data).map_err(err)?;
    let fp = FilterPipeline {
        max_chunk_size: 65536,
        num_filters: 1,
        filters: vec![filter],
    };
    let header = GenericTileHeader {
        version_number: version,
        persisted_size: body.len() as u64,
        tile_size: data.len() as u64,
        datatype: Datatype::Char.value(),
        cell_size: 1,
        encryption_type: EncryptionType::NoEncryption.value(),
        filter_pipeline_size: encode(&fp).len() as u32,
        filter_pipeline: fp,
    };
    let mut out = encode(&header);
    out.extend_from_slice(&body);
    Ok(out)
}
