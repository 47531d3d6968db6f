//! The model against every fixture's schema: tables and JSON both ways.

use std::path::{Path, PathBuf};

use crate::array::schema::{read_enumeration, read_schema};
use crate::format::{self, decode_all, encode};
use crate::model::json::{schema_from_json, schema_to_json};
use crate::model::*;
use crate::ReadOptions;

/// Every schema file of every unencrypted array fixture, with the
/// enumeration tables of its array.
fn fixture_schemas() -> Vec<(PathBuf, format::ArraySchema, Vec<format::Enumeration>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    let mut versions: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("MANIFEST.json").is_file())
        .collect();
    versions.sort();
    for v in versions {
        let text = std::fs::read_to_string(v.join("MANIFEST.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        for e in manifest.as_array().unwrap() {
            if e["kind"] != "array" || !e["encrypted_key"].is_null() {
                continue;
            }
            let array = v.join(e["name"].as_str().unwrap());
            let opts = ReadOptions::default();
            let mut enums = Vec::new();
            if let Ok(rd) = std::fs::read_dir(
                array
                    .join(format::hierarchy::SCHEMA)
                    .join(format::hierarchy::ENUMERATIONS),
            ) {
                for f in rd {
                    enums.push(read_enumeration(&f.unwrap().path(), &opts).unwrap());
                }
            }
            let mut files: Vec<PathBuf> = std::fs::read_dir(array.join("__schema"))
                .into_iter()
                .flatten()
                .map(|f| f.unwrap().path())
                .filter(|p| p.is_file())
                .collect();
            let old = array.join("__array_schema.tdb");
            if old.is_file() {
                files.push(old);
            }
            files.sort();
            for f in files {
                let s = read_schema(&f, &opts).unwrap();
                out.push((f, s, enums.clone()));
            }
        }
    }
    assert!(out.len() > 60, "{} schema files", out.len());
    out
}

#[test]
fn tables_round_trip_through_the_model_for_every_fixture() {
    let mut versions = std::collections::BTreeSet::new();
    let mut labels = 0;
    let mut enumerations = 0;
    for (path, table, enums) in fixture_schemas() {
        let s = Schema::from_table(&table, &enums, &path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.version, table.array_version);
        assert_eq!(s.dimensions.len(), table.domain.dimensions.len());
        assert_eq!(s.attributes.len(), table.attributes.len());
        versions.insert(s.version);
        labels += s.dimension_labels.len();
        enumerations += s.enumerations.len();
        let again = s
            .to_table(s.version)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // As a file holds it.
        let back: format::ArraySchema = decode_all(&encode(&again).unwrap(), &path, 0, ()).unwrap();
        assert_eq!(back, again, "{}", path.display());
        let s2 = Schema::from_table(&back, &s.enumeration_tables(), &path).unwrap();
        assert_eq!(s2, s, "{}", path.display());
    }
    assert!(versions.len() >= 4, "{versions:?}");
    assert!(labels > 0 && enumerations > 0, "{labels} {enumerations}");
}

#[test]
fn json_round_trips_through_the_model_for_every_fixture() {
    for (path, table, enums) in fixture_schemas() {
        let s = Schema::from_table(&table, &enums, &path).unwrap();
        let v = schema_to_json(&s);
        let parsed = schema_from_json(&v).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(schema_to_json(&parsed), v, "{}", path.display());
        assert_eq!(parsed.version, s.version);
        assert_eq!(parsed.dimension_labels, s.dimension_labels);
        assert_eq!(parsed.enumerations, s.enumerations);
        // What the JSON cannot say aside, the schemas are the same.
        let norm = |mut x: Schema| {
            for a in &mut x.attributes {
                a.fill_value_valid = false;
            }
            for d in &mut x.dimensions {
                if d.filters.as_ref() == Some(&x.coords_filters) {
                    d.filters = None;
                }
            }
            if x.current_domain == Some(CurrentDomain::Empty) {
                x.current_domain = None;
            }
            x
        };
        assert_eq!(norm(parsed), norm(s), "{}", path.display());
    }
}

fn sample() -> (PathBuf, format::ArraySchema) {
    let (path, table, _) = fixture_schemas()
        .into_iter()
        .find(|(_, t, _)| {
            t.array_version == crate::format::version::FORMAT_VERSION
                && t.enumerations.as_ref().is_some_and(Vec::is_empty)
        })
        .unwrap();
    (path, table)
}

fn decode_error(table: &format::ArraySchema, path: &Path) -> String {
    match Schema::from_table(table, &[], path) {
        Ok(_) => panic!("accepted"),
        Err(e @ crate::error::Error::Decode { .. }) => e.to_string(),
        Err(e) => panic!("not a decode error: {e}"),
    }
}

