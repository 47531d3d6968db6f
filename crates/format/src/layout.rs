//! Files whose parts a record points at: the generated `XParts` of a
//! table with `offset_of` fields (`FragmentFooterParts`, `TileOffsetsParts`)
//! appends each part to a [`PartFile`] and keeps where it starts, so that
//! the record's offsets (`with_outside_offsets`) and the file sizes a
//! record states (`with_outside_sizes` of a `file` outside) come from the
//! bytes as they were written, never from a writer's own count.

use alloc::vec::Vec;

/// A file being written, part after part: where the next part starts, and
/// how a part's bytes go into it.
pub trait PartFile {
    /// The file's length so far: where the next part starts.
    fn end(&self) -> u64;
    /// Appends bytes to the file.
    fn put(&mut self, bytes: &[u8]);
}

/// A file held in memory (the fragment metadata file).
impl PartFile for Vec<u8> {
    fn end(&self) -> u64 {
        self.len() as u64
    }

    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// A file whose bytes go elsewhere as they come (a fragment's data file,
/// streamed to the disk): only its length is kept.
///
/// ```
/// use tiledb_codec_format::{PartFile, StreamedFile, TileOffsets, TileOffsetsParts};
/// let (mut file, mut parts) = (StreamedFile::default(), TileOffsetsParts::default());
/// parts.push_tiles(&mut file, [&[1u8, 2, 3][..]]);
/// // A tile handed over in pieces is one part.
/// parts.push_tiles(&mut file, [&[4u8][..], &[5, 6][..]]);
/// assert_eq!(file.end(), 6);
/// let offsets = TileOffsets::default().with_outside_offsets(&parts).unwrap();
/// assert_eq!(offsets.values, [0, 3]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StreamedFile {
    len: u64,
}

impl StreamedFile {
    /// A file of `end` bytes measured earlier, by [`PartFile::put`], whose
    /// length was kept aside (a writer's scratch copy of tiles waiting for
    /// their turn): that measure, to append to or to state.
    pub const fn resumed(end: u64) -> Self {
        StreamedFile { len: end }
    }
}

impl PartFile for StreamedFile {
    fn end(&self) -> u64 {
        self.len
    }

    fn put(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
    }
}
