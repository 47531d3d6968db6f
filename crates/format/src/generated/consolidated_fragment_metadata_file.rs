// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The index at the start of the tile data. The footers (`FragmentFooter`, each
/// without a trailing footer length) follow it and are read by code at the
/// offsets the entries give, which count from the start of the unfiltered tile
/// data, with the schema of each fragment. Where the engine
/// (tiledb/sm/consolidator/fragment_meta_consolidator.cc, fragment_info.cc)
/// differs from the spec page: the index opens with a u32 fragment count; the
/// file is a generic tile; the offsets are into the tile data, not the file.
///
/// Spec: `format_spec/consolidated_fragment_metadata_file.md#` (table "Consolidated Fragment Metadata File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ConsolidatedFragmentMetadata {
    /// Spec field "Fragment num" (`u32`).
    ///
    /// Not on the spec page.
    #[br(err_context("ConsolidatedFragmentMetadata.fragment_num"))]
    pub fragment_num: u32,
    /// Spec field "Fragment 1 length … Fragment N offset" (`list<ConsolidatedFragmentEntry>`).
    #[br(err_context("ConsolidatedFragmentMetadata.fragments"), parse_with = rt::list, args((fragment_num) as u64, 1, (), "ConsolidatedFragmentMetadata", "fragments"))]
    pub fragments: Vec<ConsolidatedFragmentEntry>,
}
impl ConsolidatedFragmentMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/consolidated_fragment_metadata_file.md#";
}
impl ConsolidatedFragmentMetadata {
    /// Where field `fragment_num` (spec "Fragment num") starts in a `ConsolidatedFragmentMetadata`.
    pub const OFFSET_FRAGMENT_NUM: usize = 0;
    /// Where field `fragments` (spec "Fragment 1 length … Fragment N offset") starts in a `ConsolidatedFragmentMetadata`.
    pub const OFFSET_FRAGMENTS: usize = 4;
}
/// The fixed-size fields that open a `ConsolidatedFragmentMetadata` borrowed in place: the
/// fields before `fragments`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ConsolidatedFragmentMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ConsolidatedFragmentMetadataRef {
    /// Field `fragment_num` as stored (spec "Fragment num").
    pub fragment_num: zerocopy::byteorder::little_endian::U32,
}
impl ConsolidatedFragmentMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`ConsolidatedFragmentMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `fragment_num` (spec "Fragment num").
    pub fn fragment_num(&self) -> u32 {
        self.fragment_num.get()
    }
}
/// The view is exactly its fields: `size_of::<ConsolidatedFragmentMetadataRef>()` is
/// [`ConsolidatedFragmentMetadataRef::SIZE`] (else this does not compile).
const _: [(); ConsolidatedFragmentMetadataRef::SIZE] = [(); core::mem::size_of::<
    ConsolidatedFragmentMetadataRef,
>()];
impl crate::Record for ConsolidatedFragmentMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.fragments);
        self.fragments = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.fragments);
        self.fragments = x.into_iter().map(|e| e.with_sizes()).collect();
        self.fragment_num = self.fragments.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.fragments;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.fragment_num),
            Some(self.fragments.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ConsolidatedFragmentMetadata",
                        "fragment_num",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl ConsolidatedFragmentMetadata {
    /// Sets, in each element of `fragments`, where its part of `footers` starts (its
    /// `offset`), the parts following the record, which counts them from
    /// its start (it is completed by [`with_sizes`](crate::Record::with_sizes)
    /// first):
    ///
    /// * `footers`: The fragments' footers, one per entry, in order, right after the index.
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when there is not
    /// one part per element, [`EncodeError::Size`](crate::EncodeError::Size)
    /// when a start does not fit its field.
    pub fn with_parts_after(
        self,
        footers: &[impl AsRef<[u8]>],
    ) -> Result<Self, crate::EncodeError> {
        let mut s = crate::Record::with_sizes(self);
        if s.fragments.len() != footers.len() {
            return Err(
                crate::EncodeError::part(
                    "ConsolidatedFragmentMetadata",
                    "footers",
                    "one part per element of the list that points at them",
                ),
            );
        }
        let mut at = crate::decode::encode_unchecked(&s).len() as u64;
        for (e, p) in s.fragments.iter_mut().zip(footers) {
            e.offset = at as _;
            if e.offset as u64 != at {
                return Err(
                    crate::EncodeError::size(
                        "ConsolidatedFragmentMetadata",
                        "offset",
                        e.offset as u64,
                        at,
                    ),
                );
            }
            at += p.as_ref().len() as u64;
        }
        Ok(s)
    }
    /// Whether each element of `fragments` states where its part of `footers`
    /// starts ([`with_parts_after`](Self::with_parts_after)).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when there is not
    /// one part per element, [`EncodeError::Offset`](crate::EncodeError::Offset)
    /// naming the first start that is wrong.
    pub fn check_parts_after(
        &self,
        footers: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        let s = self;
        if s.fragments.len() != footers.len() {
            return Err(
                crate::EncodeError::part(
                    "ConsolidatedFragmentMetadata",
                    "footers",
                    "one part per element of the list that points at them",
                ),
            );
        }
        let mut at = crate::decode::encode_unchecked(s).len() as u64;
        for (e, p) in s.fragments.iter().zip(footers) {
            if e.offset as u64 != at {
                return Err(
                    crate::EncodeError::offset(
                        "ConsolidatedFragmentMetadata",
                        "offset",
                        e.offset as u64,
                        at,
                    ),
                );
            }
            at += p.as_ref().len() as u64;
        }
        Ok(())
    }
}
/// One fragment: its name (the fragment folder name when the `.meta` file's
/// name version is 9 or more, before that the fragment's full URI) and the
/// offset of its footer in the tile data (the spec page says in the file).
///
/// Spec: `format_spec/consolidated_fragment_metadata_file.md#` (table "Consolidated Fragment Metadata File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ConsolidatedFragmentEntry {
    /// Spec field "Fragment length" (`u64`).
    #[br(err_context("ConsolidatedFragmentEntry.name_length"))]
    pub name_length: u64,
    /// Spec field "Fragment" (`string`).
    #[br(err_context("ConsolidatedFragmentEntry.name"), parse_with = rt::bytes, args((name_length) as u64, "ConsolidatedFragmentEntry", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub name: Vec<u8>,
    /// Spec field "Fragment offset" (`u64`).
    #[br(err_context("ConsolidatedFragmentEntry.offset"))]
    pub offset: u64,
}
impl ConsolidatedFragmentEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/consolidated_fragment_metadata_file.md#";
}
impl ConsolidatedFragmentEntry {
    /// Where field `name_length` (spec "Fragment length") starts in a `ConsolidatedFragmentEntry`.
    pub const OFFSET_NAME_LENGTH: usize = 0;
    /// Where field `name` (spec "Fragment") starts in a `ConsolidatedFragmentEntry`.
    pub const OFFSET_NAME: usize = 8;
    /// Bytes of a `ConsolidatedFragmentEntry` with these imports
    /// and the values of its fields
    /// `name_length`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(name_length: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((name_length) as u64)?;
        __len = __len.checked_add(8)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `ConsolidatedFragmentEntry` borrowed in place: the
/// fields before `name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ConsolidatedFragmentEntryRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ConsolidatedFragmentEntryRef {
    /// Field `name_length` as stored (spec "Fragment length").
    pub name_length: zerocopy::byteorder::little_endian::U64,
}
impl ConsolidatedFragmentEntryRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ConsolidatedFragmentEntryRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `name_length` (spec "Fragment length").
    pub fn name_length(&self) -> u64 {
        self.name_length.get()
    }
    /// Field `name` (spec "Fragment") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let name_length = self.name_length();
        let len = usize::try_from((name_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<ConsolidatedFragmentEntryRef>()` is
/// [`ConsolidatedFragmentEntryRef::SIZE`] (else this does not compile).
const _: [(); ConsolidatedFragmentEntryRef::SIZE] = [(); core::mem::size_of::<
    ConsolidatedFragmentEntryRef,
>()];
impl crate::Record for ConsolidatedFragmentEntry {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.name_length = self.name.len() as u64;
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
                        "ConsolidatedFragmentEntry",
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
