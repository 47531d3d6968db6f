//! Turns the declarative format description in `spec/` into Rust.
//!
//! Every `spec/*.toml` file describes one document of the TileDB format
//! specification: its code tables (`[[code]]`), its tables (`[[table]]`) and
//! its tagged unions (`[[union]]`). This generator checks the description and
//! writes `src/generated/` (committed; one file per document, or a folder
//! of files for a document over the line limit, formatted by prettyplease;
//! see `codegen/files.rs`), which the crate includes. It runs in the test
//! `tests/generated.rs`: that test fails when `src/generated/` is not what
//! the spec makes, and rewrites it when run with `TILEDB_CODEC_CODEGEN=write`:
//!
//! * one `binrw` struct (`BinRead` + `BinWrite`) per table, with version gates
//!   as `if(version >= N)` conditions and the sizes a table depends on as
//!   imports;
//! * one `binrw` enum per union, each variant guarded by its `when` condition;
//! * one Rust enum per code table, with its numeric values, names and sizes;
//! * sizes, field offsets and zerocopy views of the records (`codegen/records.rs`).
//!   a field with `code = "X"` has the type of code table `X`, and a table
//!   marked `open = true` keeps codes it does not list as `Unknown(code)`
//!   (see `codegen/codes.rs`).
//!
//! A mistake in `spec/` fails the generator with a message that names the file,
//! the table and the field. The expression syntax used by `len`, `count`,
//! `if`, `when`, `args`, `each` and `version` is a small subset of Rust:
//! identifiers, integer literals, `.`-method calls, arithmetic, comparison
//! and boolean operators. Every identifier must name an import of the table,
//! an earlier field, or a helper listed in [`HELPERS`]. A code is written
//! by its table and spec name, `filter_type == FilterType::ZSTD`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[path = "after.rs"]
mod after;
#[path = "append.rs"]
mod append;
#[path = "codes.rs"]
mod codes;
#[path = "counts.rs"]
mod counts;
#[path = "datatypes.rs"]
mod datatypes;
#[path = "fields.rs"]
mod fields;
#[path = "files.rs"]
mod files;
#[allow(unused_imports)] // tests/it includes the generator for its checks only
pub(crate) use files::{check, generated_files, split, write, LINE_LIMIT, REGENERATE};
#[path = "joined.rs"]
mod joined;
#[path = "lengths.rs"]
mod lengths;
#[path = "model.rs"]
mod model;
use model::{CodeTable, CodeValue, Document, Field, Outside, Table, Union};
#[path = "names.rs"]
mod names;
#[path = "outside.rs"]
mod outside;
#[path = "parts.rs"]
mod parts;
#[path = "records.rs"]
mod records;
#[path = "values.rs"]
mod values;
#[path = "versions.rs"]
mod versions;
#[path = "writers.rs"]
mod writers;

/// Identifiers an expression may use besides imports and earlier fields.
const HELPERS: &[&str] = &["true", "false", "u64", "u32", "usize", "rt"];

const PRIMITIVES: &[(&str, &str, u64)] = &[
    ("u8", "u8", 1),
    ("u16", "u16", 2),
    ("u32", "u32", 4),
    ("u64", "u64", 8),
    ("i8", "i8", 1),
    ("i16", "i16", 2),
    ("i32", "i32", 4),
    ("i64", "i64", 8),
    ("f32", "f32", 4),
    ("f64", "f64", 8),
    // TileDB writes `bool` as one byte; it is kept as that byte so that a
    // value other than 0 or 1 still re-encodes to the same bytes.
    ("bool", "u8", 1),
];

/// A spec mistake, reported with where it is.
#[derive(Debug)]
pub(crate) struct SpecError {
    pub(crate) file: String,
    pub(crate) place: String,
    pub(crate) msg: String,
}

type Res<T> = Result<T, SpecError>;

struct Ctx<'a> {
    file: &'a str,
    place: String,
}

