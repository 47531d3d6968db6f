// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Chunk metadata of the AES-256-GCM filter: one `AesPart` per encrypted part.
///
/// Spec: `format_spec/tile.md#encryption-filters` (table "Encryption Filters").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct EncryptionChunkMetadata {
    /// Spec field "Num metadata parts" (`u32`).
    #[br(err_context("EncryptionChunkMetadata.num_metadata_parts"))]
    pub num_metadata_parts: u32,
    /// Spec field "Num data parts" (`u32`).
    #[br(err_context("EncryptionChunkMetadata.num_data_parts"))]
    pub num_data_parts: u32,
    /// Spec field "AES Metadata Part 1 … N" (`list<AesPart>`).
    #[br(err_context("EncryptionChunkMetadata.metadata_parts"), parse_with = rt::list, args((num_metadata_parts) as u64, 1, (), "EncryptionChunkMetadata", "metadata_parts"))]
    pub metadata_parts: Vec<AesPart>,
    /// Spec field "AES Data Part 1 … N" (`list<AesPart>`).
    #[br(err_context("EncryptionChunkMetadata.data_parts"), parse_with = rt::list, args((num_data_parts) as u64, 1, (), "EncryptionChunkMetadata", "data_parts"))]
    pub data_parts: Vec<AesPart>,
}
impl EncryptionChunkMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#encryption-filters";
}
impl EncryptionChunkMetadata {
    /// Where field `num_metadata_parts` (spec "Num metadata parts") starts in a `EncryptionChunkMetadata`.
    pub const OFFSET_NUM_METADATA_PARTS: usize = 0;
    /// Where field `num_data_parts` (spec "Num data parts") starts in a `EncryptionChunkMetadata`.
    pub const OFFSET_NUM_DATA_PARTS: usize = 4;
    /// Where field `metadata_parts` (spec "AES Metadata Part 1 … N") starts in a `EncryptionChunkMetadata`.
    pub const OFFSET_METADATA_PARTS: usize = 8;
    /// Bytes of a `EncryptionChunkMetadata` with these imports
    /// and the values of its fields
    /// `num_metadata_parts`, `num_data_parts`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num_metadata_parts: u32, num_data_parts: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(((num_metadata_parts) as u64).checked_mul(36u64)?)?;
        __len = __len.checked_add(((num_data_parts) as u64).checked_mul(36u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `EncryptionChunkMetadata` borrowed in place: the
/// fields before `metadata_parts`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`EncryptionChunkMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct EncryptionChunkMetadataRef {
    /// Field `num_metadata_parts` as stored (spec "Num metadata parts").
    pub num_metadata_parts: zerocopy::byteorder::little_endian::U32,
    /// Field `num_data_parts` as stored (spec "Num data parts").
    pub num_data_parts: zerocopy::byteorder::little_endian::U32,
}
impl EncryptionChunkMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`EncryptionChunkMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_metadata_parts` (spec "Num metadata parts").
    pub fn num_metadata_parts(&self) -> u32 {
        self.num_metadata_parts.get()
    }
    /// Field `num_data_parts` (spec "Num data parts").
    pub fn num_data_parts(&self) -> u32 {
        self.num_data_parts.get()
    }
}
/// The view is exactly its fields: `size_of::<EncryptionChunkMetadataRef>()` is
/// [`EncryptionChunkMetadataRef::SIZE`] (else this does not compile).
const _: [(); EncryptionChunkMetadataRef::SIZE] = [(); core::mem::size_of::<
    EncryptionChunkMetadataRef,
>()];
impl crate::Record for EncryptionChunkMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.metadata_parts);
        self.metadata_parts = x.into_iter().map(|e| e.at_version(version)).collect();
        let x = core::mem::take(&mut self.data_parts);
        self.data_parts = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.metadata_parts);
        self.metadata_parts = x.into_iter().map(|e| e.with_sizes()).collect();
        let x = core::mem::take(&mut self.data_parts);
        self.data_parts = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_metadata_parts = self.metadata_parts.len() as u32;
        self.num_data_parts = self.data_parts.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.metadata_parts;
            for e in x {
                e.check(version)?;
            }
        }
        {
            let x = &self.data_parts;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_metadata_parts),
            Some(self.metadata_parts.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "EncryptionChunkMetadata",
                        "num_metadata_parts",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_data_parts),
            Some(self.data_parts.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "EncryptionChunkMetadata",
                        "num_data_parts",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The spec's `AESPart`: one encrypted part's lengths, IV and GCM tag.
///
/// Spec: `format_spec/tile.md#encryption-filters` (table "Encryption Filters").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct AesPart {
    /// Spec field "Plaintext length" (`u32`).
    #[br(err_context("AesPart.plaintext_length"))]
    pub plaintext_length: u32,
    /// Spec field "Encrypted length" (`u32`).
    #[br(err_context("AesPart.encrypted_length"))]
    pub encrypted_length: u32,
    /// Spec field "IV Bytes" (`bytes`).
    #[br(err_context("AesPart.iv"), parse_with = rt::bytes, args((12) as u64, "AesPart", "iv"))]
    pub iv: Vec<u8>,
    /// Spec field "Tag Bytes" (`bytes`).
    #[br(err_context("AesPart.tag"), parse_with = rt::bytes, args((16) as u64, "AesPart", "tag"))]
    pub tag: Vec<u8>,
}
impl AesPart {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/tile.md#encryption-filters";
}
impl AesPart {
    /// Bytes of one `AesPart`: every field has a fixed size.
    pub const SIZE: usize = 36;
    /// Where field `plaintext_length` (spec "Plaintext length") starts in a `AesPart`.
    pub const OFFSET_PLAINTEXT_LENGTH: usize = 0;
    /// Where field `encrypted_length` (spec "Encrypted length") starts in a `AesPart`.
    pub const OFFSET_ENCRYPTED_LENGTH: usize = 4;
    /// Where field `iv` (spec "IV Bytes") starts in a `AesPart`.
    pub const OFFSET_IV: usize = 8;
    /// Where field `tag` (spec "Tag Bytes") starts in a `AesPart`.
    pub const OFFSET_TAG: usize = 20;
}
/// A `AesPart` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`AesPartRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct AesPartRef {
    /// Field `plaintext_length` as stored (spec "Plaintext length").
    pub plaintext_length: zerocopy::byteorder::little_endian::U32,
    /// Field `encrypted_length` as stored (spec "Encrypted length").
    pub encrypted_length: zerocopy::byteorder::little_endian::U32,
    /// Field `iv` as stored (spec "IV Bytes").
    pub iv: [u8; 12],
    /// Field `tag` as stored (spec "Tag Bytes").
    pub tag: [u8; 16],
}
impl AesPartRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 36;
    /// The view of the first [`AesPartRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `plaintext_length` (spec "Plaintext length").
    pub fn plaintext_length(&self) -> u32 {
        self.plaintext_length.get()
    }
    /// Field `encrypted_length` (spec "Encrypted length").
    pub fn encrypted_length(&self) -> u32 {
        self.encrypted_length.get()
    }
    /// Field `iv` (spec "IV Bytes").
    pub fn iv(&self) -> &[u8; 12] {
        &self.iv
    }
    /// Field `tag` (spec "Tag Bytes").
    pub fn tag(&self) -> &[u8; 16] {
        &self.tag
    }
    /// The owned `AesPart` (the binrw struct) with the same values.
    pub fn record(&self) -> AesPart {
        AesPart {
            plaintext_length: self.plaintext_length(),
            encrypted_length: self.encrypted_length(),
            iv: self.iv.to_vec(),
            tag: self.tag.to_vec(),
        }
    }
}
/// The view is exactly its fields: `size_of::<AesPartRef>()` is
/// [`AesPartRef::SIZE`] (else this does not compile).
const _: [(); AesPartRef::SIZE] = [(); core::mem::size_of::<AesPartRef>()];
impl crate::Record for AesPart {
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
            let x = &self.iv;
            {
                let stated = (12) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size("AesPart", "iv", stated, actual),
                    );
                }
            }
        }
        {
            let x = &self.tag;
            {
                let stated = (16) as u64;
                let actual = x.len() as u64;
                if stated != actual {
                    return Err(
                        crate::EncodeError::size("AesPart", "tag", stated, actual),
                    );
                }
            }
        }
        Ok(())
    }
}
impl AesPart {
    /// Sets the sizes a `AesPart` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `plaintext_length` of `plaintext`: The part before encryption (not stored).
    /// * `encrypted_length` of `encrypted`: The part encrypted, in the chunk data.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        plaintext: &[u8],
        encrypted: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = plaintext.len() as u64;
        self.plaintext_length = n as u32;
        if self.plaintext_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "AesPart",
                    "plaintext_length",
                    self.plaintext_length as u64,
                    n,
                ),
            );
        }
        let n = encrypted.len() as u64;
        self.encrypted_length = n as u32;
        if self.encrypted_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "AesPart",
                    "encrypted_length",
                    self.encrypted_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `AesPart` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        plaintext: &[u8],
        encrypted: &[u8],
    ) -> Result<(), crate::EncodeError> {
        let n = plaintext.len() as u64;
        if self.plaintext_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "AesPart",
                    "plaintext_length",
                    self.plaintext_length as u64,
                    n,
                ),
            );
        }
        let n = encrypted.len() as u64;
        if self.encrypted_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "AesPart",
                    "encrypted_length",
                    self.encrypted_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
