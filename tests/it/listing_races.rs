//! Issue 46: an open lists an array's folders one after the other, and a
//! consolidation and vacuum that run between two of those listings must
//! not make the read lose cells. Staged without timing luck: a storage
//! (local files, without folder stamps, as an object store has none) runs
//! a hook right before it lists `__fragments`, after `__commits` was
//! listed.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::json;
use tiledb_codec::maintain::{
    consolidate_fragments, vacuum_fragments, ConsolidateOptions, VacuumOptions,
};
use tiledb_codec::raw::format::hierarchy;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::storage::{Kind, ListEntry, LocalStorage, MappedFile, Storage, StorageRef};
use tiledb_codec::ReadOptions;

type Hook = Box<dyn FnOnce() + Send>;

/// Local files without folder stamps, running `hook` once, right before
/// the first listing of a `__fragments` folder.
struct Hooked {
    hook: Mutex<Option<Hook>>,
    /// The folders listed, in order.
    listed: Mutex<Vec<PathBuf>>,
}

impl std::fmt::Debug for Hooked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hooked")
    }
}

impl Storage for Hooked {
    fn open(&self, path: &Path) -> tiledb_codec::raw::error::Result<MappedFile> {
        LocalStorage.open(path)
    }

    fn list(&self, dir: &Path) -> tiledb_codec::raw::error::Result<Vec<ListEntry>> {
        if dir.file_name().is_some_and(|n| n == hierarchy::FRAGMENTS) {
            let hook = self.hook.lock().unwrap().take();
            if let Some(hook) = hook {
                hook();
            }
        }
        self.listed.lock().unwrap().push(dir.to_path_buf());
        LocalStorage.list(dir)
    }

    fn kind(&self, path: &Path) -> Option<Kind> {
        LocalStorage.kind(path)
    }
}

/// A sparse array of `n` fragments of 5 cells each (written by the
/// binary); the `d` of every cell, sorted.
fn array_of_fragments(array: &Path, n: i64) -> Vec<i64> {
    let dir = array.parent().unwrap();
    let schema = dir.join("schema.json");
    let s = json!({
        "array_type": "sparse",
        "capacity": 50,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": false,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 9_999_999], "tile_extent": 100}
        ],
        "attributes": [{"name": "a", "datatype": "INT64"}]
    });
    std::fs::write(&schema, s.to_string()).unwrap();
    let mut all = Vec::new();
    for k in 0..n {
        let ds: Vec<i64> = (k * 10..k * 10 + 5).collect();
        let text: String = ds
            .iter()
            .map(|d| format!("{{\"d\":{d},\"a\":{d}}}\n"))
            .collect();
        let cells = dir.join(format!("cells{k}.ndjson"));
        std::fs::write(&cells, text).unwrap();
        let out = crate::common::cli(&[
            "import",
            array.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            cells.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        all.extend(ds);
    }
    all
}

fn ds_of(reader: &ArrayReader) -> Vec<i64> {
    let c = reader.read(&Query::new()).unwrap();
    let col = c.column("d").unwrap();
    let mut ds: Vec<i64> = (0..c.len)
        .map(|i| i64::from_le_bytes(col.get(i).unwrap().try_into().unwrap()))
        .collect();
    ds.sort_unstable();
    ds
}

fn fragment_count(array: &Path) -> usize {
    std::fs::read_dir(array.join(hierarchy::FRAGMENTS))
        .unwrap()
        .count()
}

#[test]
fn a_consolidation_and_vacuum_between_two_listings_lose_no_cells() {
    let dir = crate::common::scratch("listing-race");
    let array = dir.join("array");
    let all = array_of_fragments(&array, 4);
    assert_eq!(fragment_count(&array), 4);
    let hooked = Arc::new(Hooked {
        hook: Mutex::new(None),
        listed: Mutex::new(Vec::new()),
    });
    let target = array.clone();
    *hooked.hook.lock().unwrap() = Some(Box::new(move || {
        let c = consolidate_fragments(&target, &ConsolidateOptions::default()).unwrap();
        assert_eq!(c.consolidated.len(), 4, "the four fragments merged");
        let v = vacuum_fragments(&target, &VacuumOptions::default()).unwrap();
        assert!(!v.removed.is_empty(), "the vacuum removed the merged ones");
    }));
    let storage = StorageRef::new(hooked.clone());
    let reader = ArrayReader::open_in(storage, &array, None, &ReadOptions::default()).unwrap();
    // The hook ran inside the open, between the two listings.
    assert!(hooked.hook.lock().unwrap().is_none(), "the hook ran");
    let listed = hooked.listed.lock().unwrap().clone();
    let at = |name: &str| listed.iter().position(|p| p.ends_with(name)).unwrap();
    assert!(at(hierarchy::COMMITS) < at(hierarchy::FRAGMENTS));
    assert_eq!(fragment_count(&array), 1, "consolidated and vacuumed");
    assert_eq!(ds_of(&reader), all, "the cells of every fragment");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A commit whose fragment folder is gone for good (removed by hand) is an
/// error naming the folder, after a bounded number of listings, and not a
/// read without the fragment's cells.
#[test]
fn a_commit_without_its_folder_is_an_error_not_fewer_cells() {
    let dir = crate::common::scratch("listing-gone");
    let array = dir.join("array");
    array_of_fragments(&array, 2);
    let frags = array.join(hierarchy::FRAGMENTS);
    let first = std::fs::read_dir(&frags)
        .unwrap()
        .map(|e| e.unwrap().path())
        .min()
        .unwrap();
    std::fs::remove_dir_all(&first).unwrap();
    let err = ArrayReader::open(&array, &ReadOptions::default())
        .err()
        .expect("the open fails");
    let name = first.file_name().unwrap().to_string_lossy().into_owned();
    assert!(err.to_string().contains(&name), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
