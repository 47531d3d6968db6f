//! The format versions this crate reads and writes.

/// The newest schema version this crate reads.
pub const MAX_FORMAT_VERSION: u32 = 23;

/// The format version this crate writes unless told otherwise (TileDB 2.30).
pub const FORMAT_VERSION: u32 = 22;

/// The newest format version this crate writes, on request (TileDB 2.30's
/// successors: the fragment footer gains optional sections,
/// `format_spec/fragment.md#optional-section`). The installed engine reads
/// up to 22, so 22 stays the default.
pub const MAX_WRITE_VERSION: u32 = 23;

/// The oldest format version this crate writes.
pub const MIN_WRITE_VERSION: u32 = 10;
