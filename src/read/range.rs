//! Typed ranges on dimensions: the `LO:HI` of a subarray, in the
//! dimension's own datatype (every integer width, FLOAT32/64, DATETIME_* and
//! TIME_* as integers, STRING_ASCII as bytes). Several ranges on one
//! dimension make a multi-range (their union); a range is inclusive at both
//! ends, as the engine's.

use crate::format::Datatype;
use crate::model::value;

/// One end of a range, in the domain of its dimension's datatype.
#[derive(Debug, Clone, PartialEq, PartialOrd)]
pub enum Bound {
    /// Integer, date and time dimensions.
    Int(i128),
    /// FLOAT32 and FLOAT64 dimensions (a FLOAT32 bound is widened exactly).
    Float(f64),
    /// String dimensions: bytes, compared bytewise.
    Text(Vec<u8>),
}

/// A bound as a user writes it: `50`, `1.5`, `"z"` (a string quoted, with
/// escapes).
impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bound::Int(v) => write!(f, "{v}"),
            Bound::Float(v) => write!(f, "{v}"),
            Bound::Text(b) => write!(f, "{:?}", String::from_utf8_lossy(b)),
        }
    }
}

/// An inclusive range `[lo, hi]` on one dimension.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DimRange {
    /// The lower end, included.
    pub lo: Bound,
    /// The upper end, included.
    pub hi: Bound,
}

impl DimRange {
    /// The range `[lo, hi]`.
    pub fn new(lo: Bound, hi: Bound) -> Self {
        DimRange { lo, hi }
    }
}

/// The kind of bound a dimension datatype takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoundKind {
    /// Integers (and date/time types).
    Int,
    /// Floating-point values.
    Float,
    /// Strings.
    Text,
}

/// What kind of bounds a dimension of `dt` takes (`None`: no range applies).
pub fn bound_kind(dt: Datatype) -> Option<BoundKind> {
    if value::is_text(dt) {
        return Some(BoundKind::Text);
    }
    use crate::format::DatatypeClass as C;
    match dt.class() {
        C::Float => Some(BoundKind::Float),
        C::Bytes | C::Any | C::Unknown => None,
        // Integers, BOOL, dates and times, and the wider text types by
        // their code unit.
        C::Signed | C::Unsigned | C::Bool | C::Datetime | C::Time | C::String => {
            Some(BoundKind::Int)
        }
        _ => None,
    }
}

impl Bound {
    /// The value of one coordinate of a dimension of `dt`.
    pub fn of_cell(dt: Datatype, cell: &[u8]) -> Option<Bound> {
        match bound_kind(dt)? {
            BoundKind::Text => Some(Bound::Text(cell.to_vec())),
            BoundKind::Float => match value::scalar(dt, cell)? {
                value::Scalar::Float(f) => Some(Bound::Float(f)),
                _ => None,
            },
            BoundKind::Int => match value::scalar(dt, cell)? {
                value::Scalar::Int(v) => Some(Bound::Int(i128::from(v))),
                value::Scalar::Uint(v) => Some(Bound::Int(i128::from(v))),
                value::Scalar::Bool(v) => Some(Bound::Int(i128::from(v))),
                value::Scalar::Float(_) => None,
            },
        }
    }

    fn kind(&self) -> BoundKind {
        match self {
            Bound::Int(_) => BoundKind::Int,
            Bound::Float(_) => BoundKind::Float,
            Bound::Text(_) => BoundKind::Text,
        }
    }

