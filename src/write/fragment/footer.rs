//! The fragment metadata file, `__fragment_metadata.tdb`: the footer and the
//! generic tiles it points at (format_spec/fragment.md#fragment-metadata-file).

use crate::format::version::{
    has_footer_optional_sections, has_fragment_min_max, has_processed_conditions_tile,
    has_tile_min_max,
};
use crate::format::{
    encode, encode_at, FooterLength, FragmentFooter, FragmentMinMaxSumNullCount, Mbr,
    OptionalSection, OptionalSectionIdentifier, ProcessedCondition, ProcessedConditions, RTree,
    Record, TileGlobalOrderBounds, TileMinMax, TileNullCounts, TileOffsets, TileSums,
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
use crate::write::stats::fragment_entry;

use super::rtree::*;
use super::types::*;

impl FragmentWriter {
    /// The bytes of `__fragment_metadata.tdb`.
    pub(super) fn metadata_file(&mut self) -> WriteResult<Vec<u8>> {
        let v = self.version;
        let key = self.key;
        let dense = self.is_dense();
        let num_tiles = self.tile_cells.len();
        let n = self.meta.len();
        for m in &mut self.meta {
            if !m.written {
                m.tile_offsets = vec![0; num_tiles];
                m.tile_var_offsets = vec![0; num_tiles];
                m.tile_var_sizes = vec![0; num_tiles];
                m.tile_validity_offsets = vec![0; num_tiles];
            }
        }
        let coord_sizes = self.schema.domain.coord_sizes();
        let mut out = Vec::new();
        let push = |table: Vec<u8>, out: &mut Vec<u8>| -> WriteResult<u64> {
            let at = out.len() as u64;
            out.extend_from_slice(&generic_tile(&table, v, key)?);
            Ok(at)
        };
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
        let rtree_offset = push(checked(rtree, v)?, &mut out)?;
        let list = |vals: &[u64]| {
            checked(
                crate::format::table!(TileOffsets {
                    values: vals.to_vec(),
                }),
                v,
            )
        };
        let mut tile_offsets = Vec::with_capacity(n);
        for m in &self.meta {
            tile_offsets.push(push(list(&m.tile_offsets)?, &mut out)?);
        }
        let mut tile_var_offsets = Vec::with_capacity(n);
        for m in &self.meta {
            tile_var_offsets.push(push(list(&m.tile_var_offsets)?, &mut out)?);
        }
        let mut tile_var_sizes = Vec::with_capacity(n);
        for m in &self.meta {
            tile_var_sizes.push(push(list(&m.tile_var_sizes)?, &mut out)?);
        }
        let mut tile_validity_offsets = Vec::with_capacity(n);
        for m in &self.meta {
            tile_validity_offsets.push(push(list(&m.tile_validity_offsets)?, &mut out)?);
        }
        let (mut mins, mut maxs, mut sums, mut nulls) = (None, None, None, None);
        let mut optional_sections = Vec::new();
        let mut frag_mmsn = None;
        let mut processed = None;
        if has_tile_min_max(v) {
            let mut o = Vec::new();
            for m in &self.meta {
                o.push(push(
                    tile_min_max(&m.stats.mins, &m.stats.min_var, v)?,
                    &mut out,
                )?);
            }
            mins = Some(o);
            let mut o = Vec::new();
            for m in &self.meta {
                o.push(push(
                    tile_min_max(&m.stats.maxs, &m.stats.max_var, v)?,
                    &mut out,
                )?);
            }
            maxs = Some(o);
            if has_footer_optional_sections(v) && !dense {
                optional_sections.push(self.global_order_section(&coord_sizes, &mut out, push)?);
            }
            let (s, n) = self.sums_and_nulls(&mut out, push)?;
            (sums, nulls) = (Some(s), Some(n));
        }
        if has_fragment_min_max(v) {
            let fields = self
                .meta
                .iter()
                .zip(&self.specs)
                .map(|(m, s)| fragment_entry(s, &m.stats, &self.tile_cells, dense))
                .collect();
            let t = crate::format::table!(FragmentMinMaxSumNullCount { fields });
            frag_mmsn = Some(push(checked(t, v)?, &mut out)?);
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
            processed = Some(push(checked(t, v)?, &mut out)?);
        }
        let ned = self.non_empty_domain(&coord_sizes)?;
        let last_tile_cell_num = if dense {
            match &self.mode {
                Mode::Dense { grid, .. } => grid.tile_cells,
                _ => unreachable!(),
            }
        } else {
            *self.tile_cells.last().unwrap_or(&self.schema.capacity)
        };
        // Every field of the newest version; `at_version` keeps those of `v`.
        let footer = crate::format::table!(FragmentFooter {
            array_schema_name: Some(self.schema_name.as_bytes().to_vec()),
            dense: u8::from(dense),
            null_non_empty_domain: 0,
            legacy_non_empty_domain: None,
            non_empty_domain: Some(ned),
            sparse_tile_num: if dense { 0 } else { num_tiles as u64 },
            last_tile_cell_num,
            includes_timestamps: Some(u8::from(self.includes.0)),
            includes_delete_metadata: Some(u8::from(self.includes.1)),
            file_sizes: self.meta.iter().map(|m| m.file_size).collect(),
            file_var_sizes: self.meta.iter().map(|m| m.file_var_size).collect(),
            file_validity_sizes: Some(self.meta.iter().map(|m| m.file_validity_size).collect()),
            rtree_offset,
            tile_offsets,
            tile_var_offsets,
            tile_var_sizes,
            tile_validity_offsets: Some(tile_validity_offsets),
            tile_mins_offsets: mins,
            tile_maxes_offsets: maxs,
            tile_sums_offsets: sums,
            tile_null_counts_offsets: nulls,
            fragment_min_max_sum_null_count_offset: frag_mmsn,
            processed_conditions_offset: processed,
            optional_sections: Some(optional_sections),
        })
        .at_version(v);
        let footer_bytes = checked(footer, v)?;
        out.extend_from_slice(&footer_bytes);
        let length = FooterLength::default().with_outside_sizes(&footer_bytes)?;
        out.extend_from_slice(&encode(&length)?);
        Ok(out)
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
        push: impl Fn(Vec<u8>, &mut Vec<u8>) -> WriteResult<u64>,
    ) -> WriteResult<OptionalSection> {
        let mut min_offsets = Vec::new();
        let mut max_offsets = Vec::new();
        for (end, offsets) in [(0, &mut min_offsets), (1, &mut max_offsets)] {
            for (d, cs) in coord_sizes.iter().enumerate() {
                let (mut fixed, mut var) = (Vec::new(), Vec::new());
                for b in &self.global_order_bounds {
                    let cell = if end == 0 { &b[d].0 } else { &b[d].1 };
                    if *cs == 0 {
                        fixed.extend_from_slice(&(var.len() as u64).to_le_bytes());
                        var.extend_from_slice(cell);
                    } else {
                        fixed.extend_from_slice(cell);
                    }
                }
                offsets.push(push(tile_min_max(&fixed, &var, self.version)?, out)?);
            }
        }
        let bounds = crate::format::table!(TileGlobalOrderBounds {
            min_offsets,
            max_offsets,
        });
        Ok(crate::format::table!(OptionalSection {
            identifier: OptionalSectionIdentifier::TileGlobalOrderOffsets,
            data: checked(bounds, self.version)?,
        })
        .with_sizes())
    }

    /// Each field's tile sums and tile null counts, pushed onto `out` with
    /// `push`: their offsets.
    fn sums_and_nulls(
        &self,
        out: &mut Vec<u8>,
        push: impl Fn(Vec<u8>, &mut Vec<u8>) -> WriteResult<u64>,
    ) -> WriteResult<(Vec<u64>, Vec<u64>)> {
        let mut o = Vec::new();
        for m in &self.meta {
            let t = crate::format::table!(TileSums {
                values: m.stats.sums.clone(),
            });
            o.push(push(checked(t, self.version)?, out)?);
        }
        let sums = o;
        let mut o = Vec::new();
        for m in &self.meta {
            let t = crate::format::table!(TileNullCounts {
                values: m.stats.null_counts.clone(),
            });
            o.push(push(checked(t, self.version)?, out)?);
        }
        Ok((sums, o))
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
fn tile_min_max(fixed: &[u8], var: &[u8], version: u32) -> WriteResult<Vec<u8>> {
    let t = crate::format::table!(TileMinMax {
        fixed: fixed.to_vec(),
        var: var.to_vec(),
    });
    checked(t, version)
}
