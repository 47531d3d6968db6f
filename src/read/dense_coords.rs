//! The coordinate columns of a dense read, generated at memory speed.
//!
//! A dense selection is a box of intervals per dimension, and its cells come
//! in a fixed order: each dimension's value repeats `stride` times (the
//! number of cells of the dimensions inside it in that order) and its
//! sequence of values repeats once per value of the dimensions outside it.
//! Each column is written in parallel pieces straight into its final
//! buffer, one store per cell, with no per-cell division and no table of
//! values.

use rayon::prelude::*;

/// Cells per piece written by one task.
const PIECE_CELLS: usize = 1 << 18;

/// One dimension of the selection in output order: its intervals (each
/// `(lo, hi)`, inclusive) and the run length of each of its values.
pub(super) struct Pattern<'a> {
    pub intervals: &'a [(i128, i128)],
    pub stride: usize,
}

/// `n` coordinates of `pattern` as little-endian values of `width` bytes
/// (1, 2, 4 or 8: the dense dimension types).
pub(super) fn coordinates(pattern: &Pattern, width: usize, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n * width];
    match width {
        1 => fill::<1>(pattern, &mut out),
        2 => fill::<2>(pattern, &mut out),
        4 => fill::<4>(pattern, &mut out),
        _ => fill::<8>(pattern, &mut out),
    }
    out
}

fn fill<const W: usize>(pattern: &Pattern, out: &mut [u8]) {
    out.par_chunks_mut(PIECE_CELLS * W)
        .enumerate()
        .for_each(|(k, piece)| {
            // Fresh memory, written whole: a large piece's pages made
            // present in one call rather than one fault per page.
            if piece.len() >= 1 << 20 {
                crate::storage::populate(piece);
            }
            fill_piece::<W>(pattern, k * PIECE_CELLS, piece)
        });
}

/// Writes the cells from `first` on into `piece`.
fn fill_piece<const W: usize>(pattern: &Pattern, first: usize, piece: &mut [u8]) {
    let ivs = pattern.intervals;
    let values: u128 = ivs.iter().map(|(l, h)| (h - l + 1) as u128).sum();
    if ivs.is_empty() || values == 0 {
        return;
    }
    let stride = pattern.stride.max(1);
    // Where `first` falls: the value's rank in the sequence, then its
    // interval and offset there, and how far into its run.
    let rank = ((first / stride) as u128 % values) as i128;
    let mut left_in_run = stride - first % stride;
    let mut iv = 0;
    let mut rest = rank;
    while rest > ivs[iv].1 - ivs[iv].0 {
        rest -= ivs[iv].1 - ivs[iv].0 + 1;
        iv += 1;
    }
    let mut value = ivs[iv].0 + rest;
    let mut cells = piece.chunks_exact_mut(W);
    if stride == 1 {
        // Each value once: the rest of an interval is a run of consecutive
        // values, written in one tight loop.
        loop {
            let run = usize::try_from(ivs[iv].1 - value + 1).unwrap_or(usize::MAX);
            let start = value as u64;
            let mut wrote = 0;
            for (k, cell) in cells.by_ref().take(run).enumerate() {
                cell.copy_from_slice(&start.wrapping_add(k as u64).to_le_bytes()[..W]);
                wrote += 1;
            }
            if wrote < run {
                return;
            }
            iv = (iv + 1) % ivs.len();
            value = ivs[iv].0;
        }
    }
    loop {
        let bytes = (value as u64).to_le_bytes();
        let mut wrote = 0;
        for cell in cells.by_ref().take(left_in_run) {
            cell.copy_from_slice(&bytes[..W]);
            wrote += 1;
        }
        if wrote < left_in_run {
            return;
        }
        left_in_run = stride;
        if value == ivs[iv].1 {
            iv = (iv + 1) % ivs.len();
            value = ivs[iv].0;
        } else {
            value += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coordinates the slow way: each value of the intervals repeated
    /// `stride` times, the sequence repeated to `n` cells.
    fn slow(ivs: &[(i128, i128)], stride: usize, n: usize) -> Vec<i64> {
        let seq: Vec<i64> = ivs
            .iter()
            .flat_map(|(l, h)| *l..=*h)
            .map(|v| v as i64)
            .collect();
        (0..n).map(|i| seq[(i / stride) % seq.len()]).collect()
    }

    fn fast(ivs: &[(i128, i128)], stride: usize, n: usize, width: usize) -> Vec<i64> {
        let p = Pattern {
            intervals: ivs,
            stride,
        };
        coordinates(&p, width, n)
            .chunks_exact(width)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..width].copy_from_slice(c);
                let v = u64::from_le_bytes(b);
                // Sign-extend from the width.
                let shift = 64 - 8 * width as u32;
                ((v << shift) as i64) >> shift
            })
            .collect()
    }

    #[test]
    fn pieces_continue_the_pattern_across_their_edges() {
        type Case<'a> = (&'a [(i128, i128)], usize, usize);
        let cases: &[Case] = &[
            (&[(0, 9)], 1, 25),
            (&[(-3, 2), (7, 7), (10, 12)], 1, PIECE_CELLS * 2 + 5),
            (&[(5, 8)], 3, PIECE_CELLS + 17),
            (&[(1, 1), (4, 6)], 1000, PIECE_CELLS * 3 + 1),
            (&[(-2, 1)], PIECE_CELLS + 3, PIECE_CELLS * 4),
        ];
        for &(ivs, stride, n) in cases {
            for width in [1, 2, 4, 8] {
                assert_eq!(
                    fast(ivs, stride, n, width),
                    slow(ivs, stride, n),
                    "{ivs:?} stride {stride} n {n} width {width}"
                );
            }
        }
    }

    #[test]
    fn large_values_keep_their_bytes() {
        let ivs = [(i64::MAX as i128 - 2, i64::MAX as i128)];
        assert_eq!(fast(&ivs, 2, 8, 8), slow(&ivs, 2, 8));
    }
}
