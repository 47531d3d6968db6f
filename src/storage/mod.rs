//! Mapped files: the only place with `unsafe`.
//!
//! Every byte the crate reads from an array comes from a [`MappedFile`]; tiles
//! and tables borrow from it.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

enum Bytes {
    Map(memmap2::Mmap),
    /// Zero-length files cannot be mapped on every platform.
    Empty,
    /// Bytes held in memory (tests, fuzzing, data that is not a file).
    Owned(Vec<u8>),
}

/// A read-only file mapped into memory.
pub struct MappedFile {
    path: PathBuf,
    bytes: Bytes,
}

impl MappedFile {
    /// Files up to this size are read into memory instead of mapped.
    pub const READ_BELOW: u64 = 64 * 1024;

    /// Maps `path` read-only.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        let file = std::fs::File::open(&path).map_err(|e| Error::io(&path, e))?;
        let len = file.metadata().map_err(|e| Error::io(&path, e))?.len();
        let bytes = if len == 0 {
            Bytes::Empty
        } else if len <= Self::READ_BELOW {
            // Mapping costs more than reading for a few kilobytes (fragment
            // metadata, schemas, commit files): read those.
            // One read of the size just taken (`read_to_end` would ask the
            // size and position again and read once more for the end).
            let mut buf = vec![0; len as usize];
            std::io::Read::read_exact(&mut (&file), &mut buf).map_err(|e| Error::io(&path, e))?;
            Bytes::Owned(buf)
        } else {
            // SAFETY: the map is read-only and private to this process. TileDB
            // never rewrites a committed file in place (every write creates a
            // new file), so the bytes do not change under the map while the
            // array is open; a file truncated by someone else would raise
            // SIGBUS, which is the one hazard of mapping and the reason this
            // is the only module with `unsafe`.
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io(&path, e))?;
            Bytes::Map(map)
        };
        Ok(MappedFile { path, bytes })
    }

    /// Bytes in memory presented as the file `path` (which need not exist):
    /// for fuzzing and for data that does not come from a file.
    pub fn from_vec(path: impl AsRef<Path>, bytes: Vec<u8>) -> Self {
        MappedFile {
            path: path.as_ref().to_path_buf(),
            bytes: Bytes::Owned(bytes),
        }
    }

    /// Whether the bytes are a memory map of the file (files above
    /// [`MappedFile::READ_BELOW`] bytes), not a copy read into memory.
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, Bytes::Map(_))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// All bytes of the file.
    pub fn bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Map(m) => m,
            Bytes::Empty => &[],
            Bytes::Owned(v) => v,
        }
    }

    pub fn len(&self) -> u64 {
        self.bytes().len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.bytes().is_empty()
    }
}
