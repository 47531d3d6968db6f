//! Every table and union of `spec/` written through the generated writers
//! (`Record::at_version`, `Record::with_sizes`, `encode_at`) at every
//! format version this crate writes, read back, and compared: the record
//! read is the record written, and it encodes to the same bytes. A table of
//! `SPEC_TABLES` without a case here fails the test, so a new table's first
//! consumer is this test. Also: `encode` (and `encode_at`) refuses records whose
//! optional fields disagree with their version or whose stated sizes
//! disagree with their contents.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::Arc;

use binrw::{BinRead, BinWrite};
use tiledb_codec_format::version::{
    has_cell_delete_metadata, has_cell_timestamps, MAX_WRITE_VERSION, MIN_WRITE_VERSION,
};
use tiledb_codec_format::*;

fn versions() -> impl Iterator<Item = u32> {
    MIN_WRITE_VERSION..=MAX_WRITE_VERSION
}

/// Writes `sample` as `version` stores it, reads it back with `args` and
/// compares record and bytes.
fn round_trip<T>(name: &str, sample: T, version: u32, args: <T as BinRead>::Args<'_>)
where
    T: Record + BinRead + BinWrite + PartialEq + Debug,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    let record = sample.at_version(version).with_sizes();
    let bytes = encode_at(&record, version)
        .unwrap_or_else(|e| panic!("{name} at version {version} refused: {e}\n{record:?}"));
    let back: T = decode_all(&bytes, 0, args)
        .unwrap_or_else(|e| panic!("{name} at version {version} does not read back: {e}"));
    assert_eq!(back, record, "{name} at version {version}");
    assert_eq!(
        encode(&back).unwrap(),
        bytes,
        "{name} at version {version}: other bytes"
    );
}

fn dims() -> Dims {
    // A fixed-size (4 bytes) and a var-sized dimension.
    Arc::from(vec![4u64, 0])
}

fn range(bytes: &[u8], var: bool) -> Range1D {
    table!(Range1D {
        range_length: var.then_some(0),
        min_length: var.then_some(1),
        range: bytes.to_vec(),
    })
}

fn mbr() -> Mbr {
    table!(Mbr {
        ranges: vec![range(&[1, 0, 0, 0, 9, 0, 0, 0], false), range(b"ab", true)],
    })
}

fn zstd() -> Filter {
    table!(Filter {
        filter_type: FilterType::Zstd,
        filter_options: FilterOptions::Compressor(table!(CompressorOptions {
            compressor_type: Compressor::Zstd,
            compression_level: 3,
        })),
    })
}

fn pipeline() -> FilterPipeline {
    table!(FilterPipeline {
        max_chunk_size: 65536,
        filters: vec![
            zstd(),
            table!(Filter {
                filter_type: FilterType::BitWidthReduction,
                filter_options: FilterOptions::BitWidthReduction(table!(
                    BitWidthReductionOptions {
                        max_window_size: 256
                    }
                )),
            }),
            table!(Filter {
                filter_type: FilterType::ChecksumMd5,
                filter_options: FilterOptions::NoOptions,
            }),
        ],
    })
}

fn dimension() -> Dimension {
    table!(Dimension {
        name: b"d".to_vec(),
        datatype: Some(Datatype::Int32),
        cell_val_num: Some(1),
        filters: Some(pipeline()),
        domain: vec![0, 0, 0, 0, 99, 0, 0, 0],
        null_tile_extent: 0,
        tile_extent: vec![10, 0, 0, 0],
    })
}

fn attribute() -> Attribute {
    table!(Attribute {
        name: b"a".to_vec(),
        datatype: Datatype::Float64,
        cell_val_num: 1,
        filters: pipeline(),
        fill_value: Some(vec![0; 8]),
        nullable: Some(1),
        fill_value_validity: Some(0),
        order: Some(DataOrder::UnorderedData),
        enumeration_name: Some(b"e".to_vec()),
    })
}

fn label() -> DimensionLabel {
    table!(DimensionLabel {
        name: b"l".to_vec(),
        uri: b"__labels/l0".to_vec(),
        relative_uri: 1,
        attribute_name: b"label".to_vec(),
        datatype: Datatype::Float64,
        cell_val_num: 1,
    })
}

