//! One field of a spec table as the generated struct declares it: its
//! binrw attributes and Rust type, its condition, its documentation.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::{codes, doc_lines, expr, kind, Ctx, Field, Kind, Known, Res, Table};

/// The names a field's expressions may use: every import and earlier
/// field, and of those the ones that are optional.
type Scope<'s> = (&'s BTreeSet<String>, &'s BTreeSet<String>);

/// The binrw attributes of field `f` (of kind `k`) of table `t`, its Rust
/// type and its serde attribute, checked against the tables `known`.
pub(crate) fn attrs_and_type(
    cx: &Ctx,
    t: &Table,
    f: &Field,
    k: &Kind,
    known: &Known,
    (names, optional): Scope,
) -> Res<(Vec<String>, String, Option<&'static str>)> {
    let qual = format!("{}.{}", t.name, f.name);
    let mut attrs = vec![format!("err_context(\"{qual}\")")];
    let rust_ty;
    let mut serde_attr = None;
    let arg_list =
        |cx: &Ctx, names: &BTreeSet<String>, optional: &BTreeSet<String>| -> Res<String> {
            let list = f
                .args
                .iter()
                .map(|a| expr(cx, "args", a, names, optional))
                .collect::<Res<Vec<_>>>()?;
            Ok(list.join(", "))
        };
    let check_args = |cx: &Ctx, name: &str| -> Res<()> {
        match known.tables.get(name) {
            None => cx.err(format!("table `{name}` is not defined in spec/")),
            Some(n) if *n != f.args.len() && f.each.is_none() => cx.err(format!(
                "table `{name}` takes {n} arguments, {} given",
                f.args.len()
            )),
            _ => Ok(()),
        }
    };
    match k {
        Kind::Prim(rust, _) => {
            if f.len.is_some() || f.count.is_some() || !f.args.is_empty() {
                return cx.err("a primitive field takes no len, count or args");
            }
            rust_ty = match &f.code {
                Some(code) => codes::field_type(cx, &f.ty, code)?,
                None => rust.to_string(),
            };
        }
        Kind::Bytes { text } => {
            let Some(len) = &f.len else {
                return cx.err(format!("type `{}` needs a `len` expression", f.ty));
            };
            let len = expr(cx, "len", len, names, optional)?;
            attrs.push(format!(
                "parse_with = rt::bytes, args(({len}) as u64, \"{}\", \"{}\")",
                t.name, f.name
            ));
            rust_ty = "Vec<u8>".into();
            if *text {
                serde_attr = Some("#[cfg_attr(feature = \"serde\", serde(serialize_with = \"rt::serialize_text\"))]");
            }
        }
        Kind::Line => {
            attrs.push(format!(
                "parse_with = rt::line, args(\"{}\", \"{}\")",
                t.name, f.name
            ));
            rust_ty = "Vec<u8>".into();
            serde_attr = Some(
                "#[cfg_attr(feature = \"serde\", serde(serialize_with = \"rt::serialize_text\"))]",
            );
        }
        Kind::List(inner) => {
            let (elem_ty, min) = match kind(inner) {
                Some(Kind::Prim(rust, size)) => (rust.to_string(), size),
                Some(Kind::Table(name)) => {
                    check_args(cx, name)?;
                    (name.to_string(), 1)
                }
                _ => return cx.err(format!("`list<{inner}>` must hold a primitive or a table")),
            };
            if f.to_end {
                if f.count.is_some() || f.each.is_some() {
                    return cx.err("a list takes one of `count`, `each`, `to_end`");
                }
                let args = arg_list(cx, names, optional)?;
                let args = if f.args.is_empty() {
                    "()".to_string()
                } else {
                    format!("({args},)")
                };
                attrs.push(format!(
                    "parse_with = rt::list_to_end, args({args}, \"{}\", \"{}\")",
                    t.name, f.name
                ));
            } else if let Some(each) = &f.each {
                if f.count.is_some() {
                    return cx.err("a list takes `count` or `each`, not both");
                }
                let each = expr(cx, "each", each, names, optional)?;
                attrs.push(format!(
                    "parse_with = rt::list_each, args(({each}).clone(), {min}, \"{}\", \"{}\")",
                    t.name, f.name
                ));
            } else {
                let Some(count) = &f.count else {
                    return cx.err("a list needs a `count` expression");
                };
                let count = expr(cx, "count", count, names, optional)?;
                let args = arg_list(cx, names, optional)?;
                let args = if f.args.is_empty() {
                    "()".to_string()
                } else {
                    format!("({args},)")
                };
                attrs.push(format!(
                    "parse_with = rt::list, args(({count}) as u64, {min}, {args}, \"{}\", \"{}\")",
                    t.name, f.name
                ));
            }
            rust_ty = format!("Vec<{elem_ty}>");
        }
        Kind::Table(name) => {
            if f.len.is_some() || f.count.is_some() {
                return cx.err("a table field takes no len or count");
            }
            check_args(cx, name)?;
            if !f.args.is_empty() {
                attrs.push(format!("args({})", arg_list(cx, names, optional)?));
            }
            rust_ty = name.to_string();
        }
    }
    if let Some(a) = &f.assert {
        let mut known_now = names.clone();
        known_now.insert(f.name.clone());
        let e = expr(cx, "assert", a, &known_now, optional)?;
        attrs.push(format!(
            "assert({e}, \"{qual}: the value does not meet `{}`\")",
            a.replace('"', "'")
        ));
    }
    Ok((attrs, rust_ty, serde_attr))
}

/// Makes the field of `attrs` conditional on `cond`: a helper-read field
/// takes its condition as its first argument.
pub(crate) fn condition(cx: &Ctx, attrs: &mut Vec<String>, cond: &str) -> Res<()> {
    // A helper-read field takes its condition as its first argument.
    match attrs
        .iter()
        .position(|a| a.starts_with("parse_with = rt::"))
    {
        Some(i)
            if attrs[i].contains("rt::list_each")
                || attrs[i].contains("rt::list_to_end")
                || attrs[i].contains("rt::line") =>
        {
            return cx.err("a list with `each` or `to_end`, or a line, cannot be conditional");
        }
        Some(i) => {
            attrs[i] = attrs[i]
                .replacen("parse_with = rt::", "parse_with = rt::opt_", 1)
                .replacen("args(", &format!("args({cond}, "), 1);
        }
        None => attrs.push(format!("if({cond})")),
    }
    Ok(())
}

/// The field's documentation: the spec's wording first.
pub(crate) fn doc(out: &mut String, f: &Field) {
    write!(out, "    /// Spec field \"{}\" (`{}`", f.spec, f.ty).unwrap();
    if let Some(c) = &f.code {
        write!(out, ", values from [`{c}`]").unwrap();
    }
    write!(out, ").").unwrap();
    if let Some(s) = f.since {
        write!(out, " New in version {s}.").unwrap();
    }
    if let Some(u) = f.until {
        write!(out, " Removed in version {u}.").unwrap();
    }
    writeln!(out).unwrap();
    if let Some(d) = &f.doc {
        writeln!(out, "    ///").unwrap();
        doc_lines(out, "    ", d);
    }
}
