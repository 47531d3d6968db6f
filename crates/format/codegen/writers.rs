//! The writing half of a table: what a writer calls so that it never sets
//! a size, a count or a version gate by hand, and what `encode_checked`
//! checks before it writes.
//!
//! For every table and union, `impl Record for X`:
//!
//! * `at_version(self, version)`: the record as format `version` stores
//!   it. A field the version lacks (`since`/`until`) becomes `None`; one it
//!   has and the writer left `None` (and that has no `if`) its default; the
//!   table's own version field (`array_version`, `version_number`) is set;
//!   nested tables and unions follow, with the same version.
//! * `with_sizes(self)`: every length or count field that a later field's
//!   `len`/`count` names alone (`name_length` of `name`) set from that
//!   field's contents, nested records first (binrw's `calc`, kept in the
//!   struct so that a record read back compares equal).
//! * `check(&self, version)`: refuses a record whose optional fields
//!   disagree with its version (the table's own version field, else the
//!   version given) or whose stated lengths and counts disagree with its
//!   contents, naming the table and field. A field whose `if` names only
//!   fields of the record (`deletion == 0`) is checked against it too: present
//!   exactly when the condition holds (and its version has it). An `if` that
//!   names an import (`coord_size == 0`) is not: `check` has the record only.
//!
//! A `fixed` field (a count the format fixes) is set by `with_sizes` and
//! compared by `check`. The sizes a record states of bytes it does not
//! hold, and the head of a streamed record, are codegen/outside.rs.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{expr, kind, Ctx, Field, Kind, Res, Table, Union, PRIMITIVES};

/// A table-typed field's inner table (of a table, a union or a list of them).
fn nested(f: &Field) -> Option<(String, bool)> {
    match kind(&f.ty)? {
        Kind::Table(name) => Some((name.to_string(), false)),
        Kind::List(inner) => match kind(inner)? {
            Kind::Table(name) => Some((name.to_string(), true)),
            _ => None,
        },
        _ => None,
    }
}

fn gated(f: &Field) -> bool {
    f.since.is_some() || f.until.is_some()
}

pub(crate) fn optional(f: &Field) -> bool {
    gated(f) || f.cond.is_some()
}

/// `version >= since && version < until` for field `f`.
fn gate(f: &Field, v: &str) -> String {
    let mut g = Vec::new();
    if let Some(s) = f.since {
        g.push(format!("{v} >= {s}"));
    }
    if let Some(u) = f.until {
        g.push(format!("{v} < {u}"));
    }
    g.join(" && ")
}

/// The (length field, counted field, Rust type of the length) pairs of `t`:
/// a `len` or `count` that names one earlier primitive, non-code field.
fn size_pairs(t: &Table) -> Vec<(&Field, &Field, String)> {
    let mut out = Vec::new();
    for (i, f) in t.fields.iter().enumerate() {
        let Some(src) = f.len.as_ref().or(f.count.as_ref()) else {
            continue;
        };
        let src = src.trim();
        let Some(g) = t.fields[..i].iter().find(|g| g.name == src) else {
            continue;
        };
        if g.code.is_some() || f.each.is_some() {
            continue;
        }
        let Some((_, rust, _)) = PRIMITIVES.iter().find(|(n, _, _)| *n == g.ty) else {
            continue;
        };
        out.push((g, f, rust.to_string()));
    }
    out
}

/// The (size field, sized field, Rust type of the size) pairs of `t` given
/// by `size_of`: the encoded length of a table, union or bytes field (not
/// optional; the size field may be, and is set only when present).
fn encoded_sizes(t: &Table) -> Vec<(&Field, &Field, String)> {
    let mut out = Vec::new();
    for g in &t.fields {
        let Some(target) = &g.size_of else { continue };
        let Some(f) = t.fields.iter().find(|f| &f.name == target) else {
            continue;
        };
        if optional(f) {
            continue;
        }
        let Some((_, rust, _)) = PRIMITIVES.iter().find(|(n, _, _)| *n == g.ty) else {
            continue;
        };
        out.push((g, f, rust.to_string()));
    }
    out
}

