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
    #[br(err_context("FragmentFooter.legacy_non_empty_domain"), parse_with = rt::opt_bytes, args((version_number) < 5 && (null_non_empty_domain == 0), (2 * (u64::try_from(dims.len()).unwrap_or(0)) * dims.first().copied().unwrap_or(0)) as u64, "FragmentFooter", "legacy_non_empty_domain"))]
    pub legacy_non_empty_domain: Option<Vec<u8>>,
    /// Spec field "Non-empty domain" (`Mbr`). New in version 5.
    #[br(err_context("FragmentFooter.non_empty_domain"), args(dims.clone()), if((version_number) >= 5 && (null_non_empty_domain == 0)))]
    pub non_empty_domain: Option<Mbr>,
    /// Spec field "Number of sparse tiles" (`u64`).
    #[br(err_context("FragmentFooter.sparse_tile_num"))]
    pub sparse_tile_num: u64,
    /// Spec field "Last tile cell num" (`u64`).
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
        if (version_number) < 5 && (null_non_empty_domain == 0) {
            __len = __len
                .checked_add(
                    (2 * (u64::try_from(dims.len()).unwrap_or(0))
                        * dims.first().copied().unwrap_or(0)) as u64,
                )?;
        }
        if (version_number) >= 5 && (null_non_empty_domain == 0) {
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
        Ok(())
    }
}
/// The u64 after the footer: the footer's byte length. Present from version 10,
/// and before that only when a dimension is var-sized; otherwise the reader
/// computes the footer size from the schema. Not present after footers in a
/// consolidated fragment metadata file. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#footer` (table "Footer").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FooterLength {
    /// Spec field "Footer length" (`u64`).
    #[br(err_context("FooterLength.footer_length"))]
    pub footer_length: u64,
}
impl FooterLength {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#footer";
}
impl FooterLength {
    /// Bytes of one `FooterLength`: every field has a fixed size.
    pub const SIZE: usize = 8;
    /// Where field `footer_length` (spec "Footer length") starts in a `FooterLength`.
    pub const OFFSET_FOOTER_LENGTH: usize = 0;
}
/// A `FooterLength` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FooterLengthRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FooterLengthRef {
    /// Field `footer_length` as stored (spec "Footer length").
    pub footer_length: zerocopy::byteorder::little_endian::U64,
}
impl FooterLengthRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`FooterLengthRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `footer_length` (spec "Footer length").
    pub fn footer_length(&self) -> u64 {
        self.footer_length.get()
    }
    /// The owned `FooterLength` (the binrw struct) with the same values.
    pub fn record(&self) -> FooterLength {
        FooterLength {
            footer_length: self.footer_length(),
        }
    }
}
/// The view is exactly its fields: `size_of::<FooterLengthRef>()` is
/// [`FooterLengthRef::SIZE`] (else this does not compile).
const _: [(); FooterLengthRef::SIZE] = [(); core::mem::size_of::<FooterLengthRef>()];
impl crate::Record for FooterLength {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        Ok(())
    }
}
/// A footer extension (new in version 23). Matches the spec page.
///
/// Spec: `format_spec/fragment.md#optional-section` (table "Optional section").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct OptionalSection {
    /// Spec field "Identifier" (`u64`, values from [`OptionalSectionIdentifier`]).
    #[br(err_context("OptionalSection.identifier"))]
    pub identifier: OptionalSectionIdentifier,
    /// Spec field "Data size" (`u32`).
    #[br(err_context("OptionalSection.data_size"))]
    pub data_size: u32,
    /// Spec field "Data" (`bytes`).
    #[br(err_context("OptionalSection.data"), parse_with = rt::bytes, args((data_size) as u64, "OptionalSection", "data"))]
    pub data: Vec<u8>,
}
impl OptionalSection {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#optional-section";
}
impl OptionalSection {
    /// Where field `identifier` (spec "Identifier") starts in a `OptionalSection`.
    pub const OFFSET_IDENTIFIER: usize = 0;
    /// Where field `data_size` (spec "Data size") starts in a `OptionalSection`.
    pub const OFFSET_DATA_SIZE: usize = 8;
    /// Where field `data` (spec "Data") starts in a `OptionalSection`.
    pub const OFFSET_DATA: usize = 12;
    /// Bytes of a `OptionalSection` with these imports
    /// and the values of its fields
    /// `data_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(data_size: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((data_size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `OptionalSection` borrowed in place: the
/// fields before `data`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`OptionalSectionRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct OptionalSectionRef {
    /// Field `identifier` as stored (spec "Identifier").
    pub identifier: zerocopy::byteorder::little_endian::U64,
    /// Field `data_size` as stored (spec "Data size").
    pub data_size: zerocopy::byteorder::little_endian::U32,
}
impl OptionalSectionRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`OptionalSectionRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `identifier` (spec "Identifier").
    pub fn identifier(&self) -> u64 {
        self.identifier.get()
    }
    /// Field `data_size` (spec "Data size").
    pub fn data_size(&self) -> u32 {
        self.data_size.get()
    }
    /// Field `data` (spec "Data") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn data<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let data_size = self.data_size();
        let len = usize::try_from((data_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<OptionalSectionRef>()` is
