//! RLE, run-length encoding (filter type 4; tiledb/sm/compressors/rle_compressor.cc,
//! tiledb/sm/filter/compression_filter.cc; no page in format_spec/, see
//! spec/filters_rle.toml).
//!
//! RLE is a compression filter: a chunk's metadata is a
//! `CompressionChunkMetadata` and each metadata and data part is encoded on
//! its own, as [`RleRun`]s: runs of equal cells (the tile's cell size), each
//! the cell's bytes then the run length as a big-endian u16, runs longer
//! than 65535 split.
//!
//! The var-sized data tile of a string field whose cell offsets are folded
//! into the data (ASCII from version 12, UTF-8 from version 17) is one
//! chunk encoded as [`RleStringRun`]s instead, behind an
//! [`RleStringsChunkMetadata`]: on read the cell offsets come out of the
//! runs (into [`FilterContext::var_offsets`]); on write
//! [`forward_var_strings`] needs them, which `forward` takes from
//! [`FilterContext::var_offsets`] when the pipeline puts them there.
//!
//! This module also holds the framing every per-part compression filter
//! shares (`frame_forward`, `frame_reverse`), and the string views and
//! integer widths that RLE and DICTIONARY share over folded strings.

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::Record as _;
use zerocopy::byteorder::big_endian::U16;
use zerocopy::{FromBytes, IntoBytes};

use tiledb_codec_format::version::{has_rle_folded_ascii_offsets, has_utf8_folded_offsets};
use tiledb_codec_format::{
    decode, encode, CompressedPartMd, CompressionChunkMetadata, Datatype, Filter, RleRun,
    RleStringRun, RleStringsChunkMetadata,
};

const NAME: &str = "RLE";

/// The engine's longest run of cells (`max_run_len`).
pub const MAX_RUN: usize = 65535;

/// The codec for an RLE filter (it has no options besides the unused level).
pub fn codec(_filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    Ok(Box::new(Rle))
}

/// RLE both ways.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rle;

/// Whether the strings of this chunk come with their offsets folded in:
/// the pipeline handed the offsets (forward: the cell starts of the tile,
/// which is one chunk; backward: a place for them) and the filter's input
/// is ASCII from the versions of `ascii_from` (RLE 12, DICTIONARY 13) or
/// UTF-8 from version 17 (the engine's `skip_offsets_filtering`; its
/// `CompressionFilter::run_reverse` itself checks version 12 and a string
/// type).
pub(super) fn folded(cx: &FilterContext, ascii_from: fn(u32) -> bool) -> bool {
    cx.var_offsets.is_some()
        && match cx.datatype {
            Datatype::StringAscii => ascii_from(cx.version),
            Datatype::StringUtf8 => has_utf8_folded_offsets(cx.version),
            _ => false,
        }
}

impl FilterCodec for Rle {
    fn name(&self) -> &'static str {
        NAME
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        if let (true, Some(offsets)) = (folded(cx, has_rle_folded_ascii_offsets), cx.var_offsets) {
            return forward_var_strings(input, &offsets.borrow());
        }
        let size = cx.cell_size.max(1) as usize;
        frame_forward(NAME, &input.metadata, &input.data, |part| {
            encode_runs(part, size)
        })
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        if folded(cx, has_rle_folded_ascii_offsets) {
            return reverse_var_strings(cx, metadata, data);
        }
        let size = cx.cell_size.max(1) as usize;
        frame_reverse(NAME, cx, metadata, data, |src, original, dest| {
            dest.extend_from_slice(&decode_runs(src, size, original)?);
            Ok(())
        })
    }
}

// ---------------------------------------------------------------------------
// The compression filters' framing