fn current_domain() -> CurrentDomain {
    table!(CurrentDomain {
        empty: 0,
        current_domain_type: Some(CurrentDomainType::Ndrectangle),
        ndrectangle: Some(mbr()),
    })
}

fn schema() -> ArraySchema {
    table!(ArraySchema {
        allows_dups: Some(1),
        array_type: ArrayType::Sparse,
        tile_order: Layout::RowMajor,
        cell_order: Layout::RowMajor,
        capacity: 1000,
        coords_filters: pipeline(),
        offsets_filters: pipeline(),
        validity_filters: Some(pipeline()),
        domain: table!(Domain {
            domain_datatype: Some(Datatype::Int32),
            dimensions: vec![dimension(), dimension()],
        }),
        attributes: vec![attribute()],
        labels: Some(vec![label()]),
        enumerations: Some(vec![table!(EnumerationEntry {
            name: b"e".to_vec(),
            filename: b"__e_0".to_vec(),
        })]),
        // Two Int32 dimensions: two fixed-size ranges.
        current_domain: Some(table!(CurrentDomain {
            empty: 0,
            current_domain_type: Some(CurrentDomainType::Ndrectangle),
            ndrectangle: Some(table!(Mbr {
                ranges: vec![range(&[0, 0, 0, 0, 9, 0, 0, 0], false); 2],
            })),
        })),
    })
}

fn value_node() -> ConditionNode {
    table!(ConditionNode {
        node_type: ConditionNodeType::Value,
        body: ConditionNodeBody::Value(table!(ValueNode {
            op: QueryConditionOp::In,
            field_name: b"a".to_vec(),
            value: b"xyz".to_vec(),
            offsets_size: Some(0),
            offsets: Some([0u64, 1].iter().flat_map(|o| o.to_le_bytes()).collect()),
        })),
    })
}

fn condition() -> ConditionNode {
    table!(ConditionNode {
        node_type: ConditionNodeType::Expression,
        body: ConditionNodeBody::Expression(table!(ExpressionNode {
            combination_op: QueryConditionCombinationOp::And,
            children: vec![value_node(), value_node()],
        })),
    })
}

fn footer(v: u32) -> FragmentFooter {
    // n = A + D + 1 + timestamps + 2 * delete metadata, where the version
    // stores those flags (both set).
    let count =
        1 + 2 + 1 + u64::from(has_cell_timestamps(v)) + 2 * u64::from(has_cell_delete_metadata(v));
    let n = |x: u64| (0..count).map(|i| x + i).collect::<Vec<u64>>();
    table!(FragmentFooter {
        array_schema_name: Some(b"__1_1_0123456789abcdef0123456789abcdef".to_vec()),
        non_empty_domain: Some(mbr()),
        sparse_tile_num: 1,
        last_tile_cell_num: 5,
        includes_timestamps: Some(1),
        includes_delete_metadata: Some(1),
        file_sizes: n(100),
        file_var_sizes: n(200),
        file_validity_sizes: Some(n(300)),
        rtree_offset: 0,
        tile_offsets: n(10),
        tile_var_offsets: n(20),
        tile_var_sizes: n(30),
        tile_validity_offsets: Some(n(40)),
        tile_mins_offsets: Some(n(50)),
        tile_maxes_offsets: Some(n(60)),
        tile_sums_offsets: Some(n(70)),
        tile_null_counts_offsets: Some(n(80)),
        fragment_min_max_sum_null_count_offset: Some(90),
        processed_conditions_offset: Some(91),
        optional_sections: Some(vec![table!(OptionalSection {
            identifier: OptionalSectionIdentifier::TileGlobalOrderOffsets,
            data: encode(&table!(TileGlobalOrderBounds {
                min_offsets: vec![1, 2],
                max_offsets: vec![3, 4],
            }))
            .unwrap(),
        })]),
        version_number: v,
    })
}

fn min_max_entry() -> FieldMinMaxSumNullCount {
    table!(FieldMinMaxSumNullCount {
        min: vec![1, 2],
        max: vec![3, 4],
        sum: 7,
        null_count: 1,
    })
}

