//! DICTIONARY, dictionary encoding (filter type 14;
//! format_spec/filters/dictionary_encoding.md, spec/filters_dictionary_encoding.toml;
//! tiledb/sm/filter/compression_filter.cc and
//! tiledb/sm/compressors/dict_compressor.h).
//!
//! The engine applies it only to the var-sized data tile of a string field
//! whose cell offsets it folds into the data (ASCII from version 13, UTF-8
//! from version 17): the tile is one chunk, whose metadata is a
//! [`DictionaryChunkMetadata`] holding the dictionary ([`DictionaryEntry`]s,
//! distinct cells in order of first appearance) and whose data is one
//! big-endian word id per cell ([`DictionaryWordId`]). Anywhere else the
//! engine refuses it ("Dictionary encoding only applies to variable length
//! strings"), and so does this codec.
//!
//! On read the cell offsets come out of the ids (into
//! [`FilterContext::var_offsets`]); on write [`forward_var_strings`] needs
//! them, which `forward` takes from [`FilterContext::var_offsets`] when the
//! pipeline puts them there.

use std::collections::HashMap;
use tiledb_codec_format::Record as _;
use zerocopy::IntoBytes as _;

use super::rle::{
    be_uint, folded, push_be, read_width, single_part, string_views, unfold_strings, width_for,
};
use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::version::has_dictionary_folded_ascii_offsets;
#[cfg(doc)]
use tiledb_codec_format::DictionaryWordId;
use tiledb_codec_format::{decode, encode, DictionaryChunkMetadata, DictionaryEntry, Filter};

const NAME: &str = "DICTIONARY";

/// The codec for a DICTIONARY filter (no options besides the unused level).
pub fn codec(_filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    Ok(Box::new(Dictionary))
}

/// DICTIONARY both ways.
#[derive(Debug, Clone, Copy, Default)]
pub struct Dictionary;

impl FilterCodec for Dictionary {
    fn name(&self) -> &'static str {
        NAME
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        match (
            folded(cx, has_dictionary_folded_ascii_offsets),
            cx.var_offsets,
        ) {
            (true, Some(offsets)) => forward_var_strings(input, &offsets.borrow()),
            _ => Err(FilterError::new(
                NAME,
                "dictionary encoding applies only to var-sized strings, with their offsets \
                 (FilterContext::var_offsets, or dictionary::forward_var_strings)",
            )),
        }
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        if !folded(cx, has_dictionary_folded_ascii_offsets) {
            return Err(FilterError::new(
                NAME,
                "dictionary encoding applies only to var-sized strings whose offsets it holds",
            ));
        }
        reverse_var_strings(cx, metadata, data)
    }
}

/// DICTIONARY forward over the var-sized data tile of a string field
/// (`CompressionFilter::compress_var_string_coords`, `DictEncoding`).
///
/// `input` is the whole tile as one chunk (the engine does not chunk these
/// tiles), one data part; `offsets` are the cell starts in it. The
/// metadata of the filters before DICTIONARY is dropped, as the engine
/// drops it. The id width is the least that holds the number of cells (not
/// of distinct strings), the string length width the least that holds the
/// longest cell.
pub fn forward_var_strings(input: Parts, offsets: &[u64]) -> Result<Parts, FilterError> {
    let data = single_part(NAME, &input)?;
    let views = string_views(NAME, data, offsets)?;
    let id_width = width_for(views.len() as u64);
    let max_len = views.iter().map(|v| v.len() as u64).max().unwrap_or(0);
    let string_width = width_for(max_len);
    let mut ids: HashMap<&[u8], u64> = HashMap::new();
    let mut dictionary = Vec::new();
    let mut out = Vec::with_capacity(views.len() * id_width as usize);
    for v in &views {
        let next = ids.len() as u64;
        let id = if let Some(&id) = ids.get(v) {
            id
        } else {
            DictionaryEntry::append(&mut dictionary, (string_width,), (v,))?;
            *ids.entry(v).or_insert(next)
        };
        // A word id is a value (its string's index in the dictionary), not a size.
        push_be(&mut out, id, id_width as usize);
    }
    let md = tiledb_codec_format::table!(DictionaryChunkMetadata {
        id_width,
        string_length_width: string_width,
        dictionary,
    })
    .with_outside_sizes(data, &out, offsets.as_bytes())
    .map_err(super::too_large(NAME))?;
    Ok(Parts {
        metadata: vec![encode(&md.with_sizes())?],
        data: vec![out],
    })
}

