// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The cell val num of a var-sized attribute or dimension (`TILEDB_VAR_NUM`).
///
/// Constant from `spec/array_schema.toml`.
pub const VAR_NUM: u32 = u32::MAX;
/// Spec: `format_spec/array_schema.md#array-schema-file` (table "Array Schema File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ArraySchema {
    /// Spec field "Array version" (`u32`).
    #[br(err_context("ArraySchema.array_version"))]
    pub array_version: u32,
    /// Spec field "Allows dups" (`bool`). New in version 5.
    #[br(err_context("ArraySchema.allows_dups"), if((array_version) >= 5))]
    pub allows_dups: Option<u8>,
    /// Spec field "Array type" (`u8`, values from [`ArrayType`]).
    #[br(err_context("ArraySchema.array_type"))]
    pub array_type: ArrayType,
    /// Spec field "Tile order" (`u8`, values from [`Layout`]).
    #[br(err_context("ArraySchema.tile_order"))]
    pub tile_order: Layout,
    /// Spec field "Cell order" (`u8`, values from [`Layout`]).
    #[br(err_context("ArraySchema.cell_order"))]
    pub cell_order: Layout,
    /// Spec field "Capacity" (`u64`).
    #[br(err_context("ArraySchema.capacity"))]
    pub capacity: u64,
    /// Spec field "Coords filters" (`FilterPipeline`).
    #[br(err_context("ArraySchema.coords_filters"), args(array_version))]
    pub coords_filters: FilterPipeline,
    /// Spec field "Offsets filters" (`FilterPipeline`).
    #[br(err_context("ArraySchema.offsets_filters"), args(array_version))]
    pub offsets_filters: FilterPipeline,
    /// Spec field "Validity filters" (`FilterPipeline`). New in version 7.
    #[br(err_context("ArraySchema.validity_filters"), args(array_version), if((array_version) >= 7))]
    pub validity_filters: Option<FilterPipeline>,
    /// Spec field "Domain" (`Domain`).
    #[br(err_context("ArraySchema.domain"), args(array_version))]
    pub domain: Domain,
    /// Spec field "Num attributes" (`u32`).
    #[br(err_context("ArraySchema.num_attributes"))]
    pub num_attributes: u32,
    /// Spec field "Attribute 1 … Attribute N" (`list<Attribute>`).
    #[br(err_context("ArraySchema.attributes"), parse_with = rt::list, args((num_attributes) as u64, 1, (array_version,), "ArraySchema", "attributes"))]
    pub attributes: Vec<Attribute>,
    /// Spec field "Num labels" (`u32`). New in version 18.
    #[br(err_context("ArraySchema.num_labels"), if((array_version) >= 18))]
    pub num_labels: Option<u32>,
    /// Spec field "Label 1 … Label N" (`list<DimensionLabel>`). New in version 18.
    #[br(err_context("ArraySchema.labels"), parse_with = rt::opt_list, args((array_version) >= 18, (num_labels.clone().unwrap_or_default()) as u64, 1, (), "ArraySchema", "labels"))]
    pub labels: Option<Vec<DimensionLabel>>,
    /// Spec field "Num enumerations" (`u32`). New in version 20.
    #[br(err_context("ArraySchema.num_enumerations"), if((array_version) >= 20))]
    pub num_enumerations: Option<u32>,
    /// Spec field "Enumeration name length / name / filename length / filename, 1 … N" (`list<EnumerationEntry>`). New in version 20.
    #[br(err_context("ArraySchema.enumerations"), parse_with = rt::opt_list, args((array_version) >= 20, (num_enumerations.clone().unwrap_or_default()) as u64, 1, (), "ArraySchema", "enumerations"))]
    pub enumerations: Option<Vec<EnumerationEntry>>,
    /// Spec field "Current domain" (`CurrentDomain`). New in version 22.
    #[br(err_context("ArraySchema.current_domain"), args(domain.coord_sizes()), if((array_version) >= 22))]
    pub current_domain: Option<CurrentDomain>,
}
impl ArraySchema {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#array-schema-file";
}
impl ArraySchema {
    /// Where field `array_version` (spec "Array version") starts in a `ArraySchema`.
    pub const OFFSET_ARRAY_VERSION: usize = 0;
    /// Where field `allows_dups` (spec "Allows dups") starts in a `ArraySchema`.
    pub const OFFSET_ALLOWS_DUPS: usize = 4;
}
/// The fixed-size fields that open a `ArraySchema` borrowed in place: the
/// fields before `allows_dups`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ArraySchemaRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ArraySchemaRef {
    /// Field `array_version` as stored (spec "Array version").
    pub array_version: zerocopy::byteorder::little_endian::U32,
}
impl ArraySchemaRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`ArraySchemaRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `array_version` (spec "Array version").
    pub fn array_version(&self) -> u32 {
        self.array_version.get()
    }
}
/// The view is exactly its fields: `size_of::<ArraySchemaRef>()` is
/// [`ArraySchemaRef::SIZE`] (else this does not compile).
const _: [(); ArraySchemaRef::SIZE] = [(); core::mem::size_of::<ArraySchemaRef>()];
impl crate::Record for ArraySchema {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self.array_version = version as u32;
        if version >= 5 {
            if self.allows_dups.is_none() {
                self.allows_dups = Some(Default::default());
            }
        } else {
            self.allows_dups = None;
        }
        let x = core::mem::take(&mut self.coords_filters);
        self.coords_filters = x.at_version(version);
        let x = core::mem::take(&mut self.offsets_filters);
        self.offsets_filters = x.at_version(version);
        if version >= 7 {
            if self.validity_filters.is_none() {
                self.validity_filters = Some(Default::default());
            }
        } else {
            self.validity_filters = None;
        }
        self.validity_filters = self.validity_filters.map(|x| x.at_version(version));
        let x = core::mem::take(&mut self.domain);
        self.domain = x.at_version(version);
        let x = core::mem::take(&mut self.attributes);
        self.attributes = x.into_iter().map(|e| e.at_version(version)).collect();
        if version >= 18 {
            if self.num_labels.is_none() {
                self.num_labels = Some(Default::default());
            }
        } else {
            self.num_labels = None;
        }
        if version >= 18 {
            if self.labels.is_none() {
                self.labels = Some(Default::default());
            }
        } else {
            self.labels = None;
        }
        self.labels = self
            .labels
            .map(|x| x.into_iter().map(|e| e.at_version(version)).collect());
        if version >= 20 {
            if self.num_enumerations.is_none() {
                self.num_enumerations = Some(Default::default());
            }
        } else {
            self.num_enumerations = None;
        }
        if version >= 20 {
            if self.enumerations.is_none() {
                self.enumerations = Some(Default::default());
            }
        } else {
            self.enumerations = None;
        }
        self.enumerations = self
            .enumerations
            .map(|x| x.into_iter().map(|e| e.at_version(version)).collect());
        if version >= 22 {
            if self.current_domain.is_none() {
                self.current_domain = Some(Default::default());
            }
        } else {
            self.current_domain = None;
        }
        self.current_domain = self.current_domain.map(|x| x.at_version(version));
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.coords_filters);
        self.coords_filters = x.with_sizes();
        let x = core::mem::take(&mut self.offsets_filters);
        self.offsets_filters = x.with_sizes();
        self.validity_filters = self.validity_filters.map(|x| x.with_sizes());
        let x = core::mem::take(&mut self.domain);
        self.domain = x.with_sizes();
        let x = core::mem::take(&mut self.attributes);
        self.attributes = x.into_iter().map(|e| e.with_sizes()).collect();
        self.labels = self
            .labels
            .map(|x| x.into_iter().map(|e| e.with_sizes()).collect());
        self.enumerations = self
            .enumerations
            .map(|x| x.into_iter().map(|e| e.with_sizes()).collect());
        self.current_domain = self.current_domain.map(|x| x.with_sizes());
        self.num_attributes = self.attributes.len() as u32;
        self.num_labels = self.labels.as_ref().map(|x| x.len() as u32);
        self.num_enumerations = self.enumerations.as_ref().map(|x| x.len() as u32);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let version = Some(self.array_version as u32);
        if let Some(v) = version {
            if (v >= 5) != self.allows_dups.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "allows_dups",
                        v,
                        self.allows_dups.is_some(),
                    ),
                );
            }
        }
        {
            let x = &self.coords_filters;
            x.check(version)?;
        }
        {
            let x = &self.offsets_filters;
            x.check(version)?;
        }
        if let Some(v) = version {
            if (v >= 7) != self.validity_filters.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "validity_filters",
                        v,
                        self.validity_filters.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.validity_filters {
            x.check(version)?;
        }
        {
            let x = &self.domain;
            x.check(version)?;
        }
        {
            let x = &self.attributes;
            for e in x {
                e.check(version)?;
            }
        }
        if let Some(v) = version {
            if (v >= 18) != self.num_labels.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "num_labels",
                        v,
                        self.num_labels.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 18) != self.labels.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "labels",
                        v,
                        self.labels.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.labels {
            for e in x {
                e.check(version)?;
            }
        }
        if let Some(v) = version {
            if (v >= 20) != self.num_enumerations.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "num_enumerations",
                        v,
                        self.num_enumerations.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 20) != self.enumerations.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "enumerations",
                        v,
                        self.enumerations.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.enumerations {
            for e in x {
                e.check(version)?;
            }
        }
        if let Some(v) = version {
            if (v >= 22) != self.current_domain.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "ArraySchema",
                        "current_domain",
                        v,
                        self.current_domain.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.current_domain {
            x.check(version)?;
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_attributes),
            Some(self.attributes.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ArraySchema",
                        "num_attributes",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.num_labels,
            self.labels.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ArraySchema",
                        "num_labels",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.num_enumerations,
            self.enumerations.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ArraySchema",
                        "num_enumerations",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One enumeration of the schema: its name and the file in `__schema/__enumerations` holding it.
///
/// Spec: `format_spec/array_schema.md#array-schema-file` (table "Array Schema File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct EnumerationEntry {
    /// Spec field "Enumeration name length" (`u32`).
    #[br(err_context("EnumerationEntry.name_length"))]
    pub name_length: u32,
    /// Spec field "Enumeration name" (`string`).
    #[br(err_context("EnumerationEntry.name"), parse_with = rt::bytes, args((name_length) as u64, "EnumerationEntry", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub name: Vec<u8>,
    /// Spec field "Enumeration filename length" (`u32`).
    #[br(err_context("EnumerationEntry.filename_length"))]
    pub filename_length: u32,
    /// Spec field "Enumeration filename" (`string`).
    #[br(err_context("EnumerationEntry.filename"), parse_with = rt::bytes, args((filename_length) as u64, "EnumerationEntry", "filename"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub filename: Vec<u8>,
}
impl EnumerationEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#array-schema-file";
}
impl EnumerationEntry {
    /// Where field `name_length` (spec "Enumeration name length") starts in a `EnumerationEntry`.
    pub const OFFSET_NAME_LENGTH: usize = 0;
    /// Where field `name` (spec "Enumeration name") starts in a `EnumerationEntry`.
    pub const OFFSET_NAME: usize = 4;
    /// Bytes of a `EnumerationEntry` with these imports
    /// and the values of its fields
    /// `name_length`, `filename_length`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(name_length: u32, filename_length: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((name_length) as u64)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((filename_length) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `EnumerationEntry` borrowed in place: the
/// fields before `name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`EnumerationEntryRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct EnumerationEntryRef {
    /// Field `name_length` as stored (spec "Enumeration name length").
    pub name_length: zerocopy::byteorder::little_endian::U32,
}
impl EnumerationEntryRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`EnumerationEntryRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `name_length` (spec "Enumeration name length").
    pub fn name_length(&self) -> u32 {
        self.name_length.get()
    }
    /// Field `name` (spec "Enumeration name") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let name_length = self.name_length();
        let len = usize::try_from((name_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<EnumerationEntryRef>()` is
