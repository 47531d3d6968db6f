//! Timestamped names (format_spec/timestamped_name.md), parsed as the engine
//! parses them (tiledb/sm/fragment/fragment_identifier.cc).

use crate::format::version::{LEGACY_NAME_VERSION, UNVERSIONED_NAME_VERSION};

/// A parsed `<timestamped_name>`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TimestampedName {
    /// The name without directory and extension.
    pub name: String,
    /// The start of its timestamp range (ms since the Unix epoch).
    pub t1: u64,
    /// The end of its timestamp range.
    pub t2: u64,
    /// The unique part (uuid); empty for the oldest names.
    pub uuid: String,
    /// The format version the name states or implies: the `_v` suffix
    /// (version 5 on), 4 for `__t1_t2_uuid`, 2 for `__uuid_t`.
    pub version: u32,
    /// Whether the name carries its version (`__t1_t2_uuid_v`).
    pub explicit_version: bool,
}

/// Parses a file or folder name; the extension after the last `.` is dropped.
pub fn parse(file_name: &str) -> Option<TimestampedName> {
    let base = file_name.trim_end_matches('/');
    let base = base.rsplit('/').next().unwrap_or(base);
    let stem = match base.rfind('.') {
        Some(i) => &base[..i],
        None => base,
    };
    let body = stem.strip_prefix("__")?;
    // At most four parts; a fifth means the name is not a timestamped one.
    let mut split = body.split('_');
    let mut slots = [""; 4];
    let mut count = 0;
    for part in split.by_ref().take(4) {
        slots[count] = part;
        count += 1;
    }
    if split.next().is_some() {
        return None;
    }
    let parts = &slots[..count];
    let num = |s: &str| -> Option<u64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    let name = stem.to_string();
    match parts {
        // __t1_t2_uuid_v
        [t1, t2, uuid, v] => {
            let (t1, t2) = (num(t1)?, num(t2)?);
            let version = u32::try_from(num(v)?).ok()?;
            (t1 <= t2).then(|| TimestampedName {
                name,
                t1,
                t2,
                uuid: uuid.to_string(),
                version,
                explicit_version: true,
            })
        }
        // __t1_t2_uuid
        [t1, t2, uuid] if uuid.len() == 32 => {
            let (t1, t2) = (num(t1)?, num(t2)?);
            (t1 <= t2).then(|| TimestampedName {
                name,
                t1,
                t2,
                uuid: uuid.to_string(),
                version: UNVERSIONED_NAME_VERSION,
                explicit_version: false,
            })
        }
        // __uuid_t (versions 1 and 2): the engine reads only the last part.
        [uuid, t] => {
            let t = num(t)?;
            Some(TimestampedName {
                name,
                t1: t,
                t2: t,
                uuid: uuid.to_string(),
                version: LEGACY_NAME_VERSION,
                explicit_version: false,
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn current_fragment_name() {
        let n = parse("__1700000000000_1700000000001_0123456789abcdef0123456789abcdef_22").unwrap();
        assert_eq!(
            (n.t1, n.t2, n.version, n.explicit_version),
            (1700000000000, 1700000000001, 22, true)
        );
    }

    #[test]
    fn schema_name_without_version() {
        let n = parse("__5_5_0123456789abcdef0123456789abcdef").unwrap();
        assert_eq!((n.t1, n.version, n.explicit_version), (5, 4, false));
    }

    #[test]
    fn commit_marker_extension_is_dropped() {
        let n = parse("__1_2_0123456789abcdef0123456789abcdef_16.wrt").unwrap();
        assert_eq!((n.t2, n.version), (2, 16));
    }

    #[test]
    fn oldest_layout() {
        let n = parse("__0123456789abcdef0123456789abcdef_42").unwrap();
        assert_eq!((n.t1, n.t2, n.version), (42, 42, 2));
    }

    #[test]
    fn rejects_other_names() {
        assert!(parse("__schema").is_none());
        assert!(parse("a0.tdb").is_none());
        assert!(parse("__9_3_0123456789abcdef0123456789abcdef_22").is_none());
    }
}
