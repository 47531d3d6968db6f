//! The typed model of a TileDB array: what its schema, fields, filters,
//! domains and metadata *are*, as Rust types.
//!
//! The generated tables of [`crate::format`] say how these are laid out on
//! disk, one format version at a time; this module says what they mean.
//! Conversions go both ways (`Schema::from_table` / `Schema::to_table`, and
//! the same for each part), and the JSON of `inspect --json` is one serde
//! mapping of this model (`json`), at the edge.
//!
//! On-disk codes do not leak here: a var-sized field has
//! [`CellValNum::Var`], not `u32::MAX`; names are `String`s; the array type
//! is an [`ArrayType`], not a byte.

use std::num::NonZeroU32;

pub use crate::format::Datatype;

/// Dense or sparse (`format_spec/array_schema.md`, "Array type").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ArrayType {
    /// Every cell of the domain exists; cells are addressed by position.
    Dense,
    /// Only the written cells exist; each carries its coordinates.
    Sparse,
}

/// A cell or tile order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Layout {
    /// Last dimension varies fastest.
    RowMajor,
    /// First dimension varies fastest.
    ColMajor,
    /// The array's global order (tile order, then cell order).
    GlobalOrder,
    /// No order.
    Unordered,
    /// Hilbert order (sparse cell order).
    Hilbert,
}

/// How many values of its datatype a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CellValNum {
    /// Exactly this many values.
    Fixed(NonZeroU32),
    /// Any number of values (offsets tell where each cell starts).
    Var,
}

/// A closed interval `[start, end]`, as TileDB's ranges and domains are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Range<T> {
    /// The first value in the range.
    pub start: T,
    /// The last value in the range (inclusive).
    pub end: T,
}

/// One value of a dimension or attribute datatype, decoded.
///
/// Dates and times are their integer counts ([`Value::Int64`]); text is
/// its bytes ([`Value::Bytes`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// INT8.
    Int8(i8),
    /// INT16.
    Int16(i16),
    /// INT32.
    Int32(i32),
    /// INT64 and every date and time datatype.
    Int64(i64),
    /// UINT8 (and BOOL as 0 or 1, CHAR as its byte).
    UInt8(u8),
    /// UINT16.
    UInt16(u16),
    /// UINT32.
    UInt32(u32),
    /// UINT64.
    UInt64(u64),
    /// FLOAT32.
    Float32(f32),
    /// FLOAT64.
    Float64(f64),
    /// Var-sized (string) values.
    Bytes(Vec<u8>),
}

/// A typed range of one dimension: a domain, a tile's MBR, a fragment's
/// non-empty domain, a current domain.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DomainRange {
    /// INT8 dimension.
    Int8(Range<i8>),
    /// INT16 dimension.
    Int16(Range<i16>),
    /// INT32 dimension.
    Int32(Range<i32>),
    /// INT64 and date/time dimensions.
    Int64(Range<i64>),
    /// UINT8 dimension.
    UInt8(Range<u8>),
    /// UINT16 dimension.
    UInt16(Range<u16>),
    /// UINT32 dimension.
    UInt32(Range<u32>),
    /// UINT64 dimension.
    UInt64(Range<u64>),
    /// FLOAT32 dimension.
    Float32(Range<f32>),
    /// FLOAT64 dimension.
    Float64(Range<f64>),
    /// STRING_ASCII dimension (var-sized).
    Bytes(Range<Vec<u8>>),
}

/// A fragment's non-empty domain: one range per dimension, in schema order.
pub type NonEmptyDomain = Vec<DomainRange>;

