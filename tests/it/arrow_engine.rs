//! Arrow against the TileDB engine and pyarrow (both in the engine's venv):
//! `export --format arrow` of every fixture, read by pyarrow, equals the
//! engine's cells; Arrow IPC and Parquet files written by pyarrow, imported
//! with the command line, read by the engine as the cells pyarrow wrote.

use crate::write_support;

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use write_support::common::{self, engine_python, root};
use write_support::{diff_cells, TempDir};

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
}

/// pyarrow's reading of an Arrow IPC stream (or a Parquet file):
/// (schema, rows) as tests/engine/arrow_rows.py prints them.
fn pyarrow_rows(path: &Path, parquet: bool) -> (Vec<Value>, Vec<Value>) {
    let mut args = vec![path.as_os_str()];
    if parquet {
        args.push(std::ffi::OsStr::new("--parquet"));
    }
    let out = common::engine_run("arrow_rows.py", args);
    assert!(
        out.status.success(),
        "arrow_rows.py on {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    (
        v["schema"].as_array().unwrap().clone(),
        v["rows"].as_array().unwrap().clone(),
    )
}

#[test]
fn export_arrow_of_every_fixture_is_the_engine_cells() {
    let tmp = TempDir::new("arrow-export");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut dictionaries = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let out = tmp.join(&format!("{}.arrows", f.id.replace('/', "_")));
        let mut cmd = cli();
        cmd.arg("export")
            .arg(&f.path)
            .args(["--format", "arrow", "-o"])
            .arg(&out);
        if let Some(k) = &f.key {
            cmd.args(["--encryption-key", k]);
        }
        let run = cmd.output().unwrap();
        if !run.status.success() {
            failures.push(format!(
                "{}: export failed: {}",
                f.id,
                String::from_utf8_lossy(&run.stderr)
            ));
            continue;
        }
        assert!(run.stdout.is_empty(), "-o leaves standard output alone");
        let (schema, rows) = pyarrow_rows(&out, false);
        dictionaries += schema
            .iter()
            .filter(|s| s["type"].as_str().unwrap().starts_with("dictionary<"))
            .count();
        let engine = common::engine_cells(&f.path, f.key.as_deref());
        checked += 1;
        if let Some(d) = diff_cells(rows, engine) {
            failures.push(format!("{}: pyarrow vs engine: {d}", f.id));
        }
    }
    assert!(checked > 20, "{checked} fixtures checked");
    assert!(dictionaries > 0, "enumerations come out as dictionaries");
    assert!(
        failures.is_empty(),
        "{} of {checked} fixtures differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Standard output carries the stream when no -o is given.
#[test]
fn export_arrow_to_standard_output() {
    let tmp = TempDir::new("arrow-stdout");
    let fixture = root().join("tests/fixtures/v22/dense_var_nullable");
    let run = cli()
        .arg("export")
        .arg(&fixture)
        .args(["--format", "arrow"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let path = tmp.join("out.arrows");
    std::fs::write(&path, &run.stdout).unwrap();
    let (schema, rows) = pyarrow_rows(&path, false);
    let names: Vec<&str> = schema.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["d", "s", "n", "ns"]);
    let types: Vec<&str> = schema.iter().map(|s| s["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["int32", "large_string", "int32", "large_string"]);
    assert_eq!(schema[2]["nullable"], json!(true));
    assert_eq!(
        schema[1]["metadata"]["tiledb.datatype"],
        json!("STRING_UTF8")
    );
    let engine = common::engine_cells(&fixture, None);
    assert_eq!(diff_cells(rows, engine), None);
}

/// A table pyarrow writes as an Arrow IPC file and a Parquet file: the
/// types its users have (Utf8, List, timestamps, nulls), not ours.
const WRITE_TABLE: &str = r#"
import sys
import pyarrow as pa, pyarrow.ipc, pyarrow.parquet
t = pa.table({
    "x": pa.array([7, 3, 5, 1], pa.int32()),
    "v": pa.array([1.5, -2.0, float("inf"), 0.0], pa.float64()),
    "s": pa.array(["héllo", None, "", "z"], pa.string()),
    "l": pa.array([[1, 2], [], [3], [4, 5, 6]], pa.list_(pa.int16())),
    "n": pa.array([None, 200, 3, None], pa.uint8()),
    "t": pa.array([0, 1700000000000, -5, 42], pa.timestamp("ms")),
    "f": pa.array([[1, 2], [3, 4], [5, 6], [7, 8]], pa.list_(pa.float32(), 2)),
})
with pa.OSFile(sys.argv[1], "wb") as f:
    with pa.ipc.new_file(f, t.schema) as w:
        w.write_table(t)
pa.parquet.write_table(t, sys.argv[2])
"#;

#[test]
fn the_engine_reads_arrays_imported_from_arrow_and_parquet() {
    let tmp = TempDir::new("arrow-import");
    let ipc = tmp.join("cells.arrow");
    let pq = tmp.join("cells.parquet");
    let out = Command::new(engine_python())
        .args(["-c", WRITE_TABLE])
        .arg(&ipc)
        .arg(&pq)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let schema = json!({
        "array_type": "sparse",
        "capacity": 2,
        "dimensions": [
            {"name": "x", "datatype": "INT32", "domain": [0, 99], "tile_extent": 10}
        ],
        "attributes": [
            {"name": "v", "datatype": "FLOAT64"},
            {"name": "s", "datatype": "STRING_UTF8", "cell_val_num": "var", "nullable": true},
            {"name": "l", "datatype": "INT16", "cell_val_num": "var"},
            {"name": "n", "datatype": "UINT8", "nullable": true},
            {"name": "t", "datatype": "DATETIME_MS"},
            {"name": "f", "datatype": "FLOAT32", "cell_val_num": 2},
        ],
    });
    let schema_path = tmp.join("schema.json");
    std::fs::write(&schema_path, schema.to_string()).unwrap();
    for (input, parquet) in [(&ipc, false), (&pq, true)] {
        let array = tmp.join(if parquet {
            "from_parquet"
        } else {
            "from_arrow"
        });
        // The format comes from the extension.
        let run = cli()
            .arg("import")
            .arg(&array)
            .arg("--schema")
            .arg(&schema_path)
            .arg("--cells")
            .arg(input)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(String::from_utf8_lossy(&run.stdout).contains("imported 4 cells"));
        let (_, want) = pyarrow_rows(input, parquet);
        let engine = common::engine_cells(&array, None);
        assert_eq!(engine.len(), 4);
        assert_eq!(diff_cells(engine, want), None, "{}", input.display());
    }
}
