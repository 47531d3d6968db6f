//! The timestamped-name grammar as data: `[[layout]]` of
//! `spec/timestamped_name.toml`, one per value of the code table
//! `TimestampedNameFormat` (its value is the first format version with the
//! layout).
//!
//! Generates `pub mod timestamped_name` into `src/generated/`:
//! `NameParts`, `parse(stem)` (the layouts tried in the spec's order),
//! `format(..)` and `format_for(version)`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Deserialize;

use super::{camel, doc_lines, Ctx, Document, Res};

/// One layout of a timestamped name.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Layout {
    /// The value of `TimestampedNameFormat` it is (`T1_T2_UUID_V`).
    format: String,
    /// What opens the name (`__`).
    prefix: String,
    /// What separates the parts (`_`).
    separator: String,
    /// The parts in order: `t1`, `t2`, `t` (one timestamp, both ends of
    /// the range), `uuid`, `v` (the format version).
    parts: Vec<String>,
    /// The length the uuid must have for the name to be of this layout.
    #[serde(default)]
    uuid_len: Option<usize>,
    /// The `[[version]]` a name without `v` stands for.
    #[serde(default)]
    implies: Option<String>,
    doc: String,
}

const PARTS: &[&str] = &["t1", "t2", "t", "uuid", "v"];

/// The generated `timestamped_name` module.
pub(crate) fn generate(docs: &[(String, Document)]) -> Res<String> {
    let mut out = String::new();
    let mut layouts = Vec::new();
    for (file, doc) in docs {
        for l in &doc.layout {
            let cx = Ctx {
                file,
                place: format!("layout {}", l.format),
            };
            let Some(code) = doc.code.iter().find(|c| c.name == "TimestampedNameFormat") else {
                return cx.err("a [[layout]] needs the code table TimestampedNameFormat");
            };
            let Some(value) = code.values.iter().find(|v| v.name == l.format) else {
                return cx.err("`format` is not a value of TimestampedNameFormat");
            };
            layouts.push((cx, l, value.value));
        }
    }
    if layouts.is_empty() {
        return Ok(out);
    }
    let versions: BTreeSet<&str> = docs
        .iter()
        .flat_map(|(_, d)| &d.version)
        .map(|v| v.name.as_str())
        .collect();
    check_layouts(&layouts, &versions)?;
    let mut newest_first: Vec<_> = layouts.iter().map(|(_, l, v)| (*v, l)).collect();
    newest_first.sort_by_key(|(v, _)| std::cmp::Reverse(*v));

    out.push_str(
        "/// The timestamped names of fragments, commits, schemas and metadata\n\
         /// files (`spec/timestamped_name.toml`, `[[layout]]`): parsed and\n\
         /// formatted from the spec's grammar.\n\
         pub mod timestamped_name {\n\
         \x20   use super::TimestampedNameFormat;\n\
         \x20   use alloc::format;\n\
         \x20   use alloc::string::String;\n\n\
         \x20   /// A timestamped name taken apart.\n\
         \x20   #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n\
         \x20   #[non_exhaustive]\n\
         \x20   pub struct NameParts<'a> {\n\
         \x20       /// The layout the name has.\n\
         \x20       pub format: TimestampedNameFormat,\n\
         \x20       /// The start of the timestamp range (ms since the Unix epoch).\n\
         \x20       pub t1: u64,\n\
         \x20       /// The end of the timestamp range.\n\
         \x20       pub t2: u64,\n\
         \x20       /// The unique part.\n\
         \x20       pub uuid: &'a str,\n\
         \x20       /// The format version the name states (`v`) or its layout implies.\n\
         \x20       pub version: u32,\n\
         \x20       /// Whether the name states its version.\n\
         \x20       pub explicit_version: bool,\n\
         \x20   }\n\n\
         \x20   /// A decimal number of digits only.\n\
         \x20   fn num(s: &str) -> Option<u64> {\n\
         \x20       if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {\n\
         \x20           return None;\n\
         \x20       }\n\
         \x20       s.parse().ok()\n\
         \x20   }\n\n\
         \x20   /// Exactly `N` parts separated by `sep`.\n\
         \x20   fn split<const N: usize>(body: &str, sep: char) -> Option<[&str; N]> {\n\
         \x20       let mut parts = [\"\"; N];\n\
         \x20       let mut it = body.split(sep);\n\
         \x20       for slot in &mut parts {\n\
         \x20           *slot = it.next()?;\n\
         \x20       }\n\
         \x20       it.next().is_none().then_some(parts)\n\
         \x20   }\n\n",
    );

    // parse
    out.push_str(
        "    /// Takes apart a name without its extension: the first layout (in\n\
         \x20   /// the spec's order) whose parts it has; `None` when none fits or\n\
         \x20   /// `t1 > t2`.\n\
         \x20   pub fn parse(stem: &str) -> Option<NameParts<'_>> {\n",
    );
    for (_, l, _) in &layouts {
        let n = l.parts.len();
        let vars: Vec<String> = l.parts.iter().map(|p| format!("p_{p}")).collect();
        let sep = l.separator.chars().next().unwrap_or('_');
        writeln!(out, "        // {}", l.parts.join(&l.separator)).unwrap();
        writeln!(
            out,
            "        if let Some([{}]) = stem.strip_prefix({:?}).and_then(|b| split::<{n}>(b, {sep:?})) {{",
            vars.join(", "),
            l.prefix
        )
        .unwrap();
        let mut body = String::new();
        let mut conds = Vec::new();
        if let Some(len) = l.uuid_len {
            conds.push(format!("p_uuid.len() == {len}"));
        }
        let (t1, t2) = if l.parts.iter().any(|p| p == "t") {
            writeln!(body, "                let t = num(p_t)?;").unwrap();
            ("t", "t")
        } else {
            writeln!(
                body,
                "                let (t1, t2) = (num(p_t1)?, num(p_t2)?);\n                if t1 > t2 {{\n                    return None;\n                }}"
            )
            .unwrap();
            ("t1", "t2")
        };
        let (version, explicit) = match &l.implies {
            Some(v) => (format!("super::version::{v}"), "false"),
            None => {
                writeln!(
                    body,
                    "                let v = u32::try_from(num(p_v)?).ok()?;"
                )
                .unwrap();
                ("v".to_string(), "true")
            }
        };
        let times = if t1 == "t1" {
            "t1,\n                    t2,".to_string()
        } else {
            format!("t1: {t1},\n                    t2: {t2},")
        };
        let ret = format!(
            "{body}                return Some(NameParts {{\n                    format: TimestampedNameFormat::{},\n                    {times}\n                    uuid: p_uuid,\n                    version: {version},\n                    explicit_version: {explicit},\n                }});\n",
            camel(&l.format)
        );
        if conds.is_empty() {
            writeln!(out, "{ret}        }}").unwrap();
        } else {
            writeln!(
                out,
                "            if {} {{\n{ret}            }}\n        }}",
                conds.join(" && ")
            )
            .unwrap();
        }
    }
    out.push_str("        None\n    }\n\n");

    gen_format(&mut out, &layouts, &newest_first);

    // the layouts' docs, as constants for documentation
    for (_, l, _) in &layouts {
        doc_lines(&mut out, "    ", &l.doc);
        writeln!(
            out,
            "    pub const {}: &str = {:?};\n",
            l.format,
            format!("{}{}", l.prefix, l.parts.join(&l.separator))
        )
        .unwrap();
    }
    out.push_str("}\n\n");
    Ok(out)
}

