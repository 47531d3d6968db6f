// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

include!("prelude.rs");
include!("array_schema/var_num.rs");
include!("array_schema/dimension_label.rs");
include!("consolidated_commits_file.rs");
include!("consolidated_fragment_metadata_file.rs");
include!("datatypes/datatype.rs");
include!("datatypes/datatype_1.rs");
include!("datatypes/encryption_type.rs");
include!("delete_commit_file.rs");
include!("enumeration.rs");
include!("filter_pipeline.rs");
include!("filters_delta.rs");
include!("filters_dictionary_encoding.rs");
include!("filters_double_delta.rs");
include!("filters_float_scale.rs");
include!("filters_rle.rs");
include!("filters_webp.rs");
include!("fragment/optional_section_identifier.rs");
include!("fragment/fragment_footer.rs");
include!("fragment/fragment_footer_2.rs");
include!("fragment/tile_global_order_bounds.rs");
include!("fragment/tile_min_max.rs");
include!("fragment_mbr.rs");
include!("generic_tile.rs");
include!("group.rs");
include!("ignore_file.rs");
include!("metadata.rs");
include!("tile/tile.rs");
include!("tile/bit_width_reduction_chunk_metadata.rs");
include!("tile_encryption.rs");
include!("timestamped_name.rs");
include!("update_commit_file.rs");
include!("vacuum_file.rs");
include!("index.rs");
