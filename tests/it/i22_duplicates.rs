//! Issue 22, item 2: duplicate coordinates in a sparse array that does not
//! allow them. Within one write the engine refuses them ("Duplicate
//! coordinates (3) are not allowed"); so do the importer and the fragment
//! writer, naming the coordinate. Across writes they are no error (the
//! newer cell wins). And `verify` reports a fragment that holds repeats.

use crate::common;
use common::{cli, scratch};

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::write::{create_array, Column, FragmentWriter, WriteError, WriteOptions};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::verify::verify;

fn schema(dups: bool) -> Value {
    json!({
        "array_type": "sparse",
        "capacity": 100,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": dups,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 99], "tile_extent": 10}
        ],
        "attributes": [{"name": "a", "datatype": "INT32"}]
    })
}

fn columns(ds: &[i64], a: &[i32]) -> Vec<Column> {
    vec![
        Column::fixed("d", ds.iter().flat_map(|v| v.to_le_bytes()).collect()),
        Column::fixed("a", a.iter().flat_map(|v| v.to_le_bytes()).collect()),
    ]
}

/// (d, a) of every cell our reader reads, sorted.
fn ours(array: &Path) -> Vec<(i64, i32)> {
    let reader = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    let c = reader.read(&Query::new()).unwrap();
    let (d, a) = (c.column("d").unwrap(), c.column("a").unwrap());
    let mut v: Vec<(i64, i32)> = (0..c.len)
        .map(|i| {
            (
                i64::from_le_bytes(d.get(i).unwrap().try_into().unwrap()),
                i32::from_le_bytes(a.get(i).unwrap().try_into().unwrap()),
            )
        })
        .collect();
    v.sort_unstable();
    v
}

fn fragments(array: &Path) -> usize {
    std::fs::read_dir(array.join("__fragments")).map_or(0, |d| d.count())
}

