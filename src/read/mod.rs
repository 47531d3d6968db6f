//! Reading cells: plan -> tiles -> filters -> storage, cells back up as
//! columnar batches.

pub mod aggregate;
pub mod column;
pub mod condition;
mod dense;
pub mod export;
pub mod field;
pub mod query;
pub mod query_condition;
pub mod range;
pub mod reader;
pub(crate) mod sparse;

pub use column::{Cells, Column, ColumnParts};
pub use field::FieldData;
pub use query::{Order, Query};
pub use query_condition::QueryCondition;
pub use range::{Bound, DimRange};
pub use reader::{ArrayReader, Batches};

#[cfg(all(test, feature = "object-store"))]
mod object_storage_tests;
