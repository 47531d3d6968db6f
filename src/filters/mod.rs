//! Filters of the TileDB filter pipeline, run backward on read.
//!
//! One module per filter family; [`pipeline`] chains them. This first cut
//! reverses the compressors the engine uses for its own generic tiles
//! (GZIP, ZSTD, LZ4, BZIP2) and the no-op filter; the other filters report
//! themselves as not supported yet.

pub mod compress;
pub mod pipeline;

pub use pipeline::{reverse_chunk, Limits};

/// A chunk as a filter sees it: metadata bytes and data bytes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ChunkParts {
    pub metadata: Vec<u8>,
    pub data: Vec<u8>,
}

/// Why a filter could not reverse a chunk; the pipeline adds file, tile and chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    pub filter: &'static str,
    pub what: String,
}

impl FilterError {
    pub fn new(filter: &'static str, what: impl Into<String>) -> Self {
        FilterError {
            filter,
            what: what.into(),
        }
    }
}
