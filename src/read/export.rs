//! Writing cells out: NDJSON (one object per cell) and CSV, and the
//! throughput probe behind `scan`.

use std::io::Write;

use serde_json::Value;

use super::column::{Cells, Column};
use super::query::Query;
use super::range::DimRange;
use super::ArrayReader;
use crate::format::Datatype;
use crate::model::value;

/// Cell `i` of a column when it is one number or text, decoded without
/// building its JSON: `None` for lists (and text that is not UTF-8).
enum Simple<'a> {
    Null,
    Scalar(value::Scalar),
    Text(&'a str),
}

fn simple(col: &Column, i: usize) -> Option<Simple<'_>> {
    let Some(b) = col.get(i) else {
        return Some(Simple::Null);
    };
    let dt = col.field.datatype;
    if value::is_text(dt) {
        return std::str::from_utf8(b).ok().map(Simple::Text);
    }
    // Var-sized cells are lists even of one value.
    col.field.cell_val_num?;
    value::scalar(dt, b).map(Simple::Scalar)
}

/// Writes one JSON object per cell with the keys in schema order:
/// dimensions, then attributes.
pub fn write_ndjson(cells: &Cells, out: &mut impl Write) -> std::io::Result<()> {
    let keys: Vec<String> = cells
        .columns
        .iter()
        .map(|c| serde_json::to_string(&c.field.name).expect("strings serialize"))
        .collect();
    let mut line = Vec::new();
    for i in 0..cells.len {
        line.clear();
        line.push(b'{');
        for (k, (key, col)) in keys.iter().zip(&cells.columns).enumerate() {
            if k > 0 {
                line.push(b',');
            }
            line.extend_from_slice(key.as_bytes());
            line.push(b':');
            match simple(col, i) {
                Some(Simple::Null) => line.extend_from_slice(b"null"),
                Some(Simple::Scalar(s)) => s.write_json(&mut line),
                Some(Simple::Text(t)) => serde_json::to_writer(&mut line, t)?,
                None => serde_json::to_writer(&mut line, &col.json(i))?,
            }
        }
        line.extend_from_slice(b"}\n");
        out.write_all(&line)?;
    }
    Ok(())
}

fn csv_text(s: &str, line: &mut Vec<u8>) {
    if s.contains([',', '"', '\n', '\r']) {
        line.push(b'"');
        line.extend_from_slice(s.replace('"', "\"\"").as_bytes());
        line.push(b'"');
    } else {
        line.extend_from_slice(s.as_bytes());
    }
}

fn csv_field(v: &Value, line: &mut Vec<u8>) {
    match v {
        Value::Null => {}
        Value::String(s) => csv_text(s, line),
        other => csv_text(&other.to_string(), line),
    }
}

