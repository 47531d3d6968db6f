//! Consolidation and vacuuming of fragment metadata, commits and array (and
//! group) metadata, judged by the engine (TileDB-Py, `TILEDB_PYTHON`).
//!
//! On every fixture and on arrays and a group the engine writes here (many
//! fragments, deletes, metadata puts and deletes, one encrypted), for each
//! mode: after our consolidation and after our vacuum the engine reads the
//! same cells, metadata and fragments (its fragment info) as before, and so
//! does our reader; the files are those the engine's own consolidation and
//! vacuum leave (names' uuids aside), with the same decoded contents. The
//! engine is shown to use our `.meta` files: it still reads every array
//! after the fragments' own footers are cut off. Every step of every
//! operation is interrupted (fail points) and the engine reads the same.
//!
//! Engine work is batched: one Python process makes the arrays and runs the
//! engine's consolidations, one more reads every result.

use crate::write_support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;
use tiledb_codec::maintain::{
    consolidate_array_meta, consolidate_commits, consolidate_fragment_meta, fail_points,
    vacuum_array_meta, vacuum_commits, vacuum_fragment_meta, ConsolidateOptions, ConsolidateReport,
    VacuumOptions, VacuumReport,
};
use tiledb_codec::raw::array::metadata::read_array_metadata;
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::read_generic_tile;
use tiledb_codec::raw::write::{WriteError, WriteResult};
use write_support::{common, key_bytes, our_cells_key, read_options, same, sorted, TempDir};

const KEY: &str = "0123456789abcdeF0123456789abcdeF";
const MODES: [&str; 3] = ["fragment_meta", "commits", "array_meta"];

/// Runs engine tasks (tests/engine/maintain_meta.py) in one process; one
/// result per task.
fn engine_tasks(dir: &Path, tasks: &[Value]) -> Vec<Result<Value, String>> {
    let (lines, stderr) = common::engine_batch(tasks, |tasks| {
        let file = dir.join(format!("tasks-{}.json", tasks.len()));
        std::fs::write(&file, serde_json::to_vec(tasks).unwrap()).unwrap();
        std::process::Command::new(common::engine_python())
            .arg(common::root().join("tests/engine/maintain_meta.py"))
            .arg(&file)
            .output()
            .expect("the engine's python runs")
    });
    let mut res: Vec<Result<Value, String>> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
            match v.get("ok") {
                Some(x) => Ok(x.clone()),
                None => Err(v["error"].as_str().unwrap_or("?").to_string()),
            }
        })
        .collect();
    assert_eq!(res.len(), tasks.len(), "the engine stopped: {stderr}");
    res.truncate(tasks.len());
    res
}

fn cons_opts(key: Option<&str>) -> ConsolidateOptions {
    {
        let mut lit = ConsolidateOptions::default();
        lit.encryption_key = key.map(key_bytes);
        lit
    }
}

fn consolidate(
    mode: &str,
    path: &Path,
    key: Option<&str>,
) -> tiledb_codec::Result<ConsolidateReport> {
    let o = cons_opts(key);
    match mode {
        "fragment_meta" => consolidate_fragment_meta(path, &o),
        "commits" => consolidate_commits(path, &o),
        _ => consolidate_array_meta(path, &o),
    }
}

fn consolidate_stopping(
    mode: &str,
    path: &Path,
    key: Option<&str>,
    step: u32,
) -> WriteResult<ConsolidateReport> {
    let o = cons_opts(key);
    match mode {
        "fragment_meta" => fail_points::consolidate_fragment_meta_stopping_after(path, &o, step),
        "commits" => fail_points::consolidate_commits_stopping_after(path, &o, step),
        _ => fail_points::consolidate_array_meta_stopping_after(path, &o, step),
    }
}

fn vacuum(mode: &str, path: &Path) -> tiledb_codec::Result<VacuumReport> {
    let o = VacuumOptions::default();
    match mode {
        "fragment_meta" => vacuum_fragment_meta(path, &o),
        "commits" => vacuum_commits(path, &o),
        _ => vacuum_array_meta(path, &o),
    }
}

fn vacuum_stopping(mode: &str, path: &Path, step: u32) -> WriteResult<VacuumReport> {
    let o = VacuumOptions::default();
    match mode {
        "fragment_meta" => fail_points::vacuum_fragment_meta_stopping_after(path, &o, step),
        "commits" => fail_points::vacuum_commits_stopping_after(path, &o, step),
        _ => fail_points::vacuum_array_meta_stopping_after(path, &o, step),
    }
}

