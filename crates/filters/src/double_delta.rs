//! DOUBLE_DELTA (filter type 6; format_spec/filters/double_delta.md,
//! spec/filters_double_delta.toml; tiledb/sm/compressors/dd_compressor.cc).
//!
//! DOUBLE_DELTA is a compression filter: a chunk's metadata is a
//! `CompressionChunkMetadata` and each metadata and data part is encoded on
//! its own: a [`DoubleDeltaHeader`] (`bitsize` u8, `n` u64), then
//!
//! * when `bitsize >= 8 * sizeof(input_t) - 1` (no savings), the input as is;
//! * else the first value, the second value (little-endian `input_t`, each
//!   only when `n` reaches it), and for every further value a sign bit (1:
//!   negative) then `bitsize` bits of the absolute double delta
//!   `(in_i - in_{i-1}) - (in_{i-1} - in_{i-2})`, most significant bit
//!   first, packed from the most significant bit of u64 words that are
//!   written little-endian; the last word is padded with zero bits.
//!
//! `bitsize` is 0 for up to two values, else the bit length (at least 1)
//! of the largest absolute double delta; the engine from TileDB 2.29 also
//! counts the first delta `in_1 - in_0` in that maximum. Fragments of
//! format versions up to 21 were only written by older engines, so their
//! tiles get the old rule; version 22 on gets the engine's current rule
//! (TileDB 2.25 to 2.28 also wrote version 22 with the old rule). The
//! version is the fragment's (`FilterContext::tile_version`), which tells
//! the writing engine. Both rules decode the same way. Deltas and double
//! deltas must fit in i64.
//!
//! `input_t` is the reinterpret datatype when it is set and not ANY (the
//! option is stored from version 20), else the filter's input datatype;
//! the filter's output datatype is that `input_t`. Floats are refused.

use super::delta::{integer_type, le, mask, reinterpret_of};
use super::rle::{frame_forward, frame_reverse};
use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::version::has_double_delta_counts_first_delta;
use tiledb_codec_format::{
    decode as decode_table, encode as encode_table, Datatype, DoubleDeltaHeader, Filter,
};

const NAME: &str = "DOUBLE_DELTA";

/// The codec for a DOUBLE_DELTA filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    Ok(Box::new(DoubleDelta {
        reinterpret: reinterpret_of(NAME, filter)?,
    }))
}

/// DOUBLE_DELTA both ways.
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct DoubleDelta {
    /// The reinterpret datatype, when set (and not ANY).
    pub reinterpret: Option<Datatype>,
}

impl DoubleDelta {
    fn int_type(&self, cx: &FilterContext) -> Result<(usize, bool), FilterError> {
        integer_type(NAME, self.reinterpret.unwrap_or(cx.datatype))
    }
}

impl FilterCodec for DoubleDelta {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_datatype(&self, input: Datatype) -> Datatype {
        self.reinterpret.unwrap_or(input)
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let t = self.int_type(cx)?;
        let counts_first_delta = has_double_delta_counts_first_delta(cx.tile_version);
        frame_forward(NAME, &input.metadata, &input.data, |p| {
            encode(p, t, counts_first_delta)
        })
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        let (w, _) = self.int_type(cx)?;
        frame_reverse(NAME, cx, metadata, data, |src, original, dest| {
            dest.extend_from_slice(&decode(src, w, original)?);
            Ok(())
        })
    }
}

/// The engine's `compute_bitsize` over values widened to i128:
/// `counts_first_delta` is the rule of TileDB 2.29 on.
pub fn bitsize(values: &[i128], counts_first_delta: bool) -> Result<u8, FilterError> {
    if values.len() <= 2 {
        return Ok(0);
    }
    let fits = |v: i128| i64::try_from(v).is_ok();
    let mut max = 0u64;
    let mut prev: Option<i128> = None;
    for pair in values.windows(2) {
        let d = pair[1] - pair[0];
        if !fits(d) {
            return Err(FilterError::new(NAME, "a delta exceeds the range of int64"));
        }
        match prev {
            None if counts_first_delta => max = d.unsigned_abs() as u64,
            None => {}
            Some(p) => {
                let dd = d - p;
                if !fits(dd) {
                    return Err(FilterError::new(
                        NAME,
                        "a double delta exceeds the range of int64",
                    ));
                }
                max = max.max(dd.unsigned_abs() as u64);
            }
        }
        prev = Some(d);
    }
    Ok((64 - max.leading_zeros()).max(1) as u8)
}

