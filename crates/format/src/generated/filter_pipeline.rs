// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Spec: `format_spec/filter_pipeline.md#main-structure` (table "Main Structure").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FilterPipeline {
    /// Spec field "Max chunk size" (`u32`).
    #[br(err_context("FilterPipeline.max_chunk_size"))]
    pub max_chunk_size: u32,
    /// Spec field "Num filters" (`u32`).
    #[br(err_context("FilterPipeline.num_filters"))]
    pub num_filters: u32,
    /// Spec field "Filter 1 … Filter N" (`list<Filter>`).
    #[br(err_context("FilterPipeline.filters"), parse_with = rt::list, args((num_filters) as u64, 1, (version,), "FilterPipeline", "filters"))]
    pub filters: Vec<Filter>,
}
impl FilterPipeline {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#main-structure";
}
impl FilterPipeline {
    /// Where field `max_chunk_size` (spec "Max chunk size") starts in a `FilterPipeline`.
    pub const OFFSET_MAX_CHUNK_SIZE: usize = 0;
    /// Where field `num_filters` (spec "Num filters") starts in a `FilterPipeline`.
    pub const OFFSET_NUM_FILTERS: usize = 4;
    /// Where field `filters` (spec "Filter 1 … Filter N") starts in a `FilterPipeline`.
    pub const OFFSET_FILTERS: usize = 8;
}
/// The fixed-size fields that open a `FilterPipeline` borrowed in place: the
/// fields before `filters`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FilterPipelineRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FilterPipelineRef {
    /// Field `max_chunk_size` as stored (spec "Max chunk size").
    pub max_chunk_size: zerocopy::byteorder::little_endian::U32,
    /// Field `num_filters` as stored (spec "Num filters").
    pub num_filters: zerocopy::byteorder::little_endian::U32,
}
impl FilterPipelineRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`FilterPipelineRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `max_chunk_size` (spec "Max chunk size").
    pub fn max_chunk_size(&self) -> u32 {
        self.max_chunk_size.get()
    }
    /// Field `num_filters` (spec "Num filters").
    pub fn num_filters(&self) -> u32 {
        self.num_filters.get()
    }
}
/// The view is exactly its fields: `size_of::<FilterPipelineRef>()` is
/// [`FilterPipelineRef::SIZE`] (else this does not compile).
const _: [(); FilterPipelineRef::SIZE] = [(); core::mem::size_of::<FilterPipelineRef>()];
impl crate::Record for FilterPipeline {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.filters);
        self.filters = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.filters);
        self.filters = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_filters = self.filters.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.filters;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_filters),
            Some(self.filters.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FilterPipeline",
                        "num_filters",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Spec: `format_spec/filter_pipeline.md#filter` (table "Filter").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Filter {
    /// Spec field "Filter type" (`u8`, values from [`FilterType`]).
    #[br(err_context("Filter.filter_type"))]
    pub filter_type: FilterType,
    /// Spec field "Filter options size" (`u32`).
    #[br(err_context("Filter.filter_options_size"))]
    pub filter_options_size: u32,
    /// Spec field "Filter options" (`FilterOptions`).
    #[br(err_context("Filter.filter_options"), args(filter_type, version))]
    pub filter_options: FilterOptions,
}
impl Filter {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#filter";
}
impl Filter {
    /// Where field `filter_type` (spec "Filter type") starts in a `Filter`.
    pub const OFFSET_FILTER_TYPE: usize = 0;
    /// Where field `filter_options_size` (spec "Filter options size") starts in a `Filter`.
    pub const OFFSET_FILTER_OPTIONS_SIZE: usize = 1;
    /// Where field `filter_options` (spec "Filter options") starts in a `Filter`.
    pub const OFFSET_FILTER_OPTIONS: usize = 5;
}
/// The fixed-size fields that open a `Filter` borrowed in place: the
/// fields before `filter_options`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FilterRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FilterRef {
    /// Field `filter_type` as stored (spec "Filter type").
    pub filter_type: u8,
    /// Field `filter_options_size` as stored (spec "Filter options size").
    pub filter_options_size: zerocopy::byteorder::little_endian::U32,
}
impl FilterRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 5;
    /// The view of the first [`FilterRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `filter_type` (spec "Filter type").
    pub fn filter_type(&self) -> u8 {
        self.filter_type
    }
    /// Field `filter_options_size` (spec "Filter options size").
    pub fn filter_options_size(&self) -> u32 {
        self.filter_options_size.get()
    }
}
/// The view is exactly its fields: `size_of::<FilterRef>()` is
/// [`FilterRef::SIZE`] (else this does not compile).
const _: [(); FilterRef::SIZE] = [(); core::mem::size_of::<FilterRef>()];
impl crate::Record for Filter {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.filter_options);
        self.filter_options = x.at_version(version);
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.filter_options);
        self.filter_options = x.with_sizes();
        self.filter_options_size = crate::decode::encode_unchecked(&self.filter_options)
            .len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.filter_options;
            x.check(version)?;
        }
        if let Some(stated) = Some(self.filter_options_size) {
            let actual = crate::decode::encode_unchecked(&self.filter_options).len()
                as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Filter",
                        "filter_options_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Main compressor options, and the delta compressor options (the same two
/// fields, then the reinterpret datatype: DELTA from version 19, DOUBLE_DELTA
/// from version 20).
///
/// Spec: `format_spec/filter_pipeline.md#main-compressor-options` (table "Main Compressor Options").
#[binrw::binrw]
#[brw(little)]
#[br(import(filter_type: FilterType, version: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CompressorOptions {
    /// Spec field "Compressor type" (`u8`, values from [`Compressor`]).
    #[br(err_context("CompressorOptions.compressor_type"))]
    pub compressor_type: Compressor,
    /// Spec field "Compression level" (`i32`).
    #[br(err_context("CompressorOptions.compression_level"))]
    pub compression_level: i32,
    /// Spec field "Reinterpret datatype" (`u8`, values from [`Datatype`]).
    #[br(err_context("CompressorOptions.reinterpret_datatype"), if(((rt::pick((version) >= 19, filter_type == FilterType::Delta, false)) || (rt::pick((version) >= 20, filter_type == FilterType::DoubleDelta, false)))))]
    pub reinterpret_datatype: Option<Datatype>,
}
impl CompressorOptions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#main-compressor-options";
}
impl CompressorOptions {
    /// Where field `compressor_type` (spec "Compressor type") starts in a `CompressorOptions`.
    pub const OFFSET_COMPRESSOR_TYPE: usize = 0;
    /// Where field `compression_level` (spec "Compression level") starts in a `CompressorOptions`.
    pub const OFFSET_COMPRESSION_LEVEL: usize = 1;
    /// Where field `reinterpret_datatype` (spec "Reinterpret datatype") starts in a `CompressorOptions`.
    pub const OFFSET_REINTERPRET_DATATYPE: usize = 5;
    /// Bytes of a `CompressorOptions` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(filter_type: FilterType, version: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(4)?;
        if ((rt::pick((version) >= 19, filter_type == FilterType::Delta, false))
            || (rt::pick(
                (version) >= 20,
                filter_type == FilterType::DoubleDelta,
                false,
            )))
        {
            __len = __len.checked_add(1)?;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `CompressorOptions` borrowed in place: the
/// fields before `reinterpret_datatype`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`CompressorOptionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct CompressorOptionsRef {
    /// Field `compressor_type` as stored (spec "Compressor type").
    pub compressor_type: u8,
    /// Field `compression_level` as stored (spec "Compression level").
    pub compression_level: zerocopy::byteorder::little_endian::I32,
}
impl CompressorOptionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 5;
    /// The view of the first [`CompressorOptionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `compressor_type` (spec "Compressor type").
    pub fn compressor_type(&self) -> u8 {
        self.compressor_type
    }
    /// Field `compression_level` (spec "Compression level").
    pub fn compression_level(&self) -> i32 {
        self.compression_level.get()
    }
}
/// The view is exactly its fields: `size_of::<CompressorOptionsRef>()` is
/// [`CompressorOptionsRef::SIZE`] (else this does not compile).
const _: [(); CompressorOptionsRef::SIZE] = [(); core::mem::size_of::<
    CompressorOptionsRef,
>()];
impl crate::Record for CompressorOptions {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        Ok(())
    }
}
/// Spec: `format_spec/filter_pipeline.md#bit-width-reduction-options` (table "Bit-width Reduction Options").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct BitWidthReductionOptions {
    /// Spec field "Max window size" (`u32`).
    #[br(err_context("BitWidthReductionOptions.max_window_size"))]
    pub max_window_size: u32,
}
impl BitWidthReductionOptions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#bit-width-reduction-options";
}
impl BitWidthReductionOptions {
    /// Bytes of one `BitWidthReductionOptions`: every field has a fixed size.
    pub const SIZE: usize = 4;
    /// Where field `max_window_size` (spec "Max window size") starts in a `BitWidthReductionOptions`.
    pub const OFFSET_MAX_WINDOW_SIZE: usize = 0;
}
/// A `BitWidthReductionOptions` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`BitWidthReductionOptionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct BitWidthReductionOptionsRef {
    /// Field `max_window_size` as stored (spec "Max window size").
    pub max_window_size: zerocopy::byteorder::little_endian::U32,
}
impl BitWidthReductionOptionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`BitWidthReductionOptionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `max_window_size` (spec "Max window size").
    pub fn max_window_size(&self) -> u32 {
        self.max_window_size.get()
    }
    /// The owned `BitWidthReductionOptions` (the binrw struct) with the same values.
    pub fn record(&self) -> BitWidthReductionOptions {
        BitWidthReductionOptions {
            max_window_size: self.max_window_size(),
        }
    }
}
/// The view is exactly its fields: `size_of::<BitWidthReductionOptionsRef>()` is
/// [`BitWidthReductionOptionsRef::SIZE`] (else this does not compile).
const _: [(); BitWidthReductionOptionsRef::SIZE] = [(); core::mem::size_of::<
    BitWidthReductionOptionsRef,
>()];
impl crate::Record for BitWidthReductionOptions {
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
/// Spec: `format_spec/filter_pipeline.md#positive-delta-options` (table "Positive Delta Options").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct PositiveDeltaOptions {
    /// Spec field "Max window size" (`u32`).
    #[br(err_context("PositiveDeltaOptions.max_window_size"))]
    pub max_window_size: u32,
}
impl PositiveDeltaOptions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#positive-delta-options";
}
impl PositiveDeltaOptions {
    /// Bytes of one `PositiveDeltaOptions`: every field has a fixed size.
    pub const SIZE: usize = 4;
    /// Where field `max_window_size` (spec "Max window size") starts in a `PositiveDeltaOptions`.
    pub const OFFSET_MAX_WINDOW_SIZE: usize = 0;
}
/// A `PositiveDeltaOptions` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`PositiveDeltaOptionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct PositiveDeltaOptionsRef {
    /// Field `max_window_size` as stored (spec "Max window size").
    pub max_window_size: zerocopy::byteorder::little_endian::U32,
}
impl PositiveDeltaOptionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`PositiveDeltaOptionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `max_window_size` (spec "Max window size").
    pub fn max_window_size(&self) -> u32 {
        self.max_window_size.get()
    }
    /// The owned `PositiveDeltaOptions` (the binrw struct) with the same values.
    pub fn record(&self) -> PositiveDeltaOptions {
        PositiveDeltaOptions {
            max_window_size: self.max_window_size(),
        }
    }
}
/// The view is exactly its fields: `size_of::<PositiveDeltaOptionsRef>()` is
/// [`PositiveDeltaOptionsRef::SIZE`] (else this does not compile).
const _: [(); PositiveDeltaOptionsRef::SIZE] = [(); core::mem::size_of::<
    PositiveDeltaOptionsRef,
>()];
impl crate::Record for PositiveDeltaOptions {
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
/// Spec: `format_spec/filter_pipeline.md#float-scale-filter-reduction-options` (table "Float Scale Filter Reduction Options").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FloatScaleOptions {
    /// Spec field "Scale" (`f64`).
    #[br(err_context("FloatScaleOptions.scale"))]
    pub scale: f64,
    /// Spec field "Offset" (`f64`).
    #[br(err_context("FloatScaleOptions.offset"))]
    pub offset: f64,
    /// Spec field "Byte width" (`u64`).
    #[br(err_context("FloatScaleOptions.byte_width"))]
    pub byte_width: u64,
}
impl FloatScaleOptions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#float-scale-filter-reduction-options";
}
impl FloatScaleOptions {
    /// Bytes of one `FloatScaleOptions`: every field has a fixed size.
    pub const SIZE: usize = 24;
    /// Where field `scale` (spec "Scale") starts in a `FloatScaleOptions`.
    pub const OFFSET_SCALE: usize = 0;
    /// Where field `offset` (spec "Offset") starts in a `FloatScaleOptions`.
    pub const OFFSET_OFFSET: usize = 8;
    /// Where field `byte_width` (spec "Byte width") starts in a `FloatScaleOptions`.
    pub const OFFSET_BYTE_WIDTH: usize = 16;
}
/// A `FloatScaleOptions` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FloatScaleOptionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FloatScaleOptionsRef {
    /// Field `scale` as stored (spec "Scale").
    pub scale: zerocopy::byteorder::little_endian::F64,
    /// Field `offset` as stored (spec "Offset").
    pub offset: zerocopy::byteorder::little_endian::F64,
    /// Field `byte_width` as stored (spec "Byte width").
    pub byte_width: zerocopy::byteorder::little_endian::U64,
}
impl FloatScaleOptionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 24;
    /// The view of the first [`FloatScaleOptionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `scale` (spec "Scale").
    pub fn scale(&self) -> f64 {
        self.scale.get()
    }
    /// Field `offset` (spec "Offset").
    pub fn offset(&self) -> f64 {
        self.offset.get()
    }
    /// Field `byte_width` (spec "Byte width").
    pub fn byte_width(&self) -> u64 {
        self.byte_width.get()
    }
    /// The owned `FloatScaleOptions` (the binrw struct) with the same values.
    pub fn record(&self) -> FloatScaleOptions {
        FloatScaleOptions {
            scale: self.scale(),
            offset: self.offset(),
            byte_width: self.byte_width(),
        }
    }
}
/// The view is exactly its fields: `size_of::<FloatScaleOptionsRef>()` is
/// [`FloatScaleOptionsRef::SIZE`] (else this does not compile).
const _: [(); FloatScaleOptionsRef::SIZE] = [(); core::mem::size_of::<
    FloatScaleOptionsRef,
>()];
impl crate::Record for FloatScaleOptions {
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
/// Not in the spec's tables: the engine writes its in-memory configuration
/// struct as is (tiledb/sm/filter/webp_filter.h, FilterConfig): 12 bytes with
/// two bytes of trailing padding.
///
/// Spec: `format_spec/filter_pipeline.md#filters/webp.md` (table "WEBP options").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct WebpOptions {
    /// Spec field "Quality" (`f32`).
    #[br(err_context("WebpOptions.quality"))]
    pub quality: f32,
    /// Spec field "Input format" (`u8`, values from [`WebpInputFormat`]).
    #[br(err_context("WebpOptions.input_format"))]
    pub input_format: WebpInputFormat,
    /// Spec field "Lossless" (`bool`).
    #[br(err_context("WebpOptions.lossless"))]
    pub lossless: u8,
    /// Spec field "Y extent" (`u16`).
    #[br(err_context("WebpOptions.y_extent"))]
    pub y_extent: u16,
    /// Spec field "X extent" (`u16`).
    #[br(err_context("WebpOptions.x_extent"))]
    pub x_extent: u16,
    /// Spec field "Padding" (`bytes`).
    #[br(err_context("WebpOptions.padding"), parse_with = rt::bytes, args((2) as u64, "WebpOptions", "padding"))]
    pub padding: Vec<u8>,
}
impl WebpOptions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#filters/webp.md";
}
impl WebpOptions {
    /// Bytes of one `WebpOptions`: every field has a fixed size.
    pub const SIZE: usize = 12;
    /// Where field `quality` (spec "Quality") starts in a `WebpOptions`.
    pub const OFFSET_QUALITY: usize = 0;
    /// Where field `input_format` (spec "Input format") starts in a `WebpOptions`.
    pub const OFFSET_INPUT_FORMAT: usize = 4;
    /// Where field `lossless` (spec "Lossless") starts in a `WebpOptions`.
    pub const OFFSET_LOSSLESS: usize = 5;
    /// Where field `y_extent` (spec "Y extent") starts in a `WebpOptions`.
    pub const OFFSET_Y_EXTENT: usize = 6;
    /// Where field `x_extent` (spec "X extent") starts in a `WebpOptions`.
    pub const OFFSET_X_EXTENT: usize = 8;
    /// Where field `padding` (spec "Padding") starts in a `WebpOptions`.
    pub const OFFSET_PADDING: usize = 10;
}
/// A `WebpOptions` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`WebpOptionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct WebpOptionsRef {
    /// Field `quality` as stored (spec "Quality").
    pub quality: zerocopy::byteorder::little_endian::F32,
    /// Field `input_format` as stored (spec "Input format").
    pub input_format: u8,
    /// Field `lossless` as stored (spec "Lossless").
    pub lossless: u8,
    /// Field `y_extent` as stored (spec "Y extent").
    pub y_extent: zerocopy::byteorder::little_endian::U16,
    /// Field `x_extent` as stored (spec "X extent").
    pub x_extent: zerocopy::byteorder::little_endian::U16,
    /// Field `padding` as stored (spec "Padding").
    pub padding: [u8; 2],
}
impl WebpOptionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`WebpOptionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `quality` (spec "Quality").
    pub fn quality(&self) -> f32 {
        self.quality.get()
    }
    /// Field `input_format` (spec "Input format").
    pub fn input_format(&self) -> u8 {
        self.input_format
    }
    /// Field `lossless` (spec "Lossless").
    pub fn lossless(&self) -> u8 {
        self.lossless
    }
    /// Field `y_extent` (spec "Y extent").
    pub fn y_extent(&self) -> u16 {
        self.y_extent.get()
    }
    /// Field `x_extent` (spec "X extent").
    pub fn x_extent(&self) -> u16 {
        self.x_extent.get()
    }
    /// Field `padding` (spec "Padding").
    pub fn padding(&self) -> &[u8; 2] {
        &self.padding
    }
    /// The owned `WebpOptions` (the binrw struct) with the same values.
    pub fn record(&self) -> WebpOptions {
        WebpOptions {
            quality: self.quality(),
            input_format: WebpInputFormat::from_raw(self.input_format()),
            lossless: self.lossless(),
            y_extent: self.y_extent(),
            x_extent: self.x_extent(),
            padding: self.padding.to_vec(),
        }
    }
}
/// The view is exactly its fields: `size_of::<WebpOptionsRef>()` is
/// [`WebpOptionsRef::SIZE`] (else this does not compile).
const _: [(); WebpOptionsRef::SIZE] = [(); core::mem::size_of::<WebpOptionsRef>()];
impl crate::Record for WebpOptions {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.padding;
            {
                let stated = (2) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size(
                            "WebpOptions",
                            "padding",
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
/// Spec: `format_spec/filter_pipeline.md#filter-options` ("Filter Options").
#[binrw::binrw]
#[brw(little)]
#[br(import(filter_type: FilterType, version: u32))]
#[br(return_unexpected_error)]
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "variant", content = "value"))]
#[non_exhaustive]
pub enum FilterOptions {
    /// GZIP, ZSTD, LZ4, RLE, BZIP2, DICTIONARY, DELTA, DOUBLE_DELTA.
    #[br(pre_assert(filter_type == FilterType::Gzip || filter_type == FilterType::Zstd || filter_type == FilterType::Lz4 || filter_type == FilterType::Rle || filter_type == FilterType::Bzip2 || filter_type == FilterType::DoubleDelta || filter_type == FilterType::Dictionary || filter_type == FilterType::Delta))]
    Compressor(#[br(args(filter_type, version))] CompressorOptions),
    /// A `BitWidthReductionOptions`; read when `filter_type == FilterType::BIT_WIDTH_REDUCTION`.
    #[br(pre_assert(filter_type == FilterType::BitWidthReduction))]
    BitWidthReduction(BitWidthReductionOptions),
    /// A `PositiveDeltaOptions`; read when `filter_type == FilterType::POSITIVE_DELTA`.
    #[br(pre_assert(filter_type == FilterType::PositiveDelta))]
    PositiveDelta(PositiveDeltaOptions),
    /// A `FloatScaleOptions`; read when `filter_type == FilterType::SCALE_FLOAT`.
    #[br(pre_assert(filter_type == FilterType::ScaleFloat))]
    FloatScale(FloatScaleOptions),
    /// A `WebpOptions`; read when `filter_type == FilterType::WEBP`.
    #[br(pre_assert(filter_type == FilterType::Webp))]
    Webp(WebpOptions),
    /// NONE, BITSHUFFLE, BYTESHUFFLE, AES_256_GCM, CHECKSUM_MD5, CHECKSUM_SHA256, XOR.
    #[br(pre_assert(filter_type == FilterType::None || filter_type == FilterType::Bitshuffle || filter_type == FilterType::Byteshuffle || filter_type == FilterType::Aes256Gcm || filter_type == FilterType::ChecksumMd5 || filter_type == FilterType::ChecksumSha256 || filter_type == FilterType::Xor))]
    NoOptions,
}
impl Default for FilterOptions {
    fn default() -> Self {
        Self::Compressor(Default::default())
    }
}
impl FilterOptions {
    /// Where the spec describes this union.
    pub const SPEC: &'static str = "format_spec/filter_pipeline.md#filter-options";
}
impl crate::Record for FilterOptions {
    fn at_version(self, version: u32) -> Self {
        let _ = version;
        #[allow(unreachable_patterns)]
        match self {
            Self::Compressor(x) => Self::Compressor(x.at_version(version)),
            Self::BitWidthReduction(x) => Self::BitWidthReduction(x.at_version(version)),
            Self::PositiveDelta(x) => Self::PositiveDelta(x.at_version(version)),
            Self::FloatScale(x) => Self::FloatScale(x.at_version(version)),
            Self::Webp(x) => Self::Webp(x.at_version(version)),
            other => other,
        }
    }
    fn with_sizes(self) -> Self {
        #[allow(unreachable_patterns)]
        match self {
            Self::Compressor(x) => Self::Compressor(x.with_sizes()),
            Self::BitWidthReduction(x) => Self::BitWidthReduction(x.with_sizes()),
            Self::PositiveDelta(x) => Self::PositiveDelta(x.with_sizes()),
            Self::FloatScale(x) => Self::FloatScale(x.with_sizes()),
            Self::Webp(x) => Self::Webp(x.with_sizes()),
            other => other,
        }
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        #[allow(unreachable_patterns)]
        match self {
            Self::Compressor(x) => x.check(version),
            Self::BitWidthReduction(x) => x.check(version),
            Self::PositiveDelta(x) => x.check(version),
            Self::FloatScale(x) => x.check(version),
            Self::Webp(x) => x.check(version),
            _ => Ok(()),
        }
    }
}