/// One array or group the test works on.
#[derive(Clone)]
struct Case {
    id: String,
    path: PathBuf,
    key: Option<String>,
    group: bool,
}

/// What our reader reads of a case: its cells, and the rest as text.
type OurRead = (Vec<Value>, String);

/// What our reader sees: cells (as JSON, sorted) and metadata.
fn ours(c: &Case, path: &Path) -> Result<OurRead, String> {
    let opts = read_options(c.key.as_deref());
    let dir = ArrayDirectory::open(path).map_err(|e| e.to_string())?;
    let md = read_array_metadata(&dir, &opts).map_err(|e| e.to_string())?;
    let md = format!("{md:?}");
    if c.group {
        return Ok((Vec::new(), md));
    }
    let cells = our_cells_key(path, c.key.as_deref())?;
    Ok((sorted(cells), md))
}

/// The engine's account without what consolidation may change: the schema
/// stays, cells are compared as multisets.
fn comparable(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(cells) = v.get_mut("cells") {
        let c = cells.as_array().cloned().unwrap_or_default();
        *cells = Value::Array(sorted(c));
    }
    v
}

/// Relative paths of every file under `root`, uuids blanked, with the file.
fn files(root: &Path) -> BTreeMap<String, PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(blank_uuids(&rel), p);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// `s` with every run of 32 hex digits replaced by `U`.
fn blank_uuids(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if i + 32 <= b.len() && b[i..i + 32].iter().all(u8::is_ascii_hexdigit) {
            out.push('U');
            i += 32;
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// A file's contents as compared: the unfiltered data of a generic tile
/// (metadata files, `.meta` files), else its bytes; the folder's own path
/// replaced (absolute URIs of groups' vacuum files).
fn contents(root: &Path, rel: &str, p: &Path, key: Option<&str>) -> Vec<u8> {
    let tile = rel.starts_with("__meta/") && !rel.ends_with(".vac") || rel.ends_with(".meta");
    let bytes = if tile {
        let f = MappedFile::open(p).unwrap();
        read_generic_tile(&f, 0, &read_options(key))
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            .data
            .into_owned()
    } else {
        std::fs::read(p).unwrap()
    };
    // Absolute URIs name the copy the file was written in (its siblings).
    let base = std::path::absolute(root).unwrap();
    let base = base.parent().unwrap();
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    let mut changed = false;
    for sib in ["ours_con", "ours", "engine_con", "engine_vac"] {
        let needle = base.join(sib).to_string_lossy().into_owned();
        if text.contains(&needle) {
            text = text.replace(&needle, "ROOT");
            changed = true;
        }
    }
    if changed {
        blank_uuids(&text).into_bytes()
    } else {
        bytes
    }
}

/// Our result against the engine's: the same files, the same contents.
fn same_files(ours: &Path, engine: &Path, key: Option<&str>) -> Result<(), String> {
    let a = files(ours);
    let b = files(engine);
    let ka: BTreeSet<_> = a.keys().collect();
    let kb: BTreeSet<_> = b.keys().collect();
    if ka != kb {
        return Err(format!(
            "files differ: only ours {:?}, only the engine's {:?}",
            ka.difference(&kb).collect::<Vec<_>>(),
            kb.difference(&ka).collect::<Vec<_>>()
        ));
    }
    for (rel, pa) in &a {
        let pb = &b[rel];
        if contents(ours, rel, pa, key) != contents(engine, rel, pb, key) {
            return Err(format!("{rel}: the contents differ"));
        }
    }
    Ok(())
}

/// Cuts each fragment's own footer (and its length) off its
/// `__fragment_metadata.tdb`: only a `.meta` file can then give it.
fn cut_footers(array: &Path) -> usize {
    let mut n = 0;
    for sub in ["__fragments", ""] {
        let Ok(rd) = std::fs::read_dir(array.join(sub)) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path().join("__fragment_metadata.tdb");
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            let len = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap()) as usize;
            std::fs::write(&p, &bytes[..bytes.len() - 8 - len]).unwrap();
            n += 1;
        }
    }
    n
}

/// A state to be read by the engine and compared with its case's baseline.
struct Check {
    case: usize,
    path: PathBuf,
    what: String,
}

