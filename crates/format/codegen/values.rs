//! Named values and constants of the spec language.
//!
//! A table's `[[table.value]]` defines a derived value once (Kaitai's
//! `instances`): a name, an expression, and optionally `since`/`until`
//! with an `otherwise` expression for the versions outside them. Fields
//! refer to it by name in `len`, `count`, `if`, `args`, `each` and `assert`;
//! the generator expands it where it is used (so it may name fields read
//! before that use). A version gate is always `since`/`until` (of a field or
//! a value): an expression that compares the table's version with a number
//! is refused.
//!
//! A document's `[[constant]]` is a limit or marker of the format
//! (`MAX_CONDITION_DEPTH`, `VAR_NUM`), generated as a `pub const` and
//! usable by name in expressions.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Deserialize;

use super::{doc_lines, is_snake, Ctx, Document, Res, Table};

/// A derived value of a table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NamedValue {
    pub(crate) name: String,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    /// The value (for the versions of `since`/`until`, when given).
    pub(crate) expr: String,
    #[serde(default)]
    pub(crate) since: Option<u32>,
    #[serde(default)]
    pub(crate) until: Option<u32>,
    /// The value in the versions outside `since`/`until`.
    #[serde(default)]
    pub(crate) otherwise: Option<String>,
}

/// A named limit or marker of the format.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Constant {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    /// A Rust constant expression of `type` (`64`, `u32::MAX`, `"__coords"`).
    value: String,
    doc: String,
}

thread_local! {
    static CONSTANTS: RefCell<BTreeSet<String>> = RefCell::default();
}

/// Whether `ident` is a `[[constant]]` of some document.
pub(crate) fn is_constant(ident: &str) -> bool {
    CONSTANTS.with(|c| c.borrow().contains(ident))
}

