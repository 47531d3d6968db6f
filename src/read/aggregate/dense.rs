//! Dense aggregates, by parts as the engine's dense reader goes.

use std::collections::{HashMap, HashSet};

use super::{accumulate::*, parse::*, plan::*};
use crate::array::fragment::Metadata;
use crate::error::{Error, Result};
use crate::format::version::{has_nullable_fixed_string_min_max, has_tile_min_max};
use crate::format::{Datatype, Layout};
use crate::read::query::Query;
use crate::read::query_condition::BoundCondition;
use crate::read::range::Bound;
use crate::read::ArrayReader;

pub(super) type Stats = (AggregateStats, u64);

#[allow(clippy::too_many_lines)] // Over 150 lines, not yet split (issue 46).
pub(super) fn dense_aggregate(
    reader: &ArrayReader,
    dims: &[Dim],
    plan: &Plan,
    inner: Query,
    bound: Option<&BoundCondition>,
    targets: &mut [Target],
) -> Result<Stats> {
    let mut stats = AggregateStats::default();
    let geo: Option<Vec<(i128, i128, i128)>> = dims
        .iter()
        .map(|d| Some((d.domain?.0, d.domain?.1, d.extent?)))
        .collect();
    let geo = geo.ok_or_else(|| Error::Unsupported {
        path: reader.dir.root.clone(),
        what: "dense arrays need integer dimensions with tile extents".into(),
    })?;
    let neds: Vec<Option<Vec<(i128, i128)>>> = reader.fragments.iter().map(ned_ints).collect();
    let region = dense_region(plan, dims.len());
    let empty = |r: &[Vec<(i128, i128)>]| r.iter().any(|ivs| ivs.iter().all(|(l, h)| l > h));
    let region_cells = region.as_ref().map(|r| {
        r.iter()
            .try_fold(1u128, |a, ivs| {
                let n = ivs
                    .iter()
                    .filter(|(l, h)| l <= h)
                    .map(|(l, h)| (h - l + 1) as u128)
                    .sum::<u128>();
                a.checked_mul(n)
            })
            .map_or(u64::MAX, |c| u64::try_from(c).unwrap_or(u64::MAX))
    });
    // Space tiles answered from metadata, per field.
    let mut md_tiles: HashMap<String, HashSet<Vec<i128>>> = HashMap::new();
    let mut need_read = region.is_none();
    let want = needs(targets);
    let col_major = reader.schema.tile_order == Layout::ColMajor;
    // A space tile's place in the tile order, as a key that sorts so.
    let tile_key = |tc: &[i128]| -> Vec<i128> {
        if col_major {
            tc.iter().rev().copied().collect()
        } else {
            tc.to_vec()
        }
    };
    // The engine's dense reader aggregates a cell slab of a tile (a run of
    // cells along the fastest dimension of the query's layout, row-major
    // here as TileDB-Py asks, inside one range) fragment by fragment,
    // newest first: each such part from scratch, merging the parts'
    // results in that order. When the layout is not the cell order of a
    // 2+-dimensional array, it goes cell by cell along the slab instead
    // (`stride != 1` in `DenseReader::aggregate_tiles`): each cell is a
    // part. A part's
    // key: the tile's, the slab's place in the tile, the fragment (newest
    // first), the cell (by cell only); `part_len` long.
    let cells_col_major = reader.schema.cell_order == Layout::ColMajor;
    let by_cell = cells_col_major && dims.len() > 1;
    let part_len = 2 * dims.len() + 2;
    if let (Some(region), None) = (&region, bound) {
        // The tiles of the region's bounding box.
        let t_lo: Vec<i128> = region
            .iter()
            .zip(&geo)
            .map(|(ivs, (dl, _, e))| {
                ivs.iter()
                    .map(|iv| (iv.0 - dl).div_euclid(*e))
                    .min()
                    .unwrap_or(0)
            })
            .collect();
        let t_hi: Vec<i128> = region
            .iter()
            .zip(&geo)
            .map(|(ivs, (dl, _, e))| {
                ivs.iter()
                    .map(|iv| (iv.1 - dl).div_euclid(*e))
                    .max()
                    .unwrap_or(-1)
            })
            .collect();
        let tiles = t_lo
            .iter()
            .zip(&t_hi)
            .try_fold(1i128, |a, (l, h)| a.checked_mul((h - l + 1).max(0)));
        if empty(region) || tiles.is_none_or(|n| n > 1 << 16) {
            need_read = !empty(region);
        } else {
            let mut loaded: HashMap<(usize, String), FieldMd> = HashMap::new();
            let mut used: HashSet<(usize, u64)> = HashSet::new();
            let mut tc = t_lo.clone();
            'tiles: loop {
                let tbox: Vec<(i128, i128)> = tc
                    .iter()
                    .zip(&geo)
                    .map(|(t, (dl, _, e))| (dl + t * e, dl + (t + 1) * e - 1))
                    .collect();
                // The engine's dense reader takes a tile as covered when
                // every cell of it is in the query, by one range or by
                // several (a multi-range's union).
                let full = tbox
                    .iter()
                    .zip(region)
                    .all(|((tl, th), ivs)| ivs.iter().any(|(l, h)| l <= tl && th <= h));
                // The fragments of this tile, newest first, without those a
                // newer fragment covers here.
                let slice = |fi: usize| -> Option<Vec<(i128, i128)>> {
                    let n = neds[fi].as_ref()?;
                    let s: Vec<(i128, i128)> = n
                        .iter()
                        .zip(&tbox)
                        .map(|((l, h), (tl, th))| (*l.max(tl), *h.min(th)))
                        .collect();
                    (!s.iter().any(|(l, h)| l > h)).then_some(s)
                };
                let mut domains = Vec::new();
                let mut unknown = false;
                for fi in (0..reader.fragments.len()).rev() {
                    if neds[fi].is_none() {
                        unknown = true;
                    }
                    let Some(s) = slice(fi) else { continue };
                    let covered = (fi + 1..reader.fragments.len()).any(|j| {
                        slice(j).is_some_and(|n| {
                            n.iter()
                                .zip(&s)
                                .all(|((nl, nh), (l, h))| nl <= l && h <= nh)
                        })
                    });
                    if !covered {
                        domains.push(fi);
                    }
                }
                let mut tile_all_md = true;
                if full && domains.len() == 1 && !unknown {
                    let fi = domains[0];
                    let frag = &reader.fragments[fi];
                    let ned = neds[fi].as_ref().expect("known");
                    // The tile's place in the fragment: its tiles are the
                    // space tiles its domain touches, in tile order.
                    let f_lo: Vec<i128> = ned
                        .iter()
                        .zip(&geo)
                        .map(|((l, _), (dl, _, e))| (l - dl).div_euclid(*e))
                        .collect();
                    let f_n: Vec<i128> = ned
                        .iter()
                        .zip(&geo)
                        .zip(&f_lo)
                        .map(|(((_, h), (dl, _, e)), lo)| (h - dl).div_euclid(*e) - lo + 1)
                        .collect();
                    let step = |acc: i128, d: usize| acc * f_n[d] + (tc[d] - f_lo[d]);
                    let idx = if col_major {
                        (0..tc.len()).rev().fold(0, step)
                    } else {
                        (0..tc.len()).fold(0, step)
                    };
                    let cells: i128 = geo.iter().map(|g| g.2).product();
                    let version_ok = has_tile_min_max(frag.version())
                        && matches!(frag.metadata, Metadata::Footer(_));
                    for (name, (field, need)) in &want {
                        let eligible = version_ok
                            && !field.is_dimension
                            && !(matches!(field.datatype, Datatype::Char | Datatype::StringAscii)
                                && field.cell_val_num.is_some()
                                && field.nullable
                                && !has_nullable_fixed_string_min_max(frag.version()));
                        let md = if eligible {
                            let key = (fi, name.clone());
                            if !loaded.contains_key(&key) {
                                let m = FieldMd::load(frag, field, reader, *need)?;
                                loaded.insert(key.clone(), m);
                            }
                            tile_md(&loaded[&key], field, *need, idx as u64)
                        } else {
                            None
                        };
                        let Some((nulls, sum, min, max)) = md else {
                            tile_all_md = false;
                            continue;
                        };
                        for t in targets.iter_mut() {
                            if t.field.as_ref().is_none_or(|f| f.name != *name)
                                || matches!(t.acc, Acc::Count(_))
                            {
                                continue;
                            }
                            let acc = if t.acc.by_parts() {
                                // The tile is one part, at its place.
                                let mut key = tile_key(&tc);
                                key.resize(part_len, 0);
                                t.parts.entry(key).or_insert_with(|| t.acc.fresh())
                            } else {
                                &mut t.acc
                            };
                            acc.tile(cells as u64, nulls, sum, min.clone(), max.clone());
                        }
                        md_tiles.entry(name.clone()).or_default().insert(tc.clone());
                        used.insert((fi, idx as u64));
                    }
                } else {
                    tile_all_md = false;
                }
                if !tile_all_md {
                    need_read = true;
                }
                // Next tile, row-major.
                for d in (0..tc.len()).rev() {
                    if tc[d] < t_hi[d] {
                        tc[d] += 1;
                        continue 'tiles;
                    }
                    tc[d] = t_lo[d];
                }
                break;
            }
            stats.tiles_from_metadata = used.len() as u64;
        }
    } else if let Some(region) = &region {
        need_read = !empty(region);
    }
    // With only counts to answer over a box, nothing needs reading.
    if want.is_empty() && region.is_some() {
        need_read = false;
    }
    // Cells no fragment wrote add nothing but to the count, which is the
    // region's: over a known region only the fragments' box is read (a
    // domain of 2^63 cells a side holds a few written ones).
    let mut inner = inner;
    if region.is_some() && neds.iter().all(Option::is_some) {
        let mut bbox: Option<Vec<(i128, i128)>> = None;
        for n in neds.iter().flatten() {
            bbox = Some(match bbox {
                None => n.clone(),
                Some(b) => b
                    .iter()
                    .zip(n)
                    .map(|((bl, bh), (l, h))| (*bl.min(l), *bh.max(h)))
                    .collect(),
            });
        }
        match bbox {
            None => need_read = false,
            Some(bbox) => {
                let sub: Vec<Option<(i128, i128)>> = (0..dims.len())
                    .map(|d| {
                        let (l, h) = bbox.get(d).copied().unwrap_or((0, -1));
                        let (l, h) = match plan.subarray.as_ref().and_then(|s| s[d]) {
                            Some((sl, sh)) => (l.max(sl), h.min(sh)),
                            None => (l, h),
                        };
                        Some((l, h))
                    })
                    .collect();
                if sub.iter().flatten().any(|(l, h)| l > h) {
                    need_read = false;
                } else {
                    inner.subarray = Some(sub);
                }
            }
        }
    }
    let mut counted: u64 = 0;
    if need_read {
        stats.cells_read = true;
        let nd = dims.len();
        for batch in reader.batches(&inner)? {
            let batch = batch?;
            let mask = bound.map(|b| b.evaluate(&batch)).transpose()?;
            let coords: Vec<Vec<i128>> = dims
                .iter()
                .map(|d| {
                    let col = batch.column(&d.field.name);
                    (0..batch.len)
                        .map(|i| {
                            col.and_then(|c| c.get(i))
                                .and_then(|b| int_of(d.field.datatype, b))
                                .unwrap_or(i128::MIN)
                        })
                        .collect()
                })
                .collect();
            // The newest fragment that wrote each cell.
            let owner: Vec<Option<usize>> = (0..batch.len)
                .map(|i| {
                    neds.iter().rposition(|n| {
                        n.as_ref().is_some_and(|n| {
                            (0..nd).all(|d| n[d].0 <= coords[d][i] && coords[d][i] <= n[d].1)
                        })
                    })
                })
                .collect();
            let keep = |i: usize, name: &str| -> bool {
                if owner[i].is_none() {
                    return false;
                }
                match md_tiles.get(name) {
                    None => true,
                    Some(set) => {
                        let tc: Vec<i128> = (0..nd)
                            .map(|d| (coords[d][i] - geo[d].0).div_euclid(geo[d].2))
                            .collect();
                        !set.contains(&tc)
                    }
                }
            };
            let part_of = |i: usize| -> Vec<i128> {
                let tc: Vec<i128> = (0..nd)
                    .map(|d| (coords[d][i] - geo[d].0).div_euclid(geo[d].2))
                    .collect();
                let mut key = tile_key(&tc);
                // The slab (along the layout's fastest dimension, the
                // last): the other dimensions' coordinates, then which
                // range of the fastest one it is in.
                let fastest = nd - 1;
                key.extend(coords[..fastest].iter().map(|c| c[i]));
                let x = coords[fastest][i];
                let range = region
                    .as_ref()
                    .and_then(|r| r[fastest].iter().position(|(l, h)| *l <= x && x <= *h))
                    .unwrap_or(0);
                key.push(range as i128);
                key.push(-(owner[i].unwrap_or(0) as i128));
                if by_cell {
                    key.push(x);
                }
                key.resize(part_len, 0);
                key
            };
            stats.cells_folded += fold_batch(
                &batch,
                mask.as_deref(),
                targets,
                &keep,
                Some(&part_of),
                true,
            )?;
            counted += batch.len as u64;
        }
    }
    for t in targets.iter_mut() {
        for part in std::mem::take(&mut t.parts).into_values() {
            t.acc.merge(part);
        }
    }
    // The engine counts every cell of the region, whatever the condition.
    let region_cells = region_cells.unwrap_or(counted);
    for t in targets.iter_mut() {
        if let Acc::Count(n) = &mut t.acc {
            *n = region_cells;
        }
    }
    Ok((stats, region_cells))
}

