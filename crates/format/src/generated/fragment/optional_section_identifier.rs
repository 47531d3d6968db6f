// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Identifier of a footer optional section (new in version 23); readers skip unknown ones by their data size.
///
/// Code table from `spec/fragment.toml`.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum OptionalSectionIdentifier {
    /// `TILE_GLOBAL_ORDER_OFFSETS` = 0 (new in version 23): Payload: a `TileGlobalOrderBounds`.
    TileGlobalOrderOffsets,
    /// A code the format does not list (yet), kept so that it re-encodes as read.
    Unknown(u64),
}
impl OptionalSectionIdentifier {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::TileGlobalOrderOffsets];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u64) -> Option<Self> {
        match value {
            0 => Some(Self::TileGlobalOrderOffsets),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u64 {
        match self {
            Self::TileGlobalOrderOffsets => 0,
            Self::Unknown(v) => v,
        }
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::TileGlobalOrderOffsets => "TILE_GLOBAL_ORDER_OFFSETS",
            Self::Unknown(_) => "UNKNOWN",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
impl OptionalSectionIdentifier {
    /// The value of this code; `Unknown` for a code the format does not list.
    pub fn from_raw(value: u64) -> Self {
        Self::from_value(value).unwrap_or(Self::Unknown(value))
    }
    /// `Some(self)` for a code the format lists, `None` for `Unknown`.
    pub fn known(self) -> Option<Self> {
        Self::from_value(self.value())
    }
}
impl PartialEq for OptionalSectionIdentifier {
    fn eq(&self, other: &Self) -> bool {
        self.value() == other.value()
    }
}
impl Eq for OptionalSectionIdentifier {}
impl core::hash::Hash for OptionalSectionIdentifier {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.value().hash(state)
    }
}
impl PartialOrd for OptionalSectionIdentifier {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OptionalSectionIdentifier {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.value().cmp(&other.value())
    }
}
/// An absent field reads as code 0.
impl Default for OptionalSectionIdentifier {
    fn default() -> Self {
        Self::from_raw(0)
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for OptionalSectionIdentifier {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for OptionalSectionIdentifier {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for OptionalSectionIdentifier {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u64 as binrw::BinRead>::read_options(reader, endian, ())?;
        Ok(Self::from_raw(value))
    }
}
impl binrw::BinWrite for OptionalSectionIdentifier {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// The footer: a raw blob after the last generic tile, not a generic tile.
/// `dims` gives each dimension's coordinate size (0 for var-sized; before
/// version 5 every dimension has the domain's size), `num_attributes` the
/// schema's attribute count. The trailing footer length is not part of it
/// (see `FooterLength`); in a consolidated `.meta` file footers have none.
///
/// Where the engine (tiledb/sm/fragment/fragment_metadata.cc) differs from the
/// spec page:
/// * the spec shows the non-empty domain as an MBR for every version; versions
///   3 and 4 hold 2 * D * coord_size(dimension 0) raw bytes (all dimensions
///   share one type), and in every version the bytes are read only when the
///   null flag is 0. The engine's writer still writes 2 * D * coord_size zero
///   bytes after a null flag of 1, which its own reader does not skip; this
///   table follows the reader.
/// * the per-field arrays hold A + 1 / A entries before version 5 and n
///   entries from version 5 (see the document's comment), which the spec does
///   not say.
/// * file validity sizes exist only from version 7 (no gate on the spec page).
/// * tile min, max, sum and null count offsets exist from version 11 (no gate
///   on the spec page).
/// * the fragment min/max/sum/null count offset has no gate on the spec page.
///   The engine reads it from version 12; TileDB 2.7 (version 11) did not
///   write it, but today's writer also puts it in version 11 footers, where the
///   reader skips the 8 bytes. The table follows the reader (from version 12).
/// * the array schema name size must not be 0 (the engine throws).
///
/// Spec: `format_spec/fragment.md#footer` (table "Footer").
#[binrw::binrw]
#[brw(little)]
#[br(import(dims: rt::Dims, num_attributes: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FragmentFooter {
    /// Spec field "Version number" (`u32`).
    #[br(err_context("FragmentFooter.version_number"))]
    pub version_number: u32,
    /// Spec field "Array schema name size" (`u64`). New in version 10.
    #[br(err_context("FragmentFooter.array_schema_name_size"), if((version_number) >= 10))]
    pub array_schema_name_size: Option<u64>,
    /// Spec field "Array schema name" (`string`). New in version 10.
    ///
    /// Before version 10 the schema is `__array_schema.tdb`.
    #[br(err_context("FragmentFooter.array_schema_name"), parse_with = rt::opt_bytes, args((version_number) >= 10, (array_schema_name_size.clone().unwrap_or_default()) as u64, "FragmentFooter", "array_schema_name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_opt_text"))]
    pub array_schema_name: Option<Vec<u8>>,
    /// Spec field "Dense" (`bool`).
    #[br(err_context("FragmentFooter.dense"))]
    pub dense: u8,
    /// Spec field "Null non-empty domain" (`bool`).
    #[br(err_context("FragmentFooter.null_non_empty_domain"))]
    pub null_non_empty_domain: u8,
    /// Spec field "Non-empty domain" (`bytes`). Removed in version 5.
    ///
    /// Versions 3 and 4: [low, high] per dimension, all of dimension 0's coordinate size.
    #[br(err_context("FragmentFooter.legacy_non_empty_domain"), parse_with = rt::opt_bytes, args((version_number) < 5 && ((null_non_empty_domain == 0)), (2 * (u64::try_from(dims.len()).unwrap_or(0)) * dims.first().copied().unwrap_or(0)) as u64, "FragmentFooter", "legacy_non_empty_domain"))]
    pub legacy_non_empty_domain: Option<Vec<u8>>,
    /// Spec field "Non-empty domain" (`Mbr`). New in version 5.
    #[br(err_context("FragmentFooter.non_empty_domain"), args(dims.clone()), if((version_number) >= 5 && ((null_non_empty_domain == 0))))]
    pub non_empty_domain: Option<Mbr>,
    /// Spec field "Number of sparse tiles" (`u64`).
    #[br(err_context("FragmentFooter.sparse_tile_num"))]
    pub sparse_tile_num: u64,
    /// Spec field "Last tile cell num" (`u64`).
    ///
    /// The cells of the last tile: of a dense fragment, the cells of a space tile (the engine's writers set it so).
    #[br(err_context("FragmentFooter.last_tile_cell_num"))]
    pub last_tile_cell_num: u64,
    /// Spec field "Includes timestamps" (`bool`). New in version 14.
    #[br(err_context("FragmentFooter.includes_timestamps"), if((version_number) >= 14))]
    pub includes_timestamps: Option<u8>,
    /// Spec field "Includes delete metadata" (`bool`). New in version 15.
    #[br(err_context("FragmentFooter.includes_delete_metadata"), if((version_number) >= 15))]
    pub includes_delete_metadata: Option<u8>,
    /// Spec field "File sizes" (`list<u64>`).
    #[br(err_context("FragmentFooter.file_sizes"), parse_with = rt::list, args(((rt::pick((version_number) >= 5, (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0)), num_attributes + 1))) as u64, 8, (), "FragmentFooter", "file_sizes"))]
    pub file_sizes: Vec<u64>,
    /// Spec field "File var sizes" (`list<u64>`).
    #[br(err_context("FragmentFooter.file_var_sizes"), parse_with = rt::list, args(((rt::pick((version_number) >= 5, (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0)), num_attributes))) as u64, 8, (), "FragmentFooter", "file_var_sizes"))]
    pub file_var_sizes: Vec<u64>,
    /// Spec field "File validity sizes" (`list<u64>`). New in version 7.
    #[br(err_context("FragmentFooter.file_validity_sizes"), parse_with = rt::opt_list, args((version_number) >= 7, ((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0))) as u64, 8, (), "FragmentFooter", "file_validity_sizes"))]
    pub file_validity_sizes: Option<Vec<u64>>,
    /// Spec field "R-Tree offset" (`u64`).
    #[br(err_context("FragmentFooter.rtree_offset"))]
    pub rtree_offset: u64,
    /// Spec field "Tile offset for attribute/dimension 1 … N" (`list<u64>`).
    #[br(err_context("FragmentFooter.tile_offsets"), parse_with = rt::list, args(((rt::pick((version_number) >= 5, (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0)), num_attributes + 1))) as u64, 8, (), "FragmentFooter", "tile_offsets"))]
    pub tile_offsets: Vec<u64>,
    /// Spec field "Tile var offset for attribute/dimension 1 … N" (`list<u64>`).
    #[br(err_context("FragmentFooter.tile_var_offsets"), parse_with = rt::list, args(((rt::pick((version_number) >= 5, (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0)), num_attributes))) as u64, 8, (), "FragmentFooter", "tile_var_offsets"))]
    pub tile_var_offsets: Vec<u64>,
    /// Spec field "Tile var sizes offset for attribute/dimension 1 … N" (`list<u64>`).
    #[br(err_context("FragmentFooter.tile_var_sizes"), parse_with = rt::list, args(((rt::pick((version_number) >= 5, (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0)), num_attributes))) as u64, 8, (), "FragmentFooter", "tile_var_sizes"))]
    pub tile_var_sizes: Vec<u64>,
    /// Spec field "Tile validity offset for attribute/dimension 1 … N" (`list<u64>`). New in version 7.
    #[br(err_context("FragmentFooter.tile_validity_offsets"), parse_with = rt::opt_list, args((version_number) >= 7, ((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0))) as u64, 8, (), "FragmentFooter", "tile_validity_offsets"))]
    pub tile_validity_offsets: Option<Vec<u64>>,
    /// Spec field "Tile mins offset for attribute/dimension 1 … N" (`list<u64>`). New in version 11.
    #[br(err_context("FragmentFooter.tile_mins_offsets"), parse_with = rt::opt_list, args((version_number) >= 11, ((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0))) as u64, 8, (), "FragmentFooter", "tile_mins_offsets"))]
    pub tile_mins_offsets: Option<Vec<u64>>,
    /// Spec field "Tile maxes offset for attribute/dimension 1 … N" (`list<u64>`). New in version 11.
    #[br(err_context("FragmentFooter.tile_maxes_offsets"), parse_with = rt::opt_list, args((version_number) >= 11, ((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0))) as u64, 8, (), "FragmentFooter", "tile_maxes_offsets"))]
    pub tile_maxes_offsets: Option<Vec<u64>>,
    /// Spec field "Tile sums offset for attribute/dimension 1 … N" (`list<u64>`). New in version 11.
    #[br(err_context("FragmentFooter.tile_sums_offsets"), parse_with = rt::opt_list, args((version_number) >= 11, ((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0))) as u64, 8, (), "FragmentFooter", "tile_sums_offsets"))]
    pub tile_sums_offsets: Option<Vec<u64>>,
    /// Spec field "Tile null counts offset for attribute/dimension 1 … N" (`list<u64>`). New in version 11.
    #[br(err_context("FragmentFooter.tile_null_counts_offsets"), parse_with = rt::opt_list, args((version_number) >= 11, ((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1 + u64::from(includes_timestamps.clone().unwrap_or_default() != 0) + 2 * u64::from(includes_delete_metadata.clone().unwrap_or_default() != 0))) as u64, 8, (), "FragmentFooter", "tile_null_counts_offsets"))]
    pub tile_null_counts_offsets: Option<Vec<u64>>,
    /// Spec field "Fragment min max sum null count offset" (`u64`). New in version 12.
    ///
    /// Read by the engine from version 12 (TileDB 2.8). TileDB 2.7, the writer of
    /// version 11, did not write it; today's engine writes it into version 11
    /// footers too, where its own reader skips it (the stored footer length covers
    /// it): `Fragment::open` accepts exactly those 8 trailing bytes at version 11.
    #[br(err_context("FragmentFooter.fragment_min_max_sum_null_count_offset"), if((version_number) >= 12))]
    pub fragment_min_max_sum_null_count_offset: Option<u64>,
    /// Spec field "Processed conditions offset" (`u64`). New in version 16.
    #[br(err_context("FragmentFooter.processed_conditions_offset"), if((version_number) >= 16))]
    pub processed_conditions_offset: Option<u64>,
    /// Spec field "Number of optional sections" (`u32`). New in version 23.
    #[br(err_context("FragmentFooter.num_optional_sections"), if((version_number) >= 23))]
    pub num_optional_sections: Option<u32>,
    /// Spec field "Optional section 1 … N" (`list<OptionalSection>`). New in version 23.
    #[br(err_context("FragmentFooter.optional_sections"), parse_with = rt::opt_list, args((version_number) >= 23, (num_optional_sections.clone().unwrap_or_default()) as u64, 1, (), "FragmentFooter", "optional_sections"))]
    pub optional_sections: Option<Vec<OptionalSection>>,
}
impl FragmentFooter {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#footer";
}
impl FragmentFooter {
    /// Where field `version_number` (spec "Version number") starts in a `FragmentFooter`.
    pub const OFFSET_VERSION_NUMBER: usize = 0;
    /// Where field `array_schema_name_size` (spec "Array schema name size") starts in a `FragmentFooter`.
    pub const OFFSET_ARRAY_SCHEMA_NAME_SIZE: usize = 4;
    /// Bytes of a `FragmentFooter` with these imports
    /// and the values of its fields
    /// `version_number`, `array_schema_name_size`, `null_non_empty_domain`, `includes_timestamps`, `includes_delete_metadata`, `num_optional_sections`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        dims: rt::Dims,
        num_attributes: u64,
        version_number: u32,
        array_schema_name_size: Option<u64>,
        null_non_empty_domain: u8,
        includes_timestamps: Option<u8>,
        includes_delete_metadata: Option<u8>,
        num_optional_sections: Option<u32>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        if (version_number) >= 10 {
            array_schema_name_size?;
            __len = __len.checked_add(8)?;
        }
        if (version_number) >= 10 {
            __len = __len
                .checked_add(
                    (array_schema_name_size.clone().unwrap_or_default()) as u64,
                )?;
        }
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(1)?;
        if (version_number) < 5 && ((null_non_empty_domain == 0)) {
            __len = __len
                .checked_add(
                    (2 * (u64::try_from(dims.len()).unwrap_or(0))
                        * dims.first().copied().unwrap_or(0)) as u64,
                )?;
        }
        if (version_number) >= 5 && ((null_non_empty_domain == 0)) {
            __len = __len.checked_add(Mbr::size((dims.clone()).clone())?)?;
        }
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(8)?;
        if (version_number) >= 14 {
            includes_timestamps?;
            __len = __len.checked_add(1)?;
        }
        if (version_number) >= 15 {
            includes_delete_metadata?;
            __len = __len.checked_add(1)?;
        }
        __len = __len
            .checked_add(
                (((rt::pick(
                    (version_number) >= 5,
                    (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            )),
                    num_attributes + 1,
                ))) as u64)
                    .checked_mul(8u64)?,
            )?;
        __len = __len
            .checked_add(
                (((rt::pick(
                    (version_number) >= 5,
                    (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            )),
                    num_attributes,
                ))) as u64)
                    .checked_mul(8u64)?,
            )?;
        if (version_number) >= 7 {
            __len = __len
                .checked_add(
                    (((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            ))) as u64)
                        .checked_mul(8u64)?,
                )?;
        }
        __len = __len.checked_add(8)?;
        __len = __len
            .checked_add(
                (((rt::pick(
                    (version_number) >= 5,
                    (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            )),
                    num_attributes + 1,
                ))) as u64)
                    .checked_mul(8u64)?,
            )?;
        __len = __len
            .checked_add(
                (((rt::pick(
                    (version_number) >= 5,
                    (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            )),
                    num_attributes,
                ))) as u64)
                    .checked_mul(8u64)?,
            )?;
        __len = __len
            .checked_add(
                (((rt::pick(
                    (version_number) >= 5,
                    (num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            )),
                    num_attributes,
                ))) as u64)
                    .checked_mul(8u64)?,
            )?;
        if (version_number) >= 7 {
            __len = __len
                .checked_add(
                    (((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            ))) as u64)
                        .checked_mul(8u64)?,
                )?;
        }
        if (version_number) >= 11 {
            __len = __len
                .checked_add(
                    (((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            ))) as u64)
                        .checked_mul(8u64)?,
                )?;
        }
        if (version_number) >= 11 {
            __len = __len
                .checked_add(
                    (((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            ))) as u64)
                        .checked_mul(8u64)?,
                )?;
        }
        if (version_number) >= 11 {
            __len = __len
                .checked_add(
                    (((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            ))) as u64)
                        .checked_mul(8u64)?,
                )?;
        }
        if (version_number) >= 11 {
            __len = __len
                .checked_add(
                    (((num_attributes + (u64::try_from(dims.len()).unwrap_or(0)) + 1
                        + u64::from(includes_timestamps.clone().unwrap_or_default() != 0)
                        + 2
                            * u64::from(
                                includes_delete_metadata.clone().unwrap_or_default() != 0,
                            ))) as u64)
                        .checked_mul(8u64)?,
                )?;
        }
        if (version_number) >= 12 {
            __len = __len.checked_add(8)?;
        }
        if (version_number) >= 16 {
            __len = __len.checked_add(8)?;
        }
        if (version_number) >= 23 {
            num_optional_sections?;
            __len = __len.checked_add(4)?;
        }
        if (version_number) >= 23 {
            return None;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `FragmentFooter` borrowed in place: the
/// fields before `array_schema_name_size`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FragmentFooterRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FragmentFooterRef {
    /// Field `version_number` as stored (spec "Version number").
    pub version_number: zerocopy::byteorder::little_endian::U32,
}
impl FragmentFooterRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 4;
    /// The view of the first [`FragmentFooterRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version_number` (spec "Version number").
    pub fn version_number(&self) -> u32 {
        self.version_number.get()
    }
}
/// The view is exactly its fields: `size_of::<FragmentFooterRef>()` is
/// [`FragmentFooterRef::SIZE`] (else this does not compile).
const _: [(); FragmentFooterRef::SIZE] = [(); core::mem::size_of::<FragmentFooterRef>()];
impl crate::Record for FragmentFooter {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self.version_number = version as u32;
        if version >= 10 {
            if self.array_schema_name_size.is_none() {
                self.array_schema_name_size = Some(Default::default());
            }
        } else {
            self.array_schema_name_size = None;
        }
        if version >= 10 {
            if self.array_schema_name.is_none() {
                self.array_schema_name = Some(Default::default());
            }
        } else {
            self.array_schema_name = None;
        }
        if !(version < 5) {
            self.legacy_non_empty_domain = None;
        }
        if !(version >= 5) {
            self.non_empty_domain = None;
        }
        self.non_empty_domain = self.non_empty_domain.map(|x| x.at_version(version));
        if version >= 14 {
            if self.includes_timestamps.is_none() {
                self.includes_timestamps = Some(Default::default());
            }
        } else {
            self.includes_timestamps = None;
        }
        if version >= 15 {
            if self.includes_delete_metadata.is_none() {
                self.includes_delete_metadata = Some(Default::default());
            }
        } else {
            self.includes_delete_metadata = None;
        }
        if version >= 7 {
            if self.file_validity_sizes.is_none() {
                self.file_validity_sizes = Some(Default::default());
            }
        } else {
            self.file_validity_sizes = None;
        }
        if version >= 7 {
            if self.tile_validity_offsets.is_none() {
                self.tile_validity_offsets = Some(Default::default());
            }
        } else {
            self.tile_validity_offsets = None;
        }
        if version >= 11 {
            if self.tile_mins_offsets.is_none() {
                self.tile_mins_offsets = Some(Default::default());
            }
        } else {
            self.tile_mins_offsets = None;
        }
        if version >= 11 {
            if self.tile_maxes_offsets.is_none() {
                self.tile_maxes_offsets = Some(Default::default());
            }
        } else {
            self.tile_maxes_offsets = None;
        }
        if version >= 11 {
            if self.tile_sums_offsets.is_none() {
                self.tile_sums_offsets = Some(Default::default());
            }
        } else {
            self.tile_sums_offsets = None;
        }
        if version >= 11 {
            if self.tile_null_counts_offsets.is_none() {
                self.tile_null_counts_offsets = Some(Default::default());
            }
        } else {
            self.tile_null_counts_offsets = None;
        }
        if version >= 12 {
            if self.fragment_min_max_sum_null_count_offset.is_none() {
                self.fragment_min_max_sum_null_count_offset = Some(Default::default());
            }
        } else {
            self.fragment_min_max_sum_null_count_offset = None;
        }
        if version >= 16 {
            if self.processed_conditions_offset.is_none() {
                self.processed_conditions_offset = Some(Default::default());
            }
        } else {
            self.processed_conditions_offset = None;
        }
        if version >= 23 {
            if self.num_optional_sections.is_none() {
                self.num_optional_sections = Some(Default::default());
            }
        } else {
            self.num_optional_sections = None;
        }
        if version >= 23 {
            if self.optional_sections.is_none() {
                self.optional_sections = Some(Default::default());
            }
        } else {
            self.optional_sections = None;
        }
        self.optional_sections = self
            .optional_sections
            .map(|x| x.into_iter().map(|e| e.at_version(version)).collect());
        self
    }
    fn with_sizes(mut self) -> Self {
        self.non_empty_domain = self.non_empty_domain.map(|x| x.with_sizes());
        self.optional_sections = self
            .optional_sections
            .map(|x| x.into_iter().map(|e| e.with_sizes()).collect());
        self.array_schema_name_size = self
            .array_schema_name
            .as_ref()
            .map(|x| x.len() as u64);
        self.num_optional_sections = self
            .optional_sections
            .as_ref()
            .map(|x| x.len() as u32);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let version = Some(self.version_number as u32);
        if let Some(v) = version {
            if (v >= 10) != self.array_schema_name_size.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "array_schema_name_size",
                        v,
                        self.array_schema_name_size.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 10) != self.array_schema_name.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "array_schema_name",
                        v,
                        self.array_schema_name.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if !(v < 5) && self.legacy_non_empty_domain.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "legacy_non_empty_domain",
                        v,
                        self.legacy_non_empty_domain.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if !(v >= 5) && self.non_empty_domain.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "non_empty_domain",
                        v,
                        self.non_empty_domain.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.non_empty_domain {
            x.check(version)?;
        }
        if let Some(v) = version {
            if (v >= 14) != self.includes_timestamps.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "includes_timestamps",
                        v,
                        self.includes_timestamps.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 15) != self.includes_delete_metadata.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "includes_delete_metadata",
                        v,
                        self.includes_delete_metadata.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 7) != self.file_validity_sizes.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "file_validity_sizes",
                        v,
                        self.file_validity_sizes.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 7) != self.tile_validity_offsets.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "tile_validity_offsets",
                        v,
                        self.tile_validity_offsets.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 11) != self.tile_mins_offsets.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "tile_mins_offsets",
                        v,
                        self.tile_mins_offsets.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 11) != self.tile_maxes_offsets.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "tile_maxes_offsets",
                        v,
                        self.tile_maxes_offsets.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 11) != self.tile_sums_offsets.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "tile_sums_offsets",
                        v,
                        self.tile_sums_offsets.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 11) != self.tile_null_counts_offsets.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "tile_null_counts_offsets",
                        v,
                        self.tile_null_counts_offsets.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 12) != self.fragment_min_max_sum_null_count_offset.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "fragment_min_max_sum_null_count_offset",
                        v,
                        self.fragment_min_max_sum_null_count_offset.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 16) != self.processed_conditions_offset.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "processed_conditions_offset",
                        v,
                        self.processed_conditions_offset.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 23) != self.num_optional_sections.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "num_optional_sections",
                        v,
                        self.num_optional_sections.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v >= 23) != self.optional_sections.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "FragmentFooter",
                        "optional_sections",
                        v,
                        self.optional_sections.is_some(),
                    ),
                );
            }
        }
        if let Some(x) = &self.optional_sections {
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.array_schema_name_size,
            self.array_schema_name.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FragmentFooter",
                        "array_schema_name_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.num_optional_sections,
            self.optional_sections.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FragmentFooter",
                        "num_optional_sections",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let Some(v) = version {
            if v < 5 {
                let null_non_empty_domain = self.null_non_empty_domain.clone();
                if ((null_non_empty_domain == 0))
                    != self.legacy_non_empty_domain.is_some()
                {
                    return Err(
                        crate::EncodeError::condition(
                            "FragmentFooter",
                            "legacy_non_empty_domain",
                            "null_non_empty_domain == 0",
                            self.legacy_non_empty_domain.is_some(),
                        ),
                    );
                }
            }
        }
        if let Some(v) = version {
            if v >= 5 {
                let null_non_empty_domain = self.null_non_empty_domain.clone();
                if ((null_non_empty_domain == 0)) != self.non_empty_domain.is_some() {
                    return Err(
                        crate::EncodeError::condition(
                            "FragmentFooter",
                            "non_empty_domain",
                            "null_non_empty_domain == 0",
                            self.non_empty_domain.is_some(),
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
