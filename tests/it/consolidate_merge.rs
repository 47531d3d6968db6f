//! Sparse consolidation merges fragments as they lie in global order
//! (`maintain::merge`, `FragmentWriter::sparse_in_order`) when one tile of
//! each fits the memory budget, and reads and sorts them otherwise. Both
//! ways must write the same fragment, byte for byte: every sparse fixture
//! and engine-written arrays of every cell order, float and string
//! dimensions, overwrites, duplicates and an added attribute are
//! consolidated both ways and compared, and the engine reads the merged
//! array as it read the original. The in-order writer refuses cells out of
//! order and leaves nothing behind.

use crate::write_support;

use std::path::{Path, PathBuf};

use tiledb_codec::maintain::{consolidate_fragments, ConsolidateOptions};
use tiledb_codec::raw::read::ArrayReader;
use tiledb_codec::raw::write::{Column, FragmentWriter, WriteError, WriteOptions};
use write_support::{common, diff_cells, engine_cells_many, key_bytes, TempDir};

/// Options of a consolidation that keeps the newest cell of each
/// coordinate only (no timestamps), which merging and sorting both do.
fn options(key: Option<&str>, budget: usize) -> ConsolidateOptions {
    {
        let mut lit = ConsolidateOptions::default();
        lit.encryption_key = key.map(key_bytes);
        lit.memory_budget = budget;
        lit.with_timestamps = false;
        lit
    }
}

/// Every file below `dir`, by path relative to it, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn is_sparse_with_fragments(path: &Path, key: Option<&str>) -> bool {
    let Ok(r) = ArrayReader::open(path, &write_support::read_options(key)) else {
        return false;
    };
    r.schema.array_type == tiledb_codec::raw::format::ArrayType::Sparse && r.fragments.len() >= 2
}