/// The arrays and group the engine makes here (their tasks pushed on
/// `tasks`), then the fixtures: the cases, and how many were made.
fn all_cases(tmp: &TempDir, tasks: &mut Vec<Value>) -> (Vec<Case>, usize) {
    let mut cases: Vec<Case> = Vec::new();
    for (kind, key, group) in [
        ("sparse", None, false),
        ("encrypted", Some(KEY), false),
        ("dense", None, false),
        ("group", None, true),
    ] {
        let path = tmp.join(&format!("made_{kind}"));
        tasks.push(serde_json::json!({"op": "make", "kind": kind, "path": path}));
        cases.push(Case {
            id: format!("made/{kind}"),
            path,
            key: key.map(str::to_string),
            group,
        });
    }
    let made = cases.len();
    // Every fixture of the newest version, and those of older versions that
    // hold consolidated files already (the engine's runs are what takes
    // the time).
    for f in common::fixtures().into_iter().filter(|f| {
        f.id.starts_with("v22/") || f.id.contains("consolidated") || f.id.contains("metadata")
    }) {
        cases.push(Case {
            id: f.id.clone(),
            path: f.path.clone(),
            key: f.key.clone(),
            group: f.kind == "group",
        });
    }
    (cases, made)
}

/// One engine consolidation and vacuum of a case: the case, the mode, the
/// folder of the run, and the engine's consolidated and vacuumed copies.
type EngineRun = (usize, &'static str, PathBuf, PathBuf, PathBuf);

/// The engine's own consolidation and vacuum of each case, each mode (their
/// tasks pushed on `tasks`).
fn engine_runs(tmp: &TempDir, cases: &[Case], tasks: &mut Vec<Value>) -> Vec<EngineRun> {
    let mut engine_runs = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        for mode in MODES {
            if c.group && mode != "array_meta" {
                continue;
            }
            let base = tmp.join(&format!("{}-{mode}", c.id.replace('/', "_")));
            let (con, vac) = (base.join("engine_con"), base.join("engine_vac"));
            std::fs::create_dir_all(&base).unwrap();
            tasks.push(
                serde_json::json!({"op": "engine", "mode": mode, "src": c.path,
                "con": con, "vac": vac, "key": c.key, "group": c.group}),
            );
            engine_runs.push((i, mode, base, con, vac));
        }
    }
    engine_runs
}

/// What the checks found: the states for the engine to read, and the
/// failures so far.
#[derive(Default)]
struct Found {
    checks: Vec<Check>,
    failures: Vec<String>,
}

/// Ours, in one engine run's mode, on a copy of its case; compared with
/// the engine's files. Whether it wrote a `.meta` file.
fn ours_as_the_engine(
    run: &EngineRun,
    cases: &[Case],
    our_base: &[OurRead],
    found: &mut Found,
) -> bool {
    let (i, mode, base, engine_con, engine_vac) = run;
    let (checks, failures) = (&mut found.checks, &mut found.failures);
    let c = &cases[*i];
    let key = c.key.as_deref();
    let work = base.join("ours");
    common::copy_dir(&c.path, &work);
    let rep = match consolidate(mode, &work, key) {
        Ok(r) => r,
        Err(e) => {
            failures.push(format!("{} {mode}: consolidate: {e}", c.id));
            return false;
        }
    };
    let con = base.join("ours_con");
    common::copy_dir(&work, &con);
    if let Err(e) = vacuum(mode, &work) {
        failures.push(format!("{} {mode}: vacuum: {e}", c.id));
        return false;
    }
    for (p, e, what) in [
        (&con, engine_con, "consolidated"),
        (&work, engine_vac, "vacuumed"),
    ] {
        if let Err(d) = same_files(p, e, key) {
            failures.push(format!("{} {mode} {what}: against the engine: {d}", c.id));
        }
        match ours(c, p) {
            Ok(o) if o == our_base[*i] => {}
            Ok(_) => failures.push(format!(
                "{} {mode} {what}: our reader reads otherwise",
                c.id
            )),
            Err(e) => failures.push(format!("{} {mode} {what}: our reader: {e}", c.id)),
        }
        checks.push(Check {
            case: *i,
            path: p.clone(),
            what: format!("{mode} {what}"),
        });
    }
    // The engine reads the footers from our `.meta` file.
    if *mode == "fragment_meta" && rep.written.is_some() {
        let cut = base.join("ours_cut");
        common::copy_dir(&con, &cut);
        assert!(cut_footers(&cut) >= 2);
        match ours(c, &cut) {
            Ok(o) if o == our_base[*i] => {}
            Ok(_) => failures.push(format!(
                "{}: our reader reads otherwise without footers",
                c.id
            )),
            Err(e) => failures.push(format!("{}: our reader without footers: {e}", c.id)),
        }
        checks.push(Check {
            case: *i,
            path: cut,
            what: "fragment_meta, fragments' footers cut off".into(),
        });
        return true;
    }
    false
}

