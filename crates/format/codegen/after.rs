//! Parts that follow a record and that its list's elements point at: for a
//! table whose `list<Table>` field `places` a `list` outside, element `i`'s
//! integer field `place` stating where part `i` starts, counted from the
//! start of the record, the parts following the record one after another
//! (a consolidated fragment metadata file's index, each entry's `offset`
//! of its footer), `impl X { with_parts_after, check_parts_after }`.

use std::fmt::Write as _;

use super::writers::optional;
use super::{int_type, kind, Ctx, Kind, Res, Table};

/// Checks the `places` and `place` of `t`: `places` on a non-optional
/// `list` of a table, naming a `list` outside (not a `file` one) of `t`,
/// with `place`, a plain integer field of the element table, a table of
/// the same document (`tables`).
pub(crate) fn check_places(cx: &mut Ctx, t: &Table, tables: &[Table]) -> Res<()> {
    for f in &t.fields {
        cx.place = format!("table {}, field {}", t.name, f.name);
        let (Some(target), Some(place)) = (&f.places, &f.place) else {
            if f.places.is_some() || f.place.is_some() {
                return cx.err("places and place go together");
            }
            continue;
        };
        let element = match kind(&f.ty) {
            Some(Kind::List(inner)) => inner,
            _ => return cx.err("a places field is a list of a table"),
        };
        let Some(e) = tables.iter().find(|e| e.name == element) else {
            return cx.err("a places field is a list of a table of its document");
        };
        if optional(f) {
            return cx.err("a places field is not optional");
        }
        let Some(o) = t.outside.iter().find(|o| &o.name == target) else {
            return cx.err(format!("places `{target}` is not an outside of the table"));
        };
        if !o.list || o.file {
            return cx.err(format!(
                "places `{target}` is not a list outside (of parts, not files)"
            ));
        }
        let ok = e.fields.iter().any(|g| {
            &g.name == place
                && int_type(&g.ty)
                && g.code.is_none()
                && !optional(g)
                && g.fixed.is_none()
        });
        if !ok {
            return cx.err(format!(
                "place `{place}` is a plain integer field of {element}"
            ));
        }
    }
    Ok(())
}

/// `impl X { with_parts_after, check_parts_after }` for a table with a
/// `places` field.
pub(crate) fn gen_after(out: &mut String, t: &Table) {
    let Some(f) = t.fields.iter().find(|f| f.places.is_some()) else {
        return;
    };
    let (Some(on), Some(place)) = (&f.places, &f.place) else {
        return;
    };
    let Some(o) = t.outside.iter().find(|o| &o.name == on) else {
        return;
    };
    let (name, n) = (&t.name, &f.name);
    let doc = o.doc.split_whitespace().collect::<Vec<_>>().join(" ");
    let count = format!(
        "if s.{n}.len() != {on}.len() {{ return Err(crate::EncodeError::part(\"{name}\", \"{on}\", \"one part per element of the list that points at them\")); }}"
    );
    writeln!(
        out,
        "impl {name} {{
    /// Sets, in each element of `{n}`, where its part of `{on}` starts (its
    /// `{place}`), the parts following the record, which counts them from
    /// its start (it is completed by [`with_sizes`](crate::Record::with_sizes)
    /// first):
    ///
    /// * `{on}`: {doc}
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when there is not
    /// one part per element, [`EncodeError::Size`](crate::EncodeError::Size)
    /// when a start does not fit its field.
    pub fn with_parts_after(self, {on}: &[impl AsRef<[u8]>]) -> Result<Self, crate::EncodeError> {{
        let mut s = crate::Record::with_sizes(self);
        {count}
        let mut at = crate::decode::encode_unchecked(&s).len() as u64;
        for (e, p) in s.{n}.iter_mut().zip({on}) {{
            e.{place} = at as _;
            if e.{place} as u64 != at {{ return Err(crate::EncodeError::size(\"{name}\", \"{place}\", e.{place} as u64, at)); }}
            at += p.as_ref().len() as u64;
        }}
        Ok(s)
    }}
    /// Whether each element of `{n}` states where its part of `{on}`
    /// starts ([`with_parts_after`](Self::with_parts_after)).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when there is not
    /// one part per element, [`EncodeError::Offset`](crate::EncodeError::Offset)
    /// naming the first start that is wrong.
    pub fn check_parts_after(&self, {on}: &[impl AsRef<[u8]>]) -> Result<(), crate::EncodeError> {{
        let s = self;
        {count}
        let mut at = crate::decode::encode_unchecked(s).len() as u64;
        for (e, p) in s.{n}.iter().zip({on}) {{
            if e.{place} as u64 != at {{ return Err(crate::EncodeError::offset(\"{name}\", \"{place}\", e.{place} as u64, at)); }}
            at += p.as_ref().len() as u64;
        }}
        Ok(())
    }}
}}
"
    )
    .unwrap();
}