/// A filter of a filter pipeline, with its options.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Filter {
    /// NONE.
    None,
    /// GZIP at a compression level.
    Gzip {
        /// The compression level.
        level: i32,
    },
    /// ZSTD at a compression level.
    Zstd {
        /// The compression level.
        level: i32,
    },
    /// LZ4 at a compression level.
    Lz4 {
        /// The compression level.
        level: i32,
    },
    /// RLE.
    Rle {
        /// The compression level.
        level: i32,
    },
    /// BZIP2 at a compression level.
    Bzip2 {
        /// The compression level.
        level: i32,
    },
    /// DOUBLE_DELTA, reinterpreting its input as `reinterpret` when set.
    DoubleDelta {
        /// The compression level.
        level: i32,
        /// The datatype the input is read as, where set.
        reinterpret: Option<Datatype>,
    },
    /// DELTA, reinterpreting its input as `reinterpret` when set.
    Delta {
        /// The compression level.
        level: i32,
        /// The datatype the input is read as, where set.
        reinterpret: Option<Datatype>,
    },
    /// DICTIONARY (strings).
    Dictionary {
        /// The compression level.
        level: i32,
    },
    /// BIT_WIDTH_REDUCTION.
    BitWidthReduction {
        /// The largest window of values reduced together, in bytes.
        max_window_size: u32,
    },
    /// BITSHUFFLE.
    BitShuffle,
    /// BYTESHUFFLE.
    ByteShuffle,
    /// POSITIVE_DELTA.
    PositiveDelta {
        /// The largest window of values reduced together, in bytes.
        max_window_size: u32,
    },
    /// CHECKSUM_MD5.
    ChecksumMd5,
    /// CHECKSUM_SHA256.
    ChecksumSha256,
    /// SCALE_FLOAT.
    ScaleFloat {
        /// Values are stored as `(value - offset) / scale`.
        scale: f64,
        /// Subtracted before scaling.
        offset: f64,
        /// Bytes of each stored integer (1, 2, 4 or 8).
        byte_width: u64,
    },
    /// XOR.
    Xor,
    /// WEBP.
    Webp {
        /// Lossy quality, 0 to 100.
        quality: f32,
        /// The pixel layout of the input.
        input_format: WebpFormat,
        /// Whether to encode losslessly.
        lossless: bool,
    },
    /// AES_256_GCM (the encryption filter; the key is not stored).
    Aes256Gcm,
}

/// The pixel layout a WEBP filter expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WebpFormat {
    /// No format set.
    None,
    /// RGB.
    Rgb,
    /// BGR.
    Bgr,
    /// RGBA.
    Rgba,
    /// BGRA.
    Bgra,
}

/// A dimension of the domain.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Dimension {
    /// Its name.
    pub name: String,
    /// Its datatype.
    pub datatype: Datatype,
    /// `Fixed(1)`, or `Var` for string dimensions.
    pub cell_val_num: CellValNum,
    /// The domain; `None` for string dimensions, which have none.
    pub domain: Option<DomainRange>,
    /// The tile extent; `None` where there is none (sparse arrays may omit it).
    pub tile_extent: Option<Value>,
    /// Its own filters; `None` means the schema's coordinate filters.
    pub filters: Option<Vec<Filter>>,
}

/// An attribute.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Attribute {
    /// Its name.
    pub name: String,
    /// Its datatype.
    pub datatype: Datatype,
    /// Values per cell.
    pub cell_val_num: CellValNum,
    /// Whether cells may be null.
    pub nullable: bool,
    /// The fill value's bytes (one cell), for cells never written.
    pub fill_value: Vec<u8>,
    /// The fill value's validity (nullable attributes).
    pub fill_value_valid: bool,
    /// Its filter pipeline.
    pub filters: Vec<Filter>,
    /// The enumeration its values index, by name.
    pub enumeration: Option<String>,
}

/// An enumeration: the labels an attribute's integer values index.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Enumeration {
    /// Its name (attributes refer to it by this).
    pub name: String,
    /// Its file name in `__schema/__enumerations`.
    pub path_name: String,
    /// The datatype of its values.
    pub datatype: Datatype,
    /// Values per label.
    pub cell_val_num: CellValNum,
    /// Whether the labels are ordered (comparisons then follow them).
    pub ordered: bool,
    /// The labels, each as its bytes.
    pub values: Vec<Vec<u8>>,
}

/// A dimension label: another array that labels one dimension.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct DimensionLabel {
    /// The index of the labelled dimension.
    pub dimension: u32,
    /// The label's name.
    pub name: String,
    /// The label array's URI.
    pub uri: String,
    /// Whether `uri` is relative to the array.
    pub relative_uri: bool,
    /// The attribute of the label array holding the labels.
    pub attribute: String,
    /// Increasing or decreasing labels.
    pub order: DataOrder,
    /// The labels' datatype.
    pub datatype: Datatype,
    /// Values per label.
    pub cell_val_num: CellValNum,
    /// Whether the label array lives outside the array.
    pub external: bool,
}

/// The order of a dimension label's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DataOrder {
    /// No order.
    Unordered,
    /// Increasing.
    Increasing,
    /// Decreasing.
    Decreasing,
}

/// The current domain: the part of the domain in use (TileDB-SOMA resizes
/// it as arrays grow); `None` ranges mean empty.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum CurrentDomain {
    /// Set but empty.
    Empty,
    /// An N-dimensional rectangle, one range per dimension.
    NdRectangle(Vec<DomainRange>),
}

