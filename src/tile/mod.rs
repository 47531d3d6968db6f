//! Tiles: generic tiles (header + chunked, filtered data) read from mapped
//! files. The data is borrowed from the mapping when no filter touched it.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::filters::Pipeline;
use crate::format::{
    decode, ChunkHeader, ChunkHeaderRef, Datatype, EncryptionType, FilterType, GenericTileHeader,
    Tile, TileRef,
};
use crate::storage::MappedFile;
use crate::ReadOptions;

mod stream;
pub use stream::{ChunkJob, Emitted, TileStream};

/// A generic tile read from a file.
/// A generic tile read from a file: its header and unfiltered data.
#[derive(Debug)]
#[non_exhaustive]
pub struct GenericTile<'a> {
    /// Where the tile starts in its file.
    pub offset: u64,
    /// The tile's header, as stored.
    pub header: GenericTileHeader,
    /// The unfiltered tile data.
    pub data: Cow<'a, [u8]>,
    /// Where the next byte after the tile is.
    pub end: u64,
}

/// `len` bytes at `offset` of `file`, of which `bytes` (the file's bytes
/// from offset `base` on) are at hand.
fn slice<'a>(
    file: &'a MappedFile,
    bytes: &'a [u8],
    base: u64,
    offset: u64,
    len: u64,
    table: &str,
    field: &str,
) -> Result<&'a [u8]> {
    let have = base + bytes.len() as u64;
    let end = offset.checked_add(len).filter(|e| *e <= have);
    match end {
        Some(end) => Ok(&bytes[(offset - base) as usize..(end - base) as usize]),
        None if base == 0 && bytes.len() as u64 == file.len() => Err(Error::decode(
            file.path(),
            offset,
            table,
            field,
            format!("{len} bytes declared, the file has {have} bytes"),
        )),
        None => Err(Error::decode(
            file.path(),
            offset,
            table,
            field,
            format!("{len} bytes declared, the tile's byte range ends at byte {have}"),
        )),
    }
}

/// Reads the generic tile at `offset` of `file` and reverses its filters.
pub fn read_generic_tile<'a>(
    file: &'a MappedFile,
    offset: u64,
    opts: &ReadOptions,
) -> Result<GenericTile<'a>> {
    read_generic_tile_in(file, file.bytes(), 0, offset, opts)
}

