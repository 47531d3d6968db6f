//! Issue 22: update commits (`.upd`) and consolidation across them, as the
//! engine (libtiledb 2.30) does it. The facts, each checked below against
//! the engine through tests/engine/i22_updates.py:
//!
//! - The engine writes update commits only through its C API and only with
//!   `sm.allow_updates_experimental=true` (else "Update query type is only
//!   experimental"); TileDB-Py has no update query.
//! - Its readers apply an update commit as a delete: the cells its
//!   condition selects, written at or before it, are gone; its values are
//!   never applied. Ours reads the same cells at every time.
//! - Its fragment consolidation merges across update commits as across
//!   deletes (delete metadata, purging). Ours leaves as many fragments, and
//!   each reader reads the other's consolidated fragments as the engine
//!   reads its own.

use crate::common;
use common::timeline::{our_read, ours_consolidate, p, Engine};
use common::{copy_dir, scratch};

use std::path::Path;

use serde_json::json;
use tiledb_codec::raw::read::aggregate::{aggregate, Aggregate};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

/// The engine's side of this module's arrays.
const ENGINE: Engine = Engine("i22_updates.py");

/// Both readers read `array` as the engine reads `reference`, now and at
/// every time from 1 to `last`.
fn same_reads(label: &str, array: &Path, reference: &Path, last: u64) {
    let wants = ENGINE.reads(reference, last);
    let engine_gots = if array == reference {
        wants.clone()
    } else {
        ENGINE.reads(array, last)
    };
    assert_eq!(wants.len() as u64, last + 1, "{label}: the engine's reads");
    let times = std::iter::once(None).chain((1..=last).map(Some));
    for ((t, want), engine_got) in times.zip(wants).zip(&engine_gots) {
        assert_eq!(engine_got, &want, "{label}: the engine's read at {t:?}");
        let (_, ours) = our_read(array, t);
        assert_eq!(ours, want, "{label}: our read at {t:?}");
        // Aggregates apply the updates as the reads do.
        let r = ArrayReader::open_at(array, t.map(|t| (0, t)), &ReadOptions::default()).unwrap();
        let aggs = [
            Aggregate::parse("count(*)").unwrap(),
            Aggregate::parse("sum(a)").unwrap(),
        ];
        let v = aggregate(&r, &Query::new(), &aggs).unwrap();
        let sum: i64 = want.iter().map(|c| i64::from(c.1)).sum();
        assert_eq!(
            (v[0].json(), v[1].json()),
            (json!(want.len()), json!(sum)),
            "{label}: our aggregates at {t:?}"
        );
    }
}

/// The conditions the one fragment of `array` lists as processed.
fn processed(array: &Path) -> Vec<String> {
    let r = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    assert_eq!(r.fragments.len(), 1);
    let mut v = r.fragments[0]
        .processed_conditions(&ReadOptions::default())
        .unwrap();
    v.sort();
    v
}

/// The engine's reader drops what an update selects and never applies its
/// values; ours reads the same at every time.
#[test]
fn updates_read_as_the_engine_reads_them() {
    let dir = scratch("i22-updates-read");
    let a = dir.join("a");
    ENGINE.run(&["make", p(&a), "nodups"]);
    let commits: Vec<String> = std::fs::read_dir(a.join("__commits"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        commits.iter().filter(|n| n.ends_with(".upd")).count(),
        3,
        "{commits:?}"
    );
    // At t=2 the update "a > 6 set a = -1" removed cells 7..9: no cell
    // holds -1, none holds 7..9.
    let (_, at2) = ENGINE.read(&a, Some(2));
    assert_eq!(
        at2.iter().map(|c| c.0).collect::<Vec<_>>(),
        (0..=6).collect::<Vec<_>>()
    );
    assert!(at2.iter().all(|c| c.1 >= 0), "{at2:?}");
    // At t=7, "a < 2 set a = 7" removed cells 0 and 1 (no cell is 7 from it).
    let (_, now) = ENGINE.read(&a, None);
    assert!(now.iter().all(|c| c.0 >= 2), "{now:?}");
    assert!(!now.iter().any(|c| c.0 == 7 && c.1 == 7), "{now:?}");
    same_reads("as written", &a, &a, 7);
}

/// Without `sm.allow_updates_experimental` the engine refuses to open an
/// array for updates: there is no update but an experimental one.
#[test]
fn the_engine_writes_updates_only_when_told_they_are_experimental() {
    let dir = scratch("i22-updates-refused");
    let a = dir.join("a");
    ENGINE.run(&["make", p(&a), "nodups"]);
    let said = ENGINE.run(&["refused", p(&a), "9"]);
    assert!(said.contains("only experimental"), "{said}");
}

fn run(kind: &str, purge: bool) {
    let label = format!("{kind}{}", if purge { " purged" } else { "" });
    let dir = scratch(&format!("i22-updates-consol-{kind}-{purge}"));
    let orig = dir.join("orig");
    ENGINE.run(&["make", p(&orig), kind]);
    assert_eq!(ENGINE.fragment_count(&orig), 3);

    let (theirs, ours) = (dir.join("theirs"), dir.join("ours"));
    copy_dir(&orig, &theirs);
    copy_dir(&orig, &ours);
    ENGINE.consolidate(&theirs, purge);
    ours_consolidate(&ours, purge);
    // One fragment each, across the updates and the delete.
    assert_eq!(ENGINE.fragment_count(&theirs), 1, "{label}: the engine");
    assert_eq!(ENGINE.fragment_count(&ours), 1, "{label}: ours");
    assert_eq!(
        ours.join("__fragments")
            .read_dir()
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("dt.tdb").is_file())
            .count(),
        usize::from(!purge),
        "{label}: delete metadata"
    );
    // The same processed conditions: every update and delete commit.
    assert_eq!(processed(&ours), processed(&theirs), "{label}");
    assert_eq!(processed(&ours).len(), 4, "{label}");
    same_reads(&format!("{label}, ours consolidated"), &ours, &theirs, 7);
    same_reads(
        &format!("{label}, engine consolidated"),
        &theirs,
        &theirs,
        7,
    );
    if !purge {
        same_reads(&format!("{label}, against the original"), &ours, &orig, 7);
    }

    // A write and an update more, then each consolidates the other's
    // consolidated fragment with them.
    let (theirs2, ours2) = (dir.join("theirs2"), dir.join("ours2"));
    copy_dir(&ours, &theirs2);
    copy_dir(&theirs, &ours2);
    for a in [&theirs, &ours, &theirs2, &ours2] {
        ENGINE.run(&["more", p(a)]);
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
fn consolidation_across_updates_without_duplicates() {
    run("nodups", false);
}

#[test]
fn consolidation_across_updates_with_duplicates() {
    run("dups", false);
}

#[test]
fn consolidation_across_updates_purging() {
    run("nodups", true);
}

#[test]
fn consolidation_across_updates_purging_with_duplicates() {
    run("dups", true);
}
