// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The layouts of a timestamped name; each value is the first format version
/// using it (the engine's `FragmentID::NameVersion` ONE, TWO, THREE).
///
/// Code table from `spec/timestamped_name.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u32)]
pub enum TimestampedNameFormat {
    /// `UUID_T` = 1: `__<uuid>_<t>`, format versions 1 and 2 (engine: NameVersion ONE).
    UuidT = 1,
    /// `T1_T2_UUID` = 3: `__<t1>_<t2>_<uuid>`, format versions 3 and 4 (engine: NameVersion TWO).
    T1T2Uuid = 3,
    /// `T1_T2_UUID_V` = 5: `__<t1>_<t2>_<uuid>_<v>`, format version 5 and later (engine: NameVersion THREE).
    T1T2UuidV = 5,
}
impl TimestampedNameFormat {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::UuidT, Self::T1T2Uuid, Self::T1T2UuidV];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u32) -> Option<Self> {
        match value {
            1 => Some(Self::UuidT),
            3 => Some(Self::T1T2Uuid),
            5 => Some(Self::T1T2UuidV),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u32 {
        self as u32
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::UuidT => "UUID_T",
            Self::T1T2Uuid => "T1_T2_UUID",
            Self::T1T2UuidV => "T1_T2_UUID_V",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for TimestampedNameFormat {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for TimestampedNameFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for TimestampedNameFormat {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u32 as binrw::BinRead>::read_options(reader, endian, ())?;
        Self::from_value(value)
            .ok_or_else(|| binrw::Error::Custom {
                pos,
                err: Box::new(UnknownCode {
                    table: "TimestampedNameFormat",
                    value: i128::from(value),
                }),
            })
    }
}
impl binrw::BinWrite for TimestampedNameFormat {
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
