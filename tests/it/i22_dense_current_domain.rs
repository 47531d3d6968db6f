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
use tiledb_codec::raw::error::Error;
use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate};
use tiledb_codec::raw::read::{ArrayReader, DimRange, Query};
use tiledb_codec::ReadOptions;

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
        let dt = tiledb_codec::raw::array::FieldInfo::lookup(&reader.schema, dim)
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

/// A range reaching past a dense array's domain is refused by export and
/// aggregate alike, as the engine's subarray refuses it ("out of domain
/// bounds"; TileDB-Py's slices crop the upper end in Python before the
/// engine sees them, its `multi_index` does not). Aggregates used to count
/// cells past the domain.
#[test]
fn dense_ranges_past_the_domain_are_refused_as_the_engine_refuses_them() {
    let array = common::root().join("tests/fixtures/v22/dense_int_1d");
    let ranges = [(15, 40), (0, 3), (30, 40), (1, 20)];
    let script = "import json, sys, tiledb\n\
        out = []\n\
        with tiledb.open(sys.argv[1]) as A:\n\
        \x20   for lo, hi in json.loads(sys.argv[2]):\n\
        \x20       try:\n\
        \x20           r = A.query().agg({'a': ['count', 'sum']}).multi_index[lo:hi]\n\
        \x20           out.append({'count': int(r['count']), 'sum': int(r['sum'])})\n\
        \x20       except Exception as e:\n\
        \x20           out.append({'error': str(e)})\n\
        print(json.dumps(out))\n";
    let out = Command::new(common::engine_python())
        .arg("-c")
        .arg(script)
        .arg(&array)
        .arg(json!(ranges).to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let engine: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let path = array.to_str().unwrap();
    for ((lo, hi), want) in ranges.iter().zip(&engine) {
        let range = format!("d={lo}:{hi}");
        let agg = cli(&["aggregate", path, "--range", &range, "count(*)", "sum(a)"]);
        let exp = cli(&["export", path, "--range", &range]);
        if let Some(e) = want.get("error") {
            assert!(e.as_str().unwrap().contains("out of domain bounds"), "{e}");
            for (what, o) in [("aggregate", &agg), ("export", &exp)] {
                assert_eq!(o.status.code(), Some(1), "{what} {range}");
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(
                    err.contains("outside the domain 1:20"),
                    "{what} {range}: {err}"
                );
            }
            continue;
        }
        assert!(
            agg.status.success(),
            "{}",
            String::from_utf8_lossy(&agg.stderr)
        );
        let got: Value = serde_json::from_slice(&agg.stdout).unwrap();
        assert_eq!(got["count(*)"], want["count"], "count {range}");
        assert_eq!(got["sum(a)"], want["sum"], "sum {range}");
        assert!(
            exp.status.success(),
            "{}",
            String::from_utf8_lossy(&exp.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&exp.stdout).lines().count(), 20);
    }
    // The whole domain answers; the three others are refused.
    assert_eq!(
        engine.iter().filter(|v| v.get("error").is_some()).count(),
        3
    );

    // A sparse array's ranges too (the engine: "Range [0, 100] is out of
    // domain bounds [0, 99]"); inside the domain, they answer.
    let sparse = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let sparse = sparse.to_str().unwrap();
    for args in [
        &["export", sparse, "--range", "r=0:100"][..],
        &["aggregate", sparse, "--range", "r=0:100", "count(*)"],
        &["aggregate", sparse, "--range", "c=-1:5", "count(*)"],
    ] {
        let o = cli(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("outside the domain 0:99"), "{args:?}: {err}");
    }
    let o = cli(&["aggregate", sparse, "--range", "r=0:99", "count(*)"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
