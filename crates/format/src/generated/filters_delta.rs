// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Spec: `format_spec/filters/delta.md#input-and-output-layout` (table "Input and Output Layout").
#[binrw::binrw]
#[brw(little)]
#[br(import(value_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DeltaPart {
    /// Spec field "n" (`u64`).
    ///
    /// Number of values.
    #[br(err_context("DeltaPart.n"))]
    pub n: u64,
    /// Spec field "in_0, delta_1 … delta_n" (`bytes`).
    ///
    /// The first value, then each value minus the one before it, wrapping, all
    /// `value_size` bytes, little-endian.
    #[br(err_context("DeltaPart.values"), parse_with = rt::bytes, args((n.saturating_mul(value_size)) as u64, "DeltaPart", "values"))]
    pub values: Vec<u8>,
}
impl DeltaPart {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/delta.md#input-and-output-layout";
}
impl DeltaPart {
    /// Where field `n` (spec "n") starts in a `DeltaPart`.
    pub const OFFSET_N: usize = 0;
    /// Where field `values` (spec "in_0, delta_1 … delta_n") starts in a `DeltaPart`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `DeltaPart` with these imports
    /// and the values of its fields
    /// `n`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(value_size: u64, n: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((n.saturating_mul(value_size)) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `DeltaPart` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`DeltaPartRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct DeltaPartRef {
    /// Field `n` as stored (spec "n").
    pub n: zerocopy::byteorder::little_endian::U64,
}
impl DeltaPartRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`DeltaPartRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `n` (spec "n").
    pub fn n(&self) -> u64 {
        self.n.get()
    }
    /// Field `values` (spec "in_0, delta_1 … delta_n") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn values<'a>(&self, bytes: &'a [u8], value_size: u64) -> Option<&'a [u8]> {
        let n = self.n();
        let len = usize::try_from((n.saturating_mul(value_size)) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<DeltaPartRef>()` is
/// [`DeltaPartRef::SIZE`] (else this does not compile).
const _: [(); DeltaPartRef::SIZE] = [(); core::mem::size_of::<DeltaPartRef>()];
impl crate::Record for DeltaPart {
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
impl DeltaPart {
    /// The head of a `DeltaPart` whose `values` a writer streams after it, one
    /// encoded element (or value) after another: the fields before them,
    /// `n` stating `count` of them.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming `n` when `count` does not fit it.
    pub fn head(count: usize) -> Result<alloc::vec::Vec<u8>, crate::EncodeError> {
        let n = count as u64;
        let v = n as u64;
        if v as u64 != n {
            return Err(crate::EncodeError::size("DeltaPart", "n", v as u64, n));
        }
        let head = Self { n: v, ..Default::default() };
        Ok(crate::decode::encode_unchecked(&head))
    }
}
