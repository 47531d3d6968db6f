//! The datatype table's own columns (`spec/datatypes.toml`, code table
//! `Datatype`): class, native type, time unit, default fill value and Arrow
//! type of every datatype, checked here and turned into `Datatype`'s
//! methods, the `DatatypeClass` enum and the `with_native!` dispatch.
//!
//! Included from `codegen/generate.rs` (`mod datatypes`); `gen` runs after the code
//! table's enum is written.

use std::fmt::Write as _;

use super::{camel, CodeTable, CodeValue, Ctx, Res, PRIMITIVES};

/// The classes, as the `class` column spells them, and their variant names.
const CLASSES: &[(&str, &str, &str)] = &[
    ("signed", "Signed", "A signed integer."),
    ("unsigned", "Unsigned", "An unsigned integer."),
    ("float", "Float", "A floating-point number."),
    (
        "datetime",
        "Datetime",
        "A date and time: an `i64` count of `time_unit()`s since 1970-01-01.",
    ),
    (
        "time",
        "Time",
        "A time of day: an `i64` count of `time_unit()`s since midnight.",
    ),
    (
        "string",
        "String",
        "Text (CHAR and the STRING_* types), one code unit per value.",
    ),
    ("bytes", "Bytes", "Opaque bytes (BLOB and the geometries)."),
    ("bool", "Bool", "A boolean, one byte."),
    ("any", "Any", "Bytes of any type (ANY)."),
];

/// The native types a value may be read as, in dispatch order.
const NATIVES: &[&str] = &[
    "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64",
];

/// NumPy's time unit codes, which TileDB-Py uses for the datetime types.
const UNITS: &[&str] = &[
    "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as",
];

/// Arrow types the `arrow` column may name: plain, or with a time unit.
const ARROW_PLAIN: &[&str] = &[
    "Boolean", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Float32",
    "Float64", "Date32", "Date64",
];
const ARROW_UNIT: &[&str] = &["Second", "Millisecond", "Microsecond", "Nanosecond"];

struct Row<'a> {
    variant: String,
    class: &'a str,
    native: &'a str,
    unit: Option<&'a str>,
    fill: String,
    arrow: String,
}

fn size_of(ty: &str) -> Option<u64> {
    PRIMITIVES.iter().find(|p| p.0 == ty).map(|p| p.2)
}

/// The Rust expression of a `fill`: `TYPE::MIN`, `TYPE::MAX`, `TYPE::NAN`
/// or `0TYPE`, checked to be `size` bytes wide.
fn fill_expr(cx: &Ctx, v: &CodeValue, fill: &str, size: u64) -> Res<String> {
    let ty = if let Some(t) = fill.strip_prefix('0') {
        t
    } else {
        match fill.split_once("::") {
            Some((t, "MIN" | "MAX")) if NATIVES.contains(&t) && !t.starts_with('f') => t,
            Some((t, "NAN")) if t.starts_with('f') => t,
            _ => "",
        }
    };
    if !NATIVES.contains(&ty) {
        return cx.err(format!(
            "{}: fill `{fill}` is not TYPE::MIN, TYPE::MAX, fTYPE::NAN or 0TYPE",
            v.name
        ));
    }
    if size_of(ty) != Some(size) {
        return cx.err(format!("{}: fill `{fill}` is not {size} bytes", v.name));
    }
    Ok(format!("{fill}.to_le_bytes()"))
}

fn arrow_expr(cx: &Ctx, v: &CodeValue, arrow: &str) -> Res<String> {
    const DT: &str = "::arrow_schema::DataType";
    const TU: &str = "::arrow_schema::TimeUnit";
    if ARROW_PLAIN.contains(&arrow) {
        return Ok(format!("{DT}::{arrow}"));
    }
    let parts = arrow
        .strip_suffix(')')
        .and_then(|a| a.split_once('('))
        .filter(|(_, u)| ARROW_UNIT.contains(u));
    match parts {
        Some(("Timestamp", u)) => Ok(format!("{DT}::Timestamp({TU}::{u}, None)")),
        Some(("Duration", u)) => Ok(format!("{DT}::Duration({TU}::{u})")),
        _ => cx.err(format!(
            "{}: arrow type `{arrow}` is not one the build knows",
            v.name
        )),
    }
}

