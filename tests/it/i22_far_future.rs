//! Issue 22, item 4: after a file with the last timestamp (u64::MAX, given
//! by hand), a change that must come after it (metadata of an array or a
//! group, a group's members, a delete, a fragment) has no timestamp left.
//! It used to report success and write a file that wrapped around to
//! before every other (lost); now it fails, naming the folder, and writes
//! nothing.

use crate::common;
use common::{cli, scratch};

use std::path::Path;

use tiledb_codec::maintain::{add_member, put_metadata, read_metadata, MetadataOptions, NewMember};
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::ReadOptions;

const MAX: &str = "18446744073709551615";

fn ok(args: &[&str]) -> String {
    let out = cli(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The command fails saying why, naming the folder.
fn refused(args: &[&str], folder: &str) {
    let out = cli(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{args:?} must fail: {err}");
    assert!(
        err.contains("last possible timestamp") && err.contains(folder),
        "{args:?}: {err}"
    );
}

fn files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

#[test]
fn after_the_last_timestamp_newest_writes_fail_clearly_and_write_nothing() {
    let dir = scratch("far-future");
    let array = dir.join("array");
    common::copy_dir(
        &common::root().join("tests/fixtures/v22/sparse_int_2d"),
        &array,
    );
    let a = array.to_str().unwrap();

    // Array metadata, by the command line.
    ok(&[
        "meta",
        a,
        "put",
        "--type",
        "INT32",
        "k",
        "1",
        "--timestamp",
        MAX,
    ]);
    let meta_files = files(&array.join("__meta"));
    refused(&["meta", a, "put", "--type", "INT32", "k", "2"], "__meta");
    refused(
        &["meta", a, "put", "--type", "INT32", "other", "3"],
        "__meta",
    );
    refused(&["meta", a, "delete", "k"], "__meta");
    assert_eq!(files(&array.join("__meta")), meta_files);
    assert_eq!(ok(&["meta", a, "list"]).trim(), "k (INT32) = 1");
    // ... and by the library.
    let err = put_metadata(
        &array,
        "k",
        Datatype::Int32,
        &2i32.to_le_bytes(),
        &MetadataOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&err, tiledb_codec::Error::Array { path, .. } if path.ends_with("__meta")),
        "{err}"
    );
    let md = read_metadata(&array, &ReadOptions::default()).unwrap();
    assert_eq!(md.len(), 1);
    // A timestamp given explicitly is taken as it is.
    ok(&[
        "meta",
        a,
        "put",
        "--type",
        "INT32",
        "early",
        "5",
        "--timestamp",
        "7",
    ]);
    assert_eq!(
        read_metadata(&array, &ReadOptions::default())
            .unwrap()
            .len(),
        2
    );

    // A delete at the last timestamp: later deletes and fragments have
    // none left (a fragment written "now" would lie under that delete).
    let before = ok(&["export", a]);
    ok(&["delete", a, "--where", "a > 100000", "--timestamp", MAX]);
    let commits = files(&array.join("__commits"));
    let fragments = files(&array.join("__fragments"));
    refused(&["delete", a, "--where", "a > 5"], "array");
    let cells = dir.join("cells.ndjson");
    std::fs::write(&cells, "{\"r\":3,\"c\":3,\"a\":7,\"b\":1.5}\n").unwrap();
    refused(&["import", a, "--cells", cells.to_str().unwrap()], "array");
    assert_eq!(files(&array.join("__commits")), commits);
    assert_eq!(files(&array.join("__fragments")), fragments);
    assert_eq!(ok(&["export", a]), before);

    // A group: its metadata and its members.
    let group = dir.join("group");
    let g = group.to_str().unwrap();
    ok(&["group", "create", g]);
    ok(&[
        "group",
        "meta",
        g,
        "put",
        "--type",
        "INT32",
        "k",
        "1",
        "--timestamp",
        MAX,
    ]);
    refused(
        &["group", "meta", g, "put", "--type", "INT32", "k", "2"],
        "__meta",
    );
    refused(&["group", "meta", g, "delete", "k"], "__meta");
    assert_eq!(ok(&["group", "meta", g, "list"]).trim(), "k (INT32) = 1");
    ok(&["group", "add", g, a, "--name", "first", "--timestamp", MAX]);
    let other = dir.join("other");
    common::copy_dir(
        &common::root().join("tests/fixtures/v22/sparse_int_2d"),
        &other,
    );
    refused(
        &[
            "group",
            "add",
            g,
            other.to_str().unwrap(),
            "--name",
            "second",
        ],
        "__group",
    );
    refused(&["group", "remove", g, "first"], "__group");
    let err = add_member(
        &group,
        &NewMember::new(other.display().to_string(), Some("second".into()), false),
        &MetadataOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&err, tiledb_codec::Error::Array { path, .. } if path.ends_with("__group")),
        "{err}"
    );
    let members = ok(&["group", "list", g]);
    assert_eq!(members.lines().count(), 1, "{members}");
    assert!(members.contains("first"), "{members}");
    let _ = std::fs::remove_dir_all(&dir);
}
