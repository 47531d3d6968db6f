//! The merge of overlapping fragments when the condition was applied to
//! every batch before it and the schema keeps one write per coordinate:
//! only the cells the condition keeps are sorted (their coordinates packed
//! into one integer key); a cell it drops matters only where it hides an
//! older kept cell of its coordinates, and those are found through a bit
//! filter and a binary search of the kept cells' sorted keys rather than a
//! sort of every cell.

use rayon::prelude::*;

use super::context::{Batch, SparseRead};
use super::radix::sort_packed;
use crate::read::sort_keys;

/// Per batch, each cell's coordinates packed into one key (the first
/// dimension highest; equal keys: equal coordinates), with the bits the
/// keys take; `None` when a dimension is not an integer or the keys do not
/// fit 64 bits.
fn packed_keys(read: &SparseRead<'_>, batches: &[Batch]) -> Option<(Vec<Vec<u64>>, u32)> {
    let dims = &read.dims;
    // Per batch and dimension, the keys and their lowest and highest.
    let per: Vec<Vec<(Vec<u64>, u64, u64)>> = batches
        .par_iter()
        .map(|b| {
            let n = read.cells_of(b);
            dims.iter()
                .zip(&b.dims)
                .map(|(f, data)| {
                    let k =
                        sort_keys::int_keys(f.datatype, &data.values).filter(|k| k.len() == n)?;
                    let (lo, hi) = k
                        .iter()
                        .fold((u64::MAX, 0u64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
                    Some((k, lo, hi))
                })
                .collect::<Option<Vec<_>>>()
        })
        .collect::<Option<_>>()?;
    let mut lows = vec![u64::MAX; dims.len()];
    let mut highs = vec![0u64; dims.len()];
    for b in &per {
        for (d, (_, lo, hi)) in b.iter().enumerate() {
            lows[d] = lows[d].min(*lo);
            highs[d] = highs[d].max(*hi);
        }
    }
    let widths: Vec<u32> = lows
        .iter()
        .zip(&highs)
        .map(|(lo, hi)| 64 - hi.saturating_sub(*lo).leading_zeros())
        .collect();
    let total = widths
        .iter()
        .try_fold(0u32, |t, w| t.checked_add(*w).filter(|t| *t <= 64))?;
    let packed = per
        .into_par_iter()
        .map(|b| {
            let mut out = vec![0u64; b.first().map_or(0, |(k, _, _)| k.len())];
            for ((k, _, _), (lo, w)) in b.iter().zip(lows.iter().zip(&widths)) {
                for (o, v) in out.iter_mut().zip(k) {
                    *o = o.checked_shl(*w).unwrap_or(0) | (v - lo);
                }
            }
            out
        })
        .collect();
    Some((packed, total))
}

/// The cells of the result, as (batch, cell), in row-major order: of the
/// cells `passes` keeps, the newest of each coordinate, less those a newer
/// cell the condition drops hides. `None` when the coordinates do not
/// pack into one integer (the caller sorts every cell then).
///
/// The batches must keep no per-cell timestamps or delete metadata, and no
/// delete may apply: the newest write of a coordinate is the one of the
/// later timestamp, then the later fragment, then the later batch and cell.
pub(super) fn newest_kept(
    read: &SparseRead<'_>,
    batches: &[Batch],
    passes: &[Vec<bool>],
) -> Option<Vec<(usize, usize)>> {
    let (keys, bits) = packed_keys(read, batches)?;
    let rank = |(b, i): (usize, usize)| (batches[b].t1, batches[b].frag, b, i);
    let mut cells: Vec<(usize, usize)> = Vec::new();
    let mut kept_keys: Vec<u64> = Vec::new();
    for (b, (mask, ks)) in passes.iter().zip(&keys).enumerate() {
        for (i, (&ok, &k)) in mask.iter().zip(ks).enumerate() {
            if ok {
                cells.push((b, i));
                kept_keys.push(k);
            }
        }
    }
    if cells.len() >= u32::MAX as usize {
        return None;
    }
    let (sorted, places) = sort_packed(kept_keys, bits);
    // The newest kept cell of each coordinate (runs of equal keys).
    let mut survivors: Vec<(u64, (usize, usize))> = Vec::with_capacity(places.len());
    let mut i = 0;
    while i < places.len() {
        let mut end = i + 1;
        while end < places.len() && sorted[end] == sorted[i] {
            end += 1;
        }
        let best = places[i..end]
            .iter()
            .map(|&p| cells[p as usize])
            .max_by_key(|&c| rank(c))
            .unwrap_or(cells[places[i] as usize]);
        survivors.push((sorted[i], best));
        i = end;
    }
    drop(cells);
    // The cells the condition drops that share a survivor's coordinates
    // and are newer hide it: a bit filter of the survivors' keys first, a
    // binary search of their keys (sorted, each once) only where a bit is
    // set.
    let log2 = (survivors.len().max(1) * 16)
        .next_power_of_two()
        .trailing_zeros()
        .max(6);
    let slot = |k: u64| (k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - log2)) as usize;
    let mut filter = vec![0u64; (1usize << log2) / 64];
    for (k, _) in &survivors {
        let h = slot(*k);
        filter[h / 64] |= 1 << (h % 64);
    }
    let hidden: Vec<usize> = passes
        .par_iter()
        .zip(&keys)
        .enumerate()
        .flat_map_iter(|(b, (mask, ks))| {
            let (filter, survivors) = (&filter, &survivors);
            mask.iter()
                .zip(ks)
                .enumerate()
                .filter(move |(_, (ok, k))| {
                    let h = slot(**k);
                    !**ok && filter[h / 64] & (1 << (h % 64)) != 0
                })
                .filter_map(move |(i, (_, k))| {
                    let s = survivors.binary_search_by_key(k, |(sk, _)| *sk).ok()?;
                    (rank((b, i)) > rank(survivors[s].1)).then_some(s)
                })
        })
        .collect();
    let mut gone = vec![false; survivors.len()];
    for s in hidden {
        gone[s] = true;
    }
    Some(
        survivors
            .into_iter()
            .zip(gone)
            .filter(|(_, g)| !g)
            .map(|((_, c), _)| c)
            .collect(),
    )
}
