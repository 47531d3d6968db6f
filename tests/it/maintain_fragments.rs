//! Fragment consolidation and vacuuming (`tiledb_codec::maintain::fragments`),
//! judged by the engine: after consolidating, and after vacuuming, the
//! engine reads the same cells as before, and its fragment info shows the
//! new fragment (the merged ones as to-vacuum, then gone). Fail points stop
//! a consolidation or vacuum at each step: the engine still reads the same
//! cells. Two consolidations at once neither lose nor double cells.

use crate::write_support;

use std::path::{Path, PathBuf};

use serde_json::Value;
use tiledb_codec::maintain::fail_points::{
    consolidate_fragments_failing, vacuum_fragments_failing,
};
use tiledb_codec::maintain::{
    consolidate_fragments, vacuum_fragments, ConsolidateOptions, TimeRange, VacuumOptions,
};
use tiledb_codec::raw::write::{MaintenanceStep as Step, WriteError};
use write_support::{common, diff_cells, key_bytes, our_cells_key, TempDir};

/// What the engine sees of an array: its cells, its fragments and the
/// fragments it lists as to be vacuumed (names).
#[derive(Debug)]
struct Seen {
    cells: Vec<Value>,
    fragments: Vec<String>,
    to_vacuum: Vec<String>,
}

/// The engine's view of many arrays, in one Python process.
fn engine_many(arrays: &[(PathBuf, Option<String>)]) -> Vec<Result<Seen, String>> {
    const SCRIPT: &str = r#"
import io, json, os, sys, contextlib
sys.path.insert(0, sys.argv[1])
import tiledb
import engine_account
args = sys.argv[2:]
for p, k in zip(args[0::2], args[1::2]):
    try:
        cfg = {} if k == "-" else {"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": k}
        ctx = tiledb.Ctx(tiledb.Config(cfg))
        with tiledb.open(p, "r", ctx=ctx) as A:
            cells = engine_account.cells_account(A)
        fi = tiledb.FragmentInfoList(p, ctx=ctx)
        names = [os.path.basename(u.rstrip("/")) for u in fi.uri]
        vac = [os.path.basename(u.rstrip("/")) for u in fi.to_vacuum]
        res = {"cells": cells, "fragments": names, "to_vacuum": vac}
    except Exception as e:
        res = {"error": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(res, allow_nan=True) + "\n")
    sys.stdout.flush()
"#;
    let (lines, stderr) = common::engine_batch(arrays, |arrays| {
        let mut cmd = std::process::Command::new(common::engine_python());
        cmd.arg("-c")
            .arg(SCRIPT)
            .arg(common::root().join("tests/engine"));
        for (p, k) in arrays {
            cmd.arg(p).arg(k.as_deref().unwrap_or("-"));
        }
        cmd.output().expect("the engine's python runs")
    });
    let mut res: Vec<Result<Seen, String>> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
            if let Some(e) = v.get("error") {
                return Err(e.as_str().unwrap_or("?").to_string());
            }
            let names = |k: &str| -> Vec<String> {
                let mut n: Vec<String> = v[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_str().unwrap().to_string())
                    .collect();
                n.sort();
                n
            };
            Ok(Seen {
                cells: v["cells"].as_array().cloned().unwrap_or_default(),
                fragments: names("fragments"),
                to_vacuum: names("to_vacuum"),
            })
        })
        .collect();
    while res.len() < arrays.len() {
        res.push(Err(format!("the engine stopped: {stderr}")));
    }
    res
}

