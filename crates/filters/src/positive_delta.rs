//! POSITIVE_DELTA (format_spec/tile.md#positive-delta-encoding-filter;
//! tiledb/sm/filter/positive_delta_filter.cc).
//!
//! Each data part is cut into windows of `max_window_size` bytes rounded
//! down to whole values (the last window takes the rest). A window whose
//! length is a whole number of values stores, for each value, its
//! difference from the value before it (0 for the first); the window's
//! metadata keeps its first value. A window that is not a whole number of
//! values is stored as it is. Values must not decrease within a window:
//! forward fails otherwise, as the engine does. The chunk metadata
//! ([`PositiveDeltaChunkMetadata`]) holds the windows of all parts; the
//! input metadata is left alone.
//!
//! Which values: INT8; UINT8, BOOL, BLOB, GEOM_WKB and GEOM_WKT as
//! unsigned bytes; the 16-, 32- and 64-bit integers; the DATETIME_* and
//! TIME_* types as INT64, but only from format version 20 on (before, the
//! filter leaves them alone). Every other datatype (floats, CHAR, strings,
//! ANY) passes through unchanged, in both directions.

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::version::has_delta_filters_on_dates;
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{
    decode, encode, Datatype, Filter, FilterOptions, PositiveDeltaChunkMetadata,
    PositiveDeltaWindowMd,
};

const NAME: &str = "POSITIVE_DELTA";

/// The engine's default window (`PositiveDeltaFilter`'s constructor).
pub const DEFAULT_MAX_WINDOW_SIZE: u32 = 1024;

/// The codec of a POSITIVE_DELTA filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    let max_window_size = match &filter.filter_options {
        FilterOptions::PositiveDelta(o) => o.max_window_size,
        _ => DEFAULT_MAX_WINDOW_SIZE,
    };
    Ok(Box::new(PositiveDelta { max_window_size }))
}

/// The positive-delta filter and its window size in bytes.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct PositiveDelta {
    /// The most bytes one window of values takes.
    pub max_window_size: u32,
}

/// An integer type the filter computes with: its size and signedness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct IntType {
    /// Bytes of one value.
    pub size: usize,
    /// Whether values are signed.
    pub signed: bool,
}

impl IntType {
    /// Reads a little-endian value (at most `size` bytes; missing bytes
    /// read as zero).
    fn read(self, b: &[u8]) -> i128 {
        let mut x = [0u8; 16];
        let n = b.len().min(self.size);
        x[..n].copy_from_slice(&b[..n]);
        if self.signed && n == self.size && b[n - 1] & 0x80 != 0 {
            x[n..].fill(0xff);
        }
        i128::from_le_bytes(x)
    }

    /// Writes the low `size` bytes of `v` (wrapping, as C++ does).
    fn write(self, v: i128, out: &mut Vec<u8>) {
        out.extend_from_slice(&v.to_le_bytes()[..self.size]);
    }

    /// Wraps `v` into the type's range.
    fn wrap(self, v: i128) -> i128 {
        let mut b = Vec::with_capacity(self.size);
        self.write(v, &mut b);
        self.read(&b)
    }
}

/// The type the engine encodes `dt` as, or `None` when it leaves `dt` alone:
/// integers, BOOL, BLOB and the geometries as their native type, dates and
/// times as `i64` from the version that filters them; not text, ANY or
/// floats.
pub fn int_type(dt: Datatype, version: u32) -> Option<IntType> {
    use tiledb_codec_format::DatatypeClass as C;
    match dt.class() {
        C::Signed | C::Unsigned | C::Bool | C::Bytes => {}
        C::Datetime | C::Time if has_delta_filters_on_dates(version) => {}
        _ => return None,
    }
    Some(IntType {
        size: dt.size() as usize,
        signed: dt.native_signed(),
    })
}

