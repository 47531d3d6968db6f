//! Tiles streamed into their places while their bytes arrive (object
//! stores), chunk by chunk: [`TileStream`], its [`ChunkJob`]s and what it
//! hands on ([`Emitted`]).

use super::*;

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