fn checksums() -> ChecksumChunkMetadata {
    let entry = table!(ChecksumEntry {
        checksummed_bytes: 10,
        checksum: vec![7; 16],
    });
    table!(ChecksumChunkMetadata {
        num_metadata_checksums: 1,
        num_data_checksums: 1,
        metadata_checksums: vec![entry.clone()],
        data_checksums: vec![entry],
    })
}

#[path = "writers/cases.rs"]
mod cases;
#[path = "writers/counts.rs"]
mod counts;
#[path = "writers/joined.rs"]
mod joined;
#[path = "writers/parts.rs"]
mod parts;

/// Every table and union, written at every version; returns the names done.
fn every_case() -> BTreeSet<&'static str> {
    let mut done = BTreeSet::new();
    cases::cases_1(&mut done);
    cases::cases_2(&mut done);
    cases::cases_3(&mut done);
    cases::cases_4(&mut done);
    cases::cases_5(&mut done);
    cases::cases_6(&mut done);
    done
}

#[test]
fn every_table_round_trips_through_the_generated_writers_at_every_write_version() {
    let done = every_case();
    let missing: Vec<&str> = SPEC_TABLES
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !done.contains(name))
        .collect();
    assert!(
        missing.is_empty(),
        "tables of spec/ without a case here: {missing:?}"
    );
}

#[test]
fn at_version_keeps_only_the_fields_of_the_version() {
    let a = attribute().at_version(16).with_sizes();
    assert_eq!(a.order, None, "the order is new in version 17");
    assert_eq!(
        a.enumeration_name, None,
        "the enumeration is new in version 20"
    );
    assert_eq!(a.enumeration_name_length, None);
    assert_eq!(a.nullable, Some(1), "nullable since version 7");
    assert_eq!(a.fill_value_size, Some(8));
    assert_eq!(a.name_length, 1);
    let a = attribute().at_version(22).with_sizes();
    assert_eq!(a.order, Some(DataOrder::UnorderedData));
    assert_eq!(a.enumeration_name_length, Some(1));
    // A field the version has and the record left out gets its default.
    let bare = table!(Attribute {
        name: b"b".to_vec()
    })
    .at_version(22)
    .with_sizes();
    assert_eq!(bare.fill_value_size, Some(0));
    assert_eq!(bare.fill_value, Some(Vec::new()));
    // The table's own version field is set.
    assert_eq!(schema().at_version(19).array_version, 19);
}

#[test]
fn encode_refuses_a_field_its_version_lacks() {
    // An attribute order (new in version 17) in a version 16 schema.
    let mut s = schema().at_version(16).with_sizes();
    assert!(encode(&s).is_ok());
    s.attributes[0].order = Some(DataOrder::UnorderedData);
    let err = encode(&s).unwrap_err();
    assert_eq!(
        err,
        EncodeError::Version {
            table: "Attribute",
            field: "order",
            version: 16,
            present: true
        }
    );
    assert!(
        err.to_string().contains("Attribute.order is present"),
        "{err}"
    );
    // A field the version has, left out.
    let mut f = footer(22).at_version(22).with_sizes();
    f.includes_timestamps = None;
    assert!(matches!(
        encode(&f),
        Err(EncodeError::Version {
            field: "includes_timestamps",
            present: false,
            ..
        })
    ));
}

#[test]
fn encode_refuses_a_wrong_stated_size() {
    let mut a = attribute().at_version(22).with_sizes();
    a.name_length = 2;
    assert_eq!(
        encode_at(&a, 22),
        Err(EncodeError::Size {
            table: "Attribute",
            field: "name_length",
            stated: 2,
            actual: 1
        })
    );
    // A count, nested two levels down (a schema's pipeline's filter count).
    let mut s = schema().at_version(22).with_sizes();
    s.coords_filters.num_filters = 1;
    assert!(matches!(
        encode(&s),
        Err(EncodeError::Size {
            table: "FilterPipeline",
            field: "num_filters",
            stated: 1,
            actual: 3
        })
    ));
    // The encoded size of a union (a filter's options).
    let mut f = zstd().with_sizes();
    assert_eq!(f.filter_options_size, 5);
    f.filter_options_size = 4;
    assert!(matches!(
        encode_at(&f, 22),
        Err(EncodeError::Size {
            field: "filter_options_size",
            stated: 4,
            actual: 5,
            ..
        })
    ));
}

