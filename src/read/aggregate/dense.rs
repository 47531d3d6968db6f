//! Dense aggregates, by parts as the engine's dense reader goes.

use std::collections::{HashMap, HashSet};

use super::{accumulate::*, parse::*, plan::*};
use crate::array::fragment::Metadata;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::version::{has_nullable_fixed_string_min_max, has_tile_min_max};
use crate::format::{Datatype, Layout};
use crate::read::query::Query;
use crate::read::query_condition::BoundCondition;
use crate::read::range::Bound;
use crate::read::ArrayReader;

pub(super) type Stats = (AggregateStats, u64);

/// Per dimension, disjoint integer intervals (see [`dense_region`]).
type Region = Vec<Vec<(i128, i128)>>;

/// What a dense aggregate knows of the array and the query.
///
/// The engine's dense reader aggregates a cell slab of a tile (a run of
/// cells along the fastest dimension of the query's layout, row-major here
/// as TileDB-Py asks, inside one range) fragment by fragment, newest
/// first: each such part from scratch, merging the parts' results in that
/// order. When the layout is not the cell order of a 2+-dimensional array,
/// it goes cell by cell along the slab instead (`stride != 1` in
/// `DenseReader::aggregate_tiles`): each cell is a part. A part's key: the
/// tile's, the slab's place in the tile, the fragment (newest first), the
/// cell (by cell only); `part_len` long.
struct Dense<'a> {
    reader: &'a ArrayReader,
    dims: &'a [Dim],
    /// Per dimension: the domain's low and high ends and the tile extent.
    geo: Vec<(i128, i128, i128)>,
    /// Each fragment's non-empty domain as integers (`None`: not known).
    neds: Vec<Option<Vec<(i128, i128)>>>,
    /// The region read, when known.
    region: Option<Region>,
    /// Space tiles go in column-major order.
    col_major: bool,
    /// Each cell is a part of its own.
    by_cell: bool,
    part_len: usize,
}

impl Dense<'_> {
    /// A space tile's place in the tile order, as a key that sorts so.
    fn tile_key(&self, tc: &[i128]) -> Vec<i128> {
        if self.col_major {
            tc.iter().rev().copied().collect()
        } else {
            tc.to_vec()
        }
    }

    /// The space tile of cell `i` of `coords` (one list per dimension).
    fn tile_of(&self, coords: &[Vec<i128>], i: usize) -> Vec<i128> {
        coords
            .iter()
            .zip(&self.geo)
            .map(|(c, (dl, _, e))| (c[i] - dl).div_euclid(*e))
            .collect()
    }

    /// The space tile `tc` as a rectangle of cells.
    fn tile_box(&self, tc: &[i128]) -> Vec<(i128, i128)> {
        tc.iter()
            .zip(&self.geo)
            .map(|(t, (dl, _, e))| (dl + t * e, dl + (t + 1) * e - 1))
            .collect()
    }

    /// The part of fragment `fi` in `tbox`, if any.
    fn slice(&self, fi: usize, tbox: &[(i128, i128)]) -> Option<Vec<(i128, i128)>> {
        let n = self.neds[fi].as_ref()?;
        let s: Vec<(i128, i128)> = n
            .iter()
            .zip(tbox)
            .map(|((l, h), (tl, th))| (*l.max(tl), *h.min(th)))
            .collect();
        (!s.iter().any(|(l, h)| l > h)).then_some(s)
    }

    /// The fragments of the tile `tbox`, newest first, without those a
    /// newer fragment covers there; and whether a fragment's domain is
    /// not known.
    fn tile_fragments(&self, tbox: &[(i128, i128)]) -> (Vec<usize>, bool) {
        let n_frag = self.reader.fragments.len();
        let mut domains = Vec::new();
        let mut unknown = false;
        for fi in (0..n_frag).rev() {
            if self.neds[fi].is_none() {
                unknown = true;
            }
            let Some(s) = self.slice(fi, tbox) else {
                continue;
            };
            let covered = (fi + 1..n_frag).any(|j| {
                self.slice(j, tbox).is_some_and(|n| {
                    n.iter()
                        .zip(&s)
                        .all(|((nl, nh), (l, h))| nl <= l && h <= nh)
                })
            });
            if !covered {
                domains.push(fi);
            }
        }
        (domains, unknown)
    }

    /// The place of space tile `tc` among the tiles of fragment `fi`: its
    /// tiles are the space tiles its domain touches, in tile order.
    fn tile_index(&self, fi: usize, tc: &[i128]) -> i128 {
        let ned = self.neds[fi].as_ref().expect("known");
        let f_lo: Vec<i128> = ned
            .iter()
            .zip(&self.geo)
            .map(|((l, _), (dl, _, e))| (l - dl).div_euclid(*e))
            .collect();
        let f_n: Vec<i128> = ned
            .iter()
            .zip(&self.geo)
            .zip(&f_lo)
            .map(|(((_, h), (dl, _, e)), lo)| (h - dl).div_euclid(*e) - lo + 1)
            .collect();
        let step = |acc: i128, d: usize| acc * f_n[d] + (tc[d] - f_lo[d]);
        if self.col_major {
            (0..tc.len()).rev().fold(0, step)
        } else {
            (0..tc.len()).fold(0, step)
        }
    }
}

