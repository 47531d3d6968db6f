//! Issue 22, item 11: fragment consolidation across delete commits. With
//! writes and deletes interleaved the engine merges every fragment into one
//! that keeps each cell's write timestamp (`t.tdb`) and, unless it purges
//! deleted cells (`sm.consolidation.purge_deleted_cells`), the time of the
//! delete that removed it (`dt.tdb`, `dci.tdb`). Ours does the same, and
//! each reader reads the other's consolidated fragments as the engine reads
//! its own, now and at the times between the writes and deletes.

use crate::common;
use common::timeline::{our_read, ours_consolidate, Engine};
use common::{cli, copy_dir, scratch};

use std::path::Path;

use tiledb_codec::maintain::{consolidate_fragments, ConsolidateOptions};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

/// The engine's side of this module's arrays.
const ENGINE: Engine = Engine("i22_consolidate_deletes.py");

/// Both readers read `array` as the engine reads `reference`, now and at
/// every time from 1 to `last`.
fn same_reads(label: &str, array: &Path, reference: &Path, last: u64) {
    let wants = ENGINE.reads(reference, last);
    let engine_gots = if array == reference {
        wants.clone()
    } else {
        ENGINE.reads(array, last)
    };
    let times = std::iter::once(None).chain((1..=last).map(Some));
    for ((t, want), engine_got) in times.zip(&wants).zip(&engine_gots) {
        assert_eq!(engine_got, want, "{label}: the engine's read at {t:?}");
        let (_, ours) = our_read(array, t);
        assert_eq!(&ours, want, "{label}: our read at {t:?}");
    }
    assert_eq!(wants.len() as u64, last + 1, "{label}: the engine's reads");
}

/// Has the fragment folder `name` (t.tdb, dt.tdb ...) in the one fragment
/// the reader sees.
fn newest_has(array: &Path, file: &str) -> bool {
    let r = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    r.fragments.last().unwrap().path.join(file).is_file()
}

