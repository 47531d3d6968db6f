// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// As the engine reads it (tiledb/sm/group/group_details_v1.cc, _v2.cc): the
/// member count is a u64, where the spec page says u32. Version 1 files are read
/// alone (the latest wins); version 2 files are merged in timestamp order, a
/// deleted member removing its key (the name if set, else the URI).
///
/// Spec: `format_spec/group.md#group-file` (table "Group File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct GroupDetails {
    /// Spec field "Version" (`u32`).
    #[br(err_context("GroupDetails.version"))]
    pub version: u32,
    /// Spec field "Number of Group Member" (`u64`).
    ///
    /// u64 in the engine; the spec page says uint32_t.
    #[br(err_context("GroupDetails.member_count"))]
    pub member_count: u64,
    /// Spec field "Group Member 1 … Group Member N" (`list<GroupMember>`).
    #[br(err_context("GroupDetails.members"), parse_with = rt::list, args((member_count) as u64, 1, (), "GroupDetails", "members"))]
    pub members: Vec<GroupMember>,
}
impl GroupDetails {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/group.md#group-file";
}
impl GroupDetails {
    /// Where field `version` (spec "Version") starts in a `GroupDetails`.
    pub const OFFSET_VERSION: usize = 0;
    /// Where field `member_count` (spec "Number of Group Member") starts in a `GroupDetails`.
    pub const OFFSET_MEMBER_COUNT: usize = 4;
    /// Where field `members` (spec "Group Member 1 … Group Member N") starts in a `GroupDetails`.
    pub const OFFSET_MEMBERS: usize = 12;
}
/// The fixed-size fields that open a `GroupDetails` borrowed in place: the
/// fields before `members`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`GroupDetailsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct GroupDetailsRef {
    /// Field `version` as stored (spec "Version").
    pub version: zerocopy::byteorder::little_endian::U32,
    /// Field `member_count` as stored (spec "Number of Group Member").
    pub member_count: zerocopy::byteorder::little_endian::U64,
}
impl GroupDetailsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`GroupDetailsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version` (spec "Version").
    pub fn version(&self) -> u32 {
        self.version.get()
    }
    /// Field `member_count` (spec "Number of Group Member").
    pub fn member_count(&self) -> u64 {
        self.member_count.get()
    }
}
/// The view is exactly its fields: `size_of::<GroupDetailsRef>()` is
/// [`GroupDetailsRef::SIZE`] (else this does not compile).
const _: [(); GroupDetailsRef::SIZE] = [(); core::mem::size_of::<GroupDetailsRef>()];
impl crate::Record for GroupDetails {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.members);
        self.members = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.members);
        self.members = x.into_iter().map(|e| e.with_sizes()).collect();
        self.member_count = self.members.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.members;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.member_count),
            Some(self.members.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "GroupDetails",
                        "member_count",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// As the engine reads it (tiledb/sm/group/group_member_v1.cc, _v2.cc): the name
/// length and name are present only when the name is set, and the deleted flag
/// only in member version 2; the spec page shows all fields unconditionally.
///
/// Spec: `format_spec/group.md#group-member` (table "Group Member").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct GroupMember {
    /// Spec field "Version" (`u32`).
    #[br(err_context("GroupMember.version"))]
    pub version: u32,
    /// Spec field "Object type" (`u8`, values from [`ObjectType`]).
    #[br(err_context("GroupMember.object_type"))]
    pub object_type: ObjectType,
    /// Spec field "Relative" (`bool`).
    #[br(err_context("GroupMember.relative"))]
    pub relative: u8,
    /// Spec field "URI length" (`u64`).
    #[br(err_context("GroupMember.uri_length"))]
    pub uri_length: u64,
    /// Spec field "URI" (`string`).
    #[br(err_context("GroupMember.uri"), parse_with = rt::bytes, args((uri_length) as u64, "GroupMember", "uri"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub uri: Vec<u8>,
    /// Spec field "Name set" (`bool`).
    #[br(err_context("GroupMember.name_set"))]
    pub name_set: u8,
    /// Spec field "Name length" (`u64`).
    #[br(err_context("GroupMember.name_length"), if(((name_set != 0))))]
    pub name_length: Option<u64>,
    /// Spec field "Name" (`string`).
    #[br(err_context("GroupMember.name"), parse_with = rt::opt_bytes, args(((name_set != 0)), (name_length.clone().unwrap_or_default()) as u64, "GroupMember", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_opt_text"))]
    pub name: Option<Vec<u8>>,
    /// Spec field "Deleted" (`bool`). New in version 2.
    #[br(err_context("GroupMember.deleted"), if((version) >= 2))]
    pub deleted: Option<u8>,
}
impl GroupMember {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/group.md#group-member";
}
impl GroupMember {
    /// Where field `version` (spec "Version") starts in a `GroupMember`.
    pub const OFFSET_VERSION: usize = 0;
    /// Where field `object_type` (spec "Object type") starts in a `GroupMember`.
    pub const OFFSET_OBJECT_TYPE: usize = 4;
    /// Where field `relative` (spec "Relative") starts in a `GroupMember`.
    pub const OFFSET_RELATIVE: usize = 5;
    /// Where field `uri_length` (spec "URI length") starts in a `GroupMember`.
    pub const OFFSET_URI_LENGTH: usize = 6;
    /// Where field `uri` (spec "URI") starts in a `GroupMember`.
    pub const OFFSET_URI: usize = 14;
    /// Bytes of a `GroupMember` with these imports
    /// and the values of its fields
    /// `version`, `uri_length`, `name_set`, `name_length`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        version: u32,
        uri_length: u64,
        name_set: u8,
        name_length: Option<u64>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((uri_length) as u64)?;
        __len = __len.checked_add(1)?;
        if ((name_set != 0)) {
            name_length?;
            __len = __len.checked_add(8)?;
        }
        if ((name_set != 0)) {
            __len = __len.checked_add((name_length.clone().unwrap_or_default()) as u64)?;
        }
        if (version) >= 2 {
            __len = __len.checked_add(1)?;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `GroupMember` borrowed in place: the
/// fields before `uri`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`GroupMemberRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct GroupMemberRef {
    /// Field `version` as stored (spec "Version").
    pub version: zerocopy::byteorder::little_endian::U32,
    /// Field `object_type` as stored (spec "Object type").
    pub object_type: u8,
    /// Field `relative` as stored (spec "Relative").
    pub relative: u8,
    /// Field `uri_length` as stored (spec "URI length").
    pub uri_length: zerocopy::byteorder::little_endian::U64,
}
impl GroupMemberRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 14;
    /// The view of the first [`GroupMemberRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version` (spec "Version").
    pub fn version(&self) -> u32 {
        self.version.get()
    }
    /// Field `object_type` (spec "Object type").
    pub fn object_type(&self) -> u8 {
        self.object_type
    }
    /// Field `relative` (spec "Relative").
    pub fn relative(&self) -> u8 {
        self.relative
    }
    /// Field `uri_length` (spec "URI length").
    pub fn uri_length(&self) -> u64 {
        self.uri_length.get()
    }
    /// Field `uri` (spec "URI") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn uri<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let uri_length = self.uri_length();
        let len = usize::try_from((uri_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<GroupMemberRef>()` is
/// [`GroupMemberRef::SIZE`] (else this does not compile).
const _: [(); GroupMemberRef::SIZE] = [(); core::mem::size_of::<GroupMemberRef>()];
impl crate::Record for GroupMember {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self.version = version as u32;
        if version >= 2 {
            if self.deleted.is_none() {
                self.deleted = Some(Default::default());
            }
        } else {
            self.deleted = None;
        }
        self
    }
    fn with_sizes(mut self) -> Self {
        self.uri_length = self.uri.len() as u64;
        self.name_length = self.name.as_ref().map(|x| x.len() as u64);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let version = Some(self.version as u32);
        if let Some(v) = version {
            if (v >= 2) != self.deleted.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "GroupMember",
                        "deleted",
                        v,
                        self.deleted.is_some(),
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
                        "GroupMember",
                        "uri_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.name_length,
            self.name.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "GroupMember",
                        "name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let name_set = self.name_set.clone();
            if ((name_set != 0)) != self.name_length.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "GroupMember",
                        "name_length",
                        "name_set != 0",
                        self.name_length.is_some(),
                    ),
                );
            }
        }
        {
            let name_set = self.name_set.clone();
            if ((name_set != 0)) != self.name.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "GroupMember",
                        "name",
                        "name_set != 0",
                        self.name.is_some(),
                    ),
                );
            }
        }
        Ok(())
    }
}
