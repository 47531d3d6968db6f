//! The second half of `old_versions.rs` (split to keep each file under 1,000 lines).

use super::*;

// ---------------------------------------------------------------------------
// Versions 5 to 9.

#[test]
pub(super) fn v6_sparse_mixed_dimension_types() {
    let t = TempArray::new("v6_sparse");
    let mut s = schema(
        6,
        false,
        vec![
            dim("i", Datatype::Int16, -100i16, 100, 10),
            dim("f", Datatype::Float64, 0.0f64, 1.0, 0.5),
        ],
        vec![attr("v", Datatype::Float32, 1.5f32.le())],
    );
    s.capacity = 1000;
    s.allows_dups = true;
    let schema_name = write_schema(t.path(), &s, 0);
    let f = sparse(
        frag(
            6,
            100,
            200,
            false,
            vec![pair(-5i16, 7), pair(0.25f64, 0.75)],
        ),
        2,
        1,
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    assert!(!b.trailing_length);

    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 6, "array_type": "sparse", "tile_order": "row-major",
               "cell_order": "row-major", "capacity": 1000, "allows_duplicates": true})
    );
    assert_eq!(
        dims_summary(&v),
        json!([
            {"name": "i", "datatype": "INT16", "cell_val_num": 1, "domain": [-100, 100], "tile_extent": 10},
            {"name": "f", "datatype": "FLOAT64", "cell_val_num": 1, "domain": [0.0, 1.0], "tile_extent": 0.5},
        ])
    );
    // Fill values from version 6, nullability from 7.
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "v", "datatype": "FLOAT32", "cell_val_num": 1, "nullable": false, "fill_value": 1.5}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            6,
            [100, 200],
            json!([[-5, 7], [0.25, 0.75]]),
            1001,
            false
        )])
    );
    assert_footer_round_trips(&s, &b);
}

#[test]
pub(super) fn v7_dense_nullable_and_uncommitted_fragment() {
    let t = TempArray::new("v7_dense");
    let mut s = schema(
        7,
        true,
        vec![
            dim("d1", Datatype::Uint64, 0u64, 15, 4),
            dim("d2", Datatype::Uint64, 0u64, 15, 8),
        ],
        vec![
            Attr {
                nullable: true,
                ..attr("n", Datatype::Int32, (-1i32).le())
            },
            Attr {
                cell_val_num: u32::MAX,
                ..attr("s", Datatype::StringAscii, b"x".to_vec())
            },
        ],
    );
    s.tile_order = Layout::ColMajor;
    s.cell_order = Layout::ColMajor;
    let schema_name = write_schema(t.path(), &s, 0);
    let f1 = frag(7, 1, 1, true, vec![pair(0u64, 3), pair(0u64, 15)]);
    let mut f2 = frag(7, 2, 2, true, vec![pair(4u64, 7), pair(0u64, 7)]);
    f2.commit = false;
    let b1 = write_fragment(t.path(), &s, &schema_name, &f1);
    let b2 = write_fragment(t.path(), &s, &schema_name, &f2);

    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 7, "array_type": "dense", "tile_order": "col-major",
               "cell_order": "col-major", "capacity": 10000, "allows_duplicates": false})
    );
    assert_eq!(
        attrs_summary(&v),
        json!([
            {"name": "n", "datatype": "INT32", "cell_val_num": 1, "nullable": true, "fill_value": -1},
            {"name": "s", "datatype": "STRING_ASCII", "cell_val_num": "var", "nullable": false, "fill_value": "x"},
        ])
    );
    // d1: tile [0,3] (4 cells); d2: tiles [0,7], [8,15] (16 cells).
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b1,
            7,
            [1, 1],
            json!([[0, 3], [0, 15]]),
            64,
            true
        )])
    );

    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.uncommitted, vec![b2.path.clone()]);
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("version 7 has a footer")
    };
    // n = A + D + 1 = 5 validity entries.
    assert_eq!(footer.file_validity_sizes.as_ref().map(Vec::len), Some(5));
    assert_eq!(footer.tile_validity_offsets.as_ref().map(Vec::len), Some(5));
    assert_eq!(footer.last_tile_cell_num, 32);
    assert_footer_round_trips(&s, &b1);
}