/// What tile metadata answered so far.
#[derive(Default)]
struct FromMetadata {
    /// Space tiles answered, per field.
    tiles: HashMap<String, HashSet<Vec<i128>>>,
    /// Field metadata loaded, by fragment and field.
    loaded: HashMap<(usize, String), FieldMd>,
    /// Fragment tiles used, by fragment and tile.
    used: HashSet<(usize, u64)>,
}

/// Whether a region holds no cell.
fn empty(r: &[Vec<(i128, i128)>]) -> bool {
    r.iter().any(|ivs| ivs.iter().all(|(l, h)| l > h))
}

/// The cells of a region (`u64::MAX` when more).
fn cell_count(r: &[Vec<(i128, i128)>]) -> u64 {
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
}

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
    let ctx = Dense {
        reader,
        dims,
        geo,
        neds: reader.fragments.iter().map(ned_ints).collect(),
        region: dense_region(plan, dims.len()),
        col_major: reader.schema.tile_order == Layout::ColMajor,
        by_cell: reader.schema.cell_order == Layout::ColMajor && dims.len() > 1,
        part_len: 2 * dims.len() + 2,
    };
    let want = needs(targets);
    let mut md = FromMetadata::default();
    let mut need_read = match (&ctx.region, bound) {
        (Some(region), None) => from_metadata(&ctx, region, &want, targets, &mut md)?,
        (Some(region), Some(_)) => !empty(region),
        (None, _) => true,
    };
    stats.tiles_from_metadata = md.used.len() as u64;
    // With only counts to answer over a box, nothing needs reading.
    if want.is_empty() && ctx.region.is_some() {
        need_read = false;
    }
    // Cells no fragment wrote add nothing but to the count, which is the
    // region's: over a known region only the fragments' box is read (a
    // domain of 2^63 cells a side holds a few written ones).
    let mut inner = inner;
    if ctx.region.is_some() && ctx.neds.iter().all(Option::is_some) {
        match written_box(&ctx, plan) {
            None => need_read = false,
            Some(sub) => inner.subarray = Some(sub),
        }
    }
    let mut counted: u64 = 0;
    if need_read {
        stats.cells_read = true;
        let (folded, n) = fold_cells(&ctx, &inner, bound, targets, &md.tiles)?;
        stats.cells_folded += folded;
        counted = n;
    }
    for t in targets.iter_mut() {
        for part in std::mem::take(&mut t.parts).into_values() {
            t.acc.merge(part);
        }
    }
    // The engine counts every cell of the region, whatever the condition.
    let region_cells = ctx.region.as_deref().map_or(counted, cell_count);
    for t in targets.iter_mut() {
        if let Acc::Count(n) = &mut t.acc {
            *n = region_cells;
        }
    }
    Ok((stats, region_cells))
}

