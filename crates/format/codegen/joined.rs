//! Var-sized values a record holds joined, with where each starts: for a
//! table whose `bytes` field `joins` a `list` outside (an enumeration's
//! `data`, a var field's tile mins in `var`, the members of an `IN`
//! condition in `value`) and whose `bytes` field is the `starts_of` it
//! (`offsets`, `fixed`: a u64 little-endian per part, where it starts in the
//! joined bytes), `impl X { with_joined, check_joined }`, which set both
//! from the parts a writer gives and compare them.

use std::fmt::Write as _;

use super::writers::optional;
use super::{Ctx, Field, Outside, Res, Table};

/// Checks the `joins` and `starts_of` of `t`: each is a `bytes` field with
/// a `len` that states nothing else, naming a `list` outside of the table
/// (not a `file` one); an outside is joined by exactly one field, and its
/// starts (if stated) are in another one.
pub(crate) fn check_joined(cx: &mut Ctx, t: &Table) -> Res<()> {
    for f in &t.fields {
        let Some((key, target)) = f
            .joins
            .as_ref()
            .map(|o| ("joins", o))
            .or(f.starts_of.as_ref().map(|o| ("starts_of", o)))
        else {
            continue;
        };
        cx.place = format!("table {}, field {}", t.name, f.name);
        if f.joins.is_some() && f.starts_of.is_some() {
            return cx.err("a field joins the parts or states their starts, not both");
        }
        let plain = f.size_of.is_none()
            && f.offset_of.is_none()
            && f.count_of.is_none()
            && f.last_of.is_none()
            && !f.stream;
        if f.ty != "bytes" || f.len.is_none() || !plain {
            return cx.err(format!(
                "a {key} field is `bytes` with a `len`, stating nothing else"
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
        let joins = t
            .fields
            .iter()
            .filter(|g| g.joins.as_ref() == Some(target))
            .count();
        let starts = t
            .fields
            .iter()
            .filter(|g| g.starts_of.as_ref() == Some(target))
            .count();
        if joins != 1 || starts > 1 {
            return cx.err(format!(
                "`{target}` is joined by exactly one field, its starts stated by at most one"
            ));
        }
    }
    Ok(())
}

/// The fields of `t` that join the parts of `o` and state their starts.
fn fields_of<'a>(t: &'a Table, o: &Outside) -> (Option<&'a Field>, Option<&'a Field>) {
    let of =
        |pick: fn(&Field) -> Option<&String>| t.fields.iter().find(|f| pick(f) == Some(&o.name));
    (of(|f| f.joins.as_ref()), of(|f| f.starts_of.as_ref()))
}

/// `impl X { with_joined, check_joined }` for a table with `joins` fields:
/// one argument per joined outside, in the order of the outsides.
pub(crate) fn gen_joined(out: &mut String, t: &Table) {
    let joined: Vec<(&Outside, &Field, Option<&Field>)> = t
        .outside
        .iter()
        .filter_map(|o| match fields_of(t, o) {
            (Some(j), s) => Some((o, j, s)),
            _ => None,
        })
        .collect();
    if joined.is_empty() {
        return;
    }
    let name = &t.name;
    let (mut params, mut list, mut set, mut check) =
        (String::new(), String::new(), String::new(), String::new());
    for (o, j, s) in &joined {
        let on = &o.name;
        let _ = write!(params, ", {on}: &[impl AsRef<[u8]>]");
        let doc = o.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        let starts = s.map_or(String::new(), |s| {
            format!(", where each starts in it in `{}`", s.name)
        });
        let _ = writeln!(
            list,
            "    /// * `{on}`, joined in `{}`{starts}: {doc}",
            j.name
        );
        let jn = &j.name;
        let bytes = format!(
            "{{ let mut v = alloc::vec::Vec::with_capacity({on}.iter().map(|p| p.as_ref().len()).sum()); for p in {on} {{ v.extend_from_slice(p.as_ref()); }} v }}"
        );
        let cmp = format!(
            "let mut at = 0usize; for p in {on} {{ let p = p.as_ref(); if j.get(at..at + p.len()) != Some(p) {{ return Err(crate::EncodeError::part(\"{name}\", \"{on}\", \"the joined bytes are not the parts given\")); }} at += p.len(); }} if at != j.len() {{ return Err(crate::EncodeError::size(\"{name}\", \"{jn}\", j.len() as u64, at as u64)); }}"
        );
        if optional(j) {
            let _ = writeln!(
                set,
                "        if self.{jn}.is_some() {{ self.{jn} = Some({bytes}); }}"
            );
            let _ = writeln!(check, "        if let Some(j) = &self.{jn} {{ {cmp} }}");
        } else {
            let _ = writeln!(set, "        self.{jn} = {bytes};");
            let _ = writeln!(check, "        {{ let j = &self.{jn}; {cmp} }}");
        }
        let Some(s) = s else { continue };
        let sn = &s.name;
        let starts = format!(
            "{{ let mut v = alloc::vec::Vec::with_capacity(8 * {on}.len()); let mut at = 0u64; for p in {on} {{ v.extend_from_slice(&at.to_le_bytes()); at += p.as_ref().len() as u64; }} v }}"
        );
        let cmp = format!(
            "if s.len() != 8 * {on}.len() {{ return Err(crate::EncodeError::size(\"{name}\", \"{sn}\", s.len() as u64, 8 * {on}.len() as u64)); }} let mut at = 0u64; for (i, p) in {on}.iter().enumerate() {{ let stated = u64::from_le_bytes([s[8 * i], s[8 * i + 1], s[8 * i + 2], s[8 * i + 3], s[8 * i + 4], s[8 * i + 5], s[8 * i + 6], s[8 * i + 7]]); if stated != at {{ return Err(crate::EncodeError::offset(\"{name}\", \"{sn}\", stated, at)); }} at += p.as_ref().len() as u64; }}"
        );
        if optional(s) {
            let _ = writeln!(
                set,
                "        if self.{sn}.is_some() {{ self.{sn} = Some({starts}); }}"
            );
            let _ = writeln!(check, "        if let Some(s) = &self.{sn} {{ {cmp} }}");
        } else {
            let _ = writeln!(set, "        self.{sn} = {starts};");
            let _ = writeln!(check, "        {{ let s = &self.{sn}; {cmp} }}");
        }
    }
    writeln!(
        out,
        "impl {name} {{
    /// Sets the var-sized parts a `{name}` holds joined, and where each
    /// starts, from the parts (an optional field where present; its
    /// [`with_sizes`](crate::Record::with_sizes) then sets their lengths):
    ///
{list}    #[must_use]
    pub fn with_joined(mut self{params}) -> Self {{
{set}        self
    }}
    /// Whether the parts a `{name}` holds joined, and their starts, are
    /// those given ([`with_joined`](Self::with_joined)).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when the joined
    /// bytes differ from the parts, [`EncodeError::Size`](crate::EncodeError::Size)
    /// when they or the starts have another length,
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// start that is wrong.
    pub fn check_joined(&self{params}) -> Result<(), crate::EncodeError> {{
{check}        Ok(())
    }}
}}
"
    )
    .unwrap();
}
