//! Reading cells: the tiles of a field of a fragment, unfiltered.

pub mod cells;
pub mod condition;
pub mod export;
pub mod field;

pub use cells::{ArrayReader, Cells, Column, Query};
pub use field::{FieldData, FieldInfo};
