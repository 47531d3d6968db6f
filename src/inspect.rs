//! Describes what a path holds, as JSON, from the decoded tables.

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::array::schema::dimension_datatype;
use crate::array::{directory::ArrayDirectory, fragment::Fragment, metadata, schema};
use crate::error::{Error, Result};
use crate::filters::ReadOptions;
use crate::format::{
    ArraySchema, ArrayType, Datatype, Enumeration, Filter, FilterOptions, FilterPipeline,
    FilterType, Layout,
};
use crate::value;

fn layout_name(code: u8) -> Value {
    match Layout::from_value(code) {
        Some(l) => json!(l.name().to_ascii_lowercase().replace('_', "-")),
        None => json!(code),
    }
}

fn datatype(code: u8) -> Value {
    match Datatype::from_value(code) {
        Some(d) => json!(d.name()),
        None => json!(code),
    }
}

fn cell_val_num(n: u32) -> Value {
    if n == u32::MAX {
        json!("var")
    } else {
        json!(n)
    }
}

/// A filter as `{"type": NAME, option: value, ...}`.
pub fn filter_json(f: &Filter) -> Value {
    let mut m = Map::new();
    let ty =
        FilterType::from_value(f.filter_type).map_or(json!(f.filter_type), |t| json!(t.name()));
    m.insert("type".into(), ty);
    match &f.filter_options {
        FilterOptions::Compressor(o) => {
            m.insert("level".into(), json!(o.compression_level));
            // DELTA and DOUBLE_DELTA reinterpret as ANY (no reinterpretation)
            // when the version predates the option, as the engine does.
            let delta = matches!(
                FilterType::from_value(f.filter_type),
                Some(FilterType::Delta | FilterType::DoubleDelta)
            );
            if let Some(r) = o
                .reinterpret_datatype
                .or(delta.then_some(Datatype::Any.value()))
            {
                m.insert("reinterpret_datatype".into(), datatype(r));
            }
        }
        FilterOptions::BitWidthReduction(o) => {
            m.insert("max_window_size".into(), json!(o.max_window_size));
        }
        FilterOptions::PositiveDelta(o) => {
            m.insert("max_window_size".into(), json!(o.max_window_size));
        }
        FilterOptions::FloatScale(o) => {
            m.insert("scale".into(), json!(o.scale));
            m.insert("offset".into(), json!(o.offset));
            m.insert("byte_width".into(), json!(o.byte_width));
        }
        FilterOptions::Webp(o) => {
            m.insert("quality".into(), json!(o.quality));
            let format = crate::format::WebpInputFormat::from_value(o.input_format)
                .map_or(json!(o.input_format), |f| json!(f.name()));
            m.insert("input_format".into(), format);
            m.insert("lossless".into(), json!(o.lossless != 0));
        }
        FilterOptions::NoOptions => {}
    }
    Value::Object(m)
}

fn pipeline_json(p: &FilterPipeline) -> Value {
    Value::Array(p.filters.iter().map(filter_json).collect())
}

fn range_json(dt: u8, bytes: &[u8]) -> Value {
    match Datatype::from_value(dt) {
        Some(d) if !bytes.is_empty() => {
            let half = bytes.len() / 2;
            json!([
                value::cell(d, &bytes[..half]),
                value::cell(d, &bytes[half..])
            ])
        }
        _ => Value::Null,
    }
}

/// An array schema table as JSON. Its enumerations are named only (name and
/// filename): their values are in files of their own, which
/// [`array_schema_json`] adds for `inspect --json` of an array.
pub fn schema_json(s: &ArraySchema) -> Value {
    let dims: Vec<Value> = s
        .domain
        .dimensions
        .iter()
        .map(|d| {
            let dt = dimension_datatype(s, d);
            let extent = match Datatype::from_value(dt) {
                Some(t) if !d.tile_extent.is_empty() => value::cell(t, &d.tile_extent),
                _ => Value::Null,
            };
            // An empty dimension pipeline means "the coords filters" (the
            // engine substitutes them on read, tiledb/sm/array_schema/dimension.cc);
            // schemas before version 5 store none, and dimensions have none.
            let filters = match &d.filters {
                Some(p) if p.filters.is_empty() => pipeline_json(&s.coords_filters),
                Some(p) => pipeline_json(p),
                None => json!([]),
            };
            json!({
                "name": String::from_utf8_lossy(&d.name),
                "datatype": datatype(dt),
                "cell_val_num": cell_val_num(d.cell_val_num.unwrap_or(1)),
                "domain": range_json(dt, &d.domain),
                "tile_extent": extent,
                "filters": filters,
            })
        })
        .collect();
    let attrs: Vec<Value> = s
        .attributes
        .iter()
        .map(|a| {
            let fill = match (Datatype::from_value(a.datatype), &a.fill_value) {
                (Some(t), Some(v)) => value::cell(t, v),
                _ => Value::Null,
            };
            let enumeration = a
                .enumeration_name
                .as_ref()
                .filter(|n| !n.is_empty())
                .map_or(Value::Null, |n| json!(String::from_utf8_lossy(n)));
            json!({
                "name": String::from_utf8_lossy(&a.name),
                "datatype": datatype(a.datatype),
                "cell_val_num": cell_val_num(a.cell_val_num),
                "nullable": a.nullable.unwrap_or(0) != 0,
                "fill_value": fill,
                "filters": pipeline_json(&a.filters),
                "enumeration": enumeration,
            })
        })
        .collect();
    let array_type = match ArrayType::from_value(s.array_type) {
        Some(t) => json!(t.name().to_ascii_lowercase()),
        None => json!(s.array_type),
    };
    json!({
        "version": s.array_version,
        "array_type": array_type,
        "cell_order": layout_name(s.cell_order),
        "tile_order": layout_name(s.tile_order),
        "capacity": s.capacity,
        "allows_duplicates": s.allows_dups.unwrap_or(0) != 0,
        "dimensions": dims,
        "attributes": attrs,
        "coords_filters": pipeline_json(&s.coords_filters),
        "offsets_filters": pipeline_json(&s.offsets_filters),
        "validity_filters": s.validity_filters.as_ref().map_or(json!([]), pipeline_json),
        "enumerations": s.enumerations.as_ref().map_or(json!([]), |es| {
            Value::Array(es.iter().map(|e| json!({
                "name": String::from_utf8_lossy(&e.name),
                "filename": String::from_utf8_lossy(&e.filename),
            })).collect())
        }),
    })
}

