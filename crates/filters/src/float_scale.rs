//! SCALE_FLOAT (filter type 15; format_spec/filters/float_scale.md,
//! spec/filters_float_scale.toml; tiledb/sm/filter/float_scaling_filter.cc).
//!
//! Forward, each float of each data part becomes the integer
//! `round((x - offset) / scale)` of `byte_width` bytes (little-endian),
//! computed in the float's own precision (offset and scale cast to it) and
//! rounded half away from zero (C `round`); backward, each integer `i`
//! becomes `scale * i + offset` computed in f64 and cast to the float type.
//! The float type is the one of the input datatype's size (4: f32, 8: f64);
//! the output datatype is INT8, INT16, INT32 or INT64 by `byte_width`.
//!
//! The chunk metadata is a [`FloatScaleChunkMetadata`] (the number of data
//! parts and each output part's length) followed by the metadata of the
//! filters before.
//!
//! A float out of the integer's range (or NaN) converts as the engine's
//! `static_cast` does on x86-64 (undefined behaviour in C++): to the
//! integer's minimum for 4 and 8 bytes; through a 32-bit conversion then
//! truncated for 1 and 2 bytes.

use super::{FilterCodec, FilterContext, FilterError, Parts, Reversed};
use tiledb_codec_format::Record as _;
use tiledb_codec_format::{
    decode, encode, Datatype, Filter, FilterOptions, FloatScaleChunkMetadata,
};

const NAME: &str = "SCALE_FLOAT";

/// The codec for a SCALE_FLOAT filter.
pub fn codec(filter: &Filter) -> Result<Box<dyn FilterCodec>, FilterError> {
    let FilterOptions::FloatScale(o) = &filter.filter_options else {
        return Err(FilterError::new(
            NAME,
            "the filter has no float scale options",
        ));
    };
    if !matches!(o.byte_width, 1 | 2 | 4 | 8) {
        return Err(FilterError::new(
            NAME,
            format!("byte width {} is not 1, 2, 4 or 8", o.byte_width),
        ));
    }
    Ok(Box::new(FloatScale {
        scale: o.scale,
        offset: o.offset,
        byte_width: o.byte_width as usize,
    }))
}

/// SCALE_FLOAT both ways.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FloatScale {
    /// Stored value = (value - offset) / scale, rounded.
    pub scale: f64,
    /// See `scale`.
    pub offset: f64,
    /// 1, 2, 4 or 8.
    pub byte_width: usize,
}

impl FloatScale {
    /// The float width of the input datatype.
    fn float_width(cx: &FilterContext) -> Result<usize, FilterError> {
        match cx.datatype.size() {
            4 => Ok(4),
            8 => Ok(8),
            n => Err(FilterError::new(
                NAME,
                format!(
                    "{} has {n}-byte values, not 4- or 8-byte floats",
                    cx.datatype.name()
                ),
            )),
        }
    }

    /// One float (its bytes) to the integer it is stored as.
    fn scale_one(&self, x: &[u8]) -> i64 {
        let r = if x.len() == 4 {
            let x = f32::from_le_bytes(x.try_into().expect("4 bytes"));
            f64::from(((x - self.offset as f32) / self.scale as f32).round())
        } else {
            let x = f64::from_le_bytes(x.try_into().expect("8 bytes"));
            ((x - self.offset) / self.scale).round()
        };
        to_int(r, self.byte_width)
    }

