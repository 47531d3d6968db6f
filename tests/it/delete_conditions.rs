//! Delete conditions judged by the engine (TileDB-Py 0.36.1,
//! tests/engine/engine_delete_conditions.py) on the kinds of fields whose
//! comparison rules are easy to get wrong: a fixed-size `CHAR` field (the
//! engine compares the first char only), a single `CHAR`, nullable numbers
//! and strings (a null cell satisfies no comparison, so a delete removes
//! it), the empty string, var-sized UTF-8 strings, an enumeration with
//! string labels, a datetime, floats with NaNs, a string dimension, and an
//! attribute that older fragments lack (added by a schema evolution).
//!
//! For each condition the engine deletes on one copy of a base array; our
//! reader must read that copy as the engine does. Our own delete
//! (`maintain::delete_cells`) of the same condition on another copy must be
//! read alike by both.

use crate::write_support;

use std::path::PathBuf;

use serde_json::{json, Value};
use tiledb_codec::maintain::{delete_cells, DeleteOptions};
use tiledb_codec::raw::read::QueryCondition;
use write_support::{common, diff_cells, engine_cells_many, our_cells};

const CASES: &[(&str, &str)] = &[
    // Fixed-size CHAR (3 chars): the first char decides.
    ("base_nodups", "c3 == 'abx'"),
    ("base_dups", "c3 != 'bqq'"),
    ("base_nodups", "c3 < 'b' or c3 > 'x'"),
    ("base_dups", "c3 in [b'abc', b'xyz']"),
    // A single CHAR.
    ("base_nodups", "c1 >= 'c'"),
    // Nullable fields, and the empty string of a nullable one.
    ("base_dups", "n > 4"),
    ("base_nodups", "n != 2 and ns == 'kiwi'"),
    ("base_nodups", "ns == ''"),
    ("base_dups", "ns < 'c' or n == 0"),
    // Var-sized UTF-8 strings.
    ("base_nodups", "s >= 'date'"),
    ("base_dups", "s not in ['apple', '', 'fig']"),
    // An enumeration with string labels.
    ("base_nodups", "e == 'banana'"),
    ("base_dups", "e != 'cherry' and c1 == 'a'"),
    // A datetime (days), floats with NaNs.
    ("base_nodups", "t < 5"),
    ("base_dups", "f > 0.5"),
    ("base_nodups", "f <= 0.25 or t >= 8"),
    // A string dimension.
    ("base_nodups", "k < 'k2' and x > 10"),
    // An attribute the first two fragments lack.
    ("base_evolved", "late < 5"),
    ("base_evolved", "late >= 3 and n == 3"),
    ("base_evolved", "n == 3 and late < 5"),
];

/// Runs the engine's setup; its error (or none) for each case.
fn engine_setup(root: &std::path::Path, cases: &Value) -> Vec<Option<String>> {
    let spec = root.join("cases.json");
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(&spec, cases.to_string()).unwrap();
    let out = std::process::Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/engine_delete_conditions.py"))
        .arg("setup")
        .arg(root)
        .arg(&spec)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "engine_delete_conditions.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a JSON line");
            v["error"].as_str().map(str::to_string)
        })
        .collect()
}

#[test]
fn deletes_on_every_kind_of_field_read_as_the_engine_reads_them() {
    let root = common::scratch("delete-conditions");
    let mut spec = Vec::new();
    let mut paths: Vec<(PathBuf, PathBuf)> = Vec::new();
    for (k, (base, cond)) in CASES.iter().enumerate() {
        let eng = root.join(format!("case{k}_eng"));
        let ours = root.join(format!("case{k}_ours"));
        // Our copy: the engine copies the base and deletes nothing there.
        spec.push(json!({ "base": base, "cond": cond, "path": eng }));
        spec.push(json!({ "base": base, "cond": "", "path": ours }));
        paths.push((eng, ours));
    }
    let errors = engine_setup(&root, &Value::Array(spec));
    assert_eq!(errors.len(), 2 * CASES.len(), "{errors:?}");

    for (((base, cond), (_, ours)), errs) in CASES.iter().zip(&paths).zip(errors.chunks(2)) {
        assert_eq!(errs[0], None, "the engine refused to delete {cond}");
        let opts = {
            let mut lit = DeleteOptions::default();
            lit.timestamp = (*base != "base_evolved").then_some(40);
            lit.encryption_key = None;
            lit
        };
        delete_cells(ours, &QueryCondition::parse(cond).unwrap(), &opts)
            .unwrap_or_else(|e| panic!("{cond}: our delete: {e}"));
    }

    let mut reads: Vec<PathBuf> = ["base_nodups", "base_dups", "base_evolved"]
        .iter()
        .map(|b| root.join(b))
        .collect();
    for (eng, ours) in &paths {
        reads.push(eng.clone());
        reads.push(ours.clone());
    }
    let engine = engine_cells_many(&reads);
    let base_len = |b: &str| {
        let i = ["base_nodups", "base_dups", "base_evolved"]
            .iter()
            .position(|x| *x == b)
            .unwrap();
        engine[i].as_ref().expect("the engine reads the base").len()
    };
    for (k, ((base, cond), (eng, ours))) in CASES.iter().zip(&paths).enumerate() {
        let theirs = engine[3 + 2 * k]
            .clone()
            .unwrap_or_else(|e| panic!("{cond}: the engine's read of its delete: {e}"));
        assert!(
            !theirs.is_empty() && theirs.len() < base_len(base),
            "{cond}: the delete should remove some cells, not all ({} of {})",
            theirs.len(),
            base_len(base)
        );
        let of_ours = engine[4 + 2 * k]
            .clone()
            .unwrap_or_else(|e| panic!("{cond}: the engine's read of our delete: {e}"));
        if let Some(d) = diff_cells(theirs.clone(), of_ours) {
            panic!("{cond}: the engine reads our delete otherwise than its own: {d}");
        }
        for (whose, path) in [("its", eng), ("our", ours)] {
            let got = our_cells(path).unwrap_or_else(|e| panic!("{cond}: our read: {e}"));
            if let Some(d) = diff_cells(theirs.clone(), got) {
                panic!("{cond}: our reader reads {whose} delete otherwise than the engine: {d}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}
