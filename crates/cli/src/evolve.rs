//! `tiledb-codec evolve`: schema evolution, over `maintain::evolve`.

use std::path::PathBuf;

use crate::out::outln;
use serde_json::Value as Json;
use tiledb_codec::maintain::{latest_schema, EvolveOptions, SchemaEvolution};
use tiledb_codec::raw::model::{json, Schema};
use tiledb_codec::ReadOptions;

/// Evolve ARRAY's schema as the engine's ArraySchemaEvolution does: write a
/// new schema file (and files of added or extended enumerations). Old
/// fragments read through the new schema (an added attribute reads as its
/// fill value there). What the engine refuses is refused, and then nothing
/// is written.
#[derive(clap::Args)]
pub struct EvolveArgs {
    /// The array.
    pub array: PathBuf,
    /// Add an attribute: its JSON as `inspect --json` prints it (name,
    /// datatype, cell_val_num, nullable, fill_value, filters, enumeration),
    /// or @FILE holding it. Repeatable.
    #[arg(long, value_name = "JSON")]
    add_attribute: Vec<String>,
    /// Drop the attribute NAME. Repeatable.
    #[arg(long, value_name = "NAME")]
    drop_attribute: Vec<String>,
    /// Add an enumeration: its JSON as `inspect --json` prints it (name,
    /// datatype, cell_val_num, ordered, values), or @FILE. Repeatable.
    #[arg(long, value_name = "JSON")]
    add_enumeration: Vec<String>,
    /// Append values to the enumeration NAME: comma-separated (strings for
    /// text enumerations, numbers for numeric ones), or a JSON list
    /// (`NAME=["a,b","c"]`). Repeatable (once per enumeration).
    #[arg(long, value_name = "NAME=VALUE,...")]
    extend_enumeration: Vec<String>,
    /// Drop the enumeration NAME (no attribute may use it). Repeatable.
    #[arg(long, value_name = "NAME")]
    drop_enumeration: Vec<String>,
    /// Set DIM's current domain to LO:HI (an expansion only; LO:HI may be a
    /// JSON pair `[LO, HI]`). Repeatable, once per dimension.
    #[arg(long, value_name = "DIM=LO:HI")]
    expand_current_domain: Vec<String>,
    /// The new schema's timestamp (milliseconds since 1970; default: now).
    #[arg(long)]
    timestamp: Option<u64>,
    #[command(flatten)]
    key: super::KeyArg,
}

/// JSON given inline or as @FILE.
fn json_arg(flag: &str, s: &str) -> Result<Json, String> {
    let text = match s.strip_prefix('@') {
        Some(f) => std::fs::read_to_string(f).map_err(|e| format!("{flag}: {f}: {e}"))?,
        None => s.to_string(),
    };
    serde_json::from_str(&text).map_err(|e| format!("{flag}: not JSON: {e}"))
}

fn split_eq<'a>(flag: &str, s: &'a str) -> Result<(&'a str, &'a str), String> {
    s.split_once('=')
        .ok_or_else(|| format!("{flag}: expected NAME=..., got {s:?}"))
}

/// A literal of the command line as JSON: a string for text, else a
/// number as written.
fn literal(text: bool, s: &str) -> Result<Json, String> {
    if text {
        return Ok(Json::String(s.to_string()));
    }
    let s = s.trim();
    serde_json::from_str::<Json>(s)
        .ok()
        .filter(Json::is_number)
        .or_else(|| {
            // NaN and the infinities as the JSON of a schema spells them.
            matches!(s, "nan" | "NaN" | "inf" | "-inf").then(|| Json::String(s.to_string()))
        })
        .ok_or_else(|| format!("{s:?} is not a number"))
}

fn is_text(dt: tiledb_codec::raw::model::Datatype) -> bool {
    use tiledb_codec::raw::model::Datatype as D;
    matches!(
        dt,
        D::Char
            | D::StringAscii
            | D::StringUtf8
            | D::StringUtf16
            | D::StringUtf32
            | D::StringUcs2
            | D::StringUcs4
    )
}