fn is_const_name(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Registers every document's constants (before any expression is checked).
pub(crate) fn register(docs: &[(String, Document)]) -> Res<()> {
    CONSTANTS.with(|c| c.borrow_mut().clear());
    for (file, doc) in docs {
        for k in &doc.constant {
            let cx = Ctx {
                file,
                place: format!("constant {}", k.name),
            };
            if !is_const_name(&k.name) {
                return cx.err("constant names are UPPER_SNAKE_CASE");
            }
            if !["u8", "u16", "u32", "u64", "usize", "i32", "i64", "&str"].contains(&k.ty.as_str())
            {
                return cx.err(format!("type `{}` is not an integer type or &str", k.ty));
            }
            if !CONSTANTS.with(|c| c.borrow_mut().insert(k.name.clone())) {
                return cx.err("this constant is defined twice");
            }
        }
    }
    Ok(())
}

/// The constants of `doc` as Rust.
pub(crate) fn gen_constants(out: &mut String, file: &str, doc: &Document) {
    for k in &doc.constant {
        doc_lines(out, "", &k.doc);
        writeln!(out, "///\n/// Constant from `{file}`.").unwrap();
        writeln!(out, "pub const {}: {} = {};\n", k.name, k.ty, k.value).unwrap();
    }
}

/// The identifiers of `src` outside string literals, with their byte
/// offsets, skipping those after a `.` or `::` (methods, path segments).
fn idents(src: &str) -> Vec<(usize, &str)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let before = src[..start].trim_end();
            if !(before.ends_with('.') || before.ends_with("::")) {
                out.push((start, &src[start..i]));
            }
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// Refuses `version >= 5`-style comparisons of the table's version with a
/// number in `src`: gates are `since`/`until`.
fn no_version_comparison(cx: &Ctx, what: &str, src: &str, version: &str) -> Res<()> {
    const OPS: [&str; 6] = [">=", "<=", "==", "!=", ">", "<"];
    for (at, id) in idents(src) {
        if id != version {
            continue;
        }
        let after = src[at + id.len()..].trim_start();
        let before = src[..at].trim_end();
        let next_is_number = OPS.iter().any(|op| {
            after
                .strip_prefix(op)
                .is_some_and(|r| r.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        });
        let prev_is_number = OPS.iter().any(|op| {
            before
                .strip_suffix(op)
                .is_some_and(|r| r.trim_end().ends_with(|c: char| c.is_ascii_digit()))
        });
        if next_is_number || prev_is_number {
            return cx.err(format!(
                "{what} `{src}` compares the version `{version}` with a number: gate it with `since`/`until` (of the field, or of a named value)"
            ));
        }
    }
    Ok(())
}

/// `src` with every named value replaced by its (parenthesized) expansion.
fn substitute(src: &str, values: &[(String, String)]) -> String {
    let mut out = String::new();
    let mut copied = 0;
    for (at, id) in idents(src) {
        if let Some((_, expansion)) = values.iter().find(|(n, _)| n == id) {
            out.push_str(&src[copied..at]);
            write!(out, "({expansion})").unwrap();
            copied = at + id.len();
        }
    }
    out.push_str(&src[copied..]);
    out
}

/// Checks the named values of `t` and expands them into its fields'
/// expressions; refuses version comparisons written by hand.
pub(crate) fn expand(file: &str, t: &mut Table) -> Res<()> {
    let mut cx = Ctx {
        file,
        place: format!("table {}", t.name),
    };
    // The version the table's expressions may not compare with numbers: its
    // declared `version`, else an import named `version`.
    let version = t
        .version
        .clone()
        .filter(|v| is_snake(v.trim()))
        .or_else(|| {
            t.imports
                .iter()
                .any(|i| i.split(':').next().map(str::trim) == Some("version"))
                .then(|| "version".to_string())
        });
    let mut values: Vec<(String, String)> = Vec::new();
    let mut used = BTreeSet::new();
    for v in &t.values {
        cx.place = format!("table {}, value {}", t.name, v.name);
        if !is_snake(&v.name) {
            return cx.err("value names are snake_case");
        }
        if t.fields.iter().any(|f| f.name == v.name)
            || t.imports
                .iter()
                .any(|i| i.split(':').next().map(str::trim) == Some(&v.name))
            || values.iter().any(|(n, _)| *n == v.name)
        {
            return cx.err("this name is used twice in the table");
        }
        if let Some(version) = &version {
            no_version_comparison(&cx, "expr", &v.expr, version)?;
            if let Some(o) = &v.otherwise {
                no_version_comparison(&cx, "otherwise", o, version)?;
            }
        }
        for (_, id) in idents(&v.expr)
            .into_iter()
            .chain(idents(v.otherwise.as_deref().unwrap_or("")))
        {
            used.insert(id.to_string());
        }
        let expr = substitute(&v.expr, &values);
        let expansion = match (v.since, v.until, &v.otherwise) {
            (None, None, None) => expr,
            (None, None, Some(_)) => return cx.err("`otherwise` needs `since` or `until`"),
            (_, _, None) => return cx.err("a value with `since`/`until` needs `otherwise`"),
            (since, until, Some(o)) => {
                let Some(ver) = &t.version else {
                    return cx
                        .err("has since/until, but the table declares no `version` expression");
                };
                let mut gate = Vec::new();
                if let Some(s) = since {
                    gate.push(format!("({ver}) >= {s}"));
                }
                if let Some(u) = until {
                    gate.push(format!("({ver}) < {u}"));
                }
                format!(
                    "rt::pick({}, {expr}, {})",
                    gate.join(" && "),
                    substitute(o, &values)
                )
            }
        };
        values.push((v.name.clone(), expansion));
    }
    for f in &mut t.fields {
        cx.place = format!("table {}, field {}", t.name, f.name);
        let exprs = [
            &mut f.len,
            &mut f.count,
            &mut f.cond,
            &mut f.each,
            &mut f.assert,
            &mut f.count_if,
            &mut f.unit,
        ]
        .into_iter()
        .flatten()
        .chain(f.args.iter_mut());
        for e in exprs {
            if let Some(version) = &version {
                no_version_comparison(&cx, "expression", e, version)?;
            }
            for (_, id) in idents(e) {
                used.insert(id.to_string());
            }
            *e = substitute(e, &values);
        }
    }
    for v in &t.values {
        if !used.contains(&v.name) {
            cx.place = format!("table {}, value {}", t.name, v.name);
            return cx.err("this value is never used");
        }
    }
    Ok(())
}
