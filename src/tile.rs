//! Tiles: generic tiles (header + chunked, filtered data) read from mapped
//! files. The data is borrowed from the mapping when no filter touched it.

use std::borrow::Cow;

use crate::error::{Error, Result};
use crate::filters::{Pipeline, ReadOptions};
use crate::format::{decode, ChunkHeader, Datatype, EncryptionType, FilterType, GenericTileHeader};
use crate::storage::MappedFile;

/// A generic tile read from a file.
#[derive(Debug)]
pub struct GenericTile<'a> {
    /// Where the tile starts in its file.
    pub offset: u64,
    pub header: GenericTileHeader,
    /// The unfiltered tile data.
    pub data: Cow<'a, [u8]>,
    /// Where the next byte after the tile is.
    pub end: u64,
}

fn slice<'a>(
    file: &'a MappedFile,
    offset: u64,
    len: u64,
    table: &str,
    field: &str,
) -> Result<&'a [u8]> {
    let bytes = file.bytes();
    let end = offset.checked_add(len).filter(|e| *e <= bytes.len() as u64);
    match end {
        Some(end) => Ok(&bytes[offset as usize..end as usize]),
        None => Err(Error::decode(
            file.path(),
            offset,
            table,
            field,
            format!("{len} bytes declared, the file has {} bytes", bytes.len()),
        )),
    }
}

