//! The fragment metadata file, `__fragment_metadata.tdb`: the footer and the
//! generic tiles it points at (format_spec/fragment.md#fragment-metadata-file).

use crate::format::version::{
    has_footer_optional_sections, has_fragment_min_max, has_processed_conditions_tile,
    has_tile_min_max,
};
use crate::format::{
    encode, encode_at, FooterLength, FragmentFooter, FragmentFooterParts,
    FragmentMinMaxSumNullCount, Mbr, OptionalSection, OptionalSectionIdentifier,
    ProcessedCondition, ProcessedConditions, RTree, Record, StreamedFile, TileGlobalOrderBounds,
    TileGlobalOrderBoundsParts, TileMinMax, TileNullCounts, TileOffsets, TileSizes, TileSums,
};

use crate::write::error::WriteResult;

/// A record of the metadata file with its sizes and counts computed (the
/// generated `with_sizes`), checked and encoded.
fn checked<T>(record: T, version: u32) -> WriteResult<Vec<u8>>
where
    T: Record + binrw::BinWrite,
    for<'a> <T as binrw::BinWrite>::Args<'a>: Default,
{
    Ok(encode_at(&record.with_sizes(), version)?)
}
use crate::write::generic::generic_tile;
use crate::write::order::GlobalOrder;
use crate::write::stats::{fragment_entry, var_parts};

use super::rtree::*;
use super::types::*;

impl FragmentWriter {
    /// The bytes of `__fragment_metadata.tdb`: the generic tiles appended
    /// through the generated `FragmentFooterParts`, which gives the footer
    /// its offsets, then the footer and its length.
    pub(super) fn metadata_file(&mut self) -> WriteResult<Vec<u8>> {
        let v = self.version;
        let key = self.key;
        let dense = self.is_dense();
        let num_tiles = self.tile_cells.len();
        let coord_sizes = self.schema.domain.coord_sizes();
        let mut out = Vec::new();
        let mut parts = FragmentFooterParts::default();
        let tile = |table: Vec<u8>| generic_tile(&table, v, key);
        // R-tree.
        let rtree = if dense {
            crate::format::table!(RTree {
                dim_num: None,
                fanout: 10,
                datatype: None,
                num_levels: 0,
                levels: Vec::new(),
            })
        } else {
            build_rtree(&self.mbrs, &coord_sizes, &GlobalOrder::new(&self.schema))?
        };
        parts.push_rtree_tile(&mut out, [&tile(checked(rtree, v)?)?[..]])?;
        // A file the field does not have (or a field no tile was written
        // for) is a list of zeros, one per tile, as the engine writes it.
        let offsets = |d: Option<&DataFile>| -> WriteResult<Vec<u8>> {
            let t = match d {
                Some(d) => TileOffsets::default().with_outside_offsets(&d.tiles)?,
                None => crate::format::table!(TileOffsets {
                    values: vec![0; num_tiles],
                }),
            };
            tile(checked(t, v)?)
        };
        let written = |m: &IdxMeta| m.written;
        for m in &self.meta {
            let t = offsets(Some(&m.fixed).filter(|_| written(m)))?;
            parts.push_tile_offsets_tiles(&mut out, [&t[..]]);
        }
        for m in &self.meta {
            let t = offsets(m.var.as_ref().filter(|_| written(m)))?;
            parts.push_tile_var_offsets_tiles(&mut out, [&t[..]]);
        }
        for m in &self.meta {
            // Each var tile's size before filtering, from the measure the
            // filter took of its bytes (zeros for a field without tiles).
            let sizes = match written(m) {
                true => TileSizes::default().with_outside_sizes(&m.var_tiles)?,
                false => crate::format::table!(TileSizes {
                    values: vec![0; num_tiles],
                }),
            };
            let t = tile(checked(sizes, v)?)?;
            parts.push_tile_var_sizes_tiles(&mut out, [&t[..]]);
        }
        for m in &self.meta {
            let t = offsets(m.validity.as_ref().filter(|_| written(m)))?;
            parts.push_tile_validity_offsets_tiles(&mut out, [&t[..]]);
        }
        let mut optional_sections = Vec::new();
        if has_tile_min_max(v) {
            for m in &self.meta {
                let var = var_parts(&m.stats.min_var, &m.stats.min_ends);
                let t = tile(tile_min_max(&m.stats.mins, &var, v)?)?;
                parts.push_tile_mins_tiles(&mut out, [&t[..]]);
            }
            for m in &self.meta {
                let var = var_parts(&m.stats.max_var, &m.stats.max_ends);
                let t = tile(tile_min_max(&m.stats.maxs, &var, v)?)?;
                parts.push_tile_maxes_tiles(&mut out, [&t[..]]);
            }
            if has_footer_optional_sections(v) && !dense {
                optional_sections.push(self.global_order_section(&coord_sizes, &mut out)?);
            }
            self.sums_and_nulls(&mut out, &mut parts)?;
        }
        if has_fragment_min_max(v) {
            let fields = self
                .meta
                .iter()
                .zip(&self.specs)
                .map(|(m, s)| fragment_entry(s, &m.stats, &self.tile_cells, dense))
                .collect();
            let t = crate::format::table!(FragmentMinMaxSumNullCount { fields });
            parts.push_fragment_min_max_sum_null_count_tile(
                &mut out,
                [&tile(checked(t, v)?)?[..]],
            )?;
        }
        if has_processed_conditions_tile(v) {
            let t = crate::format::table!(ProcessedConditions {
                conditions: self
                    .processed_conditions
                    .iter()
                    .map(|c| crate::format::table!(ProcessedCondition {
                        condition: c.as_bytes().to_vec(),
                    }))
                    .collect(),
            });
            let t = tile(checked(t, v)?)?;
            // Version 15 stores the tile, but its footer does not point at
            // it (the field is new in version 16).
            let points_at = FragmentFooter::default()
                .at_version(v)
                .processed_conditions_offset
                .is_some();
            if points_at {
                parts.push_processed_conditions_tile(&mut out, [&t[..]])?;
            } else {
                out.extend_from_slice(&t);
            }
        }
        let footer = self.footer(&coord_sizes, optional_sections)?;
        let footer = footer.with_outside_offsets(&parts)?;
        let footer_bytes = checked(footer, v)?;
        out.extend_from_slice(&footer_bytes);
        let length = FooterLength::default().with_outside_sizes(&footer_bytes)?;
        out.extend_from_slice(&encode(&length)?);
        Ok(out)
    }