/// [`OptionalSectionRef::SIZE`] (else this does not compile).
const _: [(); OptionalSectionRef::SIZE] = [(); core::mem::size_of::<
    OptionalSectionRef,
>()];
impl crate::Record for OptionalSection {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.data_size = self.data.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.data_size),
            Some(self.data.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "OptionalSection",
                        "data_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// Payload of optional section 0 (sparse fragments): per dimension the offset of
/// the generic tile with the tiles' global-order minimum coordinates, then the
/// same for the maxima. The engine requires a data size of exactly
/// 2 * D * 8 bytes. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-global-order` (table "Tile global order").
#[binrw::binrw]
#[brw(little)]
#[br(import(num_dims: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileGlobalOrderBounds {
    /// Spec field "Tile global order min coordinates offset for dimension 1 … N" (`list<u64>`).
    #[br(err_context("TileGlobalOrderBounds.min_offsets"), parse_with = rt::list, args((num_dims) as u64, 8, (), "TileGlobalOrderBounds", "min_offsets"))]
    pub min_offsets: Vec<u64>,
    /// Spec field "Tile global order max coordinates offset for dimension 1 … N" (`list<u64>`).
    #[br(err_context("TileGlobalOrderBounds.max_offsets"), parse_with = rt::list, args((num_dims) as u64, 8, (), "TileGlobalOrderBounds", "max_offsets"))]
    pub max_offsets: Vec<u64>,
}
impl TileGlobalOrderBounds {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-global-order";
}
impl TileGlobalOrderBounds {
    /// Where field `min_offsets` (spec "Tile global order min coordinates offset for dimension 1 … N") starts in a `TileGlobalOrderBounds`.
    pub const OFFSET_MIN_OFFSETS: usize = 0;
    /// Bytes of a `TileGlobalOrderBounds` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num_dims: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(((num_dims) as u64).checked_mul(8u64)?)?;
        __len = __len.checked_add(((num_dims) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
    /// Where field `max_offsets` (spec "Tile global order max coordinates offset for dimension 1 … N") starts in a `TileGlobalOrderBounds` with these
    /// imports; `None` on overflow or when it depends on the content.
    #[allow(unused_mut)]
    pub fn offset_max_offsets(num_dims: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(((num_dims) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
impl crate::Record for TileGlobalOrderBounds {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        Ok(())
    }
}
/// The R-tree generic tile; `version` is the footer's version. Levels run from
/// the root to the leaves (one leaf MBR per sparse tile); a dense fragment has
/// no levels. Before version 5 every dimension has the domain's coordinate size
/// and the caller passes `dims` so. The spec page does not say that the levels
/// are stored root first; otherwise it matches the engine (tiledb/sm/rtree/rtree.cc).
///
/// Spec: `format_spec/fragment.md#r-tree` (table "R-Tree").
#[binrw::binrw]
#[brw(little)]
#[br(import(version: u32, dims: rt::Dims))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RTree {
    /// Spec field "Dimension number" (`u32`). Removed in version 5.
    #[br(err_context("RTree.dim_num"), if((version) < 5))]
    pub dim_num: Option<u32>,
    /// Spec field "Fanout" (`u32`).
    #[br(err_context("RTree.fanout"))]
    pub fanout: u32,
    /// Spec field "Datatype" (`u8`, values from [`Datatype`]). Removed in version 5.
    #[br(err_context("RTree.datatype"), if((version) < 5))]
    pub datatype: Option<Datatype>,
    /// Spec field "Num levels" (`u32`).
    #[br(err_context("RTree.num_levels"))]
    pub num_levels: u32,
    /// Spec field "Num MBRs at level 1 … MBR N at level L" (`list<RTreeLevel>`).
    #[br(err_context("RTree.levels"), parse_with = rt::list, args((num_levels) as u64, 1, (dims,), "RTree", "levels"))]
    pub levels: Vec<RTreeLevel>,
}
impl RTree {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#r-tree";
}
impl RTree {
    /// Where field `dim_num` (spec "Dimension number") starts in a `RTree`.
    pub const OFFSET_DIM_NUM: usize = 0;
}
impl crate::Record for RTree {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        if version < 5 {
            if self.dim_num.is_none() {
                self.dim_num = Some(Default::default());
            }
        } else {
            self.dim_num = None;
        }
        if version < 5 {
            if self.datatype.is_none() {
                self.datatype = Some(Default::default());
            }
        } else {
            self.datatype = None;
        }
        let x = core::mem::take(&mut self.levels);
        self.levels = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.levels);
        self.levels = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_levels = self.levels.len() as u32;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        if let Some(v) = version {
            if (v < 5) != self.dim_num.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "RTree",
                        "dim_num",
                        v,
                        self.dim_num.is_some(),
                    ),
                );
            }
        }
        if let Some(v) = version {
            if (v < 5) != self.datatype.is_some() {
                return Err(
                    crate::EncodeError::new(
                        "RTree",
                        "datatype",
                        v,
                        self.datatype.is_some(),
                    ),
                );
            }
        }
        {
            let x = &self.levels;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_levels),
            Some(self.levels.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RTree",
                        "num_levels",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One level of the R-tree: its MBR count and MBRs. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#r-tree` (table "R-Tree").
#[binrw::binrw]
#[brw(little)]
#[br(import(dims: rt::Dims))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct RTreeLevel {
    /// Spec field "Num MBRs at level" (`u64`).
    #[br(err_context("RTreeLevel.num_mbrs"))]
    pub num_mbrs: u64,
    /// Spec field "MBR 1 … MBR N at level" (`list<Mbr>`).
    #[br(err_context("RTreeLevel.mbrs"), parse_with = rt::list, args((num_mbrs) as u64, 1, (dims,), "RTreeLevel", "mbrs"))]
    pub mbrs: Vec<Mbr>,
}
impl RTreeLevel {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#r-tree";
}
impl RTreeLevel {
    /// Where field `num_mbrs` (spec "Num MBRs at level") starts in a `RTreeLevel`.
    pub const OFFSET_NUM_MBRS: usize = 0;
    /// Where field `mbrs` (spec "MBR 1 … MBR N at level") starts in a `RTreeLevel`.
    pub const OFFSET_MBRS: usize = 8;
    /// Bytes of a `RTreeLevel` with these imports
    /// and the values of its fields
    /// `num_mbrs`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(dims: rt::Dims, num_mbrs: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len
            .checked_add(((num_mbrs) as u64).checked_mul(Mbr::size((dims).clone())?)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `RTreeLevel` borrowed in place: the
/// fields before `mbrs`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`RTreeLevelRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct RTreeLevelRef {
    /// Field `num_mbrs` as stored (spec "Num MBRs at level").
    pub num_mbrs: zerocopy::byteorder::little_endian::U64,
}
impl RTreeLevelRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`RTreeLevelRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num_mbrs` (spec "Num MBRs at level").
    pub fn num_mbrs(&self) -> u64 {
        self.num_mbrs.get()
    }
}
/// The view is exactly its fields: `size_of::<RTreeLevelRef>()` is
/// [`RTreeLevelRef::SIZE`] (else this does not compile).
const _: [(); RTreeLevelRef::SIZE] = [(); core::mem::size_of::<RTreeLevelRef>()];
impl crate::Record for RTreeLevel {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.mbrs);
        self.mbrs = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.mbrs);
        self.mbrs = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_mbrs = self.mbrs.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.mbrs;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_mbrs),
            Some(self.mbrs.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "RTreeLevel",
                        "num_mbrs",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// A count and that many u64: the layout of the tile offsets, var tile offsets,
/// var tile sizes (the spec's "Tile Sizes") and validity tile offsets generic
/// tiles. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-offsets` (table "Tile Offsets").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileOffsets {
    /// Spec field "Num tile offsets" (`u64`).
    #[br(err_context("TileOffsets.num"))]
    pub num: u64,
    /// Spec field "Tile offset 1 … N" (`list<u64>`).
    #[br(err_context("TileOffsets.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileOffsets", "values"))]
    pub values: Vec<u64>,
}
impl TileOffsets {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-offsets";
}
impl TileOffsets {
    /// Where field `num` (spec "Num tile offsets") starts in a `TileOffsets`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Tile offset 1 … N") starts in a `TileOffsets`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileOffsets` with these imports
    /// and the values of its fields
    /// `num`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(((num) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileOffsets` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileOffsetsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileOffsetsRef {
    /// Field `num` as stored (spec "Num tile offsets").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileOffsetsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileOffsetsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num tile offsets").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileOffsetsRef>()` is
/// [`TileOffsetsRef::SIZE`] (else this does not compile).
const _: [(); TileOffsetsRef::SIZE] = [(); core::mem::size_of::<TileOffsetsRef>()];
impl crate::Record for TileOffsets {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num = self.values.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.values.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size("TileOffsets", "num", stated as u64, actual),
                );
            }
        }
        Ok(())
    }
}
/// The tile mins or tile maxes generic tile of one field, as the engine writes
/// it. The spec page shows a value count, the values, then the var buffer
/// size and buffer; the engine writes the byte size of the fixed buffer, the
/// byte size of the var buffer, then the fixed bytes, then the var bytes. For a
/// var-sized field the fixed buffer holds one u64 offset into the var buffer per
/// tile; a field without min/max metadata has both sizes 0. The engine also
/// writes global-order min/max tiles in this layout (version 23, sparse, one
/// per dimension), which the spec's file layout omits.
///
/// Spec: `format_spec/fragment.md#tile-mins-maxes` (table "Tile Mins Maxes").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileMinMax {
    /// Spec field "Num values" (`u64`).
    ///
    /// Byte size of the fixed buffer (the spec page says a value count).
    #[br(err_context("TileMinMax.fixed_size"))]
    pub fixed_size: u64,
    /// Spec field "Var buffer size" (`u64`).
    #[br(err_context("TileMinMax.var_size"))]
    pub var_size: u64,
    /// Spec field "Value 1 … Value N" (`bytes`).
    #[br(err_context("TileMinMax.fixed"), parse_with = rt::bytes, args((fixed_size) as u64, "TileMinMax", "fixed"))]
    pub fixed: Vec<u8>,
    /// Spec field "Var buffer" (`bytes`).
    #[br(err_context("TileMinMax.var"), parse_with = rt::bytes, args((var_size) as u64, "TileMinMax", "var"))]
    pub var: Vec<u8>,
}
impl TileMinMax {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-mins-maxes";
}
impl TileMinMax {
    /// Where field `fixed_size` (spec "Num values") starts in a `TileMinMax`.
    pub const OFFSET_FIXED_SIZE: usize = 0;
    /// Where field `var_size` (spec "Var buffer size") starts in a `TileMinMax`.
    pub const OFFSET_VAR_SIZE: usize = 8;
    /// Where field `fixed` (spec "Value 1 … Value N") starts in a `TileMinMax`.
    pub const OFFSET_FIXED: usize = 16;
    /// Bytes of a `TileMinMax` with these imports
    /// and the values of its fields
    /// `fixed_size`, `var_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(fixed_size: u64, var_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((fixed_size) as u64)?;
        __len = __len.checked_add((var_size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileMinMax` borrowed in place: the
/// fields before `fixed`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileMinMaxRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileMinMaxRef {
    /// Field `fixed_size` as stored (spec "Num values").
    pub fixed_size: zerocopy::byteorder::little_endian::U64,
    /// Field `var_size` as stored (spec "Var buffer size").
    pub var_size: zerocopy::byteorder::little_endian::U64,
}
impl TileMinMaxRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 16;
    /// The view of the first [`TileMinMaxRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `fixed_size` (spec "Num values").
    pub fn fixed_size(&self) -> u64 {
        self.fixed_size.get()
    }
    /// Field `var_size` (spec "Var buffer size").
    pub fn var_size(&self) -> u64 {
        self.var_size.get()
    }
    /// Field `fixed` (spec "Value 1 … Value N") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn fixed<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let fixed_size = self.fixed_size();
        let len = usize::try_from((fixed_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<TileMinMaxRef>()` is
/// [`TileMinMaxRef::SIZE`] (else this does not compile).
const _: [(); TileMinMaxRef::SIZE] = [(); core::mem::size_of::<TileMinMaxRef>()];
impl crate::Record for TileMinMax {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.fixed_size = self.fixed.len() as u64;
        self.var_size = self.var.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.fixed_size),
            Some(self.fixed.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "TileMinMax",
                        "fixed_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.var_size),
            Some(self.var.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "TileMinMax",
                        "var_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The tile sums generic tile of one field. Each value is the bit pattern of an
/// i64 (signed integer fields), u64 (unsigned) or f64 (floating point fields).
/// Otherwise matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-sums` (table "Tile Sums").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileSums {
    /// Spec field "Num values" (`u64`).
    #[br(err_context("TileSums.num"))]
    pub num: u64,
    /// Spec field "Value 1 … Value N" (`list<u64>`).
    #[br(err_context("TileSums.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileSums", "values"))]
    pub values: Vec<u64>,
}
impl TileSums {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-sums";
}
impl TileSums {
    /// Where field `num` (spec "Num values") starts in a `TileSums`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Value 1 … Value N") starts in a `TileSums`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileSums` with these imports
    /// and the values of its fields
    /// `num`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(((num) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileSums` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileSumsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileSumsRef {
    /// Field `num` as stored (spec "Num values").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileSumsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileSumsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num values").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileSumsRef>()` is
/// [`TileSumsRef::SIZE`] (else this does not compile).
const _: [(); TileSumsRef::SIZE] = [(); core::mem::size_of::<TileSumsRef>()];
impl crate::Record for TileSums {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num = self.values.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.values.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size("TileSums", "num", stated as u64, actual),
                );
            }
        }
        Ok(())
    }
}
/// The tile null counts generic tile of one field. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-null-count` (table "Tile Null Count").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct TileNullCounts {
    /// Spec field "Num values" (`u64`).
    #[br(err_context("TileNullCounts.num"))]
    pub num: u64,
    /// Spec field "Value 1 … Value N" (`list<u64>`).
    #[br(err_context("TileNullCounts.values"), parse_with = rt::list, args((num) as u64, 8, (), "TileNullCounts", "values"))]
    pub values: Vec<u64>,
}
impl TileNullCounts {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-null-count";
}
impl TileNullCounts {
    /// Where field `num` (spec "Num values") starts in a `TileNullCounts`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `values` (spec "Value 1 … Value N") starts in a `TileNullCounts`.
    pub const OFFSET_VALUES: usize = 8;
    /// Bytes of a `TileNullCounts` with these imports
    /// and the values of its fields
    /// `num`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(num: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(((num) as u64).checked_mul(8u64)?)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `TileNullCounts` borrowed in place: the
/// fields before `values`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`TileNullCountsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct TileNullCountsRef {
    /// Field `num` as stored (spec "Num values").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl TileNullCountsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`TileNullCountsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num values").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<TileNullCountsRef>()` is
/// [`TileNullCountsRef::SIZE`] (else this does not compile).
const _: [(); TileNullCountsRef::SIZE] = [(); core::mem::size_of::<TileNullCountsRef>()];
impl crate::Record for TileNullCounts {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.num = self.values.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.values.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "TileNullCounts",
                        "num",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The fragment min/max/sum/null count generic tile: one entry per field of the
/// index map (`count` = n). The spec page marks it new in version 11; the
/// engine stores and reads it from version 12.
///
/// Spec: `format_spec/fragment.md#tile-fragment-min-max-sum-null-count` (table "Tile Fragment Min Max Sum Null Count").
#[binrw::binrw]
#[brw(little)]
#[br(import(count: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FragmentMinMaxSumNullCount {
    /// Spec field "Min size … Null count, for attribute/dimension 1 … N" (`list<FieldMinMaxSumNullCount>`).
    #[br(err_context("FragmentMinMaxSumNullCount.fields"), parse_with = rt::list, args((count) as u64, 1, (), "FragmentMinMaxSumNullCount", "fields"))]
    pub fields: Vec<FieldMinMaxSumNullCount>,
}
impl FragmentMinMaxSumNullCount {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-fragment-min-max-sum-null-count";
}
impl FragmentMinMaxSumNullCount {
    /// Where field `fields` (spec "Min size … Null count, for attribute/dimension 1 … N") starts in a `FragmentMinMaxSumNullCount`.
    pub const OFFSET_FIELDS: usize = 0;
}
impl crate::Record for FragmentMinMaxSumNullCount {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.fields);
        self.fields = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.fields);
        self.fields = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.fields;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
/// The entry of one field. The sum is the bit pattern of an i64, u64 or f64 (the page says u64). Otherwise matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-fragment-min-max-sum-null-count` (table "Tile Fragment Min Max Sum Null Count").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FieldMinMaxSumNullCount {
    /// Spec field "Min size" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.min_size"))]
    pub min_size: u64,
    /// Spec field "Min value" (`bytes`).
    #[br(err_context("FieldMinMaxSumNullCount.min"), parse_with = rt::bytes, args((min_size) as u64, "FieldMinMaxSumNullCount", "min"))]
    pub min: Vec<u8>,
    /// Spec field "Max size" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.max_size"))]
    pub max_size: u64,
    /// Spec field "Max value" (`bytes`).
    #[br(err_context("FieldMinMaxSumNullCount.max"), parse_with = rt::bytes, args((max_size) as u64, "FieldMinMaxSumNullCount", "max"))]
    pub max: Vec<u8>,
    /// Spec field "Sum" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.sum"))]
    pub sum: u64,
    /// Spec field "Null count" (`u64`).
    #[br(err_context("FieldMinMaxSumNullCount.null_count"))]
    pub null_count: u64,
}
impl FieldMinMaxSumNullCount {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-fragment-min-max-sum-null-count";
}
impl FieldMinMaxSumNullCount {
    /// Where field `min_size` (spec "Min size") starts in a `FieldMinMaxSumNullCount`.
    pub const OFFSET_MIN_SIZE: usize = 0;
    /// Where field `min` (spec "Min value") starts in a `FieldMinMaxSumNullCount`.
    pub const OFFSET_MIN: usize = 8;
    /// Bytes of a `FieldMinMaxSumNullCount` with these imports
    /// and the values of its fields
    /// `min_size`, `max_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(min_size: u64, max_size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((min_size) as u64)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((max_size) as u64)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(8)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `FieldMinMaxSumNullCount` borrowed in place: the
/// fields before `min`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FieldMinMaxSumNullCountRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FieldMinMaxSumNullCountRef {
    /// Field `min_size` as stored (spec "Min size").
    pub min_size: zerocopy::byteorder::little_endian::U64,
}
impl FieldMinMaxSumNullCountRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`FieldMinMaxSumNullCountRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `min_size` (spec "Min size").
    pub fn min_size(&self) -> u64 {
        self.min_size.get()
    }
    /// Field `min` (spec "Min value") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn min<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let min_size = self.min_size();
        let len = usize::try_from((min_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<FieldMinMaxSumNullCountRef>()` is
