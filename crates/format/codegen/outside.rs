//! What a record states of bytes it does not hold, and the head of a record
//! whose last list a writer streams:
//!
//! * for a table with `outside`s (the tile after a generic tile's header,
//!   the parts a filter's chunk metadata gives the lengths of),
//!   `impl X { with_outside_sizes, check_outside_sizes }`: the sizes their
//!   `size_of` fields state, set from those bytes and compared with them
//!   (one size for an outside; for a `list` outside, their total length,
//!   or one size per slice in a `list<int>`);
//! * for a table whose last field is a `stream` list (a `Tile`'s chunks),
//!   `X::head(count)`: the fields before the list, its count stating
//!   `count` elements, which the writer then streams.
//!
//! And the checks of the spec keys behind them (`size_of`, `outside`,
//! `fixed`, `stream`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::writers::optional;
use super::{is_snake, kind, Ctx, Field, Kind, Outside, Res, Table, PRIMITIVES};

/// Checks the `size_of`s, `outside`s, `fixed`s and `stream`s of `t`: a
/// `size_of` is an integer field naming a later field or one of the
/// table's `outside`s (or a `list<int>` naming a `list`
/// outside), every `outside` is named by a `size_of` or an `offset_of`
/// (codegen/parts.rs), a `file` outside is a sized list, a `fixed` field is a
/// plain integer, and a `stream` list is the last field, counted by the
/// only field before it.
pub(crate) fn check_size_of(cx: &mut Ctx, t: &Table) -> Res<()> {
    let mut seen = BTreeSet::new();
    for o in &t.outside {
        cx.place = format!("table {}, outside {}", t.name, o.name);
        if !is_snake(&o.name) {
            return cx.err("outside names are snake_case");
        }
        let import = t.import_names().contains(o.name.as_str());
        if !seen.insert(&o.name) || import || t.fields.iter().any(|f| f.name == o.name) {
            return cx.err("this name is used twice in the table");
        }
        let names = |of: fn(&Field) -> Option<&String>| {
            t.fields.iter().filter(|f| of(f) == Some(&o.name)).count()
        };
        let sized = names(|f| f.size_of.as_ref()) > 0;
        let stating = names(|f| f.size_of.as_ref())
            + names(|f| f.offset_of.as_ref())
            + names(|f| f.count_of.as_ref())
            + names(|f| f.joins.as_ref())
            + names(|f| f.places.as_ref());
        // A list whose last part's value is stated may be counted too (or
        // only that).
        let last = names(|f| f.last_of.as_ref()) > 0;
        if !(stating == 1 || stating == 0 && last) {
            return cx.err(
                "exactly one field names it with size_of, offset_of, count_of, joins or places (a last_of may go with a count_of, or alone; a starts_of with the joins)",
            );
        }
        if o.file && !(o.list && sized) {
            return cx.err("a file outside is a list whose sizes a size_of states");
        }
    }
    for f in &t.fields {
        cx.place = format!("table {}, field {}", t.name, f.name);
        check_fixed_and_stream(cx, t, f)?;
        let Some(target) = &f.size_of else { continue };
        if let Some(o) = t.outside.iter().find(|o| &o.name == target) {
            let int = matches!(kind(&f.ty), Some(Kind::Prim(..))) && f.code.is_none();
            if !(int || o.list && int_list(f).is_some()) {
                return cx.err(
                    "the size of an outside is an integer (or, of a list outside, a list<int>)",
                );
            }
            continue;
        }
        if !matches!(kind(&f.ty), Some(Kind::Prim(..))) || f.code.is_some() {
            return cx.err("a size_of field is an integer");
        }
        let at = t.fields.iter().position(|g| g.name == f.name);
        let target_at = t.fields.iter().position(|g| &g.name == target);
        if !matches!((at, target_at), (Some(a), Some(b)) if a < b) {
            return cx.err(format!(
                "size_of `{target}` is neither a later field nor an outside of the table"
            ));
        }
    }
    Ok(())
}

fn check_fixed_and_stream(cx: &Ctx, t: &Table, f: &Field) -> Res<()> {
    let plain_int = matches!(kind(&f.ty), Some(Kind::Prim(..)))
        && f.code.is_none()
        && !optional(f)
        && f.ty != "bool"
        && !f.ty.starts_with('f');
    if f.fixed.is_some() && (!plain_int || f.size_of.is_some()) {
        return cx.err("a fixed field is an integer that is not optional and states no size");
    }
    if !f.stream {
        return Ok(());
    }
    let last = t.fields.last().map(|g| &g.name) == Some(&f.name);
    let first = &t.fields[0];
    let head_ok = t.fields.len() == 2
        && matches!(kind(&first.ty), Some(Kind::Prim(..)))
        && first.code.is_none()
        && first.fixed.is_none()
        && !optional(first);
    // A list counted by the first field, in a table without imports; or
    // bytes whose length is the first field times imports (values of the
    // width an import gives: `DeltaPart`).
    let list = f.ty.starts_with("list<")
        && f.count.as_deref().map(str::trim) == Some(first.name.as_str())
        && t.imports.is_empty();
    let bytes = f.ty == "bytes"
        && f.len.as_deref().is_some_and(|len| {
            let ids = super::records::idents(len);
            ids.contains(&first.name)
                && ids.iter().all(|i| {
                    *i == first.name
                        || i == "saturating_mul"
                        || t.import_names().contains(i.as_str())
                })
        });
    if !last || optional(f) || !head_ok || !(list || bytes) {
        return cx.err(
            "a stream field is the table's last, not optional, after one plain integer: a list it counts, in a table without imports, or bytes whose len is it times imports",
        );
    }
    Ok(())
}

