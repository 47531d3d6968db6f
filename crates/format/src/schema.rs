//! Facts about a decoded array schema that every layer above the tables
//! needs: its datatypes, its enumerations' values, the versions read.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::{ArraySchema, Datatype, DecodeError, Dimension, Enumeration};

pub use crate::version::MAX_FORMAT_VERSION;

/// The datatype of a dimension (before version 5, the domain's);
/// `Unknown(255)` when the schema has neither.
pub fn dimension_datatype(s: &ArraySchema, d: &Dimension) -> Datatype {
    d.datatype
        .or(s.domain.domain_datatype)
        .unwrap_or(Datatype::Unknown(u8::MAX))
}

/// The values of an enumeration, each as its bytes: fixed-size values of
/// `cell_val_num` datatype values each, or var-sized ones cut at the
/// offsets (format_spec/enumeration.md). Checked against the data size, so a
/// damaged file gives an error, not a panic.
pub fn enumeration_values(e: &Enumeration) -> Result<Vec<&[u8]>, DecodeError> {
    let bad = |field: &str, what: String| DecodeError::new(0, "Enumeration", field, what);
    let dt = e.datatype.known().ok_or_else(|| {
        bad(
            "datatype",
            format!("{} is not a datatype", e.datatype.value()),
        )
    })?;
    let data = e.data.as_slice();
    if e.cell_val_num == crate::VAR_NUM {
        let raw = e.offsets.as_deref().unwrap_or_default();
        if !raw.len().is_multiple_of(8) {
            return Err(bad(
                "offsets",
                format!("{} bytes is not a whole number of u64 offsets", raw.len()),
            ));
        }
        let starts: Vec<u64> = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let mut out = Vec::with_capacity(starts.len());
        for (i, &start) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(data.len() as u64);
            if start > end || end > data.len() as u64 {
                return Err(bad(
                    "offsets",
                    format!(
                        "value {i} spans bytes {start}..{end} of {} bytes of data",
                        data.len()
                    ),
                ));
            }
            out.push(&data[start as usize..end as usize]);
        }
        return Ok(out);
    }
    let width = dt.size() * u64::from(e.cell_val_num);
    if width == 0 || !(data.len() as u64).is_multiple_of(width) {
        return Err(bad(
            "data",
            format!(
                "{} bytes is not a whole number of values of {width} bytes",
                data.len()
            ),
        ));
    }
    Ok(data.chunks_exact(width as usize).collect())
}
