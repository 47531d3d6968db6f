//! The data of one field (attribute or dimension) of one fragment: every
//! tile of its data file(s) read from the mapping and unfiltered
//! (format_spec/fragment.md#data-file).

use std::borrow::Cow;
use std::cell::RefCell;
use std::path::PathBuf;

use crate::array::field::{DataFile, FieldInfo, FieldPipelines};
use crate::array::fragment::data_file;
use crate::array::fragment::{Fragment, Metadata};
use crate::error::{Error, Result};
use crate::format::version::has_split_coordinate_tiles;
use crate::format::TileOffsets;
use crate::storage::MappedFile;
use crate::tile::{unfilter_tile, TileView};
use crate::ReadOptions;

/// The unfiltered data of a field in one fragment, all tiles concatenated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FieldData {
    /// Fixed-size values, or for var-sized fields the var data.
    pub values: Vec<u8>,
    /// Var-sized fields: where each cell starts in `values` (absolute).
    pub offsets: Option<Vec<u64>>,
    /// Nullable fields: one byte per cell, 0 = null.
    pub validity: Option<Vec<u8>>,
    /// Cells per tile, in tile order.
    pub tile_cells: Vec<u64>,
}

impl FieldData {
    /// A field's cells: `values`, var-sized `offsets`, `validity`, and the
    /// cells of each tile.
    pub fn new(
        values: Vec<u8>,
        offsets: Option<Vec<u64>>,
        validity: Option<Vec<u8>>,
        tile_cells: Vec<u64>,
    ) -> Self {
        FieldData {
            values,
            offsets,
            validity,
            tile_cells,
        }
    }
}

impl FieldData {
    /// Number of cells.
    pub fn len(&self, cell_size: u64) -> usize {
        match &self.offsets {
            Some(o) => o.len(),
            None => (self.values.len() as u64 / cell_size.max(1)) as usize,
        }
    }

    /// The bytes of cell `i`.
    pub fn cell(&self, i: usize, cell_size: u64) -> &[u8] {
        match &self.offsets {
            Some(o) => {
                let end = o.get(i + 1).copied().unwrap_or(self.values.len() as u64);
                &self.values[o[i] as usize..end as usize]
            }
            None => &self.values[i * cell_size as usize..(i + 1) * cell_size as usize],
        }
    }

    /// Whether the field has no tiles.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.offsets.as_ref().is_none_or(Vec::is_empty)
    }
}

/// A data file of a fragment: mapped whole (local files), or, from a
/// storage that prefers ranged reads ([`crate::storage::Storage::ranged`]:
/// object stores), fetched tile by tile as tiles are asked for, each tile's
/// byte range once.
struct TileFile {
    /// The whole file; for a ranged file, an empty stand-in naming it.
    file: MappedFile,
    /// The tiles fetched so far, by tile number (ranged files only).
    ranged: Option<(
        crate::storage::StorageRef,
        Vec<std::sync::OnceLock<crate::storage::Piece>>,
    )>,
}

impl TileFile {
    /// Opens `path`, a file of `tiles` tiles.
    fn open(frag: &Fragment, path: PathBuf, tiles: usize) -> Result<Self> {
        if frag.storage.ranged() {
            let slots = (0..tiles).map(|_| std::sync::OnceLock::new()).collect();
            return Ok(TileFile {
                file: MappedFile::from_vec(&path, Vec::new()),
                ranged: Some((frag.storage.clone(), slots)),
            });
        }
        Ok(TileFile {
            file: frag.storage.open(&path)?,
            ranged: None,
        })
    }

    /// Where tile `t` is stored in the file: from its offset to the next
    /// one (or the file's end), with the error that names a range the file
    /// cannot hold (given the file's length).
    #[allow(clippy::type_complexity)]
    fn span(
        &self,
        offsets: &[u64],
        t: usize,
        file_size: u64,
    ) -> Result<(std::ops::Range<u64>, impl Fn(u64) -> Error + '_)> {
        // A tile number comes from the R-tree or the non-empty domain,
        // which may disagree with the tile offsets of a damaged fragment.
        let Some(&start) = offsets.get(t) else {
            return Err(Error::decode(
                self.file.path(),
                0,
                "TileOffsets",
                "num",
                format!("no tile {t}: the fragment lists {} tiles", offsets.len()),
            ));
        };
        let end = offsets.get(t + 1).copied().unwrap_or(file_size);
        let spans = move |len: u64| {
            Error::decode(
                self.file.path(),
                start,
                "TileOffsets",
                "values",
                format!("tile {t} spans bytes {start}..{end} of a {len}-byte file"),
            )
        };
        Ok((start..end, spans))
    }

