//! Describes what a path holds, as JSON: the typed model ([`tiledb_codec::raw::model`])
//! where there is one, the decoded tables where not.

use std::path::Path;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use tiledb_codec::raw::array::directory::{ArrayDirectory, Entry};
use tiledb_codec::raw::array::fragment::{Fragment, Metadata as FragmentMetadata};
use tiledb_codec::raw::array::schema::dimension_datatype;
use tiledb_codec::raw::array::{metadata, schema};
use tiledb_codec::raw::error::{Error, Result};
use tiledb_codec::raw::format::hierarchy;
use tiledb_codec::raw::format::{
    decode_all, ArrayMetadata, ArraySchema, Datatype, GroupDetails, OptionalSectionIdentifier,
    TileGlobalOrderBounds,
};
use tiledb_codec::raw::model::value;
use tiledb_codec::raw::model::{json, MetadataValue, Schema, SchemaTables};
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::read_generic_tile;
use tiledb_codec::ReadOptions;

/// Where the enumerations of the array at `array` are: the file
/// `__schema/__enumerations/<filename>` of each (a plain file name only,
/// since the name comes from the schema file).
/// The schema of the array at `array` whose table is `s` (read from
/// `schema_path`), with its enumerations read from their files
/// (format_spec/enumeration.md).
pub fn read_array_schema(
    array: &Path,
    s: &ArraySchema,
    schema_path: &Path,
    opts: &ReadOptions,
) -> Result<Schema> {
    schema::read_typed_schema(
        &tiledb_codec::raw::storage::LocalStorage,
        array,
        s,
        schema_path,
        opts,
    )
}

/// An array schema table (of the file at `path`) as JSON. Its enumerations
/// are named only (name and filename): their values are in files of their
/// own, which [`array_schema_json`] adds for `inspect --json` of an array.
pub fn schema_json(s: &ArraySchema, path: &Path) -> Result<Value> {
    let mut bare = s.clone();
    if let Some(e) = bare.enumerations.as_mut() {
        e.clear();
    }
    let mut v = json::schema_to_json(&<Schema as SchemaTables>::from_table(&bare, &[], path)?);
    v["enumerations"] = Value::Array(
        s.enumerations
            .iter()
            .flatten()
            .map(|e| {
                json!({
                    "name": String::from_utf8_lossy(&e.name),
                    "filename": String::from_utf8_lossy(&e.filename),
                })
            })
            .collect(),
    );
    Ok(v)
}

/// The `"schema"` object of `inspect --json` of an array: the schema with
/// each enumeration's values, read from `__schema/__enumerations/<filename>`.
pub fn array_schema_json(array: &Path, s: &ArraySchema, opts: &ReadOptions) -> Result<Value> {
    Ok(json::schema_to_json(&read_array_schema(
        array, s, array, opts,
    )?))
}

/// One metadata value: a string for text types, a number for one value,
/// a list for several.
pub fn metadata_value(v: &MetadataValue) -> Value {
    let t = v.datatype;
    if value::is_text(t) {
        return json!(String::from_utf8_lossy(&v.bytes));
    }
    let mut vs = value::values(t, &v.bytes);
    if vs.len() == 1 && !matches!(t, Datatype::Blob) {
        vs.pop().unwrap_or(Value::Null)
    } else {
        Value::Array(vs)
    }
}

/// Array or group metadata as one JSON object, key by key.
pub fn metadata_json(md: &BTreeMap<String, MetadataValue>) -> Value {
    Value::Object(
        md.iter()
            .map(|(k, v)| (k.clone(), metadata_value(v)))
            .collect(),
    )
}

/// The JSON account of a group: its members (latest details file) and metadata.
pub fn group_json(path: &Path, opts: &ReadOptions) -> Result<Value> {
    let members: Vec<Value> = metadata::read_group_members(path, opts)?
        .into_iter()
        .map(|m| {
            let ty = m
                .object_type
                .known()
                .map_or(json!(m.object_type.value()), |t| {
                    json!(t.name().to_ascii_lowercase())
                });
            json!({"name": m.name, "uri": m.uri, "type": ty, "relative": m.relative})
        })
        .collect();
    let dir = ArrayDirectory::open(path)?;
    Ok(json!({
        "kind": "group",
        "path": path.display().to_string(),
        "members": members,
        "metadata": metadata_json(&metadata::read_array_metadata(&dir, opts)?),
    }))
}

/// A fragment's non-empty domain, one `[lo, hi]` per dimension (null
/// where the fragment has none or it does not decode).
fn non_empty_domain_json(frag: &Fragment) -> Value {
    let Ok(Some(ned)) = frag.non_empty_domain() else {
        return Value::Null;
    };
    let s = &frag.schema;
    Value::Array(
        ned.iter()
            .zip(&s.domain.dimensions)
            .map(|(r, d)| match dimension_datatype(s, d).known() {
                Some(dt) => json::range_to_json(dt, r),
                None => Value::Null,
            })
            .collect(),
    )
}

