//! Counts a record states of parts it does not hold (`count_of`): the
//! fragment footer's `sparse_tile_num`, set by the generated
//! `with_outside_counts` from the tiles of a sparse fragment (none for a
//! dense one), and a planted wrong count caught.

use super::*;

#[test]
fn the_sparse_tile_count_is_that_of_the_tiles_given_and_a_wrong_one_is_caught() {
    for v in versions() {
        // Three tiles of a sparse fragment, given by their cell counts.
        let tiles = [5u64, 5, 2];
        let footer = footer(v)
            .at_version(v)
            .with_sizes()
            .with_outside_counts(&tiles)
            .unwrap();
        assert_eq!(footer.sparse_tile_num, 3, "version {v}");
        assert_eq!(footer.check_outside_counts(&tiles), Ok(()));
        let bytes = encode(&footer).unwrap();
        // A dense fragment's footer counts none: the count the engine writes is 0.
        let dense = footer.clone().with_outside_counts(&[(); 0]).unwrap();
        assert_eq!(dense.sparse_tile_num, 0);
        // The count is the only difference in the bytes.
        let dense_bytes = encode(&dense).unwrap();
        assert_eq!(bytes.len(), dense_bytes.len());
        assert_ne!(bytes, dense_bytes);
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
            footer.check_outside_counts(&[(); 2]),
            Err(EncodeError::Size {
                field: "sparse_tile_num",
                stated: 3,
                actual: 2,
                ..
            })
        ));
    }
}
