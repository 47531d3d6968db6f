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

/// A generic tile read from a file.
/// A generic tile read from a file: its header and unfiltered data.
#[derive(Debug)]
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

/// A stored tile (`Tile`: chunk count + chunks) decoded as its bytes
/// arrive, in pieces of any size ([`TileStream::feed`]), into its place:
/// the tile's whole unfiltered bytes. The chunk headers are checked as
/// [`TileView::parse`] checks them; an unfiltered chunk is copied into its
/// place as it arrives, a filtered one is gathered whole and handed on as a
/// [`ChunkJob`] to unfilter into its place (on any thread). Bytes after the
/// last chunk are ignored, as [`TileView::parse`] ignores them.
///
/// A stream made with [`TileStream::scattered`] has no place: it hands on
/// each unfiltered piece with where it lies in the tile
/// ([`Emitted::Bytes`]), and its jobs unfilter into buffers of their own
/// ([`ChunkJob::run_owned`]), for a caller that spreads the tile's cells
/// over a result it cannot lend out whole.
#[derive(Debug)]
pub struct TileStream<'o> {
    path: std::sync::Arc<std::path::Path>,
    /// Where the tile starts in its file.
    base: u64,
    /// The tile's stored length.
    stored: u64,
    limit: u64,
    pipeline: &'o Pipeline,
    /// The tile's unfiltered length.
    len: u64,
    /// The part of the place no chunk has taken yet.
    rest: &'o mut [u8],
    /// The place of the chunk at hand.
    dest: &'o mut [u8],
    /// Stored bytes taken so far.
    seen: u64,
    /// Stored bytes fed so far, those after the last chunk too.
    fed: u64,
    /// Unfiltered bytes the chunks seen so far hold.
    placed: u64,
    state: StreamState,
    /// A chunk count or chunk header being gathered.
    head: [u8; ChunkHeader::SIZE],
    head_len: usize,
    chunks: u64,
    chunk: u64,
    /// A filtered chunk being gathered: its metadata, then its data.
    gathered: Vec<u8>,
    /// Made by [`TileStream::scattered`]: no place, the pieces handed on.
    scattered: bool,
    /// Where the chunk at hand starts in the unfiltered tile, and its
    /// unfiltered length.
    chunk_at: u64,
    chunk_len: u64,
}

/// What a [`TileStream`] hands on as bytes are fed.
#[derive(Debug)]
pub enum Emitted<'o, 'b> {
    /// A filtered chunk, gathered whole.
    Job(ChunkJob<'o>),
    /// Unfiltered bytes of a [`TileStream::scattered`] tile: where they
    /// start in the tile, and the bytes.
    Bytes(u64, &'b [u8]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StreamState {
    Count,
    Header,
    /// The bytes of a chunk after its header: its metadata length, and the
    /// stored bytes left of it.
    Body {
        meta: u64,
        left: u64,
    },
    Done,
}

/// A filtered chunk of a [`TileStream`], gathered whole: [`ChunkJob::run`]
/// unfilters it into its place.
#[derive(Debug)]
pub struct ChunkJob<'o> {
    path: std::sync::Arc<std::path::Path>,
    base: u64,
    chunk: u64,
    limit: u64,
    pipeline: &'o Pipeline,
    /// The chunk's metadata length, then its filtered data.
    meta: usize,
    bytes: Vec<u8>,
    dest: &'o mut [u8],
    /// Where the chunk starts in the unfiltered tile, and its length.
    at: u64,
    len: u64,
}

impl ChunkJob<'_> {
    /// The stored bytes the job holds.
    pub fn held(&self) -> usize {
        self.bytes.len()
    }

    /// Where the chunk starts in the unfiltered tile.
    pub fn at(&self) -> u64 {
        self.at
    }

    /// The chunk's unfiltered length.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the chunk unfilters to nothing.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Unfilters the chunk into its place.
    pub fn run(self) -> Result<()> {
        let (md, data) = self.bytes.split_at(self.meta);
        self.pipeline
            .reverse_chunk_into(md, data, self.limit, self.dest)
            .map_err(|e| self.error(e))
    }

    /// Unfilters the chunk of a [`TileStream::scattered`] tile into a
    /// buffer of its own: where it starts in the tile, and its bytes.
    pub fn run_owned(self) -> Result<(u64, Vec<u8>)> {
        let mut out = vec![0u8; self.len as usize];
        let (md, data) = self.bytes.split_at(self.meta);
        self.pipeline
            .reverse_chunk_into(md, data, self.limit, &mut out)
            .map_err(|e| self.error(e))?;
        Ok((self.at, out))
    }

