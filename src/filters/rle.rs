//! Placeholder: implemented in its own change.

use super::{FilterCodec, FilterError};
use crate::format::Filter;

/// The codec for this filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    let name =
        crate::format::FilterType::from_value(filter.filter_type).map_or("filter", |t| t.name());
    Err(FilterError::new(name, "this filter is not supported yet"))
}
