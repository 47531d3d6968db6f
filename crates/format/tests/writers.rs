//! Every table and union of `spec/` written through the generated writers
//! (`Record::at_version`, `Record::with_sizes`, `encode_checked`) at every
//! format version this crate writes, read back, and compared: the record
//! read is the record written, and it encodes to the same bytes. A table of
//! `SPEC_TABLES` without a case here fails the test, so a new table's first
//! consumer is this test. Also: `encode_checked` refuses records whose
//! optional fields disagree with their version or whose stated sizes
//! disagree with their contents.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::Arc;

use binrw::{BinRead, BinWrite};
use tiledb_codec_format::version::{
    has_cell_delete_metadata, has_cell_timestamps, has_delta_reinterpret_datatype,
    MAX_WRITE_VERSION, MIN_WRITE_VERSION,
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
    let bytes = encode_checked(&record, Some(version))
        .unwrap_or_else(|e| panic!("{name} at version {version} refused: {e}\n{record:?}"));
    let back: T = decode_all(&bytes, 0, args)
        .unwrap_or_else(|e| panic!("{name} at version {version} does not read back: {e}"));
    assert_eq!(back, record, "{name} at version {version}");
    assert_eq!(
        encode(&back),
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
            })),
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

/// Every table and union, written at every version; returns the names done.
#[allow(clippy::too_many_lines)] // One case per table of the spec.
fn every_case() -> BTreeSet<&'static str> {
    let mut done = BTreeSet::new();
    macro_rules! case {
        ($ty:ident, |$v:ident| $sample:expr, $args:expr) => {{
            done.insert(stringify!($ty));
            for $v in versions() {
                round_trip::<$ty>(stringify!($ty), $sample, $v, $args);
            }
        }};
    }
    let d = dims;
    case!(ArraySchema, |v| schema(), ());
    case!(Domain, |v| schema().domain, (v,));
    case!(Dimension, |v| dimension(), (v, Datatype::Int32));
    case!(Attribute, |v| attribute(), (v,));
    case!(DimensionLabel, |v| label(), ());
    case!(
        EnumerationEntry,
        |v| schema().enumerations.unwrap()[0].clone(),
        ()
    );
    case!(CurrentDomain, |v| current_domain(), (d(),));
    case!(FilterPipeline, |v| pipeline(), (v,));
    case!(Filter, |v| zstd(), (v,));
    case!(
        CompressorOptions,
        |v| table!(CompressorOptions {
            compressor_type: Compressor::Lz4,
            compression_level: -1
        }),
        (FilterType::Lz4, v)
    );
    case!(
        FilterOptions,
        |v| zstd().filter_options,
        (FilterType::Zstd, v)
    );
    case!(
        BitWidthReductionOptions,
        |v| table!(BitWidthReductionOptions { max_window_size: 7 }),
        ()
    );
    case!(
        PositiveDeltaOptions,
        |v| table!(PositiveDeltaOptions { max_window_size: 9 }),
        ()
    );
    case!(
        FloatScaleOptions,
        |v| table!(FloatScaleOptions {
            scale: 0.5,
            offset: 1.0,
            byte_width: 4
        }),
        ()
    );
    case!(
        WebpOptions,
        |v| table!(WebpOptions {
            quality: 90.0,
            input_format: WebpInputFormat::Rgb,
            lossless: 0,
            y_extent: 8,
            x_extent: 24,
            padding: vec![0, 0]
        }),
        ()
    );
    // A DELTA filter's reinterpret datatype, where the version stores it.
    for v in versions().filter(|v| has_delta_reinterpret_datatype(*v)) {
        let options = table!(CompressorOptions {
            compressor_type: Compressor::Delta,
            compression_level: 0,
            reinterpret_datatype: Some(Datatype::Int32),
        });
        round_trip(
            "CompressorOptions (DELTA)",
            options,
            v,
            (FilterType::Delta, v),
        );
    }
    case!(
        Enumeration,
        |v| table!(Enumeration {
            name: b"e".to_vec(),
            path_name: b"__e_0".to_vec(),
            datatype: Datatype::StringAscii,
            cell_val_num: VAR_NUM,
            data: b"redgreen".to_vec(),
            offsets_size: Some(0),
            offsets: Some([0u64, 3].iter().flat_map(|o| o.to_le_bytes()).collect())
        }),
        ()
    );
    case!(ConditionNode, |v| condition(), (0,));
    case!(
        ConditionNodeBody,
        |v| condition().body,
        (ConditionNodeType::Expression, 0)
    );
    case!(
        ExpressionNode,
        |v| match condition().body {
            ConditionNodeBody::Expression(e) => e,
            _ => unreachable!(),
        },
        (0,)
    );
    case!(
        ValueNode,
        |v| match value_node().body {
            ConditionNodeBody::Value(n) => n,
            _ => unreachable!(),
        },
        ()
    );
    case!(
        UpdateCommit,
        |v| table!(UpdateCommit {
            condition: condition(),
            values: vec![table!(UpdateValue {
                field_name: b"a".to_vec(),
                value: vec![1, 2, 3, 4]
            })]
        }),
        ()
    );
    case!(
        UpdateValue,
        |v| table!(UpdateValue {
            field_name: b"b".to_vec(),
            value: vec![5]
        }),
        ()
    );
    case!(
        ConsolidatedCommits,
        |v| table!(ConsolidatedCommits {
            entries: vec![table!(ConsolidatedCommit {
                uri: b"__fragments/__1_1_x_22".to_vec()
            })]
        }),
        ()
    );
    case!(
        ConsolidatedCommit,
        |v| table!(ConsolidatedCommit {
            uri: b"__commits/__1_1_x_22.wrt".to_vec()
        }),
        ()
    );
    case!(
        ConsolidatedFragmentMetadata,
        |v| table!(ConsolidatedFragmentMetadata {
            fragments: vec![table!(ConsolidatedFragmentEntry {
                name: b"__1_1_x_22".to_vec(),
                offset: 12
            })]
        }),
        ()
    );
    case!(
        ConsolidatedFragmentEntry,
        |v| table!(ConsolidatedFragmentEntry {
            name: b"__2_2_y_22".to_vec(),
            offset: 3
        }),
        ()
    );
    case!(FragmentFooter, |v| footer(v), (d(), 1));
    case!(FooterLength, |v| FooterLength::of(&[0; 40]), ());
    case!(
        OptionalSection,
        |v| footer(v).optional_sections.unwrap()[0].clone(),
        ()
    );
    case!(
        TileGlobalOrderBounds,
        |v| table!(TileGlobalOrderBounds {
            min_offsets: vec![1, 2],
            max_offsets: vec![3, 4]
        }),
        (2,)
    );
    case!(
        RTree,
        |v| table!(RTree {
            fanout: 10,
            levels: vec![
                table!(RTreeLevel { mbrs: vec![mbr()] }),
                table!(RTreeLevel {
                    mbrs: vec![mbr(), mbr()]
                })
            ]
        }),
        (v, d())
    );
    case!(
        RTreeLevel,
        |v| table!(RTreeLevel { mbrs: vec![mbr()] }),
        (d(),)
    );
    case!(Mbr, |v| mbr(), (d(),));
    case!(Range1D, |v| range(b"abc", true), (0,));
    case!(
        TileOffsets,
        |v| table!(TileOffsets {
            values: vec![0, 100, 250]
        }),
        ()
    );
    case!(
        TileMinMax,
        |v| table!(TileMinMax {
            fixed: vec![0; 16],
            var: b"abcd".to_vec()
        }),
        ()
    );
    case!(
        TileSums,
        |v| table!(TileSums {
            values: vec![1, 2, 3]
        }),
        ()
    );
    case!(
        TileNullCounts,
        |v| table!(TileNullCounts { values: vec![0, 1] }),
        ()
    );
    case!(
        FragmentMinMaxSumNullCount,
        |v| table!(FragmentMinMaxSumNullCount {
            fields: vec![min_max_entry(), min_max_entry()]
        }),
        (2,)
    );
    case!(FieldMinMaxSumNullCount, |v| min_max_entry(), ());
    case!(
        ProcessedConditions,
        |v| table!(ProcessedConditions {
            conditions: vec![table!(ProcessedCondition {
                condition: b"__1_1_x_22.del".to_vec()
            })]
        }),
        ()
    );
    case!(
        ProcessedCondition,
        |v| table!(ProcessedCondition {
            condition: b"__2_2_y_22.del".to_vec()
        }),
        ()
    );
    case!(
        LegacyFragmentMetadata,
        |v| table!(LegacyFragmentMetadata {
            version_number: 2,
            non_empty_domain: vec![0; 8],
            num_mbrs: 1,
            mbrs: vec![0; 8],
            num_bounding_coords: 1,
            bounding_coords: vec![0; 8],
            tile_offsets: table!(LegacyTileOffsets {
                lists: vec![table!(TileOffsets { values: vec![0] }); 2]
            }),
            tile_var_offsets: table!(LegacyTileOffsets {
                lists: vec![table!(TileOffsets { values: vec![] })]
            }),
            tile_var_sizes: table!(LegacyTileOffsets {
                lists: vec![table!(TileOffsets { values: vec![] })]
            }),
            last_tile_cell_num: 4,
            file_sizes: vec![8, 16],
            file_var_sizes: vec![0]
        }),
        (1, 8, 8)
    );
    case!(
        LegacyTileOffsets,
        |v| table!(LegacyTileOffsets {
            lists: vec![table!(TileOffsets { values: vec![1, 2] }); 3]
        }),
        (3,)
    );
    case!(
        GenericTileHeader,
        |v| table!(GenericTileHeader {
            persisted_size: 10,
            tile_size: 10,
            datatype: Datatype::Char,
            cell_size: 1,
            encryption_type: EncryptionType::NoEncryption,
            filter_pipeline: pipeline()
        }),
        ()
    );
    case!(
        GroupDetails,
        |v| table!(GroupDetails {
            members: vec![table!(GroupMember {
                object_type: ObjectType::Array,
                relative: 1,
                uri: b"a".to_vec(),
                name_set: 1,
                name: Some(b"a".to_vec()),
                deleted: Some(0)
            })]
        }),
        ()
    );
    case!(
        GroupMember,
        |v| table!(GroupMember {
            version: 2,
            object_type: ObjectType::Group,
            relative: 0,
            uri: b"file:///g".to_vec(),
            name_set: 0,
            deleted: Some(1)
        }),
        ()
    );
    case!(
        IgnoreFile,
        |v| table!(IgnoreFile {
            entries: vec![table!(IgnoreEntry {
                uri: b"__commits/__1_1_x_22.wrt".to_vec()
            })]
        }),
        ()
    );
    case!(
        IgnoreEntry,
        |v| table!(IgnoreEntry { uri: b"x".to_vec() }),
        ()
    );
    case!(
        VacuumFile,
        |v| table!(VacuumFile {
            entries: vec![table!(VacuumEntry {
                uri: b"/__fragments/__1_1_x_22".to_vec()
            })]
        }),
        ()
    );
    case!(
        VacuumEntry,
        |v| table!(VacuumEntry { uri: b"y".to_vec() }),
        ()
    );
    case!(
        ArrayMetadata,
        |v| table!(ArrayMetadata {
            entries: vec![table!(MetadataEntry {
                key: b"k".to_vec(),
                deletion: 0,
                value_type: Some(Datatype::Int32),
                num_values: Some(1),
                value: Some(vec![1, 0, 0, 0])
            })]
        }),
        ()
    );
    case!(
        MetadataEntry,
        |v| table!(MetadataEntry {
            key: b"gone".to_vec(),
            deletion: 1
        }),
        ()
    );
    case!(
        ChunkHeader,
        |v| table!(ChunkHeader {
            original_length: 4,
            filtered_length: 2,
            metadata_length: 1
        }),
        ()
    );
    case!(
        Chunk,
        |v| table!(Chunk {
            header: table!(ChunkHeader {
                original_length: 4,
                filtered_length: 2,
                metadata_length: 1
            }),
            metadata: vec![9],
            filtered_data: vec![1, 2]
        }),
        ()
    );
    case!(
        Tile,
        |v| table!(Tile {
            chunks: vec![table!(Chunk {
                header: table!(ChunkHeader {
                    original_length: 1,
                    filtered_length: 1,
                    metadata_length: 0
                }),
                filtered_data: vec![5]
            })]
        }),
        ()
    );
    case!(
        CompressionChunkMetadata,
        |v| table!(CompressionChunkMetadata {
            metadata_parts: vec![table!(CompressedPartMd {
                part_original_length: 4,
                part_compressed_length: 2
            })],
            data_parts: vec![]
        }),
        ()
    );
    case!(
        CompressedPartMd,
        |v| table!(CompressedPartMd {
            part_original_length: 8,
            part_compressed_length: 3
        }),
        ()
    );
    case!(
        ShuffleChunkMetadata,
        |v| table!(ShuffleChunkMetadata {
            part_lengths: vec![4, 4]
        }),
        ()
    );
    case!(
        FloatScaleChunkMetadata,
        |v| table!(FloatScaleChunkMetadata {
            part_lengths: vec![8]
        }),
        ()
    );
    case!(
        BitWidthReductionChunkMetadata,
        |v| table!(BitWidthReductionChunkMetadata {
            input_length: 8,
            windows: vec![table!(BitWidthReductionWindowMd {
                value_offset: vec![0; 4],
                bit_width: 3,
                window_length: 2
            })]
        }),
        (4,)
    );
    case!(
        BitWidthReductionWindowMd,
        |v| table!(BitWidthReductionWindowMd {
            value_offset: vec![1; 8],
            bit_width: 7,
            window_length: 9
        }),
        (8,)
    );
    case!(
        PositiveDeltaChunkMetadata,
        |v| table!(PositiveDeltaChunkMetadata {
            windows: vec![table!(PositiveDeltaWindowMd {
                value_offset: vec![0; 2],
                window_length: 2
            })]
        }),
        (2,)
    );
    case!(
        PositiveDeltaWindowMd,
        |v| table!(PositiveDeltaWindowMd {
            value_offset: vec![3; 2],
            window_length: 6
        }),
        (2,)
    );
    case!(ChecksumChunkMetadata, |v| checksums(), (16,));
    case!(
        ChecksumEntry,
        |v| checksums().data_checksums[0].clone(),
        (16,)
    );
    case!(
        EncryptionChunkMetadata,
        |v| table!(EncryptionChunkMetadata {
            num_metadata_parts: 0,
            num_data_parts: 1,
            data_parts: vec![table!(AesPart {
                plaintext_length: 4,
                encrypted_length: 4,
                iv: vec![1; 12],
                tag: vec![2; 16]
            })]
        }),
        ()
    );
    case!(
        AesPart,
        |v| table!(AesPart {
            plaintext_length: 1,
            encrypted_length: 1,
            iv: vec![3; 12],
            tag: vec![4; 16]
        }),
        ()
    );
    case!(
        DeltaPart,
        |v| table!(DeltaPart {
            n: 2,
            values: vec![0; 8]
        }),
        (4,)
    );
    case!(
        DoubleDeltaHeader,
        |v| table!(DoubleDeltaHeader { bitsize: 3, n: 9 }),
        ()
    );
    case!(
        DictionaryChunkMetadata,
        |v| table!(DictionaryChunkMetadata {
            id_width: 1,
            string_length_width: 1,
            dictionary: vec![2, b'a', b'b']
        }),
        ()
    );
    case!(
        DictionaryEntry,
        |v| table!(DictionaryEntry {
            length_u16: Some(2),
            string: b"ab".to_vec()
        }),
        (2,)
    );
    case!(
        DictionaryWordId,
        |v| table!(DictionaryWordId { id_u32: Some(7) }),
        (4,)
    );
    case!(
        RleRun,
        |v| table!(RleRun {
            value: vec![1, 2, 3, 4],
            run_length: 3
        }),
        (4,)
    );
    case!(
        RleStringsChunkMetadata,
        |v| table!(RleStringsChunkMetadata {
            run_length_width: 1,
            string_length_width: 2
        }),
        ()
    );
    case!(
        RleStringRun,
        |v| table!(RleStringRun {
            run_length_u8: Some(2),
            string_length_u16: Some(3),
            string: b"abc".to_vec()
        }),
        (1, 2)
    );
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
    assert!(encode_checked(&s, None).is_ok());
    s.attributes[0].order = Some(DataOrder::UnorderedData);
    let err = encode_checked(&s, None).unwrap_err();
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
        encode_checked(&f, None),
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
        encode_checked(&a, Some(22)),
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
        encode_checked(&s, None),
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
        encode_checked(&f, Some(22)),
        Err(EncodeError::Size {
            field: "filter_options_size",
            stated: 4,
            actual: 5,
            ..
        })
    ));
}
