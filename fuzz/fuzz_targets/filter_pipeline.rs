//! A serialized `FilterPipeline` of a fuzzed format version, built for a
//! fuzzed datatype and cell size, run backward over fuzzed chunk metadata
//! and data: every filter's chunk metadata and decoding.
//!
//! Input: version (u8), datatype (u8, index into `Datatype::ALL`), cell
//! size (u16 LE), flags (u8: bit 0 key, bit 1 var offsets, bit 2 the
//! engine's AES stage appended), pipeline length (u16 LE), metadata length
//! (u16 LE), then pipeline, metadata and data bytes.
#![no_main]

use std::cell::RefCell;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::filters::Pipeline;
use tiledb_codec::raw::format::{decode, FilterPipeline};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    version: u8,
    datatype: u8,
    cell_size: u16,
    flags: u8,
    pipeline_len: u16,
    metadata_len: u16,
    rest: &'a [u8],
}

fuzz_target!(|input: Input| {
    let version = u32::from(input.version);
    let rest = input.rest;
    let p_len = usize::from(input.pipeline_len).min(rest.len());
    let (pipeline_bytes, rest) = rest.split_at(p_len);
    let m_len = usize::from(input.metadata_len).min(rest.len());
    let (metadata, data) = rest.split_at(m_len);
    let path = tiledb_codec_fuzz::path("fuzz/pipeline");
    let Ok((serialized, _)) = decode::<FilterPipeline>(pipeline_bytes, path, 0, (version,)) else {
        return;
    };
    let datatype = tiledb_codec_fuzz::datatype(input.datatype);
    let Ok(mut pipeline) = Pipeline::new(
        &serialized.filters,
        datatype,
        u64::from(input.cell_size),
        version,
    ) else {
        return;
    };
    if input.flags & 4 != 0 {
        match pipeline.with_encryption(tiledb_codec_fuzz::KEY) {
            Ok(p) => pipeline = p,
            Err(_) => return,
        }
    } else if input.flags & 1 != 0 {
        pipeline = pipeline.with_key(Some(tiledb_codec_fuzz::KEY));
    }
    let offsets = RefCell::new(Vec::new());
    let folded = (input.flags & 2 != 0).then_some(&offsets);
    // The limit a reader passes down (ReadOptions::max_tile_bytes); the
    // regression runner in tests/it/sweep.rs uses the same.
    let _ = pipeline.reverse_chunk_within(metadata, data, folded, 16 << 20);
});