impl Ctx<'_> {
    fn err<T>(&self, msg: impl Into<String>) -> Res<T> {
        Err(SpecError {
            file: self.file.to_string(),
            place: self.place.clone(),
            msg: msg.into(),
        })
    }
}

/// What a type name of `spec/` is.
enum Kind<'a> {
    Prim(&'static str, u64),
    Bytes {
        text: bool,
    },
    /// Text up to and including a `\n`, kept without it.
    Line,
    List(&'a str),
    Table(&'a str),
}

fn kind(ty: &str) -> Option<Kind<'_>> {
    if let Some((_, rust, size)) = PRIMITIVES.iter().find(|(n, _, _)| *n == ty) {
        return Some(Kind::Prim(rust, *size));
    }
    match ty {
        "bytes" => return Some(Kind::Bytes { text: false }),
        "string" => return Some(Kind::Bytes { text: true }),
        "line" => return Some(Kind::Line),
        _ => {}
    }
    if let Some(inner) = ty.strip_prefix("list<").and_then(|t| t.strip_suffix('>')) {
        return Some(Kind::List(inner));
    }
    if ty.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && ty.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return Some(Kind::Table(ty));
    }
    None
}

/// Checks an expression and rewrites references to optional fields so that
/// an absent field reads as zero.
fn expr(
    cx: &Ctx,
    what: &str,
    src: &str,
    known: &BTreeSet<String>,
    optional: &BTreeSet<String>,
) -> Res<String> {
    let mut out = String::new();
    let src = &codes::resolve(cx, what, src)?;
    let chars: Vec<char> = src.chars().collect();
    let mut i = 0;
    let mut after_dot = false;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let ident: String = chars[start..i].iter().collect();
            let path_seg = i + 1 < chars.len() && chars[i] == ':' && chars[i + 1] == ':';
            if after_dot
                || path_seg && (HELPERS.contains(&ident.as_str()) || codes::is_table(&ident))
            {
                out.push_str(&ident);
            } else if optional.contains(&ident) {
                write!(out, "{ident}.clone().unwrap_or_default()").unwrap();
            } else if known.contains(&ident)
                || HELPERS.contains(&ident.as_str())
                || values::is_constant(&ident)
            {
                out.push_str(&ident);
            } else {
                return cx.err(format!(
                    "{what} `{src}` names `{ident}`, which is neither an import nor an earlier field"
                ));
            }
            after_dot = false;
            continue;
        }
        if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                out.push(chars[i]);
                i += 1;
            }
            continue;
        }
        if c == '"' {
            // A string literal, copied as is.
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += 1;
            }
            if i == chars.len() {
                return cx.err(format!("{what} `{src}` has an unterminated string"));
            }
            i += 1;
            out.extend(&chars[start..i]);
            after_dot = false;
            continue;
        }
        if "+-*/%()<>=!&|., :[]".contains(c) {
            after_dot = c == '.' || (c == ':' && i > 0 && chars[i - 1] == ':');
            out.push(c);
            i += 1;
            continue;
        }
        return cx.err(format!(
            "{what} `{src}` has the character `{c}`, which spec expressions do not use"
        ));
    }
    if out.trim().is_empty() {
        return cx.err(format!("{what} is empty"));
    }
    Ok(out)
}

/// Whether `ty` is an integer type (not `bool`, not a float).
fn int_type(ty: &str) -> bool {
    matches!(kind(ty), Some(Kind::Prim(p, _)) if p != "bool" && !p.starts_with('f'))
}

/// `let x = self.x.clone(); ..` for the fields `names`, in that order: what
/// a generated method binds before an expression of the record's fields.
fn bind<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names
        .into_iter()
        .map(|n| format!("let {n} = self.{n}.clone(); "))
        .collect()
}

