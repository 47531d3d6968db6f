//! The reader over an object store (`file://` URLs): the same cells as
//! local reads, with the requests counted.

use std::path::{Path, PathBuf};

use super::{ArrayReader, Query};
use crate::storage::object::ObjectStorage;
use crate::storage::{Storage, StorageRef};
use crate::ReadOptions;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v22/sparse_int_2d")
}

fn cells(storage: StorageRef, path: &Path) -> Vec<serde_json::Value> {
    let r = ArrayReader::open_in(storage, path, None, &ReadOptions::default()).unwrap();
    let c = r.read(&Query::default()).unwrap();
    (0..c.len).map(|i| c.row(i)).collect()
}

#[test]
fn file_urls_read_as_local_paths_with_one_list() {
    let url = format!("file://{}", fixture().display());
    let (storage, path) =
        ObjectStorage::from_url(&url, std::iter::empty::<(&str, &str)>()).unwrap();
    assert_eq!(path, PathBuf::from(&url));
    let ours = cells(storage.clone().into(), &path);
    assert_eq!(ours, cells(StorageRef::default(), &fixture()));
    let s = storage.stats().snapshot();
    assert_eq!(s.lists, 1, "{s}");
    assert!(s.gets > 0 && s.bytes > 0, "{s}");
    let Err(missing) = storage.open(&path.join("no_such_file")) else {
        panic!("no_such_file opened")
    };
    assert!(missing.to_string().contains("no_such_file"), "{missing}");
    assert!(storage.key(Path::new("s3://elsewhere/x")).is_err());
    assert!(storage.key(&path.join("../x")).is_err());
}

/// A copy of `v22/dense_int_2d` whose first fragment's metadata file
/// ends in `last` (its footer length) in place of its own 8 bytes.
fn with_footer_length(last: u64) -> PathBuf {
    let from = fixture().with_file_name("dense_int_2d");
    let to = std::env::temp_dir().join(format!(
        "tiledb-codec-footer-length-{}-{last}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&to);
    copy(&from, &to);
    let frags = crate::storage::LocalStorage
        .list(&to.join("__fragments"))
        .unwrap();
    let meta = frags[0].path.join("__fragment_metadata.tdb");
    let mut bytes = std::fs::read(&meta).unwrap();
    let n = bytes.len();
    bytes[n - 8..].copy_from_slice(&last.to_le_bytes());
    std::fs::write(&meta, bytes).unwrap();
    to
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.path().is_dir() {
            copy(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn a_footer_length_past_the_object_is_a_decode_error() {
    for last in [u64::MAX, 1 << 40, 4_910] {
        let dir = with_footer_length(last);
        let url = format!("file://{}", dir.display());
        let (storage, path) =
            ObjectStorage::from_url(&url, std::iter::empty::<(&str, &str)>()).unwrap();
        let err =
            ArrayReader::open_in(storage.clone().into(), &path, None, &ReadOptions::default())
                .err()
                .unwrap_or_else(|| panic!("footer length {last} accepted"));
        let at = err.location().unwrap_or_else(|| panic!("{err}"));
        assert_eq!(at.table, "FooterLength", "{err}");
        assert!(at.file.ends_with("__fragment_metadata.tdb"), "{err}");
        // Only tails were fetched, never a range as long as the length said.
        assert!(storage.stats().snapshot().bytes < 20_000);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn used_and_dropped_inside_another_runtime_without_panicking() {
    let url = format!("file://{}", fixture().display());
    let outer = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let n = outer.block_on(async {
        let (storage, path) =
            ObjectStorage::from_url(&url, std::iter::empty::<(&str, &str)>()).unwrap();
        cells(storage.into(), &path).len()
    });
    assert!(n > 0);
}
