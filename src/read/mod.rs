//! Reading cells: plan -> tiles -> filters -> storage, cells back up as
//! columnar batches.

pub mod aggregate;
pub mod cells;
pub mod condition;
mod dense;
pub mod export;
pub mod field;
pub mod query_condition;
pub mod range;
pub(crate) mod sparse;

pub use cells::{ArrayReader, Batches, Cells, Column, Order, Query};
pub use field::FieldData;
pub use query_condition::QueryCondition;
pub use range::{Bound, DimRange};
