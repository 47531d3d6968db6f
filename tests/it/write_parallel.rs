//! Tiles filtered on the thread pool while the writer takes the next cells
//! and the data files are written on threads of their own: the files must
//! hold the tiles in order, byte for byte what the writer makes when it
//! filters every tile in place (as it does when called from the pool), and
//! the engine must read the cells written.

use std::path::Path;

use crate::write_support;

use serde_json::{json, Value};
use tiledb_codec::raw::write::schema::create_array_with;
use tiledb_codec::raw::write::{Column, CreateOptions, FragmentWriter, WriteOptions};
use write_support::{diff_cells, engine_cells, TempDir};

/// Cells per space tile: 320 KB of INT64, five chunks of 64 KiB.
const TILE: i64 = 40_000;

/// A dense array with a compressed, a var-sized nullable and a nullable
/// shuffled attribute; 1-D (row-major tiles) or 2-D with column-major tile
/// order (the tiles come in another order than they are written).
fn schema(two_d: bool) -> Value {
    let dims = if two_d {
        json!([
            {"name": "x", "datatype": "INT64", "domain": [0, 399], "tile_extent": 200},
            {"name": "y", "datatype": "INT64", "domain": [0, 599], "tile_extent": 200}
        ])
    } else {
        json!([{"name": "d", "datatype": "INT64", "domain": [0, 12 * TILE - 1], "tile_extent": TILE}])
    };
    json!({
        "array_type": "dense",
        "tile_order": if two_d { "col-major" } else { "row-major" },
        "dimensions": dims,
        "attributes": [
            {"name": "a", "datatype": "INT64",
             "filters": [{"type": "DELTA"}, {"type": "ZSTD", "level": 1}]},
            {"name": "s", "datatype": "STRING_ASCII", "cell_val_num": "var", "nullable": true,
             "filters": [{"type": "ZSTD", "level": 1}]},
            {"name": "f", "datatype": "FLOAT64", "nullable": true,
             "filters": [{"type": "BYTESHUFFLE"}, {"type": "LZ4"}]}
        ],
    })
}

/// Cell `i`'s values: every tile different from every other (a tile out of
/// place changes the bytes), compressing to different sizes.
fn a(i: i64) -> i64 {
    (i * i) % (1_000 + i / TILE * 37)
}
fn s(i: i64) -> String {
    format!("v{}", (i / 3) % (50 + i / TILE * 11))
}
fn f(i: i64) -> f64 {
    i as f64 / 7.0
}
fn valid(i: i64) -> bool {
    i % 13 != 5
}

/// Writes the cells in write calls of uneven sizes (never whole tiles).
fn write(path: &Path, rect: &[(i128, i128)], cells: i64) {
    let mut w = FragmentWriter::dense(path, rect, WriteOptions::default()).unwrap();
    let mut lo = 0;
    let mut step = 0;
    while lo < cells {
        step += 1;
        let hi = (lo + 17_000 + step * 9_001).min(cells);
        let ids: Vec<i64> = (lo..hi).collect();
        let strs: Vec<String> = ids.iter().map(|&i| s(i)).collect();
        let cols = [
            Column::fixed("a", ids.iter().flat_map(|&i| a(i).to_le_bytes()).collect()),
            Column::from_values("s", &strs)
                .with_validity(ids.iter().map(|&i| u8::from(valid(i))).collect()),
            Column::fixed("f", ids.iter().flat_map(|&i| f(i).to_le_bytes()).collect())
                .with_validity(ids.iter().map(|&i| u8::from(valid(i + 1))).collect()),
        ];
        w.write(&cols).unwrap();
        lo = hi;
    }
    let info = w.finish().unwrap();
    assert_eq!(info.cells, cells as u64);
}

/// The files of the array's one fragment, by name.
fn fragment_files(array: &Path) -> Vec<(String, Vec<u8>)> {
    let frags = array.join("__fragments");
    let mut dirs: Vec<_> = std::fs::read_dir(&frags)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{}", frags.display());
    let dir = dirs.pop().unwrap();
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// Runs `f` on a thread of a one-thread pool (where every tile is
/// filtered in place, not on the pool).
fn on_one_thread(f: impl FnOnce() + Send) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(f);
}