fn row<'a>(cx: &Ctx, v: &'a CodeValue) -> Res<Row<'a>> {
    let name = &v.name;
    let missing = |col: &str| cx.err(format!("{name}: no `{col}` column"));
    let Some(class) = v.class.as_deref() else {
        return missing("class");
    };
    let Some(native) = v.native.as_deref() else {
        return missing("native");
    };
    let Some(fill) = v.fill.as_deref() else {
        return missing("fill");
    };
    let Some(arrow) = v.arrow.as_deref() else {
        return missing("arrow");
    };
    let Some(size) = v.size else {
        return missing("size");
    };
    if !CLASSES.iter().any(|c| c.0 == class) {
        return cx.err(format!("{name}: class `{class}` is not one of {CLASSES:?}"));
    }
    if !NATIVES.contains(&native) {
        return cx.err(format!(
            "{name}: native `{native}` is not one of {NATIVES:?}"
        ));
    }
    if size_of(native) != Some(size) {
        return cx.err(format!("{name}: native `{native}` is not {size} bytes"));
    }
    let timed = matches!(class, "datetime" | "time");
    match v.unit.as_deref() {
        None if timed => return missing("unit"),
        Some(u) if !timed => return cx.err(format!("{name}: a unit ({u}) on a {class} type")),
        Some(u) if !UNITS.contains(&u) => {
            return cx.err(format!("{name}: unit `{u}` is not one of {UNITS:?}"))
        }
        _ => {}
    }
    let wants = match class {
        "signed" | "datetime" | "time" => Some('i'),
        "unsigned" | "bool" => Some('u'),
        "float" => Some('f'),
        _ => None,
    };
    if wants.is_some_and(|w| !native.starts_with(w)) {
        return cx.err(format!("{name}: native `{native}` for a {class} type"));
    }
    Ok(Row {
        variant: camel(name),
        class,
        native,
        unit: v.unit.as_deref(),
        fill: fill_expr(cx, v, fill, size)?,
        arrow: arrow_expr(cx, v, arrow)?,
    })
}

fn class_variant(class: &str) -> &'static str {
    if class == "unknown" {
        return "Unknown";
    }
    CLASSES.iter().find(|c| c.0 == class).map_or("", |c| c.1)
}

/// One rule of `with_native!`: `head`, then a match with one arm per native
/// type, the integer ones only when `rest` (the last arm) is given.
fn arms(out: &mut String, rows: &[Row], head: &str, rest: &str, open: bool) {
    writeln!(out, "{head}\n        match $dt {{").unwrap();
    for native in NATIVES {
        if !rest.is_empty() && native.starts_with('f') {
            continue;
        }
        let pats: Vec<String> = rows
            .iter()
            .filter(|r| r.native == *native)
            .map(|r| format!("$crate::Datatype::{}", r.variant))
            .collect();
        if pats.is_empty() {
            continue;
        }
        writeln!(
            out,
            "            {} => {{\n                #[allow(dead_code)]\n                type $t = {native};\n                \
             // A cast or conversion the body needs for one type is a no-op for another.\n                \
             #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]\n                \
             let value = $body;\n                value\n            }}",
            pats.join("\n            | ")
        )
        .unwrap();
    }
    // A code the spec does not list (`Unknown`, or in a crate above this
    // one a datatype a later spec adds): its bytes one by one. The integer
    // form leaves it to its last arm.
    if open && rest.is_empty() {
        writeln!(
            out,
            "            _ => {{\n                #[allow(dead_code)]\n                type $t = u8;\n                \
             let value = $body;\n                value\n            }}"
        )
        .unwrap();
    }
    write!(out, "{rest}        }}\n    }};\n").unwrap();
}

