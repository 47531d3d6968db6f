//! Issue 24, item 3: column statistics from the fragments' own min, max
//! and null counts. Where every stored cell is read (duplicates kept, or
//! one fragment; no delete) they are exact and DataFusion answers
//! `count(*)`, `min` and `max` without scanning the array; elsewhere they
//! are bounds and the scan runs. Both give the engine's answer.

#![cfg(feature = "datafusion")]

use crate::common;
use common::sql::{csv as sql, sparse_d_a_s};
use common::{cli, engine_cells, scratch};

use std::path::Path;

use serde_json::Value;
use tiledb_codec::Array;

/// The engine's count, min and max of integer attribute `a`.
fn engine_answer(path: &Path, a: &str) -> String {
    let cells = engine_cells(path, None);
    let ints: Vec<i64> = cells.iter().filter_map(|c| c[a].as_i64()).collect();
    format!(
        "{},{},{}",
        cells.len(),
        ints.iter().min().unwrap(),
        ints.iter().max().unwrap()
    )
}

fn answered_from_metadata(plan: &str) -> bool {
    !plan.contains("TileDbScan")
}

#[test]
fn exact_statistics_answer_count_min_max_without_a_scan() {
    let dir = scratch("sql-stats");
    let path = dir.join("dups");
    let schema = sparse_d_a_s(false).allows_duplicates(true).build().unwrap();
    let array = Array::create(&path, &schema).unwrap();
    // Three fragments that overlap: duplicates are kept, every cell read.
    for k in 0..3i64 {
        let d: Vec<i64> = (0..50).map(|i| i * 3 + k).collect();
        let a: Vec<i32> = d.iter().map(|v| (*v as i32 * 7) % 101 - 50).collect();
        let s: Vec<String> = d.iter().map(|v| format!("s{:03}", 500 - v)).collect();
        array
            .write()
            .column("d", &d)
            .column("a", &a)
            .strings("s", &s)
            .commit()
            .unwrap();
    }
    let p = path.to_str().unwrap();
    let q = format!(r#"SELECT count(*), min(a), max(a) FROM "{p}""#);
    let plan = sql(&format!("EXPLAIN {q}"));
    assert!(answered_from_metadata(&plan), "{plan}");
    let got = sql(&q);
    let line = got.lines().nth(1).unwrap();
    assert_eq!(line, engine_answer(&path, "a"), "{got}");

    // After a delete the statistics are bounds: the scan runs, and the
    // answer is still the engine's.
    let out = cli(&["delete", p, "--where", "a > 40"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan = sql(&format!("EXPLAIN {q}"));
    assert!(!answered_from_metadata(&plan), "{plan}");
    let got = sql(&q);
    assert_eq!(got.lines().nth(1).unwrap(), engine_answer(&path, "a"));
}

#[test]
fn bounds_where_a_read_merges_fragments() {
    // Three fragments of an array without duplicates: a read keeps the
    // newest cell of each coordinate, so the fragments' own statistics
    // only bound the answer.
    let fixture = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let p = fixture.to_str().unwrap();
    let q = format!(r#"SELECT count(*), min(a), max(a) FROM "{p}""#);
    let plan = sql(&format!("EXPLAIN {q}"));
    assert!(!answered_from_metadata(&plan), "{plan}");
    let got = sql(&q);
    assert_eq!(got.lines().nth(1).unwrap(), engine_answer(&fixture, "a"));
    // The bounds DataFusion was given hold the answer (checked through
    // the table's statistics).
    let array = std::sync::Arc::new(Array::open(&fixture).unwrap());
    let table = tiledb_codec::sql::TileDbTable::new(array).unwrap();
    let stats = datafusion::datasource::TableProvider::statistics(&table).unwrap();
    let a = &stats.column_statistics[2];
    let (lo, hi) = (
        a.min_value.get_value().unwrap(),
        a.max_value.get_value().unwrap(),
    );
    let cells = engine_cells(&fixture, None);
    for c in &cells {
        let v = datafusion::common::ScalarValue::Int64(c["a"].as_i64());
        assert!(lo <= &v && &v <= hi, "{v} outside [{lo}, {hi}]");
    }
    assert!(!a.min_value.is_exact().unwrap());
    let _: Vec<Value> = cells;
}
