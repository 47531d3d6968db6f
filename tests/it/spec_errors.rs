//! A mistake in `spec/` fails the build with a message naming the file, the
//! table and the field. The test runs build.rs's generator over a copy of
//! `spec/` with one mistake put in.

#[allow(dead_code)]
#[path = "../../crates/format/codegen/generate.rs"]
mod build_script;

use std::path::PathBuf;

fn spec_copy(tag: &str) -> PathBuf {
    let dir =
        crate::common::temp_root().join(format!("tiledb-codec-spec-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = crate::common::root().join("crates/format/spec");
    for e in std::fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    dir
}

/// Replaces `from` with `to` once in `file` of a spec copy and runs the
/// generator; returns its error message.
fn mistake(tag: &str, file: &str, from: &str, to: &str) -> String {
    let dir = spec_copy(tag);
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let result = build_script::generate(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    match result {
        Ok(_) => panic!("the mistake {to:?} in {file} was not caught"),
        Err(e) => format!("{}: {}: {}", e.file, e.place, e.msg),
    }
}

#[test]
fn the_unchanged_spec_generates() {
    let dir = spec_copy("clean");
    let out = build_script::generate(&dir)
        .unwrap_or_else(|e| panic!("{}: {}: {}", e.file, e.place, e.msg));
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.contains("pub struct ArraySchema"));
    assert!(out.contains("pub struct FragmentFooter"));
}

#[test]
fn a_length_naming_an_unknown_field_names_file_table_and_field() {
    let msg = mistake(
        "len",
        "array_schema.toml",
        "len = \"fill_value_size\"",
        "len = \"fill_size\"",
    );
    assert!(
        msg.starts_with("spec/array_schema.toml: table Attribute, field fill_value:"),
        "{msg}"
    );
    assert!(msg.contains("fill_size"), "{msg}");
}

#[test]
fn an_unknown_type_is_refused() {
    let msg = mistake(
        "type",
        "array_schema.toml",
        "type = \"u64\"",
        "type = \"u63\"",
    );
    assert!(
        msg.starts_with("spec/array_schema.toml: table ArraySchema, field capacity:"),
        "{msg}"
    );
    assert!(msg.contains("u63"), "{msg}");
}

#[test]
fn a_field_used_before_it_is_read_is_refused() {
    // The domain's length may not name the tile extent, which comes after it.
    let msg = mistake(
        "order",
        "array_schema.toml",
        "len = \"domain_len\"",
        "len = \"domain_len + tile_extent.len()\"",
    );
    assert!(
        msg.starts_with("spec/array_schema.toml: table Dimension, field domain:"),
        "{msg}"
    );
}

#[test]
fn a_version_compared_by_hand_in_an_expression_is_refused() {
    // A gate is `since`/`until` (of a field or a named value), never a
    // comparison in an expression.
    let msg = mistake(
        "pick",
        "fragment.toml",
        "count = \"num_fixed_fields\"",
        "count = \"rt::pick(version_number >= 5, num_fields, num_attributes + 1)\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, field file_sizes:"),
        "{msg}"
    );
    assert!(msg.contains("since`/`until"), "{msg}");
}

#[test]
fn a_named_value_no_field_uses_is_refused() {
    let msg = mistake(
        "unused",
        "fragment.toml",
        "  [[table.value]]\n  name = \"num_dims\"",
        "  [[table.value]]\n  name = \"spare\"\n  expr = \"1\"\n\n  [[table.value]]\n  name = \"num_dims\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, value spare:"),
        "{msg}"
    );
    assert!(msg.contains("never used"), "{msg}");
}

#[test]
fn an_unknown_code_table_is_refused() {
    let msg = mistake(
        "code",
        "generic_tile.toml",
        "code = \"EncryptionType\"",
        "code = \"Encryption\"",
    );
    assert!(
        msg.starts_with("spec/generic_tile.toml: table GenericTileHeader, field encryption_type:"),
        "{msg}"
    );
}

#[test]
fn a_version_gate_without_a_version_is_refused() {
    let msg = mistake(
        "gate",
        "tile.toml",
        "name = \"num_chunks\"\n  spec = \"Num chunks\"\n  type = \"u64\"",
        "name = \"num_chunks\"\n  spec = \"Num chunks\"\n  type = \"u64\"\n  since = 3",
    );
    assert!(
        msg.starts_with("spec/tile.toml: table Tile, field num_chunks:"),
        "{msg}"
    );
}

