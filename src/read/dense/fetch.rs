//! Dense reads from a ranged storage (an object store). Where every tile
//! of a batch lands whole in one run of the result, each cell from one
//! tile (a 1-D array; fragments that do not overlap), the tiles are
//! streamed: fetched together (near ranges merged, requests concurrent:
//! `Storage::read_streamed`) and decoded into their places as their bytes
//! arrive (unfiltered chunks copied there, filtered ones unfiltered on the
//! thread pool as each comes whole), so nothing holds a tile's stored
//! bytes. Where only some slabs are such (a 1-D box that cuts its first
//! and last tiles), those stream and the others' tiles come in the same
//! requests, decoded as below once they are in. Where each cell of the batch comes from
//! one tile of one fragment (fragments that do not overlap, and cover the
//! batch), whatever the tiles' shapes, values and validity alike, the
//! tiles are streamed too and each chunk's cells are spread over the
//! result as the chunk comes ([`stream_scattered`]). Otherwise the slabs
//! of the batch are taken in groups whose tiles
//! take at most the storage's read-ahead bytes; each group's tiles are
//! fetched together (`Storage::read_ranges`), decoded into the group's
//! part of the result while the next group is fetched, and let go.

use super::copy::{for_each_run, whole_at, FixedTarget, Placement, TileBox};
use super::plan::{for_each_tile, DenseAttr, DenseFragment, Grid, Selection};
use crate::error::Result;
use crate::read::field::{fetched, groups_of, missing, prefetch, while_fetching, FieldTiles};
use crate::storage::StorageRef;
use crate::tile::{Emitted, TileStream};
use std::path::PathBuf;

/// [`FixedTarget::fill`] of `t` with its tiles fetched group by group
/// (`tiles`, the attribute's tiles, are taken back mutably between groups to let the
/// fetched bytes go): the next group is fetched while this one is decoded,
/// so at most two groups are held at once. Local files are filled in one
/// go, as mapped.
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
    if validity.is_none() {
        if let Some((bytes, whole, streamed)) = whole_tiles(t, tiles, cs)? {
            let streaming = (bytes, whole, &streamed[..], ahead);
            if let Some(()) = stream_slabs(t, tiles, a, covered, zeroed, data, streaming)? {
                return Ok(());
            }
        }
    }
    if let Some(()) = stream_scattered(t, tiles, a, data, validity.as_deref_mut())? {
        return Ok(());
    }
    by_groups(t, tiles, ahead, |shared, s, e, first| {
        let n: usize = t.slab_cells[s..e].iter().sum();
        let part = FixedTarget {
            slabs: &t.slabs[s..e],
            slab_cells: &t.slab_cells[s..e],
            ..*t
        };
        let out = &mut data[first * cs..(first + n) * cs];
        let v = validity.as_deref_mut().map(|v| &mut v[first..first + n]);
        part.fill(shared, a, &covered[s..e], zeroed, out, v)
    })
}

/// Runs `each` on the slabs of `t` in groups whose tiles take at most
/// `ahead` bytes (`each(tiles, first slab, end slab, first cell)`), in
/// order: each group's tiles are fetched before it runs, the next group's
/// while it runs (at most two groups held at once), and let go after it
/// (but for those the next group reads too).
pub(super) fn by_groups(
    t: &FixedTarget,
    tiles: &mut [Option<FieldTiles>],
    ahead: u64,
    mut each: impl FnMut(&[Option<FieldTiles>], usize, usize, usize) -> Result<()>,
) -> Result<()> {
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
        let shared: &[Option<FieldTiles>] = tiles;
        let next = groups.get(k + 1);
        while_fetching(next.map(|g| || fetch(shared, &g.2)), || {
            each(shared, *s, *e, first)
        })?;
        let keep: std::collections::HashSet<&(usize, usize)> =
            next.map(|g| g.2.iter().collect()).unwrap_or_default();
        for id in ids.iter().filter(|id| !keep.contains(id)) {
            if let Some(Some(ft)) = tiles.get_mut(id.0) {
                ft.release_tile(id.1);
            }
        }
        first += t.slab_cells[*s..*e].iter().sum::<usize>();
    }
    Ok(())
}

