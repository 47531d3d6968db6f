//! What a record states of parts it does not hold (`count_of`, `count_if`,
//! `last_of`): the fragment footer's `sparse_tile_num` and
//! `last_tile_cell_num`, set by the generated `with_outside_counts` from
//! the cell counts of the fragment's tiles, and planted wrong values caught.

use super::*;

#[test]
fn a_sparse_footer_counts_its_tiles_and_states_the_cells_of_the_last() {
    for v in versions() {
        // Three tiles of a sparse fragment, given by their cell counts.
        let tiles = [5u64, 5, 2];
        let footer = footer(v)
            .at_version(v)
            .with_sizes()
            .with_outside_counts(&tiles)
            .unwrap();
        assert_eq!(footer.sparse_tile_num, 3, "version {v}");
        assert_eq!(footer.last_tile_cell_num, 2, "version {v}");
        assert_eq!(footer.check_outside_counts(&tiles), Ok(()));
        // The two values are what the bytes state.
        let bytes = encode(&footer).unwrap();
        let mut other = footer.clone().with_outside_counts(&[7, 9]).unwrap();
        assert_eq!((other.sparse_tile_num, other.last_tile_cell_num), (2, 9));
        assert_ne!(encode(&other).unwrap(), bytes);
        other = other.with_outside_counts(&tiles).unwrap();
        assert_eq!(encode(&other).unwrap(), bytes);
        // A planted count, one off.
        let mut wrong = footer.clone();
        wrong.sparse_tile_num = 4;
        assert_eq!(
            wrong.check_outside_counts(&tiles),
            Err(EncodeError::Size {
                table: "FragmentFooter",
                field: "sparse_tile_num",
                stated: 4,
                actual: 3
            })
        );
        assert!(matches!(
            footer.check_outside_counts(&[5, 2]),
            Err(EncodeError::Size {
                field: "sparse_tile_num",
                stated: 3,
                actual: 2,
                ..
            })
        ));
        // A planted last tile: the tiles' count agrees, their last does not.
        assert_eq!(
            footer.check_outside_counts(&[5, 5, 3]),
            Err(EncodeError::Size {
                table: "FragmentFooter",
                field: "last_tile_cell_num",
                stated: 2,
                actual: 3
            })
        );
    }
}

#[test]
fn a_dense_footer_counts_no_tiles_and_states_the_cells_of_a_space_tile() {
    for v in versions() {
        let mut dense = footer(v).at_version(v).with_sizes();
        dense.dense = 1;
        // Four space tiles of 6 cells each (2 x 3 extents), all full.
        let tiles = [6u64; 4];
        let dense = dense.with_outside_counts(&tiles).unwrap();
        // What the engine writes for a dense fragment: no sparse tiles,
        // the last tile a whole space tile.
        assert_eq!(
            (dense.sparse_tile_num, dense.last_tile_cell_num),
            (0, 6),
            "version {v}"
        );
        assert_eq!(dense.check_outside_counts(&tiles), Ok(()));
        // A dense footer stating its tiles as a sparse one would is caught.
        let mut wrong = dense.clone();
        wrong.sparse_tile_num = 4;
        assert_eq!(
            wrong.check_outside_counts(&tiles),
            Err(EncodeError::Size {
                table: "FragmentFooter",
                field: "sparse_tile_num",
                stated: 4,
                actual: 0
            })
        );
    }
}

#[test]
fn a_footer_without_tiles_is_refused_as_it_states_the_cells_of_a_last_one() {
    let v = versions().last().unwrap();
    let none: [u64; 0] = [];
    let refused = EncodeError::Part {
        table: "FragmentFooter",
        part: "tiles",
        what: "the value of its last part is stated and it has none",
    };
    let mut footer = footer(v).at_version(v).with_sizes();
    assert_eq!(
        footer.clone().with_outside_counts(&none).unwrap_err(),
        refused
    );
    // Its count, checked first, is refused as one too many; when it says
    // none, the last tile it states is.
    assert!(matches!(
        footer.check_outside_counts(&none),
        Err(EncodeError::Size {
            field: "sparse_tile_num",
            ..
        })
    ));
    footer.sparse_tile_num = 0;
    assert_eq!(footer.check_outside_counts(&none), Err(refused));
}

#[test]
fn a_double_delta_header_counts_the_values_it_encodes() {
    let values = [3i64, 5, 9, 14];
    let header = table!(DoubleDeltaHeader { bitsize: 2 })
        .with_outside_counts(&values)
        .unwrap();
    assert_eq!(header.n, 4);
    assert_eq!(header.check_outside_counts(&values), Ok(()));
    assert_eq!(
        header.check_outside_counts(&values[..3]),
        Err(EncodeError::Size {
            table: "DoubleDeltaHeader",
            field: "n",
            stated: 4,
            actual: 3
        })
    );
}

#[test]
fn a_webp_chunk_metadata_states_its_images_count_and_lengths() {
    let images: [&[u8]; 2] = [&[1; 40], &[2; 7]];
    let md = WebpChunkMetadata::default()
        .with_outside_sizes(&images)
        .unwrap()
        .with_sizes();
    assert_eq!((md.num_parts, md.part_sizes.clone()), (2, vec![40, 7]));
    // u32 count, then one u32 length per image (webp_filter.cc).
    let bytes = encode(&md).unwrap();
    assert_eq!(bytes, [2, 0, 0, 0, 40, 0, 0, 0, 7, 0, 0, 0]);
    assert!(matches!(
        md.check_outside_sizes(&images[..1]),
        Err(EncodeError::Size {
            field: "part_sizes",
            ..
        })
    ));
    // A planted count the list disagrees with is refused by `encode`.
    let mut wrong = md.clone();
    wrong.num_parts = 3;
    assert!(matches!(
        encode(&wrong),
        Err(EncodeError::Size {
            field: "num_parts",
            ..
        })
    ));
}
