//! A filter pipeline: its codecs, the datatype each one sees, and the
//! chunking of tiles (tiledb/sm/filter/filter_pipeline.cc).

use std::cell::RefCell;

use rayon::prelude::*;

use super::{codec_for, FilterCodec, FilterContext, FilterError, Parts};
use crate::DEFAULT_MAX_TILE_BYTES;
use tiledb_codec_format::version::{
    has_dictionary_folded_ascii_offsets, has_rle_folded_ascii_offsets, has_utf8_folded_offsets,
};
use tiledb_codec_format::{encode, ChunkHeader, Datatype, Filter, Tile};

/// The engine's largest chunk (`constants::max_tile_chunk_size`).
pub const MAX_TILE_CHUNK_SIZE: u64 = 64 * 1024;

/// A pipeline ready to run: one codec per filter, with its input datatype.
///
/// ```
/// use tiledb_codec_filters::Pipeline;
/// use tiledb_codec_format::{
///     table, Compressor, CompressorOptions, Datatype, Filter, FilterOptions, FilterType, Record,
/// };
///
/// // ZSTD at level 3, over INT32 cells, in a format version 22 array.
/// let zstd = table!(Filter {
///     filter_type: FilterType::Zstd,
///     filter_options: FilterOptions::Compressor(table!(CompressorOptions {
///         compressor_type: Compressor::Zstd,
///         compression_level: 3,
///     })),
/// })
/// .with_sizes();
/// let pipeline = Pipeline::new(&[zstd], Datatype::Int32, 4, 22)?;
/// let cells: Vec<u8> = (0..1000i32).flat_map(|v| (v % 7).to_le_bytes()).collect();
/// let (metadata, data) = pipeline.forward_chunk(&cells)?;
/// assert!(data.len() < cells.len());
/// assert_eq!(pipeline.reverse_chunk(&metadata, &data, None)?, cells);
/// # Ok::<(), tiledb_codec_filters::FilterError>(())
/// ```
#[derive(Debug)]
pub struct Pipeline {
    stages: Vec<(Box<dyn FilterCodec>, Datatype)>,
    cell_size: u64,
    version: u32,
    tile_version: u32,
    key: Option<[u8; 32]>,
}

impl Pipeline {
    /// Builds the pipeline of `filters` for tiles of `datatype` whose cells
    /// take `cell_size` bytes, in an array of format `version`.
    pub fn new(
        filters: &[Filter],
        datatype: Datatype,
        cell_size: u64,
        version: u32,
    ) -> Result<Self, FilterError> {
        let mut stages = Vec::with_capacity(filters.len());
        let mut dt = datatype;
        for f in filters {
            let codec = codec_for(f)?;
            let next = codec.output_datatype(dt);
            stages.push((codec, dt));
            dt = next;
        }
        Ok(Pipeline {
            stages,
            cell_size,
            version,
            tile_version: version,
            key: None,
        })
    }

    /// Adds the AES-256-GCM filter the engine appends for encrypted arrays.
    pub fn with_encryption(mut self, key: [u8; 32]) -> Result<Self, FilterError> {
        let dt = self
            .stages
            .last()
            .map_or(Datatype::Blob, |(c, d)| c.output_datatype(*d));
        let codec = super::encryption_codec()?;
        self.stages.push((codec, dt));
        self.key = Some(key);
        Ok(self)
    }

    /// Sets the key the filters see, without adding a stage: for generic
    /// tiles, whose serialized pipeline already holds the AES-256-GCM filter.
    pub fn with_key(mut self, key: Option<[u8; 32]>) -> Self {
        self.key = key;
        self
    }

    /// For tiles of a fragment whose format version differs from the
    /// schema's (an old fragment read through a newer schema).
    pub fn with_tile_version(mut self, version: u32) -> Self {
        self.tile_version = version;
        self
    }

    /// Whether the pipeline has no filter (tiles are stored as they are).
    pub fn is_empty(&self) -> bool {
        self.stages.is_empty()
    }

