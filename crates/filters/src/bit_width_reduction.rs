//! BIT_WIDTH_REDUCTION (format_spec/tile.md#bit-width-reduction-filter;
//! tiledb/sm/filter/bit_width_reduction_filter.cc).
//!
//! Each data part is cut into windows of `max_window_size` bytes rounded
//! down to whole values (the last window takes the rest). For a window of
//! whole values, the filter finds the smallest value `min` and the range
//! `max - min`; if `range + 1` fits the type (else the window is stored as
//! it is), it needs `bits` = the C integer width (8, 16, 32, 64) that holds
//! `range + 1` (for signed types: as a signed value, so a range of 127
//! takes 16 bits). When that is narrower than the type, each value is
//! stored as `value - min` in `bits / 8` bytes; otherwise, and for a window
//! that is not a whole number of values, the window is stored as it is. The
//! window's metadata keeps `min`, `bits` and the window's byte length. The
//! chunk metadata ([`BitWidthReductionChunkMetadata`]) starts with the total
//! input length and holds the windows of all parts; the input metadata is
//! left alone.
//!
//! Which values: the 16-, 32- and 64-bit integers, and the DATETIME_* and
//! TIME_* types as INT64 but only from format version 20 on (before, the
//! filter leaves them alone). Every other datatype, 8-bit ones included,
//! passes through unchanged, in both directions.
//!
//! Where the engine leaves a window's minimum unset (a window of less than
//! one value, or one whose range overflows the type: such windows are
//! stored as they are), it writes whatever its variable holds: in TileDB
//! 2.30 builds, the minimum of the window before in the same chunk, and
//! stack garbage for a chunk's first window. This codec writes the minimum
//! of the window before, or 0. The reverse direction does not read it.

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::version::has_delta_filters_on_dates;
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{
    decode, encode, BitWidthReductionChunkMetadata, BitWidthReductionWindowMd, Datatype, Filter,
    FilterOptions,
};

const NAME: &str = "BIT_WIDTH_REDUCTION";

/// The engine's default window (`BitWidthReductionFilter`'s constructor).
pub const DEFAULT_MAX_WINDOW_SIZE: u32 = 256;

/// The codec of a BIT_WIDTH_REDUCTION filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    let max_window_size = match &filter.filter_options {
        FilterOptions::BitWidthReduction(o) => o.max_window_size,
        _ => DEFAULT_MAX_WINDOW_SIZE,
    };
    Ok(Box::new(BitWidthReduction { max_window_size }))
}

/// The bit width reduction filter and its window size in bytes.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct BitWidthReduction {
    /// The most bytes one window of values takes.
    pub max_window_size: u32,
}

/// An integer type the filter computes with: its size and signedness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct IntType {
    size: usize,
    signed: bool,
}

impl IntType {
    fn bits(self) -> u32 {
        8 * self.size as u32
    }