/// Runs a per-part compressor forward as `CompressionFilter::run_forward`
/// does: every metadata part, then every data part, compressed on its own;
/// the output metadata is a `CompressionChunkMetadata` listing each part's
/// lengths (the input metadata is inside the data), the output data the
/// compressed parts in that order.
pub(super) fn frame_forward<P: AsRef<[u8]>>(
    name: &'static str,
    metadata: &[P],
    data: &[P],
    mut compress: impl FnMut(&[u8]) -> Result<Vec<u8>, FilterError>,
) -> Result<Parts, FilterError> {
    let mut md = tiledb_codec_format::table!(CompressionChunkMetadata {
        metadata_parts: Vec::with_capacity(metadata.len()),
        data_parts: Vec::with_capacity(data.len()),
    });
    let mut out = Vec::new();
    for (parts, list) in [
        (metadata, &mut md.metadata_parts),
        (data, &mut md.data_parts),
    ] {
        for p in parts {
            let p = p.as_ref();
            let c = compress(p)?;
            list.push(
                CompressedPartMd::default()
                    .with_outside_sizes(p, &c)
                    .map_err(super::too_large(name))?,
            );
            // The first (often the only) part is moved, not copied.
            if out.is_empty() {
                out = c;
            } else {
                out.extend_from_slice(&c);
            }
        }
    }
    Ok(Parts {
        metadata: vec![encode(&md.with_sizes())?],
        data: vec![out],
    })
}

/// Runs a per-part decompressor backward (`CompressionFilter::run_reverse`):
/// `decompress(compressed, original_length)` must give exactly
/// `original_length` bytes.
pub(super) fn frame_reverse(
    name: &'static str,
    cx: &FilterContext,
    metadata: &[u8],
    data: &[u8],
    mut decompress: impl FnMut(&[u8], usize, &mut Vec<u8>) -> Result<(), FilterError>,
) -> Result<Reversed, FilterError> {
    let (md, _) = decode::<CompressionChunkMetadata>(metadata, 0, ())
        .map_err(|e| FilterError::new(name, format!("chunk metadata: {e}")))?;
    // What the parts declare, against the limit, before any allocation.
    let declared = |parts: &[CompressedPartMd]| -> u64 {
        parts
            .iter()
            .map(|p| u64::from(p.part_original_length))
            .sum()
    };
    let total = declared(&md.metadata_parts) + declared(&md.data_parts);
    cx.check_output(name, "the parts' original length", total)?;
    let mut out = Reversed {
        metadata: Vec::with_capacity(declared(&md.metadata_parts) as usize),
        data: Vec::with_capacity(declared(&md.data_parts) as usize),
    };
    let mut pos = 0usize;
    for (parts, dest) in [
        (&md.metadata_parts, &mut out.metadata),
        (&md.data_parts, &mut out.data),
    ] {
        for part in parts {
            let len = part.part_compressed_length as usize;
            let Some(src) = pos.checked_add(len).and_then(|end| data.get(pos..end)) else {
                return Err(FilterError::new(
                    name,
                    format!(
                        "a part of {len} bytes at {pos} runs past the chunk's {} bytes",
                        data.len()
                    ),
                ));
            };
            let original = part.part_original_length as usize;
            let start = dest.len();
            decompress(src, original, dest)?;
            let produced = dest.len() - start;
            if produced != original {
                return Err(FilterError::new(
                    name,
                    format!("a part decodes to {produced} bytes, the metadata says {original}"),
                ));
            }
            pos += len;
        }
    }
    Ok(out)
}

/// [`frame_reverse`] straight into `out`, for a chunk whose parts are all
/// data and decode to exactly `out.len()` bytes; `None` when the chunk has
/// metadata parts or its metadata does not parse (the caller then takes
/// the general path, which reports the error).
pub(super) fn frame_reverse_into(
    name: &'static str,
    cx: &FilterContext,
    metadata: &[u8],
    data: &[u8],
    out: &mut [u8],
    mut decompress: impl FnMut(&[u8], &mut [u8]) -> Result<(), FilterError>,
) -> Option<Result<(), FilterError>> {
    let (md, used) = decode::<CompressionChunkMetadata>(metadata, 0, ()).ok()?;
    if !md.metadata_parts.is_empty() || used as usize != metadata.len() {
        return None;
    }
    let total: u64 = md
        .data_parts
        .iter()
        .map(|p| u64::from(p.part_original_length))
        .sum();
    if total != out.len() as u64 {
        return None;
    }
    if let Err(e) = cx.check_output(name, "the parts' original length", total) {
        return Some(Err(e));
    }
    let (mut pos, mut at) = (0usize, 0usize);
    for part in &md.data_parts {
        let len = part.part_compressed_length as usize;
        let Some(src) = pos.checked_add(len).and_then(|end| data.get(pos..end)) else {
            return Some(Err(FilterError::new(
                name,
                format!(
                    "a part of {len} bytes at {pos} runs past the chunk's {} bytes",
                    data.len()
                ),
            )));
        };
        let original = part.part_original_length as usize;
        if let Err(e) = decompress(src, &mut out[at..at + original]) {
            return Some(Err(e));
        }
        pos += len;
        at += original;
    }
    Some(Ok(()))
}

