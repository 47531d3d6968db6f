//! A file of generic tiles: the header, its filter pipeline, and every
//! filter run backward over every chunk. Reads tiles one after the other,
//! as a fragment metadata file holds them; a tile whose header says it is
//! encrypted is also read with a key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::read_generic_tile;

fuzz_target!(|data: &[u8]| {
    run(data);
});

fn run(data: &[u8]) {
    let file = MappedFile::from_vec("fuzz/generic_tile.tdb", data.to_vec());
    let opts = tiledb_codec_fuzz::opts();
    let mut offset = 0;
    for _ in 0..4 {
        let Ok(tile) = read_generic_tile(&file, offset, &opts) else {
            break;
        };
        let _ = serde_json::to_string(&tile.header);
        if tile.end <= offset {
            break;
        }
        offset = tile.end;
    }
    // Byte 29 of a header is its encryption type (1: AES-256-GCM).
    if data.get(29) == Some(&1) {
        let _ = read_generic_tile(&file, 0, &opts.with_key(tiledb_codec_fuzz::KEY));
    }
}
