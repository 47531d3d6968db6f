// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

impl crate::Record for OptionalSection {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.data_size = self.data.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.data_size),
            Some(self.data.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "OptionalSection",
                        "data_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Payload of optional section 0 (sparse fragments): per dimension the offset of
/// the generic tile with the tiles' global-order minimum coordinates, then the
/// same for the maxima. The engine requires a data size of exactly
/// 2 * D * 8 bytes. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-global-order` (table "Tile global order").
#[binrw::binrw]
#[brw(little)]
#[br(import(num_dims: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileGlobalOrderBounds {
    /// Spec field "Tile global order min coordinates offset for dimension 1 … N" (`list<u64>`).
    #[br(err_context("TileGlobalOrderBounds.min_offsets"), parse_with = rt::list, args((num_dims) as u64, 8, (), "TileGlobalOrderBounds", "min_offsets"))]
    pub min_offsets: Vec<u64>,
    /// Spec field "Tile global order max coordinates offset for dimension 1 … N" (`list<u64>`).
    #[br(err_context("TileGlobalOrderBounds.max_offsets"), parse_with = rt::list, args((num_dims) as u64, 8, (), "TileGlobalOrderBounds", "max_offsets"))]
    pub max_offsets: Vec<u64>,
}
impl TileGlobalOrderBounds {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-global-order";
}
impl TileGlobalOrderBounds {
    /// Where field `min_offsets` (spec "Tile global order min coordinates offset for dimension 1 … N") starts in a `TileGlobalOrderBounds`.
    pub const OFFSET_MIN_OFFSETS: usize = 0;
    /// Bytes of a `TileGlobalOrderBounds` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num_dims: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(((num_dims) as u64).checked_mul(8u64)?)?;
        __len = __len.checked_add(((num_dims) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
    /// Where field `max_offsets` (spec "Tile global order max coordinates offset for dimension 1 … N") starts in a `TileGlobalOrderBounds` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_max_offsets(num_dims: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(((num_dims) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
impl crate::Record for TileGlobalOrderBounds {
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
/// Where the parts a `TileGlobalOrderBounds` points at start in its file, measured as a
/// writer appends them with the `push_*` methods, in the file's order;
/// [`TileGlobalOrderBounds::with_outside_offsets`] sets the record's offsets from it:
///
/// * `min_tiles`, one after another (`min_offsets`): Per dimension, the generic tile (`TileMinMax`) of the tiles' global-order minimum coordinates, in the metadata file after the tile maxes.
/// * `max_tiles`, one after another (`max_offsets`): Per dimension, the generic tile of the maxima, after the minima.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TileGlobalOrderBoundsParts {
    min_tiles: alloc::vec::Vec<u64>,
    max_tiles: alloc::vec::Vec<u64>,
}
impl TileGlobalOrderBoundsParts {
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `min_tiles`: Per dimension, the generic tile (`TileMinMax`) of the tiles' global-order minimum coordinates, in the metadata file after the tile maxes. Gives where it starts.
    pub fn push_min_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.min_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `max_tiles`: Per dimension, the generic tile of the maxima, after the minima. Gives where it starts.
    pub fn push_max_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.max_tiles.push(at);
        at
    }
}
impl TileGlobalOrderBounds {
    /// Sets the offsets a `TileGlobalOrderBounds` states of the parts of its file from
    /// where `parts` measured them (the fields its version or conditions
    /// lack stay absent).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) naming the part when
    /// the record points at one that was not appended, or lacks the field
    /// of one that was; [`EncodeError::Offset`](crate::EncodeError::Offset)
    /// when an offset does not fit its field.
    pub fn with_outside_offsets(
        mut self,
        parts: &TileGlobalOrderBoundsParts,
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.min_tiles.len());
            for &at in &parts.min_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "TileGlobalOrderBounds",
                            "min_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.min_offsets = l;
        }
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.max_tiles.len());
            for &at in &parts.max_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "TileGlobalOrderBounds",
                            "max_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.max_offsets = l;
        }
        Ok(self)
    }
    /// Whether the offsets a `TileGlobalOrderBounds` states are where `parts` measured
    /// the parts of its file ([`with_outside_offsets`](Self::with_outside_offsets)).
    ///
    /// # Errors
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// field that disagrees (for a list, first its length, then each
    /// offset); [`EncodeError::Part`](crate::EncodeError::Part) when the
    /// record and the parts disagree on whether a part is there.
    pub fn check_outside_offsets(
        &self,
        parts: &TileGlobalOrderBoundsParts,
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.min_offsets;
            if l.len() != parts.min_tiles.len() {
                return Err(
                    crate::EncodeError::offset(
                        "TileGlobalOrderBounds",
                        "min_offsets",
                        l.len() as u64,
                        parts.min_tiles.len() as u64,
                    ),
                );
            }
            for (v, &at) in l.iter().zip(&parts.min_tiles) {
                if *v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "TileGlobalOrderBounds",
                            "min_offsets",
                            *v as u64,
                            at,
                        ),
                    );
                }
            }
        }
        {
            let l = &self.max_offsets;
            if l.len() != parts.max_tiles.len() {
                return Err(
                    crate::EncodeError::offset(
                        "TileGlobalOrderBounds",
                        "max_offsets",
                        l.len() as u64,
                        parts.max_tiles.len() as u64,
                    ),
                );
            }
            for (v, &at) in l.iter().zip(&parts.max_tiles) {
                if *v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "TileGlobalOrderBounds",
                            "max_offsets",
                            *v as u64,
                            at,
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
/// The R-tree generic tile; `version` is the footer's version. Levels run from
/// the root to the leaves (one leaf MBR per sparse tile); a dense fragment has
/// no levels. Before version 5 every dimension has the domain's coordinate size
/// and the caller passes `dims` so. The spec page does not say that the levels
/// are stored root first; otherwise it matches the engine (tiledb/sm/rtree/rtree.cc).
///
/// Spec: `format_spec/fragment.md#r-tree` (table "R-Tree").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32, dims: rt::Dims))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RTree {
    /// Spec field "Dimension number" (`u32`). Removed in version 5.
    #[br(err_context("RTree.dim_num"), if((version) < 5))]
    pub dim_num: Option<u32>,
    /// Spec field "Fanout" (`u32`).
    #[br(err_context("RTree.fanout"))]
    pub fanout: u32,
    /// Spec field "Datatype" (`u8`, values from [`Datatype`]). Removed in version 5.
    #[br(err_context("RTree.datatype"), if((version) < 5))]
    pub datatype: Option<Datatype>,
    /// Spec field "Num levels" (`u32`).
    #[br(err_context("RTree.num_levels"))]
    pub num_levels: u32,
    /// Spec field "Num MBRs at level 1 … MBR N at level L" (`list<RTreeLevel>`).
    #[br(err_context("RTree.levels"), parse_with = rt::list, args((num_levels) as u64, 1, (dims,), "RTree", "levels"))]
    pub levels: Vec<RTreeLevel>,
}
impl RTree {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#r-tree";
}
impl RTree {
    /// Where field `dim_num` (spec "Dimension number") starts in a `RTree`.
    pub const OFFSET_DIM_NUM: usize = 0;
}
impl crate::Record for RTree {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        if version < 5 {
            if self.dim_num.is_none() {
                self.dim_num = Some(Default::default());
            }
        } else {
            self.dim_num = None;
        }
        if version < 5 {
            if self.datatype.is_none() {
                self.datatype = Some(Default::default());
            }
        } else {
            self.datatype = None;
        }
        let x = core::mem::take(&mut self.levels);
        self.levels = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.levels);
        self.levels = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_levels = self.levels.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        if let Some(v) = version {
            if (v < 5) != self.dim_num.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "RTree",
                        "dim_num",
                        v,
                        self.dim_num.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v < 5) != self.datatype.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "RTree",
                        "datatype",
                        v,
                        self.datatype.is_some(),
                    ),
                );
            }
        }
        {
            let x = &self.levels;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_levels),
            Some(self.levels.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RTree",
                        "num_levels",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One level of the R-tree: its MBR count and MBRs. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#r-tree` (table "R-Tree").
#[binrw::binrw]
#[brw(little)]
#[br(import(dims: rt::Dims))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RTreeLevel {
    /// Spec field "Num MBRs at level" (`u64`).
    #[br(err_context("RTreeLevel.num_mbrs"))]
    pub num_mbrs: u64,
    /// Spec field "MBR 1 … MBR N at level" (`list<Mbr>`).
    #[br(err_context("RTreeLevel.mbrs"), parse_with = rt::list, args((num_mbrs) as u64, 1, (dims,), "RTreeLevel", "mbrs"))]
    pub mbrs: Vec<Mbr>,
}
impl RTreeLevel {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#r-tree";
}
impl RTreeLevel {
    /// Where field `num_mbrs` (spec "Num MBRs at level") starts in a `RTreeLevel`.
    pub const OFFSET_NUM_MBRS: usize = 0;
    /// Where field `mbrs` (spec "MBR 1 … MBR N at level") starts in a `RTreeLevel`.
    pub const OFFSET_MBRS: usize = 8;
    /// Bytes of a `RTreeLevel` with these imports
    /// and the values of its fields
    /// `num_mbrs`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(dims: rt::Dims, num_mbrs: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len
            .checked_add(((num_mbrs) as u64).checked_mul(Mbr::size((dims).clone())?)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `RTreeLevel` borrowed in place: the
/// fields before `mbrs`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`RTreeLevelRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct RTreeLevelRef {
    /// Field `num_mbrs` as stored (spec "Num MBRs at level").
    pub num_mbrs: zerocopy::byteorder::little_endian::U64,
}
impl RTreeLevelRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`RTreeLevelRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_mbrs` (spec "Num MBRs at level").
    pub fn num_mbrs(&self) -> u64 {
        self.num_mbrs.get()
    }
}
/// The view is exactly its fields: `size_of::<RTreeLevelRef>()` is
/// [`RTreeLevelRef::SIZE`] (else this does not compile).
const _: [(); RTreeLevelRef::SIZE] = [(); core::mem::size_of::<RTreeLevelRef>()];
impl crate::Record for RTreeLevel {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.mbrs);
        self.mbrs = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.mbrs);
        self.mbrs = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_mbrs = self.mbrs.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.mbrs;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_mbrs),
            Some(self.mbrs.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RTreeLevel",
                        "num_mbrs",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// A count and that many u64: the layout of the tile offsets, var tile offsets
/// and validity tile offsets generic tiles. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-offsets` (table "Tile Offsets").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileOffsets {
    /// Spec field "Num tile offsets" (`u64`).
    #[br(err_context("TileOffsets.num"))]
    pub num: u64,
    /// Spec field "Tile offset 1 … N" (`list<u64>`).
    #[br(err_context("TileOffsets.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileOffsets", "values"))]
    pub values: Vec<u64>,
}
impl TileOffsets {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-offsets";
}
impl TileOffsets {
    /// Where field `num` (spec "Num tile offsets") starts in a `TileOffsets`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Tile offset 1 … N") starts in a `TileOffsets`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileOffsets` with these imports
    /// and the values of its fields
    /// `num`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(((num) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileOffsets` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileOffsetsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileOffsetsRef {
    /// Field `num` as stored (spec "Num tile offsets").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileOffsetsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileOffsetsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num tile offsets").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileOffsetsRef>()` is
/// [`TileOffsetsRef::SIZE`] (else this does not compile).
const _: [(); TileOffsetsRef::SIZE] = [(); core::mem::size_of::<TileOffsetsRef>()];
impl crate::Record for TileOffsets {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num = self.values.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.values.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size("TileOffsets", "num", stated as u64, actual),
                );
            }
        }
        Ok(())
    }
}
/// Where the parts a `TileOffsets` points at start in its file, measured as a
/// writer appends them with the `push_*` methods, in the file's order;
/// [`TileOffsets::with_outside_offsets`] sets the record's offsets from it:
///
/// * `tiles`, one after another (`values`): The filtered tiles of one field's data file (fixed, var or validity), one after another, streamed to the disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TileOffsetsParts {
    tiles: alloc::vec::Vec<u64>,
}
impl TileOffsetsParts {
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tiles`: The filtered tiles of one field's data file (fixed, var or validity), one after another, streamed to the disk. Gives where it starts.
    pub fn push_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tiles.push(at);
        at
    }
}
impl TileOffsets {
    /// Sets the offsets a `TileOffsets` states of the parts of its file from
    /// where `parts` measured them (the fields its version or conditions
    /// lack stay absent).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) naming the part when
    /// the record points at one that was not appended, or lacks the field
    /// of one that was; [`EncodeError::Offset`](crate::EncodeError::Offset)
    /// when an offset does not fit its field.
    pub fn with_outside_offsets(
        mut self,
        parts: &TileOffsetsParts,
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.tiles.len());
            for &at in &parts.tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset("TileOffsets", "values", v as u64, at),
                    );
                }
                l.push(v);
            }
            self.values = l;
        }
        Ok(self)
    }
    /// Whether the offsets a `TileOffsets` states are where `parts` measured
    /// the parts of its file ([`with_outside_offsets`](Self::with_outside_offsets)).
    ///
    /// # Errors
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// field that disagrees (for a list, first its length, then each
    /// offset); [`EncodeError::Part`](crate::EncodeError::Part) when the
    /// record and the parts disagree on whether a part is there.
    pub fn check_outside_offsets(
        &self,
        parts: &TileOffsetsParts,
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.values;
            if l.len() != parts.tiles.len() {
                return Err(
                    crate::EncodeError::offset(
                        "TileOffsets",
                        "values",
                        l.len() as u64,
                        parts.tiles.len() as u64,
                    ),
                );
            }
            for (v, &at) in l.iter().zip(&parts.tiles) {
                if *v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "TileOffsets",
                            "values",
                            *v as u64,
                            at,
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
/// A count and that many u64: the var tile sizes generic tile of one field,
/// each var tile's size before filtering (the tile var offsets of the same
/// field say where its filtered bytes start). The layout of `TileOffsets`.
/// Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-sizes` (table "Tile Sizes").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileSizes {
    /// Spec field "Num tile sizes" (`u64`).
    #[br(err_context("TileSizes.num"))]
    pub num: u64,
    /// Spec field "Tile size 1 … N" (`list<u64>`).
    #[br(err_context("TileSizes.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileSizes", "values"))]
    pub values: Vec<u64>,
}
impl TileSizes {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-sizes";
}
impl TileSizes {
    /// Where field `num` (spec "Num tile sizes") starts in a `TileSizes`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Tile size 1 … N") starts in a `TileSizes`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileSizes` with these imports
    /// and the values of its fields
    /// `num`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(((num) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileSizes` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileSizesRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileSizesRef {
    /// Field `num` as stored (spec "Num tile sizes").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileSizesRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileSizesRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num tile sizes").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileSizesRef>()` is
/// [`TileSizesRef::SIZE`] (else this does not compile).
const _: [(); TileSizesRef::SIZE] = [(); core::mem::size_of::<TileSizesRef>()];
impl crate::Record for TileSizes {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num = self.values.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.values.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size("TileSizes", "num", stated as u64, actual),
                );
            }
        }
        Ok(())
    }
}
impl TileSizes {
    /// Sets the sizes a `TileSizes` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `values` of each file of `var_tiles`: The field's var tiles before filtering, each measured as it is filtered (its bytes are not kept).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        var_tiles: &[impl crate::PartFile],
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(var_tiles.len());
            for p in var_tiles {
                let n = p.end();
                let v = n as u64;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size("TileSizes", "values", v as u64, n),
                    );
                }
                l.push(v);
            }
            self.values = l;
        }
        Ok(self)
    }
    /// Whether the sizes a `TileSizes` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        var_tiles: &[impl crate::PartFile],
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.values;
            {
                let n = var_tiles.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "TileSizes",
                            "values",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(var_tiles) {
                let n = p.end();
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size("TileSizes", "values", *v as u64, n),
                    );
                }
            }
        }
        Ok(())
    }
}
/// The tile mins or tile maxes generic tile of one field, as the engine writes
/// it. The spec page shows a value count, the values, then the var buffer
/// size and buffer; the engine writes the byte size of the fixed buffer, the
/// byte size of the var buffer, then the fixed bytes, then the var bytes. For a
/// var-sized field the fixed buffer holds one u64 offset into the var buffer per
/// tile; a field without min/max metadata has both sizes 0. The engine also
/// writes global-order min/max tiles in this layout (version 23, sparse, one
/// per dimension), which the spec's file layout omits.
///
/// Spec: `format_spec/fragment.md#tile-mins-maxes` (table "Tile Mins Maxes").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileMinMax {
    /// Spec field "Num values" (`u64`).
    ///
    /// Byte size of the fixed buffer (the spec page says a value count).
    #[br(err_context("TileMinMax.fixed_size"))]
    pub fixed_size: u64,
    /// Spec field "Var buffer size" (`u64`).
    #[br(err_context("TileMinMax.var_size"))]
    pub var_size: u64,
    /// Spec field "Value 1 … Value N" (`bytes`).
    ///
    /// The values, or, of a var-sized field, where each starts in `var`.
    #[br(err_context("TileMinMax.fixed"), parse_with = rt::bytes, args((fixed_size) as u64, "TileMinMax", "fixed"))]
    pub fixed: Vec<u8>,
    /// Spec field "Var buffer" (`bytes`).
    ///
    /// A var-sized field's values joined (empty otherwise).
    #[br(err_context("TileMinMax.var"), parse_with = rt::bytes, args((var_size) as u64, "TileMinMax", "var"))]
    pub var: Vec<u8>,
}
impl TileMinMax {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-mins-maxes";
}
impl TileMinMax {
    /// Where field `fixed_size` (spec "Num values") starts in a `TileMinMax`.
    pub const OFFSET_FIXED_SIZE: usize = 0;
    /// Where field `var_size` (spec "Var buffer size") starts in a `TileMinMax`.
    pub const OFFSET_VAR_SIZE: usize = 8;
    /// Where field `fixed` (spec "Value 1 … Value N") starts in a `TileMinMax`.
    pub const OFFSET_FIXED: usize = 16;
    /// Bytes of a `TileMinMax` with these imports
    /// and the values of its fields
    /// `fixed_size`, `var_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(fixed_size: u64, var_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((fixed_size) as u64)?;
        __len = __len.checked_add((var_size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileMinMax` borrowed in place: the
/// fields before `fixed`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileMinMaxRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileMinMaxRef {
    /// Field `fixed_size` as stored (spec "Num values").
    pub fixed_size: zerocopy::byteorder::little_endian::U64,
    /// Field `var_size` as stored (spec "Var buffer size").
    pub var_size: zerocopy::byteorder::little_endian::U64,
}
impl TileMinMaxRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 16;
    /// The view of the first [`TileMinMaxRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `fixed_size` (spec "Num values").
    pub fn fixed_size(&self) -> u64 {
        self.fixed_size.get()
    }
    /// Field `var_size` (spec "Var buffer size").
    pub fn var_size(&self) -> u64 {
        self.var_size.get()
    }
    /// Field `fixed` (spec "Value 1 … Value N") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn fixed<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let fixed_size = self.fixed_size();
        let len = usize::try_from((fixed_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<TileMinMaxRef>()` is
/// [`TileMinMaxRef::SIZE`] (else this does not compile).
const _: [(); TileMinMaxRef::SIZE] = [(); core::mem::size_of::<TileMinMaxRef>()];
impl crate::Record for TileMinMax {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.fixed_size = self.fixed.len() as u64;
        self.var_size = self.var.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.fixed_size),
            Some(self.fixed.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "TileMinMax",
                        "fixed_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.var_size),
            Some(self.var.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "TileMinMax",
                        "var_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
