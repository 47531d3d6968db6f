//! SQL over arrays (feature `datafusion`): queries over the fixtures equal
//! what the engine (TileDB-Py) reads, filtered, grouped, sorted and joined
//! by pyarrow (tests/engine/sql_reference.py); EXPLAIN shows what was
//! pushed into the reads; the `sql` command prints the same.
#![cfg(feature = "datafusion")]

use crate::common;

use std::process::Command;
use std::sync::Arc;

use datafusion::arrow::array::RecordBatch;
use datafusion::prelude::{SessionConfig, SessionContext};
use serde_json::Value;
use tiledb_codec::Array;

const F: &str = "tests/fixtures/v22";

/// (case, query, whether the query orders its rows). `{F}` is the fixture
/// folder.
const CASES: &[(&str, &str, bool)] = &[
    (
        "dims_range",
        r#"SELECT r, c, a FROM "{F}/sparse_int_2d" WHERE r >= 10 AND r <= 50 AND c < 60"#,
        false,
    ),
    (
        "attr_condition",
        r#"SELECT r, c, a, b FROM "{F}/sparse_int_2d" WHERE a > 5 AND b < 100.0"#,
        false,
    ),
    (
        "chunked_aggregate",
        r#"SELECT count(*) AS n, sum(v) AS s, min(v) AS lo, max(v) AS hi
           FROM "{F}/sparse_chunked" WHERE r < 400 AND c >= 50"#,
        true,
    ),
    (
        "group_by",
        r#"SELECT r % 7 AS k, count(v) AS n, sum(v) AS s FROM "{F}/sparse_chunked"
           WHERE s > 'm' GROUP BY k ORDER BY k"#,
        true,
    ),
    (
        "enum_filter",
        r#"SELECT d, color, size, x FROM "{F}/enumerations" WHERE color = 'red' OR color = 'blue'"#,
        false,
    ),
    (
        "nullable",
        r#"SELECT d, n, s FROM "{F}/nullable_var_sparse" WHERE n IS NOT NULL AND d <= 40"#,
        false,
    ),
    (
        "nullable_not",
        r#"SELECT d, f FROM "{F}/nullable_var_sparse" WHERE NOT (n < 3)"#,
        false,
    ),
    (
        "string_dim",
        r#"SELECT s, i, v, t FROM "{F}/sparse_strdim" WHERE s >= 'apple' AND s < 'cherry' ORDER BY s"#,
        true,
    ),
    (
        "dense_range",
        r#"SELECT "rows", cols, a, b FROM "{F}/dense_int_2d" WHERE cols > 2 ORDER BY "rows", cols"#,
        true,
    ),
    (
        "float_dims",
        r#"SELECT x, y, v FROM "{F}/sparse_float_dims" WHERE x < 0.0 AND y >= 0.25 ORDER BY x, y"#,
        true,
    ),
    (
        "dups",
        r#"SELECT x, y, count(*) AS n, sum(v) AS s FROM "{F}/sparse_dups_2d"
           GROUP BY x, y HAVING count(*) > 1 ORDER BY x, y"#,
        true,
    ),
    (
        "join",
        r#"SELECT s.d, s.a, n.n FROM "{F}/sparse_delete" s JOIN "{F}/dense_var_nullable" n
           ON s.d = n.d WHERE n.n IS NOT NULL ORDER BY s.d"#,
        true,
    ),
    (
        "dense_numeric",
        r#"SELECT d, i8, u16, u64, b FROM "{F}/types_numeric" WHERE i8 < 0 OR u16 > 3"#,
        false,
    ),
    (
        "top",
        r#"SELECT r, c, a FROM "{F}/sparse_int_2d" ORDER BY a DESC, r, c LIMIT 3"#,
        true,
    ),
    (
        "count_deleted",
        r#"SELECT count(*) AS n, sum(a) AS s FROM "{F}/sparse_delete""#,
        true,
    ),
];