    /// Parses a literal of a dimension of `dt`: an integer, a float (also
    /// `inf`, `-inf`), or a string (bare, or a JSON string literal).
    pub fn parse(dt: Datatype, text: &str) -> Result<Bound, String> {
        let kind =
            bound_kind(dt).ok_or_else(|| format!("a {} dimension takes no ranges", dt.name()))?;
        let text = text.trim();
        match kind {
            BoundKind::Text => {
                if text.starts_with('"') {
                    let s: String = serde_json::from_str(text)
                        .map_err(|e| format!("{text} is not a JSON string literal: {e}"))?;
                    Ok(Bound::Text(s.into_bytes()))
                } else {
                    Ok(Bound::Text(text.as_bytes().to_vec()))
                }
            }
            BoundKind::Float => {
                let v: f64 = match text {
                    "inf" | "+inf" => f64::INFINITY,
                    "-inf" => f64::NEG_INFINITY,
                    t => t
                        .parse()
                        .map_err(|_| format!("{t:?} is not a number ({} dimension)", dt.name()))?,
                };
                if v.is_nan() {
                    return Err("NaN is not a range bound".into());
                }
                if dt == Datatype::Float32 {
                    // The engine stores the bound as a float32.
                    Ok(Bound::Float(f64::from(v as f32)))
                } else {
                    Ok(Bound::Float(v))
                }
            }
            BoundKind::Int => {
                let v: i128 = text
                    .parse()
                    .map_err(|_| format!("{text:?} is not an integer ({} dimension)", dt.name()))?;
                let (lo, hi) = int_limits(dt);
                if v < lo || v > hi {
                    return Err(format!(
                        "{v} is outside the values of a {} dimension ({lo} to {hi})",
                        dt.name()
                    ));
                }
                Ok(Bound::Int(v))
            }
        }
    }
}

/// The smallest and largest value of an integer (date, time) datatype
/// (of its native type; `i128`'s for the floats, which have no integer
/// bounds to check).
pub fn int_limits(dt: Datatype) -> (i128, i128) {
    dt.int_limits().unwrap_or((i128::MIN, i128::MAX))
}

impl DimRange {
    /// A range of one value.
    pub fn point(v: Bound) -> Self {
        DimRange {
            lo: v.clone(),
            hi: v,
        }
    }

    /// Parses `LO:HI` (or a single value, a point) for a dimension of `dt`.
    /// A string may be written as a JSON string literal, so that it can hold
    /// a colon: `"a:b":"c"`.
    pub fn parse(dt: Datatype, text: &str) -> Result<Self, String> {
        let (lo, hi) = split_range(text)?;
        let lo = Bound::parse(dt, lo)?;
        let hi = match hi {
            Some(h) => Bound::parse(dt, h)?,
            None => lo.clone(),
        };
        let r = DimRange { lo, hi };
        r.check(dt)?;
        Ok(r)
    }

    /// Checks that the range applies to a dimension of `dt`: bounds of the
    /// dimension's kind, `lo <= hi`.
    pub fn check(&self, dt: Datatype) -> Result<(), String> {
        let kind =
            bound_kind(dt).ok_or_else(|| format!("a {} dimension takes no ranges", dt.name()))?;
        for b in [&self.lo, &self.hi] {
            if b.kind() != kind {
                return Err(format!(
                    "a {} dimension takes {} bounds, not {}",
                    dt.name(),
                    match kind {
                        BoundKind::Int => "integer",
                        BoundKind::Float => "floating-point",
                        BoundKind::Text => "string",
                    },
                    b
                ));
            }
        }
        if self.lo > self.hi {
            return Err(format!(
                "the range's low end {} is above its high end {}",
                self.lo, self.hi
            ));
        }
        Ok(())
    }

    /// Whether the coordinate `cell` of a dimension of `dt` lies in the range.
    pub fn contains(&self, dt: Datatype, cell: &[u8]) -> bool {
        match (&self.lo, &self.hi) {
            (Bound::Text(lo), Bound::Text(hi)) => cell >= lo.as_slice() && cell <= hi.as_slice(),
            _ => Bound::of_cell(dt, cell).is_some_and(|v| v >= self.lo && v <= self.hi),
        }
    }

    /// Whether the range meets `[lo, hi]` (an MBR or non-empty domain).
    pub fn overlaps(&self, lo: &Bound, hi: &Bound) -> bool {
        !(self.hi < *lo || self.lo > *hi)
    }
}

