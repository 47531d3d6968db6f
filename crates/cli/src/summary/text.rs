//! The text of a summary: values, ranges, filters, sizes and times as a
//! TileDB user writes them, laid out in aligned columns.

use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value as Json;

use super::ArraySummary;
use tiledb_codec::raw::format::hierarchy;
use tiledb_codec::raw::format::{Datatype, DatatypeClass};
use tiledb_codec::raw::model::value::is_text;
use tiledb_codec::raw::model::{
    ArrayType, CellValNum, CurrentDomain, DataOrder, DomainRange, Filter, Layout, Range, Value,
    WebpFormat,
};

/// `s` with every control character (C0, DEL, C1) escaped: `\x1b` for
/// the ASCII ones, `\u{9b}` for the others; the rest as it is. Names and
/// strings from an array go through it before a terminal shows them, so
/// an array cannot move the cursor, clear the screen or retitle a window.
///
/// ```
/// use tiledb_codec_cli::summary::escape_controls;
///
/// assert_eq!(escape_controls("a\x1b[2J"), "a\\x1b[2J");
/// assert_eq!(escape_controls("\u{9b}1m\n"), "\\u{9b}1m\\x0a");
/// assert_eq!(escape_controls("plain é"), "plain é");
/// ```
pub fn escape_controls(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Pushes `c`, escaped if it is a control character.
fn push_escaped(out: &mut String, c: char) {
    if c.is_control() && c.is_ascii() {
        let _ = write!(out, "\\x{:02x}", c as u32);
    } else if c.is_control() {
        let _ = write!(out, "\\u{{{:x}}}", c as u32);
    } else {
        out.push(c);
    }
}

/// Text quoted, with `\"`, `\\`, `\n`, `\t` and `\xNN` (bytes that are not
/// printable or not UTF-8) escaped.
fn quote(b: &[u8]) -> String {
    let mut out = String::from("\"");
    let push_char = |out: &mut String, c: char| match c {
        '"' => out.push_str("\\\""),
        '\\' => out.push_str("\\\\"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        c => push_escaped(out, c),
    };
    match std::str::from_utf8(b) {
        Ok(s) => s.chars().for_each(|c| push_char(&mut out, c)),
        Err(_) => {
            for &byte in b {
                if byte.is_ascii() {
                    push_char(&mut out, byte as char);
                } else {
                    let _ = write!(out, "\\x{byte:02x}");
                }
            }
        }
    }
    out.push('"');
    out
}

fn value(v: &Value) -> String {
    match v {
        Value::Int8(x) => x.to_string(),
        Value::Int16(x) => x.to_string(),
        Value::Int32(x) => x.to_string(),
        Value::Int64(x) => x.to_string(),
        Value::UInt8(x) => x.to_string(),
        Value::UInt16(x) => x.to_string(),
        Value::UInt32(x) => x.to_string(),
        Value::UInt64(x) => x.to_string(),
        Value::Float32(x) => format!("{x:?}"),
        Value::Float64(x) => format!("{x:?}"),
        Value::Bytes(b) => quote(b),
        // A value kind a later format adds: as the model prints it.
        other => format!("{other:?}"),
    }
}

fn opaque(dt: Datatype) -> bool {
    dt.is_opaque() || Value::from_le_bytes(dt, &vec![0; dt.size() as usize]).is_none()
}

/// The values of `bytes` read as `dt`: text quoted (`"abc"`), one number
/// bare (`5`, `1.5`), several as a list (`[1, 2, 3]`), opaque bytes (BLOB,
/// ANY, geometries) in hexadecimal (`0x0a0b`, the first 32 bytes).
///
/// ```
/// use tiledb_codec::raw::format::Datatype;
/// use tiledb_codec_cli::summary::format_values;
///
/// assert_eq!(format_values(Datatype::Int32, &[5, 0, 0, 0]), "5");
/// assert_eq!(format_values(Datatype::Uint8, &[1, 2]), "[1, 2]");
/// assert_eq!(format_values(Datatype::StringAscii, b"a\x80"), "\"a\\x80\"");
/// assert_eq!(format_values(Datatype::Blob, &[10, 11]), "0x0a0b");
/// ```
pub fn format_values(dt: Datatype, bytes: &[u8]) -> String {
    if is_text(dt) {
        return quote(bytes);
    }
    if opaque(dt) {
        let shown = &bytes[..bytes.len().min(32)];
        let mut out = String::from("0x");
        for b in shown {
            let _ = write!(out, "{b:02x}");
        }
        if shown.len() < bytes.len() {
            let _ = write!(out, "... ({} bytes)", bytes.len());
        }
        return out;
    }
    let width = (dt.size() as usize).max(1);
    let vs: Vec<String> = bytes
        .chunks_exact(width)
        .filter_map(|c| {
            if dt == Datatype::Bool {
                Some((c[0] != 0).to_string())
            } else {
                Value::from_le_bytes(dt, c).map(|v| value(&v))
            }
        })
        .collect();
    if vs.len() == 1 {
        vs.into_iter().next().unwrap_or_default()
    } else {
        format!("[{}]", vs.join(", "))
    }
}

fn pair<T>(r: &Range<T>, f: impl Fn(&T) -> String) -> String {
    format!("[{}, {}]", f(&r.start), f(&r.end))
}

/// A range as `[start, end]` (text quoted).
///
/// ```
/// use tiledb_codec::raw::model::{DomainRange, Range};
/// use tiledb_codec_cli::summary::format_range;
///
/// assert_eq!(format_range(&DomainRange::Int32(Range::new(1, 100))), "[1, 100]");
/// ```
pub fn format_range(r: &DomainRange) -> String {
    match r {
        DomainRange::Int8(r) => pair(r, i8::to_string),
        DomainRange::Int16(r) => pair(r, i16::to_string),
        DomainRange::Int32(r) => pair(r, i32::to_string),
        DomainRange::Int64(r) => pair(r, i64::to_string),
        DomainRange::UInt8(r) => pair(r, u8::to_string),
        DomainRange::UInt16(r) => pair(r, u16::to_string),
        DomainRange::UInt32(r) => pair(r, u32::to_string),
        DomainRange::UInt64(r) => pair(r, u64::to_string),
        DomainRange::Float32(r) => pair(r, |x| format!("{x:?}")),
        DomainRange::Float64(r) => pair(r, |x| format!("{x:?}")),
        DomainRange::Bytes(r) => pair(r, |b| quote(b)),
        #[allow(unreachable_patterns)]
        _ => "?".into(),
    }
}

/// Days since 1970-01-01 as (year, month, day) of the proleptic Gregorian
/// calendar.
fn civil(days: i64) -> (i64, u32, u32) {
    // Shift to 0000-03-01 so that leap days end each 400-year era.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `ms` milliseconds since the Unix epoch in UTC: `2024-05-01 12:00:00.000 UTC`.
///
/// ```
/// use tiledb_codec_cli::summary::format_timestamp;
///
/// assert_eq!(format_timestamp(0), "1970-01-01 00:00:00.000 UTC");
/// assert_eq!(format_timestamp(951_827_696_789), "2000-02-29 12:34:56.789 UTC");
/// ```
pub fn format_timestamp(ms: u64) -> String {
    let secs = ms / 1000;
    let (y, m, d) = civil((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}.{:03} UTC",
        s / 3600,
        s / 60 % 60,
        s % 60,
        ms % 1000
    )
}

/// A value of a date/time datatype as a UTC calendar date or time, in the
/// precision of its unit; `None` for other datatypes, sub-second units
/// beyond milliseconds, and years outside 0..=9999.
fn datetime(dt: Datatype, v: i64) -> Option<String> {
    if dt.class() != DatatypeClass::Datetime {
        return None;
    }
    let unit = dt.time_unit()?;
    let (secs, unit_days) = match unit {
        "Y" => {
            let y = 1970i64.checked_add(v)?;
            return (0..=9999).contains(&y).then(|| format!("{y:04}"));
        }
        "M" => {
            let months = 1970i64.checked_mul(12)?.checked_add(v)?;
            let (y, m) = (months.div_euclid(12), months.rem_euclid(12) + 1);
            return (0..=9999).contains(&y).then(|| format!("{y:04}-{m:02}"));
        }
        "W" => (v.checked_mul(7 * 86_400)?, true),
        "D" => (v.checked_mul(86_400)?, true),
        "h" => (v.checked_mul(3600)?, false),
        "m" => (v.checked_mul(60)?, false),
        "s" => (v, false),
        "ms" => (v.div_euclid(1000), false),
        _ => return None,
    };
    let (y, m, d) = civil(secs.div_euclid(86_400));
    if !(0..=9999).contains(&y) {
        return None;
    }
    let s = secs.rem_euclid(86_400);
    let mut out = format!("{y:04}-{m:02}-{d:02}");
    if !unit_days {
        let _ = write!(out, "T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
        if unit == "ms" {
            let _ = write!(out, ".{:03}", v.rem_euclid(1000));
        }
    }
    Some(out)
}

/// A range of a dimension of `dt`: `[1, 100]`, and for date/time
/// dimensions their calendar form too: `[0, 9] (1970-01-01 .. 1970-01-10)`.
fn dim_range(dt: Datatype, r: &DomainRange) -> String {
    let plain = format_range(r);
    match r {
        DomainRange::Int64(Range { start, end, .. }) => {
            match (datetime(dt, *start), datetime(dt, *end)) {
                (Some(a), Some(b)) => format!("{plain} ({a} .. {b})"),
                _ => plain,
            }
        }
        _ => plain,
    }
}

fn filter(f: &Filter) -> String {
    // ANY (or none) means no reinterpretation.
    let reinterpret = |name: &str, level: i32, r: &Option<Datatype>| match r {
        Some(d) if *d != Datatype::Any => {
            format!("{name}(level={level}, reinterpret={})", d.name())
        }
        _ => format!("{name}(level={level})"),
    };
    match f {
        Filter::None => "NONE".into(),
        Filter::Gzip { level } => format!("GZIP(level={level})"),
        Filter::Zstd { level } => format!("ZSTD(level={level})"),
        Filter::Lz4 { level } => format!("LZ4(level={level})"),
        Filter::Rle { level } => format!("RLE(level={level})"),
        Filter::Bzip2 { level } => format!("BZIP2(level={level})"),
        Filter::Dictionary { level } => format!("DICTIONARY(level={level})"),
        Filter::DoubleDelta {
            level,
            reinterpret: r,
        } => reinterpret("DOUBLE_DELTA", *level, r),
        Filter::Delta {
            level,
            reinterpret: r,
        } => reinterpret("DELTA", *level, r),
        Filter::BitWidthReduction { max_window_size } => {
            format!("BIT_WIDTH_REDUCTION(max_window={max_window_size})")
        }
        Filter::PositiveDelta { max_window_size } => {
            format!("POSITIVE_DELTA(max_window={max_window_size})")
        }
        Filter::BitShuffle => "BITSHUFFLE".into(),
        Filter::ByteShuffle => "BYTESHUFFLE".into(),
        Filter::ChecksumMd5 => "CHECKSUM_MD5".into(),
        Filter::ChecksumSha256 => "CHECKSUM_SHA256".into(),
        Filter::ScaleFloat {
            scale,
            offset,
            byte_width,
        } => format!("SCALE_FLOAT(scale={scale:?}, offset={offset:?}, bytewidth={byte_width})"),
        Filter::Xor => "XOR".into(),
        Filter::Webp {
            quality,
            input_format,
            lossless,
        } => {
            let fmt = match input_format {
                WebpFormat::Rgb => "RGB",
                WebpFormat::Bgr => "BGR",
                WebpFormat::Rgba => "RGBA",
                WebpFormat::Bgra => "BGRA",
                _ => "NONE",
            };
            format!("WEBP(quality={quality:?}, format={fmt}, lossless={lossless})")
        }
        Filter::Aes256Gcm => "AES_256_GCM".into(),
        #[allow(unreachable_patterns)]
        _ => "?".into(),
    }
}

/// A filter pipeline as `ZSTD(level=5) | BYTESHUFFLE`, in the order the
/// filters run when writing; `none` when empty.
///
/// ```
/// use tiledb_codec::raw::model::Filter;
/// use tiledb_codec_cli::summary::format_filters;
///
/// assert_eq!(format_filters(&[Filter::ByteShuffle, Filter::Zstd { level: 5 }]), "BYTESHUFFLE | ZSTD(level=5)");
/// assert_eq!(format_filters(&[]), "none");
/// ```
pub fn format_filters(fs: &[Filter]) -> String {
    if fs.is_empty() {
        return "none".into();
    }
    fs.iter().map(filter).collect::<Vec<_>>().join(" | ")
}

/// A byte count in binary units: `88 B`, `4.4 KiB`, `12.0 MiB`.
///
/// ```
/// use tiledb_codec_cli::summary::format_bytes;
///
/// assert_eq!(format_bytes(88), "88 B");
/// assert_eq!(format_bytes(4506), "4.4 KiB");
/// assert_eq!(format_bytes(3 << 30), "3.0 GiB");
/// ```
pub fn format_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

fn layout(l: Layout) -> &'static str {
    match l {
        Layout::RowMajor => "row-major",
        Layout::ColMajor => "col-major",
        Layout::GlobalOrder => "global-order",
        Layout::Unordered => "unordered",
        Layout::Hilbert => "hilbert",
        #[allow(unreachable_patterns)]
        _ => "?",
    }
}

fn type_name(dt: Datatype, n: CellValNum) -> String {
    match n {
        CellValNum::Var => format!("{} (var)", dt.name()),
        CellValNum::Fixed(k) if k.get() == 1 => dt.name().to_string(),
        CellValNum::Fixed(k) => format!("{} x{k}", dt.name()),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Columns that are right-aligned (numbers) are marked with a leading `>`
/// in their header.
fn table(out: &mut String, headers: &[&str], rows: &[Vec<String>]) {
    let right: Vec<bool> = headers.iter().map(|h| h.starts_with('>')).collect();
    let headers: Vec<&str> = headers.iter().map(|h| h.trim_start_matches('>')).collect();
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut line = |cells: &[String]| {
        let mut l = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            let pad = widths[i].saturating_sub(c.chars().count());
            if i > 0 {
                l.push_str("  ");
            }
            if right[i] {
                l.push_str(&" ".repeat(pad));
                l.push_str(c);
            } else {
                l.push_str(c);
                l.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&headers.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    for r in rows {
        line(r);
    }
}

fn name(n: &str) -> String {
    if n.is_empty() {
        "(anonymous)".into()
    } else {
        escape_controls(n).into_owned()
    }
}

/// The whole text of [`ArraySummary`]'s `Display`.
pub(super) fn render(s: &ArraySummary) -> String {
    let sc = &s.schema;
    let mut out = String::new();
    let _ = writeln!(out, "Array {}", s.path.display());
    let sparse = sc.array_type == ArrayType::Sparse;
    let mut facts: Vec<(&str, String)> = vec![
        ("array type", if sparse { "sparse" } else { "dense" }.into()),
        ("tile order", layout(sc.tile_order).into()),
        ("cell order", layout(sc.cell_order).into()),
        ("capacity", sc.capacity.to_string()),
    ];
    if sparse {
        let dups = if sc.allows_duplicates {
            "allowed"
        } else {
            "not allowed"
        };
        facts.push(("duplicates", dups.into()));
    }
    facts.push((
        "schema",
        format!(
            "{} (format version {}; {})",
            escape_controls(s.schema_name.as_deref().unwrap_or(hierarchy::LEGACY_SCHEMA)),
            sc.version,
            plural(s.schema_count, "schema", "schemas")
        ),
    ));
    let current = match &sc.current_domain {
        Some(CurrentDomain::NdRectangle(r)) => Some(r),
        _ => None,
    };
    facts.push((
        "current domain",
        match &sc.current_domain {
            None => "not stored (before format version 22): the full domain".into(),
            Some(CurrentDomain::NdRectangle(_)) => "set, per dimension below".into(),
            Some(_) => "empty: the full domain".into(),
        },
    ));
    for (k, v) in facts {
        let _ = writeln!(out, "  {k:<15} {v}");
    }

    let _ = writeln!(out, "\nDimensions ({})", sc.dimensions.len());
    let mut headers = vec!["name", "type", "domain", "tile extent"];
    if current.is_some() {
        headers.push("current domain");
    }
    headers.push("filters");
    let rows: Vec<Vec<String>> = sc
        .dimensions
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let mut r = vec![
                name(&d.name),
                type_name(d.datatype, d.cell_val_num),
                d.domain
                    .as_ref()
                    .map_or("(none)".into(), |r| dim_range(d.datatype, r)),
                d.tile_extent.as_ref().map_or("(none)".into(), value),
            ];
            if let Some(c) = current {
                r.push(
                    c.get(i)
                        .map_or("(none)".into(), |r| dim_range(d.datatype, r)),
                );
            }
            r.push(format_filters(
                d.filters.as_deref().unwrap_or(&sc.coords_filters),
            ));
            r
        })
        .collect();
    table(&mut out, &headers, &rows);

    let enums = !sc.enumerations.is_empty();
    let _ = writeln!(out, "\nAttributes ({})", sc.attributes.len());
    let mut headers = vec!["name", "type", "nullable", "fill value", "filters"];
    if enums {
        headers.push("enumeration");
    }
    let rows: Vec<Vec<String>> = sc
        .attributes
        .iter()
        .map(|a| {
            let mut fill = format_values(a.datatype, &a.fill_value);
            if a.nullable && !a.fill_value_valid {
                fill.push_str(" (null)");
            }
            let mut r = vec![
                name(&a.name),
                type_name(a.datatype, a.cell_val_num),
                if a.nullable { "yes" } else { "no" }.into(),
                fill,
                format_filters(&a.filters),
            ];
            if enums {
                r.push(a.enumeration.as_deref().map_or("-".into(), name));
            }
            r
        })
        .collect();
    table(&mut out, &headers, &rows);

    let _ = writeln!(out, "\nFilters");
    for (k, fs) in [
        ("coordinates", &sc.coords_filters),
        ("offsets", &sc.offsets_filters),
        ("validity", &sc.validity_filters),
    ] {
        let _ = writeln!(out, "  {k:<12} {}", format_filters(fs));
    }

    enumerations_and_labels(&mut out, s);
    fragments_and_metadata(&mut out, s);
    out
}

/// The enumerations and dimension labels of [`render`]'s summary.
fn enumerations_and_labels(out: &mut String, s: &ArraySummary) {
    let sc = &s.schema;
    let enums = !sc.enumerations.is_empty();
    if enums {
        let _ = writeln!(out, "\nEnumerations ({})", sc.enumerations.len());
        const SHOWN: usize = 8;
        let rows: Vec<Vec<String>> = sc
            .enumerations
            .iter()
            .map(|e| {
                let mut vals: Vec<String> = e
                    .values
                    .iter()
                    .take(SHOWN)
                    .map(|v| format_values(e.datatype, v))
                    .collect();
                if e.values.len() > SHOWN {
                    vals.push(format!("... ({} more)", e.values.len() - SHOWN));
                }
                vec![
                    name(&e.name),
                    type_name(e.datatype, e.cell_val_num),
                    if e.ordered { "yes" } else { "no" }.into(),
                    e.values.len().to_string(),
                    vals.join(", "),
                ]
            })
            .collect();
        table(out, &["name", "type", "ordered", ">count", "values"], &rows);
    }

    if !sc.dimension_labels.is_empty() {
        let _ = writeln!(out, "\nDimension labels ({})", sc.dimension_labels.len());
        let rows: Vec<Vec<String>> = sc
            .dimension_labels
            .iter()
            .map(|l| {
                let dim = sc
                    .dimensions
                    .get(l.dimension as usize)
                    .map_or_else(|| format!("#{}", l.dimension), |d| name(&d.name));
                let order = match l.order {
                    DataOrder::Increasing => "increasing",
                    DataOrder::Decreasing => "decreasing",
                    _ => "unordered",
                };
                let mut uri = escape_controls(&l.uri).into_owned();
                if !l.relative_uri {
                    uri.push_str(" (absolute)");
                }
                if l.external {
                    uri.push_str(" (external)");
                }
                vec![
                    name(&l.name),
                    dim,
                    order.into(),
                    type_name(l.datatype, l.cell_val_num),
                    escape_controls(&l.attribute).into_owned(),
                    uri,
                ]
            })
            .collect();
        table(
            out,
            &["name", "dimension", "order", "type", "attribute", "uri"],
            &rows,
        );
    }
}

/// The fragments, delete commits and metadata of [`render`]'s summary.
fn fragments_and_metadata(out: &mut String, s: &ArraySummary) {
    let sc = &s.schema;
    let total: u64 = s.fragments.iter().map(|f| f.size).sum();
    let _ = write!(out, "\nFragments ({}", s.fragments.len());
    if !s.fragments.is_empty() {
        let _ = write!(out, ", {} on disk", format_bytes(total));
    }
    out.push_str(")\n");
    if s.fragments.is_empty() {
        out.push_str("  (none written)\n");
    } else {
        let dims: Vec<(&str, Datatype)> = sc
            .dimensions
            .iter()
            .map(|d| (d.name.as_str(), d.datatype))
            .collect();
        let rows: Vec<Vec<String>> = s
            .fragments
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let Range {
                    start: t1, end: t2, ..
                } = f.timestamps;
                let (ms, utc) = if t1 == t2 {
                    (t1.to_string(), format_timestamp(t1))
                } else {
                    (
                        format!("{t1}-{t2}"),
                        format!("{} .. {}", format_timestamp(t1), format_timestamp(t2)),
                    )
                };
                let ned = match &f.non_empty_domain {
                    Some(ned) => ned
                        .iter()
                        .zip(&dims)
                        .map(|(r, (n, dt))| format!("{}: {}", name(n), dim_range(*dt, r)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    None => "(none)".into(),
                };
                vec![
                    (i + 1).to_string(),
                    escape_controls(&f.name).into_owned(),
                    ms,
                    utc,
                    f.version.to_string(),
                    if f.dense { "dense" } else { "sparse" }.into(),
                    f.cells.map_or("?".into(), |c| c.to_string()),
                    format_bytes(f.size),
                    f.size.to_string(),
                    ned,
                ]
            })
            .collect();
        table(
            out,
            &[
                ">#",
                "name",
                "timestamp (ms)",
                "time (UTC)",
                ">format",
                "type",
                ">cells",
                ">size",
                ">bytes",
                "non-empty domain",
            ],
            &rows,
        );
    }
    if s.delete_commits > 0 {
        let _ = writeln!(
            out,
            "  and {}",
            plural(
                s.delete_commits,
                "delete/update commit",
                "delete/update commits"
            )
        );
    }

    let _ = writeln!(out, "\nMetadata ({})", s.metadata.len());
    if s.metadata.is_empty() {
        out.push_str("  (none)\n");
    }
    for (key, v) in &s.metadata {
        let _ = writeln!(
            out,
            "  {} ({}) = {}",
            escape_controls(key),
            v.datatype.name(),
            format_values(v.datatype, &v.bytes)
        );
    }
}

fn plain(v: &Json) -> Option<String> {
    match v {
        Json::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => Some(format!(
            "[{}]",
            a.iter()
                .map(|x| plain(x).unwrap_or_default())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        Json::Array(_) | Json::Object(_) => None,
        Json::String(s) => Some(escape_controls(s).into_owned()),
        other => Some(other.to_string()),
    }
}

/// A footer's raw byte ranges (an object of `ranges`, or a list of bytes),
/// which the typed `non_empty_domain` of the fragment says again.
fn raw_domain(key: &str, v: &Json) -> bool {
    matches!(key, "non_empty_domain" | "legacy_non_empty_domain") && !v.is_null() && {
        v.is_object() || v.as_array().is_some_and(|a| a.iter().all(Json::is_number))
    }
}

fn walk(v: &Json, indent: &str, out: &mut String) {
    match v {
        Json::Object(m) => {
            for (k, x) in m {
                if indent.is_empty() || !raw_domain(k, x) {
                    match plain(x) {
                        Some(s) => {
                            let _ = writeln!(out, "{indent}{}: {s}", escape_controls(k));
                        }
                        None => {
                            let _ = writeln!(out, "{indent}{}", escape_controls(k));
                            walk(x, &format!("{indent}  "), out);
                        }
                    }
                }
            }
        }
        Json::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                match plain(x) {
                    Some(s) => {
                        let _ = writeln!(out, "{indent}- {s}");
                    }
                    None => {
                        let label = x
                            .get("name")
                            .and_then(Json::as_str)
                            .map_or_else(|| format!("[{i}]"), |n| escape_controls(n).into_owned());
                        let _ = writeln!(out, "{indent}- {label}");
                        walk(x, &format!("{indent}    "), out);
                    }
                }
            }
        }
        other => {
            let _ = writeln!(out, "{indent}{}", plain(other).unwrap_or_default());
        }
    }
}

pub(super) fn tree(v: &Json) -> String {
    let mut out = String::new();
    walk(v, "", &mut out);
    out
}