fn query_text(q: &str) -> String {
    q.replace("{F}", F)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Runs `query` with the arrays it names registered, `partitions` per scan.
fn run(query: &str, partitions: usize) -> Vec<RecordBatch> {
    runtime().block_on(async {
        let ctx = SessionContext::new_with_config(
            SessionConfig::new().with_target_partitions(partitions),
        );
        tiledb_codec_sql::register_tables(&ctx, query, |name| Ok(Arc::new(Array::open(name)?)))
            .unwrap();
        ctx.sql(query)
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"))
            .collect()
            .await
            .unwrap_or_else(|e| panic!("{query}: {e}"))
    })
}

/// Rows as JSON arrays, columns in the batches' order.
fn rows(batches: &[RecordBatch]) -> Vec<Value> {
    let mut out = Vec::new();
    for b in batches {
        let mut buf = Vec::new();
        {
            let mut w = datafusion::arrow::json::LineDelimitedWriter::new(&mut buf);
            w.write(b).unwrap();
            w.finish().unwrap();
        }
        let names: Vec<String> = b
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect();
        for line in String::from_utf8(buf).unwrap().lines() {
            let obj: serde_json::Map<String, Value> = serde_json::from_str(line).unwrap();
            out.push(Value::Array(
                names
                    .iter()
                    .map(|n| obj.get(n).cloned().unwrap_or(Value::Null))
                    .collect(),
            ));
        }
    }
    out
}

/// The rows of the `sql` command's `--format ndjson` output, as JSON
/// arrays of the columns `names`.
fn ndjson_rows(out: &[u8], names: &[&str]) -> Vec<Value> {
    std::str::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            let o: serde_json::Map<String, Value> = serde_json::from_str(l).unwrap();
            Value::Array(names.iter().map(|k| o[*k].clone()).collect())
        })
        .collect()
}

/// Equal as results: numbers within a relative 1e-9 (sums in another
/// order), the rest as `common::same`.
fn close(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            x == y || (x - y).abs() <= 1e-9 * x.abs().max(y.abs())
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| close(a, b))
        }
        _ => common::same(a, b),
    }
}

fn reference(cases: &[&str]) -> serde_json::Map<String, Value> {
    let out = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/sql_reference.py"))
        .arg(common::root().join(F))
        .args(cases)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "sql_reference.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("sql_reference.py prints JSON")
}

