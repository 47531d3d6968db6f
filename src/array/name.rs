//! Timestamped names (format_spec/timestamped_name.md), parsed as the engine
//! parses them (tiledb/sm/fragment/fragment_identifier.cc) by the grammar of
//! `spec/timestamped_name.toml` (`format::timestamped_name`).

use crate::format::timestamped_name;

/// A parsed `<timestamped_name>`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
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
    let p = timestamped_name::parse(stem)?;
    Some(TimestampedName {
        name: stem.to_string(),
        t1: p.t1,
        t2: p.t2,
        uuid: p.uuid.to_string(),
        version: p.version,
        explicit_version: p.explicit_version,
    })
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