    /// One stored integer back to its float's bytes, appended to `out`.
    fn unscale_one(&self, i: i64, float_width: usize, out: &mut Vec<u8>) {
        if float_width == 4 {
            let v = (self.scale * f64::from(i as f32) + self.offset) as f32;
            out.extend_from_slice(&v.to_le_bytes());
        } else {
            let v = self.scale * (i as f64) + self.offset;
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// The x86-64 conversion of an integral `r` to a `width`-byte integer:
/// `cvttsd2si` gives the minimum for NaN and out-of-range values; 1- and
/// 2-byte results are the low bytes of the 32-bit conversion.
fn to_int(r: f64, width: usize) -> i64 {
    const I64_RANGE: f64 = 9_223_372_036_854_775_808.0; // 2^63
    const I32_RANGE: f64 = 2_147_483_648.0; // 2^31
    if width == 8 {
        // NaN is in no range.
        if (-I64_RANGE..I64_RANGE).contains(&r) {
            r as i64
        } else {
            i64::MIN
        }
    } else {
        let v = if (-I32_RANGE..I32_RANGE).contains(&r) {
            r as i32
        } else {
            i32::MIN
        };
        match width {
            1 => i64::from(v as i8),
            2 => i64::from(v as i16),
            _ => i64::from(v),
        }
    }
}

/// A little-endian signed integer of `w` bytes.
fn read_int(b: &[u8]) -> i64 {
    match b.len() {
        1 => i64::from(b[0] as i8),
        2 => i64::from(i16::from_le_bytes([b[0], b[1]])),
        4 => i64::from(i32::from_le_bytes(b.try_into().expect("4 bytes"))),
        _ => i64::from_le_bytes(b.try_into().expect("8 bytes")),
    }
}

impl FilterCodec for FloatScale {
    fn name(&self) -> &'static str {
        NAME
    }

    fn output_datatype(&self, _input: Datatype) -> Datatype {
        match self.byte_width {
            1 => Datatype::Int8,
            2 => Datatype::Int16,
            4 => Datatype::Int32,
            _ => Datatype::Int64,
        }
    }

    fn forward(&self, cx: &FilterContext, input: Parts) -> Result<Parts, FilterError> {
        let fw = Self::float_width(cx)?;
        let mut data = Vec::with_capacity(input.data.len());
        for part in &input.data {
            if part.len() % fw != 0 {
                return Err(FilterError::new(
                    NAME,
                    format!(
                        "{} bytes are not a whole number of {fw}-byte floats",
                        part.len()
                    ),
                ));
            }
            let mut out = Vec::with_capacity(part.len() / fw * self.byte_width);
            for x in part.chunks_exact(fw) {
                let v = self.scale_one(x);
                out.extend_from_slice(&v.to_le_bytes()[..self.byte_width]);
            }
            data.push(out);
        }
        let md = tiledb_codec_format::table!(FloatScaleChunkMetadata {})
            .with_outside_sizes(&data)
            .map_err(super::too_large(NAME))?;
        let mut metadata = vec![encode(&md.with_sizes())?];
        metadata.extend(input.metadata);
        Ok(Parts { metadata, data })
    }

    fn reverse(
        &self,
        cx: &FilterContext,
        metadata: &[u8],
        data: &[u8],
    ) -> Result<Reversed, FilterError> {
        let fw = Self::float_width(cx)?;
        let (md, used) = decode::<FloatScaleChunkMetadata>(metadata, 0, ())
            .map_err(|e| FilterError::new(NAME, format!("chunk metadata: {e}")))?;
        let mut out = Vec::new();
        let mut pos = 0usize;
        for &len in &md.part_lengths {
            let len = len as usize;
            let part = pos
                .checked_add(len)
                .and_then(|end| data.get(pos..end))
                .ok_or_else(|| {
                    FilterError::new(
                        NAME,
                        format!(
                            "a part of {len} bytes at {pos} runs past the chunk's {} bytes",
                            data.len()
                        ),
                    )
                })?;
            // As the engine: whole integers only.
            for i in part.chunks_exact(self.byte_width) {
                self.unscale_one(read_int(i), fw, &mut out);
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
    use proptest::prelude::*;

    use super::*;
    use crate::Pipeline;
    use tiledb_codec_format::{FilterType, FloatScaleOptions};

    fn fs(scale: f64, offset: f64, byte_width: u64) -> Filter {
        tiledb_codec_format::table!(Filter {
            filter_type: FilterType::ScaleFloat,
            filter_options: FilterOptions::FloatScale(tiledb_codec_format::table!(
                FloatScaleOptions {
                    scale,
                    offset,
                    byte_width,
                }
            )),
        })
        .with_sizes()
    }

    #[test]
    fn the_spec_example() {
        let data: Vec<u8> = [10.0f64, 10.25, 10.754, 11.0001]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let p = Pipeline::new(&[fs(0.25, 10.0, 2)], Datatype::Float64, 8, 22).unwrap();
        let (md, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(md, [1, 0, 0, 0, 8, 0, 0, 0]);
        assert_eq!(filtered, [0, 0, 1, 0, 3, 0, 4, 0]);
        let back: Vec<f64> = p
            .reverse_chunk(&md, &filtered, None)
            .unwrap()
            .chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(back, [10.0, 10.25, 10.75, 11.0]);
    }

    #[test]
    fn rounding_is_half_away_from_zero_in_the_floats_precision() {
        let f = fs(1.0, 0.0, 1);
        let p = Pipeline::new(&[f], Datatype::Float32, 4, 22).unwrap();
        let data: Vec<u8> = [0.5f32, -0.5, 1.5, -2.5]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let (_, filtered) = p.forward_chunk(&data).unwrap();
        assert_eq!(filtered, [1, 0xff, 2, 0xfd]);
        // 300 in one byte: the low byte of the 32-bit conversion.
        let (_, f) = p.forward_chunk(&300.0f32.to_le_bytes()).unwrap();
        assert_eq!(f, [44]);
        // Out of any range: the minimum (x86-64).
        let p = Pipeline::new(&[fs(1.0, 0.0, 4)], Datatype::Float64, 8, 22).unwrap();
        let (_, f) = p.forward_chunk(&1e300f64.to_le_bytes()).unwrap();
        assert_eq!(f, i32::MIN.to_le_bytes());
        assert_eq!(
            codec(&fs(1.0, 0.0, 4))
                .unwrap()
                .output_datatype(Datatype::Float64),
            Datatype::Int32
        );
        assert!(codec(&fs(1.0, 0.0, 3)).is_err());
        let p = Pipeline::new(&[fs(1.0, 0.0, 4)], Datatype::Int16, 2, 22).unwrap();
        assert!(p.forward_chunk(&[0, 0]).is_err());
    }

    #[test]
    fn metadata_of_earlier_filters_follows() {
        let f = FloatScale {
            scale: 2.0,
            offset: 0.0,
            byte_width: 8,
        };
        let cx = FilterContext::new(Datatype::Float32, 4, 22);
        let input = Parts {
            metadata: vec![vec![9, 9]],
            data: vec![4.0f32.to_le_bytes().to_vec(), 6.0f32.to_le_bytes().to_vec()],
        };
        let out = f.forward(&cx, input).unwrap();
        assert_eq!(
            out.metadata,
            [vec![2, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0], vec![9, 9]]
        );
        assert_eq!(out.data, [2i64.to_le_bytes(), 3i64.to_le_bytes()]);
        let back = f
            .reverse(&cx, &out.metadata_bytes(), &out.data_bytes())
            .unwrap();
        assert_eq!(back.metadata, [9, 9]);
        assert_eq!(
            back.data,
            [4.0f32.to_le_bytes(), 6.0f32.to_le_bytes()].concat()
        );
    }

    proptest! {
        #[test]
        fn identity_on_representable_values(
            double in any::<bool>(),
            width in prop::sample::select(vec![1u64, 2, 4, 8]),
            scale_exp in -4i32..4,
            offset in -1000i32..1000,
            ints in prop::collection::vec(any::<i64>(), 0..20_000),
        ) {
            // Values on the grid `offset + k * scale`, k within the width,
            // with a power-of-two scale: exact both ways.
            let scale = 2f64.powi(scale_exp);
            let bits = (width * 8).min(if double { 36 } else { 12 }) as u32;
            let (dt, fw) = if double { (Datatype::Float64, 8) } else { (Datatype::Float32, 4) };
            let mut data = Vec::new();
            for i in &ints {
                let k = (i >> (64 - bits)) as f64;
                let v = f64::from(offset) + k * scale;
                if double {
                    data.extend_from_slice(&v.to_le_bytes());
                } else {
                    data.extend_from_slice(&(v as f32).to_le_bytes());
                }
            }
            let p = Pipeline::new(&[fs(scale, f64::from(offset), width)], dt, fw, 22).unwrap();
            let size = crate::pipeline::chunk_size(data.len() as u64, fw) as usize;
            for chunk in data.chunks(size.max(1)) {
                let (md, filtered) = p.forward_chunk(chunk).unwrap();
                prop_assert_eq!(filtered.len(), chunk.len() / fw as usize * width as usize);
                prop_assert_eq!(p.reverse_chunk(&md, &filtered, None).unwrap(), chunk);
            }
        }
    }
}