    fn error(&self, e: crate::filters::FilterError) -> Error {
        Error::Filter {
            file: self.path.to_path_buf(),
            offset: self.base,
            chunk: self.chunk,
            filter: e.filter,
            what: e.what,
        }
    }
}

impl<'o> TileStream<'o> {
    /// A tile of `stored` bytes at `base` of the file `path`, filtered by
    /// `pipeline`, to decode into `out` (exactly its unfiltered size).
    /// `limit` as [`TileView::parse`] takes it.
    pub fn new(
        path: &std::path::Path,
        base: u64,
        stored: u64,
        limit: u64,
        pipeline: &'o Pipeline,
        out: &'o mut [u8],
    ) -> Self {
        TileStream {
            path: path.into(),
            base,
            stored,
            limit,
            pipeline,
            len: out.len() as u64,
            rest: out,
            dest: &mut [],
            seen: 0,
            fed: 0,
            placed: 0,
            state: StreamState::Count,
            head: [0; ChunkHeader::SIZE],
            head_len: 0,
            chunks: 0,
            chunk: 0,
            gathered: Vec::new(),
            scattered: false,
            chunk_at: 0,
            chunk_len: 0,
        }
    }

    /// A tile as [`TileStream::new`] takes it, of `len` unfiltered bytes,
    /// with no place: fed with [`TileStream::feed_scattered`], it hands on
    /// its unfiltered bytes as they come and its filtered chunks as jobs
    /// that unfilter into buffers of their own.
    pub fn scattered(
        path: &std::path::Path,
        base: u64,
        stored: u64,
        limit: u64,
        pipeline: &'o Pipeline,
        len: u64,
    ) -> Self {
        TileStream {
            len,
            scattered: true,
            ..TileStream::new(path, base, stored, limit, pipeline, &mut [])
        }
    }

    /// The tile's whole place, while no byte has been fed (`None` after).
    pub fn untouched(&mut self) -> Option<&mut [u8]> {
        (self.seen == 0).then_some(&mut *self.rest)
    }

    /// Gathers the first `want` bytes of a count or header from `bytes`;
    /// them once complete.
    fn gather(&mut self, bytes: &mut &[u8], want: usize) -> Option<[u8; ChunkHeader::SIZE]> {
        let n = (want - self.head_len).min(bytes.len());
        self.head[self.head_len..self.head_len + n].copy_from_slice(&bytes[..n]);
        self.head_len += n;
        *bytes = &bytes[n..];
        self.seen += n as u64;
        (self.head_len == want).then(|| {
            self.head_len = 0;
            self.head
        })
    }

    fn error(&self, at: u64, table: &str, field: &str, what: String) -> Error {
        Error::decode(&self.path, at, table, field, what)
    }