#[test]
pub(super) fn v8_v9_sparse_fragments_in_timestamp_order() {
    let t = TempArray::new("v9_sparse");
    let mut s = schema(
        9,
        false,
        vec![dim("rows", Datatype::Int32, 1i32, 100, 10)],
        vec![attr("a", Datatype::Uint16, 7u16.le())],
    );
    s.capacity = 3;
    let schema_name = write_schema(t.path(), &s, 0);
    // "__10_..." sorts before "__9_..." by name.
    let f9 = sparse(frag(9, 10, 11, false, vec![pair(50i32, 60)]), 5, 2);
    let f8 = sparse(frag(8, 9, 9, false, vec![pair(1i32, 3)]), 1, 3);
    let b9 = write_fragment(t.path(), &s, &schema_name, &f9);
    let b8 = write_fragment(t.path(), &s, &schema_name, &f8);
    assert!(b9.name < b8.name);

    let v = inspect(t.path());
    assert_eq!(schema_head(&v)["version"], 9);
    assert_eq!(
        dims_summary(&v),
        json!([{"name": "rows", "datatype": "INT32", "cell_val_num": 1, "domain": [1, 100], "tile_extent": 10}])
    );
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "a", "datatype": "UINT16", "cell_val_num": 1, "nullable": false, "fill_value": 7}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(&b8, 8, [9, 9], json!([[1, 3]]), 3, false),
            frag_json(&b9, 9, [10, 11], json!([[50, 60]]), 4 * 3 + 2, false),
        ])
    );
    assert_footer_round_trips(&s, &b8);
    assert_footer_round_trips(&s, &b9);
}

/// A var-sized string dimension: the non-empty domain carries its lengths,
/// and the footer length is stored even before version 10.
#[test]
pub(super) fn var_sized_string_dimension_v5_to_v9() {
    for version in [5, 8, 9, 11] {
        let t = TempArray::new(&format!("var_dim_v{version}"));
        let mut s = schema(
            version,
            false,
            vec![string_dim("key"), dim("id", Datatype::Int32, 0i32, 9, 5)],
            vec![attr("val", Datatype::Int64, 0i64.le())],
        );
        s.capacity = 4;
        let schema_name = write_schema(t.path(), &s, 1);
        let f = sparse(
            frag(
                version,
                3,
                4,
                false,
                vec![text("apple", "zebra"), pair(1i32, 9)],
            ),
            3,
            2,
        );
        let b = write_fragment(t.path(), &s, &schema_name, &f);
        assert!(b.trailing_length);

        let v = inspect(t.path());
        assert_eq!(schema_head(&v)["version"], version);
        assert_eq!(
            dims_summary(&v),
            json!([
                {"name": "key", "datatype": "STRING_ASCII", "cell_val_num": "var", "domain": null, "tile_extent": null},
                {"name": "id", "datatype": "INT32", "cell_val_num": 1, "domain": [0, 9], "tile_extent": 5},
            ]),
            "version {version}"
        );
        assert_eq!(
            frags_summary(&v),
            json!([frag_json(
                &b,
                version,
                [3, 4],
                json!([["apple", "zebra"], [1, 9]]),
                10,
                false
            )]),
            "version {version}"
        );
        let dir = ArrayDirectory::open(t.path()).unwrap();
        let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
        let Metadata::Footer(footer) = &fr.metadata else {
            panic!("a footer")
        };
        let r = &footer.non_empty_domain.as_ref().unwrap().ranges[0];
        assert_eq!((r.range_length, r.min_length), (Some(10), Some(5)));
        let rtree = fr.rtree(&ReadOptions::default()).unwrap().unwrap();
        assert_eq!(rtree.levels[0].mbrs[2].ranges[0].range, b"applezebra");
        assert_footer_round_trips(&s, &b);
    }
}