#[test]
fn hostile_tables_are_decode_errors_naming_the_field() {
    let (path, table) = sample();
    let mut t = table.clone();
    t.attributes[0].datatype = format::Datatype::from_raw(200);
    assert!(decode_error(&t, &path).contains("Attribute.datatype"));
    let mut t = table.clone();
    t.attributes[0].cell_val_num = 0;
    assert!(decode_error(&t, &path).contains("Attribute.cell_val_num"));
    let mut t = table.clone();
    t.domain.dimensions[0].datatype = Some(format::Datatype::from_raw(99));
    assert!(decode_error(&t, &path).contains("Dimension.datatype"));
    let mut t = table.clone();
    t.domain.dimensions[0].domain.pop();
    assert!(decode_error(&t, &path).contains("Dimension.domain"));
    // Codes of closed code tables cannot be built: the bytes are refused.
    // Version 22: array_version (4 bytes), allows_dups, array_type,
    // tile_order, cell_order.
    for (at, code, field) in [
        (5, 7, "ArraySchema.array_type"),
        (6, 42, "ArraySchema.tile_order"),
        (7, 42, "ArraySchema.cell_order"),
    ] {
        let mut bytes = encode(&table).unwrap();
        bytes[at] = code;
        let e = decode_all::<format::ArraySchema>(&bytes, &path, 0, ()).unwrap_err();
        let e = e.to_string();
        assert!(
            e.contains(field) && e.contains(&format!("{code} is not a")),
            "{e}"
        );
    }
    let dims: format::Dims = vec![4].into();
    let e = decode_all::<format::CurrentDomain>(&[0, 0, 0, 0, 0, 5], &path, 0, (dims,))
        .unwrap_err()
        .to_string();
    assert!(e.contains("CurrentDomain.current_domain_type"), "{e}");
    let mut t = table.clone();
    t.coords_filters.filters[0].filter_type = format::FilterType::from_raw(99);
    assert!(decode_error(&t, &path).contains("Filter.filter_type"));
    // An enumeration the schema names must be given.
    let mut t = table.clone();
    t.enumerations = Some(vec![crate::format::table!(format::EnumerationEntry {
        name_length: 1,
        name: b"e".to_vec(),
        filename_length: 1,
        filename: b"f".to_vec(),
    })]);
    assert!(decode_error(&t, &path).contains("ArraySchema.enumerations"));
}

#[test]
fn what_a_version_cannot_store_is_an_error() {
    let (path, table) = sample();
    let mut s = Schema::from_table(&table, &[], &path).unwrap();
    s.enumerations.push(Enumeration::new(
        "e",
        "f",
        Datatype::Int32,
        CellValNum::single(),
        false,
        vec![vec![0; 4]],
    ));
    let e = s.to_table(19).unwrap_err();
    assert_eq!(
        e,
        ModelError::Schema {
            field: "schema.enumerations".into(),
            what: "enumerations need format version 20 or later".into()
        }
    );
    assert!(matches!(s.to_table(0), Err(ModelError::Unsupported(_))));
    let mut s = Schema::from_table(&table, &[], &path).unwrap();
    s.coords_filters = vec![Filter::Delta {
        level: 1,
        reinterpret: Some(Datatype::Int32),
    }];
    let e = s.to_table(18).unwrap_err().to_string();
    assert!(
        e.contains("schema.coords_filters[0]") && e.contains("19"),
        "{e}"
    );
    assert!(s.to_table(19).is_ok());
}

#[test]
fn values_and_ranges_round_trip_through_bytes() {
    let r = DomainRange::from_le_pair(Datatype::Int16, &[1, 0, 0xff, 0xff]).unwrap();
    assert_eq!(r, DomainRange::Int16(Range::new(1, -1)));
    assert_eq!(r.to_le_bytes(), (vec![1, 0], vec![0xff, 0xff]));
    assert!(r.is_of(Datatype::Int16, false) && !r.is_of(Datatype::Uint16, false));
    let d = DomainRange::from_le_pair(Datatype::DatetimeDay, &[0; 16]).unwrap();
    assert_eq!(d, DomainRange::Int64(Range::new(0, 0)));
    assert_eq!(DomainRange::from_le_pair(Datatype::Int32, &[0; 6]), None);
    let s = DomainRange::from_le_bytes(Datatype::StringAscii, true, b"a", b"zz").unwrap();
    assert_eq!(s.as_i128(), None);
    assert_eq!(s.to_le_bytes(), (b"a".to_vec(), b"zz".to_vec()));
    let v = Value::from_le_bytes(Datatype::Float32, &1.5f32.to_le_bytes()).unwrap();
    assert_eq!(v, Value::Float32(1.5));
    assert_eq!(v.to_le_bytes(), 1.5f32.to_le_bytes());
    assert_eq!(Value::from_le_bytes(Datatype::Uint64, &[0; 4]), None);
    assert_eq!(CellValNum::from_raw(0), None);
    assert_eq!(CellValNum::from_raw(u32::MAX), Some(CellValNum::Var));
    assert_eq!(CellValNum::single().to_raw(), 1);
}
