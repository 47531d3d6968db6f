// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// One run of equal cells: the cell's bytes as they are, then the run length as
/// a big-endian u16 (1 to 65535; a longer run is split).
///
/// Spec: `tiledb/sm/compressors/rle_compressor.cc#rle-compress` (table "RLE::compress").
#[binrw::binrw]
#[brw(big)]
#[br(import(value_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RleRun {
    /// Spec field "input_prev" (`bytes`).
    #[br(err_context("RleRun.value"), parse_with = rt::bytes, args((value_size) as u64, "RleRun", "value"))]
    pub value: Vec<u8>,
    /// Spec field "cur_run_len" (`u16`).
    #[br(err_context("RleRun.run_length"))]
    pub run_length: u16,
}
impl RleRun {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "tiledb/sm/compressors/rle_compressor.cc#rle-compress";
}
impl RleRun {
    /// Where field `value` (spec "input_prev") starts in a `RleRun`.
    pub const OFFSET_VALUE: usize = 0;
    /// Bytes of a `RleRun` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        __len = __len.checked_add(2)?;
        Some(__len)
    }
    /// Where field `run_length` (spec "cur_run_len") starts in a `RleRun` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_run_length(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        Some(__len)
    }
}
impl crate::Record for RleRun {
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
/// Chunk metadata of RLE over var-sized strings with folded offsets
/// (tiledb/sm/filter/compression_filter.cc). Little-endian. The metadata of the
/// filters before RLE is dropped (RLE must come first).
///
/// Spec: `tiledb/sm/compressors/rle_compressor.cc#compress-var-string-coords` (table "CompressionFilter::compress_var_string_coords").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RleStringsChunkMetadata {
    /// Spec field "num_metadata_parts" (`u32`).
    ///
    /// Always 0.
    #[br(err_context("RleStringsChunkMetadata.num_metadata_parts"))]
    pub num_metadata_parts: u32,
    /// Spec field "num_data_parts" (`u32`).
    ///
    /// Always 1.
    #[br(err_context("RleStringsChunkMetadata.num_data_parts"))]
    pub num_data_parts: u32,
    /// Spec field "input_size" (`u32`).
    ///
    /// Bytes of the strings (the chunk's original length).
    #[br(err_context("RleStringsChunkMetadata.original_length"))]
    pub original_length: u32,
    /// Spec field "output_size_ub" (`u32`).
    ///
    /// Bytes of the runs (the chunk's data).
    #[br(err_context("RleStringsChunkMetadata.compressed_length"))]
    pub compressed_length: u32,
    /// Spec field "input_offsets_size" (`u32`).
    ///
    /// Bytes of the cell offsets (8 per cell).
    #[br(err_context("RleStringsChunkMetadata.offsets_length"))]
    pub offsets_length: u32,
    /// Spec field "rle_len_bytesize" (`u8`).
    ///
    /// Bytes of each run length: 1, 2, 4 or 8.
    #[br(err_context("RleStringsChunkMetadata.run_length_width"))]
    pub run_length_width: u8,
    /// Spec field "string_len_bytesize" (`u8`).
    ///
    /// Bytes of each string length: 1, 2, 4 or 8.
    #[br(err_context("RleStringsChunkMetadata.string_length_width"))]
    pub string_length_width: u8,
}
impl RleStringsChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "tiledb/sm/compressors/rle_compressor.cc#compress-var-string-coords";
}
impl RleStringsChunkMetadata {
    /// Bytes of one `RleStringsChunkMetadata`: every field has a fixed size.
    pub const SIZE: usize = 22;
    /// Where field `num_metadata_parts` (spec "num_metadata_parts") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_NUM_METADATA_PARTS: usize = 0;
    /// Where field `num_data_parts` (spec "num_data_parts") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_NUM_DATA_PARTS: usize = 4;
    /// Where field `original_length` (spec "input_size") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_ORIGINAL_LENGTH: usize = 8;
    /// Where field `compressed_length` (spec "output_size_ub") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_COMPRESSED_LENGTH: usize = 12;
    /// Where field `offsets_length` (spec "input_offsets_size") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_OFFSETS_LENGTH: usize = 16;
    /// Where field `run_length_width` (spec "rle_len_bytesize") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_RUN_LENGTH_WIDTH: usize = 20;
    /// Where field `string_length_width` (spec "string_len_bytesize") starts in a `RleStringsChunkMetadata`.
    pub const OFFSET_STRING_LENGTH_WIDTH: usize = 21;
}
/// A `RleStringsChunkMetadata` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`RleStringsChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct RleStringsChunkMetadataRef {
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
    /// Field `run_length_width` as stored (spec "rle_len_bytesize").
    pub run_length_width: u8,
    /// Field `string_length_width` as stored (spec "string_len_bytesize").
    pub string_length_width: u8,
}
impl RleStringsChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 22;
    /// The view of the first [`RleStringsChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
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
    /// Field `run_length_width` (spec "rle_len_bytesize").
    pub fn run_length_width(&self) -> u8 {
        self.run_length_width
    }
    /// Field `string_length_width` (spec "string_len_bytesize").
    pub fn string_length_width(&self) -> u8 {
        self.string_length_width
    }
    /// The owned `RleStringsChunkMetadata` (the binrw struct) with the same values.
    pub fn record(&self) -> RleStringsChunkMetadata {
        RleStringsChunkMetadata {
            num_metadata_parts: self.num_metadata_parts(),
            num_data_parts: self.num_data_parts(),
            original_length: self.original_length(),
            compressed_length: self.compressed_length(),
            offsets_length: self.offsets_length(),
            run_length_width: self.run_length_width(),
            string_length_width: self.string_length_width(),
        }
    }
}
/// The view is exactly its fields: `size_of::<RleStringsChunkMetadataRef>()` is
/// [`RleStringsChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); RleStringsChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    RleStringsChunkMetadataRef,
>()];
impl crate::Record for RleStringsChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num_metadata_parts = 0;
        self.num_data_parts = 1;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if self.num_metadata_parts as u64 != 0 {
            return Err(
                crate::EncodeError::size(
                    "RleStringsChunkMetadata",
                    "num_metadata_parts",
                    self.num_metadata_parts as u64,
                    0,
                ),
            );
        }
        if self.num_data_parts as u64 != 1 {
            return Err(
                crate::EncodeError::size(
                    "RleStringsChunkMetadata",
                    "num_data_parts",
                    self.num_data_parts as u64,
                    1,
                ),
            );
        }
        Ok(())
    }
}
impl RleStringsChunkMetadata {
    /// Sets the sizes a `RleStringsChunkMetadata` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `original_length` of `strings`: The strings of the tile, one data part (not stored).
    /// * `compressed_length` of `runs`: The runs (the chunk's data).
    /// * `offsets_length` of `offsets`: The cells' offsets into the strings (8 bytes each), folded into the chunk (not stored).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        strings: &[u8],
        runs: &[u8],
        offsets: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = strings.len() as u64;
        self.original_length = n as u32;
        if self.original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "RleStringsChunkMetadata",
                    "original_length",
                    self.original_length as u64,
                    n,
                ),
            );
        }
        let n = runs.len() as u64;
        self.compressed_length = n as u32;
        if self.compressed_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "RleStringsChunkMetadata",
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
                    "RleStringsChunkMetadata",
                    "offsets_length",
                    self.offsets_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `RleStringsChunkMetadata` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        strings: &[u8],
        runs: &[u8],
        offsets: &[u8],
    ) -> Result<(), crate::EncodeError> {
        let n = strings.len() as u64;
        if self.original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "RleStringsChunkMetadata",
                    "original_length",
                    self.original_length as u64,
                    n,
                ),
            );
        }
        let n = runs.len() as u64;
        if self.compressed_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "RleStringsChunkMetadata",
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
                    "RleStringsChunkMetadata",
                    "offsets_length",
                    self.offsets_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// One run of equal strings: the run length and the string's length, big-endian
