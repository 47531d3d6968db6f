//! `X::append(out, ..)` for a table with `append = true`: a record a hot
//! path writes many times (a run of RLE strings, a dictionary string),
//! appended to a `Vec` without building the struct: its imports and the
//! values of its fields are the arguments, every `size_of` field is
//! computed from the bytes it sizes.
//!
//! Such a table has only integer and `bytes` fields, no version, and `if`s
//! that name only its imports; each `bytes` field is sized by a `size_of`.

use std::fmt::Write as _;

use super::records::idents;
use super::writers::optional;
use super::{Ctx, Res, Table, PRIMITIVES};

/// The Rust type of an integer spec type (not `bool`, not a float).
fn int_type(ty: &str) -> Option<&'static str> {
    PRIMITIVES
        .iter()
        .find(|(n, _, _)| *n == ty && *n != "bool" && !n.starts_with('f'))
        .map(|(_, r, _)| *r)
}

/// Checks a table with `append = true` (see the module doc).
pub(crate) fn check_append(cx: &mut Ctx, t: &Table) -> Res<()> {
    if !t.append {
        return Ok(());
    }
    cx.place = format!("table {}", t.name);
    if t.version.is_some() || !t.outside.is_empty() {
        return cx.err("an append table has no version and no outside");
    }
    let imports = t.import_names();
    for f in &t.fields {
        cx.place = format!("table {}, field {}", t.name, f.name);
        if f.since.is_some() || f.until.is_some() || f.fixed.is_some() || f.assert.is_some() {
            return cx.err("a field of an append table has no since, until, fixed or assert");
        }
        if let Some(c) = &f.cond {
            if idents(c).iter().any(|i| !imports.contains(&i.as_str())) {
                return cx.err("an if of an append table names only its imports");
            }
        }
        let sized = t.fields.iter().any(|g| g.size_of.as_ref() == Some(&f.name));
        let ok = if f.ty == "bytes" {
            sized && !optional(f)
        } else {
            int_type(&f.ty).is_some() && f.code.is_none()
        };
        if !ok {
            return cx.err(
                "a field of an append table is an integer or a bytes field a size_of sizes (not optional)",
            );
        }
    }
    Ok(())
}

/// `impl X { append }` for a table with `append = true`.
pub(crate) fn gen_append(out: &mut String, t: &Table) {
    if !t.append {
        return;
    }
    let name = &t.name;
    let to = if t.big_endian {
        "to_be_bytes"
    } else {
        "to_le_bytes"
    };
    // The imports as one tuple, the values as another (the binrw way of
    // passing imports): two arguments whatever the record's width.
    let imports: Vec<(String, String)> = t
        .imports
        .iter()
        .filter_map(|i| i.split_once(':'))
        .map(|(n, ty)| (n.trim().to_string(), ty.trim().to_string()))
        .collect();
    let mut params: Vec<(String, String)> = Vec::new();
    let mut body = String::new();
    let mut values = Vec::new();
    for f in &t.fields {
        let n = &f.name;
        if f.ty == "bytes" {
            values.push(format!("`{n}`"));
            params.push((n.clone(), "&[u8]".into()));
            writeln!(body, "out.extend_from_slice({n});").unwrap();
            continue;
        }
        let rust = int_type(&f.ty).unwrap_or("u64");
        let present = f.cond.as_deref().map_or("true", str::trim);
        if let Some(target) = &f.size_of {
            let value = if rust == "u64" {
                format!("let v = {target}.len() as u64;")
            } else {
                format!("let actual = {target}.len() as u64; let Ok(v) = {rust}::try_from(actual) else {{ return Err(crate::EncodeError::size(\"{name}\", \"{n}\", actual as {rust} as u64, actual)); }};")
            };
            writeln!(
                body,
                "if {present} {{ {value} out.extend_from_slice(&v.{to}()); }}"
            )
            .unwrap();
            continue;
        }
        values.push(format!("`{n}`"));
        if optional(f) {
            let c = f.cond.as_deref().unwrap_or_default().replace('"', "\\\"");
            params.push((n.clone(), format!("Option<{rust}>")));
            writeln!(
                body,
                "match ({present}, {n}) {{ (true, Some(v)) => out.extend_from_slice(&v.{to}()), (false, None) => {{}} (p, _) => return Err(crate::EncodeError::condition(\"{name}\", \"{n}\", \"{c}\", !p)), }}"
            )
            .unwrap();
        } else {
            params.push((n.clone(), rust.to_string()));
            writeln!(body, "out.extend_from_slice(&{n}.{to}());").unwrap();
        }
    }
    let import_names: Vec<String> = imports.iter().map(|(n, _)| format!("`{n}`")).collect();
    let tuple = |v: Vec<String>| match v.len() {
        1 => format!("({},)", v[0]),
        _ => format!("({})", v.join(", ")),
    };
    let names = |v: &[(String, String)]| tuple(v.iter().map(|(n, _)| n.clone()).collect());
    let types = |v: &[(String, String)]| tuple(v.iter().map(|(_, ty)| ty.clone()).collect());
    let doc_imports = format!("the imports ({})", import_names.join(", "));
    let values = format!("the values ({})", values.join(", "));
    writeln!(
        out,
        "impl {name} {{
    /// Appends a `{name}` to `out` given {doc_imports} and {values}, as
    /// [`encode`](crate::encode) writes the record, without building it:
    /// every field that states a size is set from the bytes it sizes.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it;
    /// [`EncodeError::Condition`](crate::EncodeError::Condition) when a value is given while its
    /// field's `if` does not hold, or not given while it holds. `out` may then hold part of the record.
    pub fn append(out: &mut alloc::vec::Vec<u8>, imports: {}, values: {}) -> Result<(), crate::EncodeError> {{
        let {} = imports;
        let {} = values;
{body}        Ok(())
    }}
}}
",
        types(&imports),
        types(&params),
        names(&imports),
        names(&params),
    )
    .unwrap();
}
