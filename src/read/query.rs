//! What a read asks for: fields, ranges, a condition, an order, batches.

use super::query_condition::QueryCondition;
use super::range::DimRange;

/// What to read.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Query {
    /// Attributes to read (`None`: all).
    pub attributes: Option<Vec<String>>,
    /// Per dimension, an inclusive integer range to keep (`None`: no limit).
    /// The older form of [`Query::ranges`]; both may be given (their
    /// intersection is read).
    pub subarray: Option<Vec<Option<(i128, i128)>>>,
    /// Typed ranges by dimension name; several for one dimension make a
    /// multi-range (the cells of any of them). A dimension not named is not
    /// limited.
    pub ranges: Vec<(String, Vec<DimRange>)>,
    /// Only cells for which this condition holds (dense arrays: the other
    /// cells hold fill values, as the engine returns them).
    pub condition: Option<QueryCondition>,
    /// The order of the result (`None`: row-major, as `export` prints).
    pub order: Option<Order>,
    /// Batches of at most this many cells from [`crate::read::ArrayReader::batches`]
    /// (`None`: [`Query::DEFAULT_BATCH_CELLS`]).
    pub batch_cells: Option<usize>,
    /// The most memory a read may hold at once for its results and decoded
    /// tiles, in bytes. `None`: [`Query::DEFAULT_MEMORY_BUDGET`] for
    /// [`crate::read::ArrayReader::batches`]; for a whole dense [`crate::read::ArrayReader::read`],
    /// [`crate::ReadOptions::max_tile_bytes`] (1 GiB unless set), larger results
    /// being read in batches or with a budget set here. The per-tile limit
    /// of [`crate::ReadOptions::max_tile_bytes`] always applies.
    pub memory_budget: Option<u64>,
    /// Tiles not to read, as (index into [`crate::read::ArrayReader::fragments`], tile
    /// index): sparse reads only, for aggregates answered from tile
    /// metadata. Dense reads refuse a query that sets it.
    pub skip_tiles: Option<std::sync::Arc<std::collections::HashSet<(usize, u64)>>>,
    /// Leave the dimensions' columns out of the result (a dense read then
    /// holds only the attributes, as the engine's `A[:]` returns them).
    pub skip_coordinates: bool,
}

impl Query {
    /// Cells per batch unless [`Query::batch_cells`] says otherwise.
    pub const DEFAULT_BATCH_CELLS: usize = 1 << 20;
    /// The memory budget of [`crate::read::ArrayReader::batches`] unless
    /// [`Query::memory_budget`] says otherwise.
    pub const DEFAULT_MEMORY_BUDGET: u64 = 1 << 30;

    /// A query of every cell of every attribute.
    pub fn new() -> Self {
        Query::default()
    }

    /// Adds a range on dimension `dim` (a second one on the same dimension
    /// makes a multi-range).
    pub fn range(mut self, dim: &str, r: DimRange) -> Self {
        match self.ranges.iter_mut().find(|(d, _)| d == dim) {
            Some((_, rs)) => rs.push(r),
            None => self.ranges.push((dim.to_string(), vec![r])),
        }
        self
    }
}

/// The order cells come back in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Row-major order of the coordinates (the last dimension fastest).
    #[default]
    RowMajor,
    /// Column-major order of the coordinates (the first dimension fastest).
    ColMajor,
    /// The array's global order (tile order, then cell order within tiles).
    GlobalOrder,
    /// Whatever order is fastest (sparse arrays; dense arrays: row-major).
    Unordered,
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
            "rowmajor" | "c" => Ok(Order::RowMajor),
            "colmajor" | "f" => Ok(Order::ColMajor),
            "global" | "globalorder" | "g" => Ok(Order::GlobalOrder),
            "unordered" | "u" => Ok(Order::Unordered),
            _ => Err(format!(
                "unknown order {s:?} (row-major, col-major, global, unordered)"
            )),
        }
    }
}

/// Setters, for programs outside this crate (the struct is
/// `#[non_exhaustive]`: start from [`Query::default`]).
impl Query {
    /// Reads only these attributes (default: all).
    pub fn with_attributes<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.attributes = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Keeps, per dimension, an inclusive integer range (`None`: no limit).
    pub fn with_subarray(mut self, subarray: Vec<Option<(i128, i128)>>) -> Self {
        self.subarray = Some(subarray);
        self
    }

    /// Keeps only cells for which `condition` holds.
    pub fn with_condition(mut self, condition: QueryCondition) -> Self {
        self.condition = Some(condition);
        self
    }

    /// The order of the result.
    pub fn with_order(mut self, order: Order) -> Self {
        self.order = Some(order);
        self
    }

    /// Batches of at most this many cells.
    pub fn with_batch_cells(mut self, cells: usize) -> Self {
        self.batch_cells = Some(cells);
        self
    }

    /// The most memory the read may hold at once, in bytes.
    pub fn with_memory_budget(mut self, bytes: u64) -> Self {
        self.memory_budget = Some(bytes);
        self
    }

    /// Tiles not to read (see [`Query::skip_tiles`]).
    pub fn with_skip_tiles(
        mut self,
        tiles: std::sync::Arc<std::collections::HashSet<(usize, u64)>>,
    ) -> Self {
        self.skip_tiles = Some(tiles);
        self
    }

    /// Whether the dimensions' columns come back too (default: yes).
    pub fn with_coordinates(mut self, yes: bool) -> Self {
        self.skip_coordinates = !yes;
        self
    }
}
