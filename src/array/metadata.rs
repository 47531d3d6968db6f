//! Array metadata (format_spec/metadata.md) and group members
//! (format_spec/group.md), decoded into typed values.

use std::collections::BTreeMap;
use std::path::Path;

use super::directory::ArrayDirectory;
use crate::error::{Error, Result};
use crate::format::hierarchy;
use crate::format::version::has_group_member_deltas;
use crate::format::{decode_all, ArrayMetadata, Datatype, GroupDetails, ObjectType};
use crate::model::MetadataValue;
use crate::storage::MappedFile;
use crate::tile::read_generic_tile;
use crate::ReadOptions;

/// Merges the metadata files of `__meta`, oldest first: a later entry
/// replaces an earlier one, a deletion removes it. Keys are shown as text
/// (bytes that are not UTF-8 replaced). A value of no known datatype is a
/// decode error.
pub fn read_array_metadata(
    dir: &ArrayDirectory,
    opts: &ReadOptions,
) -> Result<BTreeMap<String, MetadataValue>> {
    read_array_metadata_at(dir, None, opts)
}

/// [`read_array_metadata`] of the metadata files written within the
/// timestamp range `at` (both ends included), as the engine reads the
/// metadata of an array opened at a timestamp range; every file for `None`.
pub fn read_array_metadata_at(
    dir: &ArrayDirectory,
    at: Option<(u64, u64)>,
    opts: &ReadOptions,
) -> Result<BTreeMap<String, MetadataValue>> {
    let mut merged: BTreeMap<Vec<u8>, MetadataValue> = BTreeMap::new();
    let within =
        |e: &&super::directory::Entry| at.is_none_or(|(t1, t2)| t1 <= e.name.t1 && e.name.t2 <= t2);
    for e in dir.metadata.iter().filter(within) {
        let file = dir.storage.open(&e.path)?;
        let tile = read_generic_tile(&file, 0, opts)?;
        let md: ArrayMetadata = decode_all(&tile.data, &e.path, 0, ())?;
        for entry in md.entries {
            merged.remove(&entry.key);
            if entry.deletion == 0 {
                let code = entry.value_type.unwrap_or(Datatype::Unknown(u8::MAX));
                let datatype = code.known().ok_or_else(|| {
                    Error::decode(
                        &e.path,
                        0,
                        "ArrayMetadataEntry",
                        "value_type",
                        format!("{} is not a datatype", code.value()),
                    )
                })?;
                let bytes = entry.value.unwrap_or_default();
                merged.insert(entry.key, MetadataValue::new(datatype, bytes));
            }
        }
    }
    Ok(merged
        .into_iter()
        .map(|(k, v)| (String::from_utf8_lossy(&k).into_owned(), v))
        .collect())
}

/// A member of a group.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct GroupMember {
    /// Its name, where it has one.
    pub name: Option<String>,
    /// Its URI.
    pub uri: String,
    /// Array or group (or a code the format does not list).
    pub object_type: ObjectType,
    /// Whether `uri` is relative to the group.
    pub relative: bool,
}

/// The members of the group at `path` (from its `__group` details files,
/// oldest first; a deleted member drops out), ordered by name (or URI).
pub fn read_group_members(path: &Path, opts: &ReadOptions) -> Result<Vec<GroupMember>> {
    let gdir = path.join(hierarchy::GROUP);
    let mut files: Vec<_> = std::fs::read_dir(&gdir)
        .map_err(|e| Error::io(&gdir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            super::name::parse(&p.file_name().unwrap_or_default().to_string_lossy()).is_some()
        })
        .collect();
    files.sort();
    // Version 2 details accumulate; a deleted member drops out.
    let mut members: BTreeMap<String, GroupMember> = BTreeMap::new();
    for p in &files {
        let file = MappedFile::open(p)?;
        let tile = read_generic_tile(&file, 0, opts)?;
        let details: GroupDetails = decode_all(&tile.data, p, 0, ())?;
        if !has_group_member_deltas(details.version) {
            members.clear();
        }
        for m in details.members {
            let uri = String::from_utf8_lossy(&m.uri).into_owned();
            let name = m
                .name
                .as_ref()
                .map(|n| String::from_utf8_lossy(n).into_owned());
            let key = name.clone().unwrap_or_else(|| uri.clone());
            if m.deleted.unwrap_or(0) != 0 {
                members.remove(&key);
                continue;
            }
            members.insert(
                key,
                GroupMember {
                    name,
                    uri,
                    object_type: m.object_type,
                    relative: m.relative != 0,
                },
            );
        }
    }
    Ok(members.into_values().collect())
}
