//! Sort keys of coordinates: packed into integers where they fit.

use serde_json::{json, Value};

use crate::array::FieldInfo;
use crate::model::value;

/// The sort keys of the cells of a sparse read: per dimension, each cell's
/// coordinate as a number whose order is that of the coordinates, or (text)
/// the coordinate's bytes themselves.
pub(super) struct SortKeys {
    /// Per dimension, a key per cell (`None`: compare the bytes).
    pub(super) dims: Vec<Option<Vec<u64>>>,
    /// Cells whose coordinates are not one number each: their JSON, the
    /// general order of [`cmp_values`].
    pub(super) general: Option<Vec<Vec<Value>>>,
    /// Whether equal keys mean equal coordinate bytes.
    pub(super) exact: bool,
}

impl SortKeys {
    pub(super) fn new<'a>(
        dims: &[FieldInfo],
        n: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> Self {
        let mut exact = true;
        let mut keys = Vec::with_capacity(dims.len());
        for (d, f) in dims.iter().enumerate() {
            if value::is_text(f.datatype) {
                keys.push(None);
                continue;
            }
            let mut k = Vec::with_capacity(n);
            for p in 0..n {
                let Some(s) = value::scalar(f.datatype, coords(p, d)) else {
                    return SortKeys::general(dims, n, coords);
                };
                // Floats (0.0 and -0.0, NaNs), booleans and cells with
                // bytes past their one value: equal keys of other bytes.
                exact &= matches!(s, value::Scalar::Int(_) | value::Scalar::Uint(_))
                    && coords(p, d).len() == f.datatype.size() as usize;
                k.push(scalar_key(s));
            }
            keys.push(Some(k));
        }
        SortKeys {
            dims: keys,
            general: None,
            exact,
        }
    }