// ---------------------------------------------------------------------------
// Versions 10 and 11: `__schema/`, the footer names its schema and has a
// length.

#[test]
pub(super) fn v10_dense_schema_folder() {
    let t = TempArray::new("v10_dense");
    let s = schema(
        10,
        true,
        vec![
            dim("y", Datatype::Int32, -8i32, 7, 4),
            dim("x", Datatype::Int32, 0i32, 99, 100),
        ],
        vec![attr("temp", Datatype::Float64, f64::NAN.le())],
    );
    let schema_name = write_schema(t.path(), &s, 1_600_000_000_000);
    assert!(t.path().join("__schema").join(&schema_name).is_file());
    assert!(!t.path().join("__array_schema.tdb").exists());
    let f = frag(
        10,
        1_600_000_000_001,
        1_600_000_000_002,
        true,
        vec![pair(-3i32, 2), pair(0i32, 99)],
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    assert!(b.trailing_length);
    assert!(t.path().join(format!("{}.ok", b.name)).is_file());

    let v = inspect(t.path());
    assert_eq!(v["schema_name"], schema_name);
    assert_eq!(schema_head(&v)["version"], 10);
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "temp", "datatype": "FLOAT64", "cell_val_num": 1, "nullable": false, "fill_value": "NaN"}])
    );
    // y: tiles [-4,-1], [0,3] -> 8 values; x: one tile of 100.
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            10,
            [1_600_000_000_001, 1_600_000_000_002],
            json!([[-3, 2], [0, 99]]),
            800,
            true
        )])
    );
    assert_eq!(v["fragments"][0]["array_schema_name"], schema_name);
    assert_eq!(
        v["fragments"][0]["footer"]["array_schema_name"],
        json!(schema_name)
    );
    assert_footer_round_trips(&s, &b);
}

#[test]
pub(super) fn v11_sparse_with_tile_metadata_offsets() {
    let t = TempArray::new("v11_sparse");
    let mut s = schema(
        11,
        false,
        vec![
            dim("a", Datatype::Uint8, 0u8, 255, 16),
            dim("b", Datatype::Int64, -1_000i64, 1_000, 100),
        ],
        vec![
            attr("c", Datatype::Int8, vec![0x80]),
            Attr {
                nullable: true,
                ..attr("d", Datatype::Uint64, u64::MAX.le())
            },
        ],
    );
    s.capacity = 100;
    let schema_name = write_schema(t.path(), &s, 40);
    let f = sparse(
        frag(11, 41, 42, false, vec![pair(3u8, 250), pair(-999i64, 999)]),
        7,
        99,
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);

    let v = inspect(t.path());
    assert_eq!(schema_head(&v)["version"], 11);
    assert_eq!(
        attrs_summary(&v),
        json!([
            {"name": "c", "datatype": "INT8", "cell_val_num": 1, "nullable": false, "fill_value": -128},
            {"name": "d", "datatype": "UINT64", "cell_val_num": 1, "nullable": true, "fill_value": u64::MAX},
        ])
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            11,
            [41, 42],
            json!([[3, 250], [-999, 999]]),
            6 * 100 + 99,
            false
        )])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("a footer")
    };
    assert_eq!(footer.tile_mins_offsets.as_ref().map(Vec::len), Some(5));
    // Version 11 has no fragment min/max/sum/null count offset (from 12).
    assert_eq!(footer.fragment_min_max_sum_null_count_offset, None);
    assert_eq!(footer.processed_conditions_offset, None);
    assert_footer_round_trips(&s, &b);
}

