//! Rust ranges as ranges on dimensions.

use std::ops::{Range, RangeInclusive};

use super::Error;
use crate::format::Datatype;
use crate::read::range::{bound_kind, int_limits, BoundKind};
use crate::read::{Bound, DimRange};

/// Something that names an inclusive range of a dimension: a Rust range
/// (`10..=20`, `10..21` for integers), a single value (a point), a
/// [`crate::model::Range`], or a [`DimRange`]. Strings (`"a"..="c"`, `"b"`)
/// are ranges of string dimensions.
///
/// The values need not be of the dimension's own type: an integer range
/// applies to any integer (date, time) dimension whose values it fits, and
/// to floating-point dimensions; a floating-point range applies only to
/// floating-point dimensions. Whether it fits is checked against the
/// dimension when the read or write is built.
///
/// The trait is sealed: the conversion itself is the crate's own.
pub trait IntoDimRange: sealed::ToDimRange {}

impl<T: sealed::ToDimRange> IntoDimRange for T {}

pub(crate) mod sealed {
    use crate::read::DimRange;

    /// The conversion behind [`IntoDimRange`](super::IntoDimRange).
    pub trait ToDimRange {
        /// The range as bounds.
        fn into_dim_range(self) -> DimRange;
    }
}

use sealed::ToDimRange;

impl ToDimRange for DimRange {
    fn into_dim_range(self) -> DimRange {
        self
    }
}

macro_rules! int_ranges {
    ($($t:ty),*) => {$(
        impl ToDimRange for RangeInclusive<$t> {
            fn into_dim_range(self) -> DimRange {
                let (lo, hi) = self.into_inner();
                DimRange { lo: Bound::Int(i128::from(lo)), hi: Bound::Int(i128::from(hi)) }
            }
        }
        impl ToDimRange for Range<$t> {
            /// Half-open: `a..b` is `a..=b - 1` (an empty range is refused).
            fn into_dim_range(self) -> DimRange {
                DimRange {
                    lo: Bound::Int(i128::from(self.start)),
                    hi: Bound::Int(i128::from(self.end) - 1),
                }
            }
        }
        impl ToDimRange for $t {
            fn into_dim_range(self) -> DimRange {
                DimRange::point(Bound::Int(i128::from(self)))
            }
        }
        impl ToDimRange for crate::model::Range<$t> {
            fn into_dim_range(self) -> DimRange {
                DimRange { lo: Bound::Int(i128::from(self.start)), hi: Bound::Int(i128::from(self.end)) }
            }
        }
    )*};
}
int_ranges!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_ranges {
    ($($t:ty),*) => {$(
        impl ToDimRange for RangeInclusive<$t> {
            fn into_dim_range(self) -> DimRange {
                let (lo, hi) = self.into_inner();
                DimRange { lo: Bound::Float(f64::from(lo)), hi: Bound::Float(f64::from(hi)) }
            }
        }
        impl ToDimRange for $t {
            fn into_dim_range(self) -> DimRange {
                DimRange::point(Bound::Float(f64::from(self)))
            }
        }
        impl ToDimRange for crate::model::Range<$t> {
            fn into_dim_range(self) -> DimRange {
                DimRange { lo: Bound::Float(f64::from(self.start)), hi: Bound::Float(f64::from(self.end)) }
            }
        }
    )*};
}
float_ranges!(f32, f64);

impl ToDimRange for RangeInclusive<&str> {
    fn into_dim_range(self) -> DimRange {
        let (lo, hi) = self.into_inner();
        DimRange {
            lo: Bound::Text(lo.as_bytes().to_vec()),
            hi: Bound::Text(hi.as_bytes().to_vec()),
        }
    }
}

impl ToDimRange for RangeInclusive<String> {
    fn into_dim_range(self) -> DimRange {
        let (lo, hi) = self.into_inner();
        DimRange {
            lo: Bound::Text(lo.into_bytes()),
            hi: Bound::Text(hi.into_bytes()),
        }
    }
}

