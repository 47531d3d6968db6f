//! Aggregates against the engine's: every case runs `read::aggregate` and
//! TileDB-Py's `A.query().agg(...)[...]` (tests/engine/engine_aggregate.py)
//! on a fixture, over the whole array and over subarrays, and compares the
//! values expression by expression; an aggregate the engine refuses must be
//! refused here too (`Error::Query`).

use crate::common;

use serde_json::{json, Value};
use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::error::Error;
use tiledb_codec::raw::read::aggregate::{
    aggregate, aggregate_with_stats, Aggregate, AggregateStats,
};
use tiledb_codec::raw::read::range::DimRange;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

/// A fixture: `NAME` of v22, or `vNN/NAME`.
fn fixture(name: &str) -> std::path::PathBuf {
    let fixtures = common::root().join("tests/fixtures");
    if name.contains('/') {
        fixtures.join(name)
    } else {
        fixtures.join("v22").join(name)
    }
}

/// The engine's values, keyed by expression.
fn engine(name: &str, exprs: &[&str], sub: Option<Value>) -> serde_json::Map<String, Value> {
    let mut args = vec![
        fixture(name).into_os_string(),
        json!(exprs).to_string().into(),
    ];
    if let Some(s) = &sub {
        args.push(s.to_string().into());
    }
    let out = common::engine_run("engine_aggregate.py", args);
    assert!(
        out.status.success(),
        "engine_aggregate.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the driver prints JSON");
    v.as_object().expect("an object").clone()
}

/// The query of a subarray: per dimension one `[lo, hi]`, a list of them
/// (a multi-range, as `Query::ranges`) or null.
fn query(sub: &Option<Value>, reader: &ArrayReader) -> Query {
    let mut q = Query::new();
    if let Some(s) = sub {
        let s = s.as_array().unwrap();
        let dims = &reader.schema.domain.dimensions;
        assert_eq!(s.len(), dims.len());
        let pair = |r: &Value| {
            let r = r.as_array().unwrap();
            (
                r[0].as_i64().unwrap() as i128,
                r[1].as_i64().unwrap() as i128,
            )
        };
        let multi = |r: &Value| r.as_array().is_some_and(|r| r[0].is_array());
        q.subarray = Some(
            s.iter()
                .map(|r| (!r.is_null() && !multi(r)).then(|| pair(r)))
                .collect(),
        );
        for (r, d) in s.iter().zip(dims) {
            if multi(r) {
                let name = String::from_utf8_lossy(&d.name).into_owned();
                let f = FieldInfo::lookup(&reader.schema, &name).unwrap();
                let rs = r
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| {
                        let (lo, hi) = pair(r);
                        DimRange::parse(f.datatype, &format!("{lo}:{hi}")).unwrap()
                    })
                    .collect();
                q.ranges.push((name, rs));
            }
        }
    }
    q
}

/// Whether our value is the engine's: integers exactly, floats to a relative
/// 1e-9 (the order of a float sum may differ), NaN and infinities by name.
/// TileDB-Py reports an undefined min/max/sum/mean of a float field as NaN,
/// where we say null.
fn agree(ours: &Value, theirs: &Value) -> bool {
    match (ours, theirs) {
        (Value::Number(a), Value::Number(b)) => {
            match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
                (Some(x), Some(y), _, _) => x == y,
                (_, _, Some(x), Some(y)) => x == y,
                _ => {
                    let (x, y) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                    x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
                }
            }
        }
        (Value::Null, Value::String(s)) => s == "NaN",
        _ => ours == theirs,
    }
}

/// Runs every expression on the fixture (over `sub`) both ways and compares.
fn check(name: &str, exprs: &[&str], sub: Option<Value>) {
    let reader = ArrayReader::open(&fixture(name), &ReadOptions::default()).unwrap();
    let q = query(&sub, &reader);
    let theirs = engine(name, exprs, sub.clone());
    for e in exprs {
        let agg = Aggregate::parse(e).unwrap();
        let ours = aggregate(&reader, &q, std::slice::from_ref(&agg));
        let t = &theirs[*e];
        match (ours, t.get("error")) {
            (Ok(v), None) => assert!(
                agree(&v[0].json(), t),
                "{name} {sub:?} {e}: ours {:?}, the engine's {t}",
                v[0]
            ),
            (Err(err), Some(_)) => assert!(
                matches!(err, Error::Query { .. }),
                "{name} {e}: refused, but not as a query error: {err}"
            ),
            (Ok(v), Some(why)) => panic!("{name} {e}: ours {:?}, the engine refuses: {why}", v[0]),
            (Err(err), None) => panic!("{name} {e}: we refuse ({err}), the engine says {t}"),
        }
    }
}

