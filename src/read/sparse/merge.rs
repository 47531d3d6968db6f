//! The merge of a sparse read's batches: the deletes (and the condition,
//! where every batch holds the fields it reads) applied, the newest write
//! of each coordinate chosen unless the schema allows duplicates, and the
//! cells put in the query's order.

use std::ops::Range;

use rayon::prelude::*;

use super::boxes::{disjoint_fragments, newest_by_grid};
use super::context::{Batch, SparseRead};
use super::deletes::Delete;
use crate::array::FieldInfo;
use crate::error::Result;
use crate::read::column::{Cells, Column};
use crate::read::field::FieldData;
use crate::read::query::Order;
use crate::read::query_condition::BoundCondition;
use crate::read::sort_keys::{self, SortKeys};

/// What the merge leaves for the copy.
pub(super) struct Merged {
    pub(super) batches: Vec<Batch>,
    /// (batch, cell) of every cell the merge picked.
    pub(super) picked: Vec<(usize, usize)>,
    /// The result's cells, as places in `picked`, in the query's order.
    pub(super) order: Vec<usize>,
    /// Whether the condition was applied to the batches before the merge
    /// (else the copy applies it to the merged cells).
    pub(super) condition_applied: bool,
    /// When the result is the batches' cells as they come (no choice of
    /// the newest, no sort): per batch, the runs of its cells kept (`None`:
    /// every cell); `picked` and `order` are then empty.
    pub(super) runs: Option<Vec<Option<Vec<Range<usize>>>>>,
}

/// The cells of the batches that may be in the result.
struct Picks {
    /// (batch, cell) of every surviving cell.
    cells: Vec<(usize, usize)>,
    /// Whether a delete removes each picked cell. Without duplicates a
    /// deleted cell still overwrites the older cells of its coordinates
    /// (the engine removes the coordinates, not only the newest write), so
    /// it is dropped only after the newest write of each coordinate is
    /// chosen.
    deleted: Vec<bool>,
    /// Integer dimensions: the picked cells' sort keys taken from each
    /// batch's values in one pass.
    int_keys: Option<Vec<Vec<u64>>>,
}

