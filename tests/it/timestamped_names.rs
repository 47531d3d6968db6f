//! The timestamped-name grammar of `spec/timestamped_name.toml`
//! (`format::timestamped_name`): the names the engine wrote in the fixtures
//! of every version parse to their layout and format back to themselves,
//! and formatting then parsing round-trips for every layout.

use tiledb_codec::raw::array::name;
use tiledb_codec::raw::format::timestamped_name::{format, format_for, parse};
use tiledb_codec::raw::format::version::{LEGACY_NAME_VERSION, UNVERSIONED_NAME_VERSION};
use tiledb_codec::raw::format::TimestampedNameFormat as F;

use crate::common::fixtures;

/// The stem of a file name: everything before the last `.`.
fn stem(file: &str) -> &str {
    file.rfind('.').map_or(file, |i| &file[..i])
}

fn entries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn names_the_engine_wrote_parse_and_format_back() {
    let mut fragments = 0;
    let mut schemas = 0;
    let mut versions = std::collections::BTreeSet::new();
    for fx in fixtures() {
        // `v22/...`: the format version the engine wrote.
        let written: u32 = fx.id[1..fx.id.find('/').unwrap()].parse().unwrap();
        for (folder, versioned) in [
            ("__fragments", true),
            ("__commits", true),
            ("__fragment_meta", true),
            ("__schema", false),
        ] {
            for file in entries(&fx.path.join(folder)) {
                if file.starts_with("__enumerations") {
                    continue;
                }
                let s = stem(&file);
                let p = parse(s).unwrap_or_else(|| panic!("{}: {file} does not parse", fx.id));
                if versioned {
                    assert_eq!(p.format, F::T1T2UuidV, "{}: {file}", fx.id);
                    assert!(p.explicit_version, "{}: {file}", fx.id);
                    // Consolidated commits of older writes keep their version.
                    assert!(p.version <= written, "{}: {file}", fx.id);
                    versions.insert(p.version);
                    fragments += 1;
                } else {
                    assert_eq!(p.format, F::T1T2Uuid, "{}: {file}", fx.id);
                    assert_eq!(p.version, UNVERSIONED_NAME_VERSION, "{}: {file}", fx.id);
                    assert!(!p.explicit_version);
                    schemas += 1;
                }
                assert!(p.t1 <= p.t2 && p.uuid.len() == 32, "{}: {file}", fx.id);
                assert_eq!(format(p.format, p.t1, p.t2, p.uuid, p.version), s);
                // The array layer's parse agrees, extension and folder dropped.
                let path = format!("{}/{folder}/{file}", fx.path.display());
                let n = name::parse(&path).unwrap();
                assert_eq!(
                    (n.name.as_str(), n.t1, n.t2, n.version),
                    (s, p.t1, p.t2, p.version)
                );
            }
        }
    }
    assert!(fragments > 100 && schemas > 20, "{fragments} {schemas}");
    // The fixtures span several format versions.
    assert!(versions.len() >= 3, "{versions:?}");
}

#[test]
fn every_layout_round_trips() {
    let uuid = "0123456789abcdef0123456789abcdef";
    for (f, t1, t2, v) in [
        (F::T1T2UuidV, 1_700_000_000_000, 1_700_000_000_001, 22),
        (F::T1T2UuidV, 0, 0, 5),
        (F::T1T2Uuid, 5, 9, UNVERSIONED_NAME_VERSION),
        (F::UuidT, 42, 42, LEGACY_NAME_VERSION),
    ] {
        let text = format(f, t1, t2, uuid, v);
        let p = parse(&text).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            (p.format, p.t1, p.t2, p.uuid, p.version),
            (f, t1, t2, uuid, v),
            "{text}"
        );
        assert_eq!(p.explicit_version, f == F::T1T2UuidV);
    }
    assert_eq!(
        format(F::T1T2UuidV, 1, 2, uuid, 16),
        "__1_2_0123456789abcdef0123456789abcdef_16"
    );
    assert_eq!(
        format(F::UuidT, 7, 7, uuid, 2),
        "__0123456789abcdef0123456789abcdef_7"
    );
}

#[test]
fn the_layout_follows_the_version() {
    for v in 1..=23 {
        let want = match v {
            1..=2 => F::UuidT,
            3..=4 => F::T1T2Uuid,
            _ => F::T1T2UuidV,
        };
        assert_eq!(format_for(v), want, "version {v}");
        assert!(want.value() <= v);
    }
}

#[test]
fn names_outside_the_grammar_are_refused_as_the_engine_does() {
    let uuid = "0123456789abcdef0123456789abcdef";
    for bad in [
        // t1 > t2
        format!("__9_3_{uuid}_22"),
        // five parts
        format!("__1_2_{uuid}_22_x"),
        // three parts, but not a 32-character uuid
        "__1_2_0123".to_string(),
        // no prefix, or numbers that are not decimal digits
        format!("1_2_{uuid}_22"),
        format!("__1_+2_{uuid}_22"),
        format!("__1_2_{uuid}_v22"),
        "__schema".to_string(),
        "a0".to_string(),
    ] {
        assert!(parse(&bad).is_none(), "{bad}");
    }
}

#[test]
fn data_file_names_the_engine_wrote_parse_and_format_back() {
    use tiledb_codec::raw::format::field_file_name::{
        format as file, naming_for, parse as parse_file, parse_indexed, Naming,
    };
    use tiledb_codec::raw::format::hierarchy;
    let mut seen = std::collections::BTreeSet::new();
    for fx in fixtures() {
        for frag in entries(&fx.path.join("__fragments")) {
            let version = parse(&frag).unwrap().version;
            assert_eq!(naming_for(version), Naming::Indexed, "{}", fx.id);
            for f in entries(&fx.path.join("__fragments").join(&frag)) {
                if f == "__fragment_metadata.tdb" {
                    continue;
                }
                let (stem, suffix) =
                    parse_file(&f).unwrap_or_else(|| panic!("{}: {f} does not parse", fx.id));
                assert_eq!(file(stem, suffix), f);
                let kind = match parse_indexed(stem) {
                    Some((p, i)) => {
                        assert_eq!(format!("{p}{i}"), stem);
                        p
                    }
                    None => {
                        assert!(
                            [
                                hierarchy::TIMESTAMPS_FILE,
                                hierarchy::DELETE_TIMESTAMPS_FILE,
                                hierarchy::DELETE_CONDITION_INDEX_FILE
                            ]
                            .contains(&stem),
                            "{}: {f}",
                            fx.id
                        );
                        stem
                    }
                };
                seen.insert(format!("{kind}{suffix}"));
            }
        }
    }
    // Attributes (fixed, var, validity), dimensions (fixed, var), timestamps.
    for want in ["a", "a_var", "a_validity", "d", "d_var", "t"] {
        assert!(seen.contains(want), "{want} not in {seen:?}");
    }
    assert_eq!(naming_for(8), Naming::PercentEncoded);
    assert_eq!(naming_for(7), Naming::Named);
    assert_eq!(parse_file("x.tdb"), Some(("x", "")));
    assert_eq!(parse_file("_var.tdb"), None);
    assert_eq!(parse_file("a0.ok"), None);
    assert_eq!(parse_indexed("dt"), None);
}