    fn cx<'a>(
        &'a self,
        datatype: Datatype,
        offsets: Option<&'a RefCell<Vec<u64>>>,
        max_output: u64,
    ) -> FilterContext<'a> {
        FilterContext {
            datatype,
            cell_size: self.cell_size,
            version: self.version,
            tile_version: self.tile_version,
            key: self.key.as_ref(),
            var_offsets: offsets,
            max_output,
        }
    }

    /// Runs the pipeline backward over one chunk, with the default limit
    /// on what each filter may restore ([`DEFAULT_MAX_TILE_BYTES`]).
    pub fn reverse_chunk(
        &self,
        metadata: &[u8],
        data: &[u8],
        offsets: Option<&RefCell<Vec<u64>>>,
    ) -> Result<Vec<u8>, FilterError> {
        self.reverse_chunk_within(metadata, data, offsets, DEFAULT_MAX_TILE_BYTES)
    }

    /// Runs the pipeline backward over one chunk; no filter may restore
    /// more than `limit` bytes (lengths read from the chunk are checked
    /// against it before anything is allocated).
    pub fn reverse_chunk_within(
        &self,
        metadata: &[u8],
        data: &[u8],
        offsets: Option<&RefCell<Vec<u64>>>,
        limit: u64,
    ) -> Result<Vec<u8>, FilterError> {
        let Some(((last, last_dt), rest)) = self.stages.split_last() else {
            return Ok(data.to_vec());
        };
        let mut r = last.reverse(&self.cx(*last_dt, offsets, limit), metadata, data)?;
        for (codec, dt) in rest.iter().rev() {
            r = codec.reverse(&self.cx(*dt, offsets, limit), &r.metadata, &r.data)?;
        }
        Ok(r.data)
    }

    /// Runs the pipeline backward over one chunk into `out`, which takes
    /// exactly the chunk's original bytes: unfiltered chunks are copied
    /// once, a lone compressor decompresses in place, other pipelines
    /// decode and copy.
    pub fn reverse_chunk_into(
        &self,
        metadata: &[u8],
        data: &[u8],
        limit: u64,
        out: &mut [u8],
    ) -> Result<(), FilterError> {
        match self.stages.as_slice() {
            [] => {
                if data.len() != out.len() {
                    return Err(FilterError::new(
                        "pipeline",
                        format!("{} bytes for a chunk of {}", data.len(), out.len()),
                    ));
                }
                out.copy_from_slice(data);
                return Ok(());
            }
            [(codec, dt)] => {
                if let Some(r) = codec.reverse_into(&self.cx(*dt, None, limit), metadata, data, out)
                {
                    return r;
                }
            }
            _ => {}
        }
        let plain = self.reverse_chunk_within(metadata, data, None, limit)?;
        if plain.len() != out.len() {
            return Err(FilterError::new(
                "pipeline",
                format!(
                    "the chunk unfilters to {} bytes, its header says {}",
                    plain.len(),
                    out.len()
                ),
            ));
        }
        out.copy_from_slice(&plain);
        Ok(())
    }

    /// Runs the pipeline forward over one chunk: (metadata, data).
    pub fn forward_chunk(&self, chunk: &[u8]) -> Result<(Vec<u8>, Vec<u8>), FilterError> {
        self.forward_chunk_with(chunk, None)
    }

    /// Runs the pipeline forward over one chunk whose cell starts are
    /// `offsets` (for RLE and DICTIONARY folding them into a var-sized
    /// string tile, which is then one chunk): (metadata, data).
    pub fn forward_chunk_with(
        &self,
        chunk: &[u8],
        offsets: Option<&RefCell<Vec<u64>>>,
    ) -> Result<(Vec<u8>, Vec<u8>), FilterError> {
        let mut stages = self.stages.iter();
        let mut parts = match stages.next() {
            None => Parts::chunk(chunk),
            Some((codec, dt)) => {
                let cx = self.cx(*dt, offsets, u64::MAX);
                match codec.forward_borrowed(&cx, chunk) {
                    Some(parts) => parts?,
                    None => codec.forward(&cx, Parts::chunk(chunk))?,
                }
            }
        };
        for (codec, dt) in stages {
            parts = codec.forward(&self.cx(*dt, offsets, u64::MAX), parts)?;
        }
        Ok((concat(parts.metadata), concat(parts.data)))
    }

    /// Filters a whole fixed-size tile into its on-disk form (a `Tile`),
    /// chunked as the engine chunks it: chunks of at most 64 KiB holding
    /// whole cells (version 11 on).
    pub fn forward_tile(&self, tile: &[u8]) -> Result<Vec<u8>, FilterError> {
        if !self.uses_chunking() {
            return self.forward_chunks(tile, &[0]);
        }
        let chunk = chunk_size(tile.len() as u64, self.cell_size) as usize;
        let bounds: Vec<usize> = if tile.is_empty() {
            Vec::new()
        } else {
            (0..tile.len()).step_by(chunk.max(1)).collect()
        };
        self.forward_chunks(tile, &bounds)
    }

    /// Whether tiles are cut into chunks: not with WEBP, which compresses a
    /// tile as one image (`use_tile_chunking` in the engine).
    pub fn uses_chunking(&self) -> bool {
        !self.stages.iter().any(|(c, _)| c.name() == "WEBP")
    }

    /// Filters a var-sized data tile whose cells start at `offsets`, with the
    /// engine's var chunking (cells kept whole; a chunk may grow to 150% of
    /// the chunk size).
    pub fn forward_var_tile(&self, tile: &[u8], offsets: &[u64]) -> Result<Vec<u8>, FilterError> {
        if self.folds_var_offsets() {
            // One chunk, whatever its size (`use_tile_chunking`), and the
            // offsets go into the data.
            let cell = RefCell::new(offsets.to_vec());
            return self.forward_chunks_with(tile, &[0], Some(&cell));
        }
        let chunk = chunk_size(tile.len() as u64, self.cell_size);
        // A tile that fits one chunk is one chunk, whatever its cells.
        let bounds = if chunk == tile.len() as u64 {
            vec![0]
        } else {
            var_chunk_starts(chunk, tile.len() as u64, offsets)
        };
        self.forward_chunks(
            tile,
            &bounds.iter().map(|b| *b as usize).collect::<Vec<_>>(),
        )
    }

    /// Whether RLE or DICTIONARY fold the cell offsets of this pipeline's
    /// var-sized string tiles into the data (`skip_offsets_filtering`):
    /// RLE from version 12 for ASCII, DICTIONARY from 13, both from 17 for
    /// UTF-8. The offsets tile then has no chunks.
    pub fn folds_var_offsets(&self) -> bool {
        let Some((_, dt)) = self.stages.first() else {
            return false;
        };
        let has = |n: &str| self.stages.iter().any(|(c, _)| c.name() == n);
        let v = self.version;
        let (ascii, utf8) = (*dt == Datatype::StringAscii, *dt == Datatype::StringUtf8);
        let utf8 = utf8 && has_utf8_folded_offsets(v);
        (has("RLE") && ((has_rle_folded_ascii_offsets(v) && ascii) || utf8))
            || (has("DICTIONARY") && ((has_dictionary_folded_ascii_offsets(v) && ascii) || utf8))
    }

    fn forward_chunks(&self, tile: &[u8], starts: &[usize]) -> Result<Vec<u8>, FilterError> {
        self.forward_chunks_with(tile, starts, None)
    }

    fn forward_chunks_with(
        &self,
        tile: &[u8],
        starts: &[usize],
        offsets: Option<&RefCell<Vec<u64>>>,
    ) -> Result<Vec<u8>, FilterError> {
        let pieces = self.forward_chunk_pieces(tile, starts, offsets)?;
        Ok(pieces_to_vec(&pieces, tile))
    }

    /// [`Pipeline::forward_tile`] as the pieces of the filtered tile in
    /// order, so that a writer copies each byte once: what the pipeline
    /// made, and the ranges of `tile` an empty pipeline leaves as they are.
    pub fn forward_tile_pieces(&self, tile: &[u8]) -> Result<Vec<TilePiece>, FilterError> {
        if !self.uses_chunking() {
            return self.forward_chunk_pieces(tile, &[0], None);
        }
        let chunk = chunk_size(tile.len() as u64, self.cell_size) as usize;
        let bounds: Vec<usize> = if tile.is_empty() {
            Vec::new()
        } else {
            (0..tile.len()).step_by(chunk.max(1)).collect()
        };
        self.forward_chunk_pieces(tile, &bounds, None)
    }

    fn forward_chunk_pieces(
        &self,
        tile: &[u8],
        starts: &[usize],
        offsets: Option<&RefCell<Vec<u64>>>,
    ) -> Result<Vec<TilePiece>, FilterError> {
        let span = |i: usize| (starts[i], starts.get(i + 1).copied().unwrap_or(tile.len()));
        // The chunks are filtered in parallel, as the engine does; the var
        // offsets RLE and DICTIONARY fold in come with a single chunk.
        let filtered: Vec<(Vec<u8>, Vec<u8>)> = if self.stages.is_empty() {
            Vec::new()
        } else if offsets.is_none() && starts.len() > 1 {
            (0..starts.len())
                .into_par_iter()
                .map(|i| {
                    let (s, e) = span(i);
                    self.forward_chunk_with(&tile[s..e], None)
                })
                .collect::<Result<_, _>>()?
        } else {
            (0..starts.len())
                .map(|i| {
                    let (s, e) = span(i);
                    self.forward_chunk_with(&tile[s..e], offsets)
                })
                .collect::<Result<_, _>>()?
        };
        // The `Tile` table (num_chunks, then each chunk's header, metadata
        // and data): headers and metadata gathered, each chunk's data a
        // piece of its own (moved, or a range of the tile as it is).
        let mut pieces = Vec::with_capacity(2 * starts.len() + 1);
        let mut head = Tile::head(starts.len())?;
        let mut filtered = filtered.into_iter();
        for i in 0..starts.len() {
            let (s, e) = span(i);
            let (metadata, data) = match filtered.next() {
                Some((m, d)) => (m, TilePiece::Bytes(d)),
                None => (Vec::new(), TilePiece::Raw(s, e)),
            };
            let filtered_bytes = match &data {
                TilePiece::Bytes(d) => d.as_slice(),
                TilePiece::Raw(s, e) => &tile[*s..*e],
            };
            let filtered_len = filtered_bytes.len();
            let header = ChunkHeader::default()
                .with_outside_sizes(&tile[s..e], filtered_bytes, &metadata)
                .map_err(|e| FilterError::new("pipeline", format!("a chunk exceeds 4 GiB: {e}")))?;
            head.extend_from_slice(&encode(&header)?);
            head.extend_from_slice(&metadata);
            if filtered_len > 0 {
                pieces.push(TilePiece::Bytes(std::mem::take(&mut head)));
                pieces.push(data);
            }
        }
        if !head.is_empty() {
            pieces.push(TilePiece::Bytes(head));
        }
        Ok(pieces)
    }
}

