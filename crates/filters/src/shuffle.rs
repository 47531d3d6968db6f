//! BYTESHUFFLE and BITSHUFFLE (format_spec/tile.md#byteshuffle-filter,
//! #bitshuffle-filter; tiledb/sm/filter/byteshuffle_filter.cc and
//! bitshuffle_filter.cc, which call blosc's `shuffle` and the bitshuffle
//! library's `bshuf_trans_bit_elem`, through blosc2 since TileDB 2.29).
//!
//! Both filters leave the input metadata alone and shuffle each data part on
//! its own, with the size of their input datatype as the element size; their
//! chunk metadata ([`ShuffleChunkMetadata`]) lists the parts' lengths, and
//! their output data is the shuffled parts, one after another.
//!
//! * Byteshuffle (blosc's shuffle): byte `j` of element `i` goes to
//!   `j * n + i`, for the `n` whole elements of the part; bytes after the
//!   last whole element are copied.
//! * Bitshuffle: each input part whose length is not a multiple of 8 is
//!   first split in two, the largest multiple of 8 (possibly empty) and the
//!   rest; each of those parts is one metadata entry. A part whose length is
//!   not a multiple of 8 and of the element size is copied. Otherwise it is
//!   shuffled in blocks of 8192 bytes (the bitshuffle library's default
//!   block size, which the engine keeps); in a block of `n` elements, the
//!   first `m = n - n % 8` are bit-transposed and the rest copied. The
//!   transpose writes, for each byte `j` of an element and each bit `b` of
//!   that byte, a row of `m` bits: bit `i` of the row (bit `i % 8` of its
//!   byte `i / 8`) is bit `b` of byte `j` of element `i`; the rows follow
//!   one another in the order `(j, b)`.

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{decode, encode, Filter, FilterType, ShuffleChunkMetadata};

/// The bitshuffle library's target block size, in bytes
/// (`BSHUF_TARGET_BLOCK_SIZE_B`), which the engine applies to every part.
pub const BITSHUFFLE_BLOCK_BYTES: usize = 8192;

/// The codec of a BYTESHUFFLE or BITSHUFFLE filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    match filter.filter_type.known() {
        Some(FilterType::Byteshuffle) => Ok(Box::new(Shuffle { bits: false })),
        Some(FilterType::Bitshuffle) => Ok(Box::new(Shuffle { bits: true })),
        other => Err(FilterError::new(
            other.map_or("filter", |t| t.name()),
            "not a shuffle filter",
        )),
    }
}

/// A shuffle filter: bytes (`bits == false`) or bits.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Shuffle {
    /// BITSHUFFLE (else BYTESHUFFLE).
    pub bits: bool,
}

/// Blosc's byte shuffle of one part with elements of `ts` bytes.
pub fn byteshuffle(ts: usize, input: &[u8], out: &mut Vec<u8>) {
    let ts = ts.max(1);
    let n = input.len() / ts;
    let start = out.len();
    out.resize(start + input.len(), 0);
    let dest = &mut out[start..];
    match ts {
        2 => shuffle_planes::<2>(&input[..n * 2], &mut dest[..n * 2]),
        4 => shuffle_planes::<4>(&input[..n * 4], &mut dest[..n * 4]),
        8 => shuffle_planes::<8>(&input[..n * 8], &mut dest[..n * 8]),
        _ => {
            for (i, elem) in input.chunks_exact(ts).enumerate() {
                for (j, b) in elem.iter().enumerate() {
                    dest[j * n + i] = *b;
                }
            }
        }
    }
    dest[n * ts..].copy_from_slice(&input[n * ts..]);
}