/// [`EnumerationEntryRef::SIZE`] (else this does not compile).
const _: [(); EnumerationEntryRef::SIZE] = [(); core::mem::size_of::<
    EnumerationEntryRef,
>()];
impl crate::Record for EnumerationEntry {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.name_length = self.name.len() as u32;
        self.filename_length = self.filename.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.name_length),
            Some(self.name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "EnumerationEntry",
                        "name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.filename_length),
            Some(self.filename.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "EnumerationEntry",
                        "filename_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Spec: `format_spec/array_schema.md#domain` (table "Domain").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Domain {
    /// Spec field "Domain datatype" (`u8`, values from [`Datatype`]). Removed in version 5.
    #[br(err_context("Domain.domain_datatype"), if((version) < 5))]
    pub domain_datatype: Option<Datatype>,
    /// Spec field "Num dimensions" (`u32`).
    #[br(err_context("Domain.num_dimensions"))]
    pub num_dimensions: u32,
    /// Spec field "Dimension 1 … Dimension N" (`list<Dimension>`).
    #[br(err_context("Domain.dimensions"), parse_with = rt::list, args((num_dimensions) as u64, 1, (version, domain_datatype.clone().unwrap_or_default(),), "Domain", "dimensions"))]
    pub dimensions: Vec<Dimension>,
}
impl Domain {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#domain";
}
impl Domain {
    /// Where field `domain_datatype` (spec "Domain datatype") starts in a `Domain`.
    pub const OFFSET_DOMAIN_DATATYPE: usize = 0;
}
impl crate::Record for Domain {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        if version < 5 {
            if self.domain_datatype.is_none() {
                self.domain_datatype = Some(Default::default());
            }
        } else {
            self.domain_datatype = None;
        }
        let x = core::mem::take(&mut self.dimensions);
        self.dimensions = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.dimensions);
        self.dimensions = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_dimensions = self.dimensions.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        if let Some(v) = version {
            if (v < 5) != self.domain_datatype.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Domain",
                        "domain_datatype",
                        v,
                        self.domain_datatype.is_some(),
                    ),
                );
            }
        }
        {
            let x = &self.dimensions;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_dimensions),
            Some(self.dimensions.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Domain",
                        "num_dimensions",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Before version 5 the datatype is the domain's and the domain holds 2 values of it.
///
/// Spec: `format_spec/array_schema.md#dimension` (table "Dimension").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32, domain_datatype: Datatype))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Dimension {
    /// Spec field "Dimension name length" (`u32`).
    #[br(err_context("Dimension.name_length"))]
    pub name_length: u32,
    /// Spec field "Dimension name" (`string`).
    #[br(err_context("Dimension.name"), parse_with = rt::bytes, args((name_length) as u64, "Dimension", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub name: Vec<u8>,
    /// Spec field "Dimension datatype" (`u8`, values from [`Datatype`]). New in version 5.
    #[br(err_context("Dimension.datatype"), if((version) >= 5))]
    pub datatype: Option<Datatype>,
    /// Spec field "Cell val num" (`u32`). New in version 5.
    #[br(err_context("Dimension.cell_val_num"), if((version) >= 5))]
    pub cell_val_num: Option<u32>,
    /// Spec field "Filters" (`FilterPipeline`). New in version 5.
    #[br(err_context("Dimension.filters"), args(version), if((version) >= 5))]
    pub filters: Option<FilterPipeline>,
    /// Spec field "Domain size" (`u64`). New in version 5.
    #[br(err_context("Dimension.domain_size"), if((version) >= 5))]
    pub domain_size: Option<u64>,
    /// Spec field "Domain" (`bytes`).
    #[br(err_context("Dimension.domain"), parse_with = rt::bytes, args(((rt::pick((version) >= 5, domain_size.clone().unwrap_or_default(), 2 * rt::datatype_size(domain_datatype)))) as u64, "Dimension", "domain"))]
    pub domain: Vec<u8>,
    /// Spec field "Null tile extent" (`u8`).
    #[br(err_context("Dimension.null_tile_extent"))]
    pub null_tile_extent: u8,
    /// Spec field "Tile extent" (`bytes`).
    #[br(err_context("Dimension.tile_extent"), parse_with = rt::bytes, args((rt::pick(null_tile_extent == 0, rt::datatype_size((rt::pick((version) >= 5, datatype.clone().unwrap_or_default(), domain_datatype))), 0)) as u64, "Dimension", "tile_extent"))]
    pub tile_extent: Vec<u8>,
}
impl Dimension {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#dimension";
}
impl Dimension {
    /// Where field `name_length` (spec "Dimension name length") starts in a `Dimension`.
    pub const OFFSET_NAME_LENGTH: usize = 0;
    /// Where field `name` (spec "Dimension name") starts in a `Dimension`.
    pub const OFFSET_NAME: usize = 4;
    /// Bytes of a `Dimension` with these imports
    /// and the values of its fields
    /// `name_length`, `datatype`, `domain_size`, `null_tile_extent`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        version: u32,
        domain_datatype: Datatype,
        name_length: u32,
        datatype: Option<Datatype>,
        domain_size: Option<u64>,
        null_tile_extent: u8,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((name_length) as u64)?;
        if (version) >= 5 {
            datatype?;
            __len = __len.checked_add(1)?;
        }
        if (version) >= 5 {
            __len = __len.checked_add(4)?;
        }
        if (version) >= 5 {
            return None;
        }
        if (version) >= 5 {
            domain_size?;
            __len = __len.checked_add(8)?;
        }
        __len = __len
            .checked_add(
                ((rt::pick(
                    (version) >= 5,
                    domain_size.clone().unwrap_or_default(),
                    2 * rt::datatype_size(domain_datatype),
                ))) as u64,
            )?;
        __len = __len.checked_add(1)?;
        __len = __len
            .checked_add(
                (rt::pick(
                    null_tile_extent == 0,
                    rt::datatype_size(
                        (rt::pick(
                            (version) >= 5,
                            datatype.clone().unwrap_or_default(),
                            domain_datatype,
                        )),
                    ),
                    0,
                )) as u64,
            )?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `Dimension` borrowed in place: the
/// fields before `name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`DimensionRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct DimensionRef {
    /// Field `name_length` as stored (spec "Dimension name length").
    pub name_length: zerocopy::byteorder::little_endian::U32,
}
impl DimensionRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`DimensionRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `name_length` (spec "Dimension name length").
    pub fn name_length(&self) -> u32 {
        self.name_length.get()
    }
    /// Field `name` (spec "Dimension name") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let name_length = self.name_length();
        let len = usize::try_from((name_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<DimensionRef>()` is
