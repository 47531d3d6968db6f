//! The plain commit files (`.con`, `.ign`, `.vac`) and the table that
//! starts a consolidated fragment metadata (`.meta`) tile.
//!
//! Input: table (u8, % 4: consolidated commits, ignore, vacuum,
//! consolidated fragment metadata), file bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::format::{
    decode, decode_all, ConsolidatedCommits, ConsolidatedFragmentMetadata, IgnoreFile, VacuumFile,
};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    table: u8,
    bytes: &'a [u8],
}

fn run<T: binrw::BinRead + serde::Serialize>(bytes: &[u8], args: T::Args<'_>) {
    let path =
        tiledb_codec_fuzz::path("fuzz/__commits/__1_1_0123456789abcdef0123456789abcdef_22.con");
    if let Ok(v) = decode_all::<T>(bytes, path, 0, args) {
        let _ = serde_json::to_string(&v);
    }
}

fuzz_target!(|input: Input| {
    let b = input.bytes;
    match input.table % 4 {
        0 => run::<ConsolidatedCommits>(b, ()),
        1 => run::<IgnoreFile>(b, ()),
        2 => run::<VacuumFile>(b, ()),
        _ => {
            let path = tiledb_codec_fuzz::path("fuzz/__fragment_meta/x.meta");
            if let Ok((v, _)) = decode::<ConsolidatedFragmentMetadata>(b, path, 0, ()) {
                let _ = serde_json::to_string(&v);
            }
        }
    }
});
