//! The format versions, the version gates and the array's file hierarchy
//! as data: `[[version]]` and `[[feature]]` of `spec/format_versions.toml`,
//! `[[folder]]` and `[[file]]` of `spec/array_file_hierarchy.toml`.
//!
//! Generates, into the same `src/generated/`:
//!
//! * `pub mod version`: one `u32` constant per `[[version]]`, and per
//!   `[[feature]]` a `pub const fn has_<name>(version: u32) -> bool` with
//!   `<NAME>_SINCE` / `<NAME>_UNTIL` constants; a feature naming a table
//!   `field` must gate exactly as that field does;
//! * `pub mod hierarchy`: one `&str` constant per folder and file name.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Deserialize;

use super::{doc_lines, is_snake, Ctx, Document, Res};

/// A named format version (`MAX_FORMAT_VERSION = 23`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NamedVersion {
    pub(crate) name: String,
    value: u32,
    doc: String,
}

/// A format feature and the versions that have it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Feature {
    pub(crate) name: String,
    #[serde(default)]
    since: Option<u32>,
    #[serde(default)]
    until: Option<u32>,
    /// `Table.field` of `spec/` gated by the same versions.
    #[serde(default)]
    field: Option<String>,
    source: String,
    doc: String,
}

/// A name of the file hierarchy: a folder, a file, a suffix or a prefix.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Name {
    /// The constant's name (`FRAGMENTS`).
    pub(crate) name: String,
    /// The text (`__fragments`).
    value: String,
    /// The feature of `[[feature]]` whose versions have this name.
    #[serde(default)]
    feature: Option<String>,
    doc: String,
}

fn is_const_name(s: &str) -> bool {
    !s.is_empty()
        && s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// The `since`/`until` of field `spec` (`Table.field`) in `docs`.
fn field_gate(docs: &[(String, Document)], spec: &str) -> Option<(Option<u32>, Option<u32>)> {
    let (table, field) = spec.split_once('.')?;
    docs.iter()
        .flat_map(|(_, d)| &d.table)
        .filter(|t| t.name == table)
        .flat_map(|t| &t.fields)
        .find(|f| f.name == field)
        .map(|f| (f.since, f.until))
}

/// The generated `version` and `hierarchy` modules.
pub(crate) fn generate(docs: &[(String, Document)]) -> Res<String> {
    let mut out = String::new();
    let mut features = BTreeSet::new();
    out.push_str(
        "/// The format versions this crate reads and writes, and the version each\n\
         /// format feature appears in (`spec/format_versions.toml`).\n\
         pub mod version {\n",
    );
    let mut seen = BTreeSet::new();
    for (file, doc) in docs {
        for v in &doc.version {
            let cx = Ctx {
                file,
                place: format!("version {}", v.name),
            };
            if !is_const_name(&v.name) || !seen.insert(v.name.clone()) {
                return cx.err("a version needs a new UPPER_CASE name");
            }
            doc_lines(&mut out, "    ", &v.doc);
            writeln!(out, "    pub const {}: u32 = {};\n", v.name, v.value).unwrap();
        }
    }
    for (what, lo, hi) in [
        ("reads", "MIN_FORMAT_VERSION", "MAX_FORMAT_VERSION"),
        ("writes", "MIN_WRITE_VERSION", "MAX_WRITE_VERSION"),
    ] {
        if !(seen.contains(lo) && seen.contains(hi)) {
            return Err(super::SpecError {
                file: "spec/format_versions.toml".into(),
                place: "[[version]]".into(),
                msg: format!("versions {lo} and {hi} are missing"),
            });
        }
        writeln!(
            out,
            "    /// Whether this crate {what} format version `version` ([`{lo}`] to [`{hi}`]).\n    #[must_use]\n    pub const fn {what}_version(version: u32) -> bool {{\n        {lo} <= version && version <= {hi}\n    }}\n"
        )
        .unwrap();
    }
    for (file, doc) in docs {
        for f in &doc.feature {
            let cx = Ctx {
                file,
                place: format!("feature {}", f.name),
            };
            if !is_snake(&f.name) || !features.insert(f.name.clone()) {
                return cx.err("a feature needs a new snake_case name");
            }
            let upper = f.name.to_uppercase();
            let cond = match (f.since, f.until) {
                (Some(s), Some(u)) if s < u => {
                    format!("{upper}_SINCE <= version && version < {upper}_UNTIL")
                }
                (Some(_), None) => format!("version >= {upper}_SINCE"),
                (None, Some(_)) => format!("version < {upper}_UNTIL"),
                _ => return cx.err("needs `since`, `until` or both (since < until)"),
            };
            if let Some(spec) = &f.field {
                let Some(gate) = field_gate(docs, spec) else {
                    return cx.err(format!("field {spec} is not a field of a table of spec/"));
                };
                if gate != (f.since, f.until) {
                    return cx.err(format!(
                        "gates since {:?} until {:?}, but field {spec} since {:?} until {:?}",
                        f.since, f.until, gate.0, gate.1
                    ));
                }
            }
            let mut text = f.doc.trim().to_string();
            write!(text, "\n\nSource: {}.", f.source.trim()).unwrap();
            if let Some(spec) = &f.field {
                write!(text, " Gates as the field `{spec}`.").unwrap();
            }
            for (what, v) in [("SINCE", f.since), ("UNTIL", f.until)] {
                if let Some(v) = v {
                    let first = if what == "SINCE" {
                        "first"
                    } else {
                        "first without"
                    };
                    writeln!(
                        out,
                        "    /// The {first} format version of [`has_{}`].\n    pub const {upper}_{what}: u32 = {v};\n",
                        f.name
                    )
                    .unwrap();
                }
            }
            doc_lines(&mut out, "    ", &text);
            writeln!(
                out,
                "    #[must_use]\n    pub const fn has_{}(version: u32) -> bool {{\n        {cond}\n    }}\n",
                f.name
            )
            .unwrap();
        }
    }
    out.push_str("}\n\n");

    out.push_str(
        "/// The folders and file names of an array and a group\n\
         /// (`spec/array_file_hierarchy.toml`).\n\
         pub mod hierarchy {\n",
    );
    let mut names = BTreeSet::new();
    for (file, doc) in docs {
        for n in &doc.name {
            let cx = Ctx {
                file,
                place: format!("name {}", n.name),
            };
            if !is_const_name(&n.name) || !names.insert(n.name.clone()) {
                return cx.err("a name needs a new UPPER_CASE constant name");
            }
            if n.value.is_empty() || n.value.contains(['"', '\\']) {
                return cx.err("a name's value must be plain text");
            }
            let mut text = n.doc.trim().to_string();
            if let Some(feat) = &n.feature {
                if !features.contains(feat) {
                    return cx.err(format!("feature {feat} is not a [[feature]] of spec/"));
                }
                write!(
                    text,
                    "\n\nFormat versions: [`has_{feat}`](super::version::has_{feat})."
                )
                .unwrap();
            }
            doc_lines(&mut out, "    ", &text);
            writeln!(out, "    pub const {}: &str = \"{}\";\n", n.name, n.value).unwrap();
        }
    }
    out.push_str("}\n\n");
    Ok(out)
}