/// Reads the generic tile at `offset` of a file of which only `bytes` are
/// at hand: its bytes from offset `base` on (a byte range fetched from an
/// object store). `file` names the file in errors (its own bytes are not
/// read); offsets in errors are the file's.
pub fn read_generic_tile_in<'a>(
    file: &'a MappedFile,
    bytes: &'a [u8],
    base: u64,
    offset: u64,
    opts: &ReadOptions,
) -> Result<GenericTile<'a>> {
    let path = file.path();
    let Some(at) = offset
        .checked_sub(base)
        .filter(|at| *at <= bytes.len() as u64)
    else {
        return Err(Error::decode(
            path,
            offset,
            "GenericTileHeader",
            "",
            "offset past the end of the file",
        ));
    };
    let rest = &bytes[at as usize..];
    let (header, used) = decode::<GenericTileHeader>(rest, path, offset, ())?;
    // The pipeline must take exactly the bytes the header gives it.
    // The pipeline must take exactly the bytes the header gives it (a size
    // larger than what was read cannot be subtracted: checked).
    let pipeline_at = GenericTileHeader::OFFSET_FILTER_PIPELINE as u64;
    let pipeline_start = used.checked_sub(u64::from(header.filter_pipeline_size));
    if pipeline_start != Some(pipeline_at) {
        return Err(Error::decode(
            path,
            offset + GenericTileHeader::OFFSET_FILTER_PIPELINE_SIZE as u64,
            "GenericTileHeader",
            "filter_pipeline_size",
            format!(
                "says {} bytes, the pipeline took {}",
                header.filter_pipeline_size,
                used.saturating_sub(pipeline_at)
            ),
        ));
    }
    // The engine's checks (generic_tile_io.cc `GenericTileIO::load`,
    // `configure_encryption_filter`): the key must be of the tile's
    // encryption type (none for an unencrypted tile), and an encrypted
    // tile's serialized pipeline must hold the AES-256-GCM filter.
    let encryption_error = |what: &str| {
        Error::decode(
            path,
            offset + GenericTileHeader::OFFSET_ENCRYPTION_TYPE as u64,
            "GenericTileHeader",
            "encryption_type",
            what,
        )
    };
    match header.encryption_type {
        EncryptionType::NoEncryption => {
            if opts.encryption_key.is_some() {
                return Err(encryption_error(
                    "the tile is not encrypted, but an encryption key was given",
                ));
            }
        }
        EncryptionType::Aes256Gcm => {
            if opts.encryption_key.is_none() {
                return Err(encryption_error(crate::filters::encryption::MISSING_KEY));
            }
            if !header
                .filter_pipeline
                .filters
                .iter()
                .any(|f| f.filter_type == FilterType::Aes256Gcm)
            {
                return Err(encryption_error(
                    "the tile is encrypted, but its filter pipeline has no AES_256_GCM filter",
                ));
            }
        }
        other => {
            return Err(encryption_error(&format!(
                "unknown encryption type {}",
                other.value()
            )))
        }
    }
    if header.tile_size > opts.max_tile_bytes() {
        return Err(Error::decode(
            path,
            offset + GenericTileHeader::OFFSET_TILE_SIZE as u64,
            "GenericTileHeader",
            "tile_size",
            format!(
                "{} bytes exceeds the limit of {} bytes",
                header.tile_size,
                opts.max_tile_bytes()
            ),
        ));
    }
    let data_start = offset + used;
    let persisted = slice(
        file,
        bytes,
        base,
        data_start,
        header.persisted_size,
        "GenericTileHeader",
        "persisted_size",
    )?;
    let datatype = header.datatype.known().unwrap_or(Datatype::Char);
    let pipeline = Pipeline::new(
        &header.filter_pipeline.filters,
        datatype,
        header.cell_size,
        header.version_number,
    )
    .map(|p| p.with_key(opts.encryption_key))
    .map_err(|e| Error::Filter {
        file: path.to_path_buf(),
        offset,
        chunk: 0,
        filter: e.filter,
        what: e.what,
    })?;
    let data = unfilter_tile(
        file,
        data_start,
        persisted,
        Some(header.tile_size),
        opts.max_tile_bytes(),
        &pipeline,
        None,
    )?;
    Ok(GenericTile {
        offset,
        end: data_start + header.persisted_size,
        header,
        data,
    })
}

/// One chunk of a stored tile, borrowed from the file.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ChunkView<'a> {
    /// Where the chunk's header sits in its file.
    pub at: u64,
    /// Where the chunk's bytes start in the unfiltered tile.
    pub start: u64,
    /// The chunk's unfiltered length.
    pub original_length: u32,
    /// The filters' metadata.
    pub metadata: &'a [u8],
    /// The filtered bytes (the chunk's own bytes when nothing filtered it).
    pub data: &'a [u8],
}

/// A stored tile (`Tile`: chunk count + chunks) as a view of the file: its
/// chunk headers checked and its chunks borrowed, nothing decoded yet.
#[derive(Debug, Clone)]
pub struct TileView<'a> {
    file: &'a MappedFile,
    path: &'a std::path::Path,
    base: u64,
    chunks: Vec<ChunkView<'a>>,
    total: u64,
}

