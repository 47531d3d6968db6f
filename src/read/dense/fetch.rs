//! Dense reads from a ranged storage (an object store): the slabs of a
//! batch are taken in groups whose tiles take at most the storage's
//! read-ahead bytes; each group's tiles are fetched together (near ranges
//! merged, requests concurrent: `Storage::read_ranges`), decoded into the
//! group's part of the result, and let go before the next group.

use super::{for_each_tile, DenseAttr, DenseFragment, FixedTarget, Grid, Selection};
use crate::error::Result;
use crate::read::field::{prefetch, FieldTiles};

/// [`FixedTarget::fill`] of `t` with its tiles fetched group by group
/// (`tiles` are `t`'s tiles, taken back mutably between groups to let the
/// fetched bytes go). Local files are filled in one go, as mapped.
#[allow(clippy::too_many_arguments)]
pub(super) fn fill_ahead(
    t: &FixedTarget,
    tiles: &mut [Option<FieldTiles>],
    a: &DenseAttr,
    covered: bool,
    zeroed: bool,
    data: &mut [u8],
    mut validity: Option<&mut [u8]>,
) -> Result<()> {
    let ahead = tiles.iter().flatten().find_map(FieldTiles::read_ahead);
    let Some(ahead) = ahead else {
        return FixedTarget { tiles, ..*t }.fill(a, covered, zeroed, data, validity);
    };
    let cs = a.field.cell_size() as usize;
    let (mut s, mut first) = (0, 0usize);
    while s < t.slabs.len() {
        // The slabs of this group: at least one, then while their tiles
        // fit in `ahead` bytes.
        let mut e = s;
        let mut bytes = 0u64;
        {
            let mut wanted = Vec::new();
            while e < t.slabs.len() {
                let mine = tiles_of(t.grid, t.frags, tiles, &t.slabs[e])?;
                let b: u64 = mine.iter().map(|(ft, i)| ft.stored_bytes(*i)).sum();
                if e > s && bytes.saturating_add(b) > ahead {
                    break;
                }
                bytes = bytes.saturating_add(b);
                wanted.extend(mine);
                e += 1;
            }
            prefetch(&wanted)?;
        }
        let n: usize = t.slab_cells[s..e].iter().sum();
        let part = FixedTarget {
            tiles,
            slabs: &t.slabs[s..e],
            slab_cells: &t.slab_cells[s..e],
            ..*t
        };
        part.fill(
            a,
            covered,
            zeroed,
            &mut data[first * cs..(first + n) * cs],
            validity.as_deref_mut().map(|v| &mut v[first..first + n]),
        )?;
        tiles.iter_mut().flatten().for_each(FieldTiles::release);
        first += n;
        s = e;
    }
    Ok(())
}

/// The tiles (field tiles, tile number) that hold cells of `sel`.
pub(super) fn tiles_of<'t>(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &'t [Option<FieldTiles>],
    sel: &Selection,
) -> Result<Vec<(&'t FieldTiles, usize)>> {
    let mut out = Vec::new();
    for_each_tile(grid, frags, tiles, sel, |_, ft, i, _, _| {
        out.push((ft, i));
        Ok(())
    })?;
    Ok(out)
}
