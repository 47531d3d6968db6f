//! Sizes, field offsets and zero-copy views of the records of `spec/`.
//!
//! For every table this module works out which parts of its layout are
//! known without reading it, and generates, next to the table's binrw
//! struct:
//!
//! * `X::SIZE`, when every field has a fixed size and no condition (a
//!   *fixed-size record*);
//! * `X::OFFSET_<FIELD>` for every field whose offset is a constant: the
//!   fields of the fixed-size prefix and the first field after it;
//! * `XRef`, a `#[repr(C)]` struct of zerocopy's unaligned little- (or
//!   big-) endian integers over the fixed-size prefix (the whole record when
//!   it is fixed-size), read in place with `XRef::read` (zerocopy's
//!   `ref_from_prefix`), with one accessor per field;
//! * `X::size(..) -> Option<u64>`, when the size follows from the table's
//!   imports, its version and a few of its own fields (those that later
//!   lengths, counts and conditions name), passed as arguments; an optional
//!   field passed as `None` while present makes the size unknown (`None`),
//!   as does an overflow or a present field whose size depends on its
//!   content;
//! * `X::offset_<field>(..) -> Option<u64>` for the fields past the
//!   constant prefix, when the size follows from the imports alone.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{expr, import_names, kind, Ctx, Document, Field, Kind, Res, Table};

/// What is known of a table's layout before reading it.
struct Layout {
    /// The size of a fixed-size record.
    fixed: Option<u64>,
    /// The parameters of `size()`, when it is generated.
    size_fn: Option<Vec<Param>>,
}

struct Param {
    name: String,
    ty: String,
    /// A field of the table (not an import).
    data: bool,
    /// A field with a condition (`Option<ty>`).
    optional: bool,
}

impl Layout {
    /// Whether an enclosing table can compute this table's size from its
    /// arguments alone (fixed, or every field argument optional).
    fn nestable(&self) -> bool {
        self.fixed.is_some()
            || self
                .size_fn
                .as_ref()
                .is_some_and(|ps| ps.iter().all(|p| !p.data || p.optional))
    }
}

/// Every table's layout, worked out once.
pub(crate) struct Records<'a> {
    tables: BTreeMap<&'a str, (&'a str, &'a Table)>,
    layouts: BTreeMap<String, Layout>,
}

/// The identifiers an expression names (not method names, not paths).
pub(crate) fn idents(src: &str) -> Vec<String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut after_dot = false;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let path_seg = i + 1 < chars.len() && chars[i] == ':' && chars[i + 1] == ':';
            if !after_dot && !path_seg {
                out.push(chars[start..i].iter().collect());
            }
            after_dot = false;
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += 1;
            }
            i += 1;
        } else {
            after_dot = c == '.';
            i += 1;
        }
    }
    out
}

/// The length of a `bytes` field whose `len` is a number.
fn literal_len(f: &Field) -> Option<u64> {
    match kind(&f.ty)? {
        Kind::Bytes { .. } => f.len.as_deref()?.trim().parse().ok(),
        _ => None,
    }
}

fn conditional(f: &Field) -> bool {
    f.since.is_some() || f.until.is_some() || f.cond.is_some()
}

impl<'a> Records<'a> {
    pub(crate) fn new(docs: &'a [(String, Document)]) -> Self {
        let mut tables = BTreeMap::new();
        for (file, doc) in docs {
            for t in &doc.table {
                tables.insert(t.name.as_str(), (file.as_str(), t));
            }
        }
        let mut r = Records {
            tables,
            layouts: BTreeMap::new(),
        };
        let names: Vec<&str> = r.tables.keys().copied().collect();
        for name in names {
            r.layout(name, &mut BTreeSet::new());
        }
        r
    }

    /// The layout of table `name` (`None` for a union, or a table met again
    /// while working out its own layout).
    fn layout(&mut self, name: &str, visiting: &mut BTreeSet<String>) -> Option<&Layout> {
        if !self.layouts.contains_key(name) {
            let (_, t) = *self.tables.get(name)?;
            if !visiting.insert(name.to_string()) {
                return None;
            }
            let l = self.work_out(t, visiting);
            visiting.remove(name);
            self.layouts.insert(name.to_string(), l);
        }
        self.layouts.get(name)
    }