#[test]
fn a_duplicate_code_value_is_refused() {
    let msg = mistake(
        "dup",
        "datatypes.toml",
        "{ name = \"INT64\",          value = 1,",
        "{ name = \"INT64\",          value = 0,",
    );
    assert!(
        msg.starts_with("spec/datatypes.toml: code table Datatype:"),
        "{msg}"
    );
}

#[test]
fn malformed_toml_names_the_file() {
    let msg = mistake("toml", "group.toml", "[[table]]", "[[table]");
    assert!(msg.starts_with("spec/group.toml:"), "{msg}");
}

#[test]
fn a_feature_gating_unlike_its_table_field_names_file_and_feature() {
    let msg = mistake(
        "feature",
        "format_versions.toml",
        "name = \"enumerations\"\nsince = 20",
        "name = \"enumerations\"\nsince = 19",
    );
    assert!(
        msg.starts_with("spec/format_versions.toml: feature enumerations:"),
        "{msg}"
    );
    assert!(
        msg.contains("ArraySchema.num_enumerations since Some(20)"),
        "{msg}"
    );
}

#[test]
fn a_name_of_an_unknown_feature_names_file_and_name() {
    let msg = mistake(
        "name-feature",
        "array_file_hierarchy.toml",
        "feature = \"dimension_labels\"",
        "feature = \"dimension_label\"",
    );
    assert!(
        msg.starts_with("spec/array_file_hierarchy.toml: name LABELS:"),
        "{msg}"
    );
}

/// A dimension of more than one value per cell (the fuzzer's
/// `array_open_export` made one: the dense reader sized its coordinates
/// by the datatype and the export indexed past them) is refused when the
/// schema is read, naming the table and field; the same schema with one
/// value per cell opens.
#[test]
fn a_dimension_of_several_values_per_cell_is_refused() {
    use tiledb_codec::raw::array::schema::read_schema;
    use tiledb_codec::raw::format::encode;
    use tiledb_codec::raw::read::ArrayReader;
    use tiledb_codec::raw::tile::write_generic_tile;
    let src = crate::common::root().join("tests/fixtures/v22/dense_int_1d");
    let root = crate::common::scratch("dim-cell-val-num");
    crate::common::copy_dir(&src, &root);
    let schema_dir = root.join("__schema");
    let file = std::fs::read_dir(&schema_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_file())
        .unwrap();
    let opts = tiledb_codec::ReadOptions::default();
    assert!(ArrayReader::open(&root, &opts).is_ok());
    let mut schema = read_schema(&file, &opts).unwrap();
    assert_eq!(schema.domain.dimensions[0].cell_val_num, Some(1));
    schema.domain.dimensions[0].cell_val_num = Some(3);
    std::fs::write(
        &file,
        write_generic_tile(&encode(&schema).unwrap(), schema.array_version),
    )
    .unwrap();
    let err = ArrayReader::open(&root, &opts)
        .err()
        .expect("refused")
        .to_string();
    assert!(err.contains("Dimension.cell_val_num"), "{err}");
    assert!(err.contains("3 values per cell"), "{err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_offset_of_naming_no_outside_is_refused() {
    let msg = mistake(
        "offset_of",
        "fragment.toml",
        "offset_of = \"rtree_tile\"",
        "offset_of = \"rtree\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, "),
        "{msg}"
    );
    // Either the outside no field names now, or the offset naming nothing.
    assert!(msg.contains("rtree"), "{msg}");
}

#[test]
fn an_offset_of_a_list_outside_that_is_no_list_is_refused() {
    let msg = mistake(
        "offset_of_list",
        "fragment.toml",
        "offset_of = \"tile_offsets_tiles\"",
        "offset_of = \"rtree_tile\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, "),
        "{msg}"
    );
}

#[test]
fn a_count_of_naming_no_outside_is_refused() {
    let msg = mistake(
        "count_of",
        "fragment.toml",
        "count_of = \"tiles\"",
        "count_of = \"cells\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, field sparse_tile_num"),
        "{msg}"
    );
    assert!(msg.contains("count_of `cells` is not an outside"), "{msg}");
}

#[test]
fn a_count_of_a_file_outside_is_refused() {
    let msg = mistake(
        "count_of_file",
        "fragment.toml",
        "count_of = \"tiles\"",
        "count_of = \"data_files\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, field sparse_tile_num"),
        "{msg}"
    );
    assert!(msg.contains("not a list outside"), "{msg}");
}

