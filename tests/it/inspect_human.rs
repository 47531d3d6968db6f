//! The human `inspect` output of every fixture, pinned, and the
//! fragment-layout picture. Review a changed snapshot by reading it
//! (check dates, domains and fill values against `inspect --json`).

use crate::common;

use std::path::{Path, PathBuf};

use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::{inspect_json, kind, Kind};
use tiledb_codec_cli::summary::{self, ArraySummary};
use tiledb_codec_cli::svg::{fragment_layout, LayoutError};

/// The fixture's key, if it is encrypted: the 32 bytes of the string.
fn read_options(f: &common::Fixture) -> ReadOptions {
    match &f.key {
        Some(k) => ReadOptions::default().with_key(k.as_bytes().try_into().expect("a 32-byte key")),
        None => ReadOptions::default(),
    }
}

/// Paths relative to the crate, so snapshots do not depend on where it lives.
fn rel(p: &Path) -> PathBuf {
    p.strip_prefix(common::root()).unwrap().to_path_buf()
}

/// What `tiledb-codec inspect PATH` prints.
fn human(path: &Path, opts: &ReadOptions) -> String {
    if kind(path).unwrap() == Kind::Array {
        ArraySummary::read(path, opts).unwrap().to_string()
    } else {
        summary::tree(&inspect_json(path, opts).unwrap())
    }
}

#[test]
fn every_fixture_reads_as_its_summary() {
    for f in common::fixtures() {
        let text = human(&rel(&f.path), &read_options(&f));
        let name = f.id.replace('/', "__");
        insta::assert_snapshot!(name, text);
    }
}

/// The summary says what the JSON account says: as many fragments, and
/// each fragment's name and cell count.
#[test]
fn summaries_agree_with_the_json_account() {
    for f in common::fixtures() {
        let path = rel(&f.path);
        if kind(&path).unwrap() != Kind::Array {
            continue;
        }
        let opts = read_options(&f);
        let s = ArraySummary::read(&path, &opts).unwrap();
        let v = inspect_json(&path, &opts).unwrap();
        let frags = v["fragments"].as_array().unwrap();
        assert_eq!(s.fragments.len(), frags.len(), "{}", f.id);
        for (a, b) in s.fragments.iter().zip(frags) {
            assert_eq!(a.name, b["name"].as_str().unwrap(), "{}", f.id);
            assert_eq!(a.cells, b["cell_num"].as_u64(), "{}", f.id);
            assert_eq!(a.timestamps.start, b["timestamps"][0].as_u64().unwrap());
        }
        assert_eq!(
            s.schema.dimensions.len(),
            v["schema"]["dimensions"].as_array().unwrap().len()
        );
        assert_eq!(
            s.metadata.len(),
            v["metadata"].as_object().unwrap().len(),
            "{}",
            f.id
        );
        // No raw bytes of a non-empty domain in the text.
        assert!(!s.to_string().contains("range:"), "{}", f.id);
    }
}