/// [`DimensionRef::SIZE`] (else this does not compile).
const _: [(); DimensionRef::SIZE] = [(); core::mem::size_of::<DimensionRef>()];
impl crate::Record for Dimension {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        if version >= 5 {
            if self.datatype.is_none() {
                self.datatype = Some(Default::default());
            }
        } else {
            self.datatype = None;
        }
        if version >= 5 {
            if self.cell_val_num.is_none() {
                self.cell_val_num = Some(Default::default());
            }
        } else {
            self.cell_val_num = None;
        }
        if version >= 5 {
            if self.filters.is_none() {
                self.filters = Some(Default::default());
            }
        } else {
            self.filters = None;
        }
        self.filters = self.filters.map(|x| x.at_version(version));
        if version >= 5 {
            if self.domain_size.is_none() {
                self.domain_size = Some(Default::default());
            }
        } else {
            self.domain_size = None;
        }
        self
    }
    fn with_sizes(mut self) -> Self {
        self.filters = self.filters.map(|x| x.with_sizes());
        if self.domain_size.is_some() {
            self.domain_size = Some(
                crate::decode::encode_unchecked(&self.domain).len() as u64,
            );
        }
        self.name_length = self.name.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        if let Some(v) = version {
            if (v >= 5) != self.datatype.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Dimension",
                        "datatype",
                        v,
                        self.datatype.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 5) != self.cell_val_num.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Dimension",
                        "cell_val_num",
                        v,
                        self.cell_val_num.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 5) != self.filters.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Dimension",
                        "filters",
                        v,
                        self.filters.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.filters {
            x.check(version)?;
        }
        if let Some(v) = version {
            if (v >= 5) != self.domain_size.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Dimension",
                        "domain_size",
                        v,
                        self.domain_size.is_some(),
                    ),
                );
            }
        }
        if let Some(stated) = self.domain_size {
            let actual = crate::decode::encode_unchecked(&self.domain).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Dimension",
                        "domain_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.name_length),
            Some(self.name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Dimension",
                        "name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Spec: `format_spec/array_schema.md#attribute` (table "Attribute").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Attribute {
    /// Spec field "Attribute name length" (`u32`).
    #[br(err_context("Attribute.name_length"))]
    pub name_length: u32,
    /// Spec field "Attribute name" (`string`).
    #[br(err_context("Attribute.name"), parse_with = rt::bytes, args((name_length) as u64, "Attribute", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub name: Vec<u8>,
    /// Spec field "Attribute datatype" (`u8`, values from [`Datatype`]).
    #[br(err_context("Attribute.datatype"))]
    pub datatype: Datatype,
    /// Spec field "Cell val num" (`u32`).
    #[br(err_context("Attribute.cell_val_num"))]
    pub cell_val_num: u32,
    /// Spec field "Filters" (`FilterPipeline`).
    #[br(err_context("Attribute.filters"), args(version))]
    pub filters: FilterPipeline,
    /// Spec field "Fill value size" (`u64`). New in version 6.
    #[br(err_context("Attribute.fill_value_size"), if((version) >= 6))]
    pub fill_value_size: Option<u64>,
    /// Spec field "Fill value" (`bytes`). New in version 6.
    #[br(err_context("Attribute.fill_value"), parse_with = rt::opt_bytes, args((version) >= 6, (fill_value_size.clone().unwrap_or_default()) as u64, "Attribute", "fill_value"))]
    pub fill_value: Option<Vec<u8>>,
    /// Spec field "Nullable" (`bool`). New in version 7.
    #[br(err_context("Attribute.nullable"), if((version) >= 7))]
    pub nullable: Option<u8>,
    /// Spec field "Fill value validity" (`u8`). New in version 7.
    #[br(err_context("Attribute.fill_value_validity"), if((version) >= 7))]
    pub fill_value_validity: Option<u8>,
    /// Spec field "Order" (`u8`, values from [`DataOrder`]). New in version 17.
    #[br(err_context("Attribute.order"), if((version) >= 17))]
    pub order: Option<DataOrder>,
    /// Spec field "Enumeration name length" (`u32`). New in version 20.
    ///
    /// Not in the spec's table; the engine reads it from version 20 (0: no enumeration).
    #[br(err_context("Attribute.enumeration_name_length"), if((version) >= 20))]
    pub enumeration_name_length: Option<u32>,
    /// Spec field "Enumeration name" (`string`). New in version 20.
    #[br(err_context("Attribute.enumeration_name"), parse_with = rt::opt_bytes, args((version) >= 20, (enumeration_name_length.clone().unwrap_or_default()) as u64, "Attribute", "enumeration_name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_opt_text"))]
    pub enumeration_name: Option<Vec<u8>>,
}
impl Attribute {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#attribute";
}
impl Attribute {
    /// Where field `name_length` (spec "Attribute name length") starts in a `Attribute`.
    pub const OFFSET_NAME_LENGTH: usize = 0;
    /// Where field `name` (spec "Attribute name") starts in a `Attribute`.
    pub const OFFSET_NAME: usize = 4;
}
/// The fixed-size fields that open a `Attribute` borrowed in place: the
/// fields before `name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`AttributeRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct AttributeRef {
    /// Field `name_length` as stored (spec "Attribute name length").
    pub name_length: zerocopy::byteorder::little_endian::U32,
}
impl AttributeRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`AttributeRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `name_length` (spec "Attribute name length").
    pub fn name_length(&self) -> u32 {
        self.name_length.get()
    }
    /// Field `name` (spec "Attribute name") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let name_length = self.name_length();
        let len = usize::try_from((name_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<AttributeRef>()` is
/// [`AttributeRef::SIZE`] (else this does not compile).
const _: [(); AttributeRef::SIZE] = [(); core::mem::size_of::<AttributeRef>()];
