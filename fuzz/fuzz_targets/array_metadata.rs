//! `ArrayMetadata` (the data of a `__meta` generic tile) and the JSON value
//! of every entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tiledb_codec::array::metadata::metadata_value;
use tiledb_codec::format::{decode, ArrayMetadata};

fuzz_target!(|data: &[u8]| {
    let path = tiledb_codec_fuzz::path("fuzz/__meta/__1_1_0123456789abcdef0123456789abcdef");
    let Ok((md, _)) = decode::<ArrayMetadata>(data, path, 0, ()) else {
        return;
    };
    for e in &md.entries {
        let _ = metadata_value(
            e.value_type.unwrap_or(u8::MAX),
            e.value.as_deref().unwrap_or(&[]),
        );
    }
    let _ = serde_json::to_string(&md);
});
