//! Issue 24, item 3: fragments and tiles pruned by DataFusion's
//! `PruningPredicate` over their min, max and null counts, shown by
//! EXPLAIN (`pruned fragments=N/M tiles=K/L`), and each partition's
//! statistics from the fragments it reads. Every answer is the engine's.

#![cfg(feature = "datafusion")]

use crate::common;
use common::{engine_cells, scratch};

use std::path::Path;
use std::sync::Arc;

use datafusion::common::stats::Precision;
use datafusion::physical_plan::{StatisticsArgs, StatisticsContext};
use datafusion::prelude::{SessionConfig, SessionContext};
use serde_json::Value;
use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};
use tiledb_codec_sql::TileDbTable;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn context(partitions: usize) -> SessionContext {
    SessionContext::new_with_config(SessionConfig::new().with_target_partitions(partitions))
}

/// `query` on `path` (as `t`): its rows as CSV lines, the header first.
fn run(path: &Path, query: &str) -> String {
    runtime().block_on(async {
        let ctx = context(3);
        let table = TileDbTable::new(Arc::new(Array::open(path).unwrap())).unwrap();
        ctx.register_table("t", Arc::new(table)).unwrap();
        let batches = ctx
            .sql(query)
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"))
            .collect()
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"));
        csv(&batches)
    })
}

/// `batches` as CSV lines, the header first.
fn csv(batches: &[datafusion::arrow::array::RecordBatch]) -> String {
    let mut buf = Vec::new();
    {
        let mut w = datafusion::arrow::csv::Writer::new(&mut buf);
        for b in batches {
            w.write(b).unwrap();
        }
    }
    String::from_utf8(buf).unwrap()
}

/// A sparse array that allows duplicates, of five fragments spread over
/// the whole domain (they overlap): fragment k holds a in [100k, 100k +
/// 39], 4 tiles of 10 cells each.
fn five_overlapping(path: &Path) -> Array {
    let array = sparse(path, true, 10);
    for k in 0..5i64 {
        let d: Vec<i64> = (0..40).map(|i| i * 250 + k).collect();
        let a: Vec<i64> = (0..40).map(|i| 100 * k + i).collect();
        write(&array, &d, &a);
    }
    array
}

/// The `pruned fragments=N/M tiles=K/L` EXPLAIN shows for `query`.
fn pruned(path: &Path, query: &str) -> Option<String> {
    let plan = run(path, &format!("EXPLAIN {query}"));
    let at = plan.find("pruned fragments=")?;
    let rest = &plan[at..];
    let end = rest.find(['"', '\n', ',']).unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

/// The engine's count and sum of `a` over the cells `keep` keeps.
fn engine_count_sum(path: &Path, keep: impl Fn(&Value) -> bool) -> String {
    let cells = engine_cells(path, None);
    let kept: Vec<&Value> = cells.iter().filter(|c| keep(c)).collect();
    let sum: i64 = kept.iter().map(|c| c["a"].as_i64().unwrap()).sum();
    if kept.is_empty() {
        "0,".to_string()
    } else {
        format!("{},{sum}", kept.len())
    }
}

fn sparse(path: &Path, dups: bool, capacity: u64) -> Array {
    let schema = SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0i64..=9_999)
                .tile_extent(1_000i64),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int64))
        .attribute(AttributeBuilder::new("s", Datatype::StringAscii).var())
        .allows_duplicates(dups)
        .capacity(capacity)
        .build()
        .unwrap();
    Array::create(path, &schema).unwrap()
}

fn write(array: &Array, d: &[i64], a: &[i64]) {
    let s: Vec<String> = a.iter().map(|v| format!("k{v:05}")).collect();
    array
        .write()
        .column("d", d)
        .column("a", a)
        .strings("s", &s)
        .commit()
        .unwrap();
}

