//! Reading cells: the tiles of a field of a fragment, unfiltered.

pub mod field;

pub use field::{FieldData, FieldInfo};
