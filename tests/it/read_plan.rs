//! The planned read path: unfiltered tiles are borrowed from the mapping,
//! and a query decodes only the tiles it touches.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::json;
use tiledb_codec::raw::filters::Pipeline;
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::read::{ArrayReader, DimRange, Query};
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::TileView;
use tiledb_codec::raw::write::{create_array, Column, FragmentWriter, WriteOptions};
use tiledb_codec::ReadOptions;

fn fresh(name: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&p);
    p
}

fn ints(values: impl Iterator<Item = i64>) -> Vec<u8> {
    values.flat_map(|v| v.to_le_bytes()).collect()
}

/// A dense 1-D array, domain [0, 999], ten tiles of 100 INT64 cells, no
/// filters, and three fragments: all of it (values i), [150, 449]
/// (values 1000 + i), [700, 799] (values 2000 + i).
fn dense_array(name: &str) -> PathBuf {
    let p = fresh(name);
    create_array(
        &p,
        &json!({
            "array_type": "dense",
            "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 999], "tile_extent": 100}],
            "attributes": [{"name": "a", "datatype": "INT64"}],
        }),
    )
    .unwrap();
    for (t, (lo, hi, base)) in [(0i64, 999i64, 0i64), (150, 449, 1000), (700, 799, 2000)]
        .into_iter()
        .enumerate()
    {
        let opts = WriteOptions::default().with_timestamp(10 + t as u64);
        let mut w = FragmentWriter::dense(&p, &[(i128::from(lo), i128::from(hi))], opts).unwrap();
        w.write(&[Column::fixed("a", ints((lo..=hi).map(|i| base + i)))])
            .unwrap();
        w.finish().unwrap();
    }
    p
}

fn int64_range(text: &str) -> DimRange {
    DimRange::parse(Datatype::Int64, text).unwrap()
}