/// A group of slabs (first, end) and its tiles (fragment, tile number).
type Group = (usize, usize, Vec<(usize, usize)>);

/// The slabs of `t` in groups whose tiles take at most `ahead` bytes (at
/// least one slab each).
fn groups(t: &FixedTarget, tiles: &[Option<FieldTiles>], ahead: u64) -> Result<Vec<Group>> {
    let mut sizes = Vec::with_capacity(t.slabs.len());
    let mut ids = Vec::with_capacity(t.slabs.len());
    for slab in t.slabs {
        let mine = tiles_of(t.grid, t.frags, tiles, slab)?;
        sizes.push(mine.iter().map(|(_, ft, i)| ft.stored_bytes(*i)).sum());
        ids.push(mine.iter().map(|(f, _, i)| (*f, *i)).collect::<Vec<_>>());
    }
    Ok(groups_of(sizes, ahead)
        .into_iter()
        .map(|(s, e)| (s, e, ids[s..e].concat()))
        .collect())
}

/// The tiles (fragment number, its field tiles, tile number) that hold
/// cells of `sel`.
pub(super) fn tiles_of<'t>(
    grid: &Grid,
    frags: &[DenseFragment],
    tiles: &'t [Option<FieldTiles>],
    sel: &Selection,
) -> Result<Vec<(usize, &'t FieldTiles, usize)>> {
    let mut out = Vec::new();
    for_each_tile(grid, frags, tiles, sel, |f, ft, i, _, _| {
        out.push((f, ft, i));
        Ok(())
    })?;
    Ok(out)
}

/// A tile that lands whole in one run of a batch's result: its field's
/// tiles, the storage, object and byte range it is fetched from, and the
/// byte of the result where it starts.
struct Whole<'t> {
    tiles: &'t FieldTiles,
    storage: &'t StorageRef,
    path: PathBuf,
    range: std::ops::Range<u64>,
    at: usize,
}

/// The tiles streamed of a batch ([`whole_tiles`]): their size in bytes
/// unfiltered, the tiles sorted by their places, and per slab whether its
/// tiles are among them.
type Streamable<'t> = (usize, Vec<Whole<'t>>, Vec<bool>);

/// The tiles of the slabs of `t` (a batch of a fixed-size attribute of
/// `cs` bytes a cell) whose every tile lands whole in one run of the
/// result and whose every cell comes from exactly one of them (so that no
/// fill value is needed and the order in which they are written does not
/// matter), their size, and which slabs those are; `None` where no slab
/// is such, and for a tile the offsets place nowhere (the tile's own read
/// refuses it).
fn whole_tiles<'t>(
    t: &FixedTarget,
    tiles: &'t [Option<FieldTiles>],
    cs: usize,
) -> Result<Option<Streamable<'t>>> {
    let Some(per_tile) = t.grid.tile_cells() else {
        return Ok(None);
    };
    let mut out = Vec::new();
    let mut streamed = Vec::with_capacity(t.slabs.len());
    let mut first = 0usize;
    for (slab, &n) in t.slabs.iter().zip(t.slab_cells) {
        let place = Placement::new(slab, t.grid);
        let (mut whole, mut cells) = (true, 0i128);
        let before = out.len();
        for_each_tile(t.grid, t.frags, tiles, slab, |_, ft, i, ivs, origin| {
            let at = whole_at(&place, TileBox { ivs, origin }, per_tile);
            match (at, ft.fixed_request(i)) {
                // A fragment that holds the attribute as var-sized is not
                // streamed (its view would check the offsets' pipeline).
                (Some(r), Some(Ok((storage, path, range))))
                    if whole && ft.pipes.offsets.is_none() =>
                {
                    out.push(Whole {
                        tiles: ft,
                        storage,
                        path,
                        range,
                        at: (first as i128 + r) as usize * cs,
                    });
                    cells += per_tile;
                }
                _ => whole = false,
            }
            Ok(())
        })?;
        let mine = whole && cells == n as i128;
        if !mine {
            out.truncate(before);
        }
        streamed.push(mine);
        first += n;
    }
    // The slabs' counts are met: with no two tiles overlapping, every cell
    // is written exactly once.
    out.sort_by_key(|w| w.at);
    let Some(bytes) = usize::try_from(per_tile)
        .ok()
        .and_then(|n| n.checked_mul(cs))
        .filter(|_| !out.is_empty())
    else {
        return Ok(None);
    };
    if out.windows(2).any(|w| w[0].at + bytes > w[1].at) {
        return Ok(None);
    }
    Ok(Some((bytes, out, streamed)))
}

