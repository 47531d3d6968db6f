//! Array metadata (format_spec/metadata.md), groups
//! (format_spec/group.md) and single files, as JSON.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Map, Value};

use super::directory::ArrayDirectory;
use crate::error::{Error, Result};
use crate::format::{decode_all, ArrayMetadata, Datatype, GroupDetails, ObjectType};
use crate::storage::MappedFile;
use crate::tile::read_generic_tile;
use crate::value;
use crate::ReadOptions;

/// One metadata value: a string for text types, a number for one value,
/// a list for several.
pub fn metadata_value(dt: u8, bytes: &[u8]) -> Value {
    match Datatype::from_value(dt) {
        Some(t) if value::is_text(t) => json!(String::from_utf8_lossy(bytes)),
        Some(t) => {
            let mut vs = value::values(t, bytes);
            if vs.len() == 1 && !matches!(t, Datatype::Blob) {
                vs.pop().unwrap()
            } else {
                Value::Array(vs)
            }
        }
        None => Value::Array(bytes.iter().map(|b| json!(b)).collect()),
    }
}

/// Merges the metadata files of `__meta`, oldest first: a later entry
/// replaces an earlier one, a deletion removes it.
pub fn read_array_metadata(dir: &ArrayDirectory, opts: &ReadOptions) -> Result<Value> {
    let mut merged: BTreeMap<Vec<u8>, Value> = BTreeMap::new();
    for e in &dir.metadata {
        let file = MappedFile::open(&e.path)?;
        let tile = read_generic_tile(&file, 0, opts)?;
        let md: ArrayMetadata = decode_all(&tile.data, &e.path, 0, ())?;
        for entry in md.entries {
            merged.remove(&entry.key);
            if entry.deletion == 0 {
                let v = metadata_value(
                    entry.value_type.unwrap_or(u8::MAX),
                    entry.value.as_deref().unwrap_or(&[]),
                );
                merged.insert(entry.key, v);
            }
        }
    }
    let mut out = Map::new();
    for (k, v) in merged {
        out.insert(String::from_utf8_lossy(&k).into_owned(), v);
    }
    Ok(Value::Object(out))
}

/// The JSON account of a group: its members (latest details file) and metadata.
pub fn group_json(path: &Path, opts: &ReadOptions) -> Result<Value> {
    let gdir = path.join("__group");
    let mut files: Vec<_> = std::fs::read_dir(&gdir)
        .map_err(|e| Error::io(&gdir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            super::name::parse(&p.file_name().unwrap_or_default().to_string_lossy()).is_some()
        })
        .collect();
    files.sort();
    // Version 2 details accumulate; a deleted member drops out.
    let mut members: BTreeMap<String, Value> = BTreeMap::new();
    for p in &files {
        let file = MappedFile::open(p)?;
        let tile = read_generic_tile(&file, 0, opts)?;
        let details: GroupDetails = decode_all(&tile.data, p, 0, ())?;
        if details.version == 1 {
            members.clear();
        }
        for m in details.members {
            let uri = String::from_utf8_lossy(&m.uri).into_owned();
            let name = m
                .name
                .as_ref()
                .map(|n| String::from_utf8_lossy(n).into_owned());
            let key = name.clone().unwrap_or_else(|| uri.clone());
            if m.deleted.unwrap_or(0) != 0 {
                members.remove(&key);
                continue;
            }
            let ty = ObjectType::from_value(m.object_type).map_or(json!(m.object_type), |t| {
                json!(t.name().to_ascii_lowercase())
            });
            members.insert(
                key,
                json!({"name": name, "uri": uri, "type": ty, "relative": m.relative != 0}),
            );
        }
    }
    let dir = ArrayDirectory::open(path)?;
    Ok(json!({
        "kind": "group",
        "path": path.display().to_string(),
        "members": members.into_values().collect::<Vec<_>>(),
        "metadata": read_array_metadata(&dir, opts)?,
    }))
}

/// The JSON account of one file, decoded by what its name says it is.
pub fn file_json(path: &Path, opts: &ReadOptions) -> Result<Value> {
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let file = MappedFile::open(path)?;
    let tile_json = |what: &str, data: Value, header: &crate::format::GenericTileHeader| {
        json!({"kind": "file", "path": path.display().to_string(), "what": what,
               "generic_tile_header": serde_json::to_value(header).unwrap_or(Value::Null), "content": data})
    };
    if name == "__array_schema.tdb" || parent == "__schema" {
        let t = read_generic_tile(&file, 0, opts)?;
        let s: crate::format::ArraySchema = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "array schema",
            crate::inspect::schema_json(&s),
            &t.header,
        ));
    }
    if parent == "__meta" && !name.contains('.') {
        let t = read_generic_tile(&file, 0, opts)?;
        let md: ArrayMetadata = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "array metadata",
            serde_json::to_value(&md).unwrap_or(Value::Null),
            &t.header,
        ));
    }
    if parent == "__enumerations" {
        let t = read_generic_tile(&file, 0, opts)?;
        let e: crate::format::Enumeration = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "enumeration",
            serde_json::to_value(&e).unwrap_or(Value::Null),
            &t.header,
        ));
    }
    if parent == "__group" {
        let t = read_generic_tile(&file, 0, opts)?;
        let g: GroupDetails = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "group details",
            serde_json::to_value(&g).unwrap_or(Value::Null),
            &t.header,
        ));
    }
    if name == "__fragment_metadata.tdb" {
        let frag_dir = path.parent().unwrap_or(path);
        let mut v = crate::inspect::inspect_json(frag_dir, opts)?;
        v["kind"] = json!("file");
        v["what"] = json!("fragment metadata");
        return Ok(v);
    }
    let text_list = |what: &str, lines: Vec<Vec<u8>>| {
        json!({"kind": "file", "path": path.display().to_string(), "what": what,
               "content": lines.iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect::<Vec<_>>()})
    };
    match name.rsplit('.').next() {
        Some("vac") => {
            let v: crate::format::VacuumFile = decode_all(file.bytes(), path, 0, ())?;
            return Ok(text_list(
                "vacuum file",
                v.entries.into_iter().map(|e| e.uri).collect(),
            ));
        }
        Some("ign") => {
            let v: crate::format::IgnoreFile = decode_all(file.bytes(), path, 0, ())?;
            return Ok(text_list(
                "ignore file",
                v.entries.into_iter().map(|e| e.uri).collect(),
            ));
        }
        Some("con") => {
            let v: crate::format::ConsolidatedCommits = decode_all(file.bytes(), path, 0, ())?;
            return Ok(text_list(
                "consolidated commits",
                v.entries.into_iter().map(|e| e.uri).collect(),
            ));
        }
        Some("wrt") | Some("ok") => {
            return Ok(
                json!({"kind": "file", "path": path.display().to_string(), "what": "commit marker", "size": file.len()}),
            );
        }
        _ => {}
    }
    // Anything else: a generic tile, if it is one.
    let t = read_generic_tile(&file, 0, opts)?;
    Ok(tile_json(
        "generic tile",
        json!({"tile_size": t.data.len()}),
        &t.header,
    ))
}
