//! The facade (`Array`, `ReaderBuilder`, `Batch`, `WriteBuilder`,
//! `SchemaBuilder`) against the lower-level read path, which the engine
//! tests check: the same cells, typed errors for what does not fit, and
//! fragments written through it read back by this crate and by the engine.

use crate::write_support;

use std::path::Path;

use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::model::Filter;
use tiledb_codec::raw::read::{ArrayReader, Bound, Cells, DimRange, Query, QueryCondition};
use tiledb_codec::raw::OpenOptionsExt;
use tiledb_codec::ReadOptions;
use tiledb_codec::{Array, AttributeBuilder, Batch, DimensionBuilder, Error, Order, SchemaBuilder};
use write_support::{diff_cells, engine_cells, our_cells, TempDir};

fn fixture(name: &str) -> std::path::PathBuf {
    crate::common::root().join("tests/fixtures/v22").join(name)
}

fn lower(name: &str, q: &Query) -> Cells {
    ArrayReader::open(&fixture(name), &ReadOptions::default())
        .unwrap()
        .read(q)
        .unwrap()
}

/// Every column of `a` equals the same-named column of `b`, bytes,
/// offsets and validity.
fn same_cells(a: &Cells, b: &Cells) {
    assert_eq!(a.len, b.len);
    let names = |c: &Cells| {
        c.columns
            .iter()
            .map(|c| c.field.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(a), names(b));
    for (x, y) in a.columns.iter().zip(&b.columns) {
        assert_eq!(x.data(), y.data(), "{}", x.field.name);
        assert_eq!(x.offsets(), y.offsets(), "{}", x.field.name);
        assert_eq!(x.validity(), y.validity(), "{}", x.field.name);
    }
}

fn concat(batches: &[Batch]) -> Vec<serde_json::Value> {
    batches
        .iter()
        .flat_map(|b| (0..b.len()).map(move |i| tiledb_codec::raw::cells(b).row(i)))
        .collect()
}

#[test]
fn a_dense_subarray_is_the_cells_the_lower_reader_gives() {
    let array = Array::open(fixture("dense_float_2d_colmajor")).unwrap();
    let batch = array
        .reader()
        .range("x", 2..=4)
        .range("y", 1u32..=2)
        .read()
        .unwrap();
    let q = Query::default()
        .range("x", DimRange::parse(Datatype::Uint32, "2:4").unwrap())
        .range("y", DimRange::parse(Datatype::Uint32, "1:2").unwrap());
    let want = lower("dense_float_2d_colmajor", &q);
    same_cells(tiledb_codec::raw::cells(&batch), &want);
    // The typed view is the column's bytes as f64.
    let v = batch.column::<f64>("f64").unwrap();
    let bytes = want.column("f64").unwrap().data();
    let from_bytes: Vec<f64> = bytes
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(v.len(), 6);
    assert_eq!(
        v.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        from_bytes.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(&*batch.column::<u32>("x").unwrap(), &[2, 2, 3, 3, 4, 4]);
    assert_eq!(&*batch.column::<u32>("y").unwrap(), &[1, 2, 1, 2, 1, 2]);
}

#[test]
fn batches_hold_the_cells_of_one_read_in_order() {
    for name in [
        "sparse_int_2d",
        "dense_int_2d",
        "sparse_strdim",
        "dense_var_nullable",
    ] {
        let array = Array::open(fixture(name)).unwrap();
        let whole = array.reader().read().unwrap();
        same_cells(
            tiledb_codec::raw::cells(&whole),
            &lower(name, &Query::default()),
        );
        let batches: Vec<Batch> = array
            .reader()
            .batch_size(3)
            .build()
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        // Dense batches hold whole rows of the outer dimension (6 cells in
        // dense_int_2d); sparse ones at most the batch size.
        let most = if name == "dense_int_2d" { 6 } else { 3 };
        assert!(batches.iter().all(|b| b.len() <= most), "{name}");
        assert!(batches.len() > 1, "{name}");
        assert_eq!(concat(&batches), concat(&[whole]), "{name}");
    }
}

#[test]
fn a_condition_and_an_order_reach_the_lower_reader() {
    let array = Array::open(fixture("sparse_int_2d")).unwrap();
    let batch = array
        .reader()
        .attributes(["a"])
        .condition("a > 5")
        .order(Order::ColMajor)
        .read()
        .unwrap();
    let q = {
        let mut lit = Query::default();
        lit.attributes = Some(vec!["a".into()]);
        lit.condition = Some(QueryCondition::parse("a > 5").unwrap());
        lit.order = Some(Order::ColMajor);
        lit
    };
    same_cells(
        tiledb_codec::raw::cells(&batch),
        &lower("sparse_int_2d", &q),
    );
    assert!(!batch.is_empty());
    assert!(batch.column::<i64>("a").unwrap().iter().all(|a| *a > 5));
    assert_eq!(batch.fields().collect::<Vec<_>>(), ["r", "c", "a"]);
    let no_dims = array
        .reader()
        .attributes(["a"])
        .coordinates(false)
        .read()
        .unwrap();
    assert_eq!(no_dims.fields().collect::<Vec<_>>(), ["a"]);
}

#[test]
fn a_string_dimension_reads_as_strings() {
    let array = Array::open(fixture("sparse_strdim")).unwrap();
    let batch = array.reader().read().unwrap();
    let s = batch.strings("s").unwrap();
    let t = batch.strings("t").unwrap();
    let v = batch.column::<f32>("v").unwrap();
    assert_eq!(s.len(), batch.len());
    for i in 0..batch.len() {
        let row = tiledb_codec::raw::cells(&batch).row(i);
        assert_eq!(row["s"].as_str().unwrap(), s[i]);
        assert_eq!(row["t"].as_str().unwrap(), t[i]);
        assert_eq!(row["v"].as_f64().unwrap(), f64::from(v[i]));
    }
    // A range of strings keeps the cells between them.
    let some = array.reader().range("s", "b"..="c").read().unwrap();
    let ss = some.strings("s").unwrap();
    assert!(!ss.is_empty() && ss.len() < s.len());
    assert!(ss.iter().all(|x| ("b"..="c").contains(x)));
    assert_eq!(
        ss.len(),
        s.iter().filter(|x| ("b"..="c").contains(*x)).count()
    );
}

#[test]
fn nullable_and_var_sized_cells_match_their_rows() {
    let array = Array::open(fixture("dense_var_nullable")).unwrap();
    let batch = array.reader().read().unwrap();
    let n = batch.nullable::<i32>("n").unwrap();
    let ns = batch.nullable_strings("ns").unwrap();
    let valid = batch.validity("n").unwrap();
    assert!(n.iter().any(Option::is_none), "the fixture has null cells");
    for i in 0..batch.len() {
        let row = tiledb_codec::raw::cells(&batch).row(i);
        assert_eq!(row["n"].as_i64().map(|x| x as i32), n[i]);
        assert_eq!(row["ns"].as_str(), ns[i]);
        assert_eq!(valid[i], n[i].is_some());
    }
    let bytes = batch.var::<u8>("s").unwrap();
    let strs = batch.strings("s").unwrap();
    assert!(bytes.iter().zip(&strs).all(|(b, s)| &**b == s.as_bytes()));
}

#[test]
fn mistakes_are_typed_errors_that_name_the_field() {
    let array = Array::open(fixture("dense_int_1d")).unwrap();
    let batch = array.reader().read().unwrap();
    match batch.column::<f64>("a") {
        Err(Error::WrongType {
            field,
            datatype,
            requested,
        }) => {
            assert_eq!(field, "a");
            assert_eq!(datatype, Datatype::Int32);
            assert_eq!(requested, "f64");
        }
        other => panic!("{other:?}"),
    }
    let e = batch.column::<i32>("nope").unwrap_err();
    assert!(
        matches!(&e, Error::NoSuchField { field, available } if field == "nope" && available.contains(&"a".to_string())),
        "{e}"
    );
    assert!(matches!(batch.strings("a"), Err(Error::WrongType { .. })));

    let e = array.reader().range("nope", 1..=2).read().unwrap_err();
    assert!(matches!(e, Error::NoSuchField { .. }), "{e}");
    let e = array.reader().range("d", 1.5..=2.0).read().unwrap_err();
    assert!(
        matches!(&e, Error::Range { dimension, .. } if dimension == "d"),
        "{e}"
    );
    let e = array
        .reader()
        .range("d", DimRange::new(Bound::Int(5), Bound::Int(2)))
        .read()
        .unwrap_err();
    assert!(matches!(e, Error::Range { .. }), "{e}");
    let e = array.reader().range("d", 1..=i64::MAX).read().unwrap_err();
    assert!(e.to_string().contains("outside"), "{e}");
    let e = array.reader().attributes(["zz"]).read().unwrap_err();
    assert!(matches!(e, Error::NoSuchField { .. }), "{e}");
    assert!(matches!(
        array.reader().condition("a >>> 1").read(),
        Err(Error::Condition { .. })
    ));

    let var = Array::open(fixture("dense_var_nullable")).unwrap();
    let b = var.reader().read().unwrap();
    assert!(matches!(b.column::<u8>("s"), Err(Error::Shape { .. })));
}

#[test]
fn schemas_the_builder_refuses_say_which_part() {
    let dim = || {
        DimensionBuilder::new("d", Datatype::Int32)
            .domain(0..=9)
            .tile_extent(5)
    };
    let attr = || AttributeBuilder::new("a", Datatype::Int32);
    let part = |r: Result<_, Error>| match r {
        Err(Error::Schema { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        part(SchemaBuilder::dense().attribute(attr()).build()),
        "dimensions"
    );
    assert_eq!(
        part(
            SchemaBuilder::dense()
                .dimension(dim())
                .attribute(attr())
                .attribute(attr())
                .build()
        ),
        "a"
    );
    assert_eq!(
        part(
            SchemaBuilder::dense()
                .dimension(
                    DimensionBuilder::new("d", Datatype::Int32)
                        .domain(0..=9)
                        .tile_extent(11)
                )
                .attribute(attr())
                .build()
        ),
        "dimensions.d.tile_extent"
    );
    assert_eq!(
        part(
            SchemaBuilder::sparse()
                .dimension(DimensionBuilder::new("d", Datatype::Int8).domain(0..=300))
                .attribute(attr())
                .build()
        ),
        "dimensions.d.domain"
    );
    assert_eq!(
        part(
            SchemaBuilder::sparse()
                .dimension(dim())
                .attribute(AttributeBuilder::new("a", Datatype::Int32).cell_val_num(0))
                .build()
        ),
        "attributes.a.cell_val_num"
    );
    assert_eq!(
        part(
            SchemaBuilder::sparse()
                .dimension(dim())
                .attribute(AttributeBuilder::new("a", Datatype::Int64).fill_value(1.0f64))
                .build()
        ),
        "attributes.a.fill_value"
    );
    let ok = SchemaBuilder::sparse()
        .dimension(dim())
        .attribute(attr())
        .build()
        .unwrap();
    assert_eq!(ok.dimensions[0].name, "d");
}

#[test]
fn a_sparse_fragment_written_through_the_facade_reads_back_here_and_in_the_engine() {
    let tmp = TempDir::new("api-sparse");
    let path = tmp.join("a");
    let schema = SchemaBuilder::sparse()
        .dimension(DimensionBuilder::new("s", Datatype::StringAscii))
        .dimension(
            DimensionBuilder::new("i", Datatype::Int64)
                .domain(0..=99)
                .tile_extent(10),
        )
        .attribute(
            AttributeBuilder::new("v", Datatype::Float64).filters([Filter::Zstd { level: 3 }]),
        )
        .attribute(
            AttributeBuilder::new("t", Datatype::StringUtf8)
                .var()
                .nullable(),
        )
        .attribute(AttributeBuilder::new("l", Datatype::Int32).var())
        .capacity(2)
        .build()
        .unwrap();
    let array = Array::create(&path, &schema).unwrap();
    let info = array
        .write()
        .strings("s", &["b", "a", "c"])
        .column("i", &[2i64, 1, 3])
        .column("v", &[2.5, 1.5, -3.0])
        .nullable_strings("t", &[Some("two"), None, Some("three")])
        .var("l", &[vec![1i32, 2], vec![], vec![3]])
        .commit()
        .unwrap();
    assert_eq!(info.cell_count(), 3);

    let batch = Array::open(&path).unwrap().reader().read().unwrap();
    assert_eq!(batch.strings("s").unwrap(), ["a", "b", "c"]);
    assert_eq!(&*batch.column::<i64>("i").unwrap(), &[1, 2, 3]);
    assert_eq!(&*batch.column::<f64>("v").unwrap(), &[1.5, 2.5, -3.0]);
    assert_eq!(
        batch.nullable_strings("t").unwrap(),
        [None, Some("two"), Some("three")]
    );
    let l: Vec<Vec<i32>> = batch
        .var::<i32>("l")
        .unwrap()
        .into_iter()
        .map(|c| c.into_owned())
        .collect();
    assert_eq!(l, [vec![], vec![1, 2], vec![3]]);

    // The engine reads the same cells.
    let engine = engine_cells(&path).unwrap();
    assert_eq!(engine.len(), 3);
    assert_eq!(diff_cells(engine, our_cells(&path).unwrap()), None);
}

#[test]
fn a_dense_fragment_covers_its_region_and_the_rest_keeps_the_fill_value() {
    let tmp = TempDir::new("api-dense");
    let path = tmp.join("a");
    let schema = SchemaBuilder::dense()
        .dimension(
            DimensionBuilder::new("r", Datatype::Int64)
                .domain(1..=4)
                .tile_extent(2),
        )
        .dimension(
            DimensionBuilder::new("c", Datatype::Int64)
                .domain(1..=4)
                .tile_extent(4),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int32).fill_value(-1i32))
        .attribute(AttributeBuilder::new("n", Datatype::Uint8).nullable())
        .build()
        .unwrap();
    let array = Array::create(&path, &schema).unwrap();
    array
        .write()
        .range("r", 2..=3)
        .range("c", 2..=3)
        .column("a", &[1i32, 2, 3, 4])
        .nullable("n", &[Some(7u8), None, Some(9), None])
        .commit()
        .unwrap();
    let array = Array::open(&path).unwrap();
    let b = array
        .reader()
        .range("r", 2..=3)
        .range("c", 1..=4)
        .read()
        .unwrap();
    assert_eq!(
        &*b.column::<i32>("a").unwrap(),
        &[-1, 1, 2, -1, -1, 3, 4, -1]
    );
    assert_eq!(b.nullable::<u8>("n").unwrap()[1..3], [Some(7), None],);
    // Wrong types and names are refused before anything is written.
    let e = array
        .write()
        .column("a", &[1.0f64; 16])
        .commit()
        .unwrap_err();
    assert!(matches!(e, Error::WrongType { .. }), "{e}");
    let e = array
        .write()
        .column("zz", &[1i32; 16])
        .commit()
        .unwrap_err();
    assert!(matches!(e, Error::NoSuchField { .. }), "{e}");
    let e = array
        .write()
        .range("r", 0..=1)
        .column("a", &[1i32; 8])
        .commit()
        .unwrap_err();
    assert!(
        e.to_string().contains("outside") || matches!(e, Error::Cells { .. }),
        "{e}"
    );
    assert_eq!(
        tiledb_codec::raw::array_reader(&Array::open(&path).unwrap())
            .fragments
            .len(),
        1
    );

    // The engine reads the same cells.
    let engine = engine_cells(&path).unwrap();
    assert_eq!(engine.len(), 4); // the non-empty domain, as `A[:]` reads it
    assert_eq!(diff_cells(engine, our_cells(&path).unwrap()), None);
}

#[test]
fn a_created_array_has_the_schema_it_was_built_with() {
    let tmp = TempDir::new("api-schema");
    let path = tmp.join("a");
    let schema = SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("x", Datatype::Float32)
                .domain(-1.0f32..=1.0)
                .tile_extent(0.5f32),
        )
        .dimension(
            DimensionBuilder::new("t", Datatype::DatetimeDay)
                .domain(0..=3650)
                .tile_extent(30),
        )
        .attribute(
            AttributeBuilder::new("a", Datatype::Uint16)
                .cell_val_num(2)
                .filters([Filter::Lz4 { level: 1 }]),
        )
        .allows_duplicates(true)
        .capacity(64)
        .build()
        .unwrap();
    let array = Array::create(&path, &schema).unwrap();
    let back = array.schema();
    assert_eq!(back.dimensions, schema.dimensions);
    assert_eq!(back.attributes, schema.attributes);
    assert_eq!(back.capacity, 64);
    assert!(back.allows_duplicates);
    assert_eq!(back.coords_filters, schema.coords_filters);
    assert!(array.fragments().is_empty());
    assert!(array.metadata().unwrap().is_empty());
    // Something is there now: a second create fails.
    assert!(matches!(
        Array::create(&path, &schema),
        Err(Error::Array { .. })
    ));
}

#[test]
fn schema_fragments_and_metadata_of_a_fixture() {
    let array = Array::open(fixture("dense_int_1d")).unwrap();
    let s = array.schema();
    assert_eq!(s.dimensions[0].name, "d");
    assert_eq!(
        s.dimensions[0].domain,
        Some(tiledb_codec::raw::model::DomainRange::Int32(
            tiledb_codec::raw::model::Range::new(1, 20)
        ))
    );
    // The fixture: a full write, then [5, 8], then [15, 17].
    let domains: Vec<_> = array
        .fragments()
        .iter()
        .map(|f| f.non_empty_domain().unwrap().unwrap())
        .collect();
    let want = [(1, 20), (5, 8), (15, 17)].map(|(start, end)| {
        vec![tiledb_codec::raw::model::DomainRange::Int32(
            tiledb_codec::raw::model::Range::new(start, end),
        )]
    });
    assert_eq!(domains, want);
    // The facade's fragment list says what the lower-level one holds.
    let frags = array.fragments();
    let lower = &tiledb_codec::raw::array_reader(&array).fragments;
    assert_eq!(frags.len(), lower.len());
    for (f, l) in frags.iter().zip(lower) {
        assert_eq!(f.name(), l.name.name);
        assert_eq!(f.timestamps(), l.name.t1..=l.name.t2);
        assert_eq!(f.format_version(), l.version());
        assert!(f.is_dense());
        assert!(f.name().starts_with("__") && f.path().ends_with(f.name()));
    }
    // Dense fragments count the cells of the space tiles they touch.
    let counts: Vec<_> = frags.iter().map(|f| f.cell_count()).collect();
    assert!(
        counts.iter().all(|c| c.is_some_and(|n| n >= 4)),
        "{counts:?}"
    );
    assert!(frags
        .windows(2)
        .all(|w| w[0].timestamps().start() <= w[1].timestamps().start()));

    let meta = Array::open(fixture("array_metadata"))
        .unwrap()
        .metadata()
        .unwrap();
    assert!(!meta.is_empty());
    let lower = tiledb_codec::raw::array::metadata::read_array_metadata(
        &tiledb_codec::raw::array_reader(&Array::open(fixture("array_metadata")).unwrap()).dir,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(meta, lower);
    let (mut ints, mut texts) = (0, 0);
    for v in meta.values() {
        if v.datatype == Datatype::Int64 {
            let x = v.values::<i64>().unwrap();
            assert_eq!(x.len() * 8, v.bytes.len());
            assert_eq!(x[0].to_le_bytes(), v.bytes[..8]);
            assert!(matches!(v.values::<f64>(), Err(Error::WrongType { .. })));
            ints += 1;
        }
        if let Some(s) = v.as_str() {
            assert_eq!(s.as_bytes(), v.bytes.as_slice());
            texts += 1;
        }
    }
    assert!(ints > 0 && texts > 0, "{meta:?}");
}

/// `Array::is_current` on local folders: folders last changed well before
/// the array was opened are compared by their stamps, without a listing;
/// a fragment committed since, or a name added to a folder, makes it not
/// current; folders changed just before the open are listed again, and a
/// file added and removed since leaves the array current.
#[test]
fn is_current_compares_settled_folders_by_stamp_and_sees_every_change() {
    use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
    use std::sync::Arc;
    use tiledb_codec::raw::error::Result;
    use tiledb_codec::raw::storage::{
        FolderStamp, Kind, ListEntry, LocalStorage, MappedFile, Storage, StorageRef,
    };
    /// Local files, with the listings counted.
    #[derive(Debug, Default)]
    struct Counting(AtomicUsize);
    impl Storage for Counting {
        fn open(&self, path: &Path) -> Result<MappedFile> {
            LocalStorage.open(path)
        }
        fn list(&self, dir: &Path) -> Result<Vec<ListEntry>> {
            self.0.fetch_add(1, SeqCst);
            LocalStorage.list(dir)
        }
        fn kind(&self, path: &Path) -> Option<Kind> {
            LocalStorage.kind(path)
        }
        fn stamp(&self, dir: &Path) -> Option<FolderStamp> {
            LocalStorage.stamp(dir)
        }
    }
    let dir = TempDir::new("is-current");
    let path = dir.join("a");
    let schema = SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int32)
                .domain(0i32..=99)
                .tile_extent(10i32),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int32))
        .build()
        .unwrap();
    let write = |d: i32| {
        Array::open(&path)
            .unwrap()
            .write()
            .column("d", &[d])
            .column("a", &[d * 10])
            .commit()
            .unwrap();
    };
    Array::create(&path, &schema).unwrap();
    write(1);
    let open = |counting: &Arc<Counting>| {
        Array::open_with(
            &path,
            tiledb_codec::OpenOptions::new().with_storage(StorageRef::new(counting.clone())),
        )
        .unwrap()
    };

    // Just written: the folders are listed again to answer.
    let fresh = Arc::new(Counting::default());
    let array = open(&fresh);
    let at_open = fresh.0.load(SeqCst);
    assert!(array.is_current().unwrap());
    assert!(
        fresh.0.load(SeqCst) > at_open,
        "folders changed just now were not listed"
    );
    // A file added to `__commits` and removed again: the same names.
    let stray = path.join("__commits").join("stray");
    std::fs::write(&stray, b"x").unwrap();
    assert!(!array.is_current().unwrap());
    std::fs::remove_file(&stray).unwrap();
    assert!(array.is_current().unwrap());

    // Settled: opened more than 3 s after the last change, answered by
    // the folders' stamps alone.
    std::thread::sleep(std::time::Duration::from_millis(3300));
    let settled = Arc::new(Counting::default());
    let array = open(&settled);
    let at_open = settled.0.load(SeqCst);
    for _ in 0..3 {
        assert!(array.is_current().unwrap());
    }
    assert_eq!(
        settled.0.load(SeqCst),
        at_open,
        "settled folders were listed again"
    );
    // Another writer's fragment: not current, and the reopened array holds it.
    write(2);
    assert!(!array.is_current().unwrap());
    let again = array.reopen().unwrap();
    assert_eq!(again.fragments().len(), array.fragments().len() + 1);
    assert!(again.is_current().unwrap());
    // A folder added to the array's folder (as fragments of versions
    // before 12 are): the root changed.
    std::thread::sleep(std::time::Duration::from_millis(3300));
    let array = open(&settled);
    assert!(array.is_current().unwrap());
    std::fs::create_dir(path.join("other")).unwrap();
    assert!(!array.is_current().unwrap());
}
