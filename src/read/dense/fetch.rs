//! Dense reads from a ranged storage (an object store): the slabs of a
//! batch are taken in groups whose tiles take at most the storage's
//! read-ahead bytes; each group's tiles are fetched together (near ranges
//! merged, requests concurrent: `Storage::read_ranges`), decoded into the
//! group's part of the result while the next group is fetched, and let go.

use super::{for_each_tile, DenseAttr, DenseFragment, FixedTarget, Grid, Selection};
use crate::error::Result;
use crate::read::field::{prefetch, FieldTiles};

/// [`FixedTarget::fill`] of `t` with its tiles fetched group by group
/// (`tiles`, the attribute's tiles, are taken back mutably between groups to let the
/// fetched bytes go): the next group is fetched while this one is decoded,
/// so at most two groups are held at once. Local files are filled in one
/// go, as mapped.
#[allow(clippy::too_many_arguments)]
pub(super) fn fill_ahead(
    t: &FixedTarget,
    tiles: &mut [Option<FieldTiles>],
    a: &DenseAttr,
    covered: &[bool],
    zeroed: bool,
    data: &mut [u8],
    mut validity: Option<&mut [u8]>,
) -> Result<()> {
    let ahead = tiles.iter().flatten().find_map(FieldTiles::read_ahead);
    let Some(ahead) = ahead else {
        return t.fill(tiles, a, covered, zeroed, data, validity);
    };
    let cs = a.field.cell_size() as usize;
    let groups = groups(t, tiles, ahead)?;
    let fetch = |tiles: &[Option<FieldTiles>], ids: &[(usize, usize)]| {
        let wanted: Vec<(&FieldTiles, usize)> = ids
            .iter()
            .filter_map(|(f, i)| tiles.get(*f)?.as_ref().map(|ft| (ft, *i)))
            .collect();
        prefetch(&wanted)
    };
    if let Some(g) = groups.first() {
        fetch(tiles, &g.2)?;
    }
    let mut first = 0usize;
    for (k, (s, e, ids)) in groups.iter().enumerate() {
        let n: usize = t.slab_cells[*s..*e].iter().sum();
        let shared: &[Option<FieldTiles>] = tiles;
        let part = FixedTarget {
            slabs: &t.slabs[*s..*e],
            slab_cells: &t.slab_cells[*s..*e],
            ..*t
        };
        let out = &mut data[first * cs..(first + n) * cs];
        let v = validity.as_deref_mut().map(|v| &mut v[first..first + n]);
        let next = groups.get(k + 1);
        let (fetched, filled) = std::thread::scope(|sc| {
            let ahead = next.map(|g| sc.spawn(|| fetch(shared, &g.2)));
            let filled = part.fill(shared, a, &covered[*s..*e], zeroed, out, v);
            (ahead.map(|h| h.join()), filled)
        });
        filled?;
        if let Some(f) = fetched {
            f.unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        }
        // This group's tiles go, but for those the next group reads too.
        let keep: std::collections::HashSet<&(usize, usize)> =
            next.map(|g| g.2.iter().collect()).unwrap_or_default();
        for id in ids.iter().filter(|id| !keep.contains(id)) {
            if let Some(Some(ft)) = tiles.get_mut(id.0) {
                ft.release_tile(id.1);
            }
        }
        first += n;
    }
    Ok(())
}

/// A group of slabs (first, end) and its tiles (fragment, tile number).
type Group = (usize, usize, Vec<(usize, usize)>);

/// The slabs of `t` in groups whose tiles take at most `ahead` bytes (at
/// least one slab each).
fn groups(t: &FixedTarget, tiles: &[Option<FieldTiles>], ahead: u64) -> Result<Vec<Group>> {
    let index: std::collections::HashMap<*const FieldTiles, usize> = tiles
        .iter()
        .enumerate()
        .filter_map(|(i, ft)| ft.as_ref().map(|ft| (ft as *const FieldTiles, i)))
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    let mut bytes = 0u64;
    for (k, slab) in t.slabs.iter().enumerate() {
        let mine = tiles_of(t.grid, t.frags, tiles, slab)?;
        let b: u64 = mine.iter().map(|(ft, i)| ft.stored_bytes(*i)).sum();
        let ids = mine
            .iter()
            .filter_map(|(ft, i)| Some((*index.get(&(*ft as *const FieldTiles))?, *i)));
        match groups.last_mut() {
            Some(g) if bytes.saturating_add(b) <= ahead => {
                g.1 = k + 1;
                g.2.extend(ids);
                bytes = bytes.saturating_add(b);
            }
            _ => {
                groups.push((k, k + 1, ids.collect()));
                bytes = b;
            }
        }
    }
    Ok(groups)
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
