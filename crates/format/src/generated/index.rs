// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Every document of `spec/`: (file, title, spec source, tables, code tables).
pub const DOCUMENTS: &[(&str, &str, &str, &[&str], &[&str])] = &[
    (
        "spec/array_file_hierarchy.toml",
        "Array File Hierarchy",
        "format_spec/array_file_hierarchy.md",
        &[],
        &[],
    ),
    (
        "spec/array_schema.toml",
        "Array Schema",
        "format_spec/array_schema.md",
        &[
            "ArraySchema",
            "EnumerationEntry",
            "Domain",
            "Dimension",
            "Attribute",
            "DimensionLabel",
            "CurrentDomain",
        ],
        &[],
    ),
    (
        "spec/consolidated_commits_file.toml",
        "Consolidated Commits File",
        "format_spec/consolidated_commits_file.md",
        &["ConsolidatedCommits", "ConsolidatedCommit"],
        &[],
    ),
    (
        "spec/consolidated_fragment_metadata_file.toml",
        "Consolidated Fragment Metadata File",
        "format_spec/consolidated_fragment_metadata_file.md",
        &["ConsolidatedFragmentMetadata", "ConsolidatedFragmentEntry"],
        &[],
    ),
    (
        "spec/datatypes.toml",
        "Code tables of the format",
        "format_spec/FORMAT_SPEC.md",
        &[],
        &[
            "Datatype",
            "ArrayType",
            "Layout",
            "FilterType",
            "Compressor",
            "EncryptionType",
            "DataOrder",
            "ObjectType",
            "QueryConditionOp",
            "QueryConditionCombinationOp",
            "CurrentDomainType",
            "WebpInputFormat",
        ],
    ),
    (
        "spec/delete_commit_file.toml",
        "Delete Commit File",
        "format_spec/delete_commit_file.md",
        &["ConditionNode", "ExpressionNode", "ValueNode", "ConditionNodeBody"],
        &["ConditionNodeType"],
    ),
    (
        "spec/enumeration.toml",
        "Enumerations",
        "format_spec/enumeration.md",
        &["Enumeration"],
        &[],
    ),
    (
        "spec/filter_pipeline.toml",
        "Filter Pipeline",
        "format_spec/filter_pipeline.md",
        &[
            "FilterPipeline",
            "Filter",
            "CompressorOptions",
            "BitWidthReductionOptions",
            "PositiveDeltaOptions",
            "FloatScaleOptions",
            "WebpOptions",
            "FilterOptions",
        ],
        &[],
    ),
    (
        "spec/filters_delta.toml",
        "Delta Filter",
        "format_spec/filters/delta.md",
        &["DeltaPart"],
        &[],
    ),
    (
        "spec/filters_dictionary_encoding.toml",
        "Dictionary Encoding Filter",
        "format_spec/filters/dictionary_encoding.md",
        &["DictionaryChunkMetadata", "DictionaryEntry", "DictionaryWordId"],
        &[],
    ),
    (
        "spec/filters_double_delta.toml",
        "Double Delta Filter",
        "format_spec/filters/double_delta.md",
        &["DoubleDeltaHeader"],
        &[],
    ),
    (
        "spec/filters_float_scale.toml",
        "Float Scaling Filter",
        "format_spec/filters/float_scale.md",
        &["FloatScaleChunkMetadata"],
        &[],
    ),
    (
        "spec/filters_rle.toml",
        "Run-Length Encoding Filter",
        "tiledb/sm/compressors/rle_compressor.cc",
        &["RleRun", "RleStringsChunkMetadata", "RleStringRun"],
        &[],
    ),
    (
        "spec/filters_webp.toml",
        "WEBP Filter",
        "format_spec/filters/webp.md",
        &["WebpChunkMetadata"],
        &[],
    ),
    (
        "spec/format_versions.toml",
        "Format Versions",
        "tiledb/sm/misc/constants.cc",
        &[],
        &[],
    ),
    (
        "spec/fragment.toml",
        "Fragment",
        "format_spec/fragment.md",
        &[
            "FragmentFooter",
            "FooterLength",
            "OptionalSection",
            "TileGlobalOrderBounds",
            "RTree",
            "RTreeLevel",
            "TileOffsets",
            "TileSizes",
            "TileMinMax",
            "TileSums",
            "TileNullCounts",
            "FragmentMinMaxSumNullCount",
            "FieldMinMaxSumNullCount",
            "ProcessedConditions",
            "ProcessedCondition",
            "LegacyFragmentMetadata",
            "LegacyTileOffsets",
        ],
        &["OptionalSectionIdentifier"],
    ),
    (
        "spec/fragment_mbr.toml",
        "Fragment: MBR and 1D range",
        "format_spec/fragment.md",
        &["Mbr", "Range1D"],
        &[],
    ),
    (
        "spec/generic_tile.toml",
        "Generic Tile",
        "format_spec/generic_tile.md",
        &["GenericTileHeader"],
        &[],
    ),
    (
        "spec/group.toml",
        "Group",
        "format_spec/group.md",
        &["GroupDetails", "GroupMember"],
        &[],
    ),
    (
        "spec/ignore_file.toml",
        "Ignore File",
        "format_spec/ignore_file.md",
        &["IgnoreFile", "IgnoreEntry"],
        &[],
    ),
    (
        "spec/metadata.toml",
        "Array Metadata",
        "format_spec/metadata.md",
        &["ArrayMetadata", "MetadataEntry"],
        &[],
    ),
    (
        "spec/tile.toml",
        "Tile",
        "format_spec/tile.md",
        &[
            "Tile",
            "ChunkHeader",
            "Chunk",
            "CompressionChunkMetadata",
            "CompressedPartMd",
            "ShuffleChunkMetadata",
            "BitWidthReductionChunkMetadata",
            "BitWidthReductionWindowMd",
            "PositiveDeltaChunkMetadata",
            "PositiveDeltaWindowMd",
            "ChecksumChunkMetadata",
            "ChecksumEntry",
        ],
        &[],
    ),
    (
        "spec/tile_encryption.toml",
        "Tile: encryption filter",
        "format_spec/tile.md",
        &["EncryptionChunkMetadata", "AesPart"],
        &[],
    ),
    (
        "spec/timestamped_name.toml",
        "Timestamped Name",
        "format_spec/timestamped_name.md",
        &[],
        &["TimestampedNameFormat"],
    ),
    (
        "spec/update_commit_file.toml",
        "Update Commit File",
        "format_spec/update_commit_file.md",
        &["UpdateCommit", "UpdateValue"],
        &[],
    ),
    (
        "spec/vacuum_file.toml",
        "Vacuum File",
        "format_spec/vacuum_file.md",
        &["VacuumFile", "VacuumEntry"],
        &[],
    ),
];
/// Every table and union of `spec/`: (name, spec file).
pub const SPEC_TABLES: &[(&str, &str)] = &[
    ("ArraySchema", "spec/array_schema.toml"),
    ("EnumerationEntry", "spec/array_schema.toml"),
    ("Domain", "spec/array_schema.toml"),
    ("Dimension", "spec/array_schema.toml"),
    ("Attribute", "spec/array_schema.toml"),
    ("DimensionLabel", "spec/array_schema.toml"),
    ("CurrentDomain", "spec/array_schema.toml"),
    ("ConsolidatedCommits", "spec/consolidated_commits_file.toml"),
    ("ConsolidatedCommit", "spec/consolidated_commits_file.toml"),
    ("ConsolidatedFragmentMetadata", "spec/consolidated_fragment_metadata_file.toml"),
    ("ConsolidatedFragmentEntry", "spec/consolidated_fragment_metadata_file.toml"),
    ("ConditionNode", "spec/delete_commit_file.toml"),
    ("ExpressionNode", "spec/delete_commit_file.toml"),
    ("ValueNode", "spec/delete_commit_file.toml"),
    ("ConditionNodeBody", "spec/delete_commit_file.toml"),
    ("Enumeration", "spec/enumeration.toml"),
    ("FilterPipeline", "spec/filter_pipeline.toml"),
    ("Filter", "spec/filter_pipeline.toml"),
    ("CompressorOptions", "spec/filter_pipeline.toml"),
    ("BitWidthReductionOptions", "spec/filter_pipeline.toml"),
    ("PositiveDeltaOptions", "spec/filter_pipeline.toml"),
    ("FloatScaleOptions", "spec/filter_pipeline.toml"),
    ("WebpOptions", "spec/filter_pipeline.toml"),
    ("FilterOptions", "spec/filter_pipeline.toml"),
    ("DeltaPart", "spec/filters_delta.toml"),
    ("DictionaryChunkMetadata", "spec/filters_dictionary_encoding.toml"),
    ("DictionaryEntry", "spec/filters_dictionary_encoding.toml"),
    ("DictionaryWordId", "spec/filters_dictionary_encoding.toml"),
    ("DoubleDeltaHeader", "spec/filters_double_delta.toml"),
    ("FloatScaleChunkMetadata", "spec/filters_float_scale.toml"),
    ("RleRun", "spec/filters_rle.toml"),
    ("RleStringsChunkMetadata", "spec/filters_rle.toml"),
    ("RleStringRun", "spec/filters_rle.toml"),
    ("WebpChunkMetadata", "spec/filters_webp.toml"),
    ("FragmentFooter", "spec/fragment.toml"),
    ("FooterLength", "spec/fragment.toml"),
    ("OptionalSection", "spec/fragment.toml"),
    ("TileGlobalOrderBounds", "spec/fragment.toml"),
    ("RTree", "spec/fragment.toml"),
    ("RTreeLevel", "spec/fragment.toml"),
    ("TileOffsets", "spec/fragment.toml"),
    ("TileSizes", "spec/fragment.toml"),
    ("TileMinMax", "spec/fragment.toml"),
    ("TileSums", "spec/fragment.toml"),
    ("TileNullCounts", "spec/fragment.toml"),
    ("FragmentMinMaxSumNullCount", "spec/fragment.toml"),
    ("FieldMinMaxSumNullCount", "spec/fragment.toml"),
    ("ProcessedConditions", "spec/fragment.toml"),
    ("ProcessedCondition", "spec/fragment.toml"),
    ("LegacyFragmentMetadata", "spec/fragment.toml"),
    ("LegacyTileOffsets", "spec/fragment.toml"),
    ("Mbr", "spec/fragment_mbr.toml"),
    ("Range1D", "spec/fragment_mbr.toml"),
    ("GenericTileHeader", "spec/generic_tile.toml"),
    ("GroupDetails", "spec/group.toml"),
    ("GroupMember", "spec/group.toml"),
    ("IgnoreFile", "spec/ignore_file.toml"),
    ("IgnoreEntry", "spec/ignore_file.toml"),
    ("ArrayMetadata", "spec/metadata.toml"),
    ("MetadataEntry", "spec/metadata.toml"),
    ("Tile", "spec/tile.toml"),
    ("ChunkHeader", "spec/tile.toml"),
    ("Chunk", "spec/tile.toml"),
    ("CompressionChunkMetadata", "spec/tile.toml"),
    ("CompressedPartMd", "spec/tile.toml"),
    ("ShuffleChunkMetadata", "spec/tile.toml"),
    ("BitWidthReductionChunkMetadata", "spec/tile.toml"),
    ("BitWidthReductionWindowMd", "spec/tile.toml"),
    ("PositiveDeltaChunkMetadata", "spec/tile.toml"),
    ("PositiveDeltaWindowMd", "spec/tile.toml"),
    ("ChecksumChunkMetadata", "spec/tile.toml"),
    ("ChecksumEntry", "spec/tile.toml"),
    ("EncryptionChunkMetadata", "spec/tile_encryption.toml"),
    ("AesPart", "spec/tile_encryption.toml"),
    ("UpdateCommit", "spec/update_commit_file.toml"),
    ("UpdateValue", "spec/update_commit_file.toml"),
    ("VacuumFile", "spec/vacuum_file.toml"),
    ("VacuumEntry", "spec/vacuum_file.toml"),
];
/// The format versions this crate reads and writes, and the version each
/// format feature appears in (`spec/format_versions.toml`).
pub mod version {
    /// The oldest format version this crate reads.
    pub const MIN_FORMAT_VERSION: u32 = 1;
    /// The newest schema version this crate reads.
    pub const MAX_FORMAT_VERSION: u32 = 23;
    /// The format version this crate writes unless told otherwise (TileDB 2.30).
    pub const FORMAT_VERSION: u32 = 22;
    /// The newest format version this crate writes, on request (TileDB 2.30's
    /// successors: the fragment footer gains optional sections,
    /// `format_spec/fragment.md#optional-section`). The installed engine reads
    /// up to 22, so 22 stays the default.
    pub const MAX_WRITE_VERSION: u32 = 23;
    /// The oldest format version this crate writes.
    pub const MIN_WRITE_VERSION: u32 = 10;
    /// The format version a name without one (`__<t1>_<t2>_<uuid>`: versions 3-4,
    /// schema and metadata names) stands for, as the engine's `FragmentID` takes it.
    pub const UNVERSIONED_NAME_VERSION: u32 = 4;
    /// The format version a `__<uuid>_<t>` name (versions 1-2) stands for, as the
    /// engine's `FragmentID` takes it.
    pub const LEGACY_NAME_VERSION: u32 = 2;
    /// Whether this crate reads format version `version` ([`MIN_FORMAT_VERSION`] to [`MAX_FORMAT_VERSION`]).
    #[must_use]
    pub const fn reads_version(version: u32) -> bool {
        MIN_FORMAT_VERSION <= version && version <= MAX_FORMAT_VERSION
    }
    /// Whether this crate writes format version `version` ([`MIN_WRITE_VERSION`] to [`MAX_WRITE_VERSION`]).
    #[must_use]
    pub const fn writes_version(version: u32) -> bool {
        MIN_WRITE_VERSION <= version && version <= MAX_WRITE_VERSION
    }
    /// The first format version of [`has_split_coordinate_tiles`].
    pub const SPLIT_COORDINATE_TILES_SINCE: u32 = 2;
    /// A tile of the zipped coordinates holds each dimension's values one after
    /// the other; in version 1 an uncompressed one stores the cells zipped.
    ///
    /// Source: tiledb/sm/query/readers/reader_base.cc (`zip_tile_coordinates`).
    #[must_use]
    pub const fn has_split_coordinate_tiles(version: u32) -> bool {
        version >= SPLIT_COORDINATE_TILES_SINCE
    }
    /// The first format version of [`has_group_member_deltas`].
    pub const GROUP_MEMBER_DELTAS_SINCE: u32 = 2;
    /// Group details files (of group details version 2) list added and removed
    /// members, and the files accumulate; a version 1 file lists every member.
    ///
    /// Source: format_spec/group.md (group details version, not format version). Gates as the field `GroupMember.deleted`.
    #[must_use]
    pub const fn has_group_member_deltas(version: u32) -> bool {
        version >= GROUP_MEMBER_DELTAS_SINCE
    }
    /// The first format version of [`has_fragment_footer`].
    pub const FRAGMENT_FOOTER_SINCE: u32 = 3;
    /// Fragment metadata ends in a `FragmentFooter`; versions 1 and 2 store the
    /// whole `LegacyFragmentMetadata` and are read with the array's
    /// `__array_schema.tdb`.
    ///
    /// Source: format_spec/fragment.md; tiledb/sm/fragment/fragment_metadata.cc.
    #[must_use]
    pub const fn has_fragment_footer(version: u32) -> bool {
        version >= FRAGMENT_FOOTER_SINCE
    }
    /// The first format version of [`has_split_coordinates`].
    pub const SPLIT_COORDINATES_SINCE: u32 = 5;
    /// Each dimension has its own data files (`d<i>.tdb`), MBR and non-empty
    /// domain; before, one zipped `__coords.tdb` holds every dimension.
    ///
    /// Source: format_spec/fragment.md. Gates as the field `FragmentFooter.non_empty_domain`.
    #[must_use]
    pub const fn has_split_coordinates(version: u32) -> bool {
        version >= SPLIT_COORDINATES_SINCE
    }
    /// The first format version of [`has_commit_markers`].
    pub const COMMIT_MARKERS_SINCE: u32 = 5;
    /// A fragment counts as committed when its commit marker (`.ok`, later `.wrt`)
    /// exists; before, when its `__fragment_metadata.tdb` does.
    ///
    /// Source: format_spec/array_file_hierarchy.md.
    #[must_use]
    pub const fn has_commit_markers(version: u32) -> bool {
        version >= COMMIT_MARKERS_SINCE
    }
    /// The first format version of [`has_typed_dimensions`].
    pub const TYPED_DIMENSIONS_SINCE: u32 = 5;
    /// Each dimension has its own datatype, cell val num, filters and domain size;
    /// before, every dimension has the domain's datatype and one value per cell.
    ///
    /// Source: format_spec/array_schema.md (Dimension). Gates as the field `Dimension.datatype`.
    #[must_use]
    pub const fn has_typed_dimensions(version: u32) -> bool {
        version >= TYPED_DIMENSIONS_SINCE
    }
    /// The first format version of [`has_nullable_attributes`].
    pub const NULLABLE_ATTRIBUTES_SINCE: u32 = 7;
    /// Attributes may be nullable; fragments have validity files and their offsets.
    ///
    /// Source: format_spec/array_schema.md (Attribute nullable), format_spec/fragment.md. Gates as the field `FragmentFooter.tile_validity_offsets`.
    #[must_use]
    pub const fn has_nullable_attributes(version: u32) -> bool {
        version >= NULLABLE_ATTRIBUTES_SINCE
    }
    /// The first format version of [`has_own_version_writes`].
    pub const OWN_VERSION_WRITES_SINCE: u32 = 7;
    /// New files of an array are written in the array's own format version; older
    /// arrays get the engine's current format version.
    ///
    /// Source: tiledb/sm/array_schema/array_schema.cc (`write_version`, `constants::back_compat_writes_min_format_version`).
    #[must_use]
    pub const fn has_own_version_writes(version: u32) -> bool {
        version >= OWN_VERSION_WRITES_SINCE
    }
    /// The first format version of [`has_percent_encoded_file_names`].
    pub const PERCENT_ENCODED_FILE_NAMES_SINCE: u32 = 8;
    /// The first without format version of [`has_percent_encoded_file_names`].
    pub const PERCENT_ENCODED_FILE_NAMES_UNTIL: u32 = 9;
    /// Data files are named after their field with some characters
    /// percent-encoded (version 8 only).
    ///
    /// Source: format_spec/array_file_hierarchy.md; tiledb/sm/fragment/fragment_metadata.cc (`encode_name`).
    #[must_use]
    pub const fn has_percent_encoded_file_names(version: u32) -> bool {
        PERCENT_ENCODED_FILE_NAMES_SINCE <= version
            && version < PERCENT_ENCODED_FILE_NAMES_UNTIL
    }
    /// The first format version of [`has_indexed_file_names`].
    pub const INDEXED_FILE_NAMES_SINCE: u32 = 9;
    /// Data files are named by field index (`a<i>.tdb`, `d<i>.tdb`); before, after
    /// the field's name.
    ///
    /// Source: format_spec/array_file_hierarchy.md.
    #[must_use]
    pub const fn has_indexed_file_names(version: u32) -> bool {
        version >= INDEXED_FILE_NAMES_SINCE
    }
    /// The first format version of [`has_fragment_names_in_consolidated_meta`].
    pub const FRAGMENT_NAMES_IN_CONSOLIDATED_META_SINCE: u32 = 9;
    /// A consolidated fragment metadata file names each fragment by its folder
    /// name; before, by its whole URI.
    ///
    /// Source: tiledb/sm/fragment/fragment_metadata.cc (`write_footer_to_tile` of consolidated metadata).
    #[must_use]
    pub const fn has_fragment_names_in_consolidated_meta(version: u32) -> bool {
        version >= FRAGMENT_NAMES_IN_CONSOLIDATED_META_SINCE
    }
    /// The first format version of [`has_footer_length`].
    pub const FOOTER_LENGTH_SINCE: u32 = 10;
    /// Every fragment footer is followed by its length (and names its schema);
    /// before, only footers with var-sized dimensions are, and the others have a
    /// size computed from the schema.
    ///
    /// Source: format_spec/fragment.md. Gates as the field `FragmentFooter.array_schema_name_size`.
    #[must_use]
    pub const fn has_footer_length(version: u32) -> bool {
        version >= FOOTER_LENGTH_SINCE
    }
    /// The first format version of [`has_tile_min_max`].
    pub const TILE_MIN_MAX_SINCE: u32 = 11;
    /// Fragments keep per-tile minimums, maximums, sums and null counts.
    ///
    /// Source: format_spec/fragment.md. Gates as the field `FragmentFooter.tile_mins_offsets`.
    #[must_use]
    pub const fn has_tile_min_max(version: u32) -> bool {
        version >= TILE_MIN_MAX_SINCE
    }
    /// The first format version of [`has_fragment_min_max`].
    pub const FRAGMENT_MIN_MAX_SINCE: u32 = 12;
    /// The footer points at the fragment-wide minimum, maximum, sum and null count
    /// (TileDB 2.8; today's engine also writes it into version 11 footers).
    ///
    /// Source: format_spec/fragment.md. Gates as the field `FragmentFooter.fragment_min_max_sum_null_count_offset`.
    #[must_use]
    pub const fn has_fragment_min_max(version: u32) -> bool {
        version >= FRAGMENT_MIN_MAX_SINCE
    }
    /// The first format version of [`has_commits_folder`].
    pub const COMMITS_FOLDER_SINCE: u32 = 12;
    /// Fragments live in `__fragments/` with `.wrt` markers in `__commits/` and
    /// consolidated fragment metadata in `__fragment_meta/`; before, fragments,
    /// their `.ok` markers and `.meta` files sit in the array folder.
    ///
    /// Source: format_spec/array_file_hierarchy.md.
    #[must_use]
    pub const fn has_commits_folder(version: u32) -> bool {
        version >= COMMITS_FOLDER_SINCE
    }
    /// The first format version of [`has_rle_folded_ascii_offsets`].
    pub const RLE_FOLDED_ASCII_OFFSETS_SINCE: u32 = 12;
    /// RLE of a var-sized ASCII string tile folds the cell offsets into its data
    /// (the offsets tile then has no chunks).
    ///
    /// Source: tiledb/sm/filter/filter_pipeline.cc (`skip_offsets_filtering`).
    #[must_use]
    pub const fn has_rle_folded_ascii_offsets(version: u32) -> bool {
        version >= RLE_FOLDED_ASCII_OFFSETS_SINCE
    }
    /// The first format version of [`has_dictionary_folded_ascii_offsets`].
    pub const DICTIONARY_FOLDED_ASCII_OFFSETS_SINCE: u32 = 13;
    /// DICTIONARY of a var-sized ASCII string tile folds the cell offsets into its data.
    ///
    /// Source: tiledb/sm/filter/filter_pipeline.cc (`skip_offsets_filtering`).
    #[must_use]
    pub const fn has_dictionary_folded_ascii_offsets(version: u32) -> bool {
        version >= DICTIONARY_FOLDED_ASCII_OFFSETS_SINCE
    }
    /// The first format version of [`has_cell_timestamps`].
    pub const CELL_TIMESTAMPS_SINCE: u32 = 14;
    /// Fragments may keep each cell's timestamp (`t.tdb`).
    ///
    /// Source: format_spec/fragment.md. Gates as the field `FragmentFooter.includes_timestamps`.
    #[must_use]
    pub const fn has_cell_timestamps(version: u32) -> bool {
        version >= CELL_TIMESTAMPS_SINCE
    }
    /// The first format version of [`has_cell_delete_metadata`].
    pub const CELL_DELETE_METADATA_SINCE: u32 = 15;
    /// Fragments consolidated across deletes may keep each cell's delete timestamp
    /// (`dt.tdb`) and the index of the delete that removed it (`dci.tdb`).
    ///
    /// Source: format_spec/fragment.md. Gates as the field `FragmentFooter.includes_delete_metadata`.
    #[must_use]
    pub const fn has_cell_delete_metadata(version: u32) -> bool {
        version >= CELL_DELETE_METADATA_SINCE
    }
    /// The first format version of [`has_consolidation_with_timestamps`].
    pub const CONSOLIDATION_WITH_TIMESTAMPS_SINCE: u32 = 15;
    /// Consolidated sparse fragments keep their cells' timestamps, so a read at a
    /// time inside their range filters cells (before, it takes or leaves the whole
    /// fragment, and a delete inside the range is refused).
    ///
    /// Source: tiledb/sm/misc/constants.cc (`consolidation_with_timestamps_min_version`).
    #[must_use]
    pub const fn has_consolidation_with_timestamps(version: u32) -> bool {
        version >= CONSOLIDATION_WITH_TIMESTAMPS_SINCE
    }
    /// The first format version of [`has_processed_conditions_tile`].
    pub const PROCESSED_CONDITIONS_TILE_SINCE: u32 = 15;
    /// The engine's writer stores the processed conditions generic tile; footers
    /// point at it only from version 16 (`deletes`).
    ///
    /// Source: tiledb/sm/fragment/fragment_metadata.cc (store_processed_conditions).
    #[must_use]
    pub const fn has_processed_conditions_tile(version: u32) -> bool {
        version >= PROCESSED_CONDITIONS_TILE_SINCE
    }
    /// The first format version of [`has_deletes`].
    pub const DELETES_SINCE: u32 = 16;
    /// Arrays take delete (and update) commits (`.del`, `.upd`).
    ///
    /// Source: tiledb/sm/misc/constants.cc (`deletes_min_version`). Gates as the field `FragmentFooter.processed_conditions_offset`.
    #[must_use]
    pub const fn has_deletes(version: u32) -> bool {
        version >= DELETES_SINCE
    }
    /// The first format version of [`has_utf8_folded_offsets`].
    pub const UTF8_FOLDED_OFFSETS_SINCE: u32 = 17;
    /// RLE and DICTIONARY fold the cell offsets of var-sized UTF-8 string tiles
    /// too (and UTF-8 dictionaries are kept as UTF-8).
    ///
    /// Source: tiledb/sm/filter/filter_pipeline.cc (`skip_offsets_filtering`).
    #[must_use]
    pub const fn has_utf8_folded_offsets(version: u32) -> bool {
        version >= UTF8_FOLDED_OFFSETS_SINCE
    }
    /// The first format version of [`has_dimension_labels`].
    pub const DIMENSION_LABELS_SINCE: u32 = 18;
    /// Schemas may have dimension labels, kept in `__labels/`.
    ///
    /// Source: format_spec/array_schema.md. Gates as the field `ArraySchema.num_labels`.
    #[must_use]
    pub const fn has_dimension_labels(version: u32) -> bool {
        version >= DIMENSION_LABELS_SINCE
    }
    /// The first format version of [`has_relative_vacuum_uris`].
    pub const RELATIVE_VACUUM_URIS_SINCE: u32 = 19;
    /// A vacuum file of fragments or of array metadata lists them relative to the
    /// array (`/<path>`); before, by their whole `file://` URI.
    ///
    /// Source: tiledb/sm/consolidator/fragment_consolidator.cc, array_meta_consolidator.cc (vacuum files).
    #[must_use]
    pub const fn has_relative_vacuum_uris(version: u32) -> bool {
        version >= RELATIVE_VACUUM_URIS_SINCE
    }
    /// The first format version of [`has_delta_reinterpret_datatype`].
    pub const DELTA_REINTERPRET_DATATYPE_SINCE: u32 = 19;
    /// A DELTA filter's options end with its reinterpret datatype.
    ///
    /// Source: format_spec/filter_pipeline.md (Delta compressor options).
    #[must_use]
    pub const fn has_delta_reinterpret_datatype(version: u32) -> bool {
        version >= DELTA_REINTERPRET_DATATYPE_SINCE
    }
    /// The first format version of [`has_enumerations`].
    pub const ENUMERATIONS_SINCE: u32 = 20;
    /// Schemas may have enumerations, kept in `__schema/__enumerations/`.
    ///
    /// Source: format_spec/array_schema.md; format_spec/enumeration.md. Gates as the field `ArraySchema.num_enumerations`.
    #[must_use]
    pub const fn has_enumerations(version: u32) -> bool {
        version >= ENUMERATIONS_SINCE
    }
    /// The first format version of [`has_double_delta_reinterpret_datatype`].
    pub const DOUBLE_DELTA_REINTERPRET_DATATYPE_SINCE: u32 = 20;
    /// A DOUBLE_DELTA filter's options end with its reinterpret datatype.
    ///
    /// Source: format_spec/filter_pipeline.md (Double delta compressor options).
    #[must_use]
    pub const fn has_double_delta_reinterpret_datatype(version: u32) -> bool {
        version >= DOUBLE_DELTA_REINTERPRET_DATATYPE_SINCE
    }
    /// The first format version of [`has_delta_filters_on_dates`].
    pub const DELTA_FILTERS_ON_DATES_SINCE: u32 = 20;
    /// POSITIVE_DELTA and BIT_WIDTH_REDUCTION filter date and time datatypes (as
    /// int64); before, such tiles pass through unchanged.
    ///
    /// Source: tiledb/sm/filter/positive_delta_filter.cc, bit_width_reduction_filter.cc.
    #[must_use]
    pub const fn has_delta_filters_on_dates(version: u32) -> bool {
        version >= DELTA_FILTERS_ON_DATES_SINCE
    }
    /// The first format version of [`has_nullable_fixed_string_min_max`].
    pub const NULLABLE_FIXED_STRING_MIN_MAX_SINCE: u32 = 21;
    /// Tile minimums and maximums of nullable fixed-size ASCII and char attributes
    /// answer aggregates; before, the cells are read.
    ///
    /// Source: the engine's aggregates (tiledb/sm/query/readers/aggregators).
    #[must_use]
    pub const fn has_nullable_fixed_string_min_max(version: u32) -> bool {
        version >= NULLABLE_FIXED_STRING_MIN_MAX_SINCE
    }
    /// The first format version of [`has_double_delta_counts_first_delta`].
    pub const DOUBLE_DELTA_COUNTS_FIRST_DELTA_SINCE: u32 = 22;
    /// DOUBLE_DELTA counts the first delta in its bit width.
    ///
    /// Source: tiledb/sm/compressors/dd_compressor.cc.
    #[must_use]
    pub const fn has_double_delta_counts_first_delta(version: u32) -> bool {
        version >= DOUBLE_DELTA_COUNTS_FIRST_DELTA_SINCE
    }
    /// The first format version of [`has_current_domain`].
    pub const CURRENT_DOMAIN_SINCE: u32 = 22;
    /// A schema has a current domain (empty, or one range per dimension).
    ///
    /// Source: format_spec/current_domain.md. Gates as the field `ArraySchema.current_domain`.
    #[must_use]
    pub const fn has_current_domain(version: u32) -> bool {
        version >= CURRENT_DOMAIN_SINCE
    }
    /// The first format version of [`has_footer_optional_sections`].
    pub const FOOTER_OPTIONAL_SECTIONS_SINCE: u32 = 23;
    /// A fragment footer ends with optional sections (a sparse one's tile global-order bounds).
    ///
    /// Source: format_spec/fragment.md#optional-section. Gates as the field `FragmentFooter.num_optional_sections`.
    #[must_use]
    pub const fn has_footer_optional_sections(version: u32) -> bool {
        version >= FOOTER_OPTIONAL_SECTIONS_SINCE
    }
}
/// The folders and file names of an array and a group
/// (`spec/array_file_hierarchy.toml`).
pub mod hierarchy {
    /// Schema files `__<t1>_<t2>_<uuid>` (from version 10).
    pub const SCHEMA: &str = "__schema";
    /// Enumeration files `__<uuid>_<enumerations version>`, inside `__schema/`.
    ///
    /// Format versions: [`has_enumerations`](super::version::has_enumerations).
    pub const ENUMERATIONS: &str = "__enumerations";
    /// Fragment folders `<timestamped name>`.
    ///
    /// Format versions: [`has_commits_folder`](super::version::has_commits_folder).
    pub const FRAGMENTS: &str = "__fragments";
    /// Commit markers, delete and update commits, vacuum, consolidated-commits and ignore files.
    ///
    /// Format versions: [`has_commits_folder`](super::version::has_commits_folder).
    pub const COMMITS: &str = "__commits";
    /// Consolidated fragment metadata files `<name>.meta`.
    ///
    /// Format versions: [`has_commits_folder`](super::version::has_commits_folder).
    pub const FRAGMENT_META: &str = "__fragment_meta";
    /// Array (or group) metadata files and their `.vac` files.
    pub const META: &str = "__meta";
    /// Dimension label arrays.
    ///
    /// Format versions: [`has_dimension_labels`](super::version::has_dimension_labels).
    pub const LABELS: &str = "__labels";
    /// Group details files, in a group folder.
    pub const GROUP: &str = "__group";
    /// The single schema file of arrays before version 10, in the array folder; it
    /// counts as older than every file of `__schema/`.
    pub const LEGACY_SCHEMA: &str = "__array_schema.tdb";
    /// A fragment's metadata, inside its folder.
    pub const FRAGMENT_METADATA: &str = "__fragment_metadata.tdb";
    /// The empty file that makes a folder a group.
    pub const GROUP_MARKER: &str = "__tiledb_group.tdb";
    /// The commit marker of a fragment in the array folder (before version 12).
    ///
    /// Format versions: [`has_commit_markers`](super::version::has_commit_markers).
    pub const OK: &str = ".ok";
    /// The commit marker (empty file) of a fragment, in `__commits/`.
    ///
    /// Format versions: [`has_commits_folder`](super::version::has_commits_folder).
    pub const WRT: &str = ".wrt";
    /// A delete commit, in `__commits/`.
    ///
    /// Format versions: [`has_deletes`](super::version::has_deletes).
    pub const DEL: &str = ".del";
    /// An update commit, in `__commits/`.
    ///
    /// Format versions: [`has_deletes`](super::version::has_deletes).
    pub const UPD: &str = ".upd";
    /// A vacuum file: what a consolidation replaced.
    pub const VAC: &str = ".vac";
    /// Consolidated commits, in `__commits/`.
    ///
    /// Format versions: [`has_commits_folder`](super::version::has_commits_folder).
    pub const CON: &str = ".con";
    /// An ignore file (commits a consolidation of commits left out), in `__commits/`.
    ///
    /// Format versions: [`has_commits_folder`](super::version::has_commits_folder).
    pub const IGN: &str = ".ign";
    /// Consolidated fragment metadata.
    pub const META_FILE: &str = ".meta";
    /// A file being written; the engine skips these when listing `__meta/`.
    pub const TMP: &str = ".tmp";
    /// The extension of a data file.
    pub const TDB: &str = ".tdb";
    /// Prefix of attribute i's files: `a<i>.tdb`, `a<i>_var.tdb`, `a<i>_validity.tdb`.
    ///
    /// Format versions: [`has_indexed_file_names`](super::version::has_indexed_file_names).
    pub const ATTRIBUTE_FILE: &str = "a";
    /// Prefix of dimension i's files: `d<i>.tdb`, `d<i>_var.tdb`.
    ///
    /// Format versions: [`has_indexed_file_names`](super::version::has_indexed_file_names).
    pub const DIMENSION_FILE: &str = "d";
    /// The cells' timestamps: `t.tdb`.
    ///
    /// Format versions: [`has_cell_timestamps`](super::version::has_cell_timestamps).
    pub const TIMESTAMPS_FILE: &str = "t";
    /// The cells' delete timestamps: `dt.tdb`.
    ///
    /// Format versions: [`has_cell_delete_metadata`](super::version::has_cell_delete_metadata).
    pub const DELETE_TIMESTAMPS_FILE: &str = "dt";
    /// The index of the delete that removed each cell: `dci.tdb`.
    ///
    /// Format versions: [`has_cell_delete_metadata`](super::version::has_cell_delete_metadata).
    pub const DELETE_CONDITION_INDEX_FILE: &str = "dci";
    /// The zipped coordinates of every dimension (`__coords.tdb`, before version 5),
    /// and the name the schema gives that field.
    pub const COORDS: &str = "__coords";
    /// The name of the cells' timestamps as a field (its file is `t.tdb`).
    ///
    /// Format versions: [`has_cell_timestamps`](super::version::has_cell_timestamps).
    pub const TIMESTAMPS: &str = "__timestamps";
    /// The name of the cells' delete timestamps as a field (its file is `dt.tdb`).
    ///
    /// Format versions: [`has_cell_delete_metadata`](super::version::has_cell_delete_metadata).
    pub const DELETE_TIMESTAMPS: &str = "__delete_timestamps";
    /// The name of the cells' delete condition indexes as a field (its file is `dci.tdb`).
    ///
    /// Format versions: [`has_cell_delete_metadata`](super::version::has_cell_delete_metadata).
    pub const DELETE_CONDITION_INDEX: &str = "__delete_condition_index";
    /// Suffix of the values file of a var-sized field (the plain file holds the offsets).
    pub const VAR: &str = "_var";
    /// Suffix of the validity file of a nullable attribute.
    ///
    /// Format versions: [`has_nullable_attributes`](super::version::has_nullable_attributes).
    pub const VALIDITY: &str = "_validity";
}
/// The timestamped names of fragments, commits, schemas and metadata
/// files (`spec/timestamped_name.toml`, `[[layout]]`): parsed and
/// formatted from the spec's grammar.
pub mod timestamped_name {
    use super::TimestampedNameFormat;
    use alloc::format;
    use alloc::string::String;
    /// A timestamped name taken apart.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[non_exhaustive]
    pub struct NameParts<'a> {
        /// The layout the name has.
        pub format: TimestampedNameFormat,
        /// The start of the timestamp range (ms since the Unix epoch).
        pub t1: u64,
        /// The end of the timestamp range.
        pub t2: u64,
        /// The unique part.
        pub uuid: &'a str,
        /// The format version the name states (`v`) or its layout implies.
        pub version: u32,
        /// Whether the name states its version.
        pub explicit_version: bool,
    }
    /// A decimal number of digits only.
    fn num(s: &str) -> Option<u64> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    }
    /// Exactly `N` parts separated by `sep`.
    fn split<const N: usize>(body: &str, sep: char) -> Option<[&str; N]> {
        let mut parts = [""; N];
        let mut it = body.split(sep);
        for slot in &mut parts {
            *slot = it.next()?;
        }
        it.next().is_none().then_some(parts)
    }
    /// Takes apart a name without its extension: the first layout (in
    /// the spec's order) whose parts it has; `None` when none fits or
    /// `t1 > t2`.
    pub fn parse(stem: &str) -> Option<NameParts<'_>> {
        if let Some([p_t1, p_t2, p_uuid, p_v]) = stem
            .strip_prefix("__")
            .and_then(|b| split::<4>(b, '_'))
        {
            let (t1, t2) = (num(p_t1)?, num(p_t2)?);
            if t1 > t2 {
                return None;
            }
            let v = u32::try_from(num(p_v)?).ok()?;
            return Some(NameParts {
                format: TimestampedNameFormat::T1T2UuidV,
                t1,
                t2,
                uuid: p_uuid,
                version: v,
                explicit_version: true,
            });
        }
        if let Some([p_t1, p_t2, p_uuid]) = stem
            .strip_prefix("__")
            .and_then(|b| split::<3>(b, '_'))
        {
            if p_uuid.len() == 32 {
                let (t1, t2) = (num(p_t1)?, num(p_t2)?);
                if t1 > t2 {
                    return None;
                }
                return Some(NameParts {
                    format: TimestampedNameFormat::T1T2Uuid,
                    t1,
                    t2,
                    uuid: p_uuid,
                    version: super::version::UNVERSIONED_NAME_VERSION,
                    explicit_version: false,
                });
            }
        }
        if let Some([p_uuid, p_t]) = stem
            .strip_prefix("__")
            .and_then(|b| split::<2>(b, '_'))
        {
            let t = num(p_t)?;
            return Some(NameParts {
                format: TimestampedNameFormat::UuidT,
                t1: t,
                t2: t,
                uuid: p_uuid,
                version: super::version::LEGACY_NAME_VERSION,
                explicit_version: false,
            });
        }
        None
    }
    /// The name of layout `format` (a `t` layout writes `t1`; a layout
    /// without `v` leaves `version` out).
    #[allow(unused_variables)]
    pub fn format(
        format: TimestampedNameFormat,
        t1: u64,
        t2: u64,
        uuid: &str,
        version: u32,
    ) -> String {
        match format {
            TimestampedNameFormat::T1T2UuidV => format!("__{t1}_{t2}_{uuid}_{version}"),
            TimestampedNameFormat::T1T2Uuid => format!("__{t1}_{t2}_{uuid}"),
            TimestampedNameFormat::UuidT => format!("__{uuid}_{t1}"),
        }
    }
    /// The layout of the names of format version `version`: the newest
    /// layout whose first version (its `TimestampedNameFormat` value) is
    /// at most `version`.
    pub const fn format_for(version: u32) -> TimestampedNameFormat {
        if version >= 5 {
            return TimestampedNameFormat::T1T2UuidV;
        }
        if version >= 3 {
            return TimestampedNameFormat::T1T2Uuid;
        }
        TimestampedNameFormat::UuidT
    }
    /// `__<t1>_<t2>_<uuid>_<v>`: format version 5 and later (fragments, commits, consolidations).
    pub const T1_T2_UUID_V: &str = "__t1_t2_uuid_v";
    /// `__<t1>_<t2>_<uuid>`: format versions 3-4, and schema and metadata names of
    /// every later version. The engine takes the name as this layout only when the
    /// uuid is 32 characters long.
    pub const T1_T2_UUID: &str = "__t1_t2_uuid";
    /// `__<uuid>_<t>`: format versions 1-2; the engine reads only the last part,
    /// as both ends of the timestamp range.
    pub const UUID_T: &str = "__uuid_t";
}
/// The names of a field's data files in a fragment (`[[data_file]]` of
/// `spec/array_file_hierarchy.toml`): `<stem><suffix><extension>`, the
/// stem by the naming of the fragment's format version.
pub mod field_file_name {
    use super::hierarchy::*;
    use alloc::format;
    use alloc::string::String;
    /// How a format version names a field's data files.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Naming {
        /// `a<i>`, `d<i>`: attribute i, dimension i (from version 9).
        Indexed,
        /// The field's name, some characters percent-encoded (`FragmentMetadata::encode_name`; version 8).
        PercentEncoded,
        /// The field's name as it is (before version 8).
        Named,
    }
    /// The naming of format version `version`.
    pub const fn naming_for(version: u32) -> Naming {
        if super::version::has_indexed_file_names(version) {
            return Naming::Indexed;
        }
        if super::version::has_percent_encoded_file_names(version) {
            return Naming::PercentEncoded;
        }
        Naming::Named
    }
    /// The suffixes after a stem, besides none.
    pub const SUFFIXES: &[&str] = &[VAR, VALIDITY];
    /// `<stem><suffix>{TDB}`.
    pub fn format(stem: &str, suffix: &str) -> String {
        format!("{stem}{suffix}{TDB}")
    }
    /// The stem and suffix (`""` or one of [`SUFFIXES`]) of a data file
    /// name; `None` without the extension or with an empty stem.
    pub fn parse(file: &str) -> Option<(&str, &str)> {
        let base = file.strip_suffix(TDB)?;
        let (stem, suffix) = SUFFIXES
            .iter()
            .find_map(|s| base.strip_suffix(s).map(|stem| (stem, *s)))
            .unwrap_or((base, ""));
        (!stem.is_empty()).then_some((stem, suffix))
    }
    /// The prefixes of a `INDEXED` stem.
    pub const PREFIXES: &[&str] = &[ATTRIBUTE_FILE, DIMENSION_FILE];
    /// The stem `<prefix><index>`.
    pub fn indexed_stem(prefix: &str, index: usize) -> String {
        format!("{prefix}{index}")
    }
    /// The prefix (one of [`PREFIXES`]) and index of a `<prefix><index>`
    /// stem; `None` for other stems.
    pub fn parse_indexed(stem: &str) -> Option<(&'static str, usize)> {
        PREFIXES
            .iter()
            .find_map(|p| {
                let digits = stem.strip_prefix(p)?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                Some((*p, digits.parse().ok()?))
            })
    }
}