    /// Tile `t` of the file, as stored: from its offset to the next one.
    fn raw(&self, offsets: &[u64], t: usize, file_size: u64) -> Result<(u64, &[u8])> {
        let (std::ops::Range { start, end }, spans) = self.span(offsets, t, file_size)?;
        if let Some((storage, slots)) = &self.ranged {
            if start > end {
                return Err(spans(file_size));
            }
            let slot = slots.get(t).ok_or_else(|| spans(file_size))?;
            if slot.get().is_none() {
                let bytes = storage.read_range(self.file.path(), start..end)?;
                if bytes.len() as u64 != end - start {
                    return Err(spans(start + bytes.len() as u64));
                }
                let _ = slot.set(bytes.into());
            }
            let bytes = slot.get().ok_or_else(|| spans(file_size))?;
            return Ok((start, bytes));
        }
        let bytes = self.file.bytes();
        if start > end || end > bytes.len() as u64 {
            return Err(spans(bytes.len() as u64));
        }
        Ok((start, &bytes[start as usize..end as usize]))
    }
}

/// A tile's byte range in a ranged file not fetched yet, and the slot it
/// goes in.
pub(crate) type Wanted<'a> = (
    PathBuf,
    std::ops::Range<u64>,
    &'a std::sync::OnceLock<crate::storage::Piece>,
);

impl TileFile {
    /// Tile `t`'s range and slot, if the file is ranged and the tile not
    /// fetched yet (a range that makes no sense is left to [`TileFile::raw`]
    /// to refuse).
    fn missing(&self, offsets: &[u64], t: usize, file_size: u64) -> Option<Wanted<'_>> {
        let (_, slots) = self.ranged.as_ref()?;
        let slot = slots.get(t).filter(|s| s.get().is_none())?;
        let start = *offsets.get(t)?;
        let end = offsets.get(t + 1).copied().unwrap_or(file_size);
        (start < end).then(|| (self.file.path().to_path_buf(), start..end, slot))
    }

    /// Forgets tile `t` if fetched (ranged files).
    fn release_tile(&mut self, t: usize) {
        if let Some((_, slots)) = &mut self.ranged {
            slots.get_mut(t).map(std::sync::OnceLock::take);
        }
    }
}

/// Items of `sizes` bytes, in order, in groups (first, end) of at most
/// `ahead` bytes, at least one item each: what a read from a ranged
/// storage fetches at once.
pub(crate) fn groups_of(sizes: impl IntoIterator<Item = u64>, ahead: u64) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    let mut bytes = 0u64;
    for (k, b) in sizes.into_iter().enumerate() {
        match groups.last_mut() {
            Some(g) if bytes.saturating_add(b) <= ahead => {
                g.1 = k + 1;
                bytes = bytes.saturating_add(b);
            }
            _ => {
                groups.push((k, k + 1));
                bytes = b;
            }
        }
    }
    groups
}

/// Runs `work` (decoding one group) while `fetch` (fetching the next
/// group, if there is one) runs on a thread of its own; `work`'s error
/// first, then the fetch's (a panic in the fetch goes on).
pub(crate) fn while_fetching<T>(
    fetch: Option<impl FnOnce() -> Result<()> + Send>,
    work: impl FnOnce() -> Result<T>,
) -> Result<T> {
    let (fetched, done) = std::thread::scope(|sc| {
        let ahead = fetch.map(|f| sc.spawn(f));
        let done = work();
        (ahead.map(|h| h.join()), done)
    });
    let done = done?;
    if let Some(f) = fetched {
        f.unwrap_or_else(|p| std::panic::resume_unwind(p))?;
    }
    Ok(done)
}

/// Fetches the tiles `wanted` (a field's tiles, a tile number) that are
/// not fetched yet, from a ranged storage, with one
/// [`crate::storage::Storage::read_ranges`] (which merges near ranges and
/// issues them concurrently); every file of each tile (values, var data,
/// validity). Nothing for local files. A range that comes back short is
/// left unfetched, for the tile's own read to refuse with its error.
pub(crate) fn prefetch(wanted: &[(&FieldTiles, usize)]) -> Result<()> {
    let (storage, want) = missing(wanted);
    let Some(storage) = storage.filter(|_| !want.is_empty()) else {
        return Ok(());
    };
    let requests: Vec<_> = want
        .iter()
        .map(|(p, r, _)| (p.clone(), r.clone()))
        .collect();
    for (w, bytes) in want.iter().zip(storage.read_pieces(&requests)?) {
        fetched(w, bytes);
    }
    Ok(())
}

