//! Issue 22, item 3: an attribute that a delete condition uses, dropped by
//! a schema evolution (ours or the engine's). The engine then refuses every
//! read ("Field doesn't exist"); so do we, naming the field, rather than
//! answering an empty array.

use crate::common;
use common::{cli, scratch};

use std::path::Path;
use std::process::Command;

use serde_json::Value;
use tiledb_codec::raw::error::Error;
use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

fn engine(cmd: &str, path: &Path) -> String {
    let out = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/i22_drop_deleted.py"))
        .arg(cmd)
        .arg(path)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "i22_drop_deleted.py {cmd}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Our library and command line refuse to read `array`, naming field `a`.
fn refused_by_us(array: &Path) {
    let reader = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    let err = reader.read(&Query::new()).unwrap_err();
    assert!(matches!(err, Error::Query { .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("\"a\"") && msg.contains("delete"), "{msg}");
    let err = aggregate(
        &reader,
        &Query::new(),
        &[Aggregate::parse("count(*)").unwrap()],
    )
    .unwrap_err();
    assert!(err.to_string().contains("\"a\""), "{err}");
    let path = array.to_str().unwrap();
    for args in [
        vec!["export", path],
        vec!["aggregate", path, "count(*)"],
        vec!["aggregate", path, "sum(b)"],
    ] {
        let out = cli(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?} must fail");
        assert!(out.stdout.is_empty(), "{args:?} printed cells");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("\"a\"") && err.contains("delete"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_dropped_attribute_that_a_delete_uses_fails_reads_as_the_engine_does() {
    let dir = scratch("drop-deleted");
    // Before the drop, both read the six cells the delete leaves.
    let ours_evolved = dir.join("ours");
    engine("make", &ours_evolved);
    let before: Value = serde_json::from_str(&engine("read", &ours_evolved)).unwrap();
    assert_eq!(before["cells"], 6);
    let reader = ArrayReader::open(&ours_evolved, &ReadOptions::default()).unwrap();
    assert_eq!(reader.read(&Query::new()).unwrap().len, 6);

    // Our evolve drops it (the engine's evolve allows that too) ...
    let engine_evolved = dir.join("engine");
    common::copy_dir(&ours_evolved, &engine_evolved);
    let out = cli(&[
        "evolve",
        ours_evolved.to_str().unwrap(),
        "--drop-attribute",
        "a",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    engine("drop", &engine_evolved);

    // ... and then the engine refuses to read either array, and so do we.
    for array in [&ours_evolved, &engine_evolved] {
        let after: Value = serde_json::from_str(&engine("read", array)).unwrap();
        for key in ["read_error", "count_error"] {
            assert!(
                after[key]
                    .as_str()
                    .is_some_and(|e| e.contains("Field doesn't exist")),
                "{}: the engine: {after}",
                array.display()
            );
        }
        refused_by_us(array);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