/// The inverse of [`byteshuffle`].
pub fn byteunshuffle(ts: usize, input: &[u8], out: &mut Vec<u8>) {
    let ts = ts.max(1);
    let n = input.len() / ts;
    let start = out.len();
    out.resize(start + input.len(), 0);
    let dest = &mut out[start..];
    match ts {
        2 => unshuffle_planes::<2>(&input[..n * 2], &mut dest[..n * 2]),
        4 => unshuffle_planes::<4>(&input[..n * 4], &mut dest[..n * 4]),
        8 => unshuffle_planes::<8>(&input[..n * 8], &mut dest[..n * 8]),
        _ => {
            for (i, elem) in dest[..n * ts].chunks_exact_mut(ts).enumerate() {
                for (j, b) in elem.iter_mut().enumerate() {
                    *b = input[j * n + i];
                }
            }
        }
    }
    dest[n * ts..].copy_from_slice(&input[n * ts..]);
}

/// Byte `j` of every `T`-byte element of `input` into plane `j` of `dest`
/// (the common sizes, with the loop bounds known to the compiler).
fn shuffle_planes<const T: usize>(input: &[u8], dest: &mut [u8]) {
    let n = input.len() / T;
    let mut planes: Vec<&mut [u8]> = dest.chunks_exact_mut(n.max(1)).take(T).collect();
    if n == 0 {
        return;
    }
    for (i, elem) in input.chunks_exact(T).enumerate() {
        for (plane, b) in planes.iter_mut().zip(elem) {
            plane[i] = *b;
        }
    }
}

/// The inverse of [`shuffle_planes`].
fn unshuffle_planes<const T: usize>(input: &[u8], dest: &mut [u8]) {
    let n = input.len() / T;
    if n == 0 {
        return;
    }
    let planes: [&[u8]; T] = std::array::from_fn(|j| &input[j * n..(j + 1) * n]);
    for (i, elem) in dest.chunks_exact_mut(T).enumerate() {
        let mut v = [0u8; T];
        for (b, plane) in v.iter_mut().zip(&planes) {
            *b = plane[i];
        }
        elem.copy_from_slice(&v);
    }
}

/// Transposes an 8x8 bit matrix: bit `c` of byte `r` becomes bit `r` of
/// byte `c`.
fn transpose8(x: [u8; 8]) -> [u8; 8] {
    let mut y = [0u8; 8];
    for (r, byte) in x.iter().enumerate() {
        for (c, out) in y.iter_mut().enumerate() {
            *out |= ((byte >> c) & 1) << r;
        }
    }
    y
}

/// The bit transpose of `m` elements of `ts` bytes (`m` a multiple of 8):
/// `input` and `dest` hold `m * ts` bytes.
fn trans_bit_elem(ts: usize, input: &[u8], dest: &mut [u8]) {
    let m = input.len() / ts;
    let row = m / 8; // bytes in one bit row
    for j in 0..ts {
        for k in 0..row {
            let mut x = [0u8; 8];
            for (r, v) in x.iter_mut().enumerate() {
                *v = input[(8 * k + r) * ts + j];
            }
            for (b, v) in transpose8(x).into_iter().enumerate() {
                dest[(j * 8 + b) * row + k] = v;
            }
        }
    }
}

/// The inverse of [`trans_bit_elem`].
fn untrans_bit_elem(ts: usize, input: &[u8], dest: &mut [u8]) {
    let m = input.len() / ts;
    let row = m / 8;
    for j in 0..ts {
        for k in 0..row {
            let mut x = [0u8; 8];
            for (b, v) in x.iter_mut().enumerate() {
                *v = input[(j * 8 + b) * row + k];
            }
            for (r, v) in transpose8(x).into_iter().enumerate() {
                dest[(8 * k + r) * ts + j] = v;
            }
        }
    }
}

