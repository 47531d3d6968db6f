//! Groups, as the engine writes them (format_spec/group.md): a folder with
//! the empty marker `__tiledb_group.tdb`, a `__meta` folder for its
//! metadata (written by [`super::meta`]) and a `__group` folder of details
//! files, one per change.
//!
//! Each details file of version 2 holds the whole membership after the
//! change plus the members removed by it (the "deleted" flag), as TileDB
//! 2.30 writes it (the engine's reader merges every version-2 file in
//! timestamp order, so older readers that expect only the change read it
//! the same). A group whose latest details file is of version 1 is read
//! from that file alone, so a change to it is a new version-1 file with the
//! whole membership.
//!
//! Checks the engine makes when it adds and removes members
//! (tiledb/sm/group/group_details.cc): the member must exist (its type,
//! array or group, is recorded), a name (or, unnamed, URI) may not be added
//! twice, and only a member can be removed; a URI shared by several
//! members must be removed by name. Unlike TileDB 2.30, which accepts a
//! member that does not exist (recording the type INVALID, which its own
//! Python listing then fails on) and silently replaces a member re-added
//! under the same name, these refuse both, writing nothing.

use std::path::{Path, PathBuf};

use crate::array::metadata::read_group_members;
use crate::format::hierarchy;
use crate::format::version::has_group_member_deltas;
use crate::format::{encode, GroupDetails, ObjectType, Record, TimestampedNameFormat};
use crate::write::generic::generic_tile;
use crate::write::{util, MetadataOptions, WriteError, WriteResult, FORMAT_VERSION};
use crate::ReadOptions;

use crate::array::metadata::GroupMember;

/// The options of a group change: its timestamp (milliseconds; default
/// now, later than every details file there) and the key of an encrypted
/// group. The same as a metadata change's.
pub(crate) type GroupOptions = MetadataOptions;

/// The marker file of a group folder.
const GROUP_FILE: &str = hierarchy::GROUP_MARKER;

/// A member to add to a group.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NewMember {
    /// The member: a path (or `file://` URI); with `relative`, a path
    /// relative to the group folder.
    pub uri: String,
    /// Its name in the group, if it has one.
    pub name: Option<String>,
    /// Whether the URI is kept relative to the group (it moves with it).
    pub relative: bool,
}

impl NewMember {
    /// The member at `uri`, named `name`, its URI kept relative to the
    /// group when `relative`.
    pub fn new(uri: impl Into<String>, name: Option<String>, relative: bool) -> Self {
        NewMember {
            uri: uri.into(),
            name,
            relative,
        }
    }
}

/// What is at `path`, as the engine's `object_type` tells it: an array
/// (a `__schema` folder or an old `__array_schema.tdb`), a group (the
/// `__tiledb_group.tdb` marker), or nothing it knows.
pub fn object_type(path: &Path) -> Option<ObjectType> {
    if path.join(hierarchy::SCHEMA).is_dir() || path.join(hierarchy::LEGACY_SCHEMA).is_file() {
        Some(ObjectType::Array)
    } else if path.join(GROUP_FILE).is_file() {
        Some(ObjectType::Group)
    } else {
        None
    }
}

fn group_error(path: &Path, what: impl Into<String>) -> WriteError {
    WriteError::Group {
        path: path.to_path_buf(),
        what: what.into(),
    }
}

/// Creates an empty group at `path` (which must not exist): the folder and
/// its contents are made under a hidden temporary name next to it and
/// renamed into place, so the group appears whole or not at all.
pub fn create_group(path: &Path) -> WriteResult<()> {
    if path.exists() {
        return Err(group_error(path, "already exists"));
    }
    let name = path
        .file_name()
        .ok_or_else(|| group_error(path, "not a folder name"))?
        .to_string_lossy()
        .into_owned();
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(group_error(path, "its parent folder does not exist"));
    }
    let tmp = parent.join(format!(".{name}.tiledb-codec-{}", util::random_label()));
    let made = (|| {
        util::create_dir(&tmp.join(hierarchy::GROUP))?;
        util::create_dir(&tmp.join(hierarchy::META))?;
        util::write_new_synced(&tmp.join(GROUP_FILE), &[])?;
        util::sync_dir(&tmp.join(hierarchy::GROUP))?;
        util::sync_dir(&tmp.join(hierarchy::META))?;
        util::sync_dir(&tmp)?;
        // `rename` never replaces a folder that holds something: of two
        // processes creating the group at once, one wins.
        if util::rename_dir_into_place(&tmp, path)? {
            Ok(())
        } else {
            Err(group_error(
                path,
                "already exists (created by another writer at the same time)",
            ))
        }
    })();
    if made.is_err() {
        // Only this process's own hidden folder, if it is still there.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    made
}

