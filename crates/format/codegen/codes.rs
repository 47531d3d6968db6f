//! Code tables as field types.
//!
//! A field with `code = "X"` holds the Rust enum of code table `X` rather
//! than its integer. A code table marked `open = true` gets an
//! `Unknown(repr)` variant: decoding never fails on a code the table does not
//! list and re-encoding writes the same bytes (the engine tolerates such
//! codes, or we must carry them through unchanged). Decoding a code a closed
//! table does not list is an error naming the field ([`UnknownCode`]).
//!
//! Expressions (`if`, `when`, `args`, ...) name a code by its table and its
//! spec name, `FilterType::ZSTD`; the generator checks the name and writes
//! the Rust variant (`FilterType::Zstd`).

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{camel, CodeTable, Ctx, Res};

/// A code table as expressions see it: its repr, the spec names of its
/// values, and whether it is open.
type Known = (String, Vec<String>, bool);

thread_local! {
    /// Code table name -> what expressions need of it.
    static TABLES: RefCell<BTreeMap<String, Known>> = RefCell::default();
}

/// Makes the code tables known to [`is_table`] and [`resolve`].
pub(crate) fn register(code: &CodeTable) {
    let names = code.values.iter().map(|v| v.name.clone()).collect();
    TABLES.with(|t| {
        t.borrow_mut()
            .insert(code.name.clone(), (code.repr.clone(), names, code.open))
    });
}

/// Whether code table `name` is open (keeps unknown codes as `Unknown`).
pub(crate) fn is_open(name: &str) -> bool {
    TABLES.with(|t| t.borrow().get(name).is_some_and(|(_, _, open)| *open))
}

/// Whether `ident` names a code table (so `ident::NAME` is a code).
pub(crate) fn is_table(ident: &str) -> bool {
    TABLES.with(|t| t.borrow().contains_key(ident))
}

/// Rewrites `Table::SPEC_NAME` of a code table into `Table::RustName`.
pub(crate) fn resolve(cx: &Ctx, what: &str, src: &str) -> Res<String> {
    let mut out = String::new();
    let mut rest = src;
    while let Some(at) = rest.find("::") {
        let before = &rest[..at];
        let table_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let table = &before[table_start..];
        let after = &rest[at + 2..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..name_len];
        out.push_str(before);
        out.push_str("::");
        let known = TABLES.with(|t| t.borrow().get(table).map(|(_, names, _)| names.clone()));
        match known {
            Some(names) if names.iter().any(|n| n == name) => out.push_str(&camel(name)),
            Some(names) => {
                return cx.err(format!(
                    "{what} `{src}` names `{table}::{name}`, but code table {table} has only {}",
                    names.join(", ")
                ))
            }
            None => out.push_str(name),
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The Rust type of a field of spec type `ty` with `code = "code"`.
pub(crate) fn field_type(cx: &Ctx, ty: &str, code: &str) -> Res<String> {
    let repr = TABLES.with(|t| t.borrow().get(code).map(|(r, _, _)| r.clone()));
    match repr {
        Some(r) if r == ty => Ok(code.to_string()),
        Some(r) => cx.err(format!(
            "type `{ty}` does not match the repr `{r}` of code table {code}"
        )),
        None => cx.err(format!("code table `{code}` is not defined in spec/")),
    }
}

/// Items every code table uses, written once before the first table.
pub(crate) fn prelude(out: &mut String) {
    out.push_str(
        "/// A code that a closed code table does not list, met while decoding.\n\
         /// The decode error that carries it names the table and the field.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n\
         #[non_exhaustive]\n\
         pub struct UnknownCode {\n\
         \x20   /// The code table (`ArrayType`, `Layout`, ...).\n\
         \x20   pub table: &'static str,\n\
         \x20   /// The code read.\n\
         \x20   pub value: i128,\n\
         }\n\n\
         impl core::fmt::Display for UnknownCode {\n\
         \x20   fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {\n\
         \x20       write!(f, \"{} is not a {} code\", self.value, self.table)\n\
         \x20   }\n\
         }\n\n\
         impl core::error::Error for UnknownCode {}\n\n",
    );
    out.push_str("/// `name()` of the unknown codes of one-byte code tables.\nstatic UNKNOWN_U8_NAMES: [&str; 256] = [");
    for v in 0..256 {
        if v % 8 == 0 {
            out.push_str("\n   ");
        }
        write!(out, " \"UNKNOWN({v})\",").unwrap();
    }
    out.push_str("\n];\n\n");
}

/// The derives of the enum of `code`: an open table compares by code (an
/// `Unknown` never holds a listed code when made by `from_raw`, but one
/// built by hand might).
pub(crate) fn derives(code: &CodeTable) -> &'static str {
    if code.open {
        "#[derive(Debug, Clone, Copy)]"
    } else {
        "#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]"
    }
}

/// The `Unknown` variant of an open table (with its documentation).
pub(crate) fn unknown_variant(out: &mut String, code: &CodeTable) {
    if code.open {
        writeln!(
            out,
            "    /// A code the format does not list (yet), kept so that it re-encodes as read.\n    Unknown({}),",
            code.repr
        )
        .unwrap();
    }
}

/// The body of `value()`.
pub(crate) fn value_body(code: &CodeTable) -> String {
    let repr = &code.repr;
    if !code.open {
        return format!("self as {repr}");
    }
    let mut s = String::from("match self {\n");
    for v in &code.values {
        writeln!(s, "            Self::{} => {},", camel(&v.name), v.value).unwrap();
    }
    s.push_str("            Self::Unknown(v) => v,\n        }");
    s
}

/// The `Unknown` arm of `name()`.
pub(crate) fn unknown_name_arm(code: &CodeTable) -> &'static str {
    match (code.open, code.repr.as_str()) {
        (false, _) => "",
        (true, "u8") => "            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],\n",
        (true, _) => "            Self::Unknown(_) => \"UNKNOWN\",\n",
    }
}

/// The `Unknown` arm of `size()`.
pub(crate) fn unknown_size_arm(code: &CodeTable) -> &'static str {
    if code.open {
        "            Self::Unknown(_) => 0,\n"
    } else {
        ""
    }
}

