//! Sparse reads, one stage a module, in the order a read runs them:
//!
//! 1. [`plan`]: the query's fields, ranges, condition and the deletes to
//!    apply; per fragment, the tiles its R-tree picks for the ranges, less
//!    those the condition rules out by their metadata;
//! 2. [`fetch`]: the fields of those fragments opened (and, from a ranged
//!    storage, their tiles fetched together where they fit in the
//!    read-ahead);
//! 3. [`decode`]: the picked tiles decoded into batches of the cells in the
//!    ranges (from a ranged storage, fetched in groups meanwhile);
//!    fragments with no R-tree read whole;
//! 4. [`merge`]: deletes and the condition applied, the newest write of
//!    each coordinate chosen, the cells put in the query's order (integer
//!    coordinates by a [`radix`] sort of packed keys; with a condition over
//!    overlapping fragments, only the cells it keeps sorted, see
//!    [`survivors`]);
//! 5. [`copy`]: the chosen cells gathered into the result's columns, the
//!    columns in parallel.
//!
//! [`context`] holds what every stage works with; [`select`] the ranges and
//! the tiles an R-tree selects for them (less those the global order rules
//! out, [`spans`]), [`deletes`] the delete commits a
//! read applies, [`boxes`] the fragments' bounding boxes the plan and the
//! merge prune with.

use crate::error::Result;
use crate::read::array_reader::ArrayReader;
use crate::read::column::Cells;
use crate::read::query::Query;
use context::SparseRead;

mod boxes;
mod context;
mod copy;
mod decode;
mod deletes;
mod fetch;
mod merge;
mod plan;
mod radix;
mod select;
mod spans;
mod survivors;

pub(crate) use decode::TileCells;
pub(crate) use deletes::Delete;
pub(crate) use fetch::FragmentFields;
pub(crate) use merge::keep_masks;
pub(crate) use select::{below, cell_bytes, select_tiles, special_fields, tile_lows};

impl ArrayReader {
    /// Reads the cells `q` selects of a sparse array, stage by stage.
    pub(super) fn read_sparse(&self, q: &Query) -> Result<Cells> {
        let read = SparseRead::plan(self, q)?;
        let picked = read.pick_tiles()?;
        let opened = read.fetch(picked)?;
        let batches = read.decode(opened)?;
        let merged = read.merge(batches)?;
        read.copy(merged)
    }
}