/// Writes a `match self` whose arms give `value(row)`, one arm per row.
fn method(
    out: &mut String,
    doc: &str,
    sig: &str,
    rows: &[Row],
    value: impl Fn(&Row) -> String,
    unknown: Option<&str>,
) {
    for line in doc.lines() {
        writeln!(out, "    /// {line}").unwrap();
    }
    writeln!(out, "    {sig} {{\n        match self {{").unwrap();
    for r in rows {
        writeln!(out, "            Self::{} => {},", r.variant, value(r)).unwrap();
    }
    if let Some(u) = unknown {
        writeln!(out, "            Self::Unknown(_) => {u},").unwrap();
    }
    writeln!(out, "        }}\n    }}").unwrap();
}

/// Writes a `matches!` of the classes in `classes`.
fn class_test(out: &mut String, doc: &str, name: &str, classes: &[&str]) {
    let pats: Vec<String> = classes
        .iter()
        .map(|c| format!("DatatypeClass::{}", class_variant(c)))
        .collect();
    for line in doc.lines() {
        writeln!(out, "    /// {line}").unwrap();
    }
    writeln!(
        out,
        "    pub const fn {name}(self) -> bool {{\n        matches!(self.class(), {})\n    }}",
        pats.join(" | ")
    )
    .unwrap();
}

/// The generated code of the datatype table; nothing for other tables,
/// which must not use its columns.
pub(crate) fn gen(out: &mut String, cx: &Ctx, code: &CodeTable) -> Res<()> {
    if code.name != "Datatype" {
        if let Some(v) = code.values.iter().find(|v| {
            v.class.is_some()
                || v.native.is_some()
                || v.unit.is_some()
                || v.fill.is_some()
                || v.arrow.is_some()
        }) {
            return cx.err(format!(
                "{}: class, native, unit, fill and arrow are columns of Datatype only",
                v.name
            ));
        }
        return Ok(());
    }
    let rows = code
        .values
        .iter()
        .map(|v| row(cx, v))
        .collect::<Res<Vec<_>>>()?;

    out.push_str(
        "/// What kind of values a [`Datatype`] holds (the `class` column of\n\
         /// `spec/datatypes.toml`).\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]\n#[non_exhaustive]\npub enum DatatypeClass {\n",
    );
    for (_, variant, doc) in CLASSES {
        writeln!(out, "    /// {doc}\n    {variant},").unwrap();
    }
    if code.open {
        out.push_str(
            "    /// A code the spec does not list (`Datatype::Unknown`): its values\n    \
             /// are shown as bytes and nothing computes with them.\n    Unknown,\n",
        );
    }
    out.push_str("}\n\n");

    // The dispatch: one arm per native type, the body expanded once each.
    out.push_str(
        "/// Runs `$body` with `$t` the native type of datatype `$dt` (see\n\
         /// [`Datatype::native_name`]): the body is expanded once per native type\n\
         /// (`i8` .. `u64`, `f32`, `f64`), so generic code is written once.\n\
         ///\n\
         /// `with_native!(int dt, T => body, _ => other)` expands `body` for the\n\
         /// integer native types only (BOOL, text, bytes, dates and times\n\
         /// included) and gives `other` for FLOAT32 and FLOAT64.\n\
         ///\n\
         /// ```ignore\n\
         /// let max = with_native!(int dt, T => Some(T::MAX as i128), _ => None);\n\
         /// ```\n\
         #[macro_export]\n\
         macro_rules! with_native {\n",
    );
    arms(
        out,
        &rows,
        "    ($dt:expr, $t:ident => $body:expr) => {",
        "",
        code.open,
    );
    arms(
        out,
        &rows,
        "    (int $dt:expr, $t:ident => $body:expr, _ => $other:expr) => {",
        "            _ => $other,\n",
        code.open,
    );
    out.push_str("}\n\n");

    out.push_str("impl Datatype {\n");
    method(
        out,
        "What kind of values the datatype holds.",
        "pub const fn class(self) -> DatatypeClass",
        &rows,
        |r| format!("DatatypeClass::{}", class_variant(r.class)),
        code.open.then_some("DatatypeClass::Unknown"),
    );
    method(
        out,
        "The unit of a date or time type, as NumPy (and TileDB-Py) spell it:\n\
         `Y`, `M`, `W`, `D`, `h`, `m`, `s`, `ms`, `us`, `ns`, `ps`, `fs`, `as`.",
        "pub const fn time_unit(self) -> Option<&'static str>",
        &rows,
        |r| r.unit.map_or("None".into(), |u| format!("Some({u:?})")),
        code.open.then_some("None"),
    );
    method(
        out,
        "The Rust type one value is read as (`with_native!` dispatches on it):\n\
         text and bytes by their code unit, BOOL as `u8`, dates and times as `i64`.",
        "pub const fn native_name(self) -> &'static str",
        &rows,
        |r| format!("{:?}", r.native),
        code.open.then_some("\"u8\""),
    );
    method(
        out,
        "Whether the native type is signed (`i8` .. `i64`, `f32`, `f64`): the\n\
         signed integers, dates, times and floats.",
        "pub const fn native_signed(self) -> bool",
        &rows,
        |r| (!r.native.starts_with('u')).to_string(),
        code.open.then_some("false"),
    );
    method(
        out,
        "The engine's default fill value of one value, little-endian\n\
         (tiledb/sm/misc/constants.cc `fill_value`): the smallest signed and the\n\
         largest unsigned integer, NaN, `i8::MIN` for CHAR, zero for text,\n\
         bytes and BOOL, `i64::MIN` for dates and times.",
        "pub const fn default_fill(self) -> &'static [u8]",
        &rows,
        |r| format!("const {{ &{} }}", r.fill),
        code.open.then_some("&[]"),
    );
    method(
        out,
        "The Arrow type of one value (of a cell of one value, and the items of\n\
         lists); the byte-string types give `UInt8`.",
        "#[cfg(feature = \"arrow\")]\n    pub fn arrow_type(self) -> ::arrow_schema::DataType",
        &rows,
        |r| r.arrow.clone(),
        code.open.then_some("::arrow_schema::DataType::Binary"),
    );
    class_tests(out);
    out.push_str("}\n\n");

    Ok(())
}

