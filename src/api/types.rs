//! The Rust types cells are read and written as, and which datatypes each
//! one stands for.

use crate::format::{Datatype, DatatypeClass};

mod sealed {
    pub trait Sealed {}
}

/// A Rust primitive that cells of some TileDB datatypes are made of:
/// `i8`..`i64`, `u8`..`u64`, `f32`, `f64`.
///
/// Which datatypes each one reads and writes:
///
/// | type  | datatypes |
/// |-------|-----------|
/// | `i8`  | INT8 |
/// | `u8`  | UINT8, BOOL, CHAR, STRING_ASCII, STRING_UTF8, BLOB, GEOM_WKB, GEOM_WKT (bytes) |
/// | `i16` | INT16 |
/// | `u16` | UINT16, STRING_UTF16, STRING_UCS2 |
/// | `i32` | INT32 |
/// | `u32` | UINT32, STRING_UTF32, STRING_UCS4 |
/// | `i64` | INT64 and every DATETIME_* and TIME_* (their integer counts) |
/// | `u64` | UINT64 |
/// | `f32` | FLOAT32 |
/// | `f64` | FLOAT64 |
///
/// The trait is sealed: no other type can implement it.
pub trait CellType:
    sealed::Sealed
    + Copy
    + std::fmt::Debug
    + zerocopy::FromBytes
    + zerocopy::IntoBytes
    + zerocopy::Immutable
    + zerocopy::KnownLayout
    + 'static
{
    /// The type's Rust name, for error messages.
    const NAME: &'static str;

    /// Whether cells of `dt` are values of this type.
    fn accepts(dt: Datatype) -> bool;

    /// The value of `bytes` (exactly `size_of::<Self>()`, little-endian).
    fn from_le(bytes: &[u8]) -> Self;

    /// Appends the value's little-endian bytes.
    fn put_le(self, out: &mut Vec<u8>);
}

macro_rules! cell_type {
    ($t:ty, $name:literal, |$dt:ident| $accepts:expr) => {
        impl sealed::Sealed for $t {}
        impl CellType for $t {
            const NAME: &'static str = $name;
            fn accepts($dt: Datatype) -> bool {
                $accepts
            }
            fn from_le(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(bytes);
                <$t>::from_le_bytes(b)
            }
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    };
}

/// Cells of `dt` are values of the Rust type named `name` when that is
/// their native type (text and bytes by their code unit, BOOL as `u8`,
/// dates and times as `i64`); ANY and unknown codes are of none.
fn native_is(dt: Datatype, name: &str) -> bool {
    dt.native_name() == name && !matches!(dt.class(), DatatypeClass::Any | DatatypeClass::Unknown)
}

cell_type!(i8, "i8", |dt| native_is(dt, "i8"));
cell_type!(u8, "u8", |dt| native_is(dt, "u8"));
cell_type!(i16, "i16", |dt| native_is(dt, "i16"));
cell_type!(u16, "u16", |dt| native_is(dt, "u16"));
cell_type!(i32, "i32", |dt| native_is(dt, "i32"));
cell_type!(u32, "u32", |dt| native_is(dt, "u32"));
cell_type!(i64, "i64", |dt| native_is(dt, "i64"));
cell_type!(u64, "u64", |dt| native_is(dt, "u64"));
cell_type!(f32, "f32", |dt| native_is(dt, "f32"));
cell_type!(f64, "f64", |dt| native_is(dt, "f64"));

/// Values of `T` from little-endian bytes: borrowed in place when `bytes`
/// is suitably aligned (and the target little-endian), else copied.
pub(crate) fn view<T: CellType>(bytes: &[u8]) -> std::borrow::Cow<'_, [T]> {
    if cfg!(target_endian = "little") {
        if let Ok(v) = <[T] as zerocopy::FromBytes>::ref_from_bytes(bytes) {
            return std::borrow::Cow::Borrowed(v);
        }
    }
    std::borrow::Cow::Owned(
        bytes
            .chunks_exact(std::mem::size_of::<T>())
            .map(T::from_le)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_reads_its_own_datatypes() {
        assert!(f64::accepts(Datatype::Float64));
        assert!(!f64::accepts(Datatype::Float32));
        assert!(i64::accepts(Datatype::DatetimeDay));
        assert!(i64::accepts(Datatype::TimeNs));
        assert!(!i64::accepts(Datatype::Uint64));
        assert!(u8::accepts(Datatype::StringAscii));
        assert!(!i8::accepts(Datatype::Uint8));
    }

    #[test]
    fn misaligned_bytes_are_copied() {
        let bytes: Vec<u8> = [0u8]
            .into_iter()
            .chain(1.5f64.to_le_bytes())
            .chain((-2.0f64).to_le_bytes())
            .collect();
        let v = view::<f64>(&bytes[1..]);
        assert_eq!(&*v, &[1.5, -2.0]);
    }
}
