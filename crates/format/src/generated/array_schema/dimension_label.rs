// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

impl crate::Record for Attribute {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.filters);
        self.filters = x.at_version(version);
        if version >= 6 {
            if self.fill_value_size.is_none() {
                self.fill_value_size = Some(Default::default());
            }
        } else {
            self.fill_value_size = None;
        }
        if version >= 6 {
            if self.fill_value.is_none() {
                self.fill_value = Some(Default::default());
            }
        } else {
            self.fill_value = None;
        }
        if version >= 7 {
            if self.nullable.is_none() {
                self.nullable = Some(Default::default());
            }
        } else {
            self.nullable = None;
        }
        if version >= 7 {
            if self.fill_value_validity.is_none() {
                self.fill_value_validity = Some(Default::default());
            }
        } else {
            self.fill_value_validity = None;
        }
        if version >= 17 {
            if self.order.is_none() {
                self.order = Some(Default::default());
            }
        } else {
            self.order = None;
        }
        if version >= 20 {
            if self.enumeration_name_length.is_none() {
                self.enumeration_name_length = Some(Default::default());
            }
        } else {
            self.enumeration_name_length = None;
        }
        if version >= 20 {
            if self.enumeration_name.is_none() {
                self.enumeration_name = Some(Default::default());
            }
        } else {
            self.enumeration_name = None;
        }
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.filters);
        self.filters = x.with_sizes();
        self.name_length = self.name.len() as u32;
        self.fill_value_size = self.fill_value.as_ref().map(|x| x.len() as u64);
        self.enumeration_name_length = self
            .enumeration_name
            .as_ref()
            .map(|x| x.len() as u32);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        {
            let x = &self.filters;
            x.check(version)?;
        }
        if let Some(v) = version {
            if (v >= 6) != self.fill_value_size.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "fill_value_size",
                        v,
                        self.fill_value_size.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 6) != self.fill_value.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "fill_value",
                        v,
                        self.fill_value.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 7) != self.nullable.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "nullable",
                        v,
                        self.nullable.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 7) != self.fill_value_validity.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "fill_value_validity",
                        v,
                        self.fill_value_validity.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 17) != self.order.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "order",
                        v,
                        self.order.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 20) != self.enumeration_name_length.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "enumeration_name_length",
                        v,
                        self.enumeration_name_length.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 20) != self.enumeration_name.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "Attribute",
                        "enumeration_name",
                        v,
                        self.enumeration_name.is_some(),
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
                        "Attribute",
                        "name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.fill_value_size,
            self.fill_value.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Attribute",
                        "fill_value_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.enumeration_name_length,
            self.enumeration_name.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Attribute",
                        "enumeration_name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// As the engine reads it (tiledb/sm/array_schema/dimension_label.cc).
///
/// Spec: `format_spec/array_schema.md#dimension-label` (table "Dimension Label").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DimensionLabel {
    /// Spec field "Dimension index" (`u32`).
    #[br(err_context("DimensionLabel.dimension_index"))]
    pub dimension_index: u32,
    /// Spec field "Dimension label name length" (`u32`).
    #[br(err_context("DimensionLabel.name_length"))]
    pub name_length: u32,
    /// Spec field "Dimension label name" (`string`).
    #[br(err_context("DimensionLabel.name"), parse_with = rt::bytes, args((name_length) as u64, "DimensionLabel", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub name: Vec<u8>,
    /// Spec field "Relative URI" (`bool`).
    #[br(err_context("DimensionLabel.relative_uri"))]
    pub relative_uri: u8,
    /// Spec field "URI length" (`u64`).
    #[br(err_context("DimensionLabel.uri_length"))]
    pub uri_length: u64,
    /// Spec field "URI" (`string`).
    #[br(err_context("DimensionLabel.uri"), parse_with = rt::bytes, args((uri_length) as u64, "DimensionLabel", "uri"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub uri: Vec<u8>,
    /// Spec field "Label attribute name length" (`u32`).
    #[br(err_context("DimensionLabel.attribute_name_length"))]
    pub attribute_name_length: u32,
    /// Spec field "Label attribute name" (`string`).
    #[br(err_context("DimensionLabel.attribute_name"), parse_with = rt::bytes, args((attribute_name_length) as u64, "DimensionLabel", "attribute_name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub attribute_name: Vec<u8>,
    /// Spec field "Label order" (`u8`, values from [`DataOrder`]).
    #[br(err_context("DimensionLabel.label_order"))]
    pub label_order: DataOrder,
    /// Spec field "Label datatype" (`u8`, values from [`Datatype`]).
    #[br(err_context("DimensionLabel.datatype"))]
    pub datatype: Datatype,
    /// Spec field "Label cell_val_num" (`u32`).
    #[br(err_context("DimensionLabel.cell_val_num"))]
    pub cell_val_num: u32,
    /// Spec field "Is external" (`bool`).
    #[br(err_context("DimensionLabel.is_external"))]
    pub is_external: u8,
}
impl DimensionLabel {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#dimension-label";
}
impl DimensionLabel {
    /// Where field `dimension_index` (spec "Dimension index") starts in a `DimensionLabel`.
    pub const OFFSET_DIMENSION_INDEX: usize = 0;
    /// Where field `name_length` (spec "Dimension label name length") starts in a `DimensionLabel`.
    pub const OFFSET_NAME_LENGTH: usize = 4;
    /// Where field `name` (spec "Dimension label name") starts in a `DimensionLabel`.
    pub const OFFSET_NAME: usize = 8;
    /// Bytes of a `DimensionLabel` with these imports
    /// and the values of its fields
    /// `name_length`, `uri_length`, `attribute_name_length`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        name_length: u32,
        uri_length: u64,
        attribute_name_length: u32,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((name_length) as u64)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((uri_length) as u64)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((attribute_name_length) as u64)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(1)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `DimensionLabel` borrowed in place: the
/// fields before `name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`DimensionLabelRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct DimensionLabelRef {
    /// Field `dimension_index` as stored (spec "Dimension index").
    pub dimension_index: zerocopy::byteorder::little_endian::U32,
    /// Field `name_length` as stored (spec "Dimension label name length").
    pub name_length: zerocopy::byteorder::little_endian::U32,
}
impl DimensionLabelRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`DimensionLabelRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `dimension_index` (spec "Dimension index").
    pub fn dimension_index(&self) -> u32 {
        self.dimension_index.get()
    }
    /// Field `name_length` (spec "Dimension label name length").
    pub fn name_length(&self) -> u32 {
        self.name_length.get()
    }
    /// Field `name` (spec "Dimension label name") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let name_length = self.name_length();
        let len = usize::try_from((name_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<DimensionLabelRef>()` is