/// Answers what tile metadata can of the tiles of `region`'s bounding box
/// (no condition): whether cells must still be read.
fn from_metadata(
    ctx: &Dense<'_>,
    region: &[Vec<(i128, i128)>],
    want: &HashMap<String, (FieldInfo, Need)>,
    targets: &mut [Target],
    md: &mut FromMetadata,
) -> Result<bool> {
    let t_lo: Vec<i128> = region
        .iter()
        .zip(&ctx.geo)
        .map(|(ivs, (dl, _, e))| {
            ivs.iter()
                .map(|iv| (iv.0 - dl).div_euclid(*e))
                .min()
                .unwrap_or(0)
        })
        .collect();
    let t_hi: Vec<i128> = region
        .iter()
        .zip(&ctx.geo)
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
        return Ok(!empty(region));
    }
    let mut need_read = false;
    let mut tc = t_lo.clone();
    'tiles: loop {
        if !tile_from_metadata(ctx, region, &tc, want, targets, md)? {
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
        return Ok(need_read);
    }
}

/// Folds space tile `tc` into `targets` from tile metadata where it can:
/// whether it answered every field wanted.
fn tile_from_metadata(
    ctx: &Dense<'_>,
    region: &[Vec<(i128, i128)>],
    tc: &[i128],
    want: &HashMap<String, (FieldInfo, Need)>,
    targets: &mut [Target],
    md: &mut FromMetadata,
) -> Result<bool> {
    let tbox = ctx.tile_box(tc);
    // The engine's dense reader takes a tile as covered when every cell of
    // it is in the query, by one range or by several (a multi-range's
    // union).
    let full = tbox
        .iter()
        .zip(region)
        .all(|((tl, th), ivs)| ivs.iter().any(|(l, h)| l <= tl && th <= h));
    let (domains, unknown) = ctx.tile_fragments(&tbox);
    if !(full && domains.len() == 1 && !unknown) {
        return Ok(false);
    }
    let fi = domains[0];
    let frag = &ctx.reader.fragments[fi];
    let idx = ctx.tile_index(fi, tc);
    let cells: i128 = ctx.geo.iter().map(|g| g.2).product();
    let version_ok =
        has_tile_min_max(frag.version()) && matches!(frag.metadata, Metadata::Footer(_));
    let mut all = true;
    for (name, (field, need)) in want {
        let eligible = version_ok
            && !field.is_dimension
            && !(matches!(field.datatype, Datatype::Char | Datatype::StringAscii)
                && field.cell_val_num.is_some()
                && field.nullable
                && !has_nullable_fixed_string_min_max(frag.version()));
        let found = if eligible {
            let key = (fi, name.clone());
            if !md.loaded.contains_key(&key) {
                let m = FieldMd::load(frag, field, ctx.reader, *need)?;
                md.loaded.insert(key.clone(), m);
            }
            tile_md(&md.loaded[&key], field, *need, idx as u64)
        } else {
            None
        };
        let Some((nulls, sum, min, max)) = found else {
            all = false;
            continue;
        };
        for t in targets.iter_mut() {
            if t.field.as_ref().is_none_or(|f| f.name != *name) || matches!(t.acc, Acc::Count(_)) {
                continue;
            }
            let acc = if t.acc.by_parts() {
                // The tile is one part, at its place.
                let mut key = ctx.tile_key(tc);
                key.resize(ctx.part_len, 0);
                t.parts.entry(key).or_insert_with(|| t.acc.fresh())
            } else {
                &mut t.acc
            };
            acc.tile(cells as u64, nulls, sum, min.clone(), max.clone());
        }
        md.tiles
            .entry(name.clone())
            .or_default()
            .insert(tc.to_vec());
        md.used.insert((fi, idx as u64));
    }
    Ok(all)
}