fn check_group(group: &Path) -> WriteResult<()> {
    if object_type(group) == Some(ObjectType::Group) {
        Ok(())
    } else {
        Err(group_error(group, "not a group (no __tiledb_group.tdb)"))
    }
}

/// The members of a group (the merged details files), ordered by name, or
/// URI for the unnamed.
pub fn members(group: &Path, opts: &ReadOptions) -> WriteResult<Vec<GroupMember>> {
    check_group(group)?;
    if !group.join(hierarchy::GROUP).is_dir() {
        return Ok(Vec::new());
    }
    Ok(read_group_members(group, opts)?)
}

/// The key the engine files a member under: its name, else its URI.
fn key(m: &GroupMember) -> &str {
    m.name.as_deref().unwrap_or(&m.uri)
}

/// A local path as the engine's URI of it: `file://` and the absolute path.
fn file_uri(path: &Path) -> Option<String> {
    let abs = std::path::absolute(path).ok()?;
    let s = abs.to_str()?.trim_end_matches('/');
    Some(format!("file://{s}"))
}

/// Where a member is on disk, and the URI stored for it.
fn resolve(group: &Path, m: &NewMember) -> WriteResult<(PathBuf, String)> {
    let uri = m.uri.trim_end_matches('/');
    if uri.is_empty() {
        return Err(group_error(group, "a member URI cannot be empty"));
    }
    if m.relative {
        if uri.contains("://") || Path::new(uri).is_absolute() {
            return Err(group_error(
                group,
                format!("{uri}: a relative member needs a path relative to the group"),
            ));
        }
        return Ok((group.join(uri), uri.to_string()));
    }
    let path = match uri.strip_prefix("file://") {
        Some(p) => PathBuf::from(p),
        None if uri.contains("://") => {
            return Err(WriteError::Unsupported(format!(
                "{uri}: only local members can be added (their type is checked on disk)"
            )))
        }
        None => PathBuf::from(uri),
    };
    let stored = file_uri(&path)
        .ok_or_else(|| group_error(group, format!("{uri}: not a path that can be a URI")))?;
    Ok((path, stored))
}

/// Writes one details file of the group holding `members` (and, version 2,
/// `removed` with the deleted flag); returns its path.
fn write_details(
    group: &Path,
    version: u32,
    members: &[GroupMember],
    removed: &[GroupMember],
    opts: &GroupOptions,
) -> WriteResult<PathBuf> {
    let entry = |m: &GroupMember, deleted: bool| {
        crate::format::table!(crate::format::GroupMember {
            version,
            object_type: m.object_type,
            relative: u8::from(m.relative),
            uri: m.uri.as_bytes().to_vec(),
            name_set: u8::from(m.name.is_some()),
            name: m.name.as_ref().map(|n| n.as_bytes().to_vec()),
            deleted: has_group_member_deltas(version).then_some(u8::from(deleted)),
        })
        .with_sizes()
    };
    let mut entries: Vec<_> = members.iter().map(|m| entry(m, false)).collect();
    if has_group_member_deltas(version) {
        entries.extend(removed.iter().map(|m| entry(m, true)));
    }
    let details = crate::format::table!(GroupDetails {
        version,
        members: entries,
    })
    .with_sizes();
    let dir = group.join(hierarchy::GROUP);
    util::create_dir(&dir)?;
    let t = util::next_timestamp(opts.timestamp, std::slice::from_ref(&dir))?;
    let name = util::timestamped_name(t, t, Some(version));
    let bytes = generic_tile(&encode(&details)?, FORMAT_VERSION, opts.encryption_key)?;
    // Staged in the group's own folder under a hidden name, then renamed
    // into `__group`: the engine takes every file of `__group` for a
    // details file, a `.NAME.tmp` beside them included (a crash between
    // the two steps would have shown it the new members).
    let path = dir.join(&name);
    super::meta_files::write_atomic(
        group,
        &path,
        &bytes,
        &mut super::meta_files::Steps::new(None),
    )?;
    Ok(path)
}

/// The version of the group's latest details file (2 for a group without
/// one): a version-1 group is read from its latest file alone.
fn details_version(group: &Path) -> u32 {
    let Ok(rd) = std::fs::read_dir(group.join(hierarchy::GROUP)) else {
        return 2;
    };
    let latest = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let n = crate::array::name::parse(&name)?;
            Some(((n.t1, name.clone()), name))
        })
        .max();
    let Some((_, name)) = latest else {
        return 2;
    };
    // `__t1_t2_uuid` (before 2.19) or `__t1_t2_uuid_1`.
    match crate::format::timestamped_name::parse(&name) {
        Some(p) if p.format == TimestampedNameFormat::T1T2Uuid => 1,
        Some(p) if p.explicit_version && !has_group_member_deltas(p.version) => 1,
        _ => 2,
    }
}

