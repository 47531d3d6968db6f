//! The ranges an [`ObjectStorage`] keeps between reads: of metadata
//! objects ([`FetchOptions::metadata_cache`]) and small ranges of
//! fragments' data files ([`FetchOptions::tile_cache`]), objects TileDB
//! writes once and never changes. A kept range is used only while the
//! array's listing, taken afresh at each open, shows its object with the
//! size it had.

use std::path::Path;

use super::object::{FetchOptions, Kept, ObjectStorage};
use super::Piece;
use crate::format::hierarchy;

/// A range worth keeping: its object's key, the object's size in the
/// current listing, the range, and whether it is of a data file (kept
/// under [`FetchOptions::tile_cache`]) rather than metadata.
#[derive(Debug, Clone)]
pub(super) struct KeepId {
    key: String,
    size: u64,
    range: std::ops::Range<u64>,
    tile: bool,
}

impl Kept {
    /// Drops the oldest ranges until at most `budget` bytes are kept.
    pub(super) fn trim(&mut self, budget: u64) {
        while self.bytes > budget {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            self.remove(&old);
        }
    }

    fn remove(&mut self, id: &(String, u64, u64)) {
        if let Some((p, _)) = self.ranges.remove(id) {
            self.bytes -= p.len() as u64;
        }
    }
}

/// Whether the object `key` is one TileDB writes once and never changes,
/// and an open reads: a fragment's metadata, a schema or enumeration, a
/// consolidated fragment metadata file, an array metadata file (each named
/// with its timestamps and a UUID). Not the legacy `__array_schema.tdb`.
fn immutable_metadata(key: &str) -> bool {
    let mut parts = key.rsplit('/');
    let name = parts.next().unwrap_or_default();
    let folder = parts.next().unwrap_or_default();
    name == hierarchy::FRAGMENT_METADATA
        || [
            hierarchy::SCHEMA,
            hierarchy::ENUMERATIONS,
            hierarchy::FRAGMENT_META,
            hierarchy::META,
        ]
        .contains(&folder)
}

/// Whether the object `key` is a data file of a fragment in the
/// `__fragments` folder (a tile file of a field: written once, with the
/// fragment, before its commit).
fn fragment_data(key: &str) -> bool {
    let mut parts = key.rsplit('/');
    let name = parts.next().unwrap_or_default();
    let _fragment = parts.next();
    parts.next() == Some(hierarchy::FRAGMENTS)
        && name.ends_with(hierarchy::TDB)
        && name != hierarchy::FRAGMENT_METADATA
}

impl ObjectStorage {
    /// For a range of `path` worth keeping: of a metadata object
    /// ([`FetchOptions::metadata_cache`]), or a range of a fragment's data
    /// file at most [`FetchOptions::tile_cache_range`] long.
    /// `None` for a range not to keep. The whole object for `None`.
    pub(super) fn keepable(
        &self,
        path: &Path,
        range: Option<&std::ops::Range<u64>>,
    ) -> Option<KeepId> {
        let o = self.fetch_options();
        if o.metadata_cache == 0 && o.tile_cache == 0 {
            return None;
        }
        let key = self.key(path).ok()?;
        let (tile, limit) = if immutable_metadata(&key) {
            (false, o.metadata_cache)
        } else if fragment_data(&key) {
            (true, o.tile_cache_range.min(o.tile_cache))
        } else {
            return None;
        };
        // A range longer than the limit is not kept: refused before the
        // listing is looked up.
        if range.is_some_and(|r| r.end.saturating_sub(r.start) > limit) {
            return None;
        }
        let size = *self.cached(&key)?.1.get(&key)?;
        let range = range.cloned().unwrap_or(0..size);
        (range.start < range.end && range.end <= size && range.end - range.start <= limit)
            .then_some(KeepId {
                key,
                size,
                range,
                tile,
            })
    }

    fn kept_of(&self, tile: bool) -> std::sync::MutexGuard<'_, Kept> {
        let kept = if tile { &self.kept_tiles } else { &self.kept };
        kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept bytes of the range `k`, if its object's size is still the
    /// one it had (a kept range of an object that changed is dropped).
    pub(super) fn kept(&self, k: &KeepId) -> Option<Piece> {
        let mut kept = self.kept_of(k.tile);
        let id = (k.key.clone(), k.range.start, k.range.end);
        match kept.ranges.get(&id) {
            Some((piece, was)) if *was == k.size => Some(piece.clone()),
            Some(_) => {
                kept.remove(&id);
                kept.order.retain(|x| x != &id);
                None
            }
            None => None,
        }
    }

    /// Keeps `piece`, the whole of the range `k`, dropping the oldest kept
    /// ranges past the budget. A part of a larger buffer (a merged
    /// request's) is copied, so that the bytes kept are the bytes counted.
    pub(super) fn keep(&self, k: KeepId, piece: &Piece) {
        if piece.len() as u64 != k.range.end - k.range.start {
            return;
        }
        let piece = &if piece.range.len() == piece.buf.len() {
            piece.clone()
        } else {
            Piece::from(piece.to_vec())
        };
        let o = self.fetch_options();
        let budget = if k.tile {
            o.tile_cache
        } else {
            o.metadata_cache
        };
        let mut kept = self.kept_of(k.tile);
        let id = (k.key, k.range.start, k.range.end);
        if let Some((old, _)) = kept.ranges.insert(id.clone(), (piece.clone(), k.size)) {
            kept.bytes -= old.len() as u64;
        } else {
            kept.order.push_back(id);
        }
        kept.bytes += piece.len() as u64;
        kept.trim(budget);
    }

    /// Drops the kept ranges past the budgets of `o`.
    pub(super) fn trim_kept(&self, o: &FetchOptions) {
        self.kept_of(false).trim(o.metadata_cache);
        self.kept_of(true).trim(o.tile_cache);
    }
}

#[cfg(test)]
mod tests {
    use super::{fragment_data, immutable_metadata};

    #[test]
    fn kept_objects_are_metadata_and_fragments_data_files() {
        let frag = "arr/__fragments/__1_1_0123456789abcdef0123456789abcdef_22";
        assert!(fragment_data(&format!("{frag}/a0.tdb")));
        assert!(fragment_data(&format!("{frag}/d1_var.tdb")));
        // The fragment's metadata is kept as metadata, not as a tile.
        assert!(!fragment_data(&format!("{frag}/__fragment_metadata.tdb")));
        assert!(immutable_metadata(&format!(
            "{frag}/__fragment_metadata.tdb"
        )));
        // Neither: commits, the legacy schema, a file outside a fragment.
        for key in [
            "arr/__commits/__1_1_0123456789abcdef0123456789abcdef_22.wrt",
            "arr/__array_schema.tdb",
            "arr/a0.tdb",
            "arr/__fragments/a0.tdb",
        ] {
            assert!(!fragment_data(key) && !immutable_metadata(key), "{key}");
        }
    }
}
