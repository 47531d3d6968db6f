//! Tiles through the filter pipelines on the thread pool, and in order to
//! the data files.

use std::sync::mpsc::Sender;
use std::sync::Arc;

use rayon::prelude::*;

use crate::filters::FilterError;
use crate::format::{PartFile, StreamedFile};

use crate::write::error::{WriteError, WriteResult};
use crate::write::sort::ColBuf;
use crate::write::stats::{tile_stats, TileView};

use super::types::*;
#[cfg(feature = "fail-points")]
use crate::write::error::FailPoint;

pub(super) fn filter_err(field: &str) -> impl Fn(FilterError) -> WriteError + '_ {
    move |e| WriteError::Filter {
        field: field.to_string(),
        filter: e.filter,
        what: e.what,
    }
}

/// Appends cells `from..from + count` of a column to a field's buffer.
pub(super) fn append_cells(
    buf: &mut ColBuf,
    f: &WField,
    c: &Column,
    from: usize,
    count: usize,
) -> WriteResult<()> {
    match &c.offsets {
        None => {
            let w = f.value_size as usize;
            buf.data
                .extend_from_slice(&c.data[from * w..(from + count) * w]);
        }
        Some(o) => {
            for i in from..from + count {
                let e = o.get(i + 1).map_or(c.data.len(), |e| *e as usize);
                let b = &c.data[o[i] as usize..e];
                if !(b.len() as u64).is_multiple_of(f.value_size.max(1)) {
                    return Err(WriteError::cells(&f.name, "a cell is not whole values"));
                }
                buf.starts.push(buf.data.len() as u64);
                buf.data.extend_from_slice(b);
            }
        }
    }
    if let (true, Some(v)) = (f.nullable, &c.validity) {
        buf.validity
            .extend(v[from..from + count].iter().map(|x| u8::from(*x != 0)));
    }
    Ok(())
}

/// Filters one tile of every field (the fields' chunks in parallel); gives
/// back the raw tiles too (their buffers are reused).
pub(super) fn filter_set(fields: &[WField], mut raw: RawSet) -> FilterResult {
    let mut fs = raw
        .tiles
        .par_iter()
        .zip(fields.par_iter())
        .map(|(tile, f)| filter_tile(f, &tile.view(), &raw.ranges))
        .collect::<WriteResult<Vec<_>>>()?;
    // Chunks left as they are go to the files from the raw tile.
    for (f, t) in fs.iter_mut().zip(&mut raw.tiles) {
        if f.fixed.uses_raw() {
            f.fixed.raw = std::mem::take(&mut t.data);
        }
    }
    let set = FilteredSet {
        ordinal: raw.ordinal,
        fields: fs,
        mbr: raw.mbr,
        bounds: raw.bounds,
        cells: raw.cells,
    };
    Ok((set, raw.tiles))
}

/// Runs `job` on the thread pool and sends what it returns, or its panic,
/// to `tx`: a panic goes back to the thread that waits for the result, to
/// be raised there, instead of to rayon's handler, which would abort the
/// process. Whoever gave up waiting (a writer failed or dropped) does not
/// get it.
pub(super) fn spawn_caught<T: Send + 'static>(
    tx: Sender<std::thread::Result<T>>,
    job: impl FnOnce() -> T + Send + 'static,
) {
    rayon::spawn(move || send_caught(&tx, job));
}

/// Runs `job` and sends what it returns, or its panic, to `tx` (nobody may
/// be waiting any more: then nothing is sent).
fn send_caught<T>(tx: &Sender<std::thread::Result<T>>, job: impl FnOnce() -> T) {
    let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)));
}

/// Tiles filtered at the same time at most: one per thread of the pool and
/// one more, so that the pool has the next tile at hand when one is done.
pub(super) fn max_in_flight() -> usize {
    rayon::current_num_threads().clamp(1, 64) + 1
}

