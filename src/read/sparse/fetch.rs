//! The fetch of a sparse read: the fields of each fragment the plan picked
//! tiles of, opened once (their tile lists loaded together), and from a
//! ranged storage (an object store) the picked tiles fetched ahead of
//! decoding, several fragments' together where they fit in the
//! read-ahead.

use rayon::prelude::*;

use super::context::SparseRead;
use super::plan::{Pick, Processed};
use super::select::special_fields;
use crate::array::fragment::Fragment;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::read::field::FieldTiles;
use crate::ReadOptions;

/// A fragment as the fetch leaves it: its fields opened for the tiles the
/// plan picked, or its cells read whole.
pub(super) enum Opened {
    Tiles {
        fi: usize,
        fields: Box<FragmentFields>,
        tiles: Vec<(usize, bool)>,
        processed: Processed,
    },
    /// A fragment with no R-tree to go by, read whole by the decode.
    Whole { fi: usize, processed: Processed },
}

impl SparseRead<'_> {
    /// Opens the fields of the fragments with picked tiles, in parallel.
    pub(super) fn fetch(&self, picks: Vec<Pick>) -> Result<Vec<Opened>> {
        let r = self.reader;
        picks
            .into_par_iter()
            .map(|p| {
                let Some(tiles) = p.tiles else {
                    return Ok(Opened::Whole {
                        fi: p.fi,
                        processed: p.processed,
                    });
                };
                let f = &r.fragments[p.fi];
                let fields =
                    FragmentFields::open(f, &self.dims, &self.all_attrs, &self.needed, &r.opts)?;
                Ok(Opened::Tiles {
                    fi: p.fi,
                    fields: Box::new(fields),
                    tiles,
                    processed: p.processed,
                })
            })
            .collect()
    }
}

/// The fields of a fragment a read decodes, opened once.
pub(crate) struct FragmentFields {
    pub(super) dims: Vec<(FieldInfo, FieldTiles)>,
    pub(super) attrs: Vec<Option<(FieldInfo, FieldTiles)>>,
    pub(super) timestamps: Option<(FieldInfo, FieldTiles)>,
    pub(super) delete_meta: Option<[(FieldInfo, FieldTiles); 2]>,
}

impl FragmentFields {
    /// Opens the dimensions and the `needed` attributes (by the array
    /// schema's `all_attrs`) of `frag`, each as its own schema names it.
    pub fn open(
        frag: &Fragment,
        dims: &[FieldInfo],
        all_attrs: &[FieldInfo],
        needed: &[bool],
        opts: &ReadOptions,
    ) -> Result<Self> {
        let (has_ts, has_dm) = special_fields(frag);
        // The tile lists of every field opened here, fetched together (an
        // object store's fragment metadata: near tiles in one request).
        let wanted: Vec<FieldInfo> = dims
            .iter()
            .filter_map(|d| FieldInfo::lookup(&frag.schema, &d.name))
            .chain(
                all_attrs
                    .iter()
                    .zip(needed)
                    .filter(|(_, need)| **need)
                    .filter_map(|(a, _)| FieldInfo::lookup(&frag.schema, &a.name)),
            )
            .chain(has_ts.then(|| FieldInfo::timestamps(&frag.schema)))
            .chain(has_dm.then(|| FieldInfo::delete_timestamps(&frag.schema, has_ts)))
            .chain(has_dm.then(|| FieldInfo::delete_condition_index(&frag.schema, has_ts)))
            .collect();
        frag.prefetch_tile_lists(&wanted.iter().collect::<Vec<_>>())?;
        let dims = dims
            .iter()
            .map(|d| {
                let d = FieldInfo::lookup(&frag.schema, &d.name)
                    .filter(|x| x.is_dimension)
                    .ok_or_else(|| Error::Unsupported {
                        path: frag.path.clone(),
                        what: format!("the fragment's schema has no dimension {:?}", d.name),
                    })?;
                let t = FieldTiles::open(frag, &d, opts)?;
                Ok((d, t))
            })
            .collect::<Result<Vec<_>>>()?;
        let attrs = all_attrs
            .iter()
            .zip(needed)
            .map(|(a, need)| match FieldInfo::lookup(&frag.schema, &a.name) {
                Some(fa) if *need => {
                    let t = FieldTiles::open(frag, &fa, opts)?;
                    Ok(Some((fa, t)))
                }
                _ => Ok(None),
            })
            .collect::<Result<Vec<_>>>()?;
        let open = |t: FieldInfo| -> Result<(FieldInfo, FieldTiles)> {
            let tiles = FieldTiles::open(frag, &t, opts)?;
            Ok((t, tiles))
        };
        let timestamps = if has_ts {
            Some(open(FieldInfo::timestamps(&frag.schema))?)
        } else {
            None
        };
        let delete_meta = if has_dm {
            Some([
                open(FieldInfo::delete_timestamps(&frag.schema, has_ts))?,
                open(FieldInfo::delete_condition_index(&frag.schema, has_ts))?,
            ])
        } else {
            None
        };
        Ok(FragmentFields {
            dims,
            attrs,
            timestamps,
            delete_meta,
        })
    }
}