impl SparseRead<'_> {
    /// Merges the batches of the fragments into the cells of the result.
    pub(super) fn merge(&self, mut batches: Vec<Batch>) -> Result<Merged> {
        let passes = self.condition_before_merge(&mut batches)?;
        // Fragments whose non-empty domains meet no other's (and which keep
        // one write per coordinate) hold no coordinate twice: their cells
        // need no choice of the newest.
        let read_frags: Vec<usize> = {
            let mut v: Vec<usize> = batches.iter().map(|fr| fr.frag).collect();
            v.dedup();
            v
        };
        let disjoint = !self.allows_dups
            && disjoint_fragments(&self.reader.fragments, &read_frags, &mut |k| {
                self.boxes_of(k)
            })?
            && !adjacent_repeats(&batches, &self.dims);
        if self.as_they_come(&batches, passes.is_some(), disjoint) {
            let runs = match passes {
                Some(masks) => batches
                    .par_iter()
                    .zip(masks)
                    .map(|(b, m)| Some(super::decode::runs_of(&m[..self.cells_of(b).min(m.len())])))
                    .collect(),
                None => vec![None; batches.len()],
            };
            return Ok(Merged {
                batches,
                picked: Vec::new(),
                order: Vec::new(),
                condition_applied: true,
                runs: Some(runs),
            });
        }
        if let Some(masks) = passes
            .as_deref()
            .filter(|_| self.kept_first(&batches, disjoint))
        {
            if let Some(picked) = super::survivors::newest_kept(self, &batches, masks) {
                return Ok(Merged {
                    batches,
                    order: (0..picked.len()).collect(),
                    picked,
                    condition_applied: true,
                    runs: None,
                });
            }
        }
        let picks = self.pick_cells(&mut batches, passes.as_deref(), disjoint)?;
        let order = self.order_cells(
            &batches,
            &picks.cells,
            &picks.deleted,
            picks.int_keys,
            disjoint,
        );
        Ok(Merged {
            batches,
            picked: picks.cells,
            order,
            condition_applied: passes.is_some(),
            runs: None,
        })
    }

    /// Whether the result is the batches' cells as they come, less those
    /// the condition drops: an unordered read whose cells need no choice of
    /// the newest (duplicates allowed, or fragments that hold no coordinate
    /// twice), no per-cell timestamps or delete metadata, no delete to
    /// apply, and the condition (if any) applied to every batch already.
    fn as_they_come(&self, batches: &[Batch], applied: bool, disjoint: bool) -> bool {
        self.query.order == Some(Order::Unordered)
            && (self.allows_dups || disjoint)
            && (self.condition.is_none() || applied)
            && self.deletes.is_empty()
            && batches
                .iter()
                .all(|b| b.timestamps.is_none() && b.delete_ts.is_none())
    }

    /// Whether the merge of batches the condition was applied to may sort
    /// only the cells it keeps ([`super::survivors`]): fragments that
    /// overlap in a schema without duplicates, no per-cell timestamps or
    /// delete metadata, no delete to apply, and an order the keys give.
    fn kept_first(&self, batches: &[Batch], disjoint: bool) -> bool {
        !self.allows_dups
            && !disjoint
            && self.deletes.is_empty()
            && matches!(
                self.query.order,
                None | Some(Order::RowMajor) | Some(Order::Unordered)
            )
            && batches
                .iter()
                .all(|b| b.timestamps.is_none() && b.delete_ts.is_none())
    }

    /// The condition on each batch before the merge, when every batch
    /// holds the fields it reads (else on the merged cells, an absent
    /// attribute taking its fill value): a cell it drops is no longer
    /// gathered, though without duplicates it still hides the older cells
    /// of its coordinates. Per batch, which cells it keeps.
    fn condition_before_merge(&self, batches: &mut [Batch]) -> Result<Option<Vec<Vec<bool>>>> {
        let Some((c, names)) = &self.condition else {
            return Ok(None);
        };
        let present = |fr: &Batch, n: &String| {
            self.dims.iter().any(|d| d.name == *n)
                || self
                    .all_attrs
                    .iter()
                    .position(|a| a.name == *n)
                    .is_some_and(|ai| fr.attrs[ai].is_some())
        };
        if !batches
            .iter()
            .all(|fr| names.iter().all(|n| present(fr, n)))
        {
            return Ok(None);
        }
        // Batch by batch, in parallel.
        let out = batches
            .par_iter_mut()
            .map(|fr| {
                let n = self.cells_of(fr);
                let (dims, attrs) = (&self.dims, &self.all_attrs);
                let mut m = condition_masks(&mut fr.dims, &mut fr.attrs, dims, attrs, n, &[c])?;
                Ok(m.pop().unwrap_or_default())
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(out))
    }

    /// The cells of the batches within the time range the array was
    /// opened at, less those a delete or the condition (`passes`) removes
    /// where that needs no choice of the newest write first.
    fn pick_cells(
        &self,
        batches: &mut [Batch],
        passes: Option<&[Vec<bool>]>,
        disjoint: bool,
    ) -> Result<Picks> {
        let dims = &self.dims;
        let (open_start, open_end) = self.reader.time_range.unwrap_or((0, u64::MAX));
        let total: usize = batches.iter().map(|b| self.cells_of(b)).sum();
        let mut picks = Picks {
            cells: Vec::with_capacity(total),
            deleted: Vec::with_capacity(total),
            int_keys: Some((0..dims.len()).map(|_| Vec::with_capacity(total)).collect()),
        };
        for (fi, fr) in batches.iter_mut().enumerate() {
            let n = self.cells_of(fr);
            let by_condition = deleted_cells(fr, n, &self.deletes, dims, &self.all_attrs)?;
            let batch_keys: Option<Vec<Vec<u64>>> = picks.int_keys.as_ref().and_then(|_| {
                dims.iter()
                    .zip(&fr.dims)
                    .map(|(f, d)| {
                        sort_keys::int_keys(f.datatype, &d.values).filter(|k| k.len() == n)
                    })
                    .collect()
            });
            if batch_keys.is_none() {
                picks.int_keys = None;
            }
            if fr.timestamps.is_none() && fr.delete_ts.is_none() && by_condition.is_none() {
                // Nothing per cell but the condition: whole columns at once.
                let mask = passes.map(|m| &m[fi][..n]);
                let skip = self.allows_dups || disjoint;
                let take: Vec<usize> = match mask {
                    Some(m) if skip => (0..n).filter(|&i| m[i]).collect(),
                    _ => Vec::new(),
                };
                match (mask, skip) {
                    (Some(_), true) => {
                        picks.cells.extend(take.iter().map(|&i| (fi, i)));
                        picks.deleted.resize(picks.cells.len(), false);
                    }
                    (m, _) => {
                        picks.cells.extend((0..n).map(|i| (fi, i)));
                        match m {
                            Some(m) => picks.deleted.extend(m.iter().map(|k| !k)),
                            None => picks.deleted.resize(picks.cells.len(), false),
                        }
                    }
                }
                if let (Some(all), Some(b)) = (&mut picks.int_keys, &batch_keys) {
                    for (k, bk) in all.iter_mut().zip(b) {
                        if mask.is_some() && skip {
                            k.extend(take.iter().map(|&i| bk[i]));
                        } else {
                            k.extend_from_slice(&bk[..n]);
                        }
                    }
                }
                continue;
            }
            for i in 0..n {
                let ts = fr.timestamps.as_ref().map_or(fr.t1, |t| t[i]);
                // A fragment that keeps its cells' timestamps and lies
                // partly outside the time range the array was opened at:
                // only its cells written within the range.
                if fr.timestamps.is_some() && !(open_start..=open_end).contains(&ts) {
                    continue;
                }
                // Delete metadata: the cell was deleted at its delete
                // timestamp (`u64::MAX`: never), seen from the range's end
                // on (reader_base.cc `add_delete_timestamps_condition`);
                // else a delete it has not processed whose condition
                // removes it.
                let gone = fr
                    .delete_ts
                    .as_ref()
                    .is_some_and(|d| d[i] != u64::MAX && d[i] <= open_end)
                    || by_condition.as_ref().is_some_and(|g| g[i])
                    || passes.is_some_and(|m| !m[fi][i]);
                if gone && (self.allows_dups || disjoint) {
                    continue;
                }
                picks.cells.push((fi, i));
                picks.deleted.push(gone);
                if let (Some(all), Some(b)) = (&mut picks.int_keys, &batch_keys) {
                    for (k, bk) in all.iter_mut().zip(b) {
                        k.push(bk[i]);
                    }
                }
            }
        }
        Ok(picks)
    }

    /// The picked cells in the query's order (row-major unless it asks for
    /// another), as places in `picks.cells`; without duplicates only the
    /// newest write of each coordinate, and no deleted cell (see
    /// [`Picks`] for `picked`, `deleted` and `int_keys`).
    fn order_cells(
        &self,
        batches: &[Batch],
        picked: &[(usize, usize)],
        deleted: &[bool],
        int_keys: Option<Vec<Vec<u64>>>,
        disjoint: bool,
    ) -> Vec<usize> {
        let dims = &self.dims;
        let coords = |p: usize, d: usize| {
            let (fi, i) = picked[p];
            batches[fi].dims[d].cell(i, dims[d].cell_size())
        };
        // Which of two cells of one coordinate wins: the later timestamp,
        // then the later fragment; within a fragment that keeps timestamps
        // (several writes of a coordinate, newest first) the first, else
        // the last.
        let newest = |p: usize| {
            let (fi, i) = picked[p];
            let fr = &batches[fi];
            let place = (fi as i128) << 64 | i as i128;
            let place = if fr.timestamps.is_some() {
                -place
            } else {
                place
            };
            (
                fr.timestamps.as_ref().map_or(fr.t1, |t| t[i]),
                fr.frag,
                place,
            )
        };
        // Row-major order of the coordinates (the order `export` prints),
        // ties in (fragment, cell) order.
        let unordered =
            self.query.order == Some(Order::Unordered) && (self.allows_dups || disjoint);
        let keys = match int_keys {
            Some(k) if !unordered => SortKeys {
                dims: k.into_iter().map(Some).collect(),
                general: None,
                exact: true,
            },
            _ => SortKeys::new(dims, if unordered { 0 } else { picked.len() }, coords),
        };
        let mut order: Vec<usize> = (0..picked.len()).collect();
        // Without duplicates, the newest cell of each coordinate through a
        // grid of the coordinates' box where it is small (already in
        // row-major order: no sort).
        let grid = if !unordered && !self.allows_dups {
            newest_by_grid(&keys, picked.len(), newest)
        } else {
            None
        };
        let mut deduped = grid.is_some() || disjoint;
        if let Some(g) = grid {
            order = g;
            order.retain(|&p| !deleted[p]);
        } else if let Some((packed, places)) = (!unordered)
            .then(|| radix_order(&keys, picked.len()))
            .flatten()
        {
            // Sorted by packed keys: the cells of one coordinate lie
            // together, found without going back to their keys.
            if self.allows_dups || deduped {
                order = places.into_iter().map(|p| p as usize).collect();
            } else {
                order = newest_in_runs(&packed, &places, newest, deleted);
                deduped = true;
            }
        } else if !unordered {
            match keys.packed() {
                // One or two numeric dimensions: sort (key, index) pairs,
                // the index breaking ties as the comparison below does.
                Some(packed) => {
                    let mut pairs: Vec<(u128, usize)> = packed.zip(0..picked.len()).collect();
                    pairs.sort_unstable();
                    order = pairs.into_iter().map(|(_, p)| p).collect();
                }
                None => order.sort_unstable_by(|&p, &q| keys.cmp(p, q, coords).then(p.cmp(&q))),
            }
        }
        if !self.allows_dups && !deduped {
            order = newest_of_each(&order, &keys, dims.len(), coords, newest);
            order.retain(|&p| !deleted[p]);
        }
        self.layout_order(order, &keys, coords)
    }

    /// `order` (row-major) in the order the query asks for.
    fn layout_order<'a>(
        &self,
        mut order: Vec<usize>,
        keys: &SortKeys,
        coords: impl Fn(usize, usize) -> &'a [u8] + Copy,
    ) -> Vec<usize> {
        match self.query.order {
            Some(Order::ColMajor) => {
                order.sort_by(|&p, &q| keys.cmp_reversed(p, q, coords));
            }
            Some(Order::GlobalOrder) => {
                // Tile keys made once per cell; coordinates compared in
                // place where keys tie (no allocation per comparison).
                let go = crate::write::order::GlobalOrder::new(&self.reader.schema);
                let (go, coords) = (&go, &coords);
                let cell = |p: usize| move |d: usize| go.coord(d, coords(p, d));
                let mut keyed: Vec<(Vec<u64>, usize)> = order
                    .iter()
                    .map(|&p| {
                        let mut k = Vec::new();
                        go.key_into(cell(p), &mut k);
                        (k, p)
                    })
                    .collect();
                keyed.sort_by(|(ka, p), (kb, q)| go.cmp_by(ka, cell(*p), kb, cell(*q)));
                order = keyed.into_iter().map(|(_, p)| p).collect();
            }
            _ => {}
        }
        order
    }
}

