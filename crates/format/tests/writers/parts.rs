//! The generated layouts of files a record points at (`offset_of`): the
//! fragment metadata file's generic tiles appended through
//! `FragmentFooterParts`, a data file's tiles measured through
//! `TileOffsetsParts` and a `StreamedFile`, and the footer's offsets and
//! file sizes set from them, every version the writer writes; and the var
//! tile sizes (`TileSizes`) from the var tiles measured before filtering.

use super::*;

/// A metadata file of `n` fields at `version`: each part a few marked
/// bytes, appended in the file's order; the footer's offsets from the
/// layout.
fn metadata_file(version: u32, n: usize) -> (Vec<u8>, FragmentFooterParts, FragmentFooter) {
    let mut footer = FragmentFooter::default().at_version(version);
    footer.null_non_empty_domain = 1;
    let mut file = Vec::new();
    let mut parts = FragmentFooterParts::default();
    let mut mark = 0u8;
    let mut next = || {
        mark += 1;
        vec![mark; 3 + usize::from(mark % 5)]
    };
    parts.push_rtree_tile(&mut file, [&next()[..]]).unwrap();
    for _ in 0..n {
        parts.push_tile_offsets_tiles(&mut file, [&next()[..]]);
        parts.push_tile_var_offsets_tiles(&mut file, [&next()[..]]);
        parts.push_tile_var_sizes_tiles(&mut file, [&next()[..]]);
    }
    if footer.tile_validity_offsets.is_some() {
        for _ in 0..n {
            parts.push_tile_validity_offsets_tiles(&mut file, [&next()[..]]);
        }
    }
    if footer.tile_mins_offsets.is_some() {
        for _ in 0..n {
            parts.push_tile_mins_tiles(&mut file, [&next()[..]]);
            parts.push_tile_maxes_tiles(&mut file, [&next()[..]]);
            parts.push_tile_sums_tiles(&mut file, [&next()[..]]);
            parts.push_tile_null_counts_tiles(&mut file, [&next()[..]]);
        }
    }
    if footer.fragment_min_max_sum_null_count_offset.is_some() {
        parts
            .push_fragment_min_max_sum_null_count_tile(&mut file, [&next()[..]])
            .unwrap();
    }
    if footer.processed_conditions_offset.is_some() {
        // A part handed over in pieces is one part.
        let (a, b) = (next(), next());
        parts
            .push_processed_conditions_tile(&mut file, [&a[..], &b[..]])
            .unwrap();
    }
    let footer = footer.with_outside_offsets(&parts).unwrap();
    (file, parts, footer)
}

#[test]
fn the_footer_offsets_point_at_the_parts_appended_at_every_version() {
    for v in versions() {
        let (file, parts, footer) = metadata_file(v, 2);
        assert_eq!(footer.check_outside_offsets(&parts), Ok(()), "version {v}");
        // Every offset starts its part: a run of one mark, which the part
        // before does not have.
        let mut offsets = vec![footer.rtree_offset];
        offsets.extend(&footer.tile_offsets);
        offsets.extend(&footer.tile_var_offsets);
        offsets.extend(&footer.tile_var_sizes);
        offsets.extend(footer.tile_validity_offsets.iter().flatten());
        offsets.extend(footer.tile_mins_offsets.iter().flatten());
        offsets.extend(footer.fragment_min_max_sum_null_count_offset);
        offsets.extend(footer.processed_conditions_offset);
        for at in offsets {
            let at = at as usize;
            assert!(at == 0 || file[at - 1] != file[at], "version {v}: {at}");
        }
        assert_eq!(footer.rtree_offset, 0);
        assert_eq!(footer.tile_offsets.len(), 2);
        assert_eq!(footer.tile_offsets[0], 4, "the R-tree is 4 bytes");
        // The footer with its offsets encodes.
        if let Err(e) = encode(&footer.with_sizes()) {
            panic!("version {v}: {e}");
        }
    }
}

#[test]
fn a_wrong_offset_is_caught_and_a_part_the_record_cannot_point_at_is_refused() {
    let (_, parts, footer) = metadata_file(MAX_WRITE_VERSION, 2);
    // A planted offset, one off.
    let mut wrong = footer.clone();
    wrong.tile_var_offsets[1] += 1;
    let at = footer.tile_var_offsets[1];
    assert_eq!(
        wrong.check_outside_offsets(&parts),
        Err(EncodeError::Offset {
            table: "FragmentFooter",
            field: "tile_var_offsets",
            stated: at + 1,
            actual: at
        })
    );
    let mut wrong = footer.clone();
    wrong.processed_conditions_offset = Some(0);
    assert!(matches!(
        wrong.check_outside_offsets(&parts),
        Err(EncodeError::Offset {
            field: "processed_conditions_offset",
            ..
        })
    ));
    // An offset missing from a list.
    let mut short = footer.clone();
    short.tile_offsets.pop();
    assert!(matches!(
        short.check_outside_offsets(&parts),
        Err(EncodeError::Offset {
            field: "tile_offsets",
            stated: 1,
            actual: 2,
            ..
        })
    ));
    // The R-tree twice: the footer points at one.
    let mut twice = parts.clone();
    assert!(matches!(
        twice.push_rtree_tile(&mut Vec::new(), [&[1u8][..]]),
        Err(EncodeError::Part {
            part: "rtree_tile",
            ..
        })
    ));
    // No R-tree: the footer points at one that is not there.
    assert!(matches!(
        FragmentFooter::default().with_outside_offsets(&FragmentFooterParts::default()),
        Err(EncodeError::Part {
            part: "rtree_tile",
            ..
        })
    ));
    // Version 10 has no tile mins: a mins tile appended is refused (and
    // a footer whose version has them, without them, too).
    let (mut file, mut parts10, _) = metadata_file(10, 1);
    parts10.push_tile_mins_tiles(&mut file, [&[7u8][..]]);
    assert!(matches!(
        FragmentFooter::default()
            .at_version(10)
            .with_outside_offsets(&parts10),
        Err(EncodeError::Part {
            part: "tile_mins_tiles",
            ..
        })
    ));
    let (_, parts12, _) = metadata_file(12, 1);
    let mut v16 = FragmentFooter::default().at_version(16);
    v16.rtree_offset = 0;
    assert!(matches!(
        v16.with_outside_offsets(&parts12),
        Err(EncodeError::Part {
            part: "processed_conditions_tile",
            ..
        })
    ));
}