    /// The size of a field when it is a constant (no condition, fixed type).
    fn const_size(&mut self, f: &Field, visiting: &mut BTreeSet<String>) -> Option<u64> {
        if conditional(f) {
            return None;
        }
        match kind(&f.ty)? {
            Kind::Prim(_, n) => Some(n),
            Kind::Bytes { .. } => literal_len(f),
            Kind::Table(name) => self.layout(name, visiting)?.fixed,
            _ => None,
        }
    }

    /// Whether `size()` can say how many bytes the field takes when present.
    fn sizable(&mut self, f: &Field, visiting: &mut BTreeSet<String>) -> bool {
        match kind(&f.ty) {
            Some(Kind::Prim(..) | Kind::Bytes { .. }) => true,
            Some(Kind::List(inner)) if !f.to_end => match kind(inner) {
                Some(Kind::Prim(..)) => f.count.is_some(),
                Some(Kind::Table(name)) => {
                    self.layout(name, visiting).is_some_and(Layout::nestable)
                }
                _ => false,
            },
            Some(Kind::Table(name)) => self.layout(name, visiting).is_some_and(Layout::nestable),
            _ => false,
        }
    }

    fn work_out(&mut self, t: &Table, visiting: &mut BTreeSet<String>) -> Layout {
        let mut total = Some(0u64);
        for f in &t.fields {
            total = match (total, self.const_size(f, visiting)) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            };
        }
        if total.is_some() {
            return Layout {
                fixed: total,
                size_fn: None,
            };
        }
        let no_fn = Layout {
            fixed: None,
            size_fn: None,
        };
        // The fields that later lengths, counts, conditions and arguments
        // name become arguments of `size()`.
        let fields: BTreeSet<&str> = t.fields.iter().map(|f| f.name.as_str()).collect();
        let mut named = BTreeSet::new();
        for f in &t.fields {
            let mut srcs: Vec<&str> = [&f.len, &f.count, &f.cond, &f.each]
                .into_iter()
                .flatten()
                .map(String::as_str)
                .collect();
            srcs.extend(f.args.iter().map(String::as_str));
            if f.since.is_some() || f.until.is_some() {
                srcs.extend(t.version.as_deref());
            }
            for s in srcs {
                named.extend(
                    idents(s)
                        .into_iter()
                        .filter(|i| fields.contains(i.as_str())),
                );
            }
        }
        let Ok(imports) = import_names(
            &Ctx {
                file: "",
                place: String::new(),
            },
            &t.imports,
        ) else {
            return no_fn;
        };
        let mut params: Vec<Param> = imports
            .into_iter()
            .map(|(name, ty)| Param {
                name,
                ty,
                data: false,
                optional: false,
            })
            .collect();
        for f in &t.fields {
            if !self.sizable(f, visiting) && !conditional(f) {
                return no_fn;
            }
            if named.contains(&f.name) {
                let Some(Kind::Prim(rust, _)) = kind(&f.ty) else {
                    return no_fn;
                };
                params.push(Param {
                    name: f.name.clone(),
                    // A code field is passed as its code table's enum.
                    ty: f.code.clone().unwrap_or_else(|| rust.to_string()),
                    data: true,
                    optional: conditional(f),
                });
            }
        }
        Layout {
            fixed: None,
            size_fn: Some(params),
        }
    }

    fn get(&self, name: &str) -> Option<&Layout> {
        self.layouts.get(name)
    }

    /// Rust of an expression that gives the size of one `name`, called with
    /// `args` (already Rust).
    fn nested_size(&self, name: &str, args: &[String]) -> Option<String> {
        let l = self.get(name).filter(|l| l.nestable())?;
        if let Some(n) = l.fixed {
            return Some(format!("{n}u64"));
        }
        let params = l.size_fn.as_ref()?;
        let mut list: Vec<String> = args.iter().map(|a| format!("({a}).clone()")).collect();
        list.extend(params.iter().filter(|p| p.data).map(|_| "None".to_string()));
        Some(format!("{name}::size({})?", list.join(", ")))
    }

    /// Statements that add the sizes of `fields` to `__len`.
    fn walk(&self, cx: &mut Ctx, t: &Table, fields: &[Field], out: &mut String) -> Res<()> {
        let imports = import_names(cx, &t.imports)?;
        let mut known: BTreeSet<String> = imports.iter().map(|(n, _)| n.clone()).collect();
        known.extend(t.fields.iter().map(|f| f.name.clone()));
        let optional: BTreeSet<String> = t
            .fields
            .iter()
            .filter(|f| conditional(f))
            .map(|f| f.name.clone())
            .collect();
        let params: BTreeSet<&str> = self
            .get(&t.name)
            .and_then(|l| l.size_fn.as_ref())
            .map(|ps| {
                ps.iter()
                    .filter(|p| p.data)
                    .map(|p| p.name.as_str())
                    .collect()
            })
            .unwrap_or_default();
        for f in fields {
            cx.place = format!("table {}, field {}", t.name, f.name);
            let mut conds = Vec::new();
            if f.since.is_some() || f.until.is_some() {
                let v = t.version.as_deref().unwrap_or_default();
                let v = expr(cx, "version", v, &known, &optional)?;
                if let Some(s) = f.since {
                    conds.push(format!("({v}) >= {s}"));
                }
                if let Some(u) = f.until {
                    conds.push(format!("({v}) < {u}"));
                }
            }
            if let Some(c) = &f.cond {
                conds.push(format!("({})", expr(cx, "if", c, &known, &optional)?));
            }
            let args = f
                .args
                .iter()
                .map(|a| expr(cx, "args", a, &known, &optional))
                .collect::<Res<Vec<_>>>()?;
            let add = |e: String| format!("__len = __len.checked_add({e})?;");
            let stmt = match kind(&f.ty) {
                Some(Kind::Prim(_, n)) => Some(add(format!("{n}"))),
                Some(Kind::Bytes { .. }) => {
                    let len = expr(
                        cx,
                        "len",
                        f.len.as_deref().unwrap_or("0"),
                        &known,
                        &optional,
                    )?;
                    Some(add(format!("({len}) as u64")))
                }
                Some(Kind::List(inner)) if !f.to_end => {
                    if let Some(each) = &f.each {
                        let each = expr(cx, "each", each, &known, &optional)?;
                        match kind(inner) {
                            Some(Kind::Table(name)) => self
                                .nested_size(name, &["__e".to_string()])
                                .map(|s| format!("for __e in ({each}).iter() {{ {} }}", add(s))),
                            _ => None,
                        }
                    } else if let Some(count) = &f.count {
                        let count = expr(cx, "count", count, &known, &optional)?;
                        let elem = match kind(inner) {
                            Some(Kind::Prim(_, n)) => Some(format!("{n}u64")),
                            Some(Kind::Table(name)) => self.nested_size(name, &args),
                            _ => None,
                        };
                        elem.map(|e| add(format!("(({count}) as u64).checked_mul({e})?")))
                    } else {
                        None
                    }
                }
                Some(Kind::Table(name)) => self.nested_size(name, &args).map(add),
                _ => None,
            };
            let mut body = String::new();
            if params.contains(f.name.as_str()) && conditional(f) {
                // Present, so its value must be given.
                writeln!(body, "{}?;", f.name).unwrap();
            }
            match stmt {
                Some(s) => writeln!(body, "{s}").unwrap(),
                None => writeln!(body, "return None;").unwrap(),
            }
            writeln!(out, "// {} (`{}`)", f.name, f.ty).unwrap();
            if conds.is_empty() {
                out.push_str(&body);
            } else {
                writeln!(out, "if {} {{\n{body}}}", conds.join(" && ")).unwrap();
            }
        }
        Ok(())
    }

    /// Everything this module generates for table `t` (the generator formats
    /// the whole file with prettyplease).
    pub(crate) fn gen(&self, out: &mut String, file: &str, t: &Table) -> Res<()> {
        let mut cx = Ctx {
            file,
            place: format!("table {}", t.name),
        };
        let Some(layout) = self.get(&t.name) else {
            return Ok(());
        };
        // The constant offsets, and the fields of the fixed-size prefix.
        let mut offsets = Vec::new();
        let mut prefix: Vec<(&Field, u64)> = Vec::new();
        let mut at = Some(0u64);
        for f in &t.fields {
            let Some(o) = at else { break };
            offsets.push((f, o));
            let size = if conditional(f) {
                None
            } else {
                match kind(&f.ty) {
                    Some(Kind::Prim(_, n)) => Some(n),
                    Some(Kind::Bytes { .. }) => literal_len(f),
                    Some(Kind::Table(name)) => self.get(name).and_then(|l| l.fixed),
                    _ => None,
                }
            };
            at = size.map(|s| o + s);
            if let Some(s) = size {
                if prefix.len() + 1 == offsets.len() {
                    prefix.push((f, s));
                }
            }
        }
        let name = &t.name;
        writeln!(out, "impl {name} {{").unwrap();
        if let Some(n) = layout.fixed {
            writeln!(
                out,
                "/// Bytes of one `{name}`: every field has a fixed size.\npub const SIZE: usize = {n};"
            )
            .unwrap();
        }
        for (f, o) in &offsets {
            writeln!(
                out,
                "/// Where field `{}` (spec \"{}\") starts in a `{name}`.\npub const OFFSET_{}: usize = {o};",
                f.name,
                f.spec.replace('"', "'"),
                f.name.to_ascii_uppercase()
            )
            .unwrap();
        }
        if let Some(params) = &layout.size_fn {
            let list: Vec<String> = params
                .iter()
                .map(|p| match p.optional {
                    true => format!("{}: Option<{}>", p.name, p.ty),
                    false => format!("{}: {}", p.name, p.ty),
                })
                .collect();
            let data: Vec<String> = params
                .iter()
                .filter(|p| p.data)
                .map(|p| format!("`{}`", p.name))
                .collect();
            writeln!(out, "/// Bytes of a `{name}` with these imports").unwrap();
            if data.is_empty() {
                writeln!(out, "/// (its size depends on nothing else);").unwrap();
            } else {
                writeln!(
                    out,
                    "/// and the values of its fields\n/// {}\n/// (`None` for an optional field: unknown);",
                    data.join(", ")
                )
                .unwrap();
            }
            writeln!(
                out,
                "/// `None` when that does not settle it (a present field whose size\n/// depends on its content, an unknown field, an overflow)."
            )
            .unwrap();
            writeln!(
                out,
                "#[allow(unused_mut)]\npub fn size({}) -> Option<u64> {{\nlet mut __len: u64 = 0;",
                list.join(", ")
            )
            .unwrap();
            self.walk(&mut cx, t, &t.fields, out)?;
            writeln!(out, "Some(__len)\n}}").unwrap();
            if !params.iter().any(|p| p.data) {
                for (i, f) in t.fields.iter().enumerate().skip(offsets.len()) {
                    writeln!(
                        out,
                        "/// Where field `{}` (spec \"{}\") starts in a `{name}` with these\n/// imports; `None` on overflow or when it depends on the content.\n#[allow(unused_mut)]\npub fn offset_{}({}) -> Option<u64> {{\nlet mut __len: u64 = 0;",
                        f.name,
                        f.spec.replace('"', "'"),
                        f.name,
                        list.join(", ")
                    )
                    .unwrap();
                    self.walk(&mut cx, t, &t.fields[..i], out)?;
                    writeln!(out, "Some(__len)\n}}").unwrap();
                }
            }
        }
        writeln!(out, "}}\n").unwrap();
        if !prefix.is_empty() {
            if let Err(msg) = self.gen_view(out, t, &prefix, layout.fixed.is_some()) {
                return cx.err(msg);
            }
        }
        Ok(())
    }

    /// The zerocopy view over the fixed-size prefix `prefix` of `t`.
    fn gen_view(
        &self,
        out: &mut String,
        t: &Table,
        prefix: &[(&Field, u64)],
        whole: bool,
    ) -> Result<(), String> {
        let name = &t.name;
        let view = format!("{name}Ref");
        let size: u64 = prefix.iter().map(|(_, s)| s).sum();
        let endian = if t.big_endian {
            "big_endian"
        } else {
            "little_endian"
        };
        if whole {
            writeln!(out, "/// A `{name}` borrowed in place: all its fields.").unwrap();
        } else {
            let next = &t.fields[prefix.len()].name;
            writeln!(
                out,
                "/// The fixed-size fields that open a `{name}` borrowed in place: the\n/// fields before `{next}`."
            )
            .unwrap();
        }
        writeln!(
            out,
            "///\n/// Zerocopy's unaligned {} integers: read it at any offset with\n/// [`{view}::read`] (`ref_from_prefix`), nothing copied.",
            endian.replace('_', "-")
        )
        .unwrap();
        writeln!(
            out,
            "#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]\n#[non_exhaustive]\n#[repr(C)]\npub struct {view} {{"
        )
        .unwrap();
        let mut accessors = String::new();
        let mut record = Vec::new();
        for (f, n) in prefix {
            let (ty, ret, get) = match kind(&f.ty) {
                Some(Kind::Bytes { .. }) => {
                    (format!("[u8; {n}]"), format!("&[u8; {n}]"), "&self.F")
                }
                Some(Kind::Prim(rust, 1)) => (rust.to_string(), rust.to_string(), "self.F"),
                Some(Kind::Prim(rust, _)) => (
                    format!(
                        "zerocopy::byteorder::{endian}::{}",
                        rust.to_ascii_uppercase()
                    ),
                    rust.to_string(),
                    "self.F.get()",
                ),
                Some(Kind::Table(n)) => (format!("{n}Ref"), format!("&{n}Ref"), "&self.F"),
                _ => unreachable!("the prefix holds primitives, fixed bytes and fixed tables"),
            };
            writeln!(
                out,
                "/// Field `{}` as stored (spec \"{}\").\npub {}: {ty},",
                f.name,
                f.spec.replace('"', "'"),
                f.name
            )
            .unwrap();
            writeln!(
                accessors,
                "/// Field `{}` (spec \"{}\").\npub fn {}(&self) -> {ret} {{\n{}\n}}",
                f.name,
                f.spec.replace('"', "'"),
                f.name,
                get.replace('F', &f.name)
            )
            .unwrap();
            let owned = match (kind(&f.ty), &f.code) {
                (Some(Kind::Table(_)), _) => format!("self.{}.record()", f.name),
                (Some(Kind::Bytes { .. }), _) => format!("self.{}.to_vec()", f.name),
                // The view keeps a code as stored; the record holds its
                // enum, which an open table builds from any code.
                (_, Some(code)) if super::codes::is_open(code) => {
                    format!("{code}::from_raw(self.{}())", f.name)
                }
                (_, Some(code)) if whole => {
                    return Err(format!(
                        "field {} of a whole view is of the closed code table {code}: its record() could fail",
                        f.name
                    ));
                }
                _ => format!("self.{}()", f.name),
            };
            record.push(format!("{}: {owned}", f.name));
        }
        writeln!(out, "}}\n\nimpl {view} {{").unwrap();
        writeln!(
            out,
            "/// Bytes the view covers.\npub const SIZE: usize = {size};\n/// The view of the first [`{view}::SIZE`] bytes of `bytes`; `None`\n/// when there are fewer.\npub fn read(bytes: &[u8]) -> Option<&Self> {{\n<Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)\n}}"
        )
        .unwrap();
        out.push_str(&accessors);
        if !whole {
            borrowed_bytes(out, t, prefix)?;
        }
        if whole {
            writeln!(
                out,
                "/// The owned `{name}` (the binrw struct) with the same values.\npub fn record(&self) -> {name} {{\n{name} {{ {} }}\n}}",
                record.join(", ")
            )
            .unwrap();
        }
        writeln!(
            out,
            "}}\n\n/// The view is exactly its fields: `size_of::<{view}>()` is\n/// [`{view}::SIZE`] (else this does not compile).\nconst _: [(); {view}::SIZE] = [(); core::mem::size_of::<{view}>()];\n"
        )
        .unwrap();
        Ok(())
    }
}

