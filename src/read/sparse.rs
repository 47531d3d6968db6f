//! Sparse reads, planned: fragments whose non-empty domain misses the
//! query's ranges are skipped, the R-tree's leaf MBRs choose the tiles that
//! may hold selected cells, and only those tiles of the fields the query
//! needs are decoded; cells outside the ranges are dropped tile by tile.

use rayon::prelude::*;

use super::field::{FieldData, FieldTile, FieldTiles, ReadStats};
use super::range::{retain_fixed, Bound, DimRange};
use crate::array::fragment::{dims_for, Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::version::has_split_coordinates;
use crate::format::{Datatype, Range1D};
use crate::ReadOptions;

/// The ranges of each dimension (an empty list: no limit).
pub(crate) type DimRanges = Vec<Vec<DimRange>>;

/// The bytes a decoded cell of `fields` takes, estimated (a var-sized
/// value: 40), for sizing reads to a memory budget.
pub(crate) fn cell_bytes<'a>(fields: impl Iterator<Item = &'a FieldInfo>) -> u64 {
    fields
        .map(|f| match f.cell_val_num {
            Some(_) => f.cell_size() + u64::from(f.nullable),
            None => 40,
        })
        .sum()
}

/// The bounds a `Range1D` (of an MBR or a non-empty domain) holds.
pub(crate) fn range_bounds(dt: Datatype, r: &Range1D) -> Option<(Bound, Bound)> {
    let (lo, hi) = match r.min_length {
        Some(m) => {
            let m = usize::try_from(m).ok()?.min(r.range.len());
            (&r.range[..m], &r.range[m..])
        }
        None => r.range.split_at(r.range.len() / 2),
    };
    Some((Bound::of_cell(dt, lo)?, Bound::of_cell(dt, hi)?))
}

/// Whether the box of `bounds` meets the ranges (per dimension, one of its
/// ranges), and whether it lies inside them. Unknown bounds meet anything.
fn meets(ranges: &DimRanges, bounds: &[Option<(Bound, Bound)>]) -> (bool, bool) {
    let mut inside = true;
    for (rs, b) in ranges.iter().zip(bounds) {
        if rs.is_empty() {
            continue;
        }
        let Some((lo, hi)) = b else {
            inside = false;
            continue;
        };
        if !rs.iter().any(|r| r.overlaps(lo, hi)) {
            return (false, false);
        }
        inside &= rs.iter().any(|r| r.lo <= *lo && *hi <= r.hi);
    }
    (true, inside)
}

/// The tiles of `frag` the ranges may select, each with whether its MBR
/// lies inside them; `None` when the fragment has no R-tree to go by.
pub(crate) fn select_tiles(
    frag: &Fragment,
    dims: &[FieldInfo],
    ranges: &DimRanges,
    opts: &ReadOptions,
) -> Result<Option<Vec<(usize, bool)>>> {
    if !has_split_coordinates(frag.version()) || !matches!(frag.metadata, Metadata::Footer(_)) {
        return Ok(None);
    }
    let dts: Vec<Datatype> = dims.iter().map(|d| d.datatype).collect();
    // The fragment's non-empty domain first.
    if let Metadata::Footer(f) = &frag.metadata {
        if let Some(ned) = &f.non_empty_domain {
            let b: Vec<_> = ned
                .ranges
                .iter()
                .zip(&dts)
                .map(|(r, dt)| range_bounds(*dt, r))
                .collect();
            if !meets(ranges, &b).0 {
                return Ok(Some(Vec::new()));
            }
        }
    }
    let Some(rtree) = frag.rtree(opts)? else {
        return Ok(None);
    };
    let Some(leaves) = rtree.levels.last() else {
        return Ok(Some(Vec::new()));
    };
    let _ = dims_for(&frag.schema);
    Ok(Some(
        leaves
            .mbrs
            .iter()
            .enumerate()
            .filter_map(|(t, mbr)| {
                let b: Vec<_> = mbr
                    .ranges
                    .iter()
                    .zip(&dts)
                    .map(|(r, dt)| range_bounds(*dt, r))
                    .collect();
                let (hit, inside) = meets(ranges, &b);
                hit.then_some((t, inside))
            })
            .collect(),
    ))
}

