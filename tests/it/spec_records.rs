//! The sizes, field offsets and zerocopy views that build.rs generates for
//! the records of `spec/` (build/records.rs) agree with the binrw codecs:
//! a record encoded with binrw is `SIZE` bytes, reads back through its view
//! with the same values, and each field's bytes sit at its offset.

use std::path::Path;

use tiledb_codec::raw::format::table;
use tiledb_codec::raw::format::{
    decode, decode_all, encode, AesPart, AesPartRef, BitWidthReductionOptions,
    BitWidthReductionOptionsRef, ChunkHeader, ChunkHeaderRef, CompressedPartMd,
    CompressedPartMdRef, Datatype, DoubleDeltaHeader, DoubleDeltaHeaderRef, EncryptionType,
    FilterPipeline, FloatScaleOptions, FloatScaleOptionsRef, FooterLength, FooterLengthRef,
    FragmentFooter, GenericTileHeader, GenericTileHeaderRef, PositiveDeltaOptions,
    PositiveDeltaOptionsRef, Range1D, RleRun, RleStringsChunkMetadata, RleStringsChunkMetadataRef,
    Tile, TileRef, WebpInputFormat, WebpOptions, WebpOptionsRef,
};

/// Encodes `$value` with binrw and checks it against `$table::SIZE` and the
/// view `$view`: same length, same values back, the view at an odd offset
/// too (the views are unaligned).
macro_rules! fixed_record {
    ($table:ident, $view:ident, $value:expr) => {{
        let value: $table = $value;
        let bytes = encode(&value).unwrap();
        assert_eq!(bytes.len(), $table::SIZE, "{}::SIZE", stringify!($table));
        assert_eq!($view::SIZE, $table::SIZE, "{}::SIZE", stringify!($view));
        let view = $view::read(&bytes).expect("SIZE bytes hold the view");
        assert_eq!(
            view.record(),
            value,
            "{} through its view",
            stringify!($table)
        );
        assert!(
            $view::read(&bytes[..bytes.len() - 1]).is_none(),
            "{}: a byte short",
            stringify!($view)
        );
        let mut shifted = vec![0xAA];
        shifted.extend_from_slice(&bytes);
        let view = $view::read(&shifted[1..]).expect("at an odd offset");
        assert_eq!(view.record(), value);
        bytes
    }};
}

#[test]
fn fixed_size_records_match_their_binrw_encoding() {
    let b = fixed_record!(
        ChunkHeader,
        ChunkHeaderRef,
        table!(ChunkHeader {
            original_length: 0x0102_0304,
            filtered_length: 0x1112_1314,
            metadata_length: 0x2122_2324,
        })
    );
    assert_eq!(
        b[ChunkHeader::OFFSET_FILTERED_LENGTH..][..4],
        0x1112_1314u32.to_le_bytes()
    );
    assert_eq!(
        b[ChunkHeader::OFFSET_METADATA_LENGTH..][..4],
        0x2122_2324u32.to_le_bytes()
    );
    let b = fixed_record!(
        CompressedPartMd,
        CompressedPartMdRef,
        table!(CompressedPartMd {
            part_original_length: 7,
            part_compressed_length: 0xdead_beef,
        })
    );
    assert_eq!(
        b[CompressedPartMd::OFFSET_PART_COMPRESSED_LENGTH..],
        0xdead_beefu32.to_le_bytes()
    );
    let b = fixed_record!(
        DoubleDeltaHeader,
        DoubleDeltaHeaderRef,
        table!(DoubleDeltaHeader {
            bitsize: 9,
            n: 0x0102_0304_0506_0708,
        })
    );
    assert_eq!(
        b[DoubleDeltaHeader::OFFSET_N..],
        0x0102_0304_0506_0708u64.to_le_bytes()
    );
    fixed_record!(
        FooterLength,
        FooterLengthRef,
        table!(FooterLength {
            footer_length: 1234,
        })
    );
    let b = fixed_record!(
        AesPart,
        AesPartRef,
        table!(AesPart {
            plaintext_length: 5,
            encrypted_length: 6,
            iv: (0..12).collect(),
            tag: (100..116).collect(),
        })
    );
    assert_eq!(b[AesPart::OFFSET_IV], 0);
    assert_eq!(b[AesPart::OFFSET_TAG], 100);
    fixed_record!(
        BitWidthReductionOptions,
        BitWidthReductionOptionsRef,
        table!(BitWidthReductionOptions {
            max_window_size: 4096,
        })
    );
    fixed_record!(
        PositiveDeltaOptions,
        PositiveDeltaOptionsRef,
        table!(PositiveDeltaOptions {
            max_window_size: 77,
        })
    );
    let b = fixed_record!(
        FloatScaleOptions,
        FloatScaleOptionsRef,
        table!(FloatScaleOptions {
            scale: 0.5,
            offset: -3.25,
            byte_width: 4,
        })
    );
    assert_eq!(
        b[FloatScaleOptions::OFFSET_OFFSET..][..8],
        (-3.25f64).to_le_bytes()
    );
    let b = fixed_record!(
        RleStringsChunkMetadata,
        RleStringsChunkMetadataRef,
        table!(RleStringsChunkMetadata {
            num_metadata_parts: 0,
            num_data_parts: 1,
            original_length: 30,
            compressed_length: 20,
            offsets_length: 80,
            run_length_width: 2,
            string_length_width: 4,
        })
    );
    assert_eq!(b[RleStringsChunkMetadata::OFFSET_STRING_LENGTH_WIDTH], 4);
    let b = fixed_record!(
        WebpOptions,
        WebpOptionsRef,
        table!(WebpOptions {
            quality: 80.0,
            input_format: WebpInputFormat::Bgr,
            lossless: 1,
            y_extent: 300,
            x_extent: 0x0102,
            padding: vec![0, 0],
        })
    );
    assert_eq!(b[WebpOptions::OFFSET_X_EXTENT..][..2], [2, 1]);
}

