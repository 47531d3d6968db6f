//! The generated datatype table (spec/datatypes.toml, build/datatypes.rs).

use crate::{Datatype, DatatypeClass};

#[test]
fn every_datatype_has_one_class_and_the_tests_agree_with_it() {
    use DatatypeClass as C;
    for &dt in Datatype::ALL {
        let c = dt.class();
        assert_eq!(dt.is_signed(), c == C::Signed, "{dt:?}");
        assert_eq!(dt.is_float(), c == C::Float, "{dt:?}");
        assert_eq!(dt.is_string(), c == C::String, "{dt:?}");
        assert_eq!(dt.is_time(), matches!(c, C::Datetime | C::Time), "{dt:?}");
        assert_eq!(dt.is_opaque(), matches!(c, C::Bytes | C::Any), "{dt:?}");
        assert_eq!(
            dt.is_integer(),
            matches!(c, C::Signed | C::Unsigned | C::Bool),
            "{dt:?}"
        );
        assert_eq!(dt.time_unit().is_some(), dt.is_time(), "{dt:?}");
    }
    let count = |c: DatatypeClass| Datatype::ALL.iter().filter(|d| d.class() == c).count();
    assert_eq!(count(C::Signed), 4);
    assert_eq!(count(C::Unsigned), 4);
    assert_eq!(count(C::Float), 2);
    assert_eq!(count(C::Datetime), 13);
    assert_eq!(count(C::Time), 9);
    assert_eq!(count(C::String), 7);
    assert_eq!(count(C::Bytes), 3);
    assert_eq!(count(C::Bool), 1);
    assert_eq!(count(C::Any), 1);
    assert_eq!(Datatype::Char.class(), C::String);
    assert_eq!(Datatype::GeomWkt.class(), C::Bytes);
    // The engine's datatype_is_integer counts BOOL; dates are not signed.
    assert!(Datatype::Bool.is_integer());
    assert!(!Datatype::DatetimeMs.is_signed() && !Datatype::DatetimeMs.is_integer());
}

#[test]
fn native_types_are_as_wide_as_the_datatypes() {
    for &dt in Datatype::ALL {
        let width = with_native!(dt, T => std::mem::size_of::<T>());
        assert_eq!(width as u64, dt.size(), "{dt:?}");
        let name = with_native!(dt, T => std::any::type_name::<T>());
        assert_eq!(name, dt.native_name(), "{dt:?}");
        assert_eq!(dt.native_signed(), !name.starts_with('u'), "{dt:?}");
        assert_eq!(dt.default_fill().len() as u64, dt.size(), "{dt:?}");
    }
    assert_eq!(Datatype::StringUtf16.native_name(), "u16");
    assert_eq!(Datatype::Char.native_name(), "u8");
    assert_eq!(Datatype::TimeAs.native_name(), "i64");
}

#[test]
fn fill_values_are_the_engines() {
    // tiledb/sm/misc/constants.cc: empty_int32 = INT32_MIN, unsigned
    // maxima, quiet NaN, empty_char = CHAR_MIN, zero for text and bytes,
    // empty_int64 for dates and times.
    use Datatype as D;
    assert_eq!(D::Int32.default_fill(), i32::MIN.to_le_bytes());
    assert_eq!(D::Int8.default_fill(), [0x80]);
    assert_eq!(D::Uint8.default_fill(), [0xff]);
    assert_eq!(D::Uint16.default_fill(), [0xff, 0xff]);
    assert_eq!(D::Uint64.default_fill(), u64::MAX.to_le_bytes());
    assert_eq!(D::Int64.default_fill(), i64::MIN.to_le_bytes());
    assert_eq!(D::Char.default_fill(), [0x80]);
    assert_eq!(D::Bool.default_fill(), [0]);
    assert_eq!(D::Blob.default_fill(), [0]);
    assert_eq!(D::StringUtf8.default_fill(), [0]);
    assert_eq!(D::StringUcs4.default_fill(), [0; 4]);
    assert_eq!(D::DatetimeNs.default_fill(), i64::MIN.to_le_bytes());
    assert_eq!(D::TimeHr.default_fill(), i64::MIN.to_le_bytes());
    let f32_fill = f32::from_le_bytes(D::Float32.default_fill().try_into().unwrap());
    assert!(f32_fill.is_nan());
    // The quiet NaN of C++'s numeric_limits, bit for bit.
    assert_eq!(D::Float32.default_fill(), 0x7fc0_0000u32.to_le_bytes());
    assert_eq!(
        D::Float64.default_fill(),
        0x7ff8_0000_0000_0000u64.to_le_bytes()
    );
}