/// Reads the generic tile at `offset` of `file` and reverses its filters.
pub fn read_generic_tile<'a>(
    file: &'a MappedFile,
    offset: u64,
    opts: &ReadOptions,
) -> Result<GenericTile<'a>> {
    let path = file.path();
    if offset > file.len() {
        return Err(Error::decode(
            path,
            offset,
            "GenericTileHeader",
            "",
            "offset past the end of the file",
        ));
    }
    let rest = &file.bytes()[offset as usize..];
    let (header, used) = decode::<GenericTileHeader>(rest, path, offset, ())?;
    // The pipeline must take exactly the bytes the header gives it.
    // The pipeline must take exactly the bytes the header gives it (a size
    // larger than what was read cannot be subtracted: checked).
    let pipeline_start = used.checked_sub(u64::from(header.filter_pipeline_size));
    if pipeline_start != Some(34) {
        return Err(Error::decode(
            path,
            offset + 30,
            "GenericTileHeader",
            "filter_pipeline_size",
            format!(
                "says {} bytes, the pipeline took {}",
                header.filter_pipeline_size,
                used.saturating_sub(34)
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
            offset + 29,
            "GenericTileHeader",
            "encryption_type",
            what,
        )
    };
    match EncryptionType::from_value(header.encryption_type) {
        Some(EncryptionType::NoEncryption) => {
            if opts.encryption_key.is_some() {
                return Err(encryption_error(
                    "the tile is not encrypted, but an encryption key was given",
                ));
            }
        }
        Some(EncryptionType::Aes256Gcm) => {
            if opts.encryption_key.is_none() {
                return Err(encryption_error(crate::filters::encryption::MISSING_KEY));
            }
            let aes = FilterType::Aes256Gcm.value();
            if !header
                .filter_pipeline
                .filters
                .iter()
                .any(|f| f.filter_type == aes)
            {
                return Err(encryption_error(
                    "the tile is encrypted, but its filter pipeline has no AES_256_GCM filter",
                ));
            }
        }
        None => {
            return Err(encryption_error(&format!(
                "unknown encryption type {}",
                header.encryption_type
            )))
        }
    }
    if header.tile_size > opts.max_tile_bytes() {
        return Err(Error::decode(
            path,
            offset + 12,
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
        data_start,
        header.persisted_size,
        "GenericTileHeader",
        "persisted_size",
    )?;
    let datatype = Datatype::from_value(header.datatype).unwrap_or(Datatype::Char);
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

/// Reverses the filters of a serialized `Tile` (chunk count + chunks) that
/// sits at `base` of `file`. `expected` is the unfiltered size when a header
/// gives it; the chunks' original lengths must add up to it and to no more
/// than `limit`. Returns borrowed bytes when nothing was filtered and the
/// tile is one chunk (no copy).
pub fn unfilter_tile<'a>(
    file: &MappedFile,
    base: u64,
    bytes: &'a [u8],
    expected: Option<u64>,
    limit: u64,
    pipeline: &Pipeline,
    offsets: Option<&std::cell::RefCell<Vec<u64>>>,
) -> Result<Cow<'a, [u8]>> {
    let path = file.path();
    let (num_chunks, mut pos) = decode::<u64>(bytes, path, base, ()).map_err(|_| {
        Error::decode(
            path,
            base,
            "Tile",
            "num_chunks",
            "the tile ends before its chunk count",
        )
    })?;
    // Each chunk takes at least its 12-byte header.
    if num_chunks > (bytes.len() as u64) / 12 {
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
    for chunk in 0..num_chunks {
        let at = base + pos;
        let (h, used) = decode::<ChunkHeader>(&bytes[pos as usize..], path, at, ())?;
        pos += used;
        let md_end = pos + u64::from(h.metadata_length);
        let data_end = md_end + u64::from(h.filtered_length);
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
        if pipeline.is_empty() && h.filtered_length != h.original_length {
            return Err(Error::decode(
                path,
                at,
                "ChunkHeader",
                "filtered_length",
                format!(
                    "chunk {chunk} has no filters but {} filtered bytes for {} original",
                    h.filtered_length, h.original_length
                ),
            ));
        }
        total += u64::from(h.original_length);
        chunks.push((
            at,
            h,
            pos as usize..md_end as usize,
            md_end as usize..data_end as usize,
        ));
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
    if pipeline.is_empty() {
        if let [(_, _, _, data)] = chunks.as_slice() {
            return Ok(Cow::Borrowed(&bytes[data.clone()]));
        }
    }
    let mut out = Vec::with_capacity(total as usize);
    for (chunk, (at, h, md, data)) in chunks.into_iter().enumerate() {
        let plain = pipeline
            .reverse_chunk_within(&bytes[md], &bytes[data], offsets, limit)
            .map_err(|e| Error::Filter {
                file: path.to_path_buf(),
                offset: base,
                chunk: chunk as u64,
                filter: e.filter,
                what: e.what,
            })?;
        if plain.len() as u64 != u64::from(h.original_length) {
            return Err(Error::decode(
                path,
                at,
                "ChunkHeader",
                "original_length",
                format!(
                    "chunk {chunk} unfilters to {} bytes, the header says {}",
                    plain.len(),
                    h.original_length
                ),
            ));
        }
        out.extend_from_slice(&plain);
    }
    Ok(Cow::Owned(out))
}

/// Wraps `data` in a generic tile of format `version`, as the engine would
/// without compression: an empty filter pipeline (max chunk size 65536),
/// datatype CHAR, cell size 1, no encryption, one unfiltered chunk. Built
/// from the generated tables, so it is the inverse of [`read_generic_tile`].
pub fn write_generic_tile(data: &[u8], version: u32) -> Vec<u8> {
    use crate::format::{encode, Chunk, Datatype, FilterPipeline, Tile};
    let len = u32::try_from(data.len()).expect("a one-chunk generic tile holds at most 4 GiB");
    let tile = Tile {
        num_chunks: 1,
        chunks: vec![Chunk {
            header: ChunkHeader {
                original_length: len,
                filtered_length: len,
                metadata_length: 0,
            },
            metadata: Vec::new(),
            filtered_data: data.to_vec(),
        }],
    };
    let body = encode(&tile);
    let pipeline = FilterPipeline {
        max_chunk_size: 65536,
        num_filters: 0,
        filters: Vec::new(),
    };
    let pipeline_size = encode(&pipeline).len() as u32;
    let header = GenericTileHeader {
        version_number: version,
        persisted_size: body.len() as u64,
        tile_size: data.len() as u64,
        datatype: Datatype::Char.value(),
        cell_size: 1,
        encryption_type: EncryptionType::NoEncryption.value(),
        filter_pipeline_size: pipeline_size,
        filter_pipeline: pipeline,
    };
    let mut out = encode(&header);
    out.extend_from_slice(&body);
    out
}