/// The subarray that holds every written cell of the query (the
/// fragments' bounding box within the plan's); `None` when there is none.
fn written_box(ctx: &Dense<'_>, plan: &Plan) -> Option<Vec<Option<(i128, i128)>>> {
    let mut bbox: Option<Vec<(i128, i128)>> = None;
    for n in ctx.neds.iter().flatten() {
        bbox = Some(match bbox {
            None => n.clone(),
            Some(b) => b
                .iter()
                .zip(n)
                .map(|((bl, bh), (l, h))| (*bl.min(l), *bh.max(h)))
                .collect(),
        });
    }
    let bbox = bbox?;
    let sub: Vec<Option<(i128, i128)>> = (0..ctx.dims.len())
        .map(|d| {
            let (l, h) = bbox.get(d).copied().unwrap_or((0, -1));
            let (l, h) = match plan.subarray.as_ref().and_then(|s| s[d]) {
                Some((sl, sh)) => (l.max(sl), h.min(sh)),
                None => (l, h),
            };
            Some((l, h))
        })
        .collect();
    (!sub.iter().flatten().any(|(l, h)| l > h)).then_some(sub)
}

/// Reads the cells of `inner` and folds those tile metadata did not
/// answer into `targets`, each into its part: the cells folded and read.
fn fold_cells(
    ctx: &Dense<'_>,
    inner: &Query,
    bound: Option<&BoundCondition>,
    targets: &mut [Target],
    md_tiles: &HashMap<String, HashSet<Vec<i128>>>,
) -> Result<(u64, u64)> {
    let nd = ctx.dims.len();
    let (mut folded, mut counted) = (0, 0);
    for batch in ctx.reader.batches(inner)? {
        let batch = batch?;
        let mask = bound.map(|b| b.evaluate(&batch)).transpose()?;
        let coords: Vec<Vec<i128>> = ctx
            .dims
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
                ctx.neds.iter().rposition(|n| {
                    n.as_ref().is_some_and(|n| {
                        (0..nd).all(|d| n[d].0 <= coords[d][i] && coords[d][i] <= n[d].1)
                    })
                })
            })
            .collect();
        let keep = |i: usize, name: &str| -> bool {
            owner[i].is_some()
                && md_tiles
                    .get(name)
                    .is_none_or(|set| !set.contains(&ctx.tile_of(&coords, i)))
        };
        let part_of = |i: usize| -> Vec<i128> {
            let mut key = ctx.tile_key(&ctx.tile_of(&coords, i));
            // The slab (along the layout's fastest dimension, the last):
            // the other dimensions' coordinates, then which range of the
            // fastest one it is in.
            let fastest = nd - 1;
            key.extend(coords[..fastest].iter().map(|c| c[i]));
            let x = coords[fastest][i];
            let range = ctx
                .region
                .as_ref()
                .and_then(|r| r[fastest].iter().position(|(l, h)| *l <= x && x <= *h))
                .unwrap_or(0);
            key.push(range as i128);
            key.push(-(owner[i].unwrap_or(0) as i128));
            if ctx.by_cell {
                key.push(x);
            }
            key.resize(ctx.part_len, 0);
            key
        };
        folded += fold_batch(
            &batch,
            mask.as_deref(),
            targets,
            &keep,
            Some(&part_of),
            true,
        )?;
        counted += batch.len as u64;
    }
    Ok((folded, counted))
}

/// The region of a dense read, per dimension as disjoint integer
/// intervals in the query's order, a range that starts where the one
/// before it ends joined to it, as the engine's subarray coalesces them (a
/// multi-range; one interval without one). `None` when that is not known:
/// a dimension without a bound, or ranges that overlap.
pub(super) fn dense_region(plan: &Plan, ndims: usize) -> Option<Region> {
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