/// Bitshuffles (or, with `invert`, unshuffles) one part the way the engine
/// does: blocks of 8192 bytes, whole groups of 8 elements transposed, the
/// rest of a block copied. The caller has checked that the part's length is
/// a multiple of 8 and of `ts`.
fn bitshuffle_blocks(ts: usize, input: &[u8], out: &mut Vec<u8>, invert: bool) {
    let ts = ts.max(1);
    let start = out.len();
    out.resize(start + input.len(), 0);
    let dest = &mut out[start..];
    for (src, dst) in input
        .chunks(BITSHUFFLE_BLOCK_BYTES)
        .zip(dest.chunks_mut(BITSHUFFLE_BLOCK_BYTES))
    {
        let n = src.len() / ts;
        let shuffled = (n - n % 8) * ts;
        if invert {
            untrans_bit_elem(ts, &src[..shuffled], &mut dst[..shuffled]);
        } else {
            trans_bit_elem(ts, &src[..shuffled], &mut dst[..shuffled]);
        }
        dst[shuffled..].copy_from_slice(&src[shuffled..]);
    }
}

/// Whether the engine bitshuffles a part of `len` bytes (otherwise it copies).
fn bitshuffles(len: usize, ts: usize) -> bool {
    len.is_multiple_of(8) && len.is_multiple_of(ts.max(1))
}

/// The bitshuffle of one part as the engine writes it (copied when its
/// length is not a multiple of 8 and of the element size).
pub fn bitshuffle(ts: usize, input: &[u8], out: &mut Vec<u8>) {
    if bitshuffles(input.len(), ts) {
        bitshuffle_blocks(ts, input, out, false);
    } else {
        out.extend_from_slice(input);
    }
}

/// The inverse of [`bitshuffle`].
pub fn bitunshuffle(ts: usize, input: &[u8], out: &mut Vec<u8>) {
    if bitshuffles(input.len(), ts) {
        bitshuffle_blocks(ts, input, out, true);
    } else {
        out.extend_from_slice(input);
    }
}

