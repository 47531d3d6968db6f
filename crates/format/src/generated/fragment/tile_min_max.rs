// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

impl TileMinMax {
    /// Sets the var-sized parts a `TileMinMax` holds joined, and where each
    /// starts, from the parts (an optional field where present; its
    /// [`with_sizes`](crate::Record::with_sizes) then sets their lengths):
    ///
    /// * `var_values`, joined in `var`, where each starts in it in `fixed`: A var-sized field's value per tile (empty for a tile of nulls only).
    #[must_use]
    pub fn with_joined(mut self, var_values: &[impl AsRef<[u8]>]) -> Self {
        self.var = {
            let mut v = alloc::vec::Vec::with_capacity(
                var_values.iter().map(|p| p.as_ref().len()).sum(),
            );
            for p in var_values {
                v.extend_from_slice(p.as_ref());
            }
            v
        };
        self.fixed = {
            let mut v = alloc::vec::Vec::with_capacity(8 * var_values.len());
            let mut at = 0u64;
            for p in var_values {
                v.extend_from_slice(&at.to_le_bytes());
                at += p.as_ref().len() as u64;
            }
            v
        };
        self
    }
    /// Whether the parts a `TileMinMax` holds joined, and their starts, are
    /// those given ([`with_joined`](Self::with_joined)).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when the joined
    /// bytes differ from the parts, [`EncodeError::Size`](crate::EncodeError::Size)
    /// when they or the starts have another length,
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// start that is wrong.
    pub fn check_joined(
        &self,
        var_values: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        {
            let j = &self.var;
            let mut at = 0usize;
            for p in var_values {
                let p = p.as_ref();
                if j.get(at..at + p.len()) != Some(p) {
                    return Err(
                        crate::EncodeError::part(
                            "TileMinMax",
                            "var_values",
                            "the joined bytes are not the parts given",
                        ),
                    );
                }
                at += p.len();
            }
            if at != j.len() {
                return Err(
                    crate::EncodeError::size(
                        "TileMinMax",
                        "var",
                        j.len() as u64,
                        at as u64,
                    ),
                );
            }
        }
        {
            let s = &self.fixed;
            if s.len() != 8 * var_values.len() {
                return Err(
                    crate::EncodeError::size(
                        "TileMinMax",
                        "fixed",
                        s.len() as u64,
                        8 * var_values.len() as u64,
                    ),
                );
            }
            let mut at = 0u64;
            for (i, p) in var_values.iter().enumerate() {
                let stated = u64::from_le_bytes([
                    s[8 * i],
                    s[8 * i + 1],
                    s[8 * i + 2],
                    s[8 * i + 3],
                    s[8 * i + 4],
                    s[8 * i + 5],
                    s[8 * i + 6],
                    s[8 * i + 7],
                ]);
                if stated != at {
                    return Err(
                        crate::EncodeError::offset("TileMinMax", "fixed", stated, at),
                    );
                }
                at += p.as_ref().len() as u64;
            }
        }
        Ok(())
    }
}
/// The tile sums generic tile of one field. Each value is the bit pattern of an
/// i64 (signed integer fields), u64 (unsigned) or f64 (floating point fields).
/// Otherwise matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-sums` (table "Tile Sums").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileSums {
    /// Spec field "Num values" (`u64`).
    #[br(err_context("TileSums.num"))]
    pub num: u64,
    /// Spec field "Value 1 … Value N" (`list<u64>`).
    #[br(err_context("TileSums.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileSums", "values"))]
    pub values: Vec<u64>,
}
impl TileSums {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-sums";
}
impl TileSums {
    /// Where field `num` (spec "Num values") starts in a `TileSums`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Value 1 … Value N") starts in a `TileSums`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileSums` with these imports
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
/// The fixed-size fields that open a `TileSums` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileSumsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileSumsRef {
    /// Field `num` as stored (spec "Num values").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileSumsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileSumsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num values").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileSumsRef>()` is
/// [`TileSumsRef::SIZE`] (else this does not compile).
const _: [(); TileSumsRef::SIZE] = [(); core::mem::size_of::<TileSumsRef>()];
impl crate::Record for TileSums {
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
                    crate::EncodeError::size("TileSums", "num", stated as u64, actual),
                );
            }
        }
        Ok(())
    }
}
/// The tile null counts generic tile of one field. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-null-count` (table "Tile Null Count").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileNullCounts {
    /// Spec field "Num values" (`u64`).
    #[br(err_context("TileNullCounts.num"))]
    pub num: u64,
    /// Spec field "Value 1 … Value N" (`list<u64>`).
    #[br(err_context("TileNullCounts.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileNullCounts", "values"))]
    pub values: Vec<u64>,
}
impl TileNullCounts {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-null-count";
}
impl TileNullCounts {
    /// Where field `num` (spec "Num values") starts in a `TileNullCounts`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Value 1 … Value N") starts in a `TileNullCounts`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileNullCounts` with these imports
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
/// The fixed-size fields that open a `TileNullCounts` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileNullCountsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileNullCountsRef {
    /// Field `num` as stored (spec "Num values").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileNullCountsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileNullCountsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num values").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileNullCountsRef>()` is
/// [`TileNullCountsRef::SIZE`] (else this does not compile).
const _: [(); TileNullCountsRef::SIZE] = [(); core::mem::size_of::<TileNullCountsRef>()];
impl crate::Record for TileNullCounts {
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
                    crate::EncodeError::size(
                        "TileNullCounts",
                        "num",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The fragment min/max/sum/null count generic tile: one entry per field of the
/// index map (`count` = n). The spec page marks it new in version 11; the
/// engine stores and reads it from version 12.
///
/// Spec: `format_spec/fragment.md#tile-fragment-min-max-sum-null-count` (table "Tile Fragment Min Max Sum Null Count").
#[binrw::binrw]
#[brw(little)]
#[br(import(count: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FragmentMinMaxSumNullCount {
    /// Spec field "Min size … Null count, for attribute/dimension 1 … N" (`list<FieldMinMaxSumNullCount>`).
    #[br(err_context("FragmentMinMaxSumNullCount.fields"), parse_with = rt::list, args((count) as u64, 1, (), "FragmentMinMaxSumNullCount", "fields"))]
    pub fields: Vec<FieldMinMaxSumNullCount>,
}
impl FragmentMinMaxSumNullCount {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-fragment-min-max-sum-null-count";
}
impl FragmentMinMaxSumNullCount {
    /// Where field `fields` (spec "Min size … Null count, for attribute/dimension 1 … N") starts in a `FragmentMinMaxSumNullCount`.
    pub const OFFSET_FIELDS: usize = 0;
}
impl crate::Record for FragmentMinMaxSumNullCount {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.fields);
        self.fields = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.fields);
        self.fields = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.fields;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
/// The entry of one field. The sum is the bit pattern of an i64, u64 or f64 (the page says u64). Otherwise matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-fragment-min-max-sum-null-count` (table "Tile Fragment Min Max Sum Null Count").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FieldMinMaxSumNullCount {
    /// Spec field "Min size" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.min_size"))]
    pub min_size: u64,
    /// Spec field "Min value" (`bytes`).
    #[br(err_context("FieldMinMaxSumNullCount.min"), parse_with = rt::bytes, args((min_size) as u64, "FieldMinMaxSumNullCount", "min"))]
    pub min: Vec<u8>,
    /// Spec field "Max size" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.max_size"))]
    pub max_size: u64,
    /// Spec field "Max value" (`bytes`).
    #[br(err_context("FieldMinMaxSumNullCount.max"), parse_with = rt::bytes, args((max_size) as u64, "FieldMinMaxSumNullCount", "max"))]
    pub max: Vec<u8>,
    /// Spec field "Sum" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.sum"))]
    pub sum: u64,
    /// Spec field "Null count" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.null_count"))]
    pub null_count: u64,
}
impl FieldMinMaxSumNullCount {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-fragment-min-max-sum-null-count";
}
impl FieldMinMaxSumNullCount {
    /// Where field `min_size` (spec "Min size") starts in a `FieldMinMaxSumNullCount`.
    pub const OFFSET_MIN_SIZE: usize = 0;
    /// Where field `min` (spec "Min value") starts in a `FieldMinMaxSumNullCount`.
    pub const OFFSET_MIN: usize = 8;
    /// Bytes of a `FieldMinMaxSumNullCount` with these imports
    /// and the values of its fields
    /// `min_size`, `max_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(min_size: u64, max_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((min_size) as u64)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((max_size) as u64)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(8)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `FieldMinMaxSumNullCount` borrowed in place: the
/// fields before `min`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FieldMinMaxSumNullCountRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FieldMinMaxSumNullCountRef {
    /// Field `min_size` as stored (spec "Min size").
    pub min_size: zerocopy::byteorder::little_endian::U64,
}
impl FieldMinMaxSumNullCountRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`FieldMinMaxSumNullCountRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `min_size` (spec "Min size").
    pub fn min_size(&self) -> u64 {
        self.min_size.get()
    }
    /// Field `min` (spec "Min value") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn min<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let min_size = self.min_size();
        let len = usize::try_from((min_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<FieldMinMaxSumNullCountRef>()` is
