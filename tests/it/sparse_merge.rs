//! Sparse reads that decode only what they keep, judged by the engine
//! (arrays written by TileDB-Py, tests/engine/sparse_merge.py; answers from
//! tests/engine/engine_queries.py): a condition's tile minimum and maximum
//! prune a tile only where no older fragment overlaps it, fragments whose
//! non-empty domains do not meet merge without a choice of the newest
//! cell, and a range decodes only the attribute chunks holding its cells
//! (and, past the first dimension, only the dimension chunks holding the
//! cells still in the box); a box that skips the tiles whose run of space
//! tiles misses it, though their MBR meets it, still finds every cell.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::{json, Value};
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::read::{ArrayReader, DimRange, Order, Query, QueryCondition};
use tiledb_codec::ReadOptions;

use common::{engine_python, root, same, sorted};

/// The arrays, made by the engine once per test process.
fn arrays() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = common::scratch("sparse-merge");
        let out = Command::new(engine_python())
            .arg(root().join("tests/engine/sparse_merge.py"))
            .arg(&dir)
            .output()
            .expect("the engine's python runs");
        assert!(
            out.status.success(),
            "sparse_merge.py failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        dir
    })
}

/// The engine's cells for each request (engine_queries.py).
fn engine(reqs: &[Value]) -> Vec<Vec<Value>> {
    let mut child = Command::new(engine_python())
        .arg(root().join("tests/engine/engine_queries.py"))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine's python runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(Value::Array(reqs.to_vec()).to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "engine_queries.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Vec<Value>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            match v.get("cells") {
                Some(c) => c.as_array().unwrap().clone(),
                None => panic!("the engine refused a request: {v}"),
            }
        })
        .collect();
    assert_eq!(answers.len(), reqs.len(), "one answer per request");
    answers
}

/// One question to both sides: ranges (dimension, "LO:HI"), a condition, an order.
struct Ask {
    ranges: Vec<(&'static str, &'static str)>,
    cond: Option<&'static str>,
    order: Option<Order>,
}

fn ask(
    ranges: &[(&'static str, &'static str)],
    cond: Option<&'static str>,
    order: Option<Order>,
) -> Ask {
    Ask {
        ranges: ranges.to_vec(),
        cond,
        order,
    }
}

/// Ours against the engine's for each question on `array`: the same cells
/// in the same order (any order for unordered reads).
fn check(array: &str, asks: &[Ask]) -> ArrayReader {
    let path = arrays().join(array);
    let reqs: Vec<Value> = asks
        .iter()
        .map(|a| {
            let ranges: serde_json::Map<String, Value> = a
                .ranges
                .iter()
                .map(|(d, r)| {
                    let (lo, hi) = r.split_once(':').unwrap();
                    let (lo, hi): (i64, i64) = (lo.parse().unwrap(), hi.parse().unwrap());
                    (d.to_string(), json!([[lo, hi]]))
                })
                .collect();
            json!({
                "array": path,
                "key": null,
                "ranges": ranges,
                "cond": a.cond,
                "attrs": null,
                "order": match a.order {
                    Some(Order::ColMajor) => "col-major",
                    Some(Order::Unordered) => "unordered",
                    _ => "row-major",
                },
            })
        })
        .collect();
    let theirs = engine(&reqs);
    let reader = ArrayReader::open(&path, &ReadOptions::default()).unwrap();
    for (a, t) in asks.iter().zip(theirs) {
        let mut q = {
            let mut lit = Query::new();
            lit.condition = a.cond.map(|c| QueryCondition::parse(c).unwrap());
            lit.order = a.order;
            lit
        };
        for (d, r) in &a.ranges {
            q = q.range(d, DimRange::parse(Datatype::Int64, r).unwrap());
        }
        let cells = reader.read(&q).unwrap();
        let mut ours: Vec<Value> = (0..cells.len).map(|i| cells.row(i)).collect();
        let mut t = t;
        if a.order == Some(Order::Unordered) {
            ours = sorted(ours);
            t = sorted(t);
        }
        assert!(
            ours.len() == t.len() && ours.iter().zip(&t).all(|(o, e)| same(o, e)),
            "{array} {:?} {:?} {:?}:\nours   {ours:?}\nengine {t:?}",
            a.ranges,
            a.cond,
            a.order
        );
    }
    reader
}

