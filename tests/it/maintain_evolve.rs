//! Schema evolution (`maintain::evolve`) against the engine's own
//! `tiledb.ArraySchemaEvolution`: each change is made by us on one copy of
//! an array and by the engine on another; then both are written through the
//! new schema by the engine and read by both. The schemas must decode
//! equal (file names and timestamps aside), the engine must read our
//! evolved array as it reads its own, and our reader must read both as the
//! engine does (old fragments through the new schema: fill values for an
//! added attribute, a dropped one gone). What the engine refuses we refuse,
//! and then nothing is written.

use crate::write_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use tiledb_codec::maintain::{evolve, latest_schema, EvolveOptions, SchemaEvolution};
use tiledb_codec::raw::model::{json as mjson, Schema};
use tiledb_codec::ReadOptions;
use write_support::{common, diff_cells, our_cells, TempDir};

fn script() -> PathBuf {
    common::root().join("tests/engine/engine_evolve.py")
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    fn walk(root: &Path, d: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Our evolution from the engine script's description of the changes.
fn evolution(array: &Path, ch: &Value) -> SchemaEvolution {
    let schema = latest_schema(array, &ReadOptions::default()).unwrap();
    let mut ev = SchemaEvolution::new();
    for e in ch["add_enums"].as_array().into_iter().flatten() {
        ev.add_enumeration(mjson::enumeration_from_json(e).unwrap());
    }
    for (name, vals) in ch["extend"].as_object().into_iter().flatten() {
        let e = schema.enumeration(name).expect("the enumeration to extend");
        ev.extend_enumeration(name, mjson::enumeration_values_from_json(e, vals).unwrap());
    }
    for a in ch["add_attrs"].as_array().into_iter().flatten() {
        ev.add_attribute(mjson::attribute_from_json(a).unwrap());
    }
    for n in ch["drop_attrs"].as_array().into_iter().flatten() {
        ev.drop_attribute(n.as_str().unwrap());
    }
    for n in ch["drop_enums"].as_array().into_iter().flatten() {
        ev.drop_enumeration(n.as_str().unwrap());
    }
    for (dim, r) in ch["current_domain"].as_object().into_iter().flatten() {
        let d = schema.dimension(dim).expect("the dimension");
        ev.expand_current_domain(dim, mjson::dimension_range_from_json(d, r).unwrap());
    }
    ev
}

/// A schema with what may differ between two evolutions of one array
/// taken out: enumeration file names, and the order of enumerations (the
/// engine keeps them in a hash map).
fn comparable(mut s: Schema) -> Schema {
    for e in &mut s.enumerations {
        e.path_name.clear();
    }
    s.enumerations.sort_by(|a, b| a.name.cmp(&b.name));
    s
}

struct Case {
    name: &'static str,
    base: PathBuf,
    changes: Value,
    /// Whether the engine writes a fragment after the change.
    write: bool,
}

fn run_engine(jobs: &Value, tmp: &TempDir) -> Vec<Value> {
    let file = tmp.join("jobs.json");
    let jobs = jobs.as_array().unwrap();
    let (lines, stderr) = common::engine_batch(jobs, |jobs| {
        std::fs::write(&file, Value::from(jobs.to_vec()).to_string()).unwrap();
        Command::new(common::engine_python())
            .arg(script())
            .arg("run")
            .arg(&file)
            .output()
            .expect("the engine's python runs")
    });
    let lines: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), jobs.len(), "the engine stopped: {stderr}");
    lines
}

