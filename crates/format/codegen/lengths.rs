//! Lengths a record states through an expression of its fields, not one
//! field: `check` compares every computed `len` or `count` that names no
//! import with the field it sizes (a metadata entry's `value`, `num_values`
//! values of its type's width), and `with_sizes` sets a count field that
//! says, with `count_in` and `unit`, how many values of `unit` bytes a
//! later `bytes` field holds (`num_values`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::records::idents;
use super::writers::optional;
use super::{bind, expr, int_type, Ctx, Res, Table, PRIMITIVES};

/// The fields of `t` and the optional ones among them.
fn fields(t: &Table) -> (BTreeSet<String>, BTreeSet<String>) {
    let known = t.fields.iter().map(|f| f.name.clone()).collect();
    let opt = t
        .fields
        .iter()
        .filter(|f| optional(f))
        .map(|f| f.name.clone())
        .collect();
    (known, opt)
}

/// The bindings of the fields `src` names, in the table's order.
fn bindings(t: &Table, src: &str) -> String {
    let used = idents(src);
    bind(
        t.fields
            .iter()
            .filter(|f| used.contains(&f.name))
            .map(|f| f.name.as_str()),
    )
}

/// Checks the `count_in`s of `t`: on a plain integer field (optional only
/// with its counted field), naming a later `bytes` field sized by a `len`,
/// with a `unit`; a `unit` goes with a `count_in`.
pub(crate) fn check_count_in(cx: &mut Ctx, t: &Table) -> Res<()> {
    for (i, f) in t.fields.iter().enumerate() {
        cx.place = format!("table {}, field {}", t.name, f.name);
        let Some(target) = &f.count_in else {
            if f.unit.is_some() {
                return cx.err("unit goes with count_in");
            }
            continue;
        };
        let plain = f.size_of.is_none()
            && f.count_of.is_none()
            && f.last_of.is_none()
            && f.offset_of.is_none()
            && f.fixed.is_none();
        if !int_type(&f.ty) || f.code.is_some() || !plain {
            return cx.err("a count_in field is an integer stating nothing else");
        }
        let Some(g) = t.fields[i + 1..].iter().find(|g| &g.name == target) else {
            return cx.err(format!("count_in `{target}` is not a later field"));
        };
        if g.ty != "bytes" || g.len.is_none() || optional(f) != optional(g) {
            return cx.err(format!(
                "count_in `{target}` is `bytes` sized by a `len`, optional exactly when this field is"
            ));
        }
        let Some(unit) = &f.unit else {
            return cx.err("a count_in has a unit (the bytes of one value)");
        };
        if idents(unit)
            .iter()
            .any(|i| t.import_names().contains(i.as_str()))
        {
            return cx.err("a unit names no import (with_sizes has none)");
        }
        let (known, opt) = fields(t);
        expr(cx, "unit", unit, &known, &opt)?;
    }
    Ok(())
}

/// The statements of `with_sizes` that set the `count_in` fields.
pub(crate) fn with_sizes(file: &str, t: &Table) -> Res<String> {
    let (known, opt) = fields(t);
    let mut out = String::new();
    for f in &t.fields {
        let (Some(target), Some(unit)) = (&f.count_in, &f.unit) else {
            continue;
        };
        let cx = Ctx {
            file,
            place: format!("table {}, field {}", t.name, f.name),
        };
        let e = expr(&cx, "unit", unit, &known, &opt)?;
        let bind = bindings(t, unit);
        let rust = PRIMITIVES
            .iter()
            .find(|(n, _, _)| *n == f.ty)
            .map_or("u64", |(_, r, _)| r);
        let n = &f.name;
        let count = format!(
            "{{ {bind}let unit = ({e}) as u64; if unit > 0 {{ self.{n} = {} }} }}",
            if optional(f) {
                format!("Some((x.len() as u64 / unit) as {rust});")
            } else {
                format!("(x.len() as u64 / unit) as {rust};")
            }
        );
        if optional(f) {
            writeln!(out, "if let Some(x) = &self.{target} {{ {count} }}").unwrap();
        } else {
            writeln!(out, "{{ let x = &self.{target}; {count} }}").unwrap();
        }
    }
    Ok(out)
}

/// Whether `src` is one field of `t` (the lengths `with_sizes` sets and
/// `check` compares as pairs).
fn one_field(t: &Table, src: &str) -> bool {
    t.fields.iter().any(|g| g.name == src.trim())
}

/// The statements of `check` comparing each computed `len` or `count`
/// that names no import with the length of the field it sizes.
pub(crate) fn checks(file: &str, t: &Table) -> Res<String> {
    let (known, opt) = fields(t);
    let imports = t.import_names();
    let mut out = String::new();
    for f in &t.fields {
        let Some(src) = f.len.as_ref().or(f.count.as_ref()) else {
            continue;
        };
        if one_field(t, src)
            || f.each.is_some()
            || f.to_end
            || idents(src).iter().any(|i| imports.contains(i.as_str()))
        {
            continue;
        }
        let cx = Ctx {
            file,
            place: format!("table {}, field {}", t.name, f.name),
        };
        let e = expr(&cx, "len", src, &known, &opt)?;
        let (name, n) = (&t.name, &f.name);
        let test = format!(
            "{{ {}let stated = ({e}) as u64; let actual = x.len() as u64; if stated != actual {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", stated, actual)); }} }}",
            bindings(t, src)
        );
        if optional(f) {
            writeln!(out, "if let Some(x) = &self.{n} {test}").unwrap();
        } else {
            writeln!(out, "{{ let x = &self.{n}; {test} }}").unwrap();
        }
    }
    Ok(out)
}
