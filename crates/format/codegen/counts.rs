//! What a record states of parts it does not hold, beyond their sizes and
//! offsets: for a table whose integer fields name a `list` outside with
//! `count_of` (how many parts; a fragment footer's `sparse_tile_num`,
//! counted only where its `count_if` holds: a sparse fragment) or
//! `last_of` (the value of the last part, the parts being integers; the
//! footer's `last_tile_cell_num`), `impl X { with_outside_counts,
//! check_outside_counts }`, which set each such field from the parts a
//! writer gives and compare it.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::writers::optional;
use super::{bind, expr, int_type, Ctx, Field, Outside, Res, Table, PRIMITIVES};

/// Checks the `count_of`s, `count_if`s and `last_of`s of `t`: each names a
/// `list` outside of the table (not a `file` one), on a plain integer that
/// states nothing else (no `size_of`, `offset_of`, `fixed`, `stream`, not
/// optional); a `count_if` goes with a `count_of` and names earlier fields
/// only; the `last_of`s of one outside have one type.
pub(crate) fn check_count_of(cx: &mut Ctx, t: &Table) -> Res<()> {
    let mut last_types: Vec<(&str, &str)> = Vec::new();
    for f in &t.fields {
        cx.place = format!("table {}, field {}", t.name, f.name);
        if f.count_if.is_some() && f.count_of.is_none() {
            return cx.err("count_if goes with count_of");
        }
        if f.count_of.is_some() && f.last_of.is_some() {
            return cx.err("a field is a count_of or a last_of, not both");
        }
        let Some((key, target)) = f
            .count_of
            .as_ref()
            .map(|o| ("count_of", o))
            .or(f.last_of.as_ref().map(|o| ("last_of", o)))
        else {
            continue;
        };
        if f.size_of.is_some() || f.offset_of.is_some() || f.fixed.is_some() || f.stream {
            return cx.err(format!(
                "a {key} field states no size or offset, is not fixed and not streamed"
            ));
        }
        let Some(o) = t.outside.iter().find(|o| &o.name == target) else {
            return cx.err(format!("{key} `{target}` is not an outside of the table"));
        };
        if !o.list || o.file {
            return cx.err(format!(
                "{key} `{target}` is not a list outside (of parts, not files)"
            ));
        }
        if !int_type(&f.ty) || f.code.is_some() || optional(f) {
            return cx.err(format!("a {key} field is an integer, not optional"));
        }
        if f.last_of.is_some() {
            if let Some((_, ty)) = last_types.iter().find(|(o, _)| *o == target.as_str()) {
                if *ty != f.ty.as_str() {
                    return cx.err(format!(
                        "the last_of fields of `{target}` have one type (the parts' type)"
                    ));
                }
            }
            last_types.push((target, &f.ty));
        }
        if let Some(cond) = &f.count_if {
            condition(cx, t, f, cond)?;
        }
    }
    Ok(())
}

/// The fields of `t` before `f` (all that a `count_if` may name) and the
/// optional ones among them.
fn earlier<'a>(t: &'a Table, f: &Field) -> (BTreeSet<String>, BTreeSet<String>, Vec<&'a str>) {
    let (mut known, mut opt, mut names) = (BTreeSet::new(), BTreeSet::new(), Vec::new());
    for g in t.fields.iter().take_while(|g| g.name != f.name) {
        known.insert(g.name.clone());
        names.push(g.name.as_str());
        if optional(g) {
            opt.insert(g.name.clone());
        }
    }
    (known, opt, names)
}

/// `f`'s `count_if` as Rust over the record's fields, preceded by the
/// bindings of the fields it names (`let dense = self.dense.clone();`).
fn condition(cx: &Ctx, t: &Table, f: &Field, cond: &str) -> Res<String> {
    let (known, opt, names) = earlier(t, f);
    let e = expr(cx, "count_if", cond, &known, &opt)?;
    let used = super::records::idents(cond);
    let bind = bind(names.into_iter().filter(|n| used.iter().any(|u| u == n)));
    Ok(format!("{bind}({e})"))
}

