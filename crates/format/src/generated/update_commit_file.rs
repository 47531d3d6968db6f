// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The condition (stored negated, as for deletes), then the values to set.
/// Where the engine differs from the spec page: the condition's child counts
/// are one u64 (the page says `uint64_t[]`), value nodes may carry IN/NOT_IN
/// offsets, and the file is a generic tile.
///
/// Spec: `format_spec/update_commit_file.md#` (table "Update Commit File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct UpdateCommit {
    /// Spec field "Node" (`ConditionNode`).
    #[br(err_context("UpdateCommit.condition"), args(0))]
    pub condition: ConditionNode,
    /// Spec field "Number of values" (`u64`).
    #[br(err_context("UpdateCommit.num_values"))]
    pub num_values: u64,
    /// Spec field "Field name size 1 … Value content N" (`list<UpdateValue>`).
    #[br(err_context("UpdateCommit.values"), parse_with = rt::list, args((num_values) as u64, 1, (), "UpdateCommit", "values"))]
    pub values: Vec<UpdateValue>,
}
impl UpdateCommit {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/update_commit_file.md#";
}
impl UpdateCommit {
    /// Where field `condition` (spec "Node") starts in a `UpdateCommit`.
    pub const OFFSET_CONDITION: usize = 0;
}
impl crate::Record for UpdateCommit {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.condition);
        self.condition = x.at_version(version);
        let x = core::mem::take(&mut self.values);
        self.values = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.condition);
        self.condition = x.with_sizes();
        let x = core::mem::take(&mut self.values);
        self.values = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_values = self.values.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.condition;
            x.check(version)?;
        }
        {
            let x = &self.values;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_values),
            Some(self.values.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "UpdateCommit",
                        "num_values",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One update value. Matches the spec page.
///
/// Spec: `format_spec/update_commit_file.md#` (table "Update Commit File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct UpdateValue {
    /// Spec field "Field name size" (`u64`).
    #[br(err_context("UpdateValue.field_name_size"))]
    pub field_name_size: u64,
    /// Spec field "Field name value" (`string`).
    #[br(err_context("UpdateValue.field_name"), parse_with = rt::bytes, args((field_name_size) as u64, "UpdateValue", "field_name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub field_name: Vec<u8>,
    /// Spec field "Value size" (`u64`).
    #[br(err_context("UpdateValue.value_size"))]
    pub value_size: u64,
    /// Spec field "Value content" (`bytes`).
    #[br(err_context("UpdateValue.value"), parse_with = rt::bytes, args((value_size) as u64, "UpdateValue", "value"))]
    pub value: Vec<u8>,
}
impl UpdateValue {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/update_commit_file.md#";
}
impl UpdateValue {
    /// Where field `field_name_size` (spec "Field name size") starts in a `UpdateValue`.
    pub const OFFSET_FIELD_NAME_SIZE: usize = 0;
    /// Where field `field_name` (spec "Field name value") starts in a `UpdateValue`.
    pub const OFFSET_FIELD_NAME: usize = 8;
    /// Bytes of a `UpdateValue` with these imports
    /// and the values of its fields
    /// `field_name_size`, `value_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(field_name_size: u64, value_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((field_name_size) as u64)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((value_size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `UpdateValue` borrowed in place: the
/// fields before `field_name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`UpdateValueRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct UpdateValueRef {
    /// Field `field_name_size` as stored (spec "Field name size").
    pub field_name_size: zerocopy::byteorder::little_endian::U64,
}
impl UpdateValueRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`UpdateValueRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `field_name_size` (spec "Field name size").
    pub fn field_name_size(&self) -> u64 {
        self.field_name_size.get()
    }
    /// Field `field_name` (spec "Field name value") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn field_name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let field_name_size = self.field_name_size();
        let len = usize::try_from((field_name_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<UpdateValueRef>()` is
/// [`UpdateValueRef::SIZE`] (else this does not compile).
const _: [(); UpdateValueRef::SIZE] = [(); core::mem::size_of::<UpdateValueRef>()];
impl crate::Record for UpdateValue {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.field_name_size = self.field_name.len() as u64;
        self.value_size = self.value.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.field_name_size),
            Some(self.field_name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "UpdateValue",
                        "field_name_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.value_size),
            Some(self.value.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "UpdateValue",
                        "value_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
