//! Crash safety: a writer stopped after any step of a fragment write leaves
//! no visible partial fragment; the engine and this crate see only the
//! committed fragments. Stopped after `FilesSynced` the fragment is complete
//! but invisible (a commit marker made by hand shows it whole); after
//! `Committed` it is visible. Also with a real crash: a child process that
//! aborts as soon as the writer stops at the step (the writer's fail points,
//! the `fail-points` feature, return an error; the library never aborts).

use crate::write_support;

use std::path::Path;

use serde_json::{json, Value};
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::write::{
    create_array, Column, FailPoint, FragmentWriter, WriteError, WriteOptions,
};
use write_support::{diff_cells, engine_cells, our_cells, TempDir};

fn schema(dense: bool) -> Value {
    json!({
        "array_type": if dense { "dense" } else { "sparse" },
        "capacity": 2,
        "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 99], "tile_extent": 4}],
        "attributes": [
            {"name": "a", "datatype": "INT32", "filters": [{"type": "ZSTD"}]},
            {"name": "s", "datatype": "STRING_ASCII", "cell_val_num": "var", "nullable": true},
        ],
    })
}

fn cells(base: i64, n: i64) -> (Vec<Column>, Vec<Value>) {
    let ds: Vec<i64> = (base..base + n).collect();
    let a: Vec<i32> = ds.iter().map(|d| (*d as i32) * 10).collect();
    let s: Vec<String> = ds.iter().map(|d| "z".repeat(*d as usize % 5)).collect();
    let v: Vec<u8> = ds.iter().map(|d| u8::from(d % 4 != 0)).collect();
    let cols = vec![
        Column::fixed("d", ds.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Column::fixed("a", a.iter().flat_map(|x| x.to_le_bytes()).collect()),
        Column::from_values("s", &s).with_validity(v.clone()),
    ];
    let rows = (0..n as usize)
        .map(|i| {
            json!({"d": ds[i], "a": a[i], "s": if v[i] == 1 { json!(s[i]) } else { Value::Null }})
        })
        .collect();
    (cols, rows)
}

fn start(
    path: &Path,
    dense: bool,
    base: i64,
    n: i64,
    opts: WriteOptions,
) -> Result<FragmentWriter, WriteError> {
    if dense {
        FragmentWriter::dense(path, &[(i128::from(base), i128::from(base + n - 1))], opts)
    } else {
        FragmentWriter::sparse(path, opts)
    }
}

fn write(
    path: &Path,
    dense: bool,
    base: i64,
    n: i64,
    step: Option<FailPoint>,
) -> Result<(), WriteError> {
    let mut opts = WriteOptions::default();
    if let Some(step) = step {
        opts = opts.with_fail_after(step);
    }
    let (mut cols, _) = cells(base, n);
    if dense {
        cols.remove(0);
    }
    let mut w = start(path, dense, base, n, opts)?;
    w.write(&cols)?;
    w.finish().map(|_| ())
}

/// Both readers see exactly `expected`.
fn check_visible(path: &Path, expected: &[Value], what: &str) {
    let engine = engine_cells(path).unwrap_or_else(|e| panic!("{what}: the engine: {e}"));
    if let Some(d) = diff_cells(engine, expected.to_vec()) {
        panic!("{what}: the engine reads {d}");
    }
    let ours = our_cells(path).unwrap_or_else(|e| panic!("{what}: our reader: {e}"));
    if let Some(d) = diff_cells(ours, expected.to_vec()) {
        panic!("{what}: our reader reads {d}");
    }
}

#[test]
fn a_writer_stopped_after_any_step_leaves_only_committed_fragments() {
    let tmp = TempDir::new("write-crash");
    for dense in [true, false] {
        for (k, step) in FailPoint::ALL.into_iter().enumerate() {
            let path = tmp.join(&format!("{}_{k}", if dense { "dense" } else { "sparse" }));
            create_array(&path, &schema(dense)).unwrap();
            write(&path, dense, 0, 10, None).unwrap();
            let (_, first) = cells(0, 10);
            let err = write(&path, dense, 20, 9, Some(step)).unwrap_err();
            assert!(matches!(err, WriteError::Injected(s) if s == step), "{err}");
            let what = format!("dense={dense} stopped after {step:?}");
            let dir = ArrayDirectory::open(&path).unwrap();
            if step == FailPoint::Committed {
                assert_eq!(dir.fragments.len(), 2, "{what}");
                let (_, second) = cells(20, 9);
                let mut all = first.clone();
                all.extend(second);
                if dense {
                    // The dense read covers the union box [0, 28]: unwritten cells are fill values.
                    let fill: Vec<Value> = (10..20)
                        .map(|d| json!({"d": d, "a": i32::MIN, "s": null}))
                        .collect();
                    all.extend(fill);
                }
                check_visible(&path, &all, &what);
            } else {
                assert_eq!(dir.fragments.len(), 1, "{what}");
                assert_eq!(
                    dir.uncommitted.len(),
                    1,
                    "{what}: the partial fragment stays, uncommitted"
                );
                check_visible(&path, &first, &what);
                if step == FailPoint::FilesSynced {
                    // Complete but not committed: committing it by hand shows
                    // it whole (the marker is the only thing missing).
                    let name = dir.uncommitted[0]
                        .file_name()
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    std::fs::write(path.join("__commits").join(format!("{name}.wrt")), b"")
                        .unwrap();
                    let dir = ArrayDirectory::open(&path).unwrap();
                    assert_eq!(dir.fragments.len(), 2, "{what}");
                    let engine = engine_cells(&path).unwrap();
                    assert!(engine.len() >= 19, "{what}: {}", engine.len());
                }
            }
        }
    }
}

#[test]
fn errors_and_drops_clean_up() {
    let tmp = TempDir::new("write-crash-clean");
    let path = tmp.join("a");
    create_array(&path, &schema(true)).unwrap();
    // Too few cells for the rectangle: finish fails, nothing stays.
    let (mut cols, _) = cells(0, 3);
    cols.remove(0);
    let mut w = FragmentWriter::dense(&path, &[(0, 9)], WriteOptions::default()).unwrap();
    w.write(&cols).unwrap();
    let e = w.finish().unwrap_err();
    assert!(
        e.to_string()
            .contains("3 cells for a rectangle of 10 cells"),
        "{e}"
    );
    // Dropped without finishing: nothing stays.
    let w = FragmentWriter::dense(&path, &[(0, 2)], WriteOptions::default()).unwrap();
    drop(w);
    let dir = ArrayDirectory::open(&path).unwrap();
    assert!(dir.fragments.is_empty() && dir.uncommitted.is_empty());
    assert_eq!(
        std::fs::read_dir(path.join("__fragments")).unwrap().count(),
        0
    );
}

/// Run by `a_process_killed_at_any_step_leaves_only_committed_fragments`
/// in a child process, which aborts (no destructors, no unwinding) the
/// moment the writer stops at the step, with the writer still alive.
#[test]
#[ignore]
fn child_writer() {
    let Ok(path) = std::env::var("WRITE_CRASH_ARRAY") else {
        return;
    };
    let dense = std::env::var("WRITE_CRASH_DENSE").as_deref() == Ok("1");
    let step: usize = std::env::var("WRITE_CRASH_STEP").unwrap().parse().unwrap();
    let opts = WriteOptions::default().with_fail_after(FailPoint::ALL[step]);
    fn crash<T>(r: Result<T, WriteError>) -> T {
        match r {
            Err(WriteError::Injected(_)) => std::process::abort(),
            other => other.unwrap(),
        }
    }
    let (mut cols, _) = cells(20, 9);
    if dense {
        cols.remove(0);
    }
    let mut w = crash(start(Path::new(&path), dense, 20, 9, opts));
    crash(w.write(&cols));
    // `finish` takes the writer; once stopped it writes nothing more.
    crash(w.finish());
    // Every step is a fail point: the process aborted before this.
    std::process::exit(0);
}

#[test]
fn a_process_killed_at_any_step_leaves_only_committed_fragments() {
    let tmp = TempDir::new("write-crash-abort");
    let exe = std::env::current_exe().unwrap();
    for dense in [true, false] {
        for (k, step) in FailPoint::ALL.into_iter().enumerate() {
            let path = tmp.join(&format!("{}_{k}", if dense { "dense" } else { "sparse" }));
            create_array(&path, &schema(dense)).unwrap();
            write(&path, dense, 0, 10, None).unwrap();
            let status = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "write_crash::child_writer",
                    "--ignored",
                    "--nocapture",
                    "--test-threads=1",
                ])
                .env("WRITE_CRASH_ARRAY", &path)
                .env("WRITE_CRASH_DENSE", if dense { "1" } else { "0" })
                .env("WRITE_CRASH_STEP", k.to_string())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                assert_eq!(
                    status.signal(),
                    Some(6),
                    "the child should have aborted (SIGABRT) at {step:?}: {status}"
                );
            }
            #[cfg(not(unix))]
            assert!(
                !status.success(),
                "the child should have aborted at {step:?}"
            );
            let dir = ArrayDirectory::open(&path).unwrap();
            let want = if step == FailPoint::Committed { 2 } else { 1 };
            assert_eq!(dir.fragments.len(), want, "dense={dense} {step:?}");
            let engine = engine_cells(&path).unwrap();
            let (_, first) = cells(0, 10);
            if step != FailPoint::Committed {
                assert!(
                    diff_cells(engine, first).is_none(),
                    "dense={dense} {step:?}"
                );
            } else {
                assert!(engine.len() >= 19, "dense={dense} {step:?}");
            }
        }
    }
}
