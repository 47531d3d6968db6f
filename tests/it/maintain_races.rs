//! Issue 47, item 2: reads and writes immune to maintenance. Readers and
//! writers (the `tiledb-codec` binary's import, export and SQL provider,
//! and the library) run in loops beside a loop of consolidations and
//! vacuums of every mode, for a fixed number of rounds: no read or write fails, and every read holds every cell of
//! the writes reported done before it began. Beside them, imports are
//! killed at random moments (the faults): none of that breaks a read, and
//! once aged and vacuumed nothing they left stays. An `Array` opened
//! before the maintenance reads every cell and the metadata after it.

use crate::common;
use common::scratch;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

const BIN: &str = env!("CARGO_BIN_EXE_tiledb-codec");

/// Maintenance rounds of the race.
const ROUNDS: usize = 10;

fn write_schema(dir: &Path) -> PathBuf {
    let schema = json!({
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
    let p = dir.join("schema.json");
    std::fs::write(&p, schema.to_string()).unwrap();
    p
}

/// Runs the binary; `Err` with its standard error when it fails.
fn run(args: &[&std::ffi::OsStr]) -> Result<Vec<u8>, String> {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!("{args:?}: {err}"))
    }
}

/// Imports cells `d` in `ds` (with `a = d`) through the binary.
fn import(array: &Path, schema: &Path, cells: &Path, ds: &[i64]) -> Result<(), String> {
    let text: String = ds
        .iter()
        .map(|d| format!("{{\"d\":{d},\"a\":{d}}}\n"))
        .collect();
    std::fs::write(cells, text).unwrap();
    run(&[
        "import".as_ref(),
        array.as_os_str(),
        "--schema".as_ref(),
        schema.as_os_str(),
        "--cells".as_ref(),
        cells.as_os_str(),
    ])
    .map(|_| ())
}

/// The `d` of every cell `export` prints, sorted.
fn export(array: &Path) -> Result<Vec<i64>, String> {
    let out = run(&["export".as_ref(), array.as_os_str()])?;
    let mut ds: Vec<i64> = String::from_utf8_lossy(&out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["d"], v["a"], "{l}");
            v["d"].as_i64().unwrap()
        })
        .collect();
    ds.sort_unstable();
    Ok(ds)
}

/// The `d` of every cell the SQL provider reads (the binary's `sql`),
/// sorted.
fn sql_read(array: &Path) -> Result<Vec<i64>, String> {
    let q = format!("SELECT d, a FROM \"{}\"", array.display());
    let out = run(&[
        "sql".as_ref(),
        "-q".as_ref(),
        "--format".as_ref(),
        "csv".as_ref(),
        q.as_ref(),
    ])?;
    let mut ds = Vec::new();
    for l in String::from_utf8_lossy(&out)
        .lines()
        .filter(|l| *l != "d,a")
    {
        let (d, a) = l.split_once(',').ok_or_else(|| format!("sql: {l:?}"))?;
        if d != a {
            return Err(format!("sql: d {d} with a {a}"));
        }
        ds.push(d.parse::<i64>().map_err(|e| format!("sql: {l:?}: {e}"))?);
    }
    ds.sort_unstable();
    Ok(ds)
}

/// Writes cells `d` in `ds` (with `a = d`) through the SQL provider
/// (`INSERT INTO`).
fn sql_insert(array: &Path, ds: &[i64]) -> Result<(), String> {
    let values: Vec<String> = ds.iter().map(|d| format!("({d}, {d})")).collect();
    let q = format!(
        "INSERT INTO \"{}\" VALUES {}",
        array.display(),
        values.join(", ")
    );
    run(&["sql".as_ref(), "-q".as_ref(), q.as_ref()]).map(|_| ())
}

/// The `d` of every cell our library reads, sorted.
fn library_read(array: &Path) -> Result<Vec<i64>, String> {
    let reader = ArrayReader::open(array, &ReadOptions::default()).map_err(|e| e.to_string())?;
    let c = reader.read(&Query::new()).map_err(|e| e.to_string())?;
    let col = c.column("d").unwrap();
    let mut ds: Vec<i64> = (0..c.len)
        .map(|i| i64::from_le_bytes(col.get(i).unwrap().try_into().unwrap()))
        .collect();
    ds.sort_unstable();
    Ok(ds)
}

