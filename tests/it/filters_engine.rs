//! Every field of every single-fragment fixture, read tile by tile through
//! its filter pipeline, equals the TileDB engine's own read of the array in
//! global order (which, for one fragment, is the order of the tiles on
//! disk). This is where each filter proves it decodes what the engine wrote.

use crate::common;

use serde_json::{json, Value};
use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::array::{ArrayDirectory, Fragment};
use tiledb_codec::raw::model::value;
use tiledb_codec::raw::read::field::read_field;
use tiledb_codec::ReadOptions;

/// The engine's cells of the array, in global order.
fn engine_cells(path: &std::path::Path, key: Option<&str>) -> Vec<Value> {
    let mut args = vec![
        path.as_os_str(),
        std::ffi::OsStr::new("--cells"),
        std::ffi::OsStr::new("--order"),
        std::ffi::OsStr::new("G"),
    ];
    if let Some(k) = key {
        args.extend([std::ffi::OsStr::new("--key"), std::ffi::OsStr::new(k)]);
    }
    let out = common::engine_run("engine_account.py", args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["cells"].as_array().cloned().unwrap_or_default()
}

/// A cell as the engine's account shows it.
fn cell_json(field: &FieldInfo, bytes: &[u8]) -> Value {
    if field.cell_val_num.is_none() && !value::is_text(field.datatype) {
        let vs = value::values(field.datatype, bytes);
        return match field.datatype {
            tiledb_codec::raw::format::Datatype::Blob
            | tiledb_codec::raw::format::Datatype::Any => Value::Array(vs),
            _ => Value::Array(vs),
        };
    }
    value::cell(field.datatype, bytes)
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Array(x), y) if x.len() == 1 => same(&x[0], y),
        _ => a == b,
    }
}

#[test]
fn every_single_fragment_fixture_decodes_to_the_engine_values() {
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        // An encrypted fixture is read with its key: the 32 bytes of the string.
        let opts = match &f.key {
            Some(k) => {
                ReadOptions::default().with_key(k.as_bytes().try_into().expect("a 32-byte key"))
            }
            None => ReadOptions::default(),
        };
        let dir = ArrayDirectory::open(&f.path).unwrap();
        if dir.fragments.len() != 1 || !dir.deletes.is_empty() {
            continue;
        }
        let frag = Fragment::open(&dir, &dir.fragments[0], &opts).unwrap();
        if let tiledb_codec::raw::array::fragment::Metadata::Footer(ft) = &frag.metadata {
            // A fragment consolidated with timestamps keeps overwritten cells;
            // the engine shows the newest only (issue 4 reads those).
            if ft.includes_timestamps == Some(1) {
                continue;
            }
        }
        let engine = engine_cells(&f.path, f.key.as_deref());
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
        for name in names {
            let field = FieldInfo::lookup(&frag.schema, &name).unwrap();
            let what = format!(
                "{} field {name:?} ({} {:?})",
                f.id,
                field.datatype.name(),
                field
                    .filters
                    .iter()
                    .map(|x| x.filter_type)
                    .collect::<Vec<_>>()
            );
            let data = match read_field(&frag, &field, &opts) {
                Ok(d) => d,
                Err(e) => {
                    failures.push(format!("{what}: {e}"));
                    continue;
                }
            };
            let n = data.len(field.cell_size());
            // Which engine cell each of our cells is: sparse fragments store
            // cells in global order; a 1-D dense fragment stores whole space
            // tiles from the first tile its non-empty domain touches, and
            // only the cells inside that domain were written.
            let pairs: Vec<(usize, &Value)> = if frag.dense {
                let dims = &frag.schema.domain.dimensions;
                if dims.len() != 1 {
                    continue; // multi-dimensional dense layouts: issue 4's reader
                }
                let dim = String::from_utf8_lossy(&dims[0].name).into_owned();
                let ned = frag.non_empty_domain().unwrap().unwrap();
                let r = ned[0].as_i128().unwrap();
                let (lo, hi) = (r.start as i64, r.end as i64);
                let dt = dims[0].datatype.unwrap().known().unwrap();
                let dom_lo = value::cell(dt, &dims[0].domain[..dims[0].domain.len() / 2])
                    .as_i64()
                    .unwrap();
                let ext = value::cell(dt, &dims[0].tile_extent).as_i64().unwrap();
                let first = dom_lo + (lo - dom_lo).div_euclid(ext) * ext;
                let by_coord: std::collections::HashMap<i64, &Value> = engine
                    .iter()
                    .map(|e| (e[&dim].as_i64().unwrap(), e))
                    .collect();
                (0..n)
                    .filter(|i| (lo..=hi).contains(&(first + *i as i64)))
                    .map(|i| (i, by_coord[&(first + i as i64)]))
                    .collect()
            } else {
                assert_eq!(n, engine.len(), "{what}: cells");
                engine.iter().enumerate().collect()
            };
            for (i, e) in pairs {
                let key = if name.is_empty() && e.get("").is_none() {
                    "__attr"
                } else {
                    name.as_str()
                };
                let valid = data.validity.as_ref().is_none_or(|v| v[i] != 0);
                let ours = if valid {
                    cell_json(&field, data.cell(i, field.cell_size()))
                } else {
                    json!(null)
                };
                if !same(&ours, &e[key]) {
                    failures.push(format!("{what}: cell {i}: ours {ours}, engine {}", e[key]));
                    break;
                }
            }
            checked.push(what);
        }
    }
    assert!(checked.len() > 20, "only {} fields checked", checked.len());
    assert!(
        failures.is_empty(),
        "{} of {} fields differ:\n{}",
        failures.len(),
        checked.len() + failures.len(),
        failures.join("\n")
    );
}
