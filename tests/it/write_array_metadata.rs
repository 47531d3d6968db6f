//! Array metadata written by the crate (`__meta/<name>` generic tiles),
//! read by the engine and by this crate; later files override, deletions
//! remove.

use crate::write_support;

use serde_json::json;
use tiledb_codec::raw::array::metadata::read_array_metadata;
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::write::{create_array, delete_metadata, put_metadata, WriteError};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::metadata_json;
use write_support::{engine_account, TempDir};

#[test]
fn metadata_reads_back_in_the_engine() {
    let tmp = TempDir::new("write-meta-kv");
    let path = tmp.join("a");
    create_array(
        &path,
        &json!({
            "array_type": "sparse",
            "dimensions": [{"name": "d", "datatype": "INT32", "domain": [0, 9], "tile_extent": 5}],
            "attributes": [{"name": "a", "datatype": "INT32"}],
        }),
    )
    .unwrap();
    put_metadata(&path, "i", Datatype::Int32, &7i32.to_le_bytes()).unwrap();
    let fs: Vec<u8> = [1.5f64, -2.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    put_metadata(&path, "f", Datatype::Float64, &fs).unwrap();
    put_metadata(&path, "s", Datatype::StringUtf8, "héllo".as_bytes()).unwrap();
    put_metadata(&path, "gone", Datatype::Uint8, &[1]).unwrap();
    put_metadata(&path, "i", Datatype::Int64, &(-9i64).to_le_bytes()).unwrap();
    delete_metadata(&path, "gone").unwrap();
    let want = json!({"i": -9, "f": [1.5, -2.0], "s": "héllo"});
    let acc = engine_account(&path).unwrap();
    assert_eq!(acc["metadata"], want);
    let dir = ArrayDirectory::open(&path).unwrap();
    assert_eq!(dir.metadata.len(), 6);
    let ours = metadata_json(&read_array_metadata(&dir, &ReadOptions::default()).unwrap());
    assert_eq!(ours, want, "{ours}");
    assert!(ours.get("gone").is_none(), "{ours}");
    // Nothing half-written is left behind.
    for e in std::fs::read_dir(path.join("__meta")).unwrap() {
        assert!(!e.unwrap().file_name().to_string_lossy().ends_with(".tmp"));
    }
    let e = put_metadata(&path, "bad", Datatype::Int32, &[1, 2, 3]).unwrap_err();
    // A refusal naming the array and the key (not "cells: ...").
    assert!(matches!(e, WriteError::Array { .. }), "{e}");
    assert!(e.to_string().contains("\"bad\""), "{e}");
    let e = put_metadata(&tmp.join("nothing"), "k", Datatype::Int32, &[0; 4]).unwrap_err();
    assert!(e.to_string().contains("not an array"), "{e}");
}