/// The footer's optional sections as `inspect --json` shows them: the
/// identifier, its name when the format defines it, the data size, and
/// the decoded payload of known sections (unknown ones are skipped).
fn optional_sections_json(frag: &Fragment) -> Value {
    let FragmentMetadata::Footer(f) = &frag.metadata else {
        return Value::Null;
    };
    let Some(sections) = &f.optional_sections else {
        return Value::Null;
    };
    let d = frag.schema.domain.dimensions.len() as u64;
    Value::Array(
        sections
            .iter()
            .map(|s| {
                let known = s.identifier.known();
                let mut v = json!({
                    "identifier": s.identifier.value(),
                    "name": known.map(|k| k.name()),
                    "data_size": s.data_size,
                });
                if known == Some(OptionalSectionIdentifier::TileGlobalOrderOffsets) {
                    if let Ok(b) =
                        decode_all::<TileGlobalOrderBounds>(&s.data, frag.metadata_path(), 0, (d,))
                    {
                        v["tile_global_order_bounds"] = json!({
                            "min_offsets": b.min_offsets,
                            "max_offsets": b.max_offsets,
                        });
                    }
                }
                v
            })
            .collect(),
    )
}

/// The account of a fragment in `inspect --json`.
pub fn fragment_json(frag: &Fragment) -> Value {
    let footer = match &frag.metadata {
        FragmentMetadata::Footer(f) => serde_json::to_value(f).unwrap_or(Value::Null),
        FragmentMetadata::Legacy(l) => serde_json::to_value(l).unwrap_or(Value::Null),
    };
    let array_type = frag.schema.array_type.name().to_ascii_lowercase();
    let mut out = json!({
        "name": frag.name.name,
        "version": frag.version(),
        "timestamps": [frag.name.t1, frag.name.t2],
        "non_empty_domain": non_empty_domain_json(frag),
        "dense": frag.dense,
        "cell_num": frag.cell_num(),
        "array_schema_name": frag.schema_name,
        "array_type": array_type,
        "footer": footer,
    });
    // Footers have optional sections from version 23 on only.
    let sections = optional_sections_json(frag);
    if !sections.is_null() {
        out["optional_sections"] = sections;
    }
    out
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
    let tile_json = |what: &str,
                     data: Value,
                     header: &tiledb_codec::raw::format::GenericTileHeader| {
        json!({"kind": "file", "path": path.display().to_string(), "what": what,
               "generic_tile_header": serde_json::to_value(header).unwrap_or(Value::Null), "content": data})
    };
    if name == hierarchy::LEGACY_SCHEMA || parent == hierarchy::SCHEMA {
        let t = read_generic_tile(&file, 0, opts)?;
        let s: tiledb_codec::raw::format::ArraySchema = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json("array schema", schema_json(&s, path)?, &t.header));
    }
    if parent == hierarchy::META && !name.contains('.') {
        let t = read_generic_tile(&file, 0, opts)?;
        let md: ArrayMetadata = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "array metadata",
            serde_json::to_value(&md).unwrap_or(Value::Null),
            &t.header,
        ));
    }
    if parent == hierarchy::ENUMERATIONS {
        let t = read_generic_tile(&file, 0, opts)?;
        let e: tiledb_codec::raw::format::Enumeration = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "enumeration",
            serde_json::to_value(&e).unwrap_or(Value::Null),
            &t.header,
        ));
    }
    if parent == hierarchy::GROUP {
        let t = read_generic_tile(&file, 0, opts)?;
        let g: GroupDetails = decode_all(&t.data, path, 0, ())?;
        return Ok(tile_json(
            "group details",
            serde_json::to_value(&g).unwrap_or(Value::Null),
            &t.header,
        ));
    }
    if name == hierarchy::FRAGMENT_METADATA {
        let frag_dir = path.parent().unwrap_or(path);
        let mut v = inspect_json(frag_dir, opts)?;
        v["kind"] = json!("file");
        v["what"] = json!("fragment metadata");
        return Ok(v);
    }
    let text_list = |what: &str, lines: Vec<Vec<u8>>| {
        json!({"kind": "file", "path": path.display().to_string(), "what": what,
               "content": lines.iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect::<Vec<_>>()})
    };
    // The extension with its dot, as `format::hierarchy` spells it.
    let ext = name.rfind('.').map_or("", |i| &name[i..]);
    match ext {
        hierarchy::VAC => {
            let v: tiledb_codec::raw::format::VacuumFile = decode_all(file.bytes(), path, 0, ())?;
            return Ok(text_list(
                "vacuum file",
                v.entries.into_iter().map(|e| e.uri).collect(),
            ));
        }
        hierarchy::IGN => {
            let v: tiledb_codec::raw::format::IgnoreFile = decode_all(file.bytes(), path, 0, ())?;
            return Ok(text_list(
                "ignore file",
                v.entries.into_iter().map(|e| e.uri).collect(),
            ));
        }
        hierarchy::CON => {
            let v: tiledb_codec::raw::format::ConsolidatedCommits =
                decode_all(file.bytes(), path, 0, ())?;
            return Ok(text_list(
                "consolidated commits",
                v.entries.into_iter().map(|e| e.uri).collect(),
            ));
        }
        hierarchy::WRT | hierarchy::OK => {
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

/// What kind of thing a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An array folder.
    Array,
    /// A group folder.
    Group,
    /// A fragment folder of an array.
    Fragment,
    /// One file.
    File,
}

/// Decides what `path` is.
pub fn kind(path: &Path) -> Result<Kind> {
    if path.is_file() {
        return Ok(Kind::File);
    }
    if !path.is_dir() {
        return Err(Error::NotTileDb {
            path: path.to_path_buf(),
            what: "no such file or folder".into(),
        });
    }
    if path.join(hierarchy::GROUP_MARKER).exists() || path.join(hierarchy::GROUP).is_dir() {
        return Ok(Kind::Group);
    }
    if path.join(hierarchy::FRAGMENT_METADATA).is_file() {
        return Ok(Kind::Fragment);
    }
    if path.join(hierarchy::SCHEMA).is_dir() || path.join(hierarchy::LEGACY_SCHEMA).is_file() {
        return Ok(Kind::Array);
    }
    Err(Error::NotTileDb {
        path: path.to_path_buf(),
        what: "neither a TileDB array, group, fragment nor file".into(),
    })
}

/// The JSON account of an array: schema, fragments, metadata.
pub fn array_json(path: &Path, opts: &ReadOptions) -> Result<Value> {
    let dir = ArrayDirectory::open(path)?;
    let schema_path = dir.latest_schema().ok_or_else(|| Error::NotTileDb {
        path: path.to_path_buf(),
        what: "the array has no schema".into(),
    })?;
    let s = schema::read_schema(&schema_path, opts)?;
    let mut fragments = Vec::new();
    for e in &dir.fragments {
        let frag = Fragment::open(&dir, e, opts)?;
        fragments.push(fragment_json(&frag));
    }
    let meta = metadata_json(&metadata::read_array_metadata(&dir, opts)?);
    Ok(json!({
        "kind": "array",
        "path": path.display().to_string(),
        "schema": json::schema_to_json(&read_array_schema(path, &s, &schema_path, opts)?),
        "schema_name": schema_path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "fragments": fragments,
        "metadata": meta,
    }))
}

/// The JSON account of any path.
pub fn inspect_json(path: &Path, opts: &ReadOptions) -> Result<Value> {
    match kind(path)? {
        Kind::Array => array_json(path, opts),
        Kind::Group => group_json(path, opts),
        Kind::Fragment => {
            // From version 12 fragments sit in `__fragments/`; before, in the array folder.
            let array = match path.parent() {
                Some(p) if p.file_name().is_some_and(|n| n == hierarchy::FRAGMENTS) => p.parent(),
                other => other,
            };
            let array = array.ok_or_else(|| Error::NotTileDb {
                path: path.to_path_buf(),
                what: "a fragment folder must sit inside an array".into(),
            })?;
            let dir = ArrayDirectory::open(array)?;
            let name = tiledb_codec::raw::array::name::parse(&path.to_string_lossy()).ok_or_else(
                || Error::NotTileDb {
                    path: path.to_path_buf(),
                    what: "the folder name is not a timestamped name".into(),
                },
            )?;
            let entry = Entry::new(path.to_path_buf(), name);
            let frag = Fragment::open(&dir, &entry, opts)?;
            let mut v = fragment_json(&frag);
            v["kind"] = json!("fragment");
            Ok(v)
        }
        Kind::File => file_json(path, opts),
    }
}

/// A readable tree of a JSON account, for the terminal.
pub fn tree(v: &Value) -> String {
    let mut out = String::new();
    walk(v, "", &mut out);
    out
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) && a.len() <= 16 => {
            Some(format!(
                "[{}]",
                a.iter()
                    .map(|x| scalar(x).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        }
        Value::Array(_) | Value::Object(_) => None,
        Value::String(s) => Some(crate::summary::escape_controls(s).into_owned()),
        other => Some(other.to_string()),
    }
}

use crate::summary::escape_controls as esc;

fn walk(v: &Value, indent: &str, out: &mut String) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match scalar(x) {
                    Some(s) => out.push_str(&format!("{indent}{}: {s}\n", esc(k))),
                    None => {
                        out.push_str(&format!("{indent}{}\n", esc(k)));
                        walk(x, &format!("{indent}  "), out);
                    }
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                match scalar(x) {
                    Some(s) => out.push_str(&format!("{indent}- {s}\n")),
                    None => {
                        let label = x
                            .get("name")
                            .and_then(Value::as_str)
                            .map(|n| esc(n).into_owned())
                            .unwrap_or_else(|| format!("[{i}]"));
                        out.push_str(&format!("{indent}- {label}\n"));
                        walk(x, &format!("{indent}    "), out);
                    }
                }
            }
        }
        other => out.push_str(&format!("{indent}{}\n", scalar(other).unwrap_or_default())),
    }
}
