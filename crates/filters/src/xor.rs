//! XOR (format_spec/filters/xor.md; tiledb/sm/filter/xor_filter.cc).
//!
//! The filter sees its input as integers of the input datatype's size (1,
//! 2, 4 or 8 bytes; every TileDB datatype has one of these) and replaces,
//! in each data part on its own, every element but the first by its XOR
//! with the element before it. Its output datatype is the signed integer of
//! that size (INT8, INT16, INT32, INT64), which is what the next filter
//! sees. The input metadata is left alone.
//!
//! The spec page says that input and output layouts are identical; the
//! engine also writes chunk metadata, the layout of the shuffle filters
//! ([`ShuffleChunkMetadata`]): the number of data parts and the length of
//! each.
//!
//! A part whose length is not a whole number of elements makes the engine
//! fail an assertion; here its trailing bytes are copied unchanged.

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{decode, encode, Datatype, Filter, ShuffleChunkMetadata};

/// The codec of an XOR filter.
pub fn codec(_filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    Ok(Box::new(Xor))
}

/// The XOR filter.
#[derive(Debug, Clone, Copy)]
pub struct Xor;

const NAME: &str = "XOR";

/// The element size the filter works with for `dt`.
fn width(dt: Datatype) -> Result<usize, FilterError> {
    match dt.size() {
        n @ (1 | 2 | 4 | 8) => Ok(n as usize),
        n => Err(FilterError::new(
            NAME,
            format!("{} values of {n} bytes are not integers", dt.name()),
        )),
    }
}

fn load(b: &[u8]) -> u64 {
    let mut x = [0u8; 8];
    x[..b.len()].copy_from_slice(b);
    u64::from_le_bytes(x)
}

fn store(v: u64, w: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(&v.to_le_bytes()[..w]);
}

/// XORs each element of `part` with the one before it.
fn xor_part(w: usize, part: &[u8], out: &mut Vec<u8>) {
    let mut prev = 0u64;
    let whole = part.len() / w * w;
    for e in part[..whole].chunks_exact(w) {
        let v = load(e);
        store(v ^ prev, w, out);
        prev = v;
    }
    out.extend_from_slice(&part[whole..]);
}

/// The inverse of [`xor_part`].
fn unxor_part(w: usize, part: &[u8], out: &mut Vec<u8>) {
    let mut prev = 0u64;
    let whole = part.len() / w * w;
    for e in part[..whole].chunks_exact(w) {
        prev ^= load(e);
        store(prev, w, out);
    }
    out.extend_from_slice(&part[whole..]);
}

impl FilterCodec for Xor {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_datatype(&self, input: Datatype) -> Datatype {
        match input.size() {
            1 => Datatype::Int8,
            2 => Datatype::Int16,
            4 => Datatype::Int32,
            8 => Datatype::Int64,
            _ => input,
        }
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let w = width(cx.datatype)?;
        let md = tiledb_codec_format::table!(ShuffleChunkMetadata {})
            .with_outside_sizes(&input.data)
            .map_err(super::too_large(NAME))?;
        let mut out = Vec::with_capacity(input.data.iter().map(Vec::len).sum());
        for p in &input.data {
            xor_part(w, p, &mut out);
        }
        let mut metadata = vec![encode(&md.with_sizes())?];
        metadata.extend(super::engine_view(input.metadata));
        Ok(Parts {
            metadata,
            data: vec![out],
        })
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        let w = width(cx.datatype)?;
        let (md, used) = decode::<ShuffleChunkMetadata>(metadata, 0, ())
            .map_err(|e| FilterError::new(NAME, format!("chunk metadata: {e}")))?;
        let mut out = Vec::with_capacity(data.len());
        let mut pos = 0usize;
        for (i, len) in md.part_lengths.iter().enumerate() {
            let len = *len as usize;
            let Some(part) = data.get(pos..pos + len) else {
                return Err(FilterError::new(
                    NAME,
                    format!(
                        "part {i} of {len} bytes at {pos} runs past the chunk's {} bytes",
                        data.len()
                    ),
                ));
            };
            unxor_part(w, part, &mut out);
            pos += len;
        }
        Ok(Reversed {
            metadata: metadata[used as usize..].to_vec(),
            data: out,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Pipeline;
    use proptest::prelude::*;
    use tiledb_codec_format::{FilterOptions, FilterType, Tile};

    fn xor_filter() -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::Xor,
            filter_options: FilterOptions::NoOptions,
        })
        .with_sizes()
    }

