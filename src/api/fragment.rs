//! What the facade says about one committed fragment.

use std::ops::RangeInclusive;
use std::path::Path;

use super::Error;
use crate::array::fragment::Fragment;
use crate::model::DomainRange;

/// One committed fragment of an opened [`Array`](super::Array): its name,
/// timestamps, format version, kind, cell count and typed non-empty
/// domain. The format's own tables of the fragment stay under the
/// lower-level reader ([`crate::raw::array_reader`]).
#[derive(Clone, Copy)]
pub struct FragmentInfo<'a> {
    fragment: &'a Fragment,
}

impl<'a> FragmentInfo<'a> {
    pub(super) fn new(fragment: &'a Fragment) -> Self {
        Self { fragment }
    }

    /// The fragment's folder name (`__t1_t2_uuid_v`), without its folder.
    pub fn name(&self) -> &'a str {
        &self.fragment.name.name
    }

    /// Where the fragment is (its folder, or for the oldest formats its
    /// folder in the array root).
    pub fn path(&self) -> &'a Path {
        &self.fragment.path
    }

    /// The timestamps its cells were written at (ms since the Unix epoch):
    /// one instant for a write, the merged range for a consolidated
    /// fragment.
    pub fn timestamps(&self) -> RangeInclusive<u64> {
        self.fragment.name.t1..=self.fragment.name.t2
    }

    /// The format version the fragment was written in.
    pub fn format_version(&self) -> u32 {
        self.fragment.version()
    }

    /// Whether it is a dense fragment (cells of a box of the domain) rather
    /// than a sparse one (cells with coordinates).
    pub fn is_dense(&self) -> bool {
        self.fragment.dense
    }

    /// The number of cells it holds as the engine counts them (full tiles
    /// of the dense space tiles it touches for a dense fragment); `None`
    /// when its metadata gives counts that overflow.
    pub fn cell_count(&self) -> Option<u64> {
        self.fragment.cell_num()
    }

    /// The non-empty domain, one typed range per dimension; `None` where
    /// the fragment stores none.
    pub fn non_empty_domain(&self) -> Result<Option<Vec<DomainRange>>, Error> {
        Ok(self.fragment.non_empty_domain()?)
    }
}

impl std::fmt::Debug for FragmentInfo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FragmentInfo")
            .field("name", &self.name())
            .field("timestamps", &self.timestamps())
            .field("format_version", &self.format_version())
            .field("dense", &self.is_dense())
            .finish()
    }
}