/// Schema evolution (version 10 on): the fragment was written with an older
/// schema than the newest, with another attribute count; its footer names it.
#[test]
pub(super) fn v11_fragment_of_an_older_schema() {
    let t = TempArray::new("v11_evolved");
    let old = schema(
        11,
        false,
        vec![dim("k", Datatype::Int32, 0i32, 9, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let mut new = old.clone();
    new.attrs.push(attr("b", Datatype::Float32, 0f32.le()));
    new.attrs
        .push(attr("c", Datatype::Int8, 0i8.to_le_bytes().to_vec()));
    let old_name = write_schema(t.path(), &old, 10);
    let new_name = write_schema(t.path(), &new, 20);
    let f_old = sparse(frag(11, 11, 11, false, vec![pair(0i32, 4)]), 1, 5);
    let f_new = sparse(frag(11, 21, 21, false, vec![pair(5i32, 9)]), 1, 5);
    let b_old = write_fragment(t.path(), &old, &old_name, &f_old);
    let b_new = write_fragment(t.path(), &new, &new_name, &f_new);

    let v = inspect(t.path());
    assert_eq!(v["schema_name"], new_name);
    assert_eq!(v["schema"]["attributes"].as_array().unwrap().len(), 3);
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(&b_old, 11, [11, 11], json!([[0, 4]]), 5, false),
            frag_json(&b_new, 11, [21, 21], json!([[5, 9]]), 5, false),
        ])
    );
    assert_eq!(v["fragments"][0]["array_schema_name"], old_name);
    assert_eq!(v["fragments"][1]["array_schema_name"], new_name);
}

/// An array created before version 10 keeps `__array_schema.tdb`; fragments
/// written later by newer libraries name it in their footers.
#[test]
pub(super) fn v7_schema_with_v11_and_v12_fragments() {
    let t = TempArray::new("v7_mixed");
    let s = schema(
        7,
        true,
        vec![dim("d", Datatype::Int64, 1i64, 100, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let b7 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(7, 100, 100, true, vec![pair(1i64, 10)]),
    );
    let b11 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(11, 200, 200, true, vec![pair(11i64, 25)]),
    );
    let b12 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(12, 300, 300, true, vec![pair(91i64, 100)]),
    );
    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(&b7, 7, [100, 100], json!([[1, 10]]), 10, true),
            frag_json(&b11, 11, [200, 200], json!([[11, 25]]), 20, true),
            frag_json(&b12, 12, [300, 300], json!([[91, 100]]), 10, true),
        ])
    );
    for f in v["fragments"].as_array().unwrap() {
        assert_eq!(f["array_schema_name"], "__array_schema.tdb");
    }
}

// ---------------------------------------------------------------------------
// Versions 12 to 16: `__fragments/`, `__commits/`.

#[test]
pub(super) fn v12_vacuumed_fragment_is_not_listed() {
    let t = TempArray::new("v12_vac");
    let s = schema(
        12,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Uint8, vec![0])],
    );
    let schema_name = write_schema(t.path(), &s, 1);
    let b1 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(12, 2, 2, true, vec![pair(0i32, 9)]),
    );
    let b2 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(12, 3, 3, true, vec![pair(10i32, 19)]),
    );
    let b3 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &Frag {
            label: 0xc0,
            ..frag(12, 2, 3, true, vec![pair(0i32, 19)])
        },
    );
    assert!(b1.path.starts_with(t.path().join("__fragments")));
    assert!(t
        .path()
        .join("__commits")
        .join(format!("{}.wrt", b1.name))
        .is_file());
    // The consolidated fragment b3 replaces b1 and b2; before version 19 the
    // vacuum file lists absolute URIs.
    let vac = table!(VacuumFile {
        entries: [&b1, &b2]
            .iter()
            .map(|b| table!(VacuumEntry {
                uri: format!("file://{}", b.path.display()).into_bytes(),
            }))
            .collect(),
    });
    write(
        &t.path().join("__commits").join(format!("{}.vac", b3.name)),
        &encode(&vac).unwrap(),
    );

    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b3, 12, [2, 3], json!([[0, 19]]), 20, true)])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.vacuum_files.len(), 1);
    assert_eq!(dir.fragments.len(), 1);
}

