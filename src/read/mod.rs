//! Reading cells: plan -> tiles -> filters -> storage, cells back up as
//! columnar batches.

pub mod aggregate;
mod array_reader;
mod batches;
pub mod column;
mod dense;
mod dense_coords;
pub mod export;
pub mod field;
mod into;
mod open_read;
mod plan_dense;
pub mod query;
pub mod query_condition;
pub mod range;
mod sort_keys;
pub(crate) mod sparse;
pub(crate) use sparse::{keep_masks, Delete};

pub use array_reader::ArrayReader;
pub use batches::Batches;
pub use column::{Cells, Column, ColumnParts};
pub use field::FieldData;
pub use into::Sink;
pub use query::{Order, Query};
pub use query_condition::QueryCondition;
pub use range::{Bound, DimRange};

#[cfg(all(test, feature = "object-store"))]
mod object_storage_tests;