/// [`FieldMinMaxSumNullCountRef::SIZE`] (else this does not compile).
const _: [(); FieldMinMaxSumNullCountRef::SIZE] = [(); core::mem::size_of::<
    FieldMinMaxSumNullCountRef,
>()];
impl crate::Record for FieldMinMaxSumNullCount {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.min_size = self.min.len() as u64;
        self.max_size = self.max.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.min_size),
            Some(self.min.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FieldMinMaxSumNullCount",
                        "min_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.max_size),
            Some(self.max.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "FieldMinMaxSumNullCount",
                        "max_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The processed conditions generic tile: names of the delete/update commit
/// files already applied to the fragment. The spec marks it new in version 16;
/// the engine's writer also stores it for version 15, but only footers from
/// version 16 point at it.
///
/// Spec: `format_spec/fragment.md#tile-processed-conditions` (table "Tile Processed Conditions").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ProcessedConditions {
    /// Spec field "Num" (`u64`).
    #[br(err_context("ProcessedConditions.num"))]
    pub num: u64,
    /// Spec field "Condition size / Condition, 1 … N" (`list<ProcessedCondition>`).
    #[br(err_context("ProcessedConditions.conditions"), parse_with = rt::list, args((num) as u64, 1, (), "ProcessedConditions", "conditions"))]
    pub conditions: Vec<ProcessedCondition>,
}
impl ProcessedConditions {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-processed-conditions";
}
impl ProcessedConditions {
    /// Where field `num` (spec "Num") starts in a `ProcessedConditions`.
    pub const OFFSET_NUM: usize = 0;
    /// Where field `conditions` (spec "Condition size / Condition, 1 … N") starts in a `ProcessedConditions`.
    pub const OFFSET_CONDITIONS: usize = 8;
}
/// The fixed-size fields that open a `ProcessedConditions` borrowed in place: the
/// fields before `conditions`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ProcessedConditionsRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ProcessedConditionsRef {
    /// Field `num` as stored (spec "Num").
    pub num: zerocopy::byteorder::little_endian::U64,
}
impl ProcessedConditionsRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ProcessedConditionsRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `num` (spec "Num").
    pub fn num(&self) -> u64 {
        self.num.get()
    }
}
/// The view is exactly its fields: `size_of::<ProcessedConditionsRef>()` is
/// [`ProcessedConditionsRef::SIZE`] (else this does not compile).
const _: [(); ProcessedConditionsRef::SIZE] = [(); core::mem::size_of::<
    ProcessedConditionsRef,
>()];
impl crate::Record for ProcessedConditions {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.conditions);
        self.conditions = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.conditions);
        self.conditions = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num = self.conditions.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.conditions;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num),
            Some(self.conditions.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ProcessedConditions",
                        "num",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// One processed condition: the marker file name (e.g. `__t_t_uuid_v.del`). Matches the spec page.
///
/// Spec: `format_spec/fragment.md#tile-processed-conditions` (table "Tile Processed Conditions").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ProcessedCondition {
    /// Spec field "Condition size" (`u64`).
    #[br(err_context("ProcessedCondition.size"))]
    pub size: u64,
    /// Spec field "Condition" (`string`).
    #[br(err_context("ProcessedCondition.condition"), parse_with = rt::bytes, args((size) as u64, "ProcessedCondition", "condition"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub condition: Vec<u8>,
}
impl ProcessedCondition {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#tile-processed-conditions";
}
impl ProcessedCondition {
    /// Where field `size` (spec "Condition size") starts in a `ProcessedCondition`.
    pub const OFFSET_SIZE: usize = 0;
    /// Where field `condition` (spec "Condition") starts in a `ProcessedCondition`.
    pub const OFFSET_CONDITION: usize = 8;
    /// Bytes of a `ProcessedCondition` with these imports
    /// and the values of its fields
    /// `size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(size: u64) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `ProcessedCondition` borrowed in place: the
/// fields before `condition`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ProcessedConditionRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ProcessedConditionRef {
    /// Field `size` as stored (spec "Condition size").
    pub size: zerocopy::byteorder::little_endian::U64,
}
impl ProcessedConditionRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`ProcessedConditionRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `size` (spec "Condition size").
    pub fn size(&self) -> u64 {
        self.size.get()
    }
    /// Field `condition` (spec "Condition") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn condition<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let size = self.size();
        let len = usize::try_from((size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<ProcessedConditionRef>()` is
