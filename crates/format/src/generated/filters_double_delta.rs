// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Spec: `format_spec/filters/double_delta.md#input-and-output-layout` (table "Input and Output Layout").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct DoubleDeltaHeader {
    /// Spec field "bitsize" (`u8`).
    #[br(err_context("DoubleDeltaHeader.bitsize"))]
    pub bitsize: u8,
    /// Spec field "n" (`u64`).
    #[br(err_context("DoubleDeltaHeader.n"))]
    pub n: u64,
}
impl DoubleDeltaHeader {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/double_delta.md#input-and-output-layout";
}
impl DoubleDeltaHeader {
    /// Bytes of one `DoubleDeltaHeader`: every field has a fixed size.
    pub const SIZE: usize = 9;
    /// Where field `bitsize` (spec "bitsize") starts in a `DoubleDeltaHeader`.
    pub const OFFSET_BITSIZE: usize = 0;
    /// Where field `n` (spec "n") starts in a `DoubleDeltaHeader`.
    pub const OFFSET_N: usize = 1;
}
/// A `DoubleDeltaHeader` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`DoubleDeltaHeaderRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct DoubleDeltaHeaderRef {
    /// Field `bitsize` as stored (spec "bitsize").
    pub bitsize: u8,
    /// Field `n` as stored (spec "n").
    pub n: zerocopy::byteorder::little_endian::U64,
}
impl DoubleDeltaHeaderRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 9;
    /// The view of the first [`DoubleDeltaHeaderRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `bitsize` (spec "bitsize").
    pub fn bitsize(&self) -> u8 {
        self.bitsize
    }
    /// Field `n` (spec "n").
    pub fn n(&self) -> u64 {
        self.n.get()
    }
    /// The owned `DoubleDeltaHeader` (the binrw struct) with the same values.
    pub fn record(&self) -> DoubleDeltaHeader {
        DoubleDeltaHeader {
            bitsize: self.bitsize(),
            n: self.n(),
        }
    }
}
/// The view is exactly its fields: `size_of::<DoubleDeltaHeaderRef>()` is
/// [`DoubleDeltaHeaderRef::SIZE`] (else this does not compile).
const _: [(); DoubleDeltaHeaderRef::SIZE] = [(); core::mem::size_of::<
    DoubleDeltaHeaderRef,
>()];
impl crate::Record for DoubleDeltaHeader {
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
impl DoubleDeltaHeader {
    /// Sets what a `DoubleDeltaHeader` states of parts it does not hold (how many
    /// there are, the value of the last), one element of each argument
    /// per part:
    ///
    /// * `values`: The values the header's part encodes (the input, one value per cell), written after it as the layout above says.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) when a value does
    /// not fit its field, [`EncodeError::Part`](crate::EncodeError::Part)
    /// when the value of a last part is stated and there is none.
    pub fn with_outside_counts(
        mut self,
        values: &[impl Sized],
    ) -> Result<Self, crate::EncodeError> {
        {
            let v = values.len() as u64;
            self.n = v as _;
            if self.n as u64 != v {
                return Err(
                    crate::EncodeError::size("DoubleDeltaHeader", "n", self.n as u64, v),
                );
            }
        }
        Ok(self)
    }
    /// Whether what a `DoubleDeltaHeader` states of parts it does not hold is true
    /// of the parts given ([`with_outside_counts`](Self::with_outside_counts)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first
    /// field that disagrees, [`EncodeError::Part`](crate::EncodeError::Part)
    /// as `with_outside_counts`.
    pub fn check_outside_counts(
        &self,
        values: &[impl Sized],
    ) -> Result<(), crate::EncodeError> {
        {
            let v = values.len() as u64;
            if self.n as u64 != v {
                return Err(
                    crate::EncodeError::size("DoubleDeltaHeader", "n", self.n as u64, v),
                );
            }
        }
        Ok(())
    }
}