/// [`FieldMinMaxSumNullCountRef::SIZE`] (else this does not compile).
const _: [(); FieldMinMaxSumNullCountRef::SIZE] = [(); core::mem::size_of::<
    FieldMinMaxSumNullCountRef,
>()];
impl crate::Record for FieldMinMaxSumNullCount {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.min_size = self.min.len() as u64;
        self.max_size = self.max.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.min_size),
            Some(self.min.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FieldMinMaxSumNullCount",
                        "min_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.max_size),
            Some(self.max.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FieldMinMaxSumNullCount",
                        "max_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The processed conditions generic tile: names of the delete/update commit
/// files already applied to the fragment. The spec marks it new in version 16;
/// the engine's writer also stores it for version 15, but only footers from
/// version 16 point at it.
///
/// Spec: `format_spec/fragment.md#tile-processed-conditions` (table "Tile Processed Conditions").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ProcessedConditions {
    /// Spec field "Num" (`u64`).
    #[br(err_context("ProcessedConditions.num"))]
    pub num: u64,
    /// Spec field "Condition size / Condition, 1 … N" (`list<ProcessedCondition>`).
    #[br(err_context("ProcessedConditions.conditions"), parse_with = rt::list, args((num) as u64, 1, (), "ProcessedConditions", "conditions"))]
    pub conditions: Vec<ProcessedCondition>,
}
impl ProcessedConditions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-processed-conditions";
}
impl ProcessedConditions {
    /// Where field `num` (spec "Num") starts in a `ProcessedConditions`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `conditions` (spec "Condition size / Condition, 1 … N") starts in a `ProcessedConditions`.
    pub const OFFSET_CONDITIONS: usize = 8;
}
/// The fixed-size fields that open a `ProcessedConditions` borrowed in place: the
/// fields before `conditions`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ProcessedConditionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ProcessedConditionsRef {
    /// Field `num` as stored (spec "Num").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl ProcessedConditionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ProcessedConditionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<ProcessedConditionsRef>()` is