/// The table's version: `Field(name, rust type)` when it is one of its
/// fields, `Import` when an import, `None` when it has none.
enum Version {
    Field(String, String),
    Import,
    None,
}

fn version_of(t: &Table) -> Version {
    let Some(v) = t.version.as_deref().map(str::trim) else {
        return Version::None;
    };
    if let Some(f) = t.fields.iter().find(|f| f.name == v) {
        let rust = PRIMITIVES
            .iter()
            .find(|(n, _, _)| *n == f.ty)
            .map_or("u32", |(_, r, _)| r);
        return Version::Field(v.to_string(), rust.to_string());
    }
    Version::Import
}

/// `impl Record for <t>`, and its outside sizes.
pub(crate) fn gen_table(out: &mut String, file: &str, t: &Table) -> Res<()> {
    let version = version_of(t);
    let at = at_version_body(t, &version);
    let mut sizes = with_sizes_body(t);
    sizes.push_str(&super::lengths::with_sizes(file, t)?);
    let mut check = check_body(t, &version);
    check.push_str(&condition_checks(file, t, &version)?);
    check.push_str(&super::lengths::checks(file, t)?);
    writeln!(
        out,
        "impl crate::Record for {} {{\n    fn at_version(mut self, version: u32) -> Self {{\n        let _ = version;\n{at}        self\n    }}\n    fn with_sizes(mut self) -> Self {{\n{sizes}        self\n    }}\n    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {{\n{check}        Ok(())\n    }}\n}}\n",
        t.name
    )
    .unwrap();
    super::outside::gen_outside(out, t);
    super::outside::gen_head(out, t);
    super::parts::gen_parts(out, t);
    super::counts::gen_counts(out, file, t)?;
    super::joined::gen_joined(out, t);
    super::after::gen_after(out, t);
    super::append::gen_append(out, t);
    Ok(())
}

/// The statements of `check` that compare the presence of a field gated by
/// an `if` naming only fields of the record (and constants, codes and
/// helpers) with its condition: present exactly when it holds, where the
/// version has the field.
fn condition_checks(file: &str, t: &Table, version: &Version) -> Res<String> {
    let imports = t.import_names();
    let mut out = String::new();
    let mut known = BTreeSet::new();
    let mut opt = BTreeSet::new();
    for f in &t.fields {
        let cx = Ctx {
            file,
            place: format!("table {}, field {}", t.name, f.name),
        };
        if let Some(cond) = &f.cond {
            let names = super::records::idents(cond);
            if !names.iter().any(|n| imports.contains(n.as_str())) {
                let e = expr(&cx, "if", cond, &known, &opt)?;
                let bind = super::bind(
                    names
                        .iter()
                        .filter(|n| known.contains(*n))
                        .map(String::as_str)
                        .collect::<BTreeSet<_>>(),
                );
                let (name, n) = (&t.name, &f.name);
                let test = format!(
                    "{{ {bind}if ({e}) != self.{n}.is_some() {{ return Err(crate::EncodeError::condition(\"{name}\", \"{n}\", {:?}, self.{n}.is_some())); }} }}",
                    shown(cond)
                );
                if gated(f) && !matches!(version, Version::None) {
                    let g = gate(f, "v");
                    writeln!(out, "if let Some(v) = version {{ if {g} {test} }}").unwrap();
                } else {
                    writeln!(out, "{test}").unwrap();
                }
            }
        }
        known.insert(f.name.clone());
        if optional(f) {
            opt.insert(f.name.clone());
        }
    }
    Ok(out)
}