    /// The footer at the writer's version, every size of the data files
    /// set from the generated layouts that measured them, its tile count
    /// and its last tile's cells by the generated `with_outside_counts`
    /// from the tiles' cell counts; its offsets are the metadata file's to
    /// set.
    fn footer(
        &self,
        coord_sizes: &[u64],
        optional_sections: Vec<OptionalSection>,
    ) -> WriteResult<FragmentFooter> {
        let dense = self.is_dense();
        let ned = self.non_empty_domain(coord_sizes)?;
        let files = |f: fn(&IdxMeta) -> Option<&DataFile>| -> Vec<StreamedFile> {
            self.meta
                .iter()
                .map(|m| f(m).map(|d| d.file).unwrap_or_default())
                .collect()
        };
        // Every field of the newest version; `at_version` keeps those of `v`.
        let footer = crate::format::table!(FragmentFooter {
            array_schema_name: Some(self.schema_name.as_bytes().to_vec()),
            dense: u8::from(dense),
            null_non_empty_domain: 0,
            legacy_non_empty_domain: None,
            non_empty_domain: Some(ned),
            sparse_tile_num: 0,
            last_tile_cell_num: 0,
            includes_timestamps: Some(u8::from(self.includes.0)),
            includes_delete_metadata: Some(u8::from(self.includes.1)),
            file_validity_sizes: Some(Vec::new()),
            tile_validity_offsets: Some(Vec::new()),
            tile_mins_offsets: Some(Vec::new()),
            tile_maxes_offsets: Some(Vec::new()),
            tile_sums_offsets: Some(Vec::new()),
            tile_null_counts_offsets: Some(Vec::new()),
            fragment_min_max_sum_null_count_offset: Some(0),
            processed_conditions_offset: Some(0),
            optional_sections: Some(optional_sections),
        })
        .at_version(self.version);
        Ok(footer
            .with_outside_sizes(
                &files(|m| Some(&m.fixed)),
                &files(|m| m.var.as_ref()),
                &files(|m| m.validity.as_ref()),
            )?
            .with_outside_counts(&self.tile_cells)?)
    }