/// Clears `keep[i]` for every cell `i` of `values` (fixed-size cells of a
/// dimension of `dt`, one value each) that lies in none of `ranges`, as
/// [`DimRange::contains`] would answer cell by cell, with the bounds typed
/// once for the column; `keep[i]` already false is left so. Cells past the
/// end of `values` are cleared. False (and `keep` untouched) when `dt` has
/// no such path (text, BOOL, bytes, bounds of another kind): the caller
/// asks `contains`.
pub fn retain_fixed(ranges: &[DimRange], dt: Datatype, values: &[u8], keep: &mut [bool]) -> bool {
    if ranges.is_empty() {
        return true;
    }
    if dt == Datatype::Bool || dt.is_opaque() || value::is_text(dt) || dt.size() == 0 {
        return false;
    }
    match bound_kind(dt) {
        Some(BoundKind::Int) => {
            let Some(rs) = bound_pairs(ranges, |b| match b {
                Bound::Int(v) => Some(*v),
                _ => None,
            }) else {
                return false;
            };
            crate::format::with_native!(int dt, T => {
                // The bounds in the column's own type: clamped to it, a
                // range outside it left out (it holds no value of T).
                let (min, max) = (i128::from(T::MIN), i128::from(T::MAX));
                let native: Vec<(T, T)> = rs
                    .iter()
                    .filter(|(l, h)| *l <= max && *h >= min)
                    .filter_map(|(l, h)| {
                        Some((T::try_from((*l).max(min)).ok()?, T::try_from((*h).min(max)).ok()?))
                    })
                    .collect();
                retain_typed(&native, values, keep, T::from_le_bytes);
                true
            }, _ => false)
        }
        Some(BoundKind::Float) => {
            let Some(rs) = bound_pairs(ranges, |b| match b {
                Bound::Float(v) => Some(*v),
                _ => None,
            }) else {
                return false;
            };
            match dt {
                Datatype::Float32 => {
                    retain_typed(&rs, values, keep, |c| f64::from(f32::from_le_bytes(c)))
                }
                Datatype::Float64 => retain_typed(&rs, values, keep, f64::from_le_bytes),
                _ => return false,
            }
            true
        }
        _ => false,
    }
}

/// The (low, high) bounds of `ranges` as `K`, `None` where a bound is not
/// of the kind `take` accepts.
fn bound_pairs<K>(ranges: &[DimRange], take: impl Fn(&Bound) -> Option<K>) -> Option<Vec<(K, K)>> {
    ranges
        .iter()
        .map(|r| Some((take(&r.lo)?, take(&r.hi)?)))
        .collect()
}

/// [`retain_fixed`] for one native width `N`, `key` widening a value to
/// the bounds' type.
fn retain_typed<const N: usize, K: PartialOrd + Copy>(
    ranges: &[(K, K)],
    values: &[u8],
    keep: &mut [bool],
    key: impl Fn([u8; N]) -> K,
) {
    let cells = values.len() / N;
    let (head, tail) = keep.split_at_mut(cells.min(keep.len()));
    tail.fill(false);
    let decode = |c: &[u8]| {
        let mut b = [0u8; N];
        b.copy_from_slice(c);
        key(b)
    };
    if let [(lo, hi)] = ranges {
        for (k, c) in head.iter_mut().zip(values.chunks_exact(N)) {
            let v = decode(c);
            *k &= (*lo <= v) & (v <= *hi);
        }
    } else {
        for (k, c) in head.iter_mut().zip(values.chunks_exact(N)) {
            if *k {
                let v = decode(c);
                *k = ranges.iter().any(|(lo, hi)| *lo <= v && v <= *hi);
            }
        }
    }
}

