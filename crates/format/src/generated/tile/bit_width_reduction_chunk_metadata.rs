// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

impl crate::Record for BitWidthReductionChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.windows);
        self.windows = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.windows);
        self.windows = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_windows = self.windows.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.windows;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_windows),
            Some(self.windows.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "BitWidthReductionChunkMetadata",
                        "num_windows",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl BitWidthReductionChunkMetadata {
    /// Sets the sizes a `BitWidthReductionChunkMetadata` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `input_length` of the slices of `input`: The filter's input data parts, whose windows follow (their total length).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        input: &[impl AsRef<[u8]>],
    ) -> Result<Self, crate::EncodeError> {
        let n = input.iter().map(|p| p.as_ref().len() as u64).sum::<u64>();
        self.input_length = n as u32;
        if self.input_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "BitWidthReductionChunkMetadata",
                    "input_length",
                    self.input_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `BitWidthReductionChunkMetadata` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        input: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        let n = input.iter().map(|p| p.as_ref().len() as u64).sum::<u64>();
        if self.input_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "BitWidthReductionChunkMetadata",
                    "input_length",
                    self.input_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// The spec's `WindowMD` of the bit width reduction filter.
///
/// Spec: `format_spec/tile.md#bit-width-reduction-filter` (table "Bit Width Reduction Filter").
#[binrw::binrw]
#[brw(little)]
#[br(import(value_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct BitWidthReductionWindowMd {
    /// Spec field "Window value offset" (`bytes`).
    #[br(err_context("BitWidthReductionWindowMd.value_offset"), parse_with = rt::bytes, args((value_size) as u64, "BitWidthReductionWindowMd", "value_offset"))]
    pub value_offset: Vec<u8>,
    /// Spec field "Bit width of reduced type" (`u8`).
    #[br(err_context("BitWidthReductionWindowMd.bit_width"))]
    pub bit_width: u8,
    /// Spec field "Window length" (`u32`).
    #[br(err_context("BitWidthReductionWindowMd.window_length"))]
    pub window_length: u32,
}
impl BitWidthReductionWindowMd {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#bit-width-reduction-filter";
}
impl BitWidthReductionWindowMd {
    /// Where field `value_offset` (spec "Window value offset") starts in a `BitWidthReductionWindowMd`.
    pub const OFFSET_VALUE_OFFSET: usize = 0;
    /// Bytes of a `BitWidthReductionWindowMd` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(4)?;
        Some(__len)
    }
    /// Where field `bit_width` (spec "Bit width of reduced type") starts in a `BitWidthReductionWindowMd` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_bit_width(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        Some(__len)
    }
    /// Where field `window_length` (spec "Window length") starts in a `BitWidthReductionWindowMd` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_window_length(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        __len = __len.checked_add(1)?;
        Some(__len)
    }
}
impl crate::Record for BitWidthReductionWindowMd {
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
impl BitWidthReductionWindowMd {
    /// Sets the sizes a `BitWidthReductionWindowMd` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `window_length` of `window`: The window's input values, reduced in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        window: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = window.len() as u64;
        self.window_length = n as u32;
        if self.window_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "BitWidthReductionWindowMd",
                    "window_length",
                    self.window_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `BitWidthReductionWindowMd` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(&self, window: &[u8]) -> Result<(), crate::EncodeError> {
        let n = window.len() as u64;
        if self.window_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "BitWidthReductionWindowMd",
                    "window_length",
                    self.window_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// Chunk metadata of POSITIVE_DELTA: the windows of all data parts, in order;
/// `value_size` is the size of the filter's input datatype.
///
/// Spec: `format_spec/tile.md#positive-delta-encoding-filter` (table "Positive Delta Encoding Filter").
#[binrw::binrw]
#[brw(little)]
#[br(import(value_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct PositiveDeltaChunkMetadata {
    /// Spec field "Number of windows" (`u32`).
    #[br(err_context("PositiveDeltaChunkMetadata.num_windows"))]
    pub num_windows: u32,
    /// Spec field "Window 1 … N metadata" (`list<PositiveDeltaWindowMd>`).
    #[br(err_context("PositiveDeltaChunkMetadata.windows"), parse_with = rt::list, args((num_windows) as u64, 1, (value_size,), "PositiveDeltaChunkMetadata", "windows"))]
    pub windows: Vec<PositiveDeltaWindowMd>,
}
impl PositiveDeltaChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#positive-delta-encoding-filter";
}
impl PositiveDeltaChunkMetadata {
    /// Where field `num_windows` (spec "Number of windows") starts in a `PositiveDeltaChunkMetadata`.
    pub const OFFSET_NUM_WINDOWS: usize = 0;
    /// Where field `windows` (spec "Window 1 … N metadata") starts in a `PositiveDeltaChunkMetadata`.
    pub const OFFSET_WINDOWS: usize = 4;
    /// Bytes of a `PositiveDeltaChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_windows`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(value_size: u64, num_windows: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len
            .checked_add(
                ((num_windows) as u64)
                    .checked_mul(PositiveDeltaWindowMd::size((value_size).clone())?)?,
            )?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `PositiveDeltaChunkMetadata` borrowed in place: the
/// fields before `windows`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`PositiveDeltaChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct PositiveDeltaChunkMetadataRef {
    /// Field `num_windows` as stored (spec "Number of windows").
    pub num_windows: zerocopy::byteorder::little_endian::U32,
}
impl PositiveDeltaChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`PositiveDeltaChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_windows` (spec "Number of windows").
    pub fn num_windows(&self) -> u32 {
        self.num_windows.get()
    }
}
/// The view is exactly its fields: `size_of::<PositiveDeltaChunkMetadataRef>()` is
/// [`PositiveDeltaChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); PositiveDeltaChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    PositiveDeltaChunkMetadataRef,
>()];
impl crate::Record for PositiveDeltaChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.windows);
        self.windows = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.windows);
        self.windows = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_windows = self.windows.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.windows;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_windows),
            Some(self.windows.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "PositiveDeltaChunkMetadata",
                        "num_windows",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The spec's `WindowMD` of the positive-delta encoding filter.
///
/// Spec: `format_spec/tile.md#positive-delta-encoding-filter` (table "Positive Delta Encoding Filter").
#[binrw::binrw]
#[brw(little)]
#[br(import(value_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct PositiveDeltaWindowMd {
    /// Spec field "Window value delta offset" (`bytes`).
    #[br(err_context("PositiveDeltaWindowMd.value_offset"), parse_with = rt::bytes, args((value_size) as u64, "PositiveDeltaWindowMd", "value_offset"))]
    pub value_offset: Vec<u8>,
    /// Spec field "Window length" (`u32`).
    #[br(err_context("PositiveDeltaWindowMd.window_length"))]
    pub window_length: u32,
}
impl PositiveDeltaWindowMd {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#positive-delta-encoding-filter";
}
impl PositiveDeltaWindowMd {
    /// Where field `value_offset` (spec "Window value delta offset") starts in a `PositiveDeltaWindowMd`.
    pub const OFFSET_VALUE_OFFSET: usize = 0;
    /// Bytes of a `PositiveDeltaWindowMd` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        __len = __len.checked_add(4)?;
        Some(__len)
    }
    /// Where field `window_length` (spec "Window length") starts in a `PositiveDeltaWindowMd` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_window_length(value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add((value_size) as u64)?;
        Some(__len)
    }
}
impl crate::Record for PositiveDeltaWindowMd {
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
impl PositiveDeltaWindowMd {
    /// Sets the sizes a `PositiveDeltaWindowMd` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `window_length` of `window`: The window's input values, delta-encoded in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        window: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = window.len() as u64;
        self.window_length = n as u32;
        if self.window_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "PositiveDeltaWindowMd",
                    "window_length",
                    self.window_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `PositiveDeltaWindowMd` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(&self, window: &[u8]) -> Result<(), crate::EncodeError> {
        let n = window.len() as u64;
        if self.window_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "PositiveDeltaWindowMd",
                    "window_length",
                    self.window_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// Chunk metadata of CHECKSUM_MD5 and CHECKSUM_SHA256 (`checksum_size` 16 or
/// 32): one checksum per input metadata part, then one per input data part. The
/// input metadata follows, copied intact; it is not part of this table.
///
/// Spec: `format_spec/tile.md#checksum-filters` (table "Checksum Filters").
#[binrw::binrw]
#[brw(little)]
#[br(import(checksum_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ChecksumChunkMetadata {
    /// Spec field "Num metadata checksums" (`u32`).
    #[br(err_context("ChecksumChunkMetadata.num_metadata_checksums"))]
    pub num_metadata_checksums: u32,
    /// Spec field "Num data checksums" (`u32`).
    #[br(err_context("ChecksumChunkMetadata.num_data_checksums"))]
    pub num_data_checksums: u32,
    /// Spec field "Num input bytes for metadata checksum 1 / Metadata checksum 1 … N" (`list<ChecksumEntry>`).
    #[br(err_context("ChecksumChunkMetadata.metadata_checksums"), parse_with = rt::list, args((num_metadata_checksums) as u64, 1, (checksum_size,), "ChecksumChunkMetadata", "metadata_checksums"))]
    pub metadata_checksums: Vec<ChecksumEntry>,
    /// Spec field "Num input bytes for data checksum 1 / Data checksum 1 … N" (`list<ChecksumEntry>`).
    #[br(err_context("ChecksumChunkMetadata.data_checksums"), parse_with = rt::list, args((num_data_checksums) as u64, 1, (checksum_size,), "ChecksumChunkMetadata", "data_checksums"))]
    pub data_checksums: Vec<ChecksumEntry>,
}
impl ChecksumChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#checksum-filters";
}
impl ChecksumChunkMetadata {
    /// Where field `num_metadata_checksums` (spec "Num metadata checksums") starts in a `ChecksumChunkMetadata`.
    pub const OFFSET_NUM_METADATA_CHECKSUMS: usize = 0;
    /// Where field `num_data_checksums` (spec "Num data checksums") starts in a `ChecksumChunkMetadata`.
    pub const OFFSET_NUM_DATA_CHECKSUMS: usize = 4;
    /// Where field `metadata_checksums` (spec "Num input bytes for metadata checksum 1 / Metadata checksum 1 … N") starts in a `ChecksumChunkMetadata`.
    pub const OFFSET_METADATA_CHECKSUMS: usize = 8;
    /// Bytes of a `ChecksumChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_metadata_checksums`, `num_data_checksums`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        checksum_size: u64,
        num_metadata_checksums: u32,
        num_data_checksums: u32,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len
            .checked_add(
                ((num_metadata_checksums) as u64)
                    .checked_mul(ChecksumEntry::size((checksum_size).clone())?)?,
            )?;
        __len = __len
            .checked_add(
                ((num_data_checksums) as u64)
                    .checked_mul(ChecksumEntry::size((checksum_size).clone())?)?,
            )?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `ChecksumChunkMetadata` borrowed in place: the
/// fields before `metadata_checksums`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ChecksumChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ChecksumChunkMetadataRef {
    /// Field `num_metadata_checksums` as stored (spec "Num metadata checksums").
    pub num_metadata_checksums: zerocopy::byteorder::little_endian::U32,
    /// Field `num_data_checksums` as stored (spec "Num data checksums").
    pub num_data_checksums: zerocopy::byteorder::little_endian::U32,
}
impl ChecksumChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ChecksumChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_metadata_checksums` (spec "Num metadata checksums").
    pub fn num_metadata_checksums(&self) -> u32 {
        self.num_metadata_checksums.get()
    }
    /// Field `num_data_checksums` (spec "Num data checksums").
    pub fn num_data_checksums(&self) -> u32 {
        self.num_data_checksums.get()
    }
}
/// The view is exactly its fields: `size_of::<ChecksumChunkMetadataRef>()` is
/// [`ChecksumChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); ChecksumChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    ChecksumChunkMetadataRef,
>()];
impl crate::Record for ChecksumChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.metadata_checksums);
        self.metadata_checksums = x.into_iter().map(|e| e.at_version(version)).collect();
        let x = core::mem::take(&mut self.data_checksums);
        self.data_checksums = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.metadata_checksums);
        self.metadata_checksums = x.into_iter().map(|e| e.with_sizes()).collect();
        let x = core::mem::take(&mut self.data_checksums);
        self.data_checksums = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_metadata_checksums = self.metadata_checksums.len() as u32;
        self.num_data_checksums = self.data_checksums.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.metadata_checksums;
            for e in x {
                e.check(version)?;
            }
        }
        {
            let x = &self.data_checksums;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_metadata_checksums),
            Some(self.metadata_checksums.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ChecksumChunkMetadata",
                        "num_metadata_checksums",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_data_checksums),
            Some(self.data_checksums.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ChecksumChunkMetadata",
                        "num_data_checksums",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One checksum: how many bytes it covers, and the digest.
///
/// Spec: `format_spec/tile.md#checksum-filters` (table "Checksum Filters").
#[binrw::binrw]
#[brw(little)]
#[br(import(checksum_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ChecksumEntry {
    /// Spec field "Num input bytes for checksum" (`u64`).
    #[br(err_context("ChecksumEntry.checksummed_bytes"))]
    pub checksummed_bytes: u64,
    /// Spec field "Checksum" (`bytes`).
    #[br(err_context("ChecksumEntry.checksum"), parse_with = rt::bytes, args((checksum_size) as u64, "ChecksumEntry", "checksum"))]
    pub checksum: Vec<u8>,
}
impl ChecksumEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#checksum-filters";
}
impl ChecksumEntry {
    /// Where field `checksummed_bytes` (spec "Num input bytes for checksum") starts in a `ChecksumEntry`.
    pub const OFFSET_CHECKSUMMED_BYTES: usize = 0;
    /// Where field `checksum` (spec "Checksum") starts in a `ChecksumEntry`.
    pub const OFFSET_CHECKSUM: usize = 8;
    /// Bytes of a `ChecksumEntry` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(checksum_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((checksum_size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `ChecksumEntry` borrowed in place: the
/// fields before `checksum`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ChecksumEntryRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ChecksumEntryRef {
    /// Field `checksummed_bytes` as stored (spec "Num input bytes for checksum").
    pub checksummed_bytes: zerocopy::byteorder::little_endian::U64,
}
impl ChecksumEntryRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ChecksumEntryRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `checksummed_bytes` (spec "Num input bytes for checksum").
    pub fn checksummed_bytes(&self) -> u64 {
        self.checksummed_bytes.get()
    }
    /// Field `checksum` (spec "Checksum") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn checksum<'a>(&self, bytes: &'a [u8], checksum_size: u64) -> Option<&'a [u8]> {
        let len = usize::try_from((checksum_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<ChecksumEntryRef>()` is
/// [`ChecksumEntryRef::SIZE`] (else this does not compile).
const _: [(); ChecksumEntryRef::SIZE] = [(); core::mem::size_of::<ChecksumEntryRef>()];
impl crate::Record for ChecksumEntry {
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
impl ChecksumEntry {
    /// Sets the sizes a `ChecksumEntry` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `checksummed_bytes` of `part`: The input part checksummed, passed on intact.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        part: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = part.len() as u64;
        self.checksummed_bytes = n as u64;
        if self.checksummed_bytes as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChecksumEntry",
                    "checksummed_bytes",
                    self.checksummed_bytes as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `ChecksumEntry` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(&self, part: &[u8]) -> Result<(), crate::EncodeError> {
        let n = part.len() as u64;
        if self.checksummed_bytes as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChecksumEntry",
                    "checksummed_bytes",
                    self.checksummed_bytes as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
