//! Sparse reads: ranges, tiles pruned by their MBRs, fragments merged
//! (duplicates, newest wins), delete conditions, orders.

use super::column::{Cells, Column};
use super::field::{read_zipped_coords, FieldData};
use super::query::{Order, Query};
use super::query_condition::BoundCondition;
use super::range::{Bound, DimRange};
use super::reader_state::ArrayReader;
use super::sparse;
use super::sparse_merge::{disjoint_fragments, newest_by_grid, prunable, FragBoxes};
use super::{reader_state::*, sort_keys, sort_keys::*};
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::version::has_split_coordinates;
use crate::format::{decode_all, ConditionNode, UpdateCommit};
use crate::tile::read_generic_tile;

/// A delete (or update) commit as a read applies it.
pub(crate) struct Delete {
    /// Its timestamp: it deletes the cells written at or before it.
    pub(crate) t1: u64,
    /// Its file name (as fragments' processed conditions name it).
    pub(crate) name: String,
    /// The stored condition (the negation of the delete's): the cells for
    /// which it holds survive.
    pub(crate) keep: BoundCondition,
}

impl ArrayReader {
    /// The delete and update commits a sparse read applies, oldest first
    /// (an update commit as a delete of the cells its condition selects,
    /// its values unused, as the engine's readers apply it).
    pub(crate) fn deletes(&self) -> Result<Vec<Delete>> {
        let mut out = Vec::new();
        for d in self.dir.condition_commits() {
            let held = d
                .path
                .file_name()
                .and_then(|n| self.dir.delete_tiles.get(n.to_string_lossy().as_ref()));
            let file = match held {
                Some(bytes) => crate::storage::MappedFile::from_vec(&d.path, bytes.clone()),
                None => self.dir.storage.open(&d.path)?,
            };
            let tile = read_generic_tile(&file, 0, &self.opts)?;
            let name = d
                .path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let node: ConditionNode = if name.ends_with(crate::format::hierarchy::UPD) {
                decode_all::<UpdateCommit>(&tile.data, &d.path, 0, ())?.condition
            } else {
                decode_all(&tile.data, &d.path, 0, (0,))?
            };
            // Checked against the newest schema as the engine checks the
            // conditions it loads: a delete whose field the schema no
            // longer has (an evolution dropped it), or that the engine
            // cannot apply, fails the read, never returning cells it may
            // hide.
            let keep =
                BoundCondition::from_stored_in(&node, name.clone(), &self.schema).map_err(|e| {
                    Error::Query {
                        path: d.path.clone(),
                        what: match e {
                            Error::Condition { what, .. } => format!(
                            "this delete condition cannot be applied as the engine applies it, \
                             which refuses the read too: {what}"
                        ),
                            other => other.to_string(),
                        },
                    }
                })?;
            out.push(Delete {
                t1: d.name.t1,
                name,
                keep,
            });
        }
        Ok(out)
    }