/// Checks a read: no cell twice, every cell of `before` (the writes done
/// before it began) there.
fn complete(what: &str, got: &[i64], before: &[i64]) -> Result<(), String> {
    if got.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!("{what}: a cell read twice"));
    }
    let missing: Vec<i64> = before
        .iter()
        .filter(|d| got.binary_search(d).is_err())
        .copied()
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "{what}: {} of {} committed cells missing (first {})",
            missing.len(),
            before.len(),
            missing[0]
        ));
    }
    Ok(())
}

/// One maintenance round: consolidate and vacuum every mode.
fn maintain(array: &Path) -> Result<(), String> {
    for mode in ["fragments", "commits", "fragment_meta", "array_meta"] {
        for cmd in ["consolidate", "vacuum"] {
            run(&[
                cmd.as_ref(),
                array.as_os_str(),
                "--mode".as_ref(),
                mode.as_ref(),
            ])?;
        }
    }
    Ok(())
}

/// The cells of batch `k` of writer `w`.
fn batch(w: i64, k: i64) -> Vec<i64> {
    (0..5).map(|i| w * 1_000_000 + k * 10 + i).collect()
}

/// After the race: every cell reported written is read, by us and by the
/// engine, and nothing else but cells of killed imports; once aged and
/// vacuumed, no uncommitted work is left and the cells stay.
fn check_after_race(array: &Path, done: &[i64], maybe: &[i64]) {
    maintain(array).unwrap();
    let got = library_read(array).unwrap();
    complete("the final read", &got, done).unwrap();
    let stray: Vec<&i64> = got
        .iter()
        .filter(|d| done.binary_search(d).is_err() && !maybe.contains(d))
        .collect();
    assert!(stray.is_empty(), "cells nobody wrote: {stray:?}");
    let engine = || {
        let mut v: Vec<i64> = common::engine_cells(array, None)
            .iter()
            .map(|c| c["d"].as_i64().unwrap())
            .collect();
        v.sort_unstable();
        v
    };
    assert_eq!(engine(), got, "the engine's cells");
    let aged = Command::new("find")
        .arg(array)
        .args(["-exec", "touch", "-h", "-d", "2 hours ago", "{}", "+"])
        .status()
        .unwrap();
    assert!(aged.success());
    run(&["vacuum".as_ref(), array.as_os_str()]).unwrap();
    let d = tiledb_codec::raw::array::ArrayDirectory::open(array).unwrap();
    assert!(d.uncommitted.is_empty(), "left: {:?}", d.uncommitted);
    assert_eq!(engine(), got, "the engine's cells after reclaiming");
}

#[test]
fn readers_and_writers_beside_consolidate_and_vacuum_never_fail() {
    race(ROUNDS);
}

/// The soak: the same race for 150 rounds (minutes; `cargo test --test it
/// -- --ignored soak_beside_maintenance --nocapture` prints its figures,
/// which the README gives).
#[test]
#[ignore]
fn soak_beside_maintenance() {
    race(150);
}