/// [`ProcessedConditionRef::SIZE`] (else this does not compile).
const _: [(); ProcessedConditionRef::SIZE] = [(); core::mem::size_of::<
    ProcessedConditionRef,
>()];
impl crate::Record for ProcessedCondition {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.size = self.condition.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.size),
            Some(self.condition.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ProcessedCondition",
                        "size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The whole fragment metadata of versions 1 and 2: the data of one generic
/// tile at offset 0. `mbr_size` is the byte size of one MBR (the sum over the
/// dimensions of 2 * coord_size), `bounding_size` the byte size of one bounding
/// coordinates entry (2 * D * coord_size(dimension 0)). Where the engine
/// (`FragmentMetadata::load_v1_v2`) differs from the spec page: the tile
/// offsets hold A + 1 lists (the last for `__coords`), var offsets and var sizes
/// A lists; last tile cell num is a u64 (no type on the page); file sizes hold
/// A + 1 and file var sizes A values; there is no dense flag (a fragment is
/// dense iff it has no `__coords.tdb`).
///
/// Spec: `format_spec/fragment.md#legacy-fragment-metadata-file` (table "Legacy Fragment metadata file").
#[binrw::binrw]
#[brw(little)]
#[br(import(num_attributes: u64, mbr_size: u64, bounding_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LegacyFragmentMetadata {
    /// Spec field "Version number" (`u32`).
    #[br(err_context("LegacyFragmentMetadata.version_number"))]
    pub version_number: u32,
    /// Spec field "Non-empty domain size" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.non_empty_domain_size"))]
    pub non_empty_domain_size: u64,
    /// Spec field "Non-empty domain" (`bytes`).
    #[br(err_context("LegacyFragmentMetadata.non_empty_domain"), parse_with = rt::bytes, args((non_empty_domain_size) as u64, "LegacyFragmentMetadata", "non_empty_domain"))]
    pub non_empty_domain: Vec<u8>,
    /// Spec field "Num MBRs" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.num_mbrs"))]
    pub num_mbrs: u64,
    /// Spec field "MBR 1 … MBR N" (`bytes`).
    ///
    /// `num_mbrs` MBRs of `mbr_size` bytes each.
    #[br(err_context("LegacyFragmentMetadata.mbrs"), parse_with = rt::bytes, args((num_mbrs.saturating_mul(mbr_size)) as u64, "LegacyFragmentMetadata", "mbrs"))]
    pub mbrs: Vec<u8>,
    /// Spec field "Num bounding coords" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.num_bounding_coords"))]
    pub num_bounding_coords: u64,
    /// Spec field "Bounding coords" (`bytes`).
    ///
    /// Skipped by the engine.
    #[br(err_context("LegacyFragmentMetadata.bounding_coords"), parse_with = rt::bytes, args((num_bounding_coords.saturating_mul(bounding_size)) as u64, "LegacyFragmentMetadata", "bounding_coords"))]
    pub bounding_coords: Vec<u8>,
    /// Spec field "Tile offsets" (`LegacyTileOffsets`).
    #[br(err_context("LegacyFragmentMetadata.tile_offsets"), args(num_attributes + 1))]
    pub tile_offsets: LegacyTileOffsets,
    /// Spec field "Tile var offsets" (`LegacyTileOffsets`).
    #[br(err_context("LegacyFragmentMetadata.tile_var_offsets"), args(num_attributes))]
    pub tile_var_offsets: LegacyTileOffsets,
    /// Spec field "Variable tile sizes" (`LegacyTileOffsets`).
    #[br(err_context("LegacyFragmentMetadata.tile_var_sizes"), args(num_attributes))]
    pub tile_var_sizes: LegacyTileOffsets,
    /// Spec field "Last tile cell num" (`u64`).
    #[br(err_context("LegacyFragmentMetadata.last_tile_cell_num"))]
    pub last_tile_cell_num: u64,
    /// Spec field "File sizes" (`list<u64>`).
    #[br(err_context("LegacyFragmentMetadata.file_sizes"), parse_with = rt::list, args((num_attributes + 1) as u64, 8, (), "LegacyFragmentMetadata", "file_sizes"))]
    pub file_sizes: Vec<u64>,
    /// Spec field "File var sizes" (`list<u64>`).
    #[br(err_context("LegacyFragmentMetadata.file_var_sizes"), parse_with = rt::list, args((num_attributes) as u64, 8, (), "LegacyFragmentMetadata", "file_var_sizes"))]
    pub file_var_sizes: Vec<u64>,
}
impl LegacyFragmentMetadata {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#legacy-fragment-metadata-file";
}
impl LegacyFragmentMetadata {
    /// Where field `version_number` (spec "Version number") starts in a `LegacyFragmentMetadata`.
    pub const OFFSET_VERSION_NUMBER: usize = 0;
    /// Where field `non_empty_domain_size` (spec "Non-empty domain size") starts in a `LegacyFragmentMetadata`.
    pub const OFFSET_NON_EMPTY_DOMAIN_SIZE: usize = 4;
    /// Where field `non_empty_domain` (spec "Non-empty domain") starts in a `LegacyFragmentMetadata`.
    pub const OFFSET_NON_EMPTY_DOMAIN: usize = 12;
}
/// The fixed-size fields that open a `LegacyFragmentMetadata` borrowed in place: the
/// fields before `non_empty_domain`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`LegacyFragmentMetadataRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct LegacyFragmentMetadataRef {
    /// Field `version_number` as stored (spec "Version number").
    pub version_number: zerocopy::byteorder::little_endian::U32,
    /// Field `non_empty_domain_size` as stored (spec "Non-empty domain size").
    pub non_empty_domain_size: zerocopy::byteorder::little_endian::U64,
}
impl LegacyFragmentMetadataRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`LegacyFragmentMetadataRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version_number` (spec "Version number").
    pub fn version_number(&self) -> u32 {
        self.version_number.get()
    }
    /// Field `non_empty_domain_size` (spec "Non-empty domain size").
    pub fn non_empty_domain_size(&self) -> u64 {
        self.non_empty_domain_size.get()
    }
    /// Field `non_empty_domain` (spec "Non-empty domain") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn non_empty_domain<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let non_empty_domain_size = self.non_empty_domain_size();
        let len = usize::try_from((non_empty_domain_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<LegacyFragmentMetadataRef>()` is
/// [`LegacyFragmentMetadataRef::SIZE`] (else this does not compile).
const _: [(); LegacyFragmentMetadataRef::SIZE] = [(); core::mem::size_of::<
    LegacyFragmentMetadataRef,
>()];
impl crate::Record for LegacyFragmentMetadata {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.tile_offsets);
        self.tile_offsets = x.at_version(version);
        let x = core::mem::take(&mut self.tile_var_offsets);
        self.tile_var_offsets = x.at_version(version);
        let x = core::mem::take(&mut self.tile_var_sizes);
        self.tile_var_sizes = x.at_version(version);
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.tile_offsets);
        self.tile_offsets = x.with_sizes();
        let x = core::mem::take(&mut self.tile_var_offsets);
        self.tile_var_offsets = x.with_sizes();
        let x = core::mem::take(&mut self.tile_var_sizes);
        self.tile_var_sizes = x.with_sizes();
        self.non_empty_domain_size = self.non_empty_domain.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.tile_offsets;
            x.check(version)?;
        }
        {
            let x = &self.tile_var_offsets;
            x.check(version)?;
        }
        {
            let x = &self.tile_var_sizes;
            x.check(version)?;
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.non_empty_domain_size),
            Some(self.non_empty_domain.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "LegacyFragmentMetadata",
                        "non_empty_domain_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// `count` lists of tile offsets or sizes, each a `TileOffsets`. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#legacy-tile-offsetssizes` (table "Legacy tile offsets/sizes").
#[binrw::binrw]
#[brw(little)]
#[br(import(count: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LegacyTileOffsets {
    /// Spec field "Num tile offsets/sizes, attribute 1 … Tile offset/size N, attribute N" (`list<TileOffsets>`).
    #[br(err_context("LegacyTileOffsets.lists"), parse_with = rt::list, args((count) as u64, 1, (), "LegacyTileOffsets", "lists"))]
    pub lists: Vec<TileOffsets>,
}
impl LegacyTileOffsets {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#legacy-tile-offsetssizes";
}
impl LegacyTileOffsets {
    /// Where field `lists` (spec "Num tile offsets/sizes, attribute 1 … Tile offset/size N, attribute N") starts in a `LegacyTileOffsets`.
    pub const OFFSET_LISTS: usize = 0;
}
impl crate::Record for LegacyTileOffsets {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.lists);
        self.lists = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.lists);
        self.lists = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.lists;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