/// The changes the engine accepts, on arrays made by the engine script in
/// `base` and on fixtures.
fn accepted(base: &Path) -> Vec<Case> {
    let fixtures = common::root().join("tests/fixtures");
    let dense = base.join("dense");
    let sparse = base.join("sparse");
    vec![
        Case {
            name: "dense_add",
            base: dense.clone(),
            changes: json!({
                "extend": {"color": ["pink", "teal"]},
                "add_attrs": [
                    {"name": "b", "datatype": "FLOAT64", "fill_value": 0.5},
                    {"name": "k", "datatype": "UINT8", "nullable": true, "enumeration": "color"},
                    {"name": "t", "datatype": "STRING_UTF8", "cell_val_num": "var", "fill_value": "zz"},
                ],
            }),
            write: true,
        },
        Case {
            name: "dense_drop",
            base: dense.clone(),
            changes: json!({
                "drop_attrs": ["v"],
                "add_enums": [{"name": "size", "datatype": "INT16", "ordered": true, "values": [1, 2, 3]}],
                "drop_enums": ["spare", "no_such_enumeration"],
            }),
            write: true,
        },
        Case {
            name: "sparse_current_domain",
            base: sparse.clone(),
            changes: json!({"current_domain": {"x": [0, 199]}, "drop_attrs": ["s"]}),
            write: true,
        },
        Case {
            name: "sparse_enumerations",
            base: sparse.clone(),
            changes: json!({
                "extend": {"num": [40, 50]},
                "add_enums": [{"name": "letters", "datatype": "STRING_UTF8", "cell_val_num": "var", "values": ["p", "q"]}],
                "add_attrs": [{"name": "m", "datatype": "INT32", "enumeration": "letters"}],
                "drop_enums": ["unused"],
            }),
            write: true,
        },
        Case {
            name: "sparse_drop_all",
            base: sparse.clone(),
            changes: json!({"drop_attrs": ["a", "n", "s"], "drop_enums": ["num"]}),
            write: true,
        },
        Case {
            name: "v22_enumerations",
            base: fixtures.join("v22/enumerations"),
            changes: json!({
                "extend": {"colors": ["violet"]},
                "add_attrs": [{"name": "shade", "datatype": "INT16", "enumeration": "colors", "fill_value": 1}],
            }),
            write: true,
        },
        Case {
            name: "v22_schema_evolution",
            base: fixtures.join("v22/schema_evolution"),
            changes: json!({"drop_attrs": ["b"], "add_attrs": [{"name": "c", "datatype": "INT64", "fill_value": 7}]}),
            write: true,
        },
        Case {
            name: "v16_dense_int_1d",
            base: fixtures.join("v16/dense_int_1d"),
            changes: json!({"add_attrs": [{"name": "e", "datatype": "UINT16"}]}),
            write: true,
        },
    ]
}

/// The changes the engine refuses: name, array, changes.
fn refused(base: &Path) -> Vec<(&'static str, PathBuf, Value)> {
    let dense = base.join("dense");
    let sparse = base.join("sparse");
    vec![
        (
            "last_dense_attribute",
            dense.clone(),
            json!({"drop_attrs": ["a", "c", "v"]}),
        ),
        (
            "drop_dimension",
            dense.clone(),
            json!({"drop_attrs": ["d"]}),
        ),
        (
            "drop_unknown_attribute",
            dense.clone(),
            json!({"drop_attrs": ["nope"]}),
        ),
        (
            "duplicate_value",
            dense.clone(),
            json!({"extend": {"color": ["blue"]}}),
        ),
        (
            "float_enumerated",
            dense.clone(),
            json!({"add_attrs": [{"name": "f", "datatype": "FLOAT32", "enumeration": "color"}]}),
        ),
        (
            "unknown_enumeration",
            sparse.clone(),
            json!({"add_attrs": [{"name": "f", "datatype": "INT32", "enumeration": "nope"}]}),
        ),
        (
            "attribute_name_taken",
            dense.clone(),
            json!({"add_attrs": [{"name": "a", "datatype": "INT64"}]}),
        ),
        (
            "dimension_name_taken",
            sparse.clone(),
            json!({"add_attrs": [{"name": "x", "datatype": "INT64"}]}),
        ),
        (
            "enumeration_name_taken",
            dense.clone(),
            json!({"add_enums": [{"name": "color", "datatype": "STRING_UTF8", "values": ["x"]}]}),
        ),
        (
            "enumeration_in_use",
            sparse.clone(),
            json!({"drop_enums": ["num"]}),
        ),
        (
            "shrink_current_domain",
            sparse.clone(),
            json!({"current_domain": {"x": [0, 50]}}),
        ),
        (
            "current_domain_past_domain",
            sparse.clone(),
            json!({"current_domain": {"y": [0, 1000]}}),
        ),
        (
            "int8_too_small",
            dense.clone(),
            json!({
                "add_enums": [{"name": "big", "datatype": "INT32", "values": (0..200).collect::<Vec<i32>>()}],
                "add_attrs": [{"name": "g", "datatype": "INT8", "enumeration": "big"}],
            }),
        ),
    ]
}

