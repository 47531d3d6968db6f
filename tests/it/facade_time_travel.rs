//! `Array::open_at`: an array with two fragments written at different
//! timestamps, read as of each time, here and by the engine
//! (`tiledb.open(path, timestamp=(t1, t2))`).

use crate::common;
use crate::write_support::TempDir;

use std::path::Path;

use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};

/// The engine's `(d, a)` cells of the array opened at `(t1, t2)` (dense:
/// of its non-empty domain, as `engine_account.py` reads), sorted.
fn engine_at(path: &Path, t1: u64, t2: u64) -> Vec<(i64, i64)> {
    let script = "import json, sys, tiledb\n\
        p, t1, t2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])\n\
        with tiledb.open(p, timestamp=(t1, t2)) as A:\n\
        \x20   ned = A.nonempty_domain()\n\
        \x20   r = A.query(coords=True)[ned[0][0]:ned[0][1] + 1] if ned else {'d': [], 'a': []}\n\
        \x20   print(json.dumps([[int(d), int(a)] for d, a in zip(r['d'], r['a'])]))\n";
    let out = std::process::Command::new(common::engine_python())
        .arg("-c")
        .arg(script)
        .arg(path)
        .arg(t1.to_string())
        .arg(t2.to_string())
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: Vec<(i64, i64)> = serde_json::from_slice(&out.stdout).unwrap();
    v.sort();
    v
}

fn ours(array: &Array) -> Vec<(i64, i64)> {
    let b = array.reader().read().unwrap();
    let d = b.column::<i64>("d").unwrap();
    let a = b.column::<i64>("a").unwrap();
    let mut v: Vec<(i64, i64)> = d.iter().copied().zip(a.iter().copied()).collect();
    v.sort();
    v
}

#[test]
fn reads_at_a_timestamp_see_only_the_fragments_written_by_then() {
    let tmp = TempDir::new("open-at");
    for dense in [false, true] {
        let path = tmp.join(if dense { "dense" } else { "sparse" });
        let d = DimensionBuilder::new("d", Datatype::Int64)
            .domain(1..=8)
            .tile_extent(4);
        let builder = if dense {
            SchemaBuilder::dense()
        } else {
            SchemaBuilder::sparse()
        };
        let schema = builder
            .dimension(d)
            .attribute(AttributeBuilder::new("a", Datatype::Int64))
            .build()
            .unwrap();
        let array = Array::create(&path, &schema).unwrap();
        // t=100: every cell; t=200: cells 3 and 4 again, other values.
        let first = array.write().timestamp(100);
        let first = if dense {
            first
        } else {
            first.column("d", &(1..=8).collect::<Vec<i64>>())
        };
        first
            .column("a", &(1..=8).collect::<Vec<i64>>())
            .commit()
            .unwrap();
        let second = array.write().timestamp(200);
        let second = if dense {
            second.range("d", 3..=4)
        } else {
            second.column("d", &[3i64, 4])
        };
        second.column("a", &[30i64, 40]).commit().unwrap();

        let old: Vec<(i64, i64)> = (1..=8).map(|i| (i, i)).collect();
        let mut new = old.clone();
        new[2].1 = 30;
        new[3].1 = 40;

        let at_first = Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_time_range(..=100),
        )
        .unwrap();
        assert_eq!(at_first.fragments().len(), 1);
        assert_eq!(ours(&at_first), old, "dense {dense}");
        assert_eq!(
            ours(
                &Array::open_with(
                    &path,
                    tiledb_codec::OpenOptions::new().with_time_range(0..=150)
                )
                .unwrap()
            ),
            old
        );
        assert_eq!(
            ours(
                &Array::open_with(
                    &path,
                    tiledb_codec::OpenOptions::new().with_time_range(100..200)
                )
                .unwrap()
            ),
            old
        );
        assert_eq!(
            ours(
                &Array::open_with(&path, tiledb_codec::OpenOptions::new().with_time_range(..))
                    .unwrap()
            ),
            new
        );
        assert_eq!(ours(&Array::open(&path).unwrap()), new);
        // From t=150 only the second fragment (a dense read: the cells of
        // its non-empty domain, as the engine's tests read them).
        let at_second = Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_time_range(150..=250),
        )
        .unwrap();
        assert_eq!(ours(&at_second), [(3, 30), (4, 40)], "dense {dense}");
        assert!(Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_time_range(50..=60)
        )
        .unwrap()
        .fragments()
        .is_empty());

        // The engine agrees at each time.
        for (t1, t2) in [(0, 100), (0, 150), (0, 200), (150, 250), (50, 60)] {
            let ours = ours(
                &Array::open_with(
                    &path,
                    tiledb_codec::OpenOptions::new().with_time_range(t1..=t2),
                )
                .unwrap(),
            );
            assert_eq!(
                ours,
                engine_at(&path, t1, t2),
                "dense {dense} at {t1}..={t2}"
            );
        }

        // A range holding no time is refused, naming the array.
        let err = Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_time_range(5..5),
        )
        .unwrap_err()
        .to_string();
        let named = err.contains(&*path.to_string_lossy());
        assert!(err.contains("holds no time") && named, "{err}");
    }
}

/// The metadata of an array opened at a timestamp range is the metadata
/// written in it, as the engine reads it: the engine writes `k` at t=100,
/// 200 and 300 and deletes `gone` at t=250.
#[test]
fn metadata_at_a_timestamp_is_the_engines() {
    let tmp = TempDir::new("open-at-meta");
    let path = tmp.join("a");
    let schema = SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(1..=8)
                .tile_extent(4),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int64))
        .build()
        .unwrap();
    Array::create(&path, &schema).unwrap();
    let script = "import json, sys, tiledb\n\
        p = sys.argv[1]\n\
        for t, v in [(100, 1), (200, 2), (300, 3)]:\n\
        \x20   with tiledb.open(p, 'w', timestamp=t) as A:\n\
        \x20       A.meta['k'] = v\n\
        \x20       if t == 100: A.meta['gone'] = 7\n\
        with tiledb.open(p, 'w', timestamp=250) as A:\n\
        \x20   del A.meta['gone']\n\
        out = {}\n\
        for t1, t2 in [(0, 150), (0, 260), (150, 250), (260, 400), (0, 50)]:\n\
        \x20   with tiledb.open(p, timestamp=(t1, t2)) as A:\n\
        \x20       out['%d-%d' % (t1, t2)] = {k: int(A.meta[k]) for k in A.meta.keys()}\n\
        print(json.dumps(out))\n";
    let out = std::process::Command::new(common::engine_python())
        .arg("-c")
        .arg(script)
        .arg(&path)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: std::collections::BTreeMap<String, std::collections::BTreeMap<String, i64>> =
        serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(theirs.len(), 5);
    // The engine sees a different state in different ranges (else this
    // would test nothing).
    assert_ne!(theirs["0-150"], theirs["260-400"]);
    for (range, want) in &theirs {
        let (t1, t2) = range.split_once('-').unwrap();
        let (t1, t2): (u64, u64) = (t1.parse().unwrap(), t2.parse().unwrap());
        let ours: std::collections::BTreeMap<String, i64> = Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_time_range(t1..=t2),
        )
        .unwrap()
        .metadata()
        .unwrap()
        .into_iter()
        .map(|(k, v)| (k, v.values::<i64>().unwrap()[0]))
        .collect();
        assert_eq!(&ours, want, "metadata at {t1}..={t2}");
    }
    // Opened without a range: the newest state.
    let all = Array::open(&path).unwrap().metadata().unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(all["k"].values::<i64>().unwrap(), [3]);
}
