//! The compression filters (format_spec/tile.md#compression-filters): each
//! metadata part and each data part is compressed on its own; the filter's
//! chunk metadata (`CompressionChunkMetadata`) lists the parts' lengths and
//! the compressed parts, metadata first, form its output data. GZIP, ZSTD,
//! LZ4 and BZIP2 are here; RLE, DELTA, DOUBLE_DELTA and DICTIONARY have
//! modules of their own.

use std::io::{Read, Write};

use super::rle::{frame_forward, frame_reverse};
use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::{Compressor, CompressorOptions, Filter, FilterType};

/// The codec for a filter with compressor options. RLE, DELTA,
/// DOUBLE_DELTA and DICTIONARY go to their own modules.
pub fn codec(
    filter: &Filter,
    kind: FilterType,
    opts: &CompressorOptions,
) -> Result<Box<dyn FilterCodec>, FilterError> {
    let compressor = opts.compressor_type;
    match compressor {
        Compressor::NoCompression => Ok(Box::new(super::Noop)),
        Compressor::Gzip | Compressor::Zstd | Compressor::Lz4 | Compressor::Bzip2 => {
            Ok(Box::new(Compression {
                compressor,
                level: opts.compression_level,
            }))
        }
        Compressor::Rle => super::rle::codec(filter),
        Compressor::DictionaryEncoding => super::dictionary::codec(filter),
        Compressor::Delta => super::delta::codec(filter),
        Compressor::DoubleDelta => super::double_delta::codec(filter),
        other => Err(FilterError::new(
            kind.name(),
            format!("unknown compressor code {}", other.value()),
        )),
    }
}

/// A general-purpose compressor run per part. Built without the `bzip2`
/// feature, BZIP2 compresses and decompresses nothing: it is an error
/// ([`FilterError::needs_feature`]).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Compression {
    /// GZIP, ZSTD, LZ4 or BZIP2.
    pub compressor: Compressor,
    /// The compression level, as the filter's options store it (each
    /// compressor maps levels it does not know to its default).
    pub level: i32,
}