#[test]
pub(super) fn v14_sparse_with_timestamps() {
    let t = TempArray::new("v14_sparse");
    let mut s = schema(
        14,
        false,
        vec![
            dim("x", Datatype::Float32, -1.0f32, 1.0, 0.25),
            dim("y", Datatype::Float32, -1.0f32, 1.0, 0.25),
        ],
        vec![attr("a", Datatype::Int16, 3i16.le())],
    );
    s.capacity = 8;
    s.allows_dups = true;
    let schema_name = write_schema(t.path(), &s, 5);
    let mut f = sparse(
        frag(14, 6, 6, false, vec![pair(-0.5f32, 0.5), pair(0.0f32, 1.0)]),
        2,
        8,
    );
    f.timestamps = true;
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 14, "array_type": "sparse", "tile_order": "row-major",
               "cell_order": "row-major", "capacity": 8, "allows_duplicates": true})
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            14,
            [6, 6],
            json!([[-0.5, 0.5], [0.0, 1.0]]),
            16,
            false
        )])
    );
    let footer = &v["fragments"][0]["footer"];
    assert_eq!(footer["includes_timestamps"], 1);
    // n = A + D + 1 + 1 (timestamps).
    assert_eq!(footer["file_sizes"].as_array().unwrap().len(), 5);
    assert_footer_round_trips(&s, &b);
}

#[test]
pub(super) fn v15_sparse_with_delete_metadata() {
    let t = TempArray::new("v15_sparse");
    let mut s = schema(
        15,
        false,
        vec![dim("id", Datatype::Uint32, 0u32, 999, 100)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    s.capacity = 20;
    let schema_name = write_schema(t.path(), &s, 5);
    let mut f = sparse(frag(15, 7, 8, false, vec![pair(5u32, 900)]), 3, 1);
    f.timestamps = true;
    f.delete_meta = true;
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    let v = inspect(t.path());
    assert_eq!(
        dims_summary(&v),
        json!([{"name": "id", "datatype": "UINT32", "cell_val_num": 1, "domain": [0, 999], "tile_extent": 100}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b, 15, [7, 8], json!([[5, 900]]), 41, false)])
    );
    let footer = &v["fragments"][0]["footer"];
    assert_eq!(footer["includes_delete_metadata"], 1);
    // n = A + D + 1 + 1 + 2.
    assert_eq!(footer["tile_offsets"].as_array().unwrap().len(), 6);
    assert_footer_round_trips(&s, &b);
}

#[test]
pub(super) fn v16_dense_with_processed_conditions() {
    let t = TempArray::new("v16_dense");
    let s = schema(
        16,
        true,
        vec![
            dim("r", Datatype::Int8, -10i8, 10, 5),
            dim("c", Datatype::Int8, 0i8, 20, 7),
        ],
        vec![attr("v", Datatype::Uint8, vec![255])],
    );
    let schema_name = write_schema(t.path(), &s, 5);
    let f = frag(16, 9, 9, true, vec![pair(-10i8, 4), pair(7i8, 13)]);
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    let v = inspect(t.path());
    assert_eq!(
        dims_summary(&v),
        json!([
            {"name": "r", "datatype": "INT8", "cell_val_num": 1, "domain": [-10, 10], "tile_extent": 5},
            {"name": "c", "datatype": "INT8", "cell_val_num": 1, "domain": [0, 20], "tile_extent": 7},
        ])
    );
    // r: tiles [-10,-6], [-5,-1], [0,4] -> 15; c: tiles [7,13] -> 7.
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            16,
            [9, 9],
            json!([[-10, 4], [7, 13]]),
            105,
            true
        )])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("a footer")
    };
    assert!(footer.processed_conditions_offset.is_some());
    assert_footer_round_trips(&s, &b);
}

