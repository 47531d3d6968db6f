//! Deletes as the engine performs them (`maintain::delete`), judged by the
//! engine (TileDB-Py 0.36.1, tests/engine/engine_delete.py):
//! - a delete commit we write for a condition deletes the cells the
//!   engine's own delete with that condition deletes, as the engine and
//!   our reader read them, and later writes are not affected; the
//!   condition tree in our `.del` file is the engine's;
//! - conditions the engine refuses (or writes but cannot read back) are
//!   refused, and nothing is written;
//! - `delete_fragments` leaves the array as the engine's `delete_fragments`
//!   of the same range does (files, cells, fragment info), also when
//!   consolidated commits hold the fragments' commits; a dry run removes
//!   nothing.

use crate::write_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tiledb_codec::maintain::{delete_cells, delete_fragments, DeleteOptions, TimeRange};
use tiledb_codec::raw::format::{ConditionNode, ConditionNodeBody, QueryConditionOp};
use tiledb_codec::raw::read::query_condition::serialized::deserialize;
use tiledb_codec::raw::read::QueryCondition;
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::read_generic_tile;
use tiledb_codec::ReadOptions;
use write_support::{common, diff_cells, our_cells, TempDir};

/// Runs tests/engine/engine_delete.py; one JSON value per output line.
fn engine(args: &[&str]) -> Vec<Value> {
    let out = common::engine_run("engine_delete.py", args);
    assert!(
        out.status.success(),
        "engine_delete.py {}: {}",
        args.first().unwrap_or(&""),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn s(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// Every file under `root`, relative, with its bytes.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

/// The one `.del` file of an array's `__commits`.
fn del_file(array: &Path) -> PathBuf {
    let dels: Vec<PathBuf> = std::fs::read_dir(array.join("__commits"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "del"))
        .collect();
    assert_eq!(dels.len(), 1, "{}: {dels:?}", array.display());
    dels[0].clone()
}

/// The condition tree of a `.del` file, with the members of every set in
/// a canonical order (the engine keeps an enumerated attribute's set in
/// the order of a hash set).
fn del_tree(path: &Path) -> ConditionNode {
    let file = MappedFile::open(path).unwrap();
    let tile = read_generic_tile(&file, 0, &ReadOptions::default()).unwrap();
    let mut node = deserialize(&tile.data, path).unwrap();
    canonical_sets(&mut node);
    node
}

fn canonical_sets(node: &mut ConditionNode) {
    match &mut node.body {
        ConditionNodeBody::Expression(e) => e.children.iter_mut().for_each(canonical_sets),
        ConditionNodeBody::Value(v) => {
            if matches!(
                v.op.known(),
                Some(QueryConditionOp::In | QueryConditionOp::NotIn)
            ) {
                let offs: Vec<usize> = v
                    .offsets
                    .as_deref()
                    .unwrap_or(&[])
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().unwrap()) as usize)
                    .collect();
                let mut members: Vec<Vec<u8>> = (0..offs.len())
                    .map(|i| v.value[offs[i]..*offs.get(i + 1).unwrap_or(&v.value.len())].to_vec())
                    .collect();
                members.sort();
                let mut value = Vec::new();
                let mut offsets = Vec::new();
                for m in members {
                    offsets.extend_from_slice(&(value.len() as u64).to_le_bytes());
                    value.extend(m);
                }
                v.value = value;
                v.offsets = Some(offsets);
            }
        }
        _ => {}
    }
}

/// The parts of a timestamped file name the engine fixes: timestamps and
/// version (the uuid is random).
fn name_shape(p: &Path) -> String {
    let n = p.file_name().unwrap().to_string_lossy().into_owned();
    let parts: Vec<&str> = n.split('_').collect();
    // __t1_t2_uuid_version.ext
    format!("{}_{}_{}", parts[2], parts[3], parts[5])
}

fn cells_of(v: &Value) -> Result<Vec<Value>, String> {
    match v.get("cells") {
        Some(c) => Ok(c.as_array().cloned().unwrap_or_default()),
        None => Err(v["error"].as_str().unwrap_or("?").to_string()),
    }
}

/// Conditions the engine performs, over every operator and combinator it
/// supports: comparisons of numbers, strings and dimensions, `in`/`not
/// in`, enumeration labels (equality on an unordered enumeration, order on
/// an ordered one), `and`/`or`/`not`/`&`/`|`, chained comparisons, and
/// comparisons of nullable attributes (which delete their null cells too:
/// a null cell satisfies no comparison, so neither the negation stored).
const DELETES: &[(&str, &str)] = &[
    ("base_nodups", "i < 5"),
    ("base_dups", "f >= 2.5 and i != 3"),
    ("base_nodups", "str == 'banana'"),
    ("base_dups", "str in ['apple', 'cherry', 'fig']"),
    ("base_nodups", "i not in [1, 2, 3, 7]"),
    ("base_nodups", "n > 4"),
    ("base_dups", "ns < 'd' or ns == 'kiwi'"),
    ("base_nodups", "e == 'green'"),
    ("base_dups", "e in ['red', 'blue', 'purple', 'red']"),
    ("base_nodups", "o < 30 or e != 'blue'"),
    ("base_nodups", "x > 40 or s == 'k3'"),
    // TileDB-Py 0.36 negates only single comparisons (`not` of `and`/`or`
    // fails there with "bad_function_call").
    ("base_dups", "not (i > 5) and f < 7.0"),
    (
        "base_nodups",
        "(u == 3) | (u == 7) | ((i >= 9) & (dim('x') < 30))",
    ),
    (
        "base_dups",
        "2 < i <= 8 and not (str == 'date') and not (e == 'red')",
    ),
    ("base_nodups", "o not in [10, 40] and attr('u') != 1"),
];

/// Conditions the engine refuses, and why.
const REFUSED: &[(&str, &str)] = &[
    ("base_dense", "a > 3"),          // deletes on dense arrays
    ("base_nodups", "zz > 1"),        // an unknown field
    ("base_nodups", "i == 'x'"),      // a string for a number
    ("base_nodups", "e < 'green'"),   // order on an unordered enumeration
    ("base_nodups", "e == 'purple'"), // ALWAYS_FALSE: cannot be negated
    ("base_dups", "i == None"),       // ALWAYS_FALSE: i cannot be null
    ("base_dups", "not (x != None)"), // the same, of a dimension
];

/// Conditions the engine writes into a delete commit and then cannot read
/// back (the array becomes unreadable to it): we refuse them.
const UNREADABLE: &[(&str, &str)] = &[
    ("base_nodups", "n == None"),
    ("base_dups", "e in ['purple', 'mauve']"),
];

#[test]
fn deletes_match_the_engine() {
    let tmp = TempDir::new("delete-cells");
    let root = tmp.join("arrays");
    let mut cases = Vec::new();
    let mut all = Vec::new();
    for (kind, list) in [
        ("delete", DELETES),
        ("refuse", REFUSED),
        ("unreadable", UNREADABLE),
    ] {
        for (k, (base, cond)) in list.iter().enumerate() {
            let eng = root.join(format!("{kind}{k}_eng"));
            let ours = root.join(format!("{kind}{k}_ours"));
            cases.push(json!({
                "kind": if kind == "unreadable" { "delete" } else { kind },
                "base": base, "cond": cond, "eng": s(&eng), "ours": s(&ours),
            }));
            all.push((kind, *base, *cond, eng, ours));
        }
    }
    let spec = tmp.join("cases.json");
    std::fs::write(&spec, serde_json::to_vec(&cases).unwrap()).unwrap();
    let setup = engine(&["setup", &s(&root), &s(&spec)]);
    assert_eq!(setup.len(), all.len(), "{setup:?}");

    let opts = {
        let mut lit = DeleteOptions::default();
        lit.timestamp = Some(40);
        lit.encryption_key = None;
        lit
    };
    let mut reads: Vec<String> = vec![s(&root.join("base_nodups")), s(&root.join("base_dups"))];
    let mut deleted = Vec::new();
    for ((kind, _base, cond, eng, ours), res) in all.iter().zip(&setup) {
        let engine_error = res["error"].as_str();
        let before = files(ours);
        let ours_result = delete_cells(ours, &QueryCondition::parse(cond).unwrap(), &opts);
        match *kind {
            "delete" => {
                assert_eq!(engine_error, None, "the engine refused {cond}");
                let path = ours_result.unwrap_or_else(|e| panic!("{cond}: {e}"));
                assert_eq!(path, del_file(ours));
                let theirs = del_file(eng);
                assert_eq!(name_shape(&path), name_shape(&theirs), "{cond}");
                assert_eq!(
                    del_tree(&path),
                    del_tree(&theirs),
                    "{cond}: our condition tree differs from the engine's"
                );
                // Nothing else was written (no temporary file left).
                let after = files(ours);
                assert_eq!(after.len(), before.len() + 1, "{cond}");
                reads.push(s(eng));
                reads.push(s(ours));
                deleted.push((*cond, eng.clone(), ours.clone()));
            }
            "refuse" => {
                assert!(engine_error.is_some(), "the engine performed {cond}");
                let err = ours_result.expect_err(cond).to_string();
                assert!(!err.is_empty());
                assert_eq!(files(ours), before, "{cond}: something was written");
            }
            _ => {
                // The engine wrote it; we refuse it, and say why.
                assert_eq!(engine_error, None, "the engine refused {cond}");
                let err = ours_result.expect_err(cond).to_string();
                assert!(err.contains("refuses to read"), "{cond}: {err}");
                assert_eq!(files(ours), before, "{cond}: something was written");
                reads.push(s(eng));
            }
        }
    }

    // Our reader on both copies, before the engine writes again.
    let ours_before: Vec<(Vec<Value>, Vec<Value>)> = deleted
        .iter()
        .map(|(cond, eng, ours)| {
            let a =
                our_cells(eng).unwrap_or_else(|e| panic!("{cond}: our read of the engine's: {e}"));
            let b = our_cells(ours).unwrap_or_else(|e| panic!("{cond}: our read of ours: {e}"));
            (a, b)
        })
        .collect();
    // Then one more fragment (timestamp 50) on both copies: the deletes
    // (timestamp 40) do not touch it.
    for (_, eng, ours) in &deleted {
        reads.push(format!("{}:write", s(eng)));
        reads.push(format!("{}:write", s(ours)));
    }
    let mut args = vec!["read".to_string(), s(&root)];
    args.extend(reads);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = engine(&args);
    let mut it = out.into_iter();
    let base_nodups = cells_of(&it.next().unwrap()).unwrap();
    let base_dups = cells_of(&it.next().unwrap()).unwrap();
    let mut engine_before = Vec::new();
    for (kind, base, cond, ..) in &all {
        match *kind {
            "delete" => {
                let e = cells_of(&it.next().unwrap()).unwrap_or_else(|e| panic!("{cond}: {e}"));
                let o = cells_of(&it.next().unwrap()).unwrap_or_else(|e| panic!("{cond}: {e}"));
                let base = if *base == "base_dups" {
                    &base_dups
                } else {
                    &base_nodups
                };
                assert!(
                    !e.is_empty() && e.len() < base.len(),
                    "{cond}: the engine's delete should delete some cells, not all ({} of {})",
                    e.len(),
                    base.len()
                );
                engine_before.push((*cond, e, o));
            }
            "unreadable" => {
                let e = cells_of(&it.next().unwrap());
                assert!(e.is_err(), "{cond}: the engine reads its own delete now");
            }
            _ => {}
        }
    }
    for ((cond, e, o), (our_e, our_o)) in engine_before.into_iter().zip(ours_before) {
        if let Some(d) = diff_cells(e.clone(), o) {
            panic!("{cond}: the engine reads our delete otherwise than its own: {d}");
        }
        if let Some(d) = diff_cells(e.clone(), our_e) {
            panic!("{cond}: our reader reads the engine's delete otherwise than it does: {d}");
        }
        if let Some(d) = diff_cells(e, our_o) {
            panic!("{cond}: our reader reads our delete otherwise than the engine: {d}");
        }
    }
    for (cond, eng, ours) in &deleted {
        let e = cells_of(&it.next().unwrap()).unwrap_or_else(|e| panic!("{cond}: {e}"));
        let o = cells_of(&it.next().unwrap()).unwrap_or_else(|e| panic!("{cond}: {e}"));
        if let Some(d) = diff_cells(e.clone(), o) {
            panic!("{cond}, after a later write: the engine reads both copies otherwise: {d}");
        }
        if let Some(d) = diff_cells(e.clone(), our_cells(ours).unwrap()) {
            panic!("{cond}, after a later write: our reader differs from the engine: {d}");
        }
        if let Some(d) = diff_cells(e.clone(), our_cells(eng).unwrap()) {
            panic!("{cond}, after a later write: our reader differs on the engine's copy: {d}");
        }
        // Every cell of the later fragment is there (x = 0, 3, .., 57).
        for x in (0..60).step_by(3) {
            let coord = format!("k{}", x % 7);
            assert!(
                e.iter()
                    .any(|c| c["x"] == json!(x) && c["s"] == json!(coord)),
                "{cond}: the later cell ({x}, {coord}) is missing"
            );
        }
    }
    assert!(it.next().is_none());
}

/// `.ign` files named with their timestamps and version only, and their
/// lines sorted (the engine sorts fragments by first timestamp only).
fn normalized_files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    files(root)
        .into_iter()
        .map(|(k, v)| {
            if k.ends_with(".ign") {
                let mut lines: Vec<&str> = std::str::from_utf8(&v).unwrap().lines().collect();
                lines.sort();
                let shape = name_shape(Path::new(&k));
                (
                    format!("__commits/{shape}.ign"),
                    lines.join("\n").into_bytes(),
                )
            } else {
                (k, v)
            }
        })
        .collect()
}