impl FilterCodec for Shuffle {
    fn name(&self) -> &'static str {
        if self.bits {
            "BITSHUFFLE"
        } else {
            "BYTESHUFFLE"
        }
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let name = self.name();
        let ts = cx.datatype.size() as usize;
        // Bitshuffle's parts: each input part split at its last multiple of 8.
        let parts: Vec<&[u8]> = if self.bits {
            input
                .data
                .iter()
                .flat_map(|p| {
                    let rem = p.len() % 8;
                    let (a, b) = p.split_at(p.len() - rem);
                    if rem == 0 {
                        vec![a]
                    } else {
                        vec![a, b]
                    }
                })
                .collect()
        } else {
            input.data.iter().map(Vec::as_slice).collect()
        };
        let md = tiledb_codec_format::table!(ShuffleChunkMetadata {})
            .with_outside_sizes(&parts)
            .map_err(super::too_large(name))?;
        let mut out = Vec::with_capacity(parts.iter().map(|p| p.len()).sum());
        for p in parts {
            if self.bits {
                bitshuffle(ts, p, &mut out);
            } else {
                byteshuffle(ts, p, &mut out);
            }
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
        let name = self.name();
        let ts = cx.datatype.size() as usize;
        let (md, used) = decode::<ShuffleChunkMetadata>(metadata, 0, ())
            .map_err(|e| FilterError::new(name, format!("chunk metadata: {e}")))?;
        let mut out = Vec::with_capacity(data.len());
        let mut pos = 0usize;
        for (i, len) in md.part_lengths.iter().enumerate() {
            let len = *len as usize;
            let Some(part) = data.get(pos..pos + len) else {
                return Err(FilterError::new(
                    name,
                    format!(
                        "part {i} of {len} bytes at {pos} runs past the chunk's {} bytes",
                        data.len()
                    ),
                ));
            };
            if self.bits {
                bitunshuffle(ts, part, &mut out);
            } else {
                byteunshuffle(ts, part, &mut out);
            }
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
    use tiledb_codec_format::{Datatype, FilterOptions, Tile};

    fn filter(kind: FilterType) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: kind,
            filter_options: FilterOptions::NoOptions,
        })
        .with_sizes()
    }

    fn cx(datatype: Datatype) -> FilterContext<'static> {
        FilterContext::new(datatype, datatype.size(), 22)
    }

    /// Runs a whole tile forward with the engine's chunking, then every
    /// chunk backward.
    fn round_trip(filters: &[Filter], dt: Datatype, data: &[u8]) -> Vec<u8> {
        let p = Pipeline::new(filters, dt, dt.size(), 22).unwrap();
        let tile = p.forward_tile(data).unwrap();
        let (tile, _) = decode::<Tile>(&tile, 0, ()).unwrap();
        let mut out = Vec::new();
        for c in &tile.chunks {
            let d = p
                .reverse_chunk(&c.metadata, &c.filtered_data, None)
                .unwrap();
            assert_eq!(d.len(), c.header.original_length as usize);
            out.extend(d);
        }
        out
    }

    /// The bit transpose by its definition, bit by bit.
    fn naive_bitshuffle(ts: usize, input: &[u8]) -> Vec<u8> {
        let mut out = input.to_vec();
        for (src, dst) in input.chunks(8192).zip(out.chunks_mut(8192)) {
            let n = src.len() / ts;
            let m = n - n % 8;
            dst[..m * ts].fill(0);
            for i in 0..m {
                for j in 0..ts {
                    for b in 0..8 {
                        let bit = (src[i * ts + j] >> b) & 1;
                        let pos = (j * 8 + b) * m + i;
                        dst[pos / 8] |= bit << (pos % 8);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn byteshuffle_of_two_u16() {
        let c = Shuffle { bits: false };
        let out = c
            .forward(
                &cx(Datatype::Uint16),
                Parts::chunk(&[0x02, 0x01, 0x04, 0x03]),
            )
            .unwrap();
        // Low bytes first, then high bytes.
        assert_eq!(out.data, vec![vec![0x02, 0x04, 0x01, 0x03]]);
        // One part of 4 bytes.
        assert_eq!(out.metadata, vec![vec![1, 0, 0, 0, 4, 0, 0, 0]]);
        let r = c
            .reverse(&cx(Datatype::Uint16), &out.metadata[0], &out.data[0])
            .unwrap();
        assert_eq!(r.data, vec![0x02, 0x01, 0x04, 0x03]);
        assert!(r.metadata.is_empty());
    }

    #[test]
    fn byteshuffle_copies_a_trailing_partial_element() {
        let mut out = Vec::new();
        byteshuffle(4, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], &mut out);
        assert_eq!(out, [1, 5, 2, 6, 3, 7, 4, 8, 9, 10]);
    }

    #[test]
    fn bitshuffle_of_eight_bytes_is_a_bit_transpose() {
        // Eight u8 elements: row b holds bit b of every element.
        let input = [0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80];
        let mut out = Vec::new();
        bitshuffle(1, &input, &mut out);
        assert_eq!(out, [0x01, 0, 0, 0, 0, 0, 0, 0x80]);
        let input = [0xff, 0, 0, 0, 0, 0, 0, 0];
        out.clear();
        bitshuffle(1, &input, &mut out);
        assert_eq!(out, [1, 1, 1, 1, 1, 1, 1, 1]);
        // Eight u16 values 1: bit 0 of byte 0 of every element is set.
        let input: Vec<u8> = (0..8).flat_map(|_| 1u16.to_le_bytes()).collect();
        out.clear();
        bitshuffle(2, &input, &mut out);
        let mut want = vec![0u8; 16];
        want[0] = 0xff;
        assert_eq!(out, want);
    }

    #[test]
    fn bitshuffle_metadata_splits_parts_at_a_multiple_of_8() {
        let c = Shuffle { bits: true };
        let data: Vec<u8> = (0..13).collect();
        let out = c
            .forward(&cx(Datatype::Uint8), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out.metadata, vec![vec![2, 0, 0, 0, 8, 0, 0, 0, 5, 0, 0, 0]]);
        // The 5-byte tail is copied.
        assert_eq!(&out.data[0][8..], &data[8..]);
        let small = c
            .forward(&cx(Datatype::Uint8), Parts::chunk(&[7, 8, 9]))
            .unwrap();
        assert_eq!(
            small.metadata,
            vec![vec![2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0]]
        );
        assert_eq!(small.data, vec![vec![7, 8, 9]]);
    }

    #[test]
    fn bitshuffle_handles_blocks_and_leftover_elements() {
        // u64: 8192-byte blocks of 1024 elements; the last block of 1032
        // bytes holds 129 elements: 128 transposed, 1 copied.
        let data: Vec<u8> = (0..(8192 + 1032u32))
            .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
            .collect();
        let mut out = Vec::new();
        bitshuffle(8, &data, &mut out);
        assert_eq!(out, naive_bitshuffle(8, &data));
        assert_eq!(&out[out.len() - 8..], &data[data.len() - 8..]);
        let mut back = Vec::new();
        bitunshuffle(8, &out, &mut back);
        assert_eq!(back, data);
    }

    #[test]
    fn input_metadata_follows_own_metadata() {
        let c = Shuffle { bits: false };
        let input = Parts {
            metadata: vec![vec![9, 9]],
            data: vec![vec![1, 2], vec![3, 4, 5, 6]],
        };
        let out = c.forward(&cx(Datatype::Int16), input).unwrap();
        assert_eq!(
            out.metadata,
            vec![vec![2, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0], vec![9, 9]]
        );
        assert_eq!(out.data, vec![vec![1, 2, 3, 5, 4, 6]]);
        let r = c
            .reverse(&cx(Datatype::Int16), &out.metadata_bytes(), &out.data[0])
            .unwrap();
        assert_eq!(r.metadata, vec![9, 9]);
        assert_eq!(r.data, vec![1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn reverse_rejects_parts_past_the_data() {
        let c = Shuffle { bits: true };
        let err = c
            .reverse(&cx(Datatype::Uint8), &[1, 0, 0, 0, 9, 0, 0, 0], &[0; 8])
            .unwrap_err();
        assert_eq!(err.filter, "BITSHUFFLE");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn bitshuffle_matches_its_definition(ts in prop::sample::select(vec![1usize, 2, 4, 8]), groups in 0usize..2200) {
            let len = groups * 8 * ts;
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + i / 13) as u8).collect();
            let mut out = Vec::new();
            bitshuffle(ts, &data, &mut out);
            prop_assert_eq!(&out, &naive_bitshuffle(ts, &data));
        }

        #[test]
        fn shuffles_round_trip(
            dt in prop::sample::select(Datatype::ALL.to_vec()),
            kind in prop::sample::select(vec![FilterType::Byteshuffle, FilterType::Bitshuffle]),
            cells in 0usize..20_000,
            seed in any::<u64>(),
        ) {
            let len = cells * dt.size() as usize;
            let mut s = seed;
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (s >> 56) as u8
                })
                .collect();
            prop_assert_eq!(round_trip(&[filter(kind)], dt, &data), data);
        }

        #[test]
        fn odd_parts_round_trip(
            kind in prop::sample::select(vec![FilterType::Byteshuffle, FilterType::Bitshuffle]),
            parts in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..100), 0..4),
            ts in prop::sample::select(vec![Datatype::Uint8, Datatype::Int16, Datatype::Float32, Datatype::Uint64]),
        ) {
            let c = Shuffle { bits: kind == FilterType::Bitshuffle };
            let out = c.forward(&cx(ts), Parts { metadata: vec![vec![1, 2, 3]], data: parts.clone() }).unwrap();
            let r = c.reverse(&cx(ts), &out.metadata_bytes(), &out.data_bytes()).unwrap();
            prop_assert_eq!(r.data, parts.concat());
            prop_assert_eq!(r.metadata, vec![1, 2, 3]);
        }
    }
}