#[test]
fn encode_refuses_a_field_its_condition_rules_out() {
    // A metadata entry's value exists only when it is not a deletion.
    let kept = table!(MetadataEntry {
        key: b"k".to_vec(),
        deletion: 0,
        value_type: Some(Datatype::Int32),
        num_values: Some(1),
        value: Some(vec![1, 0, 0, 0]),
    })
    .with_sizes();
    assert!(encode(&kept).is_ok());
    let mut deleted = kept.clone();
    deleted.deletion = 1;
    let err = encode(&deleted).unwrap_err();
    assert_eq!(
        err,
        EncodeError::Condition {
            table: "MetadataEntry",
            field: "value_type",
            condition: "deletion == 0",
            present: true
        }
    );
    assert!(
        err.to_string().contains(
            "MetadataEntry.value_type is present, but its condition `deletion == 0` does not hold"
        ),
        "{err}"
    );
    // ... and a kept entry without its value.
    let mut bare = kept;
    bare.value = None;
    assert!(matches!(
        encode(&bare),
        Err(EncodeError::Condition {
            field: "value",
            present: false,
            ..
        })
    ));
    // A named group member without its name, inside a record.
    let mut details = table!(GroupDetails {
        members: vec![table!(GroupMember {
            object_type: ObjectType::Array,
            uri: b"a".to_vec(),
            name_set: 1,
            name: Some(b"a".to_vec()),
        })],
    })
    .at_version(2)
    .with_sizes();
    assert!(encode(&details).is_ok());
    details.members[0].name = None;
    details.members[0].name_length = None;
    assert!(matches!(
        encode(&details),
        Err(EncodeError::Condition {
            table: "GroupMember",
            field: "name_length",
            condition: "name_set != 0",
            present: false
        })
    ));
    // A condition on top of a version gate: a footer that says its
    // non-empty domain is null, and holds one.
    let mut f = footer(22).at_version(22).with_sizes();
    assert!(encode(&f).is_ok());
    f.null_non_empty_domain = 1;
    assert!(matches!(
        encode(&f),
        Err(EncodeError::Condition {
            table: "FragmentFooter",
            field: "non_empty_domain",
            present: true,
            ..
        })
    ));
    // A condition on a field named by text (a consolidated commit's delete
    // tile comes with a `.del` URI only).
    let commit = table!(ConsolidatedCommit {
        uri: b"__commits/__1_1_x_22.wrt".to_vec(),
        delete_tile: Some(vec![1, 2, 3]),
    })
    .with_sizes();
    assert!(matches!(
        encode(&commit),
        Err(EncodeError::Condition {
            field: "delete_tile_size",
            present: true,
            ..
        })
    ));
}

#[test]
fn outside_sizes_come_from_the_bytes_outside_the_record() {
    // A generic tile header states the size of the tile after it and of
    // the data before its filters: neither is in the record.
    let (persisted, unfiltered) = (vec![7u8; 10], vec![1u8; 25]);
    let h = table!(GenericTileHeader {
        datatype: Datatype::Char,
        cell_size: 1,
        filter_pipeline: pipeline(),
    })
    .at_version(22)
    .with_sizes()
    .with_outside_sizes(&persisted, &unfiltered)
    .unwrap();
    assert_eq!((h.persisted_size, h.tile_size), (10, 25));
    assert_eq!(h.check_outside_sizes(&persisted, &unfiltered), Ok(()));
    assert_eq!(
        h.check_outside_sizes(&persisted[..9], &unfiltered),
        Err(EncodeError::Size {
            table: "GenericTileHeader",
            field: "persisted_size",
            stated: 10,
            actual: 9
        })
    );
    assert!(matches!(
        h.check_outside_sizes(&persisted, &[]),
        Err(EncodeError::Size {
            field: "tile_size",
            stated: 25,
            actual: 0,
            ..
        })
    ));
    // The header reads back with the sizes it states.
    let back: GenericTileHeader = decode_all(&encode(&h).unwrap(), 0, ()).unwrap();
    assert_eq!((back.persisted_size, back.tile_size), (10, 25));
    // A chunk header's three lengths, and the length after a footer.
    let c = ChunkHeader::default()
        .with_outside_sizes(&[0; 100], &[0; 40], &[0; 8])
        .unwrap();
    assert_eq!(
        (c.original_length, c.filtered_length, c.metadata_length),
        (100, 40, 8)
    );
    let footer_bytes = encode(&footer(22).at_version(22).with_sizes()).unwrap();
    let len = FooterLength::default()
        .with_outside_sizes(&footer_bytes)
        .unwrap();
    assert_eq!(len.footer_length, footer_bytes.len() as u64);
}