impl FilterCodec for PositiveDelta {
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
        let mut md = tiledb_codec_format::table!(PositiveDeltaChunkMetadata {
            windows: Vec::new(),
        });
        let mut out = Vec::with_capacity(input.data.iter().map(Vec::len).sum());
        for part in &input.data {
            let mut at = 0usize;
            for n in super::window_lengths(NAME, self.max_window_size, t.size, part.len())? {
                let w = &part[at..at + n];
                at += n;
                // The engine reads a whole value here even when the window
                // holds less; the missing bytes are written as zeros.
                let mut first = w[..w.len().min(t.size)].to_vec();
                first.resize(t.size, 0);
                md.windows.push(
                    tiledb_codec_format::table!(PositiveDeltaWindowMd {
                        value_offset: first,
                    })
                    .with_outside_sizes(w)
                    .map_err(super::too_large(NAME))?,
                );
                if n % t.size != 0 {
                    out.extend_from_slice(w);
                    continue;
                }
                let mut prev = t.read(w);
                for v in w.chunks_exact(t.size) {
                    let v = t.read(v);
                    if v < prev {
                        return Err(FilterError::new(
                            NAME,
                            format!("delta is not positive: {v} follows {prev}"),
                        ));
                    }
                    t.write(v - prev, &mut out);
                    prev = v;
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
        let (md, used) = decode::<PositiveDeltaChunkMetadata>(metadata, 0, (t.size as u64,))
            .map_err(|e| FilterError::new(NAME, format!("chunk metadata: {e}")))?;
        let mut out = Vec::with_capacity(data.len());
        let mut pos = 0usize;
        for (i, w) in md.windows.iter().enumerate() {
            let n = w.window_length as usize;
            let Some(src) = data.get(pos..pos + n) else {
                return Err(FilterError::new(
                    NAME,
                    format!(
                        "window {i} of {n} bytes at {pos} runs past the chunk's {} bytes",
                        data.len()
                    ),
                ));
            };
            pos += n;
            if !n.is_multiple_of(t.size) {
                out.extend_from_slice(src);
                continue;
            }
            let mut prev = t.read(&w.value_offset);
            for d in src.chunks_exact(t.size) {
                prev = t.wrap(prev + t.read(d));
                t.write(prev, &mut out);
            }
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
    use tiledb_codec_format::{FilterType, PositiveDeltaOptions, Tile};

    fn pd_filter(window: u32) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::PositiveDelta,
            filter_options: FilterOptions::PositiveDelta(tiledb_codec_format::table!(
                PositiveDeltaOptions {
                    max_window_size: window,
                }
            )),
        })
        .with_sizes()
    }

    fn cx(datatype: Datatype, version: u32) -> FilterContext<'static> {
        FilterContext::new(datatype, datatype.size(), version)
    }

    fn round_trip(
        filters: &[Filter],
        dt: Datatype,
        version: u32,
        data: &[u8],
    ) -> Result<Vec<u8>, FilterError> {
        let p = Pipeline::new(filters, dt, dt.size(), version)?;
        let tile = p.forward_tile(data)?;
        let (tile, _) = decode::<Tile>(&tile, 0, ()).unwrap();
        let mut out = Vec::new();
        for c in &tile.chunks {
            out.extend(p.reverse_chunk(&c.metadata, &c.filtered_data, None)?);
        }
        Ok(out)
    }