/// DICTIONARY backward (`decompress_var_string_coords`): the strings as
/// data, each cell's start (relative to this chunk) pushed to
/// `cx.var_offsets`.
fn reverse_var_strings(
    cx: &FilterContext,
    metadata: &[u8],
    data: &[u8],
) -> Result<Reversed, FilterError> {
    let err = |what: String| FilterError::new(NAME, what);
    let (md, used) = decode::<DictionaryChunkMetadata>(metadata, 0, ())
        .map_err(|e| err(format!("chunk metadata: {e}")))?;
    if md.id_width == 0 {
        return Err(err("a word id width of 0 bytes".into()));
    }
    let id_width = read_width(md.id_width);
    // The engine reads a string length width of 0 as 1.
    let string_width = read_width(md.string_length_width) as u8;
    let mut dict: Vec<Vec<u8>> = Vec::new();
    let mut pos = 0usize;
    while pos < md.dictionary.len() {
        let (e, n) = decode::<DictionaryEntry>(&md.dictionary[pos..], pos as u64, (string_width,))
            .map_err(|e| err(format!("dictionary: {e}")))?;
        dict.push(e.string);
        pos += n as usize;
    }
    let src = data.get(..md.compressed_length as usize).ok_or_else(|| {
        err(format!(
            "the metadata says {} bytes of word ids, the chunk has {}",
            md.compressed_length,
            data.len()
        ))
    })?;
    if src.len() % id_width != 0 {
        return Err(err(format!(
            "{} bytes are not a whole number of {id_width}-byte word ids",
            src.len()
        )));
    }
    let cells = src.len() / id_width;
    if cells as u64 * 8 != u64::from(md.offsets_length) {
        return Err(err(format!(
            "{cells} word ids, the metadata says {} bytes of offsets",
            md.offsets_length
        )));
    }
    let mut words = Vec::with_capacity(cells);
    let mut total = 0u64;
    for id in src.chunks_exact(id_width).map(be_uint) {
        let word = usize::try_from(id)
            .ok()
            .and_then(|i| dict.get(i))
            .ok_or_else(|| {
                err(format!(
                    "word id {id} is past the dictionary's {} strings",
                    dict.len()
                ))
            })?;
        total += word.len() as u64;
        words.push(word);
    }
    if total != u64::from(md.original_length) {
        return Err(err(format!(
            "the cells hold {total} bytes, the metadata says {}",
            md.original_length
        )));
    }
    unfold_strings(
        NAME,
        cx,
        &metadata[used as usize..],
        words.into_iter().map(|w| (1, w.as_slice())),
        total,
        cells as u64,
    )
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use proptest::prelude::*;

    use super::*;
    use crate::Pipeline;
    use tiledb_codec_format::{
        Compressor, CompressorOptions, Datatype, DictionaryWordId, FilterOptions, FilterType,
    };

    fn dictionary() -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::Dictionary,
            filter_options: FilterOptions::Compressor(tiledb_codec_format::table!(
                CompressorOptions {
                    compressor_type: Compressor::DictionaryEncoding,
                    compression_level: -1,
                    reinterpret_datatype: None,
                }
            )),
        })
        .with_sizes()
    }

    fn offsets_of(cells: &[&[u8]]) -> Vec<u64> {
        let mut at = 0u64;
        cells
            .iter()
            .map(|c| {
                let o = at;
                at += c.len() as u64;
                o
            })
            .collect()
    }

    fn round_trip(dt: Datatype, version: u32, cells: &[&[u8]]) -> (Vec<u8>, Vec<u8>) {
        let data = cells.concat();
        let offsets = offsets_of(cells);
        let out = forward_var_strings(Parts::chunk(&data), &offsets).unwrap();
        let (md, filtered) = (out.metadata_bytes(), out.data_bytes());
        let p = Pipeline::new(&[dictionary()], dt, 1, version).unwrap();
        let place = RefCell::new(Vec::new());
        assert_eq!(p.reverse_chunk(&md, &filtered, Some(&place)).unwrap(), data);
        assert_eq!(place.into_inner(), offsets);
        (md, filtered)
    }

    #[test]
    fn the_spec_example() {
        let cells: Vec<&[u8]> = vec![
            b"HG543232",
            b"HG543232",
            b"HG543232",
            b"HG54",
            b"HG54",
            b"A",
            b"HG543232",
            b"HG54",
        ];
        let (md, filtered) = round_trip(Datatype::StringAscii, 13, &cells);
        assert_eq!(filtered, [0, 0, 0, 1, 1, 2, 0, 1]);
        let mut want = Vec::new();
        for v in [0u32, 1, 45, 8, 64] {
            want.extend_from_slice(&v.to_le_bytes());
        }
        want.extend_from_slice(&[1, 1]);
        want.extend_from_slice(&16u32.to_le_bytes());
        want.extend_from_slice(b"\x08HG543232\x04HG54\x01A");
        assert_eq!(md, want);
    }

    #[test]
    fn ids_are_as_wide_as_the_cell_count_needs() {
        // 256 cells of two strings: ids of 2 bytes, big-endian.
        let cells: Vec<&[u8]> = (0..256)
            .map(|i| if i % 2 == 0 { &b"x"[..] } else { b"" })
            .collect();
        let (md, filtered) = round_trip(Datatype::StringUtf8, 17, &cells);
        assert_eq!(&md[20..22], &[2, 1]);
        assert_eq!(&filtered[..4], &[0, 0, 0, 1]);
        let (id, _) = decode::<DictionaryWordId>(&filtered[2..], 0, (2,)).unwrap();
        assert_eq!(id.id_u16, Some(1));
        // A 70000-byte cell: string lengths of 4 bytes.
        let long = vec![b'L'; 70000];
        let (md, _) = round_trip(Datatype::StringUtf8, 17, &[&long, b"s"]);
        assert_eq!(&md[20..22], &[1, 4]);
        assert_eq!(&md[22..26], &(4 + 70000 + 4 + 1u32).to_le_bytes());
        assert_eq!(&md[26..30], &[0, 1, 0x11, 0x70]);
    }

    #[test]
    fn only_folded_strings() {
        let p = Pipeline::new(&[dictionary()], Datatype::StringAscii, 1, 22).unwrap();
        assert!(p.forward_chunk(b"abc").is_err());
        let out = forward_var_strings(Parts::chunk(b"ab"), &[0, 1]).unwrap();
        let (md, data) = (out.metadata_bytes(), out.data_bytes());
        assert!(p.reverse_chunk(&md, &data, None).is_err());
        let p = Pipeline::new(&[dictionary()], Datatype::Int32, 4, 22).unwrap();
        let place = RefCell::new(Vec::new());
        assert!(p.reverse_chunk(&md, &data, Some(&place)).is_err());
        // A word id past the dictionary.
        let p = Pipeline::new(&[dictionary()], Datatype::StringAscii, 1, 22).unwrap();
        assert!(p.reverse_chunk(&md, &[0, 2], Some(&place)).is_err());
    }

    #[test]
    fn forward_takes_the_offsets_from_the_context() {
        let offsets = RefCell::new(vec![0, 1, 2]);
        let cx = FilterContext {
            var_offsets: Some(&offsets),
            ..FilterContext::new(Datatype::StringUtf8, 1, 17)
        };
        let out = Dictionary.forward(&cx, Parts::chunk(b"aba")).unwrap();
        assert_eq!(out.data_bytes(), [0, 1, 0]);
        assert_eq!(
            out,
            forward_var_strings(Parts::chunk(b"aba"), &[0, 1, 2]).unwrap()
        );
        // UTF-8 before version 17: not folded, so refused.
        let old = FilterContext { version: 16, ..cx };
        assert!(Dictionary.forward(&old, Parts::chunk(b"aba")).is_err());
    }

    proptest! {
        #[test]
        fn identity(
            cells in prop::collection::vec(
                prop::collection::vec(prop::sample::select(b"ab\xc3\xa9".to_vec()), 0..6),
                1..600,
            ),
            utf8 in any::<bool>(),
            version in 13u32..=22,
        ) {
            let dt = if utf8 && tiledb_codec_format::version::has_utf8_folded_offsets(version) { Datatype::StringUtf8 } else { Datatype::StringAscii };
            let cells: Vec<&[u8]> = cells.iter().map(Vec::as_slice).collect();
            round_trip(dt, version, &cells);
        }
    }
}