/// Consolidates copies of `array` by merging and by sorting; returns the
/// merged copy and a copy consolidated keeping timestamps (the default,
/// for the engine to read), or a description of how the two differ.
fn both_ways(
    tmp: &TempDir,
    label: &str,
    array: &Path,
    key: Option<&str>,
) -> Result<(PathBuf, PathBuf), String> {
    let merged = tmp.join(&format!("{label}.merged"));
    let sorted = tmp.join(&format!("{label}.sorted"));
    let stamped = tmp.join(&format!("{label}.stamped"));
    common::copy_dir(array, &merged);
    common::copy_dir(array, &sorted);
    common::copy_dir(array, &stamped);
    let st = {
        let mut lit = options(key, 256 << 20);
        lit.with_timestamps = true;
        lit
    };
    consolidate_fragments(&stamped, &st).map_err(|e| format!("{label}: stamped: {e}"))?;
    let m = consolidate_fragments(&merged, &options(key, 256 << 20))
        .map_err(|e| format!("{label}: merge: {e}"))?;
    // A budget below one tile of every fragment: read and sorted.
    let s = consolidate_fragments(&sorted, &options(key, 1))
        .map_err(|e| format!("{label}: sort: {e}"))?;
    if m.sorted || !s.sorted {
        return Err(format!(
            "{label}: merged sorted={}, sorted sorted={}",
            m.sorted, s.sorted
        ));
    }
    let (Some(mw), Some(sw)) = (&m.written, &s.written) else {
        return Err(format!(
            "{label}: nothing written ({:?}, {:?})",
            m.written, s.written
        ));
    };
    if key.is_some() {
        // Encrypted tiles differ by their random IVs: the cells are
        // compared (by the engine) instead.
        return Ok((merged, stamped));
    }
    let (fm, fs) = (files(mw), files(sw));
    let names = |f: &[(PathBuf, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    if names(&fm) != names(&fs) {
        return Err(format!(
            "{label}: files {:?} vs {:?}",
            names(&fm),
            names(&fs)
        ));
    }
    for ((p, a), (_, b)) in fm.iter().zip(&fs) {
        if a != b {
            return Err(format!(
                "{label}: {} differs ({} vs {} bytes)",
                p.display(),
                a.len(),
                b.len()
            ));
        }
    }
    Ok((merged, stamped))
}

/// A copy of the sparse fixture `array` (format 12 on) whose newest
/// fragment is committed a second time, later and under another name: two
/// fragments of the same cells, the second overwriting the first (or, with
/// duplicates, doubling them). `None`: not such a fixture.
fn doubled(tmp: &TempDir, label: &str, array: &Path, key: Option<&str>) -> Option<PathBuf> {
    let r = ArrayReader::open(array, &write_support::read_options(key)).ok()?;
    if r.schema.array_type != tiledb_codec::raw::format::ArrayType::Sparse {
        return None;
    }
    let last = r.fragments.last()?;
    let n = &last.name;
    if n.version < 12 {
        return None;
    }
    let out = tmp.join(&format!("{label}.doubled"));
    common::copy_dir(array, &out);
    let t = n.t2 + 1;
    let name = format!("__{t}_{t}_{}_{}", "0".repeat(32), n.version);
    common::copy_dir(&last.path, &out.join("__fragments").join(&name));
    std::fs::write(out.join("__commits").join(format!("{name}.wrt")), b"").unwrap();
    Some(out)
}

#[test]
fn every_sparse_fixture_merges_as_it_sorts() {
    let tmp = TempDir::new("merge-fixtures");
    let mut failures = Vec::new();
    let mut pairs = Vec::new();
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let label = f.id.replace('/', "_");
        let key = f.key.as_deref();
        let array = if is_sparse_with_fragments(&f.path, key) {
            f.path.clone()
        } else {
            match doubled(&tmp, &label, &f.path, key) {
                Some(p) => p,
                None => continue,
            }
        };
        match both_ways(&tmp, &label, &array, key) {
            Ok((merged, stamped)) => pairs.push((label, array, merged, stamped, f.key.clone())),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(pairs.len() >= 20, "only {} sparse fixtures", pairs.len());
    // The engine reads each merged array as it reads the array before.
    let arrays: Vec<(PathBuf, Option<String>)> = pairs
        .iter()
        .flat_map(|(_, a, m, st, k)| {
            [
                (a.clone(), k.clone()),
                (m.clone(), k.clone()),
                (st.clone(), k.clone()),
            ]
        })
        .collect();
    let seen = write_support::engine_cells_many_keyed(&arrays);
    for (k, (label, ..)) in pairs.iter().enumerate() {
        for (way, after) in [("merged", &seen[3 * k + 1]), ("stamped", &seen[3 * k + 2])] {
            match (&seen[3 * k], after) {
                (Ok(before), Ok(after)) => {
                    if let Some(d) = diff_cells(before.clone(), after.clone()) {
                        failures.push(format!("{label} {way}: {d}"));
                    }
                }
                (before, after) => failures.push(format!("{label} {way}: {before:?} / {after:?}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Sparse arrays of many shapes, written by the engine in small tiles over
/// several fragments that overlap.
const ENGINE_ARRAYS: &str = r#"
import sys, numpy as np, tiledb
base = sys.argv[1]
def make(name, dims, frags, dups=False, cell="row-major", tile="row-major", evolve_at=None):
    uri = base + "/" + name
    s = tiledb.ArraySchema(domain=tiledb.Domain(*dims), sparse=True, allows_duplicates=dups,
        capacity=3, cell_order=cell, tile_order=tile,
        attrs=[tiledb.Attr("a", dtype=np.int32), tiledb.Attr("s", dtype=str, var=True)])
    tiledb.Array.create(uri, s)
    for t, coords in enumerate(frags, start=1):
        if evolve_at == t:
            se = tiledb.ArraySchemaEvolution(tiledb.default_ctx())
            se.add_attribute(tiledb.Attr("b", dtype=np.int64, fill=42))
            se.array_evolve(uri)
        with tiledb.open(uri, "w", timestamp=t) as A:
            n = len(coords[0])
            a = np.arange(n, dtype=np.int32) + 100 * t
            d = {"a": a, "s": np.array(["v%d" % x for x in a], dtype=object)}
            if evolve_at is not None and t >= evolve_at:
                d["b"] = a.astype(np.int64) * 3
            A[tuple(np.array(c) for c in coords)] = d
ints = lambda: [tiledb.Dim("x", domain=(-50, 49), tile=7, dtype=np.int64),
                tiledb.Dim("y", domain=(0, 99), tile=10, dtype=np.int32)]
f1 = ([i - 50 for i in range(0, 100, 3)], [(i * 7) % 100 for i in range(0, 100, 3)])
f2 = ([i - 50 for i in range(1, 100, 4)], [(i * 7) % 100 for i in range(1, 100, 4)])
f3 = ([i - 50 for i in range(0, 100, 6)], [(i * 7) % 100 for i in range(0, 100, 6)])
frags = [f1, f2, f3, f1]
make("rows", ints(), frags)
make("rows_dups", ints(), frags, dups=True)
make("cols", ints(), frags, cell="col-major", tile="col-major")
make("mixed", ints(), frags, cell="col-major", tile="row-major")
make("hilbert", ints(), frags, cell="hilbert")
make("evolved", ints(), frags, evolve_at=3)
floats = [tiledb.Dim("f", domain=(-10.0, 10.0), tile=2.5, dtype=np.float64),
          tiledb.Dim("g", domain=(0.0, 1.0), tile=0.25, dtype=np.float32)]
fl = lambda k: ([-0.0 if i == 0 else (i - 8) * 1.25 for i in range(k, 16, 2)],
                [i / 16 for i in range(k, 16, 2)])
# -0.0 and 0.0 with equal other coordinates in three fragments are left
# out: the engine then keeps two cells of one coordinate (its merge takes
# -0.0 and 0.0 as equal, so the two -0.0 cells need not meet).
make("floats", floats, [fl(0), fl(1), ([0.0, 2.5], [0.5, 0.125]), fl(0)])
strs = [tiledb.Dim("k", domain=(None, None), tile=None, dtype="ascii"),
        tiledb.Dim("n", domain=(0, 9), tile=5, dtype=np.uint8)]
st = lambda k: (["key%02d" % (i * k % 23) for i in range(20)], [i % 10 for i in range(20)])
make("strings", strs, [st(1), st(2), st(5), st(1)])
make("strings_dups", strs, [st(1), st(2), st(1)], dups=True)
"#;

/// The engine writes [`ENGINE_ARRAYS`] into `tmp`; returns their folder.
fn engine_arrays(tmp: &TempDir) -> PathBuf {
    let base = tmp.join("engine");
    std::fs::create_dir_all(&base).unwrap();
    let out = std::process::Command::new(common::engine_python())
        .arg("-c")
        .arg(ENGINE_ARRAYS)
        .arg(&base)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    base
}

#[test]
fn engine_arrays_merge_as_they_sort_and_read_the_same() {
    let tmp = TempDir::new("merge-engine");
    let base = engine_arrays(&tmp);
    let names = [
        "rows",
        "rows_dups",
        "cols",
        "mixed",
        "hilbert",
        "evolved",
        "floats",
        "strings",
        "strings_dups",
    ];
    let mut failures = Vec::new();
    let mut pairs = Vec::new();
    for n in names {
        match both_ways(&tmp, n, &base.join(n), None) {
            Ok((merged, stamped)) => pairs.push((n, base.join(n), merged, stamped)),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The engine reads the merged arrays as it read the originals.
    let paths: Vec<PathBuf> = pairs
        .iter()
        .flat_map(|(_, a, b, c)| [a.clone(), b.clone(), c.clone()])
        .collect();
    let seen = engine_cells_many(&paths);
    for (k, (n, ..)) in pairs.iter().enumerate() {
        let before = seen[3 * k].clone().unwrap_or_else(|e| panic!("{n}: {e}"));
        assert!(!before.is_empty(), "{n}: no cells");
        for (way, after) in [("merged", &seen[3 * k + 1]), ("stamped", &seen[3 * k + 2])] {
            let after = after.clone().unwrap_or_else(|e| panic!("{n} {way}: {e}"));
            if let Some(d) = diff_cells(before.clone(), after) {
                failures.push(format!("{n} {way}: {d}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_in_order_writer_refuses_cells_out_of_order_and_leaves_nothing() {
    let tmp = TempDir::new("in-order");
    let base = engine_arrays(&tmp);
    let array = base.join("rows");
    let listing = |p: &Path| files(p).into_iter().map(|f| f.0).collect::<Vec<_>>();
    let before = listing(&array);
    let cols = |xs: &[i64], ys: &[i32]| {
        let n = xs.len();
        vec![
            Column::fixed("x", xs.iter().flat_map(|v| v.to_le_bytes()).collect()),
            Column::fixed("y", ys.iter().flat_map(|v| v.to_le_bytes()).collect()),
            Column::fixed("a", (0..n as i32).flat_map(|v| v.to_le_bytes()).collect()),
            Column::var("s", vec![b'p'; n], (0..n as u64).collect()),
        ]
    };
    // (-50, 5) is in the first tile of the row-major tile order, (20, 5)
    // in a later one: the second cell comes first.
    let mut w = FragmentWriter::sparse_in_order(&array, WriteOptions::default()).unwrap();
    let err = w.write(&cols(&[20, -50], &[5, 5])).unwrap_err();
    assert!(matches!(err, WriteError::OutOfOrder { cell: 1 }), "{err}");
    drop(w);
    assert_eq!(listing(&array), before, "the refused write left files");
    // Across two calls too.
    let mut w = FragmentWriter::sparse_in_order(&array, WriteOptions::default()).unwrap();
    w.write(&cols(&[-50, 20], &[5, 5])).unwrap();
    let err = w.write(&cols(&[-49], &[0])).unwrap_err();
    assert!(matches!(err, WriteError::OutOfOrder { cell: 2 }), "{err}");
    drop(w);
    assert_eq!(listing(&array), before, "the refused write left files");
    // In order, with a repeated coordinate: the later cell is kept (as
    // consolidation asks; by default the write is refused).
    let keep = WriteOptions::default().with_keep_last_duplicate(true);
    let mut w = FragmentWriter::sparse_in_order(&array, keep).unwrap();
    w.write(&cols(&[-50, -50, 20], &[5, 5, 5])).unwrap();
    let info = w.finish().unwrap();
    assert_eq!((info.cells, info.duplicates_dropped), (2, 1));
}
