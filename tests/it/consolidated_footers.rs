//! Footers from consolidated fragment metadata (`.meta` files): the engine
//! reads a fragment's footer from the first `.meta` file that lists it, not
//! from the fragment's own `__fragment_metadata.tdb`. So do we: the footers
//! are the same as the fragments' own, and with the fragments' own footers
//! cut away both the engine and this crate still read every cell.

use crate::common;

use std::path::Path;

use serde_json::Value;
use tiledb_codec::raw::array::fragment::Metadata;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

fn fixtures_with_meta() -> Vec<common::Fixture> {
    let out: Vec<_> = common::fixtures()
        .into_iter()
        .filter(|f| f.path.join("__fragment_meta").is_dir())
        .collect();
    assert!(
        !out.is_empty(),
        "no fixture has consolidated fragment metadata"
    );
    out
}

fn our_cells(path: &Path) -> Vec<Value> {
    let r = ArrayReader::open(path, &ReadOptions::default()).unwrap();
    let cells = r.read(&Query::default()).unwrap();
    common::sorted((0..cells.len).map(|i| cells.row(i)).collect())
}

#[test]
fn footers_come_from_the_meta_file_and_equal_the_fragments_own() {
    for f in fixtures_with_meta() {
        let r = ArrayReader::open(&f.path, &ReadOptions::default()).unwrap();
        let mut from_meta = 0;
        for frag in &r.fragments {
            let Some(meta) = &frag.footer_from else {
                continue;
            };
            from_meta += 1;
            assert_eq!(meta.extension().unwrap(), "meta", "{}", f.id);
            // The fragment's own copy, decoded from its own file.
            let own = std::fs::read(frag.metadata_path()).unwrap();
            let (off, len) = frag.footer_range;
            assert!(len > 0, "{}: own footer not found", f.id);
            let Metadata::Footer(footer) = &frag.metadata else {
                panic!("{}: a legacy fragment", f.id)
            };
            let again = tiledb_codec::raw::format::encode(footer.as_ref()).unwrap();
            assert_eq!(
                again[..],
                own[off as usize..(off + len) as usize],
                "{}: {}",
                f.id,
                frag.name.name
            );
        }
        assert!(from_meta > 0, "{}: no footer read from a .meta file", f.id);
    }
}

#[test]
fn with_the_fragments_own_footers_cut_the_meta_file_is_enough() {
    for f in fixtures_with_meta() {
        let dir = crate::common::temp_root().join(format!(
            "tiledb-codec-consolidated-{}-{}",
            std::process::id(),
            f.id.replace('/', "_")
        ));
        let _ = std::fs::remove_dir_all(&dir);
        common::copy_dir(&f.path, &dir);
        let before = our_cells(&dir);
        let r = ArrayReader::open(&dir, &ReadOptions::default()).unwrap();
        let mut cut = 0;
        for frag in r.fragments.iter().filter(|fr| fr.footer_from.is_some()) {
            // Keep the generic tiles, drop the footer and its length.
            let (off, _) = frag.footer_range;
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(frag.metadata_path())
                .unwrap();
            file.set_len(off).unwrap();
            cut += 1;
        }
        drop(r);
        assert!(cut > 0, "{}", f.id);
        let after = our_cells(&dir);
        assert_eq!(before, after, "{}: our cells changed", f.id);
        let engine = common::sorted(common::engine_cells(&dir, None));
        assert!(
            after.len() == engine.len()
                && after.iter().zip(&engine).all(|(a, b)| common::same(a, b)),
            "{}: the engine reads {} cells, we read {}",
            f.id,
            engine.len(),
            after.len()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
