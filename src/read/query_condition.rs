//! Query conditions in TileDB-Py's `query(cond=...)` syntax: parsed into a
//! tree, bound to an array's schema (enumerations compared by label), and
//! evaluated on columns of cells; tiles whose min/max/null counts prove that
//! no cell matches can be skipped.

use crate::error::{Error, Result};
use crate::read::cells::{ArrayReader, Cells};

/// A parsed condition (not yet bound to an array).
#[derive(Debug, Clone, PartialEq)]
pub struct QueryCondition {
    text: String,
}

/// A condition bound to an array's schema: field datatypes resolved,
/// literals converted, enumeration labels turned into indexes.
#[derive(Debug, Clone)]
pub struct BoundCondition {}

/// What a tile's metadata says about one field (any of it may be missing).
#[derive(Debug, Clone, Copy, Default)]
pub struct FieldTileStats<'a> {
    /// The tile's smallest value (of the field's datatype).
    pub min: Option<&'a [u8]>,
    /// The tile's largest value.
    pub max: Option<&'a [u8]>,
    /// How many cells of the tile are null.
    pub null_count: Option<u64>,
    /// How many cells the tile holds.
    pub cell_count: u64,
}

impl QueryCondition {
    /// Parses `text`, e.g. `a > 5 and (b == "x" or c in [1, 2])`.
    pub fn parse(text: &str) -> Result<Self> {
        Err(Error::Condition {
            text: text.to_string(),
            what: "query conditions are not implemented yet".into(),
        })
    }

    /// The names of the fields the condition reads.
    pub fn field_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// Binds the condition to the array `reader` opened (its newest schema).
    pub fn bind(&self, _reader: &ArrayReader) -> Result<BoundCondition> {
        Err(Error::Condition {
            text: self.text.clone(),
            what: "query conditions are not implemented yet".into(),
        })
    }
}

impl BoundCondition {
    /// For each cell of `cells` (which hold a column for every field the
    /// condition names), whether the condition holds.
    pub fn evaluate(&self, cells: &Cells) -> Result<Vec<bool>> {
        Ok(vec![true; cells.len])
    }

    /// False when the tile's metadata proves no cell of it matches.
    pub fn may_match(&self, _stats: &dyn Fn(&str) -> Option<FieldTileStats<'_>>) -> bool {
        true
    }
}
