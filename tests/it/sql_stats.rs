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
use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};

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

/// A dense schema with dimension `d` (Int64, 0..=99, tiles of 10).
fn dense_d() -> SchemaBuilder {
    SchemaBuilder::dense().dimension(
        DimensionBuilder::new("d", Datatype::Int64)
            .domain(0i64..=99)
            .tile_extent(10i64),
    )
}

/// A dense array at `path` ([`dense_d`] with FLOAT64 attribute `a`) with
/// `a` written from cell 0 on, in one fragment.
fn dense_a_written(path: &Path, a: &[f64]) {
    let schema = dense_d()
        .attribute(AttributeBuilder::new("a", Datatype::Float64))
        .build()
        .unwrap();
    Array::create(path, &schema)
        .unwrap()
        .write()
        .range("d", 0i64..=a.len() as i64 - 1)
        .column("a", a)
        .commit()
        .unwrap();
}

/// A session of the crate's factory with the array at `path` as table `t`.
fn session_with_t(path: &Path) -> datafusion::prelude::SessionContext {
    use std::sync::Arc;
    let ctx = tiledb_codec_sql::TileDbTableFactory::default()
        .session(datafusion::prelude::SessionConfig::new());
    let table = tiledb_codec_sql::TileDbTable::new(Arc::new(Array::open(path).unwrap())).unwrap();
    ctx.register_table("t", Arc::new(table)).unwrap();
    ctx
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
    // Answered while the query is a logical plan (the session's first
    // optimizer rule): no table scan is left even there.
    assert!(!plan.contains("TableScan"), "{plan}");
    let got = sql(&q);
    let line = got.lines().nth(1).unwrap();
    assert_eq!(line, engine_answer(&path, "a"), "{got}");
    // count(a) too (no nulls); with a sum, which metadata does not answer
    // exactly here, the scan runs and gives the same count.
    let cq = format!(r#"SELECT count(a), max(a) FROM "{p}""#);
    let plan = sql(&format!("EXPLAIN {cq}"));
    assert!(!plan.contains("TableScan"), "{plan}");
    let want = engine_answer(&path, "a");
    let want_count_max = format!("150,{}", want.rsplit(',').next().unwrap());
    assert_eq!(sql(&cq).lines().nth(1), Some(want_count_max.as_str()));
    let sq = format!(r#"SELECT count(a), max(a), sum(a) FROM "{p}""#);
    let plan = sql(&format!("EXPLAIN {sq}"));
    assert!(plan.contains("TableScan"), "{plan}");
    let got = sql(&sq);
    assert!(
        got.lines()
            .nth(1)
            .unwrap()
            .starts_with(&format!("{want_count_max},")),
        "{got}"
    );

    // Filtered, the table's exact bounds only bound the answer: the scan
    // runs (a condition pushed into it leaves no filter above it to stop
    // DataFusion taking them).
    let fq = format!(r#"SELECT min(a), max(a) FROM "{p}" WHERE a > 10 AND a < 30"#);
    let cells = engine_cells(&path, None);
    let kept: Vec<i64> = cells
        .iter()
        .filter_map(|c| c["a"].as_i64())
        .filter(|a| *a > 10 && *a < 30)
        .collect();
    let want = format!(
        "{},{}",
        kept.iter().min().unwrap(),
        kept.iter().max().unwrap()
    );
    assert_eq!(sql(&fq).lines().nth(1), Some(want.as_str()));

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
    let table = tiledb_codec_sql::TileDbTable::new(array).unwrap();
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

/// Runs `query` on `table` (as `t`) in-process: its rows as CSV lines
/// (the header first).
fn run_on(table: tiledb_codec_sql::TileDbTable, query: &str, partitions: usize) -> String {
    use datafusion::prelude::{SessionConfig, SessionContext};
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let ctx = SessionContext::new_with_config(
            SessionConfig::new().with_target_partitions(partitions),
        );
        ctx.register_table("t", std::sync::Arc::new(table)).unwrap();
        let batches = ctx
            .sql(query)
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"))
            .collect()
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"));
        let mut buf = Vec::new();
        {
            let mut w = datafusion::arrow::csv::Writer::new(&mut buf);
            for b in &batches {
                w.write(b).unwrap();
            }
        }
        String::from_utf8(buf).unwrap()
    })
}

/// `query` answered by `tiledb_codec_sql::answer_from_metadata` alone,
/// with `table` as `t` in a crate session: its row as CSV lines (the header
/// first), or `None` where it does not answer.
fn answer_alone(table: tiledb_codec_sql::TileDbTable, query: &str) -> Option<String> {
    use datafusion::prelude::SessionConfig;
    use tiledb_codec_sql::{answer_from_metadata, parse_session_script, TileDbTableFactory};
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let ctx = TileDbTableFactory::default().session(SessionConfig::new());
        ctx.register_table("t", std::sync::Arc::new(table)).unwrap();
        let statement = parse_session_script(&ctx, query)
            .unwrap()
            .pop_front()
            .unwrap();
        let row = answer_from_metadata(&ctx, &statement, |_| Err("no array to open".into()))
            .await
            .unwrap()?;
        let mut buf = Vec::new();
        datafusion::arrow::csv::Writer::new(&mut buf)
            .write(&row)
            .unwrap();
        Some(String::from_utf8(buf).unwrap())
    })
}