impl FragmentWriter {
    /// Hands a tile to the thread pool to be filtered; writes the tiles
    /// filtered so far whose turn has come. The writer goes on taking cells
    /// while tiles are filtered and the data thread writes; it waits only
    /// when [`max_in_flight`] tiles are being filtered.
    pub(super) fn queue(&mut self, set: RawSet) -> WriteResult<()> {
        if rayon::current_thread_index().is_some() {
            // Called from the pool itself: waiting there for tasks of the
            // same pool could starve it, so the tile is filtered here.
            let res = filter_set(&self.fields, set);
            return self.filtered(res);
        }
        let fields = Arc::clone(&self.fields);
        spawn_caught(self.filtering.tx.clone(), move || filter_set(&fields, set));
        self.filtering.in_flight += 1;
        while self.filtering.in_flight >= max_in_flight() {
            self.collect(true)?;
        }
        while self.collect(false)? {}
        Ok(())
    }

    /// Writes every tile still being filtered.
    pub(super) fn drain_filtering(&mut self) -> WriteResult<()> {
        while self.filtering.in_flight > 0 {
            self.collect(true)?;
        }
        Ok(())
    }

    /// Takes one filtered tile (waiting for it if `wait`); false if none
    /// was done.
    fn collect(&mut self, wait: bool) -> WriteResult<bool> {
        let res = if wait {
            self.filtering.rx.recv().ok()
        } else {
            self.filtering.rx.try_recv().ok()
        };
        let Some(res) = res else {
            return Ok(false);
        };
        self.filtering.in_flight -= 1;
        self.filtered_or_raise(res)?;
        Ok(true)
    }

    /// A tile back from the pool ([`send_caught`]): to the files in its
    /// turn, or the panic of its filtering raised here, in the caller's
    /// thread.
    fn filtered_or_raise(&mut self, done: std::thread::Result<FilterResult>) -> WriteResult<()> {
        match done {
            Ok(res) => self.filtered(res),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }

    /// A filtered tile: waits for its turn, then goes to the files with
    /// every tile whose turn has come.
    fn filtered(&mut self, res: FilterResult) -> WriteResult<()> {
        let (set, tiles) = res?;
        let keep = (max_in_flight() + 1) * self.fields.len();
        let recycled = self
            .sink
            .as_ref()
            .map(|s| s.recycled.try_iter().collect::<Vec<_>>());
        for data in tiles
            .into_iter()
            .map(|t| t.data)
            .chain(recycled.into_iter().flatten())
        {
            if self.spare.len() < keep && data.capacity() > 0 {
                self.spare.push(data);
            }
        }
        self.pending.put(set)?;
        while let Some(set) = self.pending.take(self.ready_next)? {
            self.ready_next += 1;
            self.write_set(set)?;
        }
        Ok(())
    }

    /// Hands a filtered tile of every field to the data files and records
    /// its metadata.
    fn write_set(&mut self, set: FilteredSet) -> WriteResult<()> {
        self.write_set_from(set, None)
    }

    /// [`Self::write_set`]; with `raw`, the unfiltered bytes of each
    /// field's fixed tile are `raw[k]` (borrowed from the caller's columns)
    /// and are staged from there, on this thread.
    fn write_set_from(&mut self, set: FilteredSet, raw: Option<&[&[u8]]>) -> WriteResult<()> {
        let fields = Arc::clone(&self.fields);
        let sink = self
            .sink
            .as_mut()
            .ok_or_else(|| WriteError::cells("", "the data files are closed"))?;
        let mut pieces = Vec::new();
        let mut piece_raw: Vec<&[u8]> = Vec::new();
        for (k, ((f, files), x)) in fields.iter().zip(&self.files).zip(set.fields).enumerate() {
            let fixed_raw = raw.and_then(|r| r.get(k).copied());
            let m = &mut self.meta[f.idx];
            m.written = true;
            // The generated layouts measure each tile as it goes to its
            // file: where it starts, and the file's size.
            m.fixed
                .push(x.fixed.slices(fixed_raw.unwrap_or(&x.fixed.raw)));
            pieces.push((files.fixed, x.fixed));
            piece_raw.push(fixed_raw.unwrap_or_default());
            match (files.var, x.var) {
                (Some(i), Some(v)) => {
                    m.var
                        .get_or_insert_with(Default::default)
                        .push([v.as_slice()]);
                    m.var_tiles.push(x.var_tile);
                    pieces.push((i, TileBytes::from_vec(v)));
                    piece_raw.push(&[]);
                }
                _ => m.var_tiles.push(StreamedFile::default()),
            }
            if let (Some(i), Some(v)) = (files.validity, x.validity) {
                m.validity
                    .get_or_insert_with(Default::default)
                    .push([v.as_slice()]);
                pieces.push((i, TileBytes::from_vec(v)));
                piece_raw.push(&[]);
            }
            m.stats.push(&self.specs[f.idx], &x.stats, set.cells);
        }
        match raw {
            Some(_) => sink.append_borrowed(pieces, &piece_raw)?,
            None => sink.append(pieces)?,
        }
        for (i, m) in self.meta.iter_mut().enumerate() {
            if !fields.iter().any(|f| f.idx == i) {
                m.stats.push_empty(&self.specs[i]);
            }
        }
        if let Some(mbr) = set.mbr {
            self.mbrs.push(mbr);
        }
        if let Some(b) = set.bounds {
            self.global_order_bounds.push(b);
        }
        self.tile_cells.push(set.cells);
        self.written_cells += set.cells;
        self.next_ordinal += 1;
        #[cfg(feature = "fail-points")]
        if self.next_ordinal == 1 {
            self.checkpoint(FailPoint::TileWritten)?;
        }
        Ok(())
    }
}

impl FragmentWriter {
    /// Whether whole tiles of the caller's columns can be filtered where
    /// they are: every field fixed-size and not nullable (validity bytes
    /// are normalized when copied), outside the thread pool. Bytes a
    /// pipeline keeps as they are (all of them, with no filter) go from the
    /// columns to the files.
    pub(super) fn filters_in_place(&self) -> bool {
        rayon::current_thread_index().is_none() && self.fields.iter().all(|f| !f.var && !f.nullable)
    }