/// The region of a dense read, per dimension as disjoint integer
/// intervals in the query's order, a range that starts where the one
/// before it ends joined to it, as the engine's subarray coalesces them (a
/// multi-range; one interval without one). `None` when that is not known:
/// a dimension without a bound, or ranges that overlap.
pub(super) fn dense_region(plan: &Plan, ndims: usize) -> Option<Vec<Vec<(i128, i128)>>> {
    (0..ndims)
        .map(|d| {
            let b = plan
                .subarray
                .as_ref()
                .and_then(|s| s.get(d).copied().flatten());
            let rs = &plan.ranges[d];
            if rs.len() <= 1 {
                // One range is already in the box.
                return b.map(|iv| vec![iv]);
            }
            let ivs: Vec<(i128, i128)> = rs
                .iter()
                .map(|r| match (&r.lo, &r.hi) {
                    (Bound::Int(l), Bound::Int(h)) => Some((*l, *h)),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let mut sorted = ivs.clone();
            sorted.sort_unstable();
            if sorted.windows(2).any(|w| w[1].0 <= w[0].1) {
                return None;
            }
            let mut out: Vec<(i128, i128)> = Vec::with_capacity(ivs.len());
            for (l, h) in ivs {
                let (l, h) = match b {
                    Some((bl, bh)) => (l.max(bl), h.min(bh)),
                    None => (l, h),
                };
                if l > h {
                    continue;
                }
                match out.last_mut() {
                    Some(last) if last.1.checked_add(1) == Some(l) => last.1 = h,
                    _ => out.push((l, h)),
                }
            }
            Some(out)
        })
        .collect()
}