// ---------------------------------------------------------------------------
// Runs of cells

/// Encodes `input`, cells of `size` bytes, as [`RleRun`]s (`RLE::compress`).
pub fn encode_runs(input: &[u8], size: usize) -> Result<Vec<u8>, FilterError> {
    if input.is_empty() {
        return Ok(Vec::new());
    }
    if !input.len().is_multiple_of(size) {
        return Err(FilterError::new(
            NAME,
            format!(
                "{} bytes are not a whole number of {size}-byte cells",
                input.len()
            ),
        ));
    }
    let mut out = Vec::new();
    let mut cells = input.chunks_exact(size);
    let mut current = cells.next().expect("input is not empty");
    let mut run = 1usize;
    // An `RleRun`: the value, then `run_length` (a big-endian u16) at
    // `RleRun::offset_run_length(size)`, which is `size`.
    let flush = |value: &[u8], run: usize, out: &mut Vec<u8>| {
        out.extend_from_slice(value);
        out.extend_from_slice(U16::new(run as u16).as_bytes());
    };
    for cell in cells {
        if cell == current && run < MAX_RUN {
            run += 1;
        } else {
            flush(current, run, &mut out);
            current = cell;
            run = 1;
        }
    }
    flush(current, run, &mut out);
    Ok(out)
}

/// Decodes [`RleRun`]s of `size`-byte cells into exactly `original` bytes
/// (`RLE::decompress`).
pub fn decode_runs(src: &[u8], size: usize, original: usize) -> Result<Vec<u8>, FilterError> {
    // A cell size from a damaged header may be anything.
    let layout = |s: Option<u64>| s.and_then(|s| usize::try_from(s).ok());
    let (Some(run_size), Some(len_at)) = (
        layout(RleRun::size(size as u64)),
        layout(RleRun::offset_run_length(size as u64)),
    ) else {
        return Err(FilterError::new(
            NAME,
            format!("a cell of {size} bytes is too large"),
        ));
    };
    if !src.len().is_multiple_of(run_size) {
        return Err(FilterError::new(
            NAME,
            format!(
                "{} bytes are not a whole number of {run_size}-byte runs",
                src.len()
            ),
        ));
    }
    // `r` is one run: its run length ends it.
    let run_len = |r: &[u8]| U16::read_from_bytes(&r[len_at..]).map_or(0, |n| n.get()) as usize;
    // The length first: the runs must fill exactly what the metadata says.
    let total = src
        .chunks_exact(run_size)
        .map(|r| run_len(r).saturating_mul(size))
        .fold(0usize, usize::saturating_add);
    if total != original {
        return Err(FilterError::new(
            NAME,
            format!("the runs hold {total} bytes, the metadata says {original}"),
        ));
    }
    let mut out = Vec::with_capacity(total);
    for r in src.chunks_exact(run_size) {
        for _ in 0..run_len(r) {
            out.extend_from_slice(&r[..size]);
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Var-sized strings with folded offsets (shared with DICTIONARY)

/// The engine's integer width for a value (`compute_bytesize`): 1, 2, 4
/// or 8 bytes.
pub fn width_for(value: u64) -> u8 {
    if value <= u64::from(u8::MAX) {
        1
    } else if value <= u64::from(u16::MAX) {
        2
    } else if value <= u64::from(u32::MAX) {
        4
    } else {
        8
    }
}

/// The width the engine reads for a stored width byte: up to 1, 2, 4, and
/// anything larger as 8 (0 is refused by the callers that refuse it).
pub(super) fn read_width(w: u8) -> usize {
    match w {
        0 | 1 => 1,
        2 => 2,
        3 | 4 => 4,
        _ => 8,
    }
}

/// A big-endian unsigned integer of `width` bytes.
pub(super) fn be_uint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |v, b| (v << 8) | u64::from(*b))
}

/// Appends `value` as a big-endian unsigned integer of `width` bytes.
pub(super) fn push_be(out: &mut Vec<u8>, value: u64, width: usize) {
    out.extend_from_slice(&value.to_be_bytes()[8 - width..]);
}

/// The cells of a var-sized tile (`create_input_view`): `offsets` are the
/// cell starts in `data`, the last cell runs to its end.
pub fn string_views<'a>(
    name: &'static str,
    data: &'a [u8],
    offsets: &[u64],
) -> Result<Vec<&'a [u8]>, FilterError> {
    if offsets.is_empty() {
        return Err(FilterError::new(name, "a var-sized tile has no cells"));
    }
    let mut views = Vec::with_capacity(offsets.len());
    for (i, &start) in offsets.iter().enumerate() {
        let end = offsets.get(i + 1).copied().unwrap_or(data.len() as u64);
        if start > end || end > data.len() as u64 {
            return Err(FilterError::new(
                name,
                format!(
                    "cell {i} spans bytes {start}..{end} of {} bytes of strings",
                    data.len()
                ),
            ));
        }
        views.push(&data[start as usize..end as usize]);
    }
    Ok(views)
}