fn stats(name: &str, exprs: &[&str], sub: Option<Value>) -> AggregateStats {
    let reader = ArrayReader::open(&fixture(name), &ReadOptions::default()).unwrap();
    let q = query(&sub, &reader);
    let aggs: Vec<Aggregate> = exprs.iter().map(|e| Aggregate::parse(e).unwrap()).collect();
    aggregate_with_stats(&reader, &q, &aggs).unwrap().1
}

const INTS: &[&str] = &[
    "count(*)", "count(a)", "sum(a)", "min(a)", "max(a)", "mean(a)",
];

#[test]
fn dense_1d_whole_and_subarrays() {
    // Three overlapping fragments: every tile is decoded.
    for sub in [
        None,
        Some(json!([[3, 6]])),
        Some(json!([[15, 15]])),
        Some(json!([[5, 12]])),
    ] {
        check("dense_int_1d", INTS, sub);
    }
}

#[test]
fn dense_2d_counts_cells_nobody_wrote_but_aggregates_only_written_ones() {
    // Row 4 and two cells of row 3 were never written: `count` counts them,
    // `sum`/`min`/`max`/`mean` do not see their fill values (b's is 65535).
    let exprs = [
        "count(*)", "sum(a)", "min(a)", "max(a)", "mean(a)", "sum(b)", "min(b)", "max(b)",
        "mean(b)",
    ];
    for sub in [
        None,
        Some(json!([[3, 4], [1, 2]])),
        // Only cells nobody wrote: the engine's min of a non-nullable field is 0.
        Some(json!([[4, 4], null])),
        Some(json!([[1, 2], [1, 3]])),
    ] {
        check("dense_int_2d", &exprs, sub);
    }
}

#[test]
fn dense_tiles_of_one_fragment_come_from_metadata_as_the_engine_takes_them() {
    // One fragment writes cells 0-5 of [0,7] (tiles of 4): both tiles are
    // answered from metadata, whose sums and extremes cover the written
    // cells while the count covers the whole tile (mean i8 = 5/8).
    let mut exprs = Vec::new();
    for f in [
        "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64",
    ] {
        for op in ["sum", "min", "max", "mean"] {
            exprs.push(format!("{op}({f})"));
        }
    }
    exprs.extend(["sum(b)".into(), "min(b)".into(), "count(*)".into()]);
    let exprs: Vec<&str> = exprs.iter().map(String::as_str).collect();
    for sub in [
        None,
        Some(json!([[0, 3]])),
        Some(json!([[4, 7]])),
        Some(json!([[2, 5]])),
    ] {
        check("types_numeric", &exprs, sub);
    }
}

#[test]
fn the_whole_array_sum_of_a_single_fragment_dense_array_decodes_no_tile() {
    let s = stats("types_numeric", &["sum(i32)", "count(*)", "max(f64)"], None);
    assert!(!s.cells_read, "{s:?}");
    assert_eq!(s.tiles_from_metadata, 2, "{s:?}");
    // A subarray that cuts a tile decodes.
    let s = stats("types_numeric", &["sum(i32)"], Some(json!([[2, 5]])));
    assert!(s.cells_read, "{s:?}");
    assert_eq!(s.tiles_from_metadata, 0, "{s:?}");
}

#[test]
fn dense_nullable_and_strings() {
    let exprs = [
        "count(*)",
        "sum(n)",
        "min(n)",
        "max(n)",
        "mean(n)",
        "null_count(n)",
        "null_count(ns)",
        "count(ns)",
        "sum(s)",
        "mean(ns)",
        "null_count(s)",
    ];
    for sub in [
        None,
        Some(json!([[4, 6]])),
        Some(json!([[0, 4]])),
        Some(json!([[5, 9]])),
    ] {
        check("dense_var_nullable", &exprs, sub);
    }
}

