//! Footers from consolidated fragment metadata (`.meta` files): the engine
//! reads a fragment's footer from the first `.meta` file that lists it, not
//! from the fragment's own `__fragment_metadata.tdb`. So do we: the footers
//! are the same as the fragments' own, and with the fragments' own footers
//! cut away both the engine and this crate still read every cell.

mod common;

use std::path::Path;

use serde_json::Value;
use tiledb_codec::array::fragment::Metadata;
use tiledb_codec::filters::ReadOptions;
use tiledb_codec::read::{ArrayReader, Query};

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

fn engine_cells(path: &Path) -> Vec<Value> {
    let out = std::process::Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/engine_account.py"))
        .arg(path)
        .arg("--cells")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut cells = v["cells"].as_array().cloned().unwrap_or_default();
    cells.sort_by_key(|c| c.to_string());
    cells
}

fn our_cells(path: &Path) -> Vec<Value> {
    let r = ArrayReader::open(path, &ReadOptions::default()).unwrap();
    let cells = r.read(&Query::default()).unwrap();
    let mut rows: Vec<Value> = (0..cells.len).map(|i| cells.row(i)).collect();
    rows.sort_by_key(|c| c.to_string());
    rows
}

/// Numbers as the engine's JSON and ours may spell them (3 and 3.0).
fn same(a: &[Value], b: &[Value]) -> bool {
    fn eq(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(a, b)| eq(a, b))
            }
            (Value::Array(x), y) if x.len() == 1 => eq(&x[0], y),
            (x, Value::Array(y)) if y.len() == 1 => eq(x, &y[0]),
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| eq(v, w)))
            }
            _ => a == b,
        }
    }
    a.len() == b.len() && a.iter().zip(b).all(|(a, b)| eq(a, b))
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
            let again = tiledb_codec::format::encode(footer.as_ref());
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
        let dir = std::env::temp_dir().join(format!(
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
        let engine = engine_cells(&dir);
        assert!(
            same(&after, &engine),
            "{}: the engine reads {} cells, we read {}",
            f.id,
            engine.len(),
            after.len()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
