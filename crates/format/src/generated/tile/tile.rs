// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Spec: `format_spec/tile.md#main-structure` (table "Main Structure").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Tile {
    /// Spec field "Num chunks" (`u64`).
    #[br(err_context("Tile.num_chunks"))]
    pub num_chunks: u64,
    /// Spec field "Chunk 1 … Chunk N" (`list<Chunk>`).
    ///
    /// A writer streams the chunks after the head (`Tile::head`), each as it is filtered.
    #[br(err_context("Tile.chunks"), parse_with = rt::list, args((num_chunks) as u64, 1, (), "Tile", "chunks"))]
    pub chunks: Vec<Chunk>,
}
impl Tile {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#main-structure";
}
impl Tile {
    /// Where field `num_chunks` (spec "Num chunks") starts in a `Tile`.
    pub const OFFSET_NUM_CHUNKS: usize = 0;
    /// Where field `chunks` (spec "Chunk 1 … Chunk N") starts in a `Tile`.
    pub const OFFSET_CHUNKS: usize = 8;
}
/// The fixed-size fields that open a `Tile` borrowed in place: the
/// fields before `chunks`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileRef {
    /// Field `num_chunks` as stored (spec "Num chunks").
    pub num_chunks: zerocopy::byteorder::little_endian::U64,
}
impl TileRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_chunks` (spec "Num chunks").
    pub fn num_chunks(&self) -> u64 {
        self.num_chunks.get()
    }
}
/// The view is exactly its fields: `size_of::<TileRef>()` is
/// [`TileRef::SIZE`] (else this does not compile).
const _: [(); TileRef::SIZE] = [(); core::mem::size_of::<TileRef>()];
impl crate::Record for Tile {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.chunks);
        self.chunks = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.chunks);
        self.chunks = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_chunks = self.chunks.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.chunks;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_chunks),
            Some(self.chunks.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size("Tile", "num_chunks", stated as u64, actual),
                );
            }
        }
        Ok(())
    }
}
impl Tile {
    /// The head of a `Tile` whose `chunks` a writer streams after it, one
    /// encoded element (or value) after another: the fields before them,
    /// `num_chunks` stating `count` of them.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming `num_chunks` when `count` does not fit it.
    pub fn head(count: usize) -> Result<alloc::vec::Vec<u8>, crate::EncodeError> {
        let n = count as u64;
        let v = n as u64;
        if v as u64 != n {
            return Err(crate::EncodeError::size("Tile", "num_chunks", v as u64, n));
        }
        let head = Self {
            num_chunks: v,
            ..Default::default()
        };
        Ok(crate::decode::encode_unchecked(&head))
    }
}
/// The three lengths that open a chunk. A `Chunk` holds the metadata and the
/// filtered data after them; the writer streams those after the header, and
/// the original data is not stored, so all three are outside sizes.
///
/// Spec: `format_spec/tile.md#chunk-format` (table "Chunk Format").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ChunkHeader {
    /// Spec field "Original length of chunk" (`u32`).
    #[br(err_context("ChunkHeader.original_length"))]
    pub original_length: u32,
    /// Spec field "Filtered chunk length" (`u32`).
    #[br(err_context("ChunkHeader.filtered_length"))]
    pub filtered_length: u32,
    /// Spec field "Chunk metadata length" (`u32`).
    #[br(err_context("ChunkHeader.metadata_length"))]
    pub metadata_length: u32,
}
impl ChunkHeader {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#chunk-format";
}
impl ChunkHeader {
    /// Bytes of one `ChunkHeader`: every field has a fixed size.
    pub const SIZE: usize = 12;
    /// Where field `original_length` (spec "Original length of chunk") starts in a `ChunkHeader`.
    pub const OFFSET_ORIGINAL_LENGTH: usize = 0;
    /// Where field `filtered_length` (spec "Filtered chunk length") starts in a `ChunkHeader`.
    pub const OFFSET_FILTERED_LENGTH: usize = 4;
    /// Where field `metadata_length` (spec "Chunk metadata length") starts in a `ChunkHeader`.
    pub const OFFSET_METADATA_LENGTH: usize = 8;
}
/// A `ChunkHeader` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ChunkHeaderRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ChunkHeaderRef {
    /// Field `original_length` as stored (spec "Original length of chunk").
    pub original_length: zerocopy::byteorder::little_endian::U32,
    /// Field `filtered_length` as stored (spec "Filtered chunk length").
    pub filtered_length: zerocopy::byteorder::little_endian::U32,
    /// Field `metadata_length` as stored (spec "Chunk metadata length").
    pub metadata_length: zerocopy::byteorder::little_endian::U32,
}
impl ChunkHeaderRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`ChunkHeaderRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `original_length` (spec "Original length of chunk").
    pub fn original_length(&self) -> u32 {
        self.original_length.get()
    }
    /// Field `filtered_length` (spec "Filtered chunk length").
    pub fn filtered_length(&self) -> u32 {
        self.filtered_length.get()
    }
    /// Field `metadata_length` (spec "Chunk metadata length").
    pub fn metadata_length(&self) -> u32 {
        self.metadata_length.get()
    }
    /// The owned `ChunkHeader` (the binrw struct) with the same values.
    pub fn record(&self) -> ChunkHeader {
        ChunkHeader {
            original_length: self.original_length(),
            filtered_length: self.filtered_length(),
            metadata_length: self.metadata_length(),
        }
    }
}
/// The view is exactly its fields: `size_of::<ChunkHeaderRef>()` is
/// [`ChunkHeaderRef::SIZE`] (else this does not compile).
const _: [(); ChunkHeaderRef::SIZE] = [(); core::mem::size_of::<ChunkHeaderRef>()];
impl crate::Record for ChunkHeader {
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
impl ChunkHeader {
    /// Sets the sizes a `ChunkHeader` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `original_length` of `original`: The chunk's data before the filters (what a reader gets back); not stored.
    /// * `filtered_length` of `filtered`: The chunk's filtered data, written after its metadata.
    /// * `metadata_length` of `metadata`: The chunk's metadata (the filters' metadata parts), written right after the header.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        original: &[u8],
        filtered: &[u8],
        metadata: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = original.len() as u64;
        self.original_length = n as u32;
        if self.original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChunkHeader",
                    "original_length",
                    self.original_length as u64,
                    n,
                ),
            );
        }
        let n = filtered.len() as u64;
        self.filtered_length = n as u32;
        if self.filtered_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChunkHeader",
                    "filtered_length",
                    self.filtered_length as u64,
                    n,
                ),
            );
        }
        let n = metadata.len() as u64;
        self.metadata_length = n as u32;
        if self.metadata_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChunkHeader",
                    "metadata_length",
                    self.metadata_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `ChunkHeader` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        original: &[u8],
        filtered: &[u8],
        metadata: &[u8],
    ) -> Result<(), crate::EncodeError> {
        let n = original.len() as u64;
        if self.original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChunkHeader",
                    "original_length",
                    self.original_length as u64,
                    n,
                ),
            );
        }
        let n = filtered.len() as u64;
        if self.filtered_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChunkHeader",
                    "filtered_length",
                    self.filtered_length as u64,
                    n,
                ),
            );
        }
        let n = metadata.len() as u64;
        if self.metadata_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "ChunkHeader",
                    "metadata_length",
                    self.metadata_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// Spec: `format_spec/tile.md#chunk-format` (table "Chunk Format").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Chunk {
    /// Spec field "Original length / Filtered chunk length / Chunk metadata length" (`ChunkHeader`).
    #[br(err_context("Chunk.header"))]
    pub header: ChunkHeader,
    /// Spec field "Chunk metadata" (`bytes`).
    #[br(err_context("Chunk.metadata"), parse_with = rt::bytes, args((header.metadata_length) as u64, "Chunk", "metadata"))]
    pub metadata: Vec<u8>,
    /// Spec field "Chunk filtered data" (`bytes`).
    #[br(err_context("Chunk.filtered_data"), parse_with = rt::bytes, args((header.filtered_length) as u64, "Chunk", "filtered_data"))]
    pub filtered_data: Vec<u8>,
}
impl Chunk {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#chunk-format";
}
impl Chunk {
    /// Where field `header` (spec "Original length / Filtered chunk length / Chunk metadata length") starts in a `Chunk`.
    pub const OFFSET_HEADER: usize = 0;
    /// Where field `metadata` (spec "Chunk metadata") starts in a `Chunk`.
    pub const OFFSET_METADATA: usize = 12;
}
/// The fixed-size fields that open a `Chunk` borrowed in place: the
/// fields before `metadata`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ChunkRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ChunkRef {
    /// Field `header` as stored (spec "Original length / Filtered chunk length / Chunk metadata length").
    pub header: ChunkHeaderRef,
}
impl ChunkRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`ChunkRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `header` (spec "Original length / Filtered chunk length / Chunk metadata length").
    pub fn header(&self) -> &ChunkHeaderRef {
        &self.header
    }
}
/// The view is exactly its fields: `size_of::<ChunkRef>()` is
/// [`ChunkRef::SIZE`] (else this does not compile).
const _: [(); ChunkRef::SIZE] = [(); core::mem::size_of::<ChunkRef>()];
impl crate::Record for Chunk {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.header);
        self.header = x.at_version(version);
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.header);
        self.header = x.with_sizes();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.header;
            x.check(version)?;
        }
        {
            let x = &self.metadata;
            {
                let header = self.header.clone();
                let stated = (header.metadata_length) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size("Chunk", "metadata", stated, actual),
                    );
                }
            }
        }
        {
            let x = &self.filtered_data;
            {
                let header = self.header.clone();
                let stated = (header.filtered_length) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size(
                            "Chunk",
                            "filtered_data",
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
/// Chunk metadata of the compression filters (GZIP, ZSTD, LZ4, RLE, BZIP2,
/// DOUBLE_DELTA, DELTA, DICTIONARY): the parts they compressed. The compressed
/// bytes of the metadata parts, then of the data parts, form the chunk data.
///
/// Spec: `format_spec/tile.md#compression-filters` (table "Compression Filters").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CompressionChunkMetadata {
    /// Spec field "Number of metadata parts" (`u32`).
    #[br(err_context("CompressionChunkMetadata.num_metadata_parts"))]
    pub num_metadata_parts: u32,
    /// Spec field "Number of data parts" (`u32`).
    #[br(err_context("CompressionChunkMetadata.num_data_parts"))]
    pub num_data_parts: u32,
    /// Spec field "Metadata part 1 … N" (`list<CompressedPartMd>`).
    #[br(err_context("CompressionChunkMetadata.metadata_parts"), parse_with = rt::list, args((num_metadata_parts) as u64, 1, (), "CompressionChunkMetadata", "metadata_parts"))]
    pub metadata_parts: Vec<CompressedPartMd>,
    /// Spec field "Data part 1 … N" (`list<CompressedPartMd>`).
    #[br(err_context("CompressionChunkMetadata.data_parts"), parse_with = rt::list, args((num_data_parts) as u64, 1, (), "CompressionChunkMetadata", "data_parts"))]
    pub data_parts: Vec<CompressedPartMd>,
}
impl CompressionChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#compression-filters";
}
impl CompressionChunkMetadata {
    /// Where field `num_metadata_parts` (spec "Number of metadata parts") starts in a `CompressionChunkMetadata`.
    pub const OFFSET_NUM_METADATA_PARTS: usize = 0;
    /// Where field `num_data_parts` (spec "Number of data parts") starts in a `CompressionChunkMetadata`.
    pub const OFFSET_NUM_DATA_PARTS: usize = 4;
    /// Where field `metadata_parts` (spec "Metadata part 1 … N") starts in a `CompressionChunkMetadata`.
    pub const OFFSET_METADATA_PARTS: usize = 8;
    /// Bytes of a `CompressionChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_metadata_parts`, `num_data_parts`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num_metadata_parts: u32, num_data_parts: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(((num_metadata_parts) as u64).checked_mul(8u64)?)?;
        __len = __len.checked_add(((num_data_parts) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `CompressionChunkMetadata` borrowed in place: the
/// fields before `metadata_parts`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`CompressionChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct CompressionChunkMetadataRef {
    /// Field `num_metadata_parts` as stored (spec "Number of metadata parts").
    pub num_metadata_parts: zerocopy::byteorder::little_endian::U32,
    /// Field `num_data_parts` as stored (spec "Number of data parts").
    pub num_data_parts: zerocopy::byteorder::little_endian::U32,
}
impl CompressionChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`CompressionChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_metadata_parts` (spec "Number of metadata parts").
    pub fn num_metadata_parts(&self) -> u32 {
        self.num_metadata_parts.get()
    }
    /// Field `num_data_parts` (spec "Number of data parts").
    pub fn num_data_parts(&self) -> u32 {
        self.num_data_parts.get()
    }
}
/// The view is exactly its fields: `size_of::<CompressionChunkMetadataRef>()` is
/// [`CompressionChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); CompressionChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    CompressionChunkMetadataRef,
>()];
impl crate::Record for CompressionChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.metadata_parts);
        self.metadata_parts = x.into_iter().map(|e| e.at_version(version)).collect();
        let x = core::mem::take(&mut self.data_parts);
        self.data_parts = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.metadata_parts);
        self.metadata_parts = x.into_iter().map(|e| e.with_sizes()).collect();
        let x = core::mem::take(&mut self.data_parts);
        self.data_parts = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_metadata_parts = self.metadata_parts.len() as u32;
        self.num_data_parts = self.data_parts.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.metadata_parts;
            for e in x {
                e.check(version)?;
            }
        }
        {
            let x = &self.data_parts;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_metadata_parts),
            Some(self.metadata_parts.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "CompressionChunkMetadata",
                        "num_metadata_parts",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_data_parts),
            Some(self.data_parts.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "CompressionChunkMetadata",
                        "num_data_parts",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The spec's `CompressedPartMD`.
///
/// Spec: `format_spec/tile.md#compression-filters` (table "Compression Filters").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CompressedPartMd {
    /// Spec field "Part original length" (`u32`).
    #[br(err_context("CompressedPartMd.part_original_length"))]
    pub part_original_length: u32,
    /// Spec field "Part compressed length" (`u32`).
    #[br(err_context("CompressedPartMd.part_compressed_length"))]
    pub part_compressed_length: u32,
}
impl CompressedPartMd {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#compression-filters";
}
impl CompressedPartMd {
    /// Bytes of one `CompressedPartMd`: every field has a fixed size.
    pub const SIZE: usize = 8;
    /// Where field `part_original_length` (spec "Part original length") starts in a `CompressedPartMd`.
    pub const OFFSET_PART_ORIGINAL_LENGTH: usize = 0;
    /// Where field `part_compressed_length` (spec "Part compressed length") starts in a `CompressedPartMd`.
    pub const OFFSET_PART_COMPRESSED_LENGTH: usize = 4;
}
/// A `CompressedPartMd` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`CompressedPartMdRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct CompressedPartMdRef {
    /// Field `part_original_length` as stored (spec "Part original length").
    pub part_original_length: zerocopy::byteorder::little_endian::U32,
    /// Field `part_compressed_length` as stored (spec "Part compressed length").
    pub part_compressed_length: zerocopy::byteorder::little_endian::U32,
}
impl CompressedPartMdRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`CompressedPartMdRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `part_original_length` (spec "Part original length").
    pub fn part_original_length(&self) -> u32 {
        self.part_original_length.get()
    }
    /// Field `part_compressed_length` (spec "Part compressed length").
    pub fn part_compressed_length(&self) -> u32 {
        self.part_compressed_length.get()
    }
    /// The owned `CompressedPartMd` (the binrw struct) with the same values.
    pub fn record(&self) -> CompressedPartMd {
        CompressedPartMd {
            part_original_length: self.part_original_length(),
            part_compressed_length: self.part_compressed_length(),
        }
    }
}
/// The view is exactly its fields: `size_of::<CompressedPartMdRef>()` is
/// [`CompressedPartMdRef::SIZE`] (else this does not compile).
const _: [(); CompressedPartMdRef::SIZE] = [(); core::mem::size_of::<
    CompressedPartMdRef,
>()];
impl crate::Record for CompressedPartMd {
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
impl CompressedPartMd {
    /// Sets the sizes a `CompressedPartMd` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `part_original_length` of `original`: The part before compression (not stored).
    /// * `part_compressed_length` of `compressed`: The part compressed, in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        original: &[u8],
        compressed: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = original.len() as u64;
        self.part_original_length = n as u32;
        if self.part_original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "CompressedPartMd",
                    "part_original_length",
                    self.part_original_length as u64,
                    n,
                ),
            );
        }
        let n = compressed.len() as u64;
        self.part_compressed_length = n as u32;
        if self.part_compressed_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "CompressedPartMd",
                    "part_compressed_length",
                    self.part_compressed_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `CompressedPartMd` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        original: &[u8],
        compressed: &[u8],
    ) -> Result<(), crate::EncodeError> {
        let n = original.len() as u64;
        if self.part_original_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "CompressedPartMd",
                    "part_original_length",
                    self.part_original_length as u64,
                    n,
                ),
            );
        }
        let n = compressed.len() as u64;
        if self.part_compressed_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "CompressedPartMd",
                    "part_compressed_length",
                    self.part_compressed_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// Chunk metadata of BYTESHUFFLE and BITSHUFFLE: the lengths of the data parts
/// they shuffled, one after another, into the chunk data. BITSHUFFLE first
/// splits each input part whose length is not a multiple of 8 in two (the
/// largest multiple of 8, possibly empty, then the rest). The XOR filter writes
/// this same layout (the engine's xor_filter.cc; tile.md does not describe it).
///
/// Spec: `format_spec/tile.md#byteshuffle-filter` (table "Byteshuffle Filter").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ShuffleChunkMetadata {
    /// Spec field "Number of parts" (`u32`).
    #[br(err_context("ShuffleChunkMetadata.num_parts"))]
    pub num_parts: u32,
    /// Spec field "Length of part 1 … N" (`list<u32>`).
    #[br(err_context("ShuffleChunkMetadata.part_lengths"), parse_with = rt::list, args((num_parts) as u64, 4, (), "ShuffleChunkMetadata", "part_lengths"))]
    pub part_lengths: Vec<u32>,
}
impl ShuffleChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#byteshuffle-filter";
}
impl ShuffleChunkMetadata {
    /// Where field `num_parts` (spec "Number of parts") starts in a `ShuffleChunkMetadata`.
    pub const OFFSET_NUM_PARTS: usize = 0;
    /// Where field `part_lengths` (spec "Length of part 1 … N") starts in a `ShuffleChunkMetadata`.
    pub const OFFSET_PART_LENGTHS: usize = 4;
    /// Bytes of a `ShuffleChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_parts`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num_parts: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(((num_parts) as u64).checked_mul(4u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `ShuffleChunkMetadata` borrowed in place: the
/// fields before `part_lengths`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ShuffleChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ShuffleChunkMetadataRef {
    /// Field `num_parts` as stored (spec "Number of parts").
    pub num_parts: zerocopy::byteorder::little_endian::U32,
}
impl ShuffleChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`ShuffleChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_parts` (spec "Number of parts").
    pub fn num_parts(&self) -> u32 {
        self.num_parts.get()
    }
}
/// The view is exactly its fields: `size_of::<ShuffleChunkMetadataRef>()` is
/// [`ShuffleChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); ShuffleChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    ShuffleChunkMetadataRef,
>()];
impl crate::Record for ShuffleChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num_parts = self.part_lengths.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num_parts),
            Some(self.part_lengths.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ShuffleChunkMetadata",
                        "num_parts",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl ShuffleChunkMetadata {
    /// Sets the sizes a `ShuffleChunkMetadata` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `part_lengths` of each slice of `parts`: The data parts shuffled (or XORed), one after another in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        parts: &[impl AsRef<[u8]>],
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.len());
            for p in parts {
                let n = p.as_ref().len() as u64;
                let v = n as u32;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "ShuffleChunkMetadata",
                            "part_lengths",
                            v as u64,
                            n,
                        ),
                    );
                }
                l.push(v);
            }
            self.part_lengths = l;
        }
        Ok(self)
    }
    /// Whether the sizes a `ShuffleChunkMetadata` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        parts: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.part_lengths;
            {
                let n = parts.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "ShuffleChunkMetadata",
                            "part_lengths",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(parts) {
                let n = p.as_ref().len() as u64;
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "ShuffleChunkMetadata",
                            "part_lengths",
                            *v as u64,
                            n,
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
/// Chunk metadata of BIT_WIDTH_REDUCTION: the windows of all data parts, in
/// order; `value_size` is the size of the filter's input datatype.
///
/// Spec: `format_spec/tile.md#bit-width-reduction-filter` (table "Bit Width Reduction Filter").
#[binrw::binrw]
#[brw(little)]
#[br(import(value_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct BitWidthReductionChunkMetadata {
    /// Spec field "Length of input" (`u32`).
    #[br(err_context("BitWidthReductionChunkMetadata.input_length"))]
    pub input_length: u32,
    /// Spec field "Number of windows" (`u32`).
    #[br(err_context("BitWidthReductionChunkMetadata.num_windows"))]
    pub num_windows: u32,
    /// Spec field "Window 1 … N metadata" (`list<BitWidthReductionWindowMd>`).
    #[br(err_context("BitWidthReductionChunkMetadata.windows"), parse_with = rt::list, args((num_windows) as u64, 1, (value_size,), "BitWidthReductionChunkMetadata", "windows"))]
    pub windows: Vec<BitWidthReductionWindowMd>,
}
impl BitWidthReductionChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#bit-width-reduction-filter";
}
impl BitWidthReductionChunkMetadata {
    /// Where field `input_length` (spec "Length of input") starts in a `BitWidthReductionChunkMetadata`.
    pub const OFFSET_INPUT_LENGTH: usize = 0;
    /// Where field `num_windows` (spec "Number of windows") starts in a `BitWidthReductionChunkMetadata`.
    pub const OFFSET_NUM_WINDOWS: usize = 4;
    /// Where field `windows` (spec "Window 1 … N metadata") starts in a `BitWidthReductionChunkMetadata`.
    pub const OFFSET_WINDOWS: usize = 8;
    /// Bytes of a `BitWidthReductionChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_windows`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(value_size: u64, num_windows: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len
            .checked_add(
                ((num_windows) as u64)
                    .checked_mul(BitWidthReductionWindowMd::size((value_size).clone())?)?,
            )?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `BitWidthReductionChunkMetadata` borrowed in place: the
/// fields before `windows`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`BitWidthReductionChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct BitWidthReductionChunkMetadataRef {
    /// Field `input_length` as stored (spec "Length of input").
    pub input_length: zerocopy::byteorder::little_endian::U32,
    /// Field `num_windows` as stored (spec "Number of windows").
    pub num_windows: zerocopy::byteorder::little_endian::U32,
}
impl BitWidthReductionChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`BitWidthReductionChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `input_length` (spec "Length of input").
    pub fn input_length(&self) -> u32 {
        self.input_length.get()
    }
    /// Field `num_windows` (spec "Number of windows").
    pub fn num_windows(&self) -> u32 {
        self.num_windows.get()
    }
}
/// The view is exactly its fields: `size_of::<BitWidthReductionChunkMetadataRef>()` is
/// [`BitWidthReductionChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); BitWidthReductionChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    BitWidthReductionChunkMetadataRef,
>()];