/// The places of the tiles `whole` (each `bytes` long, at `w.at`, sorted,
/// apart) in `data`, which starts at byte `base` of the result; an error
/// naming the tile where one is not inside `data` after the one before it.
fn places<'d>(
    data: &'d mut [u8],
    base: usize,
    bytes: usize,
    whole: &[Whole],
) -> Result<Vec<&'d mut [u8]>> {
    let mut out = Vec::with_capacity(whole.len());
    let mut rest = data;
    let mut pos = base;
    for w in whole {
        let Some(skip) = w.at.checked_sub(pos).filter(|s| s + bytes <= rest.len()) else {
            return Err(crate::error::Error::decode(
                &w.path,
                w.range.start,
                "TileOffsets",
                "values",
                format!(
                    "the tile at bytes {:?} has no place of its own in the result",
                    w.range
                ),
            ));
        };
        let (_, tail) = std::mem::take(&mut rest).split_at_mut(skip);
        let (place, tail) = tail.split_at_mut(bytes);
        out.push(place);
        rest = tail;
        pos = w.at + bytes;
    }
    Ok(out)
}

/// A batch some or all of whose slabs stream ([`whole_tiles`]:
/// `streamable`) into their places. The others, such as the first and last
/// of a 1-D box that cuts its first and last tiles, have their tiles
/// fetched in the same requests as the streamed ones (next to them in the
/// file, they come in one request), then are filled as
/// [`FixedTarget::fill`] fills them.
/// `None` (nothing done) where the others' tiles take more than `ahead`
/// bytes: the caller then takes the batch in groups. What it holds of
/// stored bytes is those tiles and the filtered chunks waiting in the
/// stream, each at most `ahead`.
/// `streaming`: what [`whole_tiles`] gives (each whole tile's bytes, the
/// tiles, which slabs stream) and the read-ahead bytes.
fn stream_slabs(
    t: &FixedTarget,
    tiles: &[Option<FieldTiles>],
    a: &DenseAttr,
    covered: &[bool],
    zeroed: bool,
    data: &mut [u8],
    streaming: (usize, Vec<Whole>, &[bool], u64),
) -> Result<Option<()>> {
    let (bytes, whole, streamed, ahead) = streaming;
    let cs = a.field.cell_size() as usize;
    let mut others = Vec::new();
    for (slab, _) in t.slabs.iter().zip(streamed).filter(|(_, s)| !**s) {
        let mine = tiles_of(t.grid, t.frags, tiles, slab)?;
        others.extend(mine.into_iter().map(|(_, ft, i)| (ft, i)));
    }
    let held = others
        .iter()
        .fold(0u64, |b, (ft, i)| b.saturating_add(ft.stored_bytes(*i)));
    if held > ahead {
        return Ok(None);
    }
    // The result cut at the slabs' ends: each streamed slab into the places
    // of its tiles, each other slab whole.
    let mut placed = Vec::with_capacity(whole.len());
    let mut fills = Vec::new();
    let mut whole = whole.into_iter().peekable();
    let mut rest = data;
    let mut first = 0usize;
    for (k, &n) in t.slab_cells.iter().enumerate() {
        let (part, tail) = std::mem::take(&mut rest).split_at_mut(n * cs);
        rest = tail;
        let end = (first + n) * cs;
        if streamed[k] {
            let mine: Vec<Whole> = std::iter::from_fn(|| whole.next_if(|w| w.at < end)).collect();
            let ps = places(part, first * cs, bytes, &mine)?;
            placed.extend(mine.into_iter().zip(ps));
        } else {
            fills.push((k, part));
        }
        first += n;
    }
    if let Some(w) = whole.next() {
        return Err(crate::error::Error::decode(
            &w.path,
            w.range.start,
            "TileOffsets",
            "values",
            format!("the tile at bytes {:?} has no place in the result", w.range),
        ));
    }
    if fills.is_empty() {
        return stream_whole(t, bytes, placed, zeroed, &[]).map(Some);
    }
    // The other slabs' tiles are fetched with the streamed ones, in the
    // same requests (a box that cuts its first and last tiles: their
    // bytes lie next to the streamed tiles' and come in one request),
    // then those slabs filled from them.
    let (_, extra) = missing(&others);
    stream_whole(t, bytes, placed, zeroed, &extra)?;
    prefetch(&others)?;
    for (k, part) in fills {
        let slab = FixedTarget {
            slabs: &t.slabs[k..k + 1],
            slab_cells: &t.slab_cells[k..k + 1],
            ..*t
        };
        slab.fill(tiles, a, &covered[k..k + 1], zeroed, part, None)?;
    }
    Ok(Some(()))
}

