//! Enumeration files (`Enumeration`) and group details (`GroupDetails`):
//! the data of their generic tiles.
//!
//! Input: table (u8: even enumeration, odd group details), bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::format::{decode, Enumeration, GroupDetails};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    table: u8,
    bytes: &'a [u8],
}

fuzz_target!(|input: Input| {
    let path = tiledb_codec_fuzz::path("fuzz/__schema/__enumerations/x");
    if input.table.is_multiple_of(2) {
        if let Ok((e, _)) = decode::<Enumeration>(input.bytes, path, 0, ()) {
            let _ = serde_json::to_string(&e);
        }
    } else if let Ok((g, _)) = decode::<GroupDetails>(input.bytes, path, 0, ()) {
        let _ = serde_json::to_string(&g);
    }
});
