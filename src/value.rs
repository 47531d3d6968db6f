//! Values of a datatype as JSON: numbers as numbers, strings as strings,
//! NaN and infinities as the strings "NaN", "inf", "-inf", dates and times
//! as their integer value, bytes as lists of numbers.

use serde_json::{json, Value};

use crate::format::Datatype;

fn float(v: f64) -> Value {
    if v.is_nan() {
        json!("NaN")
    } else if v.is_infinite() {
        json!(if v > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(v)
    }
}

/// Whether values of this datatype are text.
pub fn is_text(dt: Datatype) -> bool {
    matches!(
        dt,
        Datatype::Char | Datatype::StringAscii | Datatype::StringUtf8
    )
}

/// Decodes `bytes` as a sequence of `dt` values (a trailing partial value is dropped).
pub fn values(dt: Datatype, bytes: &[u8]) -> Vec<Value> {
    let width = dt.size() as usize;
    let mut out = Vec::with_capacity(bytes.len() / width.max(1));
    for c in bytes.chunks_exact(width.max(1)) {
        let v = match dt {
            Datatype::Int8 => json!(c[0] as i8),
            Datatype::Uint8 | Datatype::Char | Datatype::StringAscii | Datatype::StringUtf8 => {
                json!(c[0])
            }
            Datatype::Bool => json!(c[0] != 0),
            Datatype::Int16 => json!(i16::from_le_bytes([c[0], c[1]])),
            Datatype::Uint16 | Datatype::StringUtf16 | Datatype::StringUcs2 => {
                json!(u16::from_le_bytes([c[0], c[1]]))
            }
            Datatype::Int32 => json!(i32::from_le_bytes(c.try_into().unwrap())),
            Datatype::Uint32 | Datatype::StringUtf32 | Datatype::StringUcs4 => {
                json!(u32::from_le_bytes(c.try_into().unwrap()))
            }
            Datatype::Uint64 => json!(u64::from_le_bytes(c.try_into().unwrap())),
            Datatype::Float32 => float(f64::from(f32::from_le_bytes(c.try_into().unwrap()))),
            Datatype::Float64 => float(f64::from_le_bytes(c.try_into().unwrap())),
            // INT64 and every date and time type: their integer value.
            _ if width == 8 => json!(i64::from_le_bytes(c.try_into().unwrap())),
            _ => json!(c[0]),
        };
        out.push(v);
    }
    out
}

/// One value or a list: a single value when there is exactly one, text as a
/// string for text types.
pub fn cell(dt: Datatype, bytes: &[u8]) -> Value {
    if is_text(dt) {
        // Text that is not UTF-8 (the engine's default string fill value is
        // the byte 0x80) shows as its bytes.
        return match std::str::from_utf8(bytes) {
            Ok(s) => json!(s),
            Err(_) => Value::Array(bytes.iter().map(|b| json!(b)).collect()),
        };
    }
    let mut vs = values(dt, bytes);
    let opaque = matches!(
        dt,
        Datatype::Blob | Datatype::Any | Datatype::GeomWkb | Datatype::GeomWkt
    );
    if vs.len() == 1 && !opaque {
        vs.pop().unwrap()
    } else {
        Value::Array(vs)
    }
}