/// Fetches the tiles `whole` of `bytes` unfiltered bytes each (from
/// [`whole_tiles`], each with its place in the result) and decodes each
/// into its place as its bytes arrive ([`TileStream`]): what it holds of their stored bytes is the
/// filtered chunks waiting to be unfiltered, at most the storage's
/// read-ahead bytes. With `zeroed` (`data` is fresh memory), a
/// tile's place is made present with one call when its first bytes come
/// ([`crate::storage::populate`]). The ranges `extra` (other tiles' files,
/// from [`missing`]) are fetched in the same requests and kept as those
/// tiles' fetched bytes.
fn stream_whole(
    t: &FixedTarget,
    bytes: usize,
    whole: Vec<(Whole, &mut [u8])>,
    zeroed: bool,
    extra: &[crate::read::field::Wanted<'_>],
) -> Result<()> {
    let Some(storage) = whole.first().map(|w| w.0.storage) else {
        return Ok(());
    };
    let mut requests = Vec::with_capacity(whole.len() + extra.len());
    let mut streams = Vec::with_capacity(whole.len());
    for (w, out) in whole {
        let stored = w.range.end - w.range.start;
        let pipe = &w.tiles.pipes.data;
        streams.push(TileStream::new(
            &w.path,
            w.range.start,
            stored,
            w.tiles.max,
            pipe,
            out,
        ));
        requests.push((w.path, w.range));
    }
    let n = requests.len();
    requests.extend(extra.iter().map(|(p, r, _)| (p.clone(), r.clone())));
    let mut extra_bytes: Vec<Vec<u8>> = extra
        .iter()
        .map(|(_, r, _)| Vec::with_capacity((r.end - r.start) as usize))
        .collect();
    // The stream is taken on this thread; the filtered chunks it completes
    // are unfiltered on the thread pool meanwhile, the first error kept.
    // While the chunks waiting there hold the storage's read-ahead bytes, a
    // chunk is unfiltered here instead (which holds the stream back).
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let failed = std::sync::Mutex::new(None);
    let (queued, ahead) = (AtomicU64::new(0), storage.0.read_ahead());
    rayon::in_place_scope(|scope| {
        let (failed, queued) = (&failed, &queued);
        storage.0.read_streamed(&requests, &mut |i, piece| {
            if let Some(e) = failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
                return Err(e);
            }
            if let Some(buf) = i.checked_sub(n).and_then(|k| extra_bytes.get_mut(k)) {
                buf.extend_from_slice(piece);
                return Ok(());
            }
            let stream = &mut streams[i];
            if let Some(place) = stream.untouched().filter(|_| zeroed) {
                crate::storage::populate(place);
            }
            stream.feed(piece, &mut |job| {
                let held = job.held() as u64;
                if queued.load(Relaxed).saturating_add(held) > ahead {
                    return job.run();
                }
                queued.fetch_add(held, Relaxed);
                scope.spawn(move |_| {
                    if let Err(e) = job.run() {
                        failed
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(e);
                    }
                    queued.fetch_sub(held, Relaxed);
                });
                Ok(())
            })
        })
    })?;
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    for stream in &streams {
        stream.finish()?;
        t.stats.tile(bytes as u64);
    }
    for (w, b) in extra.iter().zip(extra_bytes) {
        fetched(w, crate::storage::Piece::from(b));
    }
    Ok(())
}

