//! Dense reads, planned: the selection (sorted, disjoint integer intervals
//! per dimension) meets each fragment's non-empty domain; only the space
//! tiles it touches are read, and of those only the chunks that hold
//! selected cells. Cells go from the mapping (or from the chunk a filter
//! decoded into) straight into the result's column buffers; a tile the
//! result takes whole, in order, is decoded directly into its place.
//!
//! The result is laid out in row-major (or column-major) order of the
//! selection; batches are runs of the outermost dimension, and the slabs of
//! one batch that lie in different tile rows are filled in parallel.
//!
//! One module per stage: [`plan`] (the tile grid, the selection and its
//! batches, the tiles of each fragment a selection touches), [`fetch`]
//! (from a ranged storage, tiles fetched in groups or streamed into
//! place), [`copy`] (tiles decoded and their cells copied into the result,
//! the newest fragment last so that its cells win: the dense merge). This
//! module reads a batch ([`DenseRead::read_batch`]); `plan_dense` plans a
//! query.

use rayon::prelude::*;

use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::read::column::{Cells, Column, DenseColumn};
use crate::read::field::{FieldTiles, ReadStats};
use copy::{for_each_cell, FixedTarget};
use plan::meets;

mod copy;
mod fetch;
mod plan;

pub(crate) use plan::{
    batches, selection, DenseAttr, DenseBatches, DenseFragment, FixedSink, Grid, Selection,
};

/// What every batch of a dense read works with: the domain's tile grid,
/// the fragments, the dimensions and attributes read, and the reader's
/// statistics and options.
pub(crate) struct DenseRead<'r, 'f> {
    pub grid: &'r Grid,
    pub frags: &'r [DenseFragment<'f>],
    pub dims: &'r [FieldInfo],
    pub attrs: &'r [DenseAttr],
    pub stats: &'r ReadStats,
    pub opts: &'r crate::ReadOptions,
}

impl DenseRead<'_, '_> {
    /// Reads one batch: the cells of `sel`, one column per dimension
    /// (unless `coords` is false) and per attribute; an attribute with a
    /// sink in `sinks` (by its index in `attrs`) is written there instead,
    /// and has no column.
    pub(crate) fn read_batch(
        &self,
        sel: &Selection,
        coords: bool,
        sinks: &mut [Option<FixedSink>],
    ) -> Result<Cells> {
        let DenseRead {
            grid,
            frags,
            dims,
            attrs,
            stats,
            opts,
        } = *self;
        let n = self.batch_cells(sel)?;
        let slabs = sel.slabs(grid);
        let slab_cells: Vec<usize> = slabs.iter().map(|s| s.cells() as usize).collect();
        let mut columns = Vec::new();
        if coords {
            columns.extend(coordinate_columns(dims, sel, n));
        }
        // Per slab, whether one fragment holding the attribute covers it: then
        // none of its cells keeps the fill value, and its part of the buffers
        // need not be filled first (fragments that tile the domain between
        // them cover every slab, none the whole selection).
        let covered = |tiles: &[Option<FieldTiles>]| -> Vec<bool> {
            slabs
                .iter()
                .map(|s| {
                    frags.iter().zip(tiles).any(|(f, t)| {
                        t.is_some()
                            && (0..grid.nd()).all(|d| {
                                let iv = &s.dims[d];
                                iv.first().is_some_and(|x| x.0 >= f.ned[d].0)
                                    && iv.last().is_some_and(|x| x.1 <= f.ned[d].1)
                            })
                    })
                })
                .collect()
        };
        // The tile lists of every attribute a fragment serves, fetched together
        // (an object store's fragment metadata: near tiles in one request).
        frags
            .par_iter()
            .enumerate()
            .filter(|(_, f)| meets(f, sel))
            .try_for_each(|(i, f)| {
                let fields: Vec<&FieldInfo> = attrs
                    .iter()
                    .filter_map(|a| a.fields.get(i).and_then(Option::as_ref))
                    .collect();
                f.frag.prefetch_tile_lists(&fields)
            })?;
        for (ai, a) in attrs.iter().enumerate() {
            // The fragments that hold cells of this batch.
            let tiles = frags
                .iter()
                .zip(&a.fields)
                .map(|(f, field)| match field {
                    Some(field) if meets(f, sel) => FieldTiles::open(f.frag, field, opts).map(Some),
                    _ => Ok(None),
                })
                .collect::<Result<Vec<_>>>()?;
            let mut tiles = tiles;
            let cs = a.field.cell_size() as usize;
            let fixed_fill = a.fill.as_ref().is_none_or(|f| f.len() == cs);
            let fixed = FixedTarget {
                grid,
                frags,
                slabs: &slabs,
                slab_cells: &slab_cells,
                stats,
            };
            if let Some((data, validity)) = sinks.get_mut(ai).and_then(Option::as_mut) {
                let v = validity.as_deref_mut().filter(|_| a.field.nullable);
                let all = covered(&tiles);
                fetch::fill_ahead(&fixed, &mut tiles, a, &all, false, data, v)?;
            } else if a.field.cell_val_num.is_some() && fixed_fill {
                let mut data = vec![0u8; n * cs];
                let mut validity = a.field.nullable.then(|| vec![0u8; n]);
                let v = validity.as_deref_mut();
                let all = covered(&tiles);
                fetch::fill_ahead(&fixed, &mut tiles, a, &all, true, &mut data, v)?;
                columns.push(Column::from_parts(a.field.clone(), data, None, validity, n));
            } else {
                // Var-sized cells (or a fill value of another size), set cell
                // by cell; from a ranged storage the slabs go in groups, the
                // next group's tiles fetched while one is set.
                let mut col = DenseColumn::new(a.field.clone(), n, a.fill.as_deref());
                let cs1 = a.field.cell_size();
                let mut put = |tiles: &[Option<FieldTiles>], sel: &Selection, base: usize| {
                    for_each_cell(grid, frags, tiles, sel, stats, |oi, tile, i| {
                        let valid = tile
                            .validity
                            .as_ref()
                            .is_none_or(|v| v.get(i).is_some_and(|b| *b != 0));
                        let cell = match &tile.var_offsets {
                            Some(o) => {
                                let data = tile.var.as_deref().unwrap_or_default();
                                let s = *o.get(i).ok_or_else(|| short(frags, &a.field))? as usize;
                                let e = o.get(i + 1).map_or(data.len(), |x| *x as usize);
                                data.get(s..e).ok_or_else(|| {
                                Error::decode(
                                    frags
                                        .first()
                                        .map_or(std::path::Path::new(""), |f| f.frag.path.as_path()),
                                    0,
                                    "Tile",
                                    &a.field.name,
                                    format!(
                                        "cell {i} runs from byte {s} to {e}, out of order or past the {} bytes of var data",
                                        data.len()
                                    ),
                                )
                            })?
                            }
                            None => {
                                let s = i * cs1 as usize;
                                tile.fixed
                                    .get(s..s + cs1 as usize)
                                    .ok_or_else(|| short(frags, &a.field))?
                            }
                        };
                        col.set(base + oi, valid.then_some(cell));
                        Ok(())
                    })
                };
                match tiles.iter().flatten().find_map(FieldTiles::read_ahead) {
                    Some(ahead) => {
                        fetch::by_groups(&fixed, &mut tiles, ahead, |shared, s, e, first| {
                            // The group's slabs as one selection, so that a
                            // tile several of them cut is decoded once.
                            let outer = sel.perm[0];
                            let mut group = Selection {
                                dims: sel.dims.clone(),
                                perm: sel.perm.clone(),
                            };
                            group.dims[outer] = slabs[s..e]
                                .iter()
                                .flat_map(|slab| slab.dims[outer].iter().copied())
                                .collect();
                            put(shared, &group, first)
                        })?
                    }
                    None => put(&tiles, sel, 0)?,
                }
                columns.push(col.finish());
            }
        }
        Ok(Cells { columns, len: n })
    }

