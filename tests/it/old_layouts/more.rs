//! The second half of `old_layouts.rs` (split to keep each file under 1,000 lines).

use super::*;

/// The legacy `__fragment_metadata.tdb` of versions 1 and 2.
pub(super) fn legacy_metadata(c: &Case, files: &[Option<FieldFiles>]) -> Vec<u8> {
    let tiles = tiles(c);
    let (mbrs, bounding): (Vec<u8>, Vec<u8>) = if c.dense {
        (Vec::new(), Vec::new())
    } else {
        let mbrs = tiles
            .iter()
            .flat_map(|t| {
                mbr_of(t)
                    .ranges
                    .into_iter()
                    .flat_map(|r| r.range)
                    .collect::<Vec<_>>()
            })
            .collect();
        // First and last coordinates of each tile.
        let bounding = tiles
            .iter()
            .flat_map(|t| {
                let (f, l) = (&t[0], &t[t.len() - 1]);
                [le(f.r), le(f.c), le(l.r), le(l.c)].concat()
            })
            .collect();
        (mbrs, bounding)
    };
    let num_mbrs = if c.dense { 0 } else { tiles.len() as u64 };
    let fixed = |i: usize| files[i].as_ref().map(|f| &f.fixed);
    let var = |i: usize| files[i].as_ref().and_then(|f| f.var.as_ref());
    let md = table!(LegacyFragmentMetadata {
        version_number: c.version,
        non_empty_domain_size: 16,
        non_empty_domain: ned_bytes(c),
        num_mbrs,
        mbrs,
        num_bounding_coords: num_mbrs,
        bounding_coords: bounding,
        tile_offsets: table!(LegacyTileOffsets {
            lists: (0..3)
                .map(|i| offsets_table(fixed(i).map_or(&[][..], |f| &f.offsets)))
                .collect(),
        }),
        tile_var_offsets: table!(LegacyTileOffsets {
            lists: (0..2)
                .map(|i| offsets_table(var(i).map_or(&[][..], |f| &f.offsets)))
                .collect(),
        }),
        tile_var_sizes: table!(LegacyTileOffsets {
            lists: (0..2)
                .map(|i| offsets_table(var(i).map_or(&[][..], |f| &f.sizes)))
                .collect(),
        }),
        last_tile_cell_num: tiles.last().unwrap().len() as u64,
        file_sizes: (0..3)
            .map(|i| fixed(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
        file_var_sizes: (0..2)
            .map(|i| var(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
    });
    write_generic_tile(&encode(&md).unwrap(), c.version)
}

/// The R-tree of the case's fragment (`tiles`: its tiles' cells): the
/// tiles' MBRs under a root (none for a dense fragment).
pub(super) fn rtree(c: &Case, tiles: &[Vec<Cell>]) -> RTree {
    let v = c.version;
    let leaves: Vec<Mbr> = if c.dense {
        Vec::new()
    } else {
        tiles.iter().map(|t| mbr_of(t)).collect()
    };
    let mut levels = Vec::new();
    if leaves.len() > 1 {
        // Root first: the union of the leaves (at most the fanout of 10).
        let mut root = mbr_of(&c.cells);
        root.ranges = (0..2)
            .map(|d| {
                let lo = leaves
                    .iter()
                    .map(|m| &m.ranges[d].range[..4])
                    .min()
                    .unwrap();
                let hi = leaves
                    .iter()
                    .map(|m| &m.ranges[d].range[4..])
                    .max()
                    .unwrap();
                let (lo, hi) = (
                    i32::from_le_bytes(lo.try_into().unwrap()),
                    i32::from_le_bytes(hi.try_into().unwrap()),
                );
                table!(Range1D {
                    range_length: None,
                    min_length: None,
                    range: [le(lo), le(hi)].concat(),
                })
            })
            .collect();
        levels.push(table!(RTreeLevel {
            num_mbrs: 1,
            mbrs: vec![root],
        }));
    }
    if !leaves.is_empty() {
        levels.push(table!(RTreeLevel {
            num_mbrs: leaves.len() as u64,
            mbrs: leaves,
        }));
    }
    let rtree = table!(RTree {
        dim_num: (v < 5).then_some(2),
        fanout: 10,
        datatype: (v < 5).then_some(Datatype::Int32),
        num_levels: levels.len() as u32,
        levels,
    });
    rtree
}

/// `__fragment_metadata.tdb` of version 3 on: the R-tree, the tile offset
/// lists, (version 11) empty tile min/max/sum/null count tiles, the footer
/// and, from version 10 (these dimensions are fixed-size), its length.
pub(super) fn metadata_file(
    c: &Case,
    schema_name: Option<&str>,
    files: &[Option<FieldFiles>],
) -> Vec<u8> {
    let v = c.version;
    let tiles = tiles(c);
    let gt = |table: Vec<u8>| write_generic_tile(&table, v);
    let mut out = Vec::new();
    let rtree = rtree(c, &tiles);
    let rtree_offset = out.len() as u64;
    out.extend(gt(encode(&rtree).unwrap()));
    // Per field index: attributes, `__coords`, dimensions (versions before 5
    // stop at `__coords`; var lists stop before it).
    let (n_fixed, n_var, n) = if v < 5 { (3, 2, 3) } else { (5, 5, 5) };
    let mut list = |values: &[u64]| {
        let at = out.len() as u64;
        out.extend(gt(encode(&offsets_table(values)).unwrap()));
        at
    };
    let fixed = |i: usize| files[i].as_ref().map(|f| &f.fixed);
    let var = |i: usize| files[i].as_ref().and_then(|f| f.var.as_ref());
    let tile_offsets: Vec<u64> = (0..n_fixed)
        .map(|i| list(fixed(i).map_or(&[][..], |f| &f.offsets)))
        .collect();
    let tile_var_offsets: Vec<u64> = (0..n_var)
        .map(|i| list(var(i).map_or(&[][..], |f| &f.offsets)))
        .collect();
    let tile_var_sizes: Vec<u64> = (0..n_var)
        .map(|i| list(var(i).map_or(&[][..], |f| &f.sizes)))
        .collect();
    let validity_of = |i: usize| files[i].as_ref().and_then(|f| f.validity.as_ref());
    let validity: Vec<u64> = (0..n)
        .map(|i| list(validity_of(i).map_or(&[][..], |f| &f.offsets)))
        .collect();
    let mut tile_metadata = |table: Vec<u8>| {
        let at = out.len() as u64;
        out.extend(gt(table));
        vec![at; n]
    };
    let (mins, sums, nulls) = if v >= 11 {
        let empty_min_max = encode(&table!(TileMinMax {
            fixed_size: 0,
            var_size: 0,
            fixed: Vec::new(),
            var: Vec::new(),
        }))
        .unwrap();
        (
            Some(tile_metadata(empty_min_max)),
            Some(tile_metadata(
                encode(&table!(TileSums {
                    num: 0,
                    values: Vec::new(),
                }))
                .unwrap(),
            )),
            Some(tile_metadata(
                encode(&table!(TileNullCounts {
                    num: 0,
                    values: Vec::new(),
                }))
                .unwrap(),
            )),
        )
    } else {
        (None, None, None)
    };
    let ned_range = |d: usize| {
        table!(Range1D {
            range_length: None,
            min_length: None,
            range: [le(ned(c)[d].0), le(ned(c)[d].1)].concat(),
        })
    };
    // Each tile by its cells: a dense fragment's are full space tiles of 4.
    let tile_cells: Vec<u64> = tiles
        .iter()
        .map(|t| if c.dense { 4 } else { t.len() as u64 })
        .collect();
    let footer = table!(FragmentFooter {
        version_number: v,
        array_schema_name_size: schema_name.map(|s| s.len() as u64),
        array_schema_name: schema_name.map(|s| s.as_bytes().to_vec()),
        dense: u8::from(c.dense),
        null_non_empty_domain: 0,
        legacy_non_empty_domain: (v < 5).then(|| ned_bytes(c)),
        non_empty_domain: since(
            v,
            5,
            table!(Mbr {
                ranges: (0..2).map(ned_range).collect(),
            }),
        ),
        sparse_tile_num: 0,
        last_tile_cell_num: 0,
        includes_timestamps: since(v, 14, 0),
        includes_delete_metadata: since(v, 15, 0),
        file_sizes: (0..n_fixed)
            .map(|i| fixed(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
        file_var_sizes: (0..n_var)
            .map(|i| var(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
        file_validity_sizes: since(
            v,
            7,
            (0..n)
                .map(|i| validity_of(i).map_or(0, |f| f.bytes.len() as u64))
                .collect(),
        ),
        rtree_offset,
        tile_offsets,
        tile_var_offsets,
        tile_var_sizes,
        tile_validity_offsets: since(v, 7, validity),
        tile_mins_offsets: mins.clone(),
        tile_maxes_offsets: mins,
        tile_sums_offsets: sums,
        tile_null_counts_offsets: nulls,
        // Version 11 footers as TileDB 2.7 wrote them: without it.
        fragment_min_max_sum_null_count_offset: None,
        processed_conditions_offset: None,
        num_optional_sections: None,
        optional_sections: None,
    })
    .with_outside_counts(&tile_cells)
    .unwrap();
    let footer = encode(&footer).unwrap();
    out.extend_from_slice(&footer);
    if v >= 10 {
        out.extend(encode(&FooterLength::default().with_outside_sizes(&footer).unwrap()).unwrap());
    }
    out
}

/// Builds the array of `c` in `root`: schema, one fragment with its data
/// files, metadata and commit marker. Returns the fragment folder.
pub(super) fn build(root: &Path, c: &Case) -> PathBuf {
    let schema_name = write_schema(root, c);
    write_fragment(root, c, schema_name.as_deref())
}

/// Writes the fragment of `c` (version `c.version`, cells `c.cells`, at
/// `c.t`) into an array whose schema is written; returns its folder.
pub(super) fn write_fragment(root: &Path, c: &Case, schema_name: Option<&str>) -> PathBuf {
    assert!(c.version < 12, "these builders lay out the flat hierarchy");
    let (v, t) = (c.version, c.t);
    let label = format!("{:016x}{t:08x}{v:08x}", 0x0123_4567_89ab_cdef_u64);
    let name = match v {
        1 | 2 => format!("__{label}_{t}"),
        3 | 4 => format!("__{t}_{t}_{label}"),
        _ => format!("__{t}_{t}_{label}_{v}"),
    };
    let frag = root.join(&name);
    let files = data_files(c);
    for (idx, f) in files.iter().enumerate() {
        let Some(f) = f else { continue };
        let stem = stem(v, field_name(c, idx), idx);
        write(&frag.join(format!("{stem}.tdb")), &f.fixed.bytes);
        if let Some(var) = &f.var {
            write(&frag.join(format!("{stem}_var.tdb")), &var.bytes);
        }
        if let Some(validity) = &f.validity {
            write(&frag.join(format!("{stem}_validity.tdb")), &validity.bytes);
        }
    }
    let meta = if v <= 2 {
        legacy_metadata(c, &files)
    } else {
        metadata_file(c, schema_name, &files)
    };
    write(&frag.join("__fragment_metadata.tdb"), &meta);
    if v >= 5 {
        write(&root.join(format!("{name}.ok")), b"");
    }
    frag
}

// ---------------------------------------------------------------------------
// Reading.

pub(super) fn ours(root: &Path) -> Vec<Value> {
    let r = ArrayReader::open(root, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("open {}: {e}", root.display()));
    let cells = r
        .read(&Query::default())
        .unwrap_or_else(|e| panic!("read {}: {e}", root.display()));
    (0..cells.len).map(|i| cells.row(i)).collect()
}

/// The engine's read, or its error message.
pub(super) fn engine(root: &Path) -> Result<Vec<Value>, String> {
    engine_account(root).map(|v| v["cells"].as_array().cloned().unwrap_or_default())
}

/// The engine's account of the array with its cells.
pub(super) fn engine_account(root: &Path) -> Result<Value, String> {
    let out = common::engine_run(
        "engine_account.py",
        [root.as_os_str(), std::ffi::OsStr::new("--cells")],
    );
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(serde_json::from_slice(&out.stdout).unwrap())
}

pub(super) fn assert_same(what: &str, got: &[Value], want: &[Value]) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(same(g, w), "{what}: got {g}, expected {w}");
    }
}

/// Builds `c`, checks our read against the values written (in row-major
/// order) and the engine's read against them (as a multiset: the engine
/// returns sparse cells in its own order).
pub(super) fn check(test: &str, c: &Case) {
    let t = TempArray::new(test);
    build(&t.0, c);
    let want = expected_rows(c);
    assert_same("ours", &ours(&t.0), &want);
    let reader = ArrayReader::open(&t.0, &ReadOptions::default()).unwrap();
    let scanned = reader.scan(None).unwrap();
    // Both attributes of every tile (dense tiles hold whole space tiles).
    assert_eq!(scanned.cells, 2 * c.cells.len() as u64);
    let report = verify(&t.0, &ReadOptions::default()).unwrap();
    assert!(report.ok(), "verify: {:?}", report.problems);
    assert_eq!(
        report.fields,
        if c.dense {
            2
        } else {
            4 - usize::from(c.version < 5)
        }
    );
    let engine = engine(&t.0).unwrap_or_else(|e| panic!("the engine refused: {e}"));
    assert_same("engine", &sorted(engine), &sorted(want));
}

// ---------------------------------------------------------------------------
// Versions 1 and 2: legacy fragment metadata.

#[test]
pub(super) fn v1_sparse_legacy_zipped_coords_stored_zipped() {
    check("v1_sparse", &case(1, false));
}

#[test]
pub(super) fn v1_sparse_legacy_zipped_coords_compressed() {
    // With a compressor, version 1 stores one dimension after the other too.
    let mut c = case(1, false);
    c.coords_filters = vec![generic_tile_filter()];
    check("v1_sparse_gzip", &c);
}

#[test]
pub(super) fn v2_sparse_legacy_zipped_coords_compressed() {
    let mut c = case(2, false);
    c.coords_filters = vec![generic_tile_filter()];
    check("v2_sparse", &c);
}

#[test]
pub(super) fn v2_dense_legacy() {
    check("v2_dense", &case(2, true));
}

// Versions 3 and 4: footer without length (v3_v4 size), zipped coordinates.

#[test]
pub(super) fn v3_sparse_zipped_coords_gzip() {
    let mut c = case(3, false);
    c.coords_filters = vec![generic_tile_filter()];
    check("v3_sparse", &c);
}

#[test]
pub(super) fn v4_sparse_zipped_coords_one_dimension_after_the_other() {
    check("v4_sparse", &case(4, false));
}

#[test]
pub(super) fn v4_dense() {
    check("v4_dense", &case(4, true));
}

// Versions 5 to 8: one file per dimension, named by field name.

#[test]
pub(super) fn v6_sparse_dimension_files_by_name() {
    check("v6_sparse", &case(6, false));
}

#[test]
pub(super) fn v7_dense_files_by_name() {
    let mut c = case(7, true);
    c.int_attr = "temp.c";
    c.nullable = true;
    check("v7_dense", &c);
}

#[test]
pub(super) fn v8_sparse_percent_encoded_names() {
    let mut c = case(8, false);
    c.int_attr = "a:b<c>|d?";
    c.text_attr = "x\\y\"z";
    c.nullable = true;
    check("v8_sparse", &c);
}

// Versions 9 to 11: files by index; no footer length before 10.

#[test]
pub(super) fn v9_sparse_footer_without_length() {
    check("v9_sparse", &case(9, false));
}

#[test]
pub(super) fn v10_dense_schema_folder_flat_fragments() {
    check("v10_dense", &case(10, true));
}

#[test]
pub(super) fn v11_sparse_flat_with_tile_metadata() {
    check("v11_sparse", &case(11, false));
}

// Fragments of different layouts in one array: merged as the engine merges
// them (sparse without duplicates: the newest cell wins; dense: later
// fragments overwrite).

#[test]
pub(super) fn v4_schema_with_zipped_and_separate_coordinate_fragments() {
    let t = TempArray::new("mixed_sparse");
    let mut old = case(4, false);
    old.coords_filters = vec![generic_tile_filter()];
    write_schema(&t.0, &old);
    write_fragment(&t.0, &old, None);
    // Schemas before version 5 give dimensions no filters, and the engine
    // does not put the coords filters in their place (it does for an empty
    // pipeline stored from version 5): a later fragment's dimension files
    // are unfiltered, while the zipped coordinates are compressed.
    let mut new = case(9, false);
    new.t = 9;
    new.cells = vec![
        Cell {
            r: 2,
            c: 3,
            generation: 1,
        },
        Cell {
            r: 4,
            c: 1,
            generation: 1,
        },
    ];
    write_fragment(&t.0, &new, None);
    let mut want: Vec<Cell> = old
        .cells
        .iter()
        .filter(|x| (x.r, x.c) != (2, 3))
        .chain(&new.cells)
        .cloned()
        .collect();
    want.sort_by_key(|x| (x.r, x.c));
    let want: Vec<Value> = want.iter().map(|x| x.row(&old)).collect();
    assert_same("ours", &ours(&t.0), &want);
    let account = engine_account(&t.0).unwrap_or_else(|e| panic!("the engine refused: {e}"));
    let cells = account["cells"].as_array().cloned().unwrap();
    assert_same("engine", &sorted(cells), &sorted(want));
    // Both say so: the dimensions of this schema have no filters.
    let ours = inspect_json(&t.0, &ReadOptions::default()).unwrap();
    for d in 0..2 {
        assert_eq!(account["schema"]["dimensions"][d]["filters"], json!([]));
        assert_eq!(ours["schema"]["dimensions"][d]["filters"], json!([]));
    }
}

#[test]
pub(super) fn v2_dense_array_with_a_v7_fragment_over_one_space_tile() {
    let t = TempArray::new("mixed_dense");
    let old = case(2, true);
    write_schema(&t.0, &old);
    write_fragment(&t.0, &old, None);
    let mut new = case(7, true);
    new.t = 8;
    new.cells = cells(true, 1)
        .into_iter()
        .filter(|x| x.r >= 3 && x.c <= 2)
        .collect();
    write_fragment(&t.0, &new, None);
    let want: Vec<Value> = old
        .cells
        .iter()
        .map(|x| {
            let newer = new.cells.iter().find(|y| (y.r, y.c) == (x.r, x.c));
            newer.unwrap_or(x).row(&old)
        })
        .collect();
    assert_same("ours", &ours(&t.0), &want);
    let engine = engine(&t.0).unwrap_or_else(|e| panic!("the engine refused: {e}"));
    assert_same("engine", &engine, &want);
}

#[test]
pub(super) fn subarray_over_zipped_coordinates() {
    let t = TempArray::new("v3_subarray");
    let c = case(3, false);
    build(&t.0, &c);
    let r = ArrayReader::open(&t.0, &ReadOptions::default()).unwrap();
    let q = {
        let mut lit = Query::default();
        lit.attributes = Some(vec!["a".into()]);
        lit.subarray = Some(vec![Some((2, 4)), Some((2, 3))]);
        lit
    };
    let got = r.read(&q).unwrap();
    let rows: Vec<Value> = (0..got.len).map(|i| got.row(i)).collect();
    assert_eq!(
        rows,
        vec![
            json!({"rows": 2, "cols": 3, "a": 203}),
            json!({"rows": 3, "cols": 2, "a": 302}),
        ]
    );
}