    fn max(self) -> i128 {
        if self.signed {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }

    /// Reads a little-endian value of `b.len()` bytes (at most 8), sign- or
    /// zero-extended by the type's signedness.
    fn read(self, b: &[u8]) -> i128 {
        let mut x = [0u8; 16];
        x[..b.len()].copy_from_slice(b);
        if self.signed && b.last().is_some_and(|l| l & 0x80 != 0) {
            x[b.len()..].fill(0xff);
        }
        i128::from_le_bytes(x)
    }

    /// Writes the low `n` bytes of `v` (a C cast to a narrower type).
    fn write(v: i128, n: usize, out: &mut Vec<u8>) {
        out.extend_from_slice(&v.to_le_bytes()[..n]);
    }
}

/// The type the engine reduces `dt` as, or `None` when it leaves `dt` alone:
/// integers of 2 bytes or more as their native type, dates and times as
/// `i64` from the version that filters them; not one-byte integers, BOOL,
/// text, bytes or floats.
fn int_type(dt: Datatype, version: u32) -> Option<IntType> {
    use tiledb_codec_format::DatatypeClass as C;
    match dt.class() {
        C::Signed | C::Unsigned if dt.size() > 1 => {}
        C::Datetime | C::Time if has_delta_filters_on_dates(version) => {}
        _ => return None,
    }
    Some(IntType {
        size: dt.size() as usize,
        signed: dt.native_signed(),
    })
}

/// The engine's `bits_required`, rounded up to a C integer width: the bits
/// of `v` as an unsigned value, or the narrowest signed type holding it.
fn width_for(t: IntType, v: i128) -> u8 {
    let bits = if t.signed {
        if (i8::MIN as i128..=i8::MAX as i128).contains(&v) {
            8
        } else if (i16::MIN as i128..=i16::MAX as i128).contains(&v) {
            16
        } else if (i32::MIN as i128..=i32::MAX as i128).contains(&v) {
            32
        } else {
            64
        }
    } else {
        128 - v.leading_zeros()
    };
    match bits {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        _ => 64,
    }
}

/// The engine's `compute_bits_required` for the values of a window: the
/// reduced width and the window minimum (`None` where the engine leaves it
/// unset: no values, or a range that overflows the type).
fn bits_required(t: IntType, values: &[u8]) -> (u8, Option<i128>) {
    let orig = t.bits() as u8;
    let mut it = values.chunks_exact(t.size).map(|v| t.read(v));
    let Some(first) = it.next() else {
        return (orig, None);
    };
    let (min, max) = it.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let range = max - min;
    if range > t.max() || range + 1 > t.max() {
        return (orig, None);
    }
    (width_for(t, range + 1), Some(min))
}

impl FilterCodec for BitWidthReduction {
    fn name(&self) -> &'static str {
        NAME
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let Some(t) = int_type(cx.datatype, cx.tile_version) else {
            return Ok(Parts {
                metadata: super::engine_view(input.metadata),
                data: super::engine_view(input.data),
            });
        };
        let total: usize = input.data.iter().map(Vec::len).sum();
        let mut md = tiledb_codec_format::table!(BitWidthReductionChunkMetadata {
            windows: Vec::new(),
        })
        .with_outside_sizes(&input.data)
        .map_err(super::too_large(NAME))?;
        let orig = t.bits() as u8;
        let mut out = Vec::with_capacity(total);
        // The last minimum computed: what the engine writes for a window
        // whose minimum it leaves unset.
        let mut last_min = 0i128;
        for part in &input.data {
            let mut at = 0usize;
            for n in super::window_lengths(NAME, self.max_window_size, t.size, part.len())? {
                let w = &part[at..at + n];
                at += n;
                let (bits, min) = bits_required(t, w);
                let min = min.unwrap_or(last_min);
                last_min = min;
                let mut offset = Vec::with_capacity(t.size);
                IntType::write(min, t.size, &mut offset);
                md.windows.push(
                    tiledb_codec_format::table!(BitWidthReductionWindowMd {
                        value_offset: offset,
                        bit_width: bits,
                    })
                    .with_outside_sizes(w)
                    .map_err(super::too_large(NAME))?,
                );
                if bits >= orig || n % t.size != 0 {
                    out.extend_from_slice(w);
                    continue;
                }
                for v in w.chunks_exact(t.size) {
                    IntType::write(t.read(v) - min, usize::from(bits / 8), &mut out);
                }
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
        let Some(t) = int_type(cx.datatype, cx.tile_version) else {
            return Ok(Reversed {
                metadata: metadata.to_vec(),
                data: data.to_vec(),
            });
        };
        let (md, used) = decode::<BitWidthReductionChunkMetadata>(metadata, 0, (t.size as u64,))
            .map_err(|e| FilterError::new(NAME, format!("chunk metadata: {e}")))?;
        let orig = t.bits() as u8;
        let input_length = cx.check_output(NAME, "input_length", md.input_length.into())?;
        let mut out = Vec::with_capacity(input_length);
        let mut pos = 0usize;
        for (i, w) in md.windows.iter().enumerate() {
            let n = w.window_length as usize;
            let raw = w.bit_width >= orig || !n.is_multiple_of(t.size);
            let stored = if raw {
                n
            } else {
                match w.bit_width {
                    8 | 16 | 32 => n / t.size * usize::from(w.bit_width / 8),
                    b => {
                        return Err(FilterError::new(
                            NAME,
                            format!("window {i}: {b} is not a bit width (8, 16, 32 or 64)"),
                        ))
                    }
                }
            };
            let Some(src) = data.get(pos..pos + stored) else {
                return Err(FilterError::new(
                    NAME,
                    format!(
                        "window {i} of {stored} bytes at {pos} runs past the chunk's {} bytes",
                        data.len()
                    ),
                ));
            };
            pos += stored;
            if raw {
                out.extend_from_slice(src);
                continue;
            }
            let min = t.read(&w.value_offset);
            for v in src.chunks_exact(usize::from(w.bit_width / 8)) {
                IntType::write(t.read(v) + min, t.size, &mut out);
            }
        }
        if out.len() != md.input_length as usize {
            return Err(FilterError::new(
                NAME,
                format!(
                    "the windows restore {} bytes, the metadata says {}",
                    out.len(),
                    md.input_length
                ),
            ));
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
    use tiledb_codec_format::{BitWidthReductionOptions, FilterType, Tile};

    fn bwr_filter(window: u32) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::BitWidthReduction,
            filter_options: FilterOptions::BitWidthReduction(tiledb_codec_format::table!(
                BitWidthReductionOptions {
                    max_window_size: window,
                }
            )),
        })
        .with_sizes()
    }

    fn cx(datatype: Datatype, version: u32) -> FilterContext<'static> {
        FilterContext::new(datatype, datatype.size(), version)
    }

