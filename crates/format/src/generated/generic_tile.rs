// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The header of a generic tile; the tile data (a `Tile`) follows it.
///
/// Spec: `format_spec/generic_tile.md#` (table "Generic Tile").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct GenericTileHeader {
    /// Spec field "Version number" (`u32`).
    ///
    /// Format version number of the generic tile.
    #[br(err_context("GenericTileHeader.version_number"))]
    pub version_number: u32,
    /// Spec field "Persisted size" (`u64`).
    #[br(err_context("GenericTileHeader.persisted_size"))]
    pub persisted_size: u64,
    /// Spec field "Tile size" (`u64`).
    #[br(err_context("GenericTileHeader.tile_size"))]
    pub tile_size: u64,
    /// Spec field "Datatype" (`u8`, values from [`Datatype`]).
    #[br(err_context("GenericTileHeader.datatype"))]
    pub datatype: Datatype,
    /// Spec field "Cell size" (`u64`).
    #[br(err_context("GenericTileHeader.cell_size"))]
    pub cell_size: u64,
    /// Spec field "Encryption type" (`u8`, values from [`EncryptionType`]).
    #[br(err_context("GenericTileHeader.encryption_type"))]
    pub encryption_type: EncryptionType,
    /// Spec field "Filter pipeline size" (`u32`).
    #[br(err_context("GenericTileHeader.filter_pipeline_size"))]
    pub filter_pipeline_size: u32,
    /// Spec field "Filter pipeline" (`FilterPipeline`).
    #[br(err_context("GenericTileHeader.filter_pipeline"), args(version_number))]
    pub filter_pipeline: FilterPipeline,
}
impl GenericTileHeader {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/generic_tile.md#";
}
impl GenericTileHeader {
    /// Where field `version_number` (spec "Version number") starts in a `GenericTileHeader`.
    pub const OFFSET_VERSION_NUMBER: usize = 0;
    /// Where field `persisted_size` (spec "Persisted size") starts in a `GenericTileHeader`.
    pub const OFFSET_PERSISTED_SIZE: usize = 4;
    /// Where field `tile_size` (spec "Tile size") starts in a `GenericTileHeader`.
    pub const OFFSET_TILE_SIZE: usize = 12;
    /// Where field `datatype` (spec "Datatype") starts in a `GenericTileHeader`.
    pub const OFFSET_DATATYPE: usize = 20;
    /// Where field `cell_size` (spec "Cell size") starts in a `GenericTileHeader`.
    pub const OFFSET_CELL_SIZE: usize = 21;
    /// Where field `encryption_type` (spec "Encryption type") starts in a `GenericTileHeader`.
    pub const OFFSET_ENCRYPTION_TYPE: usize = 29;
    /// Where field `filter_pipeline_size` (spec "Filter pipeline size") starts in a `GenericTileHeader`.
    pub const OFFSET_FILTER_PIPELINE_SIZE: usize = 30;
    /// Where field `filter_pipeline` (spec "Filter pipeline") starts in a `GenericTileHeader`.
    pub const OFFSET_FILTER_PIPELINE: usize = 34;
}
/// The fixed-size fields that open a `GenericTileHeader` borrowed in place: the
/// fields before `filter_pipeline`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`GenericTileHeaderRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct GenericTileHeaderRef {
    /// Field `version_number` as stored (spec "Version number").
    pub version_number: zerocopy::byteorder::little_endian::U32,
    /// Field `persisted_size` as stored (spec "Persisted size").
    pub persisted_size: zerocopy::byteorder::little_endian::U64,
    /// Field `tile_size` as stored (spec "Tile size").
    pub tile_size: zerocopy::byteorder::little_endian::U64,
    /// Field `datatype` as stored (spec "Datatype").
    pub datatype: u8,
    /// Field `cell_size` as stored (spec "Cell size").
    pub cell_size: zerocopy::byteorder::little_endian::U64,
    /// Field `encryption_type` as stored (spec "Encryption type").
    pub encryption_type: u8,
    /// Field `filter_pipeline_size` as stored (spec "Filter pipeline size").
    pub filter_pipeline_size: zerocopy::byteorder::little_endian::U32,
}
impl GenericTileHeaderRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 34;
    /// The view of the first [`GenericTileHeaderRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version_number` (spec "Version number").
    pub fn version_number(&self) -> u32 {
        self.version_number.get()
    }
    /// Field `persisted_size` (spec "Persisted size").
    pub fn persisted_size(&self) -> u64 {
        self.persisted_size.get()
    }
    /// Field `tile_size` (spec "Tile size").
    pub fn tile_size(&self) -> u64 {
        self.tile_size.get()
    }
    /// Field `datatype` (spec "Datatype").
    pub fn datatype(&self) -> u8 {
        self.datatype
    }
    /// Field `cell_size` (spec "Cell size").
    pub fn cell_size(&self) -> u64 {
        self.cell_size.get()
    }
    /// Field `encryption_type` (spec "Encryption type").
    pub fn encryption_type(&self) -> u8 {
        self.encryption_type
    }
    /// Field `filter_pipeline_size` (spec "Filter pipeline size").
    pub fn filter_pipeline_size(&self) -> u32 {
        self.filter_pipeline_size.get()
    }
}
/// The view is exactly its fields: `size_of::<GenericTileHeaderRef>()` is
/// [`GenericTileHeaderRef::SIZE`] (else this does not compile).
const _: [(); GenericTileHeaderRef::SIZE] = [(); core::mem::size_of::<
    GenericTileHeaderRef,
>()];
impl crate::Record for GenericTileHeader {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self.version_number = version as u32;
        let x = core::mem::take(&mut self.filter_pipeline);
        self.filter_pipeline = x.at_version(version);
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.filter_pipeline);
        self.filter_pipeline = x.with_sizes();
        self.filter_pipeline_size = crate::decode::encode_unchecked(
                &self.filter_pipeline,
            )
            .len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let version = Some(self.version_number as u32);
        {
            let x = &self.filter_pipeline;
            x.check(version)?;
        }
        if let Some(stated) = Some(self.filter_pipeline_size) {
            let actual = crate::decode::encode_unchecked(&self.filter_pipeline).len()
                as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "GenericTileHeader",
                        "filter_pipeline_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl GenericTileHeader {
    /// Sets the sizes a `GenericTileHeader` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `persisted_size` of `persisted`: The tile as stored: the filtered `Tile`, written right after the header.
    /// * `tile_size` of `unfiltered`: The tile's data before its filters (what a reader gets back); not stored.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        persisted: &[u8],
        unfiltered: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = persisted.len() as u64;
        self.persisted_size = n as u64;
        if self.persisted_size as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "GenericTileHeader",
                    "persisted_size",
                    self.persisted_size as u64,
                    n,
                ),
            );
        }
        let n = unfiltered.len() as u64;
        self.tile_size = n as u64;
        if self.tile_size as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "GenericTileHeader",
                    "tile_size",
                    self.tile_size as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `GenericTileHeader` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        persisted: &[u8],
        unfiltered: &[u8],
    ) -> Result<(), crate::EncodeError> {
        let n = persisted.len() as u64;
        if self.persisted_size as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "GenericTileHeader",
                    "persisted_size",
                    self.persisted_size as u64,
                    n,
                ),
            );
        }
        let n = unfiltered.len() as u64;
        if self.tile_size as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "GenericTileHeader",
                    "tile_size",
                    self.tile_size as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