/// The Rust type of the elements of a `list<int>` field.
fn int_list(f: &Field) -> Option<&'static str> {
    let Some(Kind::List(inner)) = kind(&f.ty) else {
        return None;
    };
    PRIMITIVES
        .iter()
        .find(|(n, _, _)| *n == inner && *n != "bool" && !n.starts_with('f'))
        .map(|(_, r, _)| *r)
}

/// The Rust type of a primitive field.
fn rust_of(f: &Field) -> &'static str {
    PRIMITIVES
        .iter()
        .find(|(n, _, _)| *n == f.ty)
        .map_or("u64", |(_, r, _)| r)
}

/// `impl X { with_outside_sizes, check_outside_sizes }` for a table with
/// `outside` bytes.
pub(crate) fn gen_outside(out: &mut String, t: &Table) {
    let sized: Vec<&Outside> = t
        .outside
        .iter()
        .filter(|o| t.fields.iter().any(|f| f.size_of.as_ref() == Some(&o.name)))
        .collect();
    if sized.is_empty() {
        return;
    }
    let name = &t.name;
    let params: Vec<String> = sized
        .iter()
        .map(|o| {
            if o.file {
                format!("{}: &[impl crate::PartFile]", o.name)
            } else if o.list {
                format!("{}: &[impl AsRef<[u8]>]", o.name)
            } else {
                format!("{}: &[u8]", o.name)
            }
        })
        .collect();
    let params = params.join(", ");
    let mut list = String::new();
    let (mut set, mut check) = (String::new(), String::new());
    for f in &t.fields {
        let Some(o) = t
            .outside
            .iter()
            .find(|o| f.size_of.as_ref() == Some(&o.name))
        else {
            continue;
        };
        let (n, on) = (&f.name, &o.name);
        let doc = o.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        let refuse = |stated: &str| {
            format!(
                "if {stated} as u64 != n {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", {stated} as u64, n)); }}"
            )
        };
        let len_of = if o.file {
            "p.end()"
        } else {
            "p.as_ref().len() as u64"
        };
        if let (true, Some(rust)) = (o.list, int_list(f)) {
            let slice = if o.file { "file" } else { "slice" };
            writeln!(list, "    /// * `{n}` of each {slice} of `{on}`: {doc}").unwrap();
            let r = refuse("v");
            let build = format!(
                "let mut l = alloc::vec::Vec::with_capacity({on}.len()); for p in {on} {{ let n = {len_of}; let v = n as {rust}; {r} l.push(v); }}"
            );
            let (count, r) = (refuse("l.len()"), refuse("*v"));
            let cmp = format!(
                "{{ let n = {on}.len() as u64; {count} }} for (v, p) in l.iter().zip({on}) {{ let n = {len_of}; {r} }}"
            );
            if optional(f) {
                // Set and compared where present.
                writeln!(
                    set,
                    "if self.{n}.is_some() {{ {build} self.{n} = Some(l); }}"
                )
                .unwrap();
                writeln!(check, "if let Some(l) = &self.{n} {{ {cmp} }}").unwrap();
            } else {
                writeln!(set, "{{ {build} self.{n} = l; }}").unwrap();
                writeln!(check, "{{ let l = &self.{n}; {cmp} }}").unwrap();
            }
        } else {
            let rust = rust_of(f);
            let (of, len) = if o.list {
                (
                    "the slices of ",
                    format!("{on}.iter().map(|p| {len_of}).sum::<u64>()"),
                )
            } else {
                ("", format!("{on}.len() as u64"))
            };
            writeln!(list, "    /// * `{n}` of {of}`{on}`: {doc}").unwrap();
            if optional(f) {
                // Set and compared where present.
                let r = refuse("v");
                writeln!(
                    set,
                    "if self.{n}.is_some() {{ let n = {len}; let v = n as {rust}; {r} self.{n} = Some(v); }}"
                )
                .unwrap();
                writeln!(check, "if let Some(v) = self.{n} {{ let n = {len}; {r} }}").unwrap();
                continue;
            }
            let r = refuse(&format!("self.{n}"));
            writeln!(set, "let n = {len}; self.{n} = n as {rust}; {r}").unwrap();
            writeln!(check, "let n = {len}; {r}").unwrap();
        }
    }
    writeln!(
        out,
        "impl {name} {{
    /// Sets the sizes a `{name}` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
{list}    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(mut self, {params}) -> Result<Self, crate::EncodeError> {{
{set}        Ok(self)
    }}
    /// Whether the sizes a `{name}` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(&self, {params}) -> Result<(), crate::EncodeError> {{
{check}        Ok(())
    }}
}}
"
    )
    .unwrap();
}

/// `impl X { head }` for a table whose last field is a `stream` list.
pub(crate) fn gen_head(out: &mut String, t: &Table) {
    let Some(list) = t.fields.iter().find(|f| f.stream) else {
        return;
    };
    let (name, l) = (&t.name, &list.name);
    let c = &t.fields[0];
    let (cn, rust) = (&c.name, rust_of(c));
    writeln!(
        out,
        "impl {name} {{
    /// The head of a `{name}` whose `{l}` a writer streams after it, one
    /// encoded element (or value) after another: the fields before them,
    /// `{cn}` stating `count` of them.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming `{cn}` when `count` does not fit it.
    pub fn head(count: usize) -> Result<alloc::vec::Vec<u8>, crate::EncodeError> {{
        let n = count as u64;
        let v = n as {rust};
        if v as u64 != n {{ return Err(crate::EncodeError::size(\"{name}\", \"{cn}\", v as u64, n)); }}
        let head = Self {{ {cn}: v, ..Default::default() }};
        Ok(crate::decode::encode_unchecked(&head))
    }}
}}
"
    )
    .unwrap();
}