/// Writers and readers in loops beside `rounds` rounds of maintenance.
fn race(rounds: usize) {
    let dir = scratch("races");
    let schema = write_schema(&dir);
    let array = dir.join("array");
    let done: Arc<Mutex<Vec<i64>>> = Arc::default();
    for k in 0..4 {
        let ds = batch(9, k);
        import(&array, &schema, &dir.join(format!("seed{k}.ndjson")), &ds).unwrap();
        done.lock().unwrap().extend(ds);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let failures: Arc<Mutex<Vec<String>>> = Arc::default();
    let counts: Arc<Mutex<[usize; 3]>> = Arc::default();
    let maybe: Arc<Mutex<Vec<i64>>> = Arc::default();
    let killer = {
        let (dir, array, schema, stop, done, maybe) = (
            dir.clone(),
            array.clone(),
            schema.clone(),
            stop.clone(),
            done.clone(),
            maybe.clone(),
        );
        std::thread::spawn(move || {
            let import = |cells: &Path| {
                let mut c = Command::new(BIN);
                c.arg("import").arg(&array).arg("--schema").arg(&schema);
                c.arg("--cells").arg(cells);
                c
            };
            let wait = std::time::Duration::from_millis(40);
            common::faults::killed_imports(&dir, 7_000_000, wait, &stop, (&done, &maybe), import)
        })
    };
    let mut handles = Vec::new();
    // Three writers: two import through the binary, one inserts through
    // the SQL provider.
    for w in 0..3i64 {
        let (array, schema, done, stop, failures, counts) = (
            array.clone(),
            schema.clone(),
            done.clone(),
            stop.clone(),
            failures.clone(),
            counts.clone(),
        );
        let cells = dir.join(format!("writer{w}.ndjson"));
        handles.push(std::thread::spawn(move || {
            let mut k = 0;
            while !stop.load(Ordering::Relaxed) {
                let ds = batch(w, k);
                let wrote = if w == 2 {
                    sql_insert(&array, &ds)
                } else {
                    import(&array, &schema, &cells, &ds)
                };
                match wrote {
                    Ok(()) => done.lock().unwrap().extend(ds),
                    Err(e) => failures.lock().unwrap().push(e),
                }
                counts.lock().unwrap()[0] += 1;
                k += 1;
            }
        }));
    }
    // Three readers: the binary's export, the library, the SQL provider.
    for r in 0..3 {
        let (array, done, stop, failures, counts) = (
            array.clone(),
            done.clone(),
            stop.clone(),
            failures.clone(),
            counts.clone(),
        );
        handles.push(std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let mut before = done.lock().unwrap().clone();
                before.sort_unstable();
                let (what, got) = match r {
                    0 => ("export", export(&array)),
                    1 => ("library read", library_read(&array)),
                    _ => ("sql", sql_read(&array)),
                };
                let checked = got.and_then(|g| complete(what, &g, &before));
                if let Err(e) = checked {
                    failures.lock().unwrap().push(e);
                }
                counts.lock().unwrap()[1] += 1;
            }
        }));
    }
    let started = std::time::Instant::now();
    for round in 0..rounds {
        if let Err(e) = maintain(&array) {
            failures.lock().unwrap().push(format!("round {round}: {e}"));
        }
        counts.lock().unwrap()[2] += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for h in handles {
        h.join().unwrap();
    }
    let faults = killer.join().unwrap();
    let failures = failures.lock().unwrap().clone();
    let [writes, reads, rounds] = *counts.lock().unwrap();
    eprintln!(
        "{writes} writes, {reads} reads, {rounds} maintenance rounds, {faults} imports killed, \
         in {:?}: {} failures",
        started.elapsed(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures: {failures:#?}",
        failures.len()
    );
    assert!(writes >= 4 && reads >= 4, "{writes} writes, {reads} reads");
    assert!(faults >= 1, "no import was killed");
    let mut all = done.lock().unwrap().clone();
    all.sort_unstable();
    check_after_race(&array, &all, &maybe.lock().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_array_opened_before_maintenance_reads_everything_after_it() {
    let dir = scratch("races-open");
    let schema = write_schema(&dir);
    let array = dir.join("array");
    let mut all = Vec::new();
    for k in 0..6 {
        let ds = batch(1, k);
        import(&array, &schema, &dir.join("cells.ndjson"), &ds).unwrap();
        all.extend(ds);
        let key = format!("k{k}");
        run(&[
            "meta".as_ref(),
            array.as_os_str(),
            "put".as_ref(),
            key.as_ref(),
            k.to_string().as_ref(),
            "--type".as_ref(),
            "INT64".as_ref(),
        ])
        .unwrap();
    }
    all.sort_unstable();
    let opened = tiledb_codec::Array::open(&array).unwrap();
    let reader = ArrayReader::open(&array, &ReadOptions::default()).unwrap();
    let meta_before = opened.metadata().unwrap();
    assert_eq!(meta_before.len(), 6);
    maintain(&array).unwrap();
    // Every fragment and metadata file the handles listed is gone.
    for f in &reader.fragments {
        assert!(!f.path.exists(), "{} not vacuumed", f.path.display());
    }
    let c = reader.read(&Query::new()).unwrap();
    assert_eq!(c.len, all.len(), "the reader opened before");
    let batch = opened.reader().read().unwrap();
    let mut ds = batch.column::<i64>("d").unwrap().to_vec();
    ds.sort_unstable();
    assert_eq!(ds, all, "the Array opened before");
    assert_eq!(opened.metadata().unwrap(), meta_before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine's own behaviour, recorded: its array opened before a
/// consolidation and vacuum fails to read after them (the files its
/// fragments named are gone), where ours reads every cell.
#[test]
fn the_engine_fails_a_read_opened_before_a_vacuum() {
    let dir = scratch("races-engine");
    let schema = write_schema(&dir);
    let array = dir.join("array");
    for k in 0..4 {
        import(&array, &schema, &dir.join("cells.ndjson"), &batch(2, k)).unwrap();
    }
    let out = common::engine_run("open_across_vacuum.py", [array.as_os_str()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    eprintln!("the engine: {v}");
    assert_eq!(v["ok"], false, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The cells of `cells` as NDJSON lines.
fn lines(cells: &tiledb_codec::raw::read::Cells) -> Vec<u8> {
    let mut out = Vec::new();
    tiledb_codec::raw::read::export::write_ndjson(cells, &mut out).unwrap();
    out
}

/// A read in batches begun before a consolidation and vacuum and finished
/// after them hands out every cell, as a read made whole before.
#[test]
fn batches_begun_before_maintenance_finish_after_it() {
    use tiledb_codec::maintain::{self, ConsolidateOptions, Mode, VacuumOptions};
    let dir = scratch("races-batches");
    for name in ["dense_int_2d", "dense_var_nullable", "sparse_int_2d"] {
        let array = dir.join(name);
        common::copy_dir(
            &common::root().join("tests/fixtures/v22").join(name),
            &array,
        );
        let reader = ArrayReader::open(&array, &ReadOptions::default()).unwrap();
        let whole = lines(&reader.read(&Query::new()).unwrap());
        let q = {
            let mut lit = Query::new();
            lit.batch_cells = Some(2);
            lit
        };
        if name == "dense_int_2d" {
            // Whole into buffers, after a consolidation and vacuum of a
            // copy opened before them.
            let copy = dir.join(format!("{name}-into"));
            common::copy_dir(&array, &copy);
            let early = ArrayReader::open(&copy, &ReadOptions::default()).unwrap();
            maintain::consolidate(&copy, Mode::Fragments, &ConsolidateOptions::default()).unwrap();
            maintain::vacuum(&copy, Mode::Fragments, &VacuumOptions::default()).unwrap();
            let attr = String::from_utf8_lossy(&early.schema.attributes[0].name).into_owned();
            let mut buf = vec![0u8; 1 << 16];
            let mut sinks = [tiledb_codec::raw::read::Sink::new(attr, &mut buf)];
            let n = early
                .read_into(&Query::new(), &mut sinks)
                .unwrap_or_else(|e| panic!("{name}: read_into: {e}"));
            assert_eq!(n, reader.read(&Query::new()).unwrap().len, "{name}");
        }
        let mut batches = reader.batches(&q).unwrap();
        let mut got = lines(&batches.next().unwrap().unwrap());
        maintain::consolidate(&array, Mode::Fragments, &ConsolidateOptions::default()).unwrap();
        maintain::vacuum(&array, Mode::Fragments, &VacuumOptions::default()).unwrap();
        assert!(
            reader.fragments.iter().any(|f| !f.path.exists()),
            "{name}: nothing vacuumed"
        );
        for b in batches {
            got.extend(lines(&b.unwrap_or_else(|e| panic!("{name}: {e}"))));
        }
        assert_eq!(
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&whole),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
