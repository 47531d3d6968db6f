//! An array opened for reading: [`ArrayReader`] and its state (its
//! methods are in `open_read`, `plan_dense`, `sparse` and `batches`), and
//! the checked read of a fragment's field they share.

use super::field::ReadStats;
use super::field::{read_field, FieldData};
use crate::array::directory::ArrayDirectory;
use crate::array::fragment::Fragment;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{ArraySchema, Datatype};
use crate::model::value;
use crate::ReadOptions;

/// An array opened for reading.
#[non_exhaustive]
pub struct ArrayReader {
    /// What the array folder holds, committed fragments included.
    pub dir: ArrayDirectory,
    /// The latest array schema.
    pub schema: ArraySchema,
    /// The fragments this reader reads (committed, within the time range
    /// asked for).
    pub fragments: Vec<Fragment>,
    pub(super) opts: ReadOptions,
    pub(super) stats: ReadStats,
    /// The timestamp range the array was opened at (`None`: every time):
    /// cells of fragments that keep their timestamps are read only when
    /// written within it, and delete metadata applies up to its end.
    pub(super) time_range: Option<(u64, u64)>,
}

impl<'a> From<&'a ArrayReader> for super::query_condition::BindContext<'a> {
    fn from(r: &'a ArrayReader) -> Self {
        super::query_condition::BindContext {
            schema: &r.schema,
            dir: &r.dir,
            options: &r.opts,
        }
    }
}

impl ArrayReader {
    /// What the reader has read so far.
    pub(crate) fn read_stats(&self) -> &ReadStats {
        &self.stats
    }
}

/// Reads a field of a fragment and checks what the files gave against
/// itself before cells are taken from it: var-sized offsets must rise
/// within the var data, validity must cover every cell. `cells` is the
/// number of cells the fragment's other fields hold, when known.
pub(super) fn read_checked(
    frag: &Fragment,
    field: &FieldInfo,
    opts: &ReadOptions,
    cells: Option<usize>,
) -> Result<FieldData> {
    let data = read_field(frag, field, opts)?;
    let bad = |what: String| Err(Error::decode(&frag.path, 0, "Tile", &field.name, what));
    let n = data.len(field.cell_size());
    if let Some(offsets) = &data.offsets {
        let len = data.values.len() as u64;
        let mut prev = 0;
        for (i, &o) in offsets.iter().enumerate() {
            if o < prev || o > len {
                return bad(format!(
                    "cell {i} starts at byte {o}, after the previous cell's {prev} \
                     or past the {len} bytes of var data"
                ));
            }
            prev = o;
        }
    }
    if let Some(v) = &data.validity {
        if v.len() < n {
            return bad(format!("{} validity values for {n} cells", v.len()));
        }
    }
    if let Some(expected) = cells {
        if n != expected {
            return bad(format!(
                "{n} cells, the fragment's first dimension has {expected}"
            ));
        }
    }
    Ok(data)
}

pub(super) fn int_of(dt: Datatype, b: &[u8]) -> Option<i128> {
    let v = value::cell(dt, b);
    v.as_i64()
        .map(i128::from)
        .or_else(|| v.as_u64().map(i128::from))
}