    /// Filters whole tiles straight from the caller's columns, `from` the
    /// cell the first starts at, `tile_cells` cells each: no copy into a
    /// row of tiles. As [`Self::queue`], at most [`max_in_flight`] tiles
    /// are filtered at once on the pool while the tiles done are written
    /// in order; every one is written (or an error returned) before this
    /// returns, as the columns are borrowed. A tile whose turn has come
    /// goes to the files from the columns; one done before its turn keeps
    /// a copy of the bytes it leaves as they are.
    pub(super) fn filter_in_place(
        &mut self,
        cols: &[&Column],
        from: usize,
        tiles: Vec<WholeTile>,
        tile_cells: usize,
    ) -> WriteResult<()> {
        // Tiles queued before go first (their turn comes before these).
        self.drain_filtering()?;
        let fields = Arc::clone(&self.fields);
        // Each tile comes back with its place in `tiles`.
        type Done = std::thread::Result<(usize, FilterResult)>;
        let (tx, rx) = std::sync::mpsc::channel::<Done>();
        rayon::in_place_scope(|s| {
            let mut jobs = tiles.into_iter().enumerate();
            let mut in_flight = 0;
            loop {
                while in_flight < max_in_flight() {
                    let Some((j, tile)) = jobs.next() else {
                        break;
                    };
                    let start = from + j * tile_cells;
                    let views: Vec<TileView> = fields
                        .iter()
                        .zip(cols)
                        .map(|(f, c)| {
                            let w = f.value_size as usize;
                            TileView {
                                data: &c.data[start * w..(start + tile_cells) * w],
                                offsets: None,
                                validity: None,
                                cells: tile_cells as u64,
                            }
                        })
                        .collect();
                    let (fields, tx) = (&fields, tx.clone());
                    // A panic goes back to the writer, which waits for
                    // this tile, and is raised there.
                    s.spawn(move |_| send_caught(&tx, || (j, filter_views(fields, &views, tile))));
                    in_flight += 1;
                }
                if in_flight == 0 {
                    return Ok(());
                }
                let done = rx
                    .recv()
                    .map_err(|_| WriteError::cells("", "a tile's filtering stopped"))?;
                in_flight -= 1;
                let (j, (mut set, tiles)) = match done {
                    Ok((j, res)) => (j, res?),
                    Err(panic) => std::panic::resume_unwind(panic),
                };
                let start = from + j * tile_cells;
                let raw: Vec<&[u8]> = fields
                    .iter()
                    .zip(cols)
                    .map(|(f, c)| {
                        let w = f.value_size as usize;
                        &c.data[start * w..(start + tile_cells) * w]
                    })
                    .collect();
                if set.ordinal == self.ready_next {
                    self.ready_next += 1;
                    self.write_set_from(set, Some(&raw))?;
                    while let Some(set) = self.pending.take(self.ready_next)? {
                        self.ready_next += 1;
                        self.write_set(set)?;
                    }
                } else {
                    for (x, r) in set.fields.iter_mut().zip(&raw) {
                        if x.fixed.uses_raw() {
                            x.fixed.raw = r.to_vec();
                        }
                    }
                    self.filtered(Ok((set, tiles)))?;
                }
            }
        })
    }
}

/// Filters one whole tile of every field from the caller's columns (the
/// fields in parallel, and the chunks of each).
fn filter_views(fields: &[WField], views: &[TileView], tile: WholeTile) -> FilterResult {
    let fs = views
        .par_iter()
        .zip(fields.par_iter())
        // Bytes left as they are stay in the columns (`filter_in_place`
        // takes them from there).
        .map(|(v, f)| filter_tile(f, v, &tile.ranges))
        .collect::<WriteResult<Vec<_>>>()?;
    let set = FilteredSet {
        ordinal: tile.ordinal,
        fields: fs,
        mbr: None,
        bounds: None,
        cells: views.first().map_or(0, |v| v.cells),
    };
    Ok((set, Vec::new()))
}

/// Runs one field's tile through its pipelines and computes its metadata.
pub(super) fn filter_tile(
    f: &WField,
    tile: &TileView,
    ranges: &[(usize, usize)],
) -> WriteResult<Filtered> {
    let stats = tile_stats(&f.spec, tile, ranges);
    let err = filter_err(&f.name);
    let mut out = Filtered {
        stats,
        ..Default::default()
    };
    match tile.offsets {
        None => {
            out.fixed = TileBytes {
                pieces: f.pipes.data.forward_tile_pieces(tile.data).map_err(&err)?,
                raw: Vec::new(),
            }
        }
        Some(offsets) => {
            out.fixed = TileBytes::from_vec(if f.pipes.offsets_in_data {
                // The engine writes an empty offsets tile: RLE and dictionary
                // keep the offsets in the data tile.
                0u64.to_le_bytes().to_vec()
            } else {
                let bytes: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
                f.pipes
                    .offsets
                    .as_ref()
                    .expect("var-sized fields have an offsets pipeline")
                    .forward_tile(&bytes)
                    .map_err(&err)?
            });
            out.var = Some(
                f.pipes
                    .data
                    .forward_var_tile(tile.data, offsets)
                    .map_err(&err)?,
            );
            // The var tile sizes state each var tile's size before
            // filtering: the generated `TileSizes` takes it from this
            // measure of its bytes.
            out.var_tile.put(tile.data);
        }
    }
    if let Some(v) = tile.validity {
        out.validity = Some(
            f.pipes
                .validity
                .as_ref()
                .expect("nullable fields have a validity pipeline")
                .forward_tile(v)
                .map_err(&err)?,
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::spawn_caught;

    #[test]
    fn a_panic_on_the_pool_comes_back_to_the_waiting_thread() {
        let (tx, rx) = std::sync::mpsc::channel();
        spawn_caught(tx, || -> u32 { panic!("a bug in a filter") });
        let panic = rx
            .recv()
            .expect("the job sends how it ended")
            .expect_err("the panic comes back");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"a bug in a filter"));
        // And a job that ends well sends its value.
        let (tx, rx) = std::sync::mpsc::channel();
        spawn_caught(tx, || 7u32);
        assert_eq!(rx.recv().unwrap().ok(), Some(7));
    }
}
