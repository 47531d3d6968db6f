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
