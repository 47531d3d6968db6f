//! The maintenance commands on every array fixture, through the command
//! line, judged by the engine (TileDB-Py 0.36.1 = TileDB 2.30):
//! - `meta put`: the engine reads the same cells, and the new key;
//! - `evolve --add-attribute`: the engine reads the same cells, each with
//!   the new attribute's fill value (old fragments read through the new
//!   schema);
//! - `delete --where` (sparse arrays): the engine reads the same cells from
//!   our copy as from a copy it deleted from itself with that condition.
//!
//! Consolidation and vacuuming of every fixture are in
//! `tests/it/maintain_fragments.rs` and `tests/it/maintain_meta.rs`.

use crate::write_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use write_support::{common, diff_cells, TempDir};

fn cli(args: &[&str], key: Option<&str>) -> Result<String, String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"));
    cmd.args(args);
    if let Some(k) = key {
        cmd.args(["--encryption-key", k]);
    }
    let out = cmd.output().expect("the binary runs");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Runs the engine on `jobs` in one process: `{"delete": PATH, "cond": C,
/// "key": K}` deletes with the engine's own delete query; `{"cells": PATH,
/// "key": K}` reads every cell (engine_account.py) and the metadata keys.
fn engine(jobs: &[Value]) -> Vec<Value> {
    const SCRIPT: &str = r#"
import io, json, sys, contextlib
sys.path.insert(0, sys.argv[1])
import engine_account, tiledb
for line in open(sys.argv[2]):
    j = json.loads(line)
    k = j.get("key")
    try:
        if "engine_evolve" in j:
            import numpy as np
            se = tiledb.ArraySchemaEvolution()
            se.add_attribute(tiledb.Attr("zz_probe", dtype=np.int32, fill=5))
            se.array_evolve(j["engine_evolve"])
            res = {"ok": True}
        elif "delete" in j:
            cfg = {} if k is None else {"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": k}
            with tiledb.open(j["delete"], "d", ctx=tiledb.Ctx(cfg)) as A:
                A.query(cond=j["cond"]).submit()
            res = {"ok": True}
        else:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = engine_account.main([j["cells"], "--cells", "--indent", "0"] + ([] if k is None else ["--key", k]))
            acc = json.loads(out.getvalue())
            cfg = {} if k is None else {"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": k}
            with tiledb.open(j["cells"], ctx=tiledb.Ctx(cfg)) as A:
                keys = sorted(A.meta.keys())
            res = {"cells": acc["cells"], "meta_keys": keys} if not rc else {"error": "exit %s" % rc}
    except Exception as e:
        res = {"error": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(res) + "\n")
    sys.stdout.flush()
"#;
    let tmp = TempDir::new("maintain-commands-jobs");
    let file = tmp.join("jobs.ndjson");
    let (lines, stderr) = common::engine_batch(jobs, |jobs| {
        let text: String = jobs.iter().map(|j| format!("{j}\n")).collect();
        std::fs::write(&file, text).unwrap();
        Command::new(common::engine_python())
            .arg("-c")
            .arg(SCRIPT)
            .arg(common::root().join("tests/engine"))
            .arg(&file)
            .output()
            .expect("the engine's python runs")
    });
    let res: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(res.len(), jobs.len(), "the engine stopped: {stderr}");
    res
}

fn cells(v: &Value, what: &str) -> Vec<Value> {
    match v.get("cells") {
        Some(c) => c.as_array().cloned().unwrap(),
        None => panic!("{what}: the engine failed: {}", v["error"]),
    }
}

/// The name of the first dimension, as the engine's account names it.
fn first_dimension(path: &Path, key: Option<&str>) -> Option<(String, String)> {
    let out = cli(&["inspect", "--json", path.to_str().unwrap()], key).ok()?;
    let v: Value = serde_json::from_str(&out).ok()?;
    let d = &v["schema"]["dimensions"][0];
    Some((
        d["name"].as_str()?.to_string(),
        d["datatype"].as_str()?.to_string(),
    ))
}

/// `dim('NAME') >= V` for the middle value of the dimension among `cells`,
/// written for both parsers (ours and TileDB-Py's); `None` for datatypes
/// whose literals the two do not share (dates and times).
fn delete_condition(cells: &[Value], dim: &str, datatype: &str) -> Option<String> {
    if datatype.starts_with("DATETIME") || datatype.starts_with("TIME") {
        return None;
    }
    let mut vals: Vec<&Value> = cells.iter().map(|c| &c[dim]).collect();
    vals.sort_by(|a, b| match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x.partial_cmp(&y).unwrap(),
        _ => a.to_string().cmp(&b.to_string()),
    });
    let mid = vals.get(vals.len() / 2)?;
    let lit = match mid {
        Value::Number(n) => n.to_string(),
        Value::String(s) if !s.contains('\'') && !s.contains('\\') && s.is_ascii() => {
            format!("'{s}'")
        }
        _ => return None,
    };
    Some(format!("dim('{dim}') >= {lit}"))
}

