//! Version-aware writing: arrays of format versions 10 to 22 (schemas,
//! fragments and their footers, metadata) written with the generated codecs
//! and read back by this crate and by the engine.

use crate::write_support;

use serde_json::{json, Value};
use tiledb_codec::raw::array::fragment::{Fragment, Metadata};
use tiledb_codec::raw::array::schema::read_schema;
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::write::schema::create_array_with;
use tiledb_codec::raw::write::{put_metadata, Column, CreateOptions, FragmentWriter, WriteOptions};
use tiledb_codec::ReadOptions;
use write_support::{diff_cells, engine_account, engine_cells, our_cells, TempDir};

fn schema(dense: bool) -> Value {
    json!({
        "array_type": if dense { "dense" } else { "sparse" },
        "capacity": 3,
        "dimensions": [
            {"name": "x", "datatype": "INT32", "domain": [0, 9], "tile_extent": 4},
            {"name": "y", "datatype": "INT32", "domain": [0, 9], "tile_extent": 4}
        ],
        "attributes": [
            {"name": "a", "datatype": "INT64", "filters": [{"type": "ZSTD", "level": 3}]},
            {"name": "s", "datatype": "STRING_UTF8", "cell_val_num": "var", "filters": [{"type": "GZIP", "level": 6}]},
            {"name": "n", "datatype": "FLOAT64", "nullable": true, "filters": [{"type": "BYTESHUFFLE"}, {"type": "LZ4"}]}
        ],
    })
}

fn le<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.iter().flat_map(|x| f(*x)).collect()
}

/// Writes one fragment of 3x3 cells at rows/cols 1..=3 and returns the
/// cells as our reader shows them.
fn write(path: &std::path::Path, dense: bool, version: u32) -> Vec<Value> {
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for x in 1..=3i32 {
        for y in 1..=3i32 {
            xs.push(x);
            ys.push(y);
        }
    }
    let a: Vec<i64> = (0..9).map(|i| i * 100 - 7).collect();
    let s: Vec<String> = (0..9).map(|i| "é".repeat(i)).collect();
    let n: Vec<f64> = (0..9).map(|i| i as f64 / 4.0).collect();
    let valid: Vec<u8> = (0..9).map(|i| u8::from(i % 3 != 1)).collect();
    let mut cols = vec![
        Column::fixed("a", le(&a, i64::to_le_bytes)),
        Column::from_values("s", &s),
        Column::fixed("n", le(&n, f64::to_le_bytes)).with_validity(valid.clone()),
    ];
    let opts = WriteOptions::default();
    let mut w = if dense {
        FragmentWriter::dense(path, &[(1, 3), (1, 3)], opts).unwrap()
    } else {
        cols.push(Column::fixed("x", le(&xs, i32::to_le_bytes)));
        cols.push(Column::fixed("y", le(&ys, i32::to_le_bytes)));
        FragmentWriter::sparse(path, opts).unwrap()
    };
    w.write(&cols).unwrap();
    let info = w.finish().unwrap();
    assert_eq!(info.version, version);
    let mut expected = Vec::new();
    for i in 0..9 {
        expected.push(json!({
            "x": xs[i], "y": ys[i], "a": a[i], "s": s[i],
            "n": if valid[i] == 1 { json!(n[i]) } else { Value::Null },
        }));
    }
    expected
}

#[test]
fn every_version_from_10_reads_back_here_and_in_the_engine() {
    let tmp = TempDir::new("write-versions");
    let mut failures = Vec::new();
    for version in 10..=22u32 {
        for dense in [true, false] {
            let path = tmp.join(&format!(
                "v{version}_{}",
                if dense { "dense" } else { "sparse" }
            ));
            let opts = CreateOptions::default().with_version(version);
            create_array_with(&path, &schema(dense), &opts).unwrap();
            let expected = write(&path, dense, version);
            put_metadata(&path, "k", Datatype::Int32, &7i32.to_le_bytes()).unwrap();
            // The schema and the footer are of that version.
            let dir = ArrayDirectory::open(&path).unwrap();
            let s = read_schema(&dir.latest_schema().unwrap(), &ReadOptions::default()).unwrap();
            assert_eq!(s.array_version, version);
            assert_eq!(dir.fragments.len(), 1, "v{version}");
            let frag = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
            let Metadata::Footer(f) = &frag.metadata else {
                panic!()
            };
            assert_eq!(f.version_number, version);
            // As the engine writes them: a dense footer counts no tiles and
            // its last tile is a whole space tile (4 x 4 cells); the sparse
            // one's 9 cells make 3 tiles of its capacity, 3.
            let counts = if dense { (0, 16) } else { (3, 3) };
            assert_eq!(
                (f.sparse_tile_num, f.last_tile_cell_num),
                counts,
                "v{version} dense={dense}"
            );
            assert_eq!(frag.name.version, version);
            // Before version 12 fragments sit in the array folder with `.ok` markers.
            let in_root = dir.fragments[0].path.parent() == Some(path.as_path());
            assert_eq!(in_root, version < 12, "v{version}");
            // Our reader.
            let ours = our_cells(&path).unwrap();
            if let Some(d) = diff_cells(ours, expected.clone()) {
                failures.push(format!("v{version} dense={dense}: our reader: {d}"));
            }
            // The engine.
            match engine_cells(&path) {
                Ok(cells) => {
                    if let Some(d) = diff_cells(cells, expected) {
                        failures.push(format!("v{version} dense={dense}: engine: {d}"));
                    }
                }
                Err(e) => failures.push(format!("v{version} dense={dense}: engine: {e}")),
            }
            let acc = engine_account(&path).unwrap();
            assert_eq!(acc["metadata"], json!({"k": 7}), "v{version}");
            assert_eq!(acc["schema"]["version"], json!(version), "v{version}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
