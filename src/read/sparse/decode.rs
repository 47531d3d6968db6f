//! The decode of a sparse read: the picked tiles of each fragment decoded
//! (through its filters, backward) into batches of the cells in the
//! ranges (from a ranged storage, fetched in groups ahead of decoding),
//! fragments with no R-tree to go by read whole; a tile's dimensions first, the slowest-varying first, so that
//! later fields decode only the chunks holding cells still selected.

use rayon::prelude::*;

use super::context::{Batch, SparseRead};
use super::fetch::{FragmentFields, Opened};
use super::plan::Processed;
use super::select::DimRanges;
use crate::array::fragment::{Fragment, Metadata};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::version::has_split_coordinates;
use crate::read::array_reader::read_checked;
use crate::read::field::{read_zipped_coords, FieldData, FieldTile, FieldTiles, ReadStats};
use crate::read::range::{retain_fixed, DimRange};

impl SparseRead<'_> {
    /// The picked tiles of every fragment decoded together, in parallel (a
    /// box picks a few tiles of each of several fragments); from a ranged
    /// storage, fetched together where they fit in the read-ahead, then
    /// decoded fragment by fragment (else fetched in groups). The batches
    /// come in fragment order, a fragment's tiles in tile order.
    pub(super) fn decode(&self, mut opened: Vec<Opened>) -> Result<Vec<Batch>> {
        let ranged = opened
            .iter()
            .any(|s| matches!(s, Opened::Tiles { fields, .. } if fields.ranged()));
        let decoded = if ranged {
            self.decode_ranged(&mut opened)?
        } else {
            self.decode_local(&opened)?
        };
        let mut decoded = decoded.into_iter();
        let mut batches = Vec::new();
        for s in opened {
            match s {
                Opened::Whole { fi, processed } => batches.push(self.read_whole(fi, processed)?),
                Opened::Tiles { fi, processed, .. } => {
                    let t1 = self.reader.fragments[fi].name.t1;
                    for t in decoded.next().into_iter().flatten() {
                        batches.push(Batch {
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
        Ok(batches)
    }

    /// Per fragment with picked tiles, their cells: from a ranged storage,
    /// every fragment's tiles fetched together where they fit in the
    /// read-ahead, then decoded fragment by fragment.
    fn decode_ranged(&self, opened: &mut [Opened]) -> Result<Vec<Vec<TileCells>>> {
        let r = self.reader;
        let picked: Vec<(&FragmentFields, &[(usize, bool)])> = opened
            .iter()
            .filter_map(|s| match s {
                Opened::Tiles { fields, tiles, .. } => Some((&**fields, &tiles[..])),
                Opened::Whole { .. } => None,
            })
            .collect();
        FragmentFields::fetch_together(&picked)?;
        drop(picked);
        let mut decoded = Vec::with_capacity(opened.len());
        for s in opened.iter_mut() {
            if let Opened::Tiles {
                fi, fields, tiles, ..
            } = s
            {
                let f = &r.fragments[*fi];
                decoded.push(fields.tiles(f, tiles, &self.ranges, &r.stats)?);
            }
        }
        Ok(decoded)
    }

    /// Per fragment with picked tiles, their cells: every picked tile of
    /// every fragment decoded in parallel.
    fn decode_local(&self, opened: &[Opened]) -> Result<Vec<Vec<TileCells>>> {
        let r = self.reader;
        let jobs: Vec<(usize, &FragmentFields, usize, bool)> = opened
            .iter()
            .flat_map(|s| match s {
                Opened::Tiles {
                    fi, fields, tiles, ..
                } => tiles
                    .iter()
                    .map(|(t, i)| (*fi, &**fields, *t, *i))
                    .collect(),
                Opened::Whole { .. } => Vec::new(),
            })
            .collect();
        let mut cells = jobs
            .par_iter()
            .map(|(fi, fields, t, inside)| {
                fields.tile(&r.fragments[*fi], *t, &self.ranges, *inside, &r.stats)
            })
            .collect::<Result<Vec<_>>>()?
            .into_iter();
        let mut decoded = Vec::with_capacity(opened.len());
        for s in opened {
            if let Opened::Tiles { tiles, .. } = s {
                decoded.push(cells.by_ref().take(tiles.len()).collect());
            }
        }
        Ok(decoded)
    }

    /// The cells in the ranges of fragment `fi`, which has no R-tree to go
    /// by (before version 5): every field read whole. Every field must hold
    /// as many cells as the first dimension. A field's place in the
    /// fragment's files is in the schema the fragment names (a later schema
    /// may have added attributes).
    fn read_whole(&self, fi: usize, processed: Processed) -> Result<Batch> {
        let (r, dims) = (self.reader, &self.dims);
        let f = &r.fragments[fi];
        let mut n = None;
        let mut dims_d = Vec::with_capacity(dims.len());
        if !has_split_coordinates(f.version()) {
            // One zipped `__coords.tdb` holds every dimension.
            dims_d = read_zipped_coords(f, &r.opts)?;
            n = dims_d.first().map(|d| d.len(dims[0].cell_size()));
        }
        for d in dims.iter().skip(dims_d.len()) {
            let d = FieldInfo::lookup(&f.schema, &d.name)
                .filter(|x| x.is_dimension)
                .ok_or_else(|| Error::Unsupported {
                    path: f.path.clone(),
                    what: format!("the fragment's schema has no dimension {:?}", d.name),
                })?;
            let data = read_checked(f, &d, &r.opts, n)?;
            n = Some(data.len(d.cell_size()));
            dims_d.push(data);
        }
        let attrs_d = self
            .all_attrs
            .iter()
            .zip(&self.needed)
            .map(|(a, need)| match FieldInfo::lookup(&f.schema, &a.name) {
                Some(fa) if *need => read_checked(f, &fa, &r.opts, n).map(Some),
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>>>()?;
        let has_timestamps = matches!(
            &f.metadata,
            Metadata::Footer(footer) if footer.includes_timestamps == Some(1)
        );
        let timestamps: Option<Vec<u64>> = if has_timestamps {
            let t = FieldInfo::timestamps(&f.schema);
            let d = read_checked(f, &t, &r.opts, n)?;
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
        let keep = in_ranges(&self.ranges, dims.iter().zip(&dims_d), n);
        Ok(Batch {
            dims: dims_d
                .iter()
                .zip(dims)
                .map(|(d, f)| d.select(&keep, f.cell_size()))
                .collect(),
            attrs: attrs_d
                .iter()
                .zip(&self.all_attrs)
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
        })
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

/// Little-endian u64 values of a fixed-size field's cells.
fn u64s(d: &FieldData) -> Vec<u64> {
    d.values
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// Reads tile `t` of a field whole.
fn read_whole_tile(
    f: &FieldInfo,
    tiles: &FieldTiles,
    t: usize,
    stats: &ReadStats,
) -> Result<FieldData> {
    let tile = tiles.tile(t)?;
    stats.tile(tile.var.as_ref().map_or(tile.fixed.len(), Vec::len) as u64);
    Ok(tile_data(tile, f.cell_val_num.is_none(), f.nullable))
}

/// The cells `runs` of tile `t` of a fixed-size field of `n` cells, only
/// the chunks holding them decoded (validity too when it is nullable).
fn read_runs(
    f: &FieldInfo,
    tiles: &FieldTiles,
    t: usize,
    n: usize,
    runs: &[std::ops::Range<usize>],
    stats: &ReadStats,
) -> Result<FieldData> {
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
}

/// The dimensions of a tile as [`FragmentFields::tile_dims`] decodes them.
struct TileDims {
    /// Per dimension, its cells (`None`: not decoded, no cell was left).
    decoded: Vec<Option<DimCells>>,
    /// The tile's cells.
    n: Option<usize>,
    /// Which cells lie in the ranges (`None`: all of them).
    keep: Option<Vec<bool>>,
}

impl FragmentFields {
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
        let TileDims { decoded, n, keep } = self.tile_dims(frag, t, ranges, inside, stats)?;
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
                return read_runs(f, tiles, t, n, runs, stats);
            }
            let d = read_whole_tile(f, tiles, t, stats)?;
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

    /// The dimensions of tile `t`, one after another, the slowest-varying
    /// in the cell order first: a later one decodes only the chunks that
    /// hold cells still in the ranges (with a row-major order those of the
    /// first dimension's range lie together in a tile), and is compared
    /// only there.
    fn tile_dims(
        &self,
        frag: &Fragment,
        t: usize,
        ranges: &DimRanges,
        inside: bool,
        stats: &ReadStats,
    ) -> Result<TileDims> {
        let nd = self.dims.len();
        let order: Vec<usize> = match frag.schema.cell_order {
            crate::format::Layout::ColMajor => (0..nd).rev().collect(),
            _ => (0..nd).collect(),
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
                let data = read_runs(f, tiles, t, n, &runs, stats)?;
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
                // `cover`: the runs of cells a dimension was decoded for.
                decoded[d] = Some(DimCells {
                    data,
                    cover: Some(runs),
                });
                continue;
            }
            let data = read_whole_tile(f, tiles, t, stats)?;
            let len = data.len(f.cell_size());
            check_cells(frag, f, &data, n)?;
            n = Some(len);
            if !inside {
                let k = keep.get_or_insert_with(|| vec![true; len]);
                narrow(rs, f, &data, k);
            }
            decoded[d] = Some(DimCells { data, cover: None });
        }
        Ok(TileDims { decoded, n, keep })
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
        let groups = crate::read::field::groups_of(
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
            let got =
                crate::read::field::while_fetching(next.map(|n| move || me.prefetch(n)), || {
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
pub(super) fn in_ranges<'a>(
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
pub(super) fn runs_of(keep: &[bool]) -> Vec<std::ops::Range<usize>> {
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