/// The runs of a tile's cells in a batch's result: (cell of the tile, cell
/// of the result, cells), sorted by the tile's cell.
type Runs = Vec<(u64, u64, u64)>;

/// Appends to `out` the runs of the cells of a tile (its box `b`) in the
/// result of `p.sel`, whose first cell is cell `base` of the batch; runs
/// that continue each other are joined. False, with `out` left longer,
/// once `out` holds more than `max` runs.
fn tile_runs(p: &Placement, b: TileBox, base: usize, out: &mut Runs, max: usize) -> bool {
    let (cstr, ostr) = (&p.cstr, &p.ostr);
    let Some(&inner) = p.sel.perm.last() else {
        return false;
    };
    let contiguous = cstr[inner] == 1 && ostr[inner] == 1;
    let mut push = |tpos: i128, opos: i128, n: i128| {
        let (tpos, opos, n) = (tpos as u64, (base as i128 + opos) as u64, n as u64);
        match out.last_mut() {
            Some(last) if last.0 + last.2 == tpos && last.1 + last.2 == opos => last.2 += n,
            _ => out.push((tpos, opos, n)),
        }
        out.len() <= max
    };
    for_each_run(p, b, inner, |tpos, opos, n| {
        let fits = if contiguous {
            push(tpos, opos, n)
        } else {
            (0..n).all(|k| push(tpos + k * cstr[inner], opos + k * ostr[inner], 1))
        };
        fits.then_some(()).ok_or(())
    })
    .is_ok()
}

/// Copies `bytes`, which start at byte `at` of a tile of cells of `w`
/// bytes, to where `runs` place them in `out`; the error names `path` and
/// the tile's `base` where a run falls outside `out`.
fn scatter(
    runs: &[(u64, u64, u64)],
    w: u64,
    at: u64,
    bytes: &[u8],
    out: &mut [u8],
    (path, base): (&std::path::Path, u64),
) -> Result<()> {
    let end = at + bytes.len() as u64;
    let first = runs.partition_point(|r| (r.0 + r.2) * w <= at);
    for &(tc, oc, n) in &runs[first..] {
        let (rs, re) = (tc * w, (tc + n) * w);
        if rs >= end {
            break;
        }
        let (s, e) = (rs.max(at), re.min(end));
        let o = (oc * w + (s - rs)) as usize;
        let Some(place) = out.get_mut(o..o + (e - s) as usize) else {
            return Err(crate::error::Error::decode(
                path,
                base,
                "TileOffsets",
                "values",
                "a tile's cells fall outside the result".to_string(),
            ));
        };
        place.copy_from_slice(&bytes[(s - at) as usize..(e - at) as usize]);
    }
    Ok(())
}

/// Whether two boxes (per dimension, inclusive bounds) share a point.
fn boxes_meet(a: &[(i128, i128)], b: &[(i128, i128)]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.0 <= y.1 && y.0 <= x.1)
}