fn read_opts(opts: &GroupOptions) -> ReadOptions {
    ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    }
}

/// Adds one member to a group; returns it as recorded and the details
/// file written.
pub fn add_member(
    group: &Path,
    member: &NewMember,
    opts: &GroupOptions,
) -> WriteResult<(GroupMember, PathBuf)> {
    let (mut added, path) = add_members(group, std::slice::from_ref(member), opts)?;
    let m = added
        .pop()
        .ok_or_else(|| group_error(group, "nothing was added"))?;
    Ok((m, path))
}

/// Adds members to a group in one change (one details file); returns them
/// as recorded and the file. Refused, with nothing written, when a member
/// does not exist, or its name (an unnamed member's URI) is already taken.
pub fn add_members(
    group: &Path,
    new: &[NewMember],
    opts: &GroupOptions,
) -> WriteResult<(Vec<GroupMember>, PathBuf)> {
    check_group(group)?;
    if new.is_empty() {
        return Err(group_error(group, "no member to add"));
    }
    let mut current = members(group, &read_opts(opts))?;
    let mut added = Vec::new();
    for m in new {
        if m.name.as_deref() == Some("") {
            return Err(group_error(group, "a member name cannot be empty"));
        }
        let (path, uri) = resolve(group, m)?;
        let ty = object_type(&path).ok_or_else(|| {
            group_error(
                group,
                format!(
                    "cannot add {}: {} is neither an array nor a group (it likely does not exist)",
                    m.uri,
                    path.display()
                ),
            )
        })?;
        let gm = GroupMember {
            name: m.name.clone(),
            uri,
            object_type: ty,
            relative: m.relative,
        };
        if let Some(old) = current.iter().find(|c| key(c) == key(&gm)) {
            let what = match &gm.name {
                Some(n) => format!("a member named {n:?} is already in the group ({})", old.uri),
                None => format!(
                    "{} is already an unnamed member of the group; give it a name to add it again",
                    gm.uri
                ),
            };
            return Err(group_error(group, what));
        }
        current.push(gm.clone());
        added.push(gm);
    }
    let version = details_version(group);
    let path = write_details(group, version, &current, &[], opts)?;
    Ok((added, path))
}

/// Removes the member named, or else with the URI, `name_or_uri` (a local
/// path is taken as its `file://` URI too); returns it and the details
/// file written. Refused, with nothing written, when no member matches or
/// several members share the URI (remove those by name).
pub fn remove_member(
    group: &Path,
    name_or_uri: &str,
    opts: &GroupOptions,
) -> WriteResult<(GroupMember, PathBuf)> {
    check_group(group)?;
    let mut current = members(group, &read_opts(opts))?;
    let as_uri = (!name_or_uri.contains("://"))
        .then(|| file_uri(Path::new(name_or_uri)))
        .flatten();
    let candidates: Vec<&str> = std::iter::once(name_or_uri)
        .chain(as_uri.as_deref())
        .collect();
    let mut found = current.iter().position(|m| candidates.contains(&key(m)));
    if found.is_none() {
        for c in &candidates {
            let by_uri: Vec<usize> = (0..current.len())
                .filter(|&i| current[i].uri == *c)
                .collect();
            match by_uri.len() {
                0 => continue,
                1 => {
                    found = Some(by_uri[0]);
                    break;
                }
                _ => {
                    return Err(group_error(
                        group,
                        format!(
                            "cannot remove {name_or_uri}: several members have this URI; remove them by name"
                        ),
                    ))
                }
            }
        }
    }
    let i = found.ok_or_else(|| {
        group_error(
            group,
            format!("cannot remove {name_or_uri}: no member has this name or URI"),
        )
    })?;
    let gone = current.remove(i);
    let version = details_version(group);
    let path = write_details(group, version, &current, std::slice::from_ref(&gone), opts)?;
    Ok((gone, path))
}

/// The path a member's URI points to: relative members from the group
/// folder, `file://` URIs as paths; `None` for other schemes.
pub(crate) fn uri_path(group: &Path, uri: &str, relative: bool) -> Option<PathBuf> {
    if relative {
        Some(group.join(uri))
    } else if let Some(p) = uri.strip_prefix("file://") {
        Some(PathBuf::from(p))
    } else if uri.contains("://") {
        None
    } else {
        Some(PathBuf::from(uri))
    }
}