/// Every step of every operation interrupted, on the arrays made here
/// (the first `made` cases).
fn interrupted(
    tmp: &TempDir,
    cases: &[Case],
    made: usize,
    our_base: &[OurRead],
    found: &mut Found,
) {
    let (checks, failures) = (&mut found.checks, &mut found.failures);
    for (i, c) in cases.iter().enumerate().take(made) {
        for mode in MODES {
            if c.group && mode != "array_meta" {
                continue;
            }
            let key = c.key.as_deref();
            let base = tmp.join(&format!("crash-{}-{mode}", c.id.replace('/', "_")));
            let consolidated = base.join("consolidated");
            common::copy_dir(&c.path, &consolidated);
            consolidate(mode, &consolidated, key).unwrap();
            for (op, from) in [("consolidate", &c.path), ("vacuum", &consolidated)] {
                for step in 1.. {
                    let p = base.join(format!("{op}-{step}"));
                    common::copy_dir(from, &p);
                    let r = match op {
                        "consolidate" => consolidate_stopping(mode, &p, key, step).map(|_| ()),
                        _ => vacuum_stopping(mode, &p, step).map(|_| ()),
                    };
                    match r {
                        Err(WriteError::InjectedStep { .. }) => {}
                        Ok(()) => break,
                        Err(e) => panic!("{} {mode} {op} step {step}: {e}", c.id),
                    }
                    match ours(c, &p) {
                        Ok(o) if o == our_base[i] => {}
                        other => failures.push(format!(
                            "{} {mode} {op} stopped after step {step}: our reader: {:?}",
                            c.id,
                            other.map(|_| "reads otherwise")
                        )),
                    }
                    checks.push(Check {
                        case: i,
                        path: p,
                        what: format!("{mode} {op} stopped after step {step}"),
                    });
                    assert!(step < 50);
                }
            }
        }
    }
}

#[test]
fn consolidate_and_vacuum_meta_as_the_engine() {
    let tmp = TempDir::new("maintain-meta");
    let mut tasks: Vec<Value> = Vec::new();
    let (cases, made) = all_cases(&tmp, &mut tasks);
    let engine_runs = engine_runs(&tmp, &cases, &mut tasks);
    for c in &cases {
        tasks.push(serde_json::json!({"op": "account", "path": c.path, "key": c.key}));
    }
    let res = engine_tasks(&tmp.0, &tasks);
    for (t, r) in tasks.iter().zip(&res) {
        if t["op"] != "account" {
            if let Err(e) = r {
                panic!("engine task {t}: {e}");
            }
        }
    }
    let baselines: Vec<Value> = res[res.len() - cases.len()..]
        .iter()
        .zip(&cases)
        .map(|(r, c)| comparable(r.as_ref().unwrap_or_else(|e| panic!("{}: {e}", c.id))))
        .collect();
    let our_base: Vec<_> = cases
        .iter()
        .map(|c| ours(c, &c.path).unwrap_or_else(|e| panic!("our reader on {}: {e}", c.id)))
        .collect();

    // Ours, each mode, on a copy; compared with the engine's files.
    let mut found = Found::default();
    let wrote_meta = engine_runs
        .iter()
        .filter(|run| ours_as_the_engine(run, &cases, &our_base, &mut found))
        .count();
    assert!(wrote_meta >= 10, "only {wrote_meta} .meta files written");

    interrupted(&tmp, &cases, made, &our_base, &mut found);
    let Found {
        checks,
        mut failures,
    } = found;

    // The engine reads every state as it read the original.
    let tasks: Vec<Value> = checks
        .iter()
        .map(|k| serde_json::json!({"op": "account", "path": k.path, "key": cases[k.case].key}))
        .collect();
    let res = engine_tasks(&tmp.0, &tasks);
    for (k, r) in checks.iter().zip(res) {
        let c = &cases[k.case];
        match r {
            Ok(v) if same(&comparable(&v), &baselines[k.case]) => {}
            Ok(_) => failures.push(format!("{} {}: the engine reads otherwise", c.id, k.what)),
            Err(e) => failures.push(format!("{} {}: the engine: {e}", c.id, k.what)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