/// One statement of `with_outside_counts` (`set`) or of
/// `check_outside_counts` for field `f`, whose outside is `on`.
fn statement(cx: &Ctx, t: &Table, f: &Field, on: &str, set: bool) -> Res<String> {
    let (name, n) = (&t.name, &f.name);
    let assign = if set {
        format!("self.{n} = v as _; if self.{n} as u64 != v {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", self.{n} as u64, v)); }}")
    } else {
        format!("if self.{n} as u64 != v {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", self.{n} as u64, v)); }}")
    };
    if f.last_of.is_some() {
        return Ok(format!(
            "{{ let Some(&v) = {on}.last() else {{ return Err(crate::EncodeError::part(\"{name}\", \"{on}\", \"the value of its last part is stated and it has none\")); }}; let v = v as u64; {assign} }}"
        ));
    }
    let count = match &f.count_if {
        Some(c) => format!(
            "if {{ {} }} {{ {on}.len() as u64 }} else {{ 0 }}",
            condition(cx, t, f, c)?
        ),
        None => format!("{on}.len() as u64"),
    };
    Ok(format!("{{ let v = {count}; {assign} }}"))
}

/// `impl X { with_outside_counts, check_outside_counts }` for a table with
/// `count_of` or `last_of` fields: one argument per outside they name, in
/// the fields' order, a slice of the parts' integers where a `last_of`
/// names it (any slice otherwise).
pub(crate) fn gen_counts(out: &mut String, file: &str, t: &Table) -> Res<()> {
    let named = |f: &Field, o: &Outside| {
        f.count_of.as_ref() == Some(&o.name) || f.last_of.as_ref() == Some(&o.name)
    };
    let mut outsides: Vec<&Outside> = Vec::new();
    for f in &t.fields {
        if let Some(o) = t.outside.iter().find(|o| named(f, o)) {
            if !outsides.iter().any(|p| p.name == o.name) {
                outsides.push(o);
            }
        }
    }
    if outsides.is_empty() {
        return Ok(());
    }
    let name = &t.name;
    let (mut params, mut list, mut set, mut check) =
        (String::new(), String::new(), String::new(), String::new());
    for o in &outsides {
        let on = &o.name;
        let last = t
            .fields
            .iter()
            .find(|f| f.last_of.as_ref() == Some(&o.name));
        let ty = match last {
            Some(f) => PRIMITIVES
                .iter()
                .find(|(n, _, _)| *n == f.ty)
                .map_or("u64", |(_, r, _)| r),
            None => "impl Sized",
        };
        let _ = write!(params, ", {on}: &[{ty}]");
        let doc = o.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = writeln!(list, "    /// * `{on}`: {doc}");
    }
    for f in &t.fields {
        let Some(o) = t.outside.iter().find(|o| named(f, o)) else {
            continue;
        };
        let cx = Ctx {
            file,
            place: format!("table {}, field {}", t.name, f.name),
        };
        writeln!(set, "        {}", statement(&cx, t, f, &o.name, true)?).unwrap();
        writeln!(check, "        {}", statement(&cx, t, f, &o.name, false)?).unwrap();
    }
    writeln!(
        out,
        "impl {name} {{
    /// Sets what a `{name}` states of parts it does not hold (how many
    /// there are, the value of the last), one element of each argument
    /// per part:
    ///
{list}    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) when a value does
    /// not fit its field, [`EncodeError::Part`](crate::EncodeError::Part)
    /// when the value of a last part is stated and there is none.
    pub fn with_outside_counts(mut self{params}) -> Result<Self, crate::EncodeError> {{
{set}        Ok(self)
    }}
    /// Whether what a `{name}` states of parts it does not hold is true
    /// of the parts given ([`with_outside_counts`](Self::with_outside_counts)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first
    /// field that disagrees, [`EncodeError::Part`](crate::EncodeError::Part)
    /// as `with_outside_counts`.
    pub fn check_outside_counts(&self{params}) -> Result<(), crate::EncodeError> {{
{check}        Ok(())
    }}
}}
"
    )
    .unwrap();
    Ok(())
}