/// The engine's `A.query().agg(...)` of `exprs`, by expression.
fn engine_agg(path: &Path, exprs: &[&str]) -> serde_json::Map<String, Value> {
    let out = std::process::Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/engine_aggregate.py"))
        .arg(path)
        .arg(serde_json::json!(exprs).to_string())
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "engine_aggregate.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v.as_object().expect("an object").clone()
}

/// Issue 24's done-when: `count(*)`, `min` and `max` over 1,000 fragments
/// (written by the engine, tests/engine/many_fragments.py) come from their
/// metadata, with no data tile read (the reader's tile counter), and equal
/// the engine's aggregate.
#[test]
fn thousand_fragments_answered_without_reading_a_tile() {
    use std::sync::Arc;
    let dir = scratch("sql-stats-1000");
    let path = dir.join("t");
    let out = std::process::Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/many_fragments.py"))
        .arg(&path)
        .arg("1000")
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "many_fragments.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let array = Arc::new(Array::open(&path).unwrap());
    assert_eq!(
        tiledb_codec::raw::array_reader(&array).fragments.len(),
        1_000
    );
    let table = || tiledb_codec_sql::TileDbTable::new(array.clone()).unwrap();
    let q = "SELECT count(*) AS n, min(a) AS lo, max(a) AS hi FROM t";
    let plan = run_on(table(), &format!("EXPLAIN {q}"), 4);
    assert!(answered_from_metadata(&plan), "{plan}");
    let before = tiledb_codec::raw::array_reader(&array).stats().tiles();
    let got = run_on(table(), q, 4);
    assert_eq!(
        tiledb_codec::raw::array_reader(&array).stats().tiles(),
        before,
        "a data tile was read"
    );
    let e = engine_agg(&path, &["count(*)", "min(a)", "max(a)"]);
    let want = format!("{},{},{}", e["count(*)"], e["min(a)"], e["max(a)"]);
    assert_eq!(got.lines().nth(1), Some(want.as_str()), "{got}");
    // The same from `answer_from_metadata` (what the `sql` command asks
    // first), before any planning: no tile read, the same row.
    let answered = answer_alone(table(), q).expect("answered from metadata");
    assert_eq!(
        tiledb_codec::raw::array_reader(&array).stats().tiles(),
        before,
        "a data tile was read"
    );
    assert_eq!(answered.lines().nth(1), Some(want.as_str()), "{answered}");
    // The counter sees the tiles a scan reads: a sum is not answered from
    // statistics.
    let sum = run_on(table(), "SELECT sum(a) FROM t WHERE d < 50", 4);
    assert!(
        tiledb_codec::raw::array_reader(&array).stats().tiles() > before,
        "the counter saw no tile of a scan: {sum}"
    );
}