/// The trait impls and open-table methods of `code`, after its `impl`.
pub(crate) fn impls(out: &mut String, code: &CodeTable) {
    let (name, repr) = (&code.name, &code.repr);
    if code.open {
        writeln!(
            out,
            "impl {name} {{
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: {repr}) -> Self {{
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }}
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {{
        Self::from_value(self.value())
    }}
}}

impl PartialEq for {name} {{
    fn eq(&self, other: &Self) -> bool {{
        self.value() == other.value()
    }}
}}

impl Eq for {name} {{}}

impl core::hash::Hash for {name} {{
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {{
        self.value().hash(state)
    }}
}}

impl PartialOrd for {name} {{
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {{
        Some(self.cmp(other))
    }}
}}

impl Ord for {name} {{
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {{
        self.value().cmp(&other.value())
    }}
}}

/// An absent field reads as code 0.
impl Default for {name} {{
    fn default() -> Self {{
        Self::from_raw(0)
    }}
}}
"
        )
        .unwrap();
    } else if let Some(zero) = code.values.iter().find(|v| v.value == 0) {
        writeln!(
            out,
            "/// An absent field reads as code 0.
impl Default for {name} {{
    fn default() -> Self {{
        Self::{}
    }}
}}
",
            camel(&zero.name)
        )
        .unwrap();
    }
    let decode = if code.open {
        "Ok(Self::from_raw(value))".to_string()
    } else {
        format!(
            "Self::from_value(value).ok_or_else(|| binrw::Error::Custom {{
            pos,
            err: Box::new(UnknownCode {{ table: \"{name}\", value: i128::from(value) }}),
        }})"
        )
    };
    writeln!(
        out,
        "/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for {name} {{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {{
        match Self::from_value(self.value()) {{
            Some(v) => f.write_str(v.name()),
            None => write!(f, \"UNKNOWN({{}})\", self.value()),
        }}
    }}
}}

/// Serializes as the `Display` name.
#[cfg(feature = \"serde\")]
impl serde::Serialize for {name} {{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {{
        s.collect_str(self)
    }}
}}

impl binrw::BinRead for {name} {{
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {{
        let pos = reader.stream_position()?;
        let value = <{repr} as binrw::BinRead>::read_options(reader, endian, ())?;
        {decode}
    }}
}}

impl binrw::BinWrite for {name} {{
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {{
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }}
}}
"
    )
    .unwrap();
}