/// One enumeration as [`crate::write::create_array`] takes it back: name,
/// filename, datatype, cell_val_num, ordered and the values (each one value
/// or a list, as cells are shown; text as a string).
pub fn enumeration_json(e: &Enumeration, path: &Path) -> Result<Value> {
    let values = schema::enumeration_values(e, path)?;
    // enumeration_values has checked the datatype.
    let dt = Datatype::from_value(e.datatype).unwrap_or(Datatype::Any);
    let var = e.cell_val_num == u32::MAX;
    let values: Vec<Value> = values
        .into_iter()
        .map(|b| {
            // A var-sized value that is not text is a list even when it
            // holds one number, so that it reads back as var-sized.
            if var && !value::is_text(dt) {
                Value::Array(value::values(dt, b))
            } else {
                value::cell(dt, b)
            }
        })
        .collect();
    Ok(json!({
        "name": String::from_utf8_lossy(&e.name),
        "filename": String::from_utf8_lossy(&e.path_name),
        "datatype": datatype(e.datatype),
        "cell_val_num": cell_val_num(e.cell_val_num),
        "ordered": e.ordered != 0,
        "values": values,
    }))
}

/// The `"schema"` object of `inspect --json` of an array: [`schema_json`]
/// with each enumeration's values, read from
/// `__schema/__enumerations/<filename>` (format_spec/enumeration.md).
pub fn array_schema_json(array: &Path, s: &ArraySchema, opts: &ReadOptions) -> Result<Value> {
    let mut v = schema_json(s);
    let mut enums = Vec::new();
    for entry in s.enumerations.iter().flatten() {
        let name = String::from_utf8_lossy(&entry.filename);
        // The name comes from the schema file: a plain file name only.
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
            return Err(Error::NotTileDb {
                path: array.to_path_buf(),
                what: format!("enumeration file name {name:?} is not a file name"),
            });
        }
        let file = array.join("__schema/__enumerations").join(name.as_ref());
        enums.push(enumeration_json(
            &schema::read_enumeration(&file, opts)?,
            &file,
        )?);
    }
    v["enumerations"] = Value::Array(enums);
    Ok(v)
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
    if path.join("__tiledb_group.tdb").exists() || path.join("__group").is_dir() {
        return Ok(Kind::Group);
    }
    if path.join("__fragment_metadata.tdb").is_file() {
        return Ok(Kind::Fragment);
    }
    if path.join("__schema").is_dir() || path.join("__array_schema.tdb").is_file() {
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
        fragments.push(frag.to_json());
    }
    let meta = metadata::read_array_metadata(&dir, opts)?;
    Ok(json!({
        "kind": "array",
        "path": path.display().to_string(),
        "schema": array_schema_json(path, &s, opts)?,
        "schema_name": schema_path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "fragments": fragments,
        "metadata": meta,
    }))
}

/// The JSON account of any path.
pub fn inspect_json(path: &Path, opts: &ReadOptions) -> Result<Value> {
    match kind(path)? {
        Kind::Array => array_json(path, opts),
        Kind::Group => crate::array::metadata::group_json(path, opts),
        Kind::Fragment => {
            // From version 12 fragments sit in `__fragments/`; before, in the array folder.
            let array = match path.parent() {
                Some(p) if p.file_name().is_some_and(|n| n == "__fragments") => p.parent(),
                other => other,
            };
            let array = array.ok_or_else(|| Error::NotTileDb {
                path: path.to_path_buf(),
                what: "a fragment folder must sit inside an array".into(),
            })?;
            let dir = ArrayDirectory::open(array)?;
            let entry = crate::array::directory::Entry {
                path: path.to_path_buf(),
                name: crate::array::name::parse(&path.to_string_lossy()).ok_or_else(|| {
                    Error::NotTileDb {
                        path: path.to_path_buf(),
                        what: "the folder name is not a timestamped name".into(),
                    }
                })?,
            };
            let frag = Fragment::open(&dir, &entry, opts)?;
            let mut v = frag.to_json();
            v["kind"] = json!("fragment");
            Ok(v)
        }
        Kind::File => crate::array::metadata::file_json(path, opts),
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
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

fn walk(v: &Value, indent: &str, out: &mut String) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match scalar(x) {
                    Some(s) => out.push_str(&format!("{indent}{k}: {s}\n")),
                    None => {
                        out.push_str(&format!("{indent}{k}\n"));
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
                            .map(str::to_string)
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
