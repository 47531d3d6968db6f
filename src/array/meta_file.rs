//! The bytes of a fragment's `__fragment_metadata.tdb`: the whole file
//! (a mapped local file, an object in memory), or, from a storage that
//! prefers ranged reads ([`crate::storage::Storage::ranged`]: object
//! stores), byte ranges fetched when first needed and kept: the footer with
//! the file's tail, then each generic tile by the byte range the footer's
//! offsets give it (format_spec/fragment.md#fragment-metadata-file), near
//! ones in one request.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::storage::{MappedFile, StorageRef};
use crate::tile::{read_generic_tile_in, GenericTile};
use crate::ReadOptions;

/// Ranges of generic tiles closer than this are fetched in one request
/// (the bytes between cost less than another request's latency).
pub(crate) const COALESCE_GAP: u64 = 4 * 1024;

/// Bytes of a metadata file from file offset `base` on.
pub(crate) struct Window<'a> {
    held: Held<'a>,
    base: u64,
}

enum Held<'a> {
    File(&'a [u8]),
    Piece(Arc<[u8]>),
}

impl Window<'_> {
    /// The bytes at hand.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.held {
            Held::File(b) => b,
            Held::Piece(p) => p,
        }
    }

    /// The file offset of the first byte at hand.
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// The bytes `range` (file offsets) of the window; `None` when they are
    /// not all at hand.
    pub(crate) fn get(&self, range: Range<u64>) -> Option<&[u8]> {
        let start = usize::try_from(range.start.checked_sub(self.base)?).ok()?;
        let end = usize::try_from(range.end.checked_sub(self.base)?).ok()?;
        self.bytes().get(start..end)
    }
}

/// A fragment metadata file, whole or fetched by ranges.
pub(crate) enum MetaFile {
    /// Every byte of the file (tiles borrow from it; no copy).
    Whole(MappedFile),
    /// Byte ranges of an object, fetched on first use.
    Ranged(RangedMeta),
}

/// The byte ranges of a metadata object fetched so far.
pub(crate) struct RangedMeta {
    /// An empty stand-in naming the object (errors name it).
    name: MappedFile,
    /// The object's size (from its listing: an upper bound for every offset
    /// and length read from it).
    size: u64,
    storage: StorageRef,
    /// Fetched ranges by their first byte's offset. Held while fetching, so
    /// that a range is fetched once.
    pieces: Mutex<BTreeMap<u64, Arc<[u8]>>>,
    /// Where the generic tiles start (the footer's offsets) and where the
    /// last one ends (the footer, else the object's end), sorted: a tile
    /// ends where the next one starts.
    bounds: Vec<u64>,
}

impl MetaFile {
    /// The object at `path` of `storage`, `size` bytes long, nothing
    /// fetched yet but `tail` (its last bytes, when given).
    pub(crate) fn ranged(
        storage: StorageRef,
        path: &Path,
        size: u64,
        tail: Option<Vec<u8>>,
    ) -> MetaFile {
        let mut pieces = BTreeMap::new();
        if let Some(t) = tail.filter(|t| t.len() as u64 <= size) {
            pieces.insert(size - t.len() as u64, Arc::from(t));
        }
        MetaFile::Ranged(RangedMeta {
            name: MappedFile::from_vec(path, Vec::new()),
            size,
            storage,
            pieces: Mutex::new(pieces),
            bounds: Vec::new(),
        })
    }

    /// The file, as named in errors.
    pub(crate) fn name(&self) -> &MappedFile {
        match self {
            MetaFile::Whole(f) => f,
            MetaFile::Ranged(r) => &r.name,
        }
    }

    /// The file's path.
    pub(crate) fn path(&self) -> &Path {
        self.name().path()
    }

    /// The file's size in bytes.
    pub(crate) fn size(&self) -> u64 {
        match self {
            MetaFile::Whole(f) => f.len(),
            MetaFile::Ranged(r) => r.size,
        }
    }

    /// Says where the generic tiles start (any order; duplicates allowed)
    /// and where the last one ends, once the footer is read.
    pub(crate) fn set_bounds(&mut self, mut bounds: Vec<u64>) {
        if let MetaFile::Ranged(r) = self {
            bounds.sort_unstable();
            bounds.dedup();
            r.bounds = bounds;
        }
    }

