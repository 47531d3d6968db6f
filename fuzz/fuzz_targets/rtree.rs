//! `RTree` (the data of the R-tree generic tile) of a fuzzed footer version
//! and fuzzed dimensions.
//!
//! Input: version (u8), dimension count (u8, % 5), four coordinate size
//! codes (index into {0, 1, 2, 4, 8}), R-tree bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::format::{decode, RTree};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    version: u8,
    num_dims: u8,
    sizes: [u8; 4],
    bytes: &'a [u8],
}

fuzz_target!(|input: Input| {
    let dims = tiledb_codec_fuzz::dims(input.num_dims, input.sizes);
    let path = tiledb_codec_fuzz::path("fuzz/__fragment_metadata.tdb");
    let version = u32::from(input.version);
    if let Ok((tree, _)) = decode::<RTree>(input.bytes, path, 0, (version, dims)) {
        let _ = serde_json::to_string(&tree);
    }
});
