// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

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