/// A minimal XML well-formedness check: balanced tags, quoted attributes,
/// only the five predefined entities, no `<` or `&` loose in text.
fn well_formed(xml: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml;
    let mut roots = 0;
    let check_text = |t: &str| -> Result<(), String> {
        let mut s = t;
        while let Some(i) = s.find('&') {
            let end = s[i..].find(';').ok_or("& without ;")?;
            let ent = &s[i + 1..i + end];
            if !matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos") {
                return Err(format!("unknown entity &{ent};"));
            }
            s = &s[i + end + 1..];
        }
        Ok(())
    };
    while let Some(i) = rest.find('<') {
        check_text(&rest[..i])?;
        if stack.is_empty() && !rest[..i].trim().is_empty() {
            return Err("text outside the root element".into());
        }
        let end = rest[i..].find('>').ok_or("unclosed <")? + i;
        let tag = &rest[i + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or("close without open")?;
            if open != name.trim() {
                return Err(format!("</{name}> closes <{open}>"));
            }
        } else {
            let self_closing = tag.ends_with('/');
            let body = tag.trim_end_matches('/');
            let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == ':' || c == '-')
            {
                return Err(format!("bad tag name in <{tag}>"));
            }
            // Attributes: name="value" pairs, values without < and with valid entities.
            let mut attrs = body[name.len()..].trim();
            while !attrs.is_empty() {
                let eq = attrs
                    .find('=')
                    .ok_or(format!("attribute without = in <{tag}>"))?;
                let after = &attrs[eq + 1..];
                let quote = after.chars().next().ok_or("attribute without value")?;
                if quote != '"' && quote != '\'' {
                    return Err(format!("unquoted attribute in <{tag}>"));
                }
                let close = after[1..].find(quote).ok_or("unclosed attribute")? + 1;
                let value = &after[1..close];
                if value.contains('<') {
                    return Err("< in an attribute".into());
                }
                check_text(value)?;
                attrs = after[close + 1..].trim_start();
            }
            if stack.is_empty() {
                roots += 1;
            }
            if !self_closing {
                stack.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    if !rest.trim().is_empty() {
        return Err("text after the root element".into());
    }
    if !stack.is_empty() {
        return Err(format!("unclosed elements {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    Ok(())
}

#[test]
fn the_well_formedness_check_can_fail() {
    assert!(well_formed("<svg><rect x=\"1\"/></svg>").is_ok());
    assert!(well_formed("<svg><rect></svg>").is_err());
    assert!(well_formed("<svg>a & b</svg>").is_err());
    assert!(well_formed("<svg x=1></svg>").is_err());
    assert!(well_formed("<svg></svg><svg></svg>").is_err());
}

/// Every 1-D and 2-D array fixture draws one rectangle per fragment, in
/// well-formed SVG; arrays of other dimension counts are refused.
#[test]
fn fragment_layout_of_every_array_fixture() {
    let mut drawn = 0;
    let mut refused = 0;
    for f in common::fixtures() {
        let path = rel(&f.path);
        if kind(&path).unwrap() != Kind::Array {
            continue;
        }
        let s = ArraySummary::read(&path, &read_options(&f)).unwrap();
        let ndim = s.schema.dimensions.len();
        match fragment_layout(&s) {
            Ok(svg) => {
                assert!((1..=2).contains(&ndim), "{}", f.id);
                well_formed(&svg).unwrap_or_else(|e| panic!("{}: {e}", f.id));
                let with_domain = s
                    .fragments
                    .iter()
                    .filter(|f| f.non_empty_domain.is_some())
                    .count();
                assert_eq!(
                    svg.matches("class=\"fragment\"").count(),
                    with_domain,
                    "{}",
                    f.id
                );
                assert!(
                    svg.contains("oldest: ") || s.fragments.is_empty(),
                    "{}",
                    f.id
                );
                drawn += 1;
            }
            Err(LayoutError::UnsupportedDimensions { dimensions }) => {
                assert_eq!(dimensions, ndim);
                assert!(ndim > 2, "{}", f.id);
                refused += 1;
            }
            Err(e) => panic!("{}: {e}", f.id),
        }
    }
    assert!(drawn > 50, "only {drawn} pictures");
    let _ = refused;
}

/// A 3-D array is refused with a typed error.
#[test]
fn three_dimensions_are_refused() {
    let path = Path::new("tests/fixtures/v22/dense_int_2d");
    let mut s = ArraySummary::read(path, &ReadOptions::default()).unwrap();
    let extra = s.schema.dimensions[0].clone();
    s.schema.dimensions.push(extra);
    assert_eq!(
        fragment_layout(&s),
        Err(LayoutError::UnsupportedDimensions { dimensions: 3 })
    );
}

/// Python's XML parser (the engine's Python, which every engine test has)
/// agrees that the pictures parse.
#[test]
fn pictures_parse_as_xml_in_python() {
    let py = common::engine_python();
    let dir = crate::common::temp_root().join(format!("tiledb-codec-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for id in [
        "v22/dense_int_1d",
        "v22/sparse_strdim",
        "v22/consolidated_fragments",
        "v22/sparse_datetime_dim",
    ] {
        let s = ArraySummary::read(
            &Path::new("tests/fixtures").join(id),
            &ReadOptions::default(),
        )
        .unwrap();
        let file = dir.join(format!("{}.svg", id.replace('/', "_")));
        std::fs::write(&file, fragment_layout(&s).unwrap()).unwrap();
        files.push(file);
    }
    let out = std::process::Command::new(py)
        .arg("-c")
        .arg("import sys, xml.dom.minidom as m\nfor f in sys.argv[1:]:\n    d = m.parse(f)\n    assert d.documentElement.tagName == 'svg', f\nprint('ok')")
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A current domain (TileDB-SOMA sets one on every array) shows as a column
/// of the dimensions, and the picture draws over it.
#[test]
fn a_current_domain_is_shown_and_drawn_over() {
    use tiledb_codec::raw::model::{CurrentDomain, DomainRange, Range};
    let path = Path::new("tests/fixtures/v22/dense_int_2d");
    let mut s = ArraySummary::read(path, &ReadOptions::default()).unwrap();
    let text = s.to_string();
    assert!(!text.contains("current domain  set"), "{text}");
    s.schema.current_domain = Some(CurrentDomain::NdRectangle(vec![
        DomainRange::Int64(Range::new(1, 3)),
        DomainRange::Int64(Range::new(2, 6)),
    ]));
    let text = s.to_string();
    assert!(
        text.contains("current domain  set, per dimension below"),
        "{text}"
    );
    let header = text.lines().find(|l| l.contains("tile extent")).unwrap();
    assert!(header.contains("current domain"), "{header}");
    let rows = text
        .lines()
        .find(|l| l.trim_start().starts_with("rows "))
        .unwrap();
    assert!(rows.contains("[1, 4]") && rows.contains("[1, 3]"), "{rows}");
    let svg = fragment_layout(&s).unwrap();
    // The view's ends are the current domain's: rows 1..3, cols 2..6.
    assert!(
        svg.contains(">3</text>") && svg.contains(">2</text>"),
        "{svg}"
    );
}