/// The single data part that the folded encoders take
/// (`compress_var_string_coords` refuses more than one buffer).
pub(super) fn single_part<'a>(
    name: &'static str,
    input: &'a Parts,
) -> Result<&'a [u8], FilterError> {
    match input.data.as_slice() {
        [] => Ok(&[]),
        [one] => Ok(one),
        _ => Err(FilterError::new(
            name,
            "var-sized strings must come as one buffer (the filter must be first)",
        )),
    }
}

/// RLE forward over the var-sized data tile of a string field whose cell
/// offsets it folds in (`CompressionFilter::compress_var_string_coords`).
///
/// `input` is the whole tile as one chunk (the engine does not chunk these
/// tiles), one data part; `offsets` are the cell starts in it. The
/// metadata of the filters before RLE is dropped, as the engine drops it.
/// The output metadata is an [`RleStringsChunkMetadata`], the data the
/// [`RleStringRun`]s.
///
/// The widths are the engine's: the run length's fits the longest run, the
/// string length's the longest of the first cell and of every run's string
/// but the last (`calculate_compression_params`). When the last run's
/// string is longer than that width holds, the engine truncates its length
/// and writes a tile it cannot read back; this function widens the string
/// length instead.
pub fn forward_var_strings(input: Parts, offsets: &[u64]) -> Result<Parts, FilterError> {
    let data = single_part(NAME, &input)?;
    let views = string_views(NAME, data, offsets)?;
    // The runs: (string, count).
    let mut runs: Vec<(&[u8], u64)> = Vec::new();
    for v in &views {
        match runs.last_mut() {
            Some((s, n)) if s == v => *n += 1,
            _ => runs.push((v, 1)),
        }
    }
    let max_run = runs.iter().map(|r| r.1).max().unwrap_or(1);
    // The engine's string width misses the last run's string, unless it is
    // the first cell's.
    let engine_max = runs[..runs.len() - 1]
        .iter()
        .map(|r| r.0.len() as u64)
        .chain(std::iter::once(views[0].len() as u64))
        .max()
        .unwrap_or(0);
    let last = runs.last().map_or(0, |r| r.0.len() as u64);
    let run_width = width_for(max_run);
    let mut string_width = width_for(engine_max);
    if width_for(last) > string_width {
        string_width = width_for(last);
    }
    let (rw, sw) = (run_width as usize, string_width as usize);
    let mut out = Vec::with_capacity(runs.len() * (rw + sw) + data.len());
    for &(s, n) in &runs {
        // The run length in the field of its width (`run_width` holds the
        // longest run); the string length is set by `append`.
        RleStringRun::append(
            &mut out,
            (run_width, string_width),
            (
                u8::try_from(n).ok().filter(|_| run_width == 1),
                u16::try_from(n).ok().filter(|_| run_width == 2),
                u32::try_from(n).ok().filter(|_| run_width == 4),
                Some(n).filter(|_| run_width == 8),
                s,
            ),
        )?;
    }
    let md = tiledb_codec_format::table!(RleStringsChunkMetadata {
        run_length_width: run_width,
        string_length_width: string_width,
    })
    .with_outside_sizes(data, &out, offsets.as_bytes())
    .map_err(super::too_large(NAME))?;
    Ok(Parts {
        metadata: vec![encode(&md.with_sizes())?],
        data: vec![out],
    })
}