/// What [`prefetch`] would fetch of the tiles `wanted`: their storage (the
/// first ranged one; `None` for local files) and every file's range of
/// each tile not fetched yet, once each, for a caller that fetches them
/// with other ranges and hands each range's bytes to [`fetched`].
pub(crate) fn missing<'a>(
    wanted: &[(&'a FieldTiles, usize)],
) -> (Option<crate::storage::StorageRef>, Vec<Wanted<'a>>) {
    let mut storage = None;
    let mut want: Vec<Wanted<'a>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (ft, t) in wanted {
        let Some((s, _)) = &ft.fixed.ranged else {
            continue;
        };
        storage.get_or_insert_with(|| s.clone());
        for w in ft.missing(*t) {
            if seen.insert(w.2 as *const _ as usize) {
                want.push(w);
            }
        }
    }
    (storage, want)
}

/// Keeps `bytes` as the fetched bytes of the range `w` (from [`missing`]);
/// a range that came back short is left unfetched, for the tile's own read
/// to refuse with its error.
pub(crate) fn fetched(w: &Wanted<'_>, bytes: crate::storage::Piece) {
    let (_, r, slot) = w;
    if bytes.len() as u64 == r.end - r.start {
        let _ = slot.set(bytes);
    }
}

/// Where the tiles of a field sit: per data file (fixed, var, validity) the
/// tile offsets and the file size. Current footers point at a generic tile
/// per list; the legacy metadata of versions 1 and 2 holds the lists inline
/// (tile offsets for the A attributes and `__coords`, var lists for the
/// attributes, no validity: `FragmentMetadata::load_v1_v2`).
struct TileLists {
    fixed: (Vec<u64>, u64),
    var: Option<(Vec<u64>, u64)>,
    validity: Option<(Vec<u64>, u64)>,
}

fn tile_lists(
    frag: &Fragment,
    idx: usize,
    var: bool,
    nullable: bool,
    opts: &ReadOptions,
) -> Result<TileLists> {
    let missing = |what: &str| {
        Error::decode(
            frag.metadata_path(),
            0,
            "FragmentFooter",
            what,
            format!("has no entry for field {idx}"),
        )
    };
    match &frag.metadata {
        Metadata::Footer(f) => {
            let list = |offsets: &[u64], sizes: &[u64], what: &str| -> Result<(Vec<u64>, u64)> {
                let off = offsets.get(idx).copied().ok_or_else(|| missing(what))?;
                let size = sizes.get(idx).copied().unwrap_or(0);
                Ok((frag.generic_tile_offsets(off, opts)?.values, size))
            };
            Ok(TileLists {
                fixed: list(&f.tile_offsets, &f.file_sizes, "tile_offsets")?,
                var: var
                    .then(|| list(&f.tile_var_offsets, &f.file_var_sizes, "tile_var_offsets"))
                    .transpose()?,
                validity: nullable
                    .then(|| {
                        list(
                            f.tile_validity_offsets.as_deref().unwrap_or(&[]),
                            f.file_validity_sizes.as_deref().unwrap_or(&[]),
                            "tile_validity_offsets",
                        )
                    })
                    .transpose()?,
            })
        }
        Metadata::Legacy(l) => {
            let list = |lists: &[TileOffsets], sizes: &[u64], what: &str| {
                let offsets = lists.get(idx).ok_or_else(|| missing(what))?;
                Ok::<_, Error>((offsets.values.clone(), sizes.get(idx).copied().unwrap_or(0)))
            };
            if nullable {
                return Err(Error::decode(
                    frag.metadata_path(),
                    0,
                    "LegacyFragmentMetadata",
                    "",
                    "version 1-2 fragments have no validity tiles",
                ));
            }
            Ok(TileLists {
                fixed: list(&l.tile_offsets.lists, &l.file_sizes, "tile_offsets")?,
                var: var
                    .then(|| {
                        list(
                            &l.tile_var_offsets.lists,
                            &l.file_var_sizes,
                            "tile_var_offsets",
                        )
                    })
                    .transpose()?,
                validity: None,
            })
        }
    }
}

