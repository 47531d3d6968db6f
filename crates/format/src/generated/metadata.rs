// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The entries of one metadata file, up to the end of the tile (there is no
/// count). The engine writes them sorted by key; when files are merged, later
/// files override earlier ones and a deletion removes the key. Matches the spec
/// page.
///
/// Spec: `format_spec/metadata.md#metadata-file` (table "Metadata File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ArrayMetadata {
    /// Spec field "Key length … Value, repeated" (`list<MetadataEntry>`).
    #[br(err_context("ArrayMetadata.entries"), parse_with = rt::list_to_end, args((), "ArrayMetadata", "entries"))]
    pub entries: Vec<MetadataEntry>,
}
impl ArrayMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/metadata.md#metadata-file";
}
impl ArrayMetadata {
    /// Where field `entries` (spec "Key length … Value, repeated") starts in a `ArrayMetadata`.
    pub const OFFSET_ENTRIES: usize = 0;
}
impl crate::Record for ArrayMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.entries);
        self.entries = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.entries);
        self.entries = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.entries;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
/// One insertion or deletion of a key. Matches the spec page.
///
/// Spec: `format_spec/metadata.md#metadata-file` (table "Metadata File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct MetadataEntry {
    /// Spec field "Key length" (`u32`).
    #[br(err_context("MetadataEntry.key_length"))]
    pub key_length: u32,
    /// Spec field "Key" (`string`).
    #[br(err_context("MetadataEntry.key"), parse_with = rt::bytes, args((key_length) as u64, "MetadataEntry", "key"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub key: Vec<u8>,
    /// Spec field "Deletion" (`u8`).
    ///
    /// 1 for a deletion (nothing follows), 0 for an insertion.
    #[br(err_context("MetadataEntry.deletion"))]
    pub deletion: u8,
    /// Spec field "Value type" (`u8`, values from [`Datatype`]).
    #[br(err_context("MetadataEntry.value_type"), if(((deletion == 0))))]
    pub value_type: Option<Datatype>,
    /// Spec field "Number of values" (`u32`).
    #[br(err_context("MetadataEntry.num_values"), if(((deletion == 0))))]
    pub num_values: Option<u32>,
    /// Spec field "Value" (`bytes`).
    ///
    /// `num_values` values of `value_type`; an unknown type reads as 0 bytes (the semantic layer rejects it).
    #[br(err_context("MetadataEntry.value"), parse_with = rt::opt_bytes, args(((deletion == 0)), (u64::from(num_values.clone().unwrap_or_default()) * (rt::datatype_size(value_type.clone().unwrap_or_default()))) as u64, "MetadataEntry", "value"))]
    pub value: Option<Vec<u8>>,
}
impl MetadataEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/metadata.md#metadata-file";
}
impl MetadataEntry {
    /// Where field `key_length` (spec "Key length") starts in a `MetadataEntry`.
    pub const OFFSET_KEY_LENGTH: usize = 0;
    /// Where field `key` (spec "Key") starts in a `MetadataEntry`.
    pub const OFFSET_KEY: usize = 4;
    /// Bytes of a `MetadataEntry` with these imports
    /// and the values of its fields
    /// `key_length`, `deletion`, `value_type`, `num_values`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        key_length: u32,
        deletion: u8,
        value_type: Option<Datatype>,
        num_values: Option<u32>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((key_length) as u64)?;
        __len = __len.checked_add(1)?;
        if ((deletion == 0)) {
            value_type?;
            __len = __len.checked_add(1)?;
        }
        if ((deletion == 0)) {
            num_values?;
            __len = __len.checked_add(4)?;
        }
        if ((deletion == 0)) {
            __len = __len
                .checked_add(
                    (u64::from(num_values.clone().unwrap_or_default())
                        * (rt::datatype_size(value_type.clone().unwrap_or_default())))
                        as u64,
                )?;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `MetadataEntry` borrowed in place: the
/// fields before `key`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`MetadataEntryRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct MetadataEntryRef {
    /// Field `key_length` as stored (spec "Key length").
    pub key_length: zerocopy::byteorder::little_endian::U32,
}
impl MetadataEntryRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`MetadataEntryRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `key_length` (spec "Key length").
    pub fn key_length(&self) -> u32 {
        self.key_length.get()
    }
    /// Field `key` (spec "Key") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn key<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let key_length = self.key_length();
        let len = usize::try_from((key_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<MetadataEntryRef>()` is
/// [`MetadataEntryRef::SIZE`] (else this does not compile).
const _: [(); MetadataEntryRef::SIZE] = [(); core::mem::size_of::<MetadataEntryRef>()];
impl crate::Record for MetadataEntry {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.key_length = self.key.len() as u32;
        if let Some(x) = &self.value {
            {
                let value_type = self.value_type.clone();
                let unit = ((rt::datatype_size(value_type.clone().unwrap_or_default())))
                    as u64;
                if unit > 0 {
                    self.num_values = Some((x.len() as u64 / unit) as u32);
                }
            }
        }
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.key_length),
            Some(self.key.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "MetadataEntry",
                        "key_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let deletion = self.deletion.clone();
            if ((deletion == 0)) != self.value_type.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "MetadataEntry",
                        "value_type",
                        "deletion == 0",
                        self.value_type.is_some(),
                    ),
                );
            }
        }
        {
            let deletion = self.deletion.clone();
            if ((deletion == 0)) != self.num_values.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "MetadataEntry",
                        "num_values",
                        "deletion == 0",
                        self.num_values.is_some(),
                    ),
                );
            }
        }
        {
            let deletion = self.deletion.clone();
            if ((deletion == 0)) != self.value.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "MetadataEntry",
                        "value",
                        "deletion == 0",
                        self.value.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.value {
            let value_type = self.value_type.clone();
            let num_values = self.num_values.clone();
            let stated = (u64::from(num_values.clone().unwrap_or_default())
                * (rt::datatype_size(value_type.clone().unwrap_or_default()))) as u64;
            let actual = x.len() as u64;
            if stated != actual {
                return Err(
                    crate::EncodeError::size("MetadataEntry", "value", stated, actual),
                );
            }
        }
        Ok(())
    }
}