/// [`ProcessedConditionsRef::SIZE`] (else this does not compile).
const _: [(); ProcessedConditionsRef::SIZE] = [(); core::mem::size_of::<
    ProcessedConditionsRef,
>()];
impl crate::Record for ProcessedConditions {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.conditions);
        self.conditions = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.conditions);
        self.conditions = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num = self.conditions.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.conditions;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.conditions.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ProcessedConditions",
                        "num",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One processed condition: the marker file name (e.g. `__t_t_uuid_v.del`). Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-processed-conditions` (table "Tile Processed Conditions").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ProcessedCondition {
    /// Spec field "Condition size" (`u64`).
    #[br(err_context("ProcessedCondition.size"))]
    pub size: u64,
    /// Spec field "Condition" (`string`).
    #[br(err_context("ProcessedCondition.condition"), parse_with = rt::bytes, args((size) as u64, "ProcessedCondition", "condition"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub condition: Vec<u8>,
}
impl ProcessedCondition {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-processed-conditions";
}
impl ProcessedCondition {
    /// Where field `size` (spec "Condition size") starts in a `ProcessedCondition`.
    pub const OFFSET_SIZE: usize = 0;
    /// Where field `condition` (spec "Condition") starts in a `ProcessedCondition`.
    pub const OFFSET_CONDITION: usize = 8;
    /// Bytes of a `ProcessedCondition` with these imports
    /// and the values of its fields
    /// `size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `ProcessedCondition` borrowed in place: the