fn to_error(path: &std::path::Path, e: crate::filters::FilterError) -> Error {
    Error::Filter {
        file: path.to_path_buf(),
        offset: 0,
        chunk: 0,
        filter: e.filter,
        what: e.what,
    }
}

/// One tile of a field, unfiltered.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct FieldTile {
    /// The fixed-size tile (the offsets tile of a var-sized field).
    pub fixed: Vec<u8>,
    /// The var-sized data tile.
    pub var: Option<Vec<u8>>,
    /// Cell starts within this tile's var data (from the offsets tile, or
    /// recovered by RLE/dictionary when they folded the offsets in).
    pub var_offsets: Option<Vec<u64>>,
    /// The validity tile.
    pub validity: Option<Vec<u8>>,
}

/// One tile of a field as stored in its files (fixed, var, validity).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct StoredTile {
    /// The fixed-size values (or the offsets of var-sized cells), unfiltered.
    pub fixed: Vec<u8>,
    /// The var-sized values, unfiltered.
    pub var: Option<Vec<u8>>,
    /// One validity byte per cell (nullable fields).
    pub validity: Option<Vec<u8>>,
}

/// Counts of what a read decoded, for tests and `--stats`.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ReadStats {
    /// Tiles (of any field) whose chunks were decoded, whole or in part.
    pub tiles_decoded: std::sync::atomic::AtomicU64,
    /// Unfiltered bytes produced from tiles.
    pub bytes_decoded: std::sync::atomic::AtomicU64,
    /// Chunks of tiles read in part (only the cells a sparse read keeps)
    /// that were left undecoded.
    pub chunks_skipped: std::sync::atomic::AtomicU64,
}

impl ReadStats {
    /// Records one tile of `bytes` unfiltered bytes.
    pub fn tile(&self, bytes: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.tiles_decoded.fetch_add(1, Relaxed);
        self.bytes_decoded.fetch_add(bytes, Relaxed);
    }

    /// Chunks left undecoded so far by reads of tiles in part.
    pub fn chunks_skipped(&self) -> u64 {
        self.chunks_skipped
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Tiles decoded so far.
    pub fn tiles(&self) -> u64 {
        self.tiles_decoded
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Where a tile of a ranged storage is fetched from: the storage, the
/// object and the byte range (not empty).
pub(crate) type Request<'a> = (
    &'a crate::storage::StorageRef,
    PathBuf,
    std::ops::Range<u64>,
);

/// The [`Request`] of tile `t` of `tf` (its tile offsets and file size
/// `list`); `None` for a local file.
fn request<'a>(tf: &'a TileFile, list: &(Vec<u64>, u64), t: usize) -> Option<Result<Request<'a>>> {
    let (storage, _) = tf.ranged.as_ref()?;
    let (offsets, size) = list;
    Some(tf.span(offsets, t, *size).and_then(|(range, spans)| {
        if range.start >= range.end {
            return Err(spans(*size));
        }
        Ok((storage, tf.file.path().to_path_buf(), range))
    }))
}

/// The files, tile lists and pipelines of one field of one fragment,
/// ready to read any tile (from several threads at once).
pub(crate) struct FieldTiles {
    lists: TileLists,
    pub(crate) pipes: FieldPipelines,
    fixed: TileFile,
    var: Option<TileFile>,
    validity: Option<TileFile>,
    pub(crate) max: u64,
}

impl FieldTiles {
    pub(crate) fn open(frag: &Fragment, field: &FieldInfo, opts: &ReadOptions) -> Result<Self> {
        let var = field.cell_val_num.is_none();
        let lists = tile_lists(frag, field.idx, var, field.nullable, opts)?;
        let fixed_file = data_file(frag, field, DataFile::Fixed);
        let pipes = FieldPipelines::for_fragment(frag, field, opts.encryption_key)
            .map_err(|e| to_error(&fixed_file, e))?;
        let var = match (&pipes.offsets, &lists.var) {
            (Some(_), Some(v)) => Some(TileFile::open(
                frag,
                data_file(frag, field, DataFile::Var),
                v.0.len(),
            )?),
            _ => None,
        };
        let validity = match (&pipes.validity, &lists.validity) {
            (Some(_), Some(v)) => Some(TileFile::open(
                frag,
                data_file(frag, field, DataFile::Validity),
                v.0.len(),
            )?),
            _ => None,
        };
        Ok(FieldTiles {
            fixed: TileFile::open(frag, fixed_file, lists.fixed.0.len())?,
            lists,
            pipes,
            var,
            validity,
            max: opts.max_tile_bytes(),
        })
    }