/// The places of the `n` cells in the order of their exact integer keys
/// (ties in place order), with their packed keys, by a radix sort, where
/// the keys fit one `u64`.
fn radix_order(keys: &SortKeys, n: usize) -> Option<(Vec<u64>, Vec<u32>)> {
    if !keys.exact || keys.general.is_some() {
        return None;
    }
    let dims: Vec<&[u64]> = keys
        .dims
        .iter()
        .map(|k| k.as_deref())
        .collect::<Option<_>>()?;
    super::radix::order_by_keys(&dims, n)
}

/// The newest of each run of equal `packed` keys of the cells `places`
/// (sorted by those keys), less the deleted ones.
fn newest_in_runs<N: Ord>(
    packed: &[u64],
    places: &[u32],
    newest: impl Fn(usize) -> N,
    deleted: &[bool],
) -> Vec<usize> {
    let mut kept = Vec::with_capacity(places.len());
    let mut i = 0;
    while i < places.len() {
        let mut end = i + 1;
        while end < places.len() && packed[end] == packed[i] {
            end += 1;
        }
        let p = if end == i + 1 {
            places[i] as usize
        } else {
            places[i..end]
                .iter()
                .map(|&p| p as usize)
                .max_by_key(|&p| newest(p))
                .unwrap_or(places[i] as usize)
        };
        if !deleted[p] {
            kept.push(p);
        }
        i = end;
    }
    kept
}