/// The two fragments' files are the same, name by name and byte for
/// byte; how many there are.
fn assert_same_files(x: &Path, y: &Path) -> usize {
    let (x, y) = (fragment_files(x), fragment_files(y));
    assert_eq!(
        x.iter().map(|f| &f.0).collect::<Vec<_>>(),
        y.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for ((name, a), (_, b)) in x.iter().zip(&y) {
        assert!(
            a == b,
            "{name}: {} and {} bytes, not the same",
            a.len(),
            b.len()
        );
    }
    x.len()
}

/// The engine reads the array's `cells` cells as `row(i)` gives cell `i`,
/// with its coordinates: `d = i` (1-D), or `x = i / width`, `y = i % width`
/// (2-D, `width` the second dimension's length).
fn assert_engine_reads(path: &Path, cells: i64, width: Option<i64>, row: impl Fn(i64) -> Value) {
    let expected = (0..cells)
        .map(|i| {
            let mut r = row(i);
            match width {
                Some(w) => {
                    r["x"] = json!(i / w);
                    r["y"] = json!(i % w);
                }
                None => r["d"] = json!(i),
            }
            r
        })
        .collect();
    let got = engine_cells(path).unwrap();
    if let Some(d) = diff_cells(got, expected) {
        panic!("the engine reads other cells: {d}");
    }
}

fn check(two_d: bool) {
    let tmp = TempDir::new("write-parallel");
    let (rect, cells): (Vec<(i128, i128)>, i64) = if two_d {
        // 2 x 3 tiles of 200 x 200 cells.
        (vec![(0, 399), (0, 599)], 400 * 600)
    } else {
        (vec![(0, 12 * TILE as i128 - 1)], 12 * TILE)
    };
    let (pooled, in_place) = (tmp.join("pooled"), tmp.join("in_place"));
    // One schema (the fragment metadata names it).
    create_array_with(&pooled, &schema(two_d), &CreateOptions::default()).unwrap();
    crate::common::copy_dir(&pooled, &in_place);
    // From this thread: tiles go to the pool and the data threads.
    write(&pooled, &rect, cells);
    // From a thread of a one-thread pool: every tile filtered in place.
    on_one_thread(|| write(&in_place, &rect, cells));
    let files = assert_same_files(&pooled, &in_place);
    assert!(files >= 5, "{files} files");
    // The tiles are where the engine looks for them.
    let width = if two_d { Some(600) } else { None };
    assert_engine_reads(&pooled, cells, width, |i| {
        json!({
            "a": a(i),
            "s": if valid(i) { json!(s(i)) } else { Value::Null },
            "f": if valid(i + 1) { json!(f(i)) } else { Value::Null },
        })
    });
}

#[test]
fn tiles_filtered_on_the_pool_land_in_order_1d() {
    check(false);
}

#[test]
fn tiles_filtered_on_the_pool_land_in_order_2d_col_major_tiles() {
    check(true);
}

/// Fixed-size, non-nullable attributes only, two filtered and one not:
/// whole tiles of a write call are filtered straight from the caller's
/// columns, and the unfiltered one's bytes go from there to the file (or
/// from a copy, for a tile filtered before its turn). 1-D, or 2-D
/// row-major with one tile across dimension `y` (a row of tiles is a tile).
fn fixed_schema(two_d: bool) -> Value {
    let dims = if two_d {
        json!([
            {"name": "x", "datatype": "INT64", "domain": [0, 1199], "tile_extent": 100},
            {"name": "y", "datatype": "INT64", "domain": [0, 399], "tile_extent": 400}
        ])
    } else {
        json!([{"name": "d", "datatype": "INT64", "domain": [0, 12 * TILE - 1], "tile_extent": TILE}])
    };
    json!({
        "array_type": "dense",
        "dimensions": dims,
        "attributes": [
            {"name": "a", "datatype": "INT64",
             "filters": [{"type": "DELTA"}, {"type": "ZSTD", "level": 1}]},
            {"name": "f", "datatype": "FLOAT64", "filters": [{"type": "ZSTD", "level": -1}]},
            {"name": "u", "datatype": "INT32"}
        ],
    })
}

/// The unfiltered attribute's values.
fn u(i: i64) -> i32 {
    (i * 7 - 3) as i32
}

/// Writes cells `lo..hi` of the rectangle in calls of the given sizes
/// (whole tiles, runs that start or end inside a tile, a call spanning
/// several tiles) and returns the cells' values by cell number.
fn write_fixed(path: &Path, rect: &[(i128, i128)], lo: i64, hi: i64, calls: &[i64]) {
    let mut w = FragmentWriter::dense(path, rect, WriteOptions::default()).unwrap();
    let mut at = lo;
    for step in calls.iter().copied().chain(std::iter::repeat(i64::MAX)) {
        if at >= hi {
            break;
        }
        let end = at.saturating_add(step).min(hi);
        let cols = [
            Column::fixed("a", (at..end).flat_map(|i| a(i).to_le_bytes()).collect()),
            Column::fixed("f", (at..end).flat_map(|i| f(i).to_le_bytes()).collect()),
            Column::fixed("u", (at..end).flat_map(|i| u(i).to_le_bytes()).collect()),
        ];
        w.write(&cols).unwrap();
        at = end;
    }
    let info = w.finish().unwrap();
    assert_eq!(info.cells, (hi - lo) as u64);
}

/// The fragment written from this thread (whole tiles filtered where the
/// caller's cells are) and from a thread of a one-thread pool (every cell
/// copied into tiles first): byte for byte the same files; the engine
/// reads the cells when the rectangle is the domain.
fn check_fixed(two_d: bool, rect: Vec<(i128, i128)>, calls: &[i64]) {
    let tmp = TempDir::new("write-parallel-fixed");
    let (pooled, in_place) = (tmp.join("pooled"), tmp.join("in_place"));
    create_array_with(&pooled, &fixed_schema(two_d), &CreateOptions::default()).unwrap();
    crate::common::copy_dir(&pooled, &in_place);
    let cells: i64 = rect.iter().map(|(a, b)| (b - a + 1) as i64).product();
    // Cell numbers: row-major over the rectangle, from its first cell in
    // the domain's numbering (1-D) or from 0 (2-D).
    let lo = if two_d { 0 } else { rect[0].0 as i64 };
    write_fixed(&pooled, &rect, lo, lo + cells, calls);
    on_one_thread(|| write_fixed(&in_place, &rect, lo, lo + cells, calls));
    assert_same_files(&pooled, &in_place);
    let full = if two_d {
        rect == [(0, 1199), (0, 399)]
    } else {
        rect == [(0, 12 * TILE as i128 - 1)]
    };
    if !full {
        return;
    }
    let width = if two_d { Some(400) } else { None };
    assert_engine_reads(
        &pooled,
        cells,
        width,
        |i| json!({"a": a(i), "f": f(i), "u": u(i)}),
    );
}

#[test]
fn whole_tiles_filtered_where_the_caller_has_them_1d() {
    let t = TILE;
    // Half a tile; the rest of it and four tiles and a bit; one whole tile;
    // the rest in one call.
    check_fixed(
        false,
        vec![(0, 12 * t as i128 - 1)],
        &[t / 2, t / 2 + 4 * t + 7, t - 7, t],
    );
    // A rectangle that starts and ends inside tiles: its first and last
    // tiles are copied, the ones between are not.
    check_fixed(false, vec![(t as i128 / 3, 11 * t as i128 + 5)], &[]);
}

#[test]
fn whole_tiles_filtered_where_the_caller_has_them_2d() {
    // Rows of 100 x 400 cells, each one tile: a row and a half; the rest.
    check_fixed(true, vec![(0, 1199), (0, 399)], &[60_000]);
    // Dimension y not whole: every tile copied (and filled).
    check_fixed(true, vec![(0, 1199), (0, 299)], &[]);
}