    pub(crate) fn count(&self) -> usize {
        self.lists.fixed.0.len()
    }

    /// For a field of a ranged storage: the bytes of tiles a read fetches
    /// ahead of decoding ([`crate::storage::Storage::read_ahead`]); `None`
    /// for local files.
    pub(crate) fn read_ahead(&self) -> Option<u64> {
        self.fixed.ranged.as_ref().map(|(s, _)| s.read_ahead())
    }

    /// The files of tile `t` (values, var data, validity) not fetched yet.
    fn missing(&self, t: usize) -> Vec<Wanted<'_>> {
        let files = [
            (Some(&self.fixed), Some(&self.lists.fixed)),
            (self.var.as_ref(), self.lists.var.as_ref()),
            (self.validity.as_ref(), self.lists.validity.as_ref()),
        ];
        files
            .into_iter()
            .filter_map(|(tf, list)| {
                let (offsets, size) = list?;
                tf?.missing(offsets, t, *size)
            })
            .collect()
    }

    /// The stored bytes of tile `t` in every file of the field.
    pub(crate) fn stored_bytes(&self, t: usize) -> u64 {
        let lists = [
            Some(&self.lists.fixed),
            self.lists.var.as_ref(),
            self.lists.validity.as_ref(),
        ];
        lists
            .into_iter()
            .flatten()
            .filter_map(|(o, size)| {
                let start = *o.get(t)?;
                Some(o.get(t + 1).copied().unwrap_or(*size).saturating_sub(start))
            })
            .sum()
    }

    /// Forgets tile `t`, if fetched from a ranged storage.
    pub(crate) fn release_tile(&mut self, t: usize) {
        self.fixed.release_tile(t);
        for f in [&mut self.var, &mut self.validity].into_iter().flatten() {
            f.release_tile(t);
        }
    }

    /// For a field fetched from a ranged storage: that storage, and where
    /// the fixed-size tile `t` is stored (its object and byte range, not
    /// empty); `None` for local files.
    pub(crate) fn fixed_request(&self, t: usize) -> Option<Result<Request<'_>>> {
        request(&self.fixed, &self.lists.fixed, t)
    }

    /// [`FieldTiles::fixed_request`] for the validity tile `t` of a
    /// nullable field; `None` also where the fragment has no validity
    /// tiles.
    pub(crate) fn validity_request(&self, t: usize) -> Option<Result<Request<'_>>> {
        request(self.validity.as_ref()?, self.lists.validity.as_ref()?, t)
    }

    /// The fixed-size tile `t` (the offsets tile of a var-sized field) as
    /// a view of its file, nothing decoded.
    pub(crate) fn fixed_view(&self, t: usize) -> Result<TileView<'_>> {
        let (offsets, size) = &self.lists.fixed;
        let (at, raw) = self.fixed.raw(offsets, t, *size)?;
        let pipe = self.pipes.offsets.as_ref().unwrap_or(&self.pipes.data);
        TileView::parse(&self.fixed.file, at, raw, None, self.max, pipe.is_empty())
    }

    /// The validity tile `t` of a nullable field as a view of its file
    /// (`None`: the fragment has no validity tile there).
    pub(crate) fn validity_view(&self, t: usize) -> Result<Option<TileView<'_>>> {
        let (Some(tf), Some(pipe), Some((offsets, size))) =
            (&self.validity, &self.pipes.validity, &self.lists.validity)
        else {
            return Ok(None);
        };
        if t >= offsets.len() {
            return Ok(None);
        }
        let (at, raw) = tf.raw(offsets, t, *size)?;
        TileView::parse(&tf.file, at, raw, None, self.max, pipe.is_empty()).map(Some)
    }

    /// The cells `runs` (ranges of cell numbers, ascending, not
    /// overlapping) of tile `t` of a fixed-size field of `n` cells of
    /// `cell` bytes, with their validity when the field has validity
    /// tiles: only the chunks that hold them are decoded (chunks decode
    /// independently), only their bytes copied. Also returns how many of
    /// the tile's chunks (values and validity) were left undecoded.
    pub(crate) fn fixed_cells(
        &self,
        t: usize,
        cell: u64,
        n: usize,
        runs: &[std::ops::Range<usize>],
    ) -> Result<(Vec<u8>, Option<Vec<u8>>, u64)> {
        use crate::tile::ChunkCache;
        let kept: usize = runs.iter().map(|r| r.len()).sum();
        let view = self.fixed_view(t)?;
        let file = self.fixed.file.path();
        if view.len() != n as u64 * cell {
            return Err(Error::decode(
                file,
                0,
                "Tile",
                "",
                format!(
                    "tile {t} holds {} bytes, {n} cells of {cell} bytes take {}",
                    view.len(),
                    n as u64 * cell
                ),
            ));
        }
        // The bytes of the runs of `runs` in a tile of cells of `w` bytes.
        let pick = |view: &TileView<'_>, pipe: &crate::filters::Pipeline, w: u64| {
            let mut out = vec![0u8; kept * w as usize];
            let mut cache = ChunkCache::default();
            let mut at = 0usize;
            let mut touched = 0u64;
            let mut last = None;
            for r in runs {
                let bytes = r.start as u64 * w..r.end as u64 * w;
                let chunks = view.chunks_for(bytes.clone());
                touched += chunks.clone().filter(|c| Some(*c) != last).count() as u64;
                last = chunks.clone().last().or(last);
                let len = (bytes.end - bytes.start) as usize;
                view.read_range_into(pipe, self.max, bytes, &mut out[at..at + len], &mut cache)?;
                at += len;
            }
            let skipped = (view.chunks().len() as u64).saturating_sub(touched);
            Ok::<_, Error>((out, skipped))
        };
        let (values, mut skipped) = pick(&view, &self.pipes.data, cell)?;
        let validity = match (self.validity_view(t)?, &self.pipes.validity) {
            (Some(v), Some(pipe)) => {
                if v.len() != n as u64 {
                    return Err(Error::decode(
                        file,
                        0,
                        "Tile",
                        "validity",
                        format!("{} validity values for {n} cells", v.len()),
                    ));
                }
                let (bytes, s) = pick(&v, pipe, 1)?;
                skipped += s;
                Some(bytes)
            }
            _ => None,
        };
        Ok((values, validity, skipped))
    }

    /// Tile `t` as stored (a copy of its bytes in each file).
    pub(crate) fn stored(&self, t: usize) -> Result<StoredTile> {
        let (fo, fs) = &self.lists.fixed;
        let raw = |tf: &TileFile, offsets: &[u64], size: u64| -> Result<Vec<u8>> {
            Ok(tf.raw(offsets, t, size)?.1.to_vec())
        };
        Ok(StoredTile {
            fixed: raw(&self.fixed, fo, *fs)?,
            var: match (&self.var, &self.lists.var) {
                (Some(tf), Some((o, s))) => Some(raw(tf, o, *s)?),
                _ => None,
            },
            validity: match (&self.validity, &self.lists.validity) {
                (Some(tf), Some((o, s))) if t < o.len() => Some(raw(tf, o, *s)?),
                _ => None,
            },
        })
    }

    /// Tile `t`, unfiltered.
    pub(crate) fn tile(&self, t: usize) -> Result<FieldTile> {
        let max = self.max;
        let (fixed_offsets, fixed_size) = &self.lists.fixed;
        let (at, raw) = self.fixed.raw(fixed_offsets, t, *fixed_size)?;
        let mut tile = FieldTile::default();
        match (&self.var, &self.pipes.offsets, &self.lists.var) {
            (Some(var_tf), Some(off_pipe), Some((var_offsets, var_size))) => {
                let plain = unfilter_tile(&self.fixed.file, at, raw, None, max, off_pipe, None)?;
                tile.fixed = plain.into_owned();
                let (vat, vraw) = var_tf.raw(var_offsets, t, *var_size)?;
                let recovered = RefCell::new(Vec::new());
                let folded = self.pipes.offsets_in_data.then_some(&recovered);
                let data: Cow<[u8]> =
                    unfilter_tile(&var_tf.file, vat, vraw, None, max, &self.pipes.data, folded)?;
                tile.var = Some(data.into_owned());
                tile.var_offsets = Some(if self.pipes.offsets_in_data {
                    recovered.into_inner()
                } else {
                    tile.fixed
                        .chunks_exact(8)
                        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
                        .collect()
                });
            }
            _ => {
                let plain =
                    unfilter_tile(&self.fixed.file, at, raw, None, max, &self.pipes.data, None)?;
                tile.fixed = plain.into_owned();
            }
        }
        if let (Some(tf), Some(pipe), Some((val_offsets, size))) =
            (&self.validity, &self.pipes.validity, &self.lists.validity)
        {
            if t < val_offsets.len() {
                let (at, raw) = tf.raw(val_offsets, t, *size)?;
                let plain = unfilter_tile(&tf.file, at, raw, None, max, pipe, None)?;
                tile.validity = Some(plain.into_owned());
            }
        }
        Ok(tile)
    }
}

