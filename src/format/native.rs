//! The native Rust type of a datatype's values, as a value one can match
//! on: dates and times are `i64` counts; characters, booleans and bytes
//! unsigned integers of their width (what [`with_native`] picks).

use super::{with_native, Datatype};

/// The native type of a datatype's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Native {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

/// The [`Native`] of each native type.
trait OfNative {
    const NATIVE: Native;
}

macro_rules! of_native {
    ($($t:ty => $k:ident),*) => {
        $(impl OfNative for $t {
            const NATIVE: Native = Native::$k;
        })*
    };
}

of_native!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8, u16 => U16, u32 => U32,
    u64 => U64, f32 => F32, f64 => F64);

impl Native {
    /// The native type of `dt`'s values.
    pub(crate) fn of(dt: Datatype) -> Native {
        with_native!(dt, T => <T as OfNative>::NATIVE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_i64_and_chars_unsigned() {
        assert_eq!(Native::of(Datatype::DatetimeMs), Native::I64);
        assert_eq!(Native::of(Datatype::Char), Native::U8);
        assert_eq!(Native::of(Datatype::Bool), Native::U8);
        assert_eq!(Native::of(Datatype::Float32), Native::F32);
        assert_eq!(Native::of(Datatype::Uint16), Native::U16);
    }
}