#[test]
fn a_streamed_data_file_gives_its_tile_offsets_and_the_footer_its_file_sizes() {
    // Two fields: the first with a var file; tiles handed over in pieces,
    // their bytes never kept.
    let mut fixed = [StreamedFile::default(), StreamedFile::default()];
    let mut var = [StreamedFile::default(), StreamedFile::default()];
    let mut offsets = TileOffsetsParts::default();
    let mut var_offsets = TileOffsetsParts::default();
    for tile in [&[1u8; 10][..], &[2; 7], &[3; 1]] {
        let at = offsets.push_tiles(&mut fixed[0], [&tile[..1], &tile[1..]]);
        assert!(at < 18);
        var_offsets.push_tiles(&mut var[0], [tile, tile]);
        fixed[1].put(tile);
    }
    let t = TileOffsets::default()
        .with_outside_offsets(&offsets)
        .unwrap()
        .with_sizes();
    assert_eq!((t.num, t.values.clone()), (3, vec![0, 10, 17]));
    assert_eq!(t.check_outside_offsets(&offsets), Ok(()));
    let var_t = TileOffsets::default()
        .with_outside_offsets(&var_offsets)
        .unwrap();
    assert_eq!(var_t.values, [0, 20, 34]);
    let mut planted = t.clone();
    planted.values[2] = 18;
    assert_eq!(
        planted.check_outside_offsets(&offsets),
        Err(EncodeError::Offset {
            table: "TileOffsets",
            field: "values",
            stated: 18,
            actual: 17
        })
    );
    // The footer's file sizes are the files' lengths.
    let validity = [StreamedFile::default(); 2];
    let footer = FragmentFooter::default()
        .at_version(MAX_WRITE_VERSION)
        .with_outside_sizes(&fixed, &var, &validity)
        .unwrap();
    assert_eq!(footer.file_sizes, [18, 18]);
    assert_eq!(footer.file_var_sizes, [36, 0]);
    assert_eq!(footer.file_validity_sizes, Some(vec![0, 0]));
    assert_eq!(footer.check_outside_sizes(&fixed, &var, &validity), Ok(()));
    var[1].put(&[0; 5]);
    assert!(matches!(
        footer.check_outside_sizes(&fixed, &var, &validity),
        Err(EncodeError::Size {
            field: "file_var_sizes",
            stated: 0,
            actual: 5,
            ..
        })
    ));
}

#[test]
fn the_global_order_bounds_point_at_their_tiles_in_the_metadata_file() {
    let mut file = vec![9u8; 40];
    let mut parts = TileGlobalOrderBoundsParts::default();
    parts.push_min_tiles(&mut file, [&[1u8; 6][..]]);
    parts.push_min_tiles(&mut file, [&[2u8; 6][..]]);
    parts.push_max_tiles(&mut file, [&[3u8; 6][..]]);
    parts.push_max_tiles(&mut file, [&[4u8; 6][..]]);
    let b = TileGlobalOrderBounds::default()
        .with_outside_offsets(&parts)
        .unwrap();
    assert_eq!(
        (b.min_offsets.clone(), b.max_offsets.clone()),
        (vec![40, 46], vec![52, 58])
    );
    assert_eq!(b.check_outside_offsets(&parts), Ok(()));
}

#[test]
fn the_var_tile_sizes_are_the_var_tiles_measured_before_filtering() {
    // Three var tiles, each measured as it is filtered (a tile handed over
    // in pieces is measured whole), their bytes not kept; an empty tile
    // (all cells empty strings) is a size of 0.
    let mut tiles = [StreamedFile::default(); 3];
    tiles[0].put(b"abcdefghijkl");
    tiles[2].put(b"xyz");
    tiles[2].put(b"uvwx");
    let sizes = TileSizes::default()
        .with_outside_sizes(&tiles)
        .unwrap()
        .with_sizes();
    assert_eq!((sizes.num, sizes.values.clone()), (3, vec![12, 0, 7]));
    assert_eq!(sizes.check_outside_sizes(&tiles), Ok(()));
    // The same bytes as the tile offsets layout the engine reads them with.
    let as_offsets = table!(TileOffsets {
        values: vec![12, 0, 7]
    })
    .with_sizes();
    assert_eq!(encode(&sizes).unwrap(), encode(&as_offsets).unwrap());
    // A planted wrong size is caught, naming the field and both values.
    let mut planted = sizes.clone();
    planted.values[2] = 8;
    assert_eq!(
        planted.check_outside_sizes(&tiles),
        Err(EncodeError::Size {
            table: "TileSizes",
            field: "values",
            stated: 8,
            actual: 7
        })
    );
    // So is a list of sizes longer or shorter than the tiles measured.
    let mut short = sizes.clone();
    short.values.pop();
    assert!(matches!(
        short.check_outside_sizes(&tiles),
        Err(EncodeError::Size {
            field: "values",
            stated: 2,
            actual: 3,
            ..
        })
    ));
    // A measure kept aside (a writer's scratch copy) resumes as it was.
    assert_eq!(StreamedFile::resumed(tiles[2].end()), tiles[2]);
}