// ---------------------------------------------------------------------------
// Every version, dense and sparse.

#[test]
pub(super) fn every_version_dense_and_sparse() {
    for version in 1..=22u32 {
        for dense in [true, false] {
            let t = TempArray::new(&format!("sweep_v{version}_{dense}"));
            let mut s = schema(
                version,
                dense,
                vec![
                    dim("rows", Datatype::Int32, 1i32, 8, 4),
                    dim("cols", Datatype::Int32, 1i32, 8, 2),
                ],
                vec![
                    attr("a", Datatype::Int32, 0i32.le()),
                    Attr {
                        cell_val_num: u32::MAX,
                        nullable: version >= 7,
                        ..attr("b", Datatype::Char, b"z".to_vec())
                    },
                ],
            );
            s.capacity = 6;
            let schema_name = write_schema(t.path(), &s, 1);
            let mut f = frag(version, 2, 3, dense, vec![pair(2i32, 5), pair(3i32, 3)]);
            if version <= 2 {
                f.t2 = 2;
            }
            if !dense {
                f = sparse(f, 3, 5);
            }
            let b = write_fragment(t.path(), &s, &schema_name, &f);
            let v = inspect(t.path());
            let ctx = format!("version {version}, dense {dense}");
            assert_eq!(v["schema"]["version"], version, "{ctx}");
            assert_eq!(
                v["schema"]["array_type"],
                if dense { "dense" } else { "sparse" },
                "{ctx}"
            );
            assert_eq!(
                attrs_summary(&v)[1],
                json!({"name": "b", "datatype": "CHAR", "cell_val_num": "var",
                       "nullable": version >= 7,
                       "fill_value": if version >= 6 { json!("z") } else { Value::Null }}),
                "{ctx}"
            );
            // Dense: rows tiles [1,4], [5,8]; cols tile [3,4] -> 8 * 2.
            let cells = if dense { 16 } else { 2 * 6 + 5 };
            let ts = if version <= 2 { [2, 2] } else { [2, 3] };
            assert_eq!(
                frags_summary(&v),
                json!([frag_json(
                    &b,
                    version,
                    ts,
                    json!([[2, 5], [3, 3]]),
                    cells,
                    dense
                )]),
                "{ctx}"
            );
            if version >= 3 {
                assert_footer_round_trips(&s, &b);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Footers of every version re-encode to the bytes they were decoded from.

#[test]
pub(super) fn footers_of_every_version_round_trip() {
    let path = Path::new("footer");
    for version in 3..=23u32 {
        let fixed = schema(
            version,
            false,
            vec![
                dim("x", Datatype::Int64, 0i64, 99, 10),
                dim("y", Datatype::Int64, 0i64, 99, 10),
            ],
            vec![
                attr("a", Datatype::Int32, 0i32.le()),
                attr("b", Datatype::Float64, 0f64.le()),
                attr("c", Datatype::Uint8, vec![0]),
            ],
        );
        let mut cases = vec![(
            fixed.clone(),
            sparse(
                frag(version, 1, 2, false, vec![pair(1i64, 2), pair(3i64, 4)]),
                2,
                3,
            ),
        )];
        cases.push((
            fixed.clone(),
            frag(version, 1, 2, true, vec![pair(0i64, 9), pair(0i64, 99)]),
        ));
        if version >= 5 {
            let mut var = fixed.clone();
            var.dims[1] = string_dim("s");
            cases.push((
                var,
                sparse(
                    frag(version, 1, 2, false, vec![pair(1i64, 2), text("", "zz")]),
                    1,
                    1,
                ),
            ));
        }
        if version >= 15 {
            let mut f = sparse(
                frag(version, 1, 2, false, vec![pair(1i64, 2), pair(3i64, 4)]),
                2,
                3,
            );
            f.timestamps = true;
            f.delete_meta = true;
            cases.push((fixed.clone(), f));
        }
        for (s, f) in cases {
            let o = Offsets {
                rtree: 0,
                tile_offsets: (0..counts(&s, &f).0 as u64).map(|i| 100 + i).collect(),
                empty_offsets: 7,
                min_max: 8,
                sums: 9,
                null_counts: 10,
                fragment_min_max: 11,
                processed_conditions: 12,
            };
            let mut table = footer_table(&s, "__1_1_schema", &f, &o);
            if version >= 23 && !f.dense {
                // A sparse fragment with global order bounds.
                let data: Vec<u8> = (0..2 * s.dims.len() as u64)
                    .flat_map(u64::to_le_bytes)
                    .collect();
                table.num_optional_sections = Some(1);
                table.optional_sections = Some(vec![table!(OptionalSection {
                    identifier:
                        tiledb_codec::raw::format::OptionalSectionIdentifier::TileGlobalOrderOffsets,
                    data_size: data.len() as u32,
                    data,
                })]);
            }
            let bytes = encode(&table).unwrap();
            let decoded: FragmentFooter =
                decode_all(&bytes, path, 0, (dims_arg(&s), s.attrs.len() as u64))
                    .unwrap_or_else(|e| panic!("version {version}: {e}"));
            assert_eq!(decoded, table, "version {version}");
            assert_eq!(encode(&decoded).unwrap(), bytes, "version {version}");
        }
    }
}

/// The generic tile writer is the inverse of the reader; the tile is cut
/// into chunks of at most 64 KiB, as the engine's filter pipeline cuts it.
#[test]
pub(super) fn generic_tile_round_trip() {
    let t = TempArray::new("generic_tile");
    for (i, data) in [&b""[..], b"x", &[7u8; 70_000][..]].iter().enumerate() {
        let p = t.path().join(format!("tile{i}"));
        let bytes = write_generic_tile(data, 9);
        let chunks = data.len().div_ceil(65536);
        assert_eq!(bytes.len(), 34 + 8 + 8 + 12 * chunks + data.len());
        write(&p, &bytes);
        let file = tiledb_codec::raw::storage::MappedFile::open(&p).unwrap();
        let tile =
            tiledb_codec::raw::tile::read_generic_tile(&file, 0, &ReadOptions::default()).unwrap();
        assert_eq!(&tile.data[..], *data);
        assert_eq!(tile.header.version_number, 9);
        assert_eq!(tile.header.filter_pipeline_size, 8);
        assert_eq!(tile.end, bytes.len() as u64);
    }
}

// ---------------------------------------------------------------------------
// Commits and vacuuming in the array root (before version 12) and through a
// consolidated commits file (version 12 on).

#[test]
pub(super) fn v9_root_vacuum_file() {
    let t = TempArray::new("v9_vac");
    let s = schema(
        9,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let b1 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(9, 1, 1, true, vec![pair(0i32, 9)]),
    );
    let b2 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &Frag {
            label: 0xc1,
            ..frag(9, 1, 2, true, vec![pair(0i32, 9)])
        },
    );
    // Before version 12 the vacuum file sits beside the new fragment.
    let vac = table!(VacuumFile {
        entries: vec![table!(VacuumEntry {
            uri: format!("file://{}", b1.path.display()).into_bytes(),
        })],
    });
    write(
        &t.path().join(format!("{}.vac", b2.name)),
        &encode(&vac).unwrap(),
    );
    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b2, 9, [1, 2], json!([[0, 9]]), 10, true)])
    );
}