/// RLE backward over folded strings (`decompress_var_string_coords`): the
/// strings as data, each cell's start (relative to this chunk) pushed to
/// `cx.var_offsets`.
fn reverse_var_strings(
    cx: &FilterContext,
    metadata: &[u8],
    data: &[u8],
) -> Result<Reversed, FilterError> {
    let err = |what: String| FilterError::new(NAME, what);
    let (md, used) = decode::<RleStringsChunkMetadata>(metadata, 0, ())
        .map_err(|e| err(format!("chunk metadata: {e}")))?;
    if md.run_length_width == 0 || md.string_length_width == 0 {
        return Err(err("a width of 0 bytes in the chunk metadata".into()));
    }
    let (rw, sw) = (
        read_width(md.run_length_width),
        read_width(md.string_length_width),
    );
    let src = data.get(..md.compressed_length as usize).ok_or_else(|| {
        err(format!(
            "the metadata says {} bytes of runs, the chunk has {}",
            md.compressed_length,
            data.len()
        ))
    })?;
    // First pass: check the runs and what they hold.
    let mut runs = Vec::new();
    let (mut pos, mut cells, mut total) = (0usize, 0u64, 0u64);
    while pos < src.len() {
        let head = src
            .get(pos..pos + rw + sw)
            .ok_or_else(|| err(format!("a run at byte {pos} is cut short")))?;
        let n = be_uint(&head[..rw]);
        let len = be_uint(&head[rw..]);
        let start = pos + rw + sw;
        let string = usize::try_from(len)
            .ok()
            .and_then(|l| src.get(start..start.checked_add(l)?))
            .ok_or_else(|| err(format!("the string of the run at byte {pos} is cut short")))?;
        cells = cells.saturating_add(n);
        total = total.saturating_add(n.saturating_mul(len));
        runs.push((n, string));
        pos = start + string.len();
    }
    if total != u64::from(md.original_length) {
        return Err(err(format!(
            "the runs hold {total} bytes, the metadata says {}",
            md.original_length
        )));
    }
    if cells.saturating_mul(8) != u64::from(md.offsets_length) {
        return Err(err(format!(
            "the runs hold {cells} cells, the metadata says {} bytes of offsets",
            md.offsets_length
        )));
    }
    unfold_strings(NAME, cx, &metadata[used as usize..], runs, total, cells)
}

