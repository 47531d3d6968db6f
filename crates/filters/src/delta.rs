//! DELTA (filter type 19, from version 19; format_spec/filters/delta.md,
//! spec/filters_delta.toml; tiledb/sm/compressors/delta_compressor.cc).
//!
//! DELTA is a compression filter: a chunk's metadata is a
//! `CompressionChunkMetadata` and each metadata and data part is encoded on
//! its own as a [`DeltaPart`]: the number of values (u64), the first value,
//! then each value minus the one before it, all `input_t` little-endian.
//! `input_t` is the filter's reinterpret datatype when it is set and not
//! ANY (the option is stored from version 19), else the filter's input
//! datatype; the filter's output datatype is that `input_t`. Only the width
//! of `input_t` matters: the engine's deltas are computed in 64 bits and
//! stored truncated, which is wrapping arithmetic in the type's width.
//! Floating-point types are refused.

use super::rle::{frame_forward, frame_reverse};
use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::{decode_all, Datatype, DeltaPart, DeltaPartRef, Filter, FilterOptions};

const NAME: &str = "DELTA";

/// The integer type the engine's delta compressors use for a datatype
/// (`Delta::compress`, `DoubleDelta::compress`): (bytes, signed). Text,
/// ANY, BLOB, the geometries and BOOL are bytes (UTF-16/32 and UCS-2/4
/// too), unsigned but for CHAR (a C `char`, signed); integers, dates and
/// times are their native type; floats are refused.
pub fn integer_type(name: &'static str, dt: Datatype) -> Result<(usize, bool), FilterError> {
    use tiledb_codec_format::DatatypeClass as C;
    Ok(match dt.class() {
        C::String if dt == Datatype::Char => (1, true),
        C::String | C::Bytes | C::Any | C::Bool => (1, false),
        C::Signed | C::Unsigned | C::Datetime | C::Time => (dt.size() as usize, dt.native_signed()),
        _ => {
            return Err(FilterError::new(
                name,
                format!("{} data cannot be delta-encoded", dt.name()),
            ))
        }
    })
}

/// The reinterpret datatype of a DELTA or DOUBLE_DELTA filter: `None` when
/// it is absent (older versions) or ANY.
pub fn reinterpret_of(
    name: &'static str,
    filter: &Filter,
) -> Result<Option<Datatype>, FilterError> {
    let FilterOptions::Compressor(o) = &filter.filter_options else {
        return Ok(None);
    };
    match o.reinterpret_datatype {
        None => Ok(None),
        Some(v) => match v {
            Datatype::Any => Ok(None),
            Datatype::Unknown(code) => Err(FilterError::new(
                name,
                format!("unknown reinterpret datatype {code}"),
            )),
            dt => Ok(Some(dt)),
        },
    }
}

/// The codec for a DELTA filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    Ok(Box::new(Delta {
        reinterpret: reinterpret_of(NAME, filter)?,
    }))
}

/// DELTA both ways.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Delta {
    /// The reinterpret datatype, when set (and not ANY).
    pub reinterpret: Option<Datatype>,
}

impl Delta {
    fn width(&self, cx: &FilterContext) -> Result<usize, FilterError> {
        integer_type(NAME, self.reinterpret.unwrap_or(cx.datatype)).map(|t| t.0)
    }
}

impl FilterCodec for Delta {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_datatype(&self, input: Datatype) -> Datatype {
        self.reinterpret.unwrap_or(input)
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let w = self.width(cx)?;
        frame_forward(NAME, &input.metadata, &input.data, |p| encode(p, w))
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        let w = self.width(cx)?;
        frame_reverse(NAME, cx, metadata, data, |src, original, dest| {
            dest.extend_from_slice(&decode(src, w, original)?);
            Ok(())
        })
    }
}

/// Reads a little-endian unsigned integer of `w` bytes.
pub(super) fn le(bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(b)
}

/// The mask of a `w`-byte integer.
pub(super) fn mask(w: usize) -> u64 {
    if w >= 8 {
        u64::MAX
    } else {
        (1u64 << (8 * w)) - 1
    }
}

/// Encodes one part of `w`-byte values as a [`DeltaPart`]. An empty part
/// encodes to nothing (the engine never encodes one: it asserts).
pub fn encode(part: &[u8], w: usize) -> Result<Vec<u8>, FilterError> {
    if part.is_empty() {
        return Ok(Vec::new());
    }
    if !part.len().is_multiple_of(w) {
        return Err(FilterError::new(
            NAME,
            format!(
                "{} bytes are not a whole number of {w}-byte values",
                part.len()
            ),
        ));
    }
    // The generated head states the values' count; they follow.
    let mut out = DeltaPart::head(part.len() / w)?;
    out.reserve_exact(part.len());
    let mut prev = 0u64;
    for (i, v) in part.chunks_exact(w).map(le).enumerate() {
        let d = if i == 0 { v } else { v.wrapping_sub(prev) };
        out.extend_from_slice(&d.to_le_bytes()[..w]);
        prev = v;
    }
    Ok(out)
}