    /// The cells of `sel`, refused where a buffer of them (of the widest
    /// field) could not be held.
    fn batch_cells(&self, sel: &Selection) -> Result<usize> {
        let (frags, dims, attrs) = (self.frags, self.dims, self.attrs);
        let n = usize::try_from(sel.cells()).map_err(|_| Error::Query {
            path: frags
                .first()
                .map(|f| f.frag.path.clone())
                .unwrap_or_default(),
            what: format!("a dense batch of {} cells is too many to hold", sel.cells()),
        })?;
        // Every buffer of the batch is sized from `n`: refuse what cannot be held.
        let widest = dims
            .iter()
            .chain(attrs.iter().map(|a| &a.field))
            .map(|f| f.cell_size().max(8))
            .max()
            .unwrap_or(8);
        if u64::try_from(n)
            .ok()
            .and_then(|n| n.checked_mul(widest))
            .is_none_or(|b| b > isize::MAX as u64)
        {
            return Err(Error::Query {
                path: frags
                    .first()
                    .map(|f| f.frag.path.clone())
                    .unwrap_or_default(),
                what: format!("a dense batch of {n} cells is too many to hold"),
            });
        }
        Ok(n)
    }
}

fn short(frags: &[DenseFragment], f: &FieldInfo) -> Error {
    Error::decode(
        frags
            .first()
            .map_or(std::path::Path::new(""), |f| f.frag.path.as_path()),
        0,
        "Tile",
        &f.name,
        format!("{} holds fewer cells than its domain needs", f.name),
    )
}

/// The coordinates of every cell of the selection, in its order.
fn coordinate_columns(dims: &[FieldInfo], sel: &Selection, n: usize) -> Vec<Column> {
    let ostr = sel.out_strides();
    dims.iter()
        .enumerate()
        .map(|(d, f)| {
            let pattern = super::dense_coords::Pattern {
                intervals: &sel.dims[d],
                stride: usize::try_from(ostr[d]).unwrap_or(usize::MAX),
            };
            let w = f.datatype.size() as usize;
            let data = super::dense_coords::coordinates(&pattern, w, n);
            Column::from_parts(f.clone(), data, None, None, n)
        })
        .collect()
}
