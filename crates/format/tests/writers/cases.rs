//! The cases of `writers.rs`: a sample record of every table and union of
//! `spec/`, with the arguments it is read back with.

use std::collections::BTreeSet;

use tiledb_codec_format::version::has_delta_reinterpret_datatype;

use super::*;

/// Writes `$ty` at every version (the sample from `|v| ..`, read back with
/// the arguments given) and notes it in `$done`.
macro_rules! case {
    ($done:ident, $ty:ident, |$v:ident| $sample:expr, $args:expr) => {{
        $done.insert(stringify!($ty));
        for $v in versions() {
            round_trip::<$ty>(stringify!($ty), $sample, $v, $args);
        }
    }};
}

/// Part 1 of every table and union of the spec (in `SPEC_TABLES` order).
pub(super) fn cases_1(done: &mut BTreeSet<&'static str>) {
    case!(done, ArraySchema, |v| schema(), ());
    case!(done, Domain, |v| schema().domain, (v,));
    case!(done, Dimension, |v| dimension(), (v, Datatype::Int32));
    case!(done, Attribute, |v| attribute(), (v,));
    case!(done, DimensionLabel, |v| label(), ());
    case!(
        done,
        EnumerationEntry,
        |v| schema().enumerations.unwrap()[0].clone(),
        ()
    );
    case!(done, CurrentDomain, |v| current_domain(), (dims(),));
    case!(done, FilterPipeline, |v| pipeline(), (v,));
    case!(done, Filter, |v| zstd(), (v,));
    case!(
        done,
        CompressorOptions,
        |v| table!(CompressorOptions {
            compressor_type: Compressor::Lz4,
            compression_level: -1
        }),
        (FilterType::Lz4, v)
    );
    case!(
        done,
        FilterOptions,
        |v| zstd().filter_options,
        (FilterType::Zstd, v)
    );
    case!(
        done,
        BitWidthReductionOptions,
        |v| table!(BitWidthReductionOptions { max_window_size: 7 }),
        ()
    );
    case!(
        done,
        PositiveDeltaOptions,
        |v| table!(PositiveDeltaOptions { max_window_size: 9 }),
        ()
    );
    case!(
        done,
        FloatScaleOptions,
        |v| table!(FloatScaleOptions {
            scale: 0.5,
            offset: 1.0,
            byte_width: 4
        }),
        ()
    );
    case!(
        done,
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
        done,
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
    case!(done, ConditionNode, |v| condition(), (0,));
    case!(
        done,
        ConditionNodeBody,
        |v| condition().body,
        (ConditionNodeType::Expression, 0)
    );
    case!(
        done,
        ExpressionNode,
        |v| match condition().body {
            ConditionNodeBody::Expression(e) => e,
            _ => unreachable!(),
        },
        (0,)
    );
    case!(
        done,
        ValueNode,
        |v| match value_node().body {
            ConditionNodeBody::Value(n) => n,
            _ => unreachable!(),
        },
        ()
    );
    case!(
        done,
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
        done,
        UpdateValue,
        |v| table!(UpdateValue {
            field_name: b"b".to_vec(),
            value: vec![5]
        }),
        ()
    );
    case!(
        done,
        ConsolidatedCommits,
        |v| table!(ConsolidatedCommits {
            entries: vec![table!(ConsolidatedCommit {
                uri: b"__fragments/__1_1_x_22".to_vec()
            })]
        }),
        ()
    );
}

/// Part 2 of every table and union of the spec (in `SPEC_TABLES` order).
pub(super) fn cases_2(done: &mut BTreeSet<&'static str>) {
    case!(
        done,
        ConsolidatedCommit,
        |v| table!(ConsolidatedCommit {
            uri: b"__commits/__1_1_x_22.wrt".to_vec()
        }),
        ()
    );
    case!(
        done,
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
        done,
        ConsolidatedFragmentEntry,
        |v| table!(ConsolidatedFragmentEntry {
            name: b"__2_2_y_22".to_vec(),
            offset: 3
        }),
        ()
    );
    case!(done, FragmentFooter, |v| footer(v), (dims(), 1));
    case!(
        done,
        FooterLength,
        |v| FooterLength::default()
            .with_outside_sizes(&[0; 40])
            .unwrap(),
        ()
    );
    case!(
        done,
        OptionalSection,
        |v| footer(v).optional_sections.unwrap()[0].clone(),
        ()
    );
    case!(
        done,
        TileGlobalOrderBounds,
        |v| table!(TileGlobalOrderBounds {
            min_offsets: vec![1, 2],
            max_offsets: vec![3, 4]
        }),
        (2,)
    );
    case!(
        done,
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
        (v, dims())
    );
    case!(
        done,
        RTreeLevel,
        |v| table!(RTreeLevel { mbrs: vec![mbr()] }),
        (dims(),)
    );
    case!(done, Mbr, |v| mbr(), (dims(),));
    case!(done, Range1D, |v| range(b"abc", true), (0,));
    case!(
        done,
        TileOffsets,
        |v| table!(TileOffsets {
            values: vec![0, 100, 250]
        }),
        ()
    );
    case!(
        done,
        TileSizes,
        |v| table!(TileSizes {
            values: vec![12, 0, 7]
        }),
        ()
    );
    case!(
        done,
        TileMinMax,
        |v| table!(TileMinMax {
            fixed: vec![0; 16],
            var: b"abcd".to_vec()
        }),
        ()
    );
    case!(
        done,
        TileSums,
        |v| table!(TileSums {
            values: vec![1, 2, 3]
        }),
        ()
    );
    case!(
        done,
        TileNullCounts,
        |v| table!(TileNullCounts { values: vec![0, 1] }),
        ()
    );
    case!(
        done,
        FragmentMinMaxSumNullCount,
        |v| table!(FragmentMinMaxSumNullCount {
            fields: vec![min_max_entry(), min_max_entry()]
        }),
        (2,)
    );
    case!(done, FieldMinMaxSumNullCount, |v| min_max_entry(), ());
    case!(
        done,
        ProcessedConditions,
        |v| table!(ProcessedConditions {
            conditions: vec![table!(ProcessedCondition {
                condition: b"__1_1_x_22.del".to_vec()
            })]
        }),
        ()
    );
    case!(
        done,
        ProcessedCondition,
        |v| table!(ProcessedCondition {
            condition: b"__2_2_y_22.del".to_vec()
        }),
        ()
    );
}

/// Part 3 of every table and union of the spec (in `SPEC_TABLES` order).
pub(super) fn cases_3(done: &mut BTreeSet<&'static str>) {
    case!(
        done,
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
        done,
        LegacyTileOffsets,
        |v| table!(LegacyTileOffsets {
            lists: vec![table!(TileOffsets { values: vec![1, 2] }); 3]
        }),
        (3,)
    );
    case!(
        done,
        GenericTileHeader,
        |v| table!(GenericTileHeader {
            datatype: Datatype::Char,
            cell_size: 1,
            encryption_type: EncryptionType::NoEncryption,
            filter_pipeline: pipeline()
        })
        .with_outside_sizes(&[0; 10], &[0; 12])
        .unwrap(),
        ()
    );
    case!(
        done,
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
        done,
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
        done,
        IgnoreFile,
        |v| table!(IgnoreFile {
            entries: vec![table!(IgnoreEntry {
                uri: b"__commits/__1_1_x_22.wrt".to_vec()
            })]
        }),
        ()
    );
    case!(
        done,
        IgnoreEntry,
        |v| table!(IgnoreEntry { uri: b"x".to_vec() }),
        ()
    );
    case!(
        done,
        VacuumFile,
        |v| table!(VacuumFile {
            entries: vec![table!(VacuumEntry {
                uri: b"/__fragments/__1_1_x_22".to_vec()
            })]
        }),
        ()
    );
}

/// Part 6 of every table and union of the spec.
pub(super) fn cases_6(done: &mut BTreeSet<&'static str>) {
    case!(
        done,
        VacuumEntry,
        |v| table!(VacuumEntry { uri: b"y".to_vec() }),
        ()
    );
    case!(
        done,
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
        done,
        MetadataEntry,
        |v| table!(MetadataEntry {
            key: b"gone".to_vec(),
            deletion: 1
        }),
        ()
    );
    case!(
        done,
        ChunkHeader,
        |v| ChunkHeader::default()
            .with_outside_sizes(&[0; 4], &[0; 2], &[0; 1])
            .unwrap(),
        ()
    );
    case!(
        done,
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
        done,
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
        done,
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
        done,
        WebpChunkMetadata,
        |v| table!(WebpChunkMetadata {
            num_parts: 2,
            part_sizes: vec![40, 7]
        }),
        ()
    );
}

/// Part 4 of every table and union of the spec (in `SPEC_TABLES` order).
pub(super) fn cases_4(done: &mut BTreeSet<&'static str>) {
    case!(
        done,
        CompressedPartMd,
        |v| table!(CompressedPartMd {
            part_original_length: 8,
            part_compressed_length: 3
        }),
        ()
    );
    case!(
        done,
        ShuffleChunkMetadata,
        |v| table!(ShuffleChunkMetadata {
            part_lengths: vec![4, 4]
        }),
        ()
    );
    case!(
        done,
        FloatScaleChunkMetadata,
        |v| table!(FloatScaleChunkMetadata {
            part_lengths: vec![8]
        }),
        ()
    );
    case!(
        done,
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
        done,
        BitWidthReductionWindowMd,
        |v| table!(BitWidthReductionWindowMd {
            value_offset: vec![1; 8],
            bit_width: 7,
            window_length: 9
        }),
        (8,)
    );
    case!(
        done,
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
        done,
        PositiveDeltaWindowMd,
        |v| table!(PositiveDeltaWindowMd {
            value_offset: vec![3; 2],
            window_length: 6
        }),
        (2,)
    );
    case!(done, ChecksumChunkMetadata, |v| checksums(), (16,));
    case!(
        done,
        ChecksumEntry,
        |v| checksums().data_checksums[0].clone(),
        (16,)
    );
    case!(
        done,
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
        done,
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
        done,
        DeltaPart,
        |v| table!(DeltaPart {
            n: 2,
            values: vec![0; 8]
        }),
        (4,)
    );
    case!(
        done,
        DoubleDeltaHeader,
        |v| table!(DoubleDeltaHeader { bitsize: 3, n: 9 }),
        ()
    );
    case!(
        done,
        DictionaryChunkMetadata,
        |v| table!(DictionaryChunkMetadata {
            id_width: 1,
            string_length_width: 1,
            dictionary: vec![2, b'a', b'b']
        }),
        ()
    );
    case!(
        done,
        DictionaryEntry,
        |v| table!(DictionaryEntry {
            length_u16: Some(2),
            string: b"ab".to_vec()
        }),
        (2,)
    );
    case!(
        done,
        DictionaryWordId,
        |v| table!(DictionaryWordId { id_u32: Some(7) }),
        (4,)
    );
    case!(
        done,
        RleRun,
        |v| table!(RleRun {
            value: vec![1, 2, 3, 4],
            run_length: 3
        }),
        (4,)
    );
}

/// Part 5 of every table and union of the spec (in `SPEC_TABLES` order).
pub(super) fn cases_5(done: &mut BTreeSet<&'static str>) {
    case!(
        done,
        RleStringsChunkMetadata,
        |v| table!(RleStringsChunkMetadata {
            run_length_width: 1,
            string_length_width: 2
        }),
        ()
    );
    case!(
        done,
        RleStringRun,
        |v| table!(RleStringRun {
            run_length_u8: Some(2),
            string_length_u16: Some(3),
            string: b"abc".to_vec()
        }),
        (1, 2)
    );
}