/// An array schema.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Schema {
    /// The format version it was written in.
    pub version: u32,
    /// Dense or sparse.
    pub array_type: ArrayType,
    /// Order of cells within a tile.
    pub cell_order: Layout,
    /// Order of tiles.
    pub tile_order: Layout,
    /// Cells per data tile (sparse arrays).
    pub capacity: u64,
    /// Whether cells with equal coordinates are all kept (sparse arrays).
    pub allows_duplicates: bool,
    /// The dimensions, in order.
    pub dimensions: Vec<Dimension>,
    /// The attributes, in order.
    pub attributes: Vec<Attribute>,
    /// Filters of coordinates (dimensions with none of their own).
    pub coords_filters: Vec<Filter>,
    /// Filters of var-sized fields' offsets.
    pub offsets_filters: Vec<Filter>,
    /// Filters of nullable fields' validity.
    pub validity_filters: Vec<Filter>,
    /// Enumerations (with their labels where loaded from their files).
    pub enumerations: Vec<Enumeration>,
    /// Dimension labels.
    pub dimension_labels: Vec<DimensionLabel>,
    /// The current domain, where set.
    pub current_domain: Option<CurrentDomain>,
}

/// A value of array or group metadata.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MetadataValue {
    /// The values' datatype.
    pub datatype: Datatype,
    /// The values' bytes, little-endian (`datatype.size()` bytes each).
    pub bytes: Vec<u8>,
}

mod format_tables;
pub mod json;
pub(crate) mod table;
pub mod value;

pub use format_tables::{EnumerationTables, FilterTables, FormatCode, SchemaTables};
pub use table::ModelError;
pub use value::default_fill_value;

impl CellValNum {
    /// One value per cell.
    pub fn single() -> Self {
        CellValNum::Fixed(NonZeroU32::MIN)
    }

    /// Whether cells are var-sized.
    pub fn is_var(self) -> bool {
        self == CellValNum::Var
    }

    /// The fixed count, `None` for var-sized cells.
    pub fn fixed(self) -> Option<u32> {
        match self {
            CellValNum::Fixed(n) => Some(n.get()),
            CellValNum::Var => None,
        }
    }

    /// From the on-disk code (`u32::MAX` is var-sized); `None` for 0.
    pub fn from_raw(n: u32) -> Option<Self> {
        if n == crate::format::VAR_NUM {
            Some(CellValNum::Var)
        } else {
            NonZeroU32::new(n).map(CellValNum::Fixed)
        }
    }

    /// The on-disk code (`u32::MAX` for var-sized).
    pub fn to_raw(self) -> u32 {
        self.fixed().unwrap_or(crate::format::VAR_NUM)
    }
}

impl<T> Range<T> {
    /// The range `[start, end]`.
    pub fn new(start: T, end: T) -> Self {
        Range { start, end }
    }
}

impl From<ArrayType> for crate::format::ArrayType {
    fn from(t: ArrayType) -> Self {
        match t {
            ArrayType::Dense => crate::format::ArrayType::Dense,
            ArrayType::Sparse => crate::format::ArrayType::Sparse,
        }
    }
}

impl From<Layout> for crate::format::Layout {
    fn from(l: Layout) -> Self {
        use crate::format::Layout as L;
        match l {
            Layout::RowMajor => L::RowMajor,
            Layout::ColMajor => L::ColMajor,
            Layout::GlobalOrder => L::GlobalOrder,
            Layout::Unordered => L::Unordered,
            Layout::Hilbert => L::Hilbert,
        }
    }
}

/// `Err` with the on-disk code of a layout this crate does not know (one a
/// later spec adds).
impl TryFrom<crate::format::Layout> for Layout {
    type Error = u8;

    fn try_from(l: crate::format::Layout) -> Result<Self, u8> {
        use crate::format::Layout as L;
        Ok(match l {
            L::RowMajor => Layout::RowMajor,
            L::ColMajor => Layout::ColMajor,
            L::GlobalOrder => Layout::GlobalOrder,
            L::Unordered => Layout::Unordered,
            L::Hilbert => Layout::Hilbert,
            other => return Err(other.value()),
        })
    }
}