#[test]
fn a_newer_tile_the_condition_rules_out_still_hides_the_older_cells_it_overlaps() {
    // Fragment 2's tiles at x 0..3 hold a = 0: `a > 500` rules them out by
    // their maximum, but they hide fragment 1's a >= 1000 there, so they
    // must be read (the engine returns none of those cells).
    let reader = check(
        "overlap",
        &[
            ask(&[], Some("a > 500"), None),
            ask(&[("x", "0:9")], Some("a > 500"), Some(Order::ColMajor)),
            ask(&[], Some("a < 500"), None),
            ask(&[("y", "1:2")], None, None),
        ],
    );
    // Fragment 1's tiles at x 8..11 (a = 0) hide nothing older: pruned.
    // 16 tiles of 4 cells, 3 fields each; the 4 pruned leave 12.
    let q = {
        let mut lit = Query::new();
        lit.condition = Some(QueryCondition::parse("a > 500").unwrap());
        lit
    };
    let before = reader.stats().tiles();
    let cells = reader.read(&q).unwrap();
    assert_eq!(cells.len, 16);
    assert_eq!(reader.stats().tiles() - before, 12 * 3);
}

#[test]
fn fragments_whose_domains_do_not_meet_merge_in_the_order_asked() {
    // Three fragments a million apart, the newest first along d: too
    // sparse for a grid, merged without a choice of the newest.
    check(
        "apart",
        &[
            ask(&[], None, None),
            ask(&[], None, Some(Order::ColMajor)),
            ask(&[], None, Some(Order::Unordered)),
            ask(&[("d", "5000000:1005000000")], None, None),
            ask(&[], Some("a > 1000000"), None),
            ask(&[], Some("a < 3000"), Some(Order::Unordered)),
        ],
    );
}

#[test]
fn a_range_decodes_only_the_attribute_chunks_that_hold_its_cells() {
    // One tile of 40,000 cells: `a` (ZSTD) in five chunks of 64 KiB, `b`
    // in three, its validity in one.
    let reader = check(
        "chunks",
        &[
            ask(&[("d", "100:110")], None, None),
            ask(&[("d", "16380:16390")], None, None),
            ask(&[("d", "39990:39999")], Some("b > 39992"), None),
            ask(&[("d", "0:39999")], None, None),
        ],
    );
    let q = Query::new().range("d", DimRange::parse(Datatype::Int64, "100:110").unwrap());
    let before = reader.stats().chunks_skipped();
    let cells = reader.read(&q).unwrap();
    assert_eq!(cells.len, 11);
    // Four chunks of `a` and two of `b` never decoded.
    assert_eq!(reader.stats().chunks_skipped() - before, 6);
}

#[test]
fn a_box_decodes_a_later_dimension_only_where_the_first_keeps_cells() {
    // One tile of 200 x 200 cells: each field in five chunks of 8,192
    // cells. Rows 10..12 are cells 2,000..2,599 in row-major order, all in
    // the first chunk; in column-major order columns 10..12 are.
    let asks = [
        ask(&[("x", "10:12")], None, None),
        ask(&[("x", "10:12"), ("y", "5:50")], None, None),
        ask(
            &[("x", "150:199"), ("y", "190:199")],
            None,
            Some(Order::ColMajor),
        ),
        ask(&[("y", "3:3")], None, None),
        ask(&[("x", "40:41"), ("y", "7:9")], Some("a > 40008"), None),
    ];
    for (array, dim) in [("plane", "x"), ("plane_col", "y")] {
        let reader = check(array, &asks);
        let q = Query::new().range(dim, DimRange::parse(Datatype::Int64, "10:12").unwrap());
        let before = reader.stats().chunks_skipped();
        let cells = reader.read(&q).unwrap();
        assert_eq!(cells.len, 600, "{array}");
        // Four chunks of the other dimension and four of `a` never decoded.
        assert_eq!(reader.stats().chunks_skipped() - before, 8, "{array}");
    }
}

#[test]
fn a_box_over_tiles_that_span_space_tiles_finds_the_engines_cells() {
    // Data tiles of 40 cells spanning several space tiles: their MBRs are
    // far larger than the space tiles they cover, and the plan drops
    // those whose run of space tiles (in global order) misses the box;
    // the cells are the engine's, box by box.
    let boxes: [&[(&str, &str)]; 8] = [
        &[("x", "33:38"), ("y", "50:54")],
        &[("x", "0:9"), ("y", "0:9")],
        &[("x", "9:10"), ("y", "9:10")],
        &[("x", "15:64"), ("y", "41:42")],
        &[("y", "70:79")],
        &[("x", "79:79")],
        &[("x", "20:29"), ("y", "31:59")],
        &[("x", "5:74"), ("y", "5:74")],
    ];
    let asks: Vec<Ask> = boxes
        .iter()
        .flat_map(|b| {
            [
                ask(b, None, None),
                ask(b, None, Some(Order::Unordered)),
                ask(b, Some("a > 200000"), Some(Order::Unordered)),
            ]
        })
        .collect();
    for array in ["spans", "spans_col"] {
        check(array, &asks);
    }
}
