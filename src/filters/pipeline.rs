//! Runs a filter pipeline backward over one chunk.

use super::{compress, ChunkParts, FilterError};
use crate::format::{Compressor, Filter, FilterOptions, FilterType};

/// Resource limits for decoding.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The most bytes one decoded tile may take.
    pub max_tile_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_tile_bytes: 1 << 30,
        }
    }
}

/// Reverses `filters` (last first) over one chunk and returns its bytes.
pub fn reverse_chunk(
    filters: &[Filter],
    metadata: &[u8],
    data: &[u8],
) -> Result<Vec<u8>, FilterError> {
    if filters.is_empty() {
        return Ok(data.to_vec());
    }
    let mut parts = ChunkParts {
        metadata: metadata.to_vec(),
        data: data.to_vec(),
    };
    for filter in filters.iter().rev() {
        parts = reverse_one(filter, &parts)?;
    }
    Ok(parts.data)
}

fn reverse_one(filter: &Filter, input: &ChunkParts) -> Result<ChunkParts, FilterError> {
    let kind = FilterType::from_value(filter.filter_type);
    match (&filter.filter_options, kind) {
        (_, Some(FilterType::None)) => Ok(input.clone()),
        (FilterOptions::Compressor(opts), _) => {
            let compressor = Compressor::from_value(opts.compressor_type).ok_or_else(|| {
                FilterError::new(
                    "compression",
                    format!("unknown compressor code {}", opts.compressor_type),
                )
            })?;
            compress::reverse(compressor, input)
        }
        (_, Some(k)) => Err(FilterError::new(
            k.name(),
            "this filter is not supported yet",
        )),
        (_, None) => Err(FilterError::new(
            "filter",
            format!("unknown filter type {}", filter.filter_type),
        )),
    }
}
