//! Query conditions against the engine: for each fixture and condition, the
//! cells our reader returns, kept where our condition holds, equal (as
//! sorted lists of JSON rows) the cells of TileDB-Py's
//! `A.query(cond=...)[:]` (tests/engine/engine_query.py).
//!
//! Conditions TileDB-Py's parser refuses (negative members of `in`, `in`
//! on int16 and uint8, `is None`) go to the engine through TileDB-Py's
//! lower-level PyQueryCondition (`{"tree": ...}`), or as an equivalent
//! condition it accepts; each case says which.

use crate::common;

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use tiledb_codec::raw::format::ArrayType;
use tiledb_codec::raw::read::{ArrayReader, Query, QueryCondition};
use tiledb_codec::ReadOptions;

use common::{engine_python, root, same, sorted};

/// One condition: ours, and how the engine is asked the same question.
struct Case {
    ours: &'static str,
    engine: Value,
    /// Both sides must refuse the condition (else both must answer).
    refused: bool,
}

/// A condition both sides spell the same way.
fn same_text(cond: &'static str) -> Case {
    Case {
        ours: cond,
        engine: json!({ "cond": cond }),
        refused: false,
    }
}

/// A condition both sides refuse.
fn refused(cond: &'static str) -> Case {
    Case {
        refused: true,
        ..same_text(cond)
    }
}

/// A condition the engine gets as another spelling (`{"cond": ..}`) or a
/// lower-level tree (`{"tree": ..}`).
fn spelled(ours: &'static str, engine: Value) -> Case {
    Case {
        ours,
        engine,
        refused: false,
    }
}

/// The engine's answer to each case: cells, or its error.
fn engine_results(path: &Path, cases: &[Case]) -> Vec<Result<Vec<Value>, String>> {
    let batch = Value::Array(cases.iter().map(|c| c.engine.clone()).collect());
    let out = Command::new(engine_python())
        .arg(root().join("tests/engine/engine_query.py"))
        .arg(path)
        .arg("--batch")
        .arg(batch.to_string())
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "engine_query.py failed on {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("engine_query.py prints JSON");
    v["results"]
        .as_array()
        .expect("a list of results")
        .iter()
        .map(|r| match r.get("error") {
            Some(e) => Err(e.as_str().unwrap_or_default().to_string()),
            None => Ok(r["cells"].as_array().cloned().unwrap_or_default()),
        })
        .collect()
}

/// Our cells for a condition: every cell read, kept where the condition
/// holds; of a dense array (read over its non-empty domain, as the
/// driver does) every cell, those that fail holding fill values as the
/// engine returns them.
fn our_results(reader: &ArrayReader, cond: &str) -> Result<Vec<Value>, String> {
    let bound = QueryCondition::parse(cond)
        .map_err(|e| e.to_string())?
        .bind(reader)
        .map_err(|e| e.to_string())?;
    let cells = reader.read(&Query::default()).map_err(|e| e.to_string())?;
    let keep = bound.evaluate(&cells).map_err(|e| e.to_string())?;
    assert_eq!(keep.len(), cells.len, "{cond}: one answer per cell");
    let dense = reader.schema.array_type == ArrayType::Dense;
    let mut out = Vec::new();
    for (i, k) in keep.iter().enumerate() {
        let mut row = cells.row(i);
        if !*k {
            if !dense {
                continue;
            }
            for a in &reader.schema.attributes {
                let name = String::from_utf8_lossy(&a.name).into_owned();
                let dt = a.datatype.known().unwrap();
                let fill = match (&a.fill_value, a.nullable.unwrap_or(0)) {
                    (_, n) if n != 0 => Value::Null,
                    (Some(f), _) => tiledb_codec::raw::model::value::cell(dt, f),
                    (None, _) => Value::Null,
                };
                row[&name] = fill;
            }
        }
        out.push(row);
    }
    Ok(out)
}