    /// Version 23, sparse: the tiles' global-order bounds, one generic
    /// tile of mins per dimension, then one of maxes, in the tile min/max
    /// layout (fragment_metadata.cc `store_tile_global_order_mins`), pushed
    /// onto `out` with `push` between the maxes and the sums as the engine
    /// places them; the optional section that points at them.
    fn global_order_section(
        &self,
        coord_sizes: &[u64],
        out: &mut Vec<u8>,
    ) -> WriteResult<OptionalSection> {
        let mut parts = TileGlobalOrderBoundsParts::default();
        for end in [0, 1] {
            for (d, cs) in coord_sizes.iter().enumerate() {
                let (mut fixed, mut var) = (Vec::new(), Vec::new());
                for b in &self.global_order_bounds {
                    let cell = if end == 0 { &b[d].0 } else { &b[d].1 };
                    if *cs == 0 {
                        var.push(&cell[..]);
                    } else {
                        fixed.extend_from_slice(cell);
                    }
                }
                let t = generic_tile(
                    &tile_min_max(&fixed, &var, self.version)?,
                    self.version,
                    self.key,
                )?;
                match end {
                    0 => parts.push_min_tiles(out, [&t[..]]),
                    _ => parts.push_max_tiles(out, [&t[..]]),
                };
            }
        }
        let bounds = TileGlobalOrderBounds::default().with_outside_offsets(&parts)?;
        Ok(crate::format::table!(OptionalSection {
            identifier: OptionalSectionIdentifier::TileGlobalOrderOffsets,
            data: checked(bounds, self.version)?,
        })
        .with_sizes())
    }

    /// Each field's tile sums and tile null counts, appended to `out`
    /// through `parts`.
    fn sums_and_nulls(
        &self,
        out: &mut Vec<u8>,
        parts: &mut FragmentFooterParts,
    ) -> WriteResult<()> {
        let (v, key) = (self.version, self.key);
        for m in &self.meta {
            let t = crate::format::table!(TileSums {
                values: m.stats.sums.clone(),
            });
            parts.push_tile_sums_tiles(out, [&generic_tile(&checked(t, v)?, v, key)?[..]]);
        }
        for m in &self.meta {
            let t = crate::format::table!(TileNullCounts {
                values: m.stats.null_counts.clone(),
            });
            parts.push_tile_null_counts_tiles(out, [&generic_tile(&checked(t, v)?, v, key)?[..]]);
        }
        Ok(())
    }

    pub(super) fn non_empty_domain(
        &self,
        coord_sizes: &[u64],
    ) -> Result<Mbr, crate::format::EncodeError> {
        match &self.mode {
            Mode::Dense { grid, .. } => Ok(crate::format::table!(Mbr {
                ranges: grid
                    .rect
                    .iter()
                    .map(|(lo, hi)| {
                        let w = grid.datatype.size() as usize;
                        let mut r = lo.to_le_bytes()[..w].to_vec();
                        r.extend_from_slice(&hi.to_le_bytes()[..w]);
                        fixed_range(r)
                    })
                    .collect(),
            })),
            Mode::Sparse { .. } => {
                let order = GlobalOrder::new(&self.schema);
                let mut u = self.mbrs[0].clone();
                for m in &self.mbrs[1..] {
                    union_into(&mut u, m, &order);
                }
                mbr_table(&u, coord_sizes)
            }
        }
    }
}

/// A `TileMinMax` of `fixed` and `var` bytes, encoded.
fn tile_min_max(fixed: &[u8], var: &[&[u8]], version: u32) -> WriteResult<Vec<u8>> {
    // A var-sized field's values are joined, with where each starts, by
    // the generated writer; a fixed-sized field's are the fixed bytes.
    let t = if var.is_empty() {
        crate::format::table!(TileMinMax {
            fixed: fixed.to_vec(),
        })
    } else {
        TileMinMax::default().with_joined(var)
    };
    checked(t, version)
}