/// A batch of a fixed-size attribute of a ranged storage whose every cell
/// comes from exactly one tile (the fragments holding its cells do not
/// overlap, and they cover it): its tiles, values and validity, are
/// fetched at once (near ranges merged, requests concurrent:
/// `Storage::read_streamed`) and each piece's cells are copied to their
/// places in `data` and `validity` as it comes: unfiltered bytes as they
/// arrive, filtered chunks once unfiltered on the thread pool. Of the
/// tiles' bytes it holds only the chunks waiting to be unfiltered or
/// placed, at most the storage's read-ahead bytes. `None` (nothing done)
/// for any other batch, and for one whose cells would go in runs of fewer
/// than about 16 cells on average.
fn stream_scattered(
    t: &FixedTarget,
    tiles: &[Option<FieldTiles>],
    a: &DenseAttr,
    data: &mut [u8],
    mut validity: Option<&mut [u8]>,
) -> Result<Option<()>> {
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    let cs = a.field.cell_size();
    // A tile's cells, and its values' bytes (which the tile's own read
    // refuses where they cannot be held).
    let Some((per_tile, tile_bytes)) = t
        .grid
        .tile_cells()
        .and_then(|n| u64::try_from(n).ok())
        .and_then(|n| Some((n, n.checked_mul(cs)?)))
    else {
        return Ok(None);
    };
    let present: Vec<usize> = (0..tiles.len()).filter(|i| tiles[*i].is_some()).collect();
    let fixed = |i: &usize| {
        tiles[*i]
            .as_ref()
            .is_some_and(|ft| ft.pipes.offsets.is_none() && ft.read_ahead().is_some())
    };
    if present.is_empty() || present.len() > 256 || !present.iter().all(fixed) {
        return Ok(None);
    }
    for (k, i) in present.iter().enumerate() {
        if present[k + 1..]
            .iter()
            .any(|j| boxes_meet(&t.frags[*i].ned, &t.frags[*j].ned))
        {
            return Ok(None);
        }
    }
    let Some(mut spread) = spread_runs(t, tiles)? else {
        return Ok(None);
    };
    // The streams: each tile's values, then its validity.
    let mut requests = Vec::new();
    let mut streams = Vec::new();
    let mut which = Vec::new();
    let mut storage = None;
    for (k, (ft, i, r)) in spread.iter_mut().enumerate() {
        r.sort_unstable();
        let nullable = validity.is_some();
        let wanted = [
            (
                false,
                Some(ft.fixed_request(*i)),
                &ft.pipes.data,
                tile_bytes,
            ),
            (
                true,
                nullable.then(|| ft.validity_request(*i)),
                ft.pipes.validity.as_ref().unwrap_or(&ft.pipes.data),
                per_tile,
            ),
        ];
        for (is_validity, req, pipe, len) in wanted {
            let Some(req) = req else { continue };
            let Some(req) = req else {
                return Ok(None);
            };
            let (st, path, range) = req?;
            storage.get_or_insert(st);
            streams.push(TileStream::scattered(
                &path,
                range.start,
                range.end - range.start,
                ft.max,
                pipe,
                len,
            ));
            which.push((k, is_validity, path.clone(), range.start));
            requests.push((path, range));
        }
    }
    let Some(storage) = storage else {
        return Ok(None);
    };
    let spread = &spread;
    let which = &which;
    // Copies bytes of stream `s`, from byte `at` of its tile, to their places.
    let mut place = |s: usize, at: u64, bytes: &[u8]| -> Result<()> {
        let (k, is_validity, path, base) = &which[s];
        let runs = &spread[*k].2;
        let where_ = (path.as_path(), *base);
        match (is_validity, validity.as_deref_mut()) {
            (true, Some(v)) => scatter(runs, 1, at, bytes, v, where_),
            _ => scatter(runs, cs, at, bytes, data, where_),
        }
    };
    // A chunk unfiltered on the pool: its stream, the bytes counted for
    // it, and where it starts in its tile with its bytes.
    type Done = (usize, u64, Result<(u64, Vec<u8>)>);
    type Place<'p> = dyn FnMut(usize, u64, &[u8]) -> Result<()> + 'p;
    let (tx, mut rx) = std::sync::mpsc::channel::<Done>();
    let (queued, ahead) = (AtomicU64::new(0), storage.0.read_ahead());
    // Places the chunks unfiltered on the pool so far (all of them once
    // the pool's jobs are done).
    let drain = |rx: &mut std::sync::mpsc::Receiver<Done>, place: &mut Place| -> Result<()> {
        while let Ok((s, held, done)) = rx.try_recv() {
            queued.fetch_sub(held, Relaxed);
            let (at, bytes) = done?;
            place(s, at, &bytes)?;
        }
        Ok(())
    };
    rayon::in_place_scope(|scope| {
        let (queued, tx) = (&queued, &tx);
        storage.0.read_streamed(&requests, &mut |s, piece| {
            drain(&mut rx, &mut place)?;
            let stream = &mut streams[s];
            stream.feed_scattered(piece, &mut |e| match e {
                Emitted::Bytes(at, bytes) => place(s, at, bytes),
                Emitted::Job(job) => {
                    // What the job holds, then what it makes.
                    let held = (job.held() + job.len()) as u64;
                    if queued.load(Relaxed).saturating_add(held) > ahead {
                        let (at, bytes) = job.run_owned()?;
                        return place(s, at, &bytes);
                    }
                    queued.fetch_add(held, Relaxed);
                    let tx = tx.clone();
                    scope.spawn(move |_| {
                        let _ = tx.send((s, held, job.run_owned()));
                    });
                    Ok(())
                }
            })
        })
    })?;
    drain(&mut rx, &mut place)?;
    for (stream, (_, is_validity, ..)) in streams.iter().zip(which) {
        stream.finish()?;
        t.stats
            .tile(if *is_validity { per_tile } else { tile_bytes });
    }
    Ok(Some(()))
}