#[test]
fn duplicates_within_one_write_are_refused_as_the_engine_refuses_them() {
    let dir = scratch("dups-write");
    // The engine: refused within one write, the newer wins across writes.
    let engine_array = dir.join("engine");
    let out = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/i22_duplicates.py"))
        .arg(&engine_array)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let engine: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(engine["refused"]
        .as_str()
        .unwrap()
        .contains("Duplicate coordinates (3)"));
    assert_eq!(engine["cells"], json!([[1, 10], [3, 32]]));
    assert_eq!(ours(&engine_array), [(1, 10), (3, 32)]);

    // The command line, into a new array and into the engine's.
    let dups = dir.join("dups.ndjson");
    std::fs::write(
        &dups,
        "{\"d\":1,\"a\":10}\n{\"d\":3,\"a\":30}\n{\"d\":3,\"a\":31}\n",
    )
    .unwrap();
    let schema_file = dir.join("schema.json");
    std::fs::write(&schema_file, schema(false).to_string()).unwrap();
    let new = dir.join("new");
    let (new_s, dups_s) = (new.to_str().unwrap(), dups.to_str().unwrap());
    let out = cli(&[
        "import",
        new_s,
        "--schema",
        schema_file.to_str().unwrap(),
        "--cells",
        dups_s,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("(d=3) given more than once"), "{err}");
    assert!(!new.exists(), "the array the import created stays");
    let before = fragments(&engine_array);
    let out = cli(&["import", engine_array.to_str().unwrap(), "--cells", dups_s]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("(d=3) given more than once"));
    assert_eq!(fragments(&engine_array), before);

    // Across writes: no error, the newer cell wins, for both readers.
    let once = dir.join("once.ndjson");
    std::fs::write(&once, "{\"d\":3,\"a\":33}\n{\"d\":5,\"a\":50}\n").unwrap();
    let out = cli(&[
        "import",
        engine_array.to_str().unwrap(),
        "--cells",
        once.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(ours(&engine_array), [(1, 10), (3, 33), (5, 50)]);
    let mut cells: Vec<(i64, i64)> = common::engine_cells(&engine_array, None)
        .iter()
        .map(|c| (c["d"].as_i64().unwrap(), c["a"].as_i64().unwrap()))
        .collect();
    cells.sort_unstable();
    assert_eq!(cells, [(1, 10), (3, 33), (5, 50)]);

    // The library's writers: sorting (refused at finish), in global order
    // (refused at the write), and as consolidation asks (the last kept).
    let lib = dir.join("lib");
    create_array(&lib, &schema(false)).unwrap();
    let mut w = FragmentWriter::sparse(&lib, WriteOptions::default()).unwrap();
    w.write(&columns(&[7, 3, 7], &[1, 2, 3])).unwrap();
    let err = w.finish().unwrap_err();
    assert!(
        matches!(&err, WriteError::Cells { field, what } if field == "coordinates" && what.contains("(d=7)")),
        "{err}"
    );
    let mut w = FragmentWriter::sparse_in_order(&lib, WriteOptions::default()).unwrap();
    let err = w.write(&columns(&[3, 4, 4], &[1, 2, 3])).unwrap_err();
    assert!(err.to_string().contains("(d=4)"), "{err}");
    drop(w);
    assert_eq!(fragments(&lib), 0, "a refused write left a fragment");
    let keep = WriteOptions::default().with_keep_last_duplicate(true);
    let mut w = FragmentWriter::sparse(&lib, keep).unwrap();
    w.write(&columns(&[7, 3, 7], &[1, 2, 3])).unwrap();
    let info = w.finish().unwrap();
    assert_eq!((info.cells, info.duplicates_dropped), (2, 1));
    assert_eq!(ours(&lib), [(3, 2), (7, 3)]);
    // An array that allows duplicates takes them.
    let allows = dir.join("allows");
    create_array(&allows, &schema(true)).unwrap();
    let mut w = FragmentWriter::sparse(&allows, WriteOptions::default()).unwrap();
    w.write(&columns(&[7, 3, 7], &[1, 2, 3])).unwrap();
    assert_eq!(w.finish().unwrap().cells, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_reports_repeated_coordinates_inside_a_fragment() {
    let dir = scratch("dups-verify");
    // A fragment with repeats, written where duplicates are allowed; then
    // the array's schema file is replaced by the same schema without them
    // (same file name, so the fragment still names it).
    let array = dir.join("array");
    create_array(&array, &schema(true)).unwrap();
    let mut w = FragmentWriter::sparse(&array, WriteOptions::default()).unwrap();
    w.write(&columns(&[2, 9, 2, 5, 9], &[1, 2, 3, 4, 5]))
        .unwrap();
    w.finish().unwrap();
    assert!(verify(&array, &ReadOptions::default()).unwrap().ok());
    let strict = dir.join("strict");
    create_array(&strict, &schema(false)).unwrap();
    let only_file = |a: &Path| {
        let mut files: Vec<PathBuf> = std::fs::read_dir(a.join("__schema"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect();
        assert_eq!(files.len(), 1);
        files.pop().unwrap()
    };
    std::fs::copy(only_file(&strict), only_file(&array)).unwrap();

    let report = verify(&array, &ReadOptions::default()).unwrap();
    assert!(!report.ok());
    let what: Vec<&str> = report.problems.iter().map(|p| p.what.as_str()).collect();
    assert_eq!(what.len(), 1, "{what:?}");
    assert!(
        what[0].contains("2 cell(s) repeat") && what[0].contains("(d=2)"),
        "{what:?}"
    );
    let out = cli(&["verify", array.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("repeat the coordinates"), "{text}");
    // A fragment without repeats in the same array is fine.
    let clean = dir.join("clean");
    create_array(&clean, &schema(false)).unwrap();
    let mut w = FragmentWriter::sparse(&clean, WriteOptions::default()).unwrap();
    w.write(&columns(&[2, 9, 5], &[1, 2, 3])).unwrap();
    w.finish().unwrap();
    assert!(verify(&clean, &ReadOptions::default()).unwrap().ok());
    let _ = std::fs::remove_dir_all(&dir);
}
