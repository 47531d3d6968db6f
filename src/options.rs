//! Options every reader takes.

/// How to read: resource limits, and the key of an encrypted array.
#[derive(Clone, Copy, Default)]
pub struct ReadOptions {
    /// The most bytes one decoded tile may take (`None`: 1 GiB).
    pub max_tile_bytes: Option<u64>,
    /// The AES-256-GCM key of an encrypted array.
    pub encryption_key: Option<[u8; 32]>,
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

    /// Options with this encryption key.
    pub fn with_key(mut self, key: [u8; 32]) -> Self {
        self.encryption_key = Some(key);
        self
    }
}