/// ZSTD at `level` as the engine (TileDB 2.30) runs it: every level
/// libzstd knows, negative ones included, goes through as it is (so the
/// default, -1, is ZSTD's fast level -1); below that, ZSTD's default level.
/// Each thread keeps its compression context for the next chunk, as the
/// engine keeps a pool of them.
fn zstd_compress(input: &[u8], level: i32) -> std::io::Result<Vec<u8>> {
    use std::cell::RefCell;
    thread_local! {
        static CONTEXT: RefCell<Option<(i32, zstd::bulk::Compressor<'static>)>> =
            const { RefCell::new(None) };
    }
    let level = if zstd::compression_level_range().contains(&level) {
        level
    } else {
        zstd::DEFAULT_COMPRESSION_LEVEL
    };
    CONTEXT.with(|c| {
        let mut c = c.borrow_mut();
        if c.as_ref().is_none_or(|(l, _)| *l != level) {
            *c = Some((level, zstd::bulk::Compressor::new(level)?));
        }
        let (_, z) = c.as_mut().expect("set above");
        z.compress(input)
    })
}

/// ZSTD decompression with a context kept per thread (making one per
/// 64 KiB chunk costs a tenth of the decoding).
fn zstd_decompress(input: &[u8], dest: &mut [u8]) -> std::io::Result<usize> {
    use std::cell::RefCell;
    thread_local! {
        static CONTEXT: RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { RefCell::new(None) };
    }
    CONTEXT.with(|c| {
        let mut c = c.borrow_mut();
        if c.is_none() {
            *c = Some(zstd::bulk::Decompressor::new()?);
        }
        c.as_mut()
            .expect("set above")
            .decompress_to_buffer(input, dest)
    })
}

/// Zlib (the GZIP filter's stream) inflated into `dest` in one call, by
/// zlib-rs with a state kept per thread: its setup (a fixed-Huffman block
/// needs no table built, a stream finished in one call no window) costs a
/// fraction of miniz_oxide's, which was most of the cost of the small
/// metadata tiles of many fragments. The whole stream must produce exactly
/// `dest.len()` bytes and end.
fn zlib_decompress(
    input: &[u8],
    dest: &mut [u8],
    name: &'static str,
) -> Result<usize, FilterError> {
    use std::cell::RefCell;
    use zlib_rs::{Inflate, InflateFlush, Status};
    thread_local! {
        static INFLATER: RefCell<Option<Inflate>> = const { RefCell::new(None) };
    }
    INFLATER.with(|c| {
        let mut c = c.borrow_mut();
        let d = c.get_or_insert_with(|| Inflate::new(true, 15));
        d.reset(true);
        let err = |what: &str| Err(FilterError::new(name, what));
        match d.decompress(input, dest, InflateFlush::Finish) {
            Ok(Status::StreamEnd) => Ok(d.total_out() as usize),
            // Not ended with the output full: more than declared (or a
            // stream cut where the declared length ends).
            Ok(_) if d.total_out() as usize == dest.len() => err(
                "part decompresses to more than its declared length, or its stream does not end",
            ),
            Ok(_) => err("the compressed stream ends early"),
            Err(e) => err(d.error_message().unwrap_or(e.as_str())),
        }
    })
}

impl Compression {
    fn name_of(c: Compressor) -> &'static str {
        match c {
            Compressor::Gzip => "GZIP",
            Compressor::Zstd => "ZSTD",
            Compressor::Lz4 => "LZ4",
            Compressor::Bzip2 => "BZIP2",
            _ => "compression",
        }
    }

    fn compress(&self, input: &[u8]) -> Result<Vec<u8>, FilterError> {
        let name = Self::name_of(self.compressor);
        let err = |e: std::io::Error| FilterError::new(name, e.to_string());
        match self.compressor {
            Compressor::Gzip => {
                // The engine's defaults: level below -1 means the default (6).
                let level = if (0..=9).contains(&self.level) {
                    self.level as u32
                } else {
                    6
                };
                let mut enc =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(level));
                enc.write_all(input).map_err(err)?;
                enc.finish().map_err(err)
            }
            Compressor::Zstd => zstd_compress(input, self.level).map_err(err),
            Compressor::Lz4 => Ok(lz4_flex::block::compress(input)),
            #[cfg(feature = "bzip2")]
            Compressor::Bzip2 => {
                let level = if (1..=9).contains(&self.level) {
                    self.level as u32
                } else {
                    9
                };
                let mut enc =
                    bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(level));
                enc.write_all(input).map_err(err)?;
                enc.finish().map_err(err)
            }
            #[cfg(not(feature = "bzip2"))]
            Compressor::Bzip2 => Err(FilterError::needs_feature(name, "bzip2")),
            _ => Err(FilterError::new(name, "not a general-purpose compressor")),
        }
    }

    /// Decompresses one part into exactly `original` bytes appended to `out`.
    fn decompress(
        &self,
        input: &[u8],
        original: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), FilterError> {
        let start = out.len();
        out.resize(start + original, 0);
        self.decompress_into(input, &mut out[start..])
    }

    /// Decompresses one part into exactly `dest.len()` bytes.
    fn decompress_into(&self, input: &[u8], dest: &mut [u8]) -> Result<(), FilterError> {
        let name = Self::name_of(self.compressor);
        let original = dest.len();
        let produced = match self.compressor {
            Compressor::Gzip => zlib_decompress(input, dest, name)?,
            Compressor::Zstd => {
                zstd_decompress(input, dest).map_err(|e| FilterError::new(name, e.to_string()))?
            }
            Compressor::Lz4 => lz4_flex::block::decompress_into(input, dest)
                .map_err(|e| FilterError::new(name, e.to_string()))?,
            #[cfg(feature = "bzip2")]
            Compressor::Bzip2 => read_exactly(bzip2::read::BzDecoder::new(input), dest, name)?,
            #[cfg(not(feature = "bzip2"))]
            Compressor::Bzip2 => return Err(FilterError::needs_feature(name, "bzip2")),
            _ => return Err(FilterError::new(name, "not a general-purpose compressor")),
        };
        if produced != original {
            return Err(FilterError::new(
                name,
                format!("part decompressed to {produced} bytes, the metadata says {original}"),
            ));
        }
        Ok(())
    }
}

