// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Spec: `format_spec/filters/float_scale.md#input-and-output-layout` (table "Input and Output Layout").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FloatScaleChunkMetadata {
    /// Spec field "num_parts" (`u32`).
    #[br(err_context("FloatScaleChunkMetadata.num_parts"))]
    pub num_parts: u32,
    /// Spec field "new_size" (`list<u32>`).
    ///
    /// Bytes of each output data part.
    #[br(err_context("FloatScaleChunkMetadata.part_lengths"), parse_with = rt::list, args((num_parts) as u64, 4, (), "FloatScaleChunkMetadata", "part_lengths"))]
    pub part_lengths: Vec<u32>,
}
impl FloatScaleChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/float_scale.md#input-and-output-layout";
}
impl FloatScaleChunkMetadata {
    /// Where field `num_parts` (spec "num_parts") starts in a `FloatScaleChunkMetadata`.
    pub const OFFSET_NUM_PARTS: usize = 0;
    /// Where field `part_lengths` (spec "new_size") starts in a `FloatScaleChunkMetadata`.
    pub const OFFSET_PART_LENGTHS: usize = 4;
    /// Bytes of a `FloatScaleChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_parts`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num_parts: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(((num_parts) as u64).checked_mul(4u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `FloatScaleChunkMetadata` borrowed in place: the
/// fields before `part_lengths`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FloatScaleChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FloatScaleChunkMetadataRef {
    /// Field `num_parts` as stored (spec "num_parts").
    pub num_parts: zerocopy::byteorder::little_endian::U32,
}
impl FloatScaleChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`FloatScaleChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_parts` (spec "num_parts").
    pub fn num_parts(&self) -> u32 {
        self.num_parts.get()
    }
}
/// The view is exactly its fields: `size_of::<FloatScaleChunkMetadataRef>()` is
/// [`FloatScaleChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); FloatScaleChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    FloatScaleChunkMetadataRef,
>()];
impl crate::Record for FloatScaleChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num_parts = self.part_lengths.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num_parts),
            Some(self.part_lengths.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FloatScaleChunkMetadata",
                        "num_parts",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl FloatScaleChunkMetadata {
    /// Sets the sizes a `FloatScaleChunkMetadata` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `part_lengths` of each slice of `parts`: The output data parts, in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        parts: &[impl AsRef<[u8]>],
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.len());
            for p in parts {
                let n = p.as_ref().len() as u64;
                let v = n as u32;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FloatScaleChunkMetadata",
                            "part_lengths",
                            v as u64,
                            n,
                        ),
                    );
                }
                l.push(v);
            }
            self.part_lengths = l;
        }
        Ok(self)
    }
    /// Whether the sizes a `FloatScaleChunkMetadata` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        parts: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.part_lengths;
            {
                let n = parts.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FloatScaleChunkMetadata",
                            "part_lengths",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(parts) {
                let n = p.as_ref().len() as u64;
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FloatScaleChunkMetadata",
                            "part_lengths",
                            *v as u64,
                            n,
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