#[test]
fn time_units_names_and_limits() {
    use Datatype as D;
    assert_eq!(D::DatetimeYear.time_unit(), Some("Y"));
    assert_eq!(D::DatetimeDay.time_unit(), Some("D"));
    assert_eq!(D::DatetimeMin.time_unit(), Some("m"));
    assert_eq!(D::TimeNs.time_unit(), Some("ns"));
    assert_eq!(D::Int64.time_unit(), None);
    for &dt in Datatype::ALL {
        assert_eq!(dt.engine_name(), dt.name());
        assert_eq!(Datatype::from_name(dt.engine_name()), Some(dt));
    }
    assert_eq!(D::StringUtf8.engine_name(), "STRING_UTF8");
    assert_eq!(D::Int8.int_limits(), Some((-128, 127)));
    assert_eq!(D::Uint64.int_limits(), Some((0, u64::MAX.into())));
    assert_eq!(D::Bool.int_limits(), Some((0, 1)));
    assert_eq!(D::Char.int_limits(), Some((0, 255)));
    assert_eq!(D::StringUtf16.int_limits(), Some((0, 65535)));
    assert_eq!(
        D::DatetimeMs.int_limits(),
        Some((i64::MIN.into(), i64::MAX.into()))
    );
    assert_eq!(D::Float32.int_limits(), None);
}

/// An integer from a cell, written once for every native type.
fn integer(dt: Datatype, cell: &[u8]) -> Option<i128> {
    if dt.is_float() {
        return None;
    }
    Some(with_native!(dt, T => {
        let b: [u8; std::mem::size_of::<T>()] = cell.try_into().ok()?;
        T::from_le_bytes(b) as i128
    }))
}

#[test]
fn one_dispatch_reads_every_integer_type() {
    use Datatype as D;
    assert_eq!(integer(D::Int16, &(-2i16).to_le_bytes()), Some(-2));
    assert_eq!(
        integer(D::Uint32, &u32::MAX.to_le_bytes()),
        Some(u32::MAX.into())
    );
    assert_eq!(integer(D::DatetimeDay, &(-3i64).to_le_bytes()), Some(-3));
    assert_eq!(integer(D::Int32, &[1, 2]), None);
    assert_eq!(integer(D::Float64, &[0; 8]), None);
}

#[cfg(feature = "arrow")]
#[test]
fn arrow_types() {
    use arrow_schema::{DataType, TimeUnit};
    use Datatype as D;
    assert_eq!(D::Bool.arrow_type(), DataType::Boolean);
    assert_eq!(D::Uint16.arrow_type(), DataType::UInt16);
    assert_eq!(D::DatetimeDay.arrow_type(), DataType::Date32);
    assert_eq!(
        D::DatetimeUs.arrow_type(),
        DataType::Timestamp(TimeUnit::Microsecond, None)
    );
    assert_eq!(
        D::TimeSec.arrow_type(),
        DataType::Duration(TimeUnit::Second)
    );
    assert_eq!(D::TimePs.arrow_type(), DataType::Int64);
    assert_eq!(D::StringUcs2.arrow_type(), DataType::UInt8);
}
