// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Datatype of attribute, dimension, enumeration and metadata values. Columns
/// besides the code (build/datatypes.rs checks them and generates `Datatype`'s
/// methods and the `with_native!` dispatch from them):
///
/// * `size`: the width of one value in bytes;
/// * `class`: signed, unsigned, float, datetime, time, string (CHAR included),
///   bytes (BLOB and the geometries), bool or any;
/// * `native`: the Rust type one value is read as (text and bytes by their
///   code unit, BOOL as `u8`, dates and times as `i64`);
/// * `unit`: of dates and times, NumPy's unit code (`Y`, `D`, `ms`, ..);
/// * `fill`: the engine's default fill value of one value
///   (tiledb/sm/misc/constants.cc `fill_value`, the `empty_*` constants);
/// * `arrow`: the Arrow type of one value (the crate's `arrow` feature).
///
/// The names are the engine's `datatype_str` and what the JSON and the
/// command line print.
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Datatype {
    /// `TILEDB_INT32` = 0
    Int32,
    /// `TILEDB_INT64` = 1
    Int64,
    /// `TILEDB_FLOAT32` = 2
    Float32,
    /// `TILEDB_FLOAT64` = 3
    Float64,
    /// `TILEDB_CHAR` = 4
    Char,
    /// `TILEDB_INT8` = 5
    Int8,
    /// `TILEDB_UINT8` = 6
    Uint8,
    /// `TILEDB_INT16` = 7
    Int16,
    /// `TILEDB_UINT16` = 8
    Uint16,
    /// `TILEDB_UINT32` = 9
    Uint32,
    /// `TILEDB_UINT64` = 10
    Uint64,
    /// `TILEDB_STRING_ASCII` = 11
    StringAscii,
    /// `TILEDB_STRING_UTF8` = 12
    StringUtf8,
    /// `TILEDB_STRING_UTF16` = 13
    StringUtf16,
    /// `TILEDB_STRING_UTF32` = 14
    StringUtf32,
    /// `TILEDB_STRING_UCS2` = 15
    StringUcs2,
    /// `TILEDB_STRING_UCS4` = 16
    StringUcs4,
    /// `TILEDB_ANY` = 17
    Any,
    /// `TILEDB_DATETIME_YEAR` = 18
    DatetimeYear,
    /// `TILEDB_DATETIME_MONTH` = 19
    DatetimeMonth,
    /// `TILEDB_DATETIME_WEEK` = 20
    DatetimeWeek,
    /// `TILEDB_DATETIME_DAY` = 21
    DatetimeDay,
    /// `TILEDB_DATETIME_HR` = 22
    DatetimeHr,
    /// `TILEDB_DATETIME_MIN` = 23
    DatetimeMin,
    /// `TILEDB_DATETIME_SEC` = 24
    DatetimeSec,
    /// `TILEDB_DATETIME_MS` = 25
    DatetimeMs,
    /// `TILEDB_DATETIME_US` = 26
    DatetimeUs,
    /// `TILEDB_DATETIME_NS` = 27
    DatetimeNs,
    /// `TILEDB_DATETIME_PS` = 28
    DatetimePs,
    /// `TILEDB_DATETIME_FS` = 29
    DatetimeFs,
    /// `TILEDB_DATETIME_AS` = 30
    DatetimeAs,
    /// `TILEDB_TIME_HR` = 31
    TimeHr,
    /// `TILEDB_TIME_MIN` = 32
    TimeMin,
    /// `TILEDB_TIME_SEC` = 33
    TimeSec,
    /// `TILEDB_TIME_MS` = 34
    TimeMs,
    /// `TILEDB_TIME_US` = 35
    TimeUs,
    /// `TILEDB_TIME_NS` = 36
    TimeNs,
    /// `TILEDB_TIME_PS` = 37
    TimePs,
    /// `TILEDB_TIME_FS` = 38
    TimeFs,
    /// `TILEDB_TIME_AS` = 39
    TimeAs,
    /// `TILEDB_BLOB` = 40
    Blob,
    /// `TILEDB_BOOL` = 41
    Bool,
    /// `TILEDB_GEOM_WKB` = 42
    GeomWkb,
    /// `TILEDB_GEOM_WKT` = 43
    GeomWkt,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl Datatype {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::Int32,
        Self::Int64,
        Self::Float32,
        Self::Float64,
        Self::Char,
        Self::Int8,
        Self::Uint8,
        Self::Int16,
        Self::Uint16,
        Self::Uint32,
        Self::Uint64,
        Self::StringAscii,
        Self::StringUtf8,
        Self::StringUtf16,
        Self::StringUtf32,
        Self::StringUcs2,
        Self::StringUcs4,
        Self::Any,
        Self::DatetimeYear,
        Self::DatetimeMonth,
        Self::DatetimeWeek,
        Self::DatetimeDay,
        Self::DatetimeHr,
        Self::DatetimeMin,
        Self::DatetimeSec,
        Self::DatetimeMs,
        Self::DatetimeUs,
        Self::DatetimeNs,
        Self::DatetimePs,
        Self::DatetimeFs,
        Self::DatetimeAs,
        Self::TimeHr,
        Self::TimeMin,
        Self::TimeSec,
        Self::TimeMs,
        Self::TimeUs,
        Self::TimeNs,
        Self::TimePs,
        Self::TimeFs,
        Self::TimeAs,
        Self::Blob,
        Self::Bool,
        Self::GeomWkb,
        Self::GeomWkt,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Int32),
            1 => Some(Self::Int64),
            2 => Some(Self::Float32),
            3 => Some(Self::Float64),
            4 => Some(Self::Char),
            5 => Some(Self::Int8),
            6 => Some(Self::Uint8),
            7 => Some(Self::Int16),
            8 => Some(Self::Uint16),
            9 => Some(Self::Uint32),
            10 => Some(Self::Uint64),
            11 => Some(Self::StringAscii),
            12 => Some(Self::StringUtf8),
            13 => Some(Self::StringUtf16),
            14 => Some(Self::StringUtf32),
            15 => Some(Self::StringUcs2),
            16 => Some(Self::StringUcs4),
            17 => Some(Self::Any),
            18 => Some(Self::DatetimeYear),
            19 => Some(Self::DatetimeMonth),
            20 => Some(Self::DatetimeWeek),
            21 => Some(Self::DatetimeDay),
            22 => Some(Self::DatetimeHr),
            23 => Some(Self::DatetimeMin),
            24 => Some(Self::DatetimeSec),
            25 => Some(Self::DatetimeMs),
            26 => Some(Self::DatetimeUs),
            27 => Some(Self::DatetimeNs),
            28 => Some(Self::DatetimePs),
            29 => Some(Self::DatetimeFs),
            30 => Some(Self::DatetimeAs),
            31 => Some(Self::TimeHr),
            32 => Some(Self::TimeMin),
            33 => Some(Self::TimeSec),
            34 => Some(Self::TimeMs),
            35 => Some(Self::TimeUs),
            36 => Some(Self::TimeNs),
            37 => Some(Self::TimePs),
            38 => Some(Self::TimeFs),
            39 => Some(Self::TimeAs),
            40 => Some(Self::Blob),
            41 => Some(Self::Bool),
            42 => Some(Self::GeomWkb),
            43 => Some(Self::GeomWkt),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::Int32 => 0,
            Self::Int64 => 1,
            Self::Float32 => 2,
            Self::Float64 => 3,
            Self::Char => 4,
            Self::Int8 => 5,
            Self::Uint8 => 6,
            Self::Int16 => 7,
            Self::Uint16 => 8,
            Self::Uint32 => 9,
            Self::Uint64 => 10,
            Self::StringAscii => 11,
            Self::StringUtf8 => 12,
            Self::StringUtf16 => 13,
            Self::StringUtf32 => 14,
            Self::StringUcs2 => 15,
            Self::StringUcs4 => 16,
            Self::Any => 17,
            Self::DatetimeYear => 18,
            Self::DatetimeMonth => 19,
            Self::DatetimeWeek => 20,
            Self::DatetimeDay => 21,
            Self::DatetimeHr => 22,
            Self::DatetimeMin => 23,
            Self::DatetimeSec => 24,
            Self::DatetimeMs => 25,
            Self::DatetimeUs => 26,
            Self::DatetimeNs => 27,
            Self::DatetimePs => 28,
            Self::DatetimeFs => 29,
            Self::DatetimeAs => 30,
            Self::TimeHr => 31,
            Self::TimeMin => 32,
            Self::TimeSec => 33,
            Self::TimeMs => 34,
            Self::TimeUs => 35,
            Self::TimeNs => 36,
            Self::TimePs => 37,
            Self::TimeFs => 38,
            Self::TimeAs => 39,
            Self::Blob => 40,
            Self::Bool => 41,
            Self::GeomWkb => 42,
            Self::GeomWkt => 43,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Int32 => "INT32",
            Self::Int64 => "INT64",
            Self::Float32 => "FLOAT32",
            Self::Float64 => "FLOAT64",
            Self::Char => "CHAR",
            Self::Int8 => "INT8",
            Self::Uint8 => "UINT8",
            Self::Int16 => "INT16",
            Self::Uint16 => "UINT16",
            Self::Uint32 => "UINT32",
            Self::Uint64 => "UINT64",
            Self::StringAscii => "STRING_ASCII",
            Self::StringUtf8 => "STRING_UTF8",
            Self::StringUtf16 => "STRING_UTF16",
            Self::StringUtf32 => "STRING_UTF32",
            Self::StringUcs2 => "STRING_UCS2",
            Self::StringUcs4 => "STRING_UCS4",
            Self::Any => "ANY",
            Self::DatetimeYear => "DATETIME_YEAR",
            Self::DatetimeMonth => "DATETIME_MONTH",
            Self::DatetimeWeek => "DATETIME_WEEK",
            Self::DatetimeDay => "DATETIME_DAY",
            Self::DatetimeHr => "DATETIME_HR",
            Self::DatetimeMin => "DATETIME_MIN",
            Self::DatetimeSec => "DATETIME_SEC",
            Self::DatetimeMs => "DATETIME_MS",
            Self::DatetimeUs => "DATETIME_US",
            Self::DatetimeNs => "DATETIME_NS",
            Self::DatetimePs => "DATETIME_PS",
            Self::DatetimeFs => "DATETIME_FS",
            Self::DatetimeAs => "DATETIME_AS",
            Self::TimeHr => "TIME_HR",
            Self::TimeMin => "TIME_MIN",
            Self::TimeSec => "TIME_SEC",
            Self::TimeMs => "TIME_MS",
            Self::TimeUs => "TIME_US",
            Self::TimeNs => "TIME_NS",
            Self::TimePs => "TIME_PS",
            Self::TimeFs => "TIME_FS",
            Self::TimeAs => "TIME_AS",
            Self::Blob => "BLOB",
            Self::Bool => "BOOL",
            Self::GeomWkb => "GEOM_WKB",
            Self::GeomWkt => "GEOM_WKT",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
    /// Size in bytes of one value.
    pub fn size(self) -> u64 {
        match self {
            Self::Int32 => 4,
            Self::Int64 => 8,
            Self::Float32 => 4,
            Self::Float64 => 8,
            Self::Char => 1,
            Self::Int8 => 1,
            Self::Uint8 => 1,
            Self::Int16 => 2,
            Self::Uint16 => 2,
            Self::Uint32 => 4,
            Self::Uint64 => 8,
            Self::StringAscii => 1,
            Self::StringUtf8 => 1,
            Self::StringUtf16 => 2,
            Self::StringUtf32 => 4,
            Self::StringUcs2 => 2,
            Self::StringUcs4 => 4,
            Self::Any => 1,
            Self::DatetimeYear => 8,
            Self::DatetimeMonth => 8,
            Self::DatetimeWeek => 8,
            Self::DatetimeDay => 8,
            Self::DatetimeHr => 8,
            Self::DatetimeMin => 8,
            Self::DatetimeSec => 8,
            Self::DatetimeMs => 8,
            Self::DatetimeUs => 8,
            Self::DatetimeNs => 8,
            Self::DatetimePs => 8,
            Self::DatetimeFs => 8,
            Self::DatetimeAs => 8,
            Self::TimeHr => 8,
            Self::TimeMin => 8,
            Self::TimeSec => 8,
            Self::TimeMs => 8,
            Self::TimeUs => 8,
            Self::TimeNs => 8,
            Self::TimePs => 8,
            Self::TimeFs => 8,
            Self::TimeAs => 8,
            Self::Blob => 1,
            Self::Bool => 1,
            Self::GeomWkb => 1,
            Self::GeomWkt => 1,
            Self::Unknown(_) => 0,
        }
    }
}
impl Datatype {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for Datatype {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for Datatype {}
impl core::hash::Hash for Datatype {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for Datatype {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Datatype {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for Datatype {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for Datatype {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for Datatype {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for Datatype {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for Datatype {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// What kind of values a [`Datatype`] holds (the `class` column of
/// `spec/datatypes.toml`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DatatypeClass {
    /// A signed integer.
    Signed,
    /// An unsigned integer.
    Unsigned,
    /// A floating-point number.
    Float,
    /// A date and time: an `i64` count of `time_unit()`s since 1970-01-01.
    Datetime,
    /// A time of day: an `i64` count of `time_unit()`s since midnight.
    Time,
    /// Text (CHAR and the STRING_* types), one code unit per value.
    String,
    /// Opaque bytes (BLOB and the geometries).
    Bytes,
    /// A boolean, one byte.
    Bool,
    /// Bytes of any type (ANY).
    Any,
    /// A code the spec does not list (`Datatype::Unknown`): its values
    /// are shown as bytes and nothing computes with them.
    Unknown,
}
/// Runs `$body` with `$t` the native type of datatype `$dt` (see
/// [`Datatype::native_name`]): the body is expanded once per native type
/// (`i8` .. `u64`, `f32`, `f64`), so generic code is written once.
///
/// `with_native!(int dt, T => body, _ => other)` expands `body` for the
/// integer native types only (BOOL, text, bytes, dates and times
/// included) and gives `other` for FLOAT32 and FLOAT64.
///
/// ```ignore
/// let max = with_native!(int dt, T => Some(T::MAX as i128), _ => None);
/// ```
#[macro_export]
macro_rules! with_native {
    ($dt:expr, $t:ident => $body:expr) => {
        match $dt {
            $crate::Datatype::Int8 => {
                #[allow(dead_code)]
                type $t = i8;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Char
            | $crate::Datatype::Uint8
            | $crate::Datatype::StringAscii
            | $crate::Datatype::StringUtf8
            | $crate::Datatype::Any
            | $crate::Datatype::Blob
            | $crate::Datatype::Bool
            | $crate::Datatype::GeomWkb
            | $crate::Datatype::GeomWkt => {
                #[allow(dead_code)]
                type $t = u8;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Int16 => {
                #[allow(dead_code)]
                type $t = i16;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Uint16
            | $crate::Datatype::StringUtf16
            | $crate::Datatype::StringUcs2 => {
                #[allow(dead_code)]
                type $t = u16;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Int32 => {
                #[allow(dead_code)]
                type $t = i32;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Uint32
            | $crate::Datatype::StringUtf32
            | $crate::Datatype::StringUcs4 => {
                #[allow(dead_code)]
                type $t = u32;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Int64
            | $crate::Datatype::DatetimeYear
            | $crate::Datatype::DatetimeMonth
            | $crate::Datatype::DatetimeWeek
            | $crate::Datatype::DatetimeDay
            | $crate::Datatype::DatetimeHr
            | $crate::Datatype::DatetimeMin
            | $crate::Datatype::DatetimeSec
            | $crate::Datatype::DatetimeMs
            | $crate::Datatype::DatetimeUs
            | $crate::Datatype::DatetimeNs
            | $crate::Datatype::DatetimePs
            | $crate::Datatype::DatetimeFs
            | $crate::Datatype::DatetimeAs
            | $crate::Datatype::TimeHr
            | $crate::Datatype::TimeMin
            | $crate::Datatype::TimeSec
            | $crate::Datatype::TimeMs
            | $crate::Datatype::TimeUs
            | $crate::Datatype::TimeNs
            | $crate::Datatype::TimePs
            | $crate::Datatype::TimeFs
            | $crate::Datatype::TimeAs => {
                #[allow(dead_code)]
                type $t = i64;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Uint64 => {
                #[allow(dead_code)]
                type $t = u64;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Float32 => {
                #[allow(dead_code)]
                type $t = f32;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Float64 => {
                #[allow(dead_code)]
                type $t = f64;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            _ => {
                #[allow(dead_code)]
                type $t = u8;
                let value = $body;
                value
            }
        }
    };
    (int $dt:expr, $t:ident => $body:expr, _ => $other:expr) => {
        match $dt {
            $crate::Datatype::Int8 => {
                #[allow(dead_code)]
                type $t = i8;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Char
            | $crate::Datatype::Uint8
            | $crate::Datatype::StringAscii
            | $crate::Datatype::StringUtf8
            | $crate::Datatype::Any
            | $crate::Datatype::Blob
            | $crate::Datatype::Bool
            | $crate::Datatype::GeomWkb
            | $crate::Datatype::GeomWkt => {
                #[allow(dead_code)]
                type $t = u8;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Int16 => {
                #[allow(dead_code)]
                type $t = i16;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Uint16
            | $crate::Datatype::StringUtf16
            | $crate::Datatype::StringUcs2 => {
                #[allow(dead_code)]
                type $t = u16;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Int32 => {
                #[allow(dead_code)]
                type $t = i32;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Uint32
            | $crate::Datatype::StringUtf32
            | $crate::Datatype::StringUcs4 => {
                #[allow(dead_code)]
                type $t = u32;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Int64
            | $crate::Datatype::DatetimeYear
            | $crate::Datatype::DatetimeMonth
            | $crate::Datatype::DatetimeWeek
            | $crate::Datatype::DatetimeDay
            | $crate::Datatype::DatetimeHr
            | $crate::Datatype::DatetimeMin
            | $crate::Datatype::DatetimeSec
            | $crate::Datatype::DatetimeMs
            | $crate::Datatype::DatetimeUs
            | $crate::Datatype::DatetimeNs
            | $crate::Datatype::DatetimePs
            | $crate::Datatype::DatetimeFs
            | $crate::Datatype::DatetimeAs
            | $crate::Datatype::TimeHr
            | $crate::Datatype::TimeMin
            | $crate::Datatype::TimeSec
            | $crate::Datatype::TimeMs
            | $crate::Datatype::TimeUs
            | $crate::Datatype::TimeNs
            | $crate::Datatype::TimePs
            | $crate::Datatype::TimeFs
            | $crate::Datatype::TimeAs => {
                #[allow(dead_code)]
                type $t = i64;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            $crate::Datatype::Uint64 => {
                #[allow(dead_code)]
                type $t = u64;
                // A cast or conversion the body needs for one type is a no-op for another.
                #[allow(clippy::unnecessary_cast, clippy::useless_conversion)]
                let value = $body;
                value
            }
            _ => $other,
        }
    };
}
impl Datatype {
    /// What kind of values the datatype holds.
    pub const fn class(self) -> DatatypeClass {
        match self {
            Self::Int32 => DatatypeClass::Signed,
            Self::Int64 => DatatypeClass::Signed,
            Self::Float32 => DatatypeClass::Float,
            Self::Float64 => DatatypeClass::Float,
            Self::Char => DatatypeClass::String,
            Self::Int8 => DatatypeClass::Signed,
            Self::Uint8 => DatatypeClass::Unsigned,
            Self::Int16 => DatatypeClass::Signed,
            Self::Uint16 => DatatypeClass::Unsigned,
            Self::Uint32 => DatatypeClass::Unsigned,
            Self::Uint64 => DatatypeClass::Unsigned,
            Self::StringAscii => DatatypeClass::String,
            Self::StringUtf8 => DatatypeClass::String,
            Self::StringUtf16 => DatatypeClass::String,
            Self::StringUtf32 => DatatypeClass::String,
            Self::StringUcs2 => DatatypeClass::String,
            Self::StringUcs4 => DatatypeClass::String,
            Self::Any => DatatypeClass::Any,
            Self::DatetimeYear => DatatypeClass::Datetime,
            Self::DatetimeMonth => DatatypeClass::Datetime,
            Self::DatetimeWeek => DatatypeClass::Datetime,
            Self::DatetimeDay => DatatypeClass::Datetime,
            Self::DatetimeHr => DatatypeClass::Datetime,
            Self::DatetimeMin => DatatypeClass::Datetime,
            Self::DatetimeSec => DatatypeClass::Datetime,
            Self::DatetimeMs => DatatypeClass::Datetime,
            Self::DatetimeUs => DatatypeClass::Datetime,
            Self::DatetimeNs => DatatypeClass::Datetime,
            Self::DatetimePs => DatatypeClass::Datetime,
            Self::DatetimeFs => DatatypeClass::Datetime,
            Self::DatetimeAs => DatatypeClass::Datetime,
            Self::TimeHr => DatatypeClass::Time,
            Self::TimeMin => DatatypeClass::Time,
            Self::TimeSec => DatatypeClass::Time,
            Self::TimeMs => DatatypeClass::Time,
            Self::TimeUs => DatatypeClass::Time,
            Self::TimeNs => DatatypeClass::Time,
            Self::TimePs => DatatypeClass::Time,
            Self::TimeFs => DatatypeClass::Time,
            Self::TimeAs => DatatypeClass::Time,
            Self::Blob => DatatypeClass::Bytes,
            Self::Bool => DatatypeClass::Bool,
            Self::GeomWkb => DatatypeClass::Bytes,
            Self::GeomWkt => DatatypeClass::Bytes,
            Self::Unknown(_) => DatatypeClass::Unknown,
        }
    }
    /// The unit of a date or time type, as NumPy (and TileDB-Py) spell it:
    /// `Y`, `M`, `W`, `D`, `h`, `m`, `s`, `ms`, `us`, `ns`, `ps`, `fs`, `as`.
    pub const fn time_unit(self) -> Option<&'static str> {
        match self {
            Self::Int32 => None,
            Self::Int64 => None,
            Self::Float32 => None,
            Self::Float64 => None,
            Self::Char => None,
            Self::Int8 => None,
            Self::Uint8 => None,
            Self::Int16 => None,
            Self::Uint16 => None,
            Self::Uint32 => None,
            Self::Uint64 => None,
            Self::StringAscii => None,
            Self::StringUtf8 => None,
            Self::StringUtf16 => None,
            Self::StringUtf32 => None,
            Self::StringUcs2 => None,
            Self::StringUcs4 => None,
            Self::Any => None,
            Self::DatetimeYear => Some("Y"),
            Self::DatetimeMonth => Some("M"),
            Self::DatetimeWeek => Some("W"),
            Self::DatetimeDay => Some("D"),
            Self::DatetimeHr => Some("h"),
            Self::DatetimeMin => Some("m"),
            Self::DatetimeSec => Some("s"),
            Self::DatetimeMs => Some("ms"),
            Self::DatetimeUs => Some("us"),
            Self::DatetimeNs => Some("ns"),
            Self::DatetimePs => Some("ps"),
            Self::DatetimeFs => Some("fs"),
            Self::DatetimeAs => Some("as"),
            Self::TimeHr => Some("h"),
            Self::TimeMin => Some("m"),
            Self::TimeSec => Some("s"),
            Self::TimeMs => Some("ms"),
            Self::TimeUs => Some("us"),
            Self::TimeNs => Some("ns"),
            Self::TimePs => Some("ps"),
            Self::TimeFs => Some("fs"),
            Self::TimeAs => Some("as"),
            Self::Blob => None,
            Self::Bool => None,
            Self::GeomWkb => None,
            Self::GeomWkt => None,
            Self::Unknown(_) => None,
        }
    }
    /// The Rust type one value is read as (`with_native!` dispatches on it):
    /// text and bytes by their code unit, BOOL as `u8`, dates and times as `i64`.
    pub const fn native_name(self) -> &'static str {
        match self {
            Self::Int32 => "i32",
            Self::Int64 => "i64",
            Self::Float32 => "f32",
            Self::Float64 => "f64",
            Self::Char => "u8",
            Self::Int8 => "i8",
            Self::Uint8 => "u8",
            Self::Int16 => "i16",
            Self::Uint16 => "u16",
            Self::Uint32 => "u32",
            Self::Uint64 => "u64",
            Self::StringAscii => "u8",
            Self::StringUtf8 => "u8",
            Self::StringUtf16 => "u16",
            Self::StringUtf32 => "u32",
            Self::StringUcs2 => "u16",
            Self::StringUcs4 => "u32",
            Self::Any => "u8",
            Self::DatetimeYear => "i64",
            Self::DatetimeMonth => "i64",
            Self::DatetimeWeek => "i64",
            Self::DatetimeDay => "i64",
            Self::DatetimeHr => "i64",
            Self::DatetimeMin => "i64",
            Self::DatetimeSec => "i64",
            Self::DatetimeMs => "i64",
            Self::DatetimeUs => "i64",
            Self::DatetimeNs => "i64",
            Self::DatetimePs => "i64",
            Self::DatetimeFs => "i64",
            Self::DatetimeAs => "i64",
            Self::TimeHr => "i64",
            Self::TimeMin => "i64",
            Self::TimeSec => "i64",
            Self::TimeMs => "i64",
            Self::TimeUs => "i64",
            Self::TimeNs => "i64",
            Self::TimePs => "i64",
            Self::TimeFs => "i64",
            Self::TimeAs => "i64",
            Self::Blob => "u8",
            Self::Bool => "u8",
            Self::GeomWkb => "u8",
            Self::GeomWkt => "u8",
            Self::Unknown(_) => "u8",
        }
    }
    /// Whether the native type is signed (`i8` .. `i64`, `f32`, `f64`): the
    /// signed integers, dates, times and floats.
    pub const fn native_signed(self) -> bool {
        match self {
            Self::Int32 => true,
            Self::Int64 => true,
            Self::Float32 => true,
            Self::Float64 => true,
            Self::Char => false,
            Self::Int8 => true,
            Self::Uint8 => false,
            Self::Int16 => true,
            Self::Uint16 => false,
            Self::Uint32 => false,
            Self::Uint64 => false,
            Self::StringAscii => false,
            Self::StringUtf8 => false,
            Self::StringUtf16 => false,
            Self::StringUtf32 => false,
            Self::StringUcs2 => false,
            Self::StringUcs4 => false,
            Self::Any => false,
            Self::DatetimeYear => true,
            Self::DatetimeMonth => true,
            Self::DatetimeWeek => true,
            Self::DatetimeDay => true,
            Self::DatetimeHr => true,
            Self::DatetimeMin => true,
            Self::DatetimeSec => true,
            Self::DatetimeMs => true,
            Self::DatetimeUs => true,
            Self::DatetimeNs => true,
            Self::DatetimePs => true,
            Self::DatetimeFs => true,
            Self::DatetimeAs => true,
            Self::TimeHr => true,
            Self::TimeMin => true,
            Self::TimeSec => true,
            Self::TimeMs => true,
            Self::TimeUs => true,
            Self::TimeNs => true,
            Self::TimePs => true,
            Self::TimeFs => true,
            Self::TimeAs => true,
            Self::Blob => false,
            Self::Bool => false,
            Self::GeomWkb => false,
            Self::GeomWkt => false,
            Self::Unknown(_) => false,
        }
    }
    /// The engine's default fill value of one value, little-endian
    /// (tiledb/sm/misc/constants.cc `fill_value`): the smallest signed and the
    /// largest unsigned integer, NaN, `i8::MIN` for CHAR, zero for text,
    /// bytes and BOOL, `i64::MIN` for dates and times.
    pub const fn default_fill(self) -> &'static [u8] {
        match self {
            Self::Int32 => const { &i32::MIN.to_le_bytes() }
            Self::Int64 => const { &i64::MIN.to_le_bytes() }
            Self::Float32 => const { &f32::NAN.to_le_bytes() }
            Self::Float64 => const { &f64::NAN.to_le_bytes() }
            Self::Char => const { &i8::MIN.to_le_bytes() }
            Self::Int8 => const { &i8::MIN.to_le_bytes() }
            Self::Uint8 => const { &u8::MAX.to_le_bytes() }
            Self::Int16 => const { &i16::MIN.to_le_bytes() }
            Self::Uint16 => const { &u16::MAX.to_le_bytes() }
            Self::Uint32 => const { &u32::MAX.to_le_bytes() }
            Self::Uint64 => const { &u64::MAX.to_le_bytes() }
            Self::StringAscii => const { &0u8.to_le_bytes() }
            Self::StringUtf8 => const { &0u8.to_le_bytes() }
            Self::StringUtf16 => const { &0u16.to_le_bytes() }
            Self::StringUtf32 => const { &0u32.to_le_bytes() }
            Self::StringUcs2 => const { &0u16.to_le_bytes() }
            Self::StringUcs4 => const { &0u32.to_le_bytes() }
            Self::Any => const { &0u8.to_le_bytes() }
            Self::DatetimeYear => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeMonth => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeWeek => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeDay => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeHr => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeMin => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeSec => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeMs => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeUs => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeNs => const { &i64::MIN.to_le_bytes() }
            Self::DatetimePs => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeFs => const { &i64::MIN.to_le_bytes() }
            Self::DatetimeAs => const { &i64::MIN.to_le_bytes() }
            Self::TimeHr => const { &i64::MIN.to_le_bytes() }
            Self::TimeMin => const { &i64::MIN.to_le_bytes() }
            Self::TimeSec => const { &i64::MIN.to_le_bytes() }
            Self::TimeMs => const { &i64::MIN.to_le_bytes() }
            Self::TimeUs => const { &i64::MIN.to_le_bytes() }
            Self::TimeNs => const { &i64::MIN.to_le_bytes() }
            Self::TimePs => const { &i64::MIN.to_le_bytes() }
            Self::TimeFs => const { &i64::MIN.to_le_bytes() }
            Self::TimeAs => const { &i64::MIN.to_le_bytes() }
            Self::Blob => const { &0u8.to_le_bytes() }
            Self::Bool => const { &0u8.to_le_bytes() }
            Self::GeomWkb => const { &0u8.to_le_bytes() }
            Self::GeomWkt => const { &0u8.to_le_bytes() }
            Self::Unknown(_) => &[],
        }
    }
    /// The Arrow type of one value (of a cell of one value, and the items of
    /// lists); the byte-string types give `UInt8`.
    #[cfg(feature = "arrow")]
    pub fn arrow_type(self) -> ::arrow_schema::DataType {
        match self {
            Self::Int32 => ::arrow_schema::DataType::Int32,
            Self::Int64 => ::arrow_schema::DataType::Int64,
            Self::Float32 => ::arrow_schema::DataType::Float32,
            Self::Float64 => ::arrow_schema::DataType::Float64,
            Self::Char => ::arrow_schema::DataType::UInt8,
            Self::Int8 => ::arrow_schema::DataType::Int8,
            Self::Uint8 => ::arrow_schema::DataType::UInt8,
            Self::Int16 => ::arrow_schema::DataType::Int16,
            Self::Uint16 => ::arrow_schema::DataType::UInt16,
            Self::Uint32 => ::arrow_schema::DataType::UInt32,
            Self::Uint64 => ::arrow_schema::DataType::UInt64,
            Self::StringAscii => ::arrow_schema::DataType::UInt8,
            Self::StringUtf8 => ::arrow_schema::DataType::UInt8,
            Self::StringUtf16 => ::arrow_schema::DataType::UInt8,
            Self::StringUtf32 => ::arrow_schema::DataType::UInt8,
            Self::StringUcs2 => ::arrow_schema::DataType::UInt8,
            Self::StringUcs4 => ::arrow_schema::DataType::UInt8,
            Self::Any => ::arrow_schema::DataType::UInt8,
            Self::DatetimeYear => ::arrow_schema::DataType::Int64,
            Self::DatetimeMonth => ::arrow_schema::DataType::Int64,
            Self::DatetimeWeek => ::arrow_schema::DataType::Int64,
            Self::DatetimeDay => ::arrow_schema::DataType::Date32,
            Self::DatetimeHr => ::arrow_schema::DataType::Int64,
            Self::DatetimeMin => ::arrow_schema::DataType::Int64,
            Self::DatetimeSec => {
                ::arrow_schema::DataType::Timestamp(
                    ::arrow_schema::TimeUnit::Second,
                    None,
                )
            }
            Self::DatetimeMs => {
                ::arrow_schema::DataType::Timestamp(
                    ::arrow_schema::TimeUnit::Millisecond,
                    None,
                )
            }
            Self::DatetimeUs => {
                ::arrow_schema::DataType::Timestamp(
                    ::arrow_schema::TimeUnit::Microsecond,
                    None,
                )
            }
            Self::DatetimeNs => {
                ::arrow_schema::DataType::Timestamp(
                    ::arrow_schema::TimeUnit::Nanosecond,
                    None,
                )
            }
            Self::DatetimePs => ::arrow_schema::DataType::Int64,
            Self::DatetimeFs => ::arrow_schema::DataType::Int64,
            Self::DatetimeAs => ::arrow_schema::DataType::Int64,
            Self::TimeHr => ::arrow_schema::DataType::Int64,
            Self::TimeMin => ::arrow_schema::DataType::Int64,
            Self::TimeSec => {
                ::arrow_schema::DataType::Duration(::arrow_schema::TimeUnit::Second)
            }
            Self::TimeMs => {
                ::arrow_schema::DataType::Duration(::arrow_schema::TimeUnit::Millisecond)
            }
            Self::TimeUs => {
                ::arrow_schema::DataType::Duration(::arrow_schema::TimeUnit::Microsecond)
            }
            Self::TimeNs => {
                ::arrow_schema::DataType::Duration(::arrow_schema::TimeUnit::Nanosecond)
            }
            Self::TimePs => ::arrow_schema::DataType::Int64,
            Self::TimeFs => ::arrow_schema::DataType::Int64,
            Self::TimeAs => ::arrow_schema::DataType::Int64,
            Self::Blob => ::arrow_schema::DataType::UInt8,
            Self::Bool => ::arrow_schema::DataType::Boolean,
            Self::GeomWkb => ::arrow_schema::DataType::UInt8,
            Self::GeomWkt => ::arrow_schema::DataType::UInt8,
            Self::Unknown(_) => ::arrow_schema::DataType::Binary,
        }
    }
    /// An integer as the engine's `datatype_is_integer` counts them: the
    /// signed and unsigned ones and BOOL.
    pub const fn is_integer(self) -> bool {
        matches!(
            self.class(), DatatypeClass::Signed | DatatypeClass::Unsigned |
            DatatypeClass::Bool
        )
    }
    /// A signed integer (INT8 to INT64; dates and times are not counted).
    pub const fn is_signed(self) -> bool {
        matches!(self.class(), DatatypeClass::Signed)
    }
    /// FLOAT32 or FLOAT64.
    pub const fn is_float(self) -> bool {
        matches!(self.class(), DatatypeClass::Float)
    }
    /// Text: CHAR and the STRING_* types (the engine's `datatype_is_string`
    /// leaves CHAR out).
    pub const fn is_string(self) -> bool {
        matches!(self.class(), DatatypeClass::String)
    }
    /// A DATETIME_* or TIME_* type.
    pub const fn is_time(self) -> bool {
        matches!(self.class(), DatatypeClass::Datetime | DatatypeClass::Time)
    }
    /// Opaque bytes: BLOB, the geometries and ANY.
    pub const fn is_opaque(self) -> bool {
        matches!(
            self.class(), DatatypeClass::Bytes | DatatypeClass::Any |
            DatatypeClass::Unknown
        )
    }
    /// The engine's name of the datatype (`datatype_str`), which the JSON and
    /// the command line print: the spec's name.
    pub fn engine_name(self) -> &'static str {
        self.name()
    }
    /// The smallest and largest value of the native type (`(0, 1)` for
    /// BOOL); `None` for the floating-point types.
    pub const fn int_limits(self) -> Option<(i128, i128)> {
        if matches!(self.class(), DatatypeClass::Bool) {
            return Some((0, 1));
        }
        with_native!(int self, T => Some((T::MIN as i128, T::MAX as i128)), _ => None)
    }
}
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum ArrayType {
    /// `TILEDB_DENSE` = 0
    Dense = 0,
    /// `TILEDB_SPARSE` = 1
    Sparse = 1,
}
impl ArrayType {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::Dense, Self::Sparse];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Dense),
            1 => Some(Self::Sparse),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        self as u8
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Dense => "DENSE",
            Self::Sparse => "SPARSE",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
/// An absent field reads as code 0.
impl Default for ArrayType {
    fn default() -> Self {
        Self::Dense
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for ArrayType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for ArrayType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for ArrayType {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Self::from_value(value)
            .ok_or_else(|| binrw::Error::Custom {
                pos,
                err: Box::new(UnknownCode {
                    table: "ArrayType",
                    value: i128::from(value),
                }),
            })
    }
}
impl binrw::BinWrite for ArrayType {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Cell and tile orders.
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum Layout {
    /// `TILEDB_ROW_MAJOR` = 0
    RowMajor = 0,
    /// `TILEDB_COL_MAJOR` = 1
    ColMajor = 1,
    /// `TILEDB_GLOBAL_ORDER` = 2
    GlobalOrder = 2,
    /// `TILEDB_UNORDERED` = 3
    Unordered = 3,
    /// `TILEDB_HILBERT` = 4
    Hilbert = 4,
}
impl Layout {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::RowMajor,
        Self::ColMajor,
        Self::GlobalOrder,
        Self::Unordered,
        Self::Hilbert,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::RowMajor),
            1 => Some(Self::ColMajor),
            2 => Some(Self::GlobalOrder),
            3 => Some(Self::Unordered),
            4 => Some(Self::Hilbert),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        self as u8
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::RowMajor => "ROW_MAJOR",
            Self::ColMajor => "COL_MAJOR",
            Self::GlobalOrder => "GLOBAL_ORDER",
            Self::Unordered => "UNORDERED",
            Self::Hilbert => "HILBERT",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
/// An absent field reads as code 0.
impl Default for Layout {
    fn default() -> Self {
        Self::RowMajor
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for Layout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for Layout {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for Layout {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Self::from_value(value)
            .ok_or_else(|| binrw::Error::Custom {
                pos,
                err: Box::new(UnknownCode {
                    table: "Layout",
                    value: i128::from(value),
                }),
            })
    }
}
impl binrw::BinWrite for Layout {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Filter types of a filter pipeline (format_spec/filter_pipeline.md#filter).
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum FilterType {
    /// `TILEDB_FILTER_NONE` = 0
    None,
    /// `TILEDB_FILTER_GZIP` = 1
    Gzip,
    /// `TILEDB_FILTER_ZSTD` = 2
    Zstd,
    /// `TILEDB_FILTER_LZ4` = 3
    Lz4,
    /// `TILEDB_FILTER_RLE` = 4
    Rle,
    /// `TILEDB_FILTER_BZIP2` = 5
    Bzip2,
    /// `TILEDB_FILTER_DOUBLE_DELTA` = 6
    DoubleDelta,
    /// `TILEDB_FILTER_BIT_WIDTH_REDUCTION` = 7
    BitWidthReduction,
    /// `TILEDB_FILTER_BITSHUFFLE` = 8
    Bitshuffle,
    /// `TILEDB_FILTER_BYTESHUFFLE` = 9
    Byteshuffle,
    /// `TILEDB_FILTER_POSITIVE_DELTA` = 10
    PositiveDelta,
    /// `TILEDB_FILTER_AES_256_GCM` = 11: Internal encryption filter; never serialized in a pipeline.
    Aes256Gcm,
    /// `TILEDB_FILTER_CHECKSUM_MD5` = 12
    ChecksumMd5,
    /// `TILEDB_FILTER_CHECKSUM_SHA256` = 13
    ChecksumSha256,
    /// `TILEDB_FILTER_DICTIONARY` = 14
    Dictionary,
    /// `TILEDB_FILTER_SCALE_FLOAT` = 15
    ScaleFloat,
    /// `TILEDB_FILTER_XOR` = 16
    Xor,
    /// `TILEDB_FILTER_DEPRECATED` = 17: Reserved by the engine; the spec's WEBP page says 17 but the engine uses 18.
    Deprecated,
    /// `TILEDB_FILTER_WEBP` = 18
    Webp,
    /// `TILEDB_FILTER_DELTA` = 19
    Delta,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl FilterType {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::None,
        Self::Gzip,
        Self::Zstd,
        Self::Lz4,
        Self::Rle,
        Self::Bzip2,
        Self::DoubleDelta,
        Self::BitWidthReduction,
        Self::Bitshuffle,
        Self::Byteshuffle,
        Self::PositiveDelta,
        Self::Aes256Gcm,
        Self::ChecksumMd5,
        Self::ChecksumSha256,
        Self::Dictionary,
        Self::ScaleFloat,
        Self::Xor,
        Self::Deprecated,
        Self::Webp,
        Self::Delta,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::None),
            1 => Some(Self::Gzip),
            2 => Some(Self::Zstd),
            3 => Some(Self::Lz4),
            4 => Some(Self::Rle),
            5 => Some(Self::Bzip2),
            6 => Some(Self::DoubleDelta),
            7 => Some(Self::BitWidthReduction),
            8 => Some(Self::Bitshuffle),
            9 => Some(Self::Byteshuffle),
            10 => Some(Self::PositiveDelta),
            11 => Some(Self::Aes256Gcm),
            12 => Some(Self::ChecksumMd5),
            13 => Some(Self::ChecksumSha256),
            14 => Some(Self::Dictionary),
            15 => Some(Self::ScaleFloat),
            16 => Some(Self::Xor),
            17 => Some(Self::Deprecated),
            18 => Some(Self::Webp),
            19 => Some(Self::Delta),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::None => 0,
            Self::Gzip => 1,
            Self::Zstd => 2,
            Self::Lz4 => 3,
            Self::Rle => 4,
            Self::Bzip2 => 5,
            Self::DoubleDelta => 6,
            Self::BitWidthReduction => 7,
            Self::Bitshuffle => 8,
            Self::Byteshuffle => 9,
            Self::PositiveDelta => 10,
            Self::Aes256Gcm => 11,
            Self::ChecksumMd5 => 12,
            Self::ChecksumSha256 => 13,
            Self::Dictionary => 14,
            Self::ScaleFloat => 15,
            Self::Xor => 16,
            Self::Deprecated => 17,
            Self::Webp => 18,
            Self::Delta => 19,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "NONE",
            Self::Gzip => "GZIP",
            Self::Zstd => "ZSTD",
            Self::Lz4 => "LZ4",
            Self::Rle => "RLE",
            Self::Bzip2 => "BZIP2",
            Self::DoubleDelta => "DOUBLE_DELTA",
            Self::BitWidthReduction => "BIT_WIDTH_REDUCTION",
            Self::Bitshuffle => "BITSHUFFLE",
            Self::Byteshuffle => "BYTESHUFFLE",
            Self::PositiveDelta => "POSITIVE_DELTA",
            Self::Aes256Gcm => "AES_256_GCM",
            Self::ChecksumMd5 => "CHECKSUM_MD5",
            Self::ChecksumSha256 => "CHECKSUM_SHA256",
            Self::Dictionary => "DICTIONARY",
            Self::ScaleFloat => "SCALE_FLOAT",
            Self::Xor => "XOR",
            Self::Deprecated => "DEPRECATED",
            Self::Webp => "WEBP",
            Self::Delta => "DELTA",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl FilterType {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for FilterType {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for FilterType {}
impl core::hash::Hash for FilterType {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for FilterType {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for FilterType {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for FilterType {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for FilterType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for FilterType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for FilterType {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for FilterType {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Compressor codes stored in compression filter options (tiledb/sm/enums/compressor.h).
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum Compressor {
    /// `TILEDB_NO_COMPRESSION` = 0
    NoCompression,
    /// `TILEDB_GZIP` = 1
    Gzip,
    /// `TILEDB_ZSTD` = 2
    Zstd,
    /// `TILEDB_LZ4` = 3
    Lz4,
    /// `TILEDB_RLE` = 4
    Rle,
    /// `TILEDB_BZIP2` = 5
    Bzip2,
    /// `TILEDB_DOUBLE_DELTA` = 6
    DoubleDelta,
    /// `TILEDB_DICTIONARY_ENCODING` = 7
    DictionaryEncoding,
    /// `TILEDB_DELTA` = 8
    Delta,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl Compressor {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::NoCompression,
        Self::Gzip,
        Self::Zstd,
        Self::Lz4,
        Self::Rle,
        Self::Bzip2,
        Self::DoubleDelta,
        Self::DictionaryEncoding,
        Self::Delta,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::NoCompression),
            1 => Some(Self::Gzip),
            2 => Some(Self::Zstd),
            3 => Some(Self::Lz4),
            4 => Some(Self::Rle),
            5 => Some(Self::Bzip2),
            6 => Some(Self::DoubleDelta),
            7 => Some(Self::DictionaryEncoding),
            8 => Some(Self::Delta),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::NoCompression => 0,
            Self::Gzip => 1,
            Self::Zstd => 2,
            Self::Lz4 => 3,
            Self::Rle => 4,
            Self::Bzip2 => 5,
            Self::DoubleDelta => 6,
            Self::DictionaryEncoding => 7,
            Self::Delta => 8,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::NoCompression => "NO_COMPRESSION",
            Self::Gzip => "GZIP",
            Self::Zstd => "ZSTD",
            Self::Lz4 => "LZ4",
            Self::Rle => "RLE",
            Self::Bzip2 => "BZIP2",
            Self::DoubleDelta => "DOUBLE_DELTA",
            Self::DictionaryEncoding => "DICTIONARY_ENCODING",
            Self::Delta => "DELTA",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl Compressor {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for Compressor {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for Compressor {}
impl core::hash::Hash for Compressor {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for Compressor {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Compressor {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for Compressor {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for Compressor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for Compressor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for Compressor {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for Compressor {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum EncryptionType {
    /// `TILEDB_NO_ENCRYPTION` = 0
    NoEncryption,
    /// `TILEDB_AES_256_GCM` = 1
    Aes256Gcm,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl EncryptionType {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::NoEncryption, Self::Aes256Gcm];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::NoEncryption),
            1 => Some(Self::Aes256Gcm),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::NoEncryption => 0,
            Self::Aes256Gcm => 1,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::NoEncryption => "NO_ENCRYPTION",
            Self::Aes256Gcm => "AES_256_GCM",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl EncryptionType {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for EncryptionType {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for EncryptionType {}
impl core::hash::Hash for EncryptionType {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for EncryptionType {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for EncryptionType {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for EncryptionType {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for EncryptionType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for EncryptionType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for EncryptionType {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for EncryptionType {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Order of attribute data (attribute Order, new in version 17) and of dimension label data.
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum DataOrder {
    /// `TILEDB_UNORDERED_DATA` = 0
    UnorderedData = 0,
    /// `TILEDB_INCREASING_DATA` = 1
    IncreasingData = 1,
    /// `TILEDB_DECREASING_DATA` = 2
    DecreasingData = 2,
}
impl DataOrder {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::UnorderedData,
        Self::IncreasingData,
        Self::DecreasingData,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::UnorderedData),
            1 => Some(Self::IncreasingData),
            2 => Some(Self::DecreasingData),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        self as u8
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::UnorderedData => "UNORDERED_DATA",
            Self::IncreasingData => "INCREASING_DATA",
            Self::DecreasingData => "DECREASING_DATA",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
/// An absent field reads as code 0.
impl Default for DataOrder {
    fn default() -> Self {
        Self::UnorderedData
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for DataOrder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for DataOrder {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for DataOrder {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Self::from_value(value)
            .ok_or_else(|| binrw::Error::Custom {
                pos,
                err: Box::new(UnknownCode {
                    table: "DataOrder",
                    value: i128::from(value),
                }),
            })
    }
}
impl binrw::BinWrite for DataOrder {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Object type of a group member.
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum ObjectType {
    /// `TILEDB_INVALID` = 0
    Invalid,
    /// `TILEDB_GROUP` = 1
    Group,
    /// `TILEDB_ARRAY` = 2
    Array,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl ObjectType {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::Invalid, Self::Group, Self::Array];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Invalid),
            1 => Some(Self::Group),
            2 => Some(Self::Array),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::Invalid => 0,
            Self::Group => 1,
            Self::Array => 2,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Invalid => "INVALID",
            Self::Group => "GROUP",
            Self::Array => "ARRAY",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl ObjectType {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for ObjectType {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for ObjectType {}
impl core::hash::Hash for ObjectType {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for ObjectType {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ObjectType {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for ObjectType {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for ObjectType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for ObjectType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for ObjectType {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for ObjectType {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Comparison of a value node of a delete or update condition.
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum QueryConditionOp {
    /// `TILEDB_LT` = 0
    Lt,
    /// `TILEDB_LE` = 1
    Le,
    /// `TILEDB_GT` = 2
    Gt,
    /// `TILEDB_GE` = 3
    Ge,
    /// `TILEDB_EQ` = 4
    Eq,
    /// `TILEDB_NE` = 5
    Ne,
    /// `TILEDB_IN` = 6
    In,
    /// `TILEDB_NOT_IN` = 7
    NotIn,
    /// `TILEDB_ALWAYS_TRUE` = 253
    AlwaysTrue,
    /// `TILEDB_ALWAYS_FALSE` = 254
    AlwaysFalse,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl QueryConditionOp {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::Lt,
        Self::Le,
        Self::Gt,
        Self::Ge,
        Self::Eq,
        Self::Ne,
        Self::In,
        Self::NotIn,
        Self::AlwaysTrue,
        Self::AlwaysFalse,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Lt),
            1 => Some(Self::Le),
            2 => Some(Self::Gt),
            3 => Some(Self::Ge),
            4 => Some(Self::Eq),
            5 => Some(Self::Ne),
            6 => Some(Self::In),
            7 => Some(Self::NotIn),
            253 => Some(Self::AlwaysTrue),
            254 => Some(Self::AlwaysFalse),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::Lt => 0,
            Self::Le => 1,
            Self::Gt => 2,
            Self::Ge => 3,
            Self::Eq => 4,
            Self::Ne => 5,
            Self::In => 6,
            Self::NotIn => 7,
            Self::AlwaysTrue => 253,
            Self::AlwaysFalse => 254,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Lt => "LT",
            Self::Le => "LE",
            Self::Gt => "GT",
            Self::Ge => "GE",
            Self::Eq => "EQ",
            Self::Ne => "NE",
            Self::In => "IN",
            Self::NotIn => "NOT_IN",
            Self::AlwaysTrue => "ALWAYS_TRUE",
            Self::AlwaysFalse => "ALWAYS_FALSE",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl QueryConditionOp {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for QueryConditionOp {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for QueryConditionOp {}
impl core::hash::Hash for QueryConditionOp {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for QueryConditionOp {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for QueryConditionOp {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for QueryConditionOp {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for QueryConditionOp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for QueryConditionOp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for QueryConditionOp {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for QueryConditionOp {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum QueryConditionCombinationOp {
    /// `TILEDB_AND` = 0
    And,
    /// `TILEDB_OR` = 1
    Or,
    /// `TILEDB_NOT` = 2
    Not,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl QueryConditionCombinationOp {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::And, Self::Or, Self::Not];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::And),
            1 => Some(Self::Or),
            2 => Some(Self::Not),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::And => 0,
            Self::Or => 1,
            Self::Not => 2,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::And => "AND",
            Self::Or => "OR",
            Self::Not => "NOT",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl QueryConditionCombinationOp {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for QueryConditionCombinationOp {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for QueryConditionCombinationOp {}
impl core::hash::Hash for QueryConditionCombinationOp {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for QueryConditionCombinationOp {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for QueryConditionCombinationOp {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for QueryConditionCombinationOp {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for QueryConditionCombinationOp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for QueryConditionCombinationOp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for QueryConditionCombinationOp {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for QueryConditionCombinationOp {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Representation of a current domain (format_spec/array_schema.md#current-domain).
///
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum CurrentDomainType {
    /// `NDRECTANGLE` = 0
    Ndrectangle = 0,
}
impl CurrentDomainType {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::Ndrectangle];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Ndrectangle),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        self as u8
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Ndrectangle => "NDRECTANGLE",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
/// An absent field reads as code 0.
impl Default for CurrentDomainType {
    fn default() -> Self {
        Self::Ndrectangle
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for CurrentDomainType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for CurrentDomainType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for CurrentDomainType {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Self::from_value(value)
            .ok_or_else(|| binrw::Error::Custom {
                pos,
                err: Box::new(UnknownCode {
                    table: "CurrentDomainType",
                    value: i128::from(value),
                }),
            })
    }
}
impl binrw::BinWrite for CurrentDomainType {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// Code table from `spec/datatypes.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum WebpInputFormat {
    /// `TILEDB_WEBP_NONE` = 0
    None,
    /// `TILEDB_WEBP_RGB` = 1
    Rgb,
    /// `TILEDB_WEBP_BGR` = 2
    Bgr,
    /// `TILEDB_WEBP_RGBA` = 3
    Rgba,
    /// `TILEDB_WEBP_BGRA` = 4
    Bgra,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u8),
}
impl WebpInputFormat {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[
        Self::None,
        Self::Rgb,
        Self::Bgr,
        Self::Rgba,
        Self::Bgra,
    ];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::None),
            1 => Some(Self::Rgb),
            2 => Some(Self::Bgr),
            3 => Some(Self::Rgba),
            4 => Some(Self::Bgra),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        match self {
            Self::None => 0,
            Self::Rgb => 1,
            Self::Bgr => 2,
            Self::Rgba => 3,
            Self::Bgra => 4,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "NONE",
            Self::Rgb => "RGB",
            Self::Bgr => "BGR",
            Self::Rgba => "RGBA",
            Self::Bgra => "BGRA",
            Self::Unknown(v) => UNKNOWN_U8_NAMES[v as usize],
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl WebpInputFormat {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u8) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for WebpInputFormat {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for WebpInputFormat {}
impl core::hash::Hash for WebpInputFormat {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for WebpInputFormat {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for WebpInputFormat {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for WebpInputFormat {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for WebpInputFormat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for WebpInputFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for WebpInputFormat {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for WebpInputFormat {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