    /// Each cell's keys packed into one number of the same order, when
    /// there are one or two dimensions and every one has numeric keys.
    pub(super) fn packed(&self) -> Option<impl Iterator<Item = u128> + '_> {
        if self.general.is_some() || self.dims.is_empty() || self.dims.len() > 2 {
            return None;
        }
        let k0 = self.dims[0].as_ref()?;
        let k1 = match self.dims.get(1) {
            Some(k) => Some(k.as_ref()?),
            None => None,
        };
        Some(
            (0..k0.len())
                .map(move |p| (u128::from(k0[p]) << 64) | k1.map_or(0, |k| u128::from(k[p]))),
        )
    }

    pub(super) fn general<'a>(
        dims: &[FieldInfo],
        n: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> Self {
        let key = |p: usize| -> Vec<Value> {
            dims.iter()
                .enumerate()
                .map(|(d, f)| {
                    let c = coords(p, d);
                    if value::is_text(f.datatype) {
                        json!(c.iter().map(|b| *b as u64).collect::<Vec<_>>())
                    } else {
                        value::cell(f.datatype, c)
                    }
                })
                .collect()
        };
        SortKeys {
            dims: Vec::new(),
            general: Some((0..n).map(key).collect()),
            exact: false,
        }
    }

    /// [`SortKeys::cmp`] with the last dimension compared first
    /// (column-major order).
    pub(super) fn cmp_reversed<'a>(
        &self,
        p: usize,
        q: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> std::cmp::Ordering {
        self.cmp_in(p, q, coords, true)
    }

    pub(super) fn cmp<'a>(
        &self,
        p: usize,
        q: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
    ) -> std::cmp::Ordering {
        self.cmp_in(p, q, coords, false)
    }

    /// Compares cells `p` and `q` by their coordinates, the first dimension
    /// first (`reversed`: the last first).
    pub(super) fn cmp_in<'a>(
        &self,
        p: usize,
        q: usize,
        coords: impl Fn(usize, usize) -> &'a [u8],
        reversed: bool,
    ) -> std::cmp::Ordering {
        if let Some(g) = &self.general {
            if reversed {
                let (mut a, mut b) = (g[p].clone(), g[q].clone());
                a.reverse();
                b.reverse();
                return cmp_values(&a, &b);
            }
            return cmp_values(&g[p], &g[q]);
        }
        let n = self.dims.len();
        for i in 0..n {
            let d = if reversed { n - 1 - i } else { i };
            let o = match &self.dims[d] {
                Some(k) => k[p].cmp(&k[q]),
                None => coords(p, d).cmp(coords(q, d)),
            };
            if o.is_ne() {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    }
}

/// A number whose order is [`cmp_values`]' order of the scalars' JSON (of
/// one datatype): integers and booleans by value; floats as strings
/// before numbers ("-inf" < "NaN" < "inf"), numbers by value, -0 = 0.
pub(super) fn scalar_key(s: value::Scalar) -> u64 {
    match s {
        value::Scalar::Int(v) => (v as u64) ^ (1 << 63),
        value::Scalar::Uint(v) => v,
        value::Scalar::Bool(v) => u64::from(v),
        value::Scalar::Float(v) if v.is_nan() => 1,
        value::Scalar::Float(v) if v == f64::NEG_INFINITY => 0,
        value::Scalar::Float(v) if v == f64::INFINITY => 2,
        value::Scalar::Float(v) => {
            // Finite: the sign-magnitude bits made monotonic; the smallest,
            // -MAX, maps to 0x0010_0000_0000_0000, above the three strings.
            let bits = if v == 0.0 { 0 } else { v.to_bits() };
            if bits >> 63 == 1 {
                !bits
            } else {
                bits | (1 << 63)
            }
        }
    }
}

pub(super) fn cmp_values(a: &[Value], b: &[Value]) -> std::cmp::Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Value::Number(p), Value::Number(q)) => {
                match (p.as_i64(), q.as_i64(), p.as_u64(), q.as_u64()) {
                    (Some(p), Some(q), _, _) => p.cmp(&q),
                    (_, _, Some(p), Some(q)) => p.cmp(&q),
                    _ => p
                        .as_f64()
                        .partial_cmp(&q.as_f64())
                        .unwrap_or(std::cmp::Ordering::Equal),
                }
            }
            (Value::Array(p), Value::Array(q)) => cmp_values(p, q).then(p.len().cmp(&q.len())),
            _ => x.to_string().cmp(&y.to_string()),
        };
        if o != std::cmp::Ordering::Equal {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

/// The keys ([`scalar_key`]) of every cell of `values`, cells of an
/// integer datatype `dt` (dates and times too), decoded in one pass;
/// `None` for any other datatype.
pub(super) fn int_keys(dt: crate::format::Datatype, values: &[u8]) -> Option<Vec<u64>> {
    let w = dt.size() as usize;
    let signed = match value::scalar(dt, [0u8; 8].get(..w)?)? {
        value::Scalar::Int(_) => true,
        value::Scalar::Uint(_) => false,
        _ => return None,
    };
    let cells = values.chunks_exact(w);
    Some(match (w, signed) {
        (1, true) => cells
            .map(|c| key_i(i8::from_le_bytes([c[0]]).into()))
            .collect(),
        (2, true) => cells
            .map(|c| key_i(i16::from_le_bytes([c[0], c[1]]).into()))
            .collect(),
        (4, true) => cells
            .map(|c| key_i(i32::from_le_bytes(c.try_into().unwrap_or_default()).into()))
            .collect(),
        (8, true) => cells
            .map(|c| key_i(i64::from_le_bytes(c.try_into().unwrap_or_default())))
            .collect(),
        (1, false) => cells.map(|c| u64::from(c[0])).collect(),
        (2, false) => cells
            .map(|c| u64::from(u16::from_le_bytes([c[0], c[1]])))
            .collect(),
        (4, false) => cells
            .map(|c| u64::from(u32::from_le_bytes(c.try_into().unwrap_or_default())))
            .collect(),
        (8, false) => cells
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect(),
        _ => return None,
    })
}

fn key_i(v: i64) -> u64 {
    scalar_key(value::Scalar::Int(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Datatype;

    #[test]
    fn keys_of_whole_columns_are_the_keys_of_each_cell() {
        let values: [i64; 6] = [i64::MIN, -129, -1, 0, 255, i64::MAX];
        for dt in [
            Datatype::Int8,
            Datatype::Int16,
            Datatype::Int32,
            Datatype::Int64,
            Datatype::Uint8,
            Datatype::Uint16,
            Datatype::Uint32,
            Datatype::Uint64,
            Datatype::DatetimeMs,
        ] {
            let w = dt.size() as usize;
            let bytes: Vec<u8> = values
                .iter()
                .flat_map(|v| v.to_le_bytes()[..w].to_vec())
                .collect();
            let keys = int_keys(dt, &bytes).expect("an integer datatype");
            let each: Vec<u64> = bytes
                .chunks_exact(w)
                .map(|c| scalar_key(value::scalar(dt, c).unwrap()))
                .collect();
            assert_eq!(keys, each, "{dt:?}");
        }
        assert!(int_keys(Datatype::Float64, &[0; 8]).is_none());
    }
}
