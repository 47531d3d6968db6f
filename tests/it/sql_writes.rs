//! Issue 24, item 1: `INSERT INTO` and `DELETE FROM` arrays through the
//! `sql` command, each read back by the engine; inserts that do not fit the
//! schema fail and leave the array as it was.

#![cfg(feature = "datafusion")]

use crate::common;
use common::sql::{ok, refused, sparse_d_a_s};
use common::{cli, engine_cells, scratch};

use std::path::Path;

use serde_json::{json, Value};
use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};

fn sparse(dir: &Path) -> String {
    let path = dir.join("sparse");
    let schema = sparse_d_a_s(true).build().unwrap();
    Array::create(&path, &schema).unwrap();
    path.to_str().unwrap().to_string()
}

fn fragments(path: &str) -> usize {
    Array::open(path).unwrap().fragments().len()
}

#[test]
fn insert_and_delete_on_a_sparse_array_are_what_the_engine_reads() {
    let dir = scratch("sql-writes-sparse");
    let p = sparse(&dir);
    let said = ok(&format!(
        r#"INSERT INTO "{p}" VALUES (7, 70, 'seven'), (3, 30, NULL), (5, 50, 'five')"#
    ));
    assert!(said.contains("| 3 "), "the count of rows written: {said}");
    assert_eq!(fragments(&p), 1);
    let cells = engine_cells(Path::new(&p), None);
    assert_eq!(
        cells,
        vec![
            json!({"d": 3, "a": 30, "s": null}),
            json!({"d": 5, "a": 50, "s": "five"}),
            json!({"d": 7, "a": 70, "s": "seven"}),
        ]
    );

    // INSERT ... SELECT from another array: here, from itself, shifted.
    ok(&format!(
        r#"INSERT INTO "{p}" SELECT d + 100, a + 1, s FROM "{p}" WHERE a >= 50"#
    ));
    assert_eq!(fragments(&p), 2);
    let cells = engine_cells(Path::new(&p), None);
    let ds: Vec<i64> = cells.iter().map(|c| c["d"].as_i64().unwrap()).collect();
    assert_eq!(ds, [3, 5, 7, 105, 107]);
    assert_eq!(cells[4], json!({"d": 107, "a": 71, "s": "seven"}));

    // DELETE: a condition on an attribute and a dimension.
    let said = ok(&format!(r#"DELETE FROM "{p}" WHERE a > 40 AND d < 100"#));
    assert!(said.contains("| 2 "), "the count of rows deleted: {said}");
    let cells = engine_cells(Path::new(&p), None);
    let ds: Vec<i64> = cells.iter().map(|c| c["d"].as_i64().unwrap()).collect();
    assert_eq!(ds, [3, 105, 107], "the engine applies our delete commit");
    // And our reader agrees.
    let ours = ok(&format!(r#"SELECT d FROM "{p}" ORDER BY d"#));
    assert!(ours.contains("| 105 |") && !ours.contains("| 5 "), "{ours}");

    // A predicate that is no delete condition is refused, nothing written.
    let err = refused(&format!(r#"DELETE FROM "{p}" WHERE a + 1 > 40"#));
    assert!(
        err.contains("does not map to a TileDB delete condition"),
        "{err}"
    );
    let err = refused(&format!(r#"DELETE FROM "{p}""#));
    assert!(err.contains("needs a WHERE clause"), "{err}");
    let err = refused(&format!(r#"UPDATE "{p}" SET a = 1"#));
    assert!(err.contains("refused"), "{err}");
    assert_eq!(engine_cells(Path::new(&p), None).len(), 3);
}

#[test]
fn inserts_that_do_not_fit_the_schema_write_nothing() {
    let dir = scratch("sql-writes-bad");
    let p = sparse(&dir);
    ok(&format!(r#"INSERT INTO "{p}" VALUES (1, 10, 'one')"#));
    // Outside the domain [0, 999].
    let err = refused(&format!(
        r#"INSERT INTO "{p}" VALUES (2, 20, 'two'), (5000, 1, 'x')"#
    ));
    assert!(err.contains("5000"), "names the coordinate: {err}");
    // A value of the wrong type.
    let err = refused(&format!(r#"INSERT INTO "{p}" VALUES (3, 'thirty', 'x')"#));
    assert!(err.to_lowercase().contains("cast"), "{err}");
    // A null in a non-nullable attribute.
    let err = refused(&format!(r#"INSERT INTO "{p}" VALUES (4, NULL, 'x')"#));
    assert!(!err.is_empty());
    assert_eq!(fragments(&p), 1, "nothing was committed");
    assert_eq!(
        engine_cells(Path::new(&p), None),
        vec![json!({"d": 1, "a": 10, "s": "one"})]
    );
    // Arrays named by URL are not written.
    let err = refused(&format!(r#"INSERT INTO "file://{p}" VALUES (9, 90, 'x')"#));
    assert!(err.contains("local disk"), "{err}");
}

#[test]
fn inserts_into_a_dense_array_fill_a_box() {
    let dir = scratch("sql-writes-dense");
    let path = dir.join("dense");
    let schema = SchemaBuilder::dense()
        .dimension(
            DimensionBuilder::new("r", Datatype::Int32)
                .domain(1..=4)
                .tile_extent(2),
        )
        .dimension(
            DimensionBuilder::new("c", Datatype::Int32)
                .domain(1..=4)
                .tile_extent(2),
        )
        .attribute(AttributeBuilder::new("v", Datatype::Float64))
        .build()
        .unwrap();
    Array::create(&path, &schema).unwrap();
    let p = path.to_str().unwrap();
    // Rows in any order; they fill the box r 2..=3, c 1..=2.
    ok(&format!(
        r#"INSERT INTO "{p}" VALUES (3, 2, 3.2), (2, 1, 2.1), (2, 2, 2.2), (3, 1, 3.1)"#
    ));
    let cells = engine_cells(&path, None);
    let written: Vec<&Value> = cells
        .iter()
        .filter(|c| (2..=3).contains(&c["r"].as_i64().unwrap()) && c["c"].as_i64().unwrap() <= 2)
        .collect();
    assert_eq!(
        written,
        [
            &json!({"r": 2, "c": 1, "v": 2.1}),
            &json!({"r": 2, "c": 2, "v": 2.2}),
            &json!({"r": 3, "c": 1, "v": 3.1}),
            &json!({"r": 3, "c": 2, "v": 3.2}),
        ]
    );
    // A box with a hole: refused, naming the cell missing.
    let err = refused(&format!(
        r#"INSERT INTO "{p}" VALUES (1, 1, 1.0), (1, 3, 3.0)"#
    ));
    assert!(err.contains("the cell (r=1, c=2) is missing"), "{err}");
    assert_eq!(fragments(p), 1);
}

#[test]
fn scripts_name_arrays_as_tables_with_create_external_table() {
    let dir = scratch("sql-writes-script");
    let p = sparse(&dir);
    let script = dir.join("first.sql");
    std::fs::write(
        &script,
        format!(
            "CREATE EXTERNAL TABLE t STORED AS TILEDB LOCATION '{p}';\n\
             INSERT INTO t VALUES (1, 10, 'one'), (2, 20, 'two');\n\
             SELECT d, a FROM t ORDER BY d;\n"
        ),
    )
    .unwrap();
    let out = cli(&[
        "sql",
        "-q",
        "--format",
        "csv",
        "-f",
        script.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The insert's count, then the select, which sees the insert.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "count\n2\nd,a\n1,10\n2,20\n"
    );
    assert_eq!(engine_cells(Path::new(&p), None).len(), 2);

    // A second write, then the table as of the first: the `timestamp` option.
    let t1 = *Array::open(&p).unwrap().fragments()[0].timestamps().end();
    std::thread::sleep(std::time::Duration::from_millis(5));
    ok(&format!(r#"INSERT INTO "{p}" VALUES (3, 30, 'three')"#));
    let said = ok(&format!(
        "CREATE EXTERNAL TABLE old STORED AS TILEDB LOCATION '{p}' OPTIONS ('timestamp' '{t1}'); \
         CREATE EXTERNAL TABLE now STORED AS TILEDB LOCATION '{p}'; \
         SELECT (SELECT count(*) FROM old) AS then_, (SELECT count(*) FROM now) AS now_"
    ));
    assert!(said.contains("| 2     | 3    |"), "{said}");

    // Options it does not know, and names that are no array, are refused.
    let err = refused(&format!(
        "CREATE EXTERNAL TABLE x STORED AS TILEDB LOCATION '{p}' OPTIONS ('colour' 'red')"
    ));
    assert!(err.contains("unknown option \"colour\""), "{err}");
    let err = refused("CREATE EXTERNAL TABLE x STORED AS TILEDB LOCATION '/nonexistent/array'");
    assert!(err.contains("cannot open"), "{err}");
    // Other CREATE statements stay refused.
    let err = refused("CREATE TABLE y AS SELECT 1");
    assert!(err.contains("refused"), "{err}");
}

#[test]
fn create_external_table_with_columns_creates_a_new_array() {
    let dir = scratch("sql-writes-create");
    let sparse = dir.join("new_sparse");
    let dense = dir.join("new_dense");
    let (s, d) = (sparse.to_str().unwrap(), dense.to_str().unwrap());
    ok(&format!(
        "CREATE EXTERNAL TABLE points (x BIGINT NOT NULL, name VARCHAR, score DOUBLE NOT NULL) \
         STORED AS TILEDB LOCATION '{s}' \
         OPTIONS ('dimensions' 'x', 'domain.x' '0:9999', 'tile_extent.x' '1000'); \
         INSERT INTO points VALUES (42, 'answer', 4.2), (7, NULL, 0.7); \
         CREATE EXTERNAL TABLE grid (r INT NOT NULL, v FLOAT NOT NULL) STORED AS TILEDB \
         LOCATION '{d}' OPTIONS ('dimensions' 'r', 'domain.r' '1:4', 'tile_extent.r' '2', \
         'array_type' 'dense'); \
         INSERT INTO grid VALUES (1, 0.5), (2, 1.5)"
    ));
    assert_eq!(
        engine_cells(&sparse, None),
        vec![
            json!({"x": 7, "name": null, "score": 0.7}),
            json!({"x": 42, "name": "answer", "score": 4.2}),
        ]
    );
    let cells = engine_cells(&dense, None);
    assert_eq!(
        cells[..2],
        [json!({"r": 1, "v": 0.5}), json!({"r": 2, "v": 1.5})]
    );
    // The schema the engine reads: the domain and the array type given.
    let account = common::engine_account(&dense, None);
    assert_eq!(account["schema"]["array_type"], "dense", "{account}");
    assert_eq!(account["schema"]["dimensions"][0]["domain"], json!([1, 4]));
    // A new array without its dimensions is refused, and nothing is made.
    let bad = dir.join("bad");
    let err = refused(&format!(
        "CREATE EXTERNAL TABLE b (x BIGINT) STORED AS TILEDB LOCATION '{}'",
        bad.display()
    ));
    assert!(err.contains("needs OPTIONS ('dimensions'"), "{err}");
    assert!(!bad.exists());
}

#[test]
fn create_table_stored_as_tiledb_then_nullable_and_var_sized_cells() {
    let dir = scratch("sql-writes-types");
    let path = dir.join("typed");
    let p = path.to_str().unwrap();
    // Plain CREATE TABLE (no EXTERNAL), in a script run with -f.
    let script = dir.join("make.sql");
    std::fs::write(
        &script,
        format!(
            "CREATE TABLE t (d BIGINT NOT NULL, n INT, s VARCHAR NOT NULL, v INT[])\n\
             STORED AS TILEDB LOCATION '{p}'\n\
             OPTIONS ('dimensions' 'd', 'domain.d' '0:99', 'tile_extent.d' '10');\n\
             INSERT INTO t VALUES (1, NULL, 'one', [1, 2, 3]), (2, 20, '', NULL),\n\
             (3, 30, 'three', []), (4, NULL, 'four', [4]);\n\
             DELETE FROM t WHERE s = 'four';\n"
        ),
    )
    .unwrap();
    let out = cli(&[
        "sql",
        "-q",
        "--format",
        "csv",
        "-f",
        script.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "count\n4\ncount\n1\n");
    let want = vec![
        json!({"d": 1, "n": null, "s": "one", "v": [1, 2, 3]}),
        json!({"d": 2, "n": 20, "s": "", "v": null}),
        json!({"d": 3, "n": 30, "s": "three", "v": []}),
    ];
    assert_eq!(engine_cells(&path, None), want);
    let account = common::engine_account(&path, None);
    let attrs: Vec<(Value, Value)> = account["schema"]["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["nullable"].clone(), a["cell_val_num"].clone()))
        .collect();
    assert_eq!(
        attrs,
        [
            (json!(true), json!(1)),
            (json!(false), json!("var")),
            (json!(true), json!("var"))
        ],
        "{account}"
    );

    // Conditions on a nullable attribute are refused: as a TileDB delete
    // `n > 25` would delete the null cells too (d = 1), and a delete
    // cannot test for null to keep them.
    for q in ["n > 25", "n IS NULL", "d = 1 AND n > 25"] {
        let err = refused(&format!(r#"DELETE FROM "{p}" WHERE {q}"#));
        assert!(err.contains("tests the nullable attribute \"n\""), "{err}");
    }
    // Inserts that do not fit write nothing.
    let err = refused(&format!(
        r#"INSERT INTO "{p}" VALUES (5, 50, 'five', [5]), (100, 1, 'x', [1])"#
    ));
    assert!(err.contains("100"), "names the coordinate: {err}");
    let err = refused(&format!(
        r#"INSERT INTO "{p}" VALUES (5, 50, 'five', ['five'])"#
    ));
    assert!(err.to_lowercase().contains("cast"), "{err}");
    let err = refused(&format!(r#"INSERT INTO "{p}" VALUES (6, 60, NULL, [6])"#));
    assert!(err.to_lowercase().contains("null"), "{err}");
    assert_eq!(fragments(p), 1, "nothing was committed");
    assert_eq!(engine_cells(&path, None), want);
}

/// The same statements from Rust: `ctx.sql` refuses `CREATE TABLE ...
/// STORED AS`; `sql::run_script` on a session of the library's factory
/// runs them, and the engine reads what they wrote.
#[test]
fn run_script_creates_and_fills_an_array_from_rust() {
    use datafusion::prelude::SessionConfig;
    use tiledb_codec_sql::{run_script, TileDbTableFactory};
    let dir = scratch("sql-writes-rust");
    let path = dir.join("made");
    let create = format!(
        "CREATE TABLE m (d INT NOT NULL, s VARCHAR, v DOUBLE NOT NULL) STORED AS TILEDB \
         LOCATION '{}' OPTIONS ('dimensions' 'd', 'domain.d' '1:100', 'tile_extent.d' '10')",
        path.display()
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    let ctx = TileDbTableFactory::default().session(SessionConfig::new());
    let err = rt.block_on(ctx.sql(&create)).unwrap_err().to_string();
    assert!(err.contains("TILEDB"), "{err}");
    assert!(!path.exists());
    let script = format!(
        "{create};\nINSERT INTO m VALUES (9, 'nine', 0.25), (2, NULL, -1.5);\n\
         INSERT INTO m SELECT d + 1, s, v * 2 FROM m WHERE d = 9;\n\
         SELECT count(*) AS n, sum(v) AS total FROM m"
    );
    let batches = rt.block_on(async {
        let df = run_script(&ctx, &script).await?;
        df.collect().await
    });
    let batches = batches.unwrap();
    let out = datafusion::arrow::util::pretty::pretty_format_batches(&batches)
        .unwrap()
        .to_string();
    assert!(out.contains("| 3 | -0.75 |"), "{out}");
    assert_eq!(fragments(path.to_str().unwrap()), 2);
    assert_eq!(
        engine_cells(&path, None),
        vec![
            json!({"d": 2, "s": null, "v": -1.5}),
            json!({"d": 9, "s": "nine", "v": 0.25}),
            json!({"d": 10, "s": "nine", "v": 0.5}),
        ]
    );
    // An empty script is an error, not a frame.
    let err = rt
        .block_on(run_script(&ctx, " ; "))
        .unwrap_err()
        .to_string();
    assert!(err.contains("no statement"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn inserts_into_enumerated_attributes_store_the_labels_keys() {
    // Colors: red, green, blue, ünïcode (UTF-8 labels); sizes: 10, 20, 40,
    // 80 (Int16 labels). The engine reads the keys.
    let dir = scratch("sql-writes-enum");
    let path = dir.join("enumerations");
    common::copy_dir(
        &common::root().join("tests/fixtures/v22/enumerations"),
        &path,
    );
    let p = path.to_str().unwrap();
    let before = engine_cells(&path, None);
    let said = ok(&format!(
        r#"INSERT INTO "{p}" VALUES (5, 'blue', 40, 5.5), (6, 'ünïcode', 10, 6.5)"#
    ));
    assert!(said.contains("| 2 "), "{said}");
    let cells = engine_cells(&path, None);
    assert_eq!(cells.len(), before.len() + 2);
    let new: Vec<&Value> = cells
        .iter()
        .filter(|c| [5, 6].contains(&c["d"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        new,
        [
            &json!({"d": 5, "color": 2, "size": 2, "x": 5.5}),
            &json!({"d": 6, "color": 3, "size": 0, "x": 6.5}),
        ]
    );
    // Read back as labels.
    let ours = ok(&format!(r#"SELECT color, size FROM "{p}" WHERE d = 6"#));
    assert!(ours.contains("| ünïcode | 10   |"), "{ours}");

    // A value that is no label: refused, named, nothing written.
    let err = refused(&format!(
        r#"INSERT INTO "{p}" VALUES (7, 'purple', 40, 7.5)"#
    ));
    assert!(
        err.contains("\"purple\" is not a label of the attribute's enumeration"),
        "{err}"
    );
    let err = refused(&format!(r#"INSERT INTO "{p}" VALUES (7, 'red', 41, 7.5)"#));
    assert!(err.contains("41 is not a label"), "{err}");
    assert_eq!(fragments(p), 2);

    // DELETE by label: the engine applies it by label too.
    let said = ok(&format!(r#"DELETE FROM "{p}" WHERE color = 'blue'"#));
    assert!(said.contains("| 2 "), "two blue cells: {said}");
    let left: Vec<i64> = engine_cells(&path, None)
        .iter()
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    assert_eq!(left, [0, 2, 6, 9]);

    // DELETE by a number label (sizes: Int16 labels 10, 20, 40, 80): the
    // condition compares the label, as the engine's does; the engine reads
    // back every cell but those whose label is 10 (key 0).
    let before = engine_cells(&path, None);
    let keep: Vec<i64> = before
        .iter()
        .filter(|c| c["size"] != json!(0))
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    assert!(!keep.is_empty() && keep.len() < before.len(), "{before:?}");
    let said = ok(&format!(r#"DELETE FROM "{p}" WHERE size = 10"#));
    let gone = before.len() - keep.len();
    assert!(said.contains(&format!("| {gone} ")), "{gone} cells: {said}");
    let left: Vec<i64> = engine_cells(&path, None)
        .iter()
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    assert_eq!(left, keep);
    // A literal that is no value of the labels' type: refused, naming the
    // attribute, its enumeration and what is supported; nothing deleted.
    let err = refused(&format!(r#"DELETE FROM "{p}" WHERE size = 40.5"#));
    assert!(
        err.contains(
            "the attribute \"size\" has the enumeration \"sizes\", whose labels are INT16"
        ) && err.contains("integers of the labels' type"),
        "{err}"
    );
    assert_eq!(engine_cells(&path, None).len(), keep.len());
}
