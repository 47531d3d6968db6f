//! `inspect --json` agrees with the TileDB engine's own account (TileDB-Py)
//! of every fixture: schema (enumeration values too) and fragments.

use crate::common;

use serde_json::Value;
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::inspect_json;

/// Compares one key of two objects, collecting a readable difference.
fn same(diffs: &mut Vec<String>, what: &str, ours: &Value, engine: &Value) {
    if !numbers_equal(ours, engine) {
        diffs.push(format!("{what}: ours {ours} engine {engine}"));
    }
}

/// JSON equality where 3 and 3.0 are the same number.
fn numbers_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| numbers_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| numbers_equal(v, w)))
        }
        _ => a == b,
    }
}

fn compare_array(id: &str, ours: &Value, engine: &Value) -> Vec<String> {
    let mut d = Vec::new();
    let (s, e) = (&ours["schema"], &engine["schema"]);
    for k in [
        "version",
        "array_type",
        "cell_order",
        "tile_order",
        "capacity",
        "allows_duplicates",
        "coords_filters",
        "offsets_filters",
        "validity_filters",
    ] {
        same(&mut d, &format!("{id} schema.{k}"), &s[k], &e[k]);
    }
    for list in ["dimensions", "attributes"] {
        let (a, b) = (s[list].as_array().unwrap(), e[list].as_array().unwrap());
        same(
            &mut d,
            &format!("{id} {list} count"),
            &Value::from(a.len()),
            &Value::from(b.len()),
        );
        let keys: &[&str] = if list == "dimensions" {
            &[
                "name",
                "datatype",
                "cell_val_num",
                "domain",
                "tile_extent",
                "filters",
            ]
        } else {
            &[
                "name",
                "datatype",
                "cell_val_num",
                "nullable",
                "fill_value",
                "filters",
                "enumeration",
            ]
        };
        for (x, y) in a.iter().zip(b) {
            for k in keys {
                same(
                    &mut d,
                    &format!("{id} {list}[{}].{k}", x["name"]),
                    &x[*k],
                    &y[*k],
                );
            }
        }
    }
    // Enumerations by name: the engine lists those its attributes use
    // (TileDB-Py reaches an enumeration only through an attribute's label),
    // in attribute order, without their file names.
    let by_name = |v: &Value| {
        let mut l = v.as_array().cloned().unwrap_or_default();
        for e in &mut l {
            if let Some(m) = e.as_object_mut() {
                m.remove("filename");
            }
        }
        l.sort_by_cached_key(|e| e["name"].to_string());
        Value::Array(l)
    };
    same(
        &mut d,
        &format!("{id} schema.enumerations"),
        &by_name(&s["enumerations"]),
        &by_name(&e["enumerations"]),
    );
    let (fa, fb) = (
        ours["fragments"].as_array().unwrap(),
        engine["fragments"].as_array().unwrap(),
    );
    let names = |v: &[Value]| v.iter().map(|f| f["name"].clone()).collect::<Vec<_>>();
    same(
        &mut d,
        &format!("{id} fragment names"),
        &Value::Array(names(fa)),
        &Value::Array(names(fb)),
    );
    for (x, y) in fa.iter().zip(fb) {
        for k in [
            "version",
            "timestamps",
            "non_empty_domain",
            "dense",
            "cell_num",
            "array_schema_name",
        ] {
            same(
                &mut d,
                &format!("{id} fragment {}.{k}", x["name"]),
                &x[k],
                &y[k],
            );
        }
    }
    same(
        &mut d,
        &format!("{id} metadata"),
        &ours["metadata"],
        &engine["metadata"],
    );
    d
}

/// The fixture's key, if it is encrypted: the 32 bytes of the string.
fn read_options(f: &common::Fixture) -> ReadOptions {
    match &f.key {
        Some(k) => ReadOptions::default().with_key(k.as_bytes().try_into().expect("a 32-byte key")),
        None => ReadOptions::default(),
    }
}

