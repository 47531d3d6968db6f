// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The images a chunk holds: how many, and the byte length of each.
///
/// Spec: `format_spec/filters/webp.md#webp-filter` (table "WEBP Filter").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct WebpChunkMetadata {
    /// Spec field "Number of parts" (`u32`).
    #[br(err_context("WebpChunkMetadata.num_parts"))]
    pub num_parts: u32,
    /// Spec field "Part sizes" (`list<u32>`).
    #[br(err_context("WebpChunkMetadata.part_sizes"), parse_with = rt::list, args((num_parts) as u64, 4, (), "WebpChunkMetadata", "part_sizes"))]
    pub part_sizes: Vec<u32>,
}
impl WebpChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/filters/webp.md#webp-filter";
}
impl WebpChunkMetadata {
    /// Where field `num_parts` (spec "Number of parts") starts in a `WebpChunkMetadata`.
    pub const OFFSET_NUM_PARTS: usize = 0;
    /// Where field `part_sizes` (spec "Part sizes") starts in a `WebpChunkMetadata`.
    pub const OFFSET_PART_SIZES: usize = 4;
    /// Bytes of a `WebpChunkMetadata` with these imports
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
/// The fixed-size fields that open a `WebpChunkMetadata` borrowed in place: the
/// fields before `part_sizes`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`WebpChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct WebpChunkMetadataRef {
    /// Field `num_parts` as stored (spec "Number of parts").
    pub num_parts: zerocopy::byteorder::little_endian::U32,
}
impl WebpChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`WebpChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_parts` (spec "Number of parts").
    pub fn num_parts(&self) -> u32 {
        self.num_parts.get()
    }
}
/// The view is exactly its fields: `size_of::<WebpChunkMetadataRef>()` is
/// [`WebpChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); WebpChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    WebpChunkMetadataRef,
>()];
impl crate::Record for WebpChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num_parts = self.part_sizes.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num_parts),
            Some(self.part_sizes.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "WebpChunkMetadata",
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
impl WebpChunkMetadata {
    /// Sets the sizes a `WebpChunkMetadata` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `part_sizes` of each slice of `images`: The encoded WebP images, one per data part, in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        images: &[impl AsRef<[u8]>],
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(images.len());
            for p in images {
                let n = p.as_ref().len() as u64;
                let v = n as u32;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "WebpChunkMetadata",
                            "part_sizes",
                            v as u64,
                            n,
                        ),
                    );
                }
                l.push(v);
            }
            self.part_sizes = l;
        }
        Ok(self)
    }
    /// Whether the sizes a `WebpChunkMetadata` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        images: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.part_sizes;
            {
                let n = images.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "WebpChunkMetadata",
                            "part_sizes",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(images) {
                let n = p.as_ref().len() as u64;
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "WebpChunkMetadata",
                            "part_sizes",
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