/// Splits `LO:HI` at the colon that is outside JSON string literals.
fn split_range(text: &str) -> Result<(&str, Option<&str>), String> {
    let bytes = text.as_bytes();
    let mut in_str = false;
    let mut escaped = false;
    for (i, &b) in bytes.iter().enumerate() {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
        } else if b == b'"' {
            in_str = true;
        } else if b == b':' && i > 0 {
            return Ok((&text[..i], Some(&text[i + 1..])));
        }
    }
    if in_str {
        return Err(format!("{text}: a string literal is not closed"));
    }
    Ok((text, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_in_the_dimensions_datatype() {
        let r = DimRange::parse(Datatype::Int32, "-5:7").unwrap();
        assert_eq!(r.lo, Bound::Int(-5));
        assert!(r.contains(Datatype::Int32, &3i32.to_le_bytes()));
        assert!(!r.contains(Datatype::Int32, &8i32.to_le_bytes()));
        let f = DimRange::parse(Datatype::Float64, "0:10.5").unwrap();
        assert!(f.contains(Datatype::Float64, &10.5f64.to_le_bytes()));
        let s = DimRange::parse(Datatype::StringAscii, r#""a:b":"c""#).unwrap();
        assert_eq!(s.lo, Bound::Text(b"a:b".to_vec()));
        assert!(s.contains(Datatype::StringAscii, b"bb"));
        let p = DimRange::parse(Datatype::Uint8, "4").unwrap();
        assert_eq!(p.lo, p.hi);
    }

    #[test]
    fn typed_columns_keep_what_contains_keeps() {
        let int = |l: i128, h: i128| DimRange {
            lo: Bound::Int(l),
            hi: Bound::Int(h),
        };
        let float = |l: f64, h: f64| DimRange {
            lo: Bound::Float(l),
            hi: Bound::Float(h),
        };
        let i8s: Vec<u8> = [-128i8, -3, 0, 5, 127].iter().map(|v| *v as u8).collect();
        let u64s: Vec<u8> = [0u64, 7, u64::MAX]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let i64s: Vec<u8> = [i64::MIN, -1, 10, 11]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let f32s: Vec<u8> = [f32::NAN, -0.5, 2.0, f32::INFINITY]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let f64s: Vec<u8> = [f64::NAN, 1.0, 1.5, -1e300]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let cases: Vec<(Datatype, &[u8], Vec<DimRange>)> = vec![
            (Datatype::Int8, &i8s, vec![int(-3, 5)]),
            (Datatype::Int8, &i8s, vec![int(-500, -100), int(100, 500)]),
            (Datatype::Uint64, &u64s, vec![int(5, i128::from(u64::MAX))]),
            (Datatype::Int64, &i64s, vec![int(11, 11), int(-1, 0)]),
            (Datatype::DatetimeMs, &i64s, vec![int(-1, 10)]),
            (Datatype::Float32, &f32s, vec![float(-1.0, 2.0)]),
            (
                Datatype::Float64,
                &f64s,
                vec![float(1.0, 1.0), float(f64::NEG_INFINITY, 0.0)],
            ),
        ];
        for (dt, values, ranges) in cases {
            let w = dt.size() as usize;
            let n = values.len() / w;
            // One more cell than the column holds: cleared.
            let mut keep = vec![true; n + 1];
            keep[0] = n > 1 && !ranges[0].contains(dt, &values[..w]);
            let want: Vec<bool> = (0..n)
                .map(|i| {
                    keep[i]
                        && ranges
                            .iter()
                            .any(|r| r.contains(dt, &values[i * w..(i + 1) * w]))
                })
                .chain([false])
                .collect();
            assert!(retain_fixed(&ranges, dt, values, &mut keep), "{dt:?}");
            assert_eq!(keep, want, "{dt:?} {ranges:?}");
            assert!(want.iter().any(|k| *k), "{dt:?}: the case keeps something");
        }
        // Bounds beyond the type: clamped, or the range holds nothing.
        let mut keep = vec![true; 5];
        assert!(retain_fixed(
            &[int(200, 300), int(-1000, -128)],
            Datatype::Int8,
            &i8s,
            &mut keep
        ));
        assert_eq!(keep, [true, false, false, false, false]);
        // Text and BOOL are left to `contains`.
        let mut keep = vec![true; 2];
        let text = DimRange::parse(Datatype::StringAscii, "a:b").unwrap();
        assert!(!retain_fixed(
            &[text],
            Datatype::StringAscii,
            b"ab",
            &mut keep
        ));
        assert!(!retain_fixed(
            &[int(0, 1)],
            Datatype::Bool,
            &[0, 2],
            &mut keep
        ));
        assert_eq!(keep, vec![true; 2]);
    }

    #[test]
    fn ranges_that_cannot_apply_say_why() {
        assert!(DimRange::parse(Datatype::Int8, "0:300")
            .unwrap_err()
            .contains("outside"));
        assert!(DimRange::parse(Datatype::Int32, "0.5:2")
            .unwrap_err()
            .contains("not an integer"));
        assert!(DimRange::parse(Datatype::Int32, "5:2")
            .unwrap_err()
            .contains("above"));
        let r = DimRange::parse(Datatype::Float64, "1:2").unwrap();
        assert!(r.check(Datatype::Int64).is_err());
    }
}