/// `code` formatted by prettyplease, or as it is when it does not parse
/// (the compiler then says where). Attributes with arguments and
/// `macro_rules!` items are kept as written: prettyplease re-spaces the
/// tokens of the first (`==` would print as `= =`, which binrw's `if(..)`
/// cannot read) and flows the body of the second onto long lines, so each
/// is swapped for a placeholder while formatting and put back after.
pub(crate) fn pretty(code: &str) -> String {
    let (masked, attrs) = mask_attributes(code);
    let Ok(file) = syn::parse_file(&masked) else {
        return code.to_string();
    };
    let formatted = prettyplease::unparse(&file);
    let mut out = String::with_capacity(code.len() + code.len() / 4);
    let mut rest = formatted.as_str();
    let mut used = 0;
    loop {
        let next = [PLACEHOLDER, ITEM_PLACEHOLDER]
            .iter()
            .filter_map(|p| rest.find(p).map(|at| (at, *p)))
            .min();
        let Some((at, marker)) = next else { break };
        out.push_str(&rest[..at]);
        let after = &rest[at + marker.len()..];
        let close = if marker == PLACEHOLDER {
            "__]"
        } else {
            "__: () = ();"
        };
        let Some(end) = after.find(close) else {
            return code.to_string();
        };
        let Some(attr) = after[..end]
            .parse::<usize>()
            .ok()
            .and_then(|i| attrs.get(i))
        else {
            return code.to_string();
        };
        out.push_str(attr);
        used += 1;
        rest = &after[end + close.len()..];
    }
    out.push_str(rest);
    // A placeholder prettyplease printed some other way: keep the code as is.
    if used != attrs.len() {
        return code.to_string();
    }
    out
}