impl<'a> TileView<'a> {
    /// Reads the chunk headers of the tile at `base` of `file` (whose stored
    /// bytes are `bytes`). `expected` is the unfiltered size when a header
    /// gives it; the chunks' original lengths must add up to it and to no
    /// more than `limit`. `unfiltered`: the tile's pipeline is empty, so each
    /// chunk's filtered length must equal its original length.
    pub fn parse(
        file: &'a MappedFile,
        base: u64,
        bytes: &'a [u8],
        expected: Option<u64>,
        limit: u64,
        unfiltered: bool,
    ) -> Result<Self> {
        let path = file.path();
        let Some(head) = TileRef::read(bytes) else {
            return Err(Error::decode(
                path,
                base,
                "Tile",
                "num_chunks",
                "the tile ends before its chunk count",
            ));
        };
        let num_chunks = head.num_chunks();
        let mut pos = Tile::OFFSET_CHUNKS as u64;
        // Each chunk takes at least its header.
        if num_chunks > (bytes.len() / ChunkHeader::SIZE) as u64 {
            return Err(Error::decode(
                path,
                base,
                "Tile",
                "num_chunks",
                format!("{num_chunks} chunks cannot fit in {} bytes", bytes.len()),
            ));
        }
        // First the chunk headers: sizes are checked before anything is decoded.
        let mut chunks = Vec::with_capacity(num_chunks as usize);
        let mut total = 0u64;
        // Unfiltered chunks this large are read from the file, not the
        // mapping (`decode_into`): their headers are too, or each header
        // would fault in a page of the mapping for 12 bytes.
        let from_file =
            unfiltered && bytes.len() as u64 / num_chunks.max(1) >= Self::READ_FROM_FILE as u64;
        let mut copy = [0u8; ChunkHeader::SIZE];
        for chunk in 0..num_chunks {
            let at = base + pos;
            let rest = &bytes[pos as usize..];
            let src = match rest.get(..ChunkHeader::SIZE) {
                Some(h) if from_file && file.copy_out(h, &mut copy) => &copy[..],
                _ => rest,
            };
            let Some(h) = ChunkHeaderRef::read(src) else {
                // Too short: the error as the codec words it.
                return Err(match decode::<ChunkHeader>(rest, path, at, ()) {
                    Err(e) => e,
                    Ok(_) => Error::decode(path, at, "ChunkHeader", "", "too short"),
                });
            };
            let (original_length, filtered_length) = (h.original_length(), h.filtered_length());
            pos += ChunkHeader::SIZE as u64;
            let md_end = pos + u64::from(h.metadata_length());
            let data_end = md_end + u64::from(filtered_length);
            if data_end > bytes.len() as u64 {
                return Err(Error::decode(
                    path,
                    at,
                    "Chunk",
                    "filtered_data",
                    format!(
                        "chunk {chunk} runs {} bytes past the tile",
                        data_end - bytes.len() as u64
                    ),
                ));
            }
            if unfiltered && filtered_length != original_length {
                return Err(Error::decode(
                    path,
                    at,
                    "ChunkHeader",
                    "filtered_length",
                    format!(
                        "chunk {chunk} has no filters but {} filtered bytes for {} original",
                        filtered_length, original_length
                    ),
                ));
            }
            chunks.push(ChunkView {
                at,
                start: total,
                original_length,
                metadata: &bytes[pos as usize..md_end as usize],
                data: &bytes[md_end as usize..data_end as usize],
            });
            total += u64::from(original_length);
            pos = data_end;
        }
        if let Some(size) = expected {
            if size != total {
                return Err(Error::decode(
                    path,
                    base,
                    "GenericTileHeader",
                    "tile_size",
                    format!("the chunks hold {total} bytes, the header says {size}"),
                ));
            }
        }
        if total > limit {
            return Err(Error::decode(
                path,
                base,
                "ChunkHeader",
                "original_length",
                format!("the tile's chunks add up to {total} bytes, over the limit of {limit}"),
            ));
        }
        Ok(TileView {
            file,
            path,
            base,
            chunks,
            total,
        })
    }

    /// Unfiltered chunks of at least this many bytes are read from their
    /// file into the result ([`MappedFile::copy_out`]) rather than copied
    /// through the mapping.
    pub const READ_FROM_FILE: usize = 1 << 15;

    /// The tile's unfiltered size in bytes.
    pub fn len(&self) -> u64 {
        self.total
    }

    /// Whether the tile holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The chunks, in order.
    pub fn chunks(&self) -> &[ChunkView<'a>] {
        &self.chunks
    }

    fn filter_error(&self, chunk: usize, e: crate::filters::FilterError) -> Error {
        Error::Filter {
            file: self.path.to_path_buf(),
            offset: self.base,
            chunk: chunk as u64,
            filter: e.filter,
            what: e.what,
        }
    }