    fn round_trip(filters: &[Filter], dt: Datatype, version: u32, data: &[u8]) -> Vec<u8> {
        let p = Pipeline::new(filters, dt, dt.size(), version).unwrap();
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

    fn le_i32(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn windows_of_i32() {
        let f = BitWidthReduction { max_window_size: 8 };
        // [100, 105]: range 5 -> 8 bits, min 100.
        // [-70, 60]: range 130 -> 16 bits (131 is not an int8).
        // [7]: 8 bits, min 7.
        let data = le_i32(&[100, 105, -70, 60, 7]);
        let out = f
            .forward(&cx(Datatype::Int32, 22), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out.data, vec![vec![0, 5, 0, 0, 130, 0, 0]]);
        let mut md = Vec::new();
        md.extend(20u32.to_le_bytes());
        md.extend(3u32.to_le_bytes());
        md.extend(100i32.to_le_bytes());
        md.push(8);
        md.extend(8u32.to_le_bytes());
        md.extend((-70i32).to_le_bytes());
        md.push(16);
        md.extend(8u32.to_le_bytes());
        md.extend(7i32.to_le_bytes());
        md.push(8);
        md.extend(4u32.to_le_bytes());
        assert_eq!(out.metadata, vec![md.clone()]);
        let r = f
            .reverse(&cx(Datatype::Int32, 22), &md, &out.data[0])
            .unwrap();
        assert_eq!(r.data, data);
    }

    #[test]
    fn unsigned_widths() {
        let t = IntType {
            size: 4,
            signed: false,
        };
        let vals = |v: &[u32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
        // Range 254 -> 255 needs 8 bits; range 255 -> 256 needs 9 -> 16.
        assert_eq!(bits_required(t, &vals(&[1, 255])), (8, Some(1)));
        assert_eq!(bits_required(t, &vals(&[0, 255])), (16, Some(0)));
        // The full range overflows: stored as it is.
        assert_eq!(bits_required(t, &vals(&[0, u32::MAX])), (32, None));
        let s = IntType {
            size: 2,
            signed: true,
        };
        let vals16 = |v: &[i16]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
        // Signed: range 126 -> 127 fits int8; range 127 -> 128 does not.
        assert_eq!(bits_required(s, &vals16(&[0, 126])), (8, Some(0)));
        assert_eq!(bits_required(s, &vals16(&[0, 127])), (16, Some(0)));
        assert_eq!(bits_required(s, &vals16(&[i16::MIN, i16::MAX])), (16, None));
    }

    #[test]
    fn eight_bit_types_and_floats_pass_through() {
        let f = BitWidthReduction { max_window_size: 8 };
        for dt in [
            Datatype::Int8,
            Datatype::Uint8,
            Datatype::Float32,
            Datatype::Blob,
        ] {
            let input = Parts {
                metadata: vec![vec![1]],
                data: vec![vec![1, 2, 3, 4]],
            };
            assert_eq!(f.forward(&cx(dt, 22), input.clone()).unwrap(), input);
        }
    }

    #[test]
    fn dates_pass_through_before_version_20() {
        let f = BitWidthReduction {
            max_window_size: 256,
        };
        let data: Vec<u8> = [3i64, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
        let out = f
            .forward(&cx(Datatype::TimeMs, 19), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out, Parts::chunk(&data));
        let out = f
            .forward(&cx(Datatype::TimeMs, 20), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out.data, vec![vec![2, 0]]);
    }

    #[test]
    fn reverse_checks_the_restored_length() {
        let f = BitWidthReduction { max_window_size: 8 };
        let mut md = Vec::new();
        md.extend(9u32.to_le_bytes());
        md.extend(1u32.to_le_bytes());
        md.extend(0i32.to_le_bytes());
        md.push(8);
        md.extend(8u32.to_le_bytes());
        let err = f
            .reverse(&cx(Datatype::Int32, 22), &md, &[1, 2])
            .unwrap_err();
        assert_eq!(err.filter, NAME);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn bit_width_reduction_round_trips(
            dt in prop::sample::select(Datatype::ALL.to_vec()),
            version in prop::sample::select(vec![16u32, 19, 20, 22]),
            window in prop::sample::select(vec![8u32, 32, 100, 256, 65536]),
            spread in 0u32..64,
            cells in 0usize..20_000,
            seed in any::<u64>(),
        ) {
            let len = cells * dt.size() as usize;
            let mut s = seed;
            // Values of `spread` random low bits over a random base, so
            // that every width occurs.
            let base = seed.rotate_left(17);
            let mut data = Vec::with_capacity(len);
            while data.len() < len {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let low = if spread == 0 { 0 } else { (s >> 1) >> (63 - spread.min(63)) };
                data.extend_from_slice(&base.wrapping_add(low).to_le_bytes()[..dt.size() as usize]);
            }
            prop_assert_eq!(round_trip(&[bwr_filter(window)], dt, version, &data), data);
        }

        #[test]
        fn odd_parts_round_trip(
            parts in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..60), 0..4),
            window in 2u32..40,
            dt in prop::sample::select(vec![Datatype::Int16, Datatype::Uint16]),
        ) {
            let f = BitWidthReduction { max_window_size: window };
            let out = f.forward(&cx(dt, 22), Parts { metadata: vec![vec![1]], data: parts.clone() }).unwrap();
            let r = f.reverse(&cx(dt, 22), &out.metadata_bytes(), &out.data_bytes()).unwrap();
            prop_assert_eq!(r.data, parts.concat());
            prop_assert_eq!(r.metadata, vec![1]);
        }
    }
}
