//! Filters of the TileDB filter pipeline (format_spec/filter_pipeline.md,
//! format_spec/tile.md, format_spec/filters/): one module per filter, each
//! a [`FilterCodec`]; [`pipeline`] chains them, forward on write and
//! backward on read, chunk by chunk.
//!
//! Metadata conventions, as the engine runs filters
//! (tiledb/sm/filter/*.cc): forward, a filter's output metadata is its own
//! metadata followed by the input metadata it did not consume; backward, a
//! filter reads its own metadata from the front of the metadata it is given
//! and hands the rest to the filter before it. Data and metadata come in
//! "parts" (the engine's buffers); the forward direction keeps them, because
//! several filters write one record per part.
//!
//! Run a pipeline forward over a tile and back over its one chunk:
//!
//! ```
//! use tiledb_codec_filters::Pipeline;
//! use tiledb_codec_format::{decode_all, table, Compressor, CompressorOptions, Datatype, Filter, FilterOptions, FilterType, Record, Tile};
//!
//! let zstd = table!(Filter {
//!     filter_type: FilterType::Zstd,
//!     filter_options: FilterOptions::Compressor(table!(CompressorOptions {
//!         compressor_type: Compressor::Zstd,
//!         compression_level: 3,
//!     })),
//! })
//! .with_sizes();
//! let pipeline = Pipeline::new(&[zstd], Datatype::Int32, 4, 22)?;
//! let cells: Vec<u8> = (0..1000i32).flat_map(|i| i.to_le_bytes()).collect();
//! let tile = pipeline.forward_tile(&cells)?;
//! let tile: Tile = decode_all(&tile, 0, ())?;
//! let chunk = &tile.chunks[0];
//! let back = pipeline.reverse_chunk(&chunk.metadata, &chunk.filtered_data, None)?;
//! assert_eq!(back, cells);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The compressors run with zstd, flate2/zlib-rs and lz4_flex; BZIP2
//! (the C bzip2 library), AES-256-GCM and WEBP are the features `bzip2`,
//! `encryption` and `webp`. A pipeline naming a filter whose feature is
//! off builds, and running it is a [`FilterError`] naming the feature.
#![deny(unsafe_code)]
#![warn(missing_docs)]

use std::cell::RefCell;

use tiledb_codec_format::{Datatype, Filter, FilterOptions, FilterType, Record as _};

pub mod bit_width_reduction;
pub mod checksum;
pub mod compress;
pub mod delta;
pub mod dictionary;
pub mod double_delta;
pub mod encryption;
pub mod float_scale;
pub mod pipeline;
pub mod positive_delta;
pub mod rle;
pub mod shuffle;
pub mod webp;
pub mod xor;

pub use pipeline::Pipeline;

/// The default limit on the bytes one decoded tile may take, and so on
/// what a filter may restore for one chunk (the library's
/// `ReadOptions::max_tile_bytes` sets it per read).
pub const DEFAULT_MAX_TILE_BYTES: u64 = 1 << 30;

/// What a filter knows about the tile it filters.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FilterContext<'a> {
    /// The datatype of this filter's input (the tile's datatype, as changed
    /// by the filters before it: `output_datatype`).
    pub datatype: Datatype,
    /// The tile's cell size in bytes (datatype size times cell_val_num; for
    /// var-sized tiles the datatype size).
    pub cell_size: u64,
    /// The format version of the array schema that holds the pipeline
    /// (RLE and dictionary decide from it whether var offsets are folded in).
    pub version: u32,
    /// The format version of the fragment the tile belongs to (the date and
    /// time rule of BIT_WIDTH_REDUCTION and POSITIVE_DELTA, version 20, goes
    /// by it: `tile.format_version()` in the engine).
    pub tile_version: u32,
    /// The array's AES-256-GCM key, when it is encrypted.
    pub key: Option<&'a [u8; 32]>,
    /// For the var-sized data tile of a string attribute whose offsets the
    /// RLE or dictionary filter folded into the data (version 12/13 on for
    /// ASCII, 17 on for UTF-8; the tile is one chunk): backward, where the
    /// filter puts the cell offsets it recovers; forward, the cell offsets
    /// the filter folds in. `None` otherwise.
    pub var_offsets: Option<&'a RefCell<Vec<u64>>>,
    /// Backward, the most bytes this filter may restore for the chunk (the
    /// caller's memory budget for one decoded tile): every length read from
    /// the chunk is checked against it before anything is allocated.
    pub max_output: u64,
}