#[test]
fn sparse_merged_fragments() {
    let exprs = [
        "count(*)", "sum(a)", "min(a)", "max(a)", "mean(a)", "sum(b)", "min(b)", "max(b)",
        "mean(b)",
    ];
    for sub in [
        None,
        Some(json!([[0, 10], [0, 10]])),
        Some(json!([[50, 99], null])),
    ] {
        check("sparse_int_2d", &exprs, sub);
    }
}

#[test]
fn sparse_nullable_fields() {
    let exprs = [
        "count(*)",
        "sum(n)",
        "min(n)",
        "max(n)",
        "mean(n)",
        "null_count(n)",
        "sum(f)",
        "min(f)",
        "max(f)",
        "mean(f)",
        "null_count(f)",
        "sum(s)",
        "min(v)",
        "null_count(v)",
    ];
    for sub in [None, Some(json!([[10, 12]])), Some(json!([[0, 35]]))] {
        check("nullable_var_sparse", &exprs, sub);
    }
    // One fragment: its tiles are answered from metadata.
    let s = stats(
        "nullable_var_sparse",
        &["sum(n)", "max(f)", "null_count(n)"],
        None,
    );
    assert!(!s.cells_read, "{s:?}");
    assert!(s.tiles_from_metadata > 0, "{s:?}");
}

#[test]
fn sparse_duplicates_whole_tiles_from_metadata_the_rest_decoded() {
    let exprs = ["count(*)", "sum(v)", "min(v)", "max(v)", "mean(v)"];
    for sub in [
        None,
        Some(json!([[1, 8], [1, 16]])),
        Some(json!([[3, 9], [2, 12]])),
    ] {
        check("sparse_dups_2d", &exprs, sub);
    }
    let whole = stats("sparse_dups_2d", &exprs, None);
    assert!(
        !whole.cells_read && whole.tiles_from_metadata > 0,
        "{whole:?}"
    );
}

#[test]
fn sparse_deletes_datetimes_floats_and_hilbert() {
    check(
        "sparse_delete",
        &["count(*)", "sum(a)", "min(a)", "max(a)"],
        None,
    );
    check(
        "sparse_delete",
        &["count(*)", "sum(a)"],
        Some(json!([[2, 7]])),
    );
    // Deletes pending: no tile from metadata.
    let s = stats("sparse_delete", &["sum(a)"], None);
    assert!(s.cells_read, "{s:?}");
    check(
        "sparse_datetime_dim",
        &["count(*)", "sum(v)", "min(v)", "mean(v)"],
        None,
    );
    check("sparse_hilbert", &["count(*)", "sum(a)", "max(a)"], None);
    check("sparse_float_dims", &["count(*)"], None);
}

#[test]
fn dense_floats_column_major() {
    let exprs = [
        "count(*)",
        "sum(f32)",
        "min(f32)",
        "max(f32)",
        "mean(f32)",
        "sum(f64)",
        "min(f64)",
        "max(f64)",
        "mean(f64)",
    ];
    // f32 has inf at (0, 0) and -inf at (5, 3), f64 a NaN at (1, 1); tiles
    // of 3x2 cells in column-major order. The engine goes cell by cell
    // (its row-major layout is not the cell order), tile by tile, and
    // within a tile row by row, newest fragment first: an inf overflows
    // from a sum of 0 or more, -inf only from a negative one.
    for sub in [
        None,
        Some(json!([[0, 2], [0, 1]])),
        Some(json!([[3, 5], [0, 1]])),
        Some(json!([[3, 5], [2, 3]])),
        Some(json!([[1, 2], [1, 3]])),
        Some(json!([[[1, 1], [4, 5]], [[0, 1], [3, 3]]])),
        Some(json!([[[0, 0], [4, 5]], [[1, 1], [3, 3]]])),
    ] {
        check("dense_float_2d_colmajor", &exprs, sub);
    }
}

