//! Issue 22, item 1: dense reads and aggregates of an array with a current
//! domain (a TileDB-SOMA-like matrix: INT64 domains of nearly 2^63 cells a
//! side, a current domain of 120 x 90) are bounded by it, as the engine's;
//! without one, huge domains give answers or typed errors, never a panic or
//! an allocation sized from the domain.

use crate::common;
use common::{cli, scratch};

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use tiledb_codec::read::aggregate::{aggregate, Aggregate};
use tiledb_codec::read::{ArrayReader, DimRange, Query};
use tiledb_codec::{Error, ReadOptions};

const EXPRS: [&str; 8] = [
    "count(*)", "sum(x)", "min(x)", "max(x)", "sum(y)", "min(y)", "max(y)", "mean(x)",
];

/// The engine makes the array (tests/engine/i22_current_domain.py).
fn make(path: &Path, extra: &[&str]) {
    let out = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/i22_current_domain.py"))
        .arg(path)
        .args(extra)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "i22_current_domain.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The engine's aggregates (tests/engine/engine_aggregate.py).
fn engine_aggregates(path: &Path, sub: Option<Value>) -> serde_json::Map<String, Value> {
    let mut cmd = Command::new(common::engine_python());
    cmd.arg(common::root().join("tests/engine/engine_aggregate.py"))
        .arg(path)
        .arg(json!(EXPRS).to_string());
    if let Some(s) = sub {
        cmd.arg(s.to_string());
    }
    let out = cmd.output().expect("the engine's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Value>(&out.stdout)
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
}

fn ranged(reader: &ArrayReader, ranges: &[(&str, &str)]) -> Query {
    let mut q = Query::new();
    for (dim, r) in ranges {
        let dt = tiledb_codec::array::FieldInfo::lookup(&reader.schema, dim)
            .unwrap()
            .datatype;
        q = q.range(dim, DimRange::parse(dt, r).unwrap());
    }
    q
}

/// The library's aggregates as one JSON object keyed by expression.
fn ours(reader: &ArrayReader, q: &Query) -> Value {
    let aggs: Vec<Aggregate> = EXPRS.iter().map(|e| Aggregate::parse(e).unwrap()).collect();
    let values = aggregate(reader, q, &aggs).unwrap();
    let mut m = serde_json::Map::new();
    for (e, v) in EXPRS.iter().zip(values) {
        m.insert(e.to_string(), v.json());
    }
    Value::Object(m)
}

fn assert_same(ours: &Value, engine: &serde_json::Map<String, Value>, what: &str) {
    for e in EXPRS {
        assert!(
            common::same(&ours[e], &engine[e]),
            "{what}: {e}: ours {} the engine's {}",
            ours[e],
            engine[e]
        );
    }
}

#[test]
fn a_soma_like_dense_matrix_reads_and_aggregates_within_its_current_domain() {
    let dir = scratch("soma");
    let array = dir.join("matrix");
    make(&array, &[]);
    let path = array.to_str().unwrap();
    let reader = ArrayReader::open(&array, &ReadOptions::default()).unwrap();

    // The whole array: the engine counts the 120 x 90 cells of the current
    // domain, not the 2^126 of the domain.
    let engine = engine_aggregates(&array, None);
    assert_eq!(engine["count(*)"], json!(10800));
    let lib = ours(&reader, &Query::new());
    assert_same(&lib, &engine, "library, whole array");
    let out = cli(&[&["aggregate", path], &EXPRS[..]].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cli_values: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_same(&cli_values, &engine, "CLI, whole array");

    // A subarray inside the current domain.
    let engine = engine_aggregates(&array, Some(json!([[5, 60], [0, 31]])));
    let q = ranged(&reader, &[("soma_dim_0", "5:60"), ("soma_dim_1", "0:31")]);
    assert_same(&ours(&reader, &q), &engine, "library, subarray");
    let out = cli(&[
        &[
            "aggregate",
            path,
            "--range",
            "soma_dim_0=5:60",
            "--range",
            "soma_dim_1=0:31",
        ],
        &EXPRS[..],
    ]
    .concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_same(
        &serde_json::from_slice(&out.stdout).unwrap(),
        &engine,
        "CLI, subarray",
    );

    // A range outside the current domain (inside the domain): the engine
    // refuses it, and so do we.
    let engine = engine_aggregates(&array, Some(json!([[0, 10], [0, 200]])));
    assert!(engine["count(*)"]["error"]
        .as_str()
        .unwrap()
        .contains("outside of the current domain"));
    let q = ranged(&reader, &[("soma_dim_0", "0:10"), ("soma_dim_1", "0:200")]);
    let aggs = [Aggregate::parse("count(*)").unwrap()];
    let err = aggregate(&reader, &q, &aggs).unwrap_err();
    assert!(matches!(err, Error::Query { .. }), "{err}");
    assert!(err.to_string().contains("current domain 0:89"), "{err}");
    let err = reader.read(&q).unwrap_err();
    assert!(err.to_string().contains("current domain 0:89"), "{err}");
    let out = cli(&["export", path, "--range", "soma_dim_1=0:200"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside the current domain"));

    // Export: the engine's read of the cells written.
    let engine_cells = common::sorted(common::engine_cells(&array, None));
    assert_eq!(engine_cells.len(), 110 * 60);
    let out = cli(&["export", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exported: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let exported = common::sorted(exported);
    assert_eq!(exported.len(), engine_cells.len());
    for (a, b) in exported.iter().zip(&engine_cells) {
        assert!(common::same(a, b), "export {a}, the engine {b}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_dense_domain_without_a_current_domain_answers_or_refuses() {
    let dir = scratch("huge");
    let array = dir.join("matrix");
    make(&array, &["--no-current-domain"]);
    let path = array.to_str().unwrap();
    let reader = ArrayReader::open(&array, &ReadOptions::default()).unwrap();

    // The engine takes the whole domain (its count does not come back in
    // minutes); ours is the domain's cell count, saturated, and the other
    // aggregates read only the cells written.
    let lib = ours(&reader, &Query::new());
    assert_eq!(lib["count(*)"], json!(u64::MAX));
    assert_eq!(lib["sum(x)"], json!(171));
    assert_eq!(lib["min(x)"], json!(-7));
    assert_eq!(lib["max(y)"], json!(300.0));
    let out = cli(&["aggregate", path, "sum(x)", "max(x)"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, json!({"sum(x)": 171, "max(x)": 100}));

    // A read whose one row spans 2^62 cells: a typed error, not an
    // allocation of that size.
    let q = ranged(&reader, &[("soma_dim_1", "0:4611686018427387904")]);
    let err = reader.batches(&q).err().expect("refused");
    assert!(matches!(err, Error::Query { .. }), "{err}");
    let err = reader.read(&q).unwrap_err();
    assert!(matches!(err, Error::Query { .. }), "{err}");
    let out = cli(&[
        "export",
        path,
        "--range",
        "soma_dim_1=0:4611686018427387904",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    let _ = std::fs::remove_dir_all(&dir);
}