impl FilterContext<'_> {
    /// A context with no key, no folded offsets and no output limit, for a
    /// tile of `datatype` with `cell_size`-byte cells in an array and
    /// fragment of format `version`.
    pub fn new(datatype: Datatype, cell_size: u64, version: u32) -> FilterContext<'static> {
        FilterContext {
            datatype,
            cell_size,
            version,
            tile_version: version,
            key: None,
            var_offsets: None,
            max_output: u64::MAX,
        }
    }

    /// Refuses a length, read from the chunk, that would make `filter`
    /// produce more than [`FilterContext::max_output`] bytes.
    pub fn check_output(
        &self,
        filter: &'static str,
        what: &str,
        len: u64,
    ) -> Result<usize, FilterError> {
        if len > self.max_output {
            return Err(FilterError::new(
                filter,
                format!(
                    "{what} of {len} bytes exceeds the limit of {} bytes",
                    self.max_output
                ),
            ));
        }
        usize::try_from(len).map_err(|_| {
            FilterError::new(
                filter,
                format!("{what} of {len} bytes does not fit in memory"),
            )
        })
    }
}

/// A chunk on its way forward: metadata parts and data parts.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Parts {
    /// The metadata parts, in order.
    pub metadata: Vec<Vec<u8>>,
    /// The data parts, in order.
    pub data: Vec<Vec<u8>>,
}

impl Parts {
    /// One data part and no metadata: a chunk before the first filter.
    pub fn chunk(data: &[u8]) -> Self {
        Parts {
            metadata: Vec::new(),
            data: vec![data.to_vec()],
        }
    }

    /// All metadata parts, concatenated (as a chunk stores them).
    pub fn metadata_bytes(&self) -> Vec<u8> {
        self.metadata.concat()
    }

    /// All data parts, concatenated.
    pub fn data_bytes(&self) -> Vec<u8> {
        self.data.concat()
    }
}

/// The result of running a filter backward: the metadata left for the
/// filters before it, and the data it restored.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reversed {
    /// The chunk metadata left for the filters before this one.
    pub metadata: Vec<u8>,
    /// The data this filter restored.
    pub data: Vec<u8>,
}

/// Why a filter could not run; the pipeline adds file, tile and chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FilterError {
    /// The filter, as TileDB names it (`ZSTD`, `BYTESHUFFLE`, ...), or
    /// `filter`/`pipeline` when no one filter is at fault.
    pub filter: &'static str,
    /// What went wrong.
    pub what: String,
    /// The Cargo feature this build lacks to run the filter, when that is
    /// why it failed ([`FilterError::needs_feature`]).
    pub missing_feature: Option<&'static str>,
}

impl FilterError {
    /// An error of `filter` (its TileDB name) saying `what` went wrong.
    pub fn new(filter: &'static str, what: impl Into<String>) -> Self {
        FilterError {
            filter,
            what: what.into(),
            missing_feature: None,
        }
    }

    /// The error of a filter whose implementation this build left out:
    /// running `filter` (its TileDB name) needs the crate's Cargo feature
    /// `feature` (`webp`, `encryption`, `bzip2`). Schemas naming the filter
    /// still decode; only filtering a tile with it fails.
    ///
    /// ```
    /// use tiledb_codec_filters::FilterError;
    ///
    /// let e = FilterError::needs_feature("WEBP", "webp");
    /// assert_eq!(e.filter, "WEBP");
    /// assert_eq!(e.missing_feature, Some("webp"));
    /// assert_eq!(e.to_string(), "WEBP: the WEBP filter needs tiledb-codec's `webp` feature");
    /// ```
    pub fn needs_feature(filter: &'static str, feature: &'static str) -> Self {
        FilterError {
            missing_feature: Some(feature),
            ..FilterError::new(
                filter,
                format!("the {filter} filter needs tiledb-codec's `{feature}` feature"),
            )
        }
    }
}

impl std::fmt::Display for FilterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.filter, self.what)
    }
}

impl std::error::Error for FilterError {}

/// A filter's own metadata record refused by the format's encoder: a bug
/// of this crate, named by the record's table and field.
impl From<tiledb_codec_format::EncodeError> for FilterError {
    fn from(e: tiledb_codec_format::EncodeError) -> Self {
        FilterError::new("filter", format!("wrote an invalid record (a bug): {e}"))
    }
}

/// The error of a size the generated writers refused to state
/// (`with_outside_sizes`): what `filter` made does not fit its field.
pub(crate) fn too_large(
    filter: &'static str,
) -> impl Fn(tiledb_codec_format::EncodeError) -> FilterError {
    move |e| FilterError::new(filter, format!("too large for the format: {e}"))
}

/// The engine's view of a buffer list appended to another: empty parts
/// before the first byte and after the last are dropped (FilterBuffer's
/// `append_view`). Filters that pass parts through use it so that their
/// per-part metadata counts the parts the engine counts.
pub(crate) fn engine_view(parts: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    let Some(first) = parts.iter().position(|p| !p.is_empty()) else {
        return Vec::new();
    };
    let last = parts.iter().rposition(|p| !p.is_empty()).unwrap_or(first);
    parts.into_iter().take(last + 1).skip(first).collect()
}

