// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The chunk metadata, as the engine writes it (the spec's
/// `[output_datasize|dict_string_datasize|dictionary]` after the compression
/// filters' part counts and three lengths). Little-endian.
///
/// Spec: `format_spec/filters/dictionary_encoding.md#input-and-output-layout` (table "Input and Output Layout").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DictionaryChunkMetadata {
    /// Spec field "num_metadata_parts" (`u32`).
    ///
    /// Always 0.
    #[br(err_context("DictionaryChunkMetadata.num_metadata_parts"))]
    pub num_metadata_parts: u32,
    /// Spec field "num_data_parts" (`u32`).
    ///
    /// Always 1.
    #[br(err_context("DictionaryChunkMetadata.num_data_parts"))]
    pub num_data_parts: u32,
    /// Spec field "input_size" (`u32`).
    ///
    /// Bytes of the strings (the chunk's original length).
    #[br(err_context("DictionaryChunkMetadata.original_length"))]
    pub original_length: u32,
    /// Spec field "output_size_ub" (`u32`).
    ///
    /// Bytes of the word ids (the chunk's data).
    #[br(err_context("DictionaryChunkMetadata.compressed_length"))]
    pub compressed_length: u32,
    /// Spec field "input_offsets_size" (`u32`).
    ///
    /// Bytes of the cell offsets (8 per cell).
    #[br(err_context("DictionaryChunkMetadata.offsets_length"))]
    pub offsets_length: u32,
    /// Spec field "output_datasize" (`u8`).
    ///
    /// Bytes of each word id: 1, 2, 4 or 8, the least that holds the number of cells.
    #[br(err_context("DictionaryChunkMetadata.id_width"))]
    pub id_width: u8,
    /// Spec field "dict_string_datasize" (`u8`).
    ///
    /// Bytes of each dictionary string length: the least that holds the longest cell.
    #[br(err_context("DictionaryChunkMetadata.string_length_width"))]
    pub string_length_width: u8,
    /// Spec field "dict_size" (`u32`).
    #[br(err_context("DictionaryChunkMetadata.dictionary_length"))]
    pub dictionary_length: u32,
    /// Spec field "dictionary" (`bytes`).
    ///
    /// `DictionaryEntry`s up to the end.
    #[br(err_context("DictionaryChunkMetadata.dictionary"), parse_with = rt::bytes, args((dictionary_length) as u64, "DictionaryChunkMetadata", "dictionary"))]
    pub dictionary: Vec<u8>,
}
impl DictionaryChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/dictionary_encoding.md#input-and-output-layout";
}
impl DictionaryChunkMetadata {
    /// Where field `num_metadata_parts` (spec "num_metadata_parts") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_NUM_METADATA_PARTS: usize = 0;
    /// Where field `num_data_parts` (spec "num_data_parts") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_NUM_DATA_PARTS: usize = 4;
    /// Where field `original_length` (spec "input_size") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_ORIGINAL_LENGTH: usize = 8;
    /// Where field `compressed_length` (spec "output_size_ub") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_COMPRESSED_LENGTH: usize = 12;
    /// Where field `offsets_length` (spec "input_offsets_size") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_OFFSETS_LENGTH: usize = 16;
    /// Where field `id_width` (spec "output_datasize") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_ID_WIDTH: usize = 20;
    /// Where field `string_length_width` (spec "dict_string_datasize") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_STRING_LENGTH_WIDTH: usize = 21;
    /// Where field `dictionary_length` (spec "dict_size") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_DICTIONARY_LENGTH: usize = 22;
    /// Where field `dictionary` (spec "dictionary") starts in a `DictionaryChunkMetadata`.
    pub const OFFSET_DICTIONARY: usize = 26;
    /// Bytes of a `DictionaryChunkMetadata` with these imports
    /// and the values of its fields
    /// `dictionary_length`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(dictionary_length: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((dictionary_length) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `DictionaryChunkMetadata` borrowed in place: the
/// fields before `dictionary`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`DictionaryChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct DictionaryChunkMetadataRef {
    /// Field `num_metadata_parts` as stored (spec "num_metadata_parts").
    pub num_metadata_parts: zerocopy::byteorder::little_endian::U32,
    /// Field `num_data_parts` as stored (spec "num_data_parts").
    pub num_data_parts: zerocopy::byteorder::little_endian::U32,
    /// Field `original_length` as stored (spec "input_size").
    pub original_length: zerocopy::byteorder::little_endian::U32,
    /// Field `compressed_length` as stored (spec "output_size_ub").
    pub compressed_length: zerocopy::byteorder::little_endian::U32,
    /// Field `offsets_length` as stored (spec "input_offsets_size").
    pub offsets_length: zerocopy::byteorder::little_endian::U32,
    /// Field `id_width` as stored (spec "output_datasize").
    pub id_width: u8,
    /// Field `string_length_width` as stored (spec "dict_string_datasize").
    pub string_length_width: u8,
    /// Field `dictionary_length` as stored (spec "dict_size").
    pub dictionary_length: zerocopy::byteorder::little_endian::U32,
}
impl DictionaryChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 26;
    /// The view of the first [`DictionaryChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_metadata_parts` (spec "num_metadata_parts").
    pub fn num_metadata_parts(&self) -> u32 {
        self.num_metadata_parts.get()
    }
    /// Field `num_data_parts` (spec "num_data_parts").
    pub fn num_data_parts(&self) -> u32 {
        self.num_data_parts.get()
    }
    /// Field `original_length` (spec "input_size").
    pub fn original_length(&self) -> u32 {
        self.original_length.get()
    }
    /// Field `compressed_length` (spec "output_size_ub").
    pub fn compressed_length(&self) -> u32 {
        self.compressed_length.get()
    }
    /// Field `offsets_length` (spec "input_offsets_size").
    pub fn offsets_length(&self) -> u32 {
        self.offsets_length.get()
    }
    /// Field `id_width` (spec "output_datasize").
    pub fn id_width(&self) -> u8 {
        self.id_width
    }
    /// Field `string_length_width` (spec "dict_string_datasize").
    pub fn string_length_width(&self) -> u8 {
        self.string_length_width
    }
    /// Field `dictionary_length` (spec "dict_size").
    pub fn dictionary_length(&self) -> u32 {
        self.dictionary_length.get()
    }
    /// Field `dictionary` (spec "dictionary") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn dictionary<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let dictionary_length = self.dictionary_length();
        let len = usize::try_from((dictionary_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<DictionaryChunkMetadataRef>()` is
/// [`DictionaryChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); DictionaryChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    DictionaryChunkMetadataRef,
>()];
impl crate::Record for DictionaryChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num_metadata_parts = 0;
        self.num_data_parts = 1;
        self.dictionary_length = self.dictionary.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if self.num_metadata_parts as u64 != 0 {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "num_metadata_parts",
                    self.num_metadata_parts as u64,
                    0,
                ),
            );
        }
        if self.num_data_parts as u64 != 1 {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "num_data_parts",
                    self.num_data_parts as u64,
                    1,
                ),
            );
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.dictionary_length),
            Some(self.dictionary.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryChunkMetadata",
                        "dictionary_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl DictionaryChunkMetadata {
    /// Sets the sizes a `DictionaryChunkMetadata` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `original_length` of `strings`: The strings of the tile, one data part (not stored).
    /// * `compressed_length` of `ids`: The word ids (the chunk's data).
    /// * `offsets_length` of `offsets`: The cells' offsets into the strings (8 bytes each), folded into the chunk (not stored).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        strings: &[u8],
        ids: &[u8],
        offsets: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = strings.len() as u64;
        self.original_length = n as u32;
        if self.original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "original_length",
                    self.original_length as u64,
                    n,
                ),
            );
        }
        let n = ids.len() as u64;
        self.compressed_length = n as u32;
        if self.compressed_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "compressed_length",
                    self.compressed_length as u64,
                    n,
                ),
            );
        }
        let n = offsets.len() as u64;
        self.offsets_length = n as u32;
        if self.offsets_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "offsets_length",
                    self.offsets_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `DictionaryChunkMetadata` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        strings: &[u8],
        ids: &[u8],
        offsets: &[u8],
    ) -> Result<(), crate::EncodeError> {
        let n = strings.len() as u64;
        if self.original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "original_length",
                    self.original_length as u64,
                    n,
                ),
            );
        }
        let n = ids.len() as u64;
        if self.compressed_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "compressed_length",
                    self.compressed_length as u64,
                    n,
                ),
            );
        }
        let n = offsets.len() as u64;
        if self.offsets_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "DictionaryChunkMetadata",
                    "offsets_length",
                    self.offsets_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// One dictionary string: its length (big-endian, `width` bytes), then its bytes.