#[test]
pub(super) fn v13_commit_through_consolidated_commits_file() {
    let t = TempArray::new("v13_con");
    let s = schema(
        13,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let mut f1 = frag(13, 1, 1, true, vec![pair(0i32, 9)]);
    f1.commit = false;
    let mut f2 = frag(13, 2, 2, true, vec![pair(10i32, 19)]);
    f2.commit = false;
    let b1 = write_fragment(t.path(), &s, &schema_name, &f1);
    let b2 = write_fragment(t.path(), &s, &schema_name, &f2);
    // Only the first commit is consolidated; the second has no marker.
    let con = table!(ConsolidatedCommits {
        entries: vec![table!(ConsolidatedCommit {
            uri: format!("__commits/{}.wrt", b1.name).into_bytes(),
            delete_tile_size: None,
            delete_tile: None,
        })],
    });
    write(
        &t.path()
            .join("__commits")
            .join(format!("__1_1_{}_13.con", label(0xcc))),
        &encode(&con).unwrap(),
    );
    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b1, 13, [1, 1], json!([[0, 9]]), 10, true)])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.uncommitted, vec![b2.path.clone()]);
}

// ---------------------------------------------------------------------------
// Inspecting a fragment folder directly.

pub(super) fn inspect_fragment_folder(version: u32) {
    let t = TempArray::new(&format!("frag_folder_v{version}"));
    let s = schema(
        version,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let b = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(version, 3, 3, true, vec![pair(5i32, 25)]),
    );
    let v = inspect_json(&b.path, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("version {version}: {e}"));
    assert_eq!(v["kind"], "fragment", "version {version}");
    assert_eq!(v["name"], json!(b.name), "version {version}");
    assert_eq!(v["version"], version, "version {version}");
    assert_eq!(v["non_empty_domain"], json!([[5, 25]]), "version {version}");
    // Space tiles [0,9], [10,19], [20,29].
    assert_eq!(v["cell_num"], 30, "version {version}");
}