/// Tiles (field tiles, tile number) and their runs in a batch.
type Spread<'t> = Vec<(&'t FieldTiles, usize, Runs)>;

/// The runs in the batch of `t` of each tile of `tiles` (the tiles in the
/// order first met), when the tiles hold every cell of the batch once and
/// their runs are at most about one per 16 cells; else `None`.
fn spread_runs<'t>(t: &FixedTarget, tiles: &'t [Option<FieldTiles>]) -> Result<Option<Spread<'t>>> {
    let total: usize = t.slab_cells.iter().sum();
    let max_runs = (total / 16).max(1 << 12);
    let mut spread: Vec<(&FieldTiles, usize, Runs)> = Vec::new();
    let mut where_: std::collections::HashMap<(usize, usize), usize> = Default::default();
    let (mut runs, mut cells, mut first, mut fits) = (0usize, 0u128, 0usize, true);
    for (slab, &n) in t.slabs.iter().zip(t.slab_cells) {
        let place = Placement::new(slab, t.grid);
        for_each_tile(t.grid, t.frags, tiles, slab, |fi, ft, i, ivs, origin| {
            let k = *where_.entry((fi, i)).or_insert_with(|| {
                spread.push((ft, i, Vec::new()));
                spread.len() - 1
            });
            cells += ivs
                .iter()
                .map(|v| v.iter().map(|(l, h)| (h - l + 1) as u128).sum::<u128>())
                .product::<u128>();
            let out = &mut spread[k].2;
            let before = out.len();
            let room = max_runs.saturating_sub(runs) + before;
            fits = fits && tile_runs(&place, TileBox { ivs, origin }, first, out, room);
            runs += out.len() - before;
            Ok(())
        })?;
        if !fits || runs > max_runs {
            return Ok(None);
        }
        first += n;
    }
    if cells != total as u128 || spread.is_empty() {
        return Ok(None);
    }
    Ok(Some(spread))
}