fn run(kind: &str, purge: bool) {
    let label = format!("{kind}{}", if purge { " purged" } else { "" });
    let dir = scratch(&format!("i22-consol-del-{kind}-{purge}"));
    let orig = dir.join("orig");
    ENGINE.run(&["make", orig.to_str().unwrap(), kind]);
    assert_eq!(ENGINE.fragment_count(&orig), 4);
    // Before anything is consolidated, both readers agree at every time.
    same_reads(&format!("{label}, as written"), &orig, &orig, 7);

    let (theirs, ours) = (dir.join("theirs"), dir.join("ours"));
    copy_dir(&orig, &theirs);
    copy_dir(&orig, &ours);
    ENGINE.consolidate(&theirs, purge);
    if purge {
        // The command line's flag.
        let out = cli(&[
            "consolidate",
            "--purge-deleted-cells",
            ours.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("consolidated 4 fragments"), "{said}");
    } else {
        ours_consolidate(&ours, purge);
    }
    // One fragment each, across the three deletes.
    assert_eq!(ENGINE.fragment_count(&theirs), 1, "{label}: the engine");
    assert_eq!(ENGINE.fragment_count(&ours), 1, "{label}: ours");
    assert!(newest_has(&ours, "t.tdb"), "{label}: no timestamps");
    assert_eq!(
        newest_has(&ours, "dt.tdb"),
        !purge,
        "{label}: delete metadata"
    );
    assert_eq!(
        newest_has(&theirs, "dt.tdb"),
        !purge,
        "{label}: engine's delete metadata"
    );
    // Now and at every time: ours reads like the engine's, by both readers
    // (the engine's delete metadata through our reader too).
    same_reads(&format!("{label}, ours consolidated"), &ours, &theirs, 7);
    same_reads(
        &format!("{label}, engine consolidated"),
        &theirs,
        &theirs,
        7,
    );
    if !purge {
        // Not purged, nothing is lost: every time reads as before.
        same_reads(&format!("{label}, against the original"), &ours, &orig, 7);
    }

    // More writes and a delete, then each consolidates the other's
    // consolidated fragment with them: delete metadata read and carried
    // over by both.
    let (theirs2, ours2) = (dir.join("theirs2"), dir.join("ours2"));
    copy_dir(&ours, &theirs2);
    copy_dir(&theirs, &ours2);
    for a in [&theirs, &ours, &theirs2, &ours2] {
        ENGINE.run(&["more", a.to_str().unwrap()]);
    }
    same_reads(&format!("{label}, more written"), &ours, &theirs, 9);
    ENGINE.consolidate(&theirs, purge);
    ENGINE.consolidate(&theirs2, purge);
    ours_consolidate(&ours, purge);
    ours_consolidate(&ours2, purge);
    for a in [&theirs, &ours, &theirs2, &ours2] {
        assert_eq!(ENGINE.fragment_count(a), 1, "{label}: {}", a.display());
    }
    same_reads(&format!("{label}, ours twice"), &ours, &theirs, 9);
    same_reads(&format!("{label}, engine over ours"), &theirs2, &theirs, 9);
    same_reads(
        &format!("{label}, ours over the engine's"),
        &ours2,
        &theirs,
        9,
    );
}

#[test]
fn consolidation_across_deletes_without_duplicates() {
    run("nodups", false);
}

#[test]
fn consolidation_across_deletes_with_duplicates() {
    run("dups", false);
}

#[test]
fn consolidation_purging_deleted_cells_without_duplicates() {
    run("nodups", true);
}

#[test]
fn consolidation_purging_deleted_cells_with_duplicates() {
    run("dups", true);
}

/// A delete within the time span of a fragment consolidated without
/// timestamps would remove cells written after it: refused, as the engine
/// refuses it for fragments of format versions before 15. With timestamps
/// the delete applies by the cells' own times.
#[test]
fn deletes_inside_a_fragment_consolidated_without_timestamps_are_refused() {
    use tiledb_codec::maintain::{delete_cells, DeleteOptions};
    use tiledb_codec::raw::read::query_condition::QueryCondition;
    use tiledb_codec::raw::write::{create_array, Column, FragmentWriter, WriteOptions};
    let dir = scratch("i22-consol-del-refuse");
    let schema = serde_json::json!({
        "array_type": "sparse",
        "capacity": 4,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 99], "tile_extent": 10}
        ],
        "attributes": [{"name": "a", "datatype": "INT32"}]
    });
    let make = |name: &str, with_timestamps: bool| {
        let p = dir.join(name);
        create_array(&p, &schema).unwrap();
        for (t, ds) in [(1u64, [0i64, 1]), (3, [1, 2])] {
            let opts = WriteOptions::default().with_timestamp(t);
            let mut w = FragmentWriter::sparse(&p, opts).unwrap();
            w.write(&[
                Column::fixed("d", ds.iter().flat_map(|v| v.to_le_bytes()).collect()),
                Column::fixed(
                    "a",
                    ds.iter().flat_map(|v| (*v as i32).to_le_bytes()).collect(),
                ),
            ])
            .unwrap();
            w.finish().unwrap();
        }
        let opts = {
            let mut lit = ConsolidateOptions::default();
            lit.with_timestamps = with_timestamps;
            lit
        };
        assert!(consolidate_fragments(&p, &opts).unwrap().written.is_some());
        p
    };
    let cond = QueryCondition::parse("a >= 0").unwrap();
    let at = |t| {
        let mut lit = DeleteOptions::default();
        lit.timestamp = Some(t);
        lit
    };
    let plain = make("plain", false);
    let err = delete_cells(&plain, &cond, &at(2)).unwrap_err().to_string();
    assert!(err.contains("consolidated without timestamps"), "{err}");
    let stamped = make("stamped", true);
    delete_cells(&stamped, &cond, &at(2)).unwrap();
    // Cells written at 1 are gone, the cell written at 3 stays (d=1 was
    // rewritten at 3): as the engine reads it too.
    let r = ArrayReader::open(&stamped, &ReadOptions::default()).unwrap();
    let c = r.read(&Query::new()).unwrap();
    let d = c.column("d").unwrap();
    let mut ds: Vec<i64> = (0..c.len)
        .map(|i| i64::from_le_bytes(d.get(i).unwrap().try_into().unwrap()))
        .collect();
    ds.sort();
    assert_eq!(ds, [1, 2]);
    let engine: Vec<i64> = common::engine_cells(&stamped, None)
        .iter()
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    let mut engine = engine;
    engine.sort();
    assert_eq!(engine, [1, 2]);
}