#[test]
fn queries_equal_the_engine_read_and_pyarrow() {
    std::env::set_current_dir(common::root()).unwrap();
    let names: Vec<&str> = CASES.iter().map(|c| c.0).collect();
    let expected = reference(&names);
    let mut failures = Vec::new();
    for (name, q, ordered) in CASES {
        let want = expected[*name].as_array().unwrap().clone();
        assert!(
            !want.is_empty() || *name == "none",
            "{name}: the reference has no rows, so the case tests nothing"
        );
        // One partition and several: the slicing must not change the rows.
        for partitions in [1, 3] {
            let got = rows(&run(&query_text(q), partitions));
            failures.extend(differ(
                &format!("{name} ({partitions} partitions)"),
                got,
                want.clone(),
                *ordered,
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `None` when `got` equals `want` (in order when `ordered`), else what
/// differs.
fn differ(what: &str, got: Vec<Value>, want: Vec<Value>, ordered: bool) -> Option<String> {
    let (got, want) = if ordered {
        (got, want)
    } else {
        (common::sorted(got), common::sorted(want))
    };
    let same = got.len() == want.len() && got.iter().zip(&want).all(|(a, b)| close(a, b));
    (!same).then(|| format!("{what}:\n  ours:   {got:?}\n  engine: {want:?}"))
}

fn explain(query: &str) -> String {
    let batches = run(&format!("EXPLAIN {query}"), 2);
    let mut text = String::new();
    for b in &batches {
        let plans = b
            .column(1)
            .as_any()
            .downcast_ref::<datafusion::arrow::array::StringArray>()
            .unwrap();
        for i in 0..b.num_rows() {
            text.push_str(plans.value(i));
            text.push('\n');
        }
    }
    text
}

#[test]
fn explain_shows_ranges_and_conditions_pushed_into_the_scan() {
    std::env::set_current_dir(common::root()).unwrap();
    let plan = explain(&query_text(
        r#"SELECT a FROM "{F}/sparse_int_2d" WHERE r > 10 AND r <= 50 AND a > 5"#,
    ));
    assert!(plan.contains("TileDbScan"), "{plan}");
    assert!(plan.contains("ranges=[r: 11..=50]"), "{plan}");
    assert!(plan.contains(r#"condition="attr(\"a\") > 5""#), "{plan}");
    // Exact pushdowns leave nothing for DataFusion to filter.
    assert!(!plan.contains("FilterExec"), "{plan}");

    // A floating-point attribute is compared by DataFusion (NaN and -0.0
    // order differently in the engine and in Arrow).
    let plan = explain(&query_text(
        r#"SELECT a FROM "{F}/sparse_int_2d" WHERE b < 0.5"#,
    ));
    assert!(plan.contains("FilterExec"), "{plan}");
    assert!(!plan.contains("condition="), "{plan}");

    // A dense array takes ranges, not conditions (they give fill values).
    let plan = explain(&query_text(
        r#"SELECT a FROM "{F}/dense_int_2d" WHERE cols >= 2 AND a > 1"#,
    ));
    assert!(plan.contains("ranges=[cols: 2..=6]"), "{plan}");
    assert!(plan.contains("FilterExec"), "{plan}");
    assert!(!plan.contains("condition="), "{plan}");

    // Only the fields a query uses are read: `cols` is filtered inside the
    // read, so only `a` comes out.
    assert!(plan.contains("projection=[a]"), "{plan}");
}

#[test]
fn the_sql_command_prints_the_same_result() {
    let bin = env!("CARGO_BIN_EXE_tiledb-codec");
    let q = query_text(r#"SELECT r, c, a FROM "{F}/sparse_int_2d" WHERE a > 5 ORDER BY r, c"#);
    let expected = rows(&run(&q, 2));
    let out = Command::new(bin)
        .current_dir(common::root())
        .args(["sql", "--format", "ndjson", &q])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = ndjson_rows(&out.stdout, &["r", "c", "a"]);
    assert_eq!(got, expected);
    assert!(!got.is_empty());

    // The table format prints the values and a row count.
    let out = Command::new(bin)
        .current_dir(common::root())
        .args(["sql", &q])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!("{} rows", expected.len())), "{text}");
    assert!(text.contains("| r "), "{text}");

    // A table that is not an array: exit 1, naming it.
    let out = Command::new(bin)
        .current_dir(common::root())
        .args(["sql", r#"SELECT * FROM "no/such/array""#])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no/such/array"), "{err}");

    // An unquoted path is a syntax error, with a hint.
    let out = Command::new(bin)
        .current_dir(common::root())
        .args([
            "sql",
            "SELECT count(*) FROM tests/fixtures/v22/sparse_int_2d",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(r#"FROM "path/to/array""#), "{err}");
}

/// `sql` only reads unless told where it may write: `COPY ... TO` anywhere,
/// or into an array, is refused and writes nothing; with `--allow-write DIR`
/// it writes under DIR and nowhere else (issue 22).
#[test]
fn the_sql_command_writes_no_file_unless_allowed() {
    let bin = env!("CARGO_BIN_EXE_tiledb-codec");
    let tmp =
        crate::common::temp_root().join(format!("tiledb-codec-sql-copy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(tmp.join("out")).unwrap();
    let array = tmp.join("out/arr");
    std::process::Command::new("cp")
        .arg("-r")
        .arg(common::root().join("tests/fixtures/v22/sparse_int_2d"))
        .arg(&array)
        .status()
        .unwrap();
    let sql = |query: String, allow: Option<&std::path::Path>| {
        let mut cmd = Command::new(bin);
        cmd.args(["sql", "--quiet", &query]);
        if let Some(dir) = allow {
            cmd.arg("--allow-write").arg(dir);
        }
        cmd.output().unwrap()
    };
    let copy = |to: &std::path::Path| {
        format!(
            "COPY (SELECT count(*) AS n FROM \"{}\") TO '{}' STORED AS CSV",
            array.display(),
            to.display()
        )
    };
    let target = tmp.join("out/n.csv");
    let out = sql(copy(&target), None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("--allow-write"),
        "{err}"
    );
    assert!(
        !target.exists(),
        "a refused COPY wrote {}",
        target.display()
    );
    // Into the array's folder, even where writes are allowed: refused.
    let inside = array.join("__meta/n.csv");
    let out = sql(copy(&inside), Some(&tmp));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("array"), "{err}");
    assert!(!inside.exists());
    // Outside the allowed folder: refused.
    let outside = tmp.join("n.csv");
    let out = sql(copy(&outside), Some(&tmp.join("out")));
    assert!(!out.status.success());
    assert!(!outside.exists());
    // Allowed: written, with the array's count.
    let out = sql(copy(&target), Some(&tmp.join("out")));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(&target).unwrap();
    let n = tiledb_codec::Array::open(&array)
        .unwrap()
        .reader()
        .read()
        .unwrap();
    assert!(written.contains(&n.len().to_string()), "{written}");
    // Other writing statements: refused.
    let out = sql("CREATE TABLE t AS SELECT 1".into(), Some(&tmp));
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn an_array_is_a_table_of_every_cell_the_reader_returns() {
    std::env::set_current_dir(common::root()).unwrap();
    // count(*) of every array fixture (each format version) equals the
    // reader's cell count, with one partition and with several: the
    // statistics and the slicing agree with the reader.
    let mut checked = 0;
    for fx in common::fixtures() {
        if fx.kind != "array" || fx.key.is_some() {
            continue;
        }
        let array = Array::open(&fx.path).unwrap_or_else(|e| panic!("{}: {e}", fx.id));
        let Ok(cells) = array.reader().read() else {
            // Reads the reader refuses whole (a dense array too large for
            // one batch) are not tables here.
            continue;
        };
        checked += 1;
        for partitions in [1, 4] {
            let q = format!(r#"SELECT count(*) FROM "{}""#, fx.path.display());
            let b = run(&q, partitions);
            let n = b[0]
                .column(0)
                .as_any()
                .downcast_ref::<datafusion::arrow::array::Int64Array>()
                .unwrap()
                .value(0);
            assert_eq!(
                n as usize,
                cells.len(),
                "{} ({partitions} partitions)",
                fx.id
            );
        }
    }
    assert!(checked > 50, "only {checked} fixtures read");
}

/// The same queries on a Ballista cluster: a scheduler and two executors,
/// each its own `tiledb-codec ballista` process on 127.0.0.1.
#[cfg(feature = "ballista")]
mod on_ballista {
    use super::*;
    use std::net::{TcpListener, TcpStream};
    use std::path::PathBuf;
    use std::process::{Child, Stdio};
    use std::time::{Duration, Instant};

    /// The cluster's processes, killed on drop, and their logs.
    struct Cluster {
        children: Vec<Child>,
        dir: PathBuf,
        scheduler: u16,
    }

    impl Drop for Cluster {
        fn drop(&mut self) {
            for c in &mut self.children {
                let _ = c.kill();
                let _ = c.wait();
            }
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    impl Cluster {
        fn log(&self, name: &str) -> String {
            std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
        }

        fn logs(&self) -> String {
            ["scheduler.log", "executor-0.log", "executor-1.log"]
                .iter()
                .map(|n| format!("--- {n}\n{}", self.log(n)))
                .collect()
        }

        fn spawn(&mut self, log: &str, args: &[String]) {
            let file = std::fs::File::create(self.dir.join(log)).unwrap();
            let child = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
                .current_dir(common::root())
                .arg("ballista")
                .args(args)
                .stdout(Stdio::null())
                .stderr(file)
                .spawn()
                .expect("tiledb-codec starts");
            self.children.push(child);
        }

        /// Waits until `port` takes connections, or fails with the logs.
        fn wait_for(&mut self, port: u16) {
            let start = Instant::now();
            while TcpStream::connect(("127.0.0.1", port)).is_err() {
                for c in &mut self.children {
                    if let Ok(Some(status)) = c.try_wait() {
                        panic!("a cluster process exited ({status}):\n{}", self.logs());
                    }
                }
                assert!(
                    start.elapsed() < Duration::from_secs(120),
                    "nothing listens on {port} after 2 minutes:\n{}",
                    self.logs()
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }

    fn free_port() -> u16 {
        TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    }

    fn start() -> Cluster {
        let dir = crate::common::temp_root()
            .join(format!("tiledb-codec-ballista-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut cluster = Cluster {
            children: Vec::new(),
            dir,
            scheduler: free_port(),
        };
        let at = format!("127.0.0.1:{}", cluster.scheduler);
        cluster.spawn(
            "scheduler.log",
            &["scheduler".into(), "--bind".into(), at.clone()],
        );
        cluster.wait_for(cluster.scheduler);
        for i in 0..2 {
            let (flight, grpc) = (free_port(), free_port());
            let work = cluster.dir.join(format!("work-{i}"));
            std::fs::create_dir_all(&work).unwrap();
            cluster.spawn(
                &format!("executor-{i}.log"),
                &[
                    "executor".into(),
                    "--scheduler".into(),
                    at.clone(),
                    "--bind".into(),
                    format!("127.0.0.1:{flight}"),
                    "--grpc-port".into(),
                    grpc.to_string(),
                    // One task at a time each, so that both take some.
                    "--concurrent-tasks".into(),
                    "1".into(),
                    "--work-dir".into(),
                    work.display().to_string(),
                ],
            );
            cluster.wait_for(flight);
            cluster.wait_for(grpc);
        }
        cluster
    }

    fn run_remote(url: &str, query: &str, partitions: usize) -> Result<Vec<RecordBatch>, String> {
        runtime().block_on(async {
            let open =
                |name: &str| -> Result<Arc<Array>, Box<dyn std::error::Error + Send + Sync>> {
                    Ok(Arc::new(Array::open(name)?))
                };
            let codec = tiledb_codec_sql::ballista::TileDbCodec::new(open);
            let config = SessionConfig::new().with_target_partitions(partitions);
            let ctx = tiledb_codec_sql::ballista::remote_context(url, codec, config)
                .await
                .map_err(|e| e.to_string())?;
            tiledb_codec_sql::register_tables(&ctx, query, open).map_err(|e| e.to_string())?;
            let df = ctx.sql(query).await.map_err(|e| e.to_string())?;
            df.collect().await.map_err(|e| e.to_string())
        })
    }

    #[test]
    fn queries_on_a_scheduler_and_two_executors_equal_the_engine() {
        std::env::set_current_dir(common::root()).unwrap();
        let cluster = start();
        let url = format!("df://127.0.0.1:{}", cluster.scheduler);
        let names: Vec<&str> = CASES.iter().map(|c| c.0).collect();
        let expected = reference(&names);
        let mut failures = Vec::new();
        for (name, q, ordered) in CASES {
            let want = expected[*name].as_array().unwrap().clone();
            assert!(!want.is_empty(), "{name}: the reference has no rows");
            match run_remote(&url, &query_text(q), 4) {
                Ok(b) => failures.extend(differ(
                    &format!("{name} (Ballista)"),
                    rows(&b),
                    want,
                    *ordered,
                )),
                Err(e) => failures.push(format!("{name} (Ballista): {e}")),
            }
        }
        assert!(
            failures.is_empty(),
            "{}\n{}",
            failures.join("\n"),
            cluster.logs()
        );

        // `sql --ballista` prints the same rows as a local query.
        let q = query_text(r#"SELECT r, c, a FROM "{F}/sparse_int_2d" WHERE a > 5 ORDER BY r, c"#);
        let expected = rows(&run(&q, 2));
        let out = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
            .current_dir(common::root())
            .args([
                "sql",
                "--ballista",
                &url,
                "--partitions",
                "4",
                "--format",
                "ndjson",
                &q,
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&out.stderr),
            cluster.logs()
        );
        let got = ndjson_rows(&out.stdout, &["r", "c", "a"]);
        assert!(!got.is_empty());
        assert_eq!(got, expected);

        // The scans ran on the executors, both of them: each opened arrays
        // for its tasks (the scheduler opens them to plan).
        for log in ["scheduler.log", "executor-0.log", "executor-1.log"] {
            assert!(
                cluster.log(log).contains(": opening tests/fixtures/v22/"),
                "{log} opened no array:\n{}",
                cluster.logs()
            );
        }
    }
}
