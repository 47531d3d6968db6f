//! Options every reader takes, and the encryption key's accessors that
//! every options struct shares.

/// The accessors of the encryption key of an options struct (a field
/// `encryption_key: Option<[u8; 32]>`): its getter, and setters with a key
/// or none; `$with_key` documents `with_key`, saying what the key does.
macro_rules! encryption_key_options {
    ($with_key:literal) => {
        /// The AES-256-GCM key, when set.
        pub fn encryption_key(&self) -> Option<&[u8; 32]> {
            self.encryption_key.as_ref()
        }

        #[doc = $with_key]
        pub fn with_key(mut self, key: [u8; 32]) -> Self {
            self.encryption_key = Some(key);
            self
        }

        /// Options with this encryption key, or none.
        pub fn with_encryption_key(mut self, key: Option<[u8; 32]>) -> Self {
            self.encryption_key = key;
            self
        }
    };
}
pub(crate) use encryption_key_options;

/// How to read: resource limits, and the key of an encrypted array.
///
/// ```
/// use tiledb_codec::ReadOptions;
///
/// let opts = ReadOptions::default().with_key([7; 32]).with_max_tile_bytes(1 << 20);
/// assert_eq!(opts.max_tile_bytes(), 1 << 20);
/// assert!(opts.encryption_key().is_some());
/// ```
#[derive(Clone, Copy, Default)]
pub struct ReadOptions {
    /// The most bytes one decoded tile may take (`None`: 1 GiB).
    pub(crate) max_tile_bytes: Option<u64>,
    /// The AES-256-GCM key of an encrypted array.
    pub(crate) encryption_key: Option<[u8; 32]>,
}

impl std::fmt::Debug for ReadOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("ReadOptions")
            .field("max_tile_bytes", &self.max_tile_bytes())
            .field("encryption_key", &self.encryption_key.map(|_| "<set>"))
            .finish()
    }
}

impl ReadOptions {
    /// The default limit on one decoded tile.
    pub const DEFAULT_MAX_TILE_BYTES: u64 = tiledb_codec_filters::DEFAULT_MAX_TILE_BYTES;

    /// The most bytes one decoded tile may take.
    pub fn max_tile_bytes(&self) -> u64 {
        self.max_tile_bytes.unwrap_or(Self::DEFAULT_MAX_TILE_BYTES)
    }

    encryption_key_options!("Options reading an AES-256-GCM encrypted array with this key.");

    /// Options with this limit on one decoded tile, in bytes (default:
    /// [`ReadOptions::DEFAULT_MAX_TILE_BYTES`]).
    pub fn with_max_tile_bytes(mut self, bytes: u64) -> Self {
        self.max_tile_bytes = Some(bytes);
        self
    }
}