/// MSB-first bits into u64 words written little-endian.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    word: u64,
    used: u32,
}

impl BitWriter<'_> {
    /// Appends the low `count` bits of `value`, most significant first.
    fn put(&mut self, value: u64, count: u32) {
        let mut left = count;
        while left > 0 {
            let room = 64 - self.used;
            let take = left.min(room);
            let bits = (value >> (left - take)) & low_bits(take);
            self.word |= bits << (room - take);
            self.used += take;
            left -= take;
            if self.used == 64 {
                self.out.extend_from_slice(&self.word.to_le_bytes());
                self.word = 0;
                self.used = 0;
            }
        }
    }

    /// Writes the partial last word, if any.
    fn finish(self) {
        if self.used > 0 {
            self.out.extend_from_slice(&self.word.to_le_bytes());
        }
    }
}

fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// MSB-first bits out of u64 words stored little-endian.
struct BitReader<'a> {
    words: std::slice::ChunksExact<'a, u8>,
    word: u64,
    avail: u32,
}

impl BitReader<'_> {
    /// The next `count` bits (at most 64), most significant first.
    fn get(&mut self, count: u32) -> Result<u64, FilterError> {
        let mut v = 0u64;
        let mut left = count;
        while left > 0 {
            if self.avail == 0 {
                let w = self
                    .words
                    .next()
                    .ok_or_else(|| FilterError::new(NAME, "the packed double deltas end early"))?;
                self.word = u64::from_le_bytes(w.try_into().expect("8 bytes"));
                self.avail = 64;
            }
            let take = left.min(self.avail);
            let bits = (self.word >> (self.avail - take)) & low_bits(take);
            v = if take >= 64 { bits } else { (v << take) | bits };
            self.avail -= take;
            left -= take;
        }
        Ok(v)
    }
}

/// Encodes one part of values of the integer type `(bytes, signed)`
/// (`DoubleDelta::compress`). An empty part encodes to nothing (the engine
/// never encodes one: it asserts).
pub fn encode(
    part: &[u8],
    (w, signed): (usize, bool),
    counts_first_delta: bool,
) -> Result<Vec<u8>, FilterError> {
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
    let shift = 128 - 8 * w as u32;
    let values: Vec<i128> = part
        .chunks_exact(w)
        .map(|c| {
            let u = i128::from(le(c));
            if signed {
                (u << shift) >> shift
            } else {
                u
            }
        })
        .collect();
    let bits = bitsize(&values, counts_first_delta)?;
    let header = tiledb_codec_format::table!(DoubleDeltaHeader { bitsize: bits })
        .with_outside_counts(&values)?;
    let mut out = encode_table(&header)?;
    if u32::from(bits) >= 8 * w as u32 - 1 {
        out.extend_from_slice(part);
        return Ok(out);
    }
    out.extend_from_slice(&part[..w.min(part.len())]);
    if values.len() >= 2 {
        out.extend_from_slice(&part[w..2 * w]);
    }
    let mut bw = BitWriter {
        out: &mut out,
        word: 0,
        used: 0,
    };
    for i in 2..values.len() {
        // In range: `bitsize` checked every double delta.
        let dd = (values[i] - values[i - 1]) - (values[i - 1] - values[i - 2]);
        bw.put(u64::from(dd < 0), 1);
        bw.put(dd.unsigned_abs() as u64, u32::from(bits));
    }
    bw.finish();
    Ok(out)
}