fn build(args: &EvolveArgs, schema: &Schema) -> Result<(SchemaEvolution, Vec<String>), String> {
    let mut ev = SchemaEvolution::new();
    let mut done = Vec::new();
    for s in &args.add_enumeration {
        let e = json::enumeration_from_json(&json_arg("--add-enumeration", s)?)
            .map_err(|e| format!("--add-enumeration: {e}"))?;
        done.push(format!(
            "added enumeration {} ({} values)",
            e.name,
            e.values.len()
        ));
        ev.add_enumeration(e);
    }
    for s in &args.extend_enumeration {
        let flag = "--extend-enumeration";
        let (name, vals) = split_eq(flag, s)?;
        let e = schema
            .enumeration(name)
            .ok_or_else(|| format!("{flag}: the array has no enumeration {name:?}"))?;
        let list = if vals.trim_start().starts_with('[') {
            json_arg(flag, vals)?
        } else {
            Json::Array(
                vals.split(',')
                    .map(|v| literal(is_text(e.datatype), v))
                    .collect::<Result<_, _>>()
                    .map_err(|m| format!("{flag}: {name}: {m}"))?,
            )
        };
        let values = json::enumeration_values_from_json(e, &list)
            .map_err(|m| format!("{flag}: {name}: {m}"))?;
        done.push(format!(
            "extended enumeration {name} by {} values",
            values.len()
        ));
        ev.extend_enumeration(name, values);
    }
    for s in &args.add_attribute {
        let a = json::attribute_from_json(&json_arg("--add-attribute", s)?)
            .map_err(|e| format!("--add-attribute: {e}"))?;
        done.push(format!(
            "added attribute {} ({})",
            a.name,
            a.datatype.name()
        ));
        ev.add_attribute(a);
    }
    for n in &args.drop_attribute {
        done.push(format!("dropped attribute {n}"));
        ev.drop_attribute(n.clone());
    }
    for n in &args.drop_enumeration {
        done.push(format!("dropped enumeration {n}"));
        ev.drop_enumeration(n.clone());
    }
    for s in &args.expand_current_domain {
        let flag = "--expand-current-domain";
        let (dim, range) = split_eq(flag, s)?;
        let d = schema
            .dimension(dim)
            .ok_or_else(|| format!("{flag}: the array has no dimension {dim:?}"))?;
        let pair = if range.trim_start().starts_with('[') {
            json_arg(flag, range)?
        } else {
            let (lo, hi) = range
                .split_once(':')
                .ok_or_else(|| format!("{flag}: expected {dim}=LO:HI, got {s:?}"))?;
            let text = d.cell_val_num.is_var();
            Json::Array(vec![
                literal(text, lo).map_err(|m| format!("{flag}: {dim}: {m}"))?,
                literal(text, hi).map_err(|m| format!("{flag}: {dim}: {m}"))?,
            ])
        };
        let r = json::dimension_range_from_json(d, &pair).map_err(|m| format!("{flag}: {m}"))?;
        done.push(format!("current domain of {dim} set to {range}"));
        ev.expand_current_domain(dim, r);
    }
    Ok((ev, done))
}

/// Runs `evolve`.
pub fn run(args: &EvolveArgs) -> Result<(), String> {
    let key = args.key.key()?;
    let ropts = ReadOptions::default().with_encryption_key(key);
    let schema = latest_schema(&args.array, &ropts).map_err(|e| e.to_string())?;
    let (ev, done) = build(args, &schema)?;
    if ev.is_empty() {
        return Err(
            "nothing to change: give --add-attribute, --drop-attribute, \
                    --add-enumeration, --extend-enumeration, --drop-enumeration or \
                    --expand-current-domain"
                .into(),
        );
    }
    let opts = {
        let mut lit = EvolveOptions::default();
        lit.timestamp = args.timestamp;
        lit.encryption_key = key;
        lit
    };
    let path =
        tiledb_codec::maintain::evolve(&args.array, &ev, &opts).map_err(|e| e.to_string())?;
    for d in done {
        outln!("{d}")?;
    }
    outln!("new schema {}", path.display())?;
    Ok(())
}