#[test]
fn the_generic_tile_header_view_reads_the_fixed_fields_in_place() {
    let pipeline = table!(FilterPipeline {
        max_chunk_size: 65536,
        num_filters: 0,
        filters: Vec::new(),
    });
    let header = table!(GenericTileHeader {
        version_number: 22,
        persisted_size: 0x0102_0304_0506,
        tile_size: 99,
        datatype: Datatype::Char,
        cell_size: 8,
        encryption_type: EncryptionType::NoEncryption,
        filter_pipeline_size: encode(&pipeline).unwrap().len() as u32,
        filter_pipeline: pipeline.clone(),
    });
    let bytes = encode(&header).unwrap();
    // The pipeline follows the fixed fields: it starts where the view ends.
    assert_eq!(
        GenericTileHeader::OFFSET_FILTER_PIPELINE,
        bytes.len() - encode(&pipeline).unwrap().len()
    );
    assert_eq!(
        GenericTileHeaderRef::SIZE,
        GenericTileHeader::OFFSET_FILTER_PIPELINE
    );
    let view = GenericTileHeaderRef::read(&bytes).expect("a whole header");
    assert_eq!(view.version_number(), 22);
    assert_eq!(view.persisted_size(), 0x0102_0304_0506);
    assert_eq!(view.tile_size(), 99);
    assert_eq!(view.datatype(), 4);
    assert_eq!(view.cell_size(), 8);
    assert_eq!(view.encryption_type(), 0);
    assert_eq!(view.filter_pipeline_size(), header.filter_pipeline_size);
    // Each offset is where binrw wrote the field.
    assert_eq!(bytes[GenericTileHeader::OFFSET_TILE_SIZE], 99);
    assert_eq!(bytes[GenericTileHeader::OFFSET_DATATYPE], 4);
    assert_eq!(bytes[GenericTileHeader::OFFSET_CELL_SIZE], 8);
    assert_eq!(
        bytes[GenericTileHeader::OFFSET_FILTER_PIPELINE_SIZE..][..4],
        header.filter_pipeline_size.to_le_bytes()
    );
    // The view's size is the decoded header's, less its pipeline.
    let (decoded, used) = decode::<GenericTileHeader>(&bytes, Path::new("t"), 0, ()).unwrap();
    assert_eq!(decoded, header);
    assert_eq!(
        used - u64::from(decoded.filter_pipeline_size),
        GenericTileHeaderRef::SIZE as u64
    );
}

#[test]
fn a_tile_opens_with_its_chunk_count_then_its_chunk_headers() {
    let tile = table!(Tile {
        num_chunks: 1,
        chunks: vec![table!(tiledb_codec::raw::format::Chunk {
            header: table!(ChunkHeader {
                original_length: 3,
                filtered_length: 3,
                metadata_length: 0,
            }),
            metadata: Vec::new(),
            filtered_data: vec![1, 2, 3],
        })],
    });
    let bytes = encode(&tile).unwrap();
    assert_eq!(TileRef::read(&bytes).unwrap().num_chunks(), 1);
    let header = ChunkHeaderRef::read(&bytes[Tile::OFFSET_CHUNKS..]).unwrap();
    assert_eq!(header.record(), tile.chunks[0].header);
    assert_eq!(bytes.len(), Tile::OFFSET_CHUNKS + ChunkHeader::SIZE + 3);
}

