//! Issue 22, item 5: creating an array (or a group) is safe to race. Two
//! imports into one new path at once: one creates the array, the other
//! writes into it as a second writer (same schema) or fails saying it
//! already exists (another schema); no process removes what it did not
//! create, and every import reported done has its cells there, as the
//! engine and our reader read them.

use crate::common;
use common::scratch;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier};

use serde_json::{json, Value};
use tiledb_codec::maintain::create_group;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::write::{import_with, CellFormat, ImportOptions};
use tiledb_codec::ReadOptions;

fn schema(attr_type: &str) -> Value {
    json!({
        "array_type": "sparse",
        "capacity": 100,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": false,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 999], "tile_extent": 10}
        ],
        "attributes": [{"name": "a", "datatype": attr_type}]
    })
}

/// Cells `d = base .. base + n` with `a = d`.
fn cells(base: i64, n: i64) -> String {
    (base..base + n)
        .map(|d| format!("{{\"d\":{d},\"a\":{d}}}\n"))
        .collect()
}

fn spawn(array: &Path, schema: &Path, cells: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .arg("import")
        .arg(array)
        .arg("--schema")
        .arg(schema)
        .arg("--cells")
        .arg(cells)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// The `d` of every cell, sorted, as our reader and the engine read them.
fn both_read(array: &Path) -> Vec<i64> {
    let reader = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    let c = reader.read(&Query::new()).unwrap();
    let col = c.column("d").unwrap();
    let mut ours: Vec<i64> = (0..c.len)
        .map(|i| i64::from_le_bytes(col.get(i).unwrap().try_into().unwrap()))
        .collect();
    ours.sort_unstable();
    let mut engine: Vec<i64> = common::engine_cells(array, None)
        .iter()
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    engine.sort_unstable();
    assert_eq!(ours, engine, "{}: ours and the engine's", array.display());
    ours
}

/// Nothing hidden (a temporary or set-aside folder) is left next to the
/// arrays.
fn no_leftovers(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.starts_with('.'), "left behind: {name}");
    }
}

#[test]
fn two_command_line_imports_into_one_new_path() {
    let dir = scratch("race-cli");
    let int_schema = dir.join("int.json");
    std::fs::write(&int_schema, schema("INT64").to_string()).unwrap();
    let float_schema = dir.join("float.json");
    std::fs::write(&float_schema, schema("FLOAT64").to_string()).unwrap();
    let first = dir.join("first.ndjson");
    std::fs::write(&first, cells(0, 50)).unwrap();
    let second = dir.join("second.ndjson");
    std::fs::write(&second, cells(500, 50)).unwrap();
    let first_cells: Vec<i64> = (0..50).collect();
    let second_cells: Vec<i64> = (500..550).collect();

    let arrays = dir.join("arrays");
    std::fs::create_dir_all(&arrays).unwrap();
    for trial in 0..8 {
        // The same schema in even trials (both may write), another in odd
        // ones (one of them must fail).
        let same = trial % 2 == 0;
        let array = arrays.join(format!("trial{trial}"));
        let other_schema = if same { &int_schema } else { &float_schema };
        let a = spawn(&array, &int_schema, &first);
        let b = spawn(&array, other_schema, &second);
        let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
        let mut expected: Vec<i64> = Vec::new();
        for (out, cells) in outs.iter().zip([&first_cells, &second_cells]) {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.contains("panicked"), "trial {trial}: {err}");
            if out.status.success() {
                expected.extend(cells);
            } else {
                assert!(
                    err.contains("already exists"),
                    "trial {trial}: a failure must say the array already exists: {err}"
                );
            }
        }
        let done = outs.iter().filter(|o| o.status.success()).count();
        if same {
            assert_eq!(done, 2, "trial {trial}: both imports of one schema write");
        } else {
            assert_eq!(done, 1, "trial {trial}: one schema wins");
        }
        expected.sort_unstable();
        assert_eq!(both_read(&array), expected, "trial {trial}");
        no_leftovers(&arrays);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn many_threads_import_into_one_new_path_and_create_one_group() {
    let dir = scratch("race-threads");
    for trial in 0..4 {
        let array = Arc::new(dir.join(format!("array{trial}")));
        let n = 6;
        let barrier = Arc::new(Barrier::new(n));
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (array, barrier) = (array.clone(), barrier.clone());
                std::thread::spawn(move || {
                    let text = cells(i as i64 * 100, 20);
                    barrier.wait();
                    import_with(
                        &array,
                        &schema("INT64"),
                        text.as_bytes(),
                        CellFormat::Ndjson,
                        &ImportOptions::default(),
                    )
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let created = results
            .iter()
            .filter(|r| r.as_ref().is_ok_and(|s| s.created))
            .count();
        assert_eq!(created, 1, "trial {trial}: one creator");
        let mut expected = Vec::new();
        for (i, r) in results.iter().enumerate() {
            let s = r.as_ref().unwrap_or_else(|e| panic!("trial {trial}: {e}"));
            assert_eq!(s.cells, 20);
            expected.extend(i as i64 * 100..i as i64 * 100 + 20);
        }
        expected.sort_unstable();
        assert_eq!(both_read(&array), expected, "trial {trial}");
        no_leftovers(&dir);

        // Groups: one creator, the others told it already exists.
        let group = Arc::new(dir.join(format!("group{trial}")));
        let barrier = Arc::new(Barrier::new(n));
        let results: Vec<_> = (0..n)
            .map(|_| {
                let (group, barrier) = (group.clone(), barrier.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    create_group(&group)
                })
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
        for r in &results {
            if let Err(e) = r {
                assert!(matches!(e, tiledb_codec::Error::Array { .. }), "{e}");
                assert!(e.to_string().contains("already exists"), "{e}");
            }
        }
        assert!(group.join("__tiledb_group.tdb").is_file());
        no_leftovers(&dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