/// A condition as an error shows it: one line, without the parentheses a
/// named value's expansion puts around the whole.
fn shown(cond: &str) -> String {
    let mut c = cond.split_whitespace().collect::<Vec<_>>().join(" ");
    while c.starts_with('(') && c.ends_with(')') && {
        // The first parenthesis closes at the end, not before.
        let mut depth = 0i32;
        c.char_indices().all(|(i, ch)| {
            depth += match ch {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            depth > 0 || i == c.len() - 1
        })
    } {
        c = c[1..c.len() - 1].trim().to_string();
    }
    c
}

/// The statements of `at_version`.
fn at_version_body(t: &Table, version: &Version) -> String {
    let mut at = String::new();
    if let Version::Field(v, rust) = version {
        writeln!(at, "self.{v} = version as {rust};").unwrap();
    }
    for f in &t.fields {
        let n = &f.name;
        if gated(f) && !matches!(version, Version::None) {
            let g = gate(f, "version");
            if f.cond.is_some() {
                writeln!(at, "if !({g}) {{ self.{n} = None; }}").unwrap();
            } else {
                writeln!(
                    at,
                    "if {g} {{ if self.{n}.is_none() {{ self.{n} = Some(Default::default()); }} }} else {{ self.{n} = None; }}"
                )
                .unwrap();
            }
        }
        if let Some((_, list)) = nested(f) {
            let map = if list {
                "x.into_iter().map(|e| e.at_version(version)).collect()"
            } else {
                "x.at_version(version)"
            };
            if optional(f) {
                writeln!(at, "self.{n} = self.{n}.map(|x| {map});").unwrap();
            } else {
                writeln!(
                    at,
                    "let x = core::mem::take(&mut self.{n}); self.{n} = {map};"
                )
                .unwrap();
            }
        }
    }
    at
}

/// The statements of `with_sizes`: nested records, then the encoded sizes
/// (`size_of`), then lengths and counts.
fn with_sizes_body(t: &Table) -> String {
    let mut sizes = String::new();
    for f in &t.fields {
        if let Some((_, list)) = nested(f) {
            let n = &f.name;
            let map = if list {
                "x.into_iter().map(|e| e.with_sizes()).collect()"
            } else {
                "x.with_sizes()"
            };
            if optional(f) {
                writeln!(sizes, "self.{n} = self.{n}.map(|x| {map});").unwrap();
            } else {
                writeln!(
                    sizes,
                    "let x = core::mem::take(&mut self.{n}); self.{n} = {map};"
                )
                .unwrap();
            }
        }
    }
    let encoded = encoded_sizes(t);
    for (g, f, rust) in &encoded {
        let (gn, fname) = (&g.name, &f.name);
        if optional(g) {
            writeln!(
                sizes,
                "if self.{gn}.is_some() {{ self.{gn} = Some(crate::decode::encode_unchecked(&self.{fname}).len() as {rust}); }}"
            )
        } else {
            writeln!(sizes, "self.{gn} = crate::decode::encode_unchecked(&self.{fname}).len() as {rust};")
        }
        .unwrap();
    }
    for f in &t.fields {
        if let Some(v) = f.fixed {
            writeln!(sizes, "self.{} = {v};", f.name).unwrap();
        }
    }
    let pairs = size_pairs(t);
    for (g, f, rust) in &pairs {
        let (gn, fname) = (&g.name, &f.name);
        match (optional(g), optional(f)) {
            (false, false) => writeln!(sizes, "self.{gn} = self.{fname}.len() as {rust};"),
            (true, true) => writeln!(
                sizes,
                "self.{gn} = self.{fname}.as_ref().map(|x| x.len() as {rust});"
            ),
            (false, true) => writeln!(
                sizes,
                "if let Some(x) = &self.{fname} {{ self.{gn} = x.len() as {rust}; }}"
            ),
            (true, false) => writeln!(
                sizes,
                "if self.{gn}.is_some() {{ self.{gn} = Some(self.{fname}.len() as {rust}); }}"
            ),
        }
        .unwrap();
    }
    sizes
}

/// The statements of `check`.
fn check_body(t: &Table, version: &Version) -> String {
    let name = &t.name;
    let (encoded, pairs) = (encoded_sizes(t), size_pairs(t));
    let mut check = String::new();
    match version {
        Version::Field(v, _) => writeln!(check, "let version = Some(self.{v} as u32);").unwrap(),
        Version::Import => {}
        Version::None => writeln!(check, "let _ = version;").unwrap(),
    }
    for f in &t.fields {
        let n = &f.name;
        if gated(f) && !matches!(version, Version::None) {
            let g = gate(f, "v");
            let must = if f.cond.is_some() {
                format!("!({g}) && self.{n}.is_some()")
            } else {
                format!("({g}) != self.{n}.is_some()")
            };
            writeln!(
                check,
                "if let Some(v) = version {{ if {must} {{ return Err(crate::EncodeError::new(\"{name}\", \"{n}\", v, self.{n}.is_some())); }} }}"
            )
            .unwrap();
        }
        if nested(f).is_some() {
            let (_, list) = nested(f).unwrap();
            let each = if list {
                "for e in x { e.check(version)?; }"
            } else {
                "x.check(version)?;"
            };
            if optional(f) {
                writeln!(check, "if let Some(x) = &self.{n} {{ {each} }}").unwrap();
            } else {
                writeln!(check, "{{ let x = &self.{n}; {each} }}").unwrap();
            }
        }
    }
    for f in &t.fields {
        if let Some(v) = f.fixed {
            let n = &f.name;
            writeln!(
                check,
                "if self.{n} as u64 != {v} {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", self.{n} as u64, {v})); }}"
            )
            .unwrap();
        }
    }
    for (g, f, _) in &encoded {
        let (gn, fname) = (&g.name, &f.name);
        let stated = if optional(g) {
            format!("self.{gn}")
        } else {
            format!("Some(self.{gn})")
        };
        writeln!(
            check,
            "if let Some(stated) = {stated} {{ let actual = crate::decode::encode_unchecked(&self.{fname}).len() as u64; if stated as u64 != actual {{ return Err(crate::EncodeError::size(\"{name}\", \"{gn}\", stated as u64, actual)); }} }}"
        )
        .unwrap();
    }
    for (g, f, _) in &pairs {
        let (gn, fname) = (&g.name, &f.name);
        let stated = if optional(g) {
            format!("self.{gn}")
        } else {
            format!("Some(self.{gn})")
        };
        let actual = if optional(f) {
            format!("self.{fname}.as_ref().map(|x| x.len() as u64)")
        } else {
            format!("Some(self.{fname}.len() as u64)")
        };
        writeln!(
            check,
            "if let (Some(stated), Some(actual)) = ({stated}, {actual}) {{ if stated as u64 != actual {{ return Err(crate::EncodeError::size(\"{name}\", \"{gn}\", stated as u64, actual)); }} }}"
        )
        .unwrap();
    }
    check
}

/// `impl Record for <u>`: each variant's table.
pub(crate) fn gen_union(out: &mut String, u: &Union) {
    let mut at = String::new();
    let mut sizes = String::new();
    let mut check = String::new();
    for v in &u.variants {
        if v.ty == "empty" {
            continue;
        }
        let n = &v.name;
        writeln!(at, "Self::{n}(x) => Self::{n}(x.at_version(version)),").unwrap();
        writeln!(sizes, "Self::{n}(x) => Self::{n}(x.with_sizes()),").unwrap();
        writeln!(check, "Self::{n}(x) => x.check(version),").unwrap();
    }
    writeln!(
        out,
        "impl crate::Record for {} {{\n    fn at_version(self, version: u32) -> Self {{\n        let _ = version;\n        #[allow(unreachable_patterns)]\n        match self {{\n{at}            other => other,\n        }}\n    }}\n    fn with_sizes(self) -> Self {{\n        #[allow(unreachable_patterns)]\n        match self {{\n{sizes}            other => other,\n        }}\n    }}\n    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {{\n        #[allow(unreachable_patterns)]\n        match self {{\n{check}            _ => Ok(()),\n        }}\n    }}\n}}\n",
        u.name
    )
    .unwrap();
}