/// A layout of `spec/`, where it is described and its
/// `TimestampedNameFormat` value.
type Placed<'a> = (Ctx<'a>, &'a Layout, i64);

/// Checks the layouts' parts (`versions`: the format versions of `spec/`).
fn check_layouts(layouts: &[Placed], versions: &BTreeSet<&str>) -> Res<()> {
    let mut counts = BTreeSet::new();
    for (cx, l, _) in layouts {
        let has = |p: &str| l.parts.iter().filter(|x| *x == p).count();
        if let Some(p) = l.parts.iter().find(|p| !PARTS.contains(&p.as_str())) {
            return cx.err(format!("part `{p}` is not one of {PARTS:?}"));
        }
        if PARTS.iter().any(|p| has(p) > 1) {
            return cx.err("a part appears twice");
        }
        let times = (has("t1"), has("t2"), has("t"));
        if times != (1, 1, 0) && times != (0, 0, 1) {
            return cx.err("needs `t1` and `t2`, or `t`");
        }
        if has("uuid") != 1 {
            return cx.err("needs one `uuid`");
        }
        match (&l.implies, has("v")) {
            (None, 0) => return cx.err("a layout without `v` needs `implies`"),
            (Some(_), 1) => return cx.err("a layout with `v` takes no `implies`"),
            (Some(v), _) if !versions.contains(v.as_str()) => {
                return cx.err(format!("`implies` {v} is not a [[version]] of spec/"))
            }
            _ => {}
        }
        if l.prefix.contains(['"', '\\']) || l.separator.chars().count() != 1 {
            return cx.err("the prefix must be plain text and the separator one character");
        }
        // Layouts are told apart by their number of parts.
        if !counts.insert(l.parts.len()) {
            return cx.err("two layouts have as many parts");
        }
    }
    Ok(())
}