    /// The whole tile unfiltered: borrowed from the file when nothing
    /// filtered it and it is one chunk, else decoded into a buffer of its
    /// own. `offsets` receives the cell offsets RLE and DICTIONARY recover
    /// from a var-sized string tile they folded them into.
    pub fn decode(
        &self,
        pipeline: &Pipeline,
        offsets: Option<&std::cell::RefCell<Vec<u64>>>,
        limit: u64,
    ) -> Result<Cow<'a, [u8]>> {
        if pipeline.is_empty() {
            if let [c] = self.chunks.as_slice() {
                return Ok(Cow::Borrowed(c.data));
            }
        }
        if offsets.is_none() {
            let mut out = vec![0; self.total as usize];
            self.decode_into(pipeline, limit, &mut out)?;
            return Ok(Cow::Owned(out));
        }
        let mut out = Vec::with_capacity(self.total as usize);
        for (i, c) in self.chunks.iter().enumerate() {
            let plain = pipeline
                .reverse_chunk_within(c.metadata, c.data, offsets, limit)
                .map_err(|e| self.filter_error(i, e))?;
            self.check_len(i, c, plain.len())?;
            out.extend_from_slice(&plain);
        }
        Ok(Cow::Owned(out))
    }

    fn check_len(&self, i: usize, c: &ChunkView, len: usize) -> Result<()> {
        if len as u64 != u64::from(c.original_length) {
            return Err(Error::decode(
                self.path,
                c.at,
                "ChunkHeader",
                "original_length",
                format!(
                    "chunk {i} unfilters to {len} bytes, the header says {}",
                    c.original_length
                ),
            ));
        }
        Ok(())
    }

    /// Decodes the whole tile into `out` (exactly [`TileView::len`] bytes),
    /// each chunk straight into its place.
    pub fn decode_into(&self, pipeline: &Pipeline, limit: u64, out: &mut [u8]) -> Result<()> {
        if out.len() as u64 != self.total {
            return Err(Error::decode(
                self.path,
                self.base,
                "Tile",
                "",
                format!("{} bytes for a tile of {}", out.len(), self.total),
            ));
        }
        // Large unfiltered chunks: read from the file together (one call
        // for the tile's chunks and the headers between them).
        let from_file = pipeline.is_empty()
            && !self.chunks.is_empty()
            && self.total / self.chunks.len() as u64 >= Self::READ_FROM_FILE as u64;
        if from_file {
            let mut parts = Vec::with_capacity(self.chunks.len());
            let mut rest = &mut out[..];
            for c in &self.chunks {
                let (dest, tail) = rest.split_at_mut(c.original_length as usize);
                parts.push((c.data, dest));
                rest = tail;
            }
            if self.file.copy_out_parts(&mut parts) {
                return Ok(());
            }
        }
        for (i, c) in self.chunks.iter().enumerate() {
            let dest =
                &mut out[c.start as usize..(c.start + u64::from(c.original_length)) as usize];
            if pipeline.is_empty()
                && dest.len() >= Self::READ_FROM_FILE
                && self.file.copy_out(c.data, dest)
            {
                continue;
            }
            pipeline
                .reverse_chunk_into(c.metadata, c.data, limit, dest)
                .map_err(|e| self.filter_error(i, e))?;
        }
        Ok(())
    }

    /// The chunks holding bytes `range` of the unfiltered tile.
    pub fn chunks_for(&self, range: std::ops::Range<u64>) -> std::ops::Range<usize> {
        let first = self
            .chunks
            .partition_point(|c| c.start + u64::from(c.original_length) <= range.start);
        let last = self.chunks.partition_point(|c| c.start < range.end);
        first..last.max(first)
    }

    /// Copies bytes `range` of the unfiltered tile into `out`, decoding only
    /// the chunks that hold them (chunks decode independently: no filter
    /// keeps state across chunks). Unfiltered chunks are copied straight
    /// from the file; a decoded chunk is kept in `cache` for the next call.
    pub fn read_range_into(
        &self,
        pipeline: &Pipeline,
        limit: u64,
        range: std::ops::Range<u64>,
        out: &mut [u8],
        cache: &mut ChunkCache,
    ) -> Result<()> {
        if range.end > self.total || out.len() as u64 != range.end - range.start {
            return Err(Error::decode(
                self.path,
                self.base,
                "Tile",
                "",
                format!(
                    "bytes {}..{} of a tile of {} into {} bytes",
                    range.start,
                    range.end,
                    self.total,
                    out.len()
                ),
            ));
        }
        for i in self.chunks_for(range.clone()) {
            let c = &self.chunks[i];
            let c_end = c.start + u64::from(c.original_length);
            let (s, e) = (range.start.max(c.start), range.end.min(c_end));
            let dst = &mut out[(s - range.start) as usize..(e - range.start) as usize];
            let (cs, ce) = ((s - c.start) as usize, (e - c.start) as usize);
            if pipeline.is_empty() {
                dst.copy_from_slice(&c.data[cs..ce]);
                continue;
            }
            // The chunk's place in memory names it (offsets repeat across files).
            let key = (c.data.as_ptr() as usize, c.data.len());
            if cache.key != Some(key) {
                cache.data.resize(c.original_length as usize, 0);
                cache.key = None;
                pipeline
                    .reverse_chunk_into(c.metadata, c.data, limit, &mut cache.data)
                    .map_err(|e| self.filter_error(i, e))?;
                cache.key = Some(key);
                cache.decoded += 1;
            }
            dst.copy_from_slice(&cache.data[cs..ce]);
        }
        Ok(())
    }
}