impl Dimension {
    /// A fixed-size dimension of one value per cell, with the schema's
    /// coordinate filters. `domain` and `tile_extent` must be of
    /// `datatype` (checked when the schema is laid out).
    pub fn new(
        name: impl Into<String>,
        datatype: Datatype,
        domain: DomainRange,
        tile_extent: Option<Value>,
    ) -> Self {
        Dimension {
            name: name.into(),
            datatype,
            cell_val_num: CellValNum::single(),
            domain: Some(domain),
            tile_extent,
            filters: None,
        }
    }

    /// A var-sized string dimension (`STRING_ASCII`), which has no domain
    /// and no tile extent.
    pub fn string(name: impl Into<String>) -> Self {
        Dimension {
            name: name.into(),
            datatype: Datatype::StringAscii,
            cell_val_num: CellValNum::Var,
            domain: None,
            tile_extent: None,
            filters: None,
        }
    }
}

impl Attribute {
    /// An attribute of one value per cell, not nullable, without filters,
    /// with the engine's default fill value of `datatype`.
    pub fn new(name: impl Into<String>, datatype: Datatype) -> Self {
        Attribute {
            name: name.into(),
            datatype,
            cell_val_num: CellValNum::single(),
            nullable: false,
            fill_value: default_fill_value(datatype),
            fill_value_valid: false,
            filters: Vec::new(),
            enumeration: None,
        }
    }
}

impl Enumeration {
    /// An enumeration of `values` (each as its bytes), stored in
    /// `__schema/__enumerations/<path_name>`.
    pub fn new(
        name: impl Into<String>,
        path_name: impl Into<String>,
        datatype: Datatype,
        cell_val_num: CellValNum,
        ordered: bool,
        values: Vec<Vec<u8>>,
    ) -> Self {
        Enumeration {
            name: name.into(),
            path_name: path_name.into(),
            datatype,
            cell_val_num,
            ordered,
            values,
        }
    }
}

impl DimensionLabel {
    /// A label of dimension `dimension` stored in the array at `uri` (an
    /// absolute URI; see [`with_relative_uri`](Self::with_relative_uri)),
    /// one value of `datatype` per label, inside the array.
    pub fn new(
        dimension: u32,
        name: impl Into<String>,
        uri: impl Into<String>,
        attribute: impl Into<String>,
        order: DataOrder,
        datatype: Datatype,
    ) -> Self {
        DimensionLabel {
            dimension,
            name: name.into(),
            uri: uri.into(),
            relative_uri: false,
            attribute: attribute.into(),
            order,
            datatype,
            cell_val_num: CellValNum::single(),
            external: false,
        }
    }

    /// Whether the URI is relative to the array.
    pub fn with_relative_uri(mut self, relative: bool) -> Self {
        self.relative_uri = relative;
        self
    }

    /// Values per label.
    pub fn with_cell_val_num(mut self, cell_val_num: CellValNum) -> Self {
        self.cell_val_num = cell_val_num;
        self
    }

    /// Whether the label array lives outside the array.
    pub fn with_external(mut self, external: bool) -> Self {
        self.external = external;
        self
    }
}

impl Schema {
    /// A schema of the newest format version with the engine's defaults:
    /// row-major orders, capacity 10000, no duplicates, ZSTD coordinate
    /// and offsets filters, RLE validity filters, no enumerations, labels
    /// or current domain.
    pub fn new(
        array_type: ArrayType,
        dimensions: Vec<Dimension>,
        attributes: Vec<Attribute>,
    ) -> Self {
        Schema {
            version: crate::format::version::FORMAT_VERSION,
            array_type,
            cell_order: Layout::RowMajor,
            tile_order: Layout::RowMajor,
            capacity: 10000,
            allows_duplicates: false,
            dimensions,
            attributes,
            coords_filters: vec![Filter::Zstd { level: -1 }],
            offsets_filters: vec![Filter::Zstd { level: -1 }],
            validity_filters: vec![Filter::Rle { level: -1 }],
            enumerations: Vec::new(),
            dimension_labels: Vec::new(),
            current_domain: None,
        }
    }

    /// The dimension named `name`.
    pub fn dimension(&self, name: &str) -> Option<&Dimension> {
        self.dimensions.iter().find(|d| d.name == name)
    }

    /// The attribute named `name`.
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The enumeration named `name`.
    pub fn enumeration(&self, name: &str) -> Option<&Enumeration> {
        self.enumerations.iter().find(|e| e.name == name)
    }
}

impl MetadataValue {
    /// A metadata value of `datatype` holding `bytes`.
    pub fn new(datatype: Datatype, bytes: Vec<u8>) -> Self {
        MetadataValue { datatype, bytes }
    }
}
