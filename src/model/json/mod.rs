//! The JSON of a [`Schema`](crate::model::Schema): the `"schema"` object of `inspect --json`,
//! which [`crate::write::create_array`] and `import` take back.
//!
//! Values are shown as [`crate::model::value::cell`] shows cells: numbers as
//! numbers, text as strings, NaN and the infinities as strings. A
//! dimension without filters of its own shows the coordinate filters (as
//! the engine reads it). The JSON cannot say a schema's fill value
//! validity (it is read, not shown), the WEBP filter's stored extents (the
//! tile extents) nor whether a current domain is stored empty or absent.

mod parse;
mod render;

pub use parse::{
    attribute_from_json, dimension_range_from_json, enumeration_from_json,
    enumeration_values_from_json, parse_datatype, parse_filter, schema_from_json,
};
pub use render::{enumeration_to_json, filter_to_json, range_to_json, schema_to_json};