impl ToDimRange for &str {
    fn into_dim_range(self) -> DimRange {
        DimRange::point(Bound::Text(self.as_bytes().to_vec()))
    }
}

impl ToDimRange for String {
    fn into_dim_range(self) -> DimRange {
        DimRange::point(Bound::Text(self.into_bytes()))
    }
}

impl ToDimRange for crate::model::DomainRange {
    /// The range's ends as bounds (a non-empty domain or a dimension's
    /// domain as a range to read).
    fn into_dim_range(self) -> DimRange {
        use crate::model::DomainRange as D;
        let ints = |a: i128, b: i128| DimRange {
            lo: Bound::Int(a),
            hi: Bound::Int(b),
        };
        match self {
            D::Int8(r) => ints(r.start.into(), r.end.into()),
            D::Int16(r) => ints(r.start.into(), r.end.into()),
            D::Int32(r) => ints(r.start.into(), r.end.into()),
            D::Int64(r) => ints(r.start.into(), r.end.into()),
            D::UInt8(r) => ints(r.start.into(), r.end.into()),
            D::UInt16(r) => ints(r.start.into(), r.end.into()),
            D::UInt32(r) => ints(r.start.into(), r.end.into()),
            D::UInt64(r) => ints(r.start.into(), r.end.into()),
            D::Float32(r) => r.into_dim_range(),
            D::Float64(r) => r.into_dim_range(),
            D::Bytes(r) => DimRange {
                lo: Bound::Text(r.start),
                hi: Bound::Text(r.end),
            },
        }
    }
}

/// `r` made to fit a dimension `dim` of `dt`: integer bounds widened to
/// floats for floating-point dimensions, checked against the datatype's
/// values, `lo <= hi`.
pub(crate) fn fit(dim: &str, dt: Datatype, r: DimRange) -> Result<DimRange, Error> {
    let err = |what: String| Error::Range {
        dimension: dim.to_string(),
        what,
    };
    let kind =
        bound_kind(dt).ok_or_else(|| err(format!("a {} dimension takes no ranges", dt.name())))?;
    let fit_bound = |b: Bound| -> Result<Bound, Error> {
        match (kind, b) {
            (BoundKind::Float, Bound::Int(v)) => Ok(Bound::Float(v as f64)),
            (BoundKind::Float, Bound::Float(v)) if v.is_nan() => {
                Err(err("NaN is not a range bound".into()))
            }
            (BoundKind::Int, Bound::Int(v)) => {
                let (lo, hi) = int_limits(dt);
                if v < lo || v > hi {
                    return Err(err(format!(
                        "{v} is outside the values of a {} dimension ({lo} to {hi})",
                        dt.name()
                    )));
                }
                Ok(Bound::Int(v))
            }
            (_, b) => Ok(b),
        }
    };
    let r = DimRange {
        lo: fit_bound(r.lo)?,
        hi: fit_bound(r.hi)?,
    };
    r.check(dt).map_err(err)?;
    Ok(r)
}

impl From<crate::model::DomainRange> for DimRange {
    /// The range's ends as bounds (a non-empty domain or a dimension's
    /// domain as a range to read).
    fn from(r: crate::model::DomainRange) -> Self {
        r.into_dim_range()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_ranges_become_inclusive_bounds() {
        let r = (10..20).into_dim_range();
        assert_eq!(r.hi, Bound::Int(19));
        let r = fit("x", Datatype::Float64, (1..=2).into_dim_range()).unwrap();
        assert_eq!(r.lo, Bound::Float(1.0));
        assert!(fit("x", Datatype::Uint8, (0..=300).into_dim_range()).is_err());
        assert!(fit("x", Datatype::Int32, (0.5..=2.0).into_dim_range()).is_err());
        assert!(fit("x", Datatype::Int32, (5..5).into_dim_range()).is_err());
        let s = fit("s", Datatype::StringAscii, ("a"..="c").into_dim_range()).unwrap();
        assert_eq!(s.hi, Bound::Text(b"c".to_vec()));
    }
}