    /// Takes the next stored bytes of the tile; each filtered chunk they
    /// complete goes to `job`.
    pub fn feed(
        &mut self,
        bytes: &[u8],
        job: &mut dyn FnMut(ChunkJob<'o>) -> Result<()>,
    ) -> Result<()> {
        self.feed_scattered(bytes, &mut |e| match e {
            Emitted::Job(j) => job(j),
            // A stream with a place copies its unfiltered bytes there.
            Emitted::Bytes(..) => Ok(()),
        })
    }

    /// [`TileStream::feed`] handing on everything the bytes complete: the
    /// filtered chunks, and for a [`TileStream::scattered`] tile the
    /// unfiltered bytes.
    pub fn feed_scattered(
        &mut self,
        mut bytes: &[u8],
        emit: &mut dyn FnMut(Emitted<'o, '_>) -> Result<()>,
    ) -> Result<()> {
        self.fed += bytes.len() as u64;
        while !bytes.is_empty() {
            match self.state {
                StreamState::Done => return Ok(()),
                StreamState::Count => {
                    let Some(h) = self.gather(&mut bytes, Tile::OFFSET_CHUNKS) else {
                        continue;
                    };
                    let chunks = TileRef::read(&h).map_or(0, TileRef::num_chunks);
                    // Each chunk takes at least its header.
                    if chunks > self.stored / ChunkHeader::SIZE as u64 {
                        return Err(self.error(
                            self.base,
                            "Tile",
                            "num_chunks",
                            format!("{chunks} chunks cannot fit in {} bytes", self.stored),
                        ));
                    }
                    self.chunks = chunks;
                    self.next_chunk();
                }
                StreamState::Header => {
                    let at = self.base + self.seen - self.head_len as u64;
                    let Some(h) = self.gather(&mut bytes, ChunkHeader::SIZE) else {
                        continue;
                    };
                    let h = ChunkHeaderRef::read(&h).map(ChunkHeaderRef::record);
                    self.header(at, &h.unwrap_or_default(), emit)?;
                }
                StreamState::Body { meta, left } => {
                    let n = left.min(bytes.len() as u64) as usize;
                    let (take, rest) = bytes.split_at(n);
                    bytes = rest;
                    self.seen += n as u64;
                    if self.pipeline.is_empty() {
                        // The metadata (what is left beyond the data, as
                        // long as the place) is skipped; the data goes
                        // straight to its place.
                        let place = self.chunk_len;
                        let data = &take[(left.saturating_sub(place) as usize).min(n)..];
                        let at = (place - left.min(place)) as usize;
                        if self.scattered {
                            if !data.is_empty() {
                                emit(Emitted::Bytes(self.chunk_at + at as u64, data))?;
                            }
                        } else {
                            self.dest[at..at + data.len()].copy_from_slice(data);
                        }
                    } else {
                        self.gathered.extend_from_slice(take);
                    }
                    let left = left - n as u64;
                    self.state = StreamState::Body { meta, left };
                    if left == 0 {
                        self.end_chunk(emit)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks a chunk header read at file offset `at` as [`TileView::parse`]
    /// does, and goes on to the chunk's bytes.
    fn header(
        &mut self,
        at: u64,
        h: &ChunkHeader,
        emit: &mut dyn FnMut(Emitted<'o, '_>) -> Result<()>,
    ) -> Result<()> {
        let chunk = self.chunk;
        let len = u64::from(h.metadata_length) + u64::from(h.filtered_length);
        if self.seen + len > self.stored {
            return Err(self.error(
                at,
                "Chunk",
                "filtered_data",
                format!(
                    "chunk {chunk} runs {} bytes past the tile",
                    self.seen + len - self.stored
                ),
            ));
        }
        if self.pipeline.is_empty() && h.filtered_length != h.original_length {
            return Err(self.error(
                at,
                "ChunkHeader",
                "filtered_length",
                format!(
                    "chunk {chunk} has no filters but {} filtered bytes for {} original",
                    h.filtered_length, h.original_length
                ),
            ));
        }
        let total = self.placed + u64::from(h.original_length);
        if total > self.limit {
            return Err(self.error(
                self.base,
                "ChunkHeader",
                "original_length",
                format!(
                    "the tile's chunks add up to at least {total} bytes, over the limit of {}",
                    self.limit
                ),
            ));
        }
        if total > self.len {
            return Err(self.wrong_size(total, "at least "));
        }
        (self.chunk_at, self.chunk_len) = (self.placed, u64::from(h.original_length));
        self.placed = total;
        if !self.scattered {
            let (dest, rest) =
                std::mem::take(&mut self.rest).split_at_mut(h.original_length as usize);
            (self.dest, self.rest) = (dest, rest);
        }
        self.gathered.clear();
        self.state = StreamState::Body {
            meta: u64::from(h.metadata_length),
            left: len,
        };
        if len == 0 {
            // Nothing follows the header: the chunk ends here.
            self.end_chunk(emit)?;
        }
        Ok(())
    }

    /// The tile holds `total` bytes, not what its place needs.
    fn wrong_size(&self, total: u64, bound: &str) -> Error {
        self.error(
            self.base,
            "Tile",
            "",
            format!(
                "the tile's chunks hold {bound}{total} bytes, a tile here holds {}",
                self.len
            ),
        )
    }

    /// The chunk at hand is whole: a gathered one goes to `job`; then on
    /// to the next chunk.
    fn end_chunk(&mut self, emit: &mut dyn FnMut(Emitted<'o, '_>) -> Result<()>) -> Result<()> {
        let dest = std::mem::take(&mut self.dest);
        // An unfiltered chunk went to its place as it came.
        if !self.pipeline.is_empty() {
            let meta = match self.state {
                StreamState::Body { meta, .. } => meta,
                _ => 0,
            };
            emit(Emitted::Job(ChunkJob {
                path: self.path.clone(),
                base: self.base,
                chunk: self.chunk,
                limit: self.limit,
                pipeline: self.pipeline,
                meta: meta as usize,
                bytes: std::mem::take(&mut self.gathered),
                dest,
                at: self.chunk_at,
                len: self.chunk_len,
            }))?;
        }
        self.chunk += 1;
        self.next_chunk();
        Ok(())
    }

    fn next_chunk(&mut self) {
        self.state = if self.chunk == self.chunks {
            StreamState::Done
        } else {
            StreamState::Header
        };
    }

    /// Checks, once every byte of the tile's range has been fed, that the
    /// whole range came (as a tile fetched whole must), the whole tile in
    /// it, and that it filled its place.
    pub fn finish(&self) -> Result<()> {
        if self.fed != self.stored {
            let (start, end) = (self.base, self.base + self.stored);
            return Err(self.error(
                start,
                "TileOffsets",
                "values",
                format!(
                    "the tile spans bytes {start}..{end}, but its object ends after {}",
                    start + self.fed
                ),
            ));
        }
        if self.state != StreamState::Done {
            return Err(self.error(
                self.base + self.seen,
                "Tile",
                if self.state == StreamState::Count {
                    "num_chunks"
                } else {
                    "chunks"
                },
                format!(
                    "the tile ends after {} of its {} stored bytes, in chunk {} of {}",
                    self.seen, self.stored, self.chunk, self.chunks
                ),
            ));
        }
        if self.placed != self.len {
            return Err(self.wrong_size(self.placed, ""));
        }
        Ok(())
    }
}

/// The last chunk [`TileView::read_range_into`] decoded, kept for the next
/// read of the same tile.
#[derive(Debug, Default)]
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
    use crate::format::{encode, FilterPipeline};
    let pipeline = Pipeline::new(&filters, Datatype::Char, 1, version)?.with_key(key);
    let body = pipeline.forward_tile(data)?;
    let encryption_type = match key {
        Some(_) => EncryptionType::Aes256Gcm,
        None => EncryptionType::NoEncryption,
    };
    let fp = crate::format::table!(FilterPipeline {
        max_chunk_size: 65536,
        num_filters: filters.len() as u32,
        filters,
    });
    let header = crate::format::table!(GenericTileHeader {
        version_number: version,
        persisted_size: body.len() as u64,
        tile_size: data.len() as u64,
        datatype: Datatype::Char,
        cell_size: 1,
        encryption_type,
        filter_pipeline_size: encode(&fp).len() as u32,
        filter_pipeline: fp,
    });
    let mut out = encode(&header);
    out.extend_from_slice(&body);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{ChunkJob, TileStream, TileView};
    use crate::filters::Pipeline;
    use crate::format::{encode, CompressorOptions, Datatype, Filter, FilterOptions, FilterType};
    use crate::storage::MappedFile;

    fn pipelines() -> Vec<Pipeline> {
        let zstd = FilterOptions::Compressor(crate::format::table!(CompressorOptions {
            compressor_type: crate::format::Compressor::from_raw(2),
            compression_level: 1,
            reinterpret_datatype: None,
        }));
        let zstd = crate::format::table!(Filter {
            filter_type: FilterType::Zstd,
            filter_options_size: encode(&zstd).len() as u32,
            filter_options: zstd,
        });
        [vec![], vec![zstd]]
            .iter()
            .map(|f| Pipeline::new(f, Datatype::Uint8, 1, 22).unwrap())
            .collect()
    }

    /// What the view of a stored tile decodes to (or its error's text).
    fn by_view(p: &Pipeline, stored: &[u8], len: usize) -> Result<Vec<u8>, String> {
        let file = MappedFile::from_vec("t", stored.to_vec());
        let mut out = vec![0; len];
        TileView::parse(&file, 0, file.bytes(), None, 1 << 20, p.is_empty())
            .and_then(|v| v.decode_into(p, 1 << 20, &mut out))
            .map(|()| out)
            .map_err(|e| e.to_string())
    }

    /// What a stream fed `stored` in pieces of `step` bytes decodes to.
    fn by_stream(p: &Pipeline, stored: &[u8], len: usize, step: usize) -> Result<Vec<u8>, String> {
        let mut out = vec![0; len];
        let mut s = TileStream::new("t".as_ref(), 0, stored.len() as u64, 1 << 20, p, &mut out);
        // The filtered chunks' jobs run after their tile's last piece.
        let mut jobs = Vec::new();
        stored
            .chunks(step)
            .try_for_each(|piece| {
                s.feed(piece, &mut |j| {
                    jobs.push(j);
                    Ok(())
                })
            })
            .and_then(|()| s.finish())
            .and_then(|()| jobs.into_iter().try_for_each(ChunkJob::run))
            .map_err(|e| e.to_string())?;
        Ok(out)
    }

    /// Tiles of every pipeline and size, fed in pieces of any size, decode
    /// to their bytes.
    #[test]
    fn a_tile_fed_in_pieces_decodes_to_its_bytes() {
        for p in pipelines() {
            for len in [0usize, 1, 100, 65_536, 200_003] {
                let tile: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
                let stored = p.forward_tile(&tile).unwrap();
                for step in [1, 5, 12, 13, 4096, 70_000, usize::MAX] {
                    if step == 1 && len > 100 {
                        continue;
                    }
                    let got = by_stream(&p, &stored, len, step.min(stored.len().max(1)));
                    assert_eq!(
                        got.as_deref(),
                        Ok(&tile[..]),
                        "{len} bytes, pieces of {step}"
                    );
                }
            }
        }
    }

    /// Unfiltered chunks that carry metadata: it is skipped, as a view
    /// skips it.
    #[test]
    fn the_metadata_of_unfiltered_chunks_is_skipped() {
        let p = &pipelines()[0];
        let mut stored = 2u64.to_le_bytes().to_vec();
        for (md, data) in [(&b"meta!"[..], &b"abc"[..]), (b"", b"defg")] {
            for n in [data.len(), data.len(), md.len()] {
                stored.extend((n as u32).to_le_bytes());
            }
            stored.extend(md);
            stored.extend(data);
        }
        assert_eq!(by_view(p, &stored, 7).as_deref(), Ok(&b"abcdefg"[..]));
        for step in 1..stored.len() {
            assert_eq!(
                by_stream(p, &stored, 7, step).as_deref(),
                Ok(&b"abcdefg"[..])
            );
        }
    }

    /// A tile whose range runs past what its object gave is refused even
    /// when its chunks came whole (a tile fetched whole must be whole), as
    /// a view of the range is never made.
    #[test]
    fn a_range_longer_than_the_object_is_refused() {
        for p in pipelines() {
            let tile = vec![5u8; 1000];
            let stored = p.forward_tile(&tile).unwrap();
            let mut out = vec![0; tile.len()];
            let range = stored.len() as u64 + 10;
            let mut s = TileStream::new("t".as_ref(), 40, range, 1 << 20, &p, &mut out);
            let mut jobs = Vec::new();
            s.feed(&stored, &mut |j| {
                jobs.push(j);
                Ok(())
            })
            .unwrap();
            let err = s.finish().unwrap_err().to_string();
            assert!(
                err.contains("TileOffsets") && err.contains("ends after"),
                "{err}"
            );
        }
    }

    /// A stored tile cut short, or with any byte of its count or chunk
    /// headers changed, gets the verdict a view of it gets: the same bytes,
    /// or an error (and never a panic).
    #[test]
    fn a_damaged_tile_streams_to_the_views_verdict() {
        for p in pipelines() {
            let tile: Vec<u8> = (0..150_000).map(|i| (i % 13) as u8).collect();
            let stored = p.forward_tile(&tile).unwrap();
            let len = tile.len();
            for cut in (0..stored.len()).step_by(997).chain([stored.len() - 1]) {
                let s = &stored[..cut];
                assert!(by_view(&p, s, len).is_err(), "cut at {cut}");
                assert!(by_stream(&p, s, len, 4096).is_err(), "cut at {cut}");
            }
            // The count and the first two chunk headers, every byte of
            // them, with bits flipped.
            let first = 8 + 12 + 65_536 + if p.is_empty() { 0 } else { 1 << 20 };
            let heads: Vec<usize> = (0..20)
                .chain((first.min(stored.len() - 12)..).take(12))
                .collect();
            let mut refused = 0;
            for at in heads {
                for flip in [0x01u8, 0x80, 0xff] {
                    let mut d = stored.clone();
                    d[at] ^= flip;
                    let view = by_view(&p, &d, len);
                    let stream = by_stream(&p, &d, len, 1000);
                    assert_eq!(
                        view.is_ok(),
                        stream.is_ok(),
                        "byte {at} ^ {flip:#x}: {view:?} / {stream:?}"
                    );
                    match (view, stream) {
                        (Ok(a), Ok(b)) => assert_eq!(a, b, "byte {at} ^ {flip:#x}"),
                        _ => refused += 1,
                    }
                }
            }
            assert!(refused >= 40, "{refused} damaged tiles refused");
        }
    }
}
