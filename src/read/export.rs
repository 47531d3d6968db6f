//! Writing cells out: NDJSON (one object per cell) and CSV, and the
//! throughput probe behind `scan`.

use std::io::Write;

use serde_json::Value;

use super::cells::{Cells, Query};
use crate::format::Datatype;

/// Writes one JSON object per cell with the keys in schema order:
/// dimensions, then attributes.
pub fn write_ndjson(cells: &Cells, out: &mut impl Write) -> std::io::Result<()> {
    let keys: Vec<String> = cells
        .columns
        .iter()
        .map(|c| serde_json::to_string(&c.field.name).expect("strings serialize"))
        .collect();
    for i in 0..cells.len {
        out.write_all(b"{")?;
        for (k, (key, col)) in keys.iter().zip(&cells.columns).enumerate() {
            if k > 0 {
                out.write_all(b",")?;
            }
            out.write_all(key.as_bytes())?;
            out.write_all(b":")?;
            serde_json::to_writer(&mut *out, &col.json(i))?;
        }
        out.write_all(b"}\n")?;
    }
    Ok(())
}

fn csv_field(v: &Value) -> String {
    let s = match v {
        Value::Null => return String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// Writes a header line of field names, then one line per cell; lists as
/// JSON, null as an empty field.
pub fn write_csv(cells: &Cells, out: &mut impl Write) -> std::io::Result<()> {
    let names: Vec<String> = cells
        .columns
        .iter()
        .map(|c| csv_field(&Value::String(c.field.name.clone())))
        .collect();
    writeln!(out, "{}", names.join(","))?;
    for i in 0..cells.len {
        let row: Vec<String> = cells
            .columns
            .iter()
            .map(|c| csv_field(&c.json(i)))
            .collect();
        writeln!(out, "{}", row.join(","))?;
    }
    Ok(())
}

/// What `scan` reports: how many cells and bytes were read, and a checksum
/// of the values (FNV-1a over every field's bytes, in order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ScanSummary {
    pub cells: u64,
    pub bytes: u64,
    pub checksum: u64,
}

/// Sums up a read.
pub fn summarize(cells: &Cells) -> ScanSummary {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut bytes = 0u64;
    for c in &cells.columns {
        for v in c.cells.iter().flatten() {
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
    }
}
