//! `FragmentFooter` of any version (the version is the footer's first
//! field) for fuzzed dimensions and attribute count.
//!
//! Input: dimension count (u8, % 5), four coordinate size codes (u8 each,
//! index into {0, 1, 2, 4, 8}), attribute count (u8, % 9), footer bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::format::{decode, FragmentFooter};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    num_dims: u8,
    sizes: [u8; 4],
    num_attributes: u8,
    bytes: &'a [u8],
}

fuzz_target!(|input: Input| {
    let dims = tiledb_codec_fuzz::dims(input.num_dims, input.sizes);
    let attrs = u64::from(input.num_attributes % 9);
    let path = tiledb_codec_fuzz::path("fuzz/__fragment_metadata.tdb");
    if let Ok((footer, _)) = decode::<FragmentFooter>(input.bytes, path, 0, (dims, attrs)) {
        let _ = serde_json::to_string(&footer);
    }
});