#[test]
fn a_list_of_outside_sizes_comes_from_one_slice_each() {
    // A shuffle's chunk metadata states the length of every data part it
    // shuffled; the parts are in the chunk data, not in the record.
    let parts: [&[u8]; 3] = [&[1; 12], &[], &[2; 5]];
    let md = table!(ShuffleChunkMetadata {})
        .with_outside_sizes(&parts)
        .unwrap()
        .with_sizes();
    assert_eq!((md.num_parts, md.part_lengths.clone()), (3, vec![12, 0, 5]));
    assert_eq!(md.check_outside_sizes(&parts), Ok(()));
    assert_eq!(
        md.check_outside_sizes(&parts[..2]),
        Err(EncodeError::Size {
            table: "ShuffleChunkMetadata",
            field: "part_lengths",
            stated: 3,
            actual: 2
        })
    );
    let other: [&[u8]; 3] = [&[1; 12], &[], &[2; 4]];
    assert_eq!(
        md.check_outside_sizes(&other),
        Err(EncodeError::Size {
            table: "ShuffleChunkMetadata",
            field: "part_lengths",
            stated: 5,
            actual: 4
        })
    );
    // The count is the record's own: encode refuses one that disagrees.
    let mut wrong = md.clone();
    wrong.num_parts = 2;
    assert!(matches!(
        encode(&wrong),
        Err(EncodeError::Size {
            field: "num_parts",
            ..
        })
    ));
    let back: ShuffleChunkMetadata = decode_all(&encode(&md).unwrap(), 0, ()).unwrap();
    assert_eq!(back, md);
    // An integer stating the size of a list outside states their total.
    let bw = table!(BitWidthReductionChunkMetadata {})
        .with_outside_sizes(&[vec![0u8; 16], vec![0u8; 8]])
        .unwrap();
    assert_eq!(bw.input_length, 24);
    assert!(matches!(
        bw.check_outside_sizes(&[vec![0u8; 16]]),
        Err(EncodeError::Size {
            field: "input_length",
            stated: 24,
            actual: 16,
            ..
        })
    ));
    // Per-part records: a compressed part's, an encrypted part's, a window's.
    let c = CompressedPartMd::default()
        .with_outside_sizes(&[0; 30], &[0; 7])
        .unwrap();
    assert_eq!((c.part_original_length, c.part_compressed_length), (30, 7));
    assert!(c.check_outside_sizes(&[0; 30], &[0; 8]).is_err());
    let a = AesPart::default()
        .with_outside_sizes(&[0; 3], &[0; 3])
        .unwrap();
    assert_eq!((a.plaintext_length, a.encrypted_length), (3, 3));
    let w = PositiveDeltaWindowMd::default()
        .with_outside_sizes(&[0; 64])
        .unwrap();
    assert_eq!(w.window_length, 64);
    let e = ChecksumEntry::default()
        .with_outside_sizes(&[0; 9])
        .unwrap();
    assert_eq!(e.checksummed_bytes, 9);
}