/// The generated `format` and `format_for` (`newest_first`: the layouts by
/// their value, newest first).
fn gen_format(out: &mut String, layouts: &[Placed], newest_first: &[(i64, &&Layout)]) {
    // format
    out.push_str(
        "    /// The name of layout `format` (a `t` layout writes `t1`; a layout\n\
         \x20   /// without `v` leaves `version` out).\n\
         \x20   #[allow(unused_variables)]\n\
         \x20   pub fn format(\n        format: TimestampedNameFormat,\n        t1: u64,\n        t2: u64,\n        uuid: &str,\n        version: u32,\n    ) -> String {\n\
         \x20       match format {\n",
    );
    for (_, l, _) in layouts {
        let fmt = l
            .parts
            .iter()
            .map(|p| {
                match p.as_str() {
                    "t" => "{t1}",
                    "v" => "{version}",
                    "t1" => "{t1}",
                    "t2" => "{t2}",
                    _ => "{uuid}",
                }
                .to_string()
            })
            .collect::<Vec<_>>()
            .join(&l.separator);
        writeln!(
            out,
            "            TimestampedNameFormat::{} => format!(\"{}{fmt}\"),",
            camel(&l.format),
            l.prefix
        )
        .unwrap();
    }
    out.push_str("        }\n    }\n\n");

    // format_for
    out.push_str(
        "    /// The layout of the names of format version `version`: the newest\n\
         \x20   /// layout whose first version (its `TimestampedNameFormat` value) is\n\
         \x20   /// at most `version`.\n\
         \x20   pub const fn format_for(version: u32) -> TimestampedNameFormat {\n",
    );
    for (i, (v, l)) in newest_first.iter().enumerate() {
        if i + 1 == newest_first.len() {
            writeln!(out, "        TimestampedNameFormat::{}", camel(&l.format)).unwrap();
        } else {
            writeln!(
                out,
                "        if version >= {v} {{\n            return TimestampedNameFormat::{};\n        }}",
                camel(&l.format)
            )
            .unwrap();
        }
    }
    out.push_str("    }\n\n");
}

/// One naming of a field's data files: `[[data_file]]` of
/// `spec/array_file_hierarchy.toml`, `<stem><suffix><extension>`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DataFileNaming {
    /// The naming's name (`INDEXED`).
    naming: String,
    /// The `[[feature]]` whose versions use it; none: the versions no other
    /// naming takes.
    #[serde(default)]
    feature: Option<String>,
    /// The parts of the stem: `prefix` then `index`, `encoded_name` or
    /// `name`.
    stem: Vec<String>,
    /// With `prefix`: the `[[name]]`s a stem may open with.
    #[serde(default)]
    prefixes: Vec<String>,
    /// The `[[name]]`s of the suffixes after the stem (besides none).
    suffixes: Vec<String>,
    /// The `[[name]]` of the extension.
    extension: String,
    doc: String,
}