fn name_of(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

fn copy(from: &Path, to: &Path) -> PathBuf {
    common::copy_dir(from, to);
    to.to_path_buf()
}

fn opts(key: Option<&str>) -> ConsolidateOptions {
    {
        let mut lit = ConsolidateOptions::default();
        lit.encryption_key = key.map(key_bytes);
        lit.memory_budget = 2 << 20;
        lit
    }
}

/// One array checked through consolidation and vacuum.
struct Case {
    label: String,
    key: Option<String>,
    before: PathBuf,
    consolidated: PathBuf,
    vacuumed: PathBuf,
    /// Fragments merged and the new one (empty: nothing to do).
    merged: Vec<String>,
    new: Option<String>,
}

/// Copies `array` three times: as is, consolidated, consolidated and
/// vacuumed (with `range`).
fn prepare(tmp: &TempDir, label: &str, array: &Path, key: Option<&str>, range: TimeRange) -> Case {
    let tag = label.replace('/', "_");
    let before = copy(array, &tmp.join(&format!("{tag}_before")));
    let consolidated = copy(array, &tmp.join(&format!("{tag}_cons")));
    let vacuumed = copy(array, &tmp.join(&format!("{tag}_vac")));
    let mut o = opts(key);
    o.timestamp = range;
    let r1 = consolidate_fragments(&consolidated, &o)
        .unwrap_or_else(|e| panic!("{label}: consolidate: {e}"));
    let r2 = consolidate_fragments(&vacuumed, &o).unwrap();
    assert_eq!(r1.written.is_some(), r2.written.is_some(), "{label}");
    assert_eq!(r1.consolidated.len(), r2.consolidated.len(), "{label}");
    let v = vacuum_fragments(&vacuumed, &VacuumOptions::default()).unwrap();
    if r2.written.is_some() {
        // Every merged folder goes, and the `.vac` file last.
        assert!(r2.consolidated.iter().all(|p| !p.exists()), "{label}");
        assert!(
            v.removed
                .last()
                .unwrap()
                .to_string_lossy()
                .ends_with(".vac"),
            "{label}: {:?}",
            v.removed
        );
    } else if !has_vacuum_file(array) {
        // Nothing merged, and no earlier consolidation (the engine's
        // `consolidated_fragments` fixtures keep their `.vac`): nothing goes.
        assert!(v.removed.is_empty(), "{label}: {:?}", v.removed);
    }
    Case {
        label: label.to_string(),
        key: key.map(str::to_string),
        before,
        consolidated,
        vacuumed,
        merged: r1.consolidated.iter().map(|p| name_of(p)).collect(),
        new: r1.written.as_deref().map(name_of),
    }
}

/// The engine's and our checks of prepared cases; panics listing every
/// case that fails.
fn check(cases: &[Case]) {
    let mut arrays = Vec::new();
    for c in cases {
        for p in [&c.before, &c.consolidated, &c.vacuumed] {
            arrays.push((p.clone(), c.key.clone()));
        }
    }
    let seen = engine_many(&arrays);
    let mut failures = Vec::new();
    for (c, s) in cases.iter().zip(seen.chunks(3)) {
        let (before, cons, vac) = match (&s[0], &s[1], &s[2]) {
            (Ok(x), Ok(y), Ok(z)) => (x, y, z),
            (x, y, z) => {
                failures.push(format!(
                    "{}: the engine failed: {:?} / {:?} / {:?}",
                    c.label,
                    x.as_ref().err(),
                    y.as_ref().err(),
                    z.as_ref().err()
                ));
                continue;
            }
        };
        for (what, after) in [("consolidated", cons), ("vacuumed", vac)] {
            if let Some(d) = diff_cells(before.cells.clone(), after.cells.clone()) {
                failures.push(format!(
                    "{} {what}: the engine's cells differ: {d}",
                    c.label
                ));
            }
        }
        // Our reader reads what the engine reads.
        for p in [&c.consolidated, &c.vacuumed] {
            match our_cells_key(p, c.key.as_deref()) {
                Ok(ours) => {
                    if let Some(d) = diff_cells(before.cells.clone(), ours) {
                        failures.push(format!("{}: our cells differ: {d}", c.label));
                    }
                }
                Err(e) => failures.push(format!("{}: our read: {e}", c.label)),
            }
        }
        // Fragment info.
        let mut expect_after: Vec<String> = before
            .fragments
            .iter()
            .filter(|f| !c.merged.contains(f))
            .cloned()
            .chain(c.new.clone())
            .collect();
        expect_after.sort();
        let mut merged = c.merged.clone();
        merged.sort();
        let mut all = before.fragments.clone();
        all.extend(c.new.clone());
        all.sort();
        if c.new.is_some() {
            if cons.fragments != expect_after && cons.fragments != all {
                failures.push(format!(
                    "{}: fragments after consolidating: {:?}",
                    c.label, cons.fragments
                ));
            }
            let mut want_vac = before.to_vacuum.clone();
            want_vac.extend(merged.clone());
            want_vac.sort();
            want_vac.dedup();
            if cons.to_vacuum != want_vac {
                failures.push(format!(
                    "{}: to vacuum {:?}, expected {:?}",
                    c.label, cons.to_vacuum, want_vac
                ));
            }
            // The vacuumed copy was consolidated on its own: its new
            // fragment has another uuid.
            if no_uuid(&vac.fragments) != no_uuid(&expect_after) || !vac.to_vacuum.is_empty() {
                failures.push(format!(
                    "{}: after vacuum {:?} (to vacuum {:?}), expected {:?}",
                    c.label, vac.fragments, vac.to_vacuum, expect_after
                ));
            }
        } else if cons.fragments != before.fragments {
            failures.push(format!(
                "{}: nothing to do, yet the fragments changed",
                c.label
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fixtures_consolidate_and_vacuum() {
    let tmp = TempDir::new("consol_fixtures");
    let mut cases = Vec::new();
    let mut merged_some = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let c = prepare(&tmp, &f.id, &f.path, f.key.as_deref(), TimeRange::ALL);
        if c.new.is_some() {
            merged_some += 1;
        }
        cases.push(c);
    }
    assert!(merged_some > 20, "only {merged_some} fixtures consolidated");
    check(&cases);
}

/// Arrays the engine writes here: overwrites, duplicates, deletes, dense
/// holes.
/// Fragment names without their uuids: `__t1_t2_v`.
fn no_uuid(names: &[String]) -> Vec<String> {
    names
        .iter()
        .map(|n| {
            let p: Vec<&str> = n.split('_').collect();
            if p.len() == 6 {
                format!("__{}_{}_{}", p[2], p[3], p[5])
            } else {
                n.clone()
            }
        })
        .collect()
}

/// Whether the array holds a fragment vacuum file (`__commits/*.vac`).
fn has_vacuum_file(array: &Path) -> bool {
    std::fs::read_dir(array.join("__commits")).is_ok_and(|rd| {
        rd.filter_map(|e| e.ok())
            .any(|e| e.file_name().to_string_lossy().ends_with(".vac"))
    })
}

fn engine_arrays(dir: &Path) {
    const SCRIPT: &str = r#"
import sys, numpy as np, tiledb
base = sys.argv[1]
def dense(name, frags):
    uri = base + "/" + name
    dom = tiledb.Domain(tiledb.Dim("r", domain=(1, 8), tile=4, dtype=np.int32),
                        tiledb.Dim("c", domain=(1, 8), tile=4, dtype=np.int32))
    s = tiledb.ArraySchema(domain=dom, sparse=False,
        attrs=[tiledb.Attr("a", dtype=np.int32, fill=-7),
               tiledb.Attr("s", dtype=str, var=True)])
    tiledb.Array.create(uri, s)
    for t, (r0, r1, c0, c1, v) in enumerate(frags, start=1):
        with tiledb.open(uri, "w", timestamp=t) as A:
            n = (r1 - r0 + 1) * (c1 - c0 + 1)
            a = np.arange(n, dtype=np.int32) + v
            s = np.array(["v%d" % x for x in a], dtype=object)
            A[r0:r1 + 1, c0:c1 + 1] = {"a": a.reshape(r1 - r0 + 1, c1 - c0 + 1),
                                       "s": s.reshape(r1 - r0 + 1, c1 - c0 + 1)}
# An older fragment everywhere, then two small ones far apart: their union
# rectangle has holes over the older fragment's cells.
dense("dense_holes", [(1, 8, 1, 8, 0), (1, 2, 1, 2, 100), (7, 8, 6, 8, 200), (3, 4, 3, 4, 300)])
def sparse(name, dups, frags, deletes=()):
    uri = base + "/" + name
    dom = tiledb.Domain(tiledb.Dim("x", domain=(0, 99), tile=10, dtype=np.int64),
                        tiledb.Dim("y", domain=(0, 99), tile=10, dtype=np.int64))
    s = tiledb.ArraySchema(domain=dom, sparse=True, allows_duplicates=dups, capacity=3,
        attrs=[tiledb.Attr("a", dtype=np.int32),
               tiledb.Attr("s", dtype=str, var=True)])
    tiledb.Array.create(uri, s)
    t = 0
    for xs, ys, v in frags:
        t += 1
        with tiledb.open(uri, "w", timestamp=t) as A:
            a = np.arange(len(xs), dtype=np.int32) + v
            A[np.array(xs), np.array(ys)] = {"a": a, "s": np.array(["s%d" % x for x in a], dtype=object)}
        for (at, cond) in deletes:
            if at == t:
                t += 1
                with tiledb.open(uri, "d", timestamp=t) as A:
                    A.query(cond=cond).submit()
xs1, ys1 = list(range(0, 40)), [i * 2 % 100 for i in range(40)]
xs2, ys2 = list(range(20, 50)), [i * 2 % 100 for i in range(20, 50)]
xs3, ys3 = [5, 6, 60, 61], [10, 10, 7, 8]
sparse("sparse_overwrite", False, [(xs1, ys1, 0), (xs2, ys2, 1000), (xs3, ys3, 2000)])
sparse("sparse_dups", True, [(xs1, ys1, 0), (xs2, ys2, 1000), (xs3, ys3, 2000)])
sparse("sparse_deletes", False, [(xs1, ys1, 0), (xs2, ys2, 1000), (xs3, ys3, 2000), (xs1[:10], ys1[:10], 3000)],
       deletes=[(2, "a < 1010"), (4, "a > 3005")])
sparse("sparse_dups_deletes", True, [(xs1, ys1, 0), (xs2, ys2, 1000), (xs3, ys3, 2000)],
       deletes=[(1, "a < 5")])
"#;
    let out = std::process::Command::new(common::engine_python())
        .arg("-c")
        .arg(SCRIPT)
        .arg(dir)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn engine_written_arrays() {
    let tmp = TempDir::new("consol_engine");
    let src = tmp.join("src");
    std::fs::create_dir_all(&src).unwrap();
    engine_arrays(&src);
    let mut cases = Vec::new();
    for name in [
        "dense_holes",
        "sparse_overwrite",
        "sparse_dups",
        "sparse_deletes",
        "sparse_dups_deletes",
    ] {
        let c = prepare(&tmp, name, &src.join(name), None, TimeRange::ALL);
        assert!(c.new.is_some(), "{name}: nothing consolidated");
        cases.push(c);
    }
    // The time range: the dense fragments 2 and 3 only (their union
    // rectangle covers cells of fragment 1, outside the range, that no
    // merged fragment wrote), then 3 and 4.
    for (label, range, n) in [
        ("dense_holes_2_3", TimeRange::new(2, 3), 2),
        ("dense_holes_3_4", TimeRange::new(3, 4), 2),
    ] {
        let c = prepare(&tmp, label, &src.join("dense_holes"), None, range);
        assert_eq!(c.merged.len(), n, "{label}");
        cases.push(c);
    }
    // sparse_deletes: fragments at 1 and 2, a delete at 3, a fragment at 4,
    // a delete at 5, a fragment at 6: merged across the deletes into one,
    // as the engine merges them (the cells keep their timestamps and the
    // times of their deletes).
    let d = &cases[3];
    assert_eq!(d.merged.len(), 4, "sparse_deletes: {:?}", d.merged);
    check(&cases);
}

fn sparse_no_dups_fixture() -> PathBuf {
    common::root().join("tests/fixtures/v22/sparse_int_2d")
}

fn dense_fixture() -> PathBuf {
    common::root().join("tests/fixtures/v22/dense_int_2d")
}

fn dups_fixture() -> PathBuf {
    common::root().join("tests/fixtures/v22/sparse_dups_2d")
}

fn is_stopped(e: &WriteError) -> bool {
    matches!(e, WriteError::Stopped(_))
}

#[test]
fn fail_points_leave_the_same_cells() {
    let tmp = TempDir::new("consol_fail");
    let mut arrays: Vec<(PathBuf, Option<String>)> = Vec::new();
    let mut labels = Vec::new();
    let sources = [
        ("sparse", sparse_no_dups_fixture()),
        ("dense", dense_fixture()),
        ("dups", dups_fixture()),
    ];
    for (label, src) in &sources {
        arrays.push((src.clone(), None));
        labels.push(format!("{label} original"));
        for step in Step::CONSOLIDATE {
            let p = copy(src, &tmp.join(&format!("{label}_c_{step:?}")));
            let e = consolidate_fragments_failing(&p, &opts(None), step).unwrap_err();
            assert!(is_stopped(&e), "{label} {step:?}: {e}");
            if *label == "dups" && step == Step::Committed {
                // Committed, no `.vac` yet: an array with duplicates shows
                // the merged cells twice (so does the engine's own
                // consolidation in that window) until the next vacuum or
                // consolidation finishes the job.
                let r = vacuum_fragments(&p, &VacuumOptions::default()).unwrap();
                assert!(!r.removed.is_empty());
            }
            arrays.push((p.clone(), None));
            labels.push(format!("{label} consolidation stopped after {step:?}"));
            // Then consolidating and vacuuming again completes the work.
            let p2 = copy(&p, &tmp.join(&format!("{label}_c_{step:?}_again")));
            consolidate_fragments(&p2, &opts(None)).unwrap();
            vacuum_fragments(&p2, &VacuumOptions::default()).unwrap();
            assert_eq!(
                tiledb_codec::Array::open(&p2).unwrap().fragments().len(),
                1,
                "{label} {step:?}: one fragment in the end"
            );
            assert!(!p2.join("__commits").read_dir().unwrap().any(|e| e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".tmp")));
            arrays.push((p2, None));
            labels.push(format!(
                "{label} after {step:?}, consolidated again and vacuumed"
            ));
        }
        for step in Step::VACUUM {
            let p = copy(src, &tmp.join(&format!("{label}_v_{step:?}")));
            consolidate_fragments(&p, &opts(None)).unwrap();
            let e = vacuum_fragments_failing(&p, &VacuumOptions::default(), step).unwrap_err();
            assert!(is_stopped(&e), "{label} {step:?}: {e}");
            arrays.push((p.clone(), None));
            labels.push(format!("{label} vacuum stopped after {step:?}"));
        }
    }
    let seen = engine_many(&arrays);
    let mut failures = Vec::new();
    let mut base: Option<&Seen> = None;
    for ((label, s), (p, _)) in labels.iter().zip(&seen).zip(&arrays) {
        let s = match s {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{label}: the engine: {e}"));
                continue;
            }
        };
        if label.ends_with("original") {
            base = Some(s);
            continue;
        }
        let b = base.expect("the original comes first");
        if let Some(d) = diff_cells(b.cells.clone(), s.cells.clone()) {
            failures.push(format!("{label}: the engine's cells differ: {d}"));
        }
        match our_cells_key(p, None) {
            Ok(ours) => {
                if let Some(d) = diff_cells(b.cells.clone(), ours) {
                    failures.push(format!("{label}: our cells differ: {d}"));
                }
            }
            Err(e) => failures.push(format!("{label}: our read: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn concurrent_consolidations_neither_lose_nor_double_cells() {
    let tmp = TempDir::new("consol_concurrent");
    let mut arrays = Vec::new();
    for (label, src) in [
        ("dups", dups_fixture()),
        ("sparse", sparse_no_dups_fixture()),
    ] {
        let p = copy(&src, &tmp.join(label));
        let threads: Vec<_> = (0..3)
            .map(|_| {
                let p = p.clone();
                std::thread::spawn(move || consolidate_fragments(&p, &opts(None)).unwrap())
            })
            .collect();
        let reports: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
        let written = reports.iter().filter(|r| r.written.is_some()).count();
        assert_eq!(written, 1, "{label}: {reports:?}");
        vacuum_fragments(&p, &VacuumOptions::default()).unwrap();
        arrays.push((src, None));
        arrays.push((p, None));
    }
    let seen = engine_many(&arrays);
    for pair in seen.chunks(2) {
        let (a, b) = (pair[0].as_ref().unwrap(), pair[1].as_ref().unwrap());
        assert_eq!(b.fragments.len(), 1);
        assert_eq!(diff_cells(a.cells.clone(), b.cells.clone()), None);
    }
}

#[test]
fn vacuum_dry_run_removes_nothing() {
    let tmp = TempDir::new("consol_dry");
    let p = copy(&sparse_no_dups_fixture(), &tmp.join("a"));
    let r = consolidate_fragments(&p, &opts(None)).unwrap();
    assert_eq!(r.consolidated.len(), 3);
    let dry = vacuum_fragments(&p, &{
        let mut lit = VacuumOptions::default();
        lit.dry_run = true;
        lit
    })
    .unwrap();
    assert_eq!(dry.removed.len(), 7);
    assert!(dry.removed.iter().all(|p| p.exists()));
    let real = vacuum_fragments(&p, &VacuumOptions::default()).unwrap();
    assert_eq!(real.removed, dry.removed);
    assert!(real.removed.iter().all(|p| !p.exists()));
    // Commit markers first, then folders, then the `.vac` file.
    assert!(real.removed[0].to_string_lossy().ends_with(".wrt"));
    assert!(real.removed[6].to_string_lossy().ends_with(".vac"));
    // A second consolidation has nothing to merge.
    assert!(consolidate_fragments(&p, &opts(None))
        .unwrap()
        .written
        .is_none());
}