/// The `Datatype` methods that test its class, `engine_name` and
/// `int_limits`.
fn class_tests(out: &mut String) {
    class_test(
        out,
        "An integer as the engine's `datatype_is_integer` counts them: the\n\
         signed and unsigned ones and BOOL.",
        "is_integer",
        &["signed", "unsigned", "bool"],
    );
    class_test(
        out,
        "A signed integer (INT8 to INT64; dates and times are not counted).",
        "is_signed",
        &["signed"],
    );
    class_test(out, "FLOAT32 or FLOAT64.", "is_float", &["float"]);
    class_test(
        out,
        "Text: CHAR and the STRING_* types (the engine's `datatype_is_string`\n\
         leaves CHAR out).",
        "is_string",
        &["string"],
    );
    class_test(
        out,
        "A DATETIME_* or TIME_* type.",
        "is_time",
        &["datetime", "time"],
    );
    class_test(
        out,
        "Opaque bytes: BLOB, the geometries and ANY.",
        "is_opaque",
        &["bytes", "any", "unknown"],
    );
    out.push_str(
        "    /// The engine's name of the datatype (`datatype_str`), which the JSON and\n\
         \x20   /// the command line print: the spec's name.\n\
         \x20   pub fn engine_name(self) -> &'static str {\n        self.name()\n    }\n",
    );
    out.push_str(
        "    /// The smallest and largest value of the native type (`(0, 1)` for\n\
         \x20   /// BOOL); `None` for the floating-point types.\n\
         \x20   pub const fn int_limits(self) -> Option<(i128, i128)> {\n\
         \x20       if matches!(self.class(), DatatypeClass::Bool) {\n            return Some((0, 1));\n        }\n\
         \x20       with_native!(int self, T => Some((T::MIN as i128, T::MAX as i128)), _ => None)\n    }\n",
    );
}