impl Compression {
    /// Refuses a part whose declared original length this compressor
    /// cannot produce from `compressed` bytes, before anything is
    /// allocated for it. LZ4 blocks extend a match by at most 255 bytes per
    /// input byte; DEFLATE's longest match, 258 bytes, takes a code of at
    /// least two bits (1,032:1). ZSTD and BZIP2 can go further and are
    /// bounded by the context's limit alone.
    fn check_ratio(&self, compressed: usize, original: usize) -> Result<(), FilterError> {
        let ratio: u64 = match self.compressor {
            Compressor::Lz4 => 256,
            Compressor::Gzip => 1040,
            _ => return Ok(()),
        };
        if original as u64 > (compressed as u64).saturating_mul(ratio) + 1024 {
            return Err(FilterError::new(
                self.name(),
                format!(
                    "a part of {compressed} compressed bytes cannot hold the {original} bytes its metadata declares"
                ),
            ));
        }
        Ok(())
    }
}

/// Reads a decoder into `dest`, refusing to produce more than `dest` holds
/// (the declared original length caps decompression). Only BZIP2 uses it.
#[cfg_attr(not(feature = "bzip2"), allow(dead_code))]
fn read_exactly(
    mut r: impl Read,
    dest: &mut [u8],
    name: &'static str,
) -> Result<usize, FilterError> {
    let mut filled = 0;
    while filled < dest.len() {
        match r.read(&mut dest[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) => return Err(FilterError::new(name, e.to_string())),
        }
    }
    let mut extra = [0u8; 1];
    match r.read(&mut extra) {
        Ok(0) => Ok(filled),
        Ok(_) => Err(FilterError::new(
            name,
            "part decompresses to more than its declared length",
        )),
        Err(e) => Err(FilterError::new(name, e.to_string())),
    }
}

