//! Issue 47, item 2, in an object store: an import loop and an export loop
//! of the binary against an array in S3 (moto) beside rounds of
//! consolidate and vacuum of it, and imports killed at random moments
//! beside them (the faults): no command fails, every export holds the
//! cells of the imports done before it began, the engine reads them all at
//! the end, and what the killed imports left is reclaimed.

use crate::object_store::Moto;

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;

const ROUNDS: usize = 4;

fn cli(moto: &Moto, args: &[&str]) -> Result<String, String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"));
    cmd.args(args);
    moto.env(&mut cmd);
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!("{args:?}: {err}"))
    }
}

fn ds_of(ndjson: &str) -> Vec<i64> {
    let mut v: Vec<i64> = ndjson
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["d"]
                .as_i64()
                .unwrap()
        })
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn imports_and_exports_in_a_store_beside_maintenance_never_fail() {
    race(ROUNDS);
}

/// The soak in S3: the same race for 40 rounds (minutes; `cargo test
/// --test it -- --ignored soak_in_a_store --nocapture` prints its figures,
/// which the README gives).
#[test]
#[ignore]
fn soak_in_a_store_beside_maintenance() {
    race(40);
}

/// An import loop and an export loop beside `rounds` rounds of
/// maintenance, in moto's S3.
fn race(rounds: usize) {
    let moto = Arc::new(Moto::start());
    moto.bucket("races");
    let dir = crate::common::scratch("s3-races");
    let schema = dir.join("schema.json");
    let s = json!({
        "array_type": "sparse",
        "capacity": 50,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": false,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 9_999_999], "tile_extent": 100}
        ],
        "attributes": [{"name": "a", "datatype": "INT64"}]
    });
    std::fs::write(&schema, s.to_string()).unwrap();
    let url = "s3://races/array";
    let done: Arc<Mutex<Vec<i64>>> = Arc::default();
    let failures: Arc<Mutex<Vec<String>>> = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let import = {
        let (moto, schema, dir) = (moto.clone(), schema.clone(), dir.clone());
        move |k: i64| -> Result<Vec<i64>, String> {
            let ds: Vec<i64> = (k * 10..k * 10 + 5).collect();
            let text: String = ds
                .iter()
                .map(|d| format!("{{\"d\":{d},\"a\":{d}}}\n"))
                .collect();
            let cells = dir.join(format!("cells{k}.ndjson"));
            std::fs::write(&cells, text).unwrap();
            let (sch, c) = (schema.to_str().unwrap(), cells.to_str().unwrap());
            cli(&moto, &["import", url, "--schema", sch, "--cells", c]).map(|_| ds)
        }
    };
    for k in 0..3 {
        done.lock().unwrap().extend(import(k).unwrap());
    }
    let writer = {
        let (done, failures, stop, import) =
            (done.clone(), failures.clone(), stop.clone(), import.clone());
        std::thread::spawn(move || {
            let mut k = 100;
            while !stop.load(Ordering::Relaxed) {
                match import(k) {
                    Ok(ds) => done.lock().unwrap().extend(ds),
                    Err(e) => failures.lock().unwrap().push(e),
                }
                k += 1;
            }
            k - 100
        })
    };
    // The faults: imports killed at random moments (their cells may or may
    // not be committed).
    let maybe: Arc<Mutex<Vec<i64>>> = Arc::default();
    let killer = {
        let (moto, schema, dir, done, maybe, stop) = (
            moto.clone(),
            schema.clone(),
            dir.clone(),
            done.clone(),
            maybe.clone(),
            stop.clone(),
        );
        std::thread::spawn(move || {
            let import = |cells: &std::path::Path| {
                let mut c = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"));
                c.arg("import").arg(url).arg("--schema").arg(&schema);
                c.arg("--cells").arg(cells);
                moto.env(&mut c);
                c
            };
            let wait = std::time::Duration::from_millis(300);
            crate::common::faults::killed_imports(
                &dir,
                5_000_000,
                wait,
                &stop,
                (&done, &maybe),
                import,
            )
        })
    };
    let reader = {
        let (moto, done, failures, stop) =
            (moto.clone(), done.clone(), failures.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(Ordering::Relaxed) {
                let before = done.lock().unwrap().clone();
                match cli(&moto, &["export", url]) {
                    Ok(out) => {
                        let got = ds_of(&out);
                        let missing = before
                            .iter()
                            .filter(|d| got.binary_search(d).is_err())
                            .count();
                        if missing > 0 {
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("export: {missing} cells missing"));
                        }
                    }
                    Err(e) => failures.lock().unwrap().push(e),
                }
                n += 1;
            }
            n
        })
    };
    let started = std::time::Instant::now();
    for round in 0..rounds {
        for args in [
            vec!["consolidate", url],
            vec!["vacuum", url],
            vec!["consolidate", url, "--mode", "commits"],
            vec!["vacuum", url, "--mode", "commits"],
        ] {
            if let Err(e) = cli(&moto, &args) {
                failures.lock().unwrap().push(format!("round {round}: {e}"));
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let imports = writer.join().unwrap();
    let exports = reader.join().unwrap();
    let faults = killer.join().unwrap();
    let failures = failures.lock().unwrap().clone();
    eprintln!(
        "{imports} imports, {exports} exports, {rounds} rounds, {faults} imports killed, in {:?}: \
         {} failures",
        started.elapsed(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(faults >= 1, "no import was killed");
    let mut all = done.lock().unwrap().clone();
    all.sort_unstable();
    check_after_race(&moto, url, &all, &maybe.lock().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

/// After the race: every import reported done is read (by the binary and
/// by the engine), and nothing but cells of killed imports besides; once
/// old enough, what the killed imports left is reclaimed and the engine
/// reads the same.
fn check_after_race(moto: &Moto, url: &str, all: &[i64], maybe: &[i64]) {
    let got = ds_of(&cli(moto, &["export", url]).unwrap());
    assert!(
        all.iter().all(|d| got.binary_search(d).is_ok()),
        "cells lost"
    );
    assert!(
        got.iter()
            .all(|d| all.binary_search(d).is_ok() || maybe.contains(d)),
        "cells nobody wrote"
    );
    let engine = || {
        let cells = moto.engine_cells(&[(url.to_string(), None)]);
        let mut ds: Vec<i64> = cells[0]
            .as_ref()
            .unwrap()
            .iter()
            .map(|c| c["d"].as_i64().unwrap())
            .collect();
        ds.sort_unstable();
        ds
    };
    assert_eq!(engine(), got, "the engine");
    // What the killed imports left, reclaimed once old enough: a second
    // vacuum finds nothing more to remove.
    std::thread::sleep(std::time::Duration::from_secs(2));
    cli(moto, &["vacuum", url, "--abandoned-after", "1s"]).unwrap();
    let dry = cli(
        moto,
        &["vacuum", "--dry-run", url, "--abandoned-after", "1s"],
    )
    .unwrap();
    assert!(dry.trim().is_empty(), "left after vacuum: {dry}");
    assert_eq!(engine(), got, "the engine after reclaiming");
}
