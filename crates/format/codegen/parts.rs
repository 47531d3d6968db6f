//! Offsets a record states of parts of its file: for a table whose fields
//! name an `outside` with `offset_of` (a fragment footer's `rtree_offset`,
//! a `TileOffsets`' `values`), `XParts`, which appends each part to a
//! [`PartFile`](crate::PartFile) and keeps where it starts, and
//! `impl X { with_outside_offsets, check_outside_offsets }`, which set the
//! record's offsets from it and compare them with it.

use std::fmt::Write as _;

use super::writers::optional;
use super::{kind, Ctx, Field, Kind, Res, Table, PRIMITIVES};

/// The Rust integer type of an offset field (or of the elements of a list
/// of offsets): `None` when it is not one.
fn offset_type(f: &Field, list: bool) -> Option<&'static str> {
    let inner = match (kind(&f.ty)?, list) {
        (Kind::Prim(..), false) if f.code.is_none() => f.ty.as_str(),
        (Kind::List(inner), true) => inner,
        _ => return None,
    };
    PRIMITIVES
        .iter()
        .find(|(n, _, _)| *n == inner && *n != "bool" && !n.starts_with('f'))
        .map(|(_, r, _)| *r)
}

/// Checks the `offset_of`s of `t`: each names an `outside` of the table
/// that no other field names, and is an integer (a `list<int>` for a
/// `list` outside).
pub(crate) fn check_offset_of(cx: &mut Ctx, t: &Table) -> Res<()> {
    for f in &t.fields {
        let Some(target) = &f.offset_of else { continue };
        cx.place = format!("table {}, field {}", t.name, f.name);
        if f.size_of.is_some() || f.fixed.is_some() || f.stream {
            return cx.err("an offset_of field states no size, is not fixed and not streamed");
        }
        let Some(o) = t.outside.iter().find(|o| &o.name == target) else {
            return cx.err(format!(
                "offset_of `{target}` is not an outside of the table"
            ));
        };
        if t.fields
            .iter()
            .filter(|g| g.offset_of.as_ref() == Some(target))
            .count()
            > 1
        {
            return cx.err(format!("another field's offset_of names `{target}` too"));
        }
        if offset_type(f, o.list).is_none() {
            return cx.err("an offset is an integer (the offsets of a list outside a list<int>)");
        }
    }
    Ok(())
}

/// `XParts` and `impl X { with_outside_offsets, check_outside_offsets }`
/// for a table with `offset_of` fields.
pub(crate) fn gen_parts(out: &mut String, t: &Table) {
    let placed: Vec<(&Field, &super::Outside)> = t
        .fields
        .iter()
        .filter_map(|f| {
            let o = t
                .outside
                .iter()
                .find(|o| f.offset_of.as_ref() == Some(&o.name))?;
            Some((f, o))
        })
        .collect();
    if placed.is_empty() {
        return;
    }
    let name = &t.name;
    let (mut fields, mut list, mut pushes, mut set, mut check) = Default::default();
    for (f, o) in &placed {
        gen_part(
            name,
            f,
            o,
            (&mut fields, &mut list, &mut pushes, &mut set, &mut check),
        );
    }
    writeln!(
        out,
        "/// Where the parts a `{name}` points at start in its file, measured as a
/// writer appends them with the `push_*` methods, in the file's order;
/// [`{name}::with_outside_offsets`] sets the record's offsets from it:
///
{list}#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct {name}Parts {{
{fields}}}

impl {name}Parts {{
{pushes}}}

impl {name} {{
    /// Sets the offsets a `{name}` states of the parts of its file from
    /// where `parts` measured them (the fields its version or conditions
    /// lack stay absent).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) naming the part when
    /// the record points at one that was not appended, or lacks the field
    /// of one that was; [`EncodeError::Offset`](crate::EncodeError::Offset)
    /// when an offset does not fit its field.
    pub fn with_outside_offsets(mut self, parts: &{name}Parts) -> Result<Self, crate::EncodeError> {{
{set}        Ok(self)
    }}
    /// Whether the offsets a `{name}` states are where `parts` measured
    /// the parts of its file ([`with_outside_offsets`](Self::with_outside_offsets)).
    ///
    /// # Errors
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// field that disagrees (for a list, first its length, then each
    /// offset); [`EncodeError::Part`](crate::EncodeError::Part) when the
    /// record and the parts disagree on whether a part is there.
    pub fn check_outside_offsets(&self, parts: &{name}Parts) -> Result<(), crate::EncodeError> {{
{check}        Ok(())
    }}
}}
"
    )
    .unwrap();
}