/// Fixtures the engine (TileDB 2.30) cannot read after a schema evolution,
/// its own as well as ours: it decodes the v16 fragments' RLE and
/// DICTIONARY string tiles by the rules of the newest schema's format
/// version ("FilterBuffer error; could not read requested byte count").
/// The test checks that the engine's own evolution fails the same way and
/// that our reader reads the evolved array.
const ENGINE_FAILS_AFTER_EVOLUTION: &[&str] = &["v16/filters_strings"];

struct Case {
    id: String,
    key: Option<String>,
    base: PathBuf,
    meta: PathBuf,
    evolved: PathBuf,
    /// (ours, the engine's, the condition).
    delete: Option<(PathBuf, PathBuf, String)>,
}

/// A fixture's copies, changed by our command line (`meta put`,
/// `evolve`, and on a sparse fixture `delete`); `b` is the engine's read of
/// the fixture. What fails goes to `failures`.
fn prepare(tmp: &TempDir, f: &common::Fixture, b: &Value, failures: &mut Vec<String>) -> Case {
    let key = f.key.as_deref();
    let tag = f.id.replace('/', "_");
    let copy = |what: &str| {
        let p = tmp.join(&format!("{tag}_{what}"));
        common::copy_dir(&f.path, &p);
        p
    };
    let meta = copy("meta");
    if let Err(e) = cli(
        &[
            "meta",
            meta.to_str().unwrap(),
            "put",
            "tiledb_codec_probe",
            "7,8",
            "--type",
            "INT32",
        ],
        key,
    ) {
        failures.push(format!("{}: meta put: {e}", f.id));
    }
    let evolved = copy("evolve");
    if let Err(e) = cli(
        &[
            "evolve",
            evolved.to_str().unwrap(),
            "--add-attribute",
            r#"{"name": "zz_probe", "datatype": "INT32", "fill_value": 5}"#,
        ],
        key,
    ) {
        failures.push(format!("{}: evolve: {e}", f.id));
    }
    let mut delete = None;
    if let (Some((dim, dt)), Some(c)) = (first_dimension(&f.path, key), b.get("cells")) {
        let is_sparse = cli(&["inspect", "--json", f.path.to_str().unwrap()], key)
            .ok()
            .and_then(|o| serde_json::from_str::<Value>(&o).ok())
            .is_some_and(|v| v["schema"]["array_type"] == "sparse");
        let cells = c.as_array().unwrap();
        if is_sparse && !cells.is_empty() {
            if let Some(cond) = delete_condition(cells, &dim, &dt) {
                let ours = copy("delete_ours");
                let theirs = copy("delete_engine");
                match cli(&["delete", ours.to_str().unwrap(), "--where", &cond], key) {
                    Ok(_) => {
                        delete = Some((ours, theirs, cond));
                    }
                    Err(e) => failures.push(format!("{}: delete {cond}: {e}", f.id)),
                }
            }
        }
    }
    Case {
        id: f.id.clone(),
        key: f.key.clone(),
        base: f.path.clone(),
        meta,
        evolved,
        delete,
    }
}

/// The engine's jobs: its own deletes and evolutions, then every copy
/// read; with the copies the engine evolves itself (by fixture).
fn engine_jobs(tmp: &TempDir, cases: &[Case]) -> (Vec<Value>, Vec<(String, PathBuf)>) {
    // The engine's own deletes and evolutions, then every copy read.
    let mut jobs = Vec::new();
    let mut engine_evolved = Vec::new();
    for c in cases {
        if ENGINE_FAILS_AFTER_EVOLUTION.contains(&c.id.as_str()) {
            let p = tmp.join(&format!("{}_engine_evolve", c.id.replace('/', "_")));
            common::copy_dir(&c.base, &p);
            jobs.push(json!({"engine_evolve": p}));
            engine_evolved.push((c.id.clone(), p));
        }
    }
    for c in cases {
        if let Some((_, theirs, cond)) = &c.delete {
            jobs.push(json!({"delete": theirs, "cond": cond, "key": c.key}));
        }
    }
    for (_, p) in &engine_evolved {
        jobs.push(json!({"cells": p}));
    }
    for c in cases {
        jobs.push(json!({"cells": c.meta, "key": c.key}));
        jobs.push(json!({"cells": c.evolved, "key": c.key}));
        if let Some((ours, theirs, _)) = &c.delete {
            jobs.push(json!({"cells": ours, "key": c.key}));
            jobs.push(json!({"cells": theirs, "key": c.key}));
        }
    }
    (jobs, engine_evolved)
}