#[test]
pub(super) fn inspect_fragment_folder_from_version_12() {
    for version in [12, 14, 16] {
        inspect_fragment_folder(version);
    }
}

#[test]
pub(super) fn inspect_fragment_folder_before_version_12() {
    for version in [2, 4, 7, 11] {
        inspect_fragment_folder(version);
    }
}

// ---------------------------------------------------------------------------
// Version 11 as TileDB 2.7 wrote it.

/// TileDB 2.7.0–2.7.2 (format 11) ended the footer after the tile null count
/// offsets (`write_generic_tile_offsets` has no fragment min/max offset; it
/// arrived with 2.8, format 12). The engine's `load_generic_tile_offsets_v11`
/// does not read that offset either, so it reads these footers.
#[test]
pub(super) fn v11_footer_as_tiledb_2_7_wrote_it() {
    let t = TempArray::new("v11_tiledb_2_7");
    let mut s = schema(
        11,
        false,
        vec![dim("d", Datatype::Int64, 0i64, 999, 100)],
        vec![attr("a", Datatype::Float64, 0f64.le())],
    );
    s.capacity = 10;
    let schema_name = write_schema(t.path(), &s, 1);
    let mut f = sparse(frag(11, 2, 2, false, vec![pair(5i64, 500)]), 2, 3);
    f.v11_as_tiledb_2_7 = true;
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    // The footer is 8 bytes shorter than the current writer's.
    let mut current = f.clone();
    current.v11_as_tiledb_2_7 = false;
    let o = Offsets {
        tile_offsets: vec![0; counts(&s, &f).0],
        ..Offsets::default()
    };
    // Today's engine writes the fragment min/max offset into version 11
    // footers, a field the spec has from 12 only, so `encode` refuses the
    // record: it is written with binrw directly.
    let mut today = std::io::Cursor::new(Vec::new());
    binrw::BinWrite::write_le(&footer_table(&s, &schema_name, &current, &o), &mut today).unwrap();
    assert_eq!(today.into_inner().len(), b.footer.len() + 8);

    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b, 11, [2, 2], json!([[5, 500]]), 13, false)])
    );
    assert_footer_round_trips(&s, &b);
}
