//! The command line: export equals the library's read, verify finds a
//! damaged tile, and damaged arrays give a message and a non-zero exit, never
//! a panic.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tiledb_codec::filters::ReadOptions;
use tiledb_codec::read::{ArrayReader, Query};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

fn temp_copy(fixture: &str, tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tiledb-codec-cli-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&common::root().join("tests/fixtures").join(fixture), &dir);
    dir
}

#[test]
fn export_prints_what_the_library_reads() {
    let path = common::root().join("tests/fixtures/v22/dense_var_nullable");
    let out = cli(&["export", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cells = ArrayReader::open(&path, &ReadOptions::default())
        .unwrap()
        .read(&Query::default())
        .unwrap();
    assert_eq!(lines.len(), cells.len);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l, &cells.row(i), "cell {i}");
    }
    // Keys in schema order: dimensions, then attributes.
    let first = String::from_utf8(cli(&["export", path.to_str().unwrap()]).stdout).unwrap();
    assert!(first.starts_with("{\"d\":"), "{first}");
}

#[test]
fn export_csv_subarray_and_attributes() {
    let path = common::root().join("tests/fixtures/v22/dense_int_2d");
    let out = cli(&[
        "export",
        path.to_str().unwrap(),
        "--format",
        "csv",
        "--attrs",
        "b",
        "--subarray",
        "rows=2:3,cols=2:2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "rows,cols,b");
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[1].starts_with("2,2,") && lines[2].starts_with("3,2,"),
        "{text}"
    );
    let bad = cli(&["export", path.to_str().unwrap(), "--subarray", "nope=1:2"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no dimension \"nope\""));
}

#[test]
fn verify_passes_an_intact_array_and_reports_a_damaged_tile() {
    let dir = temp_copy("v22/filters_transforms", "verify");
    let ok = cli(&["verify", dir.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains(" 0 problems"));
    // Flip a byte inside the data of the checksummed attribute's first tile.
    let frag = std::fs::read_dir(dir.join("__fragments"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let schema = ArrayReader::open(&dir, &ReadOptions::default())
        .unwrap()
        .schema;
    let idx = schema
        .attributes
        .iter()
        .position(|a| a.name == b"checksums")
        .unwrap();
    let file = frag.join(format!("a{idx}.tdb"));
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    std::fs::write(&file, bytes).unwrap();
    let bad = cli(&["verify", dir.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{report}");
    assert!(
        report.contains("CHECKSUM") && report.contains("checksums"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_arrays_exit_with_a_message_not_a_panic() {
    let dir = temp_copy("v22/sparse_int_2d", "damage");
    let frag = std::fs::read_dir(dir.join("__fragments"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let meta = frag.join("__fragment_metadata.tdb");
    let len = std::fs::metadata(&meta).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&meta)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    for cmd in ["inspect", "export", "scan", "verify"] {
        let out = cli(&[cmd, dir.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            code == Some(1),
            "{cmd}: exit {:?} (a signal?), stderr {err}",
            code
        );
        assert!(!err.contains("panicked"), "{cmd}: {err}");
        if cmd != "verify" {
            assert!(err.starts_with("error: "), "{cmd}: {err}");
            assert!(
                err.contains("__fragment_metadata.tdb"),
                "{cmd}: the message names the file: {err}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scan_and_verify_work_on_every_fixture() {
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let mut opts = ReadOptions::default();
        if let Some(k) = &f.key {
            opts = opts.with_key(k.as_bytes().try_into().unwrap());
        }
        let reader = ArrayReader::open(&f.path, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        let totals = reader
            .scan(None)
            .unwrap_or_else(|e| panic!("{}: scan: {e}", f.id));
        assert_eq!(
            totals.cells == 0,
            reader.fragments.is_empty(),
            "{}: {totals:?}",
            f.id
        );
        let report = tiledb_codec::verify::verify(&f.path, &opts)
            .unwrap_or_else(|e| panic!("{}: verify: {e}", f.id));
        assert!(report.ok(), "{}: {:?}", f.id, report.problems);
        assert_eq!(report.fragments, reader.fragments.len(), "{}", f.id);
    }
}
