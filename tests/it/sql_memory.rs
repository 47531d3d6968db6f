//! Issue 24, item 4: the `sql` command streams its result and runs within
//! `--memory-limit`: a cross join whose CSV is more than ten times the
//! limit completes, the command's peak resident memory far below it; a
//! sort spills to disk and gives the unbounded sort's answer; a query that
//! cannot run within the limit fails saying so.

#![cfg(feature = "datafusion")]

use crate::common;
use common::scratch;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};

/// A sparse array of `n` cells: `d` 0..n, `a` = 7 d.
fn array(dir: &Path, n: i64) -> String {
    let path = dir.join("cells");
    let schema = SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0i64..=99_999)
                .tile_extent(1000i64),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int64))
        .build()
        .unwrap();
    let array = Array::create(&path, &schema).unwrap();
    let d: Vec<i64> = (0..n).collect();
    let a: Vec<i64> = d.iter().map(|v| v * 7).collect();
    array
        .write()
        .column("d", &d)
        .column("a", &a)
        .commit()
        .unwrap();
    path.to_str().unwrap().to_string()
}

/// The peak resident memory (VmHWM) of process `pid` in bytes, while it
/// runs (Linux); None once it has exited.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// What a streamed run gave: bytes and lines of standard output, its
/// first two lines, the peak resident memory seen after the first 16 MiB
/// of output and at the end.
struct Streamed {
    bytes: u64,
    lines: u64,
    head: String,
    early_peak: u64,
    peak: u64,
}

/// Runs `tiledb-codec sql` with `args`, counting its output as it comes
/// (nothing kept) and sampling its peak memory from /proc as it runs.
fn streamed(args: &[&str]) -> Streamed {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .arg("sql")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let mut out = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 20];
    let (mut bytes, mut lines, mut head) = (0u64, 0u64, Vec::new());
    let (mut early_peak, mut peak, mut sampled_at) = (0u64, 0u64, 0u64);
    loop {
        let n = out.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        if head.len() < 200 {
            head.extend_from_slice(&buf[..n.min(200)]);
        }
        bytes += n as u64;
        lines += buf[..n].iter().filter(|b| **b == b'\n').count() as u64;
        if bytes - sampled_at >= 4 << 20 {
            sampled_at = bytes;
            if let Some(p) = peak_rss(pid) {
                if early_peak == 0 && bytes >= 16 << 20 {
                    early_peak = p;
                }
                peak = peak.max(p);
            }
        }
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "sql {args:?}: {err}");
    let head = String::from_utf8_lossy(&head);
    Streamed {
        bytes,
        lines,
        head: head.lines().take(2).collect::<Vec<_>>().join("\n"),
        early_peak,
        peak,
    }
}

const MIB: u64 = 1 << 20;

#[test]
fn a_cross_join_ten_times_the_memory_limit_streams_out() {
    let dir = scratch("sql-memory");
    let n = 4500u64;
    let p = array(&dir, n as i64);
    let limit = 32 * MIB;
    let q = format!(r#"SELECT x.d, x.a, y.d AS d2, y.a AS a2 FROM "{p}" x CROSS JOIN "{p}" y"#);
    let got = streamed(&[
        "-q",
        "--memory-limit",
        "32M",
        "--partitions",
        "2",
        "--format",
        "csv",
        &q,
    ]);
    assert_eq!(got.lines, n * n + 1, "every row and the header");
    assert!(got.head.starts_with("d,a,d2,a2\n"), "{}", got.head);
    assert!(
        got.bytes >= 10 * limit,
        "the output ({} MiB) is ten times the limit",
        got.bytes / MIB
    );
    assert!(got.early_peak > 0, "the peak was sampled while it ran");
    // Memory does not grow with the output: what the command holds once
    // rows flow (its code, the runtime, the join's first side) stays, far
    // below the result's size.
    assert!(
        got.peak < got.bytes / 4,
        "peak RSS {} MiB for {} MiB of output",
        got.peak / MIB,
        got.bytes / MIB
    );
    assert!(
        got.peak - got.early_peak < limit,
        "peak RSS grew from {} MiB to {} MiB while {} MiB streamed out",
        got.early_peak / MIB,
        got.peak / MIB,
        got.bytes / MIB
    );
}

#[test]
fn a_sort_spills_within_the_limit_and_a_query_that_cannot_fits_fails_clearly() {
    let dir = scratch("sql-memory-sort");
    let p = array(&dir, 3000);
    // 750,000 rows sorted: 23 MB in DataFusion's batches, more than the
    // 32 MiB pool leaves the sorts once each of 2 partitions has kept back
    // the 10 MB it merges with.
    let q = format!(
        r#"SELECT x.d, y.d AS d2, x.a + y.a AS s FROM "{p}" x CROSS JOIN "{p}" y
           WHERE y.d < 250 ORDER BY s DESC, x.d, y.d"#
    );
    let run = |limit: &str, script: &str| {
        common::cli(&[
            "sql",
            "-q",
            "--partitions",
            "2",
            "--memory-limit",
            limit,
            "--format",
            "csv",
            script,
        ])
    };
    let out = run("32M", &format!("EXPLAIN ANALYZE {q}; {q}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (plan, rows) = text
        .split_once("\nd,d2,s\n")
        .expect("the plan, then the rows");
    let spills: u64 = plan
        .split("spill_count=")
        .skip(1)
        .map(|t| t.split(|c: char| !c.is_ascii_digit()).next().unwrap())
        .map(|n| n.parse::<u64>().unwrap())
        .sum();
    assert!(spills > 0, "the sort spilled: {plan}");
    // The spilled sort's order is the sort's.
    let mut want: Vec<(i64, i64, i64)> = (0..3000)
        .flat_map(|x| (0..250).map(move |y| (x, y, 7 * (x + y))))
        .collect();
    want.sort_by_key(|&(x, y, s)| (std::cmp::Reverse(s), x, y));
    let want: String = want
        .iter()
        .map(|(x, y, s)| format!("{x},{y},{s}\n"))
        .collect();
    assert!(rows == want, "the rows differ from the sort's");

    // Too little for the sorts' merges, which cannot spill: an error that
    // names the limit, no crash.
    let failed = run("1M", &q);
    assert!(!failed.status.success());
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(err.contains("Resources exhausted"), "{err}");
    assert!(
        err.contains("more memory than --memory-limit gives it (1.0 MiB)"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // Sizes that are no size are refused before anything runs.
    let out = common::cli(&["sql", "--memory-limit", "lots", "SELECT 1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"lots\" is no size"), "{err}");
}