    /// A window holding the bytes `range` of the file (fetched when not
    /// yet at hand). A range past the file's end is an error naming
    /// `table` and `field`.
    pub(crate) fn window(&self, range: Range<u64>, table: &str, field: &str) -> Result<Window<'_>> {
        if range.start > range.end || range.end > self.size() {
            return Err(Error::decode(
                self.path(),
                range.start,
                table,
                field,
                format!(
                    "bytes {}..{} of a {}-byte file",
                    range.start,
                    range.end,
                    self.size()
                ),
            ));
        }
        match self {
            MetaFile::Whole(f) => Ok(Window {
                held: Held::File(f.bytes()),
                base: 0,
            }),
            MetaFile::Ranged(r) => {
                let (base, piece) = r.fetch(range, table, field)?;
                Ok(Window {
                    held: Held::Piece(piece),
                    base,
                })
            }
        }
    }

    /// The byte range of the generic tile at `offset`: to the next tile's
    /// start (or the footer's, or the file's end).
    fn tile_range(&self, offset: u64) -> Range<u64> {
        let end = match self {
            MetaFile::Whole(f) => f.len(),
            MetaFile::Ranged(r) => {
                let i = r.bounds.partition_point(|b| *b <= offset);
                r.bounds.get(i).copied().unwrap_or(r.size).min(r.size)
            }
        };
        offset..end.max(offset)
    }

    /// Reads the generic tile at `offset`, unfiltered, and hands it to `f`.
    pub(crate) fn generic_tile<R>(
        &self,
        offset: u64,
        opts: &ReadOptions,
        f: impl FnOnce(&GenericTile<'_>) -> Result<R>,
    ) -> Result<R> {
        let MetaFile::Ranged(_) = self else {
            return f(&crate::tile::read_generic_tile(self.name(), offset, opts)?);
        };
        if offset >= self.size() {
            return Err(Error::decode(
                self.path(),
                offset,
                "GenericTileHeader",
                "",
                "offset past the end of the file",
            ));
        }
        let w = self.window(self.tile_range(offset), "GenericTileHeader", "")?;
        let tile = read_generic_tile_in(self.name(), w.bytes(), w.base(), offset, opts)?;
        f(&tile)
    }

    /// Fetches the generic tiles at `offsets` not yet at hand, the ranges
    /// less than [`COALESCE_GAP`] apart in one request, the requests
    /// concurrently. Nothing to do for a whole file. Offsets past the end
    /// are left for the read of that tile to report.
    pub(crate) fn prefetch(&self, offsets: &[u64]) -> Result<()> {
        let MetaFile::Ranged(r) = self else {
            return Ok(());
        };
        let mut pieces = r.pieces.lock().unwrap_or_else(|e| e.into_inner());
        let mut ranges: Vec<Range<u64>> = offsets
            .iter()
            .filter(|o| **o < r.size)
            .map(|o| self.tile_range(*o))
            .filter(|t| covering(&pieces, t).is_none())
            .collect();
        ranges.sort_unstable_by_key(|t| t.start);
        let mut merged: Vec<Range<u64>> = Vec::new();
        for t in ranges {
            match merged.last_mut() {
                Some(m) if t.start <= m.end.saturating_add(COALESCE_GAP) => {
                    m.end = m.end.max(t.end)
                }
                _ => merged.push(t),
            }
        }
        if merged.is_empty() {
            return Ok(());
        }
        let requests: Vec<_> = merged
            .iter()
            .map(|m| (r.name.path().to_path_buf(), m.clone()))
            .collect();
        let got = r.storage.read_ranges(&requests)?;
        for (m, bytes) in merged.into_iter().zip(got) {
            r.check(&m, &bytes, "GenericTileHeader", "")?;
            pieces.insert(m.start, Arc::from(bytes));
        }
        Ok(())
    }
}

/// The piece of `pieces` holding all of `range`, if any.
fn covering(pieces: &BTreeMap<u64, Arc<[u8]>>, range: &Range<u64>) -> Option<(u64, Arc<[u8]>)> {
    pieces
        .range(..=range.start)
        .rev()
        .find(|(s, p)| **s + p.len() as u64 >= range.end)
        .map(|(s, p)| (*s, p.clone()))
}

impl RangedMeta {
    /// A piece holding `range`: one at hand, else fetched (only the part
    /// before a piece that reaches past its end: a footer longer than the
    /// tail first fetched).
    fn fetch(&self, range: Range<u64>, table: &str, field: &str) -> Result<(u64, Arc<[u8]>)> {
        let mut pieces = self.pieces.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = covering(&pieces, &range) {
            return Ok(p);
        }
        let after = pieces
            .range(range.start..range.end)
            .next()
            .filter(|(s, p)| **s + p.len() as u64 >= range.end)
            .map(|(s, p)| (*s, p.clone()));
        let want = range.start..after.as_ref().map_or(range.end, |(s, _)| *s);
        let mut bytes = self.storage.read_range(self.name.path(), want.clone())?;
        self.check(&want, &bytes, table, field)?;
        if let Some((_, p)) = after {
            bytes.extend_from_slice(&p);
        }
        let piece: Arc<[u8]> = Arc::from(bytes);
        pieces.insert(range.start, piece.clone());
        Ok((range.start, piece))
    }

    /// A fetched range must be as long as asked (the object may have
    /// changed since it was listed).
    fn check(&self, range: &Range<u64>, bytes: &[u8], table: &str, field: &str) -> Result<()> {
        if bytes.len() as u64 == range.end - range.start {
            return Ok(());
        }
        Err(Error::decode(
            self.name.path(),
            range.start,
            table,
            field,
            format!(
                "asked for bytes {}..{} of a {}-byte object, got {} bytes",
                range.start,
                range.end,
                self.size,
                bytes.len()
            ),
        ))
    }
}