/// Checks one accepted change against the engine's results `res` (in the
/// order its jobs were given): the schemas, then each round's accounts.
fn check_accepted(c: &Case, ours: &Path, eng: &Path, res: &mut impl Iterator<Item = Value>) {
    let mut next = || res.next().unwrap();
    let opts = ReadOptions::default();
    let r = next();
    assert_eq!(r, json!({"ok": true}), "{}: the engine's evolution", c.name);
    // The schemas decode equal.
    let s_ours = latest_schema(ours, &opts).unwrap();
    let s_eng = latest_schema(eng, &opts).unwrap();
    assert_eq!(comparable(s_ours), comparable(s_eng), "{}: schemas", c.name);
    let rounds = if c.write { 2 } else { 1 };
    for round in 0..rounds {
        if round == 1 {
            assert_eq!(
                next(),
                json!({"ok": true}),
                "{}: engine writes ours",
                c.name
            );
            assert_eq!(
                next(),
                json!({"ok": true}),
                "{}: engine writes its own",
                c.name
            );
        }
        let a_ours = next();
        let a_eng = next();
        assert!(a_ours.get("error").is_none(), "{}: {a_ours}", c.name);
        assert!(a_eng.get("error").is_none(), "{}: {a_eng}", c.name);
        assert!(
            common::same(&a_ours["schema"], &a_eng["schema"]),
            "{} (round {round}): the engine reads the schemas differently:\n{}\n{}",
            c.name,
            a_ours["schema"],
            a_eng["schema"]
        );
        let cells = |a: &Value| a["cells"].as_array().cloned().unwrap();
        if let Some(d) = diff_cells(cells(&a_ours), cells(&a_eng)) {
            panic!(
                "{} (round {round}): engine cells, ours vs its own: {d}",
                c.name
            );
        }
        // The engine ran every job (writes included) before this loop:
        // our reader sees the arrays as they are now, the last round.
        let now = round + 1 == rounds;
        for (p, a) in [(ours, &a_ours), (eng, &a_eng)].into_iter().filter(|_| now) {
            let mine = our_cells(p).unwrap_or_else(|e| panic!("{}: {e}", c.name));
            if let Some(d) = diff_cells(mine, cells(a)) {
                panic!(
                    "{} (round {round}): our reader vs the engine on {}: {d}",
                    c.name,
                    p.display()
                );
            }
        }
    }
}