/// [`DimensionLabelRef::SIZE`] (else this does not compile).
const _: [(); DimensionLabelRef::SIZE] = [(); core::mem::size_of::<DimensionLabelRef>()];
impl crate::Record for DimensionLabel {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.name_length = self.name.len() as u32;
        self.uri_length = self.uri.len() as u64;
        self.attribute_name_length = self.attribute_name.len() as u32;
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
                        "DimensionLabel",
                        "name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.uri_length),
            Some(self.uri.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DimensionLabel",
                        "uri_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.attribute_name_length),
            Some(self.attribute_name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "DimensionLabel",
                        "attribute_name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Spec: `format_spec/array_schema.md#current-domain` (table "Current Domain").
#[binrw::binrw]
#[brw(little)]
#[br(import(dims: rt::Dims))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct CurrentDomain {
    /// Spec field "Version number" (`u32`).
    ///
    /// The engine writes 0 (the spec page says 1).
    #[br(err_context("CurrentDomain.version_number"))]
    pub version_number: u32,
    /// Spec field "Empty" (`bool`).
    #[br(err_context("CurrentDomain.empty"))]
    pub empty: u8,
    /// Spec field "Type" (`u8`, values from [`CurrentDomainType`]).
    #[br(err_context("CurrentDomain.current_domain_type"), if(((empty == 0))))]
    pub current_domain_type: Option<CurrentDomainType>,
    /// Spec field "NDRectangle" (`Mbr`).
    #[br(err_context("CurrentDomain.ndrectangle"), args(dims), if(((empty == 0))))]
    pub ndrectangle: Option<Mbr>,
}
impl CurrentDomain {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/array_schema.md#current-domain";
}
impl CurrentDomain {
    /// Where field `version_number` (spec "Version number") starts in a `CurrentDomain`.
    pub const OFFSET_VERSION_NUMBER: usize = 0;
    /// Where field `empty` (spec "Empty") starts in a `CurrentDomain`.
    pub const OFFSET_EMPTY: usize = 4;
    /// Where field `current_domain_type` (spec "Type") starts in a `CurrentDomain`.
    pub const OFFSET_CURRENT_DOMAIN_TYPE: usize = 5;
    /// Bytes of a `CurrentDomain` with these imports
    /// and the values of its fields
    /// `empty`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(dims: rt::Dims, empty: u8) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(1)?;
        if ((empty == 0)) {
            __len = __len.checked_add(1)?;
        }
        if ((empty == 0)) {
            __len = __len.checked_add(Mbr::size((dims).clone())?)?;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `CurrentDomain` borrowed in place: the
/// fields before `current_domain_type`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`CurrentDomainRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct CurrentDomainRef {
    /// Field `version_number` as stored (spec "Version number").
    pub version_number: zerocopy::byteorder::little_endian::U32,
    /// Field `empty` as stored (spec "Empty").
    pub empty: u8,
}
impl CurrentDomainRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 5;
    /// The view of the first [`CurrentDomainRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version_number` (spec "Version number").
    pub fn version_number(&self) -> u32 {
        self.version_number.get()
    }
    /// Field `empty` (spec "Empty").
    pub fn empty(&self) -> u8 {
        self.empty
    }
}
/// The view is exactly its fields: `size_of::<CurrentDomainRef>()` is
/// [`CurrentDomainRef::SIZE`] (else this does not compile).
const _: [(); CurrentDomainRef::SIZE] = [(); core::mem::size_of::<CurrentDomainRef>()];
impl crate::Record for CurrentDomain {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self.ndrectangle = self.ndrectangle.map(|x| x.at_version(version));
        self
    }
    fn with_sizes(mut self) -> Self {
        self.ndrectangle = self.ndrectangle.map(|x| x.with_sizes());
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let Some(x) = &self.ndrectangle {
            x.check(version)?;
        }
        {
            let empty = self.empty.clone();
            if ((empty == 0)) != self.current_domain_type.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "CurrentDomain",
                        "current_domain_type",
                        "empty == 0",
                        self.current_domain_type.is_some(),
                    ),
                );
            }
        }
        {
            let empty = self.empty.clone();
            if ((empty == 0)) != self.ndrectangle.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "CurrentDomain",
                        "ndrectangle",
                        "empty == 0",
                        self.ndrectangle.is_some(),
                    ),
                );
            }
        }
        Ok(())
    }
}