#[test]
fn delete_fragments_matches_the_engine() {
    let tmp = TempDir::new("delete-fragments");
    let root = tmp.join("arrays");
    // (base, range, dry run too)
    let list: &[(&str, (u64, u64), bool)] = &[
        ("base_nodups", (20, 30), true),
        ("base_nodups", (10, 10), false),
        ("base_nodups", (0, 100), false),
        ("base_dups", (15, 25), false),
        ("base_dups", (25, 39), true),
        // Consolidated commits hold the fragments' commits: an ignore file.
        ("base_concommits", (20, 30), true),
        ("base_concommits", (10, 35), false),
        ("base_concommits", (35, 35), false),
        // Fragments 10 and 20 consolidated into 10-20, not vacuumed: a
        // vacuum file within the range spares what it lists.
        ("base_confrags", (10, 20), false),
        ("base_confrags", (10, 30), false),
        ("base_confrags", (20, 20), true),
    ];
    let mut cases = Vec::new();
    let mut all = Vec::new();
    for (k, (base, (t1, t2), dry)) in list.iter().enumerate() {
        let eng = root.join(format!("frag{k}_eng"));
        let ours = root.join(format!("frag{k}_ours"));
        let dry_path = root.join(format!("frag{k}_dry"));
        let mut c = json!({
            "kind": "fragments", "base": base, "range": [t1, t2],
            "eng": s(&eng), "ours": s(&ours),
        });
        if *dry {
            c["dry"] = json!(s(&dry_path));
        }
        cases.push(c);
        all.push((
            *base,
            TimeRange::new(*t1, *t2),
            eng,
            ours,
            dry.then_some(dry_path),
        ));
    }
    let spec = tmp.join("cases.json");
    std::fs::write(&spec, serde_json::to_vec(&cases).unwrap()).unwrap();
    let setup = engine(&["setup", &s(&root), &s(&spec)]);
    assert_eq!(setup.len(), all.len(), "{setup:?}");

    let mut reads = Vec::new();
    for ((base, range, eng, ours, dry), res) in all.iter().zip(&setup) {
        let what = format!("{base} {}:{}", range.start, range.end);
        assert_eq!(res["error"], Value::Null, "{what}");
        let before = files(ours);
        let report =
            delete_fragments(ours, *range, false).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(!report.removed.is_empty(), "{what}: nothing to delete?");
        // The array as the engine leaves it, file for file.
        assert_eq!(
            normalized_files(ours).keys().collect::<Vec<_>>(),
            normalized_files(eng).keys().collect::<Vec<_>>(),
            "{what}"
        );
        assert!(
            normalized_files(ours) == normalized_files(eng),
            "{what}: file contents differ"
        );
        // What the report names is what went.
        for p in &report.removed {
            assert!(!p.exists(), "{what}: {} is still there", p.display());
        }
        let gone: Vec<&String> = before.keys().filter(|k| !ours.join(k).exists()).collect();
        for g in &gone {
            assert!(
                report.removed.iter().any(|p| ours.join(g).starts_with(p)),
                "{what}: {g} went but the report does not say so"
            );
        }
        if let Some(dry) = dry {
            let before = files(dry);
            let dry_report = delete_fragments(dry, *range, true).unwrap();
            assert_eq!(files(dry), before, "{what}: the dry run changed something");
            let rel = |r: &[PathBuf], base: &Path| -> Vec<PathBuf> {
                r.iter()
                    .map(|p| p.strip_prefix(base).unwrap().to_path_buf())
                    .collect()
            };
            assert_eq!(
                rel(&dry_report.removed, dry),
                rel(&report.removed, ours),
                "{what}: the dry run reports otherwise"
            );
        }
        reads.push(s(eng));
        reads.push(s(ours));
    }
    let mut args = vec!["read".to_string(), s(&root)];
    args.extend(reads);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = engine(&args);
    assert_eq!(out.len(), all.len() * 2);
    for ((base, range, eng, ours, _), pair) in all.iter().zip(out.chunks(2)) {
        let what = format!("{base} {}:{}", range.start, range.end);
        let e = cells_of(&pair[0]).unwrap_or_else(|e| panic!("{what}: {e}"));
        let o = cells_of(&pair[1]).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(
            pair[0]["fragments"], pair[1]["fragments"],
            "{what}: fragment info"
        );
        if let Some(d) = diff_cells(e.clone(), o) {
            panic!("{what}: the engine reads both copies otherwise: {d}");
        }
        for (which, p) in [("engine's", eng), ("ours", ours)] {
            if let Some(d) = diff_cells(e.clone(), our_cells(p).unwrap()) {
                panic!("{what}: our reader differs from the engine on the {which}: {d}");
            }
        }
    }
}

#[test]
fn refusals_name_what_is_wrong() {
    let tmp = TempDir::new("delete-refusals");
    // Not an array at all.
    let err = delete_fragments(&tmp.0, TimeRange::ALL, false).unwrap_err();
    assert!(err.to_string().contains("not an array"), "{err}");
    let cond = QueryCondition::parse("a > 1").unwrap();
    assert!(delete_cells(&tmp.join("missing"), &cond, &DeleteOptions::default()).is_err());
}