///
/// Spec: `format_spec/filters/dictionary_encoding.md#input-and-output-layout` (table "Input and Output Layout").
#[binrw::binrw]
#[brw(big)]
#[br(import(width: u8))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DictionaryEntry {
    /// Spec field "size_str (uint8_t)" (`u8`).
    #[br(err_context("DictionaryEntry.length_u8"), if((width == 1)))]
    pub length_u8: Option<u8>,
    /// Spec field "size_str (uint16_t)" (`u16`).
    #[br(err_context("DictionaryEntry.length_u16"), if((width == 2)))]
    pub length_u16: Option<u16>,
    /// Spec field "size_str (uint32_t)" (`u32`).
    #[br(err_context("DictionaryEntry.length_u32"), if((width == 4)))]
    pub length_u32: Option<u32>,
    /// Spec field "size_str (uint64_t)" (`u64`).
    #[br(err_context("DictionaryEntry.length_u64"), if((width == 8)))]
    pub length_u64: Option<u64>,
    /// Spec field "str" (`bytes`).
    #[br(err_context("DictionaryEntry.string"), parse_with = rt::bytes, args((u64::from(length_u8.clone().unwrap_or_default()) + u64::from(length_u16.clone().unwrap_or_default()) + u64::from(length_u32.clone().unwrap_or_default()) + length_u64.clone().unwrap_or_default()) as u64, "DictionaryEntry", "string"))]
    pub string: Vec<u8>,
}
impl DictionaryEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/dictionary_encoding.md#input-and-output-layout";
}
impl DictionaryEntry {
    /// Where field `length_u8` (spec "size_str (uint8_t)") starts in a `DictionaryEntry`.
    pub const OFFSET_LENGTH_U8: usize = 0;
    /// Bytes of a `DictionaryEntry` with these imports
    /// and the values of its fields
    /// `length_u8`, `length_u16`, `length_u32`, `length_u64`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        width: u8,
        length_u8: Option<u8>,
        length_u16: Option<u16>,
        length_u32: Option<u32>,
        length_u64: Option<u64>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        if (width == 1) {
            length_u8?;
            __len = __len.checked_add(1)?;
        }
        if (width == 2) {
            length_u16?;
            __len = __len.checked_add(2)?;
        }
        if (width == 4) {
            length_u32?;
            __len = __len.checked_add(4)?;
        }
        if (width == 8) {
            length_u64?;
            __len = __len.checked_add(8)?;
        }
        __len = __len
            .checked_add(
                (u64::from(length_u8.clone().unwrap_or_default())
                    + u64::from(length_u16.clone().unwrap_or_default())
                    + u64::from(length_u32.clone().unwrap_or_default())
                    + length_u64.clone().unwrap_or_default()) as u64,
            )?;
        Some(__len)
    }
}
impl crate::Record for DictionaryEntry {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        if self.length_u8.is_some() {
            self.length_u8 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u8,
            );
        }
        if self.length_u16.is_some() {
            self.length_u16 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u16,
            );
        }
        if self.length_u32.is_some() {
            self.length_u32 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u32,
            );
        }
        if self.length_u64.is_some() {
            self.length_u64 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u64,
            );
        }
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let Some(stated) = self.length_u8 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u8",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(stated) = self.length_u16 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u16",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(stated) = self.length_u32 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u32",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(stated) = self.length_u64 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u64",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let x = &self.string;
            {
                let length_u8 = self.length_u8.clone();
                let length_u16 = self.length_u16.clone();
                let length_u32 = self.length_u32.clone();
                let length_u64 = self.length_u64.clone();
                let stated = (u64::from(length_u8.clone().unwrap_or_default())
                    + u64::from(length_u16.clone().unwrap_or_default())
                    + u64::from(length_u32.clone().unwrap_or_default())
                    + length_u64.clone().unwrap_or_default()) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size(
                            "DictionaryEntry",
                            "string",
                            stated,
                            actual,
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
impl DictionaryEntry {
    /// Appends a `DictionaryEntry` to `out` given the imports (`width`) and the values (`string`), as
    /// [`encode`](crate::encode) writes the record, without building it:
    /// every field that states a size is set from the bytes it sizes.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it;
    /// [`EncodeError::Condition`](crate::EncodeError::Condition) when a value is given while its
    /// field's `if` does not hold, or not given while it holds. `out` may then hold part of the record.
    pub fn append(
        out: &mut alloc::vec::Vec<u8>,
        imports: (u8,),
        values: (&[u8],),
    ) -> Result<(), crate::EncodeError> {
        let (width,) = imports;
        let (string,) = values;
        if width == 1 {
            let actual = string.len() as u64;
            let Ok(v) = u8::try_from(actual) else {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u8",
                        actual as u8 as u64,
                        actual,
                    ),
                );
            };
            out.extend_from_slice(&v.to_be_bytes());
        }
        if width == 2 {
            let actual = string.len() as u64;
            let Ok(v) = u16::try_from(actual) else {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u16",
                        actual as u16 as u64,
                        actual,
                    ),
                );
            };
            out.extend_from_slice(&v.to_be_bytes());
        }
        if width == 4 {
            let actual = string.len() as u64;
            let Ok(v) = u32::try_from(actual) else {
                return Err(
                    crate::EncodeError::size(
                        "DictionaryEntry",
                        "length_u32",
                        actual as u32 as u64,
                        actual,
                    ),
                );
            };
            out.extend_from_slice(&v.to_be_bytes());
        }
        if width == 8 {
            let v = string.len() as u64;
            out.extend_from_slice(&v.to_be_bytes());
        }
        out.extend_from_slice(string);
        Ok(())
    }
}
/// One cell of the chunk data: the index of its string in the dictionary.
///
/// Spec: `format_spec/filters/dictionary_encoding.md#input-and-output-layout` (table "Input and Output Layout").
#[binrw::binrw]
#[brw(big)]
#[br(import(width: u8))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DictionaryWordId {
    /// Spec field "num (uint8_t)" (`u8`).
    #[br(err_context("DictionaryWordId.id_u8"), if((width == 1)))]
    pub id_u8: Option<u8>,
    /// Spec field "num (uint16_t)" (`u16`).
    #[br(err_context("DictionaryWordId.id_u16"), if((width == 2)))]
    pub id_u16: Option<u16>,
    /// Spec field "num (uint32_t)" (`u32`).
    #[br(err_context("DictionaryWordId.id_u32"), if((width == 4)))]
    pub id_u32: Option<u32>,
    /// Spec field "num (uint64_t)" (`u64`).
    #[br(err_context("DictionaryWordId.id_u64"), if((width == 8)))]
    pub id_u64: Option<u64>,
}
impl DictionaryWordId {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/dictionary_encoding.md#input-and-output-layout";
}
impl DictionaryWordId {
    /// Where field `id_u8` (spec "num (uint8_t)") starts in a `DictionaryWordId`.
    pub const OFFSET_ID_U8: usize = 0;
    /// Bytes of a `DictionaryWordId` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(width: u8) -> Option<u64> {
        let mut __len: u64 = 0;
        if (width == 1) {
            __len = __len.checked_add(1)?;
        }
        if (width == 2) {
            __len = __len.checked_add(2)?;
        }
        if (width == 4) {
            __len = __len.checked_add(4)?;
        }
        if (width == 8) {
            __len = __len.checked_add(8)?;
        }
        Some(__len)
    }
    /// Where field `id_u16` (spec "num (uint16_t)") starts in a `DictionaryWordId` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_id_u16(width: u8) -> Option<u64> {
        let mut __len: u64 = 0;
        if (width == 1) {
            __len = __len.checked_add(1)?;
        }
        Some(__len)
    }
    /// Where field `id_u32` (spec "num (uint32_t)") starts in a `DictionaryWordId` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_id_u32(width: u8) -> Option<u64> {
        let mut __len: u64 = 0;
        if (width == 1) {
            __len = __len.checked_add(1)?;
        }
        if (width == 2) {
            __len = __len.checked_add(2)?;
        }
        Some(__len)
    }
    /// Where field `id_u64` (spec "num (uint64_t)") starts in a `DictionaryWordId` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_id_u64(width: u8) -> Option<u64> {
        let mut __len: u64 = 0;
        if (width == 1) {
            __len = __len.checked_add(1)?;
        }
        if (width == 2) {
            __len = __len.checked_add(2)?;
        }
        if (width == 4) {
            __len = __len.checked_add(4)?;
        }
        Some(__len)
    }
}
impl crate::Record for DictionaryWordId {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        Ok(())
    }
}