/// The last chunk [`TileView::read_range_into`] decoded, kept for the next
/// read of the same tile.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ChunkCache {
    key: Option<(usize, usize)>,
    data: Vec<u8>,
    /// How many chunks were decoded through this cache.
    pub decoded: u64,
}

/// Reverses the filters of a serialized `Tile` (chunk count + chunks) that
/// sits at `base` of `file`. `expected` is the unfiltered size when a header
/// gives it; the chunks' original lengths must add up to it and to no more
/// than `limit`. Returns borrowed bytes when nothing was filtered and the
/// tile is one chunk (no copy).
pub fn unfilter_tile<'a>(
    file: &'a MappedFile,
    base: u64,
    bytes: &'a [u8],
    expected: Option<u64>,
    limit: u64,
    pipeline: &Pipeline,
    offsets: Option<&std::cell::RefCell<Vec<u64>>>,
) -> Result<Cow<'a, [u8]>> {
    TileView::parse(file, base, bytes, expected, limit, pipeline.is_empty())?
        .decode(pipeline, offsets, limit)
}

/// Wraps `data` in a generic tile of format `version`, as the engine would
/// without compression: an empty filter pipeline (max chunk size 65536),
/// datatype CHAR, cell size 1, no encryption. The inverse of
/// [`read_generic_tile`]; [`generic_tile_with`] with no filters.
pub fn write_generic_tile(data: &[u8], version: u32) -> Vec<u8> {
    generic_tile_with(data, version, Vec::new(), None)
        .expect("a generic tile without filters is always written")
}

/// Wraps `data` in a generic tile whose header states format `version`,
/// filtered by `filters` (in chunks of at most 64 KiB, as the engine's
/// `GenericTileIO::write_generic`) and encrypted with `key` when one is
/// given (the AES-256-GCM filter must then end `filters`). Datatype CHAR,
/// cell size 1; the header's encryption type says whether it is encrypted.
pub fn generic_tile_with(
    data: &[u8],
    version: u32,
    filters: Vec<crate::format::Filter>,
    key: Option<[u8; 32]>,
) -> std::result::Result<Vec<u8>, crate::filters::FilterError> {
    use crate::format::{encode, FilterPipeline, Record};
    let pipeline = Pipeline::new(&filters, Datatype::Char, 1, version)?.with_key(key);
    let body = pipeline.forward_tile(data)?;
    let encryption_type = match key {
        Some(_) => EncryptionType::Aes256Gcm,
        None => EncryptionType::NoEncryption,
    };
    let fp = crate::format::table!(FilterPipeline {
        max_chunk_size: 65536,
        filters,
    });
    let header = crate::format::table!(GenericTileHeader {
        datatype: Datatype::Char,
        cell_size: 1,
        encryption_type,
        filter_pipeline: fp,
    })
    .at_version(version)
    .with_sizes()
    .with_outside_sizes(&body, data)?;
    let mut out = encode(&header)?;
    out.extend_from_slice(&body);
    Ok(out)
}

#[cfg(test)]
mod tests;
