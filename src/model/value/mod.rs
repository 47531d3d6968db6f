//! The values of a datatype, in one place: cells' little-endian bytes as
//! JSON and scalars (here: numbers as numbers, strings as strings, NaN and
//! infinities as the strings "NaN", "inf", "-inf", dates and times as their
//! integer value, bytes as lists of numbers), JSON back to bytes
//! (`from_json`), and the typed [`Value`](crate::model::Value) and
//! [`DomainRange`](crate::model::DomainRange) from and to bytes (`bytes`).

mod bytes;
pub(crate) mod from_json;

pub use bytes::default_fill_value;

use serde_json::{json, Value};

use crate::format::{with_native, Datatype};

/// A native value as a [`Scalar`] (signed as `Int`, unsigned as `Uint`).
trait ToScalar {
    fn scalar(self) -> Scalar;
}

macro_rules! to_scalar {
    ($variant:ident($wide:ty): $($t:ty),*) => {$(
        impl ToScalar for $t {
            fn scalar(self) -> Scalar {
                Scalar::$variant(<$wide>::from(self))
            }
        }
    )*};
}
to_scalar!(Int(i64): i8, i16, i32, i64);
to_scalar!(Uint(u64): u8, u16, u32, u64);
to_scalar!(Float(f64): f32, f64);

fn float(v: f64) -> Value {
    if v.is_nan() {
        json!("NaN")
    } else if v.is_infinite() {
        json!(if v > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(v)
    }
}

/// Whether values of this datatype are text of one byte a code unit:
/// CHAR, STRING_ASCII and STRING_UTF8.
pub fn is_text(dt: Datatype) -> bool {
    dt.is_string() && dt.size() == 1
}

/// One value of a datatype, decoded: what [`values`] makes each value into.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    /// A signed integer (and date/time values).
    Int(i64),
    /// An unsigned integer.
    Uint(u64),
    /// A floating-point value.
    Float(f64),
    /// A boolean.
    Bool(bool),
}

impl Scalar {
    /// Decodes one value; `c` holds exactly `dt.size()` bytes.
    fn decode(dt: Datatype, c: &[u8]) -> Scalar {
        if dt == Datatype::Bool {
            return Scalar::Bool(c[0] != 0);
        }
        // Text and bytes by their code unit, dates and times as `i64`.
        with_native!(dt, T => {
            let mut b = [0u8; std::mem::size_of::<T>()];
            b.copy_from_slice(&c[..std::mem::size_of::<T>()]);
            T::from_le_bytes(b).scalar()
        })
    }

    /// The JSON of the value.
    pub fn json(self) -> Value {
        match self {
            Scalar::Int(v) => json!(v),
            Scalar::Uint(v) => json!(v),
            Scalar::Float(v) => float(v),
            Scalar::Bool(v) => json!(v),
        }
    }

    /// Writes the value's JSON, byte for byte what `serde_json` writes for
    /// [`Scalar::json`], without building it.
    pub fn write_json(self, out: &mut Vec<u8>) {
        let written = match self {
            Scalar::Int(v) => serde_json::to_writer(&mut *out, &v),
            Scalar::Uint(v) => serde_json::to_writer(&mut *out, &v),
            Scalar::Float(v) if v.is_finite() => serde_json::to_writer(&mut *out, &v),
            // NaN and the infinities as the strings of `float`.
            Scalar::Float(v) => serde_json::to_writer(&mut *out, &float(v)),
            Scalar::Bool(v) => serde_json::to_writer(&mut *out, &v),
        };
        written.expect("numbers serialize into a Vec");
    }
}

/// Decodes `bytes` as a sequence of `dt` values (a trailing partial value is dropped).
pub fn values(dt: Datatype, bytes: &[u8]) -> Vec<Value> {
    let width = dt.size() as usize;
    bytes
        .chunks_exact(width.max(1))
        .map(|c| Scalar::decode(dt, c).json())
        .collect()
}

/// The value of a cell that [`cell`] shows as a single value (a number or
/// a boolean, not a list or text), decoded; `None` for any other cell.
pub fn scalar(dt: Datatype, bytes: &[u8]) -> Option<Scalar> {
    let width = (dt.size() as usize).max(1);
    if is_text(dt) || dt.is_opaque() || bytes.len() / width != 1 {
        return None;
    }
    Some(Scalar::decode(dt, &bytes[..width]))
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
    if vs.len() == 1 && !dt.is_opaque() {
        vs.pop().unwrap()
    } else {
        Value::Array(vs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_write_the_bytes_of_their_json() {
        let floats = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            -0.0,
            0.1,
            1e300,
            5e-324,
        ];
        let scalars = floats
            .map(Scalar::Float)
            .into_iter()
            .chain([i64::MIN, -1, 0, i64::MAX].map(Scalar::Int))
            .chain([0, u64::MAX].map(Scalar::Uint))
            .chain([false, true].map(Scalar::Bool));
        for s in scalars {
            let mut out = Vec::new();
            s.write_json(&mut out);
            assert_eq!(out, serde_json::to_vec(&s.json()).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn a_cell_of_one_value_and_a_partial_one_is_a_scalar() {
        let b = [7, 0, 0, 0, 1];
        assert_eq!(scalar(Datatype::Int32, &b), Some(Scalar::Int(7)));
        assert_eq!(cell(Datatype::Int32, &b), json!(7));
        assert_eq!(scalar(Datatype::Int32, &[7, 0]), None);
        assert_eq!(scalar(Datatype::Blob, &[7]), None);
        assert_eq!(scalar(Datatype::StringAscii, b"a"), None);
    }
}