/// The strings that RLE or DICTIONARY restore from folded strings: each
/// `(string, count)` laid out `count` times, each cell's start (relative
/// to the chunk) pushed to `cx.var_offsets`; `total` bytes in `cells`
/// cells, as the caller counted them (checked against the context's limit
/// here, before allocating). `rest` is the metadata left for the filters
/// before.
pub(super) fn unfold_strings<'a>(
    name: &'static str,
    cx: &FilterContext,
    rest: &[u8],
    strings: impl IntoIterator<Item = (u64, &'a [u8])>,
    total: u64,
    cells: u64,
) -> Result<Reversed, FilterError> {
    let total = cx.check_output(name, "the strings", total)?;
    let cells = cx.check_output(name, "the cell offsets", cells.saturating_mul(8))? / 8;
    let mut out = Vec::with_capacity(total);
    let mut offsets = Vec::with_capacity(cells);
    for (n, s) in strings {
        for _ in 0..n {
            offsets.push(out.len() as u64);
            out.extend_from_slice(s);
        }
    }
    if let Some(place) = cx.var_offsets {
        place.borrow_mut().extend_from_slice(&offsets);
    }
    Ok(Reversed {
        metadata: rest.to_vec(),
        data: out,
    })
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use proptest::prelude::*;

    use super::*;
    use crate::Pipeline;
    use tiledb_codec_format::{
        Compressor, CompressorOptions, FilterOptions, FilterType, RleRun, RleStringRun,
    };

    fn rle() -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::Rle,
            filter_options: FilterOptions::Compressor(tiledb_codec_format::table!(
                CompressorOptions {
                    compressor_type: Compressor::Rle,
                    compression_level: -1,
                    reinterpret_datatype: None,
                }
            )),
        })
        .with_sizes()
    }

    fn round_trip(dt: Datatype, cell: u64, version: u32, data: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let p = Pipeline::new(&[rle()], dt, cell, version).unwrap();
        let (md, filtered) = p.forward_chunk(data).unwrap();
        let back = p.reverse_chunk(&md, &filtered, None).unwrap();
        assert_eq!(back, data);
        (md, filtered)
    }

    #[test]
    fn runs_are_cell_bytes_then_a_big_endian_u16() {
        let mut data = Vec::new();
        for v in [7i32, 7, 7, -1, 5, 5] {
            data.extend_from_slice(&v.to_le_bytes());
        }
        let (md, filtered) = round_trip(Datatype::Int32, 4, 22, &data);
        // One data part of 24 bytes compressed to 18.
        assert_eq!(md, [0, 0, 0, 0, 1, 0, 0, 0, 24, 0, 0, 0, 18, 0, 0, 0]);
        assert_eq!(
            filtered,
            [7, 0, 0, 0, 0, 3, 255, 255, 255, 255, 0, 1, 5, 0, 0, 0, 0, 2]
        );
        // The spec table reads the same runs.
        let (run, used) = decode::<RleRun>(&filtered, 0, (4,)).unwrap();
        assert_eq!((run.value, run.run_length, used), (vec![7, 0, 0, 0], 3, 6));
    }

    #[test]
    fn long_runs_split_at_65535() {
        let data = vec![9u8; 65535 * 2 + 3];
        let (_, filtered) = round_trip(Datatype::Uint8, 1, 22, &data);
        assert_eq!(filtered, [9, 255, 255, 9, 255, 255, 9, 0, 3]);
    }

    #[test]
    fn the_cell_size_is_the_tiles() {
        // Two-value cells: [1,1] [1,1] are one run of 2 cells.
        let data = [1u8, 0, 1, 0, 1, 0, 1, 0];
        let (_, filtered) = round_trip(Datatype::Int16, 4, 22, &data);
        assert_eq!(filtered, [1, 0, 1, 0, 0, 2]);
    }

    #[test]
    fn bad_input_is_refused() {
        let p = Pipeline::new(&[rle()], Datatype::Int32, 4, 22).unwrap();
        assert!(p.forward_chunk(&[1, 2, 3]).is_err());
        let (md, mut filtered) = p.forward_chunk(&[1, 0, 0, 0]).unwrap();
        filtered[5] = 2; // run of 2 cells: 8 bytes, metadata says 4
        assert!(p.reverse_chunk(&md, &filtered, None).is_err());
        assert!(p.reverse_chunk(&md, &filtered[..5], None).is_err());
    }

    fn folded_round_trip(dt: Datatype, version: u32, cells: &[&[u8]]) -> (Vec<u8>, Vec<u8>) {
        let data: Vec<u8> = cells.concat();
        let mut offsets = Vec::new();
        let mut at = 0u64;
        for c in cells {
            offsets.push(at);
            at += c.len() as u64;
        }
        let out = forward_var_strings(Parts::chunk(&data), &offsets).unwrap();
        let (md, filtered) = (out.metadata_bytes(), out.data_bytes());
        let p = Pipeline::new(&[rle()], dt, 1, version).unwrap();
        let place = RefCell::new(Vec::new());
        let back = p.reverse_chunk(&md, &filtered, Some(&place)).unwrap();
        assert_eq!(back, data);
        assert_eq!(place.into_inner(), offsets);
        (md, filtered)
    }

    #[test]
    fn folded_strings_are_runs_of_length_and_string() {
        let (md, filtered) = folded_round_trip(
            Datatype::StringAscii,
            12,
            &[b"ab", b"ab", b"ab", b"", b"xyz"],
        );
        let mut want_md = Vec::new();
        for v in [0u32, 1, 9, 11, 40] {
            want_md.extend_from_slice(&v.to_le_bytes());
        }
        want_md.extend_from_slice(&[1, 1]);
        assert_eq!(md, want_md);
        assert_eq!(filtered, b"\x03\x02ab\x01\x00\x01\x03xyz");
        let (run, _) = decode::<RleStringRun>(&filtered, 0, (1, 1)).unwrap();
        assert_eq!((run.run_length_u8, run.string), (Some(3), b"ab".to_vec()));
    }

    #[test]
    fn folded_widths_follow_the_longest_run_and_string() {
        let long = vec![b'q'; 300];
        let many: Vec<&[u8]> = std::iter::repeat_n(&b"z"[..], 70000).collect();
        let mut cells: Vec<&[u8]> = vec![&long];
        cells.extend(many);
        let (md, filtered) = folded_round_trip(Datatype::StringUtf8, 17, &cells);
        assert_eq!(&md[20..], &[4, 2]);
        assert_eq!(&filtered[..6], &[0, 0, 0, 1, 1, 44]);
        // The last run's string alone longer than 255: the engine would
        // write width 1 and truncate; the width grows instead.
        let (md, _) = folded_round_trip(Datatype::StringUtf8, 17, &[b"a", &long]);
        assert_eq!(&md[20..], &[1, 2]);
        // ... but not when the first cell is that string.
        let (md, _) = folded_round_trip(Datatype::StringUtf8, 17, &[&long]);
        assert_eq!(&md[20..], &[1, 2]);
    }

    #[test]
    fn folding_needs_a_string_type_and_the_reader_asking() {
        // Without a place for the offsets, RLE over a string tile is plain.
        round_trip(Datatype::StringUtf8, 1, 16, b"aaab");
        let out = forward_var_strings(Parts::chunk(b"aab"), &[0, 2]).unwrap();
        let p = Pipeline::new(&[rle()], Datatype::StringAscii, 1, 22).unwrap();
        assert!(p
            .reverse_chunk(&out.metadata_bytes(), &out.data_bytes(), None)
            .is_err());
        assert!(forward_var_strings(Parts::chunk(b"aab"), &[]).is_err());
        assert!(forward_var_strings(Parts::chunk(b"aab"), &[0, 4]).is_err());
    }

    #[test]
    fn forward_takes_the_offsets_from_the_context() {
        let offsets = RefCell::new(vec![0, 2, 2]);
        let cx = FilterContext {
            var_offsets: Some(&offsets),
            ..FilterContext::new(Datatype::StringAscii, 1, 12)
        };
        let out = Rle.forward(&cx, Parts::chunk(b"aab")).unwrap();
        let want = forward_var_strings(Parts::chunk(b"aab"), &[0, 2, 2]).unwrap();
        assert_eq!(out, want);
        // Before version 12 the offsets are not folded: plain runs.
        let old = FilterContext { version: 11, ..cx };
        let out = Rle.forward(&old, Parts::chunk(b"aab")).unwrap();
        assert_eq!(out.data_bytes(), b"a\x00\x02b\x00\x01");
    }

    fn datatypes() -> impl Strategy<Value = (Datatype, u64)> {
        (
            prop::sample::select(Datatype::ALL.to_vec()),
            prop::sample::select(vec![1u64, 2, 3]),
        )
            .prop_map(|(dt, n)| (dt, dt.size() * n))
    }

    proptest! {
        #[test]
        fn identity(
            (dt, cell) in datatypes(),
            cells in prop::collection::vec(0u8..3, 0..3000),
            version in 1u32..=22,
        ) {
            // Few distinct values make runs; cells of `cell` bytes.
            let data: Vec<u8> = cells
                .iter()
                .flat_map(|v| std::iter::repeat_n(*v, cell as usize))
                .collect();
            let p = Pipeline::new(&[rle()], dt, cell, version).unwrap();
            let size = crate::pipeline::chunk_size(data.len() as u64, cell) as usize;
            for chunk in data.chunks(size) {
                let (md, filtered) = p.forward_chunk(chunk).unwrap();
                prop_assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), chunk);
            }
        }

        #[test]
        fn identity_random_bytes(data in prop::collection::vec(any::<u8>(), 0..2000)) {
            let p = Pipeline::new(&[rle()], Datatype::Uint8, 1, 22).unwrap();
            let (md, filtered) = p.forward_chunk(&data).unwrap();
            prop_assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), data);
        }

        #[test]
        fn folded_identity(
            cells in prop::collection::vec(
                prop::sample::select(vec![&b""[..], b"a", b"bb", b"hello", &[b'x'; 300][..]]),
                1..500,
            ),
            utf8 in any::<bool>(),
        ) {
            let dt = if utf8 { Datatype::StringUtf8 } else { Datatype::StringAscii };
            folded_round_trip(dt, 22, &cells);
        }
    }
}