fn check(fixture: &str, cases: &[Case]) {
    let path = root().join("tests/fixtures").join(fixture);
    let reader = ArrayReader::open(&path, &ReadOptions::default()).unwrap();
    let engine = engine_results(&path, cases);
    let mut failures = Vec::new();
    for (case, theirs) in cases.iter().zip(engine) {
        let ours = our_results(&reader, case.ours);
        match (ours, theirs) {
            (Ok(o), Ok(t)) if !case.refused => {
                let (o, t) = (sorted(o), sorted(t));
                if o.len() != t.len() || !o.iter().zip(&t).all(|(a, b)| same(a, b)) {
                    failures.push(format!(
                        "{fixture}: {}\n  ours:   {}\n  engine: {}",
                        case.ours,
                        Value::Array(o),
                        Value::Array(t)
                    ));
                }
            }
            (Err(_), Err(_)) if case.refused => {}
            (o, t) => failures.push(format!(
                "{fixture}: {}\n  ours:   {o:?}\n  engine: {t:?}",
                case.ours
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the engine does that a reader of its docs might not expect,
/// checked directly (the cases below compare whole results).
#[test]
fn engine_surprises() {
    let path = root().join("tests/fixtures/v22/nullable_var_sparse");
    let r = engine_results(
        &path,
        &[
            // TileDB-Py's `not` of a combined condition fails.
            same_text("not (n == 1 or n == 2)"),
            // TileDB-Py refuses negative members of `in`.
            same_text("n in [-1, 2]"),
            // TileDB-Py refuses `is None`.
            same_text("n is None"),
        ],
    );
    for (i, res) in r.iter().enumerate() {
        assert!(res.is_err(), "case {i}: {res:?}");
    }
    let reader = ArrayReader::open(&path, &ReadOptions::default()).unwrap();
    for cond in ["not (n == 1 or n == 2)", "n in [-1, 2]", "n is None"] {
        assert!(our_results(&reader, cond).is_ok(), "{cond}");
    }
}

#[test]
fn numbers_on_a_sparse_array() {
    check(
        "v22/sparse_int_2d",
        &[
            same_text("a > 100"),
            same_text("a >= 5 and b < 0.5"),
            same_text("not (a < 100) or r == 1"),
            same_text("a in [0, 5, 102, 7]"),
            same_text("a not in [0, 201]"),
            same_text("1 < r <= 33"),
            same_text("(a > 5) & (b > 0.5) | (c == 0)"),
            same_text("a > -5"),
            same_text("5 > a"),
            // TileDB-Py cannot negate a combined condition: De Morgan.
            spelled(
                "b != -1.0 and not (b > 0.5 or a == 2)",
                json!({"cond": "b != -1.0 and b <= 0.5 and a != 2"}),
            ),
            same_text("dim('r') == 99 and attr('a') == 200"),
            // An integral float is a whole number for an integer field.
            same_text("a == 100.0"),
            // Neither side knows a field x.
            refused("x > 1"),
            // TileDB-Py cannot spell negative members of `in`.
            spelled(
                "a in [-1, 8, 102]",
                json!({"tree": {"field": "a", "op": "in", "dtype": "int64", "values": [-1, 8, 102]}}),
            ),
        ],
    );
}

#[test]
fn nulls_and_var_sized_strings() {
    check(
        "v22/nullable_var_sparse",
        &[
            // A null cell satisfies no comparison, not even `!=`.
            same_text("n != 2"),
            same_text("n == None"),
            same_text("n != None"),
            // `not` is pushed into the comparison: `n >= 3`, false for nulls.
            same_text("not (n < 3)"),
            // Surprise: TileDB-Py's `negate()` of a combined condition fails
            // (RuntimeError: bad_function_call); the engine gets the
            // negation pushed down as it would push it (De Morgan).
            spelled(
                "not (n == 1 or s == '')",
                json!({"cond": "n != 1 and s != ''"}),
            ),
            same_text("s >= 'dd'"),
            same_text("s < 'ccc'"),
            same_text("a in ['A', 'EEEE', 'nope']"),
            same_text("s not in ['a']"),
            same_text("f > 1.0 or s == 'a'"),
            same_text("v == 'v0' or v == ''"),
            same_text("v > b'v2'"),
            // A null test of a field that cannot be null.
            same_text("v == None"),
            same_text("v != None"),
            // `is None` is ours; the engine's null test is `== None`.
            spelled("n is None", json!({"cond": "n == None"})),
            spelled("s is not null", json!({"cond": "s != None"})),
            spelled(
                "n in [-1, 2, 4]",
                json!({"tree": {"field": "n", "op": "in", "dtype": "int32", "values": [-1, 2, 4]}}),
            ),
            spelled(
                "n not in [-1, 2]",
                json!({"tree": {"field": "n", "op": "not_in", "dtype": "int32", "values": [-1, 2]}}),
            ),
            spelled(
                "not (n is None)",
                json!({"tree": {"not": {"field": "n", "op": "eq", "value": null}}}),
            ),
            // Both refuse an order against None.
            refused("n < None"),
        ],
    );
}

#[test]
fn string_types_and_fixed_size_chars() {
    check(
        "v22/types_strings",
        &[
            same_text("c == 'x'"),
            same_text("c == b'\\x00\\x01'"),
            same_text("c < 'hello'"),
            same_text("a > 'A'"),
            same_text("u < 'z'"),
            same_text("u == '日本語'"),
            // Surprise: a fixed-size CHAR field compares its first byte
            // only, so 'fxx' equals the cell "foo" and 'bzz' is not
            // greater than "bar" ('b' == 'b').
            same_text("f3 == 'fxx'"),
            same_text("f3 > 'azz'"),
            same_text("f3 < 'bb'"),
            // ...while `in` compares whole cells.
            same_text("f3 in ['foo', 'baz']"),
            same_text("d in [0, 9]"),
            // Both refuse a comparison of a blob.
            refused("bl == b'B'"),
        ],
    );
}

#[test]
fn string_dimensions() {
    check(
        "v22/sparse_strdim",
        &[
            same_text("s < 'b'"),
            same_text("s in ['apple', 'zz', 'cherry']"),
            same_text("i > 3 and s != 'cherry'"),
            same_text("t == 'new' or v < 0"),
            same_text("dim('s') >= 'banana'"),
            same_text("s == ''"),
            // TileDB-Py cannot negate a combined condition: De Morgan.
            spelled(
                "not (s > 'b' and i < 5)",
                json!({"cond": "s <= 'b' or i >= 5"}),
            ),
        ],
    );
}

#[test]
fn enumerations_compare_by_label() {
    check(
        "v22/enumerations",
        &[
            same_text("color == 'blue'"),
            same_text("color == 'ünïcode'"),
            // A label the enumeration lacks: `==` matches nothing, `!=`
            // every cell (the engine's ALWAYS_FALSE / ALWAYS_TRUE).
            same_text("color == 'purple'"),
            same_text("color != 'purple'"),
            same_text("not (color == 'purple')"),
            same_text("color in ['red', 'purple', 'ünïcode']"),
            same_text("color not in ['green', 'purple']"),
            // The ordered enumeration compares indexes (40 is index 2).
            same_text("size < 40"),
            same_text("size >= 20 and x > 1.0"),
            // Surprise: `<` against a label the enumeration lacks matches
            // nothing (ALWAYS_FALSE), though every label is below 100.
            same_text("size < 100"),
            same_text("not (size >= 30)"),
            // Both refuse `<` on the unordered enumeration.
            refused("color < 'red'"),
            // TileDB-Py has no int16 `in`; the engine gets the `or` of
            // `==` (labels it lacks dropped either way).
            spelled(
                "size in [10, 80, 30]",
                json!({"cond": "size == 10 or size == 80 or size == 30"}),
            ),
        ],
    );
}

#[test]
fn numeric_widths_nan_and_signed_zero() {
    check(
        "v22/types_numeric",
        &[
            same_text("i8 < 0"),
            same_text("u8 >= 8"),
            same_text("i16 == -32768"),
            same_text("u32 > 4000000000"),
            same_text("i64 < -4611686018427387903"),
            same_text("u64 > 9223372036854775808"),
            // NaN cells satisfy no order, and `!=` holds for them.
            same_text("f64 > 0"),
            same_text("f64 != 1.5"),
            same_text("not (f64 < 2)"),
            // -0.0 == 0 by value...
            same_text("f64 == 0"),
            same_text("f32 <= -1e-31"),
            same_text("b == True"),
            same_text("b != 1"),
            // ...but `in` compares bytes: -0.0 is not in [0.0] (surprise).
            spelled(
                "f64 in [0.0]",
                json!({"tree": {"field": "f64", "op": "in", "dtype": "float64", "values": [0.0]}}),
            ),
            spelled(
                "f64 not in [0.0, 7.0]",
                json!({"tree": {"field": "f64", "op": "not_in", "dtype": "float64", "values": [0.0, 7.0]}}),
            ),
            spelled(
                "i32 in [-32, 2, -2147483648]",
                json!({"tree": {"field": "i32", "op": "in", "dtype": "int32", "values": [-32, 2, -2147483648]}}),
            ),
            spelled(
                "u64 in [18446744073709551615, 3]",
                json!({"tree": {"field": "u64", "op": "in", "dtype": "uint64", "values": [18446744073709551615u64, 3]}}),
            ),
            // TileDB-Py has no int8/int16/uint8 `in` to build.
            spelled(
                "i8 in [-128, 3]",
                json!({"tree": {"field": "i8", "op": "in", "dtype": "int8", "values": [-128, 3]}}),
            ),
            spelled(
                "i16 in [-32768, 4]",
                json!({"cond": "i16 == -32768 or i16 == 4"}),
            ),
            spelled(
                "u8 not in [0, 255]",
                json!({"cond": "u8 != 0 and u8 != 255"}),
            ),
        ],
    );
}

#[test]
fn datetimes_compare_as_integers() {
    check(
        "v22/sparse_datetime_dim",
        &[
            same_text("day > 18793"),
            same_text("day in [18262, 22279, 5]"),
            same_text("18000 < day < 20000 and v < 0"),
            // Out of the int16 range of v: both refuse.
            refused("v > -100000"),
        ],
    );
}