    fn cx(datatype: Datatype) -> FilterContext<'static> {
        FilterContext::new(datatype, datatype.size(), 22)
    }

    fn round_trip(filters: &[Filter], dt: Datatype, data: &[u8]) -> Vec<u8> {
        let p = Pipeline::new(filters, dt, dt.size(), 22).unwrap();
        let tile = p.forward_tile(data).unwrap();
        let (tile, _) = decode::<Tile>(&tile, 0, ()).unwrap();
        let mut out = Vec::new();
        for c in &tile.chunks {
            out.extend(
                p.reverse_chunk(&c.metadata, &c.filtered_data, None)
                    .unwrap(),
            );
        }
        out
    }

    #[test]
    fn xor_of_three_i16() {
        let data: Vec<u8> = [0x0102u16, 0x0304, 0x0300]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let out = Xor
            .forward(&cx(Datatype::Uint16), Parts::chunk(&data))
            .unwrap();
        // 0x0102, 0x0102 ^ 0x0304 = 0x0206, 0x0304 ^ 0x0300 = 0x0004.
        assert_eq!(out.data, vec![vec![0x02, 0x01, 0x06, 0x02, 0x04, 0x00]]);
        assert_eq!(out.metadata, vec![vec![1, 0, 0, 0, 6, 0, 0, 0]]);
        let r = Xor
            .reverse(&cx(Datatype::Uint16), &out.metadata[0], &out.data[0])
            .unwrap();
        assert_eq!(r.data, data);
    }

    #[test]
    fn output_datatype_is_the_signed_integer_of_the_same_size() {
        assert_eq!(Xor.output_datatype(Datatype::Float32), Datatype::Int32);
        assert_eq!(Xor.output_datatype(Datatype::Float64), Datatype::Int64);
        assert_eq!(Xor.output_datatype(Datatype::Uint16), Datatype::Int16);
        assert_eq!(Xor.output_datatype(Datatype::StringAscii), Datatype::Int8);
        assert_eq!(Xor.output_datatype(Datatype::DatetimeMs), Datatype::Int64);
    }

    #[test]
    fn each_part_starts_afresh() {
        let input = Parts {
            metadata: vec![vec![7]],
            data: vec![vec![1, 3], vec![5, 5]],
        };
        let out = Xor.forward(&cx(Datatype::Int8), input).unwrap();
        assert_eq!(out.data, vec![vec![1, 2, 5, 0]]);
        assert_eq!(
            out.metadata,
            vec![vec![2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0], vec![7]]
        );
        let r = Xor
            .reverse(&cx(Datatype::Int8), &out.metadata_bytes(), &out.data[0])
            .unwrap();
        assert_eq!(r.data, vec![1, 3, 5, 5]);
        assert_eq!(r.metadata, vec![7]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn xor_round_trips(
            dt in prop::sample::select(Datatype::ALL.to_vec()),
            cells in 0usize..20_000,
            seed in any::<u64>(),
        ) {
            let len = cells * dt.size() as usize;
            let mut s = seed;
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (s >> 59) as u8
                })
                .collect();
            prop_assert_eq!(round_trip(&[xor_filter()], dt, &data), data);
        }

        #[test]
        fn odd_parts_round_trip(
            parts in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..50), 0..4),
            dt in prop::sample::select(vec![Datatype::Int8, Datatype::Uint16, Datatype::Float32, Datatype::Int64]),
        ) {
            let out = Xor.forward(&cx(dt), Parts { metadata: Vec::new(), data: parts.clone() }).unwrap();
            let r = Xor.reverse(&cx(dt), &out.metadata_bytes(), &out.data_bytes()).unwrap();
            prop_assert_eq!(r.data, parts.concat());
            prop_assert!(r.metadata.is_empty());
        }
    }
}