#[test]
fn evolutions_match_the_engines() {
    let tmp = TempDir::new("evolve");
    let base = tmp.join("base");
    std::fs::create_dir_all(&base).unwrap();
    let out = Command::new(common::engine_python())
        .arg(script())
        .arg("make")
        .arg(&base)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ok = accepted(&base);
    let refused = refused(&base);
    // Ours, on one copy of each; the engine's on another.
    let mut jobs = Vec::new();
    let mut pairs = Vec::new();
    for c in &ok {
        let ours = tmp.join(&format!("ours/{}", c.name));
        let eng = tmp.join(&format!("engine/{}", c.name));
        common::copy_dir(&c.base, &ours);
        common::copy_dir(&c.base, &eng);
        let ev = evolution(&ours, &c.changes);
        let path = evolve(&ours, &ev, &EvolveOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert!(path.is_file() && path.starts_with(ours.join("__schema")));
        jobs.push(json!({"evolve": eng, "changes": c.changes}));
        // The engine's account before writing: old fragments through the
        // new schema.
        jobs.push(json!({"account": ours}));
        jobs.push(json!({"account": eng}));
        if c.write {
            // A write after the evolution, stamped after it (the engine
            // opens an array for writing with the schema of that time).
            let t = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis() as u64
                + 1;
            jobs.push(json!({"write": ours, "t": t}));
            jobs.push(json!({"write": eng, "t": t}));
            jobs.push(json!({"account": ours}));
            jobs.push(json!({"account": eng}));
        }
        pairs.push((c, ours, eng));
    }
    let mut refused_copies = Vec::new();
    for (name, base, ch) in &refused {
        let ours = tmp.join(&format!("ours/{name}"));
        let eng = tmp.join(&format!("engine/{name}"));
        common::copy_dir(base, &ours);
        common::copy_dir(base, &eng);
        let before = files(&ours);
        let ev = evolution(&ours, ch);
        let err = evolve(&ours, &ev, &EvolveOptions::default())
            .expect_err(&format!("{name}: the engine refuses this"));
        assert!(
            matches!(&err, tiledb_codec::Error::Schema { field, .. } if field == "evolution"),
            "{name}: {err}"
        );
        assert_eq!(files(&ours), before, "{name}: something was written");
        jobs.push(json!({"evolve": eng, "changes": ch}));
        refused_copies.push((name, eng, before));
    }

    let res = run_engine(&Value::Array(jobs), &tmp);
    let mut it = res.into_iter();
    for (c, ours, eng) in &pairs {
        check_accepted(c, ours, eng, &mut it);
    }
    for (name, eng, before) in refused_copies {
        let r = it.next().unwrap();
        assert!(
            r.get("error").is_some(),
            "{name}: the engine accepted what we refuse"
        );
        assert_eq!(files(&eng), before, "{name}: the engine wrote something");
    }
}

/// The command line, end to end: an added attribute, an extended
/// enumeration and an expanded current domain, then the engine reads it.
#[test]
fn the_command_line_evolves() {
    let tmp = TempDir::new("evolve-cli");
    let base = tmp.join("base");
    std::fs::create_dir_all(&base).unwrap();
    let out = Command::new(common::engine_python())
        .arg(script())
        .arg("make")
        .arg(&base)
        .output()
        .unwrap();
    assert!(out.status.success());
    let arr = base.join("sparse");
    let bin = env!("CARGO_BIN_EXE_tiledb-codec");
    let out = Command::new(bin)
        .arg("evolve")
        .arg(&arr)
        .args([
            "--add-attribute",
            r#"{"name": "z", "datatype": "INT64", "fill_value": -5}"#,
            "--extend-enumeration",
            "num=60,70",
            "--expand-current-domain",
            "y=0:500",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("added attribute z"), "{text}");
    // The engine reads at "now": the schema is stamped with the clock.
    assert!(text.contains("__schema"), "{text}");
    let s = latest_schema(&arr, &ReadOptions::default()).unwrap();
    assert!(s.attribute("z").is_some());
    assert_eq!(s.enumeration("num").unwrap().values.len(), 5);
    let engine = common::engine_cells(&arr, None);
    assert!(engine.iter().all(|c| c["z"] == json!(-5)));
    assert!(diff_cells(our_cells(&arr).unwrap(), engine).is_none());
    // A refusal: exit 1, a message, nothing written.
    let before = files(&arr);
    let out = Command::new(bin)
        .arg("evolve")
        .arg(&arr)
        .args(["--expand-current-domain", "x=0:10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("only be expanded"), "{err}");
    assert_eq!(files(&arr), before);
}

/// An encrypted array evolves with its key (the new schema encrypted as
/// the engine encrypts it), and the engine reads it with that key.
#[test]
fn encrypted_arrays_evolve_with_their_key() {
    let key = "0123456789abcdeF0123456789abcdeF";
    let tmp = TempDir::new("evolve-enc");
    let arr = tmp.join("enc");
    common::copy_dir(
        &common::root().join("tests/fixtures/v22/encrypted_aes256gcm"),
        &arr,
    );
    let k = write_support::key_bytes(key);
    let mut ev = SchemaEvolution::new();
    ev.add_attribute(
        mjson::attribute_from_json(&json!({"name": "z", "datatype": "INT16", "fill_value": 3}))
            .unwrap(),
    );
    // Without the key the schema cannot be read: refused, nothing written.
    let before = files(&arr);
    assert!(evolve(&arr, &ev, &EvolveOptions::default()).is_err());
    assert_eq!(files(&arr), before);
    let opts = {
        let mut lit = EvolveOptions::default();
        lit.encryption_key = Some(k);
        lit
    };
    evolve(&arr, &ev, &opts).unwrap();
    let engine = common::engine_cells(&arr, Some(key));
    assert!(!engine.is_empty() && engine.iter().all(|c| c["z"] == json!(3)));
    let mine = write_support::our_cells_key(&arr, Some(key)).unwrap();
    assert!(diff_cells(mine, engine).is_none());
}

/// An attribute dropped and added again with a wider type: the engine
/// (TileDB 2.30) reads the old fragment's INT32 bytes as INT64, two cells
/// to a value (cell 0 reads 1 << 32, cells 0 and 1 of the old column), so
/// its cells are not the data. Ours is a typed error naming the fragment
/// and the field, whole or boxed, never a panic or a misread.
#[test]
fn an_attribute_added_again_with_another_width_is_refused_not_misread() {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::{Array, AttributeBuilder, DimensionBuilder, SchemaBuilder};
    let tmp = TempDir::new("evolve-width");
    let arr = tmp.join("a");
    let schema = SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0i64..=999)
                .tile_extent(100i64),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int32))
        .capacity(50)
        .build()
        .unwrap();
    let array = Array::create(&arr, &schema).unwrap();
    let d: Vec<i64> = (0..100).collect();
    let a: Vec<i32> = (0..100).collect();
    array
        .write()
        .column("d", &d)
        .column("a", &a)
        .commit()
        .unwrap();
    let mut ev = SchemaEvolution::new();
    ev.drop_attribute("a");
    evolve(&arr, &ev, &EvolveOptions::default()).unwrap();
    let mut ev = SchemaEvolution::new();
    ev.add_attribute(
        mjson::attribute_from_json(&json!({"name": "a", "datatype": "INT64", "fill_value": 7}))
            .unwrap(),
    );
    evolve(&arr, &ev, &EvolveOptions::default()).unwrap();
    let d2: Vec<i64> = (500..510).collect();
    let a2: Vec<i64> = (0..10).collect();
    Array::open(&arr)
        .unwrap()
        .write()
        .column("d", &d2)
        .column("a", &a2)
        .commit()
        .unwrap();
    let engine = common::engine_cells(&arr, None);
    assert_eq!(engine.len(), 110);
    assert_eq!(engine[0]["a"], json!(1i64 << 32), "{:?}", engine[0]);
    for boxed in [false, true] {
        let array = Array::open(&arr).unwrap();
        let reader = array.reader();
        let reader = if boxed {
            reader.range("d", 0i64..=99)
        } else {
            reader
        };
        let err = reader.read().map(|b| b.len()).unwrap_err().to_string();
        assert!(
            err.contains("__fragments") && err.contains("another size") && err.contains('a'),
            "{err}"
        );
    }
    // The newer cells alone read as written.
    let got = Array::open(&arr)
        .unwrap()
        .reader()
        .range("d", 500i64..=509)
        .read()
        .unwrap();
    assert_eq!(got.column::<i64>("a").unwrap().to_vec(), a2);
}