#[test]
fn aggregates_the_engine_refuses_are_refused_with_the_reason() {
    let reader = ArrayReader::open(&fixture("types_strings"), &ReadOptions::default()).unwrap();
    let q = Query::new();
    for (e, why) in [
        ("sum(a)", "numeric"),
        ("min(u)", "STRING_UTF8"),
        ("max(bl)", "BLOB"),
        ("sum(f3)", "CHAR"),
        ("null_count(a)", "not nullable"),
        ("sum(nope)", "no field"),
    ] {
        let err = aggregate(&reader, &q, &[Aggregate::parse(e).unwrap()]).unwrap_err();
        assert!(matches!(err, Error::Query { .. }), "{e}: {err}");
        assert!(err.to_string().contains(why), "{e}: {err}");
    }
    let reader = ArrayReader::open(&fixture("types_multival"), &ReadOptions::default()).unwrap();
    let attrs: Vec<String> = reader
        .schema
        .attributes
        .iter()
        .map(|a| String::from_utf8_lossy(&a.name).into_owned())
        .collect();
    let multi = attrs
        .iter()
        .find(|a| {
            tiledb_codec::raw::array::FieldInfo::lookup(&reader.schema, a)
                .is_some_and(|f| f.cell_val_num.is_some_and(|n| n > 1) && f.datatype.size() > 1)
        })
        .expect("a multi-valued numeric attribute");
    let err = aggregate(
        &reader,
        &q,
        &[Aggregate::parse(&format!("sum({multi})")).unwrap()],
    )
    .unwrap_err();
    assert!(err.to_string().contains("values per cell"), "{err}");
}

#[test]
fn string_min_max_of_a_sparse_array() {
    // TileDB-Py cannot ask the engine for a string min/max (it gives the
    // aggregate no var buffer), so this compares with the cells themselves.
    let reader = ArrayReader::open(&fixture("types_strings"), &ReadOptions::default()).unwrap();
    let aggs: Vec<Aggregate> = ["min(a)", "max(a)"]
        .iter()
        .map(|e| Aggregate::parse(e).unwrap())
        .collect();
    let v = aggregate(&reader, &Query::new(), &aggs).unwrap();
    assert_eq!(v[0].json(), json!(""));
    assert_eq!(v[1].json(), json!("zzz"));
}

#[test]
fn dense_multi_ranges_take_tiles_their_union_covers_from_metadata() {
    // d in [0,9], tiles of 5; fragments write 0-3, 2-3 and 7-9. Tile 5-9
    // has one fragment: covered by 5:9, by 5:6 and 7:9 together too, the
    // engine answers it from metadata (mean 15 over 5 cells less 1 null).
    let exprs = [
        "count(*)",
        "sum(n)",
        "mean(n)",
        "min(n)",
        "max(n)",
        "null_count(n)",
    ];
    for sub in [
        json!([[[2, 2], [5, 9]]]),
        json!([[[5, 6], [7, 9]]]),
        json!([[[0, 0], [5, 9]]]),
        json!([[[2, 2], [7, 9]]]),
        json!([[[0, 4], [6, 9]]]),
        json!([[[0, 1], [3, 4]]]),
    ] {
        check("v16/dense_var_nullable", &exprs, Some(sub));
    }
    let s = stats(
        "v16/dense_var_nullable",
        &["mean(n)"],
        Some(json!([[[5, 6], [7, 9]]])),
    );
    assert_eq!(s.tiles_from_metadata, 1, "{s:?}");
}

#[test]
fn float_sums_and_extremes_with_nan_and_inf_follow_the_engine_slab_by_slab() {
    // types_numeric: f32/f64 of d = 0..5 are -0.0, NaN, 1.5, inf, 1e30,
    // -1e-30, tiles of 4. The engine aggregates each run of cells of a
    // tile inside one range from scratch and merges the results in order:
    // a run starting at the NaN has min NaN, which sticks when first; a
    // run's sum with inf overflows (the largest double) unless a NaN came
    // before it in that run. Adjacent ranges are one run; ranges keep the
    // query's order inside a tile.
    let exprs = [
        "min(f32)",
        "max(f32)",
        "min(f64)",
        "max(f64)",
        "sum(f64)",
        "sum(f32)",
        "mean(f64)",
    ];
    for sub in [
        json!([[[1, 1], [2, 4]]]),
        json!([[[1, 1], [4, 4]]]),
        json!([[1, 7]]),
        json!([[2, 7]]),
        json!([[[0, 0], [1, 1], [3, 3]]]),
        json!([[[0, 0], [1, 3]]]),
        json!([[[0, 1], [3, 5]]]),
        json!([[[1, 1], [3, 3]]]),
        json!([[[1, 1], [2, 3]]]),
        json!([[[2, 3], [1, 1]]]),
        json!([[[5, 5], [1, 1]]]),
    ] {
        check("types_numeric", &exprs, Some(sub));
    }
}