impl FilterCodec for Compression {
    fn name(&self) -> &'static str {
        Self::name_of(self.compressor)
    }

    fn forward(&self, _cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        frame_forward(self.name(), &input.metadata, &input.data, |p| {
            self.compress(p)
        })
    }

    fn forward_borrowed(
        &self,
        _cx: &FilterContext,
        chunk: &[u8],
    ) -> Option<Result<Parts, FilterError>> {
        Some(frame_forward::<&[u8]>(self.name(), &[], &[chunk], |p| {
            self.compress(p)
        }))
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        frame_reverse(self.name(), cx, metadata, data, |src, original, dest| {
            self.check_ratio(src.len(), original)?;
            self.decompress(src, original, dest)
        })
    }

    fn reverse_into(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
        out: &mut [u8],
    ) -> Option<Result<(), FilterError>> {
        super::rle::frame_reverse_into(self.name(), cx, metadata, data, out, |src, dest| {
            self.check_ratio(src.len(), dest.len())?;
            self.decompress_into(src, dest)
        })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use crate::Pipeline;
    use tiledb_codec_format::{
        decode_all, CompressorOptions, Datatype, Filter, FilterOptions, FilterType, Record, Tile,
    };

    fn filter(kind: FilterType, code: u8, level: i32) -> Filter {
        let options = FilterOptions::Compressor(tiledb_codec_format::table!(CompressorOptions {
            compressor_type: tiledb_codec_format::Compressor::from_raw(code),
            compression_level: level,
            reinterpret_datatype: None,
        }));
        tiledb_codec_format::table!(Filter {
            filter_type: kind,
            filter_options: options,
        })
        .with_sizes()
    }

    fn kinds() -> Vec<(FilterType, u8)> {
        vec![
            (FilterType::None, 0),
            (FilterType::Gzip, 1),
            (FilterType::Zstd, 2),
            (FilterType::Lz4, 3),
            #[cfg(feature = "bzip2")]
            (FilterType::Bzip2, 5),
        ]
    }

    /// Without the `bzip2` feature, a pipeline naming BZIP2 builds, and
    /// running it either way is an error that names the feature.
    #[cfg(not(feature = "bzip2"))]
    #[test]
    fn bzip2_without_the_feature_is_an_error_naming_it() {
        let p = Pipeline::new(&[filter(FilterType::Bzip2, 5, 3)], Datatype::Uint8, 1, 22).unwrap();
        let e = p.forward_chunk(&[7u8; 100]).unwrap_err();
        assert_eq!((e.filter, e.missing_feature), ("BZIP2", Some("bzip2")));
        // A chunk that says it holds one compressed part of 10 bytes.
        let md: Vec<u8> = [0u32, 1, 10, 4]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let e = p.reverse_chunk(&md, &[1, 2, 3, 4], None).unwrap_err();
        assert_eq!(e.missing_feature, Some("bzip2"), "{e}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        /// encode -> decode is the identity for every compressor, from an
        /// empty tile to several chunks, for data of every datatype.
        #[test]
        fn compressors_round_trip(
            (kind, code) in prop::sample::select(kinds()),
            level in -1i32..10,
            dt in prop::sample::select(Datatype::ALL.to_vec()),
            cells in 0usize..40_000,
            seed in any::<u64>(),
        ) {
            let mut s = seed;
            let data: Vec<u8> = (0..cells * dt.size() as usize)
                .map(|i| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    // Half runs, half noise: both paths of the compressors.
                    if (i / 512) % 2 == 0 { (i / 97) as u8 } else { (s >> 56) as u8 }
                })
                .collect();
            let p = Pipeline::new(&[filter(kind, code, level)], dt, dt.size(), 22).unwrap();
            let tile = p.forward_tile(&data).unwrap();
            // The tile's chunks, each run backward (the library's tile
            // reader does the same on mapped files).
            let t: Tile = decode_all(&tile, 0, ()).unwrap();
            let mut back = Vec::new();
            for c in &t.chunks {
                let chunk = p.reverse_chunk(&c.metadata, &c.filtered_data, None).unwrap();
                prop_assert_eq!(chunk.len() as u64, u64::from(c.header.original_length));
                back.extend_from_slice(&chunk);
            }
            prop_assert_eq!(back, data);
        }
    }

    /// Where the original length of the first part (a data part: no
    /// metadata parts) sits in a `CompressionChunkMetadata`.
    const ORIGINAL_AT: usize = tiledb_codec_format::CompressionChunkMetadata::OFFSET_METADATA_PARTS
        + tiledb_codec_format::CompressedPartMd::OFFSET_PART_ORIGINAL_LENGTH;

    #[test]
    fn a_part_that_decompresses_past_its_declared_length_is_refused() {
        // ZSTD data for 100 bytes declared as 10: decompression is capped.
        let p = Pipeline::new(&[filter(FilterType::Zstd, 2, 3)], Datatype::Uint8, 1, 22).unwrap();
        let (md, data) = p.forward_chunk(&[7u8; 100]).unwrap();
        let mut md = md;
        // CompressionChunkMetadata: 2 counts, then (original, compressed) of the data part.
        md[ORIGINAL_AT..ORIGINAL_AT + 4].copy_from_slice(&10u32.to_le_bytes());
        let err = p.reverse_chunk(&md, &data, None).unwrap_err();
        assert_eq!(err.filter, "ZSTD");
    }

    /// Declares `original` bytes for the data part of a chunk of 100 equal
    /// bytes compressed with `kind`, and reverses it under `limit`.
    fn declare(kind: FilterType, code: u8, original: u32, limit: u64) -> super::FilterError {
        let p = Pipeline::new(&[filter(kind, code, 3)], Datatype::Uint8, 1, 22).unwrap();
        let (mut md, data) = p.forward_chunk(&[7u8; 100]).unwrap();
        md[ORIGINAL_AT..ORIGINAL_AT + 4].copy_from_slice(&original.to_le_bytes());
        p.reverse_chunk_within(&md, &data, None, limit).unwrap_err()
    }

    #[test]
    fn a_declared_length_over_the_limit_is_refused_before_decompressing() {
        for (kind, code) in kinds().into_iter().skip(1) {
            let err = declare(kind, code, u32::MAX, 1 << 20);
            assert!(err.what.contains("exceeds the limit"), "{kind:?}: {err}");
        }
    }

    #[test]
    fn a_declared_length_past_the_compressors_ratio_is_refused() {
        // A few bytes of LZ4 or DEFLATE cannot stand for 1 GiB, whatever
        // the limit.
        for (kind, code) in [(FilterType::Lz4, 3), (FilterType::Gzip, 1)] {
            let err = declare(kind, code, 1 << 30, u64::MAX);
            assert!(err.what.contains("cannot hold"), "{kind:?}: {err}");
        }
    }
}