impl FragmentFields {
    /// Every field opened.
    pub(super) fn all(&self) -> impl Iterator<Item = &FieldTiles> {
        let dims = self.dims.iter().map(|(_, t)| t);
        let attrs = self.attrs.iter().flatten().map(|(_, t)| t);
        let ts = self.timestamps.iter().map(|(_, t)| t);
        let dm = self.delete_meta.iter().flatten().map(|(_, t)| t);
        dims.chain(attrs).chain(ts).chain(dm)
    }

    /// Every field opened, mutably.
    pub(super) fn all_mut(&mut self) -> impl Iterator<Item = &mut FieldTiles> {
        let dims = self.dims.iter_mut().map(|(_, t)| t);
        let attrs = self.attrs.iter_mut().flatten().map(|(_, t)| t);
        let ts = self.timestamps.iter_mut().map(|(_, t)| t);
        let dm = self.delete_meta.iter_mut().flatten().map(|(_, t)| t);
        dims.chain(attrs).chain(ts).chain(dm)
    }

    /// Whether the fragment is in a ranged storage (an object store), whose
    /// tiles [`FragmentFields::tiles`] fetches in groups.
    pub fn ranged(&self) -> bool {
        self.read_ahead().is_some()
    }

    /// The bytes of tiles fetched ahead of decoding, for a fragment in a
    /// ranged storage; `None` for local files.
    pub(super) fn read_ahead(&self) -> Option<u64> {
        self.dims.first().and_then(|(_, t)| t.read_ahead())
    }

    /// For fragments in a ranged storage (an object store), each with the
    /// tiles a read picked of it: fetches every field of all those tiles in
    /// one round (near ranges merged, requests concurrent) when together
    /// they fit in the storage's read-ahead, so that the fragments do not
    /// wait for each other's requests; otherwise nothing, and
    /// [`FragmentFields::tiles`] fetches each fragment's in groups.
    pub(crate) fn fetch_together(picked: &[(&FragmentFields, &[(usize, bool)])]) -> Result<()> {
        let Some(ahead) = picked.iter().find_map(|(f, _)| f.read_ahead()) else {
            return Ok(());
        };
        let wanted: Vec<(&FieldTiles, usize)> = picked
            .iter()
            .flat_map(|(f, tiles)| {
                tiles
                    .iter()
                    .flat_map(move |(t, _)| f.all().map(move |ft| (ft, *t)))
            })
            .collect();
        let bytes = wanted
            .iter()
            .fold(0u64, |b, (f, t)| b.saturating_add(f.stored_bytes(*t)));
        if bytes > ahead {
            return Ok(());
        }
        crate::read::field::prefetch(&wanted)
    }

    /// Fetches every field of `tiles` together (ranged storage).
    pub(super) fn prefetch(&self, tiles: &[(usize, bool)]) -> Result<()> {
        let wanted: Vec<(&FieldTiles, usize)> = tiles
            .iter()
            .flat_map(|(t, _)| self.all().map(move |f| (f, *t)))
            .collect();
        crate::read::field::prefetch(&wanted)
    }
}