#[test]
fn a_last_of_a_file_outside_is_refused() {
    let msg = mistake(
        "last_of_file",
        "fragment.toml",
        "last_of = \"tiles\"",
        "last_of = \"data_files\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, field last_tile_cell_num"),
        "{msg}"
    );
    assert!(
        msg.contains("last_of `data_files` is not a list outside"),
        "{msg}"
    );
}

#[test]
fn a_count_if_without_its_count_of_is_refused() {
    let msg = mistake(
        "count_if_alone",
        "fragment.toml",
        "last_of = \"tiles\"",
        "last_of = \"tiles\"\n  count_if = \"dense == 0\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, field last_tile_cell_num"),
        "{msg}"
    );
    assert!(msg.contains("count_if goes with count_of"), "{msg}");
}

#[test]
fn a_count_if_naming_a_later_field_is_refused() {
    let msg = mistake(
        "count_if_later",
        "fragment.toml",
        "count_if = \"dense == 0\"",
        "count_if = \"includes_timestamps == 0\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, field sparse_tile_num"),
        "{msg}"
    );
    assert!(msg.contains("includes_timestamps"), "{msg}");
}

#[test]
fn a_streamed_bytes_field_whose_length_is_not_its_count_is_refused() {
    let msg = mistake(
        "stream_bytes",
        "filters_delta.toml",
        "len = \"n.saturating_mul(value_size)\"",
        "len = \"value_size\"",
    );
    assert!(
        msg.starts_with("spec/filters_delta.toml: table DeltaPart, field values"),
        "{msg}"
    );
    assert!(msg.contains("a stream field is the table's last"), "{msg}");
}

#[test]
fn starts_without_the_field_that_joins_the_parts_are_refused() {
    let msg = mistake(
        "starts_alone",
        "enumeration.toml",
        "joins = \"values\"\n",
        "",
    );
    assert!(
        msg.starts_with("spec/enumeration.toml: table Enumeration, field offsets"),
        "{msg}"
    );
    assert!(msg.contains("is joined by exactly one field"), "{msg}");
}

#[test]
fn a_joins_on_a_field_that_is_not_bytes_is_refused() {
    let msg = mistake(
        "joins_int",
        "enumeration.toml",
        "  name = \"ordered\"\n",
        "  name = \"ordered\"\n  joins = \"values\"\n",
    );
    assert!(
        msg.starts_with("spec/enumeration.toml: table Enumeration, field ordered"),
        "{msg}"
    );
    assert!(
        msg.contains("a joins field is `bytes` with a `len`"),
        "{msg}"
    );
}

#[test]
fn a_unit_without_its_count_in_is_refused() {
    let msg = mistake("unit_alone", "metadata.toml", "count_in = \"value\"\n", "");
    assert!(
        msg.starts_with("spec/metadata.toml: table MetadataEntry, field num_values"),
        "{msg}"
    );
    assert!(msg.contains("unit goes with count_in"), "{msg}");
}

#[test]
fn a_count_in_naming_an_earlier_field_is_refused() {
    let msg = mistake(
        "count_in_earlier",
        "metadata.toml",
        "count_in = \"value\"",
        "count_in = \"key\"",
    );
    assert!(msg.contains("count_in `key` is not a later field"), "{msg}");
}

#[test]
fn places_without_the_field_that_states_each_start_are_refused() {
    let msg = mistake(
        "places_alone",
        "consolidated_fragment_metadata_file.toml",
        "  place = \"offset\"\n",
        "",
    );
    assert!(
        msg.starts_with(
            "spec/consolidated_fragment_metadata_file.toml: table ConsolidatedFragmentMetadata, field fragments"
        ),
        "{msg}"
    );
    assert!(msg.contains("places and place go together"), "{msg}");
}

#[test]
fn a_place_that_is_no_field_of_the_element_is_refused() {
    let msg = mistake(
        "place_unknown",
        "consolidated_fragment_metadata_file.toml",
        "  place = \"offset\"",
        "  place = \"start\"",
    );
    assert!(
        msg.contains("place `start` is a plain integer field of ConsolidatedFragmentEntry"),
        "{msg}"
    );
}

#[test]
fn two_counts_of_one_outside_are_refused() {
    let msg = mistake(
        "count_twice",
        "fragment.toml",
        "last_of = \"tiles\"",
        "count_of = \"tiles\"",
    );
    assert!(
        msg.starts_with("spec/fragment.toml: table FragmentFooter, outside tiles"),
        "{msg}"
    );
    assert!(msg.contains("exactly one field names it"), "{msg}");
}
