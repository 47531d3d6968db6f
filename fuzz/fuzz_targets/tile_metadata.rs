//! The generic tiles of fragment metadata other than the footer and the
//! R-tree: tile offsets/sizes, mins and maxes, sums, null counts, the
//! fragment-wide min/max/sum/null count, processed conditions, optional
//! sections and global-order bounds, and the whole legacy (version 1-2)
//! fragment metadata.
//!
//! Input: table (u8, see `TABLES`), count (u8), dimension count (u8, % 5),
//! four coordinate size codes (index into {0, 1, 2, 4, 8}), attribute
//! count (u8, % 9), table bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::format::{
    decode, FragmentMinMaxSumNullCount, LegacyFragmentMetadata, LegacyTileOffsets, OptionalSection,
    ProcessedConditions, TileGlobalOrderBounds, TileMinMax, TileNullCounts, TileOffsets, TileSums,
};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    table: u8,
    count: u8,
    num_dims: u8,
    sizes: [u8; 4],
    num_attributes: u8,
    bytes: &'a [u8],
}

fn run<T: binrw::BinRead + serde::Serialize>(bytes: &[u8], args: T::Args<'_>) {
    let path = tiledb_codec_fuzz::path("fuzz/__fragment_metadata.tdb");
    if let Ok((v, _)) = decode::<T>(bytes, path, 0, args) {
        let _ = serde_json::to_string(&v);
    }
}

fuzz_target!(|input: Input| {
    let dims = tiledb_codec_fuzz::dims(input.num_dims, input.sizes);
    let attrs = u64::from(input.num_attributes % 9);
    let count = u64::from(input.count % 17);
    let b = input.bytes;
    match input.table % 10 {
        0 => run::<TileOffsets>(b, ()),
        1 => run::<TileMinMax>(b, ()),
        2 => run::<TileSums>(b, ()),
        3 => run::<TileNullCounts>(b, ()),
        4 => run::<FragmentMinMaxSumNullCount>(b, (count,)),
        5 => run::<ProcessedConditions>(b, ()),
        6 => {
            // As fragment.rs derives the sizes from the schema's dimensions.
            let mbr: u64 = dims.iter().map(|s| 2 * s).sum();
            let bounding = 2 * dims.len() as u64 * dims.first().copied().unwrap_or(0);
            run::<LegacyFragmentMetadata>(b, (attrs, mbr, bounding));
        }
        7 => run::<TileGlobalOrderBounds>(b, (dims.len() as u64,)),
        8 => run::<OptionalSection>(b, ()),
        _ => run::<LegacyTileOffsets>(b, (count,)),
    }
});
