//! Sparse aggregates: tiles from metadata where the rules allow, the rest read.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{accumulate::*, dense::*, parse::*, plan::*};
use crate::array::fragment::Metadata;
use crate::error::Result;
use crate::format::version::has_tile_min_max;
use crate::read::query::Query;
use crate::read::query_condition::BoundCondition;
use crate::read::range::Bound;
use crate::read::ArrayReader;

pub(super) fn sparse_aggregate(
    reader: &ArrayReader,
    dims: &[Dim],
    plan: &Plan,
    mut inner: Query,
    bound: Option<&BoundCondition>,
    targets: &mut [Target],
) -> Result<Stats> {
    let mut stats = AggregateStats::default();
    let want = needs(targets);
    let allows_dups = reader.schema.allows_dups.unwrap_or(0) != 0;
    let neds: Vec<Option<Vec<(Bound, Bound)>>> = reader
        .fragments
        .iter()
        .map(|f| ned_bounds(f, dims))
        .collect();
    let delete_names: Vec<String> = reader
        .dir
        .condition_commits()
        .into_iter()
        .map(|d| {
            d.path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut skip: HashSet<(usize, u64)> = HashSet::new();
    let mut need_read = false;
    let mut md_cells: u64 = 0;
    for (fi, frag) in reader.fragments.iter().enumerate() {
        let Metadata::Footer(footer) = &frag.metadata else {
            need_read = true;
            continue;
        };
        let usable = bound.is_none()
            && has_tile_min_max(frag.version())
            && footer.includes_timestamps != Some(1)
            && want.values().all(|(f, _)| !f.is_dimension)
            && (delete_names.is_empty() || {
                let done = frag.processed_conditions(reader.options())?;
                delete_names.iter().all(|d| done.contains(d))
            });
        let rtree = frag.rtree(reader.options())?;
        let leaves = rtree.as_ref().and_then(|r| r.levels.last());
        let Some(leaves) = leaves.filter(|l| l.mbrs.len() as u64 == footer.sparse_tile_num) else {
            need_read = true;
            continue;
        };
        let mut loaded: HashMap<String, FieldMd> = HashMap::new();
        for (t, mbr) in leaves.mbrs.iter().enumerate() {
            let t = t as u64;
            let bounds: Option<Vec<(Bound, Bound)>> = mbr
                .ranges
                .iter()
                .zip(dims)
                .map(|(r, d)| range_bounds(d.field.datatype, r))
                .collect();
            let Some(bounds) = bounds.filter(|b| b.len() == dims.len()) else {
                need_read = true;
                continue;
            };
            if !bounds
                .iter()
                .enumerate()
                .all(|(d, (lo, hi))| plan.meets(d, lo, hi))
            {
                // No cell of the query here.
                continue;
            }
            let inside = bounds
                .iter()
                .enumerate()
                .all(|(d, (lo, hi))| plan.inside(d, lo, hi));
            let alone = allows_dups
                || neds.iter().enumerate().all(|(j, n)| {
                    j == fi
                        || n.as_ref().is_some_and(|n| {
                            !n.iter()
                                .zip(&bounds)
                                .all(|((nl, nh), (lo, hi))| !(nh < lo || nl > hi))
                        })
                });
            if !(usable && inside && alone) {
                need_read = true;
                continue;
            }
            let cells = if t + 1 == footer.sparse_tile_num {
                footer.last_tile_cell_num
            } else {
                frag.schema.capacity
            };
            let mut mds = Vec::new();
            for (name, (field, need)) in &want {
                if !loaded.contains_key(name) {
                    loaded.insert(name.clone(), FieldMd::load(frag, field, reader, *need)?);
                }
                let md = tile_md(&loaded[name], field, *need, t);
                // A saturated tile sum cannot be added to others: decode.
                let saturated =
                    md.as_ref()
                        .and_then(|m| m.1)
                        .is_some_and(|s| match class_of(field.datatype) {
                            Some(Num::I) => s == i64::MAX as u64 || s == i64::MIN as u64,
                            Some(Num::U) => s == u64::MAX,
                            _ => f64::from_bits(s).abs() == f64::MAX,
                        });
                match md {
                    Some(m) if !saturated => mds.push((name.clone(), m)),
                    _ => break,
                }
            }
            if mds.len() != want.len() {
                need_read = true;
                continue;
            }
            for (name, (nulls, sum, min, max)) in mds {
                for tg in targets.iter_mut() {
                    if tg.field.as_ref().is_some_and(|f| f.name == name)
                        && !matches!(tg.acc, Acc::Count(_))
                    {
                        tg.acc.tile(cells, nulls, sum, min.clone(), max.clone());
                    }
                }
            }
            for tg in targets.iter_mut() {
                if let Acc::Count(n) = &mut tg.acc {
                    *n += cells;
                }
            }
            md_cells += cells;
            skip.insert((fi, t));
        }
    }
    stats.tiles_from_metadata = skip.len() as u64;
    let mut folded = 0;
    if need_read {
        stats.cells_read = true;
        inner.skip_tiles = (!skip.is_empty()).then(|| Arc::new(skip));
        for batch in reader.batches(&inner)? {
            let batch = batch?;
            let mask = bound.map(|b| b.evaluate(&batch)).transpose()?;
            folded += fold_batch(&batch, mask.as_deref(), targets, &|_, _| true, None, false)?;
        }
    }
    stats.cells_folded = folded;
    Ok((stats, folded + md_cells))
}