#[test]
fn fixed_counts_are_set_by_with_sizes_and_checked() {
    let strings = b"abcab";
    let md = table!(RleStringsChunkMetadata {
        run_length_width: 1,
        string_length_width: 1,
    })
    .with_outside_sizes(strings, &[0; 4], &[0; 16])
    .unwrap()
    .with_sizes();
    assert_eq!(
        (
            md.num_metadata_parts,
            md.num_data_parts,
            md.original_length,
            md.compressed_length,
            md.offsets_length
        ),
        (0, 1, 5, 4, 16)
    );
    assert!(encode(&md).is_ok());
    let mut wrong = md.clone();
    wrong.num_data_parts = 2;
    assert_eq!(
        encode(&wrong),
        Err(EncodeError::Size {
            table: "RleStringsChunkMetadata",
            field: "num_data_parts",
            stated: 2,
            actual: 1
        })
    );
    let d = table!(DictionaryChunkMetadata {
        num_metadata_parts: 3,
        dictionary: vec![0, 1, b'a'],
    })
    .with_sizes();
    assert_eq!((d.num_metadata_parts, d.dictionary_length), (0, 3));
}

#[test]
fn a_length_of_the_width_an_import_gives_is_set_where_present() {
    // A dictionary string's length is stored in one of four widths: the
    // writer marks the one present, `with_sizes` sets it.
    let e = table!(DictionaryEntry {
        length_u16: Some(0),
        string: b"hello".to_vec(),
    })
    .with_sizes();
    assert_eq!(
        (e.length_u8, e.length_u16, e.length_u64),
        (None, Some(5), None)
    );
    assert_eq!(encode(&e).unwrap(), [0, 5, b'h', b'e', b'l', b'l', b'o']);
    let mut long = e.clone();
    long.string = vec![0; 300];
    long.length_u16 = None;
    long.length_u8 = Some(0);
    let long = long.with_sizes();
    // 300 does not fit a byte: the record is refused, not truncated.
    assert!(matches!(
        encode(&long),
        Err(EncodeError::Size {
            table: "DictionaryEntry",
            field: "length_u8",
            stated: 44,
            actual: 300
        })
    ));
}

#[test]
fn a_streamed_tile_is_its_head_then_its_chunks() {
    let chunk = |n: usize| {
        let (meta, data) = (vec![1u8; n], vec![2u8; 2 * n]);
        table!(Chunk {
            header: ChunkHeader::default()
                .with_outside_sizes(&vec![0; 3 * n], &data, &meta)
                .unwrap(),
            metadata: meta,
            filtered_data: data,
        })
    };
    let chunks = vec![chunk(1), chunk(4), chunk(0)];
    let mut streamed = Tile::head(chunks.len()).unwrap();
    assert_eq!(streamed.len(), Tile::OFFSET_CHUNKS);
    for c in &chunks {
        streamed.extend_from_slice(&encode(c).unwrap());
    }
    let whole = table!(Tile { chunks }).with_sizes();
    assert_eq!(streamed, encode(&whole).unwrap());
    assert_eq!(Tile::head(0).unwrap(), 0u64.to_le_bytes());
}

#[test]
fn a_streamed_delta_part_is_its_head_then_its_values() {
    // Three 4-byte deltas streamed after the head that counts them.
    let values: Vec<u8> = [7i32, 1, -2].iter().flat_map(|v| v.to_le_bytes()).collect();
    let mut streamed = DeltaPart::head(3).unwrap();
    assert_eq!(streamed.len(), DeltaPart::OFFSET_VALUES);
    streamed.extend_from_slice(&values);
    let whole = table!(DeltaPart { n: 3, values });
    assert_eq!(streamed, encode(&whole).unwrap());
    let (back, used) = decode::<DeltaPart>(&streamed, 0, (4,)).unwrap();
    assert_eq!((back, used as usize), (whole, streamed.len()));
}

