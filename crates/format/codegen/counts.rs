//! Counts a record states of parts it does not hold: for a table whose
//! integer fields name a `list` outside with `count_of` (a fragment
//! footer's `sparse_tile_num`, the tiles of a sparse fragment),
//! `impl X { with_outside_counts, check_outside_counts }`, which set each
//! such field to the number of parts a writer gives and compare it.

use std::fmt::Write as _;

use super::{kind, Ctx, Kind, Outside, Res, Table};

/// Checks the `count_of`s of `t`: each names a `list` outside of the
/// table (not a `file` one) that no other field names, and is a plain
/// integer that states nothing else (no `size_of`, `offset_of`, `fixed`,
/// `stream`).
pub(crate) fn check_count_of(cx: &mut Ctx, t: &Table) -> Res<()> {
    for f in &t.fields {
        let Some(target) = &f.count_of else { continue };
        cx.place = format!("table {}, field {}", t.name, f.name);
        if f.size_of.is_some() || f.offset_of.is_some() || f.fixed.is_some() || f.stream {
            return cx
                .err("a count_of field states no size or offset, is not fixed and not streamed");
        }
        let Some(o) = t.outside.iter().find(|o| &o.name == target) else {
            return cx.err(format!(
                "count_of `{target}` is not an outside of the table"
            ));
        };
        if !o.list || o.file {
            return cx.err(format!(
                "count_of `{target}` is not a list outside (of parts, not files)"
            ));
        }
        let int =
            matches!(kind(&f.ty), Some(Kind::Prim(p, _)) if p != "bool" && !p.starts_with('f'));
        if !int || f.code.is_some() {
            return cx.err("a count is an integer");
        }
    }
    Ok(())
}

/// `impl X { with_outside_counts, check_outside_counts }` for a table with
/// `count_of` fields.
pub(crate) fn gen_counts(out: &mut String, t: &Table) {
    let counted: Vec<(&str, &Outside)> = t
        .fields
        .iter()
        .filter_map(|f| {
            let o = t
                .outside
                .iter()
                .find(|o| f.count_of.as_ref() == Some(&o.name))?;
            Some((f.name.as_str(), o))
        })
        .collect();
    if counted.is_empty() {
        return;
    }
    let name = &t.name;
    let (mut params, mut list, mut set, mut check) =
        (String::new(), String::new(), String::new(), String::new());
    for (n, o) in &counted {
        let on = &o.name;
        let doc = o.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        let _ = write!(params, ", {on}: &[impl Sized]");
        let _ = writeln!(list, "    /// * `{n}`, the number of `{on}`: {doc}");
        let _ = writeln!(
            set,
            "        {{ let n = {on}.len() as u64; let v = n as _; self.{n} = v; if self.{n} as u64 != n {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", self.{n} as u64, n)); }} }}"
        );
        let _ = writeln!(
            check,
            "        {{ let n = {on}.len() as u64; if self.{n} as u64 != n {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", self.{n} as u64, n)); }} }}"
        );
    }
    writeln!(
        out,
        "impl {name} {{
    /// Sets the counts a `{name}` states of parts it does not hold, one
    /// element of each argument per part:
    ///
{list}    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) when a count does
    /// not fit its field.
    pub fn with_outside_counts(mut self{params}) -> Result<Self, crate::EncodeError> {{
{set}        Ok(self)
    }}
    /// Whether the counts a `{name}` states are those of the parts given
    /// ([`with_outside_counts`](Self::with_outside_counts)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first
    /// count that disagrees.
    pub fn check_outside_counts(&self{params}) -> Result<(), crate::EncodeError> {{
{check}        Ok(())
    }}
}}
"
    )
    .unwrap();
}