fn camel(name: &str) -> String {
    name.split('_')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let lower = s.to_ascii_lowercase();
            let mut c = lower.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

fn doc_lines(out: &mut String, indent: &str, text: &str) {
    for line in text.trim().lines() {
        writeln!(out, "{indent}/// {}", line.trim_end()).unwrap();
    }
}

fn is_snake(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

struct Known {
    tables: BTreeMap<String, usize>, // name -> number of imports
    codes: BTreeSet<String>,
}

fn import_names(cx: &Ctx, imports: &[String]) -> Res<Vec<(String, String)>> {
    imports
        .iter()
        .map(|imp| match imp.split_once(':') {
            Some((n, t)) if is_snake(n.trim()) && !t.trim().is_empty() => {
                Ok((n.trim().to_string(), t.trim().to_string()))
            }
            _ => cx.err(format!("import `{imp}` is not of the form `name: Type`")),
        })
        .collect()
}

fn gen_code(out: &mut String, file: &str, code: &CodeTable) -> Res<()> {
    let cx = Ctx {
        file,
        place: format!("code table {}", code.name),
    };
    if !["u8", "u16", "u32", "u64", "i32"].contains(&code.repr.as_str()) {
        return cx.err(format!("repr `{}` is not an integer type", code.repr));
    }
    let mut seen_names = BTreeSet::new();
    let mut seen_values = BTreeSet::new();
    for v in &code.values {
        if !seen_names.insert(v.name.as_str()) {
            return cx.err(format!("value name {} appears twice", v.name));
        }
        if !seen_values.insert(v.value) {
            return cx.err(format!("value {} ({}) appears twice", v.value, v.name));
        }
    }
    let sized = code.values.iter().any(|v| v.size.is_some());
    if sized && code.values.iter().any(|v| v.size.is_none()) {
        return cx.err("some values have a size and others do not");
    }
    let repr = &code.repr;
    if let Some(d) = &code.doc {
        doc_lines(out, "", d);
        writeln!(out, "///").unwrap();
    }
    writeln!(out, "/// Code table from `{file}`.").unwrap();
    let repr_attr = if code.open {
        String::new()
    } else {
        format!("#[repr({repr})]\n")
    };
    writeln!(
        out,
        "{}\n#[non_exhaustive]\n{repr_attr}pub enum {} {{",
        codes::derives(code),
        code.name
    )
    .unwrap();
    for v in &code.values {
        let prefix = code.c_prefix.as_deref().unwrap_or("");
        write!(out, "    /// `{prefix}{}` = {}", v.name, v.value).unwrap();
        if let Some(s) = v.since {
            write!(out, " (new in version {s})").unwrap();
        }
        if let Some(d) = &v.doc {
            write!(out, ": {}", d.trim()).unwrap();
        }
        writeln!(out).unwrap();
        if code.open {
            writeln!(out, "    {},", camel(&v.name)).unwrap();
        } else {
            writeln!(out, "    {} = {},", camel(&v.name), v.value).unwrap();
        }
    }
    codes::unknown_variant(out, code);
    writeln!(out, "}}\n").unwrap();
    writeln!(out, "impl {} {{", code.name).unwrap();
    writeln!(out, "    /// Every value of the table, in spec order.").unwrap();
    write!(out, "    pub const ALL: &'static [Self] = &[").unwrap();
    for v in &code.values {
        write!(out, "Self::{}, ", camel(&v.name)).unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(
        out,
        "    /// The value with this on-disk code, if the format defines one.\n    pub fn from_value(value: {repr}) -> Option<Self> {{\n        match value {{"
    )
    .unwrap();
    for v in &code.values {
        writeln!(
            out,
            "            {} => Some(Self::{}),",
            v.value,
            camel(&v.name)
        )
        .unwrap();
    }
    writeln!(out, "            _ => None,\n        }}\n    }}").unwrap();
    writeln!(
        out,
        "    /// The on-disk code.\n    pub fn value(self) -> {repr} {{\n        {}\n    }}",
        codes::value_body(code)
    )
    .unwrap();
    writeln!(
        out,
        "    /// The format's name of the value, without the C API prefix.\n    pub fn name(self) -> &'static str {{\n        match self {{"
    )
    .unwrap();
    for v in &code.values {
        writeln!(
            out,
            "            Self::{} => \"{}\",",
            camel(&v.name),
            v.name
        )
        .unwrap();
    }
    out.push_str(codes::unknown_name_arm(code));
    writeln!(out, "        }}\n    }}").unwrap();
    writeln!(
        out,
        "    /// The value of this name (as `name()` spells it).\n    pub fn from_name(name: &str) -> Option<Self> {{\n        Self::ALL.iter().copied().find(|v| v.name() == name)\n    }}"
    )
    .unwrap();
    if sized {
        writeln!(
            out,
            "    /// Size in bytes of one value.\n    pub fn size(self) -> u64 {{\n        match self {{"
        )
        .unwrap();
        for v in &code.values {
            writeln!(
                out,
                "            Self::{} => {},",
                camel(&v.name),
                v.size.unwrap()
            )
            .unwrap();
        }
        out.push_str(codes::unknown_size_arm(code));
        writeln!(out, "        }}\n    }}").unwrap();
    }
    writeln!(out, "}}\n").unwrap();
    codes::impls(out, code);
    datatypes::gen(out, &cx, code)
}

fn spec_ref(source: &str, anchor: &Option<String>, spec: &str) -> String {
    let anchor = anchor
        .clone()
        .unwrap_or_else(|| spec.to_ascii_lowercase().replace(' ', "-"));
    format!("{source}#{anchor}")
}

fn gen_table(out: &mut String, doc: &Document, file: &str, t: &Table, known: &Known) -> Res<()> {
    let mut cx = Ctx {
        file,
        place: format!("table {}", t.name),
    };
    let imports = import_names(&cx, &t.imports)?;
    let mut names: BTreeSet<String> = imports.iter().map(|(n, _)| n.clone()).collect();
    let mut optional = BTreeSet::new();
    let endian = if t.big_endian { "big" } else { "little" };
    let reference = spec_ref(&doc.source, &t.anchor, &t.spec);

    if let Some(d) = &t.doc {
        doc_lines(out, "", d);
        writeln!(out, "///").unwrap();
    }
    writeln!(out, "/// Spec: `{reference}` (table \"{}\").", t.spec).unwrap();
    writeln!(out, "#[binrw::binrw]\n#[brw({endian})]").unwrap();
    if !imports.is_empty() {
        let list: Vec<String> = imports.iter().map(|(n, ty)| format!("{n}: {ty}")).collect();
        writeln!(out, "#[br(import({}))]", list.join(", ")).unwrap();
    }
    writeln!(
        out,
        "#[derive(Debug, Clone, Default, PartialEq)]\n#[cfg_attr(feature = \"serde\", derive(serde::Serialize))]\n#[non_exhaustive]\npub struct {} {{",
        t.name
    )
    .unwrap();

    let mut version_expr: Option<String> = None;
    let mut field_names = BTreeSet::new();
    for f in &t.fields {
        cx.place = format!("table {}, field {}", t.name, f.name);
        if !is_snake(&f.name) {
            return cx.err("field names are snake_case");
        }
        if !field_names.insert(f.name.clone()) || imports.iter().any(|(n, _)| *n == f.name) {
            return cx.err("this name is used twice in the table");
        }
        // The version gate may name a field that comes first (the array
        // schema and the footer read their own version).
        if version_expr.is_none() {
            if let Some(v) = &t.version {
                if names.contains(v.trim())
                    || v.contains(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                {
                    if let Ok(e) = expr(&cx, "version", v, &names, &optional) {
                        version_expr = Some(e);
                    }
                }
            }
        }
        let mut conds = Vec::new();
        if f.since.is_some() || f.until.is_some() {
            let Some(v) = &version_expr else {
                return cx.err("has since/until, but the table declares no `version` expression available before this field");
            };
            if let Some(s) = f.since {
                conds.push(format!("({v}) >= {s}"));
            }
            if let Some(u) = f.until {
                conds.push(format!("({v}) < {u}"));
            }
            if let (Some(s), Some(u)) = (f.since, f.until) {
                if s >= u {
                    return cx.err(format!("since {s} is not before until {u}"));
                }
            }
        }
        if let Some(c) = &f.cond {
            conds.push(format!("({})", expr(&cx, "if", c, &names, &optional)?));
        }
        if let Some(code) = &f.code {
            if !known.codes.contains(code) {
                return cx.err(format!("code table `{code}` is not defined in spec/"));
            }
            if !matches!(kind(&f.ty), Some(Kind::Prim(..))) {
                return cx.err("a field with a code table has an integer type");
            }
        }
        let Some(k) = kind(&f.ty) else {
            return cx.err(format!("type `{}` is unknown", f.ty));
        };
        let (mut attrs, rust_ty, serde_attr) =
            fields::attrs_and_type(&cx, t, f, &k, known, (&names, &optional))?;
        if !conds.is_empty() {
            fields::condition(&cx, &mut attrs, &conds.join(" && "))?;
        }
        fields::doc(out, f);
        writeln!(out, "    #[br({})]", attrs.join(", ")).unwrap();
        if matches!(k, Kind::Line) {
            writeln!(out, "    #[bw(write_with = rt::write_line)]").unwrap();
        }
        if let Some(s) = serde_attr {
            let s = if conds.is_empty() {
                s.to_string()
            } else {
                s.replace("serialize_text", "serialize_opt_text")
            };
            writeln!(out, "    {s}").unwrap();
        }
        if conds.is_empty() {
            writeln!(out, "    pub {}: {rust_ty},", f.name).unwrap();
        } else {
            writeln!(out, "    pub {}: Option<{rust_ty}>,", f.name).unwrap();
            optional.insert(f.name.clone());
        }
        names.insert(f.name.clone());
    }
    counts::check_count_of(&mut cx, t)?;
    joined::check_joined(&mut cx, t)?;
    lengths::check_count_in(&mut cx, t)?;
    after::check_places(&mut cx, t, &doc.table)?;
    outside::check_size_of(&mut cx, t)?;
    parts::check_offset_of(&mut cx, t)?;
    append::check_append(&mut cx, t)?;
    if t.version.is_some() && version_expr.is_none() {
        cx.place = format!("table {}", t.name);
        let v = t.version.as_deref().unwrap_or_default();
        expr(&cx, "version", v, &names, &optional)?;
    }
    writeln!(out, "}}\n").unwrap();
    writeln!(
        out,
        "impl {} {{\n    /// Where the spec describes this table.\n    pub const SPEC: &'static str = \"{reference}\";\n}}\n",
        t.name
    )
    .unwrap();
    Ok(())
}

fn gen_union(out: &mut String, doc: &Document, file: &str, u: &Union, known: &Known) -> Res<()> {
    let mut cx = Ctx {
        file,
        place: format!("union {}", u.name),
    };
    let imports = import_names(&cx, &u.imports)?;
    let names: BTreeSet<String> = imports.iter().map(|(n, _)| n.clone()).collect();
    let none = BTreeSet::new();
    let reference = spec_ref(&doc.source, &u.anchor, &u.spec);
    if let Some(d) = &u.doc {
        doc_lines(out, "", d);
        writeln!(out, "///").unwrap();
    }
    writeln!(out, "/// Spec: `{reference}` (\"{}\").", u.spec).unwrap();
    writeln!(out, "#[binrw::binrw]\n#[brw(little)]").unwrap();
    if !imports.is_empty() {
        let list: Vec<String> = imports.iter().map(|(n, ty)| format!("{n}: {ty}")).collect();
        writeln!(out, "#[br(import({}))]", list.join(", ")).unwrap();
    }
    writeln!(out, "#[br(return_unexpected_error)]").unwrap();
    writeln!(
        out,
        "#[derive(Debug, Clone, PartialEq)]\n#[cfg_attr(feature = \"serde\", derive(serde::Serialize))]\n#[cfg_attr(feature = \"serde\", serde(tag = \"variant\", content = \"value\"))]\n#[non_exhaustive]\npub enum {} {{",
        u.name
    )
    .unwrap();
    for v in &u.variants {
        cx.place = format!("union {}, variant {}", u.name, v.name);
        let when = expr(&cx, "when", &v.when, &names, &none)?;
        match &v.doc {
            Some(d) => doc_lines(out, "    ", d),
            // Every public item is documented: say what the variant holds
            // and when it is read.
            None if v.ty == "empty" => {
                writeln!(out, "    /// No bytes; read when `{}`.", v.when).unwrap()
            }
            None => writeln!(out, "    /// A `{}`; read when `{}`.", v.ty, v.when).unwrap(),
        }
        writeln!(out, "    #[br(pre_assert({when}))]").unwrap();
        if v.ty == "empty" {
            writeln!(out, "    {},", v.name).unwrap();
            continue;
        }
        match known.tables.get(&v.ty) {
            None => return cx.err(format!("table `{}` is not defined in spec/", v.ty)),
            Some(n) if *n != v.args.len() => {
                return cx.err(format!(
                    "table `{}` takes {n} arguments, {} given",
                    v.ty,
                    v.args.len()
                ))
            }
            _ => {}
        }
        if v.args.is_empty() {
            writeln!(out, "    {}({}),", v.name, v.ty).unwrap();
        } else {
            let args = v
                .args
                .iter()
                .map(|a| expr(&cx, "args", a, &names, &none))
                .collect::<Res<Vec<_>>>()?;
            writeln!(
                out,
                "    {}(#[br(args({}))] {}),",
                v.name,
                args.join(", "),
                v.ty
            )
            .unwrap();
        }
    }
    writeln!(out, "}}\n").unwrap();
    // A table built in code (`table!`) starts from defaults: the first arm.
    if let Some(first) = u.variants.first() {
        let value = if first.ty == "empty" {
            ""
        } else {
            "(Default::default())"
        };
        writeln!(
            out,
            "impl Default for {} {{\n    fn default() -> Self {{\n        Self::{}{value}\n    }}\n}}\n",
            u.name, first.name
        )
        .unwrap();
    }
    writeln!(
        out,
        "impl {} {{\n    /// Where the spec describes this union.\n    pub const SPEC: &'static str = \"{reference}\";\n}}\n",
        u.name
    )
    .unwrap();
    Ok(())
}

/// The generated code of one output file: its name in `src/generated/` and
/// its (unformatted) Rust.
pub(crate) struct Part {
    pub(crate) file: String,
    pub(crate) code: String,
}

fn read_documents(dir: &Path) -> Res<Vec<(String, Document)>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| SpecError {
            file: "spec/".into(),
            place: String::new(),
            msg: e.to_string(),
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut docs = Vec::new();
    for path in &files {
        let name = format!("spec/{}", path.file_name().unwrap().to_string_lossy());
        let text = std::fs::read_to_string(path).map_err(|e| SpecError {
            file: name.clone(),
            place: String::new(),
            msg: e.to_string(),
        })?;
        let mut doc: Document = toml::from_str(&text).map_err(|e| SpecError {
            file: name.clone(),
            place: String::new(),
            msg: e.to_string(),
        })?;
        for t in &mut doc.table {
            values::expand(&name, t)?;
        }
        docs.push((name, doc));
    }
    Ok(docs)
}

fn register(docs: &[(String, Document)]) -> Res<Known> {
    let mut known = Known {
        tables: BTreeMap::new(),
        codes: BTreeSet::new(),
    };
    for (file, doc) in docs {
        let cx = Ctx {
            file,
            place: String::new(),
        };
        for (name, imports) in doc
            .table
            .iter()
            .map(|t| (&t.name, t.imports.len()))
            .chain(doc.union.iter().map(|u| (&u.name, u.imports.len())))
        {
            if known.tables.insert(name.clone(), imports).is_some() {
                return cx.err(format!("table or union {name} is defined twice"));
            }
        }
        for c in &doc.code {
            if !known.codes.insert(c.name.clone()) {
                return cx.err(format!("code table {} is defined twice", c.name));
            }
            codes::register(c);
        }
    }
    Ok(known)
}

/// Checks every `spec/*.toml` of `dir` and returns the generated Rust, one
/// part per spec document (`<stem>.rs`), after `prelude.rs` and before
/// `index.rs` (the document index, versions, names).
pub(crate) fn generate_parts(dir: &Path) -> Res<Vec<Part>> {
    let docs = read_documents(dir)?;
    values::register(&docs)?;
    let known = register(&docs)?;
    let records = records::Records::new(&docs);
    let mut prelude = String::new();
    codes::prelude(&mut prelude);
    let mut parts = vec![Part {
        file: "prelude.rs".into(),
        code: prelude,
    }];
    let mut index = String::from(
        "/// Every document of `spec/`: (file, title, spec source, tables, code tables).\npub const DOCUMENTS: &[(&str, &str, &str, &[&str], &[&str])] = &[\n",
    );
    let mut all_tables = String::from(
        "/// Every table and union of `spec/`: (name, spec file).\npub const SPEC_TABLES: &[(&str, &str)] = &[\n",
    );
    for (file, doc) in &docs {
        let mut out = String::new();
        values::gen_constants(&mut out, file, doc);
        for name in doc
            .table
            .iter()
            .map(|t| &t.name)
            .chain(doc.union.iter().map(|u| &u.name))
        {
            writeln!(all_tables, "    ({name:?}, {file:?}),").unwrap();
        }
        for c in &doc.code {
            gen_code(&mut out, file, c)?;
        }
        for t in &doc.table {
            gen_table(&mut out, doc, file, t, &known)?;
            records.gen(&mut out, file, t)?;
            writers::gen_table(&mut out, file, t)?;
        }
        for u in &doc.union {
            gen_union(&mut out, doc, file, u, &known)?;
            writers::gen_union(&mut out, u);
        }
        let tables: Vec<String> = doc
            .table
            .iter()
            .map(|t| format!("{:?}", t.name))
            .chain(doc.union.iter().map(|u| format!("{:?}", u.name)))
            .collect();
        let codes: Vec<String> = doc.code.iter().map(|c| format!("{:?}", c.name)).collect();
        writeln!(
            index,
            "    ({file:?}, {:?}, {:?}, &[{}], &[{}]),",
            doc.title,
            doc.source,
            tables.join(", "),
            codes.join(", ")
        )
        .unwrap();
        let stem = file
            .trim_start_matches("spec/")
            .trim_end_matches(".toml")
            .to_string();
        // A document of names only (the version table, the hierarchy)
        // generates into `index.rs`.
        if !out.is_empty() {
            parts.push(Part {
                file: format!("{stem}.rs"),
                code: out,
            });
        }
    }
    index.push_str("];\n");
    all_tables.push_str("];\n");
    index.push_str(&all_tables);
    index.push_str(&versions::generate(&docs)?);
    index.push_str(&names::generate(&docs)?);
    index.push_str(&names::generate_data_files(&docs)?);
    parts.push(Part {
        file: "index.rs".into(),
        code: index,
    });
    Ok(parts)
}

/// Checks every `spec/*.toml` of `dir` and returns the generated Rust as
/// one text (what the parts hold, in order, unformatted).
pub(crate) fn generate(dir: &Path) -> Res<String> {
    Ok(generate_parts(dir)?
        .into_iter()
        .map(|p| p.code)
        .collect::<Vec<_>>()
        .join("\n"))
}
