//! Schemas from JSON: `schema_json(decode(build(x)))` gives `x` back for
//! every fixture's schema, the tables equal the engine's own (version 22
//! fixtures), and mistakes are named.

use crate::write_support;

use serde_json::{json, Value};
use tiledb_codec::raw::array::schema::{read_enumeration, read_schema};
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::format::{decode_all, encode, ArraySchema};
use tiledb_codec::raw::model::SchemaTables;
use tiledb_codec::raw::write::{build_schema, create_array, WriteError};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect;
use write_support::{common, schema_json_with_enumerations, TempDir};

fn fixture_schemas() -> Vec<(String, std::path::PathBuf, ArraySchema)> {
    let mut out = Vec::new();
    for f in common::fixtures() {
        if f.kind != "array" || f.key.is_some() {
            continue;
        }
        let dir = ArrayDirectory::open(&f.path).unwrap();
        let s = read_schema(&dir.latest_schema().unwrap(), &ReadOptions::default()).unwrap();
        out.push((f.id, f.path, s));
    }
    out
}

/// The account of a schema table (enumerations by name only).
fn schema_json(s: &ArraySchema) -> Value {
    inspect::schema_json(s, std::path::Path::new("schema")).unwrap()
}

fn without_version(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("version");
    v
}

#[test]
fn schema_json_round_trips_for_every_fixture() {
    let mut checked = 0;
    for (id, path, s) in fixture_schemas() {
        let given = schema_json_with_enumerations(&path);
        let spec = build_schema(&given).unwrap_or_else(|e| panic!("{id}: {e}"));
        let table = spec.to_table(22).unwrap();
        // Through bytes and back, as a file would hold it.
        let bytes = encode(&table).unwrap();
        let back: ArraySchema = decode_all(&bytes, std::path::Path::new(&id), 0, ()).unwrap();
        assert_eq!(back, table, "{id}");
        assert_eq!(
            without_version(schema_json(&back)),
            without_version(schema_json(&s)),
            "{id}"
        );
        // schema_json's own output (enumerations by name only) round-trips
        // when there are no enumerations.
        if s.enumerations.as_ref().is_none_or(|e| e.is_empty()) {
            let plain = schema_json(&s);
            let again = build_schema(&plain).unwrap().to_table(22).unwrap();
            assert_eq!(
                without_version(schema_json(&again)),
                without_version(plain),
                "{id}"
            );
        }
        checked += 1;
    }
    assert!(checked > 50);
}

