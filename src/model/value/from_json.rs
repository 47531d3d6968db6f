//! JSON values to the bytes of a datatype: the inverse of [`super`]
//! (numbers as numbers, text as strings or byte lists, NaN and infinities
//! as "NaN", "inf", "-inf", dates and times as integers, opaque bytes and
//! multi-valued cells as lists).

use serde_json::Value;

use super::is_text;
use crate::format::Datatype;

fn describe(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

/// An integer, from a JSON number (integral floats too).
pub fn json_int(v: &Value) -> Option<i128> {
    if let Some(i) = v.as_i64() {
        return Some(i128::from(i));
    }
    if let Some(u) = v.as_u64() {
        return Some(i128::from(u));
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 1.9e19).then_some(f as i128)
}

/// A float, from a JSON number or "NaN" / "inf" / "-inf".
pub fn json_float(v: &Value) -> Option<f64> {
    if let Some(f) = v.as_f64() {
        return Some(f);
    }
    match v.as_str()?.trim() {
        "NaN" | "nan" | "NAN" => Some(f64::NAN),
        "inf" | "+inf" | "Infinity" | "+Infinity" | "INF" => Some(f64::INFINITY),
        "-inf" | "-Infinity" | "-INF" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// Appends one value of `dt` (little-endian) to `out`.
pub fn push_value(dt: Datatype, v: &Value, out: &mut Vec<u8>) -> Result<(), String> {
    match dt {
        Datatype::Float32 => {
            let f =
                json_float(v).ok_or_else(|| format!("{} is not a FLOAT32 value", describe(v)))?;
            out.extend_from_slice(&(f as f32).to_le_bytes());
        }
        Datatype::Float64 => {
            let f =
                json_float(v).ok_or_else(|| format!("{} is not a FLOAT64 value", describe(v)))?;
            out.extend_from_slice(&f.to_le_bytes());
        }
        Datatype::Bool if v.is_boolean() => out.push(u8::from(v.as_bool() == Some(true))),
        _ => {
            // Floats are matched above: every other datatype has integer limits.
            let (lo, hi) = dt.int_limits().unwrap_or((0, -1));
            let i = json_int(v)
                .ok_or_else(|| format!("{} is not an integer ({})", describe(v), dt.name()))?;
            if i < lo || i > hi {
                return Err(format!("{i} is out of range for {}", dt.name()));
            }
            let w = dt.size() as usize;
            out.extend_from_slice(&i.to_le_bytes()[..w]);
        }
    }
    Ok(())
}

/// The bytes of a text or opaque cell: a string's bytes, or a list of bytes.
fn byte_string(dt: Datatype, v: &Value) -> Result<Vec<u8>, String> {
    match v {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        Value::Array(items) => {
            let mut out = Vec::with_capacity(items.len());
            for x in items {
                match json_int(x) {
                    Some(b @ 0..=255) => out.push(b as u8),
                    _ => return Err(format!("{} is not a byte (0 to 255)", describe(x))),
                }
            }
            Ok(out)
        }
        other => Err(format!(
            "{} is not a {} value (a string or a list of bytes)",
            describe(other),
            dt.name()
        )),
    }
}

/// The bytes of one cell of a field of `dt` with `cell_val_num` values per
/// cell (`None`: var-sized).
pub fn cell_bytes(dt: Datatype, cell_val_num: Option<u32>, v: &Value) -> Result<Vec<u8>, String> {
    let bytes = if is_text(dt) || dt.is_opaque() {
        byte_string(dt, v)?
    } else {
        let mut out = Vec::new();
        match v {
            Value::Array(items) => {
                if cell_val_num == Some(1) && items.len() != 1 {
                    return Err(format!(
                        "a list of {} values for a field of one value per cell",
                        items.len()
                    ));
                }
                for x in items {
                    push_value(dt, x, &mut out)?;
                }
            }
            scalar => push_value(dt, scalar, &mut out)?,
        }
        out
    };
    if let Some(n) = cell_val_num {
        let want = u64::from(n) * dt.size();
        if bytes.len() as u64 != want {
            return Err(format!(
                "{} has {} bytes, a cell of {n} {} takes {want}",
                describe(v),
                bytes.len(),
                dt.name()
            ));
        }
    } else if !(bytes.len() as u64).is_multiple_of(dt.size().max(1)) {
        return Err(format!(
            "{} is not a whole number of {} values",
            describe(v),
            dt.name()
        ));
    }
    Ok(bytes)
}

/// Parses a CSV field into the JSON value [`cell_bytes`] expects: empty is
/// null (for nullable fields; the caller decides), text fields are strings
/// (or, when written as `[b, ...]`, byte lists), other fields JSON (numbers,
/// lists) with "NaN"/"inf" and the like as strings.
pub fn csv_value(dt: Datatype, field: &str) -> Value {
    if is_text(dt) {
        if field.starts_with('[') {
            if let Ok(v @ Value::Array(_)) = serde_json::from_str::<Value>(field) {
                if v.as_array()
                    .is_some_and(|a| a.iter().all(|x| x.as_u64().is_some_and(|b| b < 256)))
                {
                    return v;
                }
            }
        }
        return Value::String(field.to_string());
    }
    let t = field.trim();
    match serde_json::from_str::<Value>(t) {
        Ok(v) => v,
        Err(_) => match t {
            "true" | "True" | "TRUE" => Value::Bool(true),
            "false" | "False" | "FALSE" => Value::Bool(false),
            _ => Value::String(t.to_string()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_through_value_cell() {
        let cases = [
            (Datatype::Int8, Some(1), json!(-5)),
            (Datatype::Uint64, Some(1), json!(18446744073709551615u64)),
            (Datatype::Float32, Some(1), json!("NaN")),
            (Datatype::Float64, Some(2), json!([1.5, "-inf"])),
            (Datatype::Bool, Some(1), json!(true)),
            (Datatype::StringUtf8, None, json!("héllo")),
            (Datatype::Char, None, json!([128])),
            (Datatype::Blob, None, json!([0, 1, 2])),
            (Datatype::Int32, None, json!([1, 2, 3])),
            (Datatype::DatetimeDay, Some(1), json!(18262)),
        ];
        for (dt, n, v) in cases {
            let b = cell_bytes(dt, n, &v).unwrap();
            let back = if n.is_none() && !is_text(dt) {
                Value::Array(crate::model::value::values(dt, &b))
            } else {
                crate::model::value::cell(dt, &b)
            };
            assert_eq!(back, v, "{dt:?}");
        }
    }

    #[test]
    fn errors_say_what() {
        let e = cell_bytes(Datatype::Uint8, Some(1), &json!(300)).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = cell_bytes(Datatype::Char, Some(3), &json!("ab")).unwrap_err();
        assert!(e.contains("takes 3"), "{e}");
        let e = cell_bytes(Datatype::Int32, Some(1), &json!("x")).unwrap_err();
        assert!(e.contains("not an integer"), "{e}");
    }
}