/// Checks the engine's reads of one case's copies, taken from `it` (the
/// fixture as the engine read it first: `b`). What differs goes to
/// `failures`.
fn check_case(
    c: &Case,
    b: &Value,
    it: &mut impl Iterator<Item = Value>,
    failures: &mut Vec<String>,
) {
    let base = cells(b, &format!("{} ({})", c.id, c.base.display()));
    // meta put: same cells, the key is there.
    let m = it.next().unwrap();
    if let Some(d) = diff_cells(cells(&m, &c.id), base.clone()) {
        failures.push(format!("{}: after meta put: {d}", c.id));
    }
    if !m["meta_keys"]
        .as_array()
        .is_some_and(|k| k.contains(&json!("tiledb_codec_probe")))
    {
        failures.push(format!("{}: the engine lacks the key put", c.id));
    }
    // evolve: the same cells, each with the fill value of the new
    // attribute.
    let mut e = it.next().unwrap();
    if ENGINE_FAILS_AFTER_EVOLUTION.contains(&c.id.as_str()) {
        // Our reader instead (the engine fails on its own evolution).
        let out = cli(&["export", c.evolved.to_str().unwrap()], c.key.as_deref()).unwrap();
        let ours: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        e = json!({ "cells": ours });
    }
    match e.get("cells") {
        None => failures.push(format!("{}: after evolve: {}", c.id, e["error"])),
        Some(ev) => {
            let mut stripped = Vec::new();
            for mut cell in ev.as_array().cloned().unwrap() {
                let z = cell.as_object_mut().unwrap().remove("zz_probe");
                if z != Some(json!(5)) {
                    failures.push(format!("{}: after evolve: zz_probe {z:?}", c.id));
                    break;
                }
                stripped.push(cell);
            }
            if let Some(d) = diff_cells(stripped, base.clone()) {
                failures.push(format!("{}: after evolve: {d}", c.id));
            }
        }
    }
    if let Some((_, _, cond)) = &c.delete {
        let ours = it.next().unwrap();
        let theirs = it.next().unwrap();
        match (ours.get("cells"), theirs.get("cells")) {
            (Some(o), Some(t)) => {
                let (o, t) = (
                    o.as_array().cloned().unwrap(),
                    t.as_array().cloned().unwrap(),
                );
                if o.len() >= base.len() {
                    failures.push(format!("{}: {cond} deleted nothing", c.id));
                }
                if let Some(d) = diff_cells(o, t) {
                    failures.push(format!(
                        "{}: delete {cond}, ours vs the engine's: {d}",
                        c.id
                    ));
                }
            }
            _ => failures.push(format!(
                "{}: after delete {cond}: {} / {}",
                c.id, ours["error"], theirs["error"]
            )),
        }
    }
}

#[test]
fn every_command_on_every_fixture_as_the_engine_reads_it() {
    let tmp = TempDir::new("maintain-commands");
    let fixtures: Vec<_> = common::fixtures()
        .into_iter()
        .filter(|f| f.kind == "array")
        .collect();
    // The fixtures as they are, read by the engine first.
    let first: Vec<Value> = fixtures
        .iter()
        .map(|f| json!({"cells": f.path, "key": f.key}))
        .collect();
    let base_cells = engine(&first);
    let mut failures = Vec::new();
    let cases: Vec<Case> = fixtures
        .iter()
        .zip(&base_cells)
        .map(|(f, b)| prepare(&tmp, f, b, &mut failures))
        .collect();
    let deletes = cases.iter().filter(|c| c.delete.is_some()).count();
    let (jobs, engine_evolved) = engine_jobs(&tmp, &cases);
    let res = engine(&jobs);
    let mut it = res.into_iter();
    for (id, _) in &engine_evolved {
        assert_eq!(it.next().unwrap(), json!({"ok": true}), "{id}");
    }
    for c in &cases {
        if c.delete.is_some() {
            let r = it.next().unwrap();
            if r.get("ok").is_none() {
                failures.push(format!("{}: the engine's delete: {}", c.id, r["error"]));
            }
        }
    }
    for (id, _) in &engine_evolved {
        let r = it.next().unwrap();
        assert!(
            r["error"]
                .as_str()
                .is_some_and(|e| e.contains("could not read requested byte count")),
            "{id}: the engine reads its own evolution now: {r}"
        );
    }
    for (c, b) in cases.iter().zip(&base_cells) {
        check_case(c, b, &mut it, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Sparse fixtures are among them: the deletes ran.
    assert!(deletes >= 10, "only {deletes} deletes");
}