/// Writes a header line of field names, then one line per cell; lists as
/// JSON, null as an empty field.
pub fn write_csv(cells: &Cells, out: &mut impl Write) -> std::io::Result<()> {
    let mut line = Vec::new();
    for (k, c) in cells.columns.iter().enumerate() {
        if k > 0 {
            line.push(b',');
        }
        csv_text(&c.field.name, &mut line);
    }
    line.push(b'\n');
    out.write_all(&line)?;
    for i in 0..cells.len {
        line.clear();
        for (k, c) in cells.columns.iter().enumerate() {
            if k > 0 {
                line.push(b',');
            }
            match simple(c, i) {
                Some(Simple::Null) => {}
                // NaN and the infinities as their names; no number needs quotes.
                Some(Simple::Scalar(value::Scalar::Float(f))) if !f.is_finite() => {
                    csv_field(&value::Scalar::Float(f).json(), &mut line)
                }
                Some(Simple::Scalar(s)) => s.write_json(&mut line),
                Some(Simple::Text(t)) => csv_text(t, &mut line),
                None => csv_field(&c.json(i), &mut line),
            }
        }
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// What `scan` reports: how many cells and bytes were read, and a checksum
/// of the values (FNV-1a over every field's bytes, in order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ScanSummary {
    /// Cells read.
    pub cells: u64,
    /// Bytes of values read.
    pub bytes: u64,
    /// FNV-1a of the values.
    pub checksum: u64,
}

impl Default for ScanSummary {
    fn default() -> Self {
        ScanSummary {
            cells: 0,
            bytes: 0,
            checksum: FNV_OFFSET,
        }
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

impl ScanSummary {
    /// Adds a batch of a read: its cells, and the bytes and values of its
    /// attributes (as `scan` counts them; dimensions aside) to the
    /// checksum, field by field within the batch (so the checksum of a read
    /// depends on how it was cut into batches).
    pub fn add(&mut self, cells: &Cells) {
        let s = summarize_from(cells, self.checksum, true);
        self.cells += s.cells;
        self.bytes += s.bytes;
        self.checksum = s.checksum;
    }
}

/// Sums up a read.
pub fn summarize(cells: &Cells) -> ScanSummary {
    summarize_from(cells, FNV_OFFSET, false)
}

fn summarize_from(cells: &Cells, seed: u64, attributes_only: bool) -> ScanSummary {
    let mut h: u64 = seed;
    let mut bytes = 0u64;
    for c in cells
        .columns
        .iter()
        .filter(|c| !(attributes_only && c.field.is_dimension))
    {
        for v in (0..c.len()).filter_map(|i| c.get(i)) {
            bytes += v.len() as u64;
            for b in v {
                h ^= u64::from(*b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    ScanSummary {
        cells: cells.len as u64,
        bytes,
        checksum: h,
    }
}

/// Parses `DIM=LO:HI,...` against the dimension names, into a query's
/// subarray (integer dimensions).
pub fn parse_subarray(
    spec: &str,
    dims: &[(String, Datatype)],
) -> Result<Vec<Option<(i128, i128)>>, String> {
    let mut out = vec![None; dims.len()];
    for part in spec.split(',').filter(|p| !p.is_empty()) {
        let (name, range) = part
            .split_once('=')
            .ok_or_else(|| format!("{part:?}: expected DIM=LO:HI"))?;
        let d = dims
            .iter()
            .position(|(n, _)| n == name)
            .ok_or_else(|| format!("no dimension {name:?}"))?;
        let (lo, hi) = range
            .split_once(':')
            .ok_or_else(|| format!("{part:?}: expected LO:HI"))?;
        let lo: i128 = lo
            .trim()
            .parse()
            .map_err(|_| format!("{part:?}: {lo:?} is not an integer"))?;
        let hi: i128 = hi
            .trim()
            .parse()
            .map_err(|_| format!("{part:?}: {hi:?} is not an integer"))?;
        if lo > hi {
            return Err(format!("{part:?}: the low bound is above the high bound"));
        }
        out[d] = Some((lo, hi));
    }
    Ok(out)
}

/// A query for these attributes (`None`: all) and subarray.
pub fn query(
    attributes: Option<Vec<String>>,
    subarray: Option<Vec<Option<(i128, i128)>>>,
) -> Query {
    Query {
        attributes,
        subarray,
        ..Query::default()
    }
}

/// The dimensions of the array `reader` opened: name and datatype (`None`:
/// a datatype this crate does not know).
pub fn dimensions(reader: &ArrayReader) -> Vec<(String, Option<Datatype>)> {
    reader
        .schema
        .domain
        .dimensions
        .iter()
        .map(|d| {
            (
                String::from_utf8_lossy(&d.name).into_owned(),
                crate::array::schema::dimension_datatype(&reader.schema, d).known(),
            )
        })
        .collect()
}

/// Parses `--range` arguments, each `DIM=LO:HI` (or `DIM=V`, a point), into
/// a query's typed ranges: split at the first `=`, the range parsed in the
/// dimension's datatype ([`DimRange::parse`]). Several for one dimension
/// make a multi-range, in the order given. A dimension the array does not
/// have, or a range that cannot apply to its datatype, is an error saying
/// why.
pub fn parse_ranges(
    specs: &[String],
    dims: &[(String, Option<Datatype>)],
) -> Result<Vec<(String, Vec<DimRange>)>, String> {
    let mut out: Vec<(String, Vec<DimRange>)> = Vec::new();
    for spec in specs {
        let (name, range) = spec
            .split_once('=')
            .ok_or_else(|| format!("{spec:?}: expected DIM=LO:HI"))?;
        let (_, dt) = dims.iter().find(|(n, _)| n == name).ok_or_else(|| {
            let names: Vec<&str> = dims.iter().map(|(n, _)| n.as_str()).collect();
            format!(
                "{spec:?}: the array has no dimension {name:?} (its dimensions: {})",
                names.join(", ")
            )
        })?;
        let dt = dt.ok_or_else(|| {
            format!("{spec:?}: dimension {name:?} has a datatype this crate does not know")
        })?;
        let r = DimRange::parse(dt, range).map_err(|e| format!("{spec:?}: {e}"))?;
        match out.iter_mut().find(|(n, _)| n == name) {
            Some((_, rs)) => rs.push(r),
            None => out.push((name.to_string(), vec![r])),
        }
    }
    Ok(out)
}