/// The generated `field_file_name` module.
pub(crate) fn generate_data_files(docs: &[(String, Document)]) -> Res<String> {
    let mut out = String::new();
    let names: BTreeSet<&str> = docs
        .iter()
        .flat_map(|(_, d)| &d.name)
        .map(|n| n.name.as_str())
        .collect();
    let features: BTreeSet<&str> = docs
        .iter()
        .flat_map(|(_, d)| &d.feature)
        .map(|f| f.name.as_str())
        .collect();
    let mut all = Vec::new();
    for (file, doc) in docs {
        for d in &doc.data_file {
            let cx = Ctx {
                file,
                place: format!("data_file {}", d.naming),
            };
            let stems: &[&[&str]] = &[&["prefix", "index"], &["encoded_name"], &["name"]];
            if !stems.iter().any(|s| *s == d.stem.as_slice()) {
                return cx.err(format!("`stem` must be one of {stems:?}"));
            }
            if (d.stem[0] == "prefix") == d.prefixes.is_empty() {
                return cx.err("`prefixes` go with a `prefix` stem, and only with it");
            }
            for n in d.prefixes.iter().chain(&d.suffixes).chain([&d.extension]) {
                if !names.contains(n.as_str()) {
                    return cx.err(format!("{n} is not a [[name]] of spec/"));
                }
            }
            if let Some(f) = &d.feature {
                if !features.contains(f.as_str()) {
                    return cx.err(format!("feature {f} is not a [[feature]] of spec/"));
                }
            }
            all.push((cx, d));
        }
    }
    let Some((_, first)) = all.first() else {
        return Ok(out);
    };
    for (cx, d) in &all {
        if d.suffixes != first.suffixes || d.extension != first.extension {
            return cx.err("every naming has the same suffixes and extension");
        }
    }
    match all.iter().position(|(_, d)| d.feature.is_none()) {
        Some(i) if i + 1 == all.len() => {}
        _ => return all[0].0.err("the last naming, and only it, has no feature"),
    }

    out.push_str(
        "/// The names of a field's data files in a fragment (`[[data_file]]` of\n\
         /// `spec/array_file_hierarchy.toml`): `<stem><suffix><extension>`, the\n\
         /// stem by the naming of the fragment's format version.\n\
         pub mod field_file_name {\n\
         \x20   use super::hierarchy::*;\n\
         \x20   use alloc::format;\n\
         \x20   use alloc::string::String;\n\n\
         \x20   /// How a format version names a field's data files.\n\
         \x20   #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n\
         \x20   pub enum Naming {\n",
    );
    for (_, d) in &all {
        doc_lines(&mut out, "        ", &d.doc);
        writeln!(out, "        {},", camel(&d.naming)).unwrap();
    }
    out.push_str(
        "    }\n\n\
         \x20   /// The naming of format version `version`.\n\
         \x20   pub const fn naming_for(version: u32) -> Naming {\n",
    );
    for (_, d) in &all {
        match &d.feature {
            Some(f) => writeln!(
                out,
                "        if super::version::has_{f}(version) {{\n            return Naming::{};\n        }}",
                camel(&d.naming)
            ),
            None => writeln!(out, "        Naming::{}", camel(&d.naming)),
        }
        .unwrap();
    }
    out.push_str("    }\n\n");

    let suffixes = first.suffixes.join(", ");
    let ext = &first.extension;
    writeln!(
        out,
        "    /// The suffixes after a stem, besides none.\n    pub const SUFFIXES: &[&str] = &[{suffixes}];\n\n\
         \x20   /// `<stem><suffix>{{{ext}}}`.\n\
         \x20   pub fn format(stem: &str, suffix: &str) -> String {{\n        format!(\"{{stem}}{{suffix}}{{{ext}}}\")\n    }}\n\n\
         \x20   /// The stem and suffix (`\"\"` or one of [`SUFFIXES`]) of a data file\n\
         \x20   /// name; `None` without the extension or with an empty stem.\n\
         \x20   pub fn parse(file: &str) -> Option<(&str, &str)> {{\n\
         \x20       let base = file.strip_suffix({ext})?;\n\
         \x20       let (stem, suffix) = SUFFIXES\n\
         \x20           .iter()\n\
         \x20           .find_map(|s| base.strip_suffix(s).map(|stem| (stem, *s)))\n\
         \x20           .unwrap_or((base, \"\"));\n\
         \x20       (!stem.is_empty()).then_some((stem, suffix))\n\
         \x20   }}\n"
    )
    .unwrap();
    if let Some((_, d)) = all.iter().find(|(_, d)| !d.prefixes.is_empty()) {
        let prefixes = d.prefixes.join(", ");
        writeln!(
            out,
            "    /// The prefixes of a `{}` stem.\n    pub const PREFIXES: &[&str] = &[{prefixes}];\n\n\
             \x20   /// The stem `<prefix><index>`.\n\
             \x20   pub fn indexed_stem(prefix: &str, index: usize) -> String {{\n        format!(\"{{prefix}}{{index}}\")\n    }}\n\n\
             \x20   /// The prefix (one of [`PREFIXES`]) and index of a `<prefix><index>`\n\
             \x20   /// stem; `None` for other stems.\n\
             \x20   pub fn parse_indexed(stem: &str) -> Option<(&'static str, usize)> {{\n\
             \x20       PREFIXES.iter().find_map(|p| {{\n\
             \x20           let digits = stem.strip_prefix(p)?;\n\
             \x20           if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {{\n\
             \x20               return None;\n\
             \x20           }}\n\
             \x20           Some((*p, digits.parse().ok()?))\n\
             \x20       }})\n\
             \x20   }}",
            d.naming
        )
        .unwrap();
    }
    out.push_str("}\n\n");
    Ok(out)
}
