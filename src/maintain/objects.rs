//! Groups and the metadata of arrays and groups, as `maintain` offers
//! them: the facade's error, and types of this module's own in place of
//! the lower layers' (the format's `ObjectType`,
//! `array::metadata::GroupMember`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{group, meta};
use crate::format::{Datatype, ObjectType};
use crate::model::MetadataValue;
use crate::{ReadOptions, Result};

/// How to write a change of metadata or of a group's members: the writer's
/// options, which name no lower-layer type.
pub use crate::write::MetadataOptions;

/// What a path or a group member is, as the engine's object types name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObjectKind {
    /// An array.
    Array,
    /// A group.
    Group,
    /// The format's INVALID (a member recorded without a type).
    Invalid,
    /// A code the format does not list, as recorded.
    Other(u8),
}

impl ObjectKind {
    fn of(t: ObjectType) -> Self {
        match t {
            ObjectType::Array => ObjectKind::Array,
            ObjectType::Group => ObjectKind::Group,
            ObjectType::Invalid => ObjectKind::Invalid,
            ObjectType::Unknown(code) => ObjectKind::Other(code),
            // A type a later format names: its code.
            other => ObjectKind::Other(other.value()),
        }
    }
}

impl std::fmt::Display for ObjectKind {
    /// `array`, `group`, `invalid`, or `type N` for a code the format does
    /// not list.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ObjectKind::Array => f.write_str("array"),
            ObjectKind::Group => f.write_str("group"),
            ObjectKind::Invalid => f.write_str("invalid"),
            ObjectKind::Other(code) => write!(f, "type {code}"),
        }
    }
}

/// A member of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GroupMember {
    /// Its name, where it has one.
    pub name: Option<String>,
    /// Its URI, as recorded.
    pub uri: String,
    /// Array or group (or what else the group recorded).
    pub object_type: ObjectKind,
    /// Whether `uri` is relative to the group.
    pub relative: bool,
}

impl GroupMember {
    fn of(m: crate::array::metadata::GroupMember) -> Self {
        GroupMember {
            object_type: ObjectKind::of(m.object_type),
            name: m.name,
            uri: m.uri,
            relative: m.relative,
        }
    }
}

/// What is at `path`, as the engine's `object_type` tells it: an array
/// (a `__schema` folder or an old `__array_schema.tdb`), a group (the
/// `__tiledb_group.tdb` marker), or nothing it knows.
pub fn object_type(path: &Path) -> Option<ObjectKind> {
    group::object_type(path).map(ObjectKind::of)
}

/// Creates an empty group at `path` (which must not exist): the folder and
/// its contents are made under a hidden temporary name next to it and
/// renamed into place, so the group appears whole or not at all.
pub fn create_group(path: &Path) -> Result<()> {
    Ok(group::create_group(path)?)
}

/// The members of a group (the merged details files), ordered by name, or
/// URI for the unnamed.
pub fn group_members(group: &Path, opts: &ReadOptions) -> Result<Vec<GroupMember>> {
    Ok(group::members(group, opts)?
        .into_iter()
        .map(GroupMember::of)
        .collect())
}

/// Adds one member to a group; returns it as recorded and the details
/// file written.
pub fn add_member(
    group: &Path,
    member: &group::NewMember,
    opts: &MetadataOptions,
) -> Result<(GroupMember, PathBuf)> {
    let (m, path) = group::add_member(group, member, opts)?;
    Ok((GroupMember::of(m), path))
}

/// Adds members to a group in one change (one details file); returns them
/// as recorded and the file. Refused, with nothing written, when a member
/// does not exist, or its name (an unnamed member's URI) is already taken.
pub fn add_members(
    group: &Path,
    new: &[group::NewMember],
    opts: &MetadataOptions,
) -> Result<(Vec<GroupMember>, PathBuf)> {
    let (ms, path) = group::add_members(group, new, opts)?;
    Ok((ms.into_iter().map(GroupMember::of).collect(), path))
}

/// Removes the member named, or else with the URI, `name_or_uri` (a local
/// path is taken as its `file://` URI too); returns it and the details
/// file written. Refused, with nothing written, when no member matches or
/// several members share the URI (remove those by name).
pub fn remove_member(
    group: &Path,
    name_or_uri: &str,
    opts: &MetadataOptions,
) -> Result<(GroupMember, PathBuf)> {
    let (m, path) = group::remove_member(group, name_or_uri, opts)?;
    Ok((GroupMember::of(m), path))
}

/// The path a member's URI points to: relative members from the group
/// folder, `file://` URIs as paths; `None` for other schemes.
pub fn member_path(group: &Path, m: &GroupMember) -> Option<PathBuf> {
    group::uri_path(group, &m.uri, m.relative)
}

/// The metadata of an array or group: every `__meta` file merged (a later
/// value replaces an earlier, a deletion removes the key).
pub fn read_metadata(path: &Path, opts: &ReadOptions) -> Result<BTreeMap<String, MetadataValue>> {
    Ok(meta::read_metadata(path, opts)?)
}

/// Sets `key` of an array's or group's metadata to `value` (values of
/// `datatype`, little-endian, back to back); returns the file written.
pub fn put_metadata(
    path: &Path,
    key: &str,
    datatype: Datatype,
    value: &[u8],
    opts: &MetadataOptions,
) -> Result<PathBuf> {
    Ok(meta::put(path, key, datatype, value, opts)?)
}

/// Deletes `key` of an array's or group's metadata; returns the file
/// written. Refused, with nothing written, when the key is not set (the
/// engine would write a deletion of nothing).
pub fn delete_metadata(path: &Path, key: &str, opts: &MetadataOptions) -> Result<PathBuf> {
    Ok(meta::delete(path, key, opts)?)
}