/// The pieces of `XParts` and of its two `impl X` methods for one
/// `offset_of` field `f` of outside `o`: the struct field, the doc line,
/// the `push_*` method, the statements of `with_outside_offsets` and of
/// `check_outside_offsets`.
fn gen_part(
    name: &str,
    f: &Field,
    o: &super::Outside,
    (fields, list, pushes, set, check): (
        &mut String,
        &mut String,
        &mut String,
        &mut String,
        &mut String,
    ),
) {
    let (n, on) = (&f.name, &o.name);
    let rust = offset_type(f, o.list).unwrap_or("u64");
    let doc = o.doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let fit = format!(
        "let v = at as {rust}; if v as u64 != at {{ return Err(crate::EncodeError::offset(\"{name}\", \"{n}\", v as u64, at)); }}"
    );
    let lacks = format!(
        "crate::EncodeError::part(\"{name}\", \"{on}\", \"appended, but the record has no `{n}` (its version or condition lacks it)\")"
    );
    let missing = format!(
        "crate::EncodeError::part(\"{name}\", \"{on}\", \"not appended, but the record's `{n}` points at it\")"
    );
    let append_doc = "/// Appends `part` (its pieces in order: one part) to `file`";
    if o.list {
        writeln!(list, "/// * `{on}`, one after another (`{n}`): {doc}").unwrap();
        writeln!(fields, "    {on}: alloc::vec::Vec<u64>,").unwrap();
        writeln!(
            pushes,
            "    {append_doc} as the next of the `{on}`: {doc} Gives where it starts.
    pub fn push_{on}<'a>(&mut self, file: &mut impl crate::PartFile, part: impl IntoIterator<Item = &'a [u8]>) -> u64 {{
        let at = file.end();
        for p in part {{ file.put(p); }}
        self.{on}.push(at);
        at
    }}"
        )
        .unwrap();
        let build = format!(
            "let mut l = alloc::vec::Vec::with_capacity(parts.{on}.len()); for &at in &parts.{on} {{ {fit} l.push(v); }}"
        );
        let cmp = format!(
            "if l.len() != parts.{on}.len() {{ return Err(crate::EncodeError::offset(\"{name}\", \"{n}\", l.len() as u64, parts.{on}.len() as u64)); }} for (v, &at) in l.iter().zip(&parts.{on}) {{ if *v as u64 != at {{ return Err(crate::EncodeError::offset(\"{name}\", \"{n}\", *v as u64, at)); }} }}"
        );
        if optional(f) {
            writeln!(
                set,
                "if self.{n}.is_some() {{ {build} self.{n} = Some(l); }} else if !parts.{on}.is_empty() {{ return Err({lacks}); }}"
            )
            .unwrap();
            writeln!(
                check,
                "match &self.{n} {{ Some(l) => {{ {cmp} }} None if !parts.{on}.is_empty() => return Err({lacks}), None => {{}} }}"
            )
            .unwrap();
        } else {
            writeln!(set, "{{ {build} self.{n} = l; }}").unwrap();
            writeln!(check, "{{ let l = &self.{n}; {cmp} }}").unwrap();
        }
        return;
    }
    writeln!(list, "/// * `{on}` (`{n}`): {doc}").unwrap();
    writeln!(fields, "    {on}: Option<u64>,").unwrap();
    writeln!(
        pushes,
        "    {append_doc} as the `{on}`: {doc} Gives where it starts.
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when it was appended before (the record points at one).
    pub fn push_{on}<'a>(&mut self, file: &mut impl crate::PartFile, part: impl IntoIterator<Item = &'a [u8]>) -> Result<u64, crate::EncodeError> {{
        if self.{on}.is_some() {{ return Err(crate::EncodeError::part(\"{name}\", \"{on}\", \"appended twice, but the record points at one\")); }}
        let at = file.end();
        for p in part {{ file.put(p); }}
        self.{on} = Some(at);
        Ok(at)
    }}"
    )
    .unwrap();
    let cmp = format!(
        "if v as u64 != at {{ return Err(crate::EncodeError::offset(\"{name}\", \"{n}\", v as u64, at)); }}"
    );
    if optional(f) {
        writeln!(
            set,
            "match (self.{n}.is_some(), parts.{on}) {{ (true, Some(at)) => {{ {fit} self.{n} = Some(v); }} (true, None) => return Err({missing}), (false, Some(_)) => return Err({lacks}), (false, None) => {{}} }}"
        )
        .unwrap();
        writeln!(
            check,
            "match (self.{n}, parts.{on}) {{ (Some(v), Some(at)) => {{ {cmp} }} (Some(_), None) => return Err({missing}), (None, Some(_)) => return Err({lacks}), (None, None) => {{}} }}"
        )
        .unwrap();
    } else {
        writeln!(
            set,
            "match parts.{on} {{ Some(at) => {{ {fit} self.{n} = v; }} None => return Err({missing}), }}"
        )
        .unwrap();
        writeln!(
            check,
            "match parts.{on} {{ Some(at) => {{ let v = self.{n}; {cmp} }} None => return Err({missing}), }}"
        )
        .unwrap();
    }
}
