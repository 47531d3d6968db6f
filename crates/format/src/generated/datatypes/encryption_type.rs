// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

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
