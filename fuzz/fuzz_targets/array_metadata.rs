//! `ArrayMetadata` (the data of a `__meta` generic tile) and the JSON value
//! of every entry.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::format::{decode, ArrayMetadata, Datatype};
use tiledb_codec::raw::model::MetadataValue;
use tiledb_codec_cli::inspect::metadata_value;

fuzz_target!(|data: &[u8]| {
    let path = tiledb_codec_fuzz::path("fuzz/__meta/__1_1_0123456789abcdef0123456789abcdef");
    let Ok((md, _)) = decode::<ArrayMetadata>(data, path, 0, ()) else {
        return;
    };
    for e in &md.entries {
        if let Some(dt) = e.value_type.and_then(Datatype::known) {
            let v = MetadataValue::new(dt, e.value.clone().unwrap_or_default());
            let _ = metadata_value(&v);
        }
    }
    let _ = serde_json::to_string(&md);
});