#[test]
fn fragments_and_tiles_pruned_by_attribute_bounds_with_duplicates() {
    let dir = scratch("sql-prune-dups");
    let path = dir.join("t");
    five_overlapping(&path);
    let q = "SELECT count(*), sum(a) FROM t WHERE a >= 205 AND a < 212";
    assert_eq!(
        pruned(&path, q).as_deref(),
        Some("pruned fragments=4/5 tiles=2/4"),
        "{}",
        run(&path, &format!("EXPLAIN {q}"))
    );
    let got = run(&path, q);
    let want = engine_count_sum(&path, |c| {
        let a = c["a"].as_i64().unwrap();
        (205..212).contains(&a)
    });
    assert_eq!(got.lines().nth(1), Some(want.as_str()), "{got}");
    // Text bounds (STRING_ASCII keeps them): the same cells by `s`.
    let q = "SELECT count(*), sum(a) FROM t WHERE s >= 'k00205' AND s <= 'k00211'";
    let p = pruned(&path, q).unwrap_or_default();
    assert!(p.starts_with("pruned fragments=4/5"), "{p}");
    assert_eq!(run(&path, q).lines().nth(1), Some(want.as_str()));

    // The bounds of the ASCII strings answer min and max without a scan
    // (duplicates kept, no delete yet), as the engine's.
    let q = "SELECT min(s), max(s) FROM t";
    let plan = run(&path, &format!("EXPLAIN {q}"));
    assert!(!plan.contains("TileDbScan"), "{plan}");
    let cells = engine_cells(&path, None);
    let strings: Vec<&str> = cells.iter().map(|c| c["s"].as_str().unwrap()).collect();
    let want = format!(
        "{},{}",
        strings.iter().min().unwrap(),
        strings.iter().max().unwrap()
    );
    assert_eq!(run(&path, q).lines().nth(1), Some(want.as_str()));

    // After a delete of part of what the filter keeps, the same answer as
    // the engine's (deletes only remove cells the bounds hold).
    let out = common::cli(&["delete", path.to_str().unwrap(), "--where", "a < 208"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let q = "SELECT count(*), sum(a) FROM t WHERE a >= 205 AND a < 212";
    let got = run(&path, q);
    let want = engine_count_sum(&path, |c| {
        let a = c["a"].as_i64().unwrap();
        (205..212).contains(&a)
    });
    assert_eq!(got.lines().nth(1), Some(want.as_str()), "{got}");
    assert!(want.starts_with("4,"), "{want}");
}

#[test]
fn attribute_bounds_never_prune_a_fragment_that_hides_an_older_cell() {
    let dir = scratch("sql-prune-overlap");
    let path = dir.join("t");
    let array = sparse(&path, false, 10);
    // Older: large values at d = 0..9. Newer: small values at the same
    // coordinates (they win). A third, apart: small values at d = 5000..
    write(&array, &(0..10).collect::<Vec<_>>(), &[1_000; 10]);
    write(
        &array,
        &(0..10).collect::<Vec<_>>(),
        &(1..=10).collect::<Vec<_>>(),
    );
    write(
        &array,
        &(5_000..5_010).collect::<Vec<_>>(),
        &(1..=10).collect::<Vec<_>>(),
    );
    let q = "SELECT count(*), sum(a) FROM t WHERE a > 500";
    // Only the third fragment may go: leaving out the second would show
    // the first's cells.
    assert_eq!(
        pruned(&path, q).as_deref(),
        Some("pruned fragments=1/3 tiles=0/0")
    );
    let got = run(&path, q);
    let want = engine_count_sum(&path, |c| c["a"].as_i64().unwrap() > 500);
    assert_eq!(want, "0,");
    assert_eq!(got.lines().nth(1), Some(want.as_str()), "{got}");
    // By a dimension, any fragment goes.
    let q = "SELECT count(*), sum(a) FROM t WHERE d >= 4000";
    let p = pruned(&path, q).unwrap_or_default();
    assert!(p.starts_with("pruned fragments=2/3"), "{p}");
    let want = engine_count_sum(&path, |c| c["d"].as_i64().unwrap() >= 4_000);
    assert_eq!(run(&path, q).lines().nth(1), Some(want.as_str()));
}

/// Each partition's statistics come from the fragments in its slice of
/// the first dimension: exact where they lie inside it, and together
/// the table's; each partition's bounds hold its cells (the engine's).
#[test]
fn partition_statistics_from_the_fragments_each_partition_reads() {
    let dir = scratch("sql-prune-parts");
    let path = dir.join("t");
    let array = sparse(&path, true, 100);
    // Four fragments, one per quarter of d.
    for k in 0..4i64 {
        let d: Vec<i64> = (0..50).map(|i| k * 2_500 + i * 7).collect();
        let a: Vec<i64> = (0..50).map(|i| (i * 37 + k * 11) % 97 - k * 100).collect();
        write(&array, &d, &a);
    }
    let table = TileDbTable::new(Arc::new(Array::open(&path).unwrap())).unwrap();
    let ctx = context(4);
    let state = ctx.state();
    let plan = runtime()
        .block_on(datafusion::datasource::TableProvider::scan(
            &table,
            &state,
            None,
            &[],
            None,
        ))
        .unwrap();
    let n = plan.properties().partitioning.partition_count();
    assert_eq!(n, 4);
    let cells = engine_cells(&path, None);
    let mut total = 0;
    for p in 0..n {
        let s = StatisticsContext::new()
            .compute(
                plan.as_ref(),
                &StatisticsArgs::new().with_partition(Some(p)),
            )
            .unwrap();
        let Precision::Exact(rows) = s.num_rows else {
            panic!("partition {p}: {:?}", s.num_rows)
        };
        total += rows;
        // Columns: d, a, s.
        let a = &s.column_statistics[1];
        let (Precision::Exact(lo), Precision::Exact(hi)) = (&a.min_value, &a.max_value) else {
            panic!("partition {p}: {a:?}")
        };
        let d = &s.column_statistics[0];
        let (Some(dlo), Some(dhi)) = (d.min_value.get_value(), d.max_value.get_value()) else {
            panic!("partition {p}: {d:?}")
        };
        let inside: Vec<&Value> = cells
            .iter()
            .filter(|c| {
                let v = datafusion::common::ScalarValue::Int64(c["d"].as_i64());
                dlo <= &v && &v <= dhi
            })
            .collect();
        assert_eq!(inside.len(), rows, "partition {p}");
        let vals: Vec<i64> = inside.iter().map(|c| c["a"].as_i64().unwrap()).collect();
        assert_eq!(
            lo,
            &datafusion::common::ScalarValue::Int64(vals.iter().min().copied())
        );
        assert_eq!(
            hi,
            &datafusion::common::ScalarValue::Int64(vals.iter().max().copied())
        );
    }
    assert_eq!(total, cells.len());
}

/// Ballista sends a scan to its executors through the codec: the pruning
/// the planner did goes with it (the executor's scan shows it and reads
/// the same rows), and is dropped where the executor's array holds other
/// fragments than the planner saw.
#[cfg(feature = "ballista")]
#[test]
fn pruning_crosses_the_ballista_codec_to_the_executors() {
    use datafusion::physical_plan::{collect, displayable};
    use datafusion_proto::bytes::{
        physical_plan_from_bytes_with_extension_codec, physical_plan_to_bytes_with_extension_codec,
    };
    let dir = scratch("sql-prune-ballista");
    let path = dir.join("t");
    let array = five_overlapping(&path);
    let q = "SELECT d, a FROM t WHERE a >= 205 AND a < 212 ORDER BY d";
    let open = |name: &str| -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>> {
        Ok(Arc::new(Array::open(name)?))
    };
    let codec = tiledb_codec_sql::ballista::TileDbCodec::new(open);
    runtime().block_on(async {
        let ctx = context(1);
        let table = TileDbTable::new(Arc::new(Array::open(&path).unwrap())).unwrap();
        ctx.register_table("t", Arc::new(table)).unwrap();
        let plan = ctx
            .sql(q)
            .await
            .unwrap()
            .create_physical_plan()
            .await
            .unwrap();
        let shown = displayable(plan.as_ref()).indent(true).to_string();
        assert!(shown.contains("pruned fragments=4/5 tiles=2/4"), "{shown}");
        let bytes =
            physical_plan_to_bytes_with_extension_codec(plan.clone(), codec.as_ref()).unwrap();
        let back =
            physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), codec.as_ref())
                .unwrap();
        let shown = displayable(back.as_ref()).indent(true).to_string();
        assert!(shown.contains("pruned fragments=4/5 tiles=2/4"), "{shown}");
        let here = csv(&collect(plan, ctx.task_ctx()).await.unwrap());
        let there = csv(&collect(back, ctx.task_ctx()).await.unwrap());
        assert_eq!(here.lines().count(), 8, "{here}");
        assert_eq!(there, here);

        // A fragment written after planning: the executor reads unpruned
        // (and sees the new cell, as a fresh open does).
        write(&array, &[9999], &[207]);
        let back =
            physical_plan_from_bytes_with_extension_codec(&bytes, &ctx.task_ctx(), codec.as_ref())
                .unwrap();
        let shown = displayable(back.as_ref()).indent(true).to_string();
        assert!(!shown.contains("pruned fragments="), "{shown}");
        let there = csv(&collect(back, ctx.task_ctx()).await.unwrap());
        assert_eq!(there.lines().count(), 9, "{there}");
        assert!(there.ends_with("9999,207\n"), "{there}");
    });
}