const PLACEHOLDER: &str = "#[__spec_attr_";
const ITEM_PLACEHOLDER: &str = "const __spec_item_";

/// `code` with every attribute that has arguments (`#[br(..)]`, not
/// `#[doc = ..]` or a comment) replaced by `#[__spec_attr_<i>__]`, and the
/// attributes in order.
fn mask_attributes(code: &str) -> (String, Vec<String>) {
    let b = code.as_bytes();
    let mut out = String::with_capacity(code.len());
    let mut attrs = Vec::new();
    let (mut i, mut copied) = (0, 0);
    // The end of a string literal opening at `i` (one past its `"`).
    let string_end = |mut i: usize| {
        i += 1;
        while i < b.len() && b[i] != b'"' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        (i + 1).min(b.len())
    };
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = code[i..].find('\n').map_or(b.len(), |n| i + n);
            }
            b'"' => i = string_end(i),
            // A char literal (`'_'`, `'\\n'`); a lifetime is left alone.
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 3,
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i = code[i + 2..].find('\'').map_or(b.len(), |n| i + 3 + n);
            }
            b'm' if code[i..].starts_with("macro_rules!") && (i == 0 || b[i - 1] == b'\n') => {
                let start = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'"' => {
                            i = string_end(i);
                            continue;
                        }
                        b'{' => depth += 1,
                        b'}' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                out.push_str(&code[copied..start]);
                out.push_str(&format!("{ITEM_PLACEHOLDER}{}__: () = ();", attrs.len()));
                attrs.push(code[start..i].to_string());
                copied = i;
            }
            b'#' if b.get(i + 1) == Some(&b'[') => {
                let start = i;
                let mut depth = 0usize;
                while i < b.len() {
                    match b[i] {
                        b'"' => {
                            i = string_end(i);
                            continue;
                        }
                        b'[' | b'(' => depth += 1,
                        b']' | b')' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                i += 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                let attr = &code[start..i];
                if attr.contains('(') && !attr.starts_with("#[doc") {
                    out.push_str(&code[copied..start]);
                    out.push_str(&format!("{PLACEHOLDER}{}__]", attrs.len()));
                    attrs.push(attr.to_string());
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    out.push_str(&code[copied..]);
    (out, attrs)
}

/// When the field after the view's prefix is `bytes` whose `len` names only
/// imports and prefix fields: `XRef::<field>(bytes, imports..)`, the field
/// borrowed in place (the owned struct copies it into a `Vec`).
fn borrowed_bytes(out: &mut String, t: &Table, prefix: &[(&Field, u64)]) -> Result<(), String> {
    let f = &t.fields[prefix.len()];
    let Some(len) = &f.len else { return Ok(()) };
    if !matches!(kind(&f.ty), Some(Kind::Bytes { .. })) || conditional(f) {
        return Ok(());
    }
    let cx = Ctx {
        file: "",
        place: String::new(),
    };
    let imports = super::import_names(&cx, &t.imports).map_err(|e| e.msg)?;
    let mut params = Vec::new();
    let mut binds = String::new();
    let mut ids = idents(len);
    ids.sort();
    ids.dedup();
    for id in ids {
        if let Some((name, ty)) = imports.iter().find(|(n, _)| *n == id) {
            params.push(format!("{name}: {ty}"));
        } else if let Some((p, _)) = prefix.iter().find(|(p, _)| p.name == id) {
            // A code field would be its enum in the struct: not handled.
            if p.code.is_some() || !matches!(kind(&p.ty), Some(Kind::Prim(..))) {
                return Ok(());
            }
            writeln!(binds, "let {id} = self.{id}();").unwrap();
        } else if !super::HELPERS.contains(&id.as_str()) {
            return Ok(());
        }
    }
    writeln!(
        out,
        "/// Field `{}` (spec \"{}\") borrowed in place: its bytes right after the\n/// view in `bytes` (what the view was read from); `None` when `bytes` is\n/// shorter or the length does not fit.\n#[allow(clippy::unnecessary_cast)]\npub fn {}<'a>(&self, bytes: &'a [u8]{}) -> Option<&'a [u8]> {{\n{binds}let len = usize::try_from(({len}) as u64).ok()?;\nbytes.get(Self::SIZE..)?.get(..len)\n}}",
        f.name,
        f.spec.replace('"', "'"),
        f.name,
        params.iter().map(|p| format!(", {p}")).collect::<String>(),
    )
    .unwrap();
    Ok(())
}
