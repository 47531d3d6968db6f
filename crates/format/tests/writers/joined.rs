//! Var-sized values a record holds joined, with where each starts
//! (`joins`, `starts_of`): set by the generated `with_joined` from the
//! values, compared by `check_joined`, and planted mistakes caught.

use super::*;
use tiledb_codec_format::version::has_tile_min_max;

#[test]
fn an_enumeration_joins_its_values_and_states_where_each_starts() {
    let values: [&[u8]; 3] = [b"red", b"", b"green"];
    let var = table!(Enumeration {
        cell_val_num: u32::MAX,
        offsets_size: Some(0),
        offsets: Some(Vec::new()),
    })
    .with_joined(&values)
    .with_sizes();
    assert_eq!(var.data, b"redgreen");
    let starts: Vec<u8> = [0u64, 3, 3].iter().flat_map(|s| s.to_le_bytes()).collect();
    assert_eq!(var.offsets.as_deref(), Some(&starts[..]));
    assert_eq!((var.data_size, var.offsets_size), (8, Some(24)));
    assert_eq!(var.check_joined(&values), Ok(()));
    // Fixed-sized values are joined alone: the version has the offsets,
    // the condition (a var cell val num) does not.
    let fixed = table!(Enumeration { cell_val_num: 1 })
        .with_joined(&[b"a", b"b"])
        .with_sizes();
    assert_eq!(
        (fixed.data.as_slice(), fixed.offsets.as_ref()),
        (&b"ab"[..], None)
    );
    assert_eq!(encode(&fixed).map(|_| ()), Ok(()));
}

#[test]
fn planted_joined_bytes_and_starts_are_caught() {
    let values: [&[u8]; 2] = [b"ab", b"cde"];
    let node = table!(ValueNode {
        op: QueryConditionOp::In,
        field_name: b"s".to_vec(),
        offsets_size: Some(0),
        offsets: Some(Vec::new()),
    })
    .with_joined(&values)
    .with_sizes();
    assert_eq!(node.check_joined(&values), Ok(()));
    // A member the node does not hold.
    assert!(matches!(
        node.check_joined(&[&b"ab"[..], b"cdx"]),
        Err(EncodeError::Part {
            table: "ValueNode",
            part: "members",
            ..
        })
    ));
    // A member too few.
    assert!(matches!(
        node.check_joined(&[&b"ab"[..]]),
        Err(EncodeError::Size {
            field: "value",
            stated: 5,
            actual: 2,
            ..
        })
    ));
    // A start moved: the second member said to start at 1.
    let mut wrong = node.clone();
    wrong.offsets = Some([0u64, 1].iter().flat_map(|s| s.to_le_bytes()).collect());
    assert_eq!(
        wrong.check_joined(&values),
        Err(EncodeError::Offset {
            table: "ValueNode",
            field: "offsets",
            stated: 1,
            actual: 2
        })
    );
}

#[test]
fn a_var_fields_tile_mins_are_joined_with_their_starts_in_the_fixed_bytes() {
    // Three tiles; the second holds nulls only (no min).
    let mins: [&[u8]; 3] = [b"apple", b"", b"kiwi"];
    for v in versions().filter(|v| has_tile_min_max(*v)) {
        let t = TileMinMax::default().with_joined(&mins).with_sizes();
        assert_eq!((t.fixed_size, t.var_size), (24, 9), "version {v}");
        let bytes = encode_at(&t, v).unwrap();
        let (back, _) = decode::<TileMinMax>(&bytes, 0, ()).unwrap();
        assert_eq!(back.check_joined(&mins), Ok(()));
    }
}

#[test]
fn a_metadata_entry_counts_its_values_in_its_types_width_and_a_wrong_count_is_refused() {
    // Three INT16 values: six bytes.
    let entry = table!(MetadataEntry {
        key: b"k".to_vec(),
        value_type: Some(Datatype::Int16),
        value: Some(vec![1, 0, 2, 0, 3, 0]),
    })
    .with_sizes();
    assert_eq!(entry.num_values, Some(3));
    let bytes = encode(&entry).unwrap();
    let (back, _) = decode::<MetadataEntry>(&bytes, 0, ()).unwrap();
    assert_eq!(back, entry);
    // A count its bytes disagree with: refused by `encode`, naming the
    // field whose length the count states.
    let mut wrong = entry.clone();
    wrong.num_values = Some(4);
    assert_eq!(
        encode(&wrong),
        Err(EncodeError::Size {
            table: "MetadataEntry",
            field: "value",
            stated: 8,
            actual: 6
        })
    );
    // Bytes that are no whole number of values: the count `with_sizes`
    // gives them (2) states 4 bytes, not 5.
    let mut ragged = entry.clone();
    ragged.value = Some(vec![0; 5]);
    assert!(matches!(
        encode(&ragged.with_sizes()),
        Err(EncodeError::Size {
            field: "value",
            stated: 4,
            actual: 5,
            ..
        })
    ));
}

#[test]
fn a_consolidated_fragment_metadata_index_points_at_the_footers_after_it() {
    let footers: [&[u8]; 3] = [&[1; 40], &[2; 7], &[3; 13]];
    let index = table!(ConsolidatedFragmentMetadata {
        fragments: ["__a", "__bb", "__ccc"]
            .iter()
            .map(|n| table!(ConsolidatedFragmentEntry {
                name: n.as_bytes().to_vec()
            }))
            .collect(),
    })
    .with_parts_after(&footers)
    .unwrap();
    let bytes = encode(&index).unwrap();
    // Each footer starts where the entry says, counted from the index's
    // start, the footers right after the index.
    let mut data = bytes.clone();
    footers.iter().for_each(|f| data.extend_from_slice(f));
    for (e, f) in index.fragments.iter().zip(footers) {
        let at = e.offset as usize;
        assert_eq!(&data[at..at + f.len()], f);
    }
    assert_eq!(index.fragments[0].offset, bytes.len() as u64);
    assert_eq!(index.check_parts_after(&footers), Ok(()));
    // A planted offset, and a footer too few.
    let mut wrong = index.clone();
    wrong.fragments[2].offset += 1;
    assert!(matches!(
        wrong.check_parts_after(&footers),
        Err(EncodeError::Offset {
            field: "offset",
            ..
        })
    ));
    assert!(matches!(
        index.check_parts_after(&footers[..2]),
        Err(EncodeError::Part {
            part: "footers",
            ..
        })
    ));
}