/// Reads every tile of `field` in `frag` as stored (copies of the files'
/// bytes, for tests that re-encode tiles and compare).
pub fn read_stored_tiles(
    frag: &Fragment,
    field: &FieldInfo,
    opts: &ReadOptions,
) -> Result<Vec<StoredTile>> {
    let tiles = FieldTiles::open(frag, field, opts)?;
    (0..tiles.count()).map(|t| tiles.stored(t)).collect()
}

/// Reads every tile of `field` in `frag`, unfiltered, decoding tiles in
/// parallel.
pub fn read_field_tiles(
    frag: &Fragment,
    field: &FieldInfo,
    opts: &ReadOptions,
) -> Result<Vec<FieldTile>> {
    use rayon::prelude::*;
    let tiles = FieldTiles::open(frag, field, opts)?;
    (0..tiles.count())
        .into_par_iter()
        .map(|t| tiles.tile(t))
        .collect()
}

/// Reads every tile of `field` in `frag` and reverses its filters.
pub fn read_field(frag: &Fragment, field: &FieldInfo, opts: &ReadOptions) -> Result<FieldData> {
    let mut out = FieldData::default();
    let var = field.cell_val_num.is_none();
    let mut offsets = Vec::new();
    let mut validity = Vec::new();
    for tile in read_field_tiles(frag, field, opts)? {
        if var {
            let base = out.values.len() as u64;
            let tile_offsets = tile.var_offsets.unwrap_or_default();
            out.tile_cells.push(tile_offsets.len() as u64);
            // Saturating: a damaged offset past the values is refused by the
            // checks of the cells (`read_checked`), not wrapped into range.
            offsets.extend(tile_offsets.iter().map(|o| o.saturating_add(base)));
            out.values.extend_from_slice(&tile.var.unwrap_or_default());
        } else {
            out.tile_cells
                .push(tile.fixed.len() as u64 / field.cell_size().max(1));
            out.values.extend_from_slice(&tile.fixed);
        }
        if let Some(v) = tile.validity {
            validity.extend_from_slice(&v);
        }
    }
    if var {
        out.offsets = Some(offsets);
    }
    if field.nullable {
        out.validity = Some(validity);
    }
    Ok(out)
}