#[test]
fn rle_run_sizes_follow_the_cell_size() {
    for size in [1u64, 2, 4, 8, 13] {
        let run = table!(RleRun {
            value: (0..size as u8).collect(),
            run_length: 0x0203,
        });
        let bytes = encode(&run).unwrap();
        assert_eq!(RleRun::size(size), Some(bytes.len() as u64));
        let at = RleRun::offset_run_length(size).unwrap() as usize;
        // Big-endian.
        assert_eq!(bytes[at..], [2, 3]);
    }
    assert_eq!(RleRun::size(u64::MAX), None, "an overflow is no size");
}

#[test]
fn a_range_has_a_size_only_for_a_fixed_size_coordinate() {
    assert_eq!(Range1D::size(8, None), Some(16));
    // A var-sized range: its size is in its bytes.
    assert_eq!(Range1D::size(0, None), None);
    assert_eq!(Range1D::size(0, Some(5)), Some(8 + 8 + 5));
}

/// A footer of `version` (3 to 9) with fixed-size dimensions `dims` and
/// `attrs` attributes: zero bytes but the version and the flags, which the
/// footer's binrw reader takes whole.
fn zero_footer(version: u32, dims: &[u64], attrs: u64) -> (Vec<u8>, u64) {
    let size = FragmentFooter::size(dims.into(), attrs, version, None, 0, None, None, None)
        .expect("a fixed-size footer");
    let mut bytes = vec![0u8; size as usize];
    bytes[..4].copy_from_slice(&version.to_le_bytes());
    (bytes, size)
}

#[test]
fn the_footer_size_of_versions_3_to_9_is_what_the_reader_takes() {
    for version in 3..=9 {
        for (dims, attrs) in [(&[8u64][..], 1u64), (&[4, 8, 1][..], 3), (&[2, 2][..], 0)] {
            let (bytes, size) = zero_footer(version, dims, attrs);
            let footer =
                decode_all::<FragmentFooter>(&bytes, Path::new("footer"), 0, (dims.into(), attrs))
                    .unwrap_or_else(|e| panic!("version {version}, dims {dims:?}: {e}"));
            assert_eq!(footer.version_number, version);
            assert_eq!(encode(&footer).unwrap().len() as u64, size);
        }
    }
    // The hand-written sizes these replace, for one schema: versions 3-4
    // (2 * D * coord(0) domain bytes, A + 1 / A entries), 5-6 and 7-9.
    let (d, a, c) = (2u64, 3u64, 8u64);
    let n = a + d + 1;
    let old = 6 + 2 * d * c + 16 + (a + 1) * 8 + a * 8 + 8 + (a + 1) * 8 + 2 * a * 8;
    assert_eq!(zero_footer(4, &[8, 8], a).1, old);
    let base = 6 + 2 * d * c + 16 + 2 * n * 8 + 8 + 3 * n * 8;
    assert_eq!(zero_footer(6, &[8, 8], a).1, base);
    assert_eq!(zero_footer(9, &[8, 8], a).1, base + 2 * n * 8);
    // From version 10 the footer holds the schema name: unknown size.
    assert_eq!(
        FragmentFooter::size([8u64][..].into(), 1, 10, None, 0, None, None, None),
        None
    );
}

#[test]
fn a_bytes_field_after_the_view_is_borrowed_in_place() {
    use tiledb_codec::raw::format::{DeltaPart, DeltaPartRef};
    // Three 2-byte values: `DeltaPartRef::values` is the slice the binrw
    // struct copies into its `Vec`.
    let part = table!(DeltaPart {
        n: 3,
        values: vec![1, 0, 2, 0, 0xff, 0x7f],
    });
    let mut bytes = encode(&part).unwrap();
    let view = DeltaPartRef::read(&bytes).unwrap();
    let values = view.values(&bytes, 2).unwrap();
    assert_eq!(values, part.values.as_slice());
    assert_eq!(values.as_ptr(), bytes[DeltaPart::OFFSET_VALUES..].as_ptr());
    // The length comes from `n` and the import, as `len` says.
    assert_eq!(view.values(&bytes, 1).unwrap(), &part.values[..3]);
    assert!(view.values(&bytes, 3).is_none());
    // Cut short: no slice; an absurd count does not overflow.
    assert!(view.values(&bytes[..bytes.len() - 1], 2).is_none());
    bytes[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    let view = DeltaPartRef::read(&bytes).unwrap();
    assert!(view.values(&bytes, 8).is_none());
}
