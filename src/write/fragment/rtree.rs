//! MBRs and the R-tree over them (format_spec/fragment.md#r-tree,
//! tiledb/sm/rtree/rtree.cc).

use crate::format::{EncodeError, Mbr, RTree, RTreeLevel, Range1D, Record};

use crate::write::order::GlobalOrder;

use super::types::*;

pub(super) fn fixed_range(range: Vec<u8>) -> Range1D {
    crate::format::table!(Range1D {
        range_length: None,
        min_length: None,
        range,
    })
}

pub(super) fn mbr_table(m: &[(Vec<u8>, Vec<u8>)], coord_sizes: &[u64]) -> Result<Mbr, EncodeError> {
    Ok(crate::format::table!(Mbr {
        ranges: m
            .iter()
            .zip(coord_sizes)
            .map(|((lo, hi), cs)| {
                let mut r = lo.clone();
                r.extend_from_slice(hi);
                if *cs == 0 {
                    // The low half's length is set from it.
                    crate::format::table!(Range1D {
                        range_length: Some(0),
                        min_length: Some(0),
                        range: r,
                    })
                    .with_outside_sizes(lo)
                } else {
                    Ok(fixed_range(r))
                }
            })
            .collect::<Result<_, _>>()?,
    })
    .with_sizes())
}

/// Widens `u` to cover `m` (per dimension, in the dimension's order).
pub(super) fn union_into(
    u: &mut [(Vec<u8>, Vec<u8>)],
    m: &[(Vec<u8>, Vec<u8>)],
    order: &GlobalOrder,
) {
    for (d, ((ulo, uhi), (lo, hi))) in u.iter_mut().zip(m).enumerate() {
        if order.coord(d, lo).order(&order.coord(d, ulo)).is_lt() {
            *ulo = lo.clone();
        }
        if order.coord(d, uhi).order(&order.coord(d, hi)).is_lt() {
            *uhi = hi.clone();
        }
    }
}

/// The R-tree over the tiles' MBRs, root first, leaves last, fanout 10
/// (`RTree::build_tree`, `build_level`).
pub(super) fn build_rtree(
    leaves: &[MbrBytes],
    coord_sizes: &[u64],
    order: &GlobalOrder,
) -> Result<RTree, EncodeError> {
    const FANOUT: usize = 10;
    let mut levels: Vec<Vec<MbrBytes>> = Vec::new();
    let n = leaves.len();
    if n > 0 {
        levels.push(leaves.to_vec());
    }
    if n > 1 {
        // The engine's height: ceil(log_10(leaves)) + 1, in doubles.
        let height = ((n as f64).ln() / (FANOUT as f64).ln()).ceil() as usize + 1;
        for _ in 0..height - 1 {
            let prev = levels.last().unwrap();
            let mut next = Vec::with_capacity(prev.len().div_ceil(FANOUT));
            for chunk in prev.chunks(FANOUT) {
                let mut u = chunk[0].clone();
                for m in &chunk[1..] {
                    union_into(&mut u, m, order);
                }
                next.push(u);
            }
            levels.push(next);
        }
        levels.reverse();
    }
    let levels = levels
        .iter()
        .map(|l| {
            Ok(crate::format::table!(RTreeLevel {
                mbrs: l
                    .iter()
                    .map(|m| mbr_table(m, coord_sizes))
                    .collect::<Result<_, _>>()?,
            }))
        })
        .collect::<Result<_, EncodeError>>()?;
    Ok(crate::format::table!(RTree {
        dim_num: None,
        fanout: FANOUT as u32,
        datatype: None,
        levels,
    })
    .with_sizes())
}