#[test]
fn version_22_tables_equal_the_engines() {
    let mut checked = 0;
    for (id, path, s) in fixture_schemas() {
        if s.array_version != 22 {
            continue;
        }
        let mut ours = build_schema(&schema_json_with_enumerations(&path))
            .unwrap()
            .to_table(22)
            .unwrap();
        // Fill values of NaN: the JSON says "NaN", the engine's bytes may
        // carry another NaN payload.
        for (a, b) in ours.attributes.iter_mut().zip(&s.attributes) {
            if a.fill_value != b.fill_value && schema_json(&s)["attributes"].is_array() {
                let nan = |v: &[u8]| match v.len() {
                    4 => f32::from_le_bytes(v.try_into().unwrap()).is_nan(),
                    8 => f64::from_le_bytes(v.try_into().unwrap()).is_nan(),
                    _ => false,
                };
                if let (Some(x), Some(y)) = (&a.fill_value, &b.fill_value) {
                    if nan(x) && nan(y) {
                        a.fill_value = b.fill_value.clone();
                    }
                }
            }
        }
        // The engine keeps dimension labels, which schema_json does not show.
        if s.num_labels != Some(0) {
            ours.num_labels = s.num_labels;
            ours.labels = s.labels.clone();
        }
        // A dimension's pipeline: empty means the coords filters; the engine
        // stores either (schema evolution writes them out), the JSON cannot
        // tell.
        let mut s = s.clone();
        for d in &mut s.domain.dimensions {
            if d.filters.as_ref().map(|p| &p.filters) == Some(&s.coords_filters.filters) {
                d.filters.as_mut().unwrap().filters.clear();
                d.filters.as_mut().unwrap().num_filters = 0;
            }
        }
        assert_eq!(ours, s, "{id}");
        // And the enumeration files.
        for e in s.enumerations.iter().flatten() {
            let name = String::from_utf8_lossy(&e.filename).into_owned();
            let theirs = read_enumeration(
                &path.join("__schema/__enumerations").join(&name),
                &ReadOptions::default(),
            )
            .unwrap();
            let spec = build_schema(&schema_json_with_enumerations(&path)).unwrap();
            let mine = spec
                .enumeration_tables()
                .into_iter()
                .find(|x| x.path_name == e.filename)
                .unwrap();
            assert_eq!(mine, theirs, "{id} enumeration {name}");
        }
        checked += 1;
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn created_arrays_open_in_the_engine() {
    let tmp = TempDir::new("write-schema");
    let schema = json!({
        "array_type": "sparse",
        "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 99], "tile_extent": 10}],
        "attributes": [{"name": "a", "datatype": "FLOAT32"}],
    });
    let path = tmp.join("a");
    create_array(&path, &schema).unwrap();
    let acc = write_support::engine_account(&path).unwrap();
    assert_eq!(acc["schema"]["array_type"], "sparse");
    assert_eq!(acc["schema"]["capacity"], 10000);
    assert_eq!(acc["schema"]["attributes"][0]["fill_value"], "NaN");
    assert_eq!(acc["fragments"], json!([]));
    // Creating it again fails.
    let e = create_array(&path, &schema).unwrap_err();
    assert!(matches!(e, WriteError::Array { .. }), "{e}");
    assert!(e.to_string().contains("already exists"), "{e}");
}

fn schema_error(v: Value) -> String {
    match build_schema(&v) {
        Ok(_) => panic!("accepted {v}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn schema_errors_name_the_field() {
    let base = json!({
        "array_type": "dense",
        "dimensions": [{"name": "d", "datatype": "INT32", "domain": [0, 9], "tile_extent": 5}],
        "attributes": [{"name": "a", "datatype": "INT32", "filters": [{"type": "ZSTD", "level": 3}]}],
    });
    let with = |path: &[&str], v: Value| {
        let mut s = base.clone();
        let mut cur = &mut s;
        for p in &path[..path.len() - 1] {
            cur = match p.parse::<usize>() {
                Ok(i) => &mut cur[i],
                Err(_) => &mut cur[*p],
            };
        }
        cur[path[path.len() - 1]] = v;
        s
    };
    let e = schema_error(with(&["attributes", "0", "datatype"], json!("INT33")));
    assert!(
        e.contains("schema.attributes[0].datatype") && e.contains("unknown datatype"),
        "{e}"
    );
    let e = schema_error(with(
        &["attributes", "0", "filters"],
        json!([{"type": "ZSTDX"}]),
    ));
    assert!(
        e.contains("schema.attributes[0].filters[0].type") && e.contains("unknown filter"),
        "{e}"
    );
    let e = schema_error(with(
        &["attributes", "0", "filters"],
        json!([{"type": "BITSHUFFLE", "level": 1}]),
    ));
    assert!(
        e.contains("schema.attributes[0].filters[0].level") && e.contains("unknown key"),
        "{e}"
    );
    let mut s = base.clone();
    s["dimensions"][0].as_object_mut().unwrap().remove("domain");
    let e = schema_error(s);
    assert!(
        e.contains("schema.dimensions[0].domain") && e.contains("missing key"),
        "{e}"
    );
    let mut s = base.clone();
    s.as_object_mut().unwrap().remove("array_type");
    let e = schema_error(s);
    assert!(e.contains("schema.array_type: missing key"), "{e}");
    let e = schema_error(with(&["dimensions", "0", "datatype"], json!("FLOAT64")));
    assert!(e.contains("dense arrays take integer"), "{e}");
    let e = schema_error(with(&["dimensions", "0", "tile_extent"], json!(20)));
    assert!(e.contains("schema.dimensions[0].tile_extent"), "{e}");
    let e = schema_error(with(&["attributes", "0", "fill_value"], json!("x")));
    assert!(e.contains("schema.attributes[0].fill_value"), "{e}");
    let e = schema_error(with(&["attributes", "0", "name"], json!("d")));
    assert!(e.contains("used twice"), "{e}");
    let e = schema_error(with(&["attributes", "0", "enumeration"], json!("colors")));
    assert!(e.contains("no enumeration \"colors\""), "{e}");
    let e = schema_error(with(&["cell_order"], json!("hilbert")));
    assert!(e.contains("Hilbert"), "{e}");
    // schema_json's bare enumeration entries are refused clearly.
    let mut s = with(&["attributes", "0", "enumeration"], json!("colors"));
    s["enumerations"] = json!([{"name": "colors", "filename": "__x_0"}]);
    let e = schema_error(s);
    assert!(
        e.contains("schema.enumerations[0].values") && e.contains("no values"),
        "{e}"
    );
    let e = schema_error(with(&["coords_filters"], json!([{"type": "AES_256_GCM"}])));
    assert!(e.contains("encrypted"), "{e}");
}