/// Decodes one part of `w`-byte values into exactly `original` bytes
/// (`DoubleDelta::decompress`). Only the width matters: the values are
/// rebuilt in 64-bit wrapping arithmetic and truncated.
pub fn decode(src: &[u8], w: usize, original: usize) -> Result<Vec<u8>, FilterError> {
    let err = |what: String| FilterError::new(NAME, what);
    if src.is_empty() && original == 0 {
        return Ok(Vec::new());
    }
    let (h, _) =
        decode_table::<DoubleDeltaHeader>(src, 0, ()).map_err(|e| err(format!("header: {e}")))?;
    let rest = &src[DoubleDeltaHeader::SIZE..];
    if u32::from(h.bitsize) >= 8 * w as u32 - 1 {
        // No savings: the values as they are, whatever `n` says.
        if rest.len() != original {
            return Err(err(format!(
                "{} bytes of raw values, the metadata says {original}",
                rest.len()
            )));
        }
        return Ok(rest.to_vec());
    }
    let n = h.n;
    if n.checked_mul(w as u64) != Some(original as u64) {
        return Err(err(format!(
            "{n} values of {w} bytes, the metadata says {original} bytes"
        )));
    }
    let n = n as usize;
    let firsts = n.min(2) * w;
    let head = rest
        .get(..firsts)
        .ok_or_else(|| err("the first values are cut short".into()))?;
    let packed = &rest[firsts..];
    if n > 2 {
        let bits = (n as u128 - 2) * (u128::from(h.bitsize) + 1);
        let words = bits.div_ceil(64);
        if (packed.len() as u128) < words * 8 {
            return Err(err(format!(
                "{} bytes of packed double deltas, {} values need {}",
                packed.len(),
                n,
                words * 8
            )));
        }
    }
    let m = mask(w);
    let mut out = Vec::with_capacity(original);
    out.extend_from_slice(head);
    if n > 2 {
        let mut br = BitReader {
            words: packed.chunks_exact(8),
            word: 0,
            avail: 0,
        };
        let mut older = le(&head[..w]);
        let mut last = le(&head[w..2 * w]);
        for _ in 2..n {
            let negative = br.get(1)? == 1;
            let magnitude = br.get(u32::from(h.bitsize))?;
            let dd = if negative {
                magnitude.wrapping_neg()
            } else {
                magnitude
            };
            let v = dd.wrapping_add(last.wrapping_mul(2)).wrapping_sub(older) & m;
            out.extend_from_slice(&v.to_le_bytes()[..w]);
            older = last;
            last = v;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::Pipeline;
    use tiledb_codec_format::{Compressor, CompressorOptions, FilterOptions, FilterType, Record};

    fn dd(reinterpret: Option<Datatype>) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::DoubleDelta,
            filter_options: FilterOptions::Compressor(tiledb_codec_format::table!(
                CompressorOptions {
                    compressor_type: Compressor::DoubleDelta,
                    compression_level: -1,
                    reinterpret_datatype: reinterpret,
                }
            )),
        })
        .with_sizes()
    }

    fn bytes_i64(vs: &[i64]) -> Vec<u8> {
        vs.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    #[test]
    fn header_first_values_then_packed_signs_and_magnitudes() {
        // Deltas 2, 3, 1, 1: double deltas +1, -2, 0.
        let data = bytes_i64(&[10, 12, 15, 16, 17]);
        let p = Pipeline::new(&[dd(None)], Datatype::Int64, 8, 20).unwrap();
        let (_, filtered) = p.forward_chunk(&data).unwrap();
        // bitsize 2 (|dd| <= 2), n = 5.
        assert_eq!(&filtered[..9], &[2, 5, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&filtered[9..25], &data[..16]);
        // Bits: 0 01, 1 10, 0 00 -> 001110000, then zeros, in the top of
        // one little-endian u64.
        let word = 0b001_110_000u64 << (64 - 9);
        assert_eq!(&filtered[25..], &word.to_le_bytes());
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), data);
    }

    #[test]
    fn the_first_delta_counts_from_version_22() {
        let data = bytes_i64(&[0, 1000, 2000, 3000]);
        let old = Pipeline::new(&[dd(None)], Datatype::Int64, 8, 21).unwrap();
        let new = Pipeline::new(&[dd(None)], Datatype::Int64, 8, 22).unwrap();
        let (_, a) = old.forward_chunk(&data).unwrap();
        let (md, b) = new.forward_chunk(&data).unwrap();
        assert_eq!((a[0], b[0]), (1, 10));
        assert_eq!(new.reverse_chunk(&md, &b, None).unwrap(), data);
        assert_eq!(old.reverse_chunk(&md, &b, None).unwrap(), data);
    }

    #[test]
    fn no_savings_stores_the_values() {
        // u8 values: bitsize 7 = 8 - 1, so raw.
        let data = [0u8, 200, 0, 200];
        let p = Pipeline::new(&[dd(None)], Datatype::Uint8, 1, 22).unwrap();
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(filtered[0], 9);
        assert_eq!(&filtered[9..], &data);
        assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), data);
        // One or two values: bitsize 0, the values follow.
        let (_, f) = p.forward_chunk(&[7]).unwrap();
        assert_eq!(f, [0, 1, 0, 0, 0, 0, 0, 0, 0, 7]);
    }

    #[test]
    fn signedness_decides_the_deltas() {
        // As i8, -1 then 1 then 3: deltas 2, 2; as u8 255, 1, 3: -254, 2.
        let data = [255u8, 1, 3];
        let s = Pipeline::new(&[dd(None)], Datatype::Int8, 1, 22).unwrap();
        let u = Pipeline::new(&[dd(None)], Datatype::Uint8, 1, 22).unwrap();
        assert_eq!(s.forward_chunk(&data).unwrap().1[0], 2);
        assert_eq!(u.forward_chunk(&data).unwrap().1[0], 9);
        // CHAR is signed, BLOB is not.
        let c = Pipeline::new(&[dd(None)], Datatype::Char, 1, 22).unwrap();
        assert_eq!(c.forward_chunk(&data).unwrap().1[0], 2);
    }

    #[test]
    fn reinterpret_and_refusals() {
        let f = dd(Some(Datatype::Int64));
        assert_eq!(
            codec(&f).unwrap().output_datatype(Datatype::Float64),
            Datatype::Int64
        );
        let data: Vec<u8> = [1.0f64, 2.0, 3.5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let p = Pipeline::new(&[f], Datatype::Float64, 8, 20).unwrap();
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), data);
        let p = Pipeline::new(&[dd(None)], Datatype::Float32, 4, 20).unwrap();
        assert!(p.forward_chunk(&[0; 4]).is_err());
        // A delta past i64.
        let p = Pipeline::new(&[dd(None)], Datatype::Uint64, 8, 22).unwrap();
        let big: Vec<u8> = [0u64, u64::MAX, 0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert!(p.forward_chunk(&big).is_err());
        // Cut-short packed data.
        let p = Pipeline::new(&[dd(None)], Datatype::Int32, 4, 22).unwrap();
        let data: Vec<u8> = [1i32, 5, 2, 9]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        let short = &filtered[..filtered.len() - 1];
        let mut md2 = md.clone();
        md2[12] -= 1;
        assert!(p.reverse_chunk(&md2, short, None).is_err());
    }

    fn integer_types() -> Vec<Datatype> {
        Datatype::ALL
            .iter()
            .copied()
            .filter(|d| integer_type(NAME, *d).is_ok())
            .collect()
    }

    /// Values of `w` bytes near each other, or anywhere, as bytes.
    fn values() -> impl Strategy<Value = (Vec<i64>, i64)> {
        (
            prop::collection::vec(any::<i64>(), 0..20_000),
            prop::sample::select(vec![0i64, 1, 3, 100, 1 << 20, 1 << 40]),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn identity(
            dt in prop::sample::select(integer_types()),
            n in 1u64..3,
            (raw, spread) in values(),
            start in any::<i64>(),
            version in prop::sample::select(vec![16u32, 21, 22]),
            reinterpret in prop::option::of(prop::sample::select(vec![Datatype::Uint8, Datatype::Int16, Datatype::Int64])),
        ) {
            let (w, _) = integer_type(NAME, reinterpret.unwrap_or(dt)).unwrap();
            let cell = dt.size() * n;
            let unit = (w as u64).max(cell) as usize;
            // A walk with bounded steps (spread 0: arbitrary values).
            let mut at = start;
            let mut data = Vec::new();
            for r in &raw {
                at = if spread == 0 { *r } else { at.wrapping_add(r % spread) };
                data.extend_from_slice(&at.to_le_bytes()[..w]);
            }
            let len = data.len() / unit * unit;
            data.truncate(len);
            let p = Pipeline::new(&[dd(reinterpret)], dt, cell, version).unwrap();
            let size = crate::pipeline::chunk_size(data.len() as u64, cell) as usize;
            let size = (size / unit * unit).max(unit);
            for chunk in data.chunks(size) {
                match p.forward_chunk(chunk) {
                    Ok((md, filtered)) => {
                        prop_assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), chunk);
                    }
                    // Only 64-bit deltas can leave i64.
                    Err(e) => prop_assert!(w == 8 && e.what.contains("range of int64"), "{}", e),
                }
            }
        }
    }
}
