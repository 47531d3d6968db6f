//! [`OpenOptions`]: how [`Array::open_with`](super::Array::open_with) opens
//! an array.

use std::ops::{Bound, RangeBounds};

use crate::storage::StorageRef;
use crate::ReadOptions;

/// How to open an array: its encryption key, the timestamp range to read
/// it at, limits, and where it is stored. Every option has a default;
/// [`Array::open`](super::Array::open) uses them all.
///
/// ```
/// use tiledb_codec::{Array, OpenOptions};
///
/// let path = "tests/fixtures/v22/dense_int_1d";
/// let all = Array::open(path)?;
/// let t1 = *all.fragments()[0].timestamps().end();
/// let first = Array::open_with(path, OpenOptions::new().with_time_range(..=t1))?;
/// assert_eq!(first.fragments().len(), 1);
/// assert_eq!(first.reader().read()?.column::<i32>("a")?.len(), 20);
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct OpenOptions {
    pub(crate) read: ReadOptions,
    pub(crate) time_range: Option<(Bound<u64>, Bound<u64>)>,
    pub(crate) storage: Option<StorageRef>,
    #[cfg(feature = "object-store")]
    pub(crate) store_options: Vec<(String, String)>,
}

impl std::fmt::Debug for OpenOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // ReadOptions never prints the key; store options may hold secrets.
        f.debug_struct("OpenOptions")
            .field("read", &self.read)
            .field("time_range", &self.time_range)
            .field("storage", &self.storage.as_ref().map(|_| "<set>"))
            .finish_non_exhaustive()
    }
}

impl OpenOptions {
    /// The defaults: no key, every timestamp, local files (or the object
    /// store a URL names).
    pub fn new() -> Self {
        OpenOptions::default()
    }

    /// Opens an AES-256-GCM encrypted array with this key (the bytes of
    /// TileDB's `sm.encryption_key`).
    pub fn with_key(mut self, key: [u8; 32]) -> Self {
        self.read = self.read.with_key(key);
        self
    }

    /// Opens with this key, or none.
    pub fn with_encryption_key(mut self, key: Option<[u8; 32]>) -> Self {
        self.read = self.read.with_encryption_key(key);
        self
    }

    /// The most bytes one decoded tile may take (default:
    /// [`ReadOptions::DEFAULT_MAX_TILE_BYTES`]).
    pub fn with_max_tile_bytes(mut self, bytes: u64) -> Self {
        self.read = self.read.with_max_tile_bytes(bytes);
        self
    }

    /// Reads with these options (key and limits), replacing those set
    /// before.
    pub fn with_read_options(mut self, read: ReadOptions) -> Self {
        self.read = read;
        self
    }

    /// Opens the array as it was written in the timestamp range `at`
    /// (milliseconds since the epoch, as fragment names carry them;
    /// `t1..=t2`, `..=t2`, `t1..`): the fragments and deletes written in
    /// it, as the engine's `timestamp=(t1, t2)` reads them. (A sparse
    /// fragment of format version 15 or later that overlaps the range is
    /// read for its cells inside it; other fragments only when they lie
    /// inside it whole.) Reads use the newest schema;
    /// [`Array::metadata`](super::Array::metadata) is the metadata written
    /// in the range, as the engine reads it. A range that holds no time is
    /// an error of the open.
    pub fn with_time_range(mut self, at: impl RangeBounds<u64>) -> Self {
        self.time_range = Some((at.start_bound().cloned(), at.end_bound().cloned()));
        self
    }

    /// Opens the array as it was at `timestamp` (milliseconds): what was
    /// written up to it, as the engine's `timestamp=t` reads it. The same
    /// as [`OpenOptions::with_time_range`] of `..=timestamp`.
    pub fn with_timestamp(self, timestamp: u64) -> Self {
        self.with_time_range(..=timestamp)
    }

    /// An option of the object store a URL (`s3://`, `gs://`, `az://`,
    /// `http(s)://`, `file://`) names (feature `object-store`): the
    /// object_store crate's keys (`aws_access_key_id`, `aws_endpoint`,
    /// `aws_allow_http`, `google_service_account`,
    /// `azure_storage_account_name`...); nothing is read from the
    /// environment.
    #[cfg(feature = "object-store")]
    pub fn with_store_option(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.store_options.push((key.into(), value.into()));
        self
    }

    /// The read options (key and limits) the array is opened with.
    pub fn read_options(&self) -> &ReadOptions {
        &self.read
    }
}