#[test]
fn inspect_agrees_with_the_engine_on_every_fixture() {
    let mut diffs = Vec::new();
    let mut checked = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let ours =
            inspect_json(&f.path, &read_options(&f)).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        let engine = common::engine_account(&f.path, f.key.as_deref());
        diffs.extend(compare_array(&f.id, &ours, &engine));
        checked += 1;
    }
    assert!(checked > 0);
    assert!(
        diffs.is_empty(),
        "{} differences:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

/// Without its key, or with a wrong one, an encrypted array gives a clear
/// error; so does a key given for an array that is not encrypted.
#[test]
fn encrypted_arrays_need_their_key() {
    let mut seen = 0;
    for f in common::fixtures() {
        let Some(key) = &f.key else { continue };
        seen += 1;
        let err = inspect_json(&f.path, &ReadOptions::default())
            .expect_err("an encrypted array without its key")
            .to_string();
        assert!(
            err.contains("the array is encrypted: an encryption key is needed"),
            "{}: {err}",
            f.id
        );
        assert!(err.contains("__schema"), "{}: names the file: {err}", f.id);
        let mut wrong: [u8; 32] = key.as_bytes().try_into().unwrap();
        wrong[31] ^= 1;
        let err = inspect_json(&f.path, &ReadOptions::default().with_key(wrong))
            .expect_err("an encrypted array with a wrong key")
            .to_string();
        assert!(
            err.contains("wrong encryption key or damaged data"),
            "{}: {err}",
            f.id
        );
    }
    assert!(seen > 0, "no encrypted fixture");
    let plain = common::fixtures()
        .into_iter()
        .find(|f| f.kind == "array" && f.key.is_none())
        .unwrap();
    let err = inspect_json(&plain.path, &ReadOptions::default().with_key([b'k'; 32]))
        .expect_err("a key for an array that is not encrypted")
        .to_string();
    assert!(err.contains("not encrypted"), "{}: {err}", plain.id);
}

/// The data tiles of an encrypted array (its pipelines with the AES-256-GCM
/// filter appended) decode to the engine's cells. The encrypted fixture's
/// fragments write disjoint cells, so all of their cells, sorted, are the
/// engine's read of the array.
#[test]
fn encrypted_data_tiles_decode_to_the_engine_cells() {
    use tiledb_codec::raw::array::FieldInfo;
    use tiledb_codec::raw::array::{ArrayDirectory, Fragment};
    use tiledb_codec::raw::model::value;
    use tiledb_codec::raw::read::field::read_field;

    let mut seen = 0;
    for f in common::fixtures() {
        let Some(key) = &f.key else { continue };
        seen += 1;
        let opts = read_options(&f);
        let dir = ArrayDirectory::open(&f.path).unwrap();
        let mut ours: Vec<Value> = Vec::new();
        for e in &dir.fragments {
            let frag = Fragment::open(&dir, e, &opts).unwrap();
            let mut names: Vec<String> = Vec::new();
            if !frag.dense {
                names.extend(
                    frag.schema
                        .domain
                        .dimensions
                        .iter()
                        .map(|d| String::from_utf8_lossy(&d.name).into_owned()),
                );
            }
            names.extend(
                frag.schema
                    .attributes
                    .iter()
                    .map(|a| String::from_utf8_lossy(&a.name).into_owned()),
            );
            let mut cells: Vec<serde_json::Map<String, Value>> = Vec::new();
            for name in &names {
                let field = FieldInfo::lookup(&frag.schema, name).unwrap();
                let data = read_field(&frag, &field, &opts)
                    .unwrap_or_else(|e| panic!("{} field {name}: {e}", f.id));
                let n = data.len(field.cell_size());
                cells.resize_with(n.max(cells.len()), Default::default);
                for (i, cell) in cells.iter_mut().enumerate().take(n) {
                    let valid = data.validity.as_ref().is_none_or(|v| v[i] != 0);
                    let v = if valid {
                        value::cell(field.datatype, data.cell(i, field.cell_size()))
                    } else {
                        Value::Null
                    };
                    cell.insert(name.clone(), v);
                }
            }
            ours.extend(cells.into_iter().map(Value::Object));
        }
        let out = common::engine_run(
            "engine_account.py",
            [
                f.path.as_os_str(),
                std::ffi::OsStr::new("--cells"),
                std::ffi::OsStr::new("--key"),
                std::ffi::OsStr::new(key),
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let engine: Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut engine = engine["cells"].as_array().cloned().unwrap();
        let order = |v: &Value| v.to_string();
        ours.sort_by_key(order);
        engine.sort_by_key(order);
        assert!(!ours.is_empty(), "{}: no cells", f.id);
        assert_eq!(Value::Array(ours), Value::Array(engine), "{}: cells", f.id);
    }
    assert!(seen > 0, "no encrypted fixture");
}