/// Dense fragments that tile the box a read returns, none overlapping
/// another: every cell comes from one of them and every cell they wrote
/// is read, so their statistics are exact. With a gap between them (fill
/// values there), only bounds: the scan runs. Both answers the engine's.
#[test]
fn dense_fragments_that_tile_the_box_answer_from_metadata() {
    let dir = scratch("sql-stats-dense");
    for (name, pieces, exact) in [
        ("tiled", vec![(0i64, 9i64), (10, 24), (25, 29)], true),
        ("gap", vec![(0, 9), (20, 29)], false),
        ("overlap", vec![(0, 19), (10, 29)], false),
    ] {
        let path = dir.join(name);
        let schema = dense_d()
            .attribute(AttributeBuilder::new("a", Datatype::Int32))
            .build()
            .unwrap();
        let array = Array::create(&path, &schema).unwrap();
        for (k, (lo, hi)) in pieces.iter().enumerate() {
            let a: Vec<i32> = (*lo..=*hi)
                .map(|v| (v as i32 * 13 + k as i32) % 41)
                .collect();
            array
                .write()
                .range("d", *lo..=*hi)
                .column("a", &a)
                .commit()
                .unwrap();
        }
        let p = path.to_str().unwrap();
        let q = format!(r#"SELECT count(*), min(a), max(a) FROM "{p}""#);
        let plan = sql(&format!("EXPLAIN {q}"));
        assert_eq!(answered_from_metadata(&plan), exact, "{name}: {plan}");
        let got = sql(&q);
        assert_eq!(
            got.lines().nth(1).unwrap(),
            engine_answer(&path, "a"),
            "{name}"
        );
    }
}

/// The crate's sessions answer a whole-array count, min and max while the
/// plan is analyzed (the optimizer starts from the answer), and their
/// query planner (`AnsweredPlanner`) plans the answer as DataFusion's
/// planner does, without its physical optimizer passes: the same plan,
/// the same row. Other plans are DataFusion's.
#[test]
fn answered_plan_is_datafusions_plan() {
    use datafusion::execution::context::QueryPlanner;
    use datafusion::physical_plan::{collect, displayable};
    use datafusion::physical_planner::{DefaultPhysicalPlanner, PhysicalPlanner};
    use std::sync::Arc;
    use tiledb_codec_sql::AnsweredPlanner;
    let dir = scratch("sql-answered-plan");
    let path = dir.join("one");
    let a: Vec<f64> = (0..30).map(|v| (v * 7 % 13) as f64 - 2.5).collect();
    dense_a_written(&path, &a);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let ctx = session_with_t(&path);
        let state = ctx.state();
        let show = |p: &Arc<dyn datafusion::physical_plan::ExecutionPlan>| {
            displayable(p.as_ref()).indent(true).to_string()
        };
        for (q, answered) in [
            ("SELECT count(*) AS n, min(a), max(a) AS hi FROM t", true),
            ("SELECT count(a), max(d) FROM t", false),
            ("SELECT sum(a) FROM t", false),
        ] {
            let plan = state.create_logical_plan(q).await.unwrap();
            let analyzed = state
                .analyzer()
                .execute_and_check(plan.clone(), state.config_options(), |_, _| {})
                .unwrap();
            let shown = analyzed.display_indent().to_string();
            assert_eq!(!shown.contains("TableScan"), answered, "{q}: {shown}");
            let optimized = state.optimize(&plan).unwrap();
            let ours = AnsweredPlanner
                .create_physical_plan(&optimized, &state)
                .await
                .unwrap();
            let theirs = DefaultPhysicalPlanner::default()
                .create_physical_plan(&optimized, &state)
                .await
                .unwrap();
            assert_eq!(show(&ours), show(&theirs), "{q}");
            assert_eq!(ours.schema(), theirs.schema(), "{q}");
            assert_eq!(show(&ours).contains("TileDbScan"), !answered, "{q}");
            let (x, y) = (
                collect(ours, state.task_ctx()).await.unwrap(),
                collect(theirs, state.task_ctx()).await.unwrap(),
            );
            assert_eq!(x, y, "{q}");
            if answered {
                use datafusion::arrow::array::{Float64Array, Int64Array};
                let b = &x[0];
                let n = b.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
                let lo = b.column(1).as_any().downcast_ref::<Float64Array>().unwrap();
                let hi = b.column(2).as_any().downcast_ref::<Float64Array>().unwrap();
                assert_eq!((n.value(0), lo.value(0), hi.value(0)), (30, -2.5, 9.5));
                assert_eq!(b.schema().field(2).name(), "hi");
            }
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A dense array of 30 cells at `path` with attributes `a` (FLOAT64) and
/// `Big` (INT16): their values.
fn write_a_and_big(path: &std::path::Path) -> (Vec<f64>, Vec<i16>) {
    let schema = dense_d()
        .attribute(AttributeBuilder::new("a", Datatype::Float64))
        .attribute(AttributeBuilder::new("Big", Datatype::Int16))
        .build()
        .unwrap();
    let array = Array::create(path, &schema).unwrap();
    let a: Vec<f64> = (0..30).map(|v| (v * 7 % 13) as f64 - 2.5).collect();
    let big: Vec<i16> = (0..30).map(|v| (v * 5 % 11) as i16 - 4).collect();
    array
        .write()
        .range("d", 0i64..=29)
        .column("a", &a)
        .column("Big", &big)
        .commit()
        .unwrap();
    (a, big)
}

/// `answer_from_metadata` (what the `sql` command asks before planning a
/// statement) answers exactly the whole-array `count`, `min` and `max` the
/// session's own rule answers, with the session's row: the same column
/// names (aliases, qualifiers, case as DataFusion normalizes it), types,
/// nullability and values. Any other statement, or one whose values are
/// not known exactly, is left to DataFusion.
#[test]
fn metadata_answer_before_planning_is_the_sessions_row() {
    use datafusion::prelude::SessionConfig;
    use std::sync::Arc;
    use tiledb_codec_sql::{
        answer_from_metadata, parse_session_script, register_tables, TileDbTable,
        TileDbTableFactory,
    };
    let dir = scratch("sql-answer-first");
    let path = dir.join("one");
    let (a, big) = write_a_and_big(&path);
    let p = path.to_str().unwrap().to_string();
    let merged = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let merged = merged.to_str().unwrap();
    let open = |name: &str| -> Result<_, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Arc::new(Array::open(name)?))
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let ctx = session_with_t(&path);
        let cases: Vec<(String, bool)> = vec![
            (
                "SELECT count(*) AS n, min(a), max(a) AS hi FROM t".into(),
                true,
            ),
            ("select COUNT(*), Min(A), MAX(t.a) from T".into(), true),
            (
                r#"SELECT min("Big"), max(x."Big"), count(a) FROM t AS x"#.into(),
                true,
            ),
            ("SELECT count(*) AS \"N\", max(y.a) FROM t y".into(), true),
            (
                format!(r#"SELECT count(*), min(a), max("Big") FROM "{p}""#),
                true,
            ),
            (format!(r#"SELECT max(a) FROM '{p}'"#), true),
            // Other clauses, functions or forms: DataFusion's.
            ("SELECT count(*), min(a) FROM t WHERE a > 0".into(), false),
            ("SELECT count(*) FROM t LIMIT 1".into(), false),
            ("SELECT count(*) FROM t GROUP BY a".into(), false),
            ("SELECT count(*) FROM t HAVING count(*) > 1".into(), false),
            ("SELECT DISTINCT count(*) FROM t".into(), false),
            ("SELECT count(DISTINCT a) FROM t".into(), false),
            ("SELECT min(a), sum(a) FROM t".into(), false),
            ("SELECT count(*) + 1 FROM t".into(), false),
            ("SELECT count(1) FROM t".into(), false),
            ("SELECT count(*) FROM t, t AS u".into(), false),
            ("SELECT count(*) FROM (SELECT * FROM t)".into(), false),
            ("WITH w AS (SELECT 1) SELECT count(*) FROM t".into(), false),
            (
                "SELECT count(*) FROM t UNION ALL SELECT count(*) FROM t".into(),
                false,
            ),
            ("SELECT count(*) FROM t ORDER BY 1".into(), false),
            ("SELECT max(a) FILTER (WHERE a > 1) FROM t".into(), false),
            ("SELECT min(u.a) FROM t".into(), false),
            // Not exact: a dimension's extent, and fragments a read merges.
            ("SELECT max(d) FROM t".into(), false),
            (format!(r#"SELECT count(*) FROM "{merged}""#), false),
            // A column the table lacks, and two columns of one name:
            // DataFusion's errors.
            ("SELECT min(big) FROM t".into(), false),
            ("SELECT max(@a) FROM t".into(), false),
            ("SELECT count(*) FROM range".into(), false),
            ("SELECT min(a) AS m, max(a) AS m FROM t".into(), false),
            ("EXPLAIN SELECT count(*) FROM t".into(), false),
        ];
        for (q, answered) in cases {
            let statement = parse_session_script(&ctx, &q).unwrap().pop_front().unwrap();
            let got = answer_from_metadata(&ctx, &statement, open)
                .await
                .unwrap_or_else(|e| panic!("{q}: {e}"));
            assert_eq!(got.is_some(), answered, "{q}");
            let Some(row) = got else { continue };
            // Nothing registered by the answer.
            assert!(!ctx.table_exist(p.as_str()).unwrap(), "{q}");
            register_tables(&ctx, &q, open).unwrap();
            let df = ctx.sql(&q).await.unwrap();
            let plan = format!("{:?}", df.clone().into_optimized_plan().unwrap());
            assert!(
                !plan.contains("TableScan"),
                "{q}: the session scans: {plan}"
            );
            // The statement's schema as DataFusion names it, and the
            // values its plan gives.
            assert_eq!(row.schema().as_ref(), df.schema().as_arrow(), "{q}");
            let want = df.collect().await.unwrap();
            assert_eq!(want.len(), 1, "{q}");
            assert_eq!(row.columns(), want[0].columns(), "{q}");
            ctx.deregister_table(p.as_str()).unwrap();
        }
        // Values: the count, min and max of what was written.
        let statement = parse_session_script(&ctx, "SELECT count(*), min(a), max(\"Big\") FROM t")
            .unwrap()
            .pop_front()
            .unwrap();
        let row = answer_from_metadata(&ctx, &statement, open)
            .await
            .unwrap()
            .unwrap();
        use datafusion::arrow::array::{Float64Array, Int16Array, Int64Array};
        let n = row.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
        let lo = row
            .column(1)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap();
        let hi = row.column(2).as_any().downcast_ref::<Int16Array>().unwrap();
        assert_eq!(
            (n.value(0), lo.value(0), hi.value(0)),
            (
                30,
                a.iter().cloned().fold(f64::INFINITY, f64::min),
                *big.iter().max().unwrap()
            )
        );
        // A session that keeps identifiers as written: the same names
        // as its own planning gives.
        let config = SessionConfig::new()
            .set_bool("datafusion.sql_parser.enable_ident_normalization", false);
        let kept = TileDbTableFactory::default().session(config);
        let table = TileDbTable::new(Arc::new(Array::open(&path).unwrap())).unwrap();
        kept.register_table(
            datafusion::common::TableReference::bare("T"),
            Arc::new(table),
        )
        .unwrap();
        for q in [
            "SELECT max(Big), COUNT(*) AS N FROM T",
            "SELECT min(T.a) FROM T AS T",
        ] {
            let statement = parse_session_script(&kept, q).unwrap().pop_front().unwrap();
            let row = answer_from_metadata(&kept, &statement, open)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{q}: not answered"));
            let df = kept.sql(q).await.unwrap();
            assert_eq!(row.schema().as_ref(), df.schema().as_arrow(), "{q}");
            let want = df.collect().await.unwrap();
            assert_eq!(row.columns(), want[0].columns(), "{q}");
        }
        // An array opened for a statement not answered is left
        // registered, for planning to use.
        let q = format!(r#"SELECT count(*) FROM "{merged}""#);
        let statement = parse_session_script(&ctx, &q).unwrap().pop_front().unwrap();
        assert!(answer_from_metadata(&ctx, &statement, open)
            .await
            .unwrap()
            .is_none());
        assert!(ctx.table_exist(merged).unwrap());
        // A name that is no array: the error register_tables gives.
        let statement = parse_session_script(&ctx, r#"SELECT count(*) FROM "no/such/array""#)
            .unwrap()
            .pop_front()
            .unwrap();
        let e = answer_from_metadata(&ctx, &statement, open)
            .await
            .unwrap_err();
        assert!(e.to_string().contains("cannot open it as an array"), "{e}");
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The crate's session keeps the arrays its statements name by path: a
/// statement naming one again uses the table already made (no open, no
/// statistics made again) while the array's folders list the same, and
/// opens it anew once another writer committed a fragment. A session of
/// DataFusion's own opens the array for every statement.
#[test]
fn a_session_keeps_the_arrays_it_opened_while_they_are_current() {
    use datafusion::arrow::array::{Float64Array, Int64Array};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use tiledb_codec_sql::{
        answer_from_metadata, parse_session_script, register_statement_tables, TileDbTableFactory,
    };
    let dir = scratch("sql-kept-arrays");
    let path = dir.join("kept");
    let a: Vec<f64> = (0..30).map(|v| v as f64).collect();
    dense_a_written(&path, &a);
    let p = path.to_str().unwrap().to_string();
    let opens = AtomicUsize::new(0);
    let open = |name: &str| -> Result<_, Box<dyn std::error::Error + Send + Sync>> {
        opens.fetch_add(1, Ordering::SeqCst);
        Ok(Arc::new(Array::open(name)?))
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let ctx = TileDbTableFactory::default().session(datafusion::prelude::SessionConfig::new());
        let count = format!(r#"SELECT count(*) FROM "{p}""#);
        let answer = |ctx: &datafusion::prelude::SessionContext| {
            let statement = parse_session_script(ctx, &count)
                .unwrap()
                .pop_front()
                .unwrap();
            let ctx = ctx.clone();
            let open = &open;
            async move {
                let row = answer_from_metadata(&ctx, &statement, open)
                    .await
                    .unwrap()
                    .expect("answered from metadata");
                let n = row.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
                n.value(0)
            }
        };
        assert_eq!(answer(&ctx).await, 30);
        assert_eq!(answer(&ctx).await, 30);
        assert_eq!(
            opens.load(Ordering::SeqCst),
            1,
            "the second statement opened it again"
        );
        // A statement DataFusion plans uses the same table.
        let sum = format!(r#"SELECT sum(a) FROM "{p}""#);
        let sum_of = |ctx: datafusion::prelude::SessionContext| {
            let sum = sum.clone();
            let open = &open;
            async move {
                let statement = parse_session_script(&ctx, &sum)
                    .unwrap()
                    .pop_front()
                    .unwrap();
                let names = register_statement_tables(&ctx, &statement, open).unwrap();
                let batches = ctx.sql(&sum).await.unwrap().collect().await.unwrap();
                for n in names {
                    ctx.deregister_table(n.as_str()).unwrap();
                }
                let s = batches[0]
                    .column(0)
                    .as_any()
                    .downcast_ref::<Float64Array>()
                    .unwrap();
                s.value(0)
            }
        };
        assert_eq!(sum_of(ctx.clone()).await, a.iter().sum::<f64>());
        assert_eq!(opens.load(Ordering::SeqCst), 1);

        // Another writer commits cells 30..=39: the next statement sees them.
        let more: Vec<f64> = (30..40).map(|v| v as f64).collect();
        Array::open(&path)
            .unwrap()
            .write()
            .range("d", 30i64..=39)
            .column("a", &more)
            .commit()
            .unwrap();
        assert_eq!(answer(&ctx).await, 40);
        assert_eq!(opens.load(Ordering::SeqCst), 2);
        let want: f64 = a.iter().chain(&more).sum();
        assert_eq!(sum_of(ctx.clone()).await, want);
        assert_eq!(answer(&ctx).await, 40);
        assert_eq!(opens.load(Ordering::SeqCst), 2);

        // DataFusion's own session keeps nothing: an open per statement.
        let plain = datafusion::prelude::SessionContext::new();
        assert_eq!(answer(&plain).await, 40);
        assert_eq!(answer(&plain).await, 40);
        assert_eq!(opens.load(Ordering::SeqCst), 4);
    });
    std::fs::remove_dir_all(&dir).unwrap();
}
