//! The copy of a sparse read: the cells the merge chose gathered, in its
//! order, into the result's columns (an attribute a fragment was written
//! without taking its fill value); a condition the merge could not apply
//! first, on the columns it reads.

use rayon::prelude::*;

use super::context::{Batch, SparseRead};
use super::merge::Merged;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::read::column::{Cells, Column};

impl SparseRead<'_> {
    /// The result's columns: the dimensions (unless the query skips them),
    /// then the attributes asked for.
    pub(super) fn copy(&self, merged: Merged) -> Result<Cells> {
        let Merged {
            batches,
            mut picked,
            mut order,
            condition_applied,
            runs,
        } = merged;
        self.check_widths(&batches)?;
        if let Some(runs) = runs {
            if let Some(cells) = self.concatenated(&batches, &runs) {
                return Ok(cells);
            }
            // Some column needs cell by cell: the runs as picked cells.
            picked = runs
                .iter()
                .enumerate()
                .flat_map(|(b, r)| match r {
                    Some(r) => r.iter().flat_map(|r| r.clone()).map(|i| (b, i)).collect(),
                    None => (0..self.cells_of(&batches[b]))
                        .map(|i| (b, i))
                        .collect::<Vec<_>>(),
                })
                .collect();
            order = (0..picked.len()).collect();
        }
        let columns = Columns {
            read: self,
            batches: &batches,
            picked: &picked,
        };
        // The condition first, on the columns it reads: only the cells it
        // keeps are gathered into the result.
        if let (Some((c, names)), false) = (&self.condition, condition_applied) {
            let mut read = Vec::new();
            for (d, f) in self.dims.iter().enumerate() {
                if names.contains(&f.name) {
                    read.push(columns.dim(d, &order));
                }
            }
            for a in self.attrs.iter().filter(|a| names.contains(&a.name)) {
                read.push(columns.attr(a, &order)?);
            }
            let mask = c.evaluate(&Cells {
                len: order.len(),
                columns: read,
            })?;
            order = order
                .into_iter()
                .zip(mask)
                .filter(|(_, m)| *m)
                .map(|(p, _)| p)
                .collect();
        }
        // A column a job, the columns in parallel (each gathers cells from
        // every batch, in the result's order).
        let nd = self.dims.len();
        let out = (0..nd + self.requested.len())
            .into_par_iter()
            .map(|k| match k.checked_sub(nd) {
                None => Ok(columns.dim(k, &order)),
                Some(a) => columns.attr(&self.requested[a], &order),
            })
            .collect::<Result<Vec<Column>>>()?;
        let mut cells = Cells {
            len: order.len(),
            columns: out,
        };
        if self.query.skip_coordinates {
            cells.columns.drain(..self.dims.len());
        }
        Ok(cells)
    }

    /// The result as the runs `runs` of each batch's cells, one after
    /// another, when every column it returns is of fixed-size cells every
    /// batch holds, none null: each column copied a run at a time (the
    /// columns in parallel). `None` otherwise.
    fn concatenated(
        &self,
        batches: &[Batch],
        runs: &[Option<Vec<std::ops::Range<usize>>>],
    ) -> Option<Cells> {
        let nd = if self.query.skip_coordinates {
            0
        } else {
            self.dims.len()
        };
        let dims_plain = self.dims[..nd].iter().enumerate().all(|(d, f)| {
            f.cell_val_num.is_some() && batches.iter().all(|b| b.dims[d].offsets.is_none())
        });
        let attrs: Vec<usize> = self
            .requested
            .iter()
            .map(|a| self.all_attrs.iter().position(|x| x.name == a.name))
            .collect::<Option<_>>()?;
        let attrs_plain = attrs.iter().zip(&self.requested).all(|(&ai, a)| {
            a.cell_val_num.is_some()
                && !a.nullable
                && batches.iter().all(|b| {
                    b.attrs[ai]
                        .as_ref()
                        .is_some_and(|d| d.offsets.is_none() && d.validity.is_none())
                })
        });
        if !dims_plain || !attrs_plain {
            return None;
        }
        let len: usize = runs
            .iter()
            .zip(batches)
            .map(|(r, b)| match r {
                Some(r) => r.iter().map(|r| r.len()).sum(),
                None => self.cells_of(b),
            })
            .sum();
        let fields: Vec<(&FieldInfo, Option<usize>)> = self.dims[..nd]
            .iter()
            .enumerate()
            .map(|(d, f)| (f, Some(d)))
            .chain(self.requested.iter().map(|a| (a, None)))
            .collect();
        let columns = fields
            .par_iter()
            .enumerate()
            .map(|(k, (f, dim))| {
                let w = f.cell_size() as usize;
                let mut data = Vec::with_capacity(len * w);
                for (b, r) in batches.iter().zip(runs) {
                    let v: &[u8] = match dim {
                        Some(d) => &b.dims[*d].values,
                        None => b.attrs[attrs[k - nd]].as_ref().map_or(&[], |d| &d.values),
                    };
                    match r {
                        None => data.extend_from_slice(v),
                        Some(r) => {
                            for r in r {
                                data.extend_from_slice(&v[r.start * w..r.end * w]);
                            }
                        }
                    }
                }
                Column::from_parts((*f).clone(), data, None, None, len)
            })
            .collect();
        Some(Cells { len, columns })
    }

    /// Every batch's fixed-size fields hold its cells at the schema's cell
    /// size; a fragment whose schema gives a field another size (an
    /// attribute dropped and added again with another type) is refused
    /// rather than read at the wrong width. (So in the copy, a fixed-size
    /// field's values are its cells at the schema's size wherever it has
    /// no offsets.)
    fn check_widths(&self, batches: &[Batch]) -> Result<()> {
        for fr in batches {
            let n = self.cells_of(fr);
            let fields = self.dims.iter().zip(fr.dims.iter().map(Some));
            let fields = fields.chain(
                self.all_attrs
                    .iter()
                    .zip(fr.attrs.iter().map(Option::as_ref)),
            );
            for (f, d) in fields {
                let Some(d) = d.filter(|d| f.cell_val_num.is_some() && d.offsets.is_none()) else {
                    continue;
                };
                let w = f.cell_size() as usize;
                if Some(d.values.len()) != n.checked_mul(w) {
                    return Err(Error::decode(
                        &self.reader.fragments[fr.frag].path,
                        0,
                        "Tile",
                        &f.name,
                        format!(
                            "{} bytes of {} for {n} cells of {w} bytes: the fragment's schema gives it another size",
                            d.values.len(),
                            f.name
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The cells the merge chose, copied a column at a time.
struct Columns<'r, 'b> {
    read: &'b SparseRead<'r>,
    batches: &'b [Batch],
    /// (batch, cell) of each cell an order names.
    picked: &'b [(usize, usize)],
}

impl Columns<'_, '_> {
    /// Dimension `d` of the cells `order`.
    fn dim(&self, d: usize, order: &[usize]) -> Column {
        let (dims, batches, picked) = (&self.read.dims, self.batches, self.picked);
        let w = dims[d].cell_size() as usize;
        if dims[d].cell_val_num.is_some() && batches.iter().all(|fr| fr.dims[d].offsets.is_none()) {
            let data = gather(w, order, |p| {
                let (fi, i) = picked[p];
                (&batches[fi].dims[d].values[..], i)
            });
            return Column::from_parts(dims[d].clone(), data, None, None, order.len());
        }
        let mut col = Column::new(dims[d].clone(), order.len());
        for &p in order {
            let (fi, i) = picked[p];
            col.push(Some(batches[fi].dims[d].cell(i, dims[d].cell_size())));
        }
        col
    }

    /// Attribute `a` of the cells `order`.
    fn attr(&self, a: &FieldInfo, order: &[usize]) -> Result<Column> {
        let (r, batches, picked) = (self.read.reader, self.batches, self.picked);
        let ai = self
            .read
            .all_attrs
            .iter()
            .position(|x| x.name == a.name)
            .expect("attributes come from the schema");
        let spec = &r.schema.attributes[ai];
        let fill = (!a.nullable || spec.fill_value_validity.unwrap_or(0) != 0).then(|| {
            spec.fill_value
                .clone()
                .unwrap_or_else(|| vec![0; a.cell_size() as usize])
        });
        // Cells of fragments written before the attribute existed take
        // its fill value, whose size comes from the schema.
        let filled = order
            .iter()
            .filter(|&&p| batches[picked[p].0].attrs[ai].is_none())
            .count() as u64;
        let fill_bytes = fill.as_ref().map_or(0, |f| f.len() as u64);
        if filled.saturating_mul(fill_bytes) > r.opts.max_tile_bytes() {
            return Err(Error::Unsupported {
                path: r.dir.root.clone(),
                what: format!(
                    "{filled} fill values of {fill_bytes} bytes for {:?} exceed the limit",
                    a.name
                ),
            });
        }
        // Fixed-size cells every batch holds, none null: copied at once.
        let w = a.cell_size() as usize;
        let plain: Vec<bool> = batches
            .iter()
            .map(|fr| {
                fr.attrs[ai]
                    .as_ref()
                    .is_some_and(|d| d.offsets.is_none() && d.validity.is_none())
            })
            .collect();
        if a.cell_val_num.is_some() && !a.nullable && order.iter().all(|&p| plain[picked[p].0]) {
            let data = gather(w, order, |p| {
                let (fi, i) = picked[p];
                let values = batches[fi].attrs[ai]
                    .as_ref()
                    .map_or(&[][..], |d| &d.values[..]);
                (values, i)
            });
            return Ok(Column::from_parts(a.clone(), data, None, None, order.len()));
        }
        let mut col = Column::new(a.clone(), order.len());
        for &p in order {
            let (fi, i) = picked[p];
            col.push(match &batches[fi].attrs[ai] {
                Some(data) => {
                    let valid = data.validity.as_ref().is_none_or(|v| v[i] != 0);
                    valid.then(|| data.cell(i, a.cell_size()))
                }
                // Written before the attribute was added: its fill value.
                None => fill.as_deref(),
            });
        }
        Ok(col)
    }
}

/// Cells of `w` bytes gathered in `order`: `cell(p)` names the values of
/// the batch holding `p` and its place there. Common sizes are copied as
/// arrays of their size rather than one `memcpy` a cell.
fn gather<'a>(w: usize, order: &[usize], cell: impl Fn(usize) -> (&'a [u8], usize)) -> Vec<u8> {
    fn fixed<'a, const W: usize>(
        order: &[usize],
        cell: impl Fn(usize) -> (&'a [u8], usize),
    ) -> Vec<u8> {
        let mut out = vec![0u8; order.len() * W];
        let (chunks, _) = out.as_chunks_mut::<W>();
        for (o, &p) in chunks.iter_mut().zip(order) {
            let (values, i) = cell(p);
            o.copy_from_slice(&values[i * W..(i + 1) * W]);
        }
        out
    }
    match w {
        1 => fixed::<1>(order, cell),
        2 => fixed::<2>(order, cell),
        4 => fixed::<4>(order, cell),
        8 => fixed::<8>(order, cell),
        16 => fixed::<16>(order, cell),
        _ => {
            let mut out = Vec::with_capacity(order.len().saturating_mul(w));
            for &p in order {
                let (values, i) = cell(p);
                out.extend_from_slice(&values[i * w..(i + 1) * w]);
            }
            out
        }
    }
}