/// A piece of a filtered tile ([`Pipeline::forward_tile_pieces`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TilePiece {
    /// Bytes the pipeline made.
    Bytes(Vec<u8>),
    /// The unfiltered tile's bytes `start..end`, as they are.
    Raw(usize, usize),
}

impl TilePiece {
    /// Its length in bytes.
    pub fn len(&self) -> usize {
        match self {
            TilePiece::Bytes(b) => b.len(),
            TilePiece::Raw(s, e) => e - s,
        }
    }

    /// Whether it holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The pieces of a filtered tile as one buffer (`tile`: the unfiltered
/// tile the raw pieces are ranges of).
pub fn pieces_to_vec(pieces: &[TilePiece], tile: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(pieces.iter().map(TilePiece::len).sum());
    for p in pieces {
        match p {
            TilePiece::Bytes(b) => out.extend_from_slice(b),
            TilePiece::Raw(s, e) => out.extend_from_slice(&tile[*s..*e]),
        }
    }
    out
}

/// Parts as one buffer; a single part is moved, not copied.
fn concat(mut parts: Vec<Vec<u8>>) -> Vec<u8> {
    if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        parts.concat()
    }
}

/// The engine's chunk size for a tile (`WriterTile::compute_chunk_size`):
/// at most 64 KiB, a whole number of cells, at least one cell.
pub fn chunk_size(tile_size: u64, cell_size: u64) -> u64 {
    let cell = cell_size.max(1);
    let c = MAX_TILE_CHUNK_SIZE.min(tile_size) / cell * cell;
    c.max(cell)
}

/// Where the chunks of a var-sized tile start (`get_var_chunk_sizes`).
pub fn var_chunk_starts(chunk: u64, tile_size: u64, offsets: &[u64]) -> Vec<u64> {
    let mut starts = vec![0u64];
    if offsets.is_empty() {
        return if tile_size == 0 { Vec::new() } else { starts };
    }
    let (min, max) = (chunk / 2, chunk + chunk / 2);
    let mut current = 0u64;
    for (c, &o) in offsets.iter().enumerate() {
        let cell = if c + 1 == offsets.len() {
            tile_size.saturating_sub(o)
        } else {
            offsets[c + 1].saturating_sub(o)
        };
        let new = current + cell;
        if new > chunk {
            if current <= min || new <= max {
                starts.push(o + cell);
                current = 0;
            } else {
                starts.push(o);
                if cell > chunk {
                    if c + 1 != offsets.len() {
                        starts.push(o + cell);
                    }
                    current = 0;
                } else {
                    current = cell;
                }
            }
        } else {
            current += cell;
        }
    }
    // A list that ends at the tile's end gives an empty last chunk, which
    // the engine writes as such.
    starts
}