/// The newest write of each coordinate of the cells `order` (sorted by
/// `keys`), ties going to the later fragment, the later cell. Cells of
/// one coordinate have equal keys, so they sit in one run of equal keys.
fn newest_of_each<'a, N: Ord>(
    order: &[usize],
    keys: &SortKeys,
    nd: usize,
    coords: impl Fn(usize, usize) -> &'a [u8] + Copy,
    newest: impl Fn(usize) -> N,
) -> Vec<usize> {
    let same_coords = |p: usize, q: usize| (0..nd).all(|d| coords(p, d) == coords(q, d));
    let mut kept = Vec::with_capacity(order.len());
    let mut run = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && keys.cmp(order[start], order[end], coords).is_eq() {
            end += 1;
        }
        let group = &order[start..end];
        if group.len() == 1 {
            kept.push(group[0]);
        } else if keys.exact {
            kept.push(*group.iter().max_by_key(|&&p| newest(p)).unwrap());
        } else {
            // Equal keys, maybe other bytes (0.0 and -0.0, NaNs): the
            // newest cell of each coordinate, in key order.
            run.clear();
            run.extend_from_slice(group);
            run.sort_unstable_by(|&p, &q| {
                (0..nd)
                    .map(|d| coords(p, d).cmp(coords(q, d)))
                    .find(|o| o.is_ne())
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then_with(|| newest(p).cmp(&newest(q)))
            });
            let first = kept.len();
            for (k, &p) in run.iter().enumerate() {
                if run.get(k + 1).is_none_or(|&q| !same_coords(p, q)) {
                    kept.push(p);
                }
            }
            kept[first..].sort_unstable();
        }
        start = end;
    }
    kept
}

