//! The compression filters: each part of the input was compressed on its
//! own; the chunk metadata lists the parts (`CompressionChunkMetadata`).

use std::io::Read;

use super::{ChunkParts, FilterError};
use crate::format::{decode, CompressionChunkMetadata, Compressor};

/// Decompresses one part into exactly `original` bytes appended to `out`.
fn decompress_part(
    compressor: Compressor,
    input: &[u8],
    original: usize,
    out: &mut Vec<u8>,
) -> Result<(), FilterError> {
    let name = compressor.name();
    let start = out.len();
    out.resize(start + original, 0);
    let dest = &mut out[start..];
    let produced = match compressor {
        Compressor::Gzip => read_exactly(flate2::read::ZlibDecoder::new(input), dest, name)?,
        Compressor::Zstd => zstd::bulk::decompress_to_buffer(input, dest)
            .map_err(|e| FilterError::new("ZSTD", e.to_string()))?,
        Compressor::Lz4 => lz4_flex::block::decompress_into(input, dest)
            .map_err(|e| FilterError::new("LZ4", e.to_string()))?,
        Compressor::Bzip2 => read_exactly(bzip2::read::BzDecoder::new(input), dest, name)?,
        other => {
            return Err(FilterError::new(
                "compression",
                format!("the {} compressor is not supported yet", other.name()),
            ))
        }
    };
    if produced != original {
        return Err(FilterError::new(
            name,
            format!("part decompressed to {produced} bytes, the metadata says {original}"),
        ));
    }
    Ok(())
}

/// Reads a decoder into `dest`, refusing to produce more than `dest` holds
/// (the declared original length caps decompression).
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

/// Reverses a compression filter: `input.metadata` starts with the
/// filter's `CompressionChunkMetadata`.
pub fn reverse(compressor: Compressor, input: &ChunkParts) -> Result<ChunkParts, FilterError> {
    if compressor == Compressor::NoCompression {
        return Ok(input.clone());
    }
    let (md, _) =
        decode::<CompressionChunkMetadata>(&input.metadata, std::path::Path::new(""), 0, ())
            .map_err(|e| FilterError::new(compressor.name(), format!("chunk metadata: {e}")))?;
    let mut out = ChunkParts::default();
    let mut pos = 0usize;
    for (parts, dest) in [
        (&md.metadata_parts, &mut out.metadata),
        (&md.data_parts, &mut out.data),
    ] {
        for part in parts {
            let len = part.part_compressed_length as usize;
            let Some(src) = input.data.get(pos..pos + len) else {
                return Err(FilterError::new(
                    compressor.name(),
                    format!(
                        "a part of {len} bytes at {pos} runs past the chunk's {} bytes",
                        input.data.len()
                    ),
                ));
            };
            decompress_part(compressor, src, part.part_original_length as usize, dest)?;
            pos += len;
        }
    }
    Ok(out)
}