fn values(cells: &tiledb_codec::raw::read::Cells, name: &str) -> Vec<i64> {
    cells
        .column(name)
        .unwrap()
        .data()
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn an_unfiltered_tile_of_a_small_file_is_borrowed_from_its_bytes() {
    let p = dense_array("borrowed_tile");
    let reader = ArrayReader::open(&p, &ReadOptions::default()).unwrap();
    let frag = &reader.fragments[0];
    // The attribute's data file: 8,000 bytes of cells in ten tiles, plus
    // the chunk headers (small files are read into memory, not mapped).
    let offsets = frag
        .tile_offsets(0, &ReadOptions::default())
        .unwrap()
        .unwrap()
        .values;
    let file = MappedFile::open(frag.path.join("a0.tdb")).unwrap();
    assert!(!file.is_mapped());
    let bytes = file.bytes();
    let tile = &bytes[offsets[3] as usize..offsets[4] as usize];
    let view = TileView::parse(&file, offsets[3], tile, None, 1 << 30, true).unwrap();
    assert_eq!(view.len(), 800);
    let empty = Pipeline::new(&[], Datatype::Int64, 8, 22).unwrap();
    let data = view.decode(&empty, None, 1 << 30).unwrap();
    let Cow::Borrowed(b) = data else {
        panic!("an unfiltered one-chunk tile was copied");
    };
    // The bytes handed out lie inside the file's bytes, not in a copy.
    let range = bytes.as_ptr_range();
    assert!(range.contains(&b.as_ptr()) && b.as_ptr_range().end <= range.end);
    assert_eq!(
        i64::from_le_bytes(b[..8].try_into().unwrap()),
        300,
        "tile 3 starts with cell 300"
    );
}

#[test]
fn an_unfiltered_tile_of_a_mapped_file_is_borrowed_from_the_map() {
    // A file large enough to be mapped: 200,000 cells, tiles of 5,000
    // (40,000 bytes, one chunk each).
    let p = fresh("borrowed_mapped");
    create_array(
        &p,
        &json!({
            "array_type": "dense",
            "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 199_999], "tile_extent": 5000}],
            "attributes": [{"name": "a", "datatype": "INT64"}],
        }),
    )
    .unwrap();
    let mut w = FragmentWriter::dense(&p, &[(0, 199_999)], WriteOptions::default()).unwrap();
    w.write(&[Column::fixed("a", ints(0..200_000))]).unwrap();
    w.finish().unwrap();
    let reader = ArrayReader::open(&p, &ReadOptions::default()).unwrap();
    let frag = &reader.fragments[0];
    let offsets = frag
        .tile_offsets(0, &ReadOptions::default())
        .unwrap()
        .unwrap()
        .values;
    let file = MappedFile::open(frag.path.join("a0.tdb")).unwrap();
    assert!(file.is_mapped(), "a {}-byte file is mapped", file.len());
    let bytes = file.bytes();
    let tile = &bytes[offsets[7] as usize..offsets[8] as usize];
    let view = TileView::parse(&file, offsets[7], tile, None, 1 << 30, true).unwrap();
    assert_eq!(view.chunks().len(), 1);
    let empty = Pipeline::new(&[], Datatype::Int64, 8, 22).unwrap();
    let Cow::Borrowed(b) = view.decode(&empty, None, 1 << 30).unwrap() else {
        panic!("an unfiltered one-chunk tile was copied");
    };
    let range = bytes.as_ptr_range();
    assert!(range.contains(&b.as_ptr()) && b.as_ptr_range().end <= range.end);
    assert_eq!(i64::from_le_bytes(b[..8].try_into().unwrap()), 35_000);
}

#[test]
fn a_one_tile_dense_range_decodes_one_tile_per_fragment_holding_it() {
    let p = dense_array("dense_one_tile");
    let reader = ArrayReader::open(&p, &ReadOptions::default()).unwrap();
    // Tile 1 ([100, 199]): the first two fragments hold cells of it.
    let q = {
        let mut lit = Query::default();
        lit.attributes = Some(vec!["a".into()]);
        lit
    }
    .range("d", int64_range("120:180"));
    let before = reader.stats().tiles();
    let cells = reader.read(&q).unwrap();
    assert_eq!(reader.stats().tiles() - before, 2);
    let expect: Vec<i64> = (120..=180)
        .map(|i| if i >= 150 { 1000 + i } else { i })
        .collect();
    assert_eq!(values(&cells, "a"), expect);
    // The same values viewed in place through zerocopy's little-endian type
    // (the column's bytes need no alignment), and no view of another size.
    use zerocopy::byteorder::little_endian::{I32, I64};
    let col = cells.column("a").unwrap();
    let typed: Vec<i64> = col
        .values::<I64>()
        .unwrap()
        .iter()
        .map(|v| v.get())
        .collect();
    assert_eq!(typed, expect);
    assert!(col.values::<I32>().is_none());
    // Tile 7 ([700, 799]): the first and the third.
    let before = reader.stats().tiles();
    let cells = reader
        .read(&Query::default().range("d", int64_range("705:709")))
        .unwrap();
    assert_eq!(reader.stats().tiles() - before, 2);
    assert_eq!(values(&cells, "a"), (2705..=2709).collect::<Vec<_>>());
    // Tile 9: only the first.
    let before = reader.stats().tiles();
    reader
        .read(&Query::default().range("d", int64_range("950:950")))
        .unwrap();
    assert_eq!(reader.stats().tiles() - before, 1);
}

#[test]
fn a_one_tile_sparse_range_decodes_one_tile_per_fragment_holding_it() {
    // Sparse 1-D, capacity 10: each fragment's tiles hold ten consecutive
    // coordinates. Fragment 1 writes 0..100 (ten tiles), fragment 2
    // 40..60 (two tiles: 40-49, 50-59), fragment 3 200..230.
    let p = fresh("sparse_one_tile");
    create_array(
        &p,
        &json!({
            "array_type": "sparse",
            "capacity": 10,
            "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 999], "tile_extent": 1000}],
            "attributes": [{"name": "a", "datatype": "INT64"}],
        }),
    )
    .unwrap();
    for (t, (lo, hi)) in [(0i64, 100i64), (40, 60), (200, 230)]
        .into_iter()
        .enumerate()
    {
        let opts = WriteOptions::default().with_timestamp(10 + t as u64);
        let mut w = FragmentWriter::sparse(&p, opts).unwrap();
        w.write(&[
            Column::fixed("d", ints(lo..hi)),
            Column::fixed("a", ints((lo..hi).map(|i| 100 * (t as i64 + 1) + i))),
        ])
        .unwrap();
        w.finish().unwrap();
    }
    let reader = ArrayReader::open(&p, &ReadOptions::default()).unwrap();
    // 42..=47 lies in one tile of fragment 1 (40-49) and one of fragment
    // 2 (40-49): a dimension tile and an attribute tile of each.
    let before = reader.stats().tiles();
    let cells = reader
        .read(&Query::default().range("d", int64_range("42:47")))
        .unwrap();
    assert_eq!(reader.stats().tiles() - before, 2 * 2);
    // The newer fragment's cells win.
    assert_eq!(values(&cells, "d"), (42..=47).collect::<Vec<_>>());
    assert_eq!(values(&cells, "a"), (242..=247).collect::<Vec<_>>());
    // 85..=88: fragment 1 alone.
    let before = reader.stats().tiles();
    let cells = reader
        .read(&Query::default().range("d", int64_range("85:88")))
        .unwrap();
    assert_eq!(reader.stats().tiles() - before, 2);
    assert_eq!(values(&cells, "a"), (185..=188).collect::<Vec<_>>());
    // A range no fragment holds decodes nothing.
    let before = reader.stats().tiles();
    let cells = reader
        .read(&Query::default().range("d", int64_range("500:600")))
        .unwrap();
    assert_eq!((reader.stats().tiles() - before, cells.len), (0, 0));
}

#[test]
fn arrays_in_memory_read_through_the_storage_seam_as_from_files() {
    use std::sync::Arc;
    use tiledb_codec::raw::storage::{MemoryStorage, StorageRef};
    let root = crate::common::root().join("tests/fixtures/v22");
    for name in [
        "dense_var_nullable",
        "sparse_int_2d",
        "enumerations",
        "consolidated_fragment_meta",
    ] {
        let local = ArrayReader::open(&root.join(name), &ReadOptions::default()).unwrap();
        let mem = MemoryStorage::new();
        let at = Path::new("/in-memory").join(name);
        mem.put_folder(&root.join(name), &at).unwrap();
        let stored = ArrayReader::open_in(
            StorageRef::new(Arc::new(mem)),
            &at,
            None,
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(stored.fragments.len(), local.fragments.len(), "{name}");
        let (a, b) = (
            local.read(&Query::default()).unwrap(),
            stored.read(&Query::default()).unwrap(),
        );
        assert!(a.len > 0, "{name}");
        let rows =
            |c: &tiledb_codec::raw::read::Cells| (0..c.len).map(|i| c.row(i)).collect::<Vec<_>>();
        assert_eq!(rows(&a), rows(&b), "{name}");
    }
    // A path the store does not hold is not an array.
    let empty = MemoryStorage::new();
    assert!(ArrayReader::open_in(
        StorageRef::new(Arc::new(empty)),
        Path::new("/nothing"),
        None,
        &ReadOptions::default()
    )
    .is_err());
}

#[test]
fn batches_within_a_small_budget_give_the_cells_of_one_read_in_order() {
    // Sparse 2-D, capacity 16, 3 fragments with overlapping coordinates
    // (no duplicates: the newest wins), read in slabs of the first
    // dimension when the budget is small.
    let p = fresh("sparse_slabs");
    create_array(
        &p,
        &json!({
            "array_type": "sparse",
            "capacity": 16,
            "dimensions": [
                {"name": "x", "datatype": "INT64", "domain": [0, 99], "tile_extent": 10},
                {"name": "y", "datatype": "INT64", "domain": [0, 99], "tile_extent": 10}
            ],
            "attributes": [{"name": "a", "datatype": "INT64"}],
        }),
    )
    .unwrap();
    for t in 0..3i64 {
        let coords: Vec<(i64, i64)> = (0..400)
            .map(|i| ((i * 7 + t * 13) % 100, (i * 11 + t * 5) % 100))
            .collect();
        let opts = WriteOptions::default()
            .with_timestamp(10 + t as u64)
            .with_keep_last_duplicate(true);
        let mut w = FragmentWriter::sparse(&p, opts).unwrap();
        w.write(&[
            Column::fixed("x", ints(coords.iter().map(|c| c.0))),
            Column::fixed("y", ints(coords.iter().map(|c| c.1))),
            Column::fixed("a", ints((0..400).map(|i| t * 1000 + i))),
        ])
        .unwrap();
        w.finish().unwrap();
    }
    let reader = ArrayReader::open(&p, &ReadOptions::default()).unwrap();
    for order in [None, Some(tiledb_codec::raw::read::Order::ColMajor)] {
        let q = {
            let mut lit = Query::default();
            lit.order = order;
            lit
        }
        .range("y", int64_range("5:80"));
        let whole = reader.read(&q).unwrap();
        assert!(whole.len > 150, "{}", whole.len);
        let small = {
            let mut lit = q.clone();
            lit.memory_budget = Some(2_000);
            lit.batch_cells = Some(50);
            lit
        };
        let mut rows = Vec::new();
        let mut batches = 0;
        for b in reader.batches(&small).unwrap() {
            let b = b.unwrap();
            assert!(b.len <= 50);
            batches += 1;
            rows.extend((0..b.len).map(|i| b.row(i)));
        }
        let expect: Vec<_> = (0..whole.len).map(|i| whole.row(i)).collect();
        assert_eq!(rows, expect, "{order:?}");
        assert!(batches > whole.len / 50, "{batches} batches");
    }
    // Dense batches likewise.
    let d = dense_array("dense_batches");
    let reader = ArrayReader::open(&d, &ReadOptions::default()).unwrap();
    let q = Query::default().range("d", int64_range("95:905"));
    let whole = reader.read(&q).unwrap();
    let small = {
        let mut lit = q.clone();
        lit.memory_budget = Some(1_000);
        lit
    };
    let mut got = Vec::new();
    for b in reader.batches(&small).unwrap() {
        let b = b.unwrap();
        assert!(b.len * 16 <= 1_000, "a batch of {} cells", b.len);
        got.extend(values(&b, "a"));
    }
    assert_eq!(got, values(&whole, "a"));
}

#[test]
fn tiles_a_condition_cannot_match_are_not_decoded() {
    // One sparse fragment of 100 cells in tiles of 10: a = 100 + d.
    let p = fresh("sparse_pruned");
    create_array(
        &p,
        &json!({
            "array_type": "sparse",
            "capacity": 10,
            "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 999], "tile_extent": 1000}],
            "attributes": [{"name": "a", "datatype": "INT64"}],
        }),
    )
    .unwrap();
    let mut w = FragmentWriter::sparse(&p, WriteOptions::default()).unwrap();
    w.write(&[
        Column::fixed("d", ints(0..100)),
        Column::fixed("a", ints(100..200)),
    ])
    .unwrap();
    w.finish().unwrap();
    let reader = ArrayReader::open(&p, &ReadOptions::default()).unwrap();
    let q = {
        let mut lit = Query::default();
        lit.condition = Some(tiledb_codec::raw::read::QueryCondition::parse("a > 195").unwrap());
        lit
    };
    let before = reader.stats().tiles();
    let cells = reader.read(&q).unwrap();
    // The last tile alone (its dimension and attribute tiles).
    assert_eq!(reader.stats().tiles() - before, 2);
    assert_eq!(values(&cells, "a"), (196..200).collect::<Vec<_>>());
    // A condition no tile can match decodes nothing.
    let q = {
        let mut lit = Query::default();
        lit.condition =
            Some(tiledb_codec::raw::read::QueryCondition::parse("a < 0 or a > 500").unwrap());
        lit
    };
    let before = reader.stats().tiles();
    assert_eq!(reader.read(&q).unwrap().len, 0);
    assert_eq!(reader.stats().tiles() - before, 0);
}