    fn le_u32(v: &[u32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn two_windows_of_u32() {
        let f = PositiveDelta { max_window_size: 8 };
        let data = le_u32(&[10, 12, 15, 15, 20]);
        let out = f
            .forward(&cx(Datatype::Uint32, 22), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out.data, vec![le_u32(&[0, 2, 0, 0, 0])]);
        let mut md = vec![3, 0, 0, 0];
        md.extend(le_u32(&[10, 8, 15, 8, 20, 4]));
        assert_eq!(out.metadata, vec![md.clone()]);
        let r = f
            .reverse(&cx(Datatype::Uint32, 22), &md, &out.data[0])
            .unwrap();
        assert_eq!(r.data, data);
        assert!(r.metadata.is_empty());
    }

    #[test]
    fn a_decreasing_value_is_an_error() {
        let f = PositiveDelta {
            max_window_size: 1024,
        };
        let data: Vec<u8> = [5i16, -3].iter().flat_map(|v| v.to_le_bytes()).collect();
        let err = f
            .forward(&cx(Datatype::Int16, 22), Parts::chunk(&data))
            .unwrap_err();
        assert_eq!(err.filter, NAME);
        // Signed comparison: -3 then 5 is fine.
        let data: Vec<u8> = [-3i16, 5].iter().flat_map(|v| v.to_le_bytes()).collect();
        let out = f
            .forward(&cx(Datatype::Int16, 22), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out.data, vec![vec![0, 0, 8, 0]]);
    }

    #[test]
    fn a_partial_last_window_is_stored_as_it_is() {
        let f = PositiveDelta {
            max_window_size: 1024,
        };
        let out = f
            .forward(
                &cx(Datatype::Uint32, 22),
                Parts::chunk(&[1, 0, 0, 0, 2, 0, 0, 0, 9, 9]),
            )
            .unwrap();
        // One window of the 8 whole bytes, then a 2-byte raw window.
        let mut md = vec![2, 0, 0, 0];
        md.extend([1, 0, 0, 0, 8, 0, 0, 0, 9, 9, 0, 0, 2, 0, 0, 0]);
        assert_eq!(out.metadata, vec![md.clone()]);
        assert_eq!(out.data, vec![vec![0, 0, 0, 0, 1, 0, 0, 0, 9, 9]]);
        let r = f
            .reverse(&cx(Datatype::Uint32, 22), &md, &out.data[0])
            .unwrap();
        assert_eq!(r.data, [1, 0, 0, 0, 2, 0, 0, 0, 9, 9]);
    }

    #[test]
    fn dates_pass_through_before_version_20() {
        let f = PositiveDelta {
            max_window_size: 1024,
        };
        let data: Vec<u8> = [3i64, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
        let input = Parts {
            metadata: vec![vec![4]],
            data: vec![data.clone()],
        };
        let out = f
            .forward(&cx(Datatype::DatetimeDay, 19), input.clone())
            .unwrap();
        assert_eq!(out, input);
        let r = f
            .reverse(&cx(Datatype::DatetimeDay, 19), &[4], &data)
            .unwrap();
        assert_eq!((r.metadata, r.data), (vec![4], data.clone()));
        // From version 20 on they are INT64 (and 3 then 1 decreases).
        assert!(f.forward(&cx(Datatype::DatetimeDay, 20), input).is_err());
    }

    #[test]
    fn floats_pass_through() {
        let f = PositiveDelta {
            max_window_size: 16,
        };
        let data: Vec<u8> = [3.0f64, 1.0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let out = f
            .forward(&cx(Datatype::Float64, 22), Parts::chunk(&data))
            .unwrap();
        assert_eq!(out, Parts::chunk(&data));
    }

    #[test]
    fn a_window_smaller_than_a_value_is_refused() {
        let f = PositiveDelta { max_window_size: 4 };
        assert!(f
            .forward(&cx(Datatype::Int64, 22), Parts::chunk(&[0; 16]))
            .is_err());
    }

    /// Random non-decreasing values that span the type's range.
    fn sorted_data(dt: Datatype, cells: usize, seed: u64, version: u32) -> Vec<u8> {
        let Some(t) = int_type(dt, version) else {
            return (0..cells * dt.size() as usize)
                .map(|i| (i * 31 + seed as usize) as u8)
                .collect();
        };
        let bits = 8 * t.size as u32;
        let (min, max): (i128, i128) = if t.signed {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        let mut s = seed;
        let mut sums = Vec::with_capacity(cells);
        let mut total = 0i128;
        for _ in 0..cells {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            total += (s >> 60) as i128;
            sums.push(total);
        }
        let mut out = Vec::new();
        for v in sums {
            t.write(min + v * (max - min) / total.max(1), &mut out);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn positive_delta_round_trips(
            dt in prop::sample::select(Datatype::ALL.to_vec()),
            version in prop::sample::select(vec![16u32, 19, 20, 22]),
            window in prop::sample::select(vec![8u32, 16, 100, 1024, 65536]),
            cells in 0usize..20_000,
            seed in any::<u64>(),
        ) {
            let data = sorted_data(dt, cells, seed, version);
            prop_assert_eq!(round_trip(&[pd_filter(window)], dt, version, &data).unwrap(), data);
        }

        #[test]
        fn odd_parts_round_trip(
            parts in prop::collection::vec(prop::collection::vec(0u8..4, 0..40), 0..4),
            window in 1u32..20,
        ) {
            // Bytes: any window works; values of 0..4 only increase within
            // a window when sorted.
            let parts: Vec<Vec<u8>> = parts.into_iter().map(|mut p| { p.sort(); p }).collect();
            let f = PositiveDelta { max_window_size: window };
            let out = f.forward(&cx(Datatype::Uint8, 22), Parts { metadata: vec![vec![1]], data: parts.clone() }).unwrap();
            let r = f.reverse(&cx(Datatype::Uint8, 22), &out.metadata_bytes(), &out.data_bytes()).unwrap();
            prop_assert_eq!(r.data, parts.concat());
            prop_assert_eq!(r.metadata, vec![1]);
        }
    }
}
