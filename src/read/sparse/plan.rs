//! The plan of a sparse read: the fields it reads, the ranges of each
//! dimension, the condition and the deletes to apply; per fragment, the
//! tiles whose MBRs meet the ranges (fragments whose non-empty domain
//! misses them are skipped), less those the condition rules out by their
//! minimum, maximum and null count.

use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::boxes::prunable;
use super::context::SparseRead;
use super::select::{select_tiles, special_fields};
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::read::array_reader::ArrayReader;
use crate::read::query::Query;
use crate::read::query_condition::BoundCondition;

/// The delete commits a fragment has processed (named by their file name).
pub(super) type Processed = Arc<Vec<String>>;

/// The tiles an R-tree picks, each with whether its MBR lies inside the
/// ranges (`None`: no R-tree).
type PickedTiles = Option<Vec<(usize, bool)>>;

/// What the plan picks of a fragment.
pub(super) struct Pick {
    /// The fragment's place among the reader's.
    pub(super) fi: usize,
    /// The tiles its R-tree picks, each with whether its MBR lies inside
    /// the ranges; `None`: the fragment has no R-tree (before version 5)
    /// and is read whole.
    pub(super) tiles: PickedTiles,
    pub(super) processed: Processed,
}

impl<'a> SparseRead<'a> {
    /// The plan of a read of `q`: its fields, ranges, condition and the
    /// deletes to apply.
    pub(super) fn plan(reader: &'a ArrayReader, q: &'a Query) -> Result<Self> {
        let (dims, requested) = reader.fields(q)?;
        let deletes = reader.deletes()?;
        let allows_dups = reader.schema.allows_dups.unwrap_or(0) != 0;
        let ranges = reader.dim_ranges_of(q, &dims)?;
        let condition = match &q.condition {
            Some(c) => Some((c.bind(reader)?, c.field_names())),
            None => None,
        };
        // The condition's attributes are read too, and dropped at the end.
        let mut attrs = requested.clone();
        if let Some((_, names)) = &condition {
            for n in names {
                if dims.iter().any(|d| d.name == *n) || attrs.iter().any(|a| a.name == *n) {
                    continue;
                }
                let f = FieldInfo::lookup(&reader.schema, n)
                    .filter(|f| !f.is_dimension)
                    .ok_or_else(|| Error::Condition {
                        text: format!("{:?}", q.condition),
                        what: format!("the array has no field {n:?}"),
                    })?;
                attrs.push(f);
            }
        }
        let all_attrs: Vec<FieldInfo> = reader
            .schema
            .attributes
            .iter()
            .filter_map(|a| FieldInfo::lookup(&reader.schema, &String::from_utf8_lossy(&a.name)))
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
        Ok(SparseRead {
            reader,
            query: q,
            dims,
            requested,
            attrs,
            all_attrs,
            needed,
            deletes,
            allows_dups,
            ranges,
            condition,
            boxes: Mutex::new(vec![None; reader.fragments.len()]),
        })
    }

    /// Per fragment, in order, the tiles the read needs (fragments none of
    /// whose tiles it needs left out).
    pub(super) fn pick_tiles(&self) -> Result<Vec<Pick>> {
        let r = self.reader;
        // Each fragment's processed deletes and the tiles its R-tree picks,
        // the fragments in parallel (a box meets several).
        let (dims, ranges) = (&self.dims, &self.ranges);
        let selected: Vec<(Processed, PickedTiles)> = r
            .fragments
            .par_iter()
            .map(|f| {
                // The engine skips the conditions a fragment processed
                // only when it has delete metadata
                // (sparse_index_reader_base.cc `apply_query_condition`);
                // they are named by their path in the array
                // (`__commits/<name>.del`).
                let processed = Arc::new(if special_fields(f).1 {
                    f.processed_conditions(&r.opts)?
                        .iter()
                        .map(|c| c.rsplit('/').next().unwrap_or_default().to_string())
                        .collect()
                } else {
                    Vec::new()
                });
                Ok((processed, select_tiles(f, dims, ranges, &r.opts)?))
            })
            .collect::<Result<_>>()?;
        let mut out = Vec::with_capacity(selected.len());
        for (fi, (processed, picked)) in selected.into_iter().enumerate() {
            let Some(mut tiles) = picked else {
                out.push(Pick {
                    fi,
                    tiles: None,
                    processed,
                });
                continue;
            };
            if let Some(skip) = &self.query.skip_tiles {
                tiles.retain(|(t, _)| !skip.contains(&(fi, *t as u64)));
            }
            if let Some((c, names)) = &self.condition {
                self.prune_by_condition(fi, c, names, &mut tiles)?;
            }
            if !tiles.is_empty() {
                out.push(Pick {
                    fi,
                    tiles: Some(tiles),
                    processed,
                });
            }
        }
        Ok(out)
    }

    /// Drops the tiles of fragment `fi` the condition cannot match, by
    /// their metadata: only where no cell of them can hide an older cell
    /// (duplicates allowed, or a single fragment), as the condition applies
    /// after the newest cell of each coordinate is chosen. With several
    /// fragments and no duplicates: only tiles no fragment that may hold
    /// older cells overlaps (their cells hide nothing a read could return).
    fn prune_by_condition(
        &self,
        fi: usize,
        c: &BoundCondition,
        names: &[String],
        tiles: &mut Vec<(usize, bool)>,
    ) -> Result<()> {
        let r = self.reader;
        let all = tiles.clone();
        r.prune_tiles(&r.fragments[fi], c, names, tiles)?;
        if self.allows_dups || r.fragments.len() == 1 || tiles.len() == all.len() {
            return Ok(());
        }
        let mine = self.boxes_of(fi)?;
        let mut back = Vec::with_capacity(all.len());
        let mut may = tiles.iter().map(|(t, _)| *t).peekable();
        for (t, inside) in all {
            let matches = may.next_if_eq(&t).is_some();
            let drop = !matches
                && match mine.tile(t) {
                    Some(b) => prunable(&r.fragments, fi, b, &mut |k| self.boxes_of(k))?,
                    None => false,
                };
            if !drop {
                back.push((t, inside));
            }
        }
        *tiles = back;
        Ok(())
    }
}

impl ArrayReader {
    /// Drops the tiles of `frag` whose mins, maxes and null counts prove
    /// that no cell matches the condition.
    fn prune_tiles(
        &self,
        frag: &Fragment,
        c: &BoundCondition,
        names: &[String],
        tiles: &mut Vec<(usize, bool)>,
    ) -> Result<()> {
        use crate::read::aggregate::{FieldMd, Need};
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
            let stats = |name: &str| -> Option<crate::read::query_condition::FieldTileStats<'_>> {
                let (_, field, md) = mds.iter().find(|(n, _, _)| *n == name)?;
                let cs = field.cell_val_num.map(|_| field.cell_size());
                Some(crate::read::query_condition::FieldTileStats {
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
}
