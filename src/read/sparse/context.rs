//! What the stages of a sparse read share: the read's context
//! ([`SparseRead`]) and the batches of cells they pass along ([`Batch`]).

use std::sync::{Arc, Mutex};

use super::boxes::FragBoxes;
use super::deletes::Delete;
use super::select::DimRanges;
use crate::array::FieldInfo;
use crate::error::Result;
use crate::read::array_reader::ArrayReader;
use crate::read::field::FieldData;
use crate::read::query::Query;
use crate::read::query_condition::BoundCondition;

/// What every stage of one sparse read works with: the reader, the query,
/// and what the plan made of them.
pub(super) struct SparseRead<'a> {
    pub(super) reader: &'a ArrayReader,
    pub(super) query: &'a Query,
    pub(super) dims: Vec<FieldInfo>,
    /// The attributes the query asks for, in the result's order.
    pub(super) requested: Vec<FieldInfo>,
    /// Those and the attributes the condition reads (dropped at the end).
    pub(super) attrs: Vec<FieldInfo>,
    /// Every attribute of the schema: the order of a batch's attributes.
    pub(super) all_attrs: Vec<FieldInfo>,
    /// Per attribute of `all_attrs`, whether it is decoded: it is asked
    /// for, or a condition or a delete names it.
    pub(super) needed: Vec<bool>,
    /// The delete and update commits to apply, oldest first.
    pub(super) deletes: Vec<Delete>,
    pub(super) allows_dups: bool,
    pub(super) ranges: DimRanges,
    /// The query's condition, bound to the schema, and the fields it reads.
    pub(super) condition: Option<(BoundCondition, Vec<String>)>,
    /// The boxes (non-empty domain, tile MBRs) of each fragment, made on
    /// first use.
    pub(super) boxes: Mutex<Vec<Option<Arc<FragBoxes>>>>,
}

impl SparseRead<'_> {
    /// The boxes of fragment `k`, made on first use.
    pub(super) fn boxes_of(&self, k: usize) -> Result<Arc<FragBoxes>> {
        let made = self.boxes.lock().unwrap_or_else(|e| e.into_inner())[k].clone();
        if let Some(b) = made {
            return Ok(b);
        }
        let r = self.reader;
        let b = Arc::new(FragBoxes::of(&r.fragments[k], &self.dims, &r.opts)?);
        self.boxes.lock().unwrap_or_else(|e| e.into_inner())[k] = Some(b.clone());
        Ok(b)
    }

    /// The number of cells of a batch.
    pub(super) fn cells_of(&self, b: &Batch) -> usize {
        b.dims
            .first()
            .map_or(0, |d| d.len(self.dims[0].cell_size()))
    }
}

/// The cells of one batch (a tile, or a whole fragment) of a sparse read.
pub(super) struct Batch {
    pub(super) dims: Vec<FieldData>,
    /// `None`: an attribute the fragment lacks (or the read does not need).
    pub(super) attrs: Vec<Option<FieldData>>,
    pub(super) timestamps: Option<Vec<u64>>,
    /// The cells' delete timestamps (fragments consolidated with delete
    /// metadata).
    pub(super) delete_ts: Option<Vec<u64>>,
    /// The delete commits already applied to the fragment (its delete
    /// metadata records what they deleted).
    pub(super) processed: Arc<Vec<String>>,
    pub(super) t1: u64,
    /// The fragment's place among the reader's.
    pub(super) frag: usize,
}