    /// The typed ranges of each dimension of a query: its `ranges` (each
    /// checked against the dimension's datatype) and its old `subarray`.
    pub(super) fn dim_ranges_of(&self, q: &Query, dims: &[FieldInfo]) -> Result<sparse::DimRanges> {
        // Per dimension, the ranges of each entry that names it; several
        // entries for one dimension intersect (as the old subarray does
        // with them), the ranges of one entry are a multi-range.
        let mut out: Vec<Option<Vec<DimRange>>> = vec![None; dims.len()];
        let mut add = |d: usize, rs: Vec<DimRange>| {
            out[d] = Some(match out[d].take() {
                None => rs,
                Some(prev) => intersect_ranges(&prev, &rs),
            });
        };
        for (name, rs) in &q.ranges {
            let d = dims
                .iter()
                .position(|d| d.name == *name)
                .ok_or_else(|| Error::Query {
                    path: self.dir.root.clone(),
                    what: format!(
                        "the array has no dimension {name:?} (its dimensions: {})",
                        dims.iter()
                            .map(|d| d.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })?;
            // The dimension's domain (fixed-size dimensions): a range that
            // reaches past it is refused, as the engine's subarray refuses
            // it ("out of domain bounds").
            let domain = self
                .schema
                .domain
                .dimensions
                .iter()
                .find(|s| s.name == name.as_bytes())
                .filter(|_| dims[d].cell_val_num.is_some())
                .and_then(|s| {
                    let w = dims[d].datatype.size() as usize;
                    let lo = Bound::of_cell(dims[d].datatype, s.domain.get(..w)?)?;
                    let hi = Bound::of_cell(dims[d].datatype, s.domain.get(w..2 * w)?)?;
                    Some((lo, hi))
                });
            for r in rs {
                r.check(dims[d].datatype).map_err(|what| Error::Query {
                    path: self.dir.root.clone(),
                    what: format!("range on {name:?}: {what}"),
                })?;
                if let Some((lo, hi)) = &domain {
                    if r.lo < *lo || r.hi > *hi {
                        return Err(Error::Query {
                            path: self.dir.root.clone(),
                            what: format!(
                                "range {}:{} on {name:?} is outside the domain {lo}:{hi}",
                                r.lo, r.hi
                            ),
                        });
                    }
                }
            }
            add(d, rs.clone());
        }
        if let Some(sub) = &q.subarray {
            for (d, r) in sub.iter().enumerate().take(dims.len()) {
                if let Some((lo, hi)) = r {
                    add(
                        d,
                        vec![DimRange {
                            lo: Bound::Int(*lo),
                            hi: Bound::Int(*hi),
                        }],
                    );
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|rs| match rs {
                // Nothing of the dimension is selected: a range no value is in.
                Some(rs) if rs.is_empty() => vec![DimRange {
                    lo: Bound::Int(1),
                    hi: Bound::Int(0),
                }],
                rs => rs.unwrap_or_default(),
            })
            .collect())
    }

    /// Drops the tiles of `frag` whose mins, maxes and null counts prove
    /// that no cell matches the condition.
    pub(super) fn prune_tiles(
        &self,
        frag: &Fragment,
        c: &BoundCondition,
        names: &[String],
        tiles: &mut Vec<(usize, bool)>,
    ) -> Result<()> {
        use super::aggregate::{FieldMd, Need};
        let need = Need {
            min: true,
            max: true,
            sum: false,
            nulls: true,
        };
        let mut mds = Vec::new();
        for n in names {
            let Some(field) = FieldInfo::lookup(&frag.schema, n) else {
                continue;
            };
            let md = FieldMd::load(frag, &field, self, need)?;
            mds.push((n.as_str(), field, md));
        }
        let cells = |t: usize| match &frag.metadata {
            Metadata::Footer(f) if t as u64 + 1 == f.sparse_tile_num => f.last_tile_cell_num,
            _ => self.schema.capacity,
        };
        tiles.retain(|(t, _)| {
            let stats = |name: &str| -> Option<super::query_condition::FieldTileStats<'_>> {
                let (_, field, md) = mds.iter().find(|(n, _, _)| *n == name)?;
                let cs = field.cell_val_num.map(|_| field.cell_size());
                Some(super::query_condition::FieldTileStats {
                    min: md
                        .mins
                        .as_ref()
                        .and_then(|m| FieldMd::value(m, *t as u64, cs)),
                    max: md
                        .maxes
                        .as_ref()
                        .and_then(|m| FieldMd::value(m, *t as u64, cs)),
                    null_count: md.nulls.as_ref().and_then(|v| v.get(*t).copied()),
                    cell_count: cells(*t),
                })
            };
            c.may_match(&stats)
        });
        Ok(())
    }

    pub(super) fn read_sparse(&self, q: &Query) -> Result<Cells> {
        let (dims, requested) = self.fields(q)?;
        let deletes = self.deletes()?;
        let allows_dups = self.schema.allows_dups.unwrap_or(0) != 0;
        let ranges = self.dim_ranges_of(q, &dims)?;
        let condition = match &q.condition {
            Some(c) => Some((c.bind(self)?, c.field_names())),
            None => None,
        };
        // The condition's attributes are read too, and dropped at the end.
        let mut attrs = requested.clone();
        if let Some((_, names)) = &condition {
            for n in names {
                if dims.iter().any(|d| d.name == *n) || attrs.iter().any(|a| a.name == *n) {
                    continue;
                }
                let f = FieldInfo::lookup(&self.schema, n)
                    .filter(|f| !f.is_dimension)
                    .ok_or_else(|| Error::Condition {
                        text: format!("{:?}", q.condition),
                        what: format!("the array has no field {n:?}"),
                    })?;
                attrs.push(f);
            }
        }
        let mut frags = Vec::new();
        let all_attrs: Vec<FieldInfo> = self
            .schema
            .attributes
            .iter()
            .filter_map(|a| FieldInfo::lookup(&self.schema, &String::from_utf8_lossy(&a.name)))
            .collect();
        // The attributes to decode: those asked for, and those a condition
        // or a delete names.
        let needed: Vec<bool> = all_attrs
            .iter()
            .map(|a| {
                attrs.iter().any(|x| x.name == a.name)
                    || deletes
                        .iter()
                        .any(|d| d.keep.fields().iter().any(|f| f.name == a.name))
            })
            .collect();
        // The boxes (non-empty domain, tile MBRs) of each fragment, made on
        // first use (pruning tiles by a condition).
        let mut made: Vec<Option<std::sync::Arc<FragBoxes>>> = vec![None; self.fragments.len()];
        let mut boxes = |k: usize| -> Result<std::sync::Arc<FragBoxes>> {
            if let Some(b) = &made[k] {
                return Ok(b.clone());
            }
            let b = std::sync::Arc::new(FragBoxes::of(&self.fragments[k], &dims, &self.opts)?);
            made[k] = Some(b.clone());
            Ok(b)
        };
        // What the loop over fragments finds of each: tiles, whose fields
        // are opened after it (in parallel), or its cells.
        enum Found {
            Picked {
                fi: usize,
                tiles: Vec<(usize, bool)>,
                processed: std::sync::Arc<Vec<String>>,
            },
            Done(Frag),
        }
        // Per fragment in order: its picked tiles, decoded after the loop,
        // or its cells read whole (no R-tree).
        enum Slot {
            Tiles {
                fi: usize,
                fields: Box<sparse::FragmentFields>,
                tiles: Vec<(usize, bool)>,
                processed: std::sync::Arc<Vec<String>>,
            },
            Done(Frag),
        }
        let mut found: Vec<Found> = Vec::with_capacity(self.fragments.len());
        // Each fragment's processed deletes and the tiles its R-tree picks,
        // the fragments in parallel (a box meets several).
        type Processed = std::sync::Arc<Vec<String>>;
        type Tiles = Option<Vec<(usize, bool)>>;
        let selected: Vec<(Processed, Tiles)> = {
            use rayon::prelude::*;
            self.fragments
                .par_iter()
                .map(|f| {
                    // The engine skips the conditions a fragment processed
                    // only when it has delete metadata
                    // (sparse_index_reader_base.cc `apply_query_condition`);
                    // they are named by their path in the array
                    // (`__commits/<name>.del`).
                    let processed = std::sync::Arc::new(if sparse::special_fields(f).1 {
                        f.processed_conditions(&self.opts)?
                            .iter()
                            .map(|c| c.rsplit('/').next().unwrap_or_default().to_string())
                            .collect()
                    } else {
                        Vec::new()
                    });
                    Ok((
                        processed,
                        sparse::select_tiles(f, &dims, &ranges, &self.opts)?,
                    ))
                })
                .collect::<Result<_>>()?
        };
        for ((fi, f), (processed, picked)) in self.fragments.iter().enumerate().zip(selected) {
            if let Some(mut tiles) = picked {
                if let Some(skip) = &q.skip_tiles {
                    tiles.retain(|(t, _)| !skip.contains(&(fi, *t as u64)));
                }
                // Tiles the condition cannot match, by their metadata: only
                // where no cell of them can hide an older cell (duplicates
                // allowed, or a single fragment), as the condition applies
                // after the newest cell of each coordinate is chosen.
                // With several fragments and no duplicates: only tiles no
                // fragment that may hold older cells overlaps (their cells
                // hide nothing a read could return).
                if let Some((c, names)) = &condition {
                    let all = tiles.clone();
                    self.prune_tiles(f, c, names, &mut tiles)?;
                    if !(allows_dups || self.fragments.len() == 1) && tiles.len() < all.len() {
                        let mine = boxes(fi)?;
                        let mut back = Vec::with_capacity(all.len());
                        let mut may = tiles.iter().map(|(t, _)| *t).peekable();
                        for (t, inside) in all {
                            let matches = may.next_if_eq(&t).is_some();
                            let drop = !matches
                                && match mine.tile(t) {
                                    Some(b) => prunable(&self.fragments, fi, b, &mut boxes)?,
                                    None => false,
                                };
                            if !drop {
                                back.push((t, inside));
                            }
                        }
                        tiles = back;
                    }
                }
                if tiles.is_empty() {
                    continue;
                }
                found.push(Found::Picked {
                    fi,
                    tiles,
                    processed,
                });
                continue;
            }
            // Fragments with no R-tree to go by (before version 5): every
            // field whole. Every field must hold as many cells as the first
            // dimension. A field's place in the fragment's files is in the
            // schema the fragment names (a later schema may have added
            // attributes).
            let mut n = None;
            let mut dims_d = Vec::with_capacity(dims.len());
            if !has_split_coordinates(f.version()) {
                // One zipped `__coords.tdb` holds every dimension.
                dims_d = read_zipped_coords(f, &self.opts)?;
                n = dims_d.first().map(|d| d.len(dims[0].cell_size()));
            }
            for d in dims.iter().skip(dims_d.len()) {
                let d = FieldInfo::lookup(&f.schema, &d.name)
                    .filter(|x| x.is_dimension)
                    .ok_or_else(|| Error::Unsupported {
                        path: f.path.clone(),
                        what: format!("the fragment's schema has no dimension {:?}", d.name),
                    })?;
                let data = read_checked(f, &d, &self.opts, n)?;
                n = Some(data.len(d.cell_size()));
                dims_d.push(data);
            }
            let attrs_d = all_attrs
                .iter()
                .zip(&needed)
                .map(|(a, need)| match FieldInfo::lookup(&f.schema, &a.name) {
                    Some(fa) if *need => read_checked(f, &fa, &self.opts, n).map(Some),
                    _ => Ok(None),
                })
                .collect::<Result<Vec<_>>>()?;
            let has_timestamps = matches!(
                &f.metadata,
                Metadata::Footer(footer) if footer.includes_timestamps == Some(1)
            );
            let timestamps: Option<Vec<u64>> = if has_timestamps {
                let t = FieldInfo::timestamps(&f.schema);
                let d = read_checked(f, &t, &self.opts, n)?;
                Some(
                    d.values
                        .chunks_exact(8)
                        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                        .collect(),
                )
            } else {
                None
            };
            // The cells in the ranges.
            let n = n.unwrap_or(0);
            let keep = sparse::in_ranges(&ranges, dims.iter().zip(&dims_d), n);
            found.push(Found::Done(Frag {
                dims: dims_d
                    .iter()
                    .zip(&dims)
                    .map(|(d, f)| d.select(&keep, f.cell_size()))
                    .collect(),
                attrs: attrs_d
                    .iter()
                    .zip(&all_attrs)
                    .map(|(d, f)| d.as_ref().map(|d| d.select(&keep, f.cell_size())))
                    .collect(),
                timestamps: timestamps.map(|t| {
                    t.into_iter()
                        .zip(&keep)
                        .filter(|(_, k)| **k)
                        .map(|(t, _)| t)
                        .collect()
                }),
                delete_ts: None,
                processed,
                t1: f.name.t1,
                frag: fi,
            }));
        }
        // The fields of the fragments with picked tiles opened, in parallel.
        let mut slots: Vec<Slot> = {
            use rayon::prelude::*;
            found
                .into_par_iter()
                .map(|s| match s {
                    Found::Picked {
                        fi,
                        tiles,
                        processed,
                    } => {
                        let f = &self.fragments[fi];
                        let fields = sparse::FragmentFields::open(
                            f, &dims, &all_attrs, &needed, &self.opts,
                        )?;
                        Ok(Slot::Tiles {
                            fi,
                            fields: Box::new(fields),
                            tiles,
                            processed,
                        })
                    }
                    Found::Done(fr) => Ok(Slot::Done(fr)),
                })
                .collect::<Result<_>>()?
        };
        // The picked tiles of every fragment decoded together, in parallel
        // (a box picks a few tiles of each of several fragments); from a
        // ranged storage, fetched together where they fit in the read-ahead,
        // then decoded fragment by fragment (else fetched in groups).
        let ranged = slots
            .iter()
            .any(|s| matches!(s, Slot::Tiles { fields, .. } if fields.ranged()));
        let mut decoded: Vec<Vec<sparse::TileCells>> = Vec::with_capacity(slots.len());
        if ranged {
            let picked: Vec<(&sparse::FragmentFields, &[(usize, bool)])> = slots
                .iter()
                .filter_map(|s| match s {
                    Slot::Tiles { fields, tiles, .. } => Some((&**fields, &tiles[..])),
                    Slot::Done(_) => None,
                })
                .collect();
            sparse::FragmentFields::fetch_together(&picked)?;
            drop(picked);
            for s in slots.iter_mut() {
                if let Slot::Tiles {
                    fi, fields, tiles, ..
                } = s
                {
                    let f = &self.fragments[*fi];
                    decoded.push(fields.tiles(f, tiles, &ranges, &self.stats)?);
                }
            }
        } else {
            use rayon::prelude::*;
            let jobs: Vec<(usize, &sparse::FragmentFields, usize, bool)> = slots
                .iter()
                .flat_map(|s| match s {
                    Slot::Tiles {
                        fi, fields, tiles, ..
                    } => tiles
                        .iter()
                        .map(|(t, i)| (*fi, &**fields, *t, *i))
                        .collect(),
                    Slot::Done(_) => Vec::new(),
                })
                .collect();
            let mut cells = jobs
                .par_iter()
                .map(|(fi, fields, t, inside)| {
                    fields.tile(&self.fragments[*fi], *t, &ranges, *inside, &self.stats)
                })
                .collect::<Result<Vec<_>>>()?
                .into_iter();
            for s in &slots {
                if let Slot::Tiles { tiles, .. } = s {
                    decoded.push(cells.by_ref().take(tiles.len()).collect());
                }
            }
        }
        let mut decoded = decoded.into_iter();
        for s in slots {
            match s {
                Slot::Done(fr) => frags.push(fr),
                Slot::Tiles { fi, processed, .. } => {
                    let t1 = self.fragments[fi].name.t1;
                    for t in decoded.next().into_iter().flatten() {
                        frags.push(Frag {
                            dims: t.dims,
                            attrs: t.attrs,
                            timestamps: t.timestamps,
                            delete_ts: t.delete_meta.map(|(dt, _)| dt),
                            processed: processed.clone(),
                            t1,
                            frag: fi,
                        });
                    }
                }
            }
        }
        // The condition on each batch before the merge, when every batch
        // holds the fields it reads (else on the merged cells, an absent
        // attribute taking its fill value): a cell it drops is no longer
        // gathered, though without duplicates it still hides the older
        // cells of its coordinates.
        let present = |fr: &Frag, n: &String| {
            dims.iter().any(|d| d.name == *n)
                || all_attrs
                    .iter()
                    .position(|a| a.name == *n)
                    .is_some_and(|ai| fr.attrs[ai].is_some())
        };
        let passes: Option<Vec<Vec<bool>>> = match &condition {
            Some((c, names)) if frags.iter().all(|fr| names.iter().all(|n| present(fr, n))) => {
                let mut out = Vec::with_capacity(frags.len());
                for fr in frags.iter_mut() {
                    let n = fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
                    let mut m =
                        condition_masks(&mut fr.dims, &mut fr.attrs, &dims, &all_attrs, n, &[c])?;
                    out.push(m.pop().unwrap_or_default());
                }
                Some(out)
            }
            _ => None,
        };
        // Fragments whose non-empty domains meet no other's (and which keep
        // one write per coordinate) hold no coordinate twice: their cells
        // need no choice of the newest.
        let read_frags: Vec<usize> = {
            let mut v: Vec<usize> = frags.iter().map(|fr| fr.frag).collect();
            v.dedup();
            v
        };
        let disjoint = !allows_dups
            && disjoint_fragments(&self.fragments, &read_frags, &mut boxes)?
            && !adjacent_repeats(&frags, &dims);
        // (fragment, cell) of every surviving cell.
        let mut picked: Vec<(usize, usize)> = Vec::new();
        // Whether a delete removes each picked cell. Without duplicates a
        // deleted cell still overwrites the older cells of its coordinates
        // (the engine removes the coordinates, not only the newest write),
        // so it is dropped only after the newest write of each coordinate
        // is chosen.
        let mut deleted: Vec<bool> = Vec::new();
        let (open_start, open_end) = self.time_range.unwrap_or((0, u64::MAX));
        // Integer dimensions: the picked cells' sort keys taken from each
        // batch's values in one pass.
        let total: usize = frags
            .iter()
            .map(|fr| fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size())))
            .sum();
        picked.reserve(total);
        deleted.reserve(total);
        let mut int_keys: Option<Vec<Vec<u64>>> =
            Some((0..dims.len()).map(|_| Vec::with_capacity(total)).collect());
        for (fi, fr) in frags.iter_mut().enumerate() {
            let n = fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
            let by_condition = deleted_cells(fr, n, &deletes, &dims, &all_attrs)?;
            let batch_keys: Option<Vec<Vec<u64>>> = int_keys.as_ref().and_then(|_| {
                dims.iter()
                    .zip(&fr.dims)
                    .map(|(f, d)| {
                        sort_keys::int_keys(f.datatype, &d.values).filter(|k| k.len() == n)
                    })
                    .collect()
            });
            if batch_keys.is_none() {
                int_keys = None;
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
                    || passes.as_ref().is_some_and(|m| !m[fi][i]);
                if gone && (allows_dups || disjoint) {
                    continue;
                }
                picked.push((fi, i));
                deleted.push(gone);
                if let (Some(all), Some(b)) = (&mut int_keys, &batch_keys) {
                    for (k, bk) in all.iter_mut().zip(b) {
                        k.push(bk[i]);
                    }
                }
            }
        }
        let coords = |p: usize, d: usize| {
            let (fi, i) = picked[p];
            frags[fi].dims[d].cell(i, dims[d].cell_size())
        };
        let timestamp = |p: usize| {
            let (fi, i) = picked[p];
            frags[fi].timestamps.as_ref().map_or(frags[fi].t1, |t| t[i])
        };
        // Which of two cells of one coordinate wins: the later timestamp,
        // then the later fragment; within a fragment that keeps timestamps
        // (several writes of a coordinate, newest first) the first, else
        // the last.
        let newest = |p: usize| {
            let (fi, i) = picked[p];
            let fr = &frags[fi];
            let place = (fi as i128) << 64 | i as i128;
            let place = if fr.timestamps.is_some() {
                -place
            } else {
                place
            };
            (timestamp(p), fr.frag, place)
        };
        // Row-major order of the coordinates (the order `export` prints),
        // ties in (fragment, cell) order.
        let unordered = q.order == Some(Order::Unordered) && (allows_dups || disjoint);
        let keys = match int_keys {
            Some(k) if !unordered => SortKeys {
                dims: k.into_iter().map(Some).collect(),
                general: None,
                exact: true,
            },
            _ => SortKeys::new(&dims, if unordered { 0 } else { picked.len() }, coords),
        };
        let mut order: Vec<usize> = (0..picked.len()).collect();
        // Without duplicates, the newest cell of each coordinate through a
        // grid of the coordinates' box where it is small (already in
        // row-major order: no sort).
        let grid = if !unordered && !allows_dups {
            newest_by_grid(&keys, picked.len(), newest)
        } else {
            None
        };
        let deduped = grid.is_some() || disjoint;
        if let Some(g) = grid {
            order = g;
            order.retain(|&p| !deleted[p]);
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
        if !allows_dups && !deduped {
            // The newest write of each coordinate wins (ties: the later
            // fragment, the later cell). Cells of one coordinate have equal
            // keys, so they sit in one run of equal keys.
            let same_coords =
                |p: usize, q: usize| (0..dims.len()).all(|d| coords(p, d) == coords(q, d));
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
                    // Equal keys, maybe other bytes (0.0 and -0.0, NaNs):
                    // the newest cell of each coordinate, in key order.
                    run.clear();
                    run.extend_from_slice(group);
                    run.sort_unstable_by(|&p, &q| {
                        (0..dims.len())
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
            kept.retain(|&p| !deleted[p]);
            order = kept;
        }
        match q.order {
            Some(Order::ColMajor) => {
                order.sort_by(|&p, &q| keys.cmp_reversed(p, q, coords));
            }
            Some(Order::GlobalOrder) => {
                // Tile keys made once per cell; coordinates compared in
                // place where keys tie (no allocation per comparison).
                let go = crate::write::order::GlobalOrder::new(&self.schema);
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
        // Every batch's fixed-size fields hold its cells at the schema's
        // cell size; a fragment whose schema gives a field another size
        // (an attribute dropped and added again with another type) is
        // refused rather than read at the wrong width.
        for fr in &frags {
            let n = fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
            let fields = dims.iter().zip(fr.dims.iter().map(Some));
            let fields = fields.chain(all_attrs.iter().zip(fr.attrs.iter().map(Option::as_ref)));
            for (f, d) in fields {
                let Some(d) = d.filter(|d| f.cell_val_num.is_some() && d.offsets.is_none()) else {
                    continue;
                };
                let w = f.cell_size() as usize;
                if Some(d.values.len()) != n.checked_mul(w) {
                    return Err(Error::decode(
                        &self.fragments[fr.frag].path,
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
        // (So below, a fixed-size field's values are its cells at the
        // schema's size wherever it has no offsets.)
        let dim_column = |d: usize, order: &[usize]| {
            let w = dims[d].cell_size() as usize;
            if dims[d].cell_val_num.is_some() && frags.iter().all(|fr| fr.dims[d].offsets.is_none())
            {
                let data = gather(w, order, |p| {
                    let (fi, i) = picked[p];
                    (&frags[fi].dims[d].values[..], i)
                });
                return Column::from_parts(dims[d].clone(), data, None, None, order.len());
            }
            let mut col = Column::new(dims[d].clone(), order.len());
            for &p in order {
                col.push(Some(coords(p, d)));
            }
            col
        };
        let attr_column = |a: &FieldInfo, order: &[usize]| -> Result<Column> {
            let ai = all_attrs
                .iter()
                .position(|x| x.name == a.name)
                .expect("attributes come from the schema");
            let spec = &self.schema.attributes[ai];
            let fill = (!a.nullable || spec.fill_value_validity.unwrap_or(0) != 0).then(|| {
                spec.fill_value
                    .clone()
                    .unwrap_or_else(|| vec![0; a.cell_size() as usize])
            });
            // Cells of fragments written before the attribute existed take
            // its fill value, whose size comes from the schema.
            let filled = order
                .iter()
                .filter(|&&p| frags[picked[p].0].attrs[ai].is_none())
                .count() as u64;
            let fill_bytes = fill.as_ref().map_or(0, |f| f.len() as u64);
            if filled.saturating_mul(fill_bytes) > self.opts.max_tile_bytes() {
                return Err(Error::Unsupported {
                    path: self.dir.root.clone(),
                    what: format!(
                        "{filled} fill values of {fill_bytes} bytes for {:?} exceed the limit",
                        a.name
                    ),
                });
            }
            // Fixed-size cells every batch holds, none null: copied at once.
            let w = a.cell_size() as usize;
            let plain: Vec<bool> = frags
                .iter()
                .map(|fr| {
                    fr.attrs[ai]
                        .as_ref()
                        .is_some_and(|d| d.offsets.is_none() && d.validity.is_none())
                })
                .collect();
            if a.cell_val_num.is_some() && !a.nullable && order.iter().all(|&p| plain[picked[p].0])
            {
                let data = gather(w, order, |p| {
                    let (fi, i) = picked[p];
                    let values = frags[fi].attrs[ai]
                        .as_ref()
                        .map_or(&[][..], |d| &d.values[..]);
                    (values, i)
                });
                return Ok(Column::from_parts(a.clone(), data, None, None, order.len()));
            }
            let mut col = Column::new(a.clone(), order.len());
            for &p in order {
                let (fi, i) = picked[p];
                col.push(match &frags[fi].attrs[ai] {
                    Some(data) => {
                        let valid = data.validity.as_ref().is_none_or(|v| v[i] != 0);
                        valid.then(|| data.cell(i, a.cell_size()))
                    }
                    // Written before the attribute was added: its fill value.
                    None => fill.as_deref(),
                });
            }
            Ok(col)
        };
        // The condition first, on the columns it reads: only the cells it
        // keeps are gathered into the result.
        if let (Some((c, names)), None) = (&condition, &passes) {
            let mut columns = Vec::new();
            for (d, f) in dims.iter().enumerate() {
                if names.contains(&f.name) {
                    columns.push(dim_column(d, &order));
                }
            }
            for a in attrs.iter().filter(|a| names.contains(&a.name)) {
                columns.push(attr_column(a, &order)?);
            }
            let mask = c.evaluate(&Cells {
                len: order.len(),
                columns,
            })?;
            order = order
                .into_iter()
                .zip(mask)
                .filter(|(_, m)| *m)
                .map(|(p, _)| p)
                .collect();
        }
        let mut columns = Vec::new();
        for d in 0..dims.len() {
            columns.push(dim_column(d, &order));
        }
        for a in &requested {
            columns.push(attr_column(a, &order)?);
        }
        let mut cells = Cells {
            len: order.len(),
            columns,
        };
        if q.skip_coordinates {
            cells.columns.drain(..dims.len());
        }
        Ok(cells)
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

/// The cells of one batch (a tile, or a whole fragment) of a sparse read.
struct Frag {
    dims: Vec<FieldData>,
    /// `None`: an attribute the fragment lacks (or the read does not need).
    attrs: Vec<Option<FieldData>>,
    timestamps: Option<Vec<u64>>,
    /// The cells' delete timestamps (fragments consolidated with delete
    /// metadata).
    delete_ts: Option<Vec<u64>>,
    /// The delete commits already applied to the fragment (its delete
    /// metadata records what they deleted).
    processed: std::sync::Arc<Vec<String>>,
    t1: u64,
    /// The fragment's place among the reader's.
    frag: usize,
}

/// Which of the `n` cells of `fr` a delete removes (`None`: no delete
/// applies to any of them). Each delete that applies evaluates its
/// condition on the batch's columns once, with the evaluator of query
/// conditions; its verdict counts for the cells written at or before it.
fn deleted_cells(
    fr: &mut Frag,
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
/// without them, its writes of one coordinate next to each other.
fn adjacent_repeats(frags: &[Frag], dims: &[FieldInfo]) -> bool {
    let mut last: Option<(usize, usize, usize)> = None;
    for (b, fr) in frags.iter().enumerate() {
        let n = fr.dims.first().map_or(0, |d| d.len(dims[0].cell_size()));
        for i in 0..n {
            if let Some((lb, li, lf)) = last {
                if lf == fr.frag
                    && dims.iter().enumerate().all(|(d, f)| {
                        frags[lb].dims[d].cell(li, f.cell_size())
                            == fr.dims[d].cell(i, f.cell_size())
                    })
                {
                    return true;
                }
            }
            last = Some((b, i, fr.frag));
        }
    }
    false
}

/// The ranges both lists hold.
pub(super) fn intersect_ranges(a: &[DimRange], b: &[DimRange]) -> Vec<DimRange> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            if x.overlaps(&y.lo, &y.hi) {
                out.push(DimRange {
                    lo: if x.lo > y.lo {
                        x.lo.clone()
                    } else {
                        y.lo.clone()
                    },
                    hi: if x.hi < y.hi {
                        x.hi.clone()
                    } else {
                        y.hi.clone()
                    },
                });
            }
        }
    }
    out
}