/// unsigned integers of the widths the chunk metadata gives, then the string.
/// Exactly one field of each width group is present.
///
/// Spec: `tiledb/sm/compressors/rle_compressor.cc#rle-compress-strings` (table "RLE::compress<T, P>").
#[binrw::binrw]
#[brw(big)]
#[br(import(run_width: u8, length_width: u8))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RleStringRun {
    /// Spec field "run length (T = uint8_t)" (`u8`).
    #[br(err_context("RleStringRun.run_length_u8"), if((run_width == 1)))]
    pub run_length_u8: Option<u8>,
    /// Spec field "run length (T = uint16_t)" (`u16`).
    #[br(err_context("RleStringRun.run_length_u16"), if((run_width == 2)))]
    pub run_length_u16: Option<u16>,
    /// Spec field "run length (T = uint32_t)" (`u32`).
    #[br(err_context("RleStringRun.run_length_u32"), if((run_width == 4)))]
    pub run_length_u32: Option<u32>,
    /// Spec field "run length (T = uint64_t)" (`u64`).
    #[br(err_context("RleStringRun.run_length_u64"), if((run_width == 8)))]
    pub run_length_u64: Option<u64>,
    /// Spec field "string size (P = uint8_t)" (`u8`).
    #[br(err_context("RleStringRun.string_length_u8"), if((length_width == 1)))]
    pub string_length_u8: Option<u8>,
    /// Spec field "string size (P = uint16_t)" (`u16`).
    #[br(err_context("RleStringRun.string_length_u16"), if((length_width == 2)))]
    pub string_length_u16: Option<u16>,
    /// Spec field "string size (P = uint32_t)" (`u32`).
    #[br(err_context("RleStringRun.string_length_u32"), if((length_width == 4)))]
    pub string_length_u32: Option<u32>,
    /// Spec field "string size (P = uint64_t)" (`u64`).
    #[br(err_context("RleStringRun.string_length_u64"), if((length_width == 8)))]
    pub string_length_u64: Option<u64>,
    /// Spec field "string" (`bytes`).
    #[br(err_context("RleStringRun.string"), parse_with = rt::bytes, args((u64::from(string_length_u8.clone().unwrap_or_default()) + u64::from(string_length_u16.clone().unwrap_or_default()) + u64::from(string_length_u32.clone().unwrap_or_default()) + string_length_u64.clone().unwrap_or_default()) as u64, "RleStringRun", "string"))]
    pub string: Vec<u8>,
}
impl RleStringRun {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "tiledb/sm/compressors/rle_compressor.cc#rle-compress-strings";
}
impl RleStringRun {
    /// Where field `run_length_u8` (spec "run length (T = uint8_t)") starts in a `RleStringRun`.
    pub const OFFSET_RUN_LENGTH_U8: usize = 0;
    /// Bytes of a `RleStringRun` with these imports
    /// and the values of its fields
    /// `string_length_u8`, `string_length_u16`, `string_length_u32`, `string_length_u64`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        run_width: u8,
        length_width: u8,
        string_length_u8: Option<u8>,
        string_length_u16: Option<u16>,
        string_length_u32: Option<u32>,
        string_length_u64: Option<u64>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        if (run_width == 1) {
            __len = __len.checked_add(1)?;
        }
        if (run_width == 2) {
            __len = __len.checked_add(2)?;
        }
        if (run_width == 4) {
            __len = __len.checked_add(4)?;
        }
        if (run_width == 8) {
            __len = __len.checked_add(8)?;
        }
        if (length_width == 1) {
            string_length_u8?;
            __len = __len.checked_add(1)?;
        }
        if (length_width == 2) {
            string_length_u16?;
            __len = __len.checked_add(2)?;
        }
        if (length_width == 4) {
            string_length_u32?;
            __len = __len.checked_add(4)?;
        }
        if (length_width == 8) {
            string_length_u64?;
            __len = __len.checked_add(8)?;
        }
        __len = __len
            .checked_add(
                (u64::from(string_length_u8.clone().unwrap_or_default())
                    + u64::from(string_length_u16.clone().unwrap_or_default())
                    + u64::from(string_length_u32.clone().unwrap_or_default())
                    + string_length_u64.clone().unwrap_or_default()) as u64,
            )?;
        Some(__len)
    }
}
impl crate::Record for RleStringRun {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        if self.string_length_u8.is_some() {
            self.string_length_u8 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u8,
            );
        }
        if self.string_length_u16.is_some() {
            self.string_length_u16 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u16,
            );
        }
        if self.string_length_u32.is_some() {
            self.string_length_u32 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u32,
            );
        }
        if self.string_length_u64.is_some() {
            self.string_length_u64 = Some(
                crate::decode::encode_unchecked(&self.string).len() as u64,
            );
        }
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let Some(stated) = self.string_length_u8 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u8",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(stated) = self.string_length_u16 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u16",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(stated) = self.string_length_u32 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u32",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(stated) = self.string_length_u64 {
            let actual = crate::decode::encode_unchecked(&self.string).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u64",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let x = &self.string;
            {
                let string_length_u8 = self.string_length_u8.clone();
                let string_length_u16 = self.string_length_u16.clone();
                let string_length_u32 = self.string_length_u32.clone();
                let string_length_u64 = self.string_length_u64.clone();
                let stated = (u64::from(string_length_u8.clone().unwrap_or_default())
                    + u64::from(string_length_u16.clone().unwrap_or_default())
                    + u64::from(string_length_u32.clone().unwrap_or_default())
                    + string_length_u64.clone().unwrap_or_default()) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size(
                            "RleStringRun",
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
impl RleStringRun {
    /// Appends a `RleStringRun` to `out` given the imports (`run_width`, `length_width`) and the values (`run_length_u8`, `run_length_u16`, `run_length_u32`, `run_length_u64`, `string`), as
    /// [`encode`](crate::encode) writes the record, without building it:
    /// every field that states a size is set from the bytes it sizes.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it;
    /// [`EncodeError::Condition`](crate::EncodeError::Condition) when a value is given while its
    /// field's `if` does not hold, or not given while it holds. `out` may then hold part of the record.
    pub fn append(
        out: &mut alloc::vec::Vec<u8>,
        imports: (u8, u8),
        values: (Option<u8>, Option<u16>, Option<u32>, Option<u64>, &[u8]),
    ) -> Result<(), crate::EncodeError> {
        let (run_width, length_width) = imports;
        let (run_length_u8, run_length_u16, run_length_u32, run_length_u64, string) = values;
        match (run_width == 1, run_length_u8) {
            (true, Some(v)) => out.extend_from_slice(&v.to_be_bytes()),
            (false, None) => {}
            (p, _) => {
                return Err(
                    crate::EncodeError::condition(
                        "RleStringRun",
                        "run_length_u8",
                        "run_width == 1",
                        !p,
                    ),
                );
            }
        }
        match (run_width == 2, run_length_u16) {
            (true, Some(v)) => out.extend_from_slice(&v.to_be_bytes()),
            (false, None) => {}
            (p, _) => {
                return Err(
                    crate::EncodeError::condition(
                        "RleStringRun",
                        "run_length_u16",
                        "run_width == 2",
                        !p,
                    ),
                );
            }
        }
        match (run_width == 4, run_length_u32) {
            (true, Some(v)) => out.extend_from_slice(&v.to_be_bytes()),
            (false, None) => {}
            (p, _) => {
                return Err(
                    crate::EncodeError::condition(
                        "RleStringRun",
                        "run_length_u32",
                        "run_width == 4",
                        !p,
                    ),
                );
            }
        }
        match (run_width == 8, run_length_u64) {
            (true, Some(v)) => out.extend_from_slice(&v.to_be_bytes()),
            (false, None) => {}
            (p, _) => {
                return Err(
                    crate::EncodeError::condition(
                        "RleStringRun",
                        "run_length_u64",
                        "run_width == 8",
                        !p,
                    ),
                );
            }
        }
        if length_width == 1 {
            let actual = string.len() as u64;
            let Ok(v) = u8::try_from(actual) else {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u8",
                        actual as u8 as u64,
                        actual,
                    ),
                );
            };
            out.extend_from_slice(&v.to_be_bytes());
        }
        if length_width == 2 {
            let actual = string.len() as u64;
            let Ok(v) = u16::try_from(actual) else {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u16",
                        actual as u16 as u64,
                        actual,
                    ),
                );
            };
            out.extend_from_slice(&v.to_be_bytes());
        }
        if length_width == 4 {
            let actual = string.len() as u64;
            let Ok(v) = u32::try_from(actual) else {
                return Err(
                    crate::EncodeError::size(
                        "RleStringRun",
                        "string_length_u32",
                        actual as u32 as u64,
                        actual,
                    ),
                );
            };
            out.extend_from_slice(&v.to_be_bytes());
        }
        if length_width == 8 {
            let v = string.len() as u64;
            out.extend_from_slice(&v.to_be_bytes());
        }
        out.extend_from_slice(string);
        Ok(())
    }
}