/// The low end on dimension `d` of the MBR of every tile the ranges may
/// select, over all fragments (fragments with no R-tree: `None`, the
/// caller cannot plan slabs).
pub(crate) fn tile_lows(
    frags: &[Fragment],
    dims: &[FieldInfo],
    ranges: &DimRanges,
    d: usize,
    opts: &ReadOptions,
) -> Result<Option<Vec<Bound>>> {
    let mut out = Vec::new();
    for f in frags {
        let Some(tiles) = select_tiles(f, dims, ranges, opts)? else {
            return Ok(None);
        };
        if tiles.is_empty() {
            continue;
        }
        let Some(rtree) = f.rtree(opts)? else {
            return Ok(None);
        };
        let Some(leaves) = rtree.levels.last() else {
            continue;
        };
        for (t, _) in tiles {
            let lo = leaves
                .mbrs
                .get(t)
                .and_then(|m| m.ranges.get(d))
                .and_then(|r| range_bounds(dims[d].datatype, r))
                .map(|(lo, _)| lo);
            match lo {
                Some(lo) => out.push(lo),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(out))
}

/// The largest value below `b` of its kind (for integer and float bounds).
pub(crate) fn below(b: &Bound) -> Option<Bound> {
    match b {
        Bound::Int(v) => Some(Bound::Int(v.checked_sub(1)?)),
        Bound::Float(v) if v.is_finite() => {
            let bits = v.to_bits();
            let down = if *v == 0.0 {
                -f64::from_bits(1)
            } else if *v > 0.0 {
                f64::from_bits(bits - 1)
            } else {
                f64::from_bits(bits + 1)
            };
            Some(Bound::Float(down))
        }
        _ => None,
    }
}

/// A tile's field as `FieldData` (cell starts relative to its var data).
fn tile_data(tile: FieldTile, var: bool, nullable: bool) -> FieldData {
    let n_cells = tile.var_offsets.as_ref().map(Vec::len);
    FieldData {
        tile_cells: Vec::new(),
        values: if var {
            tile.var.unwrap_or_default()
        } else {
            tile.fixed
        },
        offsets: if var {
            Some(tile.var_offsets.unwrap_or_default())
        } else {
            None
        },
        validity: if nullable {
            Some(
                tile.validity
                    .unwrap_or_else(|| vec![1; n_cells.unwrap_or(0)]),
            )
        } else {
            None
        },
    }
}

impl FieldData {
    /// The cells of `runs` (ascending ranges of cell numbers, not
    /// overlapping) of fixed-size cells of `cell_size` bytes, each run
    /// copied at once; runs past the cells there are stop at their end.
    pub(crate) fn select_runs(&self, runs: &[std::ops::Range<usize>], cell_size: u64) -> FieldData {
        let w = usize::try_from(cell_size).unwrap_or(usize::MAX).max(1);
        let cells = self.values.len() / w;
        let kept: usize = runs.iter().map(|r| r.len()).sum();
        let clip = |r: &std::ops::Range<usize>| r.start.min(cells)..r.end.min(cells);
        let mut values = Vec::with_capacity(kept.min(cells).saturating_mul(w));
        for r in runs.iter().map(clip) {
            values.extend_from_slice(&self.values[r.start * w..r.end * w]);
        }
        FieldData {
            values,
            offsets: None,
            validity: self.validity.as_ref().map(|v| {
                let mut out = Vec::with_capacity(kept.min(v.len()));
                for r in runs {
                    out.extend_from_slice(&v[r.start.min(v.len())..r.end.min(v.len())]);
                }
                out
            }),
            tile_cells: Vec::new(),
        }
    }

    /// The cells whose `keep` entry is true.
    pub(crate) fn select(&self, keep: &[bool], cell_size: u64) -> FieldData {
        let n = keep.iter().filter(|k| **k).count();
        if self.offsets.is_none() && cell_size > 0 {
            return self.select_runs(&runs_of(keep), cell_size);
        }
        let mut out = FieldData {
            values: Vec::new(),
            offsets: self.offsets.as_ref().map(|_| Vec::with_capacity(n)),
            validity: self.validity.as_ref().map(|_| Vec::with_capacity(n)),
            tile_cells: Vec::new(),
        };
        for (i, _) in keep.iter().enumerate().filter(|(_, k)| **k) {
            if let Some(o) = &mut out.offsets {
                o.push(out.values.len() as u64);
            }
            out.values.extend_from_slice(self.cell(i, cell_size));
            if let (Some(v), Some(src)) = (&mut out.validity, &self.validity) {
                v.push(src[i]);
            }
        }
        out
    }
}

/// The cells of one tile of a fragment that the ranges select: per
/// dimension, per attribute (`None`: not read, or not in the fragment's
/// schema), the write timestamps when the fragment has them, and its
/// delete metadata (per cell: the delete timestamp and the index of the
/// processed condition) when it has that.
pub(crate) struct TileCells {
    pub dims: Vec<FieldData>,
    pub attrs: Vec<Option<FieldData>>,
    pub timestamps: Option<Vec<u64>>,
    pub delete_meta: Option<(Vec<u64>, Vec<u64>)>,
}

/// The fields of a fragment a read decodes, opened once.
pub(crate) struct FragmentFields {
    dims: Vec<(FieldInfo, FieldTiles)>,
    attrs: Vec<Option<(FieldInfo, FieldTiles)>>,
    timestamps: Option<(FieldInfo, FieldTiles)>,
    delete_meta: Option<[(FieldInfo, FieldTiles); 2]>,
}

/// Whether a fragment's footer says it keeps per-cell timestamps, and
/// per-cell delete metadata.
pub(crate) fn special_fields(frag: &Fragment) -> (bool, bool) {
    match &frag.metadata {
        Metadata::Footer(f) => (
            f.includes_timestamps == Some(1),
            f.includes_delete_metadata == Some(1),
        ),
        _ => (false, false),
    }
}

/// Little-endian u64 values of a fixed-size field's cells.
fn u64s(d: &FieldData) -> Vec<u64> {
    d.values
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

impl FragmentFields {
    /// Opens the dimensions and the `needed` attributes (by the array
    /// schema's `all_attrs`) of `frag`, each as its own schema names it.
    pub fn open(
        frag: &Fragment,
        dims: &[FieldInfo],
        all_attrs: &[FieldInfo],
        needed: &[bool],
        opts: &ReadOptions,
    ) -> Result<Self> {
        let (has_ts, has_dm) = special_fields(frag);
        // The tile lists of every field opened here, fetched together (an
        // object store's fragment metadata: near tiles in one request).
        let wanted: Vec<FieldInfo> = dims
            .iter()
            .filter_map(|d| FieldInfo::lookup(&frag.schema, &d.name))
            .chain(
                all_attrs
                    .iter()
                    .zip(needed)
                    .filter(|(_, need)| **need)
                    .filter_map(|(a, _)| FieldInfo::lookup(&frag.schema, &a.name)),
            )
            .chain(has_ts.then(|| FieldInfo::timestamps(&frag.schema)))
            .chain(has_dm.then(|| FieldInfo::delete_timestamps(&frag.schema, has_ts)))
            .chain(has_dm.then(|| FieldInfo::delete_condition_index(&frag.schema, has_ts)))
            .collect();
        frag.prefetch_tile_lists(&wanted.iter().collect::<Vec<_>>())?;
        let dims = dims
            .iter()
            .map(|d| {
                let d = FieldInfo::lookup(&frag.schema, &d.name)
                    .filter(|x| x.is_dimension)
                    .ok_or_else(|| Error::Unsupported {
                        path: frag.path.clone(),
                        what: format!("the fragment's schema has no dimension {:?}", d.name),
                    })?;
                let t = FieldTiles::open(frag, &d, opts)?;
                Ok((d, t))
            })
            .collect::<Result<Vec<_>>>()?;
        let attrs = all_attrs
            .iter()
            .zip(needed)
            .map(|(a, need)| match FieldInfo::lookup(&frag.schema, &a.name) {
                Some(fa) if *need => {
                    let t = FieldTiles::open(frag, &fa, opts)?;
                    Ok(Some((fa, t)))
                }
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>>>()?;
        let open = |t: FieldInfo| -> Result<(FieldInfo, FieldTiles)> {
            let tiles = FieldTiles::open(frag, &t, opts)?;
            Ok((t, tiles))
        };
        let timestamps = if has_ts {
            Some(open(FieldInfo::timestamps(&frag.schema))?)
        } else {
            None
        };
        let delete_meta = if has_dm {
            Some([
                open(FieldInfo::delete_timestamps(&frag.schema, has_ts))?,
                open(FieldInfo::delete_condition_index(&frag.schema, has_ts))?,
            ])
        } else {
            None
        };
        Ok(FragmentFields {
            dims,
            attrs,
            timestamps,
            delete_meta,
        })
    }

    /// Reads tile `t`: the dimensions, the cells in the ranges (all of them
    /// when `inside`), then those cells of every opened attribute.
    pub fn tile(
        &self,
        frag: &Fragment,
        t: usize,
        ranges: &DimRanges,
        inside: bool,
        stats: &ReadStats,
    ) -> Result<TileCells> {
        let read = |f: &FieldInfo, tiles: &FieldTiles| -> Result<FieldData> {
            let tile = tiles.tile(t)?;
            stats.tile(tile.var.as_ref().map_or(tile.fixed.len(), Vec::len) as u64);
            Ok(tile_data(tile, f.cell_val_num.is_none(), f.nullable))
        };
        // The dimensions one after another, the slowest-varying in the
        // cell order first: a later one decodes only the chunks that hold
        // cells still in the ranges (with a row-major order those of the
        // first dimension's range lie together in a tile), and is compared
        // only there. `cover`: the runs of cells a dimension was decoded
        // for, `None` when whole.
        let nd = self.dims.len();
        let order: Vec<usize> = match frag.schema.cell_order {
            crate::format::Layout::ColMajor => (0..nd).rev().collect(),
            _ => (0..nd).collect(),
        };
        // The cells `runs` of a fixed-size field of `n` cells, only the
        // chunks holding them decoded (validity too when it is nullable).
        let of_runs = |f: &FieldInfo,
                       tiles: &FieldTiles,
                       n: usize,
                       runs: &[std::ops::Range<usize>]|
         -> Result<FieldData> {
            let (values, validity, skipped) = tiles.fixed_cells(t, f.cell_size(), n, runs)?;
            stats.tile(values.len() as u64);
            stats
                .chunks_skipped
                .fetch_add(skipped, std::sync::atomic::Ordering::Relaxed);
            let kept = values.len() / f.cell_size().max(1) as usize;
            Ok(FieldData {
                values,
                offsets: None,
                validity: f
                    .nullable
                    .then(|| validity.unwrap_or_else(|| vec![1; kept])),
                tile_cells: Vec::new(),
            })
        };
        let mut decoded: Vec<Option<DimCells>> = (0..nd).map(|_| None).collect();
        let mut n: Option<usize> = None;
        let mut keep: Option<Vec<bool>> = None;
        for &d in &order {
            let (f, tiles) = &self.dims[d];
            let rs = ranges.get(d).map_or(&[][..], |r| &r[..]);
            let partial = match (&keep, n) {
                (Some(k), Some(n)) if !inside && f.cell_val_num.is_some() => {
                    let runs = runs_of(k);
                    let kept: usize = runs.iter().map(|r| r.len()).sum();
                    (kept < n).then_some((runs, n))
                }
                _ => None,
            };
            if let Some((runs, n)) = partial {
                if runs.is_empty() {
                    break;
                }
                let data = of_runs(f, tiles, n, &runs)?;
                if !rs.is_empty() {
                    let mut here = vec![true; data.len(f.cell_size())];
                    narrow(rs, f, &data, &mut here);
                    let k = keep.as_mut().expect("partial implies a mask");
                    let mut flags = here.into_iter();
                    for r in &runs {
                        for i in r.clone() {
                            k[i] = flags.next().unwrap_or(false);
                        }
                    }
                }
                decoded[d] = Some(DimCells {
                    data,
                    cover: Some(runs),
                });
                continue;
            }
            let data = read(f, tiles)?;
            let len = data.len(f.cell_size());
            check_cells(frag, f, &data, n)?;
            n = Some(len);
            if !inside {
                let k = keep.get_or_insert_with(|| vec![true; len]);
                narrow(rs, f, &data, k);
            }
            decoded[d] = Some(DimCells { data, cover: None });
        }
        let n = n.unwrap_or(0);
        // The runs of kept cells when some are dropped: fixed-size fields
        // are copied a run at a time, and decode only the chunks that hold
        // them.
        let runs: Option<Vec<std::ops::Range<usize>>> = keep
            .as_ref()
            .map(|k| runs_of(k))
            .filter(|r| r.iter().map(|r| r.len()).sum::<usize>() != n);
        let pick = |f: &FieldInfo, d: FieldData| -> FieldData {
            match (&keep, &runs) {
                (_, Some(r)) if d.offsets.is_none() => d.select_runs(r, f.cell_size()),
                (Some(k), Some(_)) => d.select(k, f.cell_size()),
                _ => d,
            }
        };
        let dims: Vec<FieldData> = self
            .dims
            .iter()
            .zip(decoded)
            .map(|((f, _), d)| match d {
                Some(DimCells { data, cover: None }) => pick(f, data),
                // Decoded for `cover` only: its cells still kept.
                Some(DimCells {
                    data: d,
                    cover: Some(cover),
                }) => match &keep {
                    Some(k) => {
                        let mask: Vec<bool> = cover
                            .iter()
                            .flat_map(|r| k[r.clone()].iter().copied())
                            .collect();
                        d.select(&mask, f.cell_size())
                    }
                    None => d,
                },
                // Not decoded: no cell was left.
                None => FieldData {
                    values: Vec::new(),
                    offsets: f.cell_val_num.is_none().then(Vec::new),
                    validity: None,
                    tile_cells: Vec::new(),
                },
            })
            .collect();
        let none = runs.as_ref().is_some_and(|r| r.is_empty());
        if none {
            return Ok(TileCells {
                dims,
                attrs: self.attrs.iter().map(|_| None).collect(),
                timestamps: None,
                delete_meta: None,
            });
        }
        let field = |f: &FieldInfo, tiles: &FieldTiles| -> Result<FieldData> {
            if let (Some(runs), Some(_)) = (&runs, f.cell_val_num) {
                return of_runs(f, tiles, n, runs);
            }
            let d = read(f, tiles)?;
            check_cells(frag, f, &d, Some(n))?;
            Ok(pick(f, d))
        };
        let mut attrs = Vec::with_capacity(self.attrs.len());
        for a in &self.attrs {
            attrs.push(match a {
                Some((f, tiles)) => Some(field(f, tiles)?),
                None => None,
            });
        }
        let special = |(f, tiles): &(FieldInfo, FieldTiles)| -> Result<Vec<u64>> {
            Ok(u64s(&field(f, tiles)?))
        };
        let timestamps = self.timestamps.as_ref().map(special).transpose()?;
        let delete_meta = match &self.delete_meta {
            Some([dt, dci]) => Some((special(dt)?, special(dci)?)),
            None => None,
        };
        Ok(TileCells {
            dims,
            attrs,
            timestamps,
            delete_meta,
        })
    }

    /// Every field opened.
    fn all(&self) -> impl Iterator<Item = &FieldTiles> {
        let dims = self.dims.iter().map(|(_, t)| t);
        let attrs = self.attrs.iter().flatten().map(|(_, t)| t);
        let ts = self.timestamps.iter().map(|(_, t)| t);
        let dm = self.delete_meta.iter().flatten().map(|(_, t)| t);
        dims.chain(attrs).chain(ts).chain(dm)
    }

    /// Every field opened, mutably.
    fn all_mut(&mut self) -> impl Iterator<Item = &mut FieldTiles> {
        let dims = self.dims.iter_mut().map(|(_, t)| t);
        let attrs = self.attrs.iter_mut().flatten().map(|(_, t)| t);
        let ts = self.timestamps.iter_mut().map(|(_, t)| t);
        let dm = self.delete_meta.iter_mut().flatten().map(|(_, t)| t);
        dims.chain(attrs).chain(ts).chain(dm)
    }

    /// Whether the fragment is in a ranged storage (an object store), whose
    /// tiles [`FragmentFields::tiles`] fetches in groups.
    pub fn ranged(&self) -> bool {
        self.read_ahead().is_some()
    }

    /// The bytes of tiles fetched ahead of decoding, for a fragment in a
    /// ranged storage; `None` for local files.
    fn read_ahead(&self) -> Option<u64> {
        self.dims.first().and_then(|(_, t)| t.read_ahead())
    }

    /// For fragments in a ranged storage (an object store), each with the
    /// tiles a read picked of it: fetches every field of all those tiles in
    /// one round (near ranges merged, requests concurrent) when together
    /// they fit in the storage's read-ahead, so that the fragments do not
    /// wait for each other's requests; otherwise nothing, and
    /// [`FragmentFields::tiles`] fetches each fragment's in groups.
    pub(crate) fn fetch_together(picked: &[(&FragmentFields, &[(usize, bool)])]) -> Result<()> {
        let Some(ahead) = picked.iter().find_map(|(f, _)| f.read_ahead()) else {
            return Ok(());
        };
        let wanted: Vec<(&FieldTiles, usize)> = picked
            .iter()
            .flat_map(|(f, tiles)| {
                tiles
                    .iter()
                    .flat_map(move |(t, _)| f.all().map(move |ft| (ft, *t)))
            })
            .collect();
        let bytes = wanted
            .iter()
            .fold(0u64, |b, (f, t)| b.saturating_add(f.stored_bytes(*t)));
        if bytes > ahead {
            return Ok(());
        }
        super::field::prefetch(&wanted)
    }

    /// Reads the tiles `tiles` (in parallel), in tile order. From a ranged
    /// storage (an object store) they are fetched in groups of at most its
    /// read-ahead bytes, every field of a group's tiles together (near
    /// ranges merged, requests concurrent); the next group is fetched while
    /// one is decoded (at most two held at once), and a group's tiles are
    /// let go once decoded.
    pub fn tiles(
        &mut self,
        frag: &Fragment,
        tiles: &[(usize, bool)],
        ranges: &DimRanges,
        stats: &ReadStats,
    ) -> Result<Vec<TileCells>> {
        let Some(ahead) = self.read_ahead() else {
            return tiles
                .par_iter()
                .map(|(t, inside)| self.tile(frag, *t, ranges, *inside, stats))
                .collect();
        };
        let groups = super::field::groups_of(
            tiles.iter().map(|(t, _)| {
                self.all()
                    .fold(0u64, |b, f| b.saturating_add(f.stored_bytes(*t)))
            }),
            ahead,
        );
        let mut out = Vec::with_capacity(tiles.len());
        if let Some(&(s, e)) = groups.first() {
            self.prefetch(&tiles[s..e])?;
        }
        for (k, &(s, e)) in groups.iter().enumerate() {
            let next = groups.get(k + 1).map(|&(s, e)| &tiles[s..e]);
            let me = &*self;
            let got = super::field::while_fetching(next.map(|n| move || me.prefetch(n)), || {
                tiles[s..e]
                    .par_iter()
                    .map(|(t, inside)| me.tile(frag, *t, ranges, *inside, stats))
                    .collect::<Result<Vec<TileCells>>>()
            })?;
            out.extend(got);
            for (t, _) in &tiles[s..e] {
                self.all_mut().for_each(|f| f.release_tile(*t));
            }
        }
        Ok(out)
    }

    /// Fetches every field of `tiles` together (ranged storage).
    fn prefetch(&self, tiles: &[(usize, bool)]) -> Result<()> {
        let wanted: Vec<(&FieldTiles, usize)> = tiles
            .iter()
            .flat_map(|(t, _)| self.all().map(move |f| (f, *t)))
            .collect();
        super::field::prefetch(&wanted)
    }
}

/// A dimension's cells of a tile, decoded whole (`cover` `None`) or for
/// the cells of the runs `cover` only (in their order).
struct DimCells {
    data: FieldData,
    cover: Option<Vec<std::ops::Range<usize>>>,
}

/// Whether each of the `n` cells lies in the ranges: on every dimension
/// (`dims`: each with its cells) in one of its ranges. Fixed-size
/// dimensions are compared typed, a column at a time.
pub(crate) fn in_ranges<'a>(
    ranges: &DimRanges,
    dims: impl Iterator<Item = (&'a FieldInfo, &'a FieldData)>,
    n: usize,
) -> Vec<bool> {
    let mut keep = vec![true; n];
    for (rs, (f, d)) in ranges.iter().zip(dims) {
        narrow(rs, f, d, &mut keep);
    }
    keep
}

/// Clears the `keep` entry of each cell of `d` (a field's cells, one per
/// entry) outside every range of `rs` (none: every cell stays).
fn narrow(rs: &[DimRange], f: &FieldInfo, d: &FieldData, keep: &mut [bool]) {
    if rs.is_empty() {
        return;
    }
    if d.offsets.is_none()
        && f.cell_val_num == Some(1)
        && retain_fixed(rs, f.datatype, &d.values, keep)
    {
        return;
    }
    for (i, k) in keep.iter_mut().enumerate() {
        if *k {
            *k = rs
                .iter()
                .any(|r| r.contains(f.datatype, d.cell(i, f.cell_size())));
        }
    }
}

/// The runs of consecutive true entries of `keep`, as ranges.
fn runs_of(keep: &[bool]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let n = keep.len();
    let mut i = 0;
    while i < n {
        // Eight entries at a time across long stretches.
        while i + 8 <= n && keep[i..i + 8] == [false; 8] {
            i += 8;
        }
        while i < n && !keep[i] {
            i += 1;
        }
        if i == n {
            break;
        }
        let start = i;
        while i + 8 <= n && keep[i..i + 8] == [true; 8] {
            i += 8;
        }
        while i < n && keep[i] {
            i += 1;
        }
        out.push(start..i);
    }
    out
}

/// Checks a field's tile against itself and the tile's cell count: var
/// offsets rise within the var data, validity covers every cell.
fn check_cells(frag: &Fragment, f: &FieldInfo, d: &FieldData, n: Option<usize>) -> Result<()> {
    let bad = |what: String| Err(Error::decode(&frag.path, 0, "Tile", &f.name, what));
    let len = d.len(f.cell_size());
    if let Some(offsets) = &d.offsets {
        let total = d.values.len() as u64;
        let mut prev = 0;
        for (i, &o) in offsets.iter().enumerate() {
            if o < prev || o > total {
                return bad(format!(
                    "cell {i} starts at byte {o}, after the previous cell's {prev} or past the {total} bytes of var data"
                ));
            }
            prev = o;
        }
    } else if !(d.values.len() as u64).is_multiple_of(f.cell_size().max(1)) {
        return bad(format!(
            "a tile of {} bytes for cells of {} bytes",
            d.values.len(),
            f.cell_size()
        ));
    }
    if let Some(v) = &d.validity {
        if v.len() < len {
            return bad(format!("{} validity values for {len} cells", v.len()));
        }
    }
    if let Some(n) = n {
        if len != n {
            return bad(format!("{len} cells, the tile's first dimension has {n}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_keeps_the_cells_kept_in_runs() {
        let values: Vec<u8> = (0u16..10).flat_map(|v| v.to_le_bytes()).collect();
        let d = FieldData {
            values,
            offsets: None,
            validity: Some((0u8..10).collect()),
            tile_cells: Vec::new(),
        };
        let keep = [
            true, true, false, false, true, false, true, true, true, true,
        ];
        let out = d.select(&keep, 2);
        let got: Vec<u16> = out
            .values
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(got, [0, 1, 4, 6, 7, 8, 9]);
        assert_eq!(out.validity, Some(vec![0, 1, 4, 6, 7, 8, 9]));
        assert!(d.select(&[false; 10], 2).values.is_empty());
        let runs = runs_of(&keep);
        assert_eq!(runs, [0..2, 4..5, 6..10]);
        assert_eq!(d.select_runs(&runs, 2), out);
        let long: Vec<bool> = (0..40).map(|i| (3..29).contains(&i) || i == 39).collect();
        assert_eq!(runs_of(&long), [3..29, 39..40]);
        assert_eq!(
            runs_of(&[true; 16]),
            vec![std::ops::Range { start: 0, end: 16 }]
        );
        assert!(runs_of(&[false; 17]).is_empty());
        // A keep longer than the cells: the cells there are.
        assert_eq!(d.select(&[true; 12], 2).values.len(), 20);
        // Var-sized cells go cell by cell.
        let v = FieldData {
            values: b"abbccc".to_vec(),
            offsets: Some(vec![0, 1, 3]),
            validity: None,
            tile_cells: Vec::new(),
        };
        let out = v.select(&[false, true, true], 8);
        assert_eq!(out.values, b"bbccc");
        assert_eq!(out.offsets, Some(vec![0, 2]));
    }
}