#[test]
fn append_writes_the_record_encode_writes_with_its_lengths_computed() {
    // RLE string runs at every width pair: `append` writes what `encode`
    // writes of the record `with_sizes` completes.
    for rw in [1u8, 2, 4, 8] {
        for sw in [1u8, 2, 4, 8] {
            let n = 200u64;
            let run = table!(RleStringRun {
                run_length_u8: (rw == 1).then_some(n as u8),
                run_length_u16: (rw == 2).then_some(n as u16),
                run_length_u32: (rw == 4).then_some(n as u32),
                run_length_u64: (rw == 8).then_some(n),
                string_length_u8: (sw == 1).then_some(0),
                string_length_u16: (sw == 2).then_some(0),
                string_length_u32: (sw == 4).then_some(0),
                string_length_u64: (sw == 8).then_some(0),
                string: b"abc".to_vec(),
            })
            .with_sizes();
            let mut out = vec![9u8];
            RleStringRun::append(
                &mut out,
                (rw, sw),
                (
                    run.run_length_u8,
                    run.run_length_u16,
                    run.run_length_u32,
                    run.run_length_u64,
                    b"abc",
                ),
            )
            .unwrap();
            assert_eq!(out[0], 9, "append keeps what `out` held");
            assert_eq!(out[1..], encode(&run).unwrap(), "widths {rw}, {sw}");
            assert_eq!(out.len(), 1 + usize::from(rw + sw) + 3);
        }
    }
    let mut out = Vec::new();
    DictionaryEntry::append(&mut out, (2,), (b"hello",)).unwrap();
    assert_eq!(out, [0, 5, b'h', b'e', b'l', b'l', b'o']);
    // A wrong length is refused: by `encode` of the record, and by `append`
    // when the string does not fit the width (not truncated).
    let mut wrong = table!(RleStringRun {
        run_length_u8: Some(1),
        string_length_u8: Some(0),
        string: b"abc".to_vec(),
    })
    .with_sizes();
    wrong.string_length_u8 = Some(2);
    assert!(matches!(
        encode(&wrong),
        Err(EncodeError::Size {
            table: "RleStringRun",
            field: "string_length_u8",
            stated: 2,
            actual: 3
        })
    ));
    let long = vec![0u8; 300];
    assert!(matches!(
        RleStringRun::append(&mut out, (1, 1), (Some(1), None, None, None, &long)),
        Err(EncodeError::Size {
            table: "RleStringRun",
            field: "string_length_u8",
            stated: 44,
            actual: 300
        })
    ));
    assert!(matches!(
        DictionaryEntry::append(&mut out, (1,), (&long,)),
        Err(EncodeError::Size {
            table: "DictionaryEntry",
            field: "length_u8",
            actual: 300,
            ..
        })
    ));
    // A run length in a field its width rules out, or missing from the
    // field it picks, is refused.
    for (rw, r8, r16) in [
        (1u8, None, Some(1u16)),
        (2, None, None),
        (2, Some(1u8), Some(1)),
    ] {
        assert!(matches!(
            RleStringRun::append(&mut out, (rw, 1), (r8, r16, None, None, b"x")),
            Err(EncodeError::Condition {
                table: "RleStringRun",
                ..
            })
        ));
    }
}

#[test]
fn a_var_range_states_its_minimums_length_from_the_minimum() {
    // `range` holds the minimum joined to the maximum; `min_length` is the
    // minimum's length, set from it where present (a var-sized range).
    let (lo, hi) = (b"apple".as_slice(), b"kiwi".as_slice());
    let r = table!(Range1D {
        range_length: Some(0),
        min_length: Some(0),
        range: [lo, hi].concat(),
    })
    .with_outside_sizes(lo)
    .unwrap()
    .with_sizes();
    assert_eq!((r.range_length, r.min_length), (Some(9), Some(5)));
    assert!(r.check_outside_sizes(lo).is_ok());
    let mut bytes = 9u64.to_le_bytes().to_vec();
    bytes.extend_from_slice(&5u64.to_le_bytes());
    bytes.extend_from_slice(b"applekiwi");
    assert_eq!(encode(&r).unwrap(), bytes);
    // A wrong stated length is refused against the minimum.
    let mut wrong = r.clone();
    wrong.min_length = Some(4);
    assert!(matches!(
        wrong.check_outside_sizes(lo),
        Err(EncodeError::Size {
            table: "Range1D",
            field: "min_length",
            stated: 4,
            actual: 5
        })
    ));
    // A fixed-size range has no length: it stays absent.
    let fixed = table!(Range1D { range: vec![1, 2] })
        .with_outside_sizes(&[1])
        .unwrap();
    assert_eq!(fixed.min_length, None);
    assert!(fixed.check_outside_sizes(&[]).is_ok());
}