/// fields before `condition`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ProcessedConditionRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ProcessedConditionRef {
    /// Field `size` as stored (spec "Condition size").
    pub size: zerocopy::byteorder::little_endian::U64,
}
impl ProcessedConditionRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ProcessedConditionRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `size` (spec "Condition size").
    pub fn size(&self) -> u64 {
        self.size.get()
    }
    /// Field `condition` (spec "Condition") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn condition<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let size = self.size();
        let len = usize::try_from((size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<ProcessedConditionRef>()` is
/// [`ProcessedConditionRef::SIZE`] (else this does not compile).
const _: [(); ProcessedConditionRef::SIZE] = [(); core::mem::size_of::<
    ProcessedConditionRef,
>()];
impl crate::Record for ProcessedCondition {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.size = self.condition.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.size),
            Some(self.condition.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ProcessedCondition",
                        "size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The whole fragment metadata of versions 1 and 2: the data of one generic
/// tile at offset 0. `mbr_size` is the byte size of one MBR (the sum over the
/// dimensions of 2 * coord_size), `bounding_size` the byte size of one bounding
/// coordinates entry (2 * D * coord_size(dimension 0)). Where the engine
/// (`FragmentMetadata::load_v1_v2`) differs from the spec page: the tile
/// offsets hold A + 1 lists (the last for `__coords`), var offsets and var sizes
/// A lists; last tile cell num is a u64 (no type on the page); file sizes hold
/// A + 1 and file var sizes A values; there is no dense flag (a fragment is
/// dense iff it has no `__coords.tdb`).
///
/// Spec: `format_spec/fragment.md#legacy-fragment-metadata-file` (table "Legacy Fragment metadata file").
#[binrw::binrw]
#[brw(little)]
#[br(import(num_attributes: u64, mbr_size: u64, bounding_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LegacyFragmentMetadata {
    /// Spec field "Version number" (`u32`).
    #[br(err_context("LegacyFragmentMetadata.version_number"))]
    pub version_number: u32,
    /// Spec field "Non-empty domain size" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.non_empty_domain_size"))]
    pub non_empty_domain_size: u64,
    /// Spec field "Non-empty domain" (`bytes`).
    #[br(err_context("LegacyFragmentMetadata.non_empty_domain"), parse_with = rt::bytes, args((non_empty_domain_size) as u64, "LegacyFragmentMetadata", "non_empty_domain"))]
    pub non_empty_domain: Vec<u8>,
    /// Spec field "Num MBRs" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.num_mbrs"))]
    pub num_mbrs: u64,
    /// Spec field "MBR 1 … MBR N" (`bytes`).
    ///
    /// `num_mbrs` MBRs of `mbr_size` bytes each.
    #[br(err_context("LegacyFragmentMetadata.mbrs"), parse_with = rt::bytes, args((num_mbrs.saturating_mul(mbr_size)) as u64, "LegacyFragmentMetadata", "mbrs"))]
    pub mbrs: Vec<u8>,
    /// Spec field "Num bounding coords" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.num_bounding_coords"))]
    pub num_bounding_coords: u64,
    /// Spec field "Bounding coords" (`bytes`).
    ///
    /// Skipped by the engine.
    #[br(err_context("LegacyFragmentMetadata.bounding_coords"), parse_with = rt::bytes, args((num_bounding_coords.saturating_mul(bounding_size)) as u64, "LegacyFragmentMetadata", "bounding_coords"))]
    pub bounding_coords: Vec<u8>,
    /// Spec field "Tile offsets" (`LegacyTileOffsets`).
    #[br(err_context("LegacyFragmentMetadata.tile_offsets"), args(num_attributes + 1))]
    pub tile_offsets: LegacyTileOffsets,
    /// Spec field "Tile var offsets" (`LegacyTileOffsets`).
    #[br(err_context("LegacyFragmentMetadata.tile_var_offsets"), args(num_attributes))]
    pub tile_var_offsets: LegacyTileOffsets,
    /// Spec field "Variable tile sizes" (`LegacyTileOffsets`).
    #[br(err_context("LegacyFragmentMetadata.tile_var_sizes"), args(num_attributes))]
    pub tile_var_sizes: LegacyTileOffsets,
    /// Spec field "Last tile cell num" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.last_tile_cell_num"))]
    pub last_tile_cell_num: u64,
    /// Spec field "File sizes" (`list<u64>`).
    #[br(err_context("LegacyFragmentMetadata.file_sizes"), parse_with = rt::list, args((num_attributes + 1) as u64, 8, (), "LegacyFragmentMetadata", "file_sizes"))]
    pub file_sizes: Vec<u64>,
    /// Spec field "File var sizes" (`list<u64>`).
    #[br(err_context("LegacyFragmentMetadata.file_var_sizes"), parse_with = rt::list, args((num_attributes) as u64, 8, (), "LegacyFragmentMetadata", "file_var_sizes"))]
    pub file_var_sizes: Vec<u64>,
}
impl LegacyFragmentMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#legacy-fragment-metadata-file";
}
impl LegacyFragmentMetadata {
    /// Where field `version_number` (spec "Version number") starts in a `LegacyFragmentMetadata`.
    pub const OFFSET_VERSION_NUMBER: usize = 0;
    /// Where field `non_empty_domain_size` (spec "Non-empty domain size") starts in a `LegacyFragmentMetadata`.
    pub const OFFSET_NON_EMPTY_DOMAIN_SIZE: usize = 4;
    /// Where field `non_empty_domain` (spec "Non-empty domain") starts in a `LegacyFragmentMetadata`.
    pub const OFFSET_NON_EMPTY_DOMAIN: usize = 12;
}
/// The fixed-size fields that open a `LegacyFragmentMetadata` borrowed in place: the
/// fields before `non_empty_domain`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`LegacyFragmentMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct LegacyFragmentMetadataRef {
    /// Field `version_number` as stored (spec "Version number").
    pub version_number: zerocopy::byteorder::little_endian::U32,
    /// Field `non_empty_domain_size` as stored (spec "Non-empty domain size").
    pub non_empty_domain_size: zerocopy::byteorder::little_endian::U64,
}
impl LegacyFragmentMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`LegacyFragmentMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version_number` (spec "Version number").
    pub fn version_number(&self) -> u32 {
        self.version_number.get()
    }
    /// Field `non_empty_domain_size` (spec "Non-empty domain size").
    pub fn non_empty_domain_size(&self) -> u64 {
        self.non_empty_domain_size.get()
    }
    /// Field `non_empty_domain` (spec "Non-empty domain") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn non_empty_domain<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let non_empty_domain_size = self.non_empty_domain_size();
        let len = usize::try_from((non_empty_domain_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<LegacyFragmentMetadataRef>()` is
/// [`LegacyFragmentMetadataRef::SIZE`] (else this does not compile).
const _: [(); LegacyFragmentMetadataRef::SIZE] = [(); core::mem::size_of::<
    LegacyFragmentMetadataRef,
>()];
impl crate::Record for LegacyFragmentMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.tile_offsets);
        self.tile_offsets = x.at_version(version);
        let x = core::mem::take(&mut self.tile_var_offsets);
        self.tile_var_offsets = x.at_version(version);
        let x = core::mem::take(&mut self.tile_var_sizes);
        self.tile_var_sizes = x.at_version(version);
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.tile_offsets);
        self.tile_offsets = x.with_sizes();
        let x = core::mem::take(&mut self.tile_var_offsets);
        self.tile_var_offsets = x.with_sizes();
        let x = core::mem::take(&mut self.tile_var_sizes);
        self.tile_var_sizes = x.with_sizes();
        self.non_empty_domain_size = self.non_empty_domain.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.tile_offsets;
            x.check(version)?;
        }
        {
            let x = &self.tile_var_offsets;
            x.check(version)?;
        }
        {
            let x = &self.tile_var_sizes;
            x.check(version)?;
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.non_empty_domain_size),
            Some(self.non_empty_domain.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "LegacyFragmentMetadata",
                        "non_empty_domain_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// `count` lists of tile offsets or sizes, each a `TileOffsets`. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#legacy-tile-offsetssizes` (table "Legacy tile offsets/sizes").
#[binrw::binrw]
#[brw(little)]
#[br(import(count: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LegacyTileOffsets {
    /// Spec field "Num tile offsets/sizes, attribute 1 … Tile offset/size N, attribute N" (`list<TileOffsets>`).
    #[br(err_context("LegacyTileOffsets.lists"), parse_with = rt::list, args((count) as u64, 1, (), "LegacyTileOffsets", "lists"))]
    pub lists: Vec<TileOffsets>,
}
impl LegacyTileOffsets {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#legacy-tile-offsetssizes";
}
impl LegacyTileOffsets {
    /// Where field `lists` (spec "Num tile offsets/sizes, attribute 1 … Tile offset/size N, attribute N") starts in a `LegacyTileOffsets`.
    pub const OFFSET_LISTS: usize = 0;
}
impl crate::Record for LegacyTileOffsets {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.lists);
        self.lists = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.lists);
        self.lists = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.lists;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