/// The coordinates of a fragment before version 5, one `FieldData` per
/// dimension, from its zipped `__coords.tdb`. Each tile is stored with the
/// dimensions one after the other (all of the first dimension's values, then
/// the second's...), except in version 1 without a compressor, where cells
/// are stored zipped; the engine zips them after unfiltering
/// (`ReaderBase::zip_tile_coordinates`, `Tile::zip_coordinates`).
pub fn read_zipped_coords(frag: &Fragment, opts: &ReadOptions) -> Result<Vec<FieldData>> {
    let schema = &frag.schema;
    let field = FieldInfo::zipped_coords(schema).ok_or_else(|| Error::Unsupported {
        path: frag.path.clone(),
        what: "zipped coordinates of a dimension datatype this crate does not know".into(),
    })?;
    let dim_num = schema.domain.dimensions.len();
    let width = field.datatype.size() as usize;
    let cell = width * dim_num;
    // `CompressionFilter`s: GZIP, ZSTD, LZ4, RLE, BZIP2, DOUBLE_DELTA,
    // DICTIONARY, DELTA.
    let compressed = field.filters.iter().any(|f| {
        use crate::format::FilterType as F;
        matches!(
            f.filter_type,
            F::Gzip
                | F::Zstd
                | F::Lz4
                | F::Rle
                | F::Bzip2
                | F::DoubleDelta
                | F::Dictionary
                | F::Delta
        )
    });
    let stored_zipped = !has_split_coordinate_tiles(frag.version()) && !compressed;
    let mut out = vec![FieldData::default(); dim_num];
    for tile in read_field_tiles(frag, &field, opts)? {
        let data = &tile.fixed;
        if data.len() % cell != 0 {
            return Err(Error::decode(
                &data_file(frag, &field, DataFile::Fixed),
                0,
                "Tile",
                crate::format::hierarchy::COORDS,
                format!(
                    "a tile of {} bytes for cells of {cell} bytes ({dim_num} coordinates)",
                    data.len()
                ),
            ));
        }
        let n = data.len() / cell;
        for (d, dim) in out.iter_mut().enumerate() {
            dim.tile_cells.push(n as u64);
            if stored_zipped {
                for i in 0..n {
                    let at = i * cell + d * width;
                    dim.values.extend_from_slice(&data[at..at + width]);
                }
            } else {
                dim.values
                    .extend_from_slice(&data[d * n * width..(d + 1) * n * width]);
            }
        }
    }
    Ok(out)
}