/// Which of the `n` cells of `fr` a delete removes (`None`: no delete
/// applies to any of them). Each delete that applies evaluates its
/// condition on the batch's columns once, with the evaluator of query
/// conditions; its verdict counts for the cells written at or before it.
fn deleted_cells(
    fr: &mut Batch,
    n: usize,
    deletes: &[Delete],
    dims: &[FieldInfo],
    attrs: &[FieldInfo],
) -> Result<Option<Vec<bool>>> {
    let oldest = match &fr.timestamps {
        Some(t) => t.iter().copied().min().unwrap_or(u64::MAX),
        None => fr.t1,
    };
    let active: Vec<&Delete> = deletes
        .iter()
        .filter(|d| oldest <= d.t1 && !fr.processed.contains(&d.name))
        .collect();
    if active.is_empty() || n == 0 {
        return Ok(None);
    }
    let keeps = keep_masks(&mut fr.dims, &mut fr.attrs, dims, attrs, n, &active)?;
    let mut gone = vec![false; n];
    for (d, keep) in active.iter().zip(&keeps) {
        match &fr.timestamps {
            Some(t) => {
                for ((g, k), ts) in gone.iter_mut().zip(keep).zip(t) {
                    *g |= !*k && *ts <= d.t1;
                }
            }
            None => {
                for (g, k) in gone.iter_mut().zip(keep) {
                    *g |= !*k;
                }
            }
        }
    }
    Ok(Some(gone))
}

/// Per delete of `deletes`, which of the `n` cells (of the fields' data
/// `dims_data`, `attrs_data`) its stored condition keeps, evaluated on the
/// cells' columns once with the evaluator of query conditions. The
/// buffers are moved (not copied) into columns and back.
pub(crate) fn keep_masks(
    dims_data: &mut [FieldData],
    attrs_data: &mut [Option<FieldData>],
    dims: &[FieldInfo],
    attrs: &[FieldInfo],
    n: usize,
    deletes: &[&Delete],
) -> Result<Vec<Vec<bool>>> {
    let conds: Vec<&BoundCondition> = deletes.iter().map(|d| &d.keep).collect();
    condition_masks(dims_data, attrs_data, dims, attrs, n, &conds)
}