/// Decodes a [`DeltaPart`] of `w`-byte values into exactly `original` bytes.
pub fn decode(src: &[u8], w: usize, original: usize) -> Result<Vec<u8>, FilterError> {
    if src.is_empty() && original == 0 {
        return Ok(Vec::new());
    }
    // Read in place: the values are borrowed, not copied into a
    // `DeltaPart` (which the error path still decodes, for its message).
    let view = DeltaPartRef::read(src);
    let values = view.and_then(|v| v.values(src, w as u64));
    let Some((view, values)) = view.zip(values).filter(|(_, values)| {
        DeltaPart::OFFSET_VALUES.checked_add(values.len()) == Some(src.len())
    }) else {
        let e = decode_all::<DeltaPart>(src, 0, (w as u64,))
            .map_or_else(|e| e.to_string(), |_| "trailing bytes".into());
        return Err(FilterError::new(NAME, format!("part: {e}")));
    };
    if values.len() != original {
        return Err(FilterError::new(
            NAME,
            format!(
                "{} values of {w} bytes, the metadata says {original} bytes",
                view.n()
            ),
        ));
    }
    let m = mask(w);
    let mut out = Vec::with_capacity(original);
    let mut prev = 0u64;
    for (i, d) in values.chunks_exact(w).map(le).enumerate() {
        let v = if i == 0 { d } else { prev.wrapping_add(d) & m };
        out.extend_from_slice(&v.to_le_bytes()[..w]);
        prev = v;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::Pipeline;
    use tiledb_codec_format::{Compressor, CompressorOptions, FilterType, Record};

    fn delta(reinterpret: Option<Datatype>) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::Delta,
            filter_options: FilterOptions::Compressor(tiledb_codec_format::table!(
                CompressorOptions {
                    compressor_type: Compressor::Delta,
                    compression_level: -1,
                    reinterpret_datatype: Some(reinterpret.unwrap_or(Datatype::Any)),
                }
            )),
        })
        .with_sizes()
    }

    #[test]
    fn count_first_value_then_wrapping_deltas() {
        let mut data = Vec::new();
        for v in [10i16, 12, 9, i16::MIN] {
            data.extend_from_slice(&v.to_le_bytes());
        }
        let p = Pipeline::new(&[delta(None)], Datatype::Int16, 2, 19).unwrap();
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(md, [0, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0]);
        let mut want = 4u64.to_le_bytes().to_vec();
        for d in [10i16, 2, -3, i16::MIN.wrapping_sub(9)] {
            want.extend_from_slice(&d.to_le_bytes());
        }
        assert_eq!(filtered, want);
        assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), data);
    }

    #[test]
    fn the_reinterpret_datatype_sets_the_width_and_the_output_type() {
        let f = delta(Some(Datatype::Int32));
        let p = Pipeline::new(std::slice::from_ref(&f), Datatype::Uint8, 1, 19).unwrap();
        let data = [1u8, 0, 0, 0, 3, 0, 0, 0];
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(&filtered[8..], &[1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), data);
        assert_eq!(
            codec(&f).unwrap().output_datatype(Datatype::Uint8),
            Datatype::Int32
        );
        assert_eq!(
            codec(&delta(None))
                .unwrap()
                .output_datatype(Datatype::Uint8),
            Datatype::Uint8
        );
        // Not a whole number of reinterpreted values.
        assert!(p.forward_chunk(&[1, 2, 3]).is_err());
    }

    #[test]
    fn floats_are_refused() {
        let p = Pipeline::new(&[delta(None)], Datatype::Float64, 8, 19).unwrap();
        assert!(p.forward_chunk(&[0; 8]).is_err());
        let p = Pipeline::new(&[delta(Some(Datatype::Float32))], Datatype::Int32, 4, 19).unwrap();
        assert!(p.forward_chunk(&[0; 8]).is_err());
        let p = Pipeline::new(&[delta(Some(Datatype::Int64))], Datatype::Float64, 8, 19).unwrap();
        let (md, f) = p.forward_chunk(&1.5f64.to_le_bytes()).unwrap();
        assert_eq!(
            p.reverse_chunk(&md, &f, None).unwrap(),
            1.5f64.to_le_bytes()
        );
    }

    fn integer_types() -> Vec<Datatype> {
        Datatype::ALL
            .iter()
            .copied()
            .filter(|d| integer_type(NAME, *d).is_ok())
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn identity(
            dt in prop::sample::select(integer_types()),
            n in 1u64..3,
            bytes in prop::collection::vec(any::<u8>(), 0..140_000),
            reinterpret in prop::option::of(prop::sample::select(vec![Datatype::Int8, Datatype::Uint16, Datatype::Int64])),
        ) {
            let cell = dt.size() * n;
            let unit = reinterpret.map_or(1, |r| r.size()).max(cell);
            let len = bytes.len() as u64 / unit * unit;
            let data = &bytes[..len as usize];
            let p = Pipeline::new(&[delta(reinterpret)], dt, cell, 19).unwrap();
            let size = crate::pipeline::chunk_size(data.len() as u64, cell) as usize;
            // A chunk holds whole cells; keep whole reinterpreted values too.
            let size = (size as u64 / unit * unit).max(unit) as usize;
            for chunk in data.chunks(size) {
                let (md, filtered) = p.forward_chunk(chunk).unwrap();
                prop_assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), chunk);
            }
        }
    }
}