/// What a scan of one field found: cells, bytes and a checksum of the values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct ScanTotals {
    /// Cells read.
    pub cells: u64,
    /// Bytes of values read.
    pub bytes: u64,
    /// A checksum of the values read.
    pub checksum: u64,
}

impl std::ops::Add for ScanTotals {
    type Output = ScanTotals;

    fn add(self, o: ScanTotals) -> ScanTotals {
        ScanTotals {
            cells: self.cells + o.cells,
            bytes: self.bytes + o.bytes,
            checksum: self.checksum.wrapping_add(o.checksum),
        }
    }
}

/// A fast checksum of a tile's values (four lanes of 64-bit words), mixed
/// with the tile's index so that tiles in another order sum differently.
pub fn tile_checksum(index: u64, bytes: &[u8]) -> u64 {
    let mut lanes = [
        0x9e37_79b9_7f4a_7c15u64,
        0xc2b2_ae3d_27d4_eb4f,
        0x1656_67b1_9e37_79f9,
        index,
    ];
    let mut words = bytes.chunks_exact(32);
    for block in &mut words {
        for (l, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
            *l = l.rotate_left(7) ^ u64::from_le_bytes(w.try_into().unwrap());
        }
    }
    for (i, b) in words.remainder().iter().enumerate() {
        lanes[i % 4] = lanes[i % 4].rotate_left(3) ^ u64::from(*b);
    }
    lanes.iter().fold(bytes.len() as u64, |h, l| {
        (h ^ l).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads every tile of a field through its pipeline, in parallel, keeping
/// one decoded tile per thread; returns totals (the `scan` probe). Unfiltered
/// single-chunk tiles are hashed straight from the mapping.
pub fn scan_field(frag: &Fragment, field: &FieldInfo, opts: &ReadOptions) -> Result<ScanTotals> {
    use rayon::prelude::*;
    if field.cell_val_num.is_none() || field.nullable {
        // Var-sized and nullable fields: through the general tile reader,
        // tiles in parallel, each dropped once counted.
        let tiles = FieldTiles::open(frag, field, opts)?;
        return (0..tiles.count())
            .into_par_iter()
            .map(|i| -> Result<ScanTotals> {
                let tile = tiles.tile(i)?;
                let data = tile.var.as_ref().unwrap_or(&tile.fixed);
                let cells = match &tile.var_offsets {
                    Some(o) => o.len() as u64,
                    None => data.len() as u64 / field.cell_size().max(1),
                };
                Ok(ScanTotals {
                    cells,
                    bytes: data.len() as u64,
                    checksum: tile_checksum(i as u64, data),
                })
            })
            .try_reduce(ScanTotals::default, |a, b| Ok(a + b));
    }
    let (offsets, size) = tile_lists(frag, field.idx, false, false, opts)?.fixed;
    let file = data_file(frag, field, DataFile::Fixed);
    let pipes = FieldPipelines::for_fragment(frag, field, opts.encryption_key)
        .map_err(|e| to_error(&file, e))?;
    let tf = TileFile::open(frag, file, offsets.len())?;
    let max = opts.max_tile_bytes();
    let cell = field.cell_size().max(1);
    (0..offsets.len())
        .into_par_iter()
        .map(|t| -> Result<ScanTotals> {
            let (at, raw) = tf.raw(&offsets, t, size)?;
            let data = unfilter_tile(&tf.file, at, raw, None, max, &pipes.data, None)?;
            Ok(ScanTotals {
                cells: data.len() as u64 / cell,
                bytes: data.len() as u64,
                checksum: tile_checksum(t as u64, &data),
            })
        })
        .try_reduce(ScanTotals::default, |a, b| Ok(a + b))
}