/// Per condition of `conds`, which of the `n` cells it keeps (see
/// [`keep_masks`]); a field a batch lacks fails every comparison of it.
fn condition_masks(
    dims_data: &mut [FieldData],
    attrs_data: &mut [Option<FieldData>],
    dims: &[FieldInfo],
    attrs: &[FieldInfo],
    n: usize,
    conds: &[&BoundCondition],
) -> Result<Vec<Vec<bool>>> {
    let mut taken: Vec<(bool, usize)> = Vec::new();
    let mut columns = Vec::new();
    for d in conds {
        for f in d.fields() {
            if columns.iter().any(|c: &Column| c.field.name == f.name) {
                continue;
            }
            if let Some(k) = dims.iter().position(|x| x.name == f.name) {
                columns.push(into_column(&mut dims_data[k], &dims[k], n));
                taken.push((true, k));
            } else if let Some(k) = attrs.iter().position(|x| x.name == f.name) {
                if let Some(data) = attrs_data[k].as_mut() {
                    columns.push(into_column(data, &attrs[k], n));
                    taken.push((false, k));
                }
            }
        }
    }
    let cells = Cells { len: n, columns };
    let verdict = conds
        .iter()
        .map(|d| {
            // A field the fragment lacks (added later) fails every
            // comparison of it, as the engine's fragment schema says.
            let lacking = d.with_absent_fields(&|f| cells.column(&f.name).is_none());
            lacking.as_ref().unwrap_or(d).evaluate(&cells)
        })
        .collect::<Result<Vec<_>>>();
    for (col, (dim, k)) in cells.columns.into_iter().zip(taken) {
        let slot = if dim {
            Some(&mut dims_data[k])
        } else {
            attrs_data[k].as_mut()
        };
        if let Some(data) = slot {
            let (_, values, offsets, validity) = col.into_parts();
            data.values = values;
            data.offsets = offsets.map(|mut o| {
                o.pop();
                o
            });
            data.validity = validity;
        }
    }
    verdict
}

/// `data`'s buffers as a column of `n` cells of `field` (taken out of
/// `data`: `deleted_cells` puts them back).
fn into_column(data: &mut FieldData, field: &FieldInfo, n: usize) -> Column {
    let taken = FieldData {
        values: std::mem::take(&mut data.values),
        offsets: data.offsets.take(),
        validity: data.validity.take(),
        tile_cells: Vec::new(),
    };
    Column::from_field_data(field.clone(), taken, n)
}

/// Whether two cells in a row of one fragment (its batches in order) have
/// the same coordinates: a fragment written with duplicates in a schema
/// without them, its writes of one coordinate next to each other. Within
/// each batch (in parallel, fixed-size coordinates compared a column at a
/// time), then across the boundaries of one fragment's batches.
fn adjacent_repeats(frags: &[Batch], dims: &[FieldInfo]) -> bool {
    let cells = |fr: &Batch| fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
    let same = |a: &Batch, i: usize, b: &Batch, j: usize| {
        dims.iter()
            .enumerate()
            .all(|(d, f)| a.dims[d].cell(i, f.cell_size()) == b.dims[d].cell(j, f.cell_size()))
    };
    let within = frags.par_iter().any(|fr| {
        let n = cells(fr);
        if n < 2 {
            return false;
        }
        let fixed = dims
            .iter()
            .zip(&fr.dims)
            .all(|(f, d)| f.cell_val_num.is_some() && d.offsets.is_none());
        if !fixed {
            return (1..n).any(|i| same(fr, i - 1, fr, i));
        }
        // Per cell, whether it repeats the cell before it on every
        // dimension so far.
        let mut eq = vec![true; n - 1];
        for (f, d) in dims.iter().zip(&fr.dims) {
            same_as_previous(&d.values, f.cell_size() as usize, &mut eq);
        }
        eq.contains(&true)
    });
    if within {
        return true;
    }
    let mut last: Option<&Batch> = None;
    for fr in frags.iter().filter(|fr| cells(fr) > 0) {
        if let Some(prev) = last.filter(|p| p.frag == fr.frag) {
            if same(prev, cells(prev) - 1, fr, 0) {
                return true;
            }
        }
        last = Some(fr);
    }
    false
}

/// Clears `eq[i - 1]` where cell `i` of `values` (cells of `w` bytes)
/// differs from cell `i - 1`.
fn same_as_previous(values: &[u8], w: usize, eq: &mut [bool]) {
    fn typed<const W: usize>(values: &[u8], eq: &mut [bool]) {
        let (cells, _) = values.as_chunks::<W>();
        for (e, pair) in eq.iter_mut().zip(cells.windows(2)) {
            *e &= pair[0] == pair[1];
        }
    }
    match w {
        1 => typed::<1>(values, eq),
        2 => typed::<2>(values, eq),
        4 => typed::<4>(values, eq),
        8 => typed::<8>(values, eq),
        16 => typed::<16>(values, eq),
        _ => {
            let w = w.max(1);
            for (i, e) in eq.iter_mut().enumerate() {
                *e &= values.get(i * w..(i + 1) * w) == values.get((i + 1) * w..(i + 2) * w);
            }
        }
    }
}