/// One filter of a pipeline, both ways.
pub trait FilterCodec: Send + Sync + std::fmt::Debug {
    /// The filter's name, as TileDB names it (`ZSTD`, `BYTESHUFFLE`, ...).
    fn name(&self) -> &'static str;

    /// The datatype of the filter's output, given its input's.
    fn output_datatype(&self, input: Datatype) -> Datatype {
        input
    }

    /// Runs the filter forward over one chunk.
    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError>;

    /// Runs the filter forward over a chunk of a tile as the first filter of
    /// a pipeline, reading it in place; `None` for filters that need it as
    /// [`Parts`] (the pipeline then copies it into one data part).
    fn forward_borrowed(
        &self,
        _cx: &FilterContext,
        _chunk: &[u8],
    ) -> Option<Result<Parts, FilterError>> {
        None
    }

    /// Runs the filter backward over one chunk. `metadata` starts with this
    /// filter's own metadata; `data` is its output data.
    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError>;

    /// Runs the filter backward over one chunk as the only filter of a
    /// pipeline, writing the chunk's `out.len()` original bytes straight
    /// into `out` (the caller's buffer, no intermediate copy); `None` where
    /// the filter cannot (the pipeline then takes [`FilterCodec::reverse`]).
    fn reverse_into(
        &self,
        _cx: &FilterContext,
        _metadata: &[u8],
        _data: &[u8],
        _out: &mut [u8],
    ) -> Option<Result<(), FilterError>> {
        None
    }
}

/// The codec of a filter as serialized in a pipeline.
pub fn codec_for(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    let kind = filter.filter_type.known().ok_or_else(|| {
        FilterError::new(
            "filter",
            format!("unknown filter type {}", filter.filter_type),
        )
    })?;
    match (&filter.filter_options, kind) {
        (_, FilterType::None) => Ok(Box::new(Noop)),
        (FilterOptions::Compressor(opts), _) => compress::codec(filter, kind, opts),
        (_, FilterType::Bitshuffle | FilterType::Byteshuffle) => shuffle::codec(filter),
        (_, FilterType::Xor) => xor::codec(filter),
        (_, FilterType::PositiveDelta) => positive_delta::codec(filter),
        (_, FilterType::BitWidthReduction) => bit_width_reduction::codec(filter),
        (_, FilterType::ChecksumMd5 | FilterType::ChecksumSha256) => checksum::codec(filter),
        (_, FilterType::ScaleFloat) => float_scale::codec(filter),
        (_, FilterType::Aes256Gcm) => encryption::codec(filter),
        (_, FilterType::Webp) => webp::codec(filter),
        (_, k) => Err(FilterError::new(
            k.name(),
            "this filter is not supported yet",
        )),
    }
}

/// `NONE`: passes everything through.
#[derive(Debug)]
pub struct Noop;

impl FilterCodec for Noop {
    fn name(&self) -> &'static str {
        "NONE"
    }

    fn forward(&self, _cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        Ok(input)
    }

    fn reverse(
        &self,
        _cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        Ok(Reversed {
            metadata: metadata.to_vec(),
            data: data.to_vec(),
        })
    }
}

/// The internal AES-256-GCM filter (type 11) the engine appends to the
/// pipelines of encrypted arrays.
pub fn encryption_codec() -> Result<Box<dyn FilterCodec>, FilterError> {
    let filter = tiledb_codec_format::table!(Filter {
        filter_type: FilterType::Aes256Gcm,
        filter_options: FilterOptions::NoOptions,
    })
    .with_sizes();
    encryption::codec(&filter)
}

/// How BIT_WIDTH_REDUCTION and POSITIVE_DELTA cut a part of `len` bytes
/// into windows of at most `max_window` bytes holding whole values of
/// `value_size` bytes (the window lengths, in bytes, as the engine cuts
/// them).
pub(crate) fn window_lengths(
    filter: &'static str,
    max_window: u32,
    value_size: usize,
    len: usize,
) -> Result<Vec<usize>, FilterError> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let window = (len.min(max_window as usize)) / value_size * value_size;
    if window == 0 {
        if len >= value_size {
            // The engine divides by zero here.
            return Err(FilterError::new(
                filter,
                format!("the window size {max_window} is smaller than one {value_size}-byte value"),
            ));
        }
        // Less than one value: one window, stored as it is.
        return Ok(vec![len]);
    }
    let mut out = Vec::with_capacity(len.div_ceil(window));
    let mut at = 0;
    while at < len {
        let n = window.min(len - at);
        out.push(n);
        at += n;
    }
    Ok(out)
}
